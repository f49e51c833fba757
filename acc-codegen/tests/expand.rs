//! Expansion tests: the generated host code contains what the semantics need. They assert
//! specific strings of the pretty-printed output, not whole-file snapshots.

use acc_codegen::model::RegionKind;
use acc_codegen::{expand_region, kernel_name, Source};
use quote::quote;

fn src() -> Source {
    Source { file: "examples/01-vadd.rs".into(), line: 4 }
}

fn region(kind: RegionKind, attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> String {
    // Each token at a place of its own, as in a source file (see `kernels`).
    let item: proc_macro2::TokenStream = item.to_string().parse().expect("tokens");
    let ts = expand_region(kind, attr, item, &src());
    let file: syn::File = syn::parse2(ts.clone()).unwrap_or_else(|e| panic!("expansion does not parse: {e}\n{ts}"));
    prettyplease_lite(&file)
}

/// `syn`'s token printing with whitespace collapsed, enough for `contains` checks.
fn prettyplease_lite(f: &syn::File) -> String {
    quote!(#f).to_string().split_whitespace().collect::<Vec<_>>().join(" ")
}

fn has(s: &str, needle: &str) {
    let needle = needle.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(s.contains(&needle), "expected `{needle}` in:\n{s}");
}

#[test]
fn kernel_names_are_path_based() {
    assert_eq!(kernel_name("examples/01-vadd.rs", 4, "vadd"), "acc_examples_01_vadd_rs_l4_vadd");
    assert_ne!(kernel_name("src/a.rs", 4, "k"), kernel_name("src/b.rs", 4, "k"));
}

#[test]
fn vadd_becomes_par_for_with_shared_output() {
    let s = region(
        RegionKind::Parallel,
        quote!(copyin(a, b), copyout(c)),
        quote! {
            fn vadd(a: &[f32], b: &[f32], c: &mut [f32]) {
                #[acc::r#loop(gang, vector)]
                for i in 0..c.len() { c[i] = a[i] + b[i]; }
            }
        },
    );
    has(&s, r#"kernel : "acc_examples_01_vadd_rs_l4_vadd""#);
    has(&s, r#"__acc_data . enter ("a" , __acc_view :: < f32 > (a) , :: acc :: __private :: Clause :: CopyIn)"#);
    has(&s, r#":: acc :: __private :: Clause :: CopyOut"#);
    has(&s, "let c = :: acc :: __private :: SharedMut :: new (& mut c [..])");
    has(&s, ":: acc :: __private :: par_for_chunks (");
    has(&s, ":: acc :: __private :: trip (__acc_lo8 , __acc_hi8)");
    assert!(!s.contains("r#loop"), "loop attributes must be consumed:\n{s}");
}

#[test]
fn reduction_combines_the_initial_value_once() {
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn dot(a: &[f64], b: &[f64]) -> f64 {
                let mut s = 0.0;
                #[acc::r#loop(gang, vector, reduction(+: s))]
                for i in 0..a.len() { s += a[i] * b[i]; }
                s
            }
        },
    );
    has(&s, ":: acc :: __private :: par_reduce_chunks (");
    has(&s, "(:: acc :: __private :: reduce :: Add . identity (& s) ,)");
    has(&s, "s = :: acc :: __private :: reduce :: Add . combine (s , __acc_red . 0) ;");
    // default data clause of a `&[T]` parameter
    has(&s, r#"enter ("b" , __acc_view :: < f64 > (b) , :: acc :: __private :: Clause :: CopyIn)"#);
}

#[test]
fn inner_reduction_of_an_outer_variable_reduces_the_parallel_loop() {
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn total(a: &[f64], n: usize) -> f64 {
                let mut s = 0.0;
                #[acc::r#loop(gang)]
                for j in 0..n {
                    #[acc::r#loop(vector, reduction(+: s))]
                    for i in 0..n { s += a[j * n + i]; }
                }
                s
            }
        },
    );
    has(&s, "par_reduce");
    has(&s, "Add . combine (s , __acc_red . 0)");
}

#[test]
fn seq_loops_and_serial_regions_stay_sequential() {
    let s = region(
        RegionKind::Serial,
        quote!(),
        quote! {
            fn prefix(a: &mut [i64]) {
                #[acc::r#loop]
                for i in 1..a.len() { a[i] += a[i - 1]; }
            }
        },
    );
    assert!(!s.contains("par_for") && !s.contains("par_reduce"), "{s}");
    has(&s, "for i in 1 .. a . len ()");
}

#[test]
fn kernels_keeps_a_dependent_loop_sequential_and_parallelises_an_independent_one() {
    let s = region(
        RegionKind::Kernels,
        quote!(),
        quote! {
            fn k(a: &mut [f32], b: &mut [f32]) {
                for i in 1..a.len() { a[i] = a[i - 1] + 1.0; }
                for i in 0..b.len() { b[i] = 2.0 * b[i]; }
            }
        },
    );
    assert_eq!(s.matches("par_for_chunks").count(), 1, "{s}");
    has(&s, "for i in 1 .. a . len () { a [i] = a [i - 1] + 1.0 ; }");
}

#[test]
fn collapse_multiplies_trip_counts() {
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn fill(a: &mut [u32], n: usize, m: usize) {
                #[acc::r#loop(gang, vector, collapse(2))]
                for i in 0..n { for j in 0..m { a[i * m + j] = (i + j) as u32; } }
            }
        },
    );
    // Checked: a nest whose iteration count does not fit panics instead of wrapping.
    has(&s, ":: acc :: __private :: nest_trip ([__acc_trip8 , __acc_trip9])");
    has(&s, "let __acc_k1 : usize = (__acc_k) % __acc_trip9 ;");
}

#[test]
fn atomics_in_parallel_loops_use_the_shared_forms() {
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn hist(a: &[u32], h: &mut [u32]) -> u64 {
                let mut count = 0u64;
                #[acc::r#loop(gang, vector)]
                for i in 0..a.len() {
                    acc::atomic!(h[(a[i] % 16) as usize] += 1);
                    acc::atomic!(count += 1);
                }
                count
            }
        },
    );
    has(&s, "let count = :: acc :: __private :: AtomicRef :: new (& mut count) ;");
    has(&s, "h . atomic ((a [i] % 16) as usize) . fetch_add (1)");
    has(&s, "count . fetch_add (1)");
}

#[test]
fn errors_are_emitted_beside_the_item() {
    let s = expand_region(
        RegionKind::Parallel,
        quote!(gang),
        quote! {
            fn f(a: &mut [f32]) {
                #[acc::r#loop(vector)]
                for i in 0..a.len() { a[i] = 0.0; }
            }
        },
        &src(),
    )
    .to_string();
    assert!(s.contains("compile_error"), "{s}");
    assert!(s.contains("`gang` is not allowed on `parallel`"), "{s}");
    assert!(s.contains("fn f"), "the user's item must still be emitted: {s}");
    assert!(!s.contains("r#loop"), "loop attributes are stripped: {s}");
}

