#!/usr/bin/env python3
"""Writes the generated section of difftest/src/programs.rs: random acc programs for the
differential tester (issue 16, item 4), from a fixed seed.

Each program ("shape") is a region written out in source (acc-build compiles what it sees;
`macro_rules!` would hide it), the same body as a plain Rust fn without the acc attributes (the
sequential reference: `#[acc::r#loop]` lines dropped, `acc::atomic!(x op= e)` written `x op= e`),
and a runner that draws the run-time inputs of one case (sizes, data, initial reduction values,
block shape, loop bounds and steps, the data region around the call) and compares the two.

What a program may hold: `parallel`, `kernels` and `serial` regions; nests of 1 to 3 loops with
random levels (gang/worker/vector/seq/auto/independent/none), `collapse`, `tile`, loop forms
(`a..b`, `a..=b`, `step_by`); reductions of every operator and type on a region variable, with
the clause on a random subset of the loops from the nest's top down to the update (or on the
region), and on locals of gang/worker bodies stored per row; `private` scalars and arrays,
region-level `private` slices and `firstprivate`; `atomic!` updates and captures on a histogram
and on a scalar; code between loops (lets, leader stores, broadcasts, `continue`, sequential
loops around vector loops, shared gang arrays filled by one loop and read by the next);
`kernels` loops the dependence test must keep in order (recurrences, run-time strides,
narrowing casts); host `if`/`for` around nests; statements at the region's top level.

Values stay where every order of evaluation gives the same answer: each integer expression
carries its range and is only built when it cannot overflow; a `+` reduction adds at most what
the case's sizes allow (the runner's `fits`, derived from the same ranges, shrinks sizes that
would overflow); `*` multiplies data that is 1 but in a few places. Floats are compared within
a tolerance scaled by the magnitude bound of what was summed (`scale`).

Forms not generated, because acc refuses them on the GPU at compile time (documented):
`continue` in a worker or vector loop that holds parallel loops; parallel loops under `if` (or
in any block but the loop body) inside a gang or worker loop; a sequential loop around parallel
loops inside a worker or vector loop; a `let` that writes memory inside a loop that holds
parallel loops (an `atomic!(capture ..)` there), and, because acc's test of that counts any
method call on them as a write, a `let` there that calls a method on an element of a group
array or a `&mut` slice (`sh[i].max(x)`: refused although it only reads); `if let`/`while let`
around acc loops. Forms not generated because OpenACC leaves their result unspecified:
non-idempotent stores and atomics in loops that run gang-redundantly (a region's top-level
loop without `gang`), a reduction variable read between the loops when its clause is the
region's, a clause on an inner loop only for a variable declared in a gang or worker body, two
different `atomic!` operations on one array (`+=` and `max` do not commute), a `private`
variable of a loop read by the loops inside it.

usage: python3 suite/tests/gen/difftest.py          # rewrite the section
       python3 suite/tests/gen/difftest.py --check  # fail when the section is not what this writes
       python3 suite/tests/gen/difftest.py --seed N # other shapes, for a campaign on a GPU machine
                                              # (the committed section is seed 164's)
"""
import math
import random
import sys

sys.dont_write_bytecode = True
from splice import splice  # noqa: E402

SEED = 16_4
SHAPES = 300
# Shares of the region kinds.
KINDS = [("parallel", 64), ("kernels", 28), ("serial", 8)]

# ---- types -----------------------------------------------------------------------------------

INTS = ["i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize"]
FLOATS = ["f32", "f64"]
NUMS = INTS + FLOATS


def bits(t):
    return 64 if t in ("isize", "usize") else int(t[1:])


def signed(t):
    return t[0] == "i" or t[0] == "f"


def tmin(t):
    return -(1 << (bits(t) - 1)) if t[0] == "i" else 0


def tmax(t):
    return (1 << (bits(t) - 1)) - 1 if t[0] == "i" else (1 << bits(t)) - 1


def mant(t):
    return 24 if t == "f32" else 53


def isf(t):
    return t in FLOATS


def zero(t):
    return "false" if t == "bool" else ("0.0" if isf(t) else "0") + ("" if t == "bool" else t)


def lit(v, t):
    """A literal of type `t` (ints, or floats that are multiples of 1/8)."""
    if isf(t):
        return f"{float(v)!r}{t}".replace("inf", "INFINITY")
    return f"{v}{t}" if v >= 0 else f"({v}{t})"


# The data the runner draws (difftest/src/lib.rs must agree): `a` small, `b` wide.
def small(t):
    if isf(t):
        return F(9.0, 3)
    return I(-9 if signed(t) else 0, 9)


def wide(t):
    if isf(t):
        return F(1000.0, 3)
    if t[0] == "i":
        return I(-(1 << (bits(t) - 2)), (1 << (bits(t) - 2)) - 1)
    return I(0, (1 << (bits(t) - 1)) - 1)


class I:
    """An integer range."""

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def mag(self):
        return max(abs(self.lo), abs(self.hi))


class F:
    """A float magnitude bound, with the fraction bits of an exact value (None: inexact)."""

    def __init__(self, mag, fb):
        self.mag, self.fb = mag, fb

    def exact(self, t):
        return self.fb is not None and self.mag * (1 << self.fb) < (1 << mant(t))


def c_class(t):
    """What `c` holds between statements (its stores are clamped into it): a closed range, so
    that a read of `c` is safe whatever ran before (other nests, a second call)."""
    if isf(t):
        return F(1000.0, None)
    return I(-99 if signed(t) else 0, min(99, tmax(t)))


class V:
    """An expression: its code, type and range (`I`, `F`, or None for bool)."""

    def __init__(self, code, t, r):
        self.code, self.t, self.r = code, t, r

    def fits(self):
        if self.t == "bool" or isf(self.t):
            return self.t == "bool" or self.r.mag < 1e30
        return tmin(self.t) <= self.r.lo and self.r.hi <= tmax(self.t)


# ---- magnitude bounds over the sizes -----------------------------------------------------------


class Poly:
    """A sum of products of the sizes (n1, n2, n3) with non-negative coefficients: an upper
    bound of a magnitude that grows with the sizes."""

    def __init__(self, terms=None):
        self.t = dict(terms or {})

    @staticmethod
    def const(c):
        return Poly({(): float(c)})

    def __add__(self, o):
        t = dict(self.t)
        for k, v in o.t.items():
            t[k] = t.get(k, 0.0) + v
        return Poly(t)

    def times(self, dims, c=1.0):
        return Poly({tuple(sorted(k + tuple(dims))): v * c for k, v in self.t.items()})

    def rust(self):
        parts = []
        for k, v in sorted(self.t.items()):
            parts.append("*".join([f"{v!r}"] + ["x" + d[1:] for d in k]))
        return " + ".join(parts) if parts else "0.0"


DIMS_OF = {"nn": ("n1", "n2", "n3"), "m": ("n2", "n3"), "n1": ("n1",), "n2": ("n2",), "n3": ("n3",)}

# ---- the program being written -----------------------------------------------------------------

OPS = ["+", "*", "max", "min", "&", "|", "^"]
BOOL_OPS = ["&&", "||", "&", "|", "^"]


class Red:
    """A reduction variable."""

    def __init__(self, name, op, t, region_level):
        self.name, self.op, self.t = name, op, t
        self.region_level = region_level  # declared at the region's top (returned)
        self.bound = Poly.const(9)  # magnitude bound (`+`, float `*`)
        self.lo_only = False  # an `if x > s` form: no NaN start
        self.used = False
        self.region_clause = False
        self.base = 0  # how many sizes of `mult` lie outside its declaration


