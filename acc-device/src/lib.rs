//! Device support of `acc`: what a generated kernel crate calls when it runs on an NVIDIA GPU.
//!
//! The crate is `no_std`. Compiled for `nvptx64-nvidia-cuda` (by the pinned nightly, see
//! `acc-build`), every item maps onto a PTX instruction or an LLVM intrinsic. Compiled for the
//! host (stable Rust) it still builds, so that `cargo test --workspace` covers it: index
//! functions then describe a single thread of a single block, barriers are no-ops, and the
//! target-independent parts (slices, atomics, math) are unit-tested there.
//!
//! A generated kernel reads like this (it is what `acc-build` writes, see [`KERNEL_FEATURES`]):
//!
//! ```
//! # use acc_device::{Slice, SliceMut, ReadOnlyPtr, prelude::*};
//! # #[allow(improper_ctypes_definitions)]
//! // #[no_mangle] pub unsafe extern "ptx-kernel" fn acc_k_vadd(...)
//! pub unsafe extern "C" fn acc_k_vadd(
//!     a_ptr: ReadOnlyPtr<f32>, a_len: usize,   // `&[f32]` of the region: read-only
//!     c_ptr: *mut f32, c_len: usize,           // `&mut [f32]` of the region
//! ) {
//!     let a = unsafe { Slice::from_param(a_ptr, a_len) };
//!     let mut c = unsafe { SliceMut::from_raw(c_ptr, c_len) };
//!     let n = c.len();
//!     let mut i = acc_device::gang_vector_start();
//!     let stride = acc_device::gang_vector_stride();
//!     while i < n {
//!         c[i] = a[i] + a[i].sqrt();
//!         i += stride;
//!     }
//! }
//! # static A: [f32; 3] = [4.0; 3]; let mut c = [0.0f32; 3];
//! # unsafe { acc_k_vadd(ReadOnlyPtr::from_slice(&A), 3, c.as_mut_ptr(), 3) };
//! # assert_eq!(c, [6.0; 3]);
//! ```
//!
//! # Map
//! | module | what |
//! | --- | --- |
//! | [`index`](mod@index) (re-exported at the root) | thread/block indices and dims, barriers, per-level loop starts and strides; loop normalisation: `k in 0..trip`, `i = lo + k * step` (shared with the host runtime) |
//! | [`chunk`] | [`chunk::Chunks`]: 4 consecutive elements in one wide access (chunked `vector` loops) |
//! | [`slice`](mod@slice) | [`Slice`] (read-only, `ld.global.nc`), [`SliceMut`], the kernel parameter type [`ReadOnlyPtr`], [`ix`]: device code's inline bounds checks |
//! | [`atomic`] | [`AtomicRef`]: `fetch_add` ... on integers, `f32`, `f64`, `bool` |
//! | [`shuffle`] | warp shuffles (`shfl.sync.down`, `shfl.sync.bfly`) of 32- and 64-bit values |
//! | [`shared`] | the block's dynamic shared memory |
//! | [`reduce`] | warp, vector, worker and block reductions; a grid-level finish |
//! | [`launch`] | [`launch::Shape`]: a nest's launch shape, which acc-codegen writes and acc-runtime launches; [`launch::Dims`]; the waves schedules ask for |
//! | [`ops`] | the OpenACC reduction operators' identities and combines (shared with the host runtime) |
//! | [`math`] | the [`Float`] trait: `sqrt`, `exp`, `sin`, ... on `f32`/`f64` as in `std` |
//! | [`panic`](mod@panic) | `report_panic`: kernel panics reported to the host |
//! | [`device_type`] | [`DeviceType`] and [`on_device`] (`acc::on_device` in kernels and on the host) |
#![cfg_attr(not(test), no_std)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        stdarch_nvptx,
        asm_experimental_arch,
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem
    )
)]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]
#![warn(missing_docs, unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod atomic;
pub mod captures;
pub mod chunk;
pub mod device_type;
pub mod index;
pub mod launch;
pub mod math;
pub mod nd;
pub mod ops;
pub mod panic;
pub mod reduce;
pub mod shared;
pub mod shuffle;
pub mod slice;

pub use atomic::{cell, AtomicRef, AtomicValue};
pub use device_type::{on_device, DeviceType};
pub use captures::{store_grid_partial, store_grid_partial_var, store_partial, store_partial_var, store_value, Captures};
pub use index::*;
/// [`index`](mod@index) under the path of its loop normalisation that generated code names
/// (`acc_device::idx::trip`).
#[doc(hidden)]
pub use index::{self as idx};
pub use math::Float;
pub use nd::{NdSlice, NdSliceMut};
pub use reduce::{block_reduce, block_reduce_var, block_reduce_xyz, block_reduce_xyz_var, broadcast, group_reduce, group_reduce_var, red_elems, vector_reduce, warp_reduce, worker_reduce, RedVar, BLOCK_REDUCE_SLOTS};
pub use shuffle::Shuffle;
pub use slice::{ix, unchecked, unchecked_add, unchecked_sub, DeviceIndex, Ix, MutPtr, ReadOnlyPtr, Slice, SliceMut, Unchecked, UncheckedAt};

#[cfg(target_arch = "nvptx64")]
pub use panic::report_panic;
#[cfg(target_arch = "nvptx64")]
pub use reduce::grid_reduce_last_block;
#[cfg(target_arch = "nvptx64")]
pub use shared::dynamic_shared;
#[cfg(target_arch = "nvptx64")]
pub use shared::group_local;
#[cfg(target_arch = "nvptx64")]
pub use shared::{cache_fetch, cache_fetch_halo_tile, cache_fetch_tile, cache_prefetch, cache_store, cache_window, halo_walk, HaloWalk};
pub use shared::{cache_nothing, dynamic_shared_size, elem_bytes, tile_pitch, tile_pitch_of, window_points, TileReads, CACHE_AHEAD, WINDOW_POINTS_BYTES};

/// What a kernel module imports with `use acc_device::prelude::*;`: the [`Float`] math trait
/// (so that `x.sqrt()` means what it means in `std`) and the [`Shuffle`] trait.
pub mod prelude {
    pub use crate::math::Float;
    pub use crate::shuffle::Shuffle;
}

/// The `#![feature(...)]` list a generated kernel crate needs, comma-separated, to be pasted
/// into `#![feature(..)]` at its root. Only `abi_ptx` (for `extern "ptx-kernel"`): everything
/// else that is unstable (intrinsics, `asm!` on nvptx, shared memory) stays inside acc-device,
/// whose own features are enabled by its own crate attributes.
///
/// The rest of a kernel crate's contract is documented in `acc-build` (`nvptx.rs`): the crate
/// is a `cdylib`, `#![no_std]`, with a `#[panic_handler]` that calls
/// `acc_device::report_panic`, built `panic = "abort"`, `lto = "fat"`,
/// `codegen-units = 1`.
pub const KERNEL_FEATURES: &str = "abi_ptx";

/// The directory of this crate's source (its `Cargo.toml`), where cargo unpacked it: a path
/// dependency's folder or the registry's copy. `acc-build` depends on this crate to learn it,
/// and names it as the path dependency of the device crates it writes, so that the kernels are
/// built from the same acc-device as the host side, wherever acc comes from.
pub const SOURCE_DIR: &str = env!("CARGO_MANIFEST_DIR");
