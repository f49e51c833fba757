//! PTX rebuilt for what changed.
//!
//! A full build compiles the whole device crate into one PTX module (fat LTO with `core`):
//! its time grows with the number of kernels (45 s for acc's own 634 on 2 busy cores). After
//! an edit, most kernels are what they were, so only the changed ones are compiled:
//!
//! * Each kernel of the device crate (an item `#[no_mangle] .. extern "ptx-kernel" fn`, found
//!   by lexing the printed modules) gets a key: a hash of its text and where it starts
//!   (file, line, column: its panics name them), of everything in the crate that is not a
//!   kernel (the items kernels use, with the positions of their tokens), and of the build's
//!   configuration (toolchain, `sm`, profile, acc-device's sources, the crate's manifest and
//!   root).
//! * `acc-ptx-state` in `OUT_DIR` records the key of each kernel of the last build and the
//!   module that holds its PTX (`acc-ptx-modules/<n>.ptx`).
//! * The kernels whose key is not recorded are compiled alone: a second crate,
//!   `acc-device-delta/`, holds the same files with every other kernel blanked out (spaces,
//!   newlines kept, so every remaining token keeps its line and column). Its PTX becomes a new
//!   module; the old definitions of those kernels are cut from the older modules.
//! * `acc_kernels.ptx` is the modules written one after the other (the format of
//!   `acc_runtime::ptx_modules`), or the one module itself.
//!
//! A full build runs instead when there is no state, when more than a quarter of the kernels
//! changed, when the modules would exceed [`MAX_MODULES`], or when something other than
//! kernels changed (every key changes then). So a changed kernel always gets new PTX, and a
//! full build gives exactly what it gave before this cache existed.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};

use crate::nvptx::Fnv128;

/// The format of `acc-ptx-state` and of the keys (bump when either changes).
const FORMAT: &str = "acc-build incremental PTX 1";

/// At most this many modules in `acc_kernels.ptx`; one more makes a full build.
pub const MAX_MODULES: usize = 8;

/// The first line of a PTX file of several modules (`acc_runtime::ptx_modules::MODULES_HEADER`).
const MODULES_HEADER: &str = "// acc-build: PTX modules";

/// The line before each module (`acc_runtime::ptx_modules::MODULE_LINE`).
const MODULE_LINE: &str = "// acc-build: module";

/// A kernel item of a device-crate module: its name, the byte range of its text, and its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    pub name: String,
    /// Index of its module in the crate's module list.
    pub module: usize,
    pub range: Range<usize>,
    pub key: String,
}

/// The kernels of the device crate (`modules`: relative path and text of each module) and
/// their keys; `config` is the key of everything outside the modules.
pub fn kernels(modules: &[(String, String)], config: &str) -> Result<Vec<Kernel>, String> {
    let mut shared = Fnv128::new();
    shared.write_str(FORMAT);
    shared.write_str(config);
    let mut found = Vec::new();
    for (m, (rel, text)) in modules.iter().enumerate() {
        shared.write_str(rel);
        let (ks, tokens) = kernel_ranges(text).map_err(|e| format!("error: acc-build: cannot lex the device module {rel}: {e}"))?;
        for t in tokens {
            shared.write_str(&t);
        }
        for (name, range, start) in ks {
            found.push((m, name, range, start));
        }
    }
    let shared = shared.hex();
    Ok(found
        .into_iter()
        .map(|(module, name, range, (line, col))| {
            let mut h = Fnv128::new();
            h.write_str(&shared);
            h.write_str(&modules[module].0);
            h.write_str(&format!("{line}:{col}"));
            h.write_str(&modules[module].1[range.clone()]);
            Kernel { name, module, range, key: h.hex() }
        })
        .collect())
}

/// A token as it counts for the keys.
struct Tok {
    /// `Open`/`Close` of a delimiter, or a leaf token's text.
    text: String,
    /// Line and column (chars), 1- and 0-based.
    start: (usize, usize),
    end: (usize, usize),
    /// The index of the matching close, for an open delimiter.
    close: Option<usize>,
    is_close: bool,
}

