//! OpenACC's profiling interface (`acc::prof`, `ACC_PROFLIB`): the exact events of a small
//! program, a data region with `copyin`/`copyout` around two regions, an update and a wait (the
//! second region and the update on async queue 1), as a Rust callback sees them and as a tool loaded from `ACC_PROFLIB` does (a
//! cdylib, `fixtures/acc_tool.rs`, built here with `rustc`, in a child process).
//!
//! On the host backend the constructs' events fire (compute constructs, their implicit data
//! regions, the data region, the update, the wait); on a GPU the data events (`alloc`,
//! `create`, `enqueue_upload`/`download`, `delete`, `free`) and the launches come between them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use acc::prof::{self, Detail, Event, Info};

#[acc::parallel]
fn scale(a: &[f64], c: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = 2.0 * a[i];
    }
}

#[acc::parallel(async(q))]
fn shift(c: &mut [f64], q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] += 1.0;
    }
}

/// The program whose events are checked: 100 `f64`s (800 bytes) in and out.
fn program() -> Vec<f64> {
    let a: Vec<f64> = (0..100).map(f64::from).collect();
    let mut c = vec![0.0; 100];
    acc::data!(copyin(a), copyout(c) {
        scale(&a, &mut c);
        shift(&mut c, 1);
        acc::update!(host(c), async(1));
        acc::wait(1);
    });
    c
}

/// An event as a line: `EVENT FUNC[ implicit][ qN][ VAR BYTES][ launch]`, as the tool of
/// `fixtures/acc_tool.rs` writes it too.
fn line(i: &Info<'_>) -> String {
    let mut s = format!("{} {}", i.event.c_name().trim_start_matches("acc_ev_"), i.func_name);
    if i.implicit {
        s += " implicit";
    }
    if let Some(q) = i.queue {
        s += &format!(" q{q}");
    }
    match i.detail {
        Detail::Data(d) => s += &format!(" {} {}", d.var_name, d.bytes),
        Detail::Launch(l) => {
            let shaped = !l.kernel.is_empty() && l.num_gangs > 0 && l.num_workers > 0 && l.vector_length > 0;
            s += if shaped { " launch" } else { " launch without a kernel or a shape" };
        }
        Detail::None => {}
    }
    s
}

/// The events [`program`] fires on the device (`gpu`: the data events and launches too).
fn expected(gpu: bool) -> Vec<String> {
    let on_gpu = |lines: &[&str]| if gpu { lines.iter().map(|l| l.to_string()).collect() } else { Vec::new() };
    let moved = |construct: &str, var: &str, dir: &str| on_gpu(&[&format!("enqueue_{dir}_start {construct} {var} 800"), &format!("enqueue_{dir}_end {construct} {var} 800")]);
    let update = on_gpu(&["enqueue_download_start update q1 c 800", "enqueue_download_end update q1 c 800"]);
    let made = |var: &str| [on_gpu(&[&format!("alloc data {var} 800"), &format!("create data {var} 800")]), moved("data", var, "upload")].concat();
    let gone = |var: &str| on_gpu(&[&format!("delete data {var} 800"), &format!("free data {var} 800")]);
    let compute = |name: &str, q: &str| {
        let launch = on_gpu(&[&format!("enqueue_launch_start {name}{q} launch"), &format!("enqueue_launch_end {name}{q} launch")]);
        [
            vec![format!("compute_construct_start {name}{q}"), format!("enter_data_start {name} implicit{q}"), format!("enter_data_end {name} implicit{q}")],
            launch,
            vec![format!("exit_data_start {name} implicit{q}"), format!("exit_data_end {name} implicit{q}"), format!("compute_construct_end {name}{q}")],
        ]
        .concat()
    };
    let plain = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    [
        plain(&["enter_data_start data"]),
        made("a"),
        made("c"),
        plain(&["enter_data_end data"]),
        compute("scale", ""),
        compute("shift", " q1"),
        plain(&["update_start update q1"]),
        update,
        plain(&["update_end update q1", "wait_start acc_wait q1", "wait_end acc_wait q1", "exit_data_start data"]),
        moved("data", "c", "download"),
        gone("c"),
        gone("a"),
        plain(&["exit_data_end data"]),
    ]
    .concat()
}

fn on_gpu() -> bool {
    acc::device_type() == acc::DeviceType::Nvidia
}

