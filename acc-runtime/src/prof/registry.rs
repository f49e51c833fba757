//! The callbacks registered for each event, C ones (a tool's, through [`acc_prof_register`])
//! and Rust ones ([`register`]) in one list per event, and the mask that the runtime's event
//! points read: bit `e` is set while event `e` has an enabled callback and is not toggled off,
//! and the top bit until `ACC_PROFLIB` has been loaded.

use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::ffi::{self, acc_ev_last, acc_ev_none, acc_event_t, acc_prof_callback, acc_query_fn, acc_register_t};
use super::{library, Event, Info, EVENTS};

/// What a Rust callback is.
type RustCallback = Arc<dyn Fn(&Info<'_>) + Send + Sync>;

/// A registered callback.
#[derive(Clone)]
enum Callback {
    /// A tool's (`acc_prof_register`); registering it again counts a reference.
    C(ffi::Callback),
    /// [`register`]'s, by its registration's number.
    Rust(u64, RustCallback),
}

/// One callback in an event's list.
struct Slot {
    callback: Callback,
    /// Its registrations not yet unregistered (C callbacks; 1 for a Rust one).
    refs: u32,
    /// Not toggled off (`acc_toggle`).
    on: bool,
}

/// Every event's callbacks, and the toggles: `on[0]` is the global one (`acc_ev_none`).
struct Lists {
    slots: [Vec<Slot>; EVENTS],
    on: [bool; EVENTS],
}

static LISTS: Mutex<Lists> = Mutex::new(Lists { slots: [const { Vec::new() }; EVENTS], on: [true; EVENTS] });

/// Set until `ACC_PROFLIB` is loaded: the first event point of the process loads it.
const UNLOADED: u32 = 1 << 31;

/// The events with a callback to call (bit `e` for event code `e`), and [`UNLOADED`].
static MASK: AtomicU32 = AtomicU32::new(UNLOADED);

thread_local! {
    /// This thread's toggle (`acc_toggle_per_thread`).
    static THREAD_ON: Cell<bool> = const { Cell::new(true) };
}

fn lists() -> MutexGuard<'static, Lists> {
    LISTS.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Lists {
    /// The mask these lists give.
    fn mask(&self) -> u32 {
        if !self.on[0] {
            return 0;
        }
        Event::ALL
            .iter()
            .filter(|e| self.on[e.code() as usize] && self.slots[e.code() as usize].iter().any(|s| s.on))
            .fold(0, |m, e| m | e.bit())
    }

    /// Stores the mask (keeping [`UNLOADED`] until the libraries are loaded).
    fn publish(&self) {
        let unloaded = if library::loaded() { 0 } else { UNLOADED };
        MASK.store(self.mask() | unloaded, Ordering::Relaxed);
    }
}

/// See [`super::wanted`].
#[inline]
pub(super) fn wanted(e: Event) -> bool {
    MASK.load(Ordering::Relaxed) & (e.bit() | UNLOADED) != 0 && wanted_slow(e)
}

/// Whether `start` or its end `end` is [`wanted`] (one load where neither is).
#[inline]
pub(super) fn wanted_either(start: Event, end: Event) -> bool {
    MASK.load(Ordering::Relaxed) & (start.bit() | end.bit() | UNLOADED) != 0 && (wanted_slow(start) || wanted_slow(end))
}

#[cold]
fn wanted_slow(e: Event) -> bool {
    if MASK.load(Ordering::Relaxed) & UNLOADED != 0 {
        library::load(Some(acc_prof_register), Some(acc_prof_unregister), Some(acc_prof_lookup));
        lists().publish();
    }
    MASK.load(Ordering::Relaxed) & e.bit() != 0 && THREAD_ON.try_with(Cell::get).unwrap_or(true)
}

/// Calls `info.event`'s enabled callbacks, in registration order (reversed for an end event),
/// outside the lock (a callback may register or unregister); `tool_info` is what the C
/// callbacks see and leave in `tool_info`.
pub(super) fn dispatch(info: &Info<'_>, tool_info: &mut *mut c_void) {
    let mut calls: Vec<Callback> = {
        let l = lists();
        l.slots[info.event.code() as usize].iter().filter(|s| s.on).map(|s| s.callback.clone()).collect()
    };
    if info.event.is_end() {
        calls.reverse();
    }
    let mut c_event = None;
    for call in calls {
        match call {
            Callback::C(f) => {
                let event = c_event.get_or_insert_with(|| ffi::CEvent::new(info));
                event.call(f, tool_info);
            }
            Callback::Rust(_, f) => {
                if let Err(p) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(info))) {
                    let why = p.downcast_ref::<&str>().copied().or_else(|| p.downcast_ref::<String>().map(String::as_str)).unwrap_or("a panic");
                    eprintln!("acc: a profiling callback of {} panicked: {why}", info.event.c_name());
                }
            }
        }
    }
}

