//! Static descriptions of the regions in a program.
//!
//! The code generator emits one `static` [`RegionInfo`] per compute or data construct; the
//! runtime uses it to name the construct in panics, `ACC_NOTIFY` lines and the `ACC_PROFILE`
//! table, and to find the region's kernel. The async queue numbers live here too: the special
//! ones ([`ASYNC_NOVAL`], [`ASYNC_SYNC`]) and the calling thread's default queue
//! ([`default_async`]), which a region's bare `async` reads ([`RegionInfo::queue`]).

use core::fmt;

/// Async queue number meaning "the default async queue" (OpenACC's `acc_async_noval`).
pub const ASYNC_NOVAL: i64 = -1;
/// Async queue number meaning "synchronous" (OpenACC's `acc_async_sync`).
pub const ASYNC_SYNC: i64 = -2;

thread_local! {
    /// The queue `async` without a queue uses on this thread ([`set_default_async`]).
    static DEFAULT_ASYNC: core::cell::Cell<i64> = const { core::cell::Cell::new(ASYNC_NOVAL) };
}

/// The async queue that `async` without a queue (and `async(-1)`, OpenACC's `acc_async_noval`)
/// uses on the calling thread (OpenACC's `acc_get_default_async`): -1, a queue of its own,
/// until [`set_default_async`] names another.
///
/// ```
/// assert_eq!(acc_runtime::default_async(), acc_runtime::ASYNC_NOVAL);
/// acc_runtime::set_default_async(3);
/// assert_eq!(acc_runtime::default_async(), 3);
/// acc_runtime::set_default_async(acc_runtime::ASYNC_NOVAL); // back to the initial queue
/// assert_eq!(acc_runtime::default_async(), -1);
/// ```
pub fn default_async() -> i64 {
    DEFAULT_ASYNC.with(core::cell::Cell::get)
}

/// Makes queue `q` the one that `async` without a queue uses on the calling thread (OpenACC's
/// `acc_set_default_async`, and the `set default_async(q)` directive): the regions and
/// `update!`s with a bare `async` (or `async(-1)`) queue their work on `q` from then on, and
/// [`wait`](crate::wait)`(-1)`, [`async_test`](crate::async_test)`(-1)` and
/// [`cuda_stream`](crate::cuda_stream)`(-1)` mean `q`. `q` -1
/// ([`ASYNC_NOVAL`]) gives back the initial default queue; -2 ([`ASYNC_SYNC`]) makes a bare
/// `async` synchronous. The choice is the thread's own, as
/// [`set_device`](crate::set_device)'s is; other threads
/// keep theirs. Panics for a `q` below -2.
pub fn set_default_async(q: i64) {
    if q < ASYNC_SYNC {
        panic!("acc::set_default_async: `{q}` is not an async queue (queues are numbers >= 0, or -1 for the default queue)");
    }
    DEFAULT_ASYNC.with(|d| d.set(q));
}

/// `q` with -1 ([`ASYNC_NOVAL`]) read as the calling thread's [`default_async`] queue.
pub(crate) fn resolve_queue(q: i64) -> i64 {
    if q == ASYNC_NOVAL {
        default_async()
    } else {
        q
    }
}

/// What the runtime knows about one construct of the source program.
///
/// Generated code holds these in `static` items:
///
/// ```
/// use acc_runtime::private::RegionInfo;
/// static VADD: RegionInfo = RegionInfo {
///     name: "vadd",
///     kind: "parallel",
///     file: "examples/01-vadd.rs",
///     line: 9,
///     kernel: "",
/// };
/// assert_eq!(VADD.to_string(), "region `vadd` (examples/01-vadd.rs:9)");
/// ```
#[derive(Debug)]
pub struct RegionInfo {
    /// The region's name: the annotated `fn`'s name, or a name made up for a directive macro.
    pub name: &'static str,
    /// One of `"parallel"`, `"kernels"`, `"serial"`, `"data"`, `"enter_data"`, `"exit_data"`,
    /// `"update"`.
    pub kind: &'static str,
    /// Source file of the construct, as `file!()` gives it.
    pub file: &'static str,
    /// Line of the construct in [`file`](Self::file).
    pub line: u32,
    /// Entry point of the region's kernel in the PTX module; `""` when there is none.
    pub kernel: &'static str,
}

