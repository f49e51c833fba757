//! Array sections and slices in `reduction`: `reduction(+: q[lo..hi])` (OpenACC 2.7's
//! `q[lo:len]`) on a local array `[T; N]`, and `reduction(+: h)` / `reduction(+: h[lo..hi])`
//! on a region's array parameter (`h: &mut [T]`, OpenACC C's `reduction(+: h[0:n])` on a
//! pointer).
//!
//! - **A section of a local array.** Its loop reduces the whole array, as `reduction(+: q)`
//!   does: each copy of `q` starts as the operator's identity and the copies are combined
//!   into `q` at the end, so an element the loop never touches ends as it was (the original
//!   combined with the identity). The section is the promise that the loop touches only its
//!   elements, which [`desugar`] makes a check: every `q[e]` in the loop's body indexes
//!   through `e` checked against the section (a panic naming the section otherwise, on the
//!   host and in a kernel alike), and any other use of `q` there but `q.len()` is refused at
//!   compile time. (A read outside the section would see the identity, not the element:
//!   OpenACC leaves those elements shared, which a private copy cannot be.)
//! - **An array parameter** (a slice of the caller's, of any length): its elements are
//!   combined in place by atomic updates, `h[e] op= x` becoming `acc::atomic!(h[e] op= x)`
//!   (`h[e] = h[e].max(x)` for `max` and `min`), which gives what the copies combined into
//!   `h` would. So the loop may only update elements with the clause's operator: a read, a
//!   plain store or another operator is refused at compile time, and with a section each
//!   index is checked as above. The clause then names the parameter no more (the loop's other
//!   reductions stay); the atomics are in the schedule report.
//!
//! It runs on a region's free fn before its loops are read ([`crate::front::region::Form::read`]),
//! so both builds lower the same body, and the rest of the compiler sees a reduction of `q`
//! and no reduction of `h`.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, Ident, ItemFn};

use crate::front::atomic::{first_mention, update, AtomicForm, AtomicKind, AtomicOp, Place};
use crate::front::directives;
use crate::front::model::{RedOp, RegionDirective, Section};
use crate::report::Errors;
use crate::syntax::loop_attr;

/// Rewrites the loops of `f` that reduce sections or array parameters: each loop's own clauses
/// apply to its body, the region's to the bodies of its outermost `acc::loop`s. Refuses what
/// they cannot take in `errors`.
/// `arrays` are the region's `&mut [T]` parameters (a `&[T]` cannot be updated, which
/// `check::body` says).
pub fn desugar(f: &mut ItemFn, dir: &RegionDirective, arrays: Vec<Ident>, errors: &mut Errors) {
    let mut region = Vec::new();
    // (A region's clause naming an array parameter is refused by `check::region_clauses`.)
    for r in &dir.clauses.reduction {
        region.extend(r.sections.iter().filter(|s| !arrays.contains(&s.var)).map(|s| Reduced { section: Some(s.clone()), var: s.var.clone(), op: r.op, array: false }));
    }
    Loops { region, arrays, errors }.visit_block_mut(&mut f.block);
}

/// One reduced array of a loop that needs rewriting: a section of a local array, or an
/// array parameter (`array`), with or without a section.
#[derive(Clone)]
struct Reduced {
    var: Ident,
    op: RedOp,
    section: Option<Section>,
    array: bool,
}

/// Finds the loops whose directives reduce sections or array parameters; `region` holds the
/// region's sections, for its outermost loops (the code around them runs in every gang, and
/// declares and returns the array).
struct Loops<'e> {
    region: Vec<Reduced>,
    arrays: Vec<Ident>,
    errors: &'e mut Errors,
}

impl VisitMut for Loops<'_> {
    fn visit_expr_for_loop_mut(&mut self, f: &mut ExprForLoop) {
        let Some(a) = loop_attr(f) else {
            return syn::visit_mut::visit_expr_for_loop_mut(self, f);
        };
        // (Errors in the directive are reported when the loops are read.)
        let d = directives::read(a, &mut Errors::default());
        let mut reduced = std::mem::take(&mut self.region);
        let outer = reduced.clone();
        for r in &d.reduction {
            for v in &r.vars {
                let array = self.arrays.contains(v);
                let section = r.sections.iter().find(|s| s.var == *v).cloned();
                if array || section.is_some() {
                    reduced.push(Reduced { var: v.clone(), op: r.op, section, array });
                }
            }
        }
        let slices: Vec<Ident> = reduced.iter().filter(|r| r.array).map(|r| r.var.clone()).collect();
        if !slices.is_empty() {
            let a = f.attrs.iter_mut().find(|a| crate::syntax::is_acc_path(a.path(), "loop")).expect("the loop attribute");
            if let syn::Meta::List(l) = &mut a.meta {
                l.tokens = without_reduced(l.tokens.clone(), &slices);
            }
        }
        for r in &reduced {
            Rewrite { r, errors: &mut *self.errors }.visit_block_mut(&mut f.body);
        }
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
        self.region = outer;
    }
}

