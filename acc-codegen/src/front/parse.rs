//! The clause grammar: `name`, `name(args)`, separated by commas. Parsing is in two steps: a
//! generic clause list (so that an unknown or misplaced clause can be named precisely), then
//! each directive's interpretation into the typed model of [`crate::front::model`].

pub mod device_type;

use proc_macro2::{Span, TokenStream};
use syn::ext::IdentExt;
use syn::parse::discouraged::Speculative;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{parenthesized, Expr, Ident, LitInt, Token};

use self::device_type::Device;
use crate::front::model::*;
use crate::report::Errors;

/// One clause as written: its name and its parenthesised arguments, if any.
#[derive(Clone)]
pub struct RawClause {
    pub name: Ident,
    pub args: Option<TokenStream>,
    /// The parentheses around `args`, with their own spans: errors about missing or cut-off
    /// arguments point at them (an empty token stream has no span of its own, and its errors
    /// would land on the whole macro invocation).
    pub group: Option<proc_macro2::Group>,
}

impl RawClause {
    pub fn key(&self) -> String {
        self.name.unraw().to_string()
    }

    /// The span of the parenthesised arguments, `(..)` included; the name's without them.
    pub fn args_span(&self) -> Span {
        self.group.as_ref().map_or_else(|| self.name.span(), |g| g.span())
    }

    /// Parses the arguments with `parser`, which must take them all. An error at their end
    /// (`reduction(+:)`, `vector()`) is spanned on the closing parenthesis: the arguments are
    /// parsed inside their own parentheses, as syn does for a nested group.
    pub fn parse_args<T>(&self, parser: impl FnOnce(ParseStream) -> syn::Result<T>) -> syn::Result<T> {
        let group = self.group.clone().unwrap_or_else(|| proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, TokenStream::new()));
        let whole = |input: ParseStream| -> syn::Result<T> {
            let content;
            parenthesized!(content in input);
            let v = parser(&content)?;
            if !content.is_empty() {
                return Err(content.error("unexpected token"));
            }
            Ok(v)
        };
        whole.parse2(proc_macro2::TokenTree::Group(group).into())
    }
}

impl Parse for RawClause {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // `if` and `async` are keywords: accept any identifier, keywords included.
        let name = Ident::parse_any(input)?;
        let group = if input.peek(syn::token::Paren) {
            match input.parse::<proc_macro2::TokenTree>()? {
                proc_macro2::TokenTree::Group(g) => Some(g),
                _ => unreachable!("peeked a parenthesis"),
            }
        } else {
            None
        };
        let args = group.as_ref().map(|g| g.stream());
        Ok(RawClause { name, args, group })
    }
}

/// Parses `clause, clause, ...` (a trailing comma is fine).
pub fn parse_clause_list(tokens: TokenStream) -> syn::Result<Vec<RawClause>> {
    let list = Punctuated::<RawClause, Token![,]>::parse_terminated.parse2(tokens)?;
    Ok(list.into_iter().collect())
}

/// Parses clauses up to a `{ .. }` block, for `data!(copyin(a), create(b) { .. })`.
pub fn parse_clauses_then_block(input: ParseStream) -> syn::Result<(Vec<RawClause>, syn::Block)> {
    clauses_then_block(input, Directive::Data)
}

/// [`parse_clauses_then_block`] for `host_data!`.
pub fn parse_host_data(input: ParseStream) -> syn::Result<(Vec<RawClause>, syn::Block)> {
    clauses_then_block(input, Directive::HostData)
}

fn clauses_then_block(input: ParseStream, dir: Directive) -> syn::Result<(Vec<RawClause>, syn::Block)> {
    let mut clauses: Vec<RawClause> = Vec::new();
    while !input.peek(syn::token::Brace) {
        if input.is_empty() {
            let msg = match dir {
                Directive::HostData => "`host_data!` needs the block it covers after its clauses, as in `acc::host_data!(use_device(a) { .. })`",
                _ => "`data!` needs the block it covers after its clauses, as in `acc::data!(copyin(a) { .. })` (`enter_data!` opens data without a block)",
            };
            return Err(match clauses.last() {
                Some(last) => syn::Error::new(last.name.span(), msg),
                None => input.error(msg),
            });
        }
        clauses.push(input.parse::<RawClause>()?);
        if input.is_empty() {
            continue;
        }
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
        } else if !input.peek(syn::token::Brace) {
            return Err(input.error("expected `,` between clauses or a `{ .. }` block"));
        }
    }
    let block: syn::Block = input.parse()?;
    if !input.is_empty() {
        return Err(input.error(format!("unexpected tokens after the {} block", dir.name())));
    }
    Ok((clauses, block))
}

/// Which construct the clauses belong to; decides the accepted set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Directive {
    Parallel,
    Kernels,
    Serial,
    Loop,
    Data,
    EnterData,
    ExitData,
    Update,
    HostData,
    Declare,
    Routine,
}

