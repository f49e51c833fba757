//! Memory: device allocations, transfers between host and device (synchronous, optionally
//! through pinned staging buffers), and pinned memory the device reads and writes in place
//! ([`MappedBuf`]).
//!
//! Small copies go through pinned buffers: a synchronous region's uploads of up to 64 KiB ahead of
//! its launch (`h2d_ahead`), without waiting for their DMA.

use std::sync::atomic::Ordering;

use cudarc::driver::sys;

use super::alloc::PinnedHost;
use super::driver::{self, Doing};
use super::error::CudaError;
use super::queue::Event;
use super::{lock, CudaBackend};

/// Pinned host memory mapped into the device's address space: the device writes it, the host
/// reads it once the writing work has completed, with no copy (reduction partials). Freed
/// when dropped.
#[derive(Debug)]
pub struct MappedBuf {
    /// The host address.
    pub host: *mut u8,
    /// The device address of the same bytes.
    pub dev: u64,
    /// Its size in bytes.
    pub bytes: usize,
    /// The memory.
    _mem: PinnedHost,
}

// SAFETY: plain pinned memory owned by whoever holds the buffer; the backend hands each
// buffer to one holder at a time.
unsafe impl Send for MappedBuf {}

impl MappedBuf {
    fn new(bytes: usize) -> Result<Self, CudaError> {
        let (mem, dev) = PinnedHost::mapped(bytes, "reduction partials")?;
        Ok(MappedBuf { host: mem.as_ptr(), dev, bytes, _mem: mem })
    }
}

/// The smallest mapped buffer the backend allocates (one holds 4096 partials of 16 bytes).
const MAPPED_MIN: usize = 64 << 10;
/// How many mapped buffers the backend keeps for reuse.
const MAPPED_KEEP: usize = 8;

/// Pinned host buffers for large transfers (opt-in, see
/// [`CudaBackend::set_staged_transfers`]), used alternately so that the copy into one
/// overlaps the DMA from the other; each with the event that marks its last DMA done.
pub(crate) struct Staging {
    bufs: [PinnedHost; 2],
    done: [Event; 2],
}

impl Staging {
    fn new() -> Result<Self, CudaError> {
        let buf = || PinnedHost::new(STAGING_CHUNK, 0, "transfer buffers");
        let done = || Event::new(false);
        Ok(Staging { bufs: [buf()?, buf()?], done: [done()?, done()?] })
    }
}

/// Transfers at least this large go through the pinned staging buffers.
const STAGING_MIN: usize = 4 << 20;
/// The size of each staging buffer.
const STAGING_CHUNK: usize = 8 << 20;

impl CudaBackend {
    /// Large transfers (4 MiB and more) go through two pinned staging buffers when `on`
    /// (`ACC_CUDA_STAGING=1`), else straight from pageable memory (the default). Measured on
    /// an H100 (Firecracker VM, 256 MiB): staged h2d 9.1 GB/s, d2h 8.8 GB/s; direct h2d
    /// 9.7 GB/s, d2h 15.7 GB/s: the driver's own staging wins there.
    pub fn set_staged_transfers(&self, on: bool) {
        self.staged.store(on, Ordering::Relaxed);
    }

    fn staged(&self, bytes: usize) -> bool {
        bytes >= STAGING_MIN && self.staged.load(Ordering::Relaxed)
    }

    /// Free and total memory of the device, in bytes (`cuMemGetInfo`); the allocations kept
    /// for reuse (`pool`, and the small copies of `kept.rs`) count as free.
    pub fn mem_info(&self) -> Result<(usize, usize), CudaError> {
        self.enter()?;
        let (free, total) = driver::mem_info().doing(|| "reading the free memory".into())?;
        Ok((free + lock(&self.pool).kept_bytes() + self.kept_copies_bytes(), total))
    }

