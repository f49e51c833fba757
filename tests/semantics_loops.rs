//! Loops (DESIGN §2 "Loops", §4.2): the accepted forms `a..b`, `a..=b`, `(a..b).step_by(s)` on
//! every integer type with zero, one, odd and large trip counts and non-zero or negative
//! bounds; every level combination; nests, `collapse`, `tile`, `private`, `seq` loops with
//! loop-carried dependences, `continue`. Each visits exactly the iterations that the same
//! loop in plain Rust visits.

mod common;
use common::*;

/// Marks an element no iteration wrote.
const UNTOUCHED: i64 = i64::MIN + 12345;

/// Bound pairs for a loop variable of type `T`: the pairs that fit `T` and give at most 2^17
/// iterations.
fn bounds<T: TryFrom<i128> + Copy>(min: i128, max: i128) -> Vec<(T, T)> {
    let cases = [
        (0, 0),
        (0, 1),
        (5, 3),
        (7, 7),
        (3, 1004),
        (-50, 50),
        (-1000, -10),
        (-3, -2),
        (-70_000, 30_001),
        (100_000, 165_537),
        (min, min + 10),
        (max - 10, max),
        (min, max),
        (max - 1, max),
    ];
    cases
        .into_iter()
        .filter(|&(lo, hi)| hi - lo <= 1 << 17)
        .filter_map(|(lo, hi)| Some((T::try_from(lo).ok()?, T::try_from(hi).ok()?)))
        .collect()
}

const STEPS: [usize; 6] = [1, 2, 7, 1000, 1 << 20, usize::MAX];

/// Runs a region filling `out[(i - lo) / step] = i` and compares with the values the plain
/// Rust loop takes, in order; every slot must be written once, no iteration may fall outside.
fn check_form<T: std::fmt::Debug>(what: &str, lo: T, hi: T, step: usize, want: Vec<i64>, region: impl Fn(&mut [i64])) {
    let mut out = vec![UNTOUCHED; want.len()];
    region(&mut out);
    assert_eq!(out, want, "{what}: lo {lo:?}, hi {hi:?}, step {step}");
}

/// One module per loop form; one test per loop-variable type.
macro_rules! loop_forms {
    ($($t:ident),*) => {
        mod range { use super::*; $(
            #[test]
            fn $t() {
                #[acc::parallel]
                fn $t(out: &mut [i64], lo: $t, hi: $t) {
                    #[acc::r#loop(gang, vector)]
                    for i in lo..hi {
                        let k = (i as i64).wrapping_sub(lo as i64) as usize;
                        out[k] = i as i64;
                    }
                }
                for (lo, hi) in bounds::<$t>($t::MIN as i128, $t::MAX as i128) {
                    check_form("lo..hi", lo, hi, 1, (lo..hi).map(|i| i as i64).collect(), |out| $t(out, lo, hi));
                }
            }
        )* }

        mod inclusive { use super::*; $(
            #[test]
            fn $t() {
                #[acc::parallel]
                fn $t(out: &mut [i64], lo: $t, hi: $t) {
                    #[acc::r#loop(gang, vector)]
                    for i in lo..=hi {
                        let k = (i as i64).wrapping_sub(lo as i64) as usize;
                        out[k] = i as i64;
                    }
                }
                for (lo, hi) in bounds::<$t>($t::MIN as i128, $t::MAX as i128) {
                    check_form("lo..=hi", lo, hi, 1, (lo..=hi).map(|i| i as i64).collect(), |out| $t(out, lo, hi));
                }
            }
        )* }

        mod step_by { use super::*; $(
            #[test]
            fn $t() {
                #[acc::parallel]
                fn $t(out: &mut [i64], lo: $t, hi: $t, step: usize) {
                    #[acc::r#loop(gang, vector)]
                    for i in (lo..hi).step_by(step) {
                        let k = (i as i64).wrapping_sub(lo as i64) as u64 as usize / step;
                        out[k] = i as i64;
                    }
                }
                for (lo, hi) in bounds::<$t>($t::MIN as i128, $t::MAX as i128) {
                    for step in STEPS {
                        check_form("(lo..hi).step_by(s)", lo, hi, step, (lo..hi).step_by(step).map(|i| i as i64).collect(), |out| $t(out, lo, hi, step));
                    }
                }
            }
        )* }

        mod inclusive_step_by { use super::*; $(
            #[test]
            fn $t() {
                #[acc::parallel]
                fn $t(out: &mut [i64], lo: $t, hi: $t, step: usize) {
                    #[acc::r#loop(gang, vector)]
                    for i in (lo..=hi).step_by(step) {
                        let k = (i as i64).wrapping_sub(lo as i64) as u64 as usize / step;
                        out[k] = i as i64;
                    }
                }
                for (lo, hi) in bounds::<$t>($t::MIN as i128, $t::MAX as i128) {
                    for step in STEPS {
                        check_form("(lo..=hi).step_by(s)", lo, hi, step, (lo..=hi).step_by(step).map(|i| i as i64).collect(), |out| $t(out, lo, hi, step));
                    }
                }
            }
        )* }
    };
}

