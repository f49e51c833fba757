//! Loop headers and nests: the accepted `for` forms, normalised to `k in 0..trip` with
//! `i = lo + k * step`, `collapse`/`tile` nests, and the dependence test that `kernels`
//! regions use to decide whether a loop may run in parallel.
//!
//! [`dependence_of`] is asked through `front/directives.rs` (each loop's decision), and by
//! `lower/grid.rs` for an inner loop of a nest that updates an outer loop's reduction variable.

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, ExprForLoop, Ident, Pat, RangeLimits};

use crate::front::model::{LoopDirective, RegionKind};

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

pub fn strip_parens(e: &Expr) -> &Expr {
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
    let mut setup = quote! {
        let #lo = #lo_e;
        let #hi = #hi_e;
    };
    match &header.step {
        // The stepped count directly (not `ceil(trip / step)`): `(0..=usize::MAX).step_by(s)`
        // has a count that fits where its unstepped one does not.
        Some(s) => {
            let trip_fn = if header.inclusive { quote!(trip_inclusive_stepped) } else { quote!(trip_stepped) };
            setup.extend(quote! {
                let #step: usize = #s;
                let #trip = #rt::#trip_fn(#lo, #hi, #step);
            })
        }
        None => {
            let trip_fn = if header.inclusive { quote!(trip_inclusive) } else { quote!(trip) };
            setup.extend(quote! {
                let #trip = #rt::#trip_fn(#lo, #hi);
            })
        }
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
    /// The product of the levels' trip counts (a panic, never a wrapped count, when it does
    /// not fit in `usize`).
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
    let total = match &trips[..] {
        [only] => quote!(#only),
        _ => quote!(#rt::nest_trip([#(#trips),*])),
    };
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
pub fn directive_nest(f: &ExprForLoop, d: &LoopDirective) -> Option<(Vec<LoopHeader>, syn::Block)> {
    let depth = d.depth();
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

/// The parallel decision for loop `f` with directive `d` in a `kind` region, made here only
/// and asked once per loop (`front::directives` keeps the answers): why its iterations must
/// run in order; `None` when they may run in parallel. A loop that says `independent` is
/// independent; a `kernels` loop or an `auto` one is put to [`dependence_nest`] over the
/// directive's nest, where `reductions` are the variables the caller's lowering combines
/// across the nest's iterations; any other loop is independent as written. (`seq`, the
/// levels and the region's own rules are the callers'.)
pub fn dependence_of(f: &ExprForLoop, d: &LoopDirective, kind: RegionKind, reductions: &[Ident]) -> Option<(Span, String)> {
    let tested = d.independent.is_none() && (kind == RegionKind::Kernels || d.auto.is_some());
    if !tested {
        return None;
    }
    dependence_nest(f, d.depth(), reductions, &crate::syntax::inner_decls(&f.body))
}

/// Why a loop of a `kernels` region cannot be proved independent; `None` when it can.
/// [`dependence_nest`] for the loop alone (no `collapse`/`tile`); `var` is its variable.
pub fn dependence(f: &ExprForLoop, var: &Ident, reductions: &[Ident], inner_decls: &[String]) -> Option<(Span, String)> {
    debug_assert!(LoopHeader::parse(f).is_ok_and(|h| &h.var == var));
    dependence_nest(f, 1, reductions, inner_decls)
}

/// Why the `depth` tightly nested loops from `f` (a `collapse`/`tile` nest, or `f` alone for
/// 1), run in parallel together, cannot be proved independent; `None` when they can.
///
/// The test is syntactic and leans on Rust's aliasing rules (distinct `&mut` slices never
/// overlap). It is *sound*: it accepts only what it proves, whatever the values at run time,
/// and runs the rest in order. It demands that
///
/// - every array written in the body is accessed at one and the same index (`a[e]`) in
///   the body, and that index takes a different value in every iteration of the nest:
///   with `v` the nest's (only) variable, `v`, `v * c`, `c * v`, `v * c + e`, `e + v * c`,
///   `v * c - e` where `c` is a non-zero integer literal (a stride `s` known only at run
///   time may be 0, which sends every iteration to one element) and `e` is invariant;
///   for a nest `(v0, v1, ...)`, `x * s + v1` (and `v1 + x * s`) where `x` is such an index
///   of the outer variables and `v1`'s loop is `0..s`; and for the last variable, `x * s + k`
///   where `k` is the variable of a loop inside the body over `0..s` (`s` may be anything
///   invariant there: when it is 0 the inner loop does not run); instead of `0..s`, any
///   range within it: `lo..s` or `lo..s - c` for integer literals `lo` and `c` (a Jacobi
///   sweep's `1..m - 1`);
/// - an *invariant* `e` or `s` mentions neither a loop variable of the nest nor anything
///   declared in the body (an inner loop's variable, a `let`) nor a reduction variable, and
///   is built only from names, literals, fields, indexing, arithmetic, casts and `.len()`
///   (a call may return another value in every iteration);
/// - casts never hide a narrowing: `v as T` counts as `v` only for `T` in `usize`, `u64`,
///   `isize`, `i64`, `u128`, `i128` (from a loop variable of at most 64 bits, which every
///   `usize` index needs), and a cast around a scaled index (`(v * 2) as usize`) is taken
///   only when the arithmetic inside is in one of those types (`((v as u64) * 2) as usize`):
///   in a narrower type it wraps in release builds (`(v * 2) as usize` for a `u8` `v` sends
///   `v` and `v + 128` to one element). `(v as u8) as usize` is never injective;
/// - the loop variables are not rebound in the body;
/// - no variable declared outside the loop is assigned unless it is a reduction variable, and
///   no function or method receives a `&mut` borrow of outer data.
///
/// What it assumes: written arrays are slices, `Vec`s or arrays (indexed by `usize`), and
/// index arithmetic in a 64-bit type does not wrap (for a contiguous range that would need
/// an array beyond the address space; with `.step_by(s)` a huge `s` times `c` could), nor
/// does a bound `s - c` (an unsigned `s` below `c` would give a loop of nearly 2^64 trips,
/// which reaches the end of any array and panics there).
pub fn dependence_nest(f: &ExprForLoop, depth: usize, reductions: &[Ident], inner_decls: &[String]) -> Option<(Span, String)> {
    let mut headers = Vec::new();
    let mut cur = f;
    let mut mutable_var = None;
    for level in 0..depth.max(1) {
        if let Pat::Ident(p) = &*cur.pat {
            mutable_var = mutable_var.or(p.mutability.map(|m| m.span()));
        }
        match LoopHeader::parse(cur) {
            Ok(h) => headers.push(h),
            Err(e) => return Some((e.span(), "unsupported loop form".to_string())),
        }
        if level + 1 < depth.max(1) {
            match only_inner_loop(&cur.body) {
                Some(inner) => cur = inner,
                None => return Some((cur.span(), "the collapsed loops are not tightly nested".to_string())),
            }
        }
    }
    let innermost = &cur.body;
    let vars: Vec<&Ident> = headers.iter().map(|h| &h.var).collect();
    // The nest's own inner loop variables are declared in `f.body` too; the other names
    // declared there are the body's.
    let body_decls: Vec<String> = {
        let mut d = inner_decls.to_vec();
        for v in &vars[1..] {
            if let Some(pos) = d.iter().position(|x| *v == x) {
                d.remove(pos);
            }
        }
        d
    };
    for v in &vars {
        if body_decls.iter().any(|d| *v == d) || vars.iter().filter(|w| w == &v).count() > 1 {
            return Some((v.span(), format!("the loop variable `{v}` is bound again inside the loop")));
        }
    }
    if let Some(span) = mutable_var {
        return Some((span, "a `mut` loop variable may be changed by the body".to_string()));
    }
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
    let ctx = Injectivity {
        headers: &headers,
        reductions,
        body_decls: &body_decls,
        inner: inner_ranges(innermost),
    };
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
        if !ctx.injective(&first_expr, headers.len()) {
            let names: Vec<String> = vars.iter().map(|v| v.to_string()).collect();
            return Some((
                *span,
                format!("`{base}[{first}]` may write one element from several iterations of `{}`", names.join("`, `")),
            ));
        }
    }
    None
}

/// Whether the exclusive range `lo..hi` lies within `0..s` (`s` as token text): `lo` an
/// integer literal, `hi` either `s` or `s - c` for an integer literal `c` (which does not
/// wrap: see [`dependence_nest`]'s assumptions).
fn within(lo: &Expr, hi: &Expr, s: &str) -> bool {
    let literal = |e: &Expr| matches!(strip_parens(e), Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(_), .. }));
    let trimmed = matches!(strip_parens(hi), Expr::Binary(b) if matches!(b.op, syn::BinOp::Sub(_)) && text(&b.left) == s && literal(&b.right));
    literal(lo) && (text(hi) == s || trimmed)
}

/// `(variable, lo, hi)` of every inner `for v in lo..hi` loop (exclusive, any step) whose
/// variable is immutable.
fn inner_ranges(body: &syn::Block) -> Vec<(String, Expr, Expr)> {
    struct V(Vec<(String, Expr, Expr)>);
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            let immutable = matches!(&*f.pat, Pat::Ident(p) if p.mutability.is_none());
            if let (Ok(h), true) = (LoopHeader::parse(f), immutable) {
                if !h.inclusive {
                    self.0.push((h.var.to_string(), h.lo.clone(), h.hi.clone()));
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

/// Integer types a loop variable may be cast to without losing values (loop variables of
/// at most 64 bits).
const WIDE: [&str; 6] = ["usize", "u64", "isize", "i64", "u128", "i128"];

fn wide_type(t: &syn::Type) -> bool {
    matches!(t, syn::Type::Path(p) if p.qself.is_none() && WIDE.iter().any(|w| p.path.is_ident(w)))
}

/// Whether `e` is a non-zero integer literal.
fn nonzero_literal(e: &Expr) -> bool {
    matches!(strip_parens(e), Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) if i.base10_parse::<u128>().is_ok_and(|v| v != 0))
}

/// Whether the arithmetic of `e` is known to happen in a 64- or 128-bit type: an operand is
/// a cast to one of [`WIDE`] or a literal with such a suffix.
fn wide_arith(e: &Expr) -> bool {
    match strip_parens(e) {
        Expr::Cast(c) => wide_type(&c.ty),
        Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => WIDE.contains(&i.suffix()),
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_) | syn::BinOp::Sub(_) | syn::BinOp::Mul(_)) => {
            wide_arith(&b.left) || wide_arith(&b.right)
        }
        _ => false,
    }
}

/// Whether `e` multiplies anything (a multiplication by 1 counts too).
fn scales(e: &Expr) -> bool {
    match strip_parens(e) {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Mul(_)) => true,
        Expr::Binary(b) => scales(&b.left) || scales(&b.right),
        Expr::Cast(c) => scales(&c.expr),
        _ => false,
    }
}

/// Whether `e` has no side effects and gives the same value whenever it is evaluated with
/// the same variables: names, literals, fields, indexing, arithmetic, casts, `.len()`.
fn pure(e: &Expr) -> bool {
    match strip_parens(e) {
        Expr::Lit(_) | Expr::Path(_) => true,
        Expr::Field(f) => pure(&f.base),
        Expr::Index(ix) => pure(&ix.expr) && pure(&ix.index),
        Expr::Binary(b) => !is_compound_assign(&b.op) && pure(&b.left) && pure(&b.right),
        Expr::Unary(u) => pure(&u.expr),
        Expr::Cast(c) => pure(&c.expr),
        Expr::MethodCall(m) => m.method == "len" && m.args.is_empty() && m.turbofish.is_none() && pure(&m.receiver),
        _ => false,
    }
}

/// What [`dependence_nest`] knows about a nest to decide whether an index is injective.
struct Injectivity<'a> {
    headers: &'a [LoopHeader],
    reductions: &'a [Ident],
    /// Names declared in the body (the nest's own variables excluded).
    body_decls: &'a [String],
    /// Inner loops of the innermost body: `(variable, lo, hi)`.
    inner: Vec<(String, Expr, Expr)>,
}

