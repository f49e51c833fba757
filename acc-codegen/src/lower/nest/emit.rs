//! A [`NestPlan`] written out: the device fns of its kernels (one ABI, [`Abi`]) and the host
//! code that launches them. Nothing here decides: every choice is the plan's.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::Ident;

use super::{NestPlan, NestSource, Shape};
use crate::front::loops;
use crate::front::region::ParamKind;
use crate::lower::device_body::generated;
use crate::lower::schedule;
use crate::paths;

/// The device fns of the plan's kernels: the nest's, then the one without checks (and the one
/// of one point a thread), the lean one, and the lean one without checks.
pub(super) fn device_fns(src: &NestSource, plan: &NestPlan) -> TokenStream {
    let kname = Ident::new(src.name, Span::call_site());
    let k = &plan.kernels;
    let mut device_fn = kernel_fn(src, plan, &kname, &k.code);
    if let Some(u) = &k.unchecked {
        // Its tokens as generated ones: the device crate's printer keeps the user's lines for
        // the checked kernel's copy, where every panic site of the nest is (`Proved::panic_free`).
        device_fn.extend(generated(kernel_fn(src, plan, &format_ident!("{}_inb", kname), &u.code)));
        // (The same name's ending, `_inb`, so that acc-build treats it as it treats `_inb`.)
        if let Some(code) = &k.point {
            device_fn.extend(generated(kernel_fn(src, plan, &format_ident!("{}_pt_inb", kname), code)));
        }
    }
    if let Some(code) = &k.lean {
        device_fn.extend(kernel_fn(src, plan, &format_ident!("{}_lean", kname), code));
        // (Its tokens as generated ones, as the unchecked kernel's above.)
        if let Some(u) = &k.lean_unchecked {
            device_fn.extend(generated(kernel_fn(src, plan, &format_ident!("{}_lean_inb", kname), &u.code)));
        }
    }
    device_fn
}

