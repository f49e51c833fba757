//! Facts about the device code acc-build produced for the suite's regions (PTX, no GPU
//! needed): kernel panics at the user's file, line and column, kernels without the checks the
//! launch proves, multi-dimensional schedules, `cache!` windows in shared memory. Runs when built
//! with `--features cuda` (`scripts/test.sh` does that); without it there is no PTX. The
//! examples' and the benches' kernels have facts of their own (`examples/tests/ptx_facts.rs`,
//! `benches/tests/ptx_facts.rs`).
#![cfg(acc_kernels)]

use acc_suite::ptx::{self, inlined_panic_sites, uses_shared, BARRIER, CHECKED_BARRIER};

static PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/acc_kernels.ptx"));

/// The text of kernel `name`.
fn entry(name: &str) -> &'static str {
    ptx::entry(PTX, name)
}

/// Every kernel that can panic keeps its launch's panic slot before anything else
/// ([`ptx::kernels_without_panic_slot`]); those that cannot are most of the kernels whose
/// checks the launch proved.
#[test]
fn every_kernel_that_can_panic_keeps_its_launch_s_panic_slot() {
    assert!(ptx::entry_names(PTX).len() > 100);
    let without = ptx::kernels_without_panic_slot(PTX);
    assert!(without.len() > 100, "{without:?}");
}

#[test]
fn module_is_self_contained() {
    assert!(!PTX.contains(".extern .func"), "every function the kernels call is in the module");
}

/// ptxas 13.0 on sm_90 drops an integer negation that it folds into a three-input `max`/`min`
/// (`acc-build/src/ptxas.rs`; `tests/semantics_difftest.rs` holds the programs it broke): no
/// `neg.s16`/`neg.s32` reaches it, each is written as `not` and `add 1`.
#[test]
fn no_integer_negation_reaches_ptxas() {
    let rewritten = ptx::rewritten_integer_negations(PTX);
    assert!(rewritten > 0, "the suite's kernels negate integers (the serial `max` of `-(2 * (f % 16))`): their negations are there, rewritten");
}

#[test]
fn code_between_loops_runs_in_phases() {
    // The matrix's `phases` region: a store by each gang's leader, then a barrier, then every
    // thread reads the stored value.
    let k = entry(&phases_kernel());
    assert!(k.matches(CHECKED_BARRIER).count() + k.matches(BARRIER).count() >= 2, "barriers between the phases:\n{k}");
    assert!(k.contains(CHECKED_BARRIER), "the barrier after the leader's store is the checked one:\n{k}");
    assert!(uses_shared(k, ".shared"), "shared memory for the worker and vector reductions:\n{k}");
}

/// The kernel of `phases_add_i64` in tests/semantics_matrix.rs (named by its line).
fn phases_kernel() -> String {
    let src = include_str!("semantics_matrix.rs");
    let line = src.lines().position(|l| l.starts_with("fn phases_add_i64(")).expect("the phases region") as u32;
    // The attribute is on the line before the fn; kernels are named by the attribute's line.
    format!("acc_tests_semantics_matrix_rs_l{line}_phases_add_i64_0")
}

