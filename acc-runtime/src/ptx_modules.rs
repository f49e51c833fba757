//! The package's PTX file as acc-build writes it: one PTX module, or several.
//!
//! acc-build writes a module per source file of regions (so that a program JIT-compiles only
//! the kernels of its own files), and after an edit the kernels that changed in modules of
//! their own: the file then starts with the line [`MODULES_HEADER`] and each module follows a
//! line [`MODULE_LINE`]. Each kernel is defined in exactly one of them (acc-build removes the
//! old definition of a kernel it rebuilt), and [`module_of`] finds that one; the driver
//! JIT-compiles each module on its own, at the first launch of one of its kernels.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The first line of a file of several modules.
pub const MODULES_HEADER: &str = "// acc-build: PTX modules";

/// The line before each module of a file of several modules.
pub const MODULE_LINE: &str = "// acc-build: module";

/// The modules of `ptx`: itself when it is one module.
pub fn modules(ptx: &str) -> Vec<&str> {
    if !ptx.starts_with(MODULES_HEADER) {
        return vec![ptx];
    }
    // Each module runs from the line after a marker line to the line before the next one.
    let marker = format!("\n{MODULE_LINE}\n");
    let starts: Vec<usize> = ptx.match_indices(&marker).map(|(at, _)| at).collect();
    starts
        .iter()
        .enumerate()
        .map(|(i, &at)| &ptx[at + marker.len()..starts.get(i + 1).map_or(ptx.len(), |&next| next + 1)])
        .collect()
}

/// The module of `ptx` that defines kernel `name`: `ptx` itself when it is one module (no
/// search), else the module with `.entry name(` (`ptx` when none has it: `gpu_ready` reports a
/// missing kernel before any launch). The kernels of a file of several modules are indexed
/// once per file.
pub fn module_of(ptx: &'static str, name: &str) -> &'static str {
    if !ptx.starts_with(MODULES_HEADER) {
        return ptx;
    }
    index(ptx).get(name).copied().unwrap_or(ptx)
}

/// Whether `ptx` defines kernel `name` (`.entry name(`): looked up in the index of a file of
/// several modules (a region's first call would otherwise search a program's whole PTX, 13 MB
/// for NPB, once for each of its kernels), searched for in one module.
pub fn defines(ptx: &'static str, name: &str) -> bool {
    if !ptx.starts_with(MODULES_HEADER) {
        return ptx.contains(&format!(".entry {name}("));
    }
    index(ptx).contains_key(name)
}

/// The kernels of a file of several modules, each with its module: made once per file.
fn index(ptx: &'static str) -> Arc<HashMap<&'static str, &'static str>> {
    type Index = HashMap<&'static str, &'static str>;
    static INDEXES: Mutex<Vec<(usize, Arc<Index>)>> = Mutex::new(Vec::new());
    let mut indexes = INDEXES.lock().unwrap_or_else(|e| e.into_inner());
    match indexes.iter().find(|(p, _)| *p == ptx.as_ptr() as usize) {
        Some((_, i)) => i.clone(),
        None => {
            let i = Arc::new(entries(ptx));
            indexes.push((ptx.as_ptr() as usize, i.clone()));
            i
        }
    }
}

/// Module `module` with kernel `name` and none of its other kernels (every global, function
/// and declaration stays): what the driver compiles again when one kernel needs other
/// settings (a block size, see `gpu/recompile.rs`), in milliseconds where the whole module of a file
/// of many regions takes seconds. A kernel runs from its `.entry` line to the first `}` at
/// the start of a line (the PTX printer indents every inner brace).
pub fn only_kernel(module: &str, name: &str) -> String {
    let mut out = String::with_capacity(module.len().min(1 << 20));
    let mut skipping = false;
    for line in module.split_inclusive('\n') {
        if skipping {
            skipping = !line.starts_with('}');
            continue;
        }
        let other = line.find(".entry ").is_some_and(|at| {
            let rest = &line[at + ".entry ".len()..];
            rest.split('(').next().map(str::trim) != Some(name)
        });
        if other {
            skipping = true;
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Each kernel of `ptx` and the module that defines it.
fn entries(ptx: &str) -> HashMap<&str, &str> {
    let mut index = HashMap::new();
    for m in modules(ptx) {
        for (at, _) in m.match_indices(".entry ") {
            let rest = &m[at + ".entry ".len()..];
            if let Some(end) = rest.find('(') {
                index.entry(&rest[..end]).or_insert(m);
            }
        }
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "//\n.version 8.7\n.target sm_80\n.address_size 64\n.visible .entry k1(\n)\n{\n\tret;\n}\n";
    const B: &str = "//\n.version 8.7\n.target sm_80\n.address_size 64\n.visible .entry k2(\n)\n{\n\tret;\n}\n.visible .entry k3(\n)\n{\n\tret;\n}\n";

    #[test]
    fn one_module_is_itself() {
        assert_eq!(modules(A), [A]);
        assert_eq!(module_of(A, "k1"), A);
        assert_eq!(module_of(A, "nope"), A);
    }

    #[test]
    fn each_kernel_comes_from_its_module() {
        let ptx: &'static str = format!("{MODULES_HEADER}\n{MODULE_LINE}\n{A}{MODULE_LINE}\n{B}").leak();
        assert_eq!(modules(ptx), [A, B]);
        for _ in 0..2 {
            assert_eq!(module_of(ptx, "k1"), A);
            assert_eq!(module_of(ptx, "k2"), B);
            assert_eq!(module_of(ptx, "k3"), B);
            assert_eq!(module_of(ptx, "k"), ptx, "a missing kernel: the whole text");
        }
        assert!(defines(ptx, "k1") && defines(ptx, "k3"));
        assert!(!defines(ptx, "k") && !defines(ptx, "k12"), "a name that only starts a kernel's is not one");
        assert!(defines(A, "k1") && !defines(A, "k"));
    }

    #[test]
    fn one_kernel_keeps_everything_but_the_other_kernels() {
        let m = ".version 8.7\n.target sm_80\n.global .u64 g;\n.func f()\n{\n\tret;\n}\n.visible .entry k2(\n)\n{\n\t{ // callseq 0\n\tcall f, ();\n\t}\n\tret;\n}\n.visible .entry k3(\n\t.param .u64 p\n)\n.maxntid 128, 8, 1\n{\n\tret;\n}\n";
        let k3 = only_kernel(m, "k3");
        assert_eq!(k3, ".version 8.7\n.target sm_80\n.global .u64 g;\n.func f()\n{\n\tret;\n}\n.visible .entry k3(\n\t.param .u64 p\n)\n.maxntid 128, 8, 1\n{\n\tret;\n}\n");
        let k2 = only_kernel(m, "k2");
        assert!(k2.contains(".entry k2(") && k2.contains("call f, ();") && !k2.contains("k3") && k2.ends_with("\tret;\n}\n"), "{k2}");
        assert_eq!(only_kernel(m, "nope"), ".version 8.7\n.target sm_80\n.global .u64 g;\n.func f()\n{\n\tret;\n}\n");
    }
}
