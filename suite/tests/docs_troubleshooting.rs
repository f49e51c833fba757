//! `docs/troubleshooting.md` quotes real messages. This test makes each one happen (panics on
//! the host backend, the environment's errors in child processes, the GPU build's errors by
//! expanding regions with acc-codegen as the `--features cuda` build does) and checks that the
//! page quotes it; the compile errors it quotes must be in a `tests/ui/**/*.stderr` file, and
//! the messages only a GPU run can show must still be in the source that prints them. File
//! names, lines and addresses differ between the page and here: `path.rs:12` and `0x7f..` are
//! compared as placeholders.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::process::Command;

const PAGE: &str = include_str!("../../docs/troubleshooting.md");

/// `s` with every `something.rs:N[:M]` as `FILE:LINE`, every `0x1f2e..` as `0xADDR`, and runs
/// of spaces as one.
fn normalize(s: &str) -> String {
    let mut out = String::new();
    let words: Vec<&str> = s.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let mut rest = *w;
        while !rest.is_empty() {
            if let Some(k) = rest.find(".rs:") {
                // Back to the start of the path (after `(`, `` ` `` or the word's start), then
                // on over `:12:5` groups.
                let start = rest[..k].rfind(['(', '`', '[']).map_or(0, |p| p + 1);
                out.push_str(&rest[..start]);
                let b = rest.as_bytes();
                let mut end = k + 3;
                while end + 1 < b.len() && b[end] == b':' && b[end + 1].is_ascii_digit() {
                    end += 1;
                    while end < b.len() && b[end].is_ascii_digit() {
                        end += 1;
                    }
                }
                out.push_str("FILE:LINE");
                rest = &rest[end..];
            } else if let Some(k) = rest.find("0x") {
                out.push_str(&rest[..k]);
                let b = rest.as_bytes();
                let mut end = k + 2;
                while end < b.len() && b[end].is_ascii_hexdigit() {
                    end += 1;
                }
                out.push_str("0xADDR");
                rest = &rest[end..];
            } else {
                out.push_str(rest);
                rest = "";
            }
        }
    }
    out
}

/// The page, each quoted block's lines joined (messages wrap in the page as rustc's do not).
fn page_text() -> String {
    normalize(PAGE)
}

fn assert_quoted(what: &str, msg: &str) {
    let msg = normalize(msg.lines().next().unwrap_or(""));
    assert!(!msg.is_empty(), "{what}: no message");
    assert!(page_text().contains(&msg), "docs/troubleshooting.md does not quote the message of {what}:\n{msg}");
}

fn panic_of(f: impl FnOnce()) -> String {
    let e = catch_unwind(AssertUnwindSafe(f)).expect_err("it panics");
    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
}

#[acc::parallel(present(a))]
fn needs_present(a: &[f64], c: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i];
    }
}

#[acc::parallel(async(q))]
fn on_queue(c: &mut [f64], q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] += 1.0;
    }
}

/// The runtime's panics, made to happen on the host backend.
fn runtime_panics() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let a = vec![1.0f64; 8];
    let mut c = vec![0.0f64; 8];
    out.push(("present data that is not there", panic_of(|| needs_present(&a, &mut c))));
    out.push(("update of data that is not there", panic_of(|| acc::update!(host(c)))));
    out.push(("a bad async queue", panic_of(|| on_queue(&mut c, -3))));
    out.push(("a bad queue in acc::wait", panic_of(|| acc::wait(-5))));
    out.push(("a second host device", panic_of(|| acc::set_device(acc::DeviceType::Host, 1))));
    let mut v = vec![0.0f64; 16];
    out.push((
        "data moved inside a data region",
        panic_of(|| {
            acc::data!(copy(v) {
                v = vec![1.0; 32];
            });
        }),
    ));
    let big = vec![0u32; 64];
    let inside = &big[..];
    out.push((
        "a partial overlap",
        panic_of(|| {
            let (front, back) = (&inside[..40], &inside[20..60]);
            acc::data!(copyin(front) {
                acc::data!(copyin(back) {});
            });
        }),
    ));
    let kept = vec![7u32; 16];
    acc::enter_data!(copyin(kept));
    // The same bytes seen as another element type: what an array dropped without
    // `exit_data!` looks like to the present table once new data lives at its address.
    // SAFETY: `kept` is alive, 64 bytes long, and nothing writes it while `other` is used.
    let other: &[u8] = unsafe { std::slice::from_raw_parts(kept.as_ptr().cast::<u8>(), 64) };
    out.push(("a stale present entry", panic_of(|| acc::update!(device(other)))));
    acc::exit_data!(delete(kept));
    if !cfg!(feature = "cuda") {
        out.push(("nvidia without the cuda feature", panic_of(|| acc::set_device(acc::DeviceType::Nvidia, 0))));
    }
    let mut d = acc::DeviceSlice::<f32>::zeros(4);
    out.push(("a DeviceSlice copy of another length", panic_of(|| d.copy_from_host(&[1.0, 2.0, 3.0]))));
    out
}

