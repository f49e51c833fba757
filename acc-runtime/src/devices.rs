//! Devices: selection (`ACC_DEVICE_TYPE`, `ACC_DEVICE_NUM`, [`set_device`]) and the runtime's
//! state per device: its open backend (see [`crate::backend`]) and its present table (the
//! runtime's `present` module).
//!
//! Each device the process uses (a type and a number) has its own backend (a CUDA context,
//! its queues and its loaded kernels) and its own present table. Each host thread has a
//! current device: the one it chose with [`set_device`], else the process default, chosen at
//! first use:
//!
//! | `ACC_DEVICE_TYPE` | backend |
//! | --- | --- |
//! | `host` | the host backend (rayon, shared memory) |
//! | `nvidia` | the CUDA backend; a panic saying why when it is unavailable |
//! | unset | the CUDA backend when available, else the host backend |
//!
//! Without the `cuda` feature the fallback is silent; with it, a missing driver or device is
//! reported by one line on stderr. `ACC_DEVICE_NUM=n` picks the device of that type.
//!
//! A device whose backend reports itself lost (a kernel that trapped or faulted: the CUDA
//! driver keeps such a process's CUDA unusable until it ends) is taken note of once: the data
//! it held is reported lost by name, every later use of it is an error that says why, and the
//! host device works on (`Device::open`).


use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

pub use crate::backend::{Backend, DevPtr, DeviceType, HostBackend};
pub use crate::region_info::{default_async, set_default_async, ASYNC_NOVAL, ASYNC_SYNC};
use crate::region_info::resolve_queue;
use crate::present::Table;
use crate::prof::{self, Construct, Event, Info};
#[cfg(feature = "cuda")]
use crate::cuda::CudaBackend;

/// An open backend: the runtime's interface to it, and, for a CUDA device, the backend by its
/// own type (what the GPU launch path needs: modules, kernels, mapped memory).
#[derive(Clone)]
pub(crate) struct Open {
    backend: Arc<dyn Backend>,
    #[cfg(feature = "cuda")]
    cuda: Option<Arc<CudaBackend>>,
}

impl Open {
    /// A backend that is not the CUDA backend (the host backend, the tests' mocks).
    pub(crate) fn other(backend: Arc<dyn Backend>) -> Self {
        Open {
            backend,
            #[cfg(feature = "cuda")]
            cuda: None,
        }
    }

    /// The CUDA backend.
    #[cfg(feature = "cuda")]
    fn cuda(c: CudaBackend) -> Self {
        let c = Arc::new(c);
        Open { backend: c.clone(), cuda: Some(c) }
    }
}

impl std::ops::Deref for Open {
    type Target = dyn Backend;
    fn deref(&self) -> &(dyn Backend + 'static) {
        &*self.backend
    }
}


/// Hook for the CUDA backend: opens device `num`, or says why it cannot (no driver, no such
/// device, ...). The CUDA backend (`#[cfg(feature = "cuda")] mod cuda`) plugs in here.
fn try_cuda_backend(num: usize) -> Result<Open, String> {
    #[cfg(feature = "cuda")]
    {
        let b = prof::device_init((DeviceType::Nvidia, num), !initialising(), || CudaBackend::new(num)).map_err(|e| e.to_string())?;
        if b.defers_waits() {
            static AT_EXIT: std::sync::Once = std::sync::Once::new();
            // SAFETY: `settle_at_exit` is an `extern "C" fn()` that does not unwind.
            AT_EXIT.call_once(|| unsafe {
                libc::atexit(settle_at_exit);
            });
        }
        Ok(Open::cuda(b))
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = num;
        Err("built without the `cuda` feature".to_string())
    }
}

/// At the process's exit: waits for the synchronous launches each open GPU has not waited for
/// (`cuda/deferred.rs`); a failure among them is printed and the process exits with status
/// 101, as a panic's would.
#[cfg(feature = "cuda")]
extern "C" fn settle_at_exit() {
    settle_or_exit("at exit");
}

/// Waits for the launches not yet waited for on every open GPU; where one of this thread's
/// failed, prints it after `when` and ends the process with status 101 (nothing is left to
/// unwind to: the process or the thread is ending).
#[cfg(feature = "cuda")]
fn settle_or_exit(when: &str) {
    let devices: Vec<Arc<Device>> = lock(&DEVICES).clone();
    for d in devices {
        let open = lock(&d.backend).clone();
        let Some(cuda) = open.and_then(|o| o.cuda) else { continue };
        if let Err(e) = cuda.settle_sync() {
            eprintln!("acc: {when}, {d}: {e}");
            // SAFETY: ends the process at once, as a failed panic would; nothing runs after.
            unsafe { libc::_exit(101) };
        }
    }
}

/// Waits, when the thread ends, for the synchronous launches it left without a wait
/// ([`settle_thread`]).
#[cfg(feature = "cuda")]
struct ThreadLaunches;

#[cfg(feature = "cuda")]
impl Drop for ThreadLaunches {
    fn drop(&mut self) {
        settle_or_exit("at the end of a thread");
    }
}

#[cfg(feature = "cuda")]
thread_local! {
    static THREAD_LAUNCHES: ThreadLaunches = const { ThreadLaunches };
}

