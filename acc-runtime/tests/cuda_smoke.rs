//! GPU smoke tests of the CUDA backend with the kernels of acc-build's fixture device crate
//! (`acc-build/tests/fixtures/vadd-kernel`, compiled to `tests/fixtures/vadd_kernel.ptx` by
//! `ACC_BLESS_PTX=1 cargo test -p acc-build --test nvptx`).
//!
//! Without a CUDA driver or device every test prints `skipped: ...` and passes. With
//! `ACC_SMOKE_SMALL=1` the sizes shrink (for compute-sanitizer runs).
#![cfg(feature = "cuda")]

use std::sync::{Arc, OnceLock, PoisonError, RwLock, RwLockReadGuard};
use std::time::Instant;

use acc_runtime::cuda::{CudaBackend, KernelArgs, LaunchConfig, Module};
use acc_runtime::devices::Backend;

static PTX: &str = include_str!("fixtures/vadd_kernel.ptx");

/// Held, shared, by the tests that allocate hundreds of MiB, and alone by the one that reads
/// the device's free memory: what the others allocated meanwhile counted against it (on an
/// H200, 606 MB: the streaming test's three arrays).
static BIG_ALLOCATIONS: RwLock<()> = RwLock::new(());

fn big_allocations() -> RwLockReadGuard<'static, ()> {
    BIG_ALLOCATIONS.read().unwrap_or_else(PoisonError::into_inner)
}

fn gpu() -> Option<&'static (CudaBackend, Arc<Module>)> {
    static GPU: OnceLock<Option<(CudaBackend, Arc<Module>)>> = OnceLock::new();
    GPU.get_or_init(|| match CudaBackend::new(0) {
        Ok(b) => {
            let p = b.props();
            println!(
                "device: {} (sm_{}{}, {} SMs, {:.1} GiB)",
                p.name,
                p.compute_capability.0,
                p.compute_capability.1,
                p.sm_count,
                p.total_mem as f64 / (1u64 << 30) as f64
            );
            let m = b.load_ptx(PTX).unwrap_or_else(|e| panic!("{e}"));
            Some((b, m))
        }
        Err(e) => {
            println!("skipped: {e}");
            None
        }
    })
    .as_ref()
}

fn small() -> bool {
    std::env::var_os("ACC_SMOKE_SMALL").is_some()
}

/// A device buffer holding a copy of `data`.
fn upload<T: Copy>(b: &CudaBackend, data: &[T]) -> u64 {
    let bytes = std::mem::size_of_val(data);
    let p = b.alloc_bytes(bytes).unwrap();
    // SAFETY: `data` is readable for `bytes`; `p` has `bytes` bytes.
    unsafe { b.h2d_bytes(p, data.as_ptr().cast(), bytes) }.unwrap();
    p
}

fn download<T: Copy + Default>(b: &CudaBackend, p: u64, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // SAFETY: `v` is writable for `n` elements; `p` holds at least as many.
    unsafe { b.d2h_bytes(v.as_mut_ptr().cast(), p, n * std::mem::size_of::<T>()) }.unwrap();
    v
}

fn free(b: &CudaBackend, ps: &[u64]) {
    for &p in ps {
        // SAFETY: allocated by this test, used by no pending work (launches are synchronous).
        unsafe { b.free_bytes(p) }.unwrap();
    }
}

