#!/usr/bin/env python3
"""Plots one run of the papers' reduction testsuite (the logs that scripts/gpu-papers.sh brings
back: acc.log, nvcc.log, gcc.log, gcc-stream.log, gpu.txt in one folder) as PNG and SVG.

usage: python3 benches/papers_plot.py RESULTS_DIR [--out DIR]

Writes, into DIR (default benches/plots), for a folder named NAME:
  NAME-positions.{png,svg}  the `+` reductions (the cases GCC's testsuite has) per position, one
                            panel per type: GCC 12, acc, nvcc and the copy bound of the
                            position's geometry, in ms on a log scale (lower is faster)
  NAME-stream.{png,svg}     GCC's stream program (vector add, sum, max of 50M doubles): GCC,
                            acc and nvcc, ms
Needs matplotlib (pip install matplotlib). The figures are those of benches/papers_table.py,
read by its parsers.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import papers_table as pt  # noqa: E402

COLORS = {"GCC 12 OpenACC": "#e7298a", "acc": "#d95f02", "nvcc (hand-written CUDA)": "#1b9e77",
          "copy bound (same geometry)": "#999999"}


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    src = argv[1].rstrip("/")
    out = argv[argv.index("--out") + 1] if "--out" in argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "plots")
    name = os.path.basename(src)
    log = lambda f: pt.read(os.path.join(src, f))  # noqa: E731
    cells, stream, _ = pt.parse_tools(log("acc.log") + log("nvcc.log"))
    gcc = pt.parse_gcc(log("gcc.log"))
    gcc_stream = pt.parse_gcc_stream(log("gcc-stream.log"))
    gpu = next((l[len("# gpu:"):].split(",")[0].strip() for l in log("gpu.txt") if l.startswith("# gpu:")), "GPU")
    if not cells:
        sys.exit(f"{src}: no acc or nvcc result lines in acc.log / nvcc.log")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(out, exist_ok=True)
    series = [("GCC 12 OpenACC", lambda p, t: (gcc.get((p, t, "add")) or (None,))[0]),
              ("acc", lambda p, t: cells.get(("acc", p, t, "add"))),
              ("nvcc (hand-written CUDA)", lambda p, t: cells.get(("nvcc", p, t, "add"))),
              ("copy bound (same geometry)", lambda p, t: cells.get(("bound", p, t, "add")))]
    fig, axes = plt.subplots(1, 3, figsize=(16, 5), sharey=True)
    width = 0.2
    for ax, ty in zip(axes, ["int", "float", "double"]):
        for k, (label, get) in enumerate(series):
            xs, ys = [], []
            for i, pos in enumerate(pt.POSITIONS):
                v = get(pos, ty)
                if v is not None:
                    xs.append(i + (k - 1.5) * width)
                    ys.append(v)
            ax.bar(xs, ys, width, label=label, color=COLORS[label])
        ax.set_yscale("log")
        ax.set_title(f"{ty} +")
        ax.set_xticks(range(len(pt.POSITIONS)))
        ax.set_xticklabels([pt.NAMES[p].replace(" ", "\n") for p in pt.POSITIONS], fontsize=8)
        ax.grid(axis="y", which="both", alpha=0.3)
    axes[0].set_ylabel("ms, best of 5 (log; lower is faster)")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"The OpenUH reduction testsuite in its own shapes (64M elements; 2 x 32 x 1M loops), {gpu}: {name}")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"{name}-positions.{ext}"), dpi=110)
    plt.close(fig)

    cases = ["vecadd", "sum", "max"]
    if gcc_stream or stream:
        fig, ax = plt.subplots(figsize=(7, 4))
        for k, (label, vals) in enumerate([
            ("GCC 12 OpenACC", [gcc_stream.get(c) for c in cases]),
            ("acc", [stream.get(("acc", c)) for c in cases]),
            ("nvcc (hand-written CUDA)", [stream.get(("nvcc", c)) for c in cases]),
        ]):
            xs = [i + (k - 1) * 0.27 for i, v in enumerate(vals) if v is not None]
            ax.bar(xs, [v for v in vals if v is not None], 0.27, label=label, color=COLORS[label])
        ax.set_yscale("log")
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels(["vector add", "sum", "max"])
        ax.set_ylabel("ms, best of 5 (log; lower is faster)")
        ax.set_title(f"GCC's stream program, 50M doubles, {gpu}")
        ax.grid(axis="y", which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        for ext in ("png", "svg"):
            fig.savefig(os.path.join(out, f"{name}-stream.{ext}"), dpi=110)
        plt.close(fig)
    print(f"papers_plot: wrote {name}-positions and {name}-stream (.png, .svg) into {out}")


if __name__ == "__main__":
    main(sys.argv)
