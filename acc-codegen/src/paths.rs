//! The runtime paths the generated code names, spelled once: the host runtime's private module
//! for generated code (`::acc::__private`, acc-runtime's `private.rs` re-exported by the `acc`
//! facade) and the device crate's support library (`::acc_device`). Absolute paths, never
//! what the user imported.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// `::acc::__private`: what generated host code calls.
pub fn runtime() -> TokenStream {
    quote!(::acc::__private)
}

/// `::acc::__private`, its tokens spanned at `span` (generated code a user's token is
/// reported at).
pub fn runtime_at(span: Span) -> TokenStream {
    quote_spanned!(span=> ::acc::__private)
}

/// `::acc_device`: what kernels call.
pub fn device() -> TokenStream {
    quote!(::acc_device)
}
