//! Builds the hand-written device crate `tests/fixtures/vadd-kernel` to PTX with the pinned
//! nightly and checks facts of the PTX: one `.entry` per kernel, the read-only data path, no
//! local memory in the streaming kernel, shuffles and barriers in the reduction, native float
//! atomics, the `Float` trait's `sqrt` as one instruction, and a self-contained module.
//!
//! Without the nightly toolchain the test prints why and passes, unless
//! `ACC_REQUIRE_NVPTX=1`. With `ptxas` on `PATH` (or `ACC_PTXAS=/path/to/ptxas`) it also
//! assembles the PTX for sm_90 and checks register counts. `ACC_BLESS_PTX=1` copies the PTX to
//! `acc-runtime/tests/fixtures/vadd_kernel.ptx`, which the GPU smoke tests embed.

use std::path::{Path, PathBuf};
use std::process::Command;

use acc_build::nvptx::{build_ptx, BuildErrorKind, INSTALL_COMMAND};

const KERNELS: [&str; 9] = [
    "acc_k_vadd",
    "acc_k_math",
    "acc_k_sum",
    "acc_k_reduce_shapes",
    "acc_k_atomics",
    "acc_k_oob",
    "acc_k_div",
    "acc_k_routine",
    "acc_k_lap13",
];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vadd-kernel")
}

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("nvptx")
}

/// The text of kernel `name`'s body, from its `.entry` line to its closing brace.
fn entry<'a>(ptx: &'a str, name: &str) -> &'a str {
    let start = ptx.find(&format!(".entry {name}(")).unwrap_or_else(|| panic!("no .entry {name}"));
    let end = ptx[start..].find("\n}\n").map_or(ptx.len(), |e| start + e + 3);
    &ptx[start..end]
}

