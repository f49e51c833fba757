"""CuPy baselines for benches/gpu.rs, run in the same command on the GPU machine
(scripts/gpu-bench.sh): the device-to-device copy, CuPy's add, an axpy kernel, dot, sum / max /
min, row sums, the reductions of the OpenUH triple nest that CuPy can express (sum / prod over
axes), the matrix product (cuBLAS), Monte Carlo pi (a ReductionKernel) and the cost of one
launch. Same sizes as benches/gpu.rs.

Output: `cupy <case> <ms> <rate>` per case, rate in GB/s (GFLOP/s for matmul_f32, `-` for
launch); `#` lines are comments. Times are medians of 20 repetitions after two warm-ups, by
CUDA events; reduced values stay on the device (CuPy's default).
"""
import time

import cupy as cp

N = 50_000_000
NK, NJ, NI = 512, 64, 4096
ROWS, COLS = 8192, 6144
MATMUL = 1024
REPS = 20


def median_ms(f, reps=REPS):
    f(); f()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(reps):
        start.record(); f(); end.record(); end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    times.sort()
    return times[reps // 2]


def row(case, ms, work):
    """One result line; rate = work / seconds / 1e9."""
    print(f"cupy {case:<20} {ms:>10.4f} {work / ms / 1e6:>10.1f}", flush=True)


def free():
    cp.get_default_memory_pool().free_all_blocks()


def splitmix(i):
    """The hash of benches/gpu.rs (splitmix64) of a device array of uint64 indices."""
    z = i + cp.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> cp.uint64(30))) * cp.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> cp.uint64(27))) * cp.uint64(0x94D049BB133111EB)
    return z ^ (z >> cp.uint64(31))


def hash_values(n, modulus):
    """hash(i) % modulus for i in 0..n."""
    return splitmix(cp.arange(n, dtype=cp.uint64)) % cp.uint64(modulus)


axpy = cp.ElementwiseKernel("T alpha, T x", "T y", "y += alpha * x", "acc_bench_axpy")


def streaming():
    for dt, size, name in ((cp.float32, 4, "f32"), (cp.float64, 8, "f64")):
        a = cp.ones(N, dtype=dt); b = cp.full(N, 2, dtype=dt); c = cp.zeros(N, dtype=dt)
        row(f"copy_{name}", median_ms(lambda: cp.copyto(c, a)), 2 * size * N)
        row(f"vadd_{name}", median_ms(lambda: cp.add(a, b, out=c)), 3 * size * N)
        row(f"saxpy_{name}", median_ms(lambda: axpy(dt(0.5), a, c)), 3 * size * N)
        if size == 8:
            row("dot_f64", median_ms(lambda: cp.dot(a, b)), 2 * size * N)
        del a, b, c
        free()


def reductions():
    r64 = hash_values(N, 2000).astype(cp.float64) / 1000.0 - 0.5
    for r, size, name in ((r64.astype(cp.float32), 4, "f32"), (r64, 8, "f64")):
        row(f"sum_{name}", median_ms(lambda: cp.sum(r)), size * N)
        row(f"max_{name}", median_ms(lambda: cp.max(r)), size * N)
        row(f"min_{name}", median_ms(lambda: cp.min(r)), size * N)
    del r64, r
    free()
    a = (hash_values(ROWS * COLS, 2000).astype(cp.float64) / 1000.0 - 0.5).reshape(ROWS, COLS)
    out = cp.empty(ROWS)
    row("rowsum_f64", median_ms(lambda: cp.sum(a, axis=1, out=out)), 8 * (ROWS * COLS + ROWS))
    want = a.get().sum(axis=1)
    assert abs(out.get() - want).max() <= 1e-9 * max(1.0, abs(want).max()), "rowsum_f64 wrong"
    del a, out
    free()


def nest():
    """The triple nest's positions that are plain reductions of a: vector (over i), worker
    vector (over j and i), gang worker vector and same line (everything). The positions that
    also copy a (gang, worker, gang worker) have no CuPy form."""
    n = NK * NJ * NI
    print(f"# triple nest {NK} x {NJ} x {NI} f64 (gang x worker x vector)")
    a = cp.ones((NK, NJ, NI))
    for op, f in (("add", cp.sum), ("mul", cp.prod)):
        out_kj = cp.empty((NK, NJ)); out_k = cp.empty(NK)
        row(f"nest_vector_{op}", median_ms(lambda: f(a, axis=2, out=out_kj)), 8 * (n + NK * NJ))
        row(f"nest_wv_{op}", median_ms(lambda: f(a, axis=(1, 2), out=out_k)), 8 * (n + NK))
        t = median_ms(lambda: f(a))
        row(f"nest_gwv_{op}", t, 8 * n)
        row(f"nest_sgwv_{op}", t, 8 * n)
    del a
    free()


def applications():
    n = MATMUL
    a = (cp.arange(n * n) % 5).astype(cp.float32).reshape(n, n)
    b = ((cp.arange(n * n) % 3) - 1).astype(cp.float32).reshape(n, n)
    c = cp.empty((n, n), dtype=cp.float32)
    row("matmul_f32", median_ms(lambda: cp.matmul(a, b, out=c)), 2 * n ** 3)
    del a, b, c
    i = cp.arange(N, dtype=cp.uint64)
    x = pi_points(cp.uint64(2) * i)
    y = pi_points(cp.uint64(2) * i + cp.uint64(1))
    del i
    # What a CuPy user writes (temporaries included). A ReductionKernel would read x and y once,
    # but CuPy runs a reduction to one value that has no CUB path in a single block of 512
    # threads (cupy/cupy#6512): 42 ms here on an H100.
    row("pi_f32", median_ms(lambda: cp.count_nonzero(x * x + y * y < 1.0)), 8 * N)
    print(f"# pi ~ {4.0 * int(cp.count_nonzero(x * x + y * y < 1.0)) / N:.6f}")
    del x, y
    free()


def pi_points(i):
    """(hash(i) >> 40) / 2^23 - 1 as f32, for a device array of indices i."""
    z = splitmix(i)
    return (z >> cp.uint64(40)).astype(cp.float32) / cp.float32(1 << 23) - cp.float32(1.0)


def launch():
    c = cp.zeros(1024, dtype=cp.float32)
    one = cp.float32(1)

    def touch(c):
        cp.add(c, one, out=c)
    for _ in range(10):
        touch(c)
    cp.cuda.Device().synchronize()
    t = []
    for _ in range(1000):
        s = time.perf_counter()
        touch(c)
        cp.cuda.Device().synchronize()
        t.append(time.perf_counter() - s)
    t.sort()
    print(f"cupy {'launch':<20} {t[500] * 1e3:>10.4f} {'-':>10}")
    print(f"# launch + synchronize of cp.add on 1024 elements: median {t[500] * 1e6:.2f} us")


if __name__ == "__main__":
    dev = cp.cuda.Device()
    print(f"# cupy {cp.__version__} baseline, device: {cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}")
    print("# tool case                        ms       rate (GB/s; GFLOP/s for matmul)")
    streaming()
    reductions()
    nest()
    applications()
    launch()
