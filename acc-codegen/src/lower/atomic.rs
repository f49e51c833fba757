//! `acc::atomic!` written out: the plain operation where nothing runs at the same time, the
//! hardware atomic of an `AtomicRef` / `SharedMut` where iterations share the place.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;

use crate::front::atomic::{AtomicForm, AtomicOp, Place};

/// The sequential meaning: plain Rust on the place (used outside parallel loops, where
/// nothing else runs at the same time).
pub fn expand_plain(form: &AtomicForm) -> TokenStream {
    match form {
        AtomicForm::Read(p) => {
            let p = p.tokens();
            quote!(#p)
        }
        AtomicForm::Write(p, v) => {
            let p = p.tokens();
            quote!({ #p = #v; })
        }
        AtomicForm::Update { op, place, value, capture } => {
            let p = place.tokens();
            let update = match op {
                AtomicOp::Add => quote!(#p += #value),
                AtomicOp::Sub => quote!(#p -= #value),
                AtomicOp::Mul => quote!(#p *= #value),
                AtomicOp::Div => quote!(#p /= #value),
                AtomicOp::And => quote!(#p &= #value),
                AtomicOp::Or => quote!(#p |= #value),
                AtomicOp::Xor => quote!(#p ^= #value),
                AtomicOp::Max => quote!(#p = #p.max(#value)),
                AtomicOp::Min => quote!(#p = #p.min(#value)),
            };
            if *capture {
                quote!({ let __acc_old = #p; #update; __acc_old })
            } else {
                quote!({ #update; })
            }
        }
    }
}

/// The concurrent meaning: the place's base has been shadowed by an `AtomicRef` (scalars)
/// or a `SharedMut` (arrays), whose methods perform the hardware atomics.
pub fn expand_shared(form: &AtomicForm, span: Span) -> TokenStream {
    let target = match form.place() {
        Place::Scalar(id) => quote!(#id),
        Place::Element { base, index } => quote_spanned!(span=> #base.atomic(#index)),
    };
    match form {
        AtomicForm::Read(_) => quote_spanned!(span=> #target.load()),
        AtomicForm::Write(_, v) => quote_spanned!(span=> { #target.store(#v); }),
        AtomicForm::Update { op, value, capture, .. } => {
            let m = Ident::new(op.method(), span);
            if *capture {
                quote_spanned!(span=> #target.#m(#value))
            } else {
                quote_spanned!(span=> { let _ = #target.#m(#value); })
            }
        }
    }
}
