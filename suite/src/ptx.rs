//! Reading the PTX text acc-build writes for a package (`$OUT_DIR/acc_kernels.ptx`): kernels by
//! name, their instructions, the panic sites their index checks store, and the facts every
//! package's device code has (each kernel keeps its panic slot first, no integer negation is
//! left for ptxas).

/// A block barrier (acc-device's `sync_threads`, `bar.sync`).
pub const BARRIER: &str = "bar.sync";

/// The barrier after a statement only a group's leader runs, and in a broadcast
/// (`sync_threads_checked`: it counts the threads arriving, so that a block that lost a thread
/// to a kernel panic stops there).
pub const CHECKED_BARRIER: &str = "barrier.red.popc.u32";

/// The text of kernel `name` in `ptx`, from its `.entry` line to its closing brace.
pub fn entry(ptx: &'static str, name: &str) -> &'static str {
    let start = ptx.find(&format!(".entry {name}(")).unwrap_or_else(|| panic!("no .entry {name} in the PTX"));
    let end = ptx[start..].find("\n}\n").map_or(ptx.len(), |e| start + e + 3);
    &ptx[start..end]
}

/// The names of every kernel in `ptx`, in order.
pub fn entry_names(ptx: &'static str) -> Vec<&'static str> {
    ptx.match_indices(".entry ").map(|(at, _)| ptx[at + 7..].split('(').next().unwrap()).collect()
}

/// Whether kernel text `k` has `op` (`.shared`, `st.shared`, `ld.shared`) on a line other than
/// its panic slot's: every kernel keeps its launch's slot in shared memory
/// (`acc_device::panic::enter`).
pub fn uses_shared(k: &str, op: &str) -> bool {
    k.lines().any(|l| l.contains(op) && !l.contains("__acc_panic_slot"))
}

/// The lines of `k` that start with one of `ops`, by position.
pub fn lines_of(k: &str, ops: &[&str]) -> Vec<usize> {
    k.lines().map(str::trim_start).enumerate().filter(|(_, l)| ops.iter().any(|o| l.starts_with(o))).map(|(i, _)| i).collect()
}

/// The longest run of `ld.global.nc` lines of `k` with no `st.global` between them.
pub fn longest_load_run(k: &str) -> usize {
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

/// The byte strings of the PTX's global constants (`.b8 name[N] = {..}`, the trailing NUL
/// dropped).
pub fn global_strings(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter(|l| l.starts_with(".global") && l.contains(".b8 "))
        .filter_map(|l| {
            let list = l.split_once('{')?.1.split_once('}')?.0;
            let bytes: Option<Vec<u8>> = list.split(',').map(|b| b.trim().parse::<u8>().ok()).collect();
            Some(String::from_utf8_lossy(&bytes?).trim_end_matches('\0').to_owned())
        })
        .collect()
}

/// The panic sites of a kernel whose location acc-device's `panic_bounds`, inlined, writes
/// with immediate stores into the panic record (`PanicRecord`: the file's 256 bytes from
/// offset 72, the line at 8 and the column at 12): (file, line, column) each.
pub fn inlined_panic_sites(kernel: &str) -> Vec<(String, u32, u32)> {
    let mut sites: Vec<(Vec<u8>, u32, u32)> = Vec::new();
    for l in kernel.lines() {
        let Some(rest) = l.trim().strip_prefix("st.volatile.b") else { continue };
        let Some((_, at)) = rest.split_once("+") else { continue };
        let Some((offset, value)) = at.split_once("],") else { continue };
        let (Ok(offset), Ok(value)) = (offset.parse::<u32>(), value.trim().trim_end_matches(';').parse::<u32>()) else {
            continue;
        };
        match offset {
            72 => sites.push((vec![value as u8], 0, 0)),
            73..328 => sites.last_mut().expect("the file's first byte is stored first").0.push(value as u8),
            8 => sites.last_mut().expect("a site").1 = value,
            12 => sites.last_mut().expect("a site").2 = value,
            _ => {}
        }
    }
    sites.into_iter().map(|(f, l, c)| (String::from_utf8(f).expect("UTF-8 file name"), l, c)).collect()
}

/// Asserts that kernel `name` of `ptx` has no panic site, nor the panic path.
pub fn assert_unchecked(ptx: &'static str, name: &str) {
    let k = entry(ptx, name);
    assert!(inlined_panic_sites(k).is_empty(), "{name} has no check:\n{k}");
    assert!(!k.contains("report_panic"), "{name} has no panic path:\n{k}");
}

/// Asserts that every kernel of `ptx` that can panic keeps its launch's panic slot, its first
/// parameter, in the block's `__acc_panic_slot` (declared once in each module) before anything
/// else, so that its panics reach the record of the stream it runs on; returns the kernels that
/// cannot panic (no read of the slot in the body and no call: acc-build's `slot.rs` drops the
/// store there).
pub fn kernels_without_panic_slot(ptx: &'static str) -> Vec<&'static str> {
    // Once in each module (the text holds one module per file of regions).
    for module in ptx.split(".version ").skip(1) {
        assert_eq!(module.matches(".shared .align 8 .u64 __acc_panic_slot;").count(), 1);
    }
    let mut without = Vec::new();
    for name in entry_names(ptx) {
        let k = entry(ptx, name);
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
    without
}

/// ptxas 13.0 on sm_90 drops an integer negation that it folds into a three-input `max`/`min`
/// (`acc-build/src/ptxas.rs`): asserts that no `neg.s16`/`neg.s32` is left in `ptx`, and
/// returns how many negations it holds written as `not` and `add 1`.
pub fn rewritten_integer_negations(ptx: &str) -> usize {
    let lines: Vec<&str> = ptx.lines().map(str::trim_start).collect();
    let negs = lines.iter().filter(|l| l.starts_with("neg.s32") || l.starts_with("neg.s16")).count();
    assert_eq!(negs, 0, "integer negations left in the PTX");
    lines.windows(2).filter(|w| w[0].starts_with("not.b32") && w[1].starts_with("add.s32") && w[1].ends_with(", 1;")).count()
}

/// The modules of `ptx` (acc-build's `split.rs`: one per file of regions) that hold a kernel of
/// the file whose kernels are named `acc_<file>_..`; asserts there is one at least and that
/// each holds that file's kernels alone (a program loads only the kernels of its own files).
pub fn assert_modules_of_their_own(ptx: &str, file: &str) {
    let own = format!(".entry acc_{file}_");
    let holding: Vec<&str> = ptx.split("\n// acc-build: module\n").skip(1).filter(|m| m.contains(&own)).collect();
    assert!(!holding.is_empty(), "{file}: no module");
    for m in holding {
        assert_eq!(m.matches(".entry ").count(), m.matches(&own).count(), "{file}'s module holds other files' kernels");
    }
}