#[test]
fn a_rust_callback_sees_each_event_in_order() {
    acc::init();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let me = std::thread::current().id();
    let sites = Arc::new(Mutex::new(Vec::new()));
    let registrations: Vec<prof::Registration> = Event::ALL
        .iter()
        .map(|&e| {
            let (seen, sites) = (seen.clone(), sites.clone());
            prof::register(e, move |info| {
                // (The suite's other tests run on other threads meanwhile.)
                if std::thread::current().id() == me {
                    seen.lock().unwrap().push(line(info));
                    sites.lock().unwrap().push((info.src_file.to_string(), info.line, info.device_type, info.device_num));
                }
            })
        })
        .collect();
    let c = program();
    registrations.into_iter().for_each(prof::unregister);
    let after = seen.lock().unwrap().len();
    program();
    assert_eq!(seen.lock().unwrap().len(), after, "an unregistered callback is called");
    assert!(c.iter().enumerate().all(|(i, &x)| x == 2.0 * i as f64 + 1.0), "{c:?}");

    assert_eq!(*seen.lock().unwrap(), expected(on_gpu()));
    // Every event but the wait's names this file and a line, and the device.
    let sites = sites.lock().unwrap();
    let lines = seen.lock().unwrap();
    for ((file, line, ty, num), what) in sites.iter().zip(lines.iter()) {
        if what.starts_with("wait_") {
            assert_eq!((file.as_str(), *line), ("", 0), "{what}");
        } else {
            assert!(file.ends_with("semantics_profiling.rs") && *line > 0, "{what}: {file}:{line}");
        }
        assert_eq!((*ty, *num), (acc::device_type(), acc::device_num()), "{what}");
    }
}

/// The tool, built into the test's own folder.
fn tool_library() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/acc_tool.rs");
    let lib = Path::new(env!("CARGO_TARGET_TMPDIR")).join("libacc_tool.so");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let built = Command::new(&rustc).args(["--edition", "2021", "--crate-type", "cdylib", "-o"]).arg(&lib).arg(&src).status();
    assert!(built.is_ok_and(|s| s.success()), "`{rustc}` could not build {}", src.display());
    lib
}

#[test]
fn a_tool_in_acc_proflib_sees_the_same_events() {
    let lib = tool_library();
    let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join("acc-tool.log");
    let _ = std::fs::remove_file(&log);
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["child_program", "--exact", "--nocapture", "--include-ignored", "--test-threads=1"])
        .env("ACC_PROFLIB", &lib)
        .env("ACC_TOOL_LOG", &log)
        .output()
        .unwrap();
    assert!(out.status.success(), "child failed:\n{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let seen = std::fs::read_to_string(&log).expect("the tool was not loaded");
    let lines: Vec<&str> = seen.lines().collect();
    // The device opens first (`acc::init()`: the first event loads the tool), the runtime's
    // end is last.
    let opened = lines.iter().take_while(|l| l.starts_with("device_init_")).count();
    assert!(opened >= 2 && opened.is_multiple_of(2), "{lines:#?}");
    for pair in lines[..opened].chunks(2) {
        assert_eq!(pair, ["device_init_start acc_init", "device_init_end acc_init"], "{lines:#?}");
    }
    assert_eq!(lines.last(), Some(&"runtime_shutdown exit"), "{lines:#?}");
    assert_eq!(lines[opened..lines.len() - 1], expected(on_gpu()), "{lines:#?}");
}

#[test]
fn a_tool_that_cannot_be_loaded_is_reported_and_skipped() {
    let missing = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-such-tool.so");
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["child_program", "--exact", "--nocapture", "--include-ignored", "--test-threads=1"])
        .env("ACC_PROFLIB", &missing)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{}{stderr}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr.contains(&format!("acc: ACC_PROFLIB: {}: ", missing.display())), "{stderr}");
}

/// Run by the tests above in a child process, with `ACC_PROFLIB` set.
#[test]
#[ignore = "run in a child process by a_tool_in_acc_proflib_sees_the_same_events and a_tool_that_cannot_be_loaded_is_reported_and_skipped"]
fn child_program() {
    assert!(std::env::var_os("ACC_PROFLIB").is_some(), "ACC_PROFLIB is not set");
    acc::init();
    program();
}