impl Directive {
    pub fn name(self) -> &'static str {
        match self {
            Directive::Parallel => "parallel",
            Directive::Kernels => "kernels",
            Directive::Serial => "serial",
            Directive::Loop => "loop",
            Directive::Data => "data",
            Directive::EnterData => "enter_data",
            Directive::ExitData => "exit_data",
            Directive::Update => "update",
            Directive::HostData => "host_data",
            Directive::Declare => "declare",
            Directive::Routine => "routine",
        }
    }

    /// The clauses this directive accepts, in the order the error message lists them.
    pub fn accepted(self) -> &'static [&'static str] {
        match self {
            Directive::Parallel => &[
                "num_gangs", "num_workers", "vector_length", "async", "wait", "if", "self", "default",
                "copy", "copyin", "copyout", "create", "present", "no_create", "deviceptr", "private",
                "firstprivate", "reduction", "instances", "info",
            ],
            // info: `info` asks acc-build for the region's schedule report (acc-codegen's `info`).
            Directive::Kernels => &[
                "num_gangs", "num_workers", "vector_length", "async", "wait", "if", "self", "default",
                "copy", "copyin", "copyout", "create", "present", "no_create", "deviceptr", "instances", "info",
            ],
            Directive::Serial => &[
                "async", "wait", "if", "self", "default", "copy", "copyin", "copyout", "create",
                "present", "no_create", "deviceptr", "private", "firstprivate", "reduction", "instances", "info",
            ],
            Directive::Loop => &[
                "gang", "worker", "vector", "seq", "auto", "independent", "collapse", "tile",
                "private", "reduction",
            ],
            Directive::Data => &["copy", "copyin", "copyout", "create", "present", "no_create", "if", "async", "wait"],
            Directive::EnterData => &["copyin", "create", "if", "async", "wait"],
            Directive::ExitData => &["copyout", "delete", "finalize", "if", "async", "wait"],
            Directive::Update => &["host", "device", "self", "if_present", "if", "async", "wait"],
            Directive::HostData => &["use_device", "if", "if_present"],
            Directive::Declare => &["copy", "copyin", "copyout", "create", "present", "device_resident", "deviceptr", "link"],
            Directive::Routine => &["seq", "vector", "worker", "gang", "bind", "nohost"],
        }
    }

    /// Clauses that may appear more than once.
    fn repeatable(name: &str) -> bool {
        matches!(
            name,
            "copy" | "copyin" | "copyout" | "create" | "present" | "no_create" | "deviceptr" | "delete"
                | "private" | "firstprivate" | "reduction" | "host" | "device" | "self" | "use_device"
                | "device_resident" | "link"
        )
    }
}

/// The directive a clause misplaced on `dir` belongs on, to tell "misplaced" from "unknown".
/// The data directives look at each other first (`copyout` on `enter_data` belongs on
/// `exit_data`, not on `parallel`).
fn known_anywhere(dir: Directive, name: &str) -> Option<Directive> {
    use Directive::*;
    let first: &[Directive] = match dir {
        EnterData => &[ExitData, Data, Update],
        ExitData => &[EnterData, Data, Update],
        Data => &[EnterData, ExitData, Update],
        Update => &[EnterData, ExitData, Data],
        HostData => &[Data, EnterData, ExitData, Update],
        Declare => &[Data, EnterData, ExitData, Update],
        _ => &[],
    };
    first
        .iter()
        .copied()
        .chain([Loop, Parallel, Serial, Kernels, Data, EnterData, ExitData, Update, HostData, Declare, Routine])
        .find(|d| d.accepted().contains(&name))
}

/// A clause of `dir` within two edits of `name`: the likely intended spelling.
fn did_you_mean(dir: Directive, name: &str) -> Option<&'static str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let cur = row[j + 1];
                row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
                prev = cur;
            }
        }
        row[b.len()]
    }
    dir.accepted()
        .iter()
        .copied()
        .map(|c| (distance(name, c), c))
        .filter(|&(d, c)| d <= 2 && d < c.len().min(name.len()))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Filters a raw clause list down to the clauses `dir` accepts, reporting unknown, misplaced
/// and duplicate clauses (a duplicate is reported at its second occurrence).
pub fn screen(dir: Directive, clauses: Vec<RawClause>, errors: &mut Errors) -> Vec<RawClause> {
    let mut seen: Vec<String> = Vec::new();
    let mut kept = Vec::new();
    for clause in clauses {
        let key = clause.key();
        if !dir.accepted().contains(&key.as_str()) {
            let msg = match known_anywhere(dir, &key) {
                None if matches!(key.as_str(), "attach" | "detach") => format!(
                    "`{key}` has nothing to do in acc: data clauses take whole arrays of `DeviceCopy` elements, which hold no \
                     pointers to attach; name each array a struct holds in a clause of its own (`let u = &mut s.u;` then `copy(u)`)"
                ),
                Some(home) => format!(
                    "`{key}` is not allowed on `{}`{}; it belongs on `{}`",
                    dir.name(),
                    not_allowed_hint(dir),
                    home.name()
                ),
                None => format!(
                    "unknown clause `{key}` on `{}`; {}expected one of: {}",
                    dir.name(),
                    did_you_mean(dir, &key).map_or_else(String::new, |c| format!("did you mean `{c}`? ")),
                    dir.accepted().join(", ")
                ),
            };
            errors.push(syn::Error::new(clause.name.span(), msg));
            continue;
        }
        if seen.contains(&key) && !Directive::repeatable(&key) {
            errors.push(syn::Error::new(
                clause.name.span(),
                format!("duplicate `{key}` clause on `{}`", dir.name()),
            ));
            continue;
        }
        seen.push(key);
        kept.push(clause);
    }
    kept
}

fn not_allowed_hint(dir: Directive) -> String {
    match dir {
        Directive::Serial => " (a serial region runs one gang, one worker, vector length 1)".into(),
        Directive::Kernels => " (kernels regions choose their own schedules)".into(),
        Directive::Data | Directive::EnterData | Directive::ExitData | Directive::Update | Directive::HostData | Directive::Declare => {
            format!(", which takes {}", dir.accepted().join(", "))
        }
        _ => String::new(),
    }
}

fn no_args(clause: &RawClause, errors: &mut Errors) {
    if clause.args.is_some() {
        errors.push(syn::Error::new(
            clause.args_span(),
            format!("`{}` takes no arguments", clause.key()),
        ));
    }
}

fn need_args<'a>(clause: &'a RawClause, what: &str, errors: &mut Errors) -> Option<&'a TokenStream> {
    match &clause.args {
        Some(args) if !args.is_empty() => Some(args),
        Some(_) => {
            errors.push(syn::Error::new(
                clause.args_span(),
                format!("`{}` needs {what} inside the parentheses", clause.key()),
            ));
            None
        }
        None => {
            errors.push(syn::Error::new(
                clause.name.span(),
                format!("`{}` needs an argument: `{}({what})`", clause.key(), clause.key()),
            ));
            None
        }
    }
}

/// The clause's arguments parsed by `parser` (see [`RawClause::parse_args`]), or `None` with
/// the error reported.
pub(crate) fn parse_or_report<T>(
    clause: &RawClause,
    parser: impl FnOnce(ParseStream) -> syn::Result<T>,
    errors: &mut Errors,
) -> Option<T> {
    match clause.parse_args(parser) {
        Ok(v) => Some(v),
        Err(e) => {
            errors.push(e);
            None
        }
    }
}

