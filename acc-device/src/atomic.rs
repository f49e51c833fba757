//! Device atomics: [`AtomicRef`], with the method names of the host runtime's `AtomicRef`
//! (`load`, `store`, `swap`, `fetch_add`, `fetch_sub`, `fetch_mul`, `fetch_div`,
//! `fetch_max`, `fetch_min`, `fetch_and`, `fetch_or`, `fetch_xor`).
//!
//! | type | native on the GPU | by compare-and-swap |
//! | --- | --- | --- |
//! | integers (8 to 64 bits) | add, sub, max, min, and, or, xor, exch | mul, div (8/16-bit ops are widened by LLVM) |
//! | `f32`, `f64` | add, sub (`atom.add.f32` / `.f64`, sm_60+) | mul, div, max, min |
//! | `bool` | and, or, xor, exch | |
//!
//! All device atomics are *relaxed* at GPU scope, like CUDA's `atomicAdd`: they are atomic,
//! and order nothing else (use a barrier or [`thread_fence`](crate::thread_fence) for that).
//! Compiled for the host (where acc-runtime's `AtomicRef` uses these traits), loads acquire,
//! stores release and read-modify-writes do both.
//!
//! The traits [`AtomicValue`], [`AtomicArith`] and [`AtomicBits`] are declared here only;
//! acc-runtime re-exports them.
//! Integer arithmetic wraps; integer division by zero panics, as in Rust. Float `max`/`min`
//! have `f32::max`'s meaning (a NaN operand is ignored).

use core::marker::PhantomData;
use core::sync::atomic::Ordering;
use core::sync::atomic::{
    AtomicBool, AtomicI16, AtomicI32, AtomicI64, AtomicI8, AtomicIsize, AtomicU16, AtomicU32,
    AtomicU64, AtomicU8, AtomicUsize,
};

mod sealed {
    pub trait Sealed {}
}

/// The orderings of the atomics: relaxed on the GPU (see the module docs).
#[cfg(target_arch = "nvptx64")]
mod order {
    use core::sync::atomic::Ordering::{self, Relaxed};
    pub const LOAD: Ordering = Relaxed;
    pub const STORE: Ordering = Relaxed;
    pub const RMW: Ordering = Relaxed;
    pub const FAILED: Ordering = Relaxed;
}

/// The orderings of the atomics on the host: acquire loads, release stores, both for
/// read-modify-writes.
#[cfg(not(target_arch = "nvptx64"))]
mod order {
    use core::sync::atomic::Ordering::{self, AcqRel, Acquire, Relaxed, Release};
    pub const LOAD: Ordering = Acquire;
    pub const STORE: Ordering = Release;
    pub const RMW: Ordering = AcqRel;
    pub const FAILED: Ordering = Relaxed;
}

/// A compare-and-swap's failure ordering, and the loads that start a compare-and-swap loop.
const RELAXED: Ordering = Ordering::Relaxed;

/// Scalars that can be read and written atomically: the integers (up to 64 bits), `f32`,
/// `f64` and `bool`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be accessed atomically",
    label = "not an atomic scalar",
    note = "atomics take integers up to 64 bits, `f32`, `f64` and `bool`"
)]
pub trait AtomicValue: Copy + Send + Sync + sealed::Sealed {
    /// Alignment the atomic operations need (that of the matching `Atomic*` type).
    #[doc(hidden)]
    const ATOMIC_ALIGN: usize;
    /// Atomic load.
    ///
    /// # Safety
    /// `p` is valid for reads and writes, aligned, and accessed only atomically while any
    /// atomic access to it may run.
    #[doc(hidden)]
    unsafe fn atomic_load(p: *mut Self) -> Self;
    /// Atomic store.
    ///
    /// # Safety
    /// As for [`atomic_load`](Self::atomic_load).
    #[doc(hidden)]
    unsafe fn atomic_store(p: *mut Self, v: Self);
    /// Atomic exchange; returns the previous value.
    ///
    /// # Safety
    /// As for [`atomic_load`](Self::atomic_load).
    #[doc(hidden)]
    unsafe fn atomic_swap(p: *mut Self, v: Self) -> Self;
}

