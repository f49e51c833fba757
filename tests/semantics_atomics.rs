//! `acc::atomic!` in every form (DESIGN §2): updates with each operator and `x = x.max(e)` /
//! `min`, `read`, `write`, `capture` (the value before the update), on scalar locals and on
//! elements `a[i]`, checked under parallel execution against sequential Rust.

mod common;
use common::*;

const SIZES: [usize; 6] = [0, 1, 2, 7, 1001, 65537];

/// Data for `/=`: ones, with a few twos and threes (integers) so the quotient stays positive.
fn gen_div<T: Elem>(n: usize) -> Vec<T> {
    let k = if T::BITS == 8 { 4 } else { 12 };
    (0..n).map(|i| match mark(n, k, i) {
        Some(j) => T::of(2 + (j % 2) as i64),
        None => T::of(1),
    })
    .collect()
}

/// Initial values for `/=`: large, so that many divisions leave something.
fn inits_big<T: Elem>() -> Vec<T> {
    vec![T::of(T::LIMIT.min(1 << 30)), T::of(T::LIMIT.min(1 << 30) / 2 + 1)]
}

/// Initial values for `-=` of `gen_add` data (whose magnitudes sum to at most half the limit):
/// unsigned ones large enough that no order goes below zero, float ones small enough that
/// quarters stay exact.
fn inits_sub<T: Elem>() -> Vec<T> {
    if T::FLOAT {
        vec![T::of(T::LIMIT / 8), T::of(-9)]
    } else if T::SIGNED {
        vec![T::of(T::LIMIT / 8), T::of(-9)]
    } else {
        vec![T::of(T::LIMIT / 2 + 1), T::of(T::LIMIT)]
    }
}

/// Applies `region(data, init)` for every size and initial value and compares it with the
/// sequential fold.
fn check<T: Elem>(what: &str, gen: fn(usize) -> Vec<T>, inits: Vec<T>, region: fn(&[T], T) -> T, op: fn(T, T) -> T) {
    for n in SIZES {
        let data = gen(n);
        for &init in &inits {
            let want = data.iter().fold(init, |x, &v| op(x, v));
            assert_eq!(region(&data, init), want, "atomic {what} on {}: {n} elements, initial {init:?}", T::NAME);
        }
    }
}

/// One test per (form, type): every iteration of a gang-vector loop updates one scalar.
macro_rules! atomic_scalar {
    ($($name:ident: $t:ident, |$x:ident, $v:ident| { $($upd:tt)* } => $seq:expr, $gen:expr, $inits:expr;)*) => {$(
        #[test]
        fn $name() {
            #[acc::parallel]
            fn $name(a: &[$t], init: $t) -> $t {
                let mut $x = init;
                #[acc::r#loop(gang, vector)]
                for i in 0..a.len() {
                    let $v = a[i];
                    acc::atomic!($($upd)*);
                }
                $x
            }
            check::<$t>(stringify!($($upd)*), $gen, $inits, $name, |$x, $v| $seq);
        }
    )*};
}

/// The arithmetic forms for one type.
macro_rules! arith_forms {
    ($($t:ident: $add:ident $sub:ident $mul:ident $div:ident $div_gen:ident;)*) => {$(
        atomic_scalar! {
            $add: $t, |x, v| { x += v } => x + v, gen_add::<$t>, inits_add::<$t>();
            $sub: $t, |x, v| { x -= v } => x - v, gen_add::<$t>, inits_sub::<$t>();
            $mul: $t, |x, v| { x *= v } => x * v, gen_mul::<$t>, inits_mul::<$t>();
            $div: $t, |x, v| { x /= v } => x / v, $div_gen::<$t>, inits_big::<$t>();
        }
    )*};
}

arith_forms! {
    i8: add_i8 sub_i8 mul_i8 div_i8 gen_div;
    u16: add_u16 sub_u16 mul_u16 div_u16 gen_div;
    i32: add_i32 sub_i32 mul_i32 div_i32 gen_div;
    u64: add_u64 sub_u64 mul_u64 div_u64 gen_div;
    f32: add_f32 sub_f32 mul_f32 div_f32 gen_mul;
    f64: add_f64 sub_f64 mul_f64 div_f64 gen_mul;
}

