//! The kernel cache: each PTX module loaded once per process, and per thread each kernel
//! launched (its entry: the kernel, the same kernel compiled again for a block or a register
//! limit, the one-wave grids found for it), looked up by the addresses of the `'static` PTX
//! text and name the generated code passes.
//!
//! The default grid without `num_gangs` is 32 blocks a multiprocessor of the device.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

use crate::cuda::{CudaBackend, Kernel, Module};
use crate::region_info::RegionInfo;

/// Hashes the keys of the per-thread caches (addresses and small numbers): one
/// multiplication per word, where the default hasher would cost more than the lookup.
#[derive(Default)]
pub(super) struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(26) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(super) type AddrMap<K, V> = HashMap<K, V, BuildHasherDefault<AddrHasher>>;

/// Where a launch's kernels come from: the calling thread's CUDA backend, the region (named
/// in every failure) and the package's PTX text.
#[derive(Clone, Copy)]
pub(super) struct Source<'a> {
    pub cuda: &'a CudaBackend,
    pub region: &'static RegionInfo,
    pub ptx: &'static str,
}

/// A kernel ready to launch on one backend, and the one-wave grids found for it.
pub(super) struct Launchable {
    pub kernel: Kernel,
    /// The name the entry was made for (the key holds only its address).
    name: Box<str>,
    /// By threads per block, for blocks larger than `kernel` can hold: the kernel compiled for
    /// that block (`None`: even then it holds fewer threads, and the block shrinks).
    pub for_block: Vec<(u32, Option<Kernel>)>,
    /// One full wave of blocks (every multiprocessor at its occupancy limit), by threads per
    /// block.
    pub waves: Vec<(u32, u32)>,
    /// By registers a thread: the kernel compiled again with at most that many (a lean
    /// kernel's twin without index checks, see `recompile::twin_registers`).
    pub capped: Vec<(u32, Kernel)>,
}

/// Which kernel a launch means: the backend, the PTX text's and the name's addresses (the
/// generated code passes `'static` texts), the dynamic shared memory.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct KernelKey {
    backend: u64,
    ptx: usize,
    name: (usize, usize),
    shared: u32,
}

thread_local! {
    /// The kernels this thread launched. Per thread, so that a launch takes no lock for it.
    static KERNELS: RefCell<AddrMap<KernelKey, Launchable>> = RefCell::new(AddrMap::default());
}

/// Runs `f` on this thread's entry for kernel `name` of `src` opened up to `most_shared` bytes
/// of shared memory, made (the kernel loaded) at its first launch.
pub(super) fn with_entry<R>(src: Source, name: &str, most_shared: u32, f: impl FnOnce(&mut Launchable) -> R) -> R {
    KERNELS.with(|kernels| f(launchable(&mut kernels.borrow_mut(), src, name, most_shared)))
}

/// The largest grid a launch without `num_gangs` gets on `cuda` (partials are sized for
/// it): 32 blocks per multiprocessor of its device (4224 on an H100's 132).
pub fn max_default_grid(cuda: &CudaBackend) -> usize {
    cuda.sm_count() as usize * 32
}

/// The module of the PTX text `ptx` on `cuda`, loaded once per process: the PTX is a
/// `'static` text (embedded by `include_str!`), so its address identifies it, and hashing it
/// on every launch would cost more than the launch.
fn module(cuda: &CudaBackend, region: &'static RegionInfo, ptx: &'static str) -> Arc<Module> {
    /// The backend, the PTX text's address.
    type Key = (u64, usize);
    static MODULES: Mutex<Vec<(Key, Arc<Module>)>> = Mutex::new(Vec::new());
    let mut m = MODULES.lock().unwrap_or_else(|e| e.into_inner());
    let key = (cuda.id(), ptx.as_ptr() as usize);
    if let Some((_, module)) = m.iter().find(|(k, _)| *k == key) {
        return module.clone();
    }
    let module = cuda.load_ptx(ptx).unwrap_or_else(|e| panic!("acc: {region}: cannot load the kernels' PTX: {e}"));
    m.push((key, module.clone()));
    module
}

/// This thread's entry for kernel `name` of `src`, made (the kernel loaded) at its first
/// launch.
fn launchable<'k>(kernels: &'k mut AddrMap<KernelKey, Launchable>, src: Source, name: &str, most_shared: u32) -> &'k mut Launchable {
    let key = KernelKey { backend: src.cuda.id(), ptx: src.ptx.as_ptr() as usize, name: (name.as_ptr() as usize, name.len()), shared: most_shared };
    // One hash lookup for a kernel launched before.
    let entry = kernels.entry(key).and_modify(|l| {
        if *l.name != *name {
            // Another name's entry at a reused address (a name that is not `'static`).
            *l = Launchable::load(src, name, most_shared);
        }
    });
    entry.or_insert_with(|| Launchable::load(src, name, most_shared))
}

impl Launchable {
    /// Kernel `name` of the package's PTX text, loaded on `src`'s backend (its module loaded
    /// once per process) and opened up to `most_shared` bytes of shared memory.
    fn load(src: Source, name: &str, most_shared: u32) -> Self {
        let Source { cuda, region, ptx } = src;
        // Its panics' columns (the PTX file's header).
        crate::columns::register(ptx);
        // The module of the package's PTX that defines the kernel (acc-build may write
        // several, see `ptx_modules`).
        let ptx = crate::ptx_modules::module_of(ptx, name);
        let module = module(cuda, region, ptx);
        let kernel = cuda.kernel(&module, name, most_shared).unwrap_or_else(|e| panic!("acc: {region}: kernel `{name}`: {e}")).with_params_from(ptx);
        Launchable { kernel, name: name.into(), for_block: Vec::new(), waves: Vec::new(), capped: Vec::new() }
    }
}

/// One full wave of blocks of `block` threads of `kernel` (every multiprocessor at its
/// occupancy limit): it depends on the kernel and block only, so it is found once (`waves`).
pub(super) fn one_wave(cuda: &CudaBackend, kernel: &Kernel, name: &str, waves: &mut Vec<(u32, u32)>, key: u32, block: u32, shared: u32) -> u32 {
    if let Some(&(_, w)) = waves.iter().find(|(k, _)| *k == key) {
        return w;
    }
    let w = cuda.default_grid(kernel.module(), name, block, shared, usize::MAX / 2).unwrap_or(1).max(1);
    waves.push((key, w));
    w
}
