//! The environment variables, checked in child processes (they are read once per process).

use std::process::{Command, Output};

use acc_runtime::private::{par_for, run_on_host, view, Clause, DataScope, RegionInfo, SharedMut};

static ENVTEST: RegionInfo = RegionInfo {
    name: "envtest",
    kind: "parallel",
    file: "tests/env.rs",
    line: 7,
    kernel: "",
};

/// Runs `child_workload` in a fresh process with `envs` (and no other `ACC_*` variable).
fn child(envs: &[(&str, &str)]) -> Output {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args([
        "child_workload",
        "--exact",
        "--nocapture",
        "--include-ignored",
        "--test-threads=1",
    ]);
    for v in [
        "ACC_DEVICE_TYPE",
        "ACC_DEVICE_NUM",
        "ACC_NOTIFY",
        "ACC_PROFILE",
    ] {
        c.env_remove(v);
    }
    c.env("ACC_ENV_TEST_CHILD", "1");
    // `ACC_PROFILE` writes a file at exit: not in the package's folder.
    let file = format!("{}/env-profile.json", env!("CARGO_TARGET_TMPDIR"));
    c.env("ACC_PROFILE_FILE", file);
    for (k, v) in envs {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// What the children run: one host launch of a region with a data clause.
#[test]
#[ignore = "run by the other tests of this file in a child process"]
fn child_workload() {
    if std::env::var_os("ACC_ENV_TEST_CHILD").is_none() {
        return;
    }
    let a = vec![1.0f32; 1000];
    let mut c = vec![0.0f32; 1000];
    {
        let _t = run_on_host(&ENVTEST);
        let mut s = DataScope::new(&ENVTEST);
        s.enter("a", view(&a), Clause::CopyIn);
        s.enter("c", view(&c), Clause::CopyOut);
        let cs = SharedMut::new(&mut c);
        par_for(a.len(), |i| {
            let mut c = cs;
            c[i] = a[i] * 2.0;
        });
    }
    assert!(c.iter().all(|&x| x == 2.0));
    println!("device={:?}", acc_runtime::device_type());
}

#[test]
fn host_selection() {
    let o = child(&[("ACC_DEVICE_TYPE", "host")]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("device=host"), "{out}");
    assert!(!err.contains("acc:"), "{err}");
}

#[test]
fn unknown_device_type_lists_accepted_values() {
    let o = child(&[("ACC_DEVICE_TYPE", "radeon")]);
    let (out, err) = text(&o);
    assert!(!o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("ACC_DEVICE_TYPE=`radeon`") && err.contains("`host`, `nvidia`"),
        "{err}"
    );
}

#[test]
fn bad_device_num() {
    let o = child(&[("ACC_DEVICE_TYPE", "host"), ("ACC_DEVICE_NUM", "x")]);
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("ACC_DEVICE_NUM=`x` is not a device number"),
        "{err}"
    );
}

#[test]
fn nvidia_without_backend_says_why() {
    let o = child(&[("ACC_DEVICE_TYPE", "nvidia")]);
    let (out, err) = text(&o);
    if out.contains("device=nvidia") {
        return; // a CUDA backend and a GPU are there
    }
    assert!(!o.status.success());
    assert!(
        err.contains("ACC_DEVICE_TYPE=nvidia, but the CUDA backend is unavailable"),
        "{err}"
    );
    #[cfg(not(feature = "cuda"))]
    assert!(err.contains("built without the `cuda` feature"), "{err}");
}

#[test]
fn unset_falls_back_to_host() {
    let o = child(&[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    if out.contains("device=host") {
        let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("acc:")).collect();
        if cfg!(feature = "cuda") {
            assert_eq!(lines.len(), 1, "{err}");
            assert!(lines[0].contains("running regions on the host"), "{err}");
        } else {
            assert!(lines.is_empty(), "silent without the `cuda` feature: {err}");
        }
    }
}

#[test]
fn notify_prints_launches() {
    let o = child(&[("ACC_DEVICE_TYPE", "host"), ("ACC_NOTIFY", "1")]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("acc: launch envtest (tests/env.rs:7) on host"),
        "{err}"
    );
}

#[test]
fn profile_prints_a_table_at_exit() {
    let o = child(&[("ACC_DEVICE_TYPE", "host"), ("ACC_PROFILE", "1")]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(err.contains("acc profile: 1 region(s)"), "{err}");
    let row = err
        .lines()
        .find(|l| l.starts_with("envtest"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        row.contains("parallel") && row.contains("tests/env.rs:7"),
        "{row}"
    );
    let head = err.lines().find(|l| l.starts_with("region")).unwrap();
    assert!(
        head.contains("launches") && head.contains("h2d bytes") && head.contains("d2h ms"),
        "{head}"
    );
}

#[test]
fn profile_off_prints_nothing() {
    let o = child(&[("ACC_DEVICE_TYPE", "host"), ("ACC_PROFILE", "0")]);
    let (_, err) = text(&o);
    assert!(o.status.success());
    assert!(!err.contains("acc profile"), "{err}");
}
