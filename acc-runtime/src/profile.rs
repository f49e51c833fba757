//! `ACC_NOTIFY` and `ACC_PROFILE`.
//!
//! - `ACC_NOTIFY=1`: one line on stderr per region launch and per transfer, e.g.
//!   `acc: launch vadd (examples/01-vadd.rs:9) on host` (on a GPU, `on nvidia 0`: the
//!   device's number; then ` (lean kernel)` where a nest's lean kernel ran, ` (indices
//!   bounded)` where its kernel without the index checks the launch proved did, ` (lean
//!   kernel, indices bounded)` where its lean kernel without them did) and
//!   `acc: upload 4.0 MiB a -> device (vadd)`; at process exit, one line per array still on
//!   the device (an `enter_data!` that no `exit_data!` matched), naming it and where it
//!   entered.
//! - `ACC_PROFILE=1`: at process exit, a table per region on stderr: launches, total time,
//!   bytes and time of host-to-device and device-to-host transfers; and the same per region
//!   and device as JSON in the file `ACC_PROFILE_FILE` (default `acc-profile.json`, see
//!   [`summary_json`]).
//! - `ACC_PROFILE=chrome`: the table, and a Chrome trace of every launch and transfer on a
//!   track per device and queue in `ACC_PROFILE_FILE` (default `acc-trace.json`; open it in
//!   `chrome://tracing` or <https://ui.perfetto.dev>, see [`chrome_trace`]).
//!
//! `{pid}` in `ACC_PROFILE_FILE` becomes the process id.
//!
//! Under a profiler (Nsight Systems), GPU launches and transfers run inside NVTX ranges named
//! the same way ([`nvtx`]).
//!
//! Any value other than empty or `0` turns a variable on. Both are read once, at first use.
//! Statistics can also be collected programmatically with [`set_recording`] and read with
//! [`snapshot`] or [`report`].

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

use crate::backend::DeviceType;
use crate::region_info::RegionInfo;

mod export;
pub mod nvtx;
pub use export::{
    chrome_trace, set_tracing, summary_json, write_chrome_trace, write_summary, Track,
    DEFAULT_SUMMARY_FILE, DEFAULT_TRACE_FILE,
};
pub(crate) use export::thread_index;

/// Direction of a transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Host memory to device memory (upload).
    HostToDevice,
    /// Device memory to host memory (download).
    DeviceToHost,
}

struct Flags {
    notify: bool,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();
static RECORD: AtomicBool = AtomicBool::new(false);

fn env_on(name: &str) -> bool {
    matches!(std::env::var(name), Ok(v) if !v.trim().is_empty() && v.trim() != "0")
}

fn flags() -> &'static Flags {
    FLAGS.get_or_init(|| {
        if env_on("ACC_PROFILE") {
            RECORD.store(true, Ordering::Relaxed);
            export::configure(&std::env::var("ACC_PROFILE").unwrap_or_default());
            extern "C" fn at_exit() {
                // A panic must not cross the C boundary; nothing useful is left to do then.
                let _ = std::panic::catch_unwind(|| {
                    print_report();
                    export::write_at_exit();
                });
            }
            // SAFETY: `at_exit` is a plain `extern "C" fn()` that never unwinds; it is
            // registered once (inside `get_or_init`).
            unsafe { libc::atexit(at_exit) };
        }
        Flags { notify: env_on("ACC_NOTIFY") }
    })
}

/// Whether `ACC_NOTIFY` is on.
pub fn notify_enabled() -> bool {
    flags().notify
}

/// Whether launches and transfers are being recorded (`ACC_PROFILE`, or [`set_recording`]).
pub fn recording() -> bool {
    flags();
    RECORD.load(Ordering::Relaxed)
}

/// Turns recording of statistics on or off (for benches and tests; `ACC_PROFILE=1` turns it
/// on at start and prints the table at exit).
pub fn set_recording(on: bool) {
    flags();
    RECORD.store(on, Ordering::Relaxed);
}

