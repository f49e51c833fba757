//! Element indices proved in bounds at the launch (loop versioning of the bounds checks).
//!
//! Device code checks every element index (`acc_device::ix`), as Rust does: on a stencil the
//! checks are most of the kernel's instructions and registers (the 13-point wave step runs at
//! 0.58 of nvcc's speed with them, 0.94 without). Most indices are sums and products of the
//! nest's loop variables, the region's scalars and literals: over the loops' ranges such an
//! index is largest where its variables are, so the host can bound it before the launch.
//!
//! [`prove`] walks a nest and finds, for each index `x[e]` on a region array, the interval
//! `e` stays in: each loop variable ranges over its loop's bounds, each `let` over its
//! initialiser's interval, a name from outside the nest (a parameter, a local, a `const`)
//! is its value at the launch, and `+`, `-`, `*`, `/`, `%`, `min` and `max` combine intervals
//! (unsigned and monotone: `a - b` is in `[a.lo - b.hi, a.hi - b.lo]`). The host computes each
//! bound with checked arithmetic, so a bound that would wrap proves nothing: where every
//! operation stays in range for every point of the loops' ranges, the device's wrapping
//! arithmetic gives the exact value, which lies in the interval.
//!
//! Where every index of the nest is proved and nothing else in it panics at the user's tokens
//! ([`Proved::panic_free`]), the nest has two kernels: the checked one, and one whose indices
//! are written `x[unsafe { acc_device::unchecked(e) }]` (no check). The launch runs the second
//! where every index's upper bound is below its array's length for the launch's values, else
//! the first: an index that would go past its array (or a bound that cannot be computed) keeps
//! the checks, and the panic at the user's line, of every access.
//!
//! Not proved (checked as before): indices inside closures, macros, `if let`/`while let` and
//! `match` arms' bindings, those using a name the nest assigns or borrows mutably, a `mut`
//! local, a cast of anything but a name, a call, a field, or an array element; the indices of
//! routines (their own code).

use std::collections::{HashMap, HashSet};

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, ToTokens};
use syn::visit::Visit;
use syn::{BinOp, Expr, ExprForLoop, Ident, Pat, RangeLimits};

use crate::front::loops::{place_root, strip_parens as strip};

/// An index of the nest: where its array's name starts, and the tokens of `x[e]`. (Two
/// indices share a site only where a `macro_rules!` expansion repeats tokens: see [`prove`].)
pub type Site = ((usize, usize), String);

/// The site of `x[e]`.
pub fn site(e: &syn::ExprIndex) -> Site {
    let start = e.expr.to_token_stream().into_iter().next().map_or(Span::call_site(), |t| t.span()).start();
    ((start.line, start.column), e.to_token_stream().to_string())
}

/// What [`prove`] found in a nest.
pub struct Proved {
    /// The indices whose bounds the launch checks.
    pub sites: HashSet<Site>,
    /// The nest's element indices (proved or not).
    pub total: usize,
    /// Whether the nest, its proved indices unchecked, can panic at none of its own tokens:
    /// every index proved, and no macro, integer division or remainder (by zero), or method
    /// that panics at its caller (`unwrap`, `expect`, ..). (A routine's panics are located in
    /// the routine.) The unchecked kernel is made only then: the device crate's printer keeps
    /// the user's lines for one copy of a nest's tokens, the checked kernel's.
    pub panic_free: bool,
    /// Host code, the body of a closure returning `Option<bool>`: `Some(true)` where every
    /// proved index is inside its array for the launch's values.
    pub check: TokenStream,
}

