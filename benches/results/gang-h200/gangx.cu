// The papers' gang position (K = n/64 gang trips, 2 worker trips of 32 lanes) with a gang per
// warp, as acc runs it, and variants that keep more loads in flight; beside the copy bound.
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
template <class F> static float best_ms(F f) {
  cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
  f(); f(); CK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int r = 0; r < 7; r++) { cudaEventRecord(s); f(); cudaEventRecord(e); cudaEventSynchronize(e); float ms; cudaEventElapsedTime(&ms, s, e); best = std::min(best, ms); }
  return best;
}
__device__ __forceinline__ int ld256(const int* p) { int v; asm volatile("ld.global.nc.L2::256B.b32 %0, [%1];" : "=r"(v) : "l"(p)); return v; }
__device__ __forceinline__ int ld128(const int* p) { int v; asm volatile("ld.global.nc.L2::128B.b32 %0, [%1];" : "=r"(v) : "l"(p)); return v; }
__device__ __forceinline__ void pf(const int* p) { asm volatile("prefetch.global.L2 [%0];" :: "l"(p)); }
// MODE 0: as acc (one load in flight), 1: L2::256B, 2: L2::128B, 3: prefetch next trip, 4: both worker trips' loads first, 5: two gang trips a round (4 loads first), 6: 5 + L2::256B
template <int MODE>
__global__ void __launch_bounds__(1024, 2) gang(const int* __restrict__ a, int* __restrict__ b, const int* __restrict__ c, long K, int* out) {
  long W = (long)gridDim.x * 32; int lane = threadIdx.x % 32;
  long k = (long)blockIdx.x * 32 + (threadIdx.y * blockDim.x + threadIdx.x) / 32;
  int v = 0;
  if (MODE == 5 || MODE == 6) {
    for (; k + W < K; k += 2 * W) {
      long k2 = k + W;
      int c0 = c[k], c1 = c[k2];
      const int* p0 = a + k * 64 + lane; const int* p1 = a + k2 * 64 + lane;
      int x0, x1, x2, x3;
      if (MODE == 6) { x0 = ld256(p0); x1 = ld256(p0 + 32); x2 = ld256(p1); x3 = ld256(p1 + 32); }
      else { x0 = p0[0]; x1 = p0[32]; x2 = p1[0]; x3 = p1[32]; }
      if (lane == 0) v += c0 + c1;
      b[k * 64 + lane] = x0 * 2; b[k * 64 + 32 + lane] = x1 * 2; b[k2 * 64 + lane] = x2 * 2; b[k2 * 64 + 32 + lane] = x3 * 2;
    }
  }
  for (; k < K; k += W) {
    if (lane == 0) v += c[k];
    const int* p = a + k * 64 + lane;
    if (MODE == 3 && k + W < K) { pf(p + W * 64); pf(p + W * 64 + 32); }
    if (MODE == 4) {
      int x0 = p[0], x1 = p[32];
      b[k * 64 + lane] = x0 * 2; b[k * 64 + 32 + lane] = x1 * 2;
    } else {
      for (int j = 0; j < 2; j++) {
        int x = MODE == 1 ? ld256(p + j * 32) : MODE == 2 ? ld128(p + j * 32) : p[j * 32];
        b[k * 64 + j * 32 + lane] = x * 2;
      }
    }
  }
  if (v == 0x7fffffff) out[0] = v;
}
template <int U>
__global__ void __launch_bounds__(1024) bound_k(const int4* __restrict__ a, int4* __restrict__ b, long nvec) {
  long t = (long)blockIdx.x * 1024 + threadIdx.y * 128 + threadIdx.x, stride = (long)gridDim.x * 1024, x = t;
  for (; x + (U - 1) * stride < nvec; x += U * stride) {
    int4 r[U];
#pragma unroll
    for (int u = 0; u < U; u++) r[u] = __ldg(a + x + u * stride);
#pragma unroll
    for (int u = 0; u < U; u++) b[x + u * stride] = r[u];
  }
  for (; x < nvec; x += stride) b[x] = __ldg(a + x);
}
int main() {
  long n = 64L << 20, K = n / 64;
  int *a, *b, *c, *out;
  CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4)); CK(cudaMalloc(&c, n * 4)); CK(cudaMalloc(&out, 4));
  CK(cudaMemset(a, 1, n * 4)); CK(cudaMemset(c, 1, n * 4));
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  dim3 blk(128, 8);
  for (int grid : {2 * sms, sms}) {
    printf("grid %d\n", grid);
    printf("bound8   %.4f ms\n", best_ms([&] { bound_k<8><<<grid, blk>>>((const int4*)a, (int4*)b, n / 4); }));
    printf("bound1   %.4f ms\n", best_ms([&] { bound_k<1><<<grid, blk>>>((const int4*)a, (int4*)b, n / 4); }));
    printf("acc      %.4f ms\n", best_ms([&] { gang<0><<<grid, blk>>>(a, b, c, K, out); }));
    printf("L2_256B  %.4f ms\n", best_ms([&] { gang<1><<<grid, blk>>>(a, b, c, K, out); }));
    printf("L2_128B  %.4f ms\n", best_ms([&] { gang<2><<<grid, blk>>>(a, b, c, K, out); }));
    printf("prefetch %.4f ms\n", best_ms([&] { gang<3><<<grid, blk>>>(a, b, c, K, out); }));
    printf("wround2  %.4f ms\n", best_ms([&] { gang<4><<<grid, blk>>>(a, b, c, K, out); }));
    printf("ground2  %.4f ms\n", best_ms([&] { gang<5><<<grid, blk>>>(a, b, c, K, out); }));
    printf("g2_256B  %.4f ms\n", best_ms([&] { gang<6><<<grid, blk>>>(a, b, c, K, out); }));
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
