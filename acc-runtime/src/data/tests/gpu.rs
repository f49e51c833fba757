//! The present table on a simulated GPU (`with_mock`, serialised), where transfers can be
//! observed: clauses, present-or, kept copies of compute regions, written-only arrays in hosted
//! memory, unwinding, exit/delete/finalize, `Mirror` and `DeviceSlice`, moved data.

use super::*;

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
