//! MG, the multigrid benchmark: four (or twenty) V-cycles of a multigrid solver for the
//! discrete Poisson problem `del^2 u = v` on a periodic cube, `v` zero but for ten +1 and
//! ten -1 charges at the largest and smallest of NPB's random numbers.
//!
//! As NPB-ACC's `mg.c` writes it: `u`, `v`, `r` hold all the levels one after another (level
//! `k` at `ir[k]`, the finest at 0), created in one data region; each operator is a region
//! over a level's sub-slice, `gang` over planes, `worker` over rows, `vector` along a row,
//! its partial sums kept in device scratch arrays (NPB-ACC's `acc_malloc` + `deviceptr`:
//! here `acc::DeviceSlice`s, made once for the finest level). The charges are placed on
//! the host and copied to the device with `acc::update!`.

use acc::DeviceSlice;

use crate::class::Class;
use crate::randdp::{randlc, vranlc};
use crate::report::{sci, Report, Size};
use crate::timer::Timer;

/// A class's problem: a `nx`^3 grid (`lt` levels), `nit` V-cycles, NPB's reference norm.
struct Params {
    nx: usize,
    lt: usize,
    nit: u32,
    verify_value: f64,
}

fn params(class: Class) -> Params {
    let (nx, lt, nit, verify_value) = match class {
        Class::S => (32, 5, 4, 0.5307707005734e-04),
        Class::W => (128, 7, 4, 0.6467329375339e-05),
        Class::A => (256, 8, 4, 0.2433365309069e-05),
        Class::B => (256, 8, 20, 0.1800564401355e-05),
        Class::C => (512, 9, 20, 0.5706732285740e-06),
        Class::D => (1024, 10, 50, 0.1583275060440e-09),
    };
    Params { nx, lt, nit, verify_value }
}

const EPSILON: f64 = 1.0e-8;

#[acc::parallel(num_gangs(n3), num_workers(8), vector_length(128))]
fn zero3(z: &mut [f64], n1: usize, n2: usize, n3: usize) {
    let at = |i3: usize, i2: usize, i1: usize| (i3 * n2 + i2) * n1 + i1;
    #[acc::r#loop(gang)]
    for i3 in 0..n3 {
        #[acc::r#loop(worker)]
        for i2 in 0..n2 {
            #[acc::r#loop(vector)]
            for i1 in 0..n1 {
                z[at(i3, i2, i1)] = 0.0;
            }
        }
    }
}

/// The periodic boundary: each face a copy of the opposite inner plane.
#[acc::parallel(num_gangs(n3 - 2), vector_length(128))]
fn comm3(u: &mut [f64], n1: usize, n2: usize, n3: usize) {
    let at = |i3: usize, i2: usize, i1: usize| (i3 * n2 + i2) * n1 + i1;
    #[acc::r#loop(gang)]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(vector)]
        for i2 in 1..n2 - 1 {
            u[at(i3, i2, 0)] = u[at(i3, i2, n1 - 2)];
            u[at(i3, i2, n1 - 1)] = u[at(i3, i2, 1)];
        }
    }
    #[acc::r#loop(gang)]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(vector)]
        for i1 in 0..n1 {
            u[at(i3, 0, i1)] = u[at(i3, n2 - 2, i1)];
            u[at(i3, n2 - 1, i1)] = u[at(i3, 1, i1)];
        }
    }
    #[acc::r#loop(gang)]
    for i2 in 0..n2 {
        #[acc::r#loop(vector)]
        for i1 in 0..n1 {
            u[at(0, i2, i1)] = u[at(n3 - 2, i2, i1)];
            u[at(n3 - 1, i2, i1)] = u[at(1, i2, i1)];
        }
    }
}

