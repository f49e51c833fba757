//! The interface's C ABI, as the specification's `acc_prof.h` declares it: the records a C
//! callback receives ([`acc_prof_info`], [`acc_event_info`], [`acc_api_info`]), the enumerations
//! as `int` constants, and the types of the routines a tool's `acc_register_library` is handed
//! ([`acc_prof_register`](super::acc_prof_register), [`acc_prof_unregister`](super::acc_prof_unregister),
//! [`acc_prof_lookup`](super::acc_prof_lookup)).
//!
//! The enumerations are `c_int`s with one constant per value, not Rust enums: a tool may pass
//! any `int`, and a value outside the enumeration is ignored, never undefined behaviour.
//! `acc_device_t` is implementation-defined; acc numbers it as the NVIDIA HPC SDK's
//! `openacc.h` does ([`acc_device_host`] 2, [`acc_device_nvidia`] 4). [`acc_prof_info`]'s
//! `version` is 202211, the `_OPENACC` of OpenACC 3.3. [`acc_api_info`] names the device API
//! (CUDA on a GPU) and leaves its handles null.
#![allow(non_camel_case_types, non_upper_case_globals)]

use std::ffi::{c_char, c_int, c_void, CString};
use std::mem::{offset_of, size_of};

use super::{Detail, Info};
use crate::backend::DeviceType;

/// `acc_event_t`.
pub type acc_event_t = c_int;
/// `acc_construct_t`.
pub type acc_construct_t = c_int;
/// `acc_device_t`.
pub type acc_device_t = c_int;
/// `acc_device_api`.
pub type acc_device_api = c_int;
/// `acc_register_t`.
pub type acc_register_t = c_int;

/// `acc_ev_none`.
pub const acc_ev_none: acc_event_t = 0;
/// `acc_ev_last`: one past the last event.
pub const acc_ev_last: acc_event_t = super::EVENTS as acc_event_t;

/// The events' C names by code, `acc_ev_none` first.
pub(super) const EVENT_NAMES: [&str; super::EVENTS] = [
    "acc_ev_none",
    "acc_ev_device_init_start",
    "acc_ev_device_init_end",
    "acc_ev_device_shutdown_start",
    "acc_ev_device_shutdown_end",
    "acc_ev_runtime_shutdown",
    "acc_ev_create",
    "acc_ev_delete",
    "acc_ev_alloc",
    "acc_ev_free",
    "acc_ev_enter_data_start",
    "acc_ev_enter_data_end",
    "acc_ev_exit_data_start",
    "acc_ev_exit_data_end",
    "acc_ev_update_start",
    "acc_ev_update_end",
    "acc_ev_compute_construct_start",
    "acc_ev_compute_construct_end",
    "acc_ev_enqueue_launch_start",
    "acc_ev_enqueue_launch_end",
    "acc_ev_enqueue_upload_start",
    "acc_ev_enqueue_upload_end",
    "acc_ev_enqueue_download_start",
    "acc_ev_enqueue_download_end",
    "acc_ev_wait_start",
    "acc_ev_wait_end",
];

/// `acc_device_none`.
pub const acc_device_none: acc_device_t = 0;
/// `acc_device_default`.
pub const acc_device_default: acc_device_t = 1;
/// `acc_device_host`.
pub const acc_device_host: acc_device_t = 2;
/// `acc_device_not_host`.
pub const acc_device_not_host: acc_device_t = 3;
/// `acc_device_nvidia`.
pub const acc_device_nvidia: acc_device_t = 4;

/// `acc_device_api_none`.
pub const acc_device_api_none: acc_device_api = 0;
/// `acc_device_api_cuda`.
pub const acc_device_api_cuda: acc_device_api = 1;

/// `acc_reg`: register a callback.
pub const acc_reg: acc_register_t = 0;
/// `acc_toggle`: turn a registered callback (or, with a null one, an event) on or off.
pub const acc_toggle: acc_register_t = 1;
/// `acc_toggle_per_thread`: with `acc_ev_none` and a null callback, turn the calling thread's
/// events on or off.
pub const acc_toggle_per_thread: acc_register_t = 2;

/// `acc_async_sync`, the `async` of synchronous work.
pub const acc_async_sync: isize = -2;

/// The `version` field: `_OPENACC` of OpenACC 3.3.
pub const VERSION: c_int = 202211;

