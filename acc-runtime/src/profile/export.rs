//! Machine-readable profiles: the JSON summary that `ACC_PROFILE=1` writes at exit and the
//! Chrome trace that `ACC_PROFILE=chrome` writes (Trace Event Format, opened by
//! `chrome://tracing` and <https://ui.perfetto.dev>).
//!
//! The recording hooks of [`super`] hand every launch and transfer to [`launch`] and
//! [`transfer`] here, with the [`Track`] it ran on: the device and the async queue. The
//! summary adds them up per region and device; the trace keeps each one as an event (only
//! while tracing is on: `ACC_PROFILE=chrome` or [`set_tracing`]).

use std::cell::Cell;
use std::collections::HashMap;
use std::io::{self, BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

use serde_json::{json, Value};

use super::Direction;
use crate::backend::{Backend, DeviceType};
use crate::region_info::RegionInfo;

/// Where a launch or a transfer ran: a device and, for the work of an `async(q)` region, its
/// queue. Each track is a row of the Chrome trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Track {
    /// The device's type.
    pub device: DeviceType,
    /// The device's number among the devices of its type.
    pub device_num: usize,
    /// The async queue (`Some(q)`), or `None` for synchronous work.
    pub queue: Option<i64>,
}

impl Track {
    /// Synchronous work on the host.
    pub const HOST: Track = Track { device: DeviceType::Host, device_num: 0, queue: None };

    /// Work on the device behind `backend`, on `queue`.
    pub fn of(backend: &dyn Backend, queue: Option<i64>) -> Track {
        Track { device: backend.device_type(), device_num: backend.device_num(), queue }
    }

    /// The host, on `queue` (the host backend runs async work before the call returns, but
    /// the trace keeps it on its queue's track).
    pub fn host(queue: Option<i64>) -> Track {
        Track { queue, ..Track::HOST }
    }
}

/// The file `ACC_PROFILE` asks for at exit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    Summary,
    Chrome,
}

static OUTPUT: OnceLock<Output> = OnceLock::new();
static TRACING: AtomicBool = AtomicBool::new(false);
static EPOCH: OnceLock<Instant> = OnceLock::new();

/// At most this many events are kept for the trace (about 100 MB); later ones are counted.
const MAX_EVENTS: usize = 1 << 20;
static DROPPED: AtomicU64 = AtomicU64::new(0);

/// The default of `ACC_PROFILE_FILE` for `ACC_PROFILE=1`.
pub const DEFAULT_SUMMARY_FILE: &str = "acc-profile.json";
/// The default of `ACC_PROFILE_FILE` for `ACC_PROFILE=chrome`.
pub const DEFAULT_TRACE_FILE: &str = "acc-trace.json";

/// The time every timestamp counts from (the first use of the profiler).
fn epoch() -> Instant {
    *EPOCH.get_or_init(Instant::now)
}

/// Reads `ACC_PROFILE`'s value (already known to be on): `chrome` traces, anything else asks
/// for the summary.
pub(super) fn configure(value: &str) {
    epoch();
    let out = if value.trim().eq_ignore_ascii_case("chrome") { Output::Chrome } else { Output::Summary };
    let _ = OUTPUT.set(out);
    if out == Output::Chrome {
        TRACING.store(true, Ordering::Relaxed);
    }
}

/// Turns the keeping of events for [`chrome_trace`] on or off (`ACC_PROFILE=chrome` turns it
/// on at start). Recording must be on too ([`super::set_recording`]).
pub fn set_tracing(on: bool) {
    epoch();
    TRACING.store(on, Ordering::Relaxed);
}

fn tracing() -> bool {
    TRACING.load(Ordering::Relaxed)
}