#[test]
fn runtime_panics_are_quoted() {
    if acc::device_type() != acc::DeviceType::Host {
        println!("skipped: the messages are made on the host backend");
        return;
    }
    for (what, msg) in runtime_panics() {
        println!("{what}: {msg}");
        assert_quoted(what, &msg);
    }
}

/// What the children run: nothing but choosing the device.
#[test]
#[ignore = "run by environment_errors_are_quoted in a child process"]
fn child_choose_device() {
    if std::env::var_os("ACC_DOCS_CHILD").is_some() {
        acc::init();
    }
}

#[test]
fn environment_errors_are_quoted() {
    let mut cases = vec![("ACC_DEVICE_TYPE", "radeon"), ("ACC_DEVICE_NUM", "x")];
    if !cfg!(feature = "cuda") {
        cases.push(("ACC_DEVICE_TYPE", "nvidia"));
    }
    for (var, value) in cases {
        let o = Command::new(std::env::current_exe().unwrap())
            .args(["child_choose_device", "--exact", "--include-ignored", "--nocapture", "--test-threads=1"])
            .env_remove("ACC_DEVICE_TYPE")
            .env_remove("ACC_DEVICE_NUM")
            .env("ACC_DOCS_CHILD", "1")
            .env(var, value)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{var}={value}: {err}");
        let line = err.lines().find(|l| l.starts_with("acc: ")).unwrap_or_else(|| panic!("{var}={value}: {err}"));
        println!("{var}={value}: {line}");
        assert_quoted(&format!("{var}={value}"), line);
    }
}

/// Regions the GPU lowering refuses, and the first line of what the `--features cuda` build
/// says about each.
const REFUSED: [(&str, &str); 5] = [
    (
        "continue in a worker loop that holds parallel loops",
        "fn f(a: &mut [f64], n: usize) {
            #[acc::r#loop(gang)]
            for i in 0..n {
                #[acc::r#loop(worker)]
                for j in 0..n {
                    if j == 3 { continue; }
                    #[acc::r#loop(vector)]
                    for k in 0..n { a[(i * n + j) * n + k] = 1.0; }
                }
            }
        }",
    ),
    (
        "a time loop whose range reads an array",
        "fn f(a: &mut [f64], steps: &[usize]) {
            for _t in 0..steps[0] {
                #[acc::r#loop(gang, vector)]
                for i in 0..a.len() { a[i] += 1.0; }
            }
        }",
    ),
    (
        "a name a closure mentions bound again before the nest that calls it",
        "fn f(c: &mut [usize], n: usize) {
            let at = |i: usize| i + n;
            let n = 2 * n;
            #[acc::r#loop(gang, vector)]
            for i in 0..c.len() { c[i] = at(i) + n; }
        }",
    ),
    (
        "a move closure copying a local, called by a nest",
        "fn f(c: &mut [f64], k: f64) {
            let mut g = k;
            let times = move |x: f64| x * g;
            g += 1.0;
            #[acc::r#loop(gang, vector)]
            for i in 0..c.len() { c[i] = times(c[i]) + g; }
        }",
    ),
    (
        "a sequential loop around parallel loops in a worker loop",
        "fn f(a: &mut [f64], n: usize) {
            #[acc::r#loop(gang)]
            for i in 0..n {
                #[acc::r#loop(worker)]
                for j in 0..n {
                    for t in 0..2 {
                        #[acc::r#loop(vector)]
                        for k in 0..n { a[(i * n + j) * n + k] += t as f64; }
                    }
                }
            }
        }",
    ),
];

/// The messages of a region's `compile_error!`s in an expansion (string literals after
/// `compile_error !`), unescaped enough for comparison.
fn compile_errors(expansion: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = expansion;
    while let Some(k) = rest.find("compile_error ! (\"") {
        rest = &rest[k + "compile_error ! (\"".len()..];
        let end = rest.find("\")").expect("end of the literal");
        out.push(rest[..end].replace("\\n", "\n").replace("\\\"", "\"").replace("\\'", "'"));
        rest = &rest[end..];
    }
    out
}

