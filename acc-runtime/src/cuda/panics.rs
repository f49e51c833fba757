//! Kernel panic records, one per stream ([`PanicSlot`]): the synchronous stream's, and each
//! async queue's. A launch passes its stream's slot to the kernel (its first parameter, see
//! `acc_device::panic`), so that kernels running at once on two queues, or launched by two
//! host threads, never share a record: each synchronisation reads the panic of its own work.

use cudarc::driver::sys;

use acc_device::panic::{PanicRecord, PanicSlot as DeviceSlot, LAUNCH_TAG_BITS, PANIC_FLAG};

use super::driver::{self, Doing, Driven};
use super::error::CudaError;
use super::alloc::{DeviceMem, PinnedHost};

/// A stream's panic record (host memory mapped into the device) and its slot (device memory:
/// the claim word and the record's device address), freed when dropped.
pub(crate) struct PanicSlot {
    /// The record's host address.
    host: *mut PanicRecord,
    /// The `acc_device::panic::PanicSlot` the kernels get, at `at`: the first address in
    /// `slot` whose low [`LAUNCH_TAG_BITS`] bits are zero, so that a launch's tag fits there.
    at: u64,
    _slot: DeviceMem,
    /// The record's memory.
    _record: PinnedHost,
}

// SAFETY: the record is read by the host only after the work that writes it completed (see
// `record`); the slot is device memory behind a plain address.
unsafe impl Send for PanicSlot {}
// SAFETY: as for `Send`.
unsafe impl Sync for PanicSlot {}

impl PanicSlot {
    /// A cleared slot for `stream` (of the current context), set up on that stream.
    pub(crate) fn new(stream: sys::CUstream, what: &str) -> Result<Self, CudaError> {
        let (record, dev) = PinnedHost::mapped(std::mem::size_of::<PanicRecord>(), what)?;
        let host = record.as_ptr().cast::<PanicRecord>();
        // SAFETY: pinned memory of the record's size, aligned for any type.
        unsafe { host.write_volatile(PanicRecord::ZERO) };
        let align = 1u64 << LAUNCH_TAG_BITS;
        let slot = DeviceMem::new(align as usize + std::mem::size_of::<DeviceSlot>(), what)?;
        let at = slot.ptr().next_multiple_of(align);
        let init = DeviceSlot { claim: 0, pad: 0, record: dev };
        // SAFETY: 16 bytes at `at`, within the allocation; `init` outlives the copy
        // (synchronised here).
        unsafe {
            driver::memcpy_htod_async(at, (&raw const init).cast(), std::mem::size_of::<DeviceSlot>(), stream)
                .and_then(|()| driver::stream_synchronize(stream))
        }
        .doing(|| format!("setting up {what}"))?;
        Ok(PanicSlot { host, at, _slot: slot, _record: record })
    }

    /// The slot's device address: the kernel parameter of the launches on its stream.
    pub(crate) fn device_ptr(&self) -> u64 {
        self.at
    }

    /// The kernel parameter of a launch tagged `tag` (below `1 << LAUNCH_TAG_BITS`): the
    /// slot's address with the tag in its low bits, which a panicking kernel writes into the
    /// record (`PanicRecord::launch`).
    pub(crate) fn tagged(&self, tag: u32) -> u64 {
        debug_assert!(tag < 1 << LAUNCH_TAG_BITS);
        self.at | u64::from(tag)
    }

    /// The kernel panic recorded on the slot's stream, if any.
    pub(crate) fn record(&self) -> Option<PanicRecord> {
        // SAFETY: the record is host memory owned by the slot; the device writes it only
        // while a kernel of the slot's stream runs, and its `flag` last, so a set flag means a
        // complete record that nothing writes any more (the next panic waits for the claim
        // word, zeroed after this read). Volatile: the device wrote it behind the compiler's
        // back. The flag alone first: this runs after every synchronisation, and the record
        // is 1 KiB.
        let flag = unsafe { (&raw const (*self.host).flag).read_volatile() };
        if flag != PANIC_FLAG {
            return None;
        }
        // SAFETY: as above; the flag says the record is complete.
        Some(unsafe { self.host.read_volatile() })
    }

    /// Takes the recorded panic, if any, after a synchronisation of `stream` (the slot's)
    /// that succeeded: clears the record and its claim word, so that the next panic on the
    /// stream is recorded in turn.
    pub(crate) fn take(&self, stream: sys::CUstream) -> Driven<Option<PanicRecord>> {
        let Some(record) = self.record() else { return Ok(None) };
        // SAFETY: the slot's record (see `record`).
        unsafe { self.host.write_volatile(PanicRecord::ZERO) };
        // SAFETY: the claim word, the slot's first 4 bytes; synchronised before the return.
        unsafe { driver::memset_d8_async(self.at, 0, 4, stream).and_then(|()| driver::stream_synchronize(stream))? };
        Ok(Some(record))
    }
}
