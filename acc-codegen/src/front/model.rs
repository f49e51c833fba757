//! The typed directive model. Every node keeps the span of the token the user wrote, so that
//! checks and lowering can point errors at it.

use proc_macro2::Span;
use syn::{Expr, Ident};

/// Which compute construct a region fn carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    Parallel,
    Kernels,
    Serial,
}

impl RegionKind {
    pub fn name(self) -> &'static str {
        match self {
            RegionKind::Parallel => "parallel",
            RegionKind::Kernels => "kernels",
            RegionKind::Serial => "serial",
        }
    }
}

/// A data clause keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    Copy,
    CopyIn,
    CopyOut,
    Create,
    Present,
    DevicePtr,
    Delete,
    /// `no_create`: present data is used where it is; absent data is not created.
    NoCreate,
}

impl DataKind {
    pub fn name(self) -> &'static str {
        match self {
            DataKind::Copy => "copy",
            DataKind::CopyIn => "copyin",
            DataKind::CopyOut => "copyout",
            DataKind::Create => "create",
            DataKind::Present => "present",
            DataKind::DevicePtr => "deviceptr",
            DataKind::Delete => "delete",
            DataKind::NoCreate => "no_create",
        }
    }

    /// Whether the host copy is written when the data leaves the device, so the name must be
    /// a `let mut` binding.
    pub fn writes_back(self) -> bool {
        matches!(self, DataKind::Copy | DataKind::CopyOut)
    }

    /// The variant of the runtime's `Clause` that a region or `data!` enters this data with.
    /// `delete` is an `exit_data!` clause only (`parse`'s table of allowed clauses), so it
    /// never comes here.
    pub fn runtime_clause(self) -> proc_macro2::TokenStream {
        match self {
            DataKind::Copy => quote::quote!(Copy),
            DataKind::CopyIn => quote::quote!(CopyIn),
            DataKind::CopyOut => quote::quote!(CopyOut),
            DataKind::Create => quote::quote!(Create),
            DataKind::Present => quote::quote!(Present),
            DataKind::DevicePtr => quote::quote!(DevicePtr),
            DataKind::Delete => unreachable!("`delete` is an `exit_data!` clause only"),
            DataKind::NoCreate => unreachable!("`no_create` enters through `DataScope::enter_no_create`"),
        }
    }
}

/// `copyin(a, b)` and friends.
#[derive(Clone, Debug)]
pub struct DataClause {
    pub kind: DataKind,
    pub span: Span,
    pub vars: Vec<Var>,
    /// The modifiers before its `:` (`copyin(readonly: a)`, `copy(always: a)`).
    pub modifiers: DataModifiers,
}

/// A data clause's modifiers (OpenACC 3.3, 3.4): what each does is the runtime's
/// `Modifiers`; `readonly` and `capture` change nothing acc does (a `&[T]` is read-only
/// already; acc's device memory is never the host's, which `capture` is about).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataModifiers {
    pub always_in: bool,
    pub always_out: bool,
    pub zero: bool,
}

impl DataModifiers {
    /// The runtime's `Modifiers` value, or `None` when it is the default.
    pub fn runtime(self) -> Option<proc_macro2::TokenStream> {
        if !(self.always_in || self.always_out || self.zero) {
            return None;
        }
        let rt = crate::paths::runtime();
        let (i, o, z) = (self.always_in, self.always_out, self.zero);
        Some(quote::quote!(#rt::Modifiers { always_in: #i, always_out: #o, zero: #z }))
    }
}

/// A variable named in a data clause: a plain name (`update!` takes [`Place`]s: fields and
/// sections too).
#[derive(Clone, Debug)]
pub struct Var {
    pub ident: Ident,
}

/// A place in an `update!` clause: a name, a field path (`f.u`, `self.u`, `s.a.b`), or a
/// section of either (`a[lo..hi]`, `f.u[..hi]`, `a[lo..]`).
#[derive(Clone, Debug)]
pub struct Place {
    /// The name or field path, as an expression.
    pub base: syn::Expr,
    /// The element range of a section.
    pub range: Option<syn::ExprRange>,
    /// The place as written, for messages and `ACC_NOTIFY`: `f.u`, `a[lo..hi]`.
    pub name: String,
}

/// The OpenACC reduction operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedOp {
    Add,
    Mul,
    Max,
    Min,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
}

impl RedOp {
    pub const ALL: [RedOp; 9] = [
        RedOp::Add,
        RedOp::Mul,
        RedOp::Max,
        RedOp::Min,
        RedOp::BitAnd,
        RedOp::BitOr,
        RedOp::BitXor,
        RedOp::And,
        RedOp::Or,
    ];

