//! The end of a synchronous launch, seen in host memory ([`Done`]): behind the launch the
//! stream writes a new value into a word of pinned host memory mapped for the device
//! (`cuStreamWriteValue32`, after a memory barrier: the kernel's stores are visible once the
//! word is), and the host spins on that word instead of calling `cuStreamSynchronize`. On an
//! H200 the bench's launch + sync of a small region went from 11.5-11.9 to 9.8-10.4 us (one
//! call, three rounds alternating; `benches/results/launch3-h200/` as of 50baf19). `ACC_EXP_STREAMSYNC=1`
//! waits with `cuStreamSynchronize` instead (an A/B switch, read when the backend starts).
//!
//! A kernel that faults never lets the stream write the word: every [`QUERY_EVERY`] spins
//! `cuStreamQuery` asks for the stream's state, and reports a failure as a synchronisation
//! would. Where the driver refuses the write (no stream memory operations), the backend
//! synchronises from then on.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use cudarc::driver::sys;

use super::alloc::PinnedHost;
use super::driver::{self, Driven};
use super::error::CudaError;

/// Spins between two `cuStreamQuery` calls.
const QUERY_EVERY: u32 = 64;

/// A word of mapped host memory that the synchronous stream sets at the end of its work.
pub(crate) struct Done {
    /// The word's host address.
    host: *const u32,
    /// Its device address.
    dev: u64,
    /// The value the last wait asked for.
    seq: AtomicU32,
    /// Whether the stream may write the word (else: `cuStreamSynchronize`).
    works: AtomicBool,
    _mem: PinnedHost,
}

// SAFETY: the word is pinned host memory owned by `Done`, read (volatile) by the host and
// written only by the stream's memory operation.
unsafe impl Send for Done {}
// SAFETY: as for `Send`; the sequence is atomic.
unsafe impl Sync for Done {}

impl Done {
    pub(crate) fn new(what: &str) -> Result<Self, CudaError> {
        let (mem, dev) = PinnedHost::mapped(4, what)?;
        let host = mem.as_ptr().cast::<u32>();
        // SAFETY: 4 bytes of pinned memory, aligned for any type.
        unsafe { host.write_volatile(0) };
        // Spinning is what `ACC_CUDA_SCHED=spin` (the default) asks of a wait; the other modes
        // keep the driver's wait.
        let works = super::context::waits_by_spinning() && std::env::var_os("ACC_EXP_STREAMSYNC").is_none();
        Ok(Done { host, dev, seq: AtomicU32::new(0), works: AtomicBool::new(works), _mem: mem })
    }

    /// Waits for the work queued on `stream` so far (the caller holds the stream: no other
    /// thread queues on it meanwhile).
    ///
    /// # Safety
    /// `stream` is a live stream.
    pub(crate) unsafe fn wait(&self, stream: sys::CUstream) -> Driven<()> {
        // SAFETY: the caller's contract.
        match unsafe { self.mark(stream) } {
            // SAFETY: the caller's contract.
            Some(seq) => unsafe { self.wait_for(stream, seq) },
            // SAFETY: the caller's contract.
            None => unsafe { driver::stream_synchronize(stream) },
        }
    }

    /// Queues the write of a new value behind the work queued on `stream` so far and returns
    /// it, for [`wait_for`](Self::wait_for); `None` where the stream cannot write the word
    /// (then the caller synchronises the stream).
    ///
    /// # Safety
    /// `stream` is a live stream, held by the caller.
    pub(crate) unsafe fn mark(&self, stream: sys::CUstream) -> Option<u32> {
        if !self.works.load(Ordering::Relaxed) {
            return None;
        }
        let seq = self.seq.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        // SAFETY: the word lives as long as `self`, which outlives any wait for it.
        if unsafe { driver::stream_write_value32(stream, self.dev, seq) }.is_err() {
            self.works.store(false, Ordering::Relaxed);
            return None;
        }
        Some(seq)
    }

    /// Whether the stream can write the word (else every wait synchronises the stream).
    pub(crate) fn works(&self) -> bool {
        self.works.load(Ordering::Relaxed)
    }

    /// Waits until the stream has written `seq` (from [`mark`](Self::mark)) or a later
    /// value: the work queued before that mark has completed.
    ///
    /// # Safety
    /// `stream` is a live stream.
    pub(crate) unsafe fn wait_for(&self, stream: sys::CUstream, seq: u32) -> Driven<()> {
        let mut spins = 0u32;
        loop {
            // SAFETY: the word (see `new`); the device writes it behind the compiler's back.
            // Reached or passed (modulo 2^32): a later value was queued after this wait's
            // own, behind this thread's work.
            if unsafe { self.host.read_volatile() }.wrapping_sub(seq) < 1 << 31 {
                return Ok(());
            }
            spins = spins.wrapping_add(1);
            // SAFETY: the caller's contract.
            if spins.is_multiple_of(QUERY_EVERY) && unsafe { driver::stream_query(stream) }? {
                // All the stream's work completed, the write included.
                return Ok(());
            }
            std::hint::spin_loop();
        }
    }
}
