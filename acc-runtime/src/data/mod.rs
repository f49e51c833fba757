//! Data on the device: the present table, data clauses, `enter data`/`exit data`, `update`.
//!
//! Every data clause is present-or (OpenACC 2.5+): data already on the device is not moved,
//! its reference count goes up instead. Each present array has two counts:
//!
//! - the *structured* count, held by data regions and compute regions ([`DataScope`]), which
//!   give their references back when the region ends, on every exit path (unwinding too);
//! - the *dynamic* count, held by [`enter_data`] and given back by [`exit_data`] (and by
//!   [`Mirror`]).
//!
//! When both counts reach zero the array leaves the device: copied back first when the clause
//! that dropped the last reference says so (`copy`, `copyout`), then freed.
//!
//! A range inside a present array is present too (containment): `present(a[lo..hi])`-style
//! views of present data need no transfer. A range that only partly overlaps present data is
//! an error. Zero-length data is always fine: it is never transferred or counted.
//!
//! Each device has its own table, behind a mutex (see [`crate::devices`]); a construct uses the
//! table of its thread's device. Data present on one device is not present on another: a
//! construct on one device that names data present on another panics, naming the variable and
//! both devices (an index of which device holds which host range, `RESIDENT`, finds it). On
//! the host backend device addresses are host addresses and nothing is copied, but the table
//! is kept all the same, so `present` clauses, [`is_present`] and the counts behave as on a GPU.

mod declare;
mod host_data;
mod map;
mod mirror;
#[cfg(feature = "ndarray")]
mod nd;
mod slice;
mod transfer;

pub use declare::{declare, declare_mut, Declarable, DeclarableMut, Declared};
pub use host_data::{device_address, DevicePtr};
pub use map::{host_ptr, map_data, unmap_data, Mapped};
pub use mirror::Mirror;
pub use slice::DeviceSlice;

use std::ops::{Bound, RangeBounds};
use std::sync::{Arc, PoisonError};

use crate::backend::{Backend, DevPtr};
use crate::devices::{self, Device};
pub use crate::present::HostView;
use crate::present::{Held, Lookup, Table};
use crate::prof::{self, DataInfo, Detail, Event};
use crate::profile::{self, Direction};
use crate::region_info::RegionInfo;
use transfer::{transfer, Transfer};

/// Types that can be named in a data clause: contiguous host arrays of `Copy` elements.
///
/// Implemented for `[T]`, `Vec<T>`, `[T; N]`, `Box<[T]>`, [`Mirror<D>`], and references to
/// any of these; with the `ndarray` feature, for `ndarray`'s `ArrayBase` (`Array`, `ArrayView`,
/// `ArrayViewMut`) in standard layout (any other layout panics).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be named in an acc data clause",
    label = "expected a `Vec`, slice or array",
    note = "data clauses take `Vec<T>`, `[T]`, `[T; N]` (or references to them) of `Copy` elements"
)]
pub trait HostData {
    /// The element type.
    type Elem: Copy;
    /// Address of the first element (dangling but aligned when empty).
    fn host_ptr(&self) -> *const Self::Elem;
    /// Number of elements.
    fn host_len(&self) -> usize;
}

impl<T: Copy> HostData for [T] {
    type Elem = T;
    fn host_ptr(&self) -> *const T {
        self.as_ptr()
    }
    fn host_len(&self) -> usize {
        self.len()
    }
}

impl<T: Copy> HostData for Vec<T> {
    type Elem = T;
    fn host_ptr(&self) -> *const T {
        self.as_ptr()
    }
    fn host_len(&self) -> usize {
        self.len()
    }
}

impl<T: Copy, const N: usize> HostData for [T; N] {
    type Elem = T;
    fn host_ptr(&self) -> *const T {
        self.as_ptr()
    }
    fn host_len(&self) -> usize {
        N
    }
}

impl<T: Copy> HostData for Box<[T]> {
    type Elem = T;
    fn host_ptr(&self) -> *const T {
        self.as_ptr()
    }
    fn host_len(&self) -> usize {
        self.len()
    }
}

impl<D: HostData + ?Sized> HostData for &D {
    type Elem = D::Elem;
    fn host_ptr(&self) -> *const D::Elem {
        (**self).host_ptr()
    }
    fn host_len(&self) -> usize {
        (**self).host_len()
    }
}

impl<D: HostData + ?Sized> HostData for &mut D {
    type Elem = D::Elem;
    fn host_ptr(&self) -> *const D::Elem {
        (**self).host_ptr()
    }
    fn host_len(&self) -> usize {
        (**self).host_len()
    }
}

/// The host byte range of `d`.
///
/// ```
/// let a = vec![0f32; 4];
/// let v = acc_runtime::private::view(&a);
/// assert_eq!((v.addr, v.bytes, v.elem), (a.as_ptr() as usize, 16, "f32"));
/// ```
pub fn view<D: HostData + ?Sized>(d: &D) -> HostView {
    HostView {
        addr: d.host_ptr() as usize,
        bytes: d.host_len() * std::mem::size_of::<D::Elem>(),
        elem: std::any::type_name::<D::Elem>(),
    }
}

/// The host byte range of `d`, taken through a mutable borrow: generated code views data
/// that a construct writes back (`copy`, `copyout`, `create`, `update host`) this way, so
/// that the name must be a mutable binding, as the data changes under it.
///
/// ```
/// let mut a = [0u8; 3];
/// assert_eq!(acc_runtime::private::view_mut(&mut a).bytes, 3);
/// ```
pub fn view_mut<D: HostData + ?Sized>(d: &mut D) -> HostView {
    view(&*d)
}

