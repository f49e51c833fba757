//! SP, the scalar penta-diagonal pseudo-application: the compressible Navier-Stokes
//! equations on a cube by the Beam-Warming approximate factorisation, each time step three
//! sets of scalar penta-diagonal systems (one along each axis) after diagonalising the
//! factors' 5x5 blocks.
//!
//! As NPB-ACC's `SP` writes it: the fields in one data region around the time steps (`u`
//! and the forcing set on the host and sent with `acc::update!`); each step's right-hand
//! side, the diagonalisations (`txinvr`, `ninvr`, `pinvr`, `tzetar`) and the update are
//! regions of `gang` over planes, `worker` over rows, `vector` along a row; each axis's solve
//! is regions with a gang per plane and a thread per line, each thread running the Thomas
//! elimination of its line in order (the xi lines through a transposed copy of `rhs`,
//! `rhsx`, so that neighbouring threads touch neighbouring elements). The factors (`lhs`,
//! `lhsp`, `lhsm`, `rhon`) are device scratch, created once.

use crate::cfd::{error_norm, exact_rhs, initialize, rhs_norm, verify, Consts, Grid};
use crate::class::Class;
use crate::report::{Report, Size};
use crate::timer::Timer;

/// A class's problem: an `n`^3 grid, `niter` time steps of `dt`, and NPB's reference
/// residual (`xcr`) and error (`xce`) norms.
struct Params {
    n: usize,
    niter: u32,
    dt: f64,
    xcr: [f64; 5],
    xce: [f64; 5],
}

#[allow(clippy::excessive_precision)] // NPB's reference values, digit for digit
fn params(class: Class) -> Params {
    let (n, niter, dt, xcr, xce) = match class {
        Class::S => (
            12,
            100,
            1.5e-2,
            [
                2.7470315451339479e-02,
                1.0360746705285417e-02,
                1.6235745065095532e-02,
                1.5840557224455615e-02,
                3.4849040609362460e-02,
            ],
            [
                2.7289258557377227e-05,
                1.0364446640837285e-05,
                1.6154798287166471e-05,
                1.5750704994480102e-05,
                3.4177666183390531e-05,
            ],
        ),
        Class::W => (
            36,
            400,
            1.5e-3,
            [
                0.1893253733584e-02,
                0.1717075447775e-03,
                0.2778153350936e-03,
                0.2887475409984e-03,
                0.3143611161242e-02,
            ],
            [
                0.7542088599534e-04,
                0.6512852253086e-05,
                0.1049092285688e-04,
                0.1128838671535e-04,
                0.1212845639773e-03,
            ],
        ),
        Class::A => (
            64,
            400,
            1.5e-3,
            [
                2.4799822399300195,
                1.1276337964368832,
                1.5028977888770491,
                1.4217816211695179,
                2.1292113035138280,
            ],
            [
                1.0900140297820550e-04,
                3.7343951769282091e-05,
                5.0092785406541633e-05,
                4.7671093939528255e-05,
                1.3621613399213001e-04,
            ],
        ),
        Class::B => (
            102,
            400,
            1.0e-3,
            [
                0.6903293579998e+02,
                0.3095134488084e+02,
                0.4103336647017e+02,
                0.3864769009604e+02,
                0.5643482272596e+02,
            ],
            [
                0.9810006190188e-02,
                0.1022827905670e-02,
                0.1720597911692e-02,
                0.1694479428231e-02,
                0.1847456263981e-01,
            ],
        ),
        Class::C => (
            162,
            400,
            0.67e-3,
            [
                0.5881691581829e+03,
                0.2454417603569e+03,
                0.3293829191851e+03,
                0.3081924971891e+03,
                0.4597223799176e+03,
            ],
            [
                0.2598120500183e+00,
                0.2590888922315e-01,
                0.5132886416320e-01,
                0.4806073419454e-01,
                0.5483377491301e+00,
            ],
        ),
        Class::D => (
            408,
            500,
            0.30e-3,
            [
                0.1044696216887e+05,
                0.3204427762578e+04,
                0.4648680733032e+04,
                0.4238923283697e+04,
                0.7588412036136e+04,
            ],
            [
                0.5089471423669e+01,
                0.5323514855894e+00,
                0.1187051008971e+01,
                0.1083734951938e+01,
                0.1164108338568e+02,
            ],
        ),
    };
    Params { n, niter, dt, xcr, xce }
}

/// The primitive variables from `u` (`rho_i`, `us`, `vs`, `ws`, `square`, `qs`, the speed of sound), and `rhs = forcing`.
#[acc::parallel(num_gangs(g.gp2), num_workers(8), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn rhs_init(
    u: &[f64],
    rhs: &mut [f64],
    forcing: &[f64],
    us: &mut [f64],
    vs: &mut [f64],
    ws: &mut [f64],
    qs: &mut [f64],
    rho_i: &mut [f64],
    speed: &mut [f64],
    square: &mut [f64],
    g: Grid,
    cs: Consts,
) {
    let Grid { gp0, gp1, gp2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 0..=gp2 - 1 {
        #[acc::r#loop(worker)]
        for j in 0..=gp1 - 1 {
            #[acc::r#loop(vector)]
            for i in 0..=gp0 - 1 {
                let rho_inv = 1.0 / u[g.at(0, k, j, i)];
                rho_i[g.at3(k, j, i)] = rho_inv;
                us[g.at3(k, j, i)] = u[g.at(1, k, j, i)] * rho_inv;
                vs[g.at3(k, j, i)] = u[g.at(2, k, j, i)] * rho_inv;
                ws[g.at3(k, j, i)] = u[g.at(3, k, j, i)] * rho_inv;
                square[g.at3(k, j, i)] = 0.5
                    * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)] + u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)] + u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)])
                    * rho_inv;
                qs[g.at3(k, j, i)] = square[g.at3(k, j, i)] * rho_inv;
                let aux = cs.c1c2 * rho_inv * (u[g.at(4, k, j, i)] - square[g.at3(k, j, i)]);
                speed[g.at3(k, j, i)] = aux.sqrt();
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 0..=gp2 - 1 {
        #[acc::r#loop(worker)]
        for j in 0..=gp1 - 1 {
            #[acc::r#loop(vector)]
            for i in 0..=gp0 - 1 {
                for m in 0..5 {
                    rhs[g.at(m, k, j, i)] = forcing[g.at(m, k, j, i)];
                }
            }
        }
    }
}