#[test]
fn kernels_dependence_sees_inner_variables_and_fields() {
    // `c[j + i]`: `i` varies inside the loop, so iterations of `j` may share elements.
    let s = region(
        RegionKind::Kernels,
        quote!(),
        quote! {
            fn diag(c: &mut [u32], n: usize, m: usize) {
                for j in 0..n { for i in 0..m { c[j + i] += 1; } }
            }
        },
    );
    assert!(!s.contains("par_for"), "{s}");
    // `p[i].x` written, `p[i - 1].x` read: a dependence through a field.
    let s = region(
        RegionKind::Kernels,
        quote!(),
        quote! {
            fn chain(p: &mut [P]) {
                for i in 1..p.len() { p[i].x = p[i - 1].x + 1.0; }
            }
        },
    );
    assert!(!s.contains("par_for"), "{s}");
    // `c[j * m + i]` with `i` over `0..m` is one element per (j, i): parallel.
    let s = region(
        RegionKind::Kernels,
        quote!(),
        quote! {
            fn fill(c: &mut [u32], n: usize, m: usize) {
                for j in 0..n { for i in 0..m { c[j * m + i] = (i + j) as u32; } }
            }
        },
    );
    assert_eq!(s.matches("par_for_chunks").count(), 1, "{s}");
}

#[test]
fn field_writes_share_the_array() {
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn step(p: &mut [P], dt: f32) {
                #[acc::r#loop(gang, vector)]
                for i in 0..p.len() { p[i].x += p[i].v * dt; }
            }
        },
    );
    has(&s, "let p = :: acc :: __private :: SharedMut :: new (& mut p [..])");
}

#[test]
fn atomic_write_form_parses() {
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn flags(a: &[u32], c: &mut [u32]) -> bool {
                let mut any = false;
                #[acc::r#loop(gang, vector)]
                for i in 0..a.len() {
                    acc::atomic!(write any = true);
                    acc::atomic!(write c[i] = a[i] / 2);
                }
                any
            }
        },
    );
    has(&s, "any . store (true)");
    has(&s, "c . atomic (i) . store (a [i] / 2)");
}

#[test]
fn atomic_swap_capture_after_and_if() {
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn forms(c: &mut [u32], ids: &mut [u32], on: bool) -> u32 {
                let mut cell = 7u32;
                #[acc::r#loop(gang, vector)]
                for i in 0..ids.len() {
                    ids[i] = acc::atomic!(capture cell = i as u32);
                    c[i] = acc::atomic!(capture { c[0] += 2; c[0] });
                    acc::atomic!(if(on), c[1] += 1);
                }
                cell
            }
        },
    );
    has(&s, "cell . swap (i as u32)");
    has(&s, "let __acc_v = 2 ; let mut __acc_x = c . atomic (0) . fetch_add (__acc_v) ; __acc_x += __acc_v ; __acc_x");
    has(&s, "let __acc_at = c . atomic (1) ; if on { { let _ = __acc_at . fetch_add (1) ; } } else { { let __acc_old = __acc_at . load () ;");
}

#[test]
fn device_type_host_seq_runs_the_loop_in_order_on_the_host() {
    let item = quote! {
        fn f(a: &mut [u32]) {
            #[acc::r#loop(device_type(nvidia), gang, vector, device_type(host), seq)]
            for i in 0..a.len() { a[i] = 1; }
        }
    };
    let s = region(RegionKind::Parallel, quote!(device_type(nvidia), vector_length(64), device_type(host), num_gangs(3)), item);
    assert!(!s.contains("par_for"), "{s}");
    has(&s, "clause_usize (64usize)");
    has(&s, "clause_usize (3usize)");
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn f(a: &mut [u32]) {
                #[acc::r#loop(seq, device_type(host), gang)]
                for i in 0..a.len() { a[i] = 1; }
            }
        },
    );
    assert!(s.contains("par_for"), "{s}");
}

#[test]
fn routine_bind_checks_the_signature_on_the_host() {
    let item: proc_macro2::TokenStream = quote!(fn twice(x: i64) -> i64 { 2 * x }).to_string().parse().unwrap();
    let s = acc_codegen::expand_routine(quote!(seq, bind(twice_gpu), nohost), item).to_string();
    assert!(s.contains("let _ : fn (i64) -> i64 = twice_gpu ;"), "{s}");
    assert!(s.contains("2 * x"), "the host version stays: {s}");
}

/// A nest's kernel and its lean kernel (the second of `kernels`' output; a third, the lean
/// kernel without the checks the launch proves, `_lean_inb`, where it has one, is left out).
fn nest_and_lean(k: &str) -> (String, String) {
    let name = k.find("_0_lean (").expect("a lean kernel");
    let at = k[..name].rfind("# [no_mangle]").expect("a kernel");
    let (nest, lean) = k.split_at(at);
    let end = lean[1..].find("# [no_mangle]").map_or(lean.len(), |e| e + 1);
    assert!(nest.contains("# [no_mangle]"), "a kernel and its lean kernel:\n{k}");
    (nest.to_string(), lean[..end].to_string())
}

