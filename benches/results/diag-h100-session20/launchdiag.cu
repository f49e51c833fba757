// Diagnostic: what a launch + synchronisation costs with acc's parameter list (12 parameters,
// 352 bytes, one of them a 272-byte struct) against a plain kernel's (16 bytes).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
struct Caps { alignas(16) unsigned char b[272]; };
__global__ void k_plain(float* c, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) c[i] += 1.0f;
}
__global__ void k_accish(unsigned long long* slot, float* c, size_t n, Caps caps, void* part, void* cells) {
  __shared__ unsigned long long s;
  if (threadIdx.x == 0) s = (unsigned long long)slot;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) c[i] += 1.0f;
}
__global__ void k_acc12(unsigned long long* slot, float* c, size_t n, float* d, size_t dn, float* e, size_t en, size_t x, size_t y, Caps caps, void* part, void* cells) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) c[i] += 1.0f;
}
template <class F> void timed(const char* name, F f) {
  for (int r = 0; r < 200; r++) f();
  std::vector<double> t(2000);
  for (auto& x : t) { auto s = std::chrono::steady_clock::now(); f(); x = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count(); }
  std::sort(t.begin(), t.end());
  printf("%-40s %7.2f us median  p10 %7.2f\n", name, t[1000], t[200]);
}
int main() {
  CK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float* c; size_t n = 1024; CK(cudaMalloc(&c, n * 4)); CK(cudaMemset(c, 0, n * 4));
  unsigned long long* slot; CK(cudaMalloc(&slot, 16));
  Caps caps{};
  for (int rep = 0; rep < 2; rep++) {
    timed("plain 16 B params", [&] { k_plain<<<4, 256, 0, s>>>(c, n); CK(cudaStreamSynchronize(s)); });
    timed("acc-like 6 params 320 B", [&] { k_accish<<<4, 256, 0, s>>>(slot, c, n, caps, nullptr, nullptr); CK(cudaStreamSynchronize(s)); });
    timed("acc-like 12 params 376 B", [&] { k_acc12<<<4, 256, 0, s>>>(slot, c, n, c, n, c, n, 1, 2, caps, nullptr, nullptr); CK(cudaStreamSynchronize(s)); });
    timed("acc-like 12 params +4 KiB dyn shared", [&] { k_acc12<<<4, 256, 4096, s>>>(slot, c, n, c, n, c, n, 1, 2, caps, nullptr, nullptr); CK(cudaStreamSynchronize(s)); });
    timed("plain, launch only", [&] { k_plain<<<4, 256, 0, s>>>(c, n); });
    CK(cudaStreamSynchronize(s));
    timed("acc-like 12 params, launch only", [&] { k_acc12<<<4, 256, 0, s>>>(slot, c, n, c, n, c, n, 1, 2, caps, nullptr, nullptr); });
    CK(cudaStreamSynchronize(s));
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
