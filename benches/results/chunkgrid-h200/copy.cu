// copy_f32's kernel (acc's PTX) against cudaMemcpy and CUDA float4 copies, CUDA events.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#define CK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char* s; cuGetErrorString(e, &s); printf("%s: %s\n", #x, s); exit(1); } } while (0)
template <int U> __global__ void __launch_bounds__(256) f4(const float4* __restrict__ a, float4* __restrict__ c, long nv) {
  long t = (long)blockIdx.x * blockDim.x + threadIdx.x, s = (long)gridDim.x * blockDim.x;
  long x = t;
  for (; x + (U - 1) * s < nv; x += U * s) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; u++) v[u] = __ldg(a + x + u * s);
#pragma unroll
    for (int u = 0; u < U; u++) c[x + u * s] = v[u];
  }
  for (; x < nv; x += s) c[x] = __ldg(a + x);
}
// U consecutive float4 per thread (block-contiguous tiles), grid-stride over tiles
template <int U> __global__ void __launch_bounds__(256) f4c(const float4* __restrict__ a, float4* __restrict__ c, long nv) {
  long s = (long)gridDim.x * blockDim.x * U;
  for (long base = (long)blockIdx.x * blockDim.x * U + threadIdx.x; base < nv; base += s) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; u++) if (base + u * blockDim.x < nv) v[u] = __ldg(a + base + u * blockDim.x);
#pragma unroll
    for (int u = 0; u < U; u++) if (base + u * blockDim.x < nv) c[base + u * blockDim.x] = v[u];
  }
}
int main(int argc, char** argv) {
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  cudaSetDevice(0);
  FILE* f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long sz = ftell(f); fseek(f, 0, SEEK_SET);
  std::string ptx(sz, 0); fread(&ptx[0], 1, sz, f); fclose(f);
  int sms; cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  long n = atol(argv[2]); int rounds = atoi(argv[3]);
  float *a, *c; cudaMalloc(&a, n * 4); cudaMalloc(&c, n * 4);
  std::vector<float> h(n); for (long x = 0; x < n; x++) h[x] = (float)(x % 1000);
  cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice);
  CUdeviceptr panic, partials; CK(cuMemAlloc(&panic, 4096)); CK(cuMemsetD8(panic, 0, 4096)); CK(cuMemAlloc(&partials, 1 << 20));
  CUmodule m; CK(cuModuleLoadData(&m, ptx.c_str())); CUfunction k; CK(cuModuleGetFunction(&k, m, "acc_benches_gpu_rs_l19_copy32_0"));
  int nregs; cuFuncGetAttribute(&nregs, CU_FUNC_ATTRIBUTE_NUM_REGS, k);
  int per_sm; CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 256, 4096));
  int wave = per_sm * sms;
  printf("n %ld sms %d acc regs %d blocks/SM %d wave %d\n", n, sms, nregs, per_sm, wave);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  auto med = [&](auto launch) { launch(); launch(); cudaDeviceSynchronize(); std::vector<float> v;
    for (int r = 0; r < 21; r++) { cudaEventRecord(e0, 0); launch(); cudaEventRecord(e1, 0); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); v.push_back(ms); }
    std::sort(v.begin(), v.end()); return std::make_pair(v[10], v[0]); };
  auto check = [&](const char* name) { std::vector<float> o(n); cudaMemcpy(o.data(), c, n * 4, cudaMemcpyDeviceToHost); long bad = 0; for (long x = 0; x < n; x++) bad += o[x] != h[x]; if (bad) printf("%s: %ld WRONG\n", name, bad); cudaMemset(c, 0, n * 4); };
  double bytes = 8.0 * n;
  auto row = [&](const char* name, std::pair<float, float> t) { printf("%-28s med %8.4f ms %7.1f GB/s  best %8.4f ms %7.1f GB/s\n", name, t.first, bytes / t.first / 1e6, t.second, bytes / t.second / 1e6); check(name); };
  long nv = n / 4;
  for (int r = 0; r < rounds; r++) {
    printf("# round %d\n", r);
    row("memcpy", med([&] { cudaMemcpyAsync(c, a, n * 4, cudaMemcpyDeviceToDevice, 0); }));
    for (int w : {1, 2, 4, 8, 16, 0}) {
      int grid = w ? wave * w : (int)((n + 255) / 256);
      alignas(16) unsigned char caps[272]; memset(caps, 0, sizeof caps);
      CUdeviceptr cells = 0, da = (CUdeviceptr)a, dc = (CUdeviceptr)c; long alen = n, clen = n;
      void* params[] = {&panic, &da, &alen, &dc, &clen, caps, &partials, &cells};
      char name[64]; snprintf(name, sizeof name, "acc w%d (%d)", w, grid);
      row(name, med([&] { CK(cuLaunchKernel(k, grid, 1, 1, 256, 1, 1, 4096, 0, params, 0)); }));
    }
    for (int w : {1, 2, 4, 8, 16}) {
      int g = 8 * sms * w; char name[64];
      snprintf(name, sizeof name, "f4<1> w%d", w); row(name, med([&] { f4<1><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
      snprintf(name, sizeof name, "f4<2> w%d", w); row(name, med([&] { f4<2><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
      snprintf(name, sizeof name, "f4<4> w%d", w); row(name, med([&] { f4<4><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
      snprintf(name, sizeof name, "f4c<2> w%d", w); row(name, med([&] { f4c<2><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
      snprintf(name, sizeof name, "f4c<4> w%d", w); row(name, med([&] { f4c<4><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
    }
    { int g = (int)((nv + 255) / 256); row("f4<1> one per thread", med([&] { f4<1><<<g, 256>>>((const float4*)a, (float4*)c, nv); })); }
  }
}
