//! The CUDA backend (feature `cuda`): device memory, transfers, PTX modules, kernel launches,
//! async queues and kernel panics, through the CUDA driver API (`cudarc`, loaded at run time:
//! the crate builds without CUDA installed, and a machine without a driver gets a clear
//! error).
//!
//! ```no_run
//! use acc_runtime::cuda::{CudaBackend, KernelArgs, LaunchConfig};
//! let gpu = CudaBackend::new(0)?;
//! let module = gpu.load_ptx(include_str!("../../tests/fixtures/vadd_kernel.ptx"))?;
//! let n = 1 << 20;
//! let (a, b, c) = (gpu.alloc_bytes(4 * n)?, gpu.alloc_bytes(4 * n)?, gpu.alloc_bytes(4 * n)?);
//! // ... copy the inputs with `h2d` ...
//! let mut args = KernelArgs::new();
//! args.slice(a, n).slice(b, n).slice(c, n);
//! let grid = gpu.default_grid(&module, "acc_k_vadd", 256, 0, n)?;
//! gpu.launch(&module, "acc_k_vadd", LaunchConfig::linear(grid, 256), &mut args)?;
//! # Ok::<(), acc_runtime::cuda::CudaError>(())
//! ```
//!
//! # Layers
//! `cudarc::driver::sys` (raw driver calls) -> `check` (every call checked, its name and
//! what the backend was doing kept in the error) -> [`CudaBackend`] (safe methods, and the
//! runtime's [`Backend`] interface).
//!
//! # Launches
//! A launch path looks a kernel up once ([`CudaBackend::kernel`]) and launches the handle
//! ([`CudaBackend::launch_kernel`]): a synchronous launch is a `cuLaunchKernel` and a
//! `cuStreamSynchronize` on the backend's stream, spin-waited (`ACC_CUDA_SCHED`, see
//! [`CudaBackend::new`]). Reduction partials live in pinned host memory mapped for the device
//! ([`CudaBackend::take_mapped`]): the host reads them where the kernel wrote them.
//!
//! # Async queues
//! Queue `q` (OpenACC's `async(q)`; -1 the default queue) is a non-blocking stream, made at
//! first use. A launch or copy on it returns at once and marks the queue busy; a wait
//! ([`CudaBackend::wait_queue`]) synchronises the stream, reports a failure of the work on it
//! (naming the regions whose kernels it ran since its last wait), and frees the memory given
//! to [`CudaBackend::free_after`] meanwhile. Synchronous copies to the host and frees wait for
//! the busy queues first, so that they never race with queued kernels.
//!
//! # Kernel panics
//! Each loaded module's global `ACC_PANIC_BUF` is set to a host-mapped
//! [`PanicRecord`]. A kernel that panics fills it and traps;
//! the failed synchronisation then reads it and returns [`CudaError::KernelPanic`] with the
//! kernel's name, the file, line and column, and the message. A trap ends the CUDA context
//! for good (the driver keeps a context with a sticky error unusable until the process ends;
//! a reset of the primary context does not bring it back): later calls return
//! [`CudaError::Poisoned`].

mod error;
mod launch;

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use acc_device::panic::PanicRecord;
use cudarc::driver::result::DriverError;
use cudarc::driver::{result, sys};

pub use error::CudaError;
pub use launch::{KernelArgs, LaunchConfig};

use crate::backend::{Backend, DevPtr, DeviceType};
use crate::region_info::RegionInfo;

/// Turns a driver status into a `Result`, naming the call and what the backend was doing.
fn check(call: &'static str, r: sys::CUresult, doing: impl FnOnce() -> String) -> Result<(), CudaError> {
    r.result().map_err(|e| CudaError::driver(call, e, doing()))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The number of CUDA devices the driver reports; 0 without a driver.
pub fn device_count() -> usize {
    if init_driver().is_err() {
        return 0;
    }
    result::device::get_count().map_or(0, |n| n.max(0) as usize)
}

/// Loads the driver library and initialises it.
fn init_driver() -> Result<(), CudaError> {
    // SAFETY: probing for the library has no precondition.
    if !unsafe { sys::is_culib_present() } {
        return Err(CudaError::Unavailable(
            "the CUDA driver library (libcuda.so) was not found; install the NVIDIA driver, or run on \
             the host backend (ACC_DEVICE_TYPE=host)"
                .into(),
        ));
    }
    result::init().map_err(|e| CudaError::driver("cuInit", e, "initialising the CUDA driver"))
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

/// A loaded PTX module and the kernels looked up in it.
pub struct Module {
    module: sys::CUmodule,
    /// Kernel handles by name, and the dynamic shared memory each was opened up to.
    functions: Mutex<HashMap<String, (sys::CUfunction, u32)>>,
}

// SAFETY: module and function handles are plain driver handles, usable from any thread whose
// current context is theirs (the backend makes it current in every call).
unsafe impl Send for Module {}
// SAFETY: as for `Send`; the function table is behind a mutex.
unsafe impl Sync for Module {}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Module").field("module", &self.module).finish_non_exhaustive()
    }
}

/// An async queue: its stream and what was queued on it since it was last waited for.
struct Queue {
    stream: sys::CUstream,
    /// Work queued since the last completed wait (counted in [`CudaBackend::busy_queues`]).
    busy: bool,
    /// Bumped by every launch and copy queued here: a wait that began before one leaves the
    /// queue busy.
    seq: u64,
    /// The regions and kernels launched since the last wait, oldest first, each once (at
    /// most [`QUEUE_LABELS`]): a failure found by a wait names them.
    launched: Vec<(Option<&'static RegionInfo>, Arc<str>)>,
    /// Device memory to free once the work queued up to `seq` has completed.
    frees: Vec<(u64, u64)>,
}

/// How many distinct (region, kernel) pairs a queue remembers between waits.
const QUEUE_LABELS: usize = 8;

/// A kernel looked up once ([`CudaBackend::kernel`]) and launched any number of times with
/// [`CudaBackend::launch_kernel`], without looking it up again.
#[derive(Clone)]
pub struct Kernel {
    func: sys::CUfunction,
    name: Arc<str>,
    /// The dynamic shared memory the kernel was opened up to.
    shared: u32,
    /// How many parameters the kernel takes, when its PTX is known
    /// ([`with_params_from`](Kernel::with_params_from)): a launch with another number of
    /// arguments is refused instead of letting the driver read past the argument array (a
    /// PTX older than the host code, a hand-written launch).
    params: Option<usize>,
    /// The most threads a block of this kernel can have (its registers per thread decide).
    max_threads: u32,
    /// Keeps the module's handle in use alongside the function's.
    _module: Arc<Module>,
}

// SAFETY: a function handle is a plain driver handle, usable from any thread whose current
// context is its module's (the backend makes it current in every call).
unsafe impl Send for Kernel {}
// SAFETY: as for `Send`; the handle is never mutated.
unsafe impl Sync for Kernel {}

impl Kernel {
    /// The same kernel, checking each launch's argument count against its parameters in
    /// `ptx`, the text its module was loaded from.
    pub fn with_params_from(mut self, ptx: &str) -> Self {
        self.params = ptx_param_count(ptx, &self.name);
        self
    }

