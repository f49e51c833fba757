//! Copies back behind a launch: the small arrays a synchronous compute region copies back
//! (`copy`, `copyout` of arrays no data region holds, up to 64 KiB each) are copied to pinned
//! buffers on the launch's stream right after its kernel, before the launch waits for it; the
//! region's exit then takes them from there. The exit's own copy cost a second round trip
//! (an enqueue, the DMA, a wait) after the launch's wait: the papers' worker-vector region
//! (a 256-byte `out`) spent about 10 us of its 85 on it on an H200.
//!
//! Each download belongs to the thread whose region asked for it; every synchronous launch of
//! that thread queues it again (a `kernels` region's later nests may write the array too), so
//! the buffer holds the array as the last launch left it. A region whose call launched more
//! than once asks no more (its earlier launches' copies were wasted: a `kernels` region of ten
//! nests would copy each array ten times). Only a download queued behind a
//! launch whose wait succeeded, with no launch or upload of the thread since, is taken; any
//! other exit copies as before.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::thread::ThreadId;

use cudarc::driver::sys;

use super::alloc::PinnedHost;
use super::driver::{self, Driven};
use super::error::CudaError;
use super::memory::BOUNCE_BYTES;
use super::{lock, CudaBackend};

/// At most this many downloads wait at once (a region with more small arrays copies the rest
/// back at its end); their buffers are kept for the next ones, so that no region pays for
/// pinned memory after the first calls.
const MOST: usize = 16;

/// A download a region asked for ([`CudaBackend::download_behind`]).
struct Behind {
    /// Who asked: the region (its `RegionInfo`'s address) and its thread.
    region: usize,
    thread: ThreadId,
    dev: u64,
    bytes: usize,
    buf: PinnedHost,
    /// Queued behind this thread's last synchronous launch, whose wait succeeded: the
    /// thread's count of device writes then ([`crate::backend::thread_device_writes`]).
    landed: Option<u64>,
    /// How many launches queued it.
    queued: u32,
}

/// The downloads asked for, and buffers for the next ones.
#[derive(Default)]
pub(crate) struct Downloads {
    pending: Vec<Behind>,
    spare: Vec<PinnedHost>,
    /// How many were taken.
    taken: u64,
    /// The regions one of whose calls launched more than once.
    multi: HashSet<usize>,
}

impl Downloads {
    fn release(&mut self, b: Behind) {
        if b.queued > 1 {
            self.multi.insert(b.region);
        }
        self.spare.push(b.buf);
    }
}

impl CudaBackend {
    /// Asks, for `region` (any key of it: its `RegionInfo`'s address), for the `bytes` bytes at
    /// device address `dev` to be copied to the host behind each later synchronous launch of
    /// this thread, for [`d2h_bytes`](Self::d2h_bytes) of the same bytes to take once such a
    /// launch completed. Returns whether it will be (small copies, with pinned transfers on,
    /// while fewer than 16 wait, for a region none of whose calls launched more than once).
    /// The caller gives the request back with
    /// [`forget_downloads_behind`](Self::forget_downloads_behind) when its region ends.
    pub fn download_behind(&self, region: usize, dev: u64, bytes: usize) -> Result<bool, CudaError> {
        // (A device copy in host memory holds what the kernel stored: nothing to copy.)
        if !self.bounced || !self.behind_on || bytes == 0 || bytes > BOUNCE_BYTES || self.hosted_at(dev, bytes).is_some() {
            return Ok(false);
        }
        self.enter()?;
        let mut d = lock(&self.behind);
        if d.pending.len() >= MOST || d.multi.contains(&region) {
            return Ok(false);
        }
        let buf = match d.spare.pop() {
            Some(b) => b,
            None => PinnedHost::new(BOUNCE_BYTES, 0, "copies back")?,
        };
        d.pending.push(Behind { region, thread: std::thread::current().id(), dev, bytes, buf, landed: None, queued: 0 });
        self.behind_count.store(d.pending.len(), Ordering::Release);
        Ok(true)
    }

    /// Queues this thread's downloads on `stream`, behind the kernel a synchronous launch
    /// just queued there; returns whether there were any (then
    /// [`downloads_behind_landed`](Self::downloads_behind_landed) follows the launch's wait).
    pub(crate) fn queue_downloads_behind(&self, stream: sys::CUstream) -> Driven<bool> {
        if self.behind_count.load(Ordering::Acquire) == 0 {
            return Ok(false);
        }
        let me = std::thread::current().id();
        let mut d = lock(&self.behind);
        let mut any = false;
        for b in d.pending.iter_mut().filter(|b| b.thread == me) {
            b.landed = None;
            b.queued += 1;
            // SAFETY: `dev` lies in a live allocation of `bytes` bytes (the region holds it
            // until it forgets the download); the buffer holds `BOUNCE_BYTES >= bytes` and is
            // read only once the launch's wait has ended this copy.
            unsafe { driver::memcpy_dtoh_async(b.buf.as_ptr(), b.dev, b.bytes, stream) }?;
            any = true;
        }
        Ok(any)
    }

    /// The wait for this thread's last synchronous launch succeeded: the downloads queued
    /// behind it have landed.
    pub(crate) fn downloads_behind_landed(&self) {
        let me = std::thread::current().id();
        let at = crate::backend::thread_device_writes();
        for b in lock(&self.behind).pending.iter_mut().filter(|b| b.thread == me) {
            b.landed = Some(at);
        }
    }

    /// Copies the download of `bytes` bytes at `src` that landed behind this thread's last
    /// synchronous launch to `dst`, and gives the request back; false where there is none.
    ///
    /// # Safety
    /// `dst` is valid for writes of `bytes` bytes.
    pub(crate) unsafe fn take_download_behind(&self, dst: *mut u8, src: u64, bytes: usize) -> bool {
        if self.behind_count.load(Ordering::Acquire) == 0 {
            return false;
        }
        let me = std::thread::current().id();
        let mut d = lock(&self.behind);
        let Some(i) = d.pending.iter().position(|b| b.thread == me && b.dev == src && b.bytes == bytes) else { return false };
        let b = d.pending.swap_remove(i);
        self.behind_count.store(d.pending.len(), Ordering::Release);
        // The thread wrote no device memory since (a launch, an upload): else the copy is
        // stale. (No other thread reaches a region's own device copies.)
        let landed = b.landed == Some(crate::backend::thread_device_writes());
        if landed {
            d.taken += 1;
            // SAFETY: `dst` is writable for `bytes` (the caller's contract); the DMA into the
            // buffer landed (the launch's wait).
            unsafe { std::ptr::copy_nonoverlapping(b.buf.as_ptr(), dst, bytes) };
        }
        d.release(b);
        landed
    }

    /// How many copies back [`d2h_bytes`](Self::d2h_bytes) took from behind a launch.
    pub fn downloads_taken_behind(&self) -> u64 {
        lock(&self.behind).taken
    }

    /// Gives back this thread's requests of [`download_behind`](Self::download_behind) that
    /// were not taken (a region that ended without copying back).
    pub fn forget_downloads_behind(&self) {
        if self.behind_count.load(Ordering::Acquire) == 0 {
            return;
        }
        let me = std::thread::current().id();
        let mut d = lock(&self.behind);
        let mut i = 0;
        while i < d.pending.len() {
            if d.pending[i].thread == me {
                let b = d.pending.swap_remove(i);
                d.release(b);
            } else {
                i += 1;
            }
        }
        self.behind_count.store(d.pending.len(), Ordering::Release);
    }
}
