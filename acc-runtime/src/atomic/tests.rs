use super::*;
use crate::host::{par_for, SharedMut};

macro_rules! int_ops {
    ($($t:ident),*) => {$(
        #[test]
        fn $t() {
            let mut x: $t = 12;
            let a = AtomicRef::new(&mut x);
            assert_eq!(a.load(), 12);
            assert_eq!(a.fetch_add(3), 12);
            assert_eq!(a.fetch_sub(5), 15);
            assert_eq!(a.fetch_mul(4), 10);
            assert_eq!(a.fetch_div(3), 40);
            assert_eq!(a.fetch_max(20), 13);
            assert_eq!(a.fetch_min(7), 20);
            assert_eq!(a.fetch_and(0b110), 7);
            assert_eq!(a.fetch_or(0b1001), 0b110);
            assert_eq!(a.fetch_xor(0b1), 0b1111);
            assert_eq!(a.swap(1), 0b1110);
            a.store(<$t>::MAX);
            assert_eq!(a.fetch_add(1), <$t>::MAX, "wraps");
            assert_eq!(a.load(), <$t>::MIN);
            a.store(<$t>::MAX);
            a.fetch_mul(2);
            assert_eq!(a.load(), <$t>::MAX.wrapping_mul(2));
            assert_eq!(x, <$t>::MAX.wrapping_mul(2));
        }
    )*};
}

mod ints {
    use super::*;
    int_ops!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
}

macro_rules! float_ops {
    ($($t:ident),*) => {$(
        #[test]
        fn $t() {
            let mut x: $t = 1.5;
            let a = AtomicRef::new(&mut x);
            assert_eq!(a.fetch_add(2.0), 1.5);
            assert_eq!(a.fetch_sub(0.5), 3.5);
            assert_eq!(a.fetch_mul(4.0), 3.0);
            assert_eq!(a.fetch_div(8.0), 12.0);
            assert_eq!(a.fetch_max(-1.0), 1.5);
            assert_eq!(a.fetch_min(-1.0), 1.5);
            assert_eq!(a.load(), -1.0);
            a.store(<$t>::NAN);
            assert!(a.fetch_add(1.0).is_nan(), "a NaN does not make the CAS loop spin");
            assert!(a.fetch_max(2.0).is_nan());
            assert_eq!(a.load(), 2.0, "max ignores NaN like f32::max");
            assert_eq!(a.swap(-0.0), 2.0);
            assert_eq!(a.fetch_add(0.0).to_bits(), (-0.0 as $t).to_bits());
            a.store(1.0);
            assert_eq!(a.fetch_div(0.0), 1.0);
            assert_eq!(a.load(), <$t>::INFINITY);
        }
    )*};
}

mod floats {
    use super::*;
    float_ops!(f32, f64);
}

#[test]
fn bools() {
    let mut b = true;
    let a = AtomicRef::new(&mut b);
    assert!(a.fetch_and(false));
    assert!(!a.fetch_or(true));
    assert!(a.fetch_xor(true));
    assert!(!a.load());
    a.store(true);
    assert!(a.swap(false));
    assert!(!b);
}

#[test]
#[should_panic(expected = "attempt to divide by zero")]
fn int_div_by_zero_panics() {
    let mut x = 5i32;
    AtomicRef::new(&mut x).fetch_div(0);
}

#[test]
fn contention_8_threads_100k_each() {
    const T: usize = 8;
    const N: usize = 100_000;
    let mut f = 0.0f64;
    let mut g = 0.0f32;
    let mut i = -5i32;
    let mut u = 5u8;
    let mut mx = 0u64;
    let mut mn = i64::MAX;
    let mut prod = 1.0f64;
    let (af, ag, ai, au) = (
        AtomicRef::new(&mut f),
        AtomicRef::new(&mut g),
        AtomicRef::new(&mut i),
        AtomicRef::new(&mut u),
    );
    let (amx, amn, ap) = (
        AtomicRef::new(&mut mx),
        AtomicRef::new(&mut mn),
        AtomicRef::new(&mut prod),
    );
    std::thread::scope(|s| {
        for t in 0..T {
            s.spawn(move || {
                for k in 0..N {
                    af.fetch_add(1.0);
                    ag.fetch_add(0.25);
                    ai.fetch_add(1);
                    au.fetch_add(1);
                    let v = (t * N + k) as u64;
                    amx.fetch_max(v);
                    amn.fetch_min(-(v as i64));
                    if k % 1000 == 0 {
                        ap.fetch_mul(2.0);
                    }
                }
            });
        }
    });
    assert_eq!(f, (T * N) as f64);
    assert_eq!(g, (T * N) as f32 * 0.25);
    assert_eq!(i, (T * N) as i32 - 5);
    assert_eq!(u, (5 + T * N % 256) as u8, "u8 wraps");
    assert_eq!(mx, (T * N - 1) as u64);
    assert_eq!(mn, -((T * N - 1) as i64));
    assert_eq!(prod, 2f64.powi((T * N / 1000) as i32));
}

#[test]
fn contention_through_rayon_and_shared_mut() {
    // A histogram: many iterations update the same bins, through `SharedMut::atomic`.
    let n = 1_000_000;
    let mut hist = vec![0u32; 7];
    let mut sums = vec![0.0f64; 7];
    let mut bytes = vec![0u8; 7];
    let (h, s, b) = (
        SharedMut::new(&mut hist),
        SharedMut::new(&mut sums),
        SharedMut::new(&mut bytes),
    );
    par_for(n, |k| {
        let bin = k % 7;
        h.atomic(bin).fetch_add(1);
        s.atomic(bin).fetch_add(0.5);
        b.atomic(bin).fetch_add(1);
    });
    for bin in 0..7 {
        let cnt = (0..n).filter(|k| k % 7 == bin).count();
        assert_eq!(hist[bin] as usize, cnt);
        assert_eq!(sums[bin], cnt as f64 * 0.5);
        assert_eq!(bytes[bin], (cnt % 256) as u8);
    }
}

#[test]
fn atomic_ref_is_copy_send_sync() {
    fn check<T: Copy + Send + Sync>() {}
    check::<AtomicRef<'static, f64>>();
    check::<AtomicRef<'static, bool>>();
    let mut x = 1u16;
    assert!(format!("{:?}", AtomicRef::new(&mut x)).starts_with("AtomicRef("));
}
