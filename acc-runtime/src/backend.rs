//! The bottom of the runtime: what a device is to it. [`DeviceType`] and [`DevPtr`], the
//! [`Backend`] interface every device implements (memory, transfers, and their order with
//! the async queues), and the host backend. The CUDA backend (`crate::cuda`) implements
//! [`Backend`] too; nothing above this module needs to know which backend it talks to,
//! except the GPU launch path, which the device hands the CUDA backend by its own type
//! (`devices::cuda_backend`, feature `cuda`).
//!
//! It also counts the device writes (kernel launches, uploads: `note_device_write`), which a data
//! region that unwinds asks before it copies its `copyout` data back.

use std::sync::atomic::{AtomicU64, Ordering};

/// How many times the process may have written device memory: kernel launches and uploads
/// (see [`note_device_write`]).
static DEVICE_WRITES: AtomicU64 = AtomicU64::new(0);

/// Notes that device memory may change now (a kernel launch, an upload): a data region that
/// unwinds copies its `copyout` data back only when something wrote the device since it
/// entered (else the device copies hold nothing the program wrote: see
/// `data::DataScope`'s drop).
pub(crate) fn note_device_write() {
    DEVICE_WRITES.fetch_add(1, Ordering::AcqRel);
    #[cfg(feature = "cuda")]
    THREAD_WRITES.with(|w| w.set(w.get() + 1));
}

/// The count [`note_device_write`] keeps (any device, any thread: a conservative witness).
pub(crate) fn device_writes() -> u64 {
    DEVICE_WRITES.load(Ordering::Acquire)
}

