//! What SP and BT share, as NPB writes it for both: the grid and the arrays' layouts,
//! `set_constants`, the exact solution, the initial field, the forcing, the norms and the
//! verification.

use crate::report::sci;

const EPSILON: f64 = 1.0e-08;

/// The grid (NPB's `grid_points` and the bounds SP's and BT's solves use) and the arrays' layouts:
/// the 5-component arrays `[5][n][ld][ld]` (NPB pads the two inner sides of even sizes by
/// one), the scalar ones `[n][ld][ld]`. The solves' factors take the same shapes with their
/// own index orders.
#[repr(C)]
#[derive(Clone, Copy, acc::DeviceCopy)]
pub struct Grid {
    pub n: usize,
    pub ld: usize,
    pub gp0: usize,
    pub gp1: usize,
    pub gp2: usize,
    pub nx2: usize,
    pub ny2: usize,
    pub nz2: usize,
    pub gp01: usize,
    pub gp02: usize,
    pub gp03: usize,
    pub gp04: usize,
    pub gp11: usize,
    pub gp12: usize,
    pub gp21: usize,
    pub gp22: usize,
    pub gp23: usize,
    pub gp24: usize,
    pub i_size: usize,
    pub j_size: usize,
    pub k_size: usize,
}

impl Grid {
    pub fn new(n: usize) -> Grid {
        Grid {
            n,
            ld: n / 2 * 2 + 1,
            gp0: n,
            gp1: n,
            gp2: n,
            nx2: n - 2,
            ny2: n - 2,
            nz2: n - 2,
            gp01: n - 1,
            gp02: n - 2,
            gp03: n - 3,
            gp04: n - 4,
            gp11: n - 1,
            gp12: n - 2,
            gp21: n - 1,
            gp22: n - 2,
            gp23: n - 3,
            gp24: n - 4,
            i_size: n - 1,
            j_size: n - 1,
            k_size: n - 1,
        }
    }

    /// `u[m][k][j][i]` (and `rhs`, `forcing`, the factors).
    #[inline]
    pub fn at(&self, m: usize, k: usize, j: usize, i: usize) -> usize {
        ((m * self.n + k) * self.ld + j) * self.ld + i
    }

    /// `us[k][j][i]` (and the other scalar fields).
    #[inline]
    pub fn at3(&self, k: usize, j: usize, i: usize) -> usize {
        (k * self.ld + j) * self.ld + i
    }

    /// BT's Jacobians `fjac[m][n][a][b][c]`, `njac[..]`: `[5][5][n + 1][ld][ld]`.
    #[inline]
    pub fn jac(&self, m: usize, n: usize, a: usize, b: usize, c: usize) -> usize {
        (((m * 5 + n) * (self.n + 1) + a) * self.ld + b) * self.ld + c
    }

    /// BT's block tri-diagonal systems `lhs[m][n][abc][a][b][c]`: `[5][5][3][n][ld][ld]`.
    #[inline]
    pub fn lhs(&self, m: usize, n: usize, abc: usize, a: usize, b: usize, c: usize) -> usize {
        ((((m * 5 + n) * 3 + abc) * self.n + a) * self.ld + b) * self.ld + c
    }

    /// The length of an array of `m` components of the grid's shape.
    pub fn len(&self, m: usize) -> usize {
        m * self.n * self.ld * self.ld
    }

    /// BT's Jacobians' length.
    pub fn jac_len(&self) -> usize {
        25 * (self.n + 1) * self.ld * self.ld
    }

    /// BT's systems' length.
    pub fn lhs_len(&self) -> usize {
        75 * self.n * self.ld * self.ld
    }
}

/// The coefficients of the exact solution, `ce[m][0..13]` at `ce_at(m, ..)`.
pub const CE: [f64; 65] = [
    2.0, 0.0, 0.0, 4.0, 5.0, 3.0, 0.5, 0.02, 0.01, 0.03, 0.5, 0.4, 0.3, //
    1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.01, 0.03, 0.02, 0.4, 0.3, 0.5, //
    2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.04, 0.03, 0.05, 0.3, 0.5, 0.4, //
    2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.03, 0.05, 0.04, 0.2, 0.1, 0.3, //
    5.0, 4.0, 3.0, 2.0, 0.1, 0.4, 0.3, 0.05, 0.04, 0.03, 0.1, 0.3, 0.2,
];

pub const fn ce_at(m: usize, p: usize) -> usize {
    m * 13 + p
}

