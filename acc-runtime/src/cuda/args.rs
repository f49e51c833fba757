//! Kernel arguments and launch shapes.

use std::cell::Cell;
use std::ffi::c_void;

use crate::device_copy::DeviceCopy;

/// The launch shape of a kernel: grid and block dimensions, dynamic shared memory, queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Blocks (gangs) in x, y, z.
    pub grid: (u32, u32, u32),
    /// Threads per block: vector length (x), workers (y), z.
    pub block: (u32, u32, u32),
    /// Bytes of dynamic shared memory per block (`acc_device::dynamic_shared`).
    pub shared_bytes: u32,
    /// The async queue (`async(q)`), or `None` for a synchronous launch: the call returns
    /// once the kernel finished, with its panic if it panicked.
    pub queue: Option<i64>,
}

impl LaunchConfig {
    /// A synchronous one-dimensional launch of `grid` blocks of `block` threads.
    pub fn linear(grid: u32, block: u32) -> Self {
        LaunchConfig { grid: (grid, 1, 1), block: (block, 1, 1), shared_bytes: 0, queue: None }
    }

    /// The same launch with `bytes` of dynamic shared memory.
    pub fn with_shared(mut self, bytes: u32) -> Self {
        self.shared_bytes = bytes;
        self
    }

    /// The same launch on async queue `q`.
    pub fn on_queue(mut self, q: i64) -> Self {
        self.queue = Some(q);
        self
    }

    /// Threads per block.
    pub fn block_threads(&self) -> u32 {
        self.block.0 * self.block.1 * self.block.2
    }
}

/// The arguments of a kernel launch, in the kernel's parameter order: each is copied, as raw
/// bytes, into 16-byte aligned words of one buffer, and `cuLaunchKernel` gets a pointer to
/// each parameter's first word.
///
/// Parameter conventions of acc's kernels (see `acc_device::slice`): a `&[T]` of the region
/// is two parameters, the device address as [`ptr`](Self::ptr) and the length as `usize`; a
/// `&mut [T]` likewise; scalars and `DeviceCopy` structs by value.
///
/// A launch path makes one of these per launch: its buffers are taken from a per-thread
/// spare and given back when it drops, so that a launch allocates nothing once warm.
pub struct KernelArgs {
    /// The parameters' bytes, each parameter starting on a word of its own.
    words: Vec<u128>,
    /// The first word of each parameter.
    starts: Vec<u32>,
    /// Room for the `void*` array of the launch (addresses into `words`, rebuilt per launch).
    ptrs: Vec<usize>,
    /// The parameter that takes the launch's panic slot ([`panic_slot`](Self::panic_slot)).
    panic_at: Option<u32>,
}

/// The buffers of a [`KernelArgs`]: words, starts, pointers.
type Buffers = (Vec<u128>, Vec<u32>, Vec<usize>);

thread_local! {
    /// The buffers of the last `KernelArgs` this thread dropped, cleared.
    static SPARE: Cell<Option<Buffers>> = const { Cell::new(None) };
}

impl Default for KernelArgs {
    fn default() -> Self {
        Self::new()
    }
}

impl KernelArgs {
    /// No arguments yet.
    pub fn new() -> Self {
        let (words, starts, ptrs) = SPARE.try_with(Cell::take).ok().flatten().unwrap_or_default();
        KernelArgs { words, starts, ptrs, panic_at: None }
    }

    /// Appends the parameter that takes the launch's panic slot (an acc kernel's first,
    /// `*mut acc_device::panic::PanicSlot`): the launch fills it with the slot of the stream
    /// it runs on, so that the kernel's panics reach that stream's record.
    pub fn panic_slot(&mut self) -> &mut Self {
        self.panic_at = Some(self.starts.len() as u32);
        self.ptr(0)
    }

    /// Sets the panic slot parameter, if the kernel takes one, to `slot`.
    pub(crate) fn fill_panic_slot(&mut self, slot: u64) {
        if let Some(i) = self.panic_at {
            let start = self.starts[i as usize] as usize;
            // SAFETY: parameter `i` was pushed by `panic_slot` as a `u64` at word `start`.
            unsafe { self.words.as_mut_ptr().add(start).cast::<u64>().write_unaligned(slot) };
        }
    }

