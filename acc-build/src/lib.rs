//! The build.rs helper of acc: with the package's feature `cuda`, it finds the annotated items
//! in the package's sources, writes a `no_std` device crate with acc-codegen (the same
//! functions the proc macros call), compiles it to PTX with the pinned nightly, and leaves the
//! PTX at `$OUT_DIR/acc_kernels.ptx`, where the region fns' GPU paths embed it. Without the
//! feature it only declares the `acc_kernels` cfg.
//!
//! ```no_run
//! // build.rs
//! fn main() {
//!     acc_build::compile_kernels();
//! }
//! ```
//!
//! The generated device crate is readable Rust: `$OUT_DIR/acc-device-crate/src/lib.rs`
//! (`cargo build -vv` prints `OUT_DIR`; or look under `target/*/build/<package>-*/out/`).

#[doc(hidden)]
pub mod nvptx;
mod scan;

use std::path::{Path, PathBuf};

/// Builds the kernels of the package whose build script calls it. Does nothing but declare the
/// `acc_kernels` cfg unless the package's feature `cuda` is on. Errors are reported like a
/// compiler's, and the build stops.
pub fn compile_kernels() {
    println!("cargo::rustc-check-cfg=cfg(acc_kernels)");
    println!("cargo::rerun-if-env-changed=ACC_SM");
    if std::env::var_os("CARGO_FEATURE_CUDA").is_none() {
        return;
    }
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("run from a build script"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("run from a build script"));
    match build(&manifest, &out) {
        Ok(()) => println!("cargo::rustc-cfg=acc_kernels"),
        Err(msg) => {
            eprintln!("{msg}");
            for line in msg.lines().filter(|l| l.starts_with("error")).take(1) {
                println!("cargo::warning={line}");
            }
            std::process::exit(1);
        }
    }
}

fn build(manifest: &Path, out: &Path) -> Result<(), String> {
    let device = scan::device_crate(manifest)?;
    let crate_dir = out.join("acc-device-crate");
    let acc_device = Path::new(env!("CARGO_MANIFEST_DIR")).join("../acc-device");
    let acc_device = acc_device.canonicalize().unwrap_or(acc_device);
    let cargo_toml = format!(
        r#"# Written by acc-build: the device crate of the package's acc regions.
[package]
name = "acc-kernels"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
crate-type = ["cdylib"]
path = "src/lib.rs"

[dependencies]
acc-device = {{ path = "{}" }}

[profile.release]
opt-level = 3
panic = "abort"
lto = "fat"
codegen-units = 1
debug = false
incremental = false

[profile.dev]
panic = "abort"

[workspace]
"#,
        acc_device.display().to_string().replace('\\', "/")
    );
    write_if_changed(&crate_dir.join("Cargo.toml"), &cargo_toml)?;
    write_if_changed(&crate_dir.join("src/lib.rs"), &device.source)?;
    let sm = std::env::var("ACC_SM").unwrap_or_else(|_| nvptx::DEFAULT_SM.to_string());
    let ptx = nvptx::build_ptx(&crate_dir, &out.join("acc-nvptx-target"), &sm).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&ptx).map_err(|e| format!("error: acc-build: cannot read {}: {e}", ptx.display()))?;
    write_if_changed(&out.join("acc_kernels.ptx"), &text)?;
    Ok(())
}

/// Writes `text` to `path` unless it already holds exactly that (keeps mtimes, so nothing
/// downstream rebuilds needlessly).
fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("error: acc-build: cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("error: acc-build: cannot write {}: {e}", path.display()))
}