/// `acc_prof_info`: what every callback receives first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct acc_prof_info {
    /// The event.
    pub event_type: acc_event_t,
    /// The bytes of this record that are filled.
    pub valid_bytes: c_int,
    /// [`VERSION`].
    pub version: c_int,
    /// The device's type.
    pub device_type: acc_device_t,
    /// Its number.
    pub device_number: c_int,
    /// The host thread (a small number per thread).
    pub thread_id: c_int,
    /// The async queue, or [`acc_async_sync`].
    pub async_: isize,
    /// The same (acc has one numbering of its queues).
    pub async_queue: isize,
    /// The construct's source file, or null.
    pub src_file: *const c_char,
    /// The region's name, or the runtime routine's.
    pub func_name: *const c_char,
    /// The construct's line (0: unknown).
    pub line_no: c_int,
    /// Its last line (0: unknown).
    pub end_line_no: c_int,
    /// The function's first line (0: unknown).
    pub func_line_no: c_int,
    /// Its last line (0: unknown).
    pub func_end_line_no: c_int,
}

/// `acc_data_event_info`: the record of `create`, `delete`, `alloc`, `free` and the
/// `enqueue_upload`/`download` events.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct acc_data_event_info {
    /// The event.
    pub event_type: acc_event_t,
    /// The bytes of this record that are filled.
    pub valid_bytes: c_int,
    /// The construct.
    pub parent_construct: acc_construct_t,
    /// 1 for the data of an implicit data region (a compute construct's).
    pub implicit: c_int,
    /// The tool's: null in a start event, and in the end event what the start's callbacks left.
    pub tool_info: *mut c_void,
    /// The variable's name.
    pub var_name: *const c_char,
    /// The bytes.
    pub bytes: usize,
    /// The host address.
    pub host_ptr: *const c_void,
    /// The device address.
    pub device_ptr: *const c_void,
}

/// `acc_launch_event_info`: the record of the `enqueue_launch` events.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct acc_launch_event_info {
    /// The event.
    pub event_type: acc_event_t,
    /// The bytes of this record that are filled.
    pub valid_bytes: c_int,
    /// The construct.
    pub parent_construct: acc_construct_t,
    /// Always 0.
    pub implicit: c_int,
    /// As in [`acc_data_event_info`].
    pub tool_info: *mut c_void,
    /// The kernel's name.
    pub kernel_name: *const c_char,
    /// The grid's blocks.
    pub num_gangs: usize,
    /// A block's threads in `y` and `z`.
    pub num_workers: usize,
    /// A block's threads in `x`.
    pub vector_length: usize,
}

/// `acc_other_event_info`: the record of every other event.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct acc_other_event_info {
    /// The event.
    pub event_type: acc_event_t,
    /// The bytes of this record that are filled.
    pub valid_bytes: c_int,
    /// The construct.
    pub parent_construct: acc_construct_t,
    /// 1 for an implicit data region, or a device opened by its first use.
    pub implicit: c_int,
    /// As in [`acc_data_event_info`].
    pub tool_info: *mut c_void,
}

/// `acc_event_info`: one of the records, by its event.
#[repr(C)]
#[derive(Clone, Copy)]
pub union acc_event_info {
    /// The event (the first field of each record).
    pub event_type: acc_event_t,
    /// A data event's.
    pub data_event: acc_data_event_info,
    /// A launch event's.
    pub launch_event: acc_launch_event_info,
    /// Any other event's.
    pub other_event: acc_other_event_info,
}

/// `acc_api_info`: the device API under the event.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct acc_api_info {
    /// [`acc_device_api_cuda`] on a GPU, else [`acc_device_api_none`].
    pub device_api: acc_device_api,
    /// The bytes of this record that are filled.
    pub valid_bytes: c_int,
    /// The device's type.
    pub device_type: acc_device_t,
    /// The vendor (0).
    pub vendor: c_int,
    /// Null.
    pub device_handle: *const c_void,
    /// Null.
    pub context_handle: *const c_void,
    /// Null.
    pub async_handle: *const c_void,
}

/// `acc_prof_callback`.
pub type acc_prof_callback = Option<Callback>;
/// A callback that is not null.
pub type Callback = unsafe extern "C" fn(*mut acc_prof_info, *mut acc_event_info, *mut acc_api_info);
/// `acc_prof_reg`: the type of [`acc_prof_register`](super::acc_prof_register) and
/// [`acc_prof_unregister`](super::acc_prof_unregister).
pub type acc_prof_reg = Option<unsafe extern "C" fn(acc_event_t, acc_prof_callback, acc_register_t)>;
/// `acc_query_fn`.
pub type acc_query_fn = Option<unsafe extern "C" fn()>;
/// `acc_prof_lookup_func`: the type of [`acc_prof_lookup`](super::acc_prof_lookup).
pub type acc_prof_lookup_func = Option<unsafe extern "C" fn(*const c_char) -> acc_query_fn>;
/// The type of a tool's `acc_register_library`.
pub type acc_register_library = unsafe extern "C" fn(acc_prof_reg, acc_prof_reg, acc_prof_lookup_func);

