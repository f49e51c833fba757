"""Plots a GPU bench results file (benches/gpu_table.py --json; scripts/gpu-bench.sh writes
$OUT/results.json) as PNG and SVG.

usage: python3 benches/gpu_plot.py RESULTS.json [--out DIR] [--paper PAPER.json]

Writes, into DIR (default: the results file's folder), for a results file NAME.json:
  NAME-cases.{png,svg}   each case's rate for acc, nvcc, CuPy (and GCC where the results have
                         it): the bandwidth cases in GB/s, matmul in GFLOP/s, launch in us
  NAME-ratios.{png,svg}  acc's rate over each baseline's, per case (launch: baseline time over
                         acc's), against DESIGN section 5's 0.95
  NAME-table2.{png,svg}  the OpenUH reductions paper's Table 2 (PAPER.json, default
                         benches/results/xu-pmam14-table2.json: the paper's compilers on a K20c,
                         ms) beside acc's recreation of it (the nest_* cases, GB/s)
Needs matplotlib (pip install matplotlib); the GPU machine may lack it: bring results.json back
and run this where it is installed.
"""
import json
import os
import sys

COLORS = {"acc": "#d95f02", "nvcc": "#1b9e77", "cupy": "#7570b3", "gcc": "#e7298a",
          "OpenUH": "#66a61e", "PGI": "#e6ab02", "CAPS": "#a6761d"}
LABELS = {"acc": "acc", "nvcc": "nvcc (hand-written CUDA)", "cupy": "CuPy", "gcc": "GCC OpenACC"}
TOOLS = ("acc", "nvcc", "cupy", "gcc")
POSITIONS = [("gang", "gang"), ("worker", "worker"), ("vector", "vector"), ("gw", "gang worker"),
             ("wv", "worker vector"), ("gwv", "gang worker vector"),
             ("sgwv", "same line gang worker vector")]
OPS = [("add", "+"), ("mul", "*")]


def load(path):
    with open(path) as f:
        doc = json.load(f)
    if doc.get("format") != "acc-gpu-bench":
        raise SystemExit(f"gpu_plot: {path} is not a results file of benches/gpu_table.py --json")
    values, order = {}, []
    for r in doc["results"]:
        case = r["case"]
        if case == "launch":
            v = None if r["ms"] is None else r["ms"] * 1e3  # microseconds
        else:
            v = r["rate"]
        if v is None:
            continue
        values[(r["tool"], case)] = v
        if case not in order:
            order.append(case)
    return doc, values, order


def title_of(doc):
    bits = [doc.get("gpu") or "GPU not recorded"]
    if doc.get("commit"):
        bits.append(f"acc {doc['commit']}")
    if doc.get("date"):
        bits.append(doc["date"])
    return ", ".join(bits)


def tools_in(values):
    return [t for t in TOOLS if any(k[0] == t for k in values)]


def bars(ax, cases, values, tools, labels=None, annotate_missing=None):
    """Horizontal grouped bars: one group per case (top to bottom), one bar per tool."""
    n = len(tools)
    h = 0.8 / n
    for i, tool in enumerate(tools):
        ys, xs = [], []
        for j, case in enumerate(cases):
            v = values.get((tool, case))
            y = j - 0.4 + h * (i + 0.5)
            if v is None:
                if annotate_missing:
                    ax.text(0, y, " " + annotate_missing, va="center", ha="left", fontsize=7, color="#555")
                continue
            ys.append(y)
            xs.append(v)
        ax.barh(ys, xs, height=h, color=COLORS[tool], label=LABELS.get(tool, tool))
    ax.set_yticks(range(len(cases)))
    ax.set_yticklabels(labels or cases)
    ax.invert_yaxis()
    ax.grid(axis="x", color="#ddd")
    ax.set_axisbelow(True)