/// The kernels of a module's text: name, byte range, start (line, column); and the tokens
/// outside them as they count for the key. Where a token stands matters only where it can
/// reach a panic's location in the PTX: in a fn's body (a routine, a method), or as the name
/// of a macro (`line!()`); those count with their position (except closing delimiters, where
/// no expression starts), the others by their text alone. So a kernel that grows by a line
/// moves the kernels after it in its file (their keys change: they report new lines), but not
/// the items around them (`mod`s, `use`s, consts, types).
#[allow(clippy::type_complexity)]
fn kernel_ranges(text: &str) -> Result<(Vec<(String, Range<usize>, (usize, usize))>, Vec<String>), String> {
    let ts: TokenStream = text.parse().map_err(|e| format!("{e:?}"))?;
    let mut toks = Vec::new();
    flatten(ts, &mut toks);
    let lines = LineIndex::new(text);
    let placed = placed_tokens(&toks);
    let mut kernels = Vec::new();
    let mut shared = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        if let Some((name, end)) = kernel_at(&toks, k) {
            let range = lines.offset(toks[k].start)..lines.offset(toks[end].end);
            kernels.push((name, range, toks[k].start));
            k = end + 1;
            continue;
        }
        let t = &toks[k];
        shared.push(if placed[k] && !t.is_close { format!("{}@{}:{}", t.text, t.start.0, t.start.1) } else { t.text.clone() });
        k += 1;
    }
    Ok((kernels, shared))
}

/// Which tokens count with their position: those in the body of a fn, and macro names.
fn placed_tokens(toks: &[Tok]) -> Vec<bool> {
    let mut placed = vec![false; toks.len()];
    for i in 0..toks.len() {
        let t = &toks[i];
        if t.is_close {
            continue;
        }
        if toks.get(i + 1).is_some_and(|n| n.text == "!" && !n.is_close) && t.text.chars().all(|c| c.is_alphanumeric() || c == '_') {
            placed[i] = true;
        }
        if t.text != "fn" {
            continue;
        }
        // The body: the first `{` at this depth before a `;` or the end of the group.
        let mut j = i + 1;
        while j < toks.len() && !toks[j].is_close && toks[j].text != ";" {
            match toks[j].close {
                Some(close) if toks[j].text == "{" => {
                    placed[j + 1..close].iter_mut().for_each(|p| *p = true);
                    break;
                }
                Some(close) => j = close + 1,
                None => j += 1,
            }
        }
    }
    placed
}

fn flatten(ts: TokenStream, out: &mut Vec<Tok>) {
    let pos = |s: proc_macro2::Span| {
        let (a, b) = (s.start(), s.end());
        ((a.line, a.column), (b.line, b.column))
    };
    for tt in ts {
        match tt {
            TokenTree::Group(g) => {
                let (d_open, d_close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                let (start, end) = pos(g.span_open());
                let open = out.len();
                out.push(Tok { text: d_open.into(), start, end, close: None, is_close: false });
                flatten(g.stream(), out);
                let (start, end) = pos(g.span_close());
                out[open].close = Some(out.len());
                out.push(Tok { text: d_close.into(), start, end, close: None, is_close: true });
            }
            TokenTree::Ident(i) => {
                let (start, end) = pos(i.span());
                out.push(Tok { text: i.to_string(), start, end, close: None, is_close: false });
            }
            TokenTree::Punct(p) => {
                let (start, end) = pos(p.span());
                out.push(Tok { text: p.as_char().to_string(), start, end, close: None, is_close: false });
            }
            TokenTree::Literal(l) => {
                let (start, end) = pos(l.span());
                out.push(Tok { text: l.to_string(), start, end, close: None, is_close: false });
            }
        }
    }
}

/// A kernel item starting at token `k` (`#[no_mangle]`, more attributes, `pub unsafe extern
/// "ptx-kernel" fn name(..) {..}`): its name and the index of its body's closing brace.
fn kernel_at(toks: &[Tok], k: usize) -> Option<(String, usize)> {
    let is = |i: usize, s: &str| toks.get(i).is_some_and(|t| t.text == s && !t.is_close);
    if !(is(k, "#") && is(k + 1, "[") && is(k + 2, "no_mangle") && toks[k + 1].close == Some(k + 3)) {
        return None;
    }
    let mut i = k;
    while is(i, "#") && is(i + 1, "[") {
        i = toks[i + 1].close? + 1;
    }
    let mut ptx_abi = false;
    while !is(i, "fn") {
        match toks.get(i)?.text.as_str() {
            "pub" | "unsafe" | "extern" => {}
            "\"ptx-kernel\"" => ptx_abi = true,
            _ => return None,
        }
        i += 1;
    }
    let name = toks.get(i + 1)?.text.clone();
    if !ptx_abi || !is(i + 2, "(") {
        return None;
    }
    let body = toks[i + 2].close? + 1;
    if !is(body, "{") {
        return None;
    }
    Some((name, toks[body].close?))
}

/// Byte offsets of (line, char column) positions in a text.
struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    fn offset(&self, (line, col): (usize, usize)) -> usize {
        let start = self.starts.get(line.saturating_sub(1)).copied().unwrap_or(self.text.len());
        let rest = &self.text[start..];
        rest.char_indices().nth(col).map_or(self.text.len(), |(i, _)| start + i)
    }
}