class Prog:
    def __init__(self, rng, idx):
        self.rng, self.idx = rng, idx
        self.name = f"p{idx:03}"
        self.T = rng.choice(NUMS)
        self.U = rng.choice(NUMS + ["bool"] * 1)
        self.H = rng.choice(["u32", "i32", "u64", "i64", "f32", "f64", "usize"])
        self.M = "u8"  # element type of `m` (the `*` reduction's data)
        self.uses_m = False
        self.reds = []  # region-level reductions, in return order
        self.counters = []  # (name, type) scalars updated by `atomic!`, returned
        self.lines = []  # (depth, text, acc_only)
        self.fits = []  # (Poly, limit): an integer quantity's magnitude bound and its type's
        self.scale = {k: Poly.const(1000) for k in "cohz"}
        self.ret_scale = []
        # `c` is read and kept in `c_class` unless it is open: then some loop sums into it
        # (a recurrence, a run-time stride) and nothing reads it.
        self.c_open = rng.random() < 0.2
        self.c = None if self.c_open else c_class(self.T)
        self.h_add = False
        self.h_kind = None  # the one `atomic!` operation on `h`
        self.n = 0
        self.privates = []  # (name, type, is_array) declared at the top for loop `private`
        self.region_clauses = []
        self.scr = False
        self.kind = None
        self.top_lets = []  # V of type T computed at the top

    def fresh(self, base):
        self.n += 1
        return f"{base}{self.n}"

    def emit(self, depth, text, acc=False):
        self.lines.append((depth, text, acc))

    def bound_int(self, poly, t):
        """Records that an integer quantity of type `t` stays below `poly` in magnitude."""
        if not isf(t) and t != "bool":
            lim = tmax(t)
            assert poly.t.get((), 0.0) <= lim, f"{self.name}: a constant bound {poly.rust()} over {t}"
            self.fits.append((poly, lim))


# ---- expressions -------------------------------------------------------------------------------


class Env:
    """What an expression may read at one point of the program."""

    def __init__(self, prog, leaves, idx=None):
        self.prog = prog
        self.leaves = leaves  # V of type T
        self.idx = idx  # a usize index expression (for `(idx % c) as T`)


def int_op(rng, x, y, t):
    """A random integer operation on x, y (both of type t), or None if it could overflow."""
    lo, hi = tmin(t), tmax(t)
    k = rng.choice(["+", "-", "*c", "*", "&", "|", "^", "max", "min", "/", "%", ">>", "if", "wrap"])
    a, b = x.r, y.r
    if k == "+":
        r = I(a.lo + b.lo, a.hi + b.hi)
        code = f"{x.code} + {y.code}"
    elif k == "-":
        r = I(a.lo - b.hi, a.hi - b.lo)
        code = f"{x.code} - {y.code}"
    elif k == "*c":
        c = rng.choice([2, 3, -1, -2] if signed(t) else [2, 3, 5])
        r = I(min(a.lo * c, a.hi * c), max(a.lo * c, a.hi * c))
        code = f"{x.code} * {lit(c, t)}"
    elif k == "*":
        ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        r = I(min(ps), max(ps))
        code = f"{x.code} * {y.code}"
    elif k in "&|^":
        if a.lo >= 0 and b.lo >= 0:
            p = max(a.hi, b.hi).bit_length()
            r = I(0, min(a.hi, b.hi)) if k == "&" else I(0, (1 << p) - 1)
        else:
            p = max(a.mag(), b.mag()).bit_length()
            r = I(-(1 << p), (1 << p) - 1)
        code = f"({x.code} {k} {y.code})"
    elif k == "max":
        r = I(max(a.lo, b.lo), max(a.hi, b.hi))
        code = f"{x.code}.max({y.code})"
    elif k == "min":
        r = I(min(a.lo, b.lo), min(a.hi, b.hi))
        code = f"{x.code}.min({y.code})"
    elif k == "/":
        d = rng.choice([2, 3, 7])
        r = I(int(a.lo / d), int(a.hi / d))
        code = f"{x.code} / {lit(d, t)}"
    elif k == "%":
        d = rng.choice([3, 5, 8])
        r = I(-(d - 1) if a.lo < 0 else 0, d - 1)
        code = f"{x.code} % {lit(d, t)}"
    elif k == ">>":
        s = rng.choice([1, 2])
        r = I(a.lo >> s, a.hi >> s)
        code = f"({x.code} >> {s})"
    elif k == "if":
        cond = f"{x.code} > {y.code}" if rng.random() < 0.5 else f"({x.code} & 1) == 0"
        z = rng.choice([x, y])
        w = I(min(a.lo, b.lo), max(a.hi, b.hi))
        r = w
        code = f"if {cond} {{ {z.code} }} else {{ {y.code if z is x else x.code} }}"
    else:
        # Wrapping arithmetic: every value of the type, the same on every backend.
        r = I(lo, hi)
        code = f"{x.code}.wrapping_mul({y.code}).wrapping_add({lit(rng.randint(1, 9), t)})"
    v = V(f"({code})", t, r)
    return v if v.fits() else None


def float_op(rng, x, y, t):
    a, b = x.r, y.r
    k = rng.choice(["+", "-", "*c", "*", "max", "min", "abs", "sqrt", "mul_add", "if"])
    fb = lambda *fs: None if any(f is None for f in fs) else max(fs)  # noqa: E731
    if k == "+":
        r, code = F(a.mag + b.mag, fb(a.fb, b.fb)), f"{x.code} + {y.code}"
    elif k == "-":
        r, code = F(a.mag + b.mag, fb(a.fb, b.fb)), f"{x.code} - {y.code}"
    elif k == "*c":
        c, cfb = rng.choice([(0.5, 1), (2.0, 0), (-1.5, 1), (0.25, 2), (3.0, 0)])
        r, code = F(a.mag * abs(c), None if a.fb is None else a.fb + cfb), f"{x.code} * {lit(c, t)}"
    elif k == "*":
        r, code = F(a.mag * b.mag, None if a.fb is None or b.fb is None else a.fb + b.fb), f"{x.code} * {y.code}"
    elif k in ("max", "min"):
        r, code = F(max(a.mag, b.mag), fb(a.fb, b.fb)), f"{x.code}.{k}({y.code})"
    elif k == "abs":
        r, code = F(a.mag, a.fb), f"{x.code}.abs()"
    elif k == "sqrt":
        r, code = F(math.sqrt(a.mag) + 1, None), f"{x.code}.abs().sqrt()"
    elif k == "mul_add":
        r, code = F(a.mag * 0.5 + b.mag, None), f"{x.code}.mul_add({lit(0.5, t)}, {y.code})"
    else:
        if not (a.exact(t) and b.exact(t)):
            return None
        r, code = F(max(a.mag, b.mag), fb(a.fb, b.fb)), f"if {x.code} < {y.code} {{ {x.code} }} else {{ {y.code} }}"
    return V(f"({code})", t, r)


def leaf(env, t):
    rng = env.prog.rng
    opts = list(env.leaves)
    if env.idx is not None:
        d = rng.choice([3, 7, 16])
        if isf(t):
            opts.append(V(f"(({env.idx} % {d}) as {t})", t, F(d, 0)))
        else:
            opts.append(V(f"(({env.idx} % {d}) as {t})", t, I(0, d - 1)))
    c = rng.randint(0, 5) if not isf(t) else rng.choice([0.5, 1.25, 3.0])
    opts.append(V(lit(c, t), t, I(c, c) if not isf(t) else F(c, 2)))
    return rng.choice(opts)


def expr(env, t, depth=2):
    """A random expression of type `t` (the program's T) over env's leaves."""
    rng = env.prog.rng
    if depth == 0 or rng.random() < 0.3:
        return leaf(env, t)
    for _ in range(8):
        x, y = expr(env, t, depth - 1), expr(env, t, depth - 1)
        v = float_op(rng, x, y, t) if isf(t) else int_op(rng, x, y, t)
        if v is not None:
            return v
    return leaf(env, t)


