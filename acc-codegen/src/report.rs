//! Error collection: every user mistake is a `syn::Error` on the offending token; errors are
//! gathered and emitted together, beside the user's item.

use proc_macro2::TokenStream;

/// Collected diagnostics of one macro invocation.
#[derive(Default)]
pub struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    pub fn push(&mut self, e: syn::Error) {
        self.errors.push(e);
    }

    pub fn error(&mut self, span: proc_macro2::Span, msg: impl std::fmt::Display) {
        self.errors.push(syn::Error::new(span, msg));
    }

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The `compile_error!`s of every collected error.
    pub fn to_compile_errors(&self) -> TokenStream {
        self.errors.iter().map(syn::Error::to_compile_error).collect()
    }

    /// The errors, one by one.
    pub fn into_vec(self) -> Vec<syn::Error> {
        self.errors
    }

    /// The errors as (span, message) pairs.
    pub fn into_messages(self) -> Vec<(proc_macro2::Span, String)> {
        self.errors
            .into_iter()
            .flat_map(|e| e.into_iter().map(|e| (e.span(), e.to_string())).collect::<Vec<_>>())
            .collect()
    }

    /// Moves the errors out, combined into one (for callers that want a `syn::Result`).
    pub fn into_result(self) -> syn::Result<()> {
        let mut iter = self.errors.into_iter();
        match iter.next() {
            None => Ok(()),
            Some(mut first) => {
                first.extend(iter);
                Err(first)
            }
        }
    }
}
