//! Finds the package's annotated items and writes the device crate's source.

use std::path::{Path, PathBuf};

use acc_codegen::model::RegionKind;
use acc_codegen::region::is_acc_path;
use quote::quote;
use syn::visit_mut::VisitMut;

/// The device crate's sources: its root, and one module per user file that has kernels or
/// items they use, at the user file's path relative to the package (so that `file!()` and
/// panic locations in it read as the user's file) with the user's tokens on their lines.
pub struct DeviceCrate {
    /// `kernels.rs`: attributes, the panic handler, the modules.
    pub root: String,
    /// (path relative to the package, text) of each module.
    pub modules: Vec<(String, String)>,
    /// The regions built for the GPU, by kernel base name (`acc_codegen::kernel_name`).
    pub regions: Vec<String>,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            // trybuild cases are broken on purpose.
            if p.file_name().is_some_and(|n| n == "ui" || n == "target" || n == "fixtures") {
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

struct StripAcc;

impl VisitMut for StripAcc {
    fn visit_expr_for_loop_mut(&mut self, f: &mut syn::ExprForLoop) {
        f.attrs.retain(|a| !is_acc_path(a.path(), "loop"));
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
    }
}

/// A file's kernels and the items they use, each with the line it comes from.
#[derive(Default)]
struct Collected {
    items: Vec<(usize, proc_macro2::TokenStream)>,
    regions: Vec<String>,
}

/// The line an item starts on (its attributes included).
fn line_of(item: &impl syn::spanned::Spanned) -> usize {
    item.span().start().line
}

fn collect(items: &[syn::Item], file: &str, text: &str, c: &mut Collected) {
    for item in items {
        match item {
            syn::Item::Fn(f) => {
                if let Some((kind, attr)) = region_kind(&f.attrs) {
                    let line = attr.pound_token.span.start().line as u32;
                    let src = acc_codegen::Source { file: file.to_string(), line };
                    match acc_codegen::device_kernels(kind, attr, f, &src) {
                        Ok(ks) => {
                            c.regions.push(acc_codegen::kernel_name(file, line, &f.sig.ident.to_string()));
                            c.items.extend(ks.into_iter().map(|k| (line as usize, k)));
                        }
                        // A region the GPU lowering cannot take has no kernels: its region
                        // macro reports why, spanned, as a compile error of the GPU build.
                        Err(_) => {}
                    }
                } else if f.attrs.iter().any(|a| is_acc_path(a.path(), "routine")) {
                    let mut f = f.clone();
                    f.attrs.retain(|a| !is_acc_path(a.path(), "routine"));
                    StripAcc.visit_item_fn_mut(&mut f);
                    c.items.push((line_of(&f), quote!(#f)));
                } else {
                    // Regions and items declared inside fn bodies (tests often do).
                    let nested: Vec<syn::Item> = f.block.stmts.iter().filter_map(|s| match s {
                        syn::Stmt::Item(i) => Some(i.clone()),
                        _ => None,
                    }).collect();
                    collect(&nested, file, text, c);
                }
            }
            syn::Item::Struct(s) => {
                let derives_device_copy = s.attrs.iter().any(|a| {
                    a.path().is_ident("derive") && quote!(#a).to_string().contains("DeviceCopy")
                });
                if derives_device_copy {
                    let mut s = s.clone();
                    for a in &mut s.attrs {
                        if a.path().is_ident("derive") {
                            if let Ok(list) = a.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) {
                                let kept: Vec<&syn::Path> = list.iter().filter(|p| p.segments.last().is_none_or(|l| l.ident != "DeviceCopy")).collect();
                                *a = syn::parse_quote!(#[derive(#(#kept),*)]);
                            }
                        }
                    }
                    c.items.push((line_of(&s), quote!(#s)));
                }
            }
            // Consts a region may use; those built from the host's environment or files
            // (`env!`, `include_str!`, ...) mean nothing on the device and are left out.
            syn::Item::Const(k) if !host_only(&k.expr) => c.items.push((line_of(k), quote!(#k))),
            syn::Item::Mod(m) => {
                if let Some((_, items)) = &m.content {
                    collect(items, file, text, c);
                }
            }
            _ => {}
        }
    }
}

/// The module of the device crate that holds one source file's items.
fn module_name(rel: &str) -> syn::Ident {
    let mut s = String::from("f_");
    for ch in rel.chars() {
        s.push(if ch.is_ascii_alphanumeric() { ch } else { '_' });
    }
    syn::Ident::new(&s, proc_macro2::Span::call_site())
}

pub fn device_crate(manifest: &Path) -> Result<DeviceCrate, String> {
    let mut files = Vec::new();
    for dir in ["src", "tests", "examples", "benches"] {
        rust_files(&manifest.join(dir), &mut files);
    }
    // One module per source file (each test, example and bench is its own crate); the
    // package's `src/` items are visible in every module, as the library is to its targets.
    let mut regions = Vec::new();
    let mut modules = Vec::new();
    let mut mods = Vec::new();
    let mut lib_mods = Vec::new();
    for path in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        if !text.contains("acc") {
            continue;
        }
        // Files rustc will reject anyway are left to rustc's own errors.
        let Ok(file) = syn::parse_file(&text) else { continue };
        // The name proc-macro2 gave the file: what tells its tokens from generated ones.
        let Some(id) = quote!(#file).into_iter().next().map(|t| t.span().file()) else { continue };
        let rel = path.strip_prefix(manifest).unwrap_or(path).to_string_lossy().replace('\\', "/");
        let mut c = Collected::default();
        collect(&file.items, &rel, &text, &mut c);
        regions.extend(c.regions);
        if c.items.is_empty() {
            continue;
        }
        let name = module_name(&rel);
        if rel.starts_with("src/") {
            lib_mods.push(name.clone());
        }
        // In source order, so that each item's tokens can stand on their lines.
        c.items.sort_by_key(|(line, _)| *line);
        let items = c.items.iter().map(|(_, i)| i);
        let tokens = quote! {
            use acc_device::prelude::*;
            use crate::lib_items::*;
            #(#items)*
        };
        let header = format!("Written by acc-build from {rel}: its kernels and the items they use, each token on its line of {rel}. Do not edit.");
        let module = match crate::print::print_module(tokens.clone(), &id, &header) {
            Ok(text) => text,
            Err(why) => {
                println!("cargo::warning=acc-build: {rel}: {why}; kernel panics in this file will name the device crate's lines");
                let file: syn::File = syn::parse2(tokens).map_err(|e| format!("error: acc-build produced unparsable device code for {rel}: {e}"))?;
                format!("// {header}\n{}", prettyplease::unparse(&file))
            }
        };
        modules.push((rel.clone(), module));
        mods.push(quote! {
            #[path = #rel]
            pub mod #name;
        });
    }
    let body = quote! {
        #![no_std]
        #![feature(abi_ptx)]
        #![allow(unused, non_snake_case, non_camel_case_types, improper_ctypes_definitions, clippy::all)]

        use acc_device::prelude::*;

        #[panic_handler]
        fn __acc_panic(info: &core::panic::PanicInfo) -> ! {
            acc_device::report_panic(info)
        }

        /// The package's library items, visible to every module.
        pub mod lib_items {
            #(pub use crate::#lib_mods::*;)*
        }

        #(#mods)*
    };
    let file: syn::File = syn::parse2(body).map_err(|e| format!("error: acc-build produced unparsable device code: {e}"))?;
    let root = format!(
        "// Written by acc-build from the package's acc regions. Do not edit.\n\
         // Each module lies at the path of the package's file it comes from, every token of that\n\
         // file on its line there: a kernel's panic names the file and line of your source.\n{}",
        prettyplease::unparse(&file)
    );
    Ok(DeviceCrate { root, modules, regions })
}

/// Whether an expression uses macros that read the host build's environment or files.
fn host_only(e: &syn::Expr) -> bool {
    let text = quote!(#e).to_string();
    ["env !", "option_env !", "include_str !", "include_bytes !", "include !"].iter().any(|m| text.contains(m))
}
