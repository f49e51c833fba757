//! Chunked `vector` loops: a thread runs 4 consecutive trips of a streaming loop, and each
//! array the body reaches at `a[e + i]` is moved 4 elements an access (`acc_device::chunk`):
//! one 16-byte `ld.global.nc.v4.f32` where the loop read `f32`s one at a time. A streaming
//! loop keeps one load a trip in flight per thread; 4-byte loads left `copy_f32` at 0.79 of
//! nvcc's 16-byte copy (issue 12). `schedule.rs` emits the loop; this module decides which
//! loops and arrays take it and writes the body's copies.
//!
//! A loop takes it when its body (as lowered for one thread) is short, holds no loop, jump,
//! macro, `unsafe` or atomic, and reaches every array it indexes (array parameters only) as
//! `a[e + i]` / `a[i + e]` / `a[i]` and nowhere else (the same `e` everywhere for that array,
//! `e` arithmetic of names the body neither binds nor assigns, `i` the loop's variable). The
//! trips of a parallel loop are independent, so the 4 trips' loads may all come first and their
//! stores last; each trip's own element is the only one it touches in such an array.
//!
//! A reduction over a loop inside the nest takes chunks too, in rounds of several chunks whose
//! loads are all in flight before the round's trips combine them, the chunks inside the arrays
//! counted once before the rounds (`Loop::code`); a reduction over the top loop keeps
//! `schedule.rs`'s unrolled rounds.
//!
//! The loop's code (`Loop::code_16_bytes`): a peel of single trips up to the first chunk aligned
//! for every array, whole chunks through `acc_device::chunk`'s one wide access per array, in
//! rounds of several chunks loaded before their trips run, then the rest one trip at a time; the
//! plain loop where the arrays never align together or the loop has less than a chunk a thread.

use proc_macro2::{TokenStream, TokenTree};
use quote::{format_ident, quote, ToTokens};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident, Stmt};

use crate::front::loops::strip_parens as strip;

/// Bodies of at most this many tokens are chunked (4 copies of the body: registers).
const CHUNK_TOKENS: usize = 300;

/// One array a chunked loop moves 4 elements at a time.
pub struct ChunkArray {
    pub name: Ident,
    /// The index expression as written (evaluated at a chunk's first trip: its start).
    pub index: Expr,
    /// Whether the body reads the elements (else every access is a top-level `a[..] = v;`).
    pub read: bool,
    /// Whether the body may write them (stored back after the trips).
    pub written: bool,
}


fn is_ident(e: &Expr, v: &Ident) -> bool {
    matches!(strip(e), Expr::Path(p) if p.qself.is_none() && p.path.is_ident(v))
}

pub(crate) fn mentions(ts: TokenStream, v: &Ident) -> bool {
    ts.into_iter().any(|t| match t {
        TokenTree::Ident(i) => &i == v,
        TokenTree::Group(g) => mentions(g.stream(), v),
        _ => false,
    })
}

/// `e` in `a[e + i]`, `a[i + e]` (`None` for `a[i]`); `Err` when the index has another form.
fn offset(index: &Expr, var: &Ident) -> Result<Option<Expr>, ()> {
    if is_ident(index, var) {
        return Ok(None);
    }
    let Expr::Binary(b) = strip(index) else { return Err(()) };
    if !matches!(b.op, syn::BinOp::Add(_)) {
        return Err(());
    }
    let e = if is_ident(&b.right, var) {
        &b.left
    } else if is_ident(&b.left, var) {
        &b.right
    } else {
        return Err(());
    };
    if mentions(e.to_token_stream(), var) {
        return Err(());
    }
    Ok(Some((**e).clone()))
}

/// Whether `e` is arithmetic of names, literals and `.len()`: what a chunk's start may be
/// computed from once for its 4 trips.
pub(crate) fn pure_offset(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Path(p) => p.qself.is_none() && p.path.get_ident().is_some(),
        Expr::Paren(p) => pure_offset(&p.expr),
        Expr::Group(g) => pure_offset(&g.expr),
        Expr::Cast(c) => pure_offset(&c.expr),
        Expr::Unary(u) => matches!(u.op, syn::UnOp::Neg(_)) && pure_offset(&u.expr),
        Expr::Binary(b) => !crate::front::loops::is_compound_assign(&b.op) && pure_offset(&b.left) && pure_offset(&b.right),
        Expr::MethodCall(m) => m.method == "len" && m.args.is_empty() && matches!(&*m.receiver, Expr::Path(_)),
        _ => false,
    }
}