/// The xi and eta fluxes, their differences and fourth-order dissipation.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn rhs_xy(u: &[f64], rhs: &mut [f64], us: &[f64], vs: &[f64], ws: &[f64], qs: &[f64], rho_i: &[f64], square: &[f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, nz2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                let uijk = us[g.at3(k, j, i)];
                let up1 = us[g.at3(k, j, i + 1)];
                let um1 = us[g.at3(k, j, i - 1)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] + cs.dx1tx1 * (u[g.at(0, k, j, i + 1)] - 2.0 * u[g.at(0, k, j, i)] + u[g.at(0, k, j, i - 1)])
                    - cs.tx2 * (u[g.at(1, k, j, i + 1)] - u[g.at(1, k, j, i - 1)]);
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                    + cs.dx2tx1 * (u[g.at(1, k, j, i + 1)] - 2.0 * u[g.at(1, k, j, i)] + u[g.at(1, k, j, i - 1)])
                    + cs.xxcon2 * cs.con43 * (up1 - 2.0 * uijk + um1)
                    - cs.tx2
                        * (u[g.at(1, k, j, i + 1)] * up1 - u[g.at(1, k, j, i - 1)] * um1
                            + (u[g.at(4, k, j, i + 1)] - square[g.at3(k, j, i + 1)] - u[g.at(4, k, j, i - 1)] + square[g.at3(k, j, i - 1)]) * cs.c2);
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                    + cs.dx3tx1 * (u[g.at(2, k, j, i + 1)] - 2.0 * u[g.at(2, k, j, i)] + u[g.at(2, k, j, i - 1)])
                    + cs.xxcon2 * (vs[g.at3(k, j, i + 1)] - 2.0 * vs[g.at3(k, j, i)] + vs[g.at3(k, j, i - 1)])
                    - cs.tx2 * (u[g.at(2, k, j, i + 1)] * up1 - u[g.at(2, k, j, i - 1)] * um1);
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                    + cs.dx4tx1 * (u[g.at(3, k, j, i + 1)] - 2.0 * u[g.at(3, k, j, i)] + u[g.at(3, k, j, i - 1)])
                    + cs.xxcon2 * (ws[g.at3(k, j, i + 1)] - 2.0 * ws[g.at3(k, j, i)] + ws[g.at3(k, j, i - 1)])
                    - cs.tx2 * (u[g.at(3, k, j, i + 1)] * up1 - u[g.at(3, k, j, i - 1)] * um1);
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                    + cs.dx5tx1 * (u[g.at(4, k, j, i + 1)] - 2.0 * u[g.at(4, k, j, i)] + u[g.at(4, k, j, i - 1)])
                    + cs.xxcon3 * (qs[g.at3(k, j, i + 1)] - 2.0 * qs[g.at3(k, j, i)] + qs[g.at3(k, j, i - 1)])
                    + cs.xxcon4 * (up1 * up1 - 2.0 * uijk * uijk + um1 * um1)
                    + cs.xxcon5
                        * (u[g.at(4, k, j, i + 1)] * rho_i[g.at3(k, j, i + 1)] - 2.0 * u[g.at(4, k, j, i)] * rho_i[g.at3(k, j, i)]
                            + u[g.at(4, k, j, i - 1)] * rho_i[g.at3(k, j, i - 1)])
                    - cs.tx2
                        * ((cs.c1 * u[g.at(4, k, j, i + 1)] - cs.c2 * square[g.at3(k, j, i + 1)]) * up1
                            - (cs.c1 * u[g.at(4, k, j, i - 1)] - cs.c2 * square[g.at3(k, j, i - 1)]) * um1);
            }
        }
    }
    let i = 1;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)] - cs.dssp * (5.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j, i + 1)] + u[g.at(m, k, j, i + 2)]);
            }
        }
    }
    let i = 2;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)]
                    - cs.dssp * (-4.0 * u[g.at(m, k, j, i - 1)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j, i + 1)] + u[g.at(m, k, j, i + 2)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 3..=nx2 - 2 {
                for m in 0..5 {
                    rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)]
                        - cs.dssp
                            * (u[g.at(m, k, j, i - 2)] - 4.0 * u[g.at(m, k, j, i - 1)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j, i + 1)]
                                + u[g.at(m, k, j, i + 2)]);
                }
            }
        }
    }
    let i = nx2 - 1;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)]
                    - cs.dssp * (u[g.at(m, k, j, i - 2)] - 4.0 * u[g.at(m, k, j, i - 1)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j, i + 1)]);
            }
        }
    }
    let i = nx2;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)] - cs.dssp * (u[g.at(m, k, j, i - 2)] - 4.0 * u[g.at(m, k, j, i - 1)] + 5.0 * u[g.at(m, k, j, i)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                let vijk = vs[g.at3(k, j, i)];
                let vp1 = vs[g.at3(k, j + 1, i)];
                let vm1 = vs[g.at3(k, j - 1, i)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] + cs.dy1ty1 * (u[g.at(0, k, j + 1, i)] - 2.0 * u[g.at(0, k, j, i)] + u[g.at(0, k, j - 1, i)])
                    - cs.ty2 * (u[g.at(2, k, j + 1, i)] - u[g.at(2, k, j - 1, i)]);
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                    + cs.dy2ty1 * (u[g.at(1, k, j + 1, i)] - 2.0 * u[g.at(1, k, j, i)] + u[g.at(1, k, j - 1, i)])
                    + cs.yycon2 * (us[g.at3(k, j + 1, i)] - 2.0 * us[g.at3(k, j, i)] + us[g.at3(k, j - 1, i)])
                    - cs.ty2 * (u[g.at(1, k, j + 1, i)] * vp1 - u[g.at(1, k, j - 1, i)] * vm1);
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                    + cs.dy3ty1 * (u[g.at(2, k, j + 1, i)] - 2.0 * u[g.at(2, k, j, i)] + u[g.at(2, k, j - 1, i)])
                    + cs.yycon2 * cs.con43 * (vp1 - 2.0 * vijk + vm1)
                    - cs.ty2
                        * (u[g.at(2, k, j + 1, i)] * vp1 - u[g.at(2, k, j - 1, i)] * vm1
                            + (u[g.at(4, k, j + 1, i)] - square[g.at3(k, j + 1, i)] - u[g.at(4, k, j - 1, i)] + square[g.at3(k, j - 1, i)]) * cs.c2);
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                    + cs.dy4ty1 * (u[g.at(3, k, j + 1, i)] - 2.0 * u[g.at(3, k, j, i)] + u[g.at(3, k, j - 1, i)])
                    + cs.yycon2 * (ws[g.at3(k, j + 1, i)] - 2.0 * ws[g.at3(k, j, i)] + ws[g.at3(k, j - 1, i)])
                    - cs.ty2 * (u[g.at(3, k, j + 1, i)] * vp1 - u[g.at(3, k, j - 1, i)] * vm1);
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                    + cs.dy5ty1 * (u[g.at(4, k, j + 1, i)] - 2.0 * u[g.at(4, k, j, i)] + u[g.at(4, k, j - 1, i)])
                    + cs.yycon3 * (qs[g.at3(k, j + 1, i)] - 2.0 * qs[g.at3(k, j, i)] + qs[g.at3(k, j - 1, i)])
                    + cs.yycon4 * (vp1 * vp1 - 2.0 * vijk * vijk + vm1 * vm1)
                    + cs.yycon5
                        * (u[g.at(4, k, j + 1, i)] * rho_i[g.at3(k, j + 1, i)] - 2.0 * u[g.at(4, k, j, i)] * rho_i[g.at3(k, j, i)]
                            + u[g.at(4, k, j - 1, i)] * rho_i[g.at3(k, j - 1, i)])
                    - cs.ty2
                        * ((cs.c1 * u[g.at(4, k, j + 1, i)] - cs.c2 * square[g.at3(k, j + 1, i)]) * vp1
                            - (cs.c1 * u[g.at(4, k, j - 1, i)] - cs.c2 * square[g.at3(k, j - 1, i)]) * vm1);
            }
        }
    }
    let j = 1;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)] - cs.dssp * (5.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j + 1, i)] + u[g.at(m, k, j + 2, i)]);
            }
        }
    }
    let j = 2;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)]
                    - cs.dssp * (-4.0 * u[g.at(m, k, j - 1, i)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j + 1, i)] + u[g.at(m, k, j + 2, i)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 3..=ny2 - 2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                for m in 0..5 {
                    rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)]
                        - cs.dssp
                            * (u[g.at(m, k, j - 2, i)] - 4.0 * u[g.at(m, k, j - 1, i)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j + 1, i)]
                                + u[g.at(m, k, j + 2, i)]);
                }
            }
        }
    }
    let j = ny2 - 1;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)]
                    - cs.dssp * (u[g.at(m, k, j - 2, i)] - 4.0 * u[g.at(m, k, j - 1, i)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k, j + 1, i)]);
            }
        }
    }
    let j = ny2;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)] - cs.dssp * (u[g.at(m, k, j - 2, i)] - 4.0 * u[g.at(m, k, j - 1, i)] + 5.0 * u[g.at(m, k, j, i)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                let wijk = ws[g.at3(k, j, i)];
                let wp1 = ws[g.at3(k + 1, j, i)];
                let wm1 = ws[g.at3(k - 1, j, i)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] + cs.dz1tz1 * (u[g.at(0, k + 1, j, i)] - 2.0 * u[g.at(0, k, j, i)] + u[g.at(0, k - 1, j, i)])
                    - cs.tz2 * (u[g.at(3, k + 1, j, i)] - u[g.at(3, k - 1, j, i)]);
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                    + cs.dz2tz1 * (u[g.at(1, k + 1, j, i)] - 2.0 * u[g.at(1, k, j, i)] + u[g.at(1, k - 1, j, i)])
                    + cs.zzcon2 * (us[g.at3(k + 1, j, i)] - 2.0 * us[g.at3(k, j, i)] + us[g.at3(k - 1, j, i)])
                    - cs.tz2 * (u[g.at(1, k + 1, j, i)] * wp1 - u[g.at(1, k - 1, j, i)] * wm1);
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                    + cs.dz3tz1 * (u[g.at(2, k + 1, j, i)] - 2.0 * u[g.at(2, k, j, i)] + u[g.at(2, k - 1, j, i)])
                    + cs.zzcon2 * (vs[g.at3(k + 1, j, i)] - 2.0 * vs[g.at3(k, j, i)] + vs[g.at3(k - 1, j, i)])
                    - cs.tz2 * (u[g.at(2, k + 1, j, i)] * wp1 - u[g.at(2, k - 1, j, i)] * wm1);
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                    + cs.dz4tz1 * (u[g.at(3, k + 1, j, i)] - 2.0 * u[g.at(3, k, j, i)] + u[g.at(3, k - 1, j, i)])
                    + cs.zzcon2 * cs.con43 * (wp1 - 2.0 * wijk + wm1)
                    - cs.tz2
                        * (u[g.at(3, k + 1, j, i)] * wp1 - u[g.at(3, k - 1, j, i)] * wm1
                            + (u[g.at(4, k + 1, j, i)] - square[g.at3(k + 1, j, i)] - u[g.at(4, k - 1, j, i)] + square[g.at3(k - 1, j, i)]) * cs.c2);
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                    + cs.dz5tz1 * (u[g.at(4, k + 1, j, i)] - 2.0 * u[g.at(4, k, j, i)] + u[g.at(4, k - 1, j, i)])
                    + cs.zzcon3 * (qs[g.at3(k + 1, j, i)] - 2.0 * qs[g.at3(k, j, i)] + qs[g.at3(k - 1, j, i)])
                    + cs.zzcon4 * (wp1 * wp1 - 2.0 * wijk * wijk + wm1 * wm1)
                    + cs.zzcon5
                        * (u[g.at(4, k + 1, j, i)] * rho_i[g.at3(k + 1, j, i)] - 2.0 * u[g.at(4, k, j, i)] * rho_i[g.at3(k, j, i)]
                            + u[g.at(4, k - 1, j, i)] * rho_i[g.at3(k - 1, j, i)])
                    - cs.tz2
                        * ((cs.c1 * u[g.at(4, k + 1, j, i)] - cs.c2 * square[g.at3(k + 1, j, i)]) * wp1
                            - (cs.c1 * u[g.at(4, k - 1, j, i)] - cs.c2 * square[g.at3(k - 1, j, i)]) * wm1);
            }
        }
    }
}

/// The zeta fluxes and differences, and the dissipation at `k = 1, 2`.
#[acc::parallel(num_gangs(g.ny2), num_workers(8), vector_length(32))]
fn rhs_z_lo(u: &[f64], rhs: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, .. } = g;
    let k = 1;
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)] - cs.dssp * (5.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k + 1, j, i)] + u[g.at(m, k + 2, j, i)]);
            }
        }
    }
    let k = 2;
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for m in 0..5 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)]
                    - cs.dssp * (-4.0 * u[g.at(m, k - 1, j, i)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k + 1, j, i)] + u[g.at(m, k + 2, j, i)]);
            }
        }
    }
}

/// The zeta dissipation inside.
#[acc::parallel(num_gangs(g.nz2-4), num_workers(8), vector_length(32))]
fn rhs_z(u: &[f64], rhs: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, nz2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 3..=nz2 - 2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                for m in 0..5 {
                    rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)]
                        - cs.dssp
                            * (u[g.at(m, k - 2, j, i)] - 4.0 * u[g.at(m, k - 1, j, i)] + 6.0 * u[g.at(m, k, j, i)] - 4.0 * u[g.at(m, k + 1, j, i)]
                                + u[g.at(m, k + 2, j, i)]);
                }
            }
        }
    }
}

/// The zeta dissipation at `k = nz2 - 1, nz2`.
#[acc::parallel(num_gangs(g.ny2), num_workers(8), vector_length(32))]
fn rhs_z_hi(u: &[f64], rhs: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, nz2, .. } = g;
    let k = nz2 - 1;
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                - cs.dssp * (u[g.at(0, k - 2, j, i)] - 4.0 * u[g.at(0, k - 1, j, i)] + 6.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k + 1, j, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                - cs.dssp * (u[g.at(1, k - 2, j, i)] - 4.0 * u[g.at(1, k - 1, j, i)] + 6.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k + 1, j, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                - cs.dssp * (u[g.at(2, k - 2, j, i)] - 4.0 * u[g.at(2, k - 1, j, i)] + 6.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k + 1, j, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                - cs.dssp * (u[g.at(3, k - 2, j, i)] - 4.0 * u[g.at(3, k - 1, j, i)] + 6.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k + 1, j, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                - cs.dssp * (u[g.at(4, k - 2, j, i)] - 4.0 * u[g.at(4, k - 1, j, i)] + 6.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k + 1, j, i)]);
        }
    }
    let k = nz2;
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - cs.dssp * (u[g.at(0, k - 2, j, i)] - 4.0 * u[g.at(0, k - 1, j, i)] + 5.0 * u[g.at(0, k, j, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - cs.dssp * (u[g.at(1, k - 2, j, i)] - 4.0 * u[g.at(1, k - 1, j, i)] + 5.0 * u[g.at(1, k, j, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - cs.dssp * (u[g.at(2, k - 2, j, i)] - 4.0 * u[g.at(2, k - 1, j, i)] + 5.0 * u[g.at(2, k, j, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - cs.dssp * (u[g.at(3, k - 2, j, i)] - 4.0 * u[g.at(3, k - 1, j, i)] + 5.0 * u[g.at(3, k, j, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - cs.dssp * (u[g.at(4, k - 2, j, i)] - 4.0 * u[g.at(4, k - 1, j, i)] + 5.0 * u[g.at(4, k, j, i)]);
        }
    }
}

/// `rhs *= dt`.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
fn rhs_dt(rhs: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, nz2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] * cs.dt;
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] * cs.dt;
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] * cs.dt;
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] * cs.dt;
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] * cs.dt;
            }
        }
    }
}

/// The block-diagonal matrix-vector product after the xi solve: `N^-1 rhs`.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
fn ninvr(rhs: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, nz2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                let r1 = rhs[g.at(0, k, j, i)];
                let r2 = rhs[g.at(1, k, j, i)];
                let r3 = rhs[g.at(2, k, j, i)];
                let r4 = rhs[g.at(3, k, j, i)];
                let r5 = rhs[g.at(4, k, j, i)];
                let t1 = cs.bt * r3;
                let t2 = 0.5 * (r4 + r5);
                rhs[g.at(0, k, j, i)] = -r2;
                rhs[g.at(1, k, j, i)] = r1;
                rhs[g.at(2, k, j, i)] = cs.bt * (r4 - r5);
                rhs[g.at(3, k, j, i)] = -t1 + t2;
                rhs[g.at(4, k, j, i)] = t1 + t2;
            }
        }
    }
}

