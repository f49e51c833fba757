//! What generated code calls, through `::acc::__private::*`. Not a stable API.
//!
//! The contracts here are the code generator's to keep: views passed to [`DataScope`] and
//! the `*_data`/`update_*` functions describe live data that stays borrowed while in use,
//! and a [`SharedMut`] is only shared between iterations that write distinct elements.
//!
//! Besides the re-exports from the layers below: [`HostRun`] (a region run on the host while the
//! program runs on a GPU) and [`ClauseInt`] (a clause's count or queue of any integer type,
//! converted as `as` would, without a cast in the user's crate).

pub use crate::atomic::{AtomicArith, AtomicBits, AtomicRef, AtomicValue};
pub use crate::data::{
    declare, declare_mut, Declarable, DeclarableMut, enter_data, enter_data_with, exit_data, exit_data_with, present_counts, section, section_mut, update_device, update_device_on, update_host, update_host_on, device_address, view,
    view_mut, Clause, DataScope, EnterClause, ExitClause, HostData, HostView, Modifiers,
};
pub use crate::data::{DeviceSlice, Mirror};
pub use crate::devices::{wait_before, DevPtr, DeviceType};
pub use crate::host::{par_for, par_for_chunks, par_reduce, par_reduce_chunks, SharedMut};
pub use crate::idx::{index, nest_trip, trip, trip_inclusive, trip_inclusive_stepped, trip_step, trip_stepped, LoopIndex};
pub use crate::profile;
pub use acc_device::Captures;
pub use acc_device::{tile_pitch, TileReads};
pub use acc_device::{red_elems, RedVar};
#[cfg(feature = "cuda")]
pub use crate::cuda::KernelArgs;
#[cfg(feature = "cuda")]
pub use crate::cells::{CapturedValues, Cells, PrivateCopies};
#[cfg(feature = "cuda")]
pub use crate::gpu::{elem_bytes, elem_size, gpu_ready, launch, value_slots, Dims, Geometry, LeanKernel, Partials, Shape};
pub use crate::reduce::{self, *};
pub use crate::region_info::RegionInfo;
pub use crate::device_copy::DeviceCopy;

/// The integer types of a clause's count (`num_gangs(n)`, `num_workers(n)`,
/// `vector_length(n)`, a loop's `gang(n)`, `worker(n)`, `vector(n)`) and of an async queue
/// (`async(q)`, `wait(q)`): every primitive integer, converted as `as` converts it (a
/// negative count wraps to a huge one, which the launch clamps; a queue below -2 panics at
/// [`RegionInfo::queue`]). Generated code converts through [`clause_usize`] and [`queue_i64`],
/// not with `as`: a cast to the type the value has already is a clippy warning on the
/// user's token, and `as` would take a float or a `char` too.
#[diagnostic::on_unimplemented(
    message = "a clause's count or queue must be an integer, not `{Self}`",
    label = "not an integer",
    note = "the counts `num_gangs`, `num_workers`, `vector_length`, `gang(n)`, `worker(n)`, `vector(n)` and the queues of `async(q)`, `wait(q)` take primitive integers (`i8`..`i128`, `u8`..`u128`, `isize`, `usize`)"
)]
pub trait ClauseInt: Copy {
    /// The value as a count: `self as usize`.
    fn clause_usize(self) -> usize;
    /// The value as an async queue: `self as i64`.
    fn queue_i64(self) -> i64;
}

macro_rules! clause_int {
    ($($t:ty),*) => {$(
        impl ClauseInt for $t {
            #[inline]
            fn clause_usize(self) -> usize {
                self as usize
            }
            #[inline]
            fn queue_i64(self) -> i64 {
                self as i64
            }
        }
    )*};
}
clause_int!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

/// A count clause's value (see [`ClauseInt`]).
#[inline]
pub fn clause_usize<T: ClauseInt>(n: T) -> usize {
    n.clause_usize()
}

