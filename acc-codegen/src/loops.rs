//! Loop headers and nests: the accepted `for` forms, normalised to `k in 0..trip` with
//! `i = lo + k * step`, `collapse`/`tile` nests, and the dependence test that `kernels`
//! regions use to decide whether a loop may run in parallel.

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, ExprForLoop, Ident, Pat, RangeLimits};

/// `lo..hi`, `lo..=hi`, `(lo..hi).step_by(s)`, `(lo..=hi).step_by(s)`.
#[derive(Clone)]
pub struct LoopHeader {
    /// The loop variable (`_` loops get a fresh name).
    pub var: Ident,
    pub lo: Expr,
    pub hi: Expr,
    pub inclusive: bool,
    pub step: Option<Expr>,
    pub span: Span,
}

pub const SUPPORTED_FORMS: &str =
    "acc loops iterate over `a..b`, `a..=b` or `(a..b).step_by(s)` with a plain loop variable";

fn strip_parens(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        e => e,
    }
}

impl LoopHeader {
    pub fn parse(f: &ExprForLoop) -> syn::Result<LoopHeader> {
        let var = match &*f.pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.clone(),
            Pat::Wild(w) => Ident::new("__acc_unused", w.span()),
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    format!("unsupported loop pattern: {SUPPORTED_FORMS}"),
                ))
            }
        };
        let (range, step) = match strip_parens(&f.expr) {
            Expr::MethodCall(m) if m.method == "step_by" && m.args.len() == 1 => {
                (strip_parens(&m.receiver), Some(m.args[0].clone()))
            }
            e => (e, None),
        };
        let Expr::Range(r) = range else {
            return Err(syn::Error::new(
                f.expr.span(),
                format!("unsupported loop form: {SUPPORTED_FORMS}"),
            ));
        };
        let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
            return Err(syn::Error::new(
                r.span(),
                format!("an acc loop needs both bounds: {SUPPORTED_FORMS}"),
            ));
        };
        Ok(LoopHeader {
            var,
            lo: (**lo).clone(),
            hi: (**hi).clone(),
            inclusive: matches!(r.limits, RangeLimits::Closed(_)),
            step,
            span: f.expr.span(),
        })
    }

    /// Names of the bound expressions' free identifiers (for rectangularity checks).
    pub fn mentions(&self, name: &Ident) -> bool {
        let mut found = mentions(&self.lo, name) || mentions(&self.hi, name);
        if let Some(s) = &self.step {
            found |= mentions(s, name);
        }
        found
    }
}

/// Whether `e` refers to the identifier `name` anywhere.
pub fn mentions(e: &Expr, name: &Ident) -> bool {
    struct Finder<'a> {
        name: &'a Ident,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_ident(&mut self, i: &'ast Ident) {
            if i == self.name {
                self.found = true;
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if m.tokens.to_string().split(|c: char| !c.is_alphanumeric() && c != '_').any(|t| self.name == t) {
                self.found = true;
            }
        }
    }
    let mut f = Finder { name, found: false };
    f.visit_expr(e);
    f.found
}

/// Whether statement `s` mentions `name`.
pub fn stmt_mentions(s: &syn::Stmt, name: &Ident) -> bool {
    block_mentions(&syn::Block { brace_token: Default::default(), stmts: vec![s.clone()] }, name)
}

/// Whether a block refers to `name` anywhere (macro bodies included).
pub fn block_mentions(b: &syn::Block, name: &Ident) -> bool {
    let e = Expr::Block(syn::ExprBlock { attrs: Vec::new(), label: None, block: b.clone() });
    mentions(&e, name)
}

/// The trip-count and index expressions of one normalised loop, as runtime calls under `rt`
/// (`::acc::__private` on the host, `::acc_device` on the device).
pub struct Normalised {
    /// `let` statements binding the bounds and `trip` once.
    pub setup: TokenStream,
    pub trip: Ident,
    /// Turns the iteration number `k` into the loop variable's value.
    pub index: Box<dyn Fn(&Ident) -> TokenStream>,
}