/// The kernels acc-build would compile for `item` (a `#[acc::parallel]` fn).
fn kernels(item: proc_macro2::TokenStream) -> String {
    // Parsed again from its text: each token gets a line and column of its own, as a source
    // file's do (`quote!` gives every token the same span, and the index sites that
    // `bounds::prove` tells apart by where they start would all be one).
    let item: proc_macro2::TokenStream = item.to_string().parse().expect("tokens");
    let f: syn::ItemFn = syn::parse2(item).expect("a fn");
    let attr: syn::Attribute = syn::parse_quote!(#[acc::parallel]);
    let ks = acc_codegen::device_kernels(RegionKind::Parallel, &attr, &f, &src()).unwrap_or_else(|e| panic!("not lowered: {:?}", e.iter().map(|x| &x.1).collect::<Vec<_>>()));
    ks.iter().map(|k| k.to_string()).collect::<Vec<_>>().join("\n")
}

#[test]
fn gang_worker_vector_reduction_finishes_once_over_the_block() {
    // The clause on every level, nothing between the loops reads `s`: the worker and vector
    // loops leave their partials to the gang loop, which combines over the whole block once.
    // (Its trips meet no barrier, so it may run a gang per warp: the block then combines every
    // thread's partial, each group's first thread's where a level was not reduced.)
    let k = kernels(quote! {
        fn gwv(a: &[f64], nk: usize, nj: usize, ni: usize) -> f64 {
            let mut s = 0.0;
            #[acc::r#loop(gang, reduction(+: s))]
            for k in 0..nk {
                #[acc::r#loop(worker, reduction(+: s))]
                for j in 0..nj {
                    #[acc::r#loop(vector, reduction(+: s))]
                    for i in 0..ni {
                        s += a[(k * nj + j) * ni + i];
                    }
                }
            }
            s
        }
    });
    // (The vector loop's reduction takes chunks: the nest also has a lean kernel without
    // them, the same combination.)
    let (k, lean) = nest_and_lean(&k);
    assert!(k.contains("chunk_load") && !lean.contains("chunk_load"), "chunks in the nest's kernel only:\n{k}\n{lean}");
    assert_eq!(lean.matches("block_reduce").count(), 1, "one combination:\n{lean}");
    assert_eq!(k.matches("block_reduce").count(), 1, "one combination:\n{k}");
    assert_eq!(k.matches("group_reduce").count(), 0, "no combination per trip:\n{k}");
    has(&k, "let __acc_mine = if (true || __acc_vtx == 0) && (true || __acc_vty == 0) { s }");
    has(&k, ":: acc_device :: block_reduce_var (__acc_mine , :: acc_device :: ops :: Add . identity (& s) , | a , b | :: acc_device :: ops :: Add . combine (a , b) ,");
    assert!(k.contains("(__acc_vty as usize)") && k.contains("(__acc_vtx as usize)"), "worker and vector levels on the thread indices of a gang:\n{k}");
}

#[test]
fn a_lean_kernel_has_a_twin_without_the_checks_the_launch_proves() {
    // The papers' gang position: the nest's kernel chunks its rows, its lean kernel does not;
    // the launch bounds every index, so the lean kernel has a twin without their checks
    // (`_lean_inb`), whose worker loop runs its trips in pairs: the vector loop inside runs
    // both trips' bodies each trip, both reads of `a` before either store to `b`.
    let k = kernels(quote! {
        fn gang(a: &[f64], b: &mut [f64], c: &[f64], nk: usize, nj: usize, ni: usize) -> f64 {
            let mut s = 0.0;
            #[acc::r#loop(gang, reduction(+: s))]
            for k in 0..nk {
                s += c[k];
                #[acc::r#loop(worker)]
                for j in 0..nj {
                    #[acc::r#loop(vector)]
                    for i in 0..ni {
                        b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2.0;
                    }
                }
            }
            s
        }
    });
    let (_, lean) = nest_and_lean(&k);
    let twin = &k[k.find("_0_lean_inb (").expect("the lean kernel's twin")..];
    assert!(!lean.contains("unchecked (") && !lean.contains("__acc_ulim"), "the lean kernel checks its indices, one trip at a time:\n{lean}");
    assert_eq!(twin.matches(":: acc_device :: unchecked (").count(), 7, "c[k]; a and b in each trip of a pair, and in the trip after the pairs:\n{twin}");
    has(twin, "while __acc_base3 + 2usize * (__acc_vbdy as usize) <= __acc_total3 {");
    has(twin, "let __acc_pair3_1 = { let __acc_k : usize = __acc_base3 + 1usize * (__acc_vbdy as usize) + (__acc_vty as usize) ;");
    // Both loads, then both stores (each store in its trip's body, `j` bound to the trip's).
    let pair = &twin[twin.find("let __acc_ld").expect("loads taken out of the bodies")..];
    let (first, second, store) = (pair.find("let __acc_ld6_0_0 = { let (j ,) = __acc_pair3_0 ; a ["), pair.find("let __acc_ld6_1_0 = { let (j ,) = __acc_pair3_1 ; a ["), pair.find("] = __acc_ld6_0_0 * 2.0"));
    assert!(matches!((first, second, store), (Some(0), Some(x), Some(y)) if x < y), "loads first:\n{pair}");
    assert!(pair.find("] = __acc_ld6_1_0 * 2.0").is_some_and(|x| x > store.unwrap()), "the stores in order:\n{pair}");
    // The trip after the pairs (the loop's odd one) runs its vector loop one trip at a time.
    assert!(!twin.contains("__acc_ulim"), "no rounds of the vector loop:\n{twin}");
}

#[test]
fn a_worker_loop_pairs_its_trips_only_where_its_body_is_one_vector_loop_free_of_them() {
    // The papers' gang worker position (a reduction update beside the vector loop), a vector
    // loop whose bounds name the worker loop's variable, one whose variable shadows it, and one
    // that updates a reduction: their twins keep the worker loop's trips one at a time.
    let cases = [
        quote! {
            fn gw(a: &[f64], b: &mut [f64], c: &[f64], nk: usize, nj: usize, ni: usize) -> f64 {
                let mut s = 0.0;
                #[acc::r#loop(gang)]
                for k in 0..nk {
                    #[acc::r#loop(worker, reduction(+: s))]
                    for j in 0..nj {
                        s += c[k * nj + j];
                        #[acc::r#loop(vector)]
                        for i in 0..ni {
                            b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2.0;
                        }
                    }
                }
                s
            }
        },
        quote! {
            fn tri(a: &[f64], b: &mut [f64], nk: usize, nj: usize, ni: usize) {
                #[acc::r#loop(gang)]
                for k in 0..nk {
                    #[acc::r#loop(worker)]
                    for j in 0..nj {
                        #[acc::r#loop(vector)]
                        for i in 0..j.min(ni) {
                            b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2.0;
                        }
                    }
                }
            }
        },
        quote! {
            fn shadow(a: &[f64], b: &mut [f64], nk: usize, nj: usize, ni: usize) {
                #[acc::r#loop(gang)]
                for k in 0..nk {
                    #[acc::r#loop(worker)]
                    for j in 0..nj {
                        #[acc::r#loop(vector)]
                        for j in 0..ni {
                            b[k * ni + j] = a[k * ni + j] * 2.0;
                        }
                    }
                }
            }
        },
        quote! {
            fn sum(a: &[f64], b: &mut [f64], nk: usize, nj: usize, ni: usize) -> f64 {
                let mut s = 0.0;
                #[acc::r#loop(gang, reduction(+: s))]
                for k in 0..nk {
                    #[acc::r#loop(worker)]
                    for j in 0..nj {
                        #[acc::r#loop(vector)]
                        for i in 0..ni {
                            s += a[(k * nj + j) * ni + i];
                            b[(k * nj + j) * ni + i] = 1.0;
                        }
                    }
                }
                s
            }
        },
    ];
    for (i, item) in cases.into_iter().enumerate() {
        let k = kernels(item);
        let twin = &k[k.find("_0_lean_inb (").unwrap_or_else(|| panic!("a twin without checks:\n{k}"))..];
        assert!(!twin.contains("__acc_pair"), "no pairs:\n{twin}");
        if i == 0 {
            // The gang worker position's vector loop runs in rounds of 2 trips instead: both
            // reads of `a` before either trip's store.
            let round = &twin[twin.find("while __acc_k < __acc_ulim {").expect("rounds")..];
            let loads: Vec<usize> = ["_0_0 = {", "_1_0 = {"].iter().map(|l| round.find(l).unwrap_or_else(|| panic!("load {l}:\n{round}"))).collect();
            let store = round.find("] = __acc_ld").expect("a store of a loaded value");
            assert!(loads[0] < loads[1] && loads[1] < store, "loads first:\n{round}");
        }
    }
}

#[test]
fn a_vector_body_that_reads_the_array_it_writes_has_a_twin_without_checks() {
    // `b[x] = a[x] * 2.0 + b[x] * 0.5`: the read and the write of `b` are two index sites
    // (they start at different columns), both proved, so the nest has its lean twin without
    // checks, whose worker loop runs in pairs; `b`'s reads stay in their bodies (only reads of
    // read-only arrays come first).
    let k = kernels(quote! {
        fn rw(a: &[f64], b: &mut [f64], nk: usize, nj: usize, ni: usize) {
            #[acc::r#loop(gang)]
            for k in 0..nk {
                #[acc::r#loop(worker)]
                for j in 0..nj {
                    #[acc::r#loop(vector)]
                    for i in 0..ni {
                        b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2.0 + b[(k * nj + j) * ni + i] * 0.5;
                    }
                }
            }
        }
    });
    let twin = &k[k.find("_0_lean_inb (").unwrap_or_else(|| panic!("a twin without checks:\n{k}"))..];
    assert!(twin.contains("__acc_pair"), "pairs:\n{twin}");
    let loads: Vec<&str> = twin.match_indices("let __acc_ld").map(|(p, _)| &twin[p..p + twin[p..].find("} ;").expect("a load's end")]).collect();
    assert_eq!(loads.len(), 2, "both trips' reads of `a`:\n{twin}");
    for l in loads {
        assert!(l.contains("a [") && !l.contains("b ["), "{l}");
    }
}

#[test]
fn a_worker_loop_with_a_trip_for_every_warp_runs_a_worker_per_warp() {
    // The papers' worker position: the worker loop's trips hold a vector loop of 32 trips (96 of
    // 128 lanes idle). Where the loop has a trip for every warp of the block, the virtual
    // thread indices make each warp a worker of 32 lanes for the loop, and are restored after
    // it; its reduction is then combined over the block from each warp's first lane.
    let worker = kernels(quote! {
        fn worker(a: &[i32], b: &mut [i32], c: &[i32], out: &mut [i32], nk: usize, nj: usize, ni: usize) {
            #[acc::r#loop(gang)]
            for k in 0..nk {
                let mut t = 0;
                #[acc::r#loop(worker, reduction(+: t))]
                for j in 0..nj {
                    t += c[k * nj + j];
                    #[acc::r#loop(vector)]
                    for i in 0..ni {
                        b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2;
                    }
                }
                out[k] = t;
            }
        }
    });
    let (nest, lean) = nest_and_lean(&worker);
    for k in [&nest, &lean] {
        has(k, "let __acc_ww3 : bool = ! __acc_warps && { let __acc_nt : u32 = __acc_vbdx * __acc_vbdy ; __acc_nt % 32 == 0 && __acc_nt / 32 > __acc_vbdy && __acc_total3 >= (__acc_nt / 32) as usize } ;");
        has(k, "__acc_vbdy = __acc_vbdx * __acc_vbdy / 32 ; __acc_vtx = __acc_tid % 32 ; __acc_vbdx = 32 ; __acc_vty = __acc_tid / 32 ;");
        has(k, "if __acc_ww3 { let __acc_mine = if (false || __acc_vtx == 0) && (true || __acc_vty == 0) { t } else { :: acc_device :: ops :: Add . identity (& t) } ; :: acc_device :: block_reduce_var (__acc_mine");
        has(k, "(__acc_vtx , __acc_vbdx , __acc_vty , __acc_vbdy) = __acc_saved3 ;");
        // The restore comes after the combination, which reads the warp's lanes.
        assert!(k.find("= __acc_saved3").unwrap() > k.find("block_reduce_var (__acc_mine").unwrap(), "restored after the combination:
{k}");
        // The worker loop on the virtual workers, the vector loop on the virtual lanes.
        has(k, "__acc_base3 + (__acc_vty as usize) < __acc_total3");
        has(k, "0usize + (__acc_vtx as usize)");
    }
    // In the nest's kernel, counted rounds of 8, 4, then 2 trips: every index is affine in `j`,
    // so each thread checks once, before its rounds, that each index stays in its array from
    // its first trip to the loop's last (`elem_run_fits`); a round is then one compare, its
    // loads (`c`'s element, then the row's) before any of its trips adds or stores, one start
    // and one step kept per index. Where the check fails, every trip is left to the loop after
    // the rounds. The lean kernel keeps the fewest registers: no rounds.
    let k = &nest;
    has(k, "if __acc_base3 + 2 * (__acc_vbdy as usize) <= __acc_total3 { let __acc_t0 : usize = __acc_base3 + (__acc_vty as usize) ;");
    for a in ["a . elem_run_fits (__acc_e6_0 , __acc_d6_0 , __acc_span)", "b . elem_run_fits (__acc_e6_0 , __acc_d6_0 , __acc_span)", "c . elem_run_fits (__acc_e6_1 , __acc_d6_1 , __acc_span)"] {
        has(k, a);
    }
    has(k, "{ __acc_total3 } else { __acc_base3 }");
    // Rounds of 8 where every array's elements are 4 bytes or less (a test on the types).
    has(k, "while true && b . chunk_elem_size () <= 4 && a . chunk_elem_size () <= 4 && c . chunk_elem_size () <= 4 && __acc_base3 + 8usize * (__acc_vbdy as usize) <= __acc_wend");
    for r in [4, 2] {
        has(k, &format!("while true && __acc_base3 + {r}usize * (__acc_vbdy as usize) <= __acc_wend"));
    }
    assert!(!k.contains("elem_fits (") && !k.contains("break ;"), "no check a round:\n{k}");
    let round = &k[k.find("8usize * (__acc_vbdy as usize) <= __acc_wend").unwrap()..k.find("while true && __acc_base3 + 4usize").unwrap()];
    assert_eq!(round.matches("a . elem_load (").count(), 8, "a load of `a` a trip:\n{round}");
    assert_eq!(round.matches("c . elem_load (").count(), 8, "a load of `c` a trip:\n{round}");
    assert_eq!(round.matches("b . elem_store (").count(), 8, "a store of `b` a trip:\n{round}");
    let last_load = round.rfind("elem_load (").unwrap();
    assert!(last_load < round.find("t += __acc_y").unwrap() && last_load < round.find("elem_store (").unwrap(), "loads first:\n{round}");
    has(round, "a . elem_load (__acc_e6_0 . wrapping_add (__acc_d6_0 . wrapping_mul (7usize)))");
    has(round, "__acc_e6_1 = __acc_e6_1 . wrapping_add (__acc_d6_1 . wrapping_mul (8usize)) ;");
    assert!(!lean.contains("elem_load"), "no rounds in the lean kernel:\n{lean}");
    // An index not affine in `j` (`c[j % 7]`): no check once for all trips; each round of 4,
    // then 2 checks its own trips and leaves on a failed check, as before.
    let modulo = kernels(quote! {
        fn worker_mod(a: &[i32], b: &mut [i32], c: &[i32], out: &mut [i32], nk: usize, nj: usize, ni: usize) {
            #[acc::r#loop(gang)]
            for k in 0..nk {
                let mut t = 0;
                #[acc::r#loop(worker, reduction(+: t))]
                for j in 0..nj {
                    t += c[j % 7];
                    #[acc::r#loop(vector)]
                    for i in 0..ni {
                        b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2;
                    }
                }
                out[k] = t;
            }
        }
    });
    let (k, _) = nest_and_lean(&modulo);
    assert!(!k.contains("elem_run_fits") && !k.contains("8usize *"), "no counted rounds:\n{k}");
    for r in [4, 2] {
        has(&k, &format!("while __acc_base3 + {r}usize * (__acc_vbdy as usize) <= __acc_total3"));
    }
    assert_eq!(k.matches("__acc_ok6_3) { break ; }").count(), 1, "a round of 4 leaves on a failed check:\n{k}");
    has(&k, "== __acc_e6_0 . wrapping_add (__acc_d6_0 . wrapping_mul (3usize))");
    // The gang-worker position: the gang's reduction is left to the nest's end, a worker's lanes
    // holding equal copies: the first lane of each keeps its value, the copies are combined
    // over the whole block. Its worker loop takes rounds too.
    let gw = kernels(quote! {
        fn gw(a: &[f64], b: &mut [f64], c: &[f64], nk: usize, nj: usize, ni: usize) -> f64 {
            let mut s = 0.0;
            #[acc::r#loop(gang, reduction(+: s))]
            for k in 0..nk {
                #[acc::r#loop(worker, reduction(+: s))]
                for j in 0..nj {
                    s += c[k * nj + j];
                    #[acc::r#loop(vector)]
                    for i in 0..ni {
                        b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2.0;
                    }
                }
            }
            s
        }
    });
    let (nest, _) = nest_and_lean(&gw);
    has(&nest, "if __acc_vtx != 0 { s = :: acc_device :: ops :: Add . identity (& s) ; }");
    has(&nest, "s += __acc_y");
    has(&nest, "let __acc_mine = if (true || __acc_vtx == 0) && (true || __acc_vty == 0) { s }");
    // A worker body with a statement its leader runs (the vector position's store) uses the
    // block's own thread indices: its workers stay the block's.
    let rows = kernels(quote! {
        fn rows(a: &[i32], out: &mut [i32], nk: usize, nj: usize, ni: usize) {
            #[acc::r#loop(gang)]
            for k in 0..nk {
                #[acc::r#loop(worker)]
                for j in 0..nj {
                    let mut t = 0;
                    #[acc::r#loop(vector, reduction(+: t))]
                    for i in 0..ni {
                        t += a[(k * nj + j) * ni + i];
                    }
                    out[k * nj + j] = t;
                }
            }
        }
    });
    assert!(!rows.contains("__acc_saved") && !rows.contains("elem_load"), "no worker per warp, no rounds:\n{rows}");
    // A worker body whose vector loop reduces keeps its loop (the worker-vector position).
    let wv = kernels(quote! {
        fn wv(a: &[f32], out: &mut [f32], nk: usize, nj: usize, ni: usize) {
            #[acc::r#loop(gang)]
            for k in 0..nk {
                let mut t = 0.0;
                #[acc::r#loop(worker, reduction(+: t))]
                for j in 0..nj {
                    #[acc::r#loop(vector, reduction(+: t))]
                    for i in 0..ni {
                        t += a[(k * nj + j) * ni + i];
                    }
                }
                out[k] = t;
            }
        }
    });
    assert!(wv.contains("__acc_saved") && !wv.contains("elem_load"), "a worker per warp, no rounds:\n{wv}");
}

#[test]
fn a_nest_whose_inner_loops_take_chunks_gets_a_lean_kernel_without_them() {
    // The papers' gang worker shape: the vector loop's copy takes chunks in the nest's kernel;
    // its lean kernel (which the host launches where it fits more blocks, or where each warp
    // takes gang trips of its own) has none, and keeps the gang per warp.
    let k = kernels(quote! {
        fn gw(a: &[f64], b: &mut [f64], c: &[f64], nk: usize, nj: usize, ni: usize) -> f64 {
            let mut s = 0.0;
            #[acc::r#loop(gang, reduction(+: s))]
            for k in 0..nk {
                #[acc::r#loop(worker, reduction(+: s))]
                for j in 0..nj {
                    s += c[k * nj + j];
                    #[acc::r#loop(vector)]
                    for i in 0..ni {
                        b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2.0;
                    }
                }
            }
            s
        }
    });
    let (nest, lean) = nest_and_lean(&k);
    assert!(nest.contains("chunk_load") && nest.contains("__acc_warps = true"), "the nest's kernel: chunks, a gang per warp where it can:\n{nest}");
    assert!(!lean.contains("chunk_load") && lean.contains("__acc_warps = true"), "the lean kernel: no chunks, a gang per warp where it can:\n{lean}");
    assert_eq!(nest.matches("block_reduce").count(), 1, "one combination:\n{nest}");
    assert_eq!(lean.matches("block_reduce").count(), 1, "one combination:\n{lean}");
    // A streaming loop at the top takes chunks in its one kernel.
    let one = kernels(quote! {
        fn copy(a: &[f32], c: &mut [f32]) {
            #[acc::r#loop(gang, vector)]
            for i in 0..c.len() {
                c[i] = a[i];
            }
        }
    });
    assert_eq!(one.matches("extern \"ptx-kernel\" fn").count(), 1, "one kernel:\n{one}");
    assert!(one.contains("chunk_load"), "chunks:\n{one}");
}

#[test]
fn a_reduction_over_an_inner_loop_takes_chunks_in_rounds_and_its_nest_a_lean_kernel() {
    // The papers' vector position: the row sums load 4, then 2, then 1 chunks of 16 bytes a
    // round; which chunks lie in the array is counted once before the rounds (no round checks
    // anything), and the chunks past it run one trip at a time; the lean kernel keeps the
    // unrolled rounds of single trips.
    let f = quote! {
        fn rows(a: &[i32], out: &mut [i32], nk: usize, nj: usize, ni: usize) {
            #[acc::r#loop(gang)]
            for k in 0..nk {
                #[acc::r#loop(worker)]
                for j in 0..nj {
                    let mut t = 0;
                    #[acc::r#loop(vector, reduction(+: t))]
                    for i in 0..ni {
                        t += a[(k * nj + j) * ni + i];
                    }
                    out[k * nj + j] = t;
                }
            }
        }
    };
    let (nest, lean) = nest_and_lean(&kernels(f.clone()));
    has(&nest, "let __acc_fit : usize = __acc_nch . min (a . chunk_count :: < 4usize > (__acc_b");
    for r in [12, 4, 2, 1] {
        has(&nest, &format!("let __acc_lim = __acc_fit . saturating_sub ({}usize * __acc_stride) ;", r - 1));
    }
    assert!(!nest.contains("chunk_fits"), "no round checks its chunks:\n{nest}");
    has(&nest, "while __acc_ch < __acc_nch {");
    assert_eq!(nest.matches("a . chunk_load :: < 4usize >").count(), 12 + 4 + 2 + 1, "12, 4, 2 and 1 chunks of 4-byte elements a round:\n{nest}");
    assert!(!lean.contains("chunk_load") && lean.contains("let __acc_lim = __acc_total"), "the lean kernel: unrolled rounds, no chunks:\n{lean}");
    // The launch tells the runtime that a reduction takes chunks (the lean kernel runs where
    // the blocks fill the GPU).
    let host = region(RegionKind::Parallel, quote!(num_workers(8), vector_length(128)), f);
    // (Its lean kernel without the checks the launch proves where their bounds hold.)
    has(&host, "if __acc_bounded { \"acc_examples_01_vadd_rs_l4_rows_0_lean_inb\" } else { \"acc_examples_01_vadd_rs_l4_rows_0_lean\" } } , per_warp : false , chunked_reductions : true }");
    // A reduction over the top loop has no lean kernel to fall back on: its unrolled rounds.
    let top = kernels(quote! {
        fn sum(a: &[f32]) -> f32 {
            let mut s = 0.0;
            #[acc::r#loop(gang, vector, reduction(+: s))]
            for i in 0..a.len() {
                s += a[i];
            }
            s
        }
    });
    assert_eq!(top.matches("extern \"ptx-kernel\" fn").count(), 1, "one kernel:\n{top}");
    assert!(!top.contains("chunk_load"), "no chunks:\n{top}");
}

#[test]
fn a_row_value_read_between_loops_is_finished_per_row() {
    // `t` is stored after the vector loop: that loop finishes its reduction over the lanes, and
    // the lanes' leader stores it.
    let k = kernels(quote! {
        fn rows(a: &[f64], out: &mut [f64], n: usize, m: usize) {
            #[acc::r#loop(gang)]
            for r in 0..n {
                let mut t = 0.0;
                #[acc::r#loop(vector, reduction(+: t))]
                for c in 0..m {
                    t += a[r * m + c];
                }
                out[r] = t;
            }
        }
    });
    let (k, lean) = nest_and_lean(&k);
    assert_eq!(lean.matches("group_reduce").count(), 1, "{lean}");
    assert_eq!(k.matches("group_reduce").count(), 1, "{k}");
    has(&k, "| a , b | :: acc_device :: ops :: Add . combine (a , b) , true , false ,");
    has(&k, "if :: acc_device :: thread_idx_x () == 0 { out [r] = t ; }");
}

#[test]
fn a_sequential_loop_around_vector_loops_in_a_worker_loop_stays_on_the_host() {
    // Its trip count may differ between workers, and the vector reduction inside meets at
    // block barriers: the GPU lowering refuses it (the region runs on the host, with a cargo
    // warning), rather than risk a hang.
    let f: syn::ItemFn = syn::parse_quote! {
        fn tri(a: &[f64], out: &mut [f64], n: usize) {
            #[acc::r#loop(gang)]
            for k in 0..n {
                #[acc::r#loop(worker)]
                for j in 0..n {
                    let mut t = 0.0;
                    for q in 0..j {
                        #[acc::r#loop(vector, reduction(+: t))]
                        for i in 0..n {
                            t += a[q * n + i];
                        }
                    }
                    out[k * n + j] = t;
                }
            }
        }
    };
    let attr: syn::Attribute = syn::parse_quote!(#[acc::parallel]);
    let e = acc_codegen::device_kernels(RegionKind::Parallel, &attr, &f, &src()).expect_err("refused on the GPU");
    assert!(e.iter().any(|(_, m)| m.contains("sequential loop around parallel loops inside a worker")), "{:?}", e.iter().map(|x| &x.1).collect::<Vec<_>>());
}

#[test]
fn a_region_the_gpu_cannot_take_is_a_compile_error_of_the_gpu_build() {
    // `continue` in a worker loop that holds vector loops: its threads would skip different
    // barriers. The GPU build (`cfg(acc_kernels)`) rejects it on the `continue`; the host
    // build compiles it.
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn f(a: &mut [f32], n: usize) {
                #[acc::r#loop(gang)]
                for j in 0..n {
                    #[acc::r#loop(worker)]
                    for w in 0..n {
                        if w == 0 { continue; }
                        #[acc::r#loop(vector)]
                        for i in 0..n { a[i] = 1.0; }
                    }
                }
            }
        },
    );
    has(&s, "# [cfg (acc_kernels)] :: core :: compile_error ! (\"on the GPU, `continue` in a worker or vector loop");
    assert!(!s.contains("gpu_ready"), "no GPU path for a refused region:\n{s}");
}

#[test]
fn a_region_acc_build_did_not_see_is_a_compile_error() {
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn vadd(a: &mut [f32]) {
                #[acc::r#loop(gang, vector)]
                for i in 0..a.len() { a[i] += 1.0; }
            }
        },
    );
    has(&s, r#"# [cfg (all (acc_kernels , not (acc_region = "acc_examples_01_vadd_rs_l4_vadd")))] :: core :: compile_error !"#);
}

