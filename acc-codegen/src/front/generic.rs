//! Generic regions: a region with type or const parameters names its instances in its
//! `instances(..)` clause (`instances(f32, f64)`, `instances(<f32, u32>, <f64, u64>)`), and each
//! instance is a region of its own: the fn with the parameters replaced by the instance's
//! arguments, named `<fn>__<arguments>`, with its own kernels. The user names the instances
//! because the build helper cannot see which ones the program uses: that takes type inference
//! (`axpy(2.0, &x, &mut y)` says nothing of `T` by itself), which only rustc has.
//!
//! The generic fn dispatches on its arguments' types: the instance whose arguments are the
//! call's runs (on either backend, so host and GPU run the same code); a call with other
//! arguments panics naming the region and the missing instance. Generic routines need none of
//! this: they are carried to the device crate as they are, and rustc instantiates them for the
//! regions that call them.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::spanned::Spanned;
use syn::{GenericArgument, GenericParam, ItemFn};

use crate::front::model::{Instance, RegionDirective};
use crate::report::Errors;

/// One instance of a generic region.
pub struct Form {
    /// The fn with the instance's arguments in place of its parameters (lifetimes kept).
    pub f: ItemFn,
    /// How messages name it: `axpy::<f32>`.
    pub display: String,
    pub instance: Instance,
}

/// The type and const parameters of `f` (its lifetimes are not instantiated).
fn params(f: &ItemFn) -> Vec<&GenericParam> {
    f.sig.generics.params.iter().filter(|p| !matches!(p, GenericParam::Lifetime(_))).collect()
}

fn param_ident(p: &GenericParam) -> &Ident {
    match p {
        GenericParam::Type(t) => &t.ident,
        GenericParam::Const(c) => &c.ident,
        GenericParam::Lifetime(l) => &l.lifetime.ident,
    }
}

/// The name of an instance's fn and kernels: `axpy__f32`, `pair__f64_u32`.
pub fn instance_name(name: &str, args: &[GenericArgument]) -> String {
    let mut s = format!("{name}__");
    let mut last_sep = true;
    for (i, a) in args.iter().enumerate() {
        if i > 0 && !last_sep {
            s.push('_');
            last_sep = true;
        }
        for ch in a.to_token_stream().to_string().chars() {
            if ch.is_ascii_alphanumeric() {
                s.push(ch);
                last_sep = false;
            } else if !last_sep {
                s.push('_');
                last_sep = true;
            }
        }
    }
    s.trim_end_matches('_').to_string()
}

