//! The differential tester of acc (issue 16): random acc programs, each run on the current
//! device (the host backend, or the GPU with `--features cuda` and `ACC_DEVICE_TYPE=nvidia`) and
//! compared with the sequential Rust of the same program.
//!
//! The programs are in `programs.rs`, written by `python3 suite/tests/gen/difftest.py` from a fixed
//! seed: a few hundred region *shapes* (acc-build compiles the regions it sees in the source,
//! so the randomness of their structure is fixed when the file is written). Each shape then runs
//! at many run-time *inputs* (a case): sizes (0, 1, odd, large), data, initial reduction values,
//! block shapes (`num_gangs`, `num_workers`, `vector_length` are parameters), loop offsets and
//! steps, and the data region around the call (none, `data!` with `copy`/`copyin`/`create`,
//! nested with `present`, `enter_data!`/`exit_data!`, two calls in one region, `update!` between
//! two calls). A case draws all of them from its own seed, derived from the run's seed, the
//! shape and the case number, so any case can be run again alone.
//!
//! ```text
//! ACC_DIFFTEST_SEED=7 ACC_DIFFTEST_CASES=40 ACC_DIFFTEST_MAX=262144 \
//!     cargo test --release -p acc-difftest -- --nocapture
//! ACC_DIFFTEST_ONLY=p017:5 cargo test -p acc-difftest -- --nocapture   # one case again
//! ```
//!
//! Integers must be equal; floats equal within a tolerance scaled by the magnitude bound of
//! what was summed (`Scales`, from the generator's bounds), which covers a different order of
//! additions and nothing else.

#![allow(clippy::too_many_arguments, clippy::type_complexity)]

use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};

mod programs;

pub use programs::SHAPES;

/// The result of one case: `Err` describes the mismatch.
pub type Outcome = Result<(), String>;
/// A shape's runner.
pub type Runner = fn(&mut Case) -> Outcome;

// ---- random numbers ------------------------------------------------------------------------------

/// splitmix64: small, fast, and the same everywhere.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// An integer in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }

    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

fn mix(a: u64, b: u64) -> u64 {
    let mut r = Rng::new(a ^ b.wrapping_mul(0x2545_F491_4F6C_DD1D));
    r.next()
}

// ---- element types ----------------------------------------------------------------------------------

/// How a reduction's initial value is drawn (by the operator it starts).
#[derive(Clone, Copy, Debug)]
pub enum Op {
    Add,
    Mul,
    Max,
    Min,
    /// `max` written `if x > s { s = x }`: no NaN start (that form keeps a NaN, `max` does not).
    MaxOrdered,
    MinOrdered,
    And,
    Or,
    Xor,
}

/// The element types of the programs and the data the generator assumes of them
/// (`suite/tests/gen/difftest.py`: `small`, `wide`).
pub trait Elem: Copy + PartialEq + Debug + Send + Sync + 'static {
    /// Signed integers in `-9..=9`, unsigned in `0..=9`, floats `k / 8` for `k` in `-72..=72`
    /// (zero of either sign), bools either.
    fn small(r: &mut Rng) -> Self;
    /// Integers in the middle half of the type's range (`0..2^(bits-1)` unsigned), floats
    /// `k / 8` for `k` in `-8000..=8000`.
    fn wide(r: &mut Rng) -> Self;
    /// The data of a `*` reduction: 1, or at up to [`Elem::mul_budget`] places a value whose
    /// products cannot overflow from an initial value of magnitude 9 or less.
    fn one() -> Self;
    fn mul_value(r: &mut Rng) -> Self;
    fn mul_budget() -> usize;
    fn init(op: Op, r: &mut Rng) -> Self;
    /// Whether `got` is `want` (floats: within `eps * 64 * (scale + |want|)`).
    fn close(got: Self, want: Self, scale: f64) -> bool;
}