/// `r = v - A u` (the residual) over the interior, then the periodic boundary.
#[acc::parallel(num_gangs(n3 - 2), num_workers(8), vector_length(128))]
#[allow(clippy::too_many_arguments)]
fn resid(u: &[f64], v: &[f64], r: &mut [f64], u1: &mut acc::DeviceSlice<f64>, u2: &mut acc::DeviceSlice<f64>, n1: usize, n2: usize, n3: usize, a0: f64, a2: f64, a3: f64) {
    let at = |i3: usize, i2: usize, i1: usize| (i3 * n2 + i2) * n1 + i1;
    #[acc::r#loop(gang)]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 1..n2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 0..n1 {
                u1[at(i3, i2, i1)] = u[at(i3, i2 - 1, i1)] + u[at(i3, i2 + 1, i1)] + u[at(i3 - 1, i2, i1)] + u[at(i3 + 1, i2, i1)];
                u2[at(i3, i2, i1)] = u[at(i3 - 1, i2 - 1, i1)] + u[at(i3 - 1, i2 + 1, i1)] + u[at(i3 + 1, i2 - 1, i1)] + u[at(i3 + 1, i2 + 1, i1)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 1..n2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 1..n1 - 1 {
                r[at(i3, i2, i1)] = v[at(i3, i2, i1)]
                    - a0 * u[at(i3, i2, i1)]
                    - a2 * (u2[at(i3, i2, i1)] + u1[at(i3, i2, i1 - 1)] + u1[at(i3, i2, i1 + 1)])
                    - a3 * (u2[at(i3, i2, i1 - 1)] + u2[at(i3, i2, i1 + 1)]);
            }
        }
    }
}

/// `r = r - A u`: `resid` where `v` is `r` itself (the coarse levels of the V-cycle; Rust
/// has no `&[f64]` and `&mut [f64]` of one array, so it is a region of its own).
#[acc::parallel(num_gangs(n3 - 2), num_workers(8), vector_length(128))]
#[allow(clippy::too_many_arguments)]
fn resid_in_place(u: &[f64], r: &mut [f64], u1: &mut acc::DeviceSlice<f64>, u2: &mut acc::DeviceSlice<f64>, n1: usize, n2: usize, n3: usize, a0: f64, a2: f64, a3: f64) {
    let at = |i3: usize, i2: usize, i1: usize| (i3 * n2 + i2) * n1 + i1;
    #[acc::r#loop(gang)]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 1..n2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 0..n1 {
                u1[at(i3, i2, i1)] = u[at(i3, i2 - 1, i1)] + u[at(i3, i2 + 1, i1)] + u[at(i3 - 1, i2, i1)] + u[at(i3 + 1, i2, i1)];
                u2[at(i3, i2, i1)] = u[at(i3 - 1, i2 - 1, i1)] + u[at(i3 - 1, i2 + 1, i1)] + u[at(i3 + 1, i2 - 1, i1)] + u[at(i3 + 1, i2 + 1, i1)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 1..n2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 1..n1 - 1 {
                r[at(i3, i2, i1)] = r[at(i3, i2, i1)]
                    - a0 * u[at(i3, i2, i1)]
                    - a2 * (u2[at(i3, i2, i1)] + u1[at(i3, i2, i1 - 1)] + u1[at(i3, i2, i1 + 1)])
                    - a3 * (u2[at(i3, i2, i1 - 1)] + u2[at(i3, i2, i1 + 1)]);
            }
        }
    }
}

/// The smoother: `u = u + C r` over the interior.
#[acc::parallel(num_gangs(n3 - 2), num_workers(16), vector_length(64))]
#[allow(clippy::too_many_arguments)]
fn psinv(r: &[f64], u: &mut [f64], r1: &mut acc::DeviceSlice<f64>, r2: &mut acc::DeviceSlice<f64>, n1: usize, n2: usize, n3: usize, c0: f64, c1: f64, c2: f64) {
    let at = |i3: usize, i2: usize, i1: usize| (i3 * n2 + i2) * n1 + i1;
    #[acc::r#loop(gang)]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 1..n2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 0..n1 {
                r1[at(i3, i2, i1)] = r[at(i3, i2 - 1, i1)] + r[at(i3, i2 + 1, i1)] + r[at(i3 - 1, i2, i1)] + r[at(i3 + 1, i2, i1)];
                r2[at(i3, i2, i1)] = r[at(i3 - 1, i2 - 1, i1)] + r[at(i3 - 1, i2 + 1, i1)] + r[at(i3 + 1, i2 - 1, i1)] + r[at(i3 + 1, i2 + 1, i1)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 1..n2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 1..n1 - 1 {
                u[at(i3, i2, i1)] = u[at(i3, i2, i1)]
                    + c0 * r[at(i3, i2, i1)]
                    + c1 * (r[at(i3, i2, i1 - 1)] + r[at(i3, i2, i1 + 1)] + r1[at(i3, i2, i1)])
                    + c2 * (r2[at(i3, i2, i1)] + r1[at(i3, i2, i1 - 1)] + r1[at(i3, i2, i1 + 1)]);
            }
        }
    }
}

