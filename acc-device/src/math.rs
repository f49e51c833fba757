//! Floating-point functions for `no_std` code: the [`Float`] trait gives `f32` and `f64` the
//! methods `std` has and `core` lacks, with `std`'s meaning, so that `x.sqrt()` in a loop body
//! means the same on the host backend and on the GPU.
//!
//! | methods | on the GPU | on the host (no `std`) |
//! | --- | --- | --- |
//! | `sqrt`, `mul_add`, `floor`, `ceil`, `round`, `trunc` | LLVM intrinsics: one correctly rounded PTX instruction (`sqrt.rn`, `fma.rn`, `cvt.rmi`...) | `libm` |
//! | `abs`, `min`, `max`, `copysign`, `signum`, `recip` | `core`'s inherent methods | same |
//! | `powi` | repeated squaring (compiler-rt's `__powidf2`, as `std`'s `powi` on the host) | same |
//! | `exp`, `exp2`, `ln`, `log2`, `log10`, `sin`, `cos`, `tan`, `powf`, `hypot`, `atan2`, `tanh`, `cbrt` | the `libm` crate (musl's algorithms, within 1 ulp), compiled to PTX | same |
//!
//! Name resolution: `core` has no inherent `f32::sqrt` & co. (they sit behind the unstable
//! `core_float_math` as free functions in `core::f32::math`), so with `use
//! acc_device::prelude::*` a method call `x.sqrt()` resolves to this trait, on the host and on
//! nvptx (checked by the PTX tests of acc-build). Where `core` has the inherent method
//! (`abs`, `min`, `max`, `copysign`, `signum`, `recip`), the inherent one is called, with the
//! same meaning. In a crate that links `std`, `std`'s inherent methods win, again with the same
//! meaning.

/// `std`'s floating-point methods for `no_std` code (see the [module docs](self)).
pub trait Float: Copy {
    /// Square root (correctly rounded). NaN for negative inputs.
    fn sqrt(self) -> Self;
    /// `e^self`.
    fn exp(self) -> Self;
    /// `2^self`.
    fn exp2(self) -> Self;
    /// Natural logarithm.
    fn ln(self) -> Self;
    /// Base-2 logarithm.
    fn log2(self) -> Self;
    /// Base-10 logarithm.
    fn log10(self) -> Self;
    /// Sine (radians).
    fn sin(self) -> Self;
    /// Cosine (radians).
    fn cos(self) -> Self;
    /// Tangent (radians).
    fn tan(self) -> Self;
    /// `self^n` for a float exponent.
    fn powf(self, n: Self) -> Self;
    /// `self^n` for an integer exponent, by repeated squaring.
    fn powi(self, n: i32) -> Self;
    /// Absolute value.
    fn abs(self) -> Self;
    /// The smaller of two values; a NaN operand is ignored.
    fn min(self, other: Self) -> Self;
    /// The larger of two values; a NaN operand is ignored.
    fn max(self, other: Self) -> Self;
    /// `self * a + b` with one rounding.
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// Largest integer `<= self`.
    fn floor(self) -> Self;
    /// Smallest integer `>= self`.
    fn ceil(self) -> Self;
    /// Nearest integer, halves away from zero.
    fn round(self) -> Self;
    /// Integer part (towards zero).
    fn trunc(self) -> Self;
    /// `sqrt(self^2 + other^2)` without undue overflow.
    fn hypot(self, other: Self) -> Self;
    /// Four-quadrant arctangent of `self / other` (`self` is y).
    fn atan2(self, other: Self) -> Self;
    /// Hyperbolic tangent.
    fn tanh(self) -> Self;
    /// Cube root.
    fn cbrt(self) -> Self;
    /// `1 / self`.
    fn recip(self) -> Self;
    /// `1.0` for positive values and `+0.0`, `-1.0` for negative ones and `-0.0`, NaN for NaN.
    fn signum(self) -> Self;
    /// `self`'s magnitude with `sign`'s sign.
    fn copysign(self, sign: Self) -> Self;
}

/// The instructions NVPTX has: LLVM intrinsics on the GPU, `libm` on the host.
macro_rules! native {
    ($t:ident: $($name:ident($($a:ident),*) => $intr:ident / $libm:ident;)*) => {$(
        #[inline(always)]
        fn $name(self $(, $a: Self)*) -> Self {
            #[cfg(target_arch = "nvptx64")]
            return core::intrinsics::$intr(self $(, $a)*);
            #[cfg(not(target_arch = "nvptx64"))]
            return libm::$libm(self $(, $a)*);
        }
    )*};
}

/// The functions NVPTX has no instruction for: `libm` everywhere.
macro_rules! soft {
    ($($name:ident($($a:ident),*) => $libm:ident;)*) => {$(
        #[inline]
        fn $name(self $(, $a: Self)*) -> Self {
            libm::$libm(self $(, $a)*)
        }
    )*};
}

