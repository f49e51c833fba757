//! The runtime API (DESIGN §2 "Runtime API"): `device_type`, `num_devices`, `init`/`shutdown`
//! (idempotent; `init` after `shutdown` works again), `set_device`. These tests change global
//! state (the current device, the present table), so they live in a test binary of their own
//! and take a lock: they never run at the same time as each other or as another test.

mod common;
use common::*;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

static GLOBAL: Mutex<()> = Mutex::new(());

/// Serialises the tests of this binary (a failed test does not poison the others).
fn serial() -> MutexGuard<'static, ()> {
    GLOBAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[acc::parallel]
fn checksum(a: &[u64]) -> u64 {
    let mut s = 0u64;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i] * (i as u64 + 1);
    }
    s
}

fn want_checksum(a: &[u64]) -> u64 {
    a.iter().enumerate().map(|(i, x)| x * (i as u64 + 1)).sum()
}

/// `device_type` is the one `ACC_DEVICE_TYPE` asks for (when set) and prints as the variable
/// spells it; there is one host device, and at least one of the current type.
#[test]
fn device_type_and_counts() {
    let _g = serial();
    let t = acc::device_type();
    match std::env::var("ACC_DEVICE_TYPE").ok().as_deref().map(str::to_ascii_lowercase).as_deref() {
        Some("host") => assert_eq!(t, acc::DeviceType::Host),
        Some("nvidia") => assert_eq!(t, acc::DeviceType::Nvidia),
        _ => {}
    }
    assert_eq!(format!("{:?}", acc::DeviceType::Host), "host");
    assert_eq!(format!("{:?}", acc::DeviceType::Nvidia), "nvidia");
    assert_eq!(acc::num_devices(acc::DeviceType::Host), 1);
    assert!(acc::num_devices(t) >= 1, "the current device type has a device");
    assert_eq!(acc::device_type(), t, "the choice is stable");
}

/// `init` and `shutdown` are idempotent; regions run after `shutdown` (the device opens again)
/// and after `init`.
#[test]
fn init_shutdown_idempotent() {
    let _g = serial();
    let t = acc::device_type();
    let a = vec_of(10_001, |i| hash(i) % 1000);
    acc::init();
    acc::init();
    assert_eq!(checksum(&a), want_checksum(&a));
    acc::shutdown();
    acc::shutdown();
    assert_eq!(checksum(&a), want_checksum(&a), "a region after shutdown opens the device again");
    acc::shutdown();
    acc::init();
    acc::init();
    assert_eq!(acc::device_type(), t, "shutdown keeps the device choice");
    assert_eq!(checksum(&a), want_checksum(&a));
}

/// `shutdown` releases everything present; data regions and `exit_data!` around it do not
/// fail, and the data can enter again afterwards.
#[test]
fn shutdown_releases_present_data() {
    let _g = serial();
    let a = vec_of(4096, |i| i as u64);
    acc::enter_data!(copyin(a));
    assert!(acc::is_present(&a));
    acc::shutdown();
    assert!(!acc::is_present(&a));
    acc::exit_data!(delete(a));
    acc::init();
    let mut b = vec![1u64; 4096];
    acc::data!(copy(b) {
        acc::shutdown();
        assert!(!acc::is_present(&b));
    });
    acc::data!(copyin(a) {
        assert!(acc::is_present(&a));
        assert_eq!(checksum(&a), want_checksum(&a));
    });
    assert!(!acc::is_present(&a));
    assert_eq!(b, vec![1u64; 4096]);
}

/// `set_device` to the current device keeps it; to the host device works and runs regions;
/// the host has no device 1; data entered on a device stays there while the thread is on
/// another (each device has its own present table) and is found again when it comes back.
#[test]
fn set_device_rules() {
    let _g = serial();
    let t = acc::device_type();
    let a = vec_of(777, |i| i as u64 * 3);
    acc::set_device(t, 0);
    assert_eq!(acc::device_type(), t);

    acc::set_device(acc::DeviceType::Host, 0);
    assert_eq!(acc::device_type(), acc::DeviceType::Host);
    assert_eq!(checksum(&a), want_checksum(&a));

    let e = catch_unwind(|| acc::set_device(acc::DeviceType::Host, 1)).expect_err("there is no host device 1");
    let msg = panic_message(&*e);
    assert!(msg.contains("1 host device"), "{msg}");
    assert_eq!(acc::device_type(), acc::DeviceType::Host);

    if acc::num_devices(acc::DeviceType::Nvidia) == 0 {
        let e = catch_unwind(|| acc::set_device(acc::DeviceType::Nvidia, 0)).expect_err("no NVIDIA device here");
        assert!(!panic_message(&*e).is_empty());
        assert_eq!(acc::device_type(), acc::DeviceType::Host);
    }

    // Back to the device the suite runs on: data entered there stays there while the thread
    // is on the host device, where a region that names it panics naming it.
    acc::set_device(t, 0);
    acc::enter_data!(copyin(a));
    acc::set_device(acc::DeviceType::Host, 0);
    if t != acc::DeviceType::Host {
        assert!(!acc::is_present(&a));
        let e = catch_unwind(AssertUnwindSafe(|| checksum(&a))).expect_err("`a` is on the GPU");
        let msg = panic_message(&*e);
        assert!(msg.contains("`a` is present on nvidia device 0, not on host device 0"), "{msg}");
    }
    acc::set_device(t, 0);
    assert!(acc::is_present(&a));
    assert_eq!(checksum(&a), want_checksum(&a));
    acc::exit_data!(delete(a));
    assert!(!acc::is_present(&a));
    assert_eq!(acc::device_type(), t);
}

/// `wait` and `wait_all` before, between and after `shutdown`.
#[test]
fn wait_across_shutdown() {
    let _g = serial();
    acc::wait_all();
    acc::wait(3);
    acc::shutdown();
    acc::wait(3);
    acc::wait_all();
    acc::init();
    acc::wait_all();
    let a = vec_of(999, |i| i as u64);
    assert_eq!(checksum(&a), want_checksum(&a), "regions run after waits around a shutdown");
}
