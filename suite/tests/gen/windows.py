#!/usr/bin/env python3
"""Writes the generated section of tests/semantics_windows.rs: random 1-D `cache!` stencils,
from a fixed seed, each compared with the same loop in plain Rust at many sizes.

A window that moves with a loop's variable (`a[i - l..=i + h]`) is staged in shared memory on
the GPU, a trip of the block giving each thread 1, 2 or 4 points by the block's width and the
nest's windows (`acc_device::window_points`), fetched a trip ahead or in a loop, each trip's
points testing their windows against the arrays' ends unless the whole trip lies inside. Each
test draws one such loop: its element type, one or two windows and the offsets its body reads
(`a[i + c]` with `-l <= c <= h`, all of them or a few), the loop's bounds (the interior, or the
whole array with each reference guarded by an `if`, so that the edge trips' windows pass the
array's ends), where the loop sits (the region's `gang, vector` loop, or a `vector` loop inside
a gang loop over repetitions), its block (the default, a `vector_length` literal, or one given at
run time), a few gangs or as many as it needs, and sometimes a `+` reduction over the loop.

usage: python3 suite/tests/gen/windows.py          # rewrite the section
       python3 suite/tests/gen/windows.py --check  # fail when the section is not what this writes
"""
import random
import sys

sys.dont_write_bytecode = True
from splice import splice  # noqa: E402

SEED = 31
CASES = 24
TYPES = ["f32", "f64", "i32", "i64", "u16"]


def lit(v, t):
    """The literal `v` of type `t`."""
    return f"{v}.0{t}" if t.startswith("f") else f"{v}{t}"


def combine(t, acc_expr, term, op):
    """`acc_expr op term` in type `t` without overflow (wrapping for integers)."""
    if t.startswith("f"):
        return f"{acc_expr} {op} {term}"
    return f"{acc_expr}.wrapping_{'add' if op == '+' else 'sub'}({term})"


def scaled(t, x, k):
    """`x * k` in type `t`."""
    if t.startswith("f"):
        return f"{x} * {lit(k, t)}"
    return f"{x}.wrapping_mul({lit(k, t)})"


def window_text(name, l, h):
    lo = f"i - {l}" if l else "i"
    hi = f"i + {h}" if h else "i"
    return f"{name}[{lo}..={hi}]"


def ref(name, c):
    return f"{name}[i - {-c}]" if c < 0 else (f"{name}[i + {c}]" if c > 0 else f"{name}[i]")


