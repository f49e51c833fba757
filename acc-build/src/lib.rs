//! The build.rs helper of acc: with the package's feature `cuda`, it finds the annotated items
//! in the package's sources, writes a `no_std` device crate with acc-codegen (the same
//! functions the proc macros call), compiles it to PTX with the pinned nightly, and leaves the
//! PTX at `$OUT_DIR/acc_kernels.ptx`, where the region fns' GPU paths embed it. Without the
//! feature it only declares the `acc_kernels` cfg.
//!
//! ```
//! // build.rs of a package with `[features] cuda = ["acc/cuda"]`
//! fn main() {
//!     // Without the feature (as here) this only declares the cfgs the region macros test.
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
//!
//! Rebuilds are quick: after an edit only the kernels that changed are compiled, into a PTX
//! module of their own (the `incremental` module says how; `acc_kernels.ptx` may then hold
//! several modules), and the nightly `core` for the device is built once per machine and
//! toolchain, in `ACC_CACHE_DIR` or `~/.cargo/acc-cache` ([`nvptx::core_sysroot`]), not per
//! package and profile. A profile's first build of a package (`cargo build --release` after
//! `cargo build` or `cargo clippy`) starts from the package's last build in another profile,
//! kept under the target directory (the `shared` module), so it compiles only what differs.
//! `cargo build -vv` shows what each build compiled and how long it took.

// The crate docs' example is a build.rs: its `fn main` is the point.
#![allow(clippy::needless_doctest_main)]

mod incremental;
mod deps;
mod info;
#[doc(hidden)]
pub mod nvptx;
mod print;
mod ptxas;
mod slot;
mod scan;
mod shared;
mod split;

use std::path::{Path, PathBuf};
use std::time::Instant;

