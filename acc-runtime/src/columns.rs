//! The user's columns of kernel panics located in the device crate's text.
//!
//! A panic located by `#[track_caller]` (`core::panic::Location`: a division by zero,
//! `panic!`, `assert!`, `unwrap`) names the file, line and column of the device crate's text,
//! which acc-build prints with every user token on its line, and on its column where the tokens
//! before it allow (`acc-build/src/print.rs`). A copy of a body the lowering repeats (a lean
//! kernel, unrolled rounds) and what follows inserted code stand further right, or on later
//! lines. acc-build writes each such token's printed and source places into the PTX file's
//! header as comment lines `// acc-build: columns FILE PL:PC:SL:SC:N ...` (runs of tokens moved
//! by one distance, `print::COLUMNS_LINE`); the device marks a
//! printed place (`acc_device::panic::COLUMN_PRINTED`), and the runtime names the user's line
//! and column from these. A place the panic gave itself (an index's, `ix`) is the user's
//! already.

use std::sync::Mutex;

/// The start of a header line of runs (acc-build `print::COLUMNS_LINE`).
const COLUMNS_LINE: &str = "// acc-build: columns ";

/// A run: printed columns `pc..=pc + n` of a line, from line `sl`, columns `sc..=sc + n`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Run {
    pc: u32,
    sl: u32,
    sc: u32,
    n: u32,
}

/// The packages' PTX texts seen at kernel loads; read only when a kernel panics.
static TEXTS: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// Keeps `ptx`, a package's PTX text, for [`source_place`] (once per text).
pub fn register(ptx: &'static str) {
    let mut texts = TEXTS.lock().unwrap_or_else(|e| e.into_inner());
    if !texts.iter().any(|t| std::ptr::eq(*t, ptx)) {
        texts.push(ptx);
    }
}

/// The runs of `file`'s printed line `line`, in the comment lines that start `ptx`.
fn runs(ptx: &str, file: &str, line: u32) -> Vec<Run> {
    let mut out = Vec::new();
    for l in ptx.lines().take_while(|l| l.starts_with("//")) {
        let Some(rest) = l.strip_prefix(COLUMNS_LINE).and_then(|r| r.strip_prefix(file)).and_then(|r| r.strip_prefix(' ')) else { continue };
        for w in rest.split(' ') {
            let v: Vec<Option<u32>> = w.split(':').map(|x| x.parse::<u32>().ok()).collect();
            if let [Some(pl), Some(pc), Some(sl), Some(sc), Some(n)] = v[..] {
                if pl == line {
                    out.push(Run { pc, sl, sc, n });
                }
            }
        }
    }
    out
}

/// The user's line and column of a panic at `file:line:column`, a place of the device crate's
/// text (`printed`) or the user's: the place itself where no run holds it, or where two runs
/// (of two PTX texts) disagree.
pub fn source_place(file: &str, line: u32, column: u32, printed: bool) -> (u32, u32) {
    if !printed {
        return (line, column);
    }
    let texts = TEXTS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let places: Vec<(u32, u32)> = texts
        .iter()
        .flat_map(|t| runs(t, file, line))
        .filter(|r| (r.pc..=r.pc + r.n).contains(&column))
        .map(|r| (r.sl, r.sc + (column - r.pc)))
        .collect();
    match places[..] {
        [one, ref rest @ ..] if rest.iter().all(|p| *p == one) => one,
        _ => (line, column),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printed_place_names_the_user_s() {
        static PTX: &str = "// acc-build: PTX modules\n// acc-build: columns tests/cols_a.rs 7:140:7:13:6 31:9:9:9:0\n// acc-build: columns tests/cols_a.rs.bak 7:150:7:1:0\n// 2 PTX modules follow\n// acc-build: module\n.version 7.0\n// acc-build: columns tests/cols_a.rs 8:1:8:2:0\n";
        register(PTX);
        // In a run: its first column, and one further in.
        assert_eq!(source_place("tests/cols_a.rs", 7, 140, true), (7, 13));
        assert_eq!(source_place("tests/cols_a.rs", 7, 146, true), (7, 19));
        // A copy on a later line (a lean kernel's).
        assert_eq!(source_place("tests/cols_a.rs", 31, 9, true), (9, 9));
        // Not printed: the user's already. Outside every run, another file's run, after the
        // header: as it is.
        assert_eq!(source_place("tests/cols_a.rs", 7, 140, false), (7, 140));
        assert_eq!(source_place("tests/cols_a.rs", 7, 147, true), (7, 147));
        assert_eq!(source_place("tests/cols_a.rs", 7, 150, true), (7, 150));
        assert_eq!(source_place("tests/cols_a.rs", 8, 1, true), (8, 1));
        // A second text that disagrees on a place leaves it as it is; one that agrees keeps it.
        static OTHER: &str = "// acc-build: columns tests/cols_a.rs 7:140:7:20:0 31:9:9:9:0\n.version 7.0\n";
        register(OTHER);
        register(OTHER);
        assert_eq!(source_place("tests/cols_a.rs", 7, 140, true), (7, 140));
        assert_eq!(source_place("tests/cols_a.rs", 7, 141, true), (7, 14));
        assert_eq!(source_place("tests/cols_a.rs", 31, 9, true), (9, 9));
        // A text is kept once.
        assert_eq!(TEXTS.lock().unwrap().iter().filter(|t| std::ptr::eq(**t, OTHER)).count(), 1);
    }

    #[test]
    fn malformed_runs_are_skipped() {
        let r = runs("// acc-build: columns f.rs 3:2:3:4 3:4:3:5:0 x:1:2:3:0 3:7:8:9:1:2 3:11:10:12:3 4:1:1:1:0\n", "f.rs", 3);
        let run = |pc, sl, sc, n| Run { pc, sl, sc, n };
        assert_eq!(r, vec![run(4, 3, 5, 0), run(11, 10, 12, 3)]);
    }
}