#[test]
fn vadd_1m_f32() {
    let Some((b, m)) = gpu() else { return };
    let n = 1 << 20;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let bb: Vec<f32> = (0..n).map(|i| (n - i) as f32).collect();
    let (pa, pb, pc) = (upload(b, &a), upload(b, &bb), b.alloc_bytes(4 * n).unwrap());
    let mut args = KernelArgs::new();
    args.panic_slot().slice(pa, n).slice(pb, n).slice(pc, n);
    let grid = b.default_grid(m, "acc_k_vadd", 256, 0, n).unwrap();
    let ms = b.launch_timed(m, "acc_k_vadd", LaunchConfig::linear(grid, 256), &mut args).unwrap();
    let c: Vec<f32> = download(b, pc, n);
    for i in 0..n {
        assert_eq!(c[i], a[i] + bb[i], "c[{i}]");
    }
    println!("vadd 1M f32: grid {grid} x 256, {ms:.3} ms");
    // Odd shapes: any grid and block size covers every element exactly once.
    for (grid, block) in [(1, 1), (3, 97), (7, 1024), (5000, 64)] {
        // SAFETY: `pc` has `4 * n` bytes.
        unsafe { b.zero(pc, 4 * n) }.unwrap();
        b.launch(m, "acc_k_vadd", LaunchConfig::linear(grid, block), &mut args).unwrap();
        let c: Vec<f32> = download(b, pc, n);
        assert!((0..n).all(|i| c[i] == a[i] + bb[i]), "grid {grid} block {block}");
    }
    free(b, &[pa, pb, pc]);
}

#[test]
fn sum_50m_f64_exact() {
    let Some((b, m)) = gpu() else { return };
    let _big = big_allocations();
    let n = if small() { 1_000_003 } else { 50_000_000 };
    // Integers: every partial sum is exact, so any order gives the host's result.
    let a: Vec<f64> = (0..n).map(|i| (i % 1024) as f64).collect();
    let expect: f64 = a.iter().sum();
    let pa = upload(b, &a);
    let grid = b.default_grid(m, "acc_k_sum", 256, 256, n).unwrap();
    let (partials, counter, out) =
        (b.alloc_bytes(8 * grid as usize).unwrap(), b.alloc_bytes(4).unwrap(), b.alloc_bytes(8).unwrap());
    // SAFETY: a fresh 4-byte allocation.
    unsafe { b.zero(counter, 4) }.unwrap();
    let mut args = KernelArgs::new();
    args.panic_slot().slice(pa, n).ptr(partials).ptr(counter).ptr(out);
    let cfg = LaunchConfig::linear(grid, 256).with_shared(32 * 8);
    let mut best = f32::MAX;
    for _ in 0..5 {
        best = best.min(b.launch_timed(m, "acc_k_sum", cfg, &mut args).unwrap());
        let got: Vec<f64> = download(b, out, 1);
        assert_eq!(got[0], expect);
    }
    println!(
        "sum {n} f64 = {expect}: grid {grid} x 256, best {best:.3} ms, {:.2} TB/s",
        (n * 8) as f64 / (best as f64 * 1e-3) / 1e12
    );
    // Block sizes that are not multiples of 32, and a one-block grid.
    for (grid, block) in [(1, 1024), (37, 100), (200, 33), (64, 7)] {
        let cfg = LaunchConfig::linear(grid, block).with_shared(32 * 8);
        b.launch(m, "acc_k_sum", cfg, &mut args).unwrap();
        let got: Vec<f64> = download(b, out, 1);
        assert_eq!(got[0], expect, "grid {grid} block {block}");
    }
    free(b, &[pa, partials, counter, out]);
}

#[test]
fn block_vector_and_worker_reductions_on_any_shape() {
    let Some((b, m)) = gpu() else { return };
    let grid = 3u32;
    let out = b.alloc_bytes(8 * 4 * grid as usize).unwrap();
    for (bx, by) in [(1, 1), (32, 1), (48, 1), (1000, 1), (1024, 1), (7, 5), (33, 3), (64, 16), (96, 8), (5, 200), (31, 33)] {
        let nt = (bx * by) as u64;
        let mut args = KernelArgs::new();
        args.panic_slot().ptr(out);
        let cfg = LaunchConfig { grid: (grid, 1, 1), block: (bx, by, 1), shared_bytes: 8 * nt.max(32) as u32, queue: None };
        b.launch(m, "acc_k_reduce_shapes", cfg, &mut args).unwrap();
        let got: Vec<u64> = download(b, out, 4 * grid as usize);
        let (bx, by) = (bx as u64, by as u64);
        for g in 0..grid as usize {
            assert_eq!(
                &got[4 * g..4 * g + 4],
                &[nt * (nt + 1) / 2, nt - 1, bx * (bx + 1) / 2, by * (by + 1) / 2],
                "block ({bx}, {by}), gang {g}: [block sum, block max, vector sum, worker sum]"
            );
        }
    }
    free(b, &[out]);
}

