//! Device cells for the scalars a GPU kernel updates with `acc::atomic!` (`count += 1` on a
//! local declared before the loop): each scalar gets a 16-byte cell of device memory that
//! holds its value before the launch, the kernel's atomics update it, and its value after the
//! launch comes back to the local.
//!
//! Also the captured values of a launch past the 256 bytes a kernel parameter holds
//! ([`CapturedValues`]), and the device copies of a region-level `private`/`firstprivate` array that a kernel writes
//! ([`PrivateCopies`]): one copy for each group of threads that shares a trip of the nest's
//! outermost loop, filled from the original before the nest.

use crate::devices::{backend, Backend, DevPtr};
use crate::region_info::RegionInfo;
use std::sync::Arc;

/// Bytes of one cell (enough for any scalar).
const CELL: usize = 16;

/// Host values copied to device memory for one launch and freed after it: the atomics'
/// cells, the captured values past a kernel parameter.
struct Uploaded {
    /// The backend, looked up at the upload (a launch that uploads nothing costs nothing here).
    backend: Option<Arc<dyn Backend>>,
    ptr: u64,
}

impl Uploaded {
    const fn new() -> Self {
        Uploaded { backend: None, ptr: 0 }
    }

    /// Copies `src` to new device memory; returns its address. Panics naming `region` and
    /// `what` when the memory cannot be had or filled.
    fn upload<T: Copy>(&mut self, region: &RegionInfo, what: &str, src: &[T]) -> u64 {
        let bytes = std::mem::size_of_val(src);
        let b = self.backend.insert(backend());
        let ptr = b.alloc(bytes).unwrap_or_else(|e| panic!("acc: {region}: cannot allocate {what}: {e}"));
        self.ptr = ptr.0;
        // SAFETY: `ptr` holds `bytes` bytes, `src` as many.
        unsafe { b.h2d(ptr, src.as_ptr().cast(), bytes) }.unwrap_or_else(|e| panic!("acc: {region}: cannot copy {what}: {e}"));
        self.ptr
    }
}

impl Drop for Uploaded {
    fn drop(&mut self) {
        if let (Some(b), true) = (&self.backend, self.ptr != 0) {
            // SAFETY: allocated in `upload`, freed once, after the launch (the free waits for
            // the queues).
            let _ = unsafe { b.free(DevPtr(self.ptr)) };
        }
    }
}

/// The cells of one launch.
pub struct Cells {
    region: &'static RegionInfo,
    host: Vec<u128>,
    mem: Uploaded,
}

impl Cells {
    /// Room for `n` cells (no device memory when `n == 0`).
    pub fn new(region: &'static RegionInfo, n: usize) -> Self {
        Cells { region, host: vec![0; n], mem: Uploaded::new() }
    }

    /// Puts `v` in cell `i` (before [`upload`](Self::upload)).
    pub fn set<T: Copy>(&mut self, i: usize, v: &T) {
        const { assert!(std::mem::size_of::<T>() <= CELL) };
        // SAFETY: cell `i` holds 16 bytes, 16-byte aligned; `T` fits and is `Copy`.
        unsafe { self.host[i..][..1].as_mut_ptr().cast::<T>().write(*v) };
    }

    /// Copies the cells to the device; returns their device address (0 when there are none).
    pub fn upload(&mut self) -> u64 {
        if self.host.is_empty() {
            return 0;
        }
        self.mem.upload(self.region, "the atomics' cells", &self.host)
    }

    /// Reads the cells back after the launch (a synchronous copy to the host: it waits for
    /// the launch first, on whichever queue it went).
    pub fn download(&mut self) {
        let (Some(b), true) = (&self.mem.backend, self.mem.ptr != 0) else { return };
        let region = self.region;
        let bytes = self.host.len() * CELL;
        // SAFETY: the buffer `upload` allocated and filled, `bytes` long.
        unsafe { b.d2h(self.host.as_mut_ptr().cast(), DevPtr(self.mem.ptr), bytes) }.unwrap_or_else(|e| panic!("acc: {region}: cannot read the atomics' cells: {e}"));
    }

    /// The value of cell `i`, of the type of `like`.
    pub fn get<T: Copy>(&self, i: usize, like: &T) -> T {
        let _ = like;
        const { assert!(std::mem::size_of::<T>() <= CELL) };
        // SAFETY: as in `set`; the cell holds a `T` (set, then updated by the kernel).
        unsafe { self.host[i..][..1].as_ptr().cast::<T>().read() }
    }
}