/// A kernel's panic names the user's file, line and column, not the generated device crate's
/// (acc-build prints each module at the path of its file, every user token on its line).
#[test]
fn kernel_panics_name_the_users_file_and_line() {
    let src = include_str!("semantics_kernel_panic.rs");
    let (n, line) = src.lines().enumerate().find(|(_, l)| l.trim() == "c[i] = a[idx[i]];").expect("the gather loop");
    let kernel = |region: &str| {
        let name = format!("{region}_0(");
        let at = PTX.lines().find(|l| l.contains(".entry acc_tests_semantics_kernel_panic_rs_l") && l.contains(&name));
        let at = at.unwrap_or_else(|| panic!("the {region} kernel"));
        let name = at.split(".entry ").nth(1).and_then(|r| r.split('(').next()).expect("a name");
        inlined_panic_sites(entry(name))
    };
    let sites = kernel("_gather");
    let file = "tests/semantics_kernel_panic.rs".to_owned();
    // acc-build gives an index the column of the indexed expression, as rustc's own check
    // on the host has it (see `acc_device::Ix`).
    let (n, a, idx) = (n as u32 + 1, line.find("a[idx[i]]").unwrap() as u32 + 1, line.find("idx[i]]").unwrap() as u32 + 1);
    assert!(sites.contains(&(file.clone(), n, a)), "`a[idx[i]]` at {file}:{n}:{a}: {sites:?}");
    assert!(sites.contains(&(file.clone(), n, idx)), "`idx[i]` at {file}:{n}:{idx}: {sites:?}");
    // A routine's index, checked inline in the kernel that calls it.
    let (n, line) = src.lines().enumerate().find(|(_, l)| l.trim() == "a[j] + 1").expect("the routine's index");
    let (n, a) = (n as u32 + 1, line.find("a[j]").unwrap() as u32 + 1);
    let sites = kernel("_gather_in_routine");
    assert!(sites.contains(&(file.clone(), n, a)), "`a[j]` at {file}:{n}:{a}: {sites:?}");
}

/// The kernel of region fn `region` of `tests/semantics_kernel_panic.rs`.
fn panic_test_kernel(region: &str) -> String {
    let src = include_str!("semantics_kernel_panic.rs");
    let line = src.lines().position(|l| l.starts_with(&format!("fn {region}("))).expect("the region");
    format!("acc_tests_semantics_kernel_panic_rs_l{line}_{region}_0")
}

/// The panic sites (file, line, column) of the indexed expressions `exprs` on the line of
/// `tests/semantics_kernel_panic.rs` that reads `stmt`.
fn panic_test_sites(stmt: &str, exprs: &[&str]) -> Vec<(String, u32, u32)> {
    let src = include_str!("semantics_kernel_panic.rs");
    let (n, line) = src.lines().enumerate().find(|(_, l)| l.trim() == stmt).expect("the statement");
    exprs.iter().map(|e| ("tests/semantics_kernel_panic.rs".to_owned(), n as u32 + 1, line.find(e).expect("the expression") as u32 + 1)).collect()
}

/// A nest whose indices the launch bounds (acc-codegen's `lower::bounds`) has a second kernel,
/// `_inb`, without their checks: the first panics at `a[..]`'s and `c[..]`'s columns, the
/// second has no panic site at all.
#[test]
fn indices_bounded_at_the_launch_have_a_kernel_without_checks() {
    let name = panic_test_kernel("shifted");
    let checked = inlined_panic_sites(entry(&name));
    for site in panic_test_sites("c[i * n + j] = a[i * n + j + off] * 3;", &["a[", "c["]) {
        assert!(checked.contains(&site), "{name} checks {site:?}: {checked:?}");
    }
    ptx::assert_unchecked(PTX, &format!("{name}_inb"));
}

/// A nest indexed through a method of a value parameter (`c[g.at(k, j, i)]`, acc-build's
/// bounds of `Planes::at`) has its kernel without checks too.
#[test]
fn indices_through_a_method_of_a_parameter_have_a_kernel_without_checks() {
    let name = panic_test_kernel("planes_shifted");
    let checked = inlined_panic_sites(entry(&name));
    for site in panic_test_sites("c[g.at(k, j, i)] = a[g.at(k, j, i) + off] + a[g.ld * k];", &["c[g.at", "a[g.at", "a[g.ld"]) {
        assert!(checked.contains(&site), "{name} checks {site:?}: {checked:?}");
    }
    ptx::assert_unchecked(PTX, &format!("{name}_inb"));
}