/// The path in `ACC_PROFILE_FILE`, or `default`; `{pid}` in it becomes the process id (one
/// file per process when several run, as under `cargo test`).
fn output_path(default: &str) -> PathBuf {
    let p = std::env::var("ACC_PROFILE_FILE").ok().filter(|p| !p.trim().is_empty());
    PathBuf::from(p.as_deref().unwrap_or(default).replace("{pid}", &std::process::id().to_string()))
}

/// Writes what `ACC_PROFILE` asked for (at exit), saying where on stderr.
pub(super) fn write_at_exit() {
    let (path, written) = match OUTPUT.get() {
        None => return,
        Some(Output::Summary) => {
            let p = output_path(DEFAULT_SUMMARY_FILE);
            let r = write_summary(&p);
            (p, r)
        }
        Some(Output::Chrome) => {
            let p = output_path(DEFAULT_TRACE_FILE);
            let r = write_chrome_trace(&p);
            (p, r)
        }
    };
    match written {
        Ok(()) => eprintln!("acc profile: written to {}", path.display()),
        Err(e) => eprintln!("acc profile: cannot write {}: {e}", path.display()),
    }
}

/// Sums of one kind of transfer of one array.
#[derive(Clone, Copy, Default)]
struct Moved {
    count: u64,
    bytes: u64,
    nanos: u64,
}

/// A region's work on one device.
struct Row {
    region: &'static RegionInfo,
    device: DeviceType,
    device_num: usize,
    launches: u64,
    launch_nanos: u64,
    /// Per direction and array name, in order of first appearance.
    transfers: Vec<(Direction, &'static str, Moved)>,
}

/// One launch or transfer, for the trace.
struct Event {
    region: &'static RegionInfo,
    track: Track,
    /// The host thread that did it (a small number, see [`thread_index`]).
    thread: u64,
    start_ns: u64,
    dur_ns: u64,
    /// `None` for a launch.
    transfer: Option<(Direction, &'static str, u64)>,
}

#[derive(Default)]
struct Log {
    index: HashMap<(usize, DeviceType, usize), usize>,
    rows: Vec<Row>,
    events: Vec<Event>,
}

static LOG: Mutex<Option<Log>> = Mutex::new(None);

fn with_log<R>(f: impl FnOnce(&mut Log) -> R) -> R {
    let mut g = LOG.lock().unwrap_or_else(PoisonError::into_inner);
    f(g.get_or_insert_with(Log::default))
}

impl Log {
    fn row(&mut self, region: &'static RegionInfo, track: Track) -> &mut Row {
        let key = (region as *const RegionInfo as usize, track.device, track.device_num);
        let rows = &mut self.rows;
        let i = *self.index.entry(key).or_insert_with(|| {
            rows.push(Row {
                region,
                device: track.device,
                device_num: track.device_num,
                launches: 0,
                launch_nanos: 0,
                transfers: Vec::new(),
            });
            rows.len() - 1
        });
        &mut self.rows[i]
    }

