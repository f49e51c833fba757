//! Present-table tests: on the host backend (shared, distinct allocations, run in parallel)
//! here; on a simulated GPU (`with_mock`, serialised), where transfers can be observed, in
//! `gpu.rs`; stale entries in `stale.rs`; several devices in `several_devices.rs`.

use super::*;
use crate::test_util::{exclusive, panic_message, shared, with_mock, MockBackend, R};
use std::panic::{catch_unwind, AssertUnwindSafe};

mod gpu;
mod prof;
mod several_devices;
mod stale;

static K: RegionInfo = RegionInfo {
    name: "vadd",
    kind: "parallel",
    file: "examples/01-vadd.rs",
    line: 9,
    kernel: "",
};

/// The region of the stale-entry and several-device tests' `enter_data`.
static ENTER: RegionInfo = RegionInfo {
    name: "enter_data",
    kind: "enter_data",
    file: "src/solver.rs",
    line: 77,
    kernel: "",
};

fn counts<D: HostData + ?Sized>(d: &D) -> Option<(usize, usize)> {
    present_counts(view(d))
}

fn caught(f: impl FnOnce()) -> String {
    let e = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    panic_message(&e)
}

// ---- host backend -------------------------------------------------------------------------

#[test]
fn view_of_every_host_data_kind() {
    let v = vec![1u16, 2, 3];
    let a = [1.0f64; 5];
    let b: Box<[u8]> = vec![0u8; 7].into_boxed_slice();
    assert_eq!(
        view(&v),
        HostView {
            addr: v.as_ptr() as usize,
            bytes: 6,
            elem: "u16"
        }
    );
    assert_eq!(view(&a).bytes, 40);
    assert_eq!(view(&b).bytes, 7);
    assert_eq!(
        view(&v[1..]),
        HostView {
            addr: v.as_ptr() as usize + 2,
            bytes: 4,
            elem: "u16"
        }
    );
    assert_eq!(view(&&v), view(&v));
    let mut m = vec![0i32; 2];
    let r = &mut m;
    assert_eq!(view(&r).bytes, 8);
    assert_eq!(view::<[u8]>(&[]).bytes, 0);
}

#[test]
fn structured_copy_counts_and_exit() {
    let _g = shared();
    let a = vec![1.0f32; 64];
    {
        let mut s = DataScope::new(&R);
        let dev = s.enter("a", view(&a), Clause::Copy);
        assert_eq!(
            dev,
            a.as_ptr() as u64,
            "host backend: device address is host address"
        );
        assert_eq!(counts(&a), Some((1, 0)));
        assert!(is_present(&a));
        assert!(is_present(&a[10..20]));
        assert_eq!(s.device_ptr(view(&a[4..])), a.as_ptr() as u64 + 16);
    }
    assert_eq!(counts(&a), None);
    assert!(!is_present(&a));
}

#[test]
fn present_or_nested_scopes() {
    let _g = shared();
    let a = vec![0u8; 100];
    let b = [7i64; 3];
    let mut outer = DataScope::new(&R);
    outer.enter("a", view(&a), Clause::CopyIn);
    {
        let mut inner = DataScope::new(&K);
        inner.enter("a", view(&a), Clause::Copy);
        inner.enter("a", view(&a[..50]), Clause::Present);
        inner.enter("b", view(&b), Clause::Create);
        assert_eq!(counts(&a), Some((3, 0)));
        assert_eq!(counts(&b), Some((1, 0)));
        {
            let mut innermost = DataScope::new(&K);
            innermost.enter("a", view(&a[25..]), Clause::CopyOut);
            assert_eq!(counts(&a), Some((4, 0)));
        }
        assert_eq!(counts(&a), Some((3, 0)));
    }
    assert_eq!(counts(&a), Some((1, 0)));
    assert_eq!(counts(&b), None);
    drop(outer);
    assert_eq!(counts(&a), None);
}

