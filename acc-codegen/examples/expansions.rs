//! The host expansion of every region fn and routine of the given Rust files, as the macros
//! write it, one file of text per source file: what `scripts/lowering-snapshot.sh` compares
//! before and after a change of the lowering that must not change what it writes.
//!
//!   cargo run -p acc-codegen --example expansions -- OUT_DIR ROOT FILE...
//!
//! Each FILE (relative to ROOT, the package root, as the macros name it) gives
//! `OUT_DIR/FILE.txt`: for each `#[acc::parallel | kernels | serial | routine]` fn or method,
//! in the file's order, its place and its expansion, one token tree a line where the printer
//! breaks it (`TokenStream`'s `Display`, which is deterministic).

use std::path::{Path, PathBuf};

use acc_codegen::model::RegionKind;
use acc_codegen::{expand_region, expand_routine, Source};
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::visit::Visit;

/// What an acc attribute on a fn asks for.
enum Directive {
    Region(RegionKind),
    Routine,
}

fn directive(attr: &syn::Attribute) -> Option<Directive> {
    let path = attr.path();
    let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let [acc, name] = segs.as_slice() else { return None };
    if acc != "acc" {
        return None;
    }
    match name.as_str() {
        "parallel" => Some(Directive::Region(RegionKind::Parallel)),
        "kernels" => Some(Directive::Region(RegionKind::Kernels)),
        "serial" => Some(Directive::Region(RegionKind::Serial)),
        "routine" => Some(Directive::Routine),
        _ => None,
    }
}

/// The fns of one file with an acc directive, each expanded.
struct Expander<'a> {
    file: &'a str,
    out: String,
}

impl Expander<'_> {
    fn expand(&mut self, attrs: &[syn::Attribute], item: TokenStream, name: &syn::Ident) {
        let Some((i, dir)) = attrs.iter().enumerate().find_map(|(i, a)| directive(a).map(|d| (i, d))) else {
            return;
        };
        let attr = &attrs[i];
        let args = match &attr.meta {
            syn::Meta::List(l) => l.tokens.clone(),
            _ => TokenStream::new(),
        };
        let line = attr.pound_token.span.start().line as u32;
        let src = Source { file: self.file.to_string(), line };
        let tokens = match dir {
            Directive::Region(kind) => expand_region(kind, args, item, &src),
            Directive::Routine => expand_routine(args, item),
        };
        self.out.push_str(&format!("== {}:{} {}\n{}\n\n", self.file, line, name, tokens));
    }

    /// `item` without the attribute the macro is invoked for (as rustc hands it over).
    fn without_directive<T: ToTokens + Clone>(item: &T, attrs: impl Fn(&mut T) -> &mut Vec<syn::Attribute>) -> TokenStream {
        let mut item = item.clone();
        let list = attrs(&mut item);
        if let Some(i) = list.iter().position(|a| directive(a).is_some()) {
            list.remove(i);
        }
        item.into_token_stream()
    }
}

impl<'ast> Visit<'ast> for Expander<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let item = Self::without_directive(f, |f| &mut f.attrs);
        self.expand(&f.attrs, item, &f.sig.ident);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let item = Self::without_directive(f, |f| &mut f.attrs);
        self.expand(&f.attrs, item, &f.sig.ident);
        syn::visit::visit_impl_item_fn(self, f);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, root, files @ ..] = args.as_slice() else {
        eprintln!("usage: expansions OUT_DIR ROOT FILE...");
        std::process::exit(2);
    };
    for file in files {
        let text = std::fs::read_to_string(Path::new(root).join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        // Parsed from text (not through a `proc_macro`), so every token has its line, as the
        // macros' input has.
        let ast: syn::File = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut ex = Expander { file, out: String::new() };
        ex.visit_file(&ast);
        let dest: PathBuf = Path::new(out).join(format!("{file}.txt"));
        std::fs::create_dir_all(dest.parent().expect("a file has a folder")).expect("create the output folder");
        std::fs::write(&dest, ex.out).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
    }
}
