// Hand-written CUDA for benches/nbody.rs: the forces of N bodies on each other (the cache
// paper's N-body, Section V-B 2), softened, with structure-of-arrays positions and masses,
// one thread per body, blocks of 256: a plain kernel (every body read from global memory
// through the caches), and the classic shared-memory kernel (the block stages 256 bodies per
// tile, a barrier, the tile's interactions from shared memory, a barrier). Built with
// -fmad=false, as acc's multiply-adds are not fused; the same operations in the same order as
// the Rust code, so every force is bit-identical to acc's. Prints `nvcc <case> <ms> ms
// <G interactions/s>` lines like the acc bench's.
#include "timing.cuh"

const int N = 65536;
const int T = 256;
const float EPS = 0.01f;

__device__ __forceinline__ void interact(float xi, float yi, float zi, float xj, float yj, float zj, float mj, float& fx, float& fy, float& fz) {
    float dx = xj - xi, dy = yj - yi, dz = zj - zi;
    float r2 = dx * dx + dy * dy + dz * dz + EPS;
    float d = sqrtf(r2);
    float s = mj / (r2 * d);
    fx += dx * s; fy += dy * s; fz += dz * s;
}

__global__ void plain(const float* __restrict__ x, const float* __restrict__ y, const float* __restrict__ z, const float* __restrict__ m, float* ax, float* ay, float* az, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float xi = x[i], yi = y[i], zi = z[i], fx = 0, fy = 0, fz = 0;
    for (int j = 0; j < n; j++) interact(xi, yi, zi, x[j], y[j], z[j], m[j], fx, fy, fz);
    ax[i] = fx; ay[i] = fy; az[i] = fz;
}

__global__ void shared(const float* __restrict__ x, const float* __restrict__ y, const float* __restrict__ z, const float* __restrict__ m, float* ax, float* ay, float* az, int n) {
    __shared__ float sx[T], sy[T], sz[T], sm[T];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float xi = 0, yi = 0, zi = 0, fx = 0, fy = 0, fz = 0;
    if (i < n) { xi = x[i]; yi = y[i]; zi = z[i]; }
    for (int jj = 0; jj < n; jj += T) {
        int j = jj + threadIdx.x;
        if (j < n) { sx[threadIdx.x] = x[j]; sy[threadIdx.x] = y[j]; sz[threadIdx.x] = z[j]; sm[threadIdx.x] = m[j]; }
        __syncthreads();
        int lim = min(T, n - jj);
        for (int k = 0; k < lim; k++) interact(xi, yi, zi, sx[k], sy[k], sz[k], sm[k], fx, fy, fz);
        __syncthreads();
    }
    if (i < n) { ax[i] = fx; ay[i] = fy; az[i] = fz; }
}

int main() {
    std::vector<float> x(N), y(N), z(N), m(N);
    for (int i = 0; i < N; i++) {
        long long l = i;
        x[i] = (float)((l * 7919) % 1000) * 0.001f; y[i] = (float)((l * 104729) % 1000) * 0.001f;
        z[i] = (float)((l * 15485863) % 1000) * 0.001f; m[i] = 1.0f + (float)(i % 7);
    }
    float *d[7];
    for (int k = 0; k < 7; k++) CK(cudaMalloc(&d[k], N * 4));
    CK(cudaMemcpy(d[0], x.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(d[1], y.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d[2], z.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(d[3], m.data(), N * 4, cudaMemcpyHostToDevice));
    auto run = [&](const char* name, auto kernel) {
        float ms = median_ms([&] { kernel<<<(N + T - 1) / T, T>>>(d[0], d[1], d[2], d[3], d[4], d[5], d[6], N); });
        CK(cudaGetLastError());
        std::vector<float> ax(N);
        CK(cudaMemcpy(ax.data(), d[4], N * 4, cudaMemcpyDeviceToHost));
        double sum = 0; for (float v : ax) sum += v;
        printf("nvcc %-14s %9.4f ms %8.2f G interactions/s   # checksum %.9e\n", name, ms, (double)N * N / (ms * 1e-3) / 1e9, sum);
        printf("nvcc_wall %-9s %9.4f ms\n", name, g_wall_ms);
    };
    run("plain", plain);
    run("shared", shared);
    return 0;
}