/// The statistics of one region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionProfile {
    /// The region's name.
    pub name: &'static str,
    /// Its kind (`parallel`, `data`, ...).
    pub kind: &'static str,
    /// Its source file.
    pub file: &'static str,
    /// Its line.
    pub line: u32,
    /// Number of launches.
    pub launches: u64,
    /// Total time of the launches, in nanoseconds.
    pub launch_nanos: u64,
    /// Number of host-to-device transfers.
    pub h2d_count: u64,
    /// Bytes moved host-to-device.
    pub h2d_bytes: u64,
    /// Time of host-to-device transfers, in nanoseconds.
    pub h2d_nanos: u64,
    /// Number of device-to-host transfers.
    pub d2h_count: u64,
    /// Bytes moved device-to-host.
    pub d2h_bytes: u64,
    /// Time of device-to-host transfers, in nanoseconds.
    pub d2h_nanos: u64,
}

impl RegionProfile {
    fn new(r: &'static RegionInfo) -> Self {
        RegionProfile {
            name: r.name,
            kind: r.kind,
            file: r.file,
            line: r.line,
            launches: 0,
            launch_nanos: 0,
            h2d_count: 0,
            h2d_bytes: 0,
            h2d_nanos: 0,
            d2h_count: 0,
            d2h_bytes: 0,
            d2h_nanos: 0,
        }
    }
}

struct Stats {
    index: HashMap<usize, usize>,
    regions: Vec<RegionProfile>,
}

static STATS: Mutex<Option<Stats>> = Mutex::new(None);

fn with_stats(region: &'static RegionInfo, f: impl FnOnce(&mut RegionProfile)) {
    let mut g = STATS.lock().unwrap_or_else(PoisonError::into_inner);
    let s = g.get_or_insert_with(|| Stats {
        index: HashMap::new(),
        regions: Vec::new(),
    });
    let key = region as *const RegionInfo as usize;
    let i = *s.index.entry(key).or_insert_with(|| {
        s.regions.push(RegionProfile::new(region));
        s.regions.len() - 1
    });
    f(&mut s.regions[i]);
}

/// The statistics recorded so far, one entry per region, in order of first appearance.
pub fn snapshot() -> Vec<RegionProfile> {
    let g = STATS.lock().unwrap_or_else(PoisonError::into_inner);
    g.as_ref().map(|s| s.regions.clone()).unwrap_or_default()
}

/// Measures one region launch; records it when dropped. Made by [`launch_begin_on`].
#[must_use = "the launch is timed until this is dropped"]
#[derive(Debug)]
pub struct LaunchTimer {
    region: &'static RegionInfo,
    track: Track,
    start: Option<Instant>,
}

impl Drop for LaunchTimer {
    fn drop(&mut self) {
        if let Some(start) = self.start {
            let nanos = start.elapsed().as_nanos() as u64;
            with_stats(self.region, |s| {
                s.launches += 1;
                s.launch_nanos += nanos;
            });
            export::launch(self.region, self.track, start, nanos);
        }
    }
}

/// Starts timing a launch of `region` on `track` (`ACC_NOTIFY` prints it: `on host`, or on a
/// GPU `on nvidia 0`, with the device's number).
pub fn launch_begin_on(region: &'static RegionInfo, track: Track) -> LaunchTimer {
    launch_begin_noted(region, track, KernelNote::Plain)
}

/// Which of a nest's kernels a GPU launch ran, as its `ACC_NOTIFY` line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelNote {
    /// The kernel as written (and every host launch): no note.
    Plain,
    /// The nest's lean kernel: ` (lean kernel)`.
    Lean,
    /// Its lean kernel without the checks of the indices the launch bounded (`_lean_inb`):
    /// ` (lean kernel, indices bounded)`.
    LeanBounded,
    /// Its kernel without the checks of the indices the launch bounded: ` (indices bounded)`.
    Bounded,
    /// That kernel calling the routines with their checks: ` (indices bounded, routines
    /// checked)`.
    BoundedRoutinesChecked,
    /// The kernel of one point a thread of a nest without those checks (`_pt_inb`): ` (indices
    /// bounded, one point a thread)`.
    BoundedPoint,
    /// That kernel calling the routines with their checks (`_pt_inbc`).
    BoundedPointRoutinesChecked,
}

