//! The schedule's part of the report: what `lower/schedule` decided for each loop and
//! statement of a nest, as typed entries ([`SchedNote`]), and their text ([`render`]). The
//! lowering records the decisions; only this module words them.

use proc_macro2::Ident;

use super::{index_text, level_names, over_text, red, Note, Notes};
use crate::front::model::RedOp;

/// Which levels a loop spreads over, as the report names them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelSet {
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
}

/// One entry of a nest's schedule report: the user's line, its depth, what was decided.
#[derive(Clone, Debug)]
pub struct SchedNote {
    pub line: usize,
    pub depth: usize,
    pub what: Sched,
}

/// The group of threads that runs a body redundantly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Gang,
    Worker,
    Thread,
}

impl Group {
    fn name(self) -> &'static str {
        match self {
            Group::Gang => "gang",
            Group::Worker => "worker",
            Group::Thread => "thread",
        }
    }
}

/// Who runs a body's statements that write memory: the levels whose first thread leads
/// (`threadIdx.x == 0`: the vector lanes; `threadIdx.y == 0`: the workers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leader {
    pub x: bool,
    pub y: bool,
}

impl Leader {
    fn text(self) -> &'static str {
        match (self.x, self.y) {
            (true, true) => "threadIdx.x == 0 && threadIdx.y == 0",
            (true, false) => "threadIdx.x == 0",
            (false, true) => "threadIdx.y == 0",
            (false, false) => "every thread",
        }
    }
}

/// Why a loop of a one-thread body runs in order.
#[derive(Clone, Debug)]
pub enum InOrder {
    Seq,
    /// Not proved independent: the dependence's message and line.
    Dependent(String, usize),
    LevelsTaken,
    NoLevel,
    /// A loop of a `kernels` region with no `acc::loop` on it.
    NoDirective,
}

/// How a statement that writes memory hands the group back.
#[derive(Clone, Debug)]
pub enum Then {
    /// A broadcast of these locals (the user's, and whether a `continue` flag is among them).
    Broadcast(Vec<Ident>, bool),
    Barrier,
    /// The trip's last statement.
    Nothing,
}

/// What one entry says.
#[derive(Clone, Debug)]
pub enum Sched {
    Loop(LoopReport),
    Reduction(RedReport),
    /// A loop of a body one thread runs (`var` as written).
    InOrder { var: String, why: InOrder },
    /// A `continue` made a flag the whole group tests.
    ContinueFlag(Group),
    /// A local of the group in shared memory.
    GroupLocal { name: Ident, group: Group, leader: Leader },
    /// A local every thread of the group computes.
    Local { name: Ident, group: Group },
    /// A barrier after a parallel loop that writes memory (its line).
    BarrierAfterLoop { line: usize, group: Group },
    /// A sequential loop around parallel loops.
    SequentialAround(Group),
    /// An `if` around parallel loops in a gang's body.
    GangIf,
    BarrierAfterIf,
    /// A statement that writes memory: run by the group's leader (`None`: by each group on its
    /// own trip), then `then`.
    Leader { group: Group, leader: Option<Leader>, then: Then },
}

/// A `cache!` window a loop stages: `array[var + lo ..= var + hi]`, `span` elements beyond
/// `blockDim.x`.
#[derive(Clone, Debug)]
pub struct WindowReport {
    pub array: Ident,
    pub var: Ident,
    pub lo: i64,
    pub hi: i64,
    pub span: usize,
}

/// The worker rounds of a loop that may run a worker per warp (`schedule::rounds`).
#[derive(Clone, Debug)]
pub enum RoundsReport {
    /// Counted rounds of these sizes, each index affine in `var`.
    Counted { sizes: Vec<usize>, arrays: Vec<Ident>, var: Ident },
    /// Rounds of 4, then 2, each checking its own trips.
    Checked { arrays: Vec<Ident> },
}

/// How a loop's trips are run, where the report says so.
#[derive(Clone, Debug, Default)]
pub enum FormReport {
    #[default]
    Plain,
    /// `cache!` windows staged in shared memory.
    Windows(Vec<WindowReport>),
    /// 1-D windows of the tile loops inside: each array and its elements.
    Tiles1(Vec<(Ident, usize)>),
    /// A uniform loop run in worker rounds first.
    Rounds(RoundsReport),
    /// A reduction loop's chunks of 16 bytes in the nest's kernel (the arrays), with the
    /// lean kernel's unrolled rounds.
    ReductionChunks(Vec<Ident>),
    /// A gang per warp where the loop has the trips.
    GangPerWarp,
    /// A streaming loop's chunks of 16 bytes (the arrays); `lean`: the nest has a lean kernel
    /// without them.
    Chunks { arrays: Vec<Ident>, lean: bool },
}

