// Times kernels of a PTX file shaped like acc's papers gang kernel (a, b, c, nk, nj, ni) beside a copy bound.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <algorithm>
#define CK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char* s; cuGetErrorString(e, &s); printf("%s: %s\n", #x, s); exit(1); } } while (0)
template <class T> __global__ void __launch_bounds__(1024) bound_k(const int4* __restrict__ a, int4* __restrict__ b, long nvec) {
  long t = (long)blockIdx.x * 1024 + threadIdx.y * 128 + threadIdx.x, stride = (long)gridDim.x * 1024;
  for (long x = t; x < nvec; x += stride) b[x] = __ldg(a + x);
}
int main(int argc, char** argv) {
  // argv[1]: ptx; argv[2]: gang|gw (what c's sum covers); argv[3..6]: nk nj ni grid; argv[7..]: kernel names, "name@R" = compiled with at most R registers
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  FILE* f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long sz = ftell(f); fseek(f, 0, SEEK_SET);
  std::string ptx(sz, 0); fread(&ptx[0], 1, sz, f); fclose(f);
  int sms; cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  long n = 64L << 20; bool gw = std::string(argv[2]) == "gw"; long nk = atol(argv[3]), nj = atol(argv[4]), ni = atol(argv[5]);
  int* ha = (int*)malloc(n * 4); for (long x = 0; x < n; x++) ha[x] = x % 7;
  int* hc = (int*)malloc(n * 4); for (long x = 0; x < n; x++) hc[x] = (x * 3) % 5;
  long want = 0; for (long x = 0; x < (gw ? nk * nj : nk); x++) want += hc[x];
  CUdeviceptr a, b, c, panic, partials; CK(cuMemAlloc(&a, n * 4)); CK(cuMemAlloc(&b, n * 4)); CK(cuMemAlloc(&c, n * 4));
  CK(cuMemAlloc(&panic, 4096)); CK(cuMemsetD8(panic, 0, 4096)); CK(cuMemAlloc(&partials, 1 << 20));
  CK(cuMemcpyHtoD(a, ha, n * 4)); CK(cuMemcpyHtoD(c, hc, n * 4));
  int grid = atoi(argv[6]) ? atoi(argv[6]) : 2 * sms; unsigned shared = 16 * 1024;
  CUevent e0, e1; cuEventCreate(&e0, 0); cuEventCreate(&e1, 0);
  auto best = [&](auto launch) { launch(); launch(); cuCtxSynchronize(); float b = 1e30f;
    for (int r = 0; r < 9; r++) { cuEventRecord(e0, 0); launch(); cuEventRecord(e1, 0); cuEventSynchronize(e1); float ms; cuEventElapsedTime(&ms, e0, e1); b = std::min(b, ms); } return b; };
  float bound = best([&] { bound_k<int><<<grid, dim3(128, 8)>>>((const int4*)a, (int4*)b, n / 4); });
  printf("%s nk %ld nj %ld ni %ld grid %d\n%-60s %8.4f ms\n", argv[2], nk, nj, ni, grid, "bound (same grid, 16-byte loads)", bound);
  int* hb = (int*)malloc(n * 4);
  for (int i = 7; i < argc; i++) {
    std::string name = argv[i]; int regs = 0; size_t at = name.find('@');
    if (at != std::string::npos) { regs = atoi(name.c_str() + at + 1); name = name.substr(0, at); }
    CUjit_option opt[2] = {CU_JIT_MAX_REGISTERS, CU_JIT_OPTIMIZATION_LEVEL}; void* val[2] = {(void*)(size_t)regs, (void*)(size_t)4};
    CUmodule m; CK(cuModuleLoadDataEx(&m, ptx.c_str(), regs ? 2 : 0, opt, val));
    CUfunction k; CK(cuModuleGetFunction(&k, m, name.c_str()));
    int nregs, local; cuFuncGetAttribute(&nregs, CU_FUNC_ATTRIBUTE_NUM_REGS, k); cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, k);
    int per_sm; CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 1024, shared));
    CK(cuMemsetD8(b, 0, n * 4));
    alignas(16) unsigned char caps[272]; memset(caps, 0, sizeof caps);
    CUdeviceptr cells = 0; long alen = n, blen = n, clen = n;
    void* params[] = {&panic, &a, &alen, &b, &blen, &c, &clen, &nk, &nj, &ni, caps, &partials, &cells};
    auto launch = [&] { CK(cuLaunchKernel(k, grid, 1, 1, 128, 8, 1, shared, 0, params, 0)); };
    float ms = best(launch); CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(hb, b, n * 4)); long bad = 0; for (long x = 0; x < nk * nj * ni; x++) bad += hb[x] != 2 * ha[x];
    std::vector<int> part(grid * 4); CK(cuMemcpyDtoH(part.data(), partials, grid * 16)); long s = 0; for (int g = 0; g < grid; g++) s += part[g * 4];
    unsigned char pz[64]; CK(cuMemcpyDtoH(pz, panic, 64)); int panicked = 0; for (int x = 0; x < 64; x++) panicked |= pz[x];
    printf("%-60s %8.4f ms  %.2f of bound  regs %d local %d blocks/SM %d  bad %ld sum %s panic %d\n", argv[i], ms, bound / ms, nregs, local, per_sm, bad, s == want ? "ok" : "WRONG", panicked);
    cuModuleUnload(m);
  }
}
