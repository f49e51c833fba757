// Diagnostic: why acc's one-wave grid-stride Laplacian is slower in back-to-back calls.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define N 8192
__global__ void onept(const float* __restrict__ a, float* __restrict__ b, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + 1, i = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i < n - 1 && j < n - 1) b[(size_t)i * n + j] = a[(size_t)(i - 1) * n + j] + a[(size_t)(i + 1) * n + j] + a[(size_t)i * n + j - 1] + a[(size_t)i * n + j + 1] - 4.0f * a[(size_t)i * n + j];
}
__global__ void gs(const float* __restrict__ a, float* __restrict__ b, size_t n) {
  for (size_t i = blockIdx.y * (size_t)blockDim.y + threadIdx.y; i < n - 2; i += (size_t)gridDim.y * blockDim.y)
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n - 2; j += (size_t)gridDim.x * blockDim.x) {
      size_t r = i + 1, c = j + 1;
      b[r * n + c] = a[(r - 1) * n + c] + a[(r + 1) * n + c] + a[r * n + c - 1] + a[r * n + c + 1] - 4.0f * a[r * n + c];
    }
}
__global__ void bands(const float* __restrict__ a, float* __restrict__ b, size_t n) {
  size_t rows = n - 2, per = (rows + gridDim.y - 1) / gridDim.y, lo = blockIdx.y * per, hi = min(rows, lo + per);
  for (size_t i = lo + threadIdx.y; i < hi; i += blockDim.y)
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n - 2; j += (size_t)gridDim.x * blockDim.x) {
      size_t r = i + 1, c = j + 1;
      b[r * n + c] = a[(r - 1) * n + c] + a[(r + 1) * n + c] + a[r * n + c - 1] + a[r * n + c + 1] - 4.0f * a[r * n + c];
    }
}
__global__ void flush(float* s, size_t m) { for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < m; k += (size_t)gridDim.x * blockDim.x) s[k] = 1.0f; }
template <class F> void time(const char* name, F launch, float* scratch, size_t sm) {
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int mode = 0; mode < 2; mode++) {
    std::vector<float> t;
    for (int r = 0; r < 25; r++) {
      if (mode == 1) { flush<<<1056, 256>>>(scratch, sm); cudaDeviceSynchronize(); }
      cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); if (r >= 5) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    printf("%-22s %-16s %.4f ms\n", name, mode ? "after-flush" : "back-to-back", t[t.size() / 2]);
  }
}
int main() {
  float *a, *b, *s; size_t sm = 64 << 20;
  cudaMalloc(&a, (size_t)N * N * 4); cudaMalloc(&b, (size_t)N * N * 4); cudaMalloc(&s, sm * 4);
  cudaMemset(a, 0, (size_t)N * N * 4);
  dim3 blk(32, 8);
  time("onept", [&] { onept<<<dim3((N - 2 + 31) / 32, (N - 2 + 7) / 8), blk>>>(a, b, N); }, s, sm);
  for (int gy : {4, 8, 16, 32}) {
    char nm[64]; snprintf(nm, 64, "gs 256x%d", gy);
    time(nm, [&] { gs<<<dim3(256, gy), blk>>>(a, b, N); }, s, sm);
    snprintf(nm, 64, "bands 256x%d", gy);
    time(nm, [&] { bands<<<dim3(256, gy), blk>>>(a, b, N); }, s, sm);
  }
  time("onept(again)", [&] { onept<<<dim3((N - 2 + 31) / 32, (N - 2 + 7) / 8), blk>>>(a, b, N); }, s, sm);
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
