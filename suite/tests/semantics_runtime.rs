//! The runtime API (DESIGN §2 "Runtime API"): `device_type`, `num_devices`, `init`/`shutdown`
//! (idempotent; `init` after `shutdown` works again), `set_device`. These tests change global
//! state (the current device, the present table), so they live in a test binary of their own
//! and take a lock: they never run at the same time as each other or as another test.

mod common;
use common::*;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

static GLOBAL: Mutex<()> = Mutex::new(());

/// Serialises the tests of this binary (a failed test does not poison the others).
fn serial() -> MutexGuard<'static, ()> {
    GLOBAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[acc::parallel]
fn checksum(a: &[u64]) -> u64 {
    let mut s = 0u64;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i] * (i as u64 + 1);
    }
    s
}

fn want_checksum(a: &[u64]) -> u64 {
    a.iter().enumerate().map(|(i, x)| x * (i as u64 + 1)).sum()
}

/// `device_type` is the one `ACC_DEVICE_TYPE` asks for (when set) and prints as the variable
/// spells it; there is one host device, and at least one of the current type.
#[test]
fn device_type_and_counts() {
    let _g = serial();
    let t = acc::device_type();
    match std::env::var("ACC_DEVICE_TYPE").ok().as_deref().map(str::to_ascii_lowercase).as_deref() {
        Some("host") => assert_eq!(t, acc::DeviceType::Host),
        Some("nvidia") => assert_eq!(t, acc::DeviceType::Nvidia),
        _ => {}
    }
    assert_eq!(format!("{:?}", acc::DeviceType::Host), "host");
    assert_eq!(format!("{:?}", acc::DeviceType::Nvidia), "nvidia");
    assert_eq!(acc::num_devices(acc::DeviceType::Host), 1);
    assert!(acc::num_devices(t) >= 1, "the current device type has a device");
    assert_eq!(acc::device_type(), t, "the choice is stable");
}

/// `init` and `shutdown` are idempotent; regions run after `shutdown` (the device opens again)
/// and after `init`.
#[test]
fn init_shutdown_idempotent() {
    let _g = serial();
    let t = acc::device_type();
    let a = vec_of(10_001, |i| hash(i) % 1000);
    acc::init();
    acc::init();
    assert_eq!(checksum(&a), want_checksum(&a));
    acc::shutdown();
    acc::shutdown();
    assert_eq!(checksum(&a), want_checksum(&a), "a region after shutdown opens the device again");
    acc::shutdown();
    acc::init();
    acc::init();
    assert_eq!(acc::device_type(), t, "shutdown keeps the device choice");
    assert_eq!(checksum(&a), want_checksum(&a));
}

/// `shutdown` releases everything present; data regions and `exit_data!` around it do not
/// fail, and the data can enter again afterwards.
#[test]
fn shutdown_releases_present_data() {
    let _g = serial();
    let a = vec_of(4096, |i| i as u64);
    acc::enter_data!(copyin(a));
    assert!(acc::is_present(&a));
    acc::shutdown();
    assert!(!acc::is_present(&a));
    acc::exit_data!(delete(a));
    acc::init();
    let mut b = vec![1u64; 4096];
    acc::data!(copy(b) {
        acc::shutdown();
        assert!(!acc::is_present(&b));
    });
    acc::data!(copyin(a) {
        assert!(acc::is_present(&a));
        assert_eq!(checksum(&a), want_checksum(&a));
    });
    assert!(!acc::is_present(&a));
    assert_eq!(b, vec![1u64; 4096]);
}

/// `set_device` to the current device keeps it; to the host device works and runs regions;
/// the host has no device 1; data entered on a device stays there while the thread is on
/// another (each device has its own present table) and is found again when it comes back.
#[test]
fn set_device_rules() {
    let _g = serial();
    let t = acc::device_type();
    let a = vec_of(777, |i| i as u64 * 3);
    acc::set_device(t, 0);
    assert_eq!(acc::device_type(), t);

    acc::set_device(acc::DeviceType::Host, 0);
    assert_eq!(acc::device_type(), acc::DeviceType::Host);
    assert_eq!(checksum(&a), want_checksum(&a));

    let e = catch_unwind(|| acc::set_device(acc::DeviceType::Host, 1)).expect_err("there is no host device 1");
    let msg = panic_message(&*e);
    assert!(msg.contains("1 host device"), "{msg}");
    assert_eq!(acc::device_type(), acc::DeviceType::Host);

    if acc::num_devices(acc::DeviceType::Nvidia) == 0 {
        let e = catch_unwind(|| acc::set_device(acc::DeviceType::Nvidia, 0)).expect_err("no NVIDIA device here");
        assert!(!panic_message(&*e).is_empty());
        assert_eq!(acc::device_type(), acc::DeviceType::Host);
    }

    // Back to the device the suite runs on: data entered there stays there while the thread
    // is on the host device, where a region that names it panics naming it.
    acc::set_device(t, 0);
    acc::enter_data!(copyin(a));
    acc::set_device(acc::DeviceType::Host, 0);
    if t != acc::DeviceType::Host {
        assert!(!acc::is_present(&a));
        let e = catch_unwind(AssertUnwindSafe(|| checksum(&a))).expect_err("`a` is on the GPU");
        let msg = panic_message(&*e);
        assert!(msg.contains("`a` is present on nvidia device 0, not on host device 0"), "{msg}");
    }
    acc::set_device(t, 0);
    assert!(acc::is_present(&a));
    assert_eq!(checksum(&a), want_checksum(&a));
    acc::exit_data!(delete(a));
    assert!(!acc::is_present(&a));
    assert_eq!(acc::device_type(), t);
}

