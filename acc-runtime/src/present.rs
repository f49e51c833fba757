//! The present table of a device: which host ranges have a device copy, where, and who holds
//! them (the reference counts). Bookkeeping only: what moves data to and from the device
//! sits above it (`crate::data`), and the device owns its table (`crate::devices::Device`).
//!
//! Entries never overlap; a range inside an entry is present (containment); a range that
//! partly overlaps one is an error. An index of every device's present ranges ([`RESIDENT`])
//! tells a construct that data it does not find on its device is on another one.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

use crate::backend::{DevPtr, DeviceType};
use crate::profile;
use crate::region_info::RegionInfo;

/// A host byte range: what the present table is keyed by.
///
/// Generated code makes views with [`view`](crate::data::view) from live references and keeps the data
/// borrowed while the view is in use (a data region's `copy` writes back through it when
/// the region ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostView {
    /// Host address of the first byte.
    pub addr: usize,
    /// Length in bytes.
    pub bytes: usize,
    /// The element type's name (`core::any::type_name`): the present table keeps it, to tell
    /// an array from a stale entry left at its address by data that was dropped or
    /// reallocated without `exit data`.
    pub elem: &'static str,
}

impl HostView {
    pub(crate) fn end(self) -> usize {
        self.addr.saturating_add(self.bytes)
    }
}


/// One array on the device.
#[derive(Debug)]
struct Entry {
    bytes: usize,
    dev: DevPtr,
    structured: usize,
    dynamic: usize,
    /// Unique per entry, so that a reference given back after a [`crate::shutdown`] cannot
    /// hit a newer entry at the same address.
    id: u64,
    /// The name it entered under, for error messages.
    name: &'static str,
    /// Its element type (see [`HostView::elem`]).
    elem: &'static str,
    /// The construct that made it (`enter_data!`, a data or compute region): its file and
    /// line, for the messages about stale entries.
    entered: &'static RegionInfo,
    /// Made by `acc::map_data`: its device copy is the user's `DeviceSlice`, never freed here,
    /// and only the mapping's end removes the entry.
    mapped: bool,
}

/// Where a host range stands against the present table.
pub(crate) enum Lookup {
    /// No present data touches the range.
    Absent,
    /// The entry starting at this address contains the range.
    Present(usize),
    /// The entry starting at this address overlaps the range without containing it.
    Overlap(usize),
}

/// The present table of one device: host start address -> entry. Entries never overlap.
#[derive(Debug)]
pub(crate) struct Table {
    entries: BTreeMap<usize, Entry>,
    next_id: u64,
    /// The device it belongs to (what [`RESIDENT`] records).
    device: (DeviceType, usize),
}

/// Where a host range is present: its length, its device, its name and the construct that
/// entered it.
#[derive(Clone, Copy, Debug)]
struct Resident {
    bytes: usize,
    device: (DeviceType, usize),
    name: &'static str,
    entered: &'static RegionInfo,
}

/// Every present range of every device, by host start address: what tells a construct that
/// data it does not find on its device is on another one. Ranges of different devices never
/// overlap (a construct that would make them is refused). Locked after a table, never before.
static RESIDENT: Mutex<BTreeMap<usize, Resident>> = Mutex::new(BTreeMap::new());

fn resident() -> std::sync::MutexGuard<'static, BTreeMap<usize, Resident>> {
    RESIDENT.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `nvidia device 1`, `host device 0`.
fn device_name((ty, num): (DeviceType, usize)) -> String {
    format!("{ty} device {num}")
}

/// What a structured reference holds on to, to give it back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Held {
    start: usize,
    id: u64,
}

impl Held {
    /// The host start address of the entry held.
    pub(crate) fn start(self) -> usize {
        self.start
    }
}

