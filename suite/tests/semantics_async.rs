//! Async queues (DESIGN §2 "Other directives", `async(q)`/`wait` region clauses, `acc::wait`,
//! `acc::wait_all`, `acc::wait_async`, `acc::wait_all_async`): results are right after a wait,
//! with several queues at once; work on one queue runs in order; a `wait(q)` clause orders a
//! region after queue `q` (with `async`, on the device); the data an async
//! region copies back is right when the call returns; reductions of async regions come back
//! from the call; the end of a data region sees the results of the async regions inside it.
//!
//! On the host backend async work completes before the call returns, so these hold trivially
//! there; on a GPU the regions run on CUDA streams. The module `by_hand` (GPU builds only)
//! drives the runtime's async path the way the generated code does for `async(q)`, so that
//! the runtime's queues are tested on a GPU whatever the code generator emits.

mod common;
use common::*;

#[acc::parallel(async(q))]
fn bump(c: &mut [i32], k: i32, q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] += k;
    }
}

#[acc::parallel(async(q))]
fn twice_plus(a: &[i32], b: &mut [i32], q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..b.len() {
        b[i] = 2 * a[i] + 1;
    }
}

#[acc::parallel(async(q), wait(after))]
fn sum_into(a: &[i32], b: &[i32], c: &mut [i32], q: i64, after: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
    }
}

#[acc::parallel(async(q), copyout(c))]
fn fill(c: &mut [i64], v: i64, q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = v + i as i64;
    }
}

#[acc::parallel(async(q))]
fn total(a: &[i64], q: i64) -> i64 {
    let mut s = 0i64;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

#[acc::parallel(async)]
fn negate_default_queue(c: &mut [i32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = -c[i];
    }
}

/// Queues named by other integer types (`async(q)`, `wait(q)` take any, as `q as i64`).
#[acc::parallel(async(q), wait(after))]
fn sum_into_typed(a: &[i32], b: &[i32], c: &mut [i32], q: u8, after: i32) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
    }
}

const SIZES: [usize; 3] = [1, 1001, 65537];

/// Fills `a` one element at a time, in one thread: slow on purpose, so that a region on another
/// queue that did not wait for it would read elements it has not written yet.
#[acc::serial(async(q))]
fn fill_slowly(a: &mut [u64], k: u64, q: i64) {
    for i in 0..a.len() {
        a[i] = (i as u64) * 3 + k;
    }
}

#[acc::parallel(async(q))]
fn plus_one(a: &[u64], b: &mut [u64], q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..b.len() {
        b[i] = a[i] + 1;
    }
}

#[acc::parallel(async(q), wait(after))]
fn plus_one_after(a: &[u64], b: &mut [u64], q: i64, after: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..b.len() {
        b[i] = a[i] + 1;
    }
}

#[acc::parallel(async(q), wait)]
fn sum_after_all(a: &[u64], c: &[u64], b: &mut [u64], q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..b.len() {
        b[i] = a[i] + c[i];
    }
}

/// `async(1), wait(2)` on a region: queue 1 waits for queue 2's slow writer (on a GPU on the
/// device: OpenACC's `wait` with `async` does not block the host), and reads all it wrote.
#[test]
fn async_wait_clause_orders_queues_on_the_device() {
    for n in [1usize, 4097, 1 << 18] {
        let mut a = vec![0u64; n];
        let mut b = vec![0u64; n];
        acc::data!(create(a), copyout(b) {
            fill_slowly(&mut a, 5, 2);
            plus_one_after(&a, &mut b, 1, 2);
            acc::wait(1);
        });
        acc::wait(2);
        assert_eq!(b, vec_of(n, |i| i as u64 * 3 + 6), "{n} elements");
    }
}

