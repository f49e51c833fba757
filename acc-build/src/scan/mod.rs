//! Finds the package's annotated items and writes the device crate's source.
//!
//! # The device crate mirrors the package's module tree
//! Each crate root of the package (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`, `tests/*.rs`,
//! `examples/*.rs`, `benches/*.rs`, and the `*/main.rs` forms) becomes a module of the device
//! crate (`f_tests_foo_rs` at `tests/foo.rs`), and each of its modules a module at the same place:
//! inline `mod m { .. }` as an inline module, `mod x;` as a module at the file's relative path
//! (`tests/common/mod.rs` is declared by each test that says `mod common;`; the first such
//! declaration owns it, the others re-export it). A fn whose body declares items (a test fn with
//! a region inside) gets a module `__acc_in_<fn>` that sees its enclosing module (`use
//! super::*`), as the fn body does. So a name resolves in the device crate as in Rust; paths
//! are rewritten where the mirror needs it: `crate::` becomes the `super::`s up to the
//! crate's root module, `self::` and `super::` skip the fn-body modules, `<this package's
//! lib>::` becomes the lib's module, and `std::<module>` becomes `core::<module>` for the
//! modules `core` has (`f64`, `ops`, `cmp`, `mem`, `sync::atomic`...).
//!
//! # What is carried
//! Into each module, in source order and on its lines: the kernels of its regions (free fns,
//! and the associated fns and methods of its inherent, non-generic `impl` blocks: `Self` is the
//! impl's type there, and a method's fields are typed from the struct, see acc-codegen's
//! `method` module; a generic region gives the kernels of each instance its `instances(..)`
//! clause names), `#[acc::routine]` fns (generic ones as they are: rustc instantiates them for
//! their callers), `const`s, immutable `static`s without interior mutability, `type` aliases,
//! `const fn`s, enums, `#[derive(acc::DeviceCopy)]` structs, traits, `macro_rules!` macros (at
//! their places, for the kernels that invoke them; a macro's expansion is rustc's to check), the `impl` blocks of those
//! types (inherent methods one by one; impls of `core`'s operator and comparison traits, and of
//! the package's carried traits, whole; impls of those traits for primitive types too), and the
//! `use` items that resolve to something carried or to `core` (or to what acc re-exports from
//! acc-device: `use acc::{on_device, DeviceType, Float}`, as the device crate's `acc` is
//! acc-device). An item is carried only
//! if every path in it resolves to something carried (or to `core`, or to nothing the package
//! defines: a local, a primitive, the prelude), and it names no `std`-only prelude item
//! (`Vec`, `String`, `Box`...). Everything else (plain fns, `static mut`s, other structs,
//! unsafe traits, the items macro invocations make, `use`s of other crates such as `rayon::*` or `std::collections`) stays on the
//! host and out of the device crate, so it cannot break the device build.
//!
//! A region or routine that uses what stays out is an error of acc-build, on the path that
//! names it (file, line, snippet), saying why: "the GPU kernel cannot use `helper`, a fn
//! without `#[acc::routine]`". Method calls (`v.norm()`) are not resolved here: a method the
//! device crate lacks is rustc's error, on the user's line.
//!
//! # Dependencies
//! A kernel may use the routines, `DeviceCopy` types, consts and traits of the package's
//! dependencies that use acc (`particles::dist2`). When the kernels name other crates, acc-build
//! asks `cargo metadata` which of them depend on acc, and mirrors each one's library at
//! `deps/<crate>/` in the device crate, as it mirrors the package's own modules; the
//! dependency's regions are not built again (its own build script builds its PTX), and its
//! routines that the device cannot build stay out.
//!
//! Attributes: `cfg(test)` is dropped (the device crate must hold the kernels of test-only
//! modules), other `cfg`s are kept (no features are set in the device crate); derives are kept
//! when `core` has them; other attributes of carried items (serde's...) are dropped.


use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use proc_macro2::Span;

mod carry;
mod index;
mod items;
mod manifest;
mod methods;
mod paths;
mod resolve;
mod twins;
mod walk;

/// The device crate's sources: its root, and one module per user file that the kernels'
/// modules reach, at the user file's path relative to the package (so that `file!()` and
/// panic locations in it read as the user's file) with the user's tokens on their lines.
pub struct DeviceCrate {
    /// `kernels.rs`: attributes, the panic handler, the modules.
    pub root: String,
    /// (path relative to the package, text) of each module.
    pub modules: Vec<(String, String)>,
    /// How many kernels the crate has.
    pub kernels: usize,
    /// The regions built for the GPU, by kernel base name (`acc_codegen::kernel_name`).
    pub regions: Vec<String>,
    /// How many regions the GPU lowering refused (their macros report why).
    pub refused: usize,
    /// info: the schedule report of each region built (see `info.rs`).
    pub reports: Vec<acc_codegen::info::RegionReport>,
    /// For each unchecked kernel (`<kernel>_inb`, see acc-codegen's `lower::bounds`), the
    /// host code of `$OUT_DIR/acc_bounds/<kernel>.rs`: the bounds of the routines it calls
    /// (see [`routine_bounds`]).
    pub bounds: Vec<(String, String)>,
    /// The bounds of the index methods the regions call on their value parameters, by file
    /// name (`$OUT_DIR/acc_bounds/methods/<region>__<param>__<method>.rs`; see `methods.rs`).
    pub methods: Vec<(String, String)>,
}

