//! Reductions at every position (DESIGN §4.3): gang / worker / vector loops and their nests,
//! the clause on the innermost loop only or on every level, `collapse`, region-level clauses,
//! top-level worker and vector loops, `seq` loops inside a gang loop, `kernels` and `serial`
//! regions. Every position runs a matrix of (operator, type) pairs; the results are compared
//! with a sequential fold of the same data from the same initial value.

mod common;
use common::*;

const SIZES1: [usize; 6] = [0, 1, 2, 7, 1001, 65537];
const SHAPES2: [(usize, usize); 8] = [(0, 0), (0, 5), (5, 0), (1, 1), (1, 1000), (1000, 1), (37, 45), (129, 257)];
const SHAPES3: [(usize, usize, usize); 7] = [(0, 3, 3), (3, 0, 3), (3, 3, 0), (1, 1, 1), (3, 5, 7), (9, 17, 33), (2, 1, 300)];

fn want<T: Elem>(data: &[T], init: T, op: fn(T, T) -> T) -> T {
    data.iter().fold(init, |s, &x| op(s, x))
}

fn check1<T: Elem>(what: &str, gen: fn(usize) -> Vec<T>, inits: Vec<T>, region: fn(&[T], T) -> T, op: fn(T, T) -> T) {
    for n in SIZES1 {
        let data = gen(n);
        for &init in &inits {
            assert_eq!(region(&data, init), want(&data, init, op), "{what} on {}: {n} elements, initial {init:?}", T::NAME);
        }
    }
}

fn check2<T: Elem>(
    what: &str,
    gen: fn(usize) -> Vec<T>,
    inits: Vec<T>,
    region: fn(&[T], usize, usize, T) -> T,
    op: fn(T, T) -> T,
) {
    for (n, m) in SHAPES2 {
        let data = gen(n * m);
        for &init in &inits {
            assert_eq!(region(&data, n, m, init), want(&data, init, op), "{what} on {}: {n}x{m}, initial {init:?}", T::NAME);
        }
    }
}

fn check3<T: Elem>(
    what: &str,
    gen: fn(usize) -> Vec<T>,
    inits: Vec<T>,
    region: fn(&[T], usize, usize, usize, T) -> T,
    op: fn(T, T) -> T,
) {
    for (n, m, l) in SHAPES3 {
        let data = gen(n * m * l);
        for &init in &inits {
            assert_eq!(
                region(&data, n, m, l, init),
                want(&data, init, op),
                "{what} on {}: {n}x{m}x{l}, initial {init:?}",
                T::NAME
            );
        }
    }
}

/// Invokes a position macro with the (operator, type) matrix.
macro_rules! for_combos {
    ($pos:ident) => {
        $pos! {
            add_i64: i64, +, |s, x| s + x, gen_add::<i64>, inits_add::<i64>();
            mul_f32: f32, *, |s, x| s * x, gen_mul::<f32>, inits_mul::<f32>();
            max_f64: f64, max, |s, x| s.max(x), gen_minmax::<f64>, inits_max::<f64>();
            min_i16: i16, min, |s, x| s.min(x), gen_minmax::<i16>, inits_min::<i16>();
            xor_u32: u32, ^, |s, x| s ^ x, gen_bitxor::<u32>, inits_bitxor::<u32>();
            land_bool: bool, &&, |s, x| s && x, gen_bool, inits_bool();
        }
    };
}

