//! Name resolution: a path of the package's code to the item, module, or `core` path it
//! names, as rustc would resolve it in the mirrored module tree (`use` items, globs, `self`,
//! `super`, `crate`, the package's library and its dependencies by crate name).

use proc_macro2::Ident;
use syn::ext::IdentExt;

use super::{ModKind, Res, Scan};

/// The modules of `std` that are `core`'s (re-exported or with the same items).
pub(super) const CORE_MODULES: [&str; 31] = [
    "any", "array", "cell", "char", "clone", "cmp", "convert", "default", "f32", "f64", "fmt", "hash", "hint", "i8",
    "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "iter", "marker", "mem", "num",
    "ops", "option",
];

pub(super) const CORE_MODULES_2: [&str; 4] = ["pin", "ptr", "result", "primitive"];

pub(super) fn core_module(second: &str, third: Option<&str>) -> bool {
    CORE_MODULES.contains(&second) || CORE_MODULES_2.contains(&second) || second == "sync" && third == Some("atomic")
}

/// Prelude names of `std` that `core` lacks.
pub(super) const STD_ONLY: [&str; 7] = ["Vec", "String", "Box", "ToString", "ToOwned", "HashMap", "Rc"];

pub(super) const STD_ONLY_MACROS: [&str; 8] = ["vec", "format", "println", "print", "eprintln", "eprint", "dbg", "format_args_nl"];

/// Traits of `core` whose impls for a carried type are carried.
pub(super) const CORE_TRAITS: [&str; 30] = [
    "Add", "Sub", "Mul", "Div", "Rem", "Neg", "Not", "BitAnd", "BitOr", "BitXor", "Shl", "Shr", "AddAssign",
    "SubAssign", "MulAssign", "DivAssign", "RemAssign", "BitAndAssign", "BitOrAssign", "BitXorAssign", "Index",
    "IndexMut", "PartialEq", "Eq", "PartialOrd", "Ord", "Default", "Clone", "Copy", "From",
];

/// First segments of paths that are not crates: primitive types and the prelude's names.
pub(super) const NOT_CRATES: [&str; 36] = [
    "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "bool", "char",
    "str", "Option", "Some", "None", "Result", "Ok", "Err", "Default", "Clone", "Copy", "Iterator", "IntoIterator",
    "From", "Into", "PartialEq", "PartialOrd", "Ord", "Eq", "acc", "acc_device",
];

/// The names of acc's API that are acc-device's (re-exported by acc-runtime), which the
/// kernels reach as `acc::name`.
pub(super) const ACC_DEVICE_NAMES: [&str; 3] = ["on_device", "DeviceType", "Float"];

pub(super) const CORE_DERIVES: [&str; 9] = ["Clone", "Copy", "Debug", "PartialEq", "Eq", "PartialOrd", "Ord", "Hash", "Default"];

impl<'a> Scan<'a> {
    /// The name an item defines in its namespace(s).
    pub(super) fn item_name(item: &syn::Item) -> Option<String> {
        let id = match item {
            syn::Item::Const(i) => &i.ident,
            syn::Item::Static(i) => &i.ident,
            syn::Item::Fn(i) => &i.sig.ident,
            syn::Item::Struct(i) => &i.ident,
            syn::Item::Enum(i) => &i.ident,
            syn::Item::Union(i) => &i.ident,
            syn::Item::Type(i) => &i.ident,
            syn::Item::Trait(i) => &i.ident,
            syn::Item::Mod(i) => &i.ident,
            syn::Item::Macro(i) => i.ident.as_ref()?,
            _ => return None,
        };
        Some(id.unraw().to_string())
    }

