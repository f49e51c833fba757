// Diagnostic: acc's unchecked wave-step kernel (its PTX as acc-build wrote it, grid-stride
// loops, one wave) against the same PTX with each loop's back-edge removed (one point a
// thread, launched on a grid that covers the trips) and nvcc's one point a thread. CUDA events
// around 20 back-to-back launches, median of 7.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define DK(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char* s; cuGetErrorString(e_, &s); printf("driver error %s at %d\n", s, __LINE__); exit(1); } } while (0)
__device__ __forceinline__ float ax(const float* __restrict__ u, size_t c, size_t s) {
  return (4.0f / 3.0f) * (u[c - s] + u[c + s]) - (1.0f / 12.0f) * (u[c - 2 * s] + u[c + 2 * s]);
}
__global__ void onept(const float* __restrict__ u, const float* __restrict__ p, float* __restrict__ nx, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x + 2, j = blockIdx.y * blockDim.y + threadIdx.y + 2, i = blockIdx.z + 2;
  if (i < n - 2 && j < n - 2 && k < n - 2) {
    size_t c = ((size_t)i * n + j) * n + k;
    float lap = ax(u, c, 1) + ax(u, c, n) + ax(u, c, (size_t)n * n) - 7.5f * u[c];
    nx[c] = 2.0f * u[c] - p[c] + 0.1f * lap;
  }
}
struct Caps { alignas(16) unsigned char b[272]; };
template <class F> float timeit(F launch) {
  cudaEvent_t s, e; CK(cudaEventCreate(&s)); CK(cudaEventCreate(&e));
  for (int w = 0; w < 3; w++) launch();
  std::vector<float> t;
  for (int r = 0; r < 7; r++) {
    CK(cudaEventRecord(s)); for (int q = 0; q < 20; q++) launch(); CK(cudaEventRecord(e)); CK(cudaEventSynchronize(e));
    float ms; CK(cudaEventElapsedTime(&ms, s, e)); t.push_back(ms / 20);
  }
  std::sort(t.begin(), t.end());
  return t[3];
}
int main(int argc, char** argv) {
  CK(cudaFree(0));
  size_t n = 256, N = n * n * n;
  float *u, *p, *nx, *ref; CK(cudaMalloc(&u, N * 4)); CK(cudaMalloc(&p, N * 4)); CK(cudaMalloc(&nx, N * 4)); CK(cudaMalloc(&ref, N * 4));
  std::vector<float> h(N); for (size_t x = 0; x < N; x++) h[x] = (float)((x * 7919) % 1000) / 1000.0f;
  CK(cudaMemcpy(u, h.data(), N * 4, cudaMemcpyHostToDevice));
  for (size_t x = 0; x < N; x++) h[x] = (float)((x * 104729) % 1000) / 1000.0f;
  CK(cudaMemcpy(p, h.data(), N * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(nx, 0, N * 4)); CK(cudaMemset(ref, 0, N * 4));
  void* slot; CK(cudaMalloc(&slot, 16)); CK(cudaMemset(slot, 0, 16));
  dim3 blk(32, 8, 1); int t = n - 4;
  dim3 full((t + 31) / 32, (t + 7) / 8, t);
  float ms = timeit([&] { onept<<<full, blk>>>(u, p, ref, n); });
  printf("%-44s regs %3d  %.4f ms\n", "nvcc onept 8x32x252", 27, ms);
  std::vector<float> want(N), got(N);
  CK(cudaMemcpy(want.data(), ref, N * 4, cudaMemcpyDeviceToHost));
  const char* files[5] = {".gpu-exp/wave_loop.ptx", ".gpu-exp/wave_point.ptx", ".gpu-exp/wave_point_noguard.ptx", ".gpu-exp/wave_point_hand.ptx", ".gpu-exp/wave_point_after.ptx"};
  const char* names[5] = {"wave_loop", "wave_point", "wave_point_noguard", "wave_point_hand", "wave_point_after"};
  for (int v = 0; v < 5; v++) {
    std::ifstream in(files[v]); std::stringstream ss; ss << in.rdbuf(); std::string ptx = ss.str();
    CUmodule m; DK(cuModuleLoadData(&m, ptx.c_str()));
    CUfunction f; DK(cuModuleGetFunction(&f, m, names[v]));
    int regs; DK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    int per; DK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per, f, 256, 0));
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned long long ps = (unsigned long long)slot, pu = (unsigned long long)u, pp = (unsigned long long)p, pn = (unsigned long long)nx;
    unsigned long long len = N, nn = n, zero = 0; long long q = -2; Caps caps{};
    void* args[12] = {&ps, &pu, &len, &pp, &len, &pn, &len, &nn, &q, &caps, &zero, &zero};
    std::vector<int> zs;
    if (v == 0) zs = {per * sms / 256, 252}; else zs = {252};
    for (int z : zs) {
      CK(cudaMemset(nx, 0, N * 4));
      float ms = timeit([&] { DK(cuLaunchKernel(f, 8, 32, z, 32, 8, 1, 0, 0, args, nullptr)); });
      CK(cudaMemcpy(got.data(), nx, N * 4, cudaMemcpyDeviceToHost));
      size_t bad = 0; for (size_t x = 0; x < N; x++) bad += got[x] != want[x];
      char nm[64]; snprintf(nm, 64, "acc %s 8x32x%d", names[v], z);
      printf("%-44s regs %3d  blocks/SM %d  %.4f ms  (%zu of %zu differ from nvcc's)\n", nm, regs, per, ms, bad, N);
    }
  }
  CK(cudaDeviceSynchronize());
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