loop_forms!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// Sizes for one-dimensional loops.
const SIZES: [usize; 7] = [0, 1, 2, 3, 7, 1001, 65537];

/// Every combination of levels on one loop (and `seq`, `auto`, `independent`, none) computes
/// the same elementwise result.
macro_rules! level_combinations {
    ($($name:ident: ($($clause:tt)*);)*) => {
        mod levels { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[i32], b: &[i32], c: &mut [i32]) {
                    #[acc::r#loop($($clause)*)]
                    for i in 0..c.len() {
                        c[i] = a[i] * 3 - b[i];
                    }
                }
                for n in SIZES {
                    let a = vec_of(n, |i| (hash(i) % 1000) as i32);
                    let b = vec_of(n, |i| i as i32);
                    let mut c = vec![-1; n];
                    $name(&a, &b, &mut c);
                    let want: Vec<i32> = (0..n).map(|i| a[i] * 3 - b[i]).collect();
                    assert_eq!(c, want, "{n} elements");
                }
            }
        )* }
    };
}

level_combinations! {
    gang: (gang);
    worker: (worker);
    vector: (vector);
    gang_worker: (gang, worker);
    worker_vector: (worker, vector);
    gang_vector: (gang, vector);
    gang_worker_vector: (gang, worker, vector);
    seq: (seq);
    auto: (auto);
    independent: (independent);
    independent_gang_vector: (independent, gang, vector);
    bare: ();
}

/// A loop with a non-zero lower bound writes exactly its elements; the others keep their
/// values (`&mut [T]` defaults to `copy`).
#[test]
fn nonzero_lower_bound() {
    #[acc::parallel]
    fn middle(a: &[f32], c: &mut [f32], lo: usize, hi: usize) {
        #[acc::r#loop(gang, vector)]
        for i in lo..hi {
            c[i] = a[i] * 0.5 + 1.0;
        }
    }
    for n in [0usize, 1, 5, 1001, 65537] {
        for (lo, hi) in [(0, n), (n / 3, n), (n / 4, 3 * n / 4), (n, n), (n.saturating_sub(1), n)] {
            let a = vec_of(n, |i| i as f32);
            let mut c = vec![-7.0f32; n];
            middle(&a, &mut c, lo, hi);
            let want: Vec<f32> = (0..n).map(|i| if (lo..hi).contains(&i) { a[i] * 0.5 + 1.0 } else { -7.0 }).collect();
            assert_eq!(c, want, "{n} elements, {lo}..{hi}");
        }
    }
}

/// Negative bounds on `i32` and `i64` loop variables index through an offset.
#[test]
fn negative_bounds_i32_i64() {
    #[acc::parallel]
    fn squares(c: &mut [i64], lo: i32, hi: i32) {
        #[acc::r#loop(gang, vector)]
        for i in lo..hi {
            c[(i - lo) as usize] = (i as i64) * (i as i64) - i as i64;
        }
    }
    #[acc::parallel]
    fn cubes(c: &mut [i64], lo: i64, hi: i64) {
        #[acc::r#loop(gang, vector)]
        for i in lo..=hi {
            c[(i - lo) as usize] = i * i * i;
        }
    }
    for (lo, hi) in [(-1000, 1000), (-1, 0), (-5, -5), (-70_001, -3)] {
        let mut c = vec![0i64; (hi - lo) as usize];
        squares(&mut c, lo, hi);
        let want: Vec<i64> = (lo..hi).map(|i| (i as i64) * (i as i64) - i as i64).collect();
        assert_eq!(c, want, "{lo}..{hi}");
        let (lo, hi) = (lo as i64 * 3, hi as i64);
        let mut c = vec![0i64; (hi - lo + 1) as usize];
        cubes(&mut c, lo, hi);
        let want: Vec<i64> = (lo..=hi).map(|i| i * i * i).collect();
        assert_eq!(c, want, "{lo}..={hi}");
    }
}