/// `text` with the given byte ranges blanked: each char a space, line breaks kept, so every
/// other token keeps its line and column.
pub fn blank(text: &str, ranges: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut ranges: Vec<&Range<usize>> = ranges.iter().collect();
    ranges.sort_by_key(|r| r.start);
    for r in ranges {
        out.push_str(&text[at..r.start]);
        out.extend(text[r.clone()].chars().map(|c| if c == '\n' || c == '\r' { c } else { ' ' }));
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The key of what the kernels' keys do not hold: the build's settings, the device crate's
/// manifest, lock file and root, and acc-device's sources.
pub fn config_key(crate_dir: &Path, acc_device: &Path, rustc_version: &str, sm: &str) -> String {
    let mut h = Fnv128::new();
    h.write_str(FORMAT);
    h.write_str(rustc_version);
    h.write_str(sm);
    h.write_str(&crate::nvptx::settings());
    for f in ["Cargo.toml", "Cargo.lock", "kernels.rs"] {
        h.write_str(f);
        h.write_str(&std::fs::read_to_string(crate_dir.join(f)).unwrap_or_default());
    }
    let mut files = Vec::new();
    walk(&acc_device.join("src"), &mut files);
    files.push(acc_device.join("Cargo.toml"));
    files.sort();
    for f in files {
        h.write_str(&f.strip_prefix(acc_device).unwrap_or(&f).to_string_lossy());
        h.write(&std::fs::read(&f).unwrap_or_default());
    }
    h.hex()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for p in entries.flatten().map(|e| e.path()) {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// What the last build left: the PTX modules (file names under `acc-ptx-modules/`) and, for
/// each kernel, its key and module.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct State {
    pub modules: Vec<String>,
    pub kernels: BTreeMap<String, (String, usize)>,
}

impl State {
    pub fn parse(text: &str) -> Option<State> {
        let mut lines = text.lines();
        if lines.next()? != FORMAT {
            return None;
        }
        let mut s = State::default();
        for line in lines {
            let mut w = line.split(' ');
            match (w.next()?, w.next(), w.next(), w.next()) {
                ("module", Some(file), None, None) => s.modules.push(file.to_string()),
                ("kernel", Some(name), Some(key), Some(m)) => {
                    let m: usize = m.parse().ok()?;
                    if m >= s.modules.len() {
                        return None;
                    }
                    s.kernels.insert(name.to_string(), (key.to_string(), m));
                }
                _ => return None,
            }
        }
        Some(s)
    }

    pub fn text(&self) -> String {
        let mut t = format!("{FORMAT}\n");
        for m in &self.modules {
            t.push_str(&format!("module {m}\n"));
        }
        for (name, (key, m)) in &self.kernels {
            t.push_str(&format!("kernel {name} {key} {m}\n"));
        }
        t
    }
}

/// What to compile: everything, or the kernels named (a delta).
#[derive(Debug, PartialEq, Eq)]
pub enum Plan {
    /// Nothing changed.
    Nothing,
    Full,
    /// The kernels (by index) whose keys are new; the names of the kernels to cut from the
    /// older modules (the changed ones and the ones that are gone).
    Delta { build: Vec<usize>, cut: BTreeSet<String> },
}

/// Decides what to compile, given the last build's state (`None`: no usable state).
pub fn plan(kernels: &[Kernel], state: Option<&State>) -> Plan {
    let Some(state) = state else { return Plan::Full };
    let build: Vec<usize> = (0..kernels.len())
        .filter(|&i| state.kernels.get(&kernels[i].name).is_none_or(|(key, _)| *key != kernels[i].key))
        .collect();
    let mut cut: BTreeSet<String> = build.iter().map(|&i| kernels[i].name.clone()).filter(|n| state.kernels.contains_key(n)).collect();
    let names: BTreeSet<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
    cut.extend(state.kernels.keys().filter(|n| !names.contains(n.as_str())).cloned());
    if build.is_empty() && cut.is_empty() {
        return Plan::Nothing;
    }
    if build.len() * 4 > kernels.len() || state.modules.len() + usize::from(!build.is_empty()) > MAX_MODULES {
        return Plan::Full;
    }
    Plan::Delta { build, cut }
}

/// `ptx` without the definition of kernel `name` (its `// .globl` line, `.entry name(` up to
/// the closing brace at the start of a line); `None` when it has none.
pub fn cut_entry(ptx: &str, name: &str) -> Option<String> {
    let head = format!(".entry {name}(");
    let at = ptx.find(&head)?;
    let mut start = ptx[..at].rfind('\n').map_or(0, |i| i + 1);
    // The `// .globl name` comment line just before.
    let prev = ptx[..start.saturating_sub(1)].rfind('\n').map_or(0, |i| i + 1);
    let mut words = ptx[prev..start].split_whitespace();
    if (words.next(), words.next(), words.next(), words.next()) == (Some("//"), Some(".globl"), Some(name), None) {
        start = prev;
    }
    let end = ptx[at..].find("\n}\n").map(|e| at + e + 3)?;
    Some(format!("{}{}", &ptx[..start], &ptx[end..]))
}

/// The PTX file of the given modules: the module itself when there is one.
pub fn assemble(modules: &[String]) -> String {
    if let [one] = modules {
        return one.clone();
    }
    let mut t = format!(
        "{MODULES_HEADER}\n// {} PTX modules follow, each after a line `{MODULE_LINE}`: acc-build compiled the kernels \
         that changed since a full build into modules of their own. Each kernel is defined in one module.\n",
        modules.len()
    );
    for m in modules {
        t.push_str(MODULE_LINE);
        t.push('\n');
        t.push_str(m);
        if !m.ends_with('\n') {
            t.push('\n');
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "use ::acc_device::prelude::*;\nconst K: f32 = 2.0;\n#[no_mangle]\n#[allow(unused)] pub unsafe extern \"ptx-kernel\" fn k_a(x: *mut f32) {\n    *x = K;\n} #[no_mangle] pub unsafe extern \"ptx-kernel\" fn k_b(x: *mut f32) { *x = 1.0; }\n\n#[no_mangle] pub fn not_a_kernel() {}\npub mod __acc_in_t { use super::*;\n#[no_mangle] pub unsafe extern \"ptx-kernel\" fn k_c() {}\n}\n";

    fn modules(text: &str) -> Vec<(String, String)> {
        vec![("src/lib.rs".to_string(), text.to_string())]
    }

    #[test]
    fn kernels_are_found_with_their_text() {
        let ks = kernels(&modules(MODULE), "c").unwrap();
        let names: Vec<&str> = ks.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["k_a", "k_b", "k_c"]);
        assert!(MODULE[ks[0].range.clone()].starts_with("#[no_mangle]\n#[allow(unused)] pub unsafe"));
        assert!(MODULE[ks[0].range.clone()].ends_with("*x = K;\n}"));
        assert_eq!(&MODULE[ks[1].range.clone()], "#[no_mangle] pub unsafe extern \"ptx-kernel\" fn k_b(x: *mut f32) { *x = 1.0; }");
        assert_eq!(&MODULE[ks[2].range.clone()], "#[no_mangle] pub unsafe extern \"ptx-kernel\" fn k_c() {}");
    }

    fn keys(text: &str) -> Vec<String> {
        kernels(&modules(text), "c").unwrap().into_iter().map(|k| k.key).collect()
    }

    #[test]
    fn a_changed_kernel_and_only_it_gets_a_new_key() {
        let base = keys(MODULE);
        let edited = keys(&MODULE.replace("*x = 1.0;", "*x = 3.0;"));
        assert_eq!((base[0] == edited[0], base[1] == edited[1], base[2] == edited[2]), (true, false, true));
        // What a kernel uses changes every key.
        let k = keys(&MODULE.replace("K: f32 = 2.0", "K: f32 = 4.0"));
        assert!(k.iter().zip(&base).all(|(a, b)| a != b));
        // So does the build's configuration.
        let c: Vec<String> = kernels(&modules(MODULE), "other").unwrap().into_iter().map(|k| k.key).collect();
        assert!(c.iter().zip(&base).all(|(a, b)| a != b));
    }

    #[test]
    fn a_kernel_that_moves_gets_a_new_key() {
        let base = keys(MODULE);
        // A line more in `k_a`: `k_b` (same line as `k_a`'s end) and `k_c` move down; `k_a`
        // changed. The other tokens that moved (`not_a_kernel`'s, the module's) carry no
        // position that a kernel's panic could report.
        let longer = keys(&MODULE.replace("*x = K;\n", "*x = K;\n\n"));
        assert!(longer.iter().zip(&base).all(|(a, b)| a != b));
        // A routine that moves down changes every key (its panics report new lines), and so
        // does a macro whose value is its line.
        let routine = "use ::acc_device::prelude::*;\npub fn r(x: usize) -> usize {\n    x / 2\n}\n";
        let r_keys = |t: &str| keys(&format!("{t}{MODULE}"));
        let moved = r_keys(&routine.replace("pub fn", "\npub fn"));
        assert!(moved.iter().zip(&r_keys(routine)).all(|(a, b)| a != b));
        let line = |pad: &str| keys(&format!("const L: u32 = {pad}line!();\n{MODULE}"));
        assert!(line("").iter().zip(&line(" ")).all(|(a, b)| a != b));
        // A type or a `use` that moves does not.
        let ty = |pad: &str| keys(&format!("pub {pad}struct S {{ x: f32 }}\n{pad}use core::f32;\n{MODULE}"));
        assert_eq!(ty(""), ty("  "));
        // A column further right.
        let right = keys(&MODULE.replace("} #[no_mangle] pub unsafe extern \"ptx-kernel\" fn k_b", "}  #[no_mangle] pub unsafe extern \"ptx-kernel\" fn k_b"));
        assert_eq!((right[0] == base[0], right[1] == base[1], right[2] == base[2]), (true, false, true));
        // The kernels after a kernel that grew in another file keep their keys.
        let two = |a: &str| {
            let m = vec![("src/a.rs".to_string(), a.to_string()), ("src/b.rs".to_string(), MODULE.to_string())];
            kernels(&m, "c").unwrap().into_iter().map(|k| k.key).collect::<Vec<_>>()
        };
        let (x, y) = (two(MODULE), two(&MODULE.replace("*x = K;\n", "*x = K;\n\n")));
        assert_eq!(&x[3..], &y[3..]);
        assert_ne!(x[0], y[0]);
    }

    #[test]
    fn blanking_keeps_every_other_token_in_place() {
        let ks = kernels(&modules(MODULE), "c").unwrap();
        let b = blank(MODULE, &[ks[0].range.clone(), ks[2].range.clone()]);
        assert_eq!(b.len(), MODULE.len());
        assert_eq!(b.lines().count(), MODULE.lines().count());
        let left = kernels(&modules(&b), "c").unwrap();
        assert_eq!(left.len(), 1);
        assert_eq!((left[0].name.as_str(), &left[0].range), ("k_b", &ks[1].range));
        assert!(b.contains("const K: f32 = 2.0;"));
    }

    fn kernel(name: &str, key: &str) -> Kernel {
        Kernel { name: name.into(), module: 0, range: 0..0, key: key.into() }
    }

    fn state(ks: &[(&str, &str, usize)], modules: usize) -> State {
        State {
            modules: (0..modules).map(|m| format!("{m}.ptx")).collect(),
            kernels: ks.iter().map(|&(n, k, m)| (n.to_string(), (k.to_string(), m))).collect(),
        }
    }

    #[test]
    fn the_plan_builds_what_changed() {
        let now: Vec<Kernel> = (0..8).map(|i| kernel(&format!("k{i}"), &format!("key{i}"))).collect();
        let same: Vec<(String, String, usize)> = (0..8).map(|i| (format!("k{i}"), format!("key{i}"), 0)).collect();
        let same: Vec<(&str, &str, usize)> = same.iter().map(|(a, b, m)| (a.as_str(), b.as_str(), *m)).collect();
        assert_eq!(plan(&now, None), Plan::Full);
        assert_eq!(plan(&now, Some(&state(&same, 1))), Plan::Nothing);
        // One changed key: that kernel alone, its old definition cut.
        let mut one = state(&same, 1);
        one.kernels.insert("k3".into(), ("old".into(), 0));
        assert_eq!(plan(&now, Some(&one)), Plan::Delta { build: vec![3], cut: ["k3".to_string()].into() });
        // A new kernel; a kernel gone.
        let mut gone = state(&same[..7], 1);
        gone.kernels.insert("k9".into(), ("key9".into(), 0));
        assert_eq!(plan(&now, Some(&gone)), Plan::Delta { build: vec![7], cut: ["k9".to_string()].into() });
        // Only a kernel gone: a delta of nothing but cuts.
        let only_gone: Vec<Kernel> = now[..7].to_vec();
        assert_eq!(plan(&only_gone, Some(&state(&same, 1))), Plan::Delta { build: vec![], cut: ["k7".to_string()].into() });
        // More than a quarter changed, or too many modules: everything.
        let mut three = state(&same, 1);
        for k in ["k1", "k2", "k3"] {
            three.kernels.insert(k.into(), ("old".into(), 0));
        }
        assert_eq!(plan(&now, Some(&three)), Plan::Full);
        let mut full = state(&same, MAX_MODULES);
        full.kernels.insert("k3".into(), ("old".into(), 0));
        assert_eq!(plan(&now, Some(&full)), Plan::Full);
    }

    #[test]
    fn state_round_trips() {
        let s = state(&[("k0", "a", 0), ("k1", "b", 1)], 2);
        assert_eq!(State::parse(&s.text()), Some(s));
        assert_eq!(State::parse("something else\n"), None);
        assert_eq!(State::parse(&format!("{FORMAT}\nkernel k x 0\n")), None, "a kernel of no module");
    }

    const PTX: &str = "//\n.version 8.7\n.target sm_80\n.address_size 64\n\n\t// .globl\tk1\n.visible .entry k1(\n\t.param .u64 k1_param_0\n)\n{\n\t{ // callseq 0\n\t}\n\tret;\n\n}\n\t// .globl\tk2\n.visible .entry k2(\n)\n{\n\tret;\n\n}\n";

    #[test]
    fn cutting_an_entry_leaves_the_others() {
        let cut = cut_entry(PTX, "k1").unwrap();
        assert!(!cut.contains("k1"), "{cut}");
        assert!(cut.contains("\t// .globl\tk2\n.visible .entry k2(\n)\n{\n\tret;\n\n}\n"), "{cut}");
        assert!(cut.starts_with("//\n.version 8.7\n.target sm_80\n.address_size 64\n\n\t// .globl\tk2"), "{cut}");
        let both = cut_entry(&cut, "k2").unwrap();
        assert!(!both.contains(".entry"), "{both}");
        assert_eq!(cut_entry(PTX, "k3"), None);
    }

    #[test]
    fn one_module_is_the_file_itself() {
        assert_eq!(assemble(&[PTX.to_string()]), PTX);
        let two = assemble(&[PTX.to_string(), "//\n.version 8.7\n".to_string()]);
        assert!(two.starts_with(&format!("{MODULES_HEADER}\n")));
        assert_eq!(two.matches(&format!("\n{MODULE_LINE}\n")).count(), 2);
    }
}