/// NPB's `set_constants`: the difference, dissipation and time-step coefficients.
#[repr(C)]
#[derive(Clone, Copy, acc::DeviceCopy)]
pub struct Consts {
    pub c1: f64,
    pub c2: f64,
    pub c3: f64,
    pub c4: f64,
    pub c5: f64,
    pub bt: f64,
    pub dnxm1: f64,
    pub dnym1: f64,
    pub dnzm1: f64,
    pub c1c2: f64,
    pub c1c5: f64,
    pub c3c4: f64,
    pub c1345: f64,
    pub conz1: f64,
    pub tx1: f64,
    pub tx2: f64,
    pub tx3: f64,
    pub ty1: f64,
    pub ty2: f64,
    pub ty3: f64,
    pub tz1: f64,
    pub tz2: f64,
    pub tz3: f64,
    pub dx1: f64,
    pub dx2: f64,
    pub dx3: f64,
    pub dx4: f64,
    pub dx5: f64,
    pub dy1: f64,
    pub dy2: f64,
    pub dy3: f64,
    pub dy4: f64,
    pub dy5: f64,
    pub dz1: f64,
    pub dz2: f64,
    pub dz3: f64,
    pub dz4: f64,
    pub dz5: f64,
    pub dxmax: f64,
    pub dymax: f64,
    pub dzmax: f64,
    pub dssp: f64,
    pub c4dssp: f64,
    pub c5dssp: f64,
    pub dttx1: f64,
    pub dttx2: f64,
    pub dtty1: f64,
    pub dtty2: f64,
    pub dttz1: f64,
    pub dttz2: f64,
    pub c2dttx1: f64,
    pub c2dtty1: f64,
    pub c2dttz1: f64,
    pub dtdssp: f64,
    pub comz1: f64,
    pub comz4: f64,
    pub comz5: f64,
    pub comz6: f64,
    pub c3c4tx3: f64,
    pub c3c4ty3: f64,
    pub c3c4tz3: f64,
    pub dx1tx1: f64,
    pub dx2tx1: f64,
    pub dx3tx1: f64,
    pub dx4tx1: f64,
    pub dx5tx1: f64,
    pub dy1ty1: f64,
    pub dy2ty1: f64,
    pub dy3ty1: f64,
    pub dy4ty1: f64,
    pub dy5ty1: f64,
    pub dz1tz1: f64,
    pub dz2tz1: f64,
    pub dz3tz1: f64,
    pub dz4tz1: f64,
    pub dz5tz1: f64,
    pub c2iv: f64,
    pub con43: f64,
    pub con16: f64,
    pub xxcon1: f64,
    pub xxcon2: f64,
    pub xxcon3: f64,
    pub xxcon4: f64,
    pub xxcon5: f64,
    pub yycon1: f64,
    pub yycon2: f64,
    pub yycon3: f64,
    pub yycon4: f64,
    pub yycon5: f64,
    pub zzcon1: f64,
    pub zzcon2: f64,
    pub zzcon3: f64,
    pub zzcon4: f64,
    pub zzcon5: f64,
    pub dt: f64,
}

