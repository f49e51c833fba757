//! Compute regions: the fn signature's parameters, the region's data clauses, and the walk over
//! the body that finds `acc::loop`s, `cache!` and `atomic!`, checks them, and lowers them for
//! the host backend (rayon).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, FnArg, Ident, ItemFn, Pat, Type};

use crate::lower::atomic::{self, AtomicForm, Place};
use crate::front::loops::{self, LoopHeader};
use crate::front::model::*;
use crate::front::parse;
use crate::report::Errors;

/// How a parameter reaches the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// `&[T]`: read-only device data (default `copyin`).
    Slice,
    /// `&mut [T]`: read-write device data (default `copy`).
    SliceMut,
    /// `&DeviceSlice<T>`.
    DeviceSlice,
    /// `&mut DeviceSlice<T>`.
    DeviceSliceMut,
    /// A `Copy` value (firstprivate).
    Value,
}

#[derive(Clone)]
pub struct Param {
    pub ident: Ident,
    pub kind: ParamKind,
    /// The element type of slices, the type itself for values.
    pub elem: Type,
    pub ty: Type,
}

/// Whether `path` names an acc item (`acc::name` or plain `name`).
pub fn is_acc_path(path: &syn::Path, name: &str) -> bool {
    let segs: Vec<String> = path.segments.iter().map(|s| s.ident.unraw().to_string()).collect();
    match segs.as_slice() {
        [one] => one == name,
        [acc, one] => acc == "acc" && one == name,
        _ => false,
    }
}