macro_rules! ints {
    ($($t:ident)*) => {$(
        impl Elem for $t {
            fn small(r: &mut Rng) -> Self {
                (if $t::MIN == 0 { r.range(0, 9) } else { r.range(-9, 9) }) as $t
            }
            fn wide(r: &mut Rng) -> Self {
                let bits = $t::BITS;
                if $t::MIN == 0 {
                    (r.next() >> (65 - bits)) as $t
                } else {
                    ((r.next() as i64) >> (66 - bits)) as $t
                }
            }
            fn one() -> Self {
                1
            }
            fn mul_value(r: &mut Rng) -> Self {
                if $t::MIN == 0 { r.pick(&[2, 3]) as $t } else { r.pick(&[-1i64, 2, 3]) as $t }
            }
            fn mul_budget() -> usize {
                // 9 * 3^k <= MAX.
                let mut k = 0;
                let mut p: u128 = 9;
                while p * 3 <= $t::MAX as u128 {
                    p *= 3;
                    k += 1;
                }
                k
            }
            fn init(op: Op, r: &mut Rng) -> Self {
                match op {
                    Op::Add => Self::small(r),
                    Op::Mul => if $t::MIN == 0 { r.pick(&[1, 2, 3]) as $t } else { r.pick(&[1i64, -1, 2, 3]) as $t },
                    Op::Max | Op::MaxOrdered => if r.chance(0.2) { $t::MIN } else { Self::small(r) },
                    Op::Min | Op::MinOrdered => if r.chance(0.2) { $t::MAX } else { Self::small(r) },
                    Op::And => if r.chance(0.3) { !0 } else { r.next() as $t },
                    Op::Or | Op::Xor => r.next() as $t,
                }
            }
            fn close(got: Self, want: Self, _: f64) -> bool {
                got == want
            }
        }
    )*};
}
ints!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

macro_rules! floats {
    ($($t:ident)*) => {$(
        impl Elem for $t {
            fn small(r: &mut Rng) -> Self {
                let k = r.range(-72, 72);
                if k == 0 && r.chance(0.5) { -0.0 } else { k as $t / 8.0 }
            }
            fn wide(r: &mut Rng) -> Self {
                r.range(-8000, 8000) as $t / 8.0
            }
            fn one() -> Self {
                1.0
            }
            fn mul_value(r: &mut Rng) -> Self {
                r.pick(&[-1.0, 2.0, 0.5])
            }
            fn mul_budget() -> usize {
                if $t::MANTISSA_DIGITS < 30 { 30 } else { 100 }
            }
            fn init(op: Op, r: &mut Rng) -> Self {
                match op {
                    Op::Add => Self::small(r),
                    Op::Mul => r.pick(&[1.0, -1.0, 2.0, 0.5, 3.0]),
                    Op::Max => if r.chance(0.2) { $t::NEG_INFINITY } else if r.chance(0.1) { $t::NAN } else { Self::small(r) },
                    Op::Min => if r.chance(0.2) { $t::INFINITY } else if r.chance(0.1) { $t::NAN } else { Self::small(r) },
                    Op::MaxOrdered => if r.chance(0.2) { $t::NEG_INFINITY } else { Self::small(r) },
                    Op::MinOrdered => if r.chance(0.2) { $t::INFINITY } else { Self::small(r) },
                    Op::And | Op::Or | Op::Xor => Self::small(r),
                }
            }
            fn close(got: Self, want: Self, scale: f64) -> bool {
                if got == want || (got.is_nan() && want.is_nan()) {
                    return true;
                }
                let tol = $t::EPSILON as f64 * 64.0 * (scale + (want as f64).abs());
                ((got as f64) - (want as f64)).abs() <= tol
            }
        }
    )*};
}
floats!(f32 f64);

impl Elem for bool {
    fn small(r: &mut Rng) -> Self {
        r.chance(0.5)
    }
    fn wide(r: &mut Rng) -> Self {
        r.chance(0.5)
    }
    fn one() -> Self {
        true
    }
    fn mul_value(_: &mut Rng) -> Self {
        true
    }
    fn mul_budget() -> usize {
        0
    }
    fn init(_: Op, r: &mut Rng) -> Self {
        r.chance(0.5)
    }
    fn close(got: Self, want: Self, _: f64) -> bool {
        got == want
    }
}

/// A region's value (a tuple of its reduction variables and counters) compared with the
/// sequential one: the first component that differs, described.
pub trait Close {
    fn differs(&self, want: &Self, scales: &[f64]) -> Option<String>;
}

impl Close for () {
    fn differs(&self, _: &Self, _: &[f64]) -> Option<String> {
        None
    }
}

