//! Host atomics for `acc::atomic!`: an [`AtomicRef`] to a plain scalar, updated through
//! `core::sync::atomic` (integers natively, floats by a compare-and-swap loop on their bits).
//!
//! Every access to an element that several iterations update must be atomic while the loop
//! runs; plain reads and writes of it race (as in OpenACC).

use core::marker::PhantomData;
use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use core::sync::atomic::{
    AtomicBool, AtomicI16, AtomicI32, AtomicI64, AtomicI8, AtomicIsize, AtomicU16, AtomicU32,
    AtomicU64, AtomicU8, AtomicUsize,
};

mod sealed {
    pub trait Sealed {}
}

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
    /// `p` is valid, aligned to `ATOMIC_ALIGN`, and accessed only atomically (with operations
    /// of the same size) while any atomic access to it may run.
    #[doc(hidden)]
    unsafe fn atomic_load(p: *mut Self) -> Self;
    /// Atomic store.
    ///
    /// # Safety
    /// As for [`atomic_load`](Self::atomic_load).
    #[doc(hidden)]
    unsafe fn atomic_store(p: *mut Self, v: Self);
    /// Atomic swap, returning the previous value.
    ///
    /// # Safety
    /// As for [`atomic_load`](Self::atomic_load).
    #[doc(hidden)]
    unsafe fn atomic_swap(p: *mut Self, v: Self) -> Self;
}

/// Scalars with atomic arithmetic (`+= -= *= /=`, `max`, `min`): integers and floats.
#[diagnostic::on_unimplemented(
    message = "atomic arithmetic is not defined for `{Self}`",
    label = "no atomic `+`, `-`, `*`, `/`, `max`, `min` for this type",
    note = "atomic `+= -= *= /=`, `max` and `min` take integers (up to 64 bits), `f32` and `f64`"
)]
pub trait AtomicArith: AtomicValue {
    /// Atomic `*p = *p + v` (wrapping for integers); returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_add(p: *mut Self, v: Self) -> Self;
    /// Atomic `*p = *p - v` (wrapping for integers); returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_sub(p: *mut Self, v: Self) -> Self;
    /// Atomic `*p = *p * v` (wrapping for integers); returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_mul(p: *mut Self, v: Self) -> Self;
    /// Atomic `*p = *p / v` (integers: panics when `v == 0`); returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_div(p: *mut Self, v: Self) -> Self;
    /// Atomic `*p = max(*p, v)`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_max(p: *mut Self, v: Self) -> Self;
    /// Atomic `*p = min(*p, v)`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_min(p: *mut Self, v: Self) -> Self;
}

/// Scalars with atomic bitwise operations (`&= |= ^=`): integers and `bool`.
#[diagnostic::on_unimplemented(
    message = "atomic `&=`, `|=`, `^=` are not defined for `{Self}`",
    label = "no atomic bitwise operations for this type",
    note = "atomic `&=`, `|=`, `^=` take integers (up to 64 bits) and `bool`"
)]
pub trait AtomicBits: AtomicValue {
    /// Atomic `*p &= v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_and(p: *mut Self, v: Self) -> Self;
    /// Atomic `*p |= v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_or(p: *mut Self, v: Self) -> Self;
    /// Atomic `*p ^= v`; returns the previous value.
    ///
    /// # Safety
    /// As for [`AtomicValue::atomic_load`].
    #[doc(hidden)]
    unsafe fn atomic_xor(p: *mut Self, v: Self) -> Self;
}

/// Read-modify-write by compare-and-swap, for operations the hardware lacks.
fn rmw<A, T: Copy>(
    load: impl Fn(&A) -> T,
    cas: impl Fn(&A, T, T) -> Result<T, T>,
    a: &A,
    op: impl Fn(T) -> T,
) -> T {
    let mut cur = load(a);
    loop {
        match cas(a, cur, op(cur)) {
            Ok(prev) => return prev,
            Err(now) => cur = now,
        }
    }
}

macro_rules! atomic_bits_common {
    ($t:ty, $a:ty) => {
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            const ATOMIC_ALIGN: usize = core::mem::align_of::<$a>();
            unsafe fn atomic_load(p: *mut Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.load(Acquire)
            }
            unsafe fn atomic_store(p: *mut Self, v: Self) {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.store(v, Release)
            }
            unsafe fn atomic_swap(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.swap(v, AcqRel)
            }
        }
        impl AtomicBits for $t {
            unsafe fn atomic_and(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.fetch_and(v, AcqRel)
            }
            unsafe fn atomic_or(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.fetch_or(v, AcqRel)
            }
            unsafe fn atomic_xor(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.fetch_xor(v, AcqRel)
            }
        }
    };
}

