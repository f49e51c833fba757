//! Lowering of compute regions for the GPU: each top-level loop nest of a region becomes one
//! kernel of the device crate (written by `acc-build`), and the region fn gets a GPU path that
//! evaluates the code around the nests on the host and launches the kernels.
//!
//! Kernel ABI, in order: the region's parameters (`&[T]` -> `ReadOnlyPtr<T>, usize`;
//! `&mut [T]` and `DeviceSlice`s -> pointer, `usize`; values by value), then `Captures` (the
//! locals the nest uses, packed), then the reduction partials buffer (`*mut u8`, one 16-byte
//! entry per block and reduction variable), then the cells of the outer scalars the nest
//! updates with `atomic!` (`*mut u8`, 16 bytes each). Each nest's kernel is planned, then
//! written, by [`crate::lower::nest`]: its loops get the schedule of
//! [`crate::lower::schedule`] (gang / worker / vector over blocks, `threadIdx.y`, `threadIdx.x`); a
//! nest that must run in order (`serial`, `seq`, a `kernels` loop not proved independent) runs
//! in one thread.
//!
//! The walk of the region body (`Lowering`) makes one kernel per acc loop nest, one-thread
//! kernels for the statements and values between nests that use arrays, and keeps the host's
//! `if`/`while`/`for` around nests as host control. Beside each launch it writes the kernel's
//! code as host code in a closure never called (`host_typing`), so that the locals the kernel
//! shares with the host path get the types the host backend's expansion gives them.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Expr, ExprForLoop, Ident, Stmt};

use crate::front::directives::LoopDirectives;
use crate::front::loops;
use crate::front::model::*;
use crate::front::region::{Form, Param, ParamKind};
use crate::info::{self, KernelReport, Notes};
use crate::lower::device_body::flat_tokens;
use crate::lower::nest::{self, Let, NestSource};
use crate::lower::schedule;
use crate::report::Errors;
use crate::syntax::{self, is_acc_path};

/// One kernel of a region.
pub struct Kernel {
    /// PTX entry name.
    pub name: String,
    /// The `extern "ptx-kernel"` fn of the device crate.
    pub device_fn: TokenStream,
}

/// The GPU lowering of one region fn.
pub struct GpuRegion {
    pub kernels: Vec<Kernel>,
    /// The statements of the region fn's GPU path (host code around the launches).
    pub host_path: TokenStream,
    /// info: what the region's host code does around the kernels (schedule report).
    pub notes: Notes,
    /// info: what each kernel runs and how (schedule report), in the order of `kernels`.
    pub reports: Vec<KernelReport>,
}

/// Lowers `form` (its fn, parameters and loop table; already checked: both callers run
/// `front_end`) for the GPU, or says why it cannot be.
///
/// The region body becomes host code that drives launches (DESIGN §4.7: nothing on the GPU
/// path reads or writes the host's copy of the region's arrays):
/// - each acc loop nest is a kernel;
/// - a statement outside the nests that uses an array runs on the device, as a one-thread
///   kernel; a `let` (or the region's value) that reads an array gets its value from such a
///   kernel;
/// - `if`, `while`, `loop`, blocks and sequential `for` loops that hold acc loops stay on the
///   host and drive the launches inside them (NVHPC's time loop around `kernels`), their
///   conditions computed on the device when they read arrays;
/// - items declared in the body (`const`, `use`, `fn`, ...) are declared in every kernel too.
pub fn gpu_region(kind: RegionKind, dir: &RegionDirective, form: &Form, kernel_base: &str) -> Result<GpuRegion, Errors> {
    let (f, params) = (&form.f, &form.params[..]);
    let mut lw = Lowering {
        kind,
        loops: &form.loops,
        dir,
        params,
        base: kernel_base,
        region_reds: dir.clauses.reductions().map(|r| (r.op, r.var.clone())).collect(),
        lets: Vec::new(),
        items: Vec::new(),
        kernels: Vec::new(),
        temps: 0,
        errors: Errors::default(),
        notes: Notes::default(),
        reports: Vec::new(),
        host_depth: 0,
    };
    for id in dir.clauses.private.iter().chain(&dir.clauses.firstprivate) {
        if params.iter().any(|p| &p.ident == id && matches!(p.kind, ParamKind::DeviceSlice | ParamKind::DeviceSliceMut)) {
            lw.errors.error(id.span(), "a `DeviceSlice` cannot be region-level `private`/`firstprivate` on the GPU: pass a `&mut [T]` (each gang gets a copy of it)");
        }
    }
    // Items first: a kernel may use an item declared after its nest, as Rust allows.
    lw.items = f.block.stmts.iter().filter_map(|s| match s {
        Stmt::Item(i) => Some(device_item(i)),
        _ => None,
    }).collect();
    let host = lw.block(&f.block.stmts, true);
    if lw.errors.is_empty() {
        Ok(GpuRegion { kernels: lw.kernels, host_path: host, notes: lw.notes, reports: lw.reports })
    } else {
        Err(lw.errors)
    }
}

