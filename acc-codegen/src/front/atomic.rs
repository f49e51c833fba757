//! `acc::atomic!` forms: `x op= e`, `x = x.max(e)`/`min`, `read x`, `write x = e`,
//! `capture x op= e` (the value before), `capture { x op= e; x }` (the value after),
//! `capture x = e` (a swap), each optionally after `if(cond),`. `x` is a scalar variable or an
//! element `a[i]`. Their expansion is `lower::atomic`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Expr, Ident, Token};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Sub,
    Mul,
    Div,
    And,
    Or,
    Xor,
    Max,
    Min,
}

impl AtomicOp {
    /// The method of `AtomicRef`/`SharedMut`'s element that performs it.
    pub fn method(self) -> &'static str {
        match self {
            AtomicOp::Add => "fetch_add",
            AtomicOp::Sub => "fetch_sub",
            AtomicOp::Mul => "fetch_mul",
            AtomicOp::Div => "fetch_div",
            AtomicOp::And => "fetch_and",
            AtomicOp::Or => "fetch_or",
            AtomicOp::Xor => "fetch_xor",
            AtomicOp::Max => "fetch_max",
            AtomicOp::Min => "fetch_min",
        }
    }
}

impl AtomicOp {
    /// The update that combines an element with reduction operator `op` (`None` for `&&` and
    /// `||`, which have no atomic: `&` and `|` on `bool` do their work).
    pub fn of_reduction(op: crate::front::model::RedOp) -> Option<AtomicOp> {
        use crate::front::model::RedOp;
        match op {
            RedOp::Add => Some(AtomicOp::Add),
            RedOp::Mul => Some(AtomicOp::Mul),
            RedOp::Max => Some(AtomicOp::Max),
            RedOp::Min => Some(AtomicOp::Min),
            RedOp::BitAnd => Some(AtomicOp::And),
            RedOp::BitOr => Some(AtomicOp::Or),
            RedOp::BitXor => Some(AtomicOp::Xor),
            RedOp::And | RedOp::Or => None,
        }
    }

    /// The update of place `x` by value `v` as a user writes it, for messages: `x += v`,
    /// `x = x.max(v)`.
    pub fn text(self, x: &str, v: &str) -> String {
        let assign = match self {
            AtomicOp::Max | AtomicOp::Min => return format!("{x} = {x}.{}({v})", if self == AtomicOp::Max { "max" } else { "min" }),
            AtomicOp::Add => "+=",
            AtomicOp::Sub => "-=",
            AtomicOp::Mul => "*=",
            AtomicOp::Div => "/=",
            AtomicOp::And => "&=",
            AtomicOp::Or => "|=",
            AtomicOp::Xor => "^=",
        };
        format!("{x} {assign} {v}")
    }
}

/// The memory location an atomic acts on.
#[derive(Clone)]
pub enum Place {
    Scalar(Ident),
    Element { base: Ident, index: Box<Expr> },
}

impl Place {
    pub fn base(&self) -> &Ident {
        match self {
            Place::Scalar(id) | Place::Element { base: id, .. } => id,
        }
    }