#[test]
fn clause_numbers_reach_the_runtime_without_casts() {
    // Counts and queues of any integer type go through `clause_usize` / `queue_i64`, not `as`
    // (clippy's `unnecessary_cast` on the user's token, and a float silently truncated); an
    // unsuffixed literal keeps the type `as` gave it.
    let s = region(
        RegionKind::Parallel,
        quote!(num_gangs(g), vector_length(1024), async(q), wait(3)),
        quote! {
            fn zero(a: &mut [f32], g: u32, q: i32) {
                #[acc::r#loop(gang, vector)]
                for i in 0..a.len() { a[i] = 0.0; }
            }
        },
    );
    has(&s, "let _ : usize = :: acc :: __private :: clause_usize (g) ;");
    has(&s, "let _ : usize = :: acc :: __private :: clause_usize (1024usize) ;");
    has(&s, "__ACC_REGION . queue (:: acc :: __private :: queue_i64 (q))");
    has(&s, ":: acc :: __private :: wait_before (__acc_queue , __acc_gpu , :: core :: option :: Option :: Some (& [:: acc :: __private :: queue_i64 (3i64)]))");
    has(&s, "Shape { iterations : __acc_total , num_gangs : :: acc :: __private :: clause_usize (g) , vector_length : :: acc :: __private :: clause_usize (1024usize) , serial : false ,");
    for cast in ["(g) as usize", "(1024) as usize", "(q) as i64"] {
        assert!(!s.contains(cast), "`{cast}` in:\n{s}");
    }
}