/// Builds the kernels of the package whose build script calls it. Does nothing but declare the
/// `acc_kernels` cfg unless the package's feature `cuda` is on. Errors are reported like a
/// compiler's, and the build stops.
pub fn compile_kernels() {
    println!("cargo::rustc-check-cfg=cfg(acc_kernels)");
    println!("cargo::rustc-check-cfg=cfg(acc_region, values(any()))");
    println!("cargo::rerun-if-env-changed=ACC_SM");
    println!("cargo::rerun-if-env-changed=ACC_INFO");
    // Experiment switches for A/B runs: the first round size of a worker loop's counted rounds
    // and of a nested reduction's chunks (acc-codegen `worker_round_sizes`, `reduction_chunk_rounds`).
    println!("cargo::rerun-if-env-changed=ACC_EXP_WROUND");
    println!("cargo::rerun-if-env-changed=ACC_EXP_VROUND");
    println!("cargo::rerun-if-env-changed=ACC_EXP_LUNROLL");
    // A staged stencil's rows a thread a block apart, as before adjacent rows (acc-codegen `Coarse::adjacent`).
    println!("cargo::rerun-if-env-changed=ACC_EXP_STRIDED_ROWS");
    println!("cargo::rerun-if-env-changed=ACC_EXP_ADJ_ROWS");
    // Unchecked indices `b + o` / `b - o` written whole (acc-codegen `bounds::write_unchecked`).
    println!("cargo::rerun-if-env-changed=ACC_EXP_NOSPLITIX");
    println!("cargo::rerun-if-env-changed=ACC_EXP_WINDOW_NOW");
    println!("cargo::rerun-if-env-changed=ACC_EXP_POINT_NESTED");
    println!("cargo::rerun-if-env-changed=ACC_EXP_KEEPSLOT");
    // Kernels without their element index checks (measurement only: an index past its array
    // is then undefined behaviour on the GPU), `nvptx.rs`'s `rustflags`.
    println!("cargo::rerun-if-env-changed=ACC_EXP_NOCHECKS");
    println!("cargo::rerun-if-env-changed=ACC_EXP_NOALIAS");
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

/// What [`compile_kernels`] does for the package at `manifest` with `out` as `OUT_DIR`, the
/// error rendered (for tests).
#[doc(hidden)]
pub fn build(manifest: &Path, out: &Path) -> Result<(), String> {
    let started = Instant::now();
    let device = scan::device_crate(manifest, lib_name(manifest).as_deref(), &|names| deps::using_acc(manifest, names))?;
    // What took the time, for `cargo build -vv` (a build script's stderr).
    eprintln!("acc-build: scanned the package in {:.2} s", started.elapsed().as_secs_f64());
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
    // The bounds of the routines each unchecked kernel calls, for the launches' checks.
    let bounds_dir = out.join("acc_bounds");
    std::fs::create_dir_all(&bounds_dir).map_err(|e| format!("error: acc-build: cannot create {}: {e}", bounds_dir.display()))?;
    for (kernel, text) in &device.bounds {
        write_if_changed(&bounds_dir.join(format!("{kernel}.rs")), text)?;
    }
    // The bounds of the index methods the regions call on their value parameters.
    let methods_dir = bounds_dir.join("methods");
    std::fs::create_dir_all(&methods_dir).map_err(|e| format!("error: acc-build: cannot create {}: {e}", methods_dir.display()))?;
    for (name, text) in &device.methods {
        write_if_changed(&methods_dir.join(name), text)?;
    }
    let sm = std::env::var("ACC_SM").unwrap_or_else(|_| nvptx::DEFAULT_SM.to_string());
    // Another profile's last build of this package, where this one has none yet.
    let shared = shared::dir(out, manifest);
    if let Some(s) = &shared {
        if shared::seed(s, out, &crate_dir) {
            eprintln!("acc-build: started from the build shared by the package's profiles ({})", s.display());
        }
    }
    let loadable = build_changed(out, &crate_dir, &cargo_toml, &device.root, &device.modules, &acc_device, &sm)?;
    if let Some(s) = &shared {
        shared::publish(s, out, &crate_dir);
    }
    // The schedule report (`ACC_INFO`, the `info` clause), with the kernels' resources.
    info::emit(&device.reports, &loadable, out, &sm);
    Ok(())
}

/// `ptx` with the comment lines `columns` (`print::columns_header`) in its header: after the
/// first line of a file of several modules, else first. PTX comments, which the runtime reads
/// back (acc-runtime `columns`) and the JIT skips.
fn with_columns(ptx: &str, columns: &str) -> String {
    match ptx.split_once('\n') {
        Some((first, rest)) if first == incremental::MODULES_HEADER => format!("{first}\n{columns}{rest}"),
        _ => format!("{columns}{ptx}"),
    }
}

/// Compiles the device crate at `crate_dir` (its `Cargo.toml`, root and modules given) to
/// `$OUT_DIR/acc_kernels.ptx`: all of it, or only the kernels that changed since the last
/// build (see the `incremental` module). Returns the PTX modules as the runtime loads them.
fn build_changed(
    out: &Path,
    crate_dir: &Path,
    cargo_toml: &str,
    root: &str,
    modules: &[(String, String)],
    acc_device: &Path,
    sm: &str,
) -> Result<Vec<String>, String> {
    let target = out.join("acc-nvptx-target");
    let modules_dir = out.join("acc-ptx-modules");
    let state_path = out.join("acc-ptx-state");
    let started = Instant::now();
    let version = nvptx::rustc_version().map_err(|e| e.to_string())?;
    let locked = crate_dir.join("Cargo.lock").is_file();
    let kernels = incremental::kernels(modules, &incremental::config_key(crate_dir, acc_device, &version, sm))?;
    let keyed = started.elapsed().as_secs_f64();
    // The last build's state, if its modules are all there.
    let state = std::fs::read_to_string(&state_path).ok().and_then(|t| incremental::State::parse(&t)).and_then(|s| {
        let texts: Option<Vec<String>> = s.modules.iter().map(|m| std::fs::read_to_string(modules_dir.join(m)).ok()).collect();
        texts.map(|t| (s, t))
    });
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("error: acc-build: cannot read {}: {e}", p.display()));
    let plan = incremental::plan(&kernels, state.as_ref().map(|(s, _)| s));
    let mut what = match &plan {
        incremental::Plan::Nothing => "none".to_string(),
        incremental::Plan::Full => "all".to_string(),
        incremental::Plan::Delta { build, .. } => format!("{} in a module of their own", build.len()),
    };
    let (texts, owner): (Vec<String>, Vec<usize>) = match (plan, state) {
        (incremental::Plan::Nothing, Some((s, texts))) => {
            let owner = kernels.iter().map(|k| s.kernels[&k.name].1).collect();
            (texts, owner)
        }
        (incremental::Plan::Delta { build, cut }, Some((s, mut texts))) => {
            let mut ok = true;
            for name in &cut {
                let m = s.kernels[name].1;
                match incremental::cut_entry(&texts[m], name) {
                    Some(t) => texts[m] = t,
                    None => ok = false,
                }
            }
            if ok {
                let mut owner: Vec<usize> = kernels.iter().map(|k| s.kernels.get(&k.name).map_or(usize::MAX, |e| e.1)).collect();
                if !build.is_empty() {
                    let delta = write_delta_crate(out, crate_dir, cargo_toml, root, modules, &kernels, &build)?;
                    let ptx = nvptx::build_ptx(&delta, &target, sm).map_err(|e| e.to_string())?;
                    texts.push(read(&ptx)?);
                    for &i in &build {
                        owner[i] = texts.len() - 1;
                    }
                }
                // Modules left with no kernel go.
                let keep: Vec<usize> = (0..texts.len()).filter(|&m| owner.contains(&m)).collect();
                let texts = keep.iter().map(|&m| std::mem::take(&mut texts[m])).collect();
                let owner = owner.iter().map(|o| keep.iter().position(|m| m == o).expect("a kept module")).collect();
                (texts, owner)
            } else {
                // A module lacks a kernel the state puts there: start afresh.
                what = "all".to_string();
                full_build(crate_dir, &target, sm, &kernels)?
            }
        }
        _ => full_build(crate_dir, &target, sm, &kernels)?,
    };
    // The first build writes the crate's lock file, which the keys hold: key them again.
    let kernels = if !locked && crate_dir.join("Cargo.lock").is_file() {
        incremental::kernels(modules, &incremental::config_key(crate_dir, acc_device, &version, sm))?
    } else {
        kernels
    };
    let mut state = incremental::State::default();
    for (m, text) in texts.iter().enumerate() {
        let name = format!("{m}.ptx");
        write_if_changed(&modules_dir.join(&name), text)?;
        state.modules.push(name);
    }
    for m in texts.len().. {
        if std::fs::remove_file(modules_dir.join(format!("{m}.ptx"))).is_err() {
            break;
        }
    }
    for (k, m) in kernels.iter().zip(owner) {
        state.kernels.insert(k.name.clone(), (k.key.clone(), m));
    }
    // One module per file of regions, so that a program loads only its own files' kernels.
    let loadable = split::by_file(&texts);
    let ptx = with_columns(&incremental::assemble(&loadable), &print::columns_header(modules));
    write_if_changed(&out.join("acc_kernels.ptx"), &ptx)?;
    eprintln!(
        "acc-build: {} kernels, keyed in {keyed:.2} s; compiled {what}; {} PTX module{}, {} to load (in {:.2} s)",
        kernels.len(),
        texts.len(),
        if texts.len() == 1 { "" } else { "s" },
        loadable.len(),
        started.elapsed().as_secs_f64()
    );
    write_if_changed(&state_path, &state.text())?;
    Ok(loadable)
}

