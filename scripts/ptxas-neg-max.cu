// The ptxas bug that acc-build/src/ptxas.rs works around, without acc: on sm_90, ptxas 13.0
// (and the JIT of driver 580) folds the negation into a three-input VIMNMX3 and drops it when
// the operand is in a uniform register. Seen on an H200 (2026-11-23): n=4 gives 4, n=20 gives
// 28; the right answer is 0. `-Xptxas -O0` gives 0.
//   nvcc -O3 -arch=sm_90 scripts/ptxas-neg-max.cu -o /tmp/negmax && /tmp/negmax
#include <climits>
#include <cstdio>
extern "C" __global__ void negmax(unsigned long long n, int* out) {
    int m = INT_MIN;
    for (unsigned long long f = 0; f < n; f++) m = max(m, -(int)(2 * (f % 16)));
    *out = m;
}
int main() {
    int* d; int h; int bad = 0;
    cudaMalloc(&d, sizeof(int));
    for (unsigned long long n : {3ULL, 4ULL, 8ULL, 20ULL, 3075ULL}) {
        negmax<<<1, 1>>>(n, d);
        cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
        printf("n=%llu: max of -(2*(f%%16)) = %d (want 0)%s\n", n, h, h ? "  WRONG" : "");
        bad += h != 0;
    }
    return bad ? 1 : 0;
}
