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
//! A closure bound by `let` is followed into at each of its calls, its parameters over the
//! arguments' intervals (an index inside it is proved where it is at every call, and the
//! closure is passed nowhere). A routine's indices are proved the same way by
//! [`prove_routine`], for the intervals its caller passes: where all are and nothing else in
//! it panics, acc-build writes the routine's twin `__acc_inb_<name>` without checks, the
//! unchecked kernel calls the twin where the call names a routine of the region's module,
//! and the launch's check asks the routine's bounds (`__acc_rb(name, intervals)`, acc-build's
//! `$OUT_DIR/acc_bounds/<kernel>.rs`) for the arguments' intervals there.
//!
//! A field of a value parameter (`g.n`) is its value at the launch, and a method called on
//! one (`u[g.at(m, k, j, i)]`, the Rust form of a C code's index macro over a flat array) is
//! bounded by acc-build: where the method's body is one expression of its `usize` arguments,
//! the receiver's fields and literals, [`prove_index_method`] writes its interval arithmetic
//! into `$OUT_DIR/acc_bounds/methods/<region>__<param>__<method>.rs`, which the launch's check includes
//! with the arguments' intervals.
//!
//! Not proved (checked as before): indices inside closures passed on or not bound by `let`,
//! macros, `if let`/`while let` and `match` arms' bindings, those using a name the nest
//! assigns or borrows mutably, a `mut` local, a cast of anything but a name, a call, a field
//! of anything but a value parameter, a method of anything else or whose body is more than
//! such an expression, or an array element; the indices of generic routines, methods, and
//! routines of other modules.
//!
//! The unchecked kernel is the nest written again (`nest.rs`, `nest/emit.rs`) as `<name>_inb`,
//! each proved index `x[unsafe { acc_device::unchecked(e) }]`; an index `b + o` or `b - o` of a
//! plain name `b` becomes `unchecked_add(b, o)` / `unchecked_sub(b, o)` (`acc_device::UncheckedAt`:
//! the element's address is `&x[b]` moved by `o`, so a stencil's neighbours `u[c - s]` share one
//! base address). Its tokens get generated spans, so that acc-build's printer keeps the user's
//! lines for the checked kernel. A nest staging 2-D `cache!` tiles is proved too (`acc::cache!`
//! names no assignment, and the copies of a coarsened body, `i__acc2`, are the sites of the
//! body's indices). A nest with a lean kernel and no other reason to keep its checks (1-D
//! staging, private arrays, routine calls) gets the lean kernel a second time without them,
//! `<name>_lean_inb`, its loops in rounds of 2 single trips (`Scheduler::unrolled`;
//! [`checked_form`] matches the unchecked body as written); the launch names it as the lean
//! kernel where the bounds hold, and acc-runtime keeps the checked `_lean` where the twin holds
//! fewer blocks a multiprocessor. acc-build's `scan/twins.rs` adds `<name>_inbc` where it renamed
//! a nest's calls of routines to their twins.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, ToTokens};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{BinOp, Expr, ExprForLoop, Ident, Pat, RangeLimits};

use crate::front::loops::{place_root, strip_parens as strip};
use crate::paths;

/// An index of the nest: where its array's name starts, and the tokens of `x[e]`. (Two
/// indices share a site only where a `macro_rules!` expansion repeats tokens: see [`prove`].)
pub type Site = ((usize, usize), String);

/// The site of `x[e]`. The copies of a nest body that a thread runs for several rows of a tile
/// (`tiles::Coarse`, their names renamed `i__acc2`) are the sites of the body's index.
pub fn site(e: &syn::ExprIndex) -> Site {
    let start = e.expr.to_token_stream().into_iter().next().map_or(Span::call_site(), |t| t.span()).start();
    ((start.line, start.column), uncopied(e.to_token_stream()).to_string())
}