impl Consts {
    pub fn new(g: &Grid, dt: f64) -> Consts {
        let c1 = 1.4;
        let c2 = 0.4;
        let c3 = 0.1;
        let c4 = 1.0;
        let c5 = 1.4;
        let bt = 0.5f64.sqrt();
        let dnxm1 = 1.0 / (g.gp0 - 1) as f64;
        let dnym1 = 1.0 / (g.gp1 - 1) as f64;
        let dnzm1 = 1.0 / (g.gp2 - 1) as f64;
        let c1c2 = c1 * c2;
        let c1c5 = c1 * c5;
        let c3c4 = c3 * c4;
        let c1345 = c1c5 * c3c4;
        let conz1 = 1.0 - c1c5;
        let tx1 = 1.0 / (dnxm1 * dnxm1);
        let tx2 = 1.0 / (2.0 * dnxm1);
        let tx3 = 1.0 / dnxm1;
        let ty1 = 1.0 / (dnym1 * dnym1);
        let ty2 = 1.0 / (2.0 * dnym1);
        let ty3 = 1.0 / dnym1;
        let tz1 = 1.0 / (dnzm1 * dnzm1);
        let tz2 = 1.0 / (2.0 * dnzm1);
        let tz3 = 1.0 / dnzm1;
        let dx1 = 0.75;
        let dx2 = 0.75;
        let dx3 = 0.75;
        let dx4 = 0.75;
        let dx5 = 0.75;
        let dy1 = 0.75;
        let dy2 = 0.75;
        let dy3 = 0.75;
        let dy4 = 0.75;
        let dy5 = 0.75;
        let dz1 = 1.0;
        let dz2 = 1.0;
        let dz3 = 1.0;
        let dz4 = 1.0;
        let dz5 = 1.0;
        let dxmax = f64::max(dx3, dx4);
        let dymax = f64::max(dy2, dy4);
        let dzmax = f64::max(dz2, dz3);
        let dssp = 0.25 * f64::max(dx1, f64::max(dy1, dz1));
        let c4dssp = 4.0 * dssp;
        let c5dssp = 5.0 * dssp;
        let dttx1 = dt * tx1;
        let dttx2 = dt * tx2;
        let dtty1 = dt * ty1;
        let dtty2 = dt * ty2;
        let dttz1 = dt * tz1;
        let dttz2 = dt * tz2;
        let c2dttx1 = 2.0 * dttx1;
        let c2dtty1 = 2.0 * dtty1;
        let c2dttz1 = 2.0 * dttz1;
        let dtdssp = dt * dssp;
        let comz1 = dtdssp;
        let comz4 = 4.0 * dtdssp;
        let comz5 = 5.0 * dtdssp;
        let comz6 = 6.0 * dtdssp;
        let c3c4tx3 = c3c4 * tx3;
        let c3c4ty3 = c3c4 * ty3;
        let c3c4tz3 = c3c4 * tz3;
        let dx1tx1 = dx1 * tx1;
        let dx2tx1 = dx2 * tx1;
        let dx3tx1 = dx3 * tx1;
        let dx4tx1 = dx4 * tx1;
        let dx5tx1 = dx5 * tx1;
        let dy1ty1 = dy1 * ty1;
        let dy2ty1 = dy2 * ty1;
        let dy3ty1 = dy3 * ty1;
        let dy4ty1 = dy4 * ty1;
        let dy5ty1 = dy5 * ty1;
        let dz1tz1 = dz1 * tz1;
        let dz2tz1 = dz2 * tz1;
        let dz3tz1 = dz3 * tz1;
        let dz4tz1 = dz4 * tz1;
        let dz5tz1 = dz5 * tz1;
        let c2iv = 2.5;
        let con43 = 4.0 / 3.0;
        let con16 = 1.0 / 6.0;
        let xxcon1 = c3c4tx3 * con43 * tx3;
        let xxcon2 = c3c4tx3 * tx3;
        let xxcon3 = c3c4tx3 * conz1 * tx3;
        let xxcon4 = c3c4tx3 * con16 * tx3;
        let xxcon5 = c3c4tx3 * c1c5 * tx3;
        let yycon1 = c3c4ty3 * con43 * ty3;
        let yycon2 = c3c4ty3 * ty3;
        let yycon3 = c3c4ty3 * conz1 * ty3;
        let yycon4 = c3c4ty3 * con16 * ty3;
        let yycon5 = c3c4ty3 * c1c5 * ty3;
        let zzcon1 = c3c4tz3 * con43 * tz3;
        let zzcon2 = c3c4tz3 * tz3;
        let zzcon3 = c3c4tz3 * conz1 * tz3;
        let zzcon4 = c3c4tz3 * con16 * tz3;
        let zzcon5 = c3c4tz3 * c1c5 * tz3;
        Consts {
            c1,
            c2,
            c3,
            c4,
            c5,
            bt,
            dnxm1,
            dnym1,
            dnzm1,
            c1c2,
            c1c5,
            c3c4,
            c1345,
            conz1,
            tx1,
            tx2,
            tx3,
            ty1,
            ty2,
            ty3,
            tz1,
            tz2,
            tz3,
            dx1,
            dx2,
            dx3,
            dx4,
            dx5,
            dy1,
            dy2,
            dy3,
            dy4,
            dy5,
            dz1,
            dz2,
            dz3,
            dz4,
            dz5,
            dxmax,
            dymax,
            dzmax,
            dssp,
            c4dssp,
            c5dssp,
            dttx1,
            dttx2,
            dtty1,
            dtty2,
            dttz1,
            dttz2,
            c2dttx1,
            c2dtty1,
            c2dttz1,
            dtdssp,
            comz1,
            comz4,
            comz5,
            comz6,
            c3c4tx3,
            c3c4ty3,
            c3c4tz3,
            dx1tx1,
            dx2tx1,
            dx3tx1,
            dx4tx1,
            dx5tx1,
            dy1ty1,
            dy2ty1,
            dy3ty1,
            dy4ty1,
            dy5ty1,
            dz1tz1,
            dz2tz1,
            dz3tz1,
            dz4tz1,
            dz5tz1,
            c2iv,
            con43,
            con16,
            xxcon1,
            xxcon2,
            xxcon3,
            xxcon4,
            xxcon5,
            yycon1,
            yycon2,
            yycon3,
            yycon4,
            yycon5,
            zzcon1,
            zzcon2,
            zzcon3,
            zzcon4,
            zzcon5,
            dt,
        }
    }
}

