//! A kernel that panics (DESIGN §4.5): an index out of bounds inside a region is a panic, and
//! the data regions around it give their data back (§4.6). On a GPU the panicking thread ends
//! and the device goes on (`tests/semantics_recovery.rs` checks what comes after). The tests
//! run at once, as the harness likes: each stream has its own panic record, so that each
//! launch reports its own kernel's panic (two tests make it happen on purpose). A region whose
//! results stay on the device returns before its kernel ends on a GPU, and the next call that
//! waits reports its panic (the last two tests).

mod common;
use common::*;

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Every panic location the panic hook sees, kept by [`record_sites`]'s hook.
static SITES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Installs a panic hook that records each panic's `file:line:col` (once per process), then
/// runs the default hook.
fn record_sites() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            thread_local! {
                static IN_HOOK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
            }
            // A panic inside the hook on this thread (while the list is locked) must not wait
            // for itself; another thread's panic waits its turn (`try_lock` lost the gather's
            // site when the other test's panic held the lock at that moment).
            if let Some(l) = info.location() {
                if !IN_HOOK.replace(true) {
                    SITES.lock().unwrap_or_else(|e| e.into_inner()).push(format!("{}:{}:{}", l.file(), l.line(), l.column()));
                    IN_HOOK.set(false);
                }
            }
            default(info);
        }));
    });
}

/// The panic names the user's file and the line of `a[idx[i]]`: on the GPU the kernel's
/// record does, in the message (`... panicked at tests/semantics_kernel_panic.rs:L:C: index
/// out of bounds ...`); on the host it is where the panic happened.
fn assert_located_at_the_gather(msg: &str) {
    assert_located(msg, "c[i] = a[idx[i]];", "gather");
}

/// The panic names this file and the line of the statement `stmt` (as written, trimmed), and
/// on the GPU the region `region`.
fn assert_located(msg: &str, stmt: &str, region: &str) {
    let src = include_str!("semantics_kernel_panic.rs");
    let line = src.lines().position(|l| l.trim() == stmt).expect("the statement") + 1;
    let at = format!("{}:{line}:", this_file());
    if on_host() {
        let sites = SITES.lock().unwrap_or_else(|e| e.into_inner()).clone();
        assert!(sites.iter().any(|s| s.starts_with(&at)), "a panic at {at}: {sites:?}");
    } else {
        assert!(msg.contains(&format!("panicked at {at}")), "the message names {at}: {msg}");
        assert!(msg.contains(&format!("region `{region}`")), "the message names the region: {msg}");
    }
}

/// A panic inside a compute region (an index out of bounds) inside a data region: the region
/// and the data region give their data back.
#[test]
fn panic_inside_region_releases_data() {
    #[acc::parallel]
    fn gather(a: &[u32], idx: &[usize], c: &mut [u32]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..c.len() {
            c[i] = a[idx[i]];
        }
    }
    let a = vec_of(1000, |i| i as u32);
    let idx = vec_of(1000, |i| if i == 777 { 5000 } else { i });
    let mut c = vec![0u32; 1000];
    record_sites();
    let r = catch_unwind(AssertUnwindSafe(|| {
        acc::data!(copyin(a, idx), copy(c) {
            gather(&a, &idx, &mut c);
        })
    }));
    let msg = panic_message(&*r.expect_err("an out-of-bounds index panics"));
    assert!(msg.contains("index out of bounds"), "{msg}");
    assert_located_at_the_gather(&msg);
    assert!(!acc::is_present(&a) && !acc::is_present(&idx) && !acc::is_present(&c));
    assert_eq!(a, (0..1000).collect::<Vec<u32>>());
    // Without a data region, the region's own clauses are released too.
    let r = catch_unwind(AssertUnwindSafe(|| gather(&a, &idx, &mut c)));
    let msg = panic_message(&*r.expect_err("the same panic again"));
    assert!(msg.contains("the len is 1000 but the index is 5000"), "{msg}");
    assert!(!acc::is_present(&a) && !acc::is_present(&idx) && !acc::is_present(&c));
    // And the device goes on.
    let idx = vec_of(1000, |i| 999 - i);
    gather(&a, &idx, &mut c);
    assert_eq!(c, vec_of(1000, |i| 999 - i as u32));
}