/// The host byte range of the elements `range` of `d`: the view of a section `a[lo..hi]` in an
/// `update!` clause (`name` is the section as written). Panics naming the section and the
/// region when `range` is not inside `d`, as indexing would, before anything is copied.
///
/// ```
/// # static R: acc_runtime::private::RegionInfo = acc_runtime::private::RegionInfo {
/// #     name: "update", kind: "update", file: "doc.rs", line: 1, kernel: "" };
/// let a = vec![0f64; 10];
/// let v = acc_runtime::private::section(&R, "a[2..5]", &a, 2..5);
/// assert_eq!((v.addr, v.bytes), (a.as_ptr() as usize + 16, 24));
/// assert_eq!(acc_runtime::private::section(&R, "a[..]", &a, ..).bytes, 80);
/// ```
pub fn section<D: HostData + ?Sized>(region: &RegionInfo, name: &str, d: &D, range: impl RangeBounds<usize>) -> HostView {
    let len = d.host_len();
    let lo = match range.start_bound() {
        Bound::Included(&n) => n,
        Bound::Excluded(&n) => n.saturating_add(1),
        Bound::Unbounded => 0,
    };
    let hi = match range.end_bound() {
        Bound::Included(&n) => n.saturating_add(1),
        Bound::Excluded(&n) => n,
        Bound::Unbounded => len,
    };
    if lo > hi || hi > len {
        panic!("acc: {region}: section `{name}` is elements {lo}..{hi}, not inside its array of {len} elements");
    }
    let size = std::mem::size_of::<D::Elem>();
    HostView { addr: d.host_ptr() as usize + lo * size, bytes: (hi - lo) * size, elem: std::any::type_name::<D::Elem>() }
}

/// [`section`] taken through a mutable borrow, for sections the construct writes
/// (`update host`); see [`view_mut`].
pub fn section_mut<D: HostData + ?Sized>(region: &RegionInfo, name: &str, d: &mut D, range: impl RangeBounds<usize>) -> HostView {
    section(region, name, &*d, range)
}

/// A data clause of a structured construct (data region or compute region).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clause {
    /// `copy`: present-or-copyin at entry, copied back when the last reference goes.
    Copy,
    /// `copyin`: present-or-copyin at entry.
    CopyIn,
    /// `copyout`: present-or-copyin at entry (the host's data, so that elements no kernel
    /// writes come back unchanged, as on the host backend), copied back when the last
    /// reference goes.
    CopyOut,
    /// `create`: present-or-allocate at entry.
    Create,
    /// `present`: must already be on the device.
    Present,
    /// `deviceptr`: the view is a device address already (a [`DeviceSlice`]); not tracked.
    DevicePtr,
}

impl Clause {
    /// The clause as written in a directive: `copy`, `copyin`, `copyout`, `create`,
    /// `present`, `deviceptr`.
    pub fn keyword(self) -> &'static str {
        match self {
            Clause::Copy => "copy",
            Clause::CopyIn => "copyin",
            Clause::CopyOut => "copyout",
            Clause::Create => "create",
            Clause::Present => "present",
            Clause::DevicePtr => "deviceptr",
        }
    }
}

/// A data clause's modifiers (OpenACC 3.3's `always`, `alwaysin`, `alwaysout`, `zero`; the
/// code generator refuses a modifier its clause does not take).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// `always`, `alwaysin` on `copy`/`copyin`: present data is copied to the device too.
    pub always_in: bool,
    /// `always`, `alwaysout` on `copy`/`copyout`: the device copy comes back at the end even
    /// where other references keep it present.
    pub always_out: bool,
    /// `zero` on `create`/`copyout`: a new device copy starts as zero bytes (on the host
    /// backend, whose device copy is the host array, the array is zeroed).
    pub zero: bool,
}

/// A clause of `enter data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EnterClause {
    /// `copyin`: present-or-copyin.
    CopyIn,
    /// `create`: present-or-allocate.
    Create,
}

/// A clause of `exit data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExitClause {
    /// `copyout`: copied back when the last reference goes.
    CopyOut,
    /// `delete`: freed without copying when the last reference goes.
    Delete,
}

/// Data as a construct names it in a clause: the construct, the data's name there, and the
/// data's host bytes. The present table's entries record all three, and its messages name them.
#[derive(Clone, Copy, Debug)]
struct Named {
    region: &'static RegionInfo,
    name: &'static str,
    view: HostView,
}

/// A device's present table, locked, with the device's backend: what the data clauses'
/// present-or steps work on.
struct DeviceTable<'a> {
    table: &'a mut Table,
    backend: &'a dyn Backend,
}

/// Copies `d` to its device copy at `dev` (in order with `queue`'s work when there is one;
/// `ahead` of the synchronous launch of a compute region, see [`Backend::h2d_before_launch`]).
fn upload(b: &dyn Backend, d: Named, dev: DevPtr, queue: Option<i64>, ahead: bool) -> Result<(), String> {
    let Named { region, name, view: v } = d;
    let copy = Transfer { dir: Direction::HostToDevice, dev, host: v.addr, bytes: v.bytes, queue, ahead };
    // SAFETY: `v` describes live host data the caller keeps borrowed (the contract of
    // `HostView`); `dev` has room for `v.bytes` bytes (an allocation of that size, or the
    // matching part of a present array that contains `v`).
    unsafe { transfer(b, region, name, copy) }.map_err(|e| format!("acc: {region}: {e}"))
}

/// Copies the device copy at `dev` back to `d`: in order with the work queued on `queue`
/// when there is one (the kernels of an async region), done when this returns (the host
/// data is borrowed only until the construct ends, so nothing may write it later).
fn download(b: &dyn Backend, d: Named, dev: DevPtr, queue: Option<i64>) -> Result<(), String> {
    let Named { region, name, view: v } = d;
    let copy = Transfer { dir: Direction::DeviceToHost, dev, host: v.addr, bytes: v.bytes, queue, ahead: false };
    // SAFETY: `v` describes live host data that the construct's caller holds mutably
    // borrowed (the contract of `HostView` for written-back data); `dev` is the matching
    // part of a live device allocation.
    unsafe { transfer(b, region, name, copy) }.map_err(|e| format!("acc: {region}: {e}"))
}

/// Frees `dev`: after the work queued on `queue` (deferred until it has completed) when there
/// is one, else after every busy queue (the CUDA backend's `free`).
///
/// # Safety
/// As for [`Backend::free`], where "pending work" excludes the work queued on `queue`.
unsafe fn free_on(b: &dyn Backend, dev: DevPtr, queue: Option<i64>) -> Result<(), String> {
    match queue {
        // SAFETY: the caller's contract.
        Some(q) => unsafe { b.free_after(dev, q) },
        // SAFETY: the caller's contract.
        None => unsafe { b.free(dev) },
    }
}

/// Device address of zero-length data that is not present.
fn absent_empty(b: &dyn Backend, v: HostView) -> DevPtr {
    if b.is_host() {
        DevPtr(v.addr as u64)
    } else {
        DevPtr(0)
    }
}

