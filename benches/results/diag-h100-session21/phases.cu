// Diagnostic: nvcc's launch + sync split into enqueue and synchronisation (spin and auto).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
__global__ void k_inc(float* c, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) c[i] += 1.0f;
}
typedef std::chrono::steady_clock C;
static double us(C::time_point a, C::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }
static void report(const char* what, std::vector<double>& v) {
  std::sort(v.begin(), v.end()); double m = 0; for (double x : v) m += x; m /= v.size();
  printf("nvcc %-30s median %7.3f us mean %7.3f us\n", what, v[v.size() / 2], m);
}
int main(int argc, char** argv) {
  bool spin = argc > 1 && argv[1][0] == 's';
  if (spin) CK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float* c; size_t n = 1024; CK(cudaMalloc(&c, n * 4)); CK(cudaMemset(c, 0, n * 4));
  for (int rep = 0; rep < 3; rep++) {
    for (int r = 0; r < 100; r++) { k_inc<<<4, 256, 0, s>>>(c, n); CK(cudaStreamSynchronize(s)); }
    std::vector<double> a, b, t;
    for (int r = 0; r < 1000; r++) {
      auto t0 = C::now(); k_inc<<<4, 256, 0, s>>>(c, n); auto t1 = C::now(); cudaStreamSynchronize(s); auto t2 = C::now();
      a.push_back(us(t0, t1)); b.push_back(us(t1, t2)); t.push_back(us(t0, t2));
    }
    printf("# %s rep %d\n", spin ? "spin" : "auto", rep);
    report("enqueue", a); report("sync", b); report("total", t);
  }
  return 0;
}
