//! [`Mirror`]: an owned host array with a device copy (RAII `enter data` / `exit data`).

use std::fmt;
use std::ops::{Deref, DerefMut};

use std::sync::Arc;

use super::{enter_data_in, present_counts_in, try_exit_data_in, update_in, view, EnterClause, ExitClause, HostData, HostView};
use crate::devices::{self, Device};
use crate::region_info::{at_caller, RegionInfo, MIRROR};

/// An owned host array with a device copy: OpenACC's unstructured data lifetime as a value.
///
/// [`Mirror::new`] enters the data (`copyin`, dynamic reference), [`Deref`] gives the host
/// copy, [`update_device`](Self::update_device) and [`update_host`](Self::update_host) copy
/// between the two, [`into_inner`](Self::into_inner) copies out and exits, and dropping it
/// exits without copying (`delete`). While it lives, regions that name the data find it
/// present and move nothing.
///
/// ```
/// use acc_runtime::{is_present, Mirror};
/// let mut m = Mirror::new(vec![1.0f32, 2.0, 3.0]);
/// assert!(is_present(&*m));
/// m[0] = 5.0;          // the host copy
/// m.update_device();   // ... sent to the device copy
/// let v = m.into_inner();
/// assert_eq!(v, [5.0, 2.0, 3.0]);
/// assert!(!is_present(&v));
/// ```
///
/// The data is boxed, so arrays keep their address when the `Mirror` moves. The host data
/// must keep its place and length while mirrored: growing a mirrored `Vec` through
/// `DerefMut` (which may reallocate it) makes the next update or `into_inner` panic.
pub struct Mirror<D: HostData> {
    /// `None` only between `into_inner` taking it and the drop that follows.
    data: Option<Box<D>>,
    view: HostView,
    /// The device the data entered (its thread's device at [`Mirror::new`]): the mirror's
    /// updates and its exit act there, from any thread.
    device: Arc<Device>,
    /// What its transfers and panics are reported under: `acc::Mirror` at the line of its
    /// [`Mirror::new`].
    pub(crate) region: &'static RegionInfo,
}

impl<D: HostData> Mirror<D> {
    /// Puts `d` on the device: present-or-copyin, dynamic reference count +1. Its panics
    /// and `ACC_NOTIFY` lines name the line of this call.
    #[track_caller]
    pub fn new(d: D) -> Self {
        let region = at_caller(&MIRROR, std::panic::Location::caller());
        let data = Box::new(d);
        let v = view(&*data);
        let device = devices::current_device();
        enter_data_in(&device, region, "Mirror", v, EnterClause::CopyIn);
        Mirror {
            data: Some(data),
            view: v,
            device,
            region,
        }
    }

    fn data(&self) -> &D {
        self.data
            .as_deref()
            .expect("a Mirror holds its data until dropped")
    }

    fn check(&self, what: &str) {
        if view(self.data()) != self.view {
            panic!(
                "acc::Mirror::{what}: the host data moved or changed length while mirrored \
                 (e.g. a `push` on a mirrored Vec); a mirrored array must keep its place and length"
            );
        }
        if self.view.bytes > 0 && present_counts_in(&self.device, self.view).is_none() {
            panic!(
                "acc::Mirror::{what}: the data is no longer on {} (was `acc::shutdown` called, or was the device lost to a fault?)",
                self.device
            );
        }
    }

    /// Copies the host copy to the device copy (`update device`).
    pub fn update_device(&self) {
        self.check("update_device");
        update_in(&self.device, self.region, "Mirror", self.view, false, false);
    }

    /// Copies the device copy to the host copy (`update host`).
    pub fn update_host(&mut self) {
        self.check("update_host");
        update_in(&self.device, self.region, "Mirror", self.view, false, true);
    }

    /// The device address of the data (on the host backend, its host address).
    pub fn device_ptr(&self) -> u64 {
        self.check("device_ptr");
        super::DataScope::on_device(self.region, self.device.clone()).device_ptr(self.view)
    }

    /// Copies the device copy back (`exit data copyout`) and returns the host data.
    pub fn into_inner(mut self) -> D {
        self.check("into_inner");
        try_exit_data_in(&self.device, self.region, "Mirror", self.view, ExitClause::CopyOut, false).unwrap_or_else(|msg| panic!("{msg}"));
        *self
            .data
            .take()
            .expect("a Mirror holds its data until dropped")
    }
}

impl<D: HostData> Drop for Mirror<D> {
    fn drop(&mut self) {
        if self.data.is_some() {
            // `delete` never writes to the host, so this is fine even if the data moved. A
            // panic while unwinding (a failed region inside the Mirror's scope) would abort the
            // process: then the error is reported instead, as `DataScope` does.
            if let Err(msg) = try_exit_data_in(&self.device, self.region, "Mirror", self.view, ExitClause::Delete, false) {
                if std::thread::panicking() {
                    eprintln!("{msg}");
                } else {
                    panic!("{msg}");
                }
            }
        }
    }
}

impl<D: HostData> Deref for Mirror<D> {
    type Target = D;
    fn deref(&self) -> &D {
        self.data()
    }
}

impl<D: HostData> DerefMut for Mirror<D> {
    fn deref_mut(&mut self) -> &mut D {
        self.data
            .as_deref_mut()
            .expect("a Mirror holds its data until dropped")
    }
}

impl<D: HostData> HostData for Mirror<D> {
    type Elem = D::Elem;
    fn host_ptr(&self) -> *const D::Elem {
        self.data().host_ptr()
    }
    fn host_len(&self) -> usize {
        self.data().host_len()
    }
}

impl<D: HostData + fmt::Debug> fmt::Debug for Mirror<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Mirror").field(self.data()).finish()
    }
}
