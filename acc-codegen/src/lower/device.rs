//! Lowering of compute regions for the GPU: each top-level loop nest of a region becomes one
//! kernel of the device crate (written by `acc-build`), and the region fn gets a GPU path that
//! evaluates the code around the nests on the host and launches the kernels.
//!
//! Kernel ABI, in order: the region's parameters (`&[T]` -> `ReadOnlyPtr<T>, usize`;
//! `&mut [T]` and `DeviceSlice`s -> pointer, `usize`; values by value), then `Captures` (the
//! locals the nest uses, packed), then the reduction partials buffer (`*mut u8`, one 16-byte
//! entry per block and reduction variable), then the cells of the outer scalars the nest
//! updates with `atomic!` (`*mut u8`, 16 bytes each). The nest's loops get the schedule of
//! [`crate::lower::schedule`] (gang / worker / vector over blocks, `threadIdx.y`, `threadIdx.x`); a
//! nest that must run in order (`serial`, `seq`, a `kernels` loop not proved independent) runs
//! in one thread.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, Ident, Stmt};

use crate::front::atomic::{AtomicForm, Place};
use crate::lower::atomic;
use crate::lower::bounds;
use crate::front::directives::LoopDirectives;
use crate::lower::grid;
use crate::info::{self, KernelReport, Notes};
use crate::front::loops;
use crate::front::model::*;
use crate::front::region::{Form, Param, ParamKind};
use crate::syntax::{self, is_acc_path};
use crate::lower::schedule;
use crate::report::Errors;

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

struct Let {
    name: Ident,
    init: Option<Expr>,
    ty: Option<syn::Type>,
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
        region_reds: dir.clauses.reduction.iter().flat_map(|r| r.vars.iter().map(move |v| (r.op, v.clone()))).collect(),
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
        let on_device = self.uses_arrays(&Stmt::Local(l.clone()));
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
        match nest_kernel(kind, self.loops, self.dir, fl, self.params, &self.lets, &self.region_reds, &self.items, outputs, &name, &mut self.errors, &mut notes, once) {
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

    /// Whether `stmt` uses the elements of an array (its length is the host's too).
    fn uses_arrays(&self, stmt: &Stmt) -> bool {
        let names: Vec<&Ident> = self.slice_names().collect();
        let mut v = DataUse { names: &names, found: false };
        syn::visit::Visit::visit_stmt(&mut v, stmt);
        v.found
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

/// A token stream with its groups opened (delimiters dropped).
fn flat_tokens(ts: TokenStream) -> Vec<proc_macro2::TokenTree> {
    let mut out = Vec::new();
    for t in ts {
        match t {
            proc_macro2::TokenTree::Group(g) => out.extend(flat_tokens(g.stream())),
            t => out.push(t),
        }
    }
    out
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

/// Every reduction clause inside a nest: (op, variable).
fn nest_reductions(f: &ExprForLoop, loops: &LoopDirectives) -> Vec<(RedOp, Span, Ident)> {
    struct V<'l>(Vec<(RedOp, Span, Ident)>, &'l LoopDirectives);
    impl<'ast> syn::visit::Visit<'ast> for V<'_> {
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            if let Some(d) = self.1.get(f) {
                for r in &d.reduction {
                    for v in &r.vars {
                        self.0.push((r.op, r.op_span, v.clone()));
                    }
                }
            }
            syn::visit::visit_expr_for_loop(self, f);
        }
    }
    let mut v = V(Vec::new(), loops);
    syn::visit::Visit::visit_expr_for_loop(&mut v, f);
    v.0
}

/// Strips inner acc loop attributes (those loops run in order in each thread), drops
/// `cache!` hints, and turns `atomic!` on slice elements into device atomics.
struct DeviceBody<'a> {
    slices: &'a [Ident],
    /// Outer scalars updated atomically: their names are the cells' atomic handles.
    cells: &'a [Ident],
    /// Read-only slice parameters: passed to routines as `&[T]` (`&*a`); the other slices
    /// as `&[T]` or `&mut [T]`, as the routine takes them.
    read_only: &'a [Ident],
    /// The indices written without a bounds check (`lower::bounds`): the unchecked kernel's.
    proven: &'a std::collections::HashSet<bounds::Site>,
}

impl DeviceBody<'_> {
    fn lower_macro(&mut self, m: &syn::Macro) -> Option<Expr> {
        if is_acc_path(&m.path, "cache") {
            return Some(syn::parse_quote!(()));
        }
        if !is_acc_path(&m.path, "atomic") {
            return None;
        }
        let form: AtomicForm = syn::parse2(m.tokens.clone()).ok()?;
        let tokens = match form.place() {
            Place::Element { base, .. } if self.slices.contains(base) => atomic::expand_shared(&form, m.path.span()),
            Place::Scalar(id) if self.cells.contains(id) => atomic::expand_shared(&form, m.path.span()),
            Place::Scalar(_) | Place::Element { .. } => {
                // Locals declared inside the loop body are per thread: the plain form is right.
                atomic::expand_plain(&form)
            }
        };
        syn::parse2(tokens).ok()
    }
}

impl DeviceBody<'_> {
    fn slice_args(&self, args: &mut syn::punctuated::Punctuated<Expr, syn::Token![,]>) {
        for a in args.iter_mut() {
            if let Expr::Path(p) = a {
                if p.path.get_ident().is_some_and(|id| self.read_only.contains(id)) {
                    *a = syn::parse_quote!(&*#p);
                } else if p.path.get_ident().is_some_and(|id| self.slices.contains(id)) {
                    // A `&mut [T]` parameter: the routine's parameter type picks `&[T]` or
                    // `&mut [T]`.
                    *a = syn::parse_quote!(::core::convert::Into::into(#p));
                }
            }
        }
    }
}

impl VisitMut for DeviceBody<'_> {
    fn visit_expr_call_mut(&mut self, c: &mut syn::ExprCall) {
        syn::visit_mut::visit_expr_call_mut(self, c);
        self.slice_args(&mut c.args);
    }
    fn visit_expr_method_call_mut(&mut self, c: &mut syn::ExprMethodCall) {
        syn::visit_mut::visit_expr_method_call_mut(self, c);
        self.slice_args(&mut c.args);
    }
    fn visit_expr_for_loop_mut(&mut self, f: &mut ExprForLoop) {
        f.attrs.retain(|a| !is_acc_path(a.path(), "loop"));
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
    }
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        if let Stmt::Macro(m) = s {
            if let Some(e) = self.lower_macro(&m.mac) {
                *s = Stmt::Expr(e, Some(Default::default()));
                return;
            }
        }
        syn::visit_mut::visit_stmt_mut(self, s);
    }
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Macro(m) = e {
            if let Some(new) = self.lower_macro(&m.mac) {
                *e = new;
                return;
            }
        }
        let proven = matches!(e, Expr::Index(ix) if !self.proven.is_empty() && self.proven.contains(&bounds::site(ix)));
        syn::visit_mut::visit_expr_mut(self, e);
        if proven {
            if let Expr::Index(ix) = e {
                bounds::write_unchecked(ix);
            }
        }
        // On the device a written array is a `SliceMut` (an `IndexMut` of its own).
        loops::index_first(e, |a| self.slices.contains(a));
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}


