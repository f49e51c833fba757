//! The proofs of `bounds.rs` on fixed nests and routines: which indices are proved, how many
//! a nest has, and what keeps a nest checked.

use super::*;

fn proved(src: &str, arrays: &[&str]) -> (Vec<String>, usize) {
    let f: ExprForLoop = syn::parse_str(src).unwrap();
    let arrays: Vec<Ident> = arrays.iter().map(|a| format_ident!("{}", a)).collect();
    match prove(&f, &arrays, &HashMap::new()) {
        Some(p) => {
            let mut s: Vec<String> = p.sites.into_iter().map(|s| s.1.replace(' ', "")).collect();
            s.sort();
            (s, p.total)
        }
        None => (Vec::new(), 0),
    }
}

#[test]
fn the_checked_form_of_an_unchecked_body_is_the_body_as_written() {
    let body: syn::Block = syn::parse_quote!({ b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2.0 + a[x[i]]; });
    let mut unchecked = body.clone();
    Unchecked.visit_block_mut(&mut unchecked);
    let text = unchecked.to_token_stream().to_string();
    assert_eq!(text.matches("unchecked").count(), 4, "{text}");
    assert_eq!(checked_form(&unchecked).to_token_stream().to_string(), body.to_token_stream().to_string());
}

#[test]
fn a_neighbour_of_a_plain_name_is_written_as_its_distance_from_it() {
    // `u[c - s]`, `u[c + 2 * s]`: the base's element moved (`unchecked_sub`/`_add`); an
    // index whose left term is not a plain name stays whole, and the checked form is the
    // body as written.
    let body: syn::Block = syn::parse_quote!({ v[c] = u[c - s] + u[c + 2 * s] + u[(i - 1) * n + j] + u[c - s + 1] + u[c * 2]; });
    let mut unchecked = body.clone();
    Unchecked.visit_block_mut(&mut unchecked);
    let text = unchecked.to_token_stream().to_string().replace(' ', "");
    for want in ["u[unsafe{::acc_device::unchecked_sub(c,s)}]", "u[unsafe{::acc_device::unchecked_add(c,2*s)}]", "u[unsafe{::acc_device::unchecked((i-1)*n+j)}]", "u[unsafe{::acc_device::unchecked(c-s+1)}]", "u[unsafe{::acc_device::unchecked(c*2)}]", "v[unsafe{::acc_device::unchecked(c)}]"] {
        assert!(text.contains(want), "no `{want}` in {text}");
    }
    assert_eq!(checked_form(&unchecked).to_token_stream().to_string(), body.to_token_stream().to_string());
}

#[test]
fn sums_and_products_of_loop_variables_and_outside_names_are_proved() {
    let (s, total) = proved(
        "for i in 1..n - 1 { for j in 1..n - 1 { b[i * n + j] = a[(i - 1) * n + j] + a[i * n + j - 1] + a[(i + 1).min(n - 1) * n + j] - 4.0 * a[i * n + j]; } }",
        &["a", "b"],
    );
    assert_eq!(s, ["a[(i+1).min(n-1)*n+j]", "a[(i-1)*n+j]", "a[i*n+j-1]", "a[i*n+j]", "b[i*n+j]"]);
    assert_eq!(total, 5);
}

#[test]
fn a_staged_window_is_proved_and_the_rows_copies_are_its_sites() {
    // `acc::cache!` names its window's arrays and variables without changing them.
    let src = "for i in 1..n - 1 { for j in 1..n - 1 { acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)]); b[i * n + j] = a[(i - 1) * n + j] + a[i * n + j]; } }";
    let f: ExprForLoop = syn::parse_str(src).unwrap();
    let p = prove(&f, &[format_ident!("a"), format_ident!("b")], &HashMap::new()).unwrap();
    assert!(p.panic_free && p.sites.len() == 3 && p.total == 3, "{:?}", p.sites);
    // A thread's copy of the body for another row of its tile (`tiles::copy_name`).
    let store: syn::ExprIndex = syn::parse_str("b[i * n + j]").unwrap();
    let copy: syn::ExprIndex = syn::parse_str("b[i__acc3 * n + j]").unwrap();
    let other: syn::ExprIndex = syn::parse_str("b[i__accx * n + j]").unwrap();
    assert_eq!(site(&copy).1, site(&store).1);
    assert_ne!(site(&other).1, site(&store).1);
    let raw: syn::ExprIndex = syn::parse_str("b[r#type__acc0]").unwrap();
    assert_eq!(site(&raw).1.replace(' ', ""), "b[r#type]");
}

#[test]
fn lets_inner_loops_and_lengths_are_followed() {
    let (s, _) = proved("for i in 0..m { let c = i * 4; for k in (0..=3).rev() { y[c + k] = x[x.len() - 1 - k]; } }", &["x", "y"]);
    assert_eq!(s, ["x[x.len()-1-k]", "y[c+k]"]);
}

