//! OpenACC's `device_type(..)` (`dtype(..)`): the clauses after it, up to the next one, apply
//! only to the device types it names. acc builds every region for two: the host backend
//! (`host`; `multicore`, NVHPC's name for it, is the same) and NVIDIA GPUs (`nvidia`,
//! `acc_device_nvidia`); `*` is every device type no other `device_type` clause names. A
//! clause before the first `device_type` applies to all, unless the device type's own group
//! has one of the same name, which replaces it.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::Token;

use super::{screen, Directive, RawClause};
use crate::report::Errors;

/// The device types acc builds for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Host,
    Nvidia,
}

/// What one `device_type(..)` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Named {
    One(Device),
    Star,
}

const ACCEPTED: &str = "`nvidia` (or `acc_device_nvidia`), `host` (or `acc_device_host`, `multicore`), `*`";

/// A directive's clauses split at its `device_type` clauses, each part screened.
pub struct Partitioned {
    common: Vec<RawClause>,
    groups: Vec<(Vec<Named>, Vec<RawClause>)>,
}

/// The clauses OpenACC allows after `device_type` on `dir`.
pub fn allowed_after(dir: Directive) -> &'static [&'static str] {
    match dir {
        Directive::Parallel | Directive::Kernels => &["num_gangs", "num_workers", "vector_length", "async", "wait"],
        Directive::Serial => &["async", "wait"],
        Directive::Loop => &["gang", "worker", "vector", "seq", "auto", "independent", "collapse", "tile"],
        Directive::Routine => &["seq", "vector", "worker", "gang", "bind"],
        _ => &[],
    }
}

fn is_device_type(c: &RawClause) -> bool {
    matches!(c.key().as_str(), "device_type" | "dtype")
}

fn names(c: &RawClause, errors: &mut Errors) -> Vec<Named> {
    let one = |input: ParseStream| -> syn::Result<(Named, Span)> {
        if input.peek(Token![*]) {
            return Ok((Named::Star, input.parse::<Token![*]>()?.span));
        }
        let id = syn::Ident::parse_any(input)?;
        let named = match id.to_string().as_str() {
            "nvidia" | "acc_device_nvidia" => Named::One(Device::Nvidia),
            "host" | "acc_device_host" | "multicore" => Named::One(Device::Host),
            other => {
                return Err(syn::Error::new(
                    id.span(),
                    format!("unknown device type `{other}`: acc builds for the host and NVIDIA GPUs; expected one of: {ACCEPTED}"),
                ))
            }
        };
        Ok((named, id.span()))
    };
    let Some(list) = super::parse_or_report(c, |input: ParseStream| Punctuated::<(Named, Span), Token![,]>::parse_terminated_with(input, one), errors) else {
        return Vec::new();
    };
    if list.is_empty() {
        errors.error(c.args_span(), format!("`{}` names device types: {ACCEPTED}", c.key()));
    }
    list.into_iter().map(|(n, _)| n).collect()
}

/// Splits `raw` at its `device_type` clauses: unknown device types, a device type named
/// twice, and clauses OpenACC does not allow after `device_type` are reported, then each part
/// is screened as `dir`'s (unknown, misplaced, duplicate clauses).
pub fn partition(dir: Directive, raw: Vec<RawClause>, errors: &mut Errors) -> Partitioned {
    let allowed = allowed_after(dir);
    let mut common = Vec::new();
    let mut groups: Vec<(Vec<Named>, Vec<RawClause>)> = Vec::new();
    for c in raw {
        if is_device_type(&c) {
            if allowed.is_empty() {
                errors.error(c.name.span(), format!("`{}` is not allowed on `{}`: OpenACC has it on compute constructs, `loop` and `routine`", c.key(), dir.name()));
                continue;
            }
            if c.args.is_none() {
                errors.error(c.name.span(), format!("`{}` needs the device types it applies to: `{}(nvidia)`; one of {ACCEPTED}", c.key(), c.key()));
                continue;
            }
            let named = names(&c, errors);
            for n in &named {
                if groups.iter().any(|(g, _)| g.contains(n)) {
                    errors.error(c.args_span(), "a device type is named by one `device_type` clause only: put its clauses together");
                }
            }
            groups.push((named, Vec::new()));
            continue;
        }
        match groups.last_mut() {
            None => common.push(c),
            Some((_, group)) => {
                let key = c.key();
                if dir.accepted().contains(&key.as_str()) && !allowed.contains(&key.as_str()) {
                    errors.error(
                        c.name.span(),
                        format!(
                            "`{key}` may not follow `device_type` (OpenACC allows only {} there): write it before the first `device_type`, where it applies to every device type",
                            allowed.join(", ")
                        ),
                    );
                    continue;
                }
                group.push(c);
            }
        }
    }
    let common = screen(dir, common, errors);
    let groups = groups.into_iter().map(|(n, g)| (n, screen(dir, g, errors))).collect();
    Partitioned { common, groups }
}

