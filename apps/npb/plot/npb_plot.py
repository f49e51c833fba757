#!/usr/bin/env python3
"""NPB on an H200: seconds of NPB's timed section per benchmark at classes B and C, acc on the
GPU, NPB-GPU's CUDA, acc's host backend on the
machine's 16 cores (B) and NPB-ACC's C on one core (B), from the tables in
benches/results/npb-h200/ (see apps/npb/README.md). Writes npb-h200.png beside this file.

usage: python3 apps/npb/plot/npb_plot.py"""
import csv
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RES = os.path.join(HERE, "..", "..", "..", "benches", "results", "npb-h200")
BENCHES = ["EP", "CG", "IS", "MG", "FT", "LU", "SP", "BT"]


def acc_table(name):
    """{(bench, class): seconds} of run-gpu.sh's markdown table."""
    out = {}
    for line in open(os.path.join(RES, name)):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 4 and cells[0] in BENCHES and cells[4] == "SUCCESSFUL":
            out[(cells[0], cells[1])] = float(cells[2])
    return out


def pairs(name, pattern):
    """{(bench, class): seconds} of lines matching `pattern` (groups: bench, class, seconds)."""
    out = {}
    for line in open(os.path.join(RES, name)):
        m = re.search(pattern, line)
        if m and "SUCCESSFUL" in line:
            out[(m.group(1).upper(), m.group(2))] = float(m.group(3))
    return out


def tsv(name):
    out = {}
    for row in csv.reader(open(os.path.join(RES, name)), delimiter="\t"):
        if len(row) > 5 and row[5] == "SUCCESSFUL":
            out[(row[1].upper(), row[2])] = float(row[3])
    return out


def main():
    acc = acc_table("acc-gpu-table.md")
    series = [
        ("acc, GPU", acc),
        ("NPB-GPU CUDA", tsv("npb-gpu-cuda.tsv")),
        ("acc, host backend, 16 cores", pairs("host-backend.txt", r"host (\w+) ([BC]) rc=0 .*Time in seconds = ([\d.]+)")),
        ("NPB-ACC C, 1 core", tsv("serial-c.tsv")),
    ]
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5), sharey=True)
    width = 0.2
    for ax, cls in zip(axes, ["B", "C"]):
        for k, (label, data) in enumerate(series):
            xs = [i + (k - 1.5) * width for i, b in enumerate(BENCHES) if (b, cls) in data]
            ys = [max(data[(b, cls)], 0.005) for b in BENCHES if (b, cls) in data]
            if xs:
                ax.bar(xs, ys, width, label=label)
        ax.set_yscale("log")
        ax.set_xticks(range(len(BENCHES)), BENCHES)
        ax.set_title(f"class {cls}")
        ax.grid(axis="y", which="both", alpha=0.3)
    axes[0].set_ylabel("seconds (NPB's timed section; log scale)")
    axes[0].legend(fontsize=8, loc="upper left")
    fig.suptitle("NPB on an NVIDIA H200 (driver 580.159.04): acc beside NPB-GPU's CUDA (lower is faster)")
    fig.tight_layout()
    out = os.path.join(HERE, "npb-h200.png")
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()
