//! Facts about the device code acc-build produced for this package (PTX, no GPU needed):
//! one `.entry` per loop nest of each example region, the read-only data path for `&[T]`
//! loads, no local-memory spills in the streaming and reduction kernels. Runs when built with
//! `--features cuda` (the README's test command does that); without it there is no PTX.
#![cfg(acc_kernels)]

static PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/acc_kernels.ptx"));

/// The text of kernel `name`, from its `.entry` line to its closing brace.
fn entry(name: &str) -> &'static str {
    let start = PTX.find(&format!(".entry {name}(")).unwrap_or_else(|| panic!("no .entry {name} in the PTX"));
    let end = PTX[start..].find("\n}\n").map_or(PTX.len(), |e| start + e + 3);
    &PTX[start..end]
}

/// Region attributes in an example's source (each of the examples' regions is one loop nest).
fn regions_in(src: &str) -> usize {
    src.lines().filter(|l| l.trim_start().starts_with("#[acc::parallel") || l.trim_start().starts_with("#[acc::kernels") || l.trim_start().starts_with("#[acc::serial")).count()
}

#[test]
fn one_entry_per_example_region() {
    for (file, src) in [
        ("examples_01_vadd_rs", include_str!("../examples/01-vadd.rs")),
        ("examples_02_dot_rs", include_str!("../examples/02-dot.rs")),
        ("examples_03_jacobi_rs", include_str!("../examples/03-jacobi.rs")),
        ("examples_04_matmul_rs", include_str!("../examples/04-matmul.rs")),
    ] {
        let entries = PTX.matches(&format!(".entry acc_{file}_")).count();
        assert_eq!(entries, regions_in(src), "{file}: one .entry per region");
    }
}

#[test]
fn vadd_loads_through_the_read_only_path_without_spills() {
    let k = entry("acc_examples_01_vadd_rs_l4_vadd_0");
    assert_eq!(k.matches("ld.global.nc").count(), 2, "both `&[f32]` loads use ld.global.nc:\n{k}");
    assert!(!k.contains(".local"), "no local memory in vadd:\n{k}");
}

#[test]
fn dot_reduces_in_registers_and_shared_memory_without_spills() {
    let k = entry("acc_examples_02_dot_rs_l4_dot_0");
    assert!(!k.contains(".local"), "no local memory in dot:\n{k}");
    assert!(k.contains("shfl.sync"), "warp shuffles in the block reduction:\n{k}");
    assert!(k.contains("bar.sync"), "a barrier between the warps' partials:\n{k}");
    assert!(k.contains("ld.global.nc"), "read-only loads:\n{k}");
}

#[test]
fn module_is_self_contained() {
    assert!(!PTX.contains(".extern .func"), "every function the kernels call is in the module");
}