/// The `valid_bytes` of a record whose last field is `last` at offset `at`.
const fn valid(at: usize, last: usize) -> c_int {
    (at + last) as c_int
}

fn device_code(t: DeviceType) -> acc_device_t {
    match t {
        DeviceType::Host => acc_device_host,
        DeviceType::Nvidia => acc_device_nvidia,
    }
}

/// A C string of `s`, or null for `""` (a NUL inside is cut off there).
fn c_string(s: &str) -> Option<CString> {
    (!s.is_empty()).then(|| CString::new(s.split('\0').next().unwrap_or_default()).unwrap_or_default())
}

fn ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())
}

/// An event's C records, made once for its C callbacks.
pub(super) struct CEvent {
    prof: acc_prof_info,
    event: acc_event_info,
    api: acc_api_info,
    /// The strings the records point into.
    _strings: [Option<CString>; 3],
}

impl CEvent {
    pub(super) fn new(info: &Info<'_>) -> Self {
        let file = c_string(info.src_file);
        let func = c_string(info.func_name);
        let queue = info.queue.map_or(acc_async_sync, |q| q as isize);
        let prof = acc_prof_info {
            event_type: info.event.code(),
            valid_bytes: valid(offset_of!(acc_prof_info, func_end_line_no), size_of::<c_int>()),
            version: VERSION,
            device_type: device_code(info.device_type),
            device_number: info.device_num as c_int,
            thread_id: info.thread as c_int,
            async_: queue,
            async_queue: queue,
            src_file: ptr(&file),
            func_name: ptr(&func),
            line_no: info.line as c_int,
            end_line_no: 0,
            func_line_no: 0,
            func_end_line_no: 0,
        };
        let (event_type, parent_construct, implicit) = (info.event.code(), info.construct.code(), info.implicit as c_int);
        let tool_info = std::ptr::null_mut();
        let mut detail = None;
        let event = match info.detail {
            Detail::None => acc_event_info {
                other_event: acc_other_event_info {
                    event_type,
                    valid_bytes: valid(offset_of!(acc_other_event_info, tool_info), size_of::<*mut c_void>()),
                    parent_construct,
                    implicit,
                    tool_info,
                },
            },
            Detail::Data(d) => {
                detail = c_string(d.var_name);
                acc_event_info {
                    data_event: acc_data_event_info {
                        event_type,
                        valid_bytes: valid(offset_of!(acc_data_event_info, device_ptr), size_of::<*const c_void>()),
                        parent_construct,
                        implicit,
                        tool_info,
                        var_name: ptr(&detail),
                        bytes: d.bytes,
                        host_ptr: d.host_addr as *const c_void,
                        device_ptr: d.device_addr as usize as *const c_void,
                    },
                }
            }
            Detail::Launch(l) => {
                detail = c_string(l.kernel);
                acc_event_info {
                    launch_event: acc_launch_event_info {
                        event_type,
                        valid_bytes: valid(offset_of!(acc_launch_event_info, vector_length), size_of::<usize>()),
                        parent_construct,
                        implicit,
                        tool_info,
                        kernel_name: ptr(&detail),
                        num_gangs: l.num_gangs,
                        num_workers: l.num_workers,
                        vector_length: l.vector_length,
                    },
                }
            }
        };
        let api = acc_api_info {
            device_api: if info.device_type == DeviceType::Nvidia { acc_device_api_cuda } else { acc_device_api_none },
            valid_bytes: valid(offset_of!(acc_api_info, async_handle), size_of::<*const c_void>()),
            device_type: device_code(info.device_type),
            vendor: 0,
            device_handle: std::ptr::null(),
            context_handle: std::ptr::null(),
            async_handle: std::ptr::null(),
        };
        // (The strings' heap buffers do not move with the `CString`s.)
        CEvent { prof, event, api, _strings: [file, func, detail] }
    }

