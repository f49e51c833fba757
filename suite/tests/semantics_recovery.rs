//! Device faults (DESIGN §4.5, issue 16). A kernel that panics ends only its panicking thread
//! (the rest of the launch runs on, and a block with a thread gone stops at its next
//! barrier): the region's call panics with the user's `file:line`, its data regions copy
//! back as they unwind, and the device goes on: its present data, its queues and later
//! regions work as on the host backend, where a panicking region is an ordinary panic.
//!
//! A kernel that faults without acc's panic record (a launch failure: an illegal address)
//! ends its CUDA context, and the CUDA driver keeps such a context unusable until the process
//! ends (a reset of the primary context does not bring it back: retaining it again fails with
//! `CUDA_ERROR_LAUNCH_FAILED`, seen on H200s with CUDA 13; nor can another GPU be opened after
//! it). acc reports it once, naming the data that lived only on the device (now lost); later
//! uses of that device are panics saying why, and regions go on on the host device, when the
//! program selects it. That test runs in a child process of its own (this binary again, on
//! one test), so that the device stays usable for the other tests. Out of device memory is a
//! panic naming the region and the bytes asked, with nothing leaked and the next region
//! working on the same device.

mod common;
use common::*;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(feature = "cuda")]
/// Runs `body`: here on the host backend, in a child process (this binary on test `name`) on
/// a GPU, whose output is printed here. Returns the child's standard error, if it ran one.
fn isolated(name: &str, body: fn()) -> Option<String> {
    if on_host() || std::env::var_os("ACC_RECOVERY_CHILD").is_some() {
        body();
        return None;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("ACC_RECOVERY_CHILD", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    println!("{}", String::from_utf8_lossy(&out.stdout));
    eprintln!("{err}");
    assert!(out.status.success(), "child {name} failed");
    Some(err)
}

#[acc::parallel(present(a))]
fn double_present(a: &mut [u64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] *= 2;
    }
}

#[acc::parallel]
fn gather(a: &[u64], idx: &[usize], c: &mut [u64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[idx[i]];
    }
}

#[acc::parallel(async(q))]
fn gather_async(a: &[u64], idx: &[usize], c: &mut [u64], q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[idx[i]];
    }
}