/// An integer-valued clause argument; a literal zero or negative is rejected at compile time.
/// `num_gangs(n)`, and in `parallel` OpenACC 3.3's `num_gangs(n1, n2, n3)`: the gangs of each
/// grid dimension (`gang(dim: d)` spreads a loop over dimension `d`'s).
fn gang_counts(dir: Directive, clause: &RawClause, errors: &mut Errors) -> Vec<Expr> {
    if need_args(clause, "an integer expression", errors).is_none() {
        return Vec::new();
    }
    let Some(list) = parse_or_report(clause, Punctuated::<Expr, Token![,]>::parse_terminated, errors) else { return Vec::new() };
    let counts: Vec<Expr> = list.into_iter().collect();
    if let Some(extra) = counts.get(1).filter(|_| dir != Directive::Parallel) {
        errors.error(
            extra.span(),
            format!("`num_gangs` takes one value on `{}`: its loops set their own gangs (`gang(n)`); several values are `parallel`'s, for `gang(dim: d)`", dir.name()),
        );
        return Vec::new();
    }
    if let Some(extra) = counts.get(3) {
        errors.error(extra.span(), "`num_gangs` takes at most three values, the gangs of grid dimensions 1, 2 and 3");
        return Vec::new();
    }
    if counts.is_empty() {
        errors.error(clause.args_span(), "`num_gangs` needs an integer expression");
    }
    let positive = counts.iter().filter(|e| positive_literal(e, "num_gangs", errors)).count();
    if positive < counts.len() {
        return Vec::new();
    }
    counts
}

fn positive_expr(clause: &RawClause, errors: &mut Errors) -> Option<Expr> {
    need_args(clause, "an integer expression", errors)?;
    let expr: Expr = parse_or_report(clause, Expr::parse, errors)?;
    positive_literal(&expr, &clause.key(), errors).then_some(expr)
}

/// Whether `expr` may be a count: `false` (reported) for a literal 0 or a negative one.
fn positive_literal(expr: &Expr, key: &str, errors: &mut Errors) -> bool {
    // A literal is checked here: 0 or a negative one (which a cast would wrap to a huge count).
    let (lit, negative) = match &expr {
        Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(lit), .. }) => (Some(lit), false),
        Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr: inner, .. }) => match &**inner {
            Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(lit), .. }) => (Some(lit), true),
            _ => (None, false),
        },
        _ => (None, false),
    };
    if let Some(lit) = lit {
        if negative || lit.base10_parse::<u64>().map_or(true, |v| v == 0) {
            errors.push(syn::Error::new(expr.span(), format!("`{key}` must be at least 1")));
            return false;
        }
    }
    true
}

fn ident_list(clause: &RawClause, errors: &mut Errors) -> Vec<Ident> {
    if need_args(clause, "variable names", errors).is_none() {
        return Vec::new();
    }
    parse_or_report(clause, Punctuated::<Ident, Token![,]>::parse_terminated, errors)
        .map(|p| p.into_iter().collect())
        .unwrap_or_default()
}

/// A variable of a `data!`, `enter_data!` or `exit_data!` clause: a name. A field path or a
/// section is a compile error on its `.` or `[` saying what to write instead.
fn data_var(input: ParseStream) -> syn::Result<Ident> {
    let ident: Ident = input.parse()?;
    let binding = if input.peek(Token![.]) {
        let ahead = input.fork();
        ahead.parse::<Token![.]>()?;
        let field = match ahead.parse::<syn::Member>() {
            Ok(syn::Member::Named(m)) => m.to_string(),
            Ok(syn::Member::Unnamed(m)) => m.index.to_string(),
            Err(_) => "u".to_string(),
        };
        format!("`let {field} = &mut {ident}.{field};`")
    } else if input.peek(syn::token::Bracket) {
        format!("`let s = &mut {ident}[lo..hi];`")
    } else {
        return Ok(ident);
    };
    Err(input.error(format!(
        "data clauses of `data!`, `declare!`, `enter_data!` and `exit_data!` take variable names: bind it to one first, \
         {binding} (a `let mut` binding where the clause writes back), and name that; `update!` takes fields \
         and sections as they are"
    )))
}

fn data_clause(kind: DataKind, clause: &RawClause, errors: &mut Errors) -> DataClause {
    let (mods, vars) = modified_vars(clause, data_var, errors);
    let modifiers = data_modifiers(kind, &mods, errors);
    DataClause { kind, span: clause.name.span(), vars: vars.into_iter().map(|ident| Var { ident }).collect(), modifiers }
}

/// The modifiers before a data clause's `:` (`always, readonly: a, b`), or none where the
/// clause starts with its variables.
fn modifier_list(input: ParseStream) -> syn::Result<Vec<Ident>> {
    let ahead = input.fork();
    let mut mods = Vec::new();
    loop {
        if !ahead.peek(Ident) {
            return Ok(Vec::new());
        }
        mods.push(ahead.parse::<Ident>()?);
        if ahead.peek(Token![:]) && !ahead.peek(Token![::]) {
            ahead.parse::<Token![:]>()?;
            input.advance_to(&ahead);
            return Ok(mods);
        }
        if !ahead.peek(Token![,]) {
            return Ok(Vec::new());
        }
        ahead.parse::<Token![,]>()?;
    }
}

