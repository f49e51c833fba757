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
                    "acc::DeviceSlice: cannot allocate {} ({bytes} bytes) on the device: {e}",
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

    /// Overwrites the elements with those of `src`, device to device (OpenACC's
    /// `acc_memcpy_device`): on a GPU one `cuMemcpyDtoD`, returning once it landed; on the host
    /// backend a copy in host memory. Both slices have the same length and live on the same
    /// device (else it panics, saying which).
    ///
    /// ```
    /// use acc_runtime::DeviceSlice;
    /// let a = DeviceSlice::from_host(&[1u32, 2, 3]);
    /// let mut b = DeviceSlice::<u32>::zeros(3);
    /// b.copy_from_device(&a);
    /// assert_eq!(b.to_host(), [1, 2, 3]);
    /// ```
    pub fn copy_from_device(&mut self, src: &DeviceSlice<T>) {
        if src.len != self.len {
            panic!("acc::DeviceSlice::copy_from_device: the source has {} elements, the destination {}", src.len, self.len);
        }
        self.device_copy("copy_from_device", 0, src, 0..src.len);
    }

    /// Overwrites the elements `at..at + range.len()` with the elements `range` of `src`,
    /// device to device, as [`copy_from_device`](Self::copy_from_device) does for whole
    /// slices (OpenACC's `acc_memcpy_device` on parts of two arrays). Panics when `range` is
    /// not within `src` or does not fit at `at`, or when the two slices live on different
    /// devices.
    ///
    /// ```
    /// use acc_runtime::DeviceSlice;
    /// let a = DeviceSlice::from_host(&[1u32, 2, 3, 4]);
    /// let mut b = DeviceSlice::<u32>::zeros(5);
    /// b.copy_range_from_device(2, &a, 1..4);
    /// assert_eq!(b.to_host(), [0, 0, 2, 3, 4]);
    /// ```
    pub fn copy_range_from_device(&mut self, at: usize, src: &DeviceSlice<T>, range: std::ops::Range<usize>) {
        let what = "copy_range_from_device";
        let std::ops::Range { start, end } = range;
        if start > end || end > src.len {
            panic!("acc::DeviceSlice::{what}: the range {start}..{end} is not within the source's {} elements", src.len);
        }
        if at.checked_add(end - start).is_none_or(|e| e > self.len) {
            panic!("acc::DeviceSlice::{what}: {} elements at {at} do not fit in the destination's {}", end - start, self.len);
        }
        self.device_copy(what, at, src, range);
    }

    /// Copies the elements `src_range` of `src` to `dst_at..` of `self` (ranges checked).
    fn device_copy(&mut self, what: &str, dst_at: usize, src: &DeviceSlice<T>, src_range: std::ops::Range<usize>) {
        let n = src_range.len();
        match (&mut self.mem, &src.mem) {
            (Mem::Host(d), Mem::Host(s)) => d[dst_at..dst_at + n].copy_from_slice(&s[src_range]),
            (Mem::Device { ptr: d, backend: db }, Mem::Device { ptr: s, backend: sb })
                if (db.device_type(), db.device_num()) == (sb.device_type(), sb.device_num()) =>
            {
                let size = std::mem::size_of::<T>();
                let bytes = n * size;
                if bytes == 0 {
                    return;
                }
                let (d, s) = (DevPtr(d.0 + (dst_at * size) as u64), DevPtr(s.0 + (src_range.start * size) as u64));
                // SAFETY: both ranges lie in the two slices' live allocations (checked by the
                // callers against their lengths), made by `alloc` of this device; the slices
                // are distinct objects (`&mut self` and `&src`), so their allocations are too.
                unsafe { db.d2d(d, s, bytes) }.unwrap_or_else(|e| panic!("acc::DeviceSlice::{what}: {e}"));
            }
            _ => panic!(
                "acc::DeviceSlice::{what}: the source lives on {}, the destination on {}: a device copy is between two slices of one device",
                src.place(),
                self.place()
            ),
        }
    }

    /// The device the slice lives on, as messages name it.
    fn place(&self) -> String {
        match &self.mem {
            Mem::Host(_) => "host device 0".into(),
            Mem::Device { backend, .. } => format!("{} device {}", backend.device_type(), backend.device_num()),
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