def cond(env):
    """A bool expression over env (floats compared only when exact)."""
    rng = env.prog.rng
    t = env.prog.T
    for _ in range(10):
        x, y = expr(env, t, 1), expr(env, t, 1)
        if isf(t) and not (x.r.exact(t) and y.r.exact(t)):
            continue
        k = rng.choice(["<", ">", "<=", "==", "!=", "bit"]) if not isf(t) else rng.choice(["<", ">", "<=", "!="])
        if k == "bit":
            c = f"(({x.code} & 1) == 0)"
        else:
            c = f"({x.code} {k} {y.code})"
        if rng.random() < 0.2:
            c = f"(!{c})"
        return V(c, "bool", None)
    return V("true", "bool", None)


def convert(v, rt):
    """`v` (of type T) as type `rt`, with the converted range, or None when the conversion does
    not keep the value the same on every backend (a float cast to an int must be exact)."""
    t = v.t
    if rt == t:
        return v
    if rt == "bool":
        return None
    if isf(t) and not isf(rt):
        if not v.r.exact(t):
            return None
        m = int(v.r.mag) + 1
        lo, hi = max(-m, tmin(rt)), min(m, tmax(rt))
        return V(f"({v.code} as {rt})", rt, I(min(lo, 0), max(hi, 0)))
    if not isf(t) and isf(rt):
        return V(f"({v.code} as {rt})", rt, F(float(v.r.mag()), 0 if v.r.mag() < (1 << mant(rt)) else None))
    if isf(t) and isf(rt):
        return V(f"({v.code} as {rt})", rt, F(v.r.mag, v.r.fb if (rt == "f64" or v.r.exact("f32")) else None))
    # int -> int: the same value when it fits, else wrapped (still the same everywhere).
    if tmin(rt) <= v.r.lo and v.r.hi <= tmax(rt):
        return V(f"({v.code} as {rt})", rt, I(v.r.lo, v.r.hi))
    return V(f"({v.code} as {rt})", rt, I(tmin(rt), tmax(rt)))


def contribution(env, red, ok_wrap=False):
    """A value to combine into reduction `red`; its range; None when none was found."""
    rng = env.prog.rng
    if red.t == "bool":
        return cond(env)
    for _ in range(12):
        v = convert(expr(env, env.prog.T, rng.choice([0, 1, 2])), red.t)
        if v is None:
            continue
        if red.op == "+" and not isf(red.t):
            if v.r.lo < 0 and not signed(red.t):
                continue
            if v.r.mag() > 1000 and not ok_wrap:
                continue
            if v.r.mag() > tmax(red.t) // 64:
                continue
        if red.op == "+" and isf(red.t) and v.r.mag > 1e4:
            continue
        return v
    return None


# ---- statements ----------------------------------------------------------------------------------

UPDATE = {
    "+": ["{s} += {x};", "{s} = {s} + {x};", "{s} = {x} + {s};"],
    "*": ["{s} *= {x};", "{s} = {s} * {x};"],
    "max": ["{s} = {s}.max({x});", "{s} = {x}.max({s});", "if {x} > {s} {{ {s} = {x}; }}"],
    "min": ["{s} = {s}.min({x});", "{s} = {x}.min({s});", "if {x} < {s} {{ {s} = {x}; }}"],
    "&": ["{s} &= {x};", "{s} = {s} & {x};"],
    "|": ["{s} |= {x};", "{s} = {x} | {s};"],
    "^": ["{s} ^= {x};", "{s} = {s} ^ {x};"],
    "&&": ["{s} = {s} && {x};"],
    "||": ["{s} = {s} || {x};"],
}


def update_stmt(rng, red, x):
    form = rng.choice(UPDATE[red.op])
    if form.startswith("if"):
        red.lo_only = True
    return form.format(s=red.name, x=x)


def mpoly(mult, c=1.0):
    """`c` times the product of `mult` (size names; "2" for a loop of two trips)."""
    dims = [d for d in mult if d != "2"]
    coef = float(c) * (2.0 ** sum(1 for d in mult if d == "2"))
    return Poly.const(1).times(dims, coef)


def magnitude(v):
    if v.t == "bool":
        return 1
    return v.r.mag if isf(v.t) else v.r.mag()


class Loop:
    def __init__(self):
        self.clauses = []  # clause strings
        self.reds = []  # (op, name)
        self.privates = []
        self.levels = set()
        self.par = True  # spread over threads (not seq / plain)
        self.plain = False  # no attribute

    def parallel(self):
        return self.par and not self.plain

    def add_red(self, red):
        if (red.op, red.name) not in self.reds:
            self.reds.append((red.op, red.name))


def loop_attr(lp):
    cl = list(lp.clauses)
    by_op = {}
    for op, name in lp.reds:
        by_op.setdefault(op, []).append(name)
    for op, names in by_op.items():
        cl.append(f"reduction({op}: {', '.join(names)})")
    if lp.privates:
        cl.append(f"private({', '.join(lp.privates)})")
    return f"#[acc::r#loop({', '.join(cl)})]" if cl else "#[acc::r#loop]"


def header(rng, var, dim, form_ok=True):
    """A loop header over `dim` trips in a random form, and the trip's index in `0..dim`."""
    forms = ["plain", "offset", "step", "incl", "offset_step"] if form_ok else ["plain", "offset"]
    f = rng.choice(forms + ["plain"] * 3)
    if f == "plain":
        return f"for {var} in 0..{dim}", var
    if f == "offset":
        return f"for {var} in lo..lo + {dim}", f"({var} - lo)"
    if f == "step":
        return f"for {var} in (0..{dim}).step_by(st)", var
    if f == "incl":
        return f"for {var} in 1..={dim}", f"({var} - 1)"
    return f"for {var} in (lo..lo + {dim}).step_by(st)", f"({var} - lo)"


