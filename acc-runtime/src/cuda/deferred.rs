//! Synchronous launches waited for one launch later (`ACC_EXP_LAZYSYNC=1`, an experiment
//! switch; off by default).
//!
//! A synchronous launch waits for its kernel before it returns (`launch.rs`, `done.rs`), so
//! the GPU idles while the host makes the next launch, and the host while the GPU runs. With
//! the switch on, a synchronous launch with nothing to copy back behind it queues its kernel
//! and the mark of its end, waits for the synchronous launch before it (which then has the
//! new kernel queued behind it), and returns, leaving its own wait pending. Every other use
//! of the backend ([`CudaBackend::enter`]: copies, frees, async queues, waits) and every fold
//! of reduction partials waits for the pending launch first, so the host reads nothing the
//! kernel writes before the kernel has completed.
//!
//! What differs: a kernel panic (or failure) of a region whose results stay on the device is
//! reported by the next call that uses the device (the next region's launch, a copy, a
//! wait) as [`CudaError::Pending`], naming that region, its kernel and the panic's location;
//! at the process's exit a launch still pending is waited for and its failure printed, and
//! the process then exits with status 101, as a panic's would
//! (`devices::settle_at_exit`).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::error::CudaError;
use super::{lock, CudaBackend};
use crate::region_info::RegionInfo;

/// The synchronous launch whose wait was left to the next use of the backend.
pub(crate) struct Pending {
    /// The mark queued behind its kernel ([`Done::mark`](super::done::Done::mark)).
    pub(crate) seq: u32,
    /// The copies ahead of launches queued before it (landed once it has completed).
    pub(crate) ahead: u64,
    /// Its kernel's name, and its region.
    pub(crate) kernel: Arc<str>,
    pub(crate) region: Option<&'static RegionInfo>,
}

impl CudaBackend {
    /// Whether a synchronous launch may leave its wait pending: the switch is on, the stream
    /// marks the end of its work in host memory, and no copy back waits behind launches
    /// (`launch.rs`'s `launch_inner`, which then asks the stream for the mark).
    pub(crate) fn may_leave_pending(&self) -> bool {
        self.lazy_on && self.sync_done.works() && self.behind_count.load(Ordering::Acquire) == 0
    }

    /// Waits for the synchronous launch left pending, if any: its failure, or its kernel's
    /// panic, is this call's error.
    pub(crate) fn settle_sync(&self) -> Result<(), CudaError> {
        if !self.has_pending.load(Ordering::Acquire) {
            return Ok(());
        }
        let _sync = lock(&self.sync_launch);
        self.settle_held()
    }

    /// [`settle_sync`](Self::settle_sync) by the holder of the synchronous stream.
    pub(crate) fn settle_held(&self) -> Result<(), CudaError> {
        let Some(p) = lock(&self.pending).take() else { return Ok(()) };
        self.has_pending.store(false, Ordering::Release);
        let stream = self.sync_stream.raw();
        // SAFETY: the backend's synchronous stream, held by the caller.
        let waited = match unsafe { self.sync_done.wait_for(stream, p.seq) } {
            Err(f) => Err(self.sync_error(f, &self.sync_panic, Some(p.kernel.to_string()), format!("running `{}`", p.kernel))),
            Ok(()) => {
                self.ahead_copies_landed(p.ahead);
                self.take_panic(&self.sync_panic, stream, Some(&p.kernel))
            }
        };
        waited.map_err(|e| CudaError::Pending { region: p.region.map(|r| r.to_string()), error: Box::new(e) })
    }

    /// Whether synchronous launches may leave their waits pending (`ACC_EXP_LAZYSYNC=1`).
    pub fn leaves_waits_pending(&self) -> bool {
        self.lazy_on
    }

    /// Leaves the wait for the synchronous launch of `kernel` (of `region`), whose end `seq`
    /// marks, to the next use of the backend (the synchronous stream is held, and nothing is
    /// pending).
    pub(crate) fn leave_pending(&self, seq: u32, ahead: u64, kernel: &str, region: Option<&'static RegionInfo>) {
        *lock(&self.pending) = Some(Pending { seq, ahead, kernel: kernel.into(), region });
        self.has_pending.store(true, Ordering::Release);
    }
}
