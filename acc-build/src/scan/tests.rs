//! The scan's tests: fixtures in `tests/fixtures/`, device crates read back.

use quote::quote;

use super::index::{index_by_ix, InlineBounds};
use super::twins::routine_bounds;
use super::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

fn module<'a>(c: &'a DeviceCrate, rel: &str) -> &'a str {
    &c.modules.iter().find(|(r, _)| r == rel).unwrap_or_else(|| panic!("no module {rel}")).1
}

#[test]
fn the_module_tree_is_mirrored_and_paths_rewritten() {
    let c = device_crate(&fixture("names"), Some("names_fixture"), &|_| Vec::new()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.kernels, 2);
    assert!(c.root.contains("#[path = \"src/lib.rs\"]\npub mod f_src_lib_rs;"), "{}", c.root);
    assert!(c.root.contains("#[path = \"tests/uses_lib.rs\"]\npub mod f_tests_uses_lib_rs;"), "{}", c.root);
    // `mod x;` files are declared where the user declared them, not at the root.
    assert!(!c.root.contains("physics"), "{}", c.root);
    let lib = module(&c, "src/lib.rs");
    assert!(lib.contains("pub mod physics;"), "{lib}");
    assert!(lib.contains("const fn twice()"), "{lib}");
    // `crate::` at the crate root is `self::`.
    assert!(lib.replace(' ', "").contains("self::physics::G+physics::detail::H"), "{lib}");
    let detail = module(&c, "src/physics/detail.rs");
    assert!(detail.contains("pub const H: f64 = super::G * 2.0;"), "{detail}");
    // Two modules below the root: `crate::` is `super::super::`.
    assert!(detail.replace(' ', "").contains("pubconstSAME:f64=super::super::physics::G;"), "{detail}");
    // The test's view of the lib crate, of `common`, and what stays out of `common`.
    let test = module(&c, "tests/uses_lib.rs");
    assert!(test.contains("use crate::f_src_lib_rs::physics::G;"), "{test}");
    assert!(test.replace(' ', "").contains("crate::f_src_lib_rs::physics::detail::SAME"), "{test}");
    assert!(test.contains("pub mod common;"), "{test}");
    let common = module(&c, "tests/common/mod.rs");
    assert!(common.contains("pub const K: f64 = 4.0;"), "{common}");
    for host_only in ["HashMap", "rayon", "host_helper"] {
        assert!(!common.contains(host_only), "{common}");
    }
    // Each token on its line.
    assert_eq!(common.lines().position(|l| l.contains("pub const K")), Some(3), "{common}");
}

#[test]
fn methods_generic_regions_and_traits_reach_the_device_crate() {
    let c = device_crate(&fixture("forms"), Some("forms"), &|_| Vec::new()).unwrap_or_else(|e| panic!("{e}"));
    let lib = module(&c, "src/lib.rs").replace([' ', '\n'], "");
    // A method region: its fields are parameters, typed from the struct.
    assert!(lib.contains("fnacc_src_lib_rs_l29_scale_0(__acc_panic:*mut::acc_device::panic::PanicSlot,__acc_self_u_ptr:*mutf64,__acc_self_u_len:usize,__acc_self_k:f64,__acc_self_w_ptr:::acc_device::ReadOnlyPtr<f32>,__acc_self_w_len:usize"), "{lib}");
    assert!(lib.contains("fnacc_src_lib_rs_l37_fill_0("), "{lib}");
    // The instance of the generic region, the generic routine as it is, the trait and its
    // impl for `f32`; not the impl for `String`, nor the host struct.
    assert!(lib.contains("fnacc_src_lib_rs_l51_squares__f32_0(__acc_panic:*mut::acc_device::panic::PanicSlot,a_ptr:*mutf32,"), "{lib}");
    assert!(lib.contains("pubfnsquare<T:Real>(x:T)->T"), "{lib}");
    assert!(lib.contains("pubtraitReal:Copy+Mul<Output=Self>"), "{lib}");
    assert!(lib.contains("implRealforf32"), "{lib}");
    // A routine with `bind(g)`: its device version calls `g` (and has no twin).
    assert!(lib.contains("pubfnhalve(x:f64)->f64{halve_gpu(x)}"), "{lib}");
    assert!(!lib.contains("x/2.0"), "{lib}");
    assert!(!lib.contains("String") && !lib.contains("structGrid"), "{lib}");
    assert_eq!(c.regions.len(), 3, "{:?}", c.regions);
}