macro_rules! tuples {
    ($(($($n:tt $t:ident),*))*) => {$(
        impl<$($t: Elem),*> Close for ($($t,)*) {
            fn differs(&self, want: &Self, scales: &[f64]) -> Option<String> {
                $(
                    if !$t::close(self.$n, want.$n, scales.get($n).copied().unwrap_or(0.0)) {
                        return Some(format!("value {}: got {:?}, want {:?}", $n, self.$n, want.$n));
                    }
                )*
                None
            }
        }
    )*};
}
tuples! {
    (0 A)
    (0 A, 1 B)
    (0 A, 1 B, 2 C)
    (0 A, 1 B, 2 C, 3 D)
    (0 A, 1 B, 2 C, 3 D, 4 E)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I)
    (0 A, 1 B, 2 C, 3 D, 4 E, 5 F, 6 G, 7 H, 8 I, 9 J)
}

fn first_difference<T: Elem>(name: &str, got: &[T], want: &[T], scale: f64) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("`{name}` has {} elements, want {}", got.len(), want.len()));
    }
    let bad: Vec<usize> = (0..got.len()).filter(|&i| !T::close(got[i], want[i], scale)).collect();
    let &i = bad.first()?;
    Some(format!("`{name}` differs at {} of {} elements, first [{i}]: got {:?}, want {:?}", bad.len(), got.len(), got[i], want[i]))
}

// ---- a case ------------------------------------------------------------------------------------------

/// The arrays every program takes: `a` (small) and `b` (wide) to read, `mu` the data of a `*`
/// reduction, `c` (one element per trip of a nest), `o` (one per row), `h` (a histogram of 256
/// bins), `z` (4 scalars), `scr` (a scratch slice, region-level `private`).
#[derive(Clone)]
pub struct Arrays<T, U, H, M> {
    pub a: Vec<T>,
    pub b: Vec<T>,
    pub mu: Vec<M>,
    pub c: Vec<T>,
    pub o: Vec<U>,
    pub h: Vec<H>,
    pub z: Vec<T>,
    pub scr: Vec<T>,
}

/// Tolerance scales (magnitude bounds) of the floats a program leaves in each array and returns.
pub struct Scales {
    pub c: f64,
    pub o: f64,
    pub h: f64,
    pub z: f64,
    pub ret: Vec<f64>,
}

/// The sizes a case may take for `n1` (gang loops), `n2`, `n3` (the innermost loops).
const N1: [usize; 14] = [0, 1, 2, 3, 5, 7, 16, 31, 33, 64, 100, 257, 1000, 4099];
const N2: [usize; 12] = [0, 1, 2, 3, 4, 7, 9, 16, 31, 32, 33, 65];
const N3: [usize; 21] = [0, 1, 2, 3, 5, 8, 31, 32, 33, 64, 100, 127, 128, 129, 255, 256, 257, 1000, 1025, 4099, 65537];

/// One (program, input) case: draws its inputs and compares the two runs.
pub struct Case {
    rng: Rng,
    /// The most elements (`n1 * n2 * n3`) a case may have.
    max_elems: usize,
    /// What was drawn, for the report.
    drawn: Vec<String>,
}

impl Case {
    pub fn new(seed: u64, max_elems: usize) -> Self {
        Case { rng: Rng::new(seed), max_elems, drawn: Vec::new() }
    }

    /// The sizes `(n1, n2, n3)`: drawn, then halved (the largest first) until the program's
    /// integers cannot overflow (`fits`, over the sizes as `f64`) and `n1 * n2 * n3` is at most
    /// the case's limit.
    pub fn dims(&mut self, fits: impl Fn(f64, f64, f64) -> bool) -> (usize, usize, usize) {
        let mut n = [self.rng.pick(&N1), self.rng.pick(&N2), self.rng.pick(&N3)];
        if self.rng.chance(0.3) {
            // A long innermost row with few rows around it.
            n[0] = self.rng.pick(&[1, 2, 3]);
            n[1] = self.rng.pick(&[1, 2]);
        }
        let ok = |n: &[usize; 3]| n[0].saturating_mul(n[1]).saturating_mul(n[2]) <= self.max_elems && fits(n[0] as f64, n[1] as f64, n[2] as f64);
        while !ok(&n) {
            assert!(n != [0, 0, 0], "GENERATOR BUG: no sizes fit the program's integers");
            let i = (0..3).max_by_key(|&i| n[i]).unwrap();
            n[i] = if n[i] > 3 { n[i] / 2 + (n[i] & 1) - 1 } else { n[i] - 1 };
        }
        self.drawn.push(format!("sizes {}x{}x{}", n[0], n[1], n[2]));
        (n[0], n[1], n[2])
    }