/// Scalars with atomic arithmetic (`+ - * /`, `max`, `min`): integers and floats.
#[diagnostic::on_unimplemented(
    message = "atomic arithmetic is not defined for `{Self}`",
    label = "no atomic `+`, `-`, `*`, `/`, `max`, `min` for this type",
    note = "atomic `+= -= *= /=`, `max` and `min` take integers (up to 64 bits), `f32` and `f64`"
)]
pub trait AtomicArith: AtomicValue {
    /// `*p += v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self;
    /// `*p -= v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_sub(p: *mut Self, v: Self) -> Self;
    /// `*p *= v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_mul(p: *mut Self, v: Self) -> Self;
    /// `*p /= v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_div(p: *mut Self, v: Self) -> Self;
    /// `*p = (*p).max(v)`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_max(p: *mut Self, v: Self) -> Self;
    /// `*p = (*p).min(v)`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_min(p: *mut Self, v: Self) -> Self;
}

/// Scalars with atomic bitwise operations (`& | ^`): integers and `bool`.
#[diagnostic::on_unimplemented(
    message = "atomic `&=`, `|=`, `^=` are not defined for `{Self}`",
    label = "no atomic bitwise operations for this type",
    note = "atomic `&=`, `|=`, `^=` take integers (up to 64 bits) and `bool`"
)]
pub trait AtomicBits: AtomicValue {
    /// `*p &= v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_and(p: *mut Self, v: Self) -> Self;
    /// `*p |= v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_or(p: *mut Self, v: Self) -> Self;
    /// `*p ^= v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_xor(p: *mut Self, v: Self) -> Self;
}

/// `*a = op(*a)` by a compare-and-swap loop; returns the previous value. Stops without a
/// write when `op` leaves the value unchanged (compared as given by `same`).
#[inline(always)]
fn cas_loop<T: Copy>(
    load: impl Fn() -> T,
    cas: impl Fn(T, T) -> Result<T, T>,
    same: impl Fn(T, T) -> bool,
    op: impl Fn(T) -> T,
) -> T {
    let mut cur = load();
    loop {
        let new = op(cur);
        if same(cur, new) {
            return cur;
        }
        match cas(cur, new) {
            Ok(prev) => return prev,
            Err(now) => cur = now,
        }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn divide_by_zero() -> ! {
    panic!("attempt to divide by zero")
}

macro_rules! atomic_int {
    ($($t:ty => $a:ty),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            const ATOMIC_ALIGN: usize = core::mem::align_of::<$a>();
            #[inline(always)]
            unsafe fn atomic_load(p: *mut Self) -> Self {
                // SAFETY: the caller's contract is `Atomic*::from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.load(order::LOAD)
            }
            #[inline(always)]
            unsafe fn atomic_store(p: *mut Self, v: Self) {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p) }.store(v, order::STORE)
            }
            #[inline(always)]
            unsafe fn atomic_swap(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p) }.swap(v, order::RMW)
            }
        }
        impl AtomicArith for $t {
            #[inline(always)]
            unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p) }.fetch_add(v, order::RMW)
            }
            #[inline(always)]
            unsafe fn atomic_sub(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p) }.fetch_sub(v, order::RMW)
            }
            #[inline(always)]
            unsafe fn atomic_mul(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                let a = unsafe { <$a>::from_ptr(p) };
                cas_loop(
                    || a.load(order::LOAD),
                    |c, n| a.compare_exchange_weak(c, n, order::RMW, order::FAILED),
                    |x, y| x == y,
                    |x| x.wrapping_mul(v),
                )
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn atomic_div(p: *mut Self, v: Self) -> Self {
                if v == 0 {
                    divide_by_zero();
                }
                // SAFETY: as in `atomic_load`.
                let a = unsafe { <$a>::from_ptr(p) };
                cas_loop(
                    || a.load(order::LOAD),
                    |c, n| a.compare_exchange_weak(c, n, order::RMW, order::FAILED),
                    |x, y| x == y,
                    |x| x.wrapping_div(v),
                )
            }
            #[inline(always)]
            unsafe fn atomic_max(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p) }.fetch_max(v, order::RMW)
            }
            #[inline(always)]
            unsafe fn atomic_min(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p) }.fetch_min(v, order::RMW)
            }
        }
        impl AtomicBits for $t {
            #[inline(always)]
            unsafe fn atomic_and(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p) }.fetch_and(v, order::RMW)
            }
            #[inline(always)]
            unsafe fn atomic_or(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p) }.fetch_or(v, order::RMW)
            }
            #[inline(always)]
            unsafe fn atomic_xor(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p) }.fetch_xor(v, order::RMW)
            }
        }
    )*};
}