fn device_slice_elem(ty: &Type) -> Option<Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "DeviceSlice" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => match a.args.first()? {
            syn::GenericArgument::Type(t) => Some(t.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Reports a parameter type a region cannot take, on the type, with the nearest supported form.
fn unsupported_param(ty: &Type, errors: &mut Errors) {
    let m = if matches!(ty, Type::Reference(r) if r.mutability.is_some()) { "mut " } else { "" };
    if let Some((span, elem)) = vec_ref(ty) {
        errors.error(
            span,
            format!("an acc region takes arrays as slices: write `&{m}[{elem}]` instead of `&{m}Vec<{elem}>` (a `&{m}Vec` argument derefs to it at the call)"),
        );
        return;
    }
    match ty {
        // `&mut f64`, `&Params`, `&[f32; 3]`: a plain value behind a reference.
        Type::Reference(r) if is_plain_value(&r.elem) => errors.error(
            r.elem.span(),
            format!(
                "an acc region cannot take a reference to a value: pass `{0}` by value (it is copied to every gang), and return results from the region (`-> {0}`, with a `reduction` for a value computed in parallel)",
                r.elem.to_token_stream()
            ),
        ),
        Type::Reference(r) => errors.error(r.elem.span(), UNSUPPORTED_PARAM),
        other => errors.error(other.span(), UNSUPPORTED_PARAM),
    }
}

/// A scalar, a non-generic named type, or an array: what a region takes by value.
fn is_plain_value(ty: &Type) -> bool {
    match ty {
        Type::Array(_) => true,
        Type::Path(p) => p.qself.is_none() && p.path.segments.iter().all(|s| s.arguments.is_none()),
        _ => false,
    }
}

const UNSUPPORTED_PARAM: &str = "unsupported parameter type for an acc region; expected `&[T]`, `&mut [T]`, `&acc::DeviceSlice<T>`, `&mut acc::DeviceSlice<T>` or a `DeviceCopy` value (a scalar, an array or a `#[derive(acc::DeviceCopy)]` struct)";

/// A `&Vec<T>` / `&mut Vec<T>` parameter: the span of `Vec`, and `T` as written.
fn vec_ref(ty: &Type) -> Option<(Span, String)> {
    let Type::Reference(r) = ty else { return None };
    let Type::Path(p) = &*r.elem else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Vec" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &last.arguments else { return None };
    let Some(syn::GenericArgument::Type(t)) = a.args.first() else { return None };
    Some((last.ident.span(), t.to_token_stream().to_string()))
}

/// Classifies the region fn's parameters, reporting unsupported forms.
pub fn params(f: &ItemFn, errors: &mut Errors) -> Vec<Param> {
    let mut out = Vec::new();
    for arg in &f.sig.inputs {
        let typed = match arg {
            FnArg::Receiver(r) => {
                errors.error(r.self_token.span, "an acc region cannot take `self`: make it a free fn and pass the fields it needs");
                continue;
            }
            FnArg::Typed(t) => t,
        };
        let ident = match &*typed.pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.clone(),
            other => {
                errors.error(other.span(), "acc region parameters must be plain names (`a: &[f32]`)");
                continue;
            }
        };
        let ty = (*typed.ty).clone();
        let kind_elem = match &ty {
            Type::Reference(r) => match &*r.elem {
                Type::Slice(s) => Some((
                    if r.mutability.is_some() { ParamKind::SliceMut } else { ParamKind::Slice },
                    (*s.elem).clone(),
                )),
                other => device_slice_elem(other).map(|e| {
                    (
                        if r.mutability.is_some() { ParamKind::DeviceSliceMut } else { ParamKind::DeviceSlice },
                        e,
                    )
                }),
            },
            Type::Slice(_) | Type::TraitObject(_) | Type::ImplTrait(_) | Type::Ptr(_) | Type::BareFn(_) | Type::Never(_) => None,
            other => Some((ParamKind::Value, other.clone())),
        };
        match kind_elem {
            Some((kind, elem)) => out.push(Param { ident, kind, elem, ty }),
            None => unsupported_param(&ty, errors),
        }
    }
    out
}

/// The data clause each slice parameter gets, after the region's clauses and defaults.
pub fn data_plan(
    dir: &RegionDirective,
    params: &[Param],
    errors: &mut Errors,
) -> Vec<(Param, DataKind, Span)> {
    let mut assigned: Vec<(Ident, DataKind, Span)> = Vec::new();
    for clause in &dir.clauses.data {
        for var in &clause.vars {
            let Some(p) = params.iter().find(|p| p.ident == var.ident) else {
                errors.error(
                    var.ident.span(),
                    format!(
                        "`{}` is not a parameter of this region; a region's data clauses name its slice parameters (use `acc::data!` for other variables)",
                        crate::front::method::display(&var.ident)
                    ),
                );
                continue;
            };
            if p.kind == ParamKind::Value {
                errors.error(
                    var.ident.span(),
                    format!("`{}` is passed by value (a firstprivate copy); data clauses name slices `&[T]` / `&mut [T]`", crate::front::method::display(&var.ident)),
                );
                continue;
            }
            if let Some(prev) = assigned.iter().find(|a| a.0 == var.ident) {
                errors.error(
                    var.ident.span(),
                    format!("`{}` already appears in a `{}` clause", crate::front::method::display(&var.ident), prev.1.name()),
                );
                continue;
            }
            let is_device = matches!(p.kind, ParamKind::DeviceSlice | ParamKind::DeviceSliceMut);
            if is_device && clause.kind != DataKind::DevicePtr {
                errors.error(
                    var.ident.span(),
                    format!("`{}` is a `DeviceSlice`, which lives on the device; name it in `deviceptr` or in no clause", var.ident),
                );
                continue;
            }
            if !is_device && clause.kind == DataKind::DevicePtr {
                errors.error(
                    var.ident.span(),
                    format!("`deviceptr` names `acc::DeviceSlice` parameters; `{}` is host data", var.ident),
                );
                continue;
            }
            if p.kind == ParamKind::Slice && matches!(clause.kind, DataKind::Copy | DataKind::CopyOut) {
                errors.error(
                    clause.span,
                    if var.ident.to_string().starts_with(crate::front::method::FIELD_PREFIX) {
                        format!("`{}` writes `{}` back to the host, but the method takes `&self`; take `&mut self`, or use `copyin`", clause.kind.name(), crate::front::method::display(&var.ident))
                    } else {
                        format!("`{}` writes `{}` back to the host, but it is a read-only `&[T]`; make it `&mut [T]` or use `copyin`", clause.kind.name(), var.ident)
                    },
                );
                continue;
            }
            assigned.push((var.ident.clone(), clause.kind, var.ident.span()));
        }
    }
    let mut plan = Vec::new();
    for p in params {
        if p.kind == ParamKind::Value {
            continue;
        }
        if let Some(a) = assigned.iter().find(|a| a.0 == p.ident) {
            plan.push((p.clone(), a.1, a.2));
            continue;
        }
        // A `private`/`firstprivate` parameter has its data attribute (also under
        // `default(none)`); its original is read at most, never written back.
        let privatised = dir.clauses.private.iter().chain(&dir.clauses.firstprivate).any(|id| id == &p.ident);
        if privatised && matches!(p.kind, ParamKind::Slice | ParamKind::SliceMut) {
            plan.push((p.clone(), DataKind::CopyIn, p.ident.span()));
            continue;
        }
        let kind = match (p.kind, dir.clauses.default) {
            (ParamKind::DeviceSlice | ParamKind::DeviceSliceMut, _) => DataKind::DevicePtr,
            (_, Some((DefaultKind::Present, _))) => DataKind::Present,
            (_, Some((DefaultKind::None, _))) => {
                errors.push(syn::Error::new(
                    p.ident.span(),
                    format!(
                        "`{0}` is in no data clause, and the region says `default(none)`: name it, as in `{1}({0})`",
                        crate::front::method::display(&p.ident),
                        if p.kind == ParamKind::Slice { "copyin" } else { "copy" }
                    ),
                ));
                continue;
            }
            (ParamKind::Slice, None) => DataKind::CopyIn,
            _ => DataKind::Copy,
        };
        plan.push((p.clone(), kind, p.ident.span()));
    }
    plan
}

/// The span of a macro's name (`cache` in `acc::cache!`).
fn macro_name_span(m: &syn::Macro) -> Span {
    m.path.segments.last().map_or_else(|| m.path.span(), |s| s.ident.span())
}

/// Names bound by a pattern.
pub fn pat_idents(p: &Pat, out: &mut Vec<String>) {
    struct V<'a>(&'a mut Vec<String>);
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_pat_ident(&mut self, i: &'ast syn::PatIdent) {
            self.0.push(i.ident.to_string());
            syn::visit::visit_pat_ident(self, i);
        }
    }
    V(out).visit_pat(p);
}

