//! The files `ACC_PROFILE` writes (DESIGN §2 "Environment"): `ACC_PROFILE=1` a JSON summary,
//! `ACC_PROFILE=chrome` a Chrome trace, both at `ACC_PROFILE_FILE`. A known program runs in a
//! child process (the variables are read once per process, and the files are written at
//! exit); the test parses what it wrote and checks the launch counts, names, order, durations
//! and tracks.

use std::process::Command;

use serde_json::Value;

const N: usize = 4096;

#[acc::parallel(copy(a))]
fn scale(a: &mut [f64], k: f64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] *= k;
    }
}

#[acc::parallel(async(q))]
fn shift(a: &mut [f64], d: f64, q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += d;
    }
}

#[acc::kernels]
fn square(a: &mut [f64]) {
    #[acc::r#loop(independent)]
    for i in 0..a.len() {
        a[i] *= a[i];
    }
}

/// The launches of [`child_program`], in order: region and async queue.
const LAUNCHES: [(&str, Option<i64>); 7] = [
    ("scale", None),
    ("scale", None),
    ("shift", Some(1)),
    ("shift", Some(2)),
    ("shift", Some(1)),
    ("scale", None),
    ("square", None),
];

/// The program the profiles are of (run by the tests below in a child process).
#[test]
#[ignore = "run by the other tests of this file in a child process"]
fn child_program() {
    if std::env::var_os("ACC_PROFILE_TEST_CHILD").is_none() {
        return;
    }
    let mut a = vec![1.0f64; N];
    let mut b = vec![0.0f64; N];
    let mut c = vec![0.0f64; N];
    scale(&mut a, 2.0);
    scale(&mut a, 2.0);
    // Queues 1 and 2 may run at once: each updates its own array (one array on both would be
    // a race, lost under compute-sanitizer's slower launches).
    acc::data!(copy(b, c) {
        shift(&mut b, 1.0, 1);
        shift(&mut c, 1.0, 2);
        shift(&mut b, 1.0, 1);
        acc::wait_all();
    });
    scale(&mut a, 0.5);
    square(&mut a);
    assert!(a.iter().all(|&x| x == 4.0));
    assert!(b.iter().all(|&x| x == 2.0));
    assert!(c.iter().all(|&x| x == 1.0));
    println!("device={:?}", acc::device_type());
}