atomic_int!(
    i8 => AtomicI8, i16 => AtomicI16, i32 => AtomicI32, i64 => AtomicI64, isize => AtomicIsize,
    u8 => AtomicU8, u16 => AtomicU16, u32 => AtomicU32, u64 => AtomicU64, usize => AtomicUsize,
);

impl sealed::Sealed for bool {}
impl AtomicValue for bool {
    const ATOMIC_ALIGN: usize = core::mem::align_of::<AtomicBool>();
    #[inline(always)]
    unsafe fn atomic_load(p: *mut Self) -> Self {
        // SAFETY: the caller's contract is `AtomicBool::from_ptr`'s.
        unsafe { AtomicBool::from_ptr(p) }.load(order::LOAD)
    }
    #[inline(always)]
    unsafe fn atomic_store(p: *mut Self, v: Self) {
        // SAFETY: as in `atomic_load`.
        unsafe { AtomicBool::from_ptr(p) }.store(v, order::STORE)
    }
    #[inline(always)]
    unsafe fn atomic_swap(p: *mut Self, v: Self) -> Self {
        // SAFETY: as in `atomic_load`.
        unsafe { AtomicBool::from_ptr(p) }.swap(v, order::RMW)
    }
}
impl AtomicBits for bool {
    #[inline(always)]
    unsafe fn atomic_and(p: *mut Self, v: Self) -> Self {
        // SAFETY: as in `atomic_load`.
        unsafe { AtomicBool::from_ptr(p) }.fetch_and(v, order::RMW)
    }
    #[inline(always)]
    unsafe fn atomic_or(p: *mut Self, v: Self) -> Self {
        // SAFETY: as in `atomic_load`.
        unsafe { AtomicBool::from_ptr(p) }.fetch_or(v, order::RMW)
    }
    #[inline(always)]
    unsafe fn atomic_xor(p: *mut Self, v: Self) -> Self {
        // SAFETY: as in `atomic_load`.
        unsafe { AtomicBool::from_ptr(p) }.fetch_xor(v, order::RMW)
    }
}

/// Native float add: `atom.add.f32` / `atom.add.f64` (generic addressing, so global and
/// shared memory both work); a compare-and-swap loop on the host.
#[cfg(target_arch = "nvptx64")]
macro_rules! float_add {
    (f32, $p:expr, $v:expr) => {{
        let (p, v): (*mut f32, f32) = ($p, $v);
        let old: f32;
        // SAFETY: the caller's contract: `p` is valid, aligned and accessed atomically.
        // `atom.add.f32` reads and writes only `*p`.
        unsafe {
            core::arch::asm!("atom.add.f32 {o}, [{p}], {v};", o = out(reg32) old, p = in(reg64) p, v = in(reg32) v, options(nostack))
        };
        old
    }};
    (f64, $p:expr, $v:expr) => {{
        let (p, v): (*mut f64, f64) = ($p, $v);
        let old: f64;
        // SAFETY: as for `f32`, with `atom.add.f64` (sm_60+).
        unsafe {
            core::arch::asm!("atom.add.f64 {o}, [{p}], {v};", o = out(reg64) old, p = in(reg64) p, v = in(reg64) v, options(nostack))
        };
        old
    }};
}

