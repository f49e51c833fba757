//! Strong scaling of a 2-D Jacobi over the GPUs of one machine: the same global grid on 1, 2,
//! ... devices, one host thread per device (`acc::set_device`), each owning a band of rows with
//! a ghost row above and below. Per iteration each band: its two edge rows on async queue 1
//! (one kernel, launched before the interior: see `sweep_edges`),
//! copied to the host (`update!(host(..), async(1))`), given to the neighbours (through host
//! memory and a barrier: what `MPI_Sendrecv` does between processes in
//! `examples/mpi-jacobi`), and their rows copied into the ghost rows
//! (`update!(device(..), async(1))`), all while the interior rows run on queue 2; then the
//! largest change (acc's `max` reduction over per-row maxima) is combined over the bands.
//!
//! `cargo bench -p acc-benches --features cuda --bench scaling` on a machine with GPUs (also runs on the host
//! backend, slowly). `ACC_SCALING_N=rows` (default 16384, square grid), `ACC_SCALING_ITERS`
//! (default 500). Prints one line per configuration: devices, overlap, ms per iteration (the
//! first `WARMUP` not timed),
//! speedup and parallel efficiency against one device, then a line per band with the
//! microseconds per iteration of each phase (`PHASES`); checks that every configuration's grid
//! and residuals are bit-identical to one device's, and a small grid against sequential Rust.
//! The bands meet at a polling barrier, as MPI ranks do (`ACC_SCALING_BARRIER=sleep`: the
//! standard library's).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::Instant;

/// Rows `j0 .. j0 + rows` of `dst` (a window: `dst` starts at row `j0`) from `src`'s 5-point
/// average, columns `1..m-1`; `rowerr[r]` gets row `r`'s largest change.
#[acc::parallel(async(q))]
fn sweep_rows(src: &[f64], dst: &mut [f64], rowerr: &mut [f64], m: usize, j0: usize, q: i64) {
    #[acc::r#loop(gang)]
    for r in 0..rowerr.len() {
        let j = j0 + r;
        let mut e = 0.0f64;
        #[acc::r#loop(vector, reduction(max: e))]
        for i in 1..m - 1 {
            let v = 0.25 * (src[j * m + i - 1] + src[j * m + i + 1] + src[(j - 1) * m + i] + src[(j + 1) * m + i]);
            e = e.max((v - src[j * m + i]).abs());
            dst[r * m + i] = v;
        }
        rowerr[r] = e;
    }
}

/// Both edge rows of a band (local rows 1 and `nl`) in one launch, a block each, from `src`'s
/// 5-point average; `e_top[0]`, `e_bot[0]` get their largest changes. Launched before the
/// interior and as one kernel: the interior's kernel fills the GPU with blocks that stay until
/// it ends, so a second edge kernel queued behind the first would wait for all of it.
#[acc::parallel(async(q), vector_length(1024))]
#[allow(clippy::too_many_arguments)]
fn sweep_edges(src: &[f64], top: &mut [f64], bot: &mut [f64], e_top: &mut [f64], e_bot: &mut [f64], m: usize, nl: usize, q: i64) {
    #[acc::r#loop(gang)]
    for r in 0..2 {
        let j = if r == 0 { 1 } else { nl };
        let mut e = 0.0f64;
        #[acc::r#loop(vector, reduction(max: e))]
        for i in 1..m - 1 {
            let v = 0.25 * (src[j * m + i - 1] + src[j * m + i + 1] + src[(j - 1) * m + i] + src[(j + 1) * m + i]);
            e = e.max((v - src[j * m + i]).abs());
            if r == 0 {
                top[i] = v;
            } else {
                bot[i] = v;
            }
        }
        if r == 0 {
            e_top[0] = e;
        } else {
            e_bot[0] = e;
        }
    }
}

#[acc::parallel]
fn max_of(e: &[f64]) -> f64 {
    let mut x = 0.0f64;
    #[acc::r#loop(gang, vector, reduction(max: x))]
    for i in 0..e.len() {
        x = x.max(e[i]);
    }
    x
}

/// The initial grid: a hot left edge and a warm top edge, cold inside.
fn initial(n: usize, m: usize, j: usize, i: usize) -> f64 {
    let _ = n;
    if i == 0 {
        1.0
    } else if j == 0 {
        0.5 * (i as f64 / m as f64)
    } else {
        0.0
    }
}

/// What one band gives back: its rows (without ghosts) and the residual of each iteration.
struct BandResult {
    rows: Vec<f64>,
    residuals: Vec<f64>,
    secs: f64,
    /// Seconds spent in each phase of the iterations, summed (see [`PHASES`]).
    phases: [f64; 5],
}

/// The iterations not timed: the first calls of a thread load its kernels (and JIT-compile a
/// kernel for the block it asks for, see acc-runtime's `gpu::launch`), tens of milliseconds.
const WARMUP: usize = 2;