/// Called by a thread whose synchronous launch returned before its kernel ended
/// (`cuda/deferred.rs`): when the thread ends, its launches not yet waited for are, and a
/// failure among them ends the process (printed), since no call of the thread is left to
/// report it. (The main thread's are waited for at the process's exit, [`settle_at_exit`].)
#[cfg(feature = "cuda")]
pub(crate) fn settle_thread() {
    THREAD_LAUNCHES.with(|_| {});
}

/// Hook for the CUDA backend: how many NVIDIA devices the driver reports (0 without a
/// driver). Only called with the `cuda` feature.
fn cuda_device_count() -> usize {
    #[cfg(feature = "cuda")]
    return crate::cuda::device_count();
    #[cfg(not(feature = "cuda"))]
    0
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere never leaves the state half-changed (every error is raised after the
    // locks are released), so a poisoned lock is simply taken over.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One device of the process: its backend and its present table. There is one per device
/// (type and number) the process uses, made at first use and kept for the process's life;
/// the backend opens at first use, closes at [`shutdown`], and is reported lost after a device
/// fault (see [`Device::open`]).
///
/// Locks are taken in this order: `table`, then `backend`, then `lost`, then the process's
/// first fault and the data module's index of where data is present; a thread never waits
/// for an earlier one while holding a later one.
pub(crate) struct Device {
    ty: DeviceType,
    num: usize,
    /// The open backend (`None` before first use and after `shutdown`).
    backend: Mutex<Option<Open>>,
    /// The present table of this device.
    pub(crate) table: Mutex<Table>,
    /// Why the device was lost (a kernel trapped or faulted), once it was: it cannot be used
    /// again in this process.
    lost: Mutex<Option<String>>,
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} device {}", self.ty, self.num)
    }
}

impl fmt::Display for Device {
    /// `nvidia device 1`, `host device 0`: how messages name a device.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} device {}", self.ty, self.num)
    }
}

impl Device {
    fn new(ty: DeviceType, num: usize) -> Self {
        Device { ty, num, backend: Mutex::new(None), table: Mutex::new(Table::new(ty, num)), lost: Mutex::new(None) }
    }

    /// The device's type.
    pub(crate) fn device_type(&self) -> DeviceType {
        self.ty
    }

    /// The device's number among the devices of its type.
    pub(crate) fn num(&self) -> usize {
        self.num
    }

    /// The open backend, opening it at first use (an error once the device is lost).
    pub(crate) fn backend(&self) -> Result<Arc<dyn Backend>, String> {
        self.open_backend(|o| o.backend.clone())
    }

    /// What `pick` takes of the open backend (opened at first use). Where it is open, only
    /// that is cloned: every launch asks for the CUDA handle, not for both.
    fn open_backend<R>(&self, pick: impl Fn(&Open) -> R) -> Result<R, String> {
        if let Some(b) = lock(&self.backend).as_ref().filter(|b| b.lost().is_none()) {
            return Ok(pick(b));
        }
        let mut table = lock(&self.table);
        self.open_in(&mut table).map(|o| pick(&o))
    }

    /// The open CUDA backend (opened at first use), or `None` when the device's backend is
    /// not the CUDA one.
    #[cfg(feature = "cuda")]
    pub(crate) fn cuda(&self) -> Result<Option<Arc<CudaBackend>>, String> {
        self.open_backend(|o| o.cuda.clone())
    }

    /// The open backend, as [`backend`](Self::backend), for a caller that holds the table.
    ///
    /// A device whose backend reports itself lost (a kernel trapped or faulted) is unusable
    /// for the rest of the process: the CUDA driver keeps a process with such a ("sticky")
    /// error unusable until it ends, and neither a reset of the primary context nor another
    /// GPU brings it back (seen on H200s, CUDA 13: retaining the context again, or another
    /// GPU's, fails with `CUDA_ERROR_LAUNCH_FAILED`). The loss is taken note of once
    /// ([`Device::take_loss`]: the table emptied, the data that lived only there named); from
    /// then on every use of the device is an error that says so; the host device works on.
    pub(crate) fn open(&self, table: &mut Table) -> Result<Arc<dyn Backend>, String> {
        self.open_in(table).map(|o| o.backend)
    }

    fn open_in(&self, table: &mut Table) -> Result<Open, String> {
        let mut slot = lock(&self.backend);
        if let Some(b) = slot.as_ref() {
            if b.lost().is_none() {
                return Ok(b.clone());
            }
            if let Some(msg) = self.note_loss(table, &**b) {
                eprintln!("acc: {msg}");
            }
        }
        if let Some(why) = lock(&self.lost).clone() {
            return Err(format!(
                "acc: {self} is lost since an earlier fault ({why}): CUDA stays unusable in a process where a kernel \
                 trapped or faulted; use the host device (acc::set_device(acc::DeviceType::Host, 0)), or restart the process"
            ));
        }
        let b = self.make_backend()?;
        *slot = Some(b.clone());
        Ok(b)
    }

    /// The backend when one is open.
    pub(crate) fn backend_if_open(&self) -> Option<Arc<dyn Backend>> {
        lock(&self.backend).as_ref().map(|o| o.backend.clone())
    }

    fn make_backend(&self) -> Result<Open, String> {
        match self.ty {
            DeviceType::Host => Ok(prof::device_init((DeviceType::Host, 0), !initialising(), || Open::other(Arc::new(HostBackend)))),
            DeviceType::Nvidia => try_cuda_backend(self.num).map_err(|why| {
                let after = match lock(&FAULT).as_ref() {
                    Some(f) => format!(
                        " (after the fault on {f}, CUDA refuses every device of this process: use the host device, or restart the process)"
                    ),
                    None => String::new(),
                };
                format!("acc: cannot open nvidia device {}: the CUDA backend is unavailable: {why}{after}", self.num)
            }),
        }
    }

