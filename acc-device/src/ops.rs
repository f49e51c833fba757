//! Reduction operators: one trait per OpenACC operator, and a zero-sized value per operator
//! that generated code calls (`Add.identity(&s)`, `Add.combine(a, b)`), so that a type
//! without the operator gets an error that names the operator.
//!
//! | operator | trait | identity | types |
//! | --- | --- | --- | --- |
//! | `+` | [`ReduceAdd`] | `0` (`-0.0` for floats) | integers, floats |
//! | `*` | [`ReduceMul`] | `1` | integers, floats |
//! | `max` | [`ReduceMax`] | least value (`-inf` for floats) | integers, floats |
//! | `min` | [`ReduceMin`] | greatest value (`+inf` for floats) | integers, floats |
//! | `&` | [`ReduceBitAnd`] | all ones / `true` | integers, `bool` |
//! | <code>&#124;</code> | [`ReduceBitOr`] | `0` / `false` | integers, `bool` |
//! | `^` | [`ReduceBitXor`] | `0` / `false` | integers, `bool` |
//! | `&&` | [`ReduceAnd`] | `true` | `bool` |
//! | <code>&#124;&#124;</code> | [`ReduceOr`] | `false` | `bool` |
//!
//! An array `[T; N]` of such a `T` reduces element by element (OpenACC 2.7's array
//! reductions): its identity is `T`'s in every element, and `combine` combines the elements
//! at each index with `T`'s.
//!
//! The partial results are combined so that a reduction gives what the sequential loop gives:
//!
//! - Integer `+` and `*` combine with the plain operator, so they overflow as the user's own
//!   `s += x` does in the same build profile: a panic with overflow checks on (debug builds),
//!   wrapping without them. Each thread folds its part with the user's operator and the parts
//!   are combined with the same one; for unsigned `+` (and for values of one sign) that
//!   panics exactly when the sequential loop would, whatever the number of threads. With
//!   values of both signs (or a `*` reduction with a zero factor) a sequential loop may
//!   overflow in a running value that a different split never forms, and the other way round.
//! - The float `+` identity is `-0.0`, the one value `x` with `x + v == v` for every `v`
//!   (`0.0 + -0.0` is `0.0`), so a `-0.0` start over an empty loop, or a sum of `-0.0`s, stays
//!   `-0.0`.
//! - Float `max`/`min` ignore a NaN operand, as `f64::max` does, except against the identity:
//!   `combine` orders NaN just above `-inf` (for `max`; just below `+inf` for `min`), so that
//!   combining a NaN start with the partial result of an empty loop gives the NaN back, as
//!   the sequential `init.max(x0).max(x1)...` does when there is no `x`. (The one remaining
//!   difference: a NaN start with elements that are all `-inf` or NaN gives NaN, where the
//!   sequential fold gives `-inf`.)

macro_rules! op_trait {
    ($(#[$doc:meta])* $trait:ident, $op:literal, $label:literal, $note:literal) => {
        $(#[$doc])*
        #[diagnostic::on_unimplemented(
            message = $op,
            label = $label,
            note = $note
        )]
        pub trait $trait: Sized {
            /// The operator's identity: `combine(identity(), x) == x`.
            fn identity() -> Self;
            /// Combines two partial results.
            fn combine(self, other: Self) -> Self;
        }
    };
}

op_trait!(
    /// The `+` reduction.
    ReduceAdd,
    "reduction operator `+` is not defined for `{Self}`",
    "no `+` reduction for this type",
    "`+` reduces integers and floats"
);
op_trait!(
    /// The `*` reduction.
    ReduceMul,
    "reduction operator `*` is not defined for `{Self}`",
    "no `*` reduction for this type",
    "`*` reduces integers and floats"
);
op_trait!(
    /// The `max` reduction.
    ReduceMax,
    "reduction operator `max` is not defined for `{Self}`",
    "no `max` reduction for this type",
    "`max` reduces integers and floats"
);
op_trait!(
    /// The `min` reduction.
    ReduceMin,
    "reduction operator `min` is not defined for `{Self}`",
    "no `min` reduction for this type",
    "`min` reduces integers and floats"
);
op_trait!(
    /// The `&` reduction.
    ReduceBitAnd,
    "reduction operator `&` is not defined for `{Self}`",
    "no `&` reduction for this type",
    "`&` reduces integers and `bool`"
);
op_trait!(
    /// The `|` reduction.
    ReduceBitOr,
    "reduction operator `|` is not defined for `{Self}`",
    "no `|` reduction for this type",
    "`|` reduces integers and `bool`"
);
op_trait!(
    /// The `^` reduction.
    ReduceBitXor,
    "reduction operator `^` is not defined for `{Self}`",
    "no `^` reduction for this type",
    "`^` reduces integers and `bool`"
);
op_trait!(
    /// The `&&` reduction.
    ReduceAnd,
    "reduction operator `&&` is not defined for `{Self}`",
    "no `&&` reduction for this type",
    "`&&` reduces `bool` only"
);
op_trait!(
    /// The `||` reduction.
    ReduceOr,
    "reduction operator `||` is not defined for `{Self}`",
    "no `||` reduction for this type",
    "`||` reduces `bool` only"
);