/// The modifiers `mods` of a `kind` clause, each checked against those the clause takes.
fn data_modifiers(kind: DataKind, mods: &[Ident], errors: &mut Errors) -> DataModifiers {
    let takes: &[&str] = match kind {
        DataKind::Copy => &["always", "alwaysin", "alwaysout", "capture"],
        DataKind::CopyIn => &["always", "alwaysin", "readonly", "capture"],
        DataKind::CopyOut => &["always", "alwaysout", "zero", "capture"],
        DataKind::Create => &["zero", "capture"],
        _ => &[],
    };
    let mut m = DataModifiers::default();
    let mut seen: Vec<String> = Vec::new();
    for id in mods {
        let name = id.to_string();
        if seen.contains(&name) {
            errors.error(id.span(), format!("duplicate modifier `{name}`"));
            continue;
        }
        seen.push(name.clone());
        if !takes.contains(&name.as_str()) {
            let known = ["always", "alwaysin", "alwaysout", "readonly", "zero", "capture"].contains(&name.as_str());
            let what = if takes.is_empty() { format!("`{}` takes no modifiers", kind.name()) } else { format!("`{}` takes {}", kind.name(), takes.join(", ")) };
            errors.error(id.span(), if known { format!("the modifier `{name}` does not apply here: {what}") } else { format!("unknown modifier `{name}`: {what}") });
            continue;
        }
        match name.as_str() {
            "always" => {
                m.always_in |= matches!(kind, DataKind::Copy | DataKind::CopyIn);
                m.always_out |= matches!(kind, DataKind::Copy | DataKind::CopyOut);
            }
            "alwaysin" => m.always_in = true,
            "alwaysout" => m.always_out = true,
            "zero" => m.zero = true,
            // `readonly`, `capture`: nothing to do (see `DataModifiers`).
            _ => {}
        }
    }
    m
}

/// The name of a variable or field path (`a`, `self`, `f.u`, `s.a.0`), or `None` for any
/// other expression.
fn path_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => p.path.get_ident().map(|i| i.to_string()),
        Expr::Field(f) if f.attrs.is_empty() => {
            let member = match &f.member {
                syn::Member::Named(i) => i.to_string(),
                syn::Member::Unnamed(i) => i.index.to_string(),
            };
            Some(format!("{}.{member}", path_name(&f.base)?))
        }
        _ => None,
    }
}

/// One place of an `update!` clause (see [`Place`]); a compile error spanned on what is not
/// a name, field path or section of one.
fn place(e: Expr) -> syn::Result<Place> {
    const WHAT: &str = "`update!` takes a variable `a`, a field `f.u` or a section `a[lo..hi]`";
    match e {
        Expr::Index(ix) => {
            let name = path_name(&ix.expr).ok_or_else(|| syn::Error::new(ix.expr.span(), WHAT))?;
            let Expr::Range(range) = *ix.index else {
                return Err(syn::Error::new(
                    ix.index.span(),
                    "a section is an element range: `a[lo..hi]`, `a[lo..]`, `a[..hi]` (for one element, `a[i..i + 1]`)",
                ));
            };
            let bound = |b: &Option<Box<Expr>>| b.as_ref().map(|b| quote::ToTokens::to_token_stream(b).to_string()).unwrap_or_default();
            let dots = match range.limits {
                syn::RangeLimits::HalfOpen(_) => "..",
                syn::RangeLimits::Closed(_) => "..=",
            };
            let name = format!("{name}[{}{dots}{}]", bound(&range.start), bound(&range.end));
            Ok(Place { base: *ix.expr, range: Some(range), name })
        }
        e => {
            let name = path_name(&e).ok_or_else(|| syn::Error::new(e.span(), WHAT))?;
            Ok(Place { base: e, range: None, name })
        }
    }
}

/// The places of an `update!` clause with arguments: `host(a, f.u, b[lo..hi])`.
pub(crate) fn place_list(clause: &RawClause, errors: &mut Errors) -> Vec<Place> {
    let exprs = parse_or_report(clause, Punctuated::<Expr, Token![,]>::parse_terminated, errors).unwrap_or_default();
    exprs
        .into_iter()
        .filter_map(|e| match place(e) {
            Ok(p) => Some(p),
            Err(e) => {
                errors.push(e);
                None
            }
        })
        .collect()
}

/// A variable of a region clause: a name, or `self.field` in a method region (the field's
/// stand-in name, see [`crate::front::method`]).
fn region_var(input: ParseStream) -> syn::Result<Ident> {
    if input.peek(Token![self]) && input.peek2(Token![.]) {
        input.parse::<Token![self]>()?;
        input.parse::<Token![.]>()?;
        let member: syn::Member = input.parse()?;
        return Ok(crate::front::method::field_ident(&member));
    }
    input.parse()
}

/// The variables of a region's clause: names and `self.field`s.
fn region_var_list(clause: &RawClause, errors: &mut Errors) -> Vec<Ident> {
    if need_args(clause, "variable names", errors).is_none() {
        return Vec::new();
    }
    parse_or_report(clause, |input: ParseStream| Punctuated::<Ident, Token![,]>::parse_terminated_with(input, region_var), errors)
        .map(|p| p.into_iter().collect())
        .unwrap_or_default()
}

/// A data clause's modifiers (see [`modifier_list`]) and its variables, each read by `var`
/// (`data_var` for the data directives, `region_var` for a region's clauses).
fn modified_vars(clause: &RawClause, var: fn(ParseStream) -> syn::Result<Ident>, errors: &mut Errors) -> (Vec<Ident>, Vec<Ident>) {
    if need_args(clause, "variable names", errors).is_none() {
        return (Vec::new(), Vec::new());
    }
    parse_or_report(
        clause,
        |input: ParseStream| {
            let mods = modifier_list(input)?;
            Ok((mods, Punctuated::<Ident, Token![,]>::parse_terminated_with(input, var)?))
        },
        errors,
    )
    .map(|(m, p)| (m, p.into_iter().collect()))
    .unwrap_or_default()
}

/// `instances(f32, f64)` or `instances(<f32, u32>, <f64, u64>)`: the generic arguments of each
/// instance of a generic region.
fn instances(clause: &RawClause, errors: &mut Errors) -> Option<(Span, Vec<Instance>)> {
    need_args(clause, "the generic arguments of each instance, as in `instances(f32, f64)`", errors)?;
    let one = |input: ParseStream| -> syn::Result<Instance> {
        let span = input.span();
        if input.peek(Token![<]) {
            input.parse::<Token![<]>()?;
            let mut args = Vec::new();
            while !input.peek(Token![>]) {
                args.push(input.parse::<syn::GenericArgument>()?);
                if !input.peek(Token![>]) {
                    input.parse::<Token![,]>()?;
                }
            }
            input.parse::<Token![>]>()?;
            Ok(Instance { span, args })
        } else {
            Ok(Instance { span, args: vec![input.parse::<syn::GenericArgument>()?] })
        }
    };
    let list = parse_or_report(clause, |input: ParseStream| Punctuated::<Instance, Token![,]>::parse_terminated_with(input, one), errors)?;
    Some((clause.name.span(), list.into_iter().collect()))
}

