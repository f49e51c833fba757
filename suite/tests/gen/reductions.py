#!/usr/bin/env python3
"""Writes the generated section of tests/semantics_reductions.rs: one test per (operator,
type) of DESIGN §2, each a region reducing `a` on a `gang, vector` loop.

usage: python3 suite/tests/gen/reductions.py          # rewrite the section
       python3 suite/tests/gen/reductions.py --check  # fail when the section is not what this writes
"""
import sys

sys.dont_write_bytecode = True
from splice import splice  # noqa: E402

INTS = ["i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize"]
FLOATS = ["f32", "f64"]
# name: (clause operator, update over s and x, data generator, initial values, trip counts)
OPS = {
    "add": ("+", "s + x", "gen_add", "inits_add", "TRIPS_ADD"),
    "mul": ("*", "s * x", "gen_mul", "inits_mul", "TRIPS"),
    "max": ("max", "s.max(x)", "gen_minmax", "inits_max", "TRIPS"),
    "min": ("min", "s.min(x)", "gen_minmax", "inits_min", "TRIPS"),
    "and": ("&", "s & x", "gen_bitand", "inits_bitand", "TRIPS"),
    "or": ("|", "s | x", "gen_bitor", "inits_bitor", "TRIPS"),
    "xor": ("^", "s ^ x", "gen_bitxor", "inits_bitxor", "TRIPS_ADD"),
}
BOOL_OPS = [("and", "&", "s & x"), ("or", "|", "s | x"), ("xor", "^", "s ^ x"), ("land", "&&", "s && x"), ("lor", "||", "s || x")]


def region(name, t, op, e):
    return f"""    #[acc::parallel]
    fn {name}(a: &[{t}], init: {t}) -> {t} {{
        let mut s = init;
        #[acc::r#loop(gang, vector, reduction({op}: s))]
        for i in 0..a.len() {{
            let x = a[i];
            s = {e};
        }}
        s
    }}
"""


def test(name, t, op, e, check):
    return f"\n#[test]\nfn {name}() {{\n{region(name, t, op, e)}    {check}\n}}\n"


def main():
    parts = ["// One test per (operator, type): a region reducing `a` into `s` from `init`.\n"]
    for t in INTS + FLOATS:
        for name in ["add", "mul", "max", "min"] + (["and", "or", "xor"] if t in INTS else []):
            op, e, gen, inits, trips = OPS[name]
            n = f"{name}_{t}"
            parts.append(test(n, t, op, e, f'check::<{t}>("{op}", &{trips}, {gen}::<{t}>, {inits}::<{t}>(), {n}, |s, x| {e});'))
    for name, op, e in BOOL_OPS:
        n = f"{name}_bool"
        parts.append(test(n, "bool", op, e, f'check_bool("{op}", {n}, |s, x| {e});'))
    splice("suite/tests/semantics_reductions.rs", "suite/tests/gen/reductions.py", "".join(parts))


if __name__ == "__main__":
    main()
