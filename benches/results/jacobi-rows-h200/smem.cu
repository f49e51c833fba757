// Does a block's unused dynamic shared memory (acc launches every kernel with 16 bytes a
// thread) slow L1-bound kernels? nvcc's wave3d / lap2d of benches/cuda/stencils.cu launched
// with 0 and with 16 bytes a thread of dynamic shared memory, alternating.
#include "../../cuda/timing.cuh"
__global__ void lap2d(const float* __restrict__ a, float* __restrict__ b, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i < n - 1 && j < n - 1) {
        size_t c = (size_t)i * n + j;
        b[c] = a[c - n] + a[c + n] + a[c - 1] + a[c + 1] - 4.0f * a[c];
    }
}
__device__ __forceinline__ float axis(const float* __restrict__ u, size_t c, size_t s) {
    return (4.0f / 3.0f) * (u[c - s] + u[c + s]) - (1.0f / 12.0f) * (u[c - 2 * s] + u[c + 2 * s]);
}
__global__ void wave3d(const float* __restrict__ u, const float* __restrict__ prev, float* __restrict__ next, int n) {
    int k = blockIdx.x * blockDim.x + threadIdx.x + 2;
    int j = blockIdx.y * blockDim.y + threadIdx.y + 2;
    int i = blockIdx.z + 2;
    if (i < n - 2 && j < n - 2 && k < n - 2) {
        size_t c = ((size_t)i * n + j) * n + k;
        float lap = axis(u, c, 1) + axis(u, c, n) + axis(u, c, (size_t)n * n) - 7.5f * u[c];
        next[c] = 2.0f * u[c] - prev[c] + 0.1f * lap;
    }
}
__global__ void jac9(const float* __restrict__ a, float* __restrict__ b, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i < n - 1 && j < n - 1) {
        size_t c = (size_t)i * n + j;
        b[c] = 0.0625f * (a[c - n - 1] + a[c - n + 1] + a[c + n - 1] + a[c + n + 1]) + 0.125f * (a[c - n] + a[c + n] + a[c - 1] + a[c + 1]) + 0.25f * a[c];
    }
}
__global__ void copy(const float* __restrict__ a, float* __restrict__ b, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) b[i] = a[i];
}
int main() {
    size_t n3 = 256, N3 = n3 * n3 * n3, n2 = 8192, N2 = n2 * n2, nj = 4096, NJ = nj * nj, NC = 1 << 28;
    float *du, *dp, *dn, *da, *db, *ca, *cb;
    CK(cudaMalloc(&du, N3 * 4)); CK(cudaMalloc(&dp, N3 * 4)); CK(cudaMalloc(&dn, N3 * 4));
    CK(cudaMalloc(&da, N2 * 4)); CK(cudaMalloc(&db, N2 * 4));
    CK(cudaMalloc(&ca, NC * 4)); CK(cudaMalloc(&cb, NC * 4));
    CK(cudaMemset(du, 0, N3 * 4)); CK(cudaMemset(dp, 0, N3 * 4)); CK(cudaMemset(da, 0, N2 * 4)); CK(cudaMemset(ca, 0, NC * 4));
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    for (int rep = 0; rep < 3; rep++) {
        for (int sh : {0, 4096, 0, 8192}) {
            dim3 blk(32, 8, 1), grd((n3 - 4 + 31) / 32, (n3 - 4 + 7) / 8, n3 - 4);
            float ms = median_ms([&] { wave3d<<<grd, blk, sh>>>(du, dp, dn, (int)n3); });
            printf("wave3d smem %5d  %8.4f ms (wall %8.4f)\n", sh, ms, g_wall_ms);
            dim3 g2((n2 - 2 + 31) / 32, (n2 - 2 + 7) / 8);
            ms = median_ms([&] { lap2d<<<g2, blk, sh>>>(da, db, (int)n2); });
            printf("lap2d  smem %5d  %8.4f ms (wall %8.4f)\n", sh, ms, g_wall_ms);
            dim3 gj((nj - 2 + 31) / 32, (nj - 2 + 7) / 8);
            ms = median_ms([&] { jac9<<<gj, blk, sh>>>(da, db, (int)nj); });
            printf("jac9   smem %5d  %8.4f ms (wall %8.4f)\n", sh, ms, g_wall_ms);
            ms = median_ms([&] { copy<<<sms * 8, 256, sh>>>(ca, cb, NC); });
            printf("copy   smem %5d  %8.4f ms (wall %8.4f)  %.0f GB/s\n", sh, ms, g_wall_ms, 8.0 * NC / ms / 1e6);
        }
    }
    CK(cudaGetLastError());
    return 0;
}