/// A routine that indexes the slice it is given (`&*a` of the region's `&[u32]`).
#[acc::routine(seq)]
fn pick(a: &[u32], j: usize) -> u32 {
    a[j] + 1
}

#[acc::parallel]
fn gather_in_routine(a: &[u32], idx: &[usize], c: &mut [u32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = pick(a, idx[i]);
    }
}

/// An index out of bounds inside a routine is reported as in a region: the message has
/// `core`'s words, and the location is the routine's line and column, on the GPU too (its
/// slice indexing goes through acc-device's inline check, see `acc_device::Ix`).
#[test]
fn panic_inside_routine_names_the_routine_line() {
    let a = vec_of(100, |i| i as u32);
    let idx = vec_of(100, |i| if i == 42 { 300 } else { 99 - i });
    let mut c = vec![0u32; 100];
    record_sites();
    let r = catch_unwind(AssertUnwindSafe(|| gather_in_routine(&a, &idx, &mut c)));
    let msg = panic_message(&*r.expect_err("an out-of-bounds index in the routine panics"));
    assert!(msg.contains("index out of bounds: the len is 100 but the index is 300"), "{msg}");
    let src = include_str!("semantics_kernel_panic.rs");
    let line = src.lines().position(|l| l.trim() == "a[j] + 1").expect("the routine's index") + 1;
    // The column of `a`, on both sides: where rustc's check puts it on the host, and what
    // acc-build records for the device.
    let at = format!("{}:{line}:5", this_file());
    if on_host() {
        let sites = SITES.lock().unwrap_or_else(|e| e.into_inner()).clone();
        assert!(sites.contains(&at), "a panic at {at}: {sites:?}");
    } else {
        assert!(msg.contains(&format!("panicked at {at}: ")), "the message names {at}: {msg}");
    }
    // And the device goes on.
    let idx = vec_of(100, |i| 99 - i);
    gather_in_routine(&a, &idx, &mut c);
    assert_eq!(c, vec_of(100, |i| 100 - i as u32));
}

/// Rows copied by a worker loop whose trips run in rounds on the GPU (a worker per warp, each
/// round's loads first: the papers' worker position), the last row past the end of `b`: the
/// round that holds it fails its check (an element outside the array), the rest runs as
/// written, and the store panics with its line, as everywhere else.
#[acc::parallel(num_workers(8), vector_length(128))]
fn rows_plus_one(a: &[u32], b: &mut [u32], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        #[acc::r#loop(worker)]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] + 1;
            }
        }
    }
}

#[test]
fn panic_in_rounds_of_worker_trips_names_the_store() {
    let (nk, nj, ni) = (1, 64, 32);
    let a = vec_of(nk * nj * ni, |i| i as u32);
    let mut b = vec![0u32; nk * nj * ni - 5];
    record_sites();
    let r = catch_unwind(AssertUnwindSafe(|| rows_plus_one(&a, &mut b, nk, nj, ni)));
    let msg = panic_message(&*r.expect_err("a store past the end panics"));
    assert!(msg.contains("index out of bounds: the len is 2043 but the index is 204"), "{msg}");
    assert_located(&msg, "b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] + 1;", "rows_plus_one");
    // And the device goes on: the same rows into an array that holds them all.
    let mut b = vec![0u32; nk * nj * ni];
    rows_plus_one(&a, &mut b, nk, nj, ni);
    assert_eq!(b, vec_of(nk * nj * ni, |i| i as u32 + 1));
}

/// A nest whose indices the launch bounds (`a[i * n + j + off]`: loop variables and
/// parameters, see acc-codegen's `lower::bounds`): the kernel without their checks runs only
/// where the bounds are inside the arrays.
#[acc::kernels]
fn shifted(a: &[u32], c: &mut [u32], n: usize, off: usize) {
    #[acc::r#loop(independent)]
    for i in 0..n {
        #[acc::r#loop(independent)]
        for j in 0..n {
            c[i * n + j] = a[i * n + j + off] * 3;
        }
    }
}

