//! Drops the panic slot's store from kernels that cannot panic, in the PTX text that rustc
//! writes.
//!
//! Every acc kernel starts by storing its launch's panic slot (its first parameter) into the
//! block's `.shared` variable `__acc_panic_slot` (`acc_device::panic::enter`), where a panicking
//! thread finds it (`claim`, the one reader). The store is written before LLVM knows which
//! panic sites survive, and LLVM cannot remove it (an inline-asm store to shared memory). A
//! kernel whose index checks the launch proved (`_inb`) often has none left: then the store and
//! the load of its parameter are dead. In the 13-point wave step's kernel of one point a thread
//! they were 5 of its 126 SASS instructions (`S2UR`, `UMOV`, `ULEA`, `LDC.64`, `STS.64`; nvcc's
//! kernel: 108; `benches/results/wave-h200/sass-2cdd7d8.md` as of fba05e2).
//!
//! A kernel keeps the store where its body, or a function it calls directly or through others,
//! mentions `__acc_panic_slot` other than in that store, calls through a pointer
//! (`.callprototype`), or calls a function this module declares without defining it. So the
//! pass only drops stores no thread can read.
//!
//! Most `_inb` kernels lose the store: 388 of the 1569 kernels of acc's suite, examples and
//! benches together.

use std::collections::HashMap;

/// A version of this pass, part of the keys of cached PTX builds.
pub(crate) const VERSION: u32 = 1;

/// `text` without the `st.shared.u64 [__acc_panic_slot], %rdN;` lines of entries that cannot
/// reach a read of the slot. Returns `text` as it is where its functions cannot be told apart
/// (a definition whose body does not close).
pub(crate) fn drop_unread_stores(text: &str) -> String {
    let Some(funcs) = functions(text) else { return text.to_owned() };
    let index: HashMap<&str, usize> = funcs.iter().enumerate().map(|(i, f)| (f.name, i)).collect();
    // The functions each one calls (or names: an address taken counts as a call).
    let callees: Vec<Vec<usize>> = funcs
        .iter()
        .map(|f| f.body.map_or_else(Vec::new, |b| identifiers(&text[b.0..b.1]).filter_map(|id| index.get(id).copied()).filter(|&c| funcs[c].name != f.name).collect()))
        .collect();
    let mut reads: Vec<bool> = funcs
        .iter()
        .map(|f| match f.body {
            None => true,
            Some((lo, hi)) => {
                let body = &text[lo..hi];
                body.contains(".callprototype") || body.lines().any(|l| l.contains("__acc_panic_slot") && !is_store(l))
            }
        })
        .collect();
    // Whether a function reaches a read: to the fixpoint (a call graph of a few hundred nodes).
    loop {
        let mut changed = false;
        for (f, cs) in callees.iter().enumerate() {
            if !reads[f] && cs.iter().any(|&c| reads[c]) {
                reads[f] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut drop = Vec::new();
    for (f, func) in funcs.iter().enumerate() {
        if func.entry && !reads[f] {
            if let Some((lo, hi)) = func.body {
                drop.push((lo, hi));
            }
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        // (The few store lines alone are looked up among the kernels' bodies.)
        if !(is_store(line) && drop.iter().any(|&(lo, hi)| at >= lo && at < hi)) {
            out.push_str(line);
        }
        at += line.len();
    }
    out
}

/// Whether `line` is the prologue's store of the slot.
fn is_store(line: &str) -> bool {
    line.trim_start().starts_with("st.shared.u64 [__acc_panic_slot],")
}

/// A function of the module: its name, whether it is a kernel, and the byte range of its body
/// (`None`: declared only).
struct Func<'a> {
    name: &'a str,
    entry: bool,
    body: Option<(usize, usize)>,
}

/// The functions of the PTX module `text`, declarations and definitions (a function both
/// declared and defined appears once, with its body). LLVM writes a definition's `{` and `}`
/// alone on lines of their own at the line's start; `None` where a body does not close.
fn functions(text: &str) -> Option<Vec<Func<'_>>> {
    let mut funcs: Vec<Func> = Vec::new();
    let mut pending: Option<(&str, bool)> = None;
    let mut open: Option<usize> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let bare = line.trim_end();
        if let Some(lo) = open {
            if bare == "}" {
                let (name, entry) = pending.take()?;
                open = None;
                match funcs.iter_mut().find(|f| f.name == name) {
                    Some(f) => f.body = Some((lo, start)),
                    None => funcs.push(Func { name, entry, body: Some((lo, start)) }),
                }
            }
            continue;
        }
        if bare == "{" {
            pending?;
            open = Some(at);
            continue;
        }
        if let Some((name, entry)) = header(bare) {
            if !funcs.iter().any(|f| f.name == name) {
                funcs.push(Func { name, entry, body: None });
            }
            pending = Some((name, entry));
        }
    }
    open.is_none().then_some(funcs)
}

/// The name of the function a line at the module's top level declares or defines, and whether
/// it is a kernel: `.visible .entry NAME(`, `.func NAME`, `.func  (.param .b32 r) NAME(`.
fn header(line: &str) -> Option<(&str, bool)> {
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let mut rest = line;
    let mut entry = None;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix(".visible").or_else(|| rest.strip_prefix(".weak")).or_else(|| rest.strip_prefix(".extern")) {
            rest = r;
        } else if let Some(r) = rest.strip_prefix(".entry") {
            (rest, entry) = (r, Some(true));
        } else if let Some(r) = rest.strip_prefix(".func") {
            (rest, entry) = (r, Some(false));
        } else {
            break;
        }
    }
    let entry = entry?;
    if rest.starts_with('(') {
        rest = rest[rest.find(')')? + 1..].trim_start();
    }
    let name = &rest[..rest.find(|c: char| !is_ident_char(c)).unwrap_or(rest.len())];
    (!name.is_empty()).then_some((name, entry))
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')
}