/// Loop bounds are any expressions over the parameters, evaluated once.
#[test]
fn bounds_are_expressions() {
    #[acc::parallel]
    fn window(a: &[u32], c: &mut [u32], n: usize) {
        #[acc::r#loop(gang, vector)]
        for i in n / 4..(3 * n) / 4 + 1 {
            c[i - n / 4] = a[i] + 1;
        }
    }
    for n in [0usize, 3, 4, 1000, 4097] {
        let a = vec_of(n + 1, |i| i as u32 * 2);
        let mut c = vec![0u32; n + 1];
        window(&a, &mut c, n);
        let mut want = vec![0u32; n + 1];
        for i in n / 4..(3 * n) / 4 + 1 {
            want[i - n / 4] = a[i] + 1;
        }
        assert_eq!(c, want, "n = {n}");
    }
}

const SHAPES: [(usize, usize); 8] = [(0, 0), (0, 7), (7, 0), (1, 1), (1, 999), (999, 1), (37, 45), (128, 257)];

/// gang outer, vector inner: a 2-D stencil over the interior, the border untouched.
#[test]
fn nested_gang_vector_stencil() {
    #[acc::parallel]
    fn stencil(a: &[f64], b: &mut [f64], n: usize, m: usize) {
        #[acc::r#loop(gang)]
        for j in 1..n - 1 {
            #[acc::r#loop(vector)]
            for i in 1..m - 1 {
                b[j * m + i] = 0.25 * (a[j * m + i - 1] + a[j * m + i + 1] + a[(j - 1) * m + i] + a[(j + 1) * m + i]);
            }
        }
    }
    for (n, m) in SHAPES {
        let (n, m) = (n + 2, m + 2);
        let a = vec_of(n * m, |i| (hash(i) % 64) as f64);
        let mut b = vec![-1.0; n * m];
        stencil(&a, &mut b, n, m);
        let mut want = vec![-1.0; n * m];
        for j in 1..n - 1 {
            for i in 1..m - 1 {
                want[j * m + i] = 0.25 * (a[j * m + i - 1] + a[j * m + i + 1] + a[(j - 1) * m + i] + a[(j + 1) * m + i]);
            }
        }
        assert_eq!(b, want, "{n}x{m}");
    }
}

/// gang / worker / vector nest over three dimensions, with non-zero lower bounds.
#[test]
fn nested_three_levels() {
    #[acc::parallel]
    fn fill(c: &mut [i64], n: usize, m: usize, l: usize) {
        #[acc::r#loop(gang)]
        for k in 1..n {
            #[acc::r#loop(worker)]
            for j in 2..m {
                #[acc::r#loop(vector)]
                for i in 3..l {
                    c[(k * m + j) * l + i] = (k * 1_000_000 + j * 1000 + i) as i64;
                }
            }
        }
    }
    for (n, m, l) in [(1, 1, 1), (2, 3, 4), (5, 7, 9), (9, 30, 200)] {
        let mut c = vec![0i64; n * m * l];
        fill(&mut c, n, m, l);
        let mut want = vec![0i64; n * m * l];
        for k in 1..n {
            for j in 2..m {
                for i in 3..l {
                    want[(k * m + j) * l + i] = (k * 1_000_000 + j * 1000 + i) as i64;
                }
            }
        }
        assert_eq!(c, want, "{n}x{m}x{l}");
    }
}