class Nest:
    """Writes one loop nest of `plan`: [(Loop, how many loops it covers)]."""

    def __init__(self, prog, depth, plan, redundant, mult_outer):
        self.prog, self.rng = prog, prog.rng
        self.depth0 = depth
        self.plan = plan
        self.redundant = redundant  # runs gang-redundantly: idempotent effects only
        self.mult_outer = mult_outer  # host loops around the nest
        self.c_written = False
        self.o_level = None  # the group whose body writes `o` rows
        self.rowreds = []  # row reductions of the bodies around the current point
        self.extra = []  # lets of the bodies around the current point

    def write(self):
        nloops = sum(n for _, n in self.plan)
        self.dims = {1: ["nn"], 2: ["n1", "m"], 3: ["n1", "n2", "n3"]}[nloops]
        self.vars = {1: ["i"], 2: ["k", "i"], 3: ["k", "j", "i"]}[nloops]
        self.idx = []
        self.group(0, 0, self.depth0, [], list(self.mult_outer))

    def flat(self):
        x = self.idx
        if len(self.dims) == 1:
            return x[0]
        if len(self.dims) == 2:
            return f"{x[0]} * m + {x[1]}"
        return f"({x[0]} * n2 + {x[1]}) * n3 + {x[2]}"

    def group(self, gi, li, depth, loops, mult):
        """Writes group `gi` of the plan (its loops start at loop number `li`)."""
        prog, rng = self.prog, self.rng
        lp, count = self.plan[gi]
        heads = []
        for q in range(count):
            dim = self.dims[li + q]
            h, ix = header(rng, self.vars[li + q], dim, form_ok=not any("tile" in c for c in lp.clauses))
            heads.append(h)
            self.idx.append(ix)
            mult = mult + list(DIMS_OF[dim])
        attr_at = len(prog.lines)
        for q, h in enumerate(heads):
            prog.emit(depth + q, h + " {")
        loops = loops + [lp]
        if gi == len(self.plan) - 1:
            self.leaf(depth + count, loops, mult)
        else:
            self.middle(gi, li + count, depth + count, loops, mult)
        for q in reversed(range(count)):
            prog.emit(depth + q, "}")
        if not lp.plain:
            prog.lines.insert(attr_at, (depth, ("ATTR", lp), True))
        del self.idx[len(self.idx) - count:]

    # Reductions ----------------------------------------------------------------------------------

    def region_red(self, upto, mult):
        """A region-level reduction to update in the body of group `upto`, its clauses placed
        on a random non-empty subset of the parallel loops from the top down to it."""
        prog, rng = self.prog, self.rng
        cands = [r for r in prog.reds if not (r.op == "*" and (r.used or "2" in mult or upto != len(self.plan) - 1))]
        if not cands:
            return None
        red = rng.choice(cands)
        if red.region_clause:
            return red
        par = [gi for gi in range(upto + 1) if self.plan[gi][0].parallel()]
        if not par:
            # A loop the region runs in order (a `seq` loop, a `serial` region): no clause,
            # unless the loop runs gang-redundantly.
            return None if self.redundant else red
        for gi in [gi for gi in par if rng.random() < 0.5] or [rng.choice(par)]:
            self.plan[gi][0].add_red(red)
        return red

    def update(self, depth, red, x, mult):
        prog = self.prog
        prog.emit(depth, update_stmt(self.rng, red, x.code))
        red.used = True
        if red.op == "+" or isf(red.t):
            red.bound = red.bound + mpoly(mult[red.base:], magnitude(x))

    # Bodies -------------------------------------------------------------------------------------

    def middle(self, gi, li, depth, loops, mult):
        """The body of a loop that holds group `gi + 1`."""
        prog, rng = self.prog, self.rng
        T = prog.T
        used = set().union(*(lp.levels for lp in loops))
        inner_par = any(p.parallel() for p, _ in self.plan[gi + 1:])
        row = self.idx[0] if len(self.idx) == 1 else f"{self.idx[0]} * n2 + {self.idx[1]}"
        prog.emit(depth, f"let row = {row};")
        # (Not the elements of group arrays or of `&mut` slices: acc counts a method call on
        # them as a write, and a `let` that writes memory is refused in this body.)
        plain = [x for x in self.extra if "[" not in x.code]
        env = Env(prog, [V("a[row]", T, small(T)), V("kk", T, small(T))] + list(prog.top_lets) + plain, idx="row")
        n_extra, n_rowreds = len(self.extra), len(self.rowreds)
        o_ok = self.o_level is None and not self.redundant
        if o_ok:
            self.o_level = gi
        # `continue` skips the rest of a gang's trip (refused under worker/vector levels, and
        # in `kernels`, where the loop may stay on the host).
        if prog.kind == "parallel" and inner_par and not (used & {"worker", "vector"}) and rng.random() < 0.25:
            prog.emit(depth, f"if {cond(env).code} {{")
            prog.emit(depth + 1, "continue;")
            prog.emit(depth, "}")
        if rng.random() < 0.6:
            name = prog.fresh("t")
            v = expr(env, T, 2)
            prog.emit(depth, f"let {name} = {v.code};")
            self.extra.append(V(name, T, v.r))
        if inner_par and o_ok and rng.random() < 0.3:
            # The leader stores and assigns a local: the local is broadcast to the group.
            q = prog.fresh("q")
            v = expr(env, T, 1)
            ov = convert(expr(env, T, 1), prog.U)
            prog.emit(depth, f"let mut {q} = {zero(T)};")
            prog.emit(depth, "{")
            if ov is not None:
                prog.emit(depth + 1, f"o[row] = {ov.code};")
                self.o_widen(ov)
            prog.emit(depth + 1, f"{q} = {v.code};")
            prog.emit(depth, "}")
            self.extra.append(V(q, T, v.r))
        nxt = self.plan[gi + 1][0]
        if inner_par and nxt.parallel() and not self.redundant and rng.random() < 0.25:
            # A group array filled by one parallel loop and read by the next (a barrier apart).
            fill = Loop()
            fill.clauses = [c for c in nxt.clauses if c in ("worker", "vector") or c.startswith("vector(")]
            fill.levels = nxt.levels - {"gang"}
            if not fill.clauses and "vector" not in used:
                fill.clauses, fill.levels = ["vector"], {"vector"}
            if fill.clauses:
                sh = prog.fresh("sh")
                prog.emit(depth, f"let mut {sh} = [{zero(T)}; 8];")
                prog.lines.append((depth, ("ATTR", fill), True))
                prog.emit(depth, "for q in 0..8 {")
                v = expr(Env(prog, [V("a[(row + q) % a.len()]", T, small(T)), V("kk", T, small(T))], idx="q"), T, 2)
                prog.emit(depth + 1, f"{sh}[q] = {v.code};")
                prog.emit(depth, "}")
                self.extra.append(V(f"{sh}[row % 8]", T, v.r))
        if prog.scr and gi == 0 and "gang" in loops[0].levels and rng.random() < 0.6:
            # The region's private scratch, written before it is read.
            v = expr(Env(prog, [V("a[(row + q) % a.len()]", T, small(T)), V("kk", T, small(T))], idx="q"), T, 1)
            prog.emit(depth, "for q in 0..scr.len() {")
            prog.emit(depth + 1, f"scr[q] = {v.code};")
            prog.emit(depth, "}")
            self.extra.append(V("scr[row % scr.len()]", T, v.r))
        rowred = None
        if inner_par and rng.random() < 0.55:
            # A row reduction over the loops below; every parallel loop between carries it.
            rt = prog.U if (o_ok and rng.random() < 0.7) else rng.choice(NUMS + ["bool"])
            op = rng.choice(BOOL_OPS if rt == "bool" else [o for o in OPS if o != "*" and not (isf(rt) and o in "&|^")])
            rowred = Red(prog.fresh("r"), op, rt, False)
            rowred.base = len(mult)
            prog.emit(depth, f"let mut {rowred.name} = {self.row_init(rowred, o_ok)};")
            for p, _ in self.plan[gi + 1:]:
                if p.parallel():
                    p.add_red(rowred)
            self.rowreds.append(rowred)
        # A sequential loop around the next (parallel) group: refused under worker/vector
        # levels on the GPU.
        if inner_par and not (used & {"worker", "vector"}) and rowred is None and rng.random() < 0.2:
            prog.emit(depth, "for rep in 0..2 {")
            self.group(gi + 1, li, depth + 1, loops, mult + ["2"])
            prog.emit(depth, "}")
        else:
            self.group(gi + 1, li, depth, loops, mult)
            self.second_phase(gi, li, depth, rowred, mult)
        if rowred is not None:
            self.finish_rowred(gi, depth, rowred, o_ok, loops, mult)
        if not self.redundant and rng.random() < 0.2:
            self.atomic(depth, env, mult, leaf=False)
        del self.extra[n_extra:]
        del self.rowreds[n_rowreds:]

    def second_phase(self, gi, li, depth, rowred, mult):
        """A second loop over the row the first one wrote, reading it reversed."""
        prog, rng = self.prog, self.rng
        T = prog.T
        lp, count = self.plan[gi + 1]
        if gi + 2 != len(self.plan) or count != 1 or not lp.parallel() or not self.c_written or prog.c is None or rng.random() > 0.4:
            return
        ph = Loop()
        ph.clauses, ph.levels = list(lp.clauses), set(lp.levels)
        var, dim = self.vars[li], self.dims[li]
        base = "row * m" if len(self.dims) == 2 else "row * n3"
        rev = f"{base} + ({dim} - 1 - {var})"
        x = None
        if rowred is not None:
            ph.add_red(rowred)
            env = Env(prog, [V(f"c[{rev}]", T, c_class(T)), V(f"a[{base} + {var}]", T, small(T))], idx=var)
            x = contribution(env, rowred)
        prog.lines.append((depth, ("ATTR", ph), True))
        prog.emit(depth, f"for {var} in 0..{dim} {{")
        if x is not None:
            self.update(depth + 1, rowred, x, mult + list(DIMS_OF[dim]))
        else:
            prog.emit(depth + 1, f"let _ = c[{rev}];")
        prog.emit(depth, "}")

    def finish_rowred(self, gi, depth, rowred, o_ok, loops, mult):
        prog, rng = self.prog, self.rng
        if not isf(rowred.t) and rowred.t != "bool" and rowred.op == "+":
            prog.bound_int(rowred.bound, rowred.t)
        if o_ok and rowred.t == prog.U:
            prog.emit(depth, f"o[row] = {rowred.name};")
            if rowred.op == "+" or isf(rowred.t):
                prog.scale["o"] = prog.scale["o"] + rowred.bound.times([], 2.0)
            return
        # Else it feeds a region reduction of the same operator and type: the update runs in
        # this loop's body, so this loop (or, if it runs in order, one above) carries the clause.
        reds = [r for r in prog.reds if r.t == rowred.t and r.op == rowred.op and not r.region_clause]
        if not reds:
            prog.emit(depth, f"let _ = {rowred.name};")
            return
        red = rng.choice(reds)
        for p in reversed(loops):
            if p.parallel():
                p.add_red(red)
                break
        prog.emit(depth, update_stmt(rng, red, rowred.name))
        red.used = True
        if red.op == "+" or isf(red.t):
            red.bound = red.bound + rowred.bound.times([d for d in mult[red.base:] if d != "2"], 2.0 ** mult[red.base:].count("2"))

    def row_init(self, red, o_ok):
        prog, rng = self.prog, self.rng
        t = red.t
        if t == "bool":
            return rng.choice(["true", "false", "a[row] == a[row]"])
        if red.op == "+":
            c = rng.randint(0, 9)
            red.bound = Poly.const(c)
            return lit(c, t)
        red.bound = Poly.const(9)
        if red.op in ("max", "min"):
            if isf(t):
                return rng.choice([lit(0, t), f"{t}::NEG_INFINITY" if red.op == "max" else f"{t}::INFINITY"])
            return rng.choice([lit(0, t), f"{t}::MIN" if red.op == "max" else f"{t}::MAX"])
        if red.op == "&":
            return f"!{lit(0, t)}"
        return lit(0, t)

    def o_widen(self, v):
        """`o` is only written: its floats' magnitude is what the tolerance needs."""
        if isf(self.prog.U):
            self.prog.scale["o"] = self.prog.scale["o"] + Poly.const(v.r.mag)

    def atomic(self, depth, env, mult, leaf=True):
        """An `atomic!` on the histogram `h` or on a counter (a capture only in a leaf body: a
        `let` that writes memory is refused in a body that holds parallel loops)."""
        prog, rng = self.prog, self.rng
        H = prog.H
        bin_ = f"({env.idx} * 7 + 3) % h.len()"
        if not isf(prog.T) and rng.random() < 0.5:
            v = expr(env, prog.T, 1)
            if v.r.lo >= 0:
                bin_ = f"({v.code} as usize) % h.len()"
        kind = rng.choice(["add", "add", "max", "min", "count", "capture"])
        if kind == "capture" and not leaf:
            kind = "count"
        if kind in ("count", "capture"):
            name = prog.fresh("cnt")
            ct = H if kind == "count" or not isf(H) else "u64"
            prog.counters.append((name, ct, mpoly(mult)))
            if kind == "count":
                prog.emit(depth, f"acc::atomic!({name} += {lit(1, ct)});")
            else:
                # The sum of the values captured does not depend on the order.
                reds = [r for r in prog.reds if r.op == "+" and r.t in ("i64", "u64", "isize", "usize") and not r.region_clause]
                old = prog.fresh("old")
                prog.emit(depth, f"let {old} = acc::atomic!(capture {name} += {lit(1, ct)});")
                if reds:
                    red = rng.choice(reds)
                    self.ensure_clause(red)
                    prog.emit(depth, update_stmt(rng, red, f"({old} as {red.t})"))
                    red.used = True
                    red.bound = red.bound + mpoly(mult[red.base:] + mult[red.base:])
            if not isf(ct):
                prog.bound_int(mpoly(mult), ct)
            return
        # One operation per histogram: `+=` and `max` of the same bin do not commute.
        prog.h_kind = prog.h_kind or kind
        kind = prog.h_kind
        v = convert(expr(env, prog.T, 1), H)
        if kind == "add":
            if v is None or (not isf(H) and (v.r.lo < 0 and not signed(H) or v.r.mag() > 1000)) or (isf(H) and v.r.mag > 1e4):
                v = V(lit(1, H), H, I(1, 1) if not isf(H) else F(1.0, 0))
            prog.emit(depth, f"acc::atomic!(h[{bin_}] += {v.code});")
            prog.scale["h"] = prog.scale["h"] + mpoly(mult, 2 * magnitude(v))
            prog.h_add = True
            if not isf(H):
                prog.bound_int(prog.scale["h"], H)
        else:
            if v is None or magnitude(v) > 1000 or (not isf(H) and v.r.lo < 0 and not signed(H)):
                v = V(lit(3, H), H, I(3, 3) if not isf(H) else F(3.0, 0))
            prog.emit(depth, f"acc::atomic!(h[{bin_}] = h[{bin_}].{kind}({v.code}));")
            prog.scale["h"] = prog.scale["h"] + Poly.const(magnitude(v))
            if not isf(H):
                prog.bound_int(prog.scale["h"], H)

    def ensure_clause(self, red):
        """Puts `red`'s clause on the outermost parallel loop of the nest (if none has it)."""
        if red.region_clause or any((red.op, red.name) in lp.reds for lp, _ in self.plan):
            return
        for lp, _ in self.plan:
            if lp.parallel():
                lp.add_red(red)
                return

    def leaf(self, depth, loops, mult):
        prog, rng = self.prog, self.rng
        T = prog.T
        prog.emit(depth, f"let f = {self.flat()};")
        leaves = [V("a[f]", T, small(T)), V("b[f]", T, wide(T)), V("a[f + 1]", T, small(T)), V("kk", T, small(T))]
        if prog.c is not None and not self.redundant:
            leaves.append(V("c[f]", T, c_class(T)))
        env = Env(prog, leaves + list(prog.top_lets) + list(self.extra), idx="f")
        if rng.random() < 0.15:
            prog.emit(depth, f"if {cond(env).code} {{")
            prog.emit(depth + 1, "continue;")
            prog.emit(depth, "}")
        lp = loops[-1]
        if lp.parallel() and rng.random() < 0.3:
            # A loop-private temporary (scalar or array).
            if rng.random() < 0.6:
                pv = prog.fresh("pv")
                v = expr(env, T, 2)
                prog.privates.append((pv, T, False))
                prog.emit(depth, f"{pv} = {v.code};")
                env.leaves.append(V(pv, T, v.r))
            else:
                pv = prog.fresh("pa")
                v = expr(Env(prog, [V("a[f + (q & 1)]", T, small(T)), V("kk", T, small(T))], idx="q"), T, 1)
                prog.privates.append((pv, T, True))
                prog.emit(depth, f"for q in 0..4 {{ {pv}[q] = {v.code}; }}")
                env.leaves.append(V(f"{pv}[(f + 1) % 4]", T, v.r))
            lp.privates.append(pv)
        if rng.random() < 0.15:
            # A sequential loop inside the body.
            w = prog.fresh("win")
            prog.emit(depth, f"let mut {w} = a[f];")
            prog.emit(depth, "for q in 0..2 {")
            prog.emit(depth + 1, f"{w} = {w}.max(a[f + (q & 1)]);")
            prog.emit(depth, "}")
            env.leaves.append(V(w, T, small(T)))
        for rr in self.rowreds:
            x = contribution(env, rr)
            if x is not None and rng.random() < 0.9:
                self.update(depth, rr, x, mult)
        for _ in range(rng.randint(1, 3)):
            k = rng.choice(["c", "c", "red", "red", "red", "atomic", "if"])
            if k == "c":
                self.c_store(depth, env)
            elif k == "red":
                red = self.region_red(len(self.plan) - 1, mult)
                if red is None:
                    continue
                if red.op == "*":
                    prog.uses_m, prog.M = True, red.t
                    prog.emit(depth, update_stmt(rng, red, "mu[f]"))
                    red.used = True
                    continue
                x = contribution(env, red)
                if x is not None:
                    self.update(depth, red, x, mult)
            elif k == "atomic":
                if not self.redundant:
                    self.atomic(depth, env, mult)
            else:
                prog.emit(depth, f"if {cond(env).code} {{")
                self.c_store(depth + 1, env)
                prog.emit(depth, "}")

    def c_store(self, depth, env):
        """A store of `c[f]`, kept in `c_class` (clamped where its range could leave it)."""
        prog, rng = self.prog, self.rng
        T = prog.T
        v = expr(env, T, 2)
        if prog.c_open:
            # Some loop sums into `c` from what is stored: keep stores within a quarter range.
            if not isf(T) and v.r.mag() > tmax(T) // 4:
                v = V("a[f]", T, small(T))
            prog.emit(depth, f"c[f] = {v.code};")
            if isf(T):
                prog.scale["c"] = prog.scale["c"] + Poly.const(v.r.mag)
            self.c_written = True
            return
        cl = c_class(T)
        form = rng.choice(["=", "=", "max", "min"] + ([] if isf(T) or self.redundant else ["^"]))
        e, r = v.code, v.r
        if form == "^":
            p = max(cl.mag(), v.r.mag()).bit_length()
            e, r = f"c[f] ^ {v.code}", I(-(1 << p) if (cl.lo < 0 or v.r.lo < 0) else 0, (1 << p) - 1)
        elif form != "=":
            e = f"c[f].{form}({v.code})"
            r = I(min(cl.lo, r.lo), max(cl.hi, r.hi)) if not isf(T) else F(max(cl.mag, r.mag), None)
        inside = r.mag <= cl.mag if isf(T) else (cl.lo <= r.lo and r.hi <= cl.hi)
        if not inside:
            e = f"({e}).clamp({lit(-1000 if isf(T) else cl.lo, T)}, {lit(1000 if isf(T) else cl.hi, T)})"
        prog.emit(depth, f"c[f] = {e};")
        self.c_written = True


