//! `host_data use_device`: the device address of present data, for a library that takes device
//! pointers (cuBLAS, cuFFT, a CUDA kernel of your own, MPI that is CUDA-aware).

use std::fmt;
use std::marker::PhantomData;

use super::{absent_empty, try_with_table_on, view, HostData};
use crate::devices;
use crate::present::Lookup;
use crate::region_info::RegionInfo;

/// The device copy of an array as `acc::host_data!(use_device(a) { .. })` names it inside its
/// body: the address of its first element on the current device and its length. On the host
/// backend, and where `if_present` or `if(false)` gave the array itself, the address is the
/// host array's ([`is_device`](Self::is_device) says which).
///
/// It is only an address: dereferencing it on the host is undefined behaviour where it is a
/// device address. Pass [`as_mut_ptr`](Self::as_mut_ptr) (or [`addr`](Self::addr), a
/// `CUdeviceptr`) to the library, on the queue the regions around it use
/// (`acc::cuda_stream`), or after `acc::wait` where the library runs on a stream of its own.
pub struct DevicePtr<T> {
    addr: u64,
    len: usize,
    device: bool,
    _elem: PhantomData<*mut T>,
}

impl<T> DevicePtr<T> {
    /// The address as an integer (CUDA's `CUdeviceptr`).
    pub fn addr(&self) -> u64 {
        self.addr
    }

    /// The address as a pointer, for a library's `const T*` parameter.
    pub fn as_ptr(&self) -> *const T {
        self.addr as usize as *const T
    }

    /// The address as a pointer, for a library's `T*` parameter (the library may write the
    /// device copy; `update!(host(a))` or the data region's end brings it back).
    pub fn as_mut_ptr(&self) -> *mut T {
        self.addr as usize as *mut T
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether this is a device copy's address (`false`: the host array's, on the host backend
    /// or where `if_present` or `if` gave it).
    pub fn is_device(&self) -> bool {
        self.device
    }
}

impl<T> Clone for DevicePtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for DevicePtr<T> {}

impl<T> fmt::Debug for DevicePtr<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DevicePtr({:#x}, {} x {}{})", self.addr, self.len, std::any::type_name::<T>(), if self.device { "" } else { ", host" })
    }
}

/// What `host_data!(use_device(name))` calls for each name: the device address of the present
/// data `d` (the array `name`), or, with `use_host` (the construct's `if` false) or where it
/// is absent and `if_present` is given, the host address. Panics naming the construct and the
/// variable where the data is absent without `if_present`, or stale.
pub fn device_address<D: HostData + ?Sized>(region: &'static RegionInfo, name: &'static str, d: &D, if_present: bool, use_host: bool) -> DevicePtr<D::Elem> {
    let v = view(d);
    let len = d.host_len();
    let host = DevicePtr { addr: v.addr as u64, len, device: false, _elem: PhantomData };
    if use_host {
        return host;
    }
    let dev = devices::current_device();
    try_with_table_on(&dev, |t, b| {
        let found = t.lookup(v);
        if let Some(msg) = t.stale(region, name, v, &found) {
            return Err(msg);
        }
        let device = !b.is_host();
        match found {
            Lookup::Present(start) => Ok(DevicePtr { addr: t.dev_of(start, v).0, len, device, _elem: PhantomData }),
            Lookup::Absent if v.bytes == 0 => Ok(DevicePtr { addr: absent_empty(b, v).0, len, device, _elem: PhantomData }),
            Lookup::Absent if if_present => Ok(host),
            Lookup::Overlap(start) => Err(t.overlap_error(region, name, v, start)),
            Lookup::Absent => Err(format!(
                "acc: {region}: `{name}` in `use_device` is not on the device ({} at {:#x}); \
                 name it in an enclosing data region or `enter_data!` first, or add `if_present` to get its host address then",
                crate::profile::human_bytes(v.bytes as u64),
                v.addr
            )),
        }
    })
    .unwrap_or_else(|msg| panic!("{msg}"))
}
