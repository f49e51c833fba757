//! The schedule report at build time, acc's `-Minfo=accel`: with `ACC_INFO=1` in the
//! environment of a `--features cuda` build (or the `info` clause on a region), acc-build prints
//! what each region and loop became (acc-codegen's `info` module writes that part) as
//! `cargo::warning=` lines and into `$OUT_DIR/acc-info.txt`, and adds each kernel's resources:
//!
//! - from `ptxas -v` when a `ptxas` is on `PATH` (the registers, stack frame, spill stores and
//!   loads and static shared memory of the machine code for `ACC_SM`);
//! - else from the PTX's declarations: its virtual registers (`.reg .b32 %r<20>;` declares 20;
//!   ptxas maps them to far fewer physical ones), its `.local` depot (a stack frame: arrays
//!   kept in local memory; spills are ptxas's and only it can tell them) and the static
//!   `.shared` variables it names. Each line says which source its numbers came from.
//!
//! `ACC_INFO=1` (or `all`) reports every region of the package; `ACC_INFO=examples/03-jacobi.rs`
//! (a comma-separated list of file prefixes or region names) only those; `0` or unset only the
//! regions that say `info`.

use std::collections::BTreeMap;
use std::path::Path;

use acc_codegen::info::RegionReport;

/// Which regions the report covers (`ACC_INFO`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// The regions that say `info`.
    Asked,
    All,
    /// Regions whose file starts with one of these, or whose name is one of these (and those
    /// that say `info`).
    Some(Vec<String>),
}

impl Want {
    pub(crate) fn parse(v: Option<&str>) -> Want {
        match v.map(str::trim) {
            None | Some("" | "0") => Want::Asked,
            Some("1" | "all") => Want::All,
            Some(list) => Want::Some(list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()),
        }
    }

    fn covers(&self, r: &RegionReport) -> bool {
        r.asked
            || match self {
                Want::Asked => false,
                Want::All => true,
                Want::Some(list) => list.iter().any(|w| r.file.starts_with(w.as_str()) || r.name == *w),
            }
    }
}

/// A kernel's resources and where the numbers came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Resources {
    /// PTX: virtual registers by width (`b32`-like, `b64`-like, predicates, 16-bit).
    pub regs32: u32,
    pub regs64: u32,
    pub preds: u32,
    pub regs16: u32,
    /// PTX: bytes of the `.local` depot.
    pub local: u64,
    /// PTX: bytes of the static `.shared` variables the kernel names.
    pub shared: u64,
    /// PTX: whether the kernel calls `.func`s (their registers are not counted here).
    pub calls: bool,
}

/// What `ptxas -v` says of a kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ptxas {
    pub registers: u32,
    pub stack: u64,
    pub spill_stores: u64,
    pub spill_loads: u64,
    pub smem: u64,
}