macro_rules! atomic_float {
    ($($t:ident => $bits:ty, $a:ty, $rmw:ident);* $(;)?) => {$(
        /// `*p = op(*p)` by compare-and-swap on the bits (a bitwise compare, so NaNs and
        /// signed zeros cannot make it spin); returns the previous value.
        ///
        /// # Safety
        /// `p` meets `AtomicValue::atomic_load`'s contract.
        #[inline(always)]
        unsafe fn $rmw(p: *mut $t, op: impl Fn($t) -> $t) -> $t {
            // SAFETY: the caller's contract; the float and its bits have the same size and
            // alignment.
            let a = unsafe { <$a>::from_ptr(p.cast::<$bits>()) };
            <$t>::from_bits(cas_loop(
                || a.load(RELAXED),
                |c, n| a.compare_exchange_weak(c, n, order::RMW, order::FAILED),
                |x, y| x == y,
                |b| op(<$t>::from_bits(b)).to_bits(),
            ))
        }
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            const ATOMIC_ALIGN: usize = core::mem::align_of::<$a>();
            #[inline(always)]
            unsafe fn atomic_load(p: *mut Self) -> Self {
                // SAFETY: the caller's contract, for the bits (same size and alignment).
                <$t>::from_bits(unsafe { <$a>::from_ptr(p.cast::<$bits>()) }.load(order::LOAD))
            }
            #[inline(always)]
            unsafe fn atomic_store(p: *mut Self, v: Self) {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p.cast::<$bits>()) }.store(v.to_bits(), order::STORE)
            }
            #[inline(always)]
            unsafe fn atomic_swap(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                <$t>::from_bits(unsafe { <$a>::from_ptr(p.cast::<$bits>()) }.swap(v.to_bits(), order::RMW))
            }
        }
        impl AtomicArith for $t {
            #[inline(always)]
            unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
                #[cfg(target_arch = "nvptx64")]
                return float_add!($t, p, v);
                #[cfg(not(target_arch = "nvptx64"))]
                // SAFETY: the caller's contract.
                return unsafe { $rmw(p, |x| x + v) };
            }
            #[inline(always)]
            unsafe fn atomic_sub(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract; `x - v == x + (-v)` exactly.
                unsafe { Self::atomic_add(p, -v) }
            }
            #[inline(always)]
            unsafe fn atomic_mul(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x * v) }
            }
            #[inline(always)]
            unsafe fn atomic_div(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x / v) }
            }
            #[inline(always)]
            unsafe fn atomic_max(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x.max(v)) }
            }
            #[inline(always)]
            unsafe fn atomic_min(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x.min(v)) }
            }
        }
    )*};
}

atomic_float!(f32 => u32, AtomicU32, rmw_f32; f64 => u64, AtomicU64, rmw_f64);

/// The atomic handle of cell `i` of a kernel's cells (a scalar declared before the loop that
/// the kernel updates with `acc::atomic!`; `like` gives its type): see acc-runtime's `Cells`.
///
/// # Safety
/// `cells` points to the launch's cells, 16 bytes each, cell `i` holding a `T`.
#[inline(always)]
pub unsafe fn cell<'a, T: AtomicValue>(cells: *mut u8, i: usize, like: T) -> AtomicRef<'a, T> {
    let _ = like;
    // SAFETY: the caller's contract.
    unsafe { AtomicRef::from_ptr(cells.add(16 * i).cast::<T>()) }
}

/// An atomic handle to one scalar in device memory (global or shared). `Copy`; every method
/// takes `self`.
///
/// ```
/// use acc_device::{AtomicRef, SliceMut};
/// let mut v = [1.5f64, 0.0];
/// let s = unsafe { SliceMut::from_raw(v.as_mut_ptr(), 2) };
/// let a: AtomicRef<f64> = s.atomic(0);
/// assert_eq!(a.fetch_add(2.0), 1.5);
/// assert_eq!(a.fetch_max(10.0), 3.5);
/// assert_eq!(a.load(), 10.0);
/// ```
pub struct AtomicRef<'a, T> {
    ptr: *mut T,
    _m: PhantomData<&'a T>,
}

impl<T> Clone for AtomicRef<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for AtomicRef<'_, T> {}

impl<T: AtomicValue> AtomicRef<'_, T> {
    /// Atomic access to `*p`.
    ///
    /// # Safety
    /// `p` is valid for reads and writes while the handle is used, aligned for `T`, and
    /// accessed only by atomic operations of `T`'s size while any atomic access may run.
    #[inline(always)]
    pub unsafe fn from_ptr(p: *mut T) -> Self {
        AtomicRef { ptr: p, _m: PhantomData }
    }

    /// Atomic read (`acc::atomic!(read x)`).
    #[inline(always)]
    pub fn load(self) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_load(self.ptr) }
    }
    /// Atomic write (`acc::atomic!(write x = v)`).
    #[inline(always)]
    pub fn store(self, v: T) {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_store(self.ptr, v) }
    }
    /// Atomic exchange; returns the previous value.
    #[inline(always)]
    pub fn swap(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_swap(self.ptr, v) }
    }
}