    /// Calls `f` with fresh copies of the records (a callback may write them), `tool_info` in
    /// them; keeps the `tool_info` it leaves.
    pub(super) fn call(&self, f: Callback, tool_info: &mut *mut c_void) {
        let (mut prof, mut event, mut api) = (self.prof, self.event, self.api);
        // Every record variant starts with the same fields (`event_type`, `valid_bytes`,
        // `parent_construct`, `implicit`, `tool_info`: `repr(C)`), so `other_event`'s name
        // `tool_info` in whichever variant was written.
        event.other_event.tool_info = *tool_info;
        // SAFETY: `f` was registered as an `acc_prof_callback` (the contract of
        // `acc_prof_register`); the records and the strings they point to live through the call.
        unsafe { f(&mut prof, &mut event, &mut api) };
        // SAFETY: as above: the field is written in every variant.
        *tool_info = unsafe { event.other_event.tool_info };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prof::{acc_prof_lookup, acc_prof_register, acc_prof_unregister, Construct, DataInfo, Event, LaunchInfo};
    use std::ffi::CStr;
    use std::sync::Mutex;

    /// What [`record`] saw: (event, construct, implicit, func, file, line, var or kernel, bytes
    /// or gangs, async, device type, valid bytes of the event record).
    type Seen = (c_int, c_int, c_int, String, String, c_int, String, usize, isize, c_int, c_int);
    static SEEN: Mutex<Vec<Seen>> = Mutex::new(Vec::new());

    unsafe fn text(p: *const c_char) -> String {
        // SAFETY: the records' strings are null or NUL-terminated.
        if p.is_null() { String::new() } else { unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() }
    }

    unsafe extern "C" fn record(prof: *mut acc_prof_info, event: *mut acc_event_info, api: *mut acc_api_info) {
        // SAFETY: the runtime passes live records.
        let (prof, event, api) = unsafe { (&*prof, &mut *event, &*api) };
        assert_eq!((prof.version, prof.valid_bytes as usize, api.device_type), (VERSION, size_of::<acc_prof_info>(), prof.device_type));
        // SAFETY: every variant starts with `event_type`; the variant read is the event's.
        let (what, n, valid) = unsafe {
            match Event::from_code(event.event_type) {
                Some(Event::EnqueueLaunchStart | Event::EnqueueLaunchEnd) => (text(event.launch_event.kernel_name), event.launch_event.num_gangs, event.launch_event.valid_bytes),
                Some(Event::Create | Event::EnqueueUploadStart | Event::EnqueueUploadEnd) => (text(event.data_event.var_name), event.data_event.bytes, event.data_event.valid_bytes),
                _ => (String::new(), 0, event.other_event.valid_bytes),
            }
        };
        // SAFETY: as above.
        let o = unsafe { event.other_event };
        // A start's callback leaves a tool_info (7); its end gets it back.
        event.other_event.tool_info = 7usize as *mut c_void;
        // SAFETY: the strings are the runtime's.
        let (func, file) = unsafe { (text(prof.func_name), text(prof.src_file)) };
        let tag = if o.tool_info as usize == 7 { format!("{what}+tool") } else { what };
        SEEN.lock().unwrap().push((o.event_type, o.parent_construct, o.implicit, func, file, prof.line_no, tag, n, prof.async_, prof.device_type, valid));
    }

    #[test]
    fn c_callbacks_see_the_specifications_records() {
        static R: RegionInfo = RegionInfo { name: "ffi_region", kind: "kernels", file: "f.rs", line: 12, kernel: "" };
        use crate::region_info::RegionInfo;
        let dev = (DeviceType::Nvidia, 1);
        let data = Detail::Data(DataInfo { var_name: "a", bytes: 800, host_addr: 0x1000, device_addr: 0x7f00 });
        let launch = Detail::Launch(LaunchInfo { kernel: "ffi_region_k", num_gangs: 64, num_workers: 4, vector_length: 128 });
        // SAFETY: `record` is an `acc_prof_callback`.
        unsafe {
            for e in [Event::Create, Event::EnqueueLaunchStart, Event::EnqueueLaunchEnd] {
                acc_prof_register(e.code(), Some(record), acc_reg);
            }
            acc_prof_register(Event::Create.code(), Some(record), acc_reg); // a second reference
            acc_prof_register(99, Some(record), acc_reg); // ignored
        }
        crate::prof::emit(Event::Create, || Info::of(Event::Create, &R, dev, None).implicit(true).with(data));
        drop(crate::prof::Span::start(Event::EnqueueLaunchStart, |e| Info::of(e, &R, dev, Some(2)).with(launch)));
        // SAFETY: as above.
        unsafe {
            acc_prof_unregister(Event::Create.code(), Some(record), acc_reg);
            crate::prof::emit(Event::Create, || Info::of(Event::Create, &R, dev, None).with(data));
            acc_prof_unregister(Event::Create.code(), Some(record), acc_reg);
            crate::prof::emit(Event::Create, || Info::of(Event::Create, &R, dev, None).with(data));
            for e in [Event::EnqueueLaunchStart, Event::EnqueueLaunchEnd] {
                acc_prof_unregister(e.code(), Some(record), acc_reg);
            }
        }
        let seen: Vec<Seen> = SEEN.lock().unwrap().drain(..).filter(|s| s.3 == "ffi_region").collect();
        let kernels = Construct::Kernels.code();
        let (data_valid, launch_valid) = (size_of::<acc_data_event_info>() as c_int, size_of::<acc_launch_event_info>() as c_int);
        let row = |e: Event, implicit, what: &str, n, q| (e.code(), kernels, implicit, "ffi_region".to_string(), "f.rs".to_string(), 12, what.to_string(), n, q, acc_device_nvidia);
        let seen: Vec<_> = seen.into_iter().map(|s| ((s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7, s.8, s.9), s.10)).collect();
        assert_eq!(
            seen,
            [
                (row(Event::Create, 1, "a", 800, -2), data_valid),
                (row(Event::EnqueueLaunchStart, 0, "ffi_region_k", 64, 2), launch_valid),
                (row(Event::EnqueueLaunchEnd, 0, "ffi_region_k+tool", 64, 2), launch_valid),
                (row(Event::Create, 0, "a", 800, -2), data_valid),
            ]
        );
    }

    #[test]
    fn c_toggles_turn_events_off_and_on() {
        static T: RegionInfo = RegionInfo { name: "ffi_toggles", kind: "update", file: "t.rs", line: 2, kernel: "" };
        use crate::region_info::RegionInfo;
        let fire = || crate::prof::emit(Event::UpdateStart, || Info::of(Event::UpdateStart, &T, (DeviceType::Host, 0), None));
        let start = Event::UpdateStart.code();
        // SAFETY: `record` is an `acc_prof_callback`.
        unsafe {
            acc_prof_register(start, Some(record), acc_reg);
            acc_prof_unregister(start, None, acc_toggle); // the event off
            fire();
            acc_prof_register(start, None, acc_toggle);
            acc_prof_unregister(acc_ev_none, None, acc_toggle_per_thread); // this thread's off
            fire();
            acc_prof_register(acc_ev_none, None, acc_toggle_per_thread);
            acc_prof_unregister(start, Some(record), acc_toggle); // the callback off
            fire();
            acc_prof_register(start, Some(record), acc_toggle);
            fire(); // the only one seen
            acc_prof_unregister(start, Some(record), acc_reg);
            fire();
        }
        let seen = SEEN.lock().unwrap().iter().filter(|s| s.3 == "ffi_toggles").count();
        assert_eq!(seen, 1);
    }

    #[test]
    fn lookup_answers_the_interfaces_routines() {
        // SAFETY: the names are NUL-terminated.
        unsafe {
            assert_eq!(acc_prof_lookup(c"acc_prof_register".as_ptr()).map(|f| f as usize), Some(acc_prof_register as *const () as usize));
            assert_eq!(acc_prof_lookup(c"acc_prof_lookup".as_ptr()).map(|f| f as usize), Some(acc_prof_lookup as *const () as usize));
            assert!(acc_prof_lookup(c"acc_get_device_type".as_ptr()).is_none());
            assert!(acc_prof_lookup(std::ptr::null()).is_none());
        }
    }

    #[test]
    fn records_have_the_c_layout() {
        // LP64: as `acc_prof.h` compiles with GCC and Clang on x86-64 and aarch64 Linux.
        assert_eq!((size_of::<acc_prof_info>(), offset_of!(acc_prof_info, async_), offset_of!(acc_prof_info, src_file)), (72, 24, 40));
        assert_eq!((size_of::<acc_data_event_info>(), offset_of!(acc_data_event_info, var_name)), (56, 24));
        assert_eq!((size_of::<acc_launch_event_info>(), offset_of!(acc_launch_event_info, num_gangs)), (56, 32));
        assert_eq!((size_of::<acc_other_event_info>(), size_of::<acc_event_info>(), size_of::<acc_api_info>()), (24, 56, 40));
    }
}