#[test]
fn atomics_from_every_thread() {
    let Some((b, m)) = gpu() else { return };
    let n = 1usize << 20;
    let f = upload(b, &[0.0f32]);
    let d = upload(b, &[0.0f64, 0.0, 0.0]);
    let i = upload(b, &[0i64, 0, i64::MAX]);
    let u = upload(b, &[0u32]);
    let bo = upload(b, &[false]);
    let s = upload(b, &[0u8]);
    let mut args = KernelArgs::new();
    args.panic_slot().push(n).ptr(f).ptr(d).ptr(i).ptr(u).ptr(bo).ptr(s);
    b.launch(m, "acc_k_atomics", LaunchConfig::linear(512, 256), &mut args).unwrap();
    assert_eq!(download::<f32>(b, f, 1), [n as f32]);
    assert_eq!(download::<f64>(b, d, 3), [0.5 * n as f64, (n - 1) as f64, -((n - 1) as f64)]);
    assert_eq!(download::<i64>(b, i, 3), [n as i64, n as i64 - 1, 0]);
    assert_eq!(download::<u32>(b, u, 1), [u32::MAX]);
    assert_eq!(download::<bool>(b, bo, 1), [true]);
    assert_eq!(download::<u8>(b, s, 1), [(n % 256) as u8]);
    free(b, &[f, d, i, u, bo, s]);
}

#[test]
fn device_math_matches_std() {
    let Some((b, m)) = gpu() else { return };
    let n = 10_000;
    let a: Vec<f64> = (0..n).map(|i| 0.1 + i as f64 * 1e-3).collect();
    let (pa, pc) = (upload(b, &a), b.alloc_bytes(8 * n).unwrap());
    let mut args = KernelArgs::new();
    args.panic_slot().slice(pa, n).slice(pc, n);
    b.launch(m, "acc_k_math", LaunchConfig::linear(40, 256), &mut args).unwrap();
    let c: Vec<f64> = download(b, pc, n);
    for (k, &x) in a.iter().enumerate() {
        let want = x.sqrt() + x.sin() * x.cos() + x.exp().ln() + x.powi(3) + x.floor() + x.mul_add(2.0, 1.0)
            + x.abs().max(0.5)
            + x.hypot(1.0).round();
        assert!((c[k] - want).abs() <= 1e-12 * want.abs(), "x = {x}: gpu {} host {want}", c[k]);
    }
    free(b, &[pa, pc]);
}

#[test]
fn backend_interface_and_async_queues() {
    let Some((b, m)) = gpu() else { return };
    let _big = big_allocations();
    let be: &dyn Backend = b;
    assert!(!be.is_host());
    println!("backend: {}", be.name());
    let n = if small() { 8 << 20 } else { 256 << 20 }; // bytes: large enough to be staged
    let src: Vec<u8> = (0..n).map(|i| (i * 7 % 251) as u8).collect();
    let p = be.alloc(n).unwrap();
    let mut back = vec![1u8; n]; // touched: no page faults inside the timings
    let mut rates = Vec::new();
    for staged in [true, false] {
        b.set_staged_transfers(staged);
        let (mut h2d, mut d2h) = (f64::MAX, f64::MAX);
        for _ in 0..3 {
            back.fill(0);
            let t = Instant::now();
            // SAFETY: `src` is readable for `n` bytes; `p` has `n` bytes.
            unsafe { be.h2d(p, src.as_ptr(), n) }.unwrap();
            h2d = h2d.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            // SAFETY: `back` is writable for `n` bytes.
            unsafe { be.d2h(back.as_mut_ptr(), p, n) }.unwrap();
            d2h = d2h.min(t.elapsed().as_secs_f64());
            assert!(back == src, "round trip (staged: {staged})");
        }
        rates.push(format!(
            "{}: h2d {:.2} GB/s, d2h {:.2} GB/s",
            if staged { "staged" } else { "direct" },
            n as f64 / h2d / 1e9,
            n as f64 / d2h / 1e9
        ));
    }
    b.set_staged_transfers(false);
    println!("transfers of {} MiB from/to pageable memory: {}", n >> 20, rates.join("; "));
    // Two async queues, then wait for each and for all.
    let k = 1 << 16;
    let a: Vec<f32> = vec![1.0; k];
    let (pa, pc1, pc2) = (upload(b, &a), b.alloc_bytes(4 * k).unwrap(), b.alloc_bytes(4 * k).unwrap());
    for (q, pc) in [(1, pc1), (2, pc2)] {
        let mut args = KernelArgs::new();
        args.panic_slot().slice(pa, k).slice(pa, k).slice(pc, k);
        b.launch(m, "acc_k_vadd", LaunchConfig::linear(64, 128).on_queue(q), &mut args).unwrap();
    }
    be.wait(1).unwrap();
    assert!(download::<f32>(b, pc1, k).iter().all(|&x| x == 2.0));
    be.wait_all().unwrap();
    assert!(download::<f32>(b, pc2, k).iter().all(|&x| x == 2.0));
    // SAFETY: allocated above; no pending work.
    unsafe { be.free(p) }.unwrap();
    free(b, &[pa, pc1, pc2]);
}