# ---- plans ---------------------------------------------------------------------------------------


def L(clauses="", levels=(), par=True, plain=False):
    lp = Loop()
    lp.clauses = [c for c in clauses.split(", ") if c]
    lp.levels = set(levels)
    lp.par = par
    lp.plain = plain
    return lp


G, W, Vv = "gang", "worker", "vector"

# (weight, builder returning [(Loop, loops it covers)], redundant at the top)
PARALLEL_PLANS = [
    (3, lambda r: [(L("gang", [G]), 1)], False),
    (4, lambda r: [(L("gang, vector", [G, Vv]), 1)], False),
    (2, lambda r: [(L("gang, worker", [G, W]), 1)], False),
    (3, lambda r: [(L("gang, worker, vector", [G, W, Vv]), 1)], False),
    (1, lambda r: [(L("vector", [Vv]), 1)], True),
    (1, lambda r: [(L("worker", [W]), 1)], True),
    (1, lambda r: [(L("worker, vector", [W, Vv]), 1)], True),
    (2, lambda r: [(L("", [G, Vv]), 1)], False),
    (1, lambda r: [(L("independent", [G, Vv]), 1)], False),
    (1, lambda r: [(L("independent, gang, vector", [G, Vv]), 1)], False),
    (1, lambda r: [(L("seq", [], par=False), 1)], True),
    (1, lambda r: [(L("auto", []), 1)], True),
    (5, lambda r: [(L("gang", [G]), 1), (L("vector", [Vv]), 1)], False),
    (3, lambda r: [(L("gang", [G]), 1), (L("worker", [W]), 1)], False),
    (3, lambda r: [(L("gang", [G]), 1), (L("worker, vector", [W, Vv]), 1)], False),
    (3, lambda r: [(L("gang, worker", [G, W]), 1), (L("vector", [Vv]), 1)], False),
    (2, lambda r: [(L("gang", [G]), 1), (L("seq", [], par=False), 1)], False),
    (2, lambda r: [(L("gang", [G]), 1), (L("", [], par=False, plain=True), 1)], False),
    (2, lambda r: [(L("gang, vector", [G, Vv]), 1), (L("seq", [], par=False), 1)], False),
    (1, lambda r: [(L("gang, worker, vector", [G, W, Vv]), 1), (L("", [], par=False, plain=True), 1)], False),
    (3, lambda r: [(L("gang, vector, collapse(2)", [G, Vv]), 2)], False),
    (2, lambda r: [(L("gang, worker, vector, collapse(2)", [G, W, Vv]), 2)], False),
    (1, lambda r: [(L("gang, collapse(2)", [G]), 2)], False),
    (1, lambda r: [(L("collapse(2)", [G, Vv]), 2)], False),
    (2, lambda r: [(L(f"gang, vector, tile({r.choice([2, 4, 8, 32])}, {r.choice([1, 3, 8, 16])})", [G, Vv]), 2)], False),
    (1, lambda r: [(L(f"tile({r.choice([4, 16])}, {r.choice([2, 32])})", [G, Vv]), 2)], False),
    (2, lambda r: [(L("gang", [G]), 1), (L("", [Vv]), 1)], False),
    (1, lambda r: [(L("", [G]), 1), (L("", [Vv]), 1)], False),
    (1, lambda r: [(L("worker", [W]), 1), (L("vector", [Vv]), 1)], True),
    (5, lambda r: [(L("gang", [G]), 1), (L("worker", [W]), 1), (L("vector", [Vv]), 1)], False),
    (2, lambda r: [(L("gang", [G]), 1), (L("worker", [W]), 1), (L("seq", [], par=False), 1)], False),
    (2, lambda r: [(L("gang", [G]), 1), (L("vector", [Vv]), 1), (L("seq", [], par=False), 1)], False),
    (2, lambda r: [(L("gang", [G]), 1), (L("", [], par=False, plain=True), 1), (L("vector", [Vv]), 1)], False),
    (1, lambda r: [(L("gang", [G]), 1), (L("seq", [], par=False), 1), (L("vector", [Vv]), 1)], False),
    (2, lambda r: [(L("gang, collapse(2)", [G]), 2), (L("vector", [Vv]), 1)], False),
    (2, lambda r: [(L("gang", [G]), 1), (L("worker, vector, collapse(2)", [W, Vv]), 2)], False),
    (1, lambda r: [(L("gang", [G]), 1), (L("worker", [W]), 1), (L("", [], par=False, plain=True), 1)], False),
    (1, lambda r: [(L("gang, worker", [G, W]), 1), (L("vector", [Vv]), 1), (L("seq", [], par=False), 1)], False),
    (1, lambda r: [(L("gang, worker, vector, collapse(3)", [G, W, Vv]), 3)], False),
    (1, lambda r: [(L("collapse(3)", [G, Vv]), 3)], False),
]