    /// Allocates `bytes` of device memory (at least 1), returning its device address: an
    /// allocation of the same size freed before and kept (`pool`), else a new one. Where the
    /// device has no memory left, the kept ones are freed and the allocation is tried again.
    pub fn alloc_bytes(&self, bytes: usize) -> Result<u64, CudaError> {
        self.enter()?;
        if let Some(p) = lock(&self.pool).take(bytes) {
            return Ok(p);
        }
        // Rounded up to 8 bytes: an 8- or 16-bit atomic is a compare-and-swap of the aligned
        // 32-bit word around it, which must lie inside the allocation (the driver pads
        // allocations anyway; compute-sanitizer checks the size asked for). The tail past
        // `bytes` is zeroed: that compare-and-swap reads it (an `i8` atomic on the last
        // element of a 3-byte array reads byte 3), and nothing else ever writes it (so a kept
        // allocation, handed out again for the same `bytes`, has it zeroed too).
        let size = bytes.max(1).next_multiple_of(8);
        let mut made = driver::mem_alloc(size);
        let out_of_memory = matches!(&made, Err(f) if f.error.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY);
        if out_of_memory && (lock(&self.pool).kept_bytes() > 0 || self.keeps_copies()) {
            self.release_kept_memory()?;
            made = driver::mem_alloc(size);
        }
        let p = made.doing(|| format!("allocating {bytes} bytes on {}", self.label)).map_err(|e| self.fail(e))?;
        if size > bytes {
            let s = self.sync_stream.raw();
            // SAFETY: `p + bytes .. p + size` lies in the allocation just made; the
            // synchronisation ends the work before anyone else can use `p`.
            let zeroed = unsafe { driver::memset_d8_async(p + bytes as u64, 0, size - bytes, s).and_then(|()| driver::stream_synchronize(s)) }
                .doing(|| format!("zeroing the {} padding bytes of an allocation", size - bytes));
            if let Err(e) = zeroed {
                // SAFETY: allocated above, known to nobody else, no work pending on it.
                let _ = unsafe { driver::mem_free(p) };
                return Err(self.fail(e));
            }
        }
        lock(&self.pool).made(p, bytes);
        Ok(p)
    }

    /// Frees device memory from [`alloc_bytes`](Self::alloc_bytes), after waiting for the
    /// async queues that have work queued (any of it may use `p`).
    ///
    /// # Safety
    /// `p` came from `alloc_bytes` of this backend, is not freed yet, and no work queued
    /// later uses it.
    pub unsafe fn free_bytes(&self, p: u64) -> Result<(), CudaError> {
        self.enter()?;
        self.settle()?;
        // SAFETY: the caller's contract; the work queued before has completed.
        unsafe { self.free_now(p) }
    }

    /// Frees `p`: kept for the next allocation of its size (`pool`), else `cuMemFree`.
    ///
    /// # Safety
    /// As for [`free_bytes`](Self::free_bytes), and no pending work uses `p`.
    pub(crate) unsafe fn free_now(&self, p: u64) -> Result<(), CudaError> {
        // SAFETY: the caller's contract.
        if unsafe { self.free_hosted(p) } {
            return Ok(());
        }
        // (A copy ahead of a launch that never came may still be writing `p`.)
        self.ahead_copies_done()?;
        if lock(&self.pool).keep(p) {
            return Ok(());
        }
        // SAFETY: the caller's contract.
        unsafe { driver::mem_free(p) }.doing(|| format!("freeing device memory at {p:#x}"))
    }

    /// Keeps up to `limit` bytes of freed device memory for reuse by allocations of the same
    /// sizes (default 1 GiB; `ACC_CUDA_POOL=0`: none); what is kept past it is freed.
    pub fn keep_freed_memory(&self, limit: usize) -> Result<(), CudaError> {
        self.enter()?;
        let over = lock(&self.pool).set_limit(limit);
        self.free_kept(over)
    }

    /// Frees the allocations kept for reuse (`pool`), after waiting for the async queues.
    pub(crate) fn release_kept_memory(&self) -> Result<(), CudaError> {
        self.enter()?;
        self.settle()?;
        // The small arrays' device copies kept between their regions' calls (`kept.rs`)
        // first, through the pool.
        for p in self.drain_kept_copies() {
            // SAFETY: kept copies came from `alloc_bytes`, and no work uses them.
            unsafe { self.free_now(p) }?;
        }
        let kept = lock(&self.pool).drain();
        self.free_kept(kept)
    }

    /// `cuMemFree` of allocations the pool gave back (`drain`, `set_limit`).
    fn free_kept(&self, kept: Vec<u64>) -> Result<(), CudaError> {
        for p in kept {
            // SAFETY: freed by its owner (no pending work used it then) and kept since, known
            // to nobody else.
            unsafe { driver::mem_free(p) }.doing(|| format!("freeing device memory at {p:#x}"))?;
        }
        Ok(())
    }