impl<T: AtomicArith> AtomicRef<'_, T> {
    /// `x += v` (integers wrap); returns the previous value.
    #[inline(always)]
    pub fn fetch_add(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_add(self.ptr, v) }
    }
    /// `x -= v` (integers wrap); returns the previous value.
    #[inline(always)]
    pub fn fetch_sub(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_sub(self.ptr, v) }
    }
    /// `x *= v` (integers wrap); returns the previous value.
    #[inline(always)]
    pub fn fetch_mul(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_mul(self.ptr, v) }
    }
    /// `x /= v` (integer division by zero panics); returns the previous value.
    #[inline(always)]
    #[track_caller]
    pub fn fetch_div(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_div(self.ptr, v) }
    }
    /// `x = x.max(v)`; returns the previous value.
    #[inline(always)]
    pub fn fetch_max(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_max(self.ptr, v) }
    }
    /// `x = x.min(v)`; returns the previous value.
    #[inline(always)]
    pub fn fetch_min(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_min(self.ptr, v) }
    }
}

impl<T: AtomicBits> AtomicRef<'_, T> {
    /// `x &= v`; returns the previous value.
    #[inline(always)]
    pub fn fetch_and(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_and(self.ptr, v) }
    }
    /// `x |= v`; returns the previous value.
    #[inline(always)]
    pub fn fetch_or(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_or(self.ptr, v) }
    }
    /// `x ^= v`; returns the previous value.
    #[inline(always)]
    pub fn fetch_xor(self, v: T) -> T {
        // SAFETY: `from_ptr`'s contract.
        unsafe { T::atomic_xor(self.ptr, v) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r<T: AtomicValue>(x: &mut T) -> AtomicRef<'_, T> {
        // SAFETY: an exclusive borrow, used only through the handle.
        unsafe { AtomicRef::from_ptr(x) }
    }

    #[test]
    fn integers() {
        let mut x = 7i32;
        assert_eq!(r(&mut x).fetch_add(3), 7);
        assert_eq!(r(&mut x).fetch_sub(1), 10);
        assert_eq!(r(&mut x).fetch_mul(2), 9);
        assert_eq!(r(&mut x).fetch_div(4), 18);
        assert_eq!(r(&mut x).fetch_max(10), 4);
        assert_eq!(r(&mut x).fetch_min(-2), 10);
        assert_eq!(r(&mut x).fetch_and(0xff), -2);
        assert_eq!(r(&mut x).fetch_or(1), 0xfe);
        assert_eq!(r(&mut x).fetch_xor(0xf0), 0xff);
        assert_eq!(r(&mut x).swap(5), 0x0f);
        assert_eq!(r(&mut x).load(), 5);
        let mut b = 200u8;
        assert_eq!(r(&mut b).fetch_add(100), 200);
        assert_eq!(b, 44); // wraps
        let mut m = i64::MIN;
        r(&mut m).fetch_div(-1); // wraps, no overflow panic
        assert_eq!(m, i64::MIN);
        assert!(std::panic::catch_unwind(move || {
            let mut z = 1u16;
            r(&mut z).fetch_div(0)
        })
        .is_err());
    }

    #[test]
    fn floats_and_bools() {
        let mut f = 1.0f32;
        assert_eq!(r(&mut f).fetch_add(0.5), 1.0);
        assert_eq!(r(&mut f).fetch_sub(0.25), 1.5);
        assert_eq!(r(&mut f).fetch_mul(4.0), 1.25);
        assert_eq!(r(&mut f).fetch_div(2.0), 5.0);
        assert_eq!(r(&mut f).fetch_max(f32::NAN), 2.5);
        assert_eq!(f, 2.5);
        assert_eq!(r(&mut f).fetch_min(-1.0), 2.5);
        let mut d = f64::NAN;
        r(&mut d).fetch_max(3.0);
        assert_eq!(d, 3.0);
        r(&mut d).store(-0.0);
        assert_eq!(r(&mut d).load().to_bits(), (-0.0f64).to_bits());
        let mut b = true;
        assert!(r(&mut b).fetch_and(false));
        assert!(!r(&mut b).fetch_or(true));
        assert!(r(&mut b).fetch_xor(true));
        assert!(!b);
    }
}