/// What a body does that keeps it from being chunked, and its arrays' accesses.
#[derive(Default)]
struct Scan {
    bad: bool,
    /// Names the body binds or assigns.
    bound: Vec<Ident>,
    /// Per array: its index expressions (as text, to compare) and whether each read / written.
    accesses: Vec<(Ident, Vec<Expr>, bool, bool, bool)>,
    /// An element access to something other than an array parameter (a local array).
    other_index: bool,
}

struct Visitor<'a> {
    arrays: &'a [Ident],
    mut_arrays: &'a [Ident],
    var: &'a Ident,
    scan: Scan,
    /// The place being written (`=`, `op=`, `&mut`, a method call's receiver, a field's base).
    writing: bool,
    /// A plain `=` (not `op=`): the element is written but not read.
    assigning: bool,
}

impl Visitor<'_> {
    fn entry(&mut self, a: &Ident) -> &mut (Ident, Vec<Expr>, bool, bool, bool) {
        if let Some(i) = self.scan.accesses.iter().position(|x| &x.0 == a) {
            return &mut self.scan.accesses[i];
        }
        self.scan.accesses.push((a.clone(), Vec::new(), false, false, false));
        self.scan.accesses.last_mut().unwrap()
    }

    fn place(&mut self, e: &Expr, assigning: bool) {
        let (w, a) = (self.writing, self.assigning);
        self.writing = true;
        self.assigning = assigning;
        self.visit_expr(e);
        self.writing = w;
        self.assigning = a;
    }
}

impl<'ast> Visit<'ast> for Visitor<'_> {
    fn visit_expr_index(&mut self, ix: &'ast syn::ExprIndex) {
        if let Expr::Path(p) = strip(&ix.expr) {
            if let Some(a) = p.path.get_ident().filter(|a| self.arrays.contains(a)) {
                let (writing, assigning) = (self.writing, self.assigning);
                let writable = self.mut_arrays.contains(a);
                let var = self.var.clone();
                let e = self.entry(a);
                match offset(&ix.index, &var) {
                    Ok(_) => e.1.push((*ix.index).clone()),
                    Err(()) => e.4 = true,
                }
                // A read unless the place is only assigned (`a[i] = v`).
                e.2 |= !(writing && assigning);
                e.3 |= writing && writable;
                // The index is read, not written.
                self.writing = false;
                self.assigning = false;
                self.visit_expr(&ix.index);
                self.writing = writing;
                self.assigning = assigning;
                return;
            }
        }
        // `x[j]` of anything else: its base may be a written place, its index is read.
        self.scan.other_index = true;
        self.visit_expr(&ix.expr);
        let (w, a) = (self.writing, self.assigning);
        self.writing = false;
        self.assigning = false;
        self.visit_expr(&ix.index);
        self.writing = w;
        self.assigning = a;
    }
    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        // An array named other than as `a[..]` (passed on, `a.len()`, `&a`): not chunked.
        if let Some(a) = p.path.get_ident().filter(|a| self.arrays.contains(a)) {
            let a = a.clone();
            self.entry(&a).4 = true;
        }
        if p.path.segments.iter().any(|s| s.ident.to_string().to_lowercase().contains("atomic")) {
            self.scan.bad = true;
        }
        if self.writing {
            if let Some(v) = p.path.get_ident() {
                self.scan.bound.push(v.clone());
            }
        }
    }
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.place(&a.left, true);
        self.visit_expr(&a.right);
    }
    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if crate::front::loops::is_compound_assign(&b.op) {
            self.place(&b.left, false);
            self.visit_expr(&b.right);
        } else {
            syn::visit::visit_expr_binary(self, b);
        }
    }
    fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
        if r.mutability.is_some() {
            self.place(&r.expr, false);
        } else {
            syn::visit::visit_expr_reference(self, r);
        }
    }
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        // The receiver may be taken by `&mut self`.
        self.place(&m.receiver, false);
        for a in &m.args {
            self.visit_expr(a);
        }
    }
    fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
        let (w, a) = (self.writing, self.assigning);
        // `a[i].x = v` writes part of the element: the rest is read (and stored back).
        self.writing = w;
        self.assigning = false;
        self.visit_expr(&f.base);
        self.assigning = a;
    }
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.scan.bound.push(p.ident.clone());
        syn::visit::visit_pat_ident(self, p);
    }
    fn visit_expr_macro(&mut self, _: &'ast syn::ExprMacro) {
        self.scan.bad = true;
    }
    fn visit_stmt_macro(&mut self, _: &'ast syn::StmtMacro) {
        self.scan.bad = true;
    }
    fn visit_expr_unsafe(&mut self, _: &'ast syn::ExprUnsafe) {
        self.scan.bad = true;
    }
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {
        self.scan.bad = true;
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {
        self.scan.bad = true;
    }
}

