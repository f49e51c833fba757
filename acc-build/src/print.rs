//! Prints a module of the device crate so that every token of the user's source stands on its
//! line of that source, and on its column where the tokens before it allow.
//!
//! rustc names a panic's location (`core::panic::Location`, `#[track_caller]`) by the file,
//! line and column of the code it compiled. The device crate's module for a user file lies at
//! the user file's relative path (see `scan`), and this printer keeps the user's lines, so a
//! kernel that indexes out of bounds, divides by zero or calls `panic!` reports
//! `tests/foo.rs:LINE:COL` of the user's expression; rustc's diagnostics on the device crate
//! point at the user's lines too.
//!
//! The rules:
//! * A token of the user's file goes on its source line. Lines only grow, so a token that the
//!   lowering moved before tokens of earlier lines (a hoisted loop bound) goes on the line of the
//!   earliest token after it: every token that is in source order keeps its line.
//! * It goes on its source column when it starts a line or follows a user token placed the same
//!   way, and the column is still free; otherwise it follows the previous token.
//! * Tokens the lowering made (call-site spans) follow the previous token, or take lines of
//!   their own where the user's lines leave room: what closes the previous item right after it,
//!   the header of the next item just before its first user token.
//! * A body the lowering repeats (a reduction loop unrolled four times) repeats on its line:
//!   the first copy stands on the user's columns, the others follow it, so a panic in a later
//!   copy names the right line and a column further right.
//! * Outer doc attributes print as `///` comments when the next line is free.
//! * A module whose user tokens do not all stand on their places ends with a comment line of
//!   where they came from ([`COLUMNS_LINE`]; only on lines that can hold a panic located by
//!   `#[track_caller]`, [`can_panic`]), which acc-build copies into the PTX file's header
//!   ([`columns_header`]): the runtime names the user's line and column of a panic located in a
//!   later copy, or after inserted code, from it (acc-runtime `columns`).
//!
//! [`print_module`] checks its output: the text lexes back to the same tokens.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};

/// The text of a module of the device crate: `tokens` with every token whose span lies in the
/// user's file `file` (a span's [`Span::file`], e.g. `<parsed string 3>`) on its line of that
/// file. `header` becomes a `//` comment on the first line when that line is free. Errs when
/// the text does not lex back to `tokens` (a bug of this printer; the caller falls back to
/// another printer).
pub fn print_module(tokens: TokenStream, file: &str, header: &str) -> Result<String, String> {
    let mut atoms = Vec::new();
    flatten(tokens, Some(file), &mut atoms);
    let text = Printer::new(&atoms).print(header);
    let mut back = Vec::new();
    let relexed: TokenStream = text.parse().map_err(|e| format!("the printed module does not lex: {e:?}"))?;
    flatten(relexed, None, &mut back);
    normalise_spacing(&mut atoms);
    normalise_spacing(&mut back);
    match atoms.iter().zip(&back).position(|(a, b)| !a.same_token(b)) {
        None if atoms.len() == back.len() => Ok(text),
        at => {
            let at = at.unwrap_or(atoms.len().min(back.len()));
            let show = |v: &[Atom]| v.iter().skip(at.saturating_sub(3)).take(6).map(|a| a.alt.clone()).collect::<Vec<_>>().join(" ");
            Err(format!("the printed module lexes to other tokens at token {at}: `{}` became `{}`", show(&atoms), show(&back)))
        }
    }
}

/// The start of the comment line that ends a printed module whose user tokens do not all
/// stand on their places: `// acc-build: columns PL:PC:SL:SC:N ...`, each a run of such tokens
/// printed on line `PL` from column `PC` to `PC + N`, moved by the same distance from line
/// `SL`, column `SC` of the source (1-based; a token inside the run at column `PC + k` comes
/// from `SC + k`). A repeated body's later copies (lean kernels, unrolled rounds) and whatever
/// follows inserted code stand off their columns, or on later lines, and a panic located by
/// `#[track_caller]` there names the printed place: the runtime reads these back (acc-build
/// copies them into the PTX file's header, [`columns_header`]) and names the user's.
pub const COLUMNS_LINE: &str = "// acc-build: columns";

/// Whether atom `i` marks its source line as one that can hold a panic located by
/// `#[track_caller]` (its place in the device crate's text): a division or remainder, a range
/// (slicing), or a name of a panicking macro or method. Indexing is not one: `ix` gives its
/// own place (`scan::index::InlineBounds`).
fn can_panic(atoms: &[Atom], i: usize) -> bool {
    const NAMES: [&str; 14] = [
        "panic", "assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq", "debug_assert_ne", "unreachable", "todo",
        "unimplemented", "unwrap", "expect", "copy_from_slice", "split_at",
    ];
    let a = &atoms[i];
    match a.kind {
        Kind::Punct('/' | '%', _) => true,
        Kind::Punct('.', Spacing::Joint) => atoms.get(i + 1).is_some_and(|b| b.is_punct('.')),
        Kind::Ident => NAMES.contains(&a.text.as_str()),
        _ => false,
    }
}

