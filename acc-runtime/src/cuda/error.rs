//! Errors of the CUDA backend.

use std::fmt;

use acc_device::panic::PanicRecord;
use cudarc::driver::{result::DriverError, sys};

/// A failure of the CUDA backend: a driver call that failed, a kernel that panicked, or a
/// backend that cannot be used. The runtime turns it into a panic naming the region.
#[derive(Clone)]
pub enum CudaError {
    /// No usable driver or device.
    Unavailable(String),
    /// A driver call failed: the call, the driver's error name and text, and what the
    /// backend was doing.
    Driver {
        /// The driver function (`cuMemAlloc`, `cuLaunchKernel`...).
        call: &'static str,
        /// The driver's code.
        code: sys::CUresult,
        /// What the backend was doing (`allocating 4096 bytes`...).
        doing: String,
    },
    /// The PTX did not load (the JIT compiler's log).
    Jit {
        /// The driver's code.
        code: sys::CUresult,
        /// The JIT compiler's error log.
        log: String,
    },
    /// A kernel panicked: its name (when known) and the device's record of the panic.
    KernelPanic {
        /// The kernel that was running.
        kernel: Option<String>,
        /// File, line, column, message, block and thread of the panic.
        record: Box<PanicRecord>,
    },
    /// The failure of an earlier synchronous launch whose wait was left to this call
    /// (`deferred.rs`): the region it ran, and its error.
    Pending {
        /// How messages name the region (`region `jacld` (src/lu.rs:1230)`), when known.
        region: Option<String>,
        /// The launch's failure.
        error: Box<CudaError>,
    },
    /// An earlier kernel failure left the context unusable (a `trap` or a fault ends a CUDA
    /// context for good); every later call reports it.
    Poisoned(String),
    /// The caller asked for something the backend cannot do (a launch shape, an argument).
    Invalid(String),
}

impl CudaError {
    pub(crate) fn driver(call: &'static str, e: DriverError, doing: impl Into<String>) -> Self {
        CudaError::Driver { call, code: e.0, doing: doing.into() }
    }

    /// True when the context can no longer be used (a kernel trapped or faulted). A kernel
    /// panic by itself leaves it usable (the backend marks it lost when the panic came with
    /// a trap or a fault).
    pub fn is_sticky(&self) -> bool {
        match self {
            CudaError::Poisoned(_) => true,
            CudaError::Driver { code, .. } => is_sticky(*code),
            CudaError::Pending { error, .. } => error.is_sticky(),
            _ => false,
        }
    }
}

/// Codes after which the context is lost.
pub(crate) fn is_sticky(code: sys::CUresult) -> bool {
    use sys::CUresult::*;
    matches!(
        code,
        CUDA_ERROR_ILLEGAL_ADDRESS
            | CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUDA_ERROR_MISALIGNED_ADDRESS
            | CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUDA_ERROR_INVALID_PC
            | CUDA_ERROR_LAUNCH_FAILED
            | CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUDA_ERROR_ASSERT
            | CUDA_ERROR_LAUNCH_TIMEOUT
    )
}

fn code_text(code: sys::CUresult) -> String {
    let e = DriverError(code);
    match (e.error_name(), e.error_string()) {
        (Ok(n), Ok(s)) => format!("{} ({})", n.to_string_lossy(), s.to_string_lossy()),
        _ => format!("{code:?}"),
    }
}

impl fmt::Display for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CudaError::Unavailable(why) => write!(f, "no CUDA device: {why}"),
            CudaError::Driver { call, code, doing } => {
                write!(f, "CUDA error while {doing}: {call} returned {}", code_text(*code))
            }
            CudaError::Jit { code, log } => {
                write!(f, "the GPU code did not load: cuModuleLoadDataEx returned {}", code_text(*code))?;
                if !log.trim().is_empty() {
                    write!(f, "\n{}", log.trim_end())?;
                }
                Ok(())
            }
            CudaError::KernelPanic { kernel, record } => {
                match kernel {
                    Some(k) => write!(f, "kernel `{k}` panicked at ")?,
                    None => f.write_str("a kernel panicked at ")?,
                }
                let (column, printed) = record.location_column();
                let (line, column) = crate::columns::source_place(record.file(), record.line, column, printed);
                write!(f, "{}:{line}:{column}: ", record.file())?;
                record.write_message(f)?;
                let ([bx, by, bz], [tx, ty, tz]) = (record.block, record.thread);
                write!(f, " (block ({bx}, {by}, {bz}), thread ({tx}, {ty}, {tz}))")
            }
            CudaError::Pending { region, error } => {
                write!(f, "{error}")?;
                match region {
                    Some(r) => write!(f, ", in {r}, an earlier region whose kernel this call waited for (ACC_LAUNCH_BLOCKING=1 waits at each region)"),
                    None => f.write_str(", in an earlier launch this call waited for (ACC_LAUNCH_BLOCKING=1 waits at each region)"),
                }
            }
            CudaError::Poisoned(why) => {
                write!(f, "the CUDA context is unusable after an earlier failure: {why}")
            }
            CudaError::Invalid(why) => f.write_str(why),
        }
    }
}

impl fmt::Debug for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for CudaError {}

impl From<CudaError> for String {
    fn from(e: CudaError) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pending_launch_failure_names_its_region_and_keeps_its_stickiness() {
        let sticky = CudaError::Poisoned("a kernel faulted".into());
        let e = CudaError::Pending { region: Some("region `jacld` (src/lu.rs:1230)".into()), error: Box::new(sticky) };
        assert!(e.is_sticky());
        let text = e.to_string();
        assert!(text.ends_with(", in region `jacld` (src/lu.rs:1230), an earlier region whose kernel this call waited for (ACC_LAUNCH_BLOCKING=1 waits at each region)"), "{text}");
        assert!(text.starts_with("the CUDA context is unusable after an earlier failure: a kernel faulted"), "{text}");
        let plain = CudaError::Pending { region: None, error: Box::new(CudaError::Invalid("boom".into())) };
        assert!(!plain.is_sticky());
        assert_eq!(plain.to_string(), "boom, in an earlier launch this call waited for (ACC_LAUNCH_BLOCKING=1 waits at each region)");
    }
}