/// A loop's schedule as the report tells it.
#[derive(Clone, Debug, Default)]
pub struct LoopReport {
    /// The loop's variables (a `collapse`d nest: each).
    pub vars: Vec<Ident>,
    /// The levels its directive names, and those it got.
    pub written: LevelSet,
    pub got: LevelSet,
    /// Why it got other levels than written: the outermost loop of a nest always spreads over
    /// the gangs; the innermost took the free levels; a level taken already is not spread again.
    pub top_gang: bool,
    pub took_free: bool,
    pub not_again: bool,
    pub collapse: Option<usize>,
    /// `tile(..)`'s sizes as written.
    pub tile: Option<Vec<String>>,
    pub uniform: bool,
    /// 1-D windows not staged: the line and why.
    pub not_staged: Vec<(usize, String)>,
    /// Unrolled in rounds of this many trips, each trip on copies of its own where the
    /// `bool`.
    pub unrolled: Option<(usize, bool)>,
    /// For a loop holding parallel loops, whether a barrier ends each trip.
    pub barrier: Option<bool>,
    /// A worker per warp where the loop has a trip for every warp.
    pub worker_per_warp: bool,
    /// The worker loop alone in a top gang loop: its trips over the grid's `y` blocks too.
    pub worker_blocks: bool,
    pub form: FormReport,
}

/// Where a reduction of a loop is combined.
#[derive(Clone, Debug)]
pub struct RedReport {
    pub op: RedOp,
    pub var: Ident,
    /// The clause is a loop's around it (this loop updates the variable).
    pub inherited: bool,
    pub combine: Combine,
}

/// Where a reduction's private copies meet.
#[derive(Clone, Debug)]
pub enum Combine {
    /// At the loop's end over these levels (`(workers, vector lanes)`), then with the value
    /// before the loop.
    Here(bool, bool),
    /// Once at the nest's end over these levels.
    AtNestEnd(bool, bool),
    /// At the end of the loop around it.
    Outer,
}

fn loop_text(r: &LoopReport) -> String {
    let vars: Vec<String> = r.vars.iter().map(|v| format!("`{v}`")).collect();
    let written = level_names(r.written.gang, r.written.worker, r.written.vector);
    let got = level_names(r.got.gang, r.got.worker, r.got.vector);
    let mut text = if got.is_empty() {
        format!("loop {}: {} -> runs in order in each thread (its levels are taken by the loops around it)", vars.join(", "), if written.is_empty() { "auto".to_string() } else { written.clone() })
    } else {
        format!("loop {}: {got} -> {}", vars.join(", "), index_text(r.got.gang, r.got.worker, r.got.vector))
    };
    if !got.is_empty() && got != written {
        let mut why = Vec::new();
        if r.top_gang {
            why.push("the outermost loop of a nest always spreads over the gangs");
        }
        if r.took_free {
            why.push("the innermost parallel loop takes every level its enclosing loops left free");
        }
        if r.not_again {
            why.push("a level the loops around it spread already is not spread again");
        }
        text.push_str(&format!(" (written: {}; {})", if written.is_empty() { "no level" } else { &written }, why.join("; ")));
    }
    if let Some(n) = r.collapse {
        text.push_str(&format!("; collapse({n}): the {n} loops as one index space of trips multiplied, split back into {}", vars.join(", ")));
    }
    if let Some(sizes) = &r.tile {
        text.push_str(&format!("; tile({}): the {} loops as one index space, like collapse (the tile sizes do not shape the schedule yet)", sizes.join(", "), sizes.len()));
    }
    if r.uniform {
        text.push_str("; uniform: every thread of a block takes the same trips (the parallel loops inside meet at barriers)");
    }
    for (line, why) in &r.not_staged {
        text.push_str(&format!("; at line {line}, {why}"));
    }
    if let Some((n, split)) = r.unrolled {
        let how = if split { "each trip on a copy of the reduced values of its own, combined after the round" } else { "the trips in order" };
        text.push_str(&format!("; unrolled in rounds of {n} trips (values of 4 bytes or less; else 4), then of 4, {how} (a reduction's loads in flight together)"));
    }
    if let Some(barrier) = r.barrier {
        text.push_str(match (r.uniform, barrier) {
            (true, true) => ", a barrier ends each trip",
            (false, true) => "; a barrier ends each trip (the block's shared memory is reused by the next)",
            (true, false) => ", no barrier ends a trip (its body uses no shared memory)",
            (false, false) => "; no barrier ends a trip (its body uses no shared memory)",
        });
    }
    if r.worker_blocks {
        text.push_str("; the whole body of the gang loop: its trips go over blocks in y too, which the launch adds where the gangs' blocks are fewer than the GPU holds at once");
    }
    if r.worker_per_warp {
        text.push_str("; a worker per warp where the loop has a trip for every warp of the block (each warp runs trips of its own, the vector loops inside on its 32 lanes), else the block's workers");
    }
    text.push_str(&form_text(&r.form));
    text
}

