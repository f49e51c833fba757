//! What the benches share: their timing, as `cuda/timing.cuh` times the nvcc twins of
//! `stencils.rs` and `cache1d.rs` (a warm-up call, then the median of `REPS`).

// Each bench that includes this module calls some of it.
#![allow(dead_code)]

use std::time::Instant;

/// Timed calls per case.
pub const REPS: usize = 20;

/// Median seconds of one call of `f` (region calls), each timed until its work has ended: one
/// warm-up, then `REPS` timed calls.
pub fn median(mut f: impl FnMut()) -> f64 {
    f();
    median_of(REPS, f)
}

/// Median seconds of `reps` timed calls of `f`, with no warm-up. Each call is waited for
/// (`acc::wait_all`): on a GPU a region whose results stay on the device returns once its
/// kernel is queued.
pub fn median_of(reps: usize, mut f: impl FnMut()) -> f64 {
    middle((0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            acc::wait_all();
            s.elapsed().as_secs_f64()
        })
        .collect())
}

/// The median of `samples` (at least one).
pub fn middle(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Prints the process's launches on the GPU (with those of kernels without the index checks
/// the launch proved) and on the host: the line the GPU scripts check (no host launch in a GPU
/// run). Timed runs count them this way rather than with `ACC_NOTIFY`, whose line per launch
/// is a system call inside the timed call.
pub fn print_launches() {
    let c = acc::profile::launch_counts();
    println!(
        "# launches: gpu {} ({} of kernels without the index checks the launch proved, {} of them one point a thread, {} lean), host {}",
        c.gpu, c.bounded, c.point, c.lean, c.host
    );
}
