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
//! args.panic_slot().slice(a, n).slice(b, n).slice(c, n);
//! let grid = gpu.default_grid(&module, "acc_k_vadd", 256, 0, n)?;
//! gpu.launch(&module, "acc_k_vadd", LaunchConfig::linear(grid, 256), &mut args)?;
//! # Ok::<(), acc_runtime::cuda::CudaError>(())
//! ```
//!
//! # Layers
//! `cudarc::driver::sys` (raw driver calls) -> `driver` (one checked wrapper per call: its
//! name kept in the error, and what the backend was doing added by `Doing::doing`) ->
//! owning types that free what they hold when dropped (`context::PrimaryContext`,
//! `queue::{Stream, Event}`, `alloc::{DeviceMem, PinnedHost}`, [`MappedBuf`]) ->
//! [`CudaBackend`] (safe methods, and the runtime's [`Backend`] interface). Files by concern: `context` (driver,
//! devices, the primary context), `alloc` (owned device and pinned allocations), `memory`
//! (allocations, transfers, pinned memory), `queue` (streams, events, async queues), `done`
//! (the end of a synchronous launch),
//! `panics` (a kernel panic record per stream), `launch` (modules, kernels, launches), `args`
//! (kernel arguments, launch shapes), `error`.
//!
//! # Launches
//! A launch path looks a kernel up once ([`CudaBackend::kernel`]) and launches the handle
//! ([`CudaBackend::launch_kernel`]): a synchronous launch is a `cuLaunchKernel` on the
//! backend's stream and a wait for a word of mapped host memory that the stream sets behind
//! the kernel (`done`: 1.5 us less a launch than `cuStreamSynchronize` on an H200), spun on
//! where the thread waits by spinning (`ACC_CUDA_SCHED`, see [`CudaBackend::new`]; the other
//! modes synchronise the stream). Where nothing of the region comes back to the host, that
//! wait is left to the next call that could tell the difference (`deferred`). Reduction partials live in pinned host memory mapped for the device
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
//! Each stream (the synchronous one, each async queue) has a host-mapped
//! [`PanicRecord`](acc_device::panic::PanicRecord) and a claim word (`panics::PanicSlot`); a
//! launch passes its stream's to the kernel, whose first parameter takes it. A kernel thread
//! that panics claims the record, fills it and ends itself; the rest of the launch runs on
//! (acc-device's `panic` module says why nothing waits for it). The synchronisation that
//! follows (of the launch, or a wait on its queue) finds the record, clears it, and returns
//! [`CudaError::KernelPanic`] with the kernel's name, the file, line and column, and the
//! message; the context stays usable. A kernel that traps or faults (a launch failure:
//! an illegal address, a kernel not built with acc-device) ends the CUDA context for good
//! (the driver keeps a context with a sticky error unusable until the process ends; a reset
//! of the primary context does not bring it back): later calls return
//! [`CudaError::Poisoned`]. Synchronous launches from several host threads share the
//! synchronous stream, where the GPU runs them one after the other anyway: each holds the
//! stream from its launch to the reading of its record, so that each thread gets its own
//! kernel's panic (a launch that returns before its kernel ends leaves the stream at once; a
//! launch of another thread waits for it first, `deferred`).

mod alloc;
mod args;
mod behind;
mod hosted;
mod kept;
mod context;
mod deferred;
mod done;
mod driver;
mod error;
mod launch;
mod memory;
mod panics;
mod pool;
mod queue;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

pub use args::{KernelArgs, LaunchConfig};
pub use context::{device_count, DeviceProps};
pub(crate) use context::device_facts;
pub use error::CudaError;
pub use launch::{Kernel, Module};
pub use memory::MappedBuf;

use crate::backend::{Backend, DevPtr, DeviceType};
use alloc::PinnedHost;
use context::PrimaryContext;
use driver::{Doing, Failed};
use memory::Staging;
use panics::PanicSlot;
use queue::{labelled, Queues, Stream};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A loaded module's key: a hash of its PTX text, the text's length, and the block size and
/// registers a thread its kernels were compiled for (0: none).
type ModuleKey = (u64, usize, u32, u32);

/// Unique numbers for backends (a new backend may reuse a dropped one's address).
static BACKEND_IDS: AtomicU64 = AtomicU64::new(1);