    /// Sets `bytes` bytes at `p` to zero (synchronously).
    ///
    /// # Safety
    /// `p` lies in a live allocation of this backend with `bytes` bytes after it.
    pub unsafe fn zero(&self, p: u64, bytes: usize) -> Result<(), CudaError> {
        self.enter()?;
        crate::backend::note_device_write();
        let doing = || format!("zeroing {bytes} bytes");
        let s = self.sync_stream.raw();
        // SAFETY: the caller's contract; the synchronisation ends the work. (`cuMemsetD8`
        // alone would be asynchronous.)
        unsafe { driver::memset_d8_async(p, 0, bytes, s).and_then(|()| driver::stream_synchronize(s)) }
            .doing(doing)
            .map_err(|e| self.fail(e))
    }

    /// Copies host memory to the device, synchronously. With staging on
    /// ([`set_staged_transfers`](Self::set_staged_transfers)), large copies go through two
    /// pinned buffers, alternating, so that host copies overlap DMA.
    ///
    /// # Safety
    /// `src` is valid for reads of `bytes` bytes; `dst` lies in a live allocation of this
    /// backend with `bytes` bytes after it.
    pub unsafe fn h2d_bytes(&self, dst: u64, src: *const u8, bytes: usize) -> Result<(), CudaError> {
        self.enter()?;
        crate::backend::note_device_write();
        if let Some(host) = self.hosted_at(dst, bytes) {
            // SAFETY: `src` is readable for `bytes` (the caller's contract), `host` the device
            // copy's `bytes` bytes in host memory, which no kernel uses before this returns.
            unsafe { std::ptr::copy_nonoverlapping(src, host, bytes) };
            return Ok(());
        }
        let doing = || format!("copying {bytes} bytes to {}", self.label);
        let s = self.sync_stream.raw();
        if self.bounced && bytes <= BOUNCE_BYTES {
            let mut guard = lock(&self.bounce);
            let buf = bounce(&mut guard)?;
            // SAFETY: `src` is readable for `bytes` (the caller's contract), the buffer has
            // `BOUNCE_BYTES >= bytes`; the lock keeps it ours until the copy below completed.
            unsafe { std::ptr::copy_nonoverlapping(src, buf.as_ptr(), bytes) };
            // SAFETY: `dst` has `bytes` bytes (the caller's contract); the synchronisation ends
            // the DMA from the buffer.
            return unsafe { driver::memcpy_htod_async(dst, buf.as_ptr(), bytes, s).and_then(|()| driver::stream_synchronize(s)) }
                .doing(doing)
                .map_err(|e| self.fail(e));
        }
        if !self.staged(bytes) {
            // On the backend's stream, then synchronised: a plain `cuMemcpyHtoD` from pageable
            // memory may return before its DMA lands, unordered with our non-blocking streams.
            // SAFETY: the caller's contract; the synchronisation ends the use of `src`.
            return unsafe { driver::memcpy_htod_async(dst, src, bytes, s).and_then(|()| driver::stream_synchronize(s)) }
                .doing(doing)
                .map_err(|e| self.fail(e));
        }
        let mut guard = lock(&self.staging);
        let st = staging(&mut guard)?;
        let mut off = 0;
        let mut k = 0;
        while off < bytes {
            let n = STAGING_CHUNK.min(bytes - off);
            // The event guards the buffer's previous DMA; once it completed, the buffer is
            // the host's again.
            st.done[k].synchronize().doing(doing).map_err(|e| self.fail(e))?;
            // SAFETY: `src + off .. + n` is within the caller's readable range, and the
            // staging buffer has `STAGING_CHUNK >= n` bytes.
            unsafe { std::ptr::copy_nonoverlapping(src.add(off), st.bufs[k].as_ptr(), n) };
            // SAFETY: `dst + off .. + n` is within the caller's allocation; the buffer stays
            // untouched until the event recorded after the copy completes.
            unsafe { driver::memcpy_htod_async(dst + off as u64, st.bufs[k].as_ptr(), n, s) }.doing(doing).map_err(|e| self.fail(e))?;
            st.done[k].record(s).doing(doing).map_err(|e| self.fail(e))?;
            off += n;
            k ^= 1;
        }
        // SAFETY: the backend's stream.
        unsafe { driver::stream_synchronize(s) }.doing(doing).map_err(|e| self.fail(e))
    }