macro_rules! int_impls {
    ($($t:ty),*) => {$(
        impl ReduceAdd for $t {
            #[inline]
            fn identity() -> Self { 0 }
            #[inline]
            // The user's `+`: overflow checks as in the user's own loop body (see the module docs).
            fn combine(self, other: Self) -> Self { self + other }
        }
        impl ReduceMul for $t {
            #[inline]
            fn identity() -> Self { 1 }
            #[inline]
            fn combine(self, other: Self) -> Self { self * other }
        }
        impl ReduceMax for $t {
            #[inline]
            fn identity() -> Self { <$t>::MIN }
            #[inline]
            fn combine(self, other: Self) -> Self { Ord::max(self, other) }
        }
        impl ReduceMin for $t {
            #[inline]
            fn identity() -> Self { <$t>::MAX }
            #[inline]
            fn combine(self, other: Self) -> Self { Ord::min(self, other) }
        }
        impl ReduceBitAnd for $t {
            #[inline]
            fn identity() -> Self { !0 }
            #[inline]
            fn combine(self, other: Self) -> Self { self & other }
        }
        impl ReduceBitOr for $t {
            #[inline]
            fn identity() -> Self { 0 }
            #[inline]
            fn combine(self, other: Self) -> Self { self | other }
        }
        impl ReduceBitXor for $t {
            #[inline]
            fn identity() -> Self { 0 }
            #[inline]
            fn combine(self, other: Self) -> Self { self ^ other }
        }
    )*};
}

int_impls!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

macro_rules! float_impls {
    ($($t:ident),*) => {$(
        impl ReduceAdd for $t {
            #[inline]
            fn identity() -> Self { -0.0 }
            #[inline]
            fn combine(self, other: Self) -> Self { self + other }
        }
        impl ReduceMul for $t {
            #[inline]
            fn identity() -> Self { 1.0 }
            #[inline]
            fn combine(self, other: Self) -> Self { self * other }
        }
        impl ReduceMax for $t {
            #[inline]
            fn identity() -> Self { $t::NEG_INFINITY }
            #[inline]
            fn combine(self, other: Self) -> Self {
                // NaN ranks just above `-inf` (see the module docs); elsewhere `f64::max`.
                if self.is_nan() {
                    if other == $t::NEG_INFINITY || other.is_nan() { self } else { other }
                } else if other.is_nan() {
                    if self == $t::NEG_INFINITY { other } else { self }
                } else {
                    $t::max(self, other)
                }
            }
        }
        impl ReduceMin for $t {
            #[inline]
            fn identity() -> Self { $t::INFINITY }
            #[inline]
            fn combine(self, other: Self) -> Self {
                // NaN ranks just below `+inf` (see the module docs); elsewhere `f64::min`.
                if self.is_nan() {
                    if other == $t::INFINITY || other.is_nan() { self } else { other }
                } else if other.is_nan() {
                    if self == $t::INFINITY { other } else { self }
                } else {
                    $t::min(self, other)
                }
            }
        }
    )*};
}

float_impls!(f32, f64);

