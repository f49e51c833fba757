"""Joins the outputs of the acc bench (benches/gpu.rs), the nvcc baseline
(benches/cuda/baseline.cu) and the CuPy baseline (benches/gpu_baseline.py) into one table.

usage: python3 benches/gpu_table.py LOG [LOG...]   (or the logs on stdin)

Each result line is `<tool> <case> <ms> <rate>` with tool in acc / nvcc / cupy; everything else
is ignored. Prints a Markdown table: case | unit | acc | nvcc | cupy | acc/nvcc | acc/cupy |
acc/copy, where acc/copy is acc's rate over the device-to-device copy of the same element type
(cudaMemcpy from the nvcc baseline, else CuPy's copy). Ratios are of rates (higher is better
for acc); for `launch` the columns hold microseconds and the ratios are baseline time / acc time.
"""
import sys

TOOLS = ("acc", "nvcc", "cupy")


def parse(lines):
    results, order = {}, []
    for line in lines:
        f = line.split()
        if len(f) != 4 or f[0] not in TOOLS:
            continue
        tool, case, ms, rate = f
        if "/" in case:  # benches/cuda/launch.cu's own lines (microseconds)
            continue
        try:
            ms = float(ms)
            rate = None if rate == "-" else float(rate)
        except ValueError:
            continue
        results[(tool, case)] = (ms, rate)
        if case not in order:
            order.append(case)
    return results, order


def unit(case):
    if case.startswith("matmul"):
        return "GFLOP/s"
    if case == "launch":
        return "us"
    return "GB/s"


def copy_case(case):
    """The copy of the element type the case streams (None where no copy compares)."""
    if case.startswith(("matmul", "launch")):
        return None
    return "copy_f32" if case.endswith("_f32") else "copy_f64"


def table(results, order):
    # acc's cases first, in acc's order, then cases only the baselines have.
    acc_cases = [c for c in order if ("acc", c) in results]
    cases = acc_cases + [c for c in order if c not in acc_cases]
    out = ["| case | unit | acc | nvcc | cupy | acc/nvcc | acc/cupy | acc/copy |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]

    def value(tool, case):
        r = results.get((tool, case))
        if r is None:
            return None
        ms, rate = r
        return ms * 1e3 if case == "launch" else rate

    def ratio(a, b, case):
        if a is None or b is None or a == 0 or b == 0:
            return ""
        return f"{(b / a if case == 'launch' else a / b):.2f}"

    for case in cases:
        v = {t: value(t, case) for t in TOOLS}
        cc = copy_case(case)
        copy = None
        if cc is not None:
            copy = value("nvcc", cc) if value("nvcc", cc) is not None else value("cupy", cc)
        cells = [("" if v[t] is None else f"{v[t]:.1f}" if v[t] >= 10 else f"{v[t]:.3g}") for t in TOOLS]
        out.append(f"| {case} | {unit(case)} | " + " | ".join(cells) + " | "
                   + " | ".join([ratio(v["acc"], v["nvcc"], case), ratio(v["acc"], v["cupy"], case),
                                 ratio(v["acc"], copy, case) if cc is not None else ""]) + " |")
    return "\n".join(out)


def main():
    lines = []
    if len(sys.argv) > 1:
        for path in sys.argv[1:]:
            with open(path) as f:
                lines.extend(f)
    else:
        lines = sys.stdin.readlines()
    results, order = parse(lines)
    if not results:
        print("gpu_table: no result lines found", file=sys.stderr)
        return 1
    print(table(results, order))
    return 0


if __name__ == "__main__":
    sys.exit(main())