impl KernelNote {
    /// The note of the kernel named `name` (by the suffix acc's kernel names carry).
    pub fn of(name: &str) -> Self {
        if name.ends_with("_lean") {
            KernelNote::Lean
        } else if name.ends_with("_lean_inb") {
            KernelNote::LeanBounded
        } else if name.ends_with("_pt_inb") {
            KernelNote::BoundedPoint
        } else if name.ends_with("_pt_inbc") {
            KernelNote::BoundedPointRoutinesChecked
        } else if name.ends_with("_inb") {
            KernelNote::Bounded
        } else if name.ends_with("_inbc") {
            KernelNote::BoundedRoutinesChecked
        } else {
            KernelNote::Plain
        }
    }

    fn text(self) -> &'static str {
        match self {
            KernelNote::Plain => "",
            KernelNote::Lean => " (lean kernel)",
            KernelNote::LeanBounded => " (lean kernel, indices bounded)",
            KernelNote::Bounded => " (indices bounded)",
            KernelNote::BoundedRoutinesChecked => " (indices bounded, routines checked)",
            KernelNote::BoundedPoint => " (indices bounded, one point a thread)",
            KernelNote::BoundedPointRoutinesChecked => " (indices bounded, routines checked, one point a thread)",
        }
    }
}

/// How many launches the process made so far, counted always (a relaxed atomic add per
/// launch, unlike `ACC_NOTIFY`'s line): what the benches report, so that a timed run proves
/// where its regions ran without printing a line per launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchCounts {
    /// Launches on a GPU.
    pub gpu: u64,
    /// Launches on the host backend.
    pub host: u64,
    /// GPU launches of kernels without the index checks the launch proved (`_inb`, `_inbc`
    /// and `_lean_inb`).
    pub bounded: u64,
    /// GPU launches of lean kernels (`_lean` and `_lean_inb`).
    pub lean: u64,
    /// GPU launches of kernels of one point a thread (`_pt_inb` and `_pt_inbc`; counted in
    /// `bounded` too).
    pub point: u64,
}

/// The counters of [`LaunchCounts`]' fields, in its order.
static COUNTS: [AtomicU64; 5] = [const { AtomicU64::new(0) }; 5];
const GPU: usize = 0;
const HOST: usize = 1;
const BOUNDED: usize = 2;
const LEAN: usize = 3;
const POINT: usize = 4;

/// The launches so far (see [`LaunchCounts`]).
pub fn launch_counts() -> LaunchCounts {
    let [gpu, host, bounded, lean, point] = COUNTS.each_ref().map(|c| c.load(Ordering::Relaxed));
    LaunchCounts { gpu, host, bounded, lean, point }
}

/// Counts one launch in counter `c`.
fn count(c: usize) {
    COUNTS[c].fetch_add(1, Ordering::Relaxed);
}

/// [`launch_begin_on`] whose `ACC_NOTIFY` line ends with `note`'s text (a GPU launch of a
/// nest's lean kernel, or of its kernel without the checks of the indices the launch bounded).
pub fn launch_begin_noted(region: &'static RegionInfo, track: Track, note: KernelNote) -> LaunchTimer {
    let on_host = track.device == DeviceType::Host;
    count(if on_host { HOST } else { GPU });
    match note {
        KernelNote::Bounded | KernelNote::BoundedRoutinesChecked => count(BOUNDED),
        KernelNote::BoundedPoint | KernelNote::BoundedPointRoutinesChecked => {
            count(BOUNDED);
            count(POINT);
        }
        KernelNote::Lean => count(LEAN),
        KernelNote::LeanBounded => {
            count(BOUNDED);
            count(LEAN);
        }
        KernelNote::Plain => {}
    }
    if notify_enabled() {
        let note = note.text();
        if on_host {
            notify(format_args!("acc: launch {} on host{note}", region.site()));
        } else {
            notify(format_args!("acc: launch {} on {:?} {}{note}", region.site(), track.device, track.device_num));
        }
    }
    LaunchTimer {
        region,
        track,
        start: recording().then(Instant::now),
    }
}

