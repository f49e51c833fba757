//! The host backend's loop drivers: what generated code runs a parallel loop with when the
//! region executes on the CPU.
//!
//! Every loop arrives normalised (see [`crate::idx`]): iterations `k` in `0..trip`. The trip
//! range is cut into a fixed number of contiguous chunks (8 per rayon thread, never shorter
//! than a minimum when the trip count is large), each run as a plain sequential loop, the
//! chunks shared out by rayon's work stealing. For reductions each chunk folds its own
//! partial value and the partials are combined in chunk order, so a floating-point
//! reduction gives the same result on every run with the same number of threads.
//!
//! The drivers are thin generic wrappers over one non-generic `run_chunks`, compiled once in this
//! crate, so that a region does not instantiate rayon. Loop normalisation and the reduction
//! operators are acc-device's (`idx`, `reduce`, re-exported).

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

use rayon::prelude::*;

use crate::atomic::{AtomicRef, AtomicValue};

/// Chunks per rayon thread: enough slack for work stealing to even out uneven iterations.
const CHUNKS_PER_THREAD: usize = 8;
/// Chunks shorter than this are not worth a task of their own, unless the loop is short
/// (a short loop is parallelised anyway: its iterations may be long).
const MIN_CHUNK: usize = 2048;

/// How `0..trip` is cut: `(chunks, chunk length)`.
fn plan(trip: usize, threads: usize) -> (usize, usize) {
    let target = threads.max(1) * CHUNKS_PER_THREAD;
    let mut len = trip.div_ceil(target).max(1);
    if trip >= MIN_CHUNK * threads.max(1) {
        len = len.max(MIN_CHUNK);
    }
    (trip.div_ceil(len), len)
}

fn chunk_range(c: usize, len: usize, trip: usize) -> std::ops::Range<usize> {
    let lo = c * len;
    lo..(lo + len).min(trip)
}

/// Runs `f(k)` for every `k` in `0..trip`, in parallel on rayon's pool.
///
/// Performance: let `f` be a `move` closure that holds the slices it reads by value
/// (`&[T]`, `SharedMut`), not references to them. Through a reference to a slice variable
/// the optimiser cannot keep the slice's address and length in registers across the
/// iteration's stores and reloads them every iteration: a 2^24 `f32` vector add on 2 cores
/// ran at 30 GB/s that way and at 57 GB/s with a `move` closure (66 GB/s for rayon's own
/// `par_chunks`; 37 GB/s for a sequential loop), see `examples/host_drivers.rs`.
///
/// ```
/// use acc_runtime::private::{par_for, SharedMut};
/// let a = vec![1.0f32; 10_000];
/// let mut c = vec![0.0f32; 10_000];
/// let cs = SharedMut::new(&mut c);
/// let a = &a[..];
/// par_for(a.len(), move |i| {
///     let mut c = cs;
///     c[i] = 2.0 * a[i];
/// });
/// assert!(c.iter().all(|&x| x == 2.0));
/// ```
#[inline]
pub fn par_for<F: Fn(usize) + Sync + Send>(trip: usize, f: F) {
    par_for_chunks(trip, move |r: std::ops::Range<usize>| r.for_each(&f));
}

/// Runs `f` on consecutive chunks that together cover `0..trip`, in parallel on rayon's pool.
///
/// Generated loops use this form: the chunk's prologue copies the slices the body uses into
/// locals, so the optimiser keeps their addresses and lengths in registers for the whole
/// chunk (see [`par_for`] for the figures).
///
/// Only this thin wrapper is instantiated for each loop; the rayon machinery behind it
/// ([`run_chunks`]) is compiled once, in this crate (see [`run_chunks`] for why).
#[inline]
pub fn par_for_chunks<F: Fn(std::ops::Range<usize>) + Sync + Send>(trip: usize, f: F) {
    run_chunks(trip, &|_, r| f(r));
}