#[test]
fn streaming_bandwidth_against_device_copy() {
    let Some((b, m)) = gpu() else { return };
    let _big = big_allocations();
    if small() {
        return;
    }
    let n = 50_000_000usize;
    let bytes = 4 * n;
    let (pa, pb, pc) = (b.alloc_bytes(bytes).unwrap(), b.alloc_bytes(bytes).unwrap(), b.alloc_bytes(bytes).unwrap());
    // SAFETY: fresh allocations of `bytes` bytes.
    unsafe {
        b.zero(pa, bytes).unwrap();
        b.zero(pb, bytes).unwrap();
    }
    let mut args = KernelArgs::new();
    args.panic_slot().slice(pa, n).slice(pb, n).slice(pc, n);
    let mut report = Vec::new();
    for block in [128u32, 256, 512] {
        let grid = b.default_grid(m, "acc_k_vadd", block, 0, n).unwrap();
        let cfg = LaunchConfig::linear(grid, block);
        let best = (0..10).map(|_| b.launch_timed(m, "acc_k_vadd", cfg, &mut args).unwrap()).fold(f32::MAX, f32::min);
        report.push(format!("block {block} grid {grid}: {:.2} TB/s", (3 * bytes) as f64 / (best as f64 * 1e-3) / 1e12));
    }
    // The baseline: a device-to-device copy of the same bytes (read + write counted).
    // SAFETY: `pa` and `pc` are distinct allocations of `bytes` bytes.
    let copy = (0..10).map(|_| unsafe { b.d2d_timed(pc, pa, bytes) }.unwrap()).fold(f32::MAX, f32::min);
    report.push(format!("cuMemcpyDtoD: {:.2} TB/s", (2 * bytes) as f64 / (copy as f64 * 1e-3) / 1e12));
    println!("vadd 50M f32 (12 bytes per element): {}", report.join(", "));
    free(b, &[pa, pb, pc]);
}

#[test]
fn freed_memory_serves_the_next_allocation_of_its_size() {
    let Some((b, _)) = gpu() else { return };
    // An odd size no other test asks for: 5 bytes of padding, zeroed.
    let bytes = 1_000_003;
    let p = b.alloc_bytes(bytes).unwrap();
    let ones = vec![0xffu8; bytes];
    // SAFETY: `ones` is readable for `bytes`; `p` has `bytes` bytes.
    unsafe { b.h2d_bytes(p, ones.as_ptr(), bytes) }.unwrap();
    free(b, &[p]);
    let q = b.alloc_bytes(bytes).unwrap();
    assert_eq!(q, p, "the freed allocation was kept and handed out again");
    let r = b.alloc_bytes(bytes + 8).unwrap();
    assert_ne!(r, p, "another size gets another allocation");
    // The padding past `bytes` (the allocation holds `bytes` rounded up to 8) is still zero.
    let back: Vec<u8> = download(b, q, bytes.next_multiple_of(8));
    assert_eq!(back[bytes..], [0u8; 5], "padding");
    free(b, &[q, r]);
}

