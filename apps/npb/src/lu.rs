//! LU, the lower-upper Gauss-Seidel pseudo-application: a symmetric successive
//! over-relaxation (SSOR) solver of the steady-state compressible Navier-Stokes equations
//! (five coupled nonlinear PDEs, finite differences on a cube) with a manufactured solution.
//!
//! As NPB-ACC's `LU-HP` writes it: the fields live in one data region around the iterations
//! (created on the device, `u` copied to it with `acc::update!` after the host sets its
//! boundary and initial values); the right-hand side is regions of `gang` over planes,
//! `worker` over rows, `vector` along a row, the zeta direction through transposed copies
//! (`utmp`, `rtmp`) with `k` innermost; the lower and upper triangular solves sweep the
//! hyperplanes `i + j + k = l`, each a region per sweep step with a thread per point of the
//! plane (the points' `i`, `j` in `indxp`, `jndxp`), the 5x5 blocks `a`, `b`, `c`, `d` per point
//! in device arrays. Each point's block solve works in arrays of the loop body's own
//! (`tmat`, the right-hand side), which the compiler keeps in registers (NPB-ACC's global
//! `tmat[5][5][np]`, `tv[5][np]`: NPB's serial `blts` has them local); the backward sweep's
//! first nest hands its right-hand side to the second in `tv`. The residual norms are one
//! region reducing five sums.

use crate::class::Class;
use crate::report::{sci, Report, Size};
use crate::timer::Timer;

const C1: f64 = 1.40e+00;
const C2: f64 = 0.40e+00;
const C3: f64 = 1.00e-01;
const C4: f64 = 1.00e+00;
const C5: f64 = 1.40e+00;
const R43: f64 = 4.0 / 3.0;
const C1345: f64 = C1 * C3 * C4 * C5;
const C34: f64 = C3 * C4;
const OMEGA: f64 = 1.2;
const TOLRSD: f64 = 1.0e-08;
const EPSILON: f64 = 1.0e-08;

/// A class's problem: an `n`^3 grid, `itmax` SSOR iterations of time step `dt`, and NPB's
/// reference values: the residual norms (`xcr`), the error norms (`xce`), the surface
/// integral (`xci`).
struct Params {
    n: usize,
    itmax: u32,
    dt: f64,
    xcr: [f64; 5],
    xce: [f64; 5],
    xci: f64,
}

#[allow(clippy::excessive_precision)] // NPB's reference values, digit for digit
fn params(class: Class) -> Params {
    let (n, itmax, dt, xcr, xce, xci) = match class {
        Class::S => (
            12,
            50,
            0.5,
            [
                1.6196343210976702e-02,
                2.1976745164821318e-03,
                1.5179927653399185e-03,
                1.5029584435994323e-03,
                3.4264073155896461e-02,
            ],
            [
                6.4223319957960924e-04,
                8.4144342047347926e-05,
                5.8588269616485186e-05,
                5.8474222595157350e-05,
                1.3103347914111294e-03,
            ],
            7.8418928865937083e+00,
        ),
        Class::W => (
            33,
            300,
            1.5e-3,
            [
                0.1236511638192e+02,
                0.1317228477799e+01,
                0.2550120713095e+01,
                0.2326187750252e+01,
                0.2826799444189e+02,
            ],
            [
                0.4867877144216e+00,
                0.5064652880982e-01,
                0.9281818101960e-01,
                0.8570126542733e-01,
                0.1084277417792e+01,
            ],
            0.1161399311023e+02,
        ),
        Class::A => (
            64,
            250,
            2.0,
            [
                7.7902107606689367e+02,
                6.3402765259692870e+01,
                1.9499249727292479e+02,
                1.7845301160418537e+02,
                1.8384760349464247e+03,
            ],
            [
                2.9964085685471943e+01,
                2.8194576365003349e+00,
                7.3473412698774742e+00,
                6.7139225687777051e+00,
                7.0715315688392578e+01,
            ],
            2.6030925604886277e+01,
        ),
        Class::B => (
            102,
            250,
            2.0,
            [
                3.5532672969982736e+03,
                2.6214750795310692e+02,
                8.8333721850952190e+02,
                7.7812774739425265e+02,
                7.3087969592545314e+03,
            ],
            [
                1.1401176380212709e+02,
                8.1098963655421574e+00,
                2.8480597317698308e+01,
                2.5905394567832939e+01,
                2.6054907504857413e+02,
            ],
            4.7887162703308227e+01,
        ),
        Class::C => (
            162,
            250,
            2.0,
            [
                1.03766980323537846e+04,
                8.92212458801008552e+02,
                2.56238814582660871e+03,
                2.19194343857831427e+03,
                1.78078057261061185e+04,
            ],
            [
                2.15986399716949279e+02,
                1.55789559239863600e+01,
                5.41318863077207766e+01,
                4.82262643154045421e+01,
                4.55902910043250358e+02,
            ],
            6.66404553572181300e+01,
        ),
        Class::D => (
            408,
            300,
            1.0,
            [
                0.4868417937025e+05,
                0.4696371050071e+04,
                0.1218114549776e+05,
                0.1033801493461e+05,
                0.7142398413817e+05,
            ],
            [
                0.3752393004482e+03,
                0.3084128893659e+02,
                0.9434276905469e+02,
                0.8230686681928e+02,
                0.7002620636210e+03,
            ],
            0.8334101392503e+02,
        ),
    };
    Params { n, itmax, dt, xcr, xce, xci }
}

/// The grid and the layouts of the arrays: `u`, `rsd`, `frct` are `[5][nz][ldy][ldx]`
/// (NPB pads the two inner sides of even sizes by one), `qs`, `rho_i` `[nz][ldy][ldx]`,
/// `flux` `[5][n][n][n]`, the transposed `utmp` `[6][n][n][n]` and `rtmp` `[5][n][n][n]`,
/// the blocks `a`..`d` `[5][5][np]`, `tv` `[5][np]`, the hyperplanes' `indxp`,
/// `jndxp` `[3n - 5][np]`, where `np = n * n`.
#[repr(C)]
#[derive(Clone, Copy, acc::DeviceCopy)]
struct Grid {
    nx: usize,
    ny: usize,
    nz: usize,
    ldx: usize,
    ldy: usize,
    n: usize,
    np: usize,
    ist: usize,
    iend: usize,
    jst: usize,
    jend: usize,
}

impl Grid {
    fn new(n: usize) -> Grid {
        let ld = n / 2 * 2 + 1;
        Grid {
            nx: n,
            ny: n,
            nz: n,
            ldx: ld,
            ldy: ld,
            n,
            np: n * n,
            ist: 1,
            iend: n - 2,
            jst: 1,
            jend: n - 2,
        }
    }

    /// `u[m][k][j][i]` (and `rsd`, `frct`).
    #[inline]
    fn at(&self, m: usize, k: usize, j: usize, i: usize) -> usize {
        ((m * self.nz + k) * self.ldy + j) * self.ldx + i
    }

    /// `qs[k][j][i]`, `rho_i[k][j][i]`.
    #[inline]
    fn at3(&self, k: usize, j: usize, i: usize) -> usize {
        (k * self.ldy + j) * self.ldx + i
    }

    /// `flux[m][a][b][c]`.
    #[inline]
    fn fl(&self, m: usize, a: usize, b: usize, c: usize) -> usize {
        ((m * self.n + a) * self.n + b) * self.n + c
    }

    /// `utmp[m][j][i][k]`, `rtmp[m][j][i][k]`.
    #[inline]
    fn zt(&self, m: usize, j: usize, i: usize, k: usize) -> usize {
        ((m * self.n + j) * self.n + i) * self.n + k
    }

    /// `a[p][q][n]` (and `b`, `c`, `d`): block entry `(p, q)` of a hyperplane's point `n`.
    #[inline]
    fn jac(&self, p: usize, q: usize, n: usize) -> usize {
        (p * 5 + q) * self.np + n
    }

    /// `tv[m][n]`.
    #[inline]
    fn tv(&self, m: usize, n: usize) -> usize {
        m * self.np + n
    }

    /// `indxp[l][n]`, `jndxp[l][n]`: point `n` of hyperplane `l`.
    #[inline]
    fn hp(&self, l: usize, n: usize) -> usize {
        l * self.np + n
    }

    fn len4(&self, m: usize) -> usize {
        m * self.nz * self.ldy * self.ldx
    }
}

/// NPB's `setcoeff`: the mesh spacings, the difference coefficients, the dissipation and
/// the time step.
#[repr(C)]
#[derive(Clone, Copy, acc::DeviceCopy)]
struct Consts {
    dxi: f64,
    deta: f64,
    dzeta: f64,
    tx1: f64,
    tx2: f64,
    tx3: f64,
    ty1: f64,
    ty2: f64,
    ty3: f64,
    tz1: f64,
    tz2: f64,
    tz3: f64,
    dx1: f64,
    dx2: f64,
    dx3: f64,
    dx4: f64,
    dx5: f64,
    dy1: f64,
    dy2: f64,
    dy3: f64,
    dy4: f64,
    dy5: f64,
    dz1: f64,
    dz2: f64,
    dz3: f64,
    dz4: f64,
    dz5: f64,
    dssp: f64,
    dt: f64,
}

impl Consts {
    fn new(g: &Grid, dt: f64) -> Consts {
        let dxi = 1.0 / (g.nx - 1) as f64;
        let deta = 1.0 / (g.ny - 1) as f64;
        let dzeta = 1.0 / (g.nz - 1) as f64;
        let (dx, dy, dz) = (0.75, 0.75, 1.00);
        Consts {
            dxi,
            deta,
            dzeta,
            tx1: 1.0 / (dxi * dxi),
            tx2: 1.0 / (2.0 * dxi),
            tx3: 1.0 / dxi,
            ty1: 1.0 / (deta * deta),
            ty2: 1.0 / (2.0 * deta),
            ty3: 1.0 / deta,
            tz1: 1.0 / (dzeta * dzeta),
            tz2: 1.0 / (2.0 * dzeta),
            tz3: 1.0 / dzeta,
            dx1: dx,
            dx2: dx,
            dx3: dx,
            dx4: dx,
            dx5: dx,
            dy1: dy,
            dy2: dy,
            dy3: dy,
            dy4: dy,
            dy5: dy,
            dz1: dz,
            dz2: dz,
            dz3: dz,
            dz4: dz,
            dz5: dz,
            dssp: f64::max(f64::max(dx, dy), dz) / 4.0,
            dt,
        }
    }
}

/// The coefficients of the exact solution, `ce[m][0..13]` at `ce_at(m, ..)`.
const CE: [f64; 65] = [
    2.0, 0.0, 0.0, 4.0, 5.0, 3.0, 5.0e-01, 2.0e-02, 1.0e-02, 3.0e-02, 5.0e-01, 4.0e-01, 3.0e-01, //
    1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 1.0e-02, 3.0e-02, 2.0e-02, 4.0e-01, 3.0e-01, 5.0e-01, //
    2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 4.0e-02, 3.0e-02, 5.0e-02, 3.0e-01, 5.0e-01, 4.0e-01, //
    2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 3.0e-02, 5.0e-02, 4.0e-02, 2.0e-01, 1.0e-01, 3.0e-01, //
    5.0, 4.0, 3.0, 2.0, 1.0e-01, 4.0e-01, 3.0e-01, 5.0e-02, 4.0e-02, 3.0e-02, 1.0e-01, 3.0e-01, 2.0e-01,
];

const fn ce_at(m: usize, p: usize) -> usize {
    m * 13 + p
}

/// The workers of the rhs regions along a row: NPB-ACC's `num_workers3`.
fn nw3(g: Grid) -> usize {
    (g.jend - g.jst + 1).min(32)
}

/// NPB-ACC's `num_workers2` for the boundary dissipation, `(jend - jst + 1) / 32` (at least
/// one: NPB-ACC's is zero for the classes under 34 points, a count OpenACC leaves to the
/// implementation).
fn nw2(g: Grid) -> usize {
    ((g.jend - g.jst + 1) / 32).clamp(1, 32)
}

/// NPB-ACC's `num_workers4`.
fn nw4(g: Grid) -> usize {
    (g.ny - 6).min(8)
}
/// `rsd = -frct`; `rho_i`, `qs` from `u`.
#[acc::parallel(num_gangs(g.nz), num_workers(8), vector_length(128))]
fn rhs_init(u: &[f64], rsd: &mut [f64], frct: &[f64], qs: &mut [f64], rho_i: &mut [f64], g: Grid) {
    let Grid { nx, ny, nz, .. } = g;
    #[acc::r#loop(gang)]
    for k in 0..nz {
        #[acc::r#loop(worker)]
        for j in 0..ny {
            #[acc::r#loop(vector)]
            for i in 0..nx {
                for m in 0..5 {
                    rsd[g.at(m, k, j, i)] = -frct[g.at(m, k, j, i)];
                }
                let tmp = 1.0 / u[g.at(0, k, j, i)];
                rho_i[g.at3(k, j, i)] = tmp;
                qs[g.at3(k, j, i)] = 0.50
                    * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)] + u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)] + u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)])
                    * tmp;
            }
        }
    }
}

/// The xi-direction fluxes and their differences.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(nw3(g)), vector_length(32))]
fn rhs_x(u: &[f64], rsd: &mut [f64], qs: &[f64], rho_i: &[f64], flux: &mut [f64], g: Grid, cs: Consts) {
    let Grid {
        nx, nz, ist, iend, jst, jend, ..
    } = g;
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in jst..=jend {
            #[acc::r#loop(vector)]
            for i in 0..nx {
                flux[g.fl(0, k, j, i)] = u[g.at(1, k, j, i)];
                let u21 = u[g.at(1, k, j, i)] * rho_i[g.at3(k, j, i)];
                let q = qs[g.at3(k, j, i)];
                flux[g.fl(1, k, j, i)] = u[g.at(1, k, j, i)] * u21 + C2 * (u[g.at(4, k, j, i)] - q);
                flux[g.fl(2, k, j, i)] = u[g.at(2, k, j, i)] * u21;
                flux[g.fl(3, k, j, i)] = u[g.at(3, k, j, i)] * u21;
                flux[g.fl(4, k, j, i)] = (C1 * u[g.at(4, k, j, i)] - C2 * q) * u21;
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in jst..=jend {
            #[acc::r#loop(vector)]
            for i in ist..=iend {
                for m in 0..5 {
                    rsd[g.at(m, k, j, i)] = rsd[g.at(m, k, j, i)] - cs.tx2 * (flux[g.fl(m, k, j, i + 1)] - flux[g.fl(m, k, j, i - 1)]);
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in jst..=jend {
            #[acc::r#loop(vector)]
            for i in ist..nx {
                let tmp = rho_i[g.at3(k, j, i)];
                let u21i = tmp * u[g.at(1, k, j, i)];
                let u31i = tmp * u[g.at(2, k, j, i)];
                let u41i = tmp * u[g.at(3, k, j, i)];
                let u51i = tmp * u[g.at(4, k, j, i)];
                let tmp = rho_i[g.at3(k, j, i - 1)];
                let u21im1 = tmp * u[g.at(1, k, j, i - 1)];
                let u31im1 = tmp * u[g.at(2, k, j, i - 1)];
                let u41im1 = tmp * u[g.at(3, k, j, i - 1)];
                let u51im1 = tmp * u[g.at(4, k, j, i - 1)];
                flux[g.fl(1, k, j, i)] = (4.0 / 3.0) * cs.tx3 * (u21i - u21im1);
                flux[g.fl(2, k, j, i)] = cs.tx3 * (u31i - u31im1);
                flux[g.fl(3, k, j, i)] = cs.tx3 * (u41i - u41im1);
                flux[g.fl(4, k, j, i)] =
                    0.50 * (1.0 - C1 * C5) * cs.tx3 * ((u21i * u21i + u31i * u31i + u41i * u41i) - (u21im1 * u21im1 + u31im1 * u31im1 + u41im1 * u41im1))
                        + (1.0 / 6.0) * cs.tx3 * (u21i * u21i - u21im1 * u21im1)
                        + C1 * C5 * cs.tx3 * (u51i - u51im1);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in jst..=jend {
            #[acc::r#loop(vector)]
            for i in ist..=iend {
                rsd[g.at(0, k, j, i)] =
                    rsd[g.at(0, k, j, i)] + cs.dx1 * cs.tx1 * (u[g.at(0, k, j, i - 1)] - 2.0 * u[g.at(0, k, j, i)] + u[g.at(0, k, j, i + 1)]);
                rsd[g.at(1, k, j, i)] = rsd[g.at(1, k, j, i)]
                    + cs.tx3 * C3 * C4 * (flux[g.fl(1, k, j, i + 1)] - flux[g.fl(1, k, j, i)])
                    + cs.dx2 * cs.tx1 * (u[g.at(1, k, j, i - 1)] - 2.0 * u[g.at(1, k, j, i)] + u[g.at(1, k, j, i + 1)]);
                rsd[g.at(2, k, j, i)] = rsd[g.at(2, k, j, i)]
                    + cs.tx3 * C3 * C4 * (flux[g.fl(2, k, j, i + 1)] - flux[g.fl(2, k, j, i)])
                    + cs.dx3 * cs.tx1 * (u[g.at(2, k, j, i - 1)] - 2.0 * u[g.at(2, k, j, i)] + u[g.at(2, k, j, i + 1)]);
                rsd[g.at(3, k, j, i)] = rsd[g.at(3, k, j, i)]
                    + cs.tx3 * C3 * C4 * (flux[g.fl(3, k, j, i + 1)] - flux[g.fl(3, k, j, i)])
                    + cs.dx4 * cs.tx1 * (u[g.at(3, k, j, i - 1)] - 2.0 * u[g.at(3, k, j, i)] + u[g.at(3, k, j, i + 1)]);
                rsd[g.at(4, k, j, i)] = rsd[g.at(4, k, j, i)]
                    + cs.tx3 * C3 * C4 * (flux[g.fl(4, k, j, i + 1)] - flux[g.fl(4, k, j, i)])
                    + cs.dx5 * cs.tx1 * (u[g.at(4, k, j, i - 1)] - 2.0 * u[g.at(4, k, j, i)] + u[g.at(4, k, j, i + 1)]);
            }
        }
    }
}

/// The xi-direction fourth-order dissipation at `i = 1, 2`.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(nw2(g)), vector_length(32))]
fn rhs_x_diss_lo(u: &[f64], rsd: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nz, jst, jend, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker, vector)]
        for j in jst..=jend {
            for m in 0..5 {
                rsd[g.at(m, k, j, 1)] = rsd[g.at(m, k, j, 1)] - cs.dssp * (5.0 * u[g.at(m, k, j, 1)] - 4.0 * u[g.at(m, k, j, 2)] + u[g.at(m, k, j, 3)]);
                rsd[g.at(m, k, j, 2)] = rsd[g.at(m, k, j, 2)]
                    - cs.dssp * (-4.0 * u[g.at(m, k, j, 1)] + 6.0 * u[g.at(m, k, j, 2)] - 4.0 * u[g.at(m, k, j, 3)] + u[g.at(m, k, j, 4)]);
            }
        }
    }
}

/// The xi-direction fourth-order dissipation inside.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(nw3(g)), vector_length(32))]
fn rhs_x_diss(u: &[f64], rsd: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nx, nz, jst, jend, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in jst..=jend {
            #[acc::r#loop(vector)]
            for i in 3..nx - 3 {
                for m in 0..5 {
                    rsd[g.at(m, k, j, i)] = rsd[g.at(m, k, j, i)]
                        - cs.dssp
                            * (u[g.at(m, k, j, i - 2)] - 4.0 * u[g.at(m, k, j, i - 1)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j, i + 1)]
                                + u[g.at(m, k, j, i + 2)]);
                }
            }
        }
    }
}

/// The xi-direction fourth-order dissipation at `i = nx - 3, nx - 2`.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(nw2(g)), vector_length(32))]
fn rhs_x_diss_hi(u: &[f64], rsd: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nx, nz, jst, jend, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker, vector)]
        for j in jst..=jend {
            for m in 0..5 {
                rsd[g.at(m, k, j, nx - 3)] = rsd[g.at(m, k, j, nx - 3)]
                    - cs.dssp * (u[g.at(m, k, j, nx - 5)] - 4.0 * u[g.at(m, k, j, nx - 4)] + 6.0 * u[g.at(m, k, j, nx - 3)] - 4.0 * u[g.at(m, k, j, nx - 2)]);
                rsd[g.at(m, k, j, nx - 2)] =
                    rsd[g.at(m, k, j, nx - 2)] - cs.dssp * (u[g.at(m, k, j, nx - 4)] - 4.0 * u[g.at(m, k, j, nx - 3)] + 5.0 * u[g.at(m, k, j, nx - 2)]);
            }
        }
    }
}