/// One CUDA device, its primary context, and what acc keeps with it.
///
/// Its fields drop in order after [`Drop::drop`] (which synchronises and unloads the
/// modules): the streams, pinned buffers and events first, the context last.
pub struct CudaBackend {
    /// Unique among the backends of the process (caches of handles are keyed by it).
    id: u64,
    num: usize,
    label: String,
    props: DeviceProps,
    /// Async queues by number.
    queues: Mutex<Queues>,
    /// How many queues are busy (work queued since their last wait): synchronous transfers
    /// to the host and frees wait for them first.
    busy_queues: AtomicUsize,
    /// Mapped buffers for reuse ([`CudaBackend::take_mapped`]).
    mapped: Mutex<Vec<MappedBuf>>,
    /// The live allocations, and the freed ones kept for reuse (`pool`).
    pool: Mutex<pool::Pool>,
    /// Loaded modules by a hash of their PTX text (and its length), and the block size and
    /// registers a thread they were compiled for (0: none).
    modules: Mutex<HashMap<ModuleKey, Arc<Module>>>,
    /// The panic record of the synchronous stream.
    sync_panic: Arc<PanicSlot>,
    /// The word the synchronous stream sets at the end of a synchronous launch.
    sync_done: done::Done,
    /// Held by a synchronous launch from the launch until its panic record was read.
    sync_launch: Mutex<()>,
    /// The synchronous launches not yet waited for (`deferred.rs`), whether there are any
    /// (read by every call without the lock), and whether launches may return before their
    /// kernels end (not with `ACC_LAUNCH_BLOCKING=1`).
    window: Mutex<deferred::Window>,
    has_pending: AtomicBool,
    defer_on: bool,
    /// Failures found by one thread's wait among another thread's launches, for that
    /// thread's next use of the backend, and how many (read without the lock).
    parked: Mutex<Vec<(std::thread::ThreadId, CudaError)>>,
    parked_count: AtomicUsize,
    staging: Mutex<Option<Staging>>,
    /// The pinned buffer small synchronous transfers go through (made at first use; see
    /// `memory.rs`), and whether they do.
    bounce: Mutex<Option<PinnedHost>>,
    bounced: bool,
    /// The pinned buffers of the small copies a synchronous region's launch does not wait
    /// for (`CudaBackend::h2d_ahead`), made at first use.
    ahead: Mutex<Option<memory::Ahead>>,
    /// How many such copies were queued, and how many of them are known to have landed
    /// (while fewer have, work on other streams and frees wait for the synchronous stream).
    ahead_queued: AtomicU64,
    ahead_landed: AtomicU64,
    /// The copies back a synchronous region's launch queues behind its kernel
    /// (`behind.rs`), and how many are asked for (read by every launch without the lock).
    behind: Mutex<behind::Downloads>,
    behind_count: AtomicUsize,
    /// Whether copies back go behind launches (`ACC_EXP_NOBEHIND=1`: not; an A/B switch).
    behind_on: bool,
    /// The device copies of small arrays kept between the calls of their synchronous region
    /// (`kept.rs`), and whether they are kept (`ACC_EXP_NOKEEP=1`: not; an A/B switch).
    kept: Mutex<kept::KeptCopies>,
    keep_on: bool,
    /// The device copies that live in host memory (`hosted.rs`), how many (read without the
    /// lock by every transfer and free), and whether there are any (`ACC_EXP_NOHOSTED=1`:
    /// not; an A/B switch).
    hosted: Mutex<Vec<MappedBuf>>,
    hosted_count: AtomicUsize,
    hosted_made: AtomicU64,
    hosted_on: bool,
    /// Whether large transfers are staged (see [`CudaBackend::set_staged_transfers`]).
    staged: AtomicBool,
    /// Set once a kernel trapped or faulted: the context is gone.
    poisoned: Mutex<Option<String>>,
    /// Whether `poisoned` is set (checked by every call without taking the lock).
    is_poisoned: AtomicBool,
    /// The stream of synchronous work.
    sync_stream: Stream,
    /// The device's primary context: dropped last.
    ctx: PrimaryContext,
}

