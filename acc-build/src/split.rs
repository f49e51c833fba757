//! The package's PTX cut into one module per source file of regions.
//!
//! The driver JIT-compiles a PTX module as a whole when a program loads it, and a package's
//! PTX holds the kernels of every file that has regions: its library, each test, example and
//! bench. A program runs the regions of a few files (an example: its own file and the
//! library), so it should not wait for the others: acc's own PTX (about 700 kernels, 10 MB)
//! took 28 s to load before `examples/03-jacobi.rs` could launch its first kernel on an H200.
//!
//! Each module of the build is cut into one module per file: the module's text without the
//! kernels (`.entry`) of the other files. What is not a kernel (the `.func`s that kernels call,
//! panic messages and other globals) stays in each, so every module is complete; kernels are
//! most of the text (98% of acc's own). `acc_runtime::ptx_modules` finds the module of a
//! kernel by its `.entry`, and `acc_runtime` loads a module at the first launch of one of its
//! kernels.

/// The file part of a kernel's name (`acc_<file>_l<line>_<fn>`, see
/// `acc_codegen::kernel_name`): up to the first `_rs_l<digits>_`; the whole name when there is
/// none (such a kernel gets a module of its own, which is still correct).
fn file_of(kernel: &str) -> &str {
    let mut from = 0;
    while let Some(at) = kernel[from..].find("_rs_l").map(|a| from + a) {
        let rest = &kernel[at + "_rs_l".len()..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with('_') {
            return &kernel[..at + "_rs".len()];
        }
        from = at + 1;
    }
    kernel
}

/// The kernels of `ptx`: name and the range of lines from its `.entry` line to its closing
/// `}` (LLVM's NVPTX printer puts a function's braces at the start of a line and indents
/// every inner block).
fn kernels(lines: &[&str]) -> Vec<(String, std::ops::Range<usize>)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let decl = l.strip_prefix(".visible ").or_else(|| l.strip_prefix(".weak ")).unwrap_or(l);
        if let Some(rest) = decl.strip_prefix(".entry ") {
            let name = rest.split(['(', ' ']).next().unwrap_or_default().to_owned();
            match lines[i..].iter().position(|l| *l == "}") {
                Some(end) => {
                    found.push((name, i..i + end + 1));
                    i += end + 1;
                    continue;
                }
                // Not the printer's shape: leave the module whole (see `by_file`).
                None => return Vec::new(),
            }
        }
        i += 1;
    }
    found
}

/// `modules` with each one cut into one module per file of regions, in the order of each
/// file's first kernel. A module whose kernels all come from one file stays as it is.
pub(crate) fn by_file(modules: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for m in modules {
        let lines: Vec<&str> = m.split('\n').collect();
        let ks = kernels(&lines);
        let mut files: Vec<&str> = Vec::new();
        for (name, _) in &ks {
            let f = file_of(name);
            if !files.contains(&f) {
                files.push(f);
            }
        }
        if files.len() <= 1 {
            out.push(m.clone());
            continue;
        }
        for f in files {
            // The lines of the other files' kernels go.
            let mut keep = vec![true; lines.len()];
            for (name, range) in &ks {
                if file_of(name) != f {
                    // The `// .globl <name>` line that LLVM prints before a kernel goes too.
                    let from = if range.start > 0 && lines[range.start - 1].trim_start().starts_with("// .globl") { range.start - 1 } else { range.start };
                    keep[from..range.end].iter_mut().for_each(|k| *k = false);
                }
            }
            let text: Vec<&str> = lines.iter().zip(&keep).filter(|(_, k)| **k).map(|(l, _)| *l).collect();
            out.push(text.join("\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = "//\n.version 7.0\n.target sm_80\n.address_size 64\n\n.func helper\n(\n)\n;\n.global .align 1 .b8 msg[2] = {104, 105};\n\t// .globl\tacc_tests_a_rs_l3_f_0\n.visible .entry acc_tests_a_rs_l3_f_0(\n\t.param .u64 p\n)\n{\n\t{ // callseq 0\n\tcall.uni helper, ();\n\t}\n\tret;\n}\n\t// .globl\tacc_examples_b_rs_l9_g_0\n.visible .entry acc_examples_b_rs_l9_g_0(\n)\n{\n\tret;\n}\n\t// .globl\tacc_tests_a_rs_l12_h_0\n.visible .entry acc_tests_a_rs_l12_h_0(\n)\n{\n\tret;\n}\n.func helper\n(\n)\n{\n\tret;\n}\n";

    #[test]
    fn kernel_names_give_their_file() {
        assert_eq!(file_of("acc_tests_a_rs_l3_f_0"), "acc_tests_a_rs");
        assert_eq!(file_of("acc_tests_my_rs_lib_rs_l30_go_rs_l2_x_0"), "acc_tests_my_rs_lib_rs");
        assert_eq!(file_of("acc_src_lib_rs_l7_axpy_f32_1"), "acc_src_lib_rs");
        assert_eq!(file_of("odd"), "odd");
    }

    #[test]
    fn each_file_gets_a_module_with_everything_that_is_not_a_kernel() {
        let ms = by_file(&[PTX.to_owned()]);
        assert_eq!(ms.len(), 2);
        let (a, b) = (&ms[0], &ms[1]);
        for m in [a, b] {
            assert!(m.starts_with("//\n.version 7.0\n.target sm_80\n.address_size 64\n"));
            assert!(m.contains(".global .align 1 .b8 msg[2]") && m.contains(".func helper\n(\n)\n;") && m.ends_with(".func helper\n(\n)\n{\n\tret;\n}\n"));
        }
        assert!(a.contains(".entry acc_tests_a_rs_l3_f_0(") && a.contains(".entry acc_tests_a_rs_l12_h_0(") && !a.contains("acc_examples_b"));
        assert!(b.contains(".entry acc_examples_b_rs_l9_g_0(") && !b.contains("acc_tests_a"));
        assert!(a.contains("\t{ // callseq 0\n\tcall.uni helper, ();\n\t}\n\tret;\n}\n"), "inner blocks stay whole:\n{a}");
    }

    #[test]
    fn a_module_of_one_file_stays_whole() {
        let one = PTX.replace("acc_examples_b_rs_l9_g_0", "acc_tests_a_rs_l9_g_0");
        assert_eq!(by_file(std::slice::from_ref(&one)), [one]);
        let unclosed = "//\n.visible .entry acc_a_rs_l1_f_0(\n)\n{\n\tret;\n.visible .entry acc_b_rs_l1_f_0(\n";
        assert_eq!(by_file(&[unclosed.to_owned()]), [unclosed.to_owned()], "not the printer's shape: left whole");
    }
}
