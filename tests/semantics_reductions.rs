//! Reductions, every operator on every type of DESIGN §2, on a `gang, vector` loop: the value
//! the variable holds before the region is combined exactly once, at trip counts 0, 1, 2, odd
//! and large, against a sequential fold of the same data.

mod common;
use common::*;

/// Trip counts of the multiplicative, min/max and bitwise matrices.
const TRIPS: [usize; 6] = [0, 1, 2, 7, 1001, 65537];
/// Trip counts of the additive matrix.
const TRIPS_ADD: [usize; 6] = [0, 1, 2, 7, 1001, 1 << 20];

/// Runs `region(data, init)` for every trip count and initial value and compares it with the
/// sequential `data.iter().fold(init, op)`.
fn check<T: Elem>(
    what: &str,
    trips: &[usize],
    gen: fn(usize) -> Vec<T>,
    inits: Vec<T>,
    region: fn(&[T], T) -> T,
    op: fn(T, T) -> T,
) {
    for &n in trips {
        let data = gen(n);
        for &init in &inits {
            let want = data.iter().fold(init, |s, &x| op(s, x));
            let got = region(&data, init);
            assert_eq!(got, want, "{what} on {}: {n} elements, initial value {init:?}", T::NAME);
        }
    }
}

/// One test per (operator, type): a region reducing `a` into `s` from `init`.
macro_rules! reduction {
    ($($name:ident: $t:ident, $op:tt, |$s:ident, $x:ident| $e:expr, $gen:ident, $inits:ident, $trips:expr;)*) => {$(
        #[test]
        fn $name() {
            #[acc::parallel]
            fn $name(a: &[$t], init: $t) -> $t {
                let mut $s = init;
                #[acc::r#loop(gang, vector, reduction($op: $s))]
                for i in 0..a.len() {
                    let $x = a[i];
                    $s = $e;
                }
                $s
            }
            check::<$t>(stringify!($op), &$trips, $gen::<$t>, $inits::<$t>(), $name, |$s, $x| $e);
        }
    )*};
}

/// The seven integer operators for one integer type.
macro_rules! int_reductions {
    ($($t:ident: $add:ident $mul:ident $max:ident $min:ident $and:ident $or:ident $xor:ident;)*) => {$(
        reduction! {
            $add: $t, +, |s, x| s + x, gen_add, inits_add, TRIPS_ADD;
            $mul: $t, *, |s, x| s * x, gen_mul, inits_mul, TRIPS;
            $max: $t, max, |s, x| s.max(x), gen_minmax, inits_max, TRIPS;
            $min: $t, min, |s, x| s.min(x), gen_minmax, inits_min, TRIPS;
            $and: $t, &, |s, x| s & x, gen_bitand, inits_bitand, TRIPS;
            $or: $t, |, |s, x| s | x, gen_bitor, inits_bitor, TRIPS;
            $xor: $t, ^, |s, x| s ^ x, gen_bitxor, inits_bitxor, TRIPS_ADD;
        }
    )*};
}

int_reductions! {
    i8: add_i8 mul_i8 max_i8 min_i8 and_i8 or_i8 xor_i8;
    i16: add_i16 mul_i16 max_i16 min_i16 and_i16 or_i16 xor_i16;
    i32: add_i32 mul_i32 max_i32 min_i32 and_i32 or_i32 xor_i32;
    i64: add_i64 mul_i64 max_i64 min_i64 and_i64 or_i64 xor_i64;
    isize: add_isize mul_isize max_isize min_isize and_isize or_isize xor_isize;
    u8: add_u8 mul_u8 max_u8 min_u8 and_u8 or_u8 xor_u8;
    u16: add_u16 mul_u16 max_u16 min_u16 and_u16 or_u16 xor_u16;
    u32: add_u32 mul_u32 max_u32 min_u32 and_u32 or_u32 xor_u32;
    u64: add_u64 mul_u64 max_u64 min_u64 and_u64 or_u64 xor_u64;
    usize: add_usize mul_usize max_usize min_usize and_usize or_usize xor_usize;
}

