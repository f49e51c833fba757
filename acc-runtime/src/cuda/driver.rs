//! The CUDA driver calls the backend makes, each once, checked: a failure comes back as
//! [`Failed`] (the call's name and the driver's error), which [`Doing::doing`] turns into a
//! [`CudaError`] that also says what the backend was doing. Every `unsafe` driver call of the
//! backend is here; the rest of it calls these (as cudarc's `result` module wraps `sys`).

use std::ffi::{c_void, CStr};

use cudarc::driver::result::DriverError;
use cudarc::driver::{result, sys};

use super::error::CudaError;

/// A driver call that failed: its name and the driver's error.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Failed {
    pub(crate) call: &'static str,
    pub(crate) error: DriverError,
}

/// The result of a driver call.
pub(crate) type Driven<T> = Result<T, Failed>;

/// `r` as a [`Driven`] of call `call`.
fn check(call: &'static str, r: sys::CUresult) -> Driven<()> {
    r.result().map_err(|error| Failed { call, error })
}

/// A cudarc `result` call's error, named.
fn named<T>(call: &'static str, r: Result<T, DriverError>) -> Driven<T> {
    r.map_err(|error| Failed { call, error })
}

/// Turns a failed call into a [`CudaError`] saying what the backend was doing.
pub(crate) trait Doing<T> {
    /// The error with `what` (`allocating 4096 bytes on ..`).
    fn doing(self, what: impl FnOnce() -> String) -> Result<T, CudaError>;
}

impl<T> Doing<T> for Driven<T> {
    fn doing(self, what: impl FnOnce() -> String) -> Result<T, CudaError> {
        self.map_err(|f| CudaError::driver(f.call, f.error, what()))
    }
}

// ---- driver and devices ---------------------------------------------------------------------

/// Whether the driver library (libcuda.so) can be loaded.
pub(crate) fn library_present() -> bool {
    // SAFETY: probing for the library has no precondition.
    unsafe { sys::is_culib_present() }
}

/// `cuInit`.
pub(crate) fn init() -> Driven<()> {
    named("cuInit", result::init())
}

/// `cuDeviceGetCount`.
pub(crate) fn device_count() -> Driven<i32> {
    named("cuDeviceGetCount", result::device::get_count())
}

/// `cuDriverGetVersion`: the CUDA version the driver supports, `1000 * major + 10 * minor`.
pub(crate) fn driver_version() -> Driven<i32> {
    let mut v = 0;
    // SAFETY: writes one `int` to a local.
    check("cuDriverGetVersion", unsafe { sys::cuDriverGetVersion(&mut v) })?;
    Ok(v)
}

/// `cuDeviceGet`.
pub(crate) fn device(ordinal: i32) -> Driven<sys::CUdevice> {
    named("cuDeviceGet", result::device::get(ordinal))
}

/// `cuDeviceGetName`.
pub(crate) fn device_name(dev: sys::CUdevice) -> Driven<String> {
    named("cuDeviceGetName", result::device::get_name(dev))
}

/// `cuDeviceGetAttribute`.
pub(crate) fn device_attribute(dev: sys::CUdevice, a: sys::CUdevice_attribute) -> Driven<i32> {
    // SAFETY: a device handle from `cuDeviceGet`; an attribute of the driver's enum.
    named("cuDeviceGetAttribute", unsafe { result::device::get_attribute(dev, a) })
}

/// `cuDeviceTotalMem`.
pub(crate) fn device_total_mem(dev: sys::CUdevice) -> Driven<usize> {
    // SAFETY: a device handle from `cuDeviceGet`.
    named("cuDeviceTotalMem", unsafe { result::device::total_mem(dev) })
}

// ---- contexts ---------------------------------------------------------------------------------

/// `cuDevicePrimaryCtxGetState`: the primary context's flags and whether it is active.
pub(crate) fn primary_ctx_state(dev: sys::CUdevice) -> Driven<(u32, bool)> {
    let (mut flags, mut active) = (0u32, 0i32);
    // SAFETY: a device handle and two local out-parameters.
    check("cuDevicePrimaryCtxGetState", unsafe { sys::cuDevicePrimaryCtxGetState(dev, &mut flags, &mut active) })?;
    Ok((flags, active != 0))
}