/// A nest that calls a routine whose indices the launch bounds from its arguments (`spread`,
/// acc-codegen's `prove_routine`): its `_inb` kernel calls the routine's twin and has no
/// panic site at all; the checked kernel checks the routine's reads at the routine's line.
/// A routine whose argument has no interval (`pick(a, idx[i])`) is called by `_inbc`, which
/// checks the routine's index and none of the nest's own.
#[test]
fn routines_bounded_at_the_launch_have_no_checks_in_the_unchecked_kernel() {
    let name = panic_test_kernel("spread_rows");
    let checked = inlined_panic_sites(entry(&name));
    for site in panic_test_sites("let side = |k: usize| a[c - k * s] + a[c + k * s];", &["a[c -", "a[c +"]) {
        assert!(checked.contains(&site), "{name} checks the routine's read {site:?}: {checked:?}");
    }
    ptx::assert_unchecked(PTX, &format!("{name}_inb"));
    let gather = panic_test_kernel("gather_in_routine");
    assert_eq!(inlined_panic_sites(entry(&format!("{gather}_inbc"))), panic_test_sites("a[j] + 1", &["a[j]"]), "{gather}_inbc checks `a[j]` only");
    ptx::assert_unchecked(PTX, &format!("{gather}_inb"));
}

/// A body the lowering repeats stands on lines of the device crate after the user's (a nest's
/// lean kernel: a second copy of the nest); its index checks carry the user's line and column
/// (`acc_device::Ix`), so each copy checks `a[..]` at the user's line, and none at its column
/// on another line (before, the lean kernel's named the line after it).
#[test]
fn repeated_bodies_check_indices_at_the_users_line() {
    let src = include_str!("semantics_kernel_panic.rs");
    let (n, line) = src.lines().enumerate().find(|(_, l)| l.trim() == "s += a[r * cols + c];").expect("the row sum");
    let region = src.lines().position(|l| l.starts_with("fn sums_of_rows(")).expect("the region") as u32;
    let name = format!("acc_tests_semantics_kernel_panic_rs_l{region}_sums_of_rows_0");
    let file = "tests/semantics_kernel_panic.rs".to_owned();
    let (n, a) = (n as u32 + 1, line.find("a[").unwrap() as u32 + 1);
    for k in [name.clone(), format!("{name}_lean")] {
        let sites = inlined_panic_sites(entry(&k));
        assert!(sites.contains(&(file.clone(), n, a)), "{k} checks `a[..]` at {file}:{n}:{a}: {sites:?}");
        assert!(sites.iter().all(|(_, l, c)| *c != a || *l == n), "{k} checks at {file}:{n}:{a} only: {sites:?}");
    }
}

/// Every source file a panic location in the PTX names is a file of this package (relative
/// path) or of a dependency (absolute path); none is the generated device crate's. Whether a
/// relative path is a file of the package is checked where the package's sources are (a test
/// binary run on another machine, e.g. a GPU host, has no source tree beside it).
#[test]
fn panic_locations_name_the_packages_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let sources_here = dir.join("Cargo.toml").is_file();
    if !sources_here {
        println!("{} is not here: the files named in the PTX are not checked to exist", dir.display());
    }
    let mut files: Vec<String> = ptx::global_strings(PTX).into_iter().filter(|s| s.ends_with(".rs")).collect();
    let mut start = 0;
    while let Some(e) = PTX[start..].find(".entry ") {
        let at = start + e;
        let name = PTX[at + ".entry ".len()..].split('(').next().expect("a name");
        files.extend(inlined_panic_sites(entry(name)).into_iter().map(|(f, _, _)| f));
        start = at + 1;
    }
    assert!(files.iter().any(|f| f == "tests/semantics_kernel_panic.rs"), "{files:?}");
    for f in &files {
        assert!(!f.contains("acc-device-crate") && f != "src/lib.rs" && f != "kernels.rs", "a generated path: {f}");
        assert!(f.starts_with('/') || !sources_here || dir.join(f).is_file(), "{f} is no file of the package");
    }
}

