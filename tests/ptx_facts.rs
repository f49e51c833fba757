//! Facts about the device code acc-build produced for this package (PTX, no GPU needed):
//! one `.entry` per loop nest of each example region, the read-only data path for `&[T]`
//! loads, no local-memory spills in the streaming and reduction kernels. Runs when built with
//! `--features cuda` (the README's test command does that); without it there is no PTX.
#![cfg(acc_kernels)]

static PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/acc_kernels.ptx"));

/// A block barrier (acc-device's `sync_threads`, `bar.sync`).
const BARRIER: &str = "bar.sync";

/// The barrier after a statement only a group's leader runs, and in a broadcast
/// (`sync_threads_checked`: it counts the threads arriving, so that a block that lost a thread
/// to a kernel panic stops there).
const CHECKED_BARRIER: &str = "barrier.red.popc.u32";

/// The text of kernel `name`, from its `.entry` line to its closing brace.
fn entry(name: &str) -> &'static str {
    let start = PTX.find(&format!(".entry {name}(")).unwrap_or_else(|| panic!("no .entry {name} in the PTX"));
    let end = PTX[start..].find("\n}\n").map_or(PTX.len(), |e| start + e + 3);
    &PTX[start..end]
}

/// Whether kernel text `k` has `op` (`.shared`, `st.shared`, `ld.shared`) on a line other than
/// its panic slot's: every kernel keeps its launch's slot in shared memory
/// (`acc_device::panic::enter`).
fn uses_shared(k: &str, op: &str) -> bool {
    k.lines().any(|l| l.contains(op) && !l.contains("__acc_panic_slot"))
}

/// Every kernel that can panic keeps its launch's panic slot, its first parameter, in the
/// block's `__acc_panic_slot` (declared once in the module) before anything else, so that its
/// panics reach the record of the stream it runs on. A kernel that cannot (no read of the slot
/// in its body and no call: acc-build's `slot.rs` drops the store there) has no store.
#[test]
fn every_kernel_that_can_panic_keeps_its_launch_s_panic_slot() {
    // Once in each module (the text holds one module per file of regions).
    for module in PTX.split(".version ").skip(1) {
        assert_eq!(module.matches(".shared .align 8 .u64 __acc_panic_slot;").count(), 1);
    }
    let names: Vec<&str> = PTX.match_indices(".entry ").map(|(at, _)| PTX[at + 7..].split('(').next().unwrap()).collect();
    assert!(names.len() > 100, "{}", names.len());
    let mut without = Vec::new();
    for name in names {
        let k = entry(name);
        let first = k.lines().find(|l| l.contains(&format!("{name}_param_0"))).unwrap_or_else(|| panic!("{name} has parameters:\n{k}"));
        assert!(first.trim().starts_with(".param .u64"), "{name} takes its panic slot first:\n{k}");
        let body = &k[k.find('{').unwrap()..];
        let Some(store) = body.find("st.shared.u64 [__acc_panic_slot]") else {
            // (A call could reach a panic: every kernel without the store calls nothing.)
            assert!(!body.contains("__acc_panic_slot]") && !body.contains("call"), "{name} may panic but lost its panic slot:\n{k}");
            without.push(name);
            continue;
        };
        for op in ["ld.global", "st.global", "bar.", "barrier.", "exit;", "trap;"] {
            assert!(body.find(op).is_none_or(|at| at > store), "{name} keeps its panic slot before any {op}:\n{k}");
        }
    }
    // The kernels whose checks the launch proved are most of those without it: the wave
    // step's kernel of one point a thread among them (a store and 4 more instructions a thread
    // it does not make).
    assert!(without.len() > 100, "{without:?}");
    let wave = |end: &str| without.iter().any(|n| n.starts_with("acc_benches_stencils_rs_") && n.ends_with(end));
    assert!(wave("_wave3d_bare_0_pt_inb"), "{without:?}");
    assert!(!wave("_wave3d_bare_0"), "the checked kernel can panic: {without:?}");
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

/// A streaming loop runs in chunks of 16 bytes (acc-codegen `lower/chunk.rs`: 4 trips a thread
/// of `f32`, 2 of `f64`): each array moved in one 16-byte access per chunk, as nvcc's copy
/// kernels use `float4`/`double2`; the trips outside whole aligned chunks keep element accesses.
#[test]
fn streaming_loops_move_16_bytes_an_access() {
    let k = entry("acc_examples_01_vadd_rs_l4_vadd_0");
    assert_eq!(k.matches("ld.global.nc.v4.b32").count(), 2, "a chunk of `a` and of `b`, 16 bytes each:\n{k}");
    assert_eq!(k.matches("st.global.v4.b32").count(), 1, "a chunk of `c` stored in one access:\n{k}");
    let copy64 = PTX.find(".entry acc_benches_gpu_rs_l27_copy64_0(").map(|s| &PTX[s..s + PTX[s..].find("\n}\n").unwrap()]).expect("copy64 kernel");
    assert_eq!(copy64.matches("ld.global.nc.v2.b64").count(), 1, "chunks of 2 f64s, one 16-byte load:\n{copy64}");
    assert_eq!(copy64.matches("st.global.v2.b64").count(), 1, "and one 16-byte store:\n{copy64}");
    for k in [k, copy64] {
        assert!(!k.contains(".local"), "no local memory:\n{k}");
    }
}

#[test]
fn dot_reduces_in_registers_and_shared_memory_without_spills() {
    let k = entry("acc_examples_02_dot_rs_l4_dot_0");
    assert!(!k.contains(".local"), "no local memory in dot:\n{k}");
    assert!(k.contains("shfl.sync"), "warp shuffles in the block reduction:\n{k}");
    assert!(k.contains(BARRIER), "a barrier between the warps' partials:\n{k}");
    assert!(k.contains("ld.global.nc"), "read-only loads:\n{k}");
}

/// The kernel of `name` in benches/papers.rs (kernels are named by their attribute's line:
/// `acc_benches_papers_rs_l<line>_<name>_0`).
fn papers_kernel(name: &str) -> &'static str {
    papers_entry(&format!("{name}_0"))
}

