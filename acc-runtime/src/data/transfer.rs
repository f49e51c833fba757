//! The transfer of the data API: one copy between host memory and a device copy, on the
//! synchronous path or in order with an async queue, timed and reported (`ACC_NOTIFY`,
//! `ACC_PROFILE`, an NVTX range under a profiler, the profiling interface's
//! `enqueue_upload`/`enqueue_download` events) under the construct and the data's name. The
//! present table's copies in and out, `update`, and [`DeviceSlice`](super::DeviceSlice) all
//! copy through it.

use std::time::Instant;

use crate::backend::{Backend, DevPtr};
use crate::prof::{self, DataInfo, Detail, Event};
use crate::profile::{self, Direction};
use crate::region_info::RegionInfo;

/// One copy between host memory and a device copy, as the data API asks for it of
/// [`transfer`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Transfer {
    /// Which way.
    pub dir: Direction,
    /// The device address.
    pub dev: DevPtr,
    /// The host address.
    pub host: usize,
    /// How many bytes.
    pub bytes: usize,
    /// The async queue the copy is in order with (see [`Backend::h2d_on`]); `None`: done when
    /// [`transfer`] returns.
    pub queue: Option<i64>,
    /// An upload ahead of a synchronous launch ([`Backend::h2d_before_launch`]), not done on
    /// return (no effect with a `queue`, nor on a download).
    pub ahead: bool,
}

/// Copies as `copy` says for `region` (the data named `name` in reports). The error says what
/// was copied (`uploading `a` (4.0 MiB) to the device failed: ..`); callers put the construct
/// before it.
///
/// # Safety
/// `copy.host` is readable (to the device) or writable and accessed by no one else (to the
/// host) for `copy.bytes` bytes; `copy.dev` lies in a live allocation of `b` with `copy.bytes`
/// bytes after it.
pub(crate) unsafe fn transfer(b: &dyn Backend, region: &'static RegionInfo, name: &'static str, copy: Transfer) -> Result<(), String> {
    let Transfer { dir, dev, host, bytes, queue, ahead } = copy;
    if dir == Direction::HostToDevice {
        crate::backend::note_device_write();
    }
    // A copy back waits for the synchronous launches not yet waited for first, and makes the
    // copy even where one of them failed (its kernel panicked), so that the data comes back on
    // that exit too; the failure is then this call's error.
    let earlier = if (dir, queue) == (Direction::DeviceToHost, None) { b.wait_launches() } else { Ok(()) };
    let event = if dir == Direction::HostToDevice { Event::EnqueueUploadStart } else { Event::EnqueueDownloadStart };
    let span = prof::Span::start(event, |e| {
        let data = DataInfo { var_name: name, bytes, host_addr: host, device_addr: dev.0 };
        prof::Info::of(e, region, (b.device_type(), b.device_num()), queue).implicit(super::is_compute(region)).with(Detail::Data(data))
    });
    let range = profile::nvtx::Range::transfer(region, name, dir, bytes as u64);
    let t = Instant::now();
    // SAFETY: the caller's contract is the backend's.
    let copied = unsafe {
        match (dir, queue) {
            (Direction::HostToDevice, Some(q)) => b.h2d_on(dev, host as *const u8, bytes, q),
            (Direction::HostToDevice, None) if ahead => b.h2d_before_launch(dev, host as *const u8, bytes),
            (Direction::HostToDevice, None) => b.h2d(dev, host as *const u8, bytes),
            (Direction::DeviceToHost, Some(q)) => b.d2h_on(host as *mut u8, dev, bytes, q),
            (Direction::DeviceToHost, None) => b.d2h(host as *mut u8, dev, bytes),
        }
    };
    drop(range);
    drop(span);
    earlier?;
    copied.map_err(|e| {
        let (verb, way) = match dir {
            Direction::HostToDevice => ("uploading", "to"),
            Direction::DeviceToHost => ("downloading", "from"),
        };
        format!("{verb} `{name}` ({}) {way} the device failed: {e}", profile::human_bytes(bytes as u64))
    })?;
    profile::record_named_transfer(region, profile::Track::of(b, queue), name, dir, bytes as u64, t.elapsed().as_nanos() as u64);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::panic::{catch_unwind, AssertUnwindSafe};

    use super::*;
    use crate::profile::nvtx::testing::{recorded, taken};
    use crate::test_util::{MockBackend, R};

    #[test]
    fn each_transfer_is_one_named_range_popped_even_when_the_copy_panics() {
        let b = MockBackend::new();
        let host = vec![7u8; 1536];
        let mut back = vec![0u8; 1536];
        let dev = b.alloc(host.len()).unwrap();
        let (copied, log) = recorded(|| {
            // SAFETY: both buffers hold 1536 bytes, as does the device allocation.
            unsafe {
                let copy = Transfer { dir: Direction::HostToDevice, dev, host: host.as_ptr() as usize, bytes: host.len(), queue: None, ahead: false };
                transfer(&*b, &R, "a", copy)?;
                transfer(&*b, &R, "a", Transfer { dir: Direction::DeviceToHost, host: back.as_mut_ptr() as usize, bytes: back.len(), ..copy })
            }
        });
        copied.unwrap();
        assert_eq!(back, host);
        assert_eq!(
            log,
            [
                "push acc upload a (tests.rs:42) 1.5 KiB -> -2",
                "pop -> -2",
                "push acc download a (tests.rs:42) 1.5 KiB -> -2",
                "pop -> -2",
            ]
        );
        // The mock panics at a device address with no allocation: the range is popped.
        let unwound = catch_unwind(AssertUnwindSafe(|| {
            recorded(|| {
                // SAFETY: `host` holds 8 bytes; the device address is the mock's to refuse.
                unsafe { transfer(&*b, &R, "b", Transfer { dir: Direction::HostToDevice, dev: DevPtr(0x10), host: host.as_ptr() as usize, bytes: 8, queue: None, ahead: false }) }
            })
        }));
        assert!(unwound.is_err(), "the mock copies to no allocation");
        assert_eq!(taken(), ["push acc upload b (tests.rs:42) 8 B -> -2", "pop -> -2"]);
    }
}
