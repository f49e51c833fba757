//! NVTX ranges, so that Nsight Systems names acc's work: under `nsys profile --trace=cuda,nvtx`
//! each GPU launch of a region runs inside a range `acc region sweep (examples/03-jacobi.rs:6)`
//! (the region's name and where it is written, as `ACC_NOTIFY` names it), and each transfer of
//! the data API inside `acc upload a (examples/03-jacobi.rs:74) 8.0 MiB` or `acc download ...`
//! (the data's name, the construct that moved it, the bytes).
//! A launch's range spans the launch and, for a synchronous region, the wait for its kernel
//! (an async launch's, the call that queues it); a transfer's spans the copy
//! ([`data::transfer`](crate::data)).
//!
//! NVTX v3 is NVIDIA's header-only C library, here built from source by the `nvtx` crate
//! (with `cc`; it needs no CUDA): its first call looks for a profiler's injection library,
//! the path in `NVTX_INJECTION64_PATH`, which `nsys` and Nsight Compute set in the profiled
//! process; without one every later call is a no-op through a function pointer. acc names a
//! range only where that variable is set (read once), so that with no profiler a range costs
//! the test of a flag and its name, a string made for each range, is never made
//! (`benches/nvtx_ranges.rs` measures both). Without the `cuda` feature there is no NVTX library and no
//! range.
//!
//! Why the `nvtx` crate (1.x): cudarc 0.19's `nvtx` module loads NVTX v2's shared library
//! (`libnvToolsExt.so`, part of a CUDA toolkit, which a machine with only the driver lacks) at
//! run time and panics where it is absent; NVIDIA's `nvtx-sys` makes its bindings with bindgen,
//! so every `cuda` build would need libclang. The `nvtx` crate compiles NVTX v3 into the
//! program with `cc` alone; it copies each name into a C string, which acc makes only while a
//! profiler is attached.

use std::marker::PhantomData;
use std::sync::LazyLock;

use crate::profile::{human_bytes, Direction};
use crate::region_info::RegionInfo;

/// The variable NVTX reads to find a profiler's injection library (64-bit processes).
pub const INJECTION_VAR: &str = "NVTX_INJECTION64_PATH";

/// Whether a profiler's injection library is named (see the module's doc); read once.
static ATTACHED: LazyLock<bool> =
    LazyLock::new(|| cfg!(feature = "cuda") && std::env::var_os(INJECTION_VAR).is_some_and(|p| !p.is_empty()));

/// Whether ranges are pushed: a profiler is attached (or a test of this thread says so).
#[inline]
pub fn attached() -> bool {
    #[cfg(test)]
    if testing::FORCED.with(std::cell::Cell::get) {
        return true;
    }
    *ATTACHED
}

/// The name of the range of a launch of `region`: `acc region NAME (FILE:LINE)`.
pub fn launch_name(region: &RegionInfo) -> String {
    format!("acc region {}", region.site())
}

/// The name of the range of a transfer of `bytes` bytes of the data `name` for the construct
/// `region`: `acc upload a (FILE:LINE) 4.0 MiB` (to the device) or `acc download ...`; for
/// the runtime's own constructs that have no line (`acc::DeviceSlice`; a `Mirror` has its `new`'s), their
/// name instead of `FILE:LINE`.
pub fn transfer_name(region: &RegionInfo, name: &str, dir: Direction, bytes: u64) -> String {
    let verb = match dir {
        Direction::HostToDevice => "upload",
        Direction::DeviceToHost => "download",
    };
    let bytes = human_bytes(bytes);
    if region.line == 0 {
        format!("acc {verb} {name} ({}) {bytes}", region.name)
    } else {
        format!("acc {verb} {name} ({}:{}) {bytes}", region.file, region.line)
    }
}

/// An NVTX range of the calling thread, pushed when made (where a profiler is attached) and
/// popped when dropped, unwinding included. It stays on its thread (NVTX's push and pop are the
/// thread's), so it is not `Send`:
///
/// ```compile_fail
/// fn on_another_thread<T: Send>(_: T) {}
/// on_another_thread(acc_runtime::profile::nvtx::Range::named(|| "step".to_string()));
/// ```
#[must_use = "the range ends when this is dropped"]
#[derive(Debug)]
pub struct Range {
    pushed: bool,
    _thread: PhantomData<*const ()>,
}

impl Range {
    /// The range of a launch of `region` (see [`launch_name`]).
    #[inline]
    pub fn launch(region: &RegionInfo) -> Range {
        Range::named(|| launch_name(region))
    }

    /// The range of a transfer (see [`transfer_name`]).
    #[inline]
    pub fn transfer(region: &RegionInfo, name: &str, dir: Direction, bytes: u64) -> Range {
        Range::named(|| transfer_name(region, name, dir, bytes))
    }

