// Diagnostic: grid-stride (one wave) vs bands of rows per block on several waves, for the
// Laplacian (8192^2), the 9-point Jacobi (4096^2) and the 13-point wave step (256^3), f32.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
struct Lap { static constexpr int R = 1;
  __device__ static float at(const float* a, size_t n, size_t r, size_t c) { return a[(r - 1) * n + c] + a[(r + 1) * n + c] + a[r * n + c - 1] + a[r * n + c + 1] - 4.0f * a[r * n + c]; } };
struct Jac { static constexpr int R = 1;
  __device__ static float at(const float* a, size_t n, size_t i, size_t j) {
    return 0.0625f * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
         + 0.125f * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]) + 0.25f * a[i * n + j]; } };
template <class S> __global__ void onept(const float* __restrict__ a, float* __restrict__ b, size_t n) {
  size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x + 1, i = blockIdx.y * (size_t)blockDim.y + threadIdx.y + 1;
  if (i < n - 1 && j < n - 1) b[i * n + j] = S::at(a, n, i, j);
}
template <class S> __global__ void gs(const float* __restrict__ a, float* __restrict__ b, size_t n) {
  for (size_t i = blockIdx.y * (size_t)blockDim.y + threadIdx.y; i < n - 2; i += (size_t)gridDim.y * blockDim.y)
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n - 2; j += (size_t)gridDim.x * blockDim.x)
      b[(i + 1) * n + j + 1] = S::at(a, n, i + 1, j + 1);
}
template <class S> __global__ void bands(const float* __restrict__ a, float* __restrict__ b, size_t n) {
  size_t rows = n - 2, per = (rows + gridDim.y - 1) / gridDim.y, lo = blockIdx.y * per, hi = min(rows, lo + per);
  for (size_t i = lo + threadIdx.y; i < hi; i += blockDim.y)
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n - 2; j += (size_t)gridDim.x * blockDim.x)
      b[(i + 1) * n + j + 1] = S::at(a, n, i + 1, j + 1);
}
__device__ float lap13(const float* u, size_t c, size_t s1, size_t s2) {
  auto axis = [&](size_t s) { return (4.0f / 3.0f) * (u[c - s] + u[c + s]) - (1.0f / 12.0f) * (u[c - 2 * s] + u[c + 2 * s]); };
  return axis(1) + axis(s2) + axis(s1) - 7.5f * u[c];
}
// 3-D: x = k, y = j, z = i; blocks 32 x 4 x 2.
__global__ void w_onept(const float* __restrict__ u, const float* __restrict__ p, float* __restrict__ nx, size_t n) {
  size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x + 2, j = blockIdx.y * (size_t)blockDim.y + threadIdx.y + 2, i = blockIdx.z * (size_t)blockDim.z + threadIdx.z + 2;
  if (i < n - 2 && j < n - 2 && k < n - 2) { size_t c = (i * n + j) * n + k; nx[c] = 2.0f * u[c] - p[c] + 0.1f * lap13(u, c, n * n, n); }
}
__global__ void w_gs(const float* __restrict__ u, const float* __restrict__ p, float* __restrict__ nx, size_t n) {
  for (size_t i = blockIdx.z * (size_t)blockDim.z + threadIdx.z; i < n - 4; i += (size_t)gridDim.z * blockDim.z)
  for (size_t j = blockIdx.y * (size_t)blockDim.y + threadIdx.y; j < n - 4; j += (size_t)gridDim.y * blockDim.y)
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n - 4; k += (size_t)gridDim.x * blockDim.x) {
    size_t c = ((i + 2) * n + j + 2) * n + k + 2; nx[c] = 2.0f * u[c] - p[c] + 0.1f * lap13(u, c, n * n, n); }
}
__global__ void w_bands(const float* __restrict__ u, const float* __restrict__ p, float* __restrict__ nx, size_t n) {
  size_t t = n - 4;
  size_t pz = (t + gridDim.z - 1) / gridDim.z, lz = blockIdx.z * pz, hz = min(t, lz + pz);
  size_t py = (t + gridDim.y - 1) / gridDim.y, ly = blockIdx.y * py, hy = min(t, ly + py);
  for (size_t i = lz + threadIdx.z; i < hz; i += blockDim.z)
  for (size_t j = ly + threadIdx.y; j < hy; j += blockDim.y)
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < t; k += (size_t)gridDim.x * blockDim.x) {
    size_t c = ((i + 2) * n + j + 2) * n + k + 2; nx[c] = 2.0f * u[c] - p[c] + 0.1f * lap13(u, c, n * n, n); }
}
template <class F> void time(const char* name, F launch) {
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> t;
  for (int r = 0; r < 25; r++) {
    cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1); if (r >= 5) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  printf("%-34s %.4f ms\n", name, t[t.size() / 2]);
}
template <class S> void two_d(const char* tag, size_t n, float* a, float* b, int wave) {
  dim3 blk(32, 8); char nm[80];
  int gx = (n - 2 + 31) / 32;
  snprintf(nm, 80, "%s onept", tag); time(nm, [&] { onept<S><<<dim3(gx, (n - 2 + 7) / 8), blk>>>(a, b, n); });
  int gy1 = std::max(1, wave / gx);
  snprintf(nm, 80, "%s gs %dx%d", tag, gx, gy1); time(nm, [&] { gs<S><<<dim3(gx, gy1), blk>>>(a, b, n); });
  for (int w : {1, 2, 4, 8, 16}) {
    int gy = std::min<int>(gy1 * w, (n - 2 + 7) / 8);
    snprintf(nm, 80, "%s bands %dx%d (%d waves)", tag, gx, gy, w); time(nm, [&] { bands<S><<<dim3(gx, gy), blk>>>(a, b, n); });
  }
}
int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float *a, *b, *c; size_t big = (size_t)8192 * 8192;
  cudaMalloc(&a, big * 4); cudaMalloc(&b, big * 4); cudaMalloc(&c, big * 4);
  cudaMemset(a, 0, big * 4); cudaMemset(c, 0, big * 4);
  two_d<Lap>("lap 8192", 8192, a, b, sms * 8);
  two_d<Jac>("jac9 4096", 4096, a, b, sms * 8);
  two_d<Lap>("lap 4096", 4096, a, b, sms * 8);
  size_t n = 256; dim3 blk(32, 4, 2); size_t t = n - 4; char nm[80];
  int gx = (t + 31) / 32, gy = (t + 3) / 4, gz = (t + 1) / 2;
  time("wave onept", [&] { w_onept<<<dim3(gx, gy, gz), blk>>>(a, c, b, n); });
  int per_sm = 4, wave = sms * per_sm;  // acc: 4 blocks a multiprocessor (62 registers)
  int wy = std::max(1, wave / gx), wz = 1; while (wy > gy) { wy /= 2; wz *= 2; }
  snprintf(nm, 80, "wave gs %dx%dx%d", gx, wy, wz); time(nm, [&] { w_gs<<<dim3(gx, wy, wz), blk>>>(a, c, b, n); });
  for (int w : {1, 2, 4, 8, 16}) {
    int zz = std::min<int>(gz, std::max(1, (wave * w) / (gx * gy)));
    int yy = std::min<int>(gy, std::max(1, (wave * w) / (gx * zz)));
    snprintf(nm, 80, "wave bands %dx%dx%d (%d waves)", gx, yy, zz, w); time(nm, [&] { w_bands<<<dim3(gx, yy, zz), blk>>>(a, c, b, n); });
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