/// Bounded inside the array, the nest runs without the checks and gives the host's values;
/// bounded past it (one element more), the launch keeps the checked kernel, and the one access
/// past the end panics there as on the host, at its line.
#[test]
fn an_index_bounded_past_its_array_keeps_its_check() {
    let n = 37;
    let a = vec_of(n * n + 5, |i| i as u32);
    let mut c = vec![0u32; n * n];
    shifted(&a, &mut c, n, 5);
    assert_eq!(c, vec_of(n * n, |i| 3 * (i as u32 + 5)));
    record_sites();
    let r = catch_unwind(AssertUnwindSafe(|| shifted(&a, &mut c, n, 6)));
    let msg = panic_message(&*r.expect_err("the last element's index is past the array"));
    assert!(msg.contains(&format!("index out of bounds: the len is {} but the index is {}", n * n + 5, n * n + 5)), "{msg}");
    assert_located(&msg, "c[i * n + j] = a[i * n + j + off] * 3;", "shifted");
    // And the next launch in bounds runs as before.
    shifted(&a, &mut c, n, 0);
    assert_eq!(c, vec_of(n * n, |i| 3 * i as u32));
}

/// A grid of planes of rows, indexed through its method as a port of a C code writes an
/// index macro (`u[k][j][i]` over a flat array): `at` is one expression of its arguments and
/// fields, which acc-build bounds for the launch (acc-codegen's `prove_index_method`).
#[derive(Clone, Copy, Debug, acc::DeviceCopy)]
#[repr(C)]
struct Planes {
    nk: usize,
    nj: usize,
    ld: usize,
}

impl Planes {
    fn at(&self, k: usize, j: usize, i: usize) -> usize {
        (k * self.nj + j) * self.ld + i
    }
}

/// A nest whose indices are `g.at(..)` of a value parameter and `g.ld`, a field: bounded at
/// the launch like sums and products of loop variables.
#[acc::parallel]
fn planes_shifted(a: &[u32], c: &mut [u32], g: Planes, off: usize) {
    #[acc::r#loop(gang)]
    for k in 0..g.nk {
        #[acc::r#loop(vector)]
        for j in 0..g.nj {
            for i in 0..g.ld {
                c[g.at(k, j, i)] = a[g.at(k, j, i) + off] + a[g.ld * k];
            }
        }
    }
}

/// Bounded inside the arrays through the method, the nest runs without checks and gives the
/// host's values; one element past, the checked kernel runs and panics at the user's line.
#[test]
fn an_index_through_a_method_of_a_parameter_is_bounded_at_the_launch() {
    let g = Planes { nk: 5, nj: 7, ld: 9 };
    let len = g.nk * g.nj * g.ld;
    let a = vec_of(len + 3, |i| i as u32);
    let mut c = vec![0u32; len];
    planes_shifted(&a, &mut c, g, 3);
    let mut want = vec![0u32; len];
    for k in 0..g.nk {
        for j in 0..g.nj {
            for i in 0..g.ld {
                want[g.at(k, j, i)] = (g.at(k, j, i) + 3 + g.ld * k) as u32;
            }
        }
    }
    assert_eq!(c, want);
    record_sites();
    let r = catch_unwind(AssertUnwindSafe(|| planes_shifted(&a, &mut c, g, 4)));
    let msg = panic_message(&*r.expect_err("the last element's index is past the array"));
    assert!(msg.contains(&format!("index out of bounds: the len is {} but the index is {}", len + 3, len + 3)), "{msg}");
    assert_located(&msg, "c[g.at(k, j, i)] = a[g.at(k, j, i) + off] + a[g.ld * k];", "planes_shifted");
}

/// A routine whose indices the launch bounds from its arguments (`c - k * s`, `c + k * s`:
/// sums and products of its `usize` parameters; its closure followed at each call).
#[acc::routine(seq)]
fn spread(a: &[u32], c: usize, s: usize) -> u32 {
    let side = |k: usize| a[c - k * s] + a[c + k * s];
    side(1) + 2 * side(2) + a[c]
}