/// `ts` with each name of a body's copy (`tiles::copy_name`: `i__acc2`) the name it copies.
fn uncopied(ts: TokenStream) -> TokenStream {
    use proc_macro2::TokenTree;
    ts.into_iter()
        .map(|t| match t {
            TokenTree::Ident(i) => {
                let text = i.to_string();
                match text.rsplit_once("__acc") {
                    Some((name, q)) if !name.is_empty() && !q.is_empty() && q.bytes().all(|b| b.is_ascii_digit()) => TokenTree::Ident(match name.strip_prefix("r#") {
                        Some(raw) => Ident::new_raw(raw, i.span()),
                        None => Ident::new(name, i.span()),
                    }),
                    _ => TokenTree::Ident(i),
                }
            }
            TokenTree::Group(g) => {
                let mut n = proc_macro2::Group::new(g.delimiter(), uncopied(g.stream()));
                n.set_span(g.span());
                TokenTree::Group(n)
            }
            t => t,
        })
        .collect()
}

/// What [`prove`] found in a nest.
pub struct Proved {
    /// The indices whose bounds the launch checks.
    pub sites: HashSet<Site>,
    /// The nest's element indices (proved or not).
    pub total: usize,
    /// Whether the nest, its proved indices unchecked, can panic at none of its own tokens:
    /// every index proved, and no macro, integer division or remainder (by zero: a division
    /// with a float literal on a side is a float's), or method
    /// that panics at its caller (`unwrap`, `expect`, ..). (A routine's panics are located in
    /// the routine.) The unchecked kernel is made only then: the device crate's printer keeps
    /// the user's lines for one copy of a nest's tokens, the checked kernel's.
    pub panic_free: bool,
    /// Host code, the body of a closure returning `Option<(bool, bool)>`: first, whether every
    /// proved index is inside its array for the launch's values; second, whether the indices
    /// of the routines the nest calls ([`Proved::calls`]) are, asked of `__acc_rb(name,
    /// args)`, which the launch defines: acc-build's bounds of a routine's own indices for the
    /// arguments' intervals ([`prove_routine`]), `Some(true)` for a routine whose twin the
    /// unchecked kernel does not call.
    pub check: TokenStream,
    /// The routines the nest calls by a plain name (`lap13(u, c, n)`): the unchecked kernel
    /// calls their unchecked twins where acc-build made them.
    pub calls: Vec<String>,
}

