// nvcc kernels for benches/papers.rs: the OpenUH reduction testsuite in the paper's shapes
// (GCC's acc_reductions.c: n = 64M, the reducing loop up to 1M trips, the others 2 and 32),
// each position written in CUDA for the same launch geometry as the OpenACC program asks for:
// blocks of 8 workers x 128 lanes (threadIdx.y = worker, threadIdx.x = vector lane), gang k =
// block, as many blocks as the gang loop has trips up to one full wave of the device (the rule
// acc's runtime uses without num_gangs: min(trips, blocks resident at once)). A direct
// translation (no unrolling beyond nvcc's own), reductions by warp shuffles and a last-block
// finish. And the roofline of each cell's geometry: a copy kernel on the same grid and
// blocks moving the same bytes (16-byte loads, 1, 4 or 8 of them in flight per thread, the
// best of the three): read a and write b for the positions that copy, read a only for the
// others (c, read n/64 elements by the gang/worker positions, is not counted: 1.6%).
// Also GCC's `stream` program (vector add, sum, max of 50M doubles).
//
// Timing as GCC and acc: wall clock of one call (launch, kernel, the result or the small out
// array copied to the host), best of 5. Every result is checked against the host (double).
//
//   nvcc -O3 -arch=native -o papers benches/cuda/papers.cu && ./papers [n] [reps] [stream_n]
// Output: `nvcc <position> <type> <op> <ms>`, `bound <position> <type> <op> <ms>`,
// `nvcc stream <case> <ms>`; `#` lines are comments (`# grid ...`: each cell's blocks).
// Exit status 1 when a result is wrong.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>
#include <vector>

#define CK(call)                                                                                  \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(2);                                                                              \
        }                                                                                         \
    } while (0)

static const int NW = 8, VL = 128, BLOCK = NW * VL;
static int g_failures = 0, g_sms = 0, g_reps = 5;

static double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F>
static double best_ms(F f) {
    double best = 1e30;
    for (int r = 0; r < g_reps; r++) {
        double t = now_ms();
        f();
        best = std::min(best, now_ms() - t);
    }
    CK(cudaGetLastError());
    return best;
}

// ---------------------------------------------------------------------------------------------
// Operators.

struct Add {
    template <class T> __host__ __device__ static T id() { return T(0); }
    template <class T> __host__ __device__ static T f(T a, T b) { return a + b; }
};
struct Mul {
    template <class T> __host__ __device__ static T id() { return T(1); }
    template <class T> __host__ __device__ static T f(T a, T b) { return a * b; }
};
struct Max {
    template <class T> __host__ __device__ static T id() { return T(-INFINITY); }
    template <class T> __host__ __device__ static T f(T a, T b) { return fmax(a, b); }
};

template <class Op, class T>
__device__ T warp_reduce(T v) {
    for (int o = 16; o > 0; o >>= 1) v = Op::f(v, __shfl_down_sync(0xffffffffu, v, o));
    return v;
}

// The block's reduction of v, in thread 0 (every thread of the block must call it).
template <class Op, class T>
__device__ T block_reduce(T v) {
    __shared__ double raw[32];
    T* sh = (T*)raw;
    int tid = threadIdx.y * blockDim.x + threadIdx.x, lane = tid & 31, w = tid >> 5;
    int warps = (blockDim.x * blockDim.y + 31) / 32;
    v = warp_reduce<Op>(v);
    __syncthreads();
    if (lane == 0) sh[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < warps ? sh[lane] : Op::template id<T>();
        v = warp_reduce<Op>(v);
    }
    return v;
}

