// Diagnostic: the 13-point wave step's traversals, CUDA events around 20 back-to-back launches.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
__device__ __forceinline__ float ax(const float* __restrict__ u, size_t c, size_t s) {
  return (4.0f / 3.0f) * (u[c - s] + u[c + s]) - (1.0f / 12.0f) * (u[c - 2 * s] + u[c + 2 * s]);
}
__device__ __forceinline__ void pt(const float* __restrict__ u, const float* __restrict__ p, float* __restrict__ nx, size_t n, size_t i, size_t j, size_t k) {
  size_t c = (i * n + j) * n + k;
  float lap = ax(u, c, 1) + ax(u, c, n) + ax(u, c, n * n) - 7.5f * u[c];
  nx[c] = 2.0f * u[c] - p[c] + 0.1f * lap;
}
__global__ void onept(const float* __restrict__ u, const float* __restrict__ p, float* __restrict__ nx, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x + 2, j = blockIdx.y * blockDim.y + threadIdx.y + 2, i = blockIdx.z + 2;
  if (i < n - 2 && j < n - 2 && k < n - 2) pt(u, p, nx, n, i, j, k);
}
// acc's form: 64-bit grid-stride loops, z outermost.
template <int MINB> __global__ void __launch_bounds__(256, MINB) gs64(const float* __restrict__ u, const float* __restrict__ p, float* __restrict__ nx, size_t n) {
  size_t t = n - 4;
  for (size_t i = blockIdx.z * (size_t)blockDim.z + threadIdx.z; i < t; i += (size_t)gridDim.z * blockDim.z)
    for (size_t j = blockIdx.y * (size_t)blockDim.y + threadIdx.y; j < t; j += (size_t)gridDim.y * blockDim.y)
      for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < t; k += (size_t)gridDim.x * blockDim.x)
        pt(u, p, nx, n, i + 2, j + 2, k + 2);
}
template <int MINB> __global__ void __launch_bounds__(256, MINB) gs32(const float* __restrict__ u, const float* __restrict__ p, float* __restrict__ nx, size_t n) {
  unsigned t = n - 4;
  for (unsigned i = blockIdx.z * blockDim.z + threadIdx.z; i < t; i += gridDim.z * blockDim.z)
    for (unsigned j = blockIdx.y * blockDim.y + threadIdx.y; j < t; j += gridDim.y * blockDim.y)
      for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < t; k += gridDim.x * blockDim.x)
        pt(u, p, nx, n, i + 2, j + 2, k + 2);
}
// z unrolled by 2: two planes a trip.
__global__ void __launch_bounds__(256) gs64u2(const float* __restrict__ u, const float* __restrict__ p, float* __restrict__ nx, size_t n) {
  size_t t = n - 4, sz = (size_t)gridDim.z * blockDim.z;
  size_t i = blockIdx.z * (size_t)blockDim.z + threadIdx.z;
  for (; i + sz < t; i += 2 * sz)
    for (size_t j = blockIdx.y * (size_t)blockDim.y + threadIdx.y; j < t; j += (size_t)gridDim.y * blockDim.y)
      for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < t; k += (size_t)gridDim.x * blockDim.x) {
        pt(u, p, nx, n, i + 2, j + 2, k + 2);
        pt(u, p, nx, n, i + sz + 2, j + 2, k + 2);
      }
  for (; i < t; i += sz)
    for (size_t j = blockIdx.y * (size_t)blockDim.y + threadIdx.y; j < t; j += (size_t)gridDim.y * blockDim.y)
      for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < t; k += (size_t)gridDim.x * blockDim.x)
        pt(u, p, nx, n, i + 2, j + 2, k + 2);
}
template <class F> void time(const char* name, const void* fn, dim3 g, F launch) {
  cudaFuncAttributes a; CK(cudaFuncGetAttributes(&a, fn));
  int per; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, fn, 256, 0));
  cudaEvent_t s, e; CK(cudaEventCreate(&s)); CK(cudaEventCreate(&e));
  for (int w = 0; w < 3; w++) launch();
  std::vector<float> t;
  for (int r = 0; r < 7; r++) {
    CK(cudaEventRecord(s)); for (int q = 0; q < 20; q++) launch(); CK(cudaEventRecord(e)); CK(cudaEventSynchronize(e));
    float ms; CK(cudaEventElapsedTime(&ms, s, e)); t.push_back(ms / 20);
  }
  std::sort(t.begin(), t.end());
  printf("%-34s grid %4dx%3dx%3d regs %3d blocks/SM %d  %.4f ms\n", name, g.x, g.y, g.z, a.numRegs, per, t[3]);
}
int main() {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  size_t n = 256, N = n * n * n;
  float *u, *p, *nx; CK(cudaMalloc(&u, N * 4)); CK(cudaMalloc(&p, N * 4)); CK(cudaMalloc(&nx, N * 4));
  std::vector<float> h(N); for (size_t x = 0; x < N; x++) h[x] = (float)((x * 7919) % 1000) / 1000.0f;
  CK(cudaMemcpy(u, h.data(), N * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(p, h.data(), N * 4, cudaMemcpyHostToDevice));
  dim3 blk(32, 8, 1); int t = n - 4;
  dim3 full((t + 31) / 32, (t + 7) / 8, t);
  for (int rep = 0; rep < 2; rep++) {
  time("onept (nvcc's)", (const void*)onept, full, [&] { onept<<<full, blk>>>(u, p, nx, n); });
  for (int z : {3, 4, 5, 6, 8, 252}) {
    dim3 g(8, 32, z); char nm[64];
    snprintf(nm, 64, "gs64 z=%d", z); time(nm, (const void*)gs64<1>, g, [&] { gs64<1><<<g, blk>>>(u, p, nx, n); });
    snprintf(nm, 64, "gs64 minb8 z=%d", z); time(nm, (const void*)gs64<8>, g, [&] { gs64<8><<<g, blk>>>(u, p, nx, n); });
    snprintf(nm, 64, "gs32 z=%d", z); time(nm, (const void*)gs32<1>, g, [&] { gs32<1><<<g, blk>>>(u, p, nx, n); });
    snprintf(nm, 64, "gs32 minb8 z=%d", z); time(nm, (const void*)gs32<8>, g, [&] { gs32<8><<<g, blk>>>(u, p, nx, n); });
    snprintf(nm, 64, "gs64 unroll-z 2 z=%d", z); time(nm, (const void*)gs64u2, g, [&] { gs64u2<<<g, blk>>>(u, p, nx, n); });
  }
  }
  printf("sms %d err %s\n", sms, cudaGetErrorString(cudaGetLastError()));
}