macro_rules! atomic_int {
    ($($t:ty => $a:ty),* $(,)?) => {$(
        atomic_bits_common!($t, $a);
        impl AtomicArith for $t {
            unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.fetch_add(v, AcqRel)
            }
            unsafe fn atomic_sub(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.fetch_sub(v, AcqRel)
            }
            unsafe fn atomic_mul(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                let a = unsafe { <$a>::from_ptr(p) };
                rmw(|a: &$a| a.load(Relaxed), |a, c, n| a.compare_exchange_weak(c, n, AcqRel, Relaxed), a, |x| x.wrapping_mul(v))
            }
            unsafe fn atomic_div(p: *mut Self, v: Self) -> Self {
                if v == 0 {
                    panic!("attempt to divide by zero");
                }
                // SAFETY: the caller's contract is `from_ptr`'s.
                let a = unsafe { <$a>::from_ptr(p) };
                rmw(|a: &$a| a.load(Relaxed), |a, c, n| a.compare_exchange_weak(c, n, AcqRel, Relaxed), a, |x| x.wrapping_div(v))
            }
            unsafe fn atomic_max(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.fetch_max(v, AcqRel)
            }
            unsafe fn atomic_min(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s.
                unsafe { <$a>::from_ptr(p) }.fetch_min(v, AcqRel)
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
    unsafe fn atomic_load(p: *mut Self) -> Self {
        // SAFETY: the caller's contract is `from_ptr`'s.
        unsafe { AtomicBool::from_ptr(p) }.load(Acquire)
    }
    unsafe fn atomic_store(p: *mut Self, v: Self) {
        // SAFETY: the caller's contract is `from_ptr`'s.
        unsafe { AtomicBool::from_ptr(p) }.store(v, Release)
    }
    unsafe fn atomic_swap(p: *mut Self, v: Self) -> Self {
        // SAFETY: the caller's contract is `from_ptr`'s.
        unsafe { AtomicBool::from_ptr(p) }.swap(v, AcqRel)
    }
}
impl AtomicBits for bool {
    unsafe fn atomic_and(p: *mut Self, v: Self) -> Self {
        // SAFETY: the caller's contract is `from_ptr`'s.
        unsafe { AtomicBool::from_ptr(p) }.fetch_and(v, AcqRel)
    }
    unsafe fn atomic_or(p: *mut Self, v: Self) -> Self {
        // SAFETY: the caller's contract is `from_ptr`'s.
        unsafe { AtomicBool::from_ptr(p) }.fetch_or(v, AcqRel)
    }
    unsafe fn atomic_xor(p: *mut Self, v: Self) -> Self {
        // SAFETY: the caller's contract is `from_ptr`'s.
        unsafe { AtomicBool::from_ptr(p) }.fetch_xor(v, AcqRel)
    }
}

macro_rules! atomic_float {
    ($($t:ty => $bits:ty, $a:ty, $rmw:ident);* $(;)?) => {$(
        /// `*p = op(*p)` atomically, by compare-and-swap on the bits (a bitwise compare, so
        /// NaNs and signed zeros cannot make it spin); returns the previous value.
        ///
        /// # Safety
        /// `p` meets `from_ptr`'s contract for the bits' atomic type.
        unsafe fn $rmw(p: *mut $t, op: impl Fn($t) -> $t) -> $t {
            // SAFETY: the caller's contract; the float and its bits have the same size.
            let a = unsafe { <$a>::from_ptr(p.cast::<$bits>()) };
            let prev = rmw(
                |a: &$a| a.load(Relaxed),
                |a, c, n| a.compare_exchange_weak(c, n, AcqRel, Relaxed),
                a,
                |b| op(<$t>::from_bits(b)).to_bits(),
            );
            <$t>::from_bits(prev)
        }
        impl sealed::Sealed for $t {}
        impl AtomicValue for $t {
            const ATOMIC_ALIGN: usize = core::mem::align_of::<$a>();
            unsafe fn atomic_load(p: *mut Self) -> Self {
                // SAFETY: the caller's contract is `from_ptr`'s (for the bits, same size).
                <$t>::from_bits(unsafe { <$a>::from_ptr(p.cast::<$bits>()) }.load(Acquire))
            }
            unsafe fn atomic_store(p: *mut Self, v: Self) {
                // SAFETY: as in `atomic_load`.
                unsafe { <$a>::from_ptr(p.cast::<$bits>()) }.store(v.to_bits(), Release)
            }
            unsafe fn atomic_swap(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `atomic_load`.
                <$t>::from_bits(unsafe { <$a>::from_ptr(p.cast::<$bits>()) }.swap(v.to_bits(), AcqRel))
            }
        }
        impl AtomicArith for $t {
            unsafe fn atomic_add(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x + v) }
            }
            unsafe fn atomic_sub(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x - v) }
            }
            unsafe fn atomic_mul(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x * v) }
            }
            unsafe fn atomic_div(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x / v) }
            }
            unsafe fn atomic_max(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x.max(v)) }
            }
            unsafe fn atomic_min(p: *mut Self, v: Self) -> Self {
                // SAFETY: the caller's contract.
                unsafe { $rmw(p, |x| x.min(v)) }
            }
        }
    )*};
}