/// What one iteration of a band does, in order: its launches; the halo exchange (the edge
/// rows to the host, to the neighbours, their rows to the ghost rows); the wait for the
/// interior; the band's largest change (`max_of`); the combination over the bands.
const PHASES: [&str; 5] = ["launch", "halo", "interior_wait", "max_of", "combine"];

/// Rows `1..n-1` split into `parts` bands: band `r` owns global rows `[g0, g1)`.
fn band(n: usize, parts: usize, r: usize) -> (usize, usize) {
    let inner = n - 2;
    let g0 = 1 + inner * r / parts;
    let g1 = 1 + inner * (r + 1) / parts;
    (g0, g1)
}

/// The bands' meeting point. MPI's shared-memory transport polls, it does not sleep: so does
/// `Spin` (the default), while `Sleep` (`ACC_SCALING_BARRIER=sleep`) is the standard library's
/// barrier, whose waiters sleep on a futex and pay its wake-up each time.
enum Meet {
    Spin { parts: usize, arrived: AtomicUsize, generation: AtomicUsize },
    Sleep(Barrier),
}

impl Meet {
    fn new(parts: usize) -> Meet {
        if std::env::var("ACC_SCALING_BARRIER").is_ok_and(|v| v == "sleep") {
            Meet::Sleep(Barrier::new(parts))
        } else {
            Meet::Spin { parts, arrived: AtomicUsize::new(0), generation: AtomicUsize::new(0) }
        }
    }

    fn wait(&self) {
        match self {
            Meet::Sleep(b) => {
                b.wait();
            }
            Meet::Spin { parts, arrived, generation } => {
                let g = generation.load(Ordering::Acquire);
                if arrived.fetch_add(1, Ordering::AcqRel) + 1 == *parts {
                    arrived.store(0, Ordering::Relaxed);
                    generation.fetch_add(1, Ordering::Release);
                } else {
                    while generation.load(Ordering::Acquire) == g {
                        std::hint::spin_loop();
                    }
                }
            }
        }
    }
}

/// What the bands give each other: `[band][0]` its first row, `[band][1]` its last,
/// `[band][2]` its largest change.
type Mailbox = Vec<[Mutex<Vec<f64>>; 3]>;

#[allow(clippy::too_many_arguments)]
fn run_band(
    ty: acc::DeviceType,
    dev: usize,
    n: usize,
    m: usize,
    parts: usize,
    r: usize,
    iters: usize,
    overlap: bool,
    mail: &Mailbox,
    barrier: &Meet,
) -> BandResult {
    acc::set_device(ty, dev);
    let (g0, g1) = band(n, parts, r);
    let nl = g1 - g0; // owned rows; local row k <-> global row g0 - 1 + k
    assert!(nl >= 3, "each band needs 3 rows");
    assert!(iters > WARMUP, "more than {WARMUP} iterations (the first are not timed)");
    let fill = |k: usize, i: usize| initial(n, m, g0 - 1 + k, i);
    let mut a: Vec<f64> = (0..(nl + 2) * m).map(|x| fill(x / m, x % m)).collect();
    let mut b = a.clone();
    let mut rowerr = vec![0.0f64; nl];
    let mut residuals = Vec::with_capacity(iters);
    let (up, down) = (r > 0, r + 1 < parts);
    let mut secs = 0.0;
    let mut phases = [0.0f64; 5];
    acc::data!(copy(a, b), create(rowerr) {
        for it in 0..iters {
            if it == 0 {
                barrier.wait();
            }
            let t0 = Instant::now();
            let (src, dst) = if it % 2 == 0 { (&a, &mut b) } else { (&b, &mut a) };
            let (e_top, e_rest) = rowerr.split_at_mut(1);
            let (e_mid, e_bot) = e_rest.split_at_mut(nl - 2);
            let (ghost_top, rest) = dst.split_at_mut(m);
            let (row_top, rest) = rest.split_at_mut(m);
            let (mid, rest) = rest.split_at_mut((nl - 2) * m);
            let (row_bot, ghost_bot) = rest.split_at_mut(m);
            // The edge rows first, on queue 1; the interior on queue 2.
            sweep_edges(src, row_top, row_bot, e_top, e_bot, m, nl, 1);
            if overlap {
                sweep_rows(src, mid, e_mid, m, 2, 2);
            }
            let mut mark = Instant::now();
            let mut ph = [(mark - t0).as_secs_f64(), 0.0, 0.0, 0.0, 0.0];
            let mut lap = |p: usize| {
                let now = Instant::now();
                ph[p] += (now - mark).as_secs_f64();
                mark = now;
            };
            let mut row_top = row_top;
            let mut row_bot = row_bot;
            acc::update!(host(row_top, row_bot), async(1));
            if up {
                *mail[r][0].lock().unwrap() = row_top.to_vec();
            }
            if down {
                *mail[r][1].lock().unwrap() = row_bot.to_vec();
            }
            barrier.wait();
            if up {
                ghost_top.copy_from_slice(&mail[r - 1][1].lock().unwrap());
                acc::update!(device(ghost_top), async(1));
            }
            if down {
                ghost_bot.copy_from_slice(&mail[r + 1][0].lock().unwrap());
                acc::update!(device(ghost_bot), async(1));
            }
            if !overlap {
                sweep_rows(src, mid, e_mid, m, 2, 2);
            }
            lap(1);
            acc::wait(2);
            lap(2);
            let e = max_of(&rowerr);
            lap(3);
            // Combine the bands' residuals (what `MPI_Allreduce(MAX)` does between processes).
            *mail[r][2].lock().unwrap() = vec![e];
            barrier.wait();
            let global = (0..parts).map(|p| mail[p][2].lock().unwrap()[0]).fold(0.0f64, f64::max);
            barrier.wait();
            lap(4);
            residuals.push(global);
            if it >= WARMUP {
                secs += t0.elapsed().as_secs_f64();
                phases.iter_mut().zip(ph).for_each(|(p, s)| *p += s);
            }
        }
    });
    let last = if iters % 2 == 0 { &a } else { &b };
    BandResult { rows: last[m..(nl + 1) * m].to_vec(), residuals, secs, phases }
}

