//! The acc compiler front end: parse -> model -> check -> lower.
//!
//! One compiler, two callers: the proc macros of `acc-macros` call the `expand_*` functions to
//! produce host code, and `acc-build` calls [`device_region`] to write the device crate. Both
//! go through [`front_end`] (parse, model, checks), so the kernel the host launches is by
//! construction the kernel that was built; [`Generator`] says which caller reports what.
//!
//! ```text
//! syntax.rs   the syn helpers every stage shares
//! front/      parse.rs (clause grammar) -> model.rs (typed directives with spans);
//!             region.rs (the region model: forms, parameters, data plan, loop directives),
//!             directives.rs (each loop directive parsed once, each loop's parallel decision
//!             made once), method.rs, generic.rs,
//!             loops.rs (loop forms, normalisation, the dependence test, the parallel decision),
//!             atomic.rs (atomic forms), cache.rs (cache windows)
//! check/      check.rs (signature, region clauses), loops.rs (one loop in context),
//!             body.rs (the scoped walk: every error in order, the host plan)
//! lower/      region.rs (a form's body: data scope, GPU path, host lowering),
//!             host.rs (the host plan as rayon code), device.rs (GPU lowering: the region
//!             body around its nests), nest.rs (a nest's kernel planned; nest/emit.rs writes
//!             it, nest/report.rs reports it), schedule.rs and grid.rs (the schedule of a
//!             nest), data.rs (data directives), atomic.rs (atomic operations written out)
//! info.rs     the schedule report;  report.rs  error collection;  paths.rs  the runtime
//!             paths generated code names
//! lib.rs      the drivers: expand_region (try_expand: front_end -> lower_region),
//!             expand_routine, device_region
//! ```
//!
//! What `#[acc::parallel(copyin(a))]` on a fn becomes, and what a misspelt clause becomes:
//!
//! ```
//! use acc_codegen::{expand_region, model::RegionKind, Source};
//! use quote::quote;
//!
//! let src = Source { file: "src/lib.rs".into(), line: 3 };
//! let item = quote! {
//!     fn double(a: &[f32], c: &mut [f32]) {
//!         #[acc::r#loop(gang, vector)]
//!         for i in 0..c.len() {
//!             c[i] = 2.0 * a[i];
//!         }
//!     }
//! };
//! let host = expand_region(RegionKind::Parallel, quote!(copyin(a)), item.clone(), &src).to_string();
//! assert!(host.contains("RegionInfo")); // the region's static description for the runtime
//! assert!(host.contains("par_for_chunks")); // the loop, split over rayon's threads
//!
//! let typo = expand_region(RegionKind::Parallel, quote!(num_gang(4)), item, &src).to_string();
//! assert!(typo.contains("compile_error"));
//! assert!(typo.contains("did you mean `num_gangs`?"));
//! ```

pub mod check;
pub mod front;
pub mod info;
pub mod lower;
pub mod paths;
pub mod report;
pub mod syntax;

pub use front::model;
pub use front::Source;

use check::body::HostPlan;
use front::region::{Form, Region};
use front::{cache, generic, method, parse};
use lower::{atomic, device, host};

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::ItemFn;

use model::*;
use report::Errors;

/// The PTX entry name of a region: stable across the macro and the build helper, unique per
/// file, line and fn name.
pub fn kernel_name(file: &str, line: u32, fn_name: &str) -> String {
    let mut s = String::from("acc_");
    for c in file.chars() {
        s.push(if c.is_ascii_alphanumeric() { c } else { '_' });
    }
    s.push_str(&format!("_l{line}_{fn_name}"));
    s
}

fn with_errors(errors: Errors, mut item: ItemFn) -> TokenStream {
    syntax::strip_helpers(&mut item);
    let errs = errors.to_compile_errors();
    quote!(#errs #item)
}

/// `#[acc::loop(..)]` is rejected by rustc's parser ("expected identifier, found keyword `loop`",
/// with the suggestion `r#loop`) before any macro runs; rustc recovers and hands the region the
/// keyword as written, which `syn` cannot parse as a path. Reading it as `r#loop` lets the
/// region go on as if the user had written the raw identifier, so that rustc's error with its
/// suggestion is the only one.
fn recover_loop_keyword(tokens: TokenStream) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    fn in_attr(tokens: TokenStream) -> TokenStream {
        tokens
            .into_iter()
            .map(|tt| match tt {
                TokenTree::Ident(id) if id == "loop" => TokenTree::Ident(proc_macro2::Ident::new_raw("loop", id.span())),
                other => other,
            })
            .collect()
    }
    let mut out = Vec::new();
    let mut after_pound = false;
    for tt in tokens {
        let tt = match tt {
            TokenTree::Group(g) => {
                let inner = if after_pound && g.delimiter() == proc_macro2::Delimiter::Bracket {
                    in_attr(g.stream())
                } else {
                    recover_loop_keyword(g.stream())
                };
                let mut new = Group::new(g.delimiter(), inner);
                new.set_span(g.span());
                TokenTree::Group(new)
            }
            other => other,
        };
        after_pound = matches!(&tt, TokenTree::Punct(p) if p.as_char() == '#');
        out.push(tt);
    }
    out.into_iter().collect()
}