/// `wait` and `wait_all` before, between and after `shutdown`.
#[test]
fn wait_across_shutdown() {
    let _g = serial();
    acc::wait_all();
    acc::wait(3);
    acc::shutdown();
    acc::wait(3);
    acc::wait_all();
    acc::init();
    acc::wait_all();
    let a = vec_of(999, |i| i as u64);
    assert_eq!(checksum(&a), want_checksum(&a), "regions run after waits around a shutdown");
}

/// Fills `a` one element at a time, in one thread: slow on purpose (on a GPU, milliseconds for
/// a few million elements), so that the work is still running when the host asks right after
/// the launch.
#[acc::serial(async(q))]
fn fill_slowly_on(a: &mut [u64], k: u64, q: i64) {
    for i in 0..a.len() {
        a[i] = (i as u64) * 3 + k;
    }
}

/// [`fill_slowly_on`] on the default queue: a bare `async`.
#[acc::serial(async)]
fn fill_slowly_default(a: &mut [u64], k: u64) {
    for i in 0..a.len() {
        a[i] = (i as u64) * 3 + k;
    }
}

#[acc::parallel(async(q))]
fn plus_one_on(a: &[u64], b: &mut [u64], q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..b.len() {
        b[i] = a[i] + 1;
    }
}

/// `acc::async_test(q)` / `acc::async_test_all()` (OpenACC's `acc_async_test`,
/// `acc_async_test_all`): a queue never used is done; right after a slow region was queued on
/// a GPU it is not; after `acc::wait(q)` it is, and so are all queues after `acc::wait_all()`;
/// a test that returned true leaves the results readable (the loop below reads them after
/// its last test, with no wait). On the host backend async work is done when the call
/// returns, so every test is true there.
#[test]
fn async_test_and_async_test_all() {
    let _g = serial();
    acc::wait_all();
    assert!(acc::async_test(41), "a queue never used is done");
    assert!(acc::async_test(acc::ASYNC_NOVAL), "the default queue, never used, is done");
    assert!(acc::async_test_all(), "no queue has work");
    let n = 1 << 22;
    let mut a = vec![0u64; n];
    let mut b = vec![0u64; n];
    acc::data!(create(a), copyout(b) {
        fill_slowly_on(&mut a, 2, 3);
        let early = acc::async_test(3);
        let early_all = acc::async_test_all();
        if on_host() {
            assert!(early && early_all, "the host backend's async work is done when queued");
        } else {
            assert!(!early, "a serial fill of {n} elements is still running right after its launch");
            assert!(!early_all, "queue 3 has work");
        }
        assert!(acc::async_test(4), "queue 4 has no work");
        acc::wait(3);
        assert!(acc::async_test(3), "done after acc::wait(3)");
        assert!(acc::async_test_all());
        plus_one_on(&a, &mut b, 5);
        while !acc::async_test(5) {
            std::hint::spin_loop();
        }
        assert!(acc::async_test_all());
    });
    assert_eq!(b, vec_of(n, |i| i as u64 * 3 + 3));
    let e = catch_unwind(|| acc::async_test(-3)).expect_err("queue -3 is refused");
    let msg = panic_message(&*e);
    assert!(msg.contains("acc::async_test: `-3` is not an async queue"), "{msg}");
}