/// A configuration's outcome: the whole interior, the residuals, the seconds per iteration
/// (the slowest band's) and each band's seconds per iteration in each phase.
struct Outcome {
    grid: Vec<f64>,
    residuals: Vec<f64>,
    secs: f64,
    phases: Vec<[f64; 5]>,
}

impl Outcome {
    /// One line per band: microseconds per iteration in each phase.
    fn print_phases(&self, parts: usize, overlap: bool) {
        for (r, p) in self.phases.iter().enumerate() {
            let cols: Vec<String> = PHASES.iter().zip(p).map(|(name, s)| format!("{name}={:.1}", s * 1e6)).collect();
            println!("phases devices={parts} overlap={} band={r} us_per_iter: {}", if overlap { "on" } else { "off" }, cols.join(" "));
        }
    }
}

/// Runs the grid on `parts` devices (threads).
fn run(ty: acc::DeviceType, n: usize, parts: usize, iters: usize, overlap: bool) -> Outcome {
    let devs = acc::num_devices(ty).max(1);
    let mail: Mailbox = (0..parts).map(|_| std::array::from_fn(|_| Mutex::new(Vec::new()))).collect();
    let barrier = Meet::new(parts);
    let results: Vec<BandResult> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..parts)
            .map(|r| {
                let (mail, barrier) = (&mail, &barrier);
                s.spawn(move || run_band(ty, r % devs, n, n, parts, r, iters, overlap, mail, barrier))
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("a band failed")).collect()
    });
    let mut grid = Vec::with_capacity((n - 2) * n);
    for r in &results {
        grid.extend_from_slice(&r.rows);
    }
    let secs = results.iter().map(|r| r.secs).fold(0.0, f64::max);
    let timed = (iters - WARMUP) as f64;
    let phases = results.iter().map(|r| r.phases.map(|s| s / timed)).collect();
    Outcome { grid, residuals: results[0].residuals.clone(), secs: secs / timed, phases }
}