/// The kernel of region `name` in tests/semantics_schedules.rs (named by its attribute's line).
fn schedules_kernel(name: &str) -> &'static str {
    let src = include_str!("semantics_schedules.rs");
    let line = src.lines().position(|l| l.trim_start().starts_with(&format!("fn {name}(a:"))).unwrap_or_else(|| panic!("no region {name}")) as u32;
    let full = format!("acc_tests_semantics_schedules_rs_l{line}_{name}_0");
    let at = PTX.find(&format!(".entry {full}(")).unwrap_or_else(|| panic!("no kernel {full} in the PTX"));
    entry(&PTX[at + ".entry ".len()..at + ".entry ".len() + full.len()])
}

#[test]
fn bare_kernels_nests_spread_over_two_and_three_dimensional_grids() {
    // Every kernel's panic record reads %tid.* and %ctaid.* in x, y and z; the grid-stride loops
    // of a dimension read its sizes, %ntid (blockDim) and %nctaid (gridDim).
    // Two loops: the inner on x (coalesced), the outer on blockIdx.y / threadIdx.y.
    let k = schedules_kernel("two_bare");
    for reg in ["%ctaid.y", "%tid.y", "%nctaid.y", "%ntid.y", "%nctaid.x"] {
        assert!(k.contains(reg), "a bare 2-D kernels nest reads {reg}:\n{k}");
    }
    assert!(!k.contains("%nctaid.z") && !k.contains("%ntid.z"), "no z dimension in a 2-D nest:\n{k}");
    assert!(!k.contains("bar.sync") && !k.contains(".local"), "no barrier and no local memory in a 2-D nest:\n{k}");
    // Three loops: z too.
    for name in ["three_bare", "three_tile_8x4x2"] {
        let k = schedules_kernel(name);
        for reg in ["%nctaid.z", "%ntid.z", "%nctaid.y", "%ntid.y"] {
            assert!(k.contains(reg), "{name} reads {reg}:\n{k}");
        }
    }
    // OpenUH's gv-gv (both loops on a grid and a block dimension), `tile`, and the matrix
    // product's (i, j) on y and x (k in order).
    for name in ["two_gv_gv", "two_tile_32x8", "matmul"] {
        let k = schedules_kernel(name);
        assert!(k.contains("%nctaid.y") && k.contains("%ntid.y"), "{name} spreads over gridDim.y and blockDim.y:\n{k}");
    }
    // g-gv-v: the middle loop on blockIdx.y * blockDim.y + threadIdx.y, no z.
    let k = schedules_kernel("three_g_gv_v");
    assert!(k.contains("%nctaid.y") && k.contains("%ntid.y") && !k.contains("%ntid.z") && !k.contains("%nctaid.z"), "g-gv-v:\n{k}");
    // g-v: one-dimensional (blockIdx.x, threadIdx.x).
    let k = schedules_kernel("two_g_v");
    assert!(!k.contains("%nctaid.y") && !k.contains("%ntid.y"), "g-v is one-dimensional:\n{k}");
}

/// Whether kernel text `k` branches back to a label above the branch (a loop).
fn has_loop(k: &str) -> bool {
    let mut seen = Vec::new();
    for l in k.lines().map(str::trim) {
        if let Some(label) = l.strip_suffix(':').filter(|t| t.starts_with("$L")) {
            seen.push(label.to_string());
        } else if let Some(target) = l.contains("bra").then(|| l.rsplit(|c: char| c.is_whitespace()).next().unwrap_or("").trim_end_matches(';')) {
            if seen.iter().any(|s| s == target) {
                return true;
            }
        }
    }
    false
}

