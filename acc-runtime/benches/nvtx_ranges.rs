//! What an NVTX range costs a launch or transfer with no profiler attached, in ns per range
//! (pushed and popped): acc's range (the test of whether a profiler is attached, nothing
//! else), NVTX's own no-op push and pop through its function pointers with the name copied
//! into a C string as the `nvtx` crate does (with the `cuda` feature), and making a range's
//! name (what acc skips without a profiler).
//!
//! `cargo bench -p acc-runtime --features cuda --bench nvtx_ranges` (run it without
//! `NVTX_INJECTION64_PATH`).

use std::hint::black_box;
use std::time::Instant;

use acc_runtime::profile::nvtx::{self, Range};
use acc_runtime::region_info::RegionInfo;

static JACOBI: RegionInfo = RegionInfo {
    name: "jacobi_step",
    kind: "parallel",
    file: "examples/03-jacobi.rs",
    line: 42,
    kernel: "",
};

const CALLS: u32 = 10_000_000;

/// The best of 5 runs of `CALLS` calls of `f`, in ns per call.
fn ns_per_call(mut f: impl FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..CALLS {
                f();
            }
            t.elapsed().as_nanos() as f64 / CALLS as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    if std::env::var_os(nvtx::INJECTION_VAR).is_some() {
        eprintln!("nvtx bench: {} is set: these are the costs with no profiler; unset it", nvtx::INJECTION_VAR);
        std::process::exit(1);
    }
    assert!(!nvtx::attached());
    let acc = ns_per_call(|| drop(black_box(Range::launch(black_box(&JACOBI)))));
    println!("acc range, no profiler: {acc:.2} ns per range (push + pop)");
    #[cfg(feature = "cuda")]
    {
        let name = nvtx::launch_name(&JACOBI);
        assert_eq!(::nvtx::range_push!("{name}"), nvtx::NO_TRACKING, "NVTX found a profiler");
        assert_eq!(::nvtx::range_pop!(), nvtx::NO_TRACKING);
        let raw = ns_per_call(|| {
            let name = black_box(&name);
            black_box(::nvtx::range_push!("{name}"));
            black_box(::nvtx::range_pop!());
        });
        println!("NVTX's no-op push + pop, the name copied: {raw:.2} ns per range");
    }
    let named = ns_per_call(|| drop(black_box(std::ffi::CString::new(nvtx::launch_name(black_box(&JACOBI))))));
    println!("a launch range's name made: {named:.2} ns (skipped with no profiler)");
}
