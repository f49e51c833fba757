//! Floating-point functions for `no_std` code: the [`Float`] trait gives `f32` and `f64` the
//! methods `std` has and `core` lacks, with `std`'s meaning, so that `x.sqrt()` in a loop body
//! means the same on the host backend and on the GPU.
//!
//! | methods | on the GPU | on the host (no `std`) |
//! | --- | --- | --- |
//! | `sqrt`, `mul_add`, `floor`, `ceil`, `round`, `trunc` | LLVM intrinsics: one correctly rounded PTX instruction (`sqrt.rn`, `fma.rn`, `cvt.rmi`...) | `libm` |
//! | `abs`, `min`, `max`, `copysign`, `signum`, `recip` | `core`'s inherent methods | same |
//! | `powi` | repeated squaring (compiler-rt's `__powidf2`, as `std`'s `powi` on the host) | same |
//! | `exp`, `exp2`, `ln`, `log2`, `log10`, `sin`, `cos`, `tan`, `powf`, `hypot`, `atan2`, `tanh`, `cbrt`, `asin`, `acos`, `atan`, `sinh`, `cosh`, `exp_m1`, `ln_1p` | the `libm` crate (musl's algorithms, within 1 ulp), compiled to PTX | same |
//! | `asinh`, `acosh`, `atanh`, `sin_cos`, `log(base)`, `fract`, `div_euclid`, `rem_euclid` | `std`'s own formulas over the functions above | same |
//!
//! `std` calls the platform's C library for the `libm` row (glibc on Linux), so host and
//! device may differ in the last bit or two there; everything else is bit-identical.
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
    /// Arcsine (radians), NaN outside `[-1, 1]`.
    fn asin(self) -> Self;
    /// Arccosine (radians), NaN outside `[-1, 1]`.
    fn acos(self) -> Self;
    /// Arctangent (radians).
    fn atan(self) -> Self;
    /// Hyperbolic sine.
    fn sinh(self) -> Self;
    /// Hyperbolic cosine.
    fn cosh(self) -> Self;
    /// Inverse hyperbolic sine (`std`'s formula).
    fn asinh(self) -> Self;
    /// Inverse hyperbolic cosine (`std`'s formula), NaN below 1.
    fn acosh(self) -> Self;
    /// Inverse hyperbolic tangent (`std`'s formula).
    fn atanh(self) -> Self;
    /// `e^self - 1`, accurate near zero.
    fn exp_m1(self) -> Self;
    /// `ln(1 + self)`, accurate near zero.
    fn ln_1p(self) -> Self;
    /// `(self.sin(), self.cos())`.
    fn sin_cos(self) -> (Self, Self);
    /// Logarithm in base `base` (`self.ln() / base.ln()`, as `std`).
    fn log(self, base: Self) -> Self;
    /// Fractional part, `self - self.trunc()`.
    fn fract(self) -> Self;
    /// Euclidean quotient: `self = rhs * q + r` with `0 <= r < |rhs|`.
    fn div_euclid(self, rhs: Self) -> Self;
    /// Least non-negative remainder of `self` modulo `rhs`.
    fn rem_euclid(self, rhs: Self) -> Self;
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
      $tan:ident, $pow:ident, $hypot:ident, $atan2:ident, $tanh:ident, $cbrt:ident],
     [$asin:ident, $acos:ident, $atan:ident, $sinh:ident, $cosh:ident, $expm1:ident, $log1p:ident]) => {
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
                asin() => $asin;
                acos() => $acos;
                atan() => $atan;
                sinh() => $sinh;
                cosh() => $cosh;
                exp_m1() => $expm1;
                ln_1p() => $log1p;
            }
            // The next three are `std`'s own formulas (`std` does not call the C library for
            // them), so that both backends compute the same expression.
            #[inline]
            fn asinh(self) -> Self {
                let ax = <$t>::abs(self);
                let ix = 1.0 / ax;
                Float::copysign(Float::ln_1p(ax + ax / (Float::hypot(1.0, ix) + ix)), self)
            }
            #[inline]
            fn acosh(self) -> Self {
                if self < 1.0 {
                    <$t>::NAN
                } else {
                    Float::ln(self + Float::sqrt(self - 1.0) * Float::sqrt(self + 1.0))
                }
            }
            #[inline]
            fn atanh(self) -> Self {
                0.5 * Float::ln_1p((2.0 * self) / (1.0 - self))
            }
            #[inline]
            fn sin_cos(self) -> (Self, Self) {
                (Float::sin(self), Float::cos(self))
            }
            #[inline]
            fn log(self, base: Self) -> Self {
                Float::ln(self) / Float::ln(base)
            }
            #[inline(always)]
            fn fract(self) -> Self {
                self - Float::trunc(self)
            }
            #[inline]
            fn div_euclid(self, rhs: Self) -> Self {
                let q = Float::trunc(self / rhs);
                if self % rhs < 0.0 {
                    return if rhs > 0.0 { q - 1.0 } else { q + 1.0 };
                }
                q
            }
            #[inline]
            fn rem_euclid(self, rhs: Self) -> Self {
                let r = self % rhs;
                if r < 0.0 { r + <$t>::abs(rhs) } else { r }
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
    [expf, exp2f, logf, log2f, log10f, sinf, cosf, tanf, powf, hypotf, atan2f, tanhf, cbrtf],
    [asinf, acosf, atanf, sinhf, coshf, expm1f, log1pf]);
