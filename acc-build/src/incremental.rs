//! PTX rebuilt for what changed.
//!
//! A full build compiles the whole device crate into one PTX module (fat LTO with `core`):
//! its time grows with the number of kernels (45 s for acc's own 634 on 2 busy cores). After
//! an edit, most kernels are what they were, so only the changed ones are compiled:
//!
//! * Each kernel of the device crate (an item `#[no_mangle] .. extern "ptx-kernel" fn`, found
//!   in the printed modules) gets a key: a hash of its text and where it starts
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

use crate::nvptx::Fnv128;

/// The format of `acc-ptx-state` and of the keys (bump when either changes).
pub(crate) const FORMAT: &str = "acc-build incremental PTX 1";

/// At most this many modules in `acc_kernels.ptx`; one more makes a full build.
pub const MAX_MODULES: usize = 8;

/// The first line of a PTX file of several modules (`acc_runtime::ptx_modules::MODULES_HEADER`).
pub(crate) const MODULES_HEADER: &str = "// acc-build: PTX modules";

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
        let toks = lex(text).map_err(|e| format!("error: acc-build: cannot lex the device module {rel}: {e}"))?;
        for (name, range, start) in split(text, &toks, &mut shared) {
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
            h.write(&(line as u64).to_le_bytes());
            h.write(&(col as u64).to_le_bytes());
            h.write_str(&modules[module].1[range.clone()]);
            Kernel { name, module, range, key: h.hex() }
        })
        .collect())
}

/// A token of a printed module, as far as the keys need one: groups' delimiters are matched,
/// literals, comments and lifetimes are told apart from what they contain; operators stay
/// single characters.
#[derive(Debug)]
struct Tok {
    /// Byte range in the text.
    span: Range<usize>,
    /// Line (1-based) and column (0-based, in chars) of its start.
    at: (usize, usize),
    kind: TokKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokKind {
    Word,
    Literal,
    Punct,
    /// An opening delimiter and the index of its closing one.
    Open(usize),
    Close,
}

/// Lexes `text` (what the printer wrote: Rust tokens) into [`Tok`]s. By hand rather than with
/// `proc_macro2`: build scripts run unoptimised, and a span's line and column cost a search
/// there, for every token of megabytes of kernels.
fn lex(text: &str) -> Result<Vec<Tok>, String> {
    let b = text.as_bytes();
    let mut toks: Vec<Tok> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    // The column (in chars) of the last token's start, to count each char once.
    let (mut last, mut last_col) = (0usize, 0usize);
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = match c {
            b'\n' => {
                i += 1;
                line += 1;
                line_start = i;
                continue;
            }
            c if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if b[i] == b'\n' {
                            line += 1;
                            line_start = i + 1;
                        }
                        i += 1;
                    }
                }
                continue;
            }
            b'"' => {
                i = string_end(b, i + 1, 0).ok_or("an unterminated string")?;
                TokKind::Literal
            }
            b'\'' => {
                // A char literal (`'x'`, `'\n'`), or a lifetime / label (`'a`).
                let next = text[i + 1..].chars().next().ok_or("a lone `'`")?;
                let after = i + 1 + next.len_utf8();
                if next == '\\' || b.get(after) == Some(&b'\'') {
                    i = if next == '\\' { after + 1 } else { after };
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                    TokKind::Literal
                } else {
                    i = word_end(text, i + 1);
                    TokKind::Word
                }
            }
            c if c.is_ascii_digit() => {
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
                    i += 1;
                }
                TokKind::Literal
            }
            b'(' | b'[' | b'{' => {
                open.push(toks.len());
                i += 1;
                TokKind::Open(usize::MAX)
            }
            b')' | b']' | b'}' => {
                let o = open.pop().ok_or("an unmatched closing delimiter")?;
                toks[o].kind = TokKind::Open(toks.len());
                i += 1;
                TokKind::Close
            }
            c if c.is_ascii_punctuation() && c != b'_' => {
                i += 1;
                TokKind::Punct
            }
            _ => {
                // A word; or a prefixed string: b"..", r"..", r#".."#, br"..", c"..".
                let end = word_end(text, i);
                let prefix = &text[i..end];
                let hashes = b[end..].iter().take_while(|&&h| h == b'#').count();
                if matches!(prefix, "b" | "c" | "r" | "br" | "cr" | "rb") && b.get(end + hashes) == Some(&b'"') && (hashes == 0 || prefix.contains('r')) {
                    let raw = prefix.contains('r');
                    i = string_end(b, end + hashes + 1, if raw { hashes + 1 } else { 0 }).ok_or("an unterminated string")?;
                    TokKind::Literal
                } else if prefix == "b" && b.get(end) == Some(&b'\'') {
                    i = end + 1;
                    if b.get(i) == Some(&b'\\') {
                        i += 1;
                    }
                    i += 1;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                    TokKind::Literal
                } else if end == i {
                    return Err(format!("an unexpected character `{}`", &text[i..].chars().next().unwrap_or(' ')));
                } else {
                    i = end;
                    TokKind::Word
                }
            }
        };
        let i_end = i.min(b.len());
        let col = if last >= line_start { last_col + text[last..start].chars().count() } else { text[line_start..start].chars().count() };
        (last, last_col) = (start, col);
        toks.push(Tok { span: start..i_end, at: (line, col), kind });
        // Line breaks inside a literal.
        for (k, _) in text[start..i_end].match_indices('\n') {
            line += 1;
            line_start = start + k + 1;
        }
    }
    if !open.is_empty() {
        return Err("an unclosed delimiter".into());
    }
    Ok(toks)
}

