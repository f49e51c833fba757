#!/usr/bin/env python3
"""Writes tests/semantics_matrix.rs: the reduction matrix of issue 5 as plain region fns.

acc-build compiles for the GPU only the regions it can read in the source files, so the
matrix cannot come from `macro_rules!` (those regions run on the host backend even with a
GPU). This script spells every region out instead: each position of the OpenUH triple nest
(gang k / worker j / vector i) x a set of (operator, type) pairs, plus every operator x every
type at one position. Every region takes `num_workers` and `vector_length` as arguments, so
one kernel runs at every block shape.

usage: python3 suite/tests/gen/matrix.py          # rewrite the file
       python3 suite/tests/gen/matrix.py --check  # fail when the file is not what this writes
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
OUT = os.path.join(ROOT, "suite", "tests", "semantics_matrix.rs")

# (clause operator, Rust combine expression over s and x, data generator, initial values)
OPS = {
    "add": ("+", "S + X", "gen_add", "inits_add"),
    "mul": ("*", "S * X", "gen_mul", "inits_mul"),
    "max": ("max", "S.max(X)", "gen_minmax", "inits_max"),
    "min": ("min", "S.min(X)", "gen_minmax", "inits_min"),
    "bitand": ("&", "S & X", "gen_bitand", "inits_bitand"),
    "bitor": ("|", "S | X", "gen_bitor", "inits_bitor"),
    "bitxor": ("^", "S ^ X", "gen_bitxor", "inits_bitxor"),
    "land": ("&&", "S && X", None, None),
    "lor": ("||", "S || X", None, None),
}
INTS = ["i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize"]
FLOATS = ["f32", "f64"]
# The pairs every position runs.
COMBOS = [("add", "i64"), ("mul", "f32"), ("max", "f64"), ("min", "i16"), ("bitxor", "u32"), ("land", "bool")]


def ops_of(t):
    if t == "bool":
        return ["land", "lor"]
    if t in FLOATS:
        return ["add", "mul", "max", "min"]
    return ["add", "mul", "max", "min", "bitand", "bitor", "bitxor"]


def gen_of(op, t):
    if t == "bool":
        return "gen_bool", "inits_bool()"
    _, _, g, i = OPS[op]
    return f"{g}::<{t}>", f"{i}::<{t}>()"


def combine(op, s, x):
    return OPS[op][1].replace("S", s).replace("X", x)


# Each position: the region body (with {op} the clause operator and {c(s, x)} the combine),
# and the name of the reference in the file's header. Regions take
# (a, b, out, nk, nj, ni, init, nw, vl) and return s.
POSITIONS = {
    # The gang loop reduces; worker and vector loops run in parallel without reducing.
    "gang": ("""
    let mut s = init;
    #[acc::r#loop(gang, reduction({op}: s))]
    for k in 0..nk {{
        #[acc::r#loop(worker)]
        for j in 0..nj {{
            #[acc::r#loop(vector)]
            for i in 0..ni {{
                b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i];
            }}
        }}
        if nj * ni > 0 {{
            s = {c_s_first};
        }}
    }}
    s""", "Pos::Gang"),
    "worker": ("""
    let s = init;
    #[acc::r#loop(gang)]
    for k in 0..nk {{
        let mut t = init;
        #[acc::r#loop(worker, reduction({op}: t))]
        for j in 0..nj {{
            if ni > 0 {{
                t = {c_t_row};
            }}
            #[acc::r#loop(vector)]
            for i in 0..ni {{
                b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i];
            }}
        }}
        out[k] = t;
    }}
    s""", "Pos::Worker"),
    "vector": ("""
    let s = init;
    #[acc::r#loop(gang)]
    for k in 0..nk {{
        #[acc::r#loop(worker)]
        for j in 0..nj {{
            let mut t = init;
            #[acc::r#loop(vector, reduction({op}: t))]
            for i in 0..ni {{
                t = {c_t_elem};
            }}
            out[k * nj + j] = t;
        }}
    }}
    s""", "Pos::Vector"),
    "gang_worker": ("""
    let mut s = init;
    #[acc::r#loop(gang, reduction({op}: s))]
    for k in 0..nk {{
        #[acc::r#loop(worker, reduction({op}: s))]
        for j in 0..nj {{
            if ni > 0 {{
                s = {c_s_row};
            }}
            #[acc::r#loop(vector)]
            for i in 0..ni {{
                b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i];
            }}
        }}
    }}
    s""", "Pos::GangWorker"),
    "worker_vector": ("""
    let s = init;
    #[acc::r#loop(gang)]
    for k in 0..nk {{
        let mut t = init;
        #[acc::r#loop(worker, reduction({op}: t))]
        for j in 0..nj {{
            #[acc::r#loop(vector, reduction({op}: t))]
            for i in 0..ni {{
                t = {c_t_elem};
            }}
        }}
        out[k] = t;
    }}
    s""", "Pos::WorkerVector"),
    "gang_vector": ("""
    let mut s = init;
    #[acc::r#loop(gang, reduction({op}: s))]
    for k in 0..nk {{
        #[acc::r#loop(vector, reduction({op}: s))]
        for i in 0..nj * ni {{
            s = {c_s_flat};
        }}
    }}
    s""", "Pos::All"),
    "gang_worker_vector": ("""
    let mut s = init;
    #[acc::r#loop(gang, reduction({op}: s))]
    for k in 0..nk {{
        #[acc::r#loop(worker, reduction({op}: s))]
        for j in 0..nj {{
            #[acc::r#loop(vector, reduction({op}: s))]
            for i in 0..ni {{
                s = {c_s_elem};
            }}
        }}
    }}
    s""", "Pos::All"),
    # The clause on the gang loop only: the worker and vector loops reduce too.
    "gang_clause_only": ("""
    let mut s = init;
    #[acc::r#loop(gang, reduction({op}: s))]
    for k in 0..nk {{
        #[acc::r#loop(worker)]
        for j in 0..nj {{
            #[acc::r#loop(vector)]
            for i in 0..ni {{
                s = {c_s_elem};
            }}
        }}
    }}
    s""", "Pos::All"),
    "same_line": ("""
    let mut s = init;
    #[acc::r#loop(gang, worker, vector, reduction({op}: s))]
    for i in 0..nk * nj * ni {{
        s = {c_s_i};
    }}
    s""", "Pos::All"),
    # Sequential code between the loops: a value one leader stores is read by every thread.
    "phases": ("""
    let s = init;
    #[acc::r#loop(gang)]
    for k in 0..nk {{
        let mut t = init;
        #[acc::r#loop(worker, reduction({op}: t))]
        for j in 0..nj {{
            #[acc::r#loop(vector, reduction({op}: t))]
            for i in 0..ni {{
                t = {c_t_elem};
            }}
        }}
        out[k] = t;
        let u = out[k];
        for rep in 0..2 {{
            #[acc::r#loop(worker)]
            for j in 0..nj {{
                #[acc::r#loop(vector)]
                for i in 0..ni {{
                    if rep == 1 {{
                        b[(k * nj + j) * ni + i] = u;
                    }}
                }}
            }}
        }}
    }}
    s""", "Pos::Phases"),
}


def region(pos, op, t):
    body, _ = POSITIONS[pos]
    elem = "a[(k * nj + j) * ni + i]"
    subs = {
        "op": OPS[op][0],
        "c_s_first": combine(op, "s", "a[k * nj * ni]"),
        "c_t_row": combine(op, "t", "a[(k * nj + j) * ni]"),
        "c_s_row": combine(op, "s", "a[(k * nj + j) * ni]"),
        "c_t_elem": combine(op, "t", elem),
        "c_s_elem": combine(op, "s", elem),
        "c_s_flat": combine(op, "s", "a[k * nj * ni + i]"),
        "c_s_i": combine(op, "s", "a[i]"),
    }
    name = f"{pos}_{op}_{t}"
    return name, (
        f"#[acc::parallel(num_workers(nw), vector_length(vl))]\n"
        f"fn {name}(a: &[{t}], b: &mut [{t}], out: &mut [{t}], nk: usize, nj: usize, ni: usize, init: {t}, nw: usize, vl: usize) -> {t} {{"
        + body.format(**subs)
        + "\n}\n"
    )


HEADER = '''//! The reduction matrix (issue 5): every position of the OpenUH triple nest (gang k / worker
//! j / vector i: `openuh-reductions.txt` Table 2) with a set of (operator, type) pairs, every
//! operator x type at the gang-worker-vector position, sequential code between the loops, at
//! block shapes from 1 to 1024 threads (`vector_length` 1, 32, 96, 100, 256, 1024; workers up
//! to 32) and odd trip counts. Each region is compared with sequential Rust.
//!
//! GENERATED by `python3 suite/tests/gen/matrix.py` (regions must be spelled out for acc-build to
//! compile them for the GPU); edit the script, not this file.

mod common;
use common::*;

/// (nk, nj, ni): empty levels, single trips, odd counts, one long row.
const SHAPES: [(usize, usize, usize); 7] = [(0, 3, 3), (3, 0, 3), (3, 3, 0), (1, 1, 1), (3, 5, 7), (9, 17, 33), (2, 3, 1100)];
/// (vector_length, num_workers).
const BLOCKS: [(usize, usize); 11] = [(1, 1), (32, 1), (96, 1), (100, 1), (256, 1), (1024, 1), (32, 4), (100, 3), (7, 5), (32, 32), (1, 64)];

#[derive(Clone, Copy, Debug)]
enum Pos {
    /// `s` over k of the first element of each k block; `b` copies `a`.
    Gang,
    /// `out[k]` over j of the first element of each row; `b` copies `a`.
    Worker,
    /// `out[k * nj + j]` over the row.
    Vector,
    /// `s` over (k, j) of the first element of each row; `b` copies `a`.
    GangWorker,
    /// `out[k]` over the k block.
    WorkerVector,
    /// `s` over everything.
    All,
    /// `out[k]` over the k block, and `b` filled with it.
    Phases,
}

type Region<T> = fn(&[T], &mut [T], &mut [T], usize, usize, usize, T, usize, usize) -> T;

fn fold<T: Elem>(init: T, xs: impl Iterator<Item = T>, op: fn(T, T) -> T) -> T {
    xs.fold(init, op)
}

/// What the region must return and leave in `b` and `out`.
fn expected<T: Elem>(pos: Pos, a: &[T], b0: &[T], out0: &[T], (nk, nj, ni): (usize, usize, usize), init: T, op: fn(T, T) -> T) -> (T, Vec<T>, Vec<T>) {
    let (mut b, mut out) = (b0.to_vec(), out0.to_vec());
    let at = |k: usize, j: usize, i: usize| a[(k * nj + j) * ni + i];
    let s = match pos {
        Pos::Gang => {
            b.copy_from_slice(a);
            fold(init, (0..nk).filter(|_| nj * ni > 0).map(|k| a[k * nj * ni]), op)
        }
        Pos::Worker => {
            b.copy_from_slice(a);
            for k in 0..nk {
                out[k] = fold(init, (0..nj).filter(|_| ni > 0).map(|j| at(k, j, 0)), op);
            }
            init
        }
        Pos::Vector => {
            for k in 0..nk {
                for j in 0..nj {
                    out[k * nj + j] = fold(init, (0..ni).map(|i| at(k, j, i)), op);
                }
            }
            init
        }
        Pos::GangWorker => {
            b.copy_from_slice(a);
            fold(init, (0..nk * nj).filter(|_| ni > 0).map(|r| a[r * ni]), op)
        }
        Pos::WorkerVector | Pos::Phases => {
            for k in 0..nk {
                out[k] = fold(init, a[k * nj * ni..(k + 1) * nj * ni].iter().copied(), op);
                if let Pos::Phases = pos {
                    b[k * nj * ni..(k + 1) * nj * ni].fill(out[k]);
                }
            }
            init
        }
        Pos::All => fold(init, a.iter().copied(), op),
    };
    (s, b, out)
}

fn check<T: Elem>(what: &str, pos: Pos, gen: fn(usize) -> Vec<T>, inits: Vec<T>, region: Region<T>, op: fn(T, T) -> T) {
    for (nk, nj, ni) in SHAPES {
        let a = gen(nk * nj * ni);
        for (vl, nw) in BLOCKS {
            for &init in &inits {
                let b0 = vec![init; a.len()];
                let out0 = vec![init; nk * (nj + 1)];
                let (mut b, mut out) = (b0.clone(), out0.clone());
                let s = region(&a, &mut b, &mut out, nk, nj, ni, init, nw, vl);
                let (ws, wb, wout) = expected(pos, &a, &b0, &out0, (nk, nj, ni), init, op);
                let case = format!("{what} on {}: {nk}x{nj}x{ni}, vector_length {vl}, {nw} workers, initial {init:?}", T::NAME);
                assert_eq!(s, ws, "{case}: the reduction variable");
                assert!(out == wout, "{case}: out\\n got {out:?}\\nwant {wout:?}");
                assert!(b == wb, "{case}: b");
            }
        }
    }
}
'''


def main():
    parts = [HEADER]
    cases = []
    for pos in POSITIONS:
        for op, t in COMBOS:
            cases.append((pos, op, t))
    for t in INTS + FLOATS + ["bool"]:
        for op in ops_of(t):
            if (op, t) not in COMBOS:
                cases.append(("gang_worker_vector", op, t))
    for pos, op, t in cases:
        name, src = region(pos, op, t)
        g, inits = gen_of(op, t)
        parts.append("\n" + src)
        parts.append(
            f"\n#[test]\nfn {name}_matches_sequential() {{\n"
            f"    check(\"{pos} {OPS[op][0]}\", {POSITIONS[pos][1]}, {g}, {inits}, {name}, |s, x| {combine(op, 's', 'x')});\n}}\n"
        )
    text = "".join(parts)
    if "--check" in sys.argv:
        cur = open(OUT).read() if os.path.exists(OUT) else ""
        if cur != text:
            print(f"{OUT} is stale: run python3 suite/tests/gen/matrix.py", file=sys.stderr)
            sys.exit(1)
        return
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {OUT}: {len(cases)} regions")


if __name__ == "__main__":
    main()