#[test]
fn what_is_not_proved() {
    // A `mut` local, a name the nest assigns, a call, an array element, a closure's and
    // a pattern's bindings, a shadowed array, a cast of a loop variable.
    let src = "for i in 0..n { let mut t = i; t += 1; a[t] = 0.0; s += 1; a[i + s] = 1.0; a[f(i)] = 2.0; a[idx[i]] = 3.0;
        let g = |k: usize| a[k]; if let Some(q) = o { a[q] = 4.0; } let a = &b[..]; c[a.len() + i] = 5.0; c[i as usize] = 6.0; }";
    let (s, total) = proved(src, &["a", "b", "c", "idx"]);
    assert_eq!(s, ["idx[i]"]);
    assert_eq!(total, 10);
}

#[test]
fn a_name_shadowed_later_keeps_the_value_the_let_saw() {
    // `c` is the loop's `i`, not the `i` of the later `let`.
    let f: ExprForLoop = syn::parse_str("for i in 0..n { let c = i; let i = 7; a[c] = 0.0; a[i] = 1.0; }").unwrap();
    let p = prove(&f, &[format_ident!("a")], &HashMap::new()).unwrap();
    let check = p.check.to_string().replace(' ', "");
    // `a[c]`: the loop's interval, `0..n`; `a[i]`: the literal 7.
    assert!(check.contains("checked_sub(1)?"), "{check}");
    assert!(check.contains("(7usize,7usize)"), "{check}");
    assert_eq!(p.sites.len(), 2);
}

#[test]
fn subtraction_and_division_bound_each_side_by_the_other_s_extreme() {
    let f: ExprForLoop = syn::parse_str("for i in 2..n { a[(i - 2) / 2 % m] = 0.0; }").unwrap();
    let check = prove(&f, &[format_ident!("a")], &HashMap::new()).unwrap().check.to_string().replace(' ', "");
    assert!(check.contains(".0.checked_sub(__acc_b"), "{check}");
    assert!(check.contains(".1.checked_div(__acc_b"), "{check}");
    assert!(check.contains(".checked_sub(1)?)"), "{check}");
}

#[test]
fn closures_bound_by_let_are_proved_at_each_call() {
    let (s, total) = proved("for i in 2..n - 2 { let g = |s: usize| a[i - s] + a[i + s]; b[i] = g(1) + g(2); }", &["a", "b"]);
    assert_eq!(s, ["a[i+s]", "a[i-s]", "b[i]"]);
    assert_eq!(total, 3);
    // Not where one call's argument has no interval, nor for a closure passed on.
    let (s, _) = proved("for i in 2..n - 2 { let g = |s: usize| a[i - s]; b[i] = g(1) + g(m[i]); }", &["a", "b", "m"]);
    assert_eq!(s, ["b[i]", "m[i]"]);
    let (s, _) = proved("for i in 2..n - 2 { let g = |s: usize| a[i - s]; b[i] = g(1) + h(g); }", &["a", "b"]);
    assert_eq!(s, ["b[i]"]);
}

#[test]
fn routine_calls_ask_the_routine_s_bounds_for_the_arguments() {
    let f: ExprForLoop = syn::parse_str("for i in 2..n - 2 { b[i] = lap(a, i, n, 0.5); }").unwrap();
    let p = prove(&f, &[format_ident!("a"), format_ident!("b")], &HashMap::new()).unwrap();
    assert_eq!(p.calls, ["lap"]);
    assert!(p.panic_free);
    let check = p.check.to_string().replace(' ', "");
    // The slice's length, the intervals of `i` and `n`, nothing for the float.
    assert!(check.contains("__acc_rb(\"lap\",&[::core::option::Option::Some((a.len(),a.len())),::core::option::Option::Some(__acc_b"), "{check}");
    assert!(check.contains("::core::option::Option::None])==::core::option::Option::Some(true))"), "{check}");
    // A name also bound as a closure somewhere: the unchecked kernel never runs.
    let f: ExprForLoop = syn::parse_str("for i in 0..n { b[i] = lap(a, i, n, 0.5); { let lap = |x: usize| x; b[i] = lap(3) as f32; } }").unwrap();
    let check = prove(&f, &[format_ident!("a"), format_ident!("b")], &HashMap::new()).unwrap().check.to_string().replace(' ', "");
    assert!(check.contains("__acc_rb(\"lap\",&[])==::core::option::Option::Some(true)"), "{check}");
    // A call inside a closure called twice is one call, checked at each.
    let f: ExprForLoop = syn::parse_str("for i in 1..n { let g = |k: usize| lap(a, i - k); b[i] = g(0) + g(1); }").unwrap();
    let check = prove(&f, &[format_ident!("a"), format_ident!("b")], &HashMap::new()).unwrap().check.to_string().replace(' ', "");
    assert_eq!(check.matches("__acc_rb(").count(), 2, "{check}");
    assert!(!check.contains("&[])"), "{check}");
}

