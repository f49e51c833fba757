#!/usr/bin/env python3
"""Clippy must not warn a user about the code acc generates.

Usage: scripts/clippy-expansions.py [cargo clippy arguments...]
       (e.g. `--all-targets`, `--all-targets --features cuda`)
       scripts/clippy-expansions.py --from FILE   (the JSON output of such a run)

Runs `cargo clippy --message-format=json` with the given arguments and fails on every
clippy warning whose primary span starts inside an acc directive's clauses: a `#[acc::...]`
attribute, or the clause list of `acc::data!`, `acc::update!`, `acc::enter_data!`,
`acc::exit_data!` (deny-by-default lints there too). Those tokens reach the compiler only
through acc's expansion, so a lint there (`async(q)` with `q: i64` once expanded to
`(q) as i64`: `unnecessary_cast`; `self` once `false && __acc_if`:
`overly_complex_bool_expr`) is acc's, not the user's. It also fails when clippy fails (a
compile error, or a deny-by-default lint in the user's code).

Not acc's, so not counted: `too_many_arguments`, which clippy spans on the region's
attribute because the region fn is re-emitted by the macro (the fn and its arguments are
the user's; without acc clippy reports it at the `fn`). Warnings elsewhere (the crate's own
style) are counted, not listed.
"""

import collections
import json
import re
import subprocess
import sys

NOT_ACCS = {"clippy::too_many_arguments"}
DIRECTIVE = re.compile(r"#\s*\[\s*acc\s*::|\bacc\s*::\s*(data|update|enter_data|exit_data)\s*!")


def directive_extents(text):
    """(start, end) offsets of each directive's clauses in a source file: from `#[acc::`
    to its `]`, from `acc::update!` to its closing bracket, and for `acc::data!` up to the
    `{` of its body."""
    out = []
    for m in DIRECTIVE.finditer(text):
        depth, i = 0, m.start()
        data = m.group(1) == "data"
        while i < len(text):
            c = text[i]
            if c == '"':
                i = text.find('"', i + 1)
                if i < 0:
                    break
            elif c in "([{":
                if data and c == "{" and depth == 1:
                    break
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        out.append((m.start(), i + 1))
    return out


def offset(lines, line, col):
    """Offset in characters of 1-based `line`, `col` (rustc's columns count characters)."""
    return sum(len(l) for l in lines[: line - 1]) + col - 1


def main():
    if sys.argv[1:2] == ["--from"]:
        cmd, returncode = sys.argv[1:3], 0
        with open(sys.argv[2], encoding="utf-8") as f:
            stdout = f.read()
    else:
        cmd = ["cargo", "clippy", "--message-format=json", *sys.argv[1:]]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        stdout, returncode = proc.stdout, proc.returncode
    seen, accs, others = set(), [], collections.Counter()
    extents = {}
    for line in stdout.splitlines():
        try:
            m = json.loads(line)
        except json.JSONDecodeError:
            continue
        if m.get("reason") != "compiler-message":
            continue
        msg = m["message"]
        code = (msg.get("code") or {}).get("code") or ""
        if msg["level"] == "error" and not code.startswith("clippy::"):
            print(msg["rendered"], end="")
        if msg["level"] not in ("warning", "error") or not code.startswith("clippy::"):
            continue
        span = next((s for s in msg["spans"] if s["is_primary"]), None)
        if span is None:
            continue
        key = (span["file_name"], span["line_start"], span["column_start"], code)
        if key in seen:  # the same file in several targets (tests/common, ...)
            continue
        seen.add(key)
        path = span["file_name"]
        if path not in extents:
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                text = ""
            extents[path] = (text.splitlines(keepends=True), directive_extents(text))
        lines, spans = extents[path]
        at = offset(lines, span["line_start"], span["column_start"])
        if code not in NOT_ACCS and any(lo <= at < hi for lo, hi in spans):
            accs.append(msg["rendered"])
        else:
            others[code] += 1
    print(f"clippy ({' '.join(cmd[3:] if cmd[0] == 'cargo' else cmd)}): {len(accs)} lints on acc's directives; "
          f"{sum(others.values())} elsewhere (not checked: {', '.join(f'{c} {n}' for c, n in others.most_common(6))}...)")
    for r in accs:
        print(r, end="")
    if returncode != 0:
        print(f"`{' '.join(cmd)}` failed (exit {returncode})", file=sys.stderr)
        return 1
    return 1 if accs else 0


if __name__ == "__main__":
    sys.exit(main())
