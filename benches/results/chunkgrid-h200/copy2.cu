// Copy kernel variants for 50M floats, CUDA events, median of 41, rounds interleaved.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#define CK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char* s; cuGetErrorString(e, &s); printf("%s: %s\n", #x, s); exit(1); } } while (0)
__device__ __forceinline__ float4 ld_plain(const float4* p) { return __ldg(p); }
__device__ __forceinline__ float4 ld_cs(const float4* p) { return __ldcs(p); }
__device__ __forceinline__ float4 ld_256(const float4* p) { float4 v; asm volatile("ld.global.nc.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p)); return v; }
__device__ __forceinline__ float4 ld_ef(const float4* p) { float4 v; asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p)); return v; }
__device__ __forceinline__ void st_plain(float4* p, float4 v) { *p = v; }
__device__ __forceinline__ void st_cs(float4* p, float4 v) { __stcs(p, v); }
__device__ __forceinline__ void st_ef(float4* p, float4 v) { asm volatile("st.global.L1::no_allocate.v4.f32 [%0], {%1,%2,%3,%4};" :: "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory"); }
template <int L, int S> __global__ void __launch_bounds__(256) k(const float4* __restrict__ a, float4* __restrict__ c, long nv) {
  for (long x = (long)blockIdx.x * blockDim.x + threadIdx.x; x < nv; x += (long)gridDim.x * blockDim.x) {
    float4 v = L == 0 ? ld_plain(a + x) : L == 1 ? ld_cs(a + x) : L == 2 ? ld_256(a + x) : ld_ef(a + x);
    if (S == 0) st_plain(c + x, v); else if (S == 1) st_cs(c + x, v); else st_ef(c + x, v);
  }
}
int main(int argc, char** argv) {
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx)); cudaSetDevice(0);
  FILE* f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long sz = ftell(f); fseek(f, 0, SEEK_SET);
  std::string ptx(sz, 0); if (fread(&ptx[0], 1, sz, f) != (size_t)sz) return 1; fclose(f);
  int sms; cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  long n = 50000000, nv = n / 4;
  float *a, *c; cudaMalloc(&a, n * 4); cudaMalloc(&c, n * 4);
  std::vector<float> h(n); for (long x = 0; x < n; x++) h[x] = (float)(x % 1000);
  cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice);
  CUdeviceptr panic, partials; CK(cuMemAlloc(&panic, 4096)); CK(cuMemsetD8(panic, 0, 4096)); CK(cuMemAlloc(&partials, 1 << 20));
  CUmodule m; CK(cuModuleLoadData(&m, ptx.c_str())); CUfunction kacc; CK(cuModuleGetFunction(&kacc, m, "acc_benches_gpu_rs_l19_copy32_0"));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  auto med = [&](auto launch) { launch(); launch(); cudaDeviceSynchronize(); std::vector<float> v;
    for (int r = 0; r < 41; r++) { cudaEventRecord(e0, 0); launch(); cudaEventRecord(e1, 0); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); v.push_back(ms * 1000); }
    std::sort(v.begin(), v.end()); return v[20]; };
  auto check = [&](const char* name) { std::vector<float> o(n); cudaMemcpy(o.data(), c, n * 4, cudaMemcpyDeviceToHost); long bad = 0; for (long x = 0; x < n; x++) bad += o[x] != h[x]; if (bad) printf("%s: %ld WRONG\n", name, bad); cudaMemset(c, 0, n * 4); };
  struct R { std::string name; std::vector<float> t; }; std::vector<R> rows;
  auto row = [&](std::string name, float us) { check(name.c_str()); for (auto& r : rows) if (r.name == name) { r.t.push_back(us); return; } rows.push_back({name, {us}}); };
  int wave = 8 * sms;
  for (int round = 0; round < 4; round++) {
    row("memcpy", med([&] { cudaMemcpyAsync(c, a, n * 4, cudaMemcpyDeviceToDevice, 0); }));
    for (int w : {8, 16}) {
      int grid = wave * w; alignas(16) unsigned char caps[272]; memset(caps, 0, sizeof caps);
      CUdeviceptr cells = 0, da = (CUdeviceptr)a, dc = (CUdeviceptr)c; long alen = n, clen = n;
      void* params[] = {&panic, &da, &alen, &dc, &clen, caps, &partials, &cells};
      row("acc w" + std::to_string(w), med([&] { CK(cuLaunchKernel(kacc, grid, 1, 1, 256, 1, 1, 4096, 0, params, 0)); }));
    }
    for (int w : {8, 16, 32, 0}) {
      int g = w ? wave * w : (int)((nv + 255) / 256); std::string sw = w ? "w" + std::to_string(w) : "one";
      row("plain/plain " + sw, med([&] { k<0, 0><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
      row("plain/cs " + sw, med([&] { k<0, 1><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
      row("cs/cs " + sw, med([&] { k<1, 1><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
      row("L2_256/plain " + sw, med([&] { k<2, 0><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
      row("L2_256/cs " + sw, med([&] { k<2, 1><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
      row("noalloc " + sw, med([&] { k<3, 2><<<g, 256>>>((const float4*)a, (float4*)c, nv); }));
    }
  }
  float base = 0; for (auto& r : rows) if (r.name == "memcpy") { std::vector<float> t = r.t; std::sort(t.begin(), t.end()); base = t[t.size() / 2]; }
  for (auto& r : rows) { printf("%-20s", r.name.c_str()); for (float t : r.t) printf(" %8.2f", t); std::vector<float> t = r.t; std::sort(t.begin(), t.end()); printf("   memcpy/this %.3f\n", base / t[t.size() / 2]); }
}
