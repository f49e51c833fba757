//! The profiling interface's events of the data API on a simulated GPU (`with_mock`), and on
//! the host backend, where no data event fires.

use super::*;
use crate::prof::Event;
use crate::test_util::events_of;

static D: RegionInfo = RegionInfo { name: "data", kind: "data", file: "src/solve.rs", line: 30, kernel: "" };

#[test]
fn a_data_region_on_a_gpu_fires_its_data_events() {
    let a = vec![1.0f32; 4];
    let mut c = vec![0.0f32; 8];
    let seen = with_mock(|_| {
        events_of(|| {
            let mut s = DataScope::new(&D);
            s.enter_data_start();
            s.enter("a", view(&a), Clause::CopyIn);
            s.enter("c", view_mut(&mut c), Clause::CopyOut);
            s.enter_data_end();
            s.enter("c", view(&c), Clause::Present); // present: no data event
        })
    });
    let seen: Vec<(Event, &str, bool)> = seen.iter().map(|(e, v, i)| (*e, v.as_str(), *i)).collect();
    use Event::*;
    let e = |ev, var| (ev, var, false);
    assert_eq!(
        seen,
        [
            e(EnterDataStart, "-"),
            e(Alloc, "a"),
            e(Create, "a"),
            e(EnqueueUploadStart, "a"),
            e(EnqueueUploadEnd, "a"),
            e(Alloc, "c"),
            e(Create, "c"),
            e(EnqueueUploadStart, "c"),
            e(EnqueueUploadEnd, "c"),
            e(EnterDataEnd, "-"),
            e(ExitDataStart, "-"),
            e(EnqueueDownloadStart, "c"),
            e(EnqueueDownloadEnd, "c"),
            e(Delete, "c"),
            e(Free, "c"),
            e(Delete, "a"),
            e(Free, "a"),
            e(ExitDataEnd, "-"),
        ]
    );
}

#[test]
fn a_compute_regions_scope_is_its_construct_and_implicit_data_region() {
    let a = vec![1u8; 16];
    let seen = with_mock(|_| {
        events_of(|| {
            let mut s = DataScope::on_queue(&K, Some(2));
            s.enter_data_start();
            s.enter("a", view(&a), Clause::CopyIn);
            s.enter_data_end();
        })
    });
    let seen: Vec<(Event, &str, bool)> = seen.iter().map(|(e, v, i)| (*e, v.as_str(), *i)).collect();
    use Event::*;
    assert_eq!(
        seen,
        [
            (ComputeConstructStart, "-", false),
            (EnterDataStart, "-", true),
            (Alloc, "a", true),
            (Create, "a", true),
            (EnqueueUploadStart, "a", true),
            (EnqueueUploadEnd, "a", true),
            (EnterDataEnd, "-", true),
            (ExitDataStart, "-", true),
            (Delete, "a", true),
            (Free, "a", true),
            (ExitDataEnd, "-", true),
            (ComputeConstructEnd, "-", false),
        ]
    );
}

#[test]
fn the_host_backend_fires_the_constructs_events_only() {
    let _g = shared();
    crate::init(); // (another test may have shut the host device down: no device_init below)
    let a = vec![1.0f64; 4];
    let seen = events_of(|| {
        let mut s = DataScope::new(&D);
        s.enter_data_start();
        s.enter("a", view(&a), Clause::Copy);
        s.enter_data_end();
        enter_data(&ENTER, "a", view(&a), EnterClause::CopyIn);
        exit_data(&ENTER, "a", view(&a), ExitClause::Delete, false);
    });
    let seen: Vec<Event> = seen.into_iter().map(|s| s.0).collect();
    assert_eq!(seen, [Event::EnterDataStart, Event::EnterDataEnd, Event::ExitDataStart, Event::ExitDataEnd]);
}

#[test]
fn each_declared_array_enters_and_exits_as_a_construct() {
    static DECLARE: RegionInfo = RegionInfo { name: "declare", kind: "declare", file: "src/solve.rs", line: 41, kernel: "" };
    let a = vec![2u16; 8];
    let seen = with_mock(|_| {
        events_of(|| {
            let d = declare(&DECLARE, "a", &a, Clause::CopyIn, Modifiers::default());
            assert_eq!(d[3], 2);
        })
    });
    let seen: Vec<(Event, &str)> = seen.iter().map(|(e, v, _)| (*e, v.as_str())).collect();
    use Event::*;
    assert_eq!(
        seen,
        [
            (EnterDataStart, "-"),
            (Alloc, "a"),
            (Create, "a"),
            (EnqueueUploadStart, "a"),
            (EnqueueUploadEnd, "a"),
            (EnterDataEnd, "-"),
            (ExitDataStart, "-"),
            (Delete, "a"),
            (Free, "a"),
            (ExitDataEnd, "-"),
        ]
    );
}

#[test]
fn a_clause_that_panics_still_ends_each_event_in_order() {
    let _g = shared();
    crate::init(); // (another test may have shut the host device down: no device_init below)
    let a = vec![1.0f64; 4];
    let seen = events_of(|| {
        let e = catch_unwind(AssertUnwindSafe(|| {
            let mut s = DataScope::new(&K);
            s.enter_data_start();
            s.enter("a", view(&a), Clause::Present);
        }));
        assert!(panic_message(&e.expect_err("absent `present` data panics")).contains("`present` data `a` is not on the device"));
    });
    let seen: Vec<(Event, bool)> = seen.into_iter().map(|(e, _, implicit)| (e, implicit)).collect();
    use Event::*;
    assert_eq!(seen, [(ComputeConstructStart, false), (EnterDataStart, true), (EnterDataEnd, true), (ComputeConstructEnd, false)]);
}