/// The comment line of the user tokens `moved` (see `Printer::moved`; empty when none moved).
fn columns_comment(moved: &[Option<(usize, usize, usize, usize)>]) -> String {
    // Runs of tokens moved by one distance, one after the other: (PL, PC, SL, SC, N). A token
    // on its place ends a run.
    let mut runs: Vec<(usize, usize, usize, usize, usize)> = Vec::new();
    let mut open = false;
    for m in moved {
        let Some((pl, pc, sl, sc)) = *m else {
            open = false;
            continue;
        };
        match runs.last_mut() {
            Some((rpl, rpc, rsl, rsc, n)) if open && *rpl == pl && *rsl == sl && pc > *rpc && pc - *rpc == sc.wrapping_sub(*rsc) => *n = pc - *rpc,
            _ => runs.push((pl, pc, sl, sc, 0)),
        }
        open = true;
    }
    if runs.is_empty() {
        return String::new();
    }
    let mut t = String::from(COLUMNS_LINE);
    for (pl, pc, sl, sc, n) in runs {
        t.push_str(&format!(" {pl}:{pc}:{sl}:{sc}:{n}"));
    }
    t.push('\n');
    t
}

/// The PTX file's header lines for the device crate's `modules` (relative path, printed text):
/// `// acc-build: columns FILE PL:PC:SL:SC:N ...` for each module that has moved tokens.
pub fn columns_header(modules: &[(String, String)]) -> String {
    let mut t = String::new();
    for (rel, text) in modules {
        if let Some(pairs) = text.lines().rev().find_map(|l| l.strip_prefix(COLUMNS_LINE)) {
            if !rel.contains(char::is_whitespace) {
                t.push_str(&format!("{COLUMNS_LINE} {rel}{pairs}\n"));
            }
        }
    }
    t
}

/// Marks a punctuation `Alone` where the next one cannot glue to it (see [`glues`]): the
/// printer may set such pairs side by side, and the lexer then calls the first `Joint`.
fn normalise_spacing(atoms: &mut [Atom]) {
    for i in 1..atoms.len() {
        if !glues(&atoms[i - 1], &atoms[i], i.checked_sub(2).map(|k| &atoms[k])) {
            if let Kind::Punct(c, Spacing::Joint) = atoms[i - 1].kind {
                atoms[i - 1].kind = Kind::Punct(c, Spacing::Alone);
            }
        }
    }
}

/// Whether punctuation `p` followed by punctuation `c` can form one token of rustc's lexer
/// (`&&`, `<=`, `->`...); `pp` is the one before `p`. Pairs that never do (`,` `;`, a
/// lifetime's `'`, `::*`, `::<`, unary operators in a row other than `&&`) may print side
/// by side.
fn glues(p: &Atom, c: &Atom, pp: Option<&Atom>) -> bool {
    let (Kind::Punct(a, _), Kind::Punct(b, _)) = (p.kind, c.kind) else { return false };
    let unary = |x: char| matches!(x, '&' | '*' | '-' | '!');
    let path_sep = a == ':' && pp.is_some_and(|pp| pp.kind == Kind::Punct(':', Spacing::Joint));
    !(matches!(a, ',' | ';') || matches!(b, ',' | ';' | '\'') || path_sep && matches!(b, '*' | '<') || unary(a) && unary(b) && !(a == '&' && b == '&'))
}

/// A token as the printer places it: groups become their delimiters.
#[derive(Clone, Debug)]
struct Atom {
    kind: Kind,
    /// What prints (a doc attribute's `///` form).
    text: String,
    /// The attribute form of a doc attribute; `text` otherwise.
    alt: String,
    /// Line (1-based) and column (0-based, in chars) in the user's file; `None` for tokens the
    /// lowering made.
    at: Option<(usize, usize)>,
    /// The `]` closing an attribute.
    attr_end: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Open(Delimiter),
    Close(Delimiter),
    Ident,
    Punct(char, Spacing),
    Literal,
    /// An outer `#[doc = "..."]` that can print as a `///` comment.
    Doc,
}

impl Atom {
    fn new(kind: Kind, text: String, at: Option<(usize, usize)>) -> Atom {
        Atom { kind, alt: text.clone(), text, at, attr_end: false }
    }

    fn same_token(&self, other: &Atom) -> bool {
        self.kind == other.kind && self.alt == other.alt
    }