#[test]
fn an_allocation_the_kept_memory_blocks_frees_it_and_succeeds() {
    let _alone = BIG_ALLOCATIONS.write().unwrap_or_else(PoisonError::into_inner);
    // A backend of its own: its pool's limit changes here.
    let b = match CudaBackend::new(0) {
        Ok(b) => b,
        Err(e) => return println!("skipped: {e}"),
    };
    b.keep_freed_memory(usize::MAX).unwrap();
    let (free_mem, _) = b.mem_info().unwrap();
    // Each takes 60% of the free memory: two do not fit at once.
    let big = (free_mem / 10 * 6).next_multiple_of(1 << 21);
    let p = b.alloc_bytes(big).unwrap();
    let (less, _) = b.mem_info().unwrap();
    free(&b, &[p]);
    let (kept, _) = b.mem_info().unwrap();
    assert!(kept >= less + big, "kept memory counts as free: {less} + {big} <= {kept}");
    let q = b.alloc_bytes(big + (1 << 21)).expect("the kept allocation was freed to make room");
    free(&b, &[q]);
    b.keep_freed_memory(0).unwrap();
    let (after, _) = b.mem_info().unwrap();
    assert!(after + (64 << 20) >= kept, "nothing kept with limit 0: {after} free, {kept} before");
}

#[test]
fn small_and_large_transfers_round_trip_at_every_edge() {
    let Some((b, _)) = gpu() else { return };
    // Up to 64 KiB they go through the backend's pinned buffer, larger ones do not.
    for bytes in [1, 7, 8, 4096, (64 << 10) - 1, 64 << 10, (64 << 10) + 1, 1 << 20] {
        let src: Vec<u8> = (0..bytes).map(|i| (i * 31 % 253) as u8 ^ bytes as u8).collect();
        let p = upload(b, &src);
        let back: Vec<u8> = download(b, p, bytes);
        assert!(back == src, "round trip of {bytes} bytes");
        free(b, &[p]);
    }
}

#[test]
fn copies_ahead_of_a_launch_land_before_it_and_before_queued_work() {
    let Some((b, m)) = gpu() else { return };
    let k = 4096;
    let (pa, pc) = (b.alloc_bytes(4 * k).unwrap(), b.alloc_bytes(4 * k).unwrap());
    for round in 0..64 {
        let src: Vec<f32> = (0..k).map(|i| (i + round) as f32).collect();
        // SAFETY: `src` is readable for `4 * k` bytes; `pa` has as many. No queued work uses
        // `pa` before the launch below (on the synchronous stream, or on a queue that waits).
        unsafe { b.h2d_ahead(pa, src.as_ptr().cast(), 4 * k) }.unwrap();
        drop(src); // the host memory is the caller's again
        let mut args = KernelArgs::new();
        args.panic_slot().slice(pa, k).slice(pa, k).slice(pc, k);
        // Every other round on an async queue, which must wait for the copy first.
        let queue = (round % 2 == 1).then_some(5);
        let mut cfg = LaunchConfig::linear(16, 256);
        if let Some(q) = queue {
            cfg = cfg.on_queue(q);
        }
        b.launch(m, "acc_k_vadd", cfg, &mut args).unwrap();
        if let Some(q) = queue {
            b.wait_queue(q).unwrap();
        }
        let c: Vec<f32> = download(b, pc, k);
        assert!((0..k).all(|i| c[i] == 2.0 * (i + round) as f32), "round {round} ({queue:?})");
    }
    // A copy ahead, then a copy back on the synchronous stream: in order.
    let src = vec![7.5f32; k];
    // SAFETY: as above.
    unsafe { b.h2d_ahead(pc, src.as_ptr().cast(), 4 * k) }.unwrap();
    assert!(download::<f32>(b, pc, k).iter().all(|&x| x == 7.5));
    free(b, &[pa, pc]);
}