#[test]
fn what_a_method_region_cannot_take_is_an_error_on_it() {
    let Err(e) = device_crate(&fixture("forms-unsupported"), Some("forms_unsupported"), &|_| Vec::new()) else { panic!("no error") };
    let expect = [
        ("`self.q` is used as an array in the region, but its type `VecDeque < f64 >` does not slice", "src/lib.rs:11:26"),
        ("a region in an `impl` of a trait cannot be built for the GPU", "src/lib.rs:23:8"),
        ("a region in a generic `impl` block cannot be built for the GPU", "src/lib.rs:35:12"),
    ];
    for (what, at) in expect {
        let msg = format!("error: {what}");
        let k = e.find(&msg).unwrap_or_else(|| panic!("no `{msg}` in\n{e}"));
        assert!(e[k..].lines().nth(1).is_some_and(|l| l.ends_with(at)), "{what} not at {at}:\n{e}");
    }
}

#[test]
fn a_dependency_that_uses_acc_joins_the_device_crate() {
    let asked = RefCell::new(BTreeSet::new());
    let deps = |names: &BTreeSet<String>| {
        asked.borrow_mut().extend(names.iter().cloned());
        vec![Dep { name: "dep_lib".into(), lib_root: fixture("dep-lib/src/lib.rs") }]
    };
    let Err(e) = device_crate(&fixture("uses-dep"), Some("uses_dep"), &deps) else { panic!("no error") };
    // Asked for the crates the kernels name; the dependency's host items and crates that
    // are not dependencies stay errors.
    assert_eq!(asked.borrow().iter().cloned().collect::<Vec<_>>(), ["dep_lib", "other_crate"]);
    assert!(e.contains("error: the GPU kernel cannot use `dep_lib::Registry`, a struct without `#[derive(acc::DeviceCopy)]`\n  --> src/lib.rs:15:23"), "{e}");
    assert!(e.contains("error: the GPU kernel cannot use `other_crate::f`, from a crate the device crate does not have"), "{e}");
    assert!(!e.contains("areas") && !e.contains("Disc") && !e.contains("scaled"), "{e}");
}