    pub fn tokens(&self) -> TokenStream {
        match self {
            Place::Scalar(id) => quote!(#id),
            Place::Element { base, index } => quote!(#base[#index]),
        }
    }
}

/// What a `capture` returns: nothing (a plain update), the value before the update (`capture
/// x += e`, like `fetch_add`), or the value after it (`capture { x += e; x }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    None,
    Before,
    After,
}

/// The operation of an `acc::atomic!`.
#[derive(Clone)]
pub enum AtomicKind {
    Update { op: AtomicOp, place: Place, value: Expr, capture: Capture },
    Read(Place),
    Write(Place, Expr),
    /// `capture x = e`: OpenACC's `{v = x; x = e;}`, an exchange returning the old value.
    Swap(Place, Expr),
}

/// An `acc::atomic!`: its operation and OpenACC 3.4's `if(cond)` (false: the same operation,
/// not atomically).
#[derive(Clone)]
pub struct AtomicForm {
    pub cond: Option<Expr>,
    pub kind: AtomicKind,
}

impl AtomicForm {
    pub fn place(&self) -> &Place {
        match &self.kind {
            AtomicKind::Update { place, .. } | AtomicKind::Read(place) | AtomicKind::Write(place, _) | AtomicKind::Swap(place, _) => place,
        }
    }
}

const FORMS: &str = "expected one of: `x += e` (also -= *= /= &= |= ^=), `x = x.max(e)`, `x = x.min(e)`, `read x`, `write x = e`, `capture x += e`, `capture x = e`, `capture { x += e; x }`, each optionally after `if(cond),`";

fn parse_place(input: ParseStream) -> syn::Result<Place> {
    let e: Expr = input.call(Expr::parse_without_eager_brace)?;
    place_of(&e)
}

fn place_of(e: &Expr) -> syn::Result<Place> {
    match e {
        Expr::Path(p) if p.path.get_ident().is_some() => Ok(Place::Scalar(p.path.get_ident().unwrap().clone())),
        Expr::Index(ix) => match &*ix.expr {
            Expr::Path(p) if p.path.get_ident().is_some() => Ok(Place::Element {
                base: p.path.get_ident().unwrap().clone(),
                index: ix.index.clone(),
            }),
            other => Err(syn::Error::new(other.span(), "an atomic element is `a[i]` of a named array")),
        },
        other => Err(syn::Error::new(
            other.span(),
            "an atomic acts on a scalar variable `x` or an element `a[i]`",
        )),
    }
}

impl Parse for AtomicForm {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let cond = parse_if(input)?;
        let kind = parse_kind(input)?;
        Ok(AtomicForm { cond, kind })
    }
}

/// `if(cond),` before the operation (OpenACC 3.4's `atomic .. if(cond)`).
fn parse_if(input: ParseStream) -> syn::Result<Option<Expr>> {
    if !input.peek(Token![if]) {
        return Ok(None);
    }
    let kw: Token![if] = input.parse()?;
    if !input.peek(syn::token::Paren) {
        return Err(syn::Error::new(kw.span, format!("an atomic's condition is `if(cond),` before the operation; {FORMS}")));
    }
    let content;
    syn::parenthesized!(content in input);
    let cond: Expr = content.parse()?;
    if !content.is_empty() {
        return Err(content.error("`if(..)` takes one condition"));
    }
    if input.is_empty() {
        return Err(input.error(format!("an atomic operation follows `if(cond),`; {FORMS}")));
    }
    if !input.peek(Token![,]) {
        return Err(input.error("expected `,` after `if(cond)`: the condition is a clause before the operation, `acc::atomic!(if(cond), x += e)`"));
    }
    input.parse::<Token![,]>()?;
    Ok(Some(cond))
}

fn parse_kind(input: ParseStream) -> syn::Result<AtomicKind> {
    let mut capture = Capture::None;
    if input.peek(Ident::peek_any) && (input.peek2(Ident) || input.peek2(Token![self]) || input.peek2(syn::token::Brace)) {
        let fork = input.fork();
        let word = Ident::parse_any(&fork)?;
        match word.to_string().as_str() {
            "read" => {
                Ident::parse_any(input)?;
                let place = parse_place(input)?;
                end(input)?;
                return Ok(AtomicKind::Read(place));
            }
            "write" => {
                Ident::parse_any(input)?;
                // `x = e` parses as one assignment expression: split it.
                let whole: Expr = input.parse()?;
                end(input)?;
                let Expr::Assign(a) = whole else {
                    return Err(syn::Error::new(whole.span(), format!("an atomic write is `write x = e`; {FORMS}")));
                };
                return Ok(AtomicKind::Write(place_of(&a.left)?, (*a.right).clone()));
            }
            "capture" if input.peek2(syn::token::Brace) => {
                Ident::parse_any(input)?;
                return parse_capture_after(input);
            }
            "capture" | "update" => {
                Ident::parse_any(input)?;
                capture = if word == "capture" { Capture::Before } else { Capture::None };
            }
            _ => return Err(syn::Error::new(word.span(), format!("unknown atomic form `{word}`; {FORMS}"))),
        }
    }
    let whole: Expr = input.parse()?;
    end(input)?;
    if let (Capture::Before, Expr::Assign(a)) = (capture, &whole) {
        if !is_minmax_of(&a.right, &a.left) {
            return swap(a);
        }
    }
    let (op, place, value) = update(&whole)?;
    Ok(AtomicKind::Update { op, place, value, capture })
}

