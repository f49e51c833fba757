//! The `kernels` dependence test: fixed cases, and a property test that checks every verdict
//! of independence against brute-force conflict detection.

use super::*;

/// `dependence_nest` of the loop written in `src` (a `for` loop), `depth` loops collapsed.
fn verdict(src: &str, depth: usize, reductions: &[&str]) -> Option<String> {
    let f: ExprForLoop = syn::parse_str(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    let reds: Vec<Ident> = reductions.iter().map(|r| Ident::new(r, Span::call_site())).collect();
    dependence_nest(&f, depth, &reds, &crate::syntax::inner_decls(&f.body)).map(|(_, m)| m)
}

fn independent(src: &str) -> bool {
    verdict(src, 1, &[]).is_none()
}

#[test]
fn literal_strides_and_offsets_are_independent() {
    for idx in ["i", "i * 4", "4 * i", "i + d", "d + i", "i - 1", "i * 2 + 1", "1 + 3 * i", "(i * 2) + off.len()", "i + p.q"] {
        assert!(independent(&format!("for i in 0..n {{ a[{idx}] += 1; }}")), "{idx}");
    }
}

#[test]
fn strides_known_only_at_run_time_are_not() {
    // `s` may be 0 at run time: every iteration would hit a[0].
    for idx in ["i * s", "s * i", "i * s + d", "i * (s + 1)", "i * 0", "0 * i + d", "i * n.len()"] {
        let v = verdict(&format!("for i in 0..n {{ a[{idx}] += 1; }}"), 1, &[]);
        assert!(v.as_deref().is_some_and(|m| m.contains("may write one element")), "{idx}: {v:?}");
    }
}

#[test]
fn narrowing_casts_are_never_looked_through() {
    for idx in ["(i as u8) as usize", "i as u8 as usize", "(i as u16) as usize", "(i as i32) as usize", "(i * 2) as usize", "(i * 2 + 1) as usize", "(i as u32 * 4) as usize"] {
        assert!(!independent(&format!("for i in 0..n {{ a[{idx}] += 1; }}")), "{idx}");
    }
    for idx in ["i as usize", "(i as usize) * 2", "((i as u64) * 2) as usize", "(i * 2u64) as usize", "(i + d) as usize", "i as isize as usize"] {
        assert!(independent(&format!("for i in 0..n {{ a[{idx}] += 1; }}")), "{idx}");
    }
}

#[test]
fn rows_of_an_inner_loop() {
    assert!(independent("for i in 0..n { for j in 0..m { a[i * m + j] = 0.0; } }"));
    assert!(independent("for i in 0..n { for j in 0..m { a[j + m * i] = 0.0; } }"));
    // Within the row: a literal start, the row's length less a literal.
    for range in ["1..m", "1..m - 1", "2..m - 2", "0..m - 1", "0..(m - 3)"] {
        assert!(independent(&format!("for i in 0..n {{ for j in {range} {{ a[i * m + j] = 0.0; }} }}")), "{range}");
    }
    // Over a different bound, or past the row's end, rows overlap.
    for range in ["0..k", "1..k", "0..m + 1", "1..m - d", "d..m", "1..m * 2"] {
        assert!(!independent(&format!("for i in 0..n {{ for j in {range} {{ a[i * m + j] = 0.0; }} }}")), "{range}");
    }
    // The inner variable may be changed by the body.
    assert!(!independent("for i in 0..n { for mut j in 0..m { j += 3; a[i * m + j] = 0.0; } }"));
    // Or is bound again.
    assert!(!independent("for i in 0..n { for j in 0..m { let j = j * 2; a[i * m + j] = 0.0; } }"));
}

#[test]
fn collapsed_nests_need_an_index_injective_in_all_their_variables() {
    let nest = |idx: &str| verdict(&format!("for i in 0..n {{ for j in 0..m {{ a[{idx}] += b[j]; }} }}"), 2, &[]);
    // Every `j` of one `i` writes `a[i]`: a race once the nest is flattened.
    assert!(nest("i").is_some());
    assert!(nest("i * m + j").is_none());
    assert!(nest("j + i * m").is_none());
    assert!(nest("(i as usize) * m + j").is_none());
    assert!(nest("i * k + j").is_some());
    assert!(nest("j * n + i").is_some());
    // The inner loop within the row: NVIDIA's Jacobi sweep.
    let jacobi = "for j in 1..n - 1 { for i in 1..m - 1 { let v = 0.25 * (a[j * m + i - 1] + a[(j + 1) * m + i]); err = err.max(v); anew[j * m + i] = v; } }";
    assert!(verdict(jacobi, 2, &["err"]).is_none());
    assert!(verdict(jacobi, 1, &["err"]).is_none());
    assert!(verdict("for i in 0..n { for j in 1..m + 1 { a[i * m + j] += 1; } }", 2, &[]).is_some());
    // Three levels, row-major.
    let v = verdict("for i in 0..n { for j in 0..m { for k in 0..p { a[(i * m + j) * p + k] = 1; } } }", 3, &[]);
    assert!(v.is_none(), "{v:?}");
    let v = verdict("for i in 0..n { for j in 0..m { for k in 0..p { a[(i * m + j) * m + k] = 1; } } }", 3, &[]);
    assert!(v.is_some());
}

#[test]
fn offsets_must_be_pure_and_invariant() {
    assert!(!independent("for i in 0..n { a[i + next()] = 1; }"));
    assert!(!independent("for i in 0..n { a[i + c.load()] = 1; }"));
    assert!(!independent("for i in 0..n { let d = i; a[i + d] = 1; }"));
    assert!(!independent("for i in 0..n { let i = 0; a[i] = 1; }"));
    // A reduction variable changes in every iteration.
    assert!(verdict("for i in 0..n { s += 1; a[i + s] = 1; }", 1, &["s"]).is_some());
    assert!(verdict("for i in 0..n { s += a[i]; }", 1, &["s"]).is_none());
}

#[test]
fn other_dependences() {
    assert!(!independent("for i in 1..n { a[i] = a[i - 1] + 1.0; }"));
    assert!(!independent("for i in 0..n { t = i; a[i] = t; }"));
    assert!(!independent("for i in 0..n { f(&mut a); }"));
    assert!(!independent("for mut i in 0..n { i /= 2; a[i] = 1; }"));
}

// ---- the property test ----------------------------------------------------------------

/// xorshift64*: a small seeded generator (the test must be reproducible).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ty {
    U8,
    U16,
    U32,
    U64,
    Usize,
    I8,
    I16,
    I32,
    I64,
    Isize,
}

