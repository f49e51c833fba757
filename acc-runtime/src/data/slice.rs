//! [`DeviceSlice`]: an array that lives on the device (`deviceptr` data).

use std::fmt;
use std::sync::Arc;
use super::transfer::{transfer, Transfer};
use crate::backend::{Backend, DevPtr};
use crate::devices;
use crate::profile::{self, Direction};
use crate::region_info::DEVICE_SLICE;

/// The name `ACC_NOTIFY` and `ACC_PROFILE` give the transfers of a `DeviceSlice`.
const NAME: &str = "DeviceSlice";
use crate::device_copy::DeviceCopy;

enum Mem<T> {
    /// Host backend: device memory is host memory.
    Host(Vec<T>),
    /// A GPU allocation (`ptr` is 0 when empty), freed through the backend that made it.
    Device {
        ptr: DevPtr,
        backend: Arc<dyn Backend>,
    },
}

/// An array in device memory, not mirrored on the host: what a `deviceptr` parameter takes.
///
/// On the host backend it is host memory ([`host_slice`](Self::host_slice) reaches it); on a
/// GPU only [`to_host`](Self::to_host) and the copy methods read or write it from the host.
///
/// ```
/// use acc_runtime::DeviceSlice;
/// let d = DeviceSlice::from_host(&[1u32, 2, 3]);
/// assert_eq!(d.len(), 3);
/// assert_eq!(d.to_host(), [1, 2, 3]);
/// let z = DeviceSlice::<f64>::zeros(4);
/// assert_eq!(z.to_host(), [0.0; 4]);
/// ```
pub struct DeviceSlice<T: Copy> {
    len: usize,
    mem: Mem<T>,
}

fn byte_len<T>(len: usize) -> usize {
    len.checked_mul(std::mem::size_of::<T>())
        .unwrap_or_else(|| panic!("acc::DeviceSlice: {len} elements overflow the address space"))
}

impl<T: Copy> DeviceSlice<T> {
    fn on_device(len: usize, init: &[u8]) -> Self {
        let backend = devices::backend();
        if backend.is_host() {
            unreachable!("host backend handled by the caller");
        }
        let bytes = byte_len::<T>(len);
        debug_assert_eq!(init.len(), bytes);
        let ptr = if bytes == 0 {
            DevPtr(0)
        } else {
            let ptr = backend.alloc(bytes).unwrap_or_else(|e| {
                panic!(
                    "acc::DeviceSlice: cannot allocate {} on the device: {e}",
                    profile::human_bytes(bytes as u64)
                )
            });
            // SAFETY: `init` is readable for `bytes` bytes; `ptr` is a fresh allocation of
            // that size.
            if let Err(e) = unsafe { transfer(&*backend, &DEVICE_SLICE, NAME, Transfer { dir: Direction::HostToDevice, dev: ptr, host: init.as_ptr() as usize, bytes, queue: None, ahead: false }) } {
                // SAFETY: `ptr` was just allocated and is known to nobody else.
                let _ = unsafe { backend.free(ptr) };
                panic!("acc::DeviceSlice: {e}");
            }
            ptr
        };
        DeviceSlice {
            len,
            mem: Mem::Device { ptr, backend },
        }
    }

    /// `n` zeroed elements on the current device.
    pub fn zeros(n: usize) -> Self
    where
        T: DeviceCopy,
    {
        if devices::backend().is_host() {
            // SAFETY: the all-zero bit pattern is a valid `T`: part of `DeviceCopy`'s contract.
            let zero: T = unsafe { std::mem::zeroed() };
            return DeviceSlice {
                len: n,
                mem: Mem::Host(vec![zero; n]),
            };
        }
        Self::on_device(n, &vec![0u8; byte_len::<T>(n)])
    }