/// A loop directive's tokens with the variables `drop` taken out of its `reduction` clauses
/// (a clause left with none taken out whole).
fn without_reduced(tokens: TokenStream, drop: &[Ident]) -> TokenStream {
    let mut out = Vec::new();
    for clause in split_commas(tokens) {
        let is_reduction = matches!(clause.first(), Some(TokenTree::Ident(i)) if i == "reduction");
        let (Some(TokenTree::Group(g)), true) = (clause.get(1), is_reduction) else {
            out.push(clause);
            continue;
        };
        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
        let Some(colon) = inner.iter().position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ':')) else {
            out.push(clause);
            continue;
        };
        let vars: Vec<Vec<TokenTree>> = split_commas(inner[colon + 1..].iter().cloned().collect())
            .into_iter()
            .filter(|v| !matches!(v.first(), Some(TokenTree::Ident(i)) if drop.contains(i)))
            .collect();
        if vars.is_empty() {
            continue;
        }
        let mut stream: Vec<TokenTree> = inner[..=colon].to_vec();
        stream.extend(join_commas(vars));
        let mut group = Group::new(Delimiter::Parenthesis, stream.into_iter().collect());
        group.set_span(g.span());
        out.push(vec![clause[0].clone(), TokenTree::Group(group)]);
    }
    join_commas(out).into_iter().collect()
}

/// The comma-separated parts of `tokens` (commas inside groups are the groups').
fn split_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    for t in tokens {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(Vec::new()),
            _ => parts.last_mut().expect("a part").push(t),
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

fn join_commas(parts: Vec<Vec<TokenTree>>) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for (i, p) in parts.into_iter().enumerate() {
        if i > 0 {
            out.extend(quote!(,));
        }
        out.extend(p);
    }
    out
}

/// Rewrites one reduced array's uses in a loop body (see the module docs).
struct Rewrite<'a, 'e> {
    r: &'a Reduced,
    errors: &'e mut Errors,
}

impl Rewrite<'_, '_> {
    fn is_var(&self, e: &Expr) -> bool {
        matches!(e, Expr::Path(p) if p.qself.is_none() && p.path.is_ident(&self.r.var))
    }

    /// How messages name the array: its section, or the parameter.
    fn named(&self) -> String {
        match &self.r.section {
            Some(s) => format!("`{}` is reduced over the section `{}`", self.r.var, s.text),
            None => format!("the array parameter `{}` is reduced with `{}`", self.r.var, self.r.op.symbol()),
        }
    }

