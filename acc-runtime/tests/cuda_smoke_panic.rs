//! Kernel panics reach the host with their source location and message.
//!
//! Each case runs in a child process (a kernel that traps would end the process's CUDA
//! context, and these kernels are hand-written: a mistake in their panic path must not take
//! the other cases with it): the visible tests re-run this binary on one `#[ignore]`d child
//! test and read what it printed. Without a CUDA driver or device the children print `skipped: ...`
//! and the tests pass.
#![cfg(feature = "cuda")]

use std::process::Command;

use acc_runtime::cuda::{CudaBackend, CudaError, KernelArgs, LaunchConfig};

static PTX: &str = include_str!("fixtures/vadd_kernel.ptx");
static FIXTURE_SRC: &str = include_str!("../../acc-build/tests/fixtures/vadd-kernel/src/lib.rs");

/// `src/lib.rs:LINE:COL` of `expr` on the fixture's line marked `marker`.
fn location(marker: &str, expr: &str) -> String {
    let (n, line) = FIXTURE_SRC.lines().enumerate().find(|(_, l)| l.contains(marker)).expect("marker");
    format!("src/lib.rs:{}:{}", n + 1, line.find(expr).expect("expr") + 1)
}

/// Runs child test `name` in a fresh process; returns its stdout, or `None` when it skipped.
fn child(name: &str) -> Option<String> {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--ignored", "--nocapture", "--test-threads=1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child {name} failed:\n{stdout}\n{stderr}");
    // The harness prints `test NAME ... ` before the child's first line.
    if let Some(l) = stdout.lines().find_map(|l| l.find("skipped:").map(|at| &l[at..])) {
        println!("{l}");
        return None;
    }
    println!("{stdout}");
    Some(stdout)
}

fn field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.find(key).map(|at| &l[at + key.len()..]))
        .unwrap_or_else(|| panic!("no {key} in:\n{out}"))
}

#[test]
fn out_of_bounds_index_reports_file_line_and_message() {
    let Some(out) = child("child_out_of_bounds") else { return };
    let err = field(&out, "ERROR: ");
    // rustc places an overloaded index at its `[`.
    let at = location("ACC-OOB-LINE", "[i + 1]");
    assert_eq!(
        err,
        format!(
            "kernel `acc_k_oob` panicked at {at}: index out of bounds: the len is 1000 but the index is 1000 \
             (block (3, 0, 0), thread (231, 0, 0))"
        )
    );
    // The panicking thread only ended itself: the context goes on.
    assert_eq!(field(&out, "AFTER: "), "the context is usable", "{out}");
}

#[test]
fn division_by_zero_reports_core_message() {
    let Some(out) = child("child_divide_by_zero") else { return };
    let err = field(&out, "ERROR: ");
    let at = location("ACC-DIV-LINE", "100 / d");
    assert!(err.starts_with(&format!("kernel `acc_k_div` panicked at {at}: attempt to divide by zero (block (")), "{err}");
}

fn open() -> Option<CudaBackend> {
    match CudaBackend::new(0) {
        Ok(b) => Some(b),
        Err(e) => {
            println!("skipped: {e}");
            None
        }
    }
}

fn report(b: &CudaBackend, e: CudaError) {
    assert!(matches!(e, CudaError::KernelPanic { .. }), "{e}");
    println!("ERROR: {e}");
    match b.alloc_bytes(4) {
        Ok(_) => println!("AFTER: the context is usable"),
        Err(e) => println!("AFTER: {e}"),
    }
}

#[test]
#[ignore = "run in a child process by out_of_bounds_index_reports_file_line_and_message"]
fn child_out_of_bounds() {
    let Some(b) = open() else { return };
    let m = b.load_ptx(PTX).unwrap();
    let n = 1000;
    let (a, c) = (b.alloc_bytes(4 * n).unwrap(), b.alloc_bytes(4 * n).unwrap());
    let mut args = KernelArgs::new();
    args.panic_slot().slice(a, n).slice(c, n);
    let e = b.launch(&m, "acc_k_oob", LaunchConfig::linear(4, 256), &mut args).unwrap_err();
    report(&b, e);
}

#[test]
#[ignore = "run in a child process by division_by_zero_reports_core_message"]
fn child_divide_by_zero() {
    let Some(b) = open() else { return };
    let m = b.load_ptx(PTX).unwrap();
    let n = 4096;
    let c = b.alloc_bytes(4 * n).unwrap();
    let mut args = KernelArgs::new();
    args.panic_slot().push(0i32).slice(c, n);
    let e = b.launch(&m, "acc_k_div", LaunchConfig::linear(16, 256), &mut args).unwrap_err();
    report(&b, e);
}