    /// Appends a value of any `DeviceCopy` type (integers, floats, `bool`, `#[repr(C)]`
    /// structs), passed by value.
    pub fn push<T: DeviceCopy>(&mut self, v: T) -> &mut Self {
        let size = std::mem::size_of::<T>();
        let start = self.words.len();
        self.words.resize(start + size.div_ceil(16).max(1), 0);
        self.starts.push(start as u32);
        // SAFETY: the words from `start` hold at least `size` bytes and are 16-byte aligned
        // (>= `T`'s alignment for the types kernels take; written unaligned anyway);
        // `T: Copy`, so a bitwise copy is a valid value.
        unsafe { self.words.as_mut_ptr().add(start).cast::<T>().write_unaligned(v) };
        self
    }

    /// Appends a device address (a `u64` parameter: `*const T`, `*mut T`,
    /// `acc_device::ReadOnlyPtr<T>`).
    pub fn ptr(&mut self, p: u64) -> &mut Self {
        self.push(p)
    }

    /// Appends a slice parameter pair: the device address, then the length in elements.
    /// An empty slice's address must still be non-null and aligned (acc-device's
    /// `ReadOnlyPtr` is a reference); pass `align_of::<T>()` for it.
    pub fn slice(&mut self, p: u64, len: usize) -> &mut Self {
        self.ptr(p).push(len)
    }

    /// The number of parameters.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// True when there are no parameters.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The `void**` array `cuLaunchKernel` takes; valid while `self` is neither moved nor
    /// changed.
    pub(crate) fn pointers(&mut self) -> *mut *mut c_void {
        let base = self.words.as_mut_ptr();
        self.ptrs.clear();
        // `wrapping_add`: plain address arithmetic inside `words` (every start is in bounds).
        self.ptrs.extend(self.starts.iter().map(|&s| base.wrapping_add(s as usize) as usize));
        // `usize` and `*mut c_void` have the same size and alignment.
        self.ptrs.as_mut_ptr().cast()
    }
}

impl Drop for KernelArgs {
    fn drop(&mut self) {
        let (mut words, mut starts, mut ptrs) =
            (std::mem::take(&mut self.words), std::mem::take(&mut self.starts), std::mem::take(&mut self.ptrs));
        words.clear();
        starts.clear();
        ptrs.clear();
        // Fails only while the thread's locals are being destroyed: the buffers are then freed.
        let _ = SPARE.try_with(|s| s.set(Some((words, starts, ptrs))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_raw_bytes_in_aligned_slots() {
        let mut a = KernelArgs::new();
        a.slice(0x1000, 7).push(2.5f32).push(true).push([1u8, 2, 3]);
        assert_eq!(a.len(), 5);
        let ptrs: Vec<*mut c_void> = {
            let p = a.pointers();
            // SAFETY: `pointers` returns an array of `len()` pointers.
            unsafe { std::slice::from_raw_parts(p, a.len()) }.to_vec()
        };
        // SAFETY: each pointer is the start of the words written by `push`.
        unsafe {
            assert_eq!(*ptrs[0].cast::<u64>(), 0x1000);
            assert_eq!(*ptrs[1].cast::<usize>(), 7);
            assert_eq!(*ptrs[2].cast::<f32>(), 2.5);
            assert!(*ptrs[3].cast::<bool>());
            assert_eq!(*ptrs[4].cast::<[u8; 3]>(), [1, 2, 3]);
        }
        assert!(ptrs.iter().all(|p| (*p as usize).is_multiple_of(16)));
        // A second set reuses the first one's buffers once it dropped.
        drop(a);
        let mut b = KernelArgs::new();
        b.push(7u8);
        let p = b.pointers();
        // SAFETY: one parameter, written above.
        assert_eq!(unsafe { **p.cast::<*const u8>() }, 7);
        drop(b);
        // The panic slot's parameter, filled at the launch.
        let mut d = KernelArgs::new();
        d.panic_slot().push(5u32);
        d.fill_panic_slot(0xdead_0000);
        let p = d.pointers();
        // SAFETY: two parameters, written above.
        assert_eq!(unsafe { (**p.cast::<*const u64>(), **p.add(1).cast::<*const u32>()) }, (0xdead_0000, 5));
        let c = LaunchConfig::linear(4, 256).with_shared(1024).on_queue(3);
        assert_eq!((c.block_threads(), c.shared_bytes, c.queue), (256, 1024, Some(3)));
    }
}