/// `acc::wait_async(2, 1)` (OpenACC's `acc_wait_async`): what queue 1 runs next starts after
/// queue 2's work; `acc::wait_all_async(1)`: after every other queue's.
#[test]
fn wait_async_and_wait_all_async() {
    for n in [1usize, 4097, 1 << 18] {
        let (mut a, mut c, mut e) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
        let (mut b, mut d) = (vec![0u64; n], vec![0u64; n]);
        acc::data!(create(a, c, e), copyout(b, d) {
            fill_slowly(&mut a, 1, 2);
            acc::wait_async(2, 1);
            plus_one(&a, &mut b, 1);
            fill_slowly(&mut c, 2, 3);
            fill_slowly(&mut e, 7, 4);
            acc::wait_all_async(5);
            sum_after_all(&c, &e, &mut d, 5);
            acc::wait(1);
            acc::wait(5);
        });
        acc::wait_all();
        assert_eq!(b, vec_of(n, |i| i as u64 * 3 + 2), "{n} elements, after wait_async");
        assert_eq!(d, vec_of(n, |i| i as u64 * 6 + 9), "{n} elements, after wait_all_async");
    }
}

/// `wait` without a queue on an `async` region waits for every queue (see `sum_after_all`);
/// `acc::wait_async(q, -2)` (the synchronous queue) is `acc::wait(q)`; queue numbers below
/// -2 are refused by name.
#[test]
fn wait_async_on_the_synchronous_queue_and_bad_queues() {
    let n = 4097;
    let mut a = vec![0u64; n];
    acc::data!(copy(a) {
        fill_slowly(&mut a, 3, 2);
        acc::wait_async(2, -2);
        acc::update!(host(a));
    });
    assert_eq!(a, vec_of(n, |i| i as u64 * 3 + 3));
    let e = std::panic::catch_unwind(|| acc::wait_async(-3, 1)).expect_err("queue -3 is refused");
    let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("acc::wait_async: `-3` is not an async queue"), "{msg}");
}

/// Four queues, each with a chain of regions on arrays of its own inside one data region:
/// after `acc::wait(q)` and `update!(host(..))` every chain's result is there.
#[test]
fn several_queues_then_wait_each() {
    for n in SIZES {
        let init = |q: usize| vec_of(n, |i| (hash(i + q) % 100) as i32);
        let want: Vec<Vec<i32>> = (0..4).map(|q| init(q).iter().map(|x| x + 10 * (q as i32 + 1)).collect()).collect();
        let (mut c0, mut c1, mut c2, mut c3) = (init(0), init(1), init(2), init(3));
        acc::data!(copy(c0, c1, c2, c3) {
            for _ in 0..10 {
                bump(&mut c0, 1, 0);
                bump(&mut c1, 2, 1);
                bump(&mut c2, 3, 2);
                bump(&mut c3, 4, 3);
            }
            for q in 0..4 {
                acc::wait(q);
            }
            acc::update!(host(c0, c1, c2, c3));
            assert_eq!((&c0, &c1), (&want[0], &want[1]), "{n} elements, queues 0 and 1 after wait");
            assert_eq!((&c2, &c3), (&want[2], &want[3]), "{n} elements, queues 2 and 3 after wait");
        });
        let cs = vec![c0, c1, c2, c3];
        assert_eq!(cs, want, "{n} elements after the data region");
    }
}

/// Regions on one queue run in order (each reads what the one before wrote); `wait(q)` on a
/// region of another queue orders it after queue `q`; `acc::wait_all` waits for every queue.
#[test]
fn order_on_a_queue_and_wait_clause_across_queues() {
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 1000) as i32 - 500);
        let (mut b, mut c, mut d) = (vec![0; n], vec![0; n], vec![0; n]);
        acc::data!(copyin(a), create(b), copyout(c, d) {
            twice_plus(&a, &mut b, 5);
            bump(&mut b, 3, 5);
            sum_into(&a, &b, &mut c, 6, 5);
            twice_plus(&c, &mut d, 6);
            acc::wait_all();
        });
        let wc: Vec<i32> = a.iter().map(|x| x + (2 * x + 1 + 3)).collect();
        let wd: Vec<i32> = wc.iter().map(|x| 2 * x + 1).collect();
        assert_eq!((c, d), (wc, wd), "{n} elements");
    }
}