// One pass: each block's value (thread 0's v) to partials; the last block folds them with
// init into *result. count wraps to 0 by itself (atomicInc), ready for the next launch.
template <class Op, class T>
__device__ void finish(T v, T* partials, unsigned* count, T* result) {
    __shared__ bool last;
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    if (tid == 0) {
        partials[blockIdx.x] = v;
        __threadfence();
        last = atomicInc(count, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        T acc = Op::template id<T>();
        for (int i = tid; i < gridDim.x; i += blockDim.x * blockDim.y) acc = Op::f(acc, ((volatile T*)partials)[i]);
        acc = block_reduce<Op>(acc);
        if (tid == 0) *result = acc;
    }
}

// ---------------------------------------------------------------------------------------------
// The seven positions (GCC's loop nests), k = block, j = threadIdx.y, i = threadIdx.x.

#define TX threadIdx.x
#define TY threadIdx.y
#define TID (threadIdx.y * VL + threadIdx.x)

template <class Op, class T>
__global__ void __launch_bounds__(BLOCK) gang_k(const T* a, T* b, const T* c, long K, long J, long I, T* partials, unsigned* count, T* result) {
    T v = Op::template id<T>();
    for (long k = blockIdx.x; k < K; k += gridDim.x) {
        if (TID == 0) v = Op::f(v, c[k]);
        for (long j = TY; j < J; j += NW)
            for (long i = TX; i < I; i += VL) b[(k * J + j) * I + i] = a[(k * J + j) * I + i] * T(2);
    }
    finish<Op>(v, partials, count, result);
}

template <class Op, class T>
__global__ void __launch_bounds__(BLOCK) worker_k(const T* a, T* b, const T* c, T* out, long K, long J, long I) {
    for (long k = blockIdx.x; k < K; k += gridDim.x) {
        T v = Op::template id<T>();
        for (long j = TY; j < J; j += NW) {
            if (TX == 0) v = Op::f(v, c[k * J + j]);
            for (long i = TX; i < I; i += VL) b[(k * J + j) * I + i] = a[(k * J + j) * I + i] * T(2);
        }
        v = block_reduce<Op>(v);
        if (TID == 0) out[k] = v;
    }
}

template <class Op, class T>
__global__ void __launch_bounds__(BLOCK) vector_k(const T* a, T* out, long K, long J, long I) {
    __shared__ double raw[NW][VL / 32];
    for (long k = blockIdx.x; k < K; k += gridDim.x) {
        for (long jj = 0; jj < J; jj += NW) {
            long j = jj + TY;
            T v = Op::template id<T>();
            if (j < J)
                for (long i = TX; i < I; i += VL) v = Op::f(v, a[(k * J + j) * I + i]);
            v = warp_reduce<Op>(v);
            if ((TX & 31) == 0) ((T*)raw[TY])[TX / 32] = v;
            __syncthreads();
            if (TX == 0 && j < J) {
                T s = ((T*)raw[TY])[0];
                for (int w = 1; w < VL / 32; w++) s = Op::f(s, ((T*)raw[TY])[w]);
                out[k * J + j] = s;
            }
            __syncthreads();
        }
    }
}

template <class Op, class T>
__global__ void __launch_bounds__(BLOCK) gw_k(const T* a, T* b, const T* c, long K, long J, long I, T* partials, unsigned* count, T* result) {
    T v = Op::template id<T>();
    for (long k = blockIdx.x; k < K; k += gridDim.x)
        for (long j = TY; j < J; j += NW) {
            if (TX == 0) v = Op::f(v, c[k * J + j]);
            for (long i = TX; i < I; i += VL) b[(k * J + j) * I + i] = a[(k * J + j) * I + i] * T(2);
        }
    v = block_reduce<Op>(v);
    finish<Op>(v, partials, count, result);
}

template <class Op, class T>
__global__ void __launch_bounds__(BLOCK) wv_k(const T* a, T* out, long K, long J, long I) {
    for (long k = blockIdx.x; k < K; k += gridDim.x) {
        T v = Op::template id<T>();
        for (long j = TY; j < J; j += NW)
            for (long i = TX; i < I; i += VL) v = Op::f(v, a[(k * J + j) * I + i]);
        v = block_reduce<Op>(v);
        if (TID == 0) out[k] = v;
    }
}

template <class Op, class T>
__global__ void __launch_bounds__(BLOCK) gwv_k(const T* a, long K, long J, long I, T* partials, unsigned* count, T* result) {
    T v = Op::template id<T>();
    for (long k = blockIdx.x; k < K; k += gridDim.x)
        for (long j = TY; j < J; j += NW)
            for (long i = TX; i < I; i += VL) v = Op::f(v, a[(k * J + j) * I + i]);
    v = block_reduce<Op>(v);
    finish<Op>(v, partials, count, result);
}

template <class Op, class T>
__global__ void __launch_bounds__(BLOCK) same_line_k(const T* a, long n, T* partials, unsigned* count, T* result) {
    T v = Op::template id<T>();
    for (long x = (long)blockIdx.x * BLOCK + TID; x < n; x += (long)gridDim.x * BLOCK) v = Op::f(v, a[x]);
    v = block_reduce<Op>(v);
    finish<Op>(v, partials, count, result);
}

// ---------------------------------------------------------------------------------------------
// The roofline of a geometry: move `nvec` 16-byte words with `grid` blocks of BLOCK threads,
// U loads in flight per thread; copy (write) or read only (a value kept from being optimised
// away by a store that never happens).

template <int U>
__global__ void __launch_bounds__(BLOCK) bound_k(const int4* __restrict__ a, int4* __restrict__ b, long nvec, bool write) {
    long t = (long)blockIdx.x * BLOCK + TID, stride = (long)gridDim.x * BLOCK, x = t;
    int acc = 0;
    for (; x + (U - 1) * stride < nvec; x += U * stride) {
        int4 r[U];
#pragma unroll
        for (int u = 0; u < U; u++) r[u] = __ldg(a + x + u * stride);
        if (write) {
#pragma unroll
            for (int u = 0; u < U; u++) b[x + u * stride] = r[u];
        } else {
#pragma unroll
            for (int u = 0; u < U; u++) acc ^= r[u].x ^ r[u].y ^ r[u].z ^ r[u].w;
        }
    }
    for (; x < nvec; x += stride) {
        int4 r = __ldg(a + x);
        if (write) b[x] = r; else acc ^= r.x ^ r.y ^ r.z ^ r.w;
    }
    if (!write && acc == 0x5eed1e55) b[t] = make_int4(acc, 0, 0, 0);
}

static std::map<std::tuple<int, long, bool>, double> g_bounds;

// The bound of a cell moving `bytes` (and writing them back when `write`) on `grid` blocks.
static double bound_ms(int grid, long bytes, bool write, const void* a, void* b) {
    auto key = std::make_tuple(grid, bytes, write);
    auto it = g_bounds.find(key);
    if (it != g_bounds.end()) return it->second;
    long nvec = bytes / 16;
    const int4* src = (const int4*)a;
    int4* dst = (int4*)b;
    double best = 1e30;
    best = std::min(best, best_ms([&] { bound_k<1><<<grid, dim3(VL, NW)>>>(src, dst, nvec, write); CK(cudaDeviceSynchronize()); }));
    best = std::min(best, best_ms([&] { bound_k<4><<<grid, dim3(VL, NW)>>>(src, dst, nvec, write); CK(cudaDeviceSynchronize()); }));
    best = std::min(best, best_ms([&] { bound_k<8><<<grid, dim3(VL, NW)>>>(src, dst, nvec, write); CK(cudaDeviceSynchronize()); }));
    g_bounds[key] = best;
    return best;
}

// ---------------------------------------------------------------------------------------------
// Data (the same as benches/papers.rs) and checks.

static long value_a(int op, long n, long x) {
    if (op == 0) return x % 7;
    if (op == 1) {
        if (x % 2796203 == 1001) return 2;
        if (x % 1398107 == 77) return -1;
        return 1;
    }
    return x == n / 3 ? 5000000 : (x * 7919) % 1000003;
}
static long value_c(int op, long x) { return op == 0 ? (x * 3) % 5 : value_a(1, 0, x); }

template <class T>
static double fold(int op, const T* v, long len) {
    double s = op == 0 ? 0.0 : op == 1 ? 1.0 : -INFINITY;
    for (long x = 0; x < len; x++) s = op == 0 ? s + (double)v[x] : op == 1 ? s * (double)v[x] : std::max(s, (double)v[x]);
    return s;
}

template <class T> static double tol();
template <> double tol<int>() { return 0; }
template <> double tol<float>() { return 1e-3; }
template <> double tol<double>() { return 1e-12; }

template <class T>
static void check(const char* pos, const char* ty, const char* op, const std::vector<T>& got, const std::vector<double>& want) {
    for (size_t x = 0; x < want.size(); x++)
        if (!(std::fabs((double)got[x] - want[x]) <= tol<T>() * std::fabs(want[x]))) {
            printf("# FAILED %s %s %s: result %zu is %.10g, want %.10g\n", pos, ty, op, x, (double)got[x], want[x]);
            g_failures++;
            return;
        }
}

template <class T>
static std::vector<double> rows(int op, const T* v, long count, long len) {
    std::vector<double> r(count);
    for (long x = 0; x < count; x++) r[x] = fold(op, v + x * len, len);
    return r;
}

static void line(const char* tool, const char* pos, const char* ty, const char* op, double ms) {
    printf("%-5s %-10s %-10s %-4s %10.3f\n", tool, pos, ty, op, ms);
    fflush(stdout);
}

// Blocks of a launch of `kernel` for a gang loop of `trips`: min(trips, one full wave).
template <class K>
static int grid_of(K kernel, long trips) {
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BLOCK, 0));
    return (int)std::max(1L, std::min(trips, (long)per_sm * g_sms));
}

