//! The checks of one acc loop: its directive in its region, where its levels stand, the shape
//! of a `collapse`/`tile` nest, and the control flow its parallel iterations allow.

use proc_macro2::Span;
use syn::visit::Visit;
use syn::spanned::Spanned;
use syn::ExprForLoop;

use crate::front::loops::{self, LoopHeader};
use crate::front::model::*;
use crate::report::Errors;
use crate::syntax::is_acc_path;

/// Checks a loop directive in its context (the kind of region it is in).
pub fn directive(d: &LoopDirective, kind: RegionKind, errors: &mut Errors) {
    if let Some(seq) = d.seq {
        for (name, present) in [
            ("gang", d.gang.is_some()),
            ("worker", d.worker.is_some()),
            ("vector", d.vector.is_some()),
            ("independent", d.independent.is_some()),
            ("auto", d.auto.is_some()),
        ] {
            if present {
                errors.error(seq, format!("`seq` cannot be combined with `{name}`: a sequential loop has no parallel level"));
            }
        }
    }
    if let (Some(auto), Some(_)) = (d.auto, d.independent) {
        errors.error(auto, "`auto` and `independent` contradict each other: `auto` asks the compiler to decide");
    }
    if kind != RegionKind::Kernels {
        for lvl in [&d.gang, &d.worker, &d.vector].into_iter().flatten() {
            if lvl.dim.is_some() && kind == RegionKind::Serial {
                errors.error(lvl.span, "`gang(dim: ..)` spreads a loop over a grid dimension's gangs: a `serial` region runs one gang");
            } else if lvl.size.is_some() {
                errors.error(
                    lvl.span,
                    format!(
                        "a level size is allowed only in `kernels` regions; in `{}` set it on the region (`num_gangs`, `num_workers`, `vector_length`)",
                        kind.name()
                    ),
                );
            }
        }
    }
    if let Some((_, Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. })))) = d.gang.as_ref().and_then(|g| g.chunk.as_ref()) {
        if n.base10_parse::<u64>().map_or(true, |v| v == 0) {
            errors.error(n.span(), "`gang(static: n)` deals the trips in chunks of n: n must be at least 1 (`gang(static: *)` lets acc choose)");
        }
    }
    gpu_sizes(d, errors);
    if let (Some((span, _)), Some(_)) = (&d.tile, &d.collapse) {
        errors.error(*span, "`tile` and `collapse` cannot be combined on one loop");
    }
}

/// Level and tile sizes, written as literals, that no GPU block or grid can take (a block holds
/// at most 1024 threads, 64 in `z`; a dimension at least one): errors on the size. Sizes
/// computed at run time are clamped at launch (OpenACC lets the implementation use fewer).
fn gpu_sizes(d: &LoopDirective, errors: &mut Errors) {
    let lit = |e: &syn::Expr| match e {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => i.base10_parse::<u64>().ok(),
        _ => None,
    };
    for (name, lvl) in [("gang", &d.gang), ("worker", &d.worker), ("vector", &d.vector)] {
        let Some(size) = lvl.as_ref().and_then(|l| l.size.as_ref()) else { continue };
        match lit(size) {
            Some(0) => errors.error(size.span(), format!("`{name}(0)`: a dimension of the GPU's grid or block has at least one {}", if name == "gang" { "block" } else { "thread" })),
            Some(n) if name != "gang" && n > 1024 => errors.error(size.span(), format!("`{name}({n})`: a GPU block holds at most 1024 threads")),
            _ => {}
        }
    }
    let sizes = |l: &Option<LevelClause>| l.as_ref().and_then(|l| l.size.as_ref()).and_then(lit);
    if let (Some(w), Some(v)) = (sizes(&d.worker), sizes(&d.vector)) {
        if w * v > 1024 {
            let span = d.vector.as_ref().and_then(|l| l.size.as_ref()).map_or_else(Span::call_site, |e| e.span());
            errors.error(span, format!("`worker({w})` x `vector({v})` is {} threads: a GPU block holds at most 1024", w * v));
        }
    }
    if let Some((span, tile)) = &d.tile {
        let lits: Vec<Option<u64>> = tile.iter().map(lit).collect();
        if lits.iter().all(Option::is_some) && (2..=3).contains(&tile.len()) {
            let n: u64 = lits.iter().flatten().product();
            if n > 1024 {
                errors.error(*span, format!("`tile` of {n} elements: on the GPU a tile is one block of threads, at most 1024"));
            } else if let Some(Some(z)) = lits.get(2).filter(|z| z.is_some_and(|z| z > 64)) {
                errors.error(tile[2].span(), format!("a tile's third size is the block's `z`: at most 64 on the GPU, not {z}"));
            }
        }
    }
}

/// The innermost level (gang 0, worker 1, vector 2) a directive names, and its outermost.
pub fn levels(d: &LoopDirective) -> Option<(u8, u8, Span)> {
    let named: Vec<(u8, Span)> = [(0u8, &d.gang), (1, &d.worker), (2, &d.vector)]
        .into_iter()
        .filter_map(|(l, c)| c.as_ref().map(|c| (l, c.span)))
        .collect();
    let first = named.first()?;
    let last = named.last()?;
    Some((first.0, last.0, first.1))
}

const LEVEL_NAMES: [&str; 3] = ["gang", "worker", "vector"];