/// The bitwise forms for one type.
macro_rules! bit_forms {
    ($($t:ident: $and:ident $or:ident $xor:ident;)*) => {$(
        atomic_scalar! {
            $and: $t, |x, v| { x &= v } => x & v, gen_bitand::<$t>, inits_bitand::<$t>();
            $or: $t, |x, v| { x |= v } => x | v, gen_bitor::<$t>, inits_bitor::<$t>();
            $xor: $t, |x, v| { x ^= v } => x ^ v, gen_bitxor::<$t>, inits_bitxor::<$t>();
        }
    )*};
}

bit_forms! {
    u8: and_u8 or_u8 xor_u8;
    i32: and_i32 or_i32 xor_i32;
    u64: and_u64 or_u64 xor_u64;
    usize: and_usize or_usize xor_usize;
}

atomic_scalar! {
    and_bool: bool, |x, v| { x &= v } => x & v, gen_bool, inits_bool();
    or_bool: bool, |x, v| { x |= v } => x | v, |n| vec![false; n.saturating_sub(1)].into_iter().chain((n > 0).then_some(true)).collect(), inits_bool();
    xor_bool: bool, |x, v| { x ^= v } => x ^ v, gen_bool, inits_bool();
}

/// `x = x.max(e)` and `x = x.min(e)` for one type.
macro_rules! minmax_forms {
    ($($t:ident: $max:ident $min:ident;)*) => {$(
        atomic_scalar! {
            $max: $t, |x, v| { x = x.max(v) } => x.max(v), gen_minmax::<$t>, inits_max::<$t>();
            $min: $t, |x, v| { x = x.min(v) } => x.min(v), gen_minmax::<$t>, inits_min::<$t>();
        }
    )*};
}

minmax_forms! {
    i16: max_i16 min_i16;
    i32: max_i32 min_i32;
    u64: max_u64 min_u64;
    f32: max_f32 min_f32;
    f64: max_f64 min_f64;
}

/// `update x += e` is the same as `x += e`; several atomics on several scalars in one body.
#[test]
fn several_scalars_one_body() {
    #[acc::parallel]
    fn stats(a: &[i32]) -> (u64, i32, i32, u32) {
        let mut count = 0u64;
        let mut hi = i32::MIN;
        let mut lo = i32::MAX;
        let mut odd_bits = 0u32;
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            acc::atomic!(update count += 1);
            acc::atomic!(hi = hi.max(a[i]));
            acc::atomic!(lo = lo.min(a[i]));
            if a[i] % 2 != 0 {
                acc::atomic!(odd_bits |= 1u32 << (a[i].unsigned_abs() % 32));
            }
        }
        (count, hi, lo, odd_bits)
    }
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 100_000) as i32 - 50_000);
        let want = (
            n as u64,
            a.iter().copied().fold(i32::MIN, i32::max),
            a.iter().copied().fold(i32::MAX, i32::min),
            a.iter().filter(|&&x| x % 2 != 0).fold(0, |b, &x| b | 1 << (x.unsigned_abs() % 32)),
        );
        assert_eq!(stats(&a), want, "{n} elements");
    }
}

/// Atomics in the inner loop of a gang-vector nest, on a scalar declared before the nest.
#[test]
fn atomic_in_nested_loop() {
    #[acc::parallel]
    fn total(a: &[i64], n: usize, m: usize) -> (i64, i64) {
        let mut s = 0i64;
        let mut big = 0i64;
        #[acc::r#loop(gang)]
        for j in 0..n {
            #[acc::r#loop(vector)]
            for i in 0..m {
                acc::atomic!(s += a[j * m + i]);
                if a[j * m + i] > 900 {
                    acc::atomic!(big += 1);
                }
            }
        }
        (s, big)
    }
    for (n, m) in [(0, 0), (1, 1), (3, 1000), (300, 17)] {
        let a = vec_of(n * m, |i| (hash(i) % 1000) as i64);
        assert_eq!(total(&a, n, m), (a.iter().sum(), a.iter().filter(|&&x| x > 900).count() as i64), "{n}x{m}");
    }
}