/// The eta-direction fluxes and their differences.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(nw3(g)), vector_length(32))]
fn rhs_y(u: &[f64], rsd: &mut [f64], qs: &[f64], rho_i: &[f64], flux: &mut [f64], g: Grid, cs: Consts) {
    let Grid {
        ny, nz, ist, iend, jst, jend, ..
    } = g;
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for j in 0..ny {
                flux[g.fl(0, k, i, j)] = u[g.at(2, k, j, i)];
                let u31 = u[g.at(2, k, j, i)] * rho_i[g.at3(k, j, i)];
                let q = qs[g.at3(k, j, i)];
                flux[g.fl(1, k, i, j)] = u[g.at(1, k, j, i)] * u31;
                flux[g.fl(2, k, i, j)] = u[g.at(2, k, j, i)] * u31 + C2 * (u[g.at(4, k, j, i)] - q);
                flux[g.fl(3, k, i, j)] = u[g.at(3, k, j, i)] * u31;
                flux[g.fl(4, k, i, j)] = (C1 * u[g.at(4, k, j, i)] - C2 * q) * u31;
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for j in jst..=jend {
                for m in 0..5 {
                    rsd[g.at(m, k, j, i)] = rsd[g.at(m, k, j, i)] - cs.ty2 * (flux[g.fl(m, k, i, j + 1)] - flux[g.fl(m, k, i, j - 1)]);
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for j in jst..ny {
                let tmp = rho_i[g.at3(k, j, i)];
                let u21j = tmp * u[g.at(1, k, j, i)];
                let u31j = tmp * u[g.at(2, k, j, i)];
                let u41j = tmp * u[g.at(3, k, j, i)];
                let u51j = tmp * u[g.at(4, k, j, i)];
                let tmp = rho_i[g.at3(k, j - 1, i)];
                let u21jm1 = tmp * u[g.at(1, k, j - 1, i)];
                let u31jm1 = tmp * u[g.at(2, k, j - 1, i)];
                let u41jm1 = tmp * u[g.at(3, k, j - 1, i)];
                let u51jm1 = tmp * u[g.at(4, k, j - 1, i)];
                flux[g.fl(1, k, i, j)] = cs.ty3 * (u21j - u21jm1);
                flux[g.fl(2, k, i, j)] = (4.0 / 3.0) * cs.ty3 * (u31j - u31jm1);
                flux[g.fl(3, k, i, j)] = cs.ty3 * (u41j - u41jm1);
                flux[g.fl(4, k, i, j)] =
                    0.50 * (1.0 - C1 * C5) * cs.ty3 * ((u21j * u21j + u31j * u31j + u41j * u41j) - (u21jm1 * u21jm1 + u31jm1 * u31jm1 + u41jm1 * u41jm1))
                        + (1.0 / 6.0) * cs.ty3 * (u31j * u31j - u31jm1 * u31jm1)
                        + C1 * C5 * cs.ty3 * (u51j - u51jm1);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for j in jst..=jend {
                rsd[g.at(0, k, j, i)] =
                    rsd[g.at(0, k, j, i)] + cs.dy1 * cs.ty1 * (u[g.at(0, k, j - 1, i)] - 2.0 * u[g.at(0, k, j, i)] + u[g.at(0, k, j + 1, i)]);
                rsd[g.at(1, k, j, i)] = rsd[g.at(1, k, j, i)]
                    + cs.ty3 * C3 * C4 * (flux[g.fl(1, k, i, j + 1)] - flux[g.fl(1, k, i, j)])
                    + cs.dy2 * cs.ty1 * (u[g.at(1, k, j - 1, i)] - 2.0 * u[g.at(1, k, j, i)] + u[g.at(1, k, j + 1, i)]);
                rsd[g.at(2, k, j, i)] = rsd[g.at(2, k, j, i)]
                    + cs.ty3 * C3 * C4 * (flux[g.fl(2, k, i, j + 1)] - flux[g.fl(2, k, i, j)])
                    + cs.dy3 * cs.ty1 * (u[g.at(2, k, j - 1, i)] - 2.0 * u[g.at(2, k, j, i)] + u[g.at(2, k, j + 1, i)]);
                rsd[g.at(3, k, j, i)] = rsd[g.at(3, k, j, i)]
                    + cs.ty3 * C3 * C4 * (flux[g.fl(3, k, i, j + 1)] - flux[g.fl(3, k, i, j)])
                    + cs.dy4 * cs.ty1 * (u[g.at(3, k, j - 1, i)] - 2.0 * u[g.at(3, k, j, i)] + u[g.at(3, k, j + 1, i)]);
                rsd[g.at(4, k, j, i)] = rsd[g.at(4, k, j, i)]
                    + cs.ty3 * C3 * C4 * (flux[g.fl(4, k, i, j + 1)] - flux[g.fl(4, k, i, j)])
                    + cs.dy5 * cs.ty1 * (u[g.at(4, k, j - 1, i)] - 2.0 * u[g.at(4, k, j, i)] + u[g.at(4, k, j + 1, i)]);
            }
        }
    }
}

/// The eta-direction dissipation at `j = 1, 2`.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(nw2(g)), vector_length(32))]
fn rhs_y_diss_lo(u: &[f64], rsd: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nz, ist, iend, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker, vector)]
        for i in ist..=iend {
            for m in 0..5 {
                rsd[g.at(m, k, 1, i)] = rsd[g.at(m, k, 1, i)] - cs.dssp * (5.0 * u[g.at(m, k, 1, i)] - 4.0 * u[g.at(m, k, 2, i)] + u[g.at(m, k, 3, i)]);
                rsd[g.at(m, k, 2, i)] = rsd[g.at(m, k, 2, i)]
                    - cs.dssp * (-4.0 * u[g.at(m, k, 1, i)] + 6.0 * u[g.at(m, k, 2, i)] - 4.0 * u[g.at(m, k, 3, i)] + u[g.at(m, k, 4, i)]);
            }
        }
    }
}

/// The eta-direction dissipation inside.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(nw4(g)), vector_length(128))]
fn rhs_y_diss(u: &[f64], rsd: &mut [f64], g: Grid, cs: Consts) {
    let Grid { ny, nz, ist, iend, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in 3..ny - 3 {
            #[acc::r#loop(vector)]
            for i in ist..=iend {
                for m in 0..5 {
                    rsd[g.at(m, k, j, i)] = rsd[g.at(m, k, j, i)]
                        - cs.dssp
                            * (u[g.at(m, k, j - 2, i)] - 4.0 * u[g.at(m, k, j - 1, i)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j + 1, i)]
                                + u[g.at(m, k, j + 2, i)]);
                }
            }
        }
    }
}

/// The eta-direction dissipation at `j = ny - 3, ny - 2`.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(nw2(g)), vector_length(32))]
fn rhs_y_diss_hi(u: &[f64], rsd: &mut [f64], g: Grid, cs: Consts) {
    let Grid { ny, nz, ist, iend, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker, vector)]
        for i in ist..=iend {
            for m in 0..5 {
                rsd[g.at(m, k, ny - 3, i)] = rsd[g.at(m, k, ny - 3, i)]
                    - cs.dssp * (u[g.at(m, k, ny - 5, i)] - 4.0 * u[g.at(m, k, ny - 4, i)] + 6.0 * u[g.at(m, k, ny - 3, i)] - 4.0 * u[g.at(m, k, ny - 2, i)]);
                rsd[g.at(m, k, ny - 2, i)] =
                    rsd[g.at(m, k, ny - 2, i)] - cs.dssp * (u[g.at(m, k, ny - 4, i)] - 4.0 * u[g.at(m, k, ny - 3, i)] + 5.0 * u[g.at(m, k, ny - 2, i)]);
            }
        }
    }
}