/// Who runs the front end. Both callers run the same parse and checks on what the macro sees
/// (the fn as written, see [`front_end`]); they differ in what else they see and in what they
/// report and make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generator {
    /// The proc macro: reports every error of the parse and the checks, and why the GPU
    /// lowering refuses a region (as errors of the GPU build, `cfg(acc_kernels)`, which rustc
    /// shows on the user's tokens); makes the host code.
    Macro,
    /// acc-build: builds nothing for a region the macro rejects (the macro says why), and
    /// reports only what the macro cannot see: the declared types of a method's fields (and, in
    /// acc-build's scan, what the device cannot take); makes the kernels.
    Build,
}

/// A region fn read into the model and checked: what both callers lower.
pub struct Checked {
    pub region: Region,
    /// How the host runs each form's body (`None` for a faulty form, see
    /// [`front::region::Form::faulty`]).
    pub plans: Vec<Option<HostPlan>>,
}

/// Why a region was not lowered, and which caller reports it.
pub struct Rejected {
    pub errors: Errors,
    pub reporter: Generator,
}

/// Parse -> model -> check: region fn `f` with its directive's tokens `attr`, as `generator`
/// sees it. Both callers check what the macro sees; errors there are the macro's to report.
/// acc-build then reads a method again with its fields' declared types (`field_type`), unless
/// the region always runs on the host; errors there are its own.
pub fn front_end(
    kind: RegionKind,
    attr: TokenStream,
    f: &ItemFn,
    generator: Generator,
    field_type: &dyn Fn(&syn::Member) -> Option<syn::Type>,
) -> Result<Checked, Rejected> {
    let mut errors = Errors::default();
    let dir = parse::region_directive(kind, attr, &mut errors);
    check::signature(f, "region", &mut errors);
    let rejected = |errors| Rejected { errors, reporter: Generator::Macro };
    let Some(mut region) = Region::read(kind, dir, f, &|_| None, &mut errors) else {
        return Err(rejected(errors));
    };
    let plans = check::region(&region, &mut errors);
    if !errors.is_empty() {
        return Err(rejected(errors));
    }
    if generator == Generator::Build && region.method.is_some() && !region.dir.host_only() {
        let mut typed = Errors::default();
        let m = method::desugar(f, &region.dir, field_type, &mut typed).expect("a method");
        if !typed.is_empty() {
            return Err(Rejected { errors: typed, reporter: Generator::Build });
        }
        // (The form as the device takes it; its parameters were checked as the macro sees
        // them, and the host plans stay the macro's.)
        let form = &region.forms[0];
        region.forms[0] = Form::read(m.free.clone(), form.name.clone(), form.display.clone(), &region.dir, &mut Errors::default());
        region.method = Some(m);
    }
    Ok(Checked { region, plans })
}

/// `#[acc::parallel(..)]`, `#[acc::kernels(..)]`, `#[acc::serial(..)]` on a fn: a free fn, an
/// associated fn, a method taking `&self` / `&mut self` (see [`method`]), or a generic fn with
/// its `instances(..)` (see [`generic`]).
pub fn expand_region(kind: RegionKind, attr: TokenStream, item: TokenStream, src: &Source) -> TokenStream {
    let item = recover_loop_keyword(item);
    let f: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let e = syn::Error::new(
                item.clone().into_iter().next().map_or_else(proc_macro2::Span::call_site, |t| t.span()),
                format!("`acc::{}` applies to a fn: its body is the region", kind.name()),
            );
            let errs = e.to_compile_error();
            return quote!(#errs #item);
        }
    };
    match try_expand(kind, attr, &f, src) {
        Ok(tokens) => tokens,
        Err(rejected) => with_errors(rejected.errors, f),
    }
}

