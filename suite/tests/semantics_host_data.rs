//! `host_data use_device` (DESIGN §2 "Other directives"): `acc::host_data!(use_device(a) { .. })`
//! names, inside its block, the device address of present data (an `acc::DevicePtr`), the
//! same address the regions use; `if_present` and `if(false)` give the host address; absent
//! data without `if_present` panics naming the construct and the variable. On the host backend
//! every address is the host array's.
//!
//! The GPU run shows the address is the device copy's: it is the one `Mirror::device_ptr`
//! gives, and it is not the host address. `examples/examples/06-cublas.rs` hands such
//! addresses to cuBLAS between regions.

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

#[test]
fn use_device_names_the_present_copy_that_regions_use() {
    let m = acc::Mirror::new(vec![1.0f32; 1000]);
    let dev = m.device_ptr();
    let host = m.as_ptr() as u64;
    let (addr, len, is_device) = acc::host_data!(use_device(m) { (m.addr(), m.len(), m.is_device()) });
    assert_eq!(addr, dev);
    assert_eq!(len, 1000);
    assert_eq!(is_device, !on_host());
    assert_eq!(addr == host, on_host(), "the device copy's address is the host's only on the host backend");
}

#[test]
fn use_device_inside_a_data_region_between_regions() {
    let mut y: Vec<f32> = (0..4096).map(|i| i as f32).collect();
    let host = y.as_ptr() as u64;
    let seen;
    acc::data!(copy(y) {
        twice(&mut y);
        acc::host_data!(use_device(y) {
            seen = (y.addr(), y.len(), y.is_device());
            assert_eq!(y.as_ptr() as u64, y.addr());
            assert_eq!(y.as_mut_ptr() as u64, y.addr());
        });
        // The name is the array again after the block.
        twice(&mut y);
    });
    assert_eq!(seen.1, 4096);
    assert_eq!(seen.2, !on_host());
    assert_eq!(seen.0 == host, on_host());
    assert!(y.iter().enumerate().all(|(i, v)| *v == 4.0 * i as f32));
}

#[test]
fn a_part_of_present_data_is_at_its_offset_in_the_device_copy() {
    let m = acc::Mirror::new(vec![0u64; 100]);
    let part = &m[10..30];
    let addr = acc::host_data!(use_device(part) { assert_eq!(part.len(), 20); part.addr() });
    assert_eq!(addr, m.device_ptr() + 10 * 8);
}

#[test]
fn several_names_and_a_false_if_give_host_addresses() {
    let a = acc::Mirror::new(vec![1i32; 64]);
    let b = acc::Mirror::new(vec![2i32; 32]);
    let (ha, hb) = (a.as_ptr() as u64, b.as_ptr() as u64);
    let on = false;
    let (pa, pb) = acc::host_data!(use_device(a, b), if(on) { (a, b) });
    assert_eq!((pa.addr(), pa.len(), pa.is_device()), (ha, 64, false));
    assert_eq!((pb.addr(), pb.len(), pb.is_device()), (hb, 32, false));
    let (pa, pb) = acc::host_data!(use_device(a), use_device(b), if(!on) { (a, b) });
    assert_eq!((pa.addr(), pb.addr()), (a.device_ptr(), b.device_ptr()));
}

#[test]
fn if_present_gives_the_host_address_of_absent_data() {
    let v = vec![3.0f64; 10];
    let host = v.as_ptr() as u64;
    let p = acc::host_data!(use_device(v), if_present { v });
    assert_eq!((p.addr(), p.len(), p.is_device()), (host, 10, false));
    assert!(!acc::is_present(&v));
}

#[test]
fn absent_data_without_if_present_panics_naming_the_construct_and_the_variable() {
    let lonely = vec![0u8; 16];
    let e = catch_unwind(AssertUnwindSafe(|| acc::host_data!(use_device(lonely) { lonely.addr() }))).unwrap_err();
    let msg = panic_message(&*e);
    assert!(msg.contains("host_data") && msg.contains("`lonely` in `use_device` is not on the device"), "{msg}");
    assert!(msg.contains("semantics_host_data.rs"), "the message names the construct's place: {msg}");
}

#[test]
fn empty_data_has_an_address_without_being_present() {
    let e: Vec<f32> = Vec::new();
    let p = acc::host_data!(use_device(e) { e });
    assert_eq!(p.len(), 0);
    assert!(p.is_empty());
}
