#!/usr/bin/env python3
"""Writes the generated section of benches/papers.rs: the reduction testsuite of the OpenUH
reductions paper (`../shared/papers/openuh-reductions.txt`, Section 5 and Table 2) in the
paper's shapes, as GCC's OpenACC runs it (`../shared/peers/gcc-openacc/acc_reductions.c`):
the seven reduction positions with `+` and `*` on int, float and double (i32, f32, f64), and
`max` on double in the two positions GCC has it (same line, gang worker vector): 44 regions,
each written out (acc-build reads only literal regions, never `macro_rules!` output), and one
suite fn per (operator, type) that times and checks them.

usage: python3 suite/tests/gen/papers.py          # rewrite the section
       python3 suite/tests/gen/papers.py --check  # fail when the section is not what this writes
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from splice import splice  # noqa: E402

# (GCC's type name, Rust type, literal of 0, of 1, of 2)
TYPES = [
    ("int", "i32", "0i32", "1i32", "2"),
    ("float", "f32", "0.0f32", "1.0f32", "2.0"),
    ("double", "f64", "0.0f64", "1.0f64", "2.0"),
]
# name: (clause operator, update of `v` by `x`, initial value index into TYPES' literals)
OPS = {
    "add": ("+", "{v} += {x};", 2),
    "mul": ("*", "{v} *= {x};", 3),
    "max": ("max", "{v} = {v}.max({x});", None),
}
# The positions, in GCC's names and order (Table 2's rows).
POSITIONS = ["gang", "worker", "vector", "gw", "wv", "gwv", "same-line"]
GEOM = "num_workers(8), vector_length(128)"
IDX = "(k * nj + j) * ni + i"


def init(op, t):
    if op == "max":
        return "f64::NEG_INFINITY"
    return t[OPS[op][2]]


def upd(op, v, x):
    return OPS[op][1].format(v=v, x=x)


def fn_name(pos, op, t):
    return f"{pos.replace('-', '_')}_{op}_{t[1]}"


def region(pos, op, t):
    """The region fn of position `pos`, GCC's loop nest transcribed."""
    ty, red, two, name = t[1], OPS[op][0], t[4], fn_name(pos, op, t)
    z = init(op, t)
    copy = f"b[{IDX}] = a[{IDX}] * {two};"
    head = f"#[acc::parallel({GEOM})]\n"
    if pos == "gang":
        return head + f"""fn {name}(a: &[{ty}], b: &mut [{ty}], c: &[{ty}], nk: usize, nj: usize, ni: usize) -> {ty} {{
    let mut s = {z};
    #[acc::r#loop(gang, reduction({red}: s))]
    for k in 0..nk {{
        {upd(op, "s", "c[k]")}
        #[acc::r#loop(worker)]
        for j in 0..nj {{
            #[acc::r#loop(vector)]
            for i in 0..ni {{
                {copy}
            }}
        }}
    }}
    s
}}
"""
    if pos == "worker":
        return head + f"""fn {name}(a: &[{ty}], b: &mut [{ty}], c: &[{ty}], out: &mut [{ty}], nk: usize, nj: usize, ni: usize) {{
    #[acc::r#loop(gang)]
    for k in 0..nk {{
        let mut t = {z};
        #[acc::r#loop(worker, reduction({red}: t))]
        for j in 0..nj {{
            {upd(op, "t", "c[k * nj + j]")}
            #[acc::r#loop(vector)]
            for i in 0..ni {{
                {copy}
            }}
        }}
        out[k] = t;
    }}
}}
"""
    if pos == "vector":
        return head + f"""fn {name}(a: &[{ty}], out: &mut [{ty}], nk: usize, nj: usize, ni: usize) {{
    #[acc::r#loop(gang)]
    for k in 0..nk {{
        #[acc::r#loop(worker)]
        for j in 0..nj {{
            let mut t = {z};
            #[acc::r#loop(vector, reduction({red}: t))]
            for i in 0..ni {{
                {upd(op, "t", f"a[{IDX}]")}
            }}
            out[k * nj + j] = t;
        }}
    }}
}}
"""
    if pos == "gw":
        return head + f"""fn {name}(a: &[{ty}], b: &mut [{ty}], c: &[{ty}], nk: usize, nj: usize, ni: usize) -> {ty} {{
    let mut s = {z};
    #[acc::r#loop(gang, reduction({red}: s))]
    for k in 0..nk {{
        #[acc::r#loop(worker, reduction({red}: s))]
        for j in 0..nj {{
            {upd(op, "s", "c[k * nj + j]")}
            #[acc::r#loop(vector)]
            for i in 0..ni {{
                {copy}
            }}
        }}
    }}
    s
}}
"""
    if pos == "wv":
        return head + f"""fn {name}(a: &[{ty}], out: &mut [{ty}], nk: usize, nj: usize, ni: usize) {{
    #[acc::r#loop(gang)]
    for k in 0..nk {{
        let mut t = {z};
        #[acc::r#loop(worker, reduction({red}: t))]
        for j in 0..nj {{
            #[acc::r#loop(vector, reduction({red}: t))]
            for i in 0..ni {{
                {upd(op, "t", f"a[{IDX}]")}
            }}
        }}
        out[k] = t;
    }}
}}
"""
    if pos == "gwv":
        return head + f"""fn {name}(a: &[{ty}], nk: usize, nj: usize, ni: usize) -> {ty} {{
    let mut s = {z};
    #[acc::r#loop(gang, reduction({red}: s))]
    for k in 0..nk {{
        #[acc::r#loop(worker, reduction({red}: s))]
        for j in 0..nj {{
            #[acc::r#loop(vector, reduction({red}: s))]
            for i in 0..ni {{
                {upd(op, "s", f"a[{IDX}]")}
            }}
        }}
    }}
    s
}}
"""
    if pos == "same-line":
        return head + f"""fn {name}(a: &[{ty}]) -> {ty} {{
    let mut s = {z};
    #[acc::r#loop(gang, worker, vector, reduction({red}: s))]
    for x in 0..a.len() {{
        {upd(op, "s", "a[x]")}
    }}
    s
}}
"""
    raise ValueError(pos)


