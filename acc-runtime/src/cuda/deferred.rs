//! Synchronous launches whose wait is left to the next use of the device.
//!
//! A region without `async` is synchronous: the host goes on once it has completed. Where
//! nothing of the region comes back to the host (its arrays are present, its results stay on
//! the device, no reduction is read, no copy waits behind its kernel), the host cannot tell
//! whether the kernel has completed, so the launch returns once its kernel is queued and the
//! wait is left to the next call that could tell: a copy to or from the host, a free, a fold
//! of reduction partials, a launch or a copy on an async queue, a wait, the process's exit.
//! The GPU then runs a time step's launches back to back, as a CUDA program's do, instead of
//! idling while the host makes each next launch. `ACC_LAUNCH_BLOCKING=1` waits for every
//! synchronous launch at once (as `CUDA_LAUNCH_BLOCKING=1` does for CUDA's own launches),
//! and so does `ACC_PROFILE=1`, whose table times each launch to its end.
//!
//! The launches not waited for are a [`Window`] of one host thread's launches on the
//! synchronous stream. Each gets a tag, 1 to [`MAX_LAUNCHES`], passed to its kernel in the low
//! bits of its panic slot's address (`acc_device::panic::enter`): the panicking thread writes
//! it into the record, so that the wait names the region and kernel that panicked. Only the
//! first panic of a window is recorded; the thread whose launches those are stops at it, as
//! it would have at that region. A window holds one thread's launches: a launch of another
//! thread, or any other use of the device by one, first waits for the window, and a failure
//! in it waits, parked, for its own thread's next use of the device (at the latest when the
//! thread ends, see `devices::settle_thread`, or at the process's exit).
//!
//! What differs from a wait at each launch: a kernel panic (or failure) of a region whose
//! results stay on the device is reported by the next call that waits, as
//! [`CudaError::Pending`] naming that region, its kernel and the panic's location, and the
//! regions launched after it meanwhile have run. Copies back to the host are made all the
//! same (the data API's downloads wait first and copy even when the wait reports a panic,
//! `data::transfer`).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::ThreadId;

use acc_device::panic::{PanicRecord, LAUNCH_TAG_BITS};

use super::error::CudaError;
use super::{lock, CudaBackend};
use crate::region_info::RegionInfo;

/// The most launches a window holds: their tags are 1 to this (0 is an untagged launch).
pub(crate) const MAX_LAUNCHES: usize = (1 << LAUNCH_TAG_BITS) - 1;

/// The synchronous launches of one host thread not yet waited for.
#[derive(Default)]
pub(crate) struct Window {
    /// The thread whose launches these are (`None` while there are none).
    owner: Option<ThreadId>,
    /// The launches, launch `t` (tag `t`) at `t - 1`.
    launches: Vec<Launched>,
    /// The copies ahead of launches queued before the newest launch (landed once it has
    /// completed).
    ahead: u64,
}

/// A launch of a [`Window`]: its kernel's name, and its region.
struct Launched {
    kernel: Arc<str>,
    region: Option<&'static RegionInfo>,
}

impl Window {
    /// The kernel and region of the launch a panic `record` names by its tag.
    fn panicked(&self, record: &PanicRecord) -> Option<&Launched> {
        (record.launch as usize).checked_sub(1).and_then(|i| self.launches.get(i))
    }

    /// How a failure that no record places names the launches: the kernel, where there is one
    /// launch, and what the wait was doing.
    fn failed_running(&self) -> (Option<String>, String) {
        if let [one] = self.launches.as_slice() {
            return (Some(one.kernel.to_string()), format!("running `{}`", one.kernel));
        }
        let mut names: Vec<&str> = Vec::new();
        for l in &self.launches {
            if !names.contains(&&*l.kernel) {
                names.push(&l.kernel);
            }
        }
        (None, format!("running the {} launches not yet waited for (`{}`)", self.launches.len(), names.join("`, `")))
    }
}

/// Clears the flag of launches not yet waited for when dropped: at the end of a wait, on
/// every path out of it.
struct Cleared<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for Cleared<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl CudaBackend {
    /// Whether synchronous launches may return before their kernels end (not with
    /// `ACC_LAUNCH_BLOCKING=1`).
    pub fn defers_waits(&self) -> bool {
        self.defer_on
    }

    /// Whether the region launch just made may return before its kernel ends: waits are
    /// deferred, not timed (`ACC_PROFILE`, a timed launch), the stream marks the end of its
    /// work in host memory, and no copy back waits behind it.
    pub(crate) fn may_defer(&self, timed: bool) -> bool {
        self.defer_on
            && !timed
            && !crate::profile::recording()
            && self.sync_done.works()
            && self.behind_count.load(Ordering::Acquire) == 0
    }

    /// The tag of `me`'s next synchronous launch (the caller holds the synchronous stream):
    /// the window is waited for first where it is another thread's or full.
    pub(crate) fn next_tag(&self, me: ThreadId) -> Result<u32, CudaError> {
        let mut w = lock(&self.window);
        if w.owner.is_some_and(|o| o != me) || w.launches.len() >= MAX_LAUNCHES {
            drop(w);
            crate::gpu::hosttime::window_wait(|| self.settle_held(me, false))?;
            w = lock(&self.window);
        }
        Ok(w.launches.len() as u32 + 1)
    }