/// NPB's `exact_solution`: the manufactured solution at `(xi, eta, zeta)`.
pub fn exact_solution(xi: f64, eta: f64, zeta: f64) -> [f64; 5] {
    let ce = |m: usize, p: usize| CE[ce_at(m, p)];
    std::array::from_fn(|m| {
        ce(m, 0)
            + xi * (ce(m, 1) + xi * (ce(m, 4) + xi * (ce(m, 7) + xi * ce(m, 10))))
            + eta * (ce(m, 2) + eta * (ce(m, 5) + eta * (ce(m, 8) + eta * ce(m, 11))))
            + zeta * (ce(m, 3) + zeta * (ce(m, 6) + zeta * (ce(m, 9) + zeta * ce(m, 12))))
    })
}

/// NPB's `initialize`: `u` by transfinite interpolation of the exact solution on the faces,
/// then the exact solution on the faces themselves.
pub fn initialize(u: &mut [f64], g: &Grid, cs: &Consts) {
    let (nx, ny, nz) = (g.gp0, g.gp1, g.gp2);
    for k in 0..nz {
        for j in 0..ny {
            for i in 0..nx {
                for (m, v) in [1.0, 0.0, 0.0, 0.0, 1.0].into_iter().enumerate() {
                    u[g.at(m, k, j, i)] = v;
                }
            }
        }
    }
    for k in 0..nz {
        let zeta = k as f64 * cs.dnzm1;
        for j in 0..ny {
            let eta = j as f64 * cs.dnym1;
            for i in 0..nx {
                let xi = i as f64 * cs.dnxm1;
                let px = [exact_solution(0.0, eta, zeta), exact_solution(1.0, eta, zeta)];
                let py = [exact_solution(xi, 0.0, zeta), exact_solution(xi, 1.0, zeta)];
                let pz = [exact_solution(xi, eta, 0.0), exact_solution(xi, eta, 1.0)];
                for m in 0..5 {
                    let pxi = xi * px[1][m] + (1.0 - xi) * px[0][m];
                    let peta = eta * py[1][m] + (1.0 - eta) * py[0][m];
                    let pzeta = zeta * pz[1][m] + (1.0 - zeta) * pz[0][m];
                    u[g.at(m, k, j, i)] = pxi + peta + pzeta - pxi * peta - pxi * pzeta - peta * pzeta + pxi * peta * pzeta;
                }
            }
        }
    }
    let mut set = |k: usize, j: usize, i: usize| {
        let t = exact_solution(i as f64 * cs.dnxm1, j as f64 * cs.dnym1, k as f64 * cs.dnzm1);
        for m in 0..5 {
            u[g.at(m, k, j, i)] = t[m];
        }
    };
    for k in 0..nz {
        for j in 0..ny {
            set(k, j, 0);
            set(k, j, nx - 1);
        }
    }
    for k in 0..nz {
        for i in 0..nx {
            set(k, 0, i);
            set(k, ny - 1, i);
        }
    }
    for j in 0..ny {
        for i in 0..nx {
            set(0, j, i);
            set(nz - 1, j, i);
        }
    }
}