KERNELS_PLANS = [
    (4, lambda r: [(L("", [G, Vv]), 1)], False),
    (2, lambda r: [(L("independent", [G, Vv]), 1)], False),
    (1, lambda r: [(L("gang", [G]), 1)], False),
    (2, lambda r: [(L(f"independent, gang, vector({r.choice([32, 64, 100, 128])})", [G, Vv]), 1)], False),
    (1, lambda r: [(L("seq", [], par=False), 1)], False),
    (3, lambda r: [(L("", [G]), 1), (L("", [Vv]), 1)], False),
    (3, lambda r: [(L("independent, gang", [G]), 1), (L(f"vector({r.choice([32, 64, 96])})", [Vv]), 1)], False),
    (2, lambda r: [(L("gang(dim: 2)", [G]), 1), (L("gang(dim: 1), vector(128)", [G, Vv]), 1)], False),
    (1, lambda r: [(L("gang(dim: 2), vector(4)", [G, Vv]), 1), (L("gang(dim: 1), vector(32)", [G, Vv]), 1)], False),
    (2, lambda r: [(L("independent, collapse(2)", [G, Vv]), 2)], False),
    (2, lambda r: [(L("independent, gang", [G]), 1), (L("seq", [], par=False), 1)], False),
    (1, lambda r: [(L("", [G]), 1), (L("", [], par=False, plain=True), 1)], False),
    (2, lambda r: [(L("independent, gang", [G]), 1), (L("independent, worker", [W]), 1), (L("vector(32)", [Vv]), 1)], False),
    (1, lambda r: [(L("", [G]), 1), (L("", [W]), 1), (L("", [Vv]), 1)], False),
]

