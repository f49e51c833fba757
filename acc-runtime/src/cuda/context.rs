//! The driver, its devices and their primary contexts: [`init_driver`], [`device_count`],
//! [`DeviceProps`], and [`PrimaryContext`], a retained primary context released when dropped.

use cudarc::driver::sys;

use super::driver::{self, Doing};
use super::error::CudaError;

/// Loads the driver library and initialises it.
pub(crate) fn init_driver() -> Result<(), CudaError> {
    if !driver::library_present() {
        return Err(CudaError::Unavailable(
            "the CUDA driver library (libcuda.so) was not found; install the NVIDIA driver, or run on \
             the host backend (ACC_DEVICE_TYPE=host)"
                .into(),
        ));
    }
    driver::init().doing(|| "initialising the CUDA driver".into())
}

/// What the driver says of device `num` without a context (OpenACC's `acc_get_property` of
/// an NVIDIA device): its name, its memory in bytes, and the CUDA version the driver supports
/// (`cuDriverGetVersion`: `1000 * major + 10 * minor`).
pub(crate) fn device_facts(num: usize) -> Result<(String, usize, i32), CudaError> {
    init_driver()?;
    let ordinal = i32::try_from(num).map_err(|_| CudaError::Unavailable(format!("there is no CUDA device {num}")))?;
    let dev = driver::device(ordinal).doing(|| format!("finding CUDA device {num}"))?;
    let name = driver::device_name(dev).doing(|| "naming the device".into())?;
    let total = driver::device_total_mem(dev).doing(|| "reading the memory size".into())?;
    let version = driver::driver_version().doing(|| "reading the driver's CUDA version".into())?;
    Ok((name, total, version))
}

/// The number of CUDA devices the driver reports; 0 without a driver.
pub fn device_count() -> usize {
    if init_driver().is_err() {
        return 0;
    }
    driver::device_count().map_or(0, |n| n.max(0) as usize)
}

/// What the backend knows about its device.
#[derive(Clone, Debug)]
pub struct DeviceProps {
    /// The driver's name for the device (`NVIDIA H100 80GB HBM3`).
    pub name: String,
    /// Compute capability (major, minor).
    pub compute_capability: (i32, i32),
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// Most threads a block may have.
    pub max_threads_per_block: u32,
    /// Most dynamic shared memory a block may have once a kernel opts in (bytes).
    pub max_shared_per_block_optin: u32,
    /// Device memory (bytes).
    pub total_mem: usize,
}

impl DeviceProps {
    /// The properties of device `dev`.
    pub(crate) fn query(dev: sys::CUdevice) -> Result<Self, CudaError> {
        use sys::CUdevice_attribute::*;
        let attr = |a: sys::CUdevice_attribute| driver::device_attribute(dev, a).doing(|| format!("reading {a:?}"));
        Ok(DeviceProps {
            name: driver::device_name(dev).doing(|| "naming the device".into())?,
            compute_capability: (
                attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            ),
            sm_count: attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32,
            max_threads_per_block: attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)? as u32,
            max_shared_per_block_optin: attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)? as u32,
            total_mem: driver::device_total_mem(dev).doing(|| "reading the memory size".into())?,
        })
    }
}

/// Device `num`'s primary context (shared with other CUDA users of the process), retained
/// while this lives: released when it drops.
pub(crate) struct PrimaryContext {
    dev: sys::CUdevice,
    ctx: sys::CUcontext,
}

// SAFETY: a context handle is usable from any thread (each makes it current before use).
unsafe impl Send for PrimaryContext {}
// SAFETY: as for `Send`; the handles are never mutated.
unsafe impl Sync for PrimaryContext {}