#[test]
fn copies_back_behind_a_launch_hold_what_the_last_launch_left() {
    let Some((b, m)) = gpu() else { return };
    let k = 4096; // 16 KiB: copied back behind the launch
    let a: Vec<f32> = (0..k).map(|i| i as f32).collect();
    let pa = upload(b, &a);
    let pc = b.alloc_bytes(4 * k).unwrap();
    let vadd = |x: u64, y: u64, out: u64| {
        let mut args = KernelArgs::new();
        args.panic_slot().slice(x, k).slice(y, k).slice(out, k);
        b.launch(m, "acc_k_vadd", LaunchConfig::linear(16, 256), &mut args).unwrap();
    };
    // Each scenario as a region of its own (the key: any number).
    let taken = b.downloads_taken_behind();
    // One launch writes `pc`: its copy back is taken.
    assert!(b.download_behind(1, pc, 4 * k).unwrap());
    vadd(pa, pa, pc); // 2i
    let c: Vec<f32> = download(b, pc, k);
    assert!((0..k).all(|i| c[i] == 2.0 * i as f32), "c[1] = {}", c[1]);
    assert_eq!(b.downloads_taken_behind(), taken + 1);
    // Taken once: a second copy back goes to the device.
    let c: Vec<f32> = download(b, pc, k);
    assert!((0..k).all(|i| c[i] == 2.0 * i as f32));
    assert_eq!(b.downloads_taken_behind(), taken + 1);
    // Two launches write `pc`: the copy back holds what the second left; the region asks no
    // more (its first launch's copy was wasted).
    assert!(b.download_behind(2, pc, 4 * k).unwrap());
    vadd(pa, pa, pc); // 2i
    vadd(pc, pc, pc); // 4i
    let c: Vec<f32> = download(b, pc, k);
    assert!((0..k).all(|i| c[i] == 4.0 * i as f32), "c[1] = {}", c[1]);
    assert_eq!(b.downloads_taken_behind(), taken + 2);
    assert!(!b.download_behind(2, pc, 4 * k).unwrap());
    assert!(b.download_behind(1, pc, 4 * k).unwrap());
    b.forget_downloads_behind();
    // An upload after the launch makes the copy behind it stale: the device's data comes back.
    assert!(b.download_behind(3, pc, 4 * k).unwrap());
    vadd(pa, pa, pc); // 2i
    let ones = vec![1.0f32; k];
    // SAFETY: `ones` is readable for `4 * k` bytes; `pc` has as many; no work is pending.
    unsafe { b.h2d_bytes(pc, ones.as_ptr().cast(), 4 * k) }.unwrap();
    let c: Vec<f32> = download(b, pc, k);
    assert!(c.iter().all(|&x| x == 1.0), "c[1] = {}", c[1]);
    assert_eq!(b.downloads_taken_behind(), taken + 2);
    // A request given back is not taken; nor is one of other bytes.
    assert!(b.download_behind(4, pc, 4 * k).unwrap());
    vadd(pa, pa, pc);
    b.forget_downloads_behind();
    assert!(b.download_behind(5, pc, 4 * k).unwrap());
    vadd(pa, pc, pc); // 3i
    let head: Vec<f32> = download(b, pc, 8);
    assert_eq!(head, (0..8).map(|i| 3.0 * i as f32).collect::<Vec<_>>());
    b.forget_downloads_behind();
    assert_eq!(b.downloads_taken_behind(), taken + 2);
    // Past 64 KiB, or past 16 waiting at once, copies back wait for the region's end.
    assert!(!b.download_behind(6, pc, (64 << 10) + 4).unwrap());
    let asked: Vec<bool> = (0..17).map(|_| b.download_behind(6, pc, 4 * k).unwrap()).collect();
    assert_eq!(asked, (0..17).map(|i| i < 16).collect::<Vec<_>>());
    b.forget_downloads_behind();
    assert!(b.download_behind(6, pc, 4 * k).unwrap());
    b.forget_downloads_behind();
    free(b, &[pa, pc]);
}