    fn is_punct(&self, c: char) -> bool {
        matches!(self.kind, Kind::Punct(p, _) if p == c)
    }

    fn is_joint(&self) -> bool {
        matches!(self.kind, Kind::Punct(_, Spacing::Joint))
    }

    fn is_alone_punct(&self) -> bool {
        matches!(self.kind, Kind::Punct(_, Spacing::Alone))
    }

    fn is_keyword(&self) -> bool {
        self.kind == Kind::Ident && KEYWORDS.contains(&self.text.as_str())
    }

    /// A plain identifier (a name, not a keyword): what a call's `(` or a macro's `!` follows.
    fn is_name(&self) -> bool {
        self.kind == Kind::Ident && !self.is_keyword()
    }

    /// An unsuffixed integer (`x.0 .1` must not lex as `x . 0.1`).
    fn is_plain_int(&self) -> bool {
        self.kind == Kind::Literal && self.text.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    }
}

const KEYWORDS: [&str; 33] = [
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct",
    "trait", "type", "unsafe", "use", "where", "while",
];

/// Where `span` lies in `file`, if it does.
fn location(span: Span, file: Option<&str>) -> Option<(usize, usize)> {
    let file = file?;
    (span.file() == file).then(|| {
        let s = span.start();
        (s.line, s.column)
    })
}

/// The tokens of `ts` in order, groups opened and closed, invisible groups dissolved, negative
/// literals split (as rustc lexes them), doc attributes marked.
fn flatten(ts: TokenStream, file: Option<&str>, out: &mut Vec<Atom>) {
    let trees: Vec<TokenTree> = ts.into_iter().collect();
    let mut k = 0;
    while k < trees.len() {
        match &trees[k] {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => flatten(g.stream(), file, out),
            TokenTree::Group(g) => {
                let d = g.delimiter();
                let attr = d == Delimiter::Bracket
                    && (k >= 1 && trees[k - 1].to_string() == "#"
                        || k >= 2 && trees[k - 1].to_string() == "!" && trees[k - 2].to_string() == "#");
                out.push(Atom::new(Kind::Open(d), open_text(d).into(), location(g.span_open(), file)));
                flatten(g.stream(), file, out);
                let mut close = Atom::new(Kind::Close(d), close_text(d).into(), location(g.span_close(), file));
                close.attr_end = attr;
                out.push(close);
            }
            TokenTree::Ident(i) => out.push(Atom::new(Kind::Ident, i.to_string(), location(i.span(), file))),
            TokenTree::Punct(p) => {
                if p.as_char() == '#' {
                    if let Some(TokenTree::Group(g)) = trees.get(k + 1) {
                        if let Some(doc) = doc_comment(g) {
                            let mut a = Atom::new(Kind::Doc, doc, location(p.span(), file));
                            a.alt = format!("#[{}]", g.stream());
                            out.push(a);
                            k += 2;
                            continue;
                        }
                    }
                }
                out.push(Atom::new(Kind::Punct(p.as_char(), p.spacing()), p.as_char().to_string(), location(p.span(), file)));
            }
            TokenTree::Literal(l) => {
                let text = l.to_string();
                let at = location(l.span(), file);
                match text.strip_prefix('-') {
                    Some(rest) => {
                        out.push(Atom::new(Kind::Punct('-', Spacing::Alone), "-".into(), at));
                        out.push(Atom::new(Kind::Literal, rest.into(), at.map(|(l, c)| (l, c + 1))));
                    }
                    None => out.push(Atom::new(Kind::Literal, text, at)),
                }
            }
        }
        k += 1;
    }
}

/// `///text` for the group of `#[doc = "text"]` when that comment lexes back to it.
fn doc_comment(g: &proc_macro2::Group) -> Option<String> {
    if g.delimiter() != Delimiter::Bracket {
        return None;
    }
    let tokens: Vec<TokenTree> = g.stream().into_iter().collect();
    let [TokenTree::Ident(name), TokenTree::Punct(eq), TokenTree::Literal(lit)] = &tokens[..] else { return None };
    if name != "doc" || eq.as_char() != '=' {
        return None;
    }
    let syn::Lit::Str(s) = syn::Lit::new(lit.clone()) else { return None };
    let value = s.value();
    let plain = !value.starts_with('/') && !value.contains(['\n', '\r']) && s.suffix().is_empty();
    (plain && proc_macro2::Literal::string(&value).to_string() == lit.to_string()).then(|| format!("///{value}"))
}

fn open_text(d: Delimiter) -> &'static str {
    match d {
        Delimiter::Parenthesis => "(",
        Delimiter::Brace => "{",
        Delimiter::Bracket => "[",
        Delimiter::None => "",
    }
}