const TYPES: [Ty; 10] = [Ty::U8, Ty::U16, Ty::U32, Ty::U64, Ty::Usize, Ty::I8, Ty::I16, Ty::I32, Ty::I64, Ty::Isize];

impl Ty {
    fn bits(self) -> u32 {
        match self {
            Ty::U8 | Ty::I8 => 8,
            Ty::U16 | Ty::I16 => 16,
            Ty::U32 | Ty::I32 => 32,
            _ => 64,
        }
    }
    fn signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64 | Ty::Isize)
    }
    fn name(self) -> &'static str {
        match self {
            Ty::U8 => "u8",
            Ty::U16 => "u16",
            Ty::U32 => "u32",
            Ty::U64 => "u64",
            Ty::Usize => "usize",
            Ty::I8 => "i8",
            Ty::I16 => "i16",
            Ty::I32 => "i32",
            Ty::I64 => "i64",
            Ty::Isize => "isize",
        }
    }
    /// `v` as a value of this type (two's complement wrap, what `as` and release-build
    /// arithmetic do).
    fn wrap(self, v: i128) -> i128 {
        let bits = self.bits();
        let m = v & ((1i128 << bits) - 1);
        if self.signed() && m >= 1i128 << (bits - 1) {
            m - (1i128 << bits)
        } else {
            m
        }
    }
    fn min(self) -> i128 {
        if self.signed() { -(1i128 << (self.bits() - 1)) } else { 0 }
    }
    fn max(self) -> i128 {
        if self.signed() { (1i128 << (self.bits() - 1)) - 1 } else { (1i128 << self.bits()) - 1 }
    }
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// An index expression over `i` (the parallel loop's variable), `j` (an inner or collapsed
/// loop's variable, over `0..n`), literals and the invariants `s d n m`.
#[derive(Clone, Debug)]
enum Ix {
    Var,
    Inner,
    Lit(u64),
    Inv(usize),
    Cast(Box<Ix>, Ty),
    Bin(Op, Box<Ix>, Box<Ix>),
}

