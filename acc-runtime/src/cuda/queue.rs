//! Streams, events and the async queues: [`Stream`] and [`Event`] own their driver objects
//! (destroyed when dropped); queue `q` (OpenACC's `async(q)`) is a non-blocking stream made
//! at first use, with what was queued on it since its last wait.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use cudarc::driver::sys;

use super::driver::{self, Doing, Driven};
use super::error::CudaError;
use super::panics::PanicSlot;
use super::{lock, CudaBackend};
use crate::region_info::RegionInfo;

/// A non-blocking stream, destroyed when dropped.
pub(crate) struct Stream(sys::CUstream);

// SAFETY: a stream handle is usable from any thread whose current context is its own (the
// backend makes it current in every call).
unsafe impl Send for Stream {}
// SAFETY: as for `Send`; the handle is never mutated.
unsafe impl Sync for Stream {}

impl Stream {
    /// A new non-blocking stream in the current context, for `what`.
    pub(crate) fn new(what: impl FnOnce() -> String) -> Result<Self, CudaError> {
        driver::stream_create().doing(what).map(Stream)
    }

    /// The driver's handle (valid while `self` lives).
    pub(crate) fn raw(&self) -> sys::CUstream {
        self.0
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: made by `new`, destroyed once.
        let _ = unsafe { driver::stream_destroy(self.0) };
    }
}

/// An event, destroyed when dropped.
pub(crate) struct Event(sys::CUevent);

// SAFETY: as for `Stream`.
unsafe impl Send for Event {}
// SAFETY: as for `Stream`.
unsafe impl Sync for Event {}

impl Event {
    /// A new event in the current context; `timing`: one [`elapsed_since`](Self::elapsed_since)
    /// can read.
    pub(crate) fn new(timing: bool) -> Result<Self, CudaError> {
        let flags = if timing { sys::CUevent_flags::CU_EVENT_DEFAULT } else { sys::CUevent_flags::CU_EVENT_DISABLE_TIMING };
        driver::event_create(flags).doing(|| if timing { "creating timing events".into() } else { "creating transfer events".into() }).map(Event)
    }

    /// The driver's handle.
    pub(crate) fn raw(&self) -> sys::CUevent {
        self.0
    }

    /// Records the event on stream `s` (a live stream of the event's context).
    pub(crate) fn record(&self, s: sys::CUstream) -> Driven<()> {
        // SAFETY: a live event; the caller passes a live stream.
        unsafe { driver::event_record(self.0, s) }
    }

    /// Waits until the work recorded before the event has completed (at once if it was
    /// never recorded).
    pub(crate) fn synchronize(&self) -> Driven<()> {
        // SAFETY: a live event.
        unsafe { driver::event_synchronize(self.0) }
    }

    /// Milliseconds from `start` to this event, both timing events recorded and completed.
    pub(crate) fn elapsed_since(&self, start: &Event) -> Driven<f32> {
        // SAFETY: two live events; the driver reports events not recorded or not complete.
        unsafe { driver::event_elapsed(start.0, self.0) }
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: made by `new`, destroyed once.
        let _ = unsafe { driver::event_destroy(self.0) };
    }
}

/// An async queue: its stream, its panic record, and what was queued on it since it was
/// last waited for.
pub(crate) struct Queue {
    stream: Stream,
    /// The panic record of the kernels launched on the queue.
    panic: Arc<PanicSlot>,
    /// Work queued since the last completed wait (counted in [`CudaBackend::busy_queues`]).
    busy: bool,
    /// Bumped by every launch and copy queued here: a wait that began before one leaves the
    /// queue busy.
    seq: u64,
    /// The regions and kernels launched since the last wait, oldest first, each once (at
    /// most [`QUEUE_LABELS`]): a failure found by a wait names them.
    launched: Vec<(Option<&'static RegionInfo>, Arc<str>)>,
    /// Device memory to free once the work queued up to `seq` has completed.
    pub(crate) frees: Vec<(u64, u64)>,
    /// The host threads that queued work here since the last wait.
    threads: Vec<std::thread::ThreadId>,
    /// Whether the stream was handed out ([`CudaBackend::shared_stream`]): work acc does not
    /// see may be queued on it, so waits and tests ask the driver even when `busy` is false.
    shared: bool,
}

/// How many distinct (region, kernel) pairs a queue remembers between waits.
const QUEUE_LABELS: usize = 8;

/// A label of queued work: the region and kernel of a launch.
pub(crate) type Label<'a> = (Option<&'static RegionInfo>, &'a Arc<str>);

impl CudaBackend {
    /// The stream of `queue` (`None`: the synchronous stream), created at first use. The
    /// handle stays valid while the backend lives (queues are never removed).
    pub(crate) fn stream(&self, queue: Option<i64>) -> Result<sys::CUstream, CudaError> {
        Ok(self.stream_and_panics(queue)?.0)
    }