#[test]
fn present_on_absent_data_names_variable_and_region() {
    let _g = shared();
    let a = vec![1.0f64; 8];
    let msg = caught(|| {
        let mut s = DataScope::new(&K);
        s.enter("a", view(&a), Clause::Present);
    });
    assert_eq!(
        msg,
        "acc: region `vadd` (examples/01-vadd.rs:9): `present` data `a` is not on the device"
    );
    assert!(!is_present(&a));
}

#[test]
#[should_panic(expected = "`present` data `grid` is not on the device")]
fn present_on_absent_data_should_panic() {
    let _g = shared();
    let grid = [0u32; 16];
    DataScope::new(&R).enter("grid", view(&grid), Clause::Present);
}

#[test]
fn earlier_entries_released_when_a_later_clause_panics() {
    let _g = shared();
    let a = vec![1u32; 8];
    let b = vec![2u32; 8];
    let msg = caught(|| {
        let mut s = DataScope::new(&K);
        s.enter("a", view(&a), Clause::Copy);
        s.enter("b", view(&b), Clause::Present);
    });
    assert!(msg.contains("`b`"), "{msg}");
    assert_eq!(counts(&a), None, "the scope gave `a` back while unwinding");
}

#[test]
fn scope_exits_on_unwinding() {
    let _g = shared();
    let a = vec![3i32; 32];
    let msg = caught(|| {
        let mut s = DataScope::new(&R);
        s.enter("a", view(&a), Clause::Copy);
        assert!(is_present(&a));
        panic!("kernel failed");
    });
    assert_eq!(msg, "kernel failed");
    assert!(!is_present(&a));
}

#[test]
fn partial_overlap_panics() {
    let _g = shared();
    let a = vec![0u64; 100];
    let mut s = DataScope::new(&R);
    s.enter("a", view(&a[10..50]), Clause::Create);
    let msg = caught(|| {
        DataScope::new(&K).enter("tail", view(&a[40..60]), Clause::Copy);
    });
    assert!(
        msg.starts_with("acc: region `vadd` (examples/01-vadd.rs:9): data `tail`"),
        "{msg}"
    );
    assert!(msg.contains("partially overlaps data `a`"), "{msg}");
    // a superset of present data is a partial overlap too
    let msg = caught(|| enter_data(&K, "all", view(&a), EnterClause::CopyIn));
    assert!(
        msg.contains("data `all`") && msg.contains("partially overlaps"),
        "{msg}"
    );
    // a range ending inside
    let msg = caught(|| update_host(&K, "head", view(&a[0..11]), true));
    assert!(msg.contains("partially overlaps"), "{msg}");
    // adjacent ranges do not overlap
    {
        let mut t = DataScope::new(&K);
        t.enter("left", view(&a[0..10]), Clause::Create);
        t.enter("right", view(&a[50..]), Clause::Create);
        assert!(is_present(&a[0..10]) && is_present(&a[50..]) && !is_present(&a[..]));
    }
    assert_eq!(counts(&a[10..50]), Some((1, 0)));
    drop(s);
    assert!(!is_present(&a[20..30]));
}

#[test]
fn zero_length_data_is_fine() {
    let _g = shared();
    let e: Vec<f32> = Vec::new();
    let mut s = DataScope::new(&R);
    assert_eq!(s.enter("e", view(&e), Clause::Present), e.as_ptr() as u64);
    s.enter("e", view(&e), Clause::Copy);
    enter_data(&R, "e", view(&e), EnterClause::CopyIn);
    exit_data(&R, "e", view(&e), ExitClause::CopyOut, true);
    update_host(&R, "e", view(&e), false);
    update_device(&R, "e", view(&e), false);
    assert!(!is_present(&e));
    assert_eq!(s.device_ptr(view(&e)), e.as_ptr() as u64);
    // an empty part of present data is present
    let a = [1u8; 10];
    s.enter("a", view(&a), Clause::CopyIn);
    assert!(is_present(&a[3..3]));
    assert_eq!(
        s.enter("a", view(&a[4..4]), Clause::Present),
        a.as_ptr() as u64 + 4
    );
    assert_eq!(
        counts(&a),
        Some((1, 0)),
        "zero-length data takes no reference"
    );
}

