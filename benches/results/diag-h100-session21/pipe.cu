// Diagnostic (issue 12, the papers' vector position): a sum over rows of 1M elements by 2
// blocks of 128 x 8 threads (each worker 4 rows, lanes strided over a row), as acc runs it
// (rounds of 4 16-byte loads a lane, all in flight before their adds) against a pipeline of
// `cp.async` copies into shared memory S stages deep (each lane's own slots, no barrier), and
// the geometry's copy bound (bound_k of benches/cuda/papers.cu, read only).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
constexpr int VL = 128, NW = 8, BLOCK = VL * NW;
constexpr long K = 2, J = 32, I = 1 << 20;

template <int U>
__global__ void __launch_bounds__(BLOCK) bound_k(const int4* __restrict__ a, int4* __restrict__ b, long nvec) {
  long t = (long)blockIdx.x * BLOCK + threadIdx.y * VL + threadIdx.x, stride = (long)gridDim.x * BLOCK, x = t;
  int acc = 0;
  for (; x + (U - 1) * stride < nvec; x += U * stride) {
    int4 r[U];
#pragma unroll
    for (int u = 0; u < U; u++) r[u] = __ldg(a + x + u * stride);
#pragma unroll
    for (int u = 0; u < U; u++) acc ^= r[u].x ^ r[u].y ^ r[u].z ^ r[u].w;
  }
  for (; x < nvec; x += stride) { int4 r = __ldg(a + x); acc ^= r.x ^ r.y ^ r.z ^ r.w; }
  if (acc == 0x5eed1e55) b[t] = make_int4(acc, 0, 0, 0);
}

template <class T> __device__ T sum4(int4 r);
template <> __device__ int sum4<int>(int4 r) { return r.x + r.y + r.z + r.w; }
template <> __device__ float sum4<float>(int4 r) { return __int_as_float(r.x) + __int_as_float(r.y) + __int_as_float(r.z) + __int_as_float(r.w); }
template <> __device__ double sum4<double>(int4 r) { return __longlong_as_double(((long long)r.y << 32) | (unsigned)r.x) + __longlong_as_double(((long long)r.w << 32) | (unsigned)r.z); }

template <class T>
__device__ void finish_row(T v, T* out, long row) {
  __shared__ T part[NW][VL / 32];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.y][threadIdx.x / 32] = v;
  __syncwarp();
  __syncthreads();
  if (threadIdx.x == 0) { T s = 0; for (int w = 0; w < VL / 32; w++) s += part[threadIdx.y][w]; out[row] = s; }
  __syncthreads();
}

// acc's form: rounds of R 16-byte chunks a lane, loads first.
template <class T, int R>
__global__ void __launch_bounds__(BLOCK) rounds_k(const T* a, T* out) {
  constexpr int W = 16 / sizeof(T);
  for (long jj = 0; jj < J; jj += NW) {
    long row = blockIdx.x * J + jj + threadIdx.y;
    const int4* p = (const int4*)(a + row * I);
    long n = I / W;
    T v = 0;
    long c = threadIdx.x;
    for (; c + (R - 1) * VL < n; c += R * VL) {
      int4 r[R];
#pragma unroll
      for (int u = 0; u < R; u++) r[u] = __ldg(p + c + u * VL);
#pragma unroll
      for (int u = 0; u < R; u++) v += sum4<T>(r[u]);
    }
    for (; c < n; c += VL) v += sum4<T>(__ldg(p + c));
    finish_row(v, out, row);
  }
}

__device__ __forceinline__ void cp16(void* smem, const void* g) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(g));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void wait_group() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// Rounds of R chunks with a warp per row (32 lanes over a row, the 32 warps of a block on 32
// rows): what acc's worker-per-warp schedule makes of the vector position.
template <class T, int R>
__global__ void __launch_bounds__(BLOCK) rounds_warp_k(const T* a, T* out) {
  constexpr int W = 16 / sizeof(T);
  int lane = threadIdx.x & 31, warp = (threadIdx.y * VL + threadIdx.x) >> 5;
  long row = blockIdx.x * J + warp;
  const int4* p = (const int4*)(a + row * I);
  long n = I / W;
  T v = 0;
  long c = lane;
  for (; c + (R - 1) * 32 < n; c += R * 32) {
    int4 r[R];
#pragma unroll
    for (int u = 0; u < R; u++) r[u] = __ldg(p + c + u * 32);
#pragma unroll
    for (int u = 0; u < R; u++) v += sum4<T>(r[u]);
  }
  for (; c < n; c += 32) v += sum4<T>(__ldg(p + c));
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0) out[row] = v;
}

