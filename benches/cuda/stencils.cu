// Hand-written CUDA for benches/stencils.rs: the 5-point Laplacian on an L2 x L2 grid and the
// 13-point wave step on an L3^3 grid, one thread per point (2-D blocks of 32 x 8; the 3-D
// kernel's i from blockIdx.z), the same inputs and operation order as the Rust code (built with
// -fmad=false so that no multiply-add is fused). Prints `nvcc <case> <ms> ms <GB/s> GB/s` lines
// like the acc bench's and a checksum per case.
#include "timing.cuh"

const int L2 = 8192, L3 = 256;

__global__ void lap2d(const float* __restrict__ a, float* __restrict__ b, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i < n - 1 && j < n - 1) {
        size_t c = (size_t)i * n + j;
        b[c] = a[c - n] + a[c + n] + a[c - 1] + a[c + 1] - 4.0f * a[c];
    }
}

__device__ __forceinline__ float axis(const float* __restrict__ u, size_t c, size_t s) {
    return (4.0f / 3.0f) * (u[c - s] + u[c + s]) - (1.0f / 12.0f) * (u[c - 2 * s] + u[c + 2 * s]);
}

__global__ void wave3d(const float* __restrict__ u, const float* __restrict__ prev, float* __restrict__ next, int n) {
    int k = blockIdx.x * blockDim.x + threadIdx.x + 2;
    int j = blockIdx.y * blockDim.y + threadIdx.y + 2;
    int i = blockIdx.z + 2;
    if (i < n - 2 && j < n - 2 && k < n - 2) {
        size_t c = ((size_t)i * n + j) * n + k;
        float lap = axis(u, c, 1) + axis(u, c, n) + axis(u, c, (size_t)n * n) - 7.5f * u[c];
        next[c] = 2.0f * u[c] - prev[c] + 0.1f * lap;
    }
}

int main() {
    {
        size_t n = L2, N = n * n;
        std::vector<float> a(N), b(N, 0.0f);
        for (size_t x = 0; x < N; x++) a[x] = (float)((x * 7919) % 1000) / 1000.0f;
        float *da, *db;
        CK(cudaMalloc(&da, N * 4)); CK(cudaMalloc(&db, N * 4));
        CK(cudaMemcpy(da, a.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemset(db, 0, N * 4));
        dim3 blk(32, 8), grd((n - 2 + 31) / 32, (n - 2 + 7) / 8);
        float ms = median_ms([&] { lap2d<<<grd, blk>>>(da, db, (int)n); });
        CK(cudaGetLastError());
        CK(cudaMemcpy(b.data(), db, N * 4, cudaMemcpyDeviceToHost));
        double sum = 0; for (float v : b) sum += v;
        printf("nvcc %-22s %9.4f ms %8.1f GB/s\n", "lap2d", ms, 8.0 * N / (ms * 1e-3) / 1e9);
        printf("nvcc_wall %-22s %9.4f ms %8.1f GB/s\n", "lap2d", g_wall_ms, 8.0 * N / (g_wall_ms * 1e-3) / 1e9);
        printf("#    lap2d checksum %.6e\n", sum);
        CK(cudaFree(da)); CK(cudaFree(db));
    }
    {
        size_t n = L3, N = n * n * n;
        std::vector<float> u(N), p(N), nx(N, 0.0f);
        for (size_t x = 0; x < N; x++) { u[x] = (float)((x * 7919) % 1000) / 1000.0f; p[x] = (float)((x * 104729) % 1000) / 1000.0f; }
        float *du, *dp, *dn;
        CK(cudaMalloc(&du, N * 4)); CK(cudaMalloc(&dp, N * 4)); CK(cudaMalloc(&dn, N * 4));
        CK(cudaMemcpy(du, u.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dp, p.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemset(dn, 0, N * 4));
        dim3 blk(32, 8, 1), grd((n - 4 + 31) / 32, (n - 4 + 7) / 8, n - 4);
        float ms = median_ms([&] { wave3d<<<grd, blk>>>(du, dp, dn, (int)n); });
        CK(cudaGetLastError());
        CK(cudaMemcpy(nx.data(), dn, N * 4, cudaMemcpyDeviceToHost));
        double sum = 0; for (float v : nx) sum += v;
        printf("nvcc %-22s %9.4f ms %8.1f GB/s\n", "wave3d", ms, 12.0 * N / (ms * 1e-3) / 1e9);
        printf("nvcc_wall %-22s %9.4f ms %8.1f GB/s\n", "wave3d", g_wall_ms, 12.0 * N / (g_wall_ms * 1e-3) / 1e9);
        printf("#    wave3d checksum %.6e\n", sum);

        // The time loop of benches/stencils.rs's `wave3d_steps`: STEPS steps, the three grids
        // taking turns as the current, the previous and the next step. Per step: the events
        // around all the launches, the wall clock of the launches and one synchronisation
        // (`nvcc_wall`), and the wall clock with each step synchronised (`_sync`).
        const int STEPS = 21;
        float* g[3] = {du, dp, dn};
        auto step = [&](int s) {
            int r = s % 3;
            float* cur = g[(3 - r) % 3];
            float* old = g[(4 - r) % 3];
            float* nxt = g[(5 - r) % 3];
            wave3d<<<grd, blk>>>(cur, old, nxt, (int)n);
        };
        CK(cudaMemcpy(du, u.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dp, p.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemset(dn, 0, N * 4));
        for (int s = 0; s < STEPS; s++) step(s);
        CK(cudaDeviceSynchronize());
        double sum3 = 0;
        for (int b = 0; b < 3; b++) {
            CK(cudaMemcpy(nx.data(), g[b], N * 4, cudaMemcpyDeviceToHost));
            for (float v : nx) sum3 += v;
        }
        printf("#    wave3d_steps checksum of the three grids after %d steps %.6e\n", STEPS, sum3);
        ms = median_ms([&] { for (int s = 0; s < STEPS; s++) step(s); }) / STEPS;
        CK(cudaGetLastError());
        printf("nvcc %-22s %9.4f ms %8.1f GB/s\n", "wave3d_steps", ms, 12.0 * N / (ms * 1e-3) / 1e9);
        printf("nvcc_wall %-22s %9.4f ms %8.1f GB/s\n", "wave3d_steps", g_wall_ms / STEPS, 12.0 * N / (g_wall_ms / STEPS * 1e-3) / 1e9);
        median_ms([&] { for (int s = 0; s < STEPS; s++) { step(s); CK(cudaDeviceSynchronize()); } });
        printf("nvcc_wall %-22s %9.4f ms %8.1f GB/s\n", "wave3d_steps_sync", g_wall_ms / STEPS, 12.0 * N / (g_wall_ms / STEPS * 1e-3) / 1e9);
    }
    return 0;
}
