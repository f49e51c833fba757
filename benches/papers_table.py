#!/usr/bin/env python3
"""Joins the outputs of the papers' reduction testsuite (benches/papers.rs) into markdown tables:
acc's bench, the nvcc kernels and their copy bounds (benches/cuda/papers.cu), GCC's OpenACC
(`../shared/peers/gcc-openacc/run.sh reductions` and `run.sh stream`).

usage: python3 benches/papers_table.py ACC_LOG NVCC_LOG [GCC_REDUCTIONS_LOG [GCC_STREAM_LOG]]

Prints, for every (position, type/op) cell: GCC, acc, nvcc and bound in ms (best of 5), then
acc/bound (the bound's time over acc's: the fraction of its geometry's copy roofline acc
reaches, target >= 0.8), acc/GCC and acc/nvcc (their times over acc's: > 1 when acc is
faster); then the two targets of issue 12 as matrices; then GCC's stream program beside acc's
and nvcc's. A missing log or cell is a blank; a case of GCC's program without a result line in
its log (it stopped before it, or libgomp refused the launch) says `no result`.
"""
import re
import sys

POSITIONS = ["gang", "worker", "vector", "gw", "wv", "gwv", "same-line"]
NAMES = {"gang": "gang", "worker": "worker", "vector": "vector", "gw": "gang worker", "wv": "worker vector",
         "gwv": "gang worker vector", "same-line": "same line"}
CELLS = [("int", "add"), ("float", "add"), ("double", "add"), ("int", "mul"), ("float", "mul"),
         ("double", "mul"), ("max_double", "max")]
OPS = {"add": "+", "mul": "*", "max": "max"}


def label(ty, op):
    return f"{'double' if ty == 'max_double' else ty} {OPS[op]}"


def read(path):
    try:
        return open(path).read().splitlines()
    except (OSError, TypeError):
        return []


def parse_tools(lines):
    """{(tool, pos, ty, op): ms} and {(tool, 'stream', case): ms} from acc / nvcc logs."""
    cells, stream, grids = {}, {}, {}
    for l in lines:
        f = l.split()
        if len(f) >= 4 and f[0] in ("acc", "nvcc") and f[1] == "stream":
            stream[(f[0], f[2])] = float(f[3])
        elif len(f) >= 5 and f[0] in ("acc", "nvcc", "bound") and f[1] in POSITIONS:
            cells[(f[0], f[1], f[2], f[3])] = float(f[4])
        elif len(f) == 6 and f[:2] == ["#", "grid"]:
            grids[(f[2], f[3], f[4])] = int(f[5])
    return cells, stream, grids


def parse_gcc(lines):
    """GCC's acc_reductions lines: `gang       int        12.100 ms  PASS (...)`."""
    out = {}
    for l in lines:
        m = re.match(r"^(\S+)\s+(int|float|double|max_double)\s+([\d.]+) ms\s+(PASS|FAIL)", l)
        if m:
            pos, ty, ms = m.group(1), m.group(2), float(m.group(3))
            out[(pos, ty, "max" if ty == "max_double" else "add")] = (ms, m.group(4))
    return out


def parse_gcc_stream(lines):
    out = {}
    for l in lines:
        m = re.match(r"^(vecadd|sum|max)\s*:\s*([\d.]+) ms", l)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def fmt(x, digits=3):
    return "" if x is None else f"{x:.{digits}f}"


def ratio(num, den):
    return None if num is None or den is None or den == 0 else num / den


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cells, stream, grids = parse_tools(read(argv[1]) + read(argv[2]))
    gcc = parse_gcc(read(argv[3]) if len(argv) > 3 else [])
    gcc_stream = parse_gcc_stream(read(argv[4]) if len(argv) > 4 else [])
    print("| position | type op | blocks | GCC ms | acc ms | nvcc ms | bound ms | acc/bound | acc/GCC | acc/nvcc |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    summary = {}
    for ty, op in CELLS:
        for pos in POSITIONS:
            acc = cells.get(("acc", pos, ty, op))
            nvcc = cells.get(("nvcc", pos, ty, op))
            bound = cells.get(("bound", pos, ty, op))
            g = gcc.get((pos, ty, op))
            if acc is None and nvcc is None and g is None:
                continue
            gms = g[0] if g else None
            gtxt = fmt(gms) + (" FAIL" if g and g[1] == "FAIL" else "")
            if not g and gcc and (op == "add" or (op == "max" and pos in ("same-line", "gwv"))):
                gtxt = "no result"  # a case GCC's program has, not reached or failed to launch
            vb, vg = ratio(bound, acc), ratio(gms, acc)
            summary[(pos, ty, op)] = (vb, vg)
            print(f"| {NAMES[pos]} | {label(ty, op)} | {grids.get((pos, ty, op), '')} | {gtxt} | {fmt(acc)} | {fmt(nvcc)} "
                  f"| {fmt(bound)} | {fmt(vb, 2)} | {fmt(vg, 2)} | {fmt(ratio(nvcc, acc), 2)} |")

    for title, idx, target, note in [
        ("acc/bound (target >= 0.80)", 0, 0.8, "bound ms / acc ms"),
        ("acc/GCC (target > 1: faster than GCC; GCC has `+` and `max` only)", 1, 1.0, "GCC ms / acc ms"),
    ]:
        print(f"\n{title}; `**x**` misses the target ({note}):\n")
        print("| position | " + " | ".join(label(t, o) for t, o in CELLS) + " |")
        print("| --- |" + " ---: |" * len(CELLS))
        for pos in POSITIONS:
            row = []
            for ty, op in CELLS:
                v = summary.get((pos, ty, op), (None, None))[idx]
                if v is None:
                    row.append("")
                elif (v < target) if idx == 0 else (v <= target):
                    row.append(f"**{v:.2f}**")
                else:
                    row.append(f"{v:.2f}")
            print(f"| {NAMES[pos]} | " + " | ".join(row) + " |")

    if gcc_stream or any(k[0] == "acc" for k in stream):
        print("\nGCC's stream program (50M doubles; ms, best of 5):\n")
        print("| case | GCC ms | acc ms | nvcc ms | acc/GCC | acc/nvcc |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for case in ["vecadd", "sum", "max"]:
            g, a, n = gcc_stream.get(case), stream.get(("acc", case)), stream.get(("nvcc", case))
            print(f"| {case} | {fmt(g)} | {fmt(a)} | {fmt(n)} | {fmt(ratio(g, a), 2)} | {fmt(ratio(n, a), 2)} |")


if __name__ == "__main__":
    main(sys.argv)