fn data_kind(key: &str) -> Option<DataKind> {
    Some(match key {
        "copy" => DataKind::Copy,
        "copyin" => DataKind::CopyIn,
        "copyout" => DataKind::CopyOut,
        "create" => DataKind::Create,
        "present" => DataKind::Present,
        "deviceptr" => DataKind::DevicePtr,
        "delete" => DataKind::Delete,
        "no_create" => DataKind::NoCreate,
        _ => return None,
    })
}

/// `op: a, b`.
struct ReductionArgs(Reduction);

impl Parse for ReductionArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let expected = "expected a reduction operator: one of + * max min & | ^ && ||";
        let (op, op_span) = if input.peek(Token![&&]) {
            (RedOp::And, input.parse::<Token![&&]>()?.spans[0])
        } else if input.peek(Token![||]) {
            (RedOp::Or, input.parse::<Token![||]>()?.spans[0])
        } else if input.peek(Token![+]) {
            (RedOp::Add, input.parse::<Token![+]>()?.span)
        } else if input.peek(Token![*]) {
            (RedOp::Mul, input.parse::<Token![*]>()?.span)
        } else if input.peek(Token![&]) {
            (RedOp::BitAnd, input.parse::<Token![&]>()?.span)
        } else if input.peek(Token![|]) {
            (RedOp::BitOr, input.parse::<Token![|]>()?.span)
        } else if input.peek(Token![^]) {
            (RedOp::BitXor, input.parse::<Token![^]>()?.span)
        } else if input.peek(Ident::peek_any) {
            let id = Ident::parse_any(input)?;
            match id.to_string().as_str() {
                "max" => (RedOp::Max, id.span()),
                "min" => (RedOp::Min, id.span()),
                other => {
                    return Err(syn::Error::new(
                        id.span(),
                        format!("unknown reduction operator `{other}`; {expected}"),
                    ))
                }
            }
        } else if input.is_empty() {
            return Err(input.error(format!("{expected}, then `:` and the variables")));
        } else {
            let tt: proc_macro2::TokenTree = input.parse()?;
            return Err(syn::Error::new(
                tt.span(),
                format!("unknown reduction operator `{tt}`; {expected}"),
            ));
        };
        if !input.peek(Token![:]) {
            return Err(input.error(format!(
                "expected `:` after the reduction operator, as in `reduction({}: s)`",
                op.symbol()
            )));
        }
        input.parse::<Token![:]>()?;
        let vars = Punctuated::<(Ident, Option<Section>), Token![,]>::parse_terminated_with(input, reduction_var)?;
        if vars.is_empty() {
            return Err(input.error("expected the reduction variables after `:`"));
        }
        let (vars, sections): (Vec<Ident>, Vec<Option<Section>>) = vars.into_iter().unzip();
        Ok(ReductionArgs(Reduction { op, op_span, vars, sections: sections.into_iter().flatten().collect() }))
    }
}

/// A reduction variable: a name (a scalar, or an array `[T; N]` reduced element by element),
/// or a section of an array, `q[lo..hi]` (`lo..=hi`, `lo..`, `..hi`, `..`; OpenACC's
/// `q[lo:len]`), whose elements the loop reduces.
fn reduction_var(input: ParseStream) -> syn::Result<(Ident, Option<Section>)> {
    let var: Ident = input.parse()?;
    if !input.peek(syn::token::Bracket) {
        return Ok((var, None));
    }
    let inside;
    let brackets = syn::bracketed!(inside in input);
    let span = brackets.span.join();
    let range = match inside.parse::<Expr>() {
        Ok(Expr::Range(r)) if inside.is_empty() => r,
        _ => {
            return Err(syn::Error::new(
                span,
                format!("a section in `reduction` is a range of the array's indices, as in `reduction(+: {var}[lo..hi])` (`lo..=hi`, `lo..`, `..hi` too)"),
            ))
        }
    };
    let inclusive = matches!(range.limits, syn::RangeLimits::Closed(_));
    let end = |e: &Option<Box<Expr>>| e.as_ref().map_or_else(String::new, |e| quote::ToTokens::to_token_stream(e).to_string());
    let text = format!("{var}[{}{}{}]", end(&range.start), if inclusive { "..=" } else { ".." }, end(&range.end));
    Ok((var.clone(), Some(Section { var, lo: range.start.map(|e| *e), hi: range.end.map(|e| *e), inclusive, span, text })))
}

fn reduction(clause: &RawClause, errors: &mut Errors) -> Option<Reduction> {
    need_args(clause, "op: vars", errors)?;
    parse_or_report(clause, ReductionArgs::parse, errors).map(|r| r.0)
}

/// `async` (`None`) or `async(q)`.
fn async_queue(clause: &RawClause, errors: &mut Errors) -> Option<Expr> {
    match &clause.args {
        None => None,
        Some(_) => parse_or_report(clause, Expr::parse, errors),
    }
}

/// `wait` (empty: every queue) or `wait(q, ..)`.
fn wait_queues(clause: &RawClause, errors: &mut Errors) -> Vec<Expr> {
    match &clause.args {
        None => Vec::new(),
        Some(_) => parse_or_report(clause, Punctuated::<Expr, Token![,]>::parse_terminated, errors).map(|p| p.into_iter().collect()).unwrap_or_default(),
    }
}

/// `if(cond)`.
fn if_condition(clause: &RawClause, errors: &mut Errors) -> Option<Expr> {
    need_args(clause, "a `bool` condition", errors)?;
    parse_or_report(clause, Expr::parse, errors)
}

/// The `if`, `async` and `wait` clauses of a data directive (`data!`, `enter_data!`,
/// `exit_data!`, `update!`).
#[derive(Default)]
pub struct DataControl {
    pub if_: Option<Expr>,
    /// `async` alone (`Some(None)`) or `async(q)`.
    pub async_: Option<Option<Expr>>,
    /// `wait` alone (`Some(vec![])`) or `wait(q, ..)`.
    pub wait: Option<Vec<Expr>>,
}

