//! EP, the "embarrassingly parallel" benchmark: `2^(M+1)` uniform random numbers become
//! Gaussian pairs by the acceptance-rejection (polar) method, counted in ten square annuli.
//!
//! One region over all `2^(M-16)` sequences of `2 NK` numbers, a sequence an iteration of one
//! `gang, worker, vector` loop, each made `CHUNK` pairs at a time in an array of the
//! iteration's own (a local of the loop body, private to it). NPB-ACC's `ep.c` makes blocks
//! of 2048 sequences into a device scratch array `xx` instead, which keeps 2048 threads busy
//! on a GPU that holds a quarter of a million. The sums of the deviates and the ten counts
//! are one reduction, `reduction(+: sx, sy, q)` with `q` an array (OpenACC 2.7's array
//! reductions), where NPB-ACC counts in a scratch column per thread and sums the columns in a
//! second region.

use crate::class::Class;
use crate::randdp::{lcg, randlc, R46};
use crate::report::{sci, Report, Size};
use crate::timer::Timer;

/// Log2 of the numbers a sequence makes (`NK` pairs).
const MK: u32 = 16;
const NK: usize = 1 << MK;
/// The annuli counted.
const NQ: usize = 10;
const EPSILON: f64 = 1.0e-8;
const A: f64 = 1220703125.0;
const S: f64 = 271828183.0;

/// `M`: there are `2^(M+1)` random numbers.
fn m_of(class: Class) -> u32 {
    match class {
        Class::S => 24,
        Class::W => 25,
        Class::A => 28,
        Class::B => 30,
        Class::C => 32,
        Class::D => 36,
    }
}

/// NPB's reference sums of the Gaussian deviates, `(sx, sy)`.
fn reference(m: u32) -> Option<(f64, f64)> {
    Some(match m {
        24 => (-3.247834652034740e+3, -6.958407078382297e+3),
        25 => (-2.863319731645753e+3, -6.320053679109499e+3),
        28 => (-4.295875165629892e+3, -1.580732573678431e+4),
        30 => (4.033815542441498e+4, -2.660669192809235e+4),
        32 => (4.764367927995374e+4, -8.084072988043731e+4),
        36 => (1.982481200946593e+5, -1.020596636361769e+5),
        40 => (-5.319717441530e+05, -3.688834557731e+05),
        _ => return None,
    })
}

/// Pairs a thread makes at once in its own array (NPB-GPU's `RECOMPUTATION`).
const CHUNK: usize = 128;

/// Makes the `nn` sequences (sequence `k - 1` by iteration `k`), `CHUNK` pairs at a time in
/// each iteration's own array; returns the sums of the deviates and the pairs counted in each
/// annulus.
#[acc::parallel(num_gangs(nn.div_ceil(128)), num_workers(1), vector_length(128))]
fn gaussian_pairs(nn: usize, an: f64) -> (f64, f64, [f64; NQ]) {
    let mut sx = 0.0;
    let mut sy = 0.0;
    let mut q = [0.0f64; NQ];
    #[acc::r#loop(gang, worker, vector, reduction(+: sx, sy, q))]
    for k in 1..=nn {
        let mut kk = k - 1;
        let mut t1 = S;
        let mut t2 = an;
        // Find the starting seed t1 for this kk: t1 = S * an^kk (mod 2^46).
        for _ in 1..=100 {
            let ik = kk / 2;
            if 2 * ik != kk {
                t1 = lcg(t1, t2);
            }
            if ik == 0 {
                break;
            }
            t2 = lcg(t2, t2);
            kk = ik;
        }
        let mut tmp_sx = 0.0;
        let mut tmp_sy = 0.0;
        for _ in 0..NK / CHUNK {
            // Uniform pseudorandom numbers (vranlc), then Gaussian deviates by
            // acceptance-rejection, tallied in square annuli.
            let mut x = [0.0f64; 2 * CHUNK];
            for xi in 0..2 * CHUNK {
                t1 = lcg(t1, A);
                x[xi] = R46 * t1;
            }
            for i in 0..CHUNK {
                let x1 = 2.0 * x[2 * i] - 1.0;
                let x2 = 2.0 * x[2 * i + 1] - 1.0;
                let t1 = x1 * x1 + x2 * x2;
                if t1 <= 1.0 {
                    let t2 = (-2.0 * t1.ln() / t1).sqrt();
                    let t3 = x1 * t2;
                    let t4 = x2 * t2;
                    let l = t3.abs().max(t4.abs()) as usize;
                    q[l] += 1.0;
                    tmp_sx += t3;
                    tmp_sy += t4;
                }
            }
        }
        sx += tmp_sx;
        sy += tmp_sy;
    }
    (sx, sy, q)
}

pub fn run(class: Class) -> Report {
    let m = m_of(class);
    let nn = 1usize << (m - MK);
    println!("\n\n NAS Parallel Benchmarks (NPB3.3, acc) - EP Benchmark\n");
    println!(" Number of random numbers generated: {:>15}", format!("{:.0}", 2f64.powi(m as i32 + 1)));

    // The device opened before the timer starts, as NPB-ACC's `acc_init` does.
    acc::init();
    let mut timer = Timer::new();
    timer.start();
    // AN = A^(2 NK) (mod 2^46).
    let mut t1 = A;
    for _ in 0..MK + 1 {
        let t = t1;
        randlc(&mut t1, t);
    }
    let an = t1;
    let (sx, sy, q) = gaussian_pairs(nn, an);
    timer.stop();
    let tm = timer.read();
    let gc: f64 = q.iter().sum();

    let verified = reference(m).is_some_and(|(vx, vy)| {
        ((sx - vx) / vx).abs() <= EPSILON && ((sy - vy) / vy).abs() <= EPSILON
    });
    println!("\nEP Benchmark Results:\n");
    println!("CPU Time ={tm:10.4}");
    println!("N = 2^{m:5}");
    println!("No. Gaussian Pairs = {gc:15.0}");
    println!("Sums = {:>25} {:>25}", sci(sx, 15), sci(sy, 15));
    println!("Counts: ");
    for (i, c) in q.iter().enumerate() {
        println!("{i:3}{c:15.0}");
    }
    Report {
        name: "EP",
        class,
        size: Size::Pow2(m + 1),
        iterations: 0,
        time: tm,
        mops: 2f64.powi(m as i32 + 1) / tm / 1.0e6,
        optype: "Random numbers generated",
        verified,
    }
}
