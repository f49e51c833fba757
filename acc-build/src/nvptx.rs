//! Compiling a device crate (what acc-build generates, or a hand-written one) to one PTX file.
//!
//! The pinned nightly compiles the crate for `nvptx64-nvidia-cuda` against a `core` it built
//! from `rust-src` once per machine (rustup serves no prebuilt `core` for the target; see
//! [`core_sysroot`]):
//!
//! ```text
//! rustup run nightly-2026-05-20 cargo \
//!     --config profile.release.{panic="abort",lto="fat",codegen-units=1,opt-level=3,...} \
//!     rustc --manifest-path <crate>/Cargo.toml --release --lib --crate-type=cdylib \
//!     --target nvptx64-nvidia-cuda --target-dir <target_dir> --message-format=json \
//!     -- --emit=asm -C linker=true
//! # with CARGO_ENCODED_RUSTFLAGS = -Ctarget-cpu=<sm> -Zmir-enable-passes=-JumpThreading
//! #                                -Cllvm-args=-disable-lsr
//! #                                --sysroot=<cache>/nvptx-core/<toolchain>-<sm>-<hash>
//! ```
//!
//! The sysroot's `core` is what `-Zbuild-std=core,panic_abort` builds into a target dir
//! (about a minute on 2 cores), built once, with the same profile and rustflags, and shared
//! by every package and profile. (The PTX is the same as with `-Zbuild-std` but for the crate
//! hashes in the symbols of acc-device, libm and the kernels' crate: cargo hashes a crate's
//! dependencies into its own, and `core` is no longer one of them.)
//!
//! * `cdylib` + fat LTO + one codegen unit: rustc emits *one* PTX module holding the kernels
//!   and everything they call (acc-device, `core`'s panic paths, `libm`).
//! * `--emit=asm` writes that module as `<target_dir>/nvptx64-nvidia-cuda/release/deps/<name>.s`;
//!   the link step that follows would need `llvm-bitcode-linker`, which rustup does not ship,
//!   so `-C linker=true` turns it into a no-op.
//! * The rustflags reach every crate of the build (acc-device, and `core` when it is built):
//!   `-Zmir-enable-passes=-JumpThreading` keeps MIR jump threading from duplicating a barrier
//!   into divergent branches (rust#137086), and `-Ctarget-cpu` picks the PTX target
//!   (`sm_80` runs on Ampere and every later GPU, which JIT-compile it).
//! * `-Cllvm-args=-disable-lsr`: no loop strength reduction. On a grid-stride loop LLVM's LSR
//!   keeps a 64-bit pointer per address of the body (a 5-point stencil: 8 of them), and the
//!   registers cost the kernels their occupancy: a 2-D Laplacian's kernel went from 53 to 30
//!   registers, a Jacobi step's from 72 to 38, a 13-point wave step's from 123 to 68. On an
//!   H200 in one A/B run (6cbc3c7) the Laplacian went from 0.62x to 0.93x
//!   nvcc, Heat2D from 0.88x to 1.03x, the bench's Table 2 worker and gang worker positions
//!   from 0.89/0.91x to 0.96/0.98x, the papers' gang position 1.47x faster; the papers' vector
//!   position with its 2 blocks ran 1.9x slower on 4-byte sums (its 8-trip rounds), their
//!   worker position 5-10% slower.
//! * The build runs with its own `--target-dir` (sharing the outer build's would deadlock on
//!   cargo's lock) and without the environment the outer build gives a build script
//!   (`RUSTFLAGS`, `RUSTC_WRAPPER`, `CARGO_*`, `TARGET`...), which would change or confuse it.
//!
//! # The device crate's contract
//! * `Cargo.toml`: a `[lib]` (any `crate-type`: the build passes `--crate-type=cdylib`), a
//!   dependency on `acc-device`, and an empty `[workspace]` table when it lies inside another
//!   workspace. The release profile is set on the command line (above).
//! * The library root (`src/lib.rs`; acc-build's crates use `kernels.rs`): `#![no_std]`, `#![feature(abi_ptx)]` (see
//!   `acc_device::KERNEL_FEATURES`), kernels as `#[no_mangle] pub unsafe extern "ptx-kernel"
//!   fn` whose first parameter is the launch's panic slot (`*mut acc_device::panic::PanicSlot`,
//!   given by `KernelArgs::panic_slot`), handed to `acc_device::panic::enter` first, and
//!   `#[panic_handler] fn panic(i: &core::panic::PanicInfo) -> ! { acc_device::report_panic(i) }`.