/// One kernel's `extern "ptx-kernel"` fn: the ABI's parameters, the prologue that unpacks
/// them, `nest_code`, the writebacks' stores.
fn kernel_fn(src: &NestSource, plan: &NestPlan, kname: &Ident, nest_code: &TokenStream) -> TokenStream {
    let dev = paths::device();
    let abi = &plan.abi;
    let (sig, prologue) = kernel_params(src, plan, apart(src, nest_code));
    let priv_ptrs = &abi.priv_ptrs;
    let priv_elems: Vec<&syn::Type> = abi.privates.iter().map(|p| &p.elem).collect();
    let items = &plan.items;
    // The element bytes of the nest's staged 1-D windows, together: their points a thread a
    // trip (`acc_device::window_points`), as the host's `Geometry::window_points` counts them.
    let window_arrays = plan.shape.cached.iter().map(|c| &c.0);
    let window_bytes = quote!(let __acc_wbytes: usize = 0usize #(+ #dev::elem_bytes(&*#window_arrays))*;);
    let red_vars: Vec<&Ident> = abi.reds.iter().map(|r| &r.1).collect();
    let red_ops: Vec<TokenStream> = abi.reds.iter().map(|(op, _)| schedule::op_path(*op)).collect();
    // A reduction variable takes a partial slot per scalar it holds (an array one per element),
    // the writebacks one each after them; in the kernel and at the launch alike.
    let red_total = schedule::red_slots_total(&dev, &red_vars);
    let wb_slots: Vec<TokenStream> = (0..abi.writebacks.len()).map(|k| quote!((#red_total + #k))).collect();
    let writebacks = &abi.writebacks;
    quote! {
        #[no_mangle]
        #[allow(unused_mut, unused_variables, unused_assignments, non_snake_case, clippy::all)]
        pub unsafe extern "ptx-kernel" fn #kname(__acc_panic: *mut #dev::panic::PanicSlot, #(#sig,)* __acc_caps: #dev::Captures, __acc_partials: *mut u8, __acc_cells: *mut u8 #(, #priv_ptrs: *mut #priv_elems)*) {
            #(#items)*
            #dev::panic::enter(__acc_panic);
            #prologue
            #window_bytes
            #(let mut #red_vars = #red_ops.identity(&#red_vars);)*
            #nest_code
            #(
                if #dev::block_thread_index() == 0 {
                    #dev::store_partial(__acc_partials, #wb_slots, #writebacks);
                }
            )*
        }
    }
}

/// The region's parameters as a kernel takes them (`&[T]` -> `ReadOnlyPtr<T>, usize`, `&mut
/// [T]` -> pointer, `usize`, values by value), and the prologue that makes them slices again
/// (a private array's from its copy, filled first), unpacks the captured locals and names
/// the atomic cells.
fn kernel_params(src: &NestSource, plan: &NestPlan, apart: bool) -> (Vec<TokenStream>, TokenStream) {
    let dev = paths::device();
    let abi = &plan.abi;
    let mut sig = Vec::new();
    let mut prologue = TokenStream::new();
    for p in src.params {
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
                let (param, data) = match abi.privates.iter().position(|q| q.ident == p.ident) {
                    Some(i) => {
                        let copy = &abi.priv_ptrs[i];
                        (quote!(*mut #elem), quote!(#copy))
                    }
                    None if apart => (quote!(#dev::MutPtr<#elem>), quote!(#ptr.as_ptr())),
                    None => (quote!(*mut #elem), quote!(#ptr)),
                };
                sig.push(quote!(#ptr: #param, #len: usize));
                prologue.extend(quote!(let mut #id = #dev::SliceMut::from_raw(#data, #len);));
            }
            ParamKind::Value => {
                let ty = &p.ty;
                sig.push(quote!(#id: #ty));
            }
        }
    }
    prologue.extend(quote!(let mut __acc_off = 0usize;));
    for l in &abi.captured {
        let n = &l.name;
        let witness = match (&l.ty, &l.init) {
            (Some(ty), _) => quote!(|| -> #ty { loop {} }),
            (None, Some(init)) => quote!(|| #init),
            _ => unreachable!(),
        };
        prologue.extend(quote!(#[allow(unused_mut, unreachable_code)] let mut #n = __acc_caps.take(&mut __acc_off, #witness);));
    }
    for r in &abi.replayed {
        let (n, init) = (&r.name, r.init.as_ref().expect("a closure let has an initialiser"));
        prologue.extend(quote!(#[allow(unused_mut)] let mut #n = #init;));
    }
    let cells = &abi.cells;
    let cell_slots: Vec<usize> = (0..cells.len()).collect();
    prologue.extend(quote!(#(let #cells = #dev::cell(__acc_cells, #cell_slots, #cells);)*));
    let copies = private_copies(plan);
    (sig, quote!(#copies #prologue))
}

/// Whether the kernel's `&mut [T]` parameters are `MutPtr`s, which tell LLVM that no other
/// pointer of the kernel reaches their arrays (`noalias`): with the experiment switch
/// `ACC_EXP_NOALIAS=1` at build time, in a kernel with no barrier (through which one thread
/// could read what another wrote) and no call of a fn of the package (a routine may hold
/// one). Two `&mut [T]` of a region are two borrows, so never the same memory.
fn apart(src: &NestSource, nest_code: &TokenStream) -> bool {
    struct Calls(bool);
    impl<'ast> syn::visit::Visit<'ast> for Calls {
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            self.0 = true;
            syn::visit::visit_expr_call(self, c);
        }
    }
    if !std::env::var_os("ACC_EXP_NOALIAS").is_some_and(|v| !v.is_empty() && v != "0") {
        return false;
    }
    let mut calls = Calls(false);
    syn::visit::Visit::visit_expr_for_loop(&mut calls, src.f);
    !calls.0 && !nest_code.to_string().contains("sync_threads")
}

/// The private copies: one for each group of threads that runs a trip of the outermost loop
/// together (a block when its vector lanes and workers share the trips, else each lane or
/// row), filled from the original by that group before the nest.
fn private_copies(plan: &NestPlan) -> TokenStream {
    let dev = paths::device();
    let (share_x, share_y) = plan.shape.per_trip;
    let mut copies = TokenStream::new();
    for (p, copy) in plan.abi.privates.iter().zip(&plan.abi.priv_ptrs) {
        let (elem, ptr, len) = (&p.elem, format_ident!("{}_ptr", p.ident), format_ident!("{}_len", p.ident));
        copies.extend(quote! {
            let #copy: *mut #elem = #copy.add(#dev::private_copy(#share_x, #share_y) * #len);
            let (mut __acc_i, __acc_step) = #dev::private_fill(#share_x, #share_y);
            while __acc_i < #len {
                *#copy.add(__acc_i) = *#ptr.add(__acc_i);
                __acc_i += __acc_step;
            }
            #dev::sync_threads();
        });
    }
    copies
}

/// Host code asking [`crate::lower::bounds::Proved::check`]'s closure body `check` for the
/// launch's answer, an `Option<(bool, bool)>`.
fn bounds_answer(check: &TokenStream) -> TokenStream {
    quote!((|| -> ::core::option::Option<(bool, bool)> { #check })())
}

/// The host code of the launch: the captures, the kernel's arguments, the launch's shape,
/// the partials, cells and private copies, the kernel picked, the launch, then what comes
/// back (cells, writebacks, reductions, values).
pub(super) fn launch(src: &NestSource, plan: &NestPlan) -> TokenStream {
    let rt = paths::runtime();
    let abi = &plan.abi;
    let loops::NestSpace { setup: host_setup, total: host_total, .. } = loops::normalise_nest(&plan.headers, 1, &rt);
    let args = kernel_args(src);
    let cap_names: Vec<&Ident> = abi.captured.iter().map(|l| &l.name).collect();
    let geometry = launch_shape(src, plan);
    let queue = quote!(__acc_queue);
    let red_vars: Vec<&Ident> = abi.reds.iter().map(|r| &r.1).collect();
    let host_red_slots = schedule::red_slots(&rt, &red_vars);
    let host_wb_slots: Vec<TokenStream> = {
        let total = schedule::red_slots_total(&rt, &red_vars);
        (0..abi.writebacks.len()).map(|k| quote!((#total + #k))).collect()
    };
    let nreds = {
        let (total, nwb) = (schedule::red_slots_total(&rt, &red_vars), abi.writebacks.len());
        quote!((#total + #nwb))
    };
    // The values of a one-thread kernel: their types are their witnesses' (never called).
    let outputs = src.outputs;
    let out_names: Vec<&Ident> = outputs.iter().map(|o| &o.name).collect();
    let out_witness: Vec<Ident> = (0..outputs.len()).map(|i| format_ident!("__acc_w{}", i)).collect();
    let out_inits = outputs.iter().map(|o| o.init.as_ref().expect("outputs have initialisers"));
    let (cells, priv_ptrs, writebacks) = (&abi.cells, &abi.priv_ptrs, &abi.writebacks);
    let ncells = cells.len();
    let cell_slots: Vec<usize> = (0..cells.len()).collect();
    let priv_ids = abi.privates.iter().map(|p| &p.ident);
    let priv_elems2 = abi.privates.iter().map(|p| &p.elem);
    let (per_x, per_y) = plan.shape.per_trip;
    let host_ops: Vec<TokenStream> = abi.reds.iter().map(|(op, _)| { let t = Ident::new(op.type_name(), Span::call_site()); quote!(#rt::reduce::#t) }).collect();
    // The block's value: the kernel's values, or none (not a `()` at its end, which clippy
    // reports as `unused_unit` on the region's attribute).
    let values = (!outputs.is_empty()).then(|| {
        quote! {
            let mut __acc_vs: usize = #nreds;
            (#(__acc_partials.value(&mut __acc_vs, &#out_witness),)*)
        }
    });
    let pick = pick(src, plan);
    let launch = quote! {{
        #host_setup
        #( #[allow(unused_mut, unused_variables, unreachable_code)] let #out_witness = || #out_inits; )*
        let __acc_total: usize = #host_total;
        let mut __acc_caps = #rt::CapturedValues::new(&__ACC_REGION);
        #(__acc_caps.put(&#cap_names);)*
        let mut __acc_args = #rt::KernelArgs::new();
        __acc_args.panic_slot();
        #args
        __acc_args.push(__acc_caps.upload());
        #[allow(unused_mut)]
        let mut __acc_geom = #geometry;
        #(let #priv_ptrs = #rt::PrivateCopies::new(&__ACC_REGION, ::core::mem::size_of_val::<[#priv_elems2]>(&*#priv_ids), (#per_x, #per_y), &mut __acc_geom);)*
        let __acc_partials = #rt::Partials::new(&__ACC_REGION, #nreds #(+ #rt::value_slots(&#out_witness))*, &__acc_geom);
        __acc_args.ptr(__acc_partials.device_ptr());
        let mut __acc_cells = #rt::Cells::new(&__ACC_REGION, #ncells);
        #(__acc_cells.set(#cell_slots, &#cells);)*
        __acc_args.ptr(__acc_cells.upload());
        #(__acc_args.ptr(#priv_ptrs.device_ptr());)*
        #pick
        let __acc_grid = #rt::launch(&__ACC_REGION, __ACC_PTX, __acc_name, &mut __acc_args, &__acc_geom, #queue);
        __acc_cells.download();
        #(#cells = __acc_cells.get(#cell_slots, &#cells);)*
        #(
            #writebacks = __acc_partials.fold(#host_wb_slots, __acc_grid, &#writebacks, |_, last| last);
        )*
        #(
            #red_vars = #host_ops.combine(#red_vars, __acc_partials.fold_var(#host_red_slots, __acc_grid, &#red_vars, |a, b| #host_ops.combine(a, b)));
        )*
        #values
    }};
    if outputs.is_empty() {
        launch
    } else {
        quote!(#[allow(unused_mut)] let (#(mut #out_names,)*) = #launch;)
    }
}

/// The kernel's arguments for the region's parameters, in its ABI's order.
fn kernel_args(src: &NestSource) -> TokenStream {
    let rt = paths::runtime();
    let mut args = TokenStream::new();
    for p in src.params {
        let id = &p.ident;
        args.extend(match p.kind {
            ParamKind::Slice | ParamKind::SliceMut => quote!(__acc_args.slice(__acc_data.device_ptr(#rt::view(#id)), #id.len());),
            ParamKind::DeviceSlice | ParamKind::DeviceSliceMut => quote!(__acc_args.slice(#id.device_ptr(), #id.len());),
            ParamKind::Value => quote!(__acc_args.push(#id);),
        });
    }
    args
}

/// The launch shape: acc-runtime's `Geometry` for the plan's [`Shape`] and the region's
/// `num_gangs`/`num_workers`/`vector_length`, the lean kernel named.
fn launch_shape(src: &NestSource, plan: &NestPlan) -> TokenStream {
    let rt = paths::runtime();
    let c = &plan.sizes;
    let Shape { serial, uses_worker, per_trip: (per_x, per_y), group_locals, per_warp, reduction_chunks, waves, worker_blocks, .. } = plan.shape;
    let count = |e: &Option<syn::Expr>| e.as_ref().map_or_else(|| quote!(0usize), crate::lower::clause_usize);
    let (num_gangs, num_workers, vector_length) = (count(&c.num_gangs), count(&c.num_workers), count(&c.vector_length));
    let some = |t: Option<TokenStream>| t.map_or_else(|| quote!(::core::option::Option::None), |t| quote!(::core::option::Option::Some(#t)));
    let dims = some(plan.shape.dims.as_ref().map(|d| quote!(#d)));
    let lean = some(lean_kernel(src, plan).map(|l| quote!(#rt::LeanKernel { name: #l, per_warp: #per_warp, chunked_reductions: #reduction_chunks })));
    // A thread per chunk: 4 trips, 2 where an array's elements are wider than 4 bytes (as the
    // kernel chooses, `chunk.rs`).
    let top_chunks = &plan.shape.top_chunks;
    let chunk = if top_chunks.is_empty() { quote!(1usize) } else { quote!(if true #(&& #rt::elem_size(&*#top_chunks) <= 4)* { 4usize } else { 2usize }) };
    let with_cache = plan
        .shape
        .cached
        .iter()
        .map(|(a, span)| quote!(.cache(#rt::elem_bytes(&#a[..]), #span)))
        .chain(plan.shape.tiles.iter().map(|(a, [x, y, fixed])| quote!(.cache_tile(#rt::elem_bytes(&#a[..]), #x, #y, #fixed))))
        .collect::<Vec<_>>();
    quote! {
        #rt::Geometry::from(#rt::Shape {
            iterations: __acc_total, num_gangs: #num_gangs, vector_length: #vector_length, serial: #serial,
            num_workers: #num_workers, uses_worker: #uses_worker, per_trip: (#per_x, #per_y), group_locals: #group_locals,
            dims: #dims, lean_kernel: #lean, waves: #waves, chunk: #chunk, worker_blocks: #worker_blocks,
        }) #(#with_cache)*
    }
}

/// The lean kernel's name at the launch: its unchecked twin's where the bounds hold.
fn lean_kernel(src: &NestSource, plan: &NestPlan) -> Option<TokenStream> {
    plan.kernels.lean.as_ref()?;
    let lname = format!("{}_lean", src.name);
    Some(match &plan.kernels.lean_unchecked {
        Some(u) => {
            let (uname, answer) = (format!("{}_lean_inb", src.name), bounds_answer(&u.proof.check));
            quote! {{
                #[allow(clippy::all, unused_parens)]
                let __acc_bounded = matches!(#answer, ::core::option::Option::Some((true, _)));
                if __acc_bounded { #uname } else { #lname }
            }}
        }
        None => quote!(#lname),
    })
}

/// The kernel the launch runs: the one without the proved indices' checks where their bounds
/// hold.
fn pick(src: &NestSource, plan: &NestPlan) -> TokenStream {
    let name = src.name;
    let Some(u) = &plan.kernels.unchecked else {
        return quote!(let __acc_name: &str = #name;);
    };
    let uname = format!("{name}_inb");
    // The bounds of the routines the nest calls: acc-build's, for this kernel
    // (`acc_bounds/<kernel>.rs`: `Some(true)` for a name that is not one of the region
    // module's routines it proved, whose twin the unchecked kernel then does not call).
    let check = &u.proof.check;
    let calls = !u.proof.calls.is_empty();
    let file = format!("/acc_bounds/{uname}.rs");
    let check = if calls {
        quote! {
            let __acc_rb: fn(&str, &[::core::option::Option<(usize, usize)>]) -> ::core::option::Option<bool> = include!(concat!(env!("OUT_DIR"), #file));
            #check
        }
    } else {
        quote!(#check)
    };
    let answer = bounds_answer(&check);
    // Where the nest's own indices are bounded but a routine's are not, the unchecked
    // kernel that calls the routines as they are (`<kernel>_inbc`, acc-build's copy of
    // `_inb` before its calls became the twins'; made where it renamed one). Each with
    // the nest's kernel of one point a thread where it has one (`_pt_inb`, `_pt_inbc`),
    // which the launch runs where its grid covers the trips (`Geometry::point_kernel`).
    let pname = plan.kernels.point.as_ref().map(|_| format!("{name}_pt_inb"));
    let point = |suffix: &str| match &pname {
        Some(p) => {
            let p = format!("{p}{suffix}");
            quote!(::core::option::Option::Some(#p))
        }
        None => quote!(::core::option::Option::None),
    };
    let (bounded, checked) = (point(""), point("c"));
    let routines_checked = calls.then(|| {
        let cname = format!("{uname}c");
        quote!(::core::option::Option::Some((true, false)) => (#cname, #checked),)
    });
    quote! {
        #[allow(clippy::all, unused_parens)]
        let (__acc_name, __acc_point): (&str, ::core::option::Option<&'static str>) = match #answer {
            ::core::option::Option::Some((true, true)) => (#uname, #bounded),
            #routines_checked
            _ => (#name, ::core::option::Option::None),
        };
        __acc_geom = __acc_geom.point_kernel(__acc_point);
    }
}