    fn event(&mut self, e: Event) {
        if self.events.len() < MAX_EVENTS {
            self.events.push(e);
        } else {
            DROPPED.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// A small number for the calling thread, in order of first use (1, 2, ...): the trace's
/// synchronous tracks are per host thread, and the profiling interface's `thread_id` is the
/// same number; 0 where the thread's locals are gone (at its exit).
pub(crate) fn thread_index() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local!(static INDEX: Cell<u64> = const { Cell::new(0) });
    INDEX
        .try_with(|i| {
            if i.get() == 0 {
                i.set(NEXT.fetch_add(1, Ordering::Relaxed));
            }
            i.get()
        })
        .unwrap_or(0)
}

fn since_epoch(t: Instant) -> u64 {
    t.saturating_duration_since(epoch()).as_nanos() as u64
}

/// Records a launch of `region` on `track` that began at `start` and took `nanos` ns.
pub(super) fn launch(region: &'static RegionInfo, track: Track, start: Instant, nanos: u64) {
    let start_ns = since_epoch(start);
    let thread = thread_index();
    with_log(|log| {
        let row = log.row(region, track);
        row.launches += 1;
        row.launch_nanos += nanos;
        if tracing() {
            log.event(Event { region, track, thread, start_ns, dur_ns: nanos, transfer: None });
        }
    });
}

/// Records a transfer of `bytes` bytes of `name` for `region` on `track` that ended now and
/// took `nanos` ns.
pub(super) fn transfer(
    region: &'static RegionInfo,
    track: Track,
    name: &'static str,
    dir: Direction,
    bytes: u64,
    nanos: u64,
) {
    let start_ns = since_epoch(Instant::now()).saturating_sub(nanos);
    let thread = thread_index();
    with_log(|log| {
        let row = log.row(region, track);
        match row.transfers.iter_mut().find(|(d, n, _)| *d == dir && *n == name) {
            Some((_, _, m)) => {
                m.count += 1;
                m.bytes += bytes;
                m.nanos += nanos;
            }
            None => row.transfers.push((dir, name, Moved { count: 1, bytes, nanos })),
        }
        if tracing() {
            log.event(Event { region, track, thread, start_ns, dur_ns: nanos, transfer: Some((dir, name, bytes)) });
        }
    });
}

fn direction(d: Direction) -> &'static str {
    match d {
        Direction::HostToDevice => "h2d",
        Direction::DeviceToHost => "d2h",
    }
}

fn location(r: &RegionInfo) -> String {
    format!("{}:{}", r.file, r.line)
}

/// The summary as a JSON value (see [`summary_json`] for its shape).
fn summary_value() -> Value {
    with_log(|log| {
        let mut order: Vec<usize> = Vec::new();
        let mut regions: Vec<Value> = Vec::new();
        for row in &log.rows {
            let key = row.region as *const RegionInfo as usize;
            let i = match order.iter().position(|&k| k == key) {
                Some(i) => i,
                None => {
                    order.push(key);
                    let r = row.region;
                    regions.push(json!({
                        "name": r.name,
                        "kind": r.kind,
                        "file": r.file,
                        "line": r.line,
                        "kernel": r.kernel,
                        "devices": [],
                    }));
                    regions.len() - 1
                }
            };
            let total = |dir: Direction| {
                let (mut count, mut bytes, mut nanos) = (0, 0, 0);
                for (_, _, m) in row.transfers.iter().filter(|(d, _, _)| *d == dir) {
                    count += m.count;
                    bytes += m.bytes;
                    nanos += m.nanos;
                }
                json!({ "count": count, "bytes": bytes, "time_ns": nanos })
            };
            let per_array: Vec<Value> = row
                .transfers
                .iter()
                .map(|(d, n, m)| {
                    json!({
                        "direction": direction(*d),
                        "data": n,
                        "count": m.count,
                        "bytes": m.bytes,
                        "time_ns": m.nanos,
                    })
                })
                .collect();
            let device = json!({
                "device": row.device.as_str(),
                "device_num": row.device_num,
                "launches": row.launches,
                "launch_time_ns": row.launch_nanos,
                "h2d": total(Direction::HostToDevice),
                "d2h": total(Direction::DeviceToHost),
                "transfers": per_array,
            });
            regions[i]["devices"].as_array_mut().expect("made as an array above").push(device);
        }
        json!({
            "format": "acc-profile",
            "version": 1,
            "time_unit": "ns",
            "regions": regions,
        })
    })
}

/// The profile so far as JSON: what `ACC_PROFILE=1` writes at exit.
///
/// ```json
/// { "format": "acc-profile", "version": 1, "time_unit": "ns",
///   "regions": [ { "name": "vadd", "kind": "parallel", "file": "examples/01-vadd.rs",
///                  "line": 9, "kernel": "...",
///                  "devices": [ { "device": "nvidia", "device_num": 0,
///                                 "launches": 1, "launch_time_ns": 41000,
///                                 "h2d": { "count": 2, "bytes": 8388608, "time_ns": 900000 },
///                                 "d2h": { "count": 1, "bytes": 4194304, "time_ns": 450000 },
///                                 "transfers": [ { "direction": "h2d", "data": "a",
///                                                  "count": 1, "bytes": 4194304,
///                                                  "time_ns": 450000 }, ... ] } ] } ] }
/// ```
///
/// Regions come in order of first launch or transfer, each with one entry per device it used.
/// `launch_time_ns` is the time of the launches on the host's clock: a synchronous GPU
/// launch waits for its kernel, so it is the kernel's time plus the launch; a launch on an
/// async queue is the time to queue it. On the host backend, transfers are none (one memory).
pub fn summary_json() -> String {
    serde_json::to_string_pretty(&summary_value()).expect("a JSON value always serialises")
}

/// A process (device) and thread (queue) of the trace: numbers and names.
struct Tracks {
    pids: Vec<(DeviceType, usize)>,
    /// `(pid, thread or queue)` -> tid.
    tids: Vec<(u64, TrackKey, u64)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TrackKey {
    /// Synchronous work of host thread `n`.
    Sync(u64),
    Queue(i64),
}

impl Tracks {
    fn pid(&mut self, t: Track) -> u64 {
        let key = (t.device, t.device_num);
        match self.pids.iter().position(|&p| p == key) {
            Some(i) => i as u64 + 1,
            None => {
                self.pids.push(key);
                self.pids.len() as u64
            }
        }
    }