/// The four float operators for one float type (`max`/`min` as `f32::max` does).
macro_rules! float_reductions {
    ($($t:ident: $add:ident $mul:ident $max:ident $min:ident;)*) => {$(
        reduction! {
            $add: $t, +, |s, x| s + x, gen_add, inits_add, TRIPS_ADD;
            $mul: $t, *, |s, x| s * x, gen_mul, inits_mul, TRIPS;
            $max: $t, max, |s, x| s.max(x), gen_minmax, inits_max, TRIPS;
            $min: $t, min, |s, x| s.min(x), gen_minmax, inits_min, TRIPS;
        }
    )*};
}

float_reductions! {
    f32: add_f32 mul_f32 max_f32 min_f32;
    f64: add_f64 mul_f64 max_f64 min_f64;
}

/// Every `bool` pattern at every trip count, both initial values.
fn check_bool(what: &str, region: fn(&[bool], bool) -> bool, op: fn(bool, bool) -> bool) {
    for n in TRIPS {
        for data in bool_patterns(n) {
            for init in [false, true] {
                let want = data.iter().fold(init, |s, &x| op(s, x));
                assert_eq!(region(&data, init), want, "{what} on bool: {n} elements, initial value {init}");
            }
        }
    }
}

macro_rules! bool_reduction {
    ($($name:ident: $op:tt, |$s:ident, $x:ident| $e:expr;)*) => {$(
        #[test]
        fn $name() {
            #[acc::parallel]
            fn $name(a: &[bool], init: bool) -> bool {
                let mut $s = init;
                #[acc::r#loop(gang, vector, reduction($op: $s))]
                for i in 0..a.len() {
                    let $x = a[i];
                    $s = $e;
                }
                $s
            }
            check_bool(stringify!($op), $name, |$s, $x| $e);
        }
    )*};
}

bool_reduction! {
    and_bool: &, |s, x| s & x;
    or_bool: |, |s, x| s | x;
    xor_bool: ^, |s, x| s ^ x;
    land_bool: &&, |s, x| s && x;
    lor_bool: ||, |s, x| s || x;
}

/// The compound-assignment spelling of the update (`s += x`) reduces like `s = s + x`.
#[test]
fn compound_assignment_updates() {
    #[acc::parallel]
    fn sums(a: &[i64], b: &[u32]) -> (i64, u32, i64) {
        let mut s = 10i64;
        let mut x = 0xF0u32;
        let mut p = 1i64;
        #[acc::r#loop(gang, vector, reduction(+: s), reduction(^: x), reduction(*: p))]
        for i in 0..a.len() {
            s += a[i];
            x ^= b[i];
            p *= if a[i] == 3 { -1 } else { 1 };
        }
        (s, x, p)
    }
    for n in TRIPS {
        let a = gen_add::<i64>(n);
        let b = gen_bitxor::<u32>(n);
        let want = (
            10 + a.iter().sum::<i64>(),
            b.iter().fold(0xF0, |s, x| s ^ x),
            a.iter().map(|&v| if v == 3 { -1 } else { 1 }).product::<i64>(),
        );
        assert_eq!(sums(&a, &b), want, "{n} elements");
    }
}

/// A reduction over an expression of several arrays (the dot product of DESIGN §2).
#[test]
fn dot_product() {
    #[acc::parallel]
    fn dot(a: &[f64], b: &[f64]) -> f64 {
        let mut s = 0.0;
        #[acc::r#loop(gang, vector, reduction(+: s))]
        for i in 0..a.len() {
            s += a[i] * b[i];
        }
        s
    }
    for n in TRIPS_ADD {
        let a = vec_of(n, |i| (i % 16) as f64);
        let b = vec_of(n, |i| (i % 3) as f64 - 1.0);
        let want: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert_eq!(dot(&a, &b), want, "{n} elements");
    }
}

/// Running a reduction region many times gives the same value each time (no state is kept
/// between launches, the initial value is combined once per launch).
#[test]
fn repeated_launches() {
    #[acc::parallel]
    fn count_odd(a: &[u32], init: usize) -> usize {
        let mut c = init;
        #[acc::r#loop(gang, vector, reduction(+: c))]
        for i in 0..a.len() {
            c += (a[i] % 2) as usize;
        }
        c
    }
    let a = vec_of(10_001, |i| hash(i) as u32);
    let want = 7 + a.iter().filter(|&&x| x % 2 == 1).count();
    for _ in 0..20 {
        assert_eq!(count_odd(&a, 7), want);
    }
}