    /// The most threads a block of this kernel can have: fewer than the device's 1024 when
    /// the kernel needs many registers per thread.
    pub fn max_threads(&self) -> u32 {
        self.max_threads
    }

    /// The kernel's entry name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel").field("name", &self.name).field("shared", &self.shared).finish_non_exhaustive()
    }
}

/// Pinned host memory mapped into the device's address space: the device writes it, the host
/// reads it once the writing work has completed, with no copy (reduction partials).
#[derive(Debug)]
pub struct MappedBuf {
    /// The host address.
    pub host: *mut u8,
    /// The device address of the same bytes.
    pub dev: u64,
    /// Its size in bytes.
    pub bytes: usize,
}

// SAFETY: plain pinned memory owned by whoever holds the buffer; the backend hands each
// buffer to one holder at a time.
unsafe impl Send for MappedBuf {}

/// The smallest mapped buffer the backend allocates (one holds 4096 partials of 16 bytes).
const MAPPED_MIN: usize = 64 << 10;
/// How many mapped buffers the backend keeps for reuse.
const MAPPED_KEEP: usize = 8;

/// Unique numbers for backends (a new backend may reuse a dropped one's address).
static BACKEND_IDS: AtomicU64 = AtomicU64::new(1);

/// Pinned host buffers for large transfers (opt-in, see
/// [`CudaBackend::set_staged_transfers`]), used alternately so that the copy into one
/// overlaps the DMA from the other.
struct Staging {
    bufs: [*mut u8; 2],
    done: [sys::CUevent; 2],
}

/// Transfers at least this large go through the pinned staging buffers.
const STAGING_MIN: usize = 4 << 20;
/// The size of each staging buffer.
const STAGING_CHUNK: usize = 8 << 20;

/// One CUDA device, its primary context, and what acc keeps with it.
pub struct CudaBackend {
    /// Unique among the backends of the process (caches of handles are keyed by it).
    id: u64,
    num: usize,
    dev: sys::CUdevice,
    ctx: sys::CUcontext,
    label: String,
    props: DeviceProps,
    /// The stream of synchronous work.
    sync_stream: sys::CUstream,
    /// Async queues by number.
    queues: Mutex<HashMap<i64, Queue>>,
    /// How many queues are busy (work queued since their last wait): synchronous transfers
    /// to the host and frees wait for them first.
    busy_queues: AtomicUsize,
    /// Mapped buffers for reuse ([`CudaBackend::take_mapped`]).
    mapped: Mutex<Vec<MappedBuf>>,
    /// Loaded modules by a hash of their PTX text.
    modules: Mutex<HashMap<(u64, usize), Arc<Module>>>,
    /// The host-mapped panic record: host and device addresses.
    panic_host: *mut PanicRecord,
    panic_dev: sys::CUdeviceptr,
    staging: Mutex<Option<Staging>>,
    /// Whether large transfers are staged (see [`CudaBackend::set_staged_transfers`]).
    staged: std::sync::atomic::AtomicBool,
    /// Set once a kernel trapped or faulted: the context is gone.
    poisoned: Mutex<Option<String>>,
    /// Whether `poisoned` is set (checked by every call without taking the lock).
    is_poisoned: AtomicBool,
}

// SAFETY: the handles are driver objects the driver lets any thread use once the context is
// current (every method makes it current); the mutable state is behind mutexes; the panic
// record is only read by the host after the device finished with it.
unsafe impl Send for CudaBackend {}
// SAFETY: as for `Send`.
unsafe impl Sync for CudaBackend {}

impl std::fmt::Debug for CudaBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaBackend").field("device", &self.label).finish_non_exhaustive()
    }
}

impl CudaBackend {
    /// Opens device `num` (its primary context, shared with other CUDA users of the process).
    /// A thread that waits for the device spins (`ACC_CUDA_SCHED=spin`, the default), or
    /// yields (`yield`), or sleeps (`blocking`: measured 46 us per launch and wait instead of
    /// 9.5 us on an H100), or lets the driver choose (`auto`).
    pub fn new(num: usize) -> Result<Self, CudaError> {
        init_driver()?;
        let count = result::device::get_count().map_err(|e| CudaError::driver("cuDeviceGetCount", e, "counting devices"))?;
        if num >= count.max(0) as usize {
            return Err(CudaError::Unavailable(if count == 0 {
                "the CUDA driver reports no device".into()
            } else {
                format!("no CUDA device {num} (the driver reports {count})")
            }));
        }
        let dev = result::device::get(num as i32).map_err(|e| CudaError::driver("cuDeviceGet", e, format!("opening device {num}")))?;
        Self::set_scheduling(dev)?;
        // SAFETY: `dev` is a valid device handle; the retained context is released in `Drop`.
        let ctx = unsafe { result::primary_ctx::retain(dev) }
            .map_err(|e| CudaError::driver("cuDevicePrimaryCtxRetain", e, format!("opening device {num}")))?;
        // SAFETY: `ctx` was just retained.
        unsafe { result::ctx::set_current(ctx) }
            .map_err(|e| CudaError::driver("cuCtxSetCurrent", e, format!("opening device {num}")))?;
        let props = Self::query(dev)?;
        let sync_stream = result::stream::create(result::stream::StreamKind::NonBlocking)
            .map_err(|e| CudaError::driver("cuStreamCreate", e, "creating the synchronous stream"))?;
        let (panic_host, panic_dev) = Self::map_panic_record()?;
        Ok(CudaBackend {
            id: BACKEND_IDS.fetch_add(1, Ordering::Relaxed),
            num,
            dev,
            ctx,
            label: format!("{} (device {num})", props.name),
            props,
            sync_stream,
            queues: Mutex::new(HashMap::new()),
            busy_queues: AtomicUsize::new(0),
            mapped: Mutex::new(Vec::new()),
            modules: Mutex::new(HashMap::new()),
            panic_host,
            panic_dev,
            staging: Mutex::new(None),
            staged: std::sync::atomic::AtomicBool::new(std::env::var_os("ACC_CUDA_STAGING").is_some_and(|v| v == "1")),
            poisoned: Mutex::new(None),
            is_poisoned: AtomicBool::new(false),
        })
    }

