//! Coarsened tiles: each thread takes several rows of its block's tile ([`Coarse`]), the
//! body copied once per row, its names renamed apart, the copies jammed.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident, Stmt};

use super::*;

/// The name of copy `q` of `name` in a coarsened body.
pub fn copy_name(name: &Ident, q: usize) -> Ident {
    format_ident!("{}__acc{}", name, q)
}

/// Whether (and how far) to coarsen a staged 2-D nest: the loop on `y` with a literal tile
/// size of at least 4 rows, even, takes `m` = 4 rows a thread (2 where the size is not a
/// multiple of 4). `Err`: why not, where the body is what stops it.
pub fn coarsening(body: &syn::Block, levels: &[Level]) -> Result<Option<Coarse>, String> {
    let Some(level) = levels.iter().position(|l| l.dim == 1) else { return Ok(None) };
    let Some(size) = levels[level].size else { return Ok(None) };
    let m = if size % 4 == 0 && size >= 8 { 4 } else if size % 2 == 0 && size >= 4 { 2 } else { 1 };
    if m == 1 {
        return Ok(None);
    }
    if let Some(j) = early_exit(body) {
        return Err(format!("the nest's body leaves early (`{j}`), which would leave the other rows' copies too"));
    }
    let (lets, others) = bindings(body);
    if let Some(id) = lets.iter().find(|id| others.contains(id)) {
        return Err(format!("`{id}` is bound both by a `let` and by another pattern in the nest's body"));
    }
    let mut names = vec![levels[level].var.clone()];
    names.extend(lets);
    names.dedup();
    Ok(Some(Coarse { level, m, names, adjacent: false }))
}

/// The names `body` binds with `let`, and those other patterns bind (loops, closures, `match`).
pub(super) fn bindings(body: &syn::Block) -> (Vec<Ident>, Vec<Ident>) {
    struct V {
        in_let: bool,
        lets: Vec<Ident>,
        others: Vec<Ident>,
    }
    impl<'ast> Visit<'ast> for V {
        fn visit_local(&mut self, l: &'ast syn::Local) {
            let was = std::mem::replace(&mut self.in_let, true);
            self.visit_pat(&l.pat);
            self.in_let = was;
            if let Some(init) = &l.init {
                self.visit_expr(&init.expr);
                if let Some((_, e)) = &init.diverge {
                    self.visit_expr(e);
                }
            }
        }
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            if self.in_let {
                self.lets.push(p.ident.clone());
            } else {
                self.others.push(p.ident.clone());
            }
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V { in_let: false, lets: Vec::new(), others: Vec::new() };
    v.visit_block(body);
    v.lets.sort();
    v.lets.dedup();
    (v.lets, v.others)
}

/// Renames `names` to their copy `q` (`copy_name`): in expressions, `let` patterns, field
/// shorthands and macro arguments (an identifier there, unless it follows a `.`).
pub(super) struct Rename<'a> {
    names: &'a [Ident],
    q: usize,
}

impl Rename<'_> {
    fn tokens(&self, ts: TokenStream) -> TokenStream {
        use proc_macro2::TokenTree;
        let mut out = Vec::new();
        let mut after_dot = false;
        for t in ts {
            let t = match t {
                TokenTree::Ident(i) if !after_dot && self.names.contains(&i) => TokenTree::Ident(copy_name(&i, self.q)),
                TokenTree::Group(g) => {
                    let mut n = proc_macro2::Group::new(g.delimiter(), self.tokens(g.stream()));
                    n.set_span(g.span());
                    TokenTree::Group(n)
                }
                other => other,
            };
            after_dot = matches!(&t, TokenTree::Punct(p) if p.as_char() == '.');
            out.push(t);
        }
        out.into_iter().collect()
    }
}

impl VisitMut for Rename<'_> {
    fn visit_expr_path_mut(&mut self, p: &mut syn::ExprPath) {
        if p.qself.is_none() {
            if let Some(id) = p.path.get_ident() {
                if self.names.contains(id) {
                    p.path = copy_name(id, self.q).into();
                }
            }
        }
    }
    fn visit_pat_ident_mut(&mut self, p: &mut syn::PatIdent) {
        if self.names.contains(&p.ident) {
            p.ident = copy_name(&p.ident, self.q);
        }
        syn::visit_mut::visit_pat_ident_mut(self, p);
    }
    fn visit_field_value_mut(&mut self, f: &mut syn::FieldValue) {
        if f.colon_token.is_none() {
            f.colon_token = Some(Default::default());
        }
        syn::visit_mut::visit_field_value_mut(self, f);
    }
    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        m.tokens = self.tokens(std::mem::take(&mut m.tokens));
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