#[acc::parallel]
fn sum(a: &[u64]) -> u64 {
    let mut s = 0u64;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

/// Row sums through an index, a worker-vector reduction per gang: a kernel with barriers and
/// warp shuffles, where a panicking thread leaves the others of its block behind.
#[acc::parallel(num_workers(4), vector_length(32))]
fn row_sums(m: &[u64], idx: &[usize], out: &mut [u64]) {
    #[acc::r#loop(gang)]
    for r in 0..out.len() {
        let mut s = 0u64;
        #[acc::r#loop(worker, vector, reduction(+: s))]
        for j in 0..256 {
            s += m[idx[r * 256 + j]];
        }
        out[r] = s;
    }
}

#[acc::parallel(copy(small), create(big))]
fn touch(small: &mut [u64], big: &mut [u8]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..small.len() {
        small[i] += 1;
    }
}

/// The region's call panics with the kernel's message and the region's name.
fn expect_panic(what: &str, f: impl FnOnce()) -> String {
    let e = catch_unwind(AssertUnwindSafe(f)).expect_err(what);
    panic_message(&*e)
}

/// A kernel panic in a synchronous region, then another one: each is reported with its own
/// index (the device's record is cleared after each), the data present before stays present
/// with its device copy, the region's `copy` data came back as the kernel left it, and later
/// regions run on the same device.
#[test]
fn kernel_panic_leaves_the_device_usable() {
    let _g = serial();
    let mut keep = vec_of(5000, |i| i as u64);
    let before = keep.clone();
    acc::enter_data!(copyin(keep));
    double_present(&mut keep); // only the device copy is doubled (on a GPU)
    let a = vec_of(1000, |i| i as u64);
    for bad in [500usize, 7] {
        let idx = vec_of(1000, |i| if i == bad { (1 << 20) + bad } else { i });
        let mut c = vec![0u64; 1000];
        let msg = expect_panic("out of bounds", || gather(&a, &idx, &mut c));
        assert!(msg.contains(&format!("index out of bounds: the len is 1000 but the index is {}", (1 << 20) + bad)), "{msg}");
        assert!(on_host() || (msg.contains("region `gather`") && msg.contains("tests/semantics_recovery.rs:")), "{msg}");
    }
    assert!(acc::is_present(&keep), "present data stays present");
    acc::update!(host(keep));
    assert_eq!(keep, before.iter().map(|x| 2 * x).collect::<Vec<_>>(), "its device copy is intact");
    acc::exit_data!(delete(keep));
    regions_run();
}

/// A kernel panic in a kernel with barriers and warp shuffles (a worker-vector reduction): the
/// panicking thread's block stops at its next barrier instead of waiting for it; the call
/// reports the panic, and the same kernel then runs right.
#[test]
fn kernel_panic_with_barriers_leaves_the_device_usable() {
    let _g = serial();
    let rows = 40;
    let m = vec_of(256, |i| i as u64);
    let mut out = vec![0u64; rows];
    let mut idx = vec_of(rows * 256, |i| i % 256);
    idx[17 * 256 + 100] = 256; // one thread of row 17's block
    let msg = expect_panic("out of bounds", || row_sums(&m, &idx, &mut out));
    assert!(msg.contains("index out of bounds: the len is 256 but the index is 256"), "{msg}");
    assert!(on_host() || msg.contains("region `row_sums`"), "{msg}");
    idx[17 * 256 + 100] = 100;
    row_sums(&m, &idx, &mut out);
    assert_eq!(out, vec![255 * 256 / 2; rows]);
    regions_run();
}

/// A kernel panic on an async queue, reported by the wait with the region's name; the queue,
/// a `Mirror` and data present before work on.
#[test]
fn async_kernel_panic_reported_at_wait() {
    let _g = serial();
    let keep = vec_of(3000, |i| 7 * i as u64);
    acc::enter_data!(copyin(keep));
    let mut m = acc::Mirror::new(vec![1u64; 64]);
    let a = vec_of(1000, |i| i as u64);
    let idx = vec_of(1000, |i| if i == 10 { 5000 } else { i });
    let mut c = vec![0u64; 1000];
    let msg = expect_panic("out of bounds on queue 2", || {
        acc::data!(copyin(a, idx), create(c) {
            gather_async(&a, &idx, &mut c, 2);
            acc::wait(2);
        })
    });
    assert!(msg.contains("index out of bounds: the len is 1000 but the index is 5000"), "{msg}");
    assert!(on_host() || msg.contains("gather_async"), "{msg}");
    let idx = vec_of(1000, |i| 999 - i);
    acc::data!(copyin(a, idx), copyout(c) {
        gather_async(&a, &idx, &mut c, 2);
        acc::wait(2);
    });
    assert_eq!(c, vec_of(1000, |i| 999 - i as u64), "queue 2 works on");
    m.update_host();
    assert_eq!(m[63], 1);
    assert!(acc::is_present(&keep));
    acc::exit_data!(delete(keep));
    drop(m);
    regions_run();
}

fn regions_run() {
    let a = vec_of(100_000, |i| i as u64);
    assert_eq!(sum(&a), 99_999 * 100_000 / 2);
    let mut c = vec![0u64; 1000];
    let idx = vec_of(1000, |i| 999 - i);
    acc::data!(copyin(a, idx), copy(c) {
        gather(&a, &idx, &mut c);
    });
    assert_eq!(c, vec_of(1000, |i| 999 - i as u64));
}

#[cfg(feature = "cuda")]
/// After the fault: the lost device refuses regions, saying why; the host device runs them. A
/// GPU opened before the fault (`other`: a thread on GPU 1 ran a region) and one opened after
/// it: CUDA refuses every device of a process once one faulted (seen with CUDA 13), so a
/// region there is a panic that says so, or (were a driver to allow it) runs right.
fn after_fault(other: Option<std::thread::JoinHandle<()>>) {
    if on_host() {
        regions_run();
        return;
    }
    let a = vec_of(10, |i| i as u64);
    let e = catch_unwind(AssertUnwindSafe(|| sum(&a))).expect_err("the lost device refuses regions");
    let msg = panic_message(&*e);
    let num = std::env::var("ACC_DEVICE_NUM").unwrap_or_else(|_| "0".into());
    assert!(msg.contains(&format!("nvidia device {num} is lost since an earlier fault")), "{msg}");
    if let Some(h) = other {
        h.join().expect("the other GPU's thread");
    }
    if acc::num_devices(acc::DeviceType::Nvidia) > 1 {
        std::thread::spawn(|| match catch_unwind(AssertUnwindSafe(|| {
            acc::set_device(acc::DeviceType::Nvidia, 1);
            regions_run();
        })) {
            Ok(()) => println!("after the fault: regions ran on nvidia device 1"),
            Err(e) => {
                let msg = panic_message(&*e);
                assert!(msg.contains("after the fault on nvidia device 0") || msg.contains("is lost"), "{msg}");
                println!("after the fault: nvidia device 1 refused: {msg}");
            }
        })
        .join()
        .unwrap();
    }
    acc::set_device(acc::DeviceType::Host, 0);
    regions_run();
    println!("after the fault: regions ran on the host device");
}

#[cfg(feature = "cuda")]
/// With two GPUs, a thread that opens GPU 1 and runs a region there before the fault, then
/// waits for `go` to run another one after it.
fn open_other_gpu() -> (Option<std::thread::JoinHandle<()>>, Option<std::sync::mpsc::Sender<()>>) {
    if on_host() || acc::num_devices(acc::DeviceType::Nvidia) < 2 {
        return (None, None);
    }
    let (go, wait) = std::sync::mpsc::channel::<()>();
    let (ready, is_ready) = std::sync::mpsc::channel::<()>();
    let h = std::thread::spawn(move || {
        acc::set_device(acc::DeviceType::Nvidia, 1);
        regions_run();
        ready.send(()).unwrap();
        wait.recv().unwrap();
        match catch_unwind(AssertUnwindSafe(regions_run)) {
            Ok(()) => println!("after the fault: regions ran on nvidia device 1, opened before it"),
            Err(e) => println!("after the fault: nvidia device 1, opened before it, refused: {}", panic_message(&*e)),
        }
    });
    is_ready.recv().unwrap();
    (Some(h), Some(go))
}

#[cfg(feature = "cuda")]
fn launch_failure_body() {
    use acc::cuda::{KernelArgs, LaunchConfig};
    const PTX: &str = ".version 7.0\n.target sm_70\n.address_size 64\n\n.visible .entry acc_store_null()\n{\n\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n\tmov.u64 %rd1, 0;\n\tmov.u32 %r1, 1;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";
    let (other, go) = open_other_gpu();
    let keep = vec_of(2048, |i| i as u64);
    acc::enter_data!(copyin(keep));
    let cuda = acc::devices::cuda_backend().expect("the CUDA backend");
    let module = cuda.load_ptx(PTX).expect("the PTX loads");
    let e = cuda.launch(&module, "acc_store_null", LaunchConfig::linear(1, 1), &mut KernelArgs::new()).expect_err("a fault");
    assert!(e.to_string().contains("CUDA_ERROR_ILLEGAL_ADDRESS"), "{e}");
    drop(cuda);
    if let Some(go) = go {
        go.send(()).unwrap();
    }
    // The next use finds the device lost: reported once on stderr, then refused.
    after_fault(other);
    assert!(!acc::is_present(&keep), "lost with the device");
}

/// A kernel that faults without acc's panic record (a store to address 0: what a launch
/// failure looks like to the driver), launched through the CUDA backend's own API.
#[cfg(feature = "cuda")]
#[test]
fn launch_failure_reports_lost_data() {
    let _g = serial();
    if on_host() {
        println!("skipped: about the GPU");
        return;
    }
    let Some(err) = isolated("launch_failure_reports_lost_data", launch_failure_body) else { return };
    let num = std::env::var("ACC_DEVICE_NUM").unwrap_or_else(|_| "0".into());
    assert!(err.contains(&format!("nvidia device {num} is lost: a kernel trapped or faulted")), "{err}");
    assert!(err.contains("the device copies of `keep` (16.0 KiB) are lost"), "{err}");
}

/// Out of device memory: a panic naming the region, the variable and the bytes asked; what the
/// region had allocated before is freed, and the next region runs.
#[test]
fn out_of_memory_names_region_and_bytes() {
    let _g = serial();
    let Some((_, total_mem)) = acc::device_memory() else {
        println!("skipped: the host device has no device memory");
        return;
    };
    // More than the device has, reserved but never touched (no host memory is used).
    let bytes = (total_mem + (1 << 30)).next_multiple_of(1 << 21);
    // SAFETY: a private anonymous mapping with no backing reserved; unmapped below.
    let p = unsafe {
        libc::mmap(std::ptr::null_mut(), bytes, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE, -1, 0)
    };
    if p == libc::MAP_FAILED {
        println!("skipped: cannot reserve {bytes} bytes of address space");
        return;
    }
    // SAFETY: the mapping is `bytes` long, readable and writable (zero pages), and lives until
    // the `munmap` below; nothing else refers to it.
    let big = unsafe { std::slice::from_raw_parts_mut(p.cast::<u8>(), bytes) };
    let mut small = vec![1u64; 32 << 20]; // 256 MiB
    let mut tiny = [0u8; 16];
    touch(&mut small, &mut tiny); // loads the kernels
    let (free_before, _) = acc::device_memory().unwrap();
    let e = catch_unwind(AssertUnwindSafe(|| touch(&mut small, &mut *big))).expect_err("out of memory");
    let msg = panic_message(&*e);
    assert!(
        msg.contains("region `touch`") && msg.contains("cannot allocate") && msg.contains(&format!("({bytes} bytes) for `big` on nvidia device 0")) && msg.contains("CUDA_ERROR_OUT_OF_MEMORY"),
        "{msg}"
    );
    let (free_after, _) = acc::device_memory().unwrap();
    assert!(free_after + (8 << 20) >= free_before, "nothing leaked: {free_before} bytes free before, {free_after} after");
    assert!(!acc::is_present(&small) && !acc::is_present(&*big));
    assert_eq!(small[0], 2, "the first call's copy came back; the failed call changed nothing");
    touch(&mut small, &mut tiny);
    assert_eq!(small[12345], 3, "the next region runs");
    // SAFETY: the mapping made above, no longer borrowed.
    unsafe { libc::munmap(p, bytes) };
}
