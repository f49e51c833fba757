//! `ACC_NOTIFY`'s report at exit of the arrays still on the device, checked in child processes
//! (the variable is read once per process, the report comes at its exit).

use std::process::{Command, Output};

use acc_runtime::private::{enter_data, exit_data, view, EnterClause, ExitClause, RegionInfo};

static ENTER: RegionInfo = RegionInfo {
    name: "enter_data",
    kind: "enter_data",
    file: "tests/leftover.rs",
    line: 8,
    kernel: "",
};

fn child(notify: Option<&str>) -> Output {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args(["child_leaves_data_on_the_device", "--exact", "--nocapture", "--include-ignored", "--test-threads=1"]);
    for v in ["ACC_DEVICE_TYPE", "ACC_DEVICE_NUM", "ACC_NOTIFY", "ACC_PROFILE"] {
        c.env_remove(v);
    }
    c.env("ACC_LEFTOVER_CHILD", "1").env("ACC_DEVICE_TYPE", "host");
    if let Some(n) = notify {
        c.env("ACC_NOTIFY", n);
    }
    c.output().unwrap()
}

/// What the children run: two arrays enter, one leaves.
#[test]
#[ignore = "run by the other tests of this file in a child process"]
fn child_leaves_data_on_the_device() {
    if std::env::var_os("ACC_LEFTOVER_CHILD").is_none() {
        return;
    }
    let kept = vec![1.0f32; 1024];
    let gone = vec![2u8; 10];
    enter_data(&ENTER, "kept", view(&kept), EnterClause::CopyIn);
    enter_data(&ENTER, "gone", view(&gone), EnterClause::CopyIn);
    exit_data(&ENTER, "gone", view(&gone), ExitClause::Delete, false);
    std::mem::forget(kept);
}

#[test]
fn notify_reports_data_left_on_the_device_at_exit() {
    let o = child(Some("1"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("acc: at exit")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("acc: at exit, `kept` (4.0 KiB of `f32` at 0x"), "{}", lines[0]);
    assert!(
        lines[0].contains("entered by `enter_data` at tests/leftover.rs:8 (references: 0 structured, 1 dynamic)"),
        "{}",
        lines[0]
    );
}

#[test]
fn no_report_without_notify() {
    for notify in [None, Some("0")] {
        let o = child(notify);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{err}");
        assert!(!err.contains("acc: at exit"), "{err}");
    }
}