def case(rng, idx):
    t = rng.choice(TYPES)
    arrays = ["a"] if rng.random() < 0.6 else ["a", "b"]
    wins = {}
    for x in arrays:
        l, h = rng.randint(0, 5), rng.randint(0, 5)
        if l + h == 0:
            h = 1
        offs = list(range(-l, h + 1))
        reads = offs if rng.random() < 0.5 else sorted(rng.sample(offs, rng.randint(1, len(offs))))
        wins[x] = (l, h, reads)
    L = max(w[0] for w in wins.values())
    H = max(w[1] for w in wins.values())
    guarded = rng.random() < 0.4
    block = rng.choice(["", "", "vector_length(32)", "vector_length(128)", "vector_length(1024)", "v"])
    gangs = rng.random() < 0.25
    nested = rng.random() < 0.25
    # (f64 sums of multiples of 1/8 this small are exact in any order.)
    red = (not nested) and t == "f64"
    # The body's value at point i: a sum of scaled reads, each guarded where the loop runs over
    # the whole array.
    terms = []
    for x in arrays:
        for c in wins[x][2]:
            k = rng.randint(1, 5) * rng.choice([1, -1])
            terms.append((x, c, k))
    lines = [f"let mut s: {t} = {lit(1, t)};"]
    for x, c, k in terms:
        upd = "s = " + combine(t, "s", scaled(t, ref(x, c), abs(k)), "+" if k > 0 else "-") + ";"
        if guarded:
            conds = []
            if c < 0:
                conds.append(f"i >= {-c}")
            if c > 0:
                conds.append(f"i + {c} < n")
            if conds:
                upd = f"if {' && '.join(conds)} {{ {upd} }}"
        lines.append(upd)
    rng_text = "0..n" if guarded else (f"{L}..n - {H}" if H else f"{L}..n")
    cache = ", ".join(window_text(x, wins[x][0], wins[x][1]) for x in arrays)
    params = ", ".join(f"{x}: &[{t}]" for x in arrays)
    clauses = []
    if block == "v":
        clauses.append("vector_length(v)")
    elif block:
        clauses.append(block)
    if gangs:
        clauses.append("num_gangs(3)")
    attr = f"#[acc::parallel({', '.join(clauses)})]" if clauses else "#[acc::parallel]"
    store = "c[r * n + i] = s;" if nested else "c[i] = s;"
    red_line = "t += s;"
    body = "\n".join(lines + [store] + ([red_line] if red else []))

    def loop(acc):
        inner_dir = "#[acc::r#loop(vector)]\n" if nested else ("#[acc::r#loop(gang, vector, reduction(+: t))]\n" if red else "#[acc::r#loop(gang, vector)]\n")
        cache_line = f"acc::cache!({cache});\n" if acc else ""
        inner = f"{inner_dir if acc else ''}for i in {rng_text} {{\n{cache_line}{body}\n}}"
        if nested:
            outer_dir = "#[acc::r#loop(gang)]\n" if acc else ""
            inner = f"{outer_dir}for r in 0..reps {{\n{inner}\n}}"
        return inner

    ret = f" -> {t}" if red else ""
    pre = f"let mut t: {t} = {lit(0, t)};\n" if red else ""
    post = "\nt" if red else ""
    reps_param = "reps: usize, " if nested else ""

    def sig(v):
        extra = f"{v}: usize" if block == "v" else ""
        return f"({params}, c: &mut [{t}], {reps_param}{extra}){ret}".replace(", )", ")")
    name = f"w{idx:02}"
    region = f"{attr}\nfn {name}{sig('v')} {{\nlet n = a.len();\n{pre}{loop(True)}{post}\n}}"
    plain = f"fn {name}_seq{sig('_v')} {{\nlet n = a.len();\n{pre}{loop(False)}{post}\n}}"
    what = [t, " + ".join(f"cache!({window_text(x, *wins[x][:2])}) reading {len(wins[x][2])}" for x in arrays),
            "guarded, whole array" if guarded else "interior", block or "default block", "3 gangs" if gangs else "",
            "vector loop in a gang loop" if nested else "", "`+` reduction" if red else ""]
    doc = "; ".join(w for w in what if w)
    gen = {"f32": "(hash(j) % 512) as f32 * 0.25", "f64": "(hash(j) % 4096) as f64 * 0.125", "i32": "(hash(j) % 2000) as i32 - 1000",
           "i64": "(hash(j) as i64) >> 3", "u16": "hash(j) as u16"}[t]
    datas = ", ".join(f"vec_of(n, |j| {{ let j = j + {k * 7919}; {gen} }})" for k, x in enumerate(arrays))
    vs = "&[32, 96, 256, 1024]" if block == "v" else "&[0]"
    xs = ", ".join(f"&x[{k}]" for k in range(len(arrays)))
    more = (", 3" if nested else "") + (", v" if block == "v" else "")
    v = "v" if block == "v" else "_v"
    test = f"""
/// {doc}.
#[test]
fn {name}_{t}() {{
{region}
{plain}
check("{name}", {L + H}, {3 if nested else 1}, {vs}, {lit(7, t)}, |n| vec![{datas}], |x, c, {v}| {name}({xs}, c{more}), |x, c, {v}| {name}_seq({xs}, c{more}));
}}
"""
    return test


def indent_rust(text):
    """Indents generated Rust by its braces (4 spaces a level)."""
    out, depth = [], 0
    for line in text.split("\n"):
        s = line.strip()
        if not s:
            out.append("")
            continue
        if s.startswith("}"):
            depth -= 1
        out.append("    " * depth + s)
        depth += s.count("{") - s.count("}") + (1 if s.startswith("}") else 0)
    return "\n".join(out)


def main():
    rng = random.Random(SEED)
    tests = "".join(indent_rust(case(rng, i)) for i in range(CASES))
    splice("suite/tests/semantics_windows.rs", "suite/tests/gen/windows.py", tests.lstrip("\n") + "\n")


if __name__ == "__main__":
    main()
