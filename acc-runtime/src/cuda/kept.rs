//! Device copies kept between the calls of a synchronous compute region: the small arrays such
//! a region copies in and back (`copy`, `copyout` of arrays no data region holds, up to 64 KiB
//! each, of a primitive element type: `data::keepable`) keep their device memory after the region ends, with a host snapshot of what it
//! holds (the bytes just copied back). The region's next call takes that memory for the same
//! array and uploads nothing where the host data still holds those bytes: the device copy is
//! what a fresh upload would make. Where they differ it uploads into it, as before.
//!
//! On an H200 the papers' worker vector region (a 256-byte `out` written by its gangs) spent
//! 5-7 us of host time a call on that upload, and its launch waited for the copy engine
//! besides; kept copies took its `int` cells from 0.085-0.091 to 0.078-0.086 ms a call
//! (the A/B of d88a1ad). Kept memory belongs to no construct and nothing else can
//! reach it; an allocation that finds the device full frees it with the pool's
//! (`release_kept_memory`), as does `acc::shutdown`.

use std::sync::atomic::Ordering;

use super::memory::BOUNCE_BYTES;
use super::{lock, CudaBackend};

/// At most this many device copies are kept at once (the oldest is freed first).
const MOST: usize = 16;

/// A device copy kept after its region ended.
struct Kept {
    key: (usize, usize),
    dev: u64,
    /// What it holds (the host's bytes when it was copied back).
    holds: Vec<u8>,
}

/// The kept device copies, oldest first.
#[derive(Default)]
pub(crate) struct KeptCopies {
    copies: Vec<Kept>,
    /// How many were taken holding the host's bytes (no upload).
    reused: u64,
}

impl CudaBackend {
    /// Keeps device memory `dev`, a synchronous compute region's copy of `host` (copied back
    /// just now: both hold the same bytes), for [`take_copy`](Self::take_copy) with the same
    /// `key` (the region and the array's name, any numbers); false where it does not (then
    /// the caller frees it): past 64 KiB, while async queues have work (it could use `dev`),
    /// for a device copy in host memory (`hosted.rs`), with `ACC_EXP_NOKEEP=1` (an A/B
    /// switch). A copy kept before under `key` is freed.
    ///
    /// # Safety
    /// `dev` came from [`alloc_bytes`](Self::alloc_bytes) of this backend for `host.len()`
    /// bytes that equal `host`, no pending work uses it, and the caller gives it up.
    pub unsafe fn keep_copy(&self, key: (usize, usize), dev: u64, host: &[u8]) -> bool {
        if !self.keep_on || host.is_empty() || host.len() > BOUNCE_BYTES || self.busy_queues.load(Ordering::Acquire) != 0 || self.is_poisoned.load(Ordering::Acquire) || self.hosted_at(dev, host.len()).is_some() {
            return false;
        }
        let gone: Vec<u64> = {
            let mut k = lock(&self.kept);
            let mut gone: Vec<u64> = Vec::new();
            if let Some(at) = k.copies.iter().position(|c| c.key == key) {
                gone.push(k.copies.remove(at).dev);
            }
            k.copies.push(Kept { key, dev, holds: host.to_vec() });
            if k.copies.len() > MOST {
                gone.push(k.copies.remove(0).dev);
            }
            gone
        };
        for p in gone {
            // SAFETY: kept memory came from `alloc_bytes` (the contract above), no work uses it
            // and nothing else knows it; it has just left the list.
            let _ = unsafe { self.free_now(p) };
        }
        true
    }

    /// The device copy kept under `key` for `host.len()` bytes, if there is one: its address
    /// and whether it holds `host`'s bytes (else the caller uploads them). The caller owns it
    /// from then on, as memory from [`alloc_bytes`](Self::alloc_bytes).
    pub fn take_copy(&self, key: (usize, usize), host: &[u8]) -> Option<(u64, bool)> {
        let mut k = lock(&self.kept);
        let at = k.copies.iter().position(|c| c.key == key && c.holds.len() == host.len())?;
        let c = k.copies.remove(at);
        let same = c.holds == host;
        k.reused += u64::from(same);
        Some((c.dev, same))
    }

    /// How many kept copies [`take_copy`](Self::take_copy) gave holding the host's bytes.
    pub fn kept_copies_reused(&self) -> u64 {
        lock(&self.kept).reused
    }

    /// Takes every kept copy out of the list, to be freed.
    pub(crate) fn drain_kept_copies(&self) -> Vec<u64> {
        lock(&self.kept).copies.drain(..).map(|c| c.dev).collect()
    }

    /// The bytes of device memory the kept copies hold, counted as the pool counts what it
    /// keeps (`pool::cost`).
    pub(crate) fn kept_copies_bytes(&self) -> usize {
        lock(&self.kept).copies.iter().map(|c| super::pool::cost(c.holds.len())).sum()
    }

    /// Whether any device copy is kept.
    pub(crate) fn keeps_copies(&self) -> bool {
        !lock(&self.kept).copies.is_empty()
    }
}
