//! `acc::atomic!` forms: `x op= e`, `x = x.max(e)`/`min`, `read x`, `write x = e`,
//! `capture x op= e`. `x` is a scalar variable or an element `a[i]`. Their expansion is
//! `lower::atomic`.

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

#[derive(Clone)]
pub enum AtomicForm {
    Update { op: AtomicOp, place: Place, value: Expr, capture: bool },
    Read(Place),
    Write(Place, Expr),
}

impl AtomicForm {
    pub fn place(&self) -> &Place {
        match self {
            AtomicForm::Update { place, .. } | AtomicForm::Read(place) | AtomicForm::Write(place, _) => place,
        }
    }
}

const FORMS: &str = "expected one of: `x += e` (also -= *= /= &= |= ^=), `x = x.max(e)`, `x = x.min(e)`, `read x`, `write x = e`, `capture x += e`";

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
        let mut capture = false;
        if input.peek(Ident::peek_any) && (input.peek2(Ident) || input.peek2(Token![self])) {
            let fork = input.fork();
            let word = Ident::parse_any(&fork)?;
            match word.to_string().as_str() {
                "read" => {
                    Ident::parse_any(input)?;
                    let place = parse_place(input)?;
                    end(input)?;
                    return Ok(AtomicForm::Read(place));
                }
                "write" => {
                    Ident::parse_any(input)?;
                    // `x = e` parses as one assignment expression: split it.
                    let whole: Expr = input.parse()?;
                    end(input)?;
                    let Expr::Assign(a) = whole else {
                        return Err(syn::Error::new(whole.span(), format!("an atomic write is `write x = e`; {FORMS}")));
                    };
                    return Ok(AtomicForm::Write(place_of(&a.left)?, (*a.right).clone()));
                }
                "capture" | "update" => {
                    Ident::parse_any(input)?;
                    capture = word == "capture";
                }
                _ => return Err(syn::Error::new(word.span(), format!("unknown atomic form `{word}`; {FORMS}"))),
            }
        }
        let whole: Expr = input.parse()?;
        end(input)?;
        let (op, place, value) = match &whole {
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
                (op, place_of(&b.left)?, (*b.right).clone())
            }
            Expr::Assign(a) => {
                let place = place_of(&a.left)?;
                match &*a.right {
                    Expr::MethodCall(m)
                        if (m.method == "max" || m.method == "min")
                            && m.args.len() == 1
                            && same_place(&m.receiver, &place) =>
                    {
                        let op = if m.method == "max" { AtomicOp::Max } else { AtomicOp::Min };
                        (op, place, m.args[0].clone())
                    }
                    other => {
                        return Err(syn::Error::new(
                            other.span(),
                            format!("an atomic assignment must be `x = x.max(e)` or `x = x.min(e)` (or use `write x = e`); {FORMS}"),
                        ))
                    }
                }
            }
            other => return Err(syn::Error::new(other.span(), format!("unsupported atomic form; {FORMS}"))),
        };
        Ok(AtomicForm::Update { op, place, value, capture })
    }
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
