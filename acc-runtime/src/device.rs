//! Devices: selection (`ACC_DEVICE_TYPE`, `ACC_DEVICE_NUM`, [`set_device`]), the [`Backend`]
//! interface, the host backend, and the runtime's global state.
//!
//! The runtime holds one current backend. It is chosen at first use:
//!
//! | `ACC_DEVICE_TYPE` | backend |
//! | --- | --- |
//! | `host` | the host backend (rayon, shared memory) |
//! | `nvidia` | the CUDA backend; a panic saying why when it is unavailable |
//! | unset | the CUDA backend when available, else the host backend |
//!
//! Without the `cuda` feature the fallback is silent; with it, a missing driver or device is
//! reported by one line on stderr. `ACC_DEVICE_NUM=n` picks the device of that type.

use std::any::Any;
use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::data::Table;

/// A device type, as OpenACC's `acc_device_t` (only the ones acc implements).
///
/// `Debug` prints the value `ACC_DEVICE_TYPE` takes: `host` or `nvidia`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceType {
    /// The host CPU: regions run in parallel on rayon's pool, data is shared.
    Host,
    /// An NVIDIA GPU driven through CUDA (feature `cuda`).
    Nvidia,
}

impl DeviceType {
    /// The name `ACC_DEVICE_TYPE` uses for this type: `"host"` or `"nvidia"`.
    pub fn as_str(self) -> &'static str {
        match self {
            DeviceType::Host => "host",
            DeviceType::Nvidia => "nvidia",
        }
    }
}

