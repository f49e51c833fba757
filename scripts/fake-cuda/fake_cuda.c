/* A stand-in for the CUDA driver (libcuda.so.1) that runs no kernel: device memory is host
 * memory, copies are memcpy, launches return at once. With it, a program built with
 * `--features cuda` takes acc's GPU path on a machine without a GPU, so that the host side of
 * that path (data clauses, arguments, the launch's choices, the window of launches not waited
 * for) can be profiled with perf or callgrind; its results are not the program's (no kernel
 * runs). See scripts/host-profile.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;
typedef unsigned long long CUdeviceptr;

static char tag_ctx, tag_module, tag_function, tag_stream, tag_event;
static __thread CUcontext current;

CUresult cuInit(unsigned flags) { (void)flags; return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(CUdevice *d, int ordinal) { *d = ordinal; return 0; }
CUresult cuDeviceGetName(char *name, int len, CUdevice d) { (void)d; strncpy(name, "no GPU (acc's fake CUDA driver)", len); name[len - 1] = 0; return 0; }
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) { (void)d; *bytes = (size_t)140 << 30; return 0; }
CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
    (void)d;
    switch (attr) {
    case 1: *v = 1024; break;                 /* max threads per block */
    case 2: case 3: *v = 1024; break;         /* block dims x, y */
    case 4: *v = 64; break;                   /* block dim z */
    case 5: *v = 2147483647; break;           /* grid x */
    case 6: case 7: *v = 65535; break;        /* grid y, z */
    case 8: *v = 49152; break;                /* shared per block */
    case 10: *v = 32; break;                  /* warp */
    case 12: *v = 65536; break;               /* registers per block */
    case 16: *v = 132; break;                 /* multiprocessors */
    case 39: *v = 2048; break;                /* threads per multiprocessor */
    case 75: *v = 9; break;                   /* compute capability */
    case 76: *v = 0; break;
    case 81: *v = 233472; break;              /* shared per multiprocessor */
    case 82: *v = 65536; break;               /* registers per multiprocessor */
    case 97: *v = 232448; break;              /* shared per block, opt-in */
    default: *v = 1;
    }
    return 0;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { (void)d; *c = &tag_ctx; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) { (void)d; return 0; }
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned f) { (void)d; (void)f; return 0; }
CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned *flags, int *active) { (void)d; *flags = 1 /* spin */; *active = 1; return 0; }
CUresult cuCtxSetCurrent(CUcontext c) { current = c; return 0; }
CUresult cuCtxGetCurrent(CUcontext *c) { *c = current; return 0; }
CUresult cuCtxSynchronize(void) { return 0; }

CUresult cuStreamCreate(CUstream *s, unsigned f) { (void)f; *s = &tag_stream; return 0; }
CUresult cuStreamDestroy_v2(CUstream s) { (void)s; return 0; }
CUresult cuStreamSynchronize(CUstream s) { (void)s; return 0; }
CUresult cuStreamQuery(CUstream s) { (void)s; return 0; }
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned f) { (void)s; (void)e; (void)f; return 0; }
CUresult cuStreamWriteValue32_v2(CUstream s, CUdeviceptr addr, uint32_t value, unsigned f) { (void)s; (void)f; *(volatile uint32_t *)(uintptr_t)addr = value; return 0; }

CUresult cuEventCreate(CUevent *e, unsigned f) { (void)f; *e = &tag_event; return 0; }
CUresult cuEventDestroy_v2(CUevent e) { (void)e; return 0; }
CUresult cuEventRecord(CUevent e, CUstream s) { (void)e; (void)s; return 0; }
CUresult cuEventSynchronize(CUevent e) { (void)e; return 0; }
CUresult cuEventQuery(CUevent e) { (void)e; return 0; }
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) { (void)a; (void)b; *ms = 0.001f; return 0; }
CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) { return cuEventElapsedTime(ms, a, b); }

/* Device memory is host memory, filled with 0xff (NaN as doubles: a sum that no kernel made
 * never converges). */
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
    void *m = malloc(bytes ? bytes : 1);
    if (!m) return 2;
    memset(m, 0xff, bytes);
    *p = (CUdeviceptr)(uintptr_t)m;
    return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) { *free_bytes = (size_t)130 << 30; *total = (size_t)140 << 30; return 0; }
CUresult cuMemAllocHost_v2(void **p, size_t bytes) {
    *p = malloc(bytes ? bytes : 1);
    if (!*p) return 2;
    memset(*p, 0xff, bytes); /* as device memory: the reductions' partials read NaN */
    return 0;
}
CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned f) { (void)f; return cuMemAllocHost_v2(p, bytes); }
CUresult cuMemFreeHost(void *p) { free(p); return 0; }
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned f) { (void)f; *d = (CUdeviceptr)(uintptr_t)p; return 0; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *h, size_t n, CUstream s) { (void)s; memcpy((void *)(uintptr_t)d, h, n); return 0; }
CUresult cuMemcpyDtoHAsync_v2(void *h, CUdeviceptr d, size_t n, CUstream s) { (void)s; memcpy(h, (const void *)(uintptr_t)d, n); return 0; }
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr a, CUdeviceptr b, size_t n, CUstream s) { (void)s; memmove((void *)(uintptr_t)a, (const void *)(uintptr_t)b, n); return 0; }
/* Every byte set is 0xff too: the reductions no kernel made are NaN, not 0 (a residual of 0
 * would end a solver's loop at once). */
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) { (void)s; (void)v; memset((void *)(uintptr_t)d, 0xff, n); return 0; }
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned f) { (void)p; (void)n; (void)f; return 0; }
CUresult cuMemHostUnregister(void *p) { (void)p; return 0; }

CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, int *options, void **values) { (void)image; (void)n; (void)options; (void)values; *m = &tag_module; return 0; }
CUresult cuModuleUnload(CUmodule m) { (void)m; return 0; }
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) { (void)m; (void)name; *f = &tag_function; return 0; }
CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f) {
    (void)f;
    switch (attr) {
    case 0: *v = 1024; break; /* max threads per block */
    case 4: *v = 32; break;   /* registers */
    default: *v = 0;
    }
    return 0;
}
CUresult cuFuncSetAttribute(CUfunction f, int attr, int v) { (void)f; (void)attr; (void)v; return 0; }
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int block, size_t shared) { (void)f; (void)shared; *n = block > 0 ? (2048 / block > 32 ? 32 : 2048 / block) : 1; return 0; }
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared, CUstream s, void **params, void **extra) {
    (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)shared; (void)s; (void)params; (void)extra;
    return 0;
}
CUresult cuGetErrorName(CUresult e, const char **s) { (void)e; *s = "CUDA_ERROR_FAKE"; return 0; }
CUresult cuGetErrorString(CUresult e, const char **s) { (void)e; *s = "an error of acc's fake CUDA driver"; return 0; }
