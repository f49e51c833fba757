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

/// The queue of a data directive's `async` clause: `None` without one (synchronous),
/// `__ACC_REGION.queue(q)` (`async`: the default queue, -1).
fn queue_of(control: &parse::DataControl) -> TokenStream {
    match &control.async_ {
        None => quote!(::core::option::Option::None),
        Some(None) => quote!(__ACC_REGION.queue(-1)),
        Some(Some(q)) => {
            let q = super::queue_i64(q);
            quote!(__ACC_REGION.queue(#q))
        }
    }
}

/// A data directive's `wait` clause, before its data moves: the host waits for the queues
/// named (`wait`: every queue), or, with `async(q)` on a GPU, queue `q` waits for them on the
/// device (as a compute construct's `wait`, `wait_before`).
fn waits_of(control: &parse::DataControl, queue: &TokenStream) -> TokenStream {
    let rt = paths::runtime();
    let Some(waits) = &control.wait else { return TokenStream::new() };
    let on_gpu = quote!(#rt::use_device(&__ACC_REGION, true));
    if waits.is_empty() {
        return quote!(#rt::wait_before(#queue, #on_gpu, ::core::option::Option::None););
    }
    let ws = waits.iter().map(super::queue_i64);
    quote!(#rt::wait_before(#queue, #on_gpu, ::core::option::Option::Some(&[#(#ws),*]));)
}

/// A data directive's `if(cond)`: `true` without one.
fn cond_of(control: &parse::DataControl) -> TokenStream {
    match &control.if_ {
        None => quote!(true),
        Some(c) => quote_spanned!(c.span()=> { let __acc_if: bool = #c; __acc_if }),
    }
}

/// `data!(clauses { body })`. With `if(cond)` false no data enters (the regions inside move
/// their own as their clauses say); with `async(q)` the copies back at the end follow the
/// work queued on `q` (waiting for that queue only); `wait(..)` waits before any data moves.
pub fn expand_data(input: TokenStream, src: &Source) -> TokenStream {
    let rt = paths::runtime();
    let mut errors = Errors::default();
    let (raw, block) = match parse::parse_clauses_then_block.parse2(input) {
        Ok(v) => v,
        Err(e) => return e.to_compile_error(),
    };
    let (clauses, _, control) = parse::data_clauses(Directive::Data, raw, &mut errors);
    check_unique(&clauses, &mut errors);
    let region = region_static(src, "data");
    let queue = queue_of(&control);
    let waits = waits_of(&control, &queue);
    let cond = cond_of(&control);
    let mut enters = TokenStream::new();
    let mut recheck = TokenStream::new();
    for c in &clauses {
        for v in &c.vars {
            let ident = &v.ident;
            let name = ident.to_string();
            let view = view(c.kind.writes_back() || c.modifiers.zero, ident);
            enters.extend(match (c.kind, c.modifiers.runtime()) {
                (DataKind::NoCreate, _) => quote!(__acc_scope.enter_no_create(#name, #view, ::core::option::Option::None);),
                (kind, Some(m)) => {
                    let path = kind.runtime_clause();
                    quote!(__acc_scope.enter_with(#name, #view, #rt::Clause::#path, #m);)
                }
                (kind, None) => {
                    let path = kind.runtime_clause();
                    quote!(__acc_scope.enter(#name, #view, #rt::Clause::#path);)
                }
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
        let __acc_on: bool = #cond;
        let mut __acc_scope = #rt::DataScope::on_queue(&__ACC_REGION, if __acc_on { #queue } else { ::core::option::Option::None });
        if __acc_on {
            #waits
            __acc_scope.enter_data_start();
            #enters
            __acc_scope.enter_data_end();
        }
        let __acc_value = { #(#stmts)* };
        // Unreachable when the body diverges (ends in `return`, `break`, a panic): the scope's
        // drop then gives the data back.
        #[allow(unreachable_code)]
        let __acc_value = {
            if __acc_on {
                #recheck
            }
            ::core::mem::drop(__acc_scope);
            __acc_value
        };
        __acc_value
    }}
}

/// `declare!(copyin(a), copy(b))`: statements, each shadowing a name with its array borrowed
/// and present until the end of the enclosing block (the runtime's `Declared`, whose scope
/// gives the data back when it is dropped). Data the host only reads (`copyin`, `present`) is
/// borrowed shared; the rest mutably, so that the host's copy may be written back or updated.
pub fn expand_declare(input: TokenStream, src: &Source) -> TokenStream {
    let rt = paths::runtime();
    let mut errors = Errors::default();
    let span = input.span();
    let raw = match parse::parse_clause_list(input) {
        Ok(raw) => raw,
        Err(e) => return e.to_compile_error(),
    };
    let clauses = parse::declare_clauses(raw, &mut errors);
    check_unique(&clauses, &mut errors);
    if clauses.iter().all(|c| c.vars.is_empty()) && errors.is_empty() {
        errors.error(span, "`declare!` needs at least one data clause, as in `acc::declare!(copyin(a))`");
    }
    let region = region_static(src, "declare");
    let mut lets = TokenStream::new();
    for c in &clauses {
        let path = c.kind.runtime_clause();
        let modifiers = c.modifiers.runtime().unwrap_or_else(|| quote!(<#rt::Modifiers as ::core::default::Default>::default()));
        for v in &c.vars {
            let ident = &v.ident;
            let name = ident.to_string();
            let at = ident.span();
            let (binding, declare, array) = if matches!(c.kind, DataKind::CopyIn | DataKind::Present) {
                (quote!(), quote!(declare), quote_spanned!(at=> { use #rt::Declarable as _; #ident.__acc_declared() }))
            } else {
                (quote!(mut), quote!(declare_mut), quote_spanned!(at=> { use #rt::DeclarableMut as _; #ident.__acc_declared_mut() }))
            };
            lets.extend(quote_spanned! {at=>
                #[allow(unused_mut, unused_variables)]
                let #binding #ident = { #region #rt::#declare(&__ACC_REGION, #name, #array, #rt::Clause::#path, #modifiers) };
            });
        }
    }
    let errs = errors.to_compile_errors();
    quote! {
        #errs
        #lets
    }
}

/// An unstructured data directive's expansion: its errors, its construct's static, and under
/// its `if` (`control`) its `wait` and data calls, between the profiling interface's start and
/// end events of the directive (on its queue).
fn guarded(errors: &Errors, region: TokenStream, control: &parse::DataControl, calls: TokenStream) -> TokenStream {
    let rt = paths::runtime();
    let errs = errors.to_compile_errors();
    let queue = queue_of(control);
    let waits = waits_of(control, &queue);
    let cond = cond_of(control);
    quote! {{
        #errs
        #region
        if #cond {
            let __acc_events = #rt::DirectiveEvents::start(&__ACC_REGION, #queue);
            #waits
            #calls
        }
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

/// `enter_data!`/`exit_data!`; `if(cond)` false: nothing happens; `wait(..)` first; `async(q)`
/// on `exit_data!`: the copies back follow the work queued on `q` (on `enter_data!` the copies
/// are synchronous, which OpenACC allows: new device copies are not yet used by any queue).
fn unstructured(dir: Directive, input: TokenStream, src: &Source) -> TokenStream {
    let rt = paths::runtime();
    let mut errors = Errors::default();
    let span = input.span();
    let raw = match parse::parse_clause_list(input) {
        Ok(raw) => raw,
        Err(e) => return e.to_compile_error(),
    };
    let (clauses, finalize, control) = parse::data_clauses(dir, raw, &mut errors);
    check_unique(&clauses, &mut errors);
    if clauses.iter().all(|c| c.vars.is_empty()) && errors.is_empty() {
        errors.error(span, format!("`{}!` needs at least one data clause, as in `{}`", dir.name(), match dir {
            Directive::EnterData => "acc::enter_data!(copyin(a))",
            _ => "acc::exit_data!(copyout(a))",
        }));
    }
    let region = region_static(src, dir.name());
    let finalize = finalize.is_some();
    let queue = queue_of(&control);
    let mut calls = TokenStream::new();
    for c in &clauses {
        let m = c.modifiers.runtime();
        for v in &c.vars {
            let ident = &v.ident;
            let name = ident.to_string();
            calls.extend(match c.kind {
                DataKind::CopyIn | DataKind::Create => {
                    let k = if c.kind == DataKind::CopyIn { quote!(CopyIn) } else { quote!(Create) };
                    let view = view(c.kind == DataKind::Create, ident);
                    match &m {
                        Some(m) => quote!(#rt::enter_data_with(&__ACC_REGION, #name, #view, #rt::EnterClause::#k, #m);),
                        None => quote!(#rt::enter_data(&__ACC_REGION, #name, #view, #rt::EnterClause::#k);),
                    }
                }
                DataKind::CopyOut => {
                    let view = view(true, ident);
                    let always_out = c.modifiers.always_out;
                    if always_out || control.async_.is_some() {
                        quote!(#rt::exit_data_with(&__ACC_REGION, #name, #view, #rt::ExitClause::CopyOut, #finalize, #always_out, #queue);)
                    } else {
                        quote!(#rt::exit_data(&__ACC_REGION, #name, #view, #rt::ExitClause::CopyOut, #finalize);)
                    }
                }
                _ => {
                    let view = view(false, ident);
                    if control.async_.is_some() {
                        quote!(#rt::exit_data_with(&__ACC_REGION, #name, #view, #rt::ExitClause::Delete, #finalize, false, #queue);)
                    } else {
                        quote!(#rt::exit_data(&__ACC_REGION, #name, #view, #rt::ExitClause::Delete, #finalize);)
                    }
                }
            });
        }
    }
    guarded(&errors, region, &control, calls)
}

/// `update!(host(a), device(b), if_present, if(cond), async(q), wait(p))`. With `async(q)`
/// (`async`: the default queue) each copy goes in order with the work queued on queue `q`,
/// and waits for that queue only (a synchronous update waits for every busy queue first);
/// `if(cond)` false: nothing is copied; `wait(..)`: as on the other data directives.
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
    let mut control = parse::DataControl::default();
    let mut places = Vec::new();
    for c in &kept {
        if !control.take(c, &mut errors) {
            places.push(c);
        }
    }
    let queue = queue_of(&control);
    let region = region_static(src, "update");
    let mut calls = TokenStream::new();
    let mut any = false;
    for c in places {
        let key = c.key();
        if key == "if_present" {
            if c.args.is_some() {
                errors.error(c.args_span(), "`if_present` takes no arguments");
            }
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
    guarded(&errors, region, &control, calls)
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