impl PrimaryContext {
    /// Opens device `num`: its primary context retained, with the scheduling mode of
    /// `ACC_CUDA_SCHED` (see [`set_scheduling`]), and current on this thread.
    pub(crate) fn open(num: usize) -> Result<Self, CudaError> {
        init_driver()?;
        let count = driver::device_count().doing(|| "counting devices".into())?;
        if num >= count.max(0) as usize {
            return Err(CudaError::Unavailable(if count == 0 {
                "the CUDA driver reports no device".into()
            } else {
                format!("no CUDA device {num} (the driver reports {count})")
            }));
        }
        let dev = driver::device(num as i32).doing(|| format!("opening device {num}"))?;
        set_scheduling(dev)?;
        // SAFETY: `dev` is a valid device handle; the retain is released in `Drop`.
        let ctx = unsafe { driver::primary_ctx_retain(dev) }.doing(|| format!("opening device {num}"))?;
        let ctx = PrimaryContext { dev, ctx };
        ctx.make_current().doing(|| format!("opening device {num}"))?;
        Ok(ctx)
    }

    /// The device handle.
    pub(crate) fn device(&self) -> sys::CUdevice {
        self.dev
    }

    /// Makes the context current on this thread. Every call of the backend does this first
    /// (another library, or acc on another device, may have changed the thread's context);
    /// where it is current already, asking is cheaper than setting it (12 against 28 ns on
    /// the GPU machine).
    pub(crate) fn make_current(&self) -> driver::Driven<()> {
        if driver::ctx_get_current().is_ok_and(|c| c == self.ctx) {
            return Ok(());
        }
        // SAFETY: the context stays retained while `self` lives.
        unsafe { driver::ctx_set_current(self.ctx) }
    }
}

impl Drop for PrimaryContext {
    fn drop(&mut self) {
        // SAFETY: the retain of `open`, released once; the backend that owned it dropped
        // everything made in the context before (its fields drop before this one).
        let _ = unsafe { driver::primary_ctx_release(self.dev) };
    }
}

/// The scheduling mode `ACC_CUDA_SCHED` asks for (see [`set_scheduling`]).
fn scheduling() -> Result<sys::CUctx_flags, CudaError> {
    use sys::CUctx_flags::*;
    match std::env::var("ACC_CUDA_SCHED").ok().as_deref().map(str::trim) {
        None | Some("") | Some("spin") => Ok(CU_CTX_SCHED_SPIN),
        Some("yield") => Ok(CU_CTX_SCHED_YIELD),
        Some("blocking") => Ok(CU_CTX_SCHED_BLOCKING_SYNC),
        Some("auto") => Ok(CU_CTX_SCHED_AUTO),
        Some(other) => Err(CudaError::Invalid(format!(
            "ACC_CUDA_SCHED=`{other}` is not a scheduling mode; accepted values: `spin` (the default), `yield`, `blocking`, `auto`"
        ))),
    }
}

/// Whether a thread waiting for the device spins (`ACC_CUDA_SCHED=spin`, the default): the
/// backend's own waits then spin too (`done.rs`).
pub(crate) fn waits_by_spinning() -> bool {
    matches!(scheduling(), Ok(sys::CUctx_flags::CU_CTX_SCHED_SPIN))
}

/// How a thread waiting for the device waits: `ACC_CUDA_SCHED=spin` (the default: the
/// lowest latency, a core busy while it waits), `yield`, `blocking` (the thread sleeps until
/// an interrupt: several microseconds more per synchronisation) or `auto` (the driver's
/// choice). Set on the device's primary context before it is retained; a primary context
/// already active in the process (another CUDA user made it) keeps its own flags.
fn set_scheduling(dev: sys::CUdevice) -> Result<(), CudaError> {
    use sys::CUctx_flags::*;
    let want = scheduling()?;
    if let Ok((flags, false)) = driver::primary_ctx_state(dev) {
        let flags = (flags & !(CU_CTX_SCHED_MASK as u32)) | want as u32;
        // A failure leaves the driver's default, which works.
        let _ = driver::primary_ctx_set_flags(dev, flags);
    }
    Ok(())
}