/// The end of a word (identifier, keyword, raw identifier's `r#` prefix included) at `i`.
fn word_end(text: &str, i: usize) -> usize {
    let rest = &text[i..];
    let n = rest.char_indices().find(|&(_, c)| !(c.is_alphanumeric() || c == '_')).map_or(rest.len(), |(k, _)| k);
    if &rest[..n] == "r" && rest[n..].starts_with('#') && rest[n + 1..].starts_with(|c: char| c.is_alphabetic() || c == '_') {
        return word_end(text, i + n + 1);
    }
    i + n
}

/// The end of a string whose text starts at `i`: after the closing `"` (and `hashes - 1` `#`s
/// for a raw string, `hashes > 0`; escapes otherwise).
fn string_end(b: &[u8], mut i: usize, hashes: usize) -> Option<usize> {
    while i < b.len() {
        match b[i] {
            b'\\' if hashes == 0 => i += 2,
            b'"' if b[i + 1..].iter().take(hashes.saturating_sub(1)).filter(|&&h| h == b'#').count() == hashes.saturating_sub(1) => {
                return Some(i + hashes.max(1));
            }
            _ => i += 1,
        }
    }
    None
}

/// The kernels among `toks`: name, byte range, start (line, column). Writes the tokens outside
/// them to `shared` as they count for the keys. Where a token stands matters only where it can
/// reach a panic's location in the PTX: in a fn's body (a routine, a method), or as the name
/// of a macro (`line!()`); those count with their position (except closing delimiters, where
/// no expression starts), the others by their text alone. So a kernel that grows by a line
/// moves the kernels after it in its file (their keys change: they report new lines), but not
/// the items around them (`mod`s, `use`s, consts, types).
fn split(text: &str, toks: &[Tok], shared: &mut Fnv128) -> Vec<(String, Range<usize>, (usize, usize))> {
    let placed = placed_tokens(text, toks);
    let mut kernels = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        if let Some((name, end)) = kernel_at(text, toks, k) {
            kernels.push((name, toks[k].span.start..toks[end].span.end, toks[k].at));
            k = end + 1;
            continue;
        }
        let t = &toks[k];
        shared.write_str(&text[t.span.clone()]);
        if placed[k] && t.kind != TokKind::Close {
            shared.write(&(t.at.0 as u64).to_le_bytes());
            shared.write(&(t.at.1 as u64).to_le_bytes());
        }
        k += 1;
    }
    kernels
}

/// Which tokens count with their position: those in the body of a fn, and macro names.
fn placed_tokens(text: &str, toks: &[Tok]) -> Vec<bool> {
    let s = |i: usize| &text[toks[i].span.clone()];
    let mut placed = vec![false; toks.len()];
    for i in 0..toks.len() {
        match toks[i].kind {
            TokKind::Word if s(i) == "fn" => {}
            TokKind::Word => {
                placed[i] |= toks.get(i + 1).is_some_and(|n| n.kind == TokKind::Punct && s(i + 1) == "!");
                continue;
            }
            _ => continue,
        }
        // The body: the first `{` at this depth before a `;` or the end of the group.
        let mut j = i + 1;
        while j < toks.len() && toks[j].kind != TokKind::Close && s(j) != ";" {
            match toks[j].kind {
                TokKind::Open(close) if s(j) == "{" => {
                    placed[j + 1..close].iter_mut().for_each(|p| *p = true);
                    break;
                }
                TokKind::Open(close) => j = close + 1,
                _ => j += 1,
            }
        }
    }
    placed
}

