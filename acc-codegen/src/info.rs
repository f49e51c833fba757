//! The schedule report, acc's `-Minfo=accel`: what each region and loop became on the GPU, in
//! the user's `file:line` terms. acc-build prints it (`ACC_INFO=1` in the environment of a
//! `--features cuda` build, or the `info` clause on a region) with each kernel's registers,
//! local memory and shared memory from the PTX (`acc-build/src/info.rs`).
//!
//! The GPU lowering writes the report as it decides: the hooks are the lines marked
//! `// info:` in `lower/device.rs` (kernels, one-thread kernels, host control around them, the
//! order a nest runs in and why, reductions' partials, captures, `cache!`) and `lib.rs` (data
//! clauses and their defaults). `lower/schedule` records what it decided for each loop and
//! statement of a nest (levels and indices, reductions and where they are combined, the
//! statements a leader runs and the barriers between phases) as typed entries, which
//! [`schedule`] words. A refactor that moves a decision moves its hook with it, so the report
//! keeps saying what the code does.
//!
//! ```
//! use acc_codegen::{info, model::RegionKind, Source};
//!
//! let text = "#[acc::parallel(copyin(a), copyout(c))]
//! fn double(a: &[f32], c: &mut [f32]) {
//!     #[acc::r#loop(gang, vector)]
//!     for i in 0..c.len() {
//!         c[i] = 2.0 * a[i];
//!     }
//! }";
//! let src = Source { file: "src/lib.rs".into(), line: 1 };
//! let report = info::report_of_text(RegionKind::Parallel, text, &src).unwrap();
//! assert!(report.contains("src/lib.rs:4:     loop `i`: gang, vector -> blockIdx.x, threadIdx.x"));
//! ```

use proc_macro2::Span;

use crate::front::model::{DataKind, RegionKind, RedOp};
use crate::front::region::{Param, ParamKind};

pub mod schedule;

/// One line of the report: the user's line it is about, its depth (indentation), its text.
#[derive(Clone, Debug)]
pub struct Note {
    pub line: usize,
    pub depth: usize,
    pub text: String,
}

/// Notes in the order the lowering made them.
#[derive(Clone, Debug, Default)]
pub struct Notes(pub Vec<Note>);

impl Notes {
    /// A note about the code at `span`'s line.
    pub fn add(&mut self, span: Span, depth: usize, text: impl Into<String>) {
        self.at(line_of(span), depth, text);
    }

    /// A note about line `line`.
    pub fn at(&mut self, line: usize, depth: usize, text: impl Into<String>) {
        self.0.push(Note { line, depth, text: text.into() });
    }
}

/// The line of a loop: its `for` (not its attribute).
pub fn loop_line(f: &syn::ExprForLoop) -> usize {
    line_of(f.for_token.span)
}

/// The first line of `span` (0 where the span has no location).
pub fn line_of(span: Span) -> usize {
    span.start().line
}

/// What one kernel of a region is.
#[derive(Clone, Debug)]
pub struct KernelReport {
    /// The PTX entry name.
    pub name: String,
    /// The line of the code it runs.
    pub line: usize,
    /// What it runs (`the loop nest at line 7`, `one thread: the statement at line 9`).
    pub what: String,
    pub notes: Notes,
}

/// The report of one region fn (or one instance of a generic one).
#[derive(Clone, Debug)]
pub struct RegionReport {
    pub file: String,
    /// The line of the region's attribute.
    pub line: usize,
    pub kind: RegionKind,
    /// How messages name the region (`sweep`, `Rod::smooth`, `axpy::<f32>`).
    pub name: String,
    /// Whether the region says `info`: reported without `ACC_INFO`.
    pub asked: bool,
    /// The region's own notes: data clauses, clauses of the launch, host code around the
    /// kernels.
    pub notes: Notes,
    pub kernels: Vec<KernelReport>,
}

impl RegionReport {
    /// The report's text, one line per note, each `file:line:` first (as compilers write
    /// messages, so that editors jump to them); `extra(kernel)` adds lines after a kernel's
    /// own (acc-build: its registers and memory).
    pub fn render(&self, extra: &dyn Fn(&str) -> Vec<String>) -> String {
        let mut out = String::new();
        let line = |out: &mut String, l: usize, depth: usize, text: &str| {
            out.push_str(&format!("{}:{}: {}{}\n", self.file, l, "  ".repeat(depth), user_names(text)));
        };
        let n = self.kernels.len();
        line(
            &mut out,
            self.line,
            0,
            &format!("{} region `{}`: {} kernel{}", self.kind.name(), self.name, n, if n == 1 { "" } else { "s" }),
        );
        for note in &self.notes.0 {
            line(&mut out, note.line, 1 + note.depth, &note.text);
        }
        for k in &self.kernels {
            line(&mut out, k.line, 1, &format!("kernel {}: {}", k.name, k.what));
            for note in &k.notes.0 {
                line(&mut out, note.line, 2 + note.depth, &note.text);
            }
            for e in extra(&k.name) {
                line(&mut out, k.line, 2, &e);
            }
        }
        out
    }
}

