// What a small upload before a synchronous launch costs, by how it is made (driver API).
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <chrono>
#include <algorithm>
#define CK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char* s; cuGetErrorString(e, &s); printf("%s: %s\n", #x, s); exit(1); } } while (0)
__global__ void touch(int* out, int n) { if (threadIdx.x == 0 && blockIdx.x < n) out[blockIdx.x] += 1; }
__global__ void setter(int4* out, int4 a, int4 b, int4 c, int4 d) { }
int main() {
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  int memops = 0; cuDeviceGetAttribute(&memops, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, dev);
  printf("stream mem ops: %d\n", memops);
  CUstream s; CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUdeviceptr out; CK(cuMemAlloc(&out, 65536)); CK(cuMemsetD8(out, 0, 65536));
  void* pinned; CK(cuMemAllocHost(&pinned, 65536));
  std::vector<char> pageable(65536, 1);
  CUevent ev; CK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
  int n = 64; int* dout = (int*)out;
  CUfunction k; { CUmodule m; (void)m; }
  auto launch = [&] { touch<<<64, 128, 0, (cudaStream_t)s>>>(dout, n); };
  auto med = [&](const char* what, auto pre) {
    std::vector<double> t;
    for (int r = 0; r < 2000; r++) {
      auto t0 = std::chrono::steady_clock::now();
      pre(); launch(); CK(cuStreamSynchronize(s));
      t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    printf("%-48s median %6.2f us  p10 %6.2f  p90 %6.2f\n", what, t[t.size() / 2], t[t.size() / 10], t[t.size() * 9 / 10]);
  };
  for (int rep = 0; rep < 2; rep++) {
    med("launch + sync", [] {});
    for (int bytes : {256, 4096, 65536}) {
      char w[96];
      snprintf(w, sizeof w, "pinned async h2d %d B + event", bytes);
      med(w, [&] { CK(cuEventSynchronize(ev)); memcpy(pinned, pageable.data(), bytes); CK(cuMemcpyHtoDAsync(out, pinned, bytes, s)); CK(cuEventRecord(ev, s)); });
      snprintf(w, sizeof w, "pinned async h2d %d B", bytes);
      med(w, [&] { memcpy(pinned, pageable.data(), bytes); CK(cuMemcpyHtoDAsync(out, pinned, bytes, s)); });
      snprintf(w, sizeof w, "pageable async h2d %d B", bytes);
      med(w, [&] { CK(cuMemcpyHtoDAsync(out, pageable.data(), bytes, s)); });
      snprintf(w, sizeof w, "pageable sync h2d %d B", bytes);
      med(w, [&] { CK(cuMemcpyHtoD(out, pageable.data(), bytes)); });
      if (memops && bytes <= 2048) {
        int ops = bytes / 8;
        std::vector<CUstreamBatchMemOpParams> p(ops);
        memset(p.data(), 0, ops * sizeof(p[0]));
        for (int i = 0; i < ops; i++) { p[i].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64; p[i].writeValue.address = out + 8 * i; p[i].writeValue.value64 = 7; p[i].writeValue.flags = CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER; }
        snprintf(w, sizeof w, "batch mem op writes %d B (%d ops)", bytes, ops);
        med(w, [&] { for (int i = 0; i < ops; i++) memcpy(&p[i].writeValue.value64, pageable.data() + 8 * i, 8); CK(cuStreamBatchMemOp(s, ops, p.data(), 0)); });
      }
    }
    med("memset d32 async 256 B", [&] { CK(cuMemsetD32Async(out, 5, 64, s)); });
    med("extra kernel with 64 B of params", [&] { setter<<<1, 32, 0, (cudaStream_t)s>>>((int4*)dout, int4{}, int4{}, int4{}, int4{}); });
  }
}