// The pipeline: S stages of one 16-byte chunk a lane in shared memory (stage s of thread t at
// ring[s * BLOCK + t]: adjacent lanes adjacent, no bank conflicts).
template <class T, int S>
__global__ void __launch_bounds__(BLOCK) pipe_k(const T* a, T* out) {
  constexpr int W = 16 / sizeof(T);
  extern __shared__ int4 ring[];
  int tid = threadIdx.y * VL + threadIdx.x;
  for (long jj = 0; jj < J; jj += NW) {
    long row = blockIdx.x * J + jj + threadIdx.y;
    const int4* p = (const int4*)(a + row * I);
    long n = I / W;
    T v = 0;
    long steps = (n - threadIdx.x + VL - 1) / VL;  // this lane's chunks
#pragma unroll
    for (int s = 0; s < S - 1; s++) {
      if (s < steps) cp16(&ring[s * BLOCK + tid], p + threadIdx.x + (long)s * VL);
      commit();
    }
    for (long t = 0; t < steps; t++) {
      wait_group<S - 2>();
      int4 r = ring[(int)(t & (S - 1)) * BLOCK + tid];
      v += sum4<T>(r);
      long nx = t + S - 1;
      if (nx < steps) cp16(&ring[(int)(nx & (S - 1)) * BLOCK + tid], p + threadIdx.x + nx * VL);
      commit();
    }
    wait_group<0>();
    finish_row(v, out, row);
  }
}

template <class F>
static float best_ms(F f) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  f(); CK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int r = 0; r < 5; r++) {
    CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); best = std::min(best, ms);
  }
  return best;
}

template <class T>
static void run(const char* ty0, bool periodic) {
  char ty[32]; snprintf(ty, sizeof ty, "%s%s", ty0, periodic ? "/x%7" : "/hash");
  long n = K * J * I;
  T* a; T* out; int4* junk;
  CK(cudaMalloc(&a, n * sizeof(T))); CK(cudaMalloc(&out, K * J * sizeof(T))); CK(cudaMalloc(&junk, 1 << 20));
  std::vector<T> h(n);
  for (long i = 0; i < n; i++) h[i] = periodic ? (T)(i % 7) : (T)((i * 2654435761u) % 7);
  CK(cudaMemcpy(a, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  std::vector<double> want(K * J, 0);
  for (long r = 0; r < K * J; r++) for (long i = 0; i < I; i++) want[r] += (double)h[r * I + i];
  auto check = [&](const char* what, float ms) {
    std::vector<T> got(K * J); CK(cudaMemcpy(got.data(), out, K * J * sizeof(T), cudaMemcpyDeviceToHost));
    int bad = 0; for (long r = 0; r < K * J; r++) if ((double)got[r] != want[r]) bad++;
    printf("%-12s %-26s %8.3f ms %s\n", ty, what, ms, bad ? "WRONG" : "ok");
  };
  long nvec = n * sizeof(T) / 16;
  float b = std::min({best_ms([&] { bound_k<1><<<K, dim3(VL, NW)>>>((const int4*)a, junk, nvec); }), best_ms([&] { bound_k<4><<<K, dim3(VL, NW)>>>((const int4*)a, junk, nvec); }), best_ms([&] { bound_k<8><<<K, dim3(VL, NW)>>>((const int4*)a, junk, nvec); })});
  printf("%-12s %-26s %8.3f ms\n", ty, "bound (1|4|8 in flight)", b);
  check("rounds of 4", best_ms([&] { rounds_k<T, 4><<<K, dim3(VL, NW)>>>(a, out); }));
  check("rounds of 8", best_ms([&] { rounds_k<T, 8><<<K, dim3(VL, NW)>>>(a, out); }));
  check("warp a row, rounds of 4", best_ms([&] { rounds_warp_k<T, 4><<<K, dim3(VL, NW)>>>(a, out); }));
  check("warp a row, rounds of 2", best_ms([&] { rounds_warp_k<T, 2><<<K, dim3(VL, NW)>>>(a, out); }));
#define PIPE(S)                                                                                  \
  {                                                                                              \
    int sh = S * BLOCK * 16;                                                                     \
    CK(cudaFuncSetAttribute(pipe_k<T, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, sh));     \
    check("cp.async, " #S " stages", best_ms([&] { pipe_k<T, S><<<K, dim3(VL, NW), sh>>>(a, out); })); \
  }
  PIPE(4) PIPE(8)
  CK(cudaFree(a)); CK(cudaFree(out)); CK(cudaFree(junk));
}

int main() {
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  printf("# %s: vector position, %ld blocks of %d x %d, rows of %ld\n", p.name, K, VL, NW, I);
  for (bool periodic : {true, false}) {
    run<int>("int", periodic);
    run<double>("double", periodic);
  }
  return 0;
}