    /// Whether the device was lost to a fault (its data is gone: nothing is left to give back).
    pub(crate) fn is_lost(&self) -> bool {
        // One lock at a time (`note_loss` takes `lost` while holding `backend`).
        let noted = lock(&self.lost).is_some();
        noted || lock(&self.backend).as_ref().is_some_and(|b| b.lost().is_some())
    }

    /// Makes `b` the open backend unless one is open already.
    fn install(&self, b: Open) {
        let mut slot = lock(&self.backend);
        if slot.is_none() {
            *slot = Some(b);
        }
    }

    /// After a device fault: the first time the open backend reports its device lost, takes
    /// note of it (the table emptied: the device copies are gone) and returns a sentence for
    /// the panic that reports the fault, naming the data lost. `None` when the device is fine
    /// or the loss was reported already.
    pub(crate) fn take_loss(&self) -> Option<String> {
        let mut table = lock(&self.table);
        let slot = lock(&self.backend);
        let b = slot.as_ref()?;
        b.lost()?;
        self.note_loss(&mut table, &**b)
    }

    fn note_loss(&self, table: &mut Table, b: &dyn Backend) -> Option<String> {
        let why = b.lost()?;
        let mut lost = lock(&self.lost);
        if lost.is_some() {
            return None;
        }
        lock(&FAULT).get_or_insert_with(|| format!("{self} ({why})"));
        *lost = Some(why);
        let names = table.clear_lost();
        let data = if names.is_empty() {
            "no data was on it".to_string()
        } else {
            format!(
                "the device copies of {} are lost (their host copies hold what they held at their last transfer)",
                names.join(", ")
            )
        };
        Some(format!(
            "{self} is lost: a kernel trapped or faulted, and CUDA stays unusable in such a process until it ends (a \
             reset does not bring it back, nor can another GPU be opened after it); {data}; regions can go on on the host \
             device (acc::set_device(acc::DeviceType::Host, 0))"
        ))
    }

    /// Waits for the queues, frees every array of the table and empties it, and closes the
    /// backend (OpenACC's `acc_shutdown` for this device). Returns the errors met.
    fn shutdown(&self) -> Vec<String> {
        let _span = prof::Span::start(Event::DeviceShutdownStart, |e| Info::api(e, "acc_shutdown", Construct::Shutdown, (self.ty, self.num), None));
        let mut table = lock(&self.table);
        let mut errors = Vec::new();
        let b = lock(&self.backend).take();
        match b {
            Some(b) if b.lost().is_none() => {
                if let Err(e) = b.wait_all() {
                    errors.push(e);
                }
                for dev in table.clear() {
                    if !b.is_host() {
                        // SAFETY: every device address in the table came from this backend's
                        // `alloc` and is freed once, here, as the table forgets it; the queues
                        // were drained above.
                        if let Err(e) = unsafe { b.free(dev) } {
                            errors.push(e);
                        }
                    }
                }
                if let Err(e) = b.release_kept() {
                    errors.push(e);
                }
            }
            Some(b) => {
                // A lost device: its memory went with it.
                self.note_loss(&mut table, &*b);
                table.clear_lost();
            }
            None => {
                table.clear();
            }
        }
        errors
    }
}

/// The first device fault of the process (`nvidia device 0 (why)`): after it CUDA opens no
/// device (seen on H200s with CUDA 13: retaining another GPU's primary context fails with
/// `CUDA_ERROR_LAUNCH_FAILED`), which the error of a later open says.
static FAULT: Mutex<Option<String>> = Mutex::new(None);

/// Every device the process has used, by type and number (never removed: a thread may hold
/// one while another shuts it down).
static DEVICES: Mutex<Vec<Arc<Device>>> = Mutex::new(Vec::new());

/// The device `ty`/`num` of the process (its backend not opened).
pub(crate) fn device(ty: DeviceType, num: usize) -> Arc<Device> {
    let mut all = lock(&DEVICES);
    if let Some(d) = all.iter().find(|d| d.ty == ty && d.num == num) {
        return d.clone();
    }
    let d = Arc::new(Device::new(ty, num));
    all.push(d.clone());
    d
}

/// Every device the process has used.
pub(crate) fn all() -> Vec<Arc<Device>> {
    lock(&DEVICES).clone()
}

/// The device of threads that did not call [`set_device`]: the environment's choice, made at
/// first use (see the module docs).
static DEFAULT: Mutex<Option<Arc<Device>>> = Mutex::new(None);
/// Bumped whenever [`DEFAULT`] changes (tests swap it), so that threads re-read it.
static DEFAULT_GEN: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread's device: its own choice ([`set_device`], `None` generation), or the
    /// process default as of a generation of [`DEFAULT_GEN`].
    static CURRENT: RefCell<Option<(Arc<Device>, Option<u64>)>> = const { RefCell::new(None) };
}