impl Partitioned {
    /// Whether any `device_type` clause was written.
    pub fn any(&self) -> bool {
        !self.groups.is_empty()
    }

    /// The group of clauses for `dev`: the one naming it, else the `*` one.
    pub fn group(&self, dev: Device) -> &[RawClause] {
        let named = self.groups.iter().find(|(n, _)| n.contains(&Named::One(dev)));
        let star = || self.groups.iter().find(|(n, _)| n.contains(&Named::Star));
        named.or_else(star).map_or(&[], |(_, g)| g.as_slice())
    }

    /// The clauses for `dev`: the common ones, each replaced by its group's of the same name
    /// (the level clauses `gang`, `worker`, `vector`, `seq`, `auto` of a loop or routine replace
    /// each other: a group that says `seq` runs the loop in order on that device).
    pub fn select(&self, dev: Device, levels: &[&str]) -> Vec<RawClause> {
        let group = self.group(dev);
        let keys: Vec<String> = group.iter().map(RawClause::key).collect();
        let group_has_level = keys.iter().any(|k| levels.contains(&k.as_str()));
        let mut out: Vec<RawClause> = self
            .common
            .iter()
            .filter(|c| {
                let k = c.key();
                let replaced = keys.contains(&k) || (group_has_level && levels.contains(&k.as_str()));
                !replaced
            })
            .cloned()
            .collect();
        out.extend(group.iter().cloned());
        out
    }

    /// The clauses of `dev`'s group alone (for reporting their errors once).
    pub fn only(&self, dev: Device) -> Vec<RawClause> {
        self.group(dev).to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::parse::parse_clause_list;
    use quote::quote;

    fn keys(clauses: Vec<RawClause>) -> Vec<String> {
        clauses.iter().map(|c| c.to_string()).collect()
    }

    impl std::fmt::Display for RawClause {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match &self.args {
                Some(a) => write!(f, "{}({a})", self.key()),
                None => write!(f, "{}", self.key()),
            }
        }
    }

    fn split(dir: Directive, ts: proc_macro2::TokenStream) -> (Partitioned, Vec<String>) {
        let mut errors = Errors::default();
        let p = partition(dir, parse_clause_list(ts).unwrap(), &mut errors);
        (p, errors.into_vec().into_iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn each_device_type_takes_its_group_over_the_common_clauses() {
        let (p, errs) = split(Directive::Parallel, quote!(vector_length(128), num_gangs(2), device_type(nvidia), vector_length(64), dtype(host), num_gangs(4)));
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(keys(p.select(Device::Nvidia, &[])), ["num_gangs(2)", "vector_length(64)"]);
        assert_eq!(keys(p.select(Device::Host, &[])), ["vector_length(128)", "num_gangs(4)"]);
        let levels = &["gang", "worker", "vector", "seq", "auto"];
        let (p, errs) = split(Directive::Loop, quote!(gang, collapse(2), device_type(*), seq, device_type(acc_device_nvidia), vector));
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(keys(p.select(Device::Nvidia, levels)), ["collapse(2)", "vector"]);
        assert_eq!(keys(p.select(Device::Host, levels)), ["collapse(2)", "seq"]);
        let (p, _) = split(Directive::Loop, quote!(gang, vector));
        assert!(!p.any());
        assert_eq!(keys(p.select(Device::Host, levels)), ["gang", "vector"]);
    }

    #[test]
    fn refusals() {
        let (_, errs) = split(Directive::Parallel, quote!(device_type(amd), num_gangs(2)));
        assert!(errs[0].contains("unknown device type `amd`"), "{errs:?}");
        let (_, errs) = split(Directive::Parallel, quote!(device_type(nvidia), private(a)));
        assert!(errs[0].contains("`private` may not follow `device_type`"), "{errs:?}");
        let (_, errs) = split(Directive::Loop, quote!(device_type(host), seq, device_type(*), gang, device_type(host), vector));
        assert!(errs[0].contains("named by one `device_type` clause only"), "{errs:?}");
        let (_, errs) = split(Directive::Data, quote!(device_type(nvidia), copyin(a)));
        assert!(errs[0].contains("not allowed on `data`"), "{errs:?}");
        let (_, errs) = split(Directive::Serial, quote!(device_type));
        assert!(errs[0].contains("needs the device types"), "{errs:?}");
    }
}
