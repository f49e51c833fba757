//! Stale entries: new data at the address of an entry whose data is gone.

use super::*;

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
    let lines = devices::current_device().table.lock().unwrap_or_else(PoisonError::into_inner).leftovers();
    let mine: Vec<&String> = lines.iter().filter(|l| l.contains(&format!("{:#x}", a.as_ptr() as usize))).collect();
    assert_eq!(mine.len(), 1, "{lines:?}");
    assert!(
        mine[0].starts_with("acc: at exit, `a` (64 B of `i64` at ")
            && mine[0].contains("entered by `enter_data` at src/solver.rs:77 (references: 0 structured, 1 dynamic)"),
        "{}",
        mine[0]
    );
    exit_data(&R, "a", view(&a), ExitClause::Delete, false);
    assert!(!devices::current_device().table.lock().unwrap_or_else(PoisonError::into_inner).leftovers().iter().any(|l| l.contains(&format!("{:#x}", a.as_ptr() as usize))));
}