/// An inner loop whose bounds depend on the outer loop variable (a triangle).
#[test]
fn triangular_nest() {
    #[acc::parallel]
    fn lower(c: &mut [u32], n: usize) {
        #[acc::r#loop(gang)]
        for j in 0..n {
            #[acc::r#loop(vector)]
            for i in 0..=j {
                c[j * n + i] = (j * n + i) as u32 + 1;
            }
        }
    }
    for n in [0usize, 1, 2, 33, 200] {
        let mut c = vec![0u32; n * n];
        lower(&mut c, n);
        let want: Vec<u32> = (0..n * n).map(|k| if k % n.max(1) <= k / n.max(1) { k as u32 + 1 } else { 0 }).collect();
        assert_eq!(c, want, "n = {n}");
    }
}

/// `collapse(2)` visits every (j, i) pair once, with offsets and a stepped inner loop.
#[test]
fn collapse_two() {
    #[acc::parallel]
    fn pairs(c: &mut [i32], n: usize, m: usize) {
        #[acc::r#loop(gang, vector, collapse(2))]
        for j in 1..n {
            for i in (0..m).step_by(3) {
                c[j * m + i] += (j * 7 + i) as i32;
            }
        }
    }
    for (n, m) in SHAPES {
        let mut c = vec![1i32; n * m];
        pairs(&mut c, n, m);
        let mut want = vec![1i32; n * m];
        for j in 1..n {
            for i in (0..m).step_by(3) {
                want[j * m + i] += (j * 7 + i) as i32;
            }
        }
        assert_eq!(c, want, "{n}x{m}");
    }
}

/// `collapse(3)` with signed and inclusive bounds.
#[test]
fn collapse_three() {
    #[acc::parallel]
    fn cube(c: &mut [i64], n: i64, m: i64, l: i64) {
        #[acc::r#loop(gang, worker, vector, collapse(3))]
        for k in -n..n {
            for j in 0..=m {
                for i in -1..l {
                    let idx = (((k + n) * (m + 1) + j) * (l + 1) + (i + 1)) as usize;
                    c[idx] = k * 10_000 + j * 100 + i;
                }
            }
        }
    }
    for (n, m, l) in [(0, 0, 0), (1, 0, 0), (1, 1, 1), (3, 4, 5), (10, 20, 30)] {
        let len = (2 * n * (m + 1) * (l + 1)) as usize;
        let mut c = vec![UNTOUCHED; len];
        cube(&mut c, n, m, l);
        let mut want = Vec::with_capacity(len);
        for k in -n..n {
            for j in 0..=m {
                for i in -1..l {
                    want.push(k * 10_000 + j * 100 + i);
                }
            }
        }
        assert_eq!(c, want, "{n} {m} {l}");
    }
}

/// `tile(8, 8)` (and other tile shapes) computes what the plain nest computes, for extents that
/// are and are not multiples of the tile.
#[test]
fn tile_matches_plain_nest() {
    #[acc::parallel]
    fn transpose_tiled(a: &[f32], t: &mut [f32], n: usize, m: usize) {
        #[acc::r#loop(gang, vector, tile(8, 8))]
        for j in 0..n {
            for i in 0..m {
                t[i * n + j] = a[j * m + i] * 2.0;
            }
        }
    }
    #[acc::parallel]
    fn transpose_tiled_2x16(a: &[f32], t: &mut [f32], n: usize, m: usize) {
        #[acc::r#loop(gang, vector, tile(2, 16))]
        for j in 0..n {
            for i in 0..m {
                t[i * n + j] = a[j * m + i] * 2.0;
            }
        }
    }
    #[acc::parallel]
    fn transpose_plain(a: &[f32], t: &mut [f32], n: usize, m: usize) {
        #[acc::r#loop(gang)]
        for j in 0..n {
            #[acc::r#loop(vector)]
            for i in 0..m {
                t[i * n + j] = a[j * m + i] * 2.0;
            }
        }
    }
    for (n, m) in SHAPES.into_iter().chain([(64, 64), (8, 8), (9, 17)]) {
        let a = vec_of(n * m, |i| (hash(i) % 4096) as f32);
        let mut plain = vec![0.0f32; n * m];
        transpose_plain(&a, &mut plain, n, m);
        let mut want = vec![0.0f32; n * m];
        for j in 0..n {
            for i in 0..m {
                want[i * n + j] = a[j * m + i] * 2.0;
            }
        }
        assert_eq!(plain, want, "plain {n}x{m}");
        let mut tiled = vec![0.0f32; n * m];
        transpose_tiled(&a, &mut tiled, n, m);
        assert_eq!(tiled, want, "tile(8, 8) {n}x{m}");
        let mut tiled = vec![0.0f32; n * m];
        transpose_tiled_2x16(&a, &mut tiled, n, m);
        assert_eq!(tiled, want, "tile(2, 16) {n}x{m}");
    }
}

