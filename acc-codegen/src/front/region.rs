//! A region fn read into the model: its parameters (how each reaches the device) and its data
//! plan (the data clause each array gets, after the region's clauses and defaults).
//!
//! A region ([`Region`]) is one or several forms ([`Form`]): the fn itself, a method's free fn of
//! its fields (`method.rs`), or each instance of a generic fn (`generic.rs`); each form has its
//! parameters, its data plan and its loop directives (`directives.rs`), read once here.

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{FnArg, Ident, ItemFn, Pat, Type};

use crate::front::directives::LoopDirectives;
use crate::front::method::{self, Method};
use crate::front::generic;
use crate::front::model::*;
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
    /// Declared `mut` (`mut n: usize`).
    pub mutable: bool,
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

/// The path of a type written as a plain path without generic arguments, or a shared
/// reference to one (`Grid`, `&cfd::Grid`): a value parameter whose index methods the launch
/// can bound (see `lower::bounds::prove_index_method`), which acc-build's scan of the region
/// fn resolves.
pub fn plain_type_path(ty: &Type) -> Option<&syn::Path> {
    let ty = match ty {
        Type::Reference(r) if r.mutability.is_none() => &*r.elem,
        t => t,
    };
    let Type::Path(p) = ty else { return None };
    // (`Self` is the impl's type, which acc-build's copy of the fn writes out.)
    if p.qself.is_some() || p.path.segments.iter().any(|s| !s.arguments.is_none() || s.ident == "Self") {
        return None;
    }
    Some(&p.path)
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
        let (ident, mutable) = match &*typed.pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => (p.ident.clone(), p.mutability.is_some()),
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
            Some((kind, elem)) => out.push(Param { ident, kind, elem, ty, mutable }),
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
            if p.kind == ParamKind::Slice && clause.modifiers.zero {
                errors.error(
                    var.ident.span(),
                    format!("`zero` writes `{}`'s device copy, which on the host backend is the array itself, but it is a read-only `&[T]`; make it `&mut [T]`", crate::front::method::display(&var.ident)),
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


/// A region fn read into the model: its directive, the method it was written as, and its forms
/// (the fn itself, or each instance of a generic fn), each with its parameters, data plan and
/// loop directives.
pub struct Region {
    pub kind: RegionKind,
    pub dir: RegionDirective,
    /// A method's fields, bound before the region (`None`: the fn does not take `self`).
    pub method: Option<Method>,
    /// A generic region's instances (`None`: the fn is not generic); `forms` are theirs.
    pub instances: Option<Vec<generic::Form>>,
    pub forms: Vec<Form>,
}

/// One form of a region: the free fn the region is (a method's, an instance's).
pub struct Form {
    pub f: ItemFn,
    /// Its name (the base of its kernels' names) and how messages name it (`axpy::<f32>`).
    pub name: String,
    pub display: String,
    pub params: Vec<Param>,
    pub plan: Vec<(Param, DataKind, Span)>,
    pub loops: LoopDirectives,
    /// Reading it found errors. Only the first form reports its errors (the instances of a
    /// generic region differ in types only: the first reports what all would).
    pub faulty: bool,
}

impl Region {
    /// Reads region fn `f` (its directive `dir` already parsed): the method as a free fn (the
    /// fields' types from `field_type` where the caller knows them), the instances of a
    /// generic fn, each form's parameters and data plan. `None` when `errors` holds anything
    /// before the forms are read: their parameters would mean nothing.
    pub fn read(kind: RegionKind, dir: RegionDirective, f: &ItemFn, field_type: &dyn Fn(&syn::Member) -> Option<Type>, errors: &mut Errors) -> Option<Region> {
        let method = method::desugar(f, &dir, field_type, errors);
        let free = method.as_ref().map_or_else(|| f.clone(), |m| m.free.clone());
        let instances = generic::instances(&free, &dir, errors);
        if let (Some(_), Some(_)) = (&method, &instances) {
            errors.error(f.sig.generics.span(), "a generic region cannot take `self`: the instances are fns of their own; make it an associated fn that takes the fields it needs");
        }
        if !errors.is_empty() {
            return None;
        }
        let fns: Vec<(ItemFn, String, String)> = match &instances {
            None => vec![(free, f.sig.ident.to_string(), f.sig.ident.to_string())],
            Some(forms) => forms.iter().map(|fm| (fm.f.clone(), fm.f.sig.ident.to_string(), fm.display.clone())).collect(),
        };
        let forms = fns
            .into_iter()
            .enumerate()
            .map(|(i, (f, name, display))| {
                let mut quiet = Errors::default();
                let errs = if i == 0 { &mut *errors } else { &mut quiet };
                let mut form = Form::read(f, name, display, &dir, errs);
                form.faulty = !quiet.is_empty();
                form
            })
            .collect();
        Some(Region { kind, dir, method, instances, forms })
    }
}

impl Form {
    /// Reads the free fn `f` of a region with directive `dir`.
    pub fn read(mut f: ItemFn, name: String, display: String, dir: &RegionDirective, errors: &mut Errors) -> Form {
        let params = params(&f, errors);
        let arrays = params.iter().filter(|p| p.kind == ParamKind::SliceMut).map(|p| p.ident.clone()).collect();
        crate::front::sections::desugar(&mut f, dir, arrays, errors);
        crate::front::force::sink(&mut f, errors);
        let plan = data_plan(dir, &params, errors);
        let loops = LoopDirectives::of(&f.block, dir.kind);
        Form { f, name, display, params, plan, loops, faulty: false }
    }
}
