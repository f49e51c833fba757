//! A 2-D Jacobi iteration decomposed over MPI ranks, as OpenACC codes do it: each rank owns a
//! band of rows (with a ghost row above and below), selects its GPU from its node-local rank
//! (`acc::set_device`), and each step
//!
//! 1. sweeps its two edge rows on async queue 1 (one kernel, launched first, so that its
//!    blocks are running before the interior's fill the GPU) and its interior rows on queue 2
//!    (the interior keeps the GPU busy while the halo moves);
//! 2. copies the edge rows to the host (`acc::update!(host(..), async(1))`: in order with
//!    queue 1 only), exchanges them with the neighbours (`MPI_Sendrecv`) into its ghost rows,
//!    and copies those to the device (`acc::update!(device(..), async(1))`);
//! 3. waits for the interior (`acc::wait(2)`), takes the largest change of its rows (acc's
//!    `max` reduction) and combines it over the ranks (`MPI_Allreduce(MAX)`).
//!
//! The result does not depend on the number of ranks, bit for bit: every point is the same
//! arithmetic, and `max` is exact. Rank 0 prints the residual and a digest of the grid that
//! does not depend on the decomposition either (`--check` also compares with sequential Rust).
//!
//! `mpirun -np 4 target/release/mpi-jacobi [rows] [iterations] [--check]`

use mpi::collective::SystemOperation;
use mpi::point_to_point::send_receive_into;
use mpi::traits::*;

/// Rows `j0 .. j0 + rowerr.len()` into `dst` (a window that starts at row `j0`) from `src`'s
/// 5-point average, columns `1..m-1`; `rowerr[r]` gets row `r`'s largest change.
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

/// The largest of `e` (acc's `max` reduction).
#[acc::parallel]
fn max_of(e: &[f64]) -> f64 {
    let mut x = 0.0f64;
    #[acc::r#loop(gang, vector, reduction(max: x))]
    for i in 0..e.len() {
        x = x.max(e[i]);
    }
    x
}

/// The initial grid: a hot left edge, a warm top edge, cold inside.
fn initial(m: usize, j: usize, i: usize) -> f64 {
    if i == 0 {
        1.0
    } else if j == 0 {
        0.5 * (i as f64 / m as f64)
    } else {
        0.0
    }
}

/// Rows `1..n-1` split into `parts` bands: band `r` owns global rows `[g0, g1)`.
fn band(n: usize, parts: usize, r: usize) -> (usize, usize) {
    let inner = n - 2;
    (1 + inner * r / parts, 1 + inner * (r + 1) / parts)
}

/// A digest of grid points that does not depend on how they are split: each point's global
/// index and bits hashed (splitmix64), combined with XOR.
fn digest(points: impl Iterator<Item = (usize, f64)>) -> u64 {
    points
        .map(|(g, v)| {
            let mut z = (g as u64 ^ v.to_bits().rotate_left(17)).wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .fold(0, |a, b| a ^ b)
}

/// Sequential Jacobi of the whole grid (alternating buffers): the interior rows and the
/// residual of each iteration.
fn reference(n: usize, iters: usize) -> (Vec<f64>, Vec<f64>) {
    let m = n;
    let mut a: Vec<f64> = (0..n * m).map(|x| initial(m, x / m, x % m)).collect();
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
    let last = if iters % 2 == 0 { a } else { b };
    (last[m..(n - 1) * m].to_vec(), res)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let nums: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let n = nums.first().copied().unwrap_or(1026);
    let iters = nums.get(1).copied().unwrap_or(200);
    let m = n;

    let universe = mpi::initialize().expect("MPI initialises");
    let world = universe.world();
    let (rank, size) = (world.rank() as usize, world.size() as usize);
    // The GPU of this rank: its rank among the ranks of its node.
    let local = world.split_shared(rank as i32).rank() as usize;
    let ty = acc::device_type();
    let gpu = local % acc::num_devices(ty).max(1);
    acc::set_device(ty, gpu);

    let (g0, g1) = band(n, size, rank);
    let nl = g1 - g0; // rows owned; local row k is global row g0 - 1 + k
    assert!(nl >= 3, "{n} rows over {size} ranks: each rank needs 3 rows");
    let mut a: Vec<f64> = (0..(nl + 2) * m).map(|x| initial(m, g0 - 1 + x / m, x % m)).collect();
    let mut b = a.clone();
    let mut rowerr = vec![0.0f64; nl];
    let up = (rank > 0).then(|| world.process_at_rank(rank as i32 - 1));
    let down = (rank + 1 < size).then(|| world.process_at_rank(rank as i32 + 1));
    let mut residuals = Vec::with_capacity(iters);
    let secs: f64;
    // The first iterations are not timed: they load the kernels (and JIT-compile them when the
    // driver's cache does not have them yet).
    let warm = if iters > 2 { 2 } else { 0 };
    acc::data!(copy(a, b), create(rowerr) {
        world.barrier();
        let mut start = std::time::Instant::now();
        for it in 0..iters {
            if it == warm {
                world.barrier();
                start = std::time::Instant::now();
            }
            let (src, dst) = if it % 2 == 0 { (&a, &mut b) } else { (&b, &mut a) };
            let (e_top, e_rest) = rowerr.split_at_mut(1);
            let (e_mid, e_bot) = e_rest.split_at_mut(nl - 2);
            let (ghost_top, rest) = dst.split_at_mut(m);
            let (mut row_top, rest) = rest.split_at_mut(m);
            let (mid, rest) = rest.split_at_mut((nl - 2) * m);
            let (mut row_bot, ghost_bot) = rest.split_at_mut(m);
            sweep_edges(src, row_top, row_bot, e_top, e_bot, m, nl, 1);
            sweep_rows(src, mid, e_mid, m, 2, 2);
            acc::update!(host(row_top, row_bot), async(1));
            if let Some(up) = &up {
                send_receive_into(&*row_top, up, &mut *ghost_top, up);
                acc::update!(device(ghost_top), async(1));
            }
            if let Some(down) = &down {
                send_receive_into(&*row_bot, down, &mut *ghost_bot, down);
                acc::update!(device(ghost_bot), async(1));
            }
            acc::wait(2);
            let mine = max_of(&rowerr);
            let mut all = 0.0f64;
            world.all_reduce_into(&mine, &mut all, SystemOperation::max());
            residuals.push(all);
        }
        secs = start.elapsed().as_secs_f64();
    });
    let last = if iters % 2 == 0 { &a } else { &b };
    let mine = digest((m..(nl + 1) * m).map(|x| ((g0 - 1) * m + x, last[x])));
    let mut all = 0u64;
    world.all_reduce_into(&mine, &mut all, SystemOperation::bitwise_xor());
    if rank == 0 {
        println!(
            "mpi-jacobi {n}x{m} {iters} iterations on {size} rank(s) ({ty:?}): residual {:.17e} digest {all:#018x} ({:.3} ms per iteration after the first {warm}, data on the devices)",
            residuals[iters - 1],
            secs * 1e3 / (iters - warm) as f64
        );
        if check {
            let (want, want_res) = reference(n, iters);
            let want_digest = digest(want.iter().enumerate().map(|(x, &v)| (m + x, v)));
            assert_eq!(residuals, want_res, "residuals differ from sequential Rust");
            assert_eq!(all, want_digest, "the grid differs from sequential Rust");
            println!("checked: bit-identical to sequential Rust");
        }
    }
}
