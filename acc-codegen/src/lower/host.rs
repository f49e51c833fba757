//! Host lowering: a checked region body written out for the host backend (rayon). Each acc
//! loop the plan runs in parallel becomes `par_for_chunks` / `par_reduce_chunks` over its
//! normalised nest, with `SharedMut` for the arrays its iterations write, `AtomicRef` for the
//! scalars they update with `atomic!` and copies of its privates; `atomic!` becomes the shared or
//! the plain operation; `cache!` (no host meaning) goes. The decisions are the checker's
//! ([`HostPlan`]): nothing is checked here.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, Ident};

use crate::check::body::{HostLoop, HostPlan, ParallelLoop};
use crate::front::loops;
use crate::front::region::{Param, ParamKind};
use crate::front::atomic::AtomicForm;
use crate::lower::atomic;
use crate::paths;
use crate::syntax::{is_acc_path, take_loop_attr};

/// Lowers `body` (checked, without errors) for the host as `plan` says.
pub fn lower(body: &mut syn::Block, plan: HostPlan, params: &[Param]) {
    let mut l = HostLowerer {
        loops: plan.loops.into_iter(),
        atomics: plan.atomics.into_iter(),
        param_kinds: params.iter().map(|p| (p.ident.clone(), p.kind)).collect(),
        tag: 0,
    };
    l.visit_block_mut(body);
    assert!(l.loops.next().is_none() && l.atomics.next().is_none(), "acc internal error: the host plan does not match the body");
}

struct HostLowerer {
    /// The plan's entries not yet met, in the order of the walk.
    loops: std::vec::IntoIter<HostLoop>,
    atomics: std::vec::IntoIter<bool>,
    param_kinds: Vec<(Ident, ParamKind)>,
    tag: usize,
}

impl HostLowerer {
    fn lower_macro(&mut self, m: &syn::Macro) -> Option<Expr> {
        if is_acc_path(&m.path, "cache") {
            return Some(syn::parse_quote!(()));
        }
        if !is_acc_path(&m.path, "atomic") {
            return None;
        }
        let form: AtomicForm = syn::parse2(m.tokens.clone()).expect("a checked atomic form");
        let shared = self.atomics.next().expect("the plan has every atomic");
        let tokens = if shared {
            // Spanned on the place, whose type decides whether the operation exists.
            atomic::expand_shared(&form, form.place().base().span())
        } else {
            atomic::expand_plain(&form)
        };
        Some(syn::parse2(tokens).expect("atomic expansion parses"))
    }