    fn tid(&mut self, pid: u64, key: TrackKey) -> u64 {
        match self.tids.iter().find(|&&(p, k, _)| p == pid && k == key) {
            Some(&(_, _, tid)) => tid,
            None => {
                let tid = self.tids.iter().filter(|&&(p, _, _)| p == pid).count() as u64 + 1;
                self.tids.push((pid, key, tid));
                tid
            }
        }
    }
}

fn micros(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

fn trace_value() -> Value {
    with_log(|log| {
        let mut order: Vec<&Event> = log.events.iter().collect();
        order.sort_by_key(|e| e.start_ns);
        let mut tracks = Tracks { pids: Vec::new(), tids: Vec::new() };
        let mut events: Vec<Value> = Vec::with_capacity(order.len() + 8);
        for e in &order {
            let pid = tracks.pid(e.track);
            let key = match e.track.queue {
                Some(q) => TrackKey::Queue(q),
                None => TrackKey::Sync(e.thread),
            };
            let tid = tracks.tid(pid, key);
            let r = e.region;
            let (name, cat, args) = match e.transfer {
                None => (
                    r.name.to_string(),
                    "launch",
                    json!({ "region": r.name, "kind": r.kind, "location": location(r), "kernel": r.kernel }),
                ),
                Some((dir, data, bytes)) => (
                    format!("{} {data}", match dir {
                        Direction::HostToDevice => "upload",
                        Direction::DeviceToHost => "download",
                    }),
                    direction(dir),
                    json!({ "region": r.name, "location": location(r), "data": data, "bytes": bytes }),
                ),
            };
            events.push(json!({
                "name": name,
                "cat": cat,
                "ph": "X",
                "pid": pid,
                "tid": tid,
                "ts": micros(e.start_ns),
                "dur": micros(e.dur_ns),
                "args": args,
            }));
        }
        let mut meta = Vec::new();
        for (i, &(ty, num)) in tracks.pids.iter().enumerate() {
            let pid = i as u64 + 1;
            let name = match ty {
                DeviceType::Host => "host".to_string(),
                _ => format!("{ty} {num}"),
            };
            meta.push(json!({ "name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": { "name": name } }));
            meta.push(json!({ "name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0, "args": { "sort_index": pid } }));
        }
        for &(pid, key, tid) in &tracks.tids {
            let (name, sort) = match key {
                TrackKey::Sync(n) => (format!("sync (host thread {n})"), n as i64 - (1 << 40)),
                TrackKey::Queue(q) => (format!("queue {q}"), q),
            };
            meta.push(json!({ "name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": { "name": name } }));
            meta.push(json!({ "name": "thread_sort_index", "ph": "M", "pid": pid, "tid": tid, "args": { "sort_index": sort } }));
        }
        meta.extend(events);
        json!({
            "traceEvents": meta,
            "displayTimeUnit": "ns",
            "otherData": {
                "producer": "acc",
                "dropped_events": DROPPED.load(Ordering::Relaxed),
            },
        })
    })
}

/// The events recorded so far as a Chrome trace (Trace Event Format JSON): what
/// `ACC_PROFILE=chrome` writes at exit.
///
/// Each device is a process (`host`, `nvidia 0`, ...); each of its tracks a thread: the
/// synchronous work of each host thread (`sync (host thread 1)`) and each async queue
/// (`queue 3`). Launches are complete events (`"ph": "X"`) named by the region, category
/// `launch`; transfers are named `upload a` / `download a`, category `h2d` / `d2h`, with the
/// bytes in `args`. Timestamps are microseconds since the profiler started.
pub fn chrome_trace() -> String {
    serde_json::to_string(&trace_value()).expect("a JSON value always serialises")
}

/// Writes [`summary_json`] to `path`.
pub fn write_summary(path: &Path) -> io::Result<()> {
    let mut w = BufWriter::new(std::fs::File::create(path)?);
    serde_json::to_writer_pretty(&mut w, &summary_value())?;
    w.write_all(b"\n")?;
    w.flush()
}

/// Writes [`chrome_trace`] to `path`.
pub fn write_chrome_trace(path: &Path) -> io::Result<()> {
    let mut w = BufWriter::new(std::fs::File::create(path)?);
    serde_json::to_writer(&mut w, &trace_value())?;
    w.write_all(b"\n")?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{enter_data, exit_data, view, EnterClause, ExitClause};
    use crate::profile::{launch_begin_on, set_recording};
    use crate::test_util::with_mock;

    static MOVES: RegionInfo = RegionInfo { name: "export_moves", kind: "enter_data", file: "e.rs", line: 5, kernel: "" };
    static RUNS: RegionInfo = RegionInfo { name: "export_runs", kind: "parallel", file: "e.rs", line: 9, kernel: "k_9" };

    fn parse(s: &str) -> Value {
        serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
    }

    fn region<'a>(v: &'a Value, name: &str) -> &'a Value {
        v["regions"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no {name} in {v}"))
    }

    /// Transfers on a (simulated) GPU and launches on two tracks: the summary has them per
    /// region and device with their bytes; the trace has one event each, on its track.
    #[test]
    fn summary_and_trace_of_transfers_and_launches() {
        with_mock(|_| {
            set_recording(true);
            set_tracing(true);
            let a = vec![1.0f64; 1000];
            let mut c = vec![0u32; 10];
            enter_data(&MOVES, "a", view(&a), EnterClause::CopyIn);
            enter_data(&MOVES, "c", view(&c), EnterClause::Create);
            for q in [None, Some(3), Some(3)] {
                let gpu = Track { device: DeviceType::Nvidia, device_num: 0, queue: q };
                drop(launch_begin_on(&RUNS, gpu));
            }
            drop(launch_begin_on(&RUNS, Track::HOST));
            c[0] = 1;
            exit_data(&MOVES, "c", view(&c), ExitClause::CopyOut, false);
            exit_data(&MOVES, "a", view(&a), ExitClause::Delete, false);
            set_tracing(false);
            set_recording(false);
        });
        let v = parse(&summary_json());
        assert_eq!(v["format"], "acc-profile");
        let moves = region(&v, "export_moves");
        assert_eq!(moves["kind"], "enter_data");
        let dev = &moves["devices"].as_array().unwrap()[0];
        assert_eq!((dev["device"].as_str(), dev["device_num"].as_u64()), (Some("nvidia"), Some(0)));
        assert_eq!(dev["launches"], 0);
        assert_eq!((dev["h2d"]["count"].as_u64(), dev["h2d"]["bytes"].as_u64()), (Some(1), Some(8000)));
        assert_eq!((dev["d2h"]["count"].as_u64(), dev["d2h"]["bytes"].as_u64()), (Some(1), Some(40)));
        let per: Vec<(&str, &str, u64)> = dev["transfers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t["direction"].as_str().unwrap(), t["data"].as_str().unwrap(), t["bytes"].as_u64().unwrap()))
            .collect();
        assert_eq!(per, [("h2d", "a", 8000), ("d2h", "c", 40)]);
        let runs = region(&v, "export_runs");
        assert_eq!((runs["line"].as_u64(), runs["kernel"].as_str()), (Some(9), Some("k_9")));
        let devices: Vec<(&str, u64)> = runs["devices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["device"].as_str().unwrap(), d["launches"].as_u64().unwrap()))
            .collect();
        assert_eq!(devices, [("nvidia", 3), ("host", 1)]);

        let t = parse(&chrome_trace());
        let events = t["traceEvents"].as_array().unwrap();
        let name_of = |kind: &str, pid: &Value, tid: Option<&Value>| -> String {
            events
                .iter()
                .find(|e| e["ph"] == "M" && e["name"] == kind && &e["pid"] == pid && tid.is_none_or(|t| &e["tid"] == t))
                .map(|e| e["args"]["name"].as_str().unwrap().to_string())
                .unwrap_or_else(|| panic!("no {kind} for {pid} {tid:?}"))
        };
        let mine: Vec<&Value> = events
            .iter()
            .filter(|e| e["ph"] == "X" && (e["args"]["region"] == "export_moves" || e["args"]["region"] == "export_runs"))
            .collect();
        let seen: Vec<(String, String, String, String)> = mine
            .iter()
            .map(|e| {
                (
                    e["name"].as_str().unwrap().to_string(),
                    e["cat"].as_str().unwrap().to_string(),
                    name_of("process_name", &e["pid"], None),
                    name_of("thread_name", &e["pid"], Some(&e["tid"])),
                )
            })
            .collect();
        let sync = |s: &str| s.starts_with("sync (host thread ");
        assert_eq!(seen.len(), 6, "{seen:?}");
        assert_eq!((seen[0].0.as_str(), seen[0].1.as_str(), seen[0].2.as_str()), ("upload a", "h2d", "nvidia 0"));
        assert!(sync(&seen[0].3), "{seen:?}");
        assert_eq!((seen[1].0.as_str(), seen[1].2.as_str()), ("export_runs", "nvidia 0"));
        assert!(sync(&seen[1].3), "{seen:?}");
        for e in &seen[2..4] {
            assert_eq!((e.0.as_str(), e.1.as_str(), e.2.as_str(), e.3.as_str()), ("export_runs", "launch", "nvidia 0", "queue 3"));
        }
        assert_eq!((seen[4].0.as_str(), seen[4].2.as_str()), ("export_runs", "host"));
        assert_eq!((seen[5].0.as_str(), seen[5].1.as_str()), ("download c", "d2h"));
        assert_eq!(mine[5]["args"]["bytes"], 40);
        let ts: Vec<f64> = mine.iter().map(|e| e["ts"].as_f64().unwrap()).collect();
        assert!(ts.windows(2).all(|w| w[0] <= w[1]), "{ts:?}");
        assert!(mine.iter().all(|e| e["dur"].as_f64().unwrap() >= 0.0));
    }

    #[test]
    fn pid_in_the_file_name() {
        // (No test sets ACC_PROFILE_FILE in this process.)
        let p = output_path("prof-{pid}.json");
        assert_eq!(p, PathBuf::from(format!("prof-{}.json", std::process::id())));
    }
}
