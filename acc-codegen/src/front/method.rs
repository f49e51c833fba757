//! Methods as regions: a region may be an associated fn of an `impl` block, or a method taking
//! `&self` or `&mut self`.
//!
//! The device gets the fields a method region uses, never the struct (it may own host memory):
//! each `self.f` of the body stands for a parameter of its own, named `__acc_self_f` (shown to
//! the user as `self.f`), and the region is lowered as the free fn of those parameters and the
//! method's others. How a field is passed follows from how the body uses it, so that the proc
//! macro (which sees only the fn) and acc-build (which also sees the struct) agree:
//! - a field named in a data clause (`copy(self.u)`), indexed (`self.u[i]`), or asked its
//!   length (`self.u.len()`) is an array: `&mut [T]` when the method takes `&mut self` and the
//!   body writes it (or a `copy`/`copyout`/`create` clause names it), else `&[T]`; its type is
//!   one that slices (`Vec<T>`, `[T; N]`, `Box<[T]>`, `&[T]`, `&mut [T]`);
//! - any other field is a value, copied to the device (`DeviceCopy`, firstprivate); assigning
//!   it is an error (the copy would be lost).
//!
//! The method binds the fields before the region (`let __acc_self_u: &mut [_] = &mut
//! self.u[..];`): the borrows are disjoint, and the region's data clauses, transfers and launches
//! see them as they see a free fn's parameters. Any other use of `self` (`self.step()`,
//! passing `self`) is an error on that `self`.

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::ext::IdentExt;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, FnArg, ItemFn, Member};

use crate::front::model::{DataKind, RegionDirective};
use crate::report::Errors;

/// The prefix of a field's stand-in parameter.
pub const FIELD_PREFIX: &str = "__acc_self_";

/// The stand-in parameter of field `m`, spanned on the field's name.
pub fn field_ident(m: &Member) -> Ident {
    match m {
        Member::Named(id) => Ident::new(&format!("{FIELD_PREFIX}{}", id.unraw()), id.span()),
        Member::Unnamed(i) => Ident::new(&format!("{FIELD_PREFIX}{}", i.index), i.span),
    }
}

/// A parameter's name as the user wrote it: `self.u` for a field's stand-in.
pub fn display(id: &Ident) -> String {
    let s = id.to_string();
    match s.strip_prefix(FIELD_PREFIX) {
        Some(f) => format!("self.{f}"),
        None => s,
    }
}

/// A field used by a method region.
pub struct Field {
    pub member: Member,
    /// Its stand-in parameter.
    pub ident: Ident,
    pub array: bool,
    /// An array the region writes (`&mut [T]`).
    pub mutable: bool,
}

/// A method region lowered as a free fn.
pub struct Method {
    pub fields: Vec<Field>,
    /// The free fn: the fields' stand-ins, then the method's other parameters; `self.f` in the
    /// body replaced by the stand-ins.
    pub free: ItemFn,
    /// The statements that bind the stand-ins in the method's body.
    pub binds: TokenStream,
}