/// Builds the fixture, or `None` when the toolchain is missing and not required.
fn build() -> Option<String> {
    match build_ptx(&fixture(), &target_dir(), "sm_80") {
        Ok(p) => Some(std::fs::read_to_string(p).unwrap()),
        Err(e) if e.kind() == BuildErrorKind::Toolchain && std::env::var_os("ACC_REQUIRE_NVPTX").is_none() => {
            assert!(e.to_string().contains(INSTALL_COMMAND));
            println!("skipped: no nvptx toolchain here ({e})");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn fixture_compiles_to_one_self_contained_ptx_module() {
    let Some(ptx) = build() else { return };
    assert!(ptx.contains(".target sm_80"), "target");
    assert!(ptx.contains(".address_size 64"));
    for k in KERNELS {
        assert_eq!(ptx.matches(&format!(".visible .entry {k}(")).count(), 1, "one .entry {k}");
    }
    assert_eq!(ptx.matches(".entry ").count(), KERNELS.len(), "no other kernels");
    // Everything the kernels call is defined in the module: no external functions.
    assert!(!ptx.contains(".extern .func"), "unresolved functions");
    // The block's copy of the launch's panic slot, declared once, stored by the prologue
    // (`acc_device::panic::enter`) of every kernel that can panic: one with a check or a call
    // to a panicking function. The sums, reductions and atomics have none, and lose the
    // store (acc-build's `slot.rs`).
    assert_eq!(ptx.matches(".shared .align 8 .u64 __acc_panic_slot;").count(), 1);
    for k in KERNELS {
        let keeps = entry(&ptx, k).contains("st.shared.u64 [__acc_panic_slot]");
        let panics = !["acc_k_sum", "acc_k_reduce_shapes", "acc_k_atomics"].contains(&k);
        assert_eq!(keeps, panics, "{k}: keeps its panic slot where it can panic:\n{}", entry(&ptx, k));
    }
    // Dynamic shared memory through `gpu_launch_sized_workgroup_mem`.
    assert!(ptx.contains(".extern .shared .align 8 .b8 gpu_launch_sized_workgroup_mem[];"));

    if std::env::var_os("ACC_BLESS_PTX").is_some() {
        let dst = Path::new(env!("CARGO_MANIFEST_DIR")).join("../acc-runtime/tests/fixtures/vadd_kernel.ptx");
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        if std::fs::read_to_string(&dst).ok().as_deref() != Some(ptx.as_str()) {
            std::fs::write(&dst, &ptx).unwrap();
            println!("blessed {}", dst.display());
        }
    }
}

#[test]
fn streaming_kernel_uses_the_read_only_path_and_no_local_memory() {
    let Some(ptx) = build() else { return };
    let vadd = entry(&ptx, "acc_k_vadd");
    assert_eq!(vadd.matches("ld.global.nc.b32").count(), 2, "{vadd}");
    assert_eq!(vadd.matches("st.global.b32").count(), 1, "{vadd}");
    assert!(!vadd.contains(".local"), "{vadd}");
    // Bounds checks report through the panic record and end the thread (`exit`; `trap` only
    // where the host set no record), without calls.
    assert!(vadd.contains("exit;") && vadd.contains("trap;"), "{vadd}");
    assert!(!vadd.contains("call"), "{vadd}");
    // The grid-stride schedule.
    for reg in ["%ctaid.x", "%ntid.x", "%tid.x", "%nctaid.x"] {
        assert!(vadd.contains(reg), "{reg}");
    }
}

#[test]
fn reductions_atomics_and_math_compile_to_their_instructions() {
    let Some(ptx) = build() else { return };
    let sum = entry(&ptx, "acc_k_sum");
    assert!(sum.contains("ld.global.nc.b64"));
    assert!(sum.contains("shfl.sync.down.b32"));
    assert!(sum.contains("bar.sync"), "the block reduction's barrier");
    assert!(sum.contains("bar.red.or.pred"), "last-block finish");
    assert!(sum.contains("gpu_launch_sized_workgroup_mem"));
    let atomics = entry(&ptx, "acc_k_atomics");
    assert!(atomics.contains("atom.add.f32"));
    assert!(atomics.contains("atom.add.f64"));
    assert!(atomics.contains("atom.global.max.s64"));
    assert!(atomics.contains("atom.global.or.b32"));
    assert!(atomics.contains(".cas.b64"), "f64 max/min by compare-and-swap");
    let math = entry(&ptx, "acc_k_math");
    assert!(math.contains("sqrt.rn.f64"), "x.sqrt() on f64 is acc_device::Float::sqrt");
    assert!(math.contains("fma.rn.f64"));
    assert!(math.contains("cvt.rmi.f64.f64"), "floor");
}

#[test]
fn ptxas_accepts_the_module_with_lean_register_use() {
    let Some(ptx) = build() else { return };
    let ptxas = std::env::var_os("ACC_PTXAS").map(PathBuf::from).or_else(|| {
        std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join("ptxas")).find(|p| p.is_file())
    });
    let Some(ptxas) = ptxas else {
        println!("skipped: no ptxas (set ACC_PTXAS)");
        return;
    };
    let src = target_dir().join("ptxas-input.ptx");
    std::fs::write(&src, &ptx).unwrap();
    let out = Command::new(ptxas)
        .args(["-arch=sm_90", "-v", "-o"])
        .arg(target_dir().join("vadd_kernel.cubin"))
        .arg(&src)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    let regs = |k: &str| -> u32 {
        let at = log.find(&format!("Compiling entry function '{k}'")).unwrap();
        let used = &log[at..][log[at..].find("Used ").unwrap() + 5..];
        used.split_whitespace().next().unwrap().parse().unwrap()
    };
    // Full occupancy (2048 threads per multiprocessor) needs at most 32.
    assert!(regs("acc_k_vadd") <= 32, "{log}");
    assert!(regs("acc_k_sum") <= 32, "{log}");
    // A routine's slice indexing (`acc_device::ix`, as acc-build writes it) checks bounds
    // inline: core's `panic_bounds_check` call took this kernel to 50 registers and an
    // 88-byte stack.
    assert!(regs("acc_k_routine") <= 32, "{log}");
    // Thirteen loads of a 3-D stencil: 76 registers (92 and an 88-byte stack with core's
    // check, 56 without any check).
    assert!(regs("acc_k_lap13") <= 80, "{log}");
    assert!(!ptx.contains("panic_bounds_check"), "core's bounds check is called");
}

#[test]
fn compile_errors_render_like_rustc() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("broken-kernel");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"broken-kernel\"\nversion = \"0.0.0\"\nedition = \"2021\"\n[lib]\npath = \"src/lib.rs\"\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "#![no_std]\n#![feature(abi_ptx)]\n#[panic_handler]\nfn p(_: &core::panic::PanicInfo) -> ! { loop {} }\n\
         #[no_mangle]\npub unsafe extern \"ptx-kernel\" fn k(c: *mut f32) {\n    *c = undefined_value;\n}\n",
    )
    .unwrap();
    let e = match build_ptx(&dir, &target_dir(), "sm_80") {
        Ok(p) => panic!("built {}", p.display()),
        Err(e) if e.kind() == BuildErrorKind::Toolchain && std::env::var_os("ACC_REQUIRE_NVPTX").is_none() => {
            println!("skipped: {e}");
            return;
        }
        Err(e) => e,
    };
    assert_eq!(e.kind(), BuildErrorKind::Compile, "{e}");
    let text = e.to_string();
    assert!(text.starts_with("error[E0425]: cannot find value `undefined_value` in this scope"), "{text}");
    assert!(text.contains("src/lib.rs:7:10"), "{text}");
    assert!(text.contains("(1 error)"), "{text}");
}