/// Sequential Jacobi of the same grid (alternating buffers), for the small check.
fn reference(n: usize, iters: usize) -> (Vec<f64>, Vec<f64>) {
    let m = n;
    let mut a: Vec<f64> = (0..n * m).map(|x| initial(n, m, x / m, x % m)).collect();
    let mut b = a.clone();
    let mut res = Vec::new();
    for it in 0..iters {
        let (src, dst) = if it % 2 == 0 { (&a, &mut b) } else { (&b, &mut a) };
        let mut e = 0.0f64;
        for j in 1..n - 1 {
            for i in 1..m - 1 {
                let v = 0.25 * (src[j * m + i - 1] + src[j * m + i + 1] + src[(j - 1) * m + i] + src[(j + 1) * m + i]);
                e = e.max((v - src[j * m + i]).abs());
                dst[j * m + i] = v;
            }
        }
        res.push(e);
    }
    let last = if iters % 2 == 0 { &a } else { &b };
    (last[m..(n - 1) * m].to_vec(), res)
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What the host spends per call on one band's launches, as medians of `reps` calls
/// (`ACC_SCALING_COSTS=1`), on `n` x `n`: each launch alone, then waited for; with `halo`,
/// the edge rows also go to the host while the interior runs (`update!(host(..), async(1))`)
/// and come back (`update!(device(..), async(1))`), as in an iteration.
fn launch_costs(n: usize, reps: usize, halo: bool) {
    let m = n;
    let nl = n - 2;
    let a: Vec<f64> = (0..n * m).map(|x| initial(n, m, x / m, x % m)).collect();
    let mut b = a.clone();
    let mut rowerr = vec![0.0f64; nl];
    let median = |v: Vec<f64>| common::middle(v) * 1e6;
    let mut t = [(); 6].map(|_| Vec::new());
    acc::data!(copyin(a), copy(b), create(rowerr) {
        for _ in 0..reps {
            let (_, rest) = b.split_at_mut(m);
            let (row_top, rest) = rest.split_at_mut(m);
            let (mid, rest) = rest.split_at_mut((nl - 2) * m);
            let (row_bot, _) = rest.split_at_mut(m);
            let (e_top, e_rest) = rowerr.split_at_mut(1);
            let (e_mid, e_bot) = e_rest.split_at_mut(nl - 2);
            let t0 = Instant::now();
            sweep_edges(&a, row_top, row_bot, e_top, e_bot, m, nl, 1);
            t[0].push(t0.elapsed().as_secs_f64());
            acc::wait(1);
            t[1].push(t0.elapsed().as_secs_f64());
            let t0 = Instant::now();
            sweep_rows(&a, mid, e_mid, m, 2, 2);
            t[2].push(t0.elapsed().as_secs_f64());
            if halo {
                // While the interior runs, as in an iteration.
                let t1 = Instant::now();
                let (mut row_top, mut row_bot) = (row_top, row_bot);
                acc::update!(host(row_top, row_bot), async(1));
                acc::update!(device(row_top, row_bot), async(1));
                t[5].push(t1.elapsed().as_secs_f64());
            }
            acc::wait(2);
            t[3].push(t0.elapsed().as_secs_f64());
            let t0 = Instant::now();
            let _ = max_of(&rowerr);
            t[4].push(t0.elapsed().as_secs_f64());
        }
    });
    let [edges, edges_done, interior, interior_done, maxes, transfers] = t;
    println!(
        "costs n={n} halo={halo} thread={:?} us: edges_launch={:.1} edges_done={:.1} interior_launch={:.1} interior_done={:.1} max_of={:.1} halo_transfers={:.1}",
        std::thread::current().name().unwrap_or("spawned"),
        median(edges),
        median(edges_done),
        median(interior),
        median(interior_done),
        median(maxes),
        if halo { median(transfers) } else { 0.0 }
    );
}

fn main() {
    let ty = acc::device_type();
    let devs = acc::num_devices(ty).max(1);
    let n = env("ACC_SCALING_N", 16384);
    let iters = env("ACC_SCALING_ITERS", 500);
    println!("# scaling: Jacobi {n} x {n} f64, {iters} iterations, on {ty:?} ({devs} device(s))");
    if std::env::var("ACC_SCALING_COSTS").is_ok_and(|v| v == "1") {
        for size in [1026, n] {
            launch_costs(size, 50, false);
            launch_costs(size, 50, true);
            let ty = acc::device_type();
            std::thread::scope(|s| {
                s.spawn(|| {
                    acc::set_device(ty, 0);
                    launch_costs(size, 50, true);
                });
            });
        }
    }
    // Small grid: every configuration against sequential Rust, bit for bit.
    let (want, want_res) = reference(258, 40);
    for parts in 1..=devs.max(2) {
        for overlap in [true, false] {
            let o = run(ty, 258, parts, 40, overlap);
            assert!(o.grid == want && o.residuals == want_res, "258 x 258 on {parts} band(s) (overlap {overlap}) differs from sequential Rust");
        }
    }
    println!("# 258 x 258, 40 iterations: 1..{} bands, overlap on and off: bit-identical to sequential Rust", devs.max(2));
    let one = run(ty, n, 1, iters, true);
    let t1 = one.secs;
    println!("scaling devices=1 overlap=on ms_per_iter={:.4} speedup=1.000 efficiency=1.000 residual={:.6e}", t1 * 1e3, one.residuals[iters - 1]);
    one.print_phases(1, true);
    for parts in 2..=devs {
        for overlap in [true, false] {
            let o = run(ty, n, parts, iters, overlap);
            let (t, res) = (o.secs, &o.residuals);
            let same = o.grid == one.grid && o.residuals == one.residuals;
            let speedup = t1 / t;
            println!(
                "scaling devices={parts} overlap={} ms_per_iter={:.4} speedup={speedup:.3} efficiency={:.3} residual={:.6e} same_as_one_device={same}",
                if overlap { "on" } else { "off" },
                t * 1e3,
                speedup / parts as f64,
                res[iters - 1]
            );
            o.print_phases(parts, overlap);
            assert!(same, "{parts} devices differ from one device");
        }
    }
}