/// How [`DeviceTable::create`] fills a new device copy.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fill {
    /// Not at all.
    No,
    /// Uploaded, the copy done on return.
    Upload,
    /// Uploaded ahead of a synchronous compute region's launch ([`Backend::h2d_before_launch`]).
    UploadAhead,
    /// As `UploadAhead`, into host memory mapped for the device where the backend gives it
    /// ([`Backend::alloc_hosted`]): data the region's kernels only store to.
    UploadHosted,
    /// Zero bytes (the `zero` modifier); on the host backend the host array is zeroed.
    Zero,
}

impl DeviceTable<'_> {
    /// A new entry for `d` in the table with the given counts: its device copy allocated (unless
    /// the device is the host) and filled as `fill` says.
    fn create(&mut self, d: Named, fill: Fill, counts: (usize, usize)) -> Result<Held, String> {
        let (t, b) = (&mut *self.table, self.backend);
        let Named { region, name, view: v } = d;
        let on = t.device_name();
        // A synchronous compute region's own copy takes the device memory its last call kept
        // (`Backend::keep_copy`), and uploads nothing where the host holds what that memory does.
        // SAFETY: `v` describes live host data the caller keeps borrowed (the contract of
        // `HostView`); nothing writes it during the call.
        let mut kept = if fill == Fill::UploadAhead && keepable(v) && !b.is_host() { b.take_copy(copy_key(region, name), unsafe { host_bytes(v) }) } else { None };
        let held = t.insert(region, name, v, counts, || {
            if b.is_host() {
                if fill == Fill::Zero {
                    // SAFETY: a `zero` clause's view comes from a mutable borrow of live host
                    // data (the code generator views it with `view_mut`), held for the call.
                    unsafe { std::ptr::write_bytes(v.addr as *mut u8, 0, v.bytes) };
                }
                return Ok(DevPtr(v.addr as u64));
            }
            if let Some((dev, same)) = kept.take() {
                data_event(Event::Create, b, d, dev, None);
                if !same {
                    if let Err(e) = upload(b, d, dev, None, true) {
                        // SAFETY: `dev` is ours (`take_copy`) and nothing else knows it.
                        let _ = unsafe { b.free(dev) };
                        return Err(e);
                    }
                }
                return Ok(dev);
            }
            // Host memory mapped for the device where the backend gives it, else device memory.
            let hosted = if fill == Fill::UploadHosted { b.alloc_hosted(v.bytes) } else { None };
            let dev = match hosted {
                Some(dev) => dev,
                None => b.alloc(v.bytes).map_err(|e| {
                    format!(
                        "acc: {region}: cannot allocate {} ({} bytes) for `{name}` on {on}: {e}",
                        profile::human_bytes(v.bytes as u64),
                        v.bytes,
                    )
                })?,
            };
            data_event(Event::Alloc, b, d, dev, None);
            data_event(Event::Create, b, d, dev, None);
            if fill == Fill::Zero {
                let zeros = vec![0u8; v.bytes];
                // SAFETY: `zeros` holds `v.bytes` bytes; `dev` was just allocated with room for them.
                if let Err(e) = unsafe { b.h2d(dev, zeros.as_ptr(), v.bytes) } {
                    // SAFETY: `dev` was just allocated by `b` and nothing else knows it.
                    let _ = unsafe { b.free(dev) };
                    return Err(format!("acc: {region}: zeroing `{name}` on {on}: {e}"));
                }
            } else if fill != Fill::No {
                if let Err(e) = upload(b, d, dev, None, fill != Fill::Upload) {
                    // SAFETY: `dev` was just allocated by `b` and nothing else knows it.
                    let _ = unsafe { b.free(dev) };
                    return Err(e);
                }
            }
            Ok(dev)
        });
        if let Some((dev, _)) = kept {
            // The entry was refused before it needed memory.
            // SAFETY: `dev` is ours (`take_copy`) and nothing else knows it.
            let _ = unsafe { b.free(dev) };
        }
        let held = held?;
        // Reads `ACC_NOTIFY` now, so that the report of what is left at exit is set up.
        arm_leftover_report();
        Ok(held)
    }

    /// Removes the entry of the table at `start` if both its counts are zero, copying `d` back
    /// first if `copyout`. With an async `queue`, the copy follows the work queued there and the
    /// memory is freed once that work has completed. `keep`: the device copy may be kept for the
    /// region's next call (`Backend::keep_copy`) when a synchronous copy back of all of it leaves
    /// the host holding the same bytes. `always_out` (with `copyout`): data that other
    /// references keep present is copied back all the same.
    fn release_or_copy(&mut self, d: Named, start: usize, copyout: bool, always_out: bool, queue: Option<i64>, keep: bool) -> Result<(), String> {
        let (t, b) = (&mut *self.table, self.backend);
        let Named { region, name, view: v } = d;
        let Some((base, bytes)) = t.remove_if_unused(start) else {
            // Mapped data stays on the device (its mapping's end takes it off); its last
            // `copyout` still copies back.
            let last_of_mapped = t.is_mapped(start) && t.counts(v) == Some((0, 0));
            if copyout && (always_out || last_of_mapped) && !b.is_host() {
                return download(b, d, t.dev_of(start, v), queue);
            }
            return Ok(());
        };
        if b.is_host() {
            return Ok(());
        }
        let copied = if copyout { download(b, d, DevPtr(base.0 + (v.addr - start) as u64), queue) } else { Ok(()) };
        data_event(Event::Delete, b, d, base, queue);
        // Copied back whole and synchronously: the host holds what the device copy does, which
        // may be kept for the region's next call.
        // SAFETY: `base` came from `b.alloc` for `bytes == v.bytes` bytes, equal to `v`'s now (the
        // synchronous download above); the entry has left the table, so nothing else uses it;
        // `v` describes live host data the construct's caller holds (the contract of `HostView`).
        if keep && copyout && copied.is_ok() && queue.is_none() && v.addr == start && v.bytes == bytes && keepable(v) && unsafe { b.keep_copy(copy_key(region, name), base, host_bytes(v)) } {
            return Ok(());
        }
        // SAFETY: the entry came from `b.alloc` and has just left the table, so this is the only
        // free; the download above has completed (it is synchronous); the work queued on `queue`
        // is waited for by `free_on`.
        let freed = unsafe { free_on(b, base, queue) }.map_err(|err| format!("acc: {region}: freeing `{name}` on the device failed: {err}"));
        data_event(Event::Free, b, d, base, queue);
        copied.and(freed)
    }

    /// A structured construct's clause `clause` for `d`: its device address, and the reference
    /// it holds (none for `deviceptr` and zero-length data). `ahead`: the construct is a
    /// synchronous compute region, whose launch comes next (its uploads need not wait);
    /// `written`: its kernels only store to `d` ([`DataScope::enter_written`]).
    fn enter_structured(&mut self, d: Named, clause: Clause, ahead: bool, written: bool, m: Modifiers) -> Result<(DevPtr, Option<Held>), String> {
        let (t, b) = (&mut *self.table, self.backend);
        let Named { region, name, view: v } = d;
        if clause == Clause::DevicePtr {
            return Ok((DevPtr(v.addr as u64), None));
        }
        match t.lookup_here(region, name, v)? {
            Lookup::Present(start) if v.bytes == 0 => Ok((t.dev_of(start, v), None)),
            Lookup::Present(start) => {
                let dev = t.dev_of(start, v);
                if m.always_in && matches!(clause, Clause::Copy | Clause::CopyIn) && !b.is_host() {
                    upload(b, d, dev, None, false)?;
                }
                Ok((dev, Some(t.add_structured(start))))
            }
            Lookup::Overlap(start) => Err(t.overlap_error(region, name, v, start)),
            Lookup::Absent if v.bytes == 0 => Ok((absent_empty(b, v), None)),
            Lookup::Absent if clause == Clause::Present => Err(format!("acc: {region}: `present` data `{name}` is not on the device")),
            Lookup::Absent => {
                // `copyout` uploads too: elements the device never writes (a stencil's boundary)
                // come back as the host had them, as on the host backend, where OpenACC leaves
                // them undefined (the device's uninitialised memory).
                let fill = match clause {
                    _ if m.zero => Fill::Zero,
                    Clause::Copy | Clause::CopyOut if ahead && written => Fill::UploadHosted,
                    Clause::Copy | Clause::CopyIn | Clause::CopyOut if ahead => Fill::UploadAhead,
                    Clause::Copy | Clause::CopyIn | Clause::CopyOut => Fill::Upload,
                    _ => Fill::No,
                };
                let held = self.create(d, fill, (1, 0))?;
                let dev = self.table.dev_of(v.addr, v);
                // Its copy back may come right behind the region's launch (`Backend::download_behind_launch`).
                if ahead && matches!(clause, Clause::Copy | Clause::CopyOut) {
                    // (Where it cannot, the exit copies it back as any other.)
                    let _ = b.download_behind_launch(region, dev, v.bytes);
                }
                Ok((dev, Some(held)))
            }
        }
    }

    /// Gives back the reference `held` of a structured construct's clause `clause` for `d`
    /// (`queue`, `keep`: as for [`release_or_copy`](Self::release_or_copy)).
    fn exit_structured(&mut self, d: Named, clause: Clause, held: Held, queue: Option<i64>, keep: bool, always_out: bool) -> Result<(), String> {
        if !self.table.drop_structured(held) {
            return Ok(());
        }
        let copyout = matches!(clause, Clause::Copy | Clause::CopyOut);
        self.release_or_copy(d, held.start(), copyout, always_out, queue, keep)
    }
}

