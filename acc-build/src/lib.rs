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
//! The generated device crate is readable Rust under `$OUT_DIR/acc-device-crate/` (`cargo
//! build -vv` prints `OUT_DIR`; or look under `target/*/build/<package>-*/out/`): its root
//! `kernels.rs`, a module for each crate root of the package (`tests/foo.rs`,
//! `examples/02-dot.rs`...) and its modules (`mod common;` is `tests/common/mod.rs`) at the same
//! relative paths, whose tokens from those files stand on their lines there. Names resolve
//! there as in the package (see the `scan` module's docs for what is carried and the errors on
//! what the device cannot take). acc-device comes from where cargo put it for this build
//! (`acc_device::SOURCE_DIR`), so a registry dependency works as a path one does. A kernel that panics (an index out of bounds, `panic!`, a division
//! by zero) therefore reports the user's file, line and column.

mod deps;
#[doc(hidden)]
pub mod nvptx;
mod print;
mod scan;

use std::path::{Path, PathBuf};

/// Builds the kernels of the package whose build script calls it. Does nothing but declare the
/// `acc_kernels` cfg unless the package's feature `cuda` is on. Errors are reported like a
/// compiler's, and the build stops.
pub fn compile_kernels() {
    println!("cargo::rustc-check-cfg=cfg(acc_kernels)");
    println!("cargo::rustc-check-cfg=cfg(acc_region, values(any()))");
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
    let device = scan::device_crate(manifest, lib_name(manifest).as_deref(), &|names| deps::using_acc(manifest, names))?;
    if device.kernels == 0 && device.refused == 0 {
        // No region of this package runs on the GPU (a library without regions, such as acc
        // itself from a registry): nothing to build.
        return Ok(());
    }
    // The regions built here: a region macro that finds its name missing (a region acc-build
    // could not see) is a compile error; one whose GPU lowering failed reports why.
    for r in &device.regions {
        println!("cargo::rustc-cfg=acc_region=\"{r}\"");
    }
    let crate_dir = out.join("acc-device-crate");
    // acc-device as cargo unpacked it for this build (a path dependency or the registry's
    // copy): acc-build depends on it, so the two always come together.
    let acc_device = Path::new(acc_device::SOURCE_DIR);
    let acc_device = acc_device.canonicalize().unwrap_or_else(|_| acc_device.to_path_buf());
    // The kernels are built from acc-device's source too: a change there must rebuild them.
    println!("cargo::rerun-if-changed={}", acc_device.join("src").display());
    println!("cargo::rerun-if-changed={}", acc_device.join("Cargo.toml").display());
    let cargo_toml = format!(
        r#"# Written by acc-build: the device crate of the package's acc regions.
[package]
name = "acc-kernels"
version = "0.0.0"
edition = "2021"
publish = false
build = false
autobins = false
autoexamples = false
autotests = false
autobenches = false

# The modules lie at the paths of the package's files (src/, tests/, examples/, benches/).
[lib]
crate-type = ["cdylib"]
path = "kernels.rs"

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
    write_if_changed(&crate_dir.join("kernels.rs"), &device.root)?;
    for (rel, text) in &device.modules {
        write_if_changed(&crate_dir.join(rel), text)?;
    }
    remove_stale(&crate_dir, &device.modules);
    let sm = std::env::var("ACC_SM").unwrap_or_else(|_| nvptx::DEFAULT_SM.to_string());
    let ptx = nvptx::build_ptx(&crate_dir, &out.join("acc-nvptx-target"), &sm).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&ptx).map_err(|e| format!("error: acc-build: cannot read {}: {e}", ptx.display()))?;
    write_if_changed(&out.join("acc_kernels.ptx"), &text)?;
    Ok(())
}

/// The crate name of the package's library, if it has one: `[lib] name`, else the package's
/// name with `-` as `_`.
fn lib_name(manifest: &Path) -> Option<String> {
    if !manifest.join("src/lib.rs").is_file() {
        return None;
    }
    let toml = std::fs::read_to_string(manifest.join("Cargo.toml")).unwrap_or_default();
    let mut in_lib = false;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_lib = line == "[lib]";
        } else if in_lib {
            if let Some(v) = line.strip_prefix("name").map(str::trim_start).and_then(|l| l.strip_prefix('=')) {
                return Some(v.trim().trim_matches('"').to_string());
            }
        }
    }
    std::env::var("CARGO_PKG_NAME").ok().map(|n| n.replace('-', "_"))
}

/// Removes the crate's module files that no longer come from a file of the package (and the
/// `src/lib.rs` root of earlier acc-build versions, unless it is a module).
fn remove_stale(crate_dir: &Path, modules: &[(String, String)]) {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for p in entries.flatten().map(|e| e.path()) {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["src", "tests", "examples", "benches"] {
        walk(&crate_dir.join(dir), &mut files);
    }
    for f in files {
        if !modules.iter().any(|(rel, _)| crate_dir.join(rel) == f) {
            let _ = std::fs::remove_file(&f);
        }
    }
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