/// `private(t)`: each iteration gets its own scratch array; the region's copy is not changed.
#[test]
fn private_scratch_array() {
    #[acc::parallel]
    fn smooth(a: &[i32], c: &mut [i32]) -> i32 {
        #[allow(unused_mut)] // the loop's private copies are written, not this one
        let mut t = [0i32; 5];
        #[acc::r#loop(gang, vector, private(t))]
        for i in 0..c.len() {
            for k in 0..5 {
                t[k] = a[i] * (k as i32 + 1);
            }
            let mut s = 0;
            for k in 0..5 {
                s += t[k] * t[4 - k];
            }
            c[i] = s;
        }
        t[0] + t[4]
    }
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 100) as i32 - 50);
        let mut c = vec![0; n];
        let untouched = smooth(&a, &mut c);
        let want: Vec<i32> = a.iter().map(|&x| (0..5).map(|k| x * (k + 1) * x * (5 - k)).sum()).collect();
        assert_eq!(c, want, "{n} elements");
        assert_eq!(untouched, 0, "the region's own `t` is not the private copy");
    }
}

/// `private` of a scalar written before it is read in every iteration, on a nested vector loop.
#[test]
fn private_scalar_inner_loop() {
    #[acc::parallel]
    fn scaled(a: &[f64], c: &mut [f64], n: usize, m: usize) {
        #[allow(unused_mut)]
        let mut tmp = 0.0f64;
        #[acc::r#loop(gang)]
        for j in 0..n {
            #[acc::r#loop(vector, private(tmp))]
            for i in 0..m {
                tmp = a[j * m + i] * 4.0;
                c[j * m + i] = tmp + j as f64;
            }
        }
    }
    for (n, m) in SHAPES {
        let a = vec_of(n * m, |i| (i % 31) as f64);
        let mut c = vec![0.0; n * m];
        scaled(&a, &mut c, n, m);
        let want: Vec<f64> = (0..n * m).map(|k| a[k] * 4.0 + (k / m.max(1)) as f64).collect();
        assert_eq!(c, want, "{n}x{m}");
    }
}

/// A `seq` loop with a loop-carried dependence (prefix sum) at the region's top level.
#[test]
fn seq_prefix_sum() {
    #[acc::parallel]
    fn prefix(a: &mut [i64]) {
        #[acc::r#loop(seq)]
        for i in 1..a.len() {
            a[i] += a[i - 1];
        }
    }
    for n in SIZES {
        let mut a = vec_of(n, |i| (hash(i) % 200) as i64 - 100);
        let mut want = a.clone();
        for i in 1..n {
            want[i] += want[i - 1];
        }
        prefix(&mut a);
        assert_eq!(a, want, "{n} elements");
    }
}

/// Per-row prefix sums: a `seq` loop with a dependence inside a parallel gang loop.
#[test]
fn seq_inside_gang() {
    #[acc::parallel]
    fn row_prefix(a: &mut [u64], n: usize, m: usize) {
        #[acc::r#loop(gang, vector)]
        for j in 0..n {
            #[acc::r#loop(seq)]
            for i in 1..m {
                a[j * m + i] += a[j * m + i - 1];
            }
        }
    }
    for (n, m) in SHAPES {
        let mut a = vec_of(n * m, |i| hash(i) % 1000);
        let mut want = a.clone();
        for j in 0..n {
            for i in 1..m {
                want[j * m + i] += want[j * m + i - 1];
            }
        }
        row_prefix(&mut a, n, m);
        assert_eq!(a, want, "{n}x{m}");
    }
}

