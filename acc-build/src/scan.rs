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
//! `use` items that resolve to something carried or to `core`. An item is carried only
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

use acc_codegen::model::RegionKind;
use acc_codegen::syntax::is_acc_path;
use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

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
}

/// The unchecked kernels (`<kernel>_inb`) of kernel tokens `k` of region fn `f`: each call of a
/// routine of the region's module that `routines` holds (by a plain name that nothing in `f`
/// binds or declares, so that it names the module's routine) becomes a call of its twin
/// without checks, and `bounds` gets the kernel's `acc_bounds` file: a fn of the routine's
/// name and its arguments' intervals (`__acc_rb` in the launch's check), the routine's
/// bounds for a twin called, `Some(true)` for any other name (a call of something else keeps
/// that thing's own checks). Where it calls a twin, the kernel as it was follows, named
/// `<kernel>_inbc`: the launch runs it where the nest's own indices are bounded but a
/// routine's are not. The other kernels are returned as they are.
fn routine_bounds(k: TokenStream, f: &syn::ItemFn, routines: &HashMap<String, acc_codegen::lower::bounds::ProvedRoutine>, bounds: &mut Vec<(String, String)>) -> TokenStream {
    let Ok(file) = syn::parse2::<syn::File>(k.clone()) else { return k };
    let mut local = LocalNames::default();
    local.visit_item_fn(f);
    let mut items = Vec::new();
    for mut item in file.items {
        let syn::Item::Fn(kf) = &mut item else {
            items.push(item);
            continue;
        };
        let name = kf.sig.ident.to_string();
        if !name.ends_with("_inb") {
            items.push(item);
            continue;
        }
        let original = kf.clone();
        let mut twins = TwinCalls { routines, local: &local.0, called: BTreeSet::new() };
        twins.visit_block_mut(&mut kf.block);
        items.push(item);
        // The unchecked kernel with the routines' checks, for launches whose routine bounds
        // fail (`pick(a, idx[i])`): the nest's own indices still unchecked.
        if !twins.called.is_empty() {
            let mut checked = original;
            checked.sig.ident = Ident::new(&format!("{name}c"), checked.sig.ident.span());
            items.push(syn::Item::Fn(checked));
        }
        let arms = twins.called.iter().map(|r| {
            let check = &routines[r].check;
            quote!(#r => #check,)
        });
        let text = quote! {{
            #[allow(unused_variables, unused_parens, clippy::all)]
            fn __acc_routine_bounds(name: &str, args: &[::core::option::Option<(usize, usize)>]) -> ::core::option::Option<bool> {
                match name {
                    #(#arms)*
                    _ => ::core::option::Option::Some(true),
                }
            }
            __acc_routine_bounds
        }};
        bounds.push((name, format!("// Written by acc-build: the bounds of the routines this kernel calls.\n{text}\n")));
    }
    items.into_iter().map(|i| i.into_token_stream()).collect()
}

/// Every name a fn binds or declares: parameters, patterns, closure parameters, items.
#[derive(Default)]
struct LocalNames(std::collections::HashSet<String>);

impl<'ast> Visit<'ast> for LocalNames {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.insert(p.ident.unraw().to_string());
        syn::visit::visit_pat_ident(self, p);
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.0.insert(f.sig.ident.unraw().to_string());
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_item(&mut self, i: &'ast syn::Item) {
        if let syn::Item::Fn(f) = i {
            self.visit_item_fn(f);
            return;
        }
        if let Some(id) = match i {
            syn::Item::Const(c) => Some(&c.ident),
            syn::Item::Static(c) => Some(&c.ident),
            syn::Item::Mod(c) => Some(&c.ident),
            syn::Item::Struct(c) => Some(&c.ident),
            syn::Item::Enum(c) => Some(&c.ident),
            _ => None,
        } {
            self.0.insert(id.unraw().to_string());
        }
        if let syn::Item::Use(u) = i {
            let mut names = UseNames(&mut self.0);
            names.visit_item_use(u);
        }
    }
}

/// The names a `use` item brings (a glob brings any: `*`).
struct UseNames<'a>(&'a mut std::collections::HashSet<String>);

impl<'ast> Visit<'ast> for UseNames<'_> {
    fn visit_use_name(&mut self, n: &'ast syn::UseName) {
        self.0.insert(n.ident.unraw().to_string());
    }
    fn visit_use_rename(&mut self, n: &'ast syn::UseRename) {
        self.0.insert(n.rename.unraw().to_string());
    }
    fn visit_use_glob(&mut self, _: &'ast syn::UseGlob) {
        self.0.insert("*".into());
    }
}

/// Rewrites the calls of routines with twins ([`routine_bounds`]).
struct TwinCalls<'a> {
    routines: &'a HashMap<String, acc_codegen::lower::bounds::ProvedRoutine>,
    local: &'a std::collections::HashSet<String>,
    called: BTreeSet<String>,
}

impl VisitMut for TwinCalls<'_> {
    fn visit_expr_call_mut(&mut self, c: &mut syn::ExprCall) {
        syn::visit_mut::visit_expr_call_mut(self, c);
        let syn::Expr::Path(p) = &mut *c.func else { return };
        let Some(id) = p.path.get_ident().filter(|_| p.qself.is_none()) else { return };
        let name = id.unraw().to_string();
        if self.routines.contains_key(&name) && !self.local.contains(&name) && !self.local.contains("*") {
            let twin = Ident::new(&format!("__acc_inb_{name}"), id.span());
            p.path = twin.into();
            self.called.insert(name);
        }
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            // trybuild cases are broken on purpose; a folder with a `Cargo.toml` is another
            // package (an example workspace), with its own build.
            if p.file_name().is_some_and(|n| n == "ui" || n == "target" || n == "fixtures") || p.join("Cargo.toml").is_file() {
                continue;
            }
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn region_kind(attrs: &[syn::Attribute]) -> Option<(RegionKind, &syn::Attribute)> {
    for a in attrs {
        for (name, kind) in [("parallel", RegionKind::Parallel), ("kernels", RegionKind::Kernels), ("serial", RegionKind::Serial)] {
            if is_acc_path(a.path(), name) {
                return Some((kind, a));
            }
        }
    }
    None
}

fn is_routine(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| is_acc_path(a.path(), "routine"))
}

struct StripAcc;

impl VisitMut for StripAcc {
    fn visit_expr_for_loop_mut(&mut self, f: &mut syn::ExprForLoop) {
        f.attrs.retain(|a| !is_acc_path(a.path(), "loop"));
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
    }
}

/// Writes the element indexing of device code (routines, kernels, the methods of carried
/// impls and the default methods of carried traits), `x[i]`, as `x[::acc_device::ix(i, LINE, COL)]`,
/// so that its bounds check is acc-device's inline one (index, length and the user's location
/// go into the panic record) rather than a call of `core::panicking::panic_bounds_check`,
/// which costs a kernel the registers and stack of the whole panic path (see
/// `acc_device::Ix`). `LINE` and `COL` are the user's line and column of `x` (where rustc's
/// check puts a panic on the host), since the inserted text moves what follows on the line and
/// the printer (`print.rs`) puts later copies of a repeated body (a lean kernel, unrolled
/// rounds, coarsened rows) on later lines; 0 for generated code.
/// Ranges (`x[a..b]`) stay as they are, and so do const contexts (nested items, array
/// lengths, const blocks and generic arguments), `const fn`s, where `Index` impls cannot
/// run, and the arguments of macros other than `assert!`-like ones and `matches!` (tokens,
/// not expressions, to syn).
struct InlineBounds<'f> {
    /// The name proc-macro2 gave the user's file (see [`Source`]): a token with a span of
    /// another file is generated, its column meaningless.
    file: &'f str,
}

impl InlineBounds<'_> {
    /// Rewrites a routine, unless it is a `const fn` or names `Index` in its signature (a
    /// generic `C: Index<usize>` is not indexable by `Ix`).
    fn routine(&mut self, sig: &syn::Signature, block: &mut syn::Block) {
        let names_index = sig.to_token_stream().into_iter().any(|t| Self::names_index(&t));
        if sig.constness.is_none() && !names_index {
            self.visit_block_mut(block);
        }
    }

    fn names_index(t: &TokenTree) -> bool {
        match t {
            TokenTree::Ident(i) => matches!(i.to_string().as_str(), "Index" | "IndexMut" | "SliceIndex"),
            TokenTree::Group(g) => g.stream().into_iter().any(|t| Self::names_index(&t)),
            _ => false,
        }
    }

    /// Rewrites the fns of a kernel's tokens (acc-codegen's output), which parse as items.
    fn kernel(&mut self, ts: TokenStream) -> TokenStream {
        match syn::parse2::<syn::File>(ts.clone()) {
            Ok(mut file) => {
                for item in &mut file.items {
                    if let syn::Item::Fn(f) = item {
                        self.routine(&f.sig, &mut f.block);
                    }
                }
                file.items.into_iter().map(|i| i.into_token_stream()).collect()
            }
            Err(_) => ts,
        }
    }
}