/// A nest that calls `spread` on a 2-D grid of points `2s..n-2s`: its unchecked kernel calls
/// the routine's twin without checks, where the routine's bounds for the loops' ranges hold.
#[acc::kernels]
fn spread_rows(a: &[u32], c: &mut [u32], rows: usize, n: usize, s: usize) {
    #[acc::r#loop(independent)]
    for r in 0..rows {
        #[acc::r#loop(independent)]
        for i in 2 * s..n - 2 * s {
            c[r * n + i] = spread(a, r * n + i, s);
        }
    }
}

/// Bounded inside the array, the routine's twin runs and gives the host's values; with the
/// array one element short, the checked kernel runs, and the routine's index past the end
/// panics at the routine's line, as on the host.
#[test]
fn a_routine_bounded_past_its_array_keeps_its_checks() {
    let (rows, n, s) = (9, 301, 3);
    let a = vec_of(rows * n, |i| (i * 7 % 1000) as u32);
    let want = |a: &[u32], c: &mut [u32]| {
        for r in 0..rows {
            for i in 2 * s..n - 2 * s {
                let x = r * n + i;
                c[x] = a[x - s] + a[x + s] + 2 * (a[x - 2 * s] + a[x + 2 * s]) + a[x];
            }
        }
    };
    let mut c = vec![0u32; rows * n];
    spread_rows(&a, &mut c, rows, n, s);
    let mut expect = vec![0u32; rows * n];
    want(&a, &mut expect);
    assert_eq!(c, expect);
    record_sites();
    let short = &a[..rows * n - 1];
    let r = catch_unwind(AssertUnwindSafe(|| spread_rows(short, &mut c, rows, n, s)));
    let msg = panic_message(&*r.expect_err("the last row's farthest read is past the array"));
    assert!(msg.contains(&format!("index out of bounds: the len is {} but the index is {}", rows * n - 1, rows * n - 1)), "{msg}");
    assert_located(&msg, "let side = |k: usize| a[c - k * s] + a[c + k * s];", "spread_rows");
    // And the next launch in bounds runs as before.
    let mut c = vec![0u32; rows * n];
    spread_rows(&a, &mut c, rows, n, s);
    assert_eq!(c, expect);
}

/// Row sums, a gang a row. On the GPU a launch of more gangs than the GPU has multiprocessors
/// runs the nest's lean kernel, a second copy of its body that the device crate prints on
/// lines after the user's (acc-build's `print.rs`); its index checks carry the user's line and
/// column (`acc_device::Ix`), so a panic in either kernel names the line of the read.
#[acc::parallel(vector_length(128))]
fn sums_of_rows(a: &[f64], out: &mut [f64], rows: usize, cols: usize) {
    #[acc::r#loop(gang)]
    for r in 0..rows {
        let mut s = 0.0f64;
        #[acc::r#loop(vector, reduction(+: s))]
        for c in 0..cols {
            s += a[r * cols + c];
        }
        out[r] = s;
    }
}

#[test]
fn panic_in_a_second_copy_of_a_body_names_the_users_line() {
    let cols = 96;
    record_sites();
    // 4 gangs (the nest's kernel) and 1000 (its lean kernel on the GPU), the last row short.
    for rows in [4, 1000] {
        let a = vec_of(rows * cols - 3, |i| (i % 7) as f64);
        let mut out = vec![0.0; rows];
        let r = catch_unwind(AssertUnwindSafe(|| sums_of_rows(&a, &mut out, rows, cols)));
        let msg = panic_message(&*r.expect_err("a read past the end panics"));
        let len = rows * cols - 3;
        let past = (len..len + 3).any(|i| msg.contains(&format!("index out of bounds: the len is {len} but the index is {i}")));
        assert!(past, "one of the last row's three reads past the end: {msg}");
        assert_located(&msg, "s += a[r * cols + c];", "sums_of_rows");
        // And the device goes on: the whole matrix.
        let a = vec_of(rows * cols, |i| (i % 7) as f64);
        sums_of_rows(&a, &mut out, rows, cols);
        assert_eq!(out, vec_of(rows, |r| (r * cols..(r + 1) * cols).map(|i| (i % 7) as f64).sum::<f64>()));
    }
}

