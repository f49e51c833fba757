//! The reduction partials: a buffer of one partial result per block and reduction variable
//! (and the values a one-thread kernel computes for the host), read where the kernel wrote
//! them and folded on the host.

use std::cell::Cell;
use std::sync::Arc;

use super::geometry::Geometry;
use super::kernels::max_default_grid;
use super::launch::LAST_QUEUE;
use super::{cuda_of, fail};
use crate::cuda::{CudaBackend, MappedBuf};
use crate::region_info::RegionInfo;

/// The device buffer that receives one partial result per block and reduction variable:
/// pinned host memory mapped for the device (taken from the backend's pool, given back when
/// dropped), so the host reads the kernel's partials where the kernel wrote them, with no
/// copy.
pub struct Partials {
    region: &'static RegionInfo,
    buf: Option<(Arc<CudaBackend>, MappedBuf)>,
    grid: usize,
    /// Whether the launch that writes the buffer is known to have completed.
    settled: Cell<bool>,
}

/// Bytes of each partial entry (enough for any scalar).
const ENTRY: usize = 16;

impl Partials {
    /// Room for `vars` reduction variables of the launch `geom` (none when `vars == 0`).
    pub fn new(region: &'static RegionInfo, vars: usize, geom: &Geometry) -> Self {
        let cuda = (vars > 0).then(|| cuda_of(region));
        let grid = if geom.shape.serial {
            1
        } else if let Some(dims) = &geom.shape.dims {
            // A multi-dimensional grid (`launch`): at most `waves` waves of the blocks acc
            // chooses (a wave at most this device's default grid), or the blocks `gang(n)` fixes.
            dims.most_blocks(cuda.as_deref().map_or(0, max_default_grid))
        } else if geom.shape.num_gangs > 0 {
            geom.shape.num_gangs
        } else {
            cuda.as_deref().map_or(0, max_default_grid)
        };
        let buf = cuda.map(|b| {
            let buf = b
                .take_mapped(vars * grid * ENTRY)
                .unwrap_or_else(|e| panic!("acc: {region}: cannot allocate reduction partials: {e}"));
            (b, buf)
        });
        Partials { region, buf, grid, settled: Cell::new(false) }
    }

    /// The buffer's device address.
    pub fn device_ptr(&self) -> u64 {
        self.buf.as_ref().map_or(0, |(_, buf)| buf.dev)
    }

    /// Waits for the launch that writes the partials (this thread's last [`launch`](super::launch())) when it
    /// went to an async queue, or returned before its kernel ended (`cuda/deferred.rs`).
    fn settle(&self) {
        if self.settled.replace(true) {
            return;
        }
        let Some((b, _)) = &self.buf else { return };
        let waited = match LAST_QUEUE.get() {
            Some(q) => b.wait_queue(q).map_err(|e| format!("async queue {q} failed: {e}")),
            None => b.settle_sync().map_err(|e| e.to_string()),
        };
        if let Err(e) = waited {
            fail(format!("acc: {}: {e}", self.region));
        }
    }

    /// Reads the partials of variable `slot` written by a launch of `launched` blocks (what
    /// [`launch`](super::launch()) returned, the last launch of this thread) and folds them with `combine`;
    /// `like` gives their type. A launch on an async queue is waited for at the first fold.
    pub fn fold<T: Copy>(&self, slot: usize, launched: u32, like: &T, combine: impl Fn(T, T) -> T) -> T {
        let _ = like;
        const { assert!(std::mem::size_of::<T>() <= ENTRY) };
        let (_, buf) = self.buf.as_ref().unwrap_or_else(|| panic!("acc: {}: no reduction partials to fold", self.region));
        self.settle();
        let launched = (launched as usize).clamp(1, self.grid);
        // The kernel lays the partials out by its own grid: `(slot * gridDim.x + block)`.
        let base = slot * launched * ENTRY;
        assert!(base + launched * ENTRY <= buf.bytes, "acc: {}: partial slot {slot} out of range", self.region);
        let entry = |i: usize| {
            // SAFETY: in bounds (checked above); each 16-byte aligned entry holds a `T`
            // (at most 16 bytes, a scalar) written by the kernel's `store_partial`, and the
            // kernel has completed (`settle`). Volatile: the device wrote it.
            unsafe { buf.host.add(base + i * ENTRY).cast::<T>().read_volatile() }
        };
        (1..launched).fold(entry(0), |acc, i| combine(acc, entry(i)))
    }
}