/// A recurrence in a `seq` loop carried through a scalar (a running maximum and count).
#[test]
fn seq_scalar_recurrence() {
    #[acc::parallel]
    fn running_max(a: &[i32], c: &mut [i32]) -> usize {
        let mut m = i32::MIN;
        let mut records = 0usize;
        #[acc::r#loop(seq)]
        for i in 0..a.len() {
            if a[i] > m {
                m = a[i];
                records += 1;
            }
            c[i] = m;
        }
        records
    }
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 10_000) as i32);
        let mut c = vec![0; n];
        let records = running_max(&a, &mut c);
        let (mut m, mut want_records, mut want) = (i32::MIN, 0, Vec::new());
        for &x in &a {
            if x > m {
                m = x;
                want_records += 1;
            }
            want.push(m);
        }
        assert_eq!((c, records), (want, want_records), "{n} elements");
    }
}

/// `continue` skips the rest of one iteration only.
#[test]
fn continue_in_parallel_loop() {
    #[acc::parallel]
    fn halve_evens(a: &[u32], c: &mut [u32]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            if a[i] % 2 == 1 {
                continue;
            }
            c[i] = a[i] / 2;
        }
    }
    #[acc::parallel]
    fn bump(c: &mut [u32], n: usize, m: usize) {
        #[acc::r#loop(gang)]
        for j in 0..n {
            #[acc::r#loop(vector)]
            for i in 0..m {
                if i % 3 == 0 {
                    continue;
                }
                c[j * m + i] += 1000;
            }
        }
    }
    for (n, m) in SHAPES {
        let len = n * m;
        let a = vec_of(len, |i| (hash(i) % 100) as u32);
        let mut c = vec![7u32; len];
        halve_evens(&a, &mut c);
        bump(&mut c, n, m);
        let mut want: Vec<u32> = a.iter().map(|&x| if x % 2 == 1 { 7 } else { x / 2 }).collect();
        for j in 0..n {
            for i in 0..m {
                if i % 3 != 0 {
                    want[j * m + i] += 1000;
                }
            }
        }
        assert_eq!(c, want, "{n}x{m}");
    }
}

/// An iteration that writes nothing when a condition fails (guarded, early `continue` in a
/// nested plain loop) and a plain `while` loop inside the body.
#[test]
fn control_flow_inside_body() {
    #[acc::parallel]
    fn collatz_steps(a: &[u64], c: &mut [u32]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            let mut x = a[i];
            let mut steps = 0u32;
            while x > 1 {
                x = if x % 2 == 0 { x / 2 } else { 3 * x + 1 };
                steps += 1;
            }
            for k in 0..4 {
                if k == 2 {
                    break;
                }
                steps += 10;
            }
            c[i] = steps;
        }
    }
    let a = vec_of(5000, |i| i as u64 + 1);
    let mut c = vec![0u32; a.len()];
    collatz_steps(&a, &mut c);
    let want: Vec<u32> = a
        .iter()
        .map(|&x0| {
            let (mut x, mut s) = (x0, 0);
            while x > 1 {
                x = if x % 2 == 0 { x / 2 } else { 3 * x + 1 };
                s += 1;
            }
            s + 20
        })
        .collect();
    assert_eq!(c, want);
}

/// A loop whose variable is `_` runs its trip count.
#[test]
fn wildcard_loop_variable() {
    #[acc::parallel]
    fn count(n: usize) -> u64 {
        let mut c = 0u64;
        #[acc::r#loop(gang, vector, reduction(+: c))]
        for _ in 0..n {
            c += 3;
        }
        c
    }
    for n in SIZES {
        assert_eq!(count(n), 3 * n as u64);
    }
}