    /// The arrays for sizes `(n1, n2, n3)` (`mu` empty unless `uses_mu`).
    pub fn arrays<T: Elem, U: Elem, H: Elem, M: Elem>(&mut self, n1: usize, n2: usize, n3: usize, uses_mu: bool) -> Arrays<T, U, H, M> {
        let nn = n1 * n2 * n3;
        // Rows: `k` (n1 of them) or `k * n2 + j` (n1 * n2).
        let rows = n1 * n2.max(1);
        let r = &mut self.rng;
        let small = |r: &mut Rng, n: usize| (0..n).map(|_| T::small(r)).collect::<Vec<T>>();
        let a = small(r, nn.max(rows) + 2);
        let b = (0..nn.max(rows) + 2).map(|_| T::wide(r)).collect();
        let mut mu = Vec::new();
        if uses_mu {
            mu = vec![M::one(); nn + 2];
            for _ in 0..M::mul_budget().min(r.range(0, 40) as usize) {
                let i = r.below(mu.len() as u64) as usize;
                mu[i] = M::mul_value(r);
            }
            // Only positions never multiplied twice: at most the budget differ from 1.
            let mut left = M::mul_budget();
            for x in mu.iter_mut() {
                if *x != M::one() {
                    if left == 0 {
                        *x = M::one();
                    } else {
                        left -= 1;
                    }
                }
            }
        }
        let c = small(r, nn + 1);
        let o = (0..rows + 1).map(|_| U::small(r)).collect();
        let h = (0..256).map(|_| H::small(r)).collect();
        let z = small(r, 4);
        let scr = small(r, 16);
        Arrays { a, b, mu, c, o, h, z, scr }
    }

    /// A loop offset (`lo..lo + n`).
    pub fn lo(&mut self) -> usize {
        let v = self.rng.pick(&[0, 0, 1, 3, 1000]);
        self.drawn.push(format!("lo {v}"));
        v
    }

    /// A loop step (`step_by(st)`), also the run-time stride `st - 1` of `kernels` loops.
    pub fn step(&mut self) -> usize {
        let v = self.rng.pick(&[1, 1, 1, 2, 3, 7, 64]);
        self.drawn.push(format!("step {v}"));
        v
    }

    /// A small value (the programs' `kk`).
    pub fn small<T: Elem>(&mut self) -> T {
        T::small(&mut self.rng)
    }

    /// A reduction's initial value.
    pub fn init<T: Elem>(&mut self, op: Op) -> T {
        let v = T::init(op, &mut self.rng);
        self.drawn.push(format!("init {v:?}"));
        v
    }

    /// `(num_gangs, num_workers, vector_length)`.
    pub fn block(&mut self) -> (usize, usize, usize) {
        let g = self.rng.pick(&[1, 2, 3, 5, 32, 160, 1000]);
        let w = self.rng.pick(&[1, 1, 2, 3, 4, 8, 32]);
        let v = self.rng.pick(&[1, 2, 7, 32, 32, 33, 64, 96, 100, 128, 256, 1000, 1024]);
        self.drawn.push(format!("gangs {g} workers {w} vector {v}"));
        (g, w, v)
    }