/// The lean kernel of `name` in benches/papers.rs (`..._<name>_0_lean`).
fn papers_lean_kernel(name: &str) -> &'static str {
    papers_entry(&format!("{name}_0_lean"))
}

fn papers_entry(suffix: &str) -> &'static str {
    let prefix = ".entry acc_benches_papers_rs_l";
    let found = PTX.match_indices(prefix).find_map(|(at, _)| {
        let full = PTX[at + ".entry ".len()..].split('(').next()?;
        let (line, rest) = full["acc_benches_papers_rs_l".len()..].split_once('_')?;
        (line.chars().all(|c| c.is_ascii_digit()) && rest == suffix).then_some(full)
    });
    entry(found.unwrap_or_else(|| panic!("no kernel ..._{suffix} of benches/papers.rs in the PTX")))
}

/// The lines of `k` that start with one of `ops`, by position.
fn lines_of(k: &str, ops: &[&str]) -> Vec<usize> {
    k.lines().map(str::trim_start).enumerate().filter(|(_, l)| ops.iter().any(|o| l.starts_with(o))).map(|(i, _)| i).collect()
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
    // A 4-byte sum over an inner loop (the papers' vector position on f32): chunks of four
    // `f32`s (16-byte loads) in rounds of twelve, four, two, then one chunk, each round's
    // loads before its first add.
    let k = papers_kernel("vector_add_f32");
    let wide = lines_of(k, &["ld.global.nc.v4"]);
    assert_eq!(wide.len(), 12 + 4 + 2 + 1, "16-byte loads in rounds of twelve, four, two and one chunks:\n{k}");
    assert!(lines_of(k, &["add.rn.f32"]).iter().find(|&&f| f > wide[0]).is_some_and(|&f| f > wide[11]), "the twelve loads of a round before its first add:\n{k}");
    // The rounds of twelve chunks check nothing (the chunks inside the array are counted before
    // them): their loop is one block, from its label to the branch back to it, with one test.
    let lines: Vec<&str> = k.lines().map(str::trim_start).collect();
    let label = (0..wide[0]).rev().find(|&i| lines[i].starts_with("$L__")).expect("the round's block has a label");
    let name = lines[label].trim_end_matches(':');
    let back = (wide[11]..lines.len()).find(|&i| lines[i].contains("bra")).expect("a branch after the round");
    assert!(lines[back].starts_with('@') && lines[back].ends_with(&format!("{name};")), "the round's block branches back to itself:\n{}", lines[label..=back].join("\n"));
    assert_eq!(lines[label..back].iter().filter(|l| l.starts_with("setp")).count(), 1, "one test a round (the loop's own):\n{}", lines[label..=back].join("\n"));
    // Its lean kernel (launches of more blocks than multiprocessors): rounds of eight single
    // trips, then of four, then the remainder trip.
    let k = papers_lean_kernel("vector_add_f32");
    let loads = lines_of(k, &["ld.global.nc"]);
    assert_eq!(loads.len(), 8 + 4 + 1, "a load in each trip of a round of eight, of a round of four, and of the remainder:\n{k}");
    assert!(lines_of(k, &["add.rn.f32"]).iter().find(|&&f| f > loads[0]).is_some_and(|&f| f > loads[7]), "the eight loads of a round before its first add:\n{k}");
}