/// `error: msg` with the file, line and the source line, like rustc.
fn render(file: &str, text: &str, span: Span, msg: &str) -> String {
    let start = span.start();
    let src_line = text.lines().nth(start.line.saturating_sub(1)).unwrap_or("");
    format!(
        "error: {msg}\n  --> {file}:{}:{}\n   |\n{:>3}| {src_line}\n   | {}^\n",
        start.line,
        start.column + 1,
        start.line,
        " ".repeat(start.column)
    )
}

/// A parsed source file of the package.
struct Source {
    /// Its path relative to the package (`deps/<crate>/src/..` for a dependency's files).
    rel: String,
    abs: PathBuf,
    text: String,
    file: syn::File,
    /// The name proc-macro2 gave the file: what tells its tokens from generated ones.
    id: String,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ModKind {
    /// A crate root or a `mod x;` file.
    File,
    Inline,
    /// The items of a fn body.
    FnBody,
}

struct Module {
    src: usize,
    parent: Option<usize>,
    kind: ModKind,
    /// The root module of the user crate it belongs to.
    root: usize,
    /// Modules between it and its crate's root module.
    depth: usize,
    /// Fn-body modules between it and the nearest real module (0 for a real one).
    wrappers: usize,
    /// Its path in the device crate (`crate::f_tests_a_rs::common`).
    dev_path: String,
    items: Vec<syn::Item>,
    /// Child modules: by item index (`mod` items and fns with item bodies).
    children: HashMap<usize, usize>,
    /// Directory for its `mod x;` files.
    dir: PathBuf,
    /// Whether it is a dependency's: its routines, types and consts are carried for the
    /// package's kernels; its regions are built by the dependency's own build.
    dep: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Res {
    Item(usize, usize),
    Module(usize),
    /// A path into `core` (or `std`'s part that `core` has).
    Core,
    /// `std`/`alloc` beyond `core`.
    NotCore,
    /// Not the package's: a local, a primitive, the prelude, a name acc-build cannot see.
    Unknown,
    /// A path into a crate the device crate does not have.
    Extern,
}

struct Scan<'a> {
    sources: &'a [Source],
    modules: Vec<Module>,
    /// The module of the package's library root, and the crate name other targets use for it.
    lib: Option<(usize, String)>,
    /// The library root modules of the dependencies that use acc, by crate name.
    deps: Vec<(String, usize)>,
    /// Whether an item is carried, or why not.
    carried: RefCell<HashMap<(usize, usize), Result<(), String>>>,
    /// The crates whose paths the kernels use and the device crate does not have.
    externs: RefCell<BTreeSet<String>>,
}

/// What writing one module produced.
#[derive(Default)]
struct Out {
    kernels: usize,
    /// The regions built, by kernel base name (`acc_codegen::kernel_name`).
    regions: Vec<String>,
    /// info: the schedule report of each region built.
    reports: Vec<acc_codegen::info::RegionReport>,
    /// Regions the GPU lowering refuses: their region macros report why, spanned, as compile
    /// errors of the GPU build.
    refused: usize,
    /// What the device cannot take, rendered: build errors.
    errors: Vec<String>,
    /// The routine bounds of each unchecked kernel (see [`DeviceCrate::bounds`]).
    bounds: Vec<(String, String)>,
    /// The bounds of the regions' index methods (see [`DeviceCrate::methods`]).
    methods: Vec<methods::MethodBounds>,
}

/// A dependency of the package that uses acc: its crate name (as the package's code calls it)
/// and its library's root file.
#[derive(Clone, Debug)]
pub struct Dep {
    pub name: String,
    pub lib_root: PathBuf,
}

/// The device crate of the package at `manifest`; `lib_name` is the crate name of its
/// library (what its tests and examples call it), if it has one. When the kernels use paths
/// of other crates, `deps` is asked for those of them that use acc (it runs `cargo
/// metadata`), and their routines, types and consts join the device crate, each dependency's
/// library as a module at `deps/<crate>/` (see the module docs).
pub fn device_crate(manifest: &Path, lib_name: Option<&str>, deps: &dyn Fn(&BTreeSet<String>) -> Vec<Dep>) -> Result<DeviceCrate, String> {
    match scan_package(manifest, lib_name, &[]) {
        Err((e, externs)) if !externs.is_empty() => {
            let found = deps(&externs);
            if found.is_empty() {
                return Err(e);
            }
            scan_package(manifest, lib_name, &found).map_err(|(e, _)| e)
        }
        r => r.map_err(|(e, _)| e),
    }
}

/// The device crate of the package at `manifest`, its dependencies that use acc `deps`
/// joining it (see [`device_crate`]); on failure, the errors and the crates the kernels name
/// that the device crate does not have.
fn scan_package(manifest: &Path, lib_name: Option<&str>, deps: &[Dep]) -> Result<DeviceCrate, (String, BTreeSet<String>)> {
    let sources = walk::read_sources(manifest, deps);
    let mut scan = Scan {
        sources: &sources,
        modules: Vec::new(),
        lib: None,
        deps: Vec::new(),
        carried: RefCell::new(HashMap::new()),
        externs: RefCell::new(BTreeSet::new()),
    };
    let file_modules = scan.module_tree(lib_name, deps);
    let mut out = Out::default();
    let texts = scan.module_texts(&file_modules, &mut out);
    if !out.errors.is_empty() {
        let n = out.errors.len();
        let mut text = out.errors.join("\n");
        text.push_str(&format!(
            "\nerror: acc-build: {n} use{} of what the device cannot take in GPU regions (see above); \
             mark fns the kernels call `#[acc::routine(seq)]`, derive `acc::DeviceCopy` for their types\n",
            if n == 1 { "" } else { "s" }
        ));
        return Err((text, scan.externs.take()));
    }
    manifest::write(&scan, texts, out)
}

#[cfg(test)]
mod tests;