/// A name of an index expression that acc-codegen bounds at the launch (`lower::bounds`),
/// by reference: `(&IndexLeaf(&name)).leaf()`, with [`UsizeLeaf`] and [`OtherLeaf`] in scope,
/// is `Some` of a `usize` (or of a reference to one) and `None` for a name of any other type
/// (an `f64` constant passed to a routine, a struct), whose interval is then unknown.
pub struct IndexLeaf<T>(pub T);

/// [`IndexLeaf`] of a `usize`: its value.
pub trait UsizeLeaf {
    /// The value.
    fn leaf(&self) -> Option<usize>;
}

impl UsizeLeaf for IndexLeaf<&usize> {
    #[inline]
    fn leaf(&self) -> Option<usize> {
        Some(*self.0)
    }
}

impl UsizeLeaf for IndexLeaf<&&usize> {
    #[inline]
    fn leaf(&self) -> Option<usize> {
        Some(**self.0)
    }
}

/// [`IndexLeaf`] of anything else: no value (picked by method resolution only where
/// [`UsizeLeaf`] has no impl, one reference further).
pub trait OtherLeaf {
    /// None.
    fn leaf(&self) -> Option<usize>;
}

impl<T> OtherLeaf for &IndexLeaf<T> {
    #[inline]
    fn leaf(&self) -> Option<usize> {
        None
    }
}

/// An async queue's number (see [`ClauseInt`]).
#[inline]
pub fn queue_i64<T: ClauseInt>(q: T) -> i64 {
    q.queue_i64()
}

/// Whether `region` runs on the GPU: the current device is an NVIDIA one and the region's
/// `if` clause (`true` without one) holds.
#[inline]
pub fn use_device(region: &'static RegionInfo, if_cond: bool) -> bool {
    let _ = region;
    if_cond && crate::devices::device_type() == DeviceType::Nvidia
}

/// Notes that `region` runs on the host now (`ACC_NOTIFY`, `ACC_PROFILE`); keep the returned
/// timer alive for the duration of the run.
#[inline]
pub fn run_on_host(region: &'static RegionInfo) -> profile::LaunchTimer {
    run_on_host_queued(region, None)
}

/// [`run_on_host`] for a region with `async(q)` (`queue` is `Some(q)`): the profile's trace
/// puts the run on queue `q`'s track (the host runs it before the call returns).
#[inline]
pub fn run_on_host_queued(region: &'static RegionInfo, queue: Option<i64>) -> profile::LaunchTimer {
    profile::launch_begin_on(region, profile::Track::host(queue))
}

/// The profiling interface's start and end events of an unstructured data directive
/// (`enter_data!`, `exit_data!`, `update!`): the start when made, the end when dropped, with
/// the directive's data events between them.
#[must_use = "the directive's end event fires when this is dropped"]
#[derive(Debug)]
pub struct DirectiveEvents {
    _span: crate::prof::Span<'static>,
}

impl DirectiveEvents {
    /// The start event of `region`'s directive (its kind says which: `enter_data_start`,
    /// `exit_data_start`, `update_start`) on `queue` (`Some(q)` for `async(q)`).
    #[inline]
    pub fn start(region: &'static RegionInfo, queue: Option<i64>) -> Self {
        use crate::prof::{Event, Info, Span};
        let start = match region.kind {
            "enter_data" => Event::EnterDataStart,
            "exit_data" => Event::ExitDataStart,
            _ => Event::UpdateStart,
        };
        let _span = Span::start(start, |e| {
            let d = crate::devices::current().map_or((DeviceType::Host, 0), |d| (d.device_type(), d.num()));
            Info::of(e, region, d, queue)
        });
        DirectiveEvents { _span }
    }
}

