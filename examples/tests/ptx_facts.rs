//! Facts about the device code acc-build produced for the examples (PTX, no GPU needed): one
//! `.entry` per loop nest of each example region, the read-only data path for `&[T]` loads,
//! 16-byte accesses in streaming loops, no local-memory spills in the streaming and reduction
//! kernels. Runs when built with `--features cuda` (`scripts/test.sh` does that); without it
//! there is no PTX.
#![cfg(acc_kernels)]

use acc_suite::ptx::{self, lines_of, uses_shared, BARRIER};

static PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/acc_kernels.ptx"));

/// The text of kernel `name`.
fn entry(name: &str) -> &'static str {
    ptx::entry(PTX, name)
}

/// Every kernel that can panic keeps its launch's panic slot before anything else
/// ([`ptx::kernels_without_panic_slot`]).
#[test]
fn every_kernel_that_can_panic_keeps_its_launch_s_panic_slot() {
    assert!(ptx::entry_names(PTX).len() >= 5);
    ptx::kernels_without_panic_slot(PTX);
}

#[test]
fn module_is_self_contained() {
    assert!(!PTX.contains(".extern .func"), "every function the kernels call is in the module");
}

/// A streaming loop runs in chunks of 16 bytes (acc-codegen `lower/chunk.rs`: 4 trips a thread
/// of `f32`): each array moved in one 16-byte access per chunk, as nvcc's copy kernels use
/// `float4`; the trips outside whole aligned chunks keep element accesses (the benches' `copy64`
/// has the same fact for `f64`).
#[test]
fn streaming_loops_move_16_bytes_an_access() {
    let k = entry("acc_examples_01_vadd_rs_l4_vadd_0");
    assert_eq!(k.matches("ld.global.nc.v4.b32").count(), 2, "a chunk of `a` and of `b`, 16 bytes each:\n{k}");
    assert_eq!(k.matches("st.global.v4.b32").count(), 1, "a chunk of `c` stored in one access:\n{k}");
    assert!(!k.contains(".local"), "no local memory:\n{k}");
}

#[test]
fn reductions_keep_loads_in_flight() {
    // The grid-stride loop of a reduction takes several trips per round, each on a copy of the
    // reduced value of its own, so that a round's loads all come before its first combine (a
    // float `+` chain kept each load behind the previous add: f32 sums ran at 0.6x i32's).
    // dot (f64): rounds of four trips, then the remainder trip.
    let k = entry("acc_examples_02_dot_rs_l4_dot_0");
    let loads = lines_of(k, &["ld.global.nc"]);
    assert_eq!(loads.len(), 2 * (4 + 1), "two loads in each of four unrolled trips and the remainder trip:\n{k}");
    assert!(lines_of(k, &["add.rn.f64"]).iter().find(|&&f| f > loads[0]).is_some_and(|&f| f > loads[7]), "the eight loads of a round before its first combine (an add; the products need only their own loads):\n{k}");
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
        let names: Vec<&str> = PTX.match_indices(&format!(".entry acc_{file}_")).map(|(at, _)| PTX[at + 7..].split('(').next().unwrap_or("")).collect();
        let lean = names.iter().filter(|n| n.ends_with("_lean")).count();
        // A nest whose indices the launch bounds has a kernel without their checks too.
        let inb = names.iter().filter(|n| n.ends_with("_inb")).count();
        assert_eq!(names.len() - lean - inb, regions_in(src), "{file}: one .entry per region: {names:?}");
        for n in names.iter().filter(|n| n.ends_with("_inb")) {
            assert!(names.contains(&n.trim_end_matches("_inb")), "{n}: the unchecked kernel of a nest's kernel: {names:?}");
        }
        // A nest whose inner loops take chunks has a lean kernel too (03-jacobi's copy-back:
        // rows over the gangs, columns over the lanes); the others have none.
        assert_eq!(lean, usize::from(file == "examples_03_jacobi_rs"), "{file}: lean kernels: {names:?}");
        for n in names.iter().filter(|n| n.ends_with("_lean")) {
            assert!(names.contains(&n.trim_end_matches("_lean")), "{n}: the lean kernel of a nest's kernel: {names:?}");
        }
    }
}

#[test]
fn vadd_loads_through_the_read_only_path_without_spills() {
    let k = entry("acc_examples_01_vadd_rs_l4_vadd_0");
    assert!(k.matches("ld.global.nc").count() >= 2, "both `&[f32]` loads use ld.global.nc:\n{k}");
    assert_eq!(k.matches("ld.global.").count(), k.matches("ld.global.nc").count(), "no load outside the read-only path:\n{k}");
    assert!(!k.contains(".local"), "no local memory in vadd:\n{k}");
}

#[test]
fn dot_reduces_in_registers_and_shared_memory_without_spills() {
    let k = entry("acc_examples_02_dot_rs_l4_dot_0");
    assert!(!k.contains(".local"), "no local memory in dot:\n{k}");
    assert!(k.contains("shfl.sync"), "warp shuffles in the block reduction:\n{k}");
    assert!(k.contains(BARRIER), "a barrier between the warps' partials:\n{k}");
    assert!(k.contains("ld.global.nc"), "read-only loads:\n{k}");
}

#[test]
fn worker_vector_schedule_uses_both_thread_dimensions_and_shared_memory() {
    // matmul: gang-worker over (i, j) (threadIdx.y), a vector `+` reduction over k
    // (threadIdx.x), the row's result stored by its vector lane 0.
    let k = entry("acc_examples_04_matmul_rs_l4_matmul_0");
    assert!(k.contains("%tid.y") && k.contains("%ntid.y"), "workers are threadIdx.y:\n{k}");
    assert!(k.contains("%tid.x"), "vector lanes are threadIdx.x:\n{k}");
    assert!(uses_shared(k, ".shared"), "the vector reduction's shared memory:\n{k}");
    assert!(k.contains(BARRIER), "barriers of the vector reduction (rows wider than a warp):\n{k}");
    assert!(k.contains("shfl.sync"), "warp shuffles of the vector reduction:\n{k}");
    assert!(!k.contains(".local"), "no local memory in matmul:\n{k}");
}

/// A program loads only the kernels of its own files (`acc-build/src/split.rs`): every module
/// that holds an example's kernel holds that example's kernels alone.
#[test]
fn each_file_of_regions_has_modules_of_its_own() {
    assert!(PTX.matches("\n// acc-build: module\n").count() >= 4, "one module per file of regions, the four examples'");
    for file in ["examples_01_vadd_rs", "examples_02_dot_rs", "examples_03_jacobi_rs", "examples_04_matmul_rs"] {
        ptx::assert_modules_of_their_own(PTX, file);
    }
}
