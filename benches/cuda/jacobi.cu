// Hand-written CUDA for benches/jacobi.rs: one Jacobi step of an N x N float grid, each
// interior point the weighted average of its 3 x 3 neighbourhood (the cache paper's Jacobi,
// Section V-B 3): a plain kernel (one point a thread, blocks of 32 x 8, every neighbour read
// from global memory through the caches); `shared` (blocks of 32 x 8 threads on tiles of
// 32 x 32 points, 4 rows a thread; the block loads its tile and the halo, 34 x 34, into shared
// memory, a barrier, the points from there); and `shared1` (the paper's CUDA form: a block of
// threads the size of the data it reads, 34 x 10, the border threads only load). Built with
// -fmad=false; the same operations in the same order as the Rust code, so every point is
// bit-identical to acc's. Prints `nvcc <case> <ms> ms <GB/s>` lines like the acc bench's.
#include "timing.cuh"

const int N = 4096;

__device__ __forceinline__ float nine(float nw, float nn, float ne, float w, float c, float e, float sw, float s, float se) {
    return 0.0625f * (nw + ne + sw + se) + 0.125f * (nn + s + w + e) + 0.25f * c;
}

__global__ void plain(const float* __restrict__ a, float* __restrict__ b, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i >= n - 1 || j >= n - 1) return;
    const float* r0 = a + (size_t)(i - 1) * n;
    const float* r1 = r0 + n;
    const float* r2 = r1 + n;
    b[(size_t)i * n + j] = nine(r0[j - 1], r0[j], r0[j + 1], r1[j - 1], r1[j], r1[j + 1], r2[j - 1], r2[j], r2[j + 1]);
}

__global__ void shared(const float* __restrict__ a, float* __restrict__ b, int n) {
    __shared__ float t[34][35];
    int bj = blockIdx.x * 32, bi = blockIdx.y * 32;  // the tile's first interior point is (bi + 1, bj + 1)
    for (int r = threadIdx.y; r < 34; r += 8)
        for (int c = threadIdx.x; c < 34; c += 32) {
            int gi = bi + r, gj = bj + c;
            if (gi < n && gj < n) t[r][c] = a[(size_t)gi * n + gj];
        }
    __syncthreads();
    int c = threadIdx.x;
    int j = bj + c + 1;
    for (int q = 0; q < 4; q++) {
        int r = threadIdx.y + 8 * q;
        int i = bi + r + 1;
        if (i < n - 1 && j < n - 1)
            b[(size_t)i * n + j] = nine(t[r][c], t[r][c + 1], t[r][c + 2], t[r + 1][c], t[r + 1][c + 1], t[r + 1][c + 2], t[r + 2][c], t[r + 2][c + 1], t[r + 2][c + 2]);
    }
}

__global__ void shared1(const float* __restrict__ a, float* __restrict__ b, int n) {
    __shared__ float t[10][35];
    int gj = blockIdx.x * 32 + threadIdx.x, gi = blockIdx.y * 8 + threadIdx.y;  // this thread's load
    if (gi < n && gj < n) t[threadIdx.y][threadIdx.x] = a[(size_t)gi * n + gj];
    __syncthreads();
    int r = threadIdx.y, c = threadIdx.x;
    if (r < 8 && c < 32 && gi + 1 < n - 1 && gj + 1 < n - 1)
        b[(size_t)(gi + 1) * n + gj + 1] = nine(t[r][c], t[r][c + 1], t[r][c + 2], t[r + 1][c], t[r + 1][c + 1], t[r + 1][c + 2], t[r + 2][c], t[r + 2][c + 1], t[r + 2][c + 2]);
}

int main() {
    size_t cells = (size_t)N * N;
    std::vector<float> a(cells);
    for (size_t k = 0; k < cells; k++) a[k] = (float)((k * 7919) % 16);
    float *da, *db;
    CK(cudaMalloc(&da, cells * 4));
    CK(cudaMalloc(&db, cells * 4));
    CK(cudaMemcpy(da, a.data(), cells * 4, cudaMemcpyHostToDevice));
    auto report = [&](const char* name, float ms) {
        CK(cudaGetLastError());
        std::vector<float> b(cells);
        CK(cudaMemcpy(b.data(), db, cells * 4, cudaMemcpyDeviceToHost));
        double sum = 0;
        for (float v : b) sum += v;
        printf("nvcc %-14s %9.4f ms %8.1f GB/s   # checksum %.9e\n", name, ms, 2.0 * cells * 4 / (ms * 1e-3) / 1e9, sum);
        printf("nvcc_wall %-9s %9.4f ms\n", name, g_wall_ms);
    };
    int tiles = (N - 2 + 31) / 32;
    CK(cudaMemset(db, 0, cells * 4));
    report("plain", median_ms([&] { plain<<<dim3(tiles, (N - 2 + 7) / 8), dim3(32, 8)>>>(da, db, N); }));
    CK(cudaMemset(db, 0, cells * 4));
    report("shared", median_ms([&] { shared<<<dim3(tiles, tiles), dim3(32, 8)>>>(da, db, N); }));
    CK(cudaMemset(db, 0, cells * 4));
    report("shared1", median_ms([&] { shared1<<<dim3(tiles, (N - 2 + 7) / 8), dim3(34, 10)>>>(da, db, N); }));
    return 0;
}