/// `acc_prof_register(ev, cb, reg)`: `acc_reg` registers `cb` for `ev` (again: one more
/// reference); `acc_toggle` turns `cb` on for `ev`, or with a null `cb` event `ev` (every
/// event with `acc_ev_none`); `acc_toggle_per_thread` with `acc_ev_none` and a null `cb` turns
/// the calling thread's events on. Anything else is ignored.
///
/// # Safety
/// `cb`, where not null, is a function of the `acc_prof_callback` type that may be called from
/// any thread until it is unregistered.
pub unsafe extern "C" fn acc_prof_register(ev: acc_event_t, cb: acc_prof_callback, reg: acc_register_t) {
    request(ev, cb, reg, true);
}

/// `acc_prof_unregister(ev, cb, reg)`: `acc_reg` gives back one reference of `cb` for `ev`
/// (it is called no more after its last); `acc_toggle` and `acc_toggle_per_thread` turn off
/// what [`acc_prof_register`]'s turn on.
///
/// # Safety
/// None beyond the types: it only removes or turns off.
pub unsafe extern "C" fn acc_prof_unregister(ev: acc_event_t, cb: acc_prof_callback, reg: acc_register_t) {
    request(ev, cb, reg, false);
}

/// `acc_prof_lookup(name)`: the routine of this interface named `name` (`acc_prof_register`,
/// `acc_prof_unregister`, `acc_prof_lookup`), or null.
///
/// # Safety
/// `name` is null or a NUL-terminated string.
pub unsafe extern "C" fn acc_prof_lookup(name: *const c_char) -> acc_query_fn {
    if name.is_null() {
        return None;
    }
    // SAFETY: the caller's contract.
    let name = unsafe { CStr::from_ptr(name) };
    let f: *const () = match name.to_bytes() {
        b"acc_prof_register" => acc_prof_register as *const (),
        b"acc_prof_unregister" => acc_prof_unregister as *const (),
        b"acc_prof_lookup" => acc_prof_lookup as *const (),
        _ => return None,
    };
    // SAFETY: a function pointer as `acc_query_fn`, C's generic function pointer: the tool casts
    // it back to the routine's own type before calling it.
    Some(unsafe { std::mem::transmute::<*const (), unsafe extern "C" fn()>(f) })
}

/// [`acc_prof_register`] (`on`) or [`acc_prof_unregister`].
fn request(ev: acc_event_t, cb: acc_prof_callback, reg: acc_register_t, on: bool) {
    let event = Event::from_code(ev);
    match (reg, cb, event) {
        (ffi::acc_reg, Some(f), Some(e)) if on => add_c(e, f),
        (ffi::acc_reg, Some(f), Some(e)) => remove_c(e, f),
        (ffi::acc_toggle, Some(f), Some(e)) => toggle_c(e, f, on),
        (ffi::acc_toggle, None, _) if (acc_ev_none..acc_ev_last).contains(&ev) => toggle_code(ev as usize, on),
        (ffi::acc_toggle_per_thread, None, None) if ev == acc_ev_none => toggle_thread(on),
        _ => {}
    }
}