use std::collections::BTreeSet;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The pinned nightly toolchain that compiles device code.
pub const TOOLCHAIN: &str = "nightly-2026-05-20";

/// The one command that installs [`TOOLCHAIN`] with the components the build needs.
pub const INSTALL_COMMAND: &str =
    "rustup toolchain install nightly-2026-05-20 --profile minimal -c rust-src -c llvm-tools";

/// The device target.
pub const TARGET: &str = "nvptx64-nvidia-cuda";

/// The default `-Ctarget-cpu`: Ampere's, JIT-compiled by the driver for any later GPU.
pub const DEFAULT_SM: &str = "sm_80";

/// Why a device crate did not compile; `Display` renders it like the compiler does (each
/// error as rustc printed it, then a summary line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    kind: BuildErrorKind,
    text: String,
}

/// The kinds of [`BuildError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildErrorKind {
    /// `rustup`, the pinned nightly or one of its components is missing; the text names
    /// [`INSTALL_COMMAND`].
    Toolchain,
    /// The crate has errors; the text holds rustc's rendered diagnostics.
    Compile,
    /// Running the build or reading its output failed (I/O, no PTX written...).
    Io,
}

impl BuildError {
    fn new(kind: BuildErrorKind, text: impl Into<String>) -> Self {
        BuildError { kind, text: text.into() }
    }

    fn toolchain(what: &str) -> Self {
        BuildError::new(
            BuildErrorKind::Toolchain,
            format!(
                "error: {what}\n  = note: acc compiles GPU code with the Rust toolchain `{TOOLCHAIN}` \
                 and its components rust-src and llvm-tools\n  = help: install them with: {INSTALL_COMMAND}\n"
            ),
        )
    }

    /// What went wrong.
    pub fn kind(&self) -> BuildErrorKind {
        self.kind
    }

    /// The rendered text (as `Display` prints it).
    pub fn rendered(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text.trim_end())
    }
}

impl std::error::Error for BuildError {}

/// A finished device build: the PTX file and the warnings rustc printed on the way.
#[derive(Debug, Clone)]
pub struct PtxBuild {
    /// `<target_dir>/<crate name>.ptx` (written only when its content changed).
    pub ptx: PathBuf,
    /// Rendered warnings of the device crate (not of `core` or acc-device).
    pub warnings: Vec<String>,
}

/// Compiles the device crate at `crate_dir` to PTX for `sm` (e.g. `"sm_80"`) in
/// `target_dir`; returns the `.ptx` file's path.
pub fn build_ptx(crate_dir: &Path, target_dir: &Path, sm: &str) -> Result<PathBuf, BuildError> {
    build_ptx_full(crate_dir, target_dir, sm).map(|b| b.ptx)
}

/// [`build_ptx`], also returning the crate's warnings.
pub fn build_ptx_full(crate_dir: &Path, target_dir: &Path, sm: &str) -> Result<PtxBuild, BuildError> {
    check_toolchain()?;
    let manifest = crate_dir.join("Cargo.toml");
    if !manifest.is_file() {
        return Err(BuildError::new(
            BuildErrorKind::Io,
            format!("error: no device crate at {}: {} not found\n", crate_dir.display(), manifest.display()),
        ));
    }
    let sysroot = core_sysroot(sm, target_dir)?;
    let mut flags = rustflags(sm);
    flags.push(format!("--sysroot={}", sysroot.display()));
    let out = cargo_rustc(&manifest, target_dir, &flags, false)
        .output()
        .map_err(|e| BuildError::new(BuildErrorKind::Io, format!("error: could not run cargo through rustup: {e}\n")))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report = Report::parse(&stdout, &manifest);

    if !out.status.success() || !report.success {
        if stderr.contains("rust-src") || stderr.contains("can't find crate for `core`") {
            return Err(BuildError::toolchain(&format!(
                "the `rust-src` component of `{TOOLCHAIN}` is missing (needed to build `core` for {TARGET})"
            )));
        }
        return Err(report.error(crate_dir, &stderr));
    }
    let name = report.lib_name.ok_or_else(|| {
        BuildError::new(BuildErrorKind::Io, format!("error: cargo reported no library target for {}\n", manifest.display()))
    })?;
    let asm = target_dir.join(TARGET).join("release").join("deps").join(format!("{name}.s"));
    let text = fs::read_to_string(&asm).map_err(|e| {
        BuildError::new(BuildErrorKind::Io, format!("error: rustc wrote no PTX at {}: {e}\n", asm.display()))
    })?;
    if !text.contains(".target") || !text.contains(".address_size 64") {
        return Err(BuildError::new(BuildErrorKind::Io, format!("error: {} is not a PTX module\n", asm.display())));
    }
    // ptxas bugs worked around in the text (see `ptxas.rs`), and the panic slot's store
    // dropped from kernels that cannot panic (`slot.rs`).
    // `ACC_EXP_KEEPSLOT=1` keeps every store, for A/B runs on the GPU.
    let text = crate::ptxas::rewrite(&text);
    let text = if keep_slots() { text } else { crate::slot::drop_unread_stores(&text) };
    let ptx = target_dir.join(format!("{name}.ptx"));
    write_if_changed(&ptx, &text)
        .map_err(|e| BuildError::new(BuildErrorKind::Io, format!("error: writing {}: {e}\n", ptx.display())))?;
    Ok(PtxBuild { ptx, warnings: report.warnings })
}