const INVS: [&str; 4] = ["s", "d", "n", "m"];
const N: usize = 2;

impl Ix {
    fn text(&self) -> String {
        match self {
            Ix::Var => "i".into(),
            Ix::Inner => "j".into(),
            Ix::Lit(c) => c.to_string(),
            Ix::Inv(k) => INVS[*k].into(),
            Ix::Cast(x, t) => format!("({} as {})", x.text(), t.name()),
            Ix::Bin(op, l, r) => {
                let o = match op {
                    Op::Add => "+",
                    Op::Sub => "-",
                    Op::Mul => "*",
                    Op::Div => "/",
                    Op::Rem => "%",
                };
                format!("({} {o} {})", l.text(), r.text())
            }
        }
    }

    fn mentions_inner(&self) -> bool {
        match self {
            Ix::Inner => true,
            Ix::Cast(x, _) => x.mentions_inner(),
            Ix::Bin(_, l, r) => l.mentions_inner() || r.mentions_inner(),
            _ => false,
        }
    }

    /// The type Rust gives the expression, `Ok(None)` when it takes its context's (literals,
    /// invariants and `j` are inferred); `Err` when the operands' types differ.
    fn ty(&self, var: Ty) -> Result<Option<Ty>, ()> {
        match self {
            Ix::Var => Ok(Some(var)),
            Ix::Inner | Ix::Lit(_) | Ix::Inv(_) => Ok(None),
            Ix::Cast(x, t) => x.ty(var).map(|_| Some(*t)),
            Ix::Bin(_, l, r) => match (l.ty(var)?, r.ty(var)?) {
                (Some(a), Some(b)) if a != b => Err(()),
                (a, b) => Ok(a.or(b)),
            },
        }
    }

    /// The value with release-build semantics (wrapping), `None` on a division by zero.
    fn eval(&self, ctx: Ty, var: Ty, env: &Env) -> Option<i128> {
        Some(match self {
            Ix::Var => env.i,
            Ix::Inner => ctx.wrap(env.j),
            Ix::Lit(c) => ctx.wrap(*c as i128),
            Ix::Inv(k) => ctx.wrap(env.inv[*k]),
            Ix::Cast(x, t) => {
                let inner = x.ty(var).ok()?.unwrap_or(*t);
                t.wrap(x.eval(inner, var, env)?)
            }
            Ix::Bin(op, l, r) => {
                let t = self.ty(var).ok()?.unwrap_or(ctx);
                let (a, b) = (l.eval(t, var, env)?, r.eval(t, var, env)?);
                t.wrap(match op {
                    Op::Add => a.wrapping_add(b),
                    Op::Sub => a.wrapping_sub(b),
                    Op::Mul => a.wrapping_mul(b),
                    Op::Div if b == 0 => return None,
                    Op::Div => a / b,
                    Op::Rem if b == 0 => return None,
                    Op::Rem => a % b,
                })
            }
        })
    }
}

struct Env {
    i: i128,
    j: i128,
    inv: [i128; 4],
}

fn lit(r: &mut Rng) -> Ix {
    Ix::Lit(r.pick(&[0, 1, 2, 3, 4, 7, 128, 256]))
}

fn inv(r: &mut Rng) -> Ix {
    Ix::Inv(r.below(4) as usize)
}