/// NPB's `exact_rhs`: the forcing that makes the exact solution steady, line by line along
/// each axis.
pub fn exact_rhs(forcing: &mut [f64], g: &Grid, cs: &Consts) {
    let mut ue = vec![[0.0f64; 5]; g.n];
    let mut buf = vec![[0.0f64; 5]; g.n];
    let mut cuf = vec![0.0f64; g.n];
    let mut q = vec![0.0f64; g.n];
    for k in 0..=g.gp2 - 1 {
        for j in 0..=g.gp1 - 1 {
            for i in 0..=g.gp0 - 1 {
                for m in 0..5 {
                    forcing[g.at(m, k, j, i)] = 0.0;
                }
            }
        }
    }
    for k in 1..=g.gp2 - 2 {
        let zeta = k as f64 * cs.dnzm1;
        for j in 1..=g.gp1 - 2 {
            let eta = j as f64 * cs.dnym1;
            for i in 0..=g.gp0 - 1 {
                let xi = i as f64 * cs.dnxm1;
                let dtemp = exact_solution(xi, eta, zeta);
                ue[i] = dtemp;
                let dtpp = 1.0 / dtemp[0];
                for m in 1..5 {
                    buf[i][m] = dtpp * dtemp[m];
                }
                cuf[i] = buf[i][1] * buf[i][1];
                buf[i][0] = cuf[i] + buf[i][2] * buf[i][2] + buf[i][3] * buf[i][3];
                q[i] = 0.5 * (buf[i][1] * ue[i][1] + buf[i][2] * ue[i][2] + buf[i][3] * ue[i][3]);
            }
            for i in 1..=g.gp0 - 2 {
                let im1 = i - 1;
                let ip1 = i + 1;
                forcing[g.at(0, k, j, i)] =
                    forcing[g.at(0, k, j, i)] - cs.tx2 * (ue[ip1][1] - ue[im1][1]) + cs.dx1tx1 * (ue[ip1][0] - 2.0 * ue[i][0] + ue[im1][0]);
                forcing[g.at(1, k, j, i)] = forcing[g.at(1, k, j, i)]
                    - cs.tx2 * ((ue[ip1][1] * buf[ip1][1] + cs.c2 * (ue[ip1][4] - q[ip1])) - (ue[im1][1] * buf[im1][1] + cs.c2 * (ue[im1][4] - q[im1])))
                    + cs.xxcon1 * (buf[ip1][1] - 2.0 * buf[i][1] + buf[im1][1])
                    + cs.dx2tx1 * (ue[ip1][1] - 2.0 * ue[i][1] + ue[im1][1]);
                forcing[g.at(2, k, j, i)] = forcing[g.at(2, k, j, i)] - cs.tx2 * (ue[ip1][2] * buf[ip1][1] - ue[im1][2] * buf[im1][1])
                    + cs.xxcon2 * (buf[ip1][2] - 2.0 * buf[i][2] + buf[im1][2])
                    + cs.dx3tx1 * (ue[ip1][2] - 2.0 * ue[i][2] + ue[im1][2]);
                forcing[g.at(3, k, j, i)] = forcing[g.at(3, k, j, i)] - cs.tx2 * (ue[ip1][3] * buf[ip1][1] - ue[im1][3] * buf[im1][1])
                    + cs.xxcon2 * (buf[ip1][3] - 2.0 * buf[i][3] + buf[im1][3])
                    + cs.dx4tx1 * (ue[ip1][3] - 2.0 * ue[i][3] + ue[im1][3]);
                forcing[g.at(4, k, j, i)] = forcing[g.at(4, k, j, i)]
                    - cs.tx2 * (buf[ip1][1] * (cs.c1 * ue[ip1][4] - cs.c2 * q[ip1]) - buf[im1][1] * (cs.c1 * ue[im1][4] - cs.c2 * q[im1]))
                    + 0.5 * cs.xxcon3 * (buf[ip1][0] - 2.0 * buf[i][0] + buf[im1][0])
                    + cs.xxcon4 * (cuf[ip1] - 2.0 * cuf[i] + cuf[im1])
                    + cs.xxcon5 * (buf[ip1][4] - 2.0 * buf[i][4] + buf[im1][4])
                    + cs.dx5tx1 * (ue[ip1][4] - 2.0 * ue[i][4] + ue[im1][4]);
            }
            for m in 0..5 {
                let i = 1;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (5.0 * ue[i][m] - 4.0 * ue[i + 1][m] + ue[i + 2][m]);
                let i = 2;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (-4.0 * ue[i - 1][m] + 6.0 * ue[i][m] - 4.0 * ue[i + 1][m] + ue[i + 2][m]);
            }
            for i in 3..=g.gp0 - 4 {
                for m in 0..5 {
                    forcing[g.at(m, k, j, i)] =
                        forcing[g.at(m, k, j, i)] - cs.dssp * (ue[i - 2][m] - 4.0 * ue[i - 1][m] + 6.0 * ue[i][m] - 4.0 * ue[i + 1][m] + ue[i + 2][m]);
                }
            }
            for m in 0..5 {
                let i = g.gp0 - 3;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (ue[i - 2][m] - 4.0 * ue[i - 1][m] + 6.0 * ue[i][m] - 4.0 * ue[i + 1][m]);
                let i = g.gp0 - 2;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (ue[i - 2][m] - 4.0 * ue[i - 1][m] + 5.0 * ue[i][m]);
            }
        }
    }
    for k in 1..=g.gp2 - 2 {
        let zeta = k as f64 * cs.dnzm1;
        for i in 1..=g.gp0 - 2 {
            let xi = i as f64 * cs.dnxm1;
            for j in 0..=g.gp1 - 1 {
                let eta = j as f64 * cs.dnym1;
                let dtemp = exact_solution(xi, eta, zeta);
                ue[j] = dtemp;
                let dtpp = 1.0 / dtemp[0];
                for m in 1..5 {
                    buf[j][m] = dtpp * dtemp[m];
                }
                cuf[j] = buf[j][2] * buf[j][2];
                buf[j][0] = cuf[j] + buf[j][1] * buf[j][1] + buf[j][3] * buf[j][3];
                q[j] = 0.5 * (buf[j][1] * ue[j][1] + buf[j][2] * ue[j][2] + buf[j][3] * ue[j][3]);
            }
            for j in 1..=g.gp1 - 2 {
                let jm1 = j - 1;
                let jp1 = j + 1;
                forcing[g.at(0, k, j, i)] =
                    forcing[g.at(0, k, j, i)] - cs.ty2 * (ue[jp1][2] - ue[jm1][2]) + cs.dy1ty1 * (ue[jp1][0] - 2.0 * ue[j][0] + ue[jm1][0]);
                forcing[g.at(1, k, j, i)] = forcing[g.at(1, k, j, i)] - cs.ty2 * (ue[jp1][1] * buf[jp1][2] - ue[jm1][1] * buf[jm1][2])
                    + cs.yycon2 * (buf[jp1][1] - 2.0 * buf[j][1] + buf[jm1][1])
                    + cs.dy2ty1 * (ue[jp1][1] - 2.0 * ue[j][1] + ue[jm1][1]);
                forcing[g.at(2, k, j, i)] = forcing[g.at(2, k, j, i)]
                    - cs.ty2 * ((ue[jp1][2] * buf[jp1][2] + cs.c2 * (ue[jp1][4] - q[jp1])) - (ue[jm1][2] * buf[jm1][2] + cs.c2 * (ue[jm1][4] - q[jm1])))
                    + cs.yycon1 * (buf[jp1][2] - 2.0 * buf[j][2] + buf[jm1][2])
                    + cs.dy3ty1 * (ue[jp1][2] - 2.0 * ue[j][2] + ue[jm1][2]);
                forcing[g.at(3, k, j, i)] = forcing[g.at(3, k, j, i)] - cs.ty2 * (ue[jp1][3] * buf[jp1][2] - ue[jm1][3] * buf[jm1][2])
                    + cs.yycon2 * (buf[jp1][3] - 2.0 * buf[j][3] + buf[jm1][3])
                    + cs.dy4ty1 * (ue[jp1][3] - 2.0 * ue[j][3] + ue[jm1][3]);
                forcing[g.at(4, k, j, i)] = forcing[g.at(4, k, j, i)]
                    - cs.ty2 * (buf[jp1][2] * (cs.c1 * ue[jp1][4] - cs.c2 * q[jp1]) - buf[jm1][2] * (cs.c1 * ue[jm1][4] - cs.c2 * q[jm1]))
                    + 0.5 * cs.yycon3 * (buf[jp1][0] - 2.0 * buf[j][0] + buf[jm1][0])
                    + cs.yycon4 * (cuf[jp1] - 2.0 * cuf[j] + cuf[jm1])
                    + cs.yycon5 * (buf[jp1][4] - 2.0 * buf[j][4] + buf[jm1][4])
                    + cs.dy5ty1 * (ue[jp1][4] - 2.0 * ue[j][4] + ue[jm1][4]);
            }
            for m in 0..5 {
                let j = 1;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (5.0 * ue[j][m] - 4.0 * ue[j + 1][m] + ue[j + 2][m]);
                let j = 2;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (-4.0 * ue[j - 1][m] + 6.0 * ue[j][m] - 4.0 * ue[j + 1][m] + ue[j + 2][m]);
            }
            for j in 3..=g.gp1 - 4 {
                for m in 0..5 {
                    forcing[g.at(m, k, j, i)] =
                        forcing[g.at(m, k, j, i)] - cs.dssp * (ue[j - 2][m] - 4.0 * ue[j - 1][m] + 6.0 * ue[j][m] - 4.0 * ue[j + 1][m] + ue[j + 2][m]);
                }
            }
            for m in 0..5 {
                let j = g.gp1 - 3;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (ue[j - 2][m] - 4.0 * ue[j - 1][m] + 6.0 * ue[j][m] - 4.0 * ue[j + 1][m]);
                let j = g.gp1 - 2;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (ue[j - 2][m] - 4.0 * ue[j - 1][m] + 5.0 * ue[j][m]);
            }
        }
    }
    for j in 1..=g.gp1 - 2 {
        let eta = j as f64 * cs.dnym1;
        for i in 1..=g.gp0 - 2 {
            let xi = i as f64 * cs.dnxm1;
            for k in 0..=g.gp2 - 1 {
                let zeta = k as f64 * cs.dnzm1;
                let dtemp = exact_solution(xi, eta, zeta);
                ue[k] = dtemp;
                let dtpp = 1.0 / dtemp[0];
                for m in 1..5 {
                    buf[k][m] = dtpp * dtemp[m];
                }
                cuf[k] = buf[k][3] * buf[k][3];
                buf[k][0] = cuf[k] + buf[k][1] * buf[k][1] + buf[k][2] * buf[k][2];
                q[k] = 0.5 * (buf[k][1] * ue[k][1] + buf[k][2] * ue[k][2] + buf[k][3] * ue[k][3]);
            }
            for k in 1..=g.gp2 - 2 {
                let km1 = k - 1;
                let kp1 = k + 1;
                forcing[g.at(0, k, j, i)] =
                    forcing[g.at(0, k, j, i)] - cs.tz2 * (ue[kp1][3] - ue[km1][3]) + cs.dz1tz1 * (ue[kp1][0] - 2.0 * ue[k][0] + ue[km1][0]);
                forcing[g.at(1, k, j, i)] = forcing[g.at(1, k, j, i)] - cs.tz2 * (ue[kp1][1] * buf[kp1][3] - ue[km1][1] * buf[km1][3])
                    + cs.zzcon2 * (buf[kp1][1] - 2.0 * buf[k][1] + buf[km1][1])
                    + cs.dz2tz1 * (ue[kp1][1] - 2.0 * ue[k][1] + ue[km1][1]);
                forcing[g.at(2, k, j, i)] = forcing[g.at(2, k, j, i)] - cs.tz2 * (ue[kp1][2] * buf[kp1][3] - ue[km1][2] * buf[km1][3])
                    + cs.zzcon2 * (buf[kp1][2] - 2.0 * buf[k][2] + buf[km1][2])
                    + cs.dz3tz1 * (ue[kp1][2] - 2.0 * ue[k][2] + ue[km1][2]);
                forcing[g.at(3, k, j, i)] = forcing[g.at(3, k, j, i)]
                    - cs.tz2 * ((ue[kp1][3] * buf[kp1][3] + cs.c2 * (ue[kp1][4] - q[kp1])) - (ue[km1][3] * buf[km1][3] + cs.c2 * (ue[km1][4] - q[km1])))
                    + cs.zzcon1 * (buf[kp1][3] - 2.0 * buf[k][3] + buf[km1][3])
                    + cs.dz4tz1 * (ue[kp1][3] - 2.0 * ue[k][3] + ue[km1][3]);
                forcing[g.at(4, k, j, i)] = forcing[g.at(4, k, j, i)]
                    - cs.tz2 * (buf[kp1][3] * (cs.c1 * ue[kp1][4] - cs.c2 * q[kp1]) - buf[km1][3] * (cs.c1 * ue[km1][4] - cs.c2 * q[km1]))
                    + 0.5 * cs.zzcon3 * (buf[kp1][0] - 2.0 * buf[k][0] + buf[km1][0])
                    + cs.zzcon4 * (cuf[kp1] - 2.0 * cuf[k] + cuf[km1])
                    + cs.zzcon5 * (buf[kp1][4] - 2.0 * buf[k][4] + buf[km1][4])
                    + cs.dz5tz1 * (ue[kp1][4] - 2.0 * ue[k][4] + ue[km1][4]);
            }
            for m in 0..5 {
                let k = 1;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (5.0 * ue[k][m] - 4.0 * ue[k + 1][m] + ue[k + 2][m]);
                let k = 2;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (-4.0 * ue[k - 1][m] + 6.0 * ue[k][m] - 4.0 * ue[k + 1][m] + ue[k + 2][m]);
            }
            for k in 3..=g.gp2 - 4 {
                for m in 0..5 {
                    forcing[g.at(m, k, j, i)] =
                        forcing[g.at(m, k, j, i)] - cs.dssp * (ue[k - 2][m] - 4.0 * ue[k - 1][m] + 6.0 * ue[k][m] - 4.0 * ue[k + 1][m] + ue[k + 2][m]);
                }
            }
            for m in 0..5 {
                let k = g.gp2 - 3;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (ue[k - 2][m] - 4.0 * ue[k - 1][m] + 6.0 * ue[k][m] - 4.0 * ue[k + 1][m]);
                let k = g.gp2 - 2;
                forcing[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)] - cs.dssp * (ue[k - 2][m] - 4.0 * ue[k - 1][m] + 5.0 * ue[k][m]);
            }
        }
    }
    for k in 1..=g.gp2 - 2 {
        for j in 1..=g.gp1 - 2 {
            for i in 1..=g.gp0 - 2 {
                for m in 0..5 {
                    forcing[g.at(m, k, j, i)] = -forcing[g.at(m, k, j, i)];
                }
            }
        }
    }
}