/// The same order with queues that are not `i64`s: a `u8` queue waits for the work of an
/// `i32` one.
#[test]
fn queues_of_any_integer_type() {
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 1000) as i32 - 500);
        let (mut b, mut c) = (vec![0; n], vec![0; n]);
        acc::data!(copyin(a), create(b), copyout(c) {
            twice_plus(&a, &mut b, 5);
            bump(&mut b, 3, 5);
            sum_into_typed(&a, &b, &mut c, 6, 5);
            acc::wait(6);
        });
        let wc: Vec<i32> = a.iter().map(|x| x + (2 * x + 1 + 3)).collect();
        assert_eq!(c, wc, "{n} elements");
    }
}

/// An async region's own data clauses: what it copies back is there when the call returns
/// (the host data is borrowed only for the call), before and after the wait.
#[test]
fn copy_back_of_an_async_region() {
    for n in SIZES {
        let mut c = vec![0i64; n];
        fill(&mut c, 7, 2);
        assert_eq!(c, vec_of(n, |i| 7 + i as i64), "{n} elements, at return");
        acc::wait(2);
        let mut d = vec_of(n, |i| i as i32);
        bump(&mut d, -4, 3); // default `copy` of a `&mut [i32]`
        bump(&mut d, 1, 3);
        acc::wait(3);
        assert_eq!(d, vec_of(n, |i| i as i32 - 3), "{n} elements");
        assert!(!acc::is_present(&c) && !acc::is_present(&d));
    }
}

/// Regions on several queues each with their own data clauses, no data region: every
/// result is right once waited for.
#[test]
fn async_regions_with_their_own_data_on_several_queues() {
    let n = 4099;
    let mut outs: Vec<Vec<i64>> = vec![vec![0; n]; 6];
    for (q, c) in outs.iter_mut().enumerate() {
        fill(c, 100 * q as i64, q as i64);
    }
    acc::wait_all();
    for (q, c) in outs.iter().enumerate() {
        assert_eq!(*c, vec_of(n, |i| 100 * q as i64 + i as i64), "queue {q}");
    }
}

/// A reduction of an async region comes back from the call (the call waits for its queue).
#[test]
fn reductions_of_async_regions() {
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 1_000_000) as i64 - 500_000);
        let want: i64 = a.iter().sum();
        assert_eq!(total(&a, 1), want, "{n} elements, own data");
        acc::data!(copyin(a) {
            let (s1, s2) = (total(&a, 1), total(&a, 2));
            acc::wait_all();
            assert_eq!((s1, s2), (want, want), "{n} elements, present data");
        });
    }
}

/// `async` alone is the default queue (-1): `acc::wait(-1)` waits for it.
#[test]
fn default_queue() {
    let mut c = vec_of(1001, |i| i as i32);
    acc::data!(copy(c) {
        negate_default_queue(&mut c);
        bump(&mut c, 1, -1);
        acc::wait(-1);
        acc::update!(host(c));
        assert_eq!(c, vec_of(1001, |i| 1 - i as i32));
    });
    assert_eq!(c, vec_of(1001, |i| 1 - i as i32));
}

/// A data region ends after the async work inside it that was not waited for: the data it
/// copies back holds that work's results.
#[test]
fn data_region_end_sees_unwaited_async_work() {
    let n = 65537;
    let mut c = vec![0i32; n];
    acc::data!(copy(c) {
        for k in 1..=20 {
            bump(&mut c, k, 7);
        }
    });
    assert_eq!(c, vec![210; n]);
    acc::wait(7);
}

/// What acc-codegen emits for `async(q)`, written out (GPU builds): launches on queue `q`'s
/// stream that return at once, data scopes that copy back on that stream, partials folded
/// after waiting for the queue. The kernel ABI is acc-codegen's (device.rs): the region's
/// parameters, the captured locals, the partials buffer, the atomics' cells; when it changes,
/// the launches here fail naming the parameter counts.
#[cfg(acc_kernels)]
mod by_hand {
    use super::*;
    use acc::__private::{launch, view, Captures, Clause, DataScope, Geometry, KernelArgs, Partials, RegionInfo};

    static PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/acc_kernels.ptx"));