    /// `{ let i: usize = e; if !(in the section) { panic!(..) } i }` spanned at `e`, or `e`
    /// without a section.
    fn checked(&self, e: &Expr) -> Expr {
        let Some(s) = &self.r.section else { return e.clone() };
        let at = e.span();
        let (lo, hi) = (&s.lo, &s.hi);
        let range = match (lo, hi, s.inclusive) {
            (None, None, _) => return e.clone(),
            (_, _, true) => quote_spanned!(at=> (#lo..=#hi)),
            _ => quote_spanned!(at=> (#lo..#hi)),
        };
        let msg = format!("acc: an index of `{}` outside the section `{}` its loop reduces (a loop that reduces a section may touch only its elements)", s.var, s.text);
        syn::parse_quote_spanned! {at=>
            {
                let __acc_i: usize = #e;
                if !#range.contains(&__acc_i) {
                    ::core::panic!(#msg);
                }
                __acc_i
            }
        }
    }

    /// `h[i] op= x` (or `h[i] = h[i].max(x)`) of an array parameter, as an atomic update;
    /// `None` when `e` does not assign an element of `h`. Reports an update with another
    /// operator, or another assignment.
    fn atomic_update(&mut self, e: &Expr) -> Option<Expr> {
        let left = match e {
            Expr::Binary(b) if crate::front::loops::is_compound_assign(&b.op) => &b.left,
            Expr::Assign(a) => &a.left,
            _ => return None,
        };
        let Expr::Index(ix) = &**left else { return None };
        if !self.is_var(&ix.expr) {
            return None;
        }
        let at = ix.span();
        let want = AtomicOp::of_reduction(self.r.op);
        let (op, mut index, mut value) = match (update(e), want) {
            (Ok((op, Place::Element { index, .. }, value)), Some(w)) if op == w => (op, *index, value),
            _ => {
                let form = match want {
                    Some(w) => format!("`{}`", w.text(&format!("{}[i]", self.r.var), "x")),
                    None => format!("`&` or `|` on `bool` elements (`{}[i] &= x`)", self.r.var),
                };
                self.errors.error(at, format!("{}: in the loop, update its elements only as {form}", self.named()));
                return Some(e.clone());
            }
        };
        self.visit_expr_mut(&mut index);
        self.visit_expr_mut(&mut value);
        let index = self.checked(&index);
        let v = &self.r.var;
        let update = match e {
            Expr::Binary(b) => {
                let assign = b.op;
                quote_spanned!(at=> ::acc::atomic!(#v[__acc_at] #assign __acc_x))
            }
            _ => {
                let m = Ident::new(if op == AtomicOp::Max { "max" } else { "min" }, at);
                quote_spanned!(at=> ::acc::atomic!(#v[__acc_at] = #v[__acc_at].#m(__acc_x)))
            }
        };
        Some(syn::parse_quote_spanned! {at=>
            {
                let __acc_at: usize = #index;
                let __acc_x = #value;
                #update;
            }
        })
    }
}

impl VisitMut for Rewrite<'_, '_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if self.r.array {
            if let Some(update) = self.atomic_update(&*e) {
                *e = update;
                return;
            }
        }
        match e {
            Expr::Index(ix) if self.is_var(&ix.expr) => {
                if self.r.array {
                    self.errors.error(ix.span(), format!("{}: in the loop, its elements are only updated (read them after the loop)", self.named()));
                    return;
                }
                if let Expr::Range(r) = &*ix.index {
                    self.errors.error(r.span(), format!("{}: index one element at a time here (`{}[i]`, `i` in the section)", self.named(), self.r.var));
                    return;
                }
                self.visit_expr_mut(&mut ix.index);
                *ix.index = self.checked(&ix.index);
            }
            // Its length is no element's.
            Expr::MethodCall(m) if self.is_var(&m.receiver) && m.args.is_empty() && (m.method == "len" || m.method == "is_empty") => {}
            _ if self.is_var(e) => {
                self.errors.error(e.span(), format!("{}: here use only its elements (`{}[i]`{})", self.named(), self.r.var, if self.r.array { ", updated" } else { ", `i` in the section" }));
            }
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }

    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        // A macro's tokens are not expressions yet; one that names the array is refused, but
        // for the atomic updates of an array parameter (an outer loop's clause made them).
        if self.r.array && crate::syntax::is_acc_path(&m.path, "atomic") {
            return;
        }
        if first_mention(m.tokens.clone(), &self.r.var).is_some() {
            self.errors.error(m.path.span(), format!("{}: a macro here cannot use it (write its elements, `{}[i]`, outside the macro)", self.named(), self.r.var));
        }
    }
}

/// The array parameters whose reductions [`desugar`] made atomic updates in `body` (found by
/// the index it binds), each with its update's operator, in the order of the body: what the
/// schedule report says of them.
pub fn in_place(body: &syn::Block) -> Vec<(Ident, AtomicOp)> {
    struct V(Vec<(Ident, AtomicOp)>);
    impl<'ast> syn::visit::Visit<'ast> for V {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if !crate::syntax::is_acc_path(&m.path, "atomic") {
                return;
            }
            let Ok(AtomicForm { kind: AtomicKind::Update { op, place: Place::Element { base, index }, .. }, .. }) = syn::parse2(m.tokens.clone()) else { return };
            let ours = matches!(&*index, Expr::Path(p) if p.path.is_ident("__acc_at"));
            if ours && !self.0.iter().any(|(w, o)| *w == base && *o == op) {
                self.0.push((base, op));
            }
        }
    }
    let mut v = V(Vec::new());
    syn::visit::Visit::visit_block(&mut v, body);
    v.0
}
