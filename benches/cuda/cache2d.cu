// Hand-written CUDA for benches/cache2d.rs: c = a * b for N x N floats as the classic
// shared-memory tiled kernel (a T x T tile of a and of b staged per k-tile, a barrier, T
// multiply-adds from shared memory, a barrier), T = 16 and 32, one thread per element of c,
// the same inputs as the Rust code (built with -fmad=false, as acc's multiply-adds are not
// fused). Prints `nvcc <case> <ms> ms <GFLOP/s> GFLOP/s` lines like the acc bench's.
#include "timing.cuh"

const int N = 2048;

template <int T> __global__ void tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    __shared__ float as[T][T], bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float s = 0.0f;
    for (int kk = 0; kk < n; kk += T) {
        as[ty][tx] = a[(long)row * n + kk + tx];
        bs[ty][tx] = b[(long)(kk + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++) s += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    c[(long)row * n + col] = s;
}

template <int T> void run(const char* name, const float* da, const float* db, float* dc) {
    dim3 grid(N / T, N / T), block(T, T);
    float ms = median_ms([&] { tiled<T><<<grid, block>>>(da, db, dc, N); });
    CK(cudaGetLastError());
    std::vector<float> c((size_t)N * N);
    CK(cudaMemcpy(c.data(), dc, (size_t)N * N * 4, cudaMemcpyDeviceToHost));
    double sum = 0; for (float v : c) sum += v;
    printf("nvcc %-16s %9.4f ms %8.1f GFLOP/s   # checksum %.6e\n", name, ms, 2.0 * N * N * (double)N / (ms * 1e-3) / 1e9, sum);
}

int main() {
    size_t nn = (size_t)N * N;
    std::vector<float> a(nn), b(nn);
    for (size_t x = 0; x < nn; x++) { a[x] = (float)((x * 7919) % 7) - 3.0f; b[x] = (float)((x * 104729) % 5) - 2.0f; }
    float *da, *db, *dc;
    CK(cudaMalloc(&da, nn * 4)); CK(cudaMalloc(&db, nn * 4)); CK(cudaMalloc(&dc, nn * 4));
    CK(cudaMemcpy(da, a.data(), nn * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), nn * 4, cudaMemcpyHostToDevice));
    run<16>("shared16", da, db, dc);
    run<32>("shared32", da, db, dc);
    return 0;
}
