//! Lowering of compute regions for the GPU: each top-level loop nest of a region becomes one
//! kernel of the device crate (written by `acc-build`), and the region fn gets a GPU path that
//! evaluates the code around the nests on the host and launches the kernels.
//!
//! Kernel ABI, in order: the region's parameters (`&[T]` -> `ReadOnlyPtr<T>, usize`;
//! `&mut [T]` and `DeviceSlice`s -> pointer, `usize`; values by value), then `Captures` (the
//! locals the nest uses, packed), then the reduction partials buffer (`*mut u8`, one 16-byte
//! entry per block and reduction variable), then the cells of the outer scalars the nest
//! updates with `atomic!` (`*mut u8`, 16 bytes each). The nest's loops get the schedule of
//! [`crate::schedule`] (gang / worker / vector over blocks, `threadIdx.y`, `threadIdx.x`); a
//! nest that must run in order (`serial`, `seq`, a `kernels` loop not proved independent) runs
//! in one thread.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, Ident, ItemFn, Stmt};

use crate::atomic::{self, AtomicForm, Place};
use crate::loops;
use crate::model::*;
use crate::region::{self, is_acc_path, Param, ParamKind};
use crate::schedule;
use crate::report::Errors;

/// One kernel of a region.
pub struct Kernel {
    /// PTX entry name.
    pub name: String,
    /// The `extern "ptx-kernel"` fn of the device crate.
    pub device_fn: TokenStream,
}

/// The GPU lowering of one region fn.
pub struct GpuRegion {
    pub kernels: Vec<Kernel>,
    /// The statements of the region fn's GPU path (host code around the launches).
    pub host_path: TokenStream,
}

struct Let {
    name: Ident,
    init: Option<Expr>,
    ty: Option<syn::Type>,
}

