//! `acc::cache!(a[lo..hi], b[lo..=hi])`: stage array windows in the gang's shared memory. On the
//! host backend the hint has no effect; its form is checked the same on every backend.
//!
//! The windows: `a[lo..hi]` and `a[lo..=hi]` ([`Window`]), a window that moves with a loop
//! variable (`a[i - 1..=i + 1]`, [`Moving`]), and 2-D windows of a flat slice
//! (`a[i * n + (kk..kk + 16)]`, [`Tiled`]). The references to a moving window or a 2-D window are
//! checked against it at compile time (asked by `check::body`). On the GPU, `lower::schedule`
//! stages the moving windows (`schedule/windows.rs`; the 1-D windows at the top of tile loops in
//! `lower/tiles/one_d.rs`) through `acc_device::cache_window`, `cache_prefetch` and `cache_store`,
//! a trip of the block giving each thread `acc_device::window_points` points (4, 2 or 1: the most
//! whose windows fit 32 KiB; the host's `Geometry::window_points` sizes the launch alike);
//! `lower::tiles` stages the 2-D windows.

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

/// A 2-D (or strided) window of a flat slice: the array's index expression with parenthesized
/// ranges in place of the parts that vary, as in `a[i * n + (kk..kk + 16)]` (row `i`, columns
/// `kk..kk + 16`) or `t[(r..r + 4) * n + (c..c + 8)]`. Each range is `lo..lo + W` (or
/// `lo..=lo + W - 1`) with a literal width `W`.
#[derive(Clone)]
pub struct Tiled {
    pub array: Ident,
    /// The index expression, ranges included.
    pub index: Expr,
    /// Its ranges, in the order a walk of `index` meets them (left to right).
    pub slots: Vec<Slot>,
}

/// One range of a [`Tiled`] window: `base + off .. base + off + width`.
#[derive(Clone)]
pub struct Slot {
    /// The range's lower bound as written.
    pub lo: Expr,
    /// `lo` as `base + off` (see [`split_offset`]): its base, as tokens, and literal offset.
    pub base: String,
    pub off: i64,
    pub width: i64,
}

/// One window of a `cache!`.
pub enum Item {
    Range(Box<Window>),
    Tiled(Box<Tiled>),
}

impl Item {
    pub fn array(&self) -> &Ident {
        match self {
            Item::Range(w) => &w.array,
            Item::Tiled(t) => &t.array,
        }
    }