/// The longest run of `ld.global.nc` lines of `k` with no `st.global` between them.
fn longest_load_run(k: &str) -> usize {
    let (mut run, mut best) = (0, 0);
    for l in k.lines().map(str::trim_start) {
        if l.starts_with("ld.global.nc") {
            run += 1;
            best = best.max(run);
        } else if l.starts_with("st.global") {
            run = 0;
        }
    }
    best
}

#[test]
fn worker_rounds_issue_their_loads_first() {
    // The papers' worker position (a worker per warp, each trip a row of 32 under an update
    // of `t` from `c`): the nest's kernel runs counted rounds of 8 worker trips (4 for `f64`)
    // whose 16 (8) loads (`c`'s element and the row's, each trip) come before the round's
    // first store, its indices checked once before the rounds with no division; its lean
    // kernel keeps one trip's 2 loads.
    for (name, run) in [("worker_add_i32", 16..usize::MAX), ("worker_add_f64", 8..16)] {
        let k = papers_kernel(name);
        assert!(run.contains(&longest_load_run(k)), "{name}: a round's {} loads before its stores:\n{k}", run.start);
        assert!(!k.lines().any(|l| l.trim_start().starts_with("div.") || l.trim_start().starts_with("rem.")), "{name}: no division:\n{k}");
    }
    assert!(longest_load_run(papers_lean_kernel("worker_add_i32")) < 8, "the lean kernel: no rounds");
}