/// Lowers `f` (already checked by the host lowering) for the GPU, or says why it cannot be.
pub fn gpu_region(kind: RegionKind, dir: &RegionDirective, f: &ItemFn, params: &[Param], kernel_base: &str) -> Result<GpuRegion, Errors> {
    let mut errors = Errors::default();
    for id in dir.clauses.private.iter().chain(&dir.clauses.firstprivate) {
        if params.iter().any(|p| &p.ident == id && p.kind != ParamKind::Value) {
            errors.error(id.span(), "region-level `private`/`firstprivate` of a slice is not supported on the GPU yet");
        }
    }
    let region_reds: Vec<(RedOp, Ident)> =
        dir.clauses.reduction.iter().flat_map(|r| r.vars.iter().map(move |v| (r.op, v.clone()))).collect();
    let slice_names: Vec<&Ident> = params.iter().filter(|p| p.kind != ParamKind::Value).map(|p| &p.ident).collect();

    let mut lets: Vec<Let> = Vec::new();
    let mut kernels = Vec::new();
    let mut host = TokenStream::new();
    for stmt in &f.block.stmts {
        match stmt {
            Stmt::Local(l) => {
                let (name, ty) = match &l.pat {
                    syn::Pat::Ident(p) => (Some(p.ident.clone()), None),
                    syn::Pat::Type(t) => match &*t.pat {
                        syn::Pat::Ident(p) => (Some(p.ident.clone()), Some((*t.ty).clone())),
                        _ => (None, None),
                    },
                    _ => (None, None),
                };
                match name {
                    Some(name) => lets.push(Let { name, init: l.init.as_ref().map(|i| (*i.expr).clone()), ty }),
                    None => {
                        let mut names = Vec::new();
                        region::pat_idents(&l.pat, &mut names);
                        for n in names {
                            lets.push(Let { name: Ident::new(&n, l.pat.span()), init: None, ty: None });
                        }
                    }
                }
                host.extend(quote!(#stmt));
            }
            Stmt::Expr(Expr::ForLoop(fl), _) if has_loop_attr(fl) || (kind != RegionKind::Parallel && loops::LoopHeader::parse(fl).is_ok()) => {
                let index = kernels.len();
                let name = format!("{kernel_base}_{index}");
                match nest_kernel(kind, dir, fl, params, &lets, &region_reds, &name, &mut errors) {
                    Some((kernel, launch)) => {
                        kernels.push(Kernel { name, device_fn: kernel });
                        host.extend(launch);
                    }
                    None => {}
                }
            }
            Stmt::Item(_) => host.extend(quote!(#stmt)),
            other => {
                let e = match other {
                    Stmt::Expr(e, _) => Some(e),
                    _ => None,
                };
                let touches = slice_names.iter().find(|n| loops::stmt_mentions(other, n));
                let nested_loop = e.is_some_and(contains_acc_loop);
                if nested_loop {
                    errors.error(other.span(), "on the GPU, acc loops must stand at the top level of the region body (not inside another statement) in this version");
                } else if let Some(n) = touches {
                    let statement = matches!(other, Stmt::Expr(_, Some(_)) | Stmt::Macro(_));
                    if !statement {
                        errors.error(
                            other.span(),
                            format!("on the GPU, a `let` or the region's value that uses the array `{n}` outside acc loops is not supported yet: compute it in an acc loop or a `serial` region"),
                        );
                        continue;
                    }
                    // Sequential code between the loops that uses arrays: a one-thread kernel
                    // (it runs once, as on the host backend; OpenACC's gang-redundant copies
                    // would all do the same).
                    let once: ExprForLoop = syn::parse_quote_spanned!(other.span()=> for _ in 0..1usize { #other });
                    let index = kernels.len();
                    let name = format!("{kernel_base}_{index}");
                    if let Some((kernel, launch)) = nest_kernel(RegionKind::Serial, dir, &once, params, &lets, &region_reds, &name, &mut errors) {
                        kernels.push(Kernel { name, device_fn: kernel });
                        host.extend(launch);
                    }
                } else {
                    // Host code around the nests (scalar work, the tail value).
                    host.extend(quote!(#other));
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(GpuRegion { kernels, host_path: host })
    } else {
        Err(errors)
    }
}

fn has_loop_attr(f: &ExprForLoop) -> bool {
    f.attrs.iter().any(|a| is_acc_path(a.path(), "loop"))
}

fn contains_acc_loop(e: &Expr) -> bool {
    struct V(bool);
    impl<'ast> syn::visit::Visit<'ast> for V {
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            if has_loop_attr(f) {
                self.0 = true;
            }
            syn::visit::visit_expr_for_loop(self, f);
        }
    }
    let mut v = V(false);
    syn::visit::Visit::visit_expr(&mut v, e);
    v.0
}

/// Every reduction clause inside a nest: (op, variable).
fn nest_reductions(f: &ExprForLoop, kind: RegionKind) -> Vec<(RedOp, Span, Ident)> {
    struct V(Vec<(RedOp, Span, Ident)>, RegionKind);
    impl<'ast> syn::visit::Visit<'ast> for V {
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            for a in &f.attrs {
                if is_acc_path(a.path(), "loop") {
                    let d = region::loop_directive_of(a, self.1, &mut Errors::default());
                    for r in d.reduction {
                        for v in r.vars {
                            self.0.push((r.op, r.op_span, v));
                        }
                    }
                }
            }
            syn::visit::visit_expr_for_loop(self, f);
        }
    }
    let mut v = V(Vec::new(), kind);
    syn::visit::Visit::visit_expr_for_loop(&mut v, f);
    v.0
}

/// Strips inner acc loop attributes (those loops run in order in each thread), drops
/// `cache!` hints, and turns `atomic!` on slice elements into device atomics.
struct DeviceBody<'a> {
    slices: &'a [Ident],
    /// Outer scalars updated atomically: their names are the cells' atomic handles.
    cells: &'a [Ident],
    /// Read-only slice parameters: passed to routines as `&[T]` (`&*a`); the other slices
    /// as `&[T]` or `&mut [T]`, as the routine takes them.
    read_only: &'a [Ident],
}

impl DeviceBody<'_> {
    fn lower_macro(&mut self, m: &syn::Macro) -> Option<Expr> {
        if is_acc_path(&m.path, "cache") {
            return Some(syn::parse_quote!(()));
        }
        if !is_acc_path(&m.path, "atomic") {
            return None;
        }
        let form: AtomicForm = syn::parse2(m.tokens.clone()).ok()?;
        let tokens = match form.place() {
            Place::Element { base, .. } if self.slices.contains(base) => atomic::expand_shared(&form, m.path.span()),
            Place::Scalar(id) if self.cells.contains(id) => atomic::expand_shared(&form, m.path.span()),
            Place::Scalar(_) | Place::Element { .. } => {
                // Locals declared inside the loop body are per thread: the plain form is right.
                atomic::expand_plain(&form)
            }
        };
        syn::parse2(tokens).ok()
    }
}

impl DeviceBody<'_> {
    fn slice_args(&self, args: &mut syn::punctuated::Punctuated<Expr, syn::Token![,]>) {
        for a in args.iter_mut() {
            if let Expr::Path(p) = a {
                if p.path.get_ident().is_some_and(|id| self.read_only.contains(id)) {
                    *a = syn::parse_quote!(&*#p);
                } else if p.path.get_ident().is_some_and(|id| self.slices.contains(id)) {
                    // A `&mut [T]` parameter: the routine's parameter type picks `&[T]` or
                    // `&mut [T]`.
                    *a = syn::parse_quote!(::core::convert::Into::into(#p));
                }
            }
        }
    }
}

impl VisitMut for DeviceBody<'_> {
    fn visit_expr_call_mut(&mut self, c: &mut syn::ExprCall) {
        syn::visit_mut::visit_expr_call_mut(self, c);
        self.slice_args(&mut c.args);
    }
    fn visit_expr_method_call_mut(&mut self, c: &mut syn::ExprMethodCall) {
        syn::visit_mut::visit_expr_method_call_mut(self, c);
        self.slice_args(&mut c.args);
    }
    fn visit_expr_for_loop_mut(&mut self, f: &mut ExprForLoop) {
        f.attrs.retain(|a| !is_acc_path(a.path(), "loop"));
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
    }
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        if let Stmt::Macro(m) = s {
            if let Some(e) = self.lower_macro(&m.mac) {
                *s = Stmt::Expr(e, Some(Default::default()));
                return;
            }
        }
        syn::visit_mut::visit_stmt_mut(self, s);
    }
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Macro(m) = e {
            if let Some(new) = self.lower_macro(&m.mac) {
                *e = new;
                return;
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// The locals declared outside the nest that it updates with scalar atomics: each gets a
/// device cell (acc-runtime's `Cells`).
fn outer_scalar_atomics(f: &ExprForLoop, lets: &[Let]) -> Vec<Ident> {
    struct V<'a>(&'a [Let], Vec<Ident>);
    impl<'ast> syn::visit::Visit<'ast> for V<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if is_acc_path(&m.path, "atomic") {
                if let Ok(form) = syn::parse2::<AtomicForm>(m.tokens.clone()) {
                    if let Place::Scalar(id) = form.place() {
                        if self.0.iter().any(|l| &l.name == id) && !self.1.contains(id) {
                            self.1.push(id.clone());
                        }
                    }
                }
            }
        }
    }
    let mut v = V(lets, Vec::new());
    syn::visit::Visit::visit_expr_for_loop(&mut v, f);
    v.1
}

#[allow(clippy::too_many_arguments)]
fn nest_kernel(
    kind: RegionKind,
    dir: &RegionDirective,
    f: &ExprForLoop,
    params: &[Param],
    lets: &[Let],
    region_reds: &[(RedOp, Ident)],
    name: &str,
    errors: &mut Errors,
) -> Option<(TokenStream, TokenStream)> {
    let attr = f.attrs.iter().find(|a| is_acc_path(a.path(), "loop")).cloned();
    let d = match &attr {
        Some(a) => region::loop_directive_of(a, kind, &mut Errors::default()),
        None => LoopDirective { auto: Some(f.span()), ..LoopDirective::default() },
    };
    let cells = outer_scalar_atomics(f, lets);
    let (headers, body) = loops::directive_nest(f, &d)?;
    let slices: Vec<Ident> = params.iter().filter(|p| p.kind != ParamKind::Value).map(|p| p.ident.clone()).collect();
    let read_only: Vec<Ident> = params.iter().filter(|p| matches!(p.kind, ParamKind::Slice | ParamKind::DeviceSlice)).map(|p| p.ident.clone()).collect();
    let mut_slices: Vec<Ident> = params.iter().filter(|p| matches!(p.kind, ParamKind::SliceMut | ParamKind::DeviceSliceMut)).map(|p| p.ident.clone()).collect();
    let mut body_of = |b: &syn::Block| {
        let mut b = b.clone();
        DeviceBody { slices: &slices, read_only: &read_only, cells: &cells }.visit_block_mut(&mut b);
        b
    };

    // Sequential when the loop says so or cannot be proved independent.
    let reds_all = nest_reductions(f, kind);
    let red_names: Vec<Ident> = reds_all.iter().map(|r| r.2.clone()).collect();
    let serial = kind == RegionKind::Serial
        || d.seq.is_some()
        || match (kind, d.independent, d.auto) {
            (_, Some(_), _) => false,
            (RegionKind::Kernels, None, _) | (_, None, Some(_)) => {
                loops::dependence_nest(f, headers.len(), &red_names, &region::inner_decls(&f.body)).is_some()
            }
            _ => false,
        };

    // Reductions of the nest: clauses on any loop of it naming a local declared before it, and
    // region-level reductions it uses.
    let mut reds: Vec<(RedOp, Ident)> = Vec::new();
    for (op, _, v) in &reds_all {
        if lets.iter().any(|l| &l.name == v) && !reds.iter().any(|r| &r.1 == v) {
            reds.push((*op, v.clone()));
        }
    }
    for (op, v) in region_reds {
        if !reds.iter().any(|r| &r.1 == v) && loops::block_mentions(&f.body, v) {
            reds.push((*op, v.clone()));
        }
    }

    // Captured locals: those the nest mentions (bounds included), and transitively those
    // their initialisers mention (for the type witnesses).
    let nest_expr = Expr::ForLoop(f.clone());
    let mut needed: Vec<bool> = lets.iter().map(|l| loops::mentions(&nest_expr, &l.name)).collect();
    for i in (0..lets.len()).rev() {
        if !needed[i] {
            continue;
        }
        if let Some(init) = &lets[i].init {
            for j in 0..i {
                if loops::mentions(init, &lets[j].name) {
                    needed[j] = true;
                }
            }
        }
    }
    // A name bound twice: only its last binding before the nest is visible there.
    let mut captured: Vec<&Let> = Vec::new();
    for (i, l) in lets.iter().enumerate() {
        if needed[i] && !lets[i + 1..].iter().any(|later| later.name == l.name) {
            captured.push(l);
        }
    }
    for l in &captured {
        if l.init.is_none() && l.ty.is_none() {
            errors.error(l.name.span(), format!("`{}` is used by a loop nest on the GPU: give it an initialiser or a type (`let {}: T = ..;`)", l.name, l.name));
            return None;
        }
    }

    // ---- the device fn ----
    let dev = quote!(::acc_device);
    let mut sig = Vec::new();
    let mut prologue = TokenStream::new();
    for p in params {
        let id = &p.ident;
        let elem = &p.elem;
        let ptr = format_ident!("{}_ptr", id);
        let len = format_ident!("{}_len", id);
        match p.kind {
            ParamKind::Slice | ParamKind::DeviceSlice => {
                sig.push(quote!(#ptr: #dev::ReadOnlyPtr<#elem>, #len: usize));
                prologue.extend(quote!(let #id = #dev::Slice::from_param(#ptr, #len);));
            }
            ParamKind::SliceMut | ParamKind::DeviceSliceMut => {
                sig.push(quote!(#ptr: *mut #elem, #len: usize));
                prologue.extend(quote!(let mut #id = #dev::SliceMut::from_raw(#ptr, #len);));
            }
            ParamKind::Value => {
                let ty = &p.ty;
                sig.push(quote!(#id: #ty));
            }
        }
    }
    prologue.extend(quote!(let mut __acc_off = 0usize;));
    for l in &captured {
        let n = &l.name;
        let witness = match (&l.ty, &l.init) {
            (Some(ty), _) => quote!(|| -> #ty { loop {} }),
            (None, Some(init)) => quote!(|| #init),
            _ => unreachable!(),
        };
        prologue.extend(quote!(#[allow(unused_mut, unreachable_code)] let mut #n = __acc_caps.take(&mut __acc_off, #witness);));
    }
    let cell_slots: Vec<usize> = (0..cells.len()).collect();
    prologue.extend(quote!(#(let #cells = #dev::cell(__acc_cells, #cell_slots, #cells);)*));
    let k = format_ident!("__acc_k");
    // In a nest run by one thread, locals declared before it and assigned in it (not
    // reductions) come back to the host: their last value, through a partials slot.
    let mut writebacks: Vec<Ident> = Vec::new();
    if serial {
        for l in &captured {
            if !reds.iter().any(|r| r.1 == l.name) && !cells.contains(&l.name) && schedule::block_assigns(&f.body, &l.name) {
                writebacks.push(l.name.clone());
            }
        }
    }
    let wb_slots: Vec<usize> = (reds.len()..reds.len() + writebacks.len()).collect();
    let red_vars: Vec<&Ident> = reds.iter().map(|r| &r.1).collect();
    let red_ops: Vec<TokenStream> = reds.iter().map(|(op, _)| schedule::op_path(*op)).collect();
    let red_slots: Vec<usize> = (0..reds.len()).collect();
    let (nest_code, uses_worker, per_trip) = if serial {
        // One thread runs the nest in order.
        let loops::NestSpace { setup, total, bind } = loops::normalise_nest(&headers, 1, &quote!(#dev::idx));
        let stmts = body_of(&body).stmts;
        let code = quote! {
            #setup
            let __acc_total: usize = #total;
            let mut #k = 0usize;
            while #k < __acc_total {
                #bind
                #[allow(clippy::never_loop)]
                for _ in ::core::iter::once(()) { #(#stmts)* }
                #k += 1;
            }
            #(
                if #dev::block_thread_index() == 0 {
                    #dev::store_partial(__acc_partials, #red_slots, #red_vars);
                }
            )*
        };
        (code, false, (false, false))
    } else {
        let s = schedule::Scheduler::new(kind, &mut_slices, &mut body_of, errors).nest(f, &reds)?;
        (s.code, s.uses_worker, s.per_trip)
    };
    let kname = Ident::new(name, Span::call_site());
    let device_fn = quote! {
        #[no_mangle]
        #[allow(unused_mut, unused_variables, unused_assignments, non_snake_case, clippy::all)]
        pub unsafe extern "ptx-kernel" fn #kname(#(#sig,)* __acc_caps: #dev::Captures, __acc_partials: *mut u8, __acc_cells: *mut u8) {
            #prologue
            #(let mut #red_vars = #red_ops.identity(&#red_vars);)*
            #nest_code
            #(
                if #dev::block_thread_index() == 0 {
                    #dev::store_partial(__acc_partials, #wb_slots, #writebacks);
                }
            )*
        }
    };

    // ---- the host launch ----
    let rt = quote!(::acc::__private);
    let loops::NestSpace { setup: host_setup, total: host_total, .. } = loops::normalise_nest(&headers, 1, &rt);
    let mut args = TokenStream::new();
    for p in params {
        let id = &p.ident;
        args.extend(match p.kind {
            ParamKind::Slice | ParamKind::SliceMut => quote!(__acc_args.slice(__acc_data.device_ptr(#rt::view(#id)), #id.len());),
            ParamKind::DeviceSlice | ParamKind::DeviceSliceMut => quote!(__acc_args.slice(#id.device_ptr(), #id.len());),
            ParamKind::Value => quote!(__acc_args.push(#id);),
        });
    }
    let cap_names: Vec<&Ident> = captured.iter().map(|l| &l.name).collect();
    let vector_length = dir.clauses.vector_length.as_ref().map_or_else(|| quote!(0usize), |e| quote!((#e) as usize));
    let num_workers = dir.clauses.num_workers.as_ref().map_or_else(|| quote!(0usize), |e| quote!((#e) as usize));
    let (per_x, per_y) = per_trip;
    let num_gangs = dir.clauses.num_gangs.as_ref().map_or_else(|| quote!(0usize), |e| quote!((#e) as usize));
    let queue = quote!(__acc_queue);
    let nreds = reds.len() + writebacks.len();
    let ncells = cells.len();
    let host_ops: Vec<TokenStream> = reds.iter().map(|(op, _)| { let t = Ident::new(op.type_name(), Span::call_site()); quote!(#rt::reduce::#t) }).collect();
    let launch = quote! {{
        #host_setup
        let __acc_total: usize = #host_total;
        let mut __acc_caps = #rt::Captures::new();
        #(__acc_caps.put(&#cap_names);)*
        let mut __acc_args = #rt::KernelArgs::new();
        #args
        __acc_args.push(__acc_caps);
        let __acc_geom = #rt::Geometry::new(__acc_total, #num_gangs, #vector_length, #serial).workers(#num_workers, #uses_worker).per_trip(#per_x, #per_y);
        let __acc_partials = #rt::Partials::new(&__ACC_REGION, #nreds, &__acc_geom);
        __acc_args.ptr(__acc_partials.device_ptr());
        let mut __acc_cells = #rt::Cells::new(&__ACC_REGION, #ncells);
        #(__acc_cells.set(#cell_slots, &#cells);)*
        __acc_args.ptr(__acc_cells.upload());
        let __acc_grid = #rt::launch(&__ACC_REGION, __ACC_PTX, #name, &mut __acc_args, &__acc_geom, #queue);
        __acc_cells.download();
        #(#cells = __acc_cells.get(#cell_slots, &#cells);)*
        #(
            #writebacks = __acc_partials.fold(#wb_slots, __acc_grid, &#writebacks, |_, last| last);
        )*
        #(
            #red_vars = #host_ops.combine(#red_vars, __acc_partials.fold(#red_slots, __acc_grid, &#red_vars, |a, b| #host_ops.combine(a, b)));
        )*
    }};
    Some((device_fn, launch))
}