    /// The window as written.
    pub fn show(&self) -> String {
        match self {
            Item::Range(w) => {
                let (a, lo, hi) = (&w.array, &w.lo, &w.hi);
                let dots = if w.inclusive { "..=" } else { ".." };
                format!("{a}[{}{dots}{}]", quote::quote!(#lo), quote::quote!(#hi))
            }
            Item::Tiled(t) => {
                let (a, ix) = (&t.array, &t.index);
                format!("{a}[{}]", quote::quote!(#ix))
            }
        }
    }
}

/// The one-dimensional windows of a `cache!` (`a[lo..hi]`); see [`parse_all`].
pub fn parse(tokens: TokenStream) -> syn::Result<Vec<Window>> {
    Ok(parse_all(tokens)?.into_iter().filter_map(|w| match w { Item::Range(w) => Some(*w), Item::Tiled(_) => None }).collect())
}

/// The windows of a `cache!`: `a[lo..hi]`, `a[lo..=hi]`, or a 2-D window ([`Tiled`]).
pub fn parse_all(tokens: TokenStream) -> syn::Result<Vec<Item>> {
    let items = Punctuated::<Expr, Token![,]>::parse_terminated.parse2(tokens.clone())?;
    if items.is_empty() {
        return Err(syn::Error::new(
            tokens.span(),
            "`acc::cache!` needs at least one array window, as in `acc::cache!(a[i - 1..i + 2])`",
        ));
    }
    let mut out: Vec<Item> = Vec::new();
    for e in items {
        let Expr::Index(ix) = &e else {
            return Err(syn::Error::new(e.span(), "expected an array window `a[lo..hi]`"));
        };
        let Expr::Path(p) = &*ix.expr else {
            return Err(syn::Error::new(ix.expr.span(), "the cached array must be a named variable"));
        };
        let Some(array) = p.path.get_ident().cloned() else {
            return Err(syn::Error::new(ix.expr.span(), "the cached array must be a named variable"));
        };
        let item = if let Expr::Range(r) = &*ix.index {
            let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
                return Err(syn::Error::new(r.span(), "a cache window needs both bounds"));
            };
            Item::Range(Box::new(Window {
                array,
                lo: (**lo).clone(),
                hi: (**hi).clone(),
                inclusive: matches!(r.limits, syn::RangeLimits::Closed(_)),
            }))
        } else {
            let mut slots = Vec::new();
            find_slots(&ix.index, &mut slots, false)?;
            if slots.is_empty() {
                return Err(syn::Error::new(
                    ix.index.span(),
                    "a cache window is a range `lo..hi` or `lo..=hi` (the OpenACC `a[lo:len]` is `a[lo..lo + len]`), or an index expression with parenthesized ranges for the parts that vary, as in `a[i * n + (k..k + 16)]`",
                ));
            }
            if slots.len() > 2 {
                return Err(syn::Error::new(ix.index.span(), "a cache window has at most two ranges (a 2-D window, as in `t[(r..r + 16) * n + (c..c + 16)]`)"));
            }
            Item::Tiled(Box::new(Tiled { array, index: (*ix.index).clone(), slots }))
        };
        if let Item::Tiled(_) = &item {
            if out.iter().any(|o| o.array() == item.array()) {
                return Err(syn::Error::new(ix.expr.span(), format!("`{}` has a window already in this `cache!`: a 2-D window takes one per array", item.array())));
            }
        } else if out.iter().any(|o| o.array() == item.array() && matches!(o, Item::Tiled(_))) {
            return Err(syn::Error::new(ix.expr.span(), format!("`{}` has a window already in this `cache!`: a 2-D window takes one per array", item.array())));
        }
        out.push(item);
    }
    Ok(out)
}

/// The ranges of a 2-D window's index expression, left to right: each parenthesized, with both
/// bounds and a literal width; a range anywhere else is an error.
fn find_slots(e: &Expr, slots: &mut Vec<Slot>, in_range: bool) -> syn::Result<()> {
    if let Expr::Paren(p) = e {
        if let Expr::Range(r) = &*p.expr {
            if in_range {
                return Err(syn::Error::new(r.span(), "a range inside a window's range: write each varying part once, as in `a[i * n + (k..k + 16)]`"));
            }
            let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
                return Err(syn::Error::new(r.span(), "a cache window's range needs both bounds, as in `(k..k + 16)`"));
            };
            let (lb, lc) = split_offset(lo);
            let (hb, hc) = split_offset(hi);
            let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
            let width = hc - lc + i64::from(inclusive);
            if lb != hb || width <= 0 {
                return Err(syn::Error::new(
                    r.span(),
                    "the width of a window's range must be a positive literal: write `(lo..lo + 16)` (the same `lo` in both bounds)",
                ));
            }
            find_slots(lo, slots, true)?;
            find_slots(hi, slots, true)?;
            slots.push(Slot { lo: (**lo).clone(), base: lb, off: lc, width });
            return Ok(());
        }
    }
    if let Expr::Range(r) = e {
        return Err(syn::Error::new(r.span(), "a range in a window's index expression goes in parentheses, as in `a[i * n + (k..k + 16)]`"));
    }
    struct V<'s> {
        slots: &'s mut Vec<Slot>,
        in_range: bool,
        err: Option<syn::Error>,
    }
    impl<'ast> syn::visit::Visit<'ast> for V<'_> {
        fn visit_expr(&mut self, e: &'ast Expr) {
            if self.err.is_none() {
                if let Err(err) = find_slots(e, self.slots, self.in_range) {
                    self.err = Some(err);
                }
            }
        }
    }
    let mut v = V { slots, in_range, err: None };
    // The direct sub-expressions of `e`, each walked by `find_slots`.
    match e {
        Expr::Paren(p) => syn::visit::Visit::visit_expr(&mut v, &p.expr),
        _ => syn::visit::visit_expr(&mut v, e),
    }
    v.err.map_or(Ok(()), Err)
}