/// Prints an `ACC_NOTIFY` line on stderr in one write: `eprintln!` writes each piece of its
/// format on its own (stderr is unbuffered), and those system calls cost each launch about 4
/// microseconds on the GPU machine (15.3 against 11.0 for a launch and its synchronisation);
/// one write also keeps the line whole beside other processes writing the same stderr.
pub(crate) fn notify(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let mut text = String::with_capacity(128);
    let _ = writeln!(text, "{line}");
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Records a transfer of `bytes` bytes on `track` that took `nanos` ns for `region`.
pub fn record_transfer(
    region: &'static RegionInfo,
    track: Track,
    dir: Direction,
    bytes: u64,
    nanos: u64,
) {
    record(region, track, None, dir, bytes, nanos);
}

/// Records a transfer of the data named `name` (printed by `ACC_NOTIFY`).
pub fn record_named_transfer(
    region: &'static RegionInfo,
    track: Track,
    name: &'static str,
    dir: Direction,
    bytes: u64,
    nanos: u64,
) {
    record(region, track, Some(name), dir, bytes, nanos);
}

fn record(
    region: &'static RegionInfo,
    track: Track,
    name: Option<&'static str>,
    dir: Direction,
    bytes: u64,
    nanos: u64,
) {
    if notify_enabled() {
        let what = name.map(|n| format!(" {n}")).unwrap_or_default();
        let (verb, arrow) = match dir {
            Direction::HostToDevice => ("upload", "->"),
            Direction::DeviceToHost => ("download", "<-"),
        };
        notify(format_args!("acc: {verb} {}{what} {arrow} device ({})", human_bytes(bytes), region.name));
    }
    if recording() {
        with_stats(region, |s| match dir {
            Direction::HostToDevice => {
                s.h2d_count += 1;
                s.h2d_bytes += bytes;
                s.h2d_nanos += nanos;
            }
            Direction::DeviceToHost => {
                s.d2h_count += 1;
                s.d2h_bytes += bytes;
                s.d2h_nanos += nanos;
            }
        });
        export::transfer(region, track, name.unwrap_or(""), dir, bytes, nanos);
    }
}

/// `1.5 KiB`, `4.0 MiB`, ...: bytes for people.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.1} {}", UNITS[u])
}

fn ms(nanos: u64) -> String {
    format!("{:.3}", nanos as f64 / 1e6)
}

