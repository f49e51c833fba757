//! Test helpers: serialising tests that touch global state, a simulated GPU backend, the
//! profiling interface's events of a test.

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::backend::{Backend, DevPtr, DeviceType};
use crate::prof::{self, Event};
use crate::region_info::RegionInfo;

/// Tests that use the present table under the current backend take this shared; tests that
/// change the backend or empty the table take it exclusively.
static GLOBAL: RwLock<()> = RwLock::new(());

pub(crate) fn shared() -> RwLockReadGuard<'static, ()> {
    GLOBAL.read().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn exclusive() -> RwLockWriteGuard<'static, ()> {
    GLOBAL.write().unwrap_or_else(|e| e.into_inner())
}

pub(crate) static R: RegionInfo = RegionInfo {
    name: "test_region",
    kind: "data",
    file: "tests.rs",
    line: 42,
    kernel: "",
};

/// The message of a caught panic.
pub(crate) fn panic_message(e: &Box<dyn Any + Send>) -> String {
    if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = e.downcast_ref::<&str>() {
        s.to_string()
    } else {
        "<non-string panic>".to_string()
    }
}

/// A device copy the mock keeps: its key, its address, what the host held.
type KeptCopy = ((usize, usize), DevPtr, Vec<u8>);

/// A simulated GPU: separate memory, counted allocations and transfers.
#[derive(Default)]
pub(crate) struct MockBackend {
    num: usize,
    label: String,
    /// Set by [`lose`](Self::lose): what `lost` reports.
    lost: Mutex<Option<String>>,
    mem: Mutex<BTreeMap<u64, Vec<u8>>>,
    next: AtomicUsize,
    pub(crate) allocs: AtomicUsize,
    pub(crate) frees: AtomicUsize,
    pub(crate) uploads: AtomicUsize,
    pub(crate) downloads: AtomicUsize,
    /// Device-to-device copies (`Backend::d2d`).
    pub(crate) d2ds: AtomicUsize,
    /// Whether it keeps device copies between a region's calls (`Backend::keep_copy`; off
    /// unless a test turns it on), and those it keeps.
    pub(crate) keeps: AtomicBool,
    kept: Mutex<Vec<KeptCopy>>,
    /// Whether it gives device copies in host memory (`Backend::alloc_hosted`; off unless a
    /// test turns it on), and the addresses of those live.
    pub(crate) hosts: AtomicBool,
    hosted: Mutex<Vec<u64>>,
}

impl MockBackend {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(MockBackend {
            label: "mock GPU".into(),
            next: AtomicUsize::new(0x1000_0000),
            ..Default::default()
        })
    }

    /// A simulated NVIDIA device number `num` (named `mock GPU <num>`), its addresses apart
    /// from device 0's.
    pub(crate) fn numbered(num: usize) -> Arc<Self> {
        Arc::new(MockBackend {
            num,
            label: format!("mock GPU {num}"),
            next: AtomicUsize::new(0x1000_0000 * (num + 1)),
            ..Default::default()
        })
    }

    /// Simulates a device fault: `lost` reports `why` from now on.
    pub(crate) fn lose(&self, why: &str) {
        *self.lost.lock().unwrap() = Some(why.into());
    }

    /// Runs `f` on the bytes at device address `p` (inside an allocation).
    pub(crate) fn with_bytes<R>(&self, p: u64, len: usize, f: impl FnOnce(&mut [u8]) -> R) -> R {
        let mut mem = self.mem.lock().unwrap();
        let (&base, buf) = mem
            .range_mut(..=p)
            .next_back()
            .expect("no allocation below address");
        let off = (p - base) as usize;
        assert!(
            off + len <= buf.len(),
            "access past the end of a mock allocation"
        );
        f(&mut buf[off..off + len])
    }

    /// Whether `dev` is a live device copy of `alloc_hosted`.
    pub(crate) fn is_hosted(&self, dev: u64) -> bool {
        self.hosted.lock().unwrap().contains(&dev)
    }

    pub(crate) fn live(&self) -> usize {
        self.mem.lock().unwrap().len()
    }

    pub(crate) fn counts(&self) -> (usize, usize, usize, usize) {
        (
            self.allocs.load(Ordering::SeqCst),
            self.frees.load(Ordering::SeqCst),
            self.uploads.load(Ordering::SeqCst),
            self.downloads.load(Ordering::SeqCst),
        )
    }
}

impl Backend for MockBackend {
    fn name(&self) -> &str {
        &self.label
    }
    fn device_type(&self) -> DeviceType {
        DeviceType::Nvidia
    }
    fn device_num(&self) -> usize {
        self.num
    }
    fn lost(&self) -> Option<String> {
        self.lost.lock().unwrap().clone()
    }