#[test]
fn three_dimensional_nests_bounded_at_the_launch_have_a_kernel_of_one_point_a_thread() {
    // A bare 3-D nest and gv-gv-gv: the unchecked kernel keeps its grid-stride loops (the
    // launch runs it where no grid covers the trips), and its twin of one point a thread has
    // none, reading the grid's sizes only to place its thread.
    for name in ["three_bare", "three_gv_gv_gv"] {
        let k = schedules_kernel(name);
        let name_of = |k: &str| k[".entry ".len()..].split('(').next().unwrap_or("").to_string();
        let base = name_of(k);
        let (inb, pt) = (entry(&format!("{base}_inb")), entry(&format!("{base}_pt_inb")));
        assert!(has_loop(inb), "{name}: the unchecked kernel loops:\n{inb}");
        assert!(!has_loop(pt), "{name}: one point a thread, no loop:\n{pt}");
        assert!(!pt.contains("%nctaid"), "{name}: one point a thread strides over no grid:\n{pt}");
        for reg in ["%ctaid.z", "%ctaid.y", "%ctaid.x", "%ntid.x"] {
            assert!(pt.contains(reg), "{name}: one point a thread reads {reg}:\n{pt}");
        }
    }
    // Not a 2-D nest (bands, measured at nvcc's speed), nor a nest with reductions or a `tile`.
    for name in ["two_bare", "two_gv_gv", "three_tile_8x4x2"] {
        let base = schedules_kernel(name)[".entry ".len()..].split('(').next().unwrap_or("").to_string();
        assert!(!PTX.contains(&format!(".entry {base}_pt_inb(")), "{name} has no kernel of one point a thread");
    }
}

/// The neighbours of a flattened point written from its index (`a[c - l]`, `a[c + m * l]`, in
/// a routine `a[c - 2 * s]`): the unchecked kernel of one point a thread adds a scaled index to
/// `a`'s address once (`&a[c]`), and reaches each neighbour from there by a distance
/// (`acc_device::UncheckedAt`), not by an index of its own scaled and added to `a`.
#[test]
fn neighbours_of_a_flattened_point_are_reached_from_its_address() {
    let k = schedules_kernel("seven");
    let base = k[".entry ".len()..].split('(').next().unwrap_or("").to_string();
    let pt = entry(&format!("{base}_pt_inb"));
    // `a` is the kernel's parameter 1 (0 is the panic slot), made a global address.
    let param = pt.lines().find(|l| l.contains("ld.param.b64") && l.contains(&format!("{base}_pt_inb_param_1]"))).expect("a's parameter");
    let p = param.split_whitespace().nth(1).expect("a register").trim_end_matches(',');
    let cvta = pt.lines().find(|l| l.contains("cvta.to.global.u64") && l.trim_end().ends_with(&format!("{p};"))).expect("a's global address");
    let a = cvta.split_whitespace().nth(1).expect("a register").trim_end_matches(',');
    let adds = pt.lines().filter(|l| l.trim_start().starts_with("add.s64") && l.split_whitespace().skip(2).any(|r| r.trim_end_matches([',', ';']) == a)).count();
    let loads = pt.matches("ld.global.nc.b64").count();
    assert!(loads >= 8, "{base}_pt_inb loads its 8 distinct neighbours:\n{pt}");
    assert_eq!(adds, 1, "{base}_pt_inb adds an index to `a` ({a}) {adds} times, once expected:\n{pt}");
}

