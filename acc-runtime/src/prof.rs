//! OpenACC's profiling interface (chapter 5 of the specification, "Profiling and Error Callback
//! Interface"): callbacks that the runtime calls at the points of its work the interface names,
//! for a tool loaded from `ACC_PROFLIB` or for the program's own code.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use acc_runtime::prof::{self, Event};
//!
//! let seen = Arc::new(Mutex::new(Vec::new()));
//! let log = seen.clone();
//! let r = prof::register(Event::WaitStart, move |info| log.lock().unwrap().push((info.event, info.func_name.to_string())));
//! acc_runtime::wait_all();
//! prof::unregister(r);
//! acc_runtime::wait_all();
//! assert!(seen.lock().unwrap().contains(&(Event::WaitStart, "acc_wait_all".to_string())));
//! ```
//!
//! Two ways in, one registry:
//!
//! - A tool: `ACC_PROFLIB=/path/libtool.so` (several, separated by `;`) makes the runtime load
//!   each library at its first event and call its `acc_register_library(reg, unreg, lookup)`,
//!   which registers C callbacks through `reg` ([`acc_prof_register`]) as the specification
//!   says; [`ffi`] has the records they receive. acc does not export `acc_prof_register` and
//!   its siblings as symbols (a Rust library's `#[no_mangle]` names would clash with another
//!   OpenACC runtime's in the same process): tools get them as the function pointers
//!   `acc_register_library` receives, and [`acc_prof_lookup`] answers their names.
//! - Rust: [`register`] a closure for an [`Event`]; it receives an [`Info`]: the event, the
//!   construct (region name, file, line), the device, the thread, the async queue and, for data
//!   and launch events, the variable, bytes and addresses or the kernel and its gangs,
//!   workers and vector length. [`unregister`] removes it; [`toggle`] and [`toggle_thread`]
//!   turn events off and on as `acc_toggle` and `acc_toggle_per_thread` do.
//!
//! Callbacks of an event run in the order they were registered, those of an end event
//! (`*_end`) in the reverse order; each start event is followed by its end event on the same
//! thread, with what happened in between nested inside (a compute construct's implicit data
//! region and launches, a data region's uploads). A callback runs on the thread that does the
//! work, while that work waits: it should be short, and it must not panic (a panic is caught,
//! printed, and the event's other callbacks still run).
//!
//! Which events fire where:
//!
//! | events | on a GPU | on the host backend |
//! | --- | --- | --- |
//! | `compute_construct_start/end` | each call of a region, around everything it does | the same |
//! | `enter_data_start/end`, `exit_data_start/end` | `data!`, `enter_data!`, `exit_data!`, each array of a `declare!`, and a compute region's implicit data region (`implicit`) | the same (the constructs run and count their references) |
//! | `update_start/end` | `update!` | the same |
//! | `wait_start/end` | `acc::wait(q)`, `acc::wait_all()` and the `wait` clauses that call them | the same |
//! | `device_init_start/end` | the device's opening (`implicit` unless [`init`](crate::init) asked for it), a failed one too | the host device's opening |
//! | `device_shutdown_start/end` | `acc::shutdown()` | the same |
//! | `runtime_shutdown` | the process's exit, once a callback was registered | the same |
//! | `create`, `alloc`, `delete`, `free` | a device copy made or given back by a data clause | none: there is one memory, no device copy |
//! | `enqueue_upload_start/end`, `enqueue_download_start/end` | each copy of a data clause, `update!`, `Mirror`, `DeviceSlice` | none: nothing moves |
//! | `enqueue_launch_start/end` | each kernel launch | none: no kernel, the region runs in the construct |
//!
//! Cost: with nothing registered, each point where an event could fire reads one atomic
//! (relaxed) and tests a bit; nothing is built, no lock is taken.

use crate::backend::DeviceType;
use crate::region_info::RegionInfo;

pub mod ffi;
mod library;
mod registry;

pub use registry::{acc_prof_lookup, acc_prof_register, acc_prof_unregister, register, toggle, toggle_thread, unregister, Registration};

