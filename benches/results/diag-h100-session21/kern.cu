// Diagnostic: acc's own `tiny` kernel (its PTX as acc-build wrote it) launched by the driver
// API with acc's parameters, against nvcc's k_inc: enqueue, synchronisation, total (spin).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define DK(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char* s_; cuGetErrorString(e_, &s_); printf("CU error %s at %d\n", s_, __LINE__); exit(1); } } while (0)
__global__ void k_inc(float* c, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) c[i] += 1.0f;
}
typedef std::chrono::steady_clock C;
static double us(C::time_point a, C::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
template <class L, class S> void timed(const char* what, L launch, S sync) {
  for (int r = 0; r < 200; r++) { launch(); sync(); }
  for (int rep = 0; rep < 2; rep++) {
    std::vector<double> a, b, t;
    for (int r = 0; r < 1000; r++) {
      auto t0 = C::now(); launch(); auto t1 = C::now(); sync(); auto t2 = C::now();
      a.push_back(us(t0, t1)); b.push_back(us(t1, t2)); t.push_back(us(t0, t2));
    }
    printf("%-44s enqueue %6.3f sync %6.3f total %6.3f us (medians)\n", what, med(a), med(b), med(t));
  }
}
static std::string slurp(const char* p) { std::ifstream f(p); std::stringstream s; s << f.rdbuf(); return s.str(); }
int main() {
  CK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  CK(cudaFree(0));
  CUcontext ctx; DK(cuCtxGetCurrent(&ctx));
  CUstream s; DK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  float* c; size_t n = 1024; CK(cudaMalloc(&c, n * 4)); CK(cudaMemset(c, 0, n * 4));
  CUdeviceptr slot; DK(cuMemAlloc(&slot, 16)); DK(cuMemsetD8(slot, 0, 16));
  const char* name = "acc_benches_gpu_rs_l434_tiny_0";
  CUmodule full, only;
  std::string fm = slurp(".gpu-exp/tiny_module.ptx"), om = slurp(".gpu-exp/tiny_only.ptx");
  auto t0 = C::now();
  DK(cuModuleLoadDataEx(&full, fm.c_str(), 0, nullptr, nullptr));
  auto t1 = C::now();
  DK(cuModuleLoadDataEx(&only, om.c_str(), 0, nullptr, nullptr));
  printf("# module load: full %.1f ms\n", us(t0, t1) / 1e3);
  CUfunction ff, fo; DK(cuModuleGetFunction(&ff, full, name)); DK(cuModuleGetFunction(&fo, only, name));
  DK(cuFuncSetAttribute(ff, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 16384));
  DK(cuFuncSetAttribute(fo, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 16384));
  int regs, lmem; DK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, ff)); DK(cuFuncGetAttribute(&lmem, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, ff));
  printf("# acc tiny: %d registers, %d bytes local\n", regs, lmem);
  // acc's parameters: the panic slot, the slice (pointer, length), the captures (272 bytes),
  // the partials, the cells.
  unsigned long long p0 = slot, p1 = (unsigned long long)c, p2 = n, p4 = 0, p5 = 0;
  alignas(16) unsigned char caps[272] = {0};
  void* params[] = {&p0, &p1, &p2, caps, &p4, &p5};
  CUfunction fk; CK(cudaGetFuncBySymbol(&fk, (const void*)k_inc));
  unsigned long long kc = (unsigned long long)c, kn = n;
  void* kparams[] = {&kc, &kn};
  cudaStream_t rs = (cudaStream_t)s;
  auto ssync = [&] { DK(cuStreamSynchronize(s)); };
  timed("nvcc k_inc <<<>>> (runtime)", [&] { k_inc<<<4, 256, 0, rs>>>(c, n); }, ssync);
  timed("nvcc k_inc cuLaunchKernel", [&] { DK(cuLaunchKernel(fk, 4, 1, 1, 256, 1, 1, 0, s, kparams, nullptr)); }, ssync);
  timed("acc tiny, full module, 4 KiB dyn", [&] { DK(cuLaunchKernel(ff, 4, 1, 1, 256, 1, 1, 4096, s, params, nullptr)); }, ssync);
  timed("acc tiny, full module, 0 dyn", [&] { DK(cuLaunchKernel(ff, 4, 1, 1, 256, 1, 1, 0, s, params, nullptr)); }, ssync);
  timed("acc tiny, only kernel, 4 KiB dyn", [&] { DK(cuLaunchKernel(fo, 4, 1, 1, 256, 1, 1, 4096, s, params, nullptr)); }, ssync);
  timed("acc tiny, full, 4 KiB, + cuCtxSetCurrent", [&] { DK(cuCtxSetCurrent(ctx)); DK(cuLaunchKernel(ff, 4, 1, 1, 256, 1, 1, 4096, s, params, nullptr)); }, ssync);
  timed("nvcc k_inc cuLaunchKernel again", [&] { DK(cuLaunchKernel(fk, 4, 1, 1, 256, 1, 1, 0, s, kparams, nullptr)); }, ssync);
  std::vector<float> h(n); CK(cudaMemcpy(h.data(), c, n * 4, cudaMemcpyDeviceToHost));
  printf("# c[0] = %g (err %s)\n", h[0], cudaGetErrorString(cudaGetLastError()));
  return 0;
}