#[test]
fn reductions_on_grid_schedules_combine_over_the_whole_block() {
    // 2-D nests with reductions (Jacobi's `max`, a bare nest, a clause on the outer loop only,
    // gv-gv, `tile`): gridDim.y (the grid-stride loops, the partial's linear block index; a
    // one-dimensional schedule never reads %nctaid.y), the block's combine over x, y and z
    // (%ntid.z and %tid.z, which only the grid schedules' `block_reduce_xyz` reads), warp
    // shuffles and a barrier between the warps' values.
    for name in ["jacobi_step", "stats", "red2_bare_max_f64", "red2_bare_and_bool", "red2_bare_outer_clause_sum_i64", "red2_gv_gv_sum_f64", "red2_tile_32x8_sum_i64"] {
        let k = schedules_kernel(name);
        for reg in ["%nctaid.y", "%ntid.y", "%ntid.z", "%tid.z"] {
            assert!(k.contains(reg), "{name} reads {reg}:\n{k}");
        }
        assert!(k.contains("shfl.sync") && has_barrier(k), "{name} combines its block with shuffles and a barrier:\n{k}");
        assert!(!k.contains(".local"), "no local memory in {name}:\n{k}");
    }
    // 3-D: the grid-stride loops over z.
    for name in ["red3_bare_sum_i64", "red3_tile_8x4x2_min_i64"] {
        let k = schedules_kernel(name);
        assert!(k.contains("%nctaid.z") && k.contains("%nctaid.y") && k.contains("shfl.sync"), "{name} spreads over a 3-D grid and combines its block:\n{k}");
    }
}

/// The kernel of region `name` in tests/semantics_cache.rs.
fn cache_kernel(name: &str) -> &'static str {
    region_kernel(include_str!("semantics_cache.rs"), "semantics_cache", name)
}

/// The kernel of region `name` in `tests/<file>.rs`, whose text is `src` (named by its
/// attribute's line).
fn region_kernel(src: &str, file: &str, name: &str) -> &'static str {
    // The region's `fn` line, under its `#[acc::..]` attribute (whose line names the kernel).
    let lines: Vec<&str> = src.lines().collect();
    let line = (1..lines.len())
        .find(|&l| lines[l].trim_start().starts_with(&format!("fn {name}(")) && lines[l - 1].trim_start().starts_with("#[acc::"))
        .unwrap_or_else(|| panic!("no region {name}")) as u32;
    let full = format!("acc_tests_{file}_rs_l{line}_{name}_0");
    let at = PTX.find(&format!(".entry {full}(")).unwrap_or_else(|| panic!("no kernel {full} in the PTX"));
    entry(&PTX[at + ".entry ".len()..at + ".entry ".len() + full.len()])
}

#[test]
fn coarsened_gemms_copy_and_read_tiles_16_bytes_at_a_time() {
    // Tiles of 16 and 32 rows, each thread taking 4 of them (acc-codegen's `tiles::Coarse`):
    // the fetch copies 16 bytes at a time from global memory, and the rows of `a`'s tile, which
    // a warp reads a row at a time, are read 16 bytes at a time (four `f32`s, two `f64`s)
    // where the trip's reads are not each under a condition of their own (`gemm_both32`'s
    // `if k < n` in the k loop keeps them apart: only the fetch is wide there).
    for name in ["gemm_both16", "gemm_a16", "gemm_both32", "gemm_f64_rows"] {
        let k = cache_kernel(name);
        assert!(k.contains("ld.global.nc.v4.b32"), "{name} copies its tiles 16 bytes at a time:\n{k}");
        if name == "gemm_both32" {
            continue;
        }
        let wide = if name.ends_with("f64_rows") { "ld.shared.v2.b64" } else { "ld.shared.v4.b32" };
        assert!(k.contains(wide), "{name} reads its tile rows 16 bytes at a time ({wide}):\n{k}");
    }
}

#[test]
fn tile_loop_windows_live_in_shared_memory_between_barriers() {
    // 1-D windows at the top of a tile loop (the N-body's): fetched into shared memory each
    // trip, read from there between barriers.
    for name in ["nbody_tiles", "rows_tiles"] {
        let k = cache_kernel(name);
        assert!(uses_shared(k, "st.shared") && uses_shared(k, "ld.shared"), "{name} stages its windows in shared memory:\n{k}");
        assert!(k.contains("barrier.sync"), "{name} meets at barriers around the windows' reads:\n{k}");
    }
}