/// `acc::cache!` of the window the iteration reads, as the first statement of the loop body
/// (a shared-memory hint on the GPU): the results are those of the same loop without it.
#[test]
fn cache_directive_keeps_results() {
    #[acc::parallel]
    fn blur(a: &[f32], c: &mut [f32]) {
        #[acc::r#loop(gang, vector)]
        for i in 1..c.len() - 1 {
            acc::cache!(a[i - 1..i + 2]);
            c[i] = (a[i - 1] + 2.0 * a[i] + a[i + 1]) * 0.25;
        }
    }
    #[acc::parallel]
    fn rows(a: &[f64], c: &mut [f64], n: usize, m: usize) {
        #[acc::r#loop(gang)]
        for j in 0..n {
            #[acc::r#loop(vector)]
            for i in 0..m {
                acc::cache!(a[j * m..(j + 1) * m], a[0..=0]);
                c[j * m + i] = a[j * m + (m - 1 - i)] + a[0];
            }
        }
    }
    for n in [2usize, 3, 1001, 65537] {
        let a = vec_of(n, |i| (hash(i) % 256) as f32);
        let mut c = vec![0.0f32; n];
        blur(&a, &mut c);
        let mut want = vec![0.0f32; n];
        for i in 1..n - 1 {
            want[i] = (a[i - 1] + 2.0 * a[i] + a[i + 1]) * 0.25;
        }
        assert_eq!(c, want, "{n} elements");
    }
    for (n, m) in [(1, 1), (3, 5), (100, 129)] {
        let a = vec_of(n * m, |i| i as f64);
        let mut c = vec![0.0; n * m];
        rows(&a, &mut c, n, m);
        let want: Vec<f64> = (0..n * m).map(|k| a[(k / m) * m + (m - 1 - k % m)] + a[0]).collect();
        assert_eq!(c, want, "{n}x{m}");
    }
}

/// `auto` in a `parallel` region leaves the decision to the compiler: a loop with a
/// dependence still gives the sequential result, an independent one the same as `independent`.
#[test]
fn auto_loops_in_parallel_region() {
    #[acc::parallel]
    fn both(a: &mut [i64], b: &mut [i64]) {
        #[acc::r#loop(auto)]
        for i in 1..a.len() {
            a[i] = a[i - 1] * 2 % 1_000_003 + a[i];
        }
        #[acc::r#loop(auto)]
        for i in 0..b.len() {
            b[i] = b[i] * b[i] - 1;
        }
    }
    for n in SIZES {
        let mut a = vec_of(n, |i| (hash(i) % 100) as i64);
        let mut b = vec_of(n, |i| i as i64 - 30);
        let mut wa = a.clone();
        for i in 1..n {
            wa[i] = wa[i - 1] * 2 % 1_000_003 + wa[i];
        }
        let wb: Vec<i64> = b.iter().map(|x| x * x - 1).collect();
        both(&mut a, &mut b);
        assert_eq!((a, b), (wa, wb), "{n} elements");
    }
}

/// Ordinary Rust in loop bodies: closures, `match`, `if let`, writes through `&mut a[i]` and
/// `core::mem::swap`, a local that shadows a parameter's name, an array passed by value.
#[test]
fn rust_forms_in_loop_bodies() {
    #[acc::parallel]
    fn forms(a: &[f32], c: &mut [f32], d: &mut [i32], coef: [f32; 3]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..c.len() {
            let poly = |x: f32| (coef[0] * x + coef[1]) * x + coef[2];
            let r = &mut c[i];
            *r = poly(a[i]);
            let d = match i % 3 {
                0 => 1.0,
                1 => 2.0,
                _ => 3.0,
            };
            c[i] += d;
        }
        #[acc::r#loop(gang, vector)]
        for i in 0..d.len() {
            if let Some(v) = a.get(i + 1) {
                d[i] = *v as i32;
            }
            let mut t = i as i32;
            core::mem::swap(&mut d[i], &mut t);
            d[i] += 10 * t;
        }
    }
    for n in SIZES {
        let a = vec_of(n, |i| (i % 8) as f32);
        let mut c = vec![0.0f32; n];
        let mut d = vec![-1i32; n];
        forms(&a, &mut c, &mut d, [0.5, 2.0, -1.0]);
        let wc: Vec<f32> = (0..n).map(|i| (0.5 * a[i] + 2.0) * a[i] - 1.0 + [1.0, 2.0, 3.0][i % 3]).collect();
        let wd: Vec<i32> = (0..n).map(|i| i as i32 + 10 * a.get(i + 1).map_or(-1, |&v| v as i32)).collect();
        assert_eq!((c, d), (wc, wd), "{n} elements");
    }
}