impl ReduceBitAnd for bool {
    #[inline]
    fn identity() -> Self {
        true
    }
    #[inline]
    fn combine(self, other: Self) -> Self {
        self & other
    }
}
impl ReduceBitOr for bool {
    #[inline]
    fn identity() -> Self {
        false
    }
    #[inline]
    fn combine(self, other: Self) -> Self {
        self | other
    }
}
impl ReduceBitXor for bool {
    #[inline]
    fn identity() -> Self {
        false
    }
    #[inline]
    fn combine(self, other: Self) -> Self {
        self ^ other
    }
}
impl ReduceAnd for bool {
    #[inline]
    fn identity() -> Self {
        true
    }
    #[inline]
    fn combine(self, other: Self) -> Self {
        self && other
    }
}
impl ReduceOr for bool {
    #[inline]
    fn identity() -> Self {
        false
    }
    #[inline]
    fn combine(self, other: Self) -> Self {
        self || other
    }
}

/// Arrays reduce element by element: each index with the element type's operator.
macro_rules! array_impls {
    ($($trait:ident),*) => {$(
        impl<T: $trait + Copy, const N: usize> $trait for [T; N] {
            #[inline]
            fn identity() -> Self {
                [T::identity(); N]
            }
            #[inline]
            fn combine(self, other: Self) -> Self {
                let mut out = self;
                let mut i = 0;
                while i < N {
                    out[i] = self[i].combine(other[i]);
                    i += 1;
                }
                out
            }
        }
    )*};
}

array_impls!(ReduceAdd, ReduceMul, ReduceMax, ReduceMin, ReduceBitAnd, ReduceBitOr, ReduceBitXor, ReduceAnd, ReduceOr);

macro_rules! op_value {
    ($(#[$doc:meta])* $name:ident, $trait:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl $name {
            #[doc = concat!("The identity of the operator for `T` (`_like` only fixes `T`: pass the reduced variable). Requires [`", stringify!($trait), "`].")]
            #[inline]
            pub fn identity<T: $trait>(self, _like: &T) -> T {
                T::identity()
            }
            #[doc = concat!("Combines two partial results with the operator. Requires [`", stringify!($trait), "`].")]
            #[inline]
            pub fn combine<T: $trait>(self, a: T, b: T) -> T {
                a.combine(b)
            }
        }
    };
}

op_value!(
    /// The `+` operator as a value (see the module docs).
    Add,
    ReduceAdd
);
op_value!(
    /// The `*` operator as a value.
    Mul,
    ReduceMul
);
op_value!(
    /// The `max` operator as a value.
    Max,
    ReduceMax
);
op_value!(
    /// The `min` operator as a value.
    Min,
    ReduceMin
);
op_value!(
    /// The `&` operator as a value.
    BitAnd,
    ReduceBitAnd
);
op_value!(
    /// The `|` operator as a value.
    BitOr,
    ReduceBitOr
);
op_value!(
    /// The `^` operator as a value.
    BitXor,
    ReduceBitXor
);
op_value!(
    /// The `&&` operator as a value.
    And,
    ReduceAnd
);
op_value!(
    /// The `||` operator as a value.
    Or,
    ReduceOr
);

#[cfg(test)]
mod tests {
    use super::*;

    /// `identity` is neutral on both sides and `combine` folds like the operator.
    fn check<T: Copy + PartialEq + std::fmt::Debug>(
        identity: T,
        combine: impl Fn(T, T) -> T,
        samples: &[T],
        fold: impl Fn(T, T) -> T,
    ) {
        for &x in samples {
            assert_eq!(combine(identity, x), x);
            assert_eq!(combine(x, identity), x);
            for &y in samples {
                assert_eq!(combine(x, y), fold(x, y), "{x:?} op {y:?}");
            }
        }
    }

    /// `identity` is neutral and `combine` agrees with `op` wherever `checked` says `op` does
    /// not overflow.
    fn check_checked<T: Copy + PartialEq + std::fmt::Debug>(
        identity: T,
        combine: impl Fn(T, T) -> T,
        samples: &[T],
        checked: impl Fn(T, T) -> Option<T>,
    ) {
        for &x in samples {
            assert_eq!(combine(identity, x), x);
            assert_eq!(combine(x, identity), x);
            for &y in samples {
                if let Some(z) = checked(x, y) {
                    assert_eq!(combine(x, y), z, "{x:?} op {y:?}");
                }
            }
        }
    }

    /// Whether `f` panics.
    fn panics<R>(f: impl FnOnce() -> R + std::panic::UnwindSafe) -> bool {
        std::panic::catch_unwind(f).is_err()
    }

