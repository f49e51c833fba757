//! EP, the "embarrassingly parallel" benchmark: `2^(M+1)` uniform random numbers become
//! Gaussian pairs by the acceptance-rejection (polar) method, counted in ten square annuli.
//!
//! As NPB-ACC's `ep.c` writes it, but for the counts: the pairs are made in blocks of
//! `BLKSIZE` sequences of `2 NK` numbers, one sequence per thread, in a device scratch array
//! `xx` stored column-major (`xx[i * blksize + k]`, so that neighbouring threads touch
//! neighbouring words). The sums of the deviates and the ten counts are one reduction,
//! `reduction(+: sx, sy, q)` with `q` an array (OpenACC 2.7's array reductions), where
//! NPB-ACC counts in a scratch column per thread and sums the columns in a second region.

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
/// Sequences made at once (NPB-ACC's `BLKSIZE`; the results do not depend on it).
const BLKSIZE: usize = 2048;

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

/// Makes the block's sequences (sequence `koff + k - 1` by thread `k`); returns the sums of
/// the deviates and the pairs counted in each annulus.
#[acc::parallel(num_gangs(blksize.div_ceil(256)), num_workers(1), vector_length(256), present(xx))]
fn gaussian_pairs(xx: &mut [f64], blksize: usize, koff: usize, an: f64) -> (f64, f64, [f64; NQ]) {
    let mut sx = 0.0;
    let mut sy = 0.0;
    let mut q = [0.0f64; NQ];
    #[acc::r#loop(gang, worker, vector, reduction(+: sx, sy, q))]
    for k in 1..=blksize {
        let mut kk = koff + k - 1;
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
        // Compute uniform pseudorandom numbers (vranlc).
        for i in 0..2 * NK {
            t1 = lcg(t1, A);
            xx[i * blksize + (k - 1)] = R46 * t1;
        }
        // Gaussian deviates by acceptance-rejection, tallied in square annuli.
        let mut tmp_sx = 0.0;
        let mut tmp_sy = 0.0;
        for i in 0..NK {
            let x1 = 2.0 * xx[2 * i * blksize + (k - 1)] - 1.0;
            let x2 = 2.0 * xx[(2 * i + 1) * blksize + (k - 1)] - 1.0;
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

    let mut blksize = BLKSIZE.min(nn);
    let numblks = nn.div_ceil(blksize);
    let mut xx = vec![0.0f64; blksize * 2 * NK];
    let mut q = [0.0f64; NQ];
    let mut timer = Timer::new();
    let (mut sx, mut sy) = (0.0, 0.0);

    acc::data!(create(xx) {
        timer.start();
        // AN = A^(2 NK) (mod 2^46).
        let mut t1 = A;
        for _ in 0..MK + 1 {
            let t = t1;
            randlc(&mut t1, t);
        }
        let an = t1;
        for blk in 0..numblks {
            let koff = blk * blksize;
            if koff + blksize > nn {
                blksize = nn - koff;
            }
            let (bx, by, bq) = gaussian_pairs(&mut xx, blksize, koff, an);
            sx += bx;
            sy += by;
            for (c, b) in q.iter_mut().zip(bq) {
                *c += b;
            }
        }
    });
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