#[test]
fn windows_moving_with_a_tile_nest_are_fetched_once_a_tile_16_bytes_at_a_time() {
    // The Jacobi's `a[(i - 1..i + 2) * n + (j - 1..j + 2)]` at the top of the nest's body: the
    // block's tile and its halo fetched into shared memory, read there between barriers; rows
    // of 34 `f32` (a 32-wide tile) fetched a 16-byte word at a time, several words of a thread
    // in flight before its stores.
    for name in ["jacobi9_32x8", "jacobi9_8x3", "skewed_16x16"] {
        let k = cache_kernel(name);
        assert!(uses_shared(k, "st.shared") || k.contains("st.v4.b32"), "{name} fetches its tile into shared memory:\n{k}");
        assert!(uses_shared(k, "ld.shared"), "{name} reads its tile from shared memory:\n{k}");
        assert!(k.contains("barrier.sync"), "{name} meets at barriers around the tile's reads:\n{k}");
    }
    // (Four load sites, one a word in flight: written as a loop over an array, the compiler
    // kept one site and the words in local memory.)
    let k = cache_kernel("jacobi9_32x8");
    let wide = k.matches("ld.global.nc.v4.b32").count();
    assert!(wide >= 4, "jacobi9_32x8 has {wide} 16-byte load sites, 4 expected (its words in flight together):\n{k}");
}

/// A staged stencil's thread takes adjacent rows of the tile (`jacobi9_32x32`: 8 a thread),
/// so that the rows its copies share are read from the tile once: on a whole tile the first
/// point reads its 9 words and each of the 7 next only the 3 of its new row (rows a block
/// apart: 9 words for every point).
#[test]
fn staged_stencils_read_the_rows_their_copies_share_once() {
    let checked = cache_kernel("jacobi9_32x32");
    let name = checked.split(".entry ").nth(1).and_then(|r| r.split('(').next()).expect("a name");
    let inb = entry(&format!("{name}_inb"));
    // The tile's reads before each point's store.
    let mut reads = vec![0usize];
    for l in inb.lines().map(str::trim_start) {
        if l.starts_with("ld.shared") {
            *reads.last_mut().expect("one") += 1;
        } else if l.starts_with("st.global") {
            reads.push(0);
        }
    }
    let row_only = reads.iter().filter(|&&r| r == 3).count();
    assert!(row_only >= 7, "{name}_inb: the tile's reads before each store {reads:?}, 7 points of 3 expected:\n{inb}");
}

/// A nest staging 2-D tiles whose indices the launch bounds has a kernel without their checks
/// too (`_inb`): it stages and reads its tile as the checked kernel does, and its only panic
/// sites are acc-device's own (the shared memory's size, `cache_window`), none in the test's
/// file; the checked kernel checks the store `b[i * n + j]` of each row a thread takes.
#[test]
fn staged_tile_nests_bounded_at_the_launch_have_a_kernel_without_checks() {
    let checked = cache_kernel("jacobi9_32x8");
    let name = checked.split(".entry ").nth(1).and_then(|r| r.split('(').next()).expect("a name");
    let inb = entry(&format!("{name}_inb"));
    assert!(uses_shared(inb, "ld.shared") && has_barrier(inb) && inb.contains("ld.global.nc.v4.b32"), "{name}_inb stages its tile:\n{inb}");
    let file = "tests/semantics_cache.rs";
    let ours = |k: &str| inlined_panic_sites(k).into_iter().filter(|(f, _, _)| f == file).count();
    assert!(ours(checked) >= 4, "{name} checks its stores: {:?}", inlined_panic_sites(checked));
    assert_eq!(ours(inb), 0, "{name}_inb checks no index of {file}: {:?}", inlined_panic_sites(inb));
}

/// A block barrier (`bar.sync`, or the `barrier.red.popc` that counts the threads too).
fn has_barrier(k: &str) -> bool {
    k.contains("bar.sync") || k.contains("barrier.sync") || k.contains("barrier.red") || k.contains("bar.red")
}

