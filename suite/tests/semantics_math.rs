//! The `f32`/`f64` methods of `std` in loop bodies mean the same on every backend: each region
//! computes one function over an array, compared with the host's `std` within a few ulps
//! (the device computes them with the `libm` crate or `std`'s own formulas, see
//! `acc-device/src/math.rs`; the host's `std` calls the C library). On the host backend the
//! regions call `std` itself. Each region is written out: acc-build cannot see regions made by
//! `macro_rules!`.

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

const N: usize = 4099;

/// Inputs of a domain: `unit` in (-1, 1), `positive` in (0, 90], `wide` in [-12, 12].
fn input64(domain: &str) -> Vec<f64> {
    (0..N)
        .map(|i| {
            let t = (i as f64 + 0.5) / N as f64; // (0, 1)
            match domain {
                "unit" => 2.0 * t - 1.0,
                "positive" => 90.0 * t,
                _ => 24.0 * t - 12.0,
            }
        })
        .collect()
}

fn input32(domain: &str) -> Vec<f32> {
    input64(domain).into_iter().map(|x| x as f32).collect()
}

fn check64(name: &str, a: &[f64], got: &[f64], want: impl Fn(f64) -> f64, tol: u64) {
    for (i, (&x, &g)) in a.iter().zip(got).enumerate() {
        let w = want(x);
        assert!(!w.is_nan() || g.is_nan(), "{name}({x:e}) at {i}: {g:e}, std gives NaN");
        assert!(ulps64(g, w) <= tol, "{name}({x:e}) at {i}: {g:e}, std {w:e} ({} ulps > {tol})", ulps64(g, w));
    }
}

fn check32(name: &str, a: &[f32], got: &[f32], want: impl Fn(f32) -> f32, tol: u64) {
    for (i, (&x, &g)) in a.iter().zip(got).enumerate() {
        let w = want(x);
        assert!(ulps32(g, w) <= tol, "{name}({x:e}) at {i}: {g:e}, std {w:e} ({} ulps > {tol})", ulps32(g, w));
    }
}

#[acc::parallel]
fn f64_asin(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].asin();
    }
}

#[test]
fn asin_f64() {
    let a = input64("unit");
    let mut out = vec![0.0; a.len()];
    f64_asin(&a, &mut out);
    check64("asin", &a, &out, |x: f64| x.asin(), 2);
}

#[acc::parallel]
fn f64_acos(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].acos();
    }
}

#[test]
fn acos_f64() {
    let a = input64("unit");
    let mut out = vec![0.0; a.len()];
    f64_acos(&a, &mut out);
    check64("acos", &a, &out, |x: f64| x.acos(), 2);
}

#[acc::parallel]
fn f64_atan(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].atan();
    }
}

#[test]
fn atan_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_atan(&a, &mut out);
    check64("atan", &a, &out, |x: f64| x.atan(), 2);
}

#[acc::parallel]
fn f64_atan2(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].atan2(1.5 - a[i]);
    }
}

#[test]
fn atan2_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_atan2(&a, &mut out);
    check64("atan2", &a, &out, |x: f64| x.atan2(1.5 - x), 2);
}

#[acc::parallel]
fn f64_tan(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].tan();
    }
}

#[test]
fn tan_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_tan(&a, &mut out);
    check64("tan", &a, &out, |x: f64| x.tan(), 2);
}

#[acc::parallel]
fn f64_sinh(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].sinh();
    }
}

#[test]
fn sinh_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_sinh(&a, &mut out);
    check64("sinh", &a, &out, |x: f64| x.sinh(), 2);
}

#[acc::parallel]
fn f64_cosh(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].cosh();
    }
}

#[test]
fn cosh_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_cosh(&a, &mut out);
    check64("cosh", &a, &out, |x: f64| x.cosh(), 2);
}

#[acc::parallel]
fn f64_tanh(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].tanh();
    }
}

#[test]
fn tanh_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_tanh(&a, &mut out);
    check64("tanh", &a, &out, |x: f64| x.tanh(), 2);
}

#[acc::parallel]
fn f64_asinh(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].asinh();
    }
}

#[test]
fn asinh_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_asinh(&a, &mut out);
    check64("asinh", &a, &out, |x: f64| x.asinh(), 2);
}

#[acc::parallel]
fn f64_acosh(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = (a[i].abs() + 1.0).acosh();
    }
}

#[test]
fn acosh_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_acosh(&a, &mut out);
    check64("acosh", &a, &out, |x: f64| (x.abs() + 1.0).acosh(), 2);
}

#[acc::parallel]
fn f64_atanh(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].atanh();
    }
}

#[test]
fn atanh_f64() {
    let a = input64("unit");
    let mut out = vec![0.0; a.len()];
    f64_atanh(&a, &mut out);
    check64("atanh", &a, &out, |x: f64| x.atanh(), 2);
}

#[acc::parallel]
fn f64_exp_m1(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].exp_m1();
    }
}

#[test]
fn exp_m1_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_exp_m1(&a, &mut out);
    check64("exp_m1", &a, &out, |x: f64| x.exp_m1(), 2);
}

#[acc::parallel]
fn f64_ln_1p(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].ln_1p();
    }
}

#[test]
fn ln_1p_f64() {
    let a = input64("positive");
    let mut out = vec![0.0; a.len()];
    f64_ln_1p(&a, &mut out);
    check64("ln_1p", &a, &out, |x: f64| x.ln_1p(), 2);
}

#[acc::parallel]
fn f64_sin_cos(a: &[f64], sines: &mut [f64], cosines: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..sines.len() {
        let (s, c) = a[i].sin_cos();
        sines[i] = s;
        cosines[i] = c;
    }
}