// ---- elements -------------------------------------------------------------------------------

/// A histogram: `acc::atomic!(h[b] += 1)` from every iteration, on several element types.
#[test]
fn histogram() {
    #[acc::parallel]
    fn hist(a: &[u32], h: &mut [u32], hf: &mut [f64], hs: &mut [i8]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            let b = (a[i] % h.len() as u32) as usize;
            acc::atomic!(h[b] += 1);
            acc::atomic!(hf[b] += 0.5);
            acc::atomic!(hs[i % 3] -= 1);
        }
    }
    for n in [0usize, 1, 7, 127, 1001, 65537] {
        let a = vec_of(n, |i| hash(i) as u32);
        let mut h = vec![3u32; 16];
        let mut hf = vec![1.0f64; 16];
        let mut hs = vec![i8::MAX; 3];
        // `hs` counts down from 127 by n / 3 per slot: keep it in range.
        let n_small = n.min(300);
        hist(&a[..n_small], &mut h, &mut hf, &mut hs);
        let mut wh = vec![3u32; 16];
        let mut whf = vec![1.0f64; 16];
        let mut whs = vec![i8::MAX; 3];
        for (i, &x) in a[..n_small].iter().enumerate() {
            wh[(x % 16) as usize] += 1;
            whf[(x % 16) as usize] += 0.5;
            whs[i % 3] -= 1;
        }
        assert_eq!((&h, &hf, &hs), (&wh, &whf, &whs), "{n_small} elements");
        // The large case on the u32 histogram alone.
        let mut h = vec![0u32; 1000];
        let mut hf = vec![0.0f64; 1000];
        let mut hs = [0i8; 3]; // wraps: not checked here
        hist(&a, &mut h, &mut hf, &mut hs);
        let mut wh = vec![0u32; 1000];
        for &x in &a {
            wh[(x % 1000) as usize] += 1;
        }
        assert_eq!(h, wh, "{n} elements");
        assert_eq!(hf, wh.iter().map(|&c| c as f64 * 0.5).collect::<Vec<_>>(), "{n} elements");
    }
}

/// Per-bucket maximum, minimum, bit mask and product on elements.
#[test]
fn element_minmax_and_bits() {
    #[acc::parallel]
    fn per_bucket(a: &[i64], hi: &mut [i64], lo: &mut [f32], mask: &mut [u64], prod: &mut [i32]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            let b = (a[i].unsigned_abs() % 8) as usize;
            acc::atomic!(hi[b] = hi[b].max(a[i]));
            acc::atomic!(lo[b] = lo[b].min(a[i] as f32));
            acc::atomic!(mask[b] |= 1u64 << (i % 64));
            acc::atomic!(mask[8 + b] ^= a[i] as u64);
            if i % 997 == 0 {
                acc::atomic!(prod[b] *= -2);
            }
            acc::atomic!(mask[16 + b] &= !(1u64 << (a[i].unsigned_abs() % 64)));
        }
    }
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 2_000_001) as i64 - 1_000_000);
        let (mut hi, mut lo, mut mask, mut prod) = (vec![i64::MIN; 8], vec![0.0f32; 8], vec![u64::MAX; 24], vec![1i32; 8]);
        for m in &mut mask[..16] {
            *m = 0;
        }
        let (mut whi, mut wlo, mut wmask, mut wprod) = (hi.clone(), lo.clone(), mask.clone(), prod.clone());
        per_bucket(&a, &mut hi, &mut lo, &mut mask, &mut prod);
        for (i, &x) in a.iter().enumerate() {
            let b = (x.unsigned_abs() % 8) as usize;
            whi[b] = whi[b].max(x);
            wlo[b] = wlo[b].min(x as f32);
            wmask[b] |= 1 << (i % 64);
            wmask[8 + b] ^= x as u64;
            if i % 997 == 0 {
                wprod[b] *= -2;
            }
            wmask[16 + b] &= !(1u64 << (x.unsigned_abs() % 64));
        }
        assert_eq!((hi, lo, mask, prod), (whi, wlo, wmask, wprod), "{n} elements");
    }
}

// ---- capture, read, write -------------------------------------------------------------------