/// Row sums with quotients, a gang a row: a division by zero is located by `#[track_caller]`,
/// at the device crate's place. There the division stands right of its column in every copy
/// of the body: after the first read's bounds check, which acc-build writes into the line
/// (`a[ix(..)]`), and after the earlier copies of the reduction loop's chunks. The runtime
/// names the user's line and column (acc-runtime's `columns`).
#[acc::parallel(vector_length(128))]
fn quotients_of_rows(a: &[u32], d: &[u32], out: &mut [u32], rows: usize, cols: usize) {
    #[acc::r#loop(gang)]
    for r in 0..rows {
        let mut s = 0u32;
        #[acc::r#loop(vector, reduction(+: s))]
        for c in 0..cols {
            s += a[r * cols + c] + a[r * cols + c] / d[r];
        }
        out[r] = s;
    }
}

#[test]
fn a_division_by_zero_in_a_copy_of_a_body_names_the_users_line_and_column() {
    let cols = 96;
    record_sites();
    let src = include_str!("semantics_kernel_panic.rs");
    let (line, text) = src.lines().enumerate().find(|(_, l)| l.trim() == "s += a[r * cols + c] + a[r * cols + c] / d[r];").expect("the division");
    let at = format!("{}:{}:{}", this_file(), line + 1, text.rfind("a[r * cols").unwrap() + 1);
    // The last row divides by zero.
    for rows in [4, 1000] {
        let a = vec_of(rows * cols, |i| i as u32);
        let mut d = vec![3u32; rows];
        d[rows - 1] = 0;
        let mut out = vec![0u32; rows];
        let r = catch_unwind(AssertUnwindSafe(|| quotients_of_rows(&a, &d, &mut out, rows, cols)));
        let msg = panic_message(&*r.expect_err("a division by zero panics"));
        assert!(msg.contains("attempt to divide by zero"), "rows = {rows}: {msg}");
        if on_host() {
            let sites = SITES.lock().unwrap_or_else(|e| e.into_inner()).clone();
            assert!(sites.contains(&at), "rows = {rows}: a panic at {at}: {sites:?}");
        } else {
            assert!(msg.contains(&format!("panicked at {at}: ")), "rows = {rows}: the message names {at}: {msg}");
        }
        // And the device goes on.
        d[rows - 1] = 1;
        quotients_of_rows(&a, &d, &mut out, rows, cols);
        let want = vec_of(rows, |r| (r * cols..(r + 1) * cols).map(|i| i as u32 + i as u32 / d[r]).sum::<u32>());
        assert_eq!(out, want, "rows = {rows}");
    }
}

#[acc::parallel]
fn pick_all(a: &[u64], idx: &[usize], c: &mut [u64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[idx[i]];
    }
}