/// The block-diagonal matrix-vector product after the eta solve: `P^-1 rhs`.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
fn pinvr(rhs: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, nz2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                let r1 = rhs[g.at(0, k, j, i)];
                let r2 = rhs[g.at(1, k, j, i)];
                let r3 = rhs[g.at(2, k, j, i)];
                let r4 = rhs[g.at(3, k, j, i)];
                let r5 = rhs[g.at(4, k, j, i)];
                let t1 = cs.bt * r1;
                let t2 = 0.5 * (r4 + r5);
                rhs[g.at(0, k, j, i)] = cs.bt * (r4 - r5);
                rhs[g.at(1, k, j, i)] = -r3;
                rhs[g.at(2, k, j, i)] = r2;
                rhs[g.at(3, k, j, i)] = -t1 + t2;
                rhs[g.at(4, k, j, i)] = t1 + t2;
            }
        }
    }
}

/// The block-diagonal matrix-vector product after the zeta solve: `T_zeta rhs`.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn tzetar(u: &[f64], rhs: &mut [f64], us: &[f64], vs: &[f64], ws: &[f64], qs: &[f64], speed: &[f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, nz2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                let xvel = us[g.at3(k, j, i)];
                let yvel = vs[g.at3(k, j, i)];
                let zvel = ws[g.at3(k, j, i)];
                let ac = speed[g.at3(k, j, i)];
                let ac2u = ac * ac;
                let r1 = rhs[g.at(0, k, j, i)];
                let r2 = rhs[g.at(1, k, j, i)];
                let r3 = rhs[g.at(2, k, j, i)];
                let r4 = rhs[g.at(3, k, j, i)];
                let r5 = rhs[g.at(4, k, j, i)];
                let uzik1 = u[g.at(0, k, j, i)];
                let btuz = cs.bt * uzik1;
                let t1 = btuz / ac * (r4 + r5);
                let t2 = r3 + t1;
                let t3 = btuz * (r4 - r5);
                rhs[g.at(0, k, j, i)] = t2;
                rhs[g.at(1, k, j, i)] = -uzik1 * r2 + xvel * t2;
                rhs[g.at(2, k, j, i)] = uzik1 * r1 + yvel * t2;
                rhs[g.at(3, k, j, i)] = zvel * t2 + t3;
                rhs[g.at(4, k, j, i)] = uzik1 * (-xvel * r2 + yvel * r1) + qs[g.at3(k, j, i)] * t2 + cs.c2iv * ac2u * t1 + zvel * t3;
            }
        }
    }
}

/// `rhsx`, `rhs` with `i` and `j` swapped: the xi lines contiguous along `j`.
#[acc::parallel(num_gangs(g.nz2+1), num_workers(8), vector_length(32))]
fn x_solve_transpose(rhs: &[f64], rhsx: &mut [f64], g: Grid) {
    let Grid { nz2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 0..=nz2 {
        #[acc::r#loop(worker)]
        for j in 0..g.ld {
            #[acc::r#loop(vector)]
            for i in 0..g.ld {
                rhsx[g.at(0, k, i, j)] = rhs[g.at(0, k, j, i)];
                rhsx[g.at(1, k, i, j)] = rhs[g.at(1, k, j, i)];
                rhsx[g.at(2, k, i, j)] = rhs[g.at(2, k, j, i)];
                rhsx[g.at(3, k, i, j)] = rhs[g.at(3, k, j, i)];
                rhsx[g.at(4, k, i, j)] = rhs[g.at(4, k, j, i)];
            }
        }
    }
}

/// The xi factors: the three penta-diagonal systems `lhs`, `lhsp`, `lhsm` of each line.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn x_solve_lhs(us: &[f64], rho_i: &[f64], speed: &[f64], lhs: &mut [f64], lhsp: &mut [f64], lhsm: &mut [f64], rhon: &mut [f64], g: Grid, cs: Consts) {
    let Grid {
        nx2,
        ny2,
        nz2,
        gp01,
        gp03,
        gp04,
        ..
    } = g;
    let ni = nx2 + 1;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for m in 0..5 {
                lhs[g.at(m, k, 0, j)] = 0.0;
                lhsp[g.at(m, k, 0, j)] = 0.0;
                lhsm[g.at(m, k, 0, j)] = 0.0;
                lhs[g.at(m, k, ni, j)] = 0.0;
                lhsp[g.at(m, k, ni, j)] = 0.0;
                lhsm[g.at(m, k, ni, j)] = 0.0;
            }
            lhs[g.at(2, k, 0, j)] = 1.0;
            lhsp[g.at(2, k, 0, j)] = 1.0;
            lhsm[g.at(2, k, 0, j)] = 1.0;
            lhs[g.at(2, k, ni, j)] = 1.0;
            lhsp[g.at(2, k, ni, j)] = 1.0;
            lhsm[g.at(2, k, ni, j)] = 1.0;
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for i in 0..=gp01 {
                let ru1 = cs.c3c4 * rho_i[g.at3(k, j, i)];
                rhon[g.at3(k, j, i)] = f64::max(f64::max(cs.dx2 + cs.con43 * ru1, cs.dx5 + cs.c1c5 * ru1), f64::max(cs.dxmax + ru1, cs.dx1));
            }
            for i in 1..=nx2 {
                lhs[g.at(0, k, i, j)] = 0.0;
                lhs[g.at(1, k, i, j)] = -cs.dttx2 * us[g.at3(k, j, i - 1)] - cs.dttx1 * rhon[g.at3(k, j, i - 1)];
                lhs[g.at(2, k, i, j)] = 1.0 + cs.c2dttx1 * rhon[g.at3(k, j, i)];
                lhs[g.at(3, k, i, j)] = cs.dttx2 * us[g.at3(k, j, i + 1)] - cs.dttx1 * rhon[g.at3(k, j, i + 1)];
                lhs[g.at(4, k, i, j)] = 0.0;
            }
        }
    }
    let i = 1;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            lhs[g.at(2, k, i, j)] = lhs[g.at(2, k, i, j)] + cs.comz5;
            lhs[g.at(3, k, i, j)] = lhs[g.at(3, k, i, j)] - cs.comz4;
            lhs[g.at(4, k, i, j)] = lhs[g.at(4, k, i, j)] + cs.comz1;
            lhs[g.at(1, k, i + 1, j)] = lhs[g.at(1, k, i + 1, j)] - cs.comz4;
            lhs[g.at(2, k, i + 1, j)] = lhs[g.at(2, k, i + 1, j)] + cs.comz6;
            lhs[g.at(3, k, i + 1, j)] = lhs[g.at(3, k, i + 1, j)] - cs.comz4;
            lhs[g.at(4, k, i + 1, j)] = lhs[g.at(4, k, i + 1, j)] + cs.comz1;
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for i in 3..=gp04 {
                lhs[g.at(0, k, i, j)] = lhs[g.at(0, k, i, j)] + cs.comz1;
                lhs[g.at(1, k, i, j)] = lhs[g.at(1, k, i, j)] - cs.comz4;
                lhs[g.at(2, k, i, j)] = lhs[g.at(2, k, i, j)] + cs.comz6;
                lhs[g.at(3, k, i, j)] = lhs[g.at(3, k, i, j)] - cs.comz4;
                lhs[g.at(4, k, i, j)] = lhs[g.at(4, k, i, j)] + cs.comz1;
            }
        }
    }
    let i = gp03;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            lhs[g.at(0, k, i, j)] = lhs[g.at(0, k, i, j)] + cs.comz1;
            lhs[g.at(1, k, i, j)] = lhs[g.at(1, k, i, j)] - cs.comz4;
            lhs[g.at(2, k, i, j)] = lhs[g.at(2, k, i, j)] + cs.comz6;
            lhs[g.at(3, k, i, j)] = lhs[g.at(3, k, i, j)] - cs.comz4;
            lhs[g.at(0, k, i + 1, j)] = lhs[g.at(0, k, i + 1, j)] + cs.comz1;
            lhs[g.at(1, k, i + 1, j)] = lhs[g.at(1, k, i + 1, j)] - cs.comz4;
            lhs[g.at(2, k, i + 1, j)] = lhs[g.at(2, k, i + 1, j)] + cs.comz5;
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                lhsp[g.at(0, k, i, j)] = lhs[g.at(0, k, i, j)];
                lhsp[g.at(1, k, i, j)] = lhs[g.at(1, k, i, j)] - cs.dttx2 * speed[g.at3(k, j, i - 1)];
                lhsp[g.at(2, k, i, j)] = lhs[g.at(2, k, i, j)];
                lhsp[g.at(3, k, i, j)] = lhs[g.at(3, k, i, j)] + cs.dttx2 * speed[g.at3(k, j, i + 1)];
                lhsp[g.at(4, k, i, j)] = lhs[g.at(4, k, i, j)];
                lhsm[g.at(0, k, i, j)] = lhs[g.at(0, k, i, j)];
                lhsm[g.at(1, k, i, j)] = lhs[g.at(1, k, i, j)] + cs.dttx2 * speed[g.at3(k, j, i - 1)];
                lhsm[g.at(2, k, i, j)] = lhs[g.at(2, k, i, j)];
                lhsm[g.at(3, k, i, j)] = lhs[g.at(3, k, i, j)] - cs.dttx2 * speed[g.at3(k, j, i + 1)];
                lhsm[g.at(4, k, i, j)] = lhs[g.at(4, k, i, j)];
            }
        }
    }
}