#[test]
fn self_runs_on_the_host_with_coherent_arrays() {
    let s = region(
        RegionKind::Parallel,
        quote!(self),
        quote! {
            fn inc(a: &mut [f32], b: &[f32]) {
                #[acc::r#loop(gang, vector)]
                for i in 0..a.len() { a[i] += b[i]; }
            }
        },
    );
    assert!(!s.contains("gpu_ready") && !s.contains("acc_region"), "`self` has no GPU path:\n{s}");
    has(&s, "let __acc_if : bool = false ;");
    has(&s, r#"__acc_coherent . write ("a" , a) ;"#);
    has(&s, r#"__acc_coherent . read ("b" , b) ;"#);
}

#[test]
fn an_if_around_vector_loops_in_a_gang_loop_is_a_branch_of_the_gang() {
    // Every thread of the gang holds the same trip and locals: the `if` stays a branch, with
    // the vector loops (and their barriers) inside it.
    let k = kernels(quote! {
        fn rows(a: &[f64], out: &mut [f64], n: usize, m: usize) {
            #[acc::r#loop(gang)]
            for r in 0..n {
                if a[r * m] > 1.0 {
                    let mut t = 0.0;
                    #[acc::r#loop(vector, reduction(+: t))]
                    for c in 0..m { t += a[r * m + c]; }
                    out[r] = t;
                } else if r % 2 == 0 {
                    #[acc::r#loop(vector)]
                    for c in 0..m { out[r * m + c] = 0.0; }
                }
            }
        }
    });
    // (The zeroing loop takes chunks: the nest also has a lean kernel, compared here.)
    let at = k.rfind("# [no_mangle]").expect("a kernel");
    let (k, lean) = k.split_at(at);
    assert!(lean.contains("_lean (") && !lean.contains("chunk_store") && k.contains("chunk_store"), "a lean kernel:\n{lean}");
    has(k, "if a [r * m] > 1.0 {");
    has(k, "} else { let mut __acc_shared_end5 : usize = __acc_shared_end2 ; if r % 2 == 0 {");
    assert_eq!(k.matches("group_reduce").count(), 1, "the branch's reduction finishes in it:\n{k}");
    has(k, "if :: acc_device :: thread_idx_x () == 0 { out [r] = t ; }");
}

#[test]
fn the_gpu_refuses_a_jump_out_of_a_statement_only_the_leader_runs() {
    // The store runs in the gang's leader only: its `break` would leave the other threads in
    // the loop, at the vector loop's barriers.
    let f: syn::ItemFn = syn::parse_quote! {
        fn f(a: &mut [f64], n: usize) {
            #[acc::r#loop(gang)]
            for r in 0..n {
                for step in 0..4 {
                    if step == 2 { a[r] = 1.0; break; }
                    #[acc::r#loop(vector)]
                    for c in 0..n { a[r * n + c] += 1.0; }
                }
            }
        }
    };
    let attr: syn::Attribute = syn::parse_quote!(#[acc::parallel]);
    let e = acc_codegen::device_kernels(RegionKind::Parallel, &attr, &f, &src()).expect_err("refused on the GPU");
    assert!(e.iter().any(|(_, m)| m.contains("cannot `break` or `return` out of the loop around it")), "{:?}", e.iter().map(|x| &x.1).collect::<Vec<_>>());
}

#[test]
fn an_if_around_vector_loops_in_a_worker_loop_is_refused_on_the_gpu() {
    let f: syn::ItemFn = syn::parse_quote! {
        fn f(a: &mut [f64], n: usize) {
            #[acc::r#loop(gang)]
            for r in 0..n {
                #[acc::r#loop(worker)]
                for w in 0..n {
                    if w % 2 == 0 {
                        #[acc::r#loop(vector)]
                        for c in 0..n { a[(r * n + w) * n + c] = 1.0; }
                    }
                }
            }
        }
    };
    let attr: syn::Attribute = syn::parse_quote!(#[acc::parallel]);
    let e = acc_codegen::device_kernels(RegionKind::Parallel, &attr, &f, &src()).expect_err("refused on the GPU");
    assert!(e.iter().any(|(_, m)| m.contains("under `if` inside a worker or vector loop")), "{:?}", e.iter().map(|x| &x.1).collect::<Vec<_>>());
}

/// Both callers run the same checks (`front_end`): a region the macro rejects gets no kernels
/// from acc-build and no error of acc-build's (the macro reports it once); what only acc-build
/// sees (a method's field whose declared type is not an array) is acc-build's to report.
#[test]
fn the_build_helper_runs_the_macros_checks_and_reports_only_its_own() {
    let item = quote! {
        fn f(a: &mut [f32], n: usize) {
            #[acc::r#loop(gang)]
            for i in 0..n {
                if a[i] < 0.0 {
                    break;
                }
                a[i] = 1.0;
            }
        }
    };
    let host = expand_region(RegionKind::Parallel, quote!(), item.clone(), &src()).to_string();
    assert!(host.contains("`break` cannot leave a parallel acc loop"), "{host}");
    let f: syn::ItemFn = syn::parse2(item).unwrap();
    let attr: syn::Attribute = syn::parse_quote!(#[acc::parallel]);
    let r = acc_codegen::device_region(RegionKind::Parallel, &attr, &f, &src(), &|_| None);
    assert!(r.forms.is_empty() && r.errors.is_empty() && r.refused.is_none() && r.reports.is_empty());

    // A method whose field `u` the body indexes: an array to the macro, a `usize` to acc-build.
    let method = quote! {
        fn m(&mut self, n: usize) {
            #[acc::r#loop(gang)]
            for i in 0..n {
                self.u[i] = 0.0;
            }
        }
    };
    let f: syn::ItemFn = syn::parse2(method.clone()).unwrap();
    let host = expand_region(RegionKind::Parallel, quote!(), method, &src()).to_string();
    // (Its one `compile_error!` is the GPU build's check that acc-build saw the region.)
    assert_eq!(host.matches("compile_error !").count(), 1, "the macro reports nothing: {host}");
    let usize_field = |_: &syn::Member| Some(syn::parse_quote!(usize));
    let r = acc_codegen::device_region(RegionKind::Parallel, &attr, &f, &src(), &usize_field);
    assert!(r.forms.is_empty());
    let msgs: Vec<&String> = r.errors.iter().map(|e| &e.1).collect();
    assert!(msgs.len() == 1 && msgs[0].contains("its type `usize` does not slice to the device"), "acc-build reports the field's type: {msgs:?}");
}

/// The kernels acc-build would compile for `item`, a `#[acc::kernels]` fn.
fn kernels_of_kernels_region(item: proc_macro2::TokenStream) -> String {
    let f: syn::ItemFn = syn::parse2(item).expect("a fn");
    let attr: syn::Attribute = syn::parse_quote!(#[acc::kernels]);
    let ks = acc_codegen::device_kernels(RegionKind::Kernels, &attr, &f, &src()).unwrap_or_else(|e| panic!("not lowered: {:?}", e.iter().map(|x| &x.1).collect::<Vec<_>>()));
    ks.iter().map(|k| k.to_string()).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_kernels_nest_with_a_reduction_takes_the_grid_and_combines_each_block() {
    // NVIDIA's Jacobi step as written for OpenACC (no `independent`: the dependence test
    // proves it): both loops on the grid (y, x), each thread's `err` combined over the whole
    // block, one partial per block at its linear index.
    let k = kernels_of_kernels_region(quote! {
        fn step(a: &[f64], anew: &mut [f64], n: usize, m: usize) -> f64 {
            let mut err = 0.0f64;
            #[acc::r#loop(reduction(max: err))]
            for j in 1..n - 1 {
                #[acc::r#loop(reduction(max: err))]
                for i in 1..m - 1 {
                    let v = 0.25 * (a[j * m + i - 1] + a[j * m + i + 1] + a[(j - 1) * m + i] + a[(j + 1) * m + i]);
                    err = err.max((v - a[j * m + i]).abs());
                    anew[j * m + i] = v;
                }
            }
            err
        }
    });
    assert!(k.contains("grid_dim_y") && k.contains("block_idx_y"), "the outer loop on the grid's y:\n{k}");
    has(&k, "block_reduce_xyz_var (err , :: acc_device :: ops :: Max . identity (& err) , | a , b | :: acc_device :: ops :: Max . combine (a , b) , :: acc_device :: dynamic_shared ())");
    has(&k, "store_grid_partial_var (__acc_partials , (0usize) , __acc_v)");
    assert!(!k.contains("group_reduce"), "no one-dimensional combine:\n{k}");
}

#[test]
fn a_reduction_read_in_the_body_keeps_the_one_dimensional_schedule() {
    // `s` is stored as well as updated: the nest keeps the one-dimensional schedule.
    let k = kernels_of_kernels_region(quote! {
        fn f(a: &[i64], out: &mut [i64], n: usize, m: usize) -> i64 {
            let mut s = 0i64;
            #[acc::r#loop(independent, reduction(+: s))]
            for i in 0..n {
                #[acc::r#loop(independent, reduction(+: s))]
                for j in 0..m {
                    s += a[i * m + j];
                    out[i * m + j] = s;
                }
            }
            s
        }
    });
    assert!(!k.contains("block_reduce_xyz") && !k.contains("grid_dim_y"), "{k}");
    assert!(k.contains("group_reduce"), "{k}");
}

#[test]
fn streaming_loops_of_the_whole_grid_may_take_eight_waves_of_blocks() {
    // A top-level `gang, vector` loop with no parallel loop or reduction inside, staging a
    // `cache!` window or not, and a gang loop over vector loops: up to 8 waves of blocks.
    // Those that write partials (a reduction) or hold worker loops keep one wave. One that
    // takes chunks: a thread per chunk, up to 128 waves, the chunk's trips set by its arrays'
    // element sizes as the kernel sets them.
    let waves = |item: proc_macro2::TokenStream| {
        let code = region(RegionKind::Parallel, quote!(), item);
        assert!(code.contains("chunk : 1usize"), "{code}");
        code.contains("waves : 8usize")
    };
    let copy = region(RegionKind::Parallel, quote!(), quote! {
        fn copy(a: &[f32], c: &mut [f32]) {
            #[acc::r#loop(gang, vector)]
            for i in 0..c.len() { c[i] = a[i]; }
        }
    });
    assert!(copy.contains("waves : 128usize , chunk : if true && :: acc :: __private :: elem_size (& * a) <= 4 && :: acc :: __private :: elem_size (& * c) <= 4 { 4usize } else { 2usize }")
        || copy.contains("waves : 128usize , chunk : if true && :: acc :: __private :: elem_size (& * c) <= 4 && :: acc :: __private :: elem_size (& * a) <= 4 { 4usize } else { 2usize }"), "{copy}");
    assert!(waves(quote! {
        fn stencil(a: &[f32], b: &mut [f32]) {
            #[acc::r#loop(gang, vector)]
            for i in 1..a.len() - 1 { b[i] = a[i - 1] + a[i + 1]; }
        }
    }));
    assert!(!waves(quote! {
        fn sum(a: &[f32]) -> f32 {
            let mut s = 0.0;
            #[acc::r#loop(gang, vector, reduction(+: s))]
            for i in 0..a.len() { s += a[i]; }
            s
        }
    }));
    assert!(waves(quote! {
        fn rows(a: &[f32], b: &mut [f32], n: usize) {
            #[acc::r#loop(gang)]
            for k in 0..n {
                #[acc::r#loop(vector)]
                for i in 0..n { b[k * n + i] = a[k * n + i]; }
            }
        }
    }));
    assert!(!waves(quote! {
        fn planes(a: &[f32], b: &mut [f32], n: usize) {
            #[acc::r#loop(gang)]
            for k in 0..n {
                #[acc::r#loop(worker)]
                for j in 0..n {
                    #[acc::r#loop(vector)]
                    for i in 0..n { b[(k * n + j) * n + i] = a[(k * n + j) * n + i]; }
                }
            }
        }
    }));
    assert!(!waves(quote! {
        fn row_sums(a: &[f32], n: usize) -> f32 {
            let mut s = 0.0;
            #[acc::r#loop(gang, reduction(+: s))]
            for k in 0..n {
                #[acc::r#loop(vector, reduction(+: s))]
                for i in 0..n { s += a[k * n + i]; }
            }
            s
        }
    }));
    assert!(waves(quote! {
        fn staged(a: &[f32], b: &mut [f32]) {
            #[acc::r#loop(gang, vector)]
            for i in 1..a.len() - 1 {
                acc::cache!(a[i - 1..=i + 1]);
                b[i] = a[i - 1] + a[i + 1];
            }
        }
    }));
}

#[test]
fn the_gpu_path_types_the_kernels_locals_from_their_loop_as_the_host_path_does() {
    let s = region(
        RegionKind::Parallel,
        quote!(),
        quote! {
            fn norm2(x: &[f64]) -> f64 {
                let mut s = 0.0;
                #[acc::r#loop(gang, vector, reduction(+: s))]
                for i in 0..x.len() {
                    acc::cache!(x[i..i + 1]);
                    s += x[i] * x[i];
                }
                s.sqrt()
            }
        },
    );
    // The GPU path (before the host path's `par_reduce_chunks`): the launch, and beside it the
    // loop as host code in a closure never called, without acc's loop attribute and hints, so
    // that `s` is an `f64` there too.
    let gpu = &s[s.find("if __acc_gpu").expect("a GPU path")..s.find("par_reduce_chunks").expect("a host path")];
    has(gpu, "# [allow (unused , unreachable_code , clippy :: all)] let _ = | | { for i in 0 .. x . len () { () ; s += x [i] * x [i] ; } } ;");
    has(gpu, ":: acc :: __private :: launch (");
    assert!(!gpu.contains("r#loop") && !gpu.contains("cache !"), "{gpu}");
}

#[test]
fn a_closure_that_reads_an_array_is_built_again_in_each_kernel() {
    // `weight` reads `w`: binding it reads nothing, so no one-thread kernel computes it (its
    // value would be a closure holding that kernel's addresses); the nest's kernel builds it
    // again after taking `scale`, as it does `at`.
    let k = kernels(quote! {
        fn closures(z: &mut [f64], w: &[f64], n: usize) {
            let at = |i: usize| i % n;
            let scale = 0.5;
            let weight = |k: usize| scale * w[k % w.len()];
            #[acc::r#loop(gang, vector)]
            for i in 0..n {
                z[at(i)] = weight(i);
            }
        }
    });
    assert_eq!(k.matches("# [no_mangle]").count() - k.matches("_inb (").count() - k.matches("_lean (").count(), 1, "one kernel, the nest's:\n{k}");
    has(&k, "let mut weight = | k : usize | scale * w [k % w . len ()]");
    assert!(!k.contains("take (& mut __acc_off , | | { # [allow (unused_mut , unused_variables)] let weight"), "weight taken as bytes:\n{k}");
}

#[test]
fn loop_sizes_in_kernels_set_a_one_dimensional_launch() {
    // `gang(n)`, `worker(4)`, `vector(32)` on a kernels nest's loops: its launch's gangs,
    // workers and vector lanes, as the region's clauses would (a CG mat-vec's inner
    // `vector(32)` loop).
    let s = region(
        RegionKind::Kernels,
        quote!(),
        quote! {
            fn matvec(a: &[f64], x: &[f64], y: &mut [f64], n: usize, g: usize) {
                #[acc::r#loop(gang(g), worker(4))]
                for i in 0..n {
                    let mut s = 0.0;
                    #[acc::r#loop(vector(32), reduction(+: s))]
                    for j in 0..n {
                        s += a[i * n + j] * x[j];
                    }
                    y[i] = s;
                }
            }
        },
    );
    has(&s, "num_gangs : :: acc :: __private :: clause_usize (g)");
    has(&s, "vector_length : :: acc :: __private :: clause_usize (32usize)");
    has(&s, "num_workers : :: acc :: __private :: clause_usize (4usize)");
    // A region's clause wins over a loop's size.
    let s = region(
        RegionKind::Kernels,
        quote!(vector_length(64)),
        quote! {
            fn scale(y: &mut [f64]) {
                #[acc::r#loop(gang, vector(32))]
                for i in 0..y.len() {
                    y[i] *= 2.0;
                }
            }
        },
    );
    has(&s, "vector_length : :: acc :: __private :: clause_usize (64usize)");
    assert!(!s.contains("clause_usize (32usize)"), "{s}");
}