/// [`par_reduce`] over chunks: `body(acc, range)` folds one chunk; the chunk results are
/// combined in chunk order. `identity()` for `trip == 0`.
pub fn par_reduce_chunks<A, I, F, C>(trip: usize, identity: I, body: F, combine: C) -> A
where
    A: Send,
    I: Fn() -> A + Sync + Send,
    F: Fn(A, std::ops::Range<usize>) -> A + Sync + Send,
    C: Fn(A, A) -> A + Sync + Send,
{
    let chunks = chunk_count(trip);
    if chunks <= 1 {
        return body(identity(), 0..trip);
    }
    // Each chunk writes its own slot (the index `run_chunks` gives it); the slots are then
    // combined in chunk order. (A panicking chunk leaves its slot empty; the panic reaches
    // the caller from `run_chunks` before the slots are read.)
    let mut partials: Vec<Option<A>> = Vec::with_capacity(chunks);
    partials.resize_with(chunks, || None);
    let slots = SharedMut::new(&mut partials);
    run_chunks(trip, &|c, r| {
        let mut slots = slots;
        slots[c] = Some(body(identity(), r));
    });
    let mut acc: Option<A> = None;
    for p in partials {
        let p = p.expect("every chunk ran");
        acc = Some(match acc {
            None => p,
            Some(a) => combine(a, p),
        });
    }
    acc.unwrap_or_else(identity)
}

/// Reduces over `0..trip` in parallel: each chunk folds `body` from `identity()`, then the
/// chunk results are combined with `combine` in chunk order. `identity()` for `trip == 0`.
///
/// The caller combines the result with the variable's value before the loop (once).
///
/// ```
/// use acc_runtime::private::par_reduce;
/// let a: Vec<f64> = (0..1000).map(f64::from).collect();
/// let s = par_reduce(a.len(), || 0.0, |s, i| s + a[i], |x, y| x + y);
/// assert_eq!(s, 499_500.0);
/// ```
pub fn par_reduce<A, I, F, C>(trip: usize, identity: I, body: F, combine: C) -> A
where
    A: Send,
    I: Fn() -> A + Sync + Send,
    F: Fn(A, usize) -> A + Sync + Send,
    C: Fn(A, A) -> A + Sync + Send,
{
    par_reduce_chunks(trip, identity, move |a, r: std::ops::Range<usize>| r.fold(a, &body), combine)
}

/// How many chunks [`run_chunks`] cuts `0..trip` into on the current pool (1: the caller runs
/// the loop itself).
pub fn chunk_count(trip: usize) -> usize {
    let threads = rayon::current_num_threads();
    if trip <= 1 || threads <= 1 {
        return 1;
    }
    plan(trip, threads).0
}

/// Runs `f(c, range)` for each chunk `c` of `0..trip` (the chunks of [`chunk_count`], in
/// order, covering `0..trip`), in parallel on rayon's pool; with one chunk, `f(0, 0..trip)`
/// on the calling thread.
///
/// Not generic, on purpose: every parallel loop of every region reaches rayon through this one
/// function, so rayon's generic machinery (`join_context`, jobs, producers: about 3/4 of the
/// LLVM IR of a crate of small regions when each loop instantiated it) is compiled once, here,
/// and a region costs its loop bodies and a few lines. The call through `dyn` happens once per
/// chunk, not per iteration: the body of a chunk is a plain loop compiled in the user's crate.
pub fn run_chunks(trip: usize, f: &(dyn Fn(usize, std::ops::Range<usize>) + Sync)) {
    let threads = rayon::current_num_threads();
    if trip <= 1 || threads <= 1 {
        f(0, 0..trip);
        return;
    }
    let (chunks, len) = plan(trip, threads);
    (0..chunks).into_par_iter().for_each(|c| f(c, chunk_range(c, len, trip)));
}

/// A mutable slice that every iteration of a parallel loop may write through.
///
/// Generated code turns each array a parallel loop writes into a `SharedMut` before the loop
/// and copies it into each iteration (`let mut c = c;` then `c[i] = ...`).
///
/// # Soundness
///
/// This type hands out `&mut T` to elements from shared copies, which Rust's borrow rules
/// cannot check. It rests on the promise an OpenACC `loop` directive makes (`independent`,
/// or a dependence analysis that proved it): *different iterations do not access the same
/// element while one of them writes it*. Elements written by more than one iteration must go
/// through [`atomic`](Self::atomic) (OpenACC's `atomic` directive). Only generated code
/// makes these; it keeps the original `&mut [T]` borrowed for `'a`, so nothing else reaches
/// the slice meanwhile. Indexing is bounds-checked like a slice's.
pub struct SharedMut<'a, T> {
    ptr: *mut T,
    len: usize,
    _m: PhantomData<&'a mut [T]>,
}

impl<T> Clone for SharedMut<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SharedMut<'_, T> {}

