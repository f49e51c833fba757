//! `acc::map_data` (OpenACC's `acc_map_data` / `acc_unmap_data`) and `acc::host_ptr`
//! (`acc_hostptr`): an `acc::DeviceSlice` the program allocated becomes the present device copy
//! of a host array for the mapping's life, so that regions, data regions and `update!` use it;
//! its end leaves the memory to the `DeviceSlice`. On the host backend the array itself is the
//! device copy: it takes the `DeviceSlice`'s elements at the start and gives them back at the
//! end, so that the values a program sees are the same on both backends.

mod common;
use common::*;

use std::panic::{catch_unwind, AssertUnwindSafe};

#[acc::parallel]
fn add_one(a: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += 1.0;
    }
}

#[acc::parallel]
fn total(a: &[f32]) -> f32 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

#[test]
fn regions_use_the_mapped_device_memory() {
    let n = 10_000;
    let mut dev = acc::DeviceSlice::from_host(&vec![1.0f32; n]);
    let mut host = vec![0.0f32; n];
    let sum;
    {
        let mut a = acc::map_data(&mut host, &mut dev);
        assert!(acc::is_present(&a));
        add_one(&mut a);
        add_one(&mut a);
        sum = total(&a);
        // A data region inside the mapping finds the array present: it moves nothing.
        acc::data!(copy(a) {
            add_one(&mut a);
        });
        assert_eq!(a[7], if on_host() { 4.0 } else { 0.0 }, "the host's copy is the device's only on the host backend");
        acc::update!(host(a));
        assert_eq!(a[7], 4.0);
    }
    assert_eq!(sum, 3.0 * n as f32);
    assert!(!acc::is_present(&host));
    assert_eq!(dev.to_host(), vec![4.0f32; n], "the DeviceSlice keeps the mapping's last values");
}

#[test]
fn host_ptr_finds_the_host_address_of_a_device_address() {
    let mut dev = acc::DeviceSlice::<u64>::zeros(100);
    let mut host = vec![0u64; 100];
    let base = host.as_ptr() as u64;
    let a = acc::map_data(&mut host, &mut dev);
    let addr = acc::host_data!(use_device(a) { a.addr() });
    assert_eq!(acc::host_ptr(addr), Some(base));
    assert_eq!(acc::host_ptr(addr + 8 * 37), Some(base + 8 * 37));
    acc::unmap_data(a);
    assert_eq!(acc::host_ptr(addr), None);
}

#[test]
fn mapping_present_or_mismatched_data_panics() {
    let mut dev = acc::DeviceSlice::<f32>::zeros(8);
    let mut host = vec![0.0f32; 8];
    acc::enter_data!(copyin(host));
    let err = catch_unwind(AssertUnwindSafe(|| drop(acc::map_data(&mut host, &mut dev)))).expect_err("present data cannot be mapped");
    assert!(panic_message(&*err).contains("present already"), "{}", panic_message(&*err));
    acc::exit_data!(delete(host));
    let mut short = vec![0.0f32; 7];
    let err = catch_unwind(AssertUnwindSafe(|| drop(acc::map_data(&mut short, &mut dev)))).expect_err("lengths must agree");
    assert!(panic_message(&*err).contains("7 elements, the DeviceSlice 8"), "{}", panic_message(&*err));
    // The failed attempts left nothing behind: the array maps now.
    let a = acc::map_data(&mut host, &mut dev);
    assert!(acc::is_present(&a));
}