/// `capture x += 1` hands every iteration a distinct old value: the slots it writes are a
/// permutation, and the counter ends at the trip count.
#[test]
fn capture_gives_distinct_slots() {
    #[acc::parallel]
    fn compact(a: &[u32], out: &mut [u32]) -> usize {
        let mut next = 0usize;
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            if a[i] % 3 == 0 {
                let slot = acc::atomic!(capture next += 1);
                out[slot] = a[i];
            }
        }
        next
    }
    for n in SIZES {
        let a = vec_of(n, |i| hash(i) as u32);
        let mut out = vec![u32::MAX; n];
        let k = compact(&a, &mut out);
        let mut want: Vec<u32> = a.iter().copied().filter(|x| x % 3 == 0).collect();
        assert_eq!(k, want.len(), "{n} elements");
        let mut got = out[..k].to_vec();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "{n} elements");
        assert!(out[k..].iter().all(|&x| x == u32::MAX));
    }
}

/// `capture` with other operators returns the value before the update: subtracting from a
/// budget, every captured value is distinct and consistent with the final one.
#[test]
fn capture_other_operators() {
    #[acc::parallel]
    fn take(n: usize, budget: i64, before: &mut [i64], maxes: &mut [u32], vals: &[u32]) -> (i64, u32) {
        let mut left = budget;
        let mut m = 10u32;
        #[acc::r#loop(gang, vector)]
        for i in 0..n {
            before[i] = acc::atomic!(capture left -= 2);
            maxes[i] = acc::atomic!(capture m = m.max(vals[i]));
        }
        (left, m)
    }
    for n in SIZES {
        let vals = vec_of(n, |i| (hash(i) % 1_000_000) as u32);
        let mut before = vec![0i64; n];
        let mut maxes = vec![0u32; n];
        let (left, m) = take(n, 1 << 40, &mut before, &mut maxes, &vals);
        assert_eq!(left, (1i64 << 40) - 2 * n as i64);
        let mut got = before.clone();
        got.sort_unstable();
        let want: Vec<i64> = (0..n as i64).map(|k| left + 2 + 2 * k).collect();
        assert_eq!(got, want, "{n} elements: every old value once");
        let wm = vals.iter().copied().fold(10, u32::max);
        assert_eq!(m, wm);
        // Every captured maximum was a value the variable held: 10 or one of the inputs, at
        // most the final maximum; the iteration holding the largest input saw less than it
        // (or the maximum is tied).
        let held: std::collections::HashSet<u32> = vals.iter().copied().chain([10]).collect();
        assert!(maxes.iter().all(|&x| x <= wm && held.contains(&x)));
        if let Some(i) = (0..n).max_by_key(|&i| vals[i]) {
            assert!(maxes[i] <= vals[i]);
        }
    }
}

/// Capture on elements: a bucket sort in which each iteration takes the next slot of its
/// bucket.
#[test]
fn capture_on_elements() {
    #[acc::parallel]
    fn bucket(a: &[u32], fill: &mut [u32], table: &mut [u32], cap: usize) {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            let b = (a[i] % fill.len() as u32) as usize;
            let slot = acc::atomic!(capture fill[b] += 1) as usize;
            table[b * cap + slot] = i as u32;
        }
    }
    for n in [0usize, 1, 100, 4096] {
        let a = vec_of(n, |i| hash(i) as u32);
        let buckets = 8;
        let mut fill = vec![0u32; buckets];
        let mut table = vec![u32::MAX; buckets * n.max(1)];
        bucket(&a, &mut fill, &mut table, n.max(1));
        for b in 0..buckets {
            let mut got = table[b * n.max(1)..b * n.max(1) + fill[b] as usize].to_vec();
            got.sort_unstable();
            let want: Vec<u32> = (0..n as u32).filter(|&i| a[i as usize] % buckets as u32 == b as u32).collect();
            assert_eq!(got, want, "{n} elements, bucket {b}");
        }
    }
}

