//! `declare` in a function (OpenACC 3.4 §2.13): `acc::declare!(copyin(a), create(b), copy(c))`
//! makes each array present from the directive to the end of the enclosing block, an implicit
//! data region, and gives it back as its clause says when the block ends, on every exit path
//! (the block's end, a `return`, a panic). The regions inside move nothing for it.
//!
//! On a GPU the host's copy of `copy` data is the one from before the directive until the
//! block ends (or an `update!(host(..))`); on the host backend the device copy is the host
//! array, so it changes as the regions run: the tests check each case.

mod common;
use common::*;

use std::panic::{catch_unwind, AssertUnwindSafe};

#[acc::parallel]
fn twice(a: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] *= 2.0;
    }
}

#[acc::parallel]
fn scale_into(x: &[f64], k: f64, out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = k * x[i];
    }
}

#[acc::parallel(present(x))]
fn total(x: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..x.len() {
        s += x[i];
    }
    s
}

#[test]
fn copy_stays_on_the_device_until_the_block_ends() {
    let mut y = vec![1.0f32; 5000];
    {
        acc::declare!(copy(y));
        assert!(acc::is_present(&y));
        assert_eq!(acc::__private::present_counts(acc::__private::view(&y)), Some((1, 0)));
        for _ in 0..3 {
            twice(&mut y);
        }
        // The host's copy: untouched on a GPU, the device copy itself on the host backend.
        assert_eq!(y[4999], if on_host() { 8.0 } else { 1.0 });
        assert_eq!(y.len(), 5000);
    }
    assert!(!acc::is_present(&y));
    assert!(y.iter().all(|v| *v == 8.0));
}

#[test]
fn create_is_device_scratch_and_update_brings_it_to_the_host() {
    let x: Vec<f64> = (0..3000).map(|i| i as f64).collect();
    let mut tmp = vec![0.0f64; 3000];
    let mut out = vec![0.0f64; 3000];
    let sum;
    {
        acc::declare!(copyin(x), create(tmp), copyout(out));
        scale_into(&x, 2.0, &mut tmp);
        scale_into(&tmp, 0.5, &mut out);
        sum = total(&tmp);
        assert_eq!(tmp[1234], if on_host() { 2468.0 } else { 0.0 });
        acc::update!(host(tmp));
        assert_eq!(tmp[1234], 2468.0);
        assert_eq!(x[10], 10.0);
    }
    // `create` gives nothing back; `copyout` does.
    assert_eq!(sum, 2.0 * (2999.0 * 3000.0 / 2.0));
    assert!(out.iter().enumerate().all(|(i, v)| *v == i as f64));
    assert!(!acc::is_present(&x) && !acc::is_present(&tmp) && !acc::is_present(&out));
}

/// A fn whose body is the scope, as OpenACC's `declare` in a C function: its slice parameters
/// are present for the whole call, and a `return` gives them back.
fn relax(u: &mut [f32], steps: usize, stop_at: usize) -> usize {
    acc::declare!(copy(u));
    for s in 0..steps {
        if s == stop_at {
            return s;
        }
        twice(&mut u);
    }
    steps
}

#[test]
fn a_functions_parameters_declared_come_back_at_every_return() {
    let mut u = vec![1.0f32; 700];
    assert_eq!(relax(&mut u, 4, usize::MAX), 4);
    assert!(u.iter().all(|v| *v == 16.0));
    assert_eq!(relax(&mut u, 10, 2), 2);
    assert!(u.iter().all(|v| *v == 64.0));
    assert!(!acc::is_present(&u));
}

fn checked_total(x: &[f64]) -> f64 {
    acc::declare!(present(x));
    total(&x)
}

#[test]
fn present_finds_the_callers_declared_data_and_panics_without_it() {
    let x = vec![0.25f64; 4096];
    {
        acc::declare!(copyin(x));
        assert_eq!(checked_total(&x), 1024.0);
        // The inner `present` took a reference and gave it back; the outer one holds.
        assert_eq!(acc::__private::present_counts(acc::__private::view(&x)), Some((1, 0)));
    }
    let err = catch_unwind(AssertUnwindSafe(|| checked_total(&x))).expect_err("`present` of absent data panics");
    let msg = panic_message(&*err);
    assert!(msg.contains("declare") && msg.contains("`x`"), "{msg}");
}

#[test]
fn a_panic_inside_the_block_still_copies_back() {
    let mut y = [3.0f32; 256];
    let r = catch_unwind(AssertUnwindSafe(|| {
        acc::declare!(copy(y));
        twice(&mut y);
        panic!("after the region");
    }));
    assert!(r.is_err());
    assert!(y.iter().all(|v| *v == 6.0), "{:?}", &y[..4]);
    assert!(!acc::is_present(&y));
}

#[test]
fn nested_declares_share_one_device_copy() {
    let mut y = vec![1.0f32; 1000];
    {
        acc::declare!(copy(y));
        twice(&mut y);
        {
            acc::declare!(copy(y));
            assert_eq!(acc::__private::present_counts(acc::__private::view(&y)), Some((2, 0)));
            twice(&mut y);
        }
        // The inner block's end gave its reference back and copied nothing.
        assert_eq!(acc::__private::present_counts(acc::__private::view(&y)), Some((1, 0)));
        assert_eq!(y[0], if on_host() { 4.0 } else { 1.0 });
        twice(&mut y);
    }
    assert!(y.iter().all(|v| *v == 8.0));
}

#[test]
fn zeroed_create_and_a_local_array() {
    let mut acc_ = [7.0f64; 64];
    let mut z = vec![5.0f64; 64];
    {
        acc::declare!(create(zero: z), copy(acc_));
        scale_into(&z, 1.0, &mut acc_);
    }
    assert!(acc_.iter().all(|v| *v == 0.0));
    // On the host backend the zeroed device copy is the host array itself.
    assert_eq!(z[0], if on_host() { 0.0 } else { 5.0 });
}