/// The release profile of device crates, set on the command line so that a device crate's
/// own `Cargo.toml` cannot get it wrong.
const PROFILE: [(&str, &str); 7] = [
    ("panic", "\"abort\""),
    ("lto", "\"fat\""),
    ("codegen-units", "1"),
    ("opt-level", "3"),
    ("debug", "false"),
    ("incremental", "false"),
    ("overflow-checks", "false"),
];

/// What else decides the PTX of a device crate: the profile, the rustflags, the ptxas
/// work-arounds and the slot pass (for keys of cached builds).
pub(crate) fn settings() -> String {
    format!("{PROFILE:?} {:?} {BUILD_STD} ptxas-workarounds-{} unread-slots-{}-{}", rustflags("<sm>"), crate::ptxas::VERSION, crate::slot::VERSION, keep_slots())
}

/// Whether the A/B switch `ACC_EXP_KEEPSLOT` keeps the panic slot's store in every kernel.
fn keep_slots() -> bool {
    std::env::var_os("ACC_EXP_KEEPSLOT").is_some()
}

/// The rustflags of every crate of the device build; with the experiment switch
/// `ACC_EXP_NOCHECKS=1`, `--cfg acc_no_index_checks`: acc-device's element indices then check
/// nothing (an A/B measurement of what the checks cost; an index past its array is undefined
/// behaviour on the GPU).
fn rustflags(sm: &str) -> Vec<String> {
    let mut flags = vec![format!("-Ctarget-cpu={sm}"), "-Zmir-enable-passes=-JumpThreading".to_owned(), "-Cllvm-args=-disable-lsr".to_owned()];
    if std::env::var_os("ACC_EXP_NOCHECKS").is_some_and(|v| !v.is_empty() && v != "0") {
        flags.extend(["--cfg".to_owned(), "acc_no_index_checks".to_owned()]);
    }
    flags
}

/// `cargo rustc` of the pinned nightly for the library of `manifest`, as a `cdylib` of
/// [`TARGET`] in release with [`PROFILE`], writing PTX (`--emit=asm`, no link), with `flags` as
/// every crate's rustflags; `build_std`: `core` and `panic_abort` from `rust-src`
/// (`-Zbuild-std`), else from the sysroot that `flags` name.
fn cargo_rustc(manifest: &Path, target_dir: &Path, flags: &[String], build_std: bool) -> Command {
    let mut cmd = rustup();
    cmd.args(["run", TOOLCHAIN, "cargo"]);
    for (k, v) in PROFILE {
        cmd.arg("--config").arg(format!("profile.release.{k}={v}"));
    }
    cmd.args(["rustc", "--release", "--lib", "--crate-type=cdylib", "--target", TARGET]);
    if build_std {
        cmd.arg(format!("-Zbuild-std={BUILD_STD}"));
    }
    cmd.arg("--manifest-path")
        .arg(manifest)
        .arg("--target-dir")
        .arg(target_dir)
        .arg("--message-format=json")
        .args(["--", "--emit=asm", "-C", "linker=true"])
        .current_dir(manifest.parent().unwrap_or(Path::new(".")))
        .stdin(Stdio::null());
    clean_env(&mut cmd);
    cmd.env("CARGO_ENCODED_RUSTFLAGS", flags.join("\x1f"));
    cmd
}

