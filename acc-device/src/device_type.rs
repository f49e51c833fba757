//! [`DeviceType`], OpenACC's `acc_device_t` (the types acc implements), and [`on_device`]:
//! one definition for the host runtime (which re-exports both as `acc::DeviceType` and
//! `acc::on_device`) and for the kernels (where `acc::` is this crate), so that a region body
//! or a `#[acc::routine]` that asks where it runs means the same in both builds.

use core::fmt;

/// A device type, as OpenACC's `acc_device_t` (only the ones acc implements).
///
/// `Debug` prints the value `ACC_DEVICE_TYPE` takes: `host` or `nvidia`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceType {
    /// The host CPU: regions run in parallel on rayon's pool, data is shared.
    Host,
    /// An NVIDIA GPU driven through CUDA (feature `cuda`).
    Nvidia,
}

impl DeviceType {
    /// The name `ACC_DEVICE_TYPE` uses for this type: `"host"` or `"nvidia"`.
    pub fn as_str(self) -> &'static str {
        match self {
            DeviceType::Host => "host",
            DeviceType::Nvidia => "nvidia",
        }
    }
}

impl fmt::Debug for DeviceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for DeviceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether the code calling it runs on a device of type `t` (OpenACC's `acc_on_device`):
/// in a kernel on an NVIDIA GPU, for [`DeviceType::Nvidia`] only; anywhere else (the host
/// program, a region run by the host backend, a routine called from the host), for
/// [`DeviceType::Host`] only. It is decided when the code is compiled (for `nvptx64` or for
/// the host), so it costs nothing and folds away in `if`s.
///
/// ```
/// use acc_device::{on_device, DeviceType};
/// // This doctest runs on the host.
/// assert!(on_device(DeviceType::Host) && !on_device(DeviceType::Nvidia));
/// ```
#[inline(always)]
pub const fn on_device(t: DeviceType) -> bool {
    let here = if cfg!(target_arch = "nvptx64") {
        DeviceType::Nvidia
    } else {
        DeviceType::Host
    };
    matches!(
        (t, here),
        (DeviceType::Host, DeviceType::Host) | (DeviceType::Nvidia, DeviceType::Nvidia)
    )
}
