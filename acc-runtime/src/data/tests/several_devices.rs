//! Several devices: each its own present table, data on another device refused by name.

use super::*;

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