// ---------------------------------------------------------------------------------------------
// One suite: operator Op (op 0 +, 1 *, 2 max) on T, the positions GCC runs.

template <class Op, class T>
static void suite(int op, const char* ty, const char* opname, long n, bool all) {
    std::vector<T> ha(n), hc(n);
    for (long x = 0; x < n; x++) { ha[x] = (T)value_a(op, n, x); hc[x] = (T)value_c(op, x); }
    T *a, *b, *c, *partials, *result, *out;
    unsigned* count;
    CK(cudaMalloc(&a, n * sizeof(T)));
    CK(cudaMalloc(&b, n * sizeof(T)));
    CK(cudaMalloc(&c, n * sizeof(T)));
    CK(cudaMalloc(&partials, 1 << 16));
    CK(cudaMalloc(&result, sizeof(T)));
    CK(cudaMalloc(&out, 64 * sizeof(T)));
    CK(cudaMalloc(&count, sizeof(unsigned)));
    CK(cudaMemset(count, 0, sizeof(unsigned)));
    CK(cudaMemcpy(a, ha.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(c, hc.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    const long bytes = n * sizeof(T);
    dim3 blk(VL, NW);
    T s;
    std::vector<T> hout(64);
    auto scalar = [&] { CK(cudaMemcpy(&s, result, sizeof(T), cudaMemcpyDeviceToHost)); };
    auto outs = [&](long m) { CK(cudaMemcpy(hout.data(), out, m * sizeof(T), cudaMemcpyDeviceToHost)); };
    auto cell = [&](const char* pos, int grid, double ms, bool write) {
        printf("# grid %s %s %s %d\n", pos, ty, opname, grid);
        line("nvcc", pos, ty, opname, ms);
        line("bound", pos, ty, opname, bound_ms(grid, bytes, write, a, b));
    };
    if (all) {
        long K = n / 64, J = 2, I = 32;
        int g = grid_of(gang_k<Op, T>, K);
        double ms = best_ms([&] { gang_k<Op, T><<<g, blk>>>(a, b, c, K, J, I, partials, count, result); scalar(); });
        check("gang", ty, opname, std::vector<T>{s}, {fold(op, hc.data(), K)});
        cell("gang", g, ms, true);

        K = 2, J = n / 64, I = 32;
        g = grid_of(worker_k<Op, T>, K);
        ms = best_ms([&] { worker_k<Op, T><<<g, blk>>>(a, b, c, out, K, J, I); outs(K); });
        check("worker", ty, opname, hout, rows(op, hc.data(), K, J));
        cell("worker", g, ms, true);

        K = 2, J = 32, I = n / 64;
        g = grid_of(vector_k<Op, T>, K);
        ms = best_ms([&] { vector_k<Op, T><<<g, blk>>>(a, out, K, J, I); outs(K * J); });
        check("vector", ty, opname, hout, rows(op, ha.data(), K * J, I));
        cell("vector", g, ms, false);

        K = 1024, J = n / 65536, I = 64;
        g = grid_of(gw_k<Op, T>, K);
        ms = best_ms([&] { gw_k<Op, T><<<g, blk>>>(a, b, c, K, J, I, partials, count, result); scalar(); });
        check("gw", ty, opname, std::vector<T>{s}, {fold(op, hc.data(), K * J)});
        cell("gw", g, ms, true);

        K = 64, J = 1024, I = n / 65536;
        g = grid_of(wv_k<Op, T>, K);
        ms = best_ms([&] { wv_k<Op, T><<<g, blk>>>(a, out, K, J, I); outs(K); });
        check("wv", ty, opname, hout, rows(op, ha.data(), K, J * I));
        cell("wv", g, ms, false);
    }
    long K = 64, J = 1024, I = n / 65536;
    int g = grid_of(gwv_k<Op, T>, K);
    double ms = best_ms([&] { gwv_k<Op, T><<<g, blk>>>(a, K, J, I, partials, count, result); scalar(); });
    check("gwv", ty, opname, std::vector<T>{s}, {fold(op, ha.data(), n)});
    cell("gwv", g, ms, false);

    g = grid_of(same_line_k<Op, T>, n / BLOCK);
    ms = best_ms([&] { same_line_k<Op, T><<<g, blk>>>(a, n, partials, count, result); scalar(); });
    check("same-line", ty, opname, std::vector<T>{s}, {fold(op, ha.data(), n)});
    cell("same-line", g, ms, false);

    for (void* p : {(void*)a, (void*)b, (void*)c, (void*)partials, (void*)result, (void*)out, (void*)count}) CK(cudaFree(p));
}

// ---------------------------------------------------------------------------------------------
// GCC's stream program (acc_test.c): c = a + b, sum(c), max(c); 256-thread blocks, one wave.

__global__ void vadd_k(const double* a, const double* b, double* c, long n) {
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) c[i] = a[i] + b[i];
}

template <class Op>
__global__ void stream_red_k(const double* a, long n, double* partials, unsigned* count, double* result) {
    double v = Op::template id<double>();
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) v = Op::f(v, a[i]);
    v = block_reduce<Op>(v);
    finish<Op>(v, partials, count, result);
}

static void stream(long n) {
    std::vector<double> ha(n), hb(n), hc(n);
    for (long i = 0; i < n; i++) { ha[i] = (double)(i % 1000) * 0.5; hb[i] = (double)((i * 7) % 1013); }
    hb[n / 3] = 1e9;
    double *a, *b, *c, *partials, *result, s = 0, m = 0;
    unsigned* count;
    CK(cudaMalloc(&a, n * 8));
    CK(cudaMalloc(&b, n * 8));
    CK(cudaMalloc(&c, n * 8));
    CK(cudaMalloc(&partials, 1 << 16));
    CK(cudaMalloc(&result, 8));
    CK(cudaMalloc(&count, 4));
    CK(cudaMemset(count, 0, 4));
    CK(cudaMemcpy(a, ha.data(), n * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb.data(), n * 8, cudaMemcpyHostToDevice));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, vadd_k, 256, 0));
    int gv = per_sm * g_sms;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_red_k<Add>, 256, 0));
    int gr = per_sm * g_sms;
    double tv = best_ms([&] { vadd_k<<<gv, 256>>>(a, b, c, n); CK(cudaDeviceSynchronize()); });
    double ts = best_ms([&] { stream_red_k<Add><<<gr, 256>>>(c, n, partials, count, result); CK(cudaMemcpy(&s, result, 8, cudaMemcpyDeviceToHost)); });
    double tm = best_ms([&] { stream_red_k<Max><<<gr, 256>>>(c, n, partials, count, result); CK(cudaMemcpy(&m, result, 8, cudaMemcpyDeviceToHost)); });
    CK(cudaMemcpy(hc.data(), c, n * 8, cudaMemcpyDeviceToHost));
    double sref = 0, mref = -INFINITY;
    long bad = 0;
    for (long i = 0; i < n; i++) { bad += hc[i] != ha[i] + hb[i]; sref += ha[i] + hb[i]; mref = std::max(mref, ha[i] + hb[i]); }
    printf("nvcc  stream vecadd %10.3f  # %.1f GB/s\n", tv, 24.0 * n / tv / 1e6);
    printf("nvcc  stream sum    %10.3f  # %.1f GB/s\n", ts, 8.0 * n / ts / 1e6);
    printf("nvcc  stream max    %10.3f  # %.1f GB/s\n", tm, 8.0 * n / tm / 1e6);
    if (bad || std::fabs(s - sref) >= 1e-9 * std::fabs(sref) || m != mref) {
        printf("# FAILED stream: %ld wrong sums, sum %.17g want %.17g, max %.17g want %.17g\n", bad, s, sref, m, mref);
        g_failures++;
    }
    for (void* p : {(void*)a, (void*)b, (void*)c, (void*)partials, (void*)result, (void*)count}) CK(cudaFree(p));
}

int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : (64L << 20);
    g_reps = argc > 2 ? atoi(argv[2]) : 5;
    long stream_n = argc > 3 ? atol(argv[3]) : 50000000L;
    if (n <= 0 || n % 65536) { fprintf(stderr, "n must be a multiple of 65536\n"); return 2; }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    printf("# nvcc papers: %s, %d SMs; n=%ld, blocks of %d x %d, best of %d\n", p.name, g_sms, n, VL, NW, g_reps);
    suite<Add, int>(0, "int", "add", n, true);
    suite<Add, float>(0, "float", "add", n, true);
    suite<Add, double>(0, "double", "add", n, true);
    suite<Max, double>(2, "max_double", "max", n, false);
    suite<Mul, int>(1, "int", "mul", n, true);
    suite<Mul, float>(1, "float", "mul", n, true);
    suite<Mul, double>(1, "double", "mul", n, true);
    if (stream_n > 0) stream(stream_n);
    printf("# RESULT: %s (%d failed)\n", g_failures ? "FAIL" : "PASS", g_failures);
    return g_failures ? 1 : 0;
}
