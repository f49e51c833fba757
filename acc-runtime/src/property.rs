//! Device properties: OpenACC's `acc_get_property` ([`property`], the numeric ones) and
//! `acc_get_property_string` ([`property_string`], the strings), of any device by type and
//! number.

use crate::devices::{self, DeviceType};

/// A property of a device (OpenACC's `acc_device_property_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    /// The device's memory in bytes (`acc_property_memory`): a GPU's memory; the host's
    /// physical memory on the host device. Numeric.
    Memory,
    /// The device's free memory in bytes (`acc_property_free_memory`): on a GPU the driver's
    /// count (`cuMemGetInfo`, with the memory acc keeps for reuse counted as free, as
    /// [`device_memory`](crate::device_memory) does); on the host, the memory Linux reports
    /// available. Numeric.
    FreeMemory,
    /// Whether acc's regions on the device use the host's memory in place, 1 or 0
    /// (`acc_property_shared_memory_support`): 1 on the host device, 0 on a GPU (acc copies
    /// data into its memory). Numeric.
    SharedMemorySupport,
    /// The device's name (`acc_property_name`): the driver's (`NVIDIA H200`), `host` on the
    /// host device. A string.
    Name,
    /// The device's vendor (`acc_property_vendor`): `NVIDIA`, `acc` on the host device (acc's
    /// own backend). A string.
    Vendor,
    /// The device's driver (`acc_property_driver`): `CUDA 12.4`, the CUDA version the NVIDIA
    /// driver supports (`cuDriverGetVersion`); on the host device, acc's host backend and its
    /// version. A string.
    Driver,
}

/// The numeric property `p` of device `num` of type `ty` (OpenACC's `acc_get_property`):
/// `None` for a string property, for a device that does not exist, and where the value cannot
/// be had (the host's memory outside Linux). Asking a GPU's [`Property::FreeMemory`] opens
/// that device, as [`init`](crate::init) would.
///
/// ```
/// use acc_runtime::{property, DeviceType, Property};
/// assert_eq!(property(DeviceType::Host, 0, Property::SharedMemorySupport), Some(1));
/// assert_eq!(property(DeviceType::Host, 0, Property::Name), None, "a string property");
/// assert_eq!(property(DeviceType::Host, 1, Property::Memory), None, "there is one host device");
/// ```
pub fn property(ty: DeviceType, num: usize, p: Property) -> Option<usize> {
    if num >= devices::num_devices(ty) {
        return None;
    }
    match ty {
        DeviceType::Host => host_number(p),
        DeviceType::Nvidia => gpu_number(num, p),
    }
}

/// The string property `p` of device `num` of type `ty` (OpenACC's
/// `acc_get_property_string`): `None` for a numeric property and for a device that does not
/// exist.
///
/// ```
/// use acc_runtime::{property_string, DeviceType, Property};
/// assert_eq!(property_string(DeviceType::Host, 0, Property::Name).as_deref(), Some("host"));
/// assert_eq!(property_string(DeviceType::Host, 0, Property::Memory), None, "a numeric property");
/// ```
pub fn property_string(ty: DeviceType, num: usize, p: Property) -> Option<String> {
    if num >= devices::num_devices(ty) {
        return None;
    }
    match ty {
        DeviceType::Host => host_string(p),
        DeviceType::Nvidia => gpu_string(num, p),
    }
}

fn host_number(p: Property) -> Option<usize> {
    match p {
        Property::Memory => host_memory(),
        Property::FreeMemory => host_available_memory(),
        Property::SharedMemorySupport => Some(1),
        Property::Name | Property::Vendor | Property::Driver => None,
    }
}

fn host_string(p: Property) -> Option<String> {
    match p {
        Property::Name => Some("host".into()),
        Property::Vendor => Some("acc".into()),
        Property::Driver => {
            Some(concat!("acc host backend ", env!("CARGO_PKG_VERSION"), " (rayon)").into())
        }
        Property::Memory | Property::FreeMemory | Property::SharedMemorySupport => None,
    }
}

/// The host's physical memory in bytes (`sysconf`), where the system says.
fn host_memory() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: `sysconf` has no preconditions; a negative result means "unknown".
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        (pages > 0 && size > 0).then(|| pages as usize * size as usize)
    }
    #[cfg(not(unix))]
    None
}

/// The host memory Linux reports available (`MemAvailable` of `/proc/meminfo`), in bytes.
fn host_available_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let kib: usize = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(feature = "cuda")]
fn gpu_number(num: usize, p: Property) -> Option<usize> {
    match p {
        Property::Memory => crate::cuda::device_facts(num)
            .ok()
            .map(|(_, total, _)| total),
        Property::FreeMemory => devices::device(DeviceType::Nvidia, num)
            .backend()
            .ok()?
            .memory()
            .map(|(free, _)| free),
        Property::SharedMemorySupport => Some(0),
        Property::Name | Property::Vendor | Property::Driver => None,
    }
}

#[cfg(feature = "cuda")]
fn gpu_string(num: usize, p: Property) -> Option<String> {
    match p {
        Property::Name => crate::cuda::device_facts(num).ok().map(|(name, _, _)| name),
        Property::Vendor => Some("NVIDIA".into()),
        Property::Driver => crate::cuda::device_facts(num)
            .ok()
            .map(|(_, _, v)| format!("CUDA {}.{}", v / 1000, v % 1000 / 10)),
        Property::Memory | Property::FreeMemory | Property::SharedMemorySupport => None,
    }
}

// Without the `cuda` feature there are no NVIDIA devices (`num_devices` is 0), so these are
// never reached.
#[cfg(not(feature = "cuda"))]
fn gpu_number(_: usize, _: Property) -> Option<usize> {
    None
}

#[cfg(not(feature = "cuda"))]
fn gpu_string(_: usize, _: Property) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_properties() {
        let mem = property(DeviceType::Host, 0, Property::Memory);
        let free = property(DeviceType::Host, 0, Property::FreeMemory);
        if cfg!(target_os = "linux") {
            let (mem, free) = (mem.expect("Linux says"), free.expect("Linux says"));
            assert!(
                mem >= 1 << 26 && free > 0 && free <= mem,
                "{free} of {mem} bytes"
            );
        }
        assert_eq!(
            property(DeviceType::Host, 0, Property::SharedMemorySupport),
            Some(1)
        );
        assert_eq!(
            property_string(DeviceType::Host, 0, Property::Vendor).as_deref(),
            Some("acc")
        );
        let driver = property_string(DeviceType::Host, 0, Property::Driver).unwrap();
        assert!(
            driver.starts_with("acc host backend ") && driver.contains(env!("CARGO_PKG_VERSION")),
            "{driver}"
        );
        for p in [Property::Name, Property::Vendor, Property::Driver] {
            assert_eq!(property(DeviceType::Host, 0, p), None, "{p:?} is a string");
        }
        for p in [
            Property::Memory,
            Property::FreeMemory,
            Property::SharedMemorySupport,
        ] {
            assert_eq!(
                property_string(DeviceType::Host, 0, p),
                None,
                "{p:?} is a number"
            );
        }
        #[cfg(not(feature = "cuda"))]
        assert_eq!(
            property_string(DeviceType::Nvidia, 0, Property::Name),
            None,
            "no GPU without the `cuda` feature"
        );
    }
}