    /// A device copy of `src`.
    pub fn from_host(src: &[T]) -> Self {
        if devices::backend().is_host() {
            return DeviceSlice {
                len: src.len(),
                mem: Mem::Host(src.to_vec()),
            };
        }
        // SAFETY: `src` is a live slice of `size_of_val(src)` bytes; `T: Copy` values are
        // plain data, read here only as bytes to be copied.
        let bytes = unsafe {
            std::slice::from_raw_parts(src.as_ptr().cast::<u8>(), std::mem::size_of_val(src))
        };
        Self::on_device(src.len(), bytes)
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The device address of the first element (on the host backend, a host address).
    ///
    /// Panics when the calling thread's device is not the one the slice lives on (a region
    /// that takes the slice calls this): one device cannot use another's memory.
    pub fn device_ptr(&self) -> u64 {
        if let Some(msg) = self.elsewhere() {
            panic!("{msg}");
        }
        self.raw_ptr()
    }

    /// Why the calling thread cannot use the slice: its device is not the one the slice
    /// lives on. `None` when it is.
    fn elsewhere(&self) -> Option<String> {
        let (ty, num) = match &self.mem {
            Mem::Host(_) => (crate::DeviceType::Host, 0),
            Mem::Device { backend, .. } => (backend.device_type(), backend.device_num()),
        };
        let here = devices::current_device();
        ((here.device_type(), here.num()) != (ty, num)).then(|| {
            format!(
                "acc::DeviceSlice: a slice of {} elements on {ty} device {num} used on {here}, this thread's device: \
                 data on one device is not visible on another (make it on this thread's device, or use it from a thread \
                 whose device is {ty} device {num})",
                self.len
            )
        })
    }

    /// Why the host cannot reach the elements of a slice that lives on a GPU in place: a
    /// region on the host device that takes it (the devices differ), or a read or write by
    /// the host program itself.
    fn not_in_host_memory(&self, what: &str, verb: &str, instead: &str, gpu: &str) -> String {
        match self.elsewhere().filter(|_| devices::current_device().device_type() == crate::DeviceType::Host) {
            Some(msg) => msg,
            None => format!("acc::DeviceSlice::{what}: the data lives on {gpu} and the host cannot {verb} it in place; use `{instead}`"),
        }
    }

    fn raw_ptr(&self) -> u64 {
        match &self.mem {
            Mem::Host(v) => v.as_ptr() as u64,
            Mem::Device { ptr, .. } => ptr.0,
        }
    }

    /// Copies the elements to the host.
    pub fn to_host(&self) -> Vec<T> {
        match &self.mem {
            Mem::Host(v) => v.clone(),
            Mem::Device { .. } => {
                let mut out = Vec::with_capacity(self.len);
                self.download(out.spare_capacity_mut().as_mut_ptr().cast::<u8>());
                // SAFETY: `download` initialised all `len` elements, with bytes that came
                // from valid `T` values (uploaded from the host, zeroed `DeviceCopy` values,
                // or written by typed device code).
                unsafe { out.set_len(self.len) };
                out
            }
        }
    }

    /// Copies the elements into `dst` (same length).
    pub fn copy_to_host(&self, dst: &mut [T]) {
        self.check_len("copy_to_host", dst.len());
        match &self.mem {
            Mem::Host(v) => dst.copy_from_slice(v),
            Mem::Device { .. } => self.download(dst.as_mut_ptr().cast::<u8>()),
        }
    }

    /// Overwrites the elements with `src` (same length).
    pub fn copy_from_host(&mut self, src: &[T]) {
        self.check_len("copy_from_host", src.len());
        match &mut self.mem {
            Mem::Host(v) => v.copy_from_slice(src),
            Mem::Device { ptr, backend } => {
                let bytes = std::mem::size_of_val(src);
                if bytes == 0 {
                    return;
                }
                // SAFETY: `src` is readable for `bytes` bytes; the allocation holds `len`
                // elements, which is `bytes` bytes (lengths checked above).
                unsafe { transfer(&**backend, &DEVICE_SLICE, NAME, Transfer { dir: Direction::HostToDevice, dev: *ptr, host: src.as_ptr() as usize, bytes, queue: None, ahead: false }) }
                    .unwrap_or_else(|e| panic!("acc::DeviceSlice::copy_from_host: {e}"));
            }
        }
    }

    fn check_len(&self, what: &str, n: usize) {
        if n != self.len {
            panic!(
                "acc::DeviceSlice::{what}: the host slice has {n} elements, the device slice {}",
                self.len
            );
        }
    }

    /// Downloads all elements to `dst`, which must be writable for `len` elements.
    fn download(&self, dst: *mut u8) {
        let Mem::Device { ptr, backend } = &self.mem else {
            unreachable!()
        };
        let bytes = byte_len::<T>(self.len);
        if bytes == 0 {
            return;
        }
        // SAFETY: callers pass a buffer with room for `len` elements (`bytes` bytes) that
        // nothing else accesses; `ptr` is a live allocation of `bytes` bytes.
        unsafe { transfer(&**backend, &DEVICE_SLICE, NAME, Transfer { dir: Direction::DeviceToHost, dev: *ptr, host: dst as usize, bytes, queue: None, ahead: false }) }
            .unwrap_or_else(|e| panic!("acc::DeviceSlice: {e}"));
    }

    /// The elements, when they live in host memory (host backend).
    ///
    /// Panics when the data lives on a GPU: use [`to_host`](Self::to_host) there.
    pub fn host_slice(&self) -> &[T] {
        match &self.mem {
            Mem::Host(v) => v,
            Mem::Device { backend, .. } => panic!("{}", self.not_in_host_memory("host_slice", "read", "to_host()", backend.name())),
        }
    }

    /// The elements, mutably, when they live in host memory (host backend).
    ///
    /// Panics when the data lives on a GPU: use [`copy_from_host`](Self::copy_from_host).
    pub fn host_slice_mut(&mut self) -> &mut [T] {
        if let Mem::Device { backend, .. } = &self.mem {
            panic!("{}", self.not_in_host_memory("host_slice_mut", "write", "copy_from_host()", backend.name()));
        }
        match &mut self.mem {
            Mem::Host(v) => v,
            Mem::Device { .. } => unreachable!("panicked above"),
        }
    }
}

impl<T: Copy> Drop for DeviceSlice<T> {
    fn drop(&mut self) {
        if let Mem::Device { ptr, backend } = &self.mem {
            if ptr.0 != 0 {
                // SAFETY: `ptr` came from `backend.alloc` (kept alive by the `Arc`) and is
                // freed only here.
                if let Err(e) = unsafe { backend.free(*ptr) } {
                    eprintln!("acc::DeviceSlice: freeing device memory failed: {e}");
                }
            }
        }
    }
}

impl<T: Copy> fmt::Debug for DeviceSlice<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = match &self.mem {
            Mem::Host(_) => "host",
            Mem::Device { .. } => "device",
        };
        f.debug_struct("DeviceSlice")
            .field("len", &self.len)
            .field("on", &place)
            .field("device_ptr", &format_args!("{:#x}", self.raw_ptr()))
            .finish()
    }
}