/// Fires data event `e` (the profiling interface's `create`, `alloc`, `delete`, `free`) of `d`,
/// whose device copy is at `dev` on `b`'s device, on `queue`.
fn data_event(e: Event, b: &dyn Backend, d: Named, dev: DevPtr, queue: Option<i64>) {
    let Named { region, name, view: v } = d;
    prof::emit(e, || {
        let data = DataInfo { var_name: name, bytes: v.bytes, host_addr: v.addr, device_addr: dev.0 };
        prof::Info::of(e, region, (b.device_type(), b.device_num()), queue).implicit(is_compute(region)).with(Detail::Data(data))
    });
}

/// The key of `name`'s device copy kept for `region`'s next call (`Backend::keep_copy`).
fn copy_key(region: &'static RegionInfo, name: &'static str) -> (usize, usize) {
    (std::ptr::from_ref(region) as usize, name.as_ptr() as usize)
}

/// Whether a device copy of `v` may be kept between a region's calls (`Backend::keep_copy`):
/// data of a primitive element type, every byte of which is part of its value (the kept copy
/// is compared with the host's bytes; a struct's padding is not a value, nor safely read).
fn keepable(v: HostView) -> bool {
    v.bytes > 0 && matches!(v.elem, "f32" | "f64" | "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "bool" | "char")
}

/// Whether `region` is a compute region (its scope's data is for its launches).
fn is_compute(region: &RegionInfo) -> bool {
    matches!(region.kind, "parallel" | "kernels" | "serial")
}

/// The bytes of `v`.
///
/// # Safety
/// `v` describes live host data (the contract of `HostView`), readable for `v.bytes` bytes
/// and not written while the slice lives.
unsafe fn host_bytes<'v>(v: HostView) -> &'v [u8] {
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts(v.addr as *const u8, v.bytes) }
}

/// Runs `f` on the table of `dev` with its backend (opened at first use; an error once the
/// device is lost); the error comes back with the lock released.
fn try_with_table_on<R>(dev: &Device, f: impl FnOnce(&mut Table, &dyn Backend) -> Result<R, String>) -> Result<R, String> {
    let mut table = dev.table.lock().unwrap_or_else(PoisonError::into_inner);
    let b = dev.open(&mut table)?;
    f(&mut table, &*b)
}

#[derive(Debug)]
struct ScopeEntry {
    name: &'static str,
    view: HostView,
    clause: Clause,
    held: Held,
    /// The device address `view` entered at (the scope's reference keeps it there).
    dev: u64,
    /// `always`/`alwaysout`: copied back at the end even where other references remain.
    always_out: bool,
    /// The host data moved away from `view`: give the reference back without copying.
    stale: bool,
}