/// A Rust callback's registration, for [`unregister`].
#[derive(Debug, PartialEq, Eq)]
pub struct Registration {
    event: Event,
    id: u64,
}

/// Registers `callback` for `event` (OpenACC's `acc_prof_register(event, cb, acc_reg)`): from
/// now on every `event` of any thread calls it, after the callbacks registered before it (for
/// an end event, before them). The callback may register and unregister callbacks itself.
///
/// ```
/// use acc_runtime::prof::{self, Event};
/// let r = prof::register(Event::ComputeConstructStart, |info| println!("{} at {}:{}", info.func_name, info.src_file, info.line));
/// prof::unregister(r);
/// ```
pub fn register(event: Event, callback: impl Fn(&Info<'_>) + Send + Sync + 'static) -> Registration {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    add(event, Callback::Rust(id, Arc::new(callback)));
    Registration { event, id }
}

/// Removes the callback of `registration` (OpenACC's `acc_prof_unregister(event, cb,
/// acc_reg)`); an event already being dispatched on another thread may still call it once.
pub fn unregister(registration: Registration) {
    let mut l = lists();
    let slots = &mut l.slots[registration.event.code() as usize];
    slots.retain(|s| !matches!(s.callback, Callback::Rust(id, _) if id == registration.id));
    l.publish();
}

/// Turns the callbacks of `event` (every event's with `None`) off or on, keeping them
/// registered (OpenACC's `acc_prof_unregister(ev, NULL, acc_toggle)` and
/// `acc_prof_register(ev, NULL, acc_toggle)`).
pub fn toggle(event: Option<Event>, on: bool) {
    let mut l = lists();
    l.on[event.map_or(0, |e| e.code() as usize)] = on;
    l.publish();
}

/// Turns every callback off or on for the calling thread's events only (OpenACC's
/// `acc_prof_unregister(acc_ev_none, NULL, acc_toggle_per_thread)` and its register).
pub fn toggle_thread(on: bool) {
    THREAD_ON.with(|t| t.set(on));
}

fn add(event: Event, callback: Callback) {
    library::at_exit();
    let mut l = lists();
    l.slots[event.code() as usize].push(Slot { callback, refs: 1, on: true });
    l.publish();
}

/// `acc_prof_register(ev, cb, acc_reg)` of a C callback: a new one goes last, one registered
/// already counts one more reference.
fn add_c(event: Event, f: ffi::Callback) {
    {
        let mut l = lists();
        if let Some(s) = l.slots[event.code() as usize].iter_mut().find(|s| matches!(s.callback, Callback::C(g) if std::ptr::fn_addr_eq(g, f))) {
            s.refs += 1;
            return;
        }
    }
    add(event, Callback::C(f));
}

/// `acc_prof_unregister(ev, cb, acc_reg)`: one reference less; the callback goes with its last.
fn remove_c(event: Event, f: ffi::Callback) {
    let mut l = lists();
    let slots = &mut l.slots[event.code() as usize];
    if let Some(i) = slots.iter().position(|s| matches!(s.callback, Callback::C(g) if std::ptr::fn_addr_eq(g, f))) {
        slots[i].refs -= 1;
        if slots[i].refs == 0 {
            slots.remove(i);
        }
    }
    l.publish();
}

/// `acc_toggle` of one C callback of `event`.
fn toggle_c(event: Event, f: ffi::Callback, on: bool) {
    let mut l = lists();
    for s in l.slots[event.code() as usize].iter_mut().filter(|s| matches!(s.callback, Callback::C(g) if std::ptr::fn_addr_eq(g, f))) {
        s.on = on;
    }
    l.publish();
}

/// The toggle of event code `code` (0: all), for `acc_toggle` with no callback.
fn toggle_code(code: usize, on: bool) {
    let mut l = lists();
    l.on[code] = on;
    l.publish();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::DeviceType;
    use crate::region_info::RegionInfo;

    static R: RegionInfo = RegionInfo { name: "prof_registry", kind: "parallel", file: "r.rs", line: 4, kernel: "" };

    /// A callback that logs `tag` with the event, for this thread's events only (other tests
    /// fire events at the same time).
    fn logger(log: &Arc<Mutex<Vec<(Event, &'static str)>>>, tag: &'static str) -> impl Fn(&Info<'_>) + Send + Sync + 'static {
        let log = log.clone();
        let me = std::thread::current().id();
        move |info| {
            if std::thread::current().id() == me {
                log.lock().unwrap().push((info.event, tag));
            }
        }
    }

    fn fire(e: Event) {
        super::super::emit(e, || Info::of(e, &R, (DeviceType::Host, 0), None));
    }

    #[test]
    fn callbacks_run_in_order_and_end_events_in_reverse() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let regs = [
            register(Event::UpdateStart, logger(&log, "first")),
            register(Event::UpdateStart, logger(&log, "second")),
            register(Event::UpdateEnd, logger(&log, "first")),
            register(Event::UpdateEnd, logger(&log, "second")),
        ];
        {
            let _span = super::super::Span::start(Event::UpdateStart, |e| Info::of(e, &R, (DeviceType::Host, 0), Some(3)));
            log.lock().unwrap().push((Event::WaitStart, "inside"));
        }
        regs.into_iter().for_each(unregister);
        fire(Event::UpdateStart);
        assert_eq!(
            *log.lock().unwrap(),
            [
                (Event::UpdateStart, "first"),
                (Event::UpdateStart, "second"),
                (Event::WaitStart, "inside"),
                (Event::UpdateEnd, "second"),
                (Event::UpdateEnd, "first"),
            ]
        );
    }

    #[test]
    fn nothing_registered_is_one_bit_test() {
        // Some event of the process loaded `ACC_PROFLIB` (none is set in the tests).
        fire(Event::Free);
        assert_eq!(MASK.load(Ordering::Relaxed) & UNLOADED, 0);
        assert!(!wanted(Event::Free), "no test registers `free`");
        let seen = std::cell::Cell::new(false);
        super::super::emit(Event::Free, || {
            seen.set(true);
            Info::of(Event::Free, &R, (DeviceType::Host, 0), None)
        });
        assert!(!seen.get(), "an event no one wants is never built");
    }

    #[test]
    fn toggles_keep_callbacks_registered() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let r = register(Event::DeviceShutdownEnd, logger(&log, "cb"));
        toggle_thread(false);
        fire(Event::DeviceShutdownEnd);
        toggle_thread(true);
        fire(Event::DeviceShutdownEnd);
        unregister(r);
        fire(Event::DeviceShutdownEnd);
        assert_eq!(*log.lock().unwrap(), [(Event::DeviceShutdownEnd, "cb")]);
    }

    #[test]
    fn a_panicking_callback_does_not_stop_the_others() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let me = std::thread::current().id();
        let a = register(Event::DeviceInitStart, move |_| assert_ne!(std::thread::current().id(), me, "this callback panics on its test's thread"));
        let b = register(Event::DeviceInitStart, logger(&log, "after"));
        fire(Event::DeviceInitStart);
        unregister(a);
        unregister(b);
        assert_eq!(*log.lock().unwrap(), [(Event::DeviceInitStart, "after")]);
    }

    #[test]
    fn event_codes_are_the_specifications() {
        assert_eq!(Event::ALL.map(Event::code), std::array::from_fn(|i| i as i32 + 1));
        assert_eq!((Event::from_code(0), Event::from_code(16), Event::from_code(26)), (None, Some(Event::ComputeConstructStart), None));
        assert_eq!(Event::ComputeConstructStart.c_name(), "acc_ev_compute_construct_start");
        assert_eq!(Event::WaitEnd.c_name(), "acc_ev_wait_end");
        assert!(Event::ALL.iter().all(|e| e.is_end() == Event::ALL.iter().any(|s| s.end() == Some(*e))));
    }
}