/// Compiles the whole device crate: one module holding every kernel.
fn full_build(crate_dir: &Path, target: &Path, sm: &str, kernels: &[incremental::Kernel]) -> Result<(Vec<String>, Vec<usize>), String> {
    let ptx = nvptx::build_ptx(crate_dir, target, sm).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&ptx).map_err(|e| format!("error: acc-build: cannot read {}: {e}", ptx.display()))?;
    Ok((vec![text], vec![0; kernels.len()]))
}

/// Writes `$OUT_DIR/acc-device-delta/`: the device crate with every kernel but the ones
/// indexed by `build` blanked out (every other token keeps its line and column, so the kernels
/// compiled there are the full build's, and panic at the same places).
fn write_delta_crate(
    out: &Path,
    crate_dir: &Path,
    cargo_toml: &str,
    root: &str,
    modules: &[(String, String)],
    kernels: &[incremental::Kernel],
    build: &[usize],
) -> Result<PathBuf, String> {
    let dir = out.join("acc-device-delta");
    let toml = cargo_toml.replacen("name = \"acc-kernels\"", "name = \"acc-kernels-delta\"", 1);
    write_if_changed(&dir.join("Cargo.toml"), &toml)?;
    // The same versions of acc-device's dependencies as the full build.
    if let Ok(lock) = std::fs::read_to_string(crate_dir.join("Cargo.lock")) {
        write_if_changed(&dir.join("Cargo.lock"), &lock.replace("name = \"acc-kernels\"", "name = \"acc-kernels-delta\""))?;
    }
    write_if_changed(&dir.join("kernels.rs"), root)?;
    for (m, (rel, text)) in modules.iter().enumerate() {
        let blanked: Vec<std::ops::Range<usize>> =
            (0..kernels.len()).filter(|i| kernels[*i].module == m && !build.contains(i)).map(|i| kernels[i].range.clone()).collect();
        write_if_changed(&dir.join(rel), &incremental::blank(text, &blanked))?;
    }
    remove_stale(&dir, modules);
    Ok(dir)
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