/// `acc::set_default_async(q)` / `acc::default_async()` (OpenACC's `acc_set_default_async`,
/// `acc_get_default_async`, the `set default_async(q)` directive): a region with a bare
/// `async` runs on queue `q`, in order with what `async(q)` queues after it (on a GPU a region
/// on another queue would race with the slow fill and read elements it has not written yet),
/// and `acc::wait(-1)` waits for `q`; `-1` gives back the initial default, `-2` makes a bare
/// `async` synchronous; the choice is the thread's own.
#[test]
fn default_async_queue_takes_bare_async() {
    let _g = serial();
    assert_eq!(acc::default_async(), acc::ASYNC_NOVAL, "the initial default queue");
    acc::set_default_async(6);
    assert_eq!(acc::default_async(), 6);
    std::thread::spawn(|| assert_eq!(acc::default_async(), -1, "another thread keeps its own")).join().unwrap();
    for n in [1usize, 4097, 1 << 18] {
        let mut a = vec![0u64; n];
        let mut b = vec![0u64; n];
        acc::data!(create(a), copyout(b) {
            fill_slowly_default(&mut a, 5); // queue 6
            plus_one_on(&a, &mut b, 6); // after the fill, on queue 6
            acc::wait(-1); // the default queue: 6
            assert!(acc::async_test(6) && acc::async_test(-1));
        });
        assert_eq!(b, vec_of(n, |i| i as u64 * 3 + 6), "{n} elements");
    }
    let n = 1 << 22;
    let mut a = vec![0u64; n];
    acc::data!(copy(a) {
        fill_slowly_default(&mut a, 2);
        // On a GPU the slow fill is still running on queue 6 right after its launch.
        assert_eq!(acc::async_test(6), on_host(), "the bare async's work is queue 6's");
        acc::wait(6);
        assert!(acc::async_test(6) && acc::async_test_all());
    });
    assert_eq!(a, vec_of(n, |i| i as u64 * 3 + 2));
    acc::set_default_async(acc::ASYNC_SYNC);
    let mut a = vec![0u64; 4097];
    acc::data!(copy(a) {
        fill_slowly_default(&mut a, 1); // synchronous: no queue has work afterwards
        assert!(acc::async_test_all(), "a bare async with default -2 queues nothing");
    });
    assert_eq!(a, vec_of(4097, |i| i as u64 * 3 + 1));
    acc::set_default_async(acc::ASYNC_NOVAL);
    assert_eq!(acc::default_async(), -1);
    let e = catch_unwind(|| acc::set_default_async(-5)).expect_err("queue -5 is refused");
    assert!(panic_message(&*e).contains("acc::set_default_async: `-5` is not an async queue"));
    assert_eq!(acc::default_async(), -1);
}

/// `DeviceSlice::copy_from_device` / `copy_range_from_device` (OpenACC's
/// `acc_memcpy_device`): the elements land where they belong on the current device, and the
/// source is unchanged; a length that differs is refused.
#[test]
fn device_to_device_copies() {
    let _g = serial();
    for n in [1usize, 1000, 1 << 20] {
        let want = vec_of(n, hash);
        let a = acc::DeviceSlice::from_host(&want);
        let mut b = acc::DeviceSlice::<u64>::zeros(n);
        b.copy_from_device(&a);
        assert_eq!(b.to_host(), want, "{n} elements");
        let mut c = acc::DeviceSlice::<u64>::zeros(n + 7);
        c.copy_range_from_device(7, &a, n / 2..n);
        let got = c.to_host();
        assert!(got[..7].iter().all(|&x| x == 0), "{n}: before the range");
        assert_eq!(&got[7..7 + (n - n / 2)], &want[n / 2..], "{n}: the range");
        assert!(got[7 + (n - n / 2)..].iter().all(|&x| x == 0), "{n}: after the range");
        assert_eq!(a.to_host(), want, "the source is unchanged");
        let e = catch_unwind(AssertUnwindSafe(|| c.copy_from_device(&a))).expect_err("lengths differ");
        assert!(panic_message(&*e).contains("the source has"), "{}", panic_message(&*e));
    }
}

/// `acc::cuda_stream(q)` (OpenACC's `acc_get_cuda_stream`): on a GPU the queue's stream, the
/// same handle each time, one per queue, and the queue works on after it was handed out; `None`
/// on the host backend and for the synchronous queue (-2).
#[test]
fn cuda_stream_of_a_queue() {
    let _g = serial();
    assert!(acc::cuda_stream(acc::ASYNC_SYNC).is_none());
    if on_host() {
        assert!(acc::cuda_stream(0).is_none() && acc::cuda_stream(-1).is_none());
        return;
    }
    let s7 = acc::cuda_stream(7).expect("a GPU queue has a stream");
    assert!(!s7.is_null());
    assert_eq!(acc::cuda_stream(7), Some(s7), "the same stream each time");
    let s8 = acc::cuda_stream(8).expect("a stream");
    assert_ne!(s7, s8, "a stream per queue");
    acc::set_default_async(7);
    assert_eq!(acc::cuda_stream(-1), Some(s7), "-1 is the default queue");
    acc::set_default_async(acc::ASYNC_NOVAL);
    let n = 100_000;
    let mut a = vec![0u64; n];
    let mut b = vec![0u64; n];
    acc::data!(create(a), copyout(b) {
        fill_slowly_on(&mut a, 4, 7);
        plus_one_on(&a, &mut b, 7);
        acc::wait(7);
        assert!(acc::async_test(7));
    });
    assert_eq!(b, vec_of(n, |i| i as u64 * 3 + 5));
}