/// The xi solve, forward elimination.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
fn x_solve_forward(lhs: &mut [f64], lhsp: &mut [f64], lhsm: &mut [f64], rhsx: &mut [f64], g: Grid) {
    let Grid {
        ny2, nz2, gp01, gp02, gp03, ..
    } = g;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for i in 0..=gp03 {
                let i1 = i + 1;
                let i2 = i + 2;
                let fac1 = 1.0 / lhs[g.at(2, k, i, j)];
                lhs[g.at(3, k, i, j)] = fac1 * lhs[g.at(3, k, i, j)];
                lhs[g.at(4, k, i, j)] = fac1 * lhs[g.at(4, k, i, j)];
                rhsx[g.at(0, k, i, j)] = fac1 * rhsx[g.at(0, k, i, j)];
                rhsx[g.at(1, k, i, j)] = fac1 * rhsx[g.at(1, k, i, j)];
                rhsx[g.at(2, k, i, j)] = fac1 * rhsx[g.at(2, k, i, j)];
                lhs[g.at(2, k, i1, j)] = lhs[g.at(2, k, i1, j)] - lhs[g.at(1, k, i1, j)] * lhs[g.at(3, k, i, j)];
                lhs[g.at(3, k, i1, j)] = lhs[g.at(3, k, i1, j)] - lhs[g.at(1, k, i1, j)] * lhs[g.at(4, k, i, j)];
                rhsx[g.at(0, k, i1, j)] = rhsx[g.at(0, k, i1, j)] - lhs[g.at(1, k, i1, j)] * rhsx[g.at(0, k, i, j)];
                rhsx[g.at(1, k, i1, j)] = rhsx[g.at(1, k, i1, j)] - lhs[g.at(1, k, i1, j)] * rhsx[g.at(1, k, i, j)];
                rhsx[g.at(2, k, i1, j)] = rhsx[g.at(2, k, i1, j)] - lhs[g.at(1, k, i1, j)] * rhsx[g.at(2, k, i, j)];
                lhs[g.at(1, k, i2, j)] = lhs[g.at(1, k, i2, j)] - lhs[g.at(0, k, i2, j)] * lhs[g.at(3, k, i, j)];
                lhs[g.at(2, k, i2, j)] = lhs[g.at(2, k, i2, j)] - lhs[g.at(0, k, i2, j)] * lhs[g.at(4, k, i, j)];
                rhsx[g.at(0, k, i2, j)] = rhsx[g.at(0, k, i2, j)] - lhs[g.at(0, k, i2, j)] * rhsx[g.at(0, k, i, j)];
                rhsx[g.at(1, k, i2, j)] = rhsx[g.at(1, k, i2, j)] - lhs[g.at(0, k, i2, j)] * rhsx[g.at(1, k, i, j)];
                rhsx[g.at(2, k, i2, j)] = rhsx[g.at(2, k, i2, j)] - lhs[g.at(0, k, i2, j)] * rhsx[g.at(2, k, i, j)];
            }
        }
    }
    let i = gp02;
    let i1 = gp01;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            let fac1 = 1.0 / lhs[g.at(2, k, i, j)];
            lhs[g.at(3, k, i, j)] = fac1 * lhs[g.at(3, k, i, j)];
            lhs[g.at(4, k, i, j)] = fac1 * lhs[g.at(4, k, i, j)];
            rhsx[g.at(0, k, i, j)] = fac1 * rhsx[g.at(0, k, i, j)];
            rhsx[g.at(1, k, i, j)] = fac1 * rhsx[g.at(1, k, i, j)];
            rhsx[g.at(2, k, i, j)] = fac1 * rhsx[g.at(2, k, i, j)];
            lhs[g.at(2, k, i1, j)] = lhs[g.at(2, k, i1, j)] - lhs[g.at(1, k, i1, j)] * lhs[g.at(3, k, i, j)];
            lhs[g.at(3, k, i1, j)] = lhs[g.at(3, k, i1, j)] - lhs[g.at(1, k, i1, j)] * lhs[g.at(4, k, i, j)];
            rhsx[g.at(0, k, i1, j)] = rhsx[g.at(0, k, i1, j)] - lhs[g.at(1, k, i1, j)] * rhsx[g.at(0, k, i, j)];
            rhsx[g.at(1, k, i1, j)] = rhsx[g.at(1, k, i1, j)] - lhs[g.at(1, k, i1, j)] * rhsx[g.at(1, k, i, j)];
            rhsx[g.at(2, k, i1, j)] = rhsx[g.at(2, k, i1, j)] - lhs[g.at(1, k, i1, j)] * rhsx[g.at(2, k, i, j)];
            let fac2 = 1.0 / lhs[g.at(2, k, i1, j)];
            rhsx[g.at(0, k, i1, j)] = fac2 * rhsx[g.at(0, k, i1, j)];
            rhsx[g.at(1, k, i1, j)] = fac2 * rhsx[g.at(1, k, i1, j)];
            rhsx[g.at(2, k, i1, j)] = fac2 * rhsx[g.at(2, k, i1, j)];
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for i in 0..=gp03 {
                let i1 = i + 1;
                let i2 = i + 2;
                let m = 3;
                let fac1 = 1.0 / lhsp[g.at(2, k, i, j)];
                lhsp[g.at(3, k, i, j)] = fac1 * lhsp[g.at(3, k, i, j)];
                lhsp[g.at(4, k, i, j)] = fac1 * lhsp[g.at(4, k, i, j)];
                rhsx[g.at(m, k, i, j)] = fac1 * rhsx[g.at(m, k, i, j)];
                lhsp[g.at(2, k, i1, j)] = lhsp[g.at(2, k, i1, j)] - lhsp[g.at(1, k, i1, j)] * lhsp[g.at(3, k, i, j)];
                lhsp[g.at(3, k, i1, j)] = lhsp[g.at(3, k, i1, j)] - lhsp[g.at(1, k, i1, j)] * lhsp[g.at(4, k, i, j)];
                rhsx[g.at(m, k, i1, j)] = rhsx[g.at(m, k, i1, j)] - lhsp[g.at(1, k, i1, j)] * rhsx[g.at(m, k, i, j)];
                lhsp[g.at(1, k, i2, j)] = lhsp[g.at(1, k, i2, j)] - lhsp[g.at(0, k, i2, j)] * lhsp[g.at(3, k, i, j)];
                lhsp[g.at(2, k, i2, j)] = lhsp[g.at(2, k, i2, j)] - lhsp[g.at(0, k, i2, j)] * lhsp[g.at(4, k, i, j)];
                rhsx[g.at(m, k, i2, j)] = rhsx[g.at(m, k, i2, j)] - lhsp[g.at(0, k, i2, j)] * rhsx[g.at(m, k, i, j)];
                let m = 4;
                let fac1 = 1.0 / lhsm[g.at(2, k, i, j)];
                lhsm[g.at(3, k, i, j)] = fac1 * lhsm[g.at(3, k, i, j)];
                lhsm[g.at(4, k, i, j)] = fac1 * lhsm[g.at(4, k, i, j)];
                rhsx[g.at(m, k, i, j)] = fac1 * rhsx[g.at(m, k, i, j)];
                lhsm[g.at(2, k, i1, j)] = lhsm[g.at(2, k, i1, j)] - lhsm[g.at(1, k, i1, j)] * lhsm[g.at(3, k, i, j)];
                lhsm[g.at(3, k, i1, j)] = lhsm[g.at(3, k, i1, j)] - lhsm[g.at(1, k, i1, j)] * lhsm[g.at(4, k, i, j)];
                rhsx[g.at(m, k, i1, j)] = rhsx[g.at(m, k, i1, j)] - lhsm[g.at(1, k, i1, j)] * rhsx[g.at(m, k, i, j)];
                lhsm[g.at(1, k, i2, j)] = lhsm[g.at(1, k, i2, j)] - lhsm[g.at(0, k, i2, j)] * lhsm[g.at(3, k, i, j)];
                lhsm[g.at(2, k, i2, j)] = lhsm[g.at(2, k, i2, j)] - lhsm[g.at(0, k, i2, j)] * lhsm[g.at(4, k, i, j)];
                rhsx[g.at(m, k, i2, j)] = rhsx[g.at(m, k, i2, j)] - lhsm[g.at(0, k, i2, j)] * rhsx[g.at(m, k, i, j)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            let m = 3;
            let fac1 = 1.0 / lhsp[g.at(2, k, i, j)];
            lhsp[g.at(3, k, i, j)] = fac1 * lhsp[g.at(3, k, i, j)];
            lhsp[g.at(4, k, i, j)] = fac1 * lhsp[g.at(4, k, i, j)];
            rhsx[g.at(m, k, i, j)] = fac1 * rhsx[g.at(m, k, i, j)];
            lhsp[g.at(2, k, i1, j)] = lhsp[g.at(2, k, i1, j)] - lhsp[g.at(1, k, i1, j)] * lhsp[g.at(3, k, i, j)];
            lhsp[g.at(3, k, i1, j)] = lhsp[g.at(3, k, i1, j)] - lhsp[g.at(1, k, i1, j)] * lhsp[g.at(4, k, i, j)];
            rhsx[g.at(m, k, i1, j)] = rhsx[g.at(m, k, i1, j)] - lhsp[g.at(1, k, i1, j)] * rhsx[g.at(m, k, i, j)];
            let m = 4;
            let fac1 = 1.0 / lhsm[g.at(2, k, i, j)];
            lhsm[g.at(3, k, i, j)] = fac1 * lhsm[g.at(3, k, i, j)];
            lhsm[g.at(4, k, i, j)] = fac1 * lhsm[g.at(4, k, i, j)];
            rhsx[g.at(m, k, i, j)] = fac1 * rhsx[g.at(m, k, i, j)];
            lhsm[g.at(2, k, i1, j)] = lhsm[g.at(2, k, i1, j)] - lhsm[g.at(1, k, i1, j)] * lhsm[g.at(3, k, i, j)];
            lhsm[g.at(3, k, i1, j)] = lhsm[g.at(3, k, i1, j)] - lhsm[g.at(1, k, i1, j)] * lhsm[g.at(4, k, i, j)];
            rhsx[g.at(m, k, i1, j)] = rhsx[g.at(m, k, i1, j)] - lhsm[g.at(1, k, i1, j)] * rhsx[g.at(m, k, i, j)];
            rhsx[g.at(3, k, i1, j)] = rhsx[g.at(3, k, i1, j)] / lhsp[g.at(2, k, i1, j)];
            rhsx[g.at(4, k, i1, j)] = rhsx[g.at(4, k, i1, j)] / lhsm[g.at(2, k, i1, j)];
        }
    }
}

/// The xi solve, back substitution, and `rhs` back from `rhsx`.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
fn x_solve_back(rhs: &mut [f64], lhs: &[f64], lhsp: &[f64], lhsm: &[f64], rhsx: &mut [f64], g: Grid) {
    let Grid {
        ny2, nz2, gp01, gp02, gp03, ..
    } = g;
    let i = gp02;
    let i1 = gp01;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            rhsx[g.at(0, k, i, j)] = rhsx[g.at(0, k, i, j)] - lhs[g.at(3, k, i, j)] * rhsx[g.at(0, k, i1, j)];
            rhsx[g.at(1, k, i, j)] = rhsx[g.at(1, k, i, j)] - lhs[g.at(3, k, i, j)] * rhsx[g.at(1, k, i1, j)];
            rhsx[g.at(2, k, i, j)] = rhsx[g.at(2, k, i, j)] - lhs[g.at(3, k, i, j)] * rhsx[g.at(2, k, i1, j)];
            rhsx[g.at(3, k, i, j)] = rhsx[g.at(3, k, i, j)] - lhsp[g.at(3, k, i, j)] * rhsx[g.at(3, k, i1, j)];
            rhsx[g.at(4, k, i, j)] = rhsx[g.at(4, k, i, j)] - lhsm[g.at(3, k, i, j)] * rhsx[g.at(4, k, i1, j)];
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=ny2 {
            for i in (0..=gp03).rev() {
                let i1 = i + 1;
                let i2 = i + 2;
                rhsx[g.at(0, k, i, j)] =
                    rhsx[g.at(0, k, i, j)] - lhs[g.at(3, k, i, j)] * rhsx[g.at(0, k, i1, j)] - lhs[g.at(4, k, i, j)] * rhsx[g.at(0, k, i2, j)];
                rhsx[g.at(1, k, i, j)] =
                    rhsx[g.at(1, k, i, j)] - lhs[g.at(3, k, i, j)] * rhsx[g.at(1, k, i1, j)] - lhs[g.at(4, k, i, j)] * rhsx[g.at(1, k, i2, j)];
                rhsx[g.at(2, k, i, j)] =
                    rhsx[g.at(2, k, i, j)] - lhs[g.at(3, k, i, j)] * rhsx[g.at(2, k, i1, j)] - lhs[g.at(4, k, i, j)] * rhsx[g.at(2, k, i2, j)];
                rhsx[g.at(3, k, i, j)] =
                    rhsx[g.at(3, k, i, j)] - lhsp[g.at(3, k, i, j)] * rhsx[g.at(3, k, i1, j)] - lhsp[g.at(4, k, i, j)] * rhsx[g.at(3, k, i2, j)];
                rhsx[g.at(4, k, i, j)] =
                    rhsx[g.at(4, k, i, j)] - lhsm[g.at(3, k, i, j)] * rhsx[g.at(4, k, i1, j)] - lhsm[g.at(4, k, i, j)] * rhsx[g.at(4, k, i2, j)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 0..=nz2 {
        #[acc::r#loop(worker)]
        for j in 0..g.ld {
            #[acc::r#loop(vector)]
            for i in 0..g.ld {
                rhs[g.at(0, k, j, i)] = rhsx[g.at(0, k, i, j)];
                rhs[g.at(1, k, j, i)] = rhsx[g.at(1, k, i, j)];
                rhs[g.at(2, k, j, i)] = rhsx[g.at(2, k, i, j)];
                rhs[g.at(3, k, j, i)] = rhsx[g.at(3, k, i, j)];
                rhs[g.at(4, k, j, i)] = rhsx[g.at(4, k, i, j)];
            }
        }
    }
}

/// The eta factors along each line.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn y_solve_lhs(vs: &[f64], rho_i: &[f64], lhs: &mut [f64], lhsp: &mut [f64], lhsm: &mut [f64], rhon: &mut [f64], g: Grid, cs: Consts) {
    let Grid {
        nx2, ny2, nz2, gp0, gp1, gp2, ..
    } = g;
    let ni = ny2 + 1;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for m in 0..5 {
                lhs[g.at(m, k, 0, i)] = 0.0;
                lhsp[g.at(m, k, 0, i)] = 0.0;
                lhsm[g.at(m, k, 0, i)] = 0.0;
                lhs[g.at(m, k, ni, i)] = 0.0;
                lhsp[g.at(m, k, ni, i)] = 0.0;
                lhsm[g.at(m, k, ni, i)] = 0.0;
            }
            lhs[g.at(2, k, 0, i)] = 1.0;
            lhsp[g.at(2, k, 0, i)] = 1.0;
            lhsm[g.at(2, k, 0, i)] = 1.0;
            lhs[g.at(2, k, ni, i)] = 1.0;
            lhsp[g.at(2, k, ni, i)] = 1.0;
            lhsm[g.at(2, k, ni, i)] = 1.0;
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp0 - 2 {
            for j in 0..=gp1 - 1 {
                let ru1 = cs.c3c4 * rho_i[g.at3(k, j, i)];
                rhon[g.at3(k, j, i)] = f64::max(f64::max(cs.dy3 + cs.con43 * ru1, cs.dy5 + cs.c1c5 * ru1), f64::max(cs.dymax + ru1, cs.dy1));
            }
            for j in 1..=gp1 - 2 {
                lhs[g.at(0, k, j, i)] = 0.0;
                lhs[g.at(1, k, j, i)] = -cs.dtty2 * vs[g.at3(k, j - 1, i)] - cs.dtty1 * rhon[g.at3(k, j - 1, i)];
                lhs[g.at(2, k, j, i)] = 1.0 + cs.c2dtty1 * rhon[g.at3(k, j, i)];
                lhs[g.at(3, k, j, i)] = cs.dtty2 * vs[g.at3(k, j + 1, i)] - cs.dtty1 * rhon[g.at3(k, j + 1, i)];
                lhs[g.at(4, k, j, i)] = 0.0;
            }
        }
    }
    let j = 1;
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp0 - 2 {
            lhs[g.at(2, k, j, i)] = lhs[g.at(2, k, j, i)] + cs.comz5;
            lhs[g.at(3, k, j, i)] = lhs[g.at(3, k, j, i)] - cs.comz4;
            lhs[g.at(4, k, j, i)] = lhs[g.at(4, k, j, i)] + cs.comz1;
            lhs[g.at(1, k, j + 1, i)] = lhs[g.at(1, k, j + 1, i)] - cs.comz4;
            lhs[g.at(2, k, j + 1, i)] = lhs[g.at(2, k, j + 1, i)] + cs.comz6;
            lhs[g.at(3, k, j + 1, i)] = lhs[g.at(3, k, j + 1, i)] - cs.comz4;
            lhs[g.at(4, k, j + 1, i)] = lhs[g.at(4, k, j + 1, i)] + cs.comz1;
        }
    }
}

