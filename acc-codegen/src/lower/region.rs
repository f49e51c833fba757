//! The body of one form of a region fn: its static description for the runtime, its clauses'
//! checks and queue, its data scope, its GPU path (`device.rs`) and the host's lowering of
//! its body (`host.rs`), for a region run on the device or on the host in a GPU program.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::check::body::HostPlan;
use crate::front::loops;
use crate::front::method;
use crate::front::model::*;
use crate::front::region::{Form, Param, ParamKind, Region};
use crate::front::Source;
use crate::lower::{self, device, host};
use crate::paths;

/// One form of a region to lower (a free fn: a method's or an instance's).
pub struct FormBody<'a> {
    pub region: &'a Region,
    pub form: &'a Form,
    pub src: &'a Source,
    /// The base name of the form's kernels.
    pub kernel: &'a str,
    /// Whether the GPU lowering's refusals are reported here (once per generic region).
    pub report_gpu: bool,
}

/// The body of one form of a region: its data scope, its GPU path and its host lowering
/// (`host_plan`).
pub fn region_body(b: &FormBody, host_plan: HostPlan) -> TokenStream {
    let rt = paths::runtime();
    let (kind, dir, f, params, name) = (b.region.kind, &b.region.dir, &b.form.f, &b.form.params, &b.form.display);
    let mut body = (*f.block).clone();
    host::lower(&mut body, host_plan, params);

    let (file, line, kind_name, kernel) = (&b.src.file, b.src.line, kind.name(), b.kernel);
    let c = &dir.clauses;
    let if_cond = c.if_.as_ref().map_or_else(|| quote!(true), |e| quote_spanned!(e.span()=> #e));
    // `self(cond)`: on the host when `cond` holds; `self`: always.
    let self_cond = match &c.self_ {
        Some((_, Some(e))) => quote_spanned!(e.span()=> let __acc_if: bool = __acc_if && !::core::convert::identity::<bool>(#e);),
        Some((span, None)) => quote_spanned!(*span=> let __acc_if: bool = false;),
        None => TokenStream::new(),
    };
    let (prologue, waits) = prologue(c, params);
    let enters = data_enters(b.form, &c.data);
    let host_setup = host_setup(c, params);
    let Gpu { errors: gpu_errors, ready: gpu_ready, path: gpu_path } = gpu(b);
    let coherence = coherence(dir, f, params);
    let stmts = &body.stmts;
    quote! {
        #gpu_errors
        static __ACC_REGION: #rt::RegionInfo = #rt::RegionInfo {
            name: #name, kind: #kind_name, file: #file, line: #line, kernel: #kernel,
        };
        #prologue
        let __acc_if: bool = #if_cond;
        #self_cond
        #[allow(unused_mut)]
        let mut __acc_gpu = false;
        #gpu_ready
        #waits
        let mut __acc_data = #rt::DataScope::on_queue(&__ACC_REGION, __acc_queue);
        // Data clauses apply when the region runs on the device: on the GPU, or on the
        // host backend (which keeps the present table); not when a GPU program runs this
        // region on the host.
        if __acc_if && (__acc_gpu || !#rt::use_device(&__ACC_REGION, true)) {
            __acc_data.enter_data_start();
            #enters
            __acc_data.enter_data_end();
        }
        #gpu_path
        let __acc_launch = #rt::run_on_host_queued(&__ACC_REGION, __acc_queue);
        #[allow(unused_mut)]
        let mut __acc_coherent = #rt::HostRun::new(&__ACC_REGION);
        #coherence
        #host_setup
        #(#stmts)*
    }
}

/// What runs before the region: its `wait(..)`s (without `async`: the host waits first),
/// its counts' type checks, its values' `DeviceCopy` checks, its queue; and, with `async`,
/// the waits once it is known where the region runs (its queue waits on the GPU, or the host
/// waits: after the GPU check).
fn prologue(c: &RegionClauses, params: &[Param]) -> (TokenStream, TokenStream) {
    let rt = paths::runtime();
    let mut prologue = TokenStream::new();
    let mut waits = TokenStream::new();
    match (&c.wait, &c.async_) {
        (None, _) => {}
        (Some(qs), None) => {
            for q in qs {
                let q = lower::queue_i64(q);
                prologue.extend(quote!(::acc::wait(#q);));
            }
            if qs.is_empty() {
                prologue.extend(quote!(::acc::wait_all();));
            }
        }
        (Some(qs), Some(_)) => {
            let on = if qs.is_empty() {
                quote!(::core::option::Option::None)
            } else {
                let qs = qs.iter().map(lower::queue_i64);
                quote!(::core::option::Option::Some(&[#(#qs),*]))
            };
            waits.extend(quote!(#rt::wait_before(__acc_queue, __acc_gpu, #on);));
        }
    }
    // (A `device_type(host)` group's counts too: the host has no use for them, both builds
    // check them.)
    for e in [&c.num_gangs, &c.num_workers, &c.vector_length].into_iter().flatten().chain(&c.more_gangs).chain(&c.host_counts) {
        let n = lower::clause_usize(e);
        prologue.extend(quote!(let _: usize = #n;));
    }
    for q in &c.host_queues {
        let q = lower::queue_i64(q);
        prologue.extend(quote!(let _: i64 = #q;));
    }
    prologue.extend(device_copy_checks(params));
    // The region's async queue: its launches and its copy-back go there (acc-runtime's
    // `RegionInfo::queue`; `None` runs synchronously).
    prologue.extend(match &c.async_ {
        Some(Some(q)) => {
            let q = lower::queue_i64(q);
            quote!(let __acc_queue: ::core::option::Option<i64> = __ACC_REGION.queue(#q);)
        }
        Some(None) => quote!(let __acc_queue: ::core::option::Option<i64> = __ACC_REGION.queue(-1);),
        None => quote!(let __acc_queue: ::core::option::Option<i64> = ::core::option::Option::None;),
    });
    (prologue, waits)
}

/// Values are copied to the device bit for bit: they must be `DeviceCopy` (the error points
/// at the parameter's type; slice elements are checked by `__acc_view`, [`data_enters`]).
fn device_copy_checks(params: &[Param]) -> TokenStream {
    let mut checks = TokenStream::new();
    for p in params {
        if p.kind == ParamKind::Value {
            let elem = &p.elem;
            checks.extend(if matches!(elem, syn::Type::Infer(_)) {
                // A field of a method region: its type is the field's.
                let id = &p.ident;
                let rt = paths::runtime_at(id.span());
                quote_spanned! {id.span()=>
                    {
                        fn __acc_device_copy<T: #rt::DeviceCopy>(_: &T) {}
                        __acc_device_copy(&#id);
                    }
                }
            } else {
                let rt = paths::runtime_at(elem.span());
                quote_spanned! {elem.span()=>
                    {
                        fn __acc_device_copy<T: #rt::DeviceCopy>() {}
                        __acc_device_copy::<#elem>();
                    }
                }
            });
        }
    }
    checks
}

/// The form's data clauses entered into the region's data scope.
fn data_enters(form: &Form, clauses: &[DataClause]) -> TokenStream {
    let rt = paths::runtime();
    let mut enters = TokenStream::new();
    for (p, kind, span) in &form.plan {
        if matches!(p.kind, ParamKind::DeviceSlice | ParamKind::DeviceSliceMut) {
            continue;
        }
        let ident = &p.ident;
        let pname = method::display(ident);
        // `deviceptr` data are `DeviceSlice`s, skipped above.
        let clause = if *kind == DataKind::NoCreate { quote!(Present) } else { kind.runtime_clause() };
        // The view goes through `__acc_view`, whose bound reports a slice of elements that
        // cannot live on the device at the element type.
        let elem = &p.elem;
        let view = quote_spanned!(elem.span()=> __acc_view::<#elem>(#ident));
        // A small array the kernels only store to may get its device copy in host memory
        // (`lower::written`).
        let enter = if p.kind == ParamKind::SliceMut && matches!(kind, DataKind::Copy | DataKind::CopyOut) && lower::written::written_only(&form.f.block, ident) {
            quote!(enter_written)
        } else {
            quote!(enter)
        };
        let at = paths::runtime_at(*span);
        let modifiers = clauses.iter().find(|c| c.vars.iter().any(|v| v.ident == *ident)).map(|c| c.modifiers).unwrap_or_default();
        if *kind == DataKind::NoCreate {
            // Absent data takes the clause its parameter gets without one, so that the region
            // computes the same on every device.
            let fallback = if p.kind == ParamKind::Slice { quote!(CopyIn) } else { quote!(Copy) };
            enters.extend(quote_spanned!(*span=> __acc_data.enter_no_create(#pname, #view, ::core::option::Option::Some(#at::Clause::#fallback));));
            continue;
        }
        match modifiers.runtime() {
            // `zero` may write the host array (the host backend's device copy): a mutable view.
            Some(m) if modifiers.zero => enters.extend(quote_spanned!(*span=> __acc_data.enter_with(#pname, #at::view_mut(#ident), #at::Clause::#clause, #m);)),
            Some(m) => enters.extend(quote_spanned!(*span=> __acc_data.enter_with(#pname, #view, #at::Clause::#clause, #m);)),
            None => enters.extend(quote_spanned!(*span=> __acc_data.#enter(#pname, #view, #at::Clause::#clause);)),
        }
    }
    if !enters.is_empty() {
        enters = quote! {
            fn __acc_view<T: #rt::DeviceCopy>(s: &[T]) -> #rt::HostView {
                #rt::view(s)
            }
            #enters
        };
    }
    enters
}

/// The host's own copies before its lowering: `DeviceSlice`s as their host slices, and the
/// region-level `private`/`firstprivate` parameters.
fn host_setup(c: &RegionClauses, params: &[Param]) -> TokenStream {
    let mut host_setup = TokenStream::new();
    for p in params {
        let ident = &p.ident;
        match p.kind {
            ParamKind::DeviceSlice => host_setup.extend(quote!(let #ident = #ident.host_slice();)),
            ParamKind::DeviceSliceMut => host_setup.extend(quote!(let #ident = #ident.host_slice_mut();)),
            _ => {}
        }
    }
    for id in c.private.iter().chain(&c.firstprivate) {
        let Some(p) = params.iter().find(|p| &p.ident == id) else { continue };
        match p.kind {
            ParamKind::Value => host_setup.extend(quote!(#[allow(unused_mut)] let mut #id = #id;)),
            ParamKind::Slice | ParamKind::SliceMut => {
                let buf = quote::format_ident!("__acc_private_{}", id);
                host_setup.extend(quote!(let mut #buf = #id.to_vec(); #[allow(unused_variables)] let #id = &mut #buf[..];));
            }
            _ => {}
        }
    }
    host_setup
}

/// A form's GPU path (see [`gpu`]).
struct Gpu {
    /// The errors of the GPU build (`cfg(acc_kernels)`).
    errors: TokenStream,
    /// Whether the GPU takes the region: `__acc_gpu`.
    ready: TokenStream,
    /// The launches, taken where it does.
    path: TokenStream,
}

/// The GPU path: taken when the device is a GPU and the region's `if`/`self` let it. The
/// package's PTX has its kernels (acc-build declares `acc_region = "<name>"` for each region
/// it built): a region that cannot run on the GPU is a compile error of the GPU build,
/// spanned on what prevents it, never a silent run on the host (DESIGN §4.7).
fn gpu(b: &FormBody) -> Gpu {
    let rt = paths::runtime();
    let (kind, dir, f, name, kernel) = (b.region.kind, &b.region.dir, &b.form.f, &b.form.display, b.kernel);
    let mut errors = TokenStream::new();
    let (ready, path) = match (dir.host_only(), device::gpu_region(kind, dir, b.form, kernel)) {
        (true, _) => (TokenStream::new(), TokenStream::new()),
        (false, Ok(g)) => {
            let host_path = g.host_path;
            let names: Vec<&String> = g.kernels.iter().map(|k| &k.name).collect();
            let unseen = format!(
                "acc: region `{name}` is not in the package's GPU build: acc-build reads the files under src/, tests/, examples/ and benches/ and did not find it there (a region generated by `macro_rules!` cannot be seen); write the region out in such a file, or run it on the host with `self`"
            );
            let ident = &f.sig.ident;
            errors.extend(quote_spanned! {ident.span()=>
                #[cfg(all(acc_kernels, not(acc_region = #kernel)))]
                ::core::compile_error!(#unseen);
            });
            (
                quote! {
                    {
                        #![allow(unexpected_cfgs)]
                        #[cfg(acc_kernels)]
                        {
                            __acc_gpu = #rt::gpu_ready(
                                &__ACC_REGION, __acc_if, include_str!(concat!(env!("OUT_DIR"), "/acc_kernels.ptx")), &[#(#names),*]);
                        }
                    }
                },
                quote! {{
                    #![allow(unexpected_cfgs)]
                    #[cfg(acc_kernels)]
                    if __acc_gpu {
                        static __ACC_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/acc_kernels.ptx"));
                        #[allow(unreachable_code, clippy::needless_return)]
                        return { #host_path };
                    }
                }},
            )
        }
        (false, Err(e)) => {
            for (span, msg) in e.into_messages().into_iter().filter(|_| b.report_gpu) {
                let msg = format!("{msg}\n(this region cannot run on the GPU; `self` on the region runs it on the host, keeping the arrays it uses coherent)");
                errors.extend(quote_spanned! {span=>
                    #[cfg(acc_kernels)]
                    ::core::compile_error!(#msg);
                });
            }
            (TokenStream::new(), TokenStream::new())
        }
    };
    // (The cfgs are acc-build's: a crate whose build script does not declare them, a
    // trybuild case say, must not be warned about them. They stand in the body, which is
    // where an associated fn can hold them.)
    let errors = if errors.is_empty() { errors } else { quote!({ #![allow(unexpected_cfgs)] #errors }) };
    Gpu { errors, ready, path }
}

/// A region run on the host in a program on the GPU (`self`, `if`): the arrays it uses that
/// are present on the device are copied to the host before it, and those it writes back to
/// the device after it. An array its body never names is neither (a `create`d one's device
/// copy is undefined: copying it would clobber the host's); a region-level `private` array is
/// never the original's, a `firstprivate` one only read.
fn coherence(dir: &RegionDirective, f: &syn::ItemFn, params: &[Param]) -> TokenStream {
    let mut coherence = TokenStream::new();
    for p in params {
        let (ident, pname) = (&p.ident, method::display(&p.ident));
        if !loops::block_mentions(&f.block, ident) || dir.clauses.private.contains(ident) {
            continue;
        }
        match p.kind {
            ParamKind::Slice => coherence.extend(quote!(__acc_coherent.read(#pname, #ident);)),
            ParamKind::SliceMut if dir.clauses.firstprivate.contains(ident) => coherence.extend(quote!(__acc_coherent.read(#pname, #ident);)),
            ParamKind::SliceMut => coherence.extend(quote!(__acc_coherent.write(#pname, #ident);)),
            _ => {}
        }
    }
    coherence
}
