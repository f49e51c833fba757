//! Device copies in host memory: a synchronous compute region's small array that its kernels
//! only store to (`copy`, `copyout` of an array no data region holds, up to 64 KiB, that the
//! code generator found written only: acc-codegen's `lower::written`) gets its device copy in
//! pinned host memory mapped for the device. The kernel's stores cross the bus as they are
//! made, and the launch's wait covers them: the region's exit copies the result from host
//! memory to the array, with no DMA and no wait behind the kernel. The upload before the launch
//! is a host copy too. Kernels never read such an array, so none of its loads crosses the bus.
//!
//! On an H200 the papers' worker vector region (64 gangs storing a 256-byte `out`) took
//! 0.092-0.104 ms a call with that copy in device memory (copied back behind the kernel,
//! `behind.rs`), 0.077-0.087 ms with it in host memory (the A/B of 5acc440).
//!
//! The transfers and the free of the backend find these copies by address (`hosted_at`), so
//! that the data layer treats them as any device copy; they are never kept for a later call
//! (`keep_copy`) nor copied behind a launch.

use std::sync::atomic::Ordering;

use super::error::CudaError;
use super::memory::{MappedBuf, BOUNCE_BYTES};
use super::{lock, CudaBackend};

/// At most this many device copies live in host memory at once (more take device memory).
const MOST: usize = 16;

impl CudaBackend {
    /// Host memory mapped for the device to hold the device copy of `bytes` bytes (up to 64
    /// KiB) of an array that a synchronous compute region's kernels only store to; `None`
    /// where the backend gives none (too large, 16 live already, `ACC_EXP_NOHOSTED=1`: an
    /// A/B switch), and the caller allocates device memory.
    pub fn alloc_hosted(&self, bytes: usize) -> Result<Option<u64>, CudaError> {
        if !self.hosted_on || bytes == 0 || bytes > BOUNCE_BYTES || self.hosted_count.load(Ordering::Acquire) >= MOST {
            return Ok(None);
        }
        let buf = self.take_mapped(bytes)?;
        let dev = buf.dev;
        let mut live = lock(&self.hosted);
        live.push(buf);
        self.hosted_count.store(live.len(), Ordering::Release);
        self.hosted_made.fetch_add(1, Ordering::Relaxed);
        Ok(Some(dev))
    }

    /// The host address of the `bytes` bytes at device address `dev` where they lie in a
    /// device copy of [`alloc_hosted`](Self::alloc_hosted).
    pub(crate) fn hosted_at(&self, dev: u64, bytes: usize) -> Option<*mut u8> {
        if self.hosted_count.load(Ordering::Acquire) == 0 {
            return None;
        }
        let live = lock(&self.hosted);
        let b = live.iter().find(|b| dev >= b.dev && dev + bytes as u64 <= b.dev + b.bytes as u64)?;
        // SAFETY: `dev - b.dev < b.bytes`: inside the buffer.
        Some(unsafe { b.host.add((dev - b.dev) as usize) })
    }

    /// Frees `dev` if it is a device copy of [`alloc_hosted`](Self::alloc_hosted) (its buffer
    /// goes back to the mapped ones for reuse); false where it is not.
    ///
    /// # Safety
    /// No pending or later work uses `dev`.
    pub(crate) unsafe fn free_hosted(&self, dev: u64) -> bool {
        if self.hosted_count.load(Ordering::Acquire) == 0 {
            return false;
        }
        let buf: MappedBuf = {
            let mut live = lock(&self.hosted);
            let Some(at) = live.iter().position(|b| b.dev == dev) else { return false };
            let buf = live.swap_remove(at);
            self.hosted_count.store(live.len(), Ordering::Release);
            buf
        };
        // SAFETY: the caller's contract.
        unsafe { self.give_back_mapped(buf) };
        true
    }

    /// How many device copies live in host memory now.
    pub fn hosted_copies(&self) -> usize {
        self.hosted_count.load(Ordering::Acquire)
    }

    /// How many device copies [`alloc_hosted`](Self::alloc_hosted) has given.
    pub fn hosted_copies_made(&self) -> u64 {
        self.hosted_made.load(Ordering::Relaxed)
    }
}
