// Experiment (session 31, issue 11): 1-D stencils, plain vs shared-memory staging with M points
// a thread a trip, grid-stride like acc's streaming loops. Not a product file.
#include "../../benches/cuda/timing.cuh"
const size_t N = (size_t)1 << 26;
const int B = 256;
template <int R> __device__ __forceinline__ float st(const float* a, long i);
template <> __device__ __forceinline__ float st<1>(const float* a, long i) { return 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1]; }
template <> __device__ __forceinline__ float st<4>(const float* a, long i) {
    return 0.2f * a[i] + 0.16f * (a[i - 1] + a[i + 1]) + 0.12f * (a[i - 2] + a[i + 2]) + 0.08f * (a[i - 3] + a[i + 3]) + 0.04f * (a[i - 4] + a[i + 4]);
}
template <int R> __global__ void plain(const float* __restrict__ a, float* __restrict__ b, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x + R;
    if (i < n - R) b[i] = st<R>(a, i);
}
// grid-stride, M points a thread a trip (a block trip covers M*B points, thread's points B apart)
template <int R, int M> __global__ void gsplain(const float* __restrict__ a, float* __restrict__ b, long n) {
    long pts = n - 2 * R;
    for (long base = (long)blockIdx.x * B * M; base < pts; base += (long)gridDim.x * B * M) {
        float v[M];
#pragma unroll
        for (int q = 0; q < M; q++) { long k = base + threadIdx.x + q * B; if (k < pts) v[q] = st<R>(a, k + R); }
#pragma unroll
        for (int q = 0; q < M; q++) { long k = base + threadIdx.x + q * B; if (k < pts) b[k + R] = v[q]; }
    }
}
// grid-stride, shared window M*B + 2R, scalar fetch
template <int R, int M> __global__ void gssh(const float* __restrict__ a, float* __restrict__ b, long n) {
    __shared__ float s[M * B + 2 * R];
    long pts = n - 2 * R;
    for (long base = (long)blockIdx.x * B * M; base < pts; base += (long)gridDim.x * B * M) {
        long first = base;  // a index of window element 0 (point base + R minus R)
#pragma unroll
        for (int q = 0; q < M + 1; q++) { int t = threadIdx.x + q * B; long g = first + t; if (t < M * B + 2 * R && g < n) s[t] = a[g]; }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < M; q++) { long k = base + threadIdx.x + q * B; if (k < pts) b[k + R] = st<R>(s, threadIdx.x + q * B + R); }
        __syncthreads();
    }
}
// grid-stride, shared window, 16-byte fetch of the aligned words covering it
template <int R, int M> __global__ void gsshv(const float* __restrict__ a, float* __restrict__ b, long n) {
    __shared__ float4 s4[M * B / 4 + 4];
    float* s = (float*)s4;
    long pts = n - 2 * R;
    for (long base = (long)blockIdx.x * B * M; base < pts; base += (long)gridDim.x * B * M) {
        long a0 = base & ~3L;            // window starts at a[base]; words from a0
        long end = base + M * B + 2 * R; // exclusive
        if (end > n) end = n;
        int words = (int)((end - a0 + 3) / 4);
        for (int w = threadIdx.x; w < words; w += B) {
            long g = a0 + 4 * w;
            if (g + 4 <= n) s4[w] = *(const float4*)(a + g);
            else for (int e = 0; e < 4; e++) if (g + e < n) s[4 * w + e] = a[g + e];
        }
        __syncthreads();
        int off = (int)(base - a0);
#pragma unroll
        for (int q = 0; q < M; q++) { long k = base + threadIdx.x + q * B; if (k < pts) b[k + R] = st<R>(s, off + threadIdx.x + q * B + R); }
        __syncthreads();
    }
}
// as gsshv, next trip's words loaded into registers before this trip's compute (M/4+1 words a thread max)
template <int R, int M> __global__ void gsshvp(const float* __restrict__ a, float* __restrict__ b, long n) {
    __shared__ float4 s4[M * B / 4 + 4];
    float* s = (float*)s4;
    const int W = M / 4 + 1;
    long pts = n - 2 * R;
    long stride = (long)gridDim.x * B * M;
    long base = (long)blockIdx.x * B * M;
    float4 r[W];
    auto load = [&](long bs) {
        long a0 = bs & ~3L; long end = bs + M * B + 2 * R; if (end > n) end = n;
        int words = (int)((end - a0 + 3) / 4);
#pragma unroll
        for (int j = 0; j < W; j++) { int w = threadIdx.x + j * B; long g = a0 + 4 * w;
            if (w < words && g + 4 <= n) r[j] = *(const float4*)(a + g);
            else if (w < words) { float t[4] = {0,0,0,0}; for (int e = 0; e < 4; e++) if (g + e < n) t[e] = a[g + e]; r[j] = make_float4(t[0],t[1],t[2],t[3]); } }
        return words;
    };
    int words = base < pts ? load(base) : 0;
    for (; base < pts; base += stride) {
#pragma unroll
        for (int j = 0; j < W; j++) { int w = threadIdx.x + j * B; if (w < words) s4[w] = r[j]; }
        __syncthreads();
        long nb = base + stride;
        int nwords = nb < pts ? load(nb) : 0;
        long a0 = base & ~3L;
        int off = (int)(base - a0);
#pragma unroll
        for (int q = 0; q < M; q++) { long k = base + threadIdx.x + q * B; if (k < pts) b[k + R] = st<R>(s, off + threadIdx.x + q * B + R); }
        __syncthreads();
        words = nwords;
    }
}
std::vector<float> want1, want4;
template <int R, class K> void run(const char* name, K kernel, unsigned grid, const float* da, float* db) {
    CK(cudaMemset(db, 0, N * 4));
    float ms = median_ms([&] { kernel<<<grid, B>>>(da, db, (long)N); });
    CK(cudaGetLastError());
    std::vector<float> b(N);
    CK(cudaMemcpy(b.data(), db, N * 4, cudaMemcpyDeviceToHost));
    const std::vector<float>& w = R == 1 ? want1 : want4;
    size_t bad = 0; for (size_t i = 0; i < N; i++) if (b[i] != w[i]) bad++;
    printf("%-18s grid %7u %9.4f ms %8.1f GB/s wall %.4f %s\n", name, grid, ms, 8.0 * N / (ms * 1e-3) / 1e9, g_wall_ms, bad ? "WRONG" : "ok");
}
int main() {
    std::vector<float> a(N);
    for (size_t x = 0; x < N; x++) a[x] = (float)((x * 7919) % 1000) / 1000.0f;
    want1.assign(N, 0); want4.assign(N, 0);
    for (size_t i = 1; i < N - 1; i++) want1[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
    for (size_t i = 4; i < N - 4; i++) want4[i] = 0.2f * a[i] + 0.16f * (a[i - 1] + a[i + 1]) + 0.12f * (a[i - 2] + a[i + 2]) + 0.08f * (a[i - 3] + a[i + 3]) + 0.04f * (a[i - 4] + a[i + 4]);
    float *da, *db;
    CK(cudaMalloc(&da, N * 4)); CK(cudaMalloc(&db, N * 4));
    CK(cudaMemcpy(da, a.data(), N * 4, cudaMemcpyHostToDevice));
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned full = (unsigned)((N + B - 1) / B);
    for (int rep = 0; rep < 2; rep++) {
    for (unsigned waves : {8u}) {
        unsigned g = sms * (2048 / B) * waves;
        printf("# waves %u\n", waves);
#define ALL(R) \
        run<R>("plain" #R, plain<R>, full, da, db); \
        run<R>("gsplain" #R "_1", gsplain<R, 1>, g, da, db); \
        run<R>("gsplain" #R "_4", gsplain<R, 4>, g, da, db); \
        run<R>("gssh" #R "_1", gssh<R, 1>, g, da, db); \
        run<R>("gssh" #R "_2", gssh<R, 2>, g, da, db); \
        run<R>("gssh" #R "_4", gssh<R, 4>, g, da, db); \
        run<R>("gssh" #R "_8", gssh<R, 8>, g, da, db); \
        run<R>("gsshv" #R "_4", gsshv<R, 4>, g, da, db); \
        run<R>("gsshv" #R "_8", gsshv<R, 8>, g, da, db); \
        run<R>("gsshv" #R "_16", gsshv<R, 16>, g, da, db); \
        run<R>("gsshvp" #R "_4", gsshvp<R, 4>, g, da, db); \
        run<R>("gsshvp" #R "_8", gsshvp<R, 8>, g, da, db); \
        run<R>("gsshv" #R "_4_1w", gsshv<R, 4>, g / waves, da, db); \
        run<R>("gsshv" #R "_4_full", gsshv<R, 4>, full / 4, da, db);
        ALL(1)
        ALL(4)
    }
    }
    return 0;
}
