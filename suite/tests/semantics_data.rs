//! Data (DESIGN §2 "Other directives", §4.5, §4.6): `acc::data!` with every clause and nested,
//! `enter_data!`/`exit_data!` with reference counts and `finalize`, `update!`, `is_present`,
//! `present` on absent data naming the variable, `default(present)`, copy-back on every exit
//! path including unwinding, `acc::Mirror`, `acc::DeviceSlice`.
//!
//! Every test uses its own allocations, so the tests can share the global present table while
//! they run in parallel; every test leaves nothing present behind, also when it panics on
//! purpose.

mod common;
use common::*;

use std::panic::{catch_unwind, AssertUnwindSafe};

#[acc::parallel(present(a, b, c))]
fn vadd_present(a: &[f32], b: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
    }
}

#[acc::parallel]
fn scale(a: &mut [f64], k: f64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] *= k;
    }
}

#[acc::parallel(default(present))]
fn copy_into(src: &[f64], dst: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..dst.len() {
        dst[i] = src[i];
    }
}

#[acc::parallel]
fn sum(a: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

const SIZES: [usize; 4] = [1, 7, 1001, 65537];

// ---- data! ----------------------------------------------------------------------------------

/// `copyin` + `copyout` around a region that says `present`: the result comes back, the data
/// is present inside and gone after.
/// Each gang's row sum: `out` is only stored to (acc-codegen's `lower::written`), so its
/// device copy may live in host memory (`DataScope::enter_written`).
#[acc::parallel(num_workers(4), vector_length(32))]
fn row_sums_into(a: &[f32], out: &mut [f32], n: usize) {
    #[acc::r#loop(gang)]
    for k in 0..out.len() {
        let mut t = 0.0f32;
        #[acc::r#loop(worker, vector, reduction(+: t))]
        for j in 0..n {
            t += a[k * n + j];
        }
        out[k] = t;
    }
}

/// Stores the first half's even elements: the others keep the host's values.
#[acc::parallel]
fn evens_into(out: &mut [i32], v: i32) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() / 4 {
        out[2 * i] = v + i as i32;
    }
}

/// Arrays a region only stores to come back whole, from host memory on the GPU where they
/// are small (up to 64 KiB: there the kernel's stores land in host memory mapped for the
/// device), from device memory past that: the elements the kernel stores and the host's
/// values of the others, call after call.
#[test]
fn arrays_a_region_only_stores_to_come_back_whole() {
    let n = 96;
    let a = vec_of(64 * n, |i| (i % 7) as f32);
    #[cfg(feature = "cuda")]
    let made = acc::devices::cuda_backend().map(|c| c.hosted_copies_made());
    for call in 0..3 {
        let mut out = vec![-1.0f32; 64];
        row_sums_into(&a, &mut out, n);
        for (k, o) in out.iter().enumerate() {
            let want: f32 = (0..n).map(|j| ((k * n + j) % 7) as f32).sum();
            assert_eq!(*o, want, "call {call}, row {k}");
        }
    }
    // 100 elements (400 bytes), and past 64 KiB.
    for len in [100, (64 << 10) / 4 + 8] {
        let mut e = vec![-5i32; len];
        evens_into(&mut e, 10);
        for (i, x) in e.iter().enumerate() {
            let want = if i % 2 == 0 && i / 2 < len / 4 { 10 + (i / 2) as i32 } else { -5 };
            assert_eq!(*x, want, "{len} elements, element {i}");
        }
    }
    #[cfg(feature = "cuda")]
    if let (Some(cuda), Some(made), acc::DeviceType::Nvidia) = (acc::devices::cuda_backend(), made, acc::device_type()) {
        // (Other tests of this binary may make some meanwhile.)
        let now = cuda.hosted_copies_made();
        assert!(now >= made + 4, "the three row sums' and the small evens' copies in host memory: {made} then {now}");
        println!("device copies in host memory: {} made by the calls", now - made);
    }
}

