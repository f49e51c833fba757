//! The loop directives of a region body, each parsed once.
//!
//! The checks (`check::body`) and the GPU lowering (`lower::device`, `lower::schedule`) ask
//! about loops of the body many times over, on clones of their syntax. [`LoopDirectives::of`]
//! walks the body once and parses every `#[acc::r#loop(..)]` into the typed [`LoopDirective`];
//! the others look a loop's directive up here instead of reading its attribute again.

use std::collections::HashMap;

use quote::ToTokens;
use syn::visit::Visit;
use syn::ExprForLoop;

use crate::front::model::LoopDirective;
use crate::front::parse;
use crate::report::Errors;
use crate::syntax::{attr_tokens, loop_attr};

/// The parsed `#[acc::r#loop(..)]` of every loop of a region body.
#[derive(Default)]
pub struct LoopDirectives {
    /// Each directive with the errors parsing it found (reported by `check::body`, at the
    /// loop, in the order of the body).
    by_attr: HashMap<AttrKey, (LoopDirective, Vec<syn::Error>)>,
}

/// A loop attribute: where it starts and its tokens. Clones of a loop keep both; two
/// attributes with one key (tokens a `macro_rules!` expansion repeats) parse alike.
#[derive(PartialEq, Eq, Hash)]
struct AttrKey {
    line: usize,
    column: usize,
    tokens: String,
}

impl AttrKey {
    fn of(attr: &syn::Attribute) -> Self {
        let start = attr.pound_token.span.start();
        AttrKey { line: start.line, column: start.column, tokens: attr.to_token_stream().to_string() }
    }
}

/// Parses the directive of a loop attribute (the checks in context are `check::loops`).
pub fn read(attr: &syn::Attribute, errors: &mut Errors) -> LoopDirective {
    if let syn::Meta::NameValue(nv) = &attr.meta {
        errors.error(nv.eq_token.span, "write `#[acc::r#loop(clauses)]`");
    }
    parse::loop_directive(attr.path().segments.last().unwrap().ident.span(), attr_tokens(attr), errors)
}

impl LoopDirectives {
    /// Parses the directive of every loop in `body` (closures and nested items included).
    pub fn of(body: &syn::Block) -> Self {
        struct Walk(LoopDirectives);
        impl<'ast> Visit<'ast> for Walk {
            fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
                if let Some(a) = loop_attr(f) {
                    self.0.by_attr.entry(AttrKey::of(a)).or_insert_with(|| {
                        let mut errors = Errors::default();
                        let d = read(a, &mut errors);
                        (d, errors.into_vec())
                    });
                }
                syn::visit::visit_expr_for_loop(self, f);
            }
        }
        let mut w = Walk(LoopDirectives::default());
        w.visit_block(body);
        w.0
    }

    /// The directive on loop `f` (a loop of the body, or a clone of one); `None` when it has
    /// no `#[acc::r#loop]`.
    pub fn get(&self, f: &ExprForLoop) -> Option<&LoopDirective> {
        self.entry(f).map(|e| &e.0)
    }

    /// What parsing the directive on loop `f` found wrong.
    pub fn errors_of(&self, f: &ExprForLoop) -> &[syn::Error] {
        self.entry(f).map_or(&[], |e| &e.1)
    }

    fn entry(&self, f: &ExprForLoop) -> Option<&(LoopDirective, Vec<syn::Error>)> {
        let a = loop_attr(f)?;
        let d = self.by_attr.get(&AttrKey::of(a));
        assert!(d.is_some(), "acc: the loop directive at {:?} was not in the region body's table", a.pound_token.span.start());
        d
    }
}