    macro_rules! int_tests {
        ($($t:ident),*) => {$(
            #[test]
            fn $t() {
                let s: [$t; 6] = [0, 1, 2, <$t>::MAX, <$t>::MIN, (<$t>::MAX / 3) ^ 0b1010];
                let v = 0 as $t;
                check_checked(Add.identity(&v), |a, b| Add.combine(a, b), &s, <$t>::checked_add);
                check_checked(Mul.identity(&v), |a, b| Mul.combine(a, b), &s, <$t>::checked_mul);
                check(Max.identity(&v), |a, b| Max.combine(a, b), &s, Ord::max);
                check(Min.identity(&v), |a, b| Min.combine(a, b), &s, Ord::min);
                check(BitAnd.identity(&v), |a, b| BitAnd.combine(a, b), &s, |a, b| a & b);
                check(BitOr.identity(&v), |a, b| BitOr.combine(a, b), &s, |a, b| a | b);
                check(BitXor.identity(&v), |a, b| BitXor.combine(a, b), &s, |a, b| a ^ b);
                assert_eq!(<$t as ReduceAdd>::identity(), 0);
                assert_eq!(<$t as ReduceMul>::identity(), 1);
                assert_eq!(<$t as ReduceMax>::identity(), <$t>::MIN);
                assert_eq!(<$t as ReduceMin>::identity(), <$t>::MAX);
                assert_eq!(<$t as ReduceBitAnd>::identity().count_zeros(), 0);
                // Integer + and * overflow as the plain operators do in this build: a panic
                // with overflow checks, wrapping without.
                let max = std::hint::black_box(<$t>::MAX);
                let plain_add_panics = panics(|| max + 1);
                assert_eq!(panics(|| Add.combine(max, 1)), plain_add_panics);
                assert_eq!(panics(|| Mul.combine(max, 2)), plain_add_panics);
                assert_eq!(plain_add_panics, cfg!(debug_assertions));
                if !plain_add_panics {
                    assert_eq!(Add.combine(max, 1), <$t>::MIN);
                    assert_eq!(Mul.combine(max, 2), max.wrapping_mul(2));
                }
            }
        )*};
    }

    mod ints {
        use super::*;
        int_tests!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
    }

    macro_rules! float_tests {
        ($($t:ident),*) => {$(
            #[test]
            fn $t() {
                let s: [$t; 7] = [0.0, -0.5, 1.0, 3.25, -1e30, <$t>::MAX, <$t>::MIN_POSITIVE];
                let v: $t = 0.0;
                check(Add.identity(&v), |a, b| Add.combine(a, b), &s, |a, b| a + b);
                check(Mul.identity(&v), |a, b| Mul.combine(a, b), &s, |a, b| a * b);
                check(Max.identity(&v), |a, b| Max.combine(a, b), &s, <$t>::max);
                check(Min.identity(&v), |a, b| Min.combine(a, b), &s, <$t>::min);
                assert_eq!(Max.identity(&v), <$t>::NEG_INFINITY);
                assert_eq!(Min.identity(&v), <$t>::INFINITY);
                // NaN operands are ignored by max/min, as f32::max does
                assert_eq!(Max.combine(<$t>::NAN, 2.0), 2.0);
                assert_eq!(Max.combine(2.0, <$t>::NAN), 2.0);
                assert_eq!(Min.combine(1.0, <$t>::NAN), 1.0);
                assert_eq!(Min.combine(<$t>::NAN, 1.0), 1.0);
                assert_eq!(Max.combine(<$t>::NAN, <$t>::INFINITY), <$t>::INFINITY);
                assert_eq!(Min.combine(<$t>::NAN, <$t>::NEG_INFINITY), <$t>::NEG_INFINITY);
                // ... but a NaN start combined with an empty loop's partial (the identity)
                // stays NaN, as `NAN.max(/* no elements */)` does.
                assert!(Max.combine(<$t>::NAN, Max.identity(&v)).is_nan());
                assert!(Max.combine(Max.identity(&v), <$t>::NAN).is_nan());
                assert!(Min.combine(<$t>::NAN, Min.identity(&v)).is_nan());
                assert!(Min.combine(Min.identity(&v), <$t>::NAN).is_nan());
                // the ranking is a total order: any grouping gives the same result
                let xs = [<$t>::NAN, <$t>::NEG_INFINITY, -1.0, 3.0, <$t>::INFINITY, <$t>::NAN];
                for &a in &xs {
                    for &b in &xs {
                        for &c in &xs {
                            for op in [|x, y| Max.combine(x, y), |x, y| Min.combine(x, y)] {
                                let l: $t = op(op(a, b), c);
                                let r: $t = op(a, op(b, c));
                                assert!(l.to_bits() == r.to_bits() || (l.is_nan() && r.is_nan()), "{a} {b} {c}");
                                assert!(op(a, b).to_bits() == op(b, a).to_bits() || op(a, b).is_nan() && op(b, a).is_nan());
                            }
                        }
                    }
                }
                // `+`: the identity is -0.0, so -0.0 sums stay -0.0 and +0.0 is kept
                let z = Add.identity(&v);
                assert_eq!(z.to_bits(), (-0.0 as $t).to_bits());
                assert_eq!(Add.combine(-0.0 as $t, z).to_bits(), (-0.0 as $t).to_bits());
                assert_eq!(Add.combine(z, 0.0).to_bits(), (0.0 as $t).to_bits());
                assert_eq!(Add.combine(0.0, z).to_bits(), (0.0 as $t).to_bits());
            }
        )*};
    }