/// A kernel item starting at token `k` (`#[no_mangle]`, more attributes, `pub unsafe extern
/// "ptx-kernel" fn name(..) {..}`): its name and the index of its body's closing brace.
fn kernel_at(text: &str, toks: &[Tok], k: usize) -> Option<(String, usize)> {
    let s = |i: usize| toks.get(i).map_or("", |t| &text[t.span.clone()]);
    let close = |i: usize| match toks.get(i)?.kind {
        TokKind::Open(c) => Some(c),
        _ => None,
    };
    if !(s(k) == "#" && s(k + 1) == "[" && s(k + 2) == "no_mangle" && close(k + 1) == Some(k + 3)) {
        return None;
    }
    let mut i = k;
    while s(i) == "#" && s(i + 1) == "[" {
        i = close(i + 1)? + 1;
    }
    let mut ptx_abi = false;
    while s(i) != "fn" {
        match s(i) {
            "pub" | "unsafe" | "extern" => {}
            "\"ptx-kernel\"" => ptx_abi = true,
            _ => return None,
        }
        i += 1;
    }
    let name = s(i + 1).to_string();
    if !ptx_abi || s(i + 2) != "(" {
        return None;
    }
    let body = close(i + 2)? + 1;
    if s(body) != "{" {
        return None;
    }
    Some((name, close(body)?))
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
        "{MODULES_HEADER}\n// {} PTX modules follow, each after a line `{MODULE_LINE}`: one per file of regions, and the \
         kernels that changed since a full build in modules of their own. Each kernel is defined in one module.\n",
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

    /// Every token with its line and column, as `proc_macro2` lexes `text`.
    fn reference(text: &str) -> Vec<(usize, usize, String)> {
        fn walk(ts: proc_macro2::TokenStream, out: &mut Vec<(usize, usize, String)>) {
            use proc_macro2::{Delimiter, TokenTree};
            for tt in ts {
                let (at, s) = match tt {
                    TokenTree::Group(g) => {
                        let (o, c) = match g.delimiter() {
                            Delimiter::Parenthesis => ("(", ")"),
                            Delimiter::Brace => ("{", "}"),
                            Delimiter::Bracket => ("[", "]"),
                            Delimiter::None => ("", ""),
                        };
                        out.push((g.span_open().start().line, g.span_open().start().column, o.into()));
                        walk(g.stream(), out);
                        (g.span_close().start(), c.to_string())
                    }
                    TokenTree::Punct(p) => (p.span().start(), p.as_char().to_string()),
                    TokenTree::Ident(i) => (i.span().start(), i.to_string()),
                    TokenTree::Literal(l) => (l.span().start(), l.to_string()),
                };
                out.push((at.line, at.column, s));
            }
        }
        let mut v = Vec::new();
        walk(text.parse().unwrap(), &mut v);
        v
    }

    #[test]
    fn the_lexer_places_tokens_as_rustc_does() {
        let text = "// c { \n/* a /* nested */ } */ fn f<'a>(x: &'a [u8], r#type: u8) -> char {\n    let s = \"a{\\\"}\\n\nb\"; let r = r#\"x\"{\"#; let b = b'}'; let c = '\\''; let d = '{';\n    let e = b\"}\"; let u = \"é\"; let v = 1..2; let w = 1.5e3f64; let y = x[0].max(é_1);\n    'outer: loop { break 'outer; } _x(); s!(); c\n}\n";
        let mine: Vec<(usize, usize, String)> = lex(text)
            .unwrap()
            .iter()
            .flat_map(|t| {
                let s = &text[t.span.clone()];
                // A lifetime is one token here, `'` and a name there.
                if s.starts_with('\'') && !s.ends_with('\'') {
                    vec![(t.at.0, t.at.1, "'".to_string()), (t.at.0, t.at.1 + 1, s[1..].to_string())]
                } else {
                    vec![(t.at.0, t.at.1, s.to_string())]
                }
            })
            .collect();
        assert_eq!(mine, reference(text));
        assert!(lex("fn f() {").is_err() && lex("}").is_err() && lex("\"open").is_err());
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