impl fmt::Debug for DeviceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for DeviceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
    /// Frees memory returned by [`alloc`](Self::alloc).
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
    /// Copies `bytes` bytes from device memory at `src` to host memory at `dst`.
    ///
    /// # Safety
    /// `dst` is valid for writes of `bytes` bytes and not accessed by anyone else during the
    /// call; `src` lies in a live allocation of this backend with `bytes` bytes after it.
    unsafe fn d2h(&self, dst: *mut u8, src: DevPtr, bytes: usize) -> Result<(), String>;
    /// Waits for the work queued on async queue `queue`.
    fn wait(&self, queue: i64) -> Result<(), String> {
        let _ = queue;
        Ok(())
    }
    /// Waits for the work queued on every async queue.
    fn wait_all(&self) -> Result<(), String> {
        Ok(())
    }
    /// The backend as `Any`, so that a backend's own launch code can reach its concrete type.
    fn as_any(&self) -> &dyn Any;
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
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Hook for the CUDA backend: opens device `num`, or says why it cannot (no driver, no such
/// device, ...). The CUDA backend (`#[cfg(feature = "cuda")] mod cuda`) plugs in here.
fn try_cuda_backend(num: usize) -> Result<Box<dyn Backend>, String> {
    #[cfg(feature = "cuda")]
    {
        crate::cuda::CudaBackend::new(num).map(|b| Box::new(b) as Box<dyn Backend>).map_err(|e| e.to_string())
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = num;
        Err("built without the `cuda` feature".to_string())
    }
}

/// Hook for the CUDA backend: how many NVIDIA devices the driver reports (0 without a
/// driver). Only called with the `cuda` feature.
fn cuda_device_count() -> usize {
    #[cfg(feature = "cuda")]
    return crate::cuda::device_count();
    #[cfg(not(feature = "cuda"))]
    0
}

/// Async queue number meaning "the default async queue" (OpenACC's `acc_async_noval`).
pub const ASYNC_NOVAL: i64 = -1;
/// Async queue number meaning "synchronous" (OpenACC's `acc_async_sync`).
pub const ASYNC_SYNC: i64 = -2;

/// The runtime's global state: the selected device, its backend, the present table.
pub(crate) struct State {
    selection: Option<(DeviceType, usize)>,
    backend: Option<Arc<dyn Backend>>,
    pub(crate) table: Table,
}

static STATE: Mutex<State> = Mutex::new(State {
    selection: None,
    backend: None,
    table: Table::new(),
});

/// Cached [`device_type`]: 0 = not chosen yet, 1 = host, 2 = nvidia.
static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Locks the global state. A panic elsewhere never leaves the state half-changed (every
/// error is raised after the lock is released), so a poisoned lock is simply taken over.
pub(crate) fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// [`state`], or `None` when another thread holds the lock (for the report at exit, which
/// must not wait).
pub(crate) fn try_state() -> Option<MutexGuard<'static, State>> {
    match STATE.try_lock() {
        Ok(g) => Some(g),
        Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => None,
    }
}

fn set_current(selection: Option<(DeviceType, usize)>) {
    let v = match selection {
        None => 0,
        Some((DeviceType::Host, _)) => 1,
        Some((DeviceType::Nvidia, _)) => 2,
    };
    CURRENT.store(v, Ordering::Release);
}

impl State {
    /// The current backend, choosing and opening it at first use.
    pub(crate) fn backend(&mut self) -> Result<Arc<dyn Backend>, String> {
        if let Some(b) = &self.backend {
            return Ok(b.clone());
        }
        let backend: Arc<dyn Backend> = match self.selection {
            Some((DeviceType::Host, _)) => Arc::new(HostBackend),
            Some((DeviceType::Nvidia, num)) => Arc::from(try_cuda_backend(num).map_err(|why| {
                format!(
                    "acc: cannot open nvidia device {num}: the CUDA backend is unavailable: {why}"
                )
            })?),
            None => {
                let ty = parse_device_type(std::env::var("ACC_DEVICE_TYPE").ok().as_deref())?;
                let num = parse_device_num(std::env::var("ACC_DEVICE_NUM").ok().as_deref())?;
                select_from_env(ty, num)?
            }
        };
        self.selection = Some((backend.device_type(), backend.device_num()));
        set_current(self.selection);
        self.backend = Some(backend.clone());
        Ok(backend)
    }

    /// The current backend when one is open.
    pub(crate) fn backend_if_open(&self) -> Option<Arc<dyn Backend>> {
        self.backend.clone()
    }
}

/// Opens the backend the environment asks for (`ty`, `num` parsed from it).
fn select_from_env(ty: Option<DeviceType>, num: usize) -> Result<Arc<dyn Backend>, String> {
    match ty {
        Some(DeviceType::Host) => {
            if num != 0 {
                return Err(format!(
                    "acc: ACC_DEVICE_NUM={num} with ACC_DEVICE_TYPE=host: there is 1 host device, number 0"
                ));
            }
            Ok(Arc::new(HostBackend))
        }
        Some(DeviceType::Nvidia) => try_cuda_backend(num).map(Arc::from).map_err(|why| {
            format!("acc: ACC_DEVICE_TYPE=nvidia, but the CUDA backend is unavailable: {why}")
        }),
        None => match try_cuda_backend(num) {
            Ok(b) => Ok(Arc::from(b)),
            Err(why) => {
                if cfg!(feature = "cuda") {
                    eprintln!("acc: no usable NVIDIA device ({why}); running regions on the host");
                }
                Ok(Arc::new(HostBackend))
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

/// The current backend, opening it at first use. Panics when the environment asks for a
/// device that cannot be had.
pub fn backend() -> Arc<dyn Backend> {
    let r = state().backend();
    r.unwrap_or_else(|msg| panic!("{msg}"))
}

/// The type of the current device, choosing it at first use (see the module docs).
///
/// ```
/// // Without a GPU (or without the `cuda` feature) regions run on the host.
/// let t = acc_runtime::device_type();
/// assert!(matches!(t, acc_runtime::DeviceType::Host | acc_runtime::DeviceType::Nvidia));
/// ```
pub fn device_type() -> DeviceType {
    match CURRENT.load(Ordering::Acquire) {
        1 => DeviceType::Host,
        2 => DeviceType::Nvidia,
        _ => {
            let r = {
                let mut st = state();
                match st.selection {
                    Some((t, _)) => Ok(t),
                    None => st.backend().map(|b| b.device_type()),
                }
            };
            r.unwrap_or_else(|msg| panic!("{msg}"))
        }
    }
}

/// The number of the current device among the devices of its type.
pub fn device_num() -> usize {
    let r = {
        let mut st = state();
        match st.selection {
            Some((_, n)) => Ok(n),
            None => st.backend().map(|b| b.device_num()),
        }
    };
    r.unwrap_or_else(|msg| panic!("{msg}"))
}

/// Makes device `num` of type `ty` the current device (OpenACC's `acc_set_device_type` and
/// `acc_set_device_num` in one call).
///
/// Panics when the device cannot be had (no CUDA backend, a number out of range), and when
/// data is still on the current device and the device would change: exit data regions and
/// drop `Mirror`s first.
pub fn set_device(ty: DeviceType, num: usize) {
    let r = {
        let mut st = state();
        set_device_locked(&mut st, ty, num)
    };
    r.unwrap_or_else(|msg| panic!("{msg}"));
}

fn set_device_locked(st: &mut State, ty: DeviceType, num: usize) -> Result<(), String> {
    if st.selection == Some((ty, num)) {
        return Ok(());
    }
    if !st.table.is_empty() {
        let (cur, cur_num) = st.selection.unwrap_or((DeviceType::Host, 0));
        return Err(format!(
            "acc::set_device({ty:?}, {num}): {} array(s) are still present on {cur:?} device {cur_num}; \
             exit their data regions (or drop their Mirrors) before changing the device",
            st.table.len()
        ));
    }
    let backend: Arc<dyn Backend> = match ty {
        DeviceType::Host => {
            if num != 0 {
                return Err(format!(
                    "acc::set_device(host, {num}): there is 1 host device, number 0"
                ));
            }
            Arc::new(HostBackend)
        }
        DeviceType::Nvidia => Arc::from(try_cuda_backend(num).map_err(|why| {
            format!("acc::set_device(nvidia, {num}): the CUDA backend is unavailable: {why}")
        })?),
    };
    if let Some(old) = st.backend.take() {
        // Nothing is present; finish its queued work before letting it go.
        let _ = old.wait_all();
    }
    st.selection = Some((ty, num));
    set_current(st.selection);
    st.backend = Some(backend);
    Ok(())
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

/// Opens the current device now rather than at first use (OpenACC's `acc_init`).
/// Idempotent; after [`shutdown`] it opens the device again.
pub fn init() {
    let _ = backend();
}

/// Releases the current device (OpenACC's `acc_shutdown`): waits for its queues, frees every
/// array in the present table and empties it. Idempotent; the device choice is kept, so a
/// later [`init`] (or any use) opens the same device again.
pub fn shutdown() {
    let errors = {
        let mut st = state();
        let mut errors = Vec::new();
        if let Some(b) = st.backend.take() {
            if let Err(e) = b.wait_all() {
                errors.push(e);
            }
            for dev in st.table.clear() {
                if !b.is_host() {
                    // SAFETY: every device address in the table came from this backend's
                    // `alloc` and is freed once, here, as the table forgets it; the queues
                    // were drained above.
                    if let Err(e) = unsafe { b.free(dev) } {
                        errors.push(e);
                    }
                }
            }
        } else {
            st.table.clear();
        }
        errors
    };
    if !errors.is_empty() {
        panic!(
            "acc::shutdown: the device reported errors: {}",
            errors.join("; ")
        );
    }
}

fn check_queue(what: &str, q: i64) {
    if q < ASYNC_SYNC {
        panic!(
            "{what}: `{q}` is not an async queue (queues are numbers >= 0, or -1 for the default queue)"
        );
    }
}

/// Waits until the work queued on async queue `q` is done (OpenACC's `acc_wait`).
///
/// The host backend runs async work synchronously, so there it only checks `q`.
pub fn wait(q: i64) {
    check_queue("acc::wait", q);
    let b = state().backend_if_open();
    if let Some(b) = b {
        if let Err(e) = b.wait(q) {
            panic!("acc::wait({q}): {e}");
        }
    }
}

/// Waits until the work queued on every async queue is done (OpenACC's `acc_wait_all`).
pub fn wait_all() {
    let b = state().backend_if_open();
    if let Some(b) = b {
        if let Err(e) = b.wait_all() {
            panic!("acc::wait_all: {e}");
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Swapping the global backend in tests.
    use super::*;

    /// Makes `b` the current backend (the present table must be empty).
    pub(crate) fn install(b: Arc<dyn Backend>) {
        let mut st = state();
        assert!(
            st.table.is_empty(),
            "tests install backends on an empty present table"
        );
        st.selection = Some((b.device_type(), b.device_num()));
        set_current(st.selection);
        st.backend = Some(b);
    }

    /// Back to the host backend with an empty table.
    pub(crate) fn reset_to_host() {
        let mut st = state();
        st.table.clear();
        st.selection = Some((DeviceType::Host, 0));
        set_current(st.selection);
        st.backend = Some(Arc::new(HostBackend));
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
        assert!(select_from_env(Some(DeviceType::Host), 0)
            .unwrap()
            .is_host());
        let e = select_from_env(Some(DeviceType::Host), 2).err().unwrap();
        assert!(e.contains("ACC_DEVICE_NUM=2"), "{e}");
        #[cfg(not(feature = "cuda"))]
        {
            let e = select_from_env(Some(DeviceType::Nvidia), 0).err().unwrap();
            assert!(e.contains("built without the `cuda` feature"), "{e}");
            assert!(select_from_env(None, 0).unwrap().is_host());
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
        assert!(b.as_any().downcast_ref::<HostBackend>().is_some());
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

    #[test]
    fn set_device_refuses_to_strand_present_data() {
        let _g = exclusive();
        let mock = crate::test_util::MockBackend::new();
        let a = vec![5u8; 10];
        crate::data::enter_data(
            &crate::test_util::R,
            "a",
            crate::data::view(&a),
            crate::data::EnterClause::CopyIn,
        );
        let e = std::panic::catch_unwind(|| {
            let mut st = state();
            set_device_locked(&mut st, mock.device_type(), 0)
        })
        .unwrap();
        let msg = e.unwrap_err();
        assert!(msg.contains("still present"), "{msg}");
        testing::reset_to_host();
    }
}