/// `cuDevicePrimaryCtxSetFlags`.
pub(crate) fn primary_ctx_set_flags(dev: sys::CUdevice, flags: u32) -> Driven<()> {
    // SAFETY: a device handle; flags the driver checks.
    check("cuDevicePrimaryCtxSetFlags", unsafe { sys::cuDevicePrimaryCtxSetFlags_v2(dev, flags) })
}

/// `cuDevicePrimaryCtxRetain`.
///
/// # Safety
/// The context is released once ([`primary_ctx_release`]) when no longer used.
pub(crate) unsafe fn primary_ctx_retain(dev: sys::CUdevice) -> Driven<sys::CUcontext> {
    // SAFETY: the caller's contract.
    named("cuDevicePrimaryCtxRetain", unsafe { result::primary_ctx::retain(dev) })
}

/// `cuDevicePrimaryCtxRelease`.
///
/// # Safety
/// Releases one retain of the device's primary context; nothing uses it through that retain
/// afterwards.
pub(crate) unsafe fn primary_ctx_release(dev: sys::CUdevice) -> Driven<()> {
    // SAFETY: the caller's contract.
    named("cuDevicePrimaryCtxRelease", unsafe { result::primary_ctx::release(dev) })
}

/// `cuCtxSetCurrent`.
///
/// # Safety
/// `ctx` is a live (retained) context.
pub(crate) unsafe fn ctx_set_current(ctx: sys::CUcontext) -> Driven<()> {
    // SAFETY: the caller's contract.
    named("cuCtxSetCurrent", unsafe { result::ctx::set_current(ctx) })
}

/// `cuCtxGetCurrent`: the calling thread's current context (null when it has none).
pub(crate) fn ctx_get_current() -> Driven<sys::CUcontext> {
    let mut ctx = std::ptr::null_mut();
    // SAFETY: writes one handle to `ctx`.
    check("cuCtxGetCurrent", unsafe { sys::cuCtxGetCurrent(&mut ctx) }).map(|()| ctx)
}

/// `cuCtxSynchronize` of the current context.
pub(crate) fn ctx_synchronize() -> Driven<()> {
    // SAFETY: no argument; without a current context the driver returns an error.
    check("cuCtxSynchronize", unsafe { sys::cuCtxSynchronize() })
}

// ---- memory -------------------------------------------------------------------------------------

/// `cuMemGetInfo`: free and total device memory of the current context's device.
pub(crate) fn mem_info() -> Driven<(usize, usize)> {
    let (mut free, mut total) = (0, 0);
    // SAFETY: two local out-parameters.
    check("cuMemGetInfo", unsafe { sys::cuMemGetInfo_v2(&mut free, &mut total) })?;
    Ok((free, total))
}

/// `cuMemAlloc` in the current context.
pub(crate) fn mem_alloc(bytes: usize) -> Driven<sys::CUdeviceptr> {
    let mut p = 0;
    // SAFETY: a plain allocation into a local.
    check("cuMemAlloc", unsafe { sys::cuMemAlloc_v2(&mut p, bytes) })?;
    Ok(p)
}

/// `cuMemFree`.
///
/// # Safety
/// `p` came from [`mem_alloc`], is freed once, and no pending work uses it.
pub(crate) unsafe fn mem_free(p: sys::CUdeviceptr) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuMemFree", unsafe { sys::cuMemFree_v2(p) })
}

/// `cuMemsetD8Async`.
///
/// # Safety
/// `p .. p + bytes` lies in a live allocation; `stream` is a live stream.
pub(crate) unsafe fn memset_d8_async(p: sys::CUdeviceptr, value: u8, bytes: usize, stream: sys::CUstream) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuMemsetD8Async", unsafe { sys::cuMemsetD8Async(p, value, bytes, stream) })
}