/// The profile table (what `ACC_PROFILE=1` prints at exit).
pub fn report() -> String {
    let rows = snapshot();
    let mut out = String::new();
    let _ = writeln!(out, "acc profile: {} region(s)", rows.len());
    if rows.is_empty() {
        return out;
    }
    let head = [
        "region",
        "kind",
        "location",
        "launches",
        "time ms",
        "h2d",
        "h2d bytes",
        "h2d ms",
        "d2h",
        "d2h bytes",
        "d2h ms",
    ];
    let table: Vec<[String; 11]> = rows
        .iter()
        .map(|r| {
            [
                r.name.to_string(),
                r.kind.to_string(),
                format!("{}:{}", r.file, r.line),
                r.launches.to_string(),
                ms(r.launch_nanos),
                r.h2d_count.to_string(),
                human_bytes(r.h2d_bytes),
                ms(r.h2d_nanos),
                r.d2h_count.to_string(),
                human_bytes(r.d2h_bytes),
                ms(r.d2h_nanos),
            ]
        })
        .collect();
    let mut width: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for row in &table {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = &str>, out: &mut String| {
        let mut s = String::new();
        for (i, c) in cells.enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            if i < 3 {
                let _ = write!(s, "{c:<w$}", w = width[i]);
            } else {
                let _ = write!(s, "{c:>w$}", w = width[i]);
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(&mut head.iter().copied(), &mut out);
    for row in &table {
        line(&mut row.iter().map(String::as_str), &mut out);
    }
    out
}

fn print_report() {
    use std::io::Write;
    let _ = std::io::stderr().write_all(report().as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    static P: RegionInfo = RegionInfo {
        name: "prof_test",
        kind: "parallel",
        file: "t.rs",
        line: 3,
        kernel: "",
    };

    #[test]
    fn bytes_for_people() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(4 << 20), "4.0 MiB");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    }

    #[test]
    fn launches_are_counted_by_device_and_kernel() {
        // Other tests launch at the same time: each count grows by at least this test's. (A
        // region of its own: another test's recording counts `P`'s launches.)
        static COUNTED: RegionInfo = RegionInfo { name: "counted", kind: "parallel", file: "t.rs", line: 5, kernel: "" };
        let before = launch_counts();
        let gpu = Track { device: DeviceType::Nvidia, device_num: 0, queue: None };
        drop(launch_begin_on(&COUNTED, Track::HOST));
        for name in ["k_0", "k_0_inb", "k_0_inbc", "k_0_lean", "k_0_inb", "k_0_pt_inb", "k_0_lean_inb"] {
            drop(launch_begin_noted(&COUNTED, gpu, KernelNote::of(name)));
        }
        let after = launch_counts();
        assert!(after.host > before.host, "{before:?} -> {after:?}");
        assert!(after.gpu >= before.gpu + 7, "{before:?} -> {after:?}");
        assert!(after.bounded >= before.bounded + 5, "{before:?} -> {after:?}");
        assert!(after.lean >= before.lean + 2, "{before:?} -> {after:?}");
        assert!(after.point > before.point, "{before:?} -> {after:?}");
        assert_eq!(
            ["k", "k_inb", "k_inbc", "k_lean", "k_inbound", "k_pt_inb", "k_pt_inbc", "k_lean_inb"].map(|n| KernelNote::of(n).text()),
            [
                "",
                " (indices bounded)",
                " (indices bounded, routines checked)",
                " (lean kernel)",
                "",
                " (indices bounded, one point a thread)",
                " (indices bounded, routines checked, one point a thread)",
                " (lean kernel, indices bounded)"
            ]
        );
    }

    #[test]
    fn records_launches_and_transfers() {
        let _g = crate::test_util::exclusive();
        set_recording(true);
        {
            let _t = launch_begin_on(&P, Track::HOST);
        }
        {
            let _t = launch_begin_on(&P, Track::HOST);
        }
        record_transfer(&P, Track::HOST, Direction::HostToDevice, 1000, 5);
        record_named_transfer(&P, Track::HOST, "a", Direction::DeviceToHost, 24, 7);
        record_named_transfer(&P, Track::HOST, "a", Direction::DeviceToHost, 8, 1);
        set_recording(false);
        record_transfer(&P, Track::HOST, Direction::HostToDevice, 1, 1); // not recorded
        let s = snapshot()
            .into_iter()
            .find(|r| r.name == "prof_test")
            .unwrap();
        assert_eq!(s.launches, 2);
        assert_eq!((s.h2d_count, s.h2d_bytes, s.h2d_nanos), (1, 1000, 5));
        assert_eq!((s.d2h_count, s.d2h_bytes, s.d2h_nanos), (2, 32, 8));
        let r = report();
        assert!(r.contains("prof_test"), "{r}");
        assert!(r.contains("t.rs:3"), "{r}");
        assert!(r.lines().next().unwrap().starts_with("acc profile:"), "{r}");
        assert!(r.lines().nth(1).unwrap().starts_with("region"), "{r}");
    }
}