#[test]
fn gpu_build_errors_are_quoted() {
    let src = acc_codegen::Source { file: "src/lib.rs".into(), line: 1 };
    for (what, item) in REFUSED {
        let item: proc_macro2::TokenStream = item.parse().unwrap();
        let out = acc_codegen::expand_region(acc_codegen::model::RegionKind::Parallel, Default::default(), item, &src).to_string();
        let errors = compile_errors(&out);
        let refused: Vec<&String> = errors.iter().filter(|e| e.contains("cannot run on the GPU")).collect();
        assert_eq!(refused.len(), 1, "{what}: {errors:?}");
        println!("{what}: {}", refused[0]);
        for line in refused[0].lines() {
            assert_quoted(what, line);
        }
    }
    // Every region of a GPU build checks that acc-build built it.
    let out = acc_codegen::expand_region(
        acc_codegen::model::RegionKind::Parallel,
        Default::default(),
        "fn f(a: &mut [f64]) { #[acc::r#loop(gang, vector)] for i in 0..a.len() { a[i] = 0.0; } }".parse().unwrap(),
        &src,
    )
    .to_string();
    let unseen = compile_errors(&out).into_iter().find(|e| e.contains("is not in the package's GPU build")).expect("the check");
    println!("unseen: {unseen}");
    assert_quoted("a region acc-build did not see", &unseen);
}

/// Every `error: ..` and `error[E..]: ..` line the page quotes in a `text` block is a whole
/// error line of a trybuild expectation (the compile errors), or is one of the messages the tests above make
/// or [`FROM_SOURCE`] names.
#[test]
fn quoted_compile_errors_are_real() {
    let mut stderr = String::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "stderr") {
                stderr.push_str(&std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let errors: Vec<String> = stderr.lines().filter(|l| l.starts_with("error")).map(normalize).collect();
    let mut checked = 0;
    for line in quoted_lines().filter(|l| l.starts_with("error")) {
        let line = normalize(line);
        if FROM_SOURCE.iter().any(|(frag, _)| line.contains(frag)) || GPU_BUILD.iter().any(|frag| line.contains(frag)) {
            continue;
        }
        assert!(errors.contains(&line), "docs/troubleshooting.md quotes a compile error no tests/ui/**/*.stderr has:\n{line}");
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} compile errors quoted");
}

/// The lines of the page's ```text blocks.
fn quoted_lines() -> impl Iterator<Item = &'static str> {
    let mut inside = false;
    PAGE.lines().filter(move |l| {
        if l.trim_start().starts_with("```") {
            inside = !inside && l.trim_start() == "```text";
            return false;
        }
        inside
    })
}

/// What the GPU build's errors say (checked by [`gpu_build_errors_are_quoted`]).
const GPU_BUILD: [&str; 3] = ["on the GPU, ", "cannot run on the GPU", "is not in the package's GPU build"];

/// Messages only a GPU run or acc-build shows: a fragment the page quotes, and the source file
/// that prints it.
const FROM_SOURCE: [(&str, &str); 8] = [
    ("panicked at ", "acc-runtime/src/cuda/error.rs"),
    ("is not in the package's PTX: rebuild with `--features cuda`", "acc-runtime/src/gpu/mod.rs"),
    ("running regions on the host", "acc-runtime/src/devices.rs"),
    ("the GPU kernel cannot use", "acc-build/src/scan/carry.rs"),
    ("a fn without `#[acc::routine]`", "acc-build/src/scan/carry.rs"),
    ("of what the device cannot take", "acc-build/src/scan/mod.rs"),
    ("is not installed", "acc-build/src/nvptx.rs"),
    ("acc compiles GPU code with the Rust toolchain", "acc-build/src/nvptx.rs"),
];

#[test]
fn messages_only_a_gpu_shows_are_in_their_source() {
    for (frag, file) in FROM_SOURCE {
        let src = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file)).unwrap();
        assert!(src.contains(frag), "{file} no longer says `{frag}`");
        assert!(PAGE.contains(frag), "docs/troubleshooting.md does not quote `{frag}` ({file})");
    }
}

#[test]
fn normalize_replaces_places() {
    assert_eq!(
        normalize("acc: region `f` (tests/x.rs:12): at 0x7ffd1 and   src/main.rs:3:9: boom"),
        "acc: region `f` (FILE:LINE): at 0xADDR and FILE:LINE: boom"
    );
}