impl VisitMut for InlineBounds<'_> {
    fn visit_expr_index_mut(&mut self, e: &mut syn::ExprIndex) {
        syn::visit_mut::visit_expr_index_mut(self, e);
        if !matches!(&*e.index, syn::Expr::Range(_)) {
            let first = e.expr.to_token_stream().into_iter().next().map(|t| t.span());
            let (line, column) = first.filter(|s| s.file() == self.file).map_or((0, 0), |s| (s.start().line as u32, s.start().column as u32 + 1));
            let i = &e.index;
            *e.index = syn::parse_quote!(::acc_device::ix(#i, #line, #column));
        }
    }
    /// The expressions of `assert!`-like macros and the scrutinee of `matches!` (other
    /// macros' tokens are not known to be expressions).
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        use syn::parse::Parser;
        let Some(name) = mac.path.segments.last().map(|s| s.ident.to_string()) else { return };
        let tokens = mac.tokens.clone();
        if name == "matches" {
            let parser = |input: syn::parse::ParseStream| -> syn::Result<(syn::Expr, TokenStream)> { Ok((input.parse()?, input.parse()?)) };
            if let Ok((mut e, rest)) = parser.parse2(tokens) {
                self.visit_expr_mut(&mut e);
                mac.tokens = quote!(#e #rest);
            }
        } else if matches!(name.as_str(), "assert" | "assert_eq" | "assert_ne" | "debug_assert" | "debug_assert_eq" | "debug_assert_ne") {
            let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
            if let Ok(mut args) = parser.parse2(tokens) {
                for e in args.iter_mut() {
                    self.visit_expr_mut(e);
                }
                mac.tokens = args.into_token_stream();
            }
        }
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
    fn visit_type_mut(&mut self, _: &mut syn::Type) {}
    fn visit_generic_argument_mut(&mut self, _: &mut syn::GenericArgument) {}
    fn visit_expr_const_mut(&mut self, _: &mut syn::ExprConst) {}
    fn visit_expr_repeat_mut(&mut self, e: &mut syn::ExprRepeat) {
        self.visit_expr_mut(&mut e.expr);
    }
}

/// For an `impl Index<usize> for W` (or `IndexMut`), the same impl for `acc_device::Ix`, which
/// device code indexes with (see [`InlineBounds`]): `w[i]` of a carried type reads as before.
fn index_by_ix(imp: &syn::ItemImpl) -> Option<TokenStream> {
    let (_, path, _) = imp.trait_.as_ref()?;
    let last = path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    let [syn::GenericArgument::Type(syn::Type::Path(arg))] = args.args.iter().collect::<Vec<_>>()[..] else { return None };
    if !arg.path.is_ident("usize") {
        return None;
    }
    let (generics, ty, wh) = (&imp.generics.params, &imp.self_ty, &imp.generics.where_clause);
    match last.ident.to_string().as_str() {
        "Index" => Some(quote! {
            impl<#generics> ::core::ops::Index<::acc_device::Ix> for #ty #wh {
                type Output = <Self as ::core::ops::Index<usize>>::Output;
                #[inline(always)]
                #[track_caller]
                fn index(&self, i: ::acc_device::Ix) -> &Self::Output {
                    <Self as ::core::ops::Index<usize>>::index(self, i.index)
                }
            }
        }),
        "IndexMut" => Some(quote! {
            impl<#generics> ::core::ops::IndexMut<::acc_device::Ix> for #ty #wh {
                #[inline(always)]
                #[track_caller]
                fn index_mut(&mut self, i: ::acc_device::Ix) -> &mut Self::Output {
                    <Self as ::core::ops::IndexMut<usize>>::index_mut(self, i.index)
                }
            }
        }),
        _ => None,
    }
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

/// The module of the device crate that holds one crate root's items.
fn module_name(rel: &str) -> String {
    let mut s = String::from("f_");
    for ch in rel.chars() {
        s.push(if ch.is_ascii_alphanumeric() { ch } else { '_' });
    }
    s
}

/// Whether `rel` (relative to the package) is a crate root by cargo's conventions.
fn is_crate_root(rel: &str) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    matches!(
        parts.as_slice(),
        ["src", "lib.rs" | "main.rs"]
            | ["src", "bin", _]
            | ["tests" | "examples" | "benches", _]
            | ["src", "bin", _, "main.rs"]
            | ["tests" | "examples" | "benches", _, "main.rs"]
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

/// The modules of `std` that are `core`'s (re-exported or with the same items).
const CORE_MODULES: [&str; 31] = [
    "any", "array", "cell", "char", "clone", "cmp", "convert", "default", "f32", "f64", "fmt", "hash", "hint", "i8",
    "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "iter", "marker", "mem", "num",
    "ops", "option",
];
const CORE_MODULES_2: [&str; 4] = ["pin", "ptr", "result", "primitive"];

fn core_module(second: &str, third: Option<&str>) -> bool {
    CORE_MODULES.contains(&second) || CORE_MODULES_2.contains(&second) || second == "sync" && third == Some("atomic")
}

/// Prelude names of `std` that `core` lacks.
const STD_ONLY: [&str; 7] = ["Vec", "String", "Box", "ToString", "ToOwned", "HashMap", "Rc"];
const STD_ONLY_MACROS: [&str; 8] = ["vec", "format", "println", "print", "eprintln", "eprint", "dbg", "format_args_nl"];
/// Traits of `core` whose impls for a carried type are carried.
const CORE_TRAITS: [&str; 30] = [
    "Add", "Sub", "Mul", "Div", "Rem", "Neg", "Not", "BitAnd", "BitOr", "BitXor", "Shl", "Shr", "AddAssign",
    "SubAssign", "MulAssign", "DivAssign", "RemAssign", "BitAndAssign", "BitOrAssign", "BitXorAssign", "Index",
    "IndexMut", "PartialEq", "Eq", "PartialOrd", "Ord", "Default", "Clone", "Copy", "From",
];
/// First segments of paths that are not crates: primitive types and the prelude's names.
const NOT_CRATES: [&str; 36] = [
    "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "bool", "char",
    "str", "Option", "Some", "None", "Result", "Ok", "Err", "Default", "Clone", "Copy", "Iterator", "IntoIterator",
    "From", "Into", "PartialEq", "PartialOrd", "Ord", "Eq", "acc", "acc_device",
];
const CORE_DERIVES: [&str; 9] = ["Clone", "Copy", "Debug", "PartialEq", "Eq", "PartialOrd", "Ord", "Hash", "Default"];

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

impl<'a> Scan<'a> {
    fn add_module(&mut self, src: usize, parent: Option<usize>, kind: ModKind, name: &str, items: Vec<syn::Item>, dir: PathBuf) -> usize {
        let id = self.modules.len();
        let (root, depth, wrappers, dev_path, dep) = match parent {
            None => (id, 0, 0, format!("crate::{name}"), self.sources[src].rel.starts_with("deps/")),
            Some(p) => {
                let pm = &self.modules[p];
                let w = if kind == ModKind::FnBody { pm.wrappers + 1 } else { 0 };
                (pm.root, pm.depth + 1, w, format!("{}::{name}", pm.dev_path), pm.dep)
            }
        };
        self.modules.push(Module { src, parent, kind, root, depth, wrappers, dev_path, items, children: HashMap::new(), dir, dep });
        id
    }

    /// Builds module `m`'s children (inline modules, `mod x;` files, fn bodies with items).
    fn build_children(&mut self, m: usize, file_modules: &mut HashMap<usize, usize>, by_path: &HashMap<PathBuf, usize>) {
        let items = self.modules[m].items.clone();
        let dir = self.modules[m].dir.clone();
        let src = self.modules[m].src;
        for (k, item) in items.iter().enumerate() {
            match item {
                syn::Item::Mod(md) => {
                    let name = md.ident.unraw().to_string();
                    if let Some((_, inner)) = &md.content {
                        let child = self.add_module(src, Some(m), ModKind::Inline, &name, inner.clone(), dir.join(&name));
                        self.modules[m].children.insert(k, child);
                        self.build_children(child, file_modules, by_path);
                    } else {
                        let explicit = md.attrs.iter().find_map(|a| match &a.meta {
                            syn::Meta::NameValue(nv) if a.path().is_ident("path") => match &nv.value {
                                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
                                _ => None,
                            },
                            _ => None,
                        });
                        let candidates: Vec<PathBuf> = match explicit {
                            Some(p) => vec![self.sources[src].abs.parent().unwrap_or(Path::new("")).join(p)],
                            None => vec![dir.join(format!("{name}.rs")), dir.join(&name).join("mod.rs")],
                        };
                        let Some(child_src) = candidates.iter().find_map(|c| by_path.get(c).copied()) else {
                            continue;
                        };
                        if let Some(&existing) = file_modules.get(&child_src) {
                            self.modules[m].children.insert(k, existing);
                            continue;
                        }
                        let rel = &self.sources[child_src].rel;
                        let child_dir = if rel.ends_with("/mod.rs") || md.attrs.iter().any(|a| a.path().is_ident("path")) {
                            self.sources[child_src].abs.parent().map(Path::to_path_buf).unwrap_or_default()
                        } else {
                            dir.join(&name)
                        };
                        let child = self.add_module(child_src, Some(m), ModKind::File, &name, self.sources[child_src].file.items.clone(), child_dir);
                        file_modules.insert(child_src, child);
                        self.modules[m].children.insert(k, child);
                        self.build_children(child, file_modules, by_path);
                    }
                }
                syn::Item::Fn(f) if region_kind(&f.attrs).is_none() && !is_routine(&f.attrs) => {
                    let inner: Vec<syn::Item> = f.block.stmts.iter().filter_map(|s| match s {
                        syn::Stmt::Item(i) => Some(i.clone()),
                        _ => None,
                    }).collect();
                    if inner.is_empty() {
                        continue;
                    }
                    let name = format!("__acc_in_{}", f.sig.ident.unraw());
                    let child = self.add_module(src, Some(m), ModKind::FnBody, &name, inner, dir.clone());
                    self.modules[m].children.insert(k, child);
                    self.build_children(child, file_modules, by_path);
                }
                _ => {}
            }
        }
    }

    /// The nearest real (not fn-body) module at or above `m`.
    fn real(&self, mut m: usize) -> usize {
        while self.modules[m].kind == ModKind::FnBody {
            m = self.modules[m].parent.expect("a fn body lies in a module");
        }
        m
    }

    /// The name an item defines in its namespace(s).
    fn item_name(item: &syn::Item) -> Option<String> {
        let id = match item {
            syn::Item::Const(i) => &i.ident,
            syn::Item::Static(i) => &i.ident,
            syn::Item::Fn(i) => &i.sig.ident,
            syn::Item::Struct(i) => &i.ident,
            syn::Item::Enum(i) => &i.ident,
            syn::Item::Union(i) => &i.ident,
            syn::Item::Type(i) => &i.ident,
            syn::Item::Trait(i) => &i.ident,
            syn::Item::Mod(i) => &i.ident,
            syn::Item::Macro(i) => i.ident.as_ref()?,
            _ => return None,
        };
        Some(id.unraw().to_string())
    }

    /// `name` defined or imported in module `m` itself (not its parents).
    fn lookup_in(&self, m: usize, name: &str, guard: usize) -> Option<Res> {
        if guard > 12 {
            return None;
        }
        let module = &self.modules[m];
        for (k, item) in module.items.iter().enumerate() {
            if Self::item_name(item).as_deref() == Some(name) {
                if let Some(&c) = module.children.get(&k).filter(|_| matches!(item, syn::Item::Mod(_))) {
                    return Some(Res::Module(c));
                }
                if matches!(item, syn::Item::Mod(_)) {
                    return Some(Res::Unknown);
                }
                return Some(Res::Item(m, k));
            }
        }
        let mut globs = Vec::new();
        for item in &module.items {
            let syn::Item::Use(u) = item else { continue };
            for leaf in use_leaves(u) {
                match &leaf.binding {
                    Binding::Name(b) if b == name => return Some(self.resolve_segments(m, leaf.leading, &leaf.segs, guard + 1)),
                    Binding::Glob => globs.push(leaf),
                    _ => {}
                }
            }
        }
        for g in globs {
            match self.resolve_segments(m, g.leading, &g.segs, guard + 1) {
                Res::Module(gm) if gm != m => {
                    if let Some(r) = self.lookup_in(gm, name, guard + 1) {
                        return Some(r);
                    }
                }
                // `use Mode::*`: the variants.
                Res::Item(em, ek) => {
                    if let syn::Item::Enum(e) = &self.modules[em].items[ek] {
                        if e.variants.iter().any(|v| v.ident == name) {
                            return Some(Res::Item(em, ek));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// `name` in scope in module `m` (a fn body sees its enclosing module).
    fn lookup(&self, m: usize, name: &str, guard: usize) -> Option<Res> {
        let mut at = m;
        loop {
            if let Some(r) = self.lookup_in(at, name, guard) {
                return Some(r);
            }
            if self.modules[at].kind != ModKind::FnBody {
                return None;
            }
            at = self.modules[at].parent?;
        }
    }

    fn resolve_segments(&self, m: usize, leading: bool, segs: &[String], guard: usize) -> Res {
        let Some(first) = segs.first() else { return Res::Unknown };
        let lib = self.lib.as_ref().filter(|(root, _)| self.modules[m].root != *root && !self.modules[m].dep);
        let dep = self.deps.iter().find(|(name, _)| name == first).map(|(_, root)| Res::Module(*root));
        let std_like = |segs: &[String]| match segs[0].as_str() {
            // The device crate has acc-device (`pub use acc_device::Float` in acc's own lib).
            "core" | "acc_device" => Res::Core,
            "std" => match segs.get(1) {
                None => Res::Core,
                Some(s) if core_module(s, segs.get(2).map(String::as_str)) => Res::Core,
                _ => Res::NotCore,
            },
            _ => Res::NotCore,
        };
        let mut cur = match first.as_str() {
            _ if leading => match lib {
                Some((root, name)) if name == first => Res::Module(*root),
                _ if dep.is_some() => dep.expect("a dependency"),
                _ if matches!(first.as_str(), "std" | "core" | "alloc" | "acc_device") => return std_like(segs),
                _ => return Res::Extern,
            },
            "crate" => Res::Module(self.modules[m].root),
            "self" => Res::Module(self.real(m)),
            "super" => match self.modules[self.real(m)].parent {
                Some(p) => Res::Module(self.real(p)),
                None => return Res::Unknown,
            },
            _ => match self.lookup(m, first, guard) {
                Some(r) => r,
                None => match lib {
                    Some((root, name)) if name == first => Res::Module(*root),
                    _ if dep.is_some() => dep.expect("a dependency"),
                    _ if matches!(first.as_str(), "std" | "core" | "alloc" | "acc_device") => return std_like(segs),
                    _ if segs.len() == 1 || NOT_CRATES.contains(&first.as_str()) => return Res::Unknown,
                    _ => return Res::Extern,
                },
            },
        };
        for seg in &segs[1..] {
            match cur {
                Res::Module(x) => {
                    cur = match seg.as_str() {
                        "super" => match self.modules[self.real(x)].parent {
                            Some(p) => Res::Module(self.real(p)),
                            None => return Res::Unknown,
                        },
                        "self" => cur,
                        _ => match self.lookup_in(x, seg, guard + 1) {
                            Some(r) => r,
                            None => return Res::Unknown,
                        },
                    }
                }
                // An associated item or a variant of a type, or deeper into `core`.
                _ => return cur,
            }
        }
        cur
    }

    fn resolve(&self, m: usize, p: &syn::Path) -> Res {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.unraw().to_string()).collect();
        self.resolve_segments(m, p.leading_colon.is_some(), &segs, 0)
    }

    /// Whether item `k` of module `m` goes to the device crate, or why not.
    fn carry(&self, m: usize, k: usize) -> Result<(), String> {
        if let Some(r) = self.carried.borrow().get(&(m, k)) {
            return r.clone();
        }
        // Assumed carried while it is being decided (recursive items).
        self.carried.borrow_mut().insert((m, k), Ok(()));
        let r = self.decide(m, k);
        self.carried.borrow_mut().insert((m, k), r.clone());
        r
    }

    fn decide(&self, m: usize, k: usize) -> Result<(), String> {
        let item = &self.modules[m].items[k];
        let uses = |what: &str, node: &dyn Fn(&mut Checker)| -> Result<(), String> {
            let mut c = Checker::new(self, m);
            node(&mut c);
            match c.problems.into_iter().next() {
                None => Ok(()),
                Some((_, why)) => Err(format!("{what} that uses {why}")),
            }
        };
        match item {
            syn::Item::Const(c) if host_only(&c.expr) => Err("a const built from the host's environment or files".into()),
            syn::Item::Const(c) => uses("a const", &|ch| ch.visit_item_const(c)),
            syn::Item::Static(s) if !matches!(s.mutability, syn::StaticMutability::None) => {
                Err("a `static mut` (mutable host state the device does not share)".into())
            }
            syn::Item::Static(s) if host_only(&s.expr) => Err("a static built from the host's environment or files".into()),
            syn::Item::Static(s) if interior_mutable(&s.ty) => {
                Err("a static with interior mutability (the device would have a copy of its own)".into())
            }
            syn::Item::Static(s) => uses("a static", &|ch| ch.visit_item_static(s)),
            syn::Item::Type(t) => uses("a type alias", &|ch| ch.visit_item_type(t)),
            syn::Item::Enum(e) => uses("an enum", &|ch| ch.visit_item_enum(e)),
            syn::Item::Struct(s) if derives_device_copy(&s.attrs) => Ok(()),
            syn::Item::Struct(_) => Err("a struct without `#[derive(acc::DeviceCopy)]`".into()),
            syn::Item::Fn(f) if region_kind(&f.attrs).is_some() => Err("a region fn (regions are launched from the host)".into()),
            syn::Item::Fn(f) if is_routine(&f.attrs) => Ok(()),
            syn::Item::Fn(f) if f.sig.constness.is_some() => {
                uses("a `const fn` without `#[acc::routine]`", &|ch| ch.visit_item_fn(f))
            }
            syn::Item::Fn(_) => Err("a fn without `#[acc::routine]`".into()),
            syn::Item::Trait(t) if t.unsafety.is_some() || t.auto_token.is_some() => Err("an unsafe or auto trait (not carried to the device)".into()),
            syn::Item::Trait(t) => uses("a trait", &|ch| ch.visit_item_trait(t)),
            syn::Item::Union(_) => Err("a union (not device data)".into()),
            syn::Item::Macro(mac) if is_macro_rules(mac) => Ok(()),
            syn::Item::Macro(_) => Err("a macro invocation (acc-build carries `macro_rules!` definitions, not the items macros make)".into()),
            _ => Err("an item acc-build does not carry to the device".into()),
        }
    }

    /// The crate a `use` in scope at module `m` brings `name` from (`use dep::x::name;`).
    fn imported_crate(&self, m: usize, name: &str) -> Option<String> {
        let mut at = Some(m);
        while let Some(x) = at {
            for item in &self.modules[x].items {
                let syn::Item::Use(u) = item else { continue };
                for leaf in use_leaves(u) {
                    if matches!(&leaf.binding, Binding::Name(b) if b == name) {
                        return leaf.segs.first().filter(|s| !matches!(s.as_str(), "crate" | "self" | "super")).cloned();
                    }
                }
            }
            at = if self.modules[x].kind == ModKind::FnBody { self.modules[x].parent } else { None };
        }
        None
    }

    /// The type an `impl`'s self type names, if the device crate carries it.
    fn carried_self_type(&self, m: usize, imp: &syn::ItemImpl) -> bool {
        let syn::Type::Path(tp) = &*imp.self_ty else { return false };
        match self.resolve(m, &tp.path) {
            Res::Item(m2, k2) => {
                matches!(self.modules[m2].items[k2], syn::Item::Struct(_) | syn::Item::Enum(_)) && self.carry(m2, k2).is_ok()
            }
            _ => false,
        }
    }
}

/// Where a `use` leaf binds.
#[derive(Clone, Debug)]
enum Binding {
    Name(String),
    Glob,
    /// `as _`.
    Anonymous,
}

#[derive(Clone)]
struct Leaf {
    leading: bool,
    segs: Vec<String>,
    idents: Vec<Ident>,
    rename: Option<Ident>,
    binding: Binding,
}

fn use_leaves(u: &syn::ItemUse) -> Vec<Leaf> {
    fn walk(t: &syn::UseTree, prefix: &mut Vec<Ident>, leading: bool, out: &mut Vec<Leaf>) {
        let segs = |ids: &[Ident]| ids.iter().map(|i| i.unraw().to_string()).collect::<Vec<_>>();
        match t {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.clone());
                walk(&p.tree, prefix, leading, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) if n.ident == "self" => {
                if let Some(last) = prefix.last() {
                    out.push(Leaf { leading, segs: segs(prefix), idents: prefix.clone(), rename: None, binding: Binding::Name(last.unraw().to_string()) });
                }
            }
            syn::UseTree::Name(n) => {
                let mut ids = prefix.clone();
                ids.push(n.ident.clone());
                out.push(Leaf { leading, segs: segs(&ids), idents: ids, rename: None, binding: Binding::Name(n.ident.unraw().to_string()) });
            }
            syn::UseTree::Rename(r) => {
                let mut ids = prefix.clone();
                ids.push(r.ident.clone());
                let binding = if r.rename == "_" { Binding::Anonymous } else { Binding::Name(r.rename.unraw().to_string()) };
                out.push(Leaf { leading, segs: segs(&ids), idents: ids, rename: Some(r.rename.clone()), binding });
            }
            syn::UseTree::Glob(_) => out.push(Leaf { leading, segs: segs(prefix), idents: prefix.clone(), rename: None, binding: Binding::Glob }),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    walk(t, prefix, leading, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&u.tree, &mut Vec::new(), u.leading_colon.is_some(), &mut out);
    out
}

fn derives_device_copy(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("derive") && quote!(#a).to_string().contains("DeviceCopy"))
}

fn interior_mutable(ty: &syn::Type) -> bool {
    let t = quote!(#ty).to_string();
    ["Atomic", "Cell", "Mutex", "RwLock", "OnceLock", "LazyLock", "Once"].iter().any(|w| t.contains(w))
}

/// Whether an expression uses macros that read the host build's environment or files.
fn host_only(e: &syn::Expr) -> bool {
    let text = quote!(#e).to_string();
    ["env !", "option_env !", "include_str !", "include_bytes !", "include !"].iter().any(|m| text.contains(m))
}

/// The names a fn binds (parameters, `let`s, closure and match patterns), its generic
/// parameters and the items of its body: paths of one of these names are not module items.
#[derive(Default)]
struct Locals(BTreeSet<String>);

impl<'ast> Visit<'ast> for Locals {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.insert(p.ident.unraw().to_string());
        syn::visit::visit_pat_ident(self, p);
    }
    fn visit_generic_param(&mut self, g: &'ast syn::GenericParam) {
        match g {
            syn::GenericParam::Type(t) => {
                self.0.insert(t.ident.to_string());
            }
            syn::GenericParam::Const(c) => {
                self.0.insert(c.ident.to_string());
            }
            syn::GenericParam::Lifetime(_) => {}
        }
        syn::visit::visit_generic_param(self, g);
    }
    fn visit_stmt(&mut self, s: &'ast syn::Stmt) {
        if let syn::Stmt::Item(i) = s {
            if let Some(n) = Scan::item_name(i) {
                self.0.insert(n);
            }
            return;
        }
        syn::visit::visit_stmt(self, s);
    }
}

/// Finds the paths in a region, routine or item that name what the device crate does not carry.
struct Checker<'s, 'a> {
    scan: &'s Scan<'a>,
    m: usize,
    locals: BTreeSet<String>,
    /// (where, what: "`helper`, a fn without `#[acc::routine]`").
    problems: Vec<(Span, String)>,
}

impl<'s, 'a> Checker<'s, 'a> {
    fn new(scan: &'s Scan<'a>, m: usize) -> Self {
        Checker { scan, m, locals: BTreeSet::new(), problems: Vec::new() }
    }

    fn with_locals(mut self, node: &syn::ItemFn) -> Self {
        let mut l = Locals::default();
        l.visit_item_fn(node);
        self.locals = l.0;
        self
    }

    fn check_path(&mut self, p: &syn::Path) {
        let first = p.segments[0].ident.unraw().to_string();
        if p.leading_colon.is_none() && (self.locals.contains(&first) || first == "Self") {
            return;
        }
        // `i64::MAX`, `f32::consts..`: a primitive type's items (types and values have their
        // own namespaces: a fn named `i64` does not hide the type).
        if p.leading_colon.is_none() && p.segments.len() > 1 && PRIMITIVES.contains(&first.as_str()) {
            return;
        }
        let text = p.segments.iter().map(|s| s.ident.unraw().to_string()).collect::<Vec<_>>().join("::");
        match self.scan.resolve(self.m, p) {
            Res::Item(m2, k2) => {
                if let Err(why) = self.scan.carry(m2, k2) {
                    self.problems.push((p.span(), format!("`{text}`, {why}")));
                }
            }
            Res::NotCore => self.problems.push((p.span(), format!("`{text}`, which is not in `core` (the device has no `std` or `alloc`)"))),
            Res::Extern => {
                let krate = if p.leading_colon.is_some() || p.segments.len() > 1 { Some(first.clone()) } else { self.scan.imported_crate(self.m, &first) };
                self.scan.externs.borrow_mut().extend(krate);
                self.problems.push((p.span(), format!("`{text}`, from a crate the device crate does not have (it has `core`, the package's own items, and the routines and types of its dependencies that use acc)")));
            }
            Res::Unknown if p.segments.len() == 1 && p.leading_colon.is_none() && STD_ONLY.contains(&first.as_str()) => {
                self.problems.push((p.span(), format!("`{text}`, which needs `std` (the device has no heap)")));
            }
            _ => {}
        }
    }
}

/// Rust's primitive types: in type position their names mean the type, whatever fn of the
/// same name is in scope.
const PRIMITIVES: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64", "bool", "char", "str",
];

impl<'ast> Visit<'ast> for Checker<'_, '_> {
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
    fn visit_type_path(&mut self, t: &'ast syn::TypePath) {
        if let Some(q) = &t.qself {
            self.visit_type(&q.ty);
            return;
        }
        let primitive = t.qself.is_none() && t.path.leading_colon.is_none() && t.path.segments.len() == 1 && PRIMITIVES.contains(&t.path.segments[0].ident.to_string().as_str());
        if !primitive {
            syn::visit::visit_type_path(self, t);
        }
    }
    fn visit_expr_path(&mut self, e: &'ast syn::ExprPath) {
        match &e.qself {
            // `<T as Trait>::item`: the type and the trait, not the item.
            Some(q) => {
                self.visit_type(&q.ty);
                if q.position > 0 {
                    let mut tr = e.path.clone();
                    tr.segments = e.path.segments.iter().take(q.position).cloned().collect();
                    self.visit_path(&tr);
                }
            }
            None => self.visit_path(&e.path),
        }
    }
    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.check_path(p);
        for seg in &p.segments {
            self.visit_path_arguments(&seg.arguments);
        }
    }
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = mac.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
        if mac.path.segments.len() == 1 && STD_ONLY_MACROS.contains(&name.as_str()) {
            self.problems.push((mac.path.span(), format!("`{name}!`, which needs `std`")));
            return;
        }
        // The arguments of expression-like macros (`assert!(x < crate::N)`, `acc::atomic!`).
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = syn::parse::Parser::parse2(parser, mac.tokens.clone()) {
            for a in &args {
                self.visit_expr(a);
            }
        }
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// `Self` (a type, not `self`) replaced by the `impl`'s type: the kernels of an associated fn
/// are free fns of the device crate.
fn replace_self_type(ts: TokenStream, ty: &TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = ts.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::new();
    for (k, t) in trees.iter().enumerate() {
        match t {
            TokenTree::Ident(id) if id == "Self" => {
                let path_follows = matches!(trees.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                let ty: TokenStream = ty.clone().into_iter().map(|mut t| {
                    t.set_span(id.span());
                    t
                }).collect();
                // A path type names its items as it is (`Grid::N`); others need `<[T; 3]>::N`.
                let plain = syn::parse2::<syn::Path>(ty.clone()).is_ok();
                if path_follows && !plain {
                    out.extend(quote!(<#ty>));
                } else {
                    out.extend(ty);
                }
            }
            TokenTree::Group(g) => {
                let mut ng = proc_macro2::Group::new(g.delimiter(), replace_self_type(g.stream(), ty));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            _ => out.push(t.clone()),
        }
    }
    out.into_iter().collect()
}

/// Attributes of a carried item that the device crate can take.
/// Whether an item macro is a `macro_rules!` definition.
fn is_macro_rules(mac: &syn::ItemMacro) -> bool {
    mac.ident.is_some() && mac.mac.path.is_ident("macro_rules")
}

fn device_attrs(attrs: &[syn::Attribute]) -> Vec<syn::Attribute> {
    let mut out = Vec::new();
    for a in attrs {
        let p = a.path();
        if p.is_ident("derive") {
            if let Ok(list) = a.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) {
                let kept: Vec<&syn::Path> =
                    list.iter().filter(|p| p.segments.last().is_some_and(|l| CORE_DERIVES.contains(&l.ident.to_string().as_str()))).collect();
                if !kept.is_empty() {
                    let mut a = a.clone();
                    a.meta = syn::parse_quote!(derive(#(#kept),*));
                    out.push(a);
                }
            }
        } else if p.is_ident("cfg") {
            let test = matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string() == "test");
            if !test {
                out.push(a.clone());
            }
        } else if ["doc", "repr", "allow", "inline", "cold", "track_caller", "must_use", "non_exhaustive"].iter().any(|n| p.is_ident(n)) {
            out.push(a.clone());
        }
    }
    out
}

/// Fields and variants keep their docs only.
struct CleanFields;

impl VisitMut for CleanFields {
    fn visit_field_mut(&mut self, f: &mut syn::Field) {
        f.attrs.retain(|a| a.path().is_ident("doc"));
        syn::visit_mut::visit_field_mut(self, f);
    }
    fn visit_variant_mut(&mut self, v: &mut syn::Variant) {
        v.attrs.retain(|a| a.path().is_ident("doc"));
        syn::visit_mut::visit_variant_mut(self, v);
    }
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
}

impl Scan<'_> {
    /// The index rewriter of module `m`'s code.
    fn inline_bounds(&self, m: usize) -> InlineBounds<'_> {
        InlineBounds { file: &self.sources[self.modules[m].src].id }
    }

    fn report(&self, m: usize, problems: Vec<(Span, String)>, out: &mut Out) {
        let s = &self.sources[self.modules[m].src];
        for (span, what) in problems {
            let e = render(&s.rel, &s.text, span, &format!("the GPU kernel cannot use {what}"));
            if !out.errors.contains(&e) {
                out.errors.push(e);
            }
        }
    }

    /// The routines of module `m` (its own `#[acc::routine]` fns, by name) whose indices the
    /// launch can bound from their arguments (acc-codegen's `prove_routine`).
    fn module_routines(&self, m: usize) -> HashMap<String, acc_codegen::lower::bounds::ProvedRoutine> {
        let module = &self.modules[m];
        if module.dep {
            return HashMap::new();
        }
        module
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Fn(f) if is_routine(&f.attrs) => acc_codegen::lower::bounds::prove_routine(f).map(|p| (f.sig.ident.unraw().to_string(), p)),
                _ => None,
            })
            .collect()
    }

    /// The tokens of module `m`'s items (not its header), in source order with their lines.
    fn module_items(&self, m: usize, out: &mut Out) -> Vec<(usize, TokenStream)> {
        let module = &self.modules[m];
        let mut items: Vec<(usize, TokenStream)> = Vec::new();
        for (k, item) in module.items.iter().enumerate() {
            let line = item.span().start().line;
            match item {
                syn::Item::Fn(f) => {
                    if let Some((kind, attr)) = region_kind(&f.attrs) {
                        // A dependency's regions are in its own PTX.
                        if !module.dep {
                            self.region_kernels(m, kind, attr, f, &|_| None, &mut items, out);
                        }
                    } else if is_routine(&f.attrs) {
                        // Its twin without index checks, which the unchecked kernels of this
                        // module's regions call where the launch bounds its indices.
                        let twin = (!module.dep).then(|| acc_codegen::lower::bounds::prove_routine(f)).flatten();
                        let mut f = f.clone();
                        f.attrs.retain(|a| !is_acc_path(a.path(), "routine"));
                        f.attrs = device_attrs(&f.attrs);
                        StripAcc.visit_item_fn_mut(&mut f);
                        self.inline_bounds(m).routine(&f.sig, &mut f.block);
                        let mut c = Checker::new(self, m).with_locals(&f);
                        c.visit_signature(&f.sig);
                        c.visit_block(&f.block);
                        // A dependency's routine the device cannot build stays out (a kernel
                        // that calls it gets rustc's error); the package's own is an error.
                        if module.dep && !c.problems.is_empty() {
                            continue;
                        }
                        self.report(m, c.problems, out);
                        items.push((line, self.rewrite_paths(m, quote!(#f))));
                        if let Some(twin) = twin {
                            if let Ok(mut t) = syn::parse2::<syn::ItemFn>(twin.twin) {
                                t.attrs = device_attrs(&t.attrs);
                                StripAcc.visit_item_fn_mut(&mut t);
                                items.push((line, self.rewrite_paths(m, quote!(#t))));
                            }
                        }
                    } else if f.sig.constness.is_some() && self.carry(m, k).is_ok() {
                        let mut f = f.clone();
                        f.attrs = device_attrs(&f.attrs);
                        items.push((line, self.rewrite_paths(m, quote!(#f))));
                    }
                    if let Some(&child) = module.children.get(&k) {
                        let inner = self.module_items(child, out);
                        if !inner.is_empty() {
                            let name = Ident::new(&format!("__acc_in_{}", f.sig.ident.unraw()), f.sig.ident.span());
                            let inner = inner.into_iter().map(|(_, t)| t);
                            items.push((line, quote!(pub mod #name { use super::*; use ::acc_device::prelude::*; #(#inner)* })));
                        }
                    }
                }
                syn::Item::Const(_) | syn::Item::Static(_) | syn::Item::Type(_) | syn::Item::Enum(_) | syn::Item::Struct(_) | syn::Item::Trait(_) => {
                    if self.carry(m, k).is_err() {
                        continue;
                    }
                    let mut item = item.clone();
                    CleanFields.visit_item_mut(&mut item);
                    match &mut item {
                        syn::Item::Const(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Static(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Type(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Enum(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Struct(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Trait(i) => {
                            i.attrs = device_attrs(&i.attrs);
                            for it in &mut i.items {
                                if let syn::TraitItem::Fn(f) = it {
                                    f.attrs = device_attrs(&f.attrs);
                                    if let Some(body) = &mut f.default {
                                        self.inline_bounds(m).routine(&f.sig, body);
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                    items.push((line, self.rewrite_paths(m, item.into_token_stream())));
                }
                syn::Item::Impl(imp) => {
                    if let Some(t) = self.device_impl(m, imp) {
                        items.push((line, self.rewrite_paths(m, t)));
                    }
                    if !module.dep {
                        self.impl_regions(m, imp, &mut items, out);
                    }
                }
                syn::Item::Use(u) => {
                    for leaf in use_leaves(u) {
                        let res = self.resolve_segments(m, leaf.leading, &leaf.segs, 0);
                        let keep = match res {
                            Res::Item(m2, k2) => self.carry(m2, k2).is_ok(),
                            Res::Module(_) | Res::Core => true,
                            Res::NotCore | Res::Unknown | Res::Extern => false,
                        };
                        if !keep {
                            continue;
                        }
                        let vis = &u.vis;
                        let lead = leaf.leading.then(|| quote!(::));
                        let ids = &leaf.idents;
                        let tail = match (&leaf.binding, &leaf.rename) {
                            (Binding::Glob, _) => quote!(::*),
                            (_, Some(r)) => quote!(as #r),
                            _ => quote!(),
                        };
                        let use_token = &u.use_token;
                        items.push((line, self.rewrite_paths(m, quote!(#vis #use_token #lead #(#ids)::* #tail;))));
                    }
                }
                // `macro_rules!` definitions at their places, so that the kernels that invoke
                // them (an index macro in a loop body) see them in the same textual scope;
                // `#[macro_export]` dropped (the device crate's root would take every crate
                // root's), unused ones allowed.
                syn::Item::Macro(mac) if is_macro_rules(mac) => {
                    let mut mac = mac.clone();
                    mac.attrs = device_attrs(&mac.attrs);
                    items.push((line, self.rewrite_paths(m, quote!(#[allow(unused_macros)] #mac))));
                }
                syn::Item::Mod(md) => {
                    let Some(&child) = module.children.get(&k) else { continue };
                    let (mod_token, name) = (&md.mod_token, &md.ident);
                    // `#[macro_use]`: the module's macros stay in scope after it, as in the package.
                    let mut attrs = device_attrs(&md.attrs);
                    attrs.extend(md.attrs.iter().filter(|a| a.path().is_ident("macro_use")).cloned());
                    let attrs = attrs.iter().filter(|a| !a.path().is_ident("doc"));
                    let path = md.attrs.iter().filter(|a| a.path().is_ident("path"));
                    if md.content.is_some() {
                        let inner = self.module_items(child, out).into_iter().map(|(_, t)| t);
                        items.push((line, quote!(#(#attrs)* pub #mod_token #name { use ::acc_device::prelude::*; #(#inner)* })));
                    } else if self.modules[child].parent == Some(m) {
                        items.push((line, self.rewrite_paths(m, quote!(#(#attrs)* #(#path)* pub #mod_token #name;))));
                    } else {
                        // A file another crate root declared first: that crate's module.
                        let target: syn::Path = syn::parse_str(&self.modules[child].dev_path).expect("a module path");
                        items.push((line, quote!(#(#attrs)* pub use #target as #name;)));
                    }
                }
                _ => {}
            }
        }
        items.sort_by_key(|(line, _)| *line);
        items
    }

    /// The kernels of region fn `f` of module `m` (a free fn, or an `impl`'s fn with `Self`
    /// replaced, whose fields have the types `field_type` gives), checked for what the device
    /// cannot take.
    #[allow(clippy::too_many_arguments)]
    fn region_kernels(
        &self,
        m: usize,
        kind: RegionKind,
        attr: &syn::Attribute,
        f: &syn::ItemFn,
        field_type: &dyn Fn(&syn::Member) -> Option<syn::Type>,
        items: &mut Vec<(usize, TokenStream)>,
        out: &mut Out,
    ) {
        // (`f`'s paths are checked as written; its parameters as the device takes them.)
        let s = &self.sources[self.modules[m].src];
        let line = attr.pound_token.span.start().line as u32;
        let src = acc_codegen::Source { file: s.rel.clone(), line };
        let r = acc_codegen::device_region(kind, attr, f, &src, field_type);
        if !r.errors.is_empty() {
            let problems = r.errors.into_iter().collect();
            self.report_plain(m, problems, out);
            return;
        }
        if r.refused.is_some() {
            out.refused += 1;
            return;
        }
        if r.forms.iter().any(|(_, ks)| !ks.is_empty()) {
            // The paths of the fn as written: its instances and fields say nothing new.
            let mut c = Checker::new(self, m).with_locals(f);
            c.visit_block(&f.block);
            for input in &r.inputs {
                c.visit_fn_arg(input);
            }
            self.report(m, c.problems, out);
        }
        // info: the regions' schedule reports, for `ACC_INFO` and the `info` clause.
        out.reports.extend(r.reports);
        let routines = self.module_routines(m);
        for (base, ks) in r.forms {
            out.kernels += ks.len();
            out.regions.push(base);
            for k in ks {
                let k = routine_bounds(k, f, &routines, &mut out.bounds);
                items.push((line as usize, self.rewrite_paths(m, self.inline_bounds(m).kernel(k))));
            }
        }
    }

    /// The regions among an `impl` block's fns: associated fns and methods. `Self` in them is
    /// the impl's type; a method's fields have the types the struct declares.
    fn impl_regions(&self, m: usize, imp: &syn::ItemImpl, items: &mut Vec<(usize, TokenStream)>, out: &mut Out) {
        for it in &imp.items {
            let syn::ImplItem::Fn(f) = it else { continue };
            let Some((kind, attr)) = region_kind(&f.attrs) else { continue };
            if !imp.generics.params.is_empty() || imp.trait_.is_some() {
                let what = if imp.trait_.is_some() { "an `impl` of a trait" } else { "a generic `impl` block" };
                self.report_plain(m, vec![(f.sig.ident.span(), format!("a region in {what} cannot be built for the GPU: make it an associated fn of an inherent, non-generic `impl`, or a free fn"))], out);
                continue;
            }
            let self_ty = &imp.self_ty;
            let tokens = replace_self_type(quote!(#f), &quote!(#self_ty));
            let Ok(item) = syn::parse2::<syn::ItemFn>(tokens) else { continue };
            let fields = self.struct_fields(m, self_ty);
            let field_type = |member: &syn::Member| -> Option<syn::Type> {
                let key = match member {
                    syn::Member::Named(id) => id.unraw().to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                fields.iter().find(|(n, _)| *n == key).map(|(_, t)| t.clone())
            };
            self.region_kernels(m, kind, attr, &item, &field_type, items, out);
        }
    }

    /// The fields of the struct that `ty` names in module `m`: (name or index, type).
    fn struct_fields(&self, m: usize, ty: &syn::Type) -> Vec<(String, syn::Type)> {
        let syn::Type::Path(tp) = ty else { return Vec::new() };
        let Res::Item(m2, k2) = self.resolve(m, &tp.path) else { return Vec::new() };
        let syn::Item::Struct(st) = &self.modules[m2].items[k2] else { return Vec::new() };
        st.fields
            .iter()
            .enumerate()
            .map(|(i, f)| (f.ident.as_ref().map_or_else(|| i.to_string(), |id| id.unraw().to_string()), f.ty.clone()))
            .collect()
    }

    /// Reports problems that are already whole messages.
    fn report_plain(&self, m: usize, problems: Vec<(Span, String)>, out: &mut Out) {
        let s = &self.sources[self.modules[m].src];
        for (span, msg) in problems {
            let e = render(&s.rel, &s.text, span, &msg);
            if !out.errors.contains(&e) {
                out.errors.push(e);
            }
        }
    }

    /// An `impl` of a carried type: inherent methods the device can build, or a whole impl of
    /// one of `core`'s operator or comparison traits.
    fn device_impl(&self, m: usize, imp: &syn::ItemImpl) -> Option<TokenStream> {
        // An impl of a trait of the package: carried when the trait is (`impl Real for f64`).
        let user_trait = imp.trait_.as_ref().and_then(|(_, path, _)| match self.resolve(m, path) {
            Res::Item(m2, k2) if matches!(self.modules[m2].items[k2], syn::Item::Trait(_)) => Some(self.carry(m2, k2).is_ok()),
            _ => None,
        });
        let primitive = matches!(&*imp.self_ty, syn::Type::Path(tp) if tp.qself.is_none() && tp.path.get_ident().is_some_and(|i| PRIMITIVES.contains(&i.to_string().as_str())));
        if !(self.carried_self_type(m, imp) || primitive && user_trait.is_some()) || user_trait == Some(false) {
            return None;
        }
        let mut imp = imp.clone();
        imp.attrs = device_attrs(&imp.attrs);
        let fits = |it: &syn::ImplItem| -> bool {
            let mut c = Checker::new(self, m);
            match it {
                // Regions are launched from the host: their kernels are built apart.
                syn::ImplItem::Fn(f) if region_kind(&f.attrs).is_some() => return false,
                syn::ImplItem::Fn(f) => {
                    let as_fn = syn::ItemFn { attrs: vec![], vis: f.vis.clone(), sig: f.sig.clone(), block: Box::new(f.block.clone()) };
                    c = c.with_locals(&as_fn);
                    c.visit_signature(&f.sig);
                    c.visit_block(&f.block);
                }
                syn::ImplItem::Const(k) => c.visit_impl_item_const(k),
                syn::ImplItem::Type(t) => c.visit_impl_item_type(t),
                _ => return false,
            }
            c.problems.is_empty()
        };
        match &imp.trait_ {
            Some((_, path, _)) => {
                let last = path.segments.last()?.ident.to_string();
                let core_trait = CORE_TRAITS.contains(&last.as_str()) && matches!(self.resolve(m, path), Res::Core | Res::Unknown);
                if !core_trait && user_trait.is_none() {
                    return None;
                }
                if !imp.items.iter().all(fits) {
                    return None;
                }
            }
            None => imp.items.retain(fits),
        }
        for it in &mut imp.items {
            if let syn::ImplItem::Fn(f) = it {
                f.attrs = device_attrs(&f.attrs);
                StripAcc.visit_impl_item_fn_mut(f);
                self.inline_bounds(m).routine(&f.sig, &mut f.block);
            }
        }
        let ix_impl = index_by_ix(&imp);
        Some(quote!(#imp #ix_impl))
    }

    /// Rewrites the paths of module `m`'s tokens for their place in the device crate (see the
    /// module docs): `crate::`, `self::` and `super::` at the start of a path, the package's
    /// lib crate, `std::` into `core::`.
    fn rewrite_paths(&self, m: usize, ts: TokenStream) -> TokenStream {
        let module = &self.modules[m];
        let lib = self.lib.as_ref().filter(|(root, _)| module.root != *root && !module.dep).map(|(root, name)| (self.modules[*root].dev_path.clone(), name.clone()));
        let deps: Vec<(String, String)> = self.deps.iter().map(|(name, root)| (self.modules[*root].dev_path.clone(), name.clone())).collect();
        let trees: Vec<TokenTree> = ts.into_iter().collect();
        let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
        let is_sep = |k: usize| {
            matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
                && matches!(trees.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
        };
        let supers = |n: usize, span: Span, out: &mut Vec<TokenTree>| {
            for _ in 0..n {
                out.push(TokenTree::Ident(Ident::new("super", span)));
                let mut a = Punct::new(':', Spacing::Joint);
                a.set_span(span);
                let mut b = Punct::new(':', Spacing::Alone);
                b.set_span(span);
                out.push(TokenTree::Punct(a));
                out.push(TokenTree::Punct(b));
            }
        };
        let mut k = 0;
        while k < trees.len() {
            let t = &trees[k];
            // A path's first segment: not after `::` or `$`.
            let continues = k >= 1 && matches!(&trees[k - 1], TokenTree::Punct(p) if p.as_char() == ':' || p.as_char() == '$');
            if let (TokenTree::Ident(id), false, true) = (t, continues, is_sep(k + 1)) {
                let span = id.span();
                let name = id.to_string();
                match name.as_str() {
                    "crate" => {
                        if module.depth == 0 {
                            out.push(TokenTree::Ident(Ident::new("self", span)));
                        } else {
                            // `super::` * depth, the last one's `::` is the original's.
                            supers(module.depth - 1, span, &mut out);
                            out.push(TokenTree::Ident(Ident::new("super", span)));
                        }
                        k += 1;
                        continue;
                    }
                    "self" if module.wrappers > 0 => {
                        supers(module.wrappers - 1, span, &mut out);
                        out.push(TokenTree::Ident(Ident::new("super", span)));
                        k += 1;
                        continue;
                    }
                    "super" if module.wrappers > 0 => {
                        supers(module.wrappers, span, &mut out);
                        out.push(t.clone());
                        k += 1;
                        continue;
                    }
                    "std" => {
                        let second = match trees.get(k + 3) {
                            Some(TokenTree::Ident(s)) => s.to_string(),
                            _ => String::new(),
                        };
                        let third = match trees.get(k + 6) {
                            Some(TokenTree::Ident(s)) if is_sep(k + 4) => Some(s.to_string()),
                            _ => None,
                        };
                        if core_module(&second, third.as_deref()) {
                            out.push(TokenTree::Ident(Ident::new("core", span)));
                            k += 1;
                            continue;
                        }
                    }
                    _ => {
                        if let Some((path, _)) = lib.iter().chain(&deps).find(|(_, n)| n == &name) {
                            {
                                let p: TokenStream = path.parse().expect("a module path");
                                out.extend(p.into_iter().map(|mut t| {
                                    t.set_span(span);
                                    t
                                }));
                                k += 1;
                                continue;
                            }
                        }
                    }
                }
            }
            match t {
                TokenTree::Group(g) => {
                    let mut ng = proc_macro2::Group::new(g.delimiter(), self.rewrite_paths(m, g.stream()));
                    ng.set_span(g.span());
                    out.push(TokenTree::Group(ng));
                }
                _ => out.push(t.clone()),
            }
            k += 1;
        }
        out.into_iter().collect()
    }
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

fn scan_package(manifest: &Path, lib_name: Option<&str>, deps: &[Dep]) -> Result<DeviceCrate, (String, BTreeSet<String>)> {
    let mut files = Vec::new();
    for dir in ["src", "tests", "examples", "benches"] {
        let d = manifest.join(dir);
        if d.is_dir() {
            // A new file there re-runs the build script too.
            println!("cargo::rerun-if-changed={}", d.display());
        }
        rust_files(&d, &mut files);
    }
    let mut listed: Vec<(PathBuf, String)> = files
        .iter()
        .map(|path| (path.clone(), path.strip_prefix(manifest).unwrap_or(path).to_string_lossy().replace('\\', "/")))
        .collect();
    // A dependency's library: the files of its root's folder, at `deps/<crate>/..`.
    for d in deps {
        let Some(dir) = d.lib_root.parent() else { continue };
        let package = dir.parent().unwrap_or(dir);
        println!("cargo::rerun-if-changed={}", dir.display());
        let mut dep_files = Vec::new();
        rust_files(dir, &mut dep_files);
        for path in dep_files {
            let rel = format!("deps/{}/{}", d.name, path.strip_prefix(package).unwrap_or(&path).to_string_lossy().replace('\\', "/"));
            listed.push((path, rel));
        }
    }
    let mut sources = Vec::new();
    for (path, rel) in listed {
        println!("cargo::rerun-if-changed={}", path.display());
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        // Files rustc will reject anyway are left to rustc's own errors.
        let Ok(file) = syn::parse_file(&text) else { continue };
        let Some(id) = quote!(#file).into_iter().next().map(|t| t.span().file()) else { continue };
        sources.push(Source { rel, abs: path, text, file, id });
    }
    let by_path: HashMap<PathBuf, usize> = sources.iter().enumerate().map(|(i, s)| (s.abs.clone(), i)).collect();
    let mut scan = Scan {
        sources: &sources,
        modules: Vec::new(),
        lib: None,
        deps: Vec::new(),
        carried: RefCell::new(HashMap::new()),
        externs: RefCell::new(BTreeSet::new()),
    };
    // Crate roots, the library first (its modules are its own when a binary declares them too).
    let mut roots: Vec<usize> = (0..sources.len()).filter(|&i| is_crate_root(&sources[i].rel)).collect();
    roots.sort_by_key(|&i| sources[i].rel != "src/lib.rs");
    let mut file_modules: HashMap<usize, usize> = HashMap::new();
    let mut root_modules = Vec::new();
    let add_root = |scan: &mut Scan, src: usize, file_modules: &mut HashMap<usize, usize>| {
        let rel = &sources[src].rel;
        let dir = sources[src].abs.parent().map(Path::to_path_buf).unwrap_or_default();
        let m = scan.add_module(src, None, ModKind::File, &module_name(rel), sources[src].file.items.clone(), dir);
        file_modules.insert(src, m);
        scan.build_children(m, file_modules, &by_path);
        m
    };
    // The dependencies' libraries first: the package's modules resolve their paths.
    for d in deps {
        let Some(src) = sources.iter().position(|s| s.abs == d.lib_root) else { continue };
        let m = add_root(&mut scan, src, &mut file_modules);
        scan.deps.push((d.name.clone(), m));
        root_modules.push(m);
    }
    for &src in &roots {
        if file_modules.contains_key(&src) {
            continue;
        }
        let m = add_root(&mut scan, src, &mut file_modules);
        if sources[src].rel == "src/lib.rs" {
            scan.lib = lib_name.map(|n| (m, n.to_string()));
        }
        root_modules.push(m);
    }
    // Files no root declares (an unusual layout): each its own root, as they were before.
    for (src, s) in sources.iter().enumerate() {
        if !file_modules.contains_key(&src) && s.text.contains("acc") && !s.rel.starts_with("deps/") {
            let m = add_root(&mut scan, src, &mut file_modules);
            root_modules.push(m);
        }
    }

    let mut out = Out::default();
    let mut texts: HashMap<usize, (String, TokenStream)> = HashMap::new();
    for m in 0..scan.modules.len() {
        if scan.modules[m].kind != ModKind::File {
            continue;
        }
        let src = scan.modules[m].src;
        if file_modules.get(&src) != Some(&m) {
            continue;
        }
        let items = scan.module_items(m, &mut out);
        let items = items.iter().map(|(_, t)| t);
        let tokens = quote! {
            use ::acc_device::prelude::*;
            #(#items)*
        };
        texts.insert(m, (sources[src].rel.clone(), tokens));
    }
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
    let mut modules = Vec::new();
    let mut mods = Vec::new();
    let mut ms: Vec<usize> = texts.keys().copied().collect();
    ms.sort();
    for m in ms {
        let (rel, tokens) = texts.remove(&m).expect("listed");
        let src = &sources[scan.modules[m].src];
        let header = format!("Written by acc-build from {rel}: its kernels and the items they use, each token on its line of {rel}. Do not edit.");
        let text = match crate::print::print_module(tokens.clone(), &src.id, &header) {
            Ok(text) => text,
            Err(why) => {
                println!("cargo::warning=acc-build: {rel}: {why}; kernel panics in this file will name the device crate's lines");
                let file: syn::File = syn::parse2(tokens).map_err(|e| (format!("error: acc-build produced unparsable device code for {rel}: {e}"), BTreeSet::new()))?;
                format!("// {header}\n{}", prettyplease::unparse(&file))
            }
        };
        modules.push((rel.clone(), text));
        if scan.modules[m].parent.is_none() {
            let name = Ident::new(&module_name(&rel), Span::call_site());
            mods.push(quote! {
                #[path = #rel]
                pub mod #name;
            });
        }
    }
    let body = quote! {
        #![no_std]
        #![feature(abi_ptx)]
        #![allow(unused, non_snake_case, non_camel_case_types, improper_ctypes_definitions, clippy::all)]

        use acc_device::prelude::*;
        // `acc::Float` in the package's generic code is acc-device's.
        extern crate acc_device as acc;

        #[panic_handler]
        fn __acc_panic(info: &core::panic::PanicInfo) -> ! {
            acc_device::report_panic(info)
        }

        #(#mods)*
    };
    let file: syn::File = syn::parse2(body).map_err(|e| (format!("error: acc-build produced unparsable device code: {e}"), BTreeSet::new()))?;
    let root = format!(
        "// Written by acc-build from the package's acc regions. Do not edit.\n\
         // Each module lies at the path of the package's file it comes from, every token of that\n\
         // file on its line there: a kernel's panic names the file and line of your source.\n{}",
        prettyplease::unparse(&file)
    );
    Ok(DeviceCrate { root, modules, kernels: out.kernels, regions: out.regions, refused: out.refused, reports: out.reports, bounds: out.bounds })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
    }

    fn module<'a>(c: &'a DeviceCrate, rel: &str) -> &'a str {
        &c.modules.iter().find(|(r, _)| r == rel).unwrap_or_else(|| panic!("no module {rel}")).1
    }

    #[test]
    fn the_module_tree_is_mirrored_and_paths_rewritten() {
        let c = device_crate(&fixture("names"), Some("names_fixture"), &|_| Vec::new()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.kernels, 2);
        assert!(c.root.contains("#[path = \"src/lib.rs\"]\npub mod f_src_lib_rs;"), "{}", c.root);
        assert!(c.root.contains("#[path = \"tests/uses_lib.rs\"]\npub mod f_tests_uses_lib_rs;"), "{}", c.root);
        // `mod x;` files are declared where the user declared them, not at the root.
        assert!(!c.root.contains("physics"), "{}", c.root);
        let lib = module(&c, "src/lib.rs");
        assert!(lib.contains("pub mod physics;"), "{lib}");
        assert!(lib.contains("const fn twice()"), "{lib}");
        // `crate::` at the crate root is `self::`.
        assert!(lib.replace(' ', "").contains("self::physics::G+physics::detail::H"), "{lib}");
        let detail = module(&c, "src/physics/detail.rs");
        assert!(detail.contains("pub const H: f64 = super::G * 2.0;"), "{detail}");
        // Two modules below the root: `crate::` is `super::super::`.
        assert!(detail.replace(' ', "").contains("pubconstSAME:f64=super::super::physics::G;"), "{detail}");
        // The test's view of the lib crate, of `common`, and what stays out of `common`.
        let test = module(&c, "tests/uses_lib.rs");
        assert!(test.contains("use crate::f_src_lib_rs::physics::G;"), "{test}");
        assert!(test.replace(' ', "").contains("crate::f_src_lib_rs::physics::detail::SAME"), "{test}");
        assert!(test.contains("pub mod common;"), "{test}");
        let common = module(&c, "tests/common/mod.rs");
        assert!(common.contains("pub const K: f64 = 4.0;"), "{common}");
        for host_only in ["HashMap", "rayon", "host_helper"] {
            assert!(!common.contains(host_only), "{common}");
        }
        // Each token on its line.
        assert_eq!(common.lines().position(|l| l.contains("pub const K")), Some(3), "{common}");
    }

    #[test]
    fn methods_generic_regions_and_traits_reach_the_device_crate() {
        let c = device_crate(&fixture("forms"), Some("forms"), &|_| Vec::new()).unwrap_or_else(|e| panic!("{e}"));
        let lib = module(&c, "src/lib.rs").replace([' ', '\n'], "");
        // A method region: its fields are parameters, typed from the struct.
        assert!(lib.contains("fnacc_src_lib_rs_l29_scale_0(__acc_panic:*mut::acc_device::panic::PanicSlot,__acc_self_u_ptr:*mutf64,__acc_self_u_len:usize,__acc_self_k:f64,__acc_self_w_ptr:::acc_device::ReadOnlyPtr<f32>,__acc_self_w_len:usize"), "{lib}");
        assert!(lib.contains("fnacc_src_lib_rs_l37_fill_0("), "{lib}");
        // The instance of the generic region, the generic routine as it is, the trait and its
        // impl for `f32`; not the impl for `String`, nor the host struct.
        assert!(lib.contains("fnacc_src_lib_rs_l51_squares__f32_0(__acc_panic:*mut::acc_device::panic::PanicSlot,a_ptr:*mutf32,"), "{lib}");
        assert!(lib.contains("pubfnsquare<T:Real>(x:T)->T"), "{lib}");
        assert!(lib.contains("pubtraitReal:Copy+Mul<Output=Self>"), "{lib}");
        assert!(lib.contains("implRealforf32"), "{lib}");
        assert!(!lib.contains("String") && !lib.contains("structGrid"), "{lib}");
        assert_eq!(c.regions.len(), 3, "{:?}", c.regions);
    }

    #[test]
    fn what_a_method_region_cannot_take_is_an_error_on_it() {
        let Err(e) = device_crate(&fixture("forms-unsupported"), Some("forms_unsupported"), &|_| Vec::new()) else { panic!("no error") };
        let expect = [
            ("`self.q` is used as an array in the region, but its type `VecDeque < f64 >` does not slice", "src/lib.rs:11:26"),
            ("a region in an `impl` of a trait cannot be built for the GPU", "src/lib.rs:23:8"),
            ("a region in a generic `impl` block cannot be built for the GPU", "src/lib.rs:35:12"),
        ];
        for (what, at) in expect {
            let msg = format!("error: {what}");
            let k = e.find(&msg).unwrap_or_else(|| panic!("no `{msg}` in\n{e}"));
            assert!(e[k..].lines().nth(1).is_some_and(|l| l.ends_with(at)), "{what} not at {at}:\n{e}");
        }
    }

    #[test]
    fn a_dependency_that_uses_acc_joins_the_device_crate() {
        let asked = RefCell::new(BTreeSet::new());
        let deps = |names: &BTreeSet<String>| {
            asked.borrow_mut().extend(names.iter().cloned());
            vec![Dep { name: "dep_lib".into(), lib_root: fixture("dep-lib/src/lib.rs") }]
        };
        let Err(e) = device_crate(&fixture("uses-dep"), Some("uses_dep"), &deps) else { panic!("no error") };
        // Asked for the crates the kernels name; the dependency's host items and crates that
        // are not dependencies stay errors.
        assert_eq!(asked.borrow().iter().cloned().collect::<Vec<_>>(), ["dep_lib", "other_crate"]);
        assert!(e.contains("error: the GPU kernel cannot use `dep_lib::Registry`, a struct without `#[derive(acc::DeviceCopy)]`\n  --> src/lib.rs:15:23"), "{e}");
        assert!(e.contains("error: the GPU kernel cannot use `other_crate::f`, from a crate the device crate does not have"), "{e}");
        assert!(!e.contains("areas") && !e.contains("Disc") && !e.contains("scaled"), "{e}");
    }

    #[test]
    fn device_code_indexes_through_acc_device_ix() {
        let src = "fn r(u: &mut [f32], m: &[[f32; 2]], i: usize) -> f32 {
    const K: [usize; 2] = [0, 1];
    let w = [0.0f32; K[1]];
    u[i] += u[i + 1];
    u[K[0]].to_bits();
    let s = &u[1..i];
    m[i][0] + s[0] + w[0]
}";
        let mut f: syn::ItemFn = syn::parse_str(src).unwrap();
        let file = f.sig.fn_token.span.file();
        InlineBounds { file: &file }.routine(&f.sig, &mut f.block);
        let text = quote!(#f).to_string().replace(' ', "");
        // Lines and columns of the user's source, 1-based: of the indexed expression's first token.
        for want in [
            "constK:[usize;2]=[0,1];",
            "[0.0f32;K[1]]",
            "u[::acc_device::ix(i,4u32,5u32)]+=u[::acc_device::ix(i+1,4u32,13u32)];",
            "u[::acc_device::ix(K[::acc_device::ix(0,5u32,7u32)],5u32,5u32)].to_bits()",
            "&u[1..i]",
            "m[::acc_device::ix(i,7u32,5u32)][::acc_device::ix(0,7u32,5u32)]+s[::acc_device::ix(0,7u32,15u32)]+w[::acc_device::ix(0,7u32,22u32)]",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
        // The expressions of `assert!`s and the scrutinee of `matches!`; other macros as written.
        let mut f: syn::ItemFn = syn::parse_str(
            "fn m(u: &[u8], i: usize) -> bool { assert!(u[i] > 0, \"{}\", u[0]); debug_assert_eq!(u[1], 2); foo!(u[2]); matches!(u[i], 1 | 2 if u[0] > 0) }",
        )
        .unwrap();
        InlineBounds { file: "" }.routine(&f.sig, &mut f.block);
        let text = quote!(#f).to_string().replace(' ', "");
        for want in [
            "assert!(u[::acc_device::ix(i,0u32,0u32)]>0,\"{}\",u[::acc_device::ix(0,0u32,0u32)])",
            "debug_assert_eq!(u[::acc_device::ix(1,0u32,0u32)],2)",
            "foo!(u[2])",
            "matches!(u[::acc_device::ix(i,0u32,0u32)],1|2ifu[0]>0)",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
        // Tokens of another file (generated code) have no line or column.
        let mut f: syn::ItemFn = syn::parse_str(src).unwrap();
        InlineBounds { file: "<another file>" }.routine(&f.sig, &mut f.block);
        assert!(quote!(#f).to_string().replace(' ', "").contains("u[::acc_device::ix(i,0u32,0u32)]+="));
        // A `const fn`, or a routine generic over `Index`, stays as written.
        let fns: [syn::ItemFn; 2] = [
            syn::parse_quote!(const fn c(u: &[f32]) -> f32 { u[0] }),
            syn::parse_quote!(fn g<C: core::ops::Index<usize, Output = f32>>(u: &C) -> f32 { u[0] }),
        ];
        for mut f in fns {
            let before = quote!(#f).to_string();
            InlineBounds { file: "" }.routine(&f.sig, &mut f.block);
            assert_eq!(quote!(#f).to_string(), before);
        }
        // A type indexed by `usize` is indexed by `Ix` too.
        let imp: syn::ItemImpl = syn::parse_quote!(impl<T: Copy> Index<usize> for V<T> { type Output = T; fn index(&self, i: usize) -> &T { &self.0[i] } });
        let ix = index_by_ix(&imp).unwrap().to_string().replace(' ', "");
        assert!(ix.starts_with("impl<T:Copy>::core::ops::Index<::acc_device::Ix>forV<T>{"), "{ix}");
        let imp: syn::ItemImpl = syn::parse_quote!(impl Index<core::ops::Range<usize>> for V { type Output = [f32]; fn index(&self, r: Range<usize>) -> &[f32] { &self.0[r] } });
        assert!(index_by_ix(&imp).is_none());
    }

    #[test]
    fn macro_rules_macros_are_carried_where_they_are_defined() {
        let dir = std::env::temp_dir().join(format!("acc-build-macros-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        let lib = "#[macro_use]
mod index {
    macro_rules! i2d { ($n:expr, $j:expr, $i:expr) => { $j * $n + $i }; }
}
#[macro_export]
macro_rules! i3d { ($n1:expr, $n2:expr, $k:expr, $j:expr, $i:expr) => { ($k * $n2 + $j) * $n1 + $i }; }
macro_rules! make_items { () => { pub fn made() {} }; }
make_items!();
#[acc::parallel]
pub fn zero(u: &mut [f64], n1: usize, n2: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 0..n1 {
        u[i3d!(n1, n2, 0, 0, i)] = 0.0;
        u[i2d!(n1, 1, i)] = 0.0;
    }
}
";
        std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
        let c = device_crate(&dir, Some("macros"), &|_| Vec::new()).unwrap_or_else(|e| panic!("{e}"));
        std::fs::remove_dir_all(&dir).unwrap();
        let own = module(&c, "src/lib.rs");
        let flat = own.replace([' ', '\n'], "");
        // Each definition at its place (before the kernel that invokes it), unused ones
        // allowed, `#[macro_export]` dropped, `#[macro_use]` kept on its module.
        assert!(flat.contains("#[macro_use]pubmodindex{"), "{own}");
        assert!(flat.contains("#[allow(unused_macros)]macro_rules!i2d"), "{own}");
        assert!(flat.contains("#[allow(unused_macros)]macro_rules!i3d"), "{own}");
        assert!(!own.contains("macro_export"), "{own}");
        assert!(own.find("macro_rules! i3d").unwrap() < own.find("ptx-kernel").unwrap(), "{own}");
        assert!(own.lines().position(|l| l.contains("macro_rules! i3d")) == Some(5), "on its line:\n{own}");
        // A macro's invocation at item level (the items it makes) stays on the host.
        assert!(!own.contains("make_items!();"), "{own}");
        assert_eq!(c.kernels, 1);
    }

    #[test]
    fn a_dependency_s_routines_and_types_without_its_regions() {
        let dir = std::env::temp_dir().join(format!("acc-build-uses-dep-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        let lib = std::fs::read_to_string(fixture("uses-dep/src/lib.rs")).unwrap();
        let good = &lib[..lib.find("#[acc::parallel]\npub fn bad").unwrap()];
        std::fs::write(dir.join("src/lib.rs"), good).unwrap();
        let deps = |_: &BTreeSet<String>| vec![Dep { name: "dep_lib".into(), lib_root: fixture("dep-lib/src/lib.rs") }];
        let c = device_crate(&dir, Some("uses_dep"), &deps).unwrap_or_else(|e| panic!("{e}"));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(c.root.contains("#[path = \"deps/dep_lib/src/lib.rs\"]\npub mod f_deps_dep_lib_src_lib_rs;"), "{}", c.root);
        let dep = module(&c, "deps/dep_lib/src/lib.rs");
        assert!(dep.contains("pub fn scaled(x: f64)") && dep.contains("pub const SCALE"), "{dep}");
        assert!(!dep.contains("fn logged") && !dep.contains("Registry") && !dep.contains("ptx-kernel"), "{dep}");
        let shapes = module(&c, "deps/dep_lib/src/shapes.rs");
        assert!(shapes.contains("pub struct Disc") && shapes.replace(' ', "").contains("super::SCALE"), "{shapes}");
        let own = module(&c, "src/lib.rs").replace([' ', '\n'], "");
        assert!(own.contains("usecrate::f_deps_dep_lib_src_lib_rs::shapes::Disc;"), "{own}");
        assert!(own.contains("crate::f_deps_dep_lib_src_lib_rs::scaled(d[::acc_device::ix(i,7u32,34u32)].area())"), "{own}");
        assert_eq!(c.regions.len(), 1, "{:?}", c.regions);
    }

    #[test]
    fn what_the_device_cannot_take_is_an_error_on_the_region_that_uses_it() {
        let Err(e) = device_crate(&fixture("unsupported"), Some("unsupported"), &|_| Vec::new()) else { panic!("no error") };
        let expect = [
            ("`HashMap`, which is not in `core`", "src/lib.rs:25:16"),
            ("`HashMap::new`, which is not in `core`", "src/lib.rs:25:36"),
            ("`helper`, a fn without `#[acc::routine]`", "src/lib.rs:26:16"),
            ("`COUNTER`, a `static mut`", "src/lib.rs:26:40"),
            ("`FROM_HELPER`, a const that uses `helper`, a fn without `#[acc::routine]`", "src/lib.rs:26:73"),
            ("`Plain`, a struct without `#[derive(acc::DeviceCopy)]`", "src/lib.rs:22:41"),
        ];
        for (what, at) in expect {
            let msg = format!("error: the GPU kernel cannot use {what}");
            let k = e.find(&msg).unwrap_or_else(|| panic!("no `{msg}` in\n{e}"));
            assert!(e[k..].lines().nth(1).is_some_and(|l| l.ends_with(at)), "{what} not at {at}:\n{e}");
        }
        // The source line and a caret under the path.
        assert!(e.contains(" 26|         c[i] = helper(a[i])"), "{e}");
        // `TWICE` comes from a `const fn` the device crate can build: no error.
        assert!(!e.contains("`TWICE`"), "{e}");
        assert!(e.contains("error: acc-build: 6 uses of what the device cannot take"), "{e}");
    }

    #[test]
    fn unchecked_kernels_call_the_twins_of_their_module_s_bounded_routines() {
        let routine: syn::ItemFn = syn::parse_str("#[acc::routine(seq)] fn spread(a: &[u32], c: usize, s: usize) -> u32 { a[c - s] + a[c + s] }").unwrap();
        let routines: HashMap<String, acc_codegen::lower::bounds::ProvedRoutine> = [("spread".to_string(), acc_codegen::lower::bounds::prove_routine(&routine).unwrap())].into();
        let kernels = quote! {
            fn k(a: &[u32]) { let x = spread(a, 3, 1); }
            fn k_inb(a: &[u32]) { let x = spread(a, 3, 1) + other(a); }
        };
        let region: syn::ItemFn = syn::parse_str("fn r(a: &[u32]) { for i in 0..4 { let x = spread(a, i, 1); } }").unwrap();
        let mut bounds = Vec::new();
        let out = routine_bounds(kernels.clone(), &region, &routines, &mut bounds).to_string();
        assert!(out.contains("fn k (a : & [u32]) { let x = spread (a , 3 , 1)"), "the checked kernel calls the routine: {out}");
        assert!(out.contains("fn k_inb (a : & [u32]) { let x = __acc_inb_spread (a , 3 , 1) + other (a)"), "the unchecked one its twin: {out}");
        assert!(out.contains("fn k_inbc (a : & [u32]) { let x = spread (a , 3 , 1) + other (a)"), "and its copy the routine: {out}");
        assert_eq!(bounds.len(), 1);
        assert_eq!(bounds[0].0, "k_inb");
        assert!(bounds[0].1.contains("\"spread\" =>") && bounds[0].1.contains("_ => :: core :: option :: Option :: Some (true)"), "{}", bounds[0].1);
        // A region that binds the name (a closure, a local fn, a glob `use`) calls its own.
        for region in [
            "fn r(a: &[u32]) { let spread = |a: &[u32], c: usize, s: usize| a[c]; for i in 0..4 { let x = spread(a, i, 1); } }",
            "fn r(a: &[u32]) { fn spread(a: &[u32], c: usize, s: usize) -> u32 { a[c] } for i in 0..4 { let x = spread(a, i, 1); } }",
            "fn r(a: &[u32]) { use other::*; for i in 0..4 { let x = spread(a, i, 1); } }",
        ] {
            let region: syn::ItemFn = syn::parse_str(region).unwrap();
            let mut bounds = Vec::new();
            let out = routine_bounds(kernels.clone(), &region, &routines, &mut bounds).to_string();
            assert!(!out.contains("__acc_inb_spread") && !out.contains("k_inbc"), "{out}");
            assert!(!bounds[0].1.contains("\"spread\""), "{}", bounds[0].1);
        }
    }
}