#[test]
fn data_copyin_copyout() {
    for n in SIZES {
        let a = vec_of(n, |i| i as f32);
        let b = vec_of(n, |i| (i % 5) as f32);
        let mut c = vec![0.0f32; n];
        acc::data!(copyin(a, b), copyout(c) {
            assert!(acc::is_present(&a) && acc::is_present(&b) && acc::is_present(&c));
            vadd_present(&a, &b, &mut c);
        });
        assert!(!acc::is_present(&a) && !acc::is_present(&b) && !acc::is_present(&c));
        assert_eq!(c, (0..n).map(|i| a[i] + b[i]).collect::<Vec<_>>(), "{n} elements");
    }
}

/// The interior of `next` from `u` (a 3-point stencil); the two boundary elements are never
/// written.
#[acc::parallel(copyin(u), copyout(next))]
fn smooth_interior(u: &[f64], next: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..u.len() - 1 {
        next[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
    }
}

/// `copyout` data that a kernel writes only in part: the elements it does not write come back
/// as the host had them, as on the host backend (not as the device's uninitialised memory,
/// which initcheck caught being copied out on an H100). The device memory is dirtied first by
/// a region that leaves other values in freed allocations of the same size.
#[test]
fn copyout_keeps_elements_no_kernel_writes() {
    for n in [3usize, 1001, 1 << 16] {
        let mut junk = vec![-1.0e300f64; n];
        scale(&mut junk, 3.0);
        let u = vec_of(n, |i| i as f64);
        let mut next = vec![7.5f64; n];
        smooth_interior(&u, &mut next);
        assert_eq!((next[0], next[n - 1]), (7.5, 7.5), "{n} elements: the boundary is the host's");
        assert!((1..n - 1).all(|i| next[i] == i as f64), "{n} elements: the interior");
        acc::data!(copyout(next) {
            smooth_interior(&u, &mut next);
        });
        assert_eq!((next[0], next[n - 1]), (7.5, 7.5), "{n} elements, data!: the boundary is the host's");
    }
}

/// `copy`: several regions update the data in turn, the host sees the end result.
#[test]
fn data_copy_several_regions() {
    for n in SIZES {
        let mut a = vec_of(n, |i| (i % 100) as f64);
        let want: Vec<f64> = a.iter().map(|x| x * 2.0 * 0.5 * 4.0).collect();
        acc::data!(copy(a) {
            scale(&mut a, 2.0);
            scale(&mut a, 0.5);
            scale(&mut a, 4.0);
        });
        assert!(!acc::is_present(&a));
        assert_eq!(a, want, "{n} elements");
    }
}

/// `create`: a device-only temporary between two regions.
#[test]
fn data_create_temporary() {
    for n in SIZES {
        let a = vec_of(n, |i| i as f64);
        let mut t = vec![0.0f64; n];
        let mut c = vec![-1.0f64; n];
        acc::data!(copyin(a), create(t), copyout(c) {
            copy_into(&a, &mut t);
            scale(&mut t, 3.0);
            copy_into(&t, &mut c);
        });
        assert_eq!(c, a.iter().map(|x| x * 3.0).collect::<Vec<_>>(), "{n} elements");
        assert!(!acc::is_present(&t));
    }
}

/// A region's own data clauses inside a data region find the data present (present-or).
#[test]
fn region_clauses_inside_data_region() {
    #[acc::parallel(copyin(a), copyout(c))]
    fn twice(a: &[i64], c: &mut [i64]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..c.len() {
            c[i] = 2 * a[i];
        }
    }
    for n in SIZES {
        let a = vec_of(n, |i| i as i64 - 50);
        let mut c = vec![0i64; n];
        acc::data!(copyin(a), copy(c) {
            twice(&a, &mut c);
            assert!(acc::is_present(&c), "the region's exit leaves data region data present");
        });
        assert_eq!(c, a.iter().map(|x| 2 * x).collect::<Vec<_>>());
        assert!(!acc::is_present(&a) && !acc::is_present(&c));
    }
}

/// Nested data regions: the inner one finds the data present; it stays present until the
/// outer one ends, and the outer one copies back.
#[test]
fn nested_data_regions() {
    let n = 4097;
    let mut a = vec_of(n, |i| (i % 10) as f64);
    let b = vec_of(n, |i| i as f64);
    let mut c = vec![0.0f64; n];
    acc::data!(copy(a) {
        acc::data!(copy(a), copyin(b) {
            scale(&mut a, 2.0);
            acc::data!(present(a, b), create(c) {
                copy_into(&b, &mut c);
            });
            assert!(!acc::is_present(&c));
        });
        assert!(acc::is_present(&a), "still present in the outer region");
        assert!(!acc::is_present(&b));
        scale(&mut a, 3.0);
    });
    assert!(!acc::is_present(&a));
    assert_eq!(a, (0..n).map(|i| (i % 10) as f64 * 6.0).collect::<Vec<_>>());
}

/// Data clauses accept arrays, boxed slices and slice variables; a part of present data is
/// present.
#[test]
fn data_of_arrays_boxes_and_slices() {
    let mut arr = [1.5f64; 64];
    let boxed: Box<[f64]> = vec_of(64, |i| i as f64).into_boxed_slice();
    let mut backing = vec![1.0f64; 100];
    {
        let mut part = &mut backing[10..90];
        acc::data!(copy(arr), copyin(boxed), copy(part) {
            assert!(acc::is_present(&arr[..]) && acc::is_present(&boxed[..]));
            assert!(acc::is_present(&part[5..20]), "a part of present data is present");
            scale(&mut arr, 2.0);
            scale(part, 4.0);
            let s = sum(&boxed);
            assert_eq!(s, (0..64).sum::<i32>() as f64);
        });
        assert!(!acc::is_present(part));
    }
    assert_eq!(arr, [3.0; 64]);
    assert_eq!(backing, (0..100).map(|i| if (10..90).contains(&i) { 4.0 } else { 1.0 }).collect::<Vec<_>>());
}

/// Zero-length data is never transferred or counted; regions over it run zero iterations.
#[test]
fn zero_length_data() {
    let mut e: Vec<f64> = Vec::new();
    let a: Vec<f32> = Vec::new();
    let mut c: Vec<f32> = Vec::new();
    acc::data!(copy(e), copyin(a), copyout(c) {
        scale(&mut e, 2.0);
        vadd_present(&a, &a, &mut c);
        assert_eq!(sum(&e), 0.0);
    });
    acc::enter_data!(copyin(a));
    acc::exit_data!(delete(a));
    assert!(e.is_empty() && c.is_empty());
}

/// The value of a data region's block is the value of `data!`.
#[test]
fn data_region_value() {
    let a = vec_of(1000, |i| i as f64);
    let s = acc::data!(copyin(a) { sum(&a) * 2.0 });
    assert_eq!(s, 999_000.0);
}

// ---- enter / exit data ----------------------------------------------------------------------

/// `enter_data!(copyin, create)`, regions that need the data present, `exit_data!(copyout,
/// delete)`.
#[test]
fn enter_exit_data() {
    for n in SIZES {
        let a = vec_of(n, |i| i as f32 * 0.5);
        let b = vec_of(n, |i| 1.0 + (i % 3) as f32);
        let mut c = vec![0.0f32; n];
        acc::enter_data!(copyin(a, b), create(c));
        assert!(acc::is_present(&a) && acc::is_present(&c));
        vadd_present(&a, &b, &mut c);
        acc::exit_data!(copyout(c), delete(a, b));
        assert!(!acc::is_present(&a) && !acc::is_present(&b) && !acc::is_present(&c));
        assert_eq!(c, (0..n).map(|i| a[i] + b[i]).collect::<Vec<_>>(), "{n} elements");
    }
}

/// Dynamic reference counts: each `enter` needs an `exit`, `finalize` drops them all; a
/// structured region inside keeps the data until it ends.
#[test]
fn enter_exit_reference_counts() {
    let mut a = vec![1.0f64; 333];
    acc::enter_data!(copyin(a));
    acc::enter_data!(copyin(a));
    acc::exit_data!(delete(a));
    assert!(acc::is_present(&a), "one enter is left");
    acc::exit_data!(delete(a));
    assert!(!acc::is_present(&a));

    acc::enter_data!(copyin(a));
    acc::enter_data!(create(a));
    acc::enter_data!(copyin(a));
    scale(&mut a, 2.0);
    acc::exit_data!(copyout(a), finalize);
    assert!(!acc::is_present(&a), "finalize drops every dynamic reference");
    assert_eq!(a, vec![2.0; 333]);

    // An exit inside a data region leaves the structured reference.
    acc::data!(copy(a) {
        acc::enter_data!(copyin(a));
        acc::exit_data!(delete(a), finalize);
        assert!(acc::is_present(&a));
        scale(&mut a, 2.0);
    });
    assert!(!acc::is_present(&a));
    assert_eq!(a, vec![4.0; 333]);

    // An enter inside a data region outlives it.
    acc::data!(copyin(a) {
        acc::enter_data!(copyin(a));
    });
    assert!(acc::is_present(&a));
    acc::exit_data!(delete(a));
    assert!(!acc::is_present(&a));

    // Exiting data that is not present does nothing.
    acc::exit_data!(copyout(a), finalize);
    assert_eq!(a, vec![4.0; 333]);
}

// ---- update ---------------------------------------------------------------------------------

/// `update!(device(..))` after a host change inside a data region: regions see the new values.
/// `update!(host(..))` after a region: the host sees its results while the data stays present.
#[test]
fn update_device_and_host() {
    for n in SIZES {
        let mut a = vec_of(n, |i| i as f64);
        let mut c = vec![0.0f64; n];
        acc::data!(copyin(a), create(c) {
            for x in a.iter_mut() {
                *x += 1.0;
            }
            acc::update!(device(a));
            copy_into(&a, &mut c);
            scale(&mut c, 2.0);
            acc::update!(host(c));
            assert!(acc::is_present(&c));
            assert_eq!(c, (0..n).map(|i| (i as f64 + 1.0) * 2.0).collect::<Vec<_>>(), "{n} elements");
            // Both directions in one directive.
            c[0] = -1.0;
            acc::update!(device(c), host(a));
            assert_eq!(sum(&c), c.iter().sum::<f64>());
        });
        assert!(!acc::is_present(&c));
    }
}

/// `update!(.., if_present)` skips absent data; without it, absent data is an error naming it.
#[test]
fn update_if_present_and_absent() {
    let mut a = vec![3u8; 10];
    acc::update!(host(a), device(a), if_present);
    assert_eq!(a, vec![3u8; 10]);
    let e = catch_unwind(AssertUnwindSafe(|| acc::update!(host(a)))).expect_err("absent data cannot be updated");
    let msg = panic_message(&*e);
    assert!(msg.contains("`a`") && msg.contains("not on the device"), "{msg}");
    let e = catch_unwind(AssertUnwindSafe(|| acc::update!(device(a)))).expect_err("absent data cannot be updated");
    assert!(panic_message(&*e).contains("`a`"));
}

/// Fields for `update!` of field paths.
struct Fields {
    u: Vec<f64>,
    inner: Inner,
}

struct Inner {
    v: Vec<f64>,
}

impl Fields {
    /// `update!` of `self.u` in a method.
    fn refresh(&mut self) {
        acc::update!(device(self.u));
        acc::update!(host(self.u));
    }
}

/// `update!` takes field paths: `f.u`, `f.inner.v`, `self.u`.
#[test]
fn update_fields() {
    let n = 1000;
    let mut f = Fields { u: vec_of(n, |i| i as f64), inner: Inner { v: vec![0.0; n] } };
    // Data clauses take names: the fields enter through names bound to them.
    let u = &f.u;
    let mut v = &mut f.inner.v;
    acc::enter_data!(copyin(u), create(v));
    for x in f.u.iter_mut() {
        *x *= 3.0;
    }
    acc::update!(device(f.u));
    copy_into(&f.u, &mut f.inner.v);
    scale(&mut f.inner.v, 2.0);
    acc::update!(host(f.inner.v));
    assert_eq!(f.inner.v, (0..n).map(|i| i as f64 * 6.0).collect::<Vec<_>>());
    f.refresh();
    // A section of a field.
    f.inner.v[0] = -1.0;
    acc::update!(device(f.inner.v[..1]));
    assert_eq!(sum(&f.inner.v), f.inner.v.iter().sum::<f64>());
    assert!(acc::is_present(&f.u) && acc::is_present(&f.inner.v));
    let (u, v) = (&f.u, &f.inner.v);
    acc::exit_data!(delete(u), delete(v));
    assert!(!acc::is_present(&f.u));
}

/// `update!` of a section copies only the section's elements: after host changes inside and
/// outside `a[lo..hi]`, `update!(device(a[lo..hi]))` leaves the device's other elements as they
/// were, and `update!(host(c[..hi]))` leaves the host's `c[hi..]`. (On the host backend the
/// device is the host memory, so a region sees every host change.)
#[test]
fn update_sections() {
    for n in [10, 1000, 100_000] {
        let (lo, hi) = (n / 10, n / 2);
        let mut a = vec![1.0f64; n];
        let mut c = vec![0.0f64; n];
        acc::data!(copyin(a), create(c) {
            a.fill(2.0);
            acc::update!(device(a[lo..hi]));
            copy_into(&a, &mut c);
            acc::update!(host(c[..hi]));
            let want: Vec<f64> = (0..n)
                .map(|i| match i {
                    _ if on_host() => 2.0,
                    i if i < lo => 1.0,
                    i if i < hi => 2.0,
                    _ => 0.0,
                })
                .collect();
            assert_eq!(c, want, "{n} elements");
            // The other range forms, one element, the whole array.
            acc::update!(device(a[hi..]), device(c[lo..=lo]), host(c[..]));
            copy_into(&a, &mut c);
            acc::update!(host(c[hi - 1..]));
            assert_eq!(c[n - 1], 2.0);
            assert!(acc::is_present(&c[lo..hi]));
        });
        assert!(!acc::is_present(&c));
    }
}

/// A section outside its array's elements panics naming the section as written, before
/// anything is copied; a section of absent data is named as written too.
#[test]
fn update_section_out_of_range_names_it() {
    let a = vec![0u8; 10];
    let mut b = vec![0u8; 10];
    acc::data!(copyin(a) {
        let hi = 11;
        let e = catch_unwind(AssertUnwindSafe(|| acc::update!(device(a[4..hi])))).expect_err("a[4..11] is outside a");
        let msg = panic_message(&*e);
        assert!(msg.contains("section `a[4..hi]` is elements 4..11, not inside its array of 10 elements"), "{msg}");
        let lo = 6;
        let e = catch_unwind(AssertUnwindSafe(|| acc::update!(device(a[lo..5])))).expect_err("a[6..5] is reversed");
        let msg = panic_message(&*e);
        assert!(msg.contains("section `a[lo..5]` is elements 6..5"), "{msg}");
    });
    let e = catch_unwind(AssertUnwindSafe(|| acc::update!(host(b[2..4])))).expect_err("b is absent");
    let msg = panic_message(&*e);
    assert!(msg.contains("`b[2..4]` is not on the device"), "{msg}");
    acc::update!(host(b[2..4]), if_present);
}

// ---- present, default(present), is_present --------------------------------------------------

/// `present` on data that is not present panics, naming the variable (DESIGN §4.5).
#[test]
#[should_panic(expected = "`present` data `b` is not on the device")]
fn present_clause_on_absent_data_names_it() {
    let a = vec![1.0f32; 16];
    let b = vec![2.0f32; 16];
    let mut c = vec![0.0f32; 16];
    acc::data!(copyin(a), copyout(c) {
        vadd_present(&a, &b, &mut c);
    });
}

/// The same for a data region's `present` clause.
#[test]
#[should_panic(expected = "`present` data `missing` is not on the device")]
fn data_present_on_absent_data_names_it() {
    let missing = vec![0u64; 8];
    acc::data!(present(missing) {
        if !missing.is_empty() {
            panic!("the body must not run: `missing` is absent");
        }
    });
}

/// `default(present)` works inside a data region and names the absent parameter outside one.
#[test]
fn default_present() {
    let src = vec_of(500, |i| i as f64);
    let mut dst = vec![0.0f64; 500];
    acc::data!(copyin(src), copyout(dst) {
        copy_into(&src, &mut dst);
    });
    assert_eq!(dst, src);
    let mut dst2 = vec![0.0f64; 500];
    let e = catch_unwind(AssertUnwindSafe(|| copy_into(&src, &mut dst2))).expect_err("nothing is present");
    let msg = panic_message(&*e);
    assert!(msg.contains("`present` data `src` is not on the device"), "{msg}");
    assert!(msg.contains("copy_into"), "the message names the region: {msg}");
    acc::data!(copyin(src) {
        let e = catch_unwind(AssertUnwindSafe(|| copy_into(&src, &mut dst2))).expect_err("`dst2` is absent");
        // The region names its parameter.
        assert!(panic_message(&*e).contains("`present` data `dst` is not on the device"));
        assert!(acc::is_present(&src));
    });
    assert!(!acc::is_present(&src) && !acc::is_present(&dst2));
}

/// `is_present` on `Vec`s, slices and arrays: whole, in part, and beside present data.
#[test]
fn is_present_forms() {
    let v = vec![0i32; 100];
    let arr = [0u16; 10];
    assert!(!acc::is_present(&v) && !acc::is_present(&arr) && !acc::is_present(&v[10..20]));
    acc::data!(copyin(v, arr) {
        assert!(acc::is_present(&v) && acc::is_present(&v[..]) && acc::is_present(&v[99..]));
        assert!(acc::is_present(&arr) && acc::is_present(&arr[3..4]));
    });
    let part = &v[20..40];
    acc::data!(copyin(part) {
        assert!(acc::is_present(&v[25..30]));
        assert!(!acc::is_present(&v), "only a part is present");
        assert!(!acc::is_present(&v[10..30]), "partly present is not present");
    });
    assert!(!acc::is_present(&v));
}

// ---- exit paths -----------------------------------------------------------------------------

/// A panic inside a data region unwinds through it: the data is copied back (with what the
/// regions did before the panic) and nothing stays present (DESIGN §4.6).
#[test]
fn data_region_copies_back_when_unwinding() {
    let mut a = vec_of(10_000, |i| i as f64);
    let b = vec_of(10_000, |i| i as f64);
    let r = catch_unwind(AssertUnwindSafe(|| {
        acc::data!(copy(a), copyin(b) {
            scale(&mut a, 2.0);
            assert!(acc::is_present(&a));
            if !a.is_empty() {
                panic!("failure inside the data region");
            }
        })
    }));
    assert_eq!(panic_message(&*r.expect_err("the region panics")), "failure inside the data region");
    assert!(!acc::is_present(&a) && !acc::is_present(&b));
    assert_eq!(a, (0..10_000).map(|i| i as f64 * 2.0).collect::<Vec<_>>(), "copied back while unwinding");
    assert_eq!(b, (0..10_000).map(|i| i as f64).collect::<Vec<_>>(), "copyin data intact");
}

/// `return` and `break` out of a data region copy back too.
#[test]
fn data_region_early_exits() {
    // A name written back is a `mut` binding (DESIGN §2), here a `&mut` parameter.
    fn early(mut a: &mut Vec<f64>, stop: bool) -> u32 {
        acc::data!(copy(a) {
            scale(a, 2.0);
            if stop {
                return 1;
            }
            scale(a, 2.0);
        });
        0
    }
    let mut a = vec![1.0f64; 1000];
    assert_eq!(early(&mut a, true), 1);
    assert!(!acc::is_present(&a));
    assert_eq!(a, vec![2.0; 1000]);
    assert_eq!(early(&mut a, false), 0);
    assert_eq!(a, vec![8.0; 1000]);

    let mut b = vec![1.0f64; 1000];
    for round in 0.. {
        acc::data!(copy(b) {
            scale(&mut b, 3.0);
            if round == 1 {
                break;
            }
        });
    }
    assert!(!acc::is_present(&b));
    assert_eq!(b, vec![9.0; 1000]);
}

/// Data that changes inside a data region (a `Vec` that shrinks; one that reallocated would be
/// reported the same way) is reported by name; nothing stays present.
#[test]
fn moved_data_is_reported() {
    let mut v = vec![1u32; 400];
    let r = catch_unwind(AssertUnwindSafe(|| {
        acc::data!(copy(v) {
            v.truncate(2);
        })
    }));
    let msg = panic_message(&*r.expect_err("the Vec moved"));
    assert!(msg.contains("`v` moved or changed length"), "{msg}");
    assert!(!acc::is_present(&v));
}

// ---- Mirror ---------------------------------------------------------------------------------

/// `Mirror`: enters data at creation; regions use it without transfers; `update_host`,
/// `update_device`; `into_inner` copies out and exits.
#[test]
fn mirror_round_trip() {
    for n in SIZES {
        let mut m = acc::Mirror::new(vec_of(n, |i| i as f64));
        assert!(acc::is_present(&*m) && acc::is_present(&m));
        scale(&mut m, 2.0);
        m.update_host();
        assert_eq!(m[n - 1], (n - 1) as f64 * 2.0);
        for x in m.iter_mut() {
            *x += 1.0;
        }
        m.update_device();
        assert_eq!(sum(&m), (0..n).map(|i| i as f64 * 2.0 + 1.0).sum::<f64>(), "{n} elements");
        let v = m.into_inner();
        assert!(!acc::is_present(&v));
        assert_eq!(v, (0..n).map(|i| i as f64 * 2.0 + 1.0).collect::<Vec<_>>());
    }
}

/// A `Mirror` satisfies `present` clauses; dropping it exits its data.
#[test]
fn mirror_present_and_drop() {
    let backing = vec_of(2048, |i| (i % 9) as f32);
    let b = vec![1.0f32; 2048];
    let mut c = vec![0.0f32; 2048];
    {
        let a = acc::Mirror::new(&backing[..]);
        let bm = acc::Mirror::new(&b[..]);
        assert!(acc::is_present(&backing));
        acc::data!(copyout(c) {
            vadd_present(&a, &bm, &mut c);
        });
    }
    assert!(!acc::is_present(&backing) && !acc::is_present(&b), "dropping a Mirror exits its data");
    assert_eq!(c, backing.iter().map(|x| x + 1.0).collect::<Vec<_>>());
}

// ---- DeviceSlice ----------------------------------------------------------------------------

/// `&DeviceSlice<T>` and `&mut DeviceSlice<T>` region parameters; `from_host`, `zeros`,
/// `to_host`, `copy_to_host`, `copy_from_host`, `len`.
#[test]
fn device_slices() {
    #[acc::parallel]
    fn axpy(x: &acc::DeviceSlice<f32>, y: &mut acc::DeviceSlice<f32>, k: f32) {
        #[acc::r#loop(gang, vector)]
        for i in 0..y.len() {
            y[i] += k * x[i];
        }
    }
    #[acc::parallel(deviceptr(x))]
    fn dsum(x: &acc::DeviceSlice<f32>, host: &[f32]) -> f32 {
        let mut s = 0.0f32;
        #[acc::r#loop(gang, vector, reduction(+: s))]
        for i in 0..x.len() {
            s += x[i] * host[i];
        }
        s
    }
    for n in [0usize, 1, 1001, 65537] {
        let hx = vec_of(n, |i| (i % 16) as f32);
        let x = acc::DeviceSlice::from_host(&hx);
        let mut y = acc::DeviceSlice::<f32>::zeros(n);
        assert_eq!((x.len(), y.len(), x.is_empty()), (n, n, n == 0));
        axpy(&x, &mut y, 2.0);
        axpy(&x, &mut y, 0.5);
        let want: Vec<f32> = hx.iter().map(|v| v * 2.5).collect();
        assert_eq!(y.to_host(), want, "{n} elements");
        let mut back = vec![0.0f32; n];
        y.copy_to_host(&mut back);
        assert_eq!(back, want);
        y.copy_from_host(&hx);
        assert_eq!(y.to_host(), hx);
        let ones = vec![1.0f32; n];
        assert_eq!(dsum(&x, &ones), hx.iter().sum::<f32>());
        assert_eq!(x.to_host(), hx, "a read-only parameter is unchanged");
    }
}

// ---- the host backend -----------------------------------------------------------------------

/// On the host backend the device is the host: memory is shared, so a region sees host
/// changes without `update`, and `DeviceSlice` is host memory.
#[test]
fn host_backend_shares_memory() {
    host_only!("host_backend_shares_memory");
    let mut a = vec![1.0f64; 100];
    let mut c = vec![0.0f64; 100];
    acc::data!(copyin(a), create(c) {
        a[0] = 5.0; // no `update!(device(a))`
        copy_into(&a, &mut c);
        assert_eq!(c[0], 5.0, "regions write host memory");
    });
    let d = acc::DeviceSlice::from_host(&a);
    assert_eq!(d.host_slice()[0], 5.0);
}
