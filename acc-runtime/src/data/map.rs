//! `acc::map_data` (OpenACC's `acc_map_data`, ended by `acc_unmap_data`) and `acc::host_ptr`
//! (`acc_hostptr`): device memory the program allocated itself, an [`acc::DeviceSlice`], made
//! the present device copy of a host array, so that regions and `update!` use it.
//!
//! The mapping borrows both for its life: the host array is seen through it as a slice (it
//! keeps its place and length), and the `DeviceSlice` is neither freed nor used apart while it
//! is the array's device copy. Dropping the mapping ends it ([`unmap_data`]): the entry leaves
//! the present table and the device memory stays the `DeviceSlice`'s.
//!
//! On the host backend, whose device copy of an array is the array itself, the mapping makes
//! the array hold the `DeviceSlice`'s elements and gives them back to it at its end, so that a
//! program sees the same values on both backends.
//!
//! [`acc::DeviceSlice`]: crate::DeviceSlice

use std::ops::{Deref, DerefMut};

use super::{try_with_table_on, view, DeclarableMut, DeviceSlice, HostData, Lookup};
use crate::backend::DevPtr;
use crate::devices;
use crate::region_info::RegionInfo;

static MAP: RegionInfo = RegionInfo { name: "acc::map_data", kind: "map_data", file: "<acc runtime>", line: 0, kernel: "" };

/// A host array whose present device copy is a [`DeviceSlice`], until it is dropped
/// ([`unmap_data`]). It dereferences to the array's elements.
pub struct Mapped<'a, D: DeclarableMut + ?Sized> {
    host: &'a mut D,
    dev: &'a mut DeviceSlice<D::Elem>,
}

/// `acc_map_data(host, dev, bytes)`: `dev` becomes the device copy of `host` (present, with a
/// dynamic reference) until the returned mapping is dropped. Panics when the lengths differ or
/// `host` is present already.
///
/// ```
/// use acc_runtime::{is_present, map_data, DeviceSlice};
/// let mut dev = DeviceSlice::from_host(&[1.0f32; 64]);
/// let mut host = vec![0.0f32; 64];
/// {
///     let a = map_data(&mut host, &mut dev);
///     assert!(is_present(&a)); // regions called with `&mut a` run on `dev`'s elements
///     assert_eq!(a.len(), 64);
/// } // unmapped: the memory stays `dev`'s
/// assert!(!is_present(&host));
/// assert_eq!(dev.to_host(), [1.0; 64]);
/// ```
#[track_caller]
pub fn map_data<'a, D: DeclarableMut + ?Sized>(host: &'a mut D, dev: &'a mut DeviceSlice<D::Elem>) -> Mapped<'a, D> {
    let v = view(&*host);
    assert_eq!(host.host_len(), dev.len(), "acc::map_data: the host array has {} elements, the DeviceSlice {}", host.host_len(), dev.len());
    let device = devices::current_device();
    let on_host = devices::backend().is_host();
    if on_host {
        // The host backend's device copy is the array: it takes the device memory's elements.
        dev.copy_to_host(host.elems_mut());
    }
    let addr = if on_host { v.addr as u64 } else { dev.device_ptr() };
    let mapped = try_with_table_on(&device, |t, _| {
        if !matches!(t.lookup(v), Lookup::Absent) {
            return Err("acc::map_data: the host array is present already (a data region, `enter_data!` or another mapping holds it)".to_string());
        }
        let held = t.insert(&MAP, "mapped", v, (0, 1), || Ok(DevPtr(addr)))?;
        t.set_mapped(held.start());
        Ok(())
    });
    if let Err(msg) = mapped {
        panic!("{msg}");
    }
    Mapped { host, dev }
}

/// `acc_unmap_data(host)`: ends the mapping (as dropping it does).
pub fn unmap_data<D: DeclarableMut + ?Sized>(m: Mapped<'_, D>) {
    drop(m);
}

/// `acc_hostptr(d)`: the host address of the present array whose device copy holds device
/// address `addr` (`None` when no present array's does). On the host backend device
/// addresses are host addresses.
pub fn host_ptr(addr: u64) -> Option<u64> {
    let device = devices::current_device();
    try_with_table_on(&device, |t, _| Ok(t.host_of(addr))).ok().flatten().map(|a| a as u64)
}

impl<D: DeclarableMut + ?Sized> Drop for Mapped<'_, D> {
    fn drop(&mut self) {
        let v = view(&*self.host);
        let device = devices::current_device();
        let ended = try_with_table_on(&device, |t, b| {
            if let Lookup::Present(start) = t.lookup(v) {
                if t.is_mapped(start) {
                    t.unmap(start)?;
                }
            }
            Ok(b.is_host())
        });
        match ended {
            Ok(true) => self.dev.copy_from_host(self.host.elems()),
            Ok(false) => {}
            Err(msg) if !std::thread::panicking() => panic!("acc::unmap_data: {msg}"),
            Err(_) => {}
        }
    }
}

impl<D: DeclarableMut + ?Sized> Deref for Mapped<'_, D> {
    type Target = [D::Elem];
    fn deref(&self) -> &Self::Target {
        self.host.elems()
    }
}

impl<D: DeclarableMut + ?Sized> DerefMut for Mapped<'_, D> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.host.elems_mut()
    }
}

impl<D: DeclarableMut + ?Sized> HostData for Mapped<'_, D> {
    type Elem = D::Elem;
    fn host_ptr(&self) -> *const Self::Elem {
        self.host.host_ptr()
    }
    fn host_len(&self) -> usize {
        self.host.host_len()
    }
}