/// The arrays of a region that runs on the host while the program runs on a GPU (`self`,
/// `if(false)`): those present on the device are copied to the host before the region
/// ([`HostRun::read`], [`HostRun::write`]), and those it may write back to the device when it
/// ends, unwinding included (DESIGN §4.7: the device's copy stays the one that counts). On
/// the host backend (one memory) it does nothing.
pub struct HostRun {
    region: &'static RegionInfo,
    active: bool,
    written: Vec<(&'static str, HostView)>,
}

impl HostRun {
    /// Coherence for `region`'s run on the host (active unless the device is the host).
    pub fn new(region: &'static RegionInfo) -> Self {
        let active = crate::devices::device_type() != DeviceType::Host;
        HostRun { region, active, written: Vec::new() }
    }

    /// An array the region reads: the device's copy, if present, comes to the host first.
    pub fn read<T>(&mut self, name: &'static str, a: &[T]) {
        if self.active {
            update_host(self.region, name, Self::view(a), true);
        }
    }

    /// An array the region may write: as [`HostRun::read`], and back to the device after.
    pub fn write<T>(&mut self, name: &'static str, a: &[T]) {
        if self.active {
            let v = Self::view(a);
            update_host(self.region, name, v, true);
            self.written.push((name, v));
        }
    }

    /// `a`'s bytes (no bound on `T`: a slice the device cannot hold is reported once, by
    /// the region's data clauses).
    fn view<T>(a: &[T]) -> HostView {
        HostView { addr: a.as_ptr() as usize, bytes: std::mem::size_of_val(a), elem: std::any::type_name::<T>() }
    }
}

impl Drop for HostRun {
    fn drop(&mut self) {
        for (name, v) in self.written.drain(..) {
            update_device(self.region, name, v, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static R: RegionInfo = RegionInfo {
        name: "priv",
        kind: "parallel",
        file: "p.rs",
        line: 1,
        kernel: "",
    };

    #[test]
    fn clause_ints_convert_as_casts_do() {
        // What `(n) as usize` and `(q) as i64` gave, type by type, negatives and
        // out-of-range values included.
        assert_eq!((clause_usize(1024u32), clause_usize(1024i64), clause_usize(1024usize)), (1024, 1024, 1024));
        assert_eq!((clause_usize(200u8), clause_usize(-1i32), clause_usize(-1i8)), (200, usize::MAX, usize::MAX));
        assert_eq!(clause_usize(u128::MAX), u128::MAX as usize);
        assert_eq!((queue_i64(3i32), queue_i64(3u8), queue_i64(-2isize), queue_i64(-1i64)), (3, 3, -2, -1));
        assert_eq!((queue_i64(u64::MAX), queue_i64(i128::MIN)), (-1, 0));
    }

    #[test]
    fn host_runs() {
        let _g = crate::test_util::shared();
        assert!(!use_device(&R, false));
        assert_eq!(
            use_device(&R, true),
            crate::device_type() == DeviceType::Nvidia
        );
        let t = run_on_host(&R);
        drop(t);
    }

    #[test]
    fn generated_code_shape() {
        // What a `parallel` region with `copyin(a), copyout(c)` and a `reduction(+: s)` loop
        // expands to on the host, written by hand.
        let _g = crate::test_util::shared();
        let a = vec![1.5f64; 1000];
        let mut c = vec![0.0f64; 1000];
        let s;
        {
            let _timer = run_on_host(&R);
            let mut scope = DataScope::new(&R);
            scope.enter("a", view(&a), Clause::CopyIn);
            scope.enter("c", view(&c), Clause::CopyOut);
            let n = trip_step(trip(0usize, c.len()), 1);
            let cs = SharedMut::new(&mut c);
            par_for(n, |k| {
                let i = index(0usize, k, 1);
                let mut c = cs;
                c[i] = 2.0 * a[i];
            });
            let mut acc = 0.0f64;
            let r = par_reduce(
                n,
                || Add.identity(&acc),
                |s, k| Add.combine(s, a[index(0usize, k, 1)]),
                |x, y| Add.combine(x, y),
            );
            acc = Add.combine(acc, r);
            s = acc;
        }
        assert_eq!(s, 1500.0);
        assert!(c.iter().all(|&x| x == 3.0));
        assert!(!crate::is_present(&c));
    }
}