#[test]
fn deviceptr_clause_is_not_tracked() {
    let _g = shared();
    let d = DeviceSlice::from_host(&[1u32, 2, 3]);
    let v = HostView {
        addr: d.device_ptr() as usize,
        bytes: 12,
        elem: "u32",
    };
    let mut s = DataScope::new(&R);
    assert_eq!(s.enter("d", v, Clause::DevicePtr), d.device_ptr());
    assert_eq!(present_counts(v), None);
}

#[test]
fn enter_exit_data_refcounts() {
    let _g = shared();
    let a = vec![5u32; 10];
    enter_data(&R, "a", view(&a), EnterClause::CopyIn);
    enter_data(&R, "a", view(&a), EnterClause::Create);
    assert_eq!(counts(&a), Some((0, 2)));
    {
        let mut s = DataScope::new(&K);
        s.enter("a", view(&a), Clause::Present);
        assert_eq!(counts(&a), Some((1, 2)));
        exit_data(&R, "a", view(&a), ExitClause::Delete, true); // finalize: dynamic -> 0
        assert_eq!(
            counts(&a),
            Some((1, 0)),
            "the structured reference keeps it"
        );
        exit_data(&R, "a", view(&a), ExitClause::Delete, false); // dynamic already 0: no-op
        assert_eq!(counts(&a), Some((1, 0)));
    }
    assert_eq!(counts(&a), None);
    enter_data(&R, "a", view(&a), EnterClause::CopyIn);
    enter_data(&R, "a", view(&a[2..4]), EnterClause::CopyIn); // a part counts on the whole
    assert_eq!(counts(&a), Some((0, 2)));
    exit_data(&R, "a", view(&a), ExitClause::CopyOut, false);
    assert_eq!(counts(&a), Some((0, 1)));
    exit_data(&R, "a", view(&a), ExitClause::CopyOut, false);
    assert_eq!(counts(&a), None);
    exit_data(&R, "a", view(&a), ExitClause::CopyOut, false); // absent: no-op
    exit_data(&R, "a", view(&a), ExitClause::Delete, true);
}

#[test]
fn update_on_absent_data() {
    let _g = shared();
    let a = vec![0.5f32; 4];
    let msg = caught(|| update_host(&K, "a", view(&a), false));
    assert_eq!(
        msg,
        "acc: region `vadd` (examples/01-vadd.rs:9): `update host` data `a` is not on the device (add `if_present` to skip absent data)"
    );
    let msg = caught(|| update_device(&R, "b", view(&a), false));
    assert!(
        msg.contains("`update device` data `b` is not on the device"),
        "{msg}"
    );
    update_host(&R, "a", view(&a), true);
    update_device(&R, "a", view(&a), true);
    let m = Mirror::new(a);
    update_host(&R, "m", view(&m[1..3]), false);
    update_device(&R, "m", view(&*m), false);
}

#[test]
fn device_ptr_of_absent_data_panics() {
    let _g = shared();
    let a = [1u8; 3];
    let msg = caught(|| {
        DataScope::new(&K).device_ptr(view(&a));
    });
    assert!(
        msg.starts_with("acc: region `vadd`") && msg.contains("is not on the device"),
        "{msg}"
    );
}

#[test]
fn is_present_on_every_kind() {
    let _g = shared();
    let v = vec![1i8; 3];
    let arr = [2u64; 4];
    let b: Box<[f64]> = vec![1.0; 5].into_boxed_slice();
    let mut s = DataScope::new(&R);
    for (name, vw) in [("v", view(&v)), ("arr", view(&arr)), ("b", view(&b))] {
        s.enter(name, vw, Clause::CopyIn);
    }
    assert!(is_present(&v) && is_present(&arr) && is_present(&b) && is_present(&b[..2]));
    assert!(is_present(&&v));
    drop(s);
    assert!(!is_present(&v) && !is_present(&arr) && !is_present(&b));
}