/// The standard crates a device crate links: `core` (with `compiler_builtins`) and the abort
/// panic runtime.
const BUILD_STD: &str = "core,panic_abort";

/// Where acc keeps what it builds once per machine (the nightly `core` for [`TARGET`]):
/// `ACC_CACHE_DIR`, else `acc-cache` in cargo's home (`CARGO_HOME`, else `~/.cargo`).
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("ACC_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    let home = std::env::var_os("CARGO_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE")).map(|h| PathBuf::from(h).join(".cargo")))?;
    Some(home.join("acc-cache"))
}

/// A sysroot holding `core`, `compiler_builtins` and `panic_abort` for [`TARGET`], built from
/// `rust-src` by the pinned nightly with the device builds' profile and rustflags: built once
/// per machine, toolchain and `sm` (under [`cache_dir`]`/nvptx-core/`, named by a hash of
/// `rustc -vV`, the target, the flags and the profile), then shared by every package and
/// profile. Device crates compile against it (`--sysroot`) instead of building `core` into
/// each target dir (`-Zbuild-std`, about a minute on 2 cores).
///
/// Concurrent builds are safe: each builds into a directory of its own and renames it into
/// place; the first rename wins, the others use it and drop theirs. A finished sysroot is
/// never written again. Without a cache dir (no home), it lives in `target_dir`.
pub fn core_sysroot(sm: &str, target_dir: &Path) -> Result<PathBuf, BuildError> {
    let version = rustc_version()?;
    let mut key = Fnv128::new();
    for part in [SYSROOT_FORMAT, &version, TARGET, BUILD_STD] {
        key.write_str(part);
    }
    for f in rustflags(sm) {
        key.write_str(&f);
    }
    for (k, v) in PROFILE {
        key.write_str(k);
        key.write_str(v);
    }
    let root = cache_dir().map(|d| d.join("nvptx-core")).unwrap_or_else(|| target_dir.join("nvptx-core"));
    let dir = root.join(format!("{TOOLCHAIN}-{sm}-{}", &key.hex()[..16]));
    let lib = |d: &Path| d.join("lib").join("rustlib").join(TARGET).join("lib");
    if lib(&dir).join(SYSROOT_DONE).is_file() {
        return Ok(dir);
    }
    let io = |what: &str, p: &Path, e: io::Error| {
        BuildError::new(BuildErrorKind::Io, format!("error: acc-build: {what} {}: {e}\n", p.display()))
    };
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let tmp = root.join(format!(".build-{}-{stamp}", std::process::id()));
    let result = (|| {
        let krate = tmp.join("crate");
        fs::create_dir_all(&krate).map_err(|e| io("cannot create", &krate, e))?;
        fs::write(
            krate.join("Cargo.toml"),
            "# Written by acc-build: builds `core` for the device target once.\n[package]\nname = \"acc-core\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\nbuild = false\n\n[lib]\npath = \"lib.rs\"\n\n[workspace]\n",
        )
        .map_err(|e| io("cannot write", &krate, e))?;
        fs::write(krate.join("lib.rs"), "#![no_std]\n#[panic_handler]\nfn panic(_: &core::panic::PanicInfo) -> ! {\n    loop {}\n}\n")
            .map_err(|e| io("cannot write", &krate, e))?;
        let manifest = krate.join("Cargo.toml");
        let out = cargo_rustc(&manifest, &tmp.join("target"), &rustflags(sm), true)
            .output()
            .map_err(|e| BuildError::new(BuildErrorKind::Io, format!("error: could not run cargo through rustup: {e}\n")))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            if stderr.contains("rust-src") || stderr.contains("can't find crate for `core`") {
                return Err(BuildError::toolchain(&format!(
                    "the `rust-src` component of `{TOOLCHAIN}` is missing (needed to build `core` for {TARGET})"
                )));
            }
            let report = Report::parse(&String::from_utf8_lossy(&out.stdout), &manifest);
            return Err(report.error(&krate, &stderr));
        }
        let deps = tmp.join("target").join(TARGET).join("release").join("deps");
        let dest = lib(&tmp.join("sysroot"));
        fs::create_dir_all(&dest).map_err(|e| io("cannot create", &dest, e))?;
        let entries = fs::read_dir(&deps).map_err(|e| io("cannot read", &deps, e))?;
        for p in entries.flatten().map(|e| e.path()) {
            if p.extension().is_some_and(|x| x == "rlib") {
                let to = dest.join(p.file_name().expect("a file"));
                fs::copy(&p, &to).map_err(|e| io("cannot copy to", &to, e))?;
            }
        }
        fs::write(dest.join(SYSROOT_DONE), format!("{version}\n")).map_err(|e| io("cannot write", &dest, e))?;
        publish(&tmp.join("sysroot"), &dir, |d| lib(d).join(SYSROOT_DONE).is_file())
            .map_err(|e| io("cannot move the built `core` to", &dir, e))
    })();
    let _ = fs::remove_dir_all(&tmp);
    result.map(|()| dir)
}

