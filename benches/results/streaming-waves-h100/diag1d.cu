// Diagnostic (session 24): traversals of a 1-D stencil on 2^26 f32 beside nvcc's plain kernel.
// Built and run on the GPU machine from the repository root:
//   nvcc -O3 -arch=native -fmad=false -std=c++20 -o /tmp/diag1d benches/results/streaming-waves-h100/diag1d.cu && /tmp/diag1d
#include "../../cuda/timing.cuh"
const size_t N = (size_t)1 << 26;
const int B = 256;
template <int R> __device__ __forceinline__ float st(const float* a, long i);
template <> __device__ __forceinline__ float st<1>(const float* a, long i) { return 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1]; }
template <> __device__ __forceinline__ float st<4>(const float* a, long i) {
    return 0.2f * a[i] + 0.16f * (a[i - 1] + a[i + 1]) + 0.12f * (a[i - 2] + a[i + 2]) + 0.08f * (a[i - 3] + a[i + 3]) + 0.04f * (a[i - 4] + a[i + 4]);
}
// taps from a register strip: w(k) = a[i + k]
template <int R, class W> __device__ __forceinline__ float stw(W w) {
    if constexpr (R == 1) return 0.25f * w(-1) + 0.5f * w(0) + 0.25f * w(1);
    else return 0.2f * w(0) + 0.16f * (w(-1) + w(1)) + 0.12f * (w(-2) + w(2)) + 0.08f * (w(-3) + w(3)) + 0.04f * (w(-4) + w(4));
}
template <int R> __global__ void plain(const float* __restrict__ a, float* __restrict__ b, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x + R;
    if (i < n - R) b[i] = st<R>(a, i);
}
template <int R> __global__ void gs(const float* __restrict__ a, float* __restrict__ b, long n) {
    long S = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x + R; i < n - R; i += S) b[i] = st<R>(a, i);
}
template <int R, int U> __global__ void gsu(const float* __restrict__ a, float* __restrict__ b, long n) {
    long S = (long)gridDim.x * blockDim.x;
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x + R;
    for (; i + (U - 1) * S < n - R; i += U * S) {
        float v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = st<R>(a, i + u * S);
#pragma unroll
        for (int u = 0; u < U; u++) b[i + u * S] = v[u];
    }
    for (; i < n - R; i += S) b[i] = st<R>(a, i);
}
// a band of consecutive trips a block, stepping by blockDim
template <int R, int U> __global__ void band(const float* __restrict__ a, float* __restrict__ b, long n) {
    long trips = n - 2 * R;
    long per = (trips + gridDim.x - 1) / gridDim.x;
    per = (per + B * U - 1) / (B * U) * (B * U);
    long lo = (long)blockIdx.x * per, hi = min(lo + per, trips);
    long t = lo + threadIdx.x;
    for (; t + (U - 1) * B < hi; t += U * B) {
        float v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = st<R>(a, t + u * B + R);
#pragma unroll
        for (int u = 0; u < U; u++) b[t + u * B + R] = v[u];
    }
    for (; t < hi; t += B) b[t + R] = st<R>(a, t + R);
}
// register cache: a warp's strip of 32 + 2R elements in two registers a lane, taps by shuffle
template <int R> __device__ __forceinline__ float shfl_point(const float* a, long i, long n, bool on) {
    int lane = threadIdx.x & 31;
    long g0 = i - R, g1 = i - R + 32;
    float v0 = (g0 >= 0 && g0 < n) ? a[g0] : 0.f;
    float v1 = (lane < 2 * R && g1 < n) ? a[g1] : 0.f;
    auto w = [&](int k) {
        int s = lane + R + k;
        float x = __shfl_sync(0xffffffffu, v0, s & 31);
        float y = __shfl_sync(0xffffffffu, v1, s & 31);
        return s < 32 ? x : y;
    };
    return stw<R>(w);
}
template <int R> __global__ void shfl(const float* __restrict__ a, float* __restrict__ b, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x + R;
    float r = shfl_point<R>(a, i, n, true);
    if (i < n - R) b[i] = r;
}
template <int R> __global__ void shfl_gs(const float* __restrict__ a, float* __restrict__ b, long n) {
    long S = (long)gridDim.x * blockDim.x;
    // whole warps go round together; lanes past the end still shuffle
    long first = (long)blockIdx.x * blockDim.x + (threadIdx.x & ~31) + R;
    for (long w0 = first; w0 < n - R; w0 += S) {
        long i = w0 + (threadIdx.x & 31);
        float r = shfl_point<R>(a, i, n, true);
        if (i < n - R) b[i] = r;
    }
}
template <int R> __global__ void shared(const float* __restrict__ a, float* __restrict__ b, long n) {
    __shared__ float s[B + 2 * R];
    long base = (long)blockIdx.x * B + R;
    for (int t = threadIdx.x; t < B + 2 * R; t += B) { long g = base - R + t; if (g < n) s[t] = a[g]; }
    __syncthreads();
    long i = base + threadIdx.x;
    if (i < n - R) b[i] = st<R>(s, threadIdx.x + R);
}
float *da, *db; double want[5];
template <int R, class K> void run(const char* name, K kernel, unsigned grid) {
    CK(cudaMemset(db, 0, N * 4));
    float ms = median_ms([&] { kernel<<<grid, B>>>(da, db, (long)N); });
    CK(cudaGetLastError());
    std::vector<float> b(N);
    CK(cudaMemcpy(b.data(), db, N * 4, cudaMemcpyDeviceToHost));
    double sum = 0; for (float v : b) sum += v;
    if (want[R] == 0) want[R] = sum;
    printf("diag R=%d %-14s grid %7u %9.4f ms  wall %.4f  %8.1f GB/s %s\n", R, name, grid, ms, g_wall_ms, 8.0 * N / (ms * 1e-3) / 1e9, sum == want[R] ? "" : "WRONG");
}
template <int R> void all(unsigned wave) {
    unsigned cover = (unsigned)((N - 2 * R + B - 1) / B);
    run<R>("plain", plain<R>, cover);
    run<R>("gs1", gs<R>, wave);
    run<R>("gs2", gs<R>, 2 * wave);
    run<R>("gs4", gs<R>, 4 * wave);
    run<R>("gs8", gs<R>, 8 * wave);
    run<R>("gsu2", gsu<R, 2>, wave);
    run<R>("gsu4", gsu<R, 4>, wave);
    run<R>("gsu4w2", gsu<R, 4>, 2 * wave);
    run<R>("band1x8", band<R, 1>, 8 * wave);
    run<R>("band1x1", band<R, 1>, wave);
    run<R>("band4x1", band<R, 4>, wave);
    run<R>("band4x8", band<R, 4>, 8 * wave);
    run<R>("band2x4", band<R, 2>, 4 * wave);
    run<R>("shfl", shfl<R>, cover);
    run<R>("shfl_gs1", shfl_gs<R>, wave);
    run<R>("shared", shared<R>, cover);
    run<R>("plain", plain<R>, cover);
}
int main() {
    std::vector<float> a(N);
    for (size_t x = 0; x < N; x++) a[x] = (float)((x * 7919) % 1000) / 1000.0f;
    CK(cudaMalloc(&da, N * 4)); CK(cudaMalloc(&db, N * 4));
    CK(cudaMemcpy(da, a.data(), N * 4, cudaMemcpyHostToDevice));
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned wave = sms * 8;
    all<1>(wave);
    all<4>(wave);
}
