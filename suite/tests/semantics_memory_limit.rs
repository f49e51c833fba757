//! The device's memory limit: the device filled through `enter_data!` until less than one
//! filler is free, then a data region, an `enter_data!`, a `Mirror` and a `DeviceSlice` that
//! do not fit. Each panics naming what it allocated for and the bytes; what was present before
//! (an array changed on the device) is neither lost nor changed; nothing of the refused data is
//! left present; and once the fillers are freed (the pool keeps freed allocations for reuse,
//! and a new allocation of another size needs that memory) the same data region runs.
//!
//! The fillers are `create`d (nothing copied) from zeroed `Vec`s, which the host's allocator
//! maps lazily, so filling the device takes almost no host memory. A GPU only: on the host
//! backend the "device" is the host's memory, and filling it would stop the machine.

mod common;
use common::*;

use acc::{property, Property};
use std::panic::{catch_unwind, AssertUnwindSafe};

const GIB: usize = 1 << 30;

/// Each filler's size.
const FILLER: usize = 4 * GIB;

fn free_memory() -> usize {
    property(acc::device_type(), acc::device_num(), Property::FreeMemory).expect("the device's free memory")
}

#[acc::parallel]
fn bump(a: &mut [u32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += 1;
    }
}

#[acc::parallel]
fn mark(a: &mut [u8]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = (i % 251) as u8 + 1;
    }
}

/// The message of what `f` panicked with; a failure if it did not panic.
fn refused(what: &str, f: impl FnOnce()) -> String {
    let e = catch_unwind(AssertUnwindSafe(f)).expect_err(what);
    let msg = panic_message(&*e);
    println!("{what}: {msg}");
    msg
}

#[test]
fn the_allocation_past_the_limit_panics_and_the_program_goes_on() {
    if on_host() {
        println!("skipped: filling the device to its limit runs on a GPU only");
        return;
    }
    // Present before the device fills, and changed there: the host's copy is not.
    let mut kept: Vec<u32> = (0..1u32 << 20).collect();
    acc::enter_data!(copyin(kept));
    bump(&mut kept);
    assert_eq!(kept[7], 7, "the region ran on the present copy");

    let mut fillers: Vec<Vec<u8>> = Vec::new();
    while free_memory() >= FILLER + GIB {
        let mut f = vec![0u8; FILLER];
        acc::enter_data!(create(f));
        fillers.push(f);
    }
    let free = free_memory();
    println!("{} fillers of {FILLER} bytes present, {free} bytes free", fillers.len());
    assert!(fillers.len() >= 8, "the device held only {} fillers", fillers.len());

    // A data region's array one GiB past what is free.
    let mut big = vec![0u8; free + GIB];
    let bytes = big.len();
    let msg = refused("a data region past the limit", || {
        acc::data!(copy(big) {
            mark(&mut big);
        });
    });
    assert!(msg.contains("`big`") && msg.contains(&format!("{bytes} bytes")) && msg.contains("semantics_memory_limit.rs"), "{msg}");
    assert!(!acc::is_present(&big), "the refused array is not left present");
    assert!(big.iter().all(|&x| x == 0), "the refused region did not run");

    let msg = refused("an enter_data! past the limit", || acc::enter_data!(copyin(big)));
    assert!(msg.contains("`big`") && msg.contains(&format!("{bytes} bytes")), "{msg}");
    assert!(!acc::is_present(&big));

    let msg = refused("a Mirror past the limit", || drop(acc::Mirror::new(vec![0u8; bytes])));
    assert!(msg.contains("`Mirror`") && msg.contains(&format!("{bytes} bytes")) && msg.contains("semantics_memory_limit.rs"), "{msg}");
    let msg = refused("a DeviceSlice past the limit", || drop(acc::DeviceSlice::<u8>::zeros(bytes)));
    assert!(msg.contains("acc::DeviceSlice") && msg.contains(&format!("{bytes} bytes")), "{msg}");

    // What was present is intact and still usable: its device copy has the first bump.
    bump(&mut kept);
    acc::update!(host(kept));
    assert!(kept.iter().enumerate().all(|(i, &x)| x == i as u32 + 2), "the present array changed");

    // Freed, the fillers' memory goes to the pool; the region's allocation, of another size,
    // takes it from there.
    for f in &mut fillers {
        acc::exit_data!(delete(f));
    }
    drop(fillers);
    acc::data!(copy(big) {
        mark(&mut big);
    });
    assert!(big.iter().enumerate().all(|(i, &x)| x == (i % 251) as u8 + 1), "the region after freeing");
    acc::exit_data!(delete(kept));
}