    /// The entry of this file's region `fn_name` in the package's PTX (found once: the PTX
    /// is megabytes long, and a search per launch would cost more than the launch).
    fn kernel(fn_name: &str) -> &'static str {
        static FOUND: std::sync::Mutex<Vec<(String, &'static str)>> = std::sync::Mutex::new(Vec::new());
        let mut found = FOUND.lock().unwrap();
        if let Some((_, k)) = found.iter().find(|(f, _)| f == fn_name) {
            return k;
        }
        let suffix = format!("_{fn_name}_0(");
        let k = PTX
            .lines()
            .filter_map(|l| l.split(".entry ").nth(1))
            .find(|e| e.starts_with("acc_tests_semantics_async_rs_l") && e.ends_with(&suffix))
            .map(|e| &e[..e.len() - 1])
            .unwrap_or_else(|| panic!("no kernel of region `{fn_name}` in the PTX"));
        found.push((fn_name.to_string(), k));
        k
    }

    fn on_gpu(test: &str) -> bool {
        let gpu = acc::device_type() == acc::DeviceType::Nvidia;
        if !gpu {
            println!("skipped {test}: it drives the CUDA runtime, and the device is {:?}", acc::device_type());
        }
        gpu
    }

    /// `bump` with `async(q)`: `c` is `copy`.
    pub fn bump_on(c: &mut [i32], k: i32, q: i64) {
        static REGION: RegionInfo = RegionInfo { name: "bump_on", kind: "parallel", file: file!(), line: line!(), kernel: "" };
        let queue = REGION.queue(q);
        let mut data = DataScope::on_queue(&REGION, queue);
        data.enter("c", view(&*c), Clause::Copy);
        let mut args = KernelArgs::new();
        args.panic_slot().slice(data.device_ptr(view(&*c)), c.len()).push(k).push(q).push(Captures::new());
        let geom = Geometry::new(c.len(), 0, 0, false);
        let partials = Partials::new(&REGION, 0, &geom);
        args.ptr(partials.device_ptr()).ptr(0); // no atomics' cells
        launch(&REGION, PTX, kernel("bump"), &mut args, &geom, queue);
    }

    /// `total` with `async(q)`: `a` is `copyin`; the reduction waits for the queue.
    pub fn total_on(a: &[i64], q: i64) -> i64 {
        static REGION: RegionInfo = RegionInfo { name: "total_on", kind: "parallel", file: file!(), line: line!(), kernel: "" };
        let queue = REGION.queue(q);
        let mut data = DataScope::on_queue(&REGION, queue);
        data.enter("a", view(a), Clause::CopyIn);
        let s = 0i64;
        let mut caps = Captures::new();
        caps.put(&s);
        let mut args = KernelArgs::new();
        args.panic_slot().slice(data.device_ptr(view(a)), a.len()).push(q).push(caps);
        let geom = Geometry::new(a.len(), 0, 0, false);
        let partials = Partials::new(&REGION, 1, &geom);
        args.ptr(partials.device_ptr()).ptr(0); // no atomics' cells
        let grid = launch(&REGION, PTX, kernel("total"), &mut args, &geom, queue);
        s + partials.fold(0, grid, &s, |x, y| x + y)
    }

    /// Many launches on several queues inside a data region, then a wait per queue.
    #[test]
    fn queues_of_launches() {
        if !on_gpu("queues_of_launches") {
            return;
        }
        let n = 100_003;
        let (mut c0, mut c1, mut c2) = (vec_of(n, |i| i as i32), vec_of(n, |i| i as i32 + 1), vec_of(n, |i| i as i32 + 2));
        acc::data!(copy(c0, c1, c2) {
            for _ in 0..50 {
                bump_on(&mut c0, 1, 0);
                bump_on(&mut c1, 2, 1);
                bump_on(&mut c2, 3, 2);
            }
            acc::wait(0);
            acc::wait(1);
            acc::wait(2);
        });
        let cs = [c0, c1, c2];
        for (q, c) in cs.iter().enumerate() {
            assert_eq!(*c, vec_of(n, |i| (i + q) as i32 + 50 * (q as i32 + 1)), "queue {q}");
        }
    }

    /// An async region's own `copy`: copied back on its queue before the call returns; its
    /// memory is freed once the queue is done.
    #[test]
    fn own_copy_back() {
        if !on_gpu("own_copy_back") {
            return;
        }
        for n in [1, 1000, 1 << 20] {
            let mut c = vec_of(n, |i| i as i32);
            bump_on(&mut c, 5, 4);
            assert_eq!(c, vec_of(n, |i| i as i32 + 5), "{n} elements at return");
            assert!(!acc::is_present(&c));
            acc::wait(4);
        }
    }