def plot_cases(plt, doc, values, order, stem):
    tools = tools_in(values)
    streams = [c for c in order if not c.startswith(("nest_", "matmul", "launch"))]
    fig = plt.figure(figsize=(12, 0.36 * len(streams) + 2.2))
    gs = fig.add_gridspec(2, 2, width_ratios=[3, 1.25], hspace=0.55, wspace=0.45)
    ax = fig.add_subplot(gs[:, 0])
    bars(ax, streams, values, tools)
    ax.set_xlabel("GB/s (bytes read + written per second; higher is better)")
    ax.set_title("Streaming loops and reductions")
    handles, names = ax.get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=len(names), bbox_to_anchor=(0.5, 0.955), fontsize=9,
               frameon=False)
    mm = [c for c in order if c.startswith("matmul")]
    if mm:
        ax2 = fig.add_subplot(gs[0, 1])
        bars(ax2, mm, values, tools)
        for j, c in enumerate(mm):
            for i, t in enumerate(tools):
                v = values.get((t, c))
                if v is not None:
                    ax2.text(v, j - 0.4 + 0.8 / len(tools) * (i + 0.5), f" {v:,.0f}", va="center", fontsize=8)
        ax2.set_xscale("log")
        mv = [v for (t, c), v in values.items() if c in mm]
        ax2.set_xlim(min(mv) / 3, max(mv) * 8)
        ax2.set_xlabel("GFLOP/s (log; higher is better)")
        ax2.set_title("matmul (f32, 1024²)")
    if "launch" in order:
        ax3 = fig.add_subplot(gs[1, 1])
        bars(ax3, ["launch"], values, tools)
        for i, t in enumerate(tools):
            v = values.get((t, "launch"))
            if v is not None:
                ax3.text(v, -0.4 + 0.8 / len(tools) * (i + 0.5), f" {v:.1f}", va="center", fontsize=8)
        ax3.set_xlabel("µs (lower is better)")
        ax3.set_title("launch + synchronize")
        ax3.set_xlim(0, max(v for (t, c), v in values.items() if c == "launch") * 1.35)
    fig.suptitle(f"GPU bench: {title_of(doc)}", fontsize=11, y=0.99)
    return save(plt, fig, stem + "-cases")


def plot_ratios(plt, doc, values, order, stem):
    base = [t for t in tools_in(values) if t != "acc"]
    cases = [c for c in order if ("acc", c) in values and any((t, c) in values for t in base)]
    lo, hi = 0.5, 2.0  # ratios outside are drawn at the edge, with their value
    fig, ax = plt.subplots(figsize=(10, 0.27 * len(cases) + 1.9))
    marks = {"nvcc": "o", "cupy": "s", "gcc": "D"}
    for j in range(0, len(cases), 2):
        ax.axhspan(j - 0.5, j + 0.5, color="#f4f4f4", zorder=0)
    for k, t in enumerate(base):
        ys, xs = [], []
        for j, c in enumerate(cases):
            b = values.get((t, c))
            if b is None:
                continue
            a = values[("acc", c)]
            r = b / a if c == "launch" else a / b
            x = min(max(r, lo), hi)
            if x != r:
                dy = (k - (len(base) - 1) / 2) * 7  # tools at the same edge stay apart
                ax.annotate(f"{r:.2f} ({t})", (x, j), xytext=(8 if x == lo else -8, -dy), textcoords="offset points",
                            ha="left" if x == lo else "right", va="center", fontsize=7, color=COLORS[t])
            ys.append(j)
            xs.append(x)
        ax.scatter(xs, ys, marker=marks.get(t, "o"), s=30, color=COLORS[t], label=f"acc / {LABELS.get(t, t)}",
                   zorder=3 + k)
    ax.axvline(1.0, color="#333", lw=1, zorder=1)
    ax.axvline(0.95, color="#c00", lw=1, ls="--", zorder=1, label="0.95: DESIGN §5 target against nvcc")
    ax.set_xscale("log")
    ax.set_xlim(lo * 0.97, hi * 1.03)
    ticks = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.set_ylim(len(cases) - 0.5, -0.5)
    ax.set_yticks(range(len(cases)))
    ax.set_yticklabels(cases, fontsize=8)
    ax.grid(axis="x", color="#ddd")
    ax.set_axisbelow(True)
    ax.set_xlabel(f"acc's rate over the baseline's (log scale, clipped to {lo:g}..{hi:g}; > 1: acc faster; "
                  "launch: baseline time / acc time)", fontsize=9)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.06 - 1.0 / len(cases)), ncol=len(base) + 1,
              fontsize=8, frameon=False)
    ax.set_title(f"acc against the baselines: {title_of(doc)}", fontsize=10)
    fig.tight_layout()
    return save(plt, fig, stem + "-ratios")