    /// How a thread waiting for the device waits: `ACC_CUDA_SCHED=spin` (the default: the
    /// lowest latency, a core busy while it waits), `yield`, `blocking` (the thread sleeps
    /// until an interrupt: several microseconds more per synchronisation) or `auto` (the
    /// driver's choice). Set on the device's primary context before it is retained; a
    /// primary context already active in the process (another CUDA user made it) keeps its
    /// own flags.
    fn set_scheduling(dev: sys::CUdevice) -> Result<(), CudaError> {
        use sys::CUctx_flags::*;
        let want = match std::env::var("ACC_CUDA_SCHED").ok().as_deref().map(str::trim) {
            None | Some("") | Some("spin") => CU_CTX_SCHED_SPIN,
            Some("yield") => CU_CTX_SCHED_YIELD,
            Some("blocking") => CU_CTX_SCHED_BLOCKING_SYNC,
            Some("auto") => CU_CTX_SCHED_AUTO,
            Some(other) => {
                return Err(CudaError::Invalid(format!(
                    "ACC_CUDA_SCHED=`{other}` is not a scheduling mode; accepted values: `spin` (the default), `yield`, `blocking`, `auto`"
                )))
            }
        };
        let (mut flags, mut active) = (0u32, 0i32);
        // SAFETY: a valid device handle and two local out-parameters.
        let state = unsafe { sys::cuDevicePrimaryCtxGetState(dev, &mut flags, &mut active) };
        if state == sys::CUresult::CUDA_SUCCESS && active == 0 {
            let flags = (flags & !(CU_CTX_SCHED_MASK as u32)) | want as u32;
            // SAFETY: a valid device handle; the flags are the context's own with the
            // scheduling bits replaced. A failure leaves the driver's default, which works.
            let _ = unsafe { sys::cuDevicePrimaryCtxSetFlags_v2(dev, flags) };
        }
        Ok(())
    }

    /// A number that identifies this backend among all the backends the process opened,
    /// even one at the same address after this one dropped.
    pub fn id(&self) -> u64 {
        self.id
    }