/// Moves the finished directory `built` to `dir`, unless another build put one there first
/// (`done(dir)`): then `built` stays where it is, for the caller to remove. A rename does not
/// replace a directory that exists and has files, so whoever renames first wins and no reader
/// ever sees a half-written `dir`.
fn publish(built: &Path, dir: &Path, done: impl Fn(&Path) -> bool) -> io::Result<()> {
    if let Some(parent) = dir.parent() {
        fs::create_dir_all(parent)?;
    }
    match fs::rename(built, dir) {
        Ok(()) => Ok(()),
        Err(_) if done(dir) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Bumped when the sysroot's layout or the way it is built changes.
const SYSROOT_FORMAT: &str = "acc-nvptx-core-1";

/// The file a finished sysroot holds (last written, before the rename that publishes it).
const SYSROOT_DONE: &str = "acc-sysroot-done";

/// `rustc -vV` of the pinned nightly (its commit hash tells builds of the same name apart).
pub(crate) fn rustc_version() -> Result<String, BuildError> {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    if let Some(v) = VERSION.get() {
        return Ok(v.clone());
    }
    let mut cmd = rustup();
    cmd.args(["run", TOOLCHAIN, "rustc", "-vV"]).stdin(Stdio::null());
    clean_env(&mut cmd);
    match cmd.output() {
        Ok(o) if o.status.success() => Ok(VERSION.get_or_init(|| String::from_utf8_lossy(&o.stdout).into_owned()).clone()),
        Ok(_) => Err(BuildError::toolchain(&format!("the Rust toolchain `{TOOLCHAIN}` is not installed"))),
        Err(e) => Err(BuildError::toolchain(&format!("running `rustup` failed: {e}"))),
    }
}

/// 128-bit FNV-1a: a hash that stays the same across Rust versions and machines, for the names
/// of cached files.
#[derive(Clone)]
pub(crate) struct Fnv128(u128);

impl Fnv128 {
    pub(crate) fn new() -> Self {
        Fnv128(0x6c62272e07bb014262b821756295c58d)
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u128;
            self.0 = self.0.wrapping_mul(0x0000000001000000000000000000013B);
        }
    }

    /// `s` and its length (so that `("ab", "c")` and `("a", "bc")` differ).
    pub(crate) fn write_str(&mut self, s: &str) {
        self.write(&(s.len() as u64).to_le_bytes());
        self.write(s.as_bytes());
    }

    pub(crate) fn hex(&self) -> String {
        format!("{:032x}", self.0)
    }
}

/// `rustup` (from `RUSTUP`, else `PATH`, else `~/.cargo/bin`).
fn rustup() -> Command {
    if let Some(p) = std::env::var_os("RUSTUP") {
        return Command::new(p);
    }
    let home_bin = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .map(|h| h.join("bin").join("rustup"));
    match home_bin {
        Some(p) if p.is_file() && which("rustup").is_none() => Command::new(p),
        _ => Command::new("rustup"),
    }
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Checks that the pinned nightly and its `rust-src` are installed.
fn check_toolchain() -> Result<(), BuildError> {
    let mut cmd = rustup();
    cmd.args(["run", TOOLCHAIN, "rustc", "--print", "sysroot"]).stdin(Stdio::null());
    clean_env(&mut cmd);
    let out = match cmd.output() {
        Ok(o) => o,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(BuildError::toolchain("`rustup` was not found (neither on PATH nor in ~/.cargo/bin)"));
        }
        Err(e) => return Err(BuildError::toolchain(&format!("running `rustup` failed: {e}"))),
    };
    if !out.status.success() {
        return Err(BuildError::toolchain(&format!("the Rust toolchain `{TOOLCHAIN}` is not installed")));
    }
    let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let core = sysroot.join("lib/rustlib/src/rust/library/core/Cargo.toml");
    if !core.is_file() {
        return Err(BuildError::toolchain(&format!(
            "the `rust-src` component of `{TOOLCHAIN}` is missing (needed to build `core` for {TARGET})"
        )));
    }
    Ok(())
}

/// Removes what the outer build gives a build script and the inner cargo must not see:
/// flags and wrappers of the outer compiler, the outer package's `CARGO_*` facts, profile
/// and target overrides, the jobserver, and `rustup`'s toolchain choice. Registry and
/// network settings (`CARGO_HOME`, `CARGO_NET_*`, `CARGO_HTTP_*`, `CARGO_REGISTRIES_*`,
/// `CARGO_REGISTRY_*`) stay.
pub(crate) fn clean_env(cmd: &mut Command) {
    const KEEP: [&str; 5] = ["CARGO_HOME", "CARGO_NET_", "CARGO_HTTP_", "CARGO_REGISTRIES_", "CARGO_REGISTRY_"];
    const DROP: [&str; 14] = [
        "RUSTFLAGS", "RUSTDOCFLAGS", "RUSTC", "RUSTDOC", "RUSTUP_TOOLCHAIN", "OUT_DIR", "TARGET", "HOST",
        "PROFILE", "OPT_LEVEL", "DEBUG", "NUM_JOBS", "MAKEFLAGS", "MFLAGS",
    ];
    for (k, _) in std::env::vars_os() {
        let Some(k) = k.to_str() else { continue };
        let cargo = (k.starts_with("CARGO") || k.starts_with("__CARGO")) && !KEEP.iter().any(|p| k.starts_with(p));
        let rustc = k.starts_with("RUSTC_") || k.starts_with("RUSTDOC_");
        if cargo || rustc || DROP.contains(&k) {
            cmd.env_remove(k);
        }
    }
}

/// What cargo's JSON messages said.
#[derive(Default)]
struct Report {
    success: bool,
    lib_name: Option<String>,
    errors: Vec<String>,
    warnings: Vec<String>,
}

impl Report {
    fn parse(stdout: &str, manifest: &Path) -> Report {
        let manifest = manifest.canonicalize().unwrap_or_else(|_| manifest.to_path_buf());
        let mut r = Report::default();
        let mut seen = BTreeSet::new();
        for line in stdout.lines() {
            let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else { continue };
            let ours = msg["manifest_path"].as_str().is_some_and(|m| {
                Path::new(m).canonicalize().unwrap_or_else(|_| PathBuf::from(m)) == manifest
            });
            match msg["reason"].as_str() {
                Some("compiler-message") => {
                    let m = &msg["message"];
                    let Some(text) = m["rendered"].as_str() else { continue };
                    if !seen.insert(text.to_owned()) {
                        continue;
                    }
                    match m["level"].as_str() {
                        Some(l) if l.starts_with("error") => r.errors.push(text.to_owned()),
                        Some("warning") if ours => r.warnings.push(text.to_owned()),
                        _ => {}
                    }
                }
                Some("compiler-artifact") if ours => {
                    if let Some(name) = msg["target"]["name"].as_str() {
                        r.lib_name = Some(name.replace('-', "_"));
                    }
                }
                Some("build-finished") => r.success = msg["success"].as_bool() == Some(true),
                _ => {}
            }
        }
        r
    }

    /// The failure, rendered like `cargo build`: each error, then a summary.
    fn error(&self, crate_dir: &Path, stderr: &str) -> BuildError {
        let mut text = String::new();
        for e in &self.errors {
            text.push_str(e.trim_end());
            text.push_str("\n\n");
        }
        if self.errors.is_empty() {
            // Not a compiler error (a manifest, a dependency, the toolchain...): cargo's own
            // words, without its progress lines.
            for line in stderr.lines().filter(|l| {
                let t = l.trim_start();
                !(t.starts_with("Compiling") || t.starts_with("Updating") || t.starts_with("Locking")
                    || t.starts_with("Downloaded") || t.starts_with("Downloading") || t.starts_with("Finished"))
            }) {
                text.push_str(line);
                text.push('\n');
            }
        }
        let n = self.errors.iter().filter(|e| !e.starts_with("error: aborting")).count();
        text.push_str(&format!(
            "error: could not compile the device crate {} for {TARGET}{}\n",
            crate_dir.display(),
            if n > 0 { format!(" ({n} error{})", if n == 1 { "" } else { "s" }) } else { String::new() }
        ));
        BuildError::new(BuildErrorKind::Compile, text)
    }
}

/// Writes `text` to `path` unless it already holds exactly that (keeps mtimes stable for
/// `rerun-if-changed` and `include_str!`).
fn write_if_changed(path: &Path, text: &str) -> io::Result<()> {
    if fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    // A name of its own per writer: builds in several threads may write the same file.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("ptx.{}-{n}.tmp", std::process::id()));
    fs::write(&tmp, text)?;
    fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concurrent_builds_publish_one_sysroot() {
        let root = std::env::temp_dir().join(format!("acc-publish-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let dir = root.join("nvptx-core").join("key");
        let done = |d: &Path| d.join("done").is_file();
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let (root, dir) = (root.clone(), dir.clone());
                std::thread::spawn(move || {
                    let built = root.join(format!(".build-{t}"));
                    fs::create_dir_all(&built).unwrap();
                    fs::write(built.join("libcore.rlib"), format!("core of build {t}")).unwrap();
                    fs::write(built.join("done"), "").unwrap();
                    publish(&built, &dir, done).unwrap();
                    let _ = fs::remove_dir_all(&built);
                    fs::read_to_string(dir.join("libcore.rlib")).unwrap()
                })
            })
            .collect();
        let seen: Vec<String> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        // Every build uses the one that won, complete.
        assert!(seen.iter().all(|s| *s == seen[0] && s.starts_with("core of build ")), "{seen:?}");
        assert!(done(&dir));
        let left: Vec<_> = fs::read_dir(&root).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left, ["nvptx-core"], "no build directory left behind");
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn rustflags_reach_every_crate() {
        assert_eq!(rustflags("sm_90"), ["-Ctarget-cpu=sm_90", "-Zmir-enable-passes=-JumpThreading", "-Cllvm-args=-disable-lsr"]);
    }

    #[test]
    fn toolchain_errors_name_the_install_command() {
        let e = BuildError::toolchain("the Rust toolchain `nightly-2026-05-20` is not installed");
        assert_eq!(e.kind(), BuildErrorKind::Toolchain);
        assert!(e.to_string().contains(INSTALL_COMMAND), "{e}");
    }

    #[test]
    fn json_diagnostics_become_a_compiler_like_error() {
        let manifest = Path::new("/nonexistent/k/Cargo.toml");
        let stdout = r#"{"reason":"compiler-message","manifest_path":"/nonexistent/k/Cargo.toml","message":{"level":"error","rendered":"error[E0425]: cannot find value `x` in this scope\n --> src/lib.rs:3:5\n"}}
{"reason":"compiler-message","manifest_path":"/nonexistent/k/Cargo.toml","message":{"level":"warning","rendered":"warning: unused variable: `y`\n"}}
{"reason":"compiler-message","manifest_path":"/nonexistent/k/Cargo.toml","message":{"level":"error","rendered":"error: aborting due to 1 previous error\n"}}
{"reason":"build-finished","success":false}"#;
        let r = Report::parse(stdout, manifest);
        assert!(!r.success);
        assert_eq!(r.warnings, ["warning: unused variable: `y`\n"]);
        let e = r.error(Path::new("/nonexistent/k"), "");
        assert_eq!(e.kind(), BuildErrorKind::Compile);
        let text = e.to_string();
        assert!(text.starts_with("error[E0425]: cannot find value `x` in this scope\n --> src/lib.rs:3:5"), "{text}");
        assert!(text.ends_with("error: could not compile the device crate /nonexistent/k for nvptx64-nvidia-cuda (1 error)"), "{text}");
    }

    #[test]
    fn the_environment_of_the_outer_build_is_dropped() {
        let mut cmd = Command::new("true");
        clean_env(&mut cmd);
        let removed: Vec<_> = cmd.get_envs().filter(|(_, v)| v.is_none()).map(|(k, _)| k.to_owned()).collect();
        for (k, _) in std::env::vars() {
            let expect = k == "RUSTFLAGS" || k == "CARGO_MANIFEST_DIR" || k == "CARGO_PKG_NAME" || k == "RUSTUP_TOOLCHAIN";
            if expect {
                assert!(removed.iter().any(|r| r == k.as_str()), "{k} kept");
            }
            if k == "CARGO_HOME" {
                assert!(!removed.iter().any(|r| r == "CARGO_HOME"));
            }
        }
    }
}
