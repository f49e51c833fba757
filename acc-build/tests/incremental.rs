//! After an edit, acc-build compiles only the kernels that changed (see `incremental` in
//! acc-build): a package of eight regions is built, edited and rebuilt with the pinned nightly,
//! and each time the PTX must hold the kernels of the source as it is now, each defined once,
//! whatever the earlier builds left.
//!
//! Without the nightly toolchain the test prints why and passes, unless `ACC_REQUIRE_NVPTX=1`.

use std::path::{Path, PathBuf};

const HEADER: &str = "// acc-build: PTX modules";
const MODULE_LINE: &str = "// acc-build: module";

fn region(i: usize, factor: &str) -> String {
    format!(
        "#[acc::parallel]\npub fn r{i}(a: &mut [f32]) {{\n    #[acc::r#loop(gang, vector)]\n    for i in 0..a.len() {{\n        a[i] = a[i] * {factor};\n    }}\n}}\n\n"
    )
}

/// `f32` `x` as PTX writes a constant.
fn ptx_f32(x: f32) -> String {
    format!("0f{:08X}", x.to_bits())
}

struct Package {
    dir: PathBuf,
}

impl Package {
    fn new(name: &str) -> Package {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"incr\"\nversion = \"0.0.0\"\nedition = \"2021\"\n[lib]\nname = \"incr\"\n").unwrap();
        Package { dir }
    }

    /// Writes `src/lib.rs` and builds; the PTX, or `None` without the toolchain.
    fn build(&self, src: &str) -> Option<String> {
        std::fs::write(self.dir.join("src/lib.rs"), src).unwrap();
        let out = self.dir.join("out");
        match acc_build::build(&self.dir, &out) {
            Ok(()) => Some(std::fs::read_to_string(out.join("acc_kernels.ptx")).unwrap()),
            Err(e) if e.contains(acc_build::nvptx::INSTALL_COMMAND) && std::env::var_os("ACC_REQUIRE_NVPTX").is_none() => {
                println!("skipped: no nvptx toolchain here ({e})");
                None
            }
            Err(e) => panic!("{e}"),
        }
    }
}

/// The modules of a PTX file (one, or those after each module line).
fn modules(ptx: &str) -> Vec<&str> {
    if !ptx.starts_with(HEADER) {
        return vec![ptx];
    }
    ptx.split(&format!("\n{MODULE_LINE}\n")).skip(1).collect()
}

/// The body of kernel `r{i}`, checked to be defined exactly once in the file.
fn entry(ptx: &str, i: usize) -> &str {
    let line = 1 + 8 * i + usize::from(i > 5 && ptx.contains("_l50_r6_0("));
    let head = format!(".entry acc_src_lib_rs_l{line}_r{i}_0(");
    assert_eq!(ptx.matches(&head).count(), 1, "kernel r{i} defined once:\n{}", ptx.lines().filter(|l| l.contains(".entry")).collect::<Vec<_>>().join("\n"));
    let m = modules(ptx).into_iter().find(|m| m.contains(&head)).unwrap();
    let at = m.find(&head).unwrap();
    &m[at..at + m[at..].find("\n}").unwrap()]
}

#[test]
fn an_edited_region_always_gets_new_ptx() {
    let pkg = Package::new("incremental");
    let factors = |changed: Option<(usize, &str)>| -> String {
        (0..8).map(|i| region(i, changed.filter(|c| c.0 == i).map_or(&format!("{i}.5"), |c| c.1))).collect()
    };
    // A full build: one module.
    let Some(ptx) = pkg.build(&factors(None)) else { return };
    assert!(!ptx.starts_with(HEADER), "a full build writes one module");
    for i in 0..8 {
        assert!(entry(&ptx, i).contains(&ptx_f32(i as f32 + 0.5)), "r{i}");
    }
    // r3 edited: it alone is compiled again, into a second module; its old definition is gone.
    let ptx = pkg.build(&factors(Some((3, "33.25")))).unwrap();
    assert_eq!(modules(&ptx).len(), 2, "a module of the changed kernel");
    assert_eq!(modules(&ptx)[1].matches(".entry ").count(), 1, "only r3 compiled again");
    let r3 = entry(&ptx, 3);
    assert!(r3.contains(&ptx_f32(33.25)) && !r3.contains(&ptx_f32(3.5)), "r3 has its new factor:\n{r3}");
    for i in (0..8).filter(|&i| i != 3) {
        assert!(entry(&ptx, i).contains(&ptx_f32(i as f32 + 0.5)), "r{i}");
    }
    // Edited back: the source as it was, so the PTX of r3 as it was (not the module of the
    // edit, which goes with nothing left in it).
    let ptx = pkg.build(&factors(None)).unwrap();
    assert_eq!(modules(&ptx).len(), 2);
    assert!(entry(&ptx, 3).contains(&ptx_f32(3.5)), "r3 back to 3.5");
    // r5 gets a line: r5, r6 and r7 move (their panics name new lines), more than a quarter of
    // the kernels: a full build, one module again.
    let longer = factors(None).replace("a[i] * 5.5;", "a[i]\n            * 5.5;");
    let ptx = pkg.build(&longer).unwrap();
    assert!(!ptx.starts_with(HEADER), "a full build");
    assert!(ptx.contains(".entry acc_src_lib_rs_l50_r6_0(") && ptx.contains(".entry acc_src_lib_rs_l58_r7_0("), "r6 and r7 one line lower");
    // The same source again: nothing to compile, the same PTX.
    assert_eq!(pkg.build(&longer).unwrap(), ptx);
    // r0 removed: its kernel goes.
    let fewer = longer.replacen(&region(0, "0.5"), &"\n".repeat(8), 1);
    let ptx = pkg.build(&fewer).unwrap();
    assert!(!ptx.contains("_r0_0("), "r0 is gone");
    assert!(entry(&ptx, 1).contains(&ptx_f32(1.5)));
}
