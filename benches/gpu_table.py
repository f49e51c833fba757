"""Joins the outputs of the acc bench (benches/gpu.rs), the nvcc baseline
(benches/cuda/baseline.cu) and the CuPy baseline (benches/gpu_baseline.py) into one table.

usage: python3 benches/gpu_table.py [--json RESULTS] [--gpu GPU_TXT] LOG [LOG...]
       (or the logs on stdin)

Each result line is `<tool> <case> <ms> <rate>` with tool in acc / nvcc / nvcc_wall / cupy /
gcc (gcc: GCC's OpenACC, where a log has it; nvcc_wall: the nvcc baseline timed as the acc bench
times a region, the host's clock around the launch and its synchronisation, where nvcc's `nvcc`
lines are CUDA events around the kernel); everything else is ignored. Prints a Markdown table:
case | unit | acc | nvcc | cupy | acc/nvcc | acc/cupy | acc/copy, where acc/copy is acc's rate
over the device-to-device copy of the same element type (cudaMemcpy from the nvcc baseline, else
CuPy's copy); with gcc or nvcc_wall results, their columns and ratios too. Ratios are of rates
(higher is better for acc); for `launch` the columns hold microseconds and the ratios are
baseline time / acc time.

--json RESULTS also writes the results as JSON (what benches/gpu_plot.py draws):
  {"format": "acc-gpu-bench", "version": 1, "gpu": "<nvidia-smi line>", "commit": "...",
   "date": "YYYY-MM-DD", "source": "...",
   "results": [{"tool": "acc", "case": "vadd_f32", "unit": "GB/s", "ms": 0.23, "rate": 2619.9},
               ...]}
`rate` is null where a case has none (`launch`: its time is `ms`); `ms` is null where only the
rate is known. --gpu names the file with the `# gpu: ...` line gpu-bench.sh writes; the commit
comes from $ACC_COMMIT, else from git.
"""
import datetime
import json
import os
import subprocess
import sys

TOOLS = ("acc", "nvcc", "nvcc_wall", "cupy", "gcc")
# Columns shown only where a log has their results.
OPTIONAL = ("nvcc_wall", "gcc")


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
    # GCC's and nvcc_wall's columns only where a log has their results.
    tools = [t for t in TOOLS if t not in OPTIONAL or any(k[0] == t for k in results)]
    baselines = [t for t in tools if t != "acc"]
    out = ["| case | unit | " + " | ".join(tools) + " | "
           + " | ".join(f"acc/{t}" for t in baselines) + " | acc/copy |",
           "| --- | --- | " + " | ".join("---:" for _ in tools + baselines) + " | ---: |"]

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
        v = {t: value(t, case) for t in tools}
        cc = copy_case(case)
        copy = None
        if cc is not None:
            copy = value("nvcc", cc) if value("nvcc", cc) is not None else value("cupy", cc)
        cells = [("" if v[t] is None else f"{v[t]:.1f}" if v[t] >= 10 else f"{v[t]:.3g}") for t in tools]
        out.append(f"| {case} | {unit(case)} | " + " | ".join(cells) + " | "
                   + " | ".join([ratio(v["acc"], v[t], case) for t in baselines]
                                + [ratio(v["acc"], copy, case) if cc is not None else ""]) + " |")
    return "\n".join(out)


def commit():
    c = os.environ.get("ACC_COMMIT")
    if c:
        return c
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def results_json(results, order, gpu=None, source=None):
    """The results as the JSON document benches/gpu_plot.py reads (see the module docs)."""
    rows = []
    for case in order:
        for tool in TOOLS:
            r = results.get((tool, case))
            if r is not None:
                ms, rate = r
                rows.append({"tool": tool, "case": case, "unit": unit(case), "ms": ms, "rate": rate})
    return {
        "format": "acc-gpu-bench",
        "version": 1,
        "gpu": gpu,
        "commit": commit(),
        "date": datetime.date.today().isoformat(),
        "source": source or "scripts/gpu-bench.sh",
        "results": rows,
    }


def gpu_line(path):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("# gpu:"):
                    return line[len("# gpu:"):].strip()
    except OSError:
        pass
    return None


def main():
    args = sys.argv[1:]
    json_out = gpu = None
    while args and args[0] in ("--json", "--gpu"):
        if len(args) < 2:
            print(f"gpu_table: {args[0]} needs a path", file=sys.stderr)
            return 2
        if args[0] == "--json":
            json_out = args[1]
        else:
            gpu = gpu_line(args[1])
        args = args[2:]
    lines = []
    if args:
        for path in args:
            with open(path) as f:
                lines.extend(f)
    else:
        lines = sys.stdin.readlines()
    results, order = parse(lines)
    if not results:
        print("gpu_table: no result lines found", file=sys.stderr)
        return 1
    print(table(results, order))
    if json_out:
        with open(json_out, "w") as f:
            f.write(dumps(results_json(results, order, gpu)))
    return 0


def dumps(doc):
    """`doc` as JSON with one result a line (readable, and diffs line by line)."""
    head = {k: v for k, v in doc.items() if k != "results"}
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    rows = [f"  {json.dumps(r)}" for r in doc["results"]]
    return "\n".join(lines + [' "results": [', ",\n".join(rows), " ]", "}"]) + "\n"


if __name__ == "__main__":
    sys.exit(main())