/// Every name bound anywhere inside a block (lets, loop patterns, closure parameters).
pub fn inner_decls(b: &syn::Block) -> Vec<String> {
    struct V(Vec<String>);
    impl<'ast> Visit<'ast> for V {
        fn visit_pat(&mut self, p: &'ast Pat) {
            pat_idents(p, &mut self.0);
        }
    }
    let mut v = V(Vec::new());
    v.visit_block(b);
    v.0
}

/// Finds the acc loop attribute of a `for` loop, removing it.
pub fn take_loop_attr(attrs: &mut Vec<syn::Attribute>) -> Option<syn::Attribute> {
    let pos = attrs.iter().position(|a| is_acc_path(a.path(), "loop"))?;
    Some(attrs.remove(pos))
}

fn attr_tokens(a: &syn::Attribute) -> TokenStream {
    match &a.meta {
        syn::Meta::Path(_) => TokenStream::new(),
        syn::Meta::List(l) => l.tokens.clone(),
        syn::Meta::NameValue(nv) => nv.value.to_token_stream(),
    }
}

/// Parses and checks a loop directive in its context; returns the directive.
pub fn loop_directive_of(attr: &syn::Attribute, kind: RegionKind, errors: &mut Errors) -> LoopDirective {
    if let syn::Meta::NameValue(nv) = &attr.meta {
        errors.error(nv.eq_token.span, "write `#[acc::r#loop(clauses)]`");
    }
    let d = parse::loop_directive(attr.path().segments.last().unwrap().ident.span(), attr_tokens(attr), errors);
    if let Some(seq) = d.seq {
        for (name, present) in [
            ("gang", d.gang.is_some()),
            ("worker", d.worker.is_some()),
            ("vector", d.vector.is_some()),
            ("independent", d.independent.is_some()),
            ("auto", d.auto.is_some()),
        ] {
            if present {
                errors.error(seq, format!("`seq` cannot be combined with `{name}`: a sequential loop has no parallel level"));
            }
        }
    }
    if let (Some(auto), Some(_)) = (d.auto, d.independent) {
        errors.error(auto, "`auto` and `independent` contradict each other: `auto` asks the compiler to decide");
    }
    if kind != RegionKind::Kernels {
        for lvl in [&d.gang, &d.worker, &d.vector].into_iter().flatten() {
            if lvl.dim.is_some() {
                errors.error(lvl.span, "`gang(dim: ..)` is allowed only in `kernels` regions");
            } else if lvl.size.is_some() {
                errors.error(
                    lvl.span,
                    format!(
                        "a level size is allowed only in `kernels` regions; in `{}` set it on the region (`num_gangs`, `num_workers`, `vector_length`)",
                        kind.name()
                    ),
                );
            }
        }
    }
    if let (Some((span, _)), Some(_)) = (&d.tile, &d.collapse) {
        errors.error(*span, "`tile` and `collapse` cannot be combined on one loop");
    }
    d
}

/// The innermost level (gang 0, worker 1, vector 2) a directive names, and its outermost.
fn levels(d: &LoopDirective) -> Option<(u8, u8, Span)> {
    let named: Vec<(u8, Span)> = [(0u8, &d.gang), (1, &d.worker), (2, &d.vector)]
        .into_iter()
        .filter_map(|(l, c)| c.as_ref().map(|c| (l, c.span)))
        .collect();
    let first = named.first()?;
    let last = named.last()?;
    Some((first.0, last.0, first.1))
}

const LEVEL_NAMES: [&str; 3] = ["gang", "worker", "vector"];

/// A host-parallel loop being lowered: what its iterations share and how.
#[derive(Default)]
struct ParFrame {
    scope_base: usize,
    reductions: Vec<(RedOp, Span, Ident)>,
    privates: Vec<Ident>,
    shadow_arrays: Vec<Ident>,
    atomic_scalars: Vec<Ident>,
    assigned_outer: Vec<Ident>,
}

/// Walks a region body, checks its directives and lowers it for the host backend.
pub struct HostLowerer<'a> {
    pub kind: RegionKind,
    pub region_reductions: Vec<(RedOp, Span, Ident)>,
    pub region_privates: Vec<Ident>,
    pub param_kinds: Vec<(Ident, ParamKind)>,
    scopes: Vec<Vec<String>>,
    frames: Vec<ParFrame>,
    /// The innermost level of every enclosing non-`seq` acc loop.
    levels: Vec<(u8, Span)>,
    /// Whether the walk is inside any acc loop (for `cache!`).
    loop_depth: usize,
    pub errors: &'a mut Errors,
    tag: usize,
    /// `true` inside a routine: acc loops there are routine-level loops.
    pub routine: Option<RoutineLevel>,
}