/// An item of the region body as the device crate declares it: `use std::..` paths read
/// `core::..` there (the device crate is `no_std`).
fn device_item(item: &syn::Item) -> syn::Item {
    let mut item = item.clone();
    if let syn::Item::Use(u) = &mut item {
        if let syn::UseTree::Path(p) = &mut u.tree {
            if p.ident == "std" {
                p.ident = Ident::new("core", p.ident.span());
            }
        }
    }
    item
}

/// The walk of a region body for the GPU path (see [`gpu_region`]).
struct Lowering<'a> {
    kind: RegionKind,
    /// The body's loop directives and parallel decisions (the form's).
    loops: &'a LoopDirectives,
    dir: &'a RegionDirective,
    params: &'a [Param],
    base: &'a str,
    region_reds: Vec<(RedOp, Ident)>,
    /// The locals in scope at the current point, innermost last.
    lets: Vec<Let>,
    /// The body's items, declared in every kernel.
    items: Vec<syn::Item>,
    kernels: Vec<Kernel>,
    /// Names of the host path's temporaries (device-computed conditions and values).
    temps: usize,
    errors: Errors,
    /// info: the region's notes (host control around kernels) and each kernel's report.
    notes: Notes,
    reports: Vec<KernelReport>,
    /// info: how many host loops/branches around acc loops enclose the current point.
    host_depth: usize,
}