/// Runs [`child_program`] with `ACC_PROFILE=profile` writing to a fresh file; its device
/// and the parsed file.
fn profile_of(profile: &str) -> (String, Value) {
    // The system's temporary folder, not `CARGO_TARGET_TMPDIR`: that is a path of the machine
    // that built the test, and the GPU machine runs it carried elsewhere.
    let path = std::env::temp_dir().join(format!("acc-profile-test-{profile}-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let o = Command::new(std::env::current_exe().unwrap())
        .args(["child_program", "--exact", "--nocapture", "--include-ignored", "--test-threads=1"])
        .env_remove("ACC_NOTIFY")
        .env("ACC_PROFILE_TEST_CHILD", "1")
        .env("ACC_PROFILE", profile)
        .env("ACC_PROFILE_FILE", &path)
        .output()
        .unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{out}\n{err}");
    assert!(err.contains(&format!("acc profile: written to {}", path.display())), "{err}");
    assert!(err.contains("acc profile: ") && err.contains("launches"), "the table is printed too: {err}");
    let device = out.split("device=").nth(1).and_then(|s| s.split_whitespace().next()).unwrap_or_else(|| panic!("{out}")).to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    (device, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
}

fn region<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["regions"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no region {name} in {v:#}"))
}

/// The child's device number: it inherits `ACC_DEVICE_NUM` (scripts/gpu-suite.sh spreads the
/// binaries over the GPUs of a machine with several).
fn child_device_num() -> u64 {
    std::env::var("ACC_DEVICE_NUM").ok().and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// The one device entry of `region`.
fn on_device<'a>(region: &'a Value, device: &str) -> &'a Value {
    let devices = region["devices"].as_array().unwrap();
    assert_eq!(devices.len(), 1, "{region:#}");
    assert_eq!((devices[0]["device"].as_str(), devices[0]["device_num"].as_u64()), (Some(device), Some(child_device_num())), "{region:#}");
    &devices[0]
}

#[test]
fn summary_counts_launches_and_transfers_per_region() {
    let (device, v) = profile_of("1");
    assert_eq!((v["format"].as_str(), v["version"].as_u64(), v["time_unit"].as_str()), (Some("acc-profile"), Some(1), Some("ns")));
    let names: Vec<&str> = v["regions"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    // In order of first launch or transfer (the data region's first copy comes before `shift`
    // runs; on the host backend it moves nothing and has no row).
    let want: &[&str] = if device == "host" { &["scale", "shift", "square"] } else { &["scale", "data", "shift", "square"] };
    let names: Vec<&str> = names.into_iter().map(|n| if n.starts_with("data") { "data" } else { n }).collect();
    assert_eq!(names, want);
    let scale = region(&v, "scale");
    assert_eq!((scale["kind"].as_str(), scale["file"].as_str()), (Some("parallel"), Some("tests/profile_files.rs")));
    assert_eq!(scale["line"], 13, "the line of `#[acc::parallel(copy(a))]` above");
    assert_eq!(region(&v, "square")["kind"], "kernels");
    for (name, launches) in [("scale", 3), ("shift", 3), ("square", 1)] {
        let d = on_device(region(&v, name), &device);
        assert_eq!(d["launches"], launches, "{name}: {d:#}");
        assert!(d["launch_time_ns"].as_u64().unwrap() > 0, "{name}: {d:#}");
        let bytes = |dir: &str| (d[dir]["count"].as_u64().unwrap(), d[dir]["bytes"].as_u64().unwrap());
        if device == "host" {
            // One memory: nothing moves.
            assert_eq!((bytes("h2d"), bytes("d2h")), ((0, 0), (0, 0)), "{name}");
        } else if name == "scale" {
            // `copy(a)`, `a` only: copied back at each call, copied in at the first only (the
            // later calls find the host's `a` as the last call left it, and the device copy
            // that call kept: acc-runtime/src/cuda/kept.rs).
            let a = |calls: u64| (calls, calls * (N * 8) as u64);
            assert_eq!((bytes("h2d"), bytes("d2h")), (a(1), a(3)), "{d:#}");
            assert_eq!(d["transfers"][0]["data"], "a");
        }
    }
}

#[test]
fn chrome_trace_has_launches_in_order_on_their_queues() {
    let (device, v) = profile_of("chrome");
    let events = v["traceEvents"].as_array().unwrap();
    let meta = |kind: &str, pid: &Value, tid: Option<&Value>| -> String {
        let found: Vec<&Value> = events
            .iter()
            .filter(|e| e["ph"] == "M" && e["name"] == kind && &e["pid"] == pid && tid.is_none_or(|t| &e["tid"] == t))
            .collect();
        assert_eq!(found.len(), 1, "{kind} of {pid} {tid:?}");
        found[0]["args"]["name"].as_str().unwrap().to_string()
    };
    let launches: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X" && e["cat"] == "launch").collect();
    let seen: Vec<&str> = launches.iter().map(|e| e["name"].as_str().unwrap()).collect();
    let want: Vec<&str> = LAUNCHES.iter().map(|l| l.0).collect();
    assert_eq!(seen, want);
    let process = if device == "host" { "host".to_string() } else { format!("{device} {}", child_device_num()) };
    let mut end = 0.0f64;
    for (e, (name, queue)) in launches.iter().zip(LAUNCHES) {
        let (ts, dur) = (e["ts"].as_f64().unwrap(), e["dur"].as_f64().unwrap());
        assert!(dur >= 0.0, "{e}");
        // One after the other (the host runs async work before the call returns; on a GPU
        // an async launch returns once queued).
        assert!(ts + 1e-3 >= end, "{name} starts at {ts} before the last launch ended at {end}");
        end = ts + dur;
        assert_eq!(meta("process_name", &e["pid"], None), process);
        let track = meta("thread_name", &e["pid"], Some(&e["tid"]));
        match queue {
            Some(q) => assert_eq!(track, format!("queue {q}")),
            None => assert!(track.starts_with("sync (host thread "), "{track}"),
        }
        assert_eq!(e["args"]["region"], name);
        assert!(e["args"]["location"].as_str().unwrap().starts_with("tests/profile_files.rs:"), "{e}");
    }
    // One track per queue: the two launches on queue 1 share one, queue 2 has its own, and
    // the synchronous launches another.
    let tid = |i: usize| launches[i]["tid"].as_u64().unwrap();
    assert_eq!(tid(2), tid(4));
    let mut tracks = vec![tid(0), tid(2), tid(3)];
    tracks.dedup();
    assert_eq!(tracks.len(), 3, "{tracks:?}");
    assert_eq!((tid(1), tid(5), tid(6)), (tid(0), tid(0), tid(0)));
    let transfers = events.iter().filter(|e| e["ph"] == "X" && (e["cat"] == "h2d" || e["cat"] == "d2h")).count();
    if device == "host" {
        assert_eq!(transfers, 0);
    } else {
        // `scale`'s `a` in once (its later calls take the device copy the last one kept)
        // and out three times, the data region's `b` and `c` in and out once, `square`'s `a`
        // (default `copy`) in and out once.
        assert_eq!(transfers, 10);
    }
}