/// A device copy in host memory (`alloc_hosted`): filled and read back by host copies, it
/// takes a kernel's stores with nothing copied after the launch; never kept nor copied behind a
/// launch; freed back for reuse; none past 64 KiB or past 16 live at once.
#[test]
fn hosted_copies_take_a_kernels_stores() {
    let Some((b, m)) = gpu() else { return };
    let k = 4096; // 16 KiB
    let a: Vec<f32> = (0..k).map(|i| i as f32).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_ne_bytes()).collect::<Vec<u8>>();
    let pa = upload(b, &a);
    let made = b.hosted_copies_made();
    let live = b.hosted_copies();
    let pc = b.alloc_hosted(4 * k).unwrap().expect("16 KiB in host memory");
    assert_eq!((b.hosted_copies(), b.hosted_copies_made()), (live + 1, made + 1));
    // SAFETY: `a` is readable for its bytes; `pc` has as many.
    unsafe { b.h2d_bytes(pc, a.as_ptr().cast(), 4 * k) }.unwrap();
    assert_eq!(download::<f32>(b, pc, k), a, "the host copy in, the host copy out");
    let mut args = KernelArgs::new();
    args.panic_slot().slice(pa, k).slice(pa, k).slice(pc, k);
    b.launch(m, "acc_k_vadd", LaunchConfig::linear(16, 256), &mut args).unwrap();
    assert_eq!(download::<f32>(b, pc, k), a.iter().map(|x| 2.0 * x).collect::<Vec<_>>(), "the kernel's stores");
    // SAFETY: `pc` came from this backend, holds these bytes, and no work uses it.
    assert!(!unsafe { b.keep_copy((9, 9), pc, &bytes(&download::<f32>(b, pc, k))) }, "not device memory to keep");
    assert!(!b.download_behind(9, pc, 4 * k).unwrap(), "nothing to copy behind a launch");
    free(b, &[pc]);
    assert_eq!(b.hosted_copies(), live);
    assert_eq!(b.alloc_hosted((64 << 10) + 4).unwrap(), None, "past 64 KiB");
    let ps: Vec<Option<u64>> = (0..17).map(|_| b.alloc_hosted(256).unwrap()).collect();
    assert!(ps[..16 - live].iter().all(Option::is_some) && ps[16 - live..].iter().all(Option::is_none), "16 at once");
    free(b, &ps.iter().flatten().copied().collect::<Vec<_>>());
    free(b, &[pa]);
}

#[test]
fn kept_copies_come_back_to_their_key_with_what_they_held() {
    let Some((b, _)) = gpu() else { return };
    let k = 1024; // 4 KiB
    let a: Vec<f32> = (0..k).map(|i| i as f32).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_ne_bytes()).collect::<Vec<u8>>();
    let reused = b.kept_copies_reused();
    // Kept with the host's bytes, it comes back once, holding them.
    let p = upload(b, &a);
    // SAFETY: `p` came from `alloc_bytes` for `a`'s bytes, holds them, and no work uses it.
    assert!(unsafe { b.keep_copy((1, 1), p, &bytes(&a)) });
    assert_eq!(b.take_copy((1, 2), &bytes(&a)), None, "another key");
    assert_eq!(b.take_copy((1, 1), &bytes(&a[1..])), None, "another length");
    assert_eq!(b.take_copy((1, 1), &bytes(&a)), Some((p, true)));
    assert_eq!(b.take_copy((1, 1), &bytes(&a)), None, "taken once");
    assert_eq!(b.kept_copies_reused(), reused + 1);
    assert_eq!(download::<f32>(b, p, k), a, "the memory holds what it held");
    // Kept, then the host changed: it comes back saying so.
    // SAFETY: as above.
    assert!(unsafe { b.keep_copy((1, 1), p, &bytes(&a)) });
    let mut changed = a.clone();
    changed[7] = -1.0;
    assert_eq!(b.take_copy((1, 1), &bytes(&changed)), Some((p, false)));
    assert_eq!(b.kept_copies_reused(), reused + 1);
    // Kept twice under one key: the later one stays (the earlier is freed).
    let q = upload(b, &changed);
    // SAFETY: as above, for `p` and `q`.
    assert!(unsafe { b.keep_copy((1, 1), p, &bytes(&a)) });
    assert!(unsafe { b.keep_copy((1, 1), q, &bytes(&changed)) });
    assert_eq!(b.take_copy((1, 1), &bytes(&changed)), Some((q, true)));
    assert_eq!(b.take_copy((1, 1), &bytes(&a)), None);
    // Past 64 KiB nothing is kept; past 16 copies the oldest is freed.
    let big = b.alloc_bytes((64 << 10) + 8).unwrap();
    // SAFETY: as above (its bytes are zero, as the host's).
    assert!(!unsafe { b.keep_copy((2, 0), big, &vec![0u8; (64 << 10) + 8]) });
    let ps: Vec<u64> = (0..17).map(|_| upload(b, &a)).collect();
    for (i, &p) in ps.iter().enumerate() {
        // SAFETY: as above.
        assert!(unsafe { b.keep_copy((3, i), p, &bytes(&a)) });
    }
    assert_eq!(b.take_copy((3, 0), &bytes(&a)), None, "the oldest was freed");
    for (i, &p) in ps.iter().enumerate().skip(1) {
        assert_eq!(b.take_copy((3, i), &bytes(&a)), Some((p, true)));
    }
    free(b, &ps[1..]);
    free(b, &[q, big]);
}

