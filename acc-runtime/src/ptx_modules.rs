//! The package's PTX file as acc-build writes it: one PTX module, or several.
//!
//! A full build of the device crate gives one module. After an edit, acc-build compiles only
//! the kernels that changed, into a module of their own, and appends it: the file then starts
//! with the line [`MODULES_HEADER`] and each module follows a line [`MODULE_LINE`]. Each kernel
//! is defined in exactly one of them (acc-build removes the old definition of a kernel it
//! rebuilt), and [`module_of`] finds that one; the driver JIT-compiles each module on its
//! own.

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
/// search), else the module with `.entry name(` (`ptx` when none has it: `gpu_ready`
/// reports a missing kernel before any launch).
pub fn module_of<'a>(ptx: &'a str, name: &str) -> &'a str {
    if !ptx.starts_with(MODULES_HEADER) {
        return ptx;
    }
    let entry = format!(".entry {name}(");
    modules(ptx).into_iter().find(|m| m.contains(&entry)).unwrap_or(ptx)
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
        let ptx = format!("{MODULES_HEADER}\n{MODULE_LINE}\n{A}{MODULE_LINE}\n{B}");
        assert_eq!(modules(&ptx), [A, B]);
        assert_eq!(module_of(&ptx, "k1"), A);
        assert_eq!(module_of(&ptx, "k2"), B);
        assert_eq!(module_of(&ptx, "k3"), B);
        assert_eq!(module_of(&ptx, "k4"), ptx, "a missing kernel: the whole text");
    }
}