pub(super) fn renamed<T: Clone>(t: &T, names: &[Ident], q: usize, visit: impl Fn(&mut Rename, &mut T)) -> T {
    let mut t = t.clone();
    visit(&mut Rename { names, q }, &mut t);
    t
}

/// Copies of the same statements (renamed apart) interleaved: statement by statement, the
/// copies of a `for` loop whose header is the same in all and whose body cannot leave it
/// early fused into one loop over the copies' bodies, jammed in turn (so a loop reading the
/// same tile element for every copy reads it once); any other statement copy after copy.
pub(super) fn jam(copies: Vec<Vec<Stmt>>) -> Vec<Stmt> {
    let n = copies.first().map_or(0, Vec::len);
    let mut out = Vec::new();
    for s in 0..n {
        let sts: Vec<&Stmt> = copies.iter().map(|c| &c[s]).collect();
        match fuse(&sts) {
            Some(f) => out.push(f),
            None => out.extend(sts.into_iter().cloned()),
        }
    }
    out
}

pub(super) fn fuse(sts: &[&Stmt]) -> Option<Stmt> {
    let loops: Vec<&syn::ExprForLoop> = sts
        .iter()
        .map(|s| match s {
            Stmt::Expr(Expr::ForLoop(f), _) => Some(f),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let head = |f: &syn::ExprForLoop| {
        let (attrs, pat, e) = (&f.attrs, &f.pat, &f.expr);
        quote!(#(#attrs)* #pat #e).to_string()
    };
    let first = loops[0];
    if first.label.is_some() || loops.iter().any(|f| head(f) != head(first)) || early_exit(&first.body).is_some() || leaves(&first.body) {
        return None;
    }
    let mut f = first.clone();
    f.body.stmts = jam(loops.iter().map(|l| l.body.stmts.clone()).collect());
    let Stmt::Expr(_, semi) = sts[0] else { unreachable!("a loop") };
    Some(Stmt::Expr(Expr::ForLoop(f), *semi))
}


/// Where staged windows' rows move with the coarsened level (a stencil's, see
/// [`Coarse::adjacent`]), its rows a thread: blocks of 4 rows of threads, each thread `size / 4`
/// adjacent rows of the tile (at most 8): `tile(32, 32)` 8, `tile(32, 16)` 4. On an H200, the
/// cache paper's Jacobi step (4096^2 `f32`, one call, three rounds; ms, `cache!` on
/// `tile(32, 32)` / `tile(32, 16)`): rows a block apart 0.072-0.073 / 0.066; adjacent, 4 a
/// thread 0.069-0.070 / 0.063-0.066; 8 a thread 0.061-0.064 / 0.065-0.067 (blocks of 2 rows);
/// 2 a thread 0.100 / 0.092 (`benches/results/jacobi-rows-h200/` as of 33f665f). `ACC_EXP_STRIDED_ROWS=1`
/// keeps the rows a block apart, `ACC_EXP_ADJ_ROWS=m` sets `m`, for A/B runs on the GPU.
/// Tiles of fewer than 8 rows keep [`coarsening`]'s `m` (`c`), adjacent.
pub fn adjacent_rows(staged: &[StagedLoop], levels: &[Level], c: &Coarse) -> Option<usize> {
    let moves = staged.iter().flat_map(|l| &l.wins).any(|w| matches!(w.rows, Src::Moving(_, l) if l == c.level));
    if !moves || std::env::var_os("ACC_EXP_STRIDED_ROWS").is_some() {
        return None;
    }
    let size = levels[c.level].size.unwrap_or(0);
    let m = std::env::var("ACC_EXP_ADJ_ROWS").ok().and_then(|v| v.parse::<usize>().ok()).unwrap_or((size / 4).min(8));
    Some(if m >= 2 && size.is_multiple_of(m) { m } else { c.m })
}
