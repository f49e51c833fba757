#!/usr/bin/env python3
"""Writes the generated section of tests/semantics_schedules.rs: one test per multi-dimensional
schedule of a two- or three-loop nest (a bare `kernels` nest, OpenUH's kernels schedules g-v,
gv-v, g-gv, gv-gv, g-gv-v, v-gv-gv, gv-gv-gv with `gang(dim: d)` and sizes, `tile`), each
run at odd sizes and compared with the plain Rust nest. Every iteration adds to its element,
so an iteration run twice or never shows. Then the same schedules with a `reduction` clause
(every operator of OpenACC on the types it takes), compared with the sequential fold.

usage: python3 suite/tests/gen/schedules.py          # rewrite the section
       python3 suite/tests/gen/schedules.py --check  # fail when the section is not what this writes
"""
import sys

sys.dont_write_bytecode = True
from splice import splice  # noqa: E402

# (test name, region kind, clauses of the outer loop, of the inner loop; None: no directive)
TWO = [
    ("bare", "kernels", None, None),
    ("bare_independent", "kernels", "independent", "independent"),
    # Many rows: on the GPU each block takes a band of consecutive rows on up to 8 waves of
    # blocks (`grid.rs`), bands of many block heights that do not divide the rows evenly, and
    # one nest of fewer rows than a block.
    ("bare_bands", "kernels", None, None, "&[(100_003, 5), (70_001, 37), (5, 70_001)]"),
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


# Reductions on grid schedules: (name, type, operator, initial value, update of `s` by the
# element `x: i64`). Each update is both the region's and the sequential reference's, so the
# data (halves of small integers, sums that fit) give exact results in any order.
OPS = {
    "max_f64": ("f64", "max", "-5000.0f64", "s = s.max(x as f64 * 0.5);"),
    "min_i64": ("i64", "min", "5000i64", "s = s.min(x * 3 + 1);"),
    "sum_f64": ("f64", "+", "1.5f64", "s += x as f64 * 0.5;"),
    "sum_i64": ("i64", "+", "11i64", "s += x * 3 - 7;"),
    "sum_u32": ("u32", "+", "3u32", "s += (x + 1000) as u32;"),
    "prod_i64": ("i64", "*", "-1i64", "s *= if x % 7 == 0 { -1 } else { 1 };"),
    "and_bool": ("bool", "&&", "true", "s = s && x > -995;"),
    "or_bool": ("bool", "||", "false", "s = s || x == 997;"),
    "bitand_u64": ("u64", "&", "u64::MAX", "s &= !(1u64 << x.rem_euclid(61));"),
    "bitor_u64": ("u64", "|", "0u64", "s |= 1u64 << x.rem_euclid(64);"),
    "xor_u64": ("u64", "^", "0x55u64", "s ^= (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);"),
}

# (schedule name, region kind, clauses of each loop with `{r}` for the reduction clause (None: no
# directive), the operators it is tested with)
RED2 = [
    ("bare", "kernels", "{r}", "{r}", list(OPS)),
    ("bare_outer_clause", "kernels", "{r}", None, ["max_f64", "sum_i64"]),
    ("bare_inner_clause", "kernels", "independent", "{r}", ["sum_u32"]),
    ("g_v", "kernels", "gang, {r}", "vector, {r}", ["max_f64", "sum_i64"]),
    ("gv_gv", "kernels", "gang, vector, {r}", "gang, vector, {r}", ["max_f64", "sum_f64", "or_bool"]),
    ("gv_gv_sizes", "kernels", "gang(7), vector(3), {r}", "gang(2), vector(33), {r}", ["sum_i64"]),
    ("tile_32x8", "kernels", "tile(32, 8), {r}", None, ["max_f64", "sum_i64", "and_bool"]),
    ("tile_5x3_parallel", "parallel", "gang, vector, tile(5, 3), {r}", None, ["min_i64"]),
]

RED3 = [
    ("bare", "kernels", "{r}", "{r}", "{r}", ["max_f64", "sum_f64", "sum_i64", "sum_u32", "min_i64", "and_bool", "or_bool", "xor_u64"]),
    ("g_gv_v", "kernels", "gang, {r}", "gang, vector, {r}", "vector, {r}", ["sum_i64"]),
    ("gv_gv_gv", "kernels", "gang, vector, {r}", "gang, vector, {r}", "gang, vector, {r}", ["max_f64", "bitor_u64"]),
    ("tile_8x4x2", "kernels", "tile(8, 4, 2), {r}", None, None, ["sum_i64", "min_i64"]),
]


def attr(clauses, pad):
    return "" if clauses is None else f"{pad}#[acc::r#loop({clauses})]\n"


def two(name, kind, outer, inner, shapes="&SHAPES2"):
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
    check2("{name}", {shapes}, |a, out, n, m| two_{name}(a, out, n, m));
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


def red_attr(clauses, op, pad):
    return attr(None if clauses is None else clauses.format(r=f"reduction({op}: s)"), pad)


def red2(sched, kind, outer, inner, op_name):
    ty, op, init, update = OPS[op_name]
    name = f"red2_{sched}_{op_name}"
    return f"""
#[test]
fn {name}() {{
    #[acc::{kind}]
    fn {name}(a: &[i64], n: usize, m: usize) -> {ty} {{
        let mut s = {init};
{red_attr(outer, op, "        ")}        for i in 0..n {{
{red_attr(inner, op, "            ")}            for j in 0..m {{
                let x = a[i * m + j];
                {update}
            }}
        }}
        s
    }}
    check_red2("{name}", {name}, {init}, |mut s: {ty}, x: i64| {{
        {update}
        s
    }});
}}
"""


def red3(sched, kind, c0, c1, c2, op_name):
    ty, op, init, update = OPS[op_name]
    name = f"red3_{sched}_{op_name}"
    return f"""
#[test]
fn {name}() {{
    #[acc::{kind}]
    fn {name}(a: &[i64], n: usize, m: usize, l: usize) -> {ty} {{
        let mut s = {init};
{red_attr(c0, op, "        ")}        for i in 0..n {{
{red_attr(c1, op, "            ")}            for j in 0..m {{
{red_attr(c2, op, "                ")}                for k in 0..l {{
                    let x = a[(i * m + j) * l + k];
                    {update}
                }}
            }}
        }}
        s
    }}
    check_red3("{name}", {name}, {init}, |mut s: {ty}, x: i64| {{
        {update}
        s
    }});
}}
"""


body = "".join(two(*t) for t in TWO) + "".join(three(*t) for t in THREE)
body += "".join(red2(*t[:4], op) for t in RED2 for op in t[4])
body += "".join(red3(*t[:5], op) for t in RED3 for op in t[5])
splice("suite/tests/semantics_schedules.rs", "suite/tests/gen/schedules.py", body)