/// An event of the interface, numbered as `acc_event_t` numbers it ([`Event::code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `acc_ev_device_init_start`: a device starts opening.
    DeviceInitStart,
    /// `acc_ev_device_init_end`.
    DeviceInitEnd,
    /// `acc_ev_device_shutdown_start`: [`shutdown`](crate::shutdown) of a device begins.
    DeviceShutdownStart,
    /// `acc_ev_device_shutdown_end`.
    DeviceShutdownEnd,
    /// `acc_ev_runtime_shutdown`: the process exits.
    RuntimeShutdown,
    /// `acc_ev_create`: device memory now holds a device copy of host data.
    Create,
    /// `acc_ev_delete`: a device copy is given up (before its memory is freed or kept).
    Delete,
    /// `acc_ev_alloc`: device memory allocated for a device copy.
    Alloc,
    /// `acc_ev_free`: a device copy's memory freed.
    Free,
    /// `acc_ev_enter_data_start`: a data construct, `enter_data!` or a compute region's
    /// implicit data region starts entering its data.
    EnterDataStart,
    /// `acc_ev_enter_data_end`.
    EnterDataEnd,
    /// `acc_ev_exit_data_start`: the same constructs (`exit_data!`) start giving data back.
    ExitDataStart,
    /// `acc_ev_exit_data_end`.
    ExitDataEnd,
    /// `acc_ev_update_start`: an `update!` starts.
    UpdateStart,
    /// `acc_ev_update_end`.
    UpdateEnd,
    /// `acc_ev_compute_construct_start`: a call of a compute region begins.
    ComputeConstructStart,
    /// `acc_ev_compute_construct_end`: it ends (its data given back).
    ComputeConstructEnd,
    /// `acc_ev_enqueue_launch_start`: a kernel is launched (GPU only).
    EnqueueLaunchStart,
    /// `acc_ev_enqueue_launch_end`.
    EnqueueLaunchEnd,
    /// `acc_ev_enqueue_upload_start`: a copy to the device starts (GPU only).
    EnqueueUploadStart,
    /// `acc_ev_enqueue_upload_end`.
    EnqueueUploadEnd,
    /// `acc_ev_enqueue_download_start`: a copy from the device starts (GPU only).
    EnqueueDownloadStart,
    /// `acc_ev_enqueue_download_end`.
    EnqueueDownloadEnd,
    /// `acc_ev_wait_start`: the host waits for async queues.
    WaitStart,
    /// `acc_ev_wait_end`.
    WaitEnd,
}

/// How many `acc_event_t` values there are, `acc_ev_none` (0) included: `acc_ev_last`.
pub(crate) const EVENTS: usize = 26;

impl Event {
    /// Every event, in the order of their codes (1 to 25).
    pub const ALL: [Event; EVENTS - 1] = [
        Event::DeviceInitStart,
        Event::DeviceInitEnd,
        Event::DeviceShutdownStart,
        Event::DeviceShutdownEnd,
        Event::RuntimeShutdown,
        Event::Create,
        Event::Delete,
        Event::Alloc,
        Event::Free,
        Event::EnterDataStart,
        Event::EnterDataEnd,
        Event::ExitDataStart,
        Event::ExitDataEnd,
        Event::UpdateStart,
        Event::UpdateEnd,
        Event::ComputeConstructStart,
        Event::ComputeConstructEnd,
        Event::EnqueueLaunchStart,
        Event::EnqueueLaunchEnd,
        Event::EnqueueUploadStart,
        Event::EnqueueUploadEnd,
        Event::EnqueueDownloadStart,
        Event::EnqueueDownloadEnd,
        Event::WaitStart,
        Event::WaitEnd,
    ];

    /// The event's `acc_event_t` value (`acc_ev_device_init_start` is 1, `acc_ev_wait_end` 25).
    pub fn code(self) -> i32 {
        self as i32 + 1
    }

    /// The event of `acc_event_t` value `code`; `None` for `acc_ev_none` (0) and values
    /// outside the enumeration.
    pub fn from_code(code: i32) -> Option<Event> {
        Event::ALL.get(usize::try_from(code).ok()?.checked_sub(1)?).copied()
    }

    /// Whether this is an end event, whose callbacks run in the reverse order of registration.
    pub fn is_end(self) -> bool {
        use Event::*;
        matches!(
            self,
            DeviceInitEnd | DeviceShutdownEnd | EnterDataEnd | ExitDataEnd | UpdateEnd | ComputeConstructEnd | EnqueueLaunchEnd | EnqueueUploadEnd | EnqueueDownloadEnd | WaitEnd
        )
    }