/// A random index expression of about `depth` levels, biased to the forms the analysis
/// knows and their near misses.
fn gen(r: &mut Rng, depth: u32, inner: bool) -> Ix {
    if depth == 0 {
        return match r.below(8) {
            0 if inner => Ix::Inner,
            _ => Ix::Var,
        };
    }
    let x = |r: &mut Rng| Box::new(gen(r, depth - 1, inner));
    let b = Box::new;
    match r.below(17) {
        0 => Ix::Var,
        1 => Ix::Cast(x(r), r.pick(&TYPES)),
        2 => Ix::Bin(Op::Mul, x(r), b(lit(r))),
        3 => Ix::Bin(Op::Mul, b(lit(r)), x(r)),
        4 => Ix::Bin(Op::Mul, x(r), b(inv(r))),
        5 => Ix::Bin(Op::Add, x(r), b(inv(r))),
        6 => Ix::Bin(Op::Add, b(inv(r)), x(r)),
        7 => Ix::Bin(Op::Add, x(r), b(lit(r))),
        8 => Ix::Bin(Op::Sub, x(r), b(inv(r))),
        9 => Ix::Bin(Op::Rem, x(r), b(inv(r))),
        10 => Ix::Bin(Op::Div, x(r), b(inv(r))),
        11 | 12 if inner => {
            // `x * n + j`, the row-major form, or with another bound (`m`, `s`).
            let bound = if r.below(2) == 0 { Ix::Inv(2) } else { inv(r) };
            let prod = if r.below(2) == 0 { Ix::Bin(Op::Mul, x(r), b(bound)) } else { Ix::Bin(Op::Mul, b(bound), x(r)) };
            if r.below(2) == 0 { Ix::Bin(Op::Add, b(prod), b(Ix::Inner)) } else { Ix::Bin(Op::Add, b(Ix::Inner), b(prod)) }
        }
        13 if inner => Ix::Bin(Op::Add, x(r), b(Ix::Inner)),
        14 => Ix::Cast(x(r), r.pick(&[Ty::Usize, Ty::U64, Ty::I64, Ty::Isize])),
        15 => Ix::Bin(Op::Add, x(r), x(r)),
        _ => Ix::Cast(b(Ix::Var), r.pick(&TYPES)),
    }
}