    fn query(dev: sys::CUdevice) -> Result<DeviceProps, CudaError> {
        use sys::CUdevice_attribute::*;
        let attr = |a: sys::CUdevice_attribute| -> Result<i32, CudaError> {
            // SAFETY: `dev` is a valid device handle.
            unsafe { result::device::get_attribute(dev, a) }
                .map_err(|e| CudaError::driver("cuDeviceGetAttribute", e, format!("reading {a:?}")))
        };
        Ok(DeviceProps {
            name: result::device::get_name(dev).map_err(|e| CudaError::driver("cuDeviceGetName", e, "naming the device"))?,
            compute_capability: (
                attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            ),
            sm_count: attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32,
            max_threads_per_block: attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)? as u32,
            max_shared_per_block_optin: attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)? as u32,
            // SAFETY: `dev` is a valid device handle.
            total_mem: unsafe { result::device::total_mem(dev) }
                .map_err(|e| CudaError::driver("cuDeviceTotalMem", e, "reading the memory size"))?,
        })
    }

    /// Allocates the host-mapped panic record, zeroed; returns its host and device addresses.
    fn map_panic_record() -> Result<(*mut PanicRecord, sys::CUdeviceptr), CudaError> {
        let size = std::mem::size_of::<PanicRecord>();
        let flags = sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE;
        // SAFETY: a plain pinned allocation; it is initialised right below.
        let host = unsafe { result::malloc_host(size, flags) }
            .map_err(|e| CudaError::driver("cuMemHostAlloc", e, "allocating the panic record"))?
            .cast::<PanicRecord>();
        // SAFETY: `host` points to `size` writable bytes, aligned for any type.
        unsafe { host.write_volatile(PanicRecord::ZERO) };
        let mut dev = 0;
        // SAFETY: `host` came from `cuMemHostAlloc` with `DEVICEMAP`.
        check("cuMemHostGetDevicePointer", unsafe { sys::cuMemHostGetDevicePointer_v2(&mut dev, host.cast(), 0) }, || {
            "mapping the panic record".into()
        })?;
        Ok((host, dev))
    }

    /// Large transfers (4 MiB and more) go through two pinned staging buffers when `on`
    /// (`ACC_CUDA_STAGING=1`), else straight from pageable memory (the default). Measured on
    /// an H100 (Firecracker VM, 256 MiB): staged h2d 9.1 GB/s, d2h 8.8 GB/s; direct h2d
    /// 9.7 GB/s, d2h 15.7 GB/s: the driver's own staging wins there.
    pub fn set_staged_transfers(&self, on: bool) {
        self.staged.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    fn staged(&self, bytes: usize) -> bool {
        bytes >= STAGING_MIN && self.staged.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The device's properties.
    pub fn props(&self) -> &DeviceProps {
        &self.props
    }

    /// The number of streaming multiprocessors (for default launch geometry).
    pub fn sm_count(&self) -> u32 {
        self.props.sm_count
    }

    /// Makes the context current on this thread, unless a kernel failure poisoned it.
    fn enter(&self) -> Result<(), CudaError> {
        if self.is_poisoned.load(Ordering::Acquire) {
            if let Some(why) = lock(&self.poisoned).clone() {
                return Err(CudaError::Poisoned(why));
            }
        }
        // SAFETY: `ctx` stays retained for the backend's lifetime.
        unsafe { result::ctx::set_current(self.ctx) }.map_err(|e| CudaError::driver("cuCtxSetCurrent", e, "selecting the device"))
    }

    /// Records a failure: a sticky one poisons the context for every later call.
    fn fail(&self, e: CudaError) -> CudaError {
        if e.is_sticky() {
            lock(&self.poisoned).get_or_insert_with(|| e.to_string());
            self.is_poisoned.store(true, Ordering::Release);
        }
        e
    }

    /// The kernel panic the device recorded, if any.
    pub fn panic_record(&self) -> Option<PanicRecord> {
        // SAFETY: the record is host memory owned by the backend; the device writes it only
        // while a kernel runs, and reads race with nothing once the kernel has stopped (the
        // callers look after a failed or finished synchronisation). Volatile: the device
        // wrote it behind the compiler's back.
        let r = unsafe { self.panic_host.read_volatile() };
        r.is_set().then_some(r)
    }

    /// Turns a failed synchronisation into the kernel's panic when the device recorded one.
    fn sync_error(&self, call: &'static str, e: DriverError, kernel: Option<String>, doing: String) -> CudaError {
        let err = match self.panic_record() {
            Some(record) => CudaError::KernelPanic { kernel, record: Box::new(record) },
            None => CudaError::driver(call, e, match kernel {
                Some(k) => format!("{doing} (kernel `{k}`)"),
                None => doing,
            }),
        };
        self.fail(err)
    }

    // ---- memory ---------------------------------------------------------------------------

    /// Allocates `bytes` of device memory (at least 1), returning its device address.
    pub fn alloc_bytes(&self, bytes: usize) -> Result<u64, CudaError> {
        self.enter()?;
        let mut p = 0;
        // Rounded up to 16 bytes: an 8- or 16-bit atomic is a compare-and-swap of the aligned
        // 32-bit word around it, which must lie inside the allocation (the driver pads
        // allocations anyway; compute-sanitizer checks the size asked for).
        let size = bytes.max(1).next_multiple_of(16);
        // SAFETY: a plain allocation into a local.
        check("cuMemAlloc", unsafe { sys::cuMemAlloc_v2(&mut p, size) }, || {
            format!("allocating {bytes} bytes on {}", self.label)
        })
        .map_err(|e| self.fail(e))?;
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

    /// `cuMemFree` of `p`.
    ///
    /// # Safety
    /// As for [`free_bytes`](Self::free_bytes), and no pending work uses `p`.
    unsafe fn free_now(&self, p: u64) -> Result<(), CudaError> {
        // SAFETY: the caller's contract.
        check("cuMemFree", unsafe { sys::cuMemFree_v2(p) }, || format!("freeing device memory at {p:#x}"))
    }

    /// Sets `bytes` bytes at `p` to zero (synchronously).
    ///
    /// # Safety
    /// `p` lies in a live allocation of this backend with `bytes` bytes after it.
    pub unsafe fn zero(&self, p: u64, bytes: usize) -> Result<(), CudaError> {
        self.enter()?;
        let doing = || format!("zeroing {bytes} bytes");
        // SAFETY: the caller's contract. (`cuMemsetD8` alone would be asynchronous.)
        unsafe {
            check("cuMemsetD8Async", sys::cuMemsetD8Async(p, 0, bytes, self.sync_stream), doing)
                .and_then(|()| check("cuStreamSynchronize", sys::cuStreamSynchronize(self.sync_stream), doing))
        }
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
        let doing = || format!("copying {bytes} bytes to {}", self.label);
        if !self.staged(bytes) {
            // On the backend's stream, then synchronised: a plain `cuMemcpyHtoD` from pageable
            // memory may return before its DMA lands, unordered with our non-blocking streams.
            // SAFETY: the caller's contract; the synchronisation ends the use of `src`.
            return unsafe {
                check("cuMemcpyHtoDAsync", sys::cuMemcpyHtoDAsync_v2(dst, src.cast(), bytes, self.sync_stream), doing)
                    .and_then(|()| check("cuStreamSynchronize", sys::cuStreamSynchronize(self.sync_stream), doing))
            }
            .map_err(|e| self.fail(e));
        }
        let mut guard = lock(&self.staging);
        let st = self.staging(&mut guard)?;
        let mut off = 0;
        let mut k = 0;
        while off < bytes {
            let n = STAGING_CHUNK.min(bytes - off);
            // SAFETY: the event guards the buffer's previous DMA; once it completed, the
            // buffer is the host's again.
            check("cuEventSynchronize", unsafe { sys::cuEventSynchronize(st.done[k]) }, doing).map_err(|e| self.fail(e))?;
            // SAFETY: `src + off .. + n` is within the caller's readable range, and the
            // staging buffer has `STAGING_CHUNK >= n` bytes.
            unsafe { std::ptr::copy_nonoverlapping(src.add(off), st.bufs[k], n) };
            // SAFETY: `dst + off .. + n` is within the caller's allocation; the buffer stays
            // untouched until the event recorded after the copy completes.
            check("cuMemcpyHtoDAsync", unsafe { sys::cuMemcpyHtoDAsync_v2(dst + off as u64, st.bufs[k].cast(), n, self.sync_stream) }, doing)
                .map_err(|e| self.fail(e))?;
            // SAFETY: valid event and stream.
            check("cuEventRecord", unsafe { sys::cuEventRecord(st.done[k], self.sync_stream) }, doing).map_err(|e| self.fail(e))?;
            off += n;
            k ^= 1;
        }
        // SAFETY: the backend's stream.
        check("cuStreamSynchronize", unsafe { sys::cuStreamSynchronize(self.sync_stream) }, doing).map_err(|e| self.fail(e))
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
        self.settle()?;
        let doing = || format!("copying {bytes} bytes from {}", self.label);
        if !self.staged(bytes) {
            // SAFETY: the caller's contract; the synchronisation ends the use of `dst`.
            return unsafe {
                check("cuMemcpyDtoHAsync", sys::cuMemcpyDtoHAsync_v2(dst.cast(), src, bytes, self.sync_stream), doing)
                    .and_then(|()| check("cuStreamSynchronize", sys::cuStreamSynchronize(self.sync_stream), doing))
            }
            .map_err(|e| self.fail(e));
        }
        let mut guard = lock(&self.staging);
        let st = self.staging(&mut guard)?;
        // Chunk i is copied out of buffer i % 2 while the DMA of chunk i + 1 fills the other.
        let chunks: Vec<(usize, usize)> =
            (0..bytes).step_by(STAGING_CHUNK).map(|off| (off, STAGING_CHUNK.min(bytes - off))).collect();
        let issue = |i: usize| -> Result<(), CudaError> {
            let (off, n) = chunks[i];
            // SAFETY: `src + off .. + n` is within the caller's allocation; the buffer's
            // previous contents were copied out before this chunk was issued.
            check("cuMemcpyDtoHAsync", unsafe { sys::cuMemcpyDtoHAsync_v2(st.bufs[i % 2].cast(), src + off as u64, n, self.sync_stream) }, doing)?;
            // SAFETY: valid event and stream.
            check("cuEventRecord", unsafe { sys::cuEventRecord(st.done[i % 2], self.sync_stream) }, doing)
        };
        issue(0).map_err(|e| self.fail(e))?;
        for i in 0..chunks.len() {
            if i + 1 < chunks.len() {
                issue(i + 1).map_err(|e| self.fail(e))?;
            }
            // SAFETY: valid event.
            check("cuEventSynchronize", unsafe { sys::cuEventSynchronize(st.done[i % 2]) }, doing).map_err(|e| self.fail(e))?;
            let (off, n) = chunks[i];
            // SAFETY: the DMA into the buffer completed; `dst + off .. + n` is within the
            // caller's writable range.
            unsafe { std::ptr::copy_nonoverlapping(st.bufs[i % 2], dst.add(off), n) };
        }
        Ok(())
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
        let mk = || {
            result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
                .map_err(|e| CudaError::driver("cuEventCreate", e, "creating timing events"))
        };
        let (start, end) = (mk()?, mk()?);
        // SAFETY: valid events and stream; the caller's contract covers the copy.
        unsafe {
            check("cuEventRecord", sys::cuEventRecord(start, self.sync_stream), doing)?;
            check("cuMemcpyDtoDAsync", sys::cuMemcpyDtoDAsync_v2(dst, src, bytes, self.sync_stream), doing)
                .map_err(|e| self.fail(e))?;
            check("cuEventRecord", sys::cuEventRecord(end, self.sync_stream), doing)?;
            check("cuStreamSynchronize", sys::cuStreamSynchronize(self.sync_stream), doing).map_err(|e| self.fail(e))?;
        }
        // SAFETY: both events completed.
        let ms = unsafe { result::event::elapsed(start, end) }
            .map_err(|e| CudaError::driver("cuEventElapsedTime", e, "timing a copy"))?;
        // SAFETY: the events are no longer used.
        unsafe {
            let _ = result::event::destroy(start);
            let _ = result::event::destroy(end);
        }
        Ok(ms)
    }

    /// The staging buffers, allocated at first use.
    fn staging<'a>(&self, slot: &'a mut Option<Staging>) -> Result<&'a Staging, CudaError> {
        if slot.is_none() {
            let mut bufs = [std::ptr::null_mut(); 2];
            let mut done = [std::ptr::null_mut(); 2];
            for k in 0..2 {
                // SAFETY: a plain pinned allocation, only ever used as bytes.
                bufs[k] = unsafe { result::malloc_host(STAGING_CHUNK, 0) }
                    .map_err(|e| CudaError::driver("cuMemHostAlloc", e, "allocating transfer buffers"))?
                    .cast();
                done[k] = result::event::create(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING)
                    .map_err(|e| CudaError::driver("cuEventCreate", e, "creating transfer events"))?;
            }
            *slot = Some(Staging { bufs, done });
        }
        Ok(slot.as_ref().expect("just set"))
    }

    // ---- modules and launches -------------------------------------------------------------

    /// Loads a PTX module (JIT-compiled by the driver for this GPU), once per distinct text:
    /// later calls with the same text return the same module. Sets the module's panic record
    /// address.
    pub fn load_ptx(&self, ptx: &str) -> Result<Arc<Module>, CudaError> {
        self.enter()?;
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            ptx.hash(&mut h);
            (h.finish(), ptx.len())
        };
        let mut modules = lock(&self.modules);
        if let Some(m) = modules.get(&key) {
            return Ok(m.clone());
        }
        let image = CString::new(ptx).map_err(|_| CudaError::Invalid("PTX text contains a NUL byte".into()))?;
        let mut log = vec![0u8; 16 << 10];
        let mut options = [
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut values = [log.as_mut_ptr().cast::<c_void>(), log.len() as *mut c_void];
        let mut module = std::ptr::null_mut();
        // SAFETY: `image` is a NUL-terminated PTX text; the option arrays have two entries
        // each, the log buffer the size given, and all outlive the call.
        let r = unsafe {
            sys::cuModuleLoadDataEx(&mut module, image.as_ptr().cast(), 2, options.as_mut_ptr(), values.as_mut_ptr())
        };
        if r != sys::CUresult::CUDA_SUCCESS {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            return Err(CudaError::Jit { code: r, log: String::from_utf8_lossy(&log[..end]).into_owned() });
        }
        // Point the module's `ACC_PANIC_BUF` at the mapped record (modules without it, not
        // built with acc-device, simply trap on a panic).
        let name = CString::new(acc_device::PANIC_BUF_SYMBOL).expect("no NUL");
        // SAFETY: `module` was just loaded.
        if let Ok((addr, 8)) = unsafe { result::module::get_global(module, name) } {
            let p = self.panic_dev;
            // SAFETY: the global is 8 bytes of device memory; `p` outlives the synchronous
            // copy.
            unsafe { self.h2d_bytes(addr, (&raw const p).cast(), 8) }?;
        }
        let m = Arc::new(Module { module, functions: Mutex::new(HashMap::new()) });
        modules.insert(key, m.clone());
        Ok(m)
    }

    /// The kernel `name` of `module`, opened up to `shared` bytes of dynamic shared memory.
    fn function(&self, module: &Module, name: &str, shared: u32) -> Result<sys::CUfunction, CudaError> {
        let mut fns = lock(&module.functions);
        let entry = match fns.get_mut(name) {
            Some(e) => e,
            None => {
                let cname = CString::new(name).map_err(|_| CudaError::Invalid(format!("kernel name {name:?} has a NUL byte")))?;
                // SAFETY: the module is loaded (it is unloaded only when the backend drops).
                let f = unsafe { result::module::get_function(module.module, cname) }.map_err(|e| {
                    CudaError::driver("cuModuleGetFunction", e, format!("looking up kernel `{name}`"))
                })?;
                fns.entry(name.to_owned()).or_insert((f, 48 << 10))
            }
        };
        if shared > entry.1 {
            if shared > self.props.max_shared_per_block_optin {
                return Err(CudaError::Invalid(format!(
                    "kernel `{name}` asks for {shared} bytes of shared memory per block; {} has {}",
                    self.label, self.props.max_shared_per_block_optin
                )));
            }
            check(
                "cuFuncSetAttribute",
                // SAFETY: a valid function handle; the value is within the device's limit.
                unsafe {
                    sys::cuFuncSetAttribute(
                        entry.0,
                        sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        shared as i32,
                    )
                },
                || format!("allowing kernel `{name}` {shared} bytes of shared memory"),
            )?;
            entry.1 = shared;
        }
        Ok(entry.0)
    }

    /// How many blocks of `block_threads` threads (with `shared` bytes of dynamic shared
    /// memory each) of kernel `name` fit on one multiprocessor at once.
    pub fn blocks_per_sm(&self, module: &Module, name: &str, block_threads: u32, shared: u32) -> Result<u32, CudaError> {
        self.enter()?;
        let f = self.function(module, name, shared)?;
        let mut n = 0;
        check(
            "cuOccupancyMaxActiveBlocksPerMultiprocessor",
            // SAFETY: a valid function handle and a local out-parameter.
            unsafe { sys::cuOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, f, block_threads as i32, shared as usize) },
            || format!("computing the occupancy of `{name}`"),
        )?;
        Ok(n.max(1) as u32)
    }

    /// The default number of blocks for a grid-stride loop of `iterations` over blocks of
    /// `block_threads`: one full wave (every multiprocessor at its occupancy limit), and no
    /// more blocks than the loop has iterations for.
    pub fn default_grid(&self, module: &Module, name: &str, block_threads: u32, shared: u32, iterations: usize) -> Result<u32, CudaError> {
        let wave = self.sm_count() * self.blocks_per_sm(module, name, block_threads, shared)?;
        let needed = iterations.div_ceil(block_threads.max(1) as usize).max(1);
        Ok(wave.min(needed.min(u32::MAX as usize) as u32))
    }

    /// Kernel `name` of `module`, opened up to `shared` bytes of dynamic shared memory, as a
    /// handle for [`launch_kernel`](Self::launch_kernel): launch paths look it up once.
    pub fn kernel(&self, module: &Arc<Module>, name: &str, shared: u32) -> Result<Kernel, CudaError> {
        self.enter()?;
        let func = self.function(module, name, shared)?;
        let mut max_threads = 0i32;
        check(
            "cuFuncGetAttribute",
            // SAFETY: a valid function handle and an `i32` out-parameter.
            unsafe { sys::cuFuncGetAttribute(&mut max_threads, sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, func) },
            || format!("reading kernel `{name}`'s largest block"),
        )?;
        Ok(Kernel { func, name: name.into(), shared, params: None, max_threads: max_threads.max(1) as u32, _module: module.clone() })
    }

    /// The stream of `queue` (`None`: the synchronous stream), created at first use.
    fn stream(&self, queue: Option<i64>) -> Result<sys::CUstream, CudaError> {
        let Some(q) = queue else { return Ok(self.sync_stream) };
        let mut queues = lock(&self.queues);
        Self::queue_entry(&mut queues, q).map(|e| e.stream)
    }

    fn queue_entry(queues: &mut HashMap<i64, Queue>, q: i64) -> Result<&mut Queue, CudaError> {
        match queues.entry(q) {
            std::collections::hash_map::Entry::Occupied(e) => Ok(e.into_mut()),
            std::collections::hash_map::Entry::Vacant(v) => {
                let stream = result::stream::create(result::stream::StreamKind::NonBlocking)
                    .map_err(|e| CudaError::driver("cuStreamCreate", e, format!("creating async queue {q}")))?;
                Ok(v.insert(Queue { stream, busy: false, seq: 0, launched: Vec::new(), frees: Vec::new() }))
            }
        }
    }

    /// Notes work queued on `q` (a launch of `label`, or a copy): the queue is busy until a
    /// wait that began after it completes.
    fn queued(&self, q: i64, label: Option<(Option<&'static RegionInfo>, &Arc<str>)>) {
        let mut queues = lock(&self.queues);
        let Some(queue) = queues.get_mut(&q) else { return };
        queue.seq += 1;
        if !queue.busy {
            queue.busy = true;
            self.busy_queues.fetch_add(1, Ordering::AcqRel);
        }
        if let Some((region, kernel)) = label {
            let same = |(r, k): &(Option<&'static RegionInfo>, Arc<str>)| {
                r.map(|r| r as *const RegionInfo) == region.map(|r| r as *const RegionInfo) && Arc::ptr_eq(k, kernel)
            };
            if !queue.launched.iter().any(same) && queue.launched.len() < QUEUE_LABELS {
                queue.launched.push((region, kernel.clone()));
            }
        }
    }

    /// Launches kernel `name` of `module`. A synchronous launch (`cfg.queue == None`)
    /// returns once the kernel finished, with [`CudaError::KernelPanic`] if it panicked; an
    /// async one returns at once, and [`wait_queue`](Self::wait_queue) reports its failure.
    pub fn launch(&self, module: &Module, name: &str, cfg: LaunchConfig, args: &mut KernelArgs) -> Result<(), CudaError> {
        self.enter()?;
        let f = self.function(module, name, cfg.shared_bytes)?;
        self.launch_inner(f, name, None, cfg, args, false).map(|_| ())
    }

    /// Launches `kernel` as [`launch`](Self::launch) does, without looking it up; `region`
    /// is named when a wait finds that the launch failed.
    pub fn launch_kernel(
        &self,
        kernel: &Kernel,
        cfg: LaunchConfig,
        args: &mut KernelArgs,
        region: Option<&'static RegionInfo>,
    ) -> Result<(), CudaError> {
        self.enter()?;
        if kernel.params.is_some_and(|n| n != args.len()) {
            return Err(CudaError::Invalid(format!(
                "kernel `{}` takes {} parameters and the launch passes {}: the PTX and the code that launches it do not match (rebuild both)",
                kernel.name,
                kernel.params.unwrap_or(0),
                args.len()
            )));
        }
        if cfg.shared_bytes > kernel.shared {
            return Err(CudaError::Invalid(format!(
                "kernel `{}` was opened up to {} bytes of shared memory and launched with {}",
                kernel.name, kernel.shared, cfg.shared_bytes
            )));
        }
        self.launch_inner(kernel.func, &kernel.name, Some((region, &kernel.name)), cfg, args, false).map(|_| ())
    }

    /// A synchronous launch timed with CUDA events; returns the kernel's time in
    /// milliseconds.
    pub fn launch_timed(&self, module: &Module, name: &str, mut cfg: LaunchConfig, args: &mut KernelArgs) -> Result<f32, CudaError> {
        cfg.queue = None;
        self.enter()?;
        let f = self.function(module, name, cfg.shared_bytes)?;
        self.launch_inner(f, name, None, cfg, args, true).map(|t| t.unwrap_or(0.0))
    }

    /// The launch itself (the context is current): on the synchronous stream, then
    /// synchronised, or queued on `cfg.queue`'s stream and noted there under `label`.
    fn launch_inner(
        &self,
        f: sys::CUfunction,
        name: &str,
        label: Option<(Option<&'static RegionInfo>, &Arc<str>)>,
        cfg: LaunchConfig,
        args: &mut KernelArgs,
        timed: bool,
    ) -> Result<Option<f32>, CudaError> {
        let (g, b) = (cfg.grid, cfg.block);
        if g.0 == 0 || g.1 == 0 || g.2 == 0 || cfg.block_threads() == 0 || cfg.block_threads() > self.props.max_threads_per_block {
            return Err(CudaError::Invalid(format!(
                "kernel `{name}`: cannot launch a grid of {g:?} blocks of {b:?} threads on {} (at most {} threads per block)",
                self.label, self.props.max_threads_per_block
            )));
        }
        let stream = self.stream(cfg.queue)?;
        let events = if timed {
            let mk = || {
                result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
                    .map_err(|e| CudaError::driver("cuEventCreate", e, "creating timing events"))
            };
            Some((mk()?, mk()?))
        } else {
            None
        };
        if let Some((start, _)) = events {
            // SAFETY: valid event and stream.
            check("cuEventRecord", unsafe { sys::cuEventRecord(start, stream) }, || "timing a launch".into())?;
        }
        let ptrs = args.pointers();
        // SAFETY: `f` is a kernel of a loaded module; `ptrs` holds one pointer per parameter,
        // each to the parameter's bytes, alive for the call (the driver copies them at
        // launch). The kernel's parameter list is the caller's contract with the PTX.
        let r = unsafe { sys::cuLaunchKernel(f, g.0, g.1, g.2, b.0, b.1, b.2, cfg.shared_bytes, stream, ptrs, std::ptr::null_mut()) };
        let doing = || format!("launching `{name}` ({} blocks of {} threads)", g.0 * g.1 * g.2, cfg.block_threads());
        if let Err(e) = r.result() {
            return Err(self.sync_error("cuLaunchKernel", e, Some(name.to_owned()), doing()));
        }
        if let Some(q) = cfg.queue {
            let owned: Arc<str>;
            let label = match label {
                Some(l) => l,
                None => {
                    owned = name.into();
                    (None, &owned)
                }
            };
            self.queued(q, Some(label));
            return Ok(None);
        }
        if let Some((_, end)) = events {
            // SAFETY: valid event and stream.
            check("cuEventRecord", unsafe { sys::cuEventRecord(end, stream) }, || "timing a launch".into())?;
        }
        // SAFETY: the backend's stream.
        if let Err(e) = unsafe { sys::cuStreamSynchronize(stream) }.result() {
            return Err(self.sync_error("cuStreamSynchronize", e, Some(name.to_owned()), format!("running `{name}`")));
        }
        Ok(match events {
            Some((start, end)) => {
                // SAFETY: both events were recorded on the stream, which has completed.
                let ms = unsafe { result::event::elapsed(start, end) }
                    .map_err(|e| CudaError::driver("cuEventElapsedTime", e, "timing a launch"))?;
                // SAFETY: the events are no longer used.
                unsafe {
                    let _ = result::event::destroy(start);
                    let _ = result::event::destroy(end);
                }
                Some(ms)
            }
            None => None,
        })
    }

    /// Copies device memory to the host in order with the work queued on async queue `q`
    /// (after the kernels queued before), and returns once the copy landed: the host memory
    /// is the caller's again (the work queued before it has completed too, and a failure of
    /// it is reported here).
    ///
    /// # Safety
    /// As for [`d2h_bytes`](Self::d2h_bytes).
    pub unsafe fn d2h_on_queue(&self, dst: *mut u8, src: u64, bytes: usize, q: i64) -> Result<(), CudaError> {
        self.enter()?;
        let stream = self.stream(Some(q))?;
        let doing = || format!("copying {bytes} bytes from {} on async queue {q}", self.label);
        // SAFETY: the caller's contract; the wait below ends the use of `dst`.
        check("cuMemcpyDtoHAsync", unsafe { sys::cuMemcpyDtoHAsync_v2(dst.cast(), src, bytes, stream) }, doing)
            .map_err(|e| self.fail(e))?;
        self.queued(q, None);
        self.wait_queue_labelled(q).map_err(|(e, _)| e)
    }

    /// Copies host memory to the device in order with the work queued on async queue `q`
    /// (after the kernels queued before), and returns once the copy landed: the host memory
    /// is the caller's again (the work queued before it has completed too, and a failure of
    /// it is reported here). Other queues are not waited for.
    ///
    /// # Safety
    /// As for [`h2d_bytes`](Self::h2d_bytes), and only work queued on `q` uses `dst` meanwhile.
    pub unsafe fn h2d_on_queue(&self, dst: u64, src: *const u8, bytes: usize, q: i64) -> Result<(), CudaError> {
        self.enter()?;
        let stream = self.stream(Some(q))?;
        let doing = || format!("copying {bytes} bytes to {} on async queue {q}", self.label);
        // SAFETY: the caller's contract; the wait below ends the use of `src`.
        check("cuMemcpyHtoDAsync", unsafe { sys::cuMemcpyHtoDAsync_v2(dst, src.cast(), bytes, stream) }, doing)
            .map_err(|e| self.fail(e))?;
        self.queued(q, None);
        self.wait_queue_labelled(q).map_err(|(e, _)| e)
    }

    /// Frees `p` once the work queued on async queue `q` so far has completed: at once when
    /// the queue is idle, else at the wait that finds it done.
    ///
    /// # Safety
    /// `p` came from [`alloc_bytes`](Self::alloc_bytes) of this backend, is not freed yet,
    /// and only work queued on `q` so far may use it.
    pub unsafe fn free_after(&self, p: u64, q: i64) -> Result<(), CudaError> {
        self.enter()?;
        {
            let mut queues = lock(&self.queues);
            if let Some(queue) = queues.get_mut(&q).filter(|queue| queue.busy) {
                queue.frees.push((queue.seq, p));
                return Ok(());
            }
        }
        // SAFETY: the caller's contract; nothing is pending on `q`.
        unsafe { self.free_now(p) }
    }

    /// Waits for async queue `q` (OpenACC `wait(q)`); reports a kernel panic or failure of
    /// the work queued on it.
    pub fn wait_queue(&self, q: i64) -> Result<(), CudaError> {
        self.wait_queue_labelled(q).map_err(|(e, _)| e)
    }

    /// [`wait_queue`](Self::wait_queue), whose error also says which regions' kernels the
    /// queue ran since its last wait.
    fn wait_queue_labelled(&self, q: i64) -> Result<(), (CudaError, String)> {
        self.enter().map_err(|e| (e, String::new()))?;
        let (stream, seq, kernel, labels) = match lock(&self.queues).get(&q) {
            Some(s) if s.busy => (
                s.stream,
                s.seq,
                s.launched.last().map(|(_, k)| k.to_string()),
                s.launched.iter().filter_map(|(r, _)| *r).map(|r| r.to_string()).collect::<Vec<_>>(),
            ),
            _ => return Ok(()),
        };
        // SAFETY: a stream of this backend.
        if let Err(e) = unsafe { sys::cuStreamSynchronize(stream) }.result() {
            let labels = match labels.len() {
                0 => String::new(),
                1 => labels[0].clone(),
                _ => format!("one of {}", labels.join(", ")),
            };
            return Err((self.sync_error("cuStreamSynchronize", e, kernel, format!("waiting for async queue {q}")), labels));
        }
        // The work queued up to `seq` has completed: its frees can go, and the queue is idle
        // unless more was queued meanwhile.
        let frees: Vec<u64> = {
            let mut queues = lock(&self.queues);
            let queue = queues.get_mut(&q).expect("queues are never removed");
            let (done, later): (Vec<_>, Vec<_>) = queue.frees.drain(..).partition(|(s, _)| *s <= seq);
            queue.frees = later;
            if queue.seq == seq && queue.busy {
                queue.busy = false;
                queue.launched.clear();
                self.busy_queues.fetch_sub(1, Ordering::AcqRel);
            }
            done.into_iter().map(|(_, p)| p).collect()
        };
        for p in frees {
            // SAFETY: given to `free_after`, whose work has completed.
            unsafe { self.free_now(p) }.map_err(|e| (e, String::new()))?;
        }
        Ok(())
    }

    /// Waits for every async queue (OpenACC `wait`).
    pub fn wait_all_queues(&self) -> Result<(), CudaError> {
        self.wait_all_labelled().map_err(|(e, _)| e)
    }

    fn wait_all_labelled(&self) -> Result<(), (CudaError, String)> {
        let mut qs: Vec<i64> = lock(&self.queues).keys().copied().collect();
        qs.sort_unstable();
        for q in qs {
            self.wait_queue_labelled(q)?;
        }
        Ok(())
    }

    /// Waits for the busy async queues, if any: what synchronous transfers to the host and
    /// frees do first, so that they never race with queued kernels.
    fn settle(&self) -> Result<(), CudaError> {
        if self.busy_queues.load(Ordering::Acquire) == 0 {
            return Ok(());
        }
        self.wait_all_queues()
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
        self.enter()?;
        let size = bytes.max(MAPPED_MIN).next_multiple_of(4096);
        let flags = sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE;
        // SAFETY: a plain pinned allocation, only ever used as bytes.
        let host = unsafe { result::malloc_host(size, flags) }
            .map_err(|e| CudaError::driver("cuMemHostAlloc", e, format!("allocating {size} bytes of mapped memory")))?
            .cast::<u8>();
        let mut dev = 0;
        // SAFETY: `host` came from `cuMemHostAlloc` with `DEVICEMAP`.
        let r = check("cuMemHostGetDevicePointer", unsafe { sys::cuMemHostGetDevicePointer_v2(&mut dev, host.cast(), 0) }, || {
            "mapping pinned memory".into()
        });
        if let Err(e) = r {
            // SAFETY: allocated above, used by nothing.
            let _ = unsafe { result::free_host(host.cast()) };
            return Err(e);
        }
        Ok(MappedBuf { host, dev, bytes: size })
    }

    /// Gives back a buffer from [`take_mapped`](Self::take_mapped), for reuse.
    ///
    /// # Safety
    /// No pending or later work uses the buffer through its device address.
    pub unsafe fn give_back_mapped(&self, buf: MappedBuf) {
        let mut pool = lock(&self.mapped);
        if pool.len() < MAPPED_KEEP {
            pool.push(buf);
        } else {
            // SAFETY: the caller's contract; the buffer came from `cuMemHostAlloc`.
            let _ = unsafe { result::free_host(buf.host.cast()) };
        }
    }
}

impl CudaBackend {
    /// Free and total memory of the device, in bytes (`cuMemGetInfo`).
    pub fn mem_info(&self) -> Result<(usize, usize), CudaError> {
        self.enter()?;
        let (mut free, mut total) = (0, 0);
        // SAFETY: two local out-parameters; the context is current.
        check("cuMemGetInfo", unsafe { sys::cuMemGetInfo_v2(&mut free, &mut total) }, || "reading the free memory".into())?;
        Ok((free, total))
    }

    /// Why the context is unusable, if it is (a kernel trapped or faulted).
    pub fn lost_reason(&self) -> Option<String> {
        if !self.is_poisoned.load(Ordering::Acquire) {
            return None;
        }
        lock(&self.poisoned).clone()
    }
}

impl Drop for CudaBackend {
    fn drop(&mut self) {
        let alive = self.enter().is_ok();
        // SAFETY: teardown of handles this backend created; after a failure the driver
        // refuses most calls, and their errors are ignored.
        unsafe {
            if alive {
                let _ = sys::cuCtxSynchronize();
            }
            for m in lock(&self.modules).values() {
                let _ = result::module::unload(m.module);
            }
            for q in lock(&self.queues).values() {
                if alive {
                    for &(_, p) in &q.frees {
                        let _ = sys::cuMemFree_v2(p);
                    }
                }
                let _ = result::stream::destroy(q.stream);
            }
            for b in lock(&self.mapped).drain(..) {
                let _ = result::free_host(b.host.cast());
            }
            let _ = result::stream::destroy(self.sync_stream);
            if let Some(st) = lock(&self.staging).take() {
                for k in 0..2 {
                    let _ = result::free_host(st.bufs[k].cast());
                    let _ = result::event::destroy(st.done[k]);
                }
            }
            let _ = result::free_host(self.panic_host.cast());
            let _ = result::primary_ctx::release(self.dev);
        }
    }
}

/// The number of parameters of `.entry name(..)` in `ptx` (the PTX the kernel was loaded
/// from), if the entry is there. Read from the text rather than asked of the driver: its
/// `cuFuncGetParamInfo` can only say "past the end" with an error, which the sanitizers
/// count.
fn ptx_param_count(ptx: &str, name: &str) -> Option<usize> {
    let start = ptx.find(&format!(".entry {name}("))?;
    let list = &ptx[start..];
    let end = list.find(')')?;
    Some(list[..end].matches(".param").count())
}

/// A wait's failure, prefixed with the regions whose kernels the queue ran.
fn labelled((e, regions): (CudaError, String)) -> String {
    if regions.is_empty() {
        e.to_string()
    } else {
        format!("{regions}: {e}")
    }
}

impl Backend for CudaBackend {
    fn name(&self) -> &str {
        &self.label
    }
    fn device_type(&self) -> DeviceType {
        DeviceType::Nvidia
    }
    fn device_num(&self) -> usize {
        self.num
    }
    fn is_host(&self) -> bool {
        false
    }
    fn alloc(&self, bytes: usize) -> Result<DevPtr, String> {
        Ok(DevPtr(self.alloc_bytes(bytes)?))
    }
    unsafe fn free(&self, ptr: DevPtr) -> Result<(), String> {
        // SAFETY: the trait's contract is `free_bytes`'s.
        Ok(unsafe { self.free_bytes(ptr.0) }?)
    }
    unsafe fn h2d(&self, dst: DevPtr, src: *const u8, bytes: usize) -> Result<(), String> {
        // SAFETY: the trait's contract is `h2d_bytes`'s.
        Ok(unsafe { self.h2d_bytes(dst.0, src, bytes) }?)
    }
    unsafe fn d2h(&self, dst: *mut u8, src: DevPtr, bytes: usize) -> Result<(), String> {
        // SAFETY: the trait's contract is `d2h_bytes`'s.
        Ok(unsafe { self.d2h_bytes(dst, src.0, bytes) }?)
    }
    unsafe fn h2d_on(&self, dst: DevPtr, src: *const u8, bytes: usize, queue: i64) -> Result<(), String> {
        // SAFETY: the trait's contract is `h2d_on_queue`'s.
        Ok(unsafe { self.h2d_on_queue(dst.0, src, bytes, queue) }?)
    }
    unsafe fn d2h_on(&self, dst: *mut u8, src: DevPtr, bytes: usize, queue: i64) -> Result<(), String> {
        // SAFETY: the trait's contract is `d2h_on_queue`'s.
        Ok(unsafe { self.d2h_on_queue(dst, src.0, bytes, queue) }?)
    }
    unsafe fn free_after(&self, ptr: DevPtr, queue: i64) -> Result<(), String> {
        // SAFETY: the trait's contract is the inherent `free_after`'s.
        Ok(unsafe { CudaBackend::free_after(self, ptr.0, queue) }?)
    }
    fn wait(&self, queue: i64) -> Result<(), String> {
        self.wait_queue_labelled(queue).map_err(labelled)
    }
    fn wait_all(&self) -> Result<(), String> {
        self.wait_all_labelled().map_err(labelled)
    }
    fn lost(&self) -> Option<String> {
        self.lost_reason()
    }
    fn memory(&self) -> Option<(usize, usize)> {
        self.mem_info().ok()
    }
}

#[cfg(test)]
mod ptx_tests {
    use super::ptx_param_count;

    #[test]
    fn parameters_are_counted_from_the_entry() {
        let ptx = ".visible .entry k2(\n\t.param .u64 k2_param_0,\n\t.param .align 16 .b8 k2_param_1[272]\n)\n{\n}\n.visible .entry k0()\n{\n}\n";
        assert_eq!(ptx_param_count(ptx, "k2"), Some(2));
        assert_eq!(ptx_param_count(ptx, "k0"), Some(0));
        assert_eq!(ptx_param_count(ptx, "k"), None);
    }
}
