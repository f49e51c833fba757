// Hand-written CUDA for benches/jacobi.rs: one Jacobi step of an N x N float grid, each
// interior point the weighted average of its 3 x 3 neighbourhood (the cache paper's Jacobi,
// Section V-B 3): a plain kernel (one point a thread, blocks of 32 x 8, every neighbour read
// from global memory through the caches); `shared` (blocks of 32 x 8 threads on tiles of
// 32 x 32 points, 4 rows a thread; the block loads its tile and the halo, 34 x 34, into shared
// memory, a barrier, the points from there); `shared1` (the paper's CUDA form: a block of
// threads the size of the data it reads, 34 x 10, the border threads only load); `wide` and
// `pipe` (below: 16-byte loads, a grid looping over the tiles, `pipe` overlapping the next
// tile's loads with the current tile's points). Built with
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

// `wide`: `shared`'s tiles with the load of a thread 16 bytes at a time (34 rows of 9 words,
// two a thread, loads before stores), a grid of 4 blocks a multiprocessor looping over the
// tiles (the launch acc's cached kernel gets); `pipe`: the same with the next tile's words
// loaded before the current tile's points and stored after them into a second buffer (one
// barrier a tile). acc's cached kernel is neither (see benches/README.md).
__device__ __forceinline__ void body4(const float (*t)[36], float* b, int bi, int bj, int n) {
    int c = threadIdx.x, j = bj + c + 1;
    for (int q = 0; q < 4; q++) {
        int r = threadIdx.y + 8 * q, i = bi + r + 1;
        if (i < n - 1 && j < n - 1)
            b[(size_t)i * n + j] = nine(t[r][c], t[r][c + 1], t[r][c + 2], t[r + 1][c], t[r + 1][c + 1], t[r + 1][c + 2], t[r + 2][c], t[r + 2][c + 1], t[r + 2][c + 2]);
    }
}

__device__ __forceinline__ void load_words(const float* a, int bi, int bj, int n, float4 v[2], int at[2]) {
    int tid = threadIdx.y * 32 + threadIdx.x;
    for (int u = 0; u < 2; u++) {
        int w = tid + 256 * u;
        at[u] = -1;
        if (w < 306) {
            int r = w / 9, cw = w % 9, gi = bi + r, gj = bj + cw * 4;
            if (gi < n && gj + 3 < n) {
                v[u] = __ldg((const float4*)(a + (size_t)gi * n + gj));
                at[u] = r * 36 + cw * 4;
            }
        }
    }
}

__device__ __forceinline__ void store_words(float* t, const float4 v[2], const int at[2]) {
    for (int u = 0; u < 2; u++)
        if (at[u] >= 0) *(float4*)(t + at[u]) = v[u];
}

__global__ void __launch_bounds__(256, 4) wide(const float* __restrict__ a, float* __restrict__ b, int n) {
    __shared__ __align__(16) float t[34][36];
    int tiles = (n - 2 + 31) / 32;
    for (int ty = blockIdx.y; ty < tiles; ty += gridDim.y)
        for (int tx = blockIdx.x; tx < tiles; tx += gridDim.x) {
            float4 v[2];
            int at[2];
            load_words(a, ty * 32, tx * 32, n, v, at);
            store_words(&t[0][0], v, at);
            __syncthreads();
            body4(t, b, ty * 32, tx * 32, n);
            __syncthreads();
        }
}

__global__ void __launch_bounds__(256, 4) pipe(const float* __restrict__ a, float* __restrict__ b, int n) {
    __shared__ __align__(16) float t[2][34][36];
    int tiles = (n - 2 + 31) / 32, total = tiles * tiles, stride = gridDim.x * gridDim.y;
    int s = blockIdx.y * gridDim.x + blockIdx.x;
    if (s >= total) return;
    float4 v[2];
    int at[2];
    load_words(a, (s / tiles) * 32, (s % tiles) * 32, n, v, at);
    store_words(&t[0][0][0], v, at);
    for (int cur = 0; s < total; s += stride, cur ^= 1) {
        __syncthreads();
        int next = s + stride;
        if (next < total) load_words(a, (next / tiles) * 32, (next % tiles) * 32, n, v, at);
        body4(t[cur], b, (s / tiles) * 32, (s % tiles) * 32, n);
        if (next < total) store_words(&t[cur ^ 1][0][0], v, at);
    }
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
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    dim3 wave(tiles, (4 * sms + tiles - 1) / tiles);
    CK(cudaMemset(db, 0, cells * 4));
    report("wide", median_ms([&] { wide<<<wave, dim3(32, 8)>>>(da, db, N); }));
    CK(cudaMemset(db, 0, cells * 4));
    report("pipe", median_ms([&] { pipe<<<wave, dim3(32, 8)>>>(da, db, N); }));
    CK(cudaMemset(db, 0, cells * 4));
    report("shared1", median_ms([&] { shared1<<<dim3(tiles, (N - 2 + 7) / 8), dim3(34, 10)>>>(da, db, N); }));
    return 0;
}