/// Level nesting: gang outside worker outside vector, inside the innermost level of the
/// enclosing acc loops (`enclosing`). `kernels` regions also have the multi-dimensional
/// schedules (gv-gv, g-gv-v, ...: DESIGN §4.2), where each loop of a nest takes a dimension of
/// the same levels; `dims_nest`: `d` names `gang(dim: n)` inside a loop over a higher gang
/// dimension (any region). A `routine(seq)` has no parallel level.
pub fn nesting(d: &LoopDirective, enclosing: Option<u8>, kind: RegionKind, dims_nest: bool, routine: Option<RoutineLevel>, errors: &mut Errors) {
    let Some((outer_lvl, _, span)) = levels(d) else { return };
    if let Some(enclosing) = enclosing {
        if outer_lvl <= enclosing && kind != RegionKind::Kernels && !(dims_nest && enclosing == 0) {
            errors.error(
                span,
                format!(
                    "a `{}` loop cannot be nested inside a `{}` loop: the levels nest gang > worker > vector",
                    LEVEL_NAMES[outer_lvl as usize], LEVEL_NAMES[enclosing as usize]
                ),
            );
        }
    }
    if let Some(RoutineLevel::Seq) = routine {
        errors.error(span, "a `routine(seq)` cannot contain a parallel loop level");
    }
}

/// The `collapse(n)` / `tile(..)` nest under `f`: `depth` tightly nested loops of the accepted
/// forms, whose bounds do not depend on the outer loops' variables. `force` is
/// `collapse(force: n)`'s `force` (OpenACC 3.3): `front::force` has sunk the code between its
/// loops into the innermost body where it could; a nest still not tight (a body of several
/// loops) is a compile error on `force` saying what to write.
pub fn nest(f: &ExprForLoop, depth: usize, clause_span: Span, force: Option<Span>, errors: &mut Errors) -> Option<Vec<LoopHeader>> {
    let mut headers = Vec::new();
    let mut cur = f;
    for level in 0..depth {
        match LoopHeader::parse(cur) {
            Ok(h) => headers.push(h),
            Err(e) => {
                errors.push(e);
                return None;
            }
        }
        if level + 1 == depth {
            break;
        }
        match loops::only_inner_loop(&cur.body) {
            Some(inner) => {
                if let Some(a) = inner.attrs.iter().find(|a| is_acc_path(a.path(), "loop")) {
                    errors.error(a.path().span(), "a loop inside `collapse`/`tile` takes its schedule from the outer directive; remove this `acc::loop`");
                }
                cur = inner;
            }
            None => {
                errors.push(not_tight(depth, level + 1, clause_span, force));
                return None;
            }
        }
    }
    for (i, h) in headers.iter().enumerate() {
        for outer in &headers[..i] {
            if h.mentions(&outer.var) {
                errors.error(
                    h.span,
                    format!("the bounds of a collapsed loop cannot depend on the outer loop variable `{}`", outer.var),
                );
                return None;
            }
        }
    }
    Some(headers)
}

/// The error for a `collapse`/`tile` nest whose body at `level` is not a single `for` loop:
/// spanned on `force` where `collapse(force: n)` asked for it, saying what to write.
fn not_tight(depth: usize, level: usize, clause_span: Span, force: Option<Span>) -> syn::Error {
    let Some(force) = force else {
        return syn::Error::new(
            clause_span,
            format!("`collapse`/`tile` of {depth} loops needs {depth} tightly nested `for` loops, but the loop body at depth {level} is not a single `for` loop"),
        );
    };
    let fewer = match level {
        1 => "or put `#[acc::r#loop]` on the inner loop instead of collapsing".to_string(),
        _ => format!("or collapse the tightly nested loops only (`collapse({level})`, with an inner `#[acc::r#loop]` on the rest)"),
    };
    syn::Error::new(
        force,
        format!(
            "`collapse(force: {depth})` needs one `for` loop in each body of the nest, but the body at depth {level} holds several loops or none \
             (the code around a single inner loop runs for every collapsed iteration, as `force` means): split the loops, {fewer}"
        ),
    )
}

/// The control flow a parallel loop body cannot have: leaving the loop (`break`, `return`,
/// `?`), or a labelled `continue` of a loop outside it.
pub fn control_flow(body: &syn::Block, errors: &mut Errors) {
    struct V<'e> {
        errors: &'e mut Errors,
        depth: usize,
    }
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            self.visit_expr(&f.expr);
            self.depth += 1;
            self.visit_block(&f.body);
            self.depth -= 1;
        }
        fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
            self.visit_expr(&w.cond);
            self.depth += 1;
            self.visit_block(&w.body);
            self.depth -= 1;
        }
        fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
            self.depth += 1;
            self.visit_block(&l.body);
            self.depth -= 1;
        }
        fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
            if self.depth == 0 || b.label.is_some() {
                self.errors.error(b.break_token.span, "`break` cannot leave a parallel acc loop: its iterations run independently (use `seq`, or a `while` loop outside the region)");
            }
        }
        fn visit_expr_continue(&mut self, c: &'ast syn::ExprContinue) {
            if c.label.is_some() && self.depth > 0 {
                self.errors.error(c.continue_token.span, "a labelled `continue` cannot target a loop outside the acc loop body");
            }
        }
        fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
            self.errors.error(r.return_token.span, "`return` cannot leave a parallel acc loop: its iterations run independently");
        }
        fn visit_expr_try(&mut self, t: &'ast syn::ExprTry) {
            self.errors.error(t.question_token.span, "`?` cannot leave a parallel acc loop: its iterations run independently");
        }
    }
    V { errors, depth: 0 }.visit_block(body);
}
