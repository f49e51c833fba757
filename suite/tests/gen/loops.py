#!/usr/bin/env python3
"""Writes the generated section of tests/semantics_loops.rs: one module per loop form (`a..b`,
`a..=b`, `(a..b).step_by(s)`, `(a..=b).step_by(s)`) with one test per integer type of the loop
variable, and one test per level combination of a single loop.

usage: python3 suite/tests/gen/loops.py          # rewrite the section
       python3 suite/tests/gen/loops.py --check  # fail when the section is not what this writes
"""
import sys

sys.dont_write_bytecode = True
from splice import indent, splice  # noqa: E402

TYPES = ["i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize"]

# (module, the check's name of the form, range expression, whether it takes a step)
FORMS = [
    ("range", "lo..hi", "lo..hi", False),
    ("inclusive", "lo..=hi", "lo..=hi", False),
    ("step_by", "(lo..hi).step_by(s)", "(lo..hi).step_by(step)", True),
    ("inclusive_step_by", "(lo..=hi).step_by(s)", "(lo..=hi).step_by(step)", True),
]

# (test name, clauses of the loop)
LEVELS = [
    ("gang", "gang"),
    ("worker", "worker"),
    ("vector", "vector"),
    ("gang_worker", "gang, worker"),
    ("worker_vector", "worker, vector"),
    ("gang_vector", "gang, vector"),
    ("gang_worker_vector", "gang, worker, vector"),
    ("seq", "seq"),
    ("auto", "auto"),
    ("independent", "independent"),
    ("independent_gang_vector", "independent, gang, vector"),
    ("bare", ""),
]


def form_test(t, what, rng, stepped):
    if stepped:
        return f"""
#[test]
fn {t}() {{
    #[acc::parallel]
    fn {t}(out: &mut [i64], lo: {t}, hi: {t}, step: usize) {{
        #[acc::r#loop(gang, vector)]
        for i in {rng} {{
            let k = (i as i64).wrapping_sub(lo as i64) as u64 as usize / step;
            out[k] = i as i64;
        }}
    }}
    for (lo, hi) in bounds::<{t}>({t}::MIN as i128, {t}::MAX as i128) {{
        for step in STEPS {{
            check_form("{what}", lo, hi, step, {rng}.map(|i| i as i64).collect(), |out| {t}(out, lo, hi, step));
        }}
    }}
}}
"""
    return f"""
#[test]
fn {t}() {{
    #[acc::parallel]
    fn {t}(out: &mut [i64], lo: {t}, hi: {t}) {{
        #[acc::r#loop(gang, vector)]
        for i in {rng} {{
            let k = (i as i64).wrapping_sub(lo as i64) as usize;
            out[k] = i as i64;
        }}
    }}
    for (lo, hi) in bounds::<{t}>({t}::MIN as i128, {t}::MAX as i128) {{
        check_form("{what}", lo, hi, 1, ({rng}).map(|i| i as i64).collect(), |out| {t}(out, lo, hi));
    }}
}}
"""


def level_test(name, clauses):
    return f"""
#[test]
fn {name}() {{
    #[acc::parallel]
    fn {name}(a: &[i32], b: &[i32], c: &mut [i32]) {{
        #[acc::r#loop({clauses})]
        for i in 0..c.len() {{
            c[i] = a[i] * 3 - b[i];
        }}
    }}
    for n in SIZES {{
        let a = vec_of(n, |i| (hash(i) % 1000) as i32);
        let b = vec_of(n, |i| i as i32);
        let mut c = vec![-1; n];
        {name}(&a, &b, &mut c);
        let want: Vec<i32> = (0..n).map(|i| a[i] * 3 - b[i]).collect();
        assert_eq!(c, want, "{{n}} elements");
    }}
}}
"""


def module(doc, name, tests):
    return f"\n/// {doc}\nmod {name} {{\n    use super::*;\n{indent(tests, 4)}}}\n"


def main():
    parts = []
    for name, what, rng, stepped in FORMS:
        tests = "".join(form_test(t, what, rng, stepped) for t in TYPES)
        parts.append(module(f"The form `{rng}`, one test per loop-variable type.", name, tests))
    levels = "".join(level_test(n, c) for n, c in LEVELS)
    parts.append(module("Every combination of levels on one loop (and `seq`, `auto`, `independent`, none) computes\n/// the same elementwise result.", "levels", levels))
    splice("suite/tests/semantics_loops.rs", "suite/tests/gen/loops.py", "".join(parts))


if __name__ == "__main__":
    main()
