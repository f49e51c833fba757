// The floor under acc's launch cost: what a CUDA programmer pays for one launch and its
// synchronisation, measured the way benches/gpu.rs measures a small acc region (1000 calls,
// each timed on the host clock, the median). Cases:
//   empty       an empty kernel, 1 block of 32 threads, on a non-blocking stream
//   inc1024     the acc bench's `tiny` region by hand: 1024 floats += 1 (4 blocks of 256)
//   inc1024_dflt the same on the legacy default stream
//   enqueue     cuLaunchKernel alone (no synchronisation), the cost of an async launch
//   copy_inc1024 inc1024 with its 4 KiB copied in and out around it (cudaMemcpy from and to a
//               std::vector, the legacy default stream): acc's `tiny` region on an array that
//               no data region holds
// each with the context's default scheduling (auto) and with spin-waiting (what acc asks for).
//
// Build and run on the GPU machine:
//   nvcc -O3 -arch=native -o launch benches/cuda/launch.cu && ./launch
// Output: `nvcc launch/<case>/<sched> <median us> <mean us>`.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(call)                                                                            \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(2);                                                                        \
        }                                                                                   \
    } while (0)

__global__ void k_empty() {}

__global__ void k_inc(float* c, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        c[i] += 1.0f;
    }
}

template <class F>
static void timed(const char* name, const char* sched, F f) {
    for (int r = 0; r < 100; r++) f();
    CK(cudaDeviceSynchronize());
    std::vector<double> t(1000);
    for (auto& x : t) {
        auto s = std::chrono::steady_clock::now();
        f();
        x = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count();
    }
    CK(cudaDeviceSynchronize());
    double mean = 0;
    for (double x : t) mean += x;
    mean /= t.size();
    std::sort(t.begin(), t.end());
    printf("nvcc launch/%-14s/%-5s %8.2f us median %8.2f us mean\n", name, sched, t[500], mean);
}

static void cases(const char* sched) {
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float* c;
    const size_t n = 1024;
    CK(cudaMalloc(&c, n * sizeof(float)));
    CK(cudaMemset(c, 0, n * sizeof(float)));
    timed("empty", sched, [&] {
        k_empty<<<1, 32, 0, s>>>();
        CK(cudaStreamSynchronize(s));
    });
    timed("inc1024", sched, [&] {
        k_inc<<<4, 256, 0, s>>>(c, n);
        CK(cudaStreamSynchronize(s));
    });
    timed("inc1024_dflt", sched, [&] {
        k_inc<<<4, 256>>>(c, n);
        CK(cudaDeviceSynchronize());
    });
    timed("enqueue", sched, [&] { k_inc<<<4, 256, 0, s>>>(c, n); });
    CK(cudaStreamSynchronize(s));
    std::vector<float> h(n);
    timed("copy_inc1024", sched, [&] {
        CK(cudaMemcpy(c, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        k_inc<<<4, 256>>>(c, n);
        CK(cudaMemcpy(h.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
    });
    CK(cudaMemcpy(h.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaFree(c));
    CK(cudaStreamDestroy(s));
}

int main(int argc, char** argv) {
    // Scheduling is a property of the context: a second process run does the other mode.
    bool spin = argc > 1 && argv[1][0] == 's';
    if (spin) CK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int driver = 0;
    CK(cudaDriverGetVersion(&driver));
    printf("# nvcc launch baseline, device: %s, driver API %d, runtime %d\n", p.name, driver, CUDART_VERSION);
    cases(spin ? "spin" : "auto");
    return 0;
}
