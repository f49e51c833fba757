//! The loop directives of a region body, each parsed once.
//!
//! The GPU lowering (`device.rs`, `schedule.rs`) asks about loops of the body many times
//! over, on clones of their syntax. [`LoopDirectives::of`] walks the body once, parses and
//! checks every `#[acc::r#loop(..)]` into the typed [`LoopDirective`], and the lowering looks
//! a loop's directive up here instead of reading its attribute again.

use std::collections::HashMap;

use quote::ToTokens;
use syn::visit::Visit;
use syn::ExprForLoop;

use crate::front::model::{LoopDirective, RegionKind};
use crate::lower::host::{self as region, is_acc_path};
use crate::report::Errors;

/// The parsed `#[acc::r#loop(..)]` of every loop of a region body.
#[derive(Default)]
pub struct LoopDirectives {
    by_attr: HashMap<AttrKey, LoopDirective>,
    /// What parsing and checking the directives found. The macro reports these (its own walk
    /// runs the same checks); the GPU lowering only reads the directives.
    pub errors: Errors,
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

fn loop_attr(f: &ExprForLoop) -> Option<&syn::Attribute> {
    f.attrs.iter().find(|a| is_acc_path(a.path(), "loop"))
}

impl LoopDirectives {
    /// Parses the directive of every loop in `body` (closures and nested items included) for
    /// a `kind` region.
    pub fn of(kind: RegionKind, body: &syn::Block) -> Self {
        struct Walk(RegionKind, LoopDirectives);
        impl<'ast> Visit<'ast> for Walk {
            fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
                if let Some(a) = loop_attr(f) {
                    let key = AttrKey::of(a);
                    if !self.1.by_attr.contains_key(&key) {
                        let d = region::loop_directive_of(a, self.0, &mut self.1.errors);
                        self.1.by_attr.insert(key, d);
                    }
                }
                syn::visit::visit_expr_for_loop(self, f);
            }
        }
        let mut w = Walk(kind, LoopDirectives::default());
        w.visit_block(body);
        w.1
    }

    /// The directive on loop `f` (a loop of the body, or a clone of one); `None` when it has
    /// no `#[acc::r#loop]`.
    pub fn get(&self, f: &ExprForLoop) -> Option<&LoopDirective> {
        let a = loop_attr(f)?;
        let d = self.by_attr.get(&AttrKey::of(a));
        assert!(d.is_some(), "acc: the loop directive at {:?} was not in the region body's table", a.pound_token.span.start());
        d
    }
}