impl Table {
    pub(crate) const fn new(ty: DeviceType, num: usize) -> Self {
        Table {
            entries: BTreeMap::new(),
            next_id: 1,
            device: (ty, num),
        }
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every entry; returns their device addresses, to be freed (a mapped entry's
    /// memory is its `DeviceSlice`'s, not the table's).
    pub(crate) fn clear(&mut self) -> Vec<DevPtr> {
        let entries = std::mem::take(&mut self.entries);
        let mut index = resident();
        for start in entries.keys() {
            index.remove(start);
        }
        entries.into_values().filter(|e| !e.mapped).map(|e| e.dev).collect()
    }

    /// Marks the entry at `start` as mapped (`acc::map_data`).
    pub(crate) fn set_mapped(&mut self, start: usize) {
        self.entries.get_mut(&start).expect("just inserted").mapped = true;
    }

    /// Whether the entry at `start` is mapped.
    pub(crate) fn is_mapped(&self, start: usize) -> bool {
        self.entries.get(&start).is_some_and(|e| e.mapped)
    }

    /// Removes the mapped entry at `start` (the end of an `acc::map_data`), without freeing its
    /// device copy; an error naming it when a data or compute region still holds it.
    pub(crate) fn unmap(&mut self, start: usize) -> Result<(), String> {
        let e = &self.entries[&start];
        if e.structured > 0 {
            return Err(format!("`{}` is unmapped while a data or compute region holds it ({} references)", e.name, e.structured));
        }
        self.entries.remove(&start);
        resident().remove(&start);
        Ok(())
    }

    /// The host address whose device copy is at device address `addr` (`acc_hostptr`).
    pub(crate) fn host_of(&self, addr: u64) -> Option<usize> {
        self.entries.iter().find(|(_, e)| (e.dev.0..e.dev.0 + e.bytes as u64).contains(&addr)).map(|(start, e)| start + (addr - e.dev.0) as usize)
    }

    /// Forgets every entry of a device that was lost (its memory went with it); returns the
    /// entries' names and sizes (`` `a` (4.0 KiB) ``), for the report of what was lost.
    pub(crate) fn clear_lost(&mut self) -> Vec<String> {
        let names = self
            .entries
            .values()
            .map(|e| format!("`{}` ({})", e.name, profile::human_bytes(e.bytes as u64)))
            .collect();
        self.clear();
        names
    }

    /// Why `v`, absent from this table, cannot be used here: it is present on another device.
    pub(crate) fn elsewhere(&self, region: &RegionInfo, name: &str, v: HostView) -> Option<String> {
        self.elsewhere_in(&resident(), region, name, v)
    }

    fn elsewhere_in(&self, index: &BTreeMap<usize, Resident>, region: &RegionInfo, name: &str, v: HostView) -> Option<String> {
        if v.bytes == 0 {
            return None;
        }
        let (start, r) = index
            .range(..v.end())
            .next_back()
            .filter(|(&start, r)| start + r.bytes > v.addr && r.device != self.device)?;
        Some(format!(
            "acc: {region}: `{name}` is present on {}, not on {}, this thread's device: data on one device \
             is not visible on another (`{}` at {start:#x}, {}, entered by `{}` at {}:{}); use it from a thread \
             whose device is {} (acc::set_device), or take it off that device first",
            device_name(r.device),
            device_name(self.device),
            r.name,
            profile::human_bytes(r.bytes as u64),
            r.entered.name,
            r.entered.file,
            r.entered.line,
            device_name(r.device),
        ))
    }

    /// [`lookup_fresh`](Self::lookup_fresh), where absent data that is present on another
    /// device is an error.
    pub(crate) fn lookup_here(&self, region: &RegionInfo, name: &str, v: HostView) -> Result<Lookup, String> {
        let found = self.lookup_fresh(region, name, v)?;
        if let Lookup::Absent = found {
            if let Some(msg) = self.elsewhere(region, name, v) {
                return Err(msg);
            }
        }
        Ok(found)
    }

    pub(crate) fn lookup(&self, v: HostView) -> Lookup {
        if let Some((&start, e)) = self.entries.range(..=v.addr).next_back() {
            let end = start + e.bytes;
            if v.end() <= end {
                return Lookup::Present(start);
            }
            if v.bytes > 0 && end > v.addr {
                return Lookup::Overlap(start);
            }
        }
        if v.bytes > 0 {
            if let Some((&start, _)) = self.entries.range(v.addr.saturating_add(1)..v.end()).next()
            {
                return Lookup::Overlap(start);
            }
        }
        Lookup::Absent
    }

    /// Why the entry `lookup` found for `v` cannot be `v`'s device copy: it starts where `v`
    /// starts but holds another element type, or is shorter than `v`. Both mean that the data
    /// it was made for is gone (dropped or reallocated without `exit data`, or moved) and other
    /// data now lives at its address. `None` for `v`'s own entry, and for entries that
    /// contain `v` from another start (a part of a present array).
    pub(crate) fn stale(&self, region: &RegionInfo, name: &str, v: HostView, found: &Lookup) -> Option<String> {
        let (Lookup::Present(start) | Lookup::Overlap(start)) = *found else { return None };
        let e = &self.entries[&start];
        if start != v.addr || v.bytes == 0 || (e.elem == v.elem && v.bytes <= e.bytes) {
            return None;
        }
        Some(format!(
            "acc: {region}: `{name}` ({} of `{}` at {:#x}) is not the data present at that address: \
             `{}` ({} of `{}`) entered the device there by `{}` at {}:{} and never left it; \
             it was probably dropped, reallocated or moved without `exit_data!` \
             (use `acc::Mirror` for data that stays on the device beyond one scope)",
            profile::human_bytes(v.bytes as u64),
            v.elem,
            v.addr,
            e.name,
            profile::human_bytes(e.bytes as u64),
            e.elem,
            e.entered.name,
            e.entered.file,
            e.entered.line
        ))
    }

    /// [`lookup`](Self::lookup), with a stale entry at `v`'s address reported as an error.
    pub(crate) fn lookup_fresh(&self, region: &RegionInfo, name: &str, v: HostView) -> Result<Lookup, String> {
        let found = self.lookup(v);
        match self.stale(region, name, v, &found) {
            Some(msg) => Err(msg),
            None => Ok(found),
        }
    }

    /// The entries still present, one line each, for the report at exit.
    pub(crate) fn leftovers(&self) -> Vec<String> {
        self.entries
            .iter()
            .map(|(&start, e)| {
                format!(
                    "acc: at exit, `{}` ({} of `{}` at {start:#x}) is still on {}: it entered by `{}` at {}:{} \
                     (references: {} structured, {} dynamic) and no `exit_data!` took it off (use `acc::Mirror`, which does)",
                    e.name,
                    profile::human_bytes(e.bytes as u64),
                    e.elem,
                    device_name(self.device),
                    e.entered.name,
                    e.entered.file,
                    e.entered.line,
                    e.structured,
                    e.dynamic
                )
            })
            .collect()
    }

    pub(crate) fn dev_of(&self, start: usize, v: HostView) -> DevPtr {
        DevPtr(self.entries[&start].dev.0 + (v.addr - start) as u64)
    }

    pub(crate) fn overlap_error(&self, region: &RegionInfo, name: &str, v: HostView, start: usize) -> String {
        let e = &self.entries[&start];
        format!(
            "acc: {region}: data `{name}` (bytes {:#x}..{:#x}) partially overlaps data `{}` already on the device (bytes {:#x}..{:#x}); \
             a data clause must name present data whole, or a part inside it, or data that is not present at all",
            v.addr,
            v.end(),
            e.name,
            start,
            start + e.bytes
        )
    }

    /// `nvidia device 1`, `host device 0`: the device this table belongs to.
    pub(crate) fn device_name(&self) -> String {
        device_name(self.device)
    }

    /// Makes an entry for `v` (absent from every device's table) with the given counts; its
    /// device copy comes from `make` (allocated, uploaded), which runs once the range is this
    /// device's. The range is left to nobody when `make` fails.
    pub(crate) fn insert(
        &mut self,
        region: &'static RegionInfo,
        name: &'static str,
        v: HostView,
        (structured, dynamic): (usize, usize),
        make: impl FnOnce() -> Result<DevPtr, String>,
    ) -> Result<Held, String> {
        // The range is this device's from now on (checked and taken in one step: two threads
        // on two devices cannot both take it).
        {
            let mut index = resident();
            if let Some(msg) = self.elsewhere_in(&index, region, name, v) {
                return Err(msg);
            }
            index.insert(v.addr, Resident { bytes: v.bytes, device: self.device, name, entered: region });
        }
        let dev = match make() {
            Ok(dev) => dev,
            Err(e) => {
                resident().remove(&v.addr);
                return Err(e);
            }
        };
        let id = self.next_id;
        self.next_id += 1;
        self.entries.insert(
            v.addr,
            Entry {
                bytes: v.bytes,
                dev,
                structured,
                dynamic,
                id,
                name,
                elem: v.elem,
                entered: region,
                mapped: false,
            },
        );
        Ok(Held { start: v.addr, id })
    }

    /// One more structured reference to the entry at `start` (found by a lookup).
    pub(crate) fn add_structured(&mut self, start: usize) -> Held {
        let e = self.entries.get_mut(&start).expect("looked up");
        e.structured += 1;
        Held { start, id: e.id }
    }

    /// One more dynamic reference to the entry at `start` (found by a lookup).
    pub(crate) fn add_dynamic(&mut self, start: usize) {
        self.entries.get_mut(&start).expect("looked up").dynamic += 1;
    }

    /// Gives back a structured reference; `false` when its entry is gone (a `shutdown` while
    /// the region was running: nothing to give back).
    pub(crate) fn drop_structured(&mut self, held: Held) -> bool {
        match self.entries.get_mut(&held.start) {
            Some(e) if e.id == held.id => {
                e.structured = e.structured.saturating_sub(1);
                true
            }
            _ => false,
        }
    }

    /// Gives back one dynamic reference of the entry at `start` (all of them with
    /// `finalize`); `false` when it held none.
    pub(crate) fn drop_dynamic(&mut self, start: usize, finalize: bool) -> bool {
        let e = self.entries.get_mut(&start).expect("looked up");
        if e.dynamic == 0 {
            return false;
        }
        e.dynamic = if finalize { 0 } else { e.dynamic - 1 };
        true
    }

    /// Removes the entry at `start` when both its counts are zero, returning its device copy
    /// (to be copied back and freed by the caller) and its bytes.
    pub(crate) fn remove_if_unused(&mut self, start: usize) -> Option<(DevPtr, usize)> {
        let e = &self.entries[&start];
        if e.structured > 0 || e.dynamic > 0 || e.mapped {
            return None;
        }
        let e = self.entries.remove(&start).expect("entry looked up above");
        resident().remove(&start);
        Some((e.dev, e.bytes))
    }

    /// The (structured, dynamic) counts of the entry containing `v`, if it is present.
    pub(crate) fn counts(&self, v: HostView) -> Option<(usize, usize)> {
        match self.lookup(v) {
            Lookup::Present(start) => {
                let e = &self.entries[&start];
                Some((e.structured, e.dynamic))
            }
            _ => None,
        }
    }
}