#[test]
fn device_code_indexes_through_acc_device_ix() {
    let src = "fn r(u: &mut [f32], m: &[[f32; 2]], i: usize) -> f32 {
    const K: [usize; 2] = [0, 1];
    let w = [0.0f32; K[1]];
    u[i] += u[i + 1];
    u[K[0]].to_bits();
    let s = &u[1..i];
    m[i][0] + s[0] + w[0]
}";
    let mut f: syn::ItemFn = syn::parse_str(src).unwrap();
    let file = f.sig.fn_token.span.file();
    InlineBounds { file: &file }.routine(&f.sig, &mut f.block);
    let text = quote!(#f).to_string().replace(' ', "");
    // Lines and columns of the user's source, 1-based: of the indexed expression's first token.
    for want in [
        "constK:[usize;2]=[0,1];",
        "[0.0f32;K[1]]",
        "u[::acc_device::ix(i,4u32,5u32)]+=u[::acc_device::ix(i+1,4u32,13u32)];",
        "u[::acc_device::ix(K[::acc_device::ix(0,5u32,7u32)],5u32,5u32)].to_bits()",
        "&u[1..i]",
        "m[::acc_device::ix(i,7u32,5u32)][::acc_device::ix(0,7u32,5u32)]+s[::acc_device::ix(0,7u32,15u32)]+w[::acc_device::ix(0,7u32,22u32)]",
    ] {
        assert!(text.contains(want), "{want} in {text}");
    }
    // The expressions of `assert!`s and the scrutinee of `matches!`; other macros as written.
    let mut f: syn::ItemFn = syn::parse_str(
        "fn m(u: &[u8], i: usize) -> bool { assert!(u[i] > 0, \"{}\", u[0]); debug_assert_eq!(u[1], 2); foo!(u[2]); matches!(u[i], 1 | 2 if u[0] > 0) }",
    )
    .unwrap();
    InlineBounds { file: "" }.routine(&f.sig, &mut f.block);
    let text = quote!(#f).to_string().replace(' ', "");
    for want in [
        "assert!(u[::acc_device::ix(i,0u32,0u32)]>0,\"{}\",u[::acc_device::ix(0,0u32,0u32)])",
        "debug_assert_eq!(u[::acc_device::ix(1,0u32,0u32)],2)",
        "foo!(u[2])",
        "matches!(u[::acc_device::ix(i,0u32,0u32)],1|2ifu[0]>0)",
    ] {
        assert!(text.contains(want), "{want} in {text}");
    }
    // Tokens of another file (generated code) have no line or column.
    let mut f: syn::ItemFn = syn::parse_str(src).unwrap();
    InlineBounds { file: "<another file>" }.routine(&f.sig, &mut f.block);
    assert!(quote!(#f).to_string().replace(' ', "").contains("u[::acc_device::ix(i,0u32,0u32)]+="));
    // A `const fn`, or a routine generic over `Index`, stays as written.
    let fns: [syn::ItemFn; 2] = [
        syn::parse_quote!(const fn c(u: &[f32]) -> f32 { u[0] }),
        syn::parse_quote!(fn g<C: core::ops::Index<usize, Output = f32>>(u: &C) -> f32 { u[0] }),
    ];
    for mut f in fns {
        let before = quote!(#f).to_string();
        InlineBounds { file: "" }.routine(&f.sig, &mut f.block);
        assert_eq!(quote!(#f).to_string(), before);
    }
    // A type indexed by `usize` is indexed by `Ix` too.
    let imp: syn::ItemImpl = syn::parse_quote!(impl<T: Copy> Index<usize> for V<T> { type Output = T; fn index(&self, i: usize) -> &T { &self.0[i] } });
    let ix = index_by_ix(&imp).unwrap().to_string().replace(' ', "");
    assert!(ix.starts_with("impl<T:Copy>::core::ops::Index<::acc_device::Ix>forV<T>{"), "{ix}");
    let imp: syn::ItemImpl = syn::parse_quote!(impl Index<core::ops::Range<usize>> for V { type Output = [f32]; fn index(&self, r: Range<usize>) -> &[f32] { &self.0[r] } });
    assert!(index_by_ix(&imp).is_none());
}

#[test]
fn macro_rules_macros_are_carried_where_they_are_defined() {
    let dir = std::env::temp_dir().join(format!("acc-build-macros-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let lib = "#[macro_use]
mod index {
    macro_rules! i2d { ($n:expr, $j:expr, $i:expr) => { $j * $n + $i }; }
}
#[macro_export]
macro_rules! i3d { ($n1:expr, $n2:expr, $k:expr, $j:expr, $i:expr) => { ($k * $n2 + $j) * $n1 + $i }; }
macro_rules! make_items { () => { pub fn made() {} }; }
make_items!();
#[acc::parallel]
pub fn zero(u: &mut [f64], n1: usize, n2: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 0..n1 {
        u[i3d!(n1, n2, 0, 0, i)] = 0.0;
        u[i2d!(n1, 1, i)] = 0.0;
    }
}
";
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    let c = device_crate(&dir, Some("macros"), &|_| Vec::new()).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(&dir).unwrap();
    let own = module(&c, "src/lib.rs");
    let flat = own.replace([' ', '\n'], "");
    // Each definition at its place (before the kernel that invokes it), unused ones
    // allowed, `#[macro_export]` dropped, `#[macro_use]` kept on its module.
    assert!(flat.contains("#[macro_use]pubmodindex{"), "{own}");
    assert!(flat.contains("#[allow(unused_macros)]macro_rules!i2d"), "{own}");
    assert!(flat.contains("#[allow(unused_macros)]macro_rules!i3d"), "{own}");
    assert!(!own.contains("macro_export"), "{own}");
    assert!(own.find("macro_rules! i3d").unwrap() < own.find("ptx-kernel").unwrap(), "{own}");
    assert!(own.lines().position(|l| l.contains("macro_rules! i3d")) == Some(5), "on its line:\n{own}");
    // A macro's invocation at item level (the items it makes) stays on the host.
    assert!(!own.contains("make_items!();"), "{own}");
    assert_eq!(c.kernels, 1);
}

#[test]
fn a_dependency_s_routines_and_types_without_its_regions() {
    let dir = std::env::temp_dir().join(format!("acc-build-uses-dep-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let lib = std::fs::read_to_string(fixture("uses-dep/src/lib.rs")).unwrap();
    let good = &lib[..lib.find("#[acc::parallel]\npub fn bad").unwrap()];
    std::fs::write(dir.join("src/lib.rs"), good).unwrap();
    let deps = |_: &BTreeSet<String>| vec![Dep { name: "dep_lib".into(), lib_root: fixture("dep-lib/src/lib.rs") }];
    let c = device_crate(&dir, Some("uses_dep"), &deps).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(c.root.contains("#[path = \"deps/dep_lib/src/lib.rs\"]\npub mod f_deps_dep_lib_src_lib_rs;"), "{}", c.root);
    let dep = module(&c, "deps/dep_lib/src/lib.rs");
    assert!(dep.contains("pub fn scaled(x: f64)") && dep.contains("pub const SCALE"), "{dep}");
    assert!(!dep.contains("fn logged") && !dep.contains("Registry") && !dep.contains("ptx-kernel"), "{dep}");
    let shapes = module(&c, "deps/dep_lib/src/shapes.rs");
    assert!(shapes.contains("pub struct Disc") && shapes.replace(' ', "").contains("super::SCALE"), "{shapes}");
    let own = module(&c, "src/lib.rs").replace([' ', '\n'], "");
    assert!(own.contains("usecrate::f_deps_dep_lib_src_lib_rs::shapes::Disc;"), "{own}");
    assert!(own.contains("crate::f_deps_dep_lib_src_lib_rs::scaled(d[::acc_device::ix(i,7u32,34u32)].area())"), "{own}");
    assert_eq!(c.regions.len(), 1, "{:?}", c.regions);
}

#[test]
fn what_the_device_cannot_take_is_an_error_on_the_region_that_uses_it() {
    let Err(e) = device_crate(&fixture("unsupported"), Some("unsupported"), &|_| Vec::new()) else { panic!("no error") };
    let expect = [
        ("`HashMap`, which is not in `core`", "src/lib.rs:25:16"),
        ("`HashMap::new`, which is not in `core`", "src/lib.rs:25:36"),
        ("`helper`, a fn without `#[acc::routine]`", "src/lib.rs:26:16"),
        ("`COUNTER`, a `static mut`", "src/lib.rs:26:40"),
        ("`FROM_HELPER`, a const that uses `helper`, a fn without `#[acc::routine]`", "src/lib.rs:26:73"),
        ("`Plain`, a struct without `#[derive(acc::DeviceCopy)]`", "src/lib.rs:22:41"),
    ];
    for (what, at) in expect {
        let msg = format!("error: the GPU kernel cannot use {what}");
        let k = e.find(&msg).unwrap_or_else(|| panic!("no `{msg}` in\n{e}"));
        assert!(e[k..].lines().nth(1).is_some_and(|l| l.ends_with(at)), "{what} not at {at}:\n{e}");
    }
    // The source line and a caret under the path.
    assert!(e.contains(" 26|         c[i] = helper(a[i])"), "{e}");
    // `TWICE` comes from a `const fn` the device crate can build: no error.
    assert!(!e.contains("`TWICE`"), "{e}");
    assert!(e.contains("error: acc-build: 6 uses of what the device cannot take"), "{e}");
}

#[test]
fn unchecked_kernels_call_the_twins_of_their_module_s_bounded_routines() {
    let routine: syn::ItemFn = syn::parse_str("#[acc::routine(seq)] fn spread(a: &[u32], c: usize, s: usize) -> u32 { a[c - s] + a[c + s] }").unwrap();
    let routines: HashMap<String, acc_codegen::lower::bounds::ProvedRoutine> = [("spread".to_string(), acc_codegen::lower::bounds::prove_routine(&routine).unwrap())].into();
    let kernels = quote! {
        fn k(a: &[u32]) { let x = spread(a, 3, 1); }
        fn k_inb(a: &[u32]) { let x = spread(a, 3, 1) + other(a); }
    };
    let region: syn::ItemFn = syn::parse_str("fn r(a: &[u32]) { for i in 0..4 { let x = spread(a, i, 1); } }").unwrap();
    let mut bounds = Vec::new();
    let out = routine_bounds(kernels.clone(), &region, &routines, &mut bounds).to_string();
    assert!(out.contains("fn k (a : & [u32]) { let x = spread (a , 3 , 1)"), "the checked kernel calls the routine: {out}");
    assert!(out.contains("fn k_inb (a : & [u32]) { let x = __acc_inb_spread (a , 3 , 1) + other (a)"), "the unchecked one its twin: {out}");
    assert!(out.contains("fn k_inbc (a : & [u32]) { let x = spread (a , 3 , 1) + other (a)"), "and its copy the routine: {out}");
    assert_eq!(bounds.len(), 1);
    assert_eq!(bounds[0].0, "k_inb");
    assert!(bounds[0].1.contains("\"spread\" =>") && bounds[0].1.contains("_ => :: core :: option :: Option :: Some (true)"), "{}", bounds[0].1);
    // A region that binds the name (a closure, a local fn, a glob `use`) calls its own.
    for region in [
        "fn r(a: &[u32]) { let spread = |a: &[u32], c: usize, s: usize| a[c]; for i in 0..4 { let x = spread(a, i, 1); } }",
        "fn r(a: &[u32]) { fn spread(a: &[u32], c: usize, s: usize) -> u32 { a[c] } for i in 0..4 { let x = spread(a, i, 1); } }",
        "fn r(a: &[u32]) { use other::*; for i in 0..4 { let x = spread(a, i, 1); } }",
    ] {
        let region: syn::ItemFn = syn::parse_str(region).unwrap();
        let mut bounds = Vec::new();
        let out = routine_bounds(kernels.clone(), &region, &routines, &mut bounds).to_string();
        assert!(!out.contains("__acc_inb_spread") && !out.contains("k_inbc"), "{out}");
        assert!(!bounds[0].1.contains("\"spread\""), "{}", bounds[0].1);
    }
}

/// `acc::on_device` and `acc::DeviceType` in a region's body and in a routine reach the device
/// crate as they are, and so does a `use` of them: `acc::` there is acc-device (the root's
/// `extern crate acc_device as acc`), whose `on_device` is the one the host runtime
/// re-exports, compiled for `nvptx64`.
#[test]
fn on_device_in_regions_and_routines_is_acc_device_s() {
    let dir = std::env::temp_dir().join(format!("acc-build-on-device-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let lib = "use acc::{on_device, DeviceType};
#[acc::routine(seq)]
pub fn where_it_runs() -> u32 {
    acc::on_device(acc::DeviceType::Nvidia) as u32 + on_device(DeviceType::Host) as u32
}
#[acc::parallel]
pub fn mark(c: &mut [u32], r: &mut [u32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = acc::on_device(acc::DeviceType::Host) as u32;
        r[i] = where_it_runs();
    }
}
";
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    let c = device_crate(&dir, Some("on_device"), &|_| Vec::new()).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(c.root.contains("extern crate acc_device as acc;"), "{}", c.root);
    let own = module(&c, "src/lib.rs").replace([' ', '\n'], "");
    assert!(own.contains("pubfnwhere_it_runs()->u32{acc::on_device(acc::DeviceType::Nvidia)asu32+on_device(DeviceType::Host)asu32}"), "{own}");
    assert!(own.contains("useacc::on_device;useacc::DeviceType;"), "the `use` is carried: {own}");
    assert!(own.contains("acc::on_device(acc::DeviceType::Host)asu32"), "{own}");
    assert_eq!(c.kernels, 1);
}