/// The arrays of `body` (the body of a loop over `var`, lowered for one thread) that a
/// chunked loop moves 4 elements at a time, or `None` when the loop is not chunked.
/// `arrays`: the region's array parameters; `mut_arrays`: those it may write.
pub fn arrays(body: &syn::Block, var: &Ident, arrays: &[Ident], mut_arrays: &[Ident]) -> Option<Vec<ChunkArray>> {
    let tokens = body.to_token_stream();
    fn count(ts: TokenStream) -> usize {
        ts.into_iter().map(|t| if let TokenTree::Group(g) = t { 1 + count(g.stream()) } else { 1 }).sum()
    }
    if count(tokens.clone()) > CHUNK_TOKENS {
        return None;
    }
    fn jumps(ts: TokenStream) -> bool {
        ts.into_iter().any(|t| match t {
            TokenTree::Ident(i) => matches!(i.to_string().as_str(), "return" | "break" | "continue" | "loop" | "while" | "for" | "async" | "await" | "yield"),
            TokenTree::Punct(p) => p.as_char() == '?',
            TokenTree::Group(g) => jumps(g.stream()),
            TokenTree::Literal(_) => false,
        })
    }
    if jumps(tokens) {
        return None;
    }
    let mut v = Visitor { arrays, mut_arrays, var, scan: Scan::default(), writing: false, assigning: false };
    v.visit_block(body);
    let scan = v.scan;
    if scan.bad || scan.bound.contains(var) || scan.other_index {
        return None;
    }
    // Store-only arrays: every access is a top-level `a[..] = v;` of the body.
    let top_assigned = |a: &Ident| {
        body.stmts.iter().filter(|s| matches!(s, Stmt::Expr(Expr::Assign(x), Some(_)) if matches!(strip(&x.left), Expr::Index(ix) if matches!(strip(&ix.expr), Expr::Path(p) if p.path.is_ident(a))))).count()
    };
    let indexed = scan.accesses.iter().filter(|a| !a.1.is_empty() || a.4).count();
    let out: Vec<ChunkArray> = scan
        .accesses
        .into_iter()
        .filter(|(a, idx, _, _, other)| {
            !other
                && !scan.bound.contains(a)
                && !idx.is_empty()
                && idx.iter().all(|e| e.to_token_stream().to_string() == idx[0].to_token_stream().to_string())
                && match offset(&idx[0], var) {
                    Ok(Some(e)) => pure_offset(&e) && !scan.bound.iter().any(|b| mentions(e.to_token_stream(), b)),
                    Ok(None) => true,
                    Err(()) => false,
                }
        })
        .map(|(name, idx, read, written, _)| {
            // A write-only array assigned other than at the top level is read and stored back
            // (its element keeps its value where a trip does not assign it).
            let read = read || (written && top_assigned(&name) != idx.len());
            ChunkArray { name, index: idx[0].clone(), read, written }
        })
        .collect();
    // Every array the body indexes moves in chunks, or the loop is not chunked: the body's 4
    // copies would keep the others' loads and bounds checks all live at once (Heat2D's step,
    // which reads `u` at 5 offsets, went from 54 to 116 registers).
    (!out.is_empty() && out.len() == indexed).then_some(out)
}