    /// Copies host memory to the device ahead of a synchronous launch: a copy of up to 64 KiB
    /// goes through one of the backend's pinned buffers without waiting for its DMA (the
    /// host memory is the caller's again on return), larger ones as [`h2d_bytes`]. The copy
    /// is ordered before later work on the synchronous stream; work on an async queue waits
    /// for the synchronous stream while such a copy may be on its way (`stream_and_panics`),
    /// and so does a free. Saves a synchronous region's launch a wait for each array it
    /// copies in (an implicit `copy` of an array that no data region holds).
    ///
    /// [`h2d_bytes`]: Self::h2d_bytes
    ///
    /// # Safety
    /// As for [`h2d_bytes`](Self::h2d_bytes).
    pub unsafe fn h2d_ahead(&self, dst: u64, src: *const u8, bytes: usize) -> Result<(), CudaError> {
        if !self.bounced || bytes > BOUNCE_BYTES || self.hosted_at(dst, bytes).is_some() {
            // SAFETY: the caller's contract.
            return unsafe { self.h2d_bytes(dst, src, bytes) };
        }
        self.enter()?;
        crate::backend::note_device_write();
        let doing = || format!("copying {bytes} bytes to {}", self.label);
        let s = self.sync_stream.raw();
        let mut guard = lock(&self.ahead);
        if guard.is_none() {
            *guard = Some(Ahead::new()?);
        }
        let ahead = guard.as_mut().expect("just set");
        let (buf, done) = &ahead.slots[ahead.next];
        ahead.next = (ahead.next + 1) % AHEAD_SLOTS;
        // The buffer's previous DMA has landed (long since, as a rule: a launch waited).
        done.synchronize().doing(doing).map_err(|e| self.fail(e))?;
        // SAFETY: `src` is readable for `bytes` (the caller's contract); the buffer holds
        // `BOUNCE_BYTES >= bytes` and is not read by a pending DMA (the event above).
        unsafe { std::ptr::copy_nonoverlapping(src, buf.as_ptr(), bytes) };
        // SAFETY: `dst` has `bytes` bytes (the caller's contract); the buffer stays untouched
        // until the event recorded after the copy has completed.
        let queued = unsafe { driver::memcpy_htod_async(dst, buf.as_ptr(), bytes, s) }.and_then(|()| done.record(s));
        // Counted once queued: a synchronisation that read the count before saw it queued.
        self.ahead_queued.fetch_add(1, Ordering::AcqRel);
        queued.doing(doing).map_err(|e| self.fail(e))
    }

    /// Makes `stream` (an async queue's) wait, on the device, for the synchronous stream where
    /// a copy of [`h2d_ahead`](Self::h2d_ahead) may be on its way there.
    pub(crate) fn after_ahead_copies(&self, stream: sys::CUstream) -> Result<(), CudaError> {
        if self.ahead_landed.load(Ordering::Acquire) >= self.ahead_queued.load(Ordering::Acquire) {
            return Ok(());
        }
        let doing = || format!("ordering an async queue after the copies to {}", self.label);
        // Destroyed when dropped: the driver keeps what the queued wait needs.
        let done = Event::new(false)?;
        done.record(self.sync_stream.raw()).doing(doing).map_err(|e| self.fail(e))?;
        // SAFETY: two live handles of this context (made current by the caller).
        unsafe { driver::stream_wait_event(stream, done.raw()) }.doing(doing).map_err(|e| self.fail(e))
    }

    /// How many copies of [`h2d_ahead`](Self::h2d_ahead) were queued: read before a wait for
    /// the synchronous stream, and given to [`ahead_copies_landed`](Self::ahead_copies_landed)
    /// after it.
    pub(crate) fn ahead_copies_queued(&self) -> u64 {
        self.ahead_queued.load(Ordering::Acquire)
    }

    /// The first `queued` copies of [`h2d_ahead`](Self::h2d_ahead) have landed (the
    /// synchronous stream was waited for after `queued` was read).
    pub(crate) fn ahead_copies_landed(&self, queued: u64) {
        self.ahead_landed.fetch_max(queued, Ordering::AcqRel);
    }

    /// Waits for the synchronous stream where a copy of [`h2d_ahead`](Self::h2d_ahead) may
    /// be on its way.
    fn ahead_copies_done(&self) -> Result<(), CudaError> {
        let queued = self.ahead_copies_queued();
        if self.ahead_landed.load(Ordering::Acquire) >= queued {
            return Ok(());
        }
        // SAFETY: the backend's stream.
        unsafe { driver::stream_synchronize(self.sync_stream.raw()) }.doing(|| format!("finishing the copies to {}", self.label)).map_err(|e| self.fail(e))?;
        self.ahead_copies_landed(queued);
        Ok(())
    }