    /// A range named `name()`, made only where a profiler is attached.
    #[inline]
    pub fn named(name: impl FnOnce() -> String) -> Range {
        if !attached() {
            return Range { pushed: false, _thread: PhantomData };
        }
        // Names are identifiers, paths and numbers: no NUL inside (else the range is unnamed).
        push(&name().replace('\0', ""));
        Range { pushed: true, _thread: PhantomData }
    }
}

impl Drop for Range {
    #[inline]
    fn drop(&mut self) {
        if self.pushed {
            pop();
        }
    }
}

/// Pushes a range named `name` on the calling thread's NVTX stack; NVTX's answer (the range's
/// depth from a profiler, `NVTX_NO_PUSH_POP_TRACKING` (-2) from its no-op).
fn push(name: &str) -> i32 {
    #[cfg(feature = "cuda")]
    let depth = ::nvtx::range_push!("{name}");
    #[cfg(not(feature = "cuda"))]
    let depth = {
        let _ = name;
        NO_TRACKING
    };
    #[cfg(test)]
    testing::log(format!("push {name} -> {depth}"));
    depth
}

/// Pops the calling thread's innermost NVTX range.
fn pop() {
    #[cfg(feature = "cuda")]
    let depth = ::nvtx::range_pop!();
    #[cfg(not(feature = "cuda"))]
    let depth = NO_TRACKING;
    #[cfg(test)]
    testing::log(format!("pop -> {depth}"));
    let _ = depth;
}

/// What NVTX's push and pop return with no profiler (`NVTX_NO_PUSH_POP_TRACKING`).
pub const NO_TRACKING: i32 = -2;

/// Test hooks: ranges pushed on a thread whatever the environment, and a log of its pushes and
/// pops.
#[cfg(test)]
pub(crate) mod testing {
    use std::cell::{Cell, RefCell};

    thread_local! {
        pub(super) static FORCED: Cell<bool> = const { Cell::new(false) };
        static LOG: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn log(line: String) {
        LOG.with(|l| l.borrow_mut().push(line));
    }

    /// Runs `f` with ranges pushed on this thread; returns what it returns and the pushes and
    /// pops it made (`push NAME -> DEPTH`, `pop -> DEPTH`).
    pub(crate) fn recorded<T>(f: impl FnOnce() -> T) -> (T, Vec<String>) {
        struct Reset;
        impl Drop for Reset {
            fn drop(&mut self) {
                FORCED.with(|c| c.set(false));
            }
        }
        LOG.with(|l| l.borrow_mut().clear());
        FORCED.with(|c| c.set(true));
        let reset = Reset;
        let out = f();
        drop(reset);
        (out, LOG.with(|l| l.take()))
    }

    /// The pushes and pops made so far on this thread (for a test whose `f` unwound).
    pub(crate) fn taken() -> Vec<String> {
        LOG.with(|l| l.take())
    }
}

#[cfg(test)]
mod tests {
    use super::testing::recorded;
    use super::*;

    static JACOBI: RegionInfo = RegionInfo {
        name: "jacobi_step",
        kind: "parallel",
        file: "examples/03-jacobi.rs",
        line: 42,
        kernel: "",
    };

    #[test]
    fn ranges_are_named_by_region_data_and_bytes() {
        assert_eq!(launch_name(&JACOBI), "acc region jacobi_step (examples/03-jacobi.rs:42)");
        assert_eq!(
            transfer_name(&JACOBI, "a", Direction::HostToDevice, 4 << 20),
            "acc upload a (examples/03-jacobi.rs:42) 4.0 MiB"
        );
        assert_eq!(
            transfer_name(&JACOBI, "self.u", Direction::DeviceToHost, 24),
            "acc download self.u (examples/03-jacobi.rs:42) 24 B"
        );
        assert_eq!(
            transfer_name(&crate::region_info::MIRROR, "Mirror", Direction::HostToDevice, 3 << 30),
            "acc upload Mirror (acc::Mirror) 3.0 GiB"
        );
    }

    #[test]
    fn no_range_without_a_profiler() {
        // The test process runs without an injection library.
        assert!(std::env::var_os(INJECTION_VAR).is_none_or(|p| p.is_empty()), "run the tests without {INJECTION_VAR}");
        assert!(!attached());
        let named = std::cell::Cell::new(false);
        let r = Range::named(|| {
            named.set(true);
            "x".into()
        });
        assert!(!r.pushed && !named.get(), "a range without a profiler is pushed or named");
    }

    #[test]
    fn nested_ranges_pop_in_balance() {
        let ((), log) = recorded(|| {
            let _launch = Range::launch(&JACOBI);
            let _up = Range::transfer(&JACOBI, "a", Direction::HostToDevice, 1536);
        });
        // NVTX itself is called (with the `cuda` feature): its no-op answers -2.
        assert_eq!(
            log,
            [
                "push acc region jacobi_step (examples/03-jacobi.rs:42) -> -2",
                "push acc upload a (examples/03-jacobi.rs:42) 1.5 KiB -> -2",
                "pop -> -2",
                "pop -> -2",
            ]
        );
        assert!(!attached(), "the thread's test hook is reset");
    }
}