/// gang outer without a clause, vector inner with it; the variable is declared before the
/// outer loop ("a clause on the loop nearest the next use is enough").
macro_rules! inner_only {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod inner_only { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], n: usize, m: usize, init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang)]
                    for j in 0..n {
                        #[acc::r#loop(vector, reduction($op: $s))]
                        for i in 0..m {
                            let $x = a[j * m + i];
                            $s = $e;
                        }
                    }
                    $s
                }
                check2(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(inner_only);

/// The clause on both the gang and the vector loop.
macro_rules! both_levels {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod both_levels { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], n: usize, m: usize, init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang, reduction($op: $s))]
                    for j in 0..n {
                        #[acc::r#loop(vector, reduction($op: $s))]
                        for i in 0..m {
                            let $x = a[j * m + i];
                            $s = $e;
                        }
                    }
                    $s
                }
                check2(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(both_levels);

/// gang / worker / vector nest, the clause on the vector loop only.
macro_rules! gwv_innermost {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod gwv_innermost { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], n: usize, m: usize, l: usize, init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang)]
                    for k in 0..n {
                        #[acc::r#loop(worker)]
                        for j in 0..m {
                            #[acc::r#loop(vector, reduction($op: $s))]
                            for i in 0..l {
                                let $x = a[(k * m + j) * l + i];
                                $s = $e;
                            }
                        }
                    }
                    $s
                }
                check3(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(gwv_innermost);

/// gang / worker / vector nest, the clause on every level.
macro_rules! gwv_every_level {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod gwv_every_level { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], n: usize, m: usize, l: usize, init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang, reduction($op: $s))]
                    for k in 0..n {
                        #[acc::r#loop(worker, reduction($op: $s))]
                        for j in 0..m {
                            #[acc::r#loop(vector, reduction($op: $s))]
                            for i in 0..l {
                                let $x = a[(k * m + j) * l + i];
                                $s = $e;
                            }
                        }
                    }
                    $s
                }
                check3(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(gwv_every_level);

/// All three levels on one loop.
macro_rules! gwv_one_loop {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod gwv_one_loop { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang, worker, vector, reduction($op: $s))]
                    for i in 0..a.len() {
                        let $x = a[i];
                        $s = $e;
                    }
                    $s
                }
                check1(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(gwv_one_loop);

/// gang outer without a clause, worker inner with it.
macro_rules! worker_inner {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod worker_inner { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], n: usize, m: usize, init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang)]
                    for j in 0..n {
                        #[acc::r#loop(worker, reduction($op: $s))]
                        for i in 0..m {
                            let $x = a[j * m + i];
                            $s = $e;
                        }
                    }
                    $s
                }
                check2(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(worker_inner);

/// gang loop with the clause; a plain (unannotated) inner loop does the updates.
macro_rules! gang_plain_inner {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod gang_plain_inner { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], n: usize, m: usize, init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang, reduction($op: $s))]
                    for j in 0..n {
                        for i in 0..m {
                            let $x = a[j * m + i];
                            $s = $e;
                        }
                    }
                    $s
                }
                check2(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(gang_plain_inner);

/// `collapse(2)` of a gang-vector loop pair.
macro_rules! collapse2 {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod collapse2 { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], n: usize, m: usize, init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang, vector, collapse(2), reduction($op: $s))]
                    for j in 0..n {
                        for i in 0..m {
                            let $x = a[j * m + i];
                            $s = $e;
                        }
                    }
                    $s
                }
                check2(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(collapse2);

/// A region-level `reduction` clause; the loop itself carries none.
macro_rules! region_level {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod region_level { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel(reduction($op: $s))]
                fn $name(a: &[$t], init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang, vector)]
                    for i in 0..a.len() {
                        let $x = a[i];
                        $s = $e;
                    }
                    $s
                }
                check1(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(region_level);

/// A vector loop at the region's top level (it runs in every gang; each gang's result is the
/// same).
macro_rules! top_vector {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod top_vector { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(vector, reduction($op: $s))]
                    for i in 0..a.len() {
                        let $x = a[i];
                        $s = $e;
                    }
                    $s
                }
                check1(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(top_vector);

/// A worker-vector loop at the region's top level.
macro_rules! top_worker_vector {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod top_worker_vector { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel(num_workers(4), vector_length(32))]
                fn $name(a: &[$t], init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(worker, vector, reduction($op: $s))]
                    for i in 0..a.len() {
                        let $x = a[i];
                        $s = $e;
                    }
                    $s
                }
                check1(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(top_worker_vector);

/// A gang-vector loop with the clause; a `seq` loop inside does the updates.
macro_rules! seq_inner {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod seq_inner { use super::*; $(
            #[test]
            fn $name() {
                #[acc::parallel]
                fn $name(a: &[$t], n: usize, m: usize, init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(gang, vector, reduction($op: $s))]
                    for j in 0..n {
                        #[acc::r#loop(seq)]
                        for i in 0..m {
                            let $x = a[j * m + i];
                            $s = $e;
                        }
                    }
                    $s
                }
                check2(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(seq_inner);

/// A `kernels` region: a loop with a reduction clause and no level (`auto`).
macro_rules! kernels_auto {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod kernels_auto { use super::*; $(
            #[test]
            fn $name() {
                #[acc::kernels]
                fn $name(a: &[$t], init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(reduction($op: $s))]
                    for i in 0..a.len() {
                        let $x = a[i];
                        $s = $e;
                    }
                    $s
                }
                check1(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(kernels_auto);

/// A `kernels` region: an `independent` gang loop over a vector loop, the clause on both.
macro_rules! kernels_gang_vector {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod kernels_gang_vector { use super::*; $(
            #[test]
            fn $name() {
                #[acc::kernels]
                fn $name(a: &[$t], n: usize, m: usize, init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(independent, gang, reduction($op: $s))]
                    for j in 0..n {
                        #[acc::r#loop(vector(64), reduction($op: $s))]
                        for i in 0..m {
                            let $x = a[j * m + i];
                            $s = $e;
                        }
                    }
                    $s
                }
                check2(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(kernels_gang_vector);

/// A `serial` region: the loop runs in order, the result is the sequential one.
macro_rules! serial_region {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:expr, $inits:expr;)*) => {
        mod serial_region { use super::*; $(
            #[test]
            fn $name() {
                #[acc::serial]
                fn $name(a: &[$t], init: $t) -> $t {
                    let mut $s = init;
                    #[acc::r#loop(reduction($op: $s))]
                    for i in 0..a.len() {
                        let $x = a[i];
                        $s = $e;
                    }
                    $s
                }
                check1(stringify!($op), $gen, $inits, $name, |$s, $x| $e);
            }
        )* }
    };
}
for_combos!(serial_region);

/// Several variables of different types in one clause, and several clauses, on the innermost
/// loop of a gang-vector nest and on a single loop.
#[test]
fn several_variables_one_clause() {
    #[acc::parallel]
    fn stats(a: &[i32], n: usize, m: usize) -> (i64, f64, usize, i32, f32) {
        let mut sum = 100i64;
        let mut fsum = 0.5f64;
        let mut count = 3usize;
        let mut hi = i32::MIN + 1;
        let mut fhi = -1.0e30f32;
        #[acc::r#loop(gang)]
        for j in 0..n {
            #[acc::r#loop(vector, reduction(+: sum, fsum, count), reduction(max: hi, fhi))]
            for i in 0..m {
                let v = a[j * m + i];
                sum += v as i64;
                fsum += v as f64 * 0.25;
                count += (v > 0) as usize;
                hi = hi.max(v);
                fhi = fhi.max(v as f32);
            }
        }
        (sum, fsum, count, hi, fhi)
    }
    for (n, m) in SHAPES2 {
        let a = vec_of(n * m, |i| (hash(i) % 2001) as i32 - 1000);
        let want = (
            100 + a.iter().map(|&v| v as i64).sum::<i64>(),
            0.5 + a.iter().map(|&v| v as f64 * 0.25).sum::<f64>(),
            3 + a.iter().filter(|&&v| v > 0).count(),
            a.iter().copied().fold(i32::MIN + 1, i32::max),
            a.iter().fold(-1.0e30f32, |m, &v| m.max(v as f32)),
        );
        assert_eq!(stats(&a, n, m), want, "{n}x{m}");
    }
}

/// Different variables reduced at different levels: the row maximum at vector level (declared
/// inside the gang loop), the sum of row maxima and the count of positive rows at gang level.
#[test]
fn different_variables_different_levels() {
    #[acc::parallel]
    fn row_max_sum(a: &[i64], n: usize, m: usize) -> (i64, u32) {
        let mut total = 7i64;
        let mut positive_rows = 1u32;
        #[acc::r#loop(gang, reduction(+: total, positive_rows))]
        for j in 0..n {
            let mut row = i64::MIN;
            #[acc::r#loop(vector, reduction(max: row))]
            for i in 0..m {
                row = row.max(a[j * m + i]);
            }
            if m > 0 {
                total += row;
                positive_rows += (row > 0) as u32;
            }
        }
        (total, positive_rows)
    }
    for (n, m) in SHAPES2 {
        let a = vec_of(n * m, |i| (hash(i) % 1999) as i64 - 1000);
        let mut want = (7i64, 1u32);
        if m > 0 {
            for j in 0..n {
                let row = a[j * m..(j + 1) * m].iter().copied().max().unwrap();
                want.0 += row;
                want.1 += (row > 0) as u32;
            }
        }
        assert_eq!(row_max_sum(&a, n, m), want, "{n}x{m}");
    }
}

/// A per-row reduction written into an array (the matmul pattern of DESIGN's examples): the
/// variable is declared inside the gang loop and reduced by the vector loop.
#[test]
fn per_row_vector_reduction() {
    #[acc::parallel]
    fn row_sums(a: &[f32], out: &mut [f32], n: usize, m: usize) {
        #[acc::r#loop(gang)]
        for j in 0..n {
            let mut s = 1.0f32;
            #[acc::r#loop(vector, reduction(+: s))]
            for i in 0..m {
                s += a[j * m + i];
            }
            out[j] = s;
        }
    }
    for (n, m) in SHAPES2 {
        let a = vec_of(n * m, |i| (hash(i) % 9) as f32 - 4.0);
        let mut out = vec![-5.0f32; n];
        row_sums(&a, &mut out, n, m);
        let want: Vec<f32> = (0..n).map(|j| 1.0 + a[j * m..(j + 1) * m].iter().sum::<f32>()).collect();
        assert_eq!(out, want, "{n}x{m}");
    }
}

/// Region-level reductions of two variables come back as a tuple.
#[test]
fn region_level_tuple() {
    #[acc::parallel(reduction(+: s), reduction(min: lo))]
    fn sum_min(a: &[i32]) -> (i64, i32) {
        let mut s = -3i64;
        let mut lo = 500i32;
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            s += a[i] as i64;
            lo = lo.min(a[i]);
        }
        (s, lo)
    }
    for n in SIZES1 {
        let a = vec_of(n, |i| (hash(i) % 2000) as i32 - 700);
        let want = (-3 + a.iter().map(|&v| v as i64).sum::<i64>(), a.iter().copied().fold(500, i32::min));
        assert_eq!(sum_min(&a), want, "{n} elements");
    }
}

/// A region-level clause and the same clause on the loop.
#[test]
fn region_and_loop_clause() {
    #[acc::parallel(reduction(+: s))]
    fn total(a: &[u64], n: usize, m: usize) -> u64 {
        let mut s = 11u64;
        #[acc::r#loop(gang, reduction(+: s))]
        for j in 0..n {
            #[acc::r#loop(vector, reduction(+: s))]
            for i in 0..m {
                s += a[j * m + i];
            }
        }
        s
    }
    for (n, m) in SHAPES2 {
        let a = vec_of(n * m, |i| hash(i) % 1000);
        assert_eq!(total(&a, n, m), 11 + a.iter().sum::<u64>(), "{n}x{m}");
    }
}

/// Two reductions in consecutive vector loops of one region: the statement between them sees
/// the first result (in every gang: DESIGN §4.4), the second loop uses it.
#[test]
fn consecutive_vector_loops() {
    #[acc::parallel]
    fn mean_var(a: &[f64]) -> (f64, f64) {
        let mut s = 0.0f64;
        #[acc::r#loop(vector, reduction(+: s))]
        for i in 0..a.len() {
            s += a[i];
        }
        let mean = s / a.len() as f64;
        let mut v = 0.0f64;
        #[acc::r#loop(vector, reduction(+: v))]
        for i in 0..a.len() {
            v += (a[i] - mean) * (a[i] - mean);
        }
        (mean, v)
    }
    for n in [1usize, 4, 1024, 1 << 16] {
        // Values 0..4 repeated: the mean is 1.5, every term a multiple of 0.25: exact.
        let a = vec_of(n, |i| (i % 4) as f64);
        let mean = a.iter().sum::<f64>() / n as f64;
        let v: f64 = a.iter().map(|x| (x - mean) * (x - mean)).sum();
        assert_eq!(mean_var(&a), (mean, v), "{n} elements");
    }
}

/// The same in a `kernels` region, where each loop is its own kernel.
#[test]
fn consecutive_kernels_loops() {
    #[acc::kernels]
    fn mean_var(a: &[f64]) -> (f64, f64) {
        let mut s = 0.0f64;
        #[acc::r#loop(reduction(+: s))]
        for i in 0..a.len() {
            s += a[i];
        }
        let mean = s / a.len() as f64;
        let mut v = 0.0f64;
        #[acc::r#loop(independent, reduction(+: v))]
        for i in 0..a.len() {
            v += (a[i] - mean) * (a[i] - mean);
        }
        (mean, v)
    }
    for n in [1usize, 4, 1024, 1 << 16] {
        let a = vec_of(n, |i| (i % 4) as f64);
        let mean = a.iter().sum::<f64>() / n as f64;
        let v: f64 = a.iter().map(|x| (x - mean) * (x - mean)).sum();
        assert_eq!(mean_var(&a), (mean, v), "{n} elements");
    }
}