/// `cuMemcpyHtoDAsync`.
///
/// # Safety
/// `src` stays readable for `bytes` bytes until the copy completed; `dst .. dst + bytes` lies
/// in a live allocation; `stream` is a live stream.
pub(crate) unsafe fn memcpy_htod_async(dst: sys::CUdeviceptr, src: *const u8, bytes: usize, stream: sys::CUstream) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuMemcpyHtoDAsync", unsafe { sys::cuMemcpyHtoDAsync_v2(dst, src.cast(), bytes, stream) })
}

/// `cuMemcpyDtoHAsync`.
///
/// # Safety
/// `dst` stays writable for `bytes` bytes, and untouched by others, until the copy
/// completed; `src .. src + bytes` lies in a live allocation; `stream` is a live stream.
pub(crate) unsafe fn memcpy_dtoh_async(dst: *mut u8, src: sys::CUdeviceptr, bytes: usize, stream: sys::CUstream) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuMemcpyDtoHAsync", unsafe { sys::cuMemcpyDtoHAsync_v2(dst.cast(), src, bytes, stream) })
}

/// `cuMemcpyDtoDAsync`.
///
/// # Safety
/// Both ranges lie in live allocations and do not overlap; `stream` is a live stream.
pub(crate) unsafe fn memcpy_dtod_async(dst: sys::CUdeviceptr, src: sys::CUdeviceptr, bytes: usize, stream: sys::CUstream) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuMemcpyDtoDAsync", unsafe { sys::cuMemcpyDtoDAsync_v2(dst, src, bytes, stream) })
}

/// `cuMemHostAlloc`: `bytes` of pinned host memory.
pub(crate) fn mem_host_alloc(bytes: usize, flags: u32) -> Driven<*mut u8> {
    // SAFETY: a plain pinned allocation, returned as bytes.
    named("cuMemHostAlloc", unsafe { result::malloc_host(bytes, flags) }).map(|p| p.cast())
}

/// `cuMemFreeHost`.
///
/// # Safety
/// `p` came from [`mem_host_alloc`], is freed once, and nothing (host or device) uses it
/// afterwards.
pub(crate) unsafe fn mem_host_free(p: *mut u8) -> Driven<()> {
    // SAFETY: the caller's contract.
    named("cuMemFreeHost", unsafe { result::free_host(p.cast()) })
}

/// `cuMemHostGetDevicePointer`: the device address of mapped pinned memory.
///
/// # Safety
/// `p` came from [`mem_host_alloc`] with `CU_MEMHOSTALLOC_DEVICEMAP` and is live.
pub(crate) unsafe fn mem_host_device_pointer(p: *mut u8) -> Driven<sys::CUdeviceptr> {
    let mut dev = 0;
    // SAFETY: the caller's contract; a local out-parameter.
    check("cuMemHostGetDevicePointer", unsafe { sys::cuMemHostGetDevicePointer_v2(&mut dev, p.cast(), 0) })?;
    Ok(dev)
}

// ---- streams and events ---------------------------------------------------------------------

/// `cuStreamCreate` of a non-blocking stream.
pub(crate) fn stream_create() -> Driven<sys::CUstream> {
    named("cuStreamCreate", result::stream::create(result::stream::StreamKind::NonBlocking))
}

/// `cuStreamDestroy`.
///
/// # Safety
/// `s` came from [`stream_create`] and is destroyed once.
pub(crate) unsafe fn stream_destroy(s: sys::CUstream) -> Driven<()> {
    // SAFETY: the caller's contract.
    named("cuStreamDestroy", unsafe { result::stream::destroy(s) })
}

/// `cuStreamSynchronize`.
///
/// # Safety
/// `s` is a live stream.
pub(crate) unsafe fn stream_synchronize(s: sys::CUstream) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuStreamSynchronize", unsafe { sys::cuStreamSynchronize(s) })
}

/// `cuStreamQuery`: whether the work queued on `s` has completed (`false` while it runs).
///
/// # Safety
/// `s` is a live stream.
pub(crate) unsafe fn stream_query(s: sys::CUstream) -> Driven<bool> {
    // SAFETY: the caller's contract.
    match unsafe { sys::cuStreamQuery(s) } {
        sys::CUresult::CUDA_ERROR_NOT_READY => Ok(false),
        r => check("cuStreamQuery", r).map(|()| true),
    }
}