/// `capture { x op= e; x }`: OpenACC's `{x op= e; v = x;}`, the value after the update.
fn parse_capture_after(input: ParseStream) -> syn::Result<AtomicKind> {
    let content;
    let brace = syn::braced!(content in input);
    end(input)?;
    let after = "the value after an update is `capture { x op= e; x }`";
    let upd: Expr = content.parse()?;
    if !content.peek(Token![;]) {
        return Err(content.error(format!("expected `;` after the update: {after}")));
    }
    content.parse::<Token![;]>()?;
    if content.is_empty() {
        return Err(syn::Error::new(brace.span.close(), format!("the block ends with the updated place: {after}")));
    }
    let read: Expr = content.parse()?;
    if !content.is_empty() {
        return Err(content.error(format!("unexpected tokens after the updated place: {after}")));
    }
    if let Expr::Assign(a) = &upd {
        if !is_minmax_of(&a.right, &a.left) {
            return Err(syn::Error::new(
                a.eq_token.span,
                "the value after a swap is the value written: write `let v = e; acc::atomic!(write x = v);`, or `capture x = e` for the value before it",
            ));
        }
    }
    let (op, place, value) = update(&upd)?;
    if !same_place(&read, &place) {
        return Err(syn::Error::new(read.span(), format!("the block ends with the place it updates, `{}`: {after}", place.tokens())));
    }
    Ok(AtomicKind::Update { op, place, value, capture: Capture::After })
}

/// `capture x = e`: an exchange. `e` may not read `x` (OpenACC's rule for `{v = x; x = e;}`):
/// `x = x op e` is the update `capture x op= e`.
fn swap(a: &syn::ExprAssign) -> syn::Result<AtomicKind> {
    let place = place_of(&a.left)?;
    if let Some(at) = mention(&a.right, place.base()) {
        return Err(syn::Error::new(
            at,
            format!(
                "the value a swap writes may not read `{}`, the place it exchanges: for `x = x op e` write `capture x op= e` (or `x = x.max(e)` / `min`)",
                place.base()
            ),
        ));
    }
    Ok(AtomicKind::Swap(place, (*a.right).clone()))
}

/// The update `x op= e` or `x = x.max(e)` / `min`.
/// An update `x op= e`, `x = x.max(e)` or `x = x.min(e)`: its operator, place and value.
pub fn update(whole: &Expr) -> syn::Result<(AtomicOp, Place, Expr)> {
    match whole {
        Expr::Binary(b) => {
            use syn::BinOp::*;
            let op = match b.op {
                AddAssign(_) => AtomicOp::Add,
                SubAssign(_) => AtomicOp::Sub,
                MulAssign(_) => AtomicOp::Mul,
                DivAssign(_) => AtomicOp::Div,
                BitAndAssign(_) => AtomicOp::And,
                BitOrAssign(_) => AtomicOp::Or,
                BitXorAssign(_) => AtomicOp::Xor,
                _ => return Err(syn::Error::new(b.op.span(), format!("unsupported atomic operator; {FORMS}"))),
            };
            Ok((op, place_of(&b.left)?, (*b.right).clone()))
        }
        Expr::Assign(a) => {
            let place = place_of(&a.left)?;
            match &*a.right {
                Expr::MethodCall(m) if is_minmax_of(&a.right, &a.left) => {
                    let op = if m.method == "max" { AtomicOp::Max } else { AtomicOp::Min };
                    Ok((op, place, m.args[0].clone()))
                }
                other => Err(syn::Error::new(
                    other.span(),
                    format!("an atomic assignment must be `x = x.max(e)` or `x = x.min(e)` (or use `write x = e`, or `capture x = e` to swap); {FORMS}"),
                )),
            }
        }
        other => Err(syn::Error::new(other.span(), format!("unsupported atomic form; {FORMS}"))),
    }
}