    /// Copies device memory to the host, synchronously (large copies staged as in
    /// [`h2d_bytes`](Self::h2d_bytes)), after the async queues that have work queued (which
    /// may be writing `src`).
    ///
    /// # Safety
    /// `dst` is valid for writes of `bytes` bytes and not accessed by anyone else meanwhile;
    /// `src` lies in a live allocation of this backend with `bytes` bytes after it.
    pub unsafe fn d2h_bytes(&self, dst: *mut u8, src: u64, bytes: usize) -> Result<(), CudaError> {
        self.enter()?;
        if let Some(host) = self.hosted_at(src, bytes) {
            // A device copy in host memory belongs to a synchronous region, whose launches
            // waited for their kernels: their stores have landed there.
            // SAFETY: `dst` is writable for `bytes` (the caller's contract); `host` holds the
            // device copy's `bytes` bytes.
            unsafe { std::ptr::copy_nonoverlapping(host, dst, bytes) };
            return Ok(());
        }
        self.settle()?;
        let doing = || format!("copying {bytes} bytes from {}", self.label);
        let s = self.sync_stream.raw();
        // SAFETY: `dst` is writable for `bytes` (the caller's contract).
        if unsafe { self.take_download_behind(dst, src, bytes) } {
            return Ok(());
        }
        if self.bounced && bytes <= BOUNCE_BYTES {
            let mut guard = lock(&self.bounce);
            let buf = bounce(&mut guard)?;
            // SAFETY: `src` has `bytes` bytes (the caller's contract) and the buffer
            // `BOUNCE_BYTES >= bytes`; the synchronisation ends the DMA into it.
            unsafe { driver::memcpy_dtoh_async(buf.as_ptr(), src, bytes, s).and_then(|()| driver::stream_synchronize(s)) }
                .doing(doing)
                .map_err(|e| self.fail(e))?;
            // SAFETY: `dst` is writable for `bytes` (the caller's contract); the DMA landed.
            unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr(), dst, bytes) };
            return Ok(());
        }
        if !self.staged(bytes) {
            // SAFETY: the caller's contract; the synchronisation ends the use of `dst`.
            return unsafe { driver::memcpy_dtoh_async(dst, src, bytes, s).and_then(|()| driver::stream_synchronize(s)) }
                .doing(doing)
                .map_err(|e| self.fail(e));
        }
        let mut guard = lock(&self.staging);
        let st = staging(&mut guard)?;
        // Chunk i is copied out of buffer i % 2 while the DMA of chunk i + 1 fills the other.
        let chunks: Vec<(usize, usize)> = (0..bytes).step_by(STAGING_CHUNK).map(|off| (off, STAGING_CHUNK.min(bytes - off))).collect();
        let issue = |i: usize| -> driver::Driven<()> {
            let (off, n) = chunks[i];
            // SAFETY: `src + off .. + n` is within the caller's allocation; the buffer's
            // previous contents were copied out before this chunk was issued.
            unsafe { driver::memcpy_dtoh_async(st.bufs[i % 2].as_ptr(), src + off as u64, n, s) }?;
            st.done[i % 2].record(s)
        };
        issue(0).doing(doing).map_err(|e| self.fail(e))?;
        for i in 0..chunks.len() {
            if i + 1 < chunks.len() {
                issue(i + 1).doing(doing).map_err(|e| self.fail(e))?;
            }
            st.done[i % 2].synchronize().doing(doing).map_err(|e| self.fail(e))?;
            let (off, n) = chunks[i];
            // SAFETY: the DMA into the buffer completed; `dst + off .. + n` is within the
            // caller's writable range.
            unsafe { std::ptr::copy_nonoverlapping(st.bufs[i % 2].as_ptr(), dst.add(off), n) };
        }
        Ok(())
    }

    /// Copies `bytes` bytes from device memory at `src` to device memory at `dst`
    /// (`cuMemcpyDtoDAsync` on the synchronous stream, then synchronised): after the work of
    /// the busy async queues and the synchronous launches not yet waited for, as a synchronous
    /// transfer is; it returns once the copy landed.
    ///
    /// # Safety
    /// `src` and `dst` lie in live allocations of this backend from
    /// [`alloc_bytes`](Self::alloc_bytes) with `bytes` bytes after each, and do not overlap.
    pub unsafe fn d2d_bytes(&self, dst: u64, src: u64, bytes: usize) -> Result<(), CudaError> {
        self.enter()?;
        self.settle()?;
        crate::backend::note_device_write();
        let doing = || format!("copying {bytes} bytes within {}", self.label);
        let s = self.sync_stream.raw();
        // SAFETY: the caller's contract; the synchronisation ends the copy.
        unsafe { driver::memcpy_dtod_async(dst, src, bytes, s).and_then(|()| driver::stream_synchronize(s)) }
            .doing(doing)
            .map_err(|e| self.fail(e))
    }

    /// Copies `bytes` bytes between two device buffers on the synchronous stream and
    /// returns the copy's time in milliseconds (CUDA events): the bandwidth baseline.
    ///
    /// # Safety
    /// `src` and `dst` lie in live allocations of this backend with `bytes` bytes after each,
    /// and do not overlap.
    pub unsafe fn d2d_timed(&self, dst: u64, src: u64, bytes: usize) -> Result<f32, CudaError> {
        self.enter()?;
        let doing = || format!("copying {bytes} bytes within {}", self.label);
        // Dropped (destroyed) on every path out, errors included.
        let (start, end) = (Event::new(true)?, Event::new(true)?);
        let s = self.sync_stream.raw();
        start.record(s).doing(doing)?;
        // SAFETY: the caller's contract.
        unsafe { driver::memcpy_dtod_async(dst, src, bytes, s) }.doing(doing).map_err(|e| self.fail(e))?;
        end.record(s).doing(doing)?;
        // SAFETY: the backend's stream.
        unsafe { driver::stream_synchronize(s) }.doing(doing).map_err(|e| self.fail(e))?;
        end.elapsed_since(&start).doing(|| "timing a copy".into())
    }

    /// A mapped buffer of at least `bytes` bytes (from the ones given back, else new).
    pub fn take_mapped(&self, bytes: usize) -> Result<MappedBuf, CudaError> {
        // Not from a lost context: its kernels cannot run.
        self.enter()?;
        {
            let mut pool = lock(&self.mapped);
            if let Some(i) = pool.iter().position(|b| b.bytes >= bytes) {
                return Ok(pool.swap_remove(i));
            }
        }
        MappedBuf::new(bytes.max(MAPPED_MIN).next_multiple_of(4096))
    }

    /// Gives back a buffer from [`take_mapped`](Self::take_mapped), for reuse.
    ///
    /// # Safety
    /// No pending or later work uses the buffer through its device address.
    pub unsafe fn give_back_mapped(&self, buf: MappedBuf) {
        let mut pool = lock(&self.mapped);
        if pool.len() < MAPPED_KEEP {
            pool.push(buf);
        }
        // Else `buf` drops here, freed: the caller's contract makes that safe.
    }
}