/// `a`, `b` as the report names arrays.
fn names(arrays: &[Ident]) -> String {
    arrays.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
}

fn form_text(f: &FormReport) -> String {
    match f {
        FormReport::Plain => String::new(),
        FormReport::Windows(ws) => {
            let shown: Vec<String> = ws
                .iter()
                .map(|w| {
                    let var = &w.var;
                    let show = |c: i64| match c {
                        0 => format!("{var}"),
                        c if c < 0 => format!("{var} - {}", -c),
                        c => format!("{var} + {c}"),
                    };
                    format!("{}[{}..={}] ({} + 4 x blockDim.x elements)", w.array, show(w.lo), show(w.hi), w.span)
                })
                .collect();
            format!(
                "; cache!: {} staged in shared memory, shared by the block's threads: a trip of the block takes 4 points a thread, a block apart (2 or 1 where the windows of 4 would pass 32 KiB), and fetches its windows in parallel (clamped to the arrays; a window of at most 5 x blockDim.x elements loaded into registers a trip ahead), a barrier, then the trip's points read them there with no range check (references proved inside at compile time) and, where a point's windows lie inside their arrays, no check against the array's length either, a barrier ends the trip",
                shown.join(", ")
            )
        }
        FormReport::Tiles1(ws) => {
            let shown: Vec<String> = ws.iter().map(|(a, width)| format!("{a}[{width} elements]")).collect();
            format!(
                "; cache!: {} staged in shared memory at the top of the loops inside, shared by the block's threads: each of their trips the whole block fetches them in parallel (clamped to the arrays), a barrier, then the trip reads them there with no range check (references proved inside at compile time), a barrier ends the trip; this loop runs in trips of the whole block, threads past its end fetching and meeting the barriers",
                shown.join(", ")
            )
        }
        FormReport::Rounds(RoundsReport::Counted { sizes, arrays, var }) => {
            let shown: Vec<String> = sizes.iter().map(|r| r.to_string()).collect();
            format!(
                "; in rounds of {} trips a thread (rounds of more than 4 where every array's elements are 4 bytes or less) where each trip's vector loop has at most one trip a lane: the round's loads ({}) issued before its trips run, each index checked once for all of the thread's trips (it is affine in `{}`)",
                shown.join(", then "),
                names(arrays),
                var
            )
        }
        FormReport::Rounds(RoundsReport::Checked { arrays }) => {
            format!("; in rounds of 4, then 2 trips a thread where each trip's vector loop has at most one trip a lane: the round's loads ({}) issued before its trips run", names(arrays))
        }
        FormReport::ReductionChunks(arrays) => format!(
            "; in the nest's kernel, chunks of 16 bytes instead (4 trips a thread, 2 where an array has 8-byte elements) in rounds of 12, 4, 2, then 1 chunks, the chunks inside the arrays counted once before the rounds: {} moved a chunk an access where it is aligned and inside the array, the other trips one at a time{}",
            names(arrays),
            "; the nest also has a lean kernel with the unrolled rounds, launched instead where the launch has more blocks than the GPU has multiprocessors"
        ),
        FormReport::GangPerWarp => "; a gang per warp where the loop has at least as many trips as the grid has warps (each warp runs trips of its own, the loops inside on its 32 lanes: its trips meet no barrier), else a gang per block".to_string(),
        FormReport::Chunks { arrays, lean } => {
            let mut text = format!(
                "; chunks of 16 bytes (4 trips a thread, 2 where an array has 8-byte elements): {} moved a chunk an access where it is aligned and inside the array, the other trips one at a time",
                names(arrays)
            );
            if *lean {
                text.push_str("; the nest also has a lean kernel, this loop without chunks (fewer registers), launched instead where the nest's kernel holds one block a multiprocessor, the lean one two or more, and the launch has the blocks for them, or where the gang loop gives every warp the GPU holds trips of its own");
            }
            text
        }
    }
}