def call(pos, op, t):
    """The statements of suite fn that time and check position `pos`."""
    ty, name, z = t[1], fn_name(pos, op, t), init(op, t)
    tag = f'"{pos}", "{t[0] if op != "max" else "max_double"}", "{op}"'
    if pos == "gang":
        return f"""        let (nk, nj, ni) = (n / 64, 2, 32);
        let mut s = {z};
        let ms = best(reps, || s = {name}(&a, &mut b, &c, nk, nj, ni));
        report({tag}, ms, &[s], &[fold(op, &c[..nk])]);
"""
    if pos == "worker":
        return f"""        let (nk, nj, ni) = (2, n / 64, 32);
        let mut out = vec![{z}; nk];
        let ms = best(reps, || {name}(&a, &mut b, &c, &mut out, nk, nj, ni));
        report({tag}, ms, &out, &rows(op, &c[..nk * nj], nj));
"""
    if pos == "vector":
        return f"""        let (nk, nj, ni) = (2, 32, n / 64);
        let mut out = vec![{z}; nk * nj];
        let ms = best(reps, || {name}(&a, &mut out, nk, nj, ni));
        report({tag}, ms, &out, &rows(op, &a, ni));
"""
    if pos == "gw":
        return f"""        let (nk, nj, ni) = (1024, n / 65536, 64);
        let mut s = {z};
        let ms = best(reps, || s = {name}(&a, &mut b, &c, nk, nj, ni));
        report({tag}, ms, &[s], &[fold(op, &c[..nk * nj])]);
"""
    if pos == "wv":
        return f"""        let (nk, nj, ni) = (64, 1024, n / 65536);
        let mut out = vec![{z}; nk];
        let ms = best(reps, || {name}(&a, &mut out, nk, nj, ni));
        report({tag}, ms, &out, &rows(op, &a, nj * ni));
"""
    if pos == "gwv":
        return f"""        let (nk, nj, ni) = (64, 1024, n / 65536);
        let mut s = {z};
        let ms = best(reps, || s = {name}(&a, nk, nj, ni));
        report({tag}, ms, &[s], &[fold(op, &a)]);
"""
    if pos == "same-line":
        return f"""        let mut s = {z};
        let ms = best(reps, || s = {name}(&a));
        report({tag}, ms, &[s], &[fold(op, &a)]);
"""
    raise ValueError(pos)


def suite(op, t, positions):
    """One fn per (operator, type): the data (GCC's for `+`, exact products for `*`, a planted
    maximum for `max`), one data region around every position, as GCC's `acc data`."""
    ty, name = t[1], f"suite_{op}_{t[1]}"
    uses_b = any(p in ("gang", "worker", "gw") for p in positions)
    lines = [f"fn {name}(n: usize, reps: usize) {{\n", f'    let op = "{op}";\n']
    lines.append(f"    let a: Vec<{ty}> = (0..n).map(|x| {ty}::of(value_a(op, n, x))).collect();\n")
    if uses_b:
        lines.append(f"    let c: Vec<{ty}> = (0..n).map(|x| {ty}::of(value_c(op, x))).collect();\n")
        lines.append(f"    let mut b = vec![{init('add', t) if op != 'max' else '0.0f64'}; n];\n")
        lines.append("    acc::data!(copyin(a, c), create(b) {\n")
    else:
        lines.append("    acc::data!(copyin(a) {\n")
    for i, pos in enumerate(positions):
        if i:
            lines.append("\n")
        lines.append(call(pos, op, t))
    lines.append("    });\n}\n")
    return "".join(lines)


def cases():
    """(operator, type, positions) of every suite fn, in run order (GCC's: int, float, double
    with `+`, then `max` on double; `*` after them)."""
    out = [("add", t, POSITIONS) for t in TYPES]
    out.append(("max", TYPES[2], ["same-line", "gwv"]))
    out += [("mul", t, POSITIONS) for t in TYPES]
    return out


def main():
    parts = ["// The regions: `<position>_<operator>_<type>`, GCC's loop nests (acc_reductions.c).\n"]
    n = 0
    for op, t, positions in cases():
        parts.append(f"\n// `{OPS[op][0]}` on {t[0]} ({t[1]}).\n")
        for pos in positions:
            parts.append("\n" + region(pos, op, t))
            n += 1
    parts.append("\n// One suite fn per (operator, type), in run order.\n")
    for op, t, positions in cases():
        parts.append("\n" + suite(op, t, positions))
    runs = "".join(f"    suite_{op}_{t[1]}(n, reps);\n" for op, t, _ in cases())
    parts.append(f"\n/// Every suite, in GCC's order (`*` after it).\nfn run_suites(n: usize, reps: usize) {{\n{runs}}}\n")
    parts.append(f"\n/// The number of testsuite regions above.\nconst REGIONS: usize = {n};\n")
    splice("benches/benches/papers.rs", "suite/tests/gen/papers.py", "".join(parts))


if __name__ == "__main__":
    main()