/// `right` is `left.max(e)` or `left.min(e)`.
fn is_minmax_of(right: &Expr, left: &Expr) -> bool {
    let Ok(place) = place_of(left) else { return false };
    matches!(right, Expr::MethodCall(m)
        if (m.method == "max" || m.method == "min") && m.args.len() == 1 && same_place(&m.receiver, &place))
}

/// The span of the first mention of `id` in `e`.
fn mention(e: &Expr, id: &Ident) -> Option<proc_macro2::Span> {
    first_mention(quote!(#e), id)
}

/// The span of the first `id` in `ts`, at any depth of its groups (a macro's tokens).
pub fn first_mention(ts: TokenStream, id: &Ident) -> Option<proc_macro2::Span> {
    ts.into_iter().find_map(|t| match t {
        proc_macro2::TokenTree::Ident(i) if i == *id => Some(i.span()),
        proc_macro2::TokenTree::Group(g) => first_mention(g.stream(), id),
        _ => None,
    })
}

fn same_place(e: &Expr, place: &Place) -> bool {
    match place_of(e) {
        Ok(p) => p.tokens().to_string() == place.tokens().to_string(),
        Err(_) => false,
    }
}

fn end(input: ParseStream) -> syn::Result<()> {
    if input.is_empty() {
        Ok(())
    } else {
        Err(input.error(format!("unexpected tokens after the atomic operation; {FORMS}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(ts: TokenStream) -> AtomicForm {
        syn::parse2(ts).unwrap_or_else(|e| panic!("{e}"))
    }

    fn error(ts: TokenStream) -> String {
        syn::parse2::<AtomicForm>(ts).err().expect("an error").to_string()
    }

    #[test]
    fn capture_forms() {
        let f = form(quote!(capture x += 1));
        assert!(matches!(f.kind, AtomicKind::Update { op: AtomicOp::Add, capture: Capture::Before, .. }));
        let f = form(quote!(capture x = x.max(e)));
        assert!(matches!(f.kind, AtomicKind::Update { op: AtomicOp::Max, capture: Capture::Before, .. }));
        let f = form(quote!(capture a[i] = k + 1));
        assert!(matches!(f.kind, AtomicKind::Swap(Place::Element { .. }, _)));
        let f = form(quote!(capture { x -= 2; x }));
        assert!(matches!(f.kind, AtomicKind::Update { op: AtomicOp::Sub, capture: Capture::After, .. }));
        let f = form(quote!(capture { a[i] = a[i].min(v); a[i] }));
        assert!(matches!(f.kind, AtomicKind::Update { op: AtomicOp::Min, capture: Capture::After, .. }));
        assert!(f.cond.is_none());
    }

    #[test]
    fn capture_refusals_say_what_to_write() {
        assert!(error(quote!(capture x = x + 1)).contains("write `capture x op= e`"));
        assert!(error(quote!(capture { x = 3; x })).contains("`capture x = e` for the value before it"));
        assert!(error(quote!(capture { x += 1; y })).contains("ends with the place it updates, `x`"));
        assert!(error(quote!(capture { x += 1 })).contains("expected `;`"));
        assert!(error(quote!(x = 3)).contains("`capture x = e` to swap"));
    }

    #[test]
    fn if_clause() {
        let f = form(quote!(if(n > 4), x += 1));
        assert!(f.cond.is_some() && matches!(f.kind, AtomicKind::Update { capture: Capture::None, .. }));
        let f = form(quote!(if(flag), capture a[i] = 0));
        assert!(f.cond.is_some() && matches!(f.kind, AtomicKind::Swap(..)));
        let f = form(quote!(if(flag), read x));
        assert!(matches!(f.kind, AtomicKind::Read(_)));
        assert!(error(quote!(if(c))).contains("an atomic operation follows `if(cond),`"));
        assert!(error(quote!(if c, x += 1)).contains("`if(cond),` before the operation"));
        assert!(error(quote!(if(a, b), x += 1)).contains("one condition"));
    }
}
