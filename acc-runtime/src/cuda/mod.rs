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
//! # Kernel panics
//! Each loaded module's global `ACC_PANIC_BUF` is set to a host-mapped
//! [`PanicRecord`]. A kernel that panics fills it and traps;
//! the failed synchronisation then reads it and returns [`CudaError::KernelPanic`] with the
//! kernel's name, the file, line and column, and the message. A trap ends the CUDA context
//! for good: later calls return [`CudaError::Poisoned`].

mod error;
mod launch;

use std::any::Any;
use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use acc_device::panic::PanicRecord;
use cudarc::driver::result::DriverError;
use cudarc::driver::{result, sys};

pub use error::CudaError;
pub use launch::{KernelArgs, LaunchConfig};

use crate::device::{Backend, DevPtr, DeviceType};

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

/// An async queue: its stream and the kernel last launched on it (named in a panic report).
struct Queue {
    stream: sys::CUstream,
    last_kernel: Option<String>,
}

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
    num: usize,
    dev: sys::CUdevice,
    ctx: sys::CUcontext,
    label: String,
    props: DeviceProps,
    /// The stream of synchronous work.
    sync_stream: sys::CUstream,
    /// Async queues by number.
    queues: Mutex<HashMap<i64, Queue>>,
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
            num,
            dev,
            ctx,
            label: format!("{} (device {num})", props.name),
            props,
            sync_stream,
            queues: Mutex::new(HashMap::new()),
            modules: Mutex::new(HashMap::new()),
            panic_host,
            panic_dev,
            staging: Mutex::new(None),
            staged: std::sync::atomic::AtomicBool::new(std::env::var_os("ACC_CUDA_STAGING").is_some_and(|v| v == "1")),
            poisoned: Mutex::new(None),
        })
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
        if let Some(why) = lock(&self.poisoned).clone() {
            return Err(CudaError::Poisoned(why));
        }
        // SAFETY: `ctx` stays retained for the backend's lifetime.
        unsafe { result::ctx::set_current(self.ctx) }.map_err(|e| CudaError::driver("cuCtxSetCurrent", e, "selecting the device"))
    }

    /// Records a failure: a sticky one poisons the context for every later call.
    fn fail(&self, e: CudaError) -> CudaError {
        if e.is_sticky() {
            lock(&self.poisoned).get_or_insert_with(|| e.to_string());
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

    /// Frees device memory from [`alloc_bytes`](Self::alloc_bytes).
    ///
    /// # Safety
    /// `p` came from `alloc_bytes` of this backend, is not freed yet, and no pending work
    /// uses it.
    pub unsafe fn free_bytes(&self, p: u64) -> Result<(), CudaError> {
        self.enter()?;
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
    /// [`h2d_bytes`](Self::h2d_bytes)).
    ///
    /// # Safety
    /// `dst` is valid for writes of `bytes` bytes and not accessed by anyone else meanwhile;
    /// `src` lies in a live allocation of this backend with `bytes` bytes after it.
    pub unsafe fn d2h_bytes(&self, dst: *mut u8, src: u64, bytes: usize) -> Result<(), CudaError> {
        self.enter()?;
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

    /// The stream of `queue` (`None`: the synchronous stream), created at first use.
    fn stream(&self, queue: Option<i64>) -> Result<sys::CUstream, CudaError> {
        let Some(q) = queue else { return Ok(self.sync_stream) };
        let mut queues = lock(&self.queues);
        if let Some(s) = queues.get(&q) {
            return Ok(s.stream);
        }
        let stream = result::stream::create(result::stream::StreamKind::NonBlocking)
            .map_err(|e| CudaError::driver("cuStreamCreate", e, format!("creating async queue {q}")))?;
        queues.insert(q, Queue { stream, last_kernel: None });
        Ok(stream)
    }

    /// Launches kernel `name` of `module`. A synchronous launch (`cfg.queue == None`)
    /// returns once the kernel finished, with [`CudaError::KernelPanic`] if it panicked; an
    /// async one returns at once, and [`wait_queue`](Self::wait_queue) reports its failure.
    pub fn launch(&self, module: &Module, name: &str, cfg: LaunchConfig, args: &mut KernelArgs) -> Result<(), CudaError> {
        self.launch_inner(module, name, cfg, args, false).map(|_| ())
    }

    /// A synchronous launch timed with CUDA events; returns the kernel's time in
    /// milliseconds.
    pub fn launch_timed(&self, module: &Module, name: &str, mut cfg: LaunchConfig, args: &mut KernelArgs) -> Result<f32, CudaError> {
        cfg.queue = None;
        self.launch_inner(module, name, cfg, args, true).map(|t| t.unwrap_or(0.0))
    }

    fn launch_inner(
        &self,
        module: &Module,
        name: &str,
        cfg: LaunchConfig,
        args: &mut KernelArgs,
        timed: bool,
    ) -> Result<Option<f32>, CudaError> {
        self.enter()?;
        let (g, b) = (cfg.grid, cfg.block);
        if g.0 == 0 || g.1 == 0 || g.2 == 0 || cfg.block_threads() == 0 || cfg.block_threads() > self.props.max_threads_per_block {
            return Err(CudaError::Invalid(format!(
                "kernel `{name}`: cannot launch a grid of {g:?} blocks of {b:?} threads on {} (at most {} threads per block)",
                self.label, self.props.max_threads_per_block
            )));
        }
        let f = self.function(module, name, cfg.shared_bytes)?;
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
        let mut ptrs = args.pointers();
        // SAFETY: `f` is a kernel of a loaded module; `ptrs` holds one pointer per parameter,
        // each to a slot holding the parameter's bytes, alive for the call (the driver copies
        // them at launch). The kernel's parameter list is the caller's contract with the PTX.
        let r = unsafe {
            sys::cuLaunchKernel(f, g.0, g.1, g.2, b.0, b.1, b.2, cfg.shared_bytes, stream, ptrs.as_mut_ptr(), std::ptr::null_mut())
        };
        let doing = || format!("launching `{name}` ({} blocks of {} threads)", g.0 * g.1 * g.2, cfg.block_threads());
        if let Err(e) = r.result() {
            return Err(self.sync_error("cuLaunchKernel", e, Some(name.to_owned()), doing()));
        }
        if let Some(q) = cfg.queue {
            if let Some(queue) = lock(&self.queues).get_mut(&q) {
                queue.last_kernel = Some(name.to_owned());
            }
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

    /// Waits for async queue `q` (OpenACC `wait(q)`); reports a kernel panic or failure of
    /// the work queued on it.
    pub fn wait_queue(&self, q: i64) -> Result<(), CudaError> {
        self.enter()?;
        let (stream, kernel) = match lock(&self.queues).get(&q) {
            Some(s) => (s.stream, s.last_kernel.clone()),
            None => return Ok(()),
        };
        // SAFETY: a stream of this backend.
        unsafe { sys::cuStreamSynchronize(stream) }
            .result()
            .map_err(|e| self.sync_error("cuStreamSynchronize", e, kernel, format!("waiting for async queue {q}")))
    }

    /// Waits for every async queue (OpenACC `wait`).
    pub fn wait_all_queues(&self) -> Result<(), CudaError> {
        let qs: Vec<i64> = lock(&self.queues).keys().copied().collect();
        for q in qs {
            self.wait_queue(q)?;
        }
        Ok(())
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
                let _ = result::stream::destroy(q.stream);
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
    fn wait(&self, queue: i64) -> Result<(), String> {
        Ok(self.wait_queue(queue)?)
    }
    fn wait_all(&self) -> Result<(), String> {
        Ok(self.wait_all_queues()?)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
