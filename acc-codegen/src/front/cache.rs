//! `acc::cache!(a[lo..hi], b[lo..=hi])`: stage array windows in the gang's shared memory. On the
//! host backend the hint has no effect; its form is checked the same on every backend.

use proc_macro2::TokenStream;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Token};

/// One cached window: `a[lo..hi]`.
pub struct Window {
    pub array: Ident,
    pub lo: Expr,
    pub hi: Expr,
    pub inclusive: bool,
}

pub fn parse(tokens: TokenStream) -> syn::Result<Vec<Window>> {
    let items = Punctuated::<Expr, Token![,]>::parse_terminated.parse2(tokens.clone())?;
    if items.is_empty() {
        return Err(syn::Error::new(
            tokens.span(),
            "`acc::cache!` needs at least one array window, as in `acc::cache!(a[i - 1..i + 2])`",
        ));
    }
    items
        .into_iter()
        .map(|e| {
            let Expr::Index(ix) = &e else {
                return Err(syn::Error::new(e.span(), "expected an array window `a[lo..hi]`"));
            };
            let Expr::Path(p) = &*ix.expr else {
                return Err(syn::Error::new(ix.expr.span(), "the cached array must be a named variable"));
            };
            let Some(array) = p.path.get_ident().cloned() else {
                return Err(syn::Error::new(ix.expr.span(), "the cached array must be a named variable"));
            };
            let Expr::Range(r) = &*ix.index else {
                return Err(syn::Error::new(
                    ix.index.span(),
                    "a cache window is a range `lo..hi` or `lo..=hi` (the OpenACC `a[lo:len]` is `a[lo..lo + len]`)",
                ));
            };
            let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
                return Err(syn::Error::new(r.span(), "a cache window needs both bounds"));
            };
            Ok(Window {
                array,
                lo: (**lo).clone(),
                hi: (**hi).clone(),
                inclusive: matches!(r.limits, syn::RangeLimits::Closed(_)),
            })
        })
        .collect()
}

/// A window that moves with a loop variable: `a[v + lo ..= v + hi]` (offsets inclusive,
/// `lo <= hi`), as in `a[i - 1..=i + 1]` or `a[i..i + 3]`. This is the form acc stages in
/// shared memory on the GPU (the window shared by a block's iterations, the paper's
/// `length + blockDim.x - 1` elements) and checks references against at compile time (RBI).
#[derive(Clone, Debug)]
pub struct Moving {
    pub array: Ident,
    pub var: Ident,
    pub lo: i64,
    pub hi: i64,
}

fn strip(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip(&p.expr),
        Expr::Group(g) => strip(&g.expr),
        Expr::Cast(c) if matches!(&*c.ty, syn::Type::Path(p) if p.path.is_ident("usize")) => strip(&c.expr),
        e => e,
    }
}

fn literal(e: &Expr) -> Option<i64> {
    match strip(e) {
        Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. }) => n.base10_parse::<i64>().ok().filter(|n| n.unsigned_abs() < 1 << 20),
        _ => None,
    }
}

fn is_var(e: &Expr, var: &Ident) -> bool {
    matches!(strip(e), Expr::Path(p) if p.path.is_ident(var))
}

/// `c` when `e` is `var`, `var + c`, `var - c` or `c + var` with an integer literal `c`
/// (parentheses and `as usize` around any part allowed).
pub fn offset_of(e: &Expr, var: &Ident) -> Option<i64> {
    let e = strip(e);
    if is_var(e, var) {
        return Some(0);
    }
    let Expr::Binary(b) = e else { return None };
    match b.op {
        syn::BinOp::Add(_) if is_var(&b.left, var) => literal(&b.right),
        syn::BinOp::Add(_) if is_var(&b.right, var) => literal(&b.left),
        syn::BinOp::Sub(_) if is_var(&b.left, var) => literal(&b.right).map(|c| -c),
        _ => None,
    }
}