fn close_text(d: Delimiter) -> &'static str {
    match d {
        Delimiter::Parenthesis => ")",
        Delimiter::Brace => "}",
        Delimiter::Bracket => "]",
        Delimiter::None => "",
    }
}

struct Printer<'a> {
    atoms: &'a [Atom],
    /// For each atom, the line of the first user token at or after it that keeps its line
    /// (`usize::MAX` when none): where a user token goes, and how far free tokens may spread.
    target: Vec<usize>,
    /// The user tokens that keep their lines (see [`in_line_order`]).
    keep: Vec<bool>,
    /// Open groups before each atom (an atom closing a group counts it).
    depth: Vec<usize>,
    /// The delimiter of the innermost group around each atom (`None` at the top); for a
    /// closing delimiter, the group it closes.
    inner: Vec<Option<Delimiter>>,
    /// For a closing delimiter, the delimiter of the group around the group it closes.
    outer: Vec<Option<Delimiter>>,
    out: String,
    line: usize,
    col: usize,
    /// Nothing but indentation on the current line yet.
    fresh: bool,
    /// The previous atom is a user token on its source line and column.
    placed: bool,
    /// A `///` comment was printed: the next atom starts a line.
    newline_due: bool,
    /// `<`s taken for generic arguments, not yet closed (spacing only).
    angles: usize,
    /// The previous atom closed generic arguments (`Vec<T>(..)` has no space before `(`).
    after_generic: bool,
    /// The user tokens in print order: for those printed off their source place, printed line
    /// and column, source line and column (1-based, as `core::panic::Location` counts); `None`
    /// for those on their place.
    moved: Vec<Option<(usize, usize, usize, usize)>>,
    /// The source lines that can hold a panic `#[track_caller]` locates (see [`can_panic`]):
    /// only their moved tokens are recorded.
    panicky: std::collections::HashSet<usize>,
}