#[test]
fn trips_that_share_nothing_meet_no_barrier() {
    // The papers' gang position: a gang loop over a worker loop over a vector loop that copies,
    // no shared memory in its trips: no barrier ends a trip of the gang or the worker loop
    // (each did, and kept every thread to one trip's loads). The barriers of the final block
    // reduction come after the loop: after every load and store of the arrays.
    let k = papers_kernel("gang_add_i32");
    let lines: Vec<&str> = k.lines().map(str::trim_start).collect();
    let last_mem = lines.iter().rposition(|l| l.starts_with("ld.global.nc") || l.starts_with("st.global.b32")).expect("the copy");
    let first_bar = lines.iter().position(|l| l.contains(BARRIER)).expect("the block reduction's barriers");
    assert!(first_bar > last_mem, "no barrier before the loop's last load or store:\n{k}");
    // And where the trips share memory (the matrix's phases: a leader's store read by all), the
    // barriers stay.
    assert!(entry(&phases_kernel()).matches(CHECKED_BARRIER).count() >= 1);
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

#[test]
fn module_is_self_contained() {
    assert!(!PTX.contains(".extern .func"), "every function the kernels call is in the module");
}

/// The byte strings of the PTX's global constants (`.b8 name[N] = {..}`, the trailing NUL
/// dropped).
fn global_strings() -> Vec<String> {
    PTX.lines()
        .filter(|l| l.starts_with(".global") && l.contains(".b8 "))
        .filter_map(|l| {
            let list = l.split_once('{')?.1.split_once('}')?.0;
            let bytes: Option<Vec<u8>> = list.split(',').map(|b| b.trim().parse::<u8>().ok()).collect();
            Some(String::from_utf8_lossy(&bytes?).trim_end_matches('\0').to_owned())
        })
        .collect()
}

/// The panic sites of a kernel whose location acc-device's `panic_bounds`, inlined, writes
/// with immediate stores into the panic record (`PanicRecord`: the file's bytes from offset
/// 64, the line at 8 and the column at 12): (file, line, column) each.
fn inlined_panic_sites(kernel: &str) -> Vec<(String, u32, u32)> {
    let mut sites: Vec<(Vec<u8>, u32, u32)> = Vec::new();
    for l in kernel.lines() {
        let Some(rest) = l.trim().strip_prefix("st.volatile.b") else { continue };
        let Some((_, at)) = rest.split_once("+") else { continue };
        let Some((offset, value)) = at.split_once("],") else { continue };
        let (Ok(offset), Ok(value)) = (offset.parse::<u32>(), value.trim().trim_end_matches(';').parse::<u32>()) else {
            continue;
        };
        match offset {
            64 => sites.push((vec![value as u8], 0, 0)),
            65..320 => sites.last_mut().expect("the file's first byte is stored first").0.push(value as u8),
            8 => sites.last_mut().expect("a site").1 = value,
            12 => sites.last_mut().expect("a site").2 = value,
            _ => {}
        }
    }
    sites.into_iter().map(|(f, l, c)| (String::from_utf8(f).expect("UTF-8 file name"), l, c)).collect()
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

/// A kernel without a panic site, nor the panic path.
fn assert_unchecked(kernel: &str) {
    assert!(inlined_panic_sites(entry(kernel)).is_empty(), "{kernel} has no check:\n{}", entry(kernel));
    assert!(!entry(kernel).contains("report_panic"), "{kernel} has no panic path:\n{}", entry(kernel));
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
    assert_unchecked(&format!("{name}_inb"));
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
    assert_unchecked(&format!("{name}_inb"));
    let gather = panic_test_kernel("gather_in_routine");
    assert_eq!(inlined_panic_sites(entry(&format!("{gather}_inbc"))), panic_test_sites("a[j] + 1", &["a[j]"]), "{gather}_inbc checks `a[j]` only");
    assert_unchecked(&format!("{gather}_inb"));
}

/// A nest with a lean kernel whose indices the launch bounds has that kernel a second time
/// without their checks (`_lean_inb`), which the launch runs in the lean kernel's place where
/// the bounds hold: the papers' gang position (a gang per warp, rows of 32 copied) checks its
/// accesses in the lean kernel and in none of the second's.
#[test]
fn lean_kernels_have_a_twin_without_the_checks_the_launch_proves() {
    let lean = papers_lean_kernel("gang_add_i32");
    let sites = inlined_panic_sites(lean);
    assert!(sites.iter().filter(|(f, _, _)| f == "benches/papers.rs").count() >= 3, "the lean kernel checks c[k], a[..] and b[..]: {sites:?}");
    let name = lean.split('(').next().and_then(|s| s.split_whitespace().last()).expect("a kernel name");
    assert_unchecked(&format!("{name}_inb"));
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
    let mut files: Vec<String> = global_strings().into_iter().filter(|s| s.ends_with(".rs")).collect();
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

/// ptxas 13.0 on sm_90 drops an integer negation that it folds into a three-input `max`/`min`
/// (`acc-build/src/ptxas.rs`; `tests/semantics_difftest.rs` holds the programs it broke): no
/// `neg.s16`/`neg.s32` reaches it, each is written as `not` and `add 1`.
#[test]
fn no_integer_negation_reaches_ptxas() {
    let lines: Vec<&str> = PTX.lines().map(str::trim_start).collect();
    let negs = lines.iter().filter(|l| l.starts_with("neg.s32") || l.starts_with("neg.s16")).count();
    assert_eq!(negs, 0, "integer negations left in the PTX");
    let rewritten = lines.windows(2).filter(|w| w[0].starts_with("not.b32") && w[1].starts_with("add.s32") && w[1].ends_with(", 1;")).count();
    assert!(rewritten > 0, "the suite's kernels negate integers (the serial `max` of `-(2 * (f % 16))`): their negations are there, rewritten");
}

/// A program loads only the kernels of its own files (`acc-build/src/split.rs`): every module
/// that holds an example's kernel holds that example's kernels alone.
#[test]
fn each_file_of_regions_has_modules_of_its_own() {
    let modules: Vec<&str> = PTX.split("\n// acc-build: module\n").skip(1).collect();
    assert!(modules.len() > 4, "one module per file of regions, at least the four examples'");
    for file in ["examples_01_vadd_rs", "examples_02_dot_rs", "examples_03_jacobi_rs", "examples_04_matmul_rs"] {
        let own = format!(".entry acc_{file}_");
        let holding: Vec<&&str> = modules.iter().filter(|m| m.contains(&own)).collect();
        assert!(!holding.is_empty(), "{file}: no module");
        for m in holding {
            assert_eq!(m.matches(".entry ").count(), m.matches(&own).count(), "{file}'s module holds other files' kernels");
        }
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

/// The random 1-D windows of tests/semantics_windows.rs (tests/gen/windows.py) are all staged:
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