/// The eta factors: the dissipation inside and at the end, `lhsp`, `lhsm`.
#[acc::parallel(num_gangs(g.gp2-2), num_workers(8), vector_length(32))]
fn y_solve_lhs_pm(speed: &[f64], lhs: &mut [f64], lhsp: &mut [f64], lhsm: &mut [f64], g: Grid, cs: Consts) {
    let Grid { gp0, gp1, gp2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker)]
        for j in 3..=gp1 - 4 {
            #[acc::r#loop(vector)]
            for i in 1..=gp0 - 2 {
                lhs[g.at(0, k, j, i)] = lhs[g.at(0, k, j, i)] + cs.comz1;
                lhs[g.at(1, k, j, i)] = lhs[g.at(1, k, j, i)] - cs.comz4;
                lhs[g.at(2, k, j, i)] = lhs[g.at(2, k, j, i)] + cs.comz6;
                lhs[g.at(3, k, j, i)] = lhs[g.at(3, k, j, i)] - cs.comz4;
                lhs[g.at(4, k, j, i)] = lhs[g.at(4, k, j, i)] + cs.comz1;
            }
        }
    }
    let j = gp1 - 3;
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp0 - 2 {
            lhs[g.at(0, k, j, i)] = lhs[g.at(0, k, j, i)] + cs.comz1;
            lhs[g.at(1, k, j, i)] = lhs[g.at(1, k, j, i)] - cs.comz4;
            lhs[g.at(2, k, j, i)] = lhs[g.at(2, k, j, i)] + cs.comz6;
            lhs[g.at(3, k, j, i)] = lhs[g.at(3, k, j, i)] - cs.comz4;
            lhs[g.at(0, k, j + 1, i)] = lhs[g.at(0, k, j + 1, i)] + cs.comz1;
            lhs[g.at(1, k, j + 1, i)] = lhs[g.at(1, k, j + 1, i)] - cs.comz4;
            lhs[g.at(2, k, j + 1, i)] = lhs[g.at(2, k, j + 1, i)] + cs.comz5;
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker)]
        for j in 1..=gp1 - 2 {
            #[acc::r#loop(vector)]
            for i in 1..=gp0 - 2 {
                lhsp[g.at(0, k, j, i)] = lhs[g.at(0, k, j, i)];
                lhsp[g.at(1, k, j, i)] = lhs[g.at(1, k, j, i)] - cs.dtty2 * speed[g.at3(k, j - 1, i)];
                lhsp[g.at(2, k, j, i)] = lhs[g.at(2, k, j, i)];
                lhsp[g.at(3, k, j, i)] = lhs[g.at(3, k, j, i)] + cs.dtty2 * speed[g.at3(k, j + 1, i)];
                lhsp[g.at(4, k, j, i)] = lhs[g.at(4, k, j, i)];
                lhsm[g.at(0, k, j, i)] = lhs[g.at(0, k, j, i)];
                lhsm[g.at(1, k, j, i)] = lhs[g.at(1, k, j, i)] + cs.dtty2 * speed[g.at3(k, j - 1, i)];
                lhsm[g.at(2, k, j, i)] = lhs[g.at(2, k, j, i)];
                lhsm[g.at(3, k, j, i)] = lhs[g.at(3, k, j, i)] - cs.dtty2 * speed[g.at3(k, j + 1, i)];
                lhsm[g.at(4, k, j, i)] = lhs[g.at(4, k, j, i)];
            }
        }
    }
}