// SAFETY: a `SharedMut` is a `&mut [T]` shared out to the iterations of one parallel loop;
// moving it to another thread moves access to `T`s, hence `T: Send`. Exclusive access per
// element is the loop directive's promise (see the type's docs).
unsafe impl<T: Send> Send for SharedMut<'_, T> {}
// SAFETY: as for `Send`: iterations on different threads touch different elements, so
// sharing the handle shares no element between threads except through `atomic`.
unsafe impl<T: Send> Sync for SharedMut<'_, T> {}

impl<'a, T> SharedMut<'a, T> {
    /// Shares `s` with the iterations of a parallel loop.
    pub fn new(s: &'a mut [T]) -> Self {
        SharedMut {
            ptr: s.as_mut_ptr(),
            len: s.len(),
            _m: PhantomData,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    #[track_caller]
    fn check(&self, i: usize) {
        if i >= self.len {
            out_of_bounds(self.len, i);
        }
    }

    /// Atomic access to element `i` (for elements several iterations update).
    #[track_caller]
    pub fn atomic(&self, i: usize) -> AtomicRef<'a, T>
    where
        T: AtomicValue,
    {
        self.check(i);
        // SAFETY: `i < len`, so the pointer is in bounds of the borrowed slice and aligned
        // for `T`; the slice stays borrowed for `'a`.
        unsafe { AtomicRef::from_ptr(self.ptr.add(i)) }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn out_of_bounds(len: usize, i: usize) -> ! {
    panic!("index out of bounds: the len is {len} but the index is {i}")
}

impl<T> Index<usize> for SharedMut<'_, T> {
    type Output = T;
    #[inline]
    #[track_caller]
    fn index(&self, i: usize) -> &T {
        self.check(i);
        // SAFETY: `i < len`: in bounds of the slice borrowed for `'a`. No iteration writes
        // an element another one reads (the loop directive's promise, see the type's docs).
        unsafe { &*self.ptr.add(i) }
    }
}

impl<T> IndexMut<usize> for SharedMut<'_, T> {
    #[inline]
    #[track_caller]
    fn index_mut(&mut self, i: usize) -> &mut T {
        self.check(i);
        // SAFETY: `i < len`: in bounds of the slice borrowed mutably for `'a`. Each element
        // is accessed by one iteration only (the loop directive's promise).
        unsafe { &mut *self.ptr.add(i) }
    }
}

impl<T> std::fmt::Debug for SharedMut<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedMut")
            .field("ptr", &self.ptr)
            .field("len", &self.len)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const TRIPS: [usize; 9] = [0, 1, 2, 3, 7, 17, 1000, 4097, 1 << 20];

    #[test]
    fn plan_covers_trip_exactly() {
        for threads in [1, 2, 3, 8, 64] {
            for trip in TRIPS.into_iter().chain([5000, 123_457]) {
                let (chunks, len) = plan(trip, threads);
                let covered: usize = (0..chunks).map(|c| chunk_range(c, len, trip).len()).sum();
                assert_eq!(covered, trip, "threads {threads} trip {trip}");
                if trip > 0 {
                    assert!(!chunk_range(chunks - 1, len, trip).is_empty());
                }
            }
        }
        // Short loops are still split (their iterations may be long) ...
        assert_eq!(plan(100, 2), (15, 7));
        // ... long ones not below the minimum.
        assert_eq!(plan(1 << 20, 2).1, 65536);
        assert_eq!(plan(10_000, 4).1, 2048);
    }

    #[test]
    fn par_for_visits_every_index_once() {
        for trip in TRIPS {
            let mut hits = vec![0u32; trip];
            let h = SharedMut::new(&mut hits);
            par_for(trip, |i| {
                let mut h = h;
                h[i] += 1;
            });
            assert!(hits.iter().all(|&x| x == 1), "trip {trip}");
        }
    }

    #[test]
    fn par_for_matches_sequential() {
        let n = 100_003;
        let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let b: Vec<f32> = (0..n).map(|i| (n - i) as f32).collect();
        let mut c = vec![0.0f32; n];
        let cs = SharedMut::new(&mut c);
        par_for(n, |i| {
            let mut c = cs;
            c[i] = a[i] + b[i];
        });
        let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        assert_eq!(c, want);
    }

    #[test]
    fn par_for_counts() {
        for trip in TRIPS {
            let n = AtomicUsize::new(0);
            par_for(trip, |_| {
                n.fetch_add(1, Ordering::Relaxed);
            });
            assert_eq!(n.into_inner(), trip);
        }
    }

    #[test]
    fn par_reduce_matches_sequential() {
        for trip in TRIPS {
            let s = par_reduce(trip, || 0u64, |s, i| s + i as u64, |a, b| a + b);
            assert_eq!(s, (0..trip as u64).sum::<u64>(), "trip {trip}");
            let m = par_reduce(
                trip,
                || i64::MIN,
                |m, i| m.max((i as i64 * 7919) % 1013),
                i64::max,
            );
            let want = (0..trip as i64)
                .map(|i| (i * 7919) % 1013)
                .max()
                .unwrap_or(i64::MIN);
            assert_eq!(m, want);
            let x: Vec<f64> = (0..trip).map(|i| 1.0 / (1.0 + i as f64)).collect();
            let f = par_reduce(trip, || 0.0, |s, i| s + x[i], |a, b| a + b);
            let seq: f64 = x.iter().sum();
            assert!(
                (f - seq).abs() <= 1e-12 * seq.abs().max(1.0),
                "trip {trip}: {f} vs {seq}"
            );
        }
    }

    #[test]
    fn par_reduce_is_deterministic() {
        let x: Vec<f64> = (0..1_000_001)
            .map(|i| ((i * 37) % 101) as f64 * 1e-3 + 1e-9)
            .collect();
        let r = || par_reduce(x.len(), || 0.0, |s, i| s + x[i], |a, b| a + b);
        let first = r();
        for _ in 0..10 {
            assert_eq!(r().to_bits(), first.to_bits());
        }
    }

    #[test]
    fn par_reduce_tuple_and_non_commutative_order() {
        // (count, concatenation order): the combine is applied in index order.
        let r = par_reduce(
            50_000,
            || (0usize, Vec::new()),
            |(n, mut v), i| {
                if i % 10_000 == 0 {
                    v.push(i);
                }
                (n + 1, v)
            },
            |(n1, mut v1), (n2, v2)| {
                v1.extend(v2);
                (n1 + n2, v1)
            },
        );
        assert_eq!(r, (50_000, vec![0, 10_000, 20_000, 30_000, 40_000]));
    }

    #[test]
    fn nested_par_for() {
        let (rows, cols) = (37, 1001);
        let mut m = vec![0usize; rows * cols];
        let ms = SharedMut::new(&mut m);
        par_for(rows, |r| {
            par_for(cols, |c| {
                let mut m = ms;
                m[r * cols + c] = r * c;
            })
        });
        assert!(m
            .iter()
            .enumerate()
            .all(|(k, &x)| x == (k / cols) * (k % cols)));
    }

    #[test]
    fn shared_mut_basics() {
        let mut v = vec![1, 2, 3];
        let s = SharedMut::new(&mut v);
        assert_eq!(s.len(), 3);
        assert!(!s.is_empty());
        assert_eq!(s[2], 3);
        let mut t = s;
        t[0] = 10;
        assert_eq!(s[0], 10);
        assert!(format!("{s:?}").contains("len: 3"));
        let mut e: [u8; 0] = [];
        assert!(SharedMut::new(&mut e).is_empty());
        assert_eq!(v, [10, 2, 3]);
    }

    #[test]
    #[should_panic(expected = "index out of bounds: the len is 3 but the index is 3")]
    fn shared_mut_index_checked() {
        let mut v = vec![1, 2, 3];
        let s = SharedMut::new(&mut v);
        let _ = s[3];
    }

    #[test]
    #[should_panic(expected = "index out of bounds: the len is 2 but the index is 5")]
    fn shared_mut_index_mut_checked() {
        let mut v = vec![1, 2];
        let mut s = SharedMut::new(&mut v);
        s[5] = 0;
    }

    #[test]
    #[should_panic(expected = "index out of bounds: the len is 4 but the index is 4")]
    fn shared_mut_atomic_checked() {
        let mut v = vec![0u32; 4];
        let s = SharedMut::new(&mut v);
        s.atomic(4).fetch_add(1);
    }

    #[test]
    fn panic_inside_par_for_propagates() {
        let r = std::panic::catch_unwind(|| {
            par_for(10_000, |i| {
                if i == 7777 {
                    panic!("boom at {i}");
                }
            })
        });
        let e = r.unwrap_err();
        assert_eq!(crate::test_util::panic_message(&e), "boom at 7777");
    }
}
