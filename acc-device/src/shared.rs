//! The block's shared memory.
//!
//! A kernel gets one region of *dynamic* shared memory, sized by the host at each launch
//! (`sharedMemBytes` of `cuLaunchKernel`). `dynamic_shared` (nvptx only) returns its start; every call
//! in a block, whatever `T`, returns the same address, so a kernel that needs several arrays
//! (a reduction's scratch, a `cache` window) carves them out of it at offsets it computes,
//! and the host sizes the launch as the sum (see [`shared_bytes`]).

/// The start of the block's dynamic shared memory, aligned for `T`
/// (`core::intrinsics::gpu::gpu_launch_sized_workgroup_mem`, PTX `.extern .shared`).
///
/// The pointer is valid for the number of bytes the launch asked for, for all threads of the
/// block, until the block ends. Accesses from several threads need a barrier
/// ([`sync_threads`](crate::sync_threads)) between a write and another thread's read.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
#[must_use]
pub fn dynamic_shared<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}

/// The bytes of shared memory that `count` values of `T` take, rounded up to 16 so that the
/// next array carved after them stays aligned for any scalar. Usable on the host when
/// sizing a launch.
#[inline]
#[must_use]
pub const fn shared_bytes<T>(count: usize) -> usize {
    (count * core::mem::size_of::<T>()).div_ceil(16) * 16
}

#[cfg(test)]
mod tests {
    #[test]
    fn bytes_are_rounded_to_16() {
        assert_eq!(super::shared_bytes::<f64>(32), 256);
        assert_eq!(super::shared_bytes::<u8>(3), 16);
        assert_eq!(super::shared_bytes::<u8>(0), 0);
    }
}
