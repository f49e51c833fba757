//! Helpers shared by the semantic suite (`tests/semantics_*.rs`).
//!
//! The suite is written once and runs on whatever device `acc::device_type()` picks: the host
//! backend in CI, a GPU with `ACC_DEVICE_TYPE=nvidia`. Every test compares an acc region
//! against plain sequential Rust; the data is chosen so that the answer does not depend on the
//! order of evaluation (integers that cannot overflow in any order, floats that are small
//! integers or powers of two, so every partial result is exact).
#![allow(dead_code, unused_macros)]

use std::fmt::Debug;

/// Whether the current device is the host backend. Tests about the host backend only call
/// [`host_only!`] instead.
pub fn on_host() -> bool {
    acc::device_type() == acc::DeviceType::Host
}

/// Returns `false` (after printing a line saying the test is skipped) unless the current device
/// is the host backend.
pub fn host_backend_or_skip(test: &str) -> bool {
    if on_host() {
        true
    } else {
        println!("skipped {test}: it is about the host backend, and the device is {:?}", acc::device_type());
        false
    }
}

/// First statement of a test about the host backend: returns early on any other device.
macro_rules! host_only {
    ($name:expr) => {
        if !$crate::common::host_backend_or_skip($name) {
            return;
        }
    };
}
#[allow(unused_imports)]
pub(crate) use host_only;

/// The message of a caught panic (`catch_unwind`'s error): its `String` or `&str` payload.
pub fn panic_message(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
}

/// A deterministic hash of `i` (splitmix64), for data without visible pattern.
pub fn hash(i: usize) -> u64 {
    let mut z = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `m` marked positions spread over `0..n` (all of them when `n <= m`): the number of the
/// mark at `i`, if any.
pub fn mark(n: usize, m: usize, i: usize) -> Option<usize> {
    if m == 0 {
        return None;
    }
    if n <= m {
        return Some(i);
    }
    let stride = n / m;
    (i % stride == stride / 2 && i / stride < m).then_some(i / stride)
}

/// The element types of the reduction matrix, with what the data generators need to know.
pub trait Elem: Copy + PartialEq + PartialOrd + Debug + Send + Sync + 'static {
    const NAME: &'static str;
    const SIGNED: bool;
    const FLOAT: bool;
    /// Bits of an integer type (0 for floats).
    const BITS: u32;
    /// The largest magnitude every partial result may reach: it fits the type and, for
    /// floats, is an exactly represented integer.
    const LIMIT: i64;
    /// `v as Self` (wrapping for integers).
    fn of(v: i64) -> Self;
    /// `v / 4` for floats (exact), `v` for integers: floats get fractions too.
    fn quarters(v: i64) -> Self;
}

macro_rules! int_elem {
    ($($t:ident),*) => {$(
        impl Elem for $t {
            const NAME: &'static str = stringify!($t);
            const SIGNED: bool = $t::MIN != 0;
            const FLOAT: bool = false;
            const BITS: u32 = $t::BITS;
            const LIMIT: i64 = if ($t::MAX as u128) < (1u128 << 40) { $t::MAX as i64 } else { 1 << 40 };
            fn of(v: i64) -> Self {
                v as $t
            }
            fn quarters(v: i64) -> Self {
                v as $t
            }
        }
    )*};
}
int_elem!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl Elem for f32 {
    const NAME: &'static str = "f32";
    const SIGNED: bool = true;
    const FLOAT: bool = true;
    const BITS: u32 = 0;
    const LIMIT: i64 = 1 << 24;
    fn of(v: i64) -> Self {
        v as f32
    }
    fn quarters(v: i64) -> Self {
        v as f32 * 0.25
    }
}

impl Elem for f64 {
    const NAME: &'static str = "f64";
    const SIGNED: bool = true;
    const FLOAT: bool = true;
    const BITS: u32 = 0;
    const LIMIT: i64 = 1 << 40;
    fn of(v: i64) -> Self {
        v as f64
    }
    fn quarters(v: i64) -> Self {
        v as f64 * 0.25
    }
}

impl Elem for bool {
    const NAME: &'static str = "bool";
    const SIGNED: bool = false;
    const FLOAT: bool = false;
    const BITS: u32 = 1;
    const LIMIT: i64 = 1;
    fn of(v: i64) -> Self {
        v & 1 != 0
    }
    fn quarters(v: i64) -> Self {
        v & 1 != 0
    }
}

/// Data for `+`: values in `-3..=3` (`0..=3` unsigned), sparse enough that the sum of their
/// magnitudes stays below half the type's limit, so no order of additions overflows.
pub fn gen_add<T: Elem>(n: usize) -> Vec<T> {
    let budget = (T::LIMIT / 2) as usize / 3;
    let stride = n.div_ceil(budget.max(1)).max(1);
    (0..n)
        .map(|i| {
            if i % stride != 0 {
                return T::of(0);
            }
            let h = hash(i);
            T::quarters(if T::SIGNED { (h % 7) as i64 - 3 } else { (h % 4) as i64 })
        })
        .collect()
}