/// `e` as `base + c` with a literal `c` (`e`, `e + c`, `e - c`, `c + e`): the base as tokens
/// (parentheses and `as usize` around it dropped) and `c`.
pub fn split_offset(e: &Expr) -> (String, i64) {
    let e = strip(e);
    if let Expr::Binary(b) = e {
        match b.op {
            syn::BinOp::Add(_) => {
                if let Some(c) = literal(&b.right) {
                    return (tokens_of(&b.left), c);
                }
                if let Some(c) = literal(&b.left) {
                    return (tokens_of(&b.right), c);
                }
            }
            syn::BinOp::Sub(_) => {
                if let Some(c) = literal(&b.right) {
                    return (tokens_of(&b.left), -c);
                }
            }
            _ => {}
        }
    }
    if let Some(c) = literal(e) {
        return (String::new(), c);
    }
    (tokens_of(e), 0)
}

/// `e` as tokens, without the parentheses and `as usize` around it.
pub fn tokens_of(e: &Expr) -> String {
    let e = strip(e);
    quote::quote!(#e).to_string()
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

pub fn strip(e: &Expr) -> &Expr {
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

/// Whether `e` is `var` (parentheses and `as usize` around it allowed).
pub fn is_var(e: &Expr, var: &Ident) -> bool {
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

/// The variable of the sequential loop `f` when it runs inside windows of `windows`: `for j in
/// i + c1..i + c2` (or `..=`) with `i` a window's variable and the range inside that window, `j`
/// a plain name the body does not bind again. Returns `j` with the windows (by index) whose
/// references `a[j]` then lie inside (the paper's Listing 1: `for j in i - r..=i + r { s +=
/// a[j]; }`).
pub fn inner_range(f: &syn::ExprForLoop, windows: &[Moving]) -> Option<(Ident, Vec<usize>)> {
    let syn::Pat::Ident(p) = &*f.pat else { return None };
    if p.by_ref.is_some() || p.mutability.is_some() || p.subpat.is_some() {
        return None;
    }
    let Expr::Range(r) = strip(&f.expr) else { return None };
    let (Some(lo), Some(hi)) = (&r.start, &r.end) else { return None };
    let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
    let inside: Vec<usize> = windows
        .iter()
        .enumerate()
        .filter(|(_, w)| {
            let (Some(c1), Some(c2)) = (offset_of(lo, &w.var), offset_of(hi, &w.var)) else { return false };
            let c2 = c2 - i64::from(!inclusive);
            w.lo <= c1 && c2 <= w.hi
        })
        .map(|(k, _)| k)
        .collect();
    let rebound = crate::syntax::inner_decls(&f.body).iter().any(|n| p.ident == n);
    (!inside.is_empty() && !rebound).then(|| (p.ident.clone(), inside))
}

/// The OpenACC rule (2.5 on): every reference to a cached array in the loop lies in its
/// window. acc proves it at compile time for a window that moves with the loop variable
/// (`a[i - r..=i + r]`): each `a[e]` in the body must be `a[i + c]` with a literal `c` inside
/// the window, or `a[j]` in a loop `for j in i + c1..=i + c2` inside it ([`inner_range`]), and
/// the body must not rebind `i` or `a`. What it cannot prove is a compile
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
        /// The loops around the reference that run inside windows ([`inner_range`]).
        inner: Vec<(Ident, Vec<usize>)>,
        errors: &'e mut crate::report::Errors,
    }
    impl<'ast> syn::visit::Visit<'ast> for V<'_, '_> {
        fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
            let range = inner_range(f, self.windows);
            let pushed = range.is_some();
            self.inner.extend(range);
            syn::visit::visit_expr_for_loop(self, f);
            if pushed {
                self.inner.pop();
            }
        }
        fn visit_expr_index(&mut self, ix: &'ast syn::ExprIndex) {
            if let Expr::Path(p) = strip(&ix.expr) {
                if let Some(k) = self.windows.iter().position(|w| p.path.is_ident(&w.array)) {
                    let w = &self.windows[k];
                    let in_loop = self.inner.iter().any(|(j, ks)| ks.contains(&k) && is_var(&ix.index, j));
                    let inside = in_loop || offset_of(&ix.index, &w.var).is_some_and(|c| (w.lo..=w.hi).contains(&c));
                    if !inside {
                        let (a, v) = (&w.array, &w.var);
                        let show = |c: i64| match c {
                            0 => format!("{v}"),
                            c if c < 0 => format!("{v} - {}", -c),
                            c => format!("{v} + {c}"),
                        };
                        self.errors.push(syn::Error::new_spanned(&ix.index, format!(
                            "`{a}` is cached as `{a}[{}..={}]`, and acc cannot prove this index inside that window: references to a cached array must lie in its window (OpenACC `cache`); write `{a}[{v} + c]` with a literal `c` from {} to {} (or `{a}[j]` in a loop `for j in {}..={}`), widen the window, or drop `cache!`",
                            show(w.lo), show(w.hi), w.lo, w.hi, show(w.lo), show(w.hi))));
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
    let mut v = V { windows: &windows, inner: Vec::new(), errors };
    for s in &body.stmts[1..] {
        syn::visit::Visit::visit_stmt(&mut v, s);
    }
}

/// The 2-D windows of `body`'s leading `cache!`.
pub fn leading_tiles(body: &syn::Block) -> Vec<Tiled> {
    let m = match body.stmts.first() {
        Some(syn::Stmt::Macro(m)) => &m.mac,
        Some(syn::Stmt::Expr(Expr::Macro(m), _)) => &m.mac,
        _ => return Vec::new(),
    };
    if !crate::syntax::is_acc_path(&m.path, "cache") {
        return Vec::new();
    }
    parse_all(m.tokens.clone())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|w| match w {
            Item::Tiled(t) => Some(*t),
            Item::Range(_) => None,
        })
        .collect()
}

/// A variable of a loop `for k in base + lo..base + hi` (or `..(base + hi).min(e)`): inside
/// the loop, `k` lies in `base + lo..base + hi`.
#[derive(Clone, Debug)]
pub struct Bound {
    pub var: Ident,
    pub base: String,
    pub lo: i64,
    pub hi: i64,
}

/// The [`Bound`] a `for` loop gives its variable, if its range is `base + c1..base + c2`,
/// `base + c1..=base + c2`, or either with its upper bound `.min(e)`'d.
pub fn bound_of(f: &syn::ExprForLoop) -> Option<Bound> {
    let syn::Pat::Ident(pi) = &*f.pat else { return None };
    if pi.mutability.is_some() || pi.by_ref.is_some() || pi.subpat.is_some() {
        return None;
    }
    let Expr::Range(r) = strip(&f.expr) else { return None };
    let (Some(lo), Some(hi)) = (&r.start, &r.end) else { return None };
    let inclusive = i64::from(matches!(r.limits, syn::RangeLimits::Closed(_)));
    let (lb, lc) = split_offset(lo);
    // `x.min(e)` and `e.min(x)` are at most `x`.
    let mut candidates: Vec<&Expr> = vec![hi];
    if let Expr::MethodCall(m) = strip(hi) {
        if m.method == "min" && m.args.len() == 1 {
            candidates = vec![&m.receiver, &m.args[0]];
        }
    }
    candidates.into_iter().find_map(|c| {
        let (hb, hc) = split_offset(c);
        (hb == lb).then(|| Bound { var: pi.ident.clone(), base: lb.clone(), lo: lc, hi: hc + inclusive })
    })
}

/// Whether `e` is one of a window's ranges: `(lo..hi)` (more parentheses allowed).
pub fn slot_node(e: &Expr) -> bool {
    match e {
        Expr::Paren(p) => matches!(&*p.expr, Expr::Range(_)) || slot_node(&p.expr),
        Expr::Group(g) => slot_node(&g.expr),
        _ => false,
    }
}

fn has_range(e: &Expr) -> bool {
    struct V(bool);
    impl<'ast> syn::visit::Visit<'ast> for V {
        fn visit_expr_range(&mut self, _: &'ast syn::ExprRange) {
            self.0 = true;
        }
    }
    let mut v = V(false);
    syn::visit::Visit::visit_expr(&mut v, e);
    v.0
}

/// Whether the reference index `r` has the window `t`'s shape, each range of `t` replaced by
/// something provably inside it: `lo + c` with a literal `c` in the range (the same `lo`), or
/// `k + c` for a loop variable `k` of `bounds` whose loop stays inside the range. The parts
/// of `r` that stand for the ranges are pushed on `got`, in the ranges' order. A literal
/// offset at the end of a sum goes with its last term (`i * n + j - 1` is `i * n + (j - 1)`,
/// as a stencil writes it against `a[(i - 1..i + 2) * n + (j - 1..j + 2)]`).
pub fn match_ref(t: &Expr, r: &Expr, slots: &[Slot], next: &mut usize, bounds: &[Bound], got: &mut Vec<Expr>) -> bool {
    if slot_node(t) {
        let Some(s) = slots.get(*next) else { return false };
        *next += 1;
        let (rb, rc) = split_offset(r);
        let ok = if rb == s.base {
            (s.off..s.off + s.width).contains(&rc)
        } else {
            bounds.iter().rev().find(|b| b.var == rb).is_some_and(|b| b.base == s.base && (b.lo >= b.hi || (b.lo + rc >= s.off && b.hi + rc <= s.off + s.width)))
        };
        if ok {
            got.push(r.clone());
        }
        return ok;
    }
    let (ts, rs) = (strip(t), strip(r));
    if !has_range(ts) {
        return tokens_of(ts) == tokens_of(rs);
    }
    let (at, had) = (*next, got.len());
    let direct = match (ts, rs) {
        (Expr::Binary(a), Expr::Binary(b)) => {
            let op = |o: &syn::BinOp| quote::quote!(#o).to_string();
            op(&a.op) == op(&b.op) && match_ref(&a.left, &b.left, slots, next, bounds, got) && match_ref(&a.right, &b.right, slots, next, bounds, got)
        }
        _ => slot_node(ts) && match_ref(ts, rs, slots, next, bounds, got),
    };
    if direct {
        return true;
    }
    match reassociated(rs) {
        Some(r2) => {
            *next = at;
            got.truncate(had);
            match_ref(ts, &r2, slots, next, bounds, got)
        }
        None => false,
    }
}

/// `(x + y) + c` or `(x + y) - c` (a literal `c`) as `x + (y + c)` / `x + (y - c)`.
fn reassociated(r: &Expr) -> Option<Expr> {
    let Expr::Binary(b) = strip(r) else { return None };
    if !matches!(b.op, syn::BinOp::Add(_) | syn::BinOp::Sub(_)) || literal(&b.right).is_none() {
        return None;
    }
    let Expr::Binary(inner) = strip(&b.left) else { return None };
    if !matches!(inner.op, syn::BinOp::Add(_)) {
        return None;
    }
    let (x, y, op, c) = (&inner.left, &inner.right, &b.op, &b.right);
    Some(syn::parse_quote!(#x + (#y #op #c)))
}

/// The names a window's index expression reads (besides those inside its ranges' bounds too).
pub fn names_in(e: &Expr) -> Vec<Ident> {
    struct V(Vec<Ident>);
    impl<'ast> syn::visit::Visit<'ast> for V {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if let Some(id) = p.get_ident() {
                if !self.0.contains(id) {
                    self.0.push(id.clone());
                }
            }
        }
    }
    let mut v = V(Vec::new());
    syn::visit::Visit::visit_expr(&mut v, e);
    v.0
}

/// The OpenACC rule for 2-D windows (`a[i * n + (kk..kk + 16)]`, see [`Tiled`]), checked at
/// compile time on the loop whose body starts with the `cache!`: every reference `a[e]` to a
/// cached array in the rest of the body must have the window's shape (the same expression
/// around the ranges, token for token), each range replaced by `lo + c` inside it or by the
/// variable of a loop `for k in lo + c1..lo + c2` inside it (`(lo + c2).min(e)` as its end
/// allowed). The body must not rebind the array, the names the window reads, or such a loop
/// variable, nor assign those names. What cannot be proved is a compile error on the index,
/// as for 1-D windows.
pub fn check_tiles(body: &syn::Block, errors: &mut crate::report::Errors) {
    let windows = leading_tiles(body);
    if windows.is_empty() {
        return;
    }
    let mut names: Vec<Ident> = Vec::new();
    for w in &windows {
        names.push(w.array.clone());
        names.extend(names_in(&w.index));
    }
    struct V<'w, 'e> {
        windows: &'w [Tiled],
        names: Vec<Ident>,
        bounds: Vec<Bound>,
        errors: &'e mut crate::report::Errors,
    }
    impl<'ast> syn::visit::Visit<'ast> for V<'_, '_> {
        fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
            self.visit_expr(&f.expr);
            self.visit_pat(&f.pat);
            let b = bound_of(f);
            let pushed = b.is_some();
            self.bounds.extend(b);
            self.visit_block(&f.body);
            if pushed {
                self.bounds.pop();
            }
        }
        fn visit_expr_index(&mut self, ix: &'ast syn::ExprIndex) {
            if let Expr::Path(p) = strip(&ix.expr) {
                if let Some(w) = self.windows.iter().find(|w| p.path.is_ident(&w.array)) {
                    let mut got = Vec::new();
                    let mut next = 0;
                    if !(match_ref(&w.index, &ix.index, &w.slots, &mut next, &self.bounds, &mut got) && next == w.slots.len()) {
                        let (a, t) = (&w.array, &w.index);
                        self.errors.push(syn::Error::new_spanned(&ix.index, format!(
                            "`{a}` is cached as `{a}[{}]`, and acc cannot prove this index inside that window: references to a cached array must lie in its window (OpenACC `cache`); write the window's expression with each range replaced by `lo + c` (a literal `c` inside it) or by the variable of a loop `for k in lo..lo + w` inside it, widen the window, or drop `cache!`",
                            quote::quote!(#t))));
                    }
                    syn::visit::visit_expr(self, &ix.index);
                    return;
                }
            }
            syn::visit::visit_expr_index(self, ix);
        }
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            if self.names.contains(&p.ident) || self.bounds.iter().any(|b| b.var == p.ident) {
                self.errors.error(p.ident.span(), format!(
                    "`{}` is rebound here, inside a loop whose `cache!` window reads it: acc cannot check the window's references; use another name",
                    p.ident));
            }
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            self.assigned(&a.left);
            syn::visit::visit_expr_assign(self, a);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            if crate::front::loops::is_compound_assign(&b.op) {
                self.assigned(&b.left);
            }
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_macro(&mut self, _: &'ast syn::Macro) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    impl V<'_, '_> {
        fn assigned(&mut self, e: &Expr) {
            if let Expr::Path(p) = strip(e) {
                if let Some(id) = p.path.get_ident().filter(|id| self.names.contains(id)) {
                    self.errors.error(id.span(), format!("`{id}` is assigned here, inside a loop whose `cache!` window reads it: acc cannot check the window's references"));
                }
            }
        }
    }
    let mut v = V { windows: &windows, names, bounds: Vec::new(), errors };
    for s in &body.stmts[1..] {
        syn::visit::Visit::visit_stmt(&mut v, s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiled(src: &str) -> Tiled {
        match parse_all(src.parse().unwrap()).unwrap().pop().unwrap() {
            Item::Tiled(t) => *t,
            Item::Range(_) => panic!("a 1-D window"),
        }
    }

    /// Whether `reference` (an index) is proved inside `window` with the loop `bound` around it.
    fn inside(window: &str, reference: &str, bound: Option<&str>) -> bool {
        let t = tiled(window);
        let r: Expr = syn::parse_str(reference).unwrap();
        let bounds: Vec<Bound> = bound.map(|b| bound_of(&syn::parse_str(b).unwrap()).expect("a bound")).into_iter().collect();
        let (mut next, mut got) = (0, Vec::new());
        match_ref(&t.index, &r, &t.slots, &mut next, &bounds, &mut got) && next == t.slots.len()
    }

    #[test]
    fn two_dimensional_windows_parse_with_their_ranges() {
        let t = tiled("a[i * n + (kk..kk + 16)]");
        assert_eq!((t.slots.len(), t.slots[0].base.as_str(), t.slots[0].off, t.slots[0].width), (1, "kk", 0, 16));
        let t = tiled("t[(r + 1..=r + 4) * n + (c..c + 8)]");
        assert_eq!(t.slots.iter().map(|s| (s.off, s.width)).collect::<Vec<_>>(), [(1, 4), (0, 8)]);
        for bad in ["a[i * n + (kk..kk + w)]", "a[i * n + (kk..)]", "a[(i..i + 1) * n * n + (j..j + 1) * n + (k..k + 1)]", "a[i * n + (kk..kk)]"] {
            assert!(parse_all(bad.parse().unwrap()).is_err(), "{bad}");
        }
    }

    #[test]
    fn references_are_proved_inside_2d_windows() {
        let a = "a[i * n + (kk..kk + 16)]";
        assert!(inside(a, "i * n + k", Some("for k in kk..(kk + 16).min(n) {}")));
        assert!(inside(a, "i * n + k", Some("for k in kk + 4..kk + 16 {}")));
        assert!(inside(a, "i * n + (kk + 15)", None));
        assert!(inside(a, "(i * n) + (kk)", None));
        assert!(!inside(a, "i * n + (kk + 16)", None));
        assert!(!inside(a, "i * n + k", Some("for k in kk..kk + 17 {}")));
        assert!(!inside(a, "i * n + k + 1", Some("for k in kk..kk + 16 {}")));
        assert!(!inside(a, "j * n + k", Some("for k in kk..kk + 16 {}")));
        assert!(!inside(a, "i * n + k", None));
        let b = "b[(kk..kk + 16) * n + j]";
        assert!(inside(b, "k * n + j", Some("for k in kk..=kk + 15 {}")));
        assert!(!inside(b, "k * n + j", Some("for k in kk..=kk + 16 {}")));
        assert!(!inside(b, "k * m + j", Some("for k in kk..kk + 16 {}")));
    }

    #[test]
    fn references_are_proved_inside_windows_that_move_with_the_nest() {
        // The Jacobi's window, and its references as a stencil writes them: a literal offset
        // at the end of the sum goes with the column.
        let a = "a[(i - 1..i + 2) * n + (j - 1..j + 2)]";
        for r in ["i * n + j", "(i - 1) * n + j - 1", "(i + 1) * n + j + 1", "i * n + (j + 1)", "(i + 1) * n + (j - 1)"] {
            assert!(inside(a, r, None), "{r}");
        }
        for r in ["(i + 2) * n + j", "i * n + j + 2", "i * n + j - 2", "(i - 1) * n + j + 2", "i * m + j - 1", "i * n + k - 1"] {
            assert!(!inside(a, r, None), "{r}");
        }
        let w = "w[i * n + (j - 2..=j)]";
        assert!(inside(w, "i * n + j - 2", None) && inside(w, "i * n + j", None));
        assert!(!inside(w, "i * n + j + 1", None) && !inside(w, "(i + 1) * n + j", None));
    }
}