/// `ts` with every token's span the call site's (tokens the lowering made).
fn generated(ts: TokenStream) -> TokenStream {
    ts.into_iter()
        .map(|t| match t {
            proc_macro2::TokenTree::Group(g) => {
                let mut n = proc_macro2::Group::new(g.delimiter(), generated(g.stream()));
                n.set_span(Span::call_site());
                proc_macro2::TokenTree::Group(n)
            }
            mut t => {
                t.set_span(Span::call_site());
                t
            }
        })
        .collect()
}

/// Host code asking [`bounds::Proved::check`]'s closure body `check` for the launch's answer,
/// an `Option<(bool, bool)>`.
fn bounds_answer(check: &TokenStream) -> TokenStream {
    quote!((|| -> ::core::option::Option<(bool, bool)> { #check })())
}

/// A nest body as the device runs it ([`DeviceBody`]), the indices of `proven` unchecked.
fn device_body<'a>(slices: &'a [Ident], read_only: &'a [Ident], cells: &'a [Ident], proven: &'a std::collections::HashSet<bounds::Site>) -> impl FnMut(&syn::Block) -> syn::Block + 'a {
    move |b: &syn::Block| {
        let mut b = b.clone();
        DeviceBody { slices, read_only, cells, proven }.visit_block_mut(&mut b);
        b
    }
}

/// The body's items that the nest uses (by name), and those these use in turn.
fn used_items(items: &[syn::Item], uses: &[&Expr]) -> Vec<syn::Item> {
    let mut keep: Vec<bool> = items.iter().map(|i| item_names(i).iter().any(|n| uses.iter().any(|e| loops::mentions(e, n)))).collect();
    loop {
        let mut grew = false;
        for i in 0..items.len() {
            if keep[i] {
                continue;
            }
            let names = item_names(&items[i]);
            let used = items.iter().zip(&keep).any(|(other, &k)| k && names.iter().any(|n| tokens_mention(quote!(#other), n)));
            if used {
                keep[i] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    items.iter().zip(keep).filter(|(_, k)| *k).map(|(i, _)| i.clone()).collect()
}

fn tokens_mention(ts: TokenStream, name: &Ident) -> bool {
    flat_tokens(ts).iter().any(|t| matches!(t, proc_macro2::TokenTree::Ident(id) if id == name))
}

/// The names an item declares (a `use`: the names it brings in).
fn item_names(item: &syn::Item) -> Vec<Ident> {
    fn use_names(t: &syn::UseTree, out: &mut Vec<Ident>) {
        match t {
            syn::UseTree::Path(p) => use_names(&p.tree, out),
            syn::UseTree::Name(n) => out.push(n.ident.clone()),
            syn::UseTree::Rename(r) => out.push(r.rename.clone()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, out)),
            syn::UseTree::Glob(_) => {}
        }
    }
    let mut out = Vec::new();
    match item {
        syn::Item::Const(i) => out.push(i.ident.clone()),
        syn::Item::Static(i) => out.push(i.ident.clone()),
        syn::Item::Fn(i) => out.push(i.sig.ident.clone()),
        syn::Item::Struct(i) => out.push(i.ident.clone()),
        syn::Item::Enum(i) => out.push(i.ident.clone()),
        syn::Item::Type(i) => out.push(i.ident.clone()),
        syn::Item::Union(i) => out.push(i.ident.clone()),
        syn::Item::Mod(i) => out.push(i.ident.clone()),
        syn::Item::Use(u) => use_names(&u.tree, &mut out),
        _ => {}
    }
    out
}

/// The locals declared outside the nest that it updates with scalar atomics: each gets a
/// device cell (acc-runtime's `Cells`).
fn outer_scalar_atomics(f: &ExprForLoop, lets: &[Let]) -> Vec<Ident> {
    struct V<'a>(&'a [Let], Vec<Ident>);
    impl<'ast> syn::visit::Visit<'ast> for V<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if is_acc_path(&m.path, "atomic") {
                if let Ok(form) = syn::parse2::<AtomicForm>(m.tokens.clone()) {
                    if let Place::Scalar(id) = form.place() {
                        if self.0.iter().any(|l| &l.name == id) && !self.1.contains(id) {
                            self.1.push(id.clone());
                        }
                    }
                }
            }
        }
    }
    let mut v = V(lets, Vec::new());
    syn::visit::Visit::visit_expr_for_loop(&mut v, f);
    v.1
}

#[allow(clippy::too_many_arguments)]
fn nest_kernel(
    kind: RegionKind,
    loops: &LoopDirectives,
    dir: &RegionDirective,
    f: &ExprForLoop,
    params: &[Param],
    lets: &[Let],
    region_reds: &[(RedOp, Ident)],
    items: &[syn::Item],
    outputs: &[Let],
    name: &str,
    errors: &mut Errors,
    notes: &mut Notes,
    once: bool,
) -> Option<(TokenStream, TokenStream)> {
    let d = match loops.get(f) {
        Some(d) => d.clone(),
        None => LoopDirective { auto: Some(f.span()), ..LoopDirective::default() },
    };
    let cells = outer_scalar_atomics(f, lets);
    let (headers, body) = loops::directive_nest(f, &d)?;
    let slices: Vec<Ident> = params.iter().filter(|p| p.kind != ParamKind::Value).map(|p| p.ident.clone()).collect();
    let read_only: Vec<Ident> = params.iter().filter(|p| matches!(p.kind, ParamKind::Slice | ParamKind::DeviceSlice)).map(|p| p.ident.clone()).collect();
    let mut_slices: Vec<Ident> = params.iter().filter(|p| matches!(p.kind, ParamKind::SliceMut | ParamKind::DeviceSliceMut)).map(|p| p.ident.clone()).collect();
    let none = std::collections::HashSet::new();
    let mut body_of = device_body(&slices, &read_only, &cells, &none);

    // Sequential when the loop says so or cannot be proved independent.
    let reds_all = nest_reductions(f, loops);
    // The nest kernel combines every reduction clause of the nest (below), so they all count.
    // (The one-trip loop around a statement is acc's, in no table: it runs in one thread.)
    let dependence = if once { None } else { loops.nest_dependence(f).cloned() };
    let serial = kind == RegionKind::Serial || d.seq.is_some() || dependence.is_some();
    // info: why the nest runs in order, or that the dependence test proved it independent.
    let vars: Vec<String> = headers.iter().map(|h| format!("`{}`", h.var)).collect();
    let vars = vars.join(", ");
    if !once {
        match (&dependence, d.seq, kind) {
            (Some((span, msg)), _, _) => notes.add(f.for_token.span, 0, format!(
                "loop over {vars} runs in order in one thread: not proved independent: {msg} (line {}); write `independent` if you know better", info::line_of(*span))),
            (None, Some(_), _) => notes.add(f.for_token.span, 0, format!("loop over {vars} runs in order in one thread: it says `seq`")),
            (None, None, RegionKind::Serial) => notes.add(f.for_token.span, 0, format!("loop over {vars} runs in order in one thread: a `serial` region")),
            (None, None, RegionKind::Kernels) if d.independent.is_none() => notes.add(f.for_token.span, 0, format!("loop over {vars}: the dependence test proved it independent")),
            _ => {}
        }
    }

    // Reductions of the nest: clauses on any loop of it naming a local declared before it, and
    // region-level reductions it uses.
    let mut reds: Vec<(RedOp, Ident)> = Vec::new();
    for (op, _, v) in &reds_all {
        if lets.iter().any(|l| &l.name == v) && !reds.iter().any(|r| &r.1 == v) {
            reds.push((*op, v.clone()));
        }
    }
    for (op, v) in region_reds {
        if !reds.iter().any(|r| &r.1 == v) && loops::block_mentions(&f.body, v) {
            reds.push((*op, v.clone()));
        }
    }

    // Captured locals: those the nest mentions (bounds included), and transitively those
    // their initialisers mention (for the type witnesses).
    let nest_expr = Expr::ForLoop(f.clone());
    // (A reduction's variable is captured even when only a clause names it: its private copy
    // starts from the operator's identity for its type.)
    let mut needed: Vec<bool> = lets.iter().map(|l| loops::mentions(&nest_expr, &l.name) || reds.iter().any(|r| r.1 == l.name)).collect();
    for i in (0..lets.len()).rev() {
        if !needed[i] {
            continue;
        }
        if let Some(init) = &lets[i].init {
            for j in 0..i {
                if loops::mentions(init, &lets[j].name) {
                    needed[j] = true;
                }
            }
        }
    }
    // A name bound twice: only its last binding before the nest is visible there.
    let mut captured: Vec<&Let> = Vec::new();
    for (i, l) in lets.iter().enumerate() {
        if needed[i] && !lets[i + 1..].iter().any(|later| later.name == l.name) {
            captured.push(l);
        }
    }
    for l in &captured {
        if l.init.is_none() && l.ty.is_none() {
            errors.error(l.name.span(), format!("`{}` is used by a loop nest on the GPU: give it an initialiser or a type (`let {}: T = ..;`)", l.name, l.name));
            return None;
        }
    }
    // Closures bound before the nest are built again in the kernel from its own values (their
    // bytes on the host hold references to the host's locals and arrays): replayed, not
    // captured. The names a closure mentions must mean there what they meant at its `let`.
    let (replayed, captured): (Vec<&Let>, Vec<&Let>) = captured.into_iter().partition(|l| matches!(&l.init, Some(Expr::Closure(_))));
    for r in &replayed {
        let Some(Expr::Closure(c)) = &r.init else { unreachable!() };
        let at = lets.iter().position(|l| std::ptr::eq(l, *r)).expect("a replayed closure is one of the lets");
        let init = r.init.as_ref().expect("a closure let has an initialiser");
        let mut own = Vec::new();
        for input in &c.inputs {
            crate::syntax::pat_idents(input, &mut own);
        }
        let outer = |l: &&Let| !own.contains(&l.name.to_string()) && loops::mentions(init, &l.name);
        if let Some(later) = lets[at + 1..].iter().find(outer) {
            errors.error(later.name.span(), format!(
                "on the GPU, a loop nest builds closure `{}` again from the values at its launch, where `{}` names this later binding: rename one of them",
                r.name, later.name));
            return None;
        }
        if let Some(mv) = c.capture {
            if let Some(l) = lets[..at].iter().find(outer) {
                errors.error(mv.span, format!(
                    "on the GPU, a loop nest builds closure `{}` again from the values at its launch, not from those `move` copied at its `let` (`{}`): write it without `move`",
                    r.name, l.name));
                return None;
            }
        }
    }

    // Region-level `private`/`firstprivate` arrays the kernel may write: each gang works on
    // its own copy, filled from the original by the gang's threads before the nest.
    let privates: Vec<&Param> = params
        .iter()
        .filter(|p| p.kind == ParamKind::SliceMut && dir.clauses.private.iter().chain(&dir.clauses.firstprivate).any(|id| id == &p.ident))
        .filter(|p| loops::mentions(&Expr::ForLoop(f.clone()), &p.ident))
        .collect();
    let priv_ptrs: Vec<Ident> = privates.iter().map(|p| format_ident!("{}_private", p.ident)).collect();

    // ---- the device fn ----
    let dev = quote!(::acc_device);
    let mut sig = Vec::new();
    let mut prologue = TokenStream::new();
    for p in params {
        let id = &p.ident;
        let elem = &p.elem;
        let ptr = format_ident!("{}_ptr", id);
        let len = format_ident!("{}_len", id);
        match p.kind {
            ParamKind::Slice | ParamKind::DeviceSlice => {
                sig.push(quote!(#ptr: #dev::ReadOnlyPtr<#elem>, #len: usize));
                prologue.extend(quote!(let #id = #dev::Slice::from_param(#ptr, #len);));
            }
            ParamKind::SliceMut | ParamKind::DeviceSliceMut => {
                sig.push(quote!(#ptr: *mut #elem, #len: usize));
                let data = match privates.iter().position(|q| q.ident == p.ident) {
                    Some(i) => priv_ptrs[i].clone(),
                    None => ptr.clone(),
                };
                prologue.extend(quote!(let mut #id = #dev::SliceMut::from_raw(#data, #len);));
            }
            ParamKind::Value => {
                let ty = &p.ty;
                sig.push(quote!(#id: #ty));
            }
        }
    }
    prologue.extend(quote!(let mut __acc_off = 0usize;));
    for l in &captured {
        let n = &l.name;
        let witness = match (&l.ty, &l.init) {
            (Some(ty), _) => quote!(|| -> #ty { loop {} }),
            (None, Some(init)) => quote!(|| #init),
            _ => unreachable!(),
        };
        prologue.extend(quote!(#[allow(unused_mut, unreachable_code)] let mut #n = __acc_caps.take(&mut __acc_off, #witness);));
    }
    for r in &replayed {
        let (n, init) = (&r.name, r.init.as_ref().expect("a closure let has an initialiser"));
        prologue.extend(quote!(#[allow(unused_mut)] let mut #n = #init;));
    }
    let cell_slots: Vec<usize> = (0..cells.len()).collect();
    prologue.extend(quote!(#(let #cells = #dev::cell(__acc_cells, #cell_slots, #cells);)*));
    let k = format_ident!("__acc_k");
    // In a nest run by one thread, locals declared before it and assigned in it (not
    // reductions) come back to the host: their last value, through a partials slot.
    let mut writebacks: Vec<Ident> = Vec::new();
    if serial {
        for l in &captured {
            if !reds.iter().any(|r| r.1 == l.name) && !cells.contains(&l.name) && schedule::block_assigns(&f.body, &l.name) {
                writebacks.push(l.name.clone());
            }
        }
    }
    let red_vars: Vec<&Ident> = reds.iter().map(|r| &r.1).collect();
    let red_ops: Vec<TokenStream> = reds.iter().map(|(op, _)| schedule::op_path(*op)).collect();
    // A reduction variable takes a partial slot per scalar it holds (an array one per element),
    // the writebacks one each after them; in the kernel and at the launch alike.
    let dev_path = quote!(#dev);
    let red_slots = schedule::red_slots(&dev_path, &red_vars);
    let red_total = schedule::red_slots_total(&dev_path, &red_vars);
    let wb_slots: Vec<TokenStream> = (0..writebacks.len()).map(|k| quote!((#red_total + #k))).collect();
    let mut sched_notes = Notes::default();
    // The launch's dimensions, for a nest on a multi-dimensional grid (`grid.rs`).
    let mut dims: Option<TokenStream> = None;
    // A grid takes the reductions of locals declared before the nest (and the region's),
    // not a clause on a variable of the nest's own bodies.
    let whole = reds_all.iter().all(|(_, _, v)| reds.iter().any(|r| &r.1 == v));
    let grid_reds = whole.then_some(&reds[..]);
    let grid_stageable: Vec<Ident> = params.iter().filter(|p| p.kind == ParamKind::Slice && !mut_slices.contains(&p.ident)).map(|p| p.ident.clone()).collect();
    // Plain `&[T]` parameters: their windows can be staged (the host sizes the launch from
    // their element type).
    let stageable: Vec<Ident> = params.iter().filter(|p| p.kind == ParamKind::Slice).map(|p| p.ident.clone()).collect();
    let grid = if serial || !privates.is_empty() {
        None
    } else {
        grid::schedule(f, kind, loops, grid_reds, &grid_stageable, false, &mut body_of)
    };
    // The `cache!` windows staged in shared memory: (array, span).
    let mut cached: Vec<(Ident, usize)> = Vec::new();
    // The 2-D `cache!` tiles staged in shared memory: (array, elements per blockDim.x, per
    // blockDim.y, fixed).
    let mut tiles: Vec<(Ident, [TokenStream; 3])> = Vec::new();
    let mut tile_lines: Vec<usize> = Vec::new();
    // The arrays of the 1-D windows of tile loops staged (`tiles::Window1`).
    let mut staged1: Vec<Ident> = Vec::new();
    // The nest's lean kernel, where loops inside its top loop take chunks (`Scheduler::lean`):
    // the same nest, those loops without chunks. And whether its gang loop may give each warp
    // trips of its own.
    let mut lean_code: Option<TokenStream> = None;
    let mut per_warp = false;
    let mut reduction_chunks = false;
    let mut chunked = false;
    // The waves of blocks the launch may give a nest on a one-dimensional grid.
    let mut waves = 1usize;
    // The arrays whose element sizes set the trips a thread of a top loop of chunks takes.
    let mut top_chunks: Vec<Ident> = Vec::new();
    let (nest_code, uses_worker, per_trip, group_locals) = if let Some(g) = grid {
        // info: the grid schedule's notes on the nest's loops.
        sched_notes = g.notes;
        tiles = g.tiles;
        tile_lines = g.tile_lines;
        dims = Some(g.dims);
        (g.code, false, (false, false), false)
    } else if serial {
        // One thread runs the nest in order.
        let loops::NestSpace { setup, total, bind } = loops::normalise_nest(&headers, 1, &quote!(#dev::idx));
        let stmts = body_of(&body).stmts;
        // The values a one-thread kernel computes for the host, after the partials.
        let nwb = writebacks.len();
        let base = quote!(#red_total + #nwb);
        let out_names = outputs.iter().map(|o| &o.name);
        let code = quote! {
            #setup
            let __acc_total: usize = #total;
            let mut __acc_vs: usize = #base;
            let mut #k = 0usize;
            while #k < __acc_total {
                #bind
                #[allow(clippy::never_loop)]
                for _ in ::core::iter::once(()) {
                    #(#stmts)*
                    #( #dev::store_value(__acc_partials, &mut __acc_vs, #out_names); )*
                }
                #k += 1;
            }
            #(
                if #dev::block_thread_index() == 0 {
                    #dev::store_partial_var(__acc_partials, #red_slots, #red_vars);
                }
            )*
        };
        (code, false, (false, false), false)
    } else {
        let s = schedule::Scheduler::new(kind, loops, &mut_slices, &mut body_of, errors).stage(&stageable).nest(f, &reds)?;
        if s.inner_chunks {
            // (Its errors and notes are the first lowering's, already taken.)
            let mut again = Errors::default();
            lean_code = schedule::Scheduler::new(kind, loops, &mut_slices, &mut body_of, &mut again).stage(&stageable).lean().nest(f, &reds).map(|w| w.code);
            per_warp = s.per_warp;
            reduction_chunks = s.reduction_chunks;
        }
        // info: the schedule's notes on the nest's loops and statements.
        sched_notes = s.notes;
        cached = s.cached;
        // The 1-D windows of tile loops: fixed sizes, as 2-D tiles' are.
        for (a, w) in &s.tiles1 {
            tiles.push((a.clone(), [quote!(0usize), quote!(0usize), quote!(#w)]));
        }
        staged1 = s.tiles1.iter().map(|(a, _)| a.clone()).collect();
        chunked = s.chunked;
        waves = s.waves;
        top_chunks = s.top_chunks;
        (s.code, s.uses_worker, s.per_trip, s.group_locals)
    };
    // More than one wave of blocks only for a nest that writes nothing per block (partials of
    // reductions or values, private copies): those are sized for one wave.
    if !(reds.is_empty() && writebacks.is_empty() && outputs.is_empty() && privates.is_empty()) {
        waves = 1;
        top_chunks.clear();
    }
    // The indices the launch can bound (`bounds`), where the nest has such indices and nothing
    // else keeps their checks (1-D staging, private arrays; a nest of 2-D staged tiles has
    // none: the grid schedule stages its windows before the body's indices are written
    // unchecked, and the unchecked kernel's tiles are the same).
    let proof = if serial || !privates.is_empty() || !cached.is_empty() || !staged1.is_empty() {
        None
    } else {
        bounds::prove(f, &slices).filter(|p| p.panic_free)
    };
    // The nest again without those checks, where it has no lean kernel and takes no chunks
    // (whose references are matched as written): launched when the bounds hold. Or, for a
    // nest with a lean kernel that calls no routine, the lean kernel again without them,
    // launched in its place when the bounds hold (and it runs as many of the launch's blocks
    // at once, acc-runtime's `launch`). Its rows run in rounds of 2 trips, and its worker
    // loops of one vector loop in pairs of trips (`Scheduler::unrolled`): with no check's exit
    // between them, their loads are issued before their stores (`loads.rs`), where the checked
    // lean kernel keeps one load a trip in flight.
    let (proved, lean_proved) = match &lean_code {
        Some(_) => (None, proof.filter(|p| p.calls.is_empty())),
        None => (proof.filter(|_| !chunked), None),
    };
    let unchecked = proved.as_ref().and_then(|p| {
        let mut body_of = device_body(&slices, &read_only, &cells, &p.sites);
        let mut again = Errors::default();
        let code = if dims.is_some() {
            grid::schedule(f, kind, loops, grid_reds, &grid_stageable, false, &mut body_of).map(|g| g.code)
        } else {
            schedule::Scheduler::new(kind, loops, &mut_slices, &mut body_of, &mut again).stage(&stageable).nest(f, &reds).map(|w| w.code)
        };
        code.filter(|_| again.is_empty()).map(|c| (c, p))
    });
    let lean_unchecked = lean_proved.as_ref().and_then(|p| {
        let mut body_of = device_body(&slices, &read_only, &cells, &p.sites);
        let mut again = Errors::default();
        let w = schedule::Scheduler::new(kind, loops, &mut_slices, &mut body_of, &mut again).stage(&stageable).lean().unrolled(2).nest(f, &reds)?;
        (again.is_empty() && !w.chunked).then_some((w.code, p))
    });
    // And of one point a thread, for a 3-D nest that takes it (`grid::takes_points`): launched
    // where the bounds hold and the grid covers the trips.
    let point_code = unchecked.as_ref().filter(|_| dims.is_some()).and_then(|(_, p)| {
        let mut body_of = device_body(&slices, &read_only, &cells, &p.sites);
        grid::schedule(f, kind, loops, grid_reds, &grid_stageable, true, &mut body_of).map(|g| g.code)
    });
    if point_code.is_some() {
        sched_notes.at(info::loop_line(f), 0, "launch: where the indices' bounds hold and the trips fit one grid, a kernel of one point a thread (no grid-stride loops: fewer registers, more blocks a multiprocessor) on a grid that covers them");
    }
    let bounded = unchecked.as_ref().map(|(_, p)| (*p, "a kernel without their checks runs")).or(lean_unchecked.as_ref().map(|(_, p)| (*p, "its lean kernel runs without their checks")));
    if let Some((p, runs)) = bounded {
        let calls = if p.calls.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = p.calls.iter().map(|c| format!("`{c}`")).collect();
            format!(", and the indices of the routines it calls ({}) where acc-build bounds them from the arguments (a routine of the region's module whose indices are sums and products of its `usize` parameters and the slices' lengths)", names.join(", "))
        };
        sched_notes.at(info::loop_line(f), 0, format!(
            "bounds: the nest's {} element indices bounded at each launch from the loops' ranges and the arrays' lengths{calls}: where all are inside their arrays, {runs}",
            p.total));
    }
    // The private copies: one for each group of threads that runs a trip of the outermost
    // loop together (a block when its vector lanes and workers share the trips, else each
    // lane or row), filled from the original by that group before the nest.
    let (share_x, share_y) = per_trip;
    let mut copies = TokenStream::new();
    for (p, copy) in privates.iter().zip(&priv_ptrs) {
        let (elem, ptr, len) = (&p.elem, format_ident!("{}_ptr", p.ident), format_ident!("{}_len", p.ident));
        copies.extend(quote! {
            let #copy: *mut #elem = #copy.add(#dev::private_copy(#share_x, #share_y) * #len);
            let (mut __acc_i, __acc_step) = #dev::private_fill(#share_x, #share_y);
            while __acc_i < #len {
                *#copy.add(__acc_i) = *#ptr.add(__acc_i);
                __acc_i += __acc_step;
            }
            #dev::sync_threads();
        });
    }
    let prologue = quote!(#copies #prologue);
    // info: the kernel's inputs besides the region's parameters, its block shape, its
    // reductions' partials and the `cache!` windows.
    kernel_notes(notes, &mut sched_notes, f, &KernelFacts {
        dir, serial, grid: dims.is_some(), uses_worker, group_locals, staged: &cached.iter().map(|c| c.0.clone()).chain(staged1).collect::<Vec<_>>(), staged_tiles: &tile_lines, reds: &reds, array_reds: &array_locals(lets, &reds), writebacks: &writebacks, cells: &cells,
        captured: &captured.iter().map(|l| l.name.clone()).filter(|n| !n.to_string().starts_with("__acc_") && !reds.iter().any(|r| &r.1 == n)).collect::<Vec<_>>(),
        privates: &privates.iter().map(|p| p.ident.clone()).collect::<Vec<_>>(),
        per_trip,
        waves,
        chunks: !top_chunks.is_empty(),
    });
    let kname = Ident::new(name, Span::call_site());
    let priv_elems: Vec<&syn::Type> = privates.iter().map(|p| &p.elem).collect();
    let mut uses: Vec<&Expr> = vec![&nest_expr];
    uses.extend(captured.iter().chain(&replayed).filter_map(|l| l.init.as_ref()));
    let items = used_items(items, &uses);
    // The element bytes of the nest's staged 1-D windows, together: their points a thread a
    // trip (`acc_device::window_points`), as the host's `Geometry::window_points` counts them.
    let window_arrays = cached.iter().map(|c| &c.0);
    let window_bytes = quote!(let __acc_wbytes: usize = 0usize #(+ #dev::elem_bytes(&*#window_arrays))*;);
    let kernel_fn = |kname: &Ident, nest_code: &TokenStream| quote! {
        #[no_mangle]
        #[allow(unused_mut, unused_variables, unused_assignments, non_snake_case, clippy::all)]
        pub unsafe extern "ptx-kernel" fn #kname(__acc_panic: *mut #dev::panic::PanicSlot, #(#sig,)* __acc_caps: #dev::Captures, __acc_partials: *mut u8, __acc_cells: *mut u8 #(, #priv_ptrs: *mut #priv_elems)*) {
            #(#items)*
            #dev::panic::enter(__acc_panic);
            #prologue
            #window_bytes
            #(let mut #red_vars = #red_ops.identity(&#red_vars);)*
            #nest_code
            #(
                if #dev::block_thread_index() == 0 {
                    #dev::store_partial(__acc_partials, #wb_slots, #writebacks);
                }
            )*
        }
    };
    let mut device_fn = kernel_fn(&kname, &nest_code);
    let unchecked_name = unchecked.as_ref().map(|(code, p)| {
        // Its tokens as generated ones: the device crate's printer keeps the user's lines for
        // the checked kernel's copy, where every panic site of the nest is (`Proved::panic_free`).
        let uname = format_ident!("{}_inb", kname);
        device_fn.extend(generated(kernel_fn(&uname, code)));
        // The bounds of the routines the nest calls: acc-build's, for this kernel
        // (`acc_bounds/<kernel>.rs`: `Some(true)` for a name that is not one of the region
        // module's routines it proved, whose twin the unchecked kernel then does not call).
        let check = &p.check;
        let file = format!("/acc_bounds/{uname}.rs");
        let check = if p.calls.is_empty() {
            quote!(#check)
        } else {
            quote! {
                let __acc_rb: fn(&str, &[::core::option::Option<(usize, usize)>]) -> ::core::option::Option<bool> = include!(concat!(env!("OUT_DIR"), #file));
                #check
            }
        };
        // (The same name's ending, `_inb`, so that acc-build treats it as it treats `uname`.)
        let pname = point_code.as_ref().map(|code| {
            let pname = format_ident!("{}_pt_inb", kname);
            device_fn.extend(generated(kernel_fn(&pname, code)));
            pname.to_string()
        });
        (uname.to_string(), check, !p.calls.is_empty(), pname)
    });
    let lean_name = lean_code.as_ref().map(|w| {
        let lname = format_ident!("{}_lean", kname);
        device_fn.extend(kernel_fn(&lname, w));
        lname.to_string()
    });
    // (Its tokens as generated ones, as the unchecked kernel's above.)
    let lean_pick = lean_unchecked.as_ref().zip(lean_name.as_ref()).map(|((code, p), lname)| {
        let uname = format_ident!("{}_lean_inb", kname);
        device_fn.extend(generated(kernel_fn(&uname, code)));
        let (uname, answer) = (uname.to_string(), bounds_answer(&p.check));
        quote! {{
            #[allow(clippy::all, unused_parens)]
            let __acc_bounded = matches!(#answer, ::core::option::Option::Some((true, _)));
            if __acc_bounded { #uname } else { #lname }
        }}
    });

    // ---- the host launch ----
    let rt = quote!(::acc::__private);
    let loops::NestSpace { setup: host_setup, total: host_total, .. } = loops::normalise_nest(&headers, 1, &rt);
    let mut args = TokenStream::new();
    for p in params {
        let id = &p.ident;
        args.extend(match p.kind {
            ParamKind::Slice | ParamKind::SliceMut => quote!(__acc_args.slice(__acc_data.device_ptr(#rt::view(#id)), #id.len());),
            ParamKind::DeviceSlice | ParamKind::DeviceSliceMut => quote!(__acc_args.slice(#id.device_ptr(), #id.len());),
            ParamKind::Value => quote!(__acc_args.push(#id);),
        });
    }
    let cap_names: Vec<&Ident> = captured.iter().map(|l| &l.name).collect();
    let vector_length = dir.clauses.vector_length.as_ref().map_or_else(|| quote!(0usize), super::clause_usize);
    let num_workers = dir.clauses.num_workers.as_ref().map_or_else(|| quote!(0usize), super::clause_usize);
    let (per_x, per_y) = per_trip;
    let with_dims = dims.map(|d| quote!(.dims(#d)));
    let with_lean = lean_name.map(|l| {
        let l = lean_pick.unwrap_or_else(|| quote!(#l));
        quote!(.lean_kernel(#l, #per_warp, #reduction_chunks))
    });
    let with_waves = (waves > 1).then(|| quote!(.waves(#waves)));
    // A thread per chunk: 4 trips, 2 where an array's elements are wider than 4 bytes (as the
    // kernel chooses, `chunk.rs`).
    let with_chunks = (!top_chunks.is_empty()).then(|| quote!(.chunks(if true #(&& #rt::elem_size(&*#top_chunks) <= 4)* { 4usize } else { 2usize })));
    let with_cache = cached
        .iter()
        .map(|(a, span)| quote!(.cache(#rt::elem_bytes(&#a[..]), #span)))
        .chain(tiles.iter().map(|(a, [x, y, fixed])| quote!(.cache_tile(#rt::elem_bytes(&#a[..]), #x, #y, #fixed))))
        .collect::<Vec<_>>();
    let num_gangs = dir.clauses.num_gangs.as_ref().map_or_else(|| quote!(0usize), super::clause_usize);
    let queue = quote!(__acc_queue);
    let host_red_slots = schedule::red_slots(&rt, &red_vars);
    let host_wb_slots: Vec<TokenStream> = {
        let total = schedule::red_slots_total(&rt, &red_vars);
        (0..writebacks.len()).map(|k| quote!((#total + #k))).collect()
    };
    let nreds = {
        let (total, nwb) = (schedule::red_slots_total(&rt, &red_vars), writebacks.len());
        quote!((#total + #nwb))
    };
    // The values of a one-thread kernel: their types are their witnesses' (never called).
    let out_names: Vec<&Ident> = outputs.iter().map(|o| &o.name).collect();
    let out_witness: Vec<Ident> = (0..outputs.len()).map(|i| format_ident!("__acc_w{}", i)).collect();
    let out_inits = outputs.iter().map(|o| o.init.as_ref().expect("outputs have initialisers"));
    let ncells = cells.len();
    let priv_ids = privates.iter().map(|p| &p.ident);
    let priv_elems2 = privates.iter().map(|p| &p.elem);
    let host_ops: Vec<TokenStream> = reds.iter().map(|(op, _)| { let t = Ident::new(op.type_name(), Span::call_site()); quote!(#rt::reduce::#t) }).collect();
    // The block's value: the kernel's values, or none (not a `()` at its end, which clippy
    // reports as `unused_unit` on the region's attribute).
    let values = (!outputs.is_empty()).then(|| {
        quote! {
            let mut __acc_vs: usize = #nreds;
            (#(__acc_partials.value(&mut __acc_vs, &#out_witness),)*)
        }
    });
    // The kernel: the one without the proved indices' checks where their bounds hold.
    let pick = match unchecked_name {
        Some((uname, check, calls, pname)) => {
            let answer = bounds_answer(&check);
            // Where the nest's own indices are bounded but a routine's are not, the unchecked
            // kernel that calls the routines as they are (`<kernel>_inbc`, acc-build's copy of
            // `_inb` before its calls became the twins'; made where it renamed one). Each with
            // the nest's kernel of one point a thread where it has one (`_pt_inb`, `_pt_inbc`),
            // which the launch runs where its grid covers the trips (`Geometry::point_kernel`).
            let point = |suffix: &str| match &pname {
                Some(p) => {
                    let p = format!("{p}{suffix}");
                    quote!(::core::option::Option::Some(#p))
                }
                None => quote!(::core::option::Option::None),
            };
            let (bounded, checked) = (point(""), point("c"));
            let routines_checked = calls.then(|| {
                let cname = format!("{uname}c");
                quote!(::core::option::Option::Some((true, false)) => (#cname, #checked),)
            });
            quote! {
                #[allow(clippy::all, unused_parens)]
                let (__acc_name, __acc_point): (&str, ::core::option::Option<&'static str>) = match #answer {
                    ::core::option::Option::Some((true, true)) => (#uname, #bounded),
                    #routines_checked
                    _ => (#name, ::core::option::Option::None),
                };
                __acc_geom = __acc_geom.point_kernel(__acc_point);
            }
        }
        None => quote!(let __acc_name: &str = #name;),
    };
    let launch = quote! {{
        #host_setup
        #( #[allow(unused_mut, unused_variables, unreachable_code)] let #out_witness = || #out_inits; )*
        let __acc_total: usize = #host_total;
        let mut __acc_caps = #rt::Captures::new();
        #(__acc_caps.put(&#cap_names);)*
        let mut __acc_args = #rt::KernelArgs::new();
        __acc_args.panic_slot();
        #args
        __acc_args.push(__acc_caps);
        #[allow(unused_mut)]
        let mut __acc_geom = #rt::Geometry::new(__acc_total, #num_gangs, #vector_length, #serial).workers(#num_workers, #uses_worker).per_trip(#per_x, #per_y).group_locals(#group_locals)#with_dims #with_lean #with_waves #with_chunks #(#with_cache)*;
        #(let #priv_ptrs = #rt::PrivateCopies::new(&__ACC_REGION, ::core::mem::size_of_val::<[#priv_elems2]>(&*#priv_ids), (#per_x, #per_y), &mut __acc_geom);)*
        let __acc_partials = #rt::Partials::new(&__ACC_REGION, #nreds #(+ #rt::value_slots(&#out_witness))*, &__acc_geom);
        __acc_args.ptr(__acc_partials.device_ptr());
        let mut __acc_cells = #rt::Cells::new(&__ACC_REGION, #ncells);
        #(__acc_cells.set(#cell_slots, &#cells);)*
        __acc_args.ptr(__acc_cells.upload());
        #(__acc_args.ptr(#priv_ptrs.device_ptr());)*
        #pick
        let __acc_grid = #rt::launch(&__ACC_REGION, __ACC_PTX, __acc_name, &mut __acc_args, &__acc_geom, #queue);
        __acc_cells.download();
        #(#cells = __acc_cells.get(#cell_slots, &#cells);)*
        #(
            #writebacks = __acc_partials.fold(#host_wb_slots, __acc_grid, &#writebacks, |_, last| last);
        )*
        #(
            #red_vars = #host_ops.combine(#red_vars, __acc_partials.fold_var(#host_red_slots, __acc_grid, &#red_vars, |a, b| #host_ops.combine(a, b)));
        )*
        #values
    }};
    let launch = if outputs.is_empty() {
        launch
    } else {
        quote!(#[allow(unused_mut)] let (#(mut #out_names,)*) = #launch;)
    };
    Some((device_fn, launch))
}


/// info: what the report says of a kernel besides its loops (see [`kernel_notes`]).
struct KernelFacts<'a> {
    dir: &'a RegionDirective,
    serial: bool,
    /// On a multi-dimensional grid (`grid.rs`).
    grid: bool,
    uses_worker: bool,
    group_locals: bool,
    /// The arrays whose `cache!` windows are staged in shared memory.
    staged: &'a [Ident],
    /// The lines of the `cache!`s whose 2-D windows are staged (`lower/tiles.rs`).
    staged_tiles: &'a [usize],
    reds: &'a [(RedOp, Ident)],
    /// The reduction variables declared as arrays (`let mut q = [0.0; 10]`, `let mut q: [f64;
    /// 10]`): their reports say how the elements combine.
    array_reds: &'a [Ident],
    writebacks: &'a [Ident],
    cells: &'a [Ident],
    captured: &'a [Ident],
    privates: &'a [Ident],
    per_trip: (bool, bool),
    /// Waves of blocks the launch may give a nest on a one-dimensional grid.
    waves: usize,
    /// The top loop takes chunks: the launch gives it a thread per chunk.
    chunks: bool,
}

/// info: the reduction variables of `reds` that a `let` of `lets` declares as an array: its
/// type `[T; N]` or its initialiser an array expression (`[0.0; 10]`, `[a, b]`).
fn array_locals(lets: &[Let], reds: &[(RedOp, Ident)]) -> Vec<Ident> {
    reds.iter()
        .filter(|(_, v)| {
            lets.iter().rev().find(|l| &l.name == v).is_some_and(|l| {
                matches!(l.ty, Some(syn::Type::Array(_))) || matches!(l.init, Some(Expr::Repeat(_) | Expr::Array(_)))
            })
        })
        .map(|(_, v)| v.clone())
        .collect()
}

/// info: a kernel's launch shape, inputs, reductions' partials and `cache!` windows, as the
/// launch code above and acc-runtime's `Geometry` make them.
/// The facts go to `notes`; `cache!` windows join the schedule's notes on the loops
/// (`loop_notes`), at their lines, and all of those follow.
fn kernel_notes(notes: &mut Notes, loop_notes: &mut Notes, f: &ExprForLoop, k: &KernelFacts) {
    let at = f.for_token.span;
    let c = &k.dir.clauses;
    let text = |e: &Expr| quote!(#e).to_string();
    if k.serial {
        notes.add(at, 0, "launch: one block of one thread");
    } else if k.grid {
        notes.add(at, 0, "launch: grid and blocks of as many dimensions as the loops take; threads a loop does not size: 32 in x (256 when x is the only block dimension), the rest of 256 in y and z; blocks per dimension as the trips need, at most one full wave of the GPU in all (8 waves where the blocks take bands of rows); fewer threads per block if the kernel's registers do not allow them");
    } else {
        let x = match &c.vector_length {
            Some(e) => format!("vector_length({})", text(e)),
            None if k.uses_worker => "32 (default)".into(),
            None => "256 (default)".into(),
        };
        let block = if k.uses_worker {
            let y = match &c.num_workers {
                Some(e) => format!("num_workers({})", text(e)),
                None => "8 (default)".into(),
            };
            format!("blocks of {x} x {y} threads (threadIdx.x x threadIdx.y)")
        } else {
            format!("blocks of {x} threads (threadIdx.x)")
        };
        let grid = match &c.num_gangs {
            Some(e) => format!("num_gangs({}) blocks", text(e)),
            None if k.waves > 1 => {
                let blocks = if k.chunks { "a thread per chunk of 4 trips (2 where an array has 8-byte elements)" } else { "as many blocks as the trips need" };
                format!("{blocks}, at most {} full waves of the GPU ({} at most: a loop of the whole grid, no reduction across its trips, nothing written per block)", k.waves, 4224 * k.waves)
            }
            None => "as many blocks as the trips need, at most one full wave of the GPU (4224 at most)".into(),
        };
        notes.add(at, 0, format!("launch: {block}; grid: {grid}; fewer threads per block if the kernel's registers do not allow them"));
        let shared = if k.group_locals {
            "48 KiB per block (the gang's locals, then 16 bytes per thread for reductions and broadcasts)"
        } else {
            "16 bytes per thread (reductions, broadcasts)"
        };
        let windows = if k.staged.is_empty() { String::new() } else { "; then the `cache!` windows (blockDim.x + their span elements each for windows that move with the loop, their width for those of a loop inside; sized at launch)".to_string() };
        notes.add(at, 0, format!("dynamic shared memory: {shared}{windows}"));
        match k.per_trip {
            (true, true) => notes.add(at, 0, "the outermost loop's trips are shared by a block's workers and vector lanes: one trip per block"),
            (true, false) if !k.uses_worker => notes.add(at, 0, "the outermost loop's trips are shared by a block's threads: one trip per block at a time"),
            (true, false) => notes.add(at, 0, "the outermost loop's trips are shared by a block's vector lanes: one trip per row of lanes (threadIdx.y) at a time"),
            (false, true) => notes.add(at, 0, "the outermost loop's trips are shared by a block's workers"),
            (false, false) => {}
        }
    }
    if !k.captured.is_empty() {
        let names: Vec<String> = k.captured.iter().map(|n| format!("`{n}`")).collect();
        notes.add(at, 0, format!("captures {} by value (host locals)", names.join(", ")));
    }
    for (op, v) in k.reds {
        notes.add(at, 0, format!(
            "{}: thread 0 of each block stores the block's value (a partial); the host folds the partials after the launch and combines them with `{v}`'s value before the loop",
            info::red(*op, v)
        ));
    }
    for v in k.array_reds {
        notes.add(at, 0, format!(
            "`{v}` is an array: each thread's copy in registers (local memory where they do not hold it), its elements combined over the block one after another, each through the scalar block reduction's shared slots; a partial per element and block"
        ));
    }
    for v in k.writebacks {
        notes.add(at, 0, format!("`{v}`, assigned in the nest, comes back to the host (its last value)"));
    }
    for v in k.cells {
        notes.add(at, 0, format!("`{v}` is updated with `atomic!` in a device cell, read back after the launch"));
    }
    for v in k.privates {
        notes.add(at, 0, format!("`{v}` (region-level private): each group of threads sharing a trip of the outermost loop gets its own device copy, filled from the original"));
    }
    // `cache!` windows (dropped by `DeviceBody::lower_macro`).
    struct V<'n>(&'n mut Notes, &'n [Ident], &'n [usize]);
    impl<'ast> syn::visit::Visit<'ast> for V<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if is_acc_path(&m.path, "cache") {
                let ws = crate::front::cache::parse_all(m.tokens.clone()).unwrap_or_default();
                let show = |w: &crate::front::cache::Item| w.show();
                let tiles_staged = self.2.contains(&crate::info::line_of(m.path.span()));
                let (staged, not): (Vec<_>, Vec<_>) = ws.iter().partition(|w| match w {
                    crate::front::cache::Item::Range(w) => self.1.contains(&w.array),
                    crate::front::cache::Item::Tiled(_) => tiles_staged,
                });
                let mut text = Vec::new();
                if !staged.is_empty() {
                    text.push(format!("{}: staged in shared memory (see the loop)", staged.iter().map(|w| show(w)).collect::<Vec<_>>().join(", ")));
                }
                if !not.is_empty() {
                    text.push(format!(
                        "{}: not staged (acc stages a read-only `&[T]` window `a[i - r..=i + r]` that moves with a step-1 loop spread over threadIdx.x alone whose body holds no parallel loop, a window `a[k..k + w]` at the top of a sequential loop in such a loop's body, a 2-D window `a[i * n + (k..k + 16)]` in a sequential loop at the top of a 2-D `tile(x, y)` nest's body, and one at the top of that body, whose ranges may move with the nest, `a[(i - 1..i + 2) * n + (j - 1..j + 2)]`: see the loop's note for why not here); the loads go to global memory, a `&[T]`'s through the read-only cache",
                        not.iter().map(|w| show(w)).collect::<Vec<_>>().join(", ")
                    ));
                }
                self.0.add(m.path.span(), 1, format!("cache!: {}", text.join("; ")));
            }
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut caches = Notes::default();
    syn::visit::Visit::visit_expr_for_loop(&mut V(&mut caches, k.staged, k.staged_tiles), f);
    for mut c in caches.0 {
        // Under the last loop note before it, one level deeper.
        let at = loop_notes.0.iter().rposition(|n| n.line <= c.line);
        c.depth = at.map_or(0, |i| loop_notes.0[i].depth + 1);
        loop_notes.0.insert(at.map_or(0, |i| i + 1), c);
    }
    notes.0.append(&mut loop_notes.0);
}