/// The structured data lifetime of a data region or a compute region.
///
/// [`enter`](Self::enter) applies one data clause; dropping the scope gives every reference
/// back in reverse order, copying data back and freeing it where the last reference goes.
/// Drop runs on unwinding too, so a panic inside a region loses no data.
///
/// ```
/// use acc_runtime::private::{view, Clause, DataScope, RegionInfo};
/// static R: RegionInfo =
///     RegionInfo { name: "r", kind: "data", file: "doc.rs", line: 1, kernel: "" };
/// let mut a = vec![1.0f64; 100];
/// {
///     let mut scope = DataScope::new(&R);
///     scope.enter("a", view(&a), Clause::Copy);
///     assert!(acc_runtime::is_present(&a));
/// }
/// assert!(!acc_runtime::is_present(&a));
/// a[0] = 2.0;
/// ```
#[derive(Debug)]
pub struct DataScope {
    region: &'static RegionInfo,
    entries: Vec<ScopeEntry>,
    queue: Option<i64>,
    /// The device the scope entered its data on (its thread's device at the first
    /// [`enter`](Self::enter)): the references go back there, whatever the thread does meanwhile.
    device: std::cell::OnceCell<Arc<Device>>,
    /// [`crate::backend::device_writes`] when the last clause entered: a scope that unwinds
    /// with it unchanged (no kernel launched, nothing uploaded since) copies no `copyout`
    /// data back, as its device copies hold nothing the program wrote.
    entered_at: u64,
    /// A synchronous compute region's scope that entered `copy` or `copyout` data: its
    /// copies back may have been asked for behind its launches (given back at its end).
    behind: bool,
    /// Its events of the profiling interface.
    events: ScopeEvents,
}

/// A [`DataScope`]'s events of the profiling interface ([`crate::prof`]): a compute region's
/// `compute_construct_start` when the scope is made and its end when it is dropped, after the
/// exits; `enter_data_start`/`end` around the data clauses entered
/// ([`DataScope::enter_data_start`]), then `exit_data_start`/`end` around their exits.
#[derive(Debug, Default)]
struct ScopeEvents {
    /// A compute region's construct.
    construct: prof::Span<'static>,
    /// The entering under way.
    entering: prof::Span<'static>,
    /// Whether the data clauses were entered ([`DataScope::enter_data_end`]).
    entered: bool,
}

impl DataScope {
    /// An empty scope for `region`.
    pub fn new(region: &'static RegionInfo) -> Self {
        Self::on_queue(region, None)
    }

    /// An empty scope for a compute region with `async(q)` (`queue` is `Some(q)`, see
    /// [`RegionInfo::queue`]): when it ends, the data it copies back is copied in order with
    /// the region's kernels on queue `q` (the scope's end waits for that copy: the host data
    /// is borrowed only until then), and the device memory it frees is freed once the work
    /// queued on `q` has completed, without waiting for it. Entering data is synchronous,
    /// as in [`new`](Self::new)'s scopes.
    ///
    /// A compute region's scope brackets its call for the profiling interface
    /// (`compute_construct_start` now, its end when the scope is dropped).
    pub fn on_queue(region: &'static RegionInfo, queue: Option<i64>) -> Self {
        let construct = if is_compute(region) { prof::Span::start(Event::ComputeConstructStart, |e| prof::Info::of(e, region, thread_device(), queue)) } else { prof::Span::default() };
        DataScope {
            region,
            entries: Vec::new(),
            queue,
            device: std::cell::OnceCell::new(),
            entered_at: 0,
            behind: false,
            events: ScopeEvents { construct, ..ScopeEvents::default() },
        }
    }

    /// Before the construct's data clauses enter: the profiling interface's `enter_data_start`
    /// (for a compute region's implicit data region, `implicit`).
    pub fn enter_data_start(&mut self) {
        let span = prof::Span::start(Event::EnterDataStart, |e| self.info(e));
        self.events.entering = span;
    }

    /// After them: `enter_data_end`; the scope's end fires `exit_data_start`/`end` around its
    /// exits.
    pub fn enter_data_end(&mut self) {
        self.events.entered = true;
        drop(std::mem::take(&mut self.events.entering));
    }

