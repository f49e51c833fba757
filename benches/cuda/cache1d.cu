// Hand-written CUDA for benches/cache1d.rs: a 3-point and a 9-point 1-D stencil on N floats, and
// the cache paper's radius-30 sum (Listing 1 / Fig. 1, its window read in a loop), each
// as a plain kernel (one thread per point, loads through the read-only path) and as the classic
// shared-memory kernel (the block's points and a halo of R on each side staged, a barrier, the
// reads from shared memory), blocks of 256, the same inputs and operation order as the Rust code
// (built with -fmad=false). Prints `nvcc <case> <ms> ms <GB/s> GB/s` lines like the acc bench's.
#include "timing.cuh"

const size_t N = (size_t)1 << 26;
const int B = 256;

template <int R> __device__ __forceinline__ float st(const float* a, long i);
template <> __device__ __forceinline__ float st<1>(const float* a, long i) { return 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1]; }
template <> __device__ __forceinline__ float st<4>(const float* a, long i) {
    return 0.2f * a[i] + 0.16f * (a[i - 1] + a[i + 1]) + 0.12f * (a[i - 2] + a[i + 2]) + 0.08f * (a[i - 3] + a[i + 3]) + 0.04f * (a[i - 4] + a[i + 4]);
}

template <> __device__ __forceinline__ float st<30>(const float* a, long i) {
    float s = 0.0f;
    for (int j = -30; j <= 30; j++) s += a[i + j];
    return s;
}

template <int R> __global__ void plain(const float* __restrict__ a, float* __restrict__ b, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x + R;
    if (i < n - R) b[i] = st<R>(a, i);
}

template <int R> __global__ void shared(const float* __restrict__ a, float* __restrict__ b, long n) {
    __shared__ float s[B + 2 * R];
    long base = (long)blockIdx.x * B + R;  // the block's first point
    for (int t = threadIdx.x; t < B + 2 * R; t += B) {
        long g = base - R + t;
        if (g < n) s[t] = a[g];
    }
    __syncthreads();
    long i = base + threadIdx.x;
    if (i < n - R) b[i] = st<R>(s, threadIdx.x + R);
}

template <int R, class K> void run(const char* name, K kernel, const float* da, float* db) {
    long pts = (long)N - 2 * R;
    unsigned grid = (unsigned)((pts + B - 1) / B);
    float ms = median_ms([&] { kernel<<<grid, B>>>(da, db, (long)N); });
    CK(cudaGetLastError());
    std::vector<float> b(N);
    CK(cudaMemcpy(b.data(), db, N * 4, cudaMemcpyDeviceToHost));
    double sum = 0; for (float v : b) sum += v;
    printf("nvcc %-12s %9.4f ms %8.1f GB/s   # checksum %.6e\n", name, ms, 8.0 * N / (ms * 1e-3) / 1e9, sum);
}

int main() {
    std::vector<float> a(N);
    for (size_t x = 0; x < N; x++) a[x] = (float)((x * 7919) % 1000) / 1000.0f;
    float *da, *db;
    CK(cudaMalloc(&da, N * 4)); CK(cudaMalloc(&db, N * 4));
    CK(cudaMemcpy(da, a.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemset(db, 0, N * 4));
    run<1>("s3_plain", plain<1>, da, db);
    run<1>("s3_shared", shared<1>, da, db);
    run<4>("s9_plain", plain<4>, da, db);
    run<4>("s9_shared", shared<4>, da, db);
    run<30>("r30_plain", plain<30>, da, db);
    run<30>("r30_shared", shared<30>, da, db);
    return 0;
}