    /// Runs the sequential fn and the acc region on copies of `x` inside a data region drawn
    /// for the case, and compares what they return and leave in the arrays.
    pub fn compare<T: Elem, U: Elem, H: Elem, M: Elem, R: Close>(
        &mut self,
        x: Arrays<T, U, H, M>,
        sc: Scales,
        seq: impl Fn(&[T], &[T], &[M], &mut [T], &mut [U], &mut [H], &mut [T], &mut [T]) -> R,
        acc: impl Fn(&[T], &[T], &[M], &mut [T], &mut [U], &mut [H], &mut [T], &mut [T]) -> R,
    ) -> Outcome {
        let mode = self.rng.below(6);
        self.drawn.push(MODES[mode as usize].to_string());
        let twice = mode >= 4;
        // The sequential program (twice where the acc one runs twice).
        let mut w = x.clone();
        let want = catch_unwind(AssertUnwindSafe(|| {
            let first = seq(&w.a, &w.b, &w.mu, &mut w.c, &mut w.o, &mut w.h, &mut w.z, &mut w.scr);
            let snap = (w.c.clone(), w.o.clone(), w.h.clone(), w.z.clone());
            let second = twice.then(|| seq(&w.a, &w.b, &w.mu, &mut w.c, &mut w.o, &mut w.h, &mut w.z, &mut w.scr));
            (first, snap, second)
        }))
        .map_err(|e| format!("GENERATOR BUG: the sequential program panicked: {}", panic_text(e)))?;
        let scr0 = x.scr.clone();
        let Arrays { a, b, mu, mut c, mut o, mut h, mut z, mut scr } = x;
        let mut snap = None;
        let got = catch_unwind(AssertUnwindSafe(|| match mode {
            0 => (acc(&a, &b, &mu, &mut c, &mut o, &mut h, &mut z, &mut scr), None),
            1 => acc::data!(copyin(a, b, mu), copy(c, o, h, z), create(scr) {
                (acc(&a, &b, &mu, &mut c, &mut o, &mut h, &mut z, &mut scr), None)
            }),
            2 => acc::data!(copy(c, o, h, z) {
                acc::data!(copyin(a, b, mu), present(c, o, h, z) {
                    (acc(&a, &b, &mu, &mut c, &mut o, &mut h, &mut z, &mut scr), None)
                })
            }),
            3 => {
                acc::enter_data!(copyin(a, b, mu, c, o, h, z));
                let r = acc(&a, &b, &mu, &mut c, &mut o, &mut h, &mut z, &mut scr);
                acc::exit_data!(copyout(c, o, h, z), delete(a, b, mu));
                (r, None)
            }
            4 => acc::data!(copyin(a, b, mu), copy(c, o, h, z, scr) {
                let first = acc(&a, &b, &mu, &mut c, &mut o, &mut h, &mut z, &mut scr);
                (first, Some(acc(&a, &b, &mu, &mut c, &mut o, &mut h, &mut z, &mut scr)))
            }),
            _ => acc::data!(copyin(a, b, mu), copy(c, o, h, z) {
                let first = acc(&a, &b, &mu, &mut c, &mut o, &mut h, &mut z, &mut scr);
                acc::update!(host(c, o, h, z));
                snap = Some((c.clone(), o.clone(), h.clone(), z.clone()));
                (first, Some(acc(&a, &b, &mu, &mut c, &mut o, &mut h, &mut z, &mut scr)))
            }),
        }));
        let (got_first, got_second) = match got {
            Ok(g) => g,
            Err(e) => {
                if mode == 3 {
                    // Leave nothing present for the next case.
                    let _ = catch_unwind(AssertUnwindSafe(|| acc::exit_data!(delete(a, b, mu, c, o, h, z), finalize)));
                }
                return Err(format!("the acc program panicked: {}", panic_text(e)));
            }
        };
        let (want_first, want_snap, want_second) = want;
        let mut diffs = Vec::new();
        diffs.extend(got_first.differs(&want_first, &sc.ret).map(|d| format!("first call: {d}")));
        if let (Some(g), Some(w)) = (&got_second, &want_second) {
            diffs.extend(g.differs(w, &sc.ret).map(|d| format!("second call: {d}")));
        }
        if let Some((sc_, so, sh, sz)) = &snap {
            let (wc, wo, wh, wz) = &want_snap;
            diffs.extend(first_difference("c after update!(host)", sc_, wc, sc.c));
            diffs.extend(first_difference("o after update!(host)", so, wo, sc.o));
            diffs.extend(first_difference("h after update!(host)", sh, wh, sc.h));
            diffs.extend(first_difference("z after update!(host)", sz, wz, sc.z));
        }
        diffs.extend(first_difference("c", &c, &w.c, sc.c));
        diffs.extend(first_difference("o", &o, &w.o, sc.o));
        diffs.extend(first_difference("h", &h, &w.h, sc.h));
        diffs.extend(first_difference("z", &z, &w.z, sc.z));
        diffs.extend(first_difference("scr (private: never copied back)", &scr, &scr0, 0.0));
        if diffs.is_empty() {
            Ok(())
        } else {
            Err(diffs.join("; "))
        }
    }
}