/// The identifiers of a body (PTX names may hold `$` and `.`).
fn identifiers(body: &str) -> impl Iterator<Item = &str> {
    body.split(|c: char| !is_ident_char(c)).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "\
.shared .align 8 .u64 __acc_panic_slot;

.func _claim
(
\t.param .b64 _claim_param_0
)
.noreturn;
.func  (.param .b32 func_retval0) _pure(
\t.param .b32 _pure_param_0
)
;
.extern .func _elsewhere
(
)
;

.visible .entry k_plain(
\t.param .u64 k_plain_param_0
)
{
\tld.param.b64 \t%rd1, [k_plain_param_0];
\t// begin inline asm
\tst.shared.u64 [__acc_panic_slot], %rd1;
\t// end inline asm
\t{ // callseq 0, 0
\tcall.uni (retval0), _pure, (param0);
\t} // callseq 0
\tret;
}
.visible .entry k_checked(
\t.param .u64 k_checked_param_0
)
{
\tld.param.b64 \t%rd1, [k_checked_param_0];
\tst.shared.u64 [__acc_panic_slot], %rd1;
\t@%p1 bra $L__BB1_2;
\tcall.uni _via, (param0);
$L__BB1_2:
\tret;
}
.visible .entry k_pointer(
\t.param .u64 k_pointer_param_0
)
{
\tst.shared.u64 [__acc_panic_slot], %rd1;
\tprototype_3 : .callprototype (.param .b32 _) _ (.param .b64 _);
\tcall (retval0), %rd9, (param0), prototype_3;
\tret;
}
.visible .entry k_extern(
\t.param .u64 k_extern_param_0
)
{
\tst.shared.u64 [__acc_panic_slot], %rd1;
\tcall.uni _elsewhere, ();
\tret;
}
.func _via(
\t.param .b64 _via_param_0
)
{
\tcall.uni _claim, (param0);
}
.func _claim(
\t.param .b64 _claim_param_0
)
{
\t// begin inline asm
\tld.shared.u64 %rd2, [__acc_panic_slot];
\t// end inline asm
\ttrap;
}
.func  (.param .b32 func_retval0) _pure(
\t.param .b32 _pure_param_0
)
{
\tst.param.b32 [func_retval0], %r1;
\tret;
}
";

    fn kernel<'a>(text: &'a str, name: &str) -> &'a str {
        let at = text.find(&format!(".entry {name}(")).unwrap();
        let end = text[at..].find("\n}\n").unwrap();
        &text[at..at + end]
    }

    #[test]
    fn a_kernel_that_reaches_no_read_of_the_slot_loses_its_store() {
        let out = drop_unread_stores(MODULE);
        assert!(!kernel(&out, "k_plain").contains("st.shared.u64 [__acc_panic_slot]"), "{out}");
        assert!(kernel(&out, "k_plain").contains("call.uni (retval0), _pure, (param0);"));
        // Nothing else changes.
        assert_eq!(out.len(), MODULE.len() - "\tst.shared.u64 [__acc_panic_slot], %rd1;\n".len());
    }

    #[test]
    fn kernels_that_may_read_it_keep_their_store() {
        let out = drop_unread_stores(MODULE);
        // Through a function that calls the reader; through a pointer; through a function
        // defined elsewhere.
        for k in ["k_checked", "k_pointer", "k_extern"] {
            assert!(kernel(&out, k).contains("\tst.shared.u64 [__acc_panic_slot], %rd1;\n"), "{k}: {out}");
        }
        // The reader keeps its load.
        assert!(out.contains("ld.shared.u64 %rd2, [__acc_panic_slot];"));
    }

    #[test]
    fn a_kernel_reading_the_slot_itself_keeps_it() {
        let m = ".visible .entry k(\n)\n{\n\tst.shared.u64 [__acc_panic_slot], %rd1;\n\tld.shared.u64 %rd2, [__acc_panic_slot];\n}\n";
        assert_eq!(drop_unread_stores(m), m);
        let m = ".visible .entry k(\n)\n{\n\tst.shared.u64 [__acc_panic_slot], %rd1;\n\tmov.u64 %rd2, __acc_panic_slot;\n}\n";
        assert_eq!(drop_unread_stores(m), m);
    }

    #[test]
    fn text_it_cannot_split_stays() {
        let m = ".visible .entry k(\n)\n{\n\tst.shared.u64 [__acc_panic_slot], %rd1;\n";
        assert_eq!(drop_unread_stores(m), m);
        assert_eq!(drop_unread_stores(""), "");
    }

    #[test]
    fn headers_name_their_function() {
        assert_eq!(header(".visible .entry acc_k_0_inb("), Some(("acc_k_0_inb", true)));
        assert_eq!(header(".func _RNvNtC_panic"), Some(("_RNvNtC_panic", false)));
        assert_eq!(header(".func  (.param .b32 func_retval0) _R$fmt("), Some(("_R$fmt", false)));
        assert_eq!(header(".weak .func w("), Some(("w", false)));
        assert_eq!(header(".shared .align 8 .u64 __acc_panic_slot;"), None);
        assert_eq!(header("\tcall.uni f, ();"), None);
    }
}