impl Partials {
    /// [`fold`](Self::fold) of a reduction variable's value, a scalar or an array: element `i`
    /// of each block's value from slot `slot + i` (`acc_device::store_partial_var`).
    pub fn fold_var<V: acc_device::RedVar>(&self, slot: usize, launched: u32, like: &V, combine: impl Fn(V, V) -> V) -> V {
        let value = |b: usize| {
            let mut v = *like;
            for i in 0..V::ELEMS {
                v.set_elem(i, self.entry::<V::Elem>(slot + i, launched, b));
            }
            v
        };
        let launched_blocks = (launched as usize).clamp(1, self.grid);
        (1..launched_blocks).fold(value(0), |acc, b| combine(acc, value(b)))
    }

    /// Entry `block` of slot `slot` of a launch of `launched` blocks (a partial of one scalar).
    fn entry<T: Copy>(&self, slot: usize, launched: u32, block: usize) -> T {
        const { assert!(std::mem::size_of::<T>() <= ENTRY) };
        let (_, buf) = self.buf.as_ref().unwrap_or_else(|| panic!("acc: {}: no reduction partials to fold", self.region));
        self.settle();
        let launched = (launched as usize).clamp(1, self.grid);
        let at = (slot * launched + block) * ENTRY;
        assert!(block < launched && at + ENTRY <= buf.bytes, "acc: {}: partial slot {slot} out of range", self.region);
        // SAFETY: in bounds (checked above); the 16-byte aligned entry holds a `T` (a scalar
        // of at most 16 bytes) written by the kernel's `store_partial`, and the kernel has
        // completed (`settle`). Volatile: the device wrote it.
        unsafe { buf.host.add(at).cast::<T>().read_volatile() }
    }

    /// Reads a value that a one-thread kernel computed for the host (`acc_device::store_value`)
    /// from 16-byte slot `*at` on, and advances `*at` past it; `_witness` (never called) gives
    /// its type. A launch on an async queue is waited for first.
    pub fn value<T: Copy, F: FnOnce() -> T>(&self, at: &mut usize, _witness: &F) -> T {
        let size = std::mem::size_of::<T>();
        let start = *at;
        *at += size.div_ceil(ENTRY);
        if size == 0 {
            // SAFETY: a zero-sized `T: Copy` is read from any aligned, non-null address.
            return unsafe { std::ptr::NonNull::<T>::dangling().as_ptr().read() };
        }
        let (_, buf) = self.buf.as_ref().unwrap_or_else(|| panic!("acc: {}: no buffer for the kernel's values", self.region));
        self.settle();
        assert!(self.grid == 1 && *at * ENTRY <= buf.bytes, "acc: {}: value slot {start} out of range", self.region);
        // SAFETY: in bounds (checked above); the one-thread kernel wrote a `T` there with
        // `store_value` (unaligned) and has completed (`settle`, or a synchronous launch).
        unsafe { buf.host.add(start * ENTRY).cast::<T>().read_unaligned() }
    }
}

/// The 16-byte partial slots a value of the witness's type takes (see [`Partials::value`]).
pub fn value_slots<T, F: FnOnce() -> T>(_witness: &F) -> usize {
    std::mem::size_of::<T>().div_ceil(ENTRY)
}

impl Drop for Partials {
    fn drop(&mut self) {
        if let Some((cuda, buf)) = self.buf.take() {
            if !self.settled.get() {
                if let Some(q) = LAST_QUEUE.get() {
                    // A launch that nobody folded (a panic came between): it must not write
                    // the buffer once another launch holds it. Its failure is reported by
                    // the next wait, or was already.
                    if cuda.wait_queue(q).is_err() {
                        return;
                    }
                }
            }
            // SAFETY: the launch that used the buffer has completed (waited for above, or
            // by `fold`, or it was synchronous).
            unsafe { cuda.give_back_mapped(buf) };
        }
    }
}