    fn is_host(&self) -> bool {
        false
    }
    fn alloc(&self, bytes: usize) -> Result<DevPtr, String> {
        assert!(bytes > 0, "the runtime never allocates 0 bytes");
        if bytes > 1 << 40 {
            return Err("out of memory".into());
        }
        let p = self
            .next
            .fetch_add(bytes.next_multiple_of(256) + 256, Ordering::SeqCst) as u64;
        self.mem.lock().unwrap().insert(p, vec![0xAB; bytes]);
        self.allocs.fetch_add(1, Ordering::SeqCst);
        Ok(DevPtr(p))
    }
    fn alloc_hosted(&self, bytes: usize) -> Option<DevPtr> {
        if !self.hosts.load(Ordering::SeqCst) {
            return None;
        }
        let dev = self.alloc(bytes).ok()?;
        self.hosted.lock().unwrap().push(dev.0);
        Some(dev)
    }
    unsafe fn free(&self, ptr: DevPtr) -> Result<(), String> {
        self.hosted.lock().unwrap().retain(|&h| h != ptr.0);
        self.mem
            .lock()
            .unwrap()
            .remove(&ptr.0)
            .ok_or("double free")?;
        self.frees.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
    unsafe fn h2d(&self, dst: DevPtr, src: *const u8, bytes: usize) -> Result<(), String> {
        // SAFETY: the caller's contract: `src` readable for `bytes` bytes.
        let s = unsafe { std::slice::from_raw_parts(src, bytes) };
        self.with_bytes(dst.0, bytes, |d| d.copy_from_slice(s));
        self.uploads.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
    unsafe fn d2h(&self, dst: *mut u8, src: DevPtr, bytes: usize) -> Result<(), String> {
        // SAFETY: the caller's contract: `dst` writable for `bytes` bytes, unaliased.
        let d = unsafe { std::slice::from_raw_parts_mut(dst, bytes) };
        self.with_bytes(src.0, bytes, |s| d.copy_from_slice(s));
        self.downloads.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
    unsafe fn d2d(&self, dst: DevPtr, src: DevPtr, bytes: usize) -> Result<(), String> {
        let s = self.with_bytes(src.0, bytes, |s| s.to_vec());
        self.with_bytes(dst.0, bytes, |d| d.copy_from_slice(&s));
        self.d2ds.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
    unsafe fn keep_copy(&self, key: (usize, usize), dev: DevPtr, host: &[u8]) -> bool {
        // (As the CUDA backend: a device copy in host memory is not device memory to keep.)
        if !self.keeps.load(Ordering::SeqCst) || self.is_hosted(dev.0) {
            return false;
        }
        // The contract: the device copy holds the host's bytes, and is the whole allocation.
        let whole = self.mem.lock().unwrap().get(&dev.0).map(Vec::len);
        assert_eq!(whole, Some(host.len()), "kept memory is a whole allocation of the host's size");
        self.with_bytes(dev.0, host.len(), |d| assert_eq!(d, host, "kept memory holds the host's bytes"));
        self.kept.lock().unwrap().push((key, dev, host.to_vec()));
        true
    }
    fn take_copy(&self, key: (usize, usize), host: &[u8]) -> Option<(DevPtr, bool)> {
        let mut kept = self.kept.lock().unwrap();
        let at = kept.iter().position(|(k, _, held)| *k == key && held.len() == host.len())?;
        let (_, dev, held) = kept.remove(at);
        Some((dev, held == host))
    }
}

/// Runs `f` with `mock` as the current backend (exclusively), then goes back to the host.
pub(crate) fn with_mock<T>(f: impl FnOnce(&Arc<MockBackend>) -> T) -> T {
    let _g = exclusive();
    crate::devices::testing::reset_to_host();
    let mock = MockBackend::new();
    crate::devices::testing::install(mock.clone());
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mock)));
    crate::devices::testing::reset_to_host();
    match r {
        Ok(v) => v,
        Err(e) => std::panic::resume_unwind(e),
    }
}

/// The profiling interface's events of this thread while `f` runs (other tests fire theirs at the
/// same time), each with its variable's name (`-` for none) and whether it is implicit.
pub(crate) fn events_of(f: impl FnOnce()) -> Vec<(Event, String, bool)> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let me = std::thread::current().id();
    let regs: Vec<_> = Event::ALL
        .iter()
        .map(|&e| {
            let log = log.clone();
            prof::register(e, move |info: &prof::Info<'_>| {
                if std::thread::current().id() == me {
                    let var = match info.detail {
                        prof::Detail::Data(d) => d.var_name.to_string(),
                        _ => "-".to_string(),
                    };
                    log.lock().unwrap().push((info.event, var, info.implicit));
                }
            })
        })
        .collect();
    f();
    regs.into_iter().for_each(prof::unregister);
    let log = log.lock().unwrap().clone();
    log
}