    /// The profiling interface's description of event `e` of this scope's construct.
    fn info(&self, e: Event) -> prof::Info<'static> {
        let d = self.device.get().map_or_else(thread_device, |d| (d.device_type(), d.num()));
        prof::Info::of(e, self.region, d, self.queue).implicit(is_compute(self.region))
    }

    /// An empty scope on device `dev` (whatever the thread's device is).
    pub(crate) fn on_device(region: &'static RegionInfo, dev: Arc<Device>) -> Self {
        let s = Self::new(region);
        let _ = s.device.set(dev);
        s
    }

    /// The scope's device, taken from the thread at first use.
    fn device(&self) -> &Arc<Device> {
        self.device.get_or_init(devices::current_device)
    }

    /// Applies clause `c` to `v` (named `name` in messages) and returns its device address
    /// (on the host backend, `v.addr`).
    ///
    /// Panics when `c` is [`Clause::Present`] and `v` is not present, and when `v` partly
    /// overlaps present data. `v` must stay borrowed (mutably, for `Copy`/`CopyOut`) until
    /// the scope is dropped.
    pub fn enter(&mut self, name: &'static str, v: HostView, c: Clause) -> u64 {
        self.enter_as(name, v, c, false, Modifiers::default())
    }

    /// [`enter`](Self::enter) of data that the region's kernels only store to: the code
    /// generator found every mention of it in the region's body an element assignment made
    /// once a trip of its parallel loops (or its length). A synchronous compute region's
    /// `copy` or `copyout` array of up to 64 KiB that no data region holds then gets its
    /// device copy in host memory mapped for the device, where the backend gives it
    /// ([`Backend::alloc_hosted`]): the kernels' stores land where the region's end copies
    /// them from, with no transfer after the launch.
    pub fn enter_written(&mut self, name: &'static str, v: HostView, c: Clause) -> u64 {
        self.enter_as(name, v, c, true, Modifiers::default())
    }

    /// [`enter`](Self::enter) with the clause's modifiers `m` (`always`, `alwaysin`,
    /// `alwaysout`, `zero`; see [`Modifiers`]). A `zero` clause's `v` comes from a mutable
    /// borrow ([`view_mut`]): on the host backend the host array is zeroed.
    pub fn enter_with(&mut self, name: &'static str, v: HostView, c: Clause, m: Modifiers) -> u64 {
        self.enter_as(name, v, c, false, m)
    }

    /// `no_create(v)`: present data is used as `present` would use it (the scope holds a
    /// reference until it ends); absent data is entered with `fallback` where there is one (a
    /// compute region's parameter: the clause its kind takes without one, so that the region
    /// computes the same on every device), else not at all (a data region: the regions inside
    /// then copy it per call as their clauses say). Returns the device address (of absent data
    /// without a fallback, its host address).
    pub fn enter_no_create(&mut self, name: &'static str, v: HostView, fallback: Option<Clause>) -> u64 {
        let present = v.bytes > 0 && try_with_table_on(self.device(), |t, _| Ok(matches!(t.lookup(v), Lookup::Present(_)))).unwrap_or(false);
        match (present, fallback) {
            (true, _) => self.enter(name, v, Clause::Present),
            (false, Some(c)) => self.enter(name, v, c),
            (false, None) => v.addr as u64,
        }
    }

    fn enter_as(&mut self, name: &'static str, v: HostView, c: Clause, written: bool, m: Modifiers) -> u64 {
        let region = self.region;
        // A synchronous compute region launches next, on the stream of the uploads.
        let ahead = self.queue.is_none() && is_compute(region);
        self.behind |= ahead && matches!(c, Clause::Copy | Clause::CopyOut);
        let d = Named { region, name, view: v };
        let (dev, held) = try_with_table_on(self.device(), |t, b| DeviceTable { table: t, backend: b }.enter_structured(d, c, ahead, written, m)).unwrap_or_else(|msg| panic!("{msg}"));
        if let Some(held) = held {
            self.entries.push(ScopeEntry {
                name,
                view: v,
                clause: c,
                held,
                dev: dev.0,
                always_out: m.always_out,
                stale: false,
            });
        }
        self.entered_at = crate::backend::device_writes();
        dev.0
    }

    /// Device address of `v`, which must be present (a part of a present array is). Data this
    /// scope entered is answered from the scope (a compute region asks for each array it just
    /// entered: a second lock and lookup of the present table cost a launch about 70 ns on
    /// the GPU machine); other data is looked up.
    pub fn device_ptr(&self, v: HostView) -> u64 {
        if let Some(e) = self.entries.iter().find(|e| e.view == v && !e.stale) {
            return e.dev;
        }
        let region = self.region;
        try_with_table_on(self.device(), |t, b| match t.lookup(v) {
            Lookup::Present(start) => Ok(t.dev_of(start, v).0),
            Lookup::Absent if v.bytes == 0 => Ok(absent_empty(b, v).0),
            Lookup::Absent | Lookup::Overlap(_) => Err(format!(
                "acc: {region}: data at {:#x} ({}) is not on the device",
                v.addr,
                profile::human_bytes(v.bytes as u64)
            )),
        })
        .unwrap_or_else(|msg| panic!("{msg}"))
    }
}

impl DataScope {
    /// Checks, at the end of a data region's body, that the data entered as `name` is still
    /// where it was (`v` is its view now). Data that was reassigned, grown or shrunk inside
    /// the region cannot be copied back to its old place: its references are given back
    /// without copying and this panics, naming the variable and the region.
    pub fn check_unmoved(&mut self, name: &'static str, v: HostView) {
        let mut moved = None;
        for e in self.entries.iter_mut().filter(|e| e.name == name) {
            if e.view != v {
                e.stale = true;
                moved = Some(e.view);
            }
        }
        if let Some(was) = moved {
            panic!(
                "acc: {}: `{name}` moved or changed length inside the data region \
                 ({} at {:#x} when the region began, {} at {:#x} at its end); \
                 data named in a data clause must keep its place and length until the region ends",
                self.region,
                profile::human_bytes(was.bytes as u64),
                was.addr,
                profile::human_bytes(v.bytes as u64),
                v.addr
            );
        }
    }
}

impl Drop for DataScope {
    fn drop(&mut self) {
        // An entering cut short (a clause that panicked) ends first.
        drop(std::mem::take(&mut self.events.entering));
        let exit = if self.events.entered { prof::Span::start(Event::ExitDataStart, |e| self.info(e)) } else { prof::Span::default() };
        self.give_back();
        // The exit's end, then the construct's (on unwinding from `give_back` too: the spans'
        // own drops, in this order).
        drop(exit);
        drop(std::mem::take(&mut self.events.construct));
    }
}

/// The calling thread's device (the host where none can be had), for an event's description.
fn thread_device() -> (crate::backend::DeviceType, usize) {
    devices::current().map_or((crate::backend::DeviceType::Host, 0), |d| (d.device_type(), d.num()))
}

impl DataScope {
    /// Gives every reference back, in reverse order (the scope's drop).
    fn give_back(&mut self) {
        if self.entries.is_empty() {
            return;
        }
        let region = self.region;
        let Some(device) = self.device.take() else { return };
        // Unwinding before anything wrote the device since the region entered: `copyout`
        // data was never written there (its device copy is uninitialised memory), and copying
        // it back would put garbage over the host's data. Every exit where the device copy
        // may have changed still copies back.
        let untouched = std::thread::panicking() && crate::backend::device_writes() == self.entered_at;
        // A synchronous compute region that ends without a panic may keep its small arrays'
        // device copies for its next call (`Backend::keep_copy`).
        let keep = self.queue.is_none() && is_compute(region) && !std::thread::panicking();
        let errors: Vec<String> = {
            let mut table = device.table.lock().unwrap_or_else(PoisonError::into_inner);
            match device.backend_if_open() {
                // Without an open backend (after `shutdown`) nothing is held any more. A lost
                // device (a kernel fault) is emptied by its recovery: the entries' ids are
                // gone then, and nothing is given back.
                None => Vec::new(),
                Some(b) if b.lost().is_some() => Vec::new(),
                Some(b) => {
                    let mut on = DeviceTable { table: &mut table, backend: &*b };
                    let errors = self
                        .entries
                        .drain(..)
                        .rev()
                        .filter_map(|e| {
                            let clause = if e.stale || (untouched && e.clause == Clause::CopyOut) { Clause::Create } else { e.clause };
                            on.exit_structured(Named { region, name: e.name, view: e.view }, clause, e.held, self.queue, keep && !e.stale, e.always_out && !e.stale && !untouched).err()
                        })
                        .collect();
                    if self.behind {
                        b.forget_downloads_behind();
                    }
                    errors
                }
            }
        };
        if !errors.is_empty() {
            let msg = errors.join("\n");
            if std::thread::panicking() {
                eprintln!("{msg}");
            } else {
                panic!("{msg}");
            }
        }
    }
}

