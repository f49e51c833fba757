//! Lowering: the checked region written out as host code (rayon) and as device kernels.

pub mod atomic;
pub mod bounds;
pub mod chunk;
pub mod data;
pub mod device;
pub mod device_body;
pub mod grid;
pub mod host;
pub mod loads;
pub mod nest;
pub mod region;
pub mod schedule;
pub mod tiles;
pub mod written;

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;

/// A count clause's value (`num_gangs(n)`, `vector_length(n)`, a loop's `gang(n)`...) as a
/// `usize`, converted as `(n) as usize` converted every integer type, through
/// `acc::__private::clause_usize`: a cast would be clippy's `unnecessary_cast` on the user's
/// token wherever `n` is a `usize` already, and would take a float. Anything but an integer
/// is a type error at `n`.
pub fn clause_usize(n: &syn::Expr) -> TokenStream {
    let n = typed_literal(n, "usize");
    let rt = crate::paths::runtime_at(n.span());
    quote_spanned!(n.span()=> #rt::clause_usize(#n))
}

/// An async queue (`async(q)`, `wait(q)`) as an `i64`, as [`clause_usize`] does counts.
pub fn queue_i64(q: &syn::Expr) -> TokenStream {
    let q = typed_literal(q, "i64");
    let rt = crate::paths::runtime_at(q.span());
    quote_spanned!(q.span()=> #rt::queue_i64(#q))
}

/// `e`, with the suffix `ty` when it is an unsuffixed integer literal: the type it had under
/// `as` (a generic call would make it an `i32`, and `3_000_000_000` an overflow).
fn typed_literal(e: &syn::Expr, ty: &str) -> syn::Expr {
    match e {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), attrs }) if i.suffix().is_empty() => {
            let lit = syn::LitInt::new(&format!("{}{ty}", i.base10_digits()), i.span());
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(lit), attrs: attrs.clone() })
        }
        _ => e.clone(),
    }
}