    /// Adds `me`'s launch of `kernel` (of `region`), tagged with [`next_tag`](Self::next_tag), to the window.
    pub(crate) fn add_launch(&self, me: ThreadId, kernel: Arc<str>, region: Option<&'static RegionInfo>) {
        let mut w = lock(&self.window);
        w.owner = Some(me);
        w.launches.push(Launched { kernel, region });
        w.ahead = self.ahead_copies_queued();
        self.has_pending.store(true, Ordering::Release);
    }

    /// Waits for the synchronous launches not yet waited for, if any, and returns this
    /// thread's failure among them, or parked by another thread's wait.
    pub(crate) fn settle_sync(&self) -> Result<(), CudaError> {
        // (Every call of the backend comes here: nothing else without a launch or a failure
        // to wait for.)
        if !self.has_pending.load(Ordering::Acquire) && self.parked_count.load(Ordering::Acquire) == 0 {
            return Ok(());
        }
        let me = std::thread::current().id();
        if self.has_pending.load(Ordering::Acquire) {
            let _sync = lock(&self.sync_launch);
            self.settle_held(me, false)?;
        }
        self.take_parked(me)
    }

    /// [`settle_sync`](Self::settle_sync) by `me`, the holder of the synchronous stream,
    /// without the parked failures. With `current`, the window's newest launch is `me`'s own
    /// launch, waited for now: its failure is its own, not a [`CudaError::Pending`] one. A
    /// failure in another thread's window is parked for that thread, and this call succeeds.
    pub(crate) fn settle_held(&self, me: ThreadId, current: bool) -> Result<(), CudaError> {
        let w = std::mem::take(&mut *lock(&self.window));
        if w.launches.is_empty() {
            return Ok(());
        }
        // Cleared once the wait is over, not before: a thread that finds it set takes the
        // stream's lock, and so waits for this wait, before it reads what its launches wrote.
        let _cleared = Cleared(&self.has_pending);
        let stream = self.sync_stream.raw();
        // SAFETY: the backend's synchronous stream, held by the caller.
        let waited = match unsafe { self.sync_done.wait(stream) } {
            Err(f) => {
                // (A fault after a recorded panic: the error is the panic, of the launch its
                // record names, which a poisoned context keeps too.)
                let (kernel, doing) = match self.sync_panic.record() {
                    Some(r) => {
                        let kernel = w.panicked(&r).map(|l| l.kernel.to_string());
                        let doing = format!("running `{}`", kernel.as_deref().unwrap_or("?"));
                        (kernel, doing)
                    }
                    None => w.failed_running(),
                };
                Err(self.sync_error(f, &self.sync_panic, kernel, doing))
            }
            Ok(()) => {
                self.ahead_copies_landed(w.ahead);
                self.take_panic(&self.sync_panic, stream, None)
            }
        };
        let Err(e) = waited else { return Ok(()) };
        // Name the launch the record names (its kernel, and, for an earlier launch, its
        // region, which is not the region of the call that reports it).
        let newest = w.launches.len() as u32;
        let (tag, launched, e) = match e {
            CudaError::KernelPanic { record, .. } => {
                let launched = w.panicked(&record);
                (record.launch, launched, CudaError::KernelPanic { kernel: launched.map(|l| l.kernel.to_string()), record })
            }
            e => (0, None, e),
        };
        let e = if current && (tag == newest || tag == 0 && newest == 1) {
            e
        } else {
            CudaError::Pending { region: launched.and_then(|l| l.region).map(|r| r.to_string()), error: Box::new(e) }
        };
        match w.owner {
            Some(owner) if owner != me => {
                lock(&self.parked).push((owner, e));
                self.parked_count.fetch_add(1, Ordering::AcqRel);
                Ok(())
            }
            _ => Err(e),
        }
    }

    /// The failure another thread's wait found among `me`'s launches, if any.
    pub(crate) fn take_parked(&self, me: ThreadId) -> Result<(), CudaError> {
        if self.parked_count.load(Ordering::Acquire) == 0 {
            return Ok(());
        }
        let mut parked = lock(&self.parked);
        let Some(i) = parked.iter().position(|(t, _)| *t == me) else { return Ok(()) };
        let (_, e) = parked.remove(i);
        self.parked_count.fetch_sub(1, Ordering::AcqRel);
        Err(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(kernels: &[&str]) -> Window {
        Window { owner: None, launches: kernels.iter().map(|k| Launched { kernel: (*k).into(), region: None }).collect(), ahead: 0 }
    }

    #[test]
    fn a_record_names_the_launch_of_its_tag() {
        let w = window(&["k_a", "k_b", "k_a"]);
        let mut r = PanicRecord::ZERO;
        r.launch = 2;
        assert_eq!(w.panicked(&r).map(|l| &*l.kernel), Some("k_b"));
        r.launch = 3;
        assert_eq!(w.panicked(&r).map(|l| &*l.kernel), Some("k_a"));
        // An untagged launch (0), or a tag past the window: no launch.
        for t in [0, 4] {
            r.launch = t;
            assert!(w.panicked(&r).is_none());
        }
    }

    #[test]
    fn a_failure_no_record_places_names_each_kernel_once() {
        assert_eq!(window(&["k_a"]).failed_running(), (Some("k_a".to_owned()), "running `k_a`".to_owned()));
        assert_eq!(window(&["k_a", "k_b", "k_a"]).failed_running(), (None, "running the 3 launches not yet waited for (`k_a`, `k_b`)".to_owned()));
    }
}