/// Parse -> check -> lower, for the macro.
fn try_expand(kind: RegionKind, attr: TokenStream, f: &ItemFn, src: &Source) -> Result<TokenStream, Rejected> {
    let checked = front_end(kind, attr, f, Generator::Macro, &|_| None)?;
    Ok(lower_region(f, checked, src))
}

/// The host code of checked region fn `f`: each form's body (see
/// [`lower::region::region_body`]) in the fn,
/// a method's fields bound before it, a generic fn dispatching to its instances.
fn lower_region(f: &ItemFn, checked: Checked, src: &Source) -> TokenStream {
    let Checked { region, plans } = checked;
    let mut bodies = region.forms.iter().zip(plans).enumerate().map(|(i, (form, plan))| {
        let kernel = kernel_name(&src.file, src.line, &form.name);
        // The instances differ in types only: the first one reports what all would.
        let body = lower::region::FormBody { region: &region, form, src, kernel: &kernel, report_gpu: i == 0 };
        plan.map_or_else(TokenStream::new, |plan| lower::region::region_body(&body, plan))
    });
    let body = match &region.instances {
        None => {
            let body = bodies.next().expect("one form");
            let binds = region.method.as_ref().map(|m| &m.binds);
            quote!(#binds #body)
        }
        Some(instances) => {
            let mut nested = TokenStream::new();
            for (form, body) in region.forms.iter().zip(bodies) {
                let sig = &form.f.sig;
                nested.extend(quote!(#[allow(non_snake_case, clippy::too_many_arguments)] #sig { #body }));
            }
            generic::dispatch(f, instances, nested)
        }
    };
    let attrs = &f.attrs;
    let vis = &f.vis;
    let sig = &f.sig;
    quote! {
        #(#attrs)*
        #vis #sig {
            #body
        }
    }
}

/// `#[acc::routine(..)]`: the fn stays callable from the host; its acc loops run in order there.
/// With `bind(g)` the GPU calls `g` for it (acc-build writes the device version as a call of
/// `g`), and both builds check that `g` is a fn of the routine's signature.
pub fn expand_routine(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = recover_loop_keyword(item);
    let f: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let e = syn::Error::new(parse::span_of(&item), "`acc::routine` applies to a fn");
            let errs = e.to_compile_error();
            return quote!(#errs #item);
        }
    };
    match try_expand_routine(attr, f.clone()) {
        Ok(tokens) => tokens,
        Err(errors) => with_errors(errors, f),
    }
}

/// The fn a routine attribute's `bind(g)` names for the GPU (acc-build writes the device
/// version of the routine as a call of `g`); its errors are the macro's to report.
pub fn routine_bind(attr: &syn::Attribute) -> Option<syn::Ident> {
    parse::routine_directive(syntax::attr_tokens(attr), &mut Errors::default()).bind
}

/// Parse -> check -> lower, for a routine: its level, its fn, its body's loops.
fn try_expand_routine(attr: TokenStream, mut f: ItemFn) -> Result<TokenStream, Errors> {
    let mut errors = Errors::default();
    let dir = parse::routine_directive(attr, &mut errors);
    check::signature(&f, "routine", &mut errors);
    let bound = dir.bind.as_ref().map(|g| check::routine_bind(&f, g, &mut errors));
    let loops = front::directives::LoopDirectives::of(&f.block, RegionKind::Parallel);
    let host_plan = check::body::check(&check::body::Context::routine(&f, dir.level, &loops), &f.block, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    host::lower(&mut f.block, host_plan, &[]);
    if let Some(check) = bound {
        f.block.stmts.insert(0, syn::Stmt::Item(syn::parse2(check).expect("a const item")));
    }
    Ok(quote!(#[allow(clippy::never_loop)] #f))
}

/// `#[acc::r#loop]` reached as an item attribute: a loop directive outside any region.
pub fn expand_loop_outside(_attr: TokenStream, item: TokenStream) -> TokenStream {
    let span = item.clone().into_iter().next().map_or_else(proc_macro2::Span::call_site, |t| t.span());
    let e = syn::Error::new(
        span,
        "`acc::loop` applies to `for` loops inside an `acc::parallel`, `acc::kernels` or `acc::serial` fn, or an `acc::routine`",
    );
    let errs = e.to_compile_error();
    quote!(#errs #item)
}

/// `acc::atomic!` outside any parallel loop: the plain sequential operation.
pub fn expand_atomic(input: TokenStream) -> TokenStream {
    match syn::parse2::<front::atomic::AtomicForm>(input) {
        Ok(form) => atomic::expand_plain(&form),
        Err(e) => e.to_compile_error(),
    }
}

/// `acc::cache!` that no region consumed: it is outside an acc loop.
pub fn expand_cache_outside(input: TokenStream) -> TokenStream {
    if let Err(e) = cache::parse(input.clone()) {
        return e.to_compile_error();
    }
    let span = input.into_iter().next().map_or_else(proc_macro2::Span::call_site, |t| t.span());
    syn::Error::new(span, "`acc::cache!` belongs at the top of an `acc::loop` body inside a region").to_compile_error()
}

/// `#[derive(acc::DeviceCopy)]`.
pub fn derive_device_copy(input: TokenStream) -> TokenStream {
    let input: syn::DeriveInput = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let mut errors = Errors::default();
    let ident = &input.ident;
    let fields: Vec<&syn::Field> = match &input.data {
        syn::Data::Struct(s) => s.fields.iter().collect(),
        syn::Data::Enum(e) => {
            // A fieldless enum with an integer representation is its discriminant: the same
            // bits on the host and the device.
            let int_repr = input.attrs.iter().any(|a| {
                a.path().is_ident("repr")
                    && a.parse_args_with(syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated).is_ok_and(|ids| {
                        ids.iter().any(|i| ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "usize", "isize"].iter().any(|t| i == t))
                    })
            });
            for v in &e.variants {
                if !matches!(v.fields, syn::Fields::Unit) {
                    errors.error(v.fields.span(), "a `DeviceCopy` enum has unit variants only: a variant's fields have no layout the device shares (use a `#[repr(C)]` struct)");
                }
            }
            if !int_repr {
                errors.error(ident.span(), format!("`{ident}` needs an integer representation (`#[repr(u8)]`, `#[repr(i32)]`...) so that the host and the device agree on its values"));
            }
            Vec::new()
        }
        syn::Data::Union(u) => {
            errors.error(u.union_token.span, "`DeviceCopy` is derived for structs, not unions");
            Vec::new()
        }
    };
    let mut pointer_fields = false;
    for f in &fields {
        if let syn::Type::Reference(_) | syn::Type::Ptr(_) | syn::Type::Slice(_) = &f.ty {
            pointer_fields = true;
        }
    }
    // A lifetime parameter is there for a reference field, which is reported below.
    let generic = input
        .generics
        .params
        .iter()
        .find(|g| !matches!(g, syn::GenericParam::Lifetime(_)) || !pointer_fields);
    if let Some(g) = generic {
        errors.error(g.span(), "generic `DeviceCopy` structs are not supported: the device crate needs concrete types");
    }
    let repr_c = input.attrs.iter().any(|a| {
        a.path().is_ident("repr")
            && a.parse_args_with(syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated)
                .is_ok_and(|ids| ids.iter().any(|i| i == "C" || i == "transparent"))
    });
    if !repr_c && matches!(input.data, syn::Data::Struct(_)) {
        errors.error(ident.span(), format!("`{ident}` needs `#[repr(C)]` so that the host and the device agree on its layout"));
    }
    for f in &fields {
        if let syn::Type::Reference(_) | syn::Type::Ptr(_) | syn::Type::Slice(_) = &f.ty {
            errors.error(f.ty.span(), "a `DeviceCopy` struct cannot hold references, pointers or slices: the device cannot follow host pointers (pass slices as region parameters)");
        }
    }
    if !errors.is_empty() {
        return errors.to_compile_errors();
    }
    let asserts = fields.iter().map(|f| {
        let ty = &f.ty;
        quote_spanned!(ty.span()=> __acc_assert::<#ty>();)
    });
    quote! {
        // SAFETY: the struct is `repr(C)`, `Copy`, and every field is `DeviceCopy` (checked
        // below), so its bytes mean the same on the device.
        unsafe impl ::acc::DeviceCopy for #ident {}
        const _: () = {
            fn __acc_assert<T: ::acc::DeviceCopy>() {}
            #[allow(dead_code)]
            fn __acc_fields() { #(#asserts)* }
        };
    }
}

/// The device kernels of a region fn, for `acc-build`: the same analysis the macro runs.
/// Errors come back as (span, message) pairs for compiler-like reporting.
pub fn device_kernels(
    kind: RegionKind,
    attr: &syn::Attribute,
    f: &ItemFn,
    src: &Source,
) -> Result<Vec<TokenStream>, Vec<(proc_macro2::Span, String)>> {
    let r = device_region(kind, attr, f, src, &|_| None);
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    if let Some(why) = r.refused {
        return Err(why);
    }
    Ok(r.forms.into_iter().flat_map(|(_, ks)| ks).collect())
}

/// What a region fn gives the device crate (see [`device_region`]).
#[derive(Default)]
pub struct DeviceRegion {
    /// Each form of the region (the fn itself, or each instance of a generic fn): its kernels'
    /// base name (`kernel_name`) and its kernels.
    pub forms: Vec<(String, Vec<TokenStream>)>,
    /// Why the GPU lowering refused the region: its macro reports it, as a compile error of
    /// the GPU build.
    pub refused: Option<Vec<(proc_macro2::Span, String)>>,
    /// What only acc-build can see is wrong (a method's field whose type does not slice): to
    /// be reported by acc-build, on these spans.
    pub errors: Vec<(proc_macro2::Span, String)>,
    /// The region's parameters as the device takes them (a method's fields included).
    pub inputs: Vec<syn::FnArg>,
    /// info: the schedule report of each form, in the order of `forms`.
    pub reports: Vec<info::RegionReport>,
}

/// The device kernels of a region fn for `acc-build`, with what the macro cannot know: the
/// declared types of a method's fields (`field_type`). `f` is a free fn, or an associated fn
/// or method with `Self` already replaced by its type. A region that the proc macro rejects
/// (its errors reach the user from there) has no forms.
pub fn device_region(
    kind: RegionKind,
    attr: &syn::Attribute,
    f: &ItemFn,
    src: &Source,
    field_type: &dyn Fn(&syn::Member) -> Option<syn::Type>,
) -> DeviceRegion {
    let tokens = match &attr.meta {
        syn::Meta::List(l) => l.tokens.clone(),
        _ => TokenStream::new(),
    };
    let mut out = DeviceRegion::default();
    let Checked { region, .. } = match front_end(kind, tokens, f, Generator::Build, field_type) {
        Ok(c) => c,
        Err(Rejected { errors, reporter: Generator::Build }) => {
            out.errors = errors.into_messages();
            return out;
        }
        // The macro reports these.
        Err(Rejected { reporter: Generator::Macro, .. }) => return out,
    };
    let dir = &region.dir;
    if dir.host_only() {
        // A region that always runs on the host (`self`) has no kernels.
        return out;
    }
    out.inputs = region.forms[0].f.sig.inputs.iter().cloned().collect();
    for form in &region.forms {
        let (params, display) = (&form.params, form.display.clone());
        let base = kernel_name(&src.file, src.line, &form.name);
        match device::gpu_region(kind, dir, form, &base) {
            Ok(g) => {
                // info: the region's report: its data clauses and defaults, then what the
                // lowering noted.
                let mut notes = info::Notes::default();
                let plan = &form.plan;
                let written: Vec<syn::Ident> = dir.clauses.data.iter().flat_map(|c| c.vars.iter().map(|v| v.ident.clone())).collect();
                let privates: Vec<syn::Ident> = dir.clauses.private.iter().chain(&dir.clauses.firstprivate).cloned().collect();
                let default_present = matches!(dir.clauses.default, Some((DefaultKind::Present, _)));
                info::data_notes(&mut notes, plan, params, &written, &privates, default_present);
                if let Some(q) = &dir.clauses.async_ {
                    let q = q.as_ref().map_or_else(|| "the default queue".to_string(), |e| format!("queue `{}`", quote!(#e)));
                    notes.at(src.line as usize, 0, format!("async: the launches go on {q}'s stream; the call returns before they finish"));
                }
                for r in dir.clauses.reductions() {
                    let v = r.var;
                    notes.add(v.span(), 0, format!("{} (region): the kernels that update `{v}` reduce it; the region returns it", info::red(r.op, v)));
                }
                notes.0.extend(g.notes.0);
                out.reports.push(info::RegionReport {
                    file: src.file.clone(),
                    line: src.line as usize,
                    kind,
                    name: display,
                    asked: dir.clauses.info.is_some(),
                    notes,
                    kernels: g.reports,
                });
                out.forms.push((base, g.kernels.into_iter().map(|k| k.device_fn).collect()))
            }
            Err(e) => {
                out.refused = Some(e.into_messages());
                out.forms.clear();
                out.reports.clear();
                return out;
            }
        }
    }
    out
}

pub use lower::data::{expand_data, expand_declare, expand_enter_data, expand_exit_data, expand_host_data, expand_update};