    /// Reductions after async launches, with and without present data, across queues.
    #[test]
    fn reductions_fold_after_the_queue() {
        if !on_gpu("reductions_fold_after_the_queue") {
            return;
        }
        let a = vec_of(1 << 20, |i| (hash(i) % 1000) as i64);
        let want: i64 = a.iter().sum();
        assert_eq!(total_on(&a, 1), want);
        let mut c = vec![0i32; 1 << 20];
        acc::data!(copyin(a), copy(c) {
            for q in 0..4 {
                bump_on(&mut c, 1, q);
                assert_eq!(total_on(&a, q), want, "queue {q}");
            }
            acc::wait_all();
        });
        assert!(c.iter().all(|&x| x == 4));
    }

    /// Launch costs on this device (prints them; asserts nothing): run with
    /// `--ignored --nocapture launch_costs`.
    #[test]
    #[ignore = "timings: run on a GPU with --ignored --nocapture"]
    fn launch_costs() {
        if !on_gpu("launch_costs") {
            return;
        }
        use std::time::Instant;
        fn median(mut t: Vec<f64>) -> (f64, f64) {
            let mean = t.iter().sum::<f64>() / t.len() as f64;
            t.sort_by(|a, b| a.partial_cmp(b).unwrap());
            (t[t.len() / 2] * 1e6, mean * 1e6)
        }
        fn timed(mut f: impl FnMut()) -> (f64, f64) {
            for _ in 0..20 {
                f();
            }
            median(
                (0..1000)
                    .map(|_| {
                        let s = Instant::now();
                        f();
                        s.elapsed().as_secs_f64()
                    })
                    .collect(),
            )
        }
        let mut c = vec![0i32; 1024];
        let a = vec![1i64; 1024];
        acc::data!(copy(c), copyin(a) {
            let (m, avg) = timed(|| bump(&mut c, 1, -2));
            println!("acc launch/sync_region   {m:8.2} us median {avg:8.2} us mean  (1024 i32 += k, synchronous)");
            let (m, avg) = timed(|| assert_eq!(total(&a, -2), 1024));
            println!("acc launch/sync_reduce   {m:8.2} us median {avg:8.2} us mean  (sum of 1024 i64, synchronous)");
            let (m, avg) = timed(|| {
                bump_on(&mut c, 1, 9);
                acc::wait(9);
            });
            println!("acc launch/async_wait    {m:8.2} us median {avg:8.2} us mean  (async(9) launch + acc::wait(9))");
            let (m, avg) = timed(|| bump_on(&mut c, 1, 9));
            acc::wait(9);
            println!("acc launch/async_enqueue {m:8.2} us median {avg:8.2} us mean  (async(9) launch alone)");
            let (m, avg) = timed(|| assert_eq!(total_on(&a, 9), 1024));
            println!("acc launch/async_reduce  {m:8.2} us median {avg:8.2} us mean  (async(9) sum of 1024 i64, folded after the queue)");
        });
    }
}

/// `update!(host(..), async(q))` and `update!(device(..), async(q))` go in order with the work
/// queued on queue `q` (the copy to the host after the region that writes the data, the copy
/// to the device before the region queued after it); `async` alone is the default queue.
#[test]
fn updates_on_a_queue() {
    let n = 100_003;
    let mut c = vec_of(n, |i| i as i32);
    acc::data!(copy(c) {
        bump(&mut c, 5, 3);
        acc::update!(host(c), async(3));
        assert!(c.iter().enumerate().all(|(i, &x)| x == i as i32 + 5), "update host after the region on queue 3");
        c[0] = 100;
        acc::update!(device(c), async(3));
        bump(&mut c, 1, 3);
        acc::wait(3); // the default queue is another queue
        negate_default_queue(&mut c);
        acc::update!(host(c), async);
        assert_eq!((c[0], c[7]), (-101, -13), "update host on the default queue");
        acc::wait_all();
    });
    assert_eq!((c[0], c[7], c[n - 1]), (-101, -13, -(n as i32 - 1 + 6)));
}