/// The slot holding element `u` of a chunk of array `j` in loop `n`.
pub fn slot(n: usize, j: usize, u: usize) -> Ident {
    format_ident!("__acc_c{}_{}_{}", n, j, u)
}

/// `body` for trip `u` of a chunk: each access to a chunked array names its slot.
pub fn trip_body(body: &syn::Block, arrays: &[ChunkArray], n: usize, u: usize) -> syn::Block {
    struct R<'a> {
        arrays: &'a [ChunkArray],
        n: usize,
        u: usize,
    }
    impl VisitMut for R<'_> {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            if let Expr::Index(ix) = e {
                if let Expr::Path(p) = strip(&ix.expr) {
                    if let Some(j) = self.arrays.iter().position(|a| p.path.is_ident(&a.name)) {
                        let s = slot(self.n, j, self.u);
                        *e = syn::parse_quote!(#s);
                        return;
                    }
                }
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
    }
    let mut b = body.clone();
    R { arrays, n, u }.visit_block_mut(&mut b);
    b
}

/// The names of `arrays`, for the schedule report.
pub fn array_names(arrays: &[ChunkArray]) -> Vec<Ident> {
    arrays.iter().map(|a| a.name.clone()).collect()
}

/// A loop over `threadIdx.x` as `schedule.rs` lowers it: the pieces a chunked form needs.
pub struct Loop<'a> {
    /// The loop's number (names of its locals).
    pub n: usize,
    /// The normalised trip index and the binding of the loop variable from it.
    pub k: &'a Ident,
    pub bind: &'a TokenStream,
    /// One trip, the body as written (element accesses with their bounds checks).
    pub body_code: &'a TokenStream,
    /// The trip count, the threads' stride and this thread's first trip.
    pub total: &'a Ident,
    pub stride: &'a TokenStream,
    pub start: TokenStream,
}