macro_rules! float_impl {
    ($t:ident, $sqrt:ident, $fma:ident, $floor:ident, $ceil:ident, $round:ident, $trunc:ident,
     [$lsqrt:ident, $lfma:ident, $lfloor:ident, $lceil:ident, $lround:ident, $ltrunc:ident],
     [$exp:ident, $exp2:ident, $ln:ident, $log2:ident, $log10:ident, $sin:ident, $cos:ident,
      $tan:ident, $pow:ident, $hypot:ident, $atan2:ident, $tanh:ident, $cbrt:ident]) => {
        impl Float for $t {
            native! { $t:
                sqrt() => $sqrt / $lsqrt;
                mul_add(a, b) => $fma / $lfma;
                floor() => $floor / $lfloor;
                ceil() => $ceil / $lceil;
                round() => $round / $lround;
                trunc() => $trunc / $ltrunc;
            }
            soft! {
                exp() => $exp;
                exp2() => $exp2;
                ln() => $ln;
                log2() => $log2;
                log10() => $log10;
                sin() => $sin;
                cos() => $cos;
                tan() => $tan;
                powf(n) => $pow;
                hypot(other) => $hypot;
                atan2(other) => $atan2;
                tanh() => $tanh;
                cbrt() => $cbrt;
            }
            #[inline(always)]
            fn powi(self, n: i32) -> Self {
                // compiler-rt's `__powi*f2`, which `std`'s `powi` calls on the host.
                let recip = n < 0;
                let mut b = n.unsigned_abs();
                let mut a = self;
                let mut r: $t = 1.0;
                loop {
                    if b & 1 != 0 {
                        r *= a;
                    }
                    b /= 2;
                    if b == 0 {
                        break;
                    }
                    a *= a;
                }
                if recip { 1.0 / r } else { r }
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn min(self, other: Self) -> Self {
                <$t>::min(self, other)
            }
            #[inline(always)]
            fn max(self, other: Self) -> Self {
                <$t>::max(self, other)
            }
            #[inline(always)]
            fn recip(self) -> Self {
                <$t>::recip(self)
            }
            #[inline(always)]
            fn signum(self) -> Self {
                <$t>::signum(self)
            }
            #[inline(always)]
            fn copysign(self, sign: Self) -> Self {
                <$t>::copysign(self, sign)
            }
        }
    };
}

float_impl!(f32, sqrtf32, fmaf32, floorf32, ceilf32, roundf32, truncf32,
    [sqrtf, fmaf, floorf, ceilf, roundf, truncf],
    [expf, exp2f, logf, log2f, log10f, sinf, cosf, tanf, powf, hypotf, atan2f, tanhf, cbrtf]);
float_impl!(f64, sqrtf64, fmaf64, floorf64, ceilf64, roundf64, truncf64,
    [sqrt, fma, floor, ceil, round, trunc],
    [exp, exp2, log, log2, log10, sin, cos, tan, pow, hypot, atan2, tanh, cbrt]);

#[cfg(test)]
mod tests {
    use super::Float;

    // The crate links `std` in tests, whose inherent methods would win over the trait's:
    // call the trait explicitly and compare with `std`.
    #[test]
    fn agrees_with_std_f64() {
        for &x in &[0.0f64, -0.0, 0.3, 1.0, 2.5, -2.5, 3.7, -7.25, 1e10, 1e-300, f64::INFINITY] {
            let same = |a: f64, b: f64| (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-15 * b.abs().max(1e-300) || a == b;
            assert!(same(Float::sqrt(x.abs()), x.abs().sqrt()));
            assert!(same(Float::exp(x.min(700.0)), x.min(700.0).exp()));
            assert!(same(Float::sin(x), x.sin()), "sin {x}");
            assert!(same(Float::cos(x), x.cos()), "cos {x}");
            assert!(same(Float::ln(x.abs()), x.abs().ln()));
            assert!(same(Float::powf(x.abs(), 0.75), x.abs().powf(0.75)));
            assert!(same(Float::hypot(x, 2.0), x.hypot(2.0)));
            assert!(same(Float::atan2(x, -1.5), x.atan2(-1.5)));
            assert!(same(Float::tanh(x), x.tanh()));
            assert_eq!(Float::floor(x), x.floor());
            assert_eq!(Float::ceil(x), x.ceil());
            assert_eq!(Float::round(x).to_bits(), x.round().to_bits());
            assert_eq!(Float::trunc(x).to_bits(), x.trunc().to_bits());
            assert_eq!(Float::mul_add(x, 3.0, 0.1), x.mul_add(3.0, 0.1));
            assert_eq!(Float::signum(x), x.signum());
            assert_eq!(Float::copysign(2.0, x), 2.0f64.copysign(x));
            assert!(same(Float::powi(x, 3), x.powi(3)));
            assert!(same(Float::powi(x, -2), x.powi(-2)));
        }
        assert_eq!(Float::round(2.5f64), 3.0);
        assert_eq!(Float::round(-2.5f64), -3.0);
        assert_eq!(Float::max(f64::NAN, 1.0), 1.0);
        assert_eq!(Float::powi(2.0f64, 0), 1.0);
        assert_eq!(Float::powi(2.0f64, i32::MIN), 0.0);
    }

    #[test]
    fn agrees_with_std_f32() {
        for &x in &[0.0f32, 0.3, 1.0, 2.5, -2.5, 3.7, -7.25, 1e10] {
            let same = |a: f32, b: f32| (a - b).abs() <= 2e-7 * b.abs().max(1e-30) || a == b;
            assert!(same(Float::sqrt(x.abs()), x.abs().sqrt()));
            assert!(same(Float::exp2(x.min(80.0)), x.min(80.0).exp2()));
            assert!(same(Float::log10(x.abs()), x.abs().log10()) || x == 0.0);
            assert!(same(Float::tan(x), x.tan()), "tan {x}");
            assert_eq!(Float::round(x), x.round());
            assert_eq!(Float::recip(x), x.recip());
        }
    }
}
