//! What the benches beside hand-written CUDA (`stencils.rs`, `cache1d.rs`) share: the timing,
//! as `cuda/timing.cuh` times their nvcc twins (a warm-up call, then the median of `REPS`).

use std::time::Instant;

/// Timed calls per case.
pub const REPS: usize = 20;

/// Median seconds of one call of `f` (a synchronous region call): one warm-up, then `REPS`
/// timed calls.
pub fn median(mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..REPS)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[REPS / 2]
}
