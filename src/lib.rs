//! # acc — OpenACC for Rust
//!
//! Annotate ordinary Rust loops; `cargo build --features cuda` turns each region into a CUDA
//! kernel compiled from the same Rust source, and without the feature (or without a GPU) the
//! same program runs in parallel on the CPU.
//!
//! ```
//! #[acc::parallel(copyin(a, b), copyout(c), vector_length(256))]
//! fn vadd(a: &[f32], b: &[f32], c: &mut [f32]) {
//!     #[acc::r#loop(gang, vector)]
//!     for i in 0..c.len() {
//!         c[i] = a[i] + b[i];
//!     }
//! }
//!
//! #[acc::parallel]
//! fn dot(a: &[f64], b: &[f64]) -> f64 {
//!     let mut s = 0.0;
//!     #[acc::r#loop(gang, vector, reduction(+: s))]
//!     for i in 0..a.len() {
//!         s += a[i] * b[i];
//!     }
//!     s
//! }
//!
//! let a = vec![1.0f32; 1000];
//! let b = vec![2.0f32; 1000];
//! let mut c = vec![0.0f32; 1000];
//! vadd(&a, &b, &mut c);
//! assert!(c.iter().all(|&x| x == 3.0));
//!
//! let x = vec![0.5f64; 1 << 16];
//! let y = vec![4.0f64; 1 << 16];
//! acc::data!(copyin(x, y) {
//!     // inside the data region `x` and `y` stay on the device: no transfer per call
//!     for _ in 0..3 {
//!         assert_eq!(dot(&x, &y), 2.0 * (1 << 16) as f64);
//!     }
//! });
//! ```
//!
//! `loop` is a Rust keyword, so the loop directive is written `#[acc::r#loop(..)]`; rustc
//! rejects `#[acc::loop(..)]` with "expected identifier, found keyword `loop`" and suggests
//! the raw identifier.
//!
//! The directives: [`parallel`], [`kernels`], [`serial`], [`r#loop`](attr.loop.html), [`data!`], [`declare!`],
//! [`enter_data!`], [`exit_data!`], [`update!`], [`cache!`], [`atomic!`], [`routine`],
//! [`derive@DeviceCopy`]; the runtime API: [`device_type`], [`set_device`], [`num_devices`],
//! [`is_present`], [`init`], [`shutdown`], [`wait`], [`wait_all`], [`wait_async`],
//! [`wait_all_async`], [`Mirror`],
//! [`DeviceSlice`]; [`Float`] for `std`'s float methods in generic regions and routines.
//! Regions may be associated fns and methods (`&self`, `&mut self`, their fields named in
//! data clauses as `copy(self.u)`), and generic fns that name their instances
//! (`instances(f32, f64)`); see the [`guide`]'s "Rust forms". The environment: `ACC_DEVICE_TYPE=host|nvidia`, `ACC_DEVICE_NUM=n`,
//! `ACC_NOTIFY=1` (a line per launch and transfer), `ACC_PROFILE=1` (a table per region at
//! exit, and a JSON file), `ACC_PROFILE=chrome` (the table and a Chrome trace),
//! `ACC_PROFILE_FILE=path` (see [`profile`]), `ACC_PROFLIB=path` (OpenACC's profiling interface's
//! tools; in Rust [`prof::register`], see [`prof`]).
//!
//! # Guides
//!
//! - [`guide`]: every OpenACC 3.3 directive and clause, and how acc spells it (or that it
//!   does not have it);
//! - [`migrating`]: C and Fortran OpenACC beside the same code in acc;
//! - [`troubleshooting`]: the error messages, what causes each and how to fix it.
//!
//! # Features
//!
//! - `cuda`: regions also run on NVIDIA GPUs. The package's build script
//!   (`acc_build::compile_kernels()`) compiles every region to PTX with the pinned nightly
//!   (`nightly-2026-05-20`, installed by `rustup`; the host crates build on stable), and the
//!   runtime gets its CUDA backend (cudarc, with the driver loaded at run time, so the build
//!   needs no CUDA installation). At run time regions go to the GPU when there is one
//!   (`ACC_DEVICE_TYPE` picks). Without the feature, everything runs on the host backend.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub use acc_macros::{
    atomic, cache, data, declare, enter_data, exit_data, host_data, kernels, parallel, r#loop, routine, serial, update,
    DeviceCopy,
};
pub use acc_runtime::*;

#[cfg(any(doc, doctest))]
#[doc = include_str!("../docs/guide.md")]
pub mod guide {}

#[cfg(any(doc, doctest))]
#[doc = include_str!("../docs/migrating.md")]
pub mod migrating {}

#[cfg(any(doc, doctest))]
#[doc = include_str!("../docs/troubleshooting.md")]
pub mod troubleshooting {}

/// `std`'s floating-point methods (`sqrt`, `exp`, `sin`, ...) as a trait, for generic regions
/// and routines (`fn norm<T: acc::Float>(..)`): the same trait, and the same code, on the host
/// and in the kernels (see acc-device's `math` module for how each method is computed).
pub use acc_device::Float;

/// What generated code calls. Not part of the public API.
#[doc(hidden)]
pub use acc_runtime::private as __private;

/// What generic regions' dispatch calls (see acc-codegen's `generic` module). Not part of the
/// public API.
#[doc(hidden)]
pub mod __instances {
    use core::any::type_name;
    use core::mem::{align_of, size_of, ManuallyDrop};

    /// Whether `A` and `B` are one type (a generic region's parameters and an instance's
    /// arguments). The types are `DeviceCopy` (no lifetimes), so their names tell them apart.
    pub fn same<A, B>() -> bool {
        type_name::<A>() == type_name::<B>() && size_of::<A>() == size_of::<B>() && align_of::<A>() == align_of::<B>()
    }

    /// `a` as a `B`.
    ///
    /// # Safety
    /// `A` and `B` must be the same type ([`same`]).
    pub unsafe fn cast<A, B>(a: A) -> B {
        assert_eq!(size_of::<A>(), size_of::<B>(), "acc: instance dispatch between types of different sizes");
        let a = ManuallyDrop::new(a);
        // SAFETY: the caller promises that `A` is `B`; `a` is not dropped, so the value moves.
        unsafe { core::mem::transmute_copy::<A, B>(&*a) }
    }

    /// A generic region called with arguments its `instances(..)` clause does not list.
    #[track_caller]
    pub fn no_instance(region: &str, args: &str, listed: &str) -> ! {
        panic!("acc: region `{region}` has no instance for the generic arguments {args}: add them to the region's `instances(..)` clause (it lists {listed})")
    }
}
