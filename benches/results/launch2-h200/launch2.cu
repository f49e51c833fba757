// Where a synchronous launch's time goes: nvcc's way against acc's (driver API, own stream,
// a 272-byte parameter, 4 blocks of 256 threads). argv[1] = "spin" sets CU_CTX_SCHED_SPIN.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <vector>
#include <chrono>
#include <algorithm>
#define CK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char* s; cuGetErrorString(e, &s); printf("%s: %s\n", #x, s); exit(1); } } while (0)
struct Caps { alignas(16) unsigned char b[272]; };
extern "C" __global__ void k_empty() {}
extern "C" __global__ void k_acc(void* panic, float* a, long n, Caps caps, void* partials, void* cells) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.0f;
}
int main(int argc, char** argv) {
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0));
  if (argc > 1 && !strcmp(argv[1], "spin")) CK(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_SPIN));
  if (argc > 1 && !strcmp(argv[1], "yield")) CK(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_YIELD));
  CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  cudaFree(0);
  unsigned flags; int active; cuDevicePrimaryCtxGetState(dev, &flags, &active);
  printf("# ctx flags %u (%s)\n", flags, argc > 1 ? argv[1] : "default");
  CUstream s; CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  float* a; cudaMalloc(&a, 4096); cudaMemset(a, 0, 4096);
  volatile int* flag; cudaHostAlloc((void**)&flag, 64, cudaHostAllocMapped);
  CUfunction fe, fa;
  cudaGetFuncBySymbol((cudaFunction_t*)&fe, (const void*)k_empty);
  cudaGetFuncBySymbol((cudaFunction_t*)&fa, (const void*)k_acc);
  Caps caps; memset(&caps, 0, sizeof caps); void* panic = nullptr; long n = 1024; void* partials = nullptr; void* cells = nullptr;
  void* params[] = {&panic, &a, &n, &caps, &partials, &cells};
  auto med = [&](const char* what, auto f) {
    for (int r = 0; r < 200; r++) f();
    std::vector<double> t(2000);
    for (auto& x : t) { auto t0 = std::chrono::steady_clock::now(); f(); x = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count(); }
    std::sort(t.begin(), t.end());
    printf("%-64s median %6.2f us  p10 %6.2f\n", what, t[1000], t[200]);
  };
  for (int rep = 0; rep < 2; rep++) {
    med("A nvcc: empty<<<1,32>>> + cudaDeviceSynchronize", [&] { k_empty<<<1, 32>>>(); cudaDeviceSynchronize(); });
    med("A2 empty<<<1,32>>> legacy stream + cuStreamSynchronize(0)", [&] { k_empty<<<1, 32>>>(); CK(cuStreamSynchronize(0)); });
    med("B empty, cuLaunchKernel own stream + cuStreamSynchronize", [&] { CK(cuLaunchKernel(fe, 1, 1, 1, 32, 1, 1, 0, s, nullptr, nullptr)); CK(cuStreamSynchronize(s)); });
    med("B2 empty, own stream + cuStreamQuery spin", [&] { CK(cuLaunchKernel(fe, 1, 1, 1, 32, 1, 1, 0, s, nullptr, nullptr)); while (cuStreamQuery(s) == CUDA_ERROR_NOT_READY) {} });
    med("C acc-like params, 4x256, own stream + cuStreamSynchronize", [&] { CK(cuLaunchKernel(fa, 4, 1, 1, 256, 1, 1, 0, s, params, nullptr)); CK(cuStreamSynchronize(s)); });
    med("C1 acc-like params, 1x32, own stream + cuStreamSynchronize", [&] { CK(cuLaunchKernel(fa, 1, 1, 1, 32, 1, 1, 0, s, params, nullptr)); CK(cuStreamSynchronize(s)); });
    med("C2 acc-like params, 4x256, legacy stream + cuStreamSynchronize", [&] { CK(cuLaunchKernel(fa, 4, 1, 1, 256, 1, 1, 0, 0, params, nullptr)); CK(cuStreamSynchronize(0)); });
    med("C3 acc-like, 4x256, own stream, 16 KiB dyn shared + sync", [&] { CK(cuLaunchKernel(fa, 4, 1, 1, 256, 1, 1, 16384, s, params, nullptr)); CK(cuStreamSynchronize(s)); });
    med("D C + read a mapped panic flag", [&] { CK(cuLaunchKernel(fa, 4, 1, 1, 256, 1, 1, 0, s, params, nullptr)); CK(cuStreamSynchronize(s)); if (flag[0]) printf("!"); });
    med("E C + cuStreamQuery spin", [&] { CK(cuLaunchKernel(fa, 4, 1, 1, 256, 1, 1, 0, s, params, nullptr)); while (cuStreamQuery(s) == CUDA_ERROR_NOT_READY) {} });
    med("F C, event record + cuEventSynchronize", [&] { static CUevent ev = [] { CUevent x; cuEventCreate(&x, CU_EVENT_DISABLE_TIMING); return x; }(); CK(cuLaunchKernel(fa, 4, 1, 1, 256, 1, 1, 0, s, params, nullptr)); CK(cuEventRecord(ev, s)); CK(cuEventSynchronize(ev)); });
  }
}