/// Normalises `header` into bound/trip bindings named after `tag`.
pub fn normalise(header: &LoopHeader, tag: usize, rt: &TokenStream) -> Normalised {
    let lo = Ident::new(&format!("__acc_lo{tag}"), header.span);
    let hi = Ident::new(&format!("__acc_hi{tag}"), header.span);
    let trip = Ident::new(&format!("__acc_trip{tag}"), header.span);
    let step = Ident::new(&format!("__acc_step{tag}"), header.span);
    let (lo_e, hi_e) = (&header.lo, &header.hi);
    let trip_fn = if header.inclusive { quote!(trip_inclusive) } else { quote!(trip) };
    let mut setup = quote! {
        let #lo = #lo_e;
        let #hi = #hi_e;
    };
    match &header.step {
        Some(s) => setup.extend(quote! {
            let #step: usize = #s;
            let #trip = #rt::trip_step(#rt::#trip_fn(#lo, #hi), #step);
        }),
        None => setup.extend(quote! {
            let #trip = #rt::#trip_fn(#lo, #hi);
        }),
    }
    let stepped = header.step.is_some();
    let rt = rt.clone();
    Normalised {
        setup,
        trip,
        index: Box::new(move |k| {
            if stepped {
                quote!(#rt::index(#lo, #k, #step))
            } else {
                quote!(#rt::index(#lo, #k, 1))
            }
        }),
    }
}

/// A `collapse`/`tile` nest flattened into one iteration space `k in 0..total`.
pub struct NestSpace {
    /// Bindings of every level's bounds and trip count.
    pub setup: TokenStream,
    /// The product of the levels' trip counts.
    pub total: TokenStream,
    /// Binds every loop variable from the flat iteration number `__acc_k`.
    pub bind: TokenStream,
}

/// Flattens the nest `headers` (outermost first): `k = ((k0 * t1) + k1) * t2 + k2 ...`.
/// `tag` keeps the bindings' names apart from other nests in the same scope.
pub fn normalise_nest(headers: &[LoopHeader], tag: usize, rt: &TokenStream) -> NestSpace {
    let norms: Vec<Normalised> = headers.iter().enumerate().map(|(lvl, h)| normalise(h, tag * 8 + lvl, rt)).collect();
    let trips: Vec<&Ident> = norms.iter().map(|n| &n.trip).collect();
    let setup = norms.iter().map(|n| n.setup.clone()).collect();
    let (first, rest) = trips.split_first().expect("one loop at least");
    let total = quote!((#first #(* #rest)*));
    let k = Ident::new("__acc_k", Span::call_site());
    let mut bind = TokenStream::new();
    for (lvl, (h, n)) in headers.iter().zip(&norms).enumerate() {
        let inner = &trips[lvl + 1..];
        let kl = Ident::new(&format!("__acc_k{lvl}"), Span::call_site());
        let div = if inner.is_empty() { quote!(#k) } else { quote!(#k / (1usize #(* #inner)*)) };
        let modulo = if lvl == 0 { div } else { let t = trips[lvl]; quote!((#div) % #t) };
        let var = &h.var;
        let idx = (n.index)(&kl);
        bind.extend(quote! { let #kl: usize = #modulo; let #var = #idx; });
    }
    NestSpace { setup, total, bind }
}

/// The loops a directive spreads together (`collapse(n)`, `tile(..)`: the `n` tightly nested
/// loops from `f`, else `f` alone), outermost first, and the body inside the last.
pub fn directive_nest(f: &ExprForLoop, d: &crate::model::LoopDirective) -> Option<(Vec<LoopHeader>, syn::Block)> {
    let depth = d.collapse.map_or(0, |c| c.1).max(d.tile.as_ref().map_or(0, |t| t.1.len())).max(1);
    let mut headers = Vec::new();
    let mut cur = f.clone();
    for level in 0..depth {
        headers.push(LoopHeader::parse(&cur).ok()?);
        if level + 1 < depth {
            cur = only_inner_loop(&cur.body)?.clone();
        }
    }
    Some((headers, cur.body))
}

/// The single loop statement of a tightly nested body, if that is all the body holds.
pub fn only_inner_loop(body: &syn::Block) -> Option<&ExprForLoop> {
    let mut stmts = body.stmts.iter().filter(|s| !matches!(s, syn::Stmt::Item(_)));
    let first = stmts.next()?;
    if stmts.next().is_some() {
        return None;
    }
    match first {
        syn::Stmt::Expr(Expr::ForLoop(f), _) => Some(f),
        _ => None,
    }
}

/// Why a loop of a `kernels` region cannot be proved independent; `None` when it can.
///
/// The test is syntactic and leans on Rust's aliasing rules (distinct `&mut` slices never
/// overlap): every array written in the body must be accessed at one and the same index in
/// the loop, and that index must be `i`, `i + e`, `e + i`, `i - e`, `i * e + f` (and the
/// commuted forms) with `e`, `f` invariant in the loop (mentioning neither `i` nor anything
/// declared in the body, such as an inner loop's variable), or `i * e + k` where `k` is the
/// variable of an inner loop over `0..e`; no variable declared outside the loop may be
/// assigned unless it is a reduction variable; and no function or method may receive a
/// `&mut` borrow of outer data.
pub fn dependence(f: &ExprForLoop, var: &Ident, reductions: &[Ident], inner_decls: &[String]) -> Option<(Span, String)> {
    let mut d = DepFinder {
        reductions,
        inner_decls,
        accesses: Vec::new(),
        written: Vec::new(),
        problem: None,
    };
    d.visit_block(&f.body);
    if let Some(p) = d.problem {
        return Some(p);
    }
    for (base, span) in &d.written {
        let idx: Vec<&(String, String, Span)> = d.accesses.iter().filter(|a| &a.0 == base).collect();
        let first = &idx[0].1;
        if let Some(other) = idx.iter().find(|a| &a.1 != first) {
            return Some((
                other.2,
                format!("`{base}` is written at `[{first}]` and accessed at `[{}]` in the same loop", other.1),
            ));
        }
        let first_expr: Expr = match syn::parse_str(first) {
            Ok(e) => e,
            Err(_) => return Some((*span, format!("cannot analyse the index of `{base}`"))),
        };
        let ranges = inner_ranges(&f.body);
        if !injective_in(&first_expr, var, inner_decls, &ranges) {
            return Some((
                *span,
                format!("`{base}[{first}]` may write one element from several iterations of `{var}`"),
            ));
        }
    }
    None
}

/// `(variable, lo, hi)` of every inner `for v in lo..hi` loop (exclusive, any step), as token
/// text.
fn inner_ranges(body: &syn::Block) -> Vec<(String, String, String)> {
    struct V(Vec<(String, String, String)>);
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            if let Ok(h) = LoopHeader::parse(f) {
                if !h.inclusive {
                    self.0.push((h.var.to_string(), text(&h.lo), text(&h.hi)));
                }
            }
            syn::visit::visit_expr_for_loop(self, f);
        }
    }
    let mut v = V(Vec::new());
    v.visit_block(body);
    v.0
}

fn text(e: &Expr) -> String {
    strip_parens(e).to_token_stream().to_string()
}

/// Whether index `e` takes a different value in every iteration of `var` (see [`dependence`]).
fn injective_in(e: &Expr, var: &Ident, inner_decls: &[String], ranges: &[(String, String, String)]) -> bool {
    let invariant = |e: &Expr| !mentions(e, var) && !inner_decls.iter().any(|d| mentions_name(e, d));
    let is_var = |e: &Expr| matches!(strip_parens(e), Expr::Path(p) if p.path.is_ident(var));
    // `var * s` / `s * var`: the stride `s`, or `None` when `e` is `var` itself.
    let scaled_var = |e: &Expr| -> Option<Option<Expr>> {
        match strip_parens(e) {
            Expr::Binary(b) if matches!(b.op, syn::BinOp::Mul(_)) => {
                if is_var(&b.left) && invariant(&b.right) {
                    Some(Some((*b.right).clone()))
                } else if is_var(&b.right) && invariant(&b.left) {
                    Some(Some((*b.left).clone()))
                } else {
                    None
                }
            }
            e if is_var(e) => Some(None),
            _ => None,
        }
    };
    // `k`, the variable of an inner loop over `0..s`: `var * s + k` is injective.
    let inner_below = |k: &Expr, s: &Option<Expr>| -> bool {
        let Some(s) = s else { return false };
        let Expr::Path(p) = strip_parens(k) else { return false };
        let Some(k) = p.path.get_ident() else { return false };
        let s = text(s);
        // Every binding of that name in the body is such a loop (no other loop or `let`
        // reuses it with other values).
        let loops: Vec<_> = ranges.iter().filter(|(v, _, _)| k == v).collect();
        !loops.is_empty()
            && loops.len() == inner_decls.iter().filter(|d| k == *d).count()
            && loops.iter().all(|(_, lo, hi)| lo == "0" && *hi == s)
    };
    match strip_parens(e) {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => {
            let left = scaled_var(&b.left);
            let right = scaled_var(&b.right);
            (left.is_some() && invariant(&b.right))
                || (right.is_some() && invariant(&b.left))
                || left.is_some_and(|s| inner_below(&b.right, &s))
                || right.is_some_and(|s| inner_below(&b.left, &s))
        }
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Sub(_)) => scaled_var(&b.left).is_some() && invariant(&b.right),
        Expr::Cast(c) => injective_in(&c.expr, var, inner_decls, ranges),
        e => scaled_var(e).is_some(),
    }
}

/// Whether `e` mentions the name `name` (macro bodies included).
fn mentions_name(e: &Expr, name: &str) -> bool {
    mentions(e, &Ident::new(name, Span::call_site()))
}

/// The root variable of a place and whether the place is (part of) one of its elements:
/// `a[i]`, `a[i].x`, `a[i].v[k]` -> `(a, true)`; `x`, `x.f`, `x.f[k]` -> `(x, false)`.
pub fn place_root(e: &Expr) -> Option<(&Ident, bool)> {
    let mut cur = strip_parens(e);
    // Whether the projection applied to the root itself is an index.
    let mut element = false;
    loop {
        match cur {
            Expr::Index(ix) => {
                element = true;
                cur = strip_parens(&ix.expr);
            }
            Expr::Field(f) => {
                element = false;
                cur = strip_parens(&f.base);
            }
            Expr::Path(p) => return p.path.get_ident().map(|id| (id, element)),
            _ => return None,
        }
    }
}

struct DepFinder<'a> {
    reductions: &'a [Ident],
    inner_decls: &'a [String],
    /// (array base, index text, span) of every indexing expression.
    accesses: Vec<(String, String, Span)>,
    written: Vec<(String, Span)>,
    problem: Option<(Span, String)>,
}

/// The base variable of `a[i]`, `a[i][j]`; `None` for other places.
pub fn index_base(e: &Expr) -> Option<(&Ident, &Expr)> {
    match strip_parens(e) {
        Expr::Index(ix) => match strip_parens(&ix.expr) {
            Expr::Path(p) => p.path.get_ident().map(|id| (id, &*ix.index)),
            inner @ Expr::Index(_) => index_base(inner),
            _ => None,
        },
        _ => None,
    }
}

impl DepFinder<'_> {
    fn outer(&self, name: &Ident) -> bool {
        !self.inner_decls.iter().any(|d| name == d)
    }

    fn note_write(&mut self, place: &Expr) {
        match place_root(place) {
            Some((base, true)) => {
                if self.outer(base) && !self.written.iter().any(|w| base == &w.0) {
                    self.written.push((base.to_string(), place.span()));
                }
            }
            Some((id, false)) => {
                if self.outer(id) && !self.reductions.contains(id) && self.problem.is_none() {
                    self.problem = Some((id.span(), format!("`{id}` is assigned in every iteration")));
                }
            }
            None => {}
        }
    }
}

impl<'ast> Visit<'ast> for DepFinder<'_> {
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.note_write(&a.left);
        syn::visit::visit_expr_assign(self, a);
    }
    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if is_compound_assign(&b.op) {
            self.note_write(&b.left);
        }
        syn::visit::visit_expr_binary(self, b);
    }
    fn visit_expr_index(&mut self, ix: &'ast syn::ExprIndex) {
        if let Expr::Path(p) = strip_parens(&ix.expr) {
            if let Some(id) = p.path.get_ident() {
                self.accesses.push((id.to_string(), ix.index.to_token_stream().to_string(), ix.span()));
            }
        }
        syn::visit::visit_expr_index(self, ix);
    }
    fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
        if r.mutability.is_some() && self.problem.is_none() {
            self.problem = Some((r.span(), "a `&mut` borrow is passed on".to_string()));
        }
        syn::visit::visit_expr_reference(self, r);
    }
    /// Macro bodies (`atomic!` updates, `println!`) are not analysed.
    fn visit_macro(&mut self, _: &'ast syn::Macro) {}
}

/// `+=`, `-=`, ... (syn 2 folds compound assignment into `ExprBinary`).
pub fn is_compound_assign(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_) | SubAssign(_) | MulAssign(_) | DivAssign(_) | RemAssign(_) | BitXorAssign(_)
            | BitAndAssign(_) | BitOrAssign(_) | ShlAssign(_) | ShrAssign(_)
    )
}
