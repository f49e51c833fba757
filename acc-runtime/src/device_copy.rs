//! [`DeviceCopy`]: the data that can move between host and device memory as bytes.

/// Types whose values can be copied bit for bit between host and device memory: plain
/// data with no pointers, references or host resources.
///
/// Implemented for the integers, floats, `bool`, `char` and arrays of `DeviceCopy`; the
/// `acc` derive implements it for `#[repr(C)]` structs of `DeviceCopy` fields.
///
/// # Safety
///
/// An implementor guarantees that a byte copy of a value is the same value in any address
/// space (no pointers or references inside), and that the all-zero bit pattern is a valid
/// value (so that [`DeviceSlice::zeros`](crate::DeviceSlice::zeros) can make them).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not `DeviceCopy`: its values cannot be copied to the device",
    label = "not plain device data",
    note = "`DeviceCopy` types are the integers, floats, `bool`, `char`, arrays of them, and `#[repr(C)]` structs with `#[derive(acc::DeviceCopy)]`; types that own host memory (`String`, `Vec`, `Box`) or hold references are not"
)]
pub unsafe trait DeviceCopy: Copy {}

macro_rules! device_copy {
    ($($t:ty),*) => {$(
        // SAFETY: a primitive scalar: plain bits, valid when all zero.
        unsafe impl DeviceCopy for $t {}
    )*};
}

device_copy!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64, bool, char);

// SAFETY: an array of `DeviceCopy` values is plain bits if its elements are, and zero when
// they are.
unsafe impl<T: DeviceCopy, const N: usize> DeviceCopy for [T; N] {}

// SAFETY: `Captures` is `repr(C)` bytes and a length, `Copy`, and all-zero is a valid value
// (no values); the kernel reads it with the same layout (it is acc-device's own type).
// Internal (kernels take their captures as one): kept out of the "other types implement
// `DeviceCopy`" list of users' errors.
#[diagnostic::do_not_recommend]
unsafe impl DeviceCopy for acc_device::Captures {}