/// The indices of nest `f` on `arrays` (the region's array parameters) that the host can
/// bound at the launch, or `None` when there are none.
pub fn prove(f: &ExprForLoop, arrays: &[Ident]) -> Option<Proved> {
    let mut p = Prover { arrays, env: Vec::new(), binds: Vec::new(), assigned: assigned_names(f), stmts: Vec::new(), cache: HashMap::new(), log: Vec::new(), checks: Vec::new(), sites: HashSet::new(), temps: 0 };
    p.visit_expr_for_loop(f);
    // Sites repeated by a macro expansion may stand for indices in other scopes: none of them
    // is rewritten.
    let mut count: HashMap<Site, usize> = HashMap::new();
    let mut all = Sites(Vec::new());
    all.visit_expr_for_loop(f);
    for s in &all.0 {
        *count.entry(s.clone()).or_default() += 1;
    }
    let Prover { stmts, checks, mut sites, .. } = p;
    sites.retain(|s| count.get(s) == Some(&1));
    if sites.is_empty() {
        return None;
    }
    // The checks of the sites kept (a repeated site's bound costs nothing but is not needed).
    let checks: Vec<TokenStream> = checks.into_iter().filter(|(s, _)| sites.contains(s)).map(|(_, c)| c).collect();
    let check = quote! {
        #(#stmts)*
        ::core::option::Option::Some(true #(&& #checks)*)
    };
    let mut panics = Panics(false);
    panics.visit_expr_for_loop(f);
    let panic_free = sites.len() == all.0.len() && !panics.0;
    Some(Proved { sites, total: all.0.len(), check, panic_free })
}

/// Whether a nest holds a panic site other than its indices (see [`Proved::panic_free`]).
struct Panics(bool);

impl<'ast> Visit<'ast> for Panics {
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.0 |= !crate::syntax::is_acc_path(&m.path, "cache");
    }
    fn visit_bin_op(&mut self, op: &'ast BinOp) {
        self.0 |= matches!(op, BinOp::Div(_) | BinOp::Rem(_) | BinOp::DivAssign(_) | BinOp::RemAssign(_));
    }
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        const AT_CALLER: &[&str] = &["unwrap", "expect", "unwrap_err", "expect_err", "swap", "copy_from_slice", "clone_from_slice", "split_at", "split_at_mut", "div_euclid", "rem_euclid", "pow", "step_by", "chunks", "windows"];
        self.0 |= AT_CALLER.contains(&m.method.to_string().as_str());
        syn::visit::visit_expr_method_call(self, m);
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// A name bound inside the nest.
enum Bind {
    /// A loop variable over `lo..hi` (`..=` when `inclusive`).
    Var { lo: Expr, hi: Expr, inclusive: bool },
    /// A `let` without `mut`, with its initialiser.
    Let(Expr),
    /// Anything else (a `mut` local, a pattern's names, a closure's parameters).
    Opaque,
}

struct Prover<'a> {
    arrays: &'a [Ident],
    /// The names in scope, innermost last: the name and its binding (an index of `binds`).
    env: Vec<(String, usize)>,
    /// Each binding, and the length of `env` where it was made (the names its expressions see).
    binds: Vec<(Bind, usize)>,
    /// Names the nest assigns, borrows mutably or passes to a method or macro.
    assigned: HashSet<String>,
    /// The host's statements: `let __acc_bN: (usize, usize) = ..;`.
    stmts: Vec<TokenStream>,
    /// Each binding's interval, once computed (`None`: it has none).
    cache: HashMap<usize, Option<Ident>>,
    /// The bindings cached, in order (undone with the statements of an index not proved).
    log: Vec<usize>,
    /// Each proved index and its check (`hi < x.len()`).
    checks: Vec<(Site, TokenStream)>,
    sites: HashSet<Site>,
    temps: usize,
}