impl DataControl {
    /// Takes `clause` when it is one of `if`, `async`, `wait`.
    pub fn take(&mut self, clause: &RawClause, errors: &mut Errors) -> bool {
        match clause.key().as_str() {
            "if" => self.if_ = if_condition(clause, errors),
            "async" => self.async_ = Some(async_queue(clause, errors)),
            "wait" => self.wait = Some(wait_queues(clause, errors)),
            _ => return false,
        }
        true
    }
}

/// Interprets the clauses of `parallel`, `kernels` or `serial`.
pub fn region_directive(kind: RegionKind, attr: TokenStream, errors: &mut Errors) -> RegionDirective {
    let dir = match kind {
        RegionKind::Parallel => Directive::Parallel,
        RegionKind::Kernels => Directive::Kernels,
        RegionKind::Serial => Directive::Serial,
    };
    let raw = match parse_clause_list(attr) {
        Ok(raw) => raw,
        Err(e) => {
            errors.push(e);
            Vec::new()
        }
    };
    let parts = device_type::partition(dir, raw, errors);
    // The directive is the GPU's (`nvidia`); the host backend has no gangs, workers or lanes
    // to size, and runs a region before the call returns, so of a `host` group only the
    // counts matter: they are type-checked.
    let mut c = region_clauses(dir, parts.select(Device::Nvidia, &[]), errors);
    if parts.any() && !std::ptr::eq(parts.group(Device::Host), parts.group(Device::Nvidia)) {
        // The host's `async(q)` and `wait(q)` are type-checked too: the host backend runs a
        // region before the call returns (which `async` allows) and has no queue of its own
        // to wait for.
        let h = region_clauses(dir, parts.only(Device::Host), errors);
        c.host_counts = [h.num_gangs, h.num_workers, h.vector_length].into_iter().flatten().chain(h.more_gangs).collect();
        c.host_queues = h.async_.into_iter().flatten().chain(h.wait.into_iter().flatten()).collect();
    }
    RegionDirective { kind, clauses: c }
}

/// Interprets screened region clauses.
fn region_clauses(dir: Directive, clauses: Vec<RawClause>, errors: &mut Errors) -> RegionClauses {
    let mut c = RegionClauses::default();
    for clause in clauses {
        let key = clause.key();
        match key.as_str() {
            "num_gangs" => {
                let mut counts = gang_counts(dir, &clause, errors).into_iter();
                c.num_gangs = counts.next();
                c.more_gangs = counts.collect();
            }
            "num_workers" => c.num_workers = positive_expr(&clause, errors),
            "vector_length" => c.vector_length = positive_expr(&clause, errors),
            "async" => c.async_ = Some(async_queue(&clause, errors)),
            "wait" => c.wait = Some(wait_queues(&clause, errors)),
            "if" => c.if_ = if_condition(&clause, errors),
            // OpenACC 2.7's `self` on a compute construct: run it on the host (when the
            // condition holds).
            "self" if c.self_.is_some() => {
                errors.push(syn::Error::new(clause.name.span(), format!("duplicate `self` clause on `{}`", dir.name())));
            }
            "self" => {
                let cond = match &clause.args {
                    None => None,
                    Some(_) => parse_or_report(&clause, Expr::parse, errors),
                };
                c.self_ = Some((clause.name.span(), cond));
            }
            // info: the schedule report of this region, printed by acc-build.
            "info" => {
                no_args(&clause, errors);
                c.info = Some(clause.name.span());
            }
            "default" => {
                if need_args(&clause, "`none` or `present`", errors).is_some() {
                    match parse_or_report(&clause, Ident::parse_any, errors) {
                        Some(id) if id == "none" => c.default = Some((DefaultKind::None, id.span())),
                        Some(id) if id == "present" => {
                            c.default = Some((DefaultKind::Present, id.span()))
                        }
                        Some(id) => errors.push(syn::Error::new(
                            id.span(),
                            format!("unknown default `{id}`; expected `none` or `present`"),
                        )),
                        None => {}
                    }
                }
            }
            "private" => c.private.extend(region_var_list(&clause, errors)),
            "firstprivate" => c.firstprivate.extend(region_var_list(&clause, errors)),
            "reduction" => c.reduction.extend(reduction(&clause, errors)),
            "instances" => c.instances = instances(&clause, errors),
            other => {
                let kind = data_kind(other).expect("screened clause list");
                let (mods, vars) = modified_vars(&clause, region_var, errors);
                let modifiers = data_modifiers(kind, &mods, errors);
                c.data.push(DataClause { kind, span: clause.name.span(), vars: vars.into_iter().map(|ident| Var { ident }).collect(), modifiers });
            }
        }
    }
    c
}

/// The argument names of the level clauses (OpenACC 3.3's spelled forms).
mod kw {
    syn::custom_keyword!(dim);
    syn::custom_keyword!(num);
    syn::custom_keyword!(length);
    syn::custom_keyword!(force);
}