/// The resources of each kernel (`.entry`) of a PTX text, from its declarations.
pub(crate) fn ptx_resources(ptx: &str) -> BTreeMap<String, Resources> {
    // Static shared variables (module scope): name and bytes.
    let mut shared_vars: Vec<(String, u64)> = Vec::new();
    for l in ptx.lines() {
        let t = l.trim();
        if t.starts_with(".shared") || t.starts_with(".visible .shared") || t.starts_with(".global .shared") {
            if let Some((name, bytes)) = array_decl(t) {
                shared_vars.push((name, bytes));
            }
        }
    }
    let mut out = BTreeMap::new();
    let lines: Vec<&str> = ptx.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let decl = l.strip_prefix(".visible ").or_else(|| l.strip_prefix(".weak ")).unwrap_or(l);
        let Some(rest) = decl.strip_prefix(".entry ") else {
            i += 1;
            continue;
        };
        let name = rest.split(['(', ' ']).next().unwrap_or_default().to_owned();
        let end = lines[i..].iter().position(|l| *l == "}").map_or(lines.len(), |e| i + e + 1);
        let mut r = Resources::default();
        for l in &lines[i..end] {
            let t = l.trim();
            if let Some(decl) = t.strip_prefix(".reg ") {
                // `.reg .b32 %r<20>;` declares 20; `.reg .b64 %SP;` one.
                let ty = decl.split_whitespace().next().unwrap_or_default();
                let n = decl
                    .split_once('<')
                    .and_then(|(_, n)| n.split('>').next())
                    .and_then(|n| n.trim().parse::<u32>().ok())
                    .unwrap_or(1);
                match ty {
                    ".pred" => r.preds += n,
                    ".b16" | ".u16" | ".s16" | ".f16" => r.regs16 += n,
                    ".b64" | ".u64" | ".s64" | ".f64" => r.regs64 += n,
                    _ => r.regs32 += n,
                }
            } else if t.starts_with(".local") {
                r.local += array_decl(t).map_or(0, |(_, b)| b);
            } else if t.starts_with("call") {
                r.calls = true;
            }
        }
        let body = lines[i..end].join("\n");
        for (v, bytes) in &shared_vars {
            if mentions(&body, v) {
                r.shared += bytes;
            }
        }
        out.insert(name, r);
        i = end;
    }
    out
}

/// `... .b8 name[32];` -> `(name, 32 x the element's bytes)`.
fn array_decl(t: &str) -> Option<(String, u64)> {
    let t = t.trim_end_matches(';');
    let (head, count) = t.rsplit_once('[')?;
    let count: u64 = count.trim_end_matches(']').trim().parse().ok()?;
    let mut words = head.split_whitespace().rev();
    let name = words.next()?.to_string();
    let elem = head.split_whitespace().find_map(|w| match w {
        ".b8" | ".u8" | ".s8" => Some(1),
        ".b16" | ".u16" | ".s16" | ".f16" => Some(2),
        ".b32" | ".u32" | ".s32" | ".f32" => Some(4),
        ".b64" | ".u64" | ".s64" | ".f64" => Some(8),
        _ => None,
    })?;
    Some((name, count * elem))
}

/// Whether `text` names the PTX symbol `name` (not as part of a longer one).
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// The kernels' resources as `ptxas -v` prints them (its stderr).
pub(crate) fn parse_ptxas(output: &str) -> BTreeMap<String, Ptxas> {
    let mut out: BTreeMap<String, Ptxas> = BTreeMap::new();
    let mut cur: Option<String> = None;
    let num = |s: &str| s.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
    for l in output.lines() {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("ptxas info    : Compiling entry function '").or_else(|| t.split_once("Compiling entry function '").map(|(_, r)| r)) {
            let name = rest.split('\'').next().unwrap_or_default().to_string();
            out.entry(name.clone()).or_default();
            cur = Some(name);
        } else if let Some(rest) = t.split_once("Function properties for ").map(|(_, r)| r) {
            // A `.func`'s properties follow too: only entries count.
            let name = rest.trim().to_string();
            cur = out.contains_key(&name).then_some(name);
        } else if let Some(k) = cur.as_ref().and_then(|c| out.get_mut(c)) {
            if t.contains("bytes stack frame") {
                for part in t.split(',') {
                    let p = part.trim();
                    if p.ends_with("bytes stack frame") {
                        k.stack = num(p);
                    } else if p.ends_with("bytes spill stores") {
                        k.spill_stores = num(p);
                    } else if p.ends_with("bytes spill loads") {
                        k.spill_loads = num(p);
                    }
                }
            } else if let Some(used) = t.split_once("Used ").map(|(_, r)| r) {
                for part in used.split(',') {
                    let p = part.trim();
                    if p.ends_with("registers") {
                        k.registers = num(p) as u32;
                    } else if p.ends_with("bytes smem") {
                        k.smem = num(p);
                    }
                }
            }
        }
    }
    out
}