float_impl!(f64, sqrtf64, fmaf64, floorf64, ceilf64, roundf64, truncf64,
    [sqrt, fma, floor, ceil, round, trunc],
    [exp, exp2, log, log2, log10, sin, cos, tan, pow, hypot, atan2, tanh, cbrt],
    [asin, acos, atan, sinh, cosh, expm1, log1p]);

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

    /// Distance in units of the last place (0 for equal values and for two NaNs).
    fn ulps64(a: f64, b: f64) -> u64 {
        if a.is_nan() && b.is_nan() || a == b {
            return 0;
        }
        let key = |x: f64| {
            let i = x.to_bits() as i64;
            if i < 0 { i64::MIN - i } else { i }
        };
        key(a).abs_diff(key(b))
    }

    fn ulps32(a: f32, b: f32) -> u64 {
        if a.is_nan() && b.is_nan() || a == b {
            return 0;
        }
        let key = |x: f32| {
            let i = x.to_bits() as i32;
            if i < 0 { i32::MIN - i } else { i }
        };
        u64::from(key(a).abs_diff(key(b)))
    }

    const XS64: [f64; 18] = [
        0.0, -0.0, 1e-300, 1e-9, 0.1, -0.3, 0.5, -0.75, 0.999, 1.0, -1.0, 1.5, 2.75, -3.5, 10.0, 100.5, -700.25, 1e12,
    ];

    #[test]
    fn inverse_hyperbolic_and_log_functions_agree_with_std_f64() {
        for &x in &XS64 {
            let checks: [(&str, f64, f64, u64); 17] = [
                ("asin", Float::asin(x), x.asin(), 1),
                ("acos", Float::acos(x), x.acos(), 1),
                ("atan", Float::atan(x), x.atan(), 1),
                ("sinh", Float::sinh(x), x.sinh(), 2),
                ("cosh", Float::cosh(x), x.cosh(), 2),
                ("tanh", Float::tanh(x), x.tanh(), 2),
                ("asinh", Float::asinh(x), x.asinh(), 2),
                ("acosh", Float::acosh(x), x.acosh(), 2),
                ("atanh", Float::atanh(x), x.atanh(), 2),
                ("exp_m1", Float::exp_m1(x), x.exp_m1(), 1),
                ("ln_1p", Float::ln_1p(x), x.ln_1p(), 1),
                ("log", Float::log(x, 3.0), x.log(3.0), 2),
                ("cbrt", Float::cbrt(x), x.cbrt(), 1),
                ("exp2", Float::exp2(x), x.exp2(), 1),
                ("fract", Float::fract(x), x.fract(), 0),
                ("div_euclid", Float::div_euclid(x, -0.7), x.div_euclid(-0.7), 0),
                ("rem_euclid", Float::rem_euclid(x, 0.7), x.rem_euclid(0.7), 0),
            ];
            for (name, ours, std, tol) in checks {
                assert!(ulps64(ours, std) <= tol, "{name}({x:e}): {ours:e} vs std {std:e}");
            }
            let (s, c) = Float::sin_cos(x);
            assert_eq!((s.to_bits(), c.to_bits()), (Float::sin(x).to_bits(), Float::cos(x).to_bits()));
            assert!(ulps64(s, x.sin()) <= 1 && ulps64(c, x.cos()) <= 1, "sin_cos({x:e})");
        }
        // Domains: NaN where std gives NaN.
        assert!(Float::asin(1.5f64).is_nan() && Float::acosh(0.5f64).is_nan() && Float::ln_1p(-2.0f64).is_nan());
        assert_eq!(Float::atanh(1.0f64), f64::INFINITY);
        assert_eq!(Float::asinh(-0.0f64).to_bits(), (-0.0f64).to_bits());
        assert_eq!(Float::log(8.0f64, 2.0), 3.0);
    }

    #[test]
    fn inverse_hyperbolic_and_log_functions_agree_with_std_f32() {
        for &x in &XS64 {
            let x = x as f32;
            let checks: [(&str, f32, f32, u64); 14] = [
                ("asin", Float::asin(x), x.asin(), 1),
                ("acos", Float::acos(x), x.acos(), 1),
                ("atan", Float::atan(x), x.atan(), 1),
                ("sinh", Float::sinh(x), x.sinh(), 2),
                ("cosh", Float::cosh(x), x.cosh(), 2),
                ("asinh", Float::asinh(x), x.asinh(), 2),
                ("acosh", Float::acosh(x), x.acosh(), 2),
                ("atanh", Float::atanh(x), x.atanh(), 2),
                ("exp_m1", Float::exp_m1(x), x.exp_m1(), 1),
                ("ln_1p", Float::ln_1p(x), x.ln_1p(), 1),
                ("log", Float::log(x, 3.0), x.log(3.0), 2),
                ("hypot", Float::hypot(x, 0.5), x.hypot(0.5), 1),
                ("powf", Float::powf(x.abs(), 1.25), x.abs().powf(1.25), 1),
                ("rem_euclid", Float::rem_euclid(x, 0.7), x.rem_euclid(0.7), 0),
            ];
            for (name, ours, std, tol) in checks {
                assert!(ulps32(ours, std) <= tol, "{name}({x:e}): {ours:e} vs std {std:e}");
            }
            let (s, c) = Float::sin_cos(x);
            assert!(ulps32(s, x.sin()) <= 1 && ulps32(c, x.cos()) <= 1, "sin_cos({x:e})");
        }
    }
}
