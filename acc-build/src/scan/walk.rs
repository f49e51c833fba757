//! The walk: the package's Rust files (and those of its dependencies that use acc), parsed,
//! and the module tree the device crate mirrors (crate roots, `mod x;` files, inline modules,
//! fn bodies that declare items).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use acc_codegen::model::RegionKind;
use acc_codegen::syntax::is_acc_path;
use quote::quote;
use syn::ext::IdentExt;

use super::{Dep, ModKind, Module, Scan, Source};

pub(super) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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

pub(super) fn region_kind(attrs: &[syn::Attribute]) -> Option<(RegionKind, &syn::Attribute)> {
    for a in attrs {
        for (name, kind) in [("parallel", RegionKind::Parallel), ("kernels", RegionKind::Kernels), ("serial", RegionKind::Serial)] {
            if is_acc_path(a.path(), name) {
                return Some((kind, a));
            }
        }
    }
    None
}

pub(super) fn is_routine(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| is_acc_path(a.path(), "routine"))
}

/// The module of the device crate that holds one crate root's items.
pub(super) fn module_name(rel: &str) -> String {
    let mut s = String::from("f_");
    for ch in rel.chars() {
        s.push(if ch.is_ascii_alphanumeric() { ch } else { '_' });
    }
    s
}

/// Whether `rel` (relative to the package) is a crate root by cargo's conventions.
pub(super) fn is_crate_root(rel: &str) -> bool {
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

impl<'a> Scan<'a> {
    pub(super) fn add_module(&mut self, src: usize, parent: Option<usize>, kind: ModKind, name: &str, items: Vec<syn::Item>, dir: PathBuf) -> usize {
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
    pub(super) fn build_children(&mut self, m: usize, file_modules: &mut HashMap<usize, usize>, by_path: &HashMap<PathBuf, usize>) {
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
    pub(super) fn real(&self, mut m: usize) -> usize {
        while self.modules[m].kind == ModKind::FnBody {
            m = self.modules[m].parent.expect("a fn body lies in a module");
        }
        m
    }
}

/// The package's Rust files under `src`, `tests`, `examples` and `benches`, and the files of
/// each dependency's library at `deps/<crate>/..`, parsed (files rustc will reject anyway are
/// left to rustc's own errors); each one, and each folder, re-runs the build script when it
/// changes.
pub(super) fn read_sources(manifest: &Path, deps: &[Dep]) -> Vec<Source> {
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
    sources
}

impl Scan<'_> {
    /// The module tree of the sources: each crate root (the dependencies' libraries first, so
    /// that the package's modules resolve their paths, then the package's library, then its
    /// other roots), with its `mod` files and inline modules. Returns the module of each file,
    /// by source (the first module that declares a file owns it).
    pub(super) fn module_tree(&mut self, lib_name: Option<&str>, deps: &[Dep]) -> HashMap<usize, usize> {
        let sources = self.sources;
        let by_path: HashMap<PathBuf, usize> = sources.iter().enumerate().map(|(i, s)| (s.abs.clone(), i)).collect();
        // Crate roots, the library first (its modules are its own when a binary declares them too).
        let mut roots: Vec<usize> = (0..sources.len()).filter(|&i| is_crate_root(&sources[i].rel)).collect();
        roots.sort_by_key(|&i| sources[i].rel != "src/lib.rs");
        let mut file_modules: HashMap<usize, usize> = HashMap::new();
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
            let m = add_root(self, src, &mut file_modules);
            self.deps.push((d.name.clone(), m));
        }
        for &src in &roots {
            if file_modules.contains_key(&src) {
                continue;
            }
            let m = add_root(self, src, &mut file_modules);
            if sources[src].rel == "src/lib.rs" {
                self.lib = lib_name.map(|n| (m, n.to_string()));
            }
        }
        // Files no root declares (an unusual layout): each its own root, as they were before.
        for (src, s) in sources.iter().enumerate() {
            if !file_modules.contains_key(&src) && s.text.contains("acc") && !s.rel.starts_with("deps/") {
                add_root(self, src, &mut file_modules);
            }
        }
        file_modules
    }
}
