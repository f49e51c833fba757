#!/usr/bin/env python3
"""Writes the generated section of tests/semantics_atomics.rs: one test per (form, type) of
`acc::atomic!` on a scalar updated by every iteration of a gang-vector loop.

usage: python3 suite/tests/gen/atomics.py          # rewrite the section
       python3 suite/tests/gen/atomics.py --check  # fail when the section is not what this writes
"""
import sys

sys.dont_write_bytecode = True
from splice import splice  # noqa: E402

# name: (update statement, sequential update, data generator, initial values); `T` is the type.
FORMS = {
    "add": ("x += v", "x + v", "gen_add::<T>", "inits_add::<T>()"),
    "sub": ("x -= v", "x - v", "gen_add::<T>", "inits_sub::<T>()"),
    "mul": ("x *= v", "x * v", "gen_mul::<T>", "inits_mul::<T>()"),
    # Integers divide by `gen_div`'s small factors, floats by `gen_mul`'s powers of two.
    "div": ("x /= v", "x / v", None, "inits_big::<T>()"),
    "and": ("x &= v", "x & v", "gen_bitand::<T>", "inits_bitand::<T>()"),
    "or": ("x |= v", "x | v", "gen_bitor::<T>", "inits_bitor::<T>()"),
    "xor": ("x ^= v", "x ^ v", "gen_bitxor::<T>", "inits_bitxor::<T>()"),
    "max": ("x = x.max(v)", "x.max(v)", "gen_minmax::<T>", "inits_max::<T>()"),
    "min": ("x = x.min(v)", "x.min(v)", "gen_minmax::<T>", "inits_min::<T>()"),
}
ARITH = ["i8", "u16", "i32", "u64", "f32", "f64"]
BITS = ["u8", "i32", "u64", "usize"]
MINMAX = ["i16", "i32", "u64", "f32", "f64"]
# bool: (name, form, data generator); `or` gets data with a single `true`, at the end.
BOOL = [
    ("and", "and", "gen_bool"),
    ("or", "or", "|n| vec![false; n.saturating_sub(1)].into_iter().chain((n > 0).then_some(true)).collect()"),
    ("xor", "xor", "gen_bool"),
]


def test(name, t, form, gen=None):
    upd, seq, g, inits = FORMS[form]
    if gen is None:
        gen = g if g else ("gen_mul::<T>" if t.startswith("f") else "gen_div::<T>")
        gen = gen.replace("<T>", f"<{t}>")
    inits = "inits_bool()" if t == "bool" else inits.replace("<T>", f"<{t}>")
    return f"""
#[test]
fn {name}() {{
    #[acc::parallel]
    fn {name}(a: &[{t}], init: {t}) -> {t} {{
        let mut x = init;
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {{
            let v = a[i];
            acc::atomic!({upd});
        }}
        x
    }}
    check::<{t}>("{upd}", {gen}, {inits}, {name}, |x, v| {seq});
}}
"""


def main():
    parts = ["// One test per (form, type): every iteration of a gang-vector loop updates one scalar.\n"]
    for t in ARITH:
        parts += [test(f"{f}_{t}", t, f) for f in ["add", "sub", "mul", "div"]]
    for t in BITS:
        parts += [test(f"{f}_{t}", t, f) for f in ["and", "or", "xor"]]
    parts += [test(f"{n}_bool", "bool", f, g) for n, f, g in BOOL]
    for t in MINMAX:
        parts += [test(f"{f}_{t}", t, f) for f in ["max", "min"]]
    splice("suite/tests/semantics_atomics.rs", "suite/tests/gen/atomics.py", "".join(parts))


if __name__ == "__main__":
    main()