/// The eta solve, forward elimination.
#[acc::parallel(num_gangs(g.gp2-2), num_workers(8), vector_length(32))]
fn y_solve_forward(rhs: &mut [f64], lhs: &mut [f64], lhsp: &mut [f64], lhsm: &mut [f64], g: Grid) {
    let Grid { gp0, gp1, gp2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp0 - 2 {
            for j in 0..=gp1 - 3 {
                let j1 = j + 1;
                let j2 = j + 2;
                let fac1 = 1.0 / lhs[g.at(2, k, j, i)];
                lhs[g.at(3, k, j, i)] = fac1 * lhs[g.at(3, k, j, i)];
                lhs[g.at(4, k, j, i)] = fac1 * lhs[g.at(4, k, j, i)];
                rhs[g.at(0, k, j, i)] = fac1 * rhs[g.at(0, k, j, i)];
                rhs[g.at(1, k, j, i)] = fac1 * rhs[g.at(1, k, j, i)];
                rhs[g.at(2, k, j, i)] = fac1 * rhs[g.at(2, k, j, i)];
                lhs[g.at(2, k, j1, i)] = lhs[g.at(2, k, j1, i)] - lhs[g.at(1, k, j1, i)] * lhs[g.at(3, k, j, i)];
                lhs[g.at(3, k, j1, i)] = lhs[g.at(3, k, j1, i)] - lhs[g.at(1, k, j1, i)] * lhs[g.at(4, k, j, i)];
                rhs[g.at(0, k, j1, i)] = rhs[g.at(0, k, j1, i)] - lhs[g.at(1, k, j1, i)] * rhs[g.at(0, k, j, i)];
                rhs[g.at(1, k, j1, i)] = rhs[g.at(1, k, j1, i)] - lhs[g.at(1, k, j1, i)] * rhs[g.at(1, k, j, i)];
                rhs[g.at(2, k, j1, i)] = rhs[g.at(2, k, j1, i)] - lhs[g.at(1, k, j1, i)] * rhs[g.at(2, k, j, i)];
                lhs[g.at(1, k, j2, i)] = lhs[g.at(1, k, j2, i)] - lhs[g.at(0, k, j2, i)] * lhs[g.at(3, k, j, i)];
                lhs[g.at(2, k, j2, i)] = lhs[g.at(2, k, j2, i)] - lhs[g.at(0, k, j2, i)] * lhs[g.at(4, k, j, i)];
                rhs[g.at(0, k, j2, i)] = rhs[g.at(0, k, j2, i)] - lhs[g.at(0, k, j2, i)] * rhs[g.at(0, k, j, i)];
                rhs[g.at(1, k, j2, i)] = rhs[g.at(1, k, j2, i)] - lhs[g.at(0, k, j2, i)] * rhs[g.at(1, k, j, i)];
                rhs[g.at(2, k, j2, i)] = rhs[g.at(2, k, j2, i)] - lhs[g.at(0, k, j2, i)] * rhs[g.at(2, k, j, i)];
            }
        }
    }
    let j = gp1 - 2;
    let j1 = gp1 - 1;
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp0 - 2 {
            let fac1 = 1.0 / lhs[g.at(2, k, j, i)];
            lhs[g.at(3, k, j, i)] = fac1 * lhs[g.at(3, k, j, i)];
            lhs[g.at(4, k, j, i)] = fac1 * lhs[g.at(4, k, j, i)];
            rhs[g.at(0, k, j, i)] = fac1 * rhs[g.at(0, k, j, i)];
            rhs[g.at(1, k, j, i)] = fac1 * rhs[g.at(1, k, j, i)];
            rhs[g.at(2, k, j, i)] = fac1 * rhs[g.at(2, k, j, i)];
            lhs[g.at(2, k, j1, i)] = lhs[g.at(2, k, j1, i)] - lhs[g.at(1, k, j1, i)] * lhs[g.at(3, k, j, i)];
            lhs[g.at(3, k, j1, i)] = lhs[g.at(3, k, j1, i)] - lhs[g.at(1, k, j1, i)] * lhs[g.at(4, k, j, i)];
            rhs[g.at(0, k, j1, i)] = rhs[g.at(0, k, j1, i)] - lhs[g.at(1, k, j1, i)] * rhs[g.at(0, k, j, i)];
            rhs[g.at(1, k, j1, i)] = rhs[g.at(1, k, j1, i)] - lhs[g.at(1, k, j1, i)] * rhs[g.at(1, k, j, i)];
            rhs[g.at(2, k, j1, i)] = rhs[g.at(2, k, j1, i)] - lhs[g.at(1, k, j1, i)] * rhs[g.at(2, k, j, i)];
            let fac2 = 1.0 / lhs[g.at(2, k, j1, i)];
            rhs[g.at(0, k, j1, i)] = fac2 * rhs[g.at(0, k, j1, i)];
            rhs[g.at(1, k, j1, i)] = fac2 * rhs[g.at(1, k, j1, i)];
            rhs[g.at(2, k, j1, i)] = fac2 * rhs[g.at(2, k, j1, i)];
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp0 - 2 {
            for j in 0..=gp1 - 3 {
                let j1 = j + 1;
                let j2 = j + 2;
                let m = 3;
                let fac1 = 1.0 / lhsp[g.at(2, k, j, i)];
                lhsp[g.at(3, k, j, i)] = fac1 * lhsp[g.at(3, k, j, i)];
                lhsp[g.at(4, k, j, i)] = fac1 * lhsp[g.at(4, k, j, i)];
                rhs[g.at(m, k, j, i)] = fac1 * rhs[g.at(m, k, j, i)];
                lhsp[g.at(2, k, j1, i)] = lhsp[g.at(2, k, j1, i)] - lhsp[g.at(1, k, j1, i)] * lhsp[g.at(3, k, j, i)];
                lhsp[g.at(3, k, j1, i)] = lhsp[g.at(3, k, j1, i)] - lhsp[g.at(1, k, j1, i)] * lhsp[g.at(4, k, j, i)];
                rhs[g.at(m, k, j1, i)] = rhs[g.at(m, k, j1, i)] - lhsp[g.at(1, k, j1, i)] * rhs[g.at(m, k, j, i)];
                lhsp[g.at(1, k, j2, i)] = lhsp[g.at(1, k, j2, i)] - lhsp[g.at(0, k, j2, i)] * lhsp[g.at(3, k, j, i)];
                lhsp[g.at(2, k, j2, i)] = lhsp[g.at(2, k, j2, i)] - lhsp[g.at(0, k, j2, i)] * lhsp[g.at(4, k, j, i)];
                rhs[g.at(m, k, j2, i)] = rhs[g.at(m, k, j2, i)] - lhsp[g.at(0, k, j2, i)] * rhs[g.at(m, k, j, i)];
                let m = 4;
                let fac1 = 1.0 / lhsm[g.at(2, k, j, i)];
                lhsm[g.at(3, k, j, i)] = fac1 * lhsm[g.at(3, k, j, i)];
                lhsm[g.at(4, k, j, i)] = fac1 * lhsm[g.at(4, k, j, i)];
                rhs[g.at(m, k, j, i)] = fac1 * rhs[g.at(m, k, j, i)];
                lhsm[g.at(2, k, j1, i)] = lhsm[g.at(2, k, j1, i)] - lhsm[g.at(1, k, j1, i)] * lhsm[g.at(3, k, j, i)];
                lhsm[g.at(3, k, j1, i)] = lhsm[g.at(3, k, j1, i)] - lhsm[g.at(1, k, j1, i)] * lhsm[g.at(4, k, j, i)];
                rhs[g.at(m, k, j1, i)] = rhs[g.at(m, k, j1, i)] - lhsm[g.at(1, k, j1, i)] * rhs[g.at(m, k, j, i)];
                lhsm[g.at(1, k, j2, i)] = lhsm[g.at(1, k, j2, i)] - lhsm[g.at(0, k, j2, i)] * lhsm[g.at(3, k, j, i)];
                lhsm[g.at(2, k, j2, i)] = lhsm[g.at(2, k, j2, i)] - lhsm[g.at(0, k, j2, i)] * lhsm[g.at(4, k, j, i)];
                rhs[g.at(m, k, j2, i)] = rhs[g.at(m, k, j2, i)] - lhsm[g.at(0, k, j2, i)] * rhs[g.at(m, k, j, i)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp0 - 2 {
            let m = 3;
            let fac1 = 1.0 / lhsp[g.at(2, k, j, i)];
            lhsp[g.at(3, k, j, i)] = fac1 * lhsp[g.at(3, k, j, i)];
            lhsp[g.at(4, k, j, i)] = fac1 * lhsp[g.at(4, k, j, i)];
            rhs[g.at(m, k, j, i)] = fac1 * rhs[g.at(m, k, j, i)];
            lhsp[g.at(2, k, j1, i)] = lhsp[g.at(2, k, j1, i)] - lhsp[g.at(1, k, j1, i)] * lhsp[g.at(3, k, j, i)];
            lhsp[g.at(3, k, j1, i)] = lhsp[g.at(3, k, j1, i)] - lhsp[g.at(1, k, j1, i)] * lhsp[g.at(4, k, j, i)];
            rhs[g.at(m, k, j1, i)] = rhs[g.at(m, k, j1, i)] - lhsp[g.at(1, k, j1, i)] * rhs[g.at(m, k, j, i)];
            let m = 4;
            let fac1 = 1.0 / lhsm[g.at(2, k, j, i)];
            lhsm[g.at(3, k, j, i)] = fac1 * lhsm[g.at(3, k, j, i)];
            lhsm[g.at(4, k, j, i)] = fac1 * lhsm[g.at(4, k, j, i)];
            rhs[g.at(m, k, j, i)] = fac1 * rhs[g.at(m, k, j, i)];
            lhsm[g.at(2, k, j1, i)] = lhsm[g.at(2, k, j1, i)] - lhsm[g.at(1, k, j1, i)] * lhsm[g.at(3, k, j, i)];
            lhsm[g.at(3, k, j1, i)] = lhsm[g.at(3, k, j1, i)] - lhsm[g.at(1, k, j1, i)] * lhsm[g.at(4, k, j, i)];
            rhs[g.at(m, k, j1, i)] = rhs[g.at(m, k, j1, i)] - lhsm[g.at(1, k, j1, i)] * rhs[g.at(m, k, j, i)];
            rhs[g.at(3, k, j1, i)] = rhs[g.at(3, k, j1, i)] / lhsp[g.at(2, k, j1, i)];
            rhs[g.at(4, k, j1, i)] = rhs[g.at(4, k, j1, i)] / lhsm[g.at(2, k, j1, i)];
        }
    }
}

/// The eta solve, back substitution.
#[acc::parallel(num_gangs(g.gp2-2), num_workers(8), vector_length(32))]
fn y_solve_back(rhs: &mut [f64], lhs: &[f64], lhsp: &[f64], lhsm: &[f64], g: Grid) {
    let Grid { gp0, gp1, gp2, .. } = g;
    let j = gp1 - 2;
    let j1 = gp1 - 1;
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp0 - 2 {
            for m in 0..3 {
                rhs[g.at(m, k, j, i)] = rhs[g.at(m, k, j, i)] - lhs[g.at(3, k, j, i)] * rhs[g.at(m, k, j1, i)];
            }
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhsp[g.at(3, k, j, i)] * rhs[g.at(3, k, j1, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhsm[g.at(3, k, j, i)] * rhs[g.at(4, k, j1, i)];
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=gp2 - 2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp0 - 2 {
            for j in (0..=gp1 - 3).rev() {
                let j1 = j + 1;
                let j2 = j + 2;
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.at(3, k, j, i)] * rhs[g.at(0, k, j1, i)] - lhs[g.at(4, k, j, i)] * rhs[g.at(0, k, j2, i)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.at(3, k, j, i)] * rhs[g.at(1, k, j1, i)] - lhs[g.at(4, k, j, i)] * rhs[g.at(1, k, j2, i)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.at(3, k, j, i)] * rhs[g.at(2, k, j1, i)] - lhs[g.at(4, k, j, i)] * rhs[g.at(2, k, j2, i)];
                rhs[g.at(3, k, j, i)] =
                    rhs[g.at(3, k, j, i)] - lhsp[g.at(3, k, j, i)] * rhs[g.at(3, k, j1, i)] - lhsp[g.at(4, k, j, i)] * rhs[g.at(3, k, j2, i)];
                rhs[g.at(4, k, j, i)] =
                    rhs[g.at(4, k, j, i)] - lhsm[g.at(3, k, j, i)] * rhs[g.at(4, k, j1, i)] - lhsm[g.at(4, k, j, i)] * rhs[g.at(4, k, j2, i)];
            }
        }
    }
}

/// The zeta factors along each line.
#[acc::parallel(num_gangs(g.ny2), num_workers(8), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn z_solve_lhs(ws: &[f64], rho_i: &[f64], speed: &[f64], lhs: &mut [f64], lhsp: &mut [f64], lhsm: &mut [f64], rhon: &mut [f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, nz2, .. } = g;
    let ni = nz2 + 1;
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for m in 0..5 {
                lhs[g.at(m, j, 0, i)] = 0.0;
                lhsp[g.at(m, j, 0, i)] = 0.0;
                lhsm[g.at(m, j, 0, i)] = 0.0;
                lhs[g.at(m, j, ni, i)] = 0.0;
                lhsp[g.at(m, j, ni, i)] = 0.0;
                lhsm[g.at(m, j, ni, i)] = 0.0;
            }
            lhs[g.at(2, j, 0, i)] = 1.0;
            lhsp[g.at(2, j, 0, i)] = 1.0;
            lhsm[g.at(2, j, 0, i)] = 1.0;
            lhs[g.at(2, j, ni, i)] = 1.0;
            lhsp[g.at(2, j, ni, i)] = 1.0;
            lhsm[g.at(2, j, ni, i)] = 1.0;
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker)]
        for i in 1..=nx2 {
            #[acc::r#loop(vector)]
            for k in 0..=nz2 + 1 {
                let ru1 = cs.c3c4 * rho_i[g.at3(k, j, i)];
                rhon[g.at3(j, i, k)] = f64::max(f64::max(cs.dz4 + cs.con43 * ru1, cs.dz5 + cs.c1c5 * ru1), f64::max(cs.dzmax + ru1, cs.dz1));
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker)]
        for i in 1..=nx2 {
            #[acc::r#loop(vector)]
            for k in 1..=nz2 {
                lhs[g.at(0, j, k, i)] = 0.0;
                lhs[g.at(1, j, k, i)] = -cs.dttz2 * ws[g.at3(k - 1, j, i)] - cs.dttz1 * rhon[g.at3(j, i, k - 1)];
                lhs[g.at(2, j, k, i)] = 1.0 + cs.c2dttz1 * rhon[g.at3(j, i, k)];
                lhs[g.at(3, j, k, i)] = cs.dttz2 * ws[g.at3(k + 1, j, i)] - cs.dttz1 * rhon[g.at3(j, i, k + 1)];
                lhs[g.at(4, j, k, i)] = 0.0;
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            let k = 1;
            lhs[g.at(2, j, k, i)] = lhs[g.at(2, j, k, i)] + cs.comz5;
            lhs[g.at(3, j, k, i)] = lhs[g.at(3, j, k, i)] - cs.comz4;
            lhs[g.at(4, j, k, i)] = lhs[g.at(4, j, k, i)] + cs.comz1;
            let k = 2;
            lhs[g.at(1, j, k, i)] = lhs[g.at(1, j, k, i)] - cs.comz4;
            lhs[g.at(2, j, k, i)] = lhs[g.at(2, j, k, i)] + cs.comz6;
            lhs[g.at(3, j, k, i)] = lhs[g.at(3, j, k, i)] - cs.comz4;
            lhs[g.at(4, j, k, i)] = lhs[g.at(4, j, k, i)] + cs.comz1;
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker)]
        for k in 3..=nz2 - 2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                lhs[g.at(0, j, k, i)] = lhs[g.at(0, j, k, i)] + cs.comz1;
                lhs[g.at(1, j, k, i)] = lhs[g.at(1, j, k, i)] - cs.comz4;
                lhs[g.at(2, j, k, i)] = lhs[g.at(2, j, k, i)] + cs.comz6;
                lhs[g.at(3, j, k, i)] = lhs[g.at(3, j, k, i)] - cs.comz4;
                lhs[g.at(4, j, k, i)] = lhs[g.at(4, j, k, i)] + cs.comz1;
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            let k = nz2 - 1;
            lhs[g.at(0, j, k, i)] = lhs[g.at(0, j, k, i)] + cs.comz1;
            lhs[g.at(1, j, k, i)] = lhs[g.at(1, j, k, i)] - cs.comz4;
            lhs[g.at(2, j, k, i)] = lhs[g.at(2, j, k, i)] + cs.comz6;
            lhs[g.at(3, j, k, i)] = lhs[g.at(3, j, k, i)] - cs.comz4;
            let k = nz2;
            lhs[g.at(0, j, k, i)] = lhs[g.at(0, j, k, i)] + cs.comz1;
            lhs[g.at(1, j, k, i)] = lhs[g.at(1, j, k, i)] - cs.comz4;
            lhs[g.at(2, j, k, i)] = lhs[g.at(2, j, k, i)] + cs.comz5;
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker)]
        for k in 1..=nz2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                lhsp[g.at(0, j, k, i)] = lhs[g.at(0, j, k, i)];
                lhsp[g.at(1, j, k, i)] = lhs[g.at(1, j, k, i)] - cs.dttz2 * speed[g.at3(k - 1, j, i)];
                lhsp[g.at(2, j, k, i)] = lhs[g.at(2, j, k, i)];
                lhsp[g.at(3, j, k, i)] = lhs[g.at(3, j, k, i)] + cs.dttz2 * speed[g.at3(k + 1, j, i)];
                lhsp[g.at(4, j, k, i)] = lhs[g.at(4, j, k, i)];
                lhsm[g.at(0, j, k, i)] = lhs[g.at(0, j, k, i)];
                lhsm[g.at(1, j, k, i)] = lhs[g.at(1, j, k, i)] + cs.dttz2 * speed[g.at3(k - 1, j, i)];
                lhsm[g.at(2, j, k, i)] = lhs[g.at(2, j, k, i)];
                lhsm[g.at(3, j, k, i)] = lhs[g.at(3, j, k, i)] - cs.dttz2 * speed[g.at3(k + 1, j, i)];
                lhsm[g.at(4, j, k, i)] = lhs[g.at(4, j, k, i)];
            }
        }
    }
}