    pub fn symbol(self) -> &'static str {
        match self {
            RedOp::Add => "+",
            RedOp::Mul => "*",
            RedOp::Max => "max",
            RedOp::Min => "min",
            RedOp::BitAnd => "&",
            RedOp::BitOr => "|",
            RedOp::BitXor => "^",
            RedOp::And => "&&",
            RedOp::Or => "||",
        }
    }

    /// The zero-sized operator type in `acc_runtime::reduce` (and `acc_device::reduce`).
    pub fn type_name(self) -> &'static str {
        match self {
            RedOp::Add => "Add",
            RedOp::Mul => "Mul",
            RedOp::Max => "Max",
            RedOp::Min => "Min",
            RedOp::BitAnd => "BitAnd",
            RedOp::BitOr => "BitOr",
            RedOp::BitXor => "BitXor",
            RedOp::And => "And",
            RedOp::Or => "Or",
        }
    }
}

/// `reduction(op: a, b)`.
#[derive(Clone, Debug)]
pub struct Reduction {
    pub op: RedOp,
    pub op_span: Span,
    pub vars: Vec<Ident>,
    /// The variables named with a section (`q[lo..hi]`; each is in `vars` too, as the whole
    /// array: the construct reduces the array, its body may touch only the section).
    pub sections: Vec<Section>,
}

/// A section of a reduced array, `q[lo..hi]`: the elements a construct reduces (see
/// [`crate::front::sections`]).
#[derive(Clone, Debug)]
pub struct Section {
    pub var: Ident,
    pub lo: Option<Expr>,
    pub hi: Option<Expr>,
    /// `lo..=hi`.
    pub inclusive: bool,
    /// The brackets.
    pub span: Span,
    /// The section as written, for messages (`q[2..5]`).
    pub text: String,
}

/// One variable of a `reduction` clause, with its clause's operator: what every stage reads
/// of a list of clauses (`reduction(+: a, b) reduction(max: m)` is `(+, a)`, `(+, b)`,
/// `(max, m)`, in the order written).
#[derive(Clone, Copy, Debug)]
pub struct Reduced<'a> {
    pub op: RedOp,
    /// The operator's token.
    pub op_span: Span,
    pub var: &'a Ident,
}

/// The variables of `clauses`, each with its operator (see [`Reduced`]).
pub fn reduced(clauses: &[Reduction]) -> impl Iterator<Item = Reduced<'_>> {
    clauses.iter().flat_map(|r| r.vars.iter().map(move |var| Reduced { op: r.op, op_span: r.op_span, var }))
}

/// `default(none)` / `default(present)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultKind {
    None,
    Present,
}

/// The clauses of `parallel`, `kernels` and `serial`.
#[derive(Clone, Debug, Default)]
pub struct RegionClauses {
    pub num_gangs: Option<Expr>,
    /// OpenACC 3.3's `num_gangs(n1, n2, n3)` in `parallel`: `n2` and `n3`, the gangs of grid
    /// dimensions 2 and 3 (the loops with `gang(dim: 2)`, `gang(dim: 3)`); `n1` is `num_gangs`.
    pub more_gangs: Vec<Expr>,
    pub num_workers: Option<Expr>,
    pub vector_length: Option<Expr>,
    /// `async` alone (`Some(None)`) or `async(q)`.
    pub async_: Option<Option<Expr>>,
    /// `wait` alone (`Some(vec![])`) or `wait(q, ..)`.
    pub wait: Option<Vec<Expr>>,
    pub if_: Option<Expr>,
    /// `self` (`None`: always) or `self(cond)`: the region runs on the host.
    pub self_: Option<(Span, Option<Expr>)>,
    pub default: Option<(DefaultKind, Span)>,
    pub data: Vec<DataClause>,
    pub private: Vec<Ident>,
    pub firstprivate: Vec<Ident>,
    pub reduction: Vec<Reduction>,
    /// `instances(f32, f64)` / `instances(<f32, u32>, ..)`: the instances of a generic region
    /// (see [`crate::front::generic`]).
    pub instances: Option<(Span, Vec<Instance>)>,
    /// info: `info`: acc-build prints this region's schedule report (see [`crate::info`])
    /// even without `ACC_INFO`.
    pub info: Option<Span>,
    /// The counts of a `device_type(host)` group (`num_gangs`..): the host backend has no
    /// gangs to size, so they are only type-checked.
    pub host_counts: Vec<Expr>,
    /// The queues of a `device_type(host)` group's `async(q)` and `wait(q)`: the host backend
    /// runs a region before the call returns, so they are only type-checked.
    pub host_queues: Vec<Expr>,
}