/// NPB's `error_norm`: the RMS norms of `u` minus the exact solution.
pub fn error_norm(u: &[f64], g: &Grid, cs: &Consts) -> [f64; 5] {
    let mut rms = [0.0; 5];
    for k in 0..g.gp2 {
        let zeta = k as f64 * cs.dnzm1;
        for j in 0..g.gp1 {
            let eta = j as f64 * cs.dnym1;
            for i in 0..g.gp0 {
                let xi = i as f64 * cs.dnxm1;
                let e = exact_solution(xi, eta, zeta);
                for m in 0..5 {
                    let add = u[g.at(m, k, j, i)] - e[m];
                    rms[m] += add * add;
                }
            }
        }
    }
    rms.map(|r| (r / ((g.gp0 - 2) * (g.gp1 - 2) * (g.gp2 - 2)) as f64).sqrt())
}

/// NPB's `rhs_norm`: the RMS norms of `rhs` over the interior (on the host, as NPB-ACC's).
pub fn rhs_norm(rhs: &[f64], g: &Grid) -> [f64; 5] {
    let mut rms = [0.0; 5];
    for k in 1..=g.nz2 {
        for j in 1..=g.ny2 {
            for i in 1..=g.nx2 {
                for m in 0..5 {
                    let add = rhs[g.at(m, k, j, i)];
                    rms[m] += add * add;
                }
            }
        }
    }
    rms.map(|r| (r / ((g.gp0 - 2) * (g.gp1 - 2) * (g.gp2 - 2)) as f64).sqrt())
}