/// Each half on its own (a combination such as `3s + c` cancels near its zeros, where a few
/// ulps of `s` or `c` are many of the sum: seen on an H100).
#[test]
fn sin_cos_f64() {
    let a = input64("wide");
    let (mut s, mut c) = (vec![0.0; a.len()], vec![0.0; a.len()]);
    f64_sin_cos(&a, &mut s, &mut c);
    check64("sin_cos.0", &a, &s, |x: f64| x.sin_cos().0, 4);
    check64("sin_cos.1", &a, &c, |x: f64| x.sin_cos().1, 4);
}

#[acc::parallel]
fn f64_log(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].log(3.0);
    }
}

#[test]
fn log_f64() {
    let a = input64("positive");
    let mut out = vec![0.0; a.len()];
    f64_log(&a, &mut out);
    // `ln(x) / ln(3)`, as std computes it: the device's two `ln`s and the division (on the
    // host the same formula gives std's bits).
    check64("log", &a, &out, |x: f64| x.log(3.0), 4);
}

#[acc::parallel]
fn f64_log2(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].log2();
    }
}

#[test]
fn log2_f64() {
    let a = input64("positive");
    let mut out = vec![0.0; a.len()];
    f64_log2(&a, &mut out);
    check64("log2", &a, &out, |x: f64| x.log2(), 2);
}

#[acc::parallel]
fn f64_log10(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].log10();
    }
}

#[test]
fn log10_f64() {
    let a = input64("positive");
    let mut out = vec![0.0; a.len()];
    f64_log10(&a, &mut out);
    check64("log10", &a, &out, |x: f64| x.log10(), 2);
}

#[acc::parallel]
fn f64_exp2(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].exp2();
    }
}

#[test]
fn exp2_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_exp2(&a, &mut out);
    check64("exp2", &a, &out, |x: f64| x.exp2(), 2);
}

#[acc::parallel]
fn f64_cbrt(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].cbrt();
    }
}

#[test]
fn cbrt_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_cbrt(&a, &mut out);
    check64("cbrt", &a, &out, |x: f64| x.cbrt(), 2);
}

#[acc::parallel]
fn f64_hypot(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].hypot(2.5);
    }
}

#[test]
fn hypot_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_hypot(&a, &mut out);
    check64("hypot", &a, &out, |x: f64| x.hypot(2.5), 2);
}

#[acc::parallel]
fn f64_powi(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].powi(5);
    }
}

#[test]
fn powi_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_powi(&a, &mut out);
    check64("powi", &a, &out, |x: f64| x.powi(5), 2);
}

#[acc::parallel]
fn f64_powf(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].powf(1.7);
    }
}

#[test]
fn powf_f64() {
    let a = input64("positive");
    let mut out = vec![0.0; a.len()];
    f64_powf(&a, &mut out);
    check64("powf", &a, &out, |x: f64| x.powf(1.7), 2);
}

#[acc::parallel]
fn f64_mul_add(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].mul_add(1.25, -0.5);
    }
}

#[test]
fn mul_add_f64() {
    let a = input64("wide");
    let mut out = vec![0.0; a.len()];
    f64_mul_add(&a, &mut out);
    check64("mul_add", &a, &out, |x: f64| x.mul_add(1.25, -0.5), 0);
}

#[acc::parallel]
fn f32_asin(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].asin();
    }
}

#[test]
fn asin_f32() {
    let a = input32("unit");
    let mut out = vec![0.0; a.len()];
    f32_asin(&a, &mut out);
    check32("asin", &a, &out, |x: f32| x.asin(), 2);
}

#[acc::parallel]
fn f32_atan2(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].atan2(0.75);
    }
}

#[test]
fn atan2_f32() {
    let a = input32("wide");
    let mut out = vec![0.0; a.len()];
    f32_atan2(&a, &mut out);
    check32("atan2", &a, &out, |x: f32| x.atan2(0.75), 2);
}

#[acc::parallel]
fn f32_cosh(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].cosh();
    }
}

#[test]
fn cosh_f32() {
    let a = input32("wide");
    let mut out = vec![0.0; a.len()];
    f32_cosh(&a, &mut out);
    check32("cosh", &a, &out, |x: f32| x.cosh(), 2);
}

#[acc::parallel]
fn f32_asinh(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].asinh();
    }
}

#[test]
fn asinh_f32() {
    let a = input32("wide");
    let mut out = vec![0.0; a.len()];
    f32_asinh(&a, &mut out);
    check32("asinh", &a, &out, |x: f32| x.asinh(), 2);
}

#[acc::parallel]
fn f32_exp_m1(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].exp_m1();
    }
}

#[test]
fn exp_m1_f32() {
    let a = input32("wide");
    let mut out = vec![0.0; a.len()];
    f32_exp_m1(&a, &mut out);
    check32("exp_m1", &a, &out, |x: f32| x.exp_m1(), 2);
}

#[acc::parallel]
fn f32_ln_1p(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].ln_1p();
    }
}

#[test]
fn ln_1p_f32() {
    let a = input32("positive");
    let mut out = vec![0.0; a.len()];
    f32_ln_1p(&a, &mut out);
    check32("ln_1p", &a, &out, |x: f32| x.ln_1p(), 2);
}

#[acc::parallel]
fn f32_log(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].log(10.0);
    }
}

#[test]
fn log_f32() {
    let a = input32("positive");
    let mut out = vec![0.0; a.len()];
    f32_log(&a, &mut out);
    check32("log", &a, &out, |x: f32| x.log(10.0), 2);
}

#[acc::parallel]
fn f32_cbrt(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i].cbrt();
    }
}

#[test]
fn cbrt_f32() {
    let a = input32("wide");
    let mut out = vec![0.0; a.len()];
    f32_cbrt(&a, &mut out);
    check32("cbrt", &a, &out, |x: f32| x.cbrt(), 2);
}