impl Lowering<'_> {
    /// The host code of `stmts`; `tail`: the last statement may be the block's value.
    fn block(&mut self, stmts: &[Stmt], tail: bool) -> TokenStream {
        let scope = self.lets.len();
        let mut host = TokenStream::new();
        for (i, stmt) in stmts.iter().enumerate() {
            let last = tail && i + 1 == stmts.len();
            host.extend(self.stmt(stmt, last));
        }
        self.lets.truncate(scope);
        host
    }

    fn stmt(&mut self, stmt: &Stmt, last: bool) -> TokenStream {
        match stmt {
            // Items of a fn body are visible in all of it: the host path (a block of the same
            // fn) sees the user's, and each kernel declares those it uses.
            Stmt::Item(_) => TokenStream::new(),
            Stmt::Local(l) => self.local(l),
            Stmt::Expr(Expr::ForLoop(fl), _) if self.is_nest(fl) => self.nest(fl),
            Stmt::Expr(e, semi) if self.holds_nest(e) => {
                let code = self.control(e);
                quote!(#code #semi)
            }
            Stmt::Expr(e, None) if last && self.uses_arrays(stmt) => {
                // The region's value, computed on the device.
                let v = self.temp("value");
                let pat: syn::Pat = syn::parse_quote!(#v);
                let code = self.device_values(&pat, e, e.span());
                quote!(#code #v)
            }
            _ if self.uses_arrays(stmt) => {
                let j = schedule::jumps(std::slice::from_ref(stmt));
                if let Some(span) = j.loop_exit.or(j.fn_exit) {
                    self.errors.error(span, "on the GPU, this statement runs on the device (it uses an array), so it cannot `break`, `continue` or `return` the host's loop or fn: compute the condition in a `let`, then jump");
                    return TokenStream::new();
                }
                self.once(stmt)
            }
            _ => quote!(#stmt),
        }
    }

    /// A `let`: on the host, unless its initialiser reads an array (then on the device).
    fn local(&mut self, l: &syn::Local) -> TokenStream {
        let init = l.init.as_ref().map(|i| &*i.expr);
        if let Some(e) = init.filter(|e| self.holds_nest(e)) {
            self.errors.error(e.span(), "on the GPU, acc loops stand as statements of the region body or of the `if`/`while`/`for` blocks around them, not inside a `let`");
            return TokenStream::new();
        }
        // A closure is built where it is bound, reading nothing: the host binds it, and each
        // kernel that calls it builds it again (`nest.rs`'s replayed closures).
        let closure = matches!(init.map(loops::strip_parens), Some(Expr::Closure(_)));
        let on_device = !closure && self.uses_arrays(&Stmt::Local(l.clone()));
        if l.init.as_ref().is_some_and(|i| i.diverge.is_some()) && on_device {
            self.errors.error(l.span(), "on the GPU, a `let .. else` that reads an array is not supported: compute the value in a `let`, then match it");
            return TokenStream::new();
        }
        match init {
            Some(e) if on_device => self.device_values(&l.pat, e, l.span()),
            _ => {
                self.bind_let(l);
                quote!(#l)
            }
        }
    }

    /// Records the names a host `let` binds, with what tells their type to a kernel.
    fn bind_let(&mut self, l: &syn::Local) {
        let (name, ty) = match &l.pat {
            syn::Pat::Ident(p) => (Some(p.ident.clone()), None),
            syn::Pat::Type(t) => match &*t.pat {
                syn::Pat::Ident(p) => (Some(p.ident.clone()), Some((*t.ty).clone())),
                _ => (None, None),
            },
            _ => (None, None),
        };
        match name {
            Some(name) => self.lets.push(Let { name, init: l.init.as_ref().map(|i| (*i.expr).clone()), ty }),
            None => {
                let mut names = Vec::new();
                syntax::pat_idents(&l.pat, &mut names);
                for n in names {
                    // The pattern's value tells the type of each name it binds.
                    let id = Ident::new(&n, l.pat.span());
                    let init = l.init.as_ref().map(|i| {
                        let (pat, e) = (&l.pat, &i.expr);
                        syn::parse_quote!({ #[allow(unused_variables)] let #pat = #e; #id })
                    });
                    self.lets.push(Let { name: id, init, ty: None });
                }
            }
        }
    }

    /// `let pat = e;` computed by a one-thread kernel: its names come back to the host.
    fn device_values(&mut self, pat: &syn::Pat, e: &Expr, span: Span) -> TokenStream {
        let mut names = Vec::new();
        syntax::pat_idents(pat, &mut names);
        let names: Vec<Ident> = names.iter().map(|n| Ident::new(n, pat.span())).collect();
        let local: Stmt = syn::parse_quote_spanned!(span=> #[allow(unused_mut, unused_variables)] let #pat = #e;);
        let outputs: Vec<Let> = names
            .iter()
            .map(|n| Let { name: n.clone(), init: Some(syn::parse_quote!({ #[allow(unused_mut, unused_variables)] let #pat = #e; #n })), ty: None })
            .collect();
        let code = self.once_with(&local, &outputs);
        self.lets.extend(outputs);
        code
    }

    /// A statement run once, on the device.
    fn once(&mut self, stmt: &Stmt) -> TokenStream {
        self.once_with(stmt, &[])
    }

    /// A statement run once, on the device, whose `outputs` come back to the host.
    fn once_with(&mut self, stmt: &Stmt, outputs: &[Let]) -> TokenStream {
        let once: ExprForLoop = syn::parse_quote_spanned!(stmt.span()=> for _ in 0..1usize { #stmt });
        // info: code outside the loops that uses an array runs on the device, in one thread.
        let line = info::line_of(stmt.span());
        let what = if outputs.is_empty() {
            format!("one thread runs the statement at line {line} (it uses an array; nothing runs on the host's copy)")
        } else {
            let names: Vec<String> = outputs.iter().map(|o| format!("`{}`", o.name)).filter(|n| !n.starts_with("`__acc_")).collect();
            if names.is_empty() {
                format!("one thread computes the value at line {line} (it reads an array); the value comes back to the host")
            } else {
                format!("one thread computes {} at line {line} (it reads an array); the value comes back to the host", names.join(", "))
            }
        };
        self.kernel(RegionKind::Serial, &once, outputs, what, true)
    }

    fn nest(&mut self, fl: &ExprForLoop) -> TokenStream {
        let what = format!("the loop nest at line {}", info::loop_line(fl));
        self.kernel(self.kind, fl, &[], what, false)
    }

    /// The next kernel of the region, from the nest `fl`; its launch. `what`: the report's
    /// words for what it runs; `once`: `fl` is acc's loop of one trip around a statement.
    fn kernel(&mut self, kind: RegionKind, fl: &ExprForLoop, outputs: &[Let], what: String, once: bool) -> TokenStream {
        let name = format!("{}_{}", self.base, self.kernels.len());
        let mut notes = Notes::default();
        let src = NestSource { kind, loops: self.loops, dir: self.dir, f: fl, params: self.params, lets: &self.lets, region_reds: &self.region_reds, items: &self.items, outputs, name: &name, once };
        match nest::kernel(&src, &mut self.errors, &mut notes) {
            Some((kernel, launch)) => {
                // info: the kernel, where the host launches it.
                if self.host_depth > 0 {
                    notes.0.insert(0, info::Note { line: info::loop_line(fl), depth: 0, text: "launched on every trip or branch of the host code around it (see above)".into() });
                }
                self.reports.push(KernelReport { name: name.clone(), line: info::loop_line(fl), what, notes });
                self.kernels.push(Kernel { name, device_fn: kernel });
                let typing = self.host_typing(fl);
                quote!(#typing #launch)
            }
            None => TokenStream::new(),
        }
    }

    /// The code a kernel runs, as host code that is never run: a closure never called, so
    /// that the host path types the locals the kernel shares with it (a reduction's `let mut
    /// s = 0.0`, a value computed on the device) from the same uses the host backend's
    /// expansion types them from. Without it a local whose type only the loop body fixes is
    /// ambiguous here (`s.sqrt()` after the loop) where the host build accepts it. `deviceptr`
    /// arrays are typed as their host slices. (The user's spans: an error in the body is the
    /// host path's too, reported once.)
    fn host_typing(&self, fl: &ExprForLoop) -> TokenStream {
        let mut block: syn::Block = syn::parse_quote!({ #fl });
        syntax::strip_helpers_block(&mut block);
        let rebinds = self.params.iter().filter_map(|p| {
            let id = &p.ident;
            match p.kind {
                ParamKind::DeviceSlice => Some(quote!(let #id = #id.host_slice();)),
                ParamKind::DeviceSliceMut => Some(quote!(let #id = #id.host_slice_mut();)),
                _ => None,
            }
        });
        let stmts = &block.stmts;
        quote! {
            #[allow(unused, unreachable_code, clippy::all)]
            let _ = || {
                #(#rebinds)*
                #(#stmts)*
            };
        }
    }

    /// info: a host loop or branch around acc loops, and what it does.
    fn note_host(&mut self, span: Span, text: String) {
        self.notes.add(span, self.host_depth, text);
    }

    /// Host control flow around acc loops: it stays on the host and drives their launches.
    fn control(&mut self, e: &Expr) -> TokenStream {
        match e {
            Expr::ForLoop(fl) => {
                let (label, pat, expr) = (&fl.label, &fl.pat, &fl.expr);
                // info: why a loop around acc loops stays on the host.
                let why = match (self.kind, loops::LoopHeader::parse(fl)) {
                    (RegionKind::Kernels, Ok(_)) if !has_loop_attr(fl) => self.loops.dependence(fl).cloned()
                        .map(|(span, msg)| format!("it is not proved independent: {msg} (line {})", info::line_of(span))),
                    _ => None,
                };
                let text = match why {
                    Some(why) => format!("`for` over `{}` runs in order on the host ({why}); each trip launches the kernels inside", quote!(#pat)),
                    None => format!("`for` over `{}` runs on the host; each trip launches the kernels inside", quote!(#pat)),
                };
                self.notes.at(info::loop_line(fl), self.host_depth, text);
                if self.mentions_array(expr) {
                    self.errors.error(expr.span(), "on the GPU, the range of a loop around acc loops is computed on the host, so it cannot read an array: compute it in a `let` first");
                    return TokenStream::new();
                }
                let scope = self.lets.len();
                // The loop variable, for the kernels inside: its type is the iterator's item.
                let mut names = Vec::new();
                syntax::pat_idents(pat, &mut names);
                if let (syn::Pat::Ident(p), [_]) = (&**pat, names.as_slice()) {
                    let init = syn::parse_quote!(::core::iter::Iterator::next(&mut ::core::iter::IntoIterator::into_iter(#expr)).unwrap());
                    self.lets.push(Let { name: p.ident.clone(), init: Some(init), ty: None });
                } else {
                    for n in names {
                        self.lets.push(Let { name: Ident::new(&n, pat.span()), init: None, ty: None });
                    }
                }
                self.host_depth += 1;
                let body = self.block(&fl.body.stmts, false);
                self.host_depth -= 1;
                self.lets.truncate(scope);
                quote!(#label for #pat in #expr { #body })
            }
            Expr::While(w) => {
                let cond = &w.cond;
                // info: a host loop around acc loops.
                let on_device = if self.mentions_array(cond) { " (its condition computed by a one-thread kernel before each trip)" } else { "" };
                self.note_host(w.span(), format!("`while` runs on the host{on_device}; each trip launches the kernels inside"));
                self.host_depth += 1;
                let code = self.while_loop(w);
                self.host_depth -= 1;
                code
            }
            Expr::Loop(l) => {
                // info: a host loop around acc loops.
                self.note_host(l.span(), "`loop` runs on the host; each trip launches the kernels inside".into());
                self.host_depth += 1;
                let label = &l.label;
                let body = self.block(&l.body.stmts, false);
                self.host_depth -= 1;
                quote!(#label loop { #body })
            }
            Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                let body = self.block(&b.block.stmts, false);
                quote!({ #body })
            }
            Expr::If(i) => {
                // info: a host branch around acc loops.
                let on_device = if matches!(&*i.cond, Expr::Let(l) if self.mentions_array(&l.expr)) || self.mentions_array(&i.cond) { " (its condition computed by a one-thread kernel)" } else { "" };
                self.note_host(i.span(), format!("`if` runs on the host{on_device} and launches the kernels of the branch it takes"));
                self.host_depth += 1;
                let code = self.if_expr(i);
                self.host_depth -= 1;
                code
            }
            other => {
                self.errors.error(other.span(), "on the GPU, acc loops stand as statements of the region body or of `if`/`while`/`loop`/`for` blocks: this expression form around them is not supported");
                TokenStream::new()
            }
        }
    }

    /// A `while` around acc loops (see [`Self::control`]).
    fn while_loop(&mut self, w: &syn::ExprWhile) -> TokenStream {
        let label = &w.label;
        let cond = &w.cond;
        if let Expr::Let(l) = &**cond {
            // `loop { if let pat = e { body } else { break } }`, the scrutinee
            // computed on the device before each trip when it reads an array.
            let scope = self.lets.len();
            let (test, scrut) = self.scrutinee(&l.expr);
            let pat = &l.pat;
            self.bind_pattern(pat, &scrut);
            let body = self.block(&w.body.stmts, false);
            self.lets.truncate(scope);
            return quote!(#label loop { #test if let #pat = #scrut { #body } else { break; } });
        }
        if self.mentions_array(cond) {
            // Computed on the device before each trip.
            let (test, c) = self.device_cond(cond);
            let body = self.block(&w.body.stmts, false);
            quote!(#label loop { #test if !#c { break; } #body })
        } else {
            let body = self.block(&w.body.stmts, false);
            quote!(#label while #cond { #body })
        }
    }

    /// An `if` around acc loops (see [`Self::control`]).
    fn if_expr(&mut self, i: &syn::ExprIf) -> TokenStream {
        let scope = self.lets.len();
        let (test, cond) = if let Expr::Let(l) = &*i.cond {
            // The names the pattern binds are host values the kernels inside capture.
            let (test, scrut) = self.scrutinee(&l.expr);
            let pat = &l.pat;
            self.bind_pattern(pat, &scrut);
            (test, quote!(let #pat = #scrut))
        } else if self.mentions_array(&i.cond) {
            let (test, c) = self.device_cond(&i.cond);
            (test, quote!(#c))
        } else {
            let c = &i.cond;
            (TokenStream::new(), quote!(#c))
        };
        let then = self.block(&i.then_branch.stmts, false);
        self.lets.truncate(scope);
        let otherwise = match i.else_branch.as_ref().map(|(_, e)| &**e) {
            Some(Expr::Block(b)) => {
                let b = self.block(&b.block.stmts, false);
                quote!(else { #b })
            }
            // `else if ..`: a statement of its own.
            Some(other) => {
                let code = self.stmt(&Stmt::Expr(other.clone(), None), false);
                quote!(else { #code })
            }
            None => TokenStream::new(),
        };
        quote!({ #test if #cond { #then } #otherwise })
    }

    /// A condition read from arrays, computed on the device: the statements that compute it
    /// and the host's name for it.
    fn device_cond(&mut self, cond: &Expr) -> (TokenStream, Ident) {
        let c = self.temp("cond");
        let pat: syn::Pat = syn::parse_quote!(#c);
        let e: Expr = syn::parse_quote!((#cond) as bool);
        let code = self.device_values(&pat, &e, cond.span());
        // The value only lives for this test.
        self.lets.retain(|l| l.name != c);
        (code, c)
    }

    /// The scrutinee of an `if let`/`while let` around acc loops: as written, or computed by
    /// a one-thread kernel when it reads an array (the statements that compute it, and the
    /// host's name for it, which stays bound for the kernels of the body).
    fn scrutinee(&mut self, e: &Expr) -> (TokenStream, Expr) {
        if !self.mentions_array(e) {
            return (TokenStream::new(), e.clone());
        }
        let v = self.temp("scrutinee");
        let pat: syn::Pat = syn::parse_quote!(#v);
        let code = self.device_values(&pat, e, e.span());
        (code, syn::parse_quote!(#v))
    }

    /// Records the names a refutable pattern binds from `scrut` (an `if let` around acc
    /// loops), typed for the kernels by a witness that matches the same pattern.
    fn bind_pattern(&mut self, pat: &syn::Pat, scrut: &Expr) {
        let mut names = Vec::new();
        syntax::pat_idents(pat, &mut names);
        for n in names {
            let id = Ident::new(&n, pat.span());
            let init = syn::parse_quote!({
                #[allow(unused_variables, unreachable_code, unreachable_patterns)]
                match #scrut { #pat => #id, _ => loop {} }
            });
            self.lets.push(Let { name: id, init: Some(init), ty: None });
        }
    }

    fn temp(&mut self, what: &str) -> Ident {
        self.temps += 1;
        format_ident!("__acc_{}{}", what, self.temps)
    }

    /// Whether `fl` is a nest of its own: an acc loop, or a loop of a `kernels`/`serial`
    /// region that the compiler schedules (a `kernels` loop around loops that it cannot prove
    /// independent is a host loop around the nests inside, as NVHPC makes it).
    fn is_nest(&self, fl: &ExprForLoop) -> bool {
        if has_loop_attr(fl) {
            return true;
        }
        if self.kind == RegionKind::Parallel || loops::LoopHeader::parse(fl).is_err() {
            return false;
        }
        if self.kind == RegionKind::Kernels && schedule::any_loop(&fl.body, &is_nest_loop) {
            return self.loops.dependence(fl).is_none();
        }
        true
    }

    /// Whether `e` holds a nest (an acc loop, or a loop that a `kernels`/`serial` region
    /// schedules).
    fn holds_nest(&self, e: &Expr) -> bool {
        match self.kind {
            RegionKind::Kernels => {
                let b = syn::Block { brace_token: Default::default(), stmts: vec![Stmt::Expr(e.clone(), None)] };
                schedule::any_loop(&b, &is_nest_loop)
            }
            _ => contains_acc_loop(e),
        }
    }

    fn slice_names(&self) -> impl Iterator<Item = &Ident> {
        self.params.iter().filter(|p| p.kind != ParamKind::Value).map(|p| &p.ident)
    }

    /// Whether `stmt` uses the elements of an array (its length is the host's too), itself or
    /// through a closure in scope that does (a call of it runs on the device).
    fn uses_arrays(&self, stmt: &Stmt) -> bool {
        let names = self.array_names();
        let mut v = DataUse { names: &names, found: false };
        syn::visit::Visit::visit_stmt(&mut v, stmt);
        v.found
    }

    /// The arrays, and the closures in scope whose bodies use an array's elements.
    fn array_names(&self) -> Vec<&Ident> {
        let mut names: Vec<&Ident> = self.slice_names().collect();
        for l in &self.lets {
            let Some(init @ Expr::Closure(_)) = l.init.as_ref().map(loops::strip_parens) else { continue };
            let mut v = DataUse { names: &names, found: false };
            syn::visit::Visit::visit_expr(&mut v, init);
            if v.found {
                names.push(&l.name);
            }
        }
        names
    }

    fn mentions_array(&self, e: &Expr) -> bool {
        self.uses_arrays(&Stmt::Expr(e.clone(), None))
    }
}

/// Finds a use of an array's elements: any mention of its name except `a.len()` and
/// `a.is_empty()` (in macro arguments too).
struct DataUse<'a> {
    names: &'a [&'a Ident],
    found: bool,
}

impl<'ast> syn::visit::Visit<'ast> for DataUse<'_> {
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let length = matches!(&*m.receiver, Expr::Path(p) if p.path.get_ident().is_some_and(|id| self.names.contains(&id)))
            && (m.method == "len" || m.method == "is_empty")
            && m.args.is_empty();
        if !length {
            self.visit_expr(&m.receiver);
        }
        for a in &m.args {
            self.visit_expr(a);
        }
    }
    fn visit_ident(&mut self, i: &'ast Ident) {
        if self.names.contains(&i) {
            self.found = true;
        }
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let tokens: Vec<proc_macro2::TokenTree> = flat_tokens(m.tokens.clone());
        for (i, t) in tokens.iter().enumerate() {
            let proc_macro2::TokenTree::Ident(id) = t else { continue };
            if !self.names.contains(&id) {
                continue;
            }
            let length = matches!(tokens.get(i + 1), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '.')
                && matches!(tokens.get(i + 2), Some(proc_macro2::TokenTree::Ident(m)) if m == "len" || m == "is_empty");
            if !length {
                self.found = true;
            }
        }
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Whether `f` is a loop that a `kernels` region schedules as a nest: an acc loop, or a `for`
/// over a range.
fn is_nest_loop(f: &ExprForLoop) -> bool {
    has_loop_attr(f) || loops::LoopHeader::parse(f).is_ok()
}

fn has_loop_attr(f: &ExprForLoop) -> bool {
    f.attrs.iter().any(|a| is_acc_path(a.path(), "loop"))
}

fn contains_acc_loop(e: &Expr) -> bool {
    struct V(bool);
    impl<'ast> syn::visit::Visit<'ast> for V {
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            if has_loop_attr(f) {
                self.0 = true;
            }
            syn::visit::visit_expr_for_loop(self, f);
        }
    }
    let mut v = V(false);
    syn::visit::Visit::visit_expr(&mut v, e);
    v.0
}
