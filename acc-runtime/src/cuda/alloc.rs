//! Owned allocations, freed when dropped: device memory the backend keeps for itself
//! ([`DeviceMem`]) and pinned host memory ([`PinnedHost`]).

use cudarc::driver::sys;

use super::driver::{self, Doing};
use super::error::CudaError;

/// Device memory the backend keeps for itself (the panic slots), freed when dropped (before
/// the context: the backend declares what holds it before its `ctx`).
#[derive(Debug)]
pub(crate) struct DeviceMem {
    ptr: u64,
}

impl DeviceMem {
    /// `bytes` bytes of device memory, for `what`.
    pub(crate) fn new(bytes: usize, what: &str) -> Result<Self, CudaError> {
        let ptr = driver::mem_alloc(bytes).doing(|| format!("allocating {bytes} bytes of device memory for {what}"))?;
        Ok(DeviceMem { ptr })
    }

    /// The device address.
    pub(crate) fn ptr(&self) -> u64 {
        self.ptr
    }
}

impl Drop for DeviceMem {
    fn drop(&mut self) {
        // SAFETY: allocated by `new`, freed once; its owner synchronised the context first.
        let _ = unsafe { driver::mem_free(self.ptr) };
    }
}

/// Pinned (page-locked) host memory, freed when dropped.
pub(crate) struct PinnedHost {
    ptr: *mut u8,
    bytes: usize,
}

// SAFETY: plain memory owned by whoever holds the value.
unsafe impl Send for PinnedHost {}
// SAFETY: as for `Send`; shared access hands out only the address.
unsafe impl Sync for PinnedHost {}

impl PinnedHost {
    /// `bytes` bytes of pinned memory (`flags` of `cuMemHostAlloc`), for `what`.
    pub(crate) fn new(bytes: usize, flags: u32, what: &str) -> Result<Self, CudaError> {
        let ptr = driver::mem_host_alloc(bytes, flags).doing(|| format!("allocating {bytes} bytes of pinned memory for {what}"))?;
        Ok(PinnedHost { ptr, bytes })
    }

    /// `bytes` bytes of pinned memory mapped into the device's address space, and their
    /// device address.
    pub(crate) fn mapped(bytes: usize, what: &str) -> Result<(Self, u64), CudaError> {
        let mem = Self::new(bytes, sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE, what)?;
        // SAFETY: allocated just above with `DEVICEMAP`; on an error `mem` drops, freed.
        let dev = unsafe { driver::mem_host_device_pointer(mem.ptr) }.doing(|| format!("mapping the pinned memory for {what}"))?;
        Ok((mem, dev))
    }

    /// The host address.
    pub(crate) fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }
}

impl Drop for PinnedHost {
    fn drop(&mut self) {
        // SAFETY: allocated by `new`, freed once; whoever held it made sure no pending work
        // uses it.
        let _ = unsafe { driver::mem_host_free(self.ptr) };
    }
}

impl std::fmt::Debug for PinnedHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PinnedHost({:p}, {} bytes)", self.ptr, self.bytes)
    }
}