    /// The end event of a start event (`None` for the others).
    pub fn end(self) -> Option<Event> {
        use Event::*;
        Some(match self {
            DeviceInitStart => DeviceInitEnd,
            DeviceShutdownStart => DeviceShutdownEnd,
            EnterDataStart => EnterDataEnd,
            ExitDataStart => ExitDataEnd,
            UpdateStart => UpdateEnd,
            ComputeConstructStart => ComputeConstructEnd,
            EnqueueLaunchStart => EnqueueLaunchEnd,
            EnqueueUploadStart => EnqueueUploadEnd,
            EnqueueDownloadStart => EnqueueDownloadEnd,
            WaitStart => WaitEnd,
            _ => return None,
        })
    }

    /// The C name, `acc_ev_compute_construct_start`.
    pub fn c_name(self) -> &'static str {
        ffi::EVENT_NAMES[self.code() as usize]
    }

    /// The event's bit in the registry's mask.
    const fn bit(self) -> u32 {
        1 << (self as u32 + 1)
    }
}

/// The construct an event belongs to (`acc_construct_t`, numbered as it is: [`Construct::code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Construct {
    /// `parallel`.
    Parallel,
    /// `kernels`.
    Kernels,
    /// `loop` (acc reports the region its loops are in instead).
    Loop,
    /// `data!`.
    Data,
    /// `enter_data!` (and `acc::Mirror::new`).
    EnterData,
    /// `exit_data!`.
    ExitData,
    /// `host_data!`.
    HostData,
    /// `atomic!`.
    Atomic,
    /// `declare!`.
    Declare,
    /// The opening of a device ([`init`](crate::init), or a first use).
    Init,
    /// [`shutdown`](crate::shutdown).
    Shutdown,
    /// `set` (acc's [`set_device`](crate::set_device)).
    Set,
    /// `update!` (and `acc::DeviceSlice`'s copies).
    Update,
    /// `routine`.
    Routine,
    /// A `wait` directive.
    Wait,
    /// A call of the runtime's API ([`wait`](crate::wait), [`wait_all`](crate::wait_all), the process's exit).
    RuntimeApi,
    /// `serial`.
    Serial,
}

impl Construct {
    /// The construct's `acc_construct_t` value (`acc_construct_parallel` is 0).
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The construct of a region of kind `kind` ([`RegionInfo::kind`]).
    pub fn of_kind(kind: &str) -> Construct {
        match kind {
            "parallel" => Construct::Parallel,
            "kernels" => Construct::Kernels,
            "serial" => Construct::Serial,
            "data" => Construct::Data,
            "enter_data" => Construct::EnterData,
            "exit_data" => Construct::ExitData,
            "update" => Construct::Update,
            "declare" => Construct::Declare,
            "host_data" => Construct::HostData,
            _ => Construct::RuntimeApi,
        }
    }

    /// Whether this is a compute construct.
    pub fn is_compute(self) -> bool {
        matches!(self, Construct::Parallel | Construct::Kernels | Construct::Serial)
    }
}

/// What a callback is told of an event (`acc_prof_info` with `acc_event_info`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info<'a> {
    /// The event.
    pub event: Event,
    /// The construct it belongs to (`parent_construct`).
    pub construct: Construct,
    /// Whether the runtime did it for the construct unasked (`implicit`): a compute region's
    /// implicit data region and its data, a device opened by its first use.
    pub implicit: bool,
    /// The region's name (the annotated `fn`'s, or the directive's: `data`, `update`, ...), or
    /// for a call of the runtime's API the OpenACC routine's (`acc_wait`).
    pub func_name: &'a str,
    /// The construct's source file (`""` where there is none: the runtime's API).
    pub src_file: &'a str,
    /// Its line (0 where there is none).
    pub line: u32,
    /// The device's type.
    pub device_type: DeviceType,
    /// The device's number among the devices of its type.
    pub device_num: usize,
    /// The host thread: a small number per thread, in order of first use (the thread of the
    /// `ACC_PROFILE=chrome` trace's tracks).
    pub thread: u64,
    /// The async queue (`Some(q)`), or `None` for synchronous work (`acc_async_sync`).
    pub queue: Option<i64>,
    /// The data or launch of a data or launch event.
    pub detail: Detail<'a>,
}

/// The part of [`Info`] that only data and launch events have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail<'a> {
    /// Any other event (`acc_other_event_info`).
    None,
    /// `create`, `delete`, `alloc`, `free`, `enqueue_upload_*`, `enqueue_download_*`
    /// (`acc_data_event_info`).
    Data(DataInfo<'a>),
    /// `enqueue_launch_*` (`acc_launch_event_info`).
    Launch(LaunchInfo<'a>),
}

/// The data of a data event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataInfo<'a> {
    /// The variable as its clause names it (`a`, `self.u`).
    pub var_name: &'a str,
    /// The bytes concerned.
    pub bytes: usize,
    /// The host address.
    pub host_addr: usize,
    /// The device address.
    pub device_addr: u64,
}