impl<'a> Printer<'a> {
    fn new(atoms: &'a [Atom]) -> Printer<'a> {
        let n = atoms.len();
        let keep = in_line_order(atoms);
        let mut target = vec![usize::MAX; n + 1];
        for i in (0..n).rev() {
            target[i] = match atoms[i].at {
                Some((line, _)) if keep[i] => line,
                _ => target[i + 1],
            };
        }
        let (mut depth, mut inner, mut outer) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let mut stack: Vec<Delimiter> = Vec::new();
        for a in atoms {
            depth.push(stack.len());
            inner.push(stack.last().copied());
            outer.push(stack.len().checked_sub(2).map(|k| stack[k]));
            match a.kind {
                Kind::Open(d) => stack.push(d),
                Kind::Close(_) => {
                    stack.pop();
                }
                _ => {}
            }
        }
        Printer {
            atoms,
            target,
            keep,
            depth,
            inner,
            outer,
            out: String::new(),
            line: 1,
            col: 0,
            fresh: true,
            placed: false,
            newline_due: false,
            angles: 0,
            after_generic: false,
            moved: Vec::new(),
            panicky: atoms.iter().enumerate().filter(|&(i, _)| can_panic(atoms, i)).filter_map(|(_, a)| a.at.map(|(l, _)| l)).collect(),
        }
    }

    fn print(mut self, header: &str) -> String {
        if self.target[0] >= 2 && !header.is_empty() {
            self.out.push_str("// ");
            self.out.push_str(header);
            self.newlines(1, 0);
        }
        let n = self.atoms.len();
        let mut i = 0;
        while i < n {
            if self.anchored(i) {
                self.user_token(i);
                i += 1;
            } else {
                let end = (i..n).find(|&j| self.anchored(j)).unwrap_or(n);
                self.free_run(i, end);
                i = end;
            }
        }
        if !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        self.out.push_str(&columns_comment(&self.moved));
        self.out
    }

    /// A user token that keeps its line, still ahead (or the current one).
    fn anchored(&self, i: usize) -> bool {
        self.keep[i] && self.target[i] >= self.line
    }

    fn user_token(&mut self, i: usize) {
        let a = &self.atoms[i];
        let (line, col) = a.at.expect("anchored tokens are the user's");
        let to = self.target[i];
        let exact = to == line;
        if to > self.line {
            self.newlines(to - self.line, if exact { col } else { self.indent(i) });
        } else if self.newline_due {
            self.newlines(1, self.indent(i));
        } else if exact && (self.fresh || self.placed) && self.col <= col {
            let adjacent = !self.fresh && self.col == col;
            self.pad(col - self.col);
            if adjacent && must_space(&self.atoms[i - 1], &self.atoms[i], i.checked_sub(2).map(|k| &self.atoms[k])) {
                self.pad(1);
            }
        } else {
            self.space_before(i);
        }
        self.emit(i);
        self.placed = exact && self.col_matches(i, col);
    }

    /// Whether atom `i`, just printed, began at column `col`.
    fn col_matches(&self, i: usize, col: usize) -> bool {
        let len = self.atoms[i].text.chars().count();
        !self.atoms[i].text.contains('\n') && self.col == col + len
    }

    /// Tokens `start..end` the lowering made (or user tokens left behind), then the anchored
    /// token `end` on line `target[end]`: line breaks where statements and items end, the
    /// closing of the previous item right after it, the next item's header just before its
    /// first user token.
    fn free_run(&mut self, start: usize, end: usize) {
        let last = if end < self.atoms.len() { self.target[end] } else { usize::MAX };
        // After a `///` comment the run starts a line of its own.
        let due = usize::from(self.newline_due);
        let breaks: Vec<usize> = (start.max(1) + due..end).filter(|&j| self.breakable(j)).collect();
        // A user token that may start a line keeps one for itself, to stand on its column.
        let own_line = last != usize::MAX && self.breakable(end);
        let room = last.saturating_sub(self.line + due + usize::from(own_line));
        // The last item end at the least depth splits what closes the previous item (printed
        // right after it) from what opens the next (printed just before its first user token).
        let ends = breaks.iter().enumerate().filter(|(_, &j)| {
            let p = &self.atoms[j - 1];
            p.is_punct(';') || p.kind == Kind::Close(Delimiter::Brace)
        });
        let least = ends.clone().map(|(_, &j)| self.depth[j]).min();
        let split = ends.filter(|(_, &j)| Some(self.depth[j]) == least).map(|(k, _)| k).next_back().unwrap_or(0);
        let mut lines_at = vec![0usize; end - start];
        for (k, &j) in breaks.iter().enumerate().take(room) {
            lines_at[j - start] = 1;
            if k == split && last != usize::MAX && room > breaks.len() {
                lines_at[j - start] += room - breaks.len();
            }
        }
        for j in start..end {
            if self.newline_due {
                self.newlines(1, self.indent(j));
            } else if lines_at[j - start] > 0 {
                self.newlines(lines_at[j - start], self.indent(j));
            } else {
                self.space_before(j);
            }
            self.emit(j);
            self.placed = false;
        }
    }

    /// The indentation of atom `i` when it starts a line.
    fn indent(&self, i: usize) -> usize {
        let closes = matches!(self.atoms[i].kind, Kind::Close(_));
        4 * (self.depth[i] - usize::from(closes))
    }

    /// Whether a line may break before atom `j` (after a statement, an item, an attribute or
    /// a block's `{`, in a block or at the top).
    fn breakable(&self, j: usize) -> bool {
        let (p, c) = (&self.atoms[j - 1], &self.atoms[j]);
        let in_block = |d: Option<Delimiter>| matches!(d, None | Some(Delimiter::Brace));
        let continues = matches!(c.kind, Kind::Punct(',' | ';' | '.' | '?', _) | Kind::Close(Delimiter::Parenthesis | Delimiter::Bracket))
            || c.kind == Kind::Ident && c.text == "else";
        if c.kind == Kind::Close(Delimiter::Brace) && p.kind != Kind::Open(Delimiter::Brace) && in_block(self.outer[j]) {
            return true;
        }
        match p.kind {
            Kind::Punct(';', _) => in_block(self.inner[j - 1]),
            Kind::Open(Delimiter::Brace) => c.kind != Kind::Close(Delimiter::Brace),
            Kind::Close(Delimiter::Brace) => in_block(self.inner[j]) && !continues,
            Kind::Close(Delimiter::Bracket) => p.attr_end && in_block(self.inner[j]),
            _ => false,
        }
    }

    fn newlines(&mut self, k: usize, indent: usize) {
        for _ in 0..k {
            self.out.push('\n');
        }
        self.line += k;
        self.col = 0;
        self.pad(indent);
        self.fresh = true;
        self.newline_due = false;
    }

    fn pad(&mut self, k: usize) {
        self.out.extend(std::iter::repeat_n(' ', k));
        self.col += k;
    }

    fn space_before(&mut self, i: usize) {
        if !self.fresh && self.space_between(i) {
            self.pad(1);
        }
    }

    fn emit(&mut self, i: usize) {
        let a = &self.atoms[i];
        if let Some((line, col)) = a.at {
            let moved = (line, col) != (self.line, self.col) && self.panicky.contains(&line);
            self.moved.push(moved.then_some((self.line, self.col + 1, line, col + 1)));
        }
        let doc = a.kind == Kind::Doc && a.at.is_some() && self.target[i + 1] > self.line;
        let text = if a.kind == Kind::Doc && !doc { &a.alt } else { &a.text };
        self.out.push_str(text);
        match text.rfind('\n') {
            Some(k) => {
                self.line += text.matches('\n').count();
                self.col = text[k + 1..].chars().count();
            }
            None => self.col += text.chars().count(),
        }
        self.fresh = false;
        self.newline_due = doc;
        self.after_generic = false;
        match a.kind {
            Kind::Punct('<', _) if self.generic_open(i) => self.angles += 1,
            Kind::Punct('>', _) if self.generic_close(i) => {
                self.angles -= 1;
                self.after_generic = true;
            }
            Kind::Punct(';', _) | Kind::Open(Delimiter::Brace) | Kind::Close(Delimiter::Brace) => self.angles = 0,
            _ => {}
        }
    }

    /// `<` after a type name, a declared name, `impl` or `::`: generic parameters or
    /// arguments, printed `Vec<T>`.
    fn generic_open(&self, i: usize) -> bool {
        let Some(p) = i.checked_sub(1).map(|k| &self.atoms[k]) else { return false };
        if self.atoms[i].is_joint() && !self.atoms.get(i + 1).is_some_and(|n| n.is_punct('\'')) {
            return false;
        }
        let declared = i >= 2 && matches!(self.atoms[i - 2].text.as_str(), "fn" | "struct" | "enum" | "trait" | "type" | "union");
        p.kind == Kind::Ident && (p.text.starts_with(|c: char| c.is_ascii_uppercase()) || declared || p.text == "impl")
            || self.after_path_sep(i)
    }

    /// `>` closing generics (not `->` or `=>`).
    fn generic_close(&self, i: usize) -> bool {
        let Some(p) = i.checked_sub(1).map(|k| &self.atoms[k]) else { return false };
        self.angles > 0 && !(p.is_joint() && (p.is_punct('-') || p.is_punct('=')))
    }

    /// Atom `i` follows `::`.
    fn after_path_sep(&self, i: usize) -> bool {
        i >= 2 && self.atoms[i - 1].kind == Kind::Punct(':', Spacing::Alone) && self.atoms[i - 2].kind == Kind::Punct(':', Spacing::Joint)
    }

    /// Whether atom `i` needs a space after the one before it: always where the two would lex
    /// as other tokens, and where it reads better.
    fn space_between(&self, i: usize) -> bool {
        let Some(p) = i.checked_sub(1).map(|k| &self.atoms[k]) else { return false };
        let pp = i.checked_sub(2).map(|k| &self.atoms[k]);
        let c = &self.atoms[i];
        if must_space(p, c, pp) {
            return true;
        }
        if p.is_joint() {
            return false;
        }
        let unary = |p: &Atom| {
            matches!(p.kind, Kind::Punct('&' | '*' | '-' | '!', Spacing::Alone))
                && pp.is_none_or(|pp| pp.is_alone_punct() || matches!(pp.kind, Kind::Open(_)) || pp.is_keyword())
        };
        let no_space_after = match p.kind {
            Kind::Open(Delimiter::Brace) => c.kind == Kind::Close(Delimiter::Brace),
            Kind::Open(_) => true,
            Kind::Punct('.' | '#', _) => true,
            Kind::Punct(':', _) => self.after_path_sep(i),
            Kind::Punct('!', _) => pp.is_some_and(|pp| pp.is_name() || pp.is_punct('#')) || unary(p),
            Kind::Punct('=', _) => pp.is_some_and(|pp| pp.is_punct('.') && pp.is_joint()),
            Kind::Punct('<', _) => self.angles > 0 && self.generic_open(i - 1),
            Kind::Punct(..) => unary(p),
            _ => false,
        };
        if no_space_after {
            return false;
        }
        !match c.kind {
            Kind::Close(Delimiter::Parenthesis | Delimiter::Bracket) => true,
            Kind::Punct(',' | ';' | '?' | '.', _) => true,
            Kind::Punct(':', Spacing::Alone) => true,
            Kind::Punct(':', Spacing::Joint) => p.is_name() || p.text == "crate" || matches!(p.kind, Kind::Close(_)),
            Kind::Open(Delimiter::Parenthesis | Delimiter::Bracket) => {
                p.is_name() || matches!(p.kind, Kind::Close(Delimiter::Parenthesis | Delimiter::Bracket)) || self.after_generic
            }
            Kind::Punct('!', Spacing::Alone) => p.is_name(),
            Kind::Punct('<', _) => self.generic_open(i),
            Kind::Punct('>', _) => self.generic_close(i),
            _ => false,
        }
    }
}

/// The user tokens that keep their lines: the most that can, a longest run (not necessarily
/// contiguous) of tokens whose lines never decrease. Lines only grow as the text is printed,
/// so a token the lowering moved out of source order (a loop bound hoisted before the body,
/// a reduced variable named again after the loop) cannot keep its line without moving many
/// others; it joins the line where it falls instead.
fn in_line_order(atoms: &[Atom]) -> Vec<bool> {
    // Patience sorting: `tails[k]` ends the best run of length k + 1 found so far.
    let mut tails: Vec<usize> = Vec::new();
    let mut before = vec![usize::MAX; atoms.len()];
    let line = |i: usize| atoms[i].at.map_or(0, |(l, _)| l);
    for i in (0..atoms.len()).filter(|&i| atoms[i].at.is_some()) {
        let k = tails.partition_point(|&t| line(t) <= line(i));
        if k > 0 {
            before[i] = tails[k - 1];
        }
        if k == tails.len() {
            tails.push(i);
        } else {
            tails[k] = i;
        }
    }
    let mut keep = vec![false; atoms.len()];
    let mut i = tails.last().copied().unwrap_or(usize::MAX);
    while i != usize::MAX {
        keep[i] = true;
        i = before[i];
    }
    keep
}

/// Whether `p` and `c` printed side by side would lex as other tokens; `pp` is the token
/// before `p`.
fn must_space(p: &Atom, c: &Atom, pp: Option<&Atom>) -> bool {
    let word = |a: &Atom| matches!(a.kind, Kind::Ident | Kind::Literal);
    let hash_or_quote = |a: &Atom| a.kind == Kind::Doc || a.is_punct('#') || a.is_punct('\'');
    match p.kind {
        Kind::Punct(_, Spacing::Joint) => false,
        Kind::Punct(_, Spacing::Alone) => c.kind == Kind::Doc || glues(p, c, pp),
        Kind::Ident => word(c) || hash_or_quote(c),
        Kind::Literal => word(c) || hash_or_quote(c) || p.is_plain_int() && c.kind == Kind::Punct('.', Spacing::Alone),
        Kind::Doc => word(c) || matches!(c.kind, Kind::Punct(..) | Kind::Doc),
        Kind::Open(_) | Kind::Close(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `<parsed string N>` name of the file `text` lexes into.
    fn lex(text: &str) -> (TokenStream, String) {
        let ts: TokenStream = text.parse().expect("lexes");
        let file = ts.clone().into_iter().next().expect("a token").span().file();
        (ts, file)
    }

    fn line_of(text: &str, needle: &str) -> usize {
        text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("no `{needle}` in\n{text}")) + 1
    }

    #[test]
    fn user_tokens_keep_their_lines_and_columns() {
        let src = "\n\n/// Scales.\nfn scale(a: &[f32], c: &mut [f32]) {\n    for i in 0..c.len() {\n\n        c[i] = a[i] * 2.0;\n    }\n}\n";
        let (ts, file) = lex(src);
        let f: syn::ItemFn = syn::parse2(ts).expect("parses");
        let (block, sig) = (&f.block, &f.sig.ident);
        let attrs = &f.attrs;
        // Generated code around the user's: a header before, a wrapper, an epilogue after.
        let tokens = quote::quote! {
            use acc_device::prelude::*;
            #(#attrs)*
            #[no_mangle]
            pub unsafe extern "ptx-kernel" fn #sig(__acc_caps: ::acc_device::Captures, n: usize) {
                let x: ::core::option::Option<u32> = None;
                for _ in ::core::iter::once(()) #block
                let y = &mut *ptr;
                let z = -1i64 + x.0 .1;
            }
        };
        let text = print_module(tokens, &file, "header").expect("round trip");
        let src_lines: Vec<&str> = src.lines().collect();
        let out_lines: Vec<&str> = text.lines().collect();
        // Every user token on its line and column.
        assert_eq!(line_of(&text, "///"), 3, "{text}");
        assert!(out_lines[2].starts_with("/// Scales."), "{text}");
        assert_eq!(line_of(&text, "fn scale"), 4, "{text}");
        let body = out_lines[6];
        assert_eq!(body.find("c[i]"), src_lines[6].find("c[i]"), "{text}");
        assert_eq!(body.find("a[i] * 2.0;"), src_lines[6].find("a[i] * 2.0;"), "{text}");
        assert_eq!(line_of(&text, "0..c.len()"), 5, "{text}");
        assert!(text.starts_with("// header\n"), "{text}");
        // The generated header joins the fn's line: no line is free before it.
        assert_eq!(line_of(&text, "#[no_mangle]"), 4, "{text}");
        // It reads like Rust: paths, generics, unary operators, calls.
        assert!(text.contains("::core::option::Option<u32>"), "{text}");
        assert!(text.contains("&mut *ptr"), "{text}");
        assert!(text.contains("::core::iter::once(())"), "{text}");
        assert!(text.contains("-1i64 + x.0 .1"), "{text}");
        // And parses as the same item.
        syn::parse_file(&text).expect("parses");
    }

    #[test]
    fn a_repeated_body_s_copy_names_its_source_columns() {
        let src = "fn f(a: &[u32], c: &mut [u32]) {\n    c[0] = a[0] / a[1];\n}\n";
        let (ts, file) = lex(src);
        let f: syn::ItemFn = syn::parse2(ts).expect("parses");
        let (block, sig) = (&f.block, &f.sig.ident);
        // The body twice (a lean twin, unrolled rounds): the second copy follows the first on
        // its line.
        let tokens = quote::quote! { fn #sig(a: &[u32], c: &mut [u32]) { #block #block } };
        let text = print_module(tokens, &file, "").expect("round trip");
        let line = text.lines().nth(1).unwrap();
        let (first, second) = (line.find("a[0] /").unwrap(), line.rfind("a[0] /").unwrap());
        assert_eq!(first, src.lines().nth(1).unwrap().find("a[0] /").unwrap(), "{text}");
        assert!(second > first, "{text}");
        // The last line's runs take the copy's printed columns to the source's (1-based): the
        // second `a` to the first's column; no run holds the first copy.
        let last = text.lines().last().unwrap();
        assert!(last.starts_with(COLUMNS_LINE), "{text}");
        let runs: Vec<Vec<usize>> = last[COLUMNS_LINE.len()..].split_whitespace().map(|r| r.split(':').map(|n| n.parse().unwrap()).collect()).collect();
        let source = |col: usize| runs.iter().find(|r| r[0] == 2 && (r[1]..=r[1] + r[4]).contains(&col)).map(|r| (r[2], r[3] + col - r[1]));
        assert_eq!(source(second + 1), Some((2, first + 1)), "{text}");
        assert_eq!(source(first + 1), None, "the first copy stands on its columns: {text}");
        // The PTX file's header line names the module's file.
        let header = columns_header(&[("src/f.rs".to_owned(), text.clone()), ("src/g.rs".to_owned(), "fn g() {}\n".to_owned())]);
        assert_eq!(header, format!("{COLUMNS_LINE} src/f.rs{}\n", &last[COLUMNS_LINE.len()..]));
    }

    #[test]
    fn hoisted_tokens_do_not_move_the_others() {
        let src = "fn f() {\n    let a = 1;\n    let b = 2;\n    let c = 3;\n}\n";
        let (ts, file) = lex(src);
        let f: syn::ItemFn = syn::parse2(ts).expect("parses");
        let stmts = &f.block.stmts;
        // The last statement first: the others keep their lines.
        let (s1, s2, s3) = (&stmts[0], &stmts[1], &stmts[2]);
        let tokens = quote::quote!(fn f() { #s3 #s1 #s2 });
        let text = print_module(tokens, &file, "").expect("round trip");
        assert_eq!(line_of(&text, "let a"), 2, "{text}");
        assert_eq!(line_of(&text, "let b"), 3, "{text}");
        assert!(line_of(&text, "let c") <= 2, "{text}");
        syn::parse_file(&text).expect("parses");
    }

    #[test]
    fn multi_line_literals_and_lifetimes() {
        let src = "fn f<'a>(x: &'a str) -> &'a str {\n    let s = \"one\ntwo\";\n    'outer: loop { break 'outer; }\n    x\n}\n";
        let (ts, file) = lex(src);
        let text = print_module(ts, &file, "").expect("round trip");
        assert_eq!(text, src);
    }

    #[test]
    fn generated_code_alone_reads_like_rust() {
        let tokens = quote::quote! {
            pub fn f<T: Copy>(a: &[T], i: usize) -> Option<T> {
                if i < a.len() && !a.is_empty() { Some(a[i]) } else { None }
            }
            const N: usize = 1 << 4;
            #[derive(Clone, Copy)]
            struct S { x: [u8; 4] }
        };
        let text = print_module(tokens, "<no file>", "").expect("round trip");
        assert_eq!(
            text,
            "pub fn f<T: Copy>(a: &[T], i: usize) -> Option<T> {\n    if i < a.len() && !a.is_empty() {\n        Some(a[i])\n    } else {\n        None\n    }\n}\nconst N: usize = 1 << 4;\n#[derive(Clone, Copy)]\nstruct S {\n    x: [u8; 4]\n}\n"
        );
    }
}
