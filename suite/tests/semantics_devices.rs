//! Several devices in one process (DESIGN §2 "Runtime API", `acc::set_device`): each host
//! thread has its own device; a region launched from a thread runs on that thread's device;
//! each device has its own present table, queues and kernels, and several threads drive
//! several devices at once; data present on one device is not visible on another (a panic
//! naming the variable and the devices).
//!
//! On the host backend there is one device, so the threads share it; on a GPU machine the
//! threads spread over every GPU (`ACC_NOTIFY=1` prints `on nvidia N` for each launch). The
//! tests that need two devices use GPUs 0 and 1, or GPU 0 and the host device, and skip on the
//! host backend alone.

mod common;
use common::*;

use std::panic::{catch_unwind, AssertUnwindSafe};

/// `c[i] = (c[i] * 3 + a[i] * k) % P` on async queue `q`.
#[acc::parallel(async(q))]
fn mix(a: &[u64], c: &mut [u64], k: u64, q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = (c[i] * 3 + a[i] * k) % 1_000_003;
    }
}

/// The sum of `a` (its parameter is named `a`: the messages name a region's data by its
/// parameter).
#[acc::parallel]
fn total(a: &[u64]) -> u64 {
    let mut s = 0u64;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

#[acc::parallel]
fn add_one(d: &mut acc::DeviceSlice<u32>) {
    #[acc::r#loop(gang, vector)]
    for i in 0..d.len() {
        d[i] += 1;
    }
}

fn mix_seq(a: &[u64], c: &mut [u64], k: u64) {
    for i in 0..c.len() {
        c[i] = (c[i] * 3 + a[i] * k) % 1_000_003;
    }
}

/// The devices of the suite's type: its type and how many there are.
fn devices() -> (acc::DeviceType, usize) {
    let t = acc::device_type();
    (t, acc::num_devices(t))
}

/// Two distinct devices, if there are: GPUs 0 and 1, else GPU 0 and the host device.
fn two_devices() -> Option<((acc::DeviceType, usize), (acc::DeviceType, usize))> {
    let (t, n) = devices();
    if t == acc::DeviceType::Host {
        println!("skipped: one device (the host backend)");
        return None;
    }
    Some(if n >= 2 { ((t, 0), (t, 1)) } else { ((t, 0), (acc::DeviceType::Host, 0)) })
}

/// Two threads per device, each with its own data region, async queue and reductions: every
/// thread runs on the device it chose, and every result is exact.
#[test]
fn each_thread_runs_on_its_device() {
    let (t, n) = devices();
    assert!(n >= 1);
    let threads = 2 * n;
    std::thread::scope(|s| {
        for id in 0..threads {
            s.spawn(move || {
                let gpu = id % n;
                acc::set_device(t, gpu);
                assert_eq!((acc::device_type(), acc::device_num()), (t, gpu));
                let len = 100_003 + id;
                let a = vec_of(len, |i| hash(i + 17 * id) % 1000);
                let mut c = vec_of(len, |i| hash(i) % 77);
                let mut want = c.clone();
                let q = (id % 3) as i64;
                acc::data!(copyin(a), copy(c) {
                    for k in 0..20 {
                        mix(&a, &mut c, k, q);
                    }
                    acc::wait(q);
                    assert_eq!(acc::device_num(), gpu);
                    for k in 0..20 {
                        mix_seq(&a, &mut want, k);
                    }
                    assert_eq!(total(&c), want.iter().sum::<u64>(), "thread {id} on {t:?} {gpu}");
                });
                assert_eq!(c, want, "thread {id} on {t:?} {gpu}");
                assert!(!acc::is_present(&c));
            });
        }
    });
}

/// Data entered on one device is refused by name on another, for regions, directives and
/// `present`; it is untouched, and found again on its own device.
#[test]
fn data_on_another_device_is_refused() {
    let Some(((t0, n0), (t1, n1))) = two_devices() else { return };
    let (name0, name1) = (format!("{t0:?} device {n0}"), format!("{t1:?} device {n1}"));
    let a = vec_of(4096, |i| i as u64);
    acc::set_device(t0, n0);
    acc::enter_data!(copyin(a));
    std::thread::scope(|s| {
        s.spawn(|| {
            acc::set_device(t1, n1);
            assert!(!acc::is_present(&a));
            let want = format!("`a` is present on {name0}, not on {name1}, this thread's device");
            let e = catch_unwind(AssertUnwindSafe(|| total(&a))).expect_err("a region on another device");
            let msg = panic_message(&*e);
            assert!(msg.contains(&want) && msg.contains("region `total`"), "{msg}");
            let mut b = a.clone();
            let e = catch_unwind(AssertUnwindSafe(|| acc::data!(present(a), copy(b) { b[0] = 1; }))).expect_err("present");
            assert!(panic_message(&*e).contains(&want), "{}", panic_message(&*e));
            let e = catch_unwind(AssertUnwindSafe(|| acc::update!(device(a)))).expect_err("update");
            assert!(panic_message(&*e).contains(&want), "{}", panic_message(&*e));
        });
    });
    assert!(acc::is_present(&a));
    assert_eq!(total(&a), 4095 * 4096 / 2);
    acc::exit_data!(delete(a));
}

/// A `DeviceSlice` lives on the device it was made on: a region on another device that takes
/// it panics, naming both devices.
#[test]
fn device_slice_on_another_device_is_refused() {
    let Some(((t0, n0), (t1, n1))) = two_devices() else { return };
    acc::set_device(t0, n0);
    let mut d = acc::DeviceSlice::from_host(&[1u32, 2, 3]);
    add_one(&mut d);
    std::thread::scope(|s| {
        s.spawn(|| {
            acc::set_device(t1, n1);
            let e = catch_unwind(AssertUnwindSafe(|| add_one(&mut d))).expect_err("another device");
            let msg = panic_message(&*e);
            assert!(msg.contains(&format!("on {t0:?} device {n0} used on {t1:?} device {n1}")), "{msg}");
        });
    });
    assert_eq!(d.to_host(), [2, 3, 4]);
}