/// The indices of nest `f` on `arrays` (the region's array parameters) that the host can
/// bound at the launch, or `None` when there are none.
pub fn prove(f: &ExprForLoop, arrays: &[Ident], receivers: &HashMap<String, String>) -> Option<Proved> {
    let mut p = Prover::new(arrays, assigned_names(|v| v.visit_expr_for_loop(f)), true);
    p.receivers = receivers.clone();
    p.visit_expr_for_loop(f);
    let mut all = Sites(Vec::new());
    all.visit_expr_for_loop(f);
    let mut calls = Calls::default();
    calls.visit_expr_for_loop(f);
    let (sites, checks, stmts) = p.finish(&all);
    // A routine called where the prover did not follow (a closure passed on, an `if let`'s
    // body): the unchecked kernel, which calls its twin everywhere, runs only where it has no
    // twin (its bounds without arguments: `None` for a twin's).
    let mut names: Vec<String> = p.calls.keys().cloned().collect();
    names.sort();
    let call_checks: Vec<TokenStream> = p.call_checks.iter().map(|(name, c)| if calls.0.get(name).copied() == p.calls.get(name).map(HashSet::len) { c.clone() } else { quote!(__acc_rb(#name, &[]) == ::core::option::Option::Some(true)) }).collect();
    if sites.is_empty() && names.is_empty() {
        return None;
    }
    let check = quote! {
        #(#stmts)*
        ::core::option::Option::Some((true #(&& #checks)*, true #(&& #call_checks)*))
    };
    let mut panics = Panics(false);
    panics.visit_expr_for_loop(f);
    let panic_free = sites.len() == all.0.len() && !panics.0;
    Some(Proved { sites, total: all.0.len(), check, panic_free, calls: names })
}

/// A routine whose every element index acc-build can bound from its arguments' intervals
/// (see [`prove_routine`]).
pub struct ProvedRoutine {
    /// The routine again, named `__acc_inb_<name>`, its indices unchecked (it has no panic
    /// site, so that its tokens' lines, the user's, name nothing).
    pub twin: TokenStream,
    /// Host code, a block of type `Option<bool>` with `args: &[Option<(usize, usize)>]` in
    /// scope (one per parameter: the interval of a `usize`, `(len, len)` of a slice, `None`
    /// where the caller cannot bound it): `Some(true)` where every index of the routine is
    /// inside its slice.
    pub check: TokenStream,
}

/// The bounds of a routine's indices for its callers' arguments, as [`prove`] finds a nest's:
/// `usize` parameters range over the intervals the caller gives, slices have the lengths it
/// gives, closures bound by `let` are followed into at each call. `None` unless every index is
/// bounded and nothing else in the routine panics at its tokens (a macro, integer division, a
/// method that panics at its caller), or where it is generic, `const`, a method or takes a
/// `mut` or pattern parameter.
pub fn prove_routine(f: &syn::ItemFn) -> Option<ProvedRoutine> {
    let sig = &f.sig;
    if sig.constness.is_some() || sig.asyncness.is_some() || sig.variadic.is_some() || sig.generics.params.iter().any(|g| !matches!(g, syn::GenericParam::Lifetime(_))) {
        return None;
    }
    let mut arrays = Vec::new();
    let mut params = Vec::new();
    for (k, arg) in sig.inputs.iter().enumerate() {
        let syn::FnArg::Typed(pt) = arg else { return None };
        let Pat::Ident(p) = &*pt.pat else { return None };
        if p.by_ref.is_some() || p.subpat.is_some() || p.mutability.is_some() {
            return None;
        }
        let given = quote!(args.get(#k).copied().flatten()?);
        match &*pt.ty {
            syn::Type::Reference(r) if matches!(&*r.elem, syn::Type::Slice(_)) => {
                arrays.push(p.ident.clone());
                params.push((p.ident.clone(), Bind::Opaque, Some(given)));
                continue;
            }
            syn::Type::Path(t) if t.path.is_ident("usize") => params.push((p.ident.clone(), Bind::Given(given), None)),
            _ => params.push((p.ident.clone(), Bind::Opaque, None)),
        }
    }
    // (A name an item inside declares would be an outside name to the prover, which the
    // launch's check cannot see.)
    let mut items = HasItem(false);
    items.visit_block(&f.block);
    if items.0 {
        return None;
    }
    let mut p = Prover::new(&arrays, assigned_names(|v| v.visit_block(&f.block)), false);
    let mut lens = Vec::new();
    for (name, bind, len) in params {
        // (The slices are the prover's arrays, not names it binds.)
        match len {
            Some(len) => lens.push(quote!(let #name = __AccLen(#len.1);)),
            None => p.bind(name.to_string(), bind),
        }
    }
    p.visit_block(&f.block);
    let mut all = Sites(Vec::new());
    all.visit_block(&f.block);
    let mut panics = Panics(false);
    panics.visit_block(&f.block);
    let (sites, checks, stmts) = p.finish(&all);
    if sites.len() != all.0.len() || panics.0 {
        return None;
    }
    let check = quote! {
        (|| -> ::core::option::Option<bool> {
            struct __AccLen(usize);
            // (A routine that never asks for a length leaves `len` unused.)
            #[allow(dead_code)]
            impl __AccLen {
                fn len(&self) -> usize {
                    self.0
                }
            }
            #(#lens)*
            #(#stmts)*
            ::core::option::Option::Some(true #(&& #checks)*)
        })()
    };
    let mut twin = f.clone();
    twin.sig.ident = format_ident!("__acc_inb_{}", sig.ident);
    twin.attrs.retain(|a| !crate::syntax::is_acc_path(a.path(), "routine") && !a.path().is_ident("doc"));
    Unchecked.visit_block_mut(&mut twin.block);
    Some(ProvedRoutine { twin: quote!(#[allow(dead_code)] #twin), check })
}

/// Whether a body declares an item.
struct HasItem(bool);

impl<'ast> Visit<'ast> for HasItem {
    fn visit_item(&mut self, _: &'ast syn::Item) {
        self.0 = true;
    }
}

/// Writes index `x[e]` as `x[unsafe { ::acc_device::unchecked(e) }]` (no bounds check); an
/// index `b + o` or `b - o` whose `b` is a plain name as `unchecked_add(b, o)` /
/// `unchecked_sub(b, o)`, the element's address `&x[b]` moved by `o` (`acc_device::UncheckedAt`:
/// a stencil's neighbours `u[c - s]`, `u[c + 2 * s]` of one flattened point share `&u[c]`).
/// `ACC_EXP_NOSPLITIX=1` writes them all `unchecked(e)`, for A/B runs on the GPU.
pub fn write_unchecked(e: &mut syn::ExprIndex) {
    let dev = paths::device();
    let i = &e.index;
    let split = match &**i {
        Expr::Binary(b) if matches!(&*b.left, Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some()) && std::env::var_os("ACC_EXP_NOSPLITIX").is_none() => match b.op {
            syn::BinOp::Add(_) => Some((quote::format_ident!("unchecked_add"), &b.left, &b.right)),
            syn::BinOp::Sub(_) => Some((quote::format_ident!("unchecked_sub"), &b.left, &b.right)),
            _ => None,
        },
        _ => None,
    };
    let index = match split {
        Some((f, l, r)) => syn::parse_quote!(unsafe { #dev::#f(#l, #r) }),
        None => syn::parse_quote!(unsafe { #dev::unchecked(#i) }),
    };
    *e.index = index;
}

/// `body` with each index [`write_unchecked`] wrote back as written (`x[e]`): the form whose
/// accesses the lowering matches (`chunk::arrays`), for a body of the unchecked kernel.
pub fn checked_form(body: &syn::Block) -> syn::Block {
    struct Checked;
    impl VisitMut for Checked {
        fn visit_expr_index_mut(&mut self, e: &mut syn::ExprIndex) {
            syn::visit_mut::visit_expr_index_mut(self, e);
            if let Expr::Unsafe(u) = &*e.index {
                if let [syn::Stmt::Expr(Expr::Call(c), None)] = u.block.stmts.as_slice() {
                    let name = match &*c.func {
                        Expr::Path(p) if p.path.segments.len() == 2 && p.path.segments[0].ident == "acc_device" => p.path.segments[1].ident.to_string(),
                        _ => String::new(),
                    };
                    let args: Vec<&Expr> = c.args.iter().collect();
                    match (name.as_str(), args.as_slice()) {
                        ("unchecked", [i]) => *e.index = (*i).clone(),
                        ("unchecked_add", [l, r]) => *e.index = syn::parse_quote!(#l + #r),
                        ("unchecked_sub", [l, r]) => *e.index = syn::parse_quote!(#l - #r),
                        _ => {}
                    }
                }
            }
        }
        fn visit_item_mut(&mut self, _: &mut syn::Item) {}
    }
    let mut b = body.clone();
    Checked.visit_block_mut(&mut b);
    b
}

/// Writes every element index `x[e]` (not a range) unchecked ([`write_unchecked`]).
struct Unchecked;

impl VisitMut for Unchecked {
    fn visit_expr_index_mut(&mut self, e: &mut syn::ExprIndex) {
        syn::visit_mut::visit_expr_index_mut(self, e);
        if !matches!(strip(&e.index), Expr::Range(_)) {
            write_unchecked(e);
        }
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// The calls of a plain name (`f(..)`, lowercase) in a nest, by name, closures and `if let`
/// bodies included.
#[derive(Default)]
struct Calls(HashMap<String, usize>);

impl<'ast> Visit<'ast> for Calls {
    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let Some(name) = plain_callee(c) {
            *self.0.entry(name).or_default() += 1;
        }
        syn::visit::visit_expr_call(self, c);
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// The name a call calls, where it is one lowercase identifier (a fn or a closure, not a
/// tuple struct or variant).
fn plain_callee(c: &syn::ExprCall) -> Option<String> {
    let Expr::Path(p) = strip(&c.func) else { return None };
    let id = p.path.get_ident().filter(|_| p.qself.is_none())?;
    let name = syn::ext::IdentExt::unraw(id).to_string();
    name.starts_with(|ch: char| ch.is_lowercase() || ch == '_').then_some(name)
}

/// Whether a nest holds a panic site other than its indices (see [`Proved::panic_free`]).
struct Panics(bool);

impl<'ast> Visit<'ast> for Panics {
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.0 |= !crate::syntax::is_acc_path(&m.path, "cache");
    }
    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        // A float literal on either side makes it a float's division (no panic).
        let float = |e: &Expr| match strip(e) {
            Expr::Lit(syn::ExprLit { lit: syn::Lit::Float(_), .. }) => true,
            Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => matches!(strip(expr), Expr::Lit(syn::ExprLit { lit: syn::Lit::Float(_), .. })),
            _ => false,
        };
        let divides = matches!(b.op, BinOp::Div(_) | BinOp::Rem(_) | BinOp::DivAssign(_) | BinOp::RemAssign(_));
        self.0 |= divides && !float(&b.left) && !float(&b.right);
        syn::visit::visit_expr_binary(self, b);
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
    Var { lo: Box<Expr>, hi: Box<Expr>, inclusive: bool },
    /// A `let` without `mut`, with its initialiser.
    Let(Expr),
    /// A routine's `usize` parameter: host code giving its interval (`(lo, hi)`).
    Given(TokenStream),
    /// A closure bound by `let`: followed into at each call ([`Prover::call`]).
    Closure(syn::ExprClosure),
    /// A closure's parameter at one call: the host variable of the argument's interval.
    Arg(Option<Ident>),
    /// Anything else (a `mut` local, a pattern's names).
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
    /// Indices not proved at some visit (a closure's, at one of its calls).
    failed: HashSet<Site>,
    /// The closures (their bindings) used other than by a call: their indices stay checked.
    escaped: HashSet<usize>,
    /// Whether calls of routines are followed (a nest's; a routine's are not: its twin calls
    /// the routines it calls, checks and all).
    follow_routines: bool,
    /// The routine calls followed (where their callees start), by name, and each one's check.
    calls: HashMap<String, HashSet<(usize, usize)>>,
    call_checks: Vec<(String, TokenStream)>,
    /// The region's value parameters that index methods and fields may be read from, by name:
    /// the stem of acc-build's files of their methods' bounds (`<region>__<param>`, see
    /// [`method_file`]).
    receivers: HashMap<String, String>,
    /// Proving an index method's body ([`prove_index_method`]): `self` is the host's
    /// `__acc_r`, and no other name from outside is visible.
    method_body: bool,
    temps: usize,
}

impl<'a> Prover<'a> {
    fn new(arrays: &'a [Ident], assigned: HashSet<String>, follow_routines: bool) -> Self {
        Prover {
            arrays,
            env: Vec::new(),
            binds: Vec::new(),
            assigned,
            stmts: Vec::new(),
            cache: HashMap::new(),
            log: Vec::new(),
            checks: Vec::new(),
            sites: HashSet::new(),
            failed: HashSet::new(),
            escaped: HashSet::new(),
            follow_routines,
            calls: HashMap::new(),
            call_checks: Vec::new(),
            receivers: HashMap::new(),
            method_body: false,
            temps: 0,
        }
    }

    /// The indices proved (of those in `all`), their checks and the host's statements.
    /// Sites repeated by a macro expansion may stand for indices in other scopes: none of
    /// them is kept, nor an index inside a closure passed on or not proved at one of its calls.
    fn finish(&mut self, all: &Sites) -> (HashSet<Site>, Vec<TokenStream>, Vec<TokenStream>) {
        let mut count: HashMap<&Site, usize> = HashMap::new();
        for s in &all.0 {
            *count.entry(s).or_default() += 1;
        }
        for &b in &self.escaped {
            if let (Bind::Closure(c), _) = &self.binds[b] {
                let mut inside = Sites(Vec::new());
                inside.visit_expr_closure(c);
                self.failed.extend(inside.0);
            }
        }
        let mut sites = std::mem::take(&mut self.sites);
        sites.retain(|s| count.get(s) == Some(&1) && !self.failed.contains(s));
        // The checks of the sites kept (a repeated site's bound costs nothing but is not needed).
        let checks = std::mem::take(&mut self.checks).into_iter().filter(|(s, _)| sites.contains(s)).map(|(_, c)| c).collect();
        (sites, checks, std::mem::take(&mut self.stmts))
    }

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
                    _ => self.method_call(m, visible),
                }
            }
            Expr::Field(fe) => self.field(fe, visible),
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
        if self.method_body || !self.outside(id) {
            return None;
        }
        let rt = paths::runtime();
        // (A name of another type, a routine's `f64` argument, has no interval.)
        Some(self.point(quote!({
            use #rt::{OtherLeaf as _, UsizeLeaf as _};
            (&#rt::IndexLeaf(&#id)).leaf()?
        })))
    }

    /// The interval of binding `b` (computed once).
    fn binding(&mut self, b: usize) -> Option<Ident> {
        if let Some(c) = self.cache.get(&b) {
            return c.clone();
        }
        let visible = self.binds[b].1;
        let r = match &self.binds[b].0 {
            Bind::Opaque | Bind::Closure(_) => None,
            Bind::Arg(a) => a.clone(),
            Bind::Given(g) => {
                let g = g.clone();
                Some(self.emit(quote!(#g.0), quote!(#g.1)))
            }
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

    /// The state [`Prover::undo`] goes back to.
    fn mark(&self) -> (usize, usize, usize) {
        (self.stmts.len(), self.log.len(), self.temps)
    }

    /// Drops the statements and cached intervals made since `mark`.
    fn undo(&mut self, (stmts, log, temps): (usize, usize, usize)) {
        self.stmts.truncate(stmts);
        for b in self.log.drain(log..) {
            self.cache.remove(&b);
        }
        self.temps = temps;
    }

    /// The interval of `e` in the current scope, or nothing (its statements undone).
    fn try_interval(&mut self, e: &Expr) -> Option<Ident> {
        let mark = self.mark();
        let r = self.interval(e, self.env.len());
        if r.is_none() {
            self.undo(mark);
        }
        r
    }

    /// Proves `x[e]` where it can; the statements of a failed attempt are undone.
    fn index(&mut self, e: &syn::ExprIndex) {
        let Expr::Path(p) = strip(&e.expr) else { return };
        let Some(x) = p.path.get_ident() else { return };
        if !self.arrays.contains(x) || self.lookup(&x.to_string(), self.env.len()).is_some() {
            return;
        }
        match self.try_interval(&e.index) {
            Some(b) => {
                let s = site(e);
                self.checks.push((s.clone(), quote!(#b.1 < #x.len())));
                self.sites.insert(s);
            }
            None => {
                self.failed.insert(site(e));
            }
        }
    }

    /// A call of a closure bound by `let` (its body is proved with its parameters ranging over
    /// the arguments' intervals), or of a routine by its plain name (the launch asks acc-build's
    /// bounds of the routine for the arguments' intervals).
    fn call(&mut self, c: &syn::ExprCall) -> bool {
        let Some(name) = plain_callee(c) else { return false };
        // (Decided before the arguments are visited: a call not followed is visited whole by
        // the caller.)
        let closure = match self.lookup(&name, self.env.len()) {
            Some(b) => match &self.binds[b] {
                (Bind::Closure(closure), visible) => Some((closure.clone(), *visible)),
                _ => return false,
            },
            None if self.follow_routines => None,
            None => return false,
        };
        for a in &c.args {
            self.visit_expr(a);
        }
        match closure {
            Some((closure, visible)) => {
                let args: Vec<Option<Ident>> = c.args.iter().map(|a| self.try_interval(a)).collect();
                // The body sees the names of the closure's scope and its parameters.
                let env = std::mem::take(&mut self.env);
                self.env = env[..visible].to_vec();
                for (k, input) in closure.inputs.iter().enumerate() {
                    let pat = match input {
                        Pat::Type(t) => &*t.pat,
                        p => p,
                    };
                    match pat {
                        Pat::Ident(p) if p.mutability.is_none() && p.by_ref.is_none() && p.subpat.is_none() => {
                            self.bind(p.ident.to_string(), Bind::Arg(args.get(k).cloned().flatten()));
                        }
                        p => self.opaque_pattern(p),
                    }
                }
                self.visit_expr(&closure.body);
                self.env = env;
                true
            }
            None => {
                let args: Vec<TokenStream> = c
                    .args
                    .iter()
                    .map(|a| {
                        let array = match strip(a) {
                            Expr::Path(p) => p.path.get_ident().filter(|x| self.arrays.contains(x) && self.lookup(&x.to_string(), self.env.len()).is_none()).cloned(),
                            _ => None,
                        };
                        match array {
                            Some(x) => quote!(::core::option::Option::Some((#x.len(), #x.len()))),
                            None => match self.try_interval(a) {
                                Some(b) => quote!(::core::option::Option::Some(#b)),
                                None => quote!(::core::option::Option::None),
                            },
                        }
                    })
                    .collect();
                let at = c.func.to_token_stream().into_iter().next().map_or(Span::call_site(), |t| t.span()).start();
                self.calls.entry(name.clone()).or_default().insert((at.line, at.column));
                self.call_checks.push((name.clone(), quote!(__acc_rb(#name, &[#(#args),*]) == ::core::option::Option::Some(true))));
                true
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
            (Pat::Ident(p), Some(init)) if p.mutability.is_none() && p.by_ref.is_none() && p.subpat.is_none() && init.diverge.is_none() && matches!(strip(&init.expr), Expr::Closure(_)) && !self.assigned.contains(&p.ident.to_string()) => {
                let Expr::Closure(c) = strip(&init.expr) else { unreachable!() };
                self.bind(p.ident.to_string(), Bind::Closure(c.clone()));
            }
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
            Some((var, lo, hi, inclusive)) => self.bind(var.to_string(), Bind::Var { lo: Box::new(lo), hi: Box::new(hi), inclusive }),
            None => self.opaque_pattern(&f.pat),
        }
        self.visit_block(&f.body);
        self.env.truncate(depth);
    }
    fn visit_expr_index(&mut self, e: &'ast syn::ExprIndex) {
        self.index(e);
        syn::visit::visit_expr_index(self, e);
    }
    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if !self.call(c) {
            syn::visit::visit_expr_call(self, c);
        }
    }
    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        // A closure named other than as a callee is passed on: its indices stay checked.
        if let Some(id) = p.path.get_ident() {
            if let Some(b) = self.lookup(&id.to_string(), self.env.len()) {
                if matches!(self.binds[b].0, Bind::Closure(_)) {
                    self.escaped.insert(b);
                }
            }
        }
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
/// the receiver of a method other than `len`, `min`, `max`, or named in a macro's tokens
/// (but `acc::cache!`'s).
fn assigned_names(walk: impl FnOnce(&mut Assigned)) -> HashSet<String> {
    let mut v = Assigned(HashSet::new());
    walk(&mut v);
    v.0
}

/// The names [`assigned_names`] finds.
struct Assigned(HashSet<String>);

impl Assigned {
    fn root(e: &Expr) -> Option<String> {
        match strip(e) {
            Expr::Unary(u) => Self::root(&u.expr),
            e => place_root(e).map(|(id, _)| id.to_string()),
        }
    }

    fn idents(ts: TokenStream, out: &mut HashSet<String>) {
        for t in ts {
            match t {
                proc_macro2::TokenTree::Ident(i) => {
                    out.insert(i.to_string());
                }
                proc_macro2::TokenTree::Group(g) => Self::idents(g.stream(), out),
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Assigned {
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.0.extend(Self::root(&a.left));
        syn::visit::visit_expr_assign(self, a);
    }
    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if crate::front::loops::is_compound_assign(&b.op) {
            self.0.extend(Self::root(&b.left));
        }
        syn::visit::visit_expr_binary(self, b);
    }
    fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
        if r.mutability.is_some() {
            self.0.extend(Self::root(&r.expr));
        }
        syn::visit::visit_expr_reference(self, r);
    }
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if !matches!(m.method.to_string().as_str(), "len" | "min" | "max") {
            self.0.extend(Self::root(&m.receiver));
        }
        syn::visit::visit_expr_method_call(self, m);
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // (`acc::cache!` only names its windows.)
        if !crate::syntax::is_acc_path(&m.path, "cache") {
            Self::idents(m.tokens.clone(), &mut self.0);
        }
    }
}

mod method;
pub use method::{method_file, prove_index_method};

#[cfg(test)]
mod tests;