impl RegionClauses {
    /// The variables of its `reduction` clauses, each with its operator.
    pub fn reductions(&self) -> impl Iterator<Item = Reduced<'_>> {
        reduced(&self.reduction)
    }
}

/// One instance of a generic region: its generic arguments, in the order of the fn's type and
/// const parameters.
#[derive(Clone, Debug)]
pub struct Instance {
    pub span: Span,
    pub args: Vec<syn::GenericArgument>,
}

/// A parsed compute-region attribute.
#[derive(Clone, Debug)]
pub struct RegionDirective {
    pub kind: RegionKind,
    pub clauses: RegionClauses,
}

impl RegionDirective {
    /// Whether the region always runs on the host: `self`, `self(true)` or `if(false)`. Such
    /// a region has no GPU path (nothing to build for the device).
    pub fn host_only(&self) -> bool {
        let lit = |e: &Expr, v: bool| matches!(e, Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. }) if b.value == v);
        match (&self.clauses.self_, &self.clauses.if_) {
            (Some((_, None)), _) => true,
            (Some((_, Some(c))), _) if lit(c, true) => true,
            (_, Some(c)) => lit(c, false),
            _ => false,
        }
    }
}

/// `gang`, `gang(n)`, `gang(dim: d)`, `gang(static: n)`.
#[derive(Clone, Debug)]
pub struct LevelClause {
    pub span: Span,
    /// `gang(n)` / `worker(n)` / `vector(n)` (kernels only).
    pub size: Option<Expr>,
    /// `gang(dim: d)` (kernels only).
    pub dim: Option<u32>,
    /// `gang(static: n)` (`Some(n)`) or `gang(static: *)` (`None`), spanned on `static`: the
    /// chunk of consecutive trips a gang takes at a time.
    pub chunk: Option<(Span, Option<Expr>)>,
}

/// The clauses of `#[acc::r#loop(..)]`.
#[derive(Clone, Debug, Default)]
pub struct LoopDirective {
    pub span: Option<Span>,
    pub gang: Option<LevelClause>,
    pub worker: Option<LevelClause>,
    pub vector: Option<LevelClause>,
    pub seq: Option<Span>,
    pub auto: Option<Span>,
    pub independent: Option<Span>,
    pub collapse: Option<(Span, usize)>,
    /// `collapse(force: n)`'s `force` (OpenACC 3.3): the loops need not be tightly nested.
    pub collapse_force: Option<Span>,
    pub tile: Option<(Span, Vec<Expr>)>,
    pub private: Vec<Ident>,
    pub reduction: Vec<Reduction>,
    /// A `reduction` clause that did not parse (already reported): which variables the loop
    /// reduces is unknown, so assignments to outer variables are not reported again.
    pub malformed_reduction: bool,
    /// With `device_type` clauses, whether the host runs the loop in order (its `host`
    /// group's `seq`; the other clauses above are the GPU's, `nvidia`); `None` without them.
    pub host_seq: Option<bool>,
}

impl LoopDirective {
    /// Whether the host runs the loop in order: `seq` for the host.
    pub fn seq_on_host(&self) -> bool {
        self.host_seq.unwrap_or(self.seq.is_some())
    }

    /// Whether any of gang, worker, vector was written.
    pub fn has_level(&self) -> bool {
        self.gang.is_some() || self.worker.is_some() || self.vector.is_some()
    }

    /// How many tightly nested loops the directive spreads together (`collapse(n)`, the
    /// sizes of `tile(..)`, else 1).
    pub fn depth(&self) -> usize {
        self.collapse.map_or(0, |c| c.1).max(self.tile.as_ref().map_or(0, |t| t.1.len())).max(1)
    }

    /// The variables of its `reduction` clauses, each with its operator.
    pub fn reductions(&self) -> impl Iterator<Item = Reduced<'_>> {
        reduced(&self.reduction)
    }

    /// The variables of its `reduction` clauses.
    pub fn reduction_vars(&self) -> Vec<Ident> {
        self.reductions().map(|r| r.var.clone()).collect()
    }
}

/// `#[acc::routine(..)]`: its level (the GPU's, where `device_type` gives each device type its
/// own), `bind(g)` (the GPU runs `g` for it) and `nohost` (accepted; the host version stays).
#[derive(Clone, Debug)]
pub struct RoutineDirective {
    pub level: RoutineLevel,
    pub bind: Option<Ident>,
    pub nohost: Option<Span>,
}

/// `#[acc::routine(seq|vector|worker|gang)]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutineLevel {
    Seq,
    Vector,
    Worker,
    Gang,
}
