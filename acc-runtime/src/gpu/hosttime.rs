//! `ACC_EXP_HOSTTIME=1`: where the host's time goes in a program's GPU regions, an experiment
//! switch for measurements on the GPU, off by default. At the process's exit one line on
//! stderr splits the time from the first region call to the last launch's return into what the
//! region fns' GPU paths spend before their launches (their data clauses, the kernels'
//! arguments), in acc's launch (the kernel's choice, the grid, the window of launches not
//! waited for), in `cuLaunchKernel` itself (where the GPU's queue is full, it waits there for
//! the kernels ahead), waiting for the GPU where the window of launches not waited for is full
//! (`cuda/deferred.rs`), and between a region's last launch and the next region's call (the
//! region's exit and the program's own host code), beside the wall time from the first region
//! call to the exit and the process's CPU time. Off, each hook is a load of a flag.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// The sums, in nanoseconds, and the counts.
struct Sums {
    calls: AtomicU64,
    launches: AtomicU64,
    setup: AtomicU64,
    launch: AtomicU64,
    driver: AtomicU64,
    window: AtomicU64,
    between: AtomicU64,
}

/// The first region call.
static FIRST: OnceLock<Instant> = OnceLock::new();

static SUMS: Sums = Sums {
    calls: AtomicU64::new(0),
    launches: AtomicU64::new(0),
    setup: AtomicU64::new(0),
    launch: AtomicU64::new(0),
    driver: AtomicU64::new(0),
    window: AtomicU64::new(0),
    between: AtomicU64::new(0),
};

/// Whether the switch is on (read once; registers the report at that read).
fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        let on = std::env::var_os("ACC_EXP_HOSTTIME").is_some_and(|v| v == "1");
        if on {
            extern "C" fn at_exit() {
                let _ = std::panic::catch_unwind(report);
            }
            // SAFETY: a plain `extern "C" fn()` that never unwinds, registered once (inside
            // `get_or_init`).
            unsafe { libc::atexit(at_exit) };
        }
        on
    })
}

thread_local! {
    /// The start of the calling thread's region call, until its first launch; then of the
    /// next launch's setup.
    static SINCE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// The end of the thread's last launch.
    static LAST_END: Cell<Option<Instant>> = const { Cell::new(None) };
}

fn add(sum: &AtomicU64, from: Instant, to: Instant) {
    sum.fetch_add(to.saturating_duration_since(from).as_nanos() as u64, Ordering::Relaxed);
}

/// A region fn takes its GPU path.
pub(crate) fn region_call() {
    if !on() {
        return;
    }
    let now = Instant::now();
    FIRST.get_or_init(|| now);
    if let Some(end) = LAST_END.take() {
        add(&SUMS.between, end, now);
    }
    SUMS.calls.fetch_add(1, Ordering::Relaxed);
    SINCE.set(Some(now));
}

/// A launch begins: returns its start, timed by [`launch_end`].
pub(crate) fn launch_begin() -> Option<Instant> {
    if !on() {
        return None;
    }
    let now = Instant::now();
    match SINCE.take() {
        Some(since) => add(&SUMS.setup, since, now),
        // A launch after the region's last one: what came between is the region's.
        None => {
            if let Some(end) = LAST_END.take() {
                add(&SUMS.setup, end, now);
            }
        }
    }
    Some(now)
}

/// The launch begun at `start` returned.
pub(crate) fn launch_end(start: Option<Instant>) {
    let Some(start) = start else { return };
    let now = Instant::now();
    add(&SUMS.launch, start, now);
    SUMS.launches.fetch_add(1, Ordering::Relaxed);
    LAST_END.set(Some(now));
}

/// Times `f`, the driver's launch call.
pub(crate) fn driver<T>(f: impl FnOnce() -> T) -> T {
    timed(&SUMS.driver, f)
}

/// Times `f`, a launch's wait for the launches of a full window (`cuda/deferred.rs`).
pub(crate) fn window_wait<T>(f: impl FnOnce() -> T) -> T {
    timed(&SUMS.window, f)
}

fn timed<T>(sum: &AtomicU64, f: impl FnOnce() -> T) -> T {
    if !on() {
        return f();
    }
    let start = Instant::now();
    let r = f();
    add(sum, start, Instant::now());
    r
}

/// The process's user and system CPU seconds.
fn cpu_seconds() -> (f64, f64) {
    // SAFETY: `rusage` is plain integers (zero is a value of it); `getrusage` fills it.
    let u = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    (s(u.ru_utime), s(u.ru_stime))
}

fn report() {
    let wall = FIRST.get().map_or(0.0, |f| f.elapsed().as_secs_f64());
    let (user, system) = cpu_seconds();
    let s = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64 * 1e-9;
    let launches = SUMS.launches.load(Ordering::Relaxed).max(1) as f64;
    let per = |x: f64| x / launches * 1e6;
    let (setup, launch, driver, window, between) = (s(&SUMS.setup), s(&SUMS.launch), s(&SUMS.driver), s(&SUMS.window), s(&SUMS.between));
    let own = launch - driver - window;
    eprintln!(
        "acc: host time: {} region calls, {} launches; before the launches {setup:.3} s ({:.2} us a launch), in acc's launch {own:.3} s ({:.2} us), in cuLaunchKernel {driver:.3} s ({:.2} us), waiting for a full window of launches {window:.3} s ({:.2} us), between regions {between:.3} s ({:.2} us); {wall:.3} s from the first region call, CPU {user:.3} s user, {system:.3} s system",
        SUMS.calls.load(Ordering::Relaxed),
        SUMS.launches.load(Ordering::Relaxed),
        per(setup),
        per(own),
        per(driver),
        per(window),
        per(between),
    );
}