/// `enter data` for one array: present-or-copyin or present-or-create, dynamic count +1.
///
/// The entry records the array's name, element type and length and the construct `region`
/// that entered it, so that data found later at its address that is not this array (another
/// element type, or longer: the array was dropped or reallocated without [`exit_data`])
/// makes the construct that meets it panic, naming both (see [`is_present`]). [`Mirror`] is
/// the form to prefer for unstructured lifetimes: it exits when dropped.
pub fn enter_data(region: &'static RegionInfo, name: &'static str, v: HostView, c: EnterClause) {
    enter_data_in(&devices::current_device(), region, name, v, c)
}

/// [`enter_data`] with the clause's modifiers `m` (`always`/`alwaysin` on `copyin`: present
/// data is copied too; `zero` on `create`: a new device copy starts as zero bytes, and `v`
/// comes from a mutable borrow, [`view_mut`]).
pub fn enter_data_with(region: &'static RegionInfo, name: &'static str, v: HostView, c: EnterClause, m: Modifiers) {
    enter_data_modified(&devices::current_device(), region, name, v, c, m)
}

/// [`enter_data`] on device `dev`.
pub(crate) fn enter_data_in(dev: &Device, region: &'static RegionInfo, name: &'static str, v: HostView, c: EnterClause) {
    enter_data_modified(dev, region, name, v, c, Modifiers::default())
}

fn enter_data_modified(dev: &Device, region: &'static RegionInfo, name: &'static str, v: HostView, c: EnterClause, m: Modifiers) {
    if v.bytes == 0 {
        return;
    }
    try_with_table_on(dev, |t, b| match t.lookup_here(region, name, v)? {
        Lookup::Present(start) => {
            t.add_dynamic(start);
            if m.always_in && c == EnterClause::CopyIn && !b.is_host() {
                upload(b, Named { region, name, view: v }, t.dev_of(start, v), None, false)?;
            }
            Ok(())
        }
        Lookup::Overlap(start) => Err(t.overlap_error(region, name, v, start)),
        Lookup::Absent => {
            let fill = match c {
                EnterClause::Create if m.zero => Fill::Zero,
                EnterClause::CopyIn => Fill::Upload,
                EnterClause::Create => Fill::No,
            };
            DeviceTable { table: t, backend: b }.create(Named { region, name, view: v }, fill, (0, 1)).map(|_| ())
        }
    })
    .unwrap_or_else(|msg| panic!("{msg}"))
}

/// `exit data` for one array: dynamic count -1 (to 0 with `finalize`); when both counts
/// reach zero the array is copied back (`copyout`) and freed. Absent data is ignored.
pub fn exit_data(
    region: &'static RegionInfo,
    name: &'static str,
    v: HostView,
    c: ExitClause,
    finalize: bool,
) {
    if let Err(msg) = try_exit_data(region, name, v, c, finalize) {
        panic!("{msg}");
    }
}

/// [`exit_data`] with `always_out` (`copyout(always: ..)`: the device copy comes back even
/// where references keep it present) and in order with the work of async queue `queue`
/// (`exit data async(q)`, `Some(q)` from [`RegionInfo::queue`]): the copy back follows that
/// queue's work and has landed when this returns; memory is freed once the queue's work is
/// done, without waiting for it.
pub fn exit_data_with(region: &'static RegionInfo, name: &'static str, v: HostView, c: ExitClause, finalize: bool, always_out: bool, queue: Option<i64>) {
    exit_data_modified(&devices::current_device(), region, name, v, c, finalize, always_out, queue).unwrap_or_else(|msg| panic!("{msg}"))
}

/// [`exit_data`] that returns the error instead of panicking (for destructors, which must not
/// panic while unwinding).
pub(crate) fn try_exit_data(
    region: &'static RegionInfo,
    name: &'static str,
    v: HostView,
    c: ExitClause,
    finalize: bool,
) -> Result<(), String> {
    let dev = devices::current()?;
    try_exit_data_in(&dev, region, name, v, c, finalize)
}

/// [`try_exit_data`] on device `dev`.
pub(crate) fn try_exit_data_in(
    dev: &Device,
    region: &'static RegionInfo,
    name: &'static str,
    v: HostView,
    c: ExitClause,
    finalize: bool,
) -> Result<(), String> {
    exit_data_modified(dev, region, name, v, c, finalize, false, None)
}

/// [`try_exit_data_in`] with `always_out` and `queue` as [`exit_data_with`] takes them.
#[allow(clippy::too_many_arguments)]
fn exit_data_modified(
    dev: &Device,
    region: &'static RegionInfo,
    name: &'static str,
    v: HostView,
    c: ExitClause,
    finalize: bool,
    always_out: bool,
    queue: Option<i64>,
) -> Result<(), String> {
    // A device lost to a fault took its data with it: nothing is left to give back.
    if v.bytes == 0 || dev.is_lost() {
        return Ok(());
    }
    try_with_table_on(dev, |t, b| match t.lookup_here(region, name, v)? {
        Lookup::Absent => Ok(()),
        Lookup::Overlap(start) => Err(t.overlap_error(region, name, v, start)),
        Lookup::Present(start) => {
            let copyout = c == ExitClause::CopyOut;
            if !t.drop_dynamic(start, finalize) {
                // No dynamic reference to give back (data regions hold it): `always` still copies.
                if copyout && always_out && !b.is_host() {
                    return download(b, Named { region, name, view: v }, t.dev_of(start, v), queue);
                }
                return Ok(());
            }
            DeviceTable { table: t, backend: b }.release_or_copy(Named { region, name, view: v }, start, copyout, always_out, queue, false)
        }
    })
}

/// `update host` (`to_host`) or `update device` of `v` on device `dev`.
pub(crate) fn update_in(
    dev: &Device,
    region: &'static RegionInfo,
    name: &'static str,
    v: HostView,
    if_present: bool,
    to_host: bool,
) {
    update_queued(dev, region, name, v, if_present, to_host, None)
}