fn red_text(r: &RedReport) -> String {
    let clause = if r.inherited { " (the clause of a loop around it: this loop updates it)" } else { "" };
    let red = red(r.op, &r.var);
    match r.combine {
        Combine::AtNestEnd(w, x) => format!("{red}{clause}: a private copy per thread from the operator's identity; combined once at the nest's end over {}", over_text(w, x)),
        Combine::Outer => format!("{red}{clause}: each thread keeps its partial value; combined once at the end of the loop around it"),
        Combine::Here(w, x) => format!(
            "{red}{clause}: a private copy per thread from the operator's identity; combined at the loop's end over {}{}, then with `{}`'s value before the loop",
            over_text(w, x),
            if x || w { " (shuffles and shared memory)" } else { "" },
            r.var
        ),
    }
}

fn then_text(then: &Then, group: Group) -> String {
    match then {
        Then::Broadcast(names, flag) => {
            let names: Vec<String> = names.iter().map(|v| format!("`{v}`")).chain(flag.then(|| "its `continue` flag".to_string())).collect();
            format!("then a broadcast of {} to the {}'s threads (a barrier)", names.join(", "), group.name())
        }
        Then::Barrier => "then a barrier".to_string(),
        Then::Nothing => "no barrier after it (the trip's last statement)".to_string(),
    }
}

/// The text of one entry.
pub fn text(what: &Sched) -> String {
    match what {
        Sched::Loop(r) => loop_text(r),
        Sched::Reduction(r) => red_text(r),
        Sched::InOrder { var, why } => {
            let why = match why {
                InOrder::Seq => "it says `seq`".to_string(),
                InOrder::Dependent(msg, line) => format!("not proved independent: {msg} (line {line})"),
                InOrder::LevelsTaken => "its levels are taken by the loops around it".to_string(),
                InOrder::NoLevel => "it names no level".to_string(),
                InOrder::NoDirective => "no `acc::loop` on it: an inner loop of a parallel loop".to_string(),
            };
            format!("loop over `{var}` runs in order in each thread ({why})")
        }
        Sched::ContinueFlag(g) => format!("`continue` here sets a flag: the rest of the trip is skipped by the whole {}'s threads together", g.name()),
        Sched::GroupLocal { name, group, leader } => format!("`{name}` is the {}'s: one copy in shared memory (parallel loops inside write it), first value computed by {}", group.name(), leader.text()),
        Sched::Local { name, group } => format!("`let {name}`: computed by every thread of the {} (each keeps an equal copy)", group.name()),
        Sched::BarrierAfterLoop { line, group } => format!("barrier after the loop at line {line} (it writes memory the {}'s next statements may read)", group.name()),
        Sched::SequentialAround(g) => format!("sequential `for` around parallel loops: every thread of the {} takes its trips; a barrier ends each trip", g.name()),
        Sched::GangIf => "`if` around parallel loops: the whole gang takes one branch (its condition has one value in the block)".to_string(),
        Sched::BarrierAfterIf => "barrier after the `if` (it writes memory)".to_string(),
        Sched::Leader { group, leader: Some(l), then } => format!("statement writes memory: run by the {}'s leader ({}), {}", group.name(), l.text(), then_text(then, *group)),
        Sched::Leader { group, leader: None, then } => format!("statement writes memory: run by each {} on its own trip, {}", group.name(), then_text(then, *group)),
    }
}

/// The report's notes of a nest's schedule.
pub fn render(entries: &[SchedNote]) -> Notes {
    Notes(entries.iter().map(|e| Note { line: e.line, depth: e.depth, text: text(&e.what) }).collect())
}
