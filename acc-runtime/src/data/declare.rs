//! `acc::declare!`: OpenACC's `declare` in a function. Each array it names is present on the
//! device from the directive to the end of the enclosing block, as in an implicit data region,
//! and goes back as its clause says when the block ends, on every exit path (unwinding too).
//!
//! The directive shadows each name with a [`Declared`]: the array borrowed for the rest of the
//! block, seen as a slice of its elements. A region called with it, an `update!` naming it and
//! [`crate::is_present`] see the present copy; the array itself cannot be moved, dropped or
//! reallocated while its device copy exists, as the borrow is held until the block ends.

use std::ops::{Deref, DerefMut};

use super::{view, Clause, DataScope, HostData, Modifiers};
use crate::region_info::RegionInfo;

/// Arrays that `declare!` can name: contiguous host arrays that are seen as slices.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be named in `acc::declare!`",
    label = "expected a `Vec`, slice or array",
    note = "`declare!` takes `Vec<T>`, `[T]`, `[T; N]`, `Box<[T]>` (or references to them) of `Copy` elements; \
            name an `acc::Mirror` or an ndarray array in `acc::data!(..)` instead"
)]
pub trait Declarable: HostData {
    /// The elements, read-only.
    fn elems(&self) -> &[Self::Elem];

    /// The array behind a name, as `declare!` borrows it: called as a method, so that a
    /// reference (`a: &[T]`) is borrowed through as the array it points to.
    #[doc(hidden)]
    fn __acc_declared(&self) -> &Self {
        self
    }
}

/// [`Declarable`] arrays whose elements the host may write after `declare!` (those named in
/// a `copy`, `copyout` or `create` clause).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be named in a `copy`, `copyout` or `create` clause of `acc::declare!`",
    label = "expected a mutable `Vec`, slice or array",
    note = "data the host writes after `declare!` is a `Vec<T>`, `[T]`, `[T; N]` or `Box<[T]>` borrowed mutably \
            (a `let mut` binding, or a `&mut [T]`); a `&[T]` is declared with `copyin` or `present`"
)]
pub trait DeclarableMut: Declarable {
    /// The elements, writable.
    fn elems_mut(&mut self) -> &mut [Self::Elem];

    /// As [`Declarable::__acc_declared`], mutably: a `u: &mut [T]` parameter is reborrowed
    /// without a `mut` binding.
    #[doc(hidden)]
    fn __acc_declared_mut(&mut self) -> &mut Self {
        self
    }
}

macro_rules! declarable {
    ($([$($g:tt)*] $t:ty),* $(,)?) => {$(
        impl<$($g)*> Declarable for $t {
            fn elems(&self) -> &[T] {
                self
            }
        }
        impl<$($g)*> DeclarableMut for $t {
            fn elems_mut(&mut self) -> &mut [T] {
                self
            }
        }
    )*};
}
declarable!([T: Copy] [T], [T: Copy] Vec<T>, [T: Copy, const N: usize] [T; N], [T: Copy] Box<[T]>);

/// A name declared again in an inner block: the same array, one more reference.
impl<R: Deref> Declarable for Declared<R>
where
    R::Target: Declarable,
{
    fn elems(&self) -> &[Self::Elem] {
        self.data.elems()
    }
}

impl<R: DerefMut> DeclarableMut for Declared<R>
where
    R::Target: DeclarableMut,
{
    fn elems_mut(&mut self) -> &mut [Self::Elem] {
        self.data.elems_mut()
    }
}

/// An array named by `declare!`, borrowed until the end of the block, with the data scope
/// that holds its device copy. It dereferences to the array's elements.
pub struct Declared<R> {
    // Dropped first (a reference: nothing happens), then the scope, which copies back.
    data: R,
    _scope: DataScope,
}

/// `declare!`'s `copyin(a)`, `present(a)`: `a` present from here, viewed read-only.
pub fn declare<'a, D: Declarable + ?Sized>(region: &'static RegionInfo, name: &'static str, data: &'a D, clause: Clause, m: Modifiers) -> Declared<&'a D> {
    let mut scope = DataScope::new(region);
    scope.enter_data_start();
    scope.enter_with(name, view(data), clause, m);
    scope.enter_data_end();
    Declared { data, _scope: scope }
}

/// `declare!`'s `copy(a)`, `copyout(a)`, `create(a)`, `device_resident(a)`: `a` present from
/// here, viewed writable (the host's copy is written back or may be updated).
pub fn declare_mut<'a, D: DeclarableMut + ?Sized>(region: &'static RegionInfo, name: &'static str, data: &'a mut D, clause: Clause, m: Modifiers) -> Declared<&'a mut D> {
    let mut scope = DataScope::new(region);
    scope.enter_data_start();
    scope.enter_with(name, view(&*data), clause, m);
    scope.enter_data_end();
    Declared { data, _scope: scope }
}

impl<R: Deref> Deref for Declared<R>
where
    R::Target: Declarable,
{
    type Target = [<R::Target as HostData>::Elem];
    fn deref(&self) -> &Self::Target {
        self.data.elems()
    }
}

impl<R: DerefMut> DerefMut for Declared<R>
where
    R::Target: DeclarableMut,
{
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.data.elems_mut()
    }
}

impl<R: Deref> HostData for Declared<R>
where
    R::Target: Declarable,
{
    type Elem = <R::Target as HostData>::Elem;
    fn host_ptr(&self) -> *const Self::Elem {
        self.data.host_ptr()
    }
    fn host_len(&self) -> usize {
        self.data.host_len()
    }
}

impl<R> std::fmt::Debug for Declared<R>
where
    R: Deref,
    R::Target: Declarable,
    <R::Target as HostData>::Elem: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.data.elems()).finish()
    }
}
