//! Present-table tests: on the host backend (shared, distinct allocations, run in parallel)
//! and on a simulated GPU (`with_mock`, serialised), where transfers can be observed.

use super::*;
use crate::test_util::{exclusive, panic_message, shared, with_mock, MockBackend, R};
use std::panic::{catch_unwind, AssertUnwindSafe};

static K: RegionInfo = RegionInfo {
    name: "vadd",
    kind: "parallel",
    file: "examples/01-vadd.rs",
    line: 9,
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

// ---- simulated GPU --------------------------------------------------------------------------

fn f32_at(mock: &MockBackend, dev: u64, n: usize) -> Vec<f32> {
    mock.with_bytes(dev, n * 4, |b| {
        b.chunks(4)
            .map(|c| f32::from_ne_bytes(c.try_into().unwrap()))
            .collect()
    })
}

fn set_f32(mock: &MockBackend, dev: u64, vals: &[f32]) {
    mock.with_bytes(dev, vals.len() * 4, |b| {
        for (c, v) in b.chunks_mut(4).zip(vals) {
            c.copy_from_slice(&v.to_ne_bytes());
        }
    })
}

#[test]
fn gpu_copy_round_trip() {
    with_mock(|mock| {
        let mut a = vec![1.0f32, 2.0, 3.0];
        {
            let mut s = DataScope::new(&K);
            let dev = s.enter("a", view(&a), Clause::Copy);
            assert_ne!(dev, a.as_ptr() as u64);
            assert_eq!(f32_at(mock, dev, 3), [1.0, 2.0, 3.0]);
            set_f32(mock, dev, &[10.0, 20.0, 30.0]); // "the kernel"
            assert_eq!(mock.counts(), (1, 0, 1, 0));
        }
        assert_eq!(a, [10.0, 20.0, 30.0]);
        assert_eq!(mock.counts(), (1, 1, 1, 1));
        assert_eq!(mock.live(), 0);
        a[0] = 0.0;
    });
}

#[test]
fn gpu_clauses_move_what_they_say() {
    with_mock(|mock| {
        let a = vec![1.0f32; 8];
        let mut c = vec![0.0f32; 8];
        let t = vec![0.0f32; 8];
        {
            let mut s = DataScope::new(&K);
            s.enter("a", view(&a), Clause::CopyIn);
            let dc = s.enter("c", view(&c), Clause::CopyOut);
            s.enter("t", view(&t), Clause::Create);
            assert_eq!(mock.counts(), (3, 0, 2, 0), "copyin and copyout upload, create does not");
            set_f32(mock, dc, &[4.0; 8]);
        }
        assert_eq!(mock.counts(), (3, 3, 2, 1), "only copyout downloads");
        assert_eq!(c, [4.0; 8]);
        c[0] = 1.0;
    });
}

/// Elements of `copyout` data that no kernel writes (a stencil's boundary rows) come back as
/// the host had them, as on the host backend: the device copy starts as the host's data, not
/// as uninitialised device memory (seen on an H100 under initcheck: `smooth` in
/// tests/semantics_methods.rs copied out two elements it never wrote).
#[test]
fn gpu_copyout_keeps_what_the_device_does_not_write() {
    with_mock(|mock| {
        let mut c = vec![7.0f32; 4];
        {
            let mut s = DataScope::new(&K);
            let dc = s.enter("c", view(&c), Clause::CopyOut);
            crate::backend::note_device_write(); // a launch
            set_f32(mock, dc + 4, &[4.0; 2]); // "the kernel" writes c[1..3]
        }
        assert_eq!(c, [7.0, 4.0, 4.0, 7.0]);
        c[0] = 0.0;
    });
}

/// One call of a synchronous compute region (`K`) on `out` (`copy`) whose "kernel" adds `add`
/// to each element; returns the device address it ran on.
fn add_in_region(mock: &MockBackend, region: &'static RegionInfo, queue: Option<i64>, out: &mut [f32], add: f32) -> u64 {
    let mut s = DataScope::on_queue(region, queue);
    let dev = s.enter("out", view(&*out), Clause::Copy);
    crate::backend::note_device_write(); // the launch
    let now = f32_at(mock, dev, out.len());
    set_f32(mock, dev, &now.iter().map(|x| x + add).collect::<Vec<_>>());
    dev
}

/// A synchronous compute region keeps the device copies of the arrays it copies in and back
/// for its next call (`Backend::keep_copy`; the mock checks that each holds the host's bytes
/// when kept): a call whose host data still holds those bytes allocates and uploads nothing,
/// one whose host data changed uploads into the kept memory, and the results are the host
/// backend's either way.
#[test]
fn gpu_compute_region_keeps_its_copies_for_its_next_call() {
    with_mock(|mock| {
        mock.keeps.store(true, std::sync::atomic::Ordering::SeqCst);
        let mut out = vec![1.0f32; 4];
        let dev = add_in_region(mock, &K, None, &mut out, 1.0);
        assert_eq!(out, [2.0; 4]);
        assert_eq!(mock.counts(), (1, 0, 1, 1), "first call: allocated, uploaded, copied back, kept (not freed)");
        assert_eq!(mock.live(), 1);
        assert!(!is_present(&out), "kept memory is not present data");
        assert_eq!(add_in_region(mock, &K, None, &mut out, 1.0), dev);
        assert_eq!(out, [3.0; 4]);
        assert_eq!(mock.counts(), (1, 0, 1, 2), "host data unchanged: nothing allocated or uploaded");
        out[2] = 10.0;
        assert_eq!(add_in_region(mock, &K, None, &mut out, 1.0), dev);
        assert_eq!(out, [4.0, 4.0, 11.0, 4.0]);
        assert_eq!(mock.counts(), (1, 0, 2, 3), "host data changed: uploaded into the kept memory");
        // Other data with the same bytes takes it too (what it holds is what counts).
        let mut other = out.clone();
        assert_eq!(add_in_region(mock, &K, None, &mut other, 1.0), dev);
        assert_eq!(other, [5.0, 5.0, 12.0, 5.0]);
        assert_eq!(mock.counts(), (1, 0, 2, 4));
        // Another length, or another region: memory of its own.
        let mut short = vec![1.0f32; 3];
        assert_ne!(add_in_region(mock, &K, None, &mut short, 1.0), dev);
        assert_eq!(short, [2.0; 3]);
        static K2: RegionInfo = RegionInfo { name: "vadd2", kind: "kernels", file: "examples/01-vadd.rs", line: 19, kernel: "" };
        assert_ne!(add_in_region(mock, &K2, None, &mut out, 1.0), dev);
        assert_eq!(out, [5.0, 5.0, 12.0, 5.0]);
        assert_eq!(mock.counts(), (3, 0, 4, 6));
        assert_eq!(mock.live(), 3);
    });
}

/// A synchronous compute region's array that its kernels only store to
/// (`DataScope::enter_written`) gets its device copy from `Backend::alloc_hosted`: filled with
/// the host's data (elements no kernel stores keep their values), copied back at the region's
/// end, on a panic too, and freed, never kept. Elsewhere the hint changes nothing: a data
/// region, an async region, `copyin` data, data a data region holds, a backend that hosts
/// nothing.
#[test]
fn gpu_a_written_only_array_of_a_synchronous_region_lives_in_hosted_memory() {
    with_mock(|mock| {
        mock.hosts.store(true, std::sync::atomic::Ordering::SeqCst);
        mock.keeps.store(true, std::sync::atomic::Ordering::SeqCst);
        let mut out = vec![1.0f32; 4];
        let store = |out: &mut Vec<f32>, at: usize, x: f32| {
            let mut s = DataScope::new(&K);
            let dev = s.enter_written("out", view(&*out), Clause::Copy);
            assert!(mock.is_hosted(dev), "a written-only array of a synchronous region is hosted");
            crate::backend::note_device_write(); // the launch
            mock.with_bytes(dev + 4 * at as u64, 4, |b| b.copy_from_slice(&x.to_ne_bytes()));
        };
        store(&mut out, 1, 7.0);
        assert_eq!(out, [1.0, 7.0, 1.0, 1.0]);
        assert_eq!(mock.counts(), (1, 1, 1, 1), "allocated, filled, copied back, freed: not kept");
        store(&mut out, 3, 9.0);
        assert_eq!(out, [1.0, 7.0, 1.0, 9.0]);
        assert_eq!(mock.counts(), (2, 2, 2, 2));
        let e = caught(|| {
            let mut s = DataScope::new(&K);
            let dev = s.enter_written("out", view(&out), Clause::CopyOut);
            crate::backend::note_device_write();
            set_f32(mock, dev, &[5.0; 4]);
            panic!("kernel panicked");
        });
        assert!(e.contains("kernel panicked"), "{e}");
        assert_eq!(out, [5.0; 4], "copied back on the way out");
        assert_eq!(mock.live(), 0);
        // Not hosted: the hint on data of a data region, an async region, `copyin`.
        for (region, queue, clause) in [(&R, None, Clause::Copy), (&K, Some(2), Clause::Copy), (&K, None, Clause::CopyIn)] {
            let mut s = DataScope::on_queue(region, queue);
            let dev = s.enter_written("out", view(&out), clause);
            assert!(!mock.is_hosted(dev), "{} {queue:?} {clause:?}", region.kind);
        }
        acc_data_then(&out, || {
            let mut s = DataScope::new(&K);
            let dev = s.enter_written("out", view(&out), Clause::Copy);
            assert!(!mock.is_hosted(dev), "present data keeps its device copy");
        });
        mock.hosts.store(false, std::sync::atomic::Ordering::SeqCst);
        let mut s = DataScope::new(&K);
        assert!(!mock.is_hosted(s.enter_written("out", view(&out), Clause::Copy)));
    });
}

/// Runs `f` with `d` entered by a data region (`copyin`).
fn acc_data_then(d: &[f32], f: impl FnOnce()) {
    let mut s = DataScope::new(&R);
    s.enter("d", view(d), Clause::CopyIn);
    f();
}

/// What keeps nothing: a data region, an async compute region, `copyin` data (not copied
/// back, so the host may not hold what the device does), a region that panics, and data whose
/// elements are not of a primitive type.
#[test]
fn gpu_only_a_synchronous_region_that_ends_keeps_its_copies() {
    with_mock(|mock| {
        mock.keeps.store(true, std::sync::atomic::Ordering::SeqCst);
        let mut out = vec![1.0f32; 4];
        add_in_region(mock, &R, None, &mut out, 1.0);
        add_in_region(mock, &K, Some(3), &mut out, 1.0);
        assert_eq!(out, [3.0; 4]);
        assert_eq!(mock.counts(), (2, 2, 2, 2), "a data region and an async region free theirs");
        {
            let mut s = DataScope::new(&K);
            let dev = s.enter("a", view(&out), Clause::CopyIn);
            crate::backend::note_device_write();
            set_f32(mock, dev, &[9.0; 4]);
        }
        assert_eq!(mock.counts(), (3, 3, 3, 2), "copyin data is freed");
        let e = caught(|| {
            let mut s = DataScope::new(&K);
            let dev = s.enter("out", view(&out), Clause::Copy);
            crate::backend::note_device_write();
            set_f32(mock, dev, &[7.0; 4]);
            panic!("kernel panicked");
        });
        assert!(e.contains("kernel panicked"), "{e}");
        assert_eq!(out, [7.0; 4], "copied back on the way out");
        assert_eq!(mock.counts(), (4, 4, 4, 3), "a region that panicked frees its copies");
        assert_eq!(mock.live(), 0);
        // Elements with padding (not part of the value, not read as bytes): nothing kept.
        let pairs = vec![(1u8, 2u32); 4];
        for _ in 0..2 {
            let mut s = DataScope::new(&K);
            s.enter("pairs", view(&pairs), Clause::Copy);
        }
        assert_eq!(mock.counts(), (6, 6, 6, 5), "each call allocates, uploads, copies back and frees");
        assert_eq!(mock.live(), 0);
    });
}

/// A data region that unwinds before anything wrote the device copies back no `copyout`
/// data (its device copy holds nothing the program wrote: the copy would be wasted); once a
/// kernel may have written it, unwinding copies it back as any exit does.
#[test]
fn gpu_unwinding_copyout_copies_back_only_what_the_device_may_have_written() {
    with_mock(|mock| {
        let mut c = vec![7.0f32; 4];
        let msg = caught(|| {
            let mut s = DataScope::new(&K);
            let dc = s.enter("c", view(&c), Clause::CopyOut);
            set_f32(mock, dc, &[9.0; 4]); // not what a kernel wrote: must not come back
            panic!("before any launch");
        });
        assert_eq!(msg, "before any launch");
        assert_eq!(c, [7.0; 4], "no kernel wrote `c`: the host keeps its data");
        assert_eq!(mock.counts(), (1, 1, 1, 0), "uploaded on entry, freed, not downloaded");
        let msg = caught(|| {
            let mut s = DataScope::new(&K);
            let dc = s.enter("c", view(&c), Clause::CopyOut);
            crate::backend::note_device_write(); // a launch
            set_f32(mock, dc, &[4.0; 4]); // "the kernel"
            panic!("after a launch");
        });
        assert_eq!(msg, "after a launch");
        assert_eq!(c, [4.0; 4], "a kernel may have written `c`: copied back while unwinding");
        c[0] = 0.0;
    });
}

#[test]
fn gpu_present_or_moves_nothing() {
    with_mock(|mock| {
        let a = vec![2.0f32; 1000];
        let mut outer = DataScope::new(&R);
        let base = outer.enter("a", view(&a), Clause::CopyIn);
        for _ in 0..10 {
            let mut s = DataScope::new(&K);
            assert_eq!(s.enter("a", view(&a), Clause::Copy), base);
            assert_eq!(s.enter("a", view(&a[100..]), Clause::CopyOut), base + 400);
            assert_eq!(s.device_ptr(view(&a[10..20])), base + 40);
        }
        assert_eq!(mock.counts(), (1, 0, 1, 0));
        drop(outer);
        assert_eq!(mock.counts(), (1, 1, 1, 0), "copyin does not copy back");
    });
}

#[test]
fn gpu_copy_back_on_unwinding() {
    with_mock(|mock| {
        let mut a = vec![0.0f32; 4];
        let msg = caught(|| {
            let mut s = DataScope::new(&K);
            let dev = s.enter("a", view(&a), Clause::Copy);
            set_f32(mock, dev, &[1.0, 2.0, 3.0, 4.0]);
            panic!("region failed halfway");
        });
        assert_eq!(msg, "region failed halfway");
        assert_eq!(a, [1.0, 2.0, 3.0, 4.0], "no data lost on the panic path");
        assert_eq!(mock.live(), 0);
        a[0] = 0.0;
    });
}

#[test]
fn gpu_dynamic_reference_defers_copy_back() {
    with_mock(|mock| {
        let mut a = vec![1.0f32; 4];
        enter_data(&R, "a", view(&a), EnterClause::CopyIn);
        let dev;
        {
            let mut s = DataScope::new(&K);
            dev = s.enter("a", view(&a), Clause::Copy);
            set_f32(mock, dev, &[9.0; 4]);
        }
        assert_eq!(
            a, [1.0; 4],
            "still referenced by enter data: no copy back yet"
        );
        update_host(&R, "a", view(&a[2..]), false);
        assert_eq!(a, [1.0, 1.0, 9.0, 9.0], "update host copies the named part");
        a[0] = 5.0;
        update_device(&R, "a", view(&a[..1]), false);
        assert_eq!(f32_at(mock, dev, 4), [5.0, 9.0, 9.0, 9.0]);
        set_f32(mock, dev, &[7.0; 4]);
        exit_data(&R, "a", view(&a), ExitClause::CopyOut, false);
        assert_eq!(a, [7.0; 4]);
        assert_eq!(mock.live(), 0);
    });
}

#[test]
fn gpu_exit_delete_and_finalize() {
    with_mock(|mock| {
        let a = vec![1.0f32; 4];
        enter_data(&R, "a", view(&a), EnterClause::Create);
        enter_data(&R, "a", view(&a), EnterClause::CopyIn);
        assert_eq!(
            mock.counts(),
            (1, 0, 0, 0),
            "create allocates only, copyin on present data does nothing"
        );
        exit_data(&R, "a", view(&a), ExitClause::Delete, true);
        assert_eq!(
            mock.counts(),
            (1, 1, 0, 0),
            "finalize frees at once, delete copies nothing"
        );
        assert!(!is_present(&a));
    });
}

#[test]
fn gpu_shutdown_frees_everything() {
    with_mock(|mock| {
        let a = vec![1u8; 10];
        let b = vec![2u8; 10];
        enter_data(&R, "a", view(&a), EnterClause::CopyIn);
        let mut s = DataScope::new(&K);
        s.enter("b", view(&b), Clause::Copy);
        assert_eq!(mock.live(), 2);
        crate::shutdown();
        assert_eq!(mock.live(), 0);
        assert!(!is_present(&a) && !is_present(&b));
        drop(s); // the scope's references are gone with the device: nothing happens
        assert_eq!(mock.counts().3, 0);
    });
}

#[test]
fn gpu_alloc_failure_leaves_table_unchanged() {
    with_mock(|mock| {
        let a = [0u8; 4];
        let huge = HostView {
            addr: a.as_ptr() as usize,
            bytes: 1 << 41,
            elem: "u8",
        };
        let msg = caught(|| {
            DataScope::new(&K).enter("huge", huge, Clause::Create);
        });
        assert!(
            msg.contains("region `vadd` (examples/01-vadd.rs:9): cannot allocate 2.0 TiB (2199023255552 bytes) for `huge` on nvidia device 0: out of memory"),
            "{msg}"
        );
        assert_eq!(present_counts(huge), None);
        assert_eq!(mock.live(), 0);
    });
}

#[test]
fn gpu_zero_length_gets_null() {
    with_mock(|mock| {
        let e: Vec<u32> = Vec::new();
        let mut s = DataScope::new(&K);
        assert_eq!(s.enter("e", view(&e), Clause::Copy), 0);
        assert_eq!(mock.counts(), (0, 0, 0, 0));
    });
}

#[test]
fn gpu_mirror() {
    with_mock(|mock| {
        let mut m = Mirror::new(vec![1.0f32; 4]);
        assert_eq!(mock.counts(), (1, 0, 1, 0));
        let dev = m.device_ptr();
        m[0] = 2.0;
        m.update_device();
        assert_eq!(f32_at(mock, dev, 4), [2.0, 1.0, 1.0, 1.0]);
        set_f32(mock, dev, &[3.0; 4]);
        assert_eq!(m[0], 2.0, "the host copy is separate");
        m.update_host();
        assert_eq!(*m, [3.0; 4]);
        set_f32(mock, dev, &[4.0; 4]);
        let v = m.into_inner();
        assert_eq!(v, [4.0; 4]);
        assert_eq!(mock.live(), 0);
        let m = Mirror::new(v);
        drop(m);
        assert_eq!(
            mock.counts(),
            (2, 2, 3, 2),
            "drop deletes without copying back"
        );
    });
}

#[test]
fn gpu_mirror_drop_while_unwinding_reports_instead_of_aborting() {
    with_mock(|mock| {
        let r = catch_unwind(AssertUnwindSafe(|| {
            let m = Mirror::new(vec![1.0f32; 4]);
            // The device loses the allocation (as a CUDA context does after a kernel trap), so
            // the Mirror's exit fails while the panic below unwinds through it.
            // SAFETY: the pointer came from the mock's `alloc`; the runtime's later free of it
            // fails cleanly ("double free").
            unsafe { mock.free(DevPtr(m.device_ptr())).unwrap() };
            panic!("a region failed");
        }));
        assert_eq!(panic_message(&r.unwrap_err()), "a region failed");
        assert_eq!(mock.live(), 0);
    });
}

#[test]
fn gpu_device_slice() {
    with_mock(|mock| {
        let d = DeviceSlice::from_host(&[1.5f32, 2.5]);
        assert_eq!(f32_at(mock, d.device_ptr(), 2), [1.5, 2.5]);
        set_f32(mock, d.device_ptr(), &[8.0, 9.0]);
        assert_eq!(d.to_host(), [8.0, 9.0]);
        let msg = caught(|| {
            let _ = d.host_slice();
        });
        assert!(
            msg.contains("lives on mock GPU") && msg.contains("to_host"),
            "{msg}"
        );
        let mut z = DeviceSlice::<f32>::zeros(3);
        assert_eq!(z.to_host(), [0.0; 3]);
        z.copy_from_host(&[1.0, 2.0, 3.0]);
        let mut out = [0.0; 3];
        z.copy_to_host(&mut out);
        assert_eq!(out, [1.0, 2.0, 3.0]);
        let e = DeviceSlice::<f32>::from_host(&[]);
        assert_eq!(e.device_ptr(), 0);
        assert_eq!(e.to_host(), Vec::<f32>::new());
        assert_eq!(mock.live(), 2);
        drop((d, z, e));
        assert_eq!(mock.live(), 0);
    });
}

/// A region on the host device that takes a slice living on a GPU (it reaches the elements
/// through `host_slice(_mut)`) is refused as any use from another device is, naming both.
#[test]
fn gpu_device_slice_on_the_host_device_names_both_devices() {
    with_mock(|_| {
        let mut d = DeviceSlice::from_host(&[1u32, 2, 3]);
        std::thread::scope(|s| {
            s.spawn(|| {
                crate::set_device(crate::DeviceType::Host, 0);
                for msg in [caught(|| { let _ = d.host_slice_mut(); }), caught(|| { let _ = d.host_slice(); })] {
                    assert!(msg.contains("on nvidia device 0 used on host device 0"), "{msg}");
                }
            });
        });
        let msg = caught(|| { let _ = d.host_slice(); });
        assert!(msg.contains("lives on mock GPU") && msg.contains("to_host"), "{msg}");
    });
}

#[test]
fn check_unmoved_accepts_data_in_place() {
    let _g = shared();
    let mut a = vec![1u32; 8];
    let mut s = DataScope::new(&K);
    s.enter("a", view_mut(&mut a), Clause::Copy);
    a[3] = 7;
    s.check_unmoved("a", view(&a));
    s.check_unmoved("not_entered", view(&a[..0]));
    drop(s);
    assert!(!is_present(&a));
}

#[test]
fn check_unmoved_names_moved_data_and_releases_it() {
    let _g = shared();
    let mut a = vec![1u32; 8];
    let msg = caught(|| {
        let mut s = DataScope::new(&K);
        s.enter("a", view(&a), Clause::Copy);
        a.extend_from_slice(&[0; 100]);
        s.check_unmoved("a", view(&a));
    });
    assert!(
        msg.starts_with("acc: region `vadd` (examples/01-vadd.rs:9): `a` moved or changed length inside the data region"),
        "{msg}"
    );
    assert_eq!(
        present_counts(HostView {
            addr: a.as_ptr() as usize,
            bytes: 4,
            elem: "u8"
        }),
        None
    );
}

#[test]
fn gpu_moved_data_is_not_copied_back() {
    with_mock(|mock| {
        let mut a = vec![1.0f32; 4];
        let old = view(&a);
        let msg = caught(|| {
            let mut s = DataScope::new(&K);
            s.enter("a", view(&a), Clause::Copy);
            a = vec![2.0; 4]; // the old buffer is freed: copying back there would be a bug
            s.check_unmoved("a", view(&a));
        });
        assert!(msg.contains("`a` moved"), "{msg}");
        assert_eq!(mock.counts(), (1, 1, 1, 0), "freed without a download");
        assert_eq!(present_counts(old), None);
        assert_eq!(a, [2.0; 4]);
    });
}

// ---- stale entries -------------------------------------------------------------------------

static ENTER: RegionInfo = RegionInfo {
    name: "enter_data",
    kind: "enter_data",
    file: "src/solver.rs",
    line: 77,
    kernel: "",
};

/// New data at the address of an entry whose data is gone: same start, another element type.
fn retyped(v: HostView) -> HostView {
    HostView { elem: "f32", ..v }
}

#[test]
fn new_data_of_another_type_at_a_stale_address_is_not_present() {
    let _g = shared();
    let a = vec![1.0f64; 64];
    enter_data(&ENTER, "a", view(&a), EnterClause::CopyIn);
    let stale = retyped(view(&a));
    // `is_present` answers the question and does not panic.
    assert!(is_present(&a));
    assert!(view_is_present(view(&a)));
    assert!(!view_is_present(stale));
    // A region (or `present`) meeting it panics, naming the new variable and where the old
    // entry entered.
    for clause in [Clause::Present, Clause::CopyIn, Clause::Copy] {
        let msg = caught(|| {
            let mut s = DataScope::new(&K);
            s.enter("b", stale, clause);
        });
        assert!(msg.starts_with("acc: region `vadd` (examples/01-vadd.rs:9): `b` (512 B of `f32` at"), "{msg}");
        assert!(msg.contains("`a` (512 B of `f64`) entered the device there by `enter_data` at src/solver.rs:77 and never left it"), "{msg}");
        assert!(msg.contains("without `exit_data!`"), "{msg}");
    }
    // So do `enter_data!` and `update!` (they would skip the copy of the new data).
    let msg = caught(|| enter_data(&K, "b", stale, EnterClause::CopyIn));
    assert!(msg.contains("`b` (512 B of `f32`"), "{msg}");
    let msg = caught(|| update_device(&K, "b", stale, false));
    assert!(msg.contains("entered the device there by `enter_data` at src/solver.rs:77"), "{msg}");
    // Nothing changed for the old entry: its own data still finds it.
    assert_eq!(counts(&a), Some((0, 1)));
    exit_data(&R, "a", view(&a), ExitClause::Delete, false);
    assert_eq!(counts(&a), None);
}

#[test]
fn longer_data_at_a_stale_address_names_the_old_entry() {
    let _g = shared();
    // `a` entered with 16 elements, then grew in place (no reallocation: the capacity was
    // there) without an `exit data`.
    let mut a: Vec<u32> = Vec::with_capacity(64);
    a.resize(16, 1);
    enter_data(&ENTER, "a", view(&a), EnterClause::CopyIn);
    a.resize(64, 2);
    assert!(!is_present(&a));
    let msg = caught(|| {
        let mut s = DataScope::new(&K);
        s.enter("a", view(&a), Clause::Copy);
    });
    assert!(msg.contains("`a` (256 B of `u32` at"), "{msg}");
    assert!(msg.contains("`a` (64 B of `u32`) entered the device there by `enter_data` at src/solver.rs:77"), "{msg}");
    // Its first part is still the entry's data (a part of a present array).
    assert!(is_present(&a[..16]));
    assert!(is_present(&a[4..8]));
    exit_data(&R, "a", view(&a[..16]), ExitClause::Delete, true);
    assert!(!is_present(&a[..16]));
}

#[test]
fn parts_of_present_data_are_not_stale() {
    let _g = shared();
    let a = vec![3u8; 100];
    enter_data(&ENTER, "a", view(&a), EnterClause::CopyIn);
    // Shorter, same start: a part of the array, present.
    assert!(is_present(&a[..10]));
    let mut s = DataScope::new(&K);
    s.enter("head", view(&a[..10]), Clause::Present);
    s.enter("tail", view(&a[90..]), Clause::Present);
    // Another element type inside (not at the start) is not checked.
    s.enter("mid", HostView { elem: "u16", ..view(&a[10..20]) }, Clause::Present);
    drop(s);
    assert_eq!(counts(&a), Some((0, 1)));
    exit_data(&R, "a", view(&a), ExitClause::Delete, false);
}

#[test]
fn leftover_entries_are_listed_with_where_they_entered() {
    let _g = exclusive();
    let a = vec![0i64; 8];
    enter_data(&ENTER, "a", view(&a), EnterClause::Create);
    let lines = devices::current_device().table.lock().unwrap().leftovers();
    let mine: Vec<&String> = lines.iter().filter(|l| l.contains(&format!("{:#x}", a.as_ptr() as usize))).collect();
    assert_eq!(mine.len(), 1, "{lines:?}");
    assert!(
        mine[0].starts_with("acc: at exit, `a` (64 B of `i64` at ")
            && mine[0].contains("entered by `enter_data` at src/solver.rs:77 (references: 0 structured, 1 dynamic)"),
        "{}",
        mine[0]
    );
    exit_data(&R, "a", view(&a), ExitClause::Delete, false);
    assert!(!devices::current_device().table.lock().unwrap().leftovers().iter().any(|l| l.contains(&format!("{:#x}", a.as_ptr() as usize))));
}

// ---- several devices ------------------------------------------------------------------------

/// Two simulated GPUs (nvidia 0 and 1), exclusively; `f` gets both. Back to the host after.
fn with_two_mocks(f: impl FnOnce(&Arc<MockBackend>, &Arc<MockBackend>)) {
    let _g = exclusive();
    crate::devices::testing::reset_to_host();
    let (m0, m1) = (MockBackend::numbered(0), MockBackend::numbered(1));
    crate::devices::testing::attach(m0.clone());
    crate::devices::testing::attach(m1.clone());
    let r = catch_unwind(AssertUnwindSafe(|| f(&m0, &m1)));
    crate::devices::testing::reset_to_host();
    if let Err(e) = r {
        std::panic::resume_unwind(e);
    }
}

/// Each device has its own table: data entered from a thread on one device lands in that
/// device's memory only, and threads on two devices work at once.
#[test]
fn devices_have_their_own_tables() {
    with_two_mocks(|m0, m1| {
        std::thread::scope(|s| {
            for (gpu, mock) in [(0usize, m0), (1, m1)] {
                s.spawn(move || {
                    crate::set_device(crate::DeviceType::Nvidia, gpu);
                    let mut a = vec![gpu as u32; 1000];
                    for round in 0..50u32 {
                        let mut scope = DataScope::new(&R);
                        let dev = scope.enter("a", view(&a), Clause::Copy);
                        assert!(is_present(&a));
                        mock.with_bytes(dev, 4, |b| b.copy_from_slice(&(round + 7).to_ne_bytes()));
                        drop(scope);
                        assert_eq!(a[0], round + 7, "copied back from nvidia {gpu}");
                        a[0] = gpu as u32;
                    }
                    assert!(!is_present(&a));
                });
            }
        });
        let (c0, c1) = (m0.counts(), m1.counts());
        assert_eq!((c0.0, c0.2, c0.3), (50, 50, 50), "device 0: allocs, uploads, downloads");
        assert_eq!((c1.0, c1.2, c1.3), (50, 50, 50), "device 1: allocs, uploads, downloads");
        assert_eq!((m0.live(), m1.live()), (0, 0));
    });
}

/// Data present on one device and named on another is a panic naming the variable and both
/// devices, for every construct; `is_present` answers `false` there; the data is untouched.
#[test]
fn data_on_another_device_is_refused_by_name() {
    with_two_mocks(|m0, m1| {
        let a = vec![3u64; 64];
        crate::set_device(crate::DeviceType::Nvidia, 0);
        enter_data(&ENTER, "a", view(&a), EnterClause::CopyIn);
        std::thread::scope(|s| {
            s.spawn(|| {
                crate::set_device(crate::DeviceType::Nvidia, 1);
                assert!(!is_present(&a));
                let want = "`a` is present on nvidia device 0, not on nvidia device 1, this thread's device";
                for clause in [Clause::Copy, Clause::CopyIn, Clause::CopyOut, Clause::Create, Clause::Present] {
                    let msg = caught(|| {
                        DataScope::new(&K).enter("a", view(&a), clause);
                    });
                    assert!(msg.contains(want) && msg.contains("entered by `enter_data` at src/solver.rs:77"), "{clause:?}: {msg}");
                }
                let msg = caught(|| update_host(&R, "a", view(&a), false));
                assert!(msg.contains(want), "{msg}");
                let msg = caught(|| update_device(&R, "a", view(&a[8..16]), true));
                assert!(msg.contains("`a` is present on nvidia device 0"), "{msg}");
                let msg = caught(|| enter_data(&R, "a", view(&a), EnterClause::Create));
                assert!(msg.contains(want), "{msg}");
                let msg = caught(|| exit_data(&R, "a", view(&a), ExitClause::Delete, false));
                assert!(msg.contains(want), "{msg}");
            });
        });
        assert_eq!(m1.counts(), (0, 0, 0, 0), "nothing happened on device 1");
        assert_eq!(counts(&a), Some((0, 1)), "device 0's entry is as it was");
        // The host device is another device too.
        crate::set_device(crate::DeviceType::Host, 0);
        let msg = caught(|| {
            DataScope::new(&K).enter("a", view(&a), Clause::CopyIn);
        });
        assert!(msg.contains("`a` is present on nvidia device 0, not on host device 0"), "{msg}");
        crate::set_device(crate::DeviceType::Nvidia, 0);
        exit_data(&R, "a", view(&a), ExitClause::Delete, false);
        assert_eq!(m0.live(), 0);
        // Once off device 0, device 1 may take it.
        crate::set_device(crate::DeviceType::Nvidia, 1);
        enter_data(&R, "a", view(&a), EnterClause::CopyIn);
        assert_eq!(m1.live(), 1);
        exit_data(&R, "a", view(&a), ExitClause::Delete, false);
    });
}

/// Moving a thread to another device keeps what it left on the first: it is there again when
/// the thread comes back. A scope gives its references back to the device it entered them
/// on, and a `Mirror` acts on its own device from any thread.
#[test]
fn data_stays_on_its_device() {
    with_two_mocks(|m0, m1| {
        crate::set_device(crate::DeviceType::Nvidia, 0);
        let a = vec![1u16; 32];
        let mut scope = DataScope::new(&R);
        scope.enter("a", view(&a), Clause::CopyIn);
        crate::set_device(crate::DeviceType::Nvidia, 1);
        assert!(!is_present(&a));
        let m = Mirror::new(vec![2u8; 16]);
        assert_eq!(m1.live(), 1);
        crate::set_device(crate::DeviceType::Nvidia, 0);
        assert!(is_present(&a));
        drop(scope); // back to device 0, whatever the thread's device
        assert_eq!(m0.live(), 0);
        assert!(!is_present(&*m));
        m.update_device(); // on device 1, its own
        assert_eq!(m1.counts().2, 2);
        std::thread::scope(|s| {
            s.spawn(move || drop(m)); // a thread on the default (host) device
        });
        assert_eq!(m1.live(), 0);
    });
}