    /// The stream of `queue` as [`stream`](Self::stream) gives it, and its panic record.
    pub(crate) fn stream_and_panics(&self, queue: Option<i64>) -> Result<(sys::CUstream, Arc<PanicSlot>), CudaError> {
        let Some(q) = queue else { return Ok((self.sync_stream.raw(), self.sync_panic.clone())) };
        let mut queues = lock(&self.queues);
        let queue = match queues.entry(q) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let stream = Stream::new(|| format!("creating async queue {q}"))?;
                let panic = Arc::new(PanicSlot::new(stream.raw(), &format!("the panic record of async queue {q}"))?);
                v.insert(Queue { stream, panic, busy: false, seq: 0, launched: Vec::new(), frees: Vec::new(), threads: Vec::new(), shared: false })
            }
        };
        let found = (queue.stream.raw(), queue.panic.clone());
        drop(queues);
        // Work for the queue comes after the copies a synchronous launch did not wait for.
        self.after_ahead_copies(found.0)?;
        Ok(found)
    }

    /// Notes work queued on `q` (a launch of `label`, or a copy): the queue is busy until a
    /// wait that began after it completes.
    pub(crate) fn queued(&self, q: i64, label: Option<Label<'_>>) {
        let mut queues = lock(&self.queues);
        let Some(queue) = queues.get_mut(&q) else { return };
        queue.seq += 1;
        let me = std::thread::current().id();
        if !queue.threads.contains(&me) {
            queue.threads.push(me);
        }
        if !queue.busy {
            queue.busy = true;
            self.busy_queues.fetch_add(1, Ordering::AcqRel);
        }
        if let Some((region, kernel)) = label {
            let same = |(r, k): &(Option<&'static RegionInfo>, Arc<str>)| {
                r.map(|r| r as *const RegionInfo) == region.map(|r| r as *const RegionInfo) && Arc::ptr_eq(k, kernel)
            };
            if !queue.launched.iter().any(same) && queue.launched.len() < QUEUE_LABELS {
                queue.launched.push((region, kernel.clone()));
            }
        }
    }

    /// Copies device memory to the host in order with the work queued on async queue `q`
    /// (after the kernels queued before), and returns once the copy landed: the host memory
    /// is the caller's again (the work queued before it has completed too, and a failure of
    /// it is reported here).
    ///
    /// # Safety
    /// As for [`d2h_bytes`](Self::d2h_bytes).
    pub unsafe fn d2h_on_queue(&self, dst: *mut u8, src: u64, bytes: usize, q: i64) -> Result<(), CudaError> {
        self.enter()?;
        let stream = self.stream(Some(q))?;
        let doing = || format!("copying {bytes} bytes from {} on async queue {q}", self.label);
        // SAFETY: the caller's contract; the wait below ends the use of `dst`.
        unsafe { driver::memcpy_dtoh_async(dst, src, bytes, stream) }.doing(doing).map_err(|e| self.fail(e))?;
        self.queued(q, None);
        self.wait_queue_labelled(q).map_err(|(e, _)| e)
    }

    /// Copies host memory to the device in order with the work queued on async queue `q`
    /// (after the kernels queued before), and returns once the copy landed: the host memory
    /// is the caller's again (the work queued before it has completed too, and a failure of
    /// it is reported here). Other queues are not waited for.
    ///
    /// # Safety
    /// As for [`h2d_bytes`](Self::h2d_bytes), and only work queued on `q` uses `dst` meanwhile.
    pub unsafe fn h2d_on_queue(&self, dst: u64, src: *const u8, bytes: usize, q: i64) -> Result<(), CudaError> {
        self.enter()?;
        crate::backend::note_device_write();
        let stream = self.stream(Some(q))?;
        let doing = || format!("copying {bytes} bytes to {} on async queue {q}", self.label);
        // SAFETY: the caller's contract; the wait below ends the use of `src`.
        unsafe { driver::memcpy_htod_async(dst, src, bytes, stream) }.doing(doing).map_err(|e| self.fail(e))?;
        self.queued(q, None);
        self.wait_queue_labelled(q).map_err(|(e, _)| e)
    }

    /// Frees `p` once the work queued on async queue `q` so far has completed: at once when
    /// the queue is idle, else at the wait that finds it done.
    ///
    /// # Safety
    /// `p` came from [`alloc_bytes`](Self::alloc_bytes) of this backend, is not freed yet,
    /// and only work queued on `q` so far may use it.
    pub unsafe fn free_after(&self, p: u64, q: i64) -> Result<(), CudaError> {
        self.enter()?;
        {
            let mut queues = lock(&self.queues);
            if let Some(queue) = queues.get_mut(&q).filter(|queue| queue.busy) {
                queue.frees.push((queue.seq, p));
                return Ok(());
            }
        }
        // SAFETY: the caller's contract; nothing is pending on `q`.
        unsafe { self.free_now(p) }
    }

    /// Waits for async queue `q` (OpenACC `wait(q)`); reports a kernel panic or failure of
    /// the work queued on it.
    pub fn wait_queue(&self, q: i64) -> Result<(), CudaError> {
        self.wait_queue_labelled(q).map_err(|(e, _)| e)
    }

    /// [`wait_queue`](Self::wait_queue), whose error also says which regions' kernels the
    /// queue ran since its last wait.
    pub(crate) fn wait_queue_labelled(&self, q: i64) -> Result<(), (CudaError, String)> {
        self.enter().map_err(|e| (e, String::new()))?;
        self.sync_queue(q)
    }

    /// [`wait_queue_labelled`](Self::wait_queue_labelled) after the context was made current.
    fn sync_queue(&self, q: i64) -> Result<(), (CudaError, String)> {
        let (stream, panic, seq, kernel, labels) = match lock(&self.queues).get(&q) {
            Some(s) if s.busy || s.shared => (
                s.stream.raw(),
                s.panic.clone(),
                s.seq,
                // The kernel, where the queue ran one since its last wait (else the record's
                // location says where).
                match &s.launched[..] {
                    [(_, k)] => Some(k.to_string()),
                    _ => None,
                },
                s.launched.iter().filter_map(|(r, _)| *r).map(|r| r.to_string()).collect::<Vec<_>>(),
            ),
            _ => return Ok(()),
        };
        let labels = match labels.len() {
            0 => String::new(),
            1 => labels[0].clone(),
            _ => format!("one of {}", labels.join(", ")),
        };
        // SAFETY: a stream of this backend (queues are never removed).
        if let Err(f) = unsafe { driver::stream_synchronize(stream) } {
            return Err((self.sync_error(f, &panic, kernel, format!("waiting for async queue {q}")), labels));
        }
        // The work queued up to `seq` has completed: its frees can go, and the queue is idle
        // unless more was queued meanwhile.
        let frees: Vec<u64> = {
            let mut queues = lock(&self.queues);
            let queue = queues.get_mut(&q).expect("queues are never removed");
            let (done, later): (Vec<_>, Vec<_>) = queue.frees.drain(..).partition(|(s, _)| *s <= seq);
            queue.frees = later;
            if queue.seq == seq && queue.busy {
                queue.busy = false;
                queue.launched.clear();
                queue.threads.clear();
                self.busy_queues.fetch_sub(1, Ordering::AcqRel);
            }
            done.into_iter().map(|(_, p)| p).collect()
        };
        for p in frees {
            // SAFETY: given to `free_after`, whose work has completed.
            unsafe { self.free_now(p) }.map_err(|e| (e, String::new()))?;
        }
        self.take_panic(&panic, stream, kernel.as_deref()).map_err(|e| (e, labels))
    }

    /// Whether the work queued on async queue `q` has completed (OpenACC's `acc_async_test`),
    /// without waiting: `cuStreamQuery` of its stream, where the queue has work since its last
    /// wait (or its stream was handed out). Where the work has completed, the queue is done as
    /// after [`wait_queue`](Self::wait_queue): its frees go, and a kernel panic or failure of
    /// that work is the error here. The synchronous launches not yet waited for are not waited
    /// for (`ASYNC_SYNC`, -2, tests those: whether the synchronous stream is idle).
    pub fn test_queue(&self, q: i64) -> Result<bool, CudaError> {
        self.make_current()?;
        if q == crate::region_info::ASYNC_SYNC {
            // SAFETY: the backend's own stream.
            let idle = unsafe { driver::stream_query(self.sync_stream.raw()) }.doing(|| format!("testing the synchronous stream of {}", self.label)).map_err(|e| self.fail(e))?;
            if idle {
                self.settle_sync()?;
            }
            return Ok(idle);
        }
        let (stream, panic) = match lock(&self.queues).get(&q) {
            Some(s) if s.busy || s.shared => (s.stream.raw(), s.panic.clone()),
            _ => return Ok(true),
        };
        // SAFETY: a stream of this backend (queues are never removed).
        match unsafe { driver::stream_query(stream) } {
            Ok(false) => Ok(false),
            Ok(true) => self.sync_queue(q).map(|()| true).map_err(|(e, _)| e),
            Err(f) => Err(self.sync_error(f, &panic, None, format!("testing async queue {q}"))),
        }
    }

    /// Whether the work of every async queue has completed (OpenACC's `acc_async_test_all`):
    /// [`test_queue`](Self::test_queue) of each, in order, up to the first that is not done.
    pub fn test_all_queues(&self) -> Result<bool, CudaError> {
        let mut qs: Vec<i64> = lock(&self.queues).keys().copied().collect();
        qs.sort_unstable();
        for q in qs {
            if !self.test_queue(q)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The stream of async queue `q`, made at first use, for work of the caller's own (a CUDA
    /// library's, a kernel of its own) to go in order with acc's on that queue (OpenACC's
    /// `acc_get_cuda_stream`). From then on the waits and tests of the queue synchronise and
    /// query its stream whether or not acc queued work there. The handle stays valid while
    /// the backend lives; the caller must not destroy it.
    pub fn shared_stream(&self, q: i64) -> Result<sys::CUstream, CudaError> {
        self.make_current()?;
        let stream = self.stream(Some(q))?;
        if let Some(queue) = lock(&self.queues).get_mut(&q) {
            queue.shared = true;
        }
        Ok(stream)
    }

    /// Makes async queue `q` wait, on the device, for the work queued so far on queue `on`
    /// (`None`: on every other queue), without the host waiting (OpenACC's `acc_wait_async`,
    /// and `wait(on)` on an `async(q)` construct). A queue with nothing pending since its
    /// last wait is not waited for.
    pub fn queue_wait_for(&self, q: i64, on: Option<i64>) -> Result<(), CudaError> {
        self.enter()?;
        let target = self.stream(Some(q))?;
        let sources: Vec<sys::CUstream> = lock(&self.queues)
            .iter()
            .filter(|(k, queue)| **k != q && on.is_none_or(|o| o == **k) && (queue.busy || queue.shared))
            .map(|(_, queue)| queue.stream.raw())
            .collect();
        for source in sources {
            // Destroyed when dropped: the driver keeps what the queued wait needs.
            let done = Event::new(false)?;
            done.record(source).doing(|| format!("marking the work of an async queue for queue {q} on {}", self.label)).map_err(|e| self.fail(e))?;
            // SAFETY: two live handles of this context (made current by `enter`).
            unsafe { driver::stream_wait_event(target, done.0) }.doing(|| format!("making async queue {q} wait on {}", self.label)).map_err(|e| self.fail(e))?;
        }
        Ok(())
    }

    /// Waits for every async queue (OpenACC `wait`).
    pub fn wait_all_queues(&self) -> Result<(), CudaError> {
        self.wait_all_labelled().map_err(|(e, _)| e)
    }

    pub(crate) fn wait_all_labelled(&self) -> Result<(), (CudaError, String)> {
        let mut qs: Vec<i64> = lock(&self.queues).keys().copied().collect();
        qs.sort_unstable();
        for q in qs {
            self.wait_queue_labelled(q)?;
        }
        Ok(())
    }

    /// Waits until the work of the busy async queues, if any, has completed: what
    /// synchronous transfers to the host and frees do first, so that they never race with
    /// queued kernels. A queue that only this thread queued work on since its last wait is
    /// waited for (its kernels' panic reported here, as at the end of a data region around
    /// `async` regions); on a queue that other threads used too, a kernel panic stays in the
    /// queue's record for a wait of the queue to report, and the queue stays busy until then
    /// (the panic may be another thread's: it is not this transfer's to report).
    pub(crate) fn settle(&self) -> Result<(), CudaError> {
        if self.busy_queues.load(Ordering::Acquire) == 0 {
            return Ok(());
        }
        let me = std::thread::current().id();
        let busy: Vec<(i64, sys::CUstream, Arc<PanicSlot>, bool)> = lock(&self.queues)
            .iter()
            .filter(|(_, queue)| queue.busy)
            .map(|(q, queue)| (*q, queue.stream.raw(), queue.panic.clone(), queue.threads == [me]))
            .collect();
        for (q, stream, panic, mine) in busy {
            if mine {
                self.wait_queue_labelled(q).map_err(|(e, _)| e)?;
                continue;
            }
            // SAFETY: a stream of this backend (queues are never removed).
            if let Err(f) = unsafe { driver::stream_synchronize(stream) } {
                return Err(self.sync_error(f, &panic, None, format!("waiting for async queue {q}")));
            }
        }
        Ok(())
    }
}

/// A wait's failure, prefixed with the regions whose kernels the queue ran.
pub(crate) fn labelled((e, regions): (CudaError, String)) -> String {
    if regions.is_empty() {
        e.to_string()
    } else {
        format!("{regions}: {e}")
    }
}

/// The queues of a backend, by number.
pub(crate) type Queues = HashMap<i64, Queue>;
