// What the nvcc twins of the benches beside hand-written CUDA (stencils.cu, cache1d.cu) share:
// the error check and the timing, as benches/common/mod.rs times the acc side (a warm-up call,
// then the median of REPS, here with CUDA events).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(err_), __LINE__); exit(1); } } while (0)

const int REPS = 20;

// The median wall-clock time of the last `median_ms` call, measured as the acc side is: the
// host's clock around the launch and its synchronisation (the CUDA events leave the launch's
// host cost out). Printed beside the events' time as `nvcc_wall` lines.
static double g_wall_ms = 0;

template <class F> float median_ms(F f) {
    cudaEvent_t s, e;
    CK(cudaEventCreate(&s));
    CK(cudaEventCreate(&e));
    f(); CK(cudaDeviceSynchronize());
    std::vector<double> w;
    for (int r = 0; r < REPS; r++) {
        auto t0 = std::chrono::steady_clock::now();
        f(); CK(cudaDeviceSynchronize());
        w.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(w.begin(), w.end());
    g_wall_ms = w[REPS / 2];
    std::vector<float> t;
    for (int r = 0; r < REPS; r++) {
        CK(cudaEventRecord(s)); f(); CK(cudaEventRecord(e)); CK(cudaEventSynchronize(e));
        float ms; CK(cudaEventElapsedTime(&ms, s, e)); t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[REPS / 2];
}