/// The zeta solve, forward elimination.
#[acc::parallel(num_gangs(g.ny2), num_workers(8), vector_length(32))]
fn z_solve_forward(rhs: &mut [f64], lhs: &mut [f64], lhsp: &mut [f64], lhsm: &mut [f64], g: Grid) {
    let Grid {
        nx2, ny2, gp21, gp22, gp23, ..
    } = g;
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for k in 0..=gp23 {
                let k1 = k + 1;
                let k2 = k + 2;
                let fac1 = 1.0 / lhs[g.at(2, j, k, i)];
                lhs[g.at(3, j, k, i)] = fac1 * lhs[g.at(3, j, k, i)];
                lhs[g.at(4, j, k, i)] = fac1 * lhs[g.at(4, j, k, i)];
                rhs[g.at(0, k, j, i)] = fac1 * rhs[g.at(0, k, j, i)];
                rhs[g.at(1, k, j, i)] = fac1 * rhs[g.at(1, k, j, i)];
                rhs[g.at(2, k, j, i)] = fac1 * rhs[g.at(2, k, j, i)];
                lhs[g.at(2, j, k1, i)] = lhs[g.at(2, j, k1, i)] - lhs[g.at(1, j, k1, i)] * lhs[g.at(3, j, k, i)];
                lhs[g.at(3, j, k1, i)] = lhs[g.at(3, j, k1, i)] - lhs[g.at(1, j, k1, i)] * lhs[g.at(4, j, k, i)];
                rhs[g.at(0, k1, j, i)] = rhs[g.at(0, k1, j, i)] - lhs[g.at(1, j, k1, i)] * rhs[g.at(0, k, j, i)];
                rhs[g.at(1, k1, j, i)] = rhs[g.at(1, k1, j, i)] - lhs[g.at(1, j, k1, i)] * rhs[g.at(1, k, j, i)];
                rhs[g.at(2, k1, j, i)] = rhs[g.at(2, k1, j, i)] - lhs[g.at(1, j, k1, i)] * rhs[g.at(2, k, j, i)];
                lhs[g.at(1, j, k2, i)] = lhs[g.at(1, j, k2, i)] - lhs[g.at(0, j, k2, i)] * lhs[g.at(3, j, k, i)];
                lhs[g.at(2, j, k2, i)] = lhs[g.at(2, j, k2, i)] - lhs[g.at(0, j, k2, i)] * lhs[g.at(4, j, k, i)];
                rhs[g.at(0, k2, j, i)] = rhs[g.at(0, k2, j, i)] - lhs[g.at(0, j, k2, i)] * rhs[g.at(0, k, j, i)];
                rhs[g.at(1, k2, j, i)] = rhs[g.at(1, k2, j, i)] - lhs[g.at(0, j, k2, i)] * rhs[g.at(1, k, j, i)];
                rhs[g.at(2, k2, j, i)] = rhs[g.at(2, k2, j, i)] - lhs[g.at(0, j, k2, i)] * rhs[g.at(2, k, j, i)];
            }
        }
    }
    let k = gp22;
    let k1 = gp21;
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            let fac1 = 1.0 / lhs[g.at(2, j, k, i)];
            lhs[g.at(3, j, k, i)] = fac1 * lhs[g.at(3, j, k, i)];
            lhs[g.at(4, j, k, i)] = fac1 * lhs[g.at(4, j, k, i)];
            rhs[g.at(0, k, j, i)] = fac1 * rhs[g.at(0, k, j, i)];
            rhs[g.at(1, k, j, i)] = fac1 * rhs[g.at(1, k, j, i)];
            rhs[g.at(2, k, j, i)] = fac1 * rhs[g.at(2, k, j, i)];
            lhs[g.at(2, j, k1, i)] = lhs[g.at(2, j, k1, i)] - lhs[g.at(1, j, k1, i)] * lhs[g.at(3, j, k, i)];
            lhs[g.at(3, j, k1, i)] = lhs[g.at(3, j, k1, i)] - lhs[g.at(1, j, k1, i)] * lhs[g.at(4, j, k, i)];
            rhs[g.at(0, k1, j, i)] = rhs[g.at(0, k1, j, i)] - lhs[g.at(1, j, k1, i)] * rhs[g.at(0, k, j, i)];
            rhs[g.at(1, k1, j, i)] = rhs[g.at(1, k1, j, i)] - lhs[g.at(1, j, k1, i)] * rhs[g.at(1, k, j, i)];
            rhs[g.at(2, k1, j, i)] = rhs[g.at(2, k1, j, i)] - lhs[g.at(1, j, k1, i)] * rhs[g.at(2, k, j, i)];
            let fac2 = 1.0 / lhs[g.at(2, j, k1, i)];
            rhs[g.at(0, k1, j, i)] = fac2 * rhs[g.at(0, k1, j, i)];
            rhs[g.at(1, k1, j, i)] = fac2 * rhs[g.at(1, k1, j, i)];
            rhs[g.at(2, k1, j, i)] = fac2 * rhs[g.at(2, k1, j, i)];
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for k in 0..=gp23 {
                let k1 = k + 1;
                let k2 = k + 2;
                let m = 3;
                let fac1 = 1.0 / lhsp[g.at(2, j, k, i)];
                lhsp[g.at(3, j, k, i)] = fac1 * lhsp[g.at(3, j, k, i)];
                lhsp[g.at(4, j, k, i)] = fac1 * lhsp[g.at(4, j, k, i)];
                rhs[g.at(m, k, j, i)] = fac1 * rhs[g.at(m, k, j, i)];
                lhsp[g.at(2, j, k1, i)] = lhsp[g.at(2, j, k1, i)] - lhsp[g.at(1, j, k1, i)] * lhsp[g.at(3, j, k, i)];
                lhsp[g.at(3, j, k1, i)] = lhsp[g.at(3, j, k1, i)] - lhsp[g.at(1, j, k1, i)] * lhsp[g.at(4, j, k, i)];
                rhs[g.at(m, k1, j, i)] = rhs[g.at(m, k1, j, i)] - lhsp[g.at(1, j, k1, i)] * rhs[g.at(m, k, j, i)];
                lhsp[g.at(1, j, k2, i)] = lhsp[g.at(1, j, k2, i)] - lhsp[g.at(0, j, k2, i)] * lhsp[g.at(3, j, k, i)];
                lhsp[g.at(2, j, k2, i)] = lhsp[g.at(2, j, k2, i)] - lhsp[g.at(0, j, k2, i)] * lhsp[g.at(4, j, k, i)];
                rhs[g.at(m, k2, j, i)] = rhs[g.at(m, k2, j, i)] - lhsp[g.at(0, j, k2, i)] * rhs[g.at(m, k, j, i)];
                let m = 4;
                let fac1 = 1.0 / lhsm[g.at(2, j, k, i)];
                lhsm[g.at(3, j, k, i)] = fac1 * lhsm[g.at(3, j, k, i)];
                lhsm[g.at(4, j, k, i)] = fac1 * lhsm[g.at(4, j, k, i)];
                rhs[g.at(m, k, j, i)] = fac1 * rhs[g.at(m, k, j, i)];
                lhsm[g.at(2, j, k1, i)] = lhsm[g.at(2, j, k1, i)] - lhsm[g.at(1, j, k1, i)] * lhsm[g.at(3, j, k, i)];
                lhsm[g.at(3, j, k1, i)] = lhsm[g.at(3, j, k1, i)] - lhsm[g.at(1, j, k1, i)] * lhsm[g.at(4, j, k, i)];
                rhs[g.at(m, k1, j, i)] = rhs[g.at(m, k1, j, i)] - lhsm[g.at(1, j, k1, i)] * rhs[g.at(m, k, j, i)];
                lhsm[g.at(1, j, k2, i)] = lhsm[g.at(1, j, k2, i)] - lhsm[g.at(0, j, k2, i)] * lhsm[g.at(3, j, k, i)];
                lhsm[g.at(2, j, k2, i)] = lhsm[g.at(2, j, k2, i)] - lhsm[g.at(0, j, k2, i)] * lhsm[g.at(4, j, k, i)];
                rhs[g.at(m, k2, j, i)] = rhs[g.at(m, k2, j, i)] - lhsm[g.at(0, j, k2, i)] * rhs[g.at(m, k, j, i)];
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            let m = 3;
            let fac1 = 1.0 / lhsp[g.at(2, j, k, i)];
            lhsp[g.at(3, j, k, i)] = fac1 * lhsp[g.at(3, j, k, i)];
            lhsp[g.at(4, j, k, i)] = fac1 * lhsp[g.at(4, j, k, i)];
            rhs[g.at(m, k, j, i)] = fac1 * rhs[g.at(m, k, j, i)];
            lhsp[g.at(2, j, k1, i)] = lhsp[g.at(2, j, k1, i)] - lhsp[g.at(1, j, k1, i)] * lhsp[g.at(3, j, k, i)];
            lhsp[g.at(3, j, k1, i)] = lhsp[g.at(3, j, k1, i)] - lhsp[g.at(1, j, k1, i)] * lhsp[g.at(4, j, k, i)];
            rhs[g.at(m, k1, j, i)] = rhs[g.at(m, k1, j, i)] - lhsp[g.at(1, j, k1, i)] * rhs[g.at(m, k, j, i)];
            let m = 4;
            let fac1 = 1.0 / lhsm[g.at(2, j, k, i)];
            lhsm[g.at(3, j, k, i)] = fac1 * lhsm[g.at(3, j, k, i)];
            lhsm[g.at(4, j, k, i)] = fac1 * lhsm[g.at(4, j, k, i)];
            rhs[g.at(m, k, j, i)] = fac1 * rhs[g.at(m, k, j, i)];
            lhsm[g.at(2, j, k1, i)] = lhsm[g.at(2, j, k1, i)] - lhsm[g.at(1, j, k1, i)] * lhsm[g.at(3, j, k, i)];
            lhsm[g.at(3, j, k1, i)] = lhsm[g.at(3, j, k1, i)] - lhsm[g.at(1, j, k1, i)] * lhsm[g.at(4, j, k, i)];
            rhs[g.at(m, k1, j, i)] = rhs[g.at(m, k1, j, i)] - lhsm[g.at(1, j, k1, i)] * rhs[g.at(m, k, j, i)];
            rhs[g.at(3, k1, j, i)] = rhs[g.at(3, k1, j, i)] / lhsp[g.at(2, j, k1, i)];
            rhs[g.at(4, k1, j, i)] = rhs[g.at(4, k1, j, i)] / lhsm[g.at(2, j, k1, i)];
        }
    }
}