/// The element type of a field type that slices: `Vec<T>`, `[T; N]`, `Box<[T]>`, `&[T]`,
/// `&mut [T]`, `acc::Mirror<T>`.
pub fn array_elem(ty: &syn::Type) -> Option<syn::Type> {
    match ty {
        syn::Type::Array(a) => Some((*a.elem).clone()),
        syn::Type::Slice(s) => Some((*s.elem).clone()),
        syn::Type::Reference(r) => array_elem(&r.elem),
        syn::Type::Paren(p) => array_elem(&p.elem),
        syn::Type::Path(p) => {
            let last = p.path.segments.last()?;
            let arg = match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => match a.args.first()? {
                    syn::GenericArgument::Type(t) => t,
                    _ => return None,
                },
                _ => return None,
            };
            match last.ident.to_string().as_str() {
                "Vec" | "Mirror" => Some(arg.clone()),
                "Box" => match arg {
                    syn::Type::Slice(s) => Some((*s.elem).clone()),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// Lowers a method region (one with a `self` parameter) as a free fn; `None` for other fns.
/// `field_type` gives a field's declared type where the caller knows it (acc-build); without
/// it (the proc macro) the stand-ins' types are inferred (`&mut [_]`, `_`).
pub fn desugar(
    f: &ItemFn,
    dir: &RegionDirective,
    field_type: &dyn Fn(&Member) -> Option<syn::Type>,
    errors: &mut Errors,
) -> Option<Method> {
    let receiver = f.sig.inputs.iter().find_map(|a| match a {
        FnArg::Receiver(r) => Some(r),
        FnArg::Typed(_) => None,
    })?;
    let receiver_mut = receiver.mutability.is_some();
    if receiver.reference.is_none() || receiver.colon_token.is_some() {
        errors.error(receiver.self_token.span, "a region method takes `&self` or `&mut self`: the device gets the fields it uses, so the method cannot take `self` by value or in a box");
        return None;
    }
    // `self.f` -> its stand-in, in the body and in the macros inside it.
    let mut used: Vec<Member> = Vec::new();
    let mut stray: Vec<Span> = Vec::new();
    let block = &f.block;
    let body = rewrite_self(quote!(#block), &mut used, &mut stray);
    for span in stray {
        errors.error(span, "a region method uses `self` only through its fields (`self.u`, `self.n`): the device gets the fields, not the struct; call methods of `self` before or after the region");
    }
    let block: syn::Block = match syn::parse2(body) {
        Ok(b) => b,
        Err(e) => {
            errors.push(e);
            return None;
        }
    };
    // Fields named in the clauses but not in the body still belong to the region.
    let clause_names: Vec<(&Ident, Option<DataKind>)> = dir
        .clauses
        .data
        .iter()
        .flat_map(|c| c.vars.iter().map(move |v| (&v.ident, Some(c.kind))))
        .chain(dir.clauses.private.iter().chain(&dir.clauses.firstprivate).map(|id| (id, None)))
        .collect();
    for (id, _) in &clause_names {
        if let Some(name) = id.to_string().strip_prefix(FIELD_PREFIX) {
            let m: Member = match name.parse::<u32>() {
                Ok(index) => Member::Unnamed(syn::Index { index, span: id.span() }),
                Err(_) => Member::Named(Ident::new(name, id.span())),
            };
            if !used.iter().any(|u| member_name(u) == member_name(&m)) {
                used.push(m);
            }
        }
    }
    let mut uses = Uses::default();
    uses.visit_block(&block);
    let mut fields = Vec::new();
    for member in used {
        let ident = field_ident(&member);
        let name = ident.to_string();
        let clause = clause_names.iter().find(|(id, _)| id.to_string() == name).map(|(_, k)| *k);
        let in_data = matches!(clause, Some(Some(_)));
        let array = in_data || uses.arrays.contains(&name);
        let written = uses.written.contains(&name)
            || (array && uses.passed.contains(&name))
            || matches!(clause, Some(Some(DataKind::Copy | DataKind::CopyOut | DataKind::Create)));
        if !array && uses.written.contains(&name) {
            let span = uses.write_spans.iter().find(|(n, _)| n == &name).map_or(ident.span(), |(_, s)| *s);
            errors.error(span, format!("a region cannot assign `{}`: the fields it reads as values are copies (firstprivate); return the value from the region and assign it after the call", display(&ident)));
        }
        fields.push(Field { member, ident, array, mutable: array && receiver_mut && written });
    }
    // `&self.u` and `&mut self.u` of an array: the stand-in is that reference already (and a
    // routine called with it gets it as it gets a free fn's slice parameter).
    let arrays: Vec<String> = fields.iter().filter(|fl| fl.array).map(|fl| fl.ident.to_string()).collect();
    let mut block = block;
    Unref(&arrays).visit_block_mut(&mut block);
    // The free fn.
    let mut inputs = syn::punctuated::Punctuated::<FnArg, syn::Token![,]>::new();
    let mut binds = TokenStream::new();
    for fl in &fields {
        let (id, member) = (&fl.ident, &fl.member);
        let span = id.span();
        let declared = field_type(member);
        let ty: syn::Type = match (fl.array, &declared) {
            (true, Some(t)) => match array_elem(t) {
                Some(e) if fl.mutable => syn::parse_quote_spanned!(span=> &mut [#e]),
                Some(e) => syn::parse_quote_spanned!(span=> &[#e]),
                None => {
                    errors.error(span, format!(
                        "`{}` is used as an array in the region, but its type `{}` does not slice to the device: use `Vec<T>`, `[T; N]`, `Box<[T]>`, `&[T]` or `&mut [T]`",
                        display(id), quote!(#t)
                    ));
                    syn::parse_quote!(&[()])
                }
            },
            (true, None) if fl.mutable => syn::parse_quote_spanned!(span=> &mut [_]),
            (true, None) => syn::parse_quote_spanned!(span=> &[_]),
            (false, Some(t)) => t.clone(),
            (false, None) => syn::parse_quote!(_),
        };
        inputs.push(syn::parse_quote_spanned!(span=> #id: #ty));
        binds.extend(if !fl.array {
            quote_spanned!(span=> let #id = self.#member;)
        } else if fl.mutable {
            quote_spanned!(span=> let #id: &mut [_] = &mut self.#member[..];)
        } else {
            quote_spanned!(span=> let #id: &[_] = &self.#member[..];)
        });
    }
    for a in &f.sig.inputs {
        if let FnArg::Typed(_) = a {
            inputs.push(a.clone());
        }
    }
    let mut sig = f.sig.clone();
    sig.inputs = inputs;
    let free = ItemFn { attrs: f.attrs.clone(), vis: syn::Visibility::Inherited, sig, block: Box::new(block) };
    Some(Method { fields, free, binds })
}

struct Unref<'a>(&'a [String]);

impl VisitMut for Unref<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Reference(r) = e {
            if stand_in(&r.expr).is_some_and(|n| self.0.contains(&n)) {
                *e = (*r.expr).clone();
                return;
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

fn member_name(m: &Member) -> String {
    match m {
        Member::Named(id) => id.unraw().to_string(),
        Member::Unnamed(i) => i.index.to_string(),
    }
}

/// Replaces `self.f` (not `self.f(..)`, a method call) by `f`'s stand-in; records the fields,
/// and the spans of other uses of `self` (`self::` paths are left alone).
fn rewrite_self(ts: TokenStream, used: &mut Vec<Member>, stray: &mut Vec<Span>) -> TokenStream {
    let trees: Vec<TokenTree> = ts.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut k = 0;
    while k < trees.len() {
        match &trees[k] {
            TokenTree::Ident(id) if id == "self" => {
                let punct = |j: usize, c: char| matches!(trees.get(j), Some(TokenTree::Punct(p)) if p.as_char() == c);
                let path = punct(k + 1, ':') && punct(k + 2, ':');
                let member = if punct(k + 1, '.') && !punct(k + 2, '.') {
                    match trees.get(k + 2) {
                        Some(TokenTree::Ident(m)) => Some(Member::Named(m.clone())),
                        Some(TokenTree::Literal(l)) => l.to_string().parse::<u32>().ok().map(|index| Member::Unnamed(syn::Index { index, span: l.span() })),
                        _ => None,
                    }
                } else {
                    None
                };
                // `self.f(..)` and `self.f::<T>(..)` call a method.
                let call = matches!(trees.get(k + 3), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
                    || (punct(k + 3, ':') && punct(k + 4, ':'));
                match member {
                    Some(m) if !call => {
                        if !used.iter().any(|u| member_name(u) == member_name(&m)) {
                            used.push(m.clone());
                        }
                        out.push(TokenTree::Ident(field_ident(&m)));
                        k += 3;
                        continue;
                    }
                    _ if path => out.push(trees[k].clone()),
                    _ => {
                        stray.push(id.span());
                        out.push(trees[k].clone());
                    }
                }
            }
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), rewrite_self(g.stream(), used, stray));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            t => out.push(t.clone()),
        }
        k += 1;
    }
    out.into_iter().collect()
}

/// How the body uses the stand-ins: as arrays, and written.
#[derive(Default)]
struct Uses {
    arrays: Vec<String>,
    written: Vec<String>,
    write_spans: Vec<(String, Span)>,
    /// Passed whole to a call: an array there may be written by the callee (a routine taking
    /// `&mut [T]`); a value is passed by copy.
    passed: Vec<String>,
}

/// Slice methods that write the slice.
const MUTATING: [&str; 17] = [
    "swap", "fill", "fill_with", "copy_from_slice", "clone_from_slice", "iter_mut", "get_mut", "first_mut", "last_mut",
    "as_mut_ptr", "reverse", "sort", "sort_unstable", "rotate_left", "rotate_right", "split_at_mut", "chunks_mut",
];
/// Slice methods that only an array has (a value field never answers them).
const ARRAY_ONLY: [&str; 4] = ["len", "is_empty", "iter", "windows"];

fn stand_in(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()).filter(|n| n.starts_with(FIELD_PREFIX)),
        _ => None,
    }
}

/// The variable at the root of a place expression (`a[i].x` -> `a`).
fn root(e: &Expr) -> Option<(String, Span)> {
    match e {
        Expr::Index(i) => root(&i.expr),
        Expr::Field(f) => root(&f.base),
        Expr::Paren(p) => root(&p.expr),
        Expr::Path(p) => stand_in(e).map(|n| (n, p.path.segments[0].ident.span())),
        _ => None,
    }
}

impl Uses {
    fn write(&mut self, e: &Expr) {
        if let Some((n, span)) = root(e) {
            self.write_spans.push((n.clone(), span));
            self.written.push(n);
        }
    }
}

impl<'ast> Visit<'ast> for Uses {
    fn visit_expr_index(&mut self, i: &'ast syn::ExprIndex) {
        if let Some(n) = stand_in(&i.expr) {
            self.arrays.push(n);
        }
        syn::visit::visit_expr_index(self, i);
    }
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.write(&a.left);
        syn::visit::visit_expr_assign(self, a);
    }
    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        use syn::BinOp::*;
        if matches!(b.op, AddAssign(_) | SubAssign(_) | MulAssign(_) | DivAssign(_) | RemAssign(_) | BitXorAssign(_) | BitAndAssign(_) | BitOrAssign(_) | ShlAssign(_) | ShrAssign(_)) {
            self.write(&b.left);
        }
        syn::visit::visit_expr_binary(self, b);
    }
    fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
        if r.mutability.is_some() {
            self.write(&r.expr);
        }
        syn::visit::visit_expr_reference(self, r);
    }
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let method = m.method.to_string();
        if let Some(n) = stand_in(&m.receiver) {
            if ARRAY_ONLY.contains(&method.as_str()) || MUTATING.contains(&method.as_str()) {
                self.arrays.push(n);
            }
        }
        if MUTATING.contains(&method.as_str()) {
            self.write(&m.receiver);
        }
        // A stand-in passed whole may be written by the callee (a routine taking `&mut [T]`).
        for a in &m.args {
            self.write_arg(a);
        }
        syn::visit::visit_expr_method_call(self, m);
    }
    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        for a in &c.args {
            self.write_arg(a);
        }
        syn::visit::visit_expr_call(self, c);
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // `atomic!(self.u[i] += 1)`, `assert!(self.u[i] > 0.0)`: a stand-in followed by `[`
        // or `.len()` is an array; in `atomic!` it is written.
        let atomic = m.path.segments.last().is_some_and(|s| s.ident == "atomic");
        let trees = flat(m.tokens.clone());
        for (i, t) in trees.iter().enumerate() {
            let TokenTree::Ident(id) = t else { continue };
            let n = id.to_string();
            if !n.starts_with(FIELD_PREFIX) {
                continue;
            }
            let indexed = matches!(trees.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket);
            let len = matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '.')
                && matches!(trees.get(i + 2), Some(TokenTree::Ident(m)) if ARRAY_ONLY.contains(&m.to_string().as_str()));
            if indexed || len {
                self.arrays.push(n.clone());
            }
            if atomic {
                self.write_spans.push((n.clone(), id.span()));
                self.written.push(n);
            }
        }
    }
}

impl Uses {
    fn write_arg(&mut self, a: &Expr) {
        if let Some(n) = stand_in(a) {
            self.passed.push(n);
        }
    }
}

/// Tokens with their groups' contents in line (brackets kept as groups for the `[` test).
fn flat(ts: TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for t in ts {
        match t {
            TokenTree::Group(g) => {
                out.push(TokenTree::Group(g.clone()));
                out.extend(flat(g.stream()));
            }
            t => out.push(t),
        }
    }
    out
}