#[cfg(feature = "cuda")]
thread_local! {
    /// [`note_device_write`]'s count of the calling thread's writes.
    static THREAD_WRITES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times this thread may have written device memory (its share of
/// [`device_writes`]): what a region's own data can have been written by, as no other thread
/// reaches the device copies a region made for the host data it borrows.
#[cfg(feature = "cuda")]
pub(crate) fn thread_device_writes() -> u64 {
    THREAD_WRITES.with(|w| w.get())
}

pub use acc_device::DeviceType;

/// An address in a device's memory. On the host backend it is a host address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct DevPtr(pub u64);

/// The interface every device backend implements: memory, transfers, queues.
///
/// Backends report failures as `Err(message)`; the runtime turns them into panics that
/// name the region and the data involved.
pub trait Backend: Send + Sync + 'static {
    /// A short human-readable name, e.g. `host` or `NVIDIA H100 (device 0)`.
    fn name(&self) -> &str;
    /// The type of device this backend drives.
    fn device_type(&self) -> DeviceType;
    /// The device's number among the devices of its type.
    fn device_num(&self) -> usize;
    /// True when device memory is host memory ([`DevPtr`] is the host address): the runtime
    /// then neither allocates nor copies, and only keeps the present table.
    fn is_host(&self) -> bool;
    /// Allocates `bytes` bytes of device memory (`bytes > 0`).
    fn alloc(&self, bytes: usize) -> Result<DevPtr, String>;
    /// Host memory mapped for the device to hold the device copy of `bytes` bytes of an array
    /// that a synchronous compute region's kernels only store to (the code generator found
    /// every mention of it in the region an element assignment): [`h2d`](Self::h2d) and
    /// [`d2h`](Self::d2h) of it are host copies, and the kernel's stores need no copy after
    /// it. Freed by [`free`](Self::free). `None` where the backend gives none (the default).
    fn alloc_hosted(&self, bytes: usize) -> Option<DevPtr> {
        let _ = bytes;
        None
    }
    /// Frees memory returned by [`alloc`](Self::alloc) or [`alloc_hosted`](Self::alloc_hosted).
    ///
    /// # Safety
    /// `ptr` came from `alloc` on this backend, was not freed yet, and no pending or later
    /// device work uses it.
    unsafe fn free(&self, ptr: DevPtr) -> Result<(), String>;
    /// Copies `bytes` bytes from host memory at `src` to device memory at `dst`.
    ///
    /// # Safety
    /// `src` is valid for reads of `bytes` bytes; `dst` lies in a live allocation of this
    /// backend with room for `bytes` bytes.
    unsafe fn h2d(&self, dst: DevPtr, src: *const u8, bytes: usize) -> Result<(), String>;
    /// [`h2d`](Self::h2d) of the data of a synchronous compute region, whose launch comes
    /// next: the host memory is the caller's again on return, and the copy may still be on
    /// its way, ordered before the later synchronous work (launches, copies, frees) but not
    /// before work on async queues. The default copies at once.
    ///
    /// # Safety
    /// As for [`h2d`](Self::h2d); no work on an async queue uses `dst` before the synchronous
    /// path's next synchronisation.
    unsafe fn h2d_before_launch(&self, dst: DevPtr, src: *const u8, bytes: usize) -> Result<(), String> {
        // SAFETY: the caller's contract is `h2d`'s.
        unsafe { self.h2d(dst, src, bytes) }
    }
    /// Synchronous compute region `region` created the device copy of `bytes` bytes at `dev`
    /// and copies it back when it ends: each later synchronous launch of this thread may copy
    /// it to the host right behind its kernel, for [`d2h`](Self::d2h) of those bytes to take
    /// (until [`forget_downloads_behind`](Self::forget_downloads_behind)). The default does
    /// nothing.
    fn download_behind_launch(&self, region: &'static crate::region_info::RegionInfo, dev: DevPtr, bytes: usize) -> Result<(), String> {
        let _ = (region, dev, bytes);
        Ok(())
    }
    /// Gives back this thread's requests of
    /// [`download_behind_launch`](Self::download_behind_launch) (its region has ended).
    fn forget_downloads_behind(&self) {}
    /// Keeps device memory `dev`, which holds the bytes of `host` (a synchronous compute
    /// region's copy of the array, just copied back), for [`take_copy`](Self::take_copy) with
    /// the same `key` (the region's and the array name's addresses) at the region's next call;
    /// false where it does not, and the caller frees it. The default does not.
    ///
    /// # Safety
    /// `dev` came from this backend's [`alloc`](Self::alloc) for `host.len()` bytes equal to
    /// `host`, no pending work uses it, and the caller gives it up.
    unsafe fn keep_copy(&self, key: (usize, usize), dev: DevPtr, host: &[u8]) -> bool {
        let _ = (key, dev, host);
        false
    }
    /// The device memory [`keep_copy`](Self::keep_copy) kept under `key` for `host.len()`
    /// bytes: its address and whether it holds `host`'s bytes (else the caller copies them
    /// there). The caller owns it from then on, as memory from [`alloc`](Self::alloc).
    fn take_copy(&self, key: (usize, usize), host: &[u8]) -> Option<(DevPtr, bool)> {
        let _ = (key, host);
        None
    }
    /// Copies `bytes` bytes from device memory at `src` to host memory at `dst`.
    ///
    /// # Safety
    /// `dst` is valid for writes of `bytes` bytes and not accessed by anyone else during the
    /// call; `src` lies in a live allocation of this backend with `bytes` bytes after it.
    unsafe fn d2h(&self, dst: *mut u8, src: DevPtr, bytes: usize) -> Result<(), String>;
    /// Copies `bytes` bytes from device memory at `src` to device memory at `dst` of this
    /// backend (OpenACC's `acc_memcpy_device`), returning once the copy landed.
    ///
    /// # Safety
    /// `src` and `dst` lie in live allocations of this backend ([`alloc`](Self::alloc)'s, not
    /// [`alloc_hosted`](Self::alloc_hosted)'s) with `bytes` bytes after each, and the two
    /// ranges do not overlap.
    unsafe fn d2d(&self, dst: DevPtr, src: DevPtr, bytes: usize) -> Result<(), String>;
    /// Waits for the work queued on async queue `queue`.
    fn wait(&self, queue: i64) -> Result<(), String> {
        let _ = queue;
        Ok(())
    }
    /// Waits for the work queued on every async queue.
    fn wait_all(&self) -> Result<(), String> {
        Ok(())
    }
    /// Whether the work queued on async queue `queue` has completed, without waiting for it
    /// (OpenACC's `acc_async_test`); where it has, the queue is done as after a wait (a failure
    /// of that work is reported here, as [`wait`](Self::wait) would). The default (the host
    /// backend) is always done: its async work runs when it is queued.
    fn test(&self, queue: i64) -> Result<bool, String> {
        let _ = queue;
        Ok(true)
    }
    /// Whether the work queued on every async queue has completed, as [`test`](Self::test)
    /// of each (OpenACC's `acc_async_test_all`).
    fn test_all(&self) -> Result<bool, String> {
        Ok(true)
    }
    /// Waits for the synchronous launches that returned before their kernels ended (the CUDA
    /// backend's, `cuda/deferred.rs`), and reports a failure of this thread's among them. The
    /// default (the host backend) has none: its launches end before they return.
    fn wait_launches(&self) -> Result<(), String> {
        Ok(())
    }
    /// Makes async queue `queue` wait for the work queued so far on queue `on` (`None`: on
    /// every other queue) without the host waiting (OpenACC's `acc_wait_async`). The default
    /// (the host backend) has nothing to do: its async work is done when queued.
    fn wait_on(&self, queue: i64, on: Option<i64>) -> Result<(), String> {
        let _ = (queue, on);
        Ok(())
    }
    /// Why the device can no longer be used, if it cannot: a kernel trapped or faulted, and a
    /// CUDA context does not survive that. The runtime then reports the device lost.
    fn lost(&self) -> Option<String> {
        None
    }
    /// Free and total device memory in bytes; `None` where memory is the host's. Memory that
    /// the backend keeps for reuse after a free counts as free.
    fn memory(&self) -> Option<(usize, usize)> {
        None
    }
    /// Gives the memory kept for reuse after frees back to the device (`acc::shutdown`).
    fn release_kept(&self) -> Result<(), String> {
        Ok(())
    }
    /// Copies `bytes` bytes from host memory at `src` to device memory at `dst` in order with
    /// the work queued on async queue `queue` (after the kernels queued there before), and
    /// returns once the copy landed (the host memory is the caller's again; a failure of the
    /// work queued before is reported here). Other queues are not waited for. A backend
    /// without queues copies at once ([`h2d`](Self::h2d)).
    ///
    /// # Safety
    /// As for [`h2d`](Self::h2d), and only work queued on `queue` uses `dst` meanwhile.
    unsafe fn h2d_on(&self, dst: DevPtr, src: *const u8, bytes: usize, queue: i64) -> Result<(), String> {
        let _ = queue;
        // SAFETY: the caller's contract is `h2d`'s and more.
        unsafe { self.h2d(dst, src, bytes) }
    }
    /// Copies `bytes` bytes from device memory at `src` to host memory at `dst` in order with
    /// the work queued on async queue `queue` (the kernels of an async region that write
    /// `src`), returning once the copy landed. A backend without queues copies at once
    /// ([`d2h`](Self::d2h)).
    ///
    /// # Safety
    /// As for [`d2h`](Self::d2h).
    unsafe fn d2h_on(&self, dst: *mut u8, src: DevPtr, bytes: usize, queue: i64) -> Result<(), String> {
        let _ = queue;
        // SAFETY: the caller's contract is `d2h`'s.
        unsafe { self.d2h(dst, src, bytes) }
    }
    /// Frees `ptr` once the work queued on async queue `queue` so far has completed, without
    /// waiting for it (at once when the queue is idle). A backend without queues frees at
    /// once ([`free`](Self::free)).
    ///
    /// # Safety
    /// As for [`free`](Self::free), where "pending work" excludes the work queued on `queue`.
    unsafe fn free_after(&self, ptr: DevPtr, queue: i64) -> Result<(), String> {
        let _ = queue;
        // SAFETY: the caller's contract; a backend without queues has no pending work.
        unsafe { self.free(ptr) }
    }
}

/// The host backend: OpenACC's host device. Device memory is host memory, so the runtime
/// allocates nothing and copies nothing; async work runs synchronously.
#[derive(Debug, Default)]
pub struct HostBackend;

impl Backend for HostBackend {
    fn name(&self) -> &str {
        "host"
    }
    fn device_type(&self) -> DeviceType {
        DeviceType::Host
    }
    fn device_num(&self) -> usize {
        0
    }
    fn is_host(&self) -> bool {
        true
    }
    fn alloc(&self, bytes: usize) -> Result<DevPtr, String> {
        Err(format!(
            "the host backend shares host memory and allocates no device memory ({bytes} bytes asked)"
        ))
    }
    unsafe fn free(&self, _ptr: DevPtr) -> Result<(), String> {
        Ok(())
    }
    unsafe fn h2d(&self, dst: DevPtr, src: *const u8, bytes: usize) -> Result<(), String> {
        if dst.0 as usize != src as usize {
            // SAFETY: device addresses are host addresses here; the caller guarantees `src` is
            // readable and `dst` writable for `bytes` bytes. `copy` allows overlap.
            unsafe { std::ptr::copy(src, dst.0 as usize as *mut u8, bytes) };
        }
        Ok(())
    }
    unsafe fn d2h(&self, dst: *mut u8, src: DevPtr, bytes: usize) -> Result<(), String> {
        if dst as usize != src.0 as usize {
            // SAFETY: as in `h2d`, with the roles of the two addresses swapped.
            unsafe { std::ptr::copy(src.0 as usize as *const u8, dst, bytes) };
        }
        Ok(())
    }
    unsafe fn d2d(&self, dst: DevPtr, src: DevPtr, bytes: usize) -> Result<(), String> {
        // SAFETY: device addresses are host addresses here; the caller guarantees both ranges
        // are live for `bytes` bytes (and apart: `copy` would allow overlap anyway).
        unsafe { std::ptr::copy(src.0 as usize as *const u8, dst.0 as usize as *mut u8, bytes) };
        Ok(())
    }
}