/// `cuStreamWriteValue32` (`_v2`): `value` written to `addr` once the work queued on `s` before it
/// has completed, behind a memory barrier (the default flags).
///
/// # Safety
/// `s` is a live stream; `addr` a device address of 4 writable bytes while the write is
/// pending.
pub(crate) unsafe fn stream_write_value32(s: sys::CUstream, addr: sys::CUdeviceptr, value: u32) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuStreamWriteValue32", unsafe { sys::cuStreamWriteValue32_v2(s, addr, value, 0) })
}

/// `cuEventCreate`.
pub(crate) fn event_create(flags: sys::CUevent_flags) -> Driven<sys::CUevent> {
    named("cuEventCreate", result::event::create(flags))
}

/// `cuEventDestroy`.
///
/// # Safety
/// `e` came from [`event_create`] and is destroyed once.
pub(crate) unsafe fn event_destroy(e: sys::CUevent) -> Driven<()> {
    // SAFETY: the caller's contract.
    named("cuEventDestroy", unsafe { result::event::destroy(e) })
}

/// `cuEventRecord`.
///
/// # Safety
/// `e` and `s` are live.
pub(crate) unsafe fn event_record(e: sys::CUevent, s: sys::CUstream) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuEventRecord", unsafe { sys::cuEventRecord(e, s) })
}

/// `cuStreamWaitEvent`: work queued on `s` after this waits, on the device, for the work
/// recorded before `e`.
///
/// # Safety
/// `s` and `e` are live, of the same context.
pub(crate) unsafe fn stream_wait_event(s: sys::CUstream, e: sys::CUevent) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuStreamWaitEvent", unsafe { sys::cuStreamWaitEvent(s, e, 0) })
}

/// `cuEventSynchronize`.
///
/// # Safety
/// `e` is live.
pub(crate) unsafe fn event_synchronize(e: sys::CUevent) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuEventSynchronize", unsafe { sys::cuEventSynchronize(e) })
}

/// `cuEventElapsedTime`, in milliseconds.
///
/// # Safety
/// Both events are live, timing events, recorded and completed.
pub(crate) unsafe fn event_elapsed(start: sys::CUevent, end: sys::CUevent) -> Driven<f32> {
    // SAFETY: the caller's contract.
    named("cuEventElapsedTime", unsafe { result::event::elapsed(start, end) })
}

// ---- modules and kernels --------------------------------------------------------------------

