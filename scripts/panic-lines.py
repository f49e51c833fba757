#!/usr/bin/env python3
"""Which index checks of the device crate would name a wrong line in a kernel panic.

Usage (from the repository root, after a `--features cuda` build):
    python3 scripts/panic-lines.py target/debug/build/acc-*/out/acc-device-crate

acc-build prints each module of the device crate so that the user's tokens keep their lines
(`acc-build/src/print.rs`): a kernel's panic names the line where the device crate has the
index. For every inline index check `x[::acc_device::ix(e, COL)]` with a user column, this
checks that the user's file has `x[` on the same line, and lists the kernels where it has not
(by kernel, with the first few lines). A second copy of a multi-line body (a nest's lean
kernel, the unrolled copies of a reduction round) falls on later lines: session 15 found
1517 of 14038 such checks in the test and bench crates (debug build), 463 of them in lean
kernels, the rest in unrolled or coarsened copies (reduction rounds, `tile` rows).
Exit status 0 always: a report, not a test.
"""
import collections
import os
import re
import sys


def main(root):
    bad, total, where = 0, 0, collections.defaultdict(list)
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
                    col = re.search(r",\s*(\d+)u32\)$", rest[:i])
                    if not col or int(col.group(1)) == 0:
                        continue
                    total += 1
                    if m.group(1) + "[" not in (src[n - 1] if n <= len(src) else ""):
                        bad += 1
                        where[(rel, kernel)].append(n)
    print(f"{total} index checks with a user column, {bad} on a line of the device crate where the user's file has no such index")
    kinds = collections.Counter("lean" if k and k.endswith("_lean") else "other" for (_, k), v in where.items() for _ in v)
    print(f"by kernel: {dict(kinds)}")
    for (rel, k), lines in sorted(where.items()):
        print(f"  {rel} {k}: lines {sorted(set(lines))[:5]}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "target/debug/build/acc-device-crate")