impl Window {
    /// The window as one that moves with one of `vars` (the loop's variables), if it is one.
    pub fn moving(&self, vars: &[Ident]) -> Option<Moving> {
        vars.iter().find_map(|v| {
            let lo = offset_of(&self.lo, v)?;
            let hi = offset_of(&self.hi, v)? - i64::from(!self.inclusive);
            (lo <= hi).then(|| Moving { array: self.array.clone(), var: v.clone(), lo, hi })
        })
    }
}

/// The windows of `body`'s leading `cache!` (none when it has none or it does not parse).
pub fn leading(body: &syn::Block) -> Vec<Window> {
    let m = match body.stmts.first() {
        Some(syn::Stmt::Macro(m)) => &m.mac,
        Some(syn::Stmt::Expr(Expr::Macro(m), _)) => &m.mac,
        _ => return Vec::new(),
    };
    if !crate::syntax::is_acc_path(&m.path, "cache") {
        return Vec::new();
    }
    parse(m.tokens.clone()).unwrap_or_default()
}

/// The windows of `body`'s `cache!` that move with one of `vars` and are the only window of
/// their array (a window that does not move, or a second one, leaves the array unstaged and
/// unchecked).
pub fn moving_windows(body: &syn::Block, vars: &[Ident]) -> Vec<Moving> {
    let all = leading(body);
    all.iter()
        .filter(|w| all.iter().filter(|o| o.array == w.array).count() == 1)
        .filter_map(|w| w.moving(vars))
        .collect()
}

/// The OpenACC rule (2.5 on): every reference to a cached array in the loop lies in its
/// window. acc proves it at compile time for a window that moves with the loop variable
/// (`a[i - r..=i + r]`): each `a[e]` in the body must be `a[i + c]` with a literal `c` inside
/// the window, and the body must not rebind `i` or `a`. What it cannot prove is a compile
/// error on the index (in every build: the rule is the program's, whatever the backend), so
/// that the GPU reads such references from shared memory with no range check (the paper's
/// RBI).
pub fn check_references(body: &syn::Block, vars: &[Ident], errors: &mut crate::report::Errors) {
    let windows = moving_windows(body, vars);
    if windows.is_empty() {
        return;
    }
    struct V<'w, 'e> {
        windows: &'w [Moving],
        errors: &'e mut crate::report::Errors,
    }
    impl<'ast> syn::visit::Visit<'ast> for V<'_, '_> {
        fn visit_expr_index(&mut self, ix: &'ast syn::ExprIndex) {
            if let Expr::Path(p) = strip(&ix.expr) {
                if let Some(w) = self.windows.iter().find(|w| p.path.is_ident(&w.array)) {
                    let inside = offset_of(&ix.index, &w.var).is_some_and(|c| (w.lo..=w.hi).contains(&c));
                    if !inside {
                        let (a, v) = (&w.array, &w.var);
                        let show = |c: i64| match c {
                            0 => format!("{v}"),
                            c if c < 0 => format!("{v} - {}", -c),
                            c => format!("{v} + {c}"),
                        };
                        self.errors.push(syn::Error::new_spanned(&ix.index, format!(
                            "`{a}` is cached as `{a}[{}..={}]`, and acc cannot prove this index inside that window: references to a cached array must lie in its window (OpenACC `cache`); write `{a}[{v} + c]` with a literal `c` from {} to {}, widen the window, or drop `cache!`",
                            show(w.lo), show(w.hi), w.lo, w.hi)));
                    }
                    // The index itself may read other arrays.
                    syn::visit::visit_expr(self, &ix.index);
                    return;
                }
            }
            syn::visit::visit_expr_index(self, ix);
        }
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            if let Some(w) = self.windows.iter().find(|w| p.ident == w.array || p.ident == w.var) {
                self.errors.error(p.ident.span(), format!(
                    "`{}` is rebound here, inside a loop whose `cache!` window `{}[..]` moves with `{}`: acc cannot check the window's references; use another name",
                    p.ident, w.array, w.var));
            }
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_macro(&mut self, _: &'ast syn::Macro) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V { windows: &windows, errors };
    for s in &body.stmts[1..] {
        syn::visit::Visit::visit_stmt(&mut v, s);
    }
}