/// `cuModuleLoadDataEx` of a PTX text, the JIT compiler's errors written to `log`; the
/// driver's code on failure. `block_threads` > 0 compiles every kernel of it for blocks of
/// that many threads (`CU_JIT_THREADS_PER_BLOCK`: the compiler keeps each kernel's registers
/// per thread low enough for such a block to launch); `max_registers` > 0 keeps each kernel
/// to that many registers a thread (`CU_JIT_MAX_REGISTERS`: more spill to local memory).
pub(crate) fn module_load(image: &CStr, log: &mut [u8], block_threads: u32, max_registers: u32) -> Result<sys::CUmodule, sys::CUresult> {
    let mut options = vec![sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER, sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
    let mut values = vec![log.as_mut_ptr().cast::<c_void>(), log.len() as *mut c_void];
    for (option, value) in [(sys::CUjit_option::CU_JIT_THREADS_PER_BLOCK, block_threads), (sys::CUjit_option::CU_JIT_MAX_REGISTERS, max_registers)] {
        if value > 0 {
            options.push(option);
            values.push(value as usize as *mut c_void);
        }
    }
    let mut module = std::ptr::null_mut();
    // SAFETY: `image` is a NUL-terminated text; the option arrays have `options.len()`
    // entries each, the log buffer the size given, and all outlive the call.
    let r = unsafe { sys::cuModuleLoadDataEx(&mut module, image.as_ptr().cast(), options.len() as u32, options.as_mut_ptr(), values.as_mut_ptr()) };
    if r == sys::CUresult::CUDA_SUCCESS {
        Ok(module)
    } else {
        Err(r)
    }
}

/// `cuModuleUnload`.
///
/// # Safety
/// `m` came from [`module_load`], is unloaded once, and none of its kernels runs or is
/// launched afterwards.
pub(crate) unsafe fn module_unload(m: sys::CUmodule) -> Driven<()> {
    // SAFETY: the caller's contract.
    named("cuModuleUnload", unsafe { result::module::unload(m) })
}

/// `cuModuleGetFunction`.
///
/// # Safety
/// `m` is a loaded module.
pub(crate) unsafe fn module_function(m: sys::CUmodule, name: &CStr) -> Driven<sys::CUfunction> {
    // SAFETY: the caller's contract.
    named("cuModuleGetFunction", unsafe { result::module::get_function(m, name.to_owned()) })
}

/// `cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)`.
///
/// # Safety
/// `f` is a kernel of a loaded module.
pub(crate) unsafe fn func_set_max_dynamic_shared(f: sys::CUfunction, bytes: u32) -> Driven<()> {
    let a = sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
    // SAFETY: the caller's contract; the driver checks the value.
    check("cuFuncSetAttribute", unsafe { sys::cuFuncSetAttribute(f, a, bytes as i32) })
}

/// `cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)`.
///
/// # Safety
/// `f` is a kernel of a loaded module.
pub(crate) unsafe fn func_max_threads(f: sys::CUfunction) -> Driven<i32> {
    let mut n = 0i32;
    let a = sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
    // SAFETY: the caller's contract; an `i32` out-parameter.
    check("cuFuncGetAttribute", unsafe { sys::cuFuncGetAttribute(&mut n, a, f) })?;
    Ok(n)
}

/// `cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS)`: the registers a thread of the kernel uses.
///
/// # Safety
/// `f` is a kernel of a loaded module.
pub(crate) unsafe fn func_num_regs(f: sys::CUfunction) -> Driven<i32> {
    // SAFETY: the caller's contract.
    unsafe { func_attribute(f, sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_NUM_REGS) }
}

/// `cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)`: the local memory a thread of the
/// kernel uses (its spilled registers among it).
///
/// # Safety
/// `f` is a kernel of a loaded module.
pub(crate) unsafe fn func_local_bytes(f: sys::CUfunction) -> Driven<i32> {
    // SAFETY: the caller's contract.
    unsafe { func_attribute(f, sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES) }
}

/// `cuFuncGetAttribute` of an `i32` attribute.
///
/// # Safety
/// `f` is a kernel of a loaded module.
unsafe fn func_attribute(f: sys::CUfunction, a: sys::CUfunction_attribute) -> Driven<i32> {
    let mut n = 0i32;
    // SAFETY: the caller's contract; an `i32` out-parameter.
    check("cuFuncGetAttribute", unsafe { sys::cuFuncGetAttribute(&mut n, a, f) })?;
    Ok(n)
}

/// `cuOccupancyMaxActiveBlocksPerMultiprocessor`.
///
/// # Safety
/// `f` is a kernel of a loaded module.
pub(crate) unsafe fn occupancy(f: sys::CUfunction, block_threads: u32, shared: u32) -> Driven<i32> {
    let mut n = 0;
    // SAFETY: the caller's contract; a local out-parameter.
    check("cuOccupancyMaxActiveBlocksPerMultiprocessor", unsafe {
        sys::cuOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, f, block_threads as i32, shared as usize)
    })?;
    Ok(n)
}

/// `cuLaunchKernel`.
///
/// # Safety
/// `f` is a kernel of a loaded module; `params` holds one pointer per kernel parameter, each
/// to the parameter's bytes, alive for the call (the driver copies them); what the kernel
/// reads and writes stays valid until it completed; `stream` is live.
pub(crate) unsafe fn launch_kernel(
    f: sys::CUfunction,
    grid: (u32, u32, u32),
    block: (u32, u32, u32),
    shared: u32,
    stream: sys::CUstream,
    params: *mut *mut c_void,
) -> Driven<()> {
    // SAFETY: the caller's contract.
    check("cuLaunchKernel", unsafe {
        sys::cuLaunchKernel(f, grid.0, grid.1, grid.2, block.0, block.1, block.2, shared, stream, params, std::ptr::null_mut())
    })
}