impl<'a> HostLowerer<'a> {
    pub fn new(kind: RegionKind, params: &[Param], errors: &'a mut Errors) -> Self {
        HostLowerer {
            kind,
            region_reductions: Vec::new(),
            region_privates: Vec::new(),
            param_kinds: params.iter().map(|p| (p.ident.clone(), p.kind)).collect(),
            scopes: vec![params.iter().map(|p| p.ident.to_string()).collect()],
            frames: Vec::new(),
            levels: Vec::new(),
            loop_depth: 0,
            errors,
            tag: 0,
            routine: None,
        }
    }

    pub fn with_params(mut self, names: Vec<String>) -> Self {
        self.scopes = vec![names];
        self
    }

    fn declared(&self, name: &Ident) -> bool {
        self.scopes.iter().any(|s| s.iter().any(|n| name == n))
    }

    /// Whether `name` is bound outside the current host-parallel loop.
    fn outside_frame(&self, name: &Ident) -> bool {
        let Some(frame) = self.frames.last() else { return false };
        for (depth, scope) in self.scopes.iter().enumerate().rev() {
            if scope.iter().any(|n| name == n) {
                return depth < frame.scope_base;
            }
        }
        // Not bound in the region at all (a static or const): never shadow it.
        false
    }

    fn bind(&mut self, names: Vec<String>) {
        self.scopes.last_mut().expect("scope").extend(names);
    }

    /// Reports the names in `ids` that are not in scope (the loop's own variables `skip` are
    /// reported elsewhere); returns whether all were.
    fn check_declared(&mut self, ids: &[Ident], skip: &[String], what: &str) -> bool {
        let mut all = true;
        for id in ids {
            if !self.declared(id) && !skip.iter().any(|s| id == s) {
                all = false;
                self.errors.error(
                    id.span(),
                    format!("{what} `{id}` is not declared before this loop: declare it with `let mut {id} = ..;` in the region"),
                );
            }
        }
        all
    }