impl Prover<'_> {
    fn lookup(&self, name: &str, visible: usize) -> Option<usize> {
        self.env[..visible].iter().rev().find(|(n, _)| n == name).map(|(_, b)| *b)
    }

    fn bind(&mut self, name: String, b: Bind) {
        self.binds.push((b, self.env.len()));
        self.env.push((name, self.binds.len() - 1));
    }

    fn opaque_pattern(&mut self, pat: &Pat) {
        let mut names = PatNames(Vec::new());
        names.visit_pat(pat);
        for n in names.0 {
            self.bind(n, Bind::Opaque);
        }
    }

    /// A new host variable holding `(lo, hi)`.
    fn emit(&mut self, lo: TokenStream, hi: TokenStream) -> Ident {
        let b = format_ident!("__acc_b{}", self.temps);
        self.temps += 1;
        self.stmts.push(quote!(let #b: (usize, usize) = (#lo, #hi);));
        b
    }

    /// A new host variable holding the one value `value` (a `usize` at the launch).
    fn point(&mut self, value: TokenStream) -> Ident {
        let v = format_ident!("__acc_b{}", self.temps);
        self.temps += 1;
        self.stmts.push(quote!(let #v: usize = #value;));
        self.emit(quote!(#v), quote!(#v))
    }

    /// The interval of `e` with the names of `env[..visible]`: the host variable holding it.
    fn interval(&mut self, e: &Expr, visible: usize) -> Option<Ident> {
        match e {
            Expr::Paren(p) => self.interval(&p.expr, visible),
            Expr::Group(g) => self.interval(&g.expr, visible),
            Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) if matches!(i.suffix(), "" | "usize") => {
                let v: usize = i.base10_parse().ok()?;
                Some(self.emit(quote!(#v), quote!(#v)))
            }
            Expr::Path(p) if p.qself.is_none() => {
                let id = p.path.get_ident()?;
                match self.lookup(&id.to_string(), visible) {
                    Some(b) => self.binding(b),
                    None => self.invariant(id),
                }
            }
            Expr::Cast(c) => {
                // `n as usize` of a name from outside the nest: its value at the launch.
                let Expr::Path(p) = strip(&c.expr) else { return None };
                let id = p.path.get_ident()?;
                let syn::Type::Path(t) = &*c.ty else { return None };
                if !t.path.is_ident("usize") || self.lookup(&id.to_string(), visible).is_some() || !self.outside(id) {
                    return None;
                }
                Some(self.point(quote!(#id as usize)))
            }
            Expr::MethodCall(m) if m.turbofish.is_none() => {
                let method = m.method.to_string();
                match (method.as_str(), m.args.len()) {
                    ("len", 0) => {
                        let Expr::Path(p) = strip(&m.receiver) else { return None };
                        let id = p.path.get_ident()?;
                        if !self.arrays.contains(id) || self.lookup(&id.to_string(), visible).is_some() {
                            return None;
                        }
                        Some(self.point(quote!(#id.len())))
                    }
                    ("min" | "max", 1) => {
                        let a = self.interval(&m.receiver, visible)?;
                        let b = self.interval(&m.args[0], visible)?;
                        let op = &m.method;
                        Some(self.emit(quote!(#a.0.#op(#b.0)), quote!(#a.1.#op(#b.1))))
                    }
                    _ => None,
                }
            }
            Expr::Binary(bin) => {
                let a = self.interval(&bin.left, visible)?;
                let b = self.interval(&bin.right, visible)?;
                Some(match bin.op {
                    BinOp::Add(_) => self.emit(quote!(#a.0.checked_add(#b.0)?), quote!(#a.1.checked_add(#b.1)?)),
                    BinOp::Mul(_) => self.emit(quote!(#a.0.checked_mul(#b.0)?), quote!(#a.1.checked_mul(#b.1)?)),
                    BinOp::Sub(_) => self.emit(quote!(#a.0.checked_sub(#b.1)?), quote!(#a.1.checked_sub(#b.0)?)),
                    BinOp::Div(_) => self.emit(quote!(#a.0.checked_div(#b.1)?), quote!(#a.1.checked_div(#b.0)?)),
                    BinOp::Rem(_) => self.emit(quote!(0usize), quote!(#a.1.min(#b.1.checked_sub(1)?))),
                    _ => return None,
                })
            }
            _ => None,
        }
    }

    /// A name from outside the nest that keeps its value through the launch.
    fn outside(&self, id: &Ident) -> bool {
        !id.to_string().starts_with("__acc") && !self.assigned.contains(&id.to_string()) && !self.arrays.contains(id)
    }

    /// The interval of a name from outside the nest: its value at the launch.
    fn invariant(&mut self, id: &Ident) -> Option<Ident> {
        if !self.outside(id) {
            return None;
        }
        Some(self.point(quote!(::acc::__private::index_leaf(#id))))
    }

    /// The interval of binding `b` (computed once).
    fn binding(&mut self, b: usize) -> Option<Ident> {
        if let Some(c) = self.cache.get(&b) {
            return c.clone();
        }
        let visible = self.binds[b].1;
        let r = match &self.binds[b].0 {
            Bind::Opaque => None,
            Bind::Let(init) => {
                let init = init.clone();
                self.interval(&init, visible)
            }
            Bind::Var { lo, hi, inclusive } => {
                let (lo, hi, inclusive) = (lo.clone(), hi.clone(), *inclusive);
                match (self.interval(&lo, visible), self.interval(&hi, visible)) {
                    (Some(l), Some(h)) if inclusive => Some(self.emit(quote!(#l.0), quote!(#h.1))),
                    (Some(l), Some(h)) => Some(self.emit(quote!(#l.0), quote!(#h.1.checked_sub(1)?))),
                    _ => None,
                }
            }
        };
        self.cache.insert(b, r.clone());
        self.log.push(b);
        r
    }

    /// Proves `x[e]` where it can; the statements of a failed attempt are undone.
    fn index(&mut self, e: &syn::ExprIndex) {
        let Expr::Path(p) = strip(&e.expr) else { return };
        let Some(x) = p.path.get_ident() else { return };
        if !self.arrays.contains(x) || self.lookup(&x.to_string(), self.env.len()).is_some() {
            return;
        }
        let (stmts, log, temps) = (self.stmts.len(), self.log.len(), self.temps);
        match self.interval(&e.index, self.env.len()) {
            Some(b) => {
                let s = site(e);
                self.checks.push((s.clone(), quote!(#b.1 < #x.len())));
                self.sites.insert(s);
            }
            None => {
                self.stmts.truncate(stmts);
                for b in self.log.drain(log..) {
                    self.cache.remove(&b);
                }
                self.temps = temps;
            }
        }
    }
}

/// A loop's variable and range: `a..b`, `a..=b`, each maybe in parentheses, with
/// `.step_by(s)` or `.rev()` (the values are among the range's either way).
fn loop_range(f: &ExprForLoop) -> Option<(Ident, Expr, Expr, bool)> {
    let Pat::Ident(p) = &*f.pat else { return None };
    if p.mutability.is_some() || p.by_ref.is_some() || p.subpat.is_some() {
        return None;
    }
    let mut e = strip(&f.expr);
    while let Expr::MethodCall(m) = e {
        if !matches!((m.method.to_string().as_str(), m.args.len()), ("step_by", 1) | ("rev", 0)) {
            return None;
        }
        e = strip(&m.receiver);
    }
    let Expr::Range(r) = e else { return None };
    let (Some(lo), Some(hi)) = (&r.start, &r.end) else { return None };
    Some((p.ident.clone(), (**lo).clone(), (**hi).clone(), matches!(r.limits, RangeLimits::Closed(_))))
}

impl<'ast> Visit<'ast> for Prover<'_> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        let depth = self.env.len();
        for s in &b.stmts {
            self.visit_stmt(s);
        }
        self.env.truncate(depth);
    }
    fn visit_local(&mut self, l: &'ast syn::Local) {
        if let Some(init) = &l.init {
            self.visit_expr(&init.expr);
            if let Some((_, d)) = &init.diverge {
                self.visit_expr(d);
            }
        }
        let (pat, typed) = match &l.pat {
            Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
            p => (p, None),
        };
        let usize_or_none = typed.is_none_or(|t| matches!(t, syn::Type::Path(p) if p.path.is_ident("usize")));
        match (pat, &l.init) {
            (Pat::Ident(p), Some(init)) if p.mutability.is_none() && p.by_ref.is_none() && p.subpat.is_none() && init.diverge.is_none() && usize_or_none => {
                self.bind(p.ident.to_string(), Bind::Let((*init.expr).clone()));
            }
            _ => self.opaque_pattern(pat),
        }
    }
    fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
        self.visit_expr(&f.expr);
        let depth = self.env.len();
        match loop_range(f) {
            Some((var, lo, hi, inclusive)) => self.bind(var.to_string(), Bind::Var { lo, hi, inclusive }),
            None => self.opaque_pattern(&f.pat),
        }
        self.visit_block(&f.body);
        self.env.truncate(depth);
    }
    fn visit_expr_index(&mut self, e: &'ast syn::ExprIndex) {
        self.index(e);
        syn::visit::visit_expr_index(self, e);
    }
    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.visit_expr(&m.expr);
        for arm in &m.arms {
            let depth = self.env.len();
            self.opaque_pattern(&arm.pat);
            if let Some((_, g)) = &arm.guard {
                self.visit_expr(g);
            }
            self.visit_expr(&arm.body);
            self.env.truncate(depth);
        }
    }
    // Bindings these make are not followed: their indices keep their checks.
    fn visit_expr_let(&mut self, _: &'ast syn::ExprLet) {}
    fn visit_expr_if(&mut self, i: &'ast syn::ExprIf) {
        if !matches!(strip(&i.cond), Expr::Let(_)) && !has_let(&i.cond) {
            syn::visit::visit_expr_if(self, i);
        }
    }
    fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
        if !has_let(&w.cond) {
            syn::visit::visit_expr_while(self, w);
        }
    }
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    fn visit_macro(&mut self, _: &'ast syn::Macro) {}
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Whether a condition binds names (`if let`, `a && let ..`).
fn has_let(e: &Expr) -> bool {
    struct V(bool);
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_let(&mut self, _: &'ast syn::ExprLet) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    }
    let mut v = V(false);
    v.visit_expr(e);
    v.0
}

/// The names a pattern binds.
struct PatNames(Vec<String>);

impl<'ast> Visit<'ast> for PatNames {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.push(p.ident.to_string());
        syn::visit::visit_pat_ident(self, p);
    }
}

/// Every index of the nest, closures included.
struct Sites(Vec<Site>);

impl<'ast> Visit<'ast> for Sites {
    fn visit_expr_index(&mut self, e: &'ast syn::ExprIndex) {
        self.0.push(site(e));
        syn::visit::visit_expr_index(self, e);
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// The names that may change in the nest: assigned (`n = ..`, `n += ..`), borrowed mutably,
/// the receiver of a method other than `len`, `min`, `max`, or named in a macro's tokens.
fn assigned_names(f: &ExprForLoop) -> HashSet<String> {
    fn root(e: &Expr) -> Option<String> {
        match strip(e) {
            Expr::Unary(u) => root(&u.expr),
            e => place_root(e).map(|(id, _)| id.to_string()),
        }
    }
    fn idents(ts: TokenStream, out: &mut HashSet<String>) {
        for t in ts {
            match t {
                proc_macro2::TokenTree::Ident(i) => {
                    out.insert(i.to_string());
                }
                proc_macro2::TokenTree::Group(g) => idents(g.stream(), out),
                _ => {}
            }
        }
    }
    struct V(HashSet<String>);
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            self.0.extend(root(&a.left));
            syn::visit::visit_expr_assign(self, a);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            if crate::front::loops::is_compound_assign(&b.op) {
                self.0.extend(root(&b.left));
            }
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
            if r.mutability.is_some() {
                self.0.extend(root(&r.expr));
            }
            syn::visit::visit_expr_reference(self, r);
        }
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            if !matches!(m.method.to_string().as_str(), "len" | "min" | "max") {
                self.0.extend(root(&m.receiver));
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            idents(m.tokens.clone(), &mut self.0);
        }
    }
    let mut v = V(HashSet::new());
    v.visit_expr_for_loop(f);
    v.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proved(src: &str, arrays: &[&str]) -> (Vec<String>, usize) {
        let f: ExprForLoop = syn::parse_str(src).unwrap();
        let arrays: Vec<Ident> = arrays.iter().map(|a| format_ident!("{}", a)).collect();
        match prove(&f, &arrays) {
            Some(p) => {
                let mut s: Vec<String> = p.sites.into_iter().map(|s| s.1.replace(' ', "")).collect();
                s.sort();
                (s, p.total)
            }
            None => (Vec::new(), 0),
        }
    }

    #[test]
    fn sums_and_products_of_loop_variables_and_outside_names_are_proved() {
        let (s, total) = proved(
            "for i in 1..n - 1 { for j in 1..n - 1 { b[i * n + j] = a[(i - 1) * n + j] + a[i * n + j - 1] + a[(i + 1).min(n - 1) * n + j] - 4.0 * a[i * n + j]; } }",
            &["a", "b"],
        );
        assert_eq!(s, ["a[(i+1).min(n-1)*n+j]", "a[(i-1)*n+j]", "a[i*n+j-1]", "a[i*n+j]", "b[i*n+j]"]);
        assert_eq!(total, 5);
    }

    #[test]
    fn lets_inner_loops_and_lengths_are_followed() {
        let (s, _) = proved("for i in 0..m { let c = i * 4; for k in (0..=3).rev() { y[c + k] = x[x.len() - 1 - k]; } }", &["x", "y"]);
        assert_eq!(s, ["x[x.len()-1-k]", "y[c+k]"]);
    }

    #[test]
    fn what_is_not_proved() {
        // A `mut` local, a name the nest assigns, a call, an array element, a closure's and
        // a pattern's bindings, a shadowed array, a cast of a loop variable.
        let src = "for i in 0..n { let mut t = i; t += 1; a[t] = 0.0; s += 1; a[i + s] = 1.0; a[f(i)] = 2.0; a[idx[i]] = 3.0;
            let g = |k: usize| a[k]; if let Some(q) = o { a[q] = 4.0; } let a = &b[..]; c[a.len() + i] = 5.0; c[i as usize] = 6.0; }";
        let (s, total) = proved(src, &["a", "b", "c", "idx"]);
        assert_eq!(s, ["idx[i]"]);
        assert_eq!(total, 10);
    }

    #[test]
    fn a_name_shadowed_later_keeps_the_value_the_let_saw() {
        // `c` is the loop's `i`, not the `i` of the later `let`.
        let f: ExprForLoop = syn::parse_str("for i in 0..n { let c = i; let i = 7; a[c] = 0.0; a[i] = 1.0; }").unwrap();
        let p = prove(&f, &[format_ident!("a")]).unwrap();
        let check = p.check.to_string().replace(' ', "");
        // `a[c]`: the loop's interval, `0..n`; `a[i]`: the literal 7.
        assert!(check.contains("checked_sub(1)?"), "{check}");
        assert!(check.contains("(7usize,7usize)"), "{check}");
        assert_eq!(p.sites.len(), 2);
    }

    #[test]
    fn subtraction_and_division_bound_each_side_by_the_other_s_extreme() {
        let f: ExprForLoop = syn::parse_str("for i in 2..n { a[(i - 2) / 2 % m] = 0.0; }").unwrap();
        let check = prove(&f, &[format_ident!("a")]).unwrap().check.to_string().replace(' ', "");
        assert!(check.contains(".0.checked_sub(__acc_b"), "{check}");
        assert!(check.contains(".1.checked_div(__acc_b"), "{check}");
        assert!(check.contains(".checked_sub(1)?)"), "{check}");
    }
}
