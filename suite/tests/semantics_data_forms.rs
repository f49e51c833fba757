//! The data directives' other clauses (OpenACC 3.4 §2.6-2.7, DESIGN §2 "Other directives"):
//! `if`, `async` and `wait` on `data!`, `enter_data!`, `exit_data!` and `update!`; `no_create`
//! on `data!` and compute regions; the data clause modifiers `always`, `alwaysin`,
//! `alwaysout`, `zero`, `readonly`, `capture`.
//!
//! On the host backend the device copy is the host array, so what `always` or `update!` copies
//! is already there: those tests check the GPU's behaviour where it differs (`on_host()`), and
//! values that hold on both.

mod common;
use common::*;

#[acc::parallel]
fn add(a: &mut [i64], k: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += k;
    }
}

#[acc::parallel(async(q))]
fn add_on(a: &mut [i64], k: i64, q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += k;
    }
}

#[acc::parallel]
fn total(a: &[i64]) -> i64 {
    let mut s = 0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

/// Writes the first half of `c` only.
#[acc::parallel(copyout(zero: c))]
fn first_half(c: &mut [i64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() / 2 {
        c[i] = i as i64 + 1;
    }
}

#[acc::parallel(no_create(a))]
fn add_no_create(a: &mut [i64], k: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += k;
    }
}

#[acc::parallel(copyin(readonly: a), copy(capture: b))]
fn copy_across(a: &[i64], b: &mut [i64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..b.len() {
        b[i] = a[i];
    }
}

#[test]
fn data_with_a_false_if_enters_nothing() {
    let mut a = vec![1i64; 500];
    for on in [false, true] {
        acc::data!(copy(a), if(on) {
            assert_eq!(acc::is_present(&a), on);
            add(&mut a, 1);
        });
        assert!(!acc::is_present(&a));
    }
    assert!(a.iter().all(|v| *v == 3));
}

#[test]
fn data_async_copies_back_behind_its_queue() {
    let mut a = vec![0i64; 10_000];
    acc::data!(copy(a), async(3) {
        add_on(&mut a, 5, 3);
        add_on(&mut a, 2, 3);
    });
    assert!(!acc::is_present(&a));
    assert!(a.iter().all(|v| *v == 7), "the copy back follows queue 3's kernels");
}

#[test]
fn a_data_region_waits_for_the_queues_it_names() {
    let m = acc::Mirror::new(vec![0i64; 4096]);
    let mut m = m;
    add_on(&mut m, 4, 5);
    let s;
    acc::data!(present(m), wait(5) {
        s = total(&m);
    });
    assert_eq!(s, 4 * 4096);
    let mut b = vec![1i64; 64];
    acc::data!(copy(b), wait {
        add(&mut b, 1);
    });
    assert!(b.iter().all(|v| *v == 2));
}

#[test]
fn enter_and_exit_data_with_if_async_and_wait() {
    let mut a = vec![2i64; 3000];
    acc::enter_data!(copyin(a), if(false));
    assert!(!acc::is_present(&a));
    acc::enter_data!(copyin(a), if(a.len() > 10), wait);
    assert!(acc::is_present(&a));
    add_on(&mut a, 1, 7);
    acc::exit_data!(copyout(a), if(false));
    assert!(acc::is_present(&a), "a false `if` keeps it present");
    acc::exit_data!(copyout(a), async(7), wait(7));
    acc::wait(7);
    assert!(!acc::is_present(&a));
    assert!(a.iter().all(|v| *v == 3));
    let mut d = vec![0i64; 8];
    acc::enter_data!(create(d), async(1));
    acc::exit_data!(delete(d), async(1));
    acc::wait(1);
    assert!(!acc::is_present(&d));
    d[0] = 1;
}

#[test]
fn update_with_if_and_wait() {
    let mut a = vec![10i64; 256];
    acc::data!(copy(a) {
        add(&mut a, 1);
        acc::update!(host(a), if(false));
        assert_eq!(a[0], if on_host() { 11 } else { 10 }, "a false `if` copies nothing");
        add_on(&mut a, 1, 2);
        acc::update!(host(a), if(true), wait(2));
        assert_eq!(a[0], 12);
        a[1] = 100;
        acc::update!(device(a), async(4), wait);
        acc::wait(4);
        let s = total(&a);
        assert_eq!(s, 12 * 255 + 100);
    });
}

#[test]
fn no_create_on_a_data_region_uses_present_data_and_creates_none() {
    let mut a = vec![1i64; 100];
    acc::data!(no_create(a) {
        assert!(!acc::is_present(&a), "absent data is not created");
        add(&mut a, 1);
    });
    assert!(a.iter().all(|v| *v == 2));
    acc::enter_data!(copyin(a));
    let counts = acc::__private::present_counts(acc::__private::view(&a));
    acc::data!(no_create(a) {
        assert!(acc::is_present(&a));
        assert_eq!(acc::__private::present_counts(acc::__private::view(&a)), counts.map(|(s, d)| (s + 1, d)), "a present array gets a structured reference");
    });
    acc::exit_data!(copyout(a));
}

#[test]
fn no_create_on_a_region_uses_the_device_copy_where_present_and_copies_where_absent() {
    let mut a = vec![0i64; 2048];
    add_no_create(&mut a, 3);
    assert!(a.iter().all(|v| *v == 3), "absent: copied in and out as without a clause");
    acc::data!(copyin(a) {
        // The host changes its copy; the region works on the device's.
        a[0] = 1000;
        add_no_create(&mut a, 1);
        let s = total(&a);
        assert_eq!(s, if on_host() { 1001 + 4 * 2047 } else { 4 * 2048 });
    });
}

#[test]
fn always_copies_present_data_in_and_out() {
    let mut a = vec![1i64; 1000];
    acc::data!(copy(a) {
        a[0] = 50; // the host's copy changes; the device's does not
        let s = acc::data!(copyin(always: a) { total(&a) });
        assert_eq!(s, 50 + 999, "`always` copies present data in");
        let s = acc::data!(copyin(alwaysin: a) { total(&a) });
        assert_eq!(s, 50 + 999);
        acc::data!(copy(alwaysout: a) {
            add(&mut a, 1);
        });
        assert_eq!(a[1], 2, "`alwaysout` copies back though the outer region keeps it present");
        acc::data!(copyout(always: a) {
            add(&mut a, 1);
        });
        assert_eq!(a[1], 3);
        acc::data!(copy(a) {
            add(&mut a, 1);
        });
        assert_eq!(a[1], if on_host() { 4 } else { 3 }, "without `always` it stays on the device");
    });
    assert_eq!(a[1], 4);
    assert!(!acc::is_present(&a));
}

#[test]
fn enter_and_exit_data_with_always() {
    let mut a = vec![5i64; 300];
    acc::enter_data!(copyin(a));
    a[0] = 6;
    acc::enter_data!(copyin(always: a));
    assert_eq!(total(&a), 6 + 5 * 299);
    add(&mut a, 1);
    acc::exit_data!(copyout(always: a));
    assert!(acc::is_present(&a), "one reference is left");
    assert_eq!(a[0], 7, "`always` copied it back");
    acc::exit_data!(delete(a));
    assert!(!acc::is_present(&a));
}

#[test]
fn zero_gives_new_device_copies_zero_bytes() {
    let mut z = vec![9i64; 5000];
    acc::enter_data!(create(zero: z));
    assert_eq!(total(&z), 0);
    acc::exit_data!(delete(z));
    let mut c = vec![7i64; 1000];
    first_half(&mut c);
    assert!(c[..500].iter().enumerate().all(|(i, v)| *v == i as i64 + 1));
    assert!(c[500..].iter().all(|v| *v == 0), "elements the region does not write come back as zero");
    let mut w = vec![3i64; 64];
    let s = acc::data!(create(zero: w) { total(&w) });
    assert_eq!(s, 0);
    // Present data is not zeroed.
    let mut p = vec![2i64; 64];
    acc::data!(copyin(p) {
        let s = acc::data!(create(zero: p) { total(&p) });
        assert_eq!(s, 128);
    });
}

#[test]
fn readonly_and_capture_change_nothing_acc_does() {
    let a: Vec<i64> = (0..777).collect();
    let mut b = vec![0i64; 777];
    copy_across(&a, &mut b);
    assert_eq!(a, b);
}