/// `gang`, `gang(n)`, `gang(num: n)`, `gang(dim: d)`, `gang(static: n)`, `gang(static: *)`,
/// `worker(n)`, `worker(num: n)`, `vector(n)`, `vector(length: n)`.
fn level_clause(clause: &RawClause, errors: &mut Errors) -> LevelClause {
    let mut level = LevelClause { span: clause.name.span(), size: None, dim: None, chunk: None };
    if clause.args.is_none() {
        return level;
    }
    let key = clause.key();
    let parsed = clause.parse_args(|input: ParseStream| -> syn::Result<()> {
        if input.is_empty() {
            return Err(syn::Error::new(
                clause.args_span(),
                format!("empty parentheses: write `{key}` or `{key}(n)`"),
            ));
        }
        if !(input.peek(Ident::peek_any) || input.peek(Token![static])) || !input.peek2(Token![:]) {
            level.size = Some(input.parse()?);
            return Ok(());
        }
        let look = input.lookahead1();
        match key.as_str() {
            "gang" if look.peek(kw::dim) => {
                input.parse::<kw::dim>()?;
                input.parse::<Token![:]>()?;
                let lit: LitInt = input.parse()?;
                let d: u32 = lit.base10_parse()?;
                if !(1..=3).contains(&d) {
                    return Err(syn::Error::new(lit.span(), "`gang(dim: d)` takes d = 1, 2 or 3"));
                }
                level.dim = Some(d);
            }
            "gang" | "worker" if look.peek(kw::num) => {
                input.parse::<kw::num>()?;
                input.parse::<Token![:]>()?;
                level.size = Some(input.parse()?);
            }
            "vector" if look.peek(kw::length) => {
                input.parse::<kw::length>()?;
                input.parse::<Token![:]>()?;
                level.size = Some(input.parse()?);
            }
            "gang" if look.peek(Token![static]) => {
                let at = input.parse::<Token![static]>()?.span;
                input.parse::<Token![:]>()?;
                let size = if input.peek(Token![*]) {
                    input.parse::<Token![*]>()?;
                    None
                } else {
                    let e: Expr = input.parse()?;
                    if !matches!(e, Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(_), .. })) {
                        return Err(syn::Error::new(e.span(), "`gang(static: n)` takes an integer literal chunk size (`gang(static: 64)`) or `*` (acc chooses)"));
                    }
                    Some(e)
                };
                level.chunk = Some((at, size));
            }
            _ => {
                let forms = match key.as_str() {
                    "gang" => "`gang(n)`, `gang(num: n)`, `gang(dim: d)`, `gang(static: n)`, `gang(static: *)`",
                    "worker" => "`worker(n)`, `worker(num: n)`",
                    _ => "`vector(n)`, `vector(length: n)`",
                };
                let e = look.error();
                return Err(syn::Error::new(e.span(), format!("{e}: `{key}` takes {forms}")));
            }
        }
        Ok(())
    });
    if let Err(e) = parsed {
        errors.push(e);
    }
    level
}

/// `collapse(n)` or `collapse(force: n)`: the `force` token's span and `n`.
fn collapse_args(input: ParseStream) -> syn::Result<(Option<Span>, usize)> {
    let force = if input.peek(kw::force) {
        let at = input.parse::<kw::force>()?.span;
        input.parse::<Token![:]>()?;
        Some(at)
    } else {
        None
    };
    let lit: LitInt = input.parse().map_err(|e| {
        syn::Error::new(e.span(), "`collapse(n)` takes an integer literal: the number of tightly nested loops")
    })?;
    let n: usize = lit.base10_parse()?;
    if n == 0 {
        return Err(syn::Error::new(lit.span(), "`collapse(n)` needs n >= 1"));
    }
    Ok((force, n))
}

/// One size of `tile(..)`: an expression or `*` (OpenACC's implementation-chosen size).
enum TileSize {
    Expr(Box<Expr>),
    Star(Span),
}

impl Parse for TileSize {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(Token![*]) {
            return Ok(TileSize::Star(input.parse::<Token![*]>()?.span));
        }
        input.parse().map(|e| TileSize::Expr(Box::new(e)))
    }
}

/// The sizes acc chooses for `tile(*)`, innermost loop first: the block of threads a tile is
/// on the GPU, 32 x 8 x 4 (at most 1024 threads, 64 in `z`).
pub const TILE_STAR: [u64; 3] = [32, 8, 4];

/// `tile(..)`'s sizes as expressions, each `*` the literal of [`TILE_STAR`] for its position
/// (the first size is the innermost loop's), spanned on the `*`; a literal 0 is an error.
fn tile_sizes(sizes: Vec<TileSize>, errors: &mut Errors) -> Vec<Expr> {
    sizes
        .into_iter()
        .enumerate()
        .map(|(i, size)| match size {
            TileSize::Star(span) => {
                let n = TILE_STAR.get(i).copied().unwrap_or(1);
                Expr::Lit(syn::ExprLit { attrs: Vec::new(), lit: syn::Lit::Int(LitInt::new(&n.to_string(), span)) })
            }
            TileSize::Expr(e) => {
                if let Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(l), .. }) = &*e {
                    if l.base10_parse::<u64>().map_or(true, |v| v == 0) {
                        errors.push(syn::Error::new(l.span(), "tile sizes must be at least 1"));
                    }
                }
                *e
            }
        })
        .collect()
}

/// Interprets `#[acc::r#loop(..)]`.
pub fn loop_directive(span: Span, attr: TokenStream, errors: &mut Errors) -> LoopDirective {
    let raw = match parse_clause_list(attr) {
        Ok(raw) => raw,
        Err(e) => {
            errors.push(e);
            Vec::new()
        }
    };
    let parts = device_type::partition(Directive::Loop, raw, errors);
    let mut d = loop_clauses(span, parts.select(Device::Nvidia, LEVELS), errors);
    if parts.any() {
        // The host's group decides only whether the host runs the loop in order.
        if !std::ptr::eq(parts.group(Device::Host), parts.group(Device::Nvidia)) {
            loop_clauses(span, parts.only(Device::Host), errors);
        }
        let host = loop_clauses(span, parts.select(Device::Host, LEVELS), &mut Errors::default());
        d.host_seq = Some(host.seq.is_some());
    }
    d
}

/// The level clauses of a loop or routine: a `device_type` group with one of them replaces
/// those before the first `device_type`.
const LEVELS: &[&str] = &["gang", "worker", "vector", "seq", "auto"];

/// Interprets screened loop clauses.
fn loop_clauses(span: Span, clauses: Vec<RawClause>, errors: &mut Errors) -> LoopDirective {
    let mut d = LoopDirective { span: Some(span), ..LoopDirective::default() };
    for clause in clauses {
        match clause.key().as_str() {
            "gang" => d.gang = Some(level_clause(&clause, errors)),
            "worker" => d.worker = Some(level_clause(&clause, errors)),
            "vector" => d.vector = Some(level_clause(&clause, errors)),
            "seq" => {
                no_args(&clause, errors);
                d.seq = Some(clause.name.span())
            }
            "auto" => {
                no_args(&clause, errors);
                d.auto = Some(clause.name.span())
            }
            "independent" => {
                no_args(&clause, errors);
                d.independent = Some(clause.name.span())
            }
            "collapse" => {
                if need_args(&clause, "the number of loops", errors).is_some() {
                    if let Some((force, n)) = parse_or_report(&clause, collapse_args, errors) {
                        d.collapse = Some((clause.name.span(), n));
                        d.collapse_force = force;
                    }
                }
            }
            "tile" => {
                if need_args(&clause, "tile sizes", errors).is_some() {
                    if let Some(sizes) =
                        parse_or_report(&clause, Punctuated::<TileSize, Token![,]>::parse_terminated, errors)
                    {
                        let sizes = tile_sizes(sizes.into_iter().collect(), errors);
                        d.tile = Some((clause.name.span(), sizes));
                    }
                }
            }
            "private" => d.private.extend(ident_list(&clause, errors)),
            "reduction" => match reduction(&clause, errors) {
                Some(r) => d.reduction.push(r),
                None => d.malformed_reduction = true,
            },
            _ => unreachable!("screened clause list"),
        }
    }
    d
}