#[test]
fn a_routine_s_indices_are_bounded_by_its_arguments() {
    let f: syn::ItemFn = syn::parse_str(
        "#[acc::routine(seq)] fn lap13(u: &[f32], c: usize, s1: usize, s2: usize) -> f32 {
            let axis = |s: usize| -> f32 { (4.0 / 3.0) * (u[c - s] + u[c + s]) - (1.0 / 12.0) * (u[c - 2 * s] + u[c + 2 * s]) };
            axis(1) + axis(s2) + axis(s1) - 7.5 * u[c]
        }",
    )
    .unwrap();
    let p = prove_routine(&f).expect("every index bounded");
    let twin = p.twin.to_string();
    assert!(twin.contains("fn __acc_inb_lap13"), "{twin}");
    assert_eq!(twin.matches("unchecked").count(), 5, "{twin}");
    assert!(!twin.contains("routine"), "{twin}");
    let check = p.check.to_string().replace(' ', "");
    assert!(check.contains("letu=__AccLen(args.get(0usize).copied().flatten()?.1);"), "{check}");
    assert!(check.contains("args.get(3usize).copied().flatten()?"), "{check}");
    // Each call of `axis` bounds its four indices.
    assert_eq!(check.matches("<u.len()").count(), 13, "{check}");
    // Not: an index the arguments do not bound, an integer division, a `mut` parameter,
    // a generic routine.
    for src in [
        "fn f(u: &[f32], c: usize, k: i32) -> f32 { u[c + k as usize] }",
        "fn f(u: &[f32], c: usize, s: usize) -> f32 { u[c / s] }",
        "fn f(u: &[f32], mut c: usize) -> f32 { c += 1; u[c] }",
        "fn f<T: Copy>(u: &[T], c: usize) -> T { u[c] }",
        "fn f(u: &[f32], c: usize) -> f32 { const K: usize = 2; u[c + K] }",
    ] {
        assert!(prove_routine(&syn::parse_str(src).unwrap()).is_none(), "{src}");
    }
    // Loops and lets inside the routine are followed.
    let f: syn::ItemFn = syn::parse_str("fn sum(u: &[f32], c: usize, m: usize) -> f32 { let mut s = 0.0; for k in 0..m { let j = c + k; s += u[j]; } s }").unwrap();
    assert!(prove_routine(&f).is_some());
}

#[test]
fn an_index_method_of_a_value_parameter_is_bounded_by_acc_build_s_file() {
    let f: ExprForLoop = syn::parse_str("for k in 1..n - 1 { for i in 0..g.n { a[g.at(k, i + 1)] = b[g.at(k - 1, i)] + b[g.n * k]; } }").unwrap();
    let receivers: HashMap<String, String> = [("g".to_string(), "acc_r_l1_f__g".to_string())].into();
    let p = prove(&f, &[format_ident!("a"), format_ident!("b")], &receivers).unwrap();
    assert_eq!(p.sites.len(), 3);
    assert!(p.panic_free);
    let check = p.check.to_string().replace(' ', "");
    assert_eq!(check.matches("include!(concat!(env!(\"OUT_DIR\"),\"/acc_bounds/methods/acc_r_l1_f__g__at.rs\"))").count(), 2, "{check}");
    assert!(check.contains("let__acc_r=&g;"), "{check}");
    // A field of the parameter is its value at the launch.
    assert!(check.contains("IndexLeaf(&g.n)"), "{check}");
    // Not without the receiver (another name, or one the nest binds).
    let (s, _) = proved("for k in 0..n { a[h.at(k)] = 0.0; }", &["a"]);
    assert!(s.is_empty());
    let f: ExprForLoop = syn::parse_str("for k in 0..n { let g = k; a[g.at(k)] = 0.0; }").unwrap();
    assert!(prove(&f, &[format_ident!("a")], &receivers).is_none());
}

#[test]
fn an_index_method_s_body_is_bounded_from_its_arguments_and_the_receiver_s_fields() {
    let m: syn::ImplItemFn = syn::parse_str("fn at(&self, m: usize, i: usize) -> usize { (m * self.n + i) * self.ld - 1 }").unwrap();
    let text = prove_index_method(&m).to_string().replace(' ', "");
    assert!(text.contains("__acc_a.get(0usize).copied()?"), "{text}");
    assert!(text.contains("IndexLeaf(&__acc_r.n)"), "{text}");
    assert!(text.contains("checked_mul") && text.contains("checked_sub"), "{text}");
    let none = "::core::option::Option::None";
    for src in [
        // A statement, a name from outside, a call, `&mut self`, no receiver, another type.
        "fn at(&self, i: usize) -> usize { let j = i; j }",
        "fn at(&self, i: usize) -> usize { i * LD }",
        "fn at(&self, i: usize) -> usize { f(i) }",
        "fn at(&mut self, i: usize) -> usize { i }",
        "fn at(i: usize) -> usize { i }",
        "fn at(&self, i: usize) -> u32 { i as u32 }",
        "fn at(&self, x: f64) -> usize { x }",
    ] {
        let m: syn::ImplItemFn = syn::parse_str(src).unwrap();
        assert_eq!(prove_index_method(&m).to_string().replace(' ', ""), none.replace(' ', ""), "{src}");
    }
}
