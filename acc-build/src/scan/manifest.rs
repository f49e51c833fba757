//! The device crate written out: each file module's text (its tokens printed on the user's
//! lines, `print.rs`) and the crate root that declares the crate roots' modules at their
//! files' paths.

use std::collections::{BTreeSet, HashMap};

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use super::walk::module_name;
use super::{DeviceCrate, ModKind, Out, Scan};

impl Scan<'_> {
    /// The tokens of each file module (the module that owns its file, `file_modules`), by
    /// module: (its file relative to the package, its items after acc-device's prelude).
    pub(super) fn module_texts(&self, file_modules: &HashMap<usize, usize>, out: &mut Out) -> HashMap<usize, (String, TokenStream)> {
        let mut texts = HashMap::new();
        for m in 0..self.modules.len() {
            if self.modules[m].kind != ModKind::File {
                continue;
            }
            let src = self.modules[m].src;
            if file_modules.get(&src) != Some(&m) {
                continue;
            }
            let items = self.module_items(m, out);
            let items = items.iter().map(|(_, t)| t);
            let tokens = quote! {
                use ::acc_device::prelude::*;
                #(#items)*
            };
            texts.insert(m, (self.sources[src].rel.clone(), tokens));
        }
        texts
    }
}

/// The device crate of `scan`'s modules, `texts` (from [`Scan::module_texts`]) printed in
/// module order, and its root: `no_std`, the panic handler, a `#[path]` module for each crate
/// root.
pub(super) fn write(scan: &Scan, mut texts: HashMap<usize, (String, TokenStream)>, out: Out) -> Result<DeviceCrate, (String, BTreeSet<String>)> {
    let mut modules = Vec::new();
    let mut mods = Vec::new();
    let mut ms: Vec<usize> = texts.keys().copied().collect();
    ms.sort();
    for m in ms {
        let (rel, tokens) = texts.remove(&m).expect("listed");
        let src = &scan.sources[scan.modules[m].src];
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
    Ok(DeviceCrate { root, modules, kernels: out.kernels, regions: out.regions, refused: out.refused, reports: out.reports, bounds: out.bounds, methods: out.methods })
}
