//! `ACC_PROFLIB`: the tools the runtime loads at its first event point, each handed the
//! interface's routines through its `acc_register_library`; and `runtime_shutdown` at the
//! process's exit once anything registered.

use std::sync::{Once, OnceLock};

use super::{ffi, Construct, Event, Info};
use crate::backend::DeviceType;

/// The variable naming the tools' libraries (several separated by `;`).
pub const PROFLIB_VAR: &str = "ACC_PROFLIB";

/// The libraries loaded, kept for the process's life (their callbacks stay registered).
static LIBRARIES: OnceLock<Vec<libloading::Library>> = OnceLock::new();

/// Whether [`load`] has run.
pub(super) fn loaded() -> bool {
    LIBRARIES.get().is_some()
}

/// Loads the libraries `ACC_PROFLIB` names, once (later calls wait for the first), and calls
/// their `acc_register_library` with the interface's routines `routines` (`acc_prof_register`,
/// `acc_prof_unregister`, `acc_prof_lookup`). A library that cannot be loaded, or has no such
/// function, is reported on stderr and skipped.
pub(super) fn load(reg: ffi::acc_prof_reg, unreg: ffi::acc_prof_reg, lookup: ffi::acc_prof_lookup_func) {
    LIBRARIES.get_or_init(|| {
        let Some(paths) = std::env::var_os(PROFLIB_VAR) else { return Vec::new() };
        let paths = paths.to_string_lossy().into_owned();
        paths.split(';').filter(|p| !p.trim().is_empty()).filter_map(|p| open(p.trim(), (reg, unreg, lookup)).map_err(|e| eprintln!("acc: {PROFLIB_VAR}: {p}: {e}")).ok()).collect()
    });
}

/// Loads the library at `path` and calls its `acc_register_library` with `routines`.
fn open(path: &str, routines: (ffi::acc_prof_reg, ffi::acc_prof_reg, ffi::acc_prof_lookup_func)) -> Result<libloading::Library, String> {
    // SAFETY: loading a tool runs its initialisers: what `ACC_PROFLIB` asks for, as in every
    // OpenACC runtime.
    let lib = unsafe { libloading::Library::new(path) }.map_err(|e| e.to_string())?;
    {
        // SAFETY: the specification gives `acc_register_library` this type.
        let register = unsafe { lib.get::<ffi::acc_register_library>(b"acc_register_library\0") }.map_err(|e| e.to_string())?;
        at_exit();
        // SAFETY: the routines handed over are the interface's, of the types the tool expects.
        unsafe { register(routines.0, routines.1, routines.2) };
    }
    Ok(lib)
}

/// Fires `runtime_shutdown` when the process exits (arranged once, at the first registration).
pub(super) fn at_exit() {
    static ARMED: Once = Once::new();
    extern "C" fn runtime_shutdown() {
        // A panic must not cross the C boundary; nothing is left to do then.
        let _ = std::panic::catch_unwind(|| {
            super::emit(Event::RuntimeShutdown, || Info::api(Event::RuntimeShutdown, "exit", Construct::RuntimeApi, (DeviceType::Host, 0), None));
        });
    }
    // SAFETY: `runtime_shutdown` is an `extern "C" fn()` that does not unwind; registered once.
    ARMED.call_once(|| unsafe {
        libc::atexit(runtime_shutdown);
    });
}
