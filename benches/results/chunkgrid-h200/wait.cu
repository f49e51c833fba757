// Ways to wait for a synchronous launch, host clock, spin-scheduled primary context.
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#define CK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char* s; cuGetErrorString(e, &s); printf("%s: %s\n", #x, s); exit(1); } } while (0)
struct alignas(16) Caps { unsigned char b[272]; };
__global__ void k_inc(float* c, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) c[i] += 1.0f;
}
__global__ void k_inc_acc(int* panic, const float* a, size_t alen, float* c, size_t n, Caps caps, char* partials, char* cells) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) c[i] += 1.0f;
}
// The end signalled by the kernel: the last block to finish writes seq into the host word.
__device__ unsigned int g_count;
__device__ __forceinline__ void signal_done(volatile unsigned int* host, unsigned int seq) {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    __threadfence();
    unsigned int total = gridDim.x * gridDim.y * gridDim.z;
    if (atomicAdd(&g_count, 1) == total - 1) {
      g_count = 0;
      __threadfence_system();
      *host = seq;
    }
  }
}
__global__ void k_inc_sig(float* c, size_t n, volatile unsigned int* host, unsigned int seq) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) c[i] += 1.0f;
  signal_done(host, seq);
}
__global__ void __launch_bounds__(256) f4(const float4* __restrict__ a, float4* __restrict__ c, long nv) {
  for (long x = (long)blockIdx.x * blockDim.x + threadIdx.x; x < nv; x += (long)gridDim.x * blockDim.x) c[x] = __ldg(a + x);
}
__global__ void __launch_bounds__(256) f4_sig(const float4* __restrict__ a, float4* __restrict__ c, long nv, volatile unsigned int* host, unsigned int seq) {
  for (long x = (long)blockIdx.x * blockDim.x + threadIdx.x; x < nv; x += (long)gridDim.x * blockDim.x) c[x] = __ldg(a + x);
  signal_done(host, seq);
}
static volatile unsigned int* word; static CUdeviceptr dword; static unsigned int seq;
static CUstream s;
static void spin() {
  unsigned int spins = 0;
  while (*word - seq >= (1u << 31)) { if (++spins % 64 == 0) { CUresult r = cuStreamQuery(s); if (r == CUDA_SUCCESS) return; } }
}
template <class F> static void timed(const char* name, int iters, F f) {
  for (int r = 0; r < 50; r++) f();
  cuCtxSynchronize();
  std::vector<double> t(iters);
  for (auto& x : t) { auto st = std::chrono::steady_clock::now(); f(); x = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - st).count(); }
  cuCtxSynchronize();
  std::sort(t.begin(), t.end());
  printf("%-34s %8.2f us median  %8.2f p10  %8.2f p90\n", name, t[iters / 2], t[iters / 10], t[iters * 9 / 10]);
}
int main() {
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_SPIN));
  CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx)); cudaSetDevice(0);
  CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  void* hp; CK(cuMemHostAlloc(&hp, 64, CU_MEMHOSTALLOC_DEVICEMAP)); word = (volatile unsigned int*)hp; *word = 0;
  CK(cuMemHostGetDevicePointer(&dword, hp, 0));
  float* c; cudaMalloc(&c, 4096); cudaMemset(c, 0, 4096);
  long n = 50000000; float *a, *b; cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMemset(a, 0, n * 4);
  int sms; cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  int g8 = 8 * 8 * sms; long nv = n / 4;
  cudaStream_t rs = (cudaStream_t)s;
  Caps caps; memset(&caps, 0, sizeof caps); int* panic; cudaMalloc(&panic, 4096); char* parts; cudaMalloc(&parts, 1 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int round = 0; round < 3; round++) {
    printf("# round %d\n", round);
    timed("inc1024 + streamsync", 1000, [&] { k_inc<<<4, 256, 0, rs>>>(c, 1024); CK(cuStreamSynchronize(s)); });
    timed("inc1024 + writevalue + spin", 1000, [&] { k_inc<<<4, 256, 0, rs>>>(c, 1024); ++seq; CK(cuStreamWriteValue32(s, dword, seq, 0)); spin(); });
    timed("inc1024 signals + spin", 1000, [&] { ++seq; k_inc_sig<<<4, 256, 0, rs>>>(c, 1024, word, seq); spin(); });
    timed("inc1024 acc params + writevalue", 1000, [&] { k_inc_acc<<<4, 256, 4096, rs>>>(panic, c, 1024, c, 1024, caps, parts, nullptr); ++seq; CK(cuStreamWriteValue32(s, dword, seq, 0)); spin(); });
    timed("inc1024 + devicesync (dflt)", 1000, [&] { k_inc<<<4, 256>>>(c, 1024); cudaDeviceSynchronize(); });
    timed("enqueue inc1024 only", 1000, [&] { k_inc<<<4, 256, 0, rs>>>(c, 1024); });
    cuStreamSynchronize(s);
    timed("enqueue acc params only", 1000, [&] { k_inc_acc<<<4, 256, 4096, rs>>>(panic, c, 1024, c, 1024, caps, parts, nullptr); });
    cuStreamSynchronize(s);
    timed("enqueue writevalue only", 1000, [&] { ++seq; CK(cuStreamWriteValue32(s, dword, seq, 0)); });
    cuStreamSynchronize(s);
    timed("copy50M + streamsync", 100, [&] { f4<<<g8, 256, 0, rs>>>((const float4*)a, (float4*)b, nv); CK(cuStreamSynchronize(s)); });
    timed("copy50M + writevalue + spin", 100, [&] { f4<<<g8, 256, 0, rs>>>((const float4*)a, (float4*)b, nv); ++seq; CK(cuStreamWriteValue32(s, dword, seq, 0)); spin(); });
    timed("copy50M signals + spin", 100, [&] { ++seq; f4_sig<<<g8, 256, 0, rs>>>((const float4*)a, (float4*)b, nv, word, seq); spin(); });
    timed("copy50M + devicesync (dflt)", 100, [&] { f4<<<g8, 256>>>((const float4*)a, (float4*)b, nv); cudaDeviceSynchronize(); });
    timed("memcpy50M + devicesync (dflt)", 100, [&] { cudaMemcpyAsync(b, a, n * 4, cudaMemcpyDeviceToDevice, 0); cudaDeviceSynchronize(); });
    { std::vector<float> v; for (int r = 0; r < 21; r++) { cudaEventRecord(e0, rs); f4<<<g8, 256, 0, rs>>>((const float4*)a, (float4*)b, nv); cudaEventRecord(e1, rs); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); v.push_back(ms * 1000); } std::sort(v.begin(), v.end()); printf("%-34s %8.2f us median (events)\n", "copy50M events", v[10]); }
    { std::vector<float> v; for (int r = 0; r < 21; r++) { cudaEventRecord(e0, 0); cudaMemcpyAsync(b, a, n * 4, cudaMemcpyDeviceToDevice, 0); cudaEventRecord(e1, 0); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); v.push_back(ms * 1000); } std::sort(v.begin(), v.end()); printf("%-34s %8.2f us median (events)\n", "memcpy50M events", v[10]); }
  }
  std::vector<float> h(1024); cudaMemcpy(h.data(), c, 4096, cudaMemcpyDeviceToHost); printf("c[0] = %g (incremented %u+ times)\n", h[0], seq);
}