/// Synchronous transfers of at most this many bytes go through the backend's pinned buffer
/// (`CudaBackend::bounce`): a copy from or to pageable memory goes through the driver's own
/// staging, and waits for more than the DMA.
pub(crate) const BOUNCE_BYTES: usize = 64 << 10;

/// How many pinned buffers the copies ahead of a launch take in turn.
const AHEAD_SLOTS: usize = 8;

/// The pinned buffers of [`CudaBackend::h2d_ahead`], each with the event that marks its last
/// DMA done, taken in turn.
pub(crate) struct Ahead {
    slots: Vec<(PinnedHost, Event)>,
    next: usize,
}

impl Ahead {
    fn new() -> Result<Self, CudaError> {
        let slots = (0..AHEAD_SLOTS).map(|_| Ok((PinnedHost::new(BOUNCE_BYTES, 0, "small transfers")?, Event::new(false)?))).collect::<Result<_, CudaError>>()?;
        Ok(Ahead { slots, next: 0 })
    }
}

/// The pinned buffer of small transfers, allocated at first use.
fn bounce(slot: &mut Option<PinnedHost>) -> Result<&PinnedHost, CudaError> {
    if slot.is_none() {
        *slot = Some(PinnedHost::new(BOUNCE_BYTES, 0, "small transfers")?);
    }
    Ok(slot.as_ref().expect("just set"))
}

/// The staging buffers, allocated at first use.
fn staging(slot: &mut Option<Staging>) -> Result<&Staging, CudaError> {
    if slot.is_none() {
        *slot = Some(Staging::new()?);
    }
    Ok(slot.as_ref().expect("just set"))
}