/// Eight host threads launch at once, round after round: the even ones a kernel that panics
/// at an index of their own, the odd ones one that does not. Each panicking launch reports
/// its own index, and each other launch returns its values: with one panic record for the
/// device, a launch could take another's panic, or lose its own and return as if it had
/// not panicked.
#[test]
fn panics_of_threads_at_once_reach_their_own_launches() {
    let (threads, rounds, n) = (8, 12, 1 << 16);
    let a = vec_of(n, |i| 3 * i as u64);
    let start = std::sync::Barrier::new(threads);
    // Each thread goes through every round and says what went wrong (a thread that stopped
    // early would leave the others waiting at the barrier).
    let wrong: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (a, start) = (&a, &start);
                s.spawn(move || {
                    let bad = n + 1000 * t;
                    let idx = vec_of(n, |i| if t % 2 == 0 && i == (t * 7919) % n { bad } else { n - 1 - i });
                    let mut wrong = Vec::new();
                    for round in 0..rounds {
                        let mut c = vec![0u64; n];
                        start.wait();
                        let r = catch_unwind(AssertUnwindSafe(|| pick_all(a, &idx, &mut c)));
                        let own = format!("the len is {n} but the index is {bad}");
                        match r {
                            Err(e) if t % 2 == 0 && panic_message(&*e).contains(&own) => {}
                            Err(e) => wrong.push(format!("thread {t}, round {round}: {}", panic_message(&*e))),
                            Ok(()) if t % 2 == 0 => wrong.push(format!("thread {t}, round {round}: no panic")),
                            Ok(()) if c.iter().enumerate().any(|(i, &v)| v != 3 * (n - 1 - i) as u64) => {
                                wrong.push(format!("thread {t}, round {round}: wrong values"))
                            }
                            Ok(()) => {}
                        }
                    }
                    wrong
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("the thread's checks do not panic")).collect()
    });
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[acc::parallel(async(q))]
fn pick_all_async(a: &[u64], idx: &[usize], c: &mut [u64], q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[idx[i]];
    }
}

/// Two async queues whose kernels both panic before either is waited for: each wait reports
/// its own queue's panic (on the host, each region call does, as async work completes
/// there before the call returns). With one panic record for the device, the second
/// kernel's panic was lost: its wait returned as if nothing had panicked.
#[test]
fn panics_on_two_queues_are_each_reported_by_their_wait() {
    let n = 5000;
    let a = vec_of(n, |i| i as u64);
    let idx5 = vec_of(n, |i| if i == 10 { n + 5 } else { i });
    let idx6 = vec_of(n, |i| if i == 4000 { n + 6 } else { i });
    let (mut c5, mut c6) = (vec![0u64; n], vec![0u64; n]);
    let (calls, waits) = acc::data!(copyin(a, idx5, idx6), create(c5, c6) {
        let calls = [
            catch_unwind(AssertUnwindSafe(|| pick_all_async(&a, &idx5, &mut c5, 5))),
            catch_unwind(AssertUnwindSafe(|| pick_all_async(&a, &idx6, &mut c6, 6))),
        ];
        let waits = [catch_unwind(|| acc::wait(5)), catch_unwind(|| acc::wait(6))];
        (calls, waits)
    });
    for ((q, call), wait) in [5, 6].into_iter().zip(calls).zip(waits) {
        assert!(call.is_err() != wait.is_err(), "queue {q}'s panic is reported once, by its call or by its wait");
        let msg = panic_message(&*call.err().or(wait.err()).expect("one of them"));
        let own = format!("the len is {n} but the index is {}", n + q);
        assert!(msg.contains(&own), "queue {q}: {own} in {msg}");
        assert!(on_host() || msg.contains("pick_all_async"), "queue {q}: the region in {msg}");
    }
}

/// `gather` with its arrays present: nothing of it comes back to the host by itself.
#[acc::parallel(present(a, idx, out))]
fn gather_present(a: &[u32], idx: &[usize], out: &mut [u32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[idx[i]];
    }
}

/// Whether synchronous regions wait for their kernels at their calls here: on the host
/// backend, and on a GPU under `ACC_LAUNCH_BLOCKING=1` or `ACC_PROFILE` (which times each).
fn regions_wait_at_their_calls() -> bool {
    let set = |v: &str| std::env::var_os(v).is_some_and(|x| !x.is_empty() && x != "0");
    on_host() || set("ACC_LAUNCH_BLOCKING") || set("ACC_PROFILE")
}