/// The `ptxas` on `PATH`, if there is one.
fn find_ptxas() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("ptxas")).find(|p| p.is_file())
}

/// `ptxas -v` (the program at `ptxas`) run over each PTX module (written under `dir`): what it
/// says of each kernel, or `None` when it failed (the PTX's declarations are reported then).
fn run_ptxas(ptxas: &Path, modules: &[String], dir: &Path, sm: &str) -> Option<BTreeMap<String, Ptxas>> {
    let mut all = BTreeMap::new();
    for (m, text) in modules.iter().enumerate() {
        let file = dir.join(format!("acc-info-{m}.ptx"));
        std::fs::write(&file, text).ok()?;
        let out = std::process::Command::new(ptxas)
            .args(["-v", "--gpu-name", sm, "-o"])
            .arg(dir.join("acc-info.cubin"))
            .arg(&file)
            .output()
            .ok()?;
        let _ = std::fs::remove_file(&file);
        if !out.status.success() {
            return None;
        }
        all.extend(parse_ptxas(&String::from_utf8_lossy(&out.stderr)));
    }
    let _ = std::fs::remove_file(dir.join("acc-info.cubin"));
    Some(all)
}

/// A kernel's resource lines for the report.
fn resource_lines(name: &str, ptx: &BTreeMap<String, Resources>, ptxas: Option<&BTreeMap<String, Ptxas>>, sm: &str) -> Vec<String> {
    if let Some(p) = ptxas.and_then(|m| m.get(name)) {
        return vec![format!(
            "resources (ptxas -v, {sm}): {} registers, {} bytes stack frame, {} bytes spill stores, {} bytes spill loads, {} bytes static shared memory (+ the dynamic shared memory above)",
            p.registers, p.stack, p.spill_stores, p.spill_loads, p.smem
        )];
    }
    let Some(r) = ptx.get(name) else {
        return vec!["resources: the kernel is not in the PTX".into()];
    };
    let mut regs = format!("{} 32-bit, {} 64-bit", r.regs32, r.regs64);
    if r.regs16 > 0 {
        regs.push_str(&format!(", {} 16-bit", r.regs16));
    }
    vec![format!(
        "resources (PTX declarations; no ptxas on PATH): {regs} virtual registers and {} predicates (ptxas maps them to fewer physical registers{}), {} bytes of local memory ({}), {} bytes static shared memory (+ the dynamic shared memory above)",
        r.preds,
        if r.calls { "; the functions the kernel calls have their own" } else { "" },
        r.local,
        if r.local == 0 { "no stack frame" } else { "a stack frame: arrays or spills in local memory" },
        r.shared
    )]
}

/// The report of the regions `want` covers, with their kernels' resources from `modules`
/// (the PTX as loaded), or `None` when it covers none.
pub(crate) fn report(reports: &[RegionReport], want: &Want, modules: &[String], out_dir: &Path, sm: &str) -> Option<String> {
    let chosen: Vec<&RegionReport> = reports.iter().filter(|r| want.covers(r)).collect();
    if chosen.is_empty() {
        return None;
    }
    let mut ptx = BTreeMap::new();
    for m in modules {
        ptx.extend(ptx_resources(m));
    }
    let ptxas = find_ptxas().and_then(|p| run_ptxas(&p, modules, out_dir, sm));
    let mut text = String::new();
    for r in chosen {
        text.push_str(&r.render(&|k| resource_lines(k, &ptx, ptxas.as_ref(), sm)));
    }
    Some(text)
}