impl RegionInfo {
    /// `name (file:line)`: how `ACC_NOTIFY` lines and the profile table name the region.
    pub fn site(&self) -> Site<'_> {
        Site(self)
    }

    /// The async queue of this region's `async(q)` clause, evaluated at the call (`async`
    /// alone is `q = -1`, OpenACC's `acc_async_noval`, which means the calling thread's
    /// [`default_async`] queue): `Some(q)`, or `None` for `q = -2`
    /// (`acc_async_sync`: synchronous). Panics naming the region for any other negative `q`.
    ///
    /// ```
    /// use acc_runtime::private::RegionInfo;
    /// static R: RegionInfo = RegionInfo { name: "r", kind: "parallel", file: "r.rs", line: 1, kernel: "" };
    /// assert_eq!((R.queue(3), R.queue(-1), R.queue(-2)), (Some(3), Some(-1), None));
    /// ```
    pub fn queue(&self, q: i64) -> Option<i64> {
        match resolve_queue(q) {
            ASYNC_SYNC => None,
            q if q >= ASYNC_NOVAL => Some(q),
            q => panic!(
                "acc: {self}: `async({q})`: async queues are numbers >= 0, or -1 for the default queue (-2: synchronous)"
            ),
        }
    }
}

/// Formats `region `name` (file:line)`, the prefix of every runtime panic about a region.
impl fmt::Display for RegionInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "region `{}` ({}:{})", self.name, self.file, self.line)
    }
}

/// Display helper returned by [`RegionInfo::site`]: `name (file:line)`.
#[derive(Clone, Copy, Debug)]
pub struct Site<'a>(&'a RegionInfo);

impl fmt::Display for Site<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}:{})", self.0.name, self.0.file, self.0.line)
    }
}

/// The region that [`crate::Mirror`] reports its data movements under.
pub(crate) static MIRROR: RegionInfo = RegionInfo {
    name: "acc::Mirror",
    kind: "enter_data",
    file: "<acc runtime>",
    line: 0,
    kernel: "",
};

/// `base` (one of the runtime's own constructs, such as [`MIRROR`]) at the source place `at`
/// (the user's call, from `#[track_caller]`), so that its panics, `ACC_NOTIFY` lines and
/// profiles name the user's line. One `RegionInfo` per construct and place, made at the
/// place's first call and kept for the program's life, as the code generator's statics are.
pub(crate) fn at_caller(base: &'static RegionInfo, at: &'static std::panic::Location<'static>) -> &'static RegionInfo {
    type Key = (&'static str, &'static str, u32, u32);
    static SITES: std::sync::LazyLock<std::sync::Mutex<std::collections::HashMap<Key, &'static RegionInfo>>> =
        std::sync::LazyLock::new(Default::default);
    let mut sites = SITES.lock().unwrap_or_else(|e| e.into_inner());
    sites.entry((base.name, at.file(), at.line(), at.column())).or_insert_with(|| {
        Box::leak(Box::new(RegionInfo { name: base.name, kind: base.kind, file: at.file(), line: at.line(), kernel: base.kernel }))
    })
}

/// The region that [`crate::DeviceSlice`] reports its data movements under.
pub(crate) static DEVICE_SLICE: RegionInfo = RegionInfo {
    name: "acc::DeviceSlice",
    kind: "update",
    file: "<acc runtime>",
    line: 0,
    kernel: "",
};

#[cfg(test)]
mod tests {
    use super::*;

    static R: RegionInfo = RegionInfo {
        name: "vadd",
        kind: "parallel",
        file: "examples/01-vadd.rs",
        line: 9,
        kernel: "vadd_kernel",
    };

    #[test]
    fn async_queue_numbers() {
        assert_eq!((R.queue(0), R.queue(7), R.queue(-1), R.queue(-2)), (Some(0), Some(7), Some(-1), None));
        let e = std::panic::catch_unwind(|| R.queue(-3)).expect_err("queue -3 is refused");
        let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.contains("region `vadd`") && msg.contains("async(-3)"), "{msg}");
    }

    /// A bare `async` (`q = -1`) is the calling thread's default queue: queue `q` after
    /// `set_default_async(q)`, synchronous after `set_default_async(-2)`, -1 again after
    /// `set_default_async(-1)`; other threads keep theirs.
    #[test]
    fn bare_async_is_the_default_queue() {
        crate::set_default_async(4);
        assert_eq!((R.queue(-1), R.queue(3), R.queue(-2)), (Some(4), Some(3), None));
        std::thread::spawn(|| assert_eq!(R.queue(-1), Some(-1), "another thread keeps its default")).join().unwrap();
        crate::set_default_async(ASYNC_SYNC);
        assert_eq!(R.queue(-1), None);
        crate::set_default_async(ASYNC_NOVAL);
        assert_eq!((R.queue(-1), crate::default_async()), (Some(-1), -1));
        let e = std::panic::catch_unwind(|| crate::set_default_async(-3)).expect_err("queue -3 is refused");
        let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.contains("acc::set_default_async: `-3` is not an async queue"), "{msg}");
        assert_eq!(crate::default_async(), -1, "a refused queue changes nothing");
    }

    #[test]
    fn display_names_region_and_location() {
        assert_eq!(R.to_string(), "region `vadd` (examples/01-vadd.rs:9)");
        assert_eq!(R.site().to_string(), "vadd (examples/01-vadd.rs:9)");
        assert!(format!("{R:?}").contains("vadd_kernel"));
    }
}