#[test]
fn threads_use_the_table_concurrently() {
    let _g = shared();
    std::thread::scope(|sc| {
        for t in 0..8 {
            sc.spawn(move || {
                let a = vec![t as u32; 1000 + t];
                for _ in 0..200 {
                    let mut s = DataScope::new(&R);
                    s.enter("a", view(&a), Clause::Copy);
                    s.enter("a", view(&a[1..]), Clause::Present);
                    enter_data(&R, "a", view(&a), EnterClause::CopyIn);
                    assert_eq!(counts(&a), Some((2, 1)));
                    exit_data(&R, "a", view(&a), ExitClause::Delete, false);
                }
                assert!(!is_present(&a));
            });
        }
    });
}

#[test]
fn poisoned_lock_does_not_cascade() {
    let _g = exclusive();
    let r = std::thread::spawn(|| {
        let dev = devices::current_device();
        let _t = dev.table.lock();
        panic!("poison the table lock");
    })
    .join();
    assert!(r.is_err());
    let a = vec![1u8; 4];
    let mut s = DataScope::new(&R);
    s.enter("a", view(&a), Clause::Copy);
    assert!(is_present(&a));
    drop(s);
    assert!(!is_present(&a));
}

#[test]
fn scope_survives_shutdown_inside() {
    let _g = exclusive();
    let a = vec![1u8; 4];
    let b = vec![1u8; 4];
    let mut s = DataScope::new(&R);
    s.enter("a", view(&a), Clause::Copy);
    crate::shutdown();
    s.enter("b", view(&b), Clause::Copy); // reopens the device
    assert!(!is_present(&a) && is_present(&b));
    drop(s);
    assert!(!is_present(&b));
}

// ---- Mirror and DeviceSlice on the host backend -------------------------------------------

#[test]
fn mirror_lifecycle() {
    let _g = shared();
    let mut m = Mirror::new(vec![1.0f32, 2.0, 3.0]);
    assert_eq!(counts(&*m), Some((0, 1)));
    assert!(is_present(&m) && is_present(&*m));
    m[1] = 20.0;
    m.update_device();
    m.update_host();
    assert_eq!(m.device_ptr(), m.as_ptr() as u64);
    {
        let mut s = DataScope::new(&K);
        s.enter("m", view(&m), Clause::Present);
        assert_eq!(counts(&*m), Some((1, 1)));
    }
    let addr = m.as_ptr();
    let v = m.into_inner();
    assert_eq!(v, [1.0, 20.0, 3.0]);
    assert_eq!(v.as_ptr(), addr);
    assert!(!is_present(&v));
    let m = Mirror::new(v);
    assert!(is_present(&*m));
    let v2 = m.as_ptr();
    drop(m); // exit data delete
    let _ = v2;
}

#[test]
fn a_mirror_is_reported_at_the_line_that_made_it() {
    let _g = shared();
    let made: Vec<Mirror<Vec<u8>>> = (0..3).map(|i| Mirror::new(vec![i; 8])).collect();
    let line = line!() - 1;
    let other = Mirror::new(vec![9u8; 8]);
    let r = made[0].region;
    assert_eq!((r.name, r.file, r.line), ("acc::Mirror", file!(), line));
    assert_eq!(r.to_string(), format!("region `acc::Mirror` ({}:{line})", file!()));
    // One `RegionInfo` per place: the same for every Mirror made there, another elsewhere.
    assert!(made.iter().all(|m| std::ptr::eq(m.region, r)));
    assert_eq!(other.region.line, line + 2);
}

#[test]
fn mirror_of_array_keeps_its_address() {
    let _g = shared();
    let m = Mirror::new([7u16; 32]);
    let moved = [m];
    assert!(is_present(&*moved[0]));
    assert_eq!(format!("{:?}", Mirror::new([1u8, 2])), "Mirror([1, 2])");
}

#[test]
fn mirror_detects_reallocation() {
    let _g = shared();
    let mut m = Mirror::new(vec![1u8; 4]);
    m.push(5);
    let msg = caught(|| m.update_device());
    assert!(msg.contains("moved or changed length"), "{msg}");
    drop(m); // exits the old range without writing to it
}

