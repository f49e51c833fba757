//! `acc::atomic!` written out: the plain operation where nothing runs at the same time, the
//! hardware atomic of an `AtomicRef` / `SharedMut` where iterations share the place. With
//! `if(cond)`, a false `cond` does the same operation not atomically: plain Rust on the place,
//! or where the place is shared, a load and a store of it (each atomic, so a race loses an
//! update but reads no torn value), as OpenACC 3.4's `atomic if` allows.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;

use crate::front::atomic::{AtomicForm, AtomicKind, AtomicOp, Capture, Place};

/// `x op v` as an assignment to the local `x` (the update done by one thread).
fn plain_update(op: AtomicOp, x: &TokenStream, v: &TokenStream) -> TokenStream {
    match op {
        AtomicOp::Add => quote!(#x += #v),
        AtomicOp::Sub => quote!(#x -= #v),
        AtomicOp::Mul => quote!(#x *= #v),
        AtomicOp::Div => quote!(#x /= #v),
        AtomicOp::And => quote!(#x &= #v),
        AtomicOp::Or => quote!(#x |= #v),
        AtomicOp::Xor => quote!(#x ^= #v),
        AtomicOp::Max => quote!(#x = #x.max(#v)),
        AtomicOp::Min => quote!(#x = #x.min(#v)),
    }
}

/// The sequential meaning: plain Rust on the place (used outside parallel loops, where
/// nothing else runs at the same time; `if(cond)` is evaluated and changes nothing there).
pub fn expand_plain(form: &AtomicForm) -> TokenStream {
    let op = plain_op(form);
    match &form.cond {
        None => op,
        Some(cond) => quote!({ let _: bool = #cond; #op }),
    }
}

fn plain_op(form: &AtomicForm) -> TokenStream {
    let p = form.place().tokens();
    match &form.kind {
        AtomicKind::Read(_) => quote!(#p),
        AtomicKind::Write(_, v) => quote!({ #p = #v; }),
        AtomicKind::Swap(_, v) => quote!({ let __acc_new = #v; ::core::mem::replace(&mut #p, __acc_new) }),
        AtomicKind::Update { op, value, capture, .. } => {
            let update = plain_update(*op, &p, &quote!(#value));
            match capture {
                Capture::None => quote!({ #update; }),
                Capture::Before => quote!({ let __acc_old = #p; #update; __acc_old }),
                Capture::After => quote!({ #update; #p }),
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
    match &form.cond {
        None => shared_atomic(&form.kind, &target, span),
        Some(cond) => {
            // The handle once (an element's index evaluated once), then either branch on it.
            let at = quote_spanned!(span=> __acc_at);
            let atomic = shared_atomic(&form.kind, &at, span);
            let plain = shared_plain(&form.kind, &at, span);
            quote_spanned!(span=> {
                let __acc_at = #target;
                if #cond { #atomic } else { #plain }
            })
        }
    }
}

/// The hardware atomic on the handle `target`.
fn shared_atomic(kind: &AtomicKind, target: &TokenStream, span: Span) -> TokenStream {
    match kind {
        AtomicKind::Read(_) => quote_spanned!(span=> #target.load()),
        AtomicKind::Write(_, v) => quote_spanned!(span=> { #target.store(#v); }),
        AtomicKind::Swap(_, v) => quote_spanned!(span=> #target.swap(#v)),
        AtomicKind::Update { op, value, capture, .. } => {
            let m = Ident::new(op.method(), span);
            match capture {
                Capture::None => quote_spanned!(span=> { let _ = #target.#m(#value); }),
                Capture::Before => quote_spanned!(span=> #target.#m(#value)),
                Capture::After => {
                    // The value after, from the value before: what the atomic stored.
                    let x = quote!(__acc_x);
                    let update = plain_update(*op, &x, &quote!(__acc_v));
                    quote_spanned!(span=> {
                        let __acc_v = #value;
                        let mut __acc_x = #target.#m(__acc_v);
                        #update;
                        __acc_x
                    })
                }
            }
        }
    }
}

/// The same operation not atomically (`if(cond)` false): a load, the update in a local, a
/// store.
fn shared_plain(kind: &AtomicKind, target: &TokenStream, span: Span) -> TokenStream {
    match kind {
        AtomicKind::Read(_) | AtomicKind::Write(..) => shared_atomic(kind, target, span),
        AtomicKind::Swap(_, v) => quote_spanned!(span=> {
            let __acc_new = #v;
            let __acc_old = #target.load();
            #target.store(__acc_new);
            __acc_old
        }),
        AtomicKind::Update { op, value, capture, .. } => {
            let x = quote!(__acc_x);
            let update = plain_update(*op, &x, &quote!(#value));
            let result = match capture {
                Capture::None => quote!(),
                Capture::Before => quote!(__acc_old),
                Capture::After => quote!(__acc_x),
            };
            quote_spanned!(span=> {
                let __acc_old = #target.load();
                let mut __acc_x = __acc_old;
                #update;
                #target.store(__acc_x);
                #result
            })
        }
    }
}