/// The data regions around a case's call, by mode.
const MODES: [&str; 6] = [
    "no data region",
    "data!(copyin, copy, create)",
    "data!(copy) around data!(copyin, present)",
    "enter_data!/exit_data!",
    "two calls in one data!",
    "two calls in one data!, update!(host) between",
];

fn panic_text(e: Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_else(|| "(no message)".into())
}

// ---- a run ---------------------------------------------------------------------------------------------

/// What a run does, from the environment.
#[derive(Clone, Debug)]
pub struct Config {
    /// `ACC_DIFFTEST_SEED` (default 1).
    pub seed: u64,
    /// `ACC_DIFFTEST_CASES`: inputs per shape (default 10).
    pub cases: usize,
    /// `ACC_DIFFTEST_MAX`: the most elements of a case (default 16384).
    pub max_elems: usize,
    /// `ACC_DIFFTEST_SHAPES`: `a..b` (shape numbers) or empty for all.
    pub shapes: std::ops::Range<usize>,
    /// `ACC_DIFFTEST_ONLY=p017:5`: that case alone.
    pub only: Option<(usize, usize)>,
    /// `ACC_DIFFTEST_VERBOSE=1`: a line per case, with its inputs.
    pub verbose: bool,
}

impl Config {
    pub fn from_env() -> Self {
        let num = |k: &str, d: usize| std::env::var(k).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(d);
        let shapes = std::env::var("ACC_DIFFTEST_SHAPES")
            .ok()
            .and_then(|v| {
                let (a, b) = v.split_once("..")?;
                Some(a.trim().parse().ok()?..b.trim().parse::<usize>().ok()?.min(SHAPES.len()))
            })
            .unwrap_or(0..SHAPES.len());
        let only = std::env::var("ACC_DIFFTEST_ONLY").ok().and_then(|v| {
            let (p, c) = v.split_once(':')?;
            Some((p.trim_start_matches('p').parse().ok()?, c.parse().ok()?))
        });
        Config { seed: num("ACC_DIFFTEST_SEED", 1) as u64, cases: num("ACC_DIFFTEST_CASES", 10), max_elems: num("ACC_DIFFTEST_MAX", 1 << 14), shapes, only, verbose: num("ACC_DIFFTEST_VERBOSE", 0) != 0 }
    }
}

/// The counts of a run.
#[derive(Debug, Default)]
pub struct Report {
    pub shapes: usize,
    pub cases: usize,
    pub failed: usize,
    pub failures: Vec<String>,
}

/// The seed of case `case` of shape `shape`.
pub fn case_seed(seed: u64, shape: usize, case: usize) -> u64 {
    mix(mix(seed, shape as u64 + 1), case as u64 + 1)
}

/// Runs the configured cases on the current device; prints each mismatch as it is found.
pub fn run(cfg: &Config) -> Report {
    let mut rep = Report::default();
    let list: Vec<(usize, usize)> = match cfg.only {
        Some(one) => vec![one],
        None => cfg.shapes.clone().flat_map(|s| (0..cfg.cases).map(move |c| (s, c))).collect(),
    };
    let mut shapes_seen = std::collections::BTreeSet::new();
    for (s, k) in list {
        shapes_seen.insert(s);
        let mut cx = Case::new(case_seed(cfg.seed, s, k), cfg.max_elems);
        let out = SHAPES[s](&mut cx);
        rep.cases += 1;
        if cfg.verbose {
            println!("p{s:03}:{k} ({}): {}", cx.drawn.join(", "), if out.is_ok() { "ok" } else { "MISMATCH" });
        }
        if let Err(e) = out {
            rep.failed += 1;
            let line = format!("MISMATCH p{s:03}:{k} ({}): {e}", cx.drawn.join(", "));
            println!("{line}");
            rep.failures.push(line);
        }
    }
    rep.shapes = shapes_seen.len();
    rep
}