/// NPB's `verify` of SP and BT: the residual and error norms against the class's reference
/// values `refs`, each to a relative `EPSILON`.
pub fn verify(class: &str, refs: (&[f64; 5], &[f64; 5]), xcr: &[f64; 5], xce: &[f64; 5]) -> bool {
    let (xcrref, xceref) = refs;
    let mut verified = true;
    println!(" Verification being performed for class {}", class);
    println!(" accuracy setting for epsilon = {:>20}", sci(EPSILON, 13));
    println!(" Comparison of RMS-norms of residual");
    for m in 0..5 {
        let dif = ((xcr[m] - xcrref[m]) / xcrref[m]).abs();
        let ok = dif <= EPSILON;
        verified &= ok;
        println!(
            "{} {:2} {:>20} {:>20} {:>20}",
            if ok { "         " } else { " FAILURE:" },
            m + 1,
            sci(xcr[m], 13),
            sci(xcrref[m], 13),
            sci(dif, 13)
        );
    }
    println!(" Comparison of RMS-norms of solution error");
    for m in 0..5 {
        let dif = ((xce[m] - xceref[m]) / xceref[m]).abs();
        let ok = dif <= EPSILON;
        verified &= ok;
        println!(
            "{} {:2} {:>20} {:>20} {:>20}",
            if ok { "         " } else { " FAILURE:" },
            m + 1,
            sci(xce[m], 13),
            sci(xceref[m], 13),
            sci(dif, 13)
        );
    }
    println!(" Verification {}", if verified { "Successful" } else { "failed" });
    verified
}