/// Initial values for `+`: not the identity, and (signed) negative too.
pub fn inits_add<T: Elem>() -> Vec<T> {
    if T::SIGNED {
        vec![T::of(5), T::of(-9)]
    } else {
        vec![T::of(5), T::of(11)]
    }
}

/// Data for `*`: ones, with a few twos (and for signed types three minus ones; for floats
/// also halves and fours), so the product is exact and fits in any order.
pub fn gen_mul<T: Elem>(n: usize) -> Vec<T> {
    let twos = if T::FLOAT { 24 } else if T::SIGNED { (T::BITS - 4).min(12) } else { (T::BITS - 3).min(12) } as usize;
    let negs = if T::SIGNED { 3 } else { 0 };
    let m = twos + negs;
    (0..n)
        .map(|i| match mark(n, m, i) {
            None => T::of(1),
            Some(j) if j >= twos => T::of(-1),
            Some(j) if T::FLOAT => [T::of(2), T::of(4), T::of(-1), T::quarters(2)][j % 4],
            Some(_) => T::of(2),
        })
        .collect()
}

pub fn inits_mul<T: Elem>() -> Vec<T> {
    if T::SIGNED {
        vec![T::of(3), T::of(-1)]
    } else {
        vec![T::of(3)]
    }
}

/// The range of `max`/`min` data: `-r..=r` (`0..=r` unsigned).
fn minmax_range<T: Elem>() -> i64 {
    (T::LIMIT / 4).min(1000)
}

/// Data for `max`/`min`: hashed values in a modest range, the extremes somewhere inside.
pub fn gen_minmax<T: Elem>(n: usize) -> Vec<T> {
    let r = minmax_range::<T>();
    (0..n)
        .map(|i| {
            let h = hash(i) as i64 & i64::MAX;
            T::quarters(if T::SIGNED { h % (2 * r + 1) - r } else { h % (r + 1) })
        })
        .collect()
}

/// Initial values for `max`: one below the data (the data decides), one above all of it (the
/// initial value decides, so it must take part).
pub fn inits_max<T: Elem>() -> Vec<T> {
    let r = minmax_range::<T>();
    if T::SIGNED {
        vec![T::of(-r / 2), T::of(r + 3)]
    } else {
        vec![T::of(1), T::of(r + 3)]
    }
}

/// Initial values for `min`: one above the data's minimum, one below all of it.
pub fn inits_min<T: Elem>() -> Vec<T> {
    let r = minmax_range::<T>();
    if T::SIGNED {
        vec![T::of(r / 2), T::of(-r - 3)]
    } else {
        vec![T::of(r / 2), T::of(0)]
    }
}

/// Data for `&`: all ones, a few elements with one bit cleared.
pub fn gen_bitand<T: Elem>(n: usize) -> Vec<T> {
    (0..n)
        .map(|i| match mark(n, 6, i) {
            None => T::of(-1),
            Some(j) => T::of(!(1i64 << ((j as u32 * 5 + 1) % T::BITS))),
        })
        .collect()
}

pub fn inits_bitand<T: Elem>() -> Vec<T> {
    vec![T::of(!(1i64 << (T::BITS - 1))), T::of(!4)]
}

/// Data for `|`: zeros, a few elements with one bit set.
pub fn gen_bitor<T: Elem>(n: usize) -> Vec<T> {
    (0..n)
        .map(|i| match mark(n, 6, i) {
            None => T::of(0),
            Some(j) => T::of(1i64 << ((j as u32 * 5 + 1) % T::BITS)),
        })
        .collect()
}

pub fn inits_bitor<T: Elem>() -> Vec<T> {
    vec![T::of(1i64 << (T::BITS - 1)), T::of(16)]
}

/// Data for `^`: hashed bit patterns.
pub fn gen_bitxor<T: Elem>(n: usize) -> Vec<T> {
    (0..n).map(|i| T::of(hash(i) as i64)).collect()
}

pub fn inits_bitxor<T: Elem>() -> Vec<T> {
    vec![T::of(0x5A5A_5A5A_5A5A_5A5A), T::of(0x77)]
}

/// Boolean data patterns of length `n`: mixed, all true, all false, one true, one false.
pub fn bool_patterns(n: usize) -> Vec<Vec<bool>> {
    vec![
        (0..n).map(|i| hash(i) % 3 != 0).collect(),
        vec![true; n],
        vec![false; n],
        (0..n).map(|i| i == n / 2).collect(),
        (0..n).map(|i| i != n / 3).collect(),
    ]
}

/// A vector of `n` values `f(i)`.
pub fn vec_of<T>(n: usize, f: impl FnMut(usize) -> T) -> Vec<T> {
    (0..n).map(f).collect()
}

/// Mostly `true`, an occasional `false` (so `&&` of a long run is `false`, of a short one often
/// `true`).
pub fn gen_bool(n: usize) -> Vec<bool> {
    (0..n).map(|i| hash(i) % 64 != 0).collect()
}

pub fn inits_bool() -> Vec<bool> {
    vec![true, false]
}

/// A const of the helper module, used in a region of `tests/semantics_names.rs`: the device
/// crate declares `tests/common/mod.rs` as the module `common` of each test that has it.
pub const HALF: f64 = 0.5;