    /// The `acc::cache!`/`acc::atomic!` macro a statement or expression holds.
    fn acc_macro(m: &syn::Macro) -> Option<&'static str> {
        if is_acc_path(&m.path, "atomic") {
            Some("atomic")
        } else if is_acc_path(&m.path, "cache") {
            Some("cache")
        } else {
            None
        }
    }

    fn lower_macro(&mut self, m: &syn::Macro, first_in_loop_body: bool) -> Option<Expr> {
        match Self::acc_macro(m)? {
            "cache" => {
                if let Err(e) = crate::front::cache::parse(m.tokens.clone()) {
                    self.errors.push(e);
                } else if self.loop_depth == 0 {
                    self.errors.error(macro_name_span(m), "`acc::cache!` belongs at the top of an `acc::loop` body");
                } else if !first_in_loop_body {
                    self.errors.error(macro_name_span(m), "`acc::cache!` must be the first statement of the loop body: it stages the window before the iteration uses it");
                }
                Some(syn::parse_quote!(()))
            }
            _ => {
                let form: AtomicForm = match syn::parse2(m.tokens.clone()) {
                    Ok(f) => f,
                    Err(e) => {
                        self.errors.push(e);
                        return Some(syn::parse_quote!(()));
                    }
                };
                let base = form.place().base().clone();
                let base_span = base.span();
                let shared = self.outside_frame(&base);
                let tokens = if shared {
                    let frame = self.frames.last_mut().unwrap();
                    match form.place() {
                        Place::Scalar(_) => {
                            if !frame.atomic_scalars.contains(&base) {
                                frame.atomic_scalars.push(base);
                            }
                        }
                        Place::Element { .. } => {
                            if !frame.shadow_arrays.contains(&base) {
                                frame.shadow_arrays.push(base);
                            }
                        }
                    }
                    // Spanned on the place, whose type decides whether the operation exists.
                    atomic::expand_shared(&form, base_span)
                } else {
                    atomic::expand_plain(&form)
                };
                Some(syn::parse2(tokens).expect("atomic expansion parses"))
            }
        }
    }

    fn note_assignment(&mut self, place: &Expr) {
        if self.frames.is_empty() {
            return;
        }
        // `a[i] = ..` and `a[i].x = ..` write an element of array `a`; `x = ..` and `x.f = ..`
        // assign the variable `x`.
        match loops::place_root(place) {
            Some((base, true)) => {
                if self.outside_frame(base) {
                    let frame = self.frames.last_mut().unwrap();
                    if !frame.shadow_arrays.contains(base) && !frame.privates.contains(base) {
                        frame.shadow_arrays.push(base.clone());
                    }
                }
            }
            Some((id, false)) => {
                if self.outside_frame(id) {
                    self.frames.last_mut().unwrap().assigned_outer.push(id.clone());
                }
            }
            None => {}
        }
    }

    /// Checks the forbidden control flow of a parallel loop body.
    fn check_control_flow(&mut self, body: &syn::Block) {
        struct V<'e> {
            errors: &'e mut Errors,
            depth: usize,
        }
        impl<'ast> Visit<'ast> for V<'_> {
            fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
            fn visit_item(&mut self, _: &'ast syn::Item) {}
            fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
                self.visit_expr(&f.expr);
                self.depth += 1;
                self.visit_block(&f.body);
                self.depth -= 1;
            }
            fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
                self.visit_expr(&w.cond);
                self.depth += 1;
                self.visit_block(&w.body);
                self.depth -= 1;
            }
            fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
                self.depth += 1;
                self.visit_block(&l.body);
                self.depth -= 1;
            }
            fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
                if self.depth == 0 || b.label.is_some() {
                    self.errors.error(b.break_token.span, "`break` cannot leave a parallel acc loop: its iterations run independently (use `seq`, or a `while` loop outside the region)");
                }
            }
            fn visit_expr_continue(&mut self, c: &'ast syn::ExprContinue) {
                if c.label.is_some() && self.depth > 0 {
                    self.errors.error(c.continue_token.span, "a labelled `continue` cannot target a loop outside the acc loop body");
                }
            }
            fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
                self.errors.error(r.return_token.span, "`return` cannot leave a parallel acc loop: its iterations run independently");
            }
            fn visit_expr_try(&mut self, t: &'ast syn::ExprTry) {
                self.errors.error(t.question_token.span, "`?` cannot leave a parallel acc loop: its iterations run independently");
            }
        }
        V { errors: self.errors, depth: 0 }.visit_block(body);
    }

    /// Gathers the `collapse(n)` / `tile(..)` nest under `f`.
    fn nest(&mut self, f: &ExprForLoop, depth: usize, clause_span: Span) -> Option<Vec<LoopHeader>> {
        let mut headers = Vec::new();
        let mut cur = f;
        for level in 0..depth {
            match LoopHeader::parse(cur) {
                Ok(h) => headers.push(h),
                Err(e) => {
                    self.errors.push(e);
                    return None;
                }
            }
            if level + 1 == depth {
                break;
            }
            match loops::only_inner_loop(&cur.body) {
                Some(inner) => {
                    if let Some(a) = inner.attrs.iter().find(|a| is_acc_path(a.path(), "loop")) {
                        self.errors.error(a.path().span(), "a loop inside `collapse`/`tile` takes its schedule from the outer directive; remove this `acc::loop`");
                    }
                    cur = inner;
                }
                None => {
                    self.errors.error(
                        clause_span,
                        format!("`collapse`/`tile` of {depth} loops needs {depth} tightly nested `for` loops, but the loop body at depth {} is not a single `for` loop", level + 1),
                    );
                    return None;
                }
            }
        }
        for (i, h) in headers.iter().enumerate() {
            for outer in &headers[..i] {
                if h.mentions(&outer.var) {
                    self.errors.error(
                        h.span,
                        format!("the bounds of a collapsed loop cannot depend on the outer loop variable `{}`", outer.var),
                    );
                    return None;
                }
            }
        }
        Some(headers)
    }

    fn lower_loop(&mut self, mut f: ExprForLoop, attr: syn::Attribute) -> Expr {
        let d = loop_directive_of(&attr, self.kind, self.errors);
        let attr_span = attr.path().segments.last().unwrap().ident.span();
        // Level nesting: gang outside worker outside vector. `kernels` regions also have the
        // multi-dimensional schedules (gv-gv, g-gv-v, ...: DESIGN §4.2), where each loop of a
        // nest takes a dimension of the same levels.
        if let Some((outer_lvl, _, span)) = levels(&d) {
            if let Some(&(enclosing, _)) = self.levels.last() {
                if outer_lvl <= enclosing && self.kind != RegionKind::Kernels {
                    self.errors.error(
                        span,
                        format!(
                            "a `{}` loop cannot be nested inside a `{}` loop: the levels nest gang > worker > vector",
                            LEVEL_NAMES[outer_lvl as usize], LEVEL_NAMES[enclosing as usize]
                        ),
                    );
                }
            }
            if let Some(RoutineLevel::Seq) = self.routine {
                self.errors.error(span, "a `routine(seq)` cannot contain a parallel loop level");
            }
        }
        // The loop variables of the nest: a clause naming one gets its own error below.
        let mut loop_vars = Vec::new();
        let mut cur = Some(&f);
        while let Some(l) = cur {
            pat_idents(&l.pat, &mut loop_vars);
            cur = loops::only_inner_loop(&l.body);
        }
        let reductions_declared = self.check_declared(
            &d.reduction.iter().flat_map(|r| r.vars.clone()).collect::<Vec<_>>(),
            &loop_vars,
            "reduction variable",
        );
        self.check_declared(&d.private, &loop_vars, "private variable");
        let depth = d.depth();
        let clause_span = d.collapse.map(|c| c.0).or(d.tile.as_ref().map(|t| t.0)).unwrap_or(attr_span);
        let Some(headers) = self.nest(&f, depth, clause_span) else {
            self.visit_block_mut(&mut f.body);
            return Expr::ForLoop(f);
        };
        for r in &d.reduction {
            for v in &r.vars {
                if headers.iter().any(|h| &h.var == v) {
                    self.errors.error(v.span(), format!("the loop variable `{v}` cannot be a reduction variable"));
                }
            }
        }
        if d.seq.is_none() {
            self.check_control_flow(&f.body);
        }

        // Decide how the host runs it.
        let parallel = self.frames.is_empty()
            && d.seq.is_none()
            && self.kind != RegionKind::Serial
            && self.routine.is_none()
            && loops::dependence_of(&f, &d, self.kind, &d.reduction_vars()).is_none();

        if !parallel && !self.frames.is_empty() {
            // A reduction on a loop nested in the host-parallel loop, of a variable declared
            // outside that loop, is a reduction of the parallel loop too.
            for r in &d.reduction {
                for v in &r.vars {
                    if self.outside_frame(v) {
                        let frame = self.frames.last_mut().unwrap();
                        match frame.reductions.iter().find(|x| &x.2 == v) {
                            Some(x) if x.0 != r.op => self.errors.error(
                                r.op_span,
                                format!("`{v}` is reduced with `{}` here and with `{}` on an enclosing loop", r.op.symbol(), x.0.symbol()),
                            ),
                            Some(_) => {}
                            None => frame.reductions.push((r.op, r.op_span, v.clone())),
                        }
                    }
                }
            }
            // Likewise a `private` variable declared outside the parallel loop: each iteration
            // of the parallel loop gets its copy, which the nested loop's iterations (run in
            // order) share.
            for p in &d.private {
                if self.outside_frame(p) {
                    let frame = self.frames.last_mut().unwrap();
                    if !frame.privates.contains(p) {
                        frame.privates.push(p.clone());
                    }
                }
            }
        }
        let level = levels(&d).map(|(_, inner, span)| (inner, span));
        if let Some(l) = level {
            self.levels.push(l);
        }
        self.loop_depth += 1;
        let out = if parallel {
            let reductions_known = reductions_declared && !d.malformed_reduction;
            self.lower_parallel(f, &d, headers, reductions_known)
        } else {
            self.lower_sequential(f)
        };
        self.loop_depth -= 1;
        if level.is_some() {
            self.levels.pop();
        }
        out
    }

    /// Reductions and privates of a loop run in order have the plain Rust meaning.
    fn lower_sequential(&mut self, mut f: ExprForLoop) -> Expr {
        self.scopes.push(Vec::new());
        let mut names = Vec::new();
        pat_idents(&f.pat, &mut names);
        self.bind(names);
        self.visit_loop_body(&mut f.body);
        self.scopes.pop();
        Expr::ForLoop(f)
    }

    /// Visits a loop body, allowing `cache!` as its first statement.
    fn visit_loop_body(&mut self, body: &mut syn::Block) {
        self.scopes.push(Vec::new());
        for (i, stmt) in body.stmts.iter_mut().enumerate() {
            self.visit_stmt_at(stmt, i == 0);
        }
        self.scopes.pop();
    }

    /// `reductions_known`: false when the loop's reduction clause has an error of its own, so
    /// that outer variables it meant to reduce are not reported as unreduced again.
    fn lower_parallel(&mut self, f: ExprForLoop, d: &LoopDirective, headers: Vec<LoopHeader>, reductions_known: bool) -> Expr {
        let rt = quote!(::acc::__private);
        let mut frame = ParFrame { scope_base: self.scopes.len(), ..ParFrame::default() };
        for r in &d.reduction {
            for v in &r.vars {
                frame.reductions.push((r.op, r.op_span, v.clone()));
            }
        }
        frame.privates.extend(d.private.iter().cloned());
        frame.privates.extend(self.region_privates.iter().cloned());
        self.frames.push(frame);
        self.scopes.push(headers.iter().map(|h| h.var.to_string()).collect());

        // The innermost body of the nest.
        let mut body_loop = f;
        for _ in 1..headers.len() {
            body_loop = loops::only_inner_loop(&body_loop.body).expect("checked nest").clone();
        }
        let mut body = body_loop.body;
        self.visit_loop_body(&mut body);

        self.scopes.pop();
        let mut frame = self.frames.pop().unwrap();
        // Outer scalars assigned in the loop must be reductions, privates or atomics.
        for id in std::mem::take(&mut frame.assigned_outer) {
            let known = frame.reductions.iter().any(|r| r.2 == id)
                || frame.privates.contains(&id)
                || frame.atomic_scalars.contains(&id);
            if known {
                continue;
            }
            if let Some(r) = self.region_reductions.iter().find(|r| r.2 == id) {
                frame.reductions.push(r.clone());
                continue;
            }
            if !reductions_known {
                continue;
            }
            self.errors.error(
                id.span(),
                format!("`{id}` is assigned in a parallel loop but declared outside it: name it in `reduction(op: {id})` or `private({id})`, use `acc::atomic!`, or declare it inside the loop"),
            );
        }
        frame.shadow_arrays.retain(|a| !frame.privates.contains(a) && !frame.reductions.iter().any(|r| &r.2 == a));

        // Normalise the nest.
        self.tag += 1;
        let loops::NestSpace { setup, total, bind: bind_vars } = loops::normalise_nest(&headers, self.tag, &rt);
        let k = format_ident!("__acc_k");

        let mut shadows = TokenStream::new();
        // Per chunk: copies of the slices into locals (kept in registers for the chunk).
        let mut per_chunk = TokenStream::new();
        let mut per_iter = TokenStream::new();
        for a in &frame.shadow_arrays {
            shadows.extend(quote_spanned!(a.span()=> let #a = #rt::SharedMut::new(&mut #a[..]);));
            per_chunk.extend(quote!(#[allow(unused_mut)] let mut #a = #a;));
        }
        for (p, kind) in &self.param_kinds {
            let shadowed = frame.shadow_arrays.contains(p) || frame.privates.contains(p);
            let used = loops::block_mentions(&body, p);
            if shadowed || !used {
                continue;
            }
            match kind {
                // (Unused when the body only mentions a local of the same name.)
                ParamKind::Slice => per_chunk.extend(quote!(#[allow(unused_variables)] let #p = #p;)),
                ParamKind::SliceMut => per_chunk.extend(quote!(#[allow(unused_variables)] let #p = &*#p;)),
                _ => {}
            }
        }
        for x in &frame.atomic_scalars {
            shadows.extend(quote_spanned!(x.span()=> let #x = ::acc::__private::AtomicRef::new(&mut #x);));
        }
        for p in &frame.privates {
            let is_slice = self.param_kinds.iter().any(|(n, k)| n == p && matches!(k, ParamKind::Slice | ParamKind::SliceMut));
            if is_slice {
                let buf = format_ident!("__acc_private_{}", p);
                per_iter.extend(quote!(#[allow(unused_mut)] let mut #buf = #p.to_vec(); #[allow(unused_variables)] let #p = &mut #buf[..];));
            } else {
                per_iter.extend(quote!(#[allow(unused_mut)] let mut #p = ::core::clone::Clone::clone(&#p);));
            }
        }
        let body_stmts = &body.stmts;
        let iteration = quote! {
            for #k in __acc_range {
                #per_iter
                #bind_vars
                #[allow(clippy::never_loop)]
                for _ in ::core::iter::once(()) { #(#body_stmts)* }
            }
        };

        let tokens = if frame.reductions.is_empty() {
            quote! {{
                #setup
                #shadows
                #rt::par_for_chunks(#total, |__acc_range: ::core::ops::Range<usize>| { #per_chunk #iteration });
            }}
        } else {
            let vars: Vec<&Ident> = frame.reductions.iter().map(|r| &r.2).collect();
            let ops: Vec<TokenStream> = frame
                .reductions
                .iter()
                .map(|(op, span, _)| {
                    let ty = Ident::new(op.type_name(), *span);
                    quote_spanned!(*span=> #rt::reduce::#ty)
                })
                .collect();
            let idx: Vec<syn::Index> = (0..vars.len()).map(syn::Index::from).collect();
            // Every use of an operator is spanned on its variable, so that a type without the
            // operator is reported once, there.
            let identities = vars.iter().zip(&ops).map(|(v, op)| quote_spanned!(v.span()=> #op.identity(&#v)));
            // The generated names keep the call-site span (hygiene: the user's variable may come
            // from a `macro_rules!` expansion, where `__acc_a` spanned on it would not resolve).
            let combines = vars.iter().zip(&ops).zip(&idx).map(|((v, op), i)| {
                let (a, b) = (quote!(__acc_a.#i), quote!(__acc_b.#i));
                quote_spanned!(v.span()=> #op.combine(#a, #b))
            });
            let finals = vars.iter().zip(&ops).zip(&idx).map(|((v, op), i)| {
                let red = quote!(__acc_red.#i);
                quote_spanned!(v.span()=> #v = #op.combine(#v, #red);)
            });
            quote! {{
                #setup
                #shadows
                let __acc_red = #rt::par_reduce_chunks(
                    #total,
                    || (#(#identities,)*),
                    |(#(mut #vars,)*), __acc_range: ::core::ops::Range<usize>| { #per_chunk #iteration (#(#vars,)*) },
                    |__acc_a, __acc_b| (#(#combines,)*),
                );
                #(#finals)*
            }}
        };
        match syn::parse2(tokens.clone()) {
            Ok(e) => e,
            Err(e) => panic!("acc internal error: the lowered loop does not parse ({e}):\n{tokens}"),
        }
    }

    fn visit_stmt_at(&mut self, stmt: &mut syn::Stmt, first_in_loop_body: bool) {
        match stmt {
            syn::Stmt::Local(local) => {
                if let Some(init) = &mut local.init {
                    self.visit_expr_mut(&mut init.expr);
                    if let Some((_, diverge)) = &mut init.diverge {
                        self.visit_expr_mut(diverge);
                    }
                }
                let mut names = Vec::new();
                pat_idents(&local.pat, &mut names);
                self.bind(names);
            }
            syn::Stmt::Macro(m) => {
                if let Some(e) = self.lower_macro(&m.mac, first_in_loop_body) {
                    let semi = m.semi_token.or_else(|| Some(Default::default()));
                    *stmt = syn::Stmt::Expr(e, semi);
                }
            }
            syn::Stmt::Expr(Expr::Macro(m), semi) => {
                if let Some(e) = self.lower_macro(&m.mac, first_in_loop_body) {
                    *stmt = syn::Stmt::Expr(e, *semi);
                }
            }
            syn::Stmt::Expr(e, _) => self.visit_expr_mut(e),
            syn::Stmt::Item(_) => {}
        }
    }
}

impl VisitMut for HostLowerer<'_> {
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        self.scopes.push(Vec::new());
        for stmt in &mut b.stmts {
            self.visit_stmt_at(stmt, false);
        }
        self.scopes.pop();
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    fn visit_expr_closure_mut(&mut self, c: &mut syn::ExprClosure) {
        self.scopes.push(Vec::new());
        let mut names = Vec::new();
        for p in &c.inputs {
            pat_idents(p, &mut names);
        }
        self.bind(names);
        self.visit_expr_mut(&mut c.body);
        self.scopes.pop();
    }

    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        let mut names = Vec::new();
        pat_idents(&arm.pat, &mut names);
        self.scopes.push(names);
        if let Some((_, g)) = &mut arm.guard {
            self.visit_expr_mut(g);
        }
        self.visit_expr_mut(&mut arm.body);
        self.scopes.pop();
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        match e {
            Expr::ForLoop(f) => {
                if let Some(attr) = take_loop_attr(&mut f.attrs) {
                    if let Some(second) = f.attrs.iter().find(|a| is_acc_path(a.path(), "loop")) {
                        self.errors.error(
                            second.path().segments.last().unwrap().ident.span(),
                            "a loop takes one `#[acc::r#loop(..)]`: write all of its clauses in the first",
                        );
                    }
                    let taken = std::mem::replace(f, syn::parse_quote!(for _ in 0..0 {}));
                    *e = self.lower_loop(taken, attr);
                } else if self.kind == RegionKind::Kernels && self.frames.is_empty() && self.levels.is_empty() && self.loop_depth == 0 {
                    // A bare loop nest of a kernels region is an `auto` loop.
                    let taken = std::mem::replace(f, syn::parse_quote!(for _ in 0..0 {}));
                    let attr: syn::Attribute = syn::parse_quote!(#[acc::r#loop(auto)]);
                    if LoopHeader::parse(&taken).is_ok() {
                        *e = self.lower_loop(taken, attr);
                    } else {
                        *e = Expr::ForLoop(taken);
                        if let Expr::ForLoop(f) = e {
                            self.visit_expr_mut(&mut f.expr);
                            self.visit_loop_body(&mut f.body);
                        }
                    }
                } else {
                    self.visit_expr_mut(&mut f.expr);
                    self.scopes.push(Vec::new());
                    let mut names = Vec::new();
                    pat_idents(&f.pat, &mut names);
                    self.bind(names);
                    self.visit_block_mut(&mut f.body);
                    self.scopes.pop();
                }
            }
            Expr::Macro(m) => {
                if let Some(new) = self.lower_macro(&m.mac, false) {
                    *e = new;
                }
            }
            Expr::Assign(a) => {
                self.visit_expr_mut(&mut a.right);
                self.visit_expr_mut(&mut a.left);
                let left = (*a.left).clone();
                self.note_assignment(&left);
            }
            Expr::Binary(b) if loops::is_compound_assign(&b.op) => {
                self.visit_expr_mut(&mut b.right);
                self.visit_expr_mut(&mut b.left);
                let left = (*b.left).clone();
                self.note_assignment(&left);
            }
            // `&mut a[i]` may write the element (`*r = ..`, `core::mem::swap(&mut a[i], ..)`).
            Expr::Reference(r) if r.mutability.is_some() => {
                self.visit_expr_mut(&mut r.expr);
                let place = (*r.expr).clone();
                self.note_assignment(&place);
            }
            Expr::Let(l) => {
                self.visit_expr_mut(&mut l.expr);
                let mut names = Vec::new();
                pat_idents(&l.pat, &mut names);
                self.bind(names);
            }
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
        // In a parallel loop a written array is a `SharedMut` (an `IndexMut` of its own).
        loops::index_first(e, |_| true);
    }
}