/// The instances of region `f`, or `None` when it has no type or const parameters (then an
/// `instances` clause is an error).
pub fn instances(f: &ItemFn, dir: &RegionDirective, errors: &mut Errors) -> Option<Vec<Form>> {
    let ps = params(f);
    let Some(first) = ps.first() else {
        if let Some((span, _)) = &dir.clauses.instances {
            errors.error(*span, "`instances` names the instances of a generic region; this region has no type or const parameters");
        }
        return None;
    };
    let Some((_, list)) = &dir.clauses.instances else {
        errors.error(
            first.span(),
            format!(
                "a generic region names the instances the program uses, each compiled to its own kernels: add `instances({})` to the region's clauses (`<A, B>` for each instance of several parameters)",
                if ps.len() == 1 { "f32, f64".to_string() } else { format!("<{}>", ps.iter().map(|p| param_ident(p).to_string()).collect::<Vec<_>>().join(", ")) }
            ),
        );
        return Some(Vec::new());
    };
    // The instances are fns nested in the generic one: they cannot name its `Self`.
    if let Some(span) = self_type_token(quote!(#f)) {
        errors.error(span, "a generic region's instances are fns of their own, which cannot name the `impl`'s `Self`: write the type's name");
        return Some(Vec::new());
    }
    let mut forms = Vec::new();
    for inst in list {
        if inst.args.len() != ps.len() {
            errors.error(inst.span, format!("this instance has {} generic argument(s), and the region has {} type or const parameter(s)", inst.args.len(), ps.len()));
            continue;
        }
        let name = instance_name(&f.sig.ident.to_string(), &inst.args);
        if forms.iter().any(|fm: &Form| fm.f.sig.ident == name) {
            errors.error(inst.span, "this instance is listed twice");
            continue;
        }
        let subst: Vec<(String, TokenStream, bool)> = ps
            .iter()
            .zip(&inst.args)
            .map(|(p, a)| (param_ident(p).to_string(), a.to_token_stream(), matches!(p, GenericParam::Const(_))))
            .collect();
        let mut g = f.clone();
        g.sig.generics.params = f.sig.generics.params.iter().filter(|p| matches!(p, GenericParam::Lifetime(_))).cloned().collect();
        g.sig.generics.where_clause = None;
        g.sig.ident = Ident::new(&name, f.sig.ident.span());
        let tokens = substitute(g.to_token_stream(), &subst);
        match syn::parse2::<ItemFn>(tokens) {
            Ok(fi) => {
                let args: Vec<String> = inst.args.iter().map(|a| a.to_token_stream().to_string().replace(' ', "")).collect();
                forms.push(Form { f: fi, display: format!("{}::<{}>", f.sig.ident, args.join(", ")), instance: inst.clone() });
            }
            Err(e) => errors.push(syn::Error::new(inst.span, format!("this instance does not make a fn: {e}"))),
        }
    }
    Some(forms)
}

/// The span of the first `Self` (the type) in `ts`.
fn self_type_token(ts: TokenStream) -> Option<Span> {
    ts.into_iter().find_map(|t| match t {
        TokenTree::Ident(id) if id == "Self" => Some(id.span()),
        TokenTree::Group(g) => self_type_token(g.stream()),
        _ => None,
    })
}

/// Replaces each generic parameter's name by its argument: `T::f` by `<A>::f`, a const
/// parameter by its value (in braces unless it is a literal).
fn substitute(ts: TokenStream, subst: &[(String, TokenStream, bool)]) -> TokenStream {
    let trees: Vec<TokenTree> = ts.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
    for (k, t) in trees.iter().enumerate() {
        match t {
            TokenTree::Ident(id) => {
                // Not a later segment of a path (`m::T`) or a field (`x.T`).
                let punct = |j: usize, c: char| matches!(trees.get(j), Some(TokenTree::Punct(p)) if p.as_char() == c);
                let after_sep = k >= 1 && (punct(k - 1, '.') || (k >= 2 && punct(k - 1, ':') && punct(k - 2, ':')));
                let found = subst.iter().find(|(n, _, _)| id == n).filter(|_| !after_sep);
                let Some((_, arg, is_const)) = found else {
                    out.push(t.clone());
                    continue;
                };
                let arg = respan(arg.clone(), id.span());
                let path_follows = matches!(trees.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
                    && matches!(trees.get(k + 2), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                let literal = matches!(arg.clone().into_iter().collect::<Vec<_>>().as_slice(), [TokenTree::Literal(_)]);
                let new = if *is_const && !literal {
                    quote!({ #arg })
                } else if path_follows && !is_const {
                    quote!(< #arg >)
                } else {
                    arg
                };
                out.extend(new);
            }
            TokenTree::Group(g) => {
                let mut ng = proc_macro2::Group::new(g.delimiter(), substitute(g.stream(), subst));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            _ => out.push(t.clone()),
        }
    }
    out.into_iter().collect()
}

fn respan(ts: TokenStream, span: Span) -> TokenStream {
    ts.into_iter()
        .map(|mut t| {
            if let TokenTree::Group(g) = &t {
                let mut ng = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                ng.set_span(span);
                t = TokenTree::Group(ng);
            } else {
                t.set_span(span);
            }
            t
        })
        .collect()
}

/// The body of the generic fn `f`: the instances' fns (`nested`, named as the forms), then the
/// dispatch to the one whose arguments are the call's.
pub fn dispatch(f: &ItemFn, forms: &[Form], nested: TokenStream) -> TokenStream {
    let ps = params(f);
    let types: Vec<&Ident> = ps.iter().filter(|p| matches!(p, GenericParam::Type(_))).map(|p| param_ident(p)).collect();
    let args: Vec<TokenStream> = f
        .sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(t) => match &*t.pat {
                syn::Pat::Ident(p) => Some(p.ident.to_token_stream()),
                _ => None,
            },
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let m = quote!(::acc::__instances);
    let mut arms = TokenStream::new();
    for form in forms {
        let fname = &form.f.sig.ident;
        let mut targs = Vec::new();
        let mut consts = Vec::new();
        for (p, a) in ps.iter().zip(&form.instance.args) {
            match p {
                GenericParam::Const(c) => {
                    let id = &c.ident;
                    consts.push(quote!(&& #id == #a));
                }
                _ => targs.push(a),
            }
        }
        arms.extend(quote! {
            if #m::same::<(#(#types,)*), (#(#targs,)*)>() #(#consts)* {
                // SAFETY: `same` checked that the generic parameters are the instance's
                // arguments, so each value has the type the instance's fn takes (and its result
                // the type the generic fn returns).
                return unsafe { #m::cast(#fname(#(#m::cast(#args)),*)) };
            }
        });
    }
    let name = f.sig.ident.to_string();
    let listed: Vec<String> = forms.iter().map(|fm| fm.display.clone()).collect();
    let listed = listed.join(", ");
    quote! {
        #nested
        #arms
        #m::no_instance(#name, ::core::any::type_name::<(#(#types,)*)>(), #listed)
    }
}