/// [`update_in`] in order with the work of async queue `queue` (see [`update_host_on`]).
fn update_queued(
    dev: &Device,
    region: &'static RegionInfo,
    name: &'static str,
    v: HostView,
    if_present: bool,
    to_host: bool,
    queue: Option<i64>,
) {
    if v.bytes == 0 {
        return;
    }
    try_with_table_on(dev, |t, b| {
        match t.lookup_here(region, name, v)? {
        Lookup::Absent if if_present => Ok(()),
        Lookup::Absent => Err(format!(
            "acc: {region}: `update {}` data `{name}` is not on the device (add `if_present` to skip absent data)",
            if to_host { "host" } else { "device" }
        )),
        Lookup::Overlap(start) => Err(t.overlap_error(region, name, v, start)),
        Lookup::Present(_) if b.is_host() => Ok(()),
        Lookup::Present(start) => {
            let dev = t.dev_of(start, v);
            let d = Named { region, name, view: v };
            if to_host {
                download(b, d, dev, queue)
            } else {
                upload(b, d, dev, queue, false)
            }
        }
    }
    })
    .unwrap_or_else(|msg| panic!("{msg}"))
}

/// `update host(..)`: copies the device copy of `v` to the host. Panics naming `name` and the
/// region when `v` is not present, unless `if_present`.
pub fn update_host(region: &'static RegionInfo, name: &'static str, v: HostView, if_present: bool) {
    update_in(&devices::current_device(), region, name, v, if_present, true);
}

/// `update host(..) async(q)` (`queue` is `Some(q)`, see [`RegionInfo::queue`]): as
/// [`update_host`], the copy in order with the work queued on queue `q` (the kernels of
/// `async(q)` regions that write `v`); it waits for that queue only, where a synchronous update
/// waits for every busy queue first. The copy has landed when this returns (the host data is
/// borrowed only for the call), which OpenACC allows of an async operation. `None`: as
/// [`update_host`].
pub fn update_host_on(region: &'static RegionInfo, name: &'static str, v: HostView, if_present: bool, queue: Option<i64>) {
    update_queued(&devices::current_device(), region, name, v, if_present, true, queue);
}

/// `update device(..) async(q)`: as [`update_device`], the copy in order with the work queued
/// on queue `q` (it waits for that queue only); see [`update_host_on`].
pub fn update_device_on(region: &'static RegionInfo, name: &'static str, v: HostView, if_present: bool, queue: Option<i64>) {
    update_queued(&devices::current_device(), region, name, v, if_present, false, queue);
}

/// `update device(..)`: copies `v` to its device copy. Panics naming `name` and the region
/// when `v` is not present, unless `if_present`.
pub fn update_device(
    region: &'static RegionInfo,
    name: &'static str,
    v: HostView,
    if_present: bool,
) {
    update_in(&devices::current_device(), region, name, v, if_present, false);
}

/// Whether `d` is on the current device (OpenACC's `acc_is_present`): all of it lies in
/// present data. Zero-length data is present when its address lies in present data.
///
/// A stale entry is not `d`'s device copy: when the present data at `d`'s address holds
/// another element type, or is shorter than `d`, the data that entered there was dropped or
/// reallocated without `exit_data!` and `d` is new data at the same address. `is_present`
/// answers `false` then (it is a question, as OpenACC's `acc_is_present` is, and does not
/// panic); a compute region, `data!`, `enter_data!`, `update!` or `present(..)` that meets the
/// stale entry panics, naming the variable and where the old entry entered. (A new array of
/// the same type and length at the same address cannot be told from the old one: exit data
/// before dropping it, or let [`Mirror`] do it.)
///
/// ```
/// let a = vec![1u8; 8];
/// assert!(!acc_runtime::is_present(&a));
/// let m = acc_runtime::Mirror::new(a);
/// assert!(acc_runtime::is_present(&m[2..5]));
/// ```
pub fn is_present<D: HostData + ?Sized>(d: &D) -> bool {
    view_is_present(view(d))
}

/// [`is_present`] of a view.
fn view_is_present(v: HostView) -> bool {
    let Ok(dev) = devices::current() else { return false };
    let table = dev.table.lock().unwrap_or_else(PoisonError::into_inner);
    let found = table.lookup(v);
    matches!(found, Lookup::Present(_)) && table.stale(&UNNAMED, "", v, &found).is_none()
}

/// The construct `is_present` names in its (unused) messages.
static UNNAMED: RegionInfo = RegionInfo { name: "is_present", kind: "is_present", file: "", line: 0, kernel: "" };

/// Under `ACC_NOTIFY`, registers [`report_leftovers`] to run at process exit (once, the
/// first time data enters a device).
fn arm_leftover_report() {
    static ARMED: std::sync::Once = std::sync::Once::new();
    if !profile::notify_enabled() {
        return;
    }
    ARMED.call_once(|| {
        extern "C" fn at_exit_notify() {
            // A panic must not cross the C boundary; nothing useful is left to do then.
            let _ = std::panic::catch_unwind(report_leftovers);
        }
        // SAFETY: a plain `extern "C" fn()` that never unwinds, registered once.
        unsafe { libc::atexit(at_exit_notify) };
    });
}

/// Prints, on stderr, one line for each array still on a device (for the report at process
/// exit under `ACC_NOTIFY`). Skips a device whose table another thread holds (the report must
/// not wait).
pub(crate) fn report_leftovers() {
    for dev in devices::all() {
        let lines = match dev.table.try_lock() {
            Ok(t) => t.leftovers(),
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner().leftovers(),
            Err(std::sync::TryLockError::WouldBlock) => continue,
        };
        for l in lines {
            eprintln!("{l}");
        }
    }
}

/// The (structured, dynamic) reference counts of the present array containing `v`, or `None`
/// when `v` is not present. For tests and debugging.
pub fn present_counts(v: HostView) -> Option<(usize, usize)> {
    let dev = devices::current().ok()?;
    present_counts_in(&dev, v)
}

/// [`present_counts`] on device `dev`.
pub(crate) fn present_counts_in(dev: &Device, v: HostView) -> Option<(usize, usize)> {
    dev.table.lock().unwrap_or_else(PoisonError::into_inner).counts(v)
}

#[cfg(test)]
mod tests;