impl Loop<'_> {
    /// The chunked loop: the trips before the first chunk aligned for every array one at a
    /// time, then rounds of whole chunks (`rounds`: chunks a round, largest first, each size
    /// taking rounds while a whole one is left; a round's chunks are all loaded before its trips
    /// run, so that a thread keeps that many in flight), then the chunks that do not lie in
    /// every array and the last trips one at a time. `plain` where the arrays' chunks never
    /// align together or the loop has less than a chunk a thread.
    ///
    /// Which chunks lie in the arrays is found once, before the rounds: chunk `ch` of an array
    /// starts `ch * w` elements after its first one (`e + i`, with `e` the same for every trip),
    /// so the chunks that fit are those below a count (`chunk_count`), and no round checks
    /// anything. A check a round (64-bit arithmetic of the round's first and last starts) took
    /// the papers' vector position 53 instructions a round of 4 loads, where a hand-written
    /// CUDA loop of the same rounds takes 14 (1.31 against 1.01 ms on an H100); without it, 25
    /// (ncu: 3.33M instructions against 7.00M), and 1.04-1.09 ms against 1.23 once the kernel
    /// is compiled for its block (acc-runtime's `rounds_for_block`; benches/README.md).
    pub fn code(&self, arrays: &[ChunkArray], b: &syn::Block, rounds: &[usize], plain: TokenStream, w: usize) -> TokenStream {
        let Loop { n, k, bind, body_code, total, stride, start } = self;
        let n = *n;
        let idx: Vec<&Expr> = arrays.iter().map(|a| &a.index).collect();
        let names: Vec<&Ident> = arrays.iter().map(|a| &a.name).collect();
        let (first, first_idx) = (names[0], idx[0]);
        // Each array's start of chunk 0 (the peel's trip).
        let bases: Vec<Ident> = (0..arrays.len()).map(|j| format_ident!("__acc_b{}_{}", n, j)).collect();
        // One chunk's trips one at a time, with the body's checked accesses.
        let single = quote! {
            let mut #k = __acc_peel + __acc_ch * #w;
            let __acc_end = #k + #w;
            while #k < __acc_end {
                #bind
                #body_code
                #k += 1;
            }
        };
        // A round's chunks in an array are `d` elements apart (`e + i` with `i` the step-1
        // loop's variable), every one aligned where the first one after the peel is. A start a
        // round an array (a start a chunk kept ptxas from keeping a round's loads in flight
        // within the 64 registers of a block of 1024 threads).
        let round_code = rounds.iter().map(|&r| {
            let firsts: Vec<Ident> = (0..arrays.len()).map(|j| format_ident!("__acc_s{}_{}", n, j)).collect();
            let last = r - 1;
            let mut loads = TokenStream::new();
            let mut trips = TokenStream::new();
            let mut stores = TokenStream::new();
            for c in 0..r {
                for (j, (a, s0)) in arrays.iter().zip(&firsts).enumerate() {
                    let slots: Vec<Ident> = (0..w).map(|u| slot(n, j, c * w + u)).collect();
                    let name = &a.name;
                    let st = quote!(#s0 + #c * __acc_d);
                    if a.read {
                        // SAFETY (device code): the round's chunks lie in the array (below
                        // `__acc_fit`) and are aligned (the peel).
                        loads.extend(quote!(let [#(mut #slots),*] = unsafe { #name.chunk_load::<#w>(#st) };));
                    } else {
                        loads.extend(quote!(#(let mut #slots;)*));
                    }
                    if a.written {
                        stores.extend(quote!(unsafe { #name.chunk_store::<#w>(#st, [#(#slots),*]) };));
                    }
                }
                for u in 0..w {
                    let t = trip_body(b, arrays, n, c * w + u);
                    let stmts = &t.stmts;
                    trips.extend(quote!({ let #k: usize = __acc_peel + (__acc_ch + #c * __acc_stride) * #w + #u; #bind #(#stmts)* }));
                }
            }
            quote! {
                let __acc_lim = __acc_fit.saturating_sub(#last * __acc_stride);
                while __acc_ch < __acc_lim {
                    let (#(#firsts,)*) = (#(#bases + __acc_ch * #w,)*);
                    #loads
                    #trips
                    #stores
                    __acc_ch += #r * __acc_stride;
                }
            }
        });
        quote! {{
            use ::acc_device::chunk::{Chunks as _, ChunksMut as _};
            let __acc_stride: usize = #stride;
            let __acc_t: usize = #start;
            // The first trip whose chunk is aligned for every array (none where the arrays'
            // chunks never align together, or where the loop is too short for a chunk in each
            // thread: a short row's lanes would go idle, with the peel's cost each time).
            let __acc_peel: usize = if #total >= #w * __acc_stride {
                let __acc_p: usize = { let #k: usize = 0; #bind #first.chunk_peel::<#w>(#first_idx) };
                if __acc_p < #w && __acc_p < #total {
                    let #k: usize = __acc_p;
                    #bind
                    if true #(&& #names.chunk_peel::<#w>(#idx) == 0)* { __acc_p } else { usize::MAX }
                } else {
                    usize::MAX
                }
            } else {
                usize::MAX
            };
            if __acc_peel != usize::MAX {
                let mut #k = __acc_t;
                while #k < __acc_peel {
                    #bind
                    #body_code
                    #k += __acc_stride;
                }
                let __acc_nch: usize = (#total - __acc_peel) / #w;
                let __acc_d: usize = __acc_stride * #w;
                let (#(#bases,)*) = { let #k: usize = __acc_peel; #bind (#(#idx,)*) };
                // The loop's whole chunks that lie in every array.
                let __acc_fit: usize = __acc_nch #(.min(#names.chunk_count::<#w>(#bases)))*;
                let mut __acc_ch: usize = __acc_t;
                #(#round_code)*
                // Chunks past an array's end: their trips' checked accesses report it.
                while __acc_ch < __acc_nch {
                    #single
                    __acc_ch += __acc_stride;
                }
                let mut #k = __acc_peel + __acc_nch * #w + __acc_t;
                while #k < #total {
                    #bind
                    #body_code
                    #k += __acc_stride;
                }
            } else {
                #plain
            }
        }}
    }
}

impl Loop<'_> {
    /// The chunked loop with chunks of 16 bytes: 4 trips where every array's elements are 4
    /// bytes or less, else 2 (a lane's chunk one 16-byte access, adjacent lanes' chunks
    /// adjacent: chunks of 4 `f64`s, two accesses 32 bytes apart a lane, ran a copy at 0.57 of
    /// nvcc's on an H100 where `vadd` kept 0.98). The element sizes are constants, so the
    /// test folds away. `rounds`: as for [`Loop::code`].
    pub fn code_16_bytes(&self, arrays: &[ChunkArray], b: &syn::Block, rounds: &[usize], plain: TokenStream) -> TokenStream {
        let names = arrays.iter().map(|a| &a.name);
        let four = self.code(arrays, b, rounds, plain.clone(), 4);
        let two = self.code(arrays, b, rounds, plain, 2);
        quote! {{
            use ::acc_device::chunk::Chunks as _;
            if true #(&& #names.chunk_elem_size() <= 4)* { #four } else { #two }
        }}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunked(body: &str, all: &[&str], mut_arrays: &[&str]) -> Option<Vec<(String, String, bool, bool)>> {
        let b: syn::Block = syn::parse_str(body).unwrap();
        let ids = |v: &[&str]| v.iter().map(|s| Ident::new(s, proc_macro2::Span::call_site())).collect::<Vec<_>>();
        let var = Ident::new("i", proc_macro2::Span::call_site());
        arrays(&b, &var, &ids(all), &ids(mut_arrays)).map(|v| v.into_iter().map(|a| (a.name.to_string(), a.index.to_token_stream().to_string(), a.read, a.written)).collect())
    }

    #[test]
    fn streaming_bodies_are_chunked_with_their_arrays_read_and_written_as_they_are() {
        assert_eq!(chunked("{ c[i] = a[i]; }", &["a", "c"], &["c"]), Some(vec![("c".into(), "i".into(), false, true), ("a".into(), "i".into(), true, false)]));
        assert_eq!(chunked("{ y[i] += alpha * x[i]; }", &["x", "y"], &["y"]), Some(vec![("y".into(), "i".into(), true, true), ("x".into(), "i".into(), true, false)]));
        let slab = chunked("{ t[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i]; }", &["a", "t"], &["t"]).unwrap();
        assert_eq!(slab[0].1, "(k * nj + j) * ni + i");
        // Assigned in a branch: the element is read first and stored back.
        let branch = chunked("{ if a[i] > 0.0 { c[i] = a[i]; } }", &["a", "c"], &["c"]).unwrap();
        assert!(branch.contains(&("c".into(), "i".into(), true, true)), "{branch:?}");
        // Two arrays at two offsets chunk apart.
        assert_eq!(chunked("{ c[i + 3] = a[i + 1]; }", &["a", "c"], &["c"]).map(|v| v.len()), Some(2));
    }

    #[test]
    fn loops_jumps_macros_and_names_the_body_changes_are_not_chunked() {
        assert!(chunked("{ for k in 0..3 { c[i] += a[k]; } }", &["a", "c"], &["c"]).is_none());
        assert!(chunked("{ if a[i] < 0.0 { continue; } c[i] = a[i]; }", &["a", "c"], &["c"]).is_none());
        assert!(chunked("{ c[i] = a[i]; acc::atomic!(n += 1); }", &["a", "c"], &["c"]).is_none());
        // An array that cannot chunk keeps the whole loop from chunking: `o` is assigned in the
        // body (no one start), `a` is read at two offsets, passed on whole, indexed by another
        // variable; a local array is indexed.
        assert!(chunked("{ let o = 3; c[i] = a[o + i]; }", &["a", "c"], &["c"]).is_none());
        assert!(chunked("{ c[i] = a[i] + a[i + 1]; }", &["a", "c"], &["c"]).is_none());
        assert!(chunked("{ c[i] = f(&a); }", &["a", "c"], &["c"]).is_none());
        assert!(chunked("{ c[i] = a[j]; }", &["a", "c"], &["c"]).is_none());
        assert!(chunked("{ let t = [1.0, 2.0]; c[i] = a[i] * t[1]; }", &["a", "c"], &["c"]).is_none());
        assert!(chunked("{ let i = 2; c[i] = a[i]; }", &["a", "c"], &["c"]).is_none());
    }
}
