// The host's cost of a CUDA launch by the size of its parameters (8 bytes; a list like acc's
// NPB LU kernels', 7 slices, an 88-byte struct and acc's 272-byte `Captures`; the same without
// `Captures`), 20000 launches queued without a wait, one clock read around each loop; and the
// cost of clock_gettime, cuCtxGetCurrent and an uncontended mutex there.
//   nvcc -O3 -arch=sm_90 -o /tmp/launch_params benches/cuda/launch_params.cu -lcuda && /tmp/launch_params
// Results: benches/results/npb-h200/blocks-jit-B.txt (call 3).
#include <cuda.h>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <time.h>
struct Big272 { char b[272]; };
struct Grid88 { char b[88]; };
__global__ void k1(double* a) { if (threadIdx.x == 0 && blockIdx.x == 0 && a) a[0] += 1; }
__global__ void k22(double* a, long l1, double* b, long l2, double* c, long l3, double* d, long l4, double* e, long l5,
                    double* f, long l6, double* g, long l7, Grid88 gr, long x, long y, double om, Big272 caps, void* p, void* q) {
  if (threadIdx.x == 0 && blockIdx.x == 0 && a) a[0] += caps.b[0] + gr.b[0];
}
__global__ void k22small(double* a, long l1, double* b, long l2, double* c, long l3, double* d, long l4, double* e, long l5,
                    double* f, long l6, double* g, long l7, Grid88 gr, long x, long y, double om, void* p, void* q) {
  if (threadIdx.x == 0 && blockIdx.x == 0 && a) a[0] += gr.b[0];
}
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main() {
  double* a; cudaMalloc(&a, 64);
  Big272 caps = {}; Grid88 gr = {};
  const int N = 20000;
  for (int rep = 0; rep < 2; rep++) {
    cudaDeviceSynchronize();
    double t = now();
    for (int i = 0; i < N; i++) k1<<<40, 128>>>(a);
    double t1 = now(); cudaDeviceSynchronize(); double t2 = now();
    printf("k1 (8 bytes of parameters): %.2f us a launch queued, %.2f us to the end\n", (t1 - t) / N * 1e6, (t2 - t) / N * 1e6);
    t = now();
    for (int i = 0; i < N; i++) k22<<<40, 128>>>(a, 1, a, 1, a, 1, a, 1, a, 1, a, 1, a, 1, gr, 1, 2, 0.5, caps, 0, 0);
    t1 = now(); cudaDeviceSynchronize(); t2 = now();
    printf("k22 (%zu bytes: 7 slices, an 88-byte and a 272-byte struct): %.2f us a launch queued, %.2f us to the end\n", 7 * 16 + sizeof(Grid88) + 24 + sizeof(Big272) + 16, (t1 - t) / N * 1e6, (t2 - t) / N * 1e6);
    t = now();
    for (int i = 0; i < N; i++) k22small<<<40, 128>>>(a, 1, a, 1, a, 1, a, 1, a, 1, a, 1, a, 1, gr, 1, 2, 0.5, 0, 0);
    t1 = now(); cudaDeviceSynchronize(); t2 = now();
    printf("k22small (without the 272-byte struct): %.2f us a launch queued, %.2f us to the end\n", (t1 - t) / N * 1e6, (t2 - t) / N * 1e6);
  }
  double t = now(); struct timespec ts; for (int i = 0; i < N; i++) clock_gettime(CLOCK_MONOTONIC, &ts); double t1 = now();
  printf("clock_gettime(CLOCK_MONOTONIC): %.3f us a call\n", (t1 - t) / N * 1e6);
  CUcontext c; t = now(); for (int i = 0; i < N; i++) cuCtxGetCurrent(&c); t1 = now();
  printf("cuCtxGetCurrent: %.3f us a call\n", (t1 - t) / N * 1e6);
  std::mutex m; t = now(); for (int i = 0; i < N; i++) { m.lock(); m.unlock(); } t1 = now();
  printf("uncontended mutex: %.3f us a lock\n", (t1 - t) / N * 1e6);
  volatile double s = 0; t = now(); for (int i = 0; i < 100000000; i++) s = s + 1.0; t1 = now();
  printf("1e8 dependent adds: %.3f s\n", t1 - t);
  return 0;
}
