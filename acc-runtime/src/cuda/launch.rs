//! Modules and launches: PTX loaded once per text ([`Module`]), kernels looked up once
//! ([`Kernel`]), and the launch itself, synchronous or on an async queue, optionally timed.

use std::collections::HashMap;
use std::ffi::CString;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use cudarc::driver::sys;

use super::args::{KernelArgs, LaunchConfig};
use super::driver::{self, Doing};
use super::error::CudaError;
use super::queue::{Event, Label};
use super::{lock, CudaBackend};
use crate::region_info::RegionInfo;

/// A loaded PTX module and the kernels looked up in it. Unloaded with its backend (kernels
/// of it may be cached past a launch, so it is the backend's to unload, not the handle's).
pub struct Module {
    pub(crate) module: sys::CUmodule,
    /// Kernel handles by name, and the dynamic shared memory each was opened up to.
    functions: Mutex<HashMap<String, (sys::CUfunction, u32)>>,
}

// SAFETY: module and function handles are plain driver handles, usable from any thread whose
// current context is theirs (the backend makes it current in every call).
unsafe impl Send for Module {}
// SAFETY: as for `Send`; the function table is behind a mutex.
unsafe impl Sync for Module {}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Module").field("module", &self.module).finish_non_exhaustive()
    }
}

/// A kernel looked up once ([`CudaBackend::kernel`]) and launched any number of times with
/// [`CudaBackend::launch_kernel`], without looking it up again.
#[derive(Clone)]
pub struct Kernel {
    func: sys::CUfunction,
    name: Arc<str>,
    /// The dynamic shared memory the kernel was opened up to.
    shared: u32,
    /// How many parameters the kernel takes, when its PTX is known
    /// ([`with_params_from`](Kernel::with_params_from)): a launch with another number of
    /// arguments is refused instead of letting the driver read past the argument array (a
    /// PTX older than the host code, a hand-written launch).
    params: Option<usize>,
    /// The most threads a block of this kernel can have (its registers per thread decide).
    max_threads: u32,
    /// The registers a thread of the kernel uses.
    registers: u32,
    /// The local memory a thread of the kernel uses, in bytes (spilled registers among it).
    local_bytes: u32,
    /// Keeps the module's handle in use alongside the function's.
    module: Arc<Module>,
}

// SAFETY: a function handle is a plain driver handle, usable from any thread whose current
// context is its module's (the backend makes it current in every call).
unsafe impl Send for Kernel {}
// SAFETY: as for `Send`; the handle is never mutated.
unsafe impl Sync for Kernel {}

impl Kernel {
    /// The same kernel, checking each launch's argument count against its parameters in
    /// `ptx`, the text its module was loaded from.
    pub fn with_params_from(mut self, ptx: &str) -> Self {
        self.params = ptx_param_count(ptx, &self.name);
        self
    }

    /// The most threads a block of this kernel can have: fewer than the device's 1024 when
    /// the kernel needs many registers per thread.
    pub fn max_threads(&self) -> u32 {
        self.max_threads
    }

    /// The registers a thread of this kernel uses (the compiler's choice).
    pub fn registers(&self) -> u32 {
        self.registers
    }

    /// The local memory a thread of this kernel uses, in bytes: its stack, and the registers
    /// it spills.
    pub fn local_bytes(&self) -> u32 {
        self.local_bytes
    }

    /// The kernel's entry name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The module the kernel was looked up in.
    pub fn module(&self) -> &Arc<Module> {
        &self.module
    }
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel").field("name", &self.name).field("shared", &self.shared).finish_non_exhaustive()
    }
}

impl CudaBackend {
    /// Loads a PTX module (JIT-compiled by the driver for this GPU), once per distinct text:
    /// later calls with the same text return the same module.
    pub fn load_ptx(&self, ptx: &str) -> Result<Arc<Module>, CudaError> {
        self.load_ptx_for_block(ptx, 0)
    }

    /// [`load_ptx`](Self::load_ptx) with every kernel compiled for blocks of `block_threads`
    /// threads (0: as the compiler likes): a kernel that needs more registers per thread than
    /// such a block leaves gets fewer, so that the block the clauses ask for launches (a
    /// kernel's [`max_threads`](Kernel::max_threads) in the plain module may be smaller).
    /// Loaded once per text and block size.
    pub fn load_ptx_for_block(&self, ptx: &str, block_threads: u32) -> Result<Arc<Module>, CudaError> {
        self.load_ptx_jit(ptx, block_threads, 0)
    }