    mod floats {
        use super::*;
        float_tests!(f32, f64);
    }

    #[test]
    fn bools() {
        let s = [false, true];
        check(
            BitAnd.identity(&true),
            |a, b| BitAnd.combine(a, b),
            &s,
            |a, b| a & b,
        );
        check(
            BitOr.identity(&true),
            |a, b| BitOr.combine(a, b),
            &s,
            |a, b| a | b,
        );
        check(
            BitXor.identity(&true),
            |a, b| BitXor.combine(a, b),
            &s,
            |a, b| a ^ b,
        );
        check(
            And.identity(&true),
            |a, b| And.combine(a, b),
            &s,
            |a, b| a && b,
        );
        check(
            Or.identity(&true),
            |a, b| Or.combine(a, b),
            &s,
            |a, b| a || b,
        );
        assert!(<bool as ReduceAnd>::identity());
        assert!(!<bool as ReduceOr>::identity());
    }

    #[test]
    fn arrays_reduce_element_by_element() {
        let a = [1.5f64, -2.0, 0.25];
        let b = [0.5f64, 4.0, f64::NAN];
        let sum = Add.combine(a, b);
        assert_eq!(sum[..2], [2.0, 2.0]);
        assert!(sum[2].is_nan());
        assert_eq!(Max.combine(a, b)[..2], [1.5, 4.0]);
        assert_eq!(Max.combine(a, b)[2], 0.25);
        assert_eq!(Min.combine(a, b), [0.5, -2.0, 0.25]);
        assert_eq!(Mul.combine([3i32, -2], [5, 7]), [15, -14]);
        assert_eq!(BitXor.combine([0b1100u8, 1], [0b1010, 1]), [0b0110, 0]);
        assert_eq!(And.combine([true, true, false], [true, false, false]), [true, false, false]);
        assert_eq!(Or.combine([true, false], [false, false]), [true, false]);
        // the identity is the element's in every element, and neutral
        assert_eq!(Max.identity(&[0i64; 4]), [i64::MIN; 4]);
        assert_eq!(BitAnd.identity(&[0u16; 2]), [u16::MAX; 2]);
        let z = Add.identity(&[1.0f32; 3]);
        assert!(z.iter().all(|x| x.to_bits() == (-0.0f32).to_bits()));
        assert_eq!(Add.combine(z, [1.0, 0.0, -3.5]), [1.0, 0.0, -3.5]);
        assert_eq!(Add.combine([0u32; 0], []), []);
    }

    #[test]
    fn fold_with_ops() {
        let xs = [3i32, -7, 12, 5];
        let s = xs.iter().fold(Add.identity(&0), |a, &x| Add.combine(a, x));
        assert_eq!(s, 13);
        let m = xs.iter().fold(Max.identity(&0), |a, &x| Max.combine(a, x));
        assert_eq!(m, 12);
        let p = xs.iter().fold(Mul.identity(&0), |a, &x| Mul.combine(a, x));
        assert_eq!(p, -1260);
    }
}
