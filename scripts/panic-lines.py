#!/usr/bin/env python3
"""Whether the index checks of the device crate name the user's line in a kernel panic.

Usage (from the root of the package whose files it checks, after its `--features cuda` build;
the suite's, for example):
    cd suite && python3 ../scripts/panic-lines.py ../target/debug/build/acc-suite-*/out/acc-device-crate

acc-build prints each module of the device crate so that the user's tokens keep their lines
(`acc-build/src/print.rs`), but a second copy of a multi-line body (a nest's lean kernel, the
unrolled copies of a reduction round, the coarsened rows of a `tile` nest) falls on later
lines: this script found 1517 of 14038 inline index checks of the test and bench crates (debug
build) printed on a line where the user's file has no such index, so a panic there named a
wrong line. acc-build now passes each check the user's line and column
(`x[::acc_device::ix(e, LINE, COL)]`), which the panic record takes over the printed ones.

For every check with a user line, this checks that the user's file has `x[` at that line and
column, and lists the kernels where it has not (exit status 1); it also counts the checks
printed on another line (harmless now: a report).
"""
import collections
import os
import re
import sys


def main(root):
    bad, moved, total, where = 0, 0, 0, collections.defaultdict(list)
    for dirpath, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".rs"):
                continue
            dev = os.path.join(dirpath, f)
            rel = os.path.relpath(dev, root)
            if not os.path.exists(rel):
                continue
            src = open(rel).read().split("\n")
            kernel = None
            for n, line in enumerate(open(dev).read().split("\n"), 1):
                for m in re.finditer(r"fn (acc_[a-z0-9_]+)\(", line):
                    kernel = m.group(1)
                for m in re.finditer(r"(\w+)\[::acc_device::ix\(", line):
                    rest, depth, i = line[m.end():], 1, 0
                    while i < len(rest) and depth > 0:
                        depth += {"(": 1, ")": -1}.get(rest[i], 0)
                        i += 1
                    at = re.search(r",\s*(\d+)u32\s*,\s*(\d+)u32\s*\)$", rest[:i])
                    if not at or int(at.group(1)) == 0:
                        continue
                    total += 1
                    # The user's line and column: of the indexed expression (`x`, `self.x`).
                    uline, ucol = int(at.group(1)), int(at.group(2))
                    text = src[uline - 1] if uline <= len(src) else ""
                    if not re.match(r"[\w.]*?\b" + re.escape(m.group(1)) + r"\s*\[", text[ucol - 1:]):
                        bad += 1
                        where[(rel, kernel)].append(uline)
                    if m.group(1) + "[" not in (src[n - 1] if n <= len(src) else ""):
                        moved += 1
    print(f"{total} index checks with a user line, {bad} naming a line and column where the user's file has no such index")
    print(f"({moved} printed on a line of the device crate where the user's file has no such index)")
    kinds = collections.Counter("lean" if k and k.endswith("_lean") else "other" for (_, k), v in where.items() for _ in v)
    print(f"by kernel: {dict(kinds)}")
    for (rel, k), lines in sorted(where.items()):
        print(f"  {rel} {k}: lines {sorted(set(lines))[:5]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "target/debug/build/acc-device-crate"))
