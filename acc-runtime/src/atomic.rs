//! Host atomics for `acc::atomic!`: an [`AtomicRef`] to a plain scalar, updated through
//! `core::sync::atomic` (integers natively, floats by a compare-and-swap loop on their bits)
//! by the operations of acc-device's [`AtomicValue`], [`AtomicArith`] and [`AtomicBits`].
//!
//! Every access to an element that several iterations update must be atomic while the loop
//! runs; plain reads and writes of it race (as in OpenACC).

use core::marker::PhantomData;

/// The traits of the atomic scalars, declared once, in acc-device (the device's atomics
/// implement the same operations); on the host their loads acquire, stores release, and
/// read-modify-writes do both.
pub use acc_device::atomic::{AtomicArith, AtomicBits, AtomicValue};

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
