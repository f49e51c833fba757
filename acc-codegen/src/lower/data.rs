//! `acc::data!`, `acc::enter_data!`, `acc::exit_data!`, `acc::update!`: host code that drives
//! the runtime's present table. The same expansion serves both backends (the runtime moves
//! the bytes, or on the host backend only keeps the counts).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::Parser;
use syn::spanned::Spanned;

use crate::front::model::{DataClause, DataKind, Place};
use crate::front::parse::{self, Directive};
use crate::paths;
use crate::report::Errors;
use crate::front::Source;

fn region_static(src: &Source, kind: &str) -> TokenStream {
    let rt = paths::runtime();
    let file = &src.file;
    let line = src.line;
    quote! {
        static __ACC_REGION: #rt::RegionInfo = #rt::RegionInfo {
            name: #kind, kind: #kind, file: #file, line: #line, kernel: "",
        };
    }
}

fn check_unique(clauses: &[DataClause], errors: &mut Errors) {
    let mut seen: Vec<(String, &'static str)> = Vec::new();
    for c in clauses {
        for v in &c.vars {
            let name = v.ident.to_string();
            if let Some(prev) = seen.iter().find(|s| s.0 == name) {
                errors.error(v.ident.span(), format!("`{name}` already appears in a `{}` clause", prev.1));
            } else {
                seen.push((name, c.kind.name()));
            }
        }
    }
}

/// A host view of `var`; written-back data is viewed through a `&mut` borrow, so the name must
/// be a mutable binding (as the data will change under it).
fn view(kind_writes: bool, ident: &syn::Ident) -> TokenStream {
    let rt = paths::runtime_at(ident.span());
    if kind_writes {
        quote_spanned!(ident.span()=> #rt::view_mut(&mut #ident))
    } else {
        quote_spanned!(ident.span()=> #rt::view(&#ident))
    }
}

/// A host view of an `update!` place: as [`view`] for a name or field path; a section views
/// only its elements, checked against the array's length (a panic naming the section).
fn place_view(kind_writes: bool, place: &Place) -> TokenStream {
    let base = &place.base;
    let span = base.span();
    let rt = paths::runtime_at(span);
    let Some(range) = &place.range else {
        return if kind_writes {
            quote_spanned!(span=> #rt::view_mut(&mut #base))
        } else {
            quote_spanned!(span=> #rt::view(&#base))
        };
    };
    let name = &place.name;
    if kind_writes {
        quote_spanned!(span=> #rt::section_mut(&__ACC_REGION, #name, &mut #base, #range))
    } else {
        quote_spanned!(span=> #rt::section(&__ACC_REGION, #name, &#base, #range))
    }
}

/// `data!(clauses { body })`.
pub fn expand_data(input: TokenStream, src: &Source) -> TokenStream {
    let rt = paths::runtime();
    let mut errors = Errors::default();
    let (raw, block) = match parse::parse_clauses_then_block.parse2(input) {
        Ok(v) => v,
        Err(e) => return e.to_compile_error(),
    };
    let (clauses, _) = parse::data_clauses(Directive::Data, raw, &mut errors);
    check_unique(&clauses, &mut errors);
    let region = region_static(src, "data");
    let mut enters = TokenStream::new();
    let mut recheck = TokenStream::new();
    for c in &clauses {
        let path = c.kind.runtime_clause();
        for v in &c.vars {
            let ident = &v.ident;
            let name = ident.to_string();
            let view = view(c.kind.writes_back(), ident);
            enters.extend(quote! {
                __acc_scope.enter(#name, #view, #rt::Clause::#path);
            });
            let unmoved = self::view(false, ident);
            recheck.extend(quote! {
                __acc_scope.check_unmoved(#name, #unmoved);
            });
        }
    }
    let errs = errors.to_compile_errors();
    let stmts = &block.stmts;
    quote! {{
        #errs
        #region
        let mut __acc_scope = #rt::DataScope::new(&__ACC_REGION);
        #enters
        let __acc_value = { #(#stmts)* };
        // Unreachable when the body diverges (ends in `return`, `break`, a panic): the scope's
        // drop then gives the data back.
        #[allow(unreachable_code)]
        let __acc_value = {
            #recheck
            ::core::mem::drop(__acc_scope);
            __acc_value
        };
        __acc_value
    }}
}

/// `enter_data!(copyin(a), create(b))`.
pub fn expand_enter_data(input: TokenStream, src: &Source) -> TokenStream {
    unstructured(Directive::EnterData, input, src)
}

/// `exit_data!(copyout(a), delete(b), finalize)`.
pub fn expand_exit_data(input: TokenStream, src: &Source) -> TokenStream {
    unstructured(Directive::ExitData, input, src)
}

fn unstructured(dir: Directive, input: TokenStream, src: &Source) -> TokenStream {
    let rt = paths::runtime();
    let mut errors = Errors::default();
    let span = input.span();
    let raw = match parse::parse_clause_list(input) {
        Ok(raw) => raw,
        Err(e) => return e.to_compile_error(),
    };
    let (clauses, finalize) = parse::data_clauses(dir, raw, &mut errors);
    check_unique(&clauses, &mut errors);
    if clauses.iter().all(|c| c.vars.is_empty()) && errors.is_empty() {
        errors.error(span, format!("`{}!` needs at least one data clause, as in `{}`", dir.name(), match dir {
            Directive::EnterData => "acc::enter_data!(copyin(a))",
            _ => "acc::exit_data!(copyout(a))",
        }));
    }
    let region = region_static(src, dir.name());
    let finalize = finalize.is_some();
    let mut calls = TokenStream::new();
    for c in &clauses {
        for v in &c.vars {
            let ident = &v.ident;
            let name = ident.to_string();
            calls.extend(match c.kind {
                DataKind::CopyIn | DataKind::Create => {
                    let k = if c.kind == DataKind::CopyIn { quote!(CopyIn) } else { quote!(Create) };
                    let view = view(c.kind == DataKind::Create, ident);
                    quote!(#rt::enter_data(&__ACC_REGION, #name, #view, #rt::EnterClause::#k);)
                }
                DataKind::CopyOut => {
                    let view = view(true, ident);
                    quote!(#rt::exit_data(&__ACC_REGION, #name, #view, #rt::ExitClause::CopyOut, #finalize);)
                }
                _ => {
                    let view = view(false, ident);
                    quote!(#rt::exit_data(&__ACC_REGION, #name, #view, #rt::ExitClause::Delete, #finalize);)
                }
            });
        }
    }
    let errs = errors.to_compile_errors();
    quote! {{ #errs #region #calls }}
}

/// `update!(host(a), device(b), if_present, async(q))`. With `async(q)` (`async`: the default
/// queue) each copy goes in order with the work queued on queue `q`, and waits for that queue
/// only (a synchronous update waits for every busy queue first).
pub fn expand_update(input: TokenStream, src: &Source) -> TokenStream {
    let rt = paths::runtime();
    let mut errors = Errors::default();
    let span = input.span();
    let raw = match parse::parse_clause_list(input) {
        Ok(raw) => raw,
        Err(e) => return e.to_compile_error(),
    };
    let kept = parse::screen(Directive::Update, raw, &mut errors);
    let if_present = kept.iter().any(|c| c.key() == "if_present");
    let queue = match kept.iter().find(|c| c.key() == "async") {
        None => quote!(::core::option::Option::None),
        Some(c) => match &c.args {
            None => quote!(__ACC_REGION.queue(-1)),
            Some(_) => match parse::parse_or_report(c, <syn::Expr as syn::parse::Parse>::parse, &mut errors) {
                Some(q) => {
                    let q = super::queue_i64(&q);
                    quote!(__ACC_REGION.queue(#q))
                }
                None => quote!(::core::option::Option::None),
            },
        },
    };
    let region = region_static(src, "update");
    let mut calls = TokenStream::new();
    let mut any = false;
    for c in &kept {
        let key = c.key();
        if key == "if_present" {
            if c.args.is_some() {
                errors.error(c.args_span(), "`if_present` takes no arguments");
            }
            continue;
        }
        if key == "async" {
            continue;
        }
        if c.args.is_none() {
            errors.error(c.name.span(), format!("`{key}` needs the variables to update: `{key}(a, b)`"));
            continue;
        }
        for place in parse::place_list(c, &mut errors) {
            any = true;
            let name = &place.name;
            let view = place_view(key != "device", &place);
            calls.extend(if key == "device" {
                quote!(#rt::update_device_on(&__ACC_REGION, #name, #view, #if_present, #queue);)
            } else {
                quote!(#rt::update_host_on(&__ACC_REGION, #name, #view, #if_present, #queue);)
            });
        }
    }
    if !any && errors.is_empty() {
        errors.error(span, "`update!` needs `host(..)` or `device(..)`, as in `acc::update!(host(a))`");
    }
    let errs = errors.to_compile_errors();
    quote! {{ #errs #region #calls }}
}

/// `host_data!(use_device(a, b), if_present, if(cond) { body })`: in `body` each name is the
/// [`DevicePtr`](../../acc_runtime/struct.DevicePtr.html) of its present data (the host address
/// where `if(cond)` is false, or where the data is absent and `if_present` is given), for a
/// library that takes device addresses.
pub fn expand_host_data(input: TokenStream, src: &Source) -> TokenStream {
    let rt = paths::runtime();
    let mut errors = Errors::default();
    let span = input.span();
    let (raw, block) = match parse::parse_host_data.parse2(input) {
        Ok(v) => v,
        Err(e) => return e.to_compile_error(),
    };
    let kept = parse::screen(Directive::HostData, raw, &mut errors);
    let if_present = kept.iter().any(|c| c.key() == "if_present");
    let mut use_host = quote!(false);
    let mut names: Vec<syn::Ident> = Vec::new();
    for c in &kept {
        match c.key().as_str() {
            "if_present" if c.args.is_some() => errors.error(c.args_span(), "`if_present` takes no arguments"),
            "if" => {
                if let Some(cond) = parse::parse_or_report(c, <syn::Expr as syn::parse::Parse>::parse, &mut errors) {
                    use_host = quote_spanned!(cond.span()=> !(#cond));
                }
            }
            "use_device" => {
                let list = parse::parse_or_report(c, syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated, &mut errors);
                for ident in list.into_iter().flatten() {
                    if names.contains(&ident) {
                        errors.error(ident.span(), format!("`{ident}` already appears in a `use_device` clause"));
                    } else {
                        names.push(ident);
                    }
                }
            }
            _ => {}
        }
    }
    if names.is_empty() && errors.is_empty() {
        errors.error(span, "`host_data!` needs a `use_device` clause naming the arrays whose device addresses its block uses, as in `acc::host_data!(use_device(a) { .. })`");
    }
    let region = region_static(src, "host_data");
    let lets = names.iter().map(|ident| {
        let name = ident.to_string();
        quote_spanned!(ident.span()=> let #ident = #rt::device_address(&__ACC_REGION, #name, &#ident, #if_present, __acc_use_host);)
    });
    let errs = errors.to_compile_errors();
    let stmts = &block.stmts;
    quote! {{
        #errs
        #region
        let __acc_use_host: bool = #use_host;
        #(#lets)*
        #(#stmts)*
    }}
}