/// The zeta-direction fluxes (through `utmp`, `rtmp`: `k` innermost), their differences and dissipation.
#[acc::parallel(num_gangs(g.jend - g.jst + 1), num_workers(nw3(g)), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn rhs_z(u: &[f64], rsd: &mut [f64], qs: &[f64], rho_i: &[f64], flux: &mut [f64], utmp: &mut [f64], rtmp: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nz, ist, iend, jst, jend, .. } = g;
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 0..nz {
                utmp[g.zt(0, j, i, k)] = u[g.at(0, k, j, i)];
                utmp[g.zt(1, j, i, k)] = u[g.at(1, k, j, i)];
                utmp[g.zt(2, j, i, k)] = u[g.at(2, k, j, i)];
                utmp[g.zt(3, j, i, k)] = u[g.at(3, k, j, i)];
                utmp[g.zt(4, j, i, k)] = u[g.at(4, k, j, i)];
                utmp[g.zt(5, j, i, k)] = rho_i[g.at3(k, j, i)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 0..nz {
                flux[g.fl(0, j, i, k)] = utmp[g.zt(3, j, i, k)];
                let u41 = utmp[g.zt(3, j, i, k)] * utmp[g.zt(5, j, i, k)];
                let q = qs[g.at3(k, j, i)];
                flux[g.fl(1, j, i, k)] = utmp[g.zt(1, j, i, k)] * u41;
                flux[g.fl(2, j, i, k)] = utmp[g.zt(2, j, i, k)] * u41;
                flux[g.fl(3, j, i, k)] = utmp[g.zt(3, j, i, k)] * u41 + C2 * (utmp[g.zt(4, j, i, k)] - q);
                flux[g.fl(4, j, i, k)] = (C1 * utmp[g.zt(4, j, i, k)] - C2 * q) * u41;
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 1..nz - 1 {
                for m in 0..5 {
                    rtmp[g.zt(m, j, i, k)] = rsd[g.at(m, k, j, i)] - cs.tz2 * (flux[g.fl(m, j, i, k + 1)] - flux[g.fl(m, j, i, k - 1)]);
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 1..nz {
                let tmp = utmp[g.zt(5, j, i, k)];
                let u21k = tmp * utmp[g.zt(1, j, i, k)];
                let u31k = tmp * utmp[g.zt(2, j, i, k)];
                let u41k = tmp * utmp[g.zt(3, j, i, k)];
                let u51k = tmp * utmp[g.zt(4, j, i, k)];
                let tmp = utmp[g.zt(5, j, i, k - 1)];
                let u21km1 = tmp * utmp[g.zt(1, j, i, k - 1)];
                let u31km1 = tmp * utmp[g.zt(2, j, i, k - 1)];
                let u41km1 = tmp * utmp[g.zt(3, j, i, k - 1)];
                let u51km1 = tmp * utmp[g.zt(4, j, i, k - 1)];
                flux[g.fl(1, j, i, k)] = cs.tz3 * (u21k - u21km1);
                flux[g.fl(2, j, i, k)] = cs.tz3 * (u31k - u31km1);
                flux[g.fl(3, j, i, k)] = (4.0 / 3.0) * cs.tz3 * (u41k - u41km1);
                flux[g.fl(4, j, i, k)] =
                    0.50 * (1.0 - C1 * C5) * cs.tz3 * ((u21k * u21k + u31k * u31k + u41k * u41k) - (u21km1 * u21km1 + u31km1 * u31km1 + u41km1 * u41km1))
                        + (1.0 / 6.0) * cs.tz3 * (u41k * u41k - u41km1 * u41km1)
                        + C1 * C5 * cs.tz3 * (u51k - u51km1);
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 1..nz - 1 {
                rtmp[g.zt(0, j, i, k)] =
                    rtmp[g.zt(0, j, i, k)] + cs.dz1 * cs.tz1 * (utmp[g.zt(0, j, i, k - 1)] - 2.0 * utmp[g.zt(0, j, i, k)] + utmp[g.zt(0, j, i, k + 1)]);
                rtmp[g.zt(1, j, i, k)] = rtmp[g.zt(1, j, i, k)]
                    + cs.tz3 * C3 * C4 * (flux[g.fl(1, j, i, k + 1)] - flux[g.fl(1, j, i, k)])
                    + cs.dz2 * cs.tz1 * (utmp[g.zt(1, j, i, k - 1)] - 2.0 * utmp[g.zt(1, j, i, k)] + utmp[g.zt(1, j, i, k + 1)]);
                rtmp[g.zt(2, j, i, k)] = rtmp[g.zt(2, j, i, k)]
                    + cs.tz3 * C3 * C4 * (flux[g.fl(2, j, i, k + 1)] - flux[g.fl(2, j, i, k)])
                    + cs.dz3 * cs.tz1 * (utmp[g.zt(2, j, i, k - 1)] - 2.0 * utmp[g.zt(2, j, i, k)] + utmp[g.zt(2, j, i, k + 1)]);
                rtmp[g.zt(3, j, i, k)] = rtmp[g.zt(3, j, i, k)]
                    + cs.tz3 * C3 * C4 * (flux[g.fl(3, j, i, k + 1)] - flux[g.fl(3, j, i, k)])
                    + cs.dz4 * cs.tz1 * (utmp[g.zt(3, j, i, k - 1)] - 2.0 * utmp[g.zt(3, j, i, k)] + utmp[g.zt(3, j, i, k + 1)]);
                rtmp[g.zt(4, j, i, k)] = rtmp[g.zt(4, j, i, k)]
                    + cs.tz3 * C3 * C4 * (flux[g.fl(4, j, i, k + 1)] - flux[g.fl(4, j, i, k)])
                    + cs.dz5 * cs.tz1 * (utmp[g.zt(4, j, i, k - 1)] - 2.0 * utmp[g.zt(4, j, i, k)] + utmp[g.zt(4, j, i, k + 1)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for m in 0..5 {
                rsd[g.at(m, 1, j, i)] =
                    rtmp[g.zt(m, j, i, 1)] - cs.dssp * (5.0 * utmp[g.zt(m, j, i, 1)] - 4.0 * utmp[g.zt(m, j, i, 2)] + utmp[g.zt(m, j, i, 3)]);
                rsd[g.at(m, 2, j, i)] = rtmp[g.zt(m, j, i, 2)]
                    - cs.dssp * (-4.0 * utmp[g.zt(m, j, i, 1)] + 6.0 * utmp[g.zt(m, j, i, 2)] - 4.0 * utmp[g.zt(m, j, i, 3)] + utmp[g.zt(m, j, i, 4)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 3..nz - 3 {
                for m in 0..5 {
                    rsd[g.at(m, k, j, i)] = rtmp[g.zt(m, j, i, k)]
                        - cs.dssp
                            * (utmp[g.zt(m, j, i, k - 2)] - 4.0 * utmp[g.zt(m, j, i, k - 1)] + 6.0 * utmp[g.zt(m, j, i, k)] - 4.0 * utmp[g.zt(m, j, i, k + 1)]
                                + utmp[g.zt(m, j, i, k + 2)]);
                }
            }
        }
    }
}

/// The zeta-direction dissipation at `k = nz - 3, nz - 2`.
#[acc::parallel(num_gangs(g.jend - g.jst + 1), num_workers(nw2(g)), vector_length(32))]
fn rhs_z_diss_hi(rsd: &mut [f64], utmp: &[f64], rtmp: &[f64], g: Grid, cs: Consts) {
    let Grid { nz, ist, iend, jst, jend, .. } = g;
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker, vector)]
        for i in ist..=iend {
            for m in 0..5 {
                rsd[g.at(m, nz - 3, j, i)] = rtmp[g.zt(m, j, i, nz - 3)]
                    - cs.dssp
                        * (utmp[g.zt(m, j, i, nz - 5)] - 4.0 * utmp[g.zt(m, j, i, nz - 4)] + 6.0 * utmp[g.zt(m, j, i, nz - 3)]
                            - 4.0 * utmp[g.zt(m, j, i, nz - 2)]);
                rsd[g.at(m, nz - 2, j, i)] = rtmp[g.zt(m, j, i, nz - 2)]
                    - cs.dssp * (utmp[g.zt(m, j, i, nz - 4)] - 4.0 * utmp[g.zt(m, j, i, nz - 3)] + 5.0 * utmp[g.zt(m, j, i, nz - 2)]);
            }
        }
    }
}

/// `frct = 0`; `rsd` the exact solution everywhere.
#[acc::parallel(num_gangs(g.nz), num_workers(8), vector_length(32))]
fn erhs_init(rsd: &mut [f64], frct: &mut [f64], ce: &[f64], g: Grid) {
    let Grid { nx, ny, nz, .. } = g;
    #[acc::r#loop(gang)]
    for k in 0..nz {
        #[acc::r#loop(worker)]
        for j in 0..ny {
            #[acc::r#loop(vector)]
            for i in 0..nx {
                for m in 0..5 {
                    frct[g.at(m, k, j, i)] = 0.0;
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 0..nz {
        let zeta = k as f64 / (nz - 1) as f64;
        #[acc::r#loop(worker)]
        for j in 0..ny {
            let eta = j as f64 / (ny - 1) as f64;
            #[acc::r#loop(vector)]
            for i in 0..nx {
                let xi = i as f64 / (nx - 1) as f64;
                for m in 0..5 {
                    rsd[g.at(m, k, j, i)] = ce[ce_at(m, 0)]
                        + (ce[ce_at(m, 1)] + (ce[ce_at(m, 4)] + (ce[ce_at(m, 7)] + ce[ce_at(m, 10)] * xi) * xi) * xi) * xi
                        + (ce[ce_at(m, 2)] + (ce[ce_at(m, 5)] + (ce[ce_at(m, 8)] + ce[ce_at(m, 11)] * eta) * eta) * eta) * eta
                        + (ce[ce_at(m, 3)] + (ce[ce_at(m, 6)] + (ce[ce_at(m, 9)] + ce[ce_at(m, 12)] * zeta) * zeta) * zeta) * zeta;
                }
            }
        }
    }
}

/// The forcing terms of the xi and eta directions, from the exact solution in `rsd`.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(8), vector_length(32))]
fn erhs_xy(rsd: &[f64], frct: &mut [f64], flux: &mut [f64], g: Grid, cs: Consts) {
    let Grid {
        nx,
        ny,
        nz,
        ist,
        iend,
        jst,
        jend,
        ..
    } = g;
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in jst..=jend {
            #[acc::r#loop(vector)]
            for i in 0..nx {
                flux[g.fl(0, k, j, i)] = rsd[g.at(1, k, j, i)];
                let u21 = rsd[g.at(1, k, j, i)] / rsd[g.at(0, k, j, i)];
                let q = 0.50
                    * (rsd[g.at(1, k, j, i)] * rsd[g.at(1, k, j, i)]
                        + rsd[g.at(2, k, j, i)] * rsd[g.at(2, k, j, i)]
                        + rsd[g.at(3, k, j, i)] * rsd[g.at(3, k, j, i)])
                    / rsd[g.at(0, k, j, i)];
                flux[g.fl(1, k, j, i)] = rsd[g.at(1, k, j, i)] * u21 + C2 * (rsd[g.at(4, k, j, i)] - q);
                flux[g.fl(2, k, j, i)] = rsd[g.at(2, k, j, i)] * u21;
                flux[g.fl(3, k, j, i)] = rsd[g.at(3, k, j, i)] * u21;
                flux[g.fl(4, k, j, i)] = (C1 * rsd[g.at(4, k, j, i)] - C2 * q) * u21;
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in jst..=jend {
            #[acc::r#loop(vector)]
            for i in ist..=iend {
                for m in 0..5 {
                    frct[g.at(m, k, j, i)] = frct[g.at(m, k, j, i)] - cs.tx2 * (flux[g.fl(m, k, j, i + 1)] - flux[g.fl(m, k, j, i - 1)]);
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in jst..=jend {
            #[acc::r#loop(vector)]
            for i in ist..nx {
                let tmp = 1.0 / rsd[g.at(0, k, j, i)];
                let u21i = tmp * rsd[g.at(1, k, j, i)];
                let u31i = tmp * rsd[g.at(2, k, j, i)];
                let u41i = tmp * rsd[g.at(3, k, j, i)];
                let u51i = tmp * rsd[g.at(4, k, j, i)];
                let tmp = 1.0 / rsd[g.at(0, k, j, i - 1)];
                let u21im1 = tmp * rsd[g.at(1, k, j, i - 1)];
                let u31im1 = tmp * rsd[g.at(2, k, j, i - 1)];
                let u41im1 = tmp * rsd[g.at(3, k, j, i - 1)];
                let u51im1 = tmp * rsd[g.at(4, k, j, i - 1)];
                flux[g.fl(1, k, j, i)] = (4.0 / 3.0) * cs.tx3 * (u21i - u21im1);
                flux[g.fl(2, k, j, i)] = cs.tx3 * (u31i - u31im1);
                flux[g.fl(3, k, j, i)] = cs.tx3 * (u41i - u41im1);
                flux[g.fl(4, k, j, i)] =
                    0.50 * (1.0 - C1 * C5) * cs.tx3 * ((u21i * u21i + u31i * u31i + u41i * u41i) - (u21im1 * u21im1 + u31im1 * u31im1 + u41im1 * u41im1))
                        + (1.0 / 6.0) * cs.tx3 * (u21i * u21i - u21im1 * u21im1)
                        + C1 * C5 * cs.tx3 * (u51i - u51im1);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for j in jst..=jend {
            #[acc::r#loop(vector)]
            for i in ist..=iend {
                frct[g.at(0, k, j, i)] =
                    frct[g.at(0, k, j, i)] + cs.dx1 * cs.tx1 * (rsd[g.at(0, k, j, i - 1)] - 2.0 * rsd[g.at(0, k, j, i)] + rsd[g.at(0, k, j, i + 1)]);
                frct[g.at(1, k, j, i)] = frct[g.at(1, k, j, i)]
                    + cs.tx3 * C3 * C4 * (flux[g.fl(1, k, j, i + 1)] - flux[g.fl(1, k, j, i)])
                    + cs.dx2 * cs.tx1 * (rsd[g.at(1, k, j, i - 1)] - 2.0 * rsd[g.at(1, k, j, i)] + rsd[g.at(1, k, j, i + 1)]);
                frct[g.at(2, k, j, i)] = frct[g.at(2, k, j, i)]
                    + cs.tx3 * C3 * C4 * (flux[g.fl(2, k, j, i + 1)] - flux[g.fl(2, k, j, i)])
                    + cs.dx3 * cs.tx1 * (rsd[g.at(2, k, j, i - 1)] - 2.0 * rsd[g.at(2, k, j, i)] + rsd[g.at(2, k, j, i + 1)]);
                frct[g.at(3, k, j, i)] = frct[g.at(3, k, j, i)]
                    + cs.tx3 * C3 * C4 * (flux[g.fl(3, k, j, i + 1)] - flux[g.fl(3, k, j, i)])
                    + cs.dx4 * cs.tx1 * (rsd[g.at(3, k, j, i - 1)] - 2.0 * rsd[g.at(3, k, j, i)] + rsd[g.at(3, k, j, i + 1)]);
                frct[g.at(4, k, j, i)] = frct[g.at(4, k, j, i)]
                    + cs.tx3 * C3 * C4 * (flux[g.fl(4, k, j, i + 1)] - flux[g.fl(4, k, j, i)])
                    + cs.dx5 * cs.tx1 * (rsd[g.at(4, k, j, i - 1)] - 2.0 * rsd[g.at(4, k, j, i)] + rsd[g.at(4, k, j, i + 1)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker, vector)]
        for j in jst..=jend {
            for m in 0..5 {
                frct[g.at(m, k, j, 1)] = frct[g.at(m, k, j, 1)] - cs.dssp * (5.0 * rsd[g.at(m, k, j, 1)] - 4.0 * rsd[g.at(m, k, j, 2)] + rsd[g.at(m, k, j, 3)]);
                frct[g.at(m, k, j, 2)] = frct[g.at(m, k, j, 2)]
                    - cs.dssp * (-4.0 * rsd[g.at(m, k, j, 1)] + 6.0 * rsd[g.at(m, k, j, 2)] - 4.0 * rsd[g.at(m, k, j, 3)] + rsd[g.at(m, k, j, 4)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker, vector)]
        for j in jst..=jend {
            for i in 3..nx - 3 {
                for m in 0..5 {
                    frct[g.at(m, k, j, i)] = frct[g.at(m, k, j, i)]
                        - cs.dssp
                            * (rsd[g.at(m, k, j, i - 2)] - 4.0 * rsd[g.at(m, k, j, i - 1)] + 6.0 * rsd[g.at(m, k, j, i)] - 4.0 * rsd[g.at(m, k, j, i + 1)]
                                + rsd[g.at(m, k, j, i + 2)]);
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker, vector)]
        for j in jst..=jend {
            for m in 0..5 {
                frct[g.at(m, k, j, nx - 3)] = frct[g.at(m, k, j, nx - 3)]
                    - cs.dssp
                        * (rsd[g.at(m, k, j, nx - 5)] - 4.0 * rsd[g.at(m, k, j, nx - 4)] + 6.0 * rsd[g.at(m, k, j, nx - 3)] - 4.0 * rsd[g.at(m, k, j, nx - 2)]);
                frct[g.at(m, k, j, nx - 2)] =
                    frct[g.at(m, k, j, nx - 2)] - cs.dssp * (rsd[g.at(m, k, j, nx - 4)] - 4.0 * rsd[g.at(m, k, j, nx - 3)] + 5.0 * rsd[g.at(m, k, j, nx - 2)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for j in 0..ny {
                flux[g.fl(0, k, i, j)] = rsd[g.at(2, k, j, i)];
                let u31 = rsd[g.at(2, k, j, i)] / rsd[g.at(0, k, j, i)];
                let q = 0.50
                    * (rsd[g.at(1, k, j, i)] * rsd[g.at(1, k, j, i)]
                        + rsd[g.at(2, k, j, i)] * rsd[g.at(2, k, j, i)]
                        + rsd[g.at(3, k, j, i)] * rsd[g.at(3, k, j, i)])
                    / rsd[g.at(0, k, j, i)];
                flux[g.fl(1, k, i, j)] = rsd[g.at(1, k, j, i)] * u31;
                flux[g.fl(2, k, i, j)] = rsd[g.at(2, k, j, i)] * u31 + C2 * (rsd[g.at(4, k, j, i)] - q);
                flux[g.fl(3, k, i, j)] = rsd[g.at(3, k, j, i)] * u31;
                flux[g.fl(4, k, i, j)] = (C1 * rsd[g.at(4, k, j, i)] - C2 * q) * u31;
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for j in jst..=jend {
                for m in 0..5 {
                    frct[g.at(m, k, j, i)] = frct[g.at(m, k, j, i)] - cs.ty2 * (flux[g.fl(m, k, i, j + 1)] - flux[g.fl(m, k, i, j - 1)]);
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for j in jst..ny {
                let tmp = 1.0 / rsd[g.at(0, k, j, i)];
                let u21j = tmp * rsd[g.at(1, k, j, i)];
                let u31j = tmp * rsd[g.at(2, k, j, i)];
                let u41j = tmp * rsd[g.at(3, k, j, i)];
                let u51j = tmp * rsd[g.at(4, k, j, i)];
                let tmp = 1.0 / rsd[g.at(0, k, j - 1, i)];
                let u21jm1 = tmp * rsd[g.at(1, k, j - 1, i)];
                let u31jm1 = tmp * rsd[g.at(2, k, j - 1, i)];
                let u41jm1 = tmp * rsd[g.at(3, k, j - 1, i)];
                let u51jm1 = tmp * rsd[g.at(4, k, j - 1, i)];
                flux[g.fl(1, k, i, j)] = cs.ty3 * (u21j - u21jm1);
                flux[g.fl(2, k, i, j)] = (4.0 / 3.0) * cs.ty3 * (u31j - u31jm1);
                flux[g.fl(3, k, i, j)] = cs.ty3 * (u41j - u41jm1);
                flux[g.fl(4, k, i, j)] =
                    0.50 * (1.0 - C1 * C5) * cs.ty3 * ((u21j * u21j + u31j * u31j + u41j * u41j) - (u21jm1 * u21jm1 + u31jm1 * u31jm1 + u41jm1 * u41jm1))
                        + (1.0 / 6.0) * cs.ty3 * (u31j * u31j - u31jm1 * u31jm1)
                        + C1 * C5 * cs.ty3 * (u51j - u51jm1);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for j in jst..=jend {
                frct[g.at(0, k, j, i)] =
                    frct[g.at(0, k, j, i)] + cs.dy1 * cs.ty1 * (rsd[g.at(0, k, j - 1, i)] - 2.0 * rsd[g.at(0, k, j, i)] + rsd[g.at(0, k, j + 1, i)]);
                frct[g.at(1, k, j, i)] = frct[g.at(1, k, j, i)]
                    + cs.ty3 * C3 * C4 * (flux[g.fl(1, k, i, j + 1)] - flux[g.fl(1, k, i, j)])
                    + cs.dy2 * cs.ty1 * (rsd[g.at(1, k, j - 1, i)] - 2.0 * rsd[g.at(1, k, j, i)] + rsd[g.at(1, k, j + 1, i)]);
                frct[g.at(2, k, j, i)] = frct[g.at(2, k, j, i)]
                    + cs.ty3 * C3 * C4 * (flux[g.fl(2, k, i, j + 1)] - flux[g.fl(2, k, i, j)])
                    + cs.dy3 * cs.ty1 * (rsd[g.at(2, k, j - 1, i)] - 2.0 * rsd[g.at(2, k, j, i)] + rsd[g.at(2, k, j + 1, i)]);
                frct[g.at(3, k, j, i)] = frct[g.at(3, k, j, i)]
                    + cs.ty3 * C3 * C4 * (flux[g.fl(3, k, i, j + 1)] - flux[g.fl(3, k, i, j)])
                    + cs.dy4 * cs.ty1 * (rsd[g.at(3, k, j - 1, i)] - 2.0 * rsd[g.at(3, k, j, i)] + rsd[g.at(3, k, j + 1, i)]);
                frct[g.at(4, k, j, i)] = frct[g.at(4, k, j, i)]
                    + cs.ty3 * C3 * C4 * (flux[g.fl(4, k, i, j + 1)] - flux[g.fl(4, k, i, j)])
                    + cs.dy5 * cs.ty1 * (rsd[g.at(4, k, j - 1, i)] - 2.0 * rsd[g.at(4, k, j, i)] + rsd[g.at(4, k, j + 1, i)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker, vector)]
        for i in ist..=iend {
            for m in 0..5 {
                frct[g.at(m, k, 1, i)] = frct[g.at(m, k, 1, i)] - cs.dssp * (5.0 * rsd[g.at(m, k, 1, i)] - 4.0 * rsd[g.at(m, k, 2, i)] + rsd[g.at(m, k, 3, i)]);
                frct[g.at(m, k, 2, i)] = frct[g.at(m, k, 2, i)]
                    - cs.dssp * (-4.0 * rsd[g.at(m, k, 1, i)] + 6.0 * rsd[g.at(m, k, 2, i)] - 4.0 * rsd[g.at(m, k, 3, i)] + rsd[g.at(m, k, 4, i)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for j in 3..ny - 3 {
                for m in 0..5 {
                    frct[g.at(m, k, j, i)] = frct[g.at(m, k, j, i)]
                        - cs.dssp
                            * (rsd[g.at(m, k, j - 2, i)] - 4.0 * rsd[g.at(m, k, j - 1, i)] + 6.0 * rsd[g.at(m, k, j, i)] - 4.0 * rsd[g.at(m, k, j + 1, i)]
                                + rsd[g.at(m, k, j + 2, i)]);
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..nz - 1 {
        #[acc::r#loop(worker, vector)]
        for i in ist..=iend {
            for m in 0..5 {
                frct[g.at(m, k, ny - 3, i)] = frct[g.at(m, k, ny - 3, i)]
                    - cs.dssp
                        * (rsd[g.at(m, k, ny - 5, i)] - 4.0 * rsd[g.at(m, k, ny - 4, i)] + 6.0 * rsd[g.at(m, k, ny - 3, i)] - 4.0 * rsd[g.at(m, k, ny - 2, i)]);
                frct[g.at(m, k, ny - 2, i)] =
                    frct[g.at(m, k, ny - 2, i)] - cs.dssp * (rsd[g.at(m, k, ny - 4, i)] - 4.0 * rsd[g.at(m, k, ny - 3, i)] + 5.0 * rsd[g.at(m, k, ny - 2, i)]);
            }
        }
    }
}

/// The forcing terms of the zeta direction.
#[acc::parallel(num_gangs(g.jend - g.jst + 1), num_workers(8), vector_length(32))]
fn erhs_z(rsd: &[f64], frct: &mut [f64], flux: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nz, ist, iend, jst, jend, .. } = g;
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 0..nz {
                flux[g.fl(0, j, i, k)] = rsd[g.at(3, k, j, i)];
                let u41 = rsd[g.at(3, k, j, i)] / rsd[g.at(0, k, j, i)];
                let q = 0.50
                    * (rsd[g.at(1, k, j, i)] * rsd[g.at(1, k, j, i)]
                        + rsd[g.at(2, k, j, i)] * rsd[g.at(2, k, j, i)]
                        + rsd[g.at(3, k, j, i)] * rsd[g.at(3, k, j, i)])
                    / rsd[g.at(0, k, j, i)];
                flux[g.fl(1, j, i, k)] = rsd[g.at(1, k, j, i)] * u41;
                flux[g.fl(2, j, i, k)] = rsd[g.at(2, k, j, i)] * u41;
                flux[g.fl(3, j, i, k)] = rsd[g.at(3, k, j, i)] * u41 + C2 * (rsd[g.at(4, k, j, i)] - q);
                flux[g.fl(4, j, i, k)] = (C1 * rsd[g.at(4, k, j, i)] - C2 * q) * u41;
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 1..nz - 1 {
                for m in 0..5 {
                    frct[g.at(m, k, j, i)] = frct[g.at(m, k, j, i)] - cs.tz2 * (flux[g.fl(m, j, i, k + 1)] - flux[g.fl(m, j, i, k - 1)]);
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 1..nz {
                let tmp = 1.0 / rsd[g.at(0, k, j, i)];
                let u21k = tmp * rsd[g.at(1, k, j, i)];
                let u31k = tmp * rsd[g.at(2, k, j, i)];
                let u41k = tmp * rsd[g.at(3, k, j, i)];
                let u51k = tmp * rsd[g.at(4, k, j, i)];
                let tmp = 1.0 / rsd[g.at(0, k - 1, j, i)];
                let u21km1 = tmp * rsd[g.at(1, k - 1, j, i)];
                let u31km1 = tmp * rsd[g.at(2, k - 1, j, i)];
                let u41km1 = tmp * rsd[g.at(3, k - 1, j, i)];
                let u51km1 = tmp * rsd[g.at(4, k - 1, j, i)];
                flux[g.fl(1, j, i, k)] = cs.tz3 * (u21k - u21km1);
                flux[g.fl(2, j, i, k)] = cs.tz3 * (u31k - u31km1);
                flux[g.fl(3, j, i, k)] = (4.0 / 3.0) * cs.tz3 * (u41k - u41km1);
                flux[g.fl(4, j, i, k)] =
                    0.50 * (1.0 - C1 * C5) * cs.tz3 * ((u21k * u21k + u31k * u31k + u41k * u41k) - (u21km1 * u21km1 + u31km1 * u31km1 + u41km1 * u41km1))
                        + (1.0 / 6.0) * cs.tz3 * (u41k * u41k - u41km1 * u41km1)
                        + C1 * C5 * cs.tz3 * (u51k - u51km1);
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 1..nz - 1 {
                frct[g.at(0, k, j, i)] =
                    frct[g.at(0, k, j, i)] + cs.dz1 * cs.tz1 * (rsd[g.at(0, k + 1, j, i)] - 2.0 * rsd[g.at(0, k, j, i)] + rsd[g.at(0, k - 1, j, i)]);
                frct[g.at(1, k, j, i)] = frct[g.at(1, k, j, i)]
                    + cs.tz3 * C3 * C4 * (flux[g.fl(1, j, i, k + 1)] - flux[g.fl(1, j, i, k)])
                    + cs.dz2 * cs.tz1 * (rsd[g.at(1, k + 1, j, i)] - 2.0 * rsd[g.at(1, k, j, i)] + rsd[g.at(1, k - 1, j, i)]);
                frct[g.at(2, k, j, i)] = frct[g.at(2, k, j, i)]
                    + cs.tz3 * C3 * C4 * (flux[g.fl(2, j, i, k + 1)] - flux[g.fl(2, j, i, k)])
                    + cs.dz3 * cs.tz1 * (rsd[g.at(2, k + 1, j, i)] - 2.0 * rsd[g.at(2, k, j, i)] + rsd[g.at(2, k - 1, j, i)]);
                frct[g.at(3, k, j, i)] = frct[g.at(3, k, j, i)]
                    + cs.tz3 * C3 * C4 * (flux[g.fl(3, j, i, k + 1)] - flux[g.fl(3, j, i, k)])
                    + cs.dz4 * cs.tz1 * (rsd[g.at(3, k + 1, j, i)] - 2.0 * rsd[g.at(3, k, j, i)] + rsd[g.at(3, k - 1, j, i)]);
                frct[g.at(4, k, j, i)] = frct[g.at(4, k, j, i)]
                    + cs.tz3 * C3 * C4 * (flux[g.fl(4, j, i, k + 1)] - flux[g.fl(4, j, i, k)])
                    + cs.dz5 * cs.tz1 * (rsd[g.at(4, k + 1, j, i)] - 2.0 * rsd[g.at(4, k, j, i)] + rsd[g.at(4, k - 1, j, i)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker, vector)]
        for i in ist..=iend {
            for m in 0..5 {
                frct[g.at(m, 1, j, i)] = frct[g.at(m, 1, j, i)] - cs.dssp * (5.0 * rsd[g.at(m, 1, j, i)] - 4.0 * rsd[g.at(m, 2, j, i)] + rsd[g.at(m, 3, j, i)]);
                frct[g.at(m, 2, j, i)] = frct[g.at(m, 2, j, i)]
                    - cs.dssp * (-4.0 * rsd[g.at(m, 1, j, i)] + 6.0 * rsd[g.at(m, 2, j, i)] - 4.0 * rsd[g.at(m, 3, j, i)] + rsd[g.at(m, 4, j, i)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker)]
        for i in ist..=iend {
            #[acc::r#loop(vector)]
            for k in 3..nz - 3 {
                for m in 0..5 {
                    frct[g.at(m, k, j, i)] = frct[g.at(m, k, j, i)]
                        - cs.dssp
                            * (rsd[g.at(m, k - 2, j, i)] - 4.0 * rsd[g.at(m, k - 1, j, i)] + 6.0 * rsd[g.at(m, k, j, i)] - 4.0 * rsd[g.at(m, k + 1, j, i)]
                                + rsd[g.at(m, k + 2, j, i)]);
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in jst..=jend {
        #[acc::r#loop(worker, vector)]
        for i in ist..=iend {
            for m in 0..5 {
                frct[g.at(m, nz - 3, j, i)] = frct[g.at(m, nz - 3, j, i)]
                    - cs.dssp
                        * (rsd[g.at(m, nz - 5, j, i)] - 4.0 * rsd[g.at(m, nz - 4, j, i)] + 6.0 * rsd[g.at(m, nz - 3, j, i)] - 4.0 * rsd[g.at(m, nz - 2, j, i)]);
                frct[g.at(m, nz - 2, j, i)] =
                    frct[g.at(m, nz - 2, j, i)] - cs.dssp * (rsd[g.at(m, nz - 4, j, i)] - 4.0 * rsd[g.at(m, nz - 3, j, i)] + 5.0 * rsd[g.at(m, nz - 2, j, i)]);
            }
        }
    }
}

/// The lower-triangular blocks `a`, `b`, `c` and the diagonal `d` at hyperplane `l`'s points.
#[acc::parallel(num_gangs(npl.div_ceil(128)), num_workers(1), vector_length(128))]
#[allow(clippy::too_many_arguments)]
fn jacld(
    u: &[f64],
    qs: &[f64],
    rho_i: &[f64],
    a: &mut [f64],
    b: &mut [f64],
    c: &mut [f64],
    d: &mut [f64],
    indxp: &[usize],
    jndxp: &[usize],
    g: Grid,
    cs: Consts,
    l: usize,
    npl: usize,
) {
    #[acc::r#loop(gang, worker, vector)]
    for n in 1..=npl {
        let j = jndxp[g.hp(l, n)];
        let i = indxp[g.hp(l, n)];
        let k = l - i - j;
        let tmp1 = rho_i[g.at3(k, j, i)];
        let tmp2 = tmp1 * tmp1;
        let tmp3 = tmp1 * tmp2;
        d[g.jac(0, 0, n)] = 1.0 + cs.dt * 2.0 * (cs.tx1 * cs.dx1 + cs.ty1 * cs.dy1 + cs.tz1 * cs.dz1);
        d[g.jac(1, 0, n)] = 0.0;
        d[g.jac(2, 0, n)] = 0.0;
        d[g.jac(3, 0, n)] = 0.0;
        d[g.jac(4, 0, n)] = 0.0;
        d[g.jac(0, 1, n)] = -cs.dt * 2.0 * (cs.tx1 * R43 + cs.ty1 + cs.tz1) * C34 * tmp2 * u[g.at(1, k, j, i)];
        d[g.jac(1, 1, n)] =
            1.0 + cs.dt * 2.0 * C34 * tmp1 * (cs.tx1 * R43 + cs.ty1 + cs.tz1) + cs.dt * 2.0 * (cs.tx1 * cs.dx2 + cs.ty1 * cs.dy2 + cs.tz1 * cs.dz2);
        d[g.jac(2, 1, n)] = 0.0;
        d[g.jac(3, 1, n)] = 0.0;
        d[g.jac(4, 1, n)] = 0.0;
        d[g.jac(0, 2, n)] = -cs.dt * 2.0 * (cs.tx1 + cs.ty1 * R43 + cs.tz1) * C34 * tmp2 * u[g.at(2, k, j, i)];
        d[g.jac(1, 2, n)] = 0.0;
        d[g.jac(2, 2, n)] =
            1.0 + cs.dt * 2.0 * C34 * tmp1 * (cs.tx1 + cs.ty1 * R43 + cs.tz1) + cs.dt * 2.0 * (cs.tx1 * cs.dx3 + cs.ty1 * cs.dy3 + cs.tz1 * cs.dz3);
        d[g.jac(3, 2, n)] = 0.0;
        d[g.jac(4, 2, n)] = 0.0;
        d[g.jac(0, 3, n)] = -cs.dt * 2.0 * (cs.tx1 + cs.ty1 + cs.tz1 * R43) * C34 * tmp2 * u[g.at(3, k, j, i)];
        d[g.jac(1, 3, n)] = 0.0;
        d[g.jac(2, 3, n)] = 0.0;
        d[g.jac(3, 3, n)] =
            1.0 + cs.dt * 2.0 * C34 * tmp1 * (cs.tx1 + cs.ty1 + cs.tz1 * R43) + cs.dt * 2.0 * (cs.tx1 * cs.dx4 + cs.ty1 * cs.dy4 + cs.tz1 * cs.dz4);
        d[g.jac(4, 3, n)] = 0.0;
        d[g.jac(0, 4, n)] = -cs.dt
            * 2.0
            * (((cs.tx1 * (R43 * C34 - C1345) + cs.ty1 * (C34 - C1345) + cs.tz1 * (C34 - C1345)) * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)])
                + (cs.tx1 * (C34 - C1345) + cs.ty1 * (R43 * C34 - C1345) + cs.tz1 * (C34 - C1345)) * (u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)])
                + (cs.tx1 * (C34 - C1345) + cs.ty1 * (C34 - C1345) + cs.tz1 * (R43 * C34 - C1345)) * (u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)]))
                * tmp3
                + (cs.tx1 + cs.ty1 + cs.tz1) * C1345 * tmp2 * u[g.at(4, k, j, i)]);
        d[g.jac(1, 4, n)] = cs.dt * 2.0 * tmp2 * u[g.at(1, k, j, i)] * (cs.tx1 * (R43 * C34 - C1345) + cs.ty1 * (C34 - C1345) + cs.tz1 * (C34 - C1345));
        d[g.jac(2, 4, n)] = cs.dt * 2.0 * tmp2 * u[g.at(2, k, j, i)] * (cs.tx1 * (C34 - C1345) + cs.ty1 * (R43 * C34 - C1345) + cs.tz1 * (C34 - C1345));
        d[g.jac(3, 4, n)] = cs.dt * 2.0 * tmp2 * u[g.at(3, k, j, i)] * (cs.tx1 * (C34 - C1345) + cs.ty1 * (C34 - C1345) + cs.tz1 * (R43 * C34 - C1345));
        d[g.jac(4, 4, n)] = 1.0 + cs.dt * 2.0 * (cs.tx1 + cs.ty1 + cs.tz1) * C1345 * tmp1 + cs.dt * 2.0 * (cs.tx1 * cs.dx5 + cs.ty1 * cs.dy5 + cs.tz1 * cs.dz5);
        let tmp1 = rho_i[g.at3(k - 1, j, i)];
        let tmp2 = tmp1 * tmp1;
        let tmp3 = tmp1 * tmp2;
        a[g.jac(0, 0, n)] = -cs.dt * cs.tz1 * cs.dz1;
        a[g.jac(1, 0, n)] = 0.0;
        a[g.jac(2, 0, n)] = 0.0;
        a[g.jac(3, 0, n)] = -cs.dt * cs.tz2;
        a[g.jac(4, 0, n)] = 0.0;
        a[g.jac(0, 1, n)] =
            -cs.dt * cs.tz2 * (-(u[g.at(1, k - 1, j, i)] * u[g.at(3, k - 1, j, i)]) * tmp2) - cs.dt * cs.tz1 * (-C34 * tmp2 * u[g.at(1, k - 1, j, i)]);
        a[g.jac(1, 1, n)] = -cs.dt * cs.tz2 * (u[g.at(3, k - 1, j, i)] * tmp1) - cs.dt * cs.tz1 * C34 * tmp1 - cs.dt * cs.tz1 * cs.dz2;
        a[g.jac(2, 1, n)] = 0.0;
        a[g.jac(3, 1, n)] = -cs.dt * cs.tz2 * (u[g.at(1, k - 1, j, i)] * tmp1);
        a[g.jac(4, 1, n)] = 0.0;
        a[g.jac(0, 2, n)] =
            -cs.dt * cs.tz2 * (-(u[g.at(2, k - 1, j, i)] * u[g.at(3, k - 1, j, i)]) * tmp2) - cs.dt * cs.tz1 * (-C34 * tmp2 * u[g.at(2, k - 1, j, i)]);
        a[g.jac(1, 2, n)] = 0.0;
        a[g.jac(2, 2, n)] = -cs.dt * cs.tz2 * (u[g.at(3, k - 1, j, i)] * tmp1) - cs.dt * cs.tz1 * (C34 * tmp1) - cs.dt * cs.tz1 * cs.dz3;
        a[g.jac(3, 2, n)] = -cs.dt * cs.tz2 * (u[g.at(2, k - 1, j, i)] * tmp1);
        a[g.jac(4, 2, n)] = 0.0;
        a[g.jac(0, 3, n)] = -cs.dt * cs.tz2 * (-(u[g.at(3, k - 1, j, i)] * tmp1) * (u[g.at(3, k - 1, j, i)] * tmp1) + C2 * qs[g.at3(k - 1, j, i)] * tmp1)
            - cs.dt * cs.tz1 * (-R43 * C34 * tmp2 * u[g.at(3, k - 1, j, i)]);
        a[g.jac(1, 3, n)] = -cs.dt * cs.tz2 * (-C2 * (u[g.at(1, k - 1, j, i)] * tmp1));
        a[g.jac(2, 3, n)] = -cs.dt * cs.tz2 * (-C2 * (u[g.at(2, k - 1, j, i)] * tmp1));
        a[g.jac(3, 3, n)] = -cs.dt * cs.tz2 * (2.0 - C2) * (u[g.at(3, k - 1, j, i)] * tmp1) - cs.dt * cs.tz1 * (R43 * C34 * tmp1) - cs.dt * cs.tz1 * cs.dz4;
        a[g.jac(4, 3, n)] = -cs.dt * cs.tz2 * C2;
        a[g.jac(0, 4, n)] = -cs.dt * cs.tz2 * ((C2 * 2.0 * qs[g.at3(k - 1, j, i)] - C1 * u[g.at(4, k - 1, j, i)]) * u[g.at(3, k - 1, j, i)] * tmp2)
            - cs.dt
                * cs.tz1
                * (-(C34 - C1345) * tmp3 * (u[g.at(1, k - 1, j, i)] * u[g.at(1, k - 1, j, i)])
                    - (C34 - C1345) * tmp3 * (u[g.at(2, k - 1, j, i)] * u[g.at(2, k - 1, j, i)])
                    - (R43 * C34 - C1345) * tmp3 * (u[g.at(3, k - 1, j, i)] * u[g.at(3, k - 1, j, i)])
                    - C1345 * tmp2 * u[g.at(4, k - 1, j, i)]);
        a[g.jac(1, 4, n)] = -cs.dt * cs.tz2 * (-C2 * (u[g.at(1, k - 1, j, i)] * u[g.at(3, k - 1, j, i)]) * tmp2)
            - cs.dt * cs.tz1 * (C34 - C1345) * tmp2 * u[g.at(1, k - 1, j, i)];
        a[g.jac(2, 4, n)] = -cs.dt * cs.tz2 * (-C2 * (u[g.at(2, k - 1, j, i)] * u[g.at(3, k - 1, j, i)]) * tmp2)
            - cs.dt * cs.tz1 * (C34 - C1345) * tmp2 * u[g.at(2, k - 1, j, i)];
        a[g.jac(3, 4, n)] = -cs.dt
            * cs.tz2
            * (C1 * (u[g.at(4, k - 1, j, i)] * tmp1) - C2 * (qs[g.at3(k - 1, j, i)] * tmp1 + u[g.at(3, k - 1, j, i)] * u[g.at(3, k - 1, j, i)] * tmp2))
            - cs.dt * cs.tz1 * (R43 * C34 - C1345) * tmp2 * u[g.at(3, k - 1, j, i)];
        a[g.jac(4, 4, n)] = -cs.dt * cs.tz2 * (C1 * (u[g.at(3, k - 1, j, i)] * tmp1)) - cs.dt * cs.tz1 * C1345 * tmp1 - cs.dt * cs.tz1 * cs.dz5;
        let tmp1 = rho_i[g.at3(k, j - 1, i)];
        let tmp2 = tmp1 * tmp1;
        let tmp3 = tmp1 * tmp2;
        b[g.jac(0, 0, n)] = -cs.dt * cs.ty1 * cs.dy1;
        b[g.jac(1, 0, n)] = 0.0;
        b[g.jac(2, 0, n)] = -cs.dt * cs.ty2;
        b[g.jac(3, 0, n)] = 0.0;
        b[g.jac(4, 0, n)] = 0.0;
        b[g.jac(0, 1, n)] =
            -cs.dt * cs.ty2 * (-(u[g.at(1, k, j - 1, i)] * u[g.at(2, k, j - 1, i)]) * tmp2) - cs.dt * cs.ty1 * (-C34 * tmp2 * u[g.at(1, k, j - 1, i)]);
        b[g.jac(1, 1, n)] = -cs.dt * cs.ty2 * (u[g.at(2, k, j - 1, i)] * tmp1) - cs.dt * cs.ty1 * (C34 * tmp1) - cs.dt * cs.ty1 * cs.dy2;
        b[g.jac(2, 1, n)] = -cs.dt * cs.ty2 * (u[g.at(1, k, j - 1, i)] * tmp1);
        b[g.jac(3, 1, n)] = 0.0;
        b[g.jac(4, 1, n)] = 0.0;
        b[g.jac(0, 2, n)] = -cs.dt * cs.ty2 * (-(u[g.at(2, k, j - 1, i)] * tmp1) * (u[g.at(2, k, j - 1, i)] * tmp1) + C2 * (qs[g.at3(k, j - 1, i)] * tmp1))
            - cs.dt * cs.ty1 * (-R43 * C34 * tmp2 * u[g.at(2, k, j - 1, i)]);
        b[g.jac(1, 2, n)] = -cs.dt * cs.ty2 * (-C2 * (u[g.at(1, k, j - 1, i)] * tmp1));
        b[g.jac(2, 2, n)] = -cs.dt * cs.ty2 * ((2.0 - C2) * (u[g.at(2, k, j - 1, i)] * tmp1)) - cs.dt * cs.ty1 * (R43 * C34 * tmp1) - cs.dt * cs.ty1 * cs.dy3;
        b[g.jac(3, 2, n)] = -cs.dt * cs.ty2 * (-C2 * (u[g.at(3, k, j - 1, i)] * tmp1));
        b[g.jac(4, 2, n)] = -cs.dt * cs.ty2 * C2;
        b[g.jac(0, 3, n)] =
            -cs.dt * cs.ty2 * (-(u[g.at(2, k, j - 1, i)] * u[g.at(3, k, j - 1, i)]) * tmp2) - cs.dt * cs.ty1 * (-C34 * tmp2 * u[g.at(3, k, j - 1, i)]);
        b[g.jac(1, 3, n)] = 0.0;
        b[g.jac(2, 3, n)] = -cs.dt * cs.ty2 * (u[g.at(3, k, j - 1, i)] * tmp1);
        b[g.jac(3, 3, n)] = -cs.dt * cs.ty2 * (u[g.at(2, k, j - 1, i)] * tmp1) - cs.dt * cs.ty1 * (C34 * tmp1) - cs.dt * cs.ty1 * cs.dy4;
        b[g.jac(4, 3, n)] = 0.0;
        b[g.jac(0, 4, n)] = -cs.dt * cs.ty2 * ((C2 * 2.0 * qs[g.at3(k, j - 1, i)] - C1 * u[g.at(4, k, j - 1, i)]) * (u[g.at(2, k, j - 1, i)] * tmp2))
            - cs.dt
                * cs.ty1
                * (-(C34 - C1345) * tmp3 * (u[g.at(1, k, j - 1, i)] * u[g.at(1, k, j - 1, i)])
                    - (R43 * C34 - C1345) * tmp3 * (u[g.at(2, k, j - 1, i)] * u[g.at(2, k, j - 1, i)])
                    - (C34 - C1345) * tmp3 * (u[g.at(3, k, j - 1, i)] * u[g.at(3, k, j - 1, i)])
                    - C1345 * tmp2 * u[g.at(4, k, j - 1, i)]);
        b[g.jac(1, 4, n)] = -cs.dt * cs.ty2 * (-C2 * (u[g.at(1, k, j - 1, i)] * u[g.at(2, k, j - 1, i)]) * tmp2)
            - cs.dt * cs.ty1 * (C34 - C1345) * tmp2 * u[g.at(1, k, j - 1, i)];
        b[g.jac(2, 4, n)] = -cs.dt
            * cs.ty2
            * (C1 * (u[g.at(4, k, j - 1, i)] * tmp1) - C2 * (qs[g.at3(k, j - 1, i)] * tmp1 + u[g.at(2, k, j - 1, i)] * u[g.at(2, k, j - 1, i)] * tmp2))
            - cs.dt * cs.ty1 * (R43 * C34 - C1345) * tmp2 * u[g.at(2, k, j - 1, i)];
        b[g.jac(3, 4, n)] = -cs.dt * cs.ty2 * (-C2 * (u[g.at(2, k, j - 1, i)] * u[g.at(3, k, j - 1, i)]) * tmp2)
            - cs.dt * cs.ty1 * (C34 - C1345) * tmp2 * u[g.at(3, k, j - 1, i)];
        b[g.jac(4, 4, n)] = -cs.dt * cs.ty2 * (C1 * (u[g.at(2, k, j - 1, i)] * tmp1)) - cs.dt * cs.ty1 * C1345 * tmp1 - cs.dt * cs.ty1 * cs.dy5;
        let tmp1 = rho_i[g.at3(k, j, i - 1)];
        let tmp2 = tmp1 * tmp1;
        let tmp3 = tmp1 * tmp2;
        c[g.jac(0, 0, n)] = -cs.dt * cs.tx1 * cs.dx1;
        c[g.jac(1, 0, n)] = -cs.dt * cs.tx2;
        c[g.jac(2, 0, n)] = 0.0;
        c[g.jac(3, 0, n)] = 0.0;
        c[g.jac(4, 0, n)] = 0.0;
        c[g.jac(0, 1, n)] = -cs.dt * cs.tx2 * (-(u[g.at(1, k, j, i - 1)] * tmp1) * (u[g.at(1, k, j, i - 1)] * tmp1) + C2 * qs[g.at3(k, j, i - 1)] * tmp1)
            - cs.dt * cs.tx1 * (-R43 * C34 * tmp2 * u[g.at(1, k, j, i - 1)]);
        c[g.jac(1, 1, n)] = -cs.dt * cs.tx2 * ((2.0 - C2) * (u[g.at(1, k, j, i - 1)] * tmp1)) - cs.dt * cs.tx1 * (R43 * C34 * tmp1) - cs.dt * cs.tx1 * cs.dx2;
        c[g.jac(2, 1, n)] = -cs.dt * cs.tx2 * (-C2 * (u[g.at(2, k, j, i - 1)] * tmp1));
        c[g.jac(3, 1, n)] = -cs.dt * cs.tx2 * (-C2 * (u[g.at(3, k, j, i - 1)] * tmp1));
        c[g.jac(4, 1, n)] = -cs.dt * cs.tx2 * C2;
        c[g.jac(0, 2, n)] =
            -cs.dt * cs.tx2 * (-(u[g.at(1, k, j, i - 1)] * u[g.at(2, k, j, i - 1)]) * tmp2) - cs.dt * cs.tx1 * (-C34 * tmp2 * u[g.at(2, k, j, i - 1)]);
        c[g.jac(1, 2, n)] = -cs.dt * cs.tx2 * (u[g.at(2, k, j, i - 1)] * tmp1);
        c[g.jac(2, 2, n)] = -cs.dt * cs.tx2 * (u[g.at(1, k, j, i - 1)] * tmp1) - cs.dt * cs.tx1 * (C34 * tmp1) - cs.dt * cs.tx1 * cs.dx3;
        c[g.jac(3, 2, n)] = 0.0;
        c[g.jac(4, 2, n)] = 0.0;
        c[g.jac(0, 3, n)] =
            -cs.dt * cs.tx2 * (-(u[g.at(1, k, j, i - 1)] * u[g.at(3, k, j, i - 1)]) * tmp2) - cs.dt * cs.tx1 * (-C34 * tmp2 * u[g.at(3, k, j, i - 1)]);
        c[g.jac(1, 3, n)] = -cs.dt * cs.tx2 * (u[g.at(3, k, j, i - 1)] * tmp1);
        c[g.jac(2, 3, n)] = 0.0;
        c[g.jac(3, 3, n)] = -cs.dt * cs.tx2 * (u[g.at(1, k, j, i - 1)] * tmp1) - cs.dt * cs.tx1 * (C34 * tmp1) - cs.dt * cs.tx1 * cs.dx4;
        c[g.jac(4, 3, n)] = 0.0;
        c[g.jac(0, 4, n)] = -cs.dt * cs.tx2 * ((C2 * 2.0 * qs[g.at3(k, j, i - 1)] - C1 * u[g.at(4, k, j, i - 1)]) * u[g.at(1, k, j, i - 1)] * tmp2)
            - cs.dt
                * cs.tx1
                * (-(R43 * C34 - C1345) * tmp3 * (u[g.at(1, k, j, i - 1)] * u[g.at(1, k, j, i - 1)])
                    - (C34 - C1345) * tmp3 * (u[g.at(2, k, j, i - 1)] * u[g.at(2, k, j, i - 1)])
                    - (C34 - C1345) * tmp3 * (u[g.at(3, k, j, i - 1)] * u[g.at(3, k, j, i - 1)])
                    - C1345 * tmp2 * u[g.at(4, k, j, i - 1)]);
        c[g.jac(1, 4, n)] = -cs.dt
            * cs.tx2
            * (C1 * (u[g.at(4, k, j, i - 1)] * tmp1) - C2 * (u[g.at(1, k, j, i - 1)] * u[g.at(1, k, j, i - 1)] * tmp2 + qs[g.at3(k, j, i - 1)] * tmp1))
            - cs.dt * cs.tx1 * (R43 * C34 - C1345) * tmp2 * u[g.at(1, k, j, i - 1)];
        c[g.jac(2, 4, n)] = -cs.dt * cs.tx2 * (-C2 * (u[g.at(2, k, j, i - 1)] * u[g.at(1, k, j, i - 1)]) * tmp2)
            - cs.dt * cs.tx1 * (C34 - C1345) * tmp2 * u[g.at(2, k, j, i - 1)];
        c[g.jac(3, 4, n)] = -cs.dt * cs.tx2 * (-C2 * (u[g.at(3, k, j, i - 1)] * u[g.at(1, k, j, i - 1)]) * tmp2)
            - cs.dt * cs.tx1 * (C34 - C1345) * tmp2 * u[g.at(3, k, j, i - 1)];
        c[g.jac(4, 4, n)] = -cs.dt * cs.tx2 * (C1 * (u[g.at(1, k, j, i - 1)] * tmp1)) - cs.dt * cs.tx1 * C1345 * tmp1 - cs.dt * cs.tx1 * cs.dx5;
    }
}

/// The forward substitution on hyperplane `l`.
#[acc::parallel(num_gangs(npl.div_ceil(128)), num_workers(1), vector_length(128))]
#[allow(clippy::too_many_arguments)]
fn blts(
    rsd: &mut [f64],
    a: &[f64],
    b: &[f64],
    c: &[f64],
    d: &[f64],
    indxp: &[usize],
    jndxp: &[usize],
    g: Grid,
    l: usize,
    npl: usize,
    omega: f64,
) {
    #[acc::r#loop(gang, vector)]
    for n in 1..=npl {
        let j = jndxp[g.hp(l, n)];
        let i = indxp[g.hp(l, n)];
        let k = l - i - j;
        for m in 0..5 {
            rsd[g.at(m, k, j, i)] = rsd[g.at(m, k, j, i)]
                - omega
                    * (a[g.jac(0, m, n)] * rsd[g.at(0, k - 1, j, i)]
                        + a[g.jac(1, m, n)] * rsd[g.at(1, k - 1, j, i)]
                        + a[g.jac(2, m, n)] * rsd[g.at(2, k - 1, j, i)]
                        + a[g.jac(3, m, n)] * rsd[g.at(3, k - 1, j, i)]
                        + a[g.jac(4, m, n)] * rsd[g.at(4, k - 1, j, i)]);
        }
    }
    #[acc::r#loop(gang, vector)]
    for n in 1..=npl {
        let j = jndxp[g.hp(l, n)];
        let i = indxp[g.hp(l, n)];
        let k = l - i - j;
        // The point's block and right-hand side, in registers.
        let mut tmat = [[0.0f64; 5]; 5];
        let mut tv = [0.0f64; 5];
        for m in 0..5 {
            tv[m] = rsd[g.at(m, k, j, i)]
                - omega
                    * (b[g.jac(0, m, n)] * rsd[g.at(0, k, j - 1, i)]
                        + c[g.jac(0, m, n)] * rsd[g.at(0, k, j, i - 1)]
                        + b[g.jac(1, m, n)] * rsd[g.at(1, k, j - 1, i)]
                        + c[g.jac(1, m, n)] * rsd[g.at(1, k, j, i - 1)]
                        + b[g.jac(2, m, n)] * rsd[g.at(2, k, j - 1, i)]
                        + c[g.jac(2, m, n)] * rsd[g.at(2, k, j, i - 1)]
                        + b[g.jac(3, m, n)] * rsd[g.at(3, k, j - 1, i)]
                        + c[g.jac(3, m, n)] * rsd[g.at(3, k, j, i - 1)]
                        + b[g.jac(4, m, n)] * rsd[g.at(4, k, j - 1, i)]
                        + c[g.jac(4, m, n)] * rsd[g.at(4, k, j, i - 1)]);
        }
        for m in 0..5 {
            tmat[m][0] = d[g.jac(0, m, n)];
            tmat[m][1] = d[g.jac(1, m, n)];
            tmat[m][2] = d[g.jac(2, m, n)];
            tmat[m][3] = d[g.jac(3, m, n)];
            tmat[m][4] = d[g.jac(4, m, n)];
        }
        let tmp1 = 1.0 / tmat[0][0];
        let tmp = tmp1 * tmat[1][0];
        tmat[1][1] = tmat[1][1] - tmp * tmat[0][1];
        tmat[1][2] = tmat[1][2] - tmp * tmat[0][2];
        tmat[1][3] = tmat[1][3] - tmp * tmat[0][3];
        tmat[1][4] = tmat[1][4] - tmp * tmat[0][4];
        tv[1] = tv[1] - tv[0] * tmp;
        let tmp = tmp1 * tmat[2][0];
        tmat[2][1] = tmat[2][1] - tmp * tmat[0][1];
        tmat[2][2] = tmat[2][2] - tmp * tmat[0][2];
        tmat[2][3] = tmat[2][3] - tmp * tmat[0][3];
        tmat[2][4] = tmat[2][4] - tmp * tmat[0][4];
        tv[2] = tv[2] - tv[0] * tmp;
        let tmp = tmp1 * tmat[3][0];
        tmat[3][1] = tmat[3][1] - tmp * tmat[0][1];
        tmat[3][2] = tmat[3][2] - tmp * tmat[0][2];
        tmat[3][3] = tmat[3][3] - tmp * tmat[0][3];
        tmat[3][4] = tmat[3][4] - tmp * tmat[0][4];
        tv[3] = tv[3] - tv[0] * tmp;
        let tmp = tmp1 * tmat[4][0];
        tmat[4][1] = tmat[4][1] - tmp * tmat[0][1];
        tmat[4][2] = tmat[4][2] - tmp * tmat[0][2];
        tmat[4][3] = tmat[4][3] - tmp * tmat[0][3];
        tmat[4][4] = tmat[4][4] - tmp * tmat[0][4];
        tv[4] = tv[4] - tv[0] * tmp;
        let tmp1 = 1.0 / tmat[1][1];
        let tmp = tmp1 * tmat[2][1];
        tmat[2][2] = tmat[2][2] - tmp * tmat[1][2];
        tmat[2][3] = tmat[2][3] - tmp * tmat[1][3];
        tmat[2][4] = tmat[2][4] - tmp * tmat[1][4];
        tv[2] = tv[2] - tv[1] * tmp;
        let tmp = tmp1 * tmat[3][1];
        tmat[3][2] = tmat[3][2] - tmp * tmat[1][2];
        tmat[3][3] = tmat[3][3] - tmp * tmat[1][3];
        tmat[3][4] = tmat[3][4] - tmp * tmat[1][4];
        tv[3] = tv[3] - tv[1] * tmp;
        let tmp = tmp1 * tmat[4][1];
        tmat[4][2] = tmat[4][2] - tmp * tmat[1][2];
        tmat[4][3] = tmat[4][3] - tmp * tmat[1][3];
        tmat[4][4] = tmat[4][4] - tmp * tmat[1][4];
        tv[4] = tv[4] - tv[1] * tmp;
        let tmp1 = 1.0 / tmat[2][2];
        let tmp = tmp1 * tmat[3][2];
        tmat[3][3] = tmat[3][3] - tmp * tmat[2][3];
        tmat[3][4] = tmat[3][4] - tmp * tmat[2][4];
        tv[3] = tv[3] - tv[2] * tmp;
        let tmp = tmp1 * tmat[4][2];
        tmat[4][3] = tmat[4][3] - tmp * tmat[2][3];
        tmat[4][4] = tmat[4][4] - tmp * tmat[2][4];
        tv[4] = tv[4] - tv[2] * tmp;
        let tmp1 = 1.0 / tmat[3][3];
        let tmp = tmp1 * tmat[4][3];
        tmat[4][4] = tmat[4][4] - tmp * tmat[3][4];
        tv[4] = tv[4] - tv[3] * tmp;
        rsd[g.at(4, k, j, i)] = tv[4] / tmat[4][4];
        tv[3] = tv[3] - tmat[3][4] * rsd[g.at(4, k, j, i)];
        rsd[g.at(3, k, j, i)] = tv[3] / tmat[3][3];
        tv[2] = tv[2] - tmat[2][3] * rsd[g.at(3, k, j, i)] - tmat[2][4] * rsd[g.at(4, k, j, i)];
        rsd[g.at(2, k, j, i)] = tv[2] / tmat[2][2];
        tv[1] = tv[1]
            - tmat[1][2] * rsd[g.at(2, k, j, i)]
            - tmat[1][3] * rsd[g.at(3, k, j, i)]
            - tmat[1][4] * rsd[g.at(4, k, j, i)];
        rsd[g.at(1, k, j, i)] = tv[1] / tmat[1][1];
        tv[0] = tv[0]
            - tmat[0][1] * rsd[g.at(1, k, j, i)]
            - tmat[0][2] * rsd[g.at(2, k, j, i)]
            - tmat[0][3] * rsd[g.at(3, k, j, i)]
            - tmat[0][4] * rsd[g.at(4, k, j, i)];
        rsd[g.at(0, k, j, i)] = tv[0] / tmat[0][0];
    }
}

/// The upper-triangular blocks and the diagonal at hyperplane `l`'s points.
#[acc::parallel(num_gangs(npl.div_ceil(128)), num_workers(1), vector_length(128))]
#[allow(clippy::too_many_arguments)]
fn jacu(
    u: &[f64],
    qs: &[f64],
    rho_i: &[f64],
    a: &mut [f64],
    b: &mut [f64],
    c: &mut [f64],
    d: &mut [f64],
    indxp: &[usize],
    jndxp: &[usize],
    g: Grid,
    cs: Consts,
    l: usize,
    npl: usize,
) {
    #[acc::r#loop(gang, worker, vector)]
    for n in 1..=npl {
        let j = jndxp[g.hp(l, n)];
        let i = indxp[g.hp(l, n)];
        let k = l - i - j;
        let tmp1 = rho_i[g.at3(k, j, i)];
        let tmp2 = tmp1 * tmp1;
        let tmp3 = tmp1 * tmp2;
        d[g.jac(0, 0, n)] = 1.0 + cs.dt * 2.0 * (cs.tx1 * cs.dx1 + cs.ty1 * cs.dy1 + cs.tz1 * cs.dz1);
        d[g.jac(1, 0, n)] = 0.0;
        d[g.jac(2, 0, n)] = 0.0;
        d[g.jac(3, 0, n)] = 0.0;
        d[g.jac(4, 0, n)] = 0.0;
        d[g.jac(0, 1, n)] = cs.dt * 2.0 * (-cs.tx1 * R43 - cs.ty1 - cs.tz1) * (C34 * tmp2 * u[g.at(1, k, j, i)]);
        d[g.jac(1, 1, n)] =
            1.0 + cs.dt * 2.0 * C34 * tmp1 * (cs.tx1 * R43 + cs.ty1 + cs.tz1) + cs.dt * 2.0 * (cs.tx1 * cs.dx2 + cs.ty1 * cs.dy2 + cs.tz1 * cs.dz2);
        d[g.jac(2, 1, n)] = 0.0;
        d[g.jac(3, 1, n)] = 0.0;
        d[g.jac(4, 1, n)] = 0.0;
        d[g.jac(0, 2, n)] = cs.dt * 2.0 * (-cs.tx1 - cs.ty1 * R43 - cs.tz1) * (C34 * tmp2 * u[g.at(2, k, j, i)]);
        d[g.jac(1, 2, n)] = 0.0;
        d[g.jac(2, 2, n)] =
            1.0 + cs.dt * 2.0 * C34 * tmp1 * (cs.tx1 + cs.ty1 * R43 + cs.tz1) + cs.dt * 2.0 * (cs.tx1 * cs.dx3 + cs.ty1 * cs.dy3 + cs.tz1 * cs.dz3);
        d[g.jac(3, 2, n)] = 0.0;
        d[g.jac(4, 2, n)] = 0.0;
        d[g.jac(0, 3, n)] = cs.dt * 2.0 * (-cs.tx1 - cs.ty1 - cs.tz1 * R43) * (C34 * tmp2 * u[g.at(3, k, j, i)]);
        d[g.jac(1, 3, n)] = 0.0;
        d[g.jac(2, 3, n)] = 0.0;
        d[g.jac(3, 3, n)] =
            1.0 + cs.dt * 2.0 * C34 * tmp1 * (cs.tx1 + cs.ty1 + cs.tz1 * R43) + cs.dt * 2.0 * (cs.tx1 * cs.dx4 + cs.ty1 * cs.dy4 + cs.tz1 * cs.dz4);
        d[g.jac(4, 3, n)] = 0.0;
        d[g.jac(0, 4, n)] = -cs.dt
            * 2.0
            * (((cs.tx1 * (R43 * C34 - C1345) + cs.ty1 * (C34 - C1345) + cs.tz1 * (C34 - C1345)) * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)])
                + (cs.tx1 * (C34 - C1345) + cs.ty1 * (R43 * C34 - C1345) + cs.tz1 * (C34 - C1345)) * (u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)])
                + (cs.tx1 * (C34 - C1345) + cs.ty1 * (C34 - C1345) + cs.tz1 * (R43 * C34 - C1345)) * (u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)]))
                * tmp3
                + (cs.tx1 + cs.ty1 + cs.tz1) * C1345 * tmp2 * u[g.at(4, k, j, i)]);
        d[g.jac(1, 4, n)] = cs.dt * 2.0 * (cs.tx1 * (R43 * C34 - C1345) + cs.ty1 * (C34 - C1345) + cs.tz1 * (C34 - C1345)) * tmp2 * u[g.at(1, k, j, i)];
        d[g.jac(2, 4, n)] = cs.dt * 2.0 * (cs.tx1 * (C34 - C1345) + cs.ty1 * (R43 * C34 - C1345) + cs.tz1 * (C34 - C1345)) * tmp2 * u[g.at(2, k, j, i)];
        d[g.jac(3, 4, n)] = cs.dt * 2.0 * (cs.tx1 * (C34 - C1345) + cs.ty1 * (C34 - C1345) + cs.tz1 * (R43 * C34 - C1345)) * tmp2 * u[g.at(3, k, j, i)];
        d[g.jac(4, 4, n)] = 1.0 + cs.dt * 2.0 * (cs.tx1 + cs.ty1 + cs.tz1) * C1345 * tmp1 + cs.dt * 2.0 * (cs.tx1 * cs.dx5 + cs.ty1 * cs.dy5 + cs.tz1 * cs.dz5);
        let tmp1 = rho_i[g.at3(k, j, i + 1)];
        let tmp2 = tmp1 * tmp1;
        let tmp3 = tmp1 * tmp2;
        a[g.jac(0, 0, n)] = -cs.dt * cs.tx1 * cs.dx1;
        a[g.jac(1, 0, n)] = cs.dt * cs.tx2;
        a[g.jac(2, 0, n)] = 0.0;
        a[g.jac(3, 0, n)] = 0.0;
        a[g.jac(4, 0, n)] = 0.0;
        a[g.jac(0, 1, n)] = cs.dt * cs.tx2 * (-(u[g.at(1, k, j, i + 1)] * tmp1) * (u[g.at(1, k, j, i + 1)] * tmp1) + C2 * qs[g.at3(k, j, i + 1)] * tmp1)
            - cs.dt * cs.tx1 * (-R43 * C34 * tmp2 * u[g.at(1, k, j, i + 1)]);
        a[g.jac(1, 1, n)] = cs.dt * cs.tx2 * ((2.0 - C2) * (u[g.at(1, k, j, i + 1)] * tmp1)) - cs.dt * cs.tx1 * (R43 * C34 * tmp1) - cs.dt * cs.tx1 * cs.dx2;
        a[g.jac(2, 1, n)] = cs.dt * cs.tx2 * (-C2 * (u[g.at(2, k, j, i + 1)] * tmp1));
        a[g.jac(3, 1, n)] = cs.dt * cs.tx2 * (-C2 * (u[g.at(3, k, j, i + 1)] * tmp1));
        a[g.jac(4, 1, n)] = cs.dt * cs.tx2 * C2;
        a[g.jac(0, 2, n)] =
            cs.dt * cs.tx2 * (-(u[g.at(1, k, j, i + 1)] * u[g.at(2, k, j, i + 1)]) * tmp2) - cs.dt * cs.tx1 * (-C34 * tmp2 * u[g.at(2, k, j, i + 1)]);
        a[g.jac(1, 2, n)] = cs.dt * cs.tx2 * (u[g.at(2, k, j, i + 1)] * tmp1);
        a[g.jac(2, 2, n)] = cs.dt * cs.tx2 * (u[g.at(1, k, j, i + 1)] * tmp1) - cs.dt * cs.tx1 * (C34 * tmp1) - cs.dt * cs.tx1 * cs.dx3;
        a[g.jac(3, 2, n)] = 0.0;
        a[g.jac(4, 2, n)] = 0.0;
        a[g.jac(0, 3, n)] =
            cs.dt * cs.tx2 * (-(u[g.at(1, k, j, i + 1)] * u[g.at(3, k, j, i + 1)]) * tmp2) - cs.dt * cs.tx1 * (-C34 * tmp2 * u[g.at(3, k, j, i + 1)]);
        a[g.jac(1, 3, n)] = cs.dt * cs.tx2 * (u[g.at(3, k, j, i + 1)] * tmp1);
        a[g.jac(2, 3, n)] = 0.0;
        a[g.jac(3, 3, n)] = cs.dt * cs.tx2 * (u[g.at(1, k, j, i + 1)] * tmp1) - cs.dt * cs.tx1 * (C34 * tmp1) - cs.dt * cs.tx1 * cs.dx4;
        a[g.jac(4, 3, n)] = 0.0;
        a[g.jac(0, 4, n)] = cs.dt * cs.tx2 * ((C2 * 2.0 * qs[g.at3(k, j, i + 1)] - C1 * u[g.at(4, k, j, i + 1)]) * (u[g.at(1, k, j, i + 1)] * tmp2))
            - cs.dt
                * cs.tx1
                * (-(R43 * C34 - C1345) * tmp3 * (u[g.at(1, k, j, i + 1)] * u[g.at(1, k, j, i + 1)])
                    - (C34 - C1345) * tmp3 * (u[g.at(2, k, j, i + 1)] * u[g.at(2, k, j, i + 1)])
                    - (C34 - C1345) * tmp3 * (u[g.at(3, k, j, i + 1)] * u[g.at(3, k, j, i + 1)])
                    - C1345 * tmp2 * u[g.at(4, k, j, i + 1)]);
        a[g.jac(1, 4, n)] = cs.dt
            * cs.tx2
            * (C1 * (u[g.at(4, k, j, i + 1)] * tmp1) - C2 * (u[g.at(1, k, j, i + 1)] * u[g.at(1, k, j, i + 1)] * tmp2 + qs[g.at3(k, j, i + 1)] * tmp1))
            - cs.dt * cs.tx1 * (R43 * C34 - C1345) * tmp2 * u[g.at(1, k, j, i + 1)];
        a[g.jac(2, 4, n)] = cs.dt * cs.tx2 * (-C2 * (u[g.at(2, k, j, i + 1)] * u[g.at(1, k, j, i + 1)]) * tmp2)
            - cs.dt * cs.tx1 * (C34 - C1345) * tmp2 * u[g.at(2, k, j, i + 1)];
        a[g.jac(3, 4, n)] = cs.dt * cs.tx2 * (-C2 * (u[g.at(3, k, j, i + 1)] * u[g.at(1, k, j, i + 1)]) * tmp2)
            - cs.dt * cs.tx1 * (C34 - C1345) * tmp2 * u[g.at(3, k, j, i + 1)];
        a[g.jac(4, 4, n)] = cs.dt * cs.tx2 * (C1 * (u[g.at(1, k, j, i + 1)] * tmp1)) - cs.dt * cs.tx1 * C1345 * tmp1 - cs.dt * cs.tx1 * cs.dx5;
        let tmp1 = rho_i[g.at3(k, j + 1, i)];
        let tmp2 = tmp1 * tmp1;
        let tmp3 = tmp1 * tmp2;
        b[g.jac(0, 0, n)] = -cs.dt * cs.ty1 * cs.dy1;
        b[g.jac(1, 0, n)] = 0.0;
        b[g.jac(2, 0, n)] = cs.dt * cs.ty2;
        b[g.jac(3, 0, n)] = 0.0;
        b[g.jac(4, 0, n)] = 0.0;
        b[g.jac(0, 1, n)] =
            cs.dt * cs.ty2 * (-(u[g.at(1, k, j + 1, i)] * u[g.at(2, k, j + 1, i)]) * tmp2) - cs.dt * cs.ty1 * (-C34 * tmp2 * u[g.at(1, k, j + 1, i)]);
        b[g.jac(1, 1, n)] = cs.dt * cs.ty2 * (u[g.at(2, k, j + 1, i)] * tmp1) - cs.dt * cs.ty1 * (C34 * tmp1) - cs.dt * cs.ty1 * cs.dy2;
        b[g.jac(2, 1, n)] = cs.dt * cs.ty2 * (u[g.at(1, k, j + 1, i)] * tmp1);
        b[g.jac(3, 1, n)] = 0.0;
        b[g.jac(4, 1, n)] = 0.0;
        b[g.jac(0, 2, n)] = cs.dt * cs.ty2 * (-(u[g.at(2, k, j + 1, i)] * tmp1) * (u[g.at(2, k, j + 1, i)] * tmp1) + C2 * (qs[g.at3(k, j + 1, i)] * tmp1))
            - cs.dt * cs.ty1 * (-R43 * C34 * tmp2 * u[g.at(2, k, j + 1, i)]);
        b[g.jac(1, 2, n)] = cs.dt * cs.ty2 * (-C2 * (u[g.at(1, k, j + 1, i)] * tmp1));
        b[g.jac(2, 2, n)] = cs.dt * cs.ty2 * ((2.0 - C2) * (u[g.at(2, k, j + 1, i)] * tmp1)) - cs.dt * cs.ty1 * (R43 * C34 * tmp1) - cs.dt * cs.ty1 * cs.dy3;
        b[g.jac(3, 2, n)] = cs.dt * cs.ty2 * (-C2 * (u[g.at(3, k, j + 1, i)] * tmp1));
        b[g.jac(4, 2, n)] = cs.dt * cs.ty2 * C2;
        b[g.jac(0, 3, n)] =
            cs.dt * cs.ty2 * (-(u[g.at(2, k, j + 1, i)] * u[g.at(3, k, j + 1, i)]) * tmp2) - cs.dt * cs.ty1 * (-C34 * tmp2 * u[g.at(3, k, j + 1, i)]);
        b[g.jac(1, 3, n)] = 0.0;
        b[g.jac(2, 3, n)] = cs.dt * cs.ty2 * (u[g.at(3, k, j + 1, i)] * tmp1);
        b[g.jac(3, 3, n)] = cs.dt * cs.ty2 * (u[g.at(2, k, j + 1, i)] * tmp1) - cs.dt * cs.ty1 * (C34 * tmp1) - cs.dt * cs.ty1 * cs.dy4;
        b[g.jac(4, 3, n)] = 0.0;
        b[g.jac(0, 4, n)] = cs.dt * cs.ty2 * ((C2 * 2.0 * qs[g.at3(k, j + 1, i)] - C1 * u[g.at(4, k, j + 1, i)]) * (u[g.at(2, k, j + 1, i)] * tmp2))
            - cs.dt
                * cs.ty1
                * (-(C34 - C1345) * tmp3 * (u[g.at(1, k, j + 1, i)] * u[g.at(1, k, j + 1, i)])
                    - (R43 * C34 - C1345) * tmp3 * (u[g.at(2, k, j + 1, i)] * u[g.at(2, k, j + 1, i)])
                    - (C34 - C1345) * tmp3 * (u[g.at(3, k, j + 1, i)] * u[g.at(3, k, j + 1, i)])
                    - C1345 * tmp2 * u[g.at(4, k, j + 1, i)]);
        b[g.jac(1, 4, n)] = cs.dt * cs.ty2 * (-C2 * (u[g.at(1, k, j + 1, i)] * u[g.at(2, k, j + 1, i)]) * tmp2)
            - cs.dt * cs.ty1 * (C34 - C1345) * tmp2 * u[g.at(1, k, j + 1, i)];
        b[g.jac(2, 4, n)] = cs.dt
            * cs.ty2
            * (C1 * (u[g.at(4, k, j + 1, i)] * tmp1) - C2 * (qs[g.at3(k, j + 1, i)] * tmp1 + u[g.at(2, k, j + 1, i)] * u[g.at(2, k, j + 1, i)] * tmp2))
            - cs.dt * cs.ty1 * (R43 * C34 - C1345) * tmp2 * u[g.at(2, k, j + 1, i)];
        b[g.jac(3, 4, n)] = cs.dt * cs.ty2 * (-C2 * (u[g.at(2, k, j + 1, i)] * u[g.at(3, k, j + 1, i)]) * tmp2)
            - cs.dt * cs.ty1 * (C34 - C1345) * tmp2 * u[g.at(3, k, j + 1, i)];
        b[g.jac(4, 4, n)] = cs.dt * cs.ty2 * (C1 * (u[g.at(2, k, j + 1, i)] * tmp1)) - cs.dt * cs.ty1 * C1345 * tmp1 - cs.dt * cs.ty1 * cs.dy5;
        let tmp1 = rho_i[g.at3(k + 1, j, i)];
        let tmp2 = tmp1 * tmp1;
        let tmp3 = tmp1 * tmp2;
        c[g.jac(0, 0, n)] = -cs.dt * cs.tz1 * cs.dz1;
        c[g.jac(1, 0, n)] = 0.0;
        c[g.jac(2, 0, n)] = 0.0;
        c[g.jac(3, 0, n)] = cs.dt * cs.tz2;
        c[g.jac(4, 0, n)] = 0.0;
        c[g.jac(0, 1, n)] =
            cs.dt * cs.tz2 * (-(u[g.at(1, k + 1, j, i)] * u[g.at(3, k + 1, j, i)]) * tmp2) - cs.dt * cs.tz1 * (-C34 * tmp2 * u[g.at(1, k + 1, j, i)]);
        c[g.jac(1, 1, n)] = cs.dt * cs.tz2 * (u[g.at(3, k + 1, j, i)] * tmp1) - cs.dt * cs.tz1 * C34 * tmp1 - cs.dt * cs.tz1 * cs.dz2;
        c[g.jac(2, 1, n)] = 0.0;
        c[g.jac(3, 1, n)] = cs.dt * cs.tz2 * (u[g.at(1, k + 1, j, i)] * tmp1);
        c[g.jac(4, 1, n)] = 0.0;
        c[g.jac(0, 2, n)] =
            cs.dt * cs.tz2 * (-(u[g.at(2, k + 1, j, i)] * u[g.at(3, k + 1, j, i)]) * tmp2) - cs.dt * cs.tz1 * (-C34 * tmp2 * u[g.at(2, k + 1, j, i)]);
        c[g.jac(1, 2, n)] = 0.0;
        c[g.jac(2, 2, n)] = cs.dt * cs.tz2 * (u[g.at(3, k + 1, j, i)] * tmp1) - cs.dt * cs.tz1 * (C34 * tmp1) - cs.dt * cs.tz1 * cs.dz3;
        c[g.jac(3, 2, n)] = cs.dt * cs.tz2 * (u[g.at(2, k + 1, j, i)] * tmp1);
        c[g.jac(4, 2, n)] = 0.0;
        c[g.jac(0, 3, n)] = cs.dt * cs.tz2 * (-(u[g.at(3, k + 1, j, i)] * tmp1) * (u[g.at(3, k + 1, j, i)] * tmp1) + C2 * (qs[g.at3(k + 1, j, i)] * tmp1))
            - cs.dt * cs.tz1 * (-R43 * C34 * tmp2 * u[g.at(3, k + 1, j, i)]);
        c[g.jac(1, 3, n)] = cs.dt * cs.tz2 * (-C2 * (u[g.at(1, k + 1, j, i)] * tmp1));
        c[g.jac(2, 3, n)] = cs.dt * cs.tz2 * (-C2 * (u[g.at(2, k + 1, j, i)] * tmp1));
        c[g.jac(3, 3, n)] = cs.dt * cs.tz2 * (2.0 - C2) * (u[g.at(3, k + 1, j, i)] * tmp1) - cs.dt * cs.tz1 * (R43 * C34 * tmp1) - cs.dt * cs.tz1 * cs.dz4;
        c[g.jac(4, 3, n)] = cs.dt * cs.tz2 * C2;
        c[g.jac(0, 4, n)] = cs.dt * cs.tz2 * ((C2 * 2.0 * qs[g.at3(k + 1, j, i)] - C1 * u[g.at(4, k + 1, j, i)]) * (u[g.at(3, k + 1, j, i)] * tmp2))
            - cs.dt
                * cs.tz1
                * (-(C34 - C1345) * tmp3 * (u[g.at(1, k + 1, j, i)] * u[g.at(1, k + 1, j, i)])
                    - (C34 - C1345) * tmp3 * (u[g.at(2, k + 1, j, i)] * u[g.at(2, k + 1, j, i)])
                    - (R43 * C34 - C1345) * tmp3 * (u[g.at(3, k + 1, j, i)] * u[g.at(3, k + 1, j, i)])
                    - C1345 * tmp2 * u[g.at(4, k + 1, j, i)]);
        c[g.jac(1, 4, n)] = cs.dt * cs.tz2 * (-C2 * (u[g.at(1, k + 1, j, i)] * u[g.at(3, k + 1, j, i)]) * tmp2)
            - cs.dt * cs.tz1 * (C34 - C1345) * tmp2 * u[g.at(1, k + 1, j, i)];
        c[g.jac(2, 4, n)] = cs.dt * cs.tz2 * (-C2 * (u[g.at(2, k + 1, j, i)] * u[g.at(3, k + 1, j, i)]) * tmp2)
            - cs.dt * cs.tz1 * (C34 - C1345) * tmp2 * u[g.at(2, k + 1, j, i)];
        c[g.jac(3, 4, n)] = cs.dt
            * cs.tz2
            * (C1 * (u[g.at(4, k + 1, j, i)] * tmp1) - C2 * (qs[g.at3(k + 1, j, i)] * tmp1 + u[g.at(3, k + 1, j, i)] * u[g.at(3, k + 1, j, i)] * tmp2))
            - cs.dt * cs.tz1 * (R43 * C34 - C1345) * tmp2 * u[g.at(3, k + 1, j, i)];
        c[g.jac(4, 4, n)] = cs.dt * cs.tz2 * (C1 * (u[g.at(3, k + 1, j, i)] * tmp1)) - cs.dt * cs.tz1 * C1345 * tmp1 - cs.dt * cs.tz1 * cs.dz5;
    }
}

/// The backward substitution on hyperplane `l`.
#[acc::parallel(num_gangs(npl.div_ceil(128)), num_workers(1), vector_length(128))]
#[allow(clippy::too_many_arguments)]
fn buts(
    rsd: &mut [f64],
    a: &[f64],
    b: &[f64],
    c: &[f64],
    d: &[f64],
    tv: &mut [f64],
    indxp: &[usize],
    jndxp: &[usize],
    g: Grid,
    l: usize,
    npl: usize,
    omega: f64,
) {
    #[acc::r#loop(gang, worker, vector)]
    for n in 1..=npl {
        let j = jndxp[g.hp(l, n)];
        let i = indxp[g.hp(l, n)];
        let k = l - i - j;
        for m in 0..5 {
            tv[g.tv(m, n)] = omega
                * (c[g.jac(0, m, n)] * rsd[g.at(0, k + 1, j, i)]
                    + c[g.jac(1, m, n)] * rsd[g.at(1, k + 1, j, i)]
                    + c[g.jac(2, m, n)] * rsd[g.at(2, k + 1, j, i)]
                    + c[g.jac(3, m, n)] * rsd[g.at(3, k + 1, j, i)]
                    + c[g.jac(4, m, n)] * rsd[g.at(4, k + 1, j, i)]);
        }
    }
    #[acc::r#loop(gang, worker, vector)]
    for n in 1..=npl {
        let j = jndxp[g.hp(l, n)];
        let i = indxp[g.hp(l, n)];
        let k = l - i - j;
        // The point's block and right-hand side, in registers.
        let mut tmat = [[0.0f64; 5]; 5];
        let mut v = [0.0f64; 5];
        for m in 0..5 {
            v[m] = tv[g.tv(m, n)]
                + omega
                    * (b[g.jac(0, m, n)] * rsd[g.at(0, k, j + 1, i)]
                        + a[g.jac(0, m, n)] * rsd[g.at(0, k, j, i + 1)]
                        + b[g.jac(1, m, n)] * rsd[g.at(1, k, j + 1, i)]
                        + a[g.jac(1, m, n)] * rsd[g.at(1, k, j, i + 1)]
                        + b[g.jac(2, m, n)] * rsd[g.at(2, k, j + 1, i)]
                        + a[g.jac(2, m, n)] * rsd[g.at(2, k, j, i + 1)]
                        + b[g.jac(3, m, n)] * rsd[g.at(3, k, j + 1, i)]
                        + a[g.jac(3, m, n)] * rsd[g.at(3, k, j, i + 1)]
                        + b[g.jac(4, m, n)] * rsd[g.at(4, k, j + 1, i)]
                        + a[g.jac(4, m, n)] * rsd[g.at(4, k, j, i + 1)]);
        }
        for m in 0..5 {
            tmat[m][0] = d[g.jac(0, m, n)];
            tmat[m][1] = d[g.jac(1, m, n)];
            tmat[m][2] = d[g.jac(2, m, n)];
            tmat[m][3] = d[g.jac(3, m, n)];
            tmat[m][4] = d[g.jac(4, m, n)];
        }
        let tmp1 = 1.0 / tmat[0][0];
        let tmp = tmp1 * tmat[1][0];
        tmat[1][1] = tmat[1][1] - tmp * tmat[0][1];
        tmat[1][2] = tmat[1][2] - tmp * tmat[0][2];
        tmat[1][3] = tmat[1][3] - tmp * tmat[0][3];
        tmat[1][4] = tmat[1][4] - tmp * tmat[0][4];
        v[1] = v[1] - v[0] * tmp;
        let tmp = tmp1 * tmat[2][0];
        tmat[2][1] = tmat[2][1] - tmp * tmat[0][1];
        tmat[2][2] = tmat[2][2] - tmp * tmat[0][2];
        tmat[2][3] = tmat[2][3] - tmp * tmat[0][3];
        tmat[2][4] = tmat[2][4] - tmp * tmat[0][4];
        v[2] = v[2] - v[0] * tmp;
        let tmp = tmp1 * tmat[3][0];
        tmat[3][1] = tmat[3][1] - tmp * tmat[0][1];
        tmat[3][2] = tmat[3][2] - tmp * tmat[0][2];
        tmat[3][3] = tmat[3][3] - tmp * tmat[0][3];
        tmat[3][4] = tmat[3][4] - tmp * tmat[0][4];
        v[3] = v[3] - v[0] * tmp;
        let tmp = tmp1 * tmat[4][0];
        tmat[4][1] = tmat[4][1] - tmp * tmat[0][1];
        tmat[4][2] = tmat[4][2] - tmp * tmat[0][2];
        tmat[4][3] = tmat[4][3] - tmp * tmat[0][3];
        tmat[4][4] = tmat[4][4] - tmp * tmat[0][4];
        v[4] = v[4] - v[0] * tmp;
        let tmp1 = 1.0 / tmat[1][1];
        let tmp = tmp1 * tmat[2][1];
        tmat[2][2] = tmat[2][2] - tmp * tmat[1][2];
        tmat[2][3] = tmat[2][3] - tmp * tmat[1][3];
        tmat[2][4] = tmat[2][4] - tmp * tmat[1][4];
        v[2] = v[2] - v[1] * tmp;
        let tmp = tmp1 * tmat[3][1];
        tmat[3][2] = tmat[3][2] - tmp * tmat[1][2];
        tmat[3][3] = tmat[3][3] - tmp * tmat[1][3];
        tmat[3][4] = tmat[3][4] - tmp * tmat[1][4];
        v[3] = v[3] - v[1] * tmp;
        let tmp = tmp1 * tmat[4][1];
        tmat[4][2] = tmat[4][2] - tmp * tmat[1][2];
        tmat[4][3] = tmat[4][3] - tmp * tmat[1][3];
        tmat[4][4] = tmat[4][4] - tmp * tmat[1][4];
        v[4] = v[4] - v[1] * tmp;
        let tmp1 = 1.0 / tmat[2][2];
        let tmp = tmp1 * tmat[3][2];
        tmat[3][3] = tmat[3][3] - tmp * tmat[2][3];
        tmat[3][4] = tmat[3][4] - tmp * tmat[2][4];
        v[3] = v[3] - v[2] * tmp;
        let tmp = tmp1 * tmat[4][2];
        tmat[4][3] = tmat[4][3] - tmp * tmat[2][3];
        tmat[4][4] = tmat[4][4] - tmp * tmat[2][4];
        v[4] = v[4] - v[2] * tmp;
        let tmp1 = 1.0 / tmat[3][3];
        let tmp = tmp1 * tmat[4][3];
        tmat[4][4] = tmat[4][4] - tmp * tmat[3][4];
        v[4] = v[4] - v[3] * tmp;
        v[4] = v[4] / tmat[4][4];
        v[3] = v[3] - tmat[3][4] * v[4];
        v[3] = v[3] / tmat[3][3];
        v[2] = v[2] - tmat[2][3] * v[3] - tmat[2][4] * v[4];
        v[2] = v[2] / tmat[2][2];
        v[1] = v[1] - tmat[1][2] * v[2] - tmat[1][3] * v[3] - tmat[1][4] * v[4];
        v[1] = v[1] / tmat[1][1];
        v[0] = v[0]
            - tmat[0][1] * v[1]
            - tmat[0][2] * v[2]
            - tmat[0][3] * v[3]
            - tmat[0][4] * v[4];
        v[0] = v[0] / tmat[0][0];
        rsd[g.at(0, k, j, i)] = rsd[g.at(0, k, j, i)] - v[0];
        rsd[g.at(1, k, j, i)] = rsd[g.at(1, k, j, i)] - v[1];
        rsd[g.at(2, k, j, i)] = rsd[g.at(2, k, j, i)] - v[2];
        rsd[g.at(3, k, j, i)] = rsd[g.at(3, k, j, i)] - v[3];
        rsd[g.at(4, k, j, i)] = rsd[g.at(4, k, j, i)] - v[4];
    }
}

/// The blocks zeroed before the sweeps, on NPB-ACC's `(ISIZ1 * ISIZ2) / 1024` gangs rounded up
/// (NPB-ACC's count is 0 below 32 x 32 points, which OpenACC leaves to the implementation).
#[acc::parallel(num_gangs(g.np.div_ceil(1024)), num_workers(32), vector_length(32))]
fn zero_blocks(a: &mut [f64], b: &mut [f64], c: &mut [f64], d: &mut [f64], g: Grid) {
    #[acc::r#loop(gang, worker, vector)]
    for l in 0..g.np {
        for n in 0..5 {
            for m in 0..5 {
                a[g.jac(n, m, l)] = 0.0;
                b[g.jac(n, m, l)] = 0.0;
                c[g.jac(n, m, l)] = 0.0;
                d[g.jac(n, m, l)] = 0.0;
            }
        }
    }
}

/// `rsd = dt rsd` over the interior.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(nw3(g)), vector_length(32))]
fn scale_rsd(rsd: &mut [f64], g: Grid, dt: f64) {
    #[acc::r#loop(gang)]
    for k in 1..g.nz - 1 {
        #[acc::r#loop(worker)]
        for j in g.jst..=g.jend {
            #[acc::r#loop(vector)]
            for i in g.ist..=g.iend {
                for m in 0..5 {
                    rsd[g.at(m, k, j, i)] *= dt;
                }
            }
        }
    }
}

/// `u += tmp rsd` over the interior.
#[acc::parallel(num_gangs(g.nz - 2), num_workers((nw3(g) / 2).max(1)), vector_length(64))]
fn add(u: &mut [f64], rsd: &[f64], g: Grid, tmp: f64) {
    #[acc::r#loop(gang)]
    for k in 1..g.nz - 1 {
        #[acc::r#loop(worker)]
        for j in g.jst..=g.jend {
            #[acc::r#loop(vector)]
            for i in g.ist..=g.iend {
                for m in 0..5 {
                    u[g.at(m, k, j, i)] += tmp * rsd[g.at(m, k, j, i)];
                }
            }
        }
    }
}

/// The sums of squares of `rsd`'s five components over the interior.
#[acc::parallel(num_gangs(g.nz - 2), num_workers(8), vector_length(32))]
fn l2sums(rsd: &[f64], g: Grid) -> (f64, f64, f64, f64, f64) {
    let mut rsdnm0 = 0.0f64;
    let mut rsdnm1 = 0.0f64;
    let mut rsdnm2 = 0.0f64;
    let mut rsdnm3 = 0.0f64;
    let mut rsdnm4 = 0.0f64;
    #[acc::r#loop(gang, reduction(+: rsdnm0, rsdnm1, rsdnm2, rsdnm3, rsdnm4))]
    for k in 1..g.nz - 1 {
        #[acc::r#loop(worker)]
        for j in g.jst..=g.jend {
            #[acc::r#loop(vector)]
            for i in g.ist..=g.iend {
                rsdnm0 += rsd[g.at(0, k, j, i)] * rsd[g.at(0, k, j, i)];
                rsdnm1 += rsd[g.at(1, k, j, i)] * rsd[g.at(1, k, j, i)];
                rsdnm2 += rsd[g.at(2, k, j, i)] * rsd[g.at(2, k, j, i)];
                rsdnm3 += rsd[g.at(3, k, j, i)] * rsd[g.at(3, k, j, i)];
                rsdnm4 += rsd[g.at(4, k, j, i)] * rsd[g.at(4, k, j, i)];
            }
        }
    }
    (rsdnm0, rsdnm1, rsdnm2, rsdnm3, rsdnm4)
}

/// NPB's `l2norm`: the RMS norms of `rsd`'s components.
fn l2norm(rsd: &[f64], g: Grid) -> [f64; 5] {
    let (s0, s1, s2, s3, s4) = l2sums(rsd, g);
    let n = ((g.nx - 2) * (g.ny - 2) * (g.nz - 2)) as f64;
    [s0, s1, s2, s3, s4].map(|s| (s / n).sqrt())
}

/// The device arrays.
struct Fields<'a> {
    u: &'a mut [f64],
    rsd: &'a mut [f64],
    frct: &'a mut [f64],
    qs: &'a mut [f64],
    rho_i: &'a mut [f64],
    flux: &'a mut [f64],
    utmp: &'a mut [f64],
    rtmp: &'a mut [f64],
    a: &'a mut [f64],
    b: &'a mut [f64],
    c: &'a mut [f64],
    d: &'a mut [f64],
    tv: &'a mut [f64],
    indxp: &'a [usize],
    jndxp: &'a [usize],
}

/// NPB's `rhs`: the steady-state residual `rsd` of `u`.
fn rhs(f: &mut Fields, g: Grid, cs: Consts) {
    rhs_init(f.u, f.rsd, f.frct, f.qs, f.rho_i, g);
    rhs_x(f.u, f.rsd, f.qs, f.rho_i, f.flux, g, cs);
    rhs_x_diss_lo(f.u, f.rsd, g, cs);
    rhs_x_diss(f.u, f.rsd, g, cs);
    rhs_x_diss_hi(f.u, f.rsd, g, cs);
    rhs_y(f.u, f.rsd, f.qs, f.rho_i, f.flux, g, cs);
    rhs_y_diss_lo(f.u, f.rsd, g, cs);
    rhs_y_diss(f.u, f.rsd, g, cs);
    rhs_y_diss_hi(f.u, f.rsd, g, cs);
    rhs_z(f.u, f.rsd, f.qs, f.rho_i, f.flux, f.utmp, f.rtmp, g, cs);
    rhs_z_diss_hi(f.rsd, f.utmp, f.rtmp, g, cs);
}

/// NPB's `erhs`: the forcing `frct` that makes the exact solution steady.
fn erhs(f: &mut Fields, g: Grid, cs: Consts) {
    erhs_init(f.rsd, f.frct, &CE, g);
    erhs_xy(f.rsd, f.frct, f.flux, g, cs);
    erhs_z(f.rsd, f.frct, f.flux, g, cs);
}

/// NPB-ACC's `calcnp`: the interior points of each hyperplane `i + j + k = l`, in `indxp`,
/// `jndxp` from 1 on, their number in `np`.
fn calcnp(g: Grid, lst: usize, lend: usize, indxp: &mut [usize], jndxp: &mut [usize], np: &mut [usize]) {
    let (nx, ny, nz) = (g.nx as isize, g.ny as isize, g.nz as isize);
    for l in lst..=lend {
        let li = l as isize;
        let mut n = 0;
        for j in (li - nx - nz + 2).max(1)..=(ny - 2).min(li - 2) {
            for i in (li - j - nz + 2).max(1)..=(nx - 2).min(li - j - 1) {
                let k = li - i - j;
                if k >= 1 && k < nz - 1 {
                    n += 1;
                    indxp[g.hp(l, n)] = i as usize;
                    jndxp[g.hp(l, n)] = j as usize;
                }
            }
        }
        np[l] = n;
    }
}

/// NPB's `ssor`: `niter` SSOR iterations; returns the residual norms and the seconds they took.
fn ssor(f: &mut Fields, g: Grid, cs: Consts, np: &[usize], niter: u32, itmax: u32) -> ([f64; 5], f64) {
    let tmp = 1.0 / (OMEGA * (2.0 - OMEGA));
    let lst = g.ist + g.jst + 1;
    let lend = g.iend + g.jend + g.nz - 2;
    zero_blocks(f.a, f.b, f.c, f.d, g);
    rhs(f, g, cs);
    let mut rsdnm = l2norm(f.rsd, g);
    let mut timer = Timer::new();
    timer.start();
    for istep in 1..=niter {
        if (istep % 20 == 0 || istep == itmax || istep == 1) && niter > 1 {
            println!(" Time step {istep:4}");
        }
        scale_rsd(f.rsd, g, cs.dt);
        for l in lst..=lend {
            jacld(f.u, f.qs, f.rho_i, f.a, f.b, f.c, f.d, f.indxp, f.jndxp, g, cs, l, np[l]);
            blts(f.rsd, f.a, f.b, f.c, f.d, f.indxp, f.jndxp, g, l, np[l], OMEGA);
        }
        for l in (lst..=lend).rev() {
            jacu(f.u, f.qs, f.rho_i, f.a, f.b, f.c, f.d, f.indxp, f.jndxp, g, cs, l, np[l]);
            buts(f.rsd, f.a, f.b, f.c, f.d, f.tv, f.indxp, f.jndxp, g, l, np[l], OMEGA);
        }
        add(f.u, f.rsd, g, tmp);
        rhs(f, g, cs);
        if istep == itmax {
            rsdnm = l2norm(f.rsd, g);
        }
        if rsdnm.iter().all(|&r| r < TOLRSD) {
            println!(" \n convergence was achieved after {istep:4} pseudo-time steps");
            break;
        }
    }
    timer.stop();
    (rsdnm, timer.read())
}

/// NPB's `exact`: the manufactured solution at grid point `(i, j, k)`.
fn exact(g: &Grid, i: usize, j: usize, k: usize) -> [f64; 5] {
    let xi = i as f64 / (g.nx - 1) as f64;
    let eta = j as f64 / (g.ny - 1) as f64;
    let zeta = k as f64 / (g.nz - 1) as f64;
    let ce = |m: usize, p: usize| CE[ce_at(m, p)];
    std::array::from_fn(|m| {
        ce(m, 0)
            + (ce(m, 1) + (ce(m, 4) + (ce(m, 7) + ce(m, 10) * xi) * xi) * xi) * xi
            + (ce(m, 2) + (ce(m, 5) + (ce(m, 8) + ce(m, 11) * eta) * eta) * eta) * eta
            + (ce(m, 3) + (ce(m, 6) + (ce(m, 9) + ce(m, 12) * zeta) * zeta) * zeta) * zeta
    })
}

/// NPB's `setbv`: the exact solution on the six faces.
fn setbv(u: &mut [f64], g: &Grid) {
    let (nx, ny, nz) = (g.nx, g.ny, g.nz);
    for j in 0..ny {
        for i in 0..nx {
            let (t1, t2) = (exact(g, i, j, 0), exact(g, i, j, nz - 1));
            for m in 0..5 {
                u[g.at(m, 0, j, i)] = t1[m];
                u[g.at(m, nz - 1, j, i)] = t2[m];
            }
        }
    }
    for k in 0..nz {
        for i in 0..nx {
            let (t1, t2) = (exact(g, i, 0, k), exact(g, i, ny - 1, k));
            for m in 0..5 {
                u[g.at(m, k, 0, i)] = t1[m];
                u[g.at(m, k, ny - 1, i)] = t2[m];
            }
        }
    }
    for k in 0..nz {
        for j in 0..ny {
            let (t1, t2) = (exact(g, 0, j, k), exact(g, nx - 1, j, k));
            for m in 0..5 {
                u[g.at(m, k, j, 0)] = t1[m];
                u[g.at(m, k, j, nx - 1)] = t2[m];
            }
        }
    }
}

/// NPB's `setiv`: the interior by transfinite interpolation of the faces.
fn setiv(u: &mut [f64], g: &Grid) {
    let (nx, ny, nz) = (g.nx, g.ny, g.nz);
    for k in 1..nz - 1 {
        let zeta = k as f64 / (nz - 1) as f64;
        for j in 1..ny - 1 {
            let eta = j as f64 / (ny - 1) as f64;
            for i in 1..nx - 1 {
                let xi = i as f64 / (nx - 1) as f64;
                let ue_1jk = exact(g, 0, j, k);
                let ue_nx0jk = exact(g, nx - 1, j, k);
                let ue_i1k = exact(g, i, 0, k);
                let ue_iny0k = exact(g, i, ny - 1, k);
                let ue_ij1 = exact(g, i, j, 0);
                let ue_ijnz = exact(g, i, j, nz - 1);
                for m in 0..5 {
                    let pxi = (1.0 - xi) * ue_1jk[m] + xi * ue_nx0jk[m];
                    let peta = (1.0 - eta) * ue_i1k[m] + eta * ue_iny0k[m];
                    let pzeta = (1.0 - zeta) * ue_ij1[m] + zeta * ue_ijnz[m];
                    u[g.at(m, k, j, i)] = pxi + peta + pzeta - pxi * peta - peta * pzeta - pzeta * pxi + pxi * peta * pzeta;
                }
            }
        }
    }
}

/// NPB's `error`: the RMS norms of `u` minus the exact solution over the interior.
fn error(u: &[f64], g: &Grid) -> [f64; 5] {
    let mut errnm = [0.0; 5];
    for k in 1..g.nz - 1 {
        for j in g.jst..=g.jend {
            for i in g.ist..=g.iend {
                let e = exact(g, i, j, k);
                for m in 0..5 {
                    let tmp = e[m] - u[g.at(m, k, j, i)];
                    errnm[m] += tmp * tmp;
                }
            }
        }
    }
    let n = ((g.nx - 2) * (g.ny - 2) * (g.nz - 2)) as f64;
    errnm.map(|e| (e / n).sqrt())
}

/// NPB's `pintgr`: the surface integral of the pressure over three faces of the inner box.
fn pintgr(u: &[f64], g: &Grid, cs: &Consts) -> f64 {
    let (ibeg, ifin, jbeg, jfin, ki1, ki2) = (1, g.nx - 1, 1, g.ny - 2, 2, g.nz - 1);
    let (ifin1, jfin1) = (ifin - 1, jfin - 1);
    let w = g.n + 2;
    let pressure = |k: usize, j: usize, i: usize| {
        C2 * (u[g.at(4, k, j, i)]
            - 0.50 * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)] + u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)] + u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)])
                / u[g.at(0, k, j, i)])
    };
    let sum = |phi1: &[f64], phi2: &[f64], a0: usize, a1: usize, b0: usize, b1: usize| {
        let mut s = 0.0;
        for a in a0..a1 {
            for b in b0..b1 {
                s += phi1[a * w + b]
                    + phi1[a * w + b + 1]
                    + phi1[(a + 1) * w + b]
                    + phi1[(a + 1) * w + b + 1]
                    + phi2[a * w + b]
                    + phi2[a * w + b + 1]
                    + phi2[(a + 1) * w + b]
                    + phi2[(a + 1) * w + b + 1];
            }
        }
        s
    };
    let mut phi1 = vec![0.0; w * w];
    let mut phi2 = vec![0.0; w * w];
    for j in jbeg..jfin {
        for i in ibeg..ifin {
            phi1[j * w + i] = pressure(ki1, j, i);
            phi2[j * w + i] = pressure(ki2 - 1, j, i);
        }
    }
    let frc1 = cs.dxi * cs.deta * sum(&phi1, &phi2, jbeg, jfin1, ibeg, ifin1);
    phi1.fill(0.0);
    phi2.fill(0.0);
    for k in ki1..ki2 {
        for i in ibeg..ifin {
            phi1[k * w + i] = pressure(k, jbeg, i);
            phi2[k * w + i] = pressure(k, jfin - 1, i);
        }
    }
    let frc2 = cs.dxi * cs.dzeta * sum(&phi1, &phi2, ki1, ki2 - 1, ibeg, ifin1);
    phi1.fill(0.0);
    phi2.fill(0.0);
    for k in ki1..ki2 {
        for j in jbeg..jfin {
            phi1[k * w + j] = pressure(k, j, ibeg);
            phi2[k * w + j] = pressure(k, j, ifin - 1);
        }
    }
    let frc3 = cs.deta * cs.dzeta * sum(&phi1, &phi2, ki1, ki2 - 1, jbeg, jfin1);
    0.25 * (frc1 + frc2 + frc3)
}

pub fn run(class: Class) -> Report {
    let pr = params(class);
    let g = Grid::new(pr.n);
    let cs = Consts::new(&g, pr.dt);
    println!("\n\n NAS Parallel Benchmarks (NPB3.3, acc) - LU Benchmark\n");
    println!(" Size: {:4}x{:4}x{:4}", g.nx, g.ny, g.nz);
    println!(" Iterations: {:4}", pr.itmax);
    println!();

    let mut u = vec![0.0; g.len4(5)];
    let mut rsd = vec![0.0; g.len4(5)];
    let mut frct = vec![0.0; g.len4(5)];
    let mut qs = vec![0.0; g.len4(1)];
    let mut rho_i = vec![0.0; g.len4(1)];
    let n3 = g.n * g.n * g.n;
    let mut flux = vec![0.0; 5 * n3];
    let mut utmp = vec![0.0; 6 * n3];
    let mut rtmp = vec![0.0; 5 * n3];
    let mut a = vec![0.0; 25 * g.np];
    let mut b = vec![0.0; 25 * g.np];
    let mut c = vec![0.0; 25 * g.np];
    let mut d = vec![0.0; 25 * g.np];
    let mut tv = vec![0.0; 5 * g.np];
    let mut indxp = vec![0usize; 3 * g.n * g.np];
    let mut jndxp = vec![0usize; 3 * g.n * g.np];
    let mut np = vec![0usize; 3 * g.n];
    calcnp(g, g.ist + g.jst + 1, g.iend + g.jend + g.nz - 2, &mut indxp, &mut jndxp, &mut np);
    let (rsdnm, errnm, frc, time) = acc::data!(copyin(indxp, jndxp), create(a, b, c, d, flux, rho_i, frct, qs, rsd, u, tv, utmp, rtmp) {
        setbv(&mut u, &g);
        setiv(&mut u, &g);
        acc::update!(device(u));
        let mut f = Fields {
            u: &mut u,
            rsd: &mut rsd,
            frct: &mut frct,
            qs: &mut qs,
            rho_i: &mut rho_i,
            flux: &mut flux,
            utmp: &mut utmp,
            rtmp: &mut rtmp,
            a: &mut a,
            b: &mut b,
            c: &mut c,
            d: &mut d,
            tv: &mut tv,
            indxp: &indxp,
            jndxp: &jndxp,
        };
        erhs(&mut f, g, cs);
        // One iteration untimed, to touch all code and data.
        ssor(&mut f, g, cs, &np, 1, pr.itmax);
        setbv(f.u, &g);
        setiv(f.u, &g);
        acc::update!(device(f.u));
        let (rsdnm, time) = ssor(&mut f, g, cs, &np, pr.itmax, pr.itmax);
        acc::update!(host(f.u));
        (rsdnm, error(f.u, &g), pintgr(f.u, &g, &cs), time)
    });
    let verified = verify(&pr, &rsdnm, &errnm, frc);
    let n0 = g.nx as f64;
    let nm = (3.0 * n0) / 3.0;
    let flops = pr.itmax as f64 * (1984.77 * n0 * n0 * n0 - 10923.3 * nm * nm + 27770.9 * nm - 144010.0);
    Report {
        name: "LU",
        class,
        size: Size::Grid(g.nx as u32, g.ny as u32, g.nz as u32),
        iterations: pr.itmax,
        time,
        mops: if time != 0.0 { flops / time / 1.0e6 } else { 0.0 },
        optype: "          floating point",
        verified,
    }
}

/// NPB's `verify`: the residual and error norms and the surface integral against the class's
/// reference values, each to a relative `EPSILON`.
fn verify(pr: &Params, xcr: &[f64; 5], xce: &[f64; 5], xci: f64) -> bool {
    let mut verified = true;
    println!(" Verification being performed for class {}", class_name(pr.n));
    println!(" Accuracy setting for epsilon = {:>20}", sci(EPSILON, 13));
    println!(" Comparison of RMS-norms of residual");
    for m in 0..5 {
        let dif = ((xcr[m] - pr.xcr[m]) / pr.xcr[m]).abs();
        let ok = dif <= EPSILON;
        verified &= ok;
        println!(
            "{} {:2} {:>20} {:>20} {:>20}",
            if ok { "        " } else { " FAILURE:" },
            m + 1,
            sci(xcr[m], 13),
            sci(pr.xcr[m], 13),
            sci(dif, 13)
        );
    }
    println!(" Comparison of RMS-norms of solution error");
    for m in 0..5 {
        let dif = ((xce[m] - pr.xce[m]) / pr.xce[m]).abs();
        let ok = dif <= EPSILON;
        verified &= ok;
        println!(
            "{} {:2} {:>20} {:>20} {:>20}",
            if ok { "        " } else { " FAILURE:" },
            m + 1,
            sci(xce[m], 13),
            sci(pr.xce[m], 13),
            sci(dif, 13)
        );
    }
    println!(" Comparison of surface integral");
    let dif = ((xci - pr.xci) / pr.xci).abs();
    let ok = dif <= EPSILON;
    verified &= ok;
    println!(
        "{}    {:>20} {:>20} {:>20}",
        if ok { "        " } else { " FAILURE:" },
        sci(xci, 13),
        sci(pr.xci, 13),
        sci(dif, 13)
    );
    println!(" Verification {}", if verified { "Successful" } else { "failed" });
    verified
}

fn class_name(n: usize) -> &'static str {
    match n {
        12 => "S",
        33 => "W",
        64 => "A",
        102 => "B",
        162 => "C",
        _ => "D",
    }
}
