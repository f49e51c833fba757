//! What the GPU paths of generated region fns call (feature `cuda`): the launch shape from the
//! clauses and the device, the reduction partials buffer, and the launch itself. Every failure
//! is a panic naming the region (and, for a kernel panic, the kernel's source location).
//!
//! `geometry.rs`: the launch shape and what follows from it without a device; `kernels.rs`:
//! the modules and per-thread kernel cache; `recompile.rs`: kernels compiled again for a block
//! or a register limit; `partials.rs`: the reduction partials; `launch.rs`: the choice of
//! kernel, the grid and the launch.

use std::cell::RefCell;
use std::sync::Arc;

use crate::cuda::CudaBackend;
use crate::region_info::RegionInfo;

mod geometry;
pub(crate) mod hosttime;
mod kernels;
mod launch;
mod partials;
mod recompile;

pub use geometry::{elem_bytes, elem_size, Dims, Elements, Geometry, LeanKernel, Shape, CHUNK_WAVES, STREAM_WAVES};
pub use kernels::max_default_grid;
pub use launch::launch;
pub use partials::{value_slots, Partials};

thread_local! {
    /// `gpu_ready`'s finding for (region, PTX text).
    static READY: RefCell<kernels::AddrMap<(usize, usize), bool>> = RefCell::new(kernels::AddrMap::default());
}

/// Panics with `msg` about a failure on the calling thread's device, adding what a device
/// fault cost when it was one (the device is lost for the process and its data reported lost
/// by name: see [`crate::devices::Device::take_loss`]).
fn fail(msg: String) -> ! {
    match crate::devices::current().ok().and_then(|d| d.take_loss()) {
        Some(lost) => panic!("{msg}\nacc: {lost}"),
        None => panic!("{msg}"),
    }
}

/// The CUDA backend of the calling thread's device; panics naming `region` when its device
/// is not a CUDA device.
pub(crate) fn cuda_of(region: &RegionInfo) -> Arc<CudaBackend> {
    crate::devices::cuda_backend().unwrap_or_else(|| panic!("acc: {region}: the region's GPU path ran without a CUDA device"))
}

/// Whether region `region` runs its GPU path now: `if_cond` (its `if` and `self` clauses)
/// and the device is a GPU. Its kernels must be in the package's PTX (acc-build built them;
/// the region macro makes a region it did not see a compile error): a PTX without them is
/// a build that went wrong, and a panic naming the region, never a silent run on the host.
pub fn gpu_ready(region: &'static RegionInfo, if_cond: bool, ptx: &'static str, kernels: &[&str]) -> bool {
    if !if_cond || crate::devices::device_type() != crate::DeviceType::Nvidia {
        return false;
    }
    let key = (region as *const RegionInfo as usize, ptx.as_ptr() as usize);
    hosttime::region_call();
    if READY.with(|r| r.borrow().contains_key(&key)) {
        return true;
    }
    if let Some(k) = kernels.iter().find(|k| !crate::ptx_modules::defines(ptx, k)) {
        panic!("acc: {region}: kernel `{k}` is not in the package's PTX: rebuild with `--features cuda` (acc-build writes it)");
    }
    READY.with(|r| r.borrow_mut().insert(key, true));
    true
}