/// 1 where it runs on an NVIDIA GPU, 2 where it runs on the host: `acc::on_device` in a
/// routine.
#[acc::routine(seq)]
fn where_it_runs() -> u32 {
    acc::on_device(acc::DeviceType::Nvidia) as u32 + 2 * acc::on_device(acc::DeviceType::Host) as u32
}

/// `acc::on_device` in a region's body (and through a routine), where the region runs unless
/// `gpu` is false (`if(gpu)`: then on the host).
#[acc::parallel(if(gpu))]
fn where_regions_run(c: &mut [u32], r: &mut [u32], gpu: bool) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = acc::on_device(acc::DeviceType::Nvidia) as u32 + 2 * acc::on_device(acc::DeviceType::Host) as u32;
        r[i] = where_it_runs();
    }
}

/// `acc::on_device(t)` (OpenACC's `acc_on_device`): in host code true for the host only; in a
/// region's body and a routine it says where the body runs: the GPU when the suite runs on one
/// (1 in every element), the host on the host backend and for a region `if(false)` sends to
/// the host (2).
#[test]
fn on_device_says_where_code_runs() {
    let _g = serial();
    assert!(acc::on_device(acc::DeviceType::Host));
    assert!(!acc::on_device(acc::DeviceType::Nvidia));
    assert_eq!(where_it_runs(), 2, "a routine called from the host runs on the host");
    let n = 4097;
    let want = if on_host() { 2 } else { 1 };
    let (mut c, mut r) = (vec![0u32; n], vec![0u32; n]);
    where_regions_run(&mut c, &mut r, true);
    assert_eq!((c.clone(), r.clone()), (vec![want; n], vec![want; n]), "on {:?}", acc::device_type());
    where_regions_run(&mut c, &mut r, false);
    assert_eq!((c, r), (vec![2; n], vec![2; n]), "if(false) runs on the host");
}

/// `acc::property` / `acc::property_string` (OpenACC's `acc_get_property`,
/// `acc_get_property_string`): the host device is `host` by `acc`, shares memory, and has the
/// machine's memory (on Linux); a GPU has its driver's name, NVIDIA as vendor, a CUDA driver,
/// and the memory `acc::device_memory` reports; a device that does not exist, and a property of
/// the other kind, have none.
#[test]
fn device_properties() {
    let _g = serial();
    use acc::{property, property_string, DeviceType, Property};
    assert_eq!(property_string(DeviceType::Host, 0, Property::Name).as_deref(), Some("host"));
    assert_eq!(property_string(DeviceType::Host, 0, Property::Vendor).as_deref(), Some("acc"));
    assert!(property_string(DeviceType::Host, 0, Property::Driver).is_some_and(|d| d.starts_with("acc host backend")));
    assert_eq!(property(DeviceType::Host, 0, Property::SharedMemorySupport), Some(1));
    if cfg!(target_os = "linux") {
        let mem = property(DeviceType::Host, 0, Property::Memory).expect("the host's memory");
        let free = property(DeviceType::Host, 0, Property::FreeMemory).expect("the host's free memory");
        assert!(mem >= 1 << 26 && 0 < free && free <= mem, "{free} of {mem}");
    }
    assert_eq!(property(DeviceType::Host, 0, Property::Name), None);
    assert_eq!(property_string(DeviceType::Host, 0, Property::Memory), None);
    assert_eq!(property(DeviceType::Host, 1, Property::Memory), None, "no host device 1");
    let gpus = acc::num_devices(DeviceType::Nvidia);
    assert_eq!(property_string(DeviceType::Nvidia, gpus, Property::Name), None, "no such GPU");
    if gpus == 0 {
        return;
    }
    let name = property_string(DeviceType::Nvidia, 0, Property::Name).expect("a GPU's name");
    assert!(!name.is_empty());
    assert_eq!(property_string(DeviceType::Nvidia, 0, Property::Vendor).as_deref(), Some("NVIDIA"));
    let driver = property_string(DeviceType::Nvidia, 0, Property::Driver).expect("a driver");
    assert!(driver.starts_with("CUDA ") && driver[5..].contains('.'), "{driver}");
    assert_eq!(property(DeviceType::Nvidia, 0, Property::SharedMemorySupport), Some(0));
    let mem = property(DeviceType::Nvidia, 0, Property::Memory).expect("a GPU's memory");
    let free = property(DeviceType::Nvidia, 0, Property::FreeMemory).expect("a GPU's free memory");
    assert!(mem >= 1 << 30 && 0 < free && free <= mem, "{free} of {mem}");
    if (acc::device_type(), acc::device_num()) == (DeviceType::Nvidia, 0) {
        assert_eq!(acc::device_memory().map(|(_, total)| total), Some(mem), "what device_memory says");
    }
}