atomic_float!(f32 => u32, AtomicU32, rmw_f32; f64 => u64, AtomicU64, rmw_f64);

/// An atomic handle to one scalar: what `acc::atomic!` updates through on the host.
///
/// ```
/// use acc_runtime::private::AtomicRef;
/// let mut x = 1.5f64;
/// let a = AtomicRef::new(&mut x);
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

// SAFETY: every access through an `AtomicRef` is atomic, so sharing it between threads
// shares the scalar the way an `Atomic*` is shared; `T: Send` since values move between
// threads through it.
unsafe impl<T: Send> Send for AtomicRef<'_, T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Send> Sync for AtomicRef<'_, T> {}

impl<T> std::fmt::Debug for AtomicRef<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("AtomicRef").field(&self.ptr).finish()
    }
}

#[cold]
#[inline(never)]
fn misaligned(align: usize) -> ! {
    panic!("acc: atomic access to a value not aligned to {align} bytes (needs a 64-bit target)")
}

// One impl block with the bounds on each method (none on the block), so that a type without
// atomics is reported by the traits' `on_unimplemented` messages rather than "method exists
// but its trait bounds were not satisfied".
impl<'a, T> AtomicRef<'a, T> {
    /// Atomic access to `*r` for as long as it is borrowed.
    pub fn new(r: &'a mut T) -> Self
    where
        T: AtomicValue,
    {
        // SAFETY: `r` is a live exclusive borrow for `'a`: valid, and reachable only through
        // the returned handle (and its copies), which access it atomically.
        unsafe { Self::from_ptr(r) }
    }

    /// Atomic access to `*p`.
    ///
    /// # Safety
    /// `p` is valid for reads and writes for `'a`, aligned for `T`, and while the handle is
    /// in use it is accessed only through atomic operations of `T`'s size.
    pub unsafe fn from_ptr(p: *mut T) -> Self
    where
        T: AtomicValue,
    {
        // On 64-bit targets `T`'s alignment is the atomic's, and this folds away.
        if core::mem::align_of::<T>() < T::ATOMIC_ALIGN
            && !(p as usize).is_multiple_of(T::ATOMIC_ALIGN)
        {
            misaligned(T::ATOMIC_ALIGN);
        }
        AtomicRef {
            ptr: p,
            _m: PhantomData,
        }
    }

    /// Atomic read (`acc::atomic!(read x)`).
    pub fn load(self) -> T
    where
        T: AtomicValue,
    {
        // SAFETY: the pointer satisfies `from_ptr`'s contract (checked at construction).
        unsafe { T::atomic_load(self.ptr) }
    }

    /// Atomic write (`acc::atomic!(write x = v)`).
    pub fn store(self, v: T)
    where
        T: AtomicValue,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_store(self.ptr, v) }
    }

    /// Atomic exchange; returns the previous value.
    pub fn swap(self, v: T) -> T
    where
        T: AtomicValue,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_swap(self.ptr, v) }
    }

    /// `x += v` (integers wrap); returns the previous value.
    pub fn fetch_add(self, v: T) -> T
    where
        T: AtomicArith,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_add(self.ptr, v) }
    }
    /// `x -= v` (integers wrap); returns the previous value.
    pub fn fetch_sub(self, v: T) -> T
    where
        T: AtomicArith,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_sub(self.ptr, v) }
    }
    /// `x *= v` (integers wrap); returns the previous value.
    pub fn fetch_mul(self, v: T) -> T
    where
        T: AtomicArith,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_mul(self.ptr, v) }
    }
    /// `x /= v` (integers panic on division by zero); returns the previous value.
    pub fn fetch_div(self, v: T) -> T
    where
        T: AtomicArith,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_div(self.ptr, v) }
    }
    /// `x = x.max(v)`; returns the previous value.
    pub fn fetch_max(self, v: T) -> T
    where
        T: AtomicArith,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_max(self.ptr, v) }
    }
    /// `x = x.min(v)`; returns the previous value.
    pub fn fetch_min(self, v: T) -> T
    where
        T: AtomicArith,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_min(self.ptr, v) }
    }

    /// `x &= v`; returns the previous value.
    pub fn fetch_and(self, v: T) -> T
    where
        T: AtomicBits,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_and(self.ptr, v) }
    }
    /// `x |= v`; returns the previous value.
    pub fn fetch_or(self, v: T) -> T
    where
        T: AtomicBits,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_or(self.ptr, v) }
    }
    /// `x ^= v`; returns the previous value.
    pub fn fetch_xor(self, v: T) -> T
    where
        T: AtomicBits,
    {
        // SAFETY: as in `load`.
        unsafe { T::atomic_xor(self.ptr, v) }
    }
}

#[cfg(test)]
mod tests;