#[test]
fn mirror_nests_with_data_regions() {
    let _g = shared();
    let a = vec![0i32; 16];
    let mut s = DataScope::new(&R);
    s.enter("a", view(&a), Clause::Copy);
    let m = Mirror::new(&a);
    assert_eq!(counts(&a), Some((1, 1)));
    drop(m);
    assert_eq!(counts(&a), Some((1, 0)));
}

/// A `DeviceSlice` made under the host backend keeps its elements in host memory. The test is
/// about the host backend, so it picks it whatever `ACC_DEVICE_TYPE` says (exclusively, as
/// `with_mock` does), then gives back the backend that was open before, if any.
#[test]
fn device_slice_on_host() {
    let _g = exclusive();
    let before = crate::devices::testing::backend_if_open();
    crate::devices::testing::reset_to_host();
    let r = catch_unwind(AssertUnwindSafe(|| {
        let mut d = DeviceSlice::from_host(&[1u32, 2, 3, 4]);
        assert_eq!(d.len(), 4);
        assert!(!d.is_empty());
        assert_eq!(d.host_slice(), [1, 2, 3, 4]);
        d.host_slice_mut()[0] = 10;
        assert_eq!(d.to_host(), [10, 2, 3, 4]);
        assert_eq!(d.device_ptr(), d.host_slice().as_ptr() as u64);
        d.copy_from_host(&[5, 6, 7, 8]);
        let mut out = [0u32; 4];
        d.copy_to_host(&mut out);
        assert_eq!(out, [5, 6, 7, 8]);
        let msg = caught(|| d.copy_from_host(&[1]));
        assert!(
            msg.contains("the host slice has 1 elements, the device slice 4"),
            "{msg}"
        );
        let z = DeviceSlice::<[f64; 2]>::zeros(3);
        assert_eq!(z.to_host(), [[0.0; 2]; 3]);
        let e = DeviceSlice::<u8>::zeros(0);
        assert!(e.is_empty());
        assert!(format!("{d:?}").contains("len: 4"));
    }));
    if let Some(b) = before.filter(|b| !b.is_host()) {
        crate::devices::testing::install(b);
    }
    if let Err(e) = r {
        std::panic::resume_unwind(e);
    }
}

/// `DeviceSlice::copy_from_device` and `copy_range_from_device` on a simulated GPU: one
/// device-to-device copy each (no transfer through the host), the elements where they belong;
/// lengths and ranges that do not fit are refused by name, and so is a slice of another device.
#[test]
fn device_slice_device_to_device_copies() {
    with_mock(|mock| {
        let a = DeviceSlice::from_host(&[1u32, 2, 3, 4]);
        let mut b = DeviceSlice::<u32>::zeros(4);
        let (_, _, up, down) = mock.counts();
        b.copy_from_device(&a);
        assert_eq!(mock.d2ds.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!(mock.counts().2, up, "no upload");
        assert_eq!(mock.counts().3, down, "no download");
        assert_eq!(b.to_host(), [1, 2, 3, 4]);

        let mut c = DeviceSlice::<u32>::zeros(6);
        c.copy_range_from_device(3, &a, 1..4);
        assert_eq!(c.to_host(), [0, 0, 0, 2, 3, 4]);
        c.copy_range_from_device(0, &a, 2..2);
        assert_eq!(mock.d2ds.load(std::sync::atomic::Ordering::SeqCst), 2, "an empty range copies nothing");

        let msg = caught(|| c.copy_from_device(&a));
        assert!(msg.contains("copy_from_device: the source has 4 elements, the destination 6"), "{msg}");
        let msg = caught(|| c.copy_range_from_device(4, &a, 0..3));
        assert!(msg.contains("3 elements at 4 do not fit in the destination's 6"), "{msg}");
        let msg = caught(|| c.copy_range_from_device(0, &a, 3..5));
        assert!(msg.contains("the range 3..5 is not within the source's 4 elements"), "{msg}");

        crate::devices::set_device(crate::DeviceType::Host, 0);
        let h = DeviceSlice::from_host(&[9u32; 4]);
        let msg = caught(|| b.copy_from_device(&h));
        assert!(msg.contains("the source lives on host device 0, the destination on nvidia device 0"), "{msg}");
    });
}