def plot_table2(plt, doc, values, paper, stem):
    nest = [f"nest_{p}_{o}" for p, _ in POSITIONS for o, _ in OPS]
    if not any(("acc", c) in values for c in nest):
        return []
    fig, axes = plt.subplots(2, 2, figsize=(13, 9.5))
    labels = [name for _, name in POSITIONS]
    for row, (op, sym) in enumerate(OPS):
        # The paper: double, ms.
        ax = axes[row][0]
        pv = {}
        notes = {}
        for r in paper["rows"]:
            if r["type"] == "double" and r["op"] == sym:
                if isinstance(r["ms"], (int, float)):
                    pv[(r["compiler"], r["position"])] = r["ms"]
                else:
                    notes[(r["compiler"], r["position"])] = r["ms"]
        comps = ["OpenUH", "PGI", "CAPS"]
        h = 0.8 / len(comps)
        for i, comp in enumerate(comps):
            ys, xs = [], []
            for j, name in enumerate(labels):
                y = j - 0.4 + h * (i + 0.5)
                v = pv.get((comp, name))
                if v is None:
                    note = {"F": "failed", "CE": "compile error"}.get(notes.get((comp, name)), "")
                    ax.text(1.05, y, f"{comp}: {note}", va="center", fontsize=7, color="#555")
                    continue
                ys.append(y)
                xs.append(v)
            ax.barh(ys, xs, height=h, color=COLORS[comp], label=comp)
        ax.set_xscale("log")
        ax.set_xlim(1, 2000)
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels)
        ax.invert_yaxis()
        ax.grid(axis="x", which="both", color="#eee")
        ax.set_axisbelow(True)
        ax.set_xlabel("ms (log; lower is better)")
        ax.set_title(f"The paper's Table 2: `{sym}` on double, ms\n{paper.get('gpu', '')}, CUDA 5.5", fontsize=10)
        if row == len(OPS) - 1:
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize=9, frameon=False)
        # acc's recreation: GB/s.
        ax = axes[row][1]
        cases = [f"nest_{p}_{op}" for p, _ in POSITIONS]
        tools = [t for t in TOOLS if any((t, c) in values for c in cases)]
        bars(ax, cases, values, tools, labels=labels, annotate_missing="– (no CuPy form)" if "cupy" in tools else None)
        ax.set_yticklabels([])
        ax.set_xlabel("GB/s (higher is better)")
        gpu = (doc.get("gpu") or "").split(",")[0]
        ax.set_title(f"Recreated with acc: `{sym}` on f64 (512 x 64 x 4096), GB/s\n{gpu}, acc {doc.get('commit') or ''}",
                     fontsize=10)
        if row == len(OPS) - 1:
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize=9, frameon=False)
    fig.suptitle("Xu et al., Reduction Operations in Parallel Loops for GPGPUs (PMAM'14), Table 2: the original "
                 "(left) beside acc's recreation (right).\nDifferent GPUs, shapes and units: compare the shape of "
                 "each side, not numbers across sides.", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.965), h_pad=2.5)
    return save(plt, fig, stem + "-table2")


OUT_DIR = "."


def save(plt, fig, name):
    paths = []
    for ext in ("png", "svg"):
        p = os.path.join(OUT_DIR, f"{name}.{ext}")
        fig.savefig(p, dpi=110 if ext == "png" else None, metadata={"Date": None} if ext == "svg" else None)
        paths.append(p)
    plt.close(fig)
    return paths


def main():
    global OUT_DIR
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    results = args.pop(0)
    out = os.path.dirname(os.path.abspath(results))
    paper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "xu-pmam14-table2.json")
    while args:
        flag = args.pop(0)
        if flag in ("--out", "--paper") and args:
            if flag == "--out":
                out = args.pop(0)
            else:
                paper = args.pop(0)
        else:
            print(f"gpu_plot: unknown argument {flag}\n{__doc__}", file=sys.stderr)
            return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: small, searchable SVGs
        matplotlib.rcParams["svg.hashsalt"] = "acc"   # the same input gives the same SVG
        import matplotlib.pyplot as plt
    except ImportError:
        print("gpu_plot: matplotlib is not installed here (pip install matplotlib); run "
              f"`python3 benches/gpu_plot.py {results}` where it is", file=sys.stderr)
        return 3
    os.makedirs(out, exist_ok=True)
    OUT_DIR = out
    doc, values, order = load(results)
    stem = os.path.splitext(os.path.basename(results))[0]
    written = plot_cases(plt, doc, values, order, stem) + plot_ratios(plt, doc, values, order, stem)
    with open(paper) as f:
        written += plot_table2(plt, doc, values, json.load(f), stem)
    for p in written:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