/// The runtime routines' GPU side: a device-to-device copy (`acc_memcpy_device`) lands whole;
/// a queue never used tests done, one with a launch tests done after its wait (and then
/// reads right); `async_test_all` agrees; the stream handed out (`acc_get_cuda_stream`) is
/// the queue's, the same each time, one per queue, and the queue works on after it.
#[test]
fn device_copies_queue_tests_and_handed_out_streams() {
    let Some((b, m)) = gpu() else { return };
    let k = 1 << 16;
    let a: Vec<f32> = (0..k).map(|i| i as f32).collect();
    let (pa, pb) = (upload(b, &a), b.alloc_bytes(4 * k).unwrap());
    // SAFETY: two live allocations of this backend of `4 * k` bytes each, apart.
    unsafe { b.d2d_bytes(pb, pa, 4 * k) }.unwrap();
    assert_eq!(download::<f32>(b, pb, k), a, "the device copy");
    assert!(b.test_queue(40).unwrap(), "a queue never used is done");
    let pc = b.alloc_bytes(4 * k).unwrap();
    let mut args = KernelArgs::new();
    args.panic_slot().slice(pa, k).slice(pb, k).slice(pc, k);
    b.launch(m, "acc_k_vadd", LaunchConfig::linear(64, 128).on_queue(3), &mut args).unwrap();
    b.wait_queue(3).unwrap();
    assert!(b.test_queue(3).unwrap() && b.test_all_queues().unwrap(), "done after the wait");
    assert_eq!(download::<f32>(b, pc, k), (0..k).map(|i| 2.0 * i as f32).collect::<Vec<_>>());
    let s = b.shared_stream(3).unwrap();
    assert!(!s.is_null());
    assert_eq!(b.shared_stream(3).unwrap(), s, "the same stream each time");
    assert_ne!(b.shared_stream(4).unwrap(), s, "a stream per queue");
    assert!(b.test_queue(3).unwrap() && b.test_queue(4).unwrap(), "handed out, nothing queued");
    let pd = upload(b, &vec![-1.0f32; k]);
    let mut args = KernelArgs::new();
    args.panic_slot().slice(pa, k).slice(pc, k).slice(pd, k);
    b.launch(m, "acc_k_vadd", LaunchConfig::linear(64, 128).on_queue(3), &mut args).unwrap();
    while !b.test_queue(3).unwrap() {
        std::hint::spin_loop();
    }
    assert_eq!(download::<f32>(b, pd, k), (0..k).map(|i| 3.0 * i as f32).collect::<Vec<_>>(), "read after a test that said done");
    b.wait_all_queues().unwrap();
    free(b, &[pa, pb, pc, pd]);
}