/// Interprets the clause list of `declare!`. `device_resident` is `create` (a local's host
/// memory exists anyway; only its device copy is used); `link` and `deviceptr` are errors that
/// say what to write.
pub fn declare_clauses(raw: Vec<RawClause>, errors: &mut Errors) -> Vec<DataClause> {
    let mut out = Vec::new();
    for clause in screen(Directive::Declare, raw, errors) {
        let kind = match clause.key().as_str() {
            "device_resident" => DataKind::Create,
            "link" => {
                errors.error(
                    clause.name.span(),
                    "`link` is for global variables that device code reaches by name; an acc region reaches the data it \
                     changes through its parameters (immutable `static`s and `const`s are compiled into the device code): \
                     pass the array to the region, and name it in `declare!(create(a))`, `copyin(a)` or `copy(a)` \
                     where it should become present",
                );
                continue;
            }
            "deviceptr" => {
                errors.error(
                    clause.name.span(),
                    "`deviceptr` has nothing to declare: an `acc::DeviceSlice` is device memory already, which a region \
                     takes as a `&acc::DeviceSlice<T>` parameter",
                );
                continue;
            }
            key => data_kind(key).expect("screened clause list"),
        };
        out.push(data_clause(kind, &clause, errors));
    }
    out
}

/// Interprets the clause list of `data!`, `enter_data!`, `exit_data!`; `finalize` is returned
/// separately.
pub fn data_clauses(dir: Directive, raw: Vec<RawClause>, errors: &mut Errors) -> (Vec<DataClause>, Option<Span>, DataControl) {
    let mut out = Vec::new();
    let mut finalize = None;
    let mut control = DataControl::default();
    for clause in screen(dir, raw, errors) {
        if control.take(&clause, errors) {
            continue;
        }
        let key = clause.key();
        if key == "finalize" {
            no_args(&clause, errors);
            finalize = Some(clause.name.span());
            continue;
        }
        let kind = data_kind(&key).expect("screened clause list");
        out.push(data_clause(kind, &clause, errors));
    }
    (out, finalize, control)
}

/// `#[acc::routine(..)]`: one level (for each device type), `bind(g)`, `nohost`.
pub fn routine_directive(attr: TokenStream, errors: &mut Errors) -> RoutineDirective {
    let raw = match parse_clause_list(attr) {
        Ok(raw) => raw,
        Err(e) => {
            errors.push(e);
            return RoutineDirective { level: RoutineLevel::Seq, bind: None, nohost: None };
        }
    };
    let parts = device_type::partition(Directive::Routine, raw, errors);
    let gpu = routine_clauses(parts.select(Device::Nvidia, LEVELS), errors);
    if parts.any() && !std::ptr::eq(parts.group(Device::Host), parts.group(Device::Nvidia)) {
        // The host runs a routine's loops in order whatever its level, and calls the routine
        // itself: its group's level is only checked.
        let host = parts.only(Device::Host);
        for b in host.iter().filter(|c| c.key() == "bind") {
            errors.error(b.name.span(), "`bind` for the host is not supported: the host calls the routine itself (and so does the host backend's region); `bind` names what the GPU calls, write it after `device_type(nvidia)` or before the first `device_type`");
        }
        routine_clauses(host, errors);
    }
    gpu
}

fn routine_clauses(clauses: Vec<RawClause>, errors: &mut Errors) -> RoutineDirective {
    let mut d = RoutineDirective { level: RoutineLevel::Seq, bind: None, nohost: None };
    let mut level: Option<Span> = None;
    for c in clauses {
        match c.key().as_str() {
            "bind" => d.bind = bind(&c, errors),
            "nohost" => {
                no_args(&c, errors);
                d.nohost = Some(c.name.span());
            }
            key => {
                no_args(&c, errors);
                if level.is_some() {
                    errors.error(c.name.span(), "a routine has one level: `seq`, `vector`, `worker` or `gang`");
                    continue;
                }
                level = Some(c.name.span());
                d.level = match key {
                    "vector" => RoutineLevel::Vector,
                    "worker" => RoutineLevel::Worker,
                    "gang" => RoutineLevel::Gang,
                    _ => RoutineLevel::Seq,
                };
            }
        }
    }
    d
}

/// `bind(g)`: the fn the GPU calls for the routine. `bind("name")`, a symbol of device code
/// from elsewhere, has nothing to link against: acc's device code is this package's Rust.
fn bind(c: &RawClause, errors: &mut Errors) -> Option<Ident> {
    need_args(c, "the fn the GPU calls instead", errors)?;
    let arg = parse_or_report(c, |input: ParseStream| {
        if input.peek(syn::LitStr) {
            let s: syn::LitStr = input.parse()?;
            return Err(syn::Error::new(
                s.span(),
                format!(
                    "`bind(\"{}\")` names device code by its symbol, and acc's device code is built from this package's Rust alone: there is no other to link; write the GPU's version as an `#[acc::routine]` fn and name it, `bind(its_name)`",
                    s.value()
                ),
            ));
        }
        Ident::parse(input)
    }, errors)?;
    Some(arg)
}

/// Spans a whole token stream for messages about missing things.
pub fn span_of(tokens: &TokenStream) -> Span {
    tokens.clone().into_iter().next().map_or_else(Span::call_site, |t| t.span())
}