    /// [`load_ptx`](Self::load_ptx) with every kernel kept to `max_registers` registers a
    /// thread (those that need more spill to local memory), so that more blocks of a kernel
    /// share a multiprocessor. Loaded once per text and limit.
    pub fn load_ptx_with_registers(&self, ptx: &str, max_registers: u32) -> Result<Arc<Module>, CudaError> {
        self.load_ptx_jit(ptx, 0, max_registers)
    }

    fn load_ptx_jit(&self, ptx: &str, block_threads: u32, max_registers: u32) -> Result<Arc<Module>, CudaError> {
        self.enter()?;
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            ptx.hash(&mut h);
            (h.finish(), ptx.len(), block_threads, max_registers)
        };
        let mut modules = lock(&self.modules);
        if let Some(m) = modules.get(&key) {
            return Ok(m.clone());
        }
        let image = CString::new(ptx).map_err(|_| CudaError::Invalid("PTX text contains a NUL byte".into()))?;
        let mut log = vec![0u8; 16 << 10];
        let module = driver::module_load(&image, &mut log, block_threads, max_registers).map_err(|code| {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            CudaError::Jit { code, log: String::from_utf8_lossy(&log[..end]).into_owned() }
        })?;
        let m = Arc::new(Module { module, functions: Mutex::new(HashMap::new()) });
        modules.insert(key, m.clone());
        Ok(m)
    }

    /// The kernel `name` of `module`, opened up to `shared` bytes of dynamic shared memory.
    fn function(&self, module: &Module, name: &str, shared: u32) -> Result<sys::CUfunction, CudaError> {
        let mut fns = lock(&module.functions);
        let entry = match fns.get_mut(name) {
            Some(e) => e,
            None => {
                let cname = CString::new(name).map_err(|_| CudaError::Invalid(format!("kernel name {name:?} has a NUL byte")))?;
                // SAFETY: the module is loaded (it is unloaded only when the backend drops).
                let f = unsafe { driver::module_function(module.module, &cname) }.doing(|| format!("looking up kernel `{name}`"))?;
                // Opened up to nothing yet: the first launch with dynamic shared memory sets
                // the kernel's limit (a kernel's static shared memory, such as its panic slot,
                // counts against the 48 KiB a kernel gets without it).
                fns.entry(name.to_owned()).or_insert((f, 0))
            }
        };
        if shared > entry.1 {
            if shared > self.props.max_shared_per_block_optin {
                return Err(CudaError::Invalid(format!(
                    "kernel `{name}` asks for {shared} bytes of shared memory per block; {} has {}",
                    self.label, self.props.max_shared_per_block_optin
                )));
            }
            // SAFETY: a kernel of a loaded module; the value is within the device's limit.
            unsafe { driver::func_set_max_dynamic_shared(entry.0, shared) }
                .doing(|| format!("allowing kernel `{name}` {shared} bytes of shared memory"))?;
            entry.1 = shared;
        }
        Ok(entry.0)
    }

    /// How many blocks of `block_threads` threads (with `shared` bytes of dynamic shared
    /// memory each) of kernel `name` fit on one multiprocessor at once.
    pub fn blocks_per_sm(&self, module: &Module, name: &str, block_threads: u32, shared: u32) -> Result<u32, CudaError> {
        self.enter()?;
        let f = self.function(module, name, shared)?;
        // SAFETY: a kernel of a loaded module.
        let n = unsafe { driver::occupancy(f, block_threads, shared) }.doing(|| format!("computing the occupancy of `{name}`"))?;
        Ok(n.max(1) as u32)
    }

    /// The default number of blocks for a grid-stride loop of `iterations` over blocks of
    /// `block_threads`: one full wave (every multiprocessor at its occupancy limit), and no
    /// more blocks than the loop has iterations for.
    pub fn default_grid(&self, module: &Module, name: &str, block_threads: u32, shared: u32, iterations: usize) -> Result<u32, CudaError> {
        let wave = self.sm_count() * self.blocks_per_sm(module, name, block_threads, shared)?;
        let needed = iterations.div_ceil(block_threads.max(1) as usize).max(1);
        Ok(wave.min(needed.min(u32::MAX as usize) as u32))
    }

    /// Kernel `name` of `module`, opened up to `shared` bytes of dynamic shared memory, as a
    /// handle for [`launch_kernel`](Self::launch_kernel): launch paths look it up once.
    pub fn kernel(&self, module: &Arc<Module>, name: &str, shared: u32) -> Result<Kernel, CudaError> {
        self.enter()?;
        let func = self.function(module, name, shared)?;
        // SAFETY: a kernel of a loaded module.
        let max_threads = unsafe { driver::func_max_threads(func) }.doing(|| format!("reading kernel `{name}`'s largest block"))?;
        // SAFETY: as above.
        let registers = unsafe { driver::func_num_regs(func) }.doing(|| format!("reading kernel `{name}`'s registers"))?;
        // SAFETY: as above.
        let local = unsafe { driver::func_local_bytes(func) }.doing(|| format!("reading kernel `{name}`'s local memory"))?;
        Ok(Kernel {
            func,
            name: name.into(),
            shared,
            params: None,
            max_threads: max_threads.max(1) as u32,
            registers: registers.max(0) as u32,
            local_bytes: local.max(0) as u32,
            module: module.clone(),
        })
    }

    /// Launches kernel `name` of `module`. A synchronous launch (`cfg.queue == None`)
    /// returns once the kernel finished, with [`CudaError::KernelPanic`] if it panicked; an
    /// async one returns at once, and [`wait_queue`](Self::wait_queue) reports its failure.
    pub fn launch(&self, module: &Module, name: &str, cfg: LaunchConfig, args: &mut KernelArgs) -> Result<(), CudaError> {
        self.enter()?;
        let f = self.function(module, name, cfg.shared_bytes)?;
        self.launch_inner(f, name, None, cfg, args, false).map(|_| ())
    }

    /// Launches `kernel` as [`launch`](Self::launch) does, without looking it up; `region`
    /// is named when a wait finds that the launch failed. With a `region`, a synchronous
    /// launch with nothing to copy back behind it returns once its kernel is queued, and the
    /// next use of the backend waits for it (`deferred.rs`: the runtime's region launches).
    pub fn launch_kernel(
        &self,
        kernel: &Kernel,
        cfg: LaunchConfig,
        args: &mut KernelArgs,
        region: Option<&'static RegionInfo>,
    ) -> Result<(), CudaError> {
        // A synchronous launch waits for the launches not yet waited for only where they
        // are another thread's, or too many (`deferred.rs`).
        if cfg.queue.is_none() {
            self.make_current()?;
        } else {
            self.enter()?;
        }
        if kernel.params.is_some_and(|n| n != args.len()) {
            return Err(CudaError::Invalid(format!(
                "kernel `{}` takes {} parameters and the launch passes {}: the PTX and the code that launches it do not match (rebuild both)",
                kernel.name,
                kernel.params.unwrap_or(0),
                args.len()
            )));
        }
        if cfg.shared_bytes > kernel.shared {
            return Err(CudaError::Invalid(format!(
                "kernel `{}` was opened up to {} bytes of shared memory and launched with {}",
                kernel.name, kernel.shared, cfg.shared_bytes
            )));
        }
        self.launch_inner(kernel.func, &kernel.name, Some((region, &kernel.name)), cfg, args, false).map(|_| ())
    }

    /// A synchronous launch timed with CUDA events; returns the kernel's time in
    /// milliseconds.
    pub fn launch_timed(&self, module: &Module, name: &str, mut cfg: LaunchConfig, args: &mut KernelArgs) -> Result<f32, CudaError> {
        cfg.queue = None;
        self.enter()?;
        let f = self.function(module, name, cfg.shared_bytes)?;
        self.launch_inner(f, name, None, cfg, args, true).map(|t| t.unwrap_or(0.0))
    }

    /// The launch itself (the context is current): on the synchronous stream, then
    /// synchronised, or queued on `cfg.queue`'s stream and noted there under `label`.
    fn launch_inner(
        &self,
        f: sys::CUfunction,
        name: &str,
        label: Option<Label<'_>>,
        cfg: LaunchConfig,
        args: &mut KernelArgs,
        timed: bool,
    ) -> Result<Option<f32>, CudaError> {
        let (g, b) = (cfg.grid, cfg.block);
        if g.0 == 0 || g.1 == 0 || g.2 == 0 || cfg.block_threads() == 0 || cfg.block_threads() > self.props.max_threads_per_block {
            return Err(CudaError::Invalid(format!(
                "kernel `{name}`: cannot launch a grid of {g:?} blocks of {b:?} threads on {} (at most {} threads per block)",
                self.label, self.props.max_threads_per_block
            )));
        }
        let (stream, panics) = self.stream_and_panics(cfg.queue)?;
        // A synchronous launch holds the synchronous stream while it queues its kernel, and
        // where it waits, until it has read its panic record (see the module docs of `cuda`);
        // its kernel gets its tag in the window of launches not yet waited for (`deferred.rs`).
        let me = std::thread::current().id();
        let _sync = cfg.queue.is_none().then(|| lock(&self.sync_launch));
        if cfg.queue.is_none() {
            self.take_parked(me)?;
            let tag = self.next_tag(me)?;
            args.fill_panic_slot(panics.tagged(tag));
        } else {
            args.fill_panic_slot(panics.device_ptr());
        }
        // Dropped (destroyed) on every path out, errors included.
        let events = if timed { Some((Event::new(true)?, Event::new(true)?)) } else { None };
        if let Some((start, _)) = &events {
            start.record(stream).doing(|| "timing a launch".into())?;
        }
        crate::backend::note_device_write();
        let ptrs = args.pointers();
        // SAFETY: `f` is a kernel of a loaded module; `ptrs` holds one pointer per parameter,
        // each to the parameter's bytes, alive for the call (the driver copies them at
        // launch). The kernel's parameter list is the caller's contract with the PTX.
        if let Err(f) = crate::gpu::hosttime::driver(|| unsafe { driver::launch_kernel(f, g, b, cfg.shared_bytes, stream, ptrs) }) {
            let doing = format!("launching `{name}` ({} blocks of {} threads)", g.0 * g.1 * g.2, cfg.block_threads());
            return Err(self.sync_error(f, &panics, Some(name.to_owned()), doing));
        }
        if let Some(q) = cfg.queue {
            let owned: Arc<str>;
            let label = match label {
                Some(l) => l,
                None => {
                    owned = name.into();
                    (None, &owned)
                }
            };
            self.queued(q, Some(label));
            return Ok(None);
        }
        if let Some((_, end)) = &events {
            end.record(stream).doing(|| "timing a launch".into())?;
        }
        let (region, kernel) = match label {
            Some((region, kernel)) => (region, kernel.clone()),
            None => (None, name.into()),
        };
        self.add_launch(me, kernel, region);
        // A region's launch (the runtime's: the backend's own API waits, as it says).
        if region.is_some() && self.may_defer(timed) {
            return Ok(None);
        }
        // The region's small arrays copied back right behind its kernel (`behind.rs`).
        let behind = match self.queue_downloads_behind(stream) {
            Ok(b) => b,
            Err(f) => return Err(self.sync_error(f, &panics, Some(name.to_owned()), format!("copying back after `{name}`"))),
        };
        // The copies queued ahead of the launch landed before it ran (the wait says so),
        // those behind it after.
        self.settle_held(me, true)?;
        if behind {
            self.downloads_behind_landed();
        }
        match events {
            Some((start, end)) => end.elapsed_since(&start).doing(|| "timing a launch".into()).map(Some),
            None => Ok(None),
        }
    }
}

/// The number of parameters of `.entry name(..)` in `ptx` (the PTX the kernel was loaded
/// from), if the entry is there. Read from the text rather than asked of the driver: its
/// `cuFuncGetParamInfo` can only say "past the end" with an error, which the sanitizers
/// count.
fn ptx_param_count(ptx: &str, name: &str) -> Option<usize> {
    let start = ptx.find(&format!(".entry {name}("))?;
    let list = &ptx[start..];
    let end = list.find(')')?;
    Some(list[..end].matches(".param").count())
}

#[cfg(test)]
mod ptx_tests {
    use super::ptx_param_count;

    #[test]
    fn parameters_are_counted_from_the_entry() {
        let ptx = ".visible .entry k2(\n\t.param .u64 k2_param_0,\n\t.param .align 16 .b8 k2_param_1[272]\n)\n{\n}\n.visible .entry k0()\n{\n}\n";
        assert_eq!(ptx_param_count(ptx, "k2"), Some(2));
        assert_eq!(ptx_param_count(ptx, "k0"), Some(0));
        assert_eq!(ptx_param_count(ptx, "k"), None);
    }
}