/// Prints the report (`cargo::warning=` lines, which cargo shows for the package's own build
/// scripts) and writes it to `$OUT_DIR/acc-info.txt`; without one, removes that file.
pub(crate) fn emit(reports: &[RegionReport], modules: &[String], out_dir: &Path, sm: &str) {
    println!("cargo::rerun-if-env-changed=ACC_INFO");
    let want = Want::parse(std::env::var("ACC_INFO").ok().as_deref());
    let file = out_dir.join("acc-info.txt");
    match report(reports, &want, modules, out_dir, sm) {
        Some(text) => {
            println!("cargo::warning=acc schedule report (also in {}):", file.display());
            for l in text.lines() {
                println!("cargo::warning={l}");
            }
            let _ = std::fs::write(&file, text);
        }
        None => {
            let _ = std::fs::remove_file(&file);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = "//
.version 8.5
.target sm_90
.address_size 64

.shared .align 8 .b8 tile_buf[256];
.extern .shared .align 16 .b8 __acc_dyn[];

.func  (.param .b32 func_retval0) helper(
\t.param .b32 helper_param_0
)
{
\t.reg .b32 \t%r<99>;
\tret;
}

\t// .globl\tacc_src_a_rs_l3_k_0
.visible .entry acc_src_a_rs_l3_k_0(
\t.param .u64 .ptr .align 1 acc_src_a_rs_l3_k_0_param_0,
\t.param .u64 acc_src_a_rs_l3_k_0_param_1
)
{
\t.local .align 8 .b8 \t__local_depot0[48];
\t.reg .b64 \t%SP;
\t.reg .b64 \t%SPL;
\t.reg .pred \t%p<5>;
\t.reg .b16 \t%rs<3>;
\t.reg .b32 \t%r<20>;
\t.reg .f32 \t%f<4>;
\t.reg .b64 \t%rd<30>;
\t.reg .f64 \t%fd<2>;

\tmov.u64 \t%SPL, __local_depot0;
\tmov.u64 \t%rd1, tile_buf;
\tcall.uni (retval0), helper, (param0);
\tret;
}
\t// .globl\tacc_src_a_rs_l9_j_0
.visible .entry acc_src_a_rs_l9_j_0()
{
\t.reg .b32 \t%r<3>;
\tmov.u64 \t%rd1, __acc_dyn;
\tret;
}
";

    #[test]
    fn ptx_declarations_give_each_kernel_its_registers_local_and_shared_bytes() {
        let r = ptx_resources(PTX);
        assert_eq!(r.len(), 2, "{r:?}");
        let k = &r["acc_src_a_rs_l3_k_0"];
        // %r<20> and %f<4>; %SP, %SPL, %rd<30>, %fd<2>; %p<5>; %rs<3>.
        assert_eq!((k.regs32, k.regs64, k.preds, k.regs16), (24, 34, 5, 3));
        assert_eq!(k.local, 48);
        assert_eq!(k.shared, 256);
        assert!(k.calls);
        // The `.func`'s 99 registers are not the entry's.
        let j = &r["acc_src_a_rs_l9_j_0"];
        assert_eq!((j.regs32, j.regs64, j.preds, j.local, j.shared, j.calls), (3, 0, 0, 0, 0, false));
    }

    #[test]
    fn array_declarations_count_bytes_by_element() {
        assert_eq!(array_decl(".local .align 8 .b8 \t__local_depot3[40];"), Some(("__local_depot3".into(), 40)));
        assert_eq!(array_decl(".shared .align 4 .f32 buf[64];"), Some(("buf".into(), 256)));
        assert_eq!(array_decl(".extern .shared .align 16 .b8 dyn[];"), None);
        assert!(mentions("mov.u64 %rd1, tile_buf;", "tile_buf"));
        assert!(!mentions("mov.u64 %rd1, tile_buf2;", "tile_buf"));
    }

    #[test]
    fn ptxas_verbose_output_is_read_per_entry() {
        let out = "ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'acc_src_a_rs_l3_k_0' for 'sm_90'
ptxas info    : Function properties for acc_src_a_rs_l3_k_0
    48 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, 256 bytes smem, 376 bytes cmem[0]
ptxas info    : Function properties for helper
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'acc_src_a_rs_l9_j_0' for 'sm_90'
ptxas info    : Function properties for acc_src_a_rs_l9_j_0
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 6 registers, 360 bytes cmem[0]
";
        let p = parse_ptxas(out);
        assert_eq!(p["acc_src_a_rs_l3_k_0"], Ptxas { registers: 40, stack: 48, spill_stores: 8, spill_loads: 12, smem: 256 });
        assert_eq!(p["acc_src_a_rs_l9_j_0"], Ptxas { registers: 6, ..Ptxas::default() });
        assert!(!p.contains_key("helper"));
        let lines = resource_lines("acc_src_a_rs_l3_k_0", &BTreeMap::new(), Some(&p), "sm_90");
        assert_eq!(lines[0], "resources (ptxas -v, sm_90): 40 registers, 48 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads, 256 bytes static shared memory (+ the dynamic shared memory above)");
        let lines = resource_lines("acc_src_a_rs_l3_k_0", &ptx_resources(PTX), None, "sm_90");
        assert!(lines[0].starts_with("resources (PTX declarations; no ptxas on PATH): 24 32-bit, 34 64-bit, 3 16-bit virtual registers and 5 predicates (ptxas maps them to fewer physical registers; the functions the kernel calls have their own)"), "{}", lines[0]);
        assert!(lines[0].contains("48 bytes of local memory (a stack frame"), "{}", lines[0]);
    }

    /// A stand-in for ptxas: checks its arguments and prints what `ptxas -v` prints.
    #[cfg(unix)]
    #[test]
    fn ptxas_is_run_on_each_module_when_there_is_one() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("acc-info-ptxas-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("ptxas");
        std::fs::write(
            &fake,
            "#!/bin/sh\n[ \"$1 $2 $3\" = \"-v --gpu-name sm_90\" ] || exit 3\ngrep -q acc_src_a_rs_l3_k_0 \"$6\" || exit 4\n\
             echo \"ptxas info    : Compiling entry function 'acc_src_a_rs_l3_k_0' for 'sm_90'\" >&2\n\
             echo \"ptxas info    : Function properties for acc_src_a_rs_l3_k_0\" >&2\n\
             echo \"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\" >&2\n\
             echo \"ptxas info    : Used 32 registers, 380 bytes cmem[0]\" >&2\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let got = run_ptxas(&fake, &[PTX.to_string()], &dir, "sm_90").expect("the stand-in ran");
        assert_eq!(got["acc_src_a_rs_l3_k_0"], Ptxas { registers: 32, ..Ptxas::default() });
        // A failing ptxas leaves the PTX's declarations to the report.
        assert!(run_ptxas(&fake, &[PTX.to_string()], &dir, "sm_80").is_none());
        // The modules it was given are not left behind.
        assert!(!dir.join("acc-info-0.ptx").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn acc_info_chooses_the_regions() {
        assert_eq!(Want::parse(None), Want::Asked);
        assert_eq!(Want::parse(Some("0")), Want::Asked);
        assert_eq!(Want::parse(Some("1")), Want::All);
        assert_eq!(Want::parse(Some("examples/, sweep")), Want::Some(vec!["examples/".into(), "sweep".into()]));
        let r = |file: &str, name: &str, asked: bool| RegionReport {
            file: file.into(),
            line: 1,
            kind: acc_codegen::model::RegionKind::Parallel,
            name: name.into(),
            asked,
            notes: Default::default(),
            kernels: Vec::new(),
        };
        let w = Want::parse(Some("examples/,sweep"));
        assert!(w.covers(&r("examples/01-vadd.rs", "vadd", false)));
        assert!(w.covers(&r("src/lib.rs", "sweep", false)));
        assert!(!w.covers(&r("tests/a.rs", "other", false)));
        assert!(Want::Asked.covers(&r("tests/a.rs", "other", true)));
        assert!(!Want::Asked.covers(&r("tests/a.rs", "other", false)));
    }
}
