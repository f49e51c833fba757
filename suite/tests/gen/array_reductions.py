#!/usr/bin/env python3
"""Writes the generated section of suite/tests/semantics_array_reductions.rs: array reductions
(`reduction(op: q)` with `q: [T; N]`, each element reduced apart), one test per (operator,
type) on a `gang, vector` loop, then each loop form (gang, worker, vector, combined, a clause
on an outer loop, a region's clause, a 2-D `kernels` nest) with a few operators, then array
sizes.

usage: python3 suite/tests/gen/array_reductions.py          # rewrite the section
       python3 suite/tests/gen/array_reductions.py --check  # fail when the section is not what this writes
"""
import sys

sys.dont_write_bytecode = True
from splice import splice  # noqa: E402

INTS = ["i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize"]
FLOATS = ["f32", "f64"]
# name: (clause operator, update of element `q[k]` by `x`, data generator, initial values, trip counts)
OPS = {
    "add": ("+", "q[k] + x", "gen_add", "inits_add", "TRIPS_ADD"),
    "mul": ("*", "q[k] * x", "gen_mul", "inits_mul", "TRIPS"),
    "max": ("max", "q[k].max(x)", "gen_minmax", "inits_max", "TRIPS"),
    "min": ("min", "q[k].min(x)", "gen_minmax", "inits_min", "TRIPS"),
    "and": ("&", "q[k] & x", "gen_bitand", "inits_bitand", "TRIPS"),
    "or": ("|", "q[k] | x", "gen_bitor", "inits_bitor", "TRIPS"),
    "xor": ("^", "q[k] ^ x", "gen_bitxor", "inits_bitxor", "TRIPS_ADD"),
}
BOOL_OPS = {"and": ("&", "q[k] & x"), "or": ("|", "q[k] | x"), "xor": ("^", "q[k] ^ x"), "land": ("&&", "q[k] && x"), "lor": ("||", "q[k] || x")}


def update(e, n, indent):
    pad = " " * indent
    k = f"i % {n}" if n > 1 else "0"  # `i % 1` is clippy's modulo_one, an error
    return f"{pad}let x = a[i];\n{pad}let k = {k};\n{pad}q[k] = {e};\n"


def body(form, op, e, n):
    """The region's statements between `let mut q = init;` and `q`, for loop form `form`."""
    if form == "gv":
        return f"""        #[acc::r#loop(gang, vector, reduction({op}: q))]
        for i in 0..a.len() {{
{update(e, n, 12)}        }}
"""
    if form in ("g", "gwv"):
        levels = {"g": "gang", "gwv": "gang, worker, vector"}[form]
        return f"""        #[acc::r#loop({levels}, reduction({op}: q))]
        for i in 0..a.len() {{
{update(e, n, 12)}        }}
"""
    if form in ("g_v", "g_w", "gw_v"):
        outer, inner = {"g_v": ("gang", "vector"), "g_w": ("gang", "worker"), "gw_v": ("gang, worker", "vector")}[form]
        return f"""        #[acc::r#loop({outer}, reduction({op}: q))]
        for r in 0..a.len().div_ceil(8) {{
            #[acc::r#loop({inner}, reduction({op}: q))]
            for c in 0..8 {{
                let i = r * 8 + c;
                if i < a.len() {{
{update(e, n, 20)}                }}
            }}
        }}
"""
    if form == "region":
        return f"""        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {{
{update(e, n, 12)}        }}
"""
    if form == "kernels2":
        return f"""        #[acc::r#loop(gang, reduction({op}: q))]
        for r in 0..a.len().div_ceil(8) {{
            #[acc::r#loop(vector)]
            for c in 0..8 {{
                let i = r * 8 + c;
                if i < a.len() {{
{update(e, n, 20)}                }}
            }}
        }}
"""
    raise ValueError(form)


def region(name, form, t, op, e, n):
    attr = {"region": f"#[acc::parallel(reduction({op}: q))]", "kernels2": "#[acc::kernels]"}.get(form, "#[acc::parallel]")
    return f"""    {attr}
    fn {name}(a: &[{t}], init: [{t}; {n}]) -> [{t}; {n}] {{
        let mut q = init;
{body(form, op, e, n)}        q
    }}
"""


def test(name, form, t, opname, n):
    if t == "bool":
        op, e = BOOL_OPS[opname]
        check = f'check_bool::<{n}>("{op}", {name}, |s, x| {e.replace("q[k]", "s")});'
    else:
        op, e, gen, inits, trips = OPS[opname]
        check = f'check::<{t}, {n}>("{op}", &{trips}, {gen}::<{t}>, {inits}::<{t}>(), {name}, |s, x| {e.replace("q[k]", "s")});'
    return f"\n#[test]\nfn {name}() {{\n{region(name, form, t, op, e, n)}    {check}\n}}\n"


FORMS = ["g", "gwv", "g_v", "g_w", "gw_v", "region", "kernels2"]
FORM_CASES = [("add", "f64"), ("max", "i32"), ("xor", "u64"), ("min", "f32"), ("land", "bool")]


def main():
    parts = ["// Every (operator, type) on a `gang, vector` loop, reducing `[T; 4]`.\n"]
    for t in INTS + FLOATS:
        for name in ["add", "mul", "max", "min"] + (["and", "or", "xor"] if t in INTS else []):
            parts.append(test(f"{name}_{t}", "gv", t, name, 4))
    for name in BOOL_OPS:
        parts.append(test(f"{name}_bool", "gv", "bool", name, 4))
    parts.append("\n// Each loop form, a few operators, reducing `[T; 3]`.\n")
    for form in FORMS:
        for name, t in FORM_CASES:
            parts.append(test(f"{form}_{name}_{t}", form, t, name, 3))
    parts.append("\n// Array sizes: one element, odd, 16.\n")
    for n in [1, 5, 16]:
        parts.append(test(f"size{n}_add_i64", "gv", "i64", "add", n))
        parts.append(test(f"size{n}_max_f64", "gv", "f64", "max", n))
    splice("suite/tests/semantics_array_reductions.rs", "suite/tests/gen/array_reductions.py", "".join(parts))


if __name__ == "__main__":
    main()