// SAFETY: the handles are driver objects the driver lets any thread use once the context is
// current (every method makes it current); the mutable state is behind mutexes.
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
        let ctx = PrimaryContext::open(num)?;
        let props = DeviceProps::query(ctx.device())?;
        let sync_stream = Stream::new(|| "creating the synchronous stream".into())?;
        let sync_panic = Arc::new(PanicSlot::new(sync_stream.raw(), "the panic record of the synchronous stream")?);
        let sync_done = done::Done::new("the end of the synchronous stream's launches")?;
        Ok(CudaBackend {
            id: BACKEND_IDS.fetch_add(1, Ordering::Relaxed),
            num,
            label: format!("{} (device {num})", props.name),
            props,
            queues: Mutex::new(HashMap::new()),
            busy_queues: AtomicUsize::new(0),
            mapped: Mutex::new(Vec::new()),
            pool: Mutex::new(pool::Pool::from_env()),
            modules: Mutex::new(HashMap::new()),
            sync_panic,
            sync_done,
            sync_launch: Mutex::new(()),
            window: Mutex::new(deferred::Window::default()),
            has_pending: AtomicBool::new(false),
            defer_on: !std::env::var_os("ACC_LAUNCH_BLOCKING").is_some_and(|v| !v.is_empty() && v != "0"),
            parked: Mutex::new(Vec::new()),
            parked_count: AtomicUsize::new(0),
            staging: Mutex::new(None),
            bounce: Mutex::new(None),
            bounced: std::env::var_os("ACC_EXP_NOBOUNCE").is_none(),
            ahead: Mutex::new(None),
            ahead_queued: AtomicU64::new(0),
            ahead_landed: AtomicU64::new(0),
            behind: Mutex::new(behind::Downloads::default()),
            behind_count: AtomicUsize::new(0),
            behind_on: std::env::var_os("ACC_EXP_NOBEHIND").is_none(),
            kept: Mutex::new(kept::KeptCopies::default()),
            keep_on: std::env::var_os("ACC_EXP_NOKEEP").is_none(),
            hosted: Mutex::new(Vec::new()),
            hosted_count: AtomicUsize::new(0),
            hosted_made: AtomicU64::new(0),
            hosted_on: std::env::var_os("ACC_EXP_NOHOSTED").is_none(),
            staged: AtomicBool::new(std::env::var_os("ACC_CUDA_STAGING").is_some_and(|v| v == "1")),
            poisoned: Mutex::new(None),
            is_poisoned: AtomicBool::new(false),
            sync_stream,
            ctx,
        })
    }

    /// A number that identifies this backend among all the backends the process opened,
    /// even one at the same address after this one dropped.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The device's properties.
    pub fn props(&self) -> &DeviceProps {
        &self.props
    }

    /// The number of streaming multiprocessors (for default launch geometry).
    pub fn sm_count(&self) -> u32 {
        self.props.sm_count
    }

    /// Makes the context current on this thread, unless a kernel failure poisoned it, and
    /// waits for the synchronous launches not yet waited for (`deferred.rs`).
    fn enter(&self) -> Result<(), CudaError> {
        self.make_current()?;
        self.settle_sync()
    }

    /// [`enter`](Self::enter) without the wait for the launches not yet waited for (a
    /// synchronous launch, which adds its own to them).
    fn make_current(&self) -> Result<(), CudaError> {
        if self.is_poisoned.load(Ordering::Acquire) {
            if let Some(why) = lock(&self.poisoned).clone() {
                return Err(CudaError::Poisoned(why));
            }
        }
        self.ctx.make_current().doing(|| "selecting the device".into())
    }

    /// Records a failure: a sticky one poisons the context for every later call.
    fn fail(&self, e: CudaError) -> CudaError {
        if e.is_sticky() {
            self.poison(&e);
        }
        e
    }

    /// Takes the kernel panic recorded in `slot` (that of `stream`), if any, after a
    /// synchronisation of `stream` that succeeded (the context is fine: the panicking thread
    /// only ended itself). `kernel` names the kernel the synchronisation waited for, if it
    /// knows which.
    fn take_panic(&self, slot: &PanicSlot, stream: cudarc::driver::sys::CUstream, kernel: Option<&str>) -> Result<(), CudaError> {
        match slot.take(stream).doing(|| "clearing a kernel panic record".into()).map_err(|e| self.fail(e))? {
            Some(record) => Err(CudaError::KernelPanic { kernel: kernel.map(str::to_owned), record: Box::new(record) }),
            None => Ok(()),
        }
    }

    /// Turns a failed synchronisation of `slot`'s stream into the kernel's panic when the
    /// device recorded one (a kernel whose panics trap, or a fault after a panic), else into
    /// the driver's error.
    fn sync_error(&self, f: Failed, slot: &PanicSlot, kernel: Option<String>, doing: String) -> CudaError {
        let err = match slot.record() {
            Some(record) => CudaError::KernelPanic { kernel, record: Box::new(record) },
            None => CudaError::driver(f.call, f.error, match kernel {
                Some(k) => format!("{doing} (kernel `{k}`)"),
                None => doing,
            }),
        };
        if error::is_sticky(f.error.0) {
            self.poison(&err);
        }
        self.fail(err)
    }

    /// Marks the context lost, for `why`.
    fn poison(&self, why: &CudaError) {
        lock(&self.poisoned).get_or_insert_with(|| why.to_string());
        self.is_poisoned.store(true, Ordering::Release);
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
        let alive = self.make_current().is_ok();
        if alive {
            let _ = self.settle_sync();
            let _ = driver::ctx_synchronize();
        }
        for m in lock(&self.modules).values() {
            // SAFETY: the backend's modules, unloaded once, here; nothing launches any more
            // (the backend is going away, and the context was synchronised).
            let _ = unsafe { driver::module_unload(m.module) };
        }
        if alive {
            for q in lock(&self.queues).values() {
                for &(_, p) in &q.frees {
                    // SAFETY: given to `free_after`; the context was synchronised.
                    let _ = unsafe { driver::mem_free(p) };
                }
            }
            for p in lock(&self.pool).drain() {
                // SAFETY: freed by its owner and kept; the context was synchronised.
                let _ = unsafe { driver::mem_free(p) };
            }
        }
        // The fields drop next: streams, pinned memory and events, then the context.
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
    fn alloc_hosted(&self, bytes: usize) -> Option<DevPtr> {
        // (Where pinned memory cannot be had, device memory serves.)
        CudaBackend::alloc_hosted(self, bytes).ok().flatten().map(DevPtr)
    }
    unsafe fn free(&self, ptr: DevPtr) -> Result<(), String> {
        // SAFETY: the trait's contract is `free_bytes`'s.
        Ok(unsafe { self.free_bytes(ptr.0) }?)
    }
    unsafe fn h2d(&self, dst: DevPtr, src: *const u8, bytes: usize) -> Result<(), String> {
        // SAFETY: the trait's contract is `h2d_bytes`'s.
        Ok(unsafe { self.h2d_bytes(dst.0, src, bytes) }?)
    }
    unsafe fn h2d_before_launch(&self, dst: DevPtr, src: *const u8, bytes: usize) -> Result<(), String> {
        // SAFETY: the trait's contract is `h2d_ahead`'s.
        Ok(unsafe { self.h2d_ahead(dst.0, src, bytes) }?)
    }
    fn download_behind_launch(&self, region: &'static crate::region_info::RegionInfo, dev: DevPtr, bytes: usize) -> Result<(), String> {
        self.download_behind(std::ptr::from_ref(region) as usize, dev.0, bytes).map(|_| ()).map_err(String::from)
    }
    fn forget_downloads_behind(&self) {
        CudaBackend::forget_downloads_behind(self);
    }
    unsafe fn keep_copy(&self, key: (usize, usize), dev: DevPtr, host: &[u8]) -> bool {
        // SAFETY: the trait's contract is `keep_copy`'s.
        unsafe { CudaBackend::keep_copy(self, key, dev.0, host) }
    }
    fn take_copy(&self, key: (usize, usize), host: &[u8]) -> Option<(DevPtr, bool)> {
        CudaBackend::take_copy(self, key, host).map(|(dev, same)| (DevPtr(dev), same))
    }
    unsafe fn d2h(&self, dst: *mut u8, src: DevPtr, bytes: usize) -> Result<(), String> {
        // SAFETY: the trait's contract is `d2h_bytes`'s.
        Ok(unsafe { self.d2h_bytes(dst, src.0, bytes) }?)
    }
    unsafe fn d2d(&self, dst: DevPtr, src: DevPtr, bytes: usize) -> Result<(), String> {
        // SAFETY: the trait's contract is `d2d_bytes`'s.
        Ok(unsafe { self.d2d_bytes(dst.0, src.0, bytes) }?)
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
        // The synchronous launches not yet waited for too: after a wait the host sees what
        // every region before it wrote.
        self.wait_launches()?;
        self.wait_queue_labelled(queue).map_err(labelled)
    }
    fn wait_all(&self) -> Result<(), String> {
        self.wait_launches()?;
        self.wait_all_labelled().map_err(labelled)
    }
    fn test(&self, queue: i64) -> Result<bool, String> {
        Ok(self.test_queue(queue)?)
    }
    fn test_all(&self) -> Result<bool, String> {
        Ok(self.test_all_queues()?)
    }
    fn wait_launches(&self) -> Result<(), String> {
        self.make_current()?;
        Ok(self.settle_sync()?)
    }
    fn wait_on(&self, queue: i64, on: Option<i64>) -> Result<(), String> {
        Ok(self.queue_wait_for(queue, on)?)
    }
    fn lost(&self) -> Option<String> {
        self.lost_reason()
    }
    fn memory(&self) -> Option<(usize, usize)> {
        self.mem_info().ok()
    }
    fn release_kept(&self) -> Result<(), String> {
        Ok(self.release_kept_memory()?)
    }
}