/// The process default device, choosing it from the environment at first use.
fn default_device() -> Result<(Arc<Device>, u64), String> {
    let mut d = lock(&DEFAULT);
    if let Some(dev) = d.as_ref() {
        return Ok((dev.clone(), DEFAULT_GEN.load(Ordering::Acquire)));
    }
    let ty = parse_device_type(std::env::var("ACC_DEVICE_TYPE").ok().as_deref())?;
    let num = parse_device_num(std::env::var("ACC_DEVICE_NUM").ok().as_deref())?;
    let dev = select_from_env(ty, num)?;
    *d = Some(dev.clone());
    Ok((dev, DEFAULT_GEN.fetch_add(1, Ordering::AcqRel) + 1))
}

/// The calling thread's device: the one it chose with [`set_device`], else the process
/// default (the environment's choice).
pub(crate) fn current() -> Result<Arc<Device>, String> {
    let cached = CURRENT.with(|c| match c.borrow().as_ref() {
        Some((d, None)) => Some(d.clone()),
        Some((d, Some(g))) if *g == DEFAULT_GEN.load(Ordering::Acquire) => Some(d.clone()),
        _ => None,
    });
    if let Some(d) = cached {
        return Ok(d);
    }
    let (d, g) = default_device()?;
    CURRENT.with(|c| *c.borrow_mut() = Some((d.clone(), Some(g))));
    Ok(d)
}

/// [`current`], panicking with the reason when the environment asks for a device that cannot
/// be had.
pub(crate) fn current_device() -> Arc<Device> {
    current().unwrap_or_else(|msg| panic!("{msg}"))
}

/// Opens the device the environment asks for (`ty`, `num` parsed from it).
fn select_from_env(ty: Option<DeviceType>, num: usize) -> Result<Arc<Device>, String> {
    match ty {
        Some(DeviceType::Host) => {
            if num != 0 {
                return Err(format!(
                    "acc: ACC_DEVICE_NUM={num} with ACC_DEVICE_TYPE=host: there is 1 host device, number 0"
                ));
            }
            Ok(device(DeviceType::Host, 0))
        }
        Some(DeviceType::Nvidia) => {
            let b = try_cuda_backend(num).map_err(|why| {
                format!("acc: ACC_DEVICE_TYPE=nvidia, but the CUDA backend is unavailable: {why}")
            })?;
            let d = device(DeviceType::Nvidia, num);
            d.install(b);
            Ok(d)
        }
        None => match try_cuda_backend(num) {
            Ok(b) => {
                let d = device(DeviceType::Nvidia, num);
                d.install(b);
                Ok(d)
            }
            Err(why) => {
                if cfg!(feature = "cuda") {
                    eprintln!("acc: no usable NVIDIA device ({why}); running regions on the host");
                }
                Ok(device(DeviceType::Host, 0))
            }
        },
    }
}

/// Parses `ACC_DEVICE_TYPE` (case-insensitive; unset or empty means "choose").
fn parse_device_type(v: Option<&str>) -> Result<Option<DeviceType>, String> {
    let Some(v) = v.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if v.eq_ignore_ascii_case("host") {
        Ok(Some(DeviceType::Host))
    } else if v.eq_ignore_ascii_case("nvidia") {
        Ok(Some(DeviceType::Nvidia))
    } else {
        Err(format!(
            "acc: ACC_DEVICE_TYPE=`{v}` is not a device type acc knows; accepted values: `host`, `nvidia` (or leave it unset to use a GPU when there is one)"
        ))
    }
}

/// Parses `ACC_DEVICE_NUM` (unset or empty means 0).
fn parse_device_num(v: Option<&str>) -> Result<usize, String> {
    let Some(v) = v.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(0);
    };
    v.parse().map_err(|_| {
        format!("acc: ACC_DEVICE_NUM=`{v}` is not a device number (expected 0, 1, 2, ...)")
    })
}

/// The calling thread's backend, opening it at first use. Panics when the environment asks
/// for a device that cannot be had.
pub fn backend() -> Arc<dyn Backend> {
    current_device().backend().unwrap_or_else(|msg| panic!("{msg}"))
}

/// The calling thread's device's CUDA backend, opening it at first use; `None` when its
/// device is not a CUDA device. What the GPU launch path (and a test that drives the driver
/// itself) reaches the backend's own methods by. Panics when the environment asks for a
/// device that cannot be had.
#[cfg(feature = "cuda")]
pub fn cuda_backend() -> Option<Arc<CudaBackend>> {
    current_device().cuda().unwrap_or_else(|msg| panic!("{msg}"))
}

/// The type of the calling thread's device, choosing the process default at first use (see
/// the module docs).
///
/// ```
/// // Without a GPU (or without the `cuda` feature) regions run on the host.
/// let t = acc_runtime::device_type();
/// assert!(matches!(t, acc_runtime::DeviceType::Host | acc_runtime::DeviceType::Nvidia));
/// ```
pub fn device_type() -> DeviceType {
    current_device().ty
}

/// The number of the calling thread's device among the devices of its type (OpenACC's
/// `acc_get_device_num`).
pub fn device_num() -> usize {
    current_device().num
}

