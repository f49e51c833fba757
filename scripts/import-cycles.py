#!/usr/bin/env python3
"""The import graph of a crate's modules (acc-runtime's by default), and its cycles (issue 13:
the runtime and the compiler layer one way). Exits 1 when a cycle is found, or an edge goes
down the `--layers` order.

A module is a file under acc-runtime/src (`data/mod.rs` is `data`, `cuda/memory.rs` is
`cuda::memory`) or an inline `mod name { .. }` in one (`devices::tests`). An edge `a -> b`
is a path in module `a` that names module `b`: a `use crate::..`, `use super::..` or
`use self::..` line, or such a path in the code (`crate::devices::current()`). A path names
the longest module it starts with; a name re-exported by the crate root (`crate::DeviceCopy`)
names the module it comes from. A module's edges to its own submodules (declaring them,
re-exporting from them) and a submodule's to its parent are what nesting is, and do not
count; nor does the crate root, the facade that re-exports the rest.

`--layers=A,B:C:D` (bottom first, `:` between layers, `,` between the modules of one layer)
also requires each edge to go from a module to one in its own layer or a lower one: a module
belongs to the layer naming it or its nearest parent (`front` holds `front::model`); modules
of no layer are not checked.

Usage: python3 scripts/import-cycles.py [--graph] [--layers=..] [SRC_DIR]
  python3 scripts/import-cycles.py                    # acc-runtime/src
  python3 scripts/import-cycles.py acc-device/src     # acc-device (its root re-exports the rest)
  python3 scripts/import-cycles.py acc-codegen/src --layers=syntax,report:front:check:info:lower
"""

import os
import re
import sys

SRC = "acc-runtime/src"


def strip(text):
    """The code without comments, strings and char literals (their braces and paths do not
    count)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = text.find('"' + m.group(1), i + len(m.group(0)))
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end + 1 + len(m.group(1))
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:
                out.append("' '")
                i += len(m.group(0))
            else:  # a lifetime
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def file_module(rel):
    parts = rel[:-3].split("/")
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def modules_of(src):
    """Each module's code (inline modules split out), by path."""
    code = {}
    for root, _, files in os.walk(src):
        for f in files:
            if f.endswith(".rs"):
                path = os.path.join(root, f)
                rel = os.path.relpath(path, src).replace(os.sep, "/")
                split(file_module(rel), strip(open(path, encoding="utf-8").read()), code)
    return code


def split(module, text, code):
    """Puts `text` under `module`, each inline `mod name { .. }` under `module::name`."""
    own, i = [], 0
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{", text):
        if m.start() < i:
            continue
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        own.append(text[i:m.start()])
        split(module + (m.group(1),), text[m.end():j - 1], code)
        i = j
    own.append(text[i:])
    code[module] = code.get(module, "") + "".join(own)


def use_paths(text):
    """The paths a module's code names: each leaf of its `use` trees, and `crate::`/`super::`
    paths in the code."""
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        paths += expand(re.sub(r"\s+", "", m.group(1)))
    body = re.sub(r"\buse\s+[^;]+;", "", text)
    for m in re.finditer(r"\b((?:crate|super|self)(?:::\w+)+)", body):
        paths.append(m.group(1))
    return paths


def expand(tree):
    """`a::{b, c::{d, e}}` -> `a::b`, `a::c::d`, `a::c::e`."""
    m = re.match(r"^(.*?)\{(.*)\}$", tree)
    if not m:
        return [re.sub(r"as\w+$", "", tree.replace(" ", ""))]
    prefix, inner, parts, depth, cur = m.group(1), m.group(2), [], 0, ""
    for c in inner:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(c, 0)
        cur += c
    parts.append(cur)
    return [p for part in parts if part for p in expand(prefix + part)]


def resolve(module, path, modules, reexports):
    segs = path.split("::")
    if segs[0] == "crate":
        base, segs = (), segs[1:]
    elif segs[0] in ("super", "self"):
        base = module
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
    else:
        return None
    if not base and segs and segs[0] in reexports:
        return reexports[segs[0]]
    target = base
    for s in segs:
        if target + (s,) in modules:
            target += (s,)
        else:
            break
    return target


def graph(src):
    code = modules_of(src)
    modules = set(code)
    # Names the crate root re-exports from its modules (`pub use data::{Mirror, ..}`).
    reexports = {}
    for m in re.finditer(r"\bpub\s+use\s+([^;]+);", code.get((), "")):
        for p in expand(re.sub(r"\s+", "", m.group(1))):
            segs = p.split("::")
            if segs[0] in ("crate", "self"):
                segs = segs[1:]
            if len(segs) >= 2 and (segs[0],) in modules:
                reexports[segs[-1]] = (segs[0],)
    edges = {m: set() for m in modules if m}
    for m, text in code.items():
        if not m:
            continue
        for p in use_paths(text):
            t = resolve(m, p, modules, reexports)
            if t is None or not t or t == m:
                continue
            if t[:len(m)] == m or m[:len(t)] == t:  # nesting: parent <-> its own submodules
                continue
            edges[m].add(t)
    return edges


def cycles(edges):
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def name(m):
    return "::".join(m)


def layer_of(m, layers):
    """The index of the layer that names `m` or its nearest parent, `None` if none does."""
    for k in range(len(m), 0, -1):
        for i, layer in enumerate(layers):
            if name(m[:k]) in layer:
                return i
    return None


def upward(edges, layers):
    """The edges from a module to one of a higher layer."""
    out = []
    for m in sorted(edges):
        for t in sorted(edges[m]):
            a, b = layer_of(m, layers), layer_of(t, layers)
            if a is not None and b is not None and b > a:
                out.append((m, t))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    src = args[0] if args else SRC
    edges = graph(src)
    if "--graph" in sys.argv:
        for m in sorted(edges):
            print(f"{name(m)} -> {', '.join(sorted(name(t) for t in edges[m]))}")
    found = cycles(edges)
    for c in found:
        print(f"import cycle: {' <-> '.join(name(m) for m in c)}")
        for m in c:
            inner = sorted(name(t) for t in edges[m] if t in c)
            print(f"  {name(m)} -> {', '.join(inner)}")
    bad = []
    for a in sys.argv[1:]:
        if a.startswith("--layers="):
            layers = [set(group.split(",")) for group in a[len("--layers="):].split(":")]
            bad = upward(edges, layers)
            for m, t in bad:
                print(f"import against the layers: {name(m)} -> {name(t)}")
    print(f"import-cycles: {len(found)} cycle(s), {len(bad)} import(s) against the layers, among {len(edges)} modules of {src}")
    sys.exit(1 if found or bad else 0)


if __name__ == "__main__":
    main()