/// Values an invariant takes in a trial: mostly small, zero often, some large.
fn value(r: &mut Rng) -> i128 {
    match r.below(10) {
        0..=1 => 0,
        2..=6 => r.below(5) as i128,
        7 => r.pick(&[7i128, 64, 127, 128, 255, 256]),
        8 => -(r.below(4) as i128) - 1,
        _ => r.pick(&[1i128 << 31, 1i128 << 32, (1i128 << 63) - 1, 1i128 << 62]),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// `for i { a[IDX] += 1 }`
    Flat,
    /// `for i { for j in 0..n { a[IDX] += 1 } }`, `i` parallel
    Inner,
    /// the same nest with `collapse(2)`: `(i, j)` parallel
    Collapsed,
}

/// Whether two different parallel iterations write one element, over `trials` random
/// environments; `Some(witness)` when they do.
fn conflict(ix: &Ix, var: Ty, shape: Shape, r: &mut Rng, trials: usize) -> Option<String> {
    conflict_over(ix, var, shape, (0, 0), r, trials)
}

/// [`conflict`] with the inner loop over `lo..n - trim` (`jr = (lo, trim)`; `0..n` in
/// [`conflict`]).
fn conflict_over(ix: &Ix, var: Ty, shape: Shape, jr: (i128, i128), r: &mut Rng, trials: usize) -> Option<String> {
    for _ in 0..trials {
        let inv = [value(r), value(r), value(r), value(r)];
        // The loop over `i`: a contiguous range of the variable's type, near 0 or near its
        // ends; the whole type for the narrow ones now and then.
        let (lo, hi) = if var.bits() <= 8 && r.below(4) == 0 {
            (var.min(), var.max())
        } else {
            // Longer than 256 now and then, so that a narrowing to 8 bits repeats values.
            let len = if r.below(5) == 0 { 250 + r.below(300) as i128 } else { r.below(40) as i128 };
            let lo = match r.below(4) {
                0 => var.min(),
                1 => var.max() - len,
                2 => -(r.below(50) as i128),
                _ => r.below(300) as i128,
            };
            let lo = lo.clamp(var.min(), var.max());
            (lo, (lo + len).min(var.max()))
        };
        // `j` over `0..n` (n as the inner loop's bound: small, non-negative).
        let n = if shape == Shape::Flat { 1 } else { var.wrap(inv[N]).clamp(0, 6) };
        let inv = if shape == Shape::Flat { inv } else { [inv[0], inv[1], n, inv[3]] };
        let mut seen: std::collections::HashMap<i128, (i128, i128)> = std::collections::HashMap::new();
        for i in lo..hi {
            for j in jr.0..n - jr.1 {
                let env = Env { i, j, inv };
                let Some(v) = ix.eval(Ty::Usize, var, &env) else { continue };
                let v = Ty::Usize.wrap(v);
                if let Some(&(pi, pj)) = seen.get(&v) {
                    let clash = match shape {
                        Shape::Collapsed => (pi, pj) != (i, j),
                        _ => pi != i,
                    };
                    if clash {
                        return Some(format!("i: {} in {lo}..{hi}, s d n m = {inv:?}: (i, j) = ({pi}, {pj}) and ({i}, {j}) both write a[{v}]", var.name()));
                    }
                }
                seen.insert(v, (i, j));
            }
        }
    }
    None
}

#[test]
fn every_independent_verdict_survives_brute_force() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut accepted = 0;
    let mut rejected = 0;
    let mut accepted_forms = std::collections::BTreeSet::new();
    let mut accepted_trimmed = 0;
    for case in 0..6000 {
        let shape = [Shape::Flat, Shape::Inner, Shape::Collapsed][case % 3];
        let var = r.pick(&TYPES);
        let depth = 1 + r.below(3) as u32;
        let mut ix = gen(&mut r, depth, shape != Shape::Flat);
        if shape != Shape::Flat && !ix.mentions_inner() && r.below(2) == 0 {
            ix = Ix::Bin(Op::Add, Box::new(Ix::Bin(Op::Mul, Box::new(ix), Box::new(Ix::Inv(N)))), Box::new(Ix::Inner));
        }
        // Only expressions Rust would type: operands agree, and the index is a `usize`.
        let Ok(t) = ix.ty(var) else { continue };
        if t.is_some_and(|t| t != Ty::Usize) {
            ix = Ix::Cast(Box::new(ix), Ty::Usize);
        }
        let idx = ix.text();
        // The inner loop over `0..n`, or within it (`1..n - 1`, ...).
        let jr = if shape == Shape::Flat { (0, 0) } else { r.pick(&[(0, 0), (0, 0), (1, 0), (1, 1), (2, 1), (0, 2)]) };
        let jrange = if jr.1 == 0 { format!("{}..n", jr.0) } else { format!("{}..n - {}", jr.0, jr.1) };
        let src = match shape {
            Shape::Flat => format!("for i in lo..hi {{ a[{idx}] += 1; }}"),
            _ => format!("for i in lo..hi {{ for j in {jrange} {{ a[{idx}] += 1; }} }}"),
        };
        let depth = if shape == Shape::Collapsed { 2 } else { 1 };
        if verdict(&src, depth, &[]).is_some() {
            rejected += 1;
            continue;
        }
        accepted += 1;
        accepted_trimmed += usize::from(jr != (0, 0));
        accepted_forms.insert(idx.clone());
        if let Some(w) = conflict_over(&ix, var, shape, jr, &mut r, 25) {
            panic!("judged independent ({shape:?}, j in {jrange}), but it is not: a[{idx}]: {w}");
        }
    }
    // The property is not vacuous: many forms pass, many fail.
    assert!(accepted_forms.len() >= 150, "{} forms accepted ({accepted} cases)", accepted_forms.len());
    assert!(rejected >= 1000, "{rejected} rejected");
    assert!(accepted_trimmed >= 100, "{accepted_trimmed} accepted with the inner loop within the row");
}

/// The brute force itself finds the races of the loops.
#[test]
fn brute_force_finds_the_known_races() {
    let mut r = Rng(7);
    let s_times_i = Ix::Bin(Op::Mul, Box::new(Ix::Var), Box::new(Ix::Inv(0)));
    assert!(conflict(&s_times_i, Ty::Usize, Shape::Flat, &mut r, 50).is_some());
    let via_u8 = Ix::Cast(Box::new(Ix::Cast(Box::new(Ix::Var), Ty::U8)), Ty::Usize);
    assert!(conflict(&via_u8, Ty::Usize, Shape::Flat, &mut r, 50).is_some());
    assert!(conflict(&via_u8, Ty::U16, Shape::Flat, &mut r, 50).is_some());
    let scaled_u8 = Ix::Cast(Box::new(Ix::Bin(Op::Mul, Box::new(Ix::Var), Box::new(Ix::Lit(2)))), Ty::Usize);
    assert!(conflict(&scaled_u8, Ty::U8, Shape::Flat, &mut r, 50).is_some());
    assert!(conflict(&Ix::Var, Ty::Usize, Shape::Collapsed, &mut r, 50).is_some());
    assert!(conflict(&Ix::Var, Ty::Usize, Shape::Inner, &mut r, 50).is_none());
}