/// The values a kernel captures from the host code around its nest (`acc_device::Captures`),
/// laid out as the kernel reads them: in the kernel parameter where they fit its 256 bytes,
/// else in device memory filled before the launch (a local array of a few hundred elements, a
/// large array reduction's value before the loop), freed after it.
pub struct CapturedValues {
    region: &'static RegionInfo,
    bytes: Vec<u8>,
    mem: Uploaded,
}

impl CapturedValues {
    /// No values yet.
    pub fn new(region: &'static RegionInfo) -> Self {
        CapturedValues { region, bytes: Vec::new(), mem: Uploaded::new() }
    }

    /// Appends `v` at its alignment (`Captures::slot`).
    pub fn put<T: Copy>(&mut self, v: &T) {
        let (start, end) = acc_device::Captures::slot::<T>(self.bytes.len());
        self.bytes.resize(end, 0);
        // SAFETY: `start..end` is within `bytes` (just resized); the write is unaligned-safe
        // and `T: Copy` has no drop glue.
        unsafe { (self.bytes.as_mut_ptr().add(start) as *mut T).write_unaligned(*v) };
    }

    /// The kernel parameter: the values inline, or their copy in device memory.
    pub fn upload(&mut self) -> acc_device::Captures {
        if let Some(c) = acc_device::Captures::inline(&self.bytes) {
            return c;
        }
        let len = self.bytes.len();
        let ptr = self.mem.upload(self.region, &format!("the values the kernel captures ({len} bytes)"), &self.bytes);
        acc_device::Captures::spilled(ptr, len)
    }
}

/// The device copies of a region-level `private`/`firstprivate` array that a kernel writes
/// (`&mut [T]`): one copy of `bytes` bytes for each group of threads that runs a trip of the
/// nest's outermost loop together (a gang whose lanes share its trips, else each lane), which
/// the kernel fills from the original before the nest (`acc_device::private_copy`). The
/// original is never written, as on the host backend.
pub struct PrivateCopies {
    region: &'static RegionInfo,
    backend: Option<Arc<dyn Backend>>,
    ptr: u64,
}

/// The most device memory the copies of one array may take: a launch with larger copies runs
/// fewer gangs.
const PRIVATE_BUDGET: usize = 1 << 30;

impl PrivateCopies {
    /// Copies of `bytes` bytes for the launch `geom`, whose vector lanes / workers share the
    /// outermost loop's trips as `share` says; limits its gangs (unless `num_gangs` sets them)
    /// so that the copies fit `PRIVATE_BUDGET`.
    pub fn new(region: &'static RegionInfo, bytes: usize, share: (bool, bool), geom: &mut crate::gpu::Geometry) -> Self {
        if bytes == 0 {
            return PrivateCopies { region, backend: None, ptr: 0 };
        }
        let (bx, by) = geom.block_xy();
        let per_block = if share.0 { 1 } else { bx as usize } * if share.1 { 1 } else { by as usize };
        let per_gang = per_block.saturating_mul(bytes);
        let gangs = if geom.shape.serial {
            1
        } else if geom.shape.num_gangs > 0 {
            geom.shape.num_gangs
        } else {
            let fit = (PRIVATE_BUDGET / per_gang).max(1);
            let most = crate::gpu::max_default_grid(&crate::gpu::cuda_of(region));
            if fit < most {
                geom.shape.num_gangs = fit;
            }
            fit.min(most)
        };
        let total = gangs.checked_mul(per_gang).unwrap_or_else(|| panic!("acc: {region}: private copies of {bytes} bytes for {gangs} gangs overflow"));
        let b = backend();
        let ptr = b.alloc(total).unwrap_or_else(|e| panic!("acc: {region}: cannot allocate {total} bytes for the private copies: {e}"));
        PrivateCopies { region, backend: Some(b), ptr: ptr.0 }
    }

    /// The copies' device address (0 when empty).
    pub fn device_ptr(&self) -> u64 {
        self.ptr
    }
}

impl Drop for PrivateCopies {
    fn drop(&mut self) {
        if let (Some(b), true) = (&self.backend, self.ptr != 0) {
            // SAFETY: allocated in `new`, freed once, after the launch (the free waits for the
            // queues).
            if let Err(e) = unsafe { b.free(DevPtr(self.ptr)) } {
                eprintln!("acc: {}: cannot free the private copies: {e}", self.region);
            }
        }
    }
}