#[test]
fn cache_windows_live_in_shared_memory_between_barriers() {
    // The cached stencils store their windows to shared memory, read them back, and meet at
    // barriers around the reads; the same stencil without `cache!` touches no shared memory.
    for name in ["stencil3", "stencil3_strided", "stencil5", "forward_rows", "wide41", "two_windows", "three_windows", "two_loops"] {
        let k = cache_kernel(name);
        assert!(uses_shared(k, "st.shared"), "{name} fetches its window into shared memory:\n{k}");
        assert!(uses_shared(k, "ld.shared"), "{name} reads its window from shared memory:\n{k}");
        assert!(has_barrier(k), "{name} has barriers around the window's reads:\n{k}");
        assert!(k.contains("ld.global.nc"), "{name} fetches through the read-only path:\n{k}");
    }
    let k = cache_kernel("stencil3_plain");
    assert!(!uses_shared(k, ".shared"), "no shared memory without `cache!`:\n{k}");
    assert!(!has_barrier(k), "no barrier without `cache!`:\n{k}");
}

/// A trip of a loop staging 1-D windows gives each thread several points a block apart
/// (`acc_device::window_points`: 4 for these), so each thread loads 5 elements of a window a
/// trip, all in flight a trip ahead: 5 load sites before the loop and 5 in it (with one point
/// a thread, 2 and 2), the elements kept in registers (no local memory).
#[test]
fn staged_windows_load_the_trips_points_ahead_in_registers() {
    for name in ["stencil3", "stencil5", "stencil_sum"] {
        let k = cache_kernel(name);
        let loads = k.matches("ld.global.nc").count();
        assert!(loads >= 10, "{name}: {loads} load sites of the window, 10 expected (5 elements a thread a trip, loaded a trip ahead):\n{k}");
        assert!(!k.contains(".local"), "{name} keeps the trip's elements in registers:\n{k}");
    }
}

/// The random 1-D windows of tests/semantics_windows.rs (suite/tests/gen/windows.py) are all staged:
/// each region's kernel fetches into shared memory, reads it back and meets at barriers.
#[test]
fn random_windows_are_all_staged_in_shared_memory() {
    let src = include_str!("semantics_windows.rs");
    let lines: Vec<&str> = src.lines().collect();
    // The regions: `fn wNN(` under an `#[acc::..]` attribute.
    let names: Vec<&str> = (1..lines.len())
        .filter(|&l| lines[l - 1].trim_start().starts_with("#[acc::"))
        .filter_map(|l| lines[l].trim_start().strip_prefix("fn ")?.split('(').next().filter(|n| n.starts_with('w')))
        .collect();
    assert_eq!(names.len(), 24, "the generated regions of tests/semantics_windows.rs");
    for name in names {
        let k = region_kernel(src, "semantics_windows", name);
        assert!(uses_shared(k, "st.shared") && uses_shared(k, "ld.shared") && has_barrier(k), "{name} stages its windows in shared memory:\n{k}");
    }
}

#[test]
fn gemm_2d_windows_live_in_shared_memory_between_barriers() {
    // The GEMMs with 2-D windows fetch their tiles into shared memory over a 2-D block and
    // meet at barriers around the reads; the same GEMM without `cache!` has neither.
    for name in ["gemm_both16", "gemm_both32", "gemm_a16", "gemm_b32", "gemm_offsets"] {
        let k = cache_kernel(name);
        assert!(uses_shared(k, "st.shared") && uses_shared(k, "ld.shared"), "{name} stages its tiles in shared memory:\n{k}");
        assert!(k.contains("barrier.sync"), "{name} meets at barriers around the tiles' reads:\n{k}");
        assert!(k.contains("%tid.y"), "{name} runs on 2-D blocks:\n{k}");
    }
    let k = cache_kernel("gemm_plain16");
    assert!(!uses_shared(k, ".shared") && !has_barrier(k), "no shared memory and no barrier without `cache!`:\n{k}");
}