SERIAL_PLANS = [
    (3, lambda r: [(L("", []), 1)], False),
    (2, lambda r: [(L("seq", [], par=False), 1)], False),
    (2, lambda r: [(L("", []), 1), (L("", []), 1)], False),
    (2, lambda r: [(L("", []), 1), (L("", [], par=False, plain=True), 1)], False),
    (1, lambda r: [(L("collapse(2)", []), 2)], False),
    (1, lambda r: [(L("", []), 1), (L("", []), 1), (L("", []), 1)], False),
]


def pick(rng, plans):
    total = sum(w for w, _, _ in plans)
    x = rng.uniform(0, total)
    for w, build, red in plans:
        x -= w
        if x <= 0:
            return build(rng), red
    return plans[-1][1](rng), plans[-1][2]


# ---- kernels loops the dependence test must keep in order ---------------------------------------


def dependent_loop(prog, depth, mult):
    """A `kernels` (or `serial`) loop with a dependence between iterations."""
    rng = prog.rng
    T = prog.T
    kind = rng.choice(["recurrence", "stride", "narrow", "carry"])
    if kind == "recurrence" and not isf(T):
        op = rng.choice(["max", "^", "+"] if prog.c_open else ["max", "^"])
        prog.emit(depth, "for i in 1..nn {")
        if op == "+":
            # c[i] = c[0] + a[1..=i]: the same after every call.
            prog.emit(depth + 1, "c[i] = c[i - 1] + a[i];")
            prog.bound_int(Poly.const(9).times(["n1", "n2", "n3"]) + Poly.const(tmax(T) // 4 + 9), T)
        elif op == "max":
            prog.emit(depth + 1, "c[i] = c[i - 1].max(a[i]);")
        else:
            cl = c_class(T)
            prog.emit(depth + 1, f"c[i] = (c[i - 1] ^ a[i]).clamp({lit(cl.lo, T)}, {lit(cl.hi, T)});")
        prog.emit(depth, "}")
    elif kind == "stride":
        # A stride known at run time (`st - 1` may be 0: every trip updates c[0]).
        prog.emit(depth, "for i in 0..nn / st {")
        if prog.c_open:
            prog.emit(depth + 1, "c[i * (st - 1)] += a[i];")
            add = Poly.const(18).times(["n1", "n2", "n3"])
            prog.scale["c"] = prog.scale["c"] + add
            if not isf(T):
                prog.bound_int(add + Poly.const(tmax(T) // 4 + 9), T)
        elif isf(T):
            prog.emit(depth + 1, "c[i * (st - 1)] = c[i * (st - 1)].max(a[i]) * 0.5 + a[i + 1];")
        else:
            cl = c_class(T)
            prog.emit(depth + 1, f"c[i * (st - 1)] = (c[i * (st - 1)].max(a[i]) ^ a[i + 1]).clamp({lit(cl.lo, T)}, {lit(cl.hi, T)});")
        prog.emit(depth, "}")
    elif kind == "narrow" and not isf(prog.H) and prog.h_kind in (None, "add"):
        prog.h_kind = "add"
        prog.emit(depth, "for i in 0..nn {")
        prog.emit(depth + 1, f"h[(i as u8) as usize] += {lit(1, prog.H)};")
        prog.emit(depth, "}")
        prog.scale["h"] = prog.scale["h"] + Poly.const(2).times(["n1", "n2", "n3"])
        prog.bound_int(prog.scale["h"], prog.H)
        prog.h_add = True
    else:
        name = prog.fresh("carry")
        prog.emit(depth, f"let mut {name} = kk;")
        prog.emit(depth, "for i in 0..nn {")
        if isf(T):
            prog.emit(depth + 1, f"{name} = ({name} * {lit(0.5, T)} + a[i]).max(-{lit(100, T)});")
        else:
            prog.emit(depth + 1, f"{name} = ({name} ^ a[i]).max(a[i + 1]);")
        prog.emit(depth + 1, f"z[3] = {name};")
        prog.emit(depth, "}")
        prog.z_free = False


# ---- a program -----------------------------------------------------------------------------------


def write_program(rng, idx):
    prog = Prog(rng, idx)
    x = rng.uniform(0, 100)
    for kind, w in KINDS:
        x -= w
        if x <= 0:
            break
    prog.kind = kind
    T = prog.T
    prog.z_free = True
    # Region-level reductions.
    for q in range(rng.choice([0, 1, 1, 2, 2, 3])):
        rt = rng.choice(NUMS + ["bool"])
        op = rng.choice(BOOL_OPS if rt == "bool" else [o for o in OPS if not (isf(rt) and o in "&|^")])
        if op == "*" and any(r.op == "*" for r in prog.reds):
            op = "max"
        red = Red(f"s{q}", op, rt, True)
        prog.reds.append(red)
    if prog.kind == "parallel" and prog.reds and rng.random() < 0.15:
        red = rng.choice([r for r in prog.reds])
        red.region_clause = True
        prog.region_clauses.append(f"reduction({red.op}: {red.name})")
    if prog.kind == "parallel" and rng.random() < 0.25:
        prog.scr = True
        prog.region_clauses.append("private(scr)")
    if prog.kind != "kernels" and rng.random() < 0.15:
        prog.region_clauses.append("firstprivate(kk)")
    if prog.kind != "serial":
        if rng.random() < 0.7:
            prog.region_clauses.append("num_gangs(g)")
        if rng.random() < 0.7 and prog.kind == "parallel":
            prog.region_clauses.append("num_workers(w)")
        if rng.random() < 0.8:
            prog.region_clauses.append("vector_length(v)")
    if rng.random() < 0.06:
        prog.region_clauses.append("if(n1 % 4 != 3)")
    if rng.random() < 0.15:
        prog.region_clauses.append(rng.choice(["copyin(a, b)", "copy(c, h)", "copyin(a), copy(o)"]))
    d = 1
    prog.emit(d, "let nn = n1 * n2 * n3;")
    prog.emit(d, "let m = n2 * n3;")
    for r in prog.reds:
        prog.emit(d, f"let mut {r.name} = i{r.name[1:]};")
    decl_at = len(prog.lines)
    # Top-level lets.
    if rng.random() < 0.5:
        env = Env(prog, [V("kk", T, small(T)), V("a[0]", T, small(T)), V("a[1]", T, small(T))])
        v = expr(env, T, 2)
        prog.emit(d, f"let top = {v.code};")
        prog.top_lets.append(V("top", T, v.r))
    if rng.random() < 0.3:
        prog.emit(d, f"z[0] = {expr(Env(prog, [V('kk', T, small(T)), V('a[1]', T, small(T))]), T, 2).code};")
    nests = rng.choice([1, 1, 2, 2, 2, 3])
    plans = {"parallel": PARALLEL_PLANS, "kernels": KERNELS_PLANS, "serial": SERIAL_PLANS}[prog.kind]
    for q in range(nests):
        if prog.kind != "parallel" and rng.random() < 0.25:
            dependent_loop(prog, d, [])
            continue
        plan, redundant = pick(rng, plans)
        # Region-level reduction clause: loops keep none of their own for it (fine either way).
        wrap = rng.random()
        mult = []
        depth = d
        if wrap < 0.1 and not redundant:
            prog.emit(d, "for rep in 0..2 {")
            depth = d + 1
            mult = ["2"]
        elif wrap < 0.2:
            prog.emit(d, rng.choice(["if n1 % 3 != 1 {", "if a[0] <= a[1] {", "if kk != kk {"]))
            depth = d + 1
        nest = Nest(prog, depth, plan, redundant, mult)
        if prog.kind == "serial":
            nest.redundant = False
        nest.write()
        if depth != d:
            prog.emit(d, "}")
        # Code between nests at the top: a store of a reduction's value so far.
        if prog.z_free and rng.random() < 0.3:
            reds = [r for r in prog.reds if not r.region_clause and r.used and r.t == T and not isf(T)]
            if reds:
                r = rng.choice(reds)
                prog.emit(d, f"z[1] = z[1] ^ {r.name};")
                prog.zx = True
        if rng.random() < 0.15 and not isf(T):
            prog.emit(d, "for q in 0..4 {")
            prog.emit(d + 1, "z[2] = z[2].max(a[q % a.len()]);")
            prog.emit(d, "}")
    # Declarations of the loop privates and counters (before the nests).
    decls = []
    for name, t, arr in prog.privates:
        decls.append((d, f"let mut {name} = [{zero(t)}; 4];" if arr else f"let mut {name} = {zero(t)};", False))
    for name, t, _ in prog.counters:
        decls.append((d, f"let mut {name} = {zero(t)};", False))
    for r in prog.reds:
        if r.op == "+" and not isf(r.t) and r.t != "bool":
            prog.bound_int(r.bound, r.t)
    prog.lines[decl_at:decl_at] = decls
    rets = [r.name for r in prog.reds] + [n for n, _, _ in prog.counters]
    prog.emit(d, "(" + ", ".join(rets) + ("," if len(rets) == 1 else "") + ")")
    return prog


# ---- Rust text -----------------------------------------------------------------------------------


def render(prog, acc):
    out = []
    for depth, text, acc_only in prog.lines:
        if isinstance(text, tuple):
            if acc:
                out.append("    " * depth + loop_attr(text[1]))
            continue
        if acc_only and not acc:
            continue
        if not acc:
            text = sequential(text)
        out.append("    " * depth + text)
    return "\n".join(out) + "\n"


def sequential(text):
    """`acc::atomic!` forms as the plain Rust statement they stand for."""
    import re

    m = re.match(r"^let (\w+) = acc::atomic!\(capture (.*) \+= (.*)\);$", text)
    if m:
        name, place, v = m.groups()
        return f"let {name} = {place}; {place} += {v};"
    m = re.match(r"^acc::atomic!\((.*)\);$", text)
    if m:
        return m.group(1) + ";"
    return text


def ret_type(prog):
    ts = [r.t for r in prog.reds] + [t for _, t, _ in prog.counters]
    return "(" + ", ".join(ts) + ("," if len(ts) == 1 else "") + ")"


def signature(prog, name):
    inits = "".join(f"i{r.name[1:]}: {r.t}, " for r in prog.reds)
    return (
        f"fn {name}(a: &[{prog.T}], b: &[{prog.T}], mu: &[{prog.M}], c: &mut [{prog.T}], o: &mut [{prog.U}], h: &mut [{prog.H}], "
        f"z: &mut [{prog.T}], scr: &mut [{prog.T}], n1: usize, n2: usize, n3: usize, lo: usize, st: usize, kk: {prog.T}, "
        f"{inits}g: usize, w: usize, v: usize) -> {ret_type(prog)}"
    )


def init_expr(r):
    op = {"+": "Add", "*": "Mul", "max": "Max", "min": "Min", "&": "And", "|": "Or", "^": "Xor", "&&": "And", "||": "Or"}[r.op]
    if r.lo_only and r.op in ("max", "min"):
        op += "Ordered"
    return f"cx.init::<{r.t}>(Op::{op})"


def program_text(prog):
    kind = prog.kind
    clauses = ", ".join(prog.region_clauses)
    attr = f"#[acc::{kind}({clauses})]" if clauses else f"#[acc::{kind}]"
    body_acc = render(prog, True)
    body_seq = render(prog, False)
    seq_prelude = "    let mut scr = scr.to_vec();\n    let scr = &mut scr[..];\n" if prog.scr else ""
    fits = " && ".join(f"{p.rust()} <= {float(lim)!r}" for p, lim in prog.fits) or "true"
    ret_scales = [r.bound.rust() for r in prog.reds] + [b.rust() for _, _, b in prog.counters]
    inits = "".join(f"let i{r.name[1:]} = {init_expr(r)};\n    " for r in prog.reds)
    iargs = "".join(f"i{r.name[1:]}, " for r in prog.reds)
    name = prog.name
    return f"""
/// Shape {prog.idx}: a `{kind}` region over `{prog.T}` data.
{attr}
{signature(prog, 'acc_' + name)} {{
{body_acc}}}

{signature(prog, 'seq_' + name)} {{
{seq_prelude}{body_seq}}}

fn run_{name}(cx: &mut Case) -> Outcome {{
    let (n1, n2, n3) = cx.dims(|x1, x2, x3| {fits});
    let x = cx.arrays::<{prog.T}, {prog.U}, {prog.H}, {prog.M}>(n1, n2, n3, {str(prog.uses_m).lower()});
    let (lo, st, kk) = (cx.lo(), cx.step(), cx.small::<{prog.T}>());
    {inits}let (g, w, v) = cx.block();
    let (x1, x2, x3) = (n1 as f64, n2 as f64, n3 as f64);
    let scale = Scales {{
        c: {prog.scale['c'].rust()},
        o: {prog.scale['o'].rust()},
        h: {prog.scale['h'].rust()},
        z: {prog.scale['z'].rust()},
        ret: vec![{', '.join(ret_scales)}],
    }};
    cx.compare(
        x,
        scale,
        |a, b, mu, c, o, h, z, scr| seq_{name}(a, b, mu, c, o, h, z, scr, n1, n2, n3, lo, st, kk, {iargs}g, w, v),
        |a, b, mu, c, o, h, z, scr| acc_{name}(a, b, mu, c, o, h, z, scr, n1, n2, n3, lo, st, kk, {iargs}g, w, v),
    )
}}
"""


def main():
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else SEED
    rng = random.Random(seed)
    parts = []
    names = []
    for idx in range(SHAPES):
        prog = write_program(rng, idx)
        parts.append(program_text(prog))
        names.append(prog.name)
    table = "\n/// Every shape's runner, by shape number.\npub const SHAPES: &[Runner] = &[\n" + "".join(f"    run_{n},\n" for n in names) + "];\n"
    splice("difftest/src/programs.rs", "suite/tests/gen/difftest.py", "".join(parts) + table)


if __name__ == "__main__":
    main()
