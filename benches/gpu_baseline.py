"""Baselines for benches/gpu.rs, run in the same command on the GPU machine: the
device-to-device copy bandwidth and CuPy's add, axpy and dot on the same sizes."""
import cupy as cp

n = 50_000_000


def median_ms(f, reps=20):
    f(); f()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(reps):
        start.record(); f(); end.record(); end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    times.sort()
    return times[reps // 2]


print(f"{'baseline':<22}{'time (ms)':>12}{'GB/s':>12}")
for dt, size in ((cp.float32, 4), (cp.float64, 8)):
    a = cp.ones(n, dtype=dt); b = cp.full(n, 2, dtype=dt); c = cp.zeros(n, dtype=dt)
    name = "f32" if size == 4 else "f64"
    t = median_ms(lambda: cp.copyto(c, a)); print(f"{'copy d2d ' + name:<22}{t:>12.3f}{2 * size * n / t / 1e6:>12.1f}")
    t = median_ms(lambda: cp.add(a, b, out=c)); print(f"{'cupy add ' + name:<22}{t:>12.3f}{3 * size * n / t / 1e6:>12.1f}")
    if size == 8:
        t = median_ms(lambda: cp.dot(a, b)); print(f"{'cupy dot f64':<22}{t:>12.3f}{2 * size * n / t / 1e6:>12.1f}")
        t = median_ms(lambda: cp.sum(a)); print(f"{'cupy sum f64':<22}{t:>12.3f}{size * n / t / 1e6:>12.1f}")