/// The zeta solve, back substitution.
#[acc::parallel(num_gangs(g.ny2), num_workers(8), vector_length(32))]
fn z_solve_back(rhs: &mut [f64], lhs: &[f64], lhsp: &[f64], lhsm: &[f64], g: Grid) {
    let Grid {
        nx2, ny2, gp21, gp22, gp23, ..
    } = g;
    let k = gp22;
    let k1 = gp21;
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.at(3, j, k, i)] * rhs[g.at(0, k1, j, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.at(3, j, k, i)] * rhs[g.at(1, k1, j, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.at(3, j, k, i)] * rhs[g.at(2, k1, j, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhsp[g.at(3, j, k, i)] * rhs[g.at(3, k1, j, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhsm[g.at(3, j, k, i)] * rhs[g.at(4, k1, j, i)];
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=ny2 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=nx2 {
            for k in (0..=gp23).rev() {
                let k1 = k + 1;
                let k2 = k + 2;
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.at(3, j, k, i)] * rhs[g.at(0, k1, j, i)] - lhs[g.at(4, j, k, i)] * rhs[g.at(0, k2, j, i)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.at(3, j, k, i)] * rhs[g.at(1, k1, j, i)] - lhs[g.at(4, j, k, i)] * rhs[g.at(1, k2, j, i)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.at(3, j, k, i)] * rhs[g.at(2, k1, j, i)] - lhs[g.at(4, j, k, i)] * rhs[g.at(2, k2, j, i)];
                rhs[g.at(3, k, j, i)] =
                    rhs[g.at(3, k, j, i)] - lhsp[g.at(3, j, k, i)] * rhs[g.at(3, k1, j, i)] - lhsp[g.at(4, j, k, i)] * rhs[g.at(3, k2, j, i)];
                rhs[g.at(4, k, j, i)] =
                    rhs[g.at(4, k, j, i)] - lhsm[g.at(3, j, k, i)] * rhs[g.at(4, k1, j, i)] - lhsm[g.at(4, j, k, i)] * rhs[g.at(4, k2, j, i)];
            }
        }
    }
}

/// The block-diagonal matrix-vector product before the solves: `T_xi^-1 rhs`.
#[acc::parallel(num_gangs(g.nz2), num_workers(16), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn txinvr(rhs: &mut [f64], us: &[f64], vs: &[f64], ws: &[f64], qs: &[f64], rho_i: &[f64], speed: &[f64], g: Grid, cs: Consts) {
    let Grid { nx2, ny2, nz2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                let ru1 = rho_i[g.at3(k, j, i)];
                let uu = us[g.at3(k, j, i)];
                let vv = vs[g.at3(k, j, i)];
                let ww = ws[g.at3(k, j, i)];
                let ac = speed[g.at3(k, j, i)];
                let ac2inv = ac * ac;
                let r1 = rhs[g.at(0, k, j, i)];
                let r2 = rhs[g.at(1, k, j, i)];
                let r3 = rhs[g.at(2, k, j, i)];
                let r4 = rhs[g.at(3, k, j, i)];
                let r5 = rhs[g.at(4, k, j, i)];
                let t1 = cs.c2 / ac2inv * (qs[g.at3(k, j, i)] * r1 - uu * r2 - vv * r3 - ww * r4 + r5);
                let t2 = cs.bt * ru1 * (uu * r1 - r2);
                let t3 = (cs.bt * ru1 * ac) * t1;
                rhs[g.at(0, k, j, i)] = r1 - t1;
                rhs[g.at(1, k, j, i)] = -ru1 * (ww * r1 - r4);
                rhs[g.at(2, k, j, i)] = ru1 * (vv * r1 - r3);
                rhs[g.at(3, k, j, i)] = -t2 + t3;
                rhs[g.at(4, k, j, i)] = t2 + t3;
            }
        }
    }
}

/// `u += rhs` over the interior.
#[acc::parallel(num_gangs(g.nz2), num_workers(8), vector_length(32))]
fn add(u: &mut [f64], rhs: &[f64], g: Grid) {
    let Grid { nx2, ny2, nz2, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=nz2 {
        #[acc::r#loop(worker)]
        for j in 1..=ny2 {
            #[acc::r#loop(vector)]
            for i in 1..=nx2 {
                u[g.at(0, k, j, i)] = u[g.at(0, k, j, i)] + rhs[g.at(0, k, j, i)];
                u[g.at(1, k, j, i)] = u[g.at(1, k, j, i)] + rhs[g.at(1, k, j, i)];
                u[g.at(2, k, j, i)] = u[g.at(2, k, j, i)] + rhs[g.at(2, k, j, i)];
                u[g.at(3, k, j, i)] = u[g.at(3, k, j, i)] + rhs[g.at(3, k, j, i)];
                u[g.at(4, k, j, i)] = u[g.at(4, k, j, i)] + rhs[g.at(4, k, j, i)];
            }
        }
    }
}

/// The device arrays: the solution, its right-hand side and forcing, the primitive
/// variables, and the solves' scratch.
struct Fields<'a> {
    u: &'a mut [f64],
    rhs: &'a mut [f64],
    forcing: &'a [f64],
    us: &'a mut [f64],
    vs: &'a mut [f64],
    ws: &'a mut [f64],
    qs: &'a mut [f64],
    rho_i: &'a mut [f64],
    speed: &'a mut [f64],
    square: &'a mut [f64],
    lhs: &'a mut [f64],
    lhsp: &'a mut [f64],
    lhsm: &'a mut [f64],
    rhon: &'a mut [f64],
    rhsx: &'a mut [f64],
}

/// NPB's `compute_rhs`.
fn compute_rhs(f: &mut Fields, g: Grid, cs: Consts) {
    rhs_init(f.u, f.rhs, f.forcing, f.us, f.vs, f.ws, f.qs, f.rho_i, f.speed, f.square, g, cs);
    rhs_xy(f.u, f.rhs, f.us, f.vs, f.ws, f.qs, f.rho_i, f.square, g, cs);
    rhs_z_lo(f.u, f.rhs, g, cs);
    rhs_z(f.u, f.rhs, g, cs);
    rhs_z_hi(f.u, f.rhs, g, cs);
    rhs_dt(f.rhs, g, cs);
}

/// One time step: NPB's `adi`.
fn adi(f: &mut Fields, g: Grid, cs: Consts) {
    compute_rhs(f, g, cs);
    txinvr(f.rhs, f.us, f.vs, f.ws, f.qs, f.rho_i, f.speed, g, cs);
    x_solve_transpose(f.rhs, f.rhsx, g);
    x_solve_lhs(f.us, f.rho_i, f.speed, f.lhs, f.lhsp, f.lhsm, f.rhon, g, cs);
    x_solve_forward(f.lhs, f.lhsp, f.lhsm, f.rhsx, g);
    x_solve_back(f.rhs, f.lhs, f.lhsp, f.lhsm, f.rhsx, g);
    ninvr(f.rhs, g, cs);
    y_solve_lhs(f.vs, f.rho_i, f.lhs, f.lhsp, f.lhsm, f.rhon, g, cs);
    y_solve_lhs_pm(f.speed, f.lhs, f.lhsp, f.lhsm, g, cs);
    y_solve_forward(f.rhs, f.lhs, f.lhsp, f.lhsm, g);
    y_solve_back(f.rhs, f.lhs, f.lhsp, f.lhsm, g);
    pinvr(f.rhs, g, cs);
    z_solve_lhs(f.ws, f.rho_i, f.speed, f.lhs, f.lhsp, f.lhsm, f.rhon, g, cs);
    z_solve_forward(f.rhs, f.lhs, f.lhsp, f.lhsm, g);
    z_solve_back(f.rhs, f.lhs, f.lhsp, f.lhsm, g);
    tzetar(f.u, f.rhs, f.us, f.vs, f.ws, f.qs, f.speed, g, cs);
    add(f.u, f.rhs, g);
}

pub fn run(class: Class) -> Report {
    let pr = params(class);
    let g = Grid::new(pr.n);
    let cs = Consts::new(&g, pr.dt);
    println!("\n\n NAS Parallel Benchmarks (NPB3.3, acc) - SP Benchmark\n");
    println!(" Size: {:4}x{:4}x{:4}", g.gp0, g.gp1, g.gp2);
    println!(" Iterations: {:4}    dt: {:10.6}", pr.niter, pr.dt);
    println!();

    let mut u = vec![0.0; g.len(5)];
    let mut rhs = vec![0.0; g.len(5)];
    let mut forcing = vec![0.0; g.len(5)];
    let mut us = vec![0.0; g.len(1)];
    let mut vs = vec![0.0; g.len(1)];
    let mut ws = vec![0.0; g.len(1)];
    let mut qs = vec![0.0; g.len(1)];
    let mut rho_i = vec![0.0; g.len(1)];
    let mut speed = vec![0.0; g.len(1)];
    let mut square = vec![0.0; g.len(1)];
    let mut lhs = vec![0.0; g.len(5)];
    let mut lhsp = vec![0.0; g.len(5)];
    let mut lhsm = vec![0.0; g.len(5)];
    let mut rhon = vec![0.0; g.len(1)];
    let mut rhsx = vec![0.0; g.len(5)];
    let (xce, xcr, time) = acc::data!(create(u, us, vs, ws, qs, rho_i, speed, square, forcing, rhs, lhs, lhsp, lhsm, rhon, rhsx) {
        exact_rhs(&mut forcing, &g, &cs);
        acc::update!(device(forcing));
        initialize(&mut u, &g, &cs);
        acc::update!(device(u));
        let mut f = Fields {
            u: &mut u,
            rhs: &mut rhs,
            forcing: &forcing,
            us: &mut us,
            vs: &mut vs,
            ws: &mut ws,
            qs: &mut qs,
            rho_i: &mut rho_i,
            speed: &mut speed,
            square: &mut square,
            lhs: &mut lhs,
            lhsp: &mut lhsp,
            lhsm: &mut lhsm,
            rhon: &mut rhon,
            rhsx: &mut rhsx,
        };
        // One time step untimed, to touch all code and data.
        adi(&mut f, g, cs);
        initialize(f.u, &g, &cs);
        acc::update!(device(f.u));
        let mut timer = Timer::new();
        timer.start();
        for step in 1..=pr.niter {
            if step % 20 == 0 || step == 1 {
                println!(" Time step {step:4}");
            }
            adi(&mut f, g, cs);
        }
        acc::update!(host(f.u));
        timer.stop();
        let xce = error_norm(f.u, &g, &cs);
        compute_rhs(&mut f, g, cs);
        acc::update!(host(f.rhs));
        (xce, rhs_norm(f.rhs, &g).map(|r| r / pr.dt), timer.read())
    });
    let verified = verify(&class.to_string(), (&pr.xcr, &pr.xce), &xcr, &xce);
    let n3 = (g.gp0 * g.gp1 * g.gp2) as f64;
    let t = (g.gp0 + g.gp1 + g.gp2) as f64 / 3.0;
    let flops = (881.174 * n3 - 4683.91 * (t * t) + 11484.5 * t - 19272.4) * pr.niter as f64;
    Report {
        name: "SP",
        class,
        size: Size::Grid(g.gp0 as u32, g.gp1 as u32, g.gp2 as u32),
        iterations: pr.niter,
        time,
        mops: if time != 0.0 { flops / time / 1.0e6 } else { 0.0 },
        optype: "          floating point",
        verified,
    }
}