/// On a GPU, a region whose results stay on the device returns before its kernel ends: its
/// kernel panic is reported by the next call that waits (here `update!(host(c))`), naming the
/// region, its kernel and the user's line, and that call's copy is made all the same; the
/// regions called meanwhile have run, and the data region copies back as it unwinds.
#[test]
fn a_panic_of_a_region_whose_results_stay_on_the_device_is_reported_by_the_next_wait() {
    let n = 1000;
    let a = vec_of(n, |i| 2 * i as u32);
    let bad = vec_of(n, |i| if i == 321 { 7000 } else { i });
    let good = vec_of(n, |i| n - 1 - i);
    let (mut c, mut d) = (vec![1u32; n], vec![1u32; n]);
    record_sites();
    let (mut at_call, mut at_update) = (None, None);
    let r = catch_unwind(AssertUnwindSafe(|| {
        acc::data!(copyin(a, bad, good), copy(c, d) {
            at_call = catch_unwind(AssertUnwindSafe(|| gather_present(&a, &bad, &mut c))).err().map(|e| panic_message(&*e));
            gather_present(&a, &good, &mut d);
            at_update = catch_unwind(AssertUnwindSafe(|| acc::update!(host(c)))).err().map(|e| panic_message(&*e));
        })
    }));
    assert!(r.is_ok(), "the panic was reported once, inside the data region");
    let msg = if regions_wait_at_their_calls() {
        assert!(at_update.is_none(), "{at_update:?}");
        at_call.expect("the region's call panics")
    } else {
        assert!(at_call.is_none(), "the region returns before its kernel ends: {at_call:?}");
        at_update.expect("the next wait reports the panic")
    };
    assert!(msg.contains("the len is 1000 but the index is 7000"), "{msg}");
    assert_located(&msg, "out[i] = a[idx[i]];", "gather_present");
    assert!(on_host() || regions_wait_at_their_calls() || msg.contains("an earlier region whose kernel this call waited for"), "{msg}");
    // What the region wrote came back: on a GPU every element but the panicking thread's (the
    // kernel ran on), on the host those its loop reached before the panic. The region called
    // after it ran.
    assert!((0..n).all(|i| c[i] == 2 * i as u32 || c[i] == 1), "c came back");
    assert!(on_host() || (0..n).filter(|&i| i != 321).all(|i| c[i] == 2 * i as u32), "c came back whole");
    assert_eq!(d, vec_of(n, |i| 2 * (n - 1 - i) as u32));
    assert!(!acc::is_present(&c) && !acc::is_present(&a));
}

/// A thread whose last region panicked on a GPU, its results on the device, and which ends
/// without a call that waits: the thread's end waits for it, prints the panic and ends the
/// process with status 101 (no call is left to report it to). On the host backend (and with
/// `ACC_LAUNCH_BLOCKING=1`) the thread's region panics at its call, and its join says so.
#[test]
fn a_panic_left_unreported_at_a_threads_end_ends_the_process() {
    const CHILD: &str = "ACC_DEFERRED_CHILD";
    let body = || {
        let n = 4096;
        let a = vec_of(n, |i| i as u32);
        let idx = vec_of(n, |i| if i == 99 { n + 5 } else { i });
        let mut c = vec![0u32; n];
        acc::enter_data!(copyin(a, idx, c));
        let joined = std::thread::scope(|s| s.spawn(|| gather_present(&a, &idx, &mut c)).join());
        acc::exit_data!(delete(a, idx, c));
        joined
    };
    if regions_wait_at_their_calls() {
        let joined = body();
        let msg = panic_message(&*joined.expect_err("the thread's region panics at its call"));
        assert!(msg.contains(&format!("the len is 4096 but the index is {}", 4096 + 5)), "{msg}");
        return;
    }
    if std::env::var_os(CHILD).is_some() {
        let _ = body();
        unreachable!("the thread's end ends the process");
    }
    let name = "a_panic_left_unreported_at_a_threads_end_ends_the_process";
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(101), "{err}");
    assert!(err.contains("acc: at the end of a thread"), "{err}");
    assert!(err.contains("the len is 4096 but the index is 4101"), "{err}");
    assert!(err.contains("region `gather_present`"), "{err}");
}

/// This file as a panic names it: on the host rustc's path (`file!()`: relative to the root of
/// the workspace, `suite/tests/..`), on the GPU the path relative to the package that acc-build
/// records in the kernel.
fn this_file() -> &'static str {
    if on_host() {
        file!()
    } else {
        "tests/semantics_kernel_panic.rs"
    }
}
