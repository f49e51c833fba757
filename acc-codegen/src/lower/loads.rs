//! Loads first: the reads of read-only arrays that a trip's body makes on every run of it,
//! taken out of the body so that several trips' loads can be issued before any trip's stores
//! (`Scheduler`'s paired worker trips). Neither LLVM (its NVPTX scheduler keeps the order of
//! the source) nor ptxas moves an `ld.global.nc` above an earlier `st.global` of another
//! array: two trips written one after the other keep one load in flight a thread.
//!
//! A read is taken out where moving it earlier cannot change what the program does:
//! - its array is a read-only parameter (`&[T]`: no store of the region changes it) that the
//!   body does not shadow;
//! - its index was proved inside the array at compile time (`acc_device::unchecked`: the
//!   launch's kernel without index checks), and is arithmetic on names the body does not bind
//!   (no call, no other read), so it has the same value, and the read the same element, at
//!   the trip's start;
//! - the body runs it on every run: it stands outside `if`, `match`, `&&`, `||`, loops,
//!   closures, blocks and macros, in a statement before any that may leave the trip
//!   (`continue`, `break`, `return`, `?`, a macro).

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::collections::HashSet;
use syn::visit::Visit;
use syn::{Expr, Ident, Stmt};

/// Several trips of the body `block` (indices lowered), each under its bindings `binds[c]`
/// (statements that bind the loop's variables for trip `c`): every trip's reads of
/// `read_only` arrays first (see [`hoist_reads`]; `__acc_ld{n}_{c}_{m}`), then the trips'
/// bodies in order, each as `body` writes a trip's statements (`schedule::run_once`: a loop of
/// one trip, which `continue` ends).
pub fn trips_loads_first(block: &syn::Block, read_only: &[Ident], n: usize, binds: &[TokenStream], body: fn(&[Stmt]) -> TokenStream) -> TokenStream {
    let mut loads = TokenStream::new();
    let mut bodies = TokenStream::new();
    for (c, bind) in binds.iter().enumerate() {
        let (reads, stmts) = hoist_reads(block, read_only, &|m| quote::format_ident!("__acc_ld{}_{}_{}", n, c, m));
        for (name, read) in reads {
            loads.extend(quote::quote!(let #name = { #bind #read };));
        }
        let once = body(&stmts);
        bodies.extend(quote::quote!({ #bind #once }));
    }
    quote::quote!(#loads #bodies)
}

/// The reads of `read_only` arrays that `block` (a trip's body, its indices lowered) makes on
/// every run, each named by `name(m)` for the m-th: the reads with their names, and the
/// statements with each read replaced by its name.
pub fn hoist_reads(block: &syn::Block, read_only: &[Ident], name: &dyn Fn(usize) -> Ident) -> (Vec<(Ident, Expr)>, Vec<Stmt>) {
    let bound: HashSet<String> = crate::syntax::inner_decls(block).into_iter().collect();
    let mut h = Hoister { read_only, bound: &bound, name, reads: Vec::new() };
    let mut out = Vec::with_capacity(block.stmts.len());
    let mut open = true;
    for s in &block.stmts {
        let mut s = s.clone();
        if open {
            match &mut s {
                Stmt::Local(l) => {
                    if let Some(init) = &mut l.init {
                        if init.diverge.is_none() {
                            h.walk(&mut init.expr);
                        }
                    }
                }
                Stmt::Expr(e, _) => h.walk(e),
                Stmt::Item(_) | Stmt::Macro(_) => {}
            }
            let mut j = Jumps(false);
            j.visit_stmt(&s);
            open = !j.0;
        }
        out.push(s);
    }
    (h.reads, out)
}

/// Whether a statement may leave the trip before its end (or hides how: a macro).
struct Jumps(bool);

impl<'ast> Visit<'ast> for Jumps {
    fn visit_expr_continue(&mut self, _: &'ast syn::ExprContinue) {
        self.0 = true;
    }
    fn visit_expr_break(&mut self, _: &'ast syn::ExprBreak) {
        self.0 = true;
    }
    fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
        self.0 = true;
    }
    fn visit_expr_try(&mut self, _: &'ast syn::ExprTry) {
        self.0 = true;
    }
    fn visit_macro(&mut self, _: &'ast syn::Macro) {
        self.0 = true;
    }
    fn visit_local(&mut self, l: &'ast syn::Local) {
        if l.init.as_ref().is_some_and(|i| i.diverge.is_some()) {
            self.0 = true;
        }
        syn::visit::visit_local(self, l);
    }
}

struct Hoister<'a> {
    read_only: &'a [Ident],
    bound: &'a HashSet<String>,
    name: &'a dyn Fn(usize) -> Ident,
    reads: Vec<(Ident, Expr)>,
}

impl Hoister<'_> {
    /// Takes out the reads of `e` that run whenever `e` does.
    fn walk(&mut self, e: &mut Expr) {
        match e {
            Expr::Index(ix) => {
                if self.takes(&ix.expr, &ix.index) {
                    let n = (self.name)(self.reads.len());
                    let read = std::mem::replace(e, syn::parse_quote!(#n));
                    self.reads.push((n, read));
                } else {
                    self.walk(&mut ix.expr);
                    self.walk(&mut ix.index);
                }
            }
            // A store: the place's index runs, the place itself is not a read.
            Expr::Assign(a) => {
                self.place(&mut a.left);
                self.walk(&mut a.right);
            }
            Expr::Binary(b) => match b.op {
                syn::BinOp::And(_) | syn::BinOp::Or(_) => self.walk(&mut b.left),
                op if crate::front::loops::is_compound_assign(&op) => {
                    self.place(&mut b.left);
                    self.walk(&mut b.right);
                }
                _ => {
                    self.walk(&mut b.left);
                    self.walk(&mut b.right);
                }
            },
            Expr::Unary(u) => self.walk(&mut u.expr),
            Expr::Paren(p) => self.walk(&mut p.expr),
            Expr::Group(g) => self.walk(&mut g.expr),
            Expr::Cast(c) => self.walk(&mut c.expr),
            Expr::Field(f) => self.walk(&mut f.base),
            Expr::Reference(r) => self.walk(&mut r.expr),
            Expr::Tuple(t) => t.elems.iter_mut().for_each(|x| self.walk(x)),
            Expr::Array(a) => a.elems.iter_mut().for_each(|x| self.walk(x)),
            Expr::Call(c) => c.args.iter_mut().for_each(|x| self.walk(x)),
            Expr::MethodCall(m) => {
                self.walk(&mut m.receiver);
                m.args.iter_mut().for_each(|x| self.walk(x));
            }
            _ => {}
        }
    }

    /// The index expressions of a place that is stored to (`b[i] = ..`, `s.f[i] += ..`).
    fn place(&mut self, e: &mut Expr) {
        match e {
            Expr::Index(ix) => {
                self.place(&mut ix.expr);
                self.walk(&mut ix.index);
            }
            Expr::Field(f) => self.place(&mut f.base),
            Expr::Paren(p) => self.place(&mut p.expr),
            _ => {}
        }
    }

    /// Whether `array[index]` is a read to take out.
    fn takes(&self, array: &Expr, index: &Expr) -> bool {
        let Expr::Path(p) = array else { return false };
        let Some(a) = p.path.get_ident() else { return false };
        self.read_only.contains(a) && !self.bound.contains(&a.to_string()) && proved(index) && arithmetic(index, self.bound)
    }
}

/// Whether `index` is one the launch proved (`acc_device::ix(unsafe { unchecked(e) }, ..)`).
fn proved(index: &Expr) -> bool {
    index.to_token_stream().into_iter().any(|t| matches!(&t, proc_macro2::TokenTree::Group(g) if has_ident(g.stream(), "unchecked")))
}

fn has_ident(tokens: TokenStream, name: &str) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == name,
        proc_macro2::TokenTree::Group(g) => has_ident(g.stream(), name),
        _ => false,
    })
}

/// Whether `e` is arithmetic on literals and names `bound` does not hold, through acc's index
/// wrappers (`acc_device::ix`, `acc_device::unchecked`): no read, no call of the user's.
fn arithmetic(e: &Expr, bound: &HashSet<String>) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Path(p) => p.qself.is_none() && p.path.get_ident().is_some_and(|i| !bound.contains(&i.to_string())),
        Expr::Binary(b) => !crate::front::loops::is_compound_assign(&b.op) && arithmetic(&b.left, bound) && arithmetic(&b.right, bound),
        Expr::Unary(u) => !matches!(u.op, syn::UnOp::Deref(_)) && arithmetic(&u.expr, bound),
        Expr::Paren(p) => arithmetic(&p.expr, bound),
        Expr::Group(g) => arithmetic(&g.expr, bound),
        Expr::Cast(c) => arithmetic(&c.expr, bound),
        Expr::Unsafe(u) => matches!(u.block.stmts.as_slice(), [Stmt::Expr(x, None)] if arithmetic(x, bound)),
        Expr::Call(c) => {
            let Expr::Path(f) = &*c.func else { return false };
            let segs: Vec<String> = f.path.segments.iter().map(|s| s.ident.to_string()).collect();
            f.path.leading_colon.is_some() && matches!(segs.iter().map(String::as_str).collect::<Vec<_>>().as_slice(), ["acc_device", "ix" | "unchecked"]) && c.args.iter().all(|a| arithmetic(a, bound))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::format_ident;

    fn hoist(body: TokenStream) -> (Vec<String>, String) {
        let b: syn::Block = syn::parse2(quote::quote!({ #body })).unwrap();
        let ro = [format_ident!("a"), format_ident!("c")];
        let (reads, stmts) = hoist_reads(&b, &ro, &|m| format_ident!("h{}", m));
        let reads = reads.iter().map(|(n, e)| format!("{n} = {}", e.to_token_stream())).collect();
        (reads, quote::quote!(#(#stmts)*).to_string())
    }

    const P: &str = "::acc_device::ix(unsafe { ::acc_device::unchecked(k * n + i) }, 0u32, 0u32)";

    #[test]
    fn proved_reads_of_read_only_arrays_come_out() {
        let p: TokenStream = P.parse().unwrap();
        let (reads, rest) = hoist(quote::quote!(b[#p] = a[#p] * 2 + c[#p];));
        assert_eq!(reads.len(), 2, "{reads:?}");
        assert!(reads[0].starts_with("h0 = a ["), "{reads:?}");
        assert!(reads[1].starts_with("h1 = c ["), "{reads:?}");
        assert!(rest.starts_with("b [") && rest.ends_with("= h0 * 2 + h1 ;"), "{rest}");
    }

    #[test]
    fn other_reads_stay() {
        let p: TokenStream = P.parse().unwrap();
        // Checked indices, a written array, a body's own name, a call, a conditional read.
        let cases = [
            quote::quote!(b[#p] = a[::acc_device::ix(i, 3u32, 4u32)];),
            quote::quote!(b[#p] = b[#p] + 1;),
            quote::quote!(let m = i + 1; b[#p] = a[::acc_device::ix(unsafe { ::acc_device::unchecked(m) }, 0u32, 0u32)];),
            quote::quote!(b[#p] = a[::acc_device::ix(unsafe { ::acc_device::unchecked(f(i)) }, 0u32, 0u32)];),
            quote::quote!(if i > 0 { b[#p] = a[#p]; }),
            quote::quote!(b[#p] = i > 0 && a[#p] > 0;),
            // `a` shadowed by the body: the read is of the local.
            quote::quote!(b[#p] = a[#p]; let a = &b; b[#p] = a[#p];),
        ];
        for c in cases {
            let (reads, _) = hoist(c.clone());
            assert!(reads.is_empty(), "{c}: {reads:?}");
        }
    }

    #[test]
    fn reads_after_a_possible_exit_stay() {
        let p: TokenStream = P.parse().unwrap();
        let (reads, rest) = hoist(quote::quote!(b[#p] = a[#p]; if i == 3 { continue; } b[#p] = c[#p];));
        assert_eq!(reads.len(), 1, "{reads:?}");
        assert!(reads[0].starts_with("h0 = a ["), "{reads:?}");
        assert!(rest.contains("= c ["), "{rest}");
        let (reads, _) = hoist(quote::quote!(let x = a[#p]; debug_assert!(x > 0); b[#p] = c[#p];));
        assert_eq!(reads.len(), 1, "{reads:?}");
    }
}