    fn lower_parallel(&mut self, f: ExprForLoop, par: ParallelLoop) -> Expr {
        let rt = paths::runtime();
        let headers = &par.headers;
        // The innermost body of the nest.
        let mut body_loop = f;
        for _ in 1..headers.len() {
            body_loop = loops::only_inner_loop(&body_loop.body).expect("checked nest").clone();
        }
        let mut body = body_loop.body;
        self.visit_block_mut(&mut body);

        // Normalise the nest.
        self.tag += 1;
        let loops::NestSpace { setup, total, bind: bind_vars } = loops::normalise_nest(headers, self.tag, &rt);
        let k = format_ident!("__acc_k");

        let mut shadows = TokenStream::new();
        // Per chunk: copies of the slices into locals (kept in registers for the chunk).
        let mut per_chunk = TokenStream::new();
        let mut per_iter = TokenStream::new();
        for a in &par.shadow_arrays {
            shadows.extend(quote_spanned!(a.span()=> let #a = #rt::SharedMut::new(&mut #a[..]);));
            per_chunk.extend(quote!(#[allow(unused_mut)] let mut #a = #a;));
        }
        for (p, kind) in &self.param_kinds {
            let shadowed = par.shadow_arrays.contains(p) || par.privates.contains(p);
            let used = loops::block_mentions(&body, p);
            if shadowed || !used {
                continue;
            }
            match kind {
                // (Unused when the body only mentions a local of the same name.)
                ParamKind::Slice => per_chunk.extend(quote!(#[allow(unused_variables)] let #p = #p;)),
                ParamKind::SliceMut => per_chunk.extend(quote!(#[allow(unused_variables)] let #p = &*#p;)),
                _ => {}
            }
        }
        for x in &par.atomic_scalars {
            let rt = paths::runtime_at(x.span());
            shadows.extend(quote_spanned!(x.span()=> let #x = #rt::AtomicRef::new(&mut #x);));
        }
        for p in &par.privates {
            let is_slice = self.param_kinds.iter().any(|(n, k)| n == p && matches!(k, ParamKind::Slice | ParamKind::SliceMut));
            if is_slice {
                let buf = format_ident!("__acc_private_{}", p);
                per_iter.extend(quote!(#[allow(unused_mut)] let mut #buf = #p.to_vec(); #[allow(unused_variables)] let #p = &mut #buf[..];));
            } else {
                per_iter.extend(quote!(#[allow(unused_mut)] let mut #p = ::core::clone::Clone::clone(&#p);));
            }
        }
        let body_stmts = &body.stmts;
        let iteration = quote! {
            for #k in __acc_range {
                #per_iter
                #bind_vars
                #[allow(clippy::never_loop)]
                for _ in ::core::iter::once(()) { #(#body_stmts)* }
            }
        };

        let tokens = if par.reductions.is_empty() {
            quote! {{
                #setup
                #shadows
                #rt::par_for_chunks(#total, |__acc_range: ::core::ops::Range<usize>| { #per_chunk #iteration });
            }}
        } else {
            let vars: Vec<&Ident> = par.reductions.iter().map(|r| &r.2).collect();
            let ops: Vec<TokenStream> = par
                .reductions
                .iter()
                .map(|(op, span, _)| {
                    let ty = Ident::new(op.type_name(), *span);
                    quote_spanned!(*span=> #rt::reduce::#ty)
                })
                .collect();
            let idx: Vec<syn::Index> = (0..vars.len()).map(syn::Index::from).collect();
            // Every use of an operator is spanned on its variable, so that a type without the
            // operator is reported once, there.
            let identities = vars.iter().zip(&ops).map(|(v, op)| quote_spanned!(v.span()=> #op.identity(&#v)));
            // The generated names keep the call-site span (hygiene: the user's variable may come
            // from a `macro_rules!` expansion, where `__acc_a` spanned on it would not resolve).
            let combines = vars.iter().zip(&ops).zip(&idx).map(|((v, op), i)| {
                let (a, b) = (quote!(__acc_a.#i), quote!(__acc_b.#i));
                quote_spanned!(v.span()=> #op.combine(#a, #b))
            });
            let finals = vars.iter().zip(&ops).zip(&idx).map(|((v, op), i)| {
                let red = quote!(__acc_red.#i);
                quote_spanned!(v.span()=> #v = #op.combine(#v, #red);)
            });
            quote! {{
                #setup
                #shadows
                let __acc_red = #rt::par_reduce_chunks(
                    #total,
                    || (#(#identities,)*),
                    |(#(mut #vars,)*), __acc_range: ::core::ops::Range<usize>| { #per_chunk #iteration (#(#vars,)*) },
                    |__acc_a, __acc_b| (#(#combines,)*),
                );
                #(#finals)*
            }}
        };
        match syn::parse2(tokens.clone()) {
            Ok(e) => e,
            Err(e) => panic!("acc internal error: the lowered loop does not parse ({e}):\n{tokens}"),
        }
    }
}

impl VisitMut for HostLowerer {
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    fn visit_stmt_mut(&mut self, stmt: &mut syn::Stmt) {
        match stmt {
            syn::Stmt::Local(local) => {
                if let Some(init) = &mut local.init {
                    self.visit_expr_mut(&mut init.expr);
                    if let Some((_, diverge)) = &mut init.diverge {
                        self.visit_expr_mut(diverge);
                    }
                }
            }
            syn::Stmt::Macro(m) => {
                if let Some(e) = self.lower_macro(&m.mac) {
                    let semi = m.semi_token.or_else(|| Some(Default::default()));
                    *stmt = syn::Stmt::Expr(e, semi);
                }
            }
            syn::Stmt::Expr(Expr::Macro(m), semi) => {
                if let Some(e) = self.lower_macro(&m.mac) {
                    *stmt = syn::Stmt::Expr(e, *semi);
                }
            }
            syn::Stmt::Expr(e, _) => self.visit_expr_mut(e),
            syn::Stmt::Item(_) => {}
        }
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        match e {
            Expr::ForLoop(f) => match self.loops.next().expect("the plan has every loop") {
                HostLoop::Plain => {
                    self.visit_expr_mut(&mut f.expr);
                    self.visit_block_mut(&mut f.body);
                }
                HostLoop::Sequential => {
                    take_loop_attr(&mut f.attrs);
                    self.visit_block_mut(&mut f.body);
                }
                HostLoop::Parallel(par) => {
                    let mut taken = std::mem::replace(f, syn::parse_quote!(for _ in 0..0 {}));
                    take_loop_attr(&mut taken.attrs);
                    *e = self.lower_parallel(taken, par);
                }
            },
            Expr::Macro(m) => {
                if let Some(new) = self.lower_macro(&m.mac) {
                    *e = new;
                }
            }
            // (Assigned places after the value, as the checker walked them.)
            Expr::Assign(a) => {
                self.visit_expr_mut(&mut a.right);
                self.visit_expr_mut(&mut a.left);
            }
            Expr::Binary(b) if loops::is_compound_assign(&b.op) => {
                self.visit_expr_mut(&mut b.right);
                self.visit_expr_mut(&mut b.left);
            }
            Expr::Let(l) => self.visit_expr_mut(&mut l.expr),
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
        // In a parallel loop a written array is a `SharedMut` (an `IndexMut` of its own).
        loops::index_first(e, |_| true);
    }
}
