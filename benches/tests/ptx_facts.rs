//! Facts about the device code acc-build produced for the benches (PTX, no GPU needed): 16-byte
//! accesses in the streaming copy, the papers' reductions in rounds that keep their loads in
//! flight, kernels without the checks the launch proves. Runs when built with
//! `--features cuda` (`scripts/test.sh` does that); without it there is no PTX.
#![cfg(acc_kernels)]

use acc_suite::ptx::{self, inlined_panic_sites, lines_of, longest_load_run, BARRIER};

static PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/acc_kernels.ptx"));

/// The text of kernel `name`.
fn entry(name: &str) -> &'static str {
    ptx::entry(PTX, name)
}

/// Every kernel that can panic keeps its launch's panic slot before anything else
/// ([`ptx::kernels_without_panic_slot`]); the wave step's kernel of one point a thread does
/// not (a store and 4 more instructions a thread it does not make), its checked kernel does.
#[test]
fn every_kernel_that_can_panic_keeps_its_launch_s_panic_slot() {
    let without = ptx::kernels_without_panic_slot(PTX);
    let wave = |end: &str| without.iter().any(|n| n.starts_with("acc_benches_stencils_rs_") && n.ends_with(end));
    assert!(wave("_wave3d_bare_0_pt_inb"), "{without:?}");
    assert!(!wave("_wave3d_bare_0"), "the checked kernel can panic: {without:?}");
}

#[test]
fn module_is_self_contained() {
    assert!(!PTX.contains(".extern .func"), "every function the kernels call is in the module");
}

/// No `neg.s16`/`neg.s32` reaches ptxas ([`ptx::rewritten_integer_negations`]).
#[test]
fn no_integer_negation_reaches_ptxas() {
    ptx::rewritten_integer_negations(PTX);
}

/// A streaming loop of `f64` runs in chunks of 16 bytes (acc-codegen `lower/chunk.rs`: 2 trips
/// a thread), each array moved in one access per chunk, as nvcc's copy kernels use `double2`.
#[test]
fn streaming_loops_move_16_bytes_an_access() {
    let copy64 = entry("acc_benches_gpu_rs_l27_copy64_0");
    assert_eq!(copy64.matches("ld.global.nc.v2.b64").count(), 1, "chunks of 2 f64s, one 16-byte load:\n{copy64}");
    assert_eq!(copy64.matches("st.global.v2.b64").count(), 1, "and one 16-byte store:\n{copy64}");
    assert!(!copy64.contains(".local"), "no local memory:\n{copy64}");
}

#[test]
fn reductions_keep_loads_in_flight() {
    // A 4-byte sum over an inner loop (the papers' vector position on f32): chunks of four
    // `f32`s (16-byte loads) in rounds of twelve, four, two, then one chunk, each round's
    // loads before its first add (the examples' dot has rounds of single trips).
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
    // (Where the trips share memory, the barriers stay: the suite's `phases` kernel.)
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
    ptx::assert_unchecked(PTX, &format!("{name}_inb"));
}
