#!/usr/bin/env python3
"""Writes the generated section of tests/semantics_nested_reductions.rs: one module per
reduction position (DESIGN §4.3), one test per (operator, type) pair of the matrix in each.

usage: python3 suite/tests/gen/nested_reductions.py          # rewrite the section
       python3 suite/tests/gen/nested_reductions.py --check  # fail when the section is not what this writes
"""
import sys

sys.dont_write_bytecode = True
from splice import indent, splice  # noqa: E402

# (test name, type, clause operator, update over s and x, data generator, initial values)
COMBOS = [
    ("add_i64", "i64", "+", "s + x", "gen_add::<i64>", "inits_add::<i64>()"),
    ("mul_f32", "f32", "*", "s * x", "gen_mul::<f32>", "inits_mul::<f32>()"),
    ("max_f64", "f64", "max", "s.max(x)", "gen_minmax::<f64>", "inits_max::<f64>()"),
    ("min_i16", "i16", "min", "s.min(x)", "gen_minmax::<i16>", "inits_min::<i16>()"),
    ("xor_u32", "u32", "^", "s ^ x", "gen_bitxor::<u32>", "inits_bitxor::<u32>()"),
    ("land_bool", "bool", "&&", "s && x", "gen_bool", "inits_bool()"),
]

# The parameters after `a` and the checker, by the number of dimensions.
DIMS = {
    1: ("", "check1"),
    2: ("n: usize, m: usize, ", "check2"),
    3: ("n: usize, m: usize, l: usize, ", "check3"),
}