/// Restriction: `s` (the coarser grid, `m1j x m2j x m3j`) from `r` (`m1k x m2k x m3k`) by
/// the full-weighting 27-point operator.
#[acc::parallel(num_gangs(m3j - 2), num_workers(8), vector_length(128))]
#[allow(clippy::too_many_arguments)]
fn rprj3(r: &[f64], m1k: usize, m2k: usize, s: &mut [f64], m1j: usize, m2j: usize, m3j: usize, x1: &mut acc::DeviceSlice<f64>, y1: &mut acc::DeviceSlice<f64>, d1: usize, d2: usize, d3: usize) {
    let rk = |i3: usize, i2: usize, i1: usize| (i3 * m2k + i2) * m1k + i1;
    let sj = |j3: usize, j2: usize, j1: usize| (j3 * m2j + j2) * m1j + j1;
    #[acc::r#loop(gang)]
    for j3 in 1..m3j - 1 {
        let i3 = 2 * j3 - d3;
        #[acc::r#loop(worker)]
        for j2 in 1..m2j - 1 {
            let i2 = 2 * j2 - d2;
            #[acc::r#loop(vector)]
            for j1 in 1..m1j {
                let i1 = 2 * j1 - d1;
                x1[rk(i3, i2, i1)] = r[rk(i3 + 1, i2, i1)] + r[rk(i3 + 1, i2 + 2, i1)] + r[rk(i3, i2 + 1, i1)] + r[rk(i3 + 2, i2 + 1, i1)];
                y1[rk(i3, i2, i1)] = r[rk(i3, i2, i1)] + r[rk(i3 + 2, i2, i1)] + r[rk(i3, i2 + 2, i1)] + r[rk(i3 + 2, i2 + 2, i1)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for j3 in 1..m3j - 1 {
        let i3 = 2 * j3 - d3;
        #[acc::r#loop(worker)]
        for j2 in 1..m2j - 1 {
            let i2 = 2 * j2 - d2;
            #[acc::r#loop(vector)]
            for j1 in 1..m1j - 1 {
                let i1 = 2 * j1 - d1;
                let y2 = r[rk(i3, i2, i1 + 1)] + r[rk(i3 + 2, i2, i1 + 1)] + r[rk(i3, i2 + 2, i1 + 1)] + r[rk(i3 + 2, i2 + 2, i1 + 1)];
                let x2 = r[rk(i3 + 1, i2, i1 + 1)] + r[rk(i3 + 1, i2 + 2, i1 + 1)] + r[rk(i3, i2 + 1, i1 + 1)] + r[rk(i3 + 2, i2 + 1, i1 + 1)];
                s[sj(j3, j2, j1)] = 0.5 * r[rk(i3 + 1, i2 + 1, i1 + 1)]
                    + 0.25 * (r[rk(i3 + 1, i2 + 1, i1)] + r[rk(i3 + 1, i2 + 1, i1 + 2)] + x2)
                    + 0.125 * (x1[rk(i3, i2, i1)] + x1[rk(i3, i2, i1 + 2)] + y2)
                    + 0.0625 * (y1[rk(i3, i2, i1)] + y1[rk(i3, i2, i1 + 2)]);
            }
        }
    }
}

/// Prolongation: `u += ` the trilinear interpolation of `z` (the coarser grid, `mm1 x mm2 x
/// mm3`; `u` is `n1 x n2` planes, none of its sides 3 points).
#[acc::parallel(num_gangs(mm3 - 1), num_workers(8), vector_length(128))]
#[allow(clippy::too_many_arguments)]
fn interp(z: &[f64], mm1: usize, mm2: usize, mm3: usize, u: &mut [f64], n1: usize, n2: usize, z1: &mut acc::DeviceSlice<f64>, z2: &mut acc::DeviceSlice<f64>, z3: &mut acc::DeviceSlice<f64>) {
    let zz = |i3: usize, i2: usize, i1: usize| (i3 * mm2 + i2) * mm1 + i1;
    let uu = |i3: usize, i2: usize, i1: usize| (i3 * n2 + i2) * n1 + i1;
    #[acc::r#loop(gang)]
    for i3 in 0..mm3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 0..mm2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 0..mm1 {
                z1[zz(i3, i2, i1)] = z[zz(i3, i2 + 1, i1)] + z[zz(i3, i2, i1)];
                z2[zz(i3, i2, i1)] = z[zz(i3 + 1, i2, i1)] + z[zz(i3, i2, i1)];
                z3[zz(i3, i2, i1)] = z[zz(i3 + 1, i2 + 1, i1)] + z[zz(i3 + 1, i2, i1)] + z1[zz(i3, i2, i1)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for i3 in 0..mm3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 0..mm2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 0..mm1 - 1 {
                u[uu(2 * i3, 2 * i2, 2 * i1)] += z[zz(i3, i2, i1)];
                u[uu(2 * i3, 2 * i2, 2 * i1 + 1)] += 0.5 * (z[zz(i3, i2, i1 + 1)] + z[zz(i3, i2, i1)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for i3 in 0..mm3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 0..mm2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 0..mm1 - 1 {
                u[uu(2 * i3, 2 * i2 + 1, 2 * i1)] += 0.5 * z1[zz(i3, i2, i1)];
                u[uu(2 * i3, 2 * i2 + 1, 2 * i1 + 1)] += 0.25 * (z1[zz(i3, i2, i1)] + z1[zz(i3, i2, i1 + 1)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for i3 in 0..mm3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 0..mm2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 0..mm1 - 1 {
                u[uu(2 * i3 + 1, 2 * i2, 2 * i1)] += 0.5 * z2[zz(i3, i2, i1)];
                u[uu(2 * i3 + 1, 2 * i2, 2 * i1 + 1)] += 0.25 * (z2[zz(i3, i2, i1)] + z2[zz(i3, i2, i1 + 1)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for i3 in 0..mm3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 0..mm2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 0..mm1 - 1 {
                u[uu(2 * i3 + 1, 2 * i2 + 1, 2 * i1)] += 0.25 * z3[zz(i3, i2, i1)];
                u[uu(2 * i3 + 1, 2 * i2 + 1, 2 * i1 + 1)] += 0.125 * (z3[zz(i3, i2, i1)] + z3[zz(i3, i2, i1 + 1)]);
            }
        }
    }
}

/// The sum of squares and the largest magnitude over the interior.
#[acc::parallel(num_gangs(n3 - 2), num_workers(8), vector_length(128))]
fn norm2u3(r: &[f64], n1: usize, n2: usize, n3: usize) -> (f64, f64) {
    let at = |i3: usize, i2: usize, i1: usize| (i3 * n2 + i2) * n1 + i1;
    let mut s = 0.0;
    // acc lacks: `let mut temp = 0.0;` with `temp.max(..)` below: the `--features cuda` build
    // cannot infer the float type (the host build does); hence the suffix.
    let mut temp = 0.0f64;
    #[acc::r#loop(gang, reduction(+: s), reduction(max: temp))]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(worker)]
        for i2 in 1..n2 - 1 {
            #[acc::r#loop(vector)]
            for i1 in 1..n1 - 1 {
                let x = r[at(i3, i2, i1)];
                s += x * x;
                temp = temp.max(x.abs());
            }
        }
    }
    (s, temp)
}

/// The levels: level `k` (1 coarsest, `lt` finest) is `m[k]`^3 points (`2^(k-1)` inner points
/// a side plus the periodic boundary) at `ir[k]` in `u`, `v` and `r`.
struct Levels {
    lt: usize,
    m: Vec<usize>,
    ir: Vec<usize>,
}

impl Levels {
    fn new(nx: usize, lt: usize) -> Self {
        let mut m = vec![0; lt + 1];
        for k in 1..=lt {
            m[k] = (nx >> (lt - k)) + 2;
        }
        let mut ir = vec![0; lt + 1];
        for j in (1..lt).rev() {
            ir[j] = ir[j + 1] + m[j + 1].pow(3);
        }
        Levels { lt, m, ir }
    }

    /// The points of all levels.
    fn total(&self) -> usize {
        self.ir[1] + self.m[1].pow(3)
    }

    fn size(&self, k: usize) -> usize {
        self.m[k].pow(3)
    }
}

/// The device arrays of the solver: `u`, `v`, `r` (all levels) and three scratch arrays of
/// the finest level's size.
struct Grids<'a> {
    u: &'a mut [f64],
    v: &'a mut [f64],
    r: &'a mut [f64],
    s1: DeviceSlice<f64>,
    s2: DeviceSlice<f64>,
    s3: DeviceSlice<f64>,
}

/// The operators' coefficients: `a` of the residual, `c` of the smoother.
struct Coefficients {
    a: [f64; 4],
    c: [f64; 4],
}

/// `r = v - A u` at level `k` (`v` and `r` the finest level's).
fn resid_top(g: &mut Grids, lv: &Levels, co: &Coefficients) {
    let n = lv.m[lv.lt];
    let [a0, _, a2, a3] = co.a;
    resid(g.u, g.v, g.r, &mut g.s1, &mut g.s2, n, n, n, a0, a2, a3);
    comm3(g.r, n, n, n);
}

/// One V-cycle (NPB's `mg3P`).
fn mg3p(g: &mut Grids, lv: &Levels, co: &Coefficients) {
    let [a0, _, a2, a3] = co.a;
    let [c0, c1, c2, _] = co.c;
    // Down the levels: restrict the residual.
    for k in (2..=lv.lt).rev() {
        let j = k - 1;
        let (fine, coarse) = g.r.split_at_mut(lv.ir[j]);
        let (mk, mj) = (lv.m[k], lv.m[j]);
        let d = |m: usize| if m == 3 { 2 } else { 1 };
        rprj3(&fine[lv.ir[k]..], mk, mk, &mut coarse[..lv.size(j)], mj, mj, mj, &mut g.s1, &mut g.s2, d(mk), d(mk), d(mk));
        comm3(&mut coarse[..lv.size(j)], mj, mj, mj);
    }
    // The coarsest level: smooth.
    let (lo, n) = (lv.ir[1], lv.m[1]);
    let u1 = &mut g.u[lo..lo + lv.size(1)];
    zero3(u1, n, n, n);
    psinv(&g.r[lo..lo + lv.size(1)], u1, &mut g.s1, &mut g.s2, n, n, n, c0, c1, c2);
    comm3(u1, n, n, n);
    // Up the levels: interpolate, then the residual and a smoothing at each.
    for k in 2..=lv.lt {
        let j = k - 1;
        let (mk, mj) = (lv.m[k], lv.m[j]);
        let (fine, coarse) = g.u.split_at_mut(lv.ir[j]);
        let uk = &mut fine[lv.ir[k]..];
        if k < lv.lt {
            zero3(uk, mk, mk, mk);
        }
        interp(&coarse[..lv.size(j)], mj, mj, mj, uk, mk, mk, &mut g.s1, &mut g.s2, &mut g.s3);
        let rk = &mut g.r[lv.ir[k]..lv.ir[k] + lv.size(k)];
        if k < lv.lt {
            resid_in_place(uk, rk, &mut g.s1, &mut g.s2, mk, mk, mk, a0, a2, a3);
        } else {
            resid(uk, g.v, rk, &mut g.s1, &mut g.s2, mk, mk, mk, a0, a2, a3);
        }
        comm3(rk, mk, mk, mk);
        psinv(rk, uk, &mut g.s1, &mut g.s2, mk, mk, mk, c0, c1, c2);
        comm3(uk, mk, mk, mk);
    }
}

/// NPB's `norm2u3`: the L2 norm `sqrt(sum r^2 / nx^3)` and the largest magnitude.
fn norm2(r: &[f64], n: usize, nx: usize) -> (f64, f64) {
    let (s, rnmu) = norm2u3(r, n, n, n);
    ((s / (nx as f64).powi(3)).sqrt(), rnmu)
}

/// `a^n (mod 2^46)` (NPB's `power`).
fn power(a: f64, n: usize) -> f64 {
    let (mut p, mut aj, mut nj) = (1.0, a, n);
    while nj != 0 {
        if nj % 2 == 1 {
            randlc(&mut p, aj);
        }
        let t = aj;
        randlc(&mut aj, t);
        nj /= 2;
    }
    p
}

/// NPB's `zran3` on the host: the finest level's `z` zero but for +1 at the ten largest and
/// -1 at the ten smallest of NPB's random numbers on the inner points.
fn zran3(z: &mut [f64], n: usize, nx: usize) {
    const MM: usize = 10;
    let at = |i3: usize, i2: usize, i1: usize| (i3 * n + i2) * n + i1;
    let a = 1220703125.0; // 5^13
    let a1 = power(a, nx);
    let a2 = power(a, nx * nx);
    let mut x0 = 314159265.0;
    randlc(&mut x0, power(a, 0));
    for i3 in 1..nx + 1 {
        let mut x1 = x0;
        for i2 in 1..nx + 1 {
            let mut xx = x1;
            vranlc(&mut xx, a, &mut z[at(i3, i2, 1)..at(i3, i2, 1) + nx]);
            randlc(&mut x1, a1);
        }
        randlc(&mut x0, a2);
    }
    // The ten largest (`big`, ascending) and smallest (`small`, descending) with their places.
    let mut big = [(0.0, 0usize); MM];
    let mut small = [(1.0, 0usize); MM];
    for i3 in 1..n - 1 {
        for i2 in 1..n - 1 {
            for i1 in 1..n - 1 {
                let x = z[at(i3, i2, i1)];
                if x > big[0].0 {
                    big[0] = (x, at(i3, i2, i1));
                    bubble(&mut big, |a, b| a > b);
                }
                if x < small[0].0 {
                    small[0] = (x, at(i3, i2, i1));
                    bubble(&mut small, |a, b| a < b);
                }
            }
        }
    }
    z.fill(0.0);
    for &(x, at) in &small {
        if x < 1.0 {
            z[at] = -1.0;
        }
    }
    for &(x, at) in &big {
        if x > 0.0 {
            z[at] = 1.0;
        }
    }
}

/// NPB's `bubble`: moves the new first entry up while `out_of_order(it, next)`.
fn bubble(ten: &mut [(f64, usize)], out_of_order: impl Fn(f64, f64) -> bool) {
    for i in 0..ten.len() - 1 {
        if !out_of_order(ten[i].0, ten[i + 1].0) {
            return;
        }
        ten.swap(i, i + 1);
    }
}

pub fn run(class: Class) -> Report {
    let p = params(class);
    let mut init = Timer::new();
    init.start();
    println!("\n\n NAS Parallel Benchmarks (NPB3.3, acc) - MG Benchmark\n");
    println!(" No input file. Using compiled defaults ");
    let lv = Levels::new(p.nx, p.lt);
    let n = lv.m[lv.lt];
    let top = n * n * n;
    let co = Coefficients {
        a: [-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0],
        c: match class {
            Class::S | Class::W | Class::A => [-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0],
            _ => [-3.0 / 17.0, 1.0 / 33.0, -1.0 / 61.0, 0.0],
        },
    };
    let mut u = vec![0.0f64; lv.total()];
    let mut v = vec![0.0f64; lv.total()];
    let mut r = vec![0.0f64; lv.total()];
    let mut bench = Timer::new();
    let rnm2;
    acc::data!(create(u, v, r) {
        let mut g = Grids {
            u: &mut u,
            v: &mut v,
            r: &mut r,
            s1: DeviceSlice::zeros(top),
            s2: DeviceSlice::zeros(top),
            s3: DeviceSlice::zeros(top),
        };
        let charges = |g: &mut Grids| {
            zero3(&mut g.u[..top], n, n, n);
            let vt = &mut g.v[..top];
            zran3(vt, n, p.nx);
            acc::update!(device(vt));
            comm3(vt, n, n, n);
        };
        charges(&mut g);
        println!(" Size: {:4}x{:4}x{:4}  (class {class})", p.nx, p.nx, p.nx);
        println!(" Iterations: {:3}", p.nit);
        println!();
        // One iteration untimed, to touch all code and data.
        resid_top(&mut g, &lv, &co);
        mg3p(&mut g, &lv, &co);
        resid_top(&mut g, &lv, &co);
        charges(&mut g);
        init.stop();
        println!(" Initialization time: {:15.3} seconds\n", init.read());

        bench.start();
        resid_top(&mut g, &lv, &co);
        norm2(&g.r[..top], n, p.nx);
        for it in 1..=p.nit {
            if it == 1 || it == p.nit || it % 100 == 0 {
                println!("  iter {it:3}");
            }
            mg3p(&mut g, &lv, &co);
            resid_top(&mut g, &lv, &co);
        }
        rnm2 = norm2(&g.r[..top], n, p.nx).0;
        bench.stop();
    });
    let t = bench.read();
    println!("\n Benchmark completed");
    let err = (rnm2 - p.verify_value).abs() / p.verify_value;
    let verified = err <= EPSILON;
    if verified {
        println!(" VERIFICATION SUCCESSFUL");
        println!(" L2 Norm is {:>20}", sci(rnm2, 13));
        println!(" Error is   {:>20}", sci(err, 13));
    } else {
        println!(" VERIFICATION FAILED");
        println!(" L2 Norm is             {:>20}", sci(rnm2, 13));
        println!(" The correct L2 Norm is {:>20}", sci(p.verify_value, 13));
    }
    let nn = (p.nx as f64).powi(3);
    Report {
        name: "MG",
        class,
        size: Size::Grid(p.nx as u32, p.nx as u32, p.nx as u32),
        iterations: p.nit,
        time: t,
        mops: if t != 0.0 { 58.0 * p.nit as f64 * nn * 1.0e-6 / t } else { 0.0 },
        optype: "          floating point",
        verified,
    }
}