/// Makes device `num` of type `ty` the calling thread's device (OpenACC's
/// `acc_set_device_type` and `acc_set_device_num` in one call; as there, the choice is the
/// thread's own: other threads keep theirs, and threads that never call it use the device
/// `ACC_DEVICE_TYPE`/`ACC_DEVICE_NUM` choose).
///
/// Each device has its own present table, queues and kernels: data entered on one device
/// stays there when the thread moves to another (it is found again when the thread comes
/// back), and a region or directive on another device that names it panics, naming the
/// variable and both devices. Several threads can drive several GPUs at once:
///
/// ```no_run
/// std::thread::scope(|s| {
///     for gpu in 0..acc_runtime::num_devices(acc_runtime::DeviceType::Nvidia) {
///         s.spawn(move || {
///             acc_runtime::set_device(acc_runtime::DeviceType::Nvidia, gpu);
///             // ... regions here run on GPU `gpu`
///         });
///     }
/// });
/// ```
///
/// Panics when the device cannot be had (no CUDA backend, a number out of range).
pub fn set_device(ty: DeviceType, num: usize) {
    let d = match ty {
        DeviceType::Host if num != 0 => panic!("acc::set_device(host, {num}): there is 1 host device, number 0"),
        DeviceType::Host => device(DeviceType::Host, 0),
        DeviceType::Nvidia => {
            let d = device(DeviceType::Nvidia, num);
            if let Err(why) = d.backend() {
                let why = why.trim_start_matches("acc: ");
                panic!("acc::set_device(nvidia, {num}): {why}");
            }
            d
        }
    };
    CURRENT.with(|c| *c.borrow_mut() = Some((d, None)));
}

/// How many devices of type `ty` there are: 1 host device; the NVIDIA devices the CUDA
/// backend finds (0 without the `cuda` feature or without a driver).
pub fn num_devices(ty: DeviceType) -> usize {
    match ty {
        DeviceType::Host => 1,
        DeviceType::Nvidia => {
            if cfg!(feature = "cuda") {
                cuda_device_count()
            } else {
                0
            }
        }
    }
}

/// Opens the calling thread's device now rather than at first use (OpenACC's `acc_init`).
/// Idempotent; after [`shutdown`] it opens the device again.
pub fn init() {
    INITIALISING.with(|i| i.set(true));
    let opened = std::panic::catch_unwind(backend);
    INITIALISING.with(|i| i.set(false));
    if let Err(p) = opened {
        std::panic::resume_unwind(p);
    }
}

