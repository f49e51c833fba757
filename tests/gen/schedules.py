#!/usr/bin/env python3
"""Writes the generated section of tests/semantics_schedules.rs: one test per multi-dimensional
schedule of a two- or three-loop nest (a bare `kernels` nest, OpenUH's kernels schedules g-v,
gv-v, g-gv, gv-gv, g-gv-v, v-gv-gv, gv-gv-gv with `gang(dim: d)` and sizes, `tile`), each
run at odd sizes and compared with the plain Rust nest. Every iteration adds to its element,
so an iteration run twice or never shows.

usage: python3 tests/gen/schedules.py          # rewrite the section
       python3 tests/gen/schedules.py --check  # fail when the section is not what this writes
"""
import sys

sys.dont_write_bytecode = True
from splice import splice  # noqa: E402

# (test name, region kind, clauses of the outer loop, of the inner loop; None: no directive)
TWO = [
    ("bare", "kernels", None, None),
    ("bare_independent", "kernels", "independent", "independent"),
    ("g_v", "kernels", "gang", "vector"),
    ("gv_v", "kernels", "gang, vector", "vector"),
    ("g_gv", "kernels", "gang", "gang, vector"),
    ("gv_gv", "kernels", "gang, vector", "gang, vector"),
    ("gv_gv_sizes", "kernels", "gang(3), vector(4)", "gang(5), vector(32)"),
    ("gv_gv_odd_sizes", "kernels", "gang(7), vector(3)", "gang(2), vector(33)"),
    ("gv_gv_dims_swapped", "kernels", "gang(dim: 1), vector", "gang(dim: 2), vector"),
    ("gw_v", "kernels", "gang, worker(4)", "vector(64)"),
    ("g_g", "kernels", "gang", "gang"),
    ("v_v", "kernels", "vector", "vector"),
    ("tile_32x8", "kernels", "tile(32, 8)", None),
    ("tile_5x3", "kernels", "tile(5, 3)", None),
    ("tile_1x64_parallel", "parallel", "gang, vector, tile(1, 64)", None),
]

THREE = [
    ("bare", "kernels", None, None, None),
    ("g_gv_v", "kernels", "gang", "gang, vector", "vector"),
    ("v_gv_gv", "kernels", "vector", "gang, vector", "gang, vector"),
    ("gv_gv_gv", "kernels", "gang, vector", "gang, vector", "gang, vector"),
    ("gv_gv_gv_dims", "kernels", "gang(dim: 1), vector(2)", "gang(dim: 3), vector(4)", "gang(dim: 2), vector(16)"),
    ("gv_gv_gv_sizes", "kernels", "gang(2), vector(3)", "gang(3), vector(5)", "gang(4), vector(7)"),
    ("tile_8x4x2", "kernels", "tile(8, 4, 2)", None, None),
]


def attr(clauses, pad):
    return "" if clauses is None else f"{pad}#[acc::r#loop({clauses})]\n"


def two(name, kind, outer, inner):
    return f"""
#[test]
fn two_{name}() {{
    #[acc::{kind}]
    fn two_{name}(a: &[i64], out: &mut [i64], n: usize, m: usize) {{
{attr(outer, "        ")}        for i in 0..n {{
{attr(inner, "            ")}            for j in 0..m {{
                out[i * m + j] += a[i * m + j] * 3 + (i * 1000 + j) as i64;
            }}
        }}
    }}
    check2("{name}", |a, out, n, m| two_{name}(a, out, n, m));
}}
"""


def three(name, kind, c0, c1, c2):
    return f"""
#[test]
fn three_{name}() {{
    #[acc::{kind}]
    fn three_{name}(a: &[i64], out: &mut [i64], n: usize, m: usize, l: usize) {{
{attr(c0, "        ")}        for i in 0..n {{
{attr(c1, "            ")}            for j in 0..m {{
{attr(c2, "                ")}                for k in 0..l {{
                    out[(i * m + j) * l + k] += a[(i * m + j) * l + k] * 3 + (i * 1_000_000 + j * 1000 + k) as i64;
                }}
            }}
        }}
    }}
    check3("{name}", |a, out, n, m, l| three_{name}(a, out, n, m, l));
}}
"""


body = "".join(two(*t) for t in TWO) + "".join(three(*t) for t in THREE)
splice("tests/semantics_schedules.rs", "tests/gen/schedules.py", body)