/// `read x` of a scalar other iterations update: every value read lies between the update
/// count of the iteration and the total, and the last updater reads the total.
#[test]
fn read_while_others_update() {
    #[acc::parallel]
    fn seen(out: &mut [u64]) -> u64 {
        let mut x = 0u64;
        #[acc::r#loop(gang, vector)]
        for i in 0..out.len() {
            acc::atomic!(x += 1);
            out[i] = acc::atomic!(read x);
        }
        x
    }
    for n in SIZES {
        let mut out = vec![0u64; n];
        assert_eq!(seen(&mut out), n as u64);
        assert!(out.iter().all(|&v| v >= 1 && v <= n as u64), "{n} elements");
        if n > 0 {
            assert_eq!(out.iter().copied().max(), Some(n as u64));
        }
    }
}

/// `read` of elements and of a scalar nobody writes during the loop.
#[test]
fn read_elements() {
    #[acc::parallel]
    fn copy_read(a: &mut [i32], c: &mut [i32], k: i32) {
        let mut limit = k;
        if k > 0 {
            acc::atomic!(write limit = k * 2);
        }
        #[acc::r#loop(gang, vector)]
        for i in 0..c.len() {
            let v = acc::atomic!(read a[i]);
            c[i] = v + acc::atomic!(read limit);
        }
    }
    for n in SIZES {
        let mut a = vec_of(n, |i| i as i32);
        let mut c = vec![0; n];
        copy_read(&mut a, &mut c, 5);
        assert_eq!(c, (0..n as i32).map(|x| x + 10).collect::<Vec<_>>());
    }
}

/// `write x = e` from many iterations writing the same value; `write a[i] = e` on shared and
/// on distinct elements.
#[test]
fn write_forms() {
    #[acc::parallel]
    fn flags(a: &[u32], marks: &mut [u8], c: &mut [u32]) -> (bool, u32) {
        let mut any = false;
        let mut last = 0u32;
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            if a[i] % 1000 == 7 {
                acc::atomic!(write any = true);
                acc::atomic!(write last = 7);
                acc::atomic!(write marks[(a[i] % 4) as usize] = 1);
            }
            acc::atomic!(write c[i] = a[i] / 2);
        }
        (any, last)
    }
    for n in SIZES {
        let a = vec_of(n, |i| hash(i) as u32 % 100_000);
        let mut marks = vec![0u8; 4];
        let mut c = vec![0u32; n];
        let got = flags(&a, &mut marks, &mut c);
        let hits: Vec<u32> = a.iter().copied().filter(|x| x % 1000 == 7).collect();
        assert_eq!(got, (!hits.is_empty(), if hits.is_empty() { 0 } else { 7 }), "{n} elements");
        let wm: Vec<u8> = (0..4).map(|b| hits.iter().any(|x| x % 4 == b) as u8).collect();
        assert_eq!(marks, wm);
        assert_eq!(c, a.iter().map(|x| x / 2).collect::<Vec<_>>());
    }
}

/// Atomics outside parallel loops (region top level, a `seq` loop, a `serial` region) act as
/// the plain operations.
#[test]
fn atomics_outside_parallel_loops() {
    #[acc::parallel]
    fn top(a: &[i32]) -> (i32, i32, i32) {
        let mut x = 1;
        acc::atomic!(x += 4);
        let old = acc::atomic!(capture x *= 3);
        let mut y = 0;
        #[acc::r#loop(seq)]
        for i in 0..a.len() {
            acc::atomic!(y = y.max(a[i]));
        }
        (acc::atomic!(read x), old, y)
    }
    #[acc::serial]
    fn serial_sum(a: &[i32]) -> i32 {
        let mut s = 0;
        #[acc::r#loop]
        for i in 0..a.len() {
            acc::atomic!(s -= a[i]);
        }
        s
    }
    let a = vec_of(1001, |i| (hash(i) % 1000) as i32);
    assert_eq!(top(&a), (15, 5, *a.iter().max().unwrap()));
    assert_eq!(serial_sum(&a), -a.iter().sum::<i32>());
    // `acc::atomic!` outside any region is the plain operation too.
    let mut z = 10u8;
    let before = acc::atomic!(capture z -= 3);
    acc::atomic!(z ^= 1);
    assert_eq!((before, acc::atomic!(read z)), (10, 6));
}