thread_local! {
    /// Set while [`init`] runs on the thread: the device it opens is not opened implicitly (for
    /// the profiling interface's `device_init` events).
    static INITIALISING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether [`init`] is running on the calling thread.
fn initialising() -> bool {
    INITIALISING.with(std::cell::Cell::get)
}

/// Releases the calling thread's device (OpenACC's `acc_shutdown`): waits for its queues,
/// frees every array in its present table and empties it, and gives the device memory kept
/// for reuse back to the driver. Idempotent; the device choice is
/// kept, so a later [`init`] (or any use) opens the same device again. Other devices are
/// left as they are.
pub fn shutdown() {
    let errors = current_device().shutdown();
    if !errors.is_empty() {
        panic!("acc::shutdown: the device reported errors: {}", errors.join("; "));
    }
}

/// Free and total memory of the calling thread's device, in bytes (OpenACC's
/// `acc_get_property` with `acc_property_free_memory` and `acc_property_memory`); `None` on
/// the host device.
pub fn device_memory() -> Option<(usize, usize)> {
    backend().memory()
}

fn check_queue(what: &str, q: i64) {
    if q < ASYNC_SYNC {
        panic!(
            "{what}: `{q}` is not an async queue (queues are numbers >= 0, or -1 for the default queue)"
        );
    }
}

/// A failure found by a wait on `dev`, with what a device fault cost (see
/// [`Device::take_loss`]) when it was one.
fn wait_failure(dev: &Device, what: String, e: String) -> ! {
    match dev.take_loss() {
        Some(lost) => panic!("{what}: {e}\nacc: {lost}"),
        None => panic!("{what}: {e}"),
    }
}

/// Whether the work queued on async queue `q` of the calling thread's device has completed,
/// without waiting for it (OpenACC's `acc_async_test`). A queue never used, or waited for
/// since its last work, is done. Once it returns true the results of that work are the
/// host's to read, as after [`wait`]`(q)`, and a failure of it (a kernel panic) panics here
/// as it would in the wait. `q` -1 is the [`default_async`] queue; -2 tests the synchronous
/// launches that returned before their kernels ended (see "Launches that return before
/// their kernels end" in the guide).
///
/// On the GPU it asks the driver (`cuStreamQuery` of the queue's stream); the host backend
/// runs async work before the call that queued it returns, so there it is always true (after
/// checking `q`).
pub fn async_test(q: i64) -> bool {
    check_queue("acc::async_test", q);
    let q = resolve_queue(q);
    backend_test(|| format!("acc::async_test({q})"), |b| b.test(q))
}

/// Whether the work queued on every async queue of the calling thread's device has completed,
/// without waiting for it (OpenACC's `acc_async_test_all`): [`async_test`] of every queue.
pub fn async_test_all() -> bool {
    backend_test(|| "acc::async_test_all".into(), |b| b.test_all())
}

/// One of the tests above on the calling thread's device (nothing queued when it was never
/// opened); a failure panics as the wait's would.
fn backend_test(what: impl FnOnce() -> String, test: impl FnOnce(&dyn Backend) -> Result<bool, String>) -> bool {
    let dev = current_device();
    match dev.backend_if_open() {
        Some(b) => test(&*b).unwrap_or_else(|e| wait_failure(&dev, what(), e)),
        None => true,
    }
}

/// The CUDA stream of async queue `q` of the calling thread's device (OpenACC's
/// `acc_get_cuda_stream`), as the driver API's `CUstream` (a `cudaStream_t` to the runtime
/// API), for a CUDA library or kernel of your own to run in order with acc's work on `q`; the
/// queue is made if it was never used. `None` where the device is not an NVIDIA GPU (the host
/// backend; a build without the `cuda` feature) and for `q` -2 ([`ASYNC_SYNC`]): acc's
/// synchronous work runs on a stream of its own, which it does not hand out. `q` -1 is the
/// [`default_async`] queue.
///
/// Lifetime: the stream belongs to acc. It stays valid until [`shutdown`] of that device (or
/// the process's end); do not destroy it, and do not use it after `shutdown`. Once handed
/// out, [`wait`]`(q)`, [`wait_all`] and [`async_test`]`(q)` also wait for (test) the work you
/// queued on it yourself; acc's synchronous transfers do not wait for that work.
pub fn cuda_stream(q: i64) -> Option<*mut std::ffi::c_void> {
    check_queue("acc::cuda_stream", q);
    let q = resolve_queue(q);
    if q == ASYNC_SYNC {
        return None;
    }
    #[cfg(feature = "cuda")]
    {
        let dev = current_device();
        let cuda = dev.cuda().unwrap_or_else(|msg| panic!("{msg}"))?;
        let s = cuda.shared_stream(q).unwrap_or_else(|e| panic!("acc::cuda_stream({q}): {e}"));
        Some(s.cast())
    }
    #[cfg(not(feature = "cuda"))]
    None
}

/// Waits until the work queued on async queue `q` of the calling thread's device is done
/// (OpenACC's `acc_wait`); `q` -1 is the [`default_async`] queue.
///
/// The host backend runs async work synchronously, so there it only checks `q`.
pub fn wait(q: i64) {
    check_queue("acc::wait", q);
    let q = resolve_queue(q);
    let _span = wait_events("acc_wait", Some(q));
    backend_wait(|| format!("acc::wait({q})"), |b| b.wait(q));
}

/// Makes async queue `queue` of the calling thread's device wait for the work queued so far
/// on queue `on`, without the host waiting (OpenACC's `acc_wait_async(on, queue)`): work
/// queued on `queue` after this call starts once that work is done. `queue` -2 (synchronous)
/// is [`wait`]`(on)`.
///
/// The host backend runs async work when it is queued, so there it only checks the queues.
pub fn wait_async(on: i64, queue: i64) {
    check_queue("acc::wait_async", on);
    check_queue("acc::wait_async", queue);
    let (on, queue) = (resolve_queue(on), resolve_queue(queue));
    if queue == ASYNC_SYNC {
        return wait(on);
    }
    backend_wait(|| format!("acc::wait_async({on}, {queue})"), |b| b.wait_on(queue, Some(on)));
}

/// Makes async queue `queue` of the calling thread's device wait for the work queued so far
/// on every other queue, without the host waiting (OpenACC's `acc_wait_all_async`). `queue`
/// -2 (synchronous) is [`wait_all`].
pub fn wait_all_async(queue: i64) {
    check_queue("acc::wait_all_async", queue);
    let queue = resolve_queue(queue);
    if queue == ASYNC_SYNC {
        return wait_all();
    }
    backend_wait(|| format!("acc::wait_all_async({queue})"), |b| b.wait_on(queue, None));
}

/// A compute construct's `wait` clause (`waits`; `None`: `wait` with no queue): where the
/// construct runs on the GPU on async queue `queue`, that queue waits on the device (the host
/// does not); otherwise the host waits, as OpenACC says for a construct without `async`.
pub fn wait_before(queue: Option<i64>, on_gpu: bool, waits: Option<&[i64]>) {
    match (queue, on_gpu, waits) {
        (Some(q), true, Some(ws)) => ws.iter().for_each(|&w| wait_async(w, q)),
        (Some(q), true, None) => wait_all_async(q),
        (_, _, Some(ws)) => ws.iter().for_each(|&w| wait(w)),
        (_, _, None) => wait_all(),
    }
}

/// Waits until the work queued on every async queue of the calling thread's device is done
/// (OpenACC's `acc_wait_all`).
pub fn wait_all() {
    let _span = wait_events("acc_wait_all", None);
    backend_wait(|| "acc::wait_all".into(), |b| b.wait_all());
}

/// The profiling interface's `wait_start` now and `wait_end` when the span is dropped, for the
/// runtime routine `routine` waiting for `queue` (`None`: every queue) of the thread's device.
fn wait_events(routine: &'static str, queue: Option<i64>) -> prof::Span<'static> {
    prof::Span::start(Event::WaitStart, |e| {
        let d = current().map_or((DeviceType::Host, 0), |d| (d.ty, d.num));
        Info::api(e, routine, Construct::RuntimeApi, d, queue)
    })
}

/// One of the waits above on the calling thread's device (nothing to wait for when it was
/// never opened); a failure panics with `what`, and what a device fault cost.
fn backend_wait(what: impl FnOnce() -> String, wait: impl FnOnce(&dyn Backend) -> Result<(), String>) {
    let dev = current_device();
    if let Some(b) = dev.backend_if_open() {
        if let Err(e) = wait(&*b) {
            wait_failure(&dev, what(), e);
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Swapping the default device's backend in tests.
    use super::*;

    /// Makes `b` the backend of the process default device and of the calling thread (its
    /// device's present table must be empty).
    pub(crate) fn install(b: Arc<dyn Backend>) {
        let d = device(b.device_type(), b.device_num());
        {
            let table = lock(&d.table);
            assert!(table.is_empty(), "tests install backends on an empty present table");
            *lock(&d.backend) = Some(Open::other(b));
        }
        make_default(d);
    }

    /// Back to the host device with an empty table, as the process default and the calling
    /// thread's device.
    pub(crate) fn reset_to_host() {
        for d in all() {
            if d.ty != DeviceType::Host {
                lock(&d.table).clear();
                *lock(&d.backend) = None;
            }
        }
        let d = device(DeviceType::Host, 0);
        lock(&d.table).clear();
        *lock(&d.backend) = Some(Open::other(Arc::new(HostBackend)));
        make_default(d);
    }

    fn make_default(d: Arc<Device>) {
        let mut def = lock(&DEFAULT);
        *def = Some(d.clone());
        let g = DEFAULT_GEN.fetch_add(1, Ordering::AcqRel) + 1;
        CURRENT.with(|c| *c.borrow_mut() = Some((d, Some(g))));
    }

    /// Makes `b` the backend of its device (type and number), without making that device
    /// anyone's: threads select it with [`set_device`].
    pub(crate) fn attach(b: Arc<dyn Backend>) -> Arc<Device> {
        let d = device(b.device_type(), b.device_num());
        *lock(&d.backend) = Some(Open::other(b));
        d
    }

    /// The calling thread's backend, if open (to put it back after a test).
    pub(crate) fn backend_if_open() -> Option<Arc<dyn Backend>> {
        current_device().backend_if_open()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{exclusive, shared};

    #[test]
    fn debug_prints_env_names() {
        assert_eq!(format!("{:?}", DeviceType::Host), "host");
        assert_eq!(format!("{:?}", DeviceType::Nvidia), "nvidia");
        assert_eq!(DeviceType::Nvidia.to_string(), "nvidia");
    }

    #[test]
    fn env_type_parsing() {
        assert_eq!(parse_device_type(None), Ok(None));
        assert_eq!(parse_device_type(Some("")), Ok(None));
        assert_eq!(parse_device_type(Some("host")), Ok(Some(DeviceType::Host)));
        assert_eq!(parse_device_type(Some("HOST")), Ok(Some(DeviceType::Host)));
        assert_eq!(
            parse_device_type(Some(" nvidia ")),
            Ok(Some(DeviceType::Nvidia))
        );
        let e = parse_device_type(Some("radeon")).unwrap_err();
        assert!(
            e.contains("`radeon`") && e.contains("`host`") && e.contains("`nvidia`"),
            "{e}"
        );
    }

    #[test]
    fn env_num_parsing() {
        assert_eq!(parse_device_num(None), Ok(0));
        assert_eq!(parse_device_num(Some("3")), Ok(3));
        let e = parse_device_num(Some("-1")).unwrap_err();
        assert!(e.contains("ACC_DEVICE_NUM=`-1`"), "{e}");
    }

    #[test]
    fn env_selection() {
        let d = select_from_env(Some(DeviceType::Host), 0).unwrap();
        assert_eq!((d.device_type(), d.num()), (DeviceType::Host, 0));
        assert_eq!(d.to_string(), "host device 0");
        let e = select_from_env(Some(DeviceType::Host), 2).err().unwrap();
        assert!(e.contains("ACC_DEVICE_NUM=2"), "{e}");
        #[cfg(not(feature = "cuda"))]
        {
            let e = select_from_env(Some(DeviceType::Nvidia), 0).err().unwrap();
            assert!(e.contains("built without the `cuda` feature"), "{e}");
            assert_eq!(select_from_env(None, 0).unwrap().device_type(), DeviceType::Host);
        }
    }

    #[test]
    fn num_devices_counts() {
        assert_eq!(num_devices(DeviceType::Host), 1);
        #[cfg(not(feature = "cuda"))]
        assert_eq!(num_devices(DeviceType::Nvidia), 0);
    }

    #[test]
    fn host_backend_is_shared_memory() {
        let b = HostBackend;
        assert!(b.is_host());
        assert_eq!(b.name(), "host");
        assert!(b.alloc(8).is_err());
        let src = [1u8, 2, 3, 4];
        let mut dst = [0u8; 4];
        // SAFETY: both arrays are live, 4 bytes, and distinct.
        unsafe {
            b.h2d(DevPtr(dst.as_mut_ptr() as u64), src.as_ptr(), 4)
                .unwrap();
        }
        assert_eq!(dst, src);
        let mut back = [0u8; 4];
        // SAFETY: as above.
        unsafe {
            b.d2h(back.as_mut_ptr(), DevPtr(dst.as_ptr() as u64), 4)
                .unwrap()
        };
        assert_eq!(back, src);
    }

    #[test]
    fn wait_validates_queue() {
        let _g = shared();
        wait(0);
        wait(7);
        wait(ASYNC_NOVAL);
        wait(ASYNC_SYNC);
        wait_all();
        let e = std::panic::catch_unwind(|| wait(-3)).unwrap_err();
        let msg = crate::test_util::panic_message(&e);
        assert!(msg.contains("`-3` is not an async queue"), "{msg}");
    }

    #[test]
    fn init_wait_and_shutdown_events() {
        use crate::prof::Event::*;
        let _g = exclusive();
        init();
        let seen = crate::test_util::events_of(|| {
            shutdown();
            init();
            wait(3);
            wait_all();
        });
        let seen: Vec<_> = seen.into_iter().map(|(e, _, implicit)| (e, implicit)).collect();
        assert_eq!(
            seen,
            [
                (DeviceShutdownStart, false),
                (DeviceShutdownEnd, false),
                (DeviceInitStart, false),
                (DeviceInitEnd, false),
                (WaitStart, false),
                (WaitEnd, false),
                (WaitStart, false),
                (WaitEnd, false),
            ]
        );
    }

    #[test]
    fn init_shutdown_idempotent() {
        let _g = exclusive();
        init();
        init();
        assert_eq!(device_type(), DeviceType::Host);
        shutdown();
        shutdown();
        assert_eq!(device_type(), DeviceType::Host);
        init();
        assert!(backend().is_host());
        assert_eq!(device_num(), 0);
    }

    #[test]
    fn shutdown_empties_present_table() {
        let _g = exclusive();
        let a = vec![1u32; 16];
        crate::data::enter_data(
            &crate::test_util::R,
            "a",
            crate::data::view(&a),
            crate::data::EnterClause::CopyIn,
        );
        assert!(crate::is_present(&a));
        shutdown();
        assert!(!crate::is_present(&a));
        init();
        assert!(!crate::is_present(&a));
    }

    #[test]
    fn set_device_checks() {
        let _g = exclusive();
        set_device(DeviceType::Host, 0);
        assert_eq!(device_type(), DeviceType::Host);
        let e = std::panic::catch_unwind(|| set_device(DeviceType::Host, 1)).unwrap_err();
        let msg = crate::test_util::panic_message(&e);
        assert!(msg.contains("there is 1 host device"), "{msg}");
        #[cfg(not(feature = "cuda"))]
        {
            let e = std::panic::catch_unwind(|| set_device(DeviceType::Nvidia, 0)).unwrap_err();
            let msg = crate::test_util::panic_message(&e);
            assert!(msg.contains("built without the `cuda` feature"), "{msg}");
        }
        assert_eq!(device_type(), DeviceType::Host);
    }

    /// Each thread has its own device; a thread that never chose one uses the default.
    #[test]
    fn set_device_is_per_thread() {
        let _g = exclusive();
        testing::reset_to_host();
        let mock = crate::test_util::MockBackend::numbered(1);
        let d1 = device(DeviceType::Nvidia, 1);
        *lock(&d1.backend) = Some(Open::other(mock.clone()));
        std::thread::scope(|s| {
            s.spawn(|| {
                set_device(DeviceType::Nvidia, 1);
                assert_eq!((device_type(), device_num()), (DeviceType::Nvidia, 1));
                assert_eq!(backend().name(), "mock GPU 1");
            });
            s.spawn(|| {
                assert_eq!((device_type(), device_num()), (DeviceType::Host, 0));
            });
        });
        assert_eq!(device_type(), DeviceType::Host, "the spawning thread keeps its device");
        *lock(&d1.backend) = None;
    }

    /// A lost device is reported once, naming the data it held; later uses say why it cannot
    /// be used; other devices work on.
    #[test]
    fn lost_device_is_reported_and_refused() {
        let _g = exclusive();
        testing::reset_to_host();
        let mock = crate::test_util::MockBackend::numbered(1);
        let d1 = device(DeviceType::Nvidia, 1);
        *lock(&d1.backend) = Some(Open::other(mock.clone()));
        std::thread::scope(|s| {
            s.spawn(|| {
                set_device(DeviceType::Nvidia, 1);
                let a = vec![1u32; 64];
                crate::data::enter_data(&crate::test_util::R, "a", crate::data::view(&a), crate::data::EnterClause::CopyIn);
                assert!(crate::is_present(&a));
                mock.lose("a kernel trapped");
                let msg = d1.take_loss().expect("the device is lost");
                assert!(msg.contains("nvidia device 1 is lost") && msg.contains("the device copies of `a` (256 B) are lost"), "{msg}");
                assert!(!crate::is_present(&a));
                assert!(d1.take_loss().is_none(), "reported once");
                let e = std::panic::catch_unwind(|| {
                    let b = vec![2u8; 8];
                    crate::data::enter_data(&crate::test_util::R, "b", crate::data::view(&b), crate::data::EnterClause::CopyIn);
                })
                .unwrap_err();
                let e = crate::test_util::panic_message(&e);
                assert!(e.contains("nvidia device 1 is lost since an earlier fault (a kernel trapped)"), "{e}");
                assert_eq!(lock(&FAULT).as_deref(), Some("nvidia device 1 (a kernel trapped)"));
                set_device(DeviceType::Host, 0);
                let b = vec![3u8; 8];
                crate::data::enter_data(&crate::test_util::R, "b", crate::data::view(&b), crate::data::EnterClause::CopyIn);
                assert!(crate::is_present(&b), "the host device works on");
                crate::data::exit_data(&crate::test_util::R, "b", crate::data::view(&b), crate::data::ExitClause::Delete, false);
            });
        });
        *lock(&d1.backend) = None;
        *lock(&d1.lost) = None;
        *lock(&FAULT) = None;
    }
}