# (module, doc, dimensions, region attribute, loop nest). In the nest `{op}` is the clause
# operator; the innermost statement is `let x = <element>;`, then `s = <update>;` (`@`).
POSITIONS = [
    ("inner_only", """gang outer without a clause, vector inner with it; the variable is declared before the
outer loop ("a clause on the loop nearest the next use is enough").""", 2, "#[acc::parallel]", """\
#[acc::r#loop(gang)]
for j in 0..n {
    #[acc::r#loop(vector, reduction({op}: s))]
    for i in 0..m {
        @a[j * m + i]
    }
}"""),
    ("both_levels", "The clause on both the gang and the vector loop.", 2, "#[acc::parallel]", """\
#[acc::r#loop(gang, reduction({op}: s))]
for j in 0..n {
    #[acc::r#loop(vector, reduction({op}: s))]
    for i in 0..m {
        @a[j * m + i]
    }
}"""),
    ("gwv_innermost", "gang / worker / vector nest, the clause on the vector loop only.", 3, "#[acc::parallel]", """\
#[acc::r#loop(gang)]
for k in 0..n {
    #[acc::r#loop(worker)]
    for j in 0..m {
        #[acc::r#loop(vector, reduction({op}: s))]
        for i in 0..l {
            @a[(k * m + j) * l + i]
        }
    }
}"""),
    ("gwv_every_level", "gang / worker / vector nest, the clause on every level.", 3, "#[acc::parallel]", """\
#[acc::r#loop(gang, reduction({op}: s))]
for k in 0..n {
    #[acc::r#loop(worker, reduction({op}: s))]
    for j in 0..m {
        #[acc::r#loop(vector, reduction({op}: s))]
        for i in 0..l {
            @a[(k * m + j) * l + i]
        }
    }
}"""),
    ("gwv_one_loop", "All three levels on one loop.", 1, "#[acc::parallel]", """\
#[acc::r#loop(gang, worker, vector, reduction({op}: s))]
for i in 0..a.len() {
    @a[i]
}"""),
    ("worker_inner", "gang outer without a clause, worker inner with it.", 2, "#[acc::parallel]", """\
#[acc::r#loop(gang)]
for j in 0..n {
    #[acc::r#loop(worker, reduction({op}: s))]
    for i in 0..m {
        @a[j * m + i]
    }
}"""),
    ("gang_plain_inner", "gang loop with the clause; a plain (unannotated) inner loop does the updates.", 2, "#[acc::parallel]", """\
#[acc::r#loop(gang, reduction({op}: s))]
for j in 0..n {
    for i in 0..m {
        @a[j * m + i]
    }
}"""),
    ("collapse2", "`collapse(2)` of a gang-vector loop pair.", 2, "#[acc::parallel]", """\
#[acc::r#loop(gang, vector, collapse(2), reduction({op}: s))]
for j in 0..n {
    for i in 0..m {
        @a[j * m + i]
    }
}"""),
    ("region_level", "A region-level `reduction` clause; the loop itself carries none.", 1, "#[acc::parallel(reduction({op}: s))]", """\
#[acc::r#loop(gang, vector)]
for i in 0..a.len() {
    @a[i]
}"""),
    ("top_vector", """A vector loop at the region's top level (it runs in every gang; each gang's result is the
same).""", 1, "#[acc::parallel]", """\
#[acc::r#loop(vector, reduction({op}: s))]
for i in 0..a.len() {
    @a[i]
}"""),
    ("top_worker_vector", "A worker-vector loop at the region's top level.", 1, "#[acc::parallel(num_workers(4), vector_length(32))]", """\
#[acc::r#loop(worker, vector, reduction({op}: s))]
for i in 0..a.len() {
    @a[i]
}"""),
    ("seq_inner", "A gang-vector loop with the clause; a `seq` loop inside does the updates.", 2, "#[acc::parallel]", """\
#[acc::r#loop(gang, vector, reduction({op}: s))]
for j in 0..n {
    #[acc::r#loop(seq)]
    for i in 0..m {
        @a[j * m + i]
    }
}"""),
    ("kernels_auto", "A `kernels` region: a loop with a reduction clause and no level (`auto`).", 1, "#[acc::kernels]", """\
#[acc::r#loop(reduction({op}: s))]
for i in 0..a.len() {
    @a[i]
}"""),
    ("kernels_gang_vector", "A `kernels` region: an `independent` gang loop over a vector loop, the clause on both.", 2, "#[acc::kernels]", """\
#[acc::r#loop(independent, gang, reduction({op}: s))]
for j in 0..n {
    #[acc::r#loop(vector(64), reduction({op}: s))]
    for i in 0..m {
        @a[j * m + i]
    }
}"""),
    ("serial_region", "A `serial` region: the loop runs in order, the result is the sequential one.", 1, "#[acc::serial]", """\
#[acc::r#loop(reduction({op}: s))]
for i in 0..a.len() {
    @a[i]
}"""),
]


def nest(template, op, e):
    out = []
    for line in template.replace("{op}", op).splitlines():
        if "@" in line:
            pad, elem = line.split("@")
            out += [f"{pad}let x = {elem};", f"{pad}s = {e};"]
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def test(dims, attr, template, name, t, op, e, gen, inits):
    params, checker = DIMS[dims]
    return (
        f"\n#[test]\nfn {name}() {{\n"
        f"    {attr.replace('{op}', op)}\n"
        f"    fn {name}(a: &[{t}], {params}init: {t}) -> {t} {{\n"
        f"        let mut s = init;\n"
        + indent(nest(template, op, e), 8)
        + f"        s\n    }}\n"
        f'    {checker}("{op}", {gen}, {inits}, {name}, |s, x| {e});\n}}\n'
    )


def main():
    parts = []
    for module, doc, dims, attr, template in POSITIONS:
        tests = "".join(test(dims, attr, template, *c) for c in COMBOS)
        docs = "".join(f"/// {l}\n" for l in doc.splitlines())
        parts.append(f"\n{docs}mod {module} {{\n    use super::*;\n{indent(tests, 4)}}}\n")
    splice("suite/tests/semantics_nested_reductions.rs", "suite/tests/gen/nested_reductions.py", "".join(parts))


if __name__ == "__main__":
    main()