/// `text` with acc's stand-in names as the user wrote them: a method's field `__acc_self_x` is
/// `self.x`, the variable of a `for _` loop `_`.
fn user_names(text: &str) -> String {
    text.replace(crate::front::method::FIELD_PREFIX, "self.").replace("`__acc_unused`", "`_`")
}

/// The report of the region fn written in `text` (its attribute first), as acc-build makes it
/// (for tests and docs): `text` stands at line `src.line` of `src.file`.
pub fn report_of_text(kind: RegionKind, text: &str, src: &crate::Source) -> Result<String, String> {
    // Parsed at its lines: the spans' lines are the file's.
    let placed = format!("{}{text}", "\n".repeat(src.line.saturating_sub(1) as usize));
    let mut f: syn::ItemFn = syn::parse_str(&placed).map_err(|e| e.to_string())?;
    if f.attrs.is_empty() {
        return Err("no region attribute".into());
    }
    let attr = f.attrs.remove(0);
    let r = crate::device_region(kind, &attr, &f, src, &|_| None);
    if let Some(why) = r.refused.or(Some(r.errors).filter(|e| !e.is_empty())) {
        return Err(why.into_iter().map(|(_, m)| m).collect::<Vec<_>>().join("\n"));
    }
    Ok(r.reports.iter().map(|rep| rep.render(&|_| Vec::new())).collect())
}

/// The data notes of a region: each array's clause (written, or the default it got and why),
/// and the values passed by value.
pub fn data_notes(notes: &mut Notes, plan: &[(Param, DataKind, Span)], params: &[Param], written: &[proc_macro2::Ident], privates: &[proc_macro2::Ident], default_present: bool) {
    for (p, kind, span) in plan {
        let name = crate::front::method::display(&p.ident);
        let why = if written.contains(&p.ident) {
            "clause".to_string()
        } else if privates.contains(&p.ident) {
            "implicit: region-level private/firstprivate reads the original".to_string()
        } else {
            match (p.kind, default_present) {
                (ParamKind::DeviceSlice | ParamKind::DeviceSliceMut, _) => "implicit: a DeviceSlice lives on the device".to_string(),
                (_, true) => "implicit: default(present)".to_string(),
                (ParamKind::Slice, false) => "implicit: a read-only `&[T]` is copied in".to_string(),
                _ => "implicit: a `&mut [T]` is copied in and out".to_string(),
            }
        };
        let when = match kind {
            DataKind::Present => " (it must be present: `data!`, `enter_data!` or a `Mirror`)",
            DataKind::DevicePtr => "",
            DataKind::NoCreate => " (used where it is present; absent, it is copied as without a clause)",
            _ => " (if not already present)",
        };
        notes.add(*span, 0, format!("data: {}({name}){when} [{why}]", kind.name()));
    }
    for p in params.iter().filter(|p| p.kind == ParamKind::Value) {
        notes.add(p.ident.span(), 0, format!("data: `{}` by value (firstprivate: each thread reads the caller's value)", crate::front::method::display(&p.ident)));
    }
}

/// The hardware index of each level: gang -> `blockIdx.x`, worker -> `threadIdx.y`, vector
/// -> `threadIdx.x`.
pub fn level_names(gang: bool, worker: bool, vector: bool) -> String {
    let mut v = Vec::new();
    if gang {
        v.push("gang");
    }
    if worker {
        v.push("worker");
    }
    if vector {
        v.push("vector");
    }
    v.join(", ")
}

/// The index and stride of a grid-stride loop over the given levels (the schedule's
/// `bpart + tpart`, `stride`).
pub fn index_text(gang: bool, worker: bool, vector: bool) -> String {
    let (tpart, tcount) = match (worker, vector) {
        (true, true) => ("threadIdx.y * blockDim.x + threadIdx.x", "blockDim.x * blockDim.y"),
        (true, false) => ("threadIdx.y", "blockDim.y"),
        (false, true) => ("threadIdx.x", "blockDim.x"),
        (false, false) => ("0", "1"),
    };
    let hw: Vec<&str> = [(gang, "blockIdx.x"), (worker, "threadIdx.y"), (vector, "threadIdx.x")].iter().filter(|l| l.0).map(|l| l.1).collect();
    let (start, stride) = if gang {
        if tcount == "1" {
            ("blockIdx.x".to_string(), "gridDim.x".to_string())
        } else {
            (format!("blockIdx.x * {tcount} + {tpart}"), format!("gridDim.x * {tcount}"))
        }
    } else {
        (tpart.to_string(), tcount.to_string())
    };
    format!("{}; trip = {start}, grid-stride by {stride}", hw.join(", "))
}

/// `+`, `max`... as a clause writes it.
pub fn red(op: RedOp, v: &proc_macro2::Ident) -> String {
    format!("reduction({}: {v})", op.symbol())
}

/// The levels as `threadIdx.x`... for a reduction combined over them.
pub fn over_text(worker: bool, vector: bool) -> String {
    match (worker, vector) {
        (true, true) => "the block's workers and vector lanes (threadIdx.y, threadIdx.x)".into(),
        (true, false) => "the block's workers (threadIdx.y)".into(),
        (false, true) => "the block's vector lanes (threadIdx.x)".into(),
        (false, false) => "nothing in the block (one thread per trip)".into(),
    }
}