    /// `name` defined or imported in module `m` itself (not its parents).
    pub(super) fn lookup_in(&self, m: usize, name: &str, guard: usize) -> Option<Res> {
        if guard > 12 {
            return None;
        }
        let module = &self.modules[m];
        for (k, item) in module.items.iter().enumerate() {
            if Self::item_name(item).as_deref() == Some(name) {
                if let Some(&c) = module.children.get(&k).filter(|_| matches!(item, syn::Item::Mod(_))) {
                    return Some(Res::Module(c));
                }
                if matches!(item, syn::Item::Mod(_)) {
                    return Some(Res::Unknown);
                }
                return Some(Res::Item(m, k));
            }
        }
        let mut globs = Vec::new();
        for item in &module.items {
            let syn::Item::Use(u) = item else { continue };
            for leaf in use_leaves(u) {
                match &leaf.binding {
                    Binding::Name(b) if b == name => return Some(self.resolve_segments(m, leaf.leading, &leaf.segs, guard + 1)),
                    Binding::Glob => globs.push(leaf),
                    _ => {}
                }
            }
        }
        for g in globs {
            match self.resolve_segments(m, g.leading, &g.segs, guard + 1) {
                Res::Module(gm) if gm != m => {
                    if let Some(r) = self.lookup_in(gm, name, guard + 1) {
                        return Some(r);
                    }
                }
                // `use Mode::*`: the variants.
                Res::Item(em, ek) => {
                    if let syn::Item::Enum(e) = &self.modules[em].items[ek] {
                        if e.variants.iter().any(|v| v.ident == name) {
                            return Some(Res::Item(em, ek));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// `name` in scope in module `m` (a fn body sees its enclosing module).
    pub(super) fn lookup(&self, m: usize, name: &str, guard: usize) -> Option<Res> {
        let mut at = m;
        loop {
            if let Some(r) = self.lookup_in(at, name, guard) {
                return Some(r);
            }
            if self.modules[at].kind != ModKind::FnBody {
                return None;
            }
            at = self.modules[at].parent?;
        }
    }

    pub(super) fn resolve_segments(&self, m: usize, leading: bool, segs: &[String], guard: usize) -> Res {
        let Some(first) = segs.first() else { return Res::Unknown };
        let lib = self.lib.as_ref().filter(|(root, _)| self.modules[m].root != *root && !self.modules[m].dep);
        let dep = self.deps.iter().find(|(name, _)| name == first).map(|(_, root)| Res::Module(*root));
        let std_like = |segs: &[String]| match segs[0].as_str() {
            // The device crate has acc-device (`pub use acc_device::Float` in acc's own lib).
            "core" | "acc_device" => Res::Core,
            "std" => match segs.get(1) {
                None => Res::Core,
                Some(s) if core_module(s, segs.get(2).map(String::as_str)) => Res::Core,
                _ => Res::NotCore,
            },
            _ => Res::NotCore,
        };
        let mut cur = match first.as_str() {
            _ if leading => match lib {
                Some((root, name)) if name == first => Res::Module(*root),
                _ if dep.is_some() => dep.expect("a dependency"),
                _ if matches!(first.as_str(), "std" | "core" | "alloc" | "acc_device") => return std_like(segs),
                _ => return Res::Extern,
            },
            "crate" => Res::Module(self.modules[m].root),
            "self" => Res::Module(self.real(m)),
            "super" => match self.modules[self.real(m)].parent {
                Some(p) => Res::Module(self.real(p)),
                None => return Res::Unknown,
            },
            _ => match self.lookup(m, first, guard) {
                Some(r) => r,
                None => match lib {
                    Some((root, name)) if name == first => Res::Module(*root),
                    _ if dep.is_some() => dep.expect("a dependency"),
                    _ if matches!(first.as_str(), "std" | "core" | "alloc" | "acc_device") => return std_like(segs),
                    // What acc re-exports from acc-device is the device crate's `acc::` too
                    // (its root's `extern crate acc_device as acc`), so `use acc::on_device;`
                    // is carried; the rest of `acc::` is the host runtime's.
                    _ if first == "acc" && segs.get(1).is_some_and(|s| ACC_DEVICE_NAMES.contains(&s.as_str())) => return Res::Core,
                    _ if segs.len() == 1 || NOT_CRATES.contains(&first.as_str()) => return Res::Unknown,
                    _ => return Res::Extern,
                },
            },
        };
        for seg in &segs[1..] {
            match cur {
                Res::Module(x) => {
                    cur = match seg.as_str() {
                        "super" => match self.modules[self.real(x)].parent {
                            Some(p) => Res::Module(self.real(p)),
                            None => return Res::Unknown,
                        },
                        "self" => cur,
                        _ => match self.lookup_in(x, seg, guard + 1) {
                            Some(r) => r,
                            None => return Res::Unknown,
                        },
                    }
                }
                // An associated item or a variant of a type, or deeper into `core`.
                _ => return cur,
            }
        }
        cur
    }

    pub(super) fn resolve(&self, m: usize, p: &syn::Path) -> Res {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.unraw().to_string()).collect();
        self.resolve_segments(m, p.leading_colon.is_some(), &segs, 0)
    }

    /// The crate a `use` in scope at module `m` brings `name` from (`use dep::x::name;`).
    pub(super) fn imported_crate(&self, m: usize, name: &str) -> Option<String> {
        let mut at = Some(m);
        while let Some(x) = at {
            for item in &self.modules[x].items {
                let syn::Item::Use(u) = item else { continue };
                for leaf in use_leaves(u) {
                    if matches!(&leaf.binding, Binding::Name(b) if b == name) {
                        return leaf.segs.first().filter(|s| !matches!(s.as_str(), "crate" | "self" | "super")).cloned();
                    }
                }
            }
            at = if self.modules[x].kind == ModKind::FnBody { self.modules[x].parent } else { None };
        }
        None
    }
}

/// Where a `use` leaf binds.
#[derive(Clone, Debug)]
pub(super) enum Binding {
    Name(String),
    Glob,
    /// `as _`.
    Anonymous,
}

#[derive(Clone)]
pub(super) struct Leaf {
    pub(super) leading: bool,
    pub(super) segs: Vec<String>,
    pub(super) idents: Vec<Ident>,
    pub(super) rename: Option<Ident>,
    pub(super) binding: Binding,
}

pub(super) fn use_leaves(u: &syn::ItemUse) -> Vec<Leaf> {
    fn walk(t: &syn::UseTree, prefix: &mut Vec<Ident>, leading: bool, out: &mut Vec<Leaf>) {
        let segs = |ids: &[Ident]| ids.iter().map(|i| i.unraw().to_string()).collect::<Vec<_>>();
        match t {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.clone());
                walk(&p.tree, prefix, leading, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) if n.ident == "self" => {
                if let Some(last) = prefix.last() {
                    out.push(Leaf { leading, segs: segs(prefix), idents: prefix.clone(), rename: None, binding: Binding::Name(last.unraw().to_string()) });
                }
            }
            syn::UseTree::Name(n) => {
                let mut ids = prefix.clone();
                ids.push(n.ident.clone());
                out.push(Leaf { leading, segs: segs(&ids), idents: ids, rename: None, binding: Binding::Name(n.ident.unraw().to_string()) });
            }
            syn::UseTree::Rename(r) => {
                let mut ids = prefix.clone();
                ids.push(r.ident.clone());
                let binding = if r.rename == "_" { Binding::Anonymous } else { Binding::Name(r.rename.unraw().to_string()) };
                out.push(Leaf { leading, segs: segs(&ids), idents: ids, rename: Some(r.rename.clone()), binding });
            }
            syn::UseTree::Glob(_) => out.push(Leaf { leading, segs: segs(prefix), idents: prefix.clone(), rename: None, binding: Binding::Glob }),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    walk(t, prefix, leading, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&u.tree, &mut Vec::new(), u.leading_colon.is_some(), &mut out);
    out
}
