//! NVTX ranges as a profiler sees them: a child process runs with a stand-in injection library
//! (`fixtures/nvtx_injection.c`, built here with the system's C compiler) in
//! `NVTX_INJECTION64_PATH`, as `nsys` runs a program; NVTX loads it and hands it acc's pushes
//! and pops, which it writes to a file.
#![cfg(feature = "cuda")]

use std::path::{Path, PathBuf};
use std::process::Command;

use acc_runtime::profile::nvtx::{self, Range};
use acc_runtime::profile::Direction;
use acc_runtime::region_info::RegionInfo;

static JACOBI: RegionInfo = RegionInfo {
    name: "jacobi_step",
    kind: "parallel",
    file: "examples/03-jacobi.rs",
    line: 42,
    kernel: "",
};

/// The injection library, built into the test's own folder.
fn injection_library() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nvtx_injection.c");
    let lib = Path::new(env!("CARGO_TARGET_TMPDIR")).join("libacc_fake_nvtx.so");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let built = Command::new(&cc).args(["-shared", "-fPIC", "-O1", "-o"]).arg(&lib).arg(&src).status();
    assert!(built.is_ok_and(|s| s.success()), "`{cc}` could not build {}", src.display());
    lib
}

#[test]
fn a_profiler_gets_each_range_named_and_popped_in_order() {
    let lib = injection_library();
    let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join("acc-fake-nvtx.log");
    let _ = std::fs::remove_file(&log);
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["child_ranges", "--exact", "--nocapture", "--include-ignored", "--test-threads=1"])
        .env(nvtx::INJECTION_VAR, &lib)
        .env("FAKE_NVTX_LOG", &log)
        .output()
        .unwrap();
    assert!(out.status.success(), "child failed:\n{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let seen = std::fs::read_to_string(&log).expect("the injection library was not loaded");
    assert_eq!(
        seen.lines().collect::<Vec<_>>(),
        [
            "push acc region jacobi_step (examples/03-jacobi.rs:42) -> 0",
            "push acc upload a (examples/03-jacobi.rs:42) 4.0 MiB -> 1",
            "pop -> 1",
            "push acc download a (examples/03-jacobi.rs:42) 4.0 MiB -> 1",
            "pop -> 1",
            "pop -> 0",
            "push time step 3 -> 0",
            "pop -> 0",
        ]
    );
}

/// Run by the test above in a child process, with the injection library.
#[test]
#[ignore = "run in a child process by a_profiler_gets_each_range_named_and_popped_in_order"]
fn child_ranges() {
    assert!(nvtx::attached(), "{} is not set", nvtx::INJECTION_VAR);
    {
        let _launch = Range::launch(&JACOBI);
        drop(Range::transfer(&JACOBI, "a", Direction::HostToDevice, 4 << 20));
        drop(Range::transfer(&JACOBI, "a", Direction::DeviceToHost, 4 << 20));
    }
    drop(Range::named(|| format!("time step {}", 3)));
}