impl Injectivity<'_> {
    /// Invariant in the whole nest and pure (see [`dependence_nest`]).
    fn invariant(&self, e: &Expr) -> bool {
        pure(e)
            && !self.headers.iter().any(|h| mentions(e, &h.var))
            && !self.body_decls.iter().any(|d| mentions_name(e, d))
            && !self.reductions.iter().any(|r| mentions(e, r))
    }

    /// `v` or `v as W` (`W` wide) for the nest's variable `v` at `level`.
    fn atom(&self, e: &Expr, level: usize) -> bool {
        match strip_parens(e) {
            Expr::Path(p) => p.path.is_ident(&self.headers[level].var),
            Expr::Cast(c) => wide_type(&c.ty) && self.atom(&c.expr, level),
            _ => false,
        }
    }

    /// `atom`, `atom * c`, `c * atom` with `c` a non-zero literal.
    fn scaled(&self, e: &Expr, level: usize) -> bool {
        match strip_parens(e) {
            Expr::Binary(b) if matches!(b.op, syn::BinOp::Mul(_)) => {
                (self.atom(&b.left, level) && nonzero_literal(&b.right)) || (self.atom(&b.right, level) && nonzero_literal(&b.left))
            }
            e => self.atom(e, level),
        }
    }

    /// Whether `k` is a variable ranging within `0..s` (`s` invariant): the nest's variable at
    /// `level` (its loop [`within`] `0..s`, step 1), or with `level == None` the variable of
    /// an inner loop of the body within `0..s` (every binding of that name being such a loop).
    fn below(&self, k: &Expr, s: &Expr, level: Option<usize>) -> bool {
        let Expr::Path(p) = strip_parens(k) else { return false };
        let Some(k) = p.path.get_ident() else { return false };
        if !self.invariant(s) {
            return false;
        }
        let s = text(s);
        match level {
            Some(level) => {
                let h = &self.headers[level];
                &h.var == k && !h.inclusive && h.step.is_none() && within(&h.lo, &h.hi, &s)
            }
            None => {
                let loops: Vec<_> = self.inner.iter().filter(|(v, _, _)| k == v).collect();
                !loops.is_empty()
                    && loops.len() == self.body_decls.iter().filter(|d| k == *d).count()
                    && loops.iter().all(|(_, lo, hi)| within(lo, hi, &s))
            }
        }
    }

    /// Whether `e` is `x * s + k` (`s * x + k`, `k + x * s`, `k + s * x`) with `x` injective in
    /// the nest's first `levels` variables and `k` [`below`](Self::below) `s` at `k_level`.
    fn row_major(&self, e: &Expr, levels: usize, k_level: Option<usize>) -> bool {
        let Expr::Binary(b) = strip_parens(e) else { return false };
        if !matches!(b.op, syn::BinOp::Add(_)) {
            return false;
        }
        let split = |prod: &Expr, k: &Expr| -> bool {
            let Expr::Binary(m) = strip_parens(prod) else { return false };
            matches!(m.op, syn::BinOp::Mul(_))
                && ((self.injective(&m.left, levels) && self.below(k, &m.right, k_level))
                    || (self.injective(&m.right, levels) && self.below(k, &m.left, k_level)))
        };
        split(&b.left, &b.right) || split(&b.right, &b.left)
    }

    /// Whether index `e` takes a different value in every iteration of the nest's first
    /// `levels` loops (see [`dependence_nest`]).
    fn injective(&self, e: &Expr, levels: usize) -> bool {
        if let Expr::Cast(c) = strip_parens(e) {
            // A cast to a wide type keeps an injective index injective, unless arithmetic
            // inside it wraps in a narrower type.
            return wide_type(&c.ty) && self.injective(&c.expr, levels) && (!scales(&c.expr) || wide_arith(&c.expr));
        }
        let own = match levels {
            0 => false,
            1 => match strip_parens(e) {
                Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => {
                    (self.scaled(&b.left, 0) && self.invariant(&b.right)) || (self.scaled(&b.right, 0) && self.invariant(&b.left))
                }
                Expr::Binary(b) if matches!(b.op, syn::BinOp::Sub(_)) => self.scaled(&b.left, 0) && self.invariant(&b.right),
                e => self.scaled(e, 0),
            },
            // The last of the levels must move the index within a row: `x * s + v`.
            n => self.row_major(e, n - 1, Some(n - 1)),
        };
        // Or a row of the whole nest, walked by a loop inside the body.
        own || (levels == self.headers.len() && self.row_major(e, levels, None))
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
            Some((base, true)) if self.outer(base) && !self.written.iter().any(|w| base == &w.0) => {
                self.written.push((base.to_string(), place.span()));
            }
            Some((id, false)) if self.outer(id) && !self.reductions.contains(id) && self.problem.is_none() => {
                self.problem = Some((id.span(), format!("`{id}` is assigned in every iteration")));
            }
            _ => {}
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
/// `a[i] = v` and `a[i] op= v` where `i` reads `a` (`a[k % a.len()] = ..`), for each `a` that
/// `applies`: valid Rust on a `&mut [T]`, whose indexing is built in, but where the lowering
/// makes `a` a type with an `IndexMut` of its own (the host's `SharedMut`, the device's
/// `SliceMut`), that borrows `a` before the index is computed (E0502). The value and then the
/// index go to locals first, the order Rust evaluates them in for a slice of primitives.
pub fn index_first(e: &mut Expr, applies: impl Fn(&Ident) -> bool) {
    let (left, right, op) = match e {
        Expr::Assign(a) => (&a.left, &a.right, None),
        Expr::Binary(b) if is_compound_assign(&b.op) => (&b.left, &b.right, Some(b.op)),
        _ => return,
    };
    let Expr::Index(ix) = &**left else { return };
    let Expr::Path(base) = &*ix.expr else { return };
    let Some(name) = base.path.get_ident() else { return };
    if !applies(name) || !mentions(&ix.index, name) {
        return;
    }
    let (index, value) = (&ix.index, right);
    let op = op.map_or_else(|| quote::quote!(=), |op| quote::quote!(#op));
    *e = syn::parse_quote_spanned! {ix.span()=>
        { let __acc_value = #value; let __acc_index = #index; #base[__acc_index] #op __acc_value; }
    };
}

pub fn is_compound_assign(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_) | SubAssign(_) | MulAssign(_) | DivAssign(_) | RemAssign(_) | BitXorAssign(_)
            | BitAndAssign(_) | BitOrAssign(_) | ShlAssign(_) | ShrAssign(_)
    )
}

#[cfg(test)]
mod tests;