/// The kernel of a launch event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchInfo<'a> {
    /// The kernel's entry point in the PTX module.
    pub kernel: &'a str,
    /// Gangs: the grid's blocks.
    pub num_gangs: usize,
    /// Workers: a block's threads in `y` and `z`.
    pub num_workers: usize,
    /// Vector length: a block's threads in `x`.
    pub vector_length: usize,
}

impl<'a> Info<'a> {
    /// The event `event` of `region` on device `device_num` of type `device_type`, on `queue`,
    /// on the calling thread.
    pub(crate) fn of(event: Event, region: &'a RegionInfo, (device_type, device_num): (DeviceType, usize), queue: Option<i64>) -> Self {
        let construct = Construct::of_kind(region.kind);
        Info {
            event,
            construct,
            implicit: false,
            func_name: region.name,
            src_file: region.file,
            line: region.line,
            device_type,
            device_num,
            thread: crate::profile::thread_index(),
            queue,
            detail: Detail::None,
        }
    }

    /// The event `event` of a call of the runtime's API `routine` (`acc_wait`) on a device.
    pub(crate) fn api(event: Event, routine: &'a str, construct: Construct, device: (DeviceType, usize), queue: Option<i64>) -> Self {
        Info { construct, func_name: routine, src_file: "", line: 0, ..Info::of(event, &API, device, queue) }
    }

    /// The same, [`implicit`](Self::implicit).
    pub(crate) fn implicit(self, implicit: bool) -> Self {
        Info { implicit, ..self }
    }

    /// The same with `detail`.
    pub(crate) fn with(self, detail: Detail<'a>) -> Self {
        Info { detail, ..self }
    }
}

/// The region an [`Info::api`] starts from (its names replaced).
static API: RegionInfo = RegionInfo { name: "", kind: "runtime_api", file: "", line: 0, kernel: "" };

/// Whether event `e` has a callback to call on this thread: one relaxed load and a bit test
/// when nothing is registered (the first call of the process loads `ACC_PROFLIB`).
#[inline]
pub(crate) fn wanted(e: Event) -> bool {
    registry::wanted(e)
}

/// Fires `info()`'s event where it is [`wanted`].
#[inline]
pub(crate) fn emit<'a>(event: Event, info: impl FnOnce() -> Info<'a>) {
    if wanted(event) {
        registry::dispatch(&info(), &mut std::ptr::null_mut());
    }
}

/// A start event fired and its end event to fire when this is dropped (unwinding included),
/// with the same [`Info`] and the `tool_info` the start's C callbacks left.
#[must_use = "the end event fires when this is dropped"]
#[derive(Debug, Default)]
pub(crate) struct Span<'a> {
    open: Option<(Info<'a>, usize)>,
}

impl<'a> Span<'a> {
    /// Fires `start` (a start event) with `info(start)` where it or its end is [`wanted`].
    #[inline]
    pub(crate) fn start(start: Event, info: impl FnOnce(Event) -> Info<'a>) -> Self {
        let end = start.end().expect("a span starts with a start event");
        if !registry::wanted_either(start, end) {
            return Span { open: None };
        }
        Span::fire(start, info(start))
    }

    #[cold]
    fn fire(start: Event, info: Info<'a>) -> Self {
        let mut tool_info = std::ptr::null_mut();
        if wanted(start) {
            registry::dispatch(&info, &mut tool_info);
        }
        Span { open: Some((info, tool_info as usize)) }
    }
}

impl Drop for Span<'_> {
    #[inline]
    fn drop(&mut self) {
        if let Some((info, tool_info)) = self.open.take() {
            let end = info.event.end().expect("a span holds its start event");
            if wanted(end) {
                registry::dispatch(&Info { event: end, ..info }, &mut (tool_info as *mut std::ffi::c_void));
            }
        }
    }
}

/// The events of a device's opening around `open` (the `DeviceInit` pair; `implicit` where no
/// [`init`](crate::init) asked for it: a first use opens it).
pub(crate) fn device_init<R>(device: (DeviceType, usize), implicit: bool, open: impl FnOnce() -> R) -> R {
    let _span = Span::start(Event::DeviceInitStart, |e| Info::api(e, "acc_init", Construct::Init, device, None).implicit(implicit));
    open()
}
