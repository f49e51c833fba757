//! BT, the block tri-diagonal pseudo-application: the compressible Navier-Stokes equations
//! on a cube by the Beam-Warming approximate factorisation, each time step three sets of
//! block tri-diagonal systems of 5x5 blocks, one along each axis.
//!
//! As NPB-ACC's `BT` writes it: the fields in one data region around the time steps (`u`
//! and the forcing set on the host and sent with `acc::update!`); the right-hand side and the
//! update are regions of `gang` over planes, `worker` over rows, `vector` along a row; each
//! axis's solve builds the fluxes' Jacobians (`fjac`, `njac`) and the systems (`lhs`, blocks
//! `AA`, `BB`, `CC` of each row) with a gang per plane, then eliminates with a gang per plane
//! and a thread per line running its line's block Gauss elimination in order, the 5x5 block
//! products (NPB's `matvec_sub`, `matmul_sub`, `binvcrhs`, `binvrhs`) written out; the back
//! substitution is a region per row. The Jacobians and systems are device scratch, created
//! once.

use crate::cfd::{error_norm, exact_rhs, initialize, rhs_norm, verify, Consts, Grid};
use crate::class::Class;
use crate::report::{Report, Size};
use crate::timer::Timer;

/// The blocks of a row of `lhs`: below, on and above the diagonal.
const AA: usize = 0;
const BB: usize = 1;
const CC: usize = 2;

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
            60,
            1.0e-2,
            [
                1.7034283709541311e-01,
                1.2975252070034097e-02,
                3.2527926989486055e-02,
                2.6436421275166801e-02,
                1.9211784131744430e-01,
            ],
            [
                4.9976913345811579e-04,
                4.5195666782961927e-05,
                7.3973765172921357e-05,
                7.3821238632439731e-05,
                8.9269630987491446e-04,
            ],
        ),
        Class::W => (
            24,
            200,
            0.8e-3,
            [
                0.1125590409344e+03,
                0.1180007595731e+02,
                0.2710329767846e+02,
                0.2469174937669e+02,
                0.2638427874317e+03,
            ],
            [
                0.4419655736008e+01,
                0.4638531260002e+00,
                0.1011551749967e+01,
                0.9235878729944e+00,
                0.1018045837718e+02,
            ],
        ),
        Class::A => (
            64,
            200,
            0.8e-3,
            [
                1.0806346714637264e+02,
                1.1319730901220813e+01,
                2.5974354511582465e+01,
                2.3665622544678910e+01,
                2.5278963211748344e+02,
            ],
            [
                4.2348416040525025e+00,
                4.4390282496995698e-01,
                9.6692480136345650e-01,
                8.8302063039765474e-01,
                9.7379901770829278e+00,
            ],
        ),
        Class::B => (
            102,
            200,
            3.0e-4,
            [
                1.4233597229287254e+03,
                9.9330522590150238e+01,
                3.5646025644535285e+02,
                3.2485447959084092e+02,
                3.2707541254659363e+03,
            ],
            [
                5.2969847140936856e+01,
                4.4632896115670668e+00,
                1.3122573342210174e+01,
                1.2006925323559144e+01,
                1.2459576151035986e+02,
            ],
        ),
        Class::C => (
            162,
            200,
            1.0e-4,
            [
                0.62398116551764615e+04,
                0.50793239190423964e+03,
                0.15423530093013596e+04,
                0.13302387929291190e+04,
                0.11604087428436455e+05,
            ],
            [
                0.16462008369091265e+03,
                0.11497107903824313e+02,
                0.41207446207461508e+02,
                0.37087651059694167e+02,
                0.36211053051841265e+03,
            ],
        ),
        Class::D => (
            408,
            250,
            0.2e-4,
            [
                0.2533188551738e+05,
                0.2346393716980e+04,
                0.6294554366904e+04,
                0.5352565376030e+04,
                0.3905864038618e+05,
            ],
            [
                0.3100009377557e+03,
                0.2424086324913e+02,
                0.7782212022645e+02,
                0.6835623860116e+02,
                0.6065737200368e+03,
            ],
        ),
    };
    Params { n, niter, dt, xcr, xce }
}
/// The primitive variables from `u`, and `rhs = forcing`.
#[acc::parallel(num_gangs(192), num_workers(16), vector_length(32))]
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
    square: &mut [f64],
    g: Grid,
) {
    let Grid { gp01, gp11, gp21, .. } = g;
    #[acc::r#loop(gang)]
    for k in 0..=gp21 {
        #[acc::r#loop(worker)]
        for j in 0..=gp11 {
            #[acc::r#loop(vector)]
            for i in 0..=gp01 {
                let rho_inv = 1.0 / u[g.at(0, k, j, i)];
                rho_i[g.at3(k, j, i)] = rho_inv;
                us[g.at3(k, j, i)] = u[g.at(1, k, j, i)] * rho_inv;
                vs[g.at3(k, j, i)] = u[g.at(2, k, j, i)] * rho_inv;
                ws[g.at3(k, j, i)] = u[g.at(3, k, j, i)] * rho_inv;
                square[g.at3(k, j, i)] = 0.5
                    * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)] + u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)] + u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)])
                    * rho_inv;
                qs[g.at3(k, j, i)] = square[g.at3(k, j, i)] * rho_inv;
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 0..=gp21 {
        #[acc::r#loop(worker)]
        for j in 0..=gp11 {
            #[acc::r#loop(vector)]
            for i in 0..=gp01 {
                rhs[g.at(0, k, j, i)] = forcing[g.at(0, k, j, i)];
                rhs[g.at(1, k, j, i)] = forcing[g.at(1, k, j, i)];
                rhs[g.at(2, k, j, i)] = forcing[g.at(2, k, j, i)];
                rhs[g.at(3, k, j, i)] = forcing[g.at(3, k, j, i)];
                rhs[g.at(4, k, j, i)] = forcing[g.at(4, k, j, i)];
            }
        }
    }
}

/// The xi fluxes, their differences and fourth-order dissipation.
#[acc::parallel(num_gangs(192), num_workers(16), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn rhs_x(u: &[f64], rhs: &mut [f64], us: &[f64], vs: &[f64], ws: &[f64], qs: &[f64], rho_i: &[f64], square: &[f64], g: Grid, cs: Consts) {
    let Grid { gp0, gp02, gp12, gp22, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker)]
        for j in 1..=gp12 {
            #[acc::r#loop(vector)]
            for i in 1..=gp02 {
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
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=gp12 {
            let i = 1;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - cs.dssp * (5.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k, j, i + 1)] + u[g.at(0, k, j, i + 2)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - cs.dssp * (5.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k, j, i + 1)] + u[g.at(1, k, j, i + 2)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - cs.dssp * (5.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k, j, i + 1)] + u[g.at(2, k, j, i + 2)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - cs.dssp * (5.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k, j, i + 1)] + u[g.at(3, k, j, i + 2)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - cs.dssp * (5.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k, j, i + 1)] + u[g.at(4, k, j, i + 2)]);
            let i = 2;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(0, k, j, i - 1)] + 6.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k, j, i + 1)] + u[g.at(0, k, j, i + 2)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(1, k, j, i - 1)] + 6.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k, j, i + 1)] + u[g.at(1, k, j, i + 2)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(2, k, j, i - 1)] + 6.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k, j, i + 1)] + u[g.at(2, k, j, i + 2)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(3, k, j, i - 1)] + 6.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k, j, i + 1)] + u[g.at(3, k, j, i + 2)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(4, k, j, i - 1)] + 6.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k, j, i + 1)] + u[g.at(4, k, j, i + 2)]);
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker)]
        for j in 1..=gp12 {
            #[acc::r#loop(vector)]
            for i in 3..=gp02 - 2 {
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                    - cs.dssp
                        * (u[g.at(0, k, j, i - 2)] - 4.0 * u[g.at(0, k, j, i - 1)] + 6.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k, j, i + 1)]
                            + u[g.at(0, k, j, i + 2)]);
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                    - cs.dssp
                        * (u[g.at(1, k, j, i - 2)] - 4.0 * u[g.at(1, k, j, i - 1)] + 6.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k, j, i + 1)]
                            + u[g.at(1, k, j, i + 2)]);
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                    - cs.dssp
                        * (u[g.at(2, k, j, i - 2)] - 4.0 * u[g.at(2, k, j, i - 1)] + 6.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k, j, i + 1)]
                            + u[g.at(2, k, j, i + 2)]);
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                    - cs.dssp
                        * (u[g.at(3, k, j, i - 2)] - 4.0 * u[g.at(3, k, j, i - 1)] + 6.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k, j, i + 1)]
                            + u[g.at(3, k, j, i + 2)]);
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                    - cs.dssp
                        * (u[g.at(4, k, j, i - 2)] - 4.0 * u[g.at(4, k, j, i - 1)] + 6.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k, j, i + 1)]
                            + u[g.at(4, k, j, i + 2)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=gp12 {
            let i = gp0 - 3;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                - cs.dssp * (u[g.at(0, k, j, i - 2)] - 4.0 * u[g.at(0, k, j, i - 1)] + 6.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k, j, i + 1)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                - cs.dssp * (u[g.at(1, k, j, i - 2)] - 4.0 * u[g.at(1, k, j, i - 1)] + 6.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k, j, i + 1)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                - cs.dssp * (u[g.at(2, k, j, i - 2)] - 4.0 * u[g.at(2, k, j, i - 1)] + 6.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k, j, i + 1)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                - cs.dssp * (u[g.at(3, k, j, i - 2)] - 4.0 * u[g.at(3, k, j, i - 1)] + 6.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k, j, i + 1)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                - cs.dssp * (u[g.at(4, k, j, i - 2)] - 4.0 * u[g.at(4, k, j, i - 1)] + 6.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k, j, i + 1)]);
            let i = gp02;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - cs.dssp * (u[g.at(0, k, j, i - 2)] - 4. * u[g.at(0, k, j, i - 1)] + 5. * u[g.at(0, k, j, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - cs.dssp * (u[g.at(1, k, j, i - 2)] - 4. * u[g.at(1, k, j, i - 1)] + 5. * u[g.at(1, k, j, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - cs.dssp * (u[g.at(2, k, j, i - 2)] - 4. * u[g.at(2, k, j, i - 1)] + 5. * u[g.at(2, k, j, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - cs.dssp * (u[g.at(3, k, j, i - 2)] - 4. * u[g.at(3, k, j, i - 1)] + 5. * u[g.at(3, k, j, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - cs.dssp * (u[g.at(4, k, j, i - 2)] - 4. * u[g.at(4, k, j, i - 1)] + 5. * u[g.at(4, k, j, i)]);
        }
    }
}

/// The eta fluxes, their differences and dissipation.
#[acc::parallel(num_gangs(192), num_workers(16), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn rhs_y(u: &[f64], rhs: &mut [f64], us: &[f64], vs: &[f64], ws: &[f64], qs: &[f64], rho_i: &[f64], square: &[f64], g: Grid, cs: Consts) {
    let Grid { gp1, gp02, gp12, gp22, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker)]
        for j in 1..=gp12 {
            #[acc::r#loop(vector)]
            for i in 1..=gp02 {
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
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp02 {
            let j = 1;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - cs.dssp * (5.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k, j + 1, i)] + u[g.at(0, k, j + 2, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - cs.dssp * (5.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k, j + 1, i)] + u[g.at(1, k, j + 2, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - cs.dssp * (5.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k, j + 1, i)] + u[g.at(2, k, j + 2, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - cs.dssp * (5.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k, j + 1, i)] + u[g.at(3, k, j + 2, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - cs.dssp * (5.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k, j + 1, i)] + u[g.at(4, k, j + 2, i)]);
            let j = 2;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(0, k, j - 1, i)] + 6.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k, j + 1, i)] + u[g.at(0, k, j + 2, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(1, k, j - 1, i)] + 6.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k, j + 1, i)] + u[g.at(1, k, j + 2, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(2, k, j - 1, i)] + 6.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k, j + 1, i)] + u[g.at(2, k, j + 2, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(3, k, j - 1, i)] + 6.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k, j + 1, i)] + u[g.at(3, k, j + 2, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(4, k, j - 1, i)] + 6.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k, j + 1, i)] + u[g.at(4, k, j + 2, i)]);
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker)]
        for j in 3..=gp1 - 4 {
            #[acc::r#loop(vector)]
            for i in 1..=gp02 {
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                    - cs.dssp
                        * (u[g.at(0, k, j - 2, i)] - 4.0 * u[g.at(0, k, j - 1, i)] + 6.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k, j + 1, i)]
                            + u[g.at(0, k, j + 2, i)]);
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                    - cs.dssp
                        * (u[g.at(1, k, j - 2, i)] - 4.0 * u[g.at(1, k, j - 1, i)] + 6.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k, j + 1, i)]
                            + u[g.at(1, k, j + 2, i)]);
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                    - cs.dssp
                        * (u[g.at(2, k, j - 2, i)] - 4.0 * u[g.at(2, k, j - 1, i)] + 6.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k, j + 1, i)]
                            + u[g.at(2, k, j + 2, i)]);
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                    - cs.dssp
                        * (u[g.at(3, k, j - 2, i)] - 4.0 * u[g.at(3, k, j - 1, i)] + 6.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k, j + 1, i)]
                            + u[g.at(3, k, j + 2, i)]);
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                    - cs.dssp
                        * (u[g.at(4, k, j - 2, i)] - 4.0 * u[g.at(4, k, j - 1, i)] + 6.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k, j + 1, i)]
                            + u[g.at(4, k, j + 2, i)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp02 {
            let j = gp1 - 3;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                - cs.dssp * (u[g.at(0, k, j - 2, i)] - 4.0 * u[g.at(0, k, j - 1, i)] + 6.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k, j + 1, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                - cs.dssp * (u[g.at(1, k, j - 2, i)] - 4.0 * u[g.at(1, k, j - 1, i)] + 6.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k, j + 1, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                - cs.dssp * (u[g.at(2, k, j - 2, i)] - 4.0 * u[g.at(2, k, j - 1, i)] + 6.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k, j + 1, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                - cs.dssp * (u[g.at(3, k, j - 2, i)] - 4.0 * u[g.at(3, k, j - 1, i)] + 6.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k, j + 1, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                - cs.dssp * (u[g.at(4, k, j - 2, i)] - 4.0 * u[g.at(4, k, j - 1, i)] + 6.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k, j + 1, i)]);
            let j = gp12;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - cs.dssp * (u[g.at(0, k, j - 2, i)] - 4. * u[g.at(0, k, j - 1, i)] + 5. * u[g.at(0, k, j, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - cs.dssp * (u[g.at(1, k, j - 2, i)] - 4. * u[g.at(1, k, j - 1, i)] + 5. * u[g.at(1, k, j, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - cs.dssp * (u[g.at(2, k, j - 2, i)] - 4. * u[g.at(2, k, j - 1, i)] + 5. * u[g.at(2, k, j, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - cs.dssp * (u[g.at(3, k, j - 2, i)] - 4. * u[g.at(3, k, j - 1, i)] + 5. * u[g.at(3, k, j, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - cs.dssp * (u[g.at(4, k, j - 2, i)] - 4. * u[g.at(4, k, j - 1, i)] + 5. * u[g.at(4, k, j, i)]);
        }
    }
}

/// The zeta fluxes, their differences and dissipation.
#[acc::parallel(num_gangs(192), num_workers(16), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn rhs_z(u: &[f64], rhs: &mut [f64], us: &[f64], vs: &[f64], ws: &[f64], qs: &[f64], rho_i: &[f64], square: &[f64], g: Grid, cs: Consts) {
    let Grid { gp2, gp02, gp12, gp22, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker)]
        for j in 1..=gp12 {
            #[acc::r#loop(vector)]
            for i in 1..=gp02 {
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
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp02 {
            let k = 1;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - cs.dssp * (5.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k + 1, j, i)] + u[g.at(0, k + 2, j, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - cs.dssp * (5.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k + 1, j, i)] + u[g.at(1, k + 2, j, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - cs.dssp * (5.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k + 1, j, i)] + u[g.at(2, k + 2, j, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - cs.dssp * (5.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k + 1, j, i)] + u[g.at(3, k + 2, j, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - cs.dssp * (5.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k + 1, j, i)] + u[g.at(4, k + 2, j, i)]);
            let k = 2;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(0, k - 1, j, i)] + 6.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k + 1, j, i)] + u[g.at(0, k + 2, j, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(1, k - 1, j, i)] + 6.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k + 1, j, i)] + u[g.at(1, k + 2, j, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(2, k - 1, j, i)] + 6.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k + 1, j, i)] + u[g.at(2, k + 2, j, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(3, k - 1, j, i)] + 6.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k + 1, j, i)] + u[g.at(3, k + 2, j, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                - cs.dssp * (-4.0 * u[g.at(4, k - 1, j, i)] + 6.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k + 1, j, i)] + u[g.at(4, k + 2, j, i)]);
        }
    }
    #[acc::r#loop(gang)]
    for k in 3..=gp2 - 4 {
        #[acc::r#loop(worker)]
        for j in 1..=gp12 {
            #[acc::r#loop(vector)]
            for i in 1..=gp02 {
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                    - cs.dssp
                        * (u[g.at(0, k - 2, j, i)] - 4.0 * u[g.at(0, k - 1, j, i)] + 6.0 * u[g.at(0, k, j, i)] - 4.0 * u[g.at(0, k + 1, j, i)]
                            + u[g.at(0, k + 2, j, i)]);
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                    - cs.dssp
                        * (u[g.at(1, k - 2, j, i)] - 4.0 * u[g.at(1, k - 1, j, i)] + 6.0 * u[g.at(1, k, j, i)] - 4.0 * u[g.at(1, k + 1, j, i)]
                            + u[g.at(1, k + 2, j, i)]);
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                    - cs.dssp
                        * (u[g.at(2, k - 2, j, i)] - 4.0 * u[g.at(2, k - 1, j, i)] + 6.0 * u[g.at(2, k, j, i)] - 4.0 * u[g.at(2, k + 1, j, i)]
                            + u[g.at(2, k + 2, j, i)]);
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                    - cs.dssp
                        * (u[g.at(3, k - 2, j, i)] - 4.0 * u[g.at(3, k - 1, j, i)] + 6.0 * u[g.at(3, k, j, i)] - 4.0 * u[g.at(3, k + 1, j, i)]
                            + u[g.at(3, k + 2, j, i)]);
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                    - cs.dssp
                        * (u[g.at(4, k - 2, j, i)] - 4.0 * u[g.at(4, k - 1, j, i)] + 6.0 * u[g.at(4, k, j, i)] - 4.0 * u[g.at(4, k + 1, j, i)]
                            + u[g.at(4, k + 2, j, i)]);
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp02 {
            let k = gp2 - 3;
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
            let k = gp22;
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - cs.dssp * (u[g.at(0, k - 2, j, i)] - 4. * u[g.at(0, k - 1, j, i)] + 5. * u[g.at(0, k, j, i)]);
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - cs.dssp * (u[g.at(1, k - 2, j, i)] - 4. * u[g.at(1, k - 1, j, i)] + 5. * u[g.at(1, k, j, i)]);
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - cs.dssp * (u[g.at(2, k - 2, j, i)] - 4. * u[g.at(2, k - 1, j, i)] + 5. * u[g.at(2, k, j, i)]);
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - cs.dssp * (u[g.at(3, k - 2, j, i)] - 4. * u[g.at(3, k - 1, j, i)] + 5. * u[g.at(3, k, j, i)]);
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - cs.dssp * (u[g.at(4, k - 2, j, i)] - 4. * u[g.at(4, k - 1, j, i)] + 5. * u[g.at(4, k, j, i)]);
        }
    }
}

/// `rhs *= dt`.
#[acc::parallel(num_gangs(192), num_workers(16), vector_length(32))]
fn rhs_dt(rhs: &mut [f64], g: Grid, cs: Consts) {
    let Grid { gp02, gp12, gp22, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker)]
        for j in 1..=gp12 {
            #[acc::r#loop(vector)]
            for i in 1..=gp02 {
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] * cs.dt;
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] * cs.dt;
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] * cs.dt;
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] * cs.dt;
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] * cs.dt;
            }
        }
    }
}

/// The xi fluxes' Jacobians `fjac` and the viscous ones `njac` along each line.
#[acc::parallel(num_gangs(g.i_size+1), num_workers(8), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn x_solve_jacobians(u: &[f64], qs: &[f64], rho_i: &[f64], square: &[f64], fjac: &mut [f64], njac: &mut [f64], g: Grid, cs: Consts) {
    let Grid { gp12, gp22, i_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 0..=i_size {
        #[acc::r#loop(worker)]
        for j in 1..=gp12 {
            #[acc::r#loop(vector)]
            for k in 1..=gp22 {
                let temp1 = rho_i[g.at3(k, j, i)];
                let temp2 = temp1 * temp1;
                let temp3 = temp1 * temp2;
                fjac[g.jac(0, 0, i, j, k)] = 0.0;
                fjac[g.jac(0, 1, i, j, k)] = 1.0;
                fjac[g.jac(0, 2, i, j, k)] = 0.0;
                fjac[g.jac(0, 3, i, j, k)] = 0.0;
                fjac[g.jac(0, 4, i, j, k)] = 0.0;
                fjac[g.jac(1, 0, i, j, k)] = -(u[g.at(1, k, j, i)] * temp2 * u[g.at(1, k, j, i)]) + cs.c2 * qs[g.at3(k, j, i)];
                fjac[g.jac(1, 1, i, j, k)] = (2.0 - cs.c2) * (u[g.at(1, k, j, i)] / u[g.at(0, k, j, i)]);
                fjac[g.jac(1, 2, i, j, k)] = -cs.c2 * (u[g.at(2, k, j, i)] * temp1);
                fjac[g.jac(1, 3, i, j, k)] = -cs.c2 * (u[g.at(3, k, j, i)] * temp1);
                fjac[g.jac(1, 4, i, j, k)] = cs.c2;
                fjac[g.jac(2, 0, i, j, k)] = -(u[g.at(1, k, j, i)] * u[g.at(2, k, j, i)]) * temp2;
                fjac[g.jac(2, 1, i, j, k)] = u[g.at(2, k, j, i)] * temp1;
                fjac[g.jac(2, 2, i, j, k)] = u[g.at(1, k, j, i)] * temp1;
                fjac[g.jac(2, 3, i, j, k)] = 0.0;
                fjac[g.jac(2, 4, i, j, k)] = 0.0;
                fjac[g.jac(3, 0, i, j, k)] = -(u[g.at(1, k, j, i)] * u[g.at(3, k, j, i)]) * temp2;
                fjac[g.jac(3, 1, i, j, k)] = u[g.at(3, k, j, i)] * temp1;
                fjac[g.jac(3, 2, i, j, k)] = 0.0;
                fjac[g.jac(3, 3, i, j, k)] = u[g.at(1, k, j, i)] * temp1;
                fjac[g.jac(3, 4, i, j, k)] = 0.0;
                fjac[g.jac(4, 0, i, j, k)] = (cs.c2 * 2.0 * square[g.at3(k, j, i)] - cs.c1 * u[g.at(4, k, j, i)]) * (u[g.at(1, k, j, i)] * temp2);
                fjac[g.jac(4, 1, i, j, k)] =
                    cs.c1 * u[g.at(4, k, j, i)] * temp1 - cs.c2 * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)] * temp2 + qs[g.at3(k, j, i)]);
                fjac[g.jac(4, 2, i, j, k)] = -cs.c2 * (u[g.at(2, k, j, i)] * u[g.at(1, k, j, i)]) * temp2;
                fjac[g.jac(4, 3, i, j, k)] = -cs.c2 * (u[g.at(3, k, j, i)] * u[g.at(1, k, j, i)]) * temp2;
                fjac[g.jac(4, 4, i, j, k)] = cs.c1 * (u[g.at(1, k, j, i)] * temp1);
                njac[g.jac(0, 0, i, j, k)] = 0.0;
                njac[g.jac(0, 1, i, j, k)] = 0.0;
                njac[g.jac(0, 2, i, j, k)] = 0.0;
                njac[g.jac(0, 3, i, j, k)] = 0.0;
                njac[g.jac(0, 4, i, j, k)] = 0.0;
                njac[g.jac(1, 0, i, j, k)] = -cs.con43 * cs.c3c4 * temp2 * u[g.at(1, k, j, i)];
                njac[g.jac(1, 1, i, j, k)] = cs.con43 * cs.c3c4 * temp1;
                njac[g.jac(1, 2, i, j, k)] = 0.0;
                njac[g.jac(1, 3, i, j, k)] = 0.0;
                njac[g.jac(1, 4, i, j, k)] = 0.0;
                njac[g.jac(2, 0, i, j, k)] = -cs.c3c4 * temp2 * u[g.at(2, k, j, i)];
                njac[g.jac(2, 1, i, j, k)] = 0.0;
                njac[g.jac(2, 2, i, j, k)] = cs.c3c4 * temp1;
                njac[g.jac(2, 3, i, j, k)] = 0.0;
                njac[g.jac(2, 4, i, j, k)] = 0.0;
                njac[g.jac(3, 0, i, j, k)] = -cs.c3c4 * temp2 * u[g.at(3, k, j, i)];
                njac[g.jac(3, 1, i, j, k)] = 0.0;
                njac[g.jac(3, 2, i, j, k)] = 0.0;
                njac[g.jac(3, 3, i, j, k)] = cs.c3c4 * temp1;
                njac[g.jac(3, 4, i, j, k)] = 0.0;
                njac[g.jac(4, 0, i, j, k)] = -(cs.con43 * cs.c3c4 - cs.c1345) * temp3 * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)])
                    - (cs.c3c4 - cs.c1345) * temp3 * (u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)])
                    - (cs.c3c4 - cs.c1345) * temp3 * (u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)])
                    - cs.c1345 * temp2 * u[g.at(4, k, j, i)];
                njac[g.jac(4, 1, i, j, k)] = (cs.con43 * cs.c3c4 - cs.c1345) * temp2 * u[g.at(1, k, j, i)];
                njac[g.jac(4, 2, i, j, k)] = (cs.c3c4 - cs.c1345) * temp2 * u[g.at(2, k, j, i)];
                njac[g.jac(4, 3, i, j, k)] = (cs.c3c4 - cs.c1345) * temp2 * u[g.at(3, k, j, i)];
                njac[g.jac(4, 4, i, j, k)] = (cs.c1345) * temp1;
            }
        }
    }
}

/// The xi systems' first and last block rows: the identity.
#[acc::parallel(num_gangs(g.gp12), num_workers(8), vector_length(32))]
fn x_solve_lhsinit(lhs: &mut [f64], g: Grid) {
    let Grid { gp12, gp22, i_size, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            for n in 0..5 {
                for m in 0..5 {
                    lhs[g.lhs(m, n, 0, 0, j, k)] = 0.0;
                    lhs[g.lhs(m, n, 1, 0, j, k)] = 0.0;
                    lhs[g.lhs(m, n, 2, 0, j, k)] = 0.0;
                    lhs[g.lhs(m, n, 0, i_size, j, k)] = 0.0;
                    lhs[g.lhs(m, n, 1, i_size, j, k)] = 0.0;
                    lhs[g.lhs(m, n, 2, i_size, j, k)] = 0.0;
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            lhs[g.lhs(0, 0, 1, 0, j, k)] = 1.0;
            lhs[g.lhs(0, 0, 1, i_size, j, k)] = 1.0;
            lhs[g.lhs(1, 1, 1, 0, j, k)] = 1.0;
            lhs[g.lhs(1, 1, 1, i_size, j, k)] = 1.0;
            lhs[g.lhs(2, 2, 1, 0, j, k)] = 1.0;
            lhs[g.lhs(2, 2, 1, i_size, j, k)] = 1.0;
            lhs[g.lhs(3, 3, 1, 0, j, k)] = 1.0;
            lhs[g.lhs(3, 3, 1, i_size, j, k)] = 1.0;
            lhs[g.lhs(4, 4, 1, 0, j, k)] = 1.0;
            lhs[g.lhs(4, 4, 1, i_size, j, k)] = 1.0;
        }
    }
}

/// The xi block tri-diagonal systems `lhs` (blocks `AA`, `BB`, `CC`) from the Jacobians.
#[acc::parallel(num_gangs(g.i_size-1), num_workers(8), vector_length(32))]
fn x_solve_lhs(lhs: &mut [f64], fjac: &[f64], njac: &[f64], g: Grid, cs: Consts) {
    let Grid { gp12, gp22, i_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=i_size - 1 {
        #[acc::r#loop(worker)]
        for j in 1..=gp12 {
            #[acc::r#loop(vector)]
            for k in 1..=gp22 {
                let temp1 = cs.dt * cs.tx1;
                let temp2 = cs.dt * cs.tx2;
                lhs[g.lhs(0, 0, AA, i, j, k)] = -temp2 * fjac[g.jac(0, 0, i - 1, j, k)] - temp1 * njac[g.jac(0, 0, i - 1, j, k)] - temp1 * cs.dx1;
                lhs[g.lhs(0, 1, AA, i, j, k)] = -temp2 * fjac[g.jac(0, 1, i - 1, j, k)] - temp1 * njac[g.jac(0, 1, i - 1, j, k)];
                lhs[g.lhs(0, 2, AA, i, j, k)] = -temp2 * fjac[g.jac(0, 2, i - 1, j, k)] - temp1 * njac[g.jac(0, 2, i - 1, j, k)];
                lhs[g.lhs(0, 3, AA, i, j, k)] = -temp2 * fjac[g.jac(0, 3, i - 1, j, k)] - temp1 * njac[g.jac(0, 3, i - 1, j, k)];
                lhs[g.lhs(0, 4, AA, i, j, k)] = -temp2 * fjac[g.jac(0, 4, i - 1, j, k)] - temp1 * njac[g.jac(0, 4, i - 1, j, k)];
                lhs[g.lhs(1, 0, AA, i, j, k)] = -temp2 * fjac[g.jac(1, 0, i - 1, j, k)] - temp1 * njac[g.jac(1, 0, i - 1, j, k)];
                lhs[g.lhs(1, 1, AA, i, j, k)] = -temp2 * fjac[g.jac(1, 1, i - 1, j, k)] - temp1 * njac[g.jac(1, 1, i - 1, j, k)] - temp1 * cs.dx2;
                lhs[g.lhs(1, 2, AA, i, j, k)] = -temp2 * fjac[g.jac(1, 2, i - 1, j, k)] - temp1 * njac[g.jac(1, 2, i - 1, j, k)];
                lhs[g.lhs(1, 3, AA, i, j, k)] = -temp2 * fjac[g.jac(1, 3, i - 1, j, k)] - temp1 * njac[g.jac(1, 3, i - 1, j, k)];
                lhs[g.lhs(1, 4, AA, i, j, k)] = -temp2 * fjac[g.jac(1, 4, i - 1, j, k)] - temp1 * njac[g.jac(1, 4, i - 1, j, k)];
                lhs[g.lhs(2, 0, AA, i, j, k)] = -temp2 * fjac[g.jac(2, 0, i - 1, j, k)] - temp1 * njac[g.jac(2, 0, i - 1, j, k)];
                lhs[g.lhs(2, 1, AA, i, j, k)] = -temp2 * fjac[g.jac(2, 1, i - 1, j, k)] - temp1 * njac[g.jac(2, 1, i - 1, j, k)];
                lhs[g.lhs(2, 2, AA, i, j, k)] = -temp2 * fjac[g.jac(2, 2, i - 1, j, k)] - temp1 * njac[g.jac(2, 2, i - 1, j, k)] - temp1 * cs.dx3;
                lhs[g.lhs(2, 3, AA, i, j, k)] = -temp2 * fjac[g.jac(2, 3, i - 1, j, k)] - temp1 * njac[g.jac(2, 3, i - 1, j, k)];
                lhs[g.lhs(2, 4, AA, i, j, k)] = -temp2 * fjac[g.jac(2, 4, i - 1, j, k)] - temp1 * njac[g.jac(2, 4, i - 1, j, k)];
                lhs[g.lhs(3, 0, AA, i, j, k)] = -temp2 * fjac[g.jac(3, 0, i - 1, j, k)] - temp1 * njac[g.jac(3, 0, i - 1, j, k)];
                lhs[g.lhs(3, 1, AA, i, j, k)] = -temp2 * fjac[g.jac(3, 1, i - 1, j, k)] - temp1 * njac[g.jac(3, 1, i - 1, j, k)];
                lhs[g.lhs(3, 2, AA, i, j, k)] = -temp2 * fjac[g.jac(3, 2, i - 1, j, k)] - temp1 * njac[g.jac(3, 2, i - 1, j, k)];
                lhs[g.lhs(3, 3, AA, i, j, k)] = -temp2 * fjac[g.jac(3, 3, i - 1, j, k)] - temp1 * njac[g.jac(3, 3, i - 1, j, k)] - temp1 * cs.dx4;
                lhs[g.lhs(3, 4, AA, i, j, k)] = -temp2 * fjac[g.jac(3, 4, i - 1, j, k)] - temp1 * njac[g.jac(3, 4, i - 1, j, k)];
                lhs[g.lhs(4, 0, AA, i, j, k)] = -temp2 * fjac[g.jac(4, 0, i - 1, j, k)] - temp1 * njac[g.jac(4, 0, i - 1, j, k)];
                lhs[g.lhs(4, 1, AA, i, j, k)] = -temp2 * fjac[g.jac(4, 1, i - 1, j, k)] - temp1 * njac[g.jac(4, 1, i - 1, j, k)];
                lhs[g.lhs(4, 2, AA, i, j, k)] = -temp2 * fjac[g.jac(4, 2, i - 1, j, k)] - temp1 * njac[g.jac(4, 2, i - 1, j, k)];
                lhs[g.lhs(4, 3, AA, i, j, k)] = -temp2 * fjac[g.jac(4, 3, i - 1, j, k)] - temp1 * njac[g.jac(4, 3, i - 1, j, k)];
                lhs[g.lhs(4, 4, AA, i, j, k)] = -temp2 * fjac[g.jac(4, 4, i - 1, j, k)] - temp1 * njac[g.jac(4, 4, i - 1, j, k)] - temp1 * cs.dx5;
                lhs[g.lhs(0, 0, BB, i, j, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(0, 0, i, j, k)] + temp1 * 2.0 * cs.dx1;
                lhs[g.lhs(0, 1, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(0, 1, i, j, k)];
                lhs[g.lhs(0, 2, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(0, 2, i, j, k)];
                lhs[g.lhs(0, 3, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(0, 3, i, j, k)];
                lhs[g.lhs(0, 4, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(0, 4, i, j, k)];
                lhs[g.lhs(1, 0, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(1, 0, i, j, k)];
                lhs[g.lhs(1, 1, BB, i, j, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(1, 1, i, j, k)] + temp1 * 2.0 * cs.dx2;
                lhs[g.lhs(1, 2, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(1, 2, i, j, k)];
                lhs[g.lhs(1, 3, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(1, 3, i, j, k)];
                lhs[g.lhs(1, 4, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(1, 4, i, j, k)];
                lhs[g.lhs(2, 0, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(2, 0, i, j, k)];
                lhs[g.lhs(2, 1, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(2, 1, i, j, k)];
                lhs[g.lhs(2, 2, BB, i, j, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(2, 2, i, j, k)] + temp1 * 2.0 * cs.dx3;
                lhs[g.lhs(2, 3, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(2, 3, i, j, k)];
                lhs[g.lhs(2, 4, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(2, 4, i, j, k)];
                lhs[g.lhs(3, 0, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(3, 0, i, j, k)];
                lhs[g.lhs(3, 1, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(3, 1, i, j, k)];
                lhs[g.lhs(3, 2, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(3, 2, i, j, k)];
                lhs[g.lhs(3, 3, BB, i, j, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(3, 3, i, j, k)] + temp1 * 2.0 * cs.dx4;
                lhs[g.lhs(3, 4, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(3, 4, i, j, k)];
                lhs[g.lhs(4, 0, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(4, 0, i, j, k)];
                lhs[g.lhs(4, 1, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(4, 1, i, j, k)];
                lhs[g.lhs(4, 2, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(4, 2, i, j, k)];
                lhs[g.lhs(4, 3, BB, i, j, k)] = temp1 * 2.0 * njac[g.jac(4, 3, i, j, k)];
                lhs[g.lhs(4, 4, BB, i, j, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(4, 4, i, j, k)] + temp1 * 2.0 * cs.dx5;
                lhs[g.lhs(0, 0, CC, i, j, k)] = temp2 * fjac[g.jac(0, 0, i + 1, j, k)] - temp1 * njac[g.jac(0, 0, i + 1, j, k)] - temp1 * cs.dx1;
                lhs[g.lhs(0, 1, CC, i, j, k)] = temp2 * fjac[g.jac(0, 1, i + 1, j, k)] - temp1 * njac[g.jac(0, 1, i + 1, j, k)];
                lhs[g.lhs(0, 2, CC, i, j, k)] = temp2 * fjac[g.jac(0, 2, i + 1, j, k)] - temp1 * njac[g.jac(0, 2, i + 1, j, k)];
                lhs[g.lhs(0, 3, CC, i, j, k)] = temp2 * fjac[g.jac(0, 3, i + 1, j, k)] - temp1 * njac[g.jac(0, 3, i + 1, j, k)];
                lhs[g.lhs(0, 4, CC, i, j, k)] = temp2 * fjac[g.jac(0, 4, i + 1, j, k)] - temp1 * njac[g.jac(0, 4, i + 1, j, k)];
                lhs[g.lhs(1, 0, CC, i, j, k)] = temp2 * fjac[g.jac(1, 0, i + 1, j, k)] - temp1 * njac[g.jac(1, 0, i + 1, j, k)];
                lhs[g.lhs(1, 1, CC, i, j, k)] = temp2 * fjac[g.jac(1, 1, i + 1, j, k)] - temp1 * njac[g.jac(1, 1, i + 1, j, k)] - temp1 * cs.dx2;
                lhs[g.lhs(1, 2, CC, i, j, k)] = temp2 * fjac[g.jac(1, 2, i + 1, j, k)] - temp1 * njac[g.jac(1, 2, i + 1, j, k)];
                lhs[g.lhs(1, 3, CC, i, j, k)] = temp2 * fjac[g.jac(1, 3, i + 1, j, k)] - temp1 * njac[g.jac(1, 3, i + 1, j, k)];
                lhs[g.lhs(1, 4, CC, i, j, k)] = temp2 * fjac[g.jac(1, 4, i + 1, j, k)] - temp1 * njac[g.jac(1, 4, i + 1, j, k)];
                lhs[g.lhs(2, 0, CC, i, j, k)] = temp2 * fjac[g.jac(2, 0, i + 1, j, k)] - temp1 * njac[g.jac(2, 0, i + 1, j, k)];
                lhs[g.lhs(2, 1, CC, i, j, k)] = temp2 * fjac[g.jac(2, 1, i + 1, j, k)] - temp1 * njac[g.jac(2, 1, i + 1, j, k)];
                lhs[g.lhs(2, 2, CC, i, j, k)] = temp2 * fjac[g.jac(2, 2, i + 1, j, k)] - temp1 * njac[g.jac(2, 2, i + 1, j, k)] - temp1 * cs.dx3;
                lhs[g.lhs(2, 3, CC, i, j, k)] = temp2 * fjac[g.jac(2, 3, i + 1, j, k)] - temp1 * njac[g.jac(2, 3, i + 1, j, k)];
                lhs[g.lhs(2, 4, CC, i, j, k)] = temp2 * fjac[g.jac(2, 4, i + 1, j, k)] - temp1 * njac[g.jac(2, 4, i + 1, j, k)];
                lhs[g.lhs(3, 0, CC, i, j, k)] = temp2 * fjac[g.jac(3, 0, i + 1, j, k)] - temp1 * njac[g.jac(3, 0, i + 1, j, k)];
                lhs[g.lhs(3, 1, CC, i, j, k)] = temp2 * fjac[g.jac(3, 1, i + 1, j, k)] - temp1 * njac[g.jac(3, 1, i + 1, j, k)];
                lhs[g.lhs(3, 2, CC, i, j, k)] = temp2 * fjac[g.jac(3, 2, i + 1, j, k)] - temp1 * njac[g.jac(3, 2, i + 1, j, k)];
                lhs[g.lhs(3, 3, CC, i, j, k)] = temp2 * fjac[g.jac(3, 3, i + 1, j, k)] - temp1 * njac[g.jac(3, 3, i + 1, j, k)] - temp1 * cs.dx4;
                lhs[g.lhs(3, 4, CC, i, j, k)] = temp2 * fjac[g.jac(3, 4, i + 1, j, k)] - temp1 * njac[g.jac(3, 4, i + 1, j, k)];
                lhs[g.lhs(4, 0, CC, i, j, k)] = temp2 * fjac[g.jac(4, 0, i + 1, j, k)] - temp1 * njac[g.jac(4, 0, i + 1, j, k)];
                lhs[g.lhs(4, 1, CC, i, j, k)] = temp2 * fjac[g.jac(4, 1, i + 1, j, k)] - temp1 * njac[g.jac(4, 1, i + 1, j, k)];
                lhs[g.lhs(4, 2, CC, i, j, k)] = temp2 * fjac[g.jac(4, 2, i + 1, j, k)] - temp1 * njac[g.jac(4, 2, i + 1, j, k)];
                lhs[g.lhs(4, 3, CC, i, j, k)] = temp2 * fjac[g.jac(4, 3, i + 1, j, k)] - temp1 * njac[g.jac(4, 3, i + 1, j, k)];
                lhs[g.lhs(4, 4, CC, i, j, k)] = temp2 * fjac[g.jac(4, 4, i + 1, j, k)] - temp1 * njac[g.jac(4, 4, i + 1, j, k)] - temp1 * cs.dx5;
            }
        }
    }
}

/// The xi elimination's first row: `binvcrhs` of the diagonal block.
#[acc::parallel(num_gangs(g.gp12), num_workers(4), vector_length(32))]
fn x_solve_first(rhs: &mut [f64], lhs: &mut [f64], g: Grid) {
    let Grid { gp12, gp22, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            let pivot = 1.00 / lhs[g.lhs(0, 0, BB, 0, j, k)];
            lhs[g.lhs(0, 1, BB, 0, j, k)] = lhs[g.lhs(0, 1, BB, 0, j, k)] * pivot;
            lhs[g.lhs(0, 2, BB, 0, j, k)] = lhs[g.lhs(0, 2, BB, 0, j, k)] * pivot;
            lhs[g.lhs(0, 3, BB, 0, j, k)] = lhs[g.lhs(0, 3, BB, 0, j, k)] * pivot;
            lhs[g.lhs(0, 4, BB, 0, j, k)] = lhs[g.lhs(0, 4, BB, 0, j, k)] * pivot;
            lhs[g.lhs(0, 0, CC, 0, j, k)] = lhs[g.lhs(0, 0, CC, 0, j, k)] * pivot;
            lhs[g.lhs(0, 1, CC, 0, j, k)] = lhs[g.lhs(0, 1, CC, 0, j, k)] * pivot;
            lhs[g.lhs(0, 2, CC, 0, j, k)] = lhs[g.lhs(0, 2, CC, 0, j, k)] * pivot;
            lhs[g.lhs(0, 3, CC, 0, j, k)] = lhs[g.lhs(0, 3, CC, 0, j, k)] * pivot;
            lhs[g.lhs(0, 4, CC, 0, j, k)] = lhs[g.lhs(0, 4, CC, 0, j, k)] * pivot;
            rhs[g.at(0, k, j, 0)] = rhs[g.at(0, k, j, 0)] * pivot;
            let coeff = lhs[g.lhs(1, 0, BB, 0, j, k)];
            lhs[g.lhs(1, 1, BB, 0, j, k)] = lhs[g.lhs(1, 1, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 1, BB, 0, j, k)];
            lhs[g.lhs(1, 2, BB, 0, j, k)] = lhs[g.lhs(1, 2, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 2, BB, 0, j, k)];
            lhs[g.lhs(1, 3, BB, 0, j, k)] = lhs[g.lhs(1, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 3, BB, 0, j, k)];
            lhs[g.lhs(1, 4, BB, 0, j, k)] = lhs[g.lhs(1, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 4, BB, 0, j, k)];
            lhs[g.lhs(1, 0, CC, 0, j, k)] = lhs[g.lhs(1, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 0, CC, 0, j, k)];
            lhs[g.lhs(1, 1, CC, 0, j, k)] = lhs[g.lhs(1, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 1, CC, 0, j, k)];
            lhs[g.lhs(1, 2, CC, 0, j, k)] = lhs[g.lhs(1, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 2, CC, 0, j, k)];
            lhs[g.lhs(1, 3, CC, 0, j, k)] = lhs[g.lhs(1, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 3, CC, 0, j, k)];
            lhs[g.lhs(1, 4, CC, 0, j, k)] = lhs[g.lhs(1, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 4, CC, 0, j, k)];
            rhs[g.at(1, k, j, 0)] = rhs[g.at(1, k, j, 0)] - coeff * rhs[g.at(0, k, j, 0)];
            let coeff = lhs[g.lhs(2, 0, BB, 0, j, k)];
            lhs[g.lhs(2, 1, BB, 0, j, k)] = lhs[g.lhs(2, 1, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 1, BB, 0, j, k)];
            lhs[g.lhs(2, 2, BB, 0, j, k)] = lhs[g.lhs(2, 2, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 2, BB, 0, j, k)];
            lhs[g.lhs(2, 3, BB, 0, j, k)] = lhs[g.lhs(2, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 3, BB, 0, j, k)];
            lhs[g.lhs(2, 4, BB, 0, j, k)] = lhs[g.lhs(2, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 4, BB, 0, j, k)];
            lhs[g.lhs(2, 0, CC, 0, j, k)] = lhs[g.lhs(2, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 0, CC, 0, j, k)];
            lhs[g.lhs(2, 1, CC, 0, j, k)] = lhs[g.lhs(2, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 1, CC, 0, j, k)];
            lhs[g.lhs(2, 2, CC, 0, j, k)] = lhs[g.lhs(2, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 2, CC, 0, j, k)];
            lhs[g.lhs(2, 3, CC, 0, j, k)] = lhs[g.lhs(2, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 3, CC, 0, j, k)];
            lhs[g.lhs(2, 4, CC, 0, j, k)] = lhs[g.lhs(2, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 4, CC, 0, j, k)];
            rhs[g.at(2, k, j, 0)] = rhs[g.at(2, k, j, 0)] - coeff * rhs[g.at(0, k, j, 0)];
            let coeff = lhs[g.lhs(3, 0, BB, 0, j, k)];
            lhs[g.lhs(3, 1, BB, 0, j, k)] = lhs[g.lhs(3, 1, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 1, BB, 0, j, k)];
            lhs[g.lhs(3, 2, BB, 0, j, k)] = lhs[g.lhs(3, 2, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 2, BB, 0, j, k)];
            lhs[g.lhs(3, 3, BB, 0, j, k)] = lhs[g.lhs(3, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 3, BB, 0, j, k)];
            lhs[g.lhs(3, 4, BB, 0, j, k)] = lhs[g.lhs(3, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 4, BB, 0, j, k)];
            lhs[g.lhs(3, 0, CC, 0, j, k)] = lhs[g.lhs(3, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 0, CC, 0, j, k)];
            lhs[g.lhs(3, 1, CC, 0, j, k)] = lhs[g.lhs(3, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 1, CC, 0, j, k)];
            lhs[g.lhs(3, 2, CC, 0, j, k)] = lhs[g.lhs(3, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 2, CC, 0, j, k)];
            lhs[g.lhs(3, 3, CC, 0, j, k)] = lhs[g.lhs(3, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 3, CC, 0, j, k)];
            lhs[g.lhs(3, 4, CC, 0, j, k)] = lhs[g.lhs(3, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 4, CC, 0, j, k)];
            rhs[g.at(3, k, j, 0)] = rhs[g.at(3, k, j, 0)] - coeff * rhs[g.at(0, k, j, 0)];
            let coeff = lhs[g.lhs(4, 0, BB, 0, j, k)];
            lhs[g.lhs(4, 1, BB, 0, j, k)] = lhs[g.lhs(4, 1, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 1, BB, 0, j, k)];
            lhs[g.lhs(4, 2, BB, 0, j, k)] = lhs[g.lhs(4, 2, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 2, BB, 0, j, k)];
            lhs[g.lhs(4, 3, BB, 0, j, k)] = lhs[g.lhs(4, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 3, BB, 0, j, k)];
            lhs[g.lhs(4, 4, BB, 0, j, k)] = lhs[g.lhs(4, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(0, 4, BB, 0, j, k)];
            lhs[g.lhs(4, 0, CC, 0, j, k)] = lhs[g.lhs(4, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 0, CC, 0, j, k)];
            lhs[g.lhs(4, 1, CC, 0, j, k)] = lhs[g.lhs(4, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 1, CC, 0, j, k)];
            lhs[g.lhs(4, 2, CC, 0, j, k)] = lhs[g.lhs(4, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 2, CC, 0, j, k)];
            lhs[g.lhs(4, 3, CC, 0, j, k)] = lhs[g.lhs(4, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 3, CC, 0, j, k)];
            lhs[g.lhs(4, 4, CC, 0, j, k)] = lhs[g.lhs(4, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(0, 4, CC, 0, j, k)];
            rhs[g.at(4, k, j, 0)] = rhs[g.at(4, k, j, 0)] - coeff * rhs[g.at(0, k, j, 0)];
            let pivot = 1.00 / lhs[g.lhs(1, 1, BB, 0, j, k)];
            lhs[g.lhs(1, 2, BB, 0, j, k)] = lhs[g.lhs(1, 2, BB, 0, j, k)] * pivot;
            lhs[g.lhs(1, 3, BB, 0, j, k)] = lhs[g.lhs(1, 3, BB, 0, j, k)] * pivot;
            lhs[g.lhs(1, 4, BB, 0, j, k)] = lhs[g.lhs(1, 4, BB, 0, j, k)] * pivot;
            lhs[g.lhs(1, 0, CC, 0, j, k)] = lhs[g.lhs(1, 0, CC, 0, j, k)] * pivot;
            lhs[g.lhs(1, 1, CC, 0, j, k)] = lhs[g.lhs(1, 1, CC, 0, j, k)] * pivot;
            lhs[g.lhs(1, 2, CC, 0, j, k)] = lhs[g.lhs(1, 2, CC, 0, j, k)] * pivot;
            lhs[g.lhs(1, 3, CC, 0, j, k)] = lhs[g.lhs(1, 3, CC, 0, j, k)] * pivot;
            lhs[g.lhs(1, 4, CC, 0, j, k)] = lhs[g.lhs(1, 4, CC, 0, j, k)] * pivot;
            rhs[g.at(1, k, j, 0)] = rhs[g.at(1, k, j, 0)] * pivot;
            let coeff = lhs[g.lhs(0, 1, BB, 0, j, k)];
            lhs[g.lhs(0, 2, BB, 0, j, k)] = lhs[g.lhs(0, 2, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 2, BB, 0, j, k)];
            lhs[g.lhs(0, 3, BB, 0, j, k)] = lhs[g.lhs(0, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 3, BB, 0, j, k)];
            lhs[g.lhs(0, 4, BB, 0, j, k)] = lhs[g.lhs(0, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 4, BB, 0, j, k)];
            lhs[g.lhs(0, 0, CC, 0, j, k)] = lhs[g.lhs(0, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 0, CC, 0, j, k)];
            lhs[g.lhs(0, 1, CC, 0, j, k)] = lhs[g.lhs(0, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 1, CC, 0, j, k)];
            lhs[g.lhs(0, 2, CC, 0, j, k)] = lhs[g.lhs(0, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 2, CC, 0, j, k)];
            lhs[g.lhs(0, 3, CC, 0, j, k)] = lhs[g.lhs(0, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 3, CC, 0, j, k)];
            lhs[g.lhs(0, 4, CC, 0, j, k)] = lhs[g.lhs(0, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 4, CC, 0, j, k)];
            rhs[g.at(0, k, j, 0)] = rhs[g.at(0, k, j, 0)] - coeff * rhs[g.at(1, k, j, 0)];
            let coeff = lhs[g.lhs(2, 1, BB, 0, j, k)];
            lhs[g.lhs(2, 2, BB, 0, j, k)] = lhs[g.lhs(2, 2, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 2, BB, 0, j, k)];
            lhs[g.lhs(2, 3, BB, 0, j, k)] = lhs[g.lhs(2, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 3, BB, 0, j, k)];
            lhs[g.lhs(2, 4, BB, 0, j, k)] = lhs[g.lhs(2, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 4, BB, 0, j, k)];
            lhs[g.lhs(2, 0, CC, 0, j, k)] = lhs[g.lhs(2, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 0, CC, 0, j, k)];
            lhs[g.lhs(2, 1, CC, 0, j, k)] = lhs[g.lhs(2, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 1, CC, 0, j, k)];
            lhs[g.lhs(2, 2, CC, 0, j, k)] = lhs[g.lhs(2, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 2, CC, 0, j, k)];
            lhs[g.lhs(2, 3, CC, 0, j, k)] = lhs[g.lhs(2, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 3, CC, 0, j, k)];
            lhs[g.lhs(2, 4, CC, 0, j, k)] = lhs[g.lhs(2, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 4, CC, 0, j, k)];
            rhs[g.at(2, k, j, 0)] = rhs[g.at(2, k, j, 0)] - coeff * rhs[g.at(1, k, j, 0)];
            let coeff = lhs[g.lhs(3, 1, BB, 0, j, k)];
            lhs[g.lhs(3, 2, BB, 0, j, k)] = lhs[g.lhs(3, 2, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 2, BB, 0, j, k)];
            lhs[g.lhs(3, 3, BB, 0, j, k)] = lhs[g.lhs(3, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 3, BB, 0, j, k)];
            lhs[g.lhs(3, 4, BB, 0, j, k)] = lhs[g.lhs(3, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 4, BB, 0, j, k)];
            lhs[g.lhs(3, 0, CC, 0, j, k)] = lhs[g.lhs(3, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 0, CC, 0, j, k)];
            lhs[g.lhs(3, 1, CC, 0, j, k)] = lhs[g.lhs(3, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 1, CC, 0, j, k)];
            lhs[g.lhs(3, 2, CC, 0, j, k)] = lhs[g.lhs(3, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 2, CC, 0, j, k)];
            lhs[g.lhs(3, 3, CC, 0, j, k)] = lhs[g.lhs(3, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 3, CC, 0, j, k)];
            lhs[g.lhs(3, 4, CC, 0, j, k)] = lhs[g.lhs(3, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 4, CC, 0, j, k)];
            rhs[g.at(3, k, j, 0)] = rhs[g.at(3, k, j, 0)] - coeff * rhs[g.at(1, k, j, 0)];
            let coeff = lhs[g.lhs(4, 1, BB, 0, j, k)];
            lhs[g.lhs(4, 2, BB, 0, j, k)] = lhs[g.lhs(4, 2, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 2, BB, 0, j, k)];
            lhs[g.lhs(4, 3, BB, 0, j, k)] = lhs[g.lhs(4, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 3, BB, 0, j, k)];
            lhs[g.lhs(4, 4, BB, 0, j, k)] = lhs[g.lhs(4, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(1, 4, BB, 0, j, k)];
            lhs[g.lhs(4, 0, CC, 0, j, k)] = lhs[g.lhs(4, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 0, CC, 0, j, k)];
            lhs[g.lhs(4, 1, CC, 0, j, k)] = lhs[g.lhs(4, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 1, CC, 0, j, k)];
            lhs[g.lhs(4, 2, CC, 0, j, k)] = lhs[g.lhs(4, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 2, CC, 0, j, k)];
            lhs[g.lhs(4, 3, CC, 0, j, k)] = lhs[g.lhs(4, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 3, CC, 0, j, k)];
            lhs[g.lhs(4, 4, CC, 0, j, k)] = lhs[g.lhs(4, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(1, 4, CC, 0, j, k)];
            rhs[g.at(4, k, j, 0)] = rhs[g.at(4, k, j, 0)] - coeff * rhs[g.at(1, k, j, 0)];
            let pivot = 1.00 / lhs[g.lhs(2, 2, BB, 0, j, k)];
            lhs[g.lhs(2, 3, BB, 0, j, k)] = lhs[g.lhs(2, 3, BB, 0, j, k)] * pivot;
            lhs[g.lhs(2, 4, BB, 0, j, k)] = lhs[g.lhs(2, 4, BB, 0, j, k)] * pivot;
            lhs[g.lhs(2, 0, CC, 0, j, k)] = lhs[g.lhs(2, 0, CC, 0, j, k)] * pivot;
            lhs[g.lhs(2, 1, CC, 0, j, k)] = lhs[g.lhs(2, 1, CC, 0, j, k)] * pivot;
            lhs[g.lhs(2, 2, CC, 0, j, k)] = lhs[g.lhs(2, 2, CC, 0, j, k)] * pivot;
            lhs[g.lhs(2, 3, CC, 0, j, k)] = lhs[g.lhs(2, 3, CC, 0, j, k)] * pivot;
            lhs[g.lhs(2, 4, CC, 0, j, k)] = lhs[g.lhs(2, 4, CC, 0, j, k)] * pivot;
            rhs[g.at(2, k, j, 0)] = rhs[g.at(2, k, j, 0)] * pivot;
            let coeff = lhs[g.lhs(0, 2, BB, 0, j, k)];
            lhs[g.lhs(0, 3, BB, 0, j, k)] = lhs[g.lhs(0, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(2, 3, BB, 0, j, k)];
            lhs[g.lhs(0, 4, BB, 0, j, k)] = lhs[g.lhs(0, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(2, 4, BB, 0, j, k)];
            lhs[g.lhs(0, 0, CC, 0, j, k)] = lhs[g.lhs(0, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 0, CC, 0, j, k)];
            lhs[g.lhs(0, 1, CC, 0, j, k)] = lhs[g.lhs(0, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 1, CC, 0, j, k)];
            lhs[g.lhs(0, 2, CC, 0, j, k)] = lhs[g.lhs(0, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 2, CC, 0, j, k)];
            lhs[g.lhs(0, 3, CC, 0, j, k)] = lhs[g.lhs(0, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 3, CC, 0, j, k)];
            lhs[g.lhs(0, 4, CC, 0, j, k)] = lhs[g.lhs(0, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 4, CC, 0, j, k)];
            rhs[g.at(0, k, j, 0)] = rhs[g.at(0, k, j, 0)] - coeff * rhs[g.at(2, k, j, 0)];
            let coeff = lhs[g.lhs(1, 2, BB, 0, j, k)];
            lhs[g.lhs(1, 3, BB, 0, j, k)] = lhs[g.lhs(1, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(2, 3, BB, 0, j, k)];
            lhs[g.lhs(1, 4, BB, 0, j, k)] = lhs[g.lhs(1, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(2, 4, BB, 0, j, k)];
            lhs[g.lhs(1, 0, CC, 0, j, k)] = lhs[g.lhs(1, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 0, CC, 0, j, k)];
            lhs[g.lhs(1, 1, CC, 0, j, k)] = lhs[g.lhs(1, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 1, CC, 0, j, k)];
            lhs[g.lhs(1, 2, CC, 0, j, k)] = lhs[g.lhs(1, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 2, CC, 0, j, k)];
            lhs[g.lhs(1, 3, CC, 0, j, k)] = lhs[g.lhs(1, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 3, CC, 0, j, k)];
            lhs[g.lhs(1, 4, CC, 0, j, k)] = lhs[g.lhs(1, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 4, CC, 0, j, k)];
            rhs[g.at(1, k, j, 0)] = rhs[g.at(1, k, j, 0)] - coeff * rhs[g.at(2, k, j, 0)];
            let coeff = lhs[g.lhs(3, 2, BB, 0, j, k)];
            lhs[g.lhs(3, 3, BB, 0, j, k)] = lhs[g.lhs(3, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(2, 3, BB, 0, j, k)];
            lhs[g.lhs(3, 4, BB, 0, j, k)] = lhs[g.lhs(3, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(2, 4, BB, 0, j, k)];
            lhs[g.lhs(3, 0, CC, 0, j, k)] = lhs[g.lhs(3, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 0, CC, 0, j, k)];
            lhs[g.lhs(3, 1, CC, 0, j, k)] = lhs[g.lhs(3, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 1, CC, 0, j, k)];
            lhs[g.lhs(3, 2, CC, 0, j, k)] = lhs[g.lhs(3, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 2, CC, 0, j, k)];
            lhs[g.lhs(3, 3, CC, 0, j, k)] = lhs[g.lhs(3, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 3, CC, 0, j, k)];
            lhs[g.lhs(3, 4, CC, 0, j, k)] = lhs[g.lhs(3, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 4, CC, 0, j, k)];
            rhs[g.at(3, k, j, 0)] = rhs[g.at(3, k, j, 0)] - coeff * rhs[g.at(2, k, j, 0)];
            let coeff = lhs[g.lhs(4, 2, BB, 0, j, k)];
            lhs[g.lhs(4, 3, BB, 0, j, k)] = lhs[g.lhs(4, 3, BB, 0, j, k)] - coeff * lhs[g.lhs(2, 3, BB, 0, j, k)];
            lhs[g.lhs(4, 4, BB, 0, j, k)] = lhs[g.lhs(4, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(2, 4, BB, 0, j, k)];
            lhs[g.lhs(4, 0, CC, 0, j, k)] = lhs[g.lhs(4, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 0, CC, 0, j, k)];
            lhs[g.lhs(4, 1, CC, 0, j, k)] = lhs[g.lhs(4, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 1, CC, 0, j, k)];
            lhs[g.lhs(4, 2, CC, 0, j, k)] = lhs[g.lhs(4, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 2, CC, 0, j, k)];
            lhs[g.lhs(4, 3, CC, 0, j, k)] = lhs[g.lhs(4, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 3, CC, 0, j, k)];
            lhs[g.lhs(4, 4, CC, 0, j, k)] = lhs[g.lhs(4, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(2, 4, CC, 0, j, k)];
            rhs[g.at(4, k, j, 0)] = rhs[g.at(4, k, j, 0)] - coeff * rhs[g.at(2, k, j, 0)];
            let pivot = 1.00 / lhs[g.lhs(3, 3, BB, 0, j, k)];
            lhs[g.lhs(3, 4, BB, 0, j, k)] = lhs[g.lhs(3, 4, BB, 0, j, k)] * pivot;
            lhs[g.lhs(3, 0, CC, 0, j, k)] = lhs[g.lhs(3, 0, CC, 0, j, k)] * pivot;
            lhs[g.lhs(3, 1, CC, 0, j, k)] = lhs[g.lhs(3, 1, CC, 0, j, k)] * pivot;
            lhs[g.lhs(3, 2, CC, 0, j, k)] = lhs[g.lhs(3, 2, CC, 0, j, k)] * pivot;
            lhs[g.lhs(3, 3, CC, 0, j, k)] = lhs[g.lhs(3, 3, CC, 0, j, k)] * pivot;
            lhs[g.lhs(3, 4, CC, 0, j, k)] = lhs[g.lhs(3, 4, CC, 0, j, k)] * pivot;
            rhs[g.at(3, k, j, 0)] = rhs[g.at(3, k, j, 0)] * pivot;
            let coeff = lhs[g.lhs(0, 3, BB, 0, j, k)];
            lhs[g.lhs(0, 4, BB, 0, j, k)] = lhs[g.lhs(0, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(3, 4, BB, 0, j, k)];
            lhs[g.lhs(0, 0, CC, 0, j, k)] = lhs[g.lhs(0, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 0, CC, 0, j, k)];
            lhs[g.lhs(0, 1, CC, 0, j, k)] = lhs[g.lhs(0, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 1, CC, 0, j, k)];
            lhs[g.lhs(0, 2, CC, 0, j, k)] = lhs[g.lhs(0, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 2, CC, 0, j, k)];
            lhs[g.lhs(0, 3, CC, 0, j, k)] = lhs[g.lhs(0, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 3, CC, 0, j, k)];
            lhs[g.lhs(0, 4, CC, 0, j, k)] = lhs[g.lhs(0, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 4, CC, 0, j, k)];
            rhs[g.at(0, k, j, 0)] = rhs[g.at(0, k, j, 0)] - coeff * rhs[g.at(3, k, j, 0)];
            let coeff = lhs[g.lhs(1, 3, BB, 0, j, k)];
            lhs[g.lhs(1, 4, BB, 0, j, k)] = lhs[g.lhs(1, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(3, 4, BB, 0, j, k)];
            lhs[g.lhs(1, 0, CC, 0, j, k)] = lhs[g.lhs(1, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 0, CC, 0, j, k)];
            lhs[g.lhs(1, 1, CC, 0, j, k)] = lhs[g.lhs(1, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 1, CC, 0, j, k)];
            lhs[g.lhs(1, 2, CC, 0, j, k)] = lhs[g.lhs(1, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 2, CC, 0, j, k)];
            lhs[g.lhs(1, 3, CC, 0, j, k)] = lhs[g.lhs(1, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 3, CC, 0, j, k)];
            lhs[g.lhs(1, 4, CC, 0, j, k)] = lhs[g.lhs(1, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 4, CC, 0, j, k)];
            rhs[g.at(1, k, j, 0)] = rhs[g.at(1, k, j, 0)] - coeff * rhs[g.at(3, k, j, 0)];
            let coeff = lhs[g.lhs(2, 3, BB, 0, j, k)];
            lhs[g.lhs(2, 4, BB, 0, j, k)] = lhs[g.lhs(2, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(3, 4, BB, 0, j, k)];
            lhs[g.lhs(2, 0, CC, 0, j, k)] = lhs[g.lhs(2, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 0, CC, 0, j, k)];
            lhs[g.lhs(2, 1, CC, 0, j, k)] = lhs[g.lhs(2, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 1, CC, 0, j, k)];
            lhs[g.lhs(2, 2, CC, 0, j, k)] = lhs[g.lhs(2, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 2, CC, 0, j, k)];
            lhs[g.lhs(2, 3, CC, 0, j, k)] = lhs[g.lhs(2, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 3, CC, 0, j, k)];
            lhs[g.lhs(2, 4, CC, 0, j, k)] = lhs[g.lhs(2, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 4, CC, 0, j, k)];
            rhs[g.at(2, k, j, 0)] = rhs[g.at(2, k, j, 0)] - coeff * rhs[g.at(3, k, j, 0)];
            let coeff = lhs[g.lhs(4, 3, BB, 0, j, k)];
            lhs[g.lhs(4, 4, BB, 0, j, k)] = lhs[g.lhs(4, 4, BB, 0, j, k)] - coeff * lhs[g.lhs(3, 4, BB, 0, j, k)];
            lhs[g.lhs(4, 0, CC, 0, j, k)] = lhs[g.lhs(4, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 0, CC, 0, j, k)];
            lhs[g.lhs(4, 1, CC, 0, j, k)] = lhs[g.lhs(4, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 1, CC, 0, j, k)];
            lhs[g.lhs(4, 2, CC, 0, j, k)] = lhs[g.lhs(4, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 2, CC, 0, j, k)];
            lhs[g.lhs(4, 3, CC, 0, j, k)] = lhs[g.lhs(4, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 3, CC, 0, j, k)];
            lhs[g.lhs(4, 4, CC, 0, j, k)] = lhs[g.lhs(4, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(3, 4, CC, 0, j, k)];
            rhs[g.at(4, k, j, 0)] = rhs[g.at(4, k, j, 0)] - coeff * rhs[g.at(3, k, j, 0)];
            let pivot = 1.00 / lhs[g.lhs(4, 4, BB, 0, j, k)];
            lhs[g.lhs(4, 0, CC, 0, j, k)] = lhs[g.lhs(4, 0, CC, 0, j, k)] * pivot;
            lhs[g.lhs(4, 1, CC, 0, j, k)] = lhs[g.lhs(4, 1, CC, 0, j, k)] * pivot;
            lhs[g.lhs(4, 2, CC, 0, j, k)] = lhs[g.lhs(4, 2, CC, 0, j, k)] * pivot;
            lhs[g.lhs(4, 3, CC, 0, j, k)] = lhs[g.lhs(4, 3, CC, 0, j, k)] * pivot;
            lhs[g.lhs(4, 4, CC, 0, j, k)] = lhs[g.lhs(4, 4, CC, 0, j, k)] * pivot;
            rhs[g.at(4, k, j, 0)] = rhs[g.at(4, k, j, 0)] * pivot;
            let coeff = lhs[g.lhs(0, 4, BB, 0, j, k)];
            lhs[g.lhs(0, 0, CC, 0, j, k)] = lhs[g.lhs(0, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 0, CC, 0, j, k)];
            lhs[g.lhs(0, 1, CC, 0, j, k)] = lhs[g.lhs(0, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 1, CC, 0, j, k)];
            lhs[g.lhs(0, 2, CC, 0, j, k)] = lhs[g.lhs(0, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 2, CC, 0, j, k)];
            lhs[g.lhs(0, 3, CC, 0, j, k)] = lhs[g.lhs(0, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 3, CC, 0, j, k)];
            lhs[g.lhs(0, 4, CC, 0, j, k)] = lhs[g.lhs(0, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 4, CC, 0, j, k)];
            rhs[g.at(0, k, j, 0)] = rhs[g.at(0, k, j, 0)] - coeff * rhs[g.at(4, k, j, 0)];
            let coeff = lhs[g.lhs(1, 4, BB, 0, j, k)];
            lhs[g.lhs(1, 0, CC, 0, j, k)] = lhs[g.lhs(1, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 0, CC, 0, j, k)];
            lhs[g.lhs(1, 1, CC, 0, j, k)] = lhs[g.lhs(1, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 1, CC, 0, j, k)];
            lhs[g.lhs(1, 2, CC, 0, j, k)] = lhs[g.lhs(1, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 2, CC, 0, j, k)];
            lhs[g.lhs(1, 3, CC, 0, j, k)] = lhs[g.lhs(1, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 3, CC, 0, j, k)];
            lhs[g.lhs(1, 4, CC, 0, j, k)] = lhs[g.lhs(1, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 4, CC, 0, j, k)];
            rhs[g.at(1, k, j, 0)] = rhs[g.at(1, k, j, 0)] - coeff * rhs[g.at(4, k, j, 0)];
            let coeff = lhs[g.lhs(2, 4, BB, 0, j, k)];
            lhs[g.lhs(2, 0, CC, 0, j, k)] = lhs[g.lhs(2, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 0, CC, 0, j, k)];
            lhs[g.lhs(2, 1, CC, 0, j, k)] = lhs[g.lhs(2, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 1, CC, 0, j, k)];
            lhs[g.lhs(2, 2, CC, 0, j, k)] = lhs[g.lhs(2, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 2, CC, 0, j, k)];
            lhs[g.lhs(2, 3, CC, 0, j, k)] = lhs[g.lhs(2, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 3, CC, 0, j, k)];
            lhs[g.lhs(2, 4, CC, 0, j, k)] = lhs[g.lhs(2, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 4, CC, 0, j, k)];
            rhs[g.at(2, k, j, 0)] = rhs[g.at(2, k, j, 0)] - coeff * rhs[g.at(4, k, j, 0)];
            let coeff = lhs[g.lhs(3, 4, BB, 0, j, k)];
            lhs[g.lhs(3, 0, CC, 0, j, k)] = lhs[g.lhs(3, 0, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 0, CC, 0, j, k)];
            lhs[g.lhs(3, 1, CC, 0, j, k)] = lhs[g.lhs(3, 1, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 1, CC, 0, j, k)];
            lhs[g.lhs(3, 2, CC, 0, j, k)] = lhs[g.lhs(3, 2, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 2, CC, 0, j, k)];
            lhs[g.lhs(3, 3, CC, 0, j, k)] = lhs[g.lhs(3, 3, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 3, CC, 0, j, k)];
            lhs[g.lhs(3, 4, CC, 0, j, k)] = lhs[g.lhs(3, 4, CC, 0, j, k)] - coeff * lhs[g.lhs(4, 4, CC, 0, j, k)];
            rhs[g.at(3, k, j, 0)] = rhs[g.at(3, k, j, 0)] - coeff * rhs[g.at(4, k, j, 0)];
        }
    }
}

/// The xi forward elimination along each line (`matvec_sub`, `matmul_sub`, `binvcrhs`).
#[acc::parallel(num_gangs(g.gp12), num_workers(4), vector_length(32))]
fn x_solve_forward(rhs: &mut [f64], lhs: &mut [f64], g: Grid) {
    let Grid { gp12, gp22, i_size, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            for i in 1..=i_size - 1 {
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                    - lhs[g.lhs(0, 0, AA, i, j, k)] * rhs[g.at(0, k, j, i - 1)]
                    - lhs[g.lhs(0, 1, AA, i, j, k)] * rhs[g.at(1, k, j, i - 1)]
                    - lhs[g.lhs(0, 2, AA, i, j, k)] * rhs[g.at(2, k, j, i - 1)]
                    - lhs[g.lhs(0, 3, AA, i, j, k)] * rhs[g.at(3, k, j, i - 1)]
                    - lhs[g.lhs(0, 4, AA, i, j, k)] * rhs[g.at(4, k, j, i - 1)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                    - lhs[g.lhs(1, 0, AA, i, j, k)] * rhs[g.at(0, k, j, i - 1)]
                    - lhs[g.lhs(1, 1, AA, i, j, k)] * rhs[g.at(1, k, j, i - 1)]
                    - lhs[g.lhs(1, 2, AA, i, j, k)] * rhs[g.at(2, k, j, i - 1)]
                    - lhs[g.lhs(1, 3, AA, i, j, k)] * rhs[g.at(3, k, j, i - 1)]
                    - lhs[g.lhs(1, 4, AA, i, j, k)] * rhs[g.at(4, k, j, i - 1)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                    - lhs[g.lhs(2, 0, AA, i, j, k)] * rhs[g.at(0, k, j, i - 1)]
                    - lhs[g.lhs(2, 1, AA, i, j, k)] * rhs[g.at(1, k, j, i - 1)]
                    - lhs[g.lhs(2, 2, AA, i, j, k)] * rhs[g.at(2, k, j, i - 1)]
                    - lhs[g.lhs(2, 3, AA, i, j, k)] * rhs[g.at(3, k, j, i - 1)]
                    - lhs[g.lhs(2, 4, AA, i, j, k)] * rhs[g.at(4, k, j, i - 1)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                    - lhs[g.lhs(3, 0, AA, i, j, k)] * rhs[g.at(0, k, j, i - 1)]
                    - lhs[g.lhs(3, 1, AA, i, j, k)] * rhs[g.at(1, k, j, i - 1)]
                    - lhs[g.lhs(3, 2, AA, i, j, k)] * rhs[g.at(2, k, j, i - 1)]
                    - lhs[g.lhs(3, 3, AA, i, j, k)] * rhs[g.at(3, k, j, i - 1)]
                    - lhs[g.lhs(3, 4, AA, i, j, k)] * rhs[g.at(4, k, j, i - 1)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                    - lhs[g.lhs(4, 0, AA, i, j, k)] * rhs[g.at(0, k, j, i - 1)]
                    - lhs[g.lhs(4, 1, AA, i, j, k)] * rhs[g.at(1, k, j, i - 1)]
                    - lhs[g.lhs(4, 2, AA, i, j, k)] * rhs[g.at(2, k, j, i - 1)]
                    - lhs[g.lhs(4, 3, AA, i, j, k)] * rhs[g.at(3, k, j, i - 1)]
                    - lhs[g.lhs(4, 4, AA, i, j, k)] * rhs[g.at(4, k, j, i - 1)];
                lhs[g.lhs(0, 0, BB, i, j, k)] = lhs[g.lhs(0, 0, BB, i, j, k)]
                    - lhs[g.lhs(0, 0, AA, i, j, k)] * lhs[g.lhs(0, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 1, AA, i, j, k)] * lhs[g.lhs(1, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 2, AA, i, j, k)] * lhs[g.lhs(2, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 3, AA, i, j, k)] * lhs[g.lhs(3, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 4, AA, i, j, k)] * lhs[g.lhs(4, 0, CC, i - 1, j, k)];
                lhs[g.lhs(1, 0, BB, i, j, k)] = lhs[g.lhs(1, 0, BB, i, j, k)]
                    - lhs[g.lhs(1, 0, AA, i, j, k)] * lhs[g.lhs(0, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 1, AA, i, j, k)] * lhs[g.lhs(1, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 2, AA, i, j, k)] * lhs[g.lhs(2, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 3, AA, i, j, k)] * lhs[g.lhs(3, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 4, AA, i, j, k)] * lhs[g.lhs(4, 0, CC, i - 1, j, k)];
                lhs[g.lhs(2, 0, BB, i, j, k)] = lhs[g.lhs(2, 0, BB, i, j, k)]
                    - lhs[g.lhs(2, 0, AA, i, j, k)] * lhs[g.lhs(0, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 1, AA, i, j, k)] * lhs[g.lhs(1, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 2, AA, i, j, k)] * lhs[g.lhs(2, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 3, AA, i, j, k)] * lhs[g.lhs(3, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 4, AA, i, j, k)] * lhs[g.lhs(4, 0, CC, i - 1, j, k)];
                lhs[g.lhs(3, 0, BB, i, j, k)] = lhs[g.lhs(3, 0, BB, i, j, k)]
                    - lhs[g.lhs(3, 0, AA, i, j, k)] * lhs[g.lhs(0, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 1, AA, i, j, k)] * lhs[g.lhs(1, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 2, AA, i, j, k)] * lhs[g.lhs(2, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 3, AA, i, j, k)] * lhs[g.lhs(3, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 4, AA, i, j, k)] * lhs[g.lhs(4, 0, CC, i - 1, j, k)];
                lhs[g.lhs(4, 0, BB, i, j, k)] = lhs[g.lhs(4, 0, BB, i, j, k)]
                    - lhs[g.lhs(4, 0, AA, i, j, k)] * lhs[g.lhs(0, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 1, AA, i, j, k)] * lhs[g.lhs(1, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 2, AA, i, j, k)] * lhs[g.lhs(2, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 3, AA, i, j, k)] * lhs[g.lhs(3, 0, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 4, AA, i, j, k)] * lhs[g.lhs(4, 0, CC, i - 1, j, k)];
                lhs[g.lhs(0, 1, BB, i, j, k)] = lhs[g.lhs(0, 1, BB, i, j, k)]
                    - lhs[g.lhs(0, 0, AA, i, j, k)] * lhs[g.lhs(0, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 1, AA, i, j, k)] * lhs[g.lhs(1, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 2, AA, i, j, k)] * lhs[g.lhs(2, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 3, AA, i, j, k)] * lhs[g.lhs(3, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 4, AA, i, j, k)] * lhs[g.lhs(4, 1, CC, i - 1, j, k)];
                lhs[g.lhs(1, 1, BB, i, j, k)] = lhs[g.lhs(1, 1, BB, i, j, k)]
                    - lhs[g.lhs(1, 0, AA, i, j, k)] * lhs[g.lhs(0, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 1, AA, i, j, k)] * lhs[g.lhs(1, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 2, AA, i, j, k)] * lhs[g.lhs(2, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 3, AA, i, j, k)] * lhs[g.lhs(3, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 4, AA, i, j, k)] * lhs[g.lhs(4, 1, CC, i - 1, j, k)];
                lhs[g.lhs(2, 1, BB, i, j, k)] = lhs[g.lhs(2, 1, BB, i, j, k)]
                    - lhs[g.lhs(2, 0, AA, i, j, k)] * lhs[g.lhs(0, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 1, AA, i, j, k)] * lhs[g.lhs(1, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 2, AA, i, j, k)] * lhs[g.lhs(2, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 3, AA, i, j, k)] * lhs[g.lhs(3, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 4, AA, i, j, k)] * lhs[g.lhs(4, 1, CC, i - 1, j, k)];
                lhs[g.lhs(3, 1, BB, i, j, k)] = lhs[g.lhs(3, 1, BB, i, j, k)]
                    - lhs[g.lhs(3, 0, AA, i, j, k)] * lhs[g.lhs(0, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 1, AA, i, j, k)] * lhs[g.lhs(1, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 2, AA, i, j, k)] * lhs[g.lhs(2, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 3, AA, i, j, k)] * lhs[g.lhs(3, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 4, AA, i, j, k)] * lhs[g.lhs(4, 1, CC, i - 1, j, k)];
                lhs[g.lhs(4, 1, BB, i, j, k)] = lhs[g.lhs(4, 1, BB, i, j, k)]
                    - lhs[g.lhs(4, 0, AA, i, j, k)] * lhs[g.lhs(0, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 1, AA, i, j, k)] * lhs[g.lhs(1, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 2, AA, i, j, k)] * lhs[g.lhs(2, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 3, AA, i, j, k)] * lhs[g.lhs(3, 1, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 4, AA, i, j, k)] * lhs[g.lhs(4, 1, CC, i - 1, j, k)];
                lhs[g.lhs(0, 2, BB, i, j, k)] = lhs[g.lhs(0, 2, BB, i, j, k)]
                    - lhs[g.lhs(0, 0, AA, i, j, k)] * lhs[g.lhs(0, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 1, AA, i, j, k)] * lhs[g.lhs(1, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 2, AA, i, j, k)] * lhs[g.lhs(2, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 3, AA, i, j, k)] * lhs[g.lhs(3, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 4, AA, i, j, k)] * lhs[g.lhs(4, 2, CC, i - 1, j, k)];
                lhs[g.lhs(1, 2, BB, i, j, k)] = lhs[g.lhs(1, 2, BB, i, j, k)]
                    - lhs[g.lhs(1, 0, AA, i, j, k)] * lhs[g.lhs(0, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 1, AA, i, j, k)] * lhs[g.lhs(1, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 2, AA, i, j, k)] * lhs[g.lhs(2, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 3, AA, i, j, k)] * lhs[g.lhs(3, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 4, AA, i, j, k)] * lhs[g.lhs(4, 2, CC, i - 1, j, k)];
                lhs[g.lhs(2, 2, BB, i, j, k)] = lhs[g.lhs(2, 2, BB, i, j, k)]
                    - lhs[g.lhs(2, 0, AA, i, j, k)] * lhs[g.lhs(0, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 1, AA, i, j, k)] * lhs[g.lhs(1, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 2, AA, i, j, k)] * lhs[g.lhs(2, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 3, AA, i, j, k)] * lhs[g.lhs(3, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 4, AA, i, j, k)] * lhs[g.lhs(4, 2, CC, i - 1, j, k)];
                lhs[g.lhs(3, 2, BB, i, j, k)] = lhs[g.lhs(3, 2, BB, i, j, k)]
                    - lhs[g.lhs(3, 0, AA, i, j, k)] * lhs[g.lhs(0, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 1, AA, i, j, k)] * lhs[g.lhs(1, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 2, AA, i, j, k)] * lhs[g.lhs(2, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 3, AA, i, j, k)] * lhs[g.lhs(3, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 4, AA, i, j, k)] * lhs[g.lhs(4, 2, CC, i - 1, j, k)];
                lhs[g.lhs(4, 2, BB, i, j, k)] = lhs[g.lhs(4, 2, BB, i, j, k)]
                    - lhs[g.lhs(4, 0, AA, i, j, k)] * lhs[g.lhs(0, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 1, AA, i, j, k)] * lhs[g.lhs(1, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 2, AA, i, j, k)] * lhs[g.lhs(2, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 3, AA, i, j, k)] * lhs[g.lhs(3, 2, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 4, AA, i, j, k)] * lhs[g.lhs(4, 2, CC, i - 1, j, k)];
                lhs[g.lhs(0, 3, BB, i, j, k)] = lhs[g.lhs(0, 3, BB, i, j, k)]
                    - lhs[g.lhs(0, 0, AA, i, j, k)] * lhs[g.lhs(0, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 1, AA, i, j, k)] * lhs[g.lhs(1, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 2, AA, i, j, k)] * lhs[g.lhs(2, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 3, AA, i, j, k)] * lhs[g.lhs(3, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 4, AA, i, j, k)] * lhs[g.lhs(4, 3, CC, i - 1, j, k)];
                lhs[g.lhs(1, 3, BB, i, j, k)] = lhs[g.lhs(1, 3, BB, i, j, k)]
                    - lhs[g.lhs(1, 0, AA, i, j, k)] * lhs[g.lhs(0, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 1, AA, i, j, k)] * lhs[g.lhs(1, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 2, AA, i, j, k)] * lhs[g.lhs(2, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 3, AA, i, j, k)] * lhs[g.lhs(3, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 4, AA, i, j, k)] * lhs[g.lhs(4, 3, CC, i - 1, j, k)];
                lhs[g.lhs(2, 3, BB, i, j, k)] = lhs[g.lhs(2, 3, BB, i, j, k)]
                    - lhs[g.lhs(2, 0, AA, i, j, k)] * lhs[g.lhs(0, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 1, AA, i, j, k)] * lhs[g.lhs(1, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 2, AA, i, j, k)] * lhs[g.lhs(2, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 3, AA, i, j, k)] * lhs[g.lhs(3, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 4, AA, i, j, k)] * lhs[g.lhs(4, 3, CC, i - 1, j, k)];
                lhs[g.lhs(3, 3, BB, i, j, k)] = lhs[g.lhs(3, 3, BB, i, j, k)]
                    - lhs[g.lhs(3, 0, AA, i, j, k)] * lhs[g.lhs(0, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 1, AA, i, j, k)] * lhs[g.lhs(1, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 2, AA, i, j, k)] * lhs[g.lhs(2, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 3, AA, i, j, k)] * lhs[g.lhs(3, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 4, AA, i, j, k)] * lhs[g.lhs(4, 3, CC, i - 1, j, k)];
                lhs[g.lhs(4, 3, BB, i, j, k)] = lhs[g.lhs(4, 3, BB, i, j, k)]
                    - lhs[g.lhs(4, 0, AA, i, j, k)] * lhs[g.lhs(0, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 1, AA, i, j, k)] * lhs[g.lhs(1, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 2, AA, i, j, k)] * lhs[g.lhs(2, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 3, AA, i, j, k)] * lhs[g.lhs(3, 3, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 4, AA, i, j, k)] * lhs[g.lhs(4, 3, CC, i - 1, j, k)];
                lhs[g.lhs(0, 4, BB, i, j, k)] = lhs[g.lhs(0, 4, BB, i, j, k)]
                    - lhs[g.lhs(0, 0, AA, i, j, k)] * lhs[g.lhs(0, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 1, AA, i, j, k)] * lhs[g.lhs(1, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 2, AA, i, j, k)] * lhs[g.lhs(2, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 3, AA, i, j, k)] * lhs[g.lhs(3, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(0, 4, AA, i, j, k)] * lhs[g.lhs(4, 4, CC, i - 1, j, k)];
                lhs[g.lhs(1, 4, BB, i, j, k)] = lhs[g.lhs(1, 4, BB, i, j, k)]
                    - lhs[g.lhs(1, 0, AA, i, j, k)] * lhs[g.lhs(0, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 1, AA, i, j, k)] * lhs[g.lhs(1, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 2, AA, i, j, k)] * lhs[g.lhs(2, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 3, AA, i, j, k)] * lhs[g.lhs(3, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(1, 4, AA, i, j, k)] * lhs[g.lhs(4, 4, CC, i - 1, j, k)];
                lhs[g.lhs(2, 4, BB, i, j, k)] = lhs[g.lhs(2, 4, BB, i, j, k)]
                    - lhs[g.lhs(2, 0, AA, i, j, k)] * lhs[g.lhs(0, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 1, AA, i, j, k)] * lhs[g.lhs(1, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 2, AA, i, j, k)] * lhs[g.lhs(2, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 3, AA, i, j, k)] * lhs[g.lhs(3, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(2, 4, AA, i, j, k)] * lhs[g.lhs(4, 4, CC, i - 1, j, k)];
                lhs[g.lhs(3, 4, BB, i, j, k)] = lhs[g.lhs(3, 4, BB, i, j, k)]
                    - lhs[g.lhs(3, 0, AA, i, j, k)] * lhs[g.lhs(0, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 1, AA, i, j, k)] * lhs[g.lhs(1, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 2, AA, i, j, k)] * lhs[g.lhs(2, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 3, AA, i, j, k)] * lhs[g.lhs(3, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(3, 4, AA, i, j, k)] * lhs[g.lhs(4, 4, CC, i - 1, j, k)];
                lhs[g.lhs(4, 4, BB, i, j, k)] = lhs[g.lhs(4, 4, BB, i, j, k)]
                    - lhs[g.lhs(4, 0, AA, i, j, k)] * lhs[g.lhs(0, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 1, AA, i, j, k)] * lhs[g.lhs(1, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 2, AA, i, j, k)] * lhs[g.lhs(2, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 3, AA, i, j, k)] * lhs[g.lhs(3, 4, CC, i - 1, j, k)]
                    - lhs[g.lhs(4, 4, AA, i, j, k)] * lhs[g.lhs(4, 4, CC, i - 1, j, k)];
                let pivot = 1.00 / lhs[g.lhs(0, 0, BB, i, j, k)];
                lhs[g.lhs(0, 1, BB, i, j, k)] = lhs[g.lhs(0, 1, BB, i, j, k)] * pivot;
                lhs[g.lhs(0, 2, BB, i, j, k)] = lhs[g.lhs(0, 2, BB, i, j, k)] * pivot;
                lhs[g.lhs(0, 3, BB, i, j, k)] = lhs[g.lhs(0, 3, BB, i, j, k)] * pivot;
                lhs[g.lhs(0, 4, BB, i, j, k)] = lhs[g.lhs(0, 4, BB, i, j, k)] * pivot;
                lhs[g.lhs(0, 0, CC, i, j, k)] = lhs[g.lhs(0, 0, CC, i, j, k)] * pivot;
                lhs[g.lhs(0, 1, CC, i, j, k)] = lhs[g.lhs(0, 1, CC, i, j, k)] * pivot;
                lhs[g.lhs(0, 2, CC, i, j, k)] = lhs[g.lhs(0, 2, CC, i, j, k)] * pivot;
                lhs[g.lhs(0, 3, CC, i, j, k)] = lhs[g.lhs(0, 3, CC, i, j, k)] * pivot;
                lhs[g.lhs(0, 4, CC, i, j, k)] = lhs[g.lhs(0, 4, CC, i, j, k)] * pivot;
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(1, 0, BB, i, j, k)];
                lhs[g.lhs(1, 1, BB, i, j, k)] = lhs[g.lhs(1, 1, BB, i, j, k)] - coeff * lhs[g.lhs(0, 1, BB, i, j, k)];
                lhs[g.lhs(1, 2, BB, i, j, k)] = lhs[g.lhs(1, 2, BB, i, j, k)] - coeff * lhs[g.lhs(0, 2, BB, i, j, k)];
                lhs[g.lhs(1, 3, BB, i, j, k)] = lhs[g.lhs(1, 3, BB, i, j, k)] - coeff * lhs[g.lhs(0, 3, BB, i, j, k)];
                lhs[g.lhs(1, 4, BB, i, j, k)] = lhs[g.lhs(1, 4, BB, i, j, k)] - coeff * lhs[g.lhs(0, 4, BB, i, j, k)];
                lhs[g.lhs(1, 0, CC, i, j, k)] = lhs[g.lhs(1, 0, CC, i, j, k)] - coeff * lhs[g.lhs(0, 0, CC, i, j, k)];
                lhs[g.lhs(1, 1, CC, i, j, k)] = lhs[g.lhs(1, 1, CC, i, j, k)] - coeff * lhs[g.lhs(0, 1, CC, i, j, k)];
                lhs[g.lhs(1, 2, CC, i, j, k)] = lhs[g.lhs(1, 2, CC, i, j, k)] - coeff * lhs[g.lhs(0, 2, CC, i, j, k)];
                lhs[g.lhs(1, 3, CC, i, j, k)] = lhs[g.lhs(1, 3, CC, i, j, k)] - coeff * lhs[g.lhs(0, 3, CC, i, j, k)];
                lhs[g.lhs(1, 4, CC, i, j, k)] = lhs[g.lhs(1, 4, CC, i, j, k)] - coeff * lhs[g.lhs(0, 4, CC, i, j, k)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let coeff = lhs[g.lhs(2, 0, BB, i, j, k)];
                lhs[g.lhs(2, 1, BB, i, j, k)] = lhs[g.lhs(2, 1, BB, i, j, k)] - coeff * lhs[g.lhs(0, 1, BB, i, j, k)];
                lhs[g.lhs(2, 2, BB, i, j, k)] = lhs[g.lhs(2, 2, BB, i, j, k)] - coeff * lhs[g.lhs(0, 2, BB, i, j, k)];
                lhs[g.lhs(2, 3, BB, i, j, k)] = lhs[g.lhs(2, 3, BB, i, j, k)] - coeff * lhs[g.lhs(0, 3, BB, i, j, k)];
                lhs[g.lhs(2, 4, BB, i, j, k)] = lhs[g.lhs(2, 4, BB, i, j, k)] - coeff * lhs[g.lhs(0, 4, BB, i, j, k)];
                lhs[g.lhs(2, 0, CC, i, j, k)] = lhs[g.lhs(2, 0, CC, i, j, k)] - coeff * lhs[g.lhs(0, 0, CC, i, j, k)];
                lhs[g.lhs(2, 1, CC, i, j, k)] = lhs[g.lhs(2, 1, CC, i, j, k)] - coeff * lhs[g.lhs(0, 1, CC, i, j, k)];
                lhs[g.lhs(2, 2, CC, i, j, k)] = lhs[g.lhs(2, 2, CC, i, j, k)] - coeff * lhs[g.lhs(0, 2, CC, i, j, k)];
                lhs[g.lhs(2, 3, CC, i, j, k)] = lhs[g.lhs(2, 3, CC, i, j, k)] - coeff * lhs[g.lhs(0, 3, CC, i, j, k)];
                lhs[g.lhs(2, 4, CC, i, j, k)] = lhs[g.lhs(2, 4, CC, i, j, k)] - coeff * lhs[g.lhs(0, 4, CC, i, j, k)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let coeff = lhs[g.lhs(3, 0, BB, i, j, k)];
                lhs[g.lhs(3, 1, BB, i, j, k)] = lhs[g.lhs(3, 1, BB, i, j, k)] - coeff * lhs[g.lhs(0, 1, BB, i, j, k)];
                lhs[g.lhs(3, 2, BB, i, j, k)] = lhs[g.lhs(3, 2, BB, i, j, k)] - coeff * lhs[g.lhs(0, 2, BB, i, j, k)];
                lhs[g.lhs(3, 3, BB, i, j, k)] = lhs[g.lhs(3, 3, BB, i, j, k)] - coeff * lhs[g.lhs(0, 3, BB, i, j, k)];
                lhs[g.lhs(3, 4, BB, i, j, k)] = lhs[g.lhs(3, 4, BB, i, j, k)] - coeff * lhs[g.lhs(0, 4, BB, i, j, k)];
                lhs[g.lhs(3, 0, CC, i, j, k)] = lhs[g.lhs(3, 0, CC, i, j, k)] - coeff * lhs[g.lhs(0, 0, CC, i, j, k)];
                lhs[g.lhs(3, 1, CC, i, j, k)] = lhs[g.lhs(3, 1, CC, i, j, k)] - coeff * lhs[g.lhs(0, 1, CC, i, j, k)];
                lhs[g.lhs(3, 2, CC, i, j, k)] = lhs[g.lhs(3, 2, CC, i, j, k)] - coeff * lhs[g.lhs(0, 2, CC, i, j, k)];
                lhs[g.lhs(3, 3, CC, i, j, k)] = lhs[g.lhs(3, 3, CC, i, j, k)] - coeff * lhs[g.lhs(0, 3, CC, i, j, k)];
                lhs[g.lhs(3, 4, CC, i, j, k)] = lhs[g.lhs(3, 4, CC, i, j, k)] - coeff * lhs[g.lhs(0, 4, CC, i, j, k)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let coeff = lhs[g.lhs(4, 0, BB, i, j, k)];
                lhs[g.lhs(4, 1, BB, i, j, k)] = lhs[g.lhs(4, 1, BB, i, j, k)] - coeff * lhs[g.lhs(0, 1, BB, i, j, k)];
                lhs[g.lhs(4, 2, BB, i, j, k)] = lhs[g.lhs(4, 2, BB, i, j, k)] - coeff * lhs[g.lhs(0, 2, BB, i, j, k)];
                lhs[g.lhs(4, 3, BB, i, j, k)] = lhs[g.lhs(4, 3, BB, i, j, k)] - coeff * lhs[g.lhs(0, 3, BB, i, j, k)];
                lhs[g.lhs(4, 4, BB, i, j, k)] = lhs[g.lhs(4, 4, BB, i, j, k)] - coeff * lhs[g.lhs(0, 4, BB, i, j, k)];
                lhs[g.lhs(4, 0, CC, i, j, k)] = lhs[g.lhs(4, 0, CC, i, j, k)] - coeff * lhs[g.lhs(0, 0, CC, i, j, k)];
                lhs[g.lhs(4, 1, CC, i, j, k)] = lhs[g.lhs(4, 1, CC, i, j, k)] - coeff * lhs[g.lhs(0, 1, CC, i, j, k)];
                lhs[g.lhs(4, 2, CC, i, j, k)] = lhs[g.lhs(4, 2, CC, i, j, k)] - coeff * lhs[g.lhs(0, 2, CC, i, j, k)];
                lhs[g.lhs(4, 3, CC, i, j, k)] = lhs[g.lhs(4, 3, CC, i, j, k)] - coeff * lhs[g.lhs(0, 3, CC, i, j, k)];
                lhs[g.lhs(4, 4, CC, i, j, k)] = lhs[g.lhs(4, 4, CC, i, j, k)] - coeff * lhs[g.lhs(0, 4, CC, i, j, k)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(1, 1, BB, i, j, k)];
                lhs[g.lhs(1, 2, BB, i, j, k)] = lhs[g.lhs(1, 2, BB, i, j, k)] * pivot;
                lhs[g.lhs(1, 3, BB, i, j, k)] = lhs[g.lhs(1, 3, BB, i, j, k)] * pivot;
                lhs[g.lhs(1, 4, BB, i, j, k)] = lhs[g.lhs(1, 4, BB, i, j, k)] * pivot;
                lhs[g.lhs(1, 0, CC, i, j, k)] = lhs[g.lhs(1, 0, CC, i, j, k)] * pivot;
                lhs[g.lhs(1, 1, CC, i, j, k)] = lhs[g.lhs(1, 1, CC, i, j, k)] * pivot;
                lhs[g.lhs(1, 2, CC, i, j, k)] = lhs[g.lhs(1, 2, CC, i, j, k)] * pivot;
                lhs[g.lhs(1, 3, CC, i, j, k)] = lhs[g.lhs(1, 3, CC, i, j, k)] * pivot;
                lhs[g.lhs(1, 4, CC, i, j, k)] = lhs[g.lhs(1, 4, CC, i, j, k)] * pivot;
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 1, BB, i, j, k)];
                lhs[g.lhs(0, 2, BB, i, j, k)] = lhs[g.lhs(0, 2, BB, i, j, k)] - coeff * lhs[g.lhs(1, 2, BB, i, j, k)];
                lhs[g.lhs(0, 3, BB, i, j, k)] = lhs[g.lhs(0, 3, BB, i, j, k)] - coeff * lhs[g.lhs(1, 3, BB, i, j, k)];
                lhs[g.lhs(0, 4, BB, i, j, k)] = lhs[g.lhs(0, 4, BB, i, j, k)] - coeff * lhs[g.lhs(1, 4, BB, i, j, k)];
                lhs[g.lhs(0, 0, CC, i, j, k)] = lhs[g.lhs(0, 0, CC, i, j, k)] - coeff * lhs[g.lhs(1, 0, CC, i, j, k)];
                lhs[g.lhs(0, 1, CC, i, j, k)] = lhs[g.lhs(0, 1, CC, i, j, k)] - coeff * lhs[g.lhs(1, 1, CC, i, j, k)];
                lhs[g.lhs(0, 2, CC, i, j, k)] = lhs[g.lhs(0, 2, CC, i, j, k)] - coeff * lhs[g.lhs(1, 2, CC, i, j, k)];
                lhs[g.lhs(0, 3, CC, i, j, k)] = lhs[g.lhs(0, 3, CC, i, j, k)] - coeff * lhs[g.lhs(1, 3, CC, i, j, k)];
                lhs[g.lhs(0, 4, CC, i, j, k)] = lhs[g.lhs(0, 4, CC, i, j, k)] - coeff * lhs[g.lhs(1, 4, CC, i, j, k)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let coeff = lhs[g.lhs(2, 1, BB, i, j, k)];
                lhs[g.lhs(2, 2, BB, i, j, k)] = lhs[g.lhs(2, 2, BB, i, j, k)] - coeff * lhs[g.lhs(1, 2, BB, i, j, k)];
                lhs[g.lhs(2, 3, BB, i, j, k)] = lhs[g.lhs(2, 3, BB, i, j, k)] - coeff * lhs[g.lhs(1, 3, BB, i, j, k)];
                lhs[g.lhs(2, 4, BB, i, j, k)] = lhs[g.lhs(2, 4, BB, i, j, k)] - coeff * lhs[g.lhs(1, 4, BB, i, j, k)];
                lhs[g.lhs(2, 0, CC, i, j, k)] = lhs[g.lhs(2, 0, CC, i, j, k)] - coeff * lhs[g.lhs(1, 0, CC, i, j, k)];
                lhs[g.lhs(2, 1, CC, i, j, k)] = lhs[g.lhs(2, 1, CC, i, j, k)] - coeff * lhs[g.lhs(1, 1, CC, i, j, k)];
                lhs[g.lhs(2, 2, CC, i, j, k)] = lhs[g.lhs(2, 2, CC, i, j, k)] - coeff * lhs[g.lhs(1, 2, CC, i, j, k)];
                lhs[g.lhs(2, 3, CC, i, j, k)] = lhs[g.lhs(2, 3, CC, i, j, k)] - coeff * lhs[g.lhs(1, 3, CC, i, j, k)];
                lhs[g.lhs(2, 4, CC, i, j, k)] = lhs[g.lhs(2, 4, CC, i, j, k)] - coeff * lhs[g.lhs(1, 4, CC, i, j, k)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let coeff = lhs[g.lhs(3, 1, BB, i, j, k)];
                lhs[g.lhs(3, 2, BB, i, j, k)] = lhs[g.lhs(3, 2, BB, i, j, k)] - coeff * lhs[g.lhs(1, 2, BB, i, j, k)];
                lhs[g.lhs(3, 3, BB, i, j, k)] = lhs[g.lhs(3, 3, BB, i, j, k)] - coeff * lhs[g.lhs(1, 3, BB, i, j, k)];
                lhs[g.lhs(3, 4, BB, i, j, k)] = lhs[g.lhs(3, 4, BB, i, j, k)] - coeff * lhs[g.lhs(1, 4, BB, i, j, k)];
                lhs[g.lhs(3, 0, CC, i, j, k)] = lhs[g.lhs(3, 0, CC, i, j, k)] - coeff * lhs[g.lhs(1, 0, CC, i, j, k)];
                lhs[g.lhs(3, 1, CC, i, j, k)] = lhs[g.lhs(3, 1, CC, i, j, k)] - coeff * lhs[g.lhs(1, 1, CC, i, j, k)];
                lhs[g.lhs(3, 2, CC, i, j, k)] = lhs[g.lhs(3, 2, CC, i, j, k)] - coeff * lhs[g.lhs(1, 2, CC, i, j, k)];
                lhs[g.lhs(3, 3, CC, i, j, k)] = lhs[g.lhs(3, 3, CC, i, j, k)] - coeff * lhs[g.lhs(1, 3, CC, i, j, k)];
                lhs[g.lhs(3, 4, CC, i, j, k)] = lhs[g.lhs(3, 4, CC, i, j, k)] - coeff * lhs[g.lhs(1, 4, CC, i, j, k)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let coeff = lhs[g.lhs(4, 1, BB, i, j, k)];
                lhs[g.lhs(4, 2, BB, i, j, k)] = lhs[g.lhs(4, 2, BB, i, j, k)] - coeff * lhs[g.lhs(1, 2, BB, i, j, k)];
                lhs[g.lhs(4, 3, BB, i, j, k)] = lhs[g.lhs(4, 3, BB, i, j, k)] - coeff * lhs[g.lhs(1, 3, BB, i, j, k)];
                lhs[g.lhs(4, 4, BB, i, j, k)] = lhs[g.lhs(4, 4, BB, i, j, k)] - coeff * lhs[g.lhs(1, 4, BB, i, j, k)];
                lhs[g.lhs(4, 0, CC, i, j, k)] = lhs[g.lhs(4, 0, CC, i, j, k)] - coeff * lhs[g.lhs(1, 0, CC, i, j, k)];
                lhs[g.lhs(4, 1, CC, i, j, k)] = lhs[g.lhs(4, 1, CC, i, j, k)] - coeff * lhs[g.lhs(1, 1, CC, i, j, k)];
                lhs[g.lhs(4, 2, CC, i, j, k)] = lhs[g.lhs(4, 2, CC, i, j, k)] - coeff * lhs[g.lhs(1, 2, CC, i, j, k)];
                lhs[g.lhs(4, 3, CC, i, j, k)] = lhs[g.lhs(4, 3, CC, i, j, k)] - coeff * lhs[g.lhs(1, 3, CC, i, j, k)];
                lhs[g.lhs(4, 4, CC, i, j, k)] = lhs[g.lhs(4, 4, CC, i, j, k)] - coeff * lhs[g.lhs(1, 4, CC, i, j, k)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(2, 2, BB, i, j, k)];
                lhs[g.lhs(2, 3, BB, i, j, k)] = lhs[g.lhs(2, 3, BB, i, j, k)] * pivot;
                lhs[g.lhs(2, 4, BB, i, j, k)] = lhs[g.lhs(2, 4, BB, i, j, k)] * pivot;
                lhs[g.lhs(2, 0, CC, i, j, k)] = lhs[g.lhs(2, 0, CC, i, j, k)] * pivot;
                lhs[g.lhs(2, 1, CC, i, j, k)] = lhs[g.lhs(2, 1, CC, i, j, k)] * pivot;
                lhs[g.lhs(2, 2, CC, i, j, k)] = lhs[g.lhs(2, 2, CC, i, j, k)] * pivot;
                lhs[g.lhs(2, 3, CC, i, j, k)] = lhs[g.lhs(2, 3, CC, i, j, k)] * pivot;
                lhs[g.lhs(2, 4, CC, i, j, k)] = lhs[g.lhs(2, 4, CC, i, j, k)] * pivot;
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 2, BB, i, j, k)];
                lhs[g.lhs(0, 3, BB, i, j, k)] = lhs[g.lhs(0, 3, BB, i, j, k)] - coeff * lhs[g.lhs(2, 3, BB, i, j, k)];
                lhs[g.lhs(0, 4, BB, i, j, k)] = lhs[g.lhs(0, 4, BB, i, j, k)] - coeff * lhs[g.lhs(2, 4, BB, i, j, k)];
                lhs[g.lhs(0, 0, CC, i, j, k)] = lhs[g.lhs(0, 0, CC, i, j, k)] - coeff * lhs[g.lhs(2, 0, CC, i, j, k)];
                lhs[g.lhs(0, 1, CC, i, j, k)] = lhs[g.lhs(0, 1, CC, i, j, k)] - coeff * lhs[g.lhs(2, 1, CC, i, j, k)];
                lhs[g.lhs(0, 2, CC, i, j, k)] = lhs[g.lhs(0, 2, CC, i, j, k)] - coeff * lhs[g.lhs(2, 2, CC, i, j, k)];
                lhs[g.lhs(0, 3, CC, i, j, k)] = lhs[g.lhs(0, 3, CC, i, j, k)] - coeff * lhs[g.lhs(2, 3, CC, i, j, k)];
                lhs[g.lhs(0, 4, CC, i, j, k)] = lhs[g.lhs(0, 4, CC, i, j, k)] - coeff * lhs[g.lhs(2, 4, CC, i, j, k)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let coeff = lhs[g.lhs(1, 2, BB, i, j, k)];
                lhs[g.lhs(1, 3, BB, i, j, k)] = lhs[g.lhs(1, 3, BB, i, j, k)] - coeff * lhs[g.lhs(2, 3, BB, i, j, k)];
                lhs[g.lhs(1, 4, BB, i, j, k)] = lhs[g.lhs(1, 4, BB, i, j, k)] - coeff * lhs[g.lhs(2, 4, BB, i, j, k)];
                lhs[g.lhs(1, 0, CC, i, j, k)] = lhs[g.lhs(1, 0, CC, i, j, k)] - coeff * lhs[g.lhs(2, 0, CC, i, j, k)];
                lhs[g.lhs(1, 1, CC, i, j, k)] = lhs[g.lhs(1, 1, CC, i, j, k)] - coeff * lhs[g.lhs(2, 1, CC, i, j, k)];
                lhs[g.lhs(1, 2, CC, i, j, k)] = lhs[g.lhs(1, 2, CC, i, j, k)] - coeff * lhs[g.lhs(2, 2, CC, i, j, k)];
                lhs[g.lhs(1, 3, CC, i, j, k)] = lhs[g.lhs(1, 3, CC, i, j, k)] - coeff * lhs[g.lhs(2, 3, CC, i, j, k)];
                lhs[g.lhs(1, 4, CC, i, j, k)] = lhs[g.lhs(1, 4, CC, i, j, k)] - coeff * lhs[g.lhs(2, 4, CC, i, j, k)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let coeff = lhs[g.lhs(3, 2, BB, i, j, k)];
                lhs[g.lhs(3, 3, BB, i, j, k)] = lhs[g.lhs(3, 3, BB, i, j, k)] - coeff * lhs[g.lhs(2, 3, BB, i, j, k)];
                lhs[g.lhs(3, 4, BB, i, j, k)] = lhs[g.lhs(3, 4, BB, i, j, k)] - coeff * lhs[g.lhs(2, 4, BB, i, j, k)];
                lhs[g.lhs(3, 0, CC, i, j, k)] = lhs[g.lhs(3, 0, CC, i, j, k)] - coeff * lhs[g.lhs(2, 0, CC, i, j, k)];
                lhs[g.lhs(3, 1, CC, i, j, k)] = lhs[g.lhs(3, 1, CC, i, j, k)] - coeff * lhs[g.lhs(2, 1, CC, i, j, k)];
                lhs[g.lhs(3, 2, CC, i, j, k)] = lhs[g.lhs(3, 2, CC, i, j, k)] - coeff * lhs[g.lhs(2, 2, CC, i, j, k)];
                lhs[g.lhs(3, 3, CC, i, j, k)] = lhs[g.lhs(3, 3, CC, i, j, k)] - coeff * lhs[g.lhs(2, 3, CC, i, j, k)];
                lhs[g.lhs(3, 4, CC, i, j, k)] = lhs[g.lhs(3, 4, CC, i, j, k)] - coeff * lhs[g.lhs(2, 4, CC, i, j, k)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let coeff = lhs[g.lhs(4, 2, BB, i, j, k)];
                lhs[g.lhs(4, 3, BB, i, j, k)] = lhs[g.lhs(4, 3, BB, i, j, k)] - coeff * lhs[g.lhs(2, 3, BB, i, j, k)];
                lhs[g.lhs(4, 4, BB, i, j, k)] = lhs[g.lhs(4, 4, BB, i, j, k)] - coeff * lhs[g.lhs(2, 4, BB, i, j, k)];
                lhs[g.lhs(4, 0, CC, i, j, k)] = lhs[g.lhs(4, 0, CC, i, j, k)] - coeff * lhs[g.lhs(2, 0, CC, i, j, k)];
                lhs[g.lhs(4, 1, CC, i, j, k)] = lhs[g.lhs(4, 1, CC, i, j, k)] - coeff * lhs[g.lhs(2, 1, CC, i, j, k)];
                lhs[g.lhs(4, 2, CC, i, j, k)] = lhs[g.lhs(4, 2, CC, i, j, k)] - coeff * lhs[g.lhs(2, 2, CC, i, j, k)];
                lhs[g.lhs(4, 3, CC, i, j, k)] = lhs[g.lhs(4, 3, CC, i, j, k)] - coeff * lhs[g.lhs(2, 3, CC, i, j, k)];
                lhs[g.lhs(4, 4, CC, i, j, k)] = lhs[g.lhs(4, 4, CC, i, j, k)] - coeff * lhs[g.lhs(2, 4, CC, i, j, k)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(3, 3, BB, i, j, k)];
                lhs[g.lhs(3, 4, BB, i, j, k)] = lhs[g.lhs(3, 4, BB, i, j, k)] * pivot;
                lhs[g.lhs(3, 0, CC, i, j, k)] = lhs[g.lhs(3, 0, CC, i, j, k)] * pivot;
                lhs[g.lhs(3, 1, CC, i, j, k)] = lhs[g.lhs(3, 1, CC, i, j, k)] * pivot;
                lhs[g.lhs(3, 2, CC, i, j, k)] = lhs[g.lhs(3, 2, CC, i, j, k)] * pivot;
                lhs[g.lhs(3, 3, CC, i, j, k)] = lhs[g.lhs(3, 3, CC, i, j, k)] * pivot;
                lhs[g.lhs(3, 4, CC, i, j, k)] = lhs[g.lhs(3, 4, CC, i, j, k)] * pivot;
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 3, BB, i, j, k)];
                lhs[g.lhs(0, 4, BB, i, j, k)] = lhs[g.lhs(0, 4, BB, i, j, k)] - coeff * lhs[g.lhs(3, 4, BB, i, j, k)];
                lhs[g.lhs(0, 0, CC, i, j, k)] = lhs[g.lhs(0, 0, CC, i, j, k)] - coeff * lhs[g.lhs(3, 0, CC, i, j, k)];
                lhs[g.lhs(0, 1, CC, i, j, k)] = lhs[g.lhs(0, 1, CC, i, j, k)] - coeff * lhs[g.lhs(3, 1, CC, i, j, k)];
                lhs[g.lhs(0, 2, CC, i, j, k)] = lhs[g.lhs(0, 2, CC, i, j, k)] - coeff * lhs[g.lhs(3, 2, CC, i, j, k)];
                lhs[g.lhs(0, 3, CC, i, j, k)] = lhs[g.lhs(0, 3, CC, i, j, k)] - coeff * lhs[g.lhs(3, 3, CC, i, j, k)];
                lhs[g.lhs(0, 4, CC, i, j, k)] = lhs[g.lhs(0, 4, CC, i, j, k)] - coeff * lhs[g.lhs(3, 4, CC, i, j, k)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let coeff = lhs[g.lhs(1, 3, BB, i, j, k)];
                lhs[g.lhs(1, 4, BB, i, j, k)] = lhs[g.lhs(1, 4, BB, i, j, k)] - coeff * lhs[g.lhs(3, 4, BB, i, j, k)];
                lhs[g.lhs(1, 0, CC, i, j, k)] = lhs[g.lhs(1, 0, CC, i, j, k)] - coeff * lhs[g.lhs(3, 0, CC, i, j, k)];
                lhs[g.lhs(1, 1, CC, i, j, k)] = lhs[g.lhs(1, 1, CC, i, j, k)] - coeff * lhs[g.lhs(3, 1, CC, i, j, k)];
                lhs[g.lhs(1, 2, CC, i, j, k)] = lhs[g.lhs(1, 2, CC, i, j, k)] - coeff * lhs[g.lhs(3, 2, CC, i, j, k)];
                lhs[g.lhs(1, 3, CC, i, j, k)] = lhs[g.lhs(1, 3, CC, i, j, k)] - coeff * lhs[g.lhs(3, 3, CC, i, j, k)];
                lhs[g.lhs(1, 4, CC, i, j, k)] = lhs[g.lhs(1, 4, CC, i, j, k)] - coeff * lhs[g.lhs(3, 4, CC, i, j, k)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let coeff = lhs[g.lhs(2, 3, BB, i, j, k)];
                lhs[g.lhs(2, 4, BB, i, j, k)] = lhs[g.lhs(2, 4, BB, i, j, k)] - coeff * lhs[g.lhs(3, 4, BB, i, j, k)];
                lhs[g.lhs(2, 0, CC, i, j, k)] = lhs[g.lhs(2, 0, CC, i, j, k)] - coeff * lhs[g.lhs(3, 0, CC, i, j, k)];
                lhs[g.lhs(2, 1, CC, i, j, k)] = lhs[g.lhs(2, 1, CC, i, j, k)] - coeff * lhs[g.lhs(3, 1, CC, i, j, k)];
                lhs[g.lhs(2, 2, CC, i, j, k)] = lhs[g.lhs(2, 2, CC, i, j, k)] - coeff * lhs[g.lhs(3, 2, CC, i, j, k)];
                lhs[g.lhs(2, 3, CC, i, j, k)] = lhs[g.lhs(2, 3, CC, i, j, k)] - coeff * lhs[g.lhs(3, 3, CC, i, j, k)];
                lhs[g.lhs(2, 4, CC, i, j, k)] = lhs[g.lhs(2, 4, CC, i, j, k)] - coeff * lhs[g.lhs(3, 4, CC, i, j, k)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let coeff = lhs[g.lhs(4, 3, BB, i, j, k)];
                lhs[g.lhs(4, 4, BB, i, j, k)] = lhs[g.lhs(4, 4, BB, i, j, k)] - coeff * lhs[g.lhs(3, 4, BB, i, j, k)];
                lhs[g.lhs(4, 0, CC, i, j, k)] = lhs[g.lhs(4, 0, CC, i, j, k)] - coeff * lhs[g.lhs(3, 0, CC, i, j, k)];
                lhs[g.lhs(4, 1, CC, i, j, k)] = lhs[g.lhs(4, 1, CC, i, j, k)] - coeff * lhs[g.lhs(3, 1, CC, i, j, k)];
                lhs[g.lhs(4, 2, CC, i, j, k)] = lhs[g.lhs(4, 2, CC, i, j, k)] - coeff * lhs[g.lhs(3, 2, CC, i, j, k)];
                lhs[g.lhs(4, 3, CC, i, j, k)] = lhs[g.lhs(4, 3, CC, i, j, k)] - coeff * lhs[g.lhs(3, 3, CC, i, j, k)];
                lhs[g.lhs(4, 4, CC, i, j, k)] = lhs[g.lhs(4, 4, CC, i, j, k)] - coeff * lhs[g.lhs(3, 4, CC, i, j, k)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(4, 4, BB, i, j, k)];
                lhs[g.lhs(4, 0, CC, i, j, k)] = lhs[g.lhs(4, 0, CC, i, j, k)] * pivot;
                lhs[g.lhs(4, 1, CC, i, j, k)] = lhs[g.lhs(4, 1, CC, i, j, k)] * pivot;
                lhs[g.lhs(4, 2, CC, i, j, k)] = lhs[g.lhs(4, 2, CC, i, j, k)] * pivot;
                lhs[g.lhs(4, 3, CC, i, j, k)] = lhs[g.lhs(4, 3, CC, i, j, k)] * pivot;
                lhs[g.lhs(4, 4, CC, i, j, k)] = lhs[g.lhs(4, 4, CC, i, j, k)] * pivot;
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 4, BB, i, j, k)];
                lhs[g.lhs(0, 0, CC, i, j, k)] = lhs[g.lhs(0, 0, CC, i, j, k)] - coeff * lhs[g.lhs(4, 0, CC, i, j, k)];
                lhs[g.lhs(0, 1, CC, i, j, k)] = lhs[g.lhs(0, 1, CC, i, j, k)] - coeff * lhs[g.lhs(4, 1, CC, i, j, k)];
                lhs[g.lhs(0, 2, CC, i, j, k)] = lhs[g.lhs(0, 2, CC, i, j, k)] - coeff * lhs[g.lhs(4, 2, CC, i, j, k)];
                lhs[g.lhs(0, 3, CC, i, j, k)] = lhs[g.lhs(0, 3, CC, i, j, k)] - coeff * lhs[g.lhs(4, 3, CC, i, j, k)];
                lhs[g.lhs(0, 4, CC, i, j, k)] = lhs[g.lhs(0, 4, CC, i, j, k)] - coeff * lhs[g.lhs(4, 4, CC, i, j, k)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
                let coeff = lhs[g.lhs(1, 4, BB, i, j, k)];
                lhs[g.lhs(1, 0, CC, i, j, k)] = lhs[g.lhs(1, 0, CC, i, j, k)] - coeff * lhs[g.lhs(4, 0, CC, i, j, k)];
                lhs[g.lhs(1, 1, CC, i, j, k)] = lhs[g.lhs(1, 1, CC, i, j, k)] - coeff * lhs[g.lhs(4, 1, CC, i, j, k)];
                lhs[g.lhs(1, 2, CC, i, j, k)] = lhs[g.lhs(1, 2, CC, i, j, k)] - coeff * lhs[g.lhs(4, 2, CC, i, j, k)];
                lhs[g.lhs(1, 3, CC, i, j, k)] = lhs[g.lhs(1, 3, CC, i, j, k)] - coeff * lhs[g.lhs(4, 3, CC, i, j, k)];
                lhs[g.lhs(1, 4, CC, i, j, k)] = lhs[g.lhs(1, 4, CC, i, j, k)] - coeff * lhs[g.lhs(4, 4, CC, i, j, k)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
                let coeff = lhs[g.lhs(2, 4, BB, i, j, k)];
                lhs[g.lhs(2, 0, CC, i, j, k)] = lhs[g.lhs(2, 0, CC, i, j, k)] - coeff * lhs[g.lhs(4, 0, CC, i, j, k)];
                lhs[g.lhs(2, 1, CC, i, j, k)] = lhs[g.lhs(2, 1, CC, i, j, k)] - coeff * lhs[g.lhs(4, 1, CC, i, j, k)];
                lhs[g.lhs(2, 2, CC, i, j, k)] = lhs[g.lhs(2, 2, CC, i, j, k)] - coeff * lhs[g.lhs(4, 2, CC, i, j, k)];
                lhs[g.lhs(2, 3, CC, i, j, k)] = lhs[g.lhs(2, 3, CC, i, j, k)] - coeff * lhs[g.lhs(4, 3, CC, i, j, k)];
                lhs[g.lhs(2, 4, CC, i, j, k)] = lhs[g.lhs(2, 4, CC, i, j, k)] - coeff * lhs[g.lhs(4, 4, CC, i, j, k)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
                let coeff = lhs[g.lhs(3, 4, BB, i, j, k)];
                lhs[g.lhs(3, 0, CC, i, j, k)] = lhs[g.lhs(3, 0, CC, i, j, k)] - coeff * lhs[g.lhs(4, 0, CC, i, j, k)];
                lhs[g.lhs(3, 1, CC, i, j, k)] = lhs[g.lhs(3, 1, CC, i, j, k)] - coeff * lhs[g.lhs(4, 1, CC, i, j, k)];
                lhs[g.lhs(3, 2, CC, i, j, k)] = lhs[g.lhs(3, 2, CC, i, j, k)] - coeff * lhs[g.lhs(4, 2, CC, i, j, k)];
                lhs[g.lhs(3, 3, CC, i, j, k)] = lhs[g.lhs(3, 3, CC, i, j, k)] - coeff * lhs[g.lhs(4, 3, CC, i, j, k)];
                lhs[g.lhs(3, 4, CC, i, j, k)] = lhs[g.lhs(3, 4, CC, i, j, k)] - coeff * lhs[g.lhs(4, 4, CC, i, j, k)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
            }
        }
    }
}

/// The xi elimination's last row: `rhs -= AA rhs` of the row before.
#[acc::parallel(num_gangs(g.gp12), num_workers(4), vector_length(32))]
fn x_solve_last_matvec(rhs: &mut [f64], lhs: &[f64], g: Grid) {
    let Grid { gp12, gp22, i_size, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            rhs[g.at(0, k, j, i_size)] = rhs[g.at(0, k, j, i_size)]
                - lhs[g.lhs(0, 0, AA, i_size, j, k)] * rhs[g.at(0, k, j, i_size - 1)]
                - lhs[g.lhs(0, 1, AA, i_size, j, k)] * rhs[g.at(1, k, j, i_size - 1)]
                - lhs[g.lhs(0, 2, AA, i_size, j, k)] * rhs[g.at(2, k, j, i_size - 1)]
                - lhs[g.lhs(0, 3, AA, i_size, j, k)] * rhs[g.at(3, k, j, i_size - 1)]
                - lhs[g.lhs(0, 4, AA, i_size, j, k)] * rhs[g.at(4, k, j, i_size - 1)];
            rhs[g.at(1, k, j, i_size)] = rhs[g.at(1, k, j, i_size)]
                - lhs[g.lhs(1, 0, AA, i_size, j, k)] * rhs[g.at(0, k, j, i_size - 1)]
                - lhs[g.lhs(1, 1, AA, i_size, j, k)] * rhs[g.at(1, k, j, i_size - 1)]
                - lhs[g.lhs(1, 2, AA, i_size, j, k)] * rhs[g.at(2, k, j, i_size - 1)]
                - lhs[g.lhs(1, 3, AA, i_size, j, k)] * rhs[g.at(3, k, j, i_size - 1)]
                - lhs[g.lhs(1, 4, AA, i_size, j, k)] * rhs[g.at(4, k, j, i_size - 1)];
            rhs[g.at(2, k, j, i_size)] = rhs[g.at(2, k, j, i_size)]
                - lhs[g.lhs(2, 0, AA, i_size, j, k)] * rhs[g.at(0, k, j, i_size - 1)]
                - lhs[g.lhs(2, 1, AA, i_size, j, k)] * rhs[g.at(1, k, j, i_size - 1)]
                - lhs[g.lhs(2, 2, AA, i_size, j, k)] * rhs[g.at(2, k, j, i_size - 1)]
                - lhs[g.lhs(2, 3, AA, i_size, j, k)] * rhs[g.at(3, k, j, i_size - 1)]
                - lhs[g.lhs(2, 4, AA, i_size, j, k)] * rhs[g.at(4, k, j, i_size - 1)];
            rhs[g.at(3, k, j, i_size)] = rhs[g.at(3, k, j, i_size)]
                - lhs[g.lhs(3, 0, AA, i_size, j, k)] * rhs[g.at(0, k, j, i_size - 1)]
                - lhs[g.lhs(3, 1, AA, i_size, j, k)] * rhs[g.at(1, k, j, i_size - 1)]
                - lhs[g.lhs(3, 2, AA, i_size, j, k)] * rhs[g.at(2, k, j, i_size - 1)]
                - lhs[g.lhs(3, 3, AA, i_size, j, k)] * rhs[g.at(3, k, j, i_size - 1)]
                - lhs[g.lhs(3, 4, AA, i_size, j, k)] * rhs[g.at(4, k, j, i_size - 1)];
            rhs[g.at(4, k, j, i_size)] = rhs[g.at(4, k, j, i_size)]
                - lhs[g.lhs(4, 0, AA, i_size, j, k)] * rhs[g.at(0, k, j, i_size - 1)]
                - lhs[g.lhs(4, 1, AA, i_size, j, k)] * rhs[g.at(1, k, j, i_size - 1)]
                - lhs[g.lhs(4, 2, AA, i_size, j, k)] * rhs[g.at(2, k, j, i_size - 1)]
                - lhs[g.lhs(4, 3, AA, i_size, j, k)] * rhs[g.at(3, k, j, i_size - 1)]
                - lhs[g.lhs(4, 4, AA, i_size, j, k)] * rhs[g.at(4, k, j, i_size - 1)];
        }
    }
}

/// The xi elimination's last row: `BB -= AA CC` of the row before.
#[acc::parallel(num_gangs(g.gp12), num_workers(4), vector_length(32))]
fn x_solve_last_matmul(lhs: &mut [f64], g: Grid) {
    let Grid { gp12, gp22, i_size, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            lhs[g.lhs(0, 0, BB, i_size, j, k)] = lhs[g.lhs(0, 0, BB, i_size, j, k)]
                - lhs[g.lhs(0, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 0, CC, i_size - 1, j, k)];
            lhs[g.lhs(1, 0, BB, i_size, j, k)] = lhs[g.lhs(1, 0, BB, i_size, j, k)]
                - lhs[g.lhs(1, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 0, CC, i_size - 1, j, k)];
            lhs[g.lhs(2, 0, BB, i_size, j, k)] = lhs[g.lhs(2, 0, BB, i_size, j, k)]
                - lhs[g.lhs(2, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 0, CC, i_size - 1, j, k)];
            lhs[g.lhs(3, 0, BB, i_size, j, k)] = lhs[g.lhs(3, 0, BB, i_size, j, k)]
                - lhs[g.lhs(3, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 0, CC, i_size - 1, j, k)];
            lhs[g.lhs(4, 0, BB, i_size, j, k)] = lhs[g.lhs(4, 0, BB, i_size, j, k)]
                - lhs[g.lhs(4, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 0, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 0, CC, i_size - 1, j, k)];
            lhs[g.lhs(0, 1, BB, i_size, j, k)] = lhs[g.lhs(0, 1, BB, i_size, j, k)]
                - lhs[g.lhs(0, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 1, CC, i_size - 1, j, k)];
            lhs[g.lhs(1, 1, BB, i_size, j, k)] = lhs[g.lhs(1, 1, BB, i_size, j, k)]
                - lhs[g.lhs(1, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 1, CC, i_size - 1, j, k)];
            lhs[g.lhs(2, 1, BB, i_size, j, k)] = lhs[g.lhs(2, 1, BB, i_size, j, k)]
                - lhs[g.lhs(2, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 1, CC, i_size - 1, j, k)];
            lhs[g.lhs(3, 1, BB, i_size, j, k)] = lhs[g.lhs(3, 1, BB, i_size, j, k)]
                - lhs[g.lhs(3, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 1, CC, i_size - 1, j, k)];
            lhs[g.lhs(4, 1, BB, i_size, j, k)] = lhs[g.lhs(4, 1, BB, i_size, j, k)]
                - lhs[g.lhs(4, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 1, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 1, CC, i_size - 1, j, k)];
            lhs[g.lhs(0, 2, BB, i_size, j, k)] = lhs[g.lhs(0, 2, BB, i_size, j, k)]
                - lhs[g.lhs(0, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 2, CC, i_size - 1, j, k)];
            lhs[g.lhs(1, 2, BB, i_size, j, k)] = lhs[g.lhs(1, 2, BB, i_size, j, k)]
                - lhs[g.lhs(1, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 2, CC, i_size - 1, j, k)];
            lhs[g.lhs(2, 2, BB, i_size, j, k)] = lhs[g.lhs(2, 2, BB, i_size, j, k)]
                - lhs[g.lhs(2, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 2, CC, i_size - 1, j, k)];
            lhs[g.lhs(3, 2, BB, i_size, j, k)] = lhs[g.lhs(3, 2, BB, i_size, j, k)]
                - lhs[g.lhs(3, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 2, CC, i_size - 1, j, k)];
            lhs[g.lhs(4, 2, BB, i_size, j, k)] = lhs[g.lhs(4, 2, BB, i_size, j, k)]
                - lhs[g.lhs(4, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 2, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 2, CC, i_size - 1, j, k)];
            lhs[g.lhs(0, 3, BB, i_size, j, k)] = lhs[g.lhs(0, 3, BB, i_size, j, k)]
                - lhs[g.lhs(0, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 3, CC, i_size - 1, j, k)];
            lhs[g.lhs(1, 3, BB, i_size, j, k)] = lhs[g.lhs(1, 3, BB, i_size, j, k)]
                - lhs[g.lhs(1, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 3, CC, i_size - 1, j, k)];
            lhs[g.lhs(2, 3, BB, i_size, j, k)] = lhs[g.lhs(2, 3, BB, i_size, j, k)]
                - lhs[g.lhs(2, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 3, CC, i_size - 1, j, k)];
            lhs[g.lhs(3, 3, BB, i_size, j, k)] = lhs[g.lhs(3, 3, BB, i_size, j, k)]
                - lhs[g.lhs(3, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 3, CC, i_size - 1, j, k)];
            lhs[g.lhs(4, 3, BB, i_size, j, k)] = lhs[g.lhs(4, 3, BB, i_size, j, k)]
                - lhs[g.lhs(4, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 3, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 3, CC, i_size - 1, j, k)];
            lhs[g.lhs(0, 4, BB, i_size, j, k)] = lhs[g.lhs(0, 4, BB, i_size, j, k)]
                - lhs[g.lhs(0, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(0, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 4, CC, i_size - 1, j, k)];
            lhs[g.lhs(1, 4, BB, i_size, j, k)] = lhs[g.lhs(1, 4, BB, i_size, j, k)]
                - lhs[g.lhs(1, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(1, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 4, CC, i_size - 1, j, k)];
            lhs[g.lhs(2, 4, BB, i_size, j, k)] = lhs[g.lhs(2, 4, BB, i_size, j, k)]
                - lhs[g.lhs(2, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(2, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 4, CC, i_size - 1, j, k)];
            lhs[g.lhs(3, 4, BB, i_size, j, k)] = lhs[g.lhs(3, 4, BB, i_size, j, k)]
                - lhs[g.lhs(3, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(3, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 4, CC, i_size - 1, j, k)];
            lhs[g.lhs(4, 4, BB, i_size, j, k)] = lhs[g.lhs(4, 4, BB, i_size, j, k)]
                - lhs[g.lhs(4, 0, AA, i_size, j, k)] * lhs[g.lhs(0, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 1, AA, i_size, j, k)] * lhs[g.lhs(1, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 2, AA, i_size, j, k)] * lhs[g.lhs(2, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 3, AA, i_size, j, k)] * lhs[g.lhs(3, 4, CC, i_size - 1, j, k)]
                - lhs[g.lhs(4, 4, AA, i_size, j, k)] * lhs[g.lhs(4, 4, CC, i_size - 1, j, k)];
        }
    }
}

/// The xi elimination's last row: `binvrhs` of its diagonal block.
#[acc::parallel(num_gangs(g.gp12), num_workers(4), vector_length(32))]
fn x_solve_last_binvrhs(rhs: &mut [f64], lhs: &mut [f64], g: Grid) {
    let Grid { gp12, gp22, i_size, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            let pivot = 1.00 / lhs[g.lhs(0, 0, BB, i_size, j, k)];
            lhs[g.lhs(0, 1, BB, i_size, j, k)] = lhs[g.lhs(0, 1, BB, i_size, j, k)] * pivot;
            lhs[g.lhs(0, 2, BB, i_size, j, k)] = lhs[g.lhs(0, 2, BB, i_size, j, k)] * pivot;
            lhs[g.lhs(0, 3, BB, i_size, j, k)] = lhs[g.lhs(0, 3, BB, i_size, j, k)] * pivot;
            lhs[g.lhs(0, 4, BB, i_size, j, k)] = lhs[g.lhs(0, 4, BB, i_size, j, k)] * pivot;
            rhs[g.at(0, k, j, i_size)] = rhs[g.at(0, k, j, i_size)] * pivot;
            let coeff = lhs[g.lhs(1, 0, BB, i_size, j, k)];
            lhs[g.lhs(1, 1, BB, i_size, j, k)] = lhs[g.lhs(1, 1, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 1, BB, i_size, j, k)];
            lhs[g.lhs(1, 2, BB, i_size, j, k)] = lhs[g.lhs(1, 2, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 2, BB, i_size, j, k)];
            lhs[g.lhs(1, 3, BB, i_size, j, k)] = lhs[g.lhs(1, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 3, BB, i_size, j, k)];
            lhs[g.lhs(1, 4, BB, i_size, j, k)] = lhs[g.lhs(1, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 4, BB, i_size, j, k)];
            rhs[g.at(1, k, j, i_size)] = rhs[g.at(1, k, j, i_size)] - coeff * rhs[g.at(0, k, j, i_size)];
            let coeff = lhs[g.lhs(2, 0, BB, i_size, j, k)];
            lhs[g.lhs(2, 1, BB, i_size, j, k)] = lhs[g.lhs(2, 1, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 1, BB, i_size, j, k)];
            lhs[g.lhs(2, 2, BB, i_size, j, k)] = lhs[g.lhs(2, 2, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 2, BB, i_size, j, k)];
            lhs[g.lhs(2, 3, BB, i_size, j, k)] = lhs[g.lhs(2, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 3, BB, i_size, j, k)];
            lhs[g.lhs(2, 4, BB, i_size, j, k)] = lhs[g.lhs(2, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 4, BB, i_size, j, k)];
            rhs[g.at(2, k, j, i_size)] = rhs[g.at(2, k, j, i_size)] - coeff * rhs[g.at(0, k, j, i_size)];
            let coeff = lhs[g.lhs(3, 0, BB, i_size, j, k)];
            lhs[g.lhs(3, 1, BB, i_size, j, k)] = lhs[g.lhs(3, 1, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 1, BB, i_size, j, k)];
            lhs[g.lhs(3, 2, BB, i_size, j, k)] = lhs[g.lhs(3, 2, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 2, BB, i_size, j, k)];
            lhs[g.lhs(3, 3, BB, i_size, j, k)] = lhs[g.lhs(3, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 3, BB, i_size, j, k)];
            lhs[g.lhs(3, 4, BB, i_size, j, k)] = lhs[g.lhs(3, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 4, BB, i_size, j, k)];
            rhs[g.at(3, k, j, i_size)] = rhs[g.at(3, k, j, i_size)] - coeff * rhs[g.at(0, k, j, i_size)];
            let coeff = lhs[g.lhs(4, 0, BB, i_size, j, k)];
            lhs[g.lhs(4, 1, BB, i_size, j, k)] = lhs[g.lhs(4, 1, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 1, BB, i_size, j, k)];
            lhs[g.lhs(4, 2, BB, i_size, j, k)] = lhs[g.lhs(4, 2, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 2, BB, i_size, j, k)];
            lhs[g.lhs(4, 3, BB, i_size, j, k)] = lhs[g.lhs(4, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 3, BB, i_size, j, k)];
            lhs[g.lhs(4, 4, BB, i_size, j, k)] = lhs[g.lhs(4, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(0, 4, BB, i_size, j, k)];
            rhs[g.at(4, k, j, i_size)] = rhs[g.at(4, k, j, i_size)] - coeff * rhs[g.at(0, k, j, i_size)];
            let pivot = 1.00 / lhs[g.lhs(1, 1, BB, i_size, j, k)];
            lhs[g.lhs(1, 2, BB, i_size, j, k)] = lhs[g.lhs(1, 2, BB, i_size, j, k)] * pivot;
            lhs[g.lhs(1, 3, BB, i_size, j, k)] = lhs[g.lhs(1, 3, BB, i_size, j, k)] * pivot;
            lhs[g.lhs(1, 4, BB, i_size, j, k)] = lhs[g.lhs(1, 4, BB, i_size, j, k)] * pivot;
            rhs[g.at(1, k, j, i_size)] = rhs[g.at(1, k, j, i_size)] * pivot;
            let coeff = lhs[g.lhs(0, 1, BB, i_size, j, k)];
            lhs[g.lhs(0, 2, BB, i_size, j, k)] = lhs[g.lhs(0, 2, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 2, BB, i_size, j, k)];
            lhs[g.lhs(0, 3, BB, i_size, j, k)] = lhs[g.lhs(0, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 3, BB, i_size, j, k)];
            lhs[g.lhs(0, 4, BB, i_size, j, k)] = lhs[g.lhs(0, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 4, BB, i_size, j, k)];
            rhs[g.at(0, k, j, i_size)] = rhs[g.at(0, k, j, i_size)] - coeff * rhs[g.at(1, k, j, i_size)];
            let coeff = lhs[g.lhs(2, 1, BB, i_size, j, k)];
            lhs[g.lhs(2, 2, BB, i_size, j, k)] = lhs[g.lhs(2, 2, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 2, BB, i_size, j, k)];
            lhs[g.lhs(2, 3, BB, i_size, j, k)] = lhs[g.lhs(2, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 3, BB, i_size, j, k)];
            lhs[g.lhs(2, 4, BB, i_size, j, k)] = lhs[g.lhs(2, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 4, BB, i_size, j, k)];
            rhs[g.at(2, k, j, i_size)] = rhs[g.at(2, k, j, i_size)] - coeff * rhs[g.at(1, k, j, i_size)];
            let coeff = lhs[g.lhs(3, 1, BB, i_size, j, k)];
            lhs[g.lhs(3, 2, BB, i_size, j, k)] = lhs[g.lhs(3, 2, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 2, BB, i_size, j, k)];
            lhs[g.lhs(3, 3, BB, i_size, j, k)] = lhs[g.lhs(3, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 3, BB, i_size, j, k)];
            lhs[g.lhs(3, 4, BB, i_size, j, k)] = lhs[g.lhs(3, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 4, BB, i_size, j, k)];
            rhs[g.at(3, k, j, i_size)] = rhs[g.at(3, k, j, i_size)] - coeff * rhs[g.at(1, k, j, i_size)];
            let coeff = lhs[g.lhs(4, 1, BB, i_size, j, k)];
            lhs[g.lhs(4, 2, BB, i_size, j, k)] = lhs[g.lhs(4, 2, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 2, BB, i_size, j, k)];
            lhs[g.lhs(4, 3, BB, i_size, j, k)] = lhs[g.lhs(4, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 3, BB, i_size, j, k)];
            lhs[g.lhs(4, 4, BB, i_size, j, k)] = lhs[g.lhs(4, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(1, 4, BB, i_size, j, k)];
            rhs[g.at(4, k, j, i_size)] = rhs[g.at(4, k, j, i_size)] - coeff * rhs[g.at(1, k, j, i_size)];
            let pivot = 1.00 / lhs[g.lhs(2, 2, BB, i_size, j, k)];
            lhs[g.lhs(2, 3, BB, i_size, j, k)] = lhs[g.lhs(2, 3, BB, i_size, j, k)] * pivot;
            lhs[g.lhs(2, 4, BB, i_size, j, k)] = lhs[g.lhs(2, 4, BB, i_size, j, k)] * pivot;
            rhs[g.at(2, k, j, i_size)] = rhs[g.at(2, k, j, i_size)] * pivot;
            let coeff = lhs[g.lhs(0, 2, BB, i_size, j, k)];
            lhs[g.lhs(0, 3, BB, i_size, j, k)] = lhs[g.lhs(0, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(2, 3, BB, i_size, j, k)];
            lhs[g.lhs(0, 4, BB, i_size, j, k)] = lhs[g.lhs(0, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(2, 4, BB, i_size, j, k)];
            rhs[g.at(0, k, j, i_size)] = rhs[g.at(0, k, j, i_size)] - coeff * rhs[g.at(2, k, j, i_size)];
            let coeff = lhs[g.lhs(1, 2, BB, i_size, j, k)];
            lhs[g.lhs(1, 3, BB, i_size, j, k)] = lhs[g.lhs(1, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(2, 3, BB, i_size, j, k)];
            lhs[g.lhs(1, 4, BB, i_size, j, k)] = lhs[g.lhs(1, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(2, 4, BB, i_size, j, k)];
            rhs[g.at(1, k, j, i_size)] = rhs[g.at(1, k, j, i_size)] - coeff * rhs[g.at(2, k, j, i_size)];
            let coeff = lhs[g.lhs(3, 2, BB, i_size, j, k)];
            lhs[g.lhs(3, 3, BB, i_size, j, k)] = lhs[g.lhs(3, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(2, 3, BB, i_size, j, k)];
            lhs[g.lhs(3, 4, BB, i_size, j, k)] = lhs[g.lhs(3, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(2, 4, BB, i_size, j, k)];
            rhs[g.at(3, k, j, i_size)] = rhs[g.at(3, k, j, i_size)] - coeff * rhs[g.at(2, k, j, i_size)];
            let coeff = lhs[g.lhs(4, 2, BB, i_size, j, k)];
            lhs[g.lhs(4, 3, BB, i_size, j, k)] = lhs[g.lhs(4, 3, BB, i_size, j, k)] - coeff * lhs[g.lhs(2, 3, BB, i_size, j, k)];
            lhs[g.lhs(4, 4, BB, i_size, j, k)] = lhs[g.lhs(4, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(2, 4, BB, i_size, j, k)];
            rhs[g.at(4, k, j, i_size)] = rhs[g.at(4, k, j, i_size)] - coeff * rhs[g.at(2, k, j, i_size)];
            let pivot = 1.00 / lhs[g.lhs(3, 3, BB, i_size, j, k)];
            lhs[g.lhs(3, 4, BB, i_size, j, k)] = lhs[g.lhs(3, 4, BB, i_size, j, k)] * pivot;
            rhs[g.at(3, k, j, i_size)] = rhs[g.at(3, k, j, i_size)] * pivot;
            let coeff = lhs[g.lhs(0, 3, BB, i_size, j, k)];
            lhs[g.lhs(0, 4, BB, i_size, j, k)] = lhs[g.lhs(0, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(3, 4, BB, i_size, j, k)];
            rhs[g.at(0, k, j, i_size)] = rhs[g.at(0, k, j, i_size)] - coeff * rhs[g.at(3, k, j, i_size)];
            let coeff = lhs[g.lhs(1, 3, BB, i_size, j, k)];
            lhs[g.lhs(1, 4, BB, i_size, j, k)] = lhs[g.lhs(1, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(3, 4, BB, i_size, j, k)];
            rhs[g.at(1, k, j, i_size)] = rhs[g.at(1, k, j, i_size)] - coeff * rhs[g.at(3, k, j, i_size)];
            let coeff = lhs[g.lhs(2, 3, BB, i_size, j, k)];
            lhs[g.lhs(2, 4, BB, i_size, j, k)] = lhs[g.lhs(2, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(3, 4, BB, i_size, j, k)];
            rhs[g.at(2, k, j, i_size)] = rhs[g.at(2, k, j, i_size)] - coeff * rhs[g.at(3, k, j, i_size)];
            let coeff = lhs[g.lhs(4, 3, BB, i_size, j, k)];
            lhs[g.lhs(4, 4, BB, i_size, j, k)] = lhs[g.lhs(4, 4, BB, i_size, j, k)] - coeff * lhs[g.lhs(3, 4, BB, i_size, j, k)];
            rhs[g.at(4, k, j, i_size)] = rhs[g.at(4, k, j, i_size)] - coeff * rhs[g.at(3, k, j, i_size)];
            let pivot = 1.00 / lhs[g.lhs(4, 4, BB, i_size, j, k)];
            rhs[g.at(4, k, j, i_size)] = rhs[g.at(4, k, j, i_size)] * pivot;
            let coeff = lhs[g.lhs(0, 4, BB, i_size, j, k)];
            rhs[g.at(0, k, j, i_size)] = rhs[g.at(0, k, j, i_size)] - coeff * rhs[g.at(4, k, j, i_size)];
            let coeff = lhs[g.lhs(1, 4, BB, i_size, j, k)];
            rhs[g.at(1, k, j, i_size)] = rhs[g.at(1, k, j, i_size)] - coeff * rhs[g.at(4, k, j, i_size)];
            let coeff = lhs[g.lhs(2, 4, BB, i_size, j, k)];
            rhs[g.at(2, k, j, i_size)] = rhs[g.at(2, k, j, i_size)] - coeff * rhs[g.at(4, k, j, i_size)];
            let coeff = lhs[g.lhs(3, 4, BB, i_size, j, k)];
            rhs[g.at(3, k, j, i_size)] = rhs[g.at(3, k, j, i_size)] - coeff * rhs[g.at(4, k, j, i_size)];
        }
    }
}

/// The xi back substitution at `i`: `rhs -= CC rhs` of the next row.
#[acc::parallel(num_gangs(g.gp12), num_workers(4), vector_length(32))]
fn x_solve_back(rhs: &mut [f64], lhs: &[f64], g: Grid, i: usize) {
    let Grid { gp12, gp22, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 0, CC, i, j, k)] * rhs[g.at(0, k, j, i + 1)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 1, CC, i, j, k)] * rhs[g.at(1, k, j, i + 1)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 2, CC, i, j, k)] * rhs[g.at(2, k, j, i + 1)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 3, CC, i, j, k)] * rhs[g.at(3, k, j, i + 1)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 4, CC, i, j, k)] * rhs[g.at(4, k, j, i + 1)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 0, CC, i, j, k)] * rhs[g.at(0, k, j, i + 1)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 1, CC, i, j, k)] * rhs[g.at(1, k, j, i + 1)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 2, CC, i, j, k)] * rhs[g.at(2, k, j, i + 1)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 3, CC, i, j, k)] * rhs[g.at(3, k, j, i + 1)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 4, CC, i, j, k)] * rhs[g.at(4, k, j, i + 1)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 0, CC, i, j, k)] * rhs[g.at(0, k, j, i + 1)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 1, CC, i, j, k)] * rhs[g.at(1, k, j, i + 1)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 2, CC, i, j, k)] * rhs[g.at(2, k, j, i + 1)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 3, CC, i, j, k)] * rhs[g.at(3, k, j, i + 1)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 4, CC, i, j, k)] * rhs[g.at(4, k, j, i + 1)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 0, CC, i, j, k)] * rhs[g.at(0, k, j, i + 1)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 1, CC, i, j, k)] * rhs[g.at(1, k, j, i + 1)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 2, CC, i, j, k)] * rhs[g.at(2, k, j, i + 1)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 3, CC, i, j, k)] * rhs[g.at(3, k, j, i + 1)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 4, CC, i, j, k)] * rhs[g.at(4, k, j, i + 1)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 0, CC, i, j, k)] * rhs[g.at(0, k, j, i + 1)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 1, CC, i, j, k)] * rhs[g.at(1, k, j, i + 1)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 2, CC, i, j, k)] * rhs[g.at(2, k, j, i + 1)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 3, CC, i, j, k)] * rhs[g.at(3, k, j, i + 1)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 4, CC, i, j, k)] * rhs[g.at(4, k, j, i + 1)];
        }
    }
}

/// The eta fluxes' Jacobians `fjac` and the viscous ones `njac` along each line.
#[acc::parallel(num_gangs(g.j_size+1), num_workers(8), vector_length(32))]
#[allow(clippy::too_many_arguments)]
fn y_solve_jacobians(u: &[f64], qs: &[f64], rho_i: &[f64], square: &[f64], fjac: &mut [f64], njac: &mut [f64], g: Grid, cs: Consts) {
    let Grid { gp02, gp22, j_size, .. } = g;
    #[acc::r#loop(gang)]
    for j in 0..=j_size {
        #[acc::r#loop(worker)]
        for i in 1..=gp02 {
            #[acc::r#loop(vector)]
            for k in 1..=gp22 {
                let temp1 = rho_i[g.at3(k, j, i)];
                let temp2 = temp1 * temp1;
                let temp3 = temp1 * temp2;
                fjac[g.jac(0, 0, j, i, k)] = 0.0;
                fjac[g.jac(0, 1, j, i, k)] = 0.0;
                fjac[g.jac(0, 2, j, i, k)] = 1.0;
                fjac[g.jac(0, 3, j, i, k)] = 0.0;
                fjac[g.jac(0, 4, j, i, k)] = 0.0;
                fjac[g.jac(1, 0, j, i, k)] = -(u[g.at(1, k, j, i)] * u[g.at(2, k, j, i)]) * temp2;
                fjac[g.jac(1, 1, j, i, k)] = u[g.at(2, k, j, i)] * temp1;
                fjac[g.jac(1, 2, j, i, k)] = u[g.at(1, k, j, i)] * temp1;
                fjac[g.jac(1, 3, j, i, k)] = 0.0;
                fjac[g.jac(1, 4, j, i, k)] = 0.0;
                fjac[g.jac(2, 0, j, i, k)] = -(u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)] * temp2) + cs.c2 * qs[g.at3(k, j, i)];
                fjac[g.jac(2, 1, j, i, k)] = -cs.c2 * u[g.at(1, k, j, i)] * temp1;
                fjac[g.jac(2, 2, j, i, k)] = (2.0 - cs.c2) * u[g.at(2, k, j, i)] * temp1;
                fjac[g.jac(2, 3, j, i, k)] = -cs.c2 * u[g.at(3, k, j, i)] * temp1;
                fjac[g.jac(2, 4, j, i, k)] = cs.c2;
                fjac[g.jac(3, 0, j, i, k)] = -(u[g.at(2, k, j, i)] * u[g.at(3, k, j, i)]) * temp2;
                fjac[g.jac(3, 1, j, i, k)] = 0.0;
                fjac[g.jac(3, 2, j, i, k)] = u[g.at(3, k, j, i)] * temp1;
                fjac[g.jac(3, 3, j, i, k)] = u[g.at(2, k, j, i)] * temp1;
                fjac[g.jac(3, 4, j, i, k)] = 0.0;
                fjac[g.jac(4, 0, j, i, k)] = (cs.c2 * 2.0 * square[g.at3(k, j, i)] - cs.c1 * u[g.at(4, k, j, i)]) * u[g.at(2, k, j, i)] * temp2;
                fjac[g.jac(4, 1, j, i, k)] = -cs.c2 * u[g.at(1, k, j, i)] * u[g.at(2, k, j, i)] * temp2;
                fjac[g.jac(4, 2, j, i, k)] =
                    cs.c1 * u[g.at(4, k, j, i)] * temp1 - cs.c2 * (qs[g.at3(k, j, i)] + u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)] * temp2);
                fjac[g.jac(4, 3, j, i, k)] = -cs.c2 * (u[g.at(2, k, j, i)] * u[g.at(3, k, j, i)]) * temp2;
                fjac[g.jac(4, 4, j, i, k)] = cs.c1 * u[g.at(2, k, j, i)] * temp1;
                njac[g.jac(0, 0, j, i, k)] = 0.0;
                njac[g.jac(0, 1, j, i, k)] = 0.0;
                njac[g.jac(0, 2, j, i, k)] = 0.0;
                njac[g.jac(0, 3, j, i, k)] = 0.0;
                njac[g.jac(0, 4, j, i, k)] = 0.0;
                njac[g.jac(1, 0, j, i, k)] = -cs.c3c4 * temp2 * u[g.at(1, k, j, i)];
                njac[g.jac(1, 1, j, i, k)] = cs.c3c4 * temp1;
                njac[g.jac(1, 2, j, i, k)] = 0.0;
                njac[g.jac(1, 3, j, i, k)] = 0.0;
                njac[g.jac(1, 4, j, i, k)] = 0.0;
                njac[g.jac(2, 0, j, i, k)] = -cs.con43 * cs.c3c4 * temp2 * u[g.at(2, k, j, i)];
                njac[g.jac(2, 1, j, i, k)] = 0.0;
                njac[g.jac(2, 2, j, i, k)] = cs.con43 * cs.c3c4 * temp1;
                njac[g.jac(2, 3, j, i, k)] = 0.0;
                njac[g.jac(2, 4, j, i, k)] = 0.0;
                njac[g.jac(3, 0, j, i, k)] = -cs.c3c4 * temp2 * u[g.at(3, k, j, i)];
                njac[g.jac(3, 1, j, i, k)] = 0.0;
                njac[g.jac(3, 2, j, i, k)] = 0.0;
                njac[g.jac(3, 3, j, i, k)] = cs.c3c4 * temp1;
                njac[g.jac(3, 4, j, i, k)] = 0.0;
                njac[g.jac(4, 0, j, i, k)] = -(cs.c3c4 - cs.c1345) * temp3 * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)])
                    - (cs.con43 * cs.c3c4 - cs.c1345) * temp3 * (u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)])
                    - (cs.c3c4 - cs.c1345) * temp3 * (u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)])
                    - cs.c1345 * temp2 * u[g.at(4, k, j, i)];
                njac[g.jac(4, 1, j, i, k)] = (cs.c3c4 - cs.c1345) * temp2 * u[g.at(1, k, j, i)];
                njac[g.jac(4, 2, j, i, k)] = (cs.con43 * cs.c3c4 - cs.c1345) * temp2 * u[g.at(2, k, j, i)];
                njac[g.jac(4, 3, j, i, k)] = (cs.c3c4 - cs.c1345) * temp2 * u[g.at(3, k, j, i)];
                njac[g.jac(4, 4, j, i, k)] = (cs.c1345) * temp1;
            }
        }
    }
}

/// The eta systems' first and last block rows: the identity.
#[acc::parallel(num_gangs(g.gp02), num_workers(8), vector_length(32))]
fn y_solve_lhsinit(lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp22, j_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            for n in 0..5 {
                for m in 0..5 {
                    lhs[g.lhs(m, n, 0, 0, i, k)] = 0.0;
                    lhs[g.lhs(m, n, 1, 0, i, k)] = 0.0;
                    lhs[g.lhs(m, n, 2, 0, i, k)] = 0.0;
                    lhs[g.lhs(m, n, 0, j_size, i, k)] = 0.0;
                    lhs[g.lhs(m, n, 1, j_size, i, k)] = 0.0;
                    lhs[g.lhs(m, n, 2, j_size, i, k)] = 0.0;
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            lhs[g.lhs(0, 0, 1, 0, i, k)] = 1.0;
            lhs[g.lhs(0, 0, 1, j_size, i, k)] = 1.0;
            lhs[g.lhs(1, 1, 1, 0, i, k)] = 1.0;
            lhs[g.lhs(1, 1, 1, j_size, i, k)] = 1.0;
            lhs[g.lhs(2, 2, 1, 0, i, k)] = 1.0;
            lhs[g.lhs(2, 2, 1, j_size, i, k)] = 1.0;
            lhs[g.lhs(3, 3, 1, 0, i, k)] = 1.0;
            lhs[g.lhs(3, 3, 1, j_size, i, k)] = 1.0;
            lhs[g.lhs(4, 4, 1, 0, i, k)] = 1.0;
            lhs[g.lhs(4, 4, 1, j_size, i, k)] = 1.0;
        }
    }
}

/// The eta block tri-diagonal systems `lhs` (blocks `AA`, `BB`, `CC`) from the Jacobians.
#[acc::parallel(num_gangs(g.j_size-1), num_workers(4), vector_length(32))]
fn y_solve_lhs(lhs: &mut [f64], fjac: &[f64], njac: &[f64], g: Grid, cs: Consts) {
    let Grid { gp02, gp22, j_size, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=j_size - 1 {
        #[acc::r#loop(worker)]
        for i in 1..=gp02 {
            #[acc::r#loop(vector)]
            for k in 1..=gp22 {
                let temp1 = cs.dt * cs.ty1;
                let temp2 = cs.dt * cs.ty2;
                lhs[g.lhs(0, 0, AA, j, i, k)] = -temp2 * fjac[g.jac(0, 0, j - 1, i, k)] - temp1 * njac[g.jac(0, 0, j - 1, i, k)] - temp1 * cs.dy1;
                lhs[g.lhs(0, 1, AA, j, i, k)] = -temp2 * fjac[g.jac(0, 1, j - 1, i, k)] - temp1 * njac[g.jac(0, 1, j - 1, i, k)];
                lhs[g.lhs(0, 2, AA, j, i, k)] = -temp2 * fjac[g.jac(0, 2, j - 1, i, k)] - temp1 * njac[g.jac(0, 2, j - 1, i, k)];
                lhs[g.lhs(0, 3, AA, j, i, k)] = -temp2 * fjac[g.jac(0, 3, j - 1, i, k)] - temp1 * njac[g.jac(0, 3, j - 1, i, k)];
                lhs[g.lhs(0, 4, AA, j, i, k)] = -temp2 * fjac[g.jac(0, 4, j - 1, i, k)] - temp1 * njac[g.jac(0, 4, j - 1, i, k)];
                lhs[g.lhs(1, 0, AA, j, i, k)] = -temp2 * fjac[g.jac(1, 0, j - 1, i, k)] - temp1 * njac[g.jac(1, 0, j - 1, i, k)];
                lhs[g.lhs(1, 1, AA, j, i, k)] = -temp2 * fjac[g.jac(1, 1, j - 1, i, k)] - temp1 * njac[g.jac(1, 1, j - 1, i, k)] - temp1 * cs.dy2;
                lhs[g.lhs(1, 2, AA, j, i, k)] = -temp2 * fjac[g.jac(1, 2, j - 1, i, k)] - temp1 * njac[g.jac(1, 2, j - 1, i, k)];
                lhs[g.lhs(1, 3, AA, j, i, k)] = -temp2 * fjac[g.jac(1, 3, j - 1, i, k)] - temp1 * njac[g.jac(1, 3, j - 1, i, k)];
                lhs[g.lhs(1, 4, AA, j, i, k)] = -temp2 * fjac[g.jac(1, 4, j - 1, i, k)] - temp1 * njac[g.jac(1, 4, j - 1, i, k)];
                lhs[g.lhs(2, 0, AA, j, i, k)] = -temp2 * fjac[g.jac(2, 0, j - 1, i, k)] - temp1 * njac[g.jac(2, 0, j - 1, i, k)];
                lhs[g.lhs(2, 1, AA, j, i, k)] = -temp2 * fjac[g.jac(2, 1, j - 1, i, k)] - temp1 * njac[g.jac(2, 1, j - 1, i, k)];
                lhs[g.lhs(2, 2, AA, j, i, k)] = -temp2 * fjac[g.jac(2, 2, j - 1, i, k)] - temp1 * njac[g.jac(2, 2, j - 1, i, k)] - temp1 * cs.dy3;
                lhs[g.lhs(2, 3, AA, j, i, k)] = -temp2 * fjac[g.jac(2, 3, j - 1, i, k)] - temp1 * njac[g.jac(2, 3, j - 1, i, k)];
                lhs[g.lhs(2, 4, AA, j, i, k)] = -temp2 * fjac[g.jac(2, 4, j - 1, i, k)] - temp1 * njac[g.jac(2, 4, j - 1, i, k)];
                lhs[g.lhs(3, 0, AA, j, i, k)] = -temp2 * fjac[g.jac(3, 0, j - 1, i, k)] - temp1 * njac[g.jac(3, 0, j - 1, i, k)];
                lhs[g.lhs(3, 1, AA, j, i, k)] = -temp2 * fjac[g.jac(3, 1, j - 1, i, k)] - temp1 * njac[g.jac(3, 1, j - 1, i, k)];
                lhs[g.lhs(3, 2, AA, j, i, k)] = -temp2 * fjac[g.jac(3, 2, j - 1, i, k)] - temp1 * njac[g.jac(3, 2, j - 1, i, k)];
                lhs[g.lhs(3, 3, AA, j, i, k)] = -temp2 * fjac[g.jac(3, 3, j - 1, i, k)] - temp1 * njac[g.jac(3, 3, j - 1, i, k)] - temp1 * cs.dy4;
                lhs[g.lhs(3, 4, AA, j, i, k)] = -temp2 * fjac[g.jac(3, 4, j - 1, i, k)] - temp1 * njac[g.jac(3, 4, j - 1, i, k)];
                lhs[g.lhs(4, 0, AA, j, i, k)] = -temp2 * fjac[g.jac(4, 0, j - 1, i, k)] - temp1 * njac[g.jac(4, 0, j - 1, i, k)];
                lhs[g.lhs(4, 1, AA, j, i, k)] = -temp2 * fjac[g.jac(4, 1, j - 1, i, k)] - temp1 * njac[g.jac(4, 1, j - 1, i, k)];
                lhs[g.lhs(4, 2, AA, j, i, k)] = -temp2 * fjac[g.jac(4, 2, j - 1, i, k)] - temp1 * njac[g.jac(4, 2, j - 1, i, k)];
                lhs[g.lhs(4, 3, AA, j, i, k)] = -temp2 * fjac[g.jac(4, 3, j - 1, i, k)] - temp1 * njac[g.jac(4, 3, j - 1, i, k)];
                lhs[g.lhs(4, 4, AA, j, i, k)] = -temp2 * fjac[g.jac(4, 4, j - 1, i, k)] - temp1 * njac[g.jac(4, 4, j - 1, i, k)] - temp1 * cs.dy5;
                lhs[g.lhs(0, 0, BB, j, i, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(0, 0, j, i, k)] + temp1 * 2.0 * cs.dy1;
                lhs[g.lhs(0, 1, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(0, 1, j, i, k)];
                lhs[g.lhs(0, 2, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(0, 2, j, i, k)];
                lhs[g.lhs(0, 3, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(0, 3, j, i, k)];
                lhs[g.lhs(0, 4, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(0, 4, j, i, k)];
                lhs[g.lhs(1, 0, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(1, 0, j, i, k)];
                lhs[g.lhs(1, 1, BB, j, i, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(1, 1, j, i, k)] + temp1 * 2.0 * cs.dy2;
                lhs[g.lhs(1, 2, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(1, 2, j, i, k)];
                lhs[g.lhs(1, 3, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(1, 3, j, i, k)];
                lhs[g.lhs(1, 4, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(1, 4, j, i, k)];
                lhs[g.lhs(2, 0, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(2, 0, j, i, k)];
                lhs[g.lhs(2, 1, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(2, 1, j, i, k)];
                lhs[g.lhs(2, 2, BB, j, i, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(2, 2, j, i, k)] + temp1 * 2.0 * cs.dy3;
                lhs[g.lhs(2, 3, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(2, 3, j, i, k)];
                lhs[g.lhs(2, 4, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(2, 4, j, i, k)];
                lhs[g.lhs(3, 0, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(3, 0, j, i, k)];
                lhs[g.lhs(3, 1, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(3, 1, j, i, k)];
                lhs[g.lhs(3, 2, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(3, 2, j, i, k)];
                lhs[g.lhs(3, 3, BB, j, i, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(3, 3, j, i, k)] + temp1 * 2.0 * cs.dy4;
                lhs[g.lhs(3, 4, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(3, 4, j, i, k)];
                lhs[g.lhs(4, 0, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(4, 0, j, i, k)];
                lhs[g.lhs(4, 1, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(4, 1, j, i, k)];
                lhs[g.lhs(4, 2, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(4, 2, j, i, k)];
                lhs[g.lhs(4, 3, BB, j, i, k)] = temp1 * 2.0 * njac[g.jac(4, 3, j, i, k)];
                lhs[g.lhs(4, 4, BB, j, i, k)] = 1.0 + temp1 * 2.0 * njac[g.jac(4, 4, j, i, k)] + temp1 * 2.0 * cs.dy5;
                lhs[g.lhs(0, 0, CC, j, i, k)] = temp2 * fjac[g.jac(0, 0, j + 1, i, k)] - temp1 * njac[g.jac(0, 0, j + 1, i, k)] - temp1 * cs.dy1;
                lhs[g.lhs(0, 1, CC, j, i, k)] = temp2 * fjac[g.jac(0, 1, j + 1, i, k)] - temp1 * njac[g.jac(0, 1, j + 1, i, k)];
                lhs[g.lhs(0, 2, CC, j, i, k)] = temp2 * fjac[g.jac(0, 2, j + 1, i, k)] - temp1 * njac[g.jac(0, 2, j + 1, i, k)];
                lhs[g.lhs(0, 3, CC, j, i, k)] = temp2 * fjac[g.jac(0, 3, j + 1, i, k)] - temp1 * njac[g.jac(0, 3, j + 1, i, k)];
                lhs[g.lhs(0, 4, CC, j, i, k)] = temp2 * fjac[g.jac(0, 4, j + 1, i, k)] - temp1 * njac[g.jac(0, 4, j + 1, i, k)];
                lhs[g.lhs(1, 0, CC, j, i, k)] = temp2 * fjac[g.jac(1, 0, j + 1, i, k)] - temp1 * njac[g.jac(1, 0, j + 1, i, k)];
                lhs[g.lhs(1, 1, CC, j, i, k)] = temp2 * fjac[g.jac(1, 1, j + 1, i, k)] - temp1 * njac[g.jac(1, 1, j + 1, i, k)] - temp1 * cs.dy2;
                lhs[g.lhs(1, 2, CC, j, i, k)] = temp2 * fjac[g.jac(1, 2, j + 1, i, k)] - temp1 * njac[g.jac(1, 2, j + 1, i, k)];
                lhs[g.lhs(1, 3, CC, j, i, k)] = temp2 * fjac[g.jac(1, 3, j + 1, i, k)] - temp1 * njac[g.jac(1, 3, j + 1, i, k)];
                lhs[g.lhs(1, 4, CC, j, i, k)] = temp2 * fjac[g.jac(1, 4, j + 1, i, k)] - temp1 * njac[g.jac(1, 4, j + 1, i, k)];
                lhs[g.lhs(2, 0, CC, j, i, k)] = temp2 * fjac[g.jac(2, 0, j + 1, i, k)] - temp1 * njac[g.jac(2, 0, j + 1, i, k)];
                lhs[g.lhs(2, 1, CC, j, i, k)] = temp2 * fjac[g.jac(2, 1, j + 1, i, k)] - temp1 * njac[g.jac(2, 1, j + 1, i, k)];
                lhs[g.lhs(2, 2, CC, j, i, k)] = temp2 * fjac[g.jac(2, 2, j + 1, i, k)] - temp1 * njac[g.jac(2, 2, j + 1, i, k)] - temp1 * cs.dy3;
                lhs[g.lhs(2, 3, CC, j, i, k)] = temp2 * fjac[g.jac(2, 3, j + 1, i, k)] - temp1 * njac[g.jac(2, 3, j + 1, i, k)];
                lhs[g.lhs(2, 4, CC, j, i, k)] = temp2 * fjac[g.jac(2, 4, j + 1, i, k)] - temp1 * njac[g.jac(2, 4, j + 1, i, k)];
                lhs[g.lhs(3, 0, CC, j, i, k)] = temp2 * fjac[g.jac(3, 0, j + 1, i, k)] - temp1 * njac[g.jac(3, 0, j + 1, i, k)];
                lhs[g.lhs(3, 1, CC, j, i, k)] = temp2 * fjac[g.jac(3, 1, j + 1, i, k)] - temp1 * njac[g.jac(3, 1, j + 1, i, k)];
                lhs[g.lhs(3, 2, CC, j, i, k)] = temp2 * fjac[g.jac(3, 2, j + 1, i, k)] - temp1 * njac[g.jac(3, 2, j + 1, i, k)];
                lhs[g.lhs(3, 3, CC, j, i, k)] = temp2 * fjac[g.jac(3, 3, j + 1, i, k)] - temp1 * njac[g.jac(3, 3, j + 1, i, k)] - temp1 * cs.dy4;
                lhs[g.lhs(3, 4, CC, j, i, k)] = temp2 * fjac[g.jac(3, 4, j + 1, i, k)] - temp1 * njac[g.jac(3, 4, j + 1, i, k)];
                lhs[g.lhs(4, 0, CC, j, i, k)] = temp2 * fjac[g.jac(4, 0, j + 1, i, k)] - temp1 * njac[g.jac(4, 0, j + 1, i, k)];
                lhs[g.lhs(4, 1, CC, j, i, k)] = temp2 * fjac[g.jac(4, 1, j + 1, i, k)] - temp1 * njac[g.jac(4, 1, j + 1, i, k)];
                lhs[g.lhs(4, 2, CC, j, i, k)] = temp2 * fjac[g.jac(4, 2, j + 1, i, k)] - temp1 * njac[g.jac(4, 2, j + 1, i, k)];
                lhs[g.lhs(4, 3, CC, j, i, k)] = temp2 * fjac[g.jac(4, 3, j + 1, i, k)] - temp1 * njac[g.jac(4, 3, j + 1, i, k)];
                lhs[g.lhs(4, 4, CC, j, i, k)] = temp2 * fjac[g.jac(4, 4, j + 1, i, k)] - temp1 * njac[g.jac(4, 4, j + 1, i, k)] - temp1 * cs.dy5;
            }
        }
    }
}

/// The eta elimination's first row: `binvcrhs` of the diagonal block.
#[acc::parallel(num_gangs(g.gp02), num_workers(4), vector_length(32))]
fn y_solve_first(rhs: &mut [f64], lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp22, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            let pivot = 1.00 / lhs[g.lhs(0, 0, BB, 0, i, k)];
            lhs[g.lhs(0, 1, BB, 0, i, k)] = lhs[g.lhs(0, 1, BB, 0, i, k)] * pivot;
            lhs[g.lhs(0, 2, BB, 0, i, k)] = lhs[g.lhs(0, 2, BB, 0, i, k)] * pivot;
            lhs[g.lhs(0, 3, BB, 0, i, k)] = lhs[g.lhs(0, 3, BB, 0, i, k)] * pivot;
            lhs[g.lhs(0, 4, BB, 0, i, k)] = lhs[g.lhs(0, 4, BB, 0, i, k)] * pivot;
            lhs[g.lhs(0, 0, CC, 0, i, k)] = lhs[g.lhs(0, 0, CC, 0, i, k)] * pivot;
            lhs[g.lhs(0, 1, CC, 0, i, k)] = lhs[g.lhs(0, 1, CC, 0, i, k)] * pivot;
            lhs[g.lhs(0, 2, CC, 0, i, k)] = lhs[g.lhs(0, 2, CC, 0, i, k)] * pivot;
            lhs[g.lhs(0, 3, CC, 0, i, k)] = lhs[g.lhs(0, 3, CC, 0, i, k)] * pivot;
            lhs[g.lhs(0, 4, CC, 0, i, k)] = lhs[g.lhs(0, 4, CC, 0, i, k)] * pivot;
            rhs[g.at(0, k, 0, i)] = rhs[g.at(0, k, 0, i)] * pivot;
            let coeff = lhs[g.lhs(1, 0, BB, 0, i, k)];
            lhs[g.lhs(1, 1, BB, 0, i, k)] = lhs[g.lhs(1, 1, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 1, BB, 0, i, k)];
            lhs[g.lhs(1, 2, BB, 0, i, k)] = lhs[g.lhs(1, 2, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 2, BB, 0, i, k)];
            lhs[g.lhs(1, 3, BB, 0, i, k)] = lhs[g.lhs(1, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 3, BB, 0, i, k)];
            lhs[g.lhs(1, 4, BB, 0, i, k)] = lhs[g.lhs(1, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 4, BB, 0, i, k)];
            lhs[g.lhs(1, 0, CC, 0, i, k)] = lhs[g.lhs(1, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 0, CC, 0, i, k)];
            lhs[g.lhs(1, 1, CC, 0, i, k)] = lhs[g.lhs(1, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 1, CC, 0, i, k)];
            lhs[g.lhs(1, 2, CC, 0, i, k)] = lhs[g.lhs(1, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 2, CC, 0, i, k)];
            lhs[g.lhs(1, 3, CC, 0, i, k)] = lhs[g.lhs(1, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 3, CC, 0, i, k)];
            lhs[g.lhs(1, 4, CC, 0, i, k)] = lhs[g.lhs(1, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 4, CC, 0, i, k)];
            rhs[g.at(1, k, 0, i)] = rhs[g.at(1, k, 0, i)] - coeff * rhs[g.at(0, k, 0, i)];
            let coeff = lhs[g.lhs(2, 0, BB, 0, i, k)];
            lhs[g.lhs(2, 1, BB, 0, i, k)] = lhs[g.lhs(2, 1, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 1, BB, 0, i, k)];
            lhs[g.lhs(2, 2, BB, 0, i, k)] = lhs[g.lhs(2, 2, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 2, BB, 0, i, k)];
            lhs[g.lhs(2, 3, BB, 0, i, k)] = lhs[g.lhs(2, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 3, BB, 0, i, k)];
            lhs[g.lhs(2, 4, BB, 0, i, k)] = lhs[g.lhs(2, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 4, BB, 0, i, k)];
            lhs[g.lhs(2, 0, CC, 0, i, k)] = lhs[g.lhs(2, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 0, CC, 0, i, k)];
            lhs[g.lhs(2, 1, CC, 0, i, k)] = lhs[g.lhs(2, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 1, CC, 0, i, k)];
            lhs[g.lhs(2, 2, CC, 0, i, k)] = lhs[g.lhs(2, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 2, CC, 0, i, k)];
            lhs[g.lhs(2, 3, CC, 0, i, k)] = lhs[g.lhs(2, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 3, CC, 0, i, k)];
            lhs[g.lhs(2, 4, CC, 0, i, k)] = lhs[g.lhs(2, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 4, CC, 0, i, k)];
            rhs[g.at(2, k, 0, i)] = rhs[g.at(2, k, 0, i)] - coeff * rhs[g.at(0, k, 0, i)];
            let coeff = lhs[g.lhs(3, 0, BB, 0, i, k)];
            lhs[g.lhs(3, 1, BB, 0, i, k)] = lhs[g.lhs(3, 1, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 1, BB, 0, i, k)];
            lhs[g.lhs(3, 2, BB, 0, i, k)] = lhs[g.lhs(3, 2, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 2, BB, 0, i, k)];
            lhs[g.lhs(3, 3, BB, 0, i, k)] = lhs[g.lhs(3, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 3, BB, 0, i, k)];
            lhs[g.lhs(3, 4, BB, 0, i, k)] = lhs[g.lhs(3, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 4, BB, 0, i, k)];
            lhs[g.lhs(3, 0, CC, 0, i, k)] = lhs[g.lhs(3, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 0, CC, 0, i, k)];
            lhs[g.lhs(3, 1, CC, 0, i, k)] = lhs[g.lhs(3, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 1, CC, 0, i, k)];
            lhs[g.lhs(3, 2, CC, 0, i, k)] = lhs[g.lhs(3, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 2, CC, 0, i, k)];
            lhs[g.lhs(3, 3, CC, 0, i, k)] = lhs[g.lhs(3, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 3, CC, 0, i, k)];
            lhs[g.lhs(3, 4, CC, 0, i, k)] = lhs[g.lhs(3, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 4, CC, 0, i, k)];
            rhs[g.at(3, k, 0, i)] = rhs[g.at(3, k, 0, i)] - coeff * rhs[g.at(0, k, 0, i)];
            let coeff = lhs[g.lhs(4, 0, BB, 0, i, k)];
            lhs[g.lhs(4, 1, BB, 0, i, k)] = lhs[g.lhs(4, 1, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 1, BB, 0, i, k)];
            lhs[g.lhs(4, 2, BB, 0, i, k)] = lhs[g.lhs(4, 2, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 2, BB, 0, i, k)];
            lhs[g.lhs(4, 3, BB, 0, i, k)] = lhs[g.lhs(4, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 3, BB, 0, i, k)];
            lhs[g.lhs(4, 4, BB, 0, i, k)] = lhs[g.lhs(4, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(0, 4, BB, 0, i, k)];
            lhs[g.lhs(4, 0, CC, 0, i, k)] = lhs[g.lhs(4, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 0, CC, 0, i, k)];
            lhs[g.lhs(4, 1, CC, 0, i, k)] = lhs[g.lhs(4, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 1, CC, 0, i, k)];
            lhs[g.lhs(4, 2, CC, 0, i, k)] = lhs[g.lhs(4, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 2, CC, 0, i, k)];
            lhs[g.lhs(4, 3, CC, 0, i, k)] = lhs[g.lhs(4, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 3, CC, 0, i, k)];
            lhs[g.lhs(4, 4, CC, 0, i, k)] = lhs[g.lhs(4, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(0, 4, CC, 0, i, k)];
            rhs[g.at(4, k, 0, i)] = rhs[g.at(4, k, 0, i)] - coeff * rhs[g.at(0, k, 0, i)];
            let pivot = 1.00 / lhs[g.lhs(1, 1, BB, 0, i, k)];
            lhs[g.lhs(1, 2, BB, 0, i, k)] = lhs[g.lhs(1, 2, BB, 0, i, k)] * pivot;
            lhs[g.lhs(1, 3, BB, 0, i, k)] = lhs[g.lhs(1, 3, BB, 0, i, k)] * pivot;
            lhs[g.lhs(1, 4, BB, 0, i, k)] = lhs[g.lhs(1, 4, BB, 0, i, k)] * pivot;
            lhs[g.lhs(1, 0, CC, 0, i, k)] = lhs[g.lhs(1, 0, CC, 0, i, k)] * pivot;
            lhs[g.lhs(1, 1, CC, 0, i, k)] = lhs[g.lhs(1, 1, CC, 0, i, k)] * pivot;
            lhs[g.lhs(1, 2, CC, 0, i, k)] = lhs[g.lhs(1, 2, CC, 0, i, k)] * pivot;
            lhs[g.lhs(1, 3, CC, 0, i, k)] = lhs[g.lhs(1, 3, CC, 0, i, k)] * pivot;
            lhs[g.lhs(1, 4, CC, 0, i, k)] = lhs[g.lhs(1, 4, CC, 0, i, k)] * pivot;
            rhs[g.at(1, k, 0, i)] = rhs[g.at(1, k, 0, i)] * pivot;
            let coeff = lhs[g.lhs(0, 1, BB, 0, i, k)];
            lhs[g.lhs(0, 2, BB, 0, i, k)] = lhs[g.lhs(0, 2, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 2, BB, 0, i, k)];
            lhs[g.lhs(0, 3, BB, 0, i, k)] = lhs[g.lhs(0, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 3, BB, 0, i, k)];
            lhs[g.lhs(0, 4, BB, 0, i, k)] = lhs[g.lhs(0, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 4, BB, 0, i, k)];
            lhs[g.lhs(0, 0, CC, 0, i, k)] = lhs[g.lhs(0, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 0, CC, 0, i, k)];
            lhs[g.lhs(0, 1, CC, 0, i, k)] = lhs[g.lhs(0, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 1, CC, 0, i, k)];
            lhs[g.lhs(0, 2, CC, 0, i, k)] = lhs[g.lhs(0, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 2, CC, 0, i, k)];
            lhs[g.lhs(0, 3, CC, 0, i, k)] = lhs[g.lhs(0, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 3, CC, 0, i, k)];
            lhs[g.lhs(0, 4, CC, 0, i, k)] = lhs[g.lhs(0, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 4, CC, 0, i, k)];
            rhs[g.at(0, k, 0, i)] = rhs[g.at(0, k, 0, i)] - coeff * rhs[g.at(1, k, 0, i)];
            let coeff = lhs[g.lhs(2, 1, BB, 0, i, k)];
            lhs[g.lhs(2, 2, BB, 0, i, k)] = lhs[g.lhs(2, 2, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 2, BB, 0, i, k)];
            lhs[g.lhs(2, 3, BB, 0, i, k)] = lhs[g.lhs(2, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 3, BB, 0, i, k)];
            lhs[g.lhs(2, 4, BB, 0, i, k)] = lhs[g.lhs(2, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 4, BB, 0, i, k)];
            lhs[g.lhs(2, 0, CC, 0, i, k)] = lhs[g.lhs(2, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 0, CC, 0, i, k)];
            lhs[g.lhs(2, 1, CC, 0, i, k)] = lhs[g.lhs(2, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 1, CC, 0, i, k)];
            lhs[g.lhs(2, 2, CC, 0, i, k)] = lhs[g.lhs(2, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 2, CC, 0, i, k)];
            lhs[g.lhs(2, 3, CC, 0, i, k)] = lhs[g.lhs(2, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 3, CC, 0, i, k)];
            lhs[g.lhs(2, 4, CC, 0, i, k)] = lhs[g.lhs(2, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 4, CC, 0, i, k)];
            rhs[g.at(2, k, 0, i)] = rhs[g.at(2, k, 0, i)] - coeff * rhs[g.at(1, k, 0, i)];
            let coeff = lhs[g.lhs(3, 1, BB, 0, i, k)];
            lhs[g.lhs(3, 2, BB, 0, i, k)] = lhs[g.lhs(3, 2, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 2, BB, 0, i, k)];
            lhs[g.lhs(3, 3, BB, 0, i, k)] = lhs[g.lhs(3, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 3, BB, 0, i, k)];
            lhs[g.lhs(3, 4, BB, 0, i, k)] = lhs[g.lhs(3, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 4, BB, 0, i, k)];
            lhs[g.lhs(3, 0, CC, 0, i, k)] = lhs[g.lhs(3, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 0, CC, 0, i, k)];
            lhs[g.lhs(3, 1, CC, 0, i, k)] = lhs[g.lhs(3, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 1, CC, 0, i, k)];
            lhs[g.lhs(3, 2, CC, 0, i, k)] = lhs[g.lhs(3, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 2, CC, 0, i, k)];
            lhs[g.lhs(3, 3, CC, 0, i, k)] = lhs[g.lhs(3, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 3, CC, 0, i, k)];
            lhs[g.lhs(3, 4, CC, 0, i, k)] = lhs[g.lhs(3, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 4, CC, 0, i, k)];
            rhs[g.at(3, k, 0, i)] = rhs[g.at(3, k, 0, i)] - coeff * rhs[g.at(1, k, 0, i)];
            let coeff = lhs[g.lhs(4, 1, BB, 0, i, k)];
            lhs[g.lhs(4, 2, BB, 0, i, k)] = lhs[g.lhs(4, 2, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 2, BB, 0, i, k)];
            lhs[g.lhs(4, 3, BB, 0, i, k)] = lhs[g.lhs(4, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 3, BB, 0, i, k)];
            lhs[g.lhs(4, 4, BB, 0, i, k)] = lhs[g.lhs(4, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(1, 4, BB, 0, i, k)];
            lhs[g.lhs(4, 0, CC, 0, i, k)] = lhs[g.lhs(4, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 0, CC, 0, i, k)];
            lhs[g.lhs(4, 1, CC, 0, i, k)] = lhs[g.lhs(4, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 1, CC, 0, i, k)];
            lhs[g.lhs(4, 2, CC, 0, i, k)] = lhs[g.lhs(4, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 2, CC, 0, i, k)];
            lhs[g.lhs(4, 3, CC, 0, i, k)] = lhs[g.lhs(4, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 3, CC, 0, i, k)];
            lhs[g.lhs(4, 4, CC, 0, i, k)] = lhs[g.lhs(4, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(1, 4, CC, 0, i, k)];
            rhs[g.at(4, k, 0, i)] = rhs[g.at(4, k, 0, i)] - coeff * rhs[g.at(1, k, 0, i)];
            let pivot = 1.00 / lhs[g.lhs(2, 2, BB, 0, i, k)];
            lhs[g.lhs(2, 3, BB, 0, i, k)] = lhs[g.lhs(2, 3, BB, 0, i, k)] * pivot;
            lhs[g.lhs(2, 4, BB, 0, i, k)] = lhs[g.lhs(2, 4, BB, 0, i, k)] * pivot;
            lhs[g.lhs(2, 0, CC, 0, i, k)] = lhs[g.lhs(2, 0, CC, 0, i, k)] * pivot;
            lhs[g.lhs(2, 1, CC, 0, i, k)] = lhs[g.lhs(2, 1, CC, 0, i, k)] * pivot;
            lhs[g.lhs(2, 2, CC, 0, i, k)] = lhs[g.lhs(2, 2, CC, 0, i, k)] * pivot;
            lhs[g.lhs(2, 3, CC, 0, i, k)] = lhs[g.lhs(2, 3, CC, 0, i, k)] * pivot;
            lhs[g.lhs(2, 4, CC, 0, i, k)] = lhs[g.lhs(2, 4, CC, 0, i, k)] * pivot;
            rhs[g.at(2, k, 0, i)] = rhs[g.at(2, k, 0, i)] * pivot;
            let coeff = lhs[g.lhs(0, 2, BB, 0, i, k)];
            lhs[g.lhs(0, 3, BB, 0, i, k)] = lhs[g.lhs(0, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(2, 3, BB, 0, i, k)];
            lhs[g.lhs(0, 4, BB, 0, i, k)] = lhs[g.lhs(0, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(2, 4, BB, 0, i, k)];
            lhs[g.lhs(0, 0, CC, 0, i, k)] = lhs[g.lhs(0, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 0, CC, 0, i, k)];
            lhs[g.lhs(0, 1, CC, 0, i, k)] = lhs[g.lhs(0, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 1, CC, 0, i, k)];
            lhs[g.lhs(0, 2, CC, 0, i, k)] = lhs[g.lhs(0, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 2, CC, 0, i, k)];
            lhs[g.lhs(0, 3, CC, 0, i, k)] = lhs[g.lhs(0, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 3, CC, 0, i, k)];
            lhs[g.lhs(0, 4, CC, 0, i, k)] = lhs[g.lhs(0, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 4, CC, 0, i, k)];
            rhs[g.at(0, k, 0, i)] = rhs[g.at(0, k, 0, i)] - coeff * rhs[g.at(2, k, 0, i)];
            let coeff = lhs[g.lhs(1, 2, BB, 0, i, k)];
            lhs[g.lhs(1, 3, BB, 0, i, k)] = lhs[g.lhs(1, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(2, 3, BB, 0, i, k)];
            lhs[g.lhs(1, 4, BB, 0, i, k)] = lhs[g.lhs(1, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(2, 4, BB, 0, i, k)];
            lhs[g.lhs(1, 0, CC, 0, i, k)] = lhs[g.lhs(1, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 0, CC, 0, i, k)];
            lhs[g.lhs(1, 1, CC, 0, i, k)] = lhs[g.lhs(1, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 1, CC, 0, i, k)];
            lhs[g.lhs(1, 2, CC, 0, i, k)] = lhs[g.lhs(1, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 2, CC, 0, i, k)];
            lhs[g.lhs(1, 3, CC, 0, i, k)] = lhs[g.lhs(1, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 3, CC, 0, i, k)];
            lhs[g.lhs(1, 4, CC, 0, i, k)] = lhs[g.lhs(1, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 4, CC, 0, i, k)];
            rhs[g.at(1, k, 0, i)] = rhs[g.at(1, k, 0, i)] - coeff * rhs[g.at(2, k, 0, i)];
            let coeff = lhs[g.lhs(3, 2, BB, 0, i, k)];
            lhs[g.lhs(3, 3, BB, 0, i, k)] = lhs[g.lhs(3, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(2, 3, BB, 0, i, k)];
            lhs[g.lhs(3, 4, BB, 0, i, k)] = lhs[g.lhs(3, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(2, 4, BB, 0, i, k)];
            lhs[g.lhs(3, 0, CC, 0, i, k)] = lhs[g.lhs(3, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 0, CC, 0, i, k)];
            lhs[g.lhs(3, 1, CC, 0, i, k)] = lhs[g.lhs(3, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 1, CC, 0, i, k)];
            lhs[g.lhs(3, 2, CC, 0, i, k)] = lhs[g.lhs(3, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 2, CC, 0, i, k)];
            lhs[g.lhs(3, 3, CC, 0, i, k)] = lhs[g.lhs(3, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 3, CC, 0, i, k)];
            lhs[g.lhs(3, 4, CC, 0, i, k)] = lhs[g.lhs(3, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 4, CC, 0, i, k)];
            rhs[g.at(3, k, 0, i)] = rhs[g.at(3, k, 0, i)] - coeff * rhs[g.at(2, k, 0, i)];
            let coeff = lhs[g.lhs(4, 2, BB, 0, i, k)];
            lhs[g.lhs(4, 3, BB, 0, i, k)] = lhs[g.lhs(4, 3, BB, 0, i, k)] - coeff * lhs[g.lhs(2, 3, BB, 0, i, k)];
            lhs[g.lhs(4, 4, BB, 0, i, k)] = lhs[g.lhs(4, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(2, 4, BB, 0, i, k)];
            lhs[g.lhs(4, 0, CC, 0, i, k)] = lhs[g.lhs(4, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 0, CC, 0, i, k)];
            lhs[g.lhs(4, 1, CC, 0, i, k)] = lhs[g.lhs(4, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 1, CC, 0, i, k)];
            lhs[g.lhs(4, 2, CC, 0, i, k)] = lhs[g.lhs(4, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 2, CC, 0, i, k)];
            lhs[g.lhs(4, 3, CC, 0, i, k)] = lhs[g.lhs(4, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 3, CC, 0, i, k)];
            lhs[g.lhs(4, 4, CC, 0, i, k)] = lhs[g.lhs(4, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(2, 4, CC, 0, i, k)];
            rhs[g.at(4, k, 0, i)] = rhs[g.at(4, k, 0, i)] - coeff * rhs[g.at(2, k, 0, i)];
            let pivot = 1.00 / lhs[g.lhs(3, 3, BB, 0, i, k)];
            lhs[g.lhs(3, 4, BB, 0, i, k)] = lhs[g.lhs(3, 4, BB, 0, i, k)] * pivot;
            lhs[g.lhs(3, 0, CC, 0, i, k)] = lhs[g.lhs(3, 0, CC, 0, i, k)] * pivot;
            lhs[g.lhs(3, 1, CC, 0, i, k)] = lhs[g.lhs(3, 1, CC, 0, i, k)] * pivot;
            lhs[g.lhs(3, 2, CC, 0, i, k)] = lhs[g.lhs(3, 2, CC, 0, i, k)] * pivot;
            lhs[g.lhs(3, 3, CC, 0, i, k)] = lhs[g.lhs(3, 3, CC, 0, i, k)] * pivot;
            lhs[g.lhs(3, 4, CC, 0, i, k)] = lhs[g.lhs(3, 4, CC, 0, i, k)] * pivot;
            rhs[g.at(3, k, 0, i)] = rhs[g.at(3, k, 0, i)] * pivot;
            let coeff = lhs[g.lhs(0, 3, BB, 0, i, k)];
            lhs[g.lhs(0, 4, BB, 0, i, k)] = lhs[g.lhs(0, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(3, 4, BB, 0, i, k)];
            lhs[g.lhs(0, 0, CC, 0, i, k)] = lhs[g.lhs(0, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 0, CC, 0, i, k)];
            lhs[g.lhs(0, 1, CC, 0, i, k)] = lhs[g.lhs(0, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 1, CC, 0, i, k)];
            lhs[g.lhs(0, 2, CC, 0, i, k)] = lhs[g.lhs(0, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 2, CC, 0, i, k)];
            lhs[g.lhs(0, 3, CC, 0, i, k)] = lhs[g.lhs(0, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 3, CC, 0, i, k)];
            lhs[g.lhs(0, 4, CC, 0, i, k)] = lhs[g.lhs(0, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 4, CC, 0, i, k)];
            rhs[g.at(0, k, 0, i)] = rhs[g.at(0, k, 0, i)] - coeff * rhs[g.at(3, k, 0, i)];
            let coeff = lhs[g.lhs(1, 3, BB, 0, i, k)];
            lhs[g.lhs(1, 4, BB, 0, i, k)] = lhs[g.lhs(1, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(3, 4, BB, 0, i, k)];
            lhs[g.lhs(1, 0, CC, 0, i, k)] = lhs[g.lhs(1, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 0, CC, 0, i, k)];
            lhs[g.lhs(1, 1, CC, 0, i, k)] = lhs[g.lhs(1, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 1, CC, 0, i, k)];
            lhs[g.lhs(1, 2, CC, 0, i, k)] = lhs[g.lhs(1, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 2, CC, 0, i, k)];
            lhs[g.lhs(1, 3, CC, 0, i, k)] = lhs[g.lhs(1, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 3, CC, 0, i, k)];
            lhs[g.lhs(1, 4, CC, 0, i, k)] = lhs[g.lhs(1, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 4, CC, 0, i, k)];
            rhs[g.at(1, k, 0, i)] = rhs[g.at(1, k, 0, i)] - coeff * rhs[g.at(3, k, 0, i)];
            let coeff = lhs[g.lhs(2, 3, BB, 0, i, k)];
            lhs[g.lhs(2, 4, BB, 0, i, k)] = lhs[g.lhs(2, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(3, 4, BB, 0, i, k)];
            lhs[g.lhs(2, 0, CC, 0, i, k)] = lhs[g.lhs(2, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 0, CC, 0, i, k)];
            lhs[g.lhs(2, 1, CC, 0, i, k)] = lhs[g.lhs(2, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 1, CC, 0, i, k)];
            lhs[g.lhs(2, 2, CC, 0, i, k)] = lhs[g.lhs(2, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 2, CC, 0, i, k)];
            lhs[g.lhs(2, 3, CC, 0, i, k)] = lhs[g.lhs(2, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 3, CC, 0, i, k)];
            lhs[g.lhs(2, 4, CC, 0, i, k)] = lhs[g.lhs(2, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 4, CC, 0, i, k)];
            rhs[g.at(2, k, 0, i)] = rhs[g.at(2, k, 0, i)] - coeff * rhs[g.at(3, k, 0, i)];
            let coeff = lhs[g.lhs(4, 3, BB, 0, i, k)];
            lhs[g.lhs(4, 4, BB, 0, i, k)] = lhs[g.lhs(4, 4, BB, 0, i, k)] - coeff * lhs[g.lhs(3, 4, BB, 0, i, k)];
            lhs[g.lhs(4, 0, CC, 0, i, k)] = lhs[g.lhs(4, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 0, CC, 0, i, k)];
            lhs[g.lhs(4, 1, CC, 0, i, k)] = lhs[g.lhs(4, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 1, CC, 0, i, k)];
            lhs[g.lhs(4, 2, CC, 0, i, k)] = lhs[g.lhs(4, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 2, CC, 0, i, k)];
            lhs[g.lhs(4, 3, CC, 0, i, k)] = lhs[g.lhs(4, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 3, CC, 0, i, k)];
            lhs[g.lhs(4, 4, CC, 0, i, k)] = lhs[g.lhs(4, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(3, 4, CC, 0, i, k)];
            rhs[g.at(4, k, 0, i)] = rhs[g.at(4, k, 0, i)] - coeff * rhs[g.at(3, k, 0, i)];
            let pivot = 1.00 / lhs[g.lhs(4, 4, BB, 0, i, k)];
            lhs[g.lhs(4, 0, CC, 0, i, k)] = lhs[g.lhs(4, 0, CC, 0, i, k)] * pivot;
            lhs[g.lhs(4, 1, CC, 0, i, k)] = lhs[g.lhs(4, 1, CC, 0, i, k)] * pivot;
            lhs[g.lhs(4, 2, CC, 0, i, k)] = lhs[g.lhs(4, 2, CC, 0, i, k)] * pivot;
            lhs[g.lhs(4, 3, CC, 0, i, k)] = lhs[g.lhs(4, 3, CC, 0, i, k)] * pivot;
            lhs[g.lhs(4, 4, CC, 0, i, k)] = lhs[g.lhs(4, 4, CC, 0, i, k)] * pivot;
            rhs[g.at(4, k, 0, i)] = rhs[g.at(4, k, 0, i)] * pivot;
            let coeff = lhs[g.lhs(0, 4, BB, 0, i, k)];
            lhs[g.lhs(0, 0, CC, 0, i, k)] = lhs[g.lhs(0, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 0, CC, 0, i, k)];
            lhs[g.lhs(0, 1, CC, 0, i, k)] = lhs[g.lhs(0, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 1, CC, 0, i, k)];
            lhs[g.lhs(0, 2, CC, 0, i, k)] = lhs[g.lhs(0, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 2, CC, 0, i, k)];
            lhs[g.lhs(0, 3, CC, 0, i, k)] = lhs[g.lhs(0, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 3, CC, 0, i, k)];
            lhs[g.lhs(0, 4, CC, 0, i, k)] = lhs[g.lhs(0, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 4, CC, 0, i, k)];
            rhs[g.at(0, k, 0, i)] = rhs[g.at(0, k, 0, i)] - coeff * rhs[g.at(4, k, 0, i)];
            let coeff = lhs[g.lhs(1, 4, BB, 0, i, k)];
            lhs[g.lhs(1, 0, CC, 0, i, k)] = lhs[g.lhs(1, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 0, CC, 0, i, k)];
            lhs[g.lhs(1, 1, CC, 0, i, k)] = lhs[g.lhs(1, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 1, CC, 0, i, k)];
            lhs[g.lhs(1, 2, CC, 0, i, k)] = lhs[g.lhs(1, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 2, CC, 0, i, k)];
            lhs[g.lhs(1, 3, CC, 0, i, k)] = lhs[g.lhs(1, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 3, CC, 0, i, k)];
            lhs[g.lhs(1, 4, CC, 0, i, k)] = lhs[g.lhs(1, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 4, CC, 0, i, k)];
            rhs[g.at(1, k, 0, i)] = rhs[g.at(1, k, 0, i)] - coeff * rhs[g.at(4, k, 0, i)];
            let coeff = lhs[g.lhs(2, 4, BB, 0, i, k)];
            lhs[g.lhs(2, 0, CC, 0, i, k)] = lhs[g.lhs(2, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 0, CC, 0, i, k)];
            lhs[g.lhs(2, 1, CC, 0, i, k)] = lhs[g.lhs(2, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 1, CC, 0, i, k)];
            lhs[g.lhs(2, 2, CC, 0, i, k)] = lhs[g.lhs(2, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 2, CC, 0, i, k)];
            lhs[g.lhs(2, 3, CC, 0, i, k)] = lhs[g.lhs(2, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 3, CC, 0, i, k)];
            lhs[g.lhs(2, 4, CC, 0, i, k)] = lhs[g.lhs(2, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 4, CC, 0, i, k)];
            rhs[g.at(2, k, 0, i)] = rhs[g.at(2, k, 0, i)] - coeff * rhs[g.at(4, k, 0, i)];
            let coeff = lhs[g.lhs(3, 4, BB, 0, i, k)];
            lhs[g.lhs(3, 0, CC, 0, i, k)] = lhs[g.lhs(3, 0, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 0, CC, 0, i, k)];
            lhs[g.lhs(3, 1, CC, 0, i, k)] = lhs[g.lhs(3, 1, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 1, CC, 0, i, k)];
            lhs[g.lhs(3, 2, CC, 0, i, k)] = lhs[g.lhs(3, 2, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 2, CC, 0, i, k)];
            lhs[g.lhs(3, 3, CC, 0, i, k)] = lhs[g.lhs(3, 3, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 3, CC, 0, i, k)];
            lhs[g.lhs(3, 4, CC, 0, i, k)] = lhs[g.lhs(3, 4, CC, 0, i, k)] - coeff * lhs[g.lhs(4, 4, CC, 0, i, k)];
            rhs[g.at(3, k, 0, i)] = rhs[g.at(3, k, 0, i)] - coeff * rhs[g.at(4, k, 0, i)];
        }
    }
}

/// The eta forward elimination along each line (`matvec_sub`, `matmul_sub`, `binvcrhs`).
#[acc::parallel(num_gangs(g.gp02), num_workers(4), vector_length(32))]
fn y_solve_forward(rhs: &mut [f64], lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp22, j_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            for j in 1..=j_size - 1 {
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                    - lhs[g.lhs(0, 0, AA, j, i, k)] * rhs[g.at(0, k, j - 1, i)]
                    - lhs[g.lhs(0, 1, AA, j, i, k)] * rhs[g.at(1, k, j - 1, i)]
                    - lhs[g.lhs(0, 2, AA, j, i, k)] * rhs[g.at(2, k, j - 1, i)]
                    - lhs[g.lhs(0, 3, AA, j, i, k)] * rhs[g.at(3, k, j - 1, i)]
                    - lhs[g.lhs(0, 4, AA, j, i, k)] * rhs[g.at(4, k, j - 1, i)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                    - lhs[g.lhs(1, 0, AA, j, i, k)] * rhs[g.at(0, k, j - 1, i)]
                    - lhs[g.lhs(1, 1, AA, j, i, k)] * rhs[g.at(1, k, j - 1, i)]
                    - lhs[g.lhs(1, 2, AA, j, i, k)] * rhs[g.at(2, k, j - 1, i)]
                    - lhs[g.lhs(1, 3, AA, j, i, k)] * rhs[g.at(3, k, j - 1, i)]
                    - lhs[g.lhs(1, 4, AA, j, i, k)] * rhs[g.at(4, k, j - 1, i)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                    - lhs[g.lhs(2, 0, AA, j, i, k)] * rhs[g.at(0, k, j - 1, i)]
                    - lhs[g.lhs(2, 1, AA, j, i, k)] * rhs[g.at(1, k, j - 1, i)]
                    - lhs[g.lhs(2, 2, AA, j, i, k)] * rhs[g.at(2, k, j - 1, i)]
                    - lhs[g.lhs(2, 3, AA, j, i, k)] * rhs[g.at(3, k, j - 1, i)]
                    - lhs[g.lhs(2, 4, AA, j, i, k)] * rhs[g.at(4, k, j - 1, i)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                    - lhs[g.lhs(3, 0, AA, j, i, k)] * rhs[g.at(0, k, j - 1, i)]
                    - lhs[g.lhs(3, 1, AA, j, i, k)] * rhs[g.at(1, k, j - 1, i)]
                    - lhs[g.lhs(3, 2, AA, j, i, k)] * rhs[g.at(2, k, j - 1, i)]
                    - lhs[g.lhs(3, 3, AA, j, i, k)] * rhs[g.at(3, k, j - 1, i)]
                    - lhs[g.lhs(3, 4, AA, j, i, k)] * rhs[g.at(4, k, j - 1, i)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                    - lhs[g.lhs(4, 0, AA, j, i, k)] * rhs[g.at(0, k, j - 1, i)]
                    - lhs[g.lhs(4, 1, AA, j, i, k)] * rhs[g.at(1, k, j - 1, i)]
                    - lhs[g.lhs(4, 2, AA, j, i, k)] * rhs[g.at(2, k, j - 1, i)]
                    - lhs[g.lhs(4, 3, AA, j, i, k)] * rhs[g.at(3, k, j - 1, i)]
                    - lhs[g.lhs(4, 4, AA, j, i, k)] * rhs[g.at(4, k, j - 1, i)];
                lhs[g.lhs(0, 0, BB, j, i, k)] = lhs[g.lhs(0, 0, BB, j, i, k)]
                    - lhs[g.lhs(0, 0, AA, j, i, k)] * lhs[g.lhs(0, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 1, AA, j, i, k)] * lhs[g.lhs(1, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 2, AA, j, i, k)] * lhs[g.lhs(2, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 3, AA, j, i, k)] * lhs[g.lhs(3, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 4, AA, j, i, k)] * lhs[g.lhs(4, 0, CC, j - 1, i, k)];
                lhs[g.lhs(1, 0, BB, j, i, k)] = lhs[g.lhs(1, 0, BB, j, i, k)]
                    - lhs[g.lhs(1, 0, AA, j, i, k)] * lhs[g.lhs(0, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 1, AA, j, i, k)] * lhs[g.lhs(1, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 2, AA, j, i, k)] * lhs[g.lhs(2, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 3, AA, j, i, k)] * lhs[g.lhs(3, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 4, AA, j, i, k)] * lhs[g.lhs(4, 0, CC, j - 1, i, k)];
                lhs[g.lhs(2, 0, BB, j, i, k)] = lhs[g.lhs(2, 0, BB, j, i, k)]
                    - lhs[g.lhs(2, 0, AA, j, i, k)] * lhs[g.lhs(0, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 1, AA, j, i, k)] * lhs[g.lhs(1, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 2, AA, j, i, k)] * lhs[g.lhs(2, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 3, AA, j, i, k)] * lhs[g.lhs(3, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 4, AA, j, i, k)] * lhs[g.lhs(4, 0, CC, j - 1, i, k)];
                lhs[g.lhs(3, 0, BB, j, i, k)] = lhs[g.lhs(3, 0, BB, j, i, k)]
                    - lhs[g.lhs(3, 0, AA, j, i, k)] * lhs[g.lhs(0, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 1, AA, j, i, k)] * lhs[g.lhs(1, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 2, AA, j, i, k)] * lhs[g.lhs(2, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 3, AA, j, i, k)] * lhs[g.lhs(3, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 4, AA, j, i, k)] * lhs[g.lhs(4, 0, CC, j - 1, i, k)];
                lhs[g.lhs(4, 0, BB, j, i, k)] = lhs[g.lhs(4, 0, BB, j, i, k)]
                    - lhs[g.lhs(4, 0, AA, j, i, k)] * lhs[g.lhs(0, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 1, AA, j, i, k)] * lhs[g.lhs(1, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 2, AA, j, i, k)] * lhs[g.lhs(2, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 3, AA, j, i, k)] * lhs[g.lhs(3, 0, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 4, AA, j, i, k)] * lhs[g.lhs(4, 0, CC, j - 1, i, k)];
                lhs[g.lhs(0, 1, BB, j, i, k)] = lhs[g.lhs(0, 1, BB, j, i, k)]
                    - lhs[g.lhs(0, 0, AA, j, i, k)] * lhs[g.lhs(0, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 1, AA, j, i, k)] * lhs[g.lhs(1, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 2, AA, j, i, k)] * lhs[g.lhs(2, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 3, AA, j, i, k)] * lhs[g.lhs(3, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 4, AA, j, i, k)] * lhs[g.lhs(4, 1, CC, j - 1, i, k)];
                lhs[g.lhs(1, 1, BB, j, i, k)] = lhs[g.lhs(1, 1, BB, j, i, k)]
                    - lhs[g.lhs(1, 0, AA, j, i, k)] * lhs[g.lhs(0, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 1, AA, j, i, k)] * lhs[g.lhs(1, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 2, AA, j, i, k)] * lhs[g.lhs(2, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 3, AA, j, i, k)] * lhs[g.lhs(3, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 4, AA, j, i, k)] * lhs[g.lhs(4, 1, CC, j - 1, i, k)];
                lhs[g.lhs(2, 1, BB, j, i, k)] = lhs[g.lhs(2, 1, BB, j, i, k)]
                    - lhs[g.lhs(2, 0, AA, j, i, k)] * lhs[g.lhs(0, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 1, AA, j, i, k)] * lhs[g.lhs(1, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 2, AA, j, i, k)] * lhs[g.lhs(2, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 3, AA, j, i, k)] * lhs[g.lhs(3, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 4, AA, j, i, k)] * lhs[g.lhs(4, 1, CC, j - 1, i, k)];
                lhs[g.lhs(3, 1, BB, j, i, k)] = lhs[g.lhs(3, 1, BB, j, i, k)]
                    - lhs[g.lhs(3, 0, AA, j, i, k)] * lhs[g.lhs(0, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 1, AA, j, i, k)] * lhs[g.lhs(1, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 2, AA, j, i, k)] * lhs[g.lhs(2, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 3, AA, j, i, k)] * lhs[g.lhs(3, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 4, AA, j, i, k)] * lhs[g.lhs(4, 1, CC, j - 1, i, k)];
                lhs[g.lhs(4, 1, BB, j, i, k)] = lhs[g.lhs(4, 1, BB, j, i, k)]
                    - lhs[g.lhs(4, 0, AA, j, i, k)] * lhs[g.lhs(0, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 1, AA, j, i, k)] * lhs[g.lhs(1, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 2, AA, j, i, k)] * lhs[g.lhs(2, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 3, AA, j, i, k)] * lhs[g.lhs(3, 1, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 4, AA, j, i, k)] * lhs[g.lhs(4, 1, CC, j - 1, i, k)];
                lhs[g.lhs(0, 2, BB, j, i, k)] = lhs[g.lhs(0, 2, BB, j, i, k)]
                    - lhs[g.lhs(0, 0, AA, j, i, k)] * lhs[g.lhs(0, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 1, AA, j, i, k)] * lhs[g.lhs(1, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 2, AA, j, i, k)] * lhs[g.lhs(2, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 3, AA, j, i, k)] * lhs[g.lhs(3, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 4, AA, j, i, k)] * lhs[g.lhs(4, 2, CC, j - 1, i, k)];
                lhs[g.lhs(1, 2, BB, j, i, k)] = lhs[g.lhs(1, 2, BB, j, i, k)]
                    - lhs[g.lhs(1, 0, AA, j, i, k)] * lhs[g.lhs(0, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 1, AA, j, i, k)] * lhs[g.lhs(1, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 2, AA, j, i, k)] * lhs[g.lhs(2, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 3, AA, j, i, k)] * lhs[g.lhs(3, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 4, AA, j, i, k)] * lhs[g.lhs(4, 2, CC, j - 1, i, k)];
                lhs[g.lhs(2, 2, BB, j, i, k)] = lhs[g.lhs(2, 2, BB, j, i, k)]
                    - lhs[g.lhs(2, 0, AA, j, i, k)] * lhs[g.lhs(0, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 1, AA, j, i, k)] * lhs[g.lhs(1, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 2, AA, j, i, k)] * lhs[g.lhs(2, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 3, AA, j, i, k)] * lhs[g.lhs(3, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 4, AA, j, i, k)] * lhs[g.lhs(4, 2, CC, j - 1, i, k)];
                lhs[g.lhs(3, 2, BB, j, i, k)] = lhs[g.lhs(3, 2, BB, j, i, k)]
                    - lhs[g.lhs(3, 0, AA, j, i, k)] * lhs[g.lhs(0, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 1, AA, j, i, k)] * lhs[g.lhs(1, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 2, AA, j, i, k)] * lhs[g.lhs(2, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 3, AA, j, i, k)] * lhs[g.lhs(3, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 4, AA, j, i, k)] * lhs[g.lhs(4, 2, CC, j - 1, i, k)];
                lhs[g.lhs(4, 2, BB, j, i, k)] = lhs[g.lhs(4, 2, BB, j, i, k)]
                    - lhs[g.lhs(4, 0, AA, j, i, k)] * lhs[g.lhs(0, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 1, AA, j, i, k)] * lhs[g.lhs(1, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 2, AA, j, i, k)] * lhs[g.lhs(2, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 3, AA, j, i, k)] * lhs[g.lhs(3, 2, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 4, AA, j, i, k)] * lhs[g.lhs(4, 2, CC, j - 1, i, k)];
                lhs[g.lhs(0, 3, BB, j, i, k)] = lhs[g.lhs(0, 3, BB, j, i, k)]
                    - lhs[g.lhs(0, 0, AA, j, i, k)] * lhs[g.lhs(0, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 1, AA, j, i, k)] * lhs[g.lhs(1, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 2, AA, j, i, k)] * lhs[g.lhs(2, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 3, AA, j, i, k)] * lhs[g.lhs(3, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 4, AA, j, i, k)] * lhs[g.lhs(4, 3, CC, j - 1, i, k)];
                lhs[g.lhs(1, 3, BB, j, i, k)] = lhs[g.lhs(1, 3, BB, j, i, k)]
                    - lhs[g.lhs(1, 0, AA, j, i, k)] * lhs[g.lhs(0, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 1, AA, j, i, k)] * lhs[g.lhs(1, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 2, AA, j, i, k)] * lhs[g.lhs(2, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 3, AA, j, i, k)] * lhs[g.lhs(3, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 4, AA, j, i, k)] * lhs[g.lhs(4, 3, CC, j - 1, i, k)];
                lhs[g.lhs(2, 3, BB, j, i, k)] = lhs[g.lhs(2, 3, BB, j, i, k)]
                    - lhs[g.lhs(2, 0, AA, j, i, k)] * lhs[g.lhs(0, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 1, AA, j, i, k)] * lhs[g.lhs(1, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 2, AA, j, i, k)] * lhs[g.lhs(2, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 3, AA, j, i, k)] * lhs[g.lhs(3, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 4, AA, j, i, k)] * lhs[g.lhs(4, 3, CC, j - 1, i, k)];
                lhs[g.lhs(3, 3, BB, j, i, k)] = lhs[g.lhs(3, 3, BB, j, i, k)]
                    - lhs[g.lhs(3, 0, AA, j, i, k)] * lhs[g.lhs(0, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 1, AA, j, i, k)] * lhs[g.lhs(1, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 2, AA, j, i, k)] * lhs[g.lhs(2, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 3, AA, j, i, k)] * lhs[g.lhs(3, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 4, AA, j, i, k)] * lhs[g.lhs(4, 3, CC, j - 1, i, k)];
                lhs[g.lhs(4, 3, BB, j, i, k)] = lhs[g.lhs(4, 3, BB, j, i, k)]
                    - lhs[g.lhs(4, 0, AA, j, i, k)] * lhs[g.lhs(0, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 1, AA, j, i, k)] * lhs[g.lhs(1, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 2, AA, j, i, k)] * lhs[g.lhs(2, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 3, AA, j, i, k)] * lhs[g.lhs(3, 3, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 4, AA, j, i, k)] * lhs[g.lhs(4, 3, CC, j - 1, i, k)];
                lhs[g.lhs(0, 4, BB, j, i, k)] = lhs[g.lhs(0, 4, BB, j, i, k)]
                    - lhs[g.lhs(0, 0, AA, j, i, k)] * lhs[g.lhs(0, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 1, AA, j, i, k)] * lhs[g.lhs(1, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 2, AA, j, i, k)] * lhs[g.lhs(2, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 3, AA, j, i, k)] * lhs[g.lhs(3, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(0, 4, AA, j, i, k)] * lhs[g.lhs(4, 4, CC, j - 1, i, k)];
                lhs[g.lhs(1, 4, BB, j, i, k)] = lhs[g.lhs(1, 4, BB, j, i, k)]
                    - lhs[g.lhs(1, 0, AA, j, i, k)] * lhs[g.lhs(0, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 1, AA, j, i, k)] * lhs[g.lhs(1, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 2, AA, j, i, k)] * lhs[g.lhs(2, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 3, AA, j, i, k)] * lhs[g.lhs(3, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(1, 4, AA, j, i, k)] * lhs[g.lhs(4, 4, CC, j - 1, i, k)];
                lhs[g.lhs(2, 4, BB, j, i, k)] = lhs[g.lhs(2, 4, BB, j, i, k)]
                    - lhs[g.lhs(2, 0, AA, j, i, k)] * lhs[g.lhs(0, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 1, AA, j, i, k)] * lhs[g.lhs(1, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 2, AA, j, i, k)] * lhs[g.lhs(2, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 3, AA, j, i, k)] * lhs[g.lhs(3, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(2, 4, AA, j, i, k)] * lhs[g.lhs(4, 4, CC, j - 1, i, k)];
                lhs[g.lhs(3, 4, BB, j, i, k)] = lhs[g.lhs(3, 4, BB, j, i, k)]
                    - lhs[g.lhs(3, 0, AA, j, i, k)] * lhs[g.lhs(0, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 1, AA, j, i, k)] * lhs[g.lhs(1, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 2, AA, j, i, k)] * lhs[g.lhs(2, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 3, AA, j, i, k)] * lhs[g.lhs(3, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(3, 4, AA, j, i, k)] * lhs[g.lhs(4, 4, CC, j - 1, i, k)];
                lhs[g.lhs(4, 4, BB, j, i, k)] = lhs[g.lhs(4, 4, BB, j, i, k)]
                    - lhs[g.lhs(4, 0, AA, j, i, k)] * lhs[g.lhs(0, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 1, AA, j, i, k)] * lhs[g.lhs(1, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 2, AA, j, i, k)] * lhs[g.lhs(2, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 3, AA, j, i, k)] * lhs[g.lhs(3, 4, CC, j - 1, i, k)]
                    - lhs[g.lhs(4, 4, AA, j, i, k)] * lhs[g.lhs(4, 4, CC, j - 1, i, k)];
                let pivot = 1.00 / lhs[g.lhs(0, 0, BB, j, i, k)];
                lhs[g.lhs(0, 1, BB, j, i, k)] = lhs[g.lhs(0, 1, BB, j, i, k)] * pivot;
                lhs[g.lhs(0, 2, BB, j, i, k)] = lhs[g.lhs(0, 2, BB, j, i, k)] * pivot;
                lhs[g.lhs(0, 3, BB, j, i, k)] = lhs[g.lhs(0, 3, BB, j, i, k)] * pivot;
                lhs[g.lhs(0, 4, BB, j, i, k)] = lhs[g.lhs(0, 4, BB, j, i, k)] * pivot;
                lhs[g.lhs(0, 0, CC, j, i, k)] = lhs[g.lhs(0, 0, CC, j, i, k)] * pivot;
                lhs[g.lhs(0, 1, CC, j, i, k)] = lhs[g.lhs(0, 1, CC, j, i, k)] * pivot;
                lhs[g.lhs(0, 2, CC, j, i, k)] = lhs[g.lhs(0, 2, CC, j, i, k)] * pivot;
                lhs[g.lhs(0, 3, CC, j, i, k)] = lhs[g.lhs(0, 3, CC, j, i, k)] * pivot;
                lhs[g.lhs(0, 4, CC, j, i, k)] = lhs[g.lhs(0, 4, CC, j, i, k)] * pivot;
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(1, 0, BB, j, i, k)];
                lhs[g.lhs(1, 1, BB, j, i, k)] = lhs[g.lhs(1, 1, BB, j, i, k)] - coeff * lhs[g.lhs(0, 1, BB, j, i, k)];
                lhs[g.lhs(1, 2, BB, j, i, k)] = lhs[g.lhs(1, 2, BB, j, i, k)] - coeff * lhs[g.lhs(0, 2, BB, j, i, k)];
                lhs[g.lhs(1, 3, BB, j, i, k)] = lhs[g.lhs(1, 3, BB, j, i, k)] - coeff * lhs[g.lhs(0, 3, BB, j, i, k)];
                lhs[g.lhs(1, 4, BB, j, i, k)] = lhs[g.lhs(1, 4, BB, j, i, k)] - coeff * lhs[g.lhs(0, 4, BB, j, i, k)];
                lhs[g.lhs(1, 0, CC, j, i, k)] = lhs[g.lhs(1, 0, CC, j, i, k)] - coeff * lhs[g.lhs(0, 0, CC, j, i, k)];
                lhs[g.lhs(1, 1, CC, j, i, k)] = lhs[g.lhs(1, 1, CC, j, i, k)] - coeff * lhs[g.lhs(0, 1, CC, j, i, k)];
                lhs[g.lhs(1, 2, CC, j, i, k)] = lhs[g.lhs(1, 2, CC, j, i, k)] - coeff * lhs[g.lhs(0, 2, CC, j, i, k)];
                lhs[g.lhs(1, 3, CC, j, i, k)] = lhs[g.lhs(1, 3, CC, j, i, k)] - coeff * lhs[g.lhs(0, 3, CC, j, i, k)];
                lhs[g.lhs(1, 4, CC, j, i, k)] = lhs[g.lhs(1, 4, CC, j, i, k)] - coeff * lhs[g.lhs(0, 4, CC, j, i, k)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let coeff = lhs[g.lhs(2, 0, BB, j, i, k)];
                lhs[g.lhs(2, 1, BB, j, i, k)] = lhs[g.lhs(2, 1, BB, j, i, k)] - coeff * lhs[g.lhs(0, 1, BB, j, i, k)];
                lhs[g.lhs(2, 2, BB, j, i, k)] = lhs[g.lhs(2, 2, BB, j, i, k)] - coeff * lhs[g.lhs(0, 2, BB, j, i, k)];
                lhs[g.lhs(2, 3, BB, j, i, k)] = lhs[g.lhs(2, 3, BB, j, i, k)] - coeff * lhs[g.lhs(0, 3, BB, j, i, k)];
                lhs[g.lhs(2, 4, BB, j, i, k)] = lhs[g.lhs(2, 4, BB, j, i, k)] - coeff * lhs[g.lhs(0, 4, BB, j, i, k)];
                lhs[g.lhs(2, 0, CC, j, i, k)] = lhs[g.lhs(2, 0, CC, j, i, k)] - coeff * lhs[g.lhs(0, 0, CC, j, i, k)];
                lhs[g.lhs(2, 1, CC, j, i, k)] = lhs[g.lhs(2, 1, CC, j, i, k)] - coeff * lhs[g.lhs(0, 1, CC, j, i, k)];
                lhs[g.lhs(2, 2, CC, j, i, k)] = lhs[g.lhs(2, 2, CC, j, i, k)] - coeff * lhs[g.lhs(0, 2, CC, j, i, k)];
                lhs[g.lhs(2, 3, CC, j, i, k)] = lhs[g.lhs(2, 3, CC, j, i, k)] - coeff * lhs[g.lhs(0, 3, CC, j, i, k)];
                lhs[g.lhs(2, 4, CC, j, i, k)] = lhs[g.lhs(2, 4, CC, j, i, k)] - coeff * lhs[g.lhs(0, 4, CC, j, i, k)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let coeff = lhs[g.lhs(3, 0, BB, j, i, k)];
                lhs[g.lhs(3, 1, BB, j, i, k)] = lhs[g.lhs(3, 1, BB, j, i, k)] - coeff * lhs[g.lhs(0, 1, BB, j, i, k)];
                lhs[g.lhs(3, 2, BB, j, i, k)] = lhs[g.lhs(3, 2, BB, j, i, k)] - coeff * lhs[g.lhs(0, 2, BB, j, i, k)];
                lhs[g.lhs(3, 3, BB, j, i, k)] = lhs[g.lhs(3, 3, BB, j, i, k)] - coeff * lhs[g.lhs(0, 3, BB, j, i, k)];
                lhs[g.lhs(3, 4, BB, j, i, k)] = lhs[g.lhs(3, 4, BB, j, i, k)] - coeff * lhs[g.lhs(0, 4, BB, j, i, k)];
                lhs[g.lhs(3, 0, CC, j, i, k)] = lhs[g.lhs(3, 0, CC, j, i, k)] - coeff * lhs[g.lhs(0, 0, CC, j, i, k)];
                lhs[g.lhs(3, 1, CC, j, i, k)] = lhs[g.lhs(3, 1, CC, j, i, k)] - coeff * lhs[g.lhs(0, 1, CC, j, i, k)];
                lhs[g.lhs(3, 2, CC, j, i, k)] = lhs[g.lhs(3, 2, CC, j, i, k)] - coeff * lhs[g.lhs(0, 2, CC, j, i, k)];
                lhs[g.lhs(3, 3, CC, j, i, k)] = lhs[g.lhs(3, 3, CC, j, i, k)] - coeff * lhs[g.lhs(0, 3, CC, j, i, k)];
                lhs[g.lhs(3, 4, CC, j, i, k)] = lhs[g.lhs(3, 4, CC, j, i, k)] - coeff * lhs[g.lhs(0, 4, CC, j, i, k)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let coeff = lhs[g.lhs(4, 0, BB, j, i, k)];
                lhs[g.lhs(4, 1, BB, j, i, k)] = lhs[g.lhs(4, 1, BB, j, i, k)] - coeff * lhs[g.lhs(0, 1, BB, j, i, k)];
                lhs[g.lhs(4, 2, BB, j, i, k)] = lhs[g.lhs(4, 2, BB, j, i, k)] - coeff * lhs[g.lhs(0, 2, BB, j, i, k)];
                lhs[g.lhs(4, 3, BB, j, i, k)] = lhs[g.lhs(4, 3, BB, j, i, k)] - coeff * lhs[g.lhs(0, 3, BB, j, i, k)];
                lhs[g.lhs(4, 4, BB, j, i, k)] = lhs[g.lhs(4, 4, BB, j, i, k)] - coeff * lhs[g.lhs(0, 4, BB, j, i, k)];
                lhs[g.lhs(4, 0, CC, j, i, k)] = lhs[g.lhs(4, 0, CC, j, i, k)] - coeff * lhs[g.lhs(0, 0, CC, j, i, k)];
                lhs[g.lhs(4, 1, CC, j, i, k)] = lhs[g.lhs(4, 1, CC, j, i, k)] - coeff * lhs[g.lhs(0, 1, CC, j, i, k)];
                lhs[g.lhs(4, 2, CC, j, i, k)] = lhs[g.lhs(4, 2, CC, j, i, k)] - coeff * lhs[g.lhs(0, 2, CC, j, i, k)];
                lhs[g.lhs(4, 3, CC, j, i, k)] = lhs[g.lhs(4, 3, CC, j, i, k)] - coeff * lhs[g.lhs(0, 3, CC, j, i, k)];
                lhs[g.lhs(4, 4, CC, j, i, k)] = lhs[g.lhs(4, 4, CC, j, i, k)] - coeff * lhs[g.lhs(0, 4, CC, j, i, k)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(1, 1, BB, j, i, k)];
                lhs[g.lhs(1, 2, BB, j, i, k)] = lhs[g.lhs(1, 2, BB, j, i, k)] * pivot;
                lhs[g.lhs(1, 3, BB, j, i, k)] = lhs[g.lhs(1, 3, BB, j, i, k)] * pivot;
                lhs[g.lhs(1, 4, BB, j, i, k)] = lhs[g.lhs(1, 4, BB, j, i, k)] * pivot;
                lhs[g.lhs(1, 0, CC, j, i, k)] = lhs[g.lhs(1, 0, CC, j, i, k)] * pivot;
                lhs[g.lhs(1, 1, CC, j, i, k)] = lhs[g.lhs(1, 1, CC, j, i, k)] * pivot;
                lhs[g.lhs(1, 2, CC, j, i, k)] = lhs[g.lhs(1, 2, CC, j, i, k)] * pivot;
                lhs[g.lhs(1, 3, CC, j, i, k)] = lhs[g.lhs(1, 3, CC, j, i, k)] * pivot;
                lhs[g.lhs(1, 4, CC, j, i, k)] = lhs[g.lhs(1, 4, CC, j, i, k)] * pivot;
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 1, BB, j, i, k)];
                lhs[g.lhs(0, 2, BB, j, i, k)] = lhs[g.lhs(0, 2, BB, j, i, k)] - coeff * lhs[g.lhs(1, 2, BB, j, i, k)];
                lhs[g.lhs(0, 3, BB, j, i, k)] = lhs[g.lhs(0, 3, BB, j, i, k)] - coeff * lhs[g.lhs(1, 3, BB, j, i, k)];
                lhs[g.lhs(0, 4, BB, j, i, k)] = lhs[g.lhs(0, 4, BB, j, i, k)] - coeff * lhs[g.lhs(1, 4, BB, j, i, k)];
                lhs[g.lhs(0, 0, CC, j, i, k)] = lhs[g.lhs(0, 0, CC, j, i, k)] - coeff * lhs[g.lhs(1, 0, CC, j, i, k)];
                lhs[g.lhs(0, 1, CC, j, i, k)] = lhs[g.lhs(0, 1, CC, j, i, k)] - coeff * lhs[g.lhs(1, 1, CC, j, i, k)];
                lhs[g.lhs(0, 2, CC, j, i, k)] = lhs[g.lhs(0, 2, CC, j, i, k)] - coeff * lhs[g.lhs(1, 2, CC, j, i, k)];
                lhs[g.lhs(0, 3, CC, j, i, k)] = lhs[g.lhs(0, 3, CC, j, i, k)] - coeff * lhs[g.lhs(1, 3, CC, j, i, k)];
                lhs[g.lhs(0, 4, CC, j, i, k)] = lhs[g.lhs(0, 4, CC, j, i, k)] - coeff * lhs[g.lhs(1, 4, CC, j, i, k)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let coeff = lhs[g.lhs(2, 1, BB, j, i, k)];
                lhs[g.lhs(2, 2, BB, j, i, k)] = lhs[g.lhs(2, 2, BB, j, i, k)] - coeff * lhs[g.lhs(1, 2, BB, j, i, k)];
                lhs[g.lhs(2, 3, BB, j, i, k)] = lhs[g.lhs(2, 3, BB, j, i, k)] - coeff * lhs[g.lhs(1, 3, BB, j, i, k)];
                lhs[g.lhs(2, 4, BB, j, i, k)] = lhs[g.lhs(2, 4, BB, j, i, k)] - coeff * lhs[g.lhs(1, 4, BB, j, i, k)];
                lhs[g.lhs(2, 0, CC, j, i, k)] = lhs[g.lhs(2, 0, CC, j, i, k)] - coeff * lhs[g.lhs(1, 0, CC, j, i, k)];
                lhs[g.lhs(2, 1, CC, j, i, k)] = lhs[g.lhs(2, 1, CC, j, i, k)] - coeff * lhs[g.lhs(1, 1, CC, j, i, k)];
                lhs[g.lhs(2, 2, CC, j, i, k)] = lhs[g.lhs(2, 2, CC, j, i, k)] - coeff * lhs[g.lhs(1, 2, CC, j, i, k)];
                lhs[g.lhs(2, 3, CC, j, i, k)] = lhs[g.lhs(2, 3, CC, j, i, k)] - coeff * lhs[g.lhs(1, 3, CC, j, i, k)];
                lhs[g.lhs(2, 4, CC, j, i, k)] = lhs[g.lhs(2, 4, CC, j, i, k)] - coeff * lhs[g.lhs(1, 4, CC, j, i, k)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let coeff = lhs[g.lhs(3, 1, BB, j, i, k)];
                lhs[g.lhs(3, 2, BB, j, i, k)] = lhs[g.lhs(3, 2, BB, j, i, k)] - coeff * lhs[g.lhs(1, 2, BB, j, i, k)];
                lhs[g.lhs(3, 3, BB, j, i, k)] = lhs[g.lhs(3, 3, BB, j, i, k)] - coeff * lhs[g.lhs(1, 3, BB, j, i, k)];
                lhs[g.lhs(3, 4, BB, j, i, k)] = lhs[g.lhs(3, 4, BB, j, i, k)] - coeff * lhs[g.lhs(1, 4, BB, j, i, k)];
                lhs[g.lhs(3, 0, CC, j, i, k)] = lhs[g.lhs(3, 0, CC, j, i, k)] - coeff * lhs[g.lhs(1, 0, CC, j, i, k)];
                lhs[g.lhs(3, 1, CC, j, i, k)] = lhs[g.lhs(3, 1, CC, j, i, k)] - coeff * lhs[g.lhs(1, 1, CC, j, i, k)];
                lhs[g.lhs(3, 2, CC, j, i, k)] = lhs[g.lhs(3, 2, CC, j, i, k)] - coeff * lhs[g.lhs(1, 2, CC, j, i, k)];
                lhs[g.lhs(3, 3, CC, j, i, k)] = lhs[g.lhs(3, 3, CC, j, i, k)] - coeff * lhs[g.lhs(1, 3, CC, j, i, k)];
                lhs[g.lhs(3, 4, CC, j, i, k)] = lhs[g.lhs(3, 4, CC, j, i, k)] - coeff * lhs[g.lhs(1, 4, CC, j, i, k)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let coeff = lhs[g.lhs(4, 1, BB, j, i, k)];
                lhs[g.lhs(4, 2, BB, j, i, k)] = lhs[g.lhs(4, 2, BB, j, i, k)] - coeff * lhs[g.lhs(1, 2, BB, j, i, k)];
                lhs[g.lhs(4, 3, BB, j, i, k)] = lhs[g.lhs(4, 3, BB, j, i, k)] - coeff * lhs[g.lhs(1, 3, BB, j, i, k)];
                lhs[g.lhs(4, 4, BB, j, i, k)] = lhs[g.lhs(4, 4, BB, j, i, k)] - coeff * lhs[g.lhs(1, 4, BB, j, i, k)];
                lhs[g.lhs(4, 0, CC, j, i, k)] = lhs[g.lhs(4, 0, CC, j, i, k)] - coeff * lhs[g.lhs(1, 0, CC, j, i, k)];
                lhs[g.lhs(4, 1, CC, j, i, k)] = lhs[g.lhs(4, 1, CC, j, i, k)] - coeff * lhs[g.lhs(1, 1, CC, j, i, k)];
                lhs[g.lhs(4, 2, CC, j, i, k)] = lhs[g.lhs(4, 2, CC, j, i, k)] - coeff * lhs[g.lhs(1, 2, CC, j, i, k)];
                lhs[g.lhs(4, 3, CC, j, i, k)] = lhs[g.lhs(4, 3, CC, j, i, k)] - coeff * lhs[g.lhs(1, 3, CC, j, i, k)];
                lhs[g.lhs(4, 4, CC, j, i, k)] = lhs[g.lhs(4, 4, CC, j, i, k)] - coeff * lhs[g.lhs(1, 4, CC, j, i, k)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(2, 2, BB, j, i, k)];
                lhs[g.lhs(2, 3, BB, j, i, k)] = lhs[g.lhs(2, 3, BB, j, i, k)] * pivot;
                lhs[g.lhs(2, 4, BB, j, i, k)] = lhs[g.lhs(2, 4, BB, j, i, k)] * pivot;
                lhs[g.lhs(2, 0, CC, j, i, k)] = lhs[g.lhs(2, 0, CC, j, i, k)] * pivot;
                lhs[g.lhs(2, 1, CC, j, i, k)] = lhs[g.lhs(2, 1, CC, j, i, k)] * pivot;
                lhs[g.lhs(2, 2, CC, j, i, k)] = lhs[g.lhs(2, 2, CC, j, i, k)] * pivot;
                lhs[g.lhs(2, 3, CC, j, i, k)] = lhs[g.lhs(2, 3, CC, j, i, k)] * pivot;
                lhs[g.lhs(2, 4, CC, j, i, k)] = lhs[g.lhs(2, 4, CC, j, i, k)] * pivot;
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 2, BB, j, i, k)];
                lhs[g.lhs(0, 3, BB, j, i, k)] = lhs[g.lhs(0, 3, BB, j, i, k)] - coeff * lhs[g.lhs(2, 3, BB, j, i, k)];
                lhs[g.lhs(0, 4, BB, j, i, k)] = lhs[g.lhs(0, 4, BB, j, i, k)] - coeff * lhs[g.lhs(2, 4, BB, j, i, k)];
                lhs[g.lhs(0, 0, CC, j, i, k)] = lhs[g.lhs(0, 0, CC, j, i, k)] - coeff * lhs[g.lhs(2, 0, CC, j, i, k)];
                lhs[g.lhs(0, 1, CC, j, i, k)] = lhs[g.lhs(0, 1, CC, j, i, k)] - coeff * lhs[g.lhs(2, 1, CC, j, i, k)];
                lhs[g.lhs(0, 2, CC, j, i, k)] = lhs[g.lhs(0, 2, CC, j, i, k)] - coeff * lhs[g.lhs(2, 2, CC, j, i, k)];
                lhs[g.lhs(0, 3, CC, j, i, k)] = lhs[g.lhs(0, 3, CC, j, i, k)] - coeff * lhs[g.lhs(2, 3, CC, j, i, k)];
                lhs[g.lhs(0, 4, CC, j, i, k)] = lhs[g.lhs(0, 4, CC, j, i, k)] - coeff * lhs[g.lhs(2, 4, CC, j, i, k)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let coeff = lhs[g.lhs(1, 2, BB, j, i, k)];
                lhs[g.lhs(1, 3, BB, j, i, k)] = lhs[g.lhs(1, 3, BB, j, i, k)] - coeff * lhs[g.lhs(2, 3, BB, j, i, k)];
                lhs[g.lhs(1, 4, BB, j, i, k)] = lhs[g.lhs(1, 4, BB, j, i, k)] - coeff * lhs[g.lhs(2, 4, BB, j, i, k)];
                lhs[g.lhs(1, 0, CC, j, i, k)] = lhs[g.lhs(1, 0, CC, j, i, k)] - coeff * lhs[g.lhs(2, 0, CC, j, i, k)];
                lhs[g.lhs(1, 1, CC, j, i, k)] = lhs[g.lhs(1, 1, CC, j, i, k)] - coeff * lhs[g.lhs(2, 1, CC, j, i, k)];
                lhs[g.lhs(1, 2, CC, j, i, k)] = lhs[g.lhs(1, 2, CC, j, i, k)] - coeff * lhs[g.lhs(2, 2, CC, j, i, k)];
                lhs[g.lhs(1, 3, CC, j, i, k)] = lhs[g.lhs(1, 3, CC, j, i, k)] - coeff * lhs[g.lhs(2, 3, CC, j, i, k)];
                lhs[g.lhs(1, 4, CC, j, i, k)] = lhs[g.lhs(1, 4, CC, j, i, k)] - coeff * lhs[g.lhs(2, 4, CC, j, i, k)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let coeff = lhs[g.lhs(3, 2, BB, j, i, k)];
                lhs[g.lhs(3, 3, BB, j, i, k)] = lhs[g.lhs(3, 3, BB, j, i, k)] - coeff * lhs[g.lhs(2, 3, BB, j, i, k)];
                lhs[g.lhs(3, 4, BB, j, i, k)] = lhs[g.lhs(3, 4, BB, j, i, k)] - coeff * lhs[g.lhs(2, 4, BB, j, i, k)];
                lhs[g.lhs(3, 0, CC, j, i, k)] = lhs[g.lhs(3, 0, CC, j, i, k)] - coeff * lhs[g.lhs(2, 0, CC, j, i, k)];
                lhs[g.lhs(3, 1, CC, j, i, k)] = lhs[g.lhs(3, 1, CC, j, i, k)] - coeff * lhs[g.lhs(2, 1, CC, j, i, k)];
                lhs[g.lhs(3, 2, CC, j, i, k)] = lhs[g.lhs(3, 2, CC, j, i, k)] - coeff * lhs[g.lhs(2, 2, CC, j, i, k)];
                lhs[g.lhs(3, 3, CC, j, i, k)] = lhs[g.lhs(3, 3, CC, j, i, k)] - coeff * lhs[g.lhs(2, 3, CC, j, i, k)];
                lhs[g.lhs(3, 4, CC, j, i, k)] = lhs[g.lhs(3, 4, CC, j, i, k)] - coeff * lhs[g.lhs(2, 4, CC, j, i, k)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let coeff = lhs[g.lhs(4, 2, BB, j, i, k)];
                lhs[g.lhs(4, 3, BB, j, i, k)] = lhs[g.lhs(4, 3, BB, j, i, k)] - coeff * lhs[g.lhs(2, 3, BB, j, i, k)];
                lhs[g.lhs(4, 4, BB, j, i, k)] = lhs[g.lhs(4, 4, BB, j, i, k)] - coeff * lhs[g.lhs(2, 4, BB, j, i, k)];
                lhs[g.lhs(4, 0, CC, j, i, k)] = lhs[g.lhs(4, 0, CC, j, i, k)] - coeff * lhs[g.lhs(2, 0, CC, j, i, k)];
                lhs[g.lhs(4, 1, CC, j, i, k)] = lhs[g.lhs(4, 1, CC, j, i, k)] - coeff * lhs[g.lhs(2, 1, CC, j, i, k)];
                lhs[g.lhs(4, 2, CC, j, i, k)] = lhs[g.lhs(4, 2, CC, j, i, k)] - coeff * lhs[g.lhs(2, 2, CC, j, i, k)];
                lhs[g.lhs(4, 3, CC, j, i, k)] = lhs[g.lhs(4, 3, CC, j, i, k)] - coeff * lhs[g.lhs(2, 3, CC, j, i, k)];
                lhs[g.lhs(4, 4, CC, j, i, k)] = lhs[g.lhs(4, 4, CC, j, i, k)] - coeff * lhs[g.lhs(2, 4, CC, j, i, k)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(3, 3, BB, j, i, k)];
                lhs[g.lhs(3, 4, BB, j, i, k)] = lhs[g.lhs(3, 4, BB, j, i, k)] * pivot;
                lhs[g.lhs(3, 0, CC, j, i, k)] = lhs[g.lhs(3, 0, CC, j, i, k)] * pivot;
                lhs[g.lhs(3, 1, CC, j, i, k)] = lhs[g.lhs(3, 1, CC, j, i, k)] * pivot;
                lhs[g.lhs(3, 2, CC, j, i, k)] = lhs[g.lhs(3, 2, CC, j, i, k)] * pivot;
                lhs[g.lhs(3, 3, CC, j, i, k)] = lhs[g.lhs(3, 3, CC, j, i, k)] * pivot;
                lhs[g.lhs(3, 4, CC, j, i, k)] = lhs[g.lhs(3, 4, CC, j, i, k)] * pivot;
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 3, BB, j, i, k)];
                lhs[g.lhs(0, 4, BB, j, i, k)] = lhs[g.lhs(0, 4, BB, j, i, k)] - coeff * lhs[g.lhs(3, 4, BB, j, i, k)];
                lhs[g.lhs(0, 0, CC, j, i, k)] = lhs[g.lhs(0, 0, CC, j, i, k)] - coeff * lhs[g.lhs(3, 0, CC, j, i, k)];
                lhs[g.lhs(0, 1, CC, j, i, k)] = lhs[g.lhs(0, 1, CC, j, i, k)] - coeff * lhs[g.lhs(3, 1, CC, j, i, k)];
                lhs[g.lhs(0, 2, CC, j, i, k)] = lhs[g.lhs(0, 2, CC, j, i, k)] - coeff * lhs[g.lhs(3, 2, CC, j, i, k)];
                lhs[g.lhs(0, 3, CC, j, i, k)] = lhs[g.lhs(0, 3, CC, j, i, k)] - coeff * lhs[g.lhs(3, 3, CC, j, i, k)];
                lhs[g.lhs(0, 4, CC, j, i, k)] = lhs[g.lhs(0, 4, CC, j, i, k)] - coeff * lhs[g.lhs(3, 4, CC, j, i, k)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let coeff = lhs[g.lhs(1, 3, BB, j, i, k)];
                lhs[g.lhs(1, 4, BB, j, i, k)] = lhs[g.lhs(1, 4, BB, j, i, k)] - coeff * lhs[g.lhs(3, 4, BB, j, i, k)];
                lhs[g.lhs(1, 0, CC, j, i, k)] = lhs[g.lhs(1, 0, CC, j, i, k)] - coeff * lhs[g.lhs(3, 0, CC, j, i, k)];
                lhs[g.lhs(1, 1, CC, j, i, k)] = lhs[g.lhs(1, 1, CC, j, i, k)] - coeff * lhs[g.lhs(3, 1, CC, j, i, k)];
                lhs[g.lhs(1, 2, CC, j, i, k)] = lhs[g.lhs(1, 2, CC, j, i, k)] - coeff * lhs[g.lhs(3, 2, CC, j, i, k)];
                lhs[g.lhs(1, 3, CC, j, i, k)] = lhs[g.lhs(1, 3, CC, j, i, k)] - coeff * lhs[g.lhs(3, 3, CC, j, i, k)];
                lhs[g.lhs(1, 4, CC, j, i, k)] = lhs[g.lhs(1, 4, CC, j, i, k)] - coeff * lhs[g.lhs(3, 4, CC, j, i, k)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let coeff = lhs[g.lhs(2, 3, BB, j, i, k)];
                lhs[g.lhs(2, 4, BB, j, i, k)] = lhs[g.lhs(2, 4, BB, j, i, k)] - coeff * lhs[g.lhs(3, 4, BB, j, i, k)];
                lhs[g.lhs(2, 0, CC, j, i, k)] = lhs[g.lhs(2, 0, CC, j, i, k)] - coeff * lhs[g.lhs(3, 0, CC, j, i, k)];
                lhs[g.lhs(2, 1, CC, j, i, k)] = lhs[g.lhs(2, 1, CC, j, i, k)] - coeff * lhs[g.lhs(3, 1, CC, j, i, k)];
                lhs[g.lhs(2, 2, CC, j, i, k)] = lhs[g.lhs(2, 2, CC, j, i, k)] - coeff * lhs[g.lhs(3, 2, CC, j, i, k)];
                lhs[g.lhs(2, 3, CC, j, i, k)] = lhs[g.lhs(2, 3, CC, j, i, k)] - coeff * lhs[g.lhs(3, 3, CC, j, i, k)];
                lhs[g.lhs(2, 4, CC, j, i, k)] = lhs[g.lhs(2, 4, CC, j, i, k)] - coeff * lhs[g.lhs(3, 4, CC, j, i, k)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let coeff = lhs[g.lhs(4, 3, BB, j, i, k)];
                lhs[g.lhs(4, 4, BB, j, i, k)] = lhs[g.lhs(4, 4, BB, j, i, k)] - coeff * lhs[g.lhs(3, 4, BB, j, i, k)];
                lhs[g.lhs(4, 0, CC, j, i, k)] = lhs[g.lhs(4, 0, CC, j, i, k)] - coeff * lhs[g.lhs(3, 0, CC, j, i, k)];
                lhs[g.lhs(4, 1, CC, j, i, k)] = lhs[g.lhs(4, 1, CC, j, i, k)] - coeff * lhs[g.lhs(3, 1, CC, j, i, k)];
                lhs[g.lhs(4, 2, CC, j, i, k)] = lhs[g.lhs(4, 2, CC, j, i, k)] - coeff * lhs[g.lhs(3, 2, CC, j, i, k)];
                lhs[g.lhs(4, 3, CC, j, i, k)] = lhs[g.lhs(4, 3, CC, j, i, k)] - coeff * lhs[g.lhs(3, 3, CC, j, i, k)];
                lhs[g.lhs(4, 4, CC, j, i, k)] = lhs[g.lhs(4, 4, CC, j, i, k)] - coeff * lhs[g.lhs(3, 4, CC, j, i, k)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(4, 4, BB, j, i, k)];
                lhs[g.lhs(4, 0, CC, j, i, k)] = lhs[g.lhs(4, 0, CC, j, i, k)] * pivot;
                lhs[g.lhs(4, 1, CC, j, i, k)] = lhs[g.lhs(4, 1, CC, j, i, k)] * pivot;
                lhs[g.lhs(4, 2, CC, j, i, k)] = lhs[g.lhs(4, 2, CC, j, i, k)] * pivot;
                lhs[g.lhs(4, 3, CC, j, i, k)] = lhs[g.lhs(4, 3, CC, j, i, k)] * pivot;
                lhs[g.lhs(4, 4, CC, j, i, k)] = lhs[g.lhs(4, 4, CC, j, i, k)] * pivot;
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 4, BB, j, i, k)];
                lhs[g.lhs(0, 0, CC, j, i, k)] = lhs[g.lhs(0, 0, CC, j, i, k)] - coeff * lhs[g.lhs(4, 0, CC, j, i, k)];
                lhs[g.lhs(0, 1, CC, j, i, k)] = lhs[g.lhs(0, 1, CC, j, i, k)] - coeff * lhs[g.lhs(4, 1, CC, j, i, k)];
                lhs[g.lhs(0, 2, CC, j, i, k)] = lhs[g.lhs(0, 2, CC, j, i, k)] - coeff * lhs[g.lhs(4, 2, CC, j, i, k)];
                lhs[g.lhs(0, 3, CC, j, i, k)] = lhs[g.lhs(0, 3, CC, j, i, k)] - coeff * lhs[g.lhs(4, 3, CC, j, i, k)];
                lhs[g.lhs(0, 4, CC, j, i, k)] = lhs[g.lhs(0, 4, CC, j, i, k)] - coeff * lhs[g.lhs(4, 4, CC, j, i, k)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
                let coeff = lhs[g.lhs(1, 4, BB, j, i, k)];
                lhs[g.lhs(1, 0, CC, j, i, k)] = lhs[g.lhs(1, 0, CC, j, i, k)] - coeff * lhs[g.lhs(4, 0, CC, j, i, k)];
                lhs[g.lhs(1, 1, CC, j, i, k)] = lhs[g.lhs(1, 1, CC, j, i, k)] - coeff * lhs[g.lhs(4, 1, CC, j, i, k)];
                lhs[g.lhs(1, 2, CC, j, i, k)] = lhs[g.lhs(1, 2, CC, j, i, k)] - coeff * lhs[g.lhs(4, 2, CC, j, i, k)];
                lhs[g.lhs(1, 3, CC, j, i, k)] = lhs[g.lhs(1, 3, CC, j, i, k)] - coeff * lhs[g.lhs(4, 3, CC, j, i, k)];
                lhs[g.lhs(1, 4, CC, j, i, k)] = lhs[g.lhs(1, 4, CC, j, i, k)] - coeff * lhs[g.lhs(4, 4, CC, j, i, k)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
                let coeff = lhs[g.lhs(2, 4, BB, j, i, k)];
                lhs[g.lhs(2, 0, CC, j, i, k)] = lhs[g.lhs(2, 0, CC, j, i, k)] - coeff * lhs[g.lhs(4, 0, CC, j, i, k)];
                lhs[g.lhs(2, 1, CC, j, i, k)] = lhs[g.lhs(2, 1, CC, j, i, k)] - coeff * lhs[g.lhs(4, 1, CC, j, i, k)];
                lhs[g.lhs(2, 2, CC, j, i, k)] = lhs[g.lhs(2, 2, CC, j, i, k)] - coeff * lhs[g.lhs(4, 2, CC, j, i, k)];
                lhs[g.lhs(2, 3, CC, j, i, k)] = lhs[g.lhs(2, 3, CC, j, i, k)] - coeff * lhs[g.lhs(4, 3, CC, j, i, k)];
                lhs[g.lhs(2, 4, CC, j, i, k)] = lhs[g.lhs(2, 4, CC, j, i, k)] - coeff * lhs[g.lhs(4, 4, CC, j, i, k)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
                let coeff = lhs[g.lhs(3, 4, BB, j, i, k)];
                lhs[g.lhs(3, 0, CC, j, i, k)] = lhs[g.lhs(3, 0, CC, j, i, k)] - coeff * lhs[g.lhs(4, 0, CC, j, i, k)];
                lhs[g.lhs(3, 1, CC, j, i, k)] = lhs[g.lhs(3, 1, CC, j, i, k)] - coeff * lhs[g.lhs(4, 1, CC, j, i, k)];
                lhs[g.lhs(3, 2, CC, j, i, k)] = lhs[g.lhs(3, 2, CC, j, i, k)] - coeff * lhs[g.lhs(4, 2, CC, j, i, k)];
                lhs[g.lhs(3, 3, CC, j, i, k)] = lhs[g.lhs(3, 3, CC, j, i, k)] - coeff * lhs[g.lhs(4, 3, CC, j, i, k)];
                lhs[g.lhs(3, 4, CC, j, i, k)] = lhs[g.lhs(3, 4, CC, j, i, k)] - coeff * lhs[g.lhs(4, 4, CC, j, i, k)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
            }
        }
    }
}

/// The eta elimination's last row: `rhs -= AA rhs` of the row before.
#[acc::parallel(num_gangs(g.gp22), num_workers(4), vector_length(32))]
fn y_solve_last_matvec(rhs: &mut [f64], lhs: &[f64], g: Grid) {
    let Grid { gp02, gp22, j_size, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp02 {
            rhs[g.at(0, k, j_size, i)] = rhs[g.at(0, k, j_size, i)]
                - lhs[g.lhs(0, 0, AA, j_size, i, k)] * rhs[g.at(0, k, j_size - 1, i)]
                - lhs[g.lhs(0, 1, AA, j_size, i, k)] * rhs[g.at(1, k, j_size - 1, i)]
                - lhs[g.lhs(0, 2, AA, j_size, i, k)] * rhs[g.at(2, k, j_size - 1, i)]
                - lhs[g.lhs(0, 3, AA, j_size, i, k)] * rhs[g.at(3, k, j_size - 1, i)]
                - lhs[g.lhs(0, 4, AA, j_size, i, k)] * rhs[g.at(4, k, j_size - 1, i)];
            rhs[g.at(1, k, j_size, i)] = rhs[g.at(1, k, j_size, i)]
                - lhs[g.lhs(1, 0, AA, j_size, i, k)] * rhs[g.at(0, k, j_size - 1, i)]
                - lhs[g.lhs(1, 1, AA, j_size, i, k)] * rhs[g.at(1, k, j_size - 1, i)]
                - lhs[g.lhs(1, 2, AA, j_size, i, k)] * rhs[g.at(2, k, j_size - 1, i)]
                - lhs[g.lhs(1, 3, AA, j_size, i, k)] * rhs[g.at(3, k, j_size - 1, i)]
                - lhs[g.lhs(1, 4, AA, j_size, i, k)] * rhs[g.at(4, k, j_size - 1, i)];
            rhs[g.at(2, k, j_size, i)] = rhs[g.at(2, k, j_size, i)]
                - lhs[g.lhs(2, 0, AA, j_size, i, k)] * rhs[g.at(0, k, j_size - 1, i)]
                - lhs[g.lhs(2, 1, AA, j_size, i, k)] * rhs[g.at(1, k, j_size - 1, i)]
                - lhs[g.lhs(2, 2, AA, j_size, i, k)] * rhs[g.at(2, k, j_size - 1, i)]
                - lhs[g.lhs(2, 3, AA, j_size, i, k)] * rhs[g.at(3, k, j_size - 1, i)]
                - lhs[g.lhs(2, 4, AA, j_size, i, k)] * rhs[g.at(4, k, j_size - 1, i)];
            rhs[g.at(3, k, j_size, i)] = rhs[g.at(3, k, j_size, i)]
                - lhs[g.lhs(3, 0, AA, j_size, i, k)] * rhs[g.at(0, k, j_size - 1, i)]
                - lhs[g.lhs(3, 1, AA, j_size, i, k)] * rhs[g.at(1, k, j_size - 1, i)]
                - lhs[g.lhs(3, 2, AA, j_size, i, k)] * rhs[g.at(2, k, j_size - 1, i)]
                - lhs[g.lhs(3, 3, AA, j_size, i, k)] * rhs[g.at(3, k, j_size - 1, i)]
                - lhs[g.lhs(3, 4, AA, j_size, i, k)] * rhs[g.at(4, k, j_size - 1, i)];
            rhs[g.at(4, k, j_size, i)] = rhs[g.at(4, k, j_size, i)]
                - lhs[g.lhs(4, 0, AA, j_size, i, k)] * rhs[g.at(0, k, j_size - 1, i)]
                - lhs[g.lhs(4, 1, AA, j_size, i, k)] * rhs[g.at(1, k, j_size - 1, i)]
                - lhs[g.lhs(4, 2, AA, j_size, i, k)] * rhs[g.at(2, k, j_size - 1, i)]
                - lhs[g.lhs(4, 3, AA, j_size, i, k)] * rhs[g.at(3, k, j_size - 1, i)]
                - lhs[g.lhs(4, 4, AA, j_size, i, k)] * rhs[g.at(4, k, j_size - 1, i)];
        }
    }
}

/// The eta elimination's last row: `BB -= AA CC` of the row before.
#[acc::parallel(num_gangs(g.gp02), num_workers(4), vector_length(32))]
fn y_solve_last_matmul(lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp22, j_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            lhs[g.lhs(0, 0, BB, j_size, i, k)] = lhs[g.lhs(0, 0, BB, j_size, i, k)]
                - lhs[g.lhs(0, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 0, CC, j_size - 1, i, k)];
            lhs[g.lhs(1, 0, BB, j_size, i, k)] = lhs[g.lhs(1, 0, BB, j_size, i, k)]
                - lhs[g.lhs(1, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 0, CC, j_size - 1, i, k)];
            lhs[g.lhs(2, 0, BB, j_size, i, k)] = lhs[g.lhs(2, 0, BB, j_size, i, k)]
                - lhs[g.lhs(2, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 0, CC, j_size - 1, i, k)];
            lhs[g.lhs(3, 0, BB, j_size, i, k)] = lhs[g.lhs(3, 0, BB, j_size, i, k)]
                - lhs[g.lhs(3, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 0, CC, j_size - 1, i, k)];
            lhs[g.lhs(4, 0, BB, j_size, i, k)] = lhs[g.lhs(4, 0, BB, j_size, i, k)]
                - lhs[g.lhs(4, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 0, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 0, CC, j_size - 1, i, k)];
            lhs[g.lhs(0, 1, BB, j_size, i, k)] = lhs[g.lhs(0, 1, BB, j_size, i, k)]
                - lhs[g.lhs(0, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 1, CC, j_size - 1, i, k)];
            lhs[g.lhs(1, 1, BB, j_size, i, k)] = lhs[g.lhs(1, 1, BB, j_size, i, k)]
                - lhs[g.lhs(1, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 1, CC, j_size - 1, i, k)];
            lhs[g.lhs(2, 1, BB, j_size, i, k)] = lhs[g.lhs(2, 1, BB, j_size, i, k)]
                - lhs[g.lhs(2, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 1, CC, j_size - 1, i, k)];
            lhs[g.lhs(3, 1, BB, j_size, i, k)] = lhs[g.lhs(3, 1, BB, j_size, i, k)]
                - lhs[g.lhs(3, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 1, CC, j_size - 1, i, k)];
            lhs[g.lhs(4, 1, BB, j_size, i, k)] = lhs[g.lhs(4, 1, BB, j_size, i, k)]
                - lhs[g.lhs(4, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 1, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 1, CC, j_size - 1, i, k)];
            lhs[g.lhs(0, 2, BB, j_size, i, k)] = lhs[g.lhs(0, 2, BB, j_size, i, k)]
                - lhs[g.lhs(0, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 2, CC, j_size - 1, i, k)];
            lhs[g.lhs(1, 2, BB, j_size, i, k)] = lhs[g.lhs(1, 2, BB, j_size, i, k)]
                - lhs[g.lhs(1, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 2, CC, j_size - 1, i, k)];
            lhs[g.lhs(2, 2, BB, j_size, i, k)] = lhs[g.lhs(2, 2, BB, j_size, i, k)]
                - lhs[g.lhs(2, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 2, CC, j_size - 1, i, k)];
            lhs[g.lhs(3, 2, BB, j_size, i, k)] = lhs[g.lhs(3, 2, BB, j_size, i, k)]
                - lhs[g.lhs(3, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 2, CC, j_size - 1, i, k)];
            lhs[g.lhs(4, 2, BB, j_size, i, k)] = lhs[g.lhs(4, 2, BB, j_size, i, k)]
                - lhs[g.lhs(4, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 2, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 2, CC, j_size - 1, i, k)];
            lhs[g.lhs(0, 3, BB, j_size, i, k)] = lhs[g.lhs(0, 3, BB, j_size, i, k)]
                - lhs[g.lhs(0, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 3, CC, j_size - 1, i, k)];
            lhs[g.lhs(1, 3, BB, j_size, i, k)] = lhs[g.lhs(1, 3, BB, j_size, i, k)]
                - lhs[g.lhs(1, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 3, CC, j_size - 1, i, k)];
            lhs[g.lhs(2, 3, BB, j_size, i, k)] = lhs[g.lhs(2, 3, BB, j_size, i, k)]
                - lhs[g.lhs(2, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 3, CC, j_size - 1, i, k)];
            lhs[g.lhs(3, 3, BB, j_size, i, k)] = lhs[g.lhs(3, 3, BB, j_size, i, k)]
                - lhs[g.lhs(3, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 3, CC, j_size - 1, i, k)];
            lhs[g.lhs(4, 3, BB, j_size, i, k)] = lhs[g.lhs(4, 3, BB, j_size, i, k)]
                - lhs[g.lhs(4, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 3, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 3, CC, j_size - 1, i, k)];
            lhs[g.lhs(0, 4, BB, j_size, i, k)] = lhs[g.lhs(0, 4, BB, j_size, i, k)]
                - lhs[g.lhs(0, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(0, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 4, CC, j_size - 1, i, k)];
            lhs[g.lhs(1, 4, BB, j_size, i, k)] = lhs[g.lhs(1, 4, BB, j_size, i, k)]
                - lhs[g.lhs(1, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(1, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 4, CC, j_size - 1, i, k)];
            lhs[g.lhs(2, 4, BB, j_size, i, k)] = lhs[g.lhs(2, 4, BB, j_size, i, k)]
                - lhs[g.lhs(2, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(2, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 4, CC, j_size - 1, i, k)];
            lhs[g.lhs(3, 4, BB, j_size, i, k)] = lhs[g.lhs(3, 4, BB, j_size, i, k)]
                - lhs[g.lhs(3, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(3, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 4, CC, j_size - 1, i, k)];
            lhs[g.lhs(4, 4, BB, j_size, i, k)] = lhs[g.lhs(4, 4, BB, j_size, i, k)]
                - lhs[g.lhs(4, 0, AA, j_size, i, k)] * lhs[g.lhs(0, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 1, AA, j_size, i, k)] * lhs[g.lhs(1, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 2, AA, j_size, i, k)] * lhs[g.lhs(2, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 3, AA, j_size, i, k)] * lhs[g.lhs(3, 4, CC, j_size - 1, i, k)]
                - lhs[g.lhs(4, 4, AA, j_size, i, k)] * lhs[g.lhs(4, 4, CC, j_size - 1, i, k)];
        }
    }
}

/// The eta elimination's last row: `binvrhs` of its diagonal block.
#[acc::parallel(num_gangs(g.gp02), num_workers(4), vector_length(32))]
fn y_solve_last_binvrhs(rhs: &mut [f64], lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp22, j_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for k in 1..=gp22 {
            let pivot = 1.00 / lhs[g.lhs(0, 0, BB, j_size, i, k)];
            lhs[g.lhs(0, 1, BB, j_size, i, k)] = lhs[g.lhs(0, 1, BB, j_size, i, k)] * pivot;
            lhs[g.lhs(0, 2, BB, j_size, i, k)] = lhs[g.lhs(0, 2, BB, j_size, i, k)] * pivot;
            lhs[g.lhs(0, 3, BB, j_size, i, k)] = lhs[g.lhs(0, 3, BB, j_size, i, k)] * pivot;
            lhs[g.lhs(0, 4, BB, j_size, i, k)] = lhs[g.lhs(0, 4, BB, j_size, i, k)] * pivot;
            rhs[g.at(0, k, j_size, i)] = rhs[g.at(0, k, j_size, i)] * pivot;
            let coeff = lhs[g.lhs(1, 0, BB, j_size, i, k)];
            lhs[g.lhs(1, 1, BB, j_size, i, k)] = lhs[g.lhs(1, 1, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 1, BB, j_size, i, k)];
            lhs[g.lhs(1, 2, BB, j_size, i, k)] = lhs[g.lhs(1, 2, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 2, BB, j_size, i, k)];
            lhs[g.lhs(1, 3, BB, j_size, i, k)] = lhs[g.lhs(1, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 3, BB, j_size, i, k)];
            lhs[g.lhs(1, 4, BB, j_size, i, k)] = lhs[g.lhs(1, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 4, BB, j_size, i, k)];
            rhs[g.at(1, k, j_size, i)] = rhs[g.at(1, k, j_size, i)] - coeff * rhs[g.at(0, k, j_size, i)];
            let coeff = lhs[g.lhs(2, 0, BB, j_size, i, k)];
            lhs[g.lhs(2, 1, BB, j_size, i, k)] = lhs[g.lhs(2, 1, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 1, BB, j_size, i, k)];
            lhs[g.lhs(2, 2, BB, j_size, i, k)] = lhs[g.lhs(2, 2, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 2, BB, j_size, i, k)];
            lhs[g.lhs(2, 3, BB, j_size, i, k)] = lhs[g.lhs(2, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 3, BB, j_size, i, k)];
            lhs[g.lhs(2, 4, BB, j_size, i, k)] = lhs[g.lhs(2, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 4, BB, j_size, i, k)];
            rhs[g.at(2, k, j_size, i)] = rhs[g.at(2, k, j_size, i)] - coeff * rhs[g.at(0, k, j_size, i)];
            let coeff = lhs[g.lhs(3, 0, BB, j_size, i, k)];
            lhs[g.lhs(3, 1, BB, j_size, i, k)] = lhs[g.lhs(3, 1, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 1, BB, j_size, i, k)];
            lhs[g.lhs(3, 2, BB, j_size, i, k)] = lhs[g.lhs(3, 2, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 2, BB, j_size, i, k)];
            lhs[g.lhs(3, 3, BB, j_size, i, k)] = lhs[g.lhs(3, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 3, BB, j_size, i, k)];
            lhs[g.lhs(3, 4, BB, j_size, i, k)] = lhs[g.lhs(3, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 4, BB, j_size, i, k)];
            rhs[g.at(3, k, j_size, i)] = rhs[g.at(3, k, j_size, i)] - coeff * rhs[g.at(0, k, j_size, i)];
            let coeff = lhs[g.lhs(4, 0, BB, j_size, i, k)];
            lhs[g.lhs(4, 1, BB, j_size, i, k)] = lhs[g.lhs(4, 1, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 1, BB, j_size, i, k)];
            lhs[g.lhs(4, 2, BB, j_size, i, k)] = lhs[g.lhs(4, 2, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 2, BB, j_size, i, k)];
            lhs[g.lhs(4, 3, BB, j_size, i, k)] = lhs[g.lhs(4, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 3, BB, j_size, i, k)];
            lhs[g.lhs(4, 4, BB, j_size, i, k)] = lhs[g.lhs(4, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(0, 4, BB, j_size, i, k)];
            rhs[g.at(4, k, j_size, i)] = rhs[g.at(4, k, j_size, i)] - coeff * rhs[g.at(0, k, j_size, i)];
            let pivot = 1.00 / lhs[g.lhs(1, 1, BB, j_size, i, k)];
            lhs[g.lhs(1, 2, BB, j_size, i, k)] = lhs[g.lhs(1, 2, BB, j_size, i, k)] * pivot;
            lhs[g.lhs(1, 3, BB, j_size, i, k)] = lhs[g.lhs(1, 3, BB, j_size, i, k)] * pivot;
            lhs[g.lhs(1, 4, BB, j_size, i, k)] = lhs[g.lhs(1, 4, BB, j_size, i, k)] * pivot;
            rhs[g.at(1, k, j_size, i)] = rhs[g.at(1, k, j_size, i)] * pivot;
            let coeff = lhs[g.lhs(0, 1, BB, j_size, i, k)];
            lhs[g.lhs(0, 2, BB, j_size, i, k)] = lhs[g.lhs(0, 2, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 2, BB, j_size, i, k)];
            lhs[g.lhs(0, 3, BB, j_size, i, k)] = lhs[g.lhs(0, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 3, BB, j_size, i, k)];
            lhs[g.lhs(0, 4, BB, j_size, i, k)] = lhs[g.lhs(0, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 4, BB, j_size, i, k)];
            rhs[g.at(0, k, j_size, i)] = rhs[g.at(0, k, j_size, i)] - coeff * rhs[g.at(1, k, j_size, i)];
            let coeff = lhs[g.lhs(2, 1, BB, j_size, i, k)];
            lhs[g.lhs(2, 2, BB, j_size, i, k)] = lhs[g.lhs(2, 2, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 2, BB, j_size, i, k)];
            lhs[g.lhs(2, 3, BB, j_size, i, k)] = lhs[g.lhs(2, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 3, BB, j_size, i, k)];
            lhs[g.lhs(2, 4, BB, j_size, i, k)] = lhs[g.lhs(2, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 4, BB, j_size, i, k)];
            rhs[g.at(2, k, j_size, i)] = rhs[g.at(2, k, j_size, i)] - coeff * rhs[g.at(1, k, j_size, i)];
            let coeff = lhs[g.lhs(3, 1, BB, j_size, i, k)];
            lhs[g.lhs(3, 2, BB, j_size, i, k)] = lhs[g.lhs(3, 2, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 2, BB, j_size, i, k)];
            lhs[g.lhs(3, 3, BB, j_size, i, k)] = lhs[g.lhs(3, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 3, BB, j_size, i, k)];
            lhs[g.lhs(3, 4, BB, j_size, i, k)] = lhs[g.lhs(3, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 4, BB, j_size, i, k)];
            rhs[g.at(3, k, j_size, i)] = rhs[g.at(3, k, j_size, i)] - coeff * rhs[g.at(1, k, j_size, i)];
            let coeff = lhs[g.lhs(4, 1, BB, j_size, i, k)];
            lhs[g.lhs(4, 2, BB, j_size, i, k)] = lhs[g.lhs(4, 2, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 2, BB, j_size, i, k)];
            lhs[g.lhs(4, 3, BB, j_size, i, k)] = lhs[g.lhs(4, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 3, BB, j_size, i, k)];
            lhs[g.lhs(4, 4, BB, j_size, i, k)] = lhs[g.lhs(4, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(1, 4, BB, j_size, i, k)];
            rhs[g.at(4, k, j_size, i)] = rhs[g.at(4, k, j_size, i)] - coeff * rhs[g.at(1, k, j_size, i)];
            let pivot = 1.00 / lhs[g.lhs(2, 2, BB, j_size, i, k)];
            lhs[g.lhs(2, 3, BB, j_size, i, k)] = lhs[g.lhs(2, 3, BB, j_size, i, k)] * pivot;
            lhs[g.lhs(2, 4, BB, j_size, i, k)] = lhs[g.lhs(2, 4, BB, j_size, i, k)] * pivot;
            rhs[g.at(2, k, j_size, i)] = rhs[g.at(2, k, j_size, i)] * pivot;
            let coeff = lhs[g.lhs(0, 2, BB, j_size, i, k)];
            lhs[g.lhs(0, 3, BB, j_size, i, k)] = lhs[g.lhs(0, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(2, 3, BB, j_size, i, k)];
            lhs[g.lhs(0, 4, BB, j_size, i, k)] = lhs[g.lhs(0, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(2, 4, BB, j_size, i, k)];
            rhs[g.at(0, k, j_size, i)] = rhs[g.at(0, k, j_size, i)] - coeff * rhs[g.at(2, k, j_size, i)];
            let coeff = lhs[g.lhs(1, 2, BB, j_size, i, k)];
            lhs[g.lhs(1, 3, BB, j_size, i, k)] = lhs[g.lhs(1, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(2, 3, BB, j_size, i, k)];
            lhs[g.lhs(1, 4, BB, j_size, i, k)] = lhs[g.lhs(1, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(2, 4, BB, j_size, i, k)];
            rhs[g.at(1, k, j_size, i)] = rhs[g.at(1, k, j_size, i)] - coeff * rhs[g.at(2, k, j_size, i)];
            let coeff = lhs[g.lhs(3, 2, BB, j_size, i, k)];
            lhs[g.lhs(3, 3, BB, j_size, i, k)] = lhs[g.lhs(3, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(2, 3, BB, j_size, i, k)];
            lhs[g.lhs(3, 4, BB, j_size, i, k)] = lhs[g.lhs(3, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(2, 4, BB, j_size, i, k)];
            rhs[g.at(3, k, j_size, i)] = rhs[g.at(3, k, j_size, i)] - coeff * rhs[g.at(2, k, j_size, i)];
            let coeff = lhs[g.lhs(4, 2, BB, j_size, i, k)];
            lhs[g.lhs(4, 3, BB, j_size, i, k)] = lhs[g.lhs(4, 3, BB, j_size, i, k)] - coeff * lhs[g.lhs(2, 3, BB, j_size, i, k)];
            lhs[g.lhs(4, 4, BB, j_size, i, k)] = lhs[g.lhs(4, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(2, 4, BB, j_size, i, k)];
            rhs[g.at(4, k, j_size, i)] = rhs[g.at(4, k, j_size, i)] - coeff * rhs[g.at(2, k, j_size, i)];
            let pivot = 1.00 / lhs[g.lhs(3, 3, BB, j_size, i, k)];
            lhs[g.lhs(3, 4, BB, j_size, i, k)] = lhs[g.lhs(3, 4, BB, j_size, i, k)] * pivot;
            rhs[g.at(3, k, j_size, i)] = rhs[g.at(3, k, j_size, i)] * pivot;
            let coeff = lhs[g.lhs(0, 3, BB, j_size, i, k)];
            lhs[g.lhs(0, 4, BB, j_size, i, k)] = lhs[g.lhs(0, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(3, 4, BB, j_size, i, k)];
            rhs[g.at(0, k, j_size, i)] = rhs[g.at(0, k, j_size, i)] - coeff * rhs[g.at(3, k, j_size, i)];
            let coeff = lhs[g.lhs(1, 3, BB, j_size, i, k)];
            lhs[g.lhs(1, 4, BB, j_size, i, k)] = lhs[g.lhs(1, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(3, 4, BB, j_size, i, k)];
            rhs[g.at(1, k, j_size, i)] = rhs[g.at(1, k, j_size, i)] - coeff * rhs[g.at(3, k, j_size, i)];
            let coeff = lhs[g.lhs(2, 3, BB, j_size, i, k)];
            lhs[g.lhs(2, 4, BB, j_size, i, k)] = lhs[g.lhs(2, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(3, 4, BB, j_size, i, k)];
            rhs[g.at(2, k, j_size, i)] = rhs[g.at(2, k, j_size, i)] - coeff * rhs[g.at(3, k, j_size, i)];
            let coeff = lhs[g.lhs(4, 3, BB, j_size, i, k)];
            lhs[g.lhs(4, 4, BB, j_size, i, k)] = lhs[g.lhs(4, 4, BB, j_size, i, k)] - coeff * lhs[g.lhs(3, 4, BB, j_size, i, k)];
            rhs[g.at(4, k, j_size, i)] = rhs[g.at(4, k, j_size, i)] - coeff * rhs[g.at(3, k, j_size, i)];
            let pivot = 1.00 / lhs[g.lhs(4, 4, BB, j_size, i, k)];
            rhs[g.at(4, k, j_size, i)] = rhs[g.at(4, k, j_size, i)] * pivot;
            let coeff = lhs[g.lhs(0, 4, BB, j_size, i, k)];
            rhs[g.at(0, k, j_size, i)] = rhs[g.at(0, k, j_size, i)] - coeff * rhs[g.at(4, k, j_size, i)];
            let coeff = lhs[g.lhs(1, 4, BB, j_size, i, k)];
            rhs[g.at(1, k, j_size, i)] = rhs[g.at(1, k, j_size, i)] - coeff * rhs[g.at(4, k, j_size, i)];
            let coeff = lhs[g.lhs(2, 4, BB, j_size, i, k)];
            rhs[g.at(2, k, j_size, i)] = rhs[g.at(2, k, j_size, i)] - coeff * rhs[g.at(4, k, j_size, i)];
            let coeff = lhs[g.lhs(3, 4, BB, j_size, i, k)];
            rhs[g.at(3, k, j_size, i)] = rhs[g.at(3, k, j_size, i)] - coeff * rhs[g.at(4, k, j_size, i)];
        }
    }
}

/// The eta back substitution at `j`: `rhs -= CC rhs` of the next row.
#[acc::parallel(num_gangs(g.gp22), num_workers(4), vector_length(32))]
fn y_solve_back(rhs: &mut [f64], lhs: &[f64], g: Grid, j: usize) {
    let Grid { gp02, gp22, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp02 {
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 0, CC, j, i, k)] * rhs[g.at(0, k, j + 1, i)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 1, CC, j, i, k)] * rhs[g.at(1, k, j + 1, i)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 2, CC, j, i, k)] * rhs[g.at(2, k, j + 1, i)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 3, CC, j, i, k)] * rhs[g.at(3, k, j + 1, i)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 4, CC, j, i, k)] * rhs[g.at(4, k, j + 1, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 0, CC, j, i, k)] * rhs[g.at(0, k, j + 1, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 1, CC, j, i, k)] * rhs[g.at(1, k, j + 1, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 2, CC, j, i, k)] * rhs[g.at(2, k, j + 1, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 3, CC, j, i, k)] * rhs[g.at(3, k, j + 1, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 4, CC, j, i, k)] * rhs[g.at(4, k, j + 1, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 0, CC, j, i, k)] * rhs[g.at(0, k, j + 1, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 1, CC, j, i, k)] * rhs[g.at(1, k, j + 1, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 2, CC, j, i, k)] * rhs[g.at(2, k, j + 1, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 3, CC, j, i, k)] * rhs[g.at(3, k, j + 1, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 4, CC, j, i, k)] * rhs[g.at(4, k, j + 1, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 0, CC, j, i, k)] * rhs[g.at(0, k, j + 1, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 1, CC, j, i, k)] * rhs[g.at(1, k, j + 1, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 2, CC, j, i, k)] * rhs[g.at(2, k, j + 1, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 3, CC, j, i, k)] * rhs[g.at(3, k, j + 1, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 4, CC, j, i, k)] * rhs[g.at(4, k, j + 1, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 0, CC, j, i, k)] * rhs[g.at(0, k, j + 1, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 1, CC, j, i, k)] * rhs[g.at(1, k, j + 1, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 2, CC, j, i, k)] * rhs[g.at(2, k, j + 1, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 3, CC, j, i, k)] * rhs[g.at(3, k, j + 1, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 4, CC, j, i, k)] * rhs[g.at(4, k, j + 1, i)];
        }
    }
}

/// The zeta fluxes' Jacobians `fjac` and the viscous ones `njac` along each line.
#[acc::parallel(num_gangs(g.k_size+1), num_workers(4), vector_length(32))]
fn z_solve_jacobians(u: &[f64], qs: &[f64], square: &[f64], fjac: &mut [f64], njac: &mut [f64], g: Grid, cs: Consts) {
    let Grid { gp02, gp12, k_size, .. } = g;
    #[acc::r#loop(gang)]
    for k in 0..=k_size {
        #[acc::r#loop(worker)]
        for i in 1..=gp02 {
            #[acc::r#loop(vector)]
            for j in 1..=gp12 {
                let temp1 = 1.0 / u[g.at(0, k, j, i)];
                let temp2 = temp1 * temp1;
                let temp3 = temp1 * temp2;
                fjac[g.jac(0, 0, k, i, j)] = 0.0;
                fjac[g.jac(0, 1, k, i, j)] = 0.0;
                fjac[g.jac(0, 2, k, i, j)] = 0.0;
                fjac[g.jac(0, 3, k, i, j)] = 1.0;
                fjac[g.jac(0, 4, k, i, j)] = 0.0;
                fjac[g.jac(1, 0, k, i, j)] = -(u[g.at(1, k, j, i)] * u[g.at(3, k, j, i)]) * temp2;
                fjac[g.jac(1, 1, k, i, j)] = u[g.at(3, k, j, i)] * temp1;
                fjac[g.jac(1, 2, k, i, j)] = 0.0;
                fjac[g.jac(1, 3, k, i, j)] = u[g.at(1, k, j, i)] * temp1;
                fjac[g.jac(1, 4, k, i, j)] = 0.0;
                fjac[g.jac(2, 0, k, i, j)] = -(u[g.at(2, k, j, i)] * u[g.at(3, k, j, i)]) * temp2;
                fjac[g.jac(2, 1, k, i, j)] = 0.0;
                fjac[g.jac(2, 2, k, i, j)] = u[g.at(3, k, j, i)] * temp1;
                fjac[g.jac(2, 3, k, i, j)] = u[g.at(2, k, j, i)] * temp1;
                fjac[g.jac(2, 4, k, i, j)] = 0.0;
                fjac[g.jac(3, 0, k, i, j)] = -(u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)] * temp2) + cs.c2 * qs[g.at3(k, j, i)];
                fjac[g.jac(3, 1, k, i, j)] = -cs.c2 * u[g.at(1, k, j, i)] * temp1;
                fjac[g.jac(3, 2, k, i, j)] = -cs.c2 * u[g.at(2, k, j, i)] * temp1;
                fjac[g.jac(3, 3, k, i, j)] = (2.0 - cs.c2) * u[g.at(3, k, j, i)] * temp1;
                fjac[g.jac(3, 4, k, i, j)] = cs.c2;
                fjac[g.jac(4, 0, k, i, j)] = (cs.c2 * 2.0 * square[g.at3(k, j, i)] - cs.c1 * u[g.at(4, k, j, i)]) * u[g.at(3, k, j, i)] * temp2;
                fjac[g.jac(4, 1, k, i, j)] = -cs.c2 * (u[g.at(1, k, j, i)] * u[g.at(3, k, j, i)]) * temp2;
                fjac[g.jac(4, 2, k, i, j)] = -cs.c2 * (u[g.at(2, k, j, i)] * u[g.at(3, k, j, i)]) * temp2;
                fjac[g.jac(4, 3, k, i, j)] =
                    cs.c1 * (u[g.at(4, k, j, i)] * temp1) - cs.c2 * (qs[g.at3(k, j, i)] + u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)] * temp2);
                fjac[g.jac(4, 4, k, i, j)] = cs.c1 * u[g.at(3, k, j, i)] * temp1;
                njac[g.jac(0, 0, k, i, j)] = 0.0;
                njac[g.jac(0, 1, k, i, j)] = 0.0;
                njac[g.jac(0, 2, k, i, j)] = 0.0;
                njac[g.jac(0, 3, k, i, j)] = 0.0;
                njac[g.jac(0, 4, k, i, j)] = 0.0;
                njac[g.jac(1, 0, k, i, j)] = -cs.c3c4 * temp2 * u[g.at(1, k, j, i)];
                njac[g.jac(1, 1, k, i, j)] = cs.c3c4 * temp1;
                njac[g.jac(1, 2, k, i, j)] = 0.0;
                njac[g.jac(1, 3, k, i, j)] = 0.0;
                njac[g.jac(1, 4, k, i, j)] = 0.0;
                njac[g.jac(2, 0, k, i, j)] = -cs.c3c4 * temp2 * u[g.at(2, k, j, i)];
                njac[g.jac(2, 1, k, i, j)] = 0.0;
                njac[g.jac(2, 2, k, i, j)] = cs.c3c4 * temp1;
                njac[g.jac(2, 3, k, i, j)] = 0.0;
                njac[g.jac(2, 4, k, i, j)] = 0.0;
                njac[g.jac(3, 0, k, i, j)] = -cs.con43 * cs.c3c4 * temp2 * u[g.at(3, k, j, i)];
                njac[g.jac(3, 1, k, i, j)] = 0.0;
                njac[g.jac(3, 2, k, i, j)] = 0.0;
                njac[g.jac(3, 3, k, i, j)] = cs.con43 * cs.c3 * cs.c4 * temp1;
                njac[g.jac(3, 4, k, i, j)] = 0.0;
                njac[g.jac(4, 0, k, i, j)] = -(cs.c3c4 - cs.c1345) * temp3 * (u[g.at(1, k, j, i)] * u[g.at(1, k, j, i)])
                    - (cs.c3c4 - cs.c1345) * temp3 * (u[g.at(2, k, j, i)] * u[g.at(2, k, j, i)])
                    - (cs.con43 * cs.c3c4 - cs.c1345) * temp3 * (u[g.at(3, k, j, i)] * u[g.at(3, k, j, i)])
                    - cs.c1345 * temp2 * u[g.at(4, k, j, i)];
                njac[g.jac(4, 1, k, i, j)] = (cs.c3c4 - cs.c1345) * temp2 * u[g.at(1, k, j, i)];
                njac[g.jac(4, 2, k, i, j)] = (cs.c3c4 - cs.c1345) * temp2 * u[g.at(2, k, j, i)];
                njac[g.jac(4, 3, k, i, j)] = (cs.con43 * cs.c3c4 - cs.c1345) * temp2 * u[g.at(3, k, j, i)];
                njac[g.jac(4, 4, k, i, j)] = (cs.c1345) * temp1;
            }
        }
    }
}

/// The zeta systems' first and last block rows: the identity.
#[acc::parallel(num_gangs(g.gp02), num_workers(4), vector_length(32))]
fn z_solve_lhsinit(lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp12, k_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=gp12 {
            for n in 0..5 {
                for m in 0..5 {
                    lhs[g.lhs(m, n, 0, 0, i, j)] = 0.0;
                    lhs[g.lhs(m, n, 1, 0, i, j)] = 0.0;
                    lhs[g.lhs(m, n, 2, 0, i, j)] = 0.0;
                    lhs[g.lhs(m, n, 0, k_size, i, j)] = 0.0;
                    lhs[g.lhs(m, n, 1, k_size, i, j)] = 0.0;
                    lhs[g.lhs(m, n, 2, k_size, i, j)] = 0.0;
                }
            }
        }
    }
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=gp12 {
            lhs[g.lhs(0, 0, 1, 0, i, j)] = 1.0;
            lhs[g.lhs(0, 0, 1, k_size, i, j)] = 1.0;
            lhs[g.lhs(1, 1, 1, 0, i, j)] = 1.0;
            lhs[g.lhs(1, 1, 1, k_size, i, j)] = 1.0;
            lhs[g.lhs(2, 2, 1, 0, i, j)] = 1.0;
            lhs[g.lhs(2, 2, 1, k_size, i, j)] = 1.0;
            lhs[g.lhs(3, 3, 1, 0, i, j)] = 1.0;
            lhs[g.lhs(3, 3, 1, k_size, i, j)] = 1.0;
            lhs[g.lhs(4, 4, 1, 0, i, j)] = 1.0;
            lhs[g.lhs(4, 4, 1, k_size, i, j)] = 1.0;
        }
    }
}

/// The zeta block tri-diagonal systems `lhs` (blocks `AA`, `BB`, `CC`) from the Jacobians.
#[acc::parallel(num_gangs(g.k_size-1), num_workers(4), vector_length(32))]
fn z_solve_lhs(lhs: &mut [f64], fjac: &[f64], njac: &[f64], g: Grid, cs: Consts) {
    let Grid { gp02, gp12, k_size, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=k_size - 1 {
        #[acc::r#loop(worker)]
        for i in 1..=gp02 {
            #[acc::r#loop(vector)]
            for j in 1..=gp12 {
                let temp1 = cs.dt * cs.tz1;
                let temp2 = cs.dt * cs.tz2;
                lhs[g.lhs(0, 0, AA, k, i, j)] = -temp2 * fjac[g.jac(0, 0, k - 1, i, j)] - temp1 * njac[g.jac(0, 0, k - 1, i, j)] - temp1 * cs.dz1;
                lhs[g.lhs(0, 1, AA, k, i, j)] = -temp2 * fjac[g.jac(0, 1, k - 1, i, j)] - temp1 * njac[g.jac(0, 1, k - 1, i, j)];
                lhs[g.lhs(0, 2, AA, k, i, j)] = -temp2 * fjac[g.jac(0, 2, k - 1, i, j)] - temp1 * njac[g.jac(0, 2, k - 1, i, j)];
                lhs[g.lhs(0, 3, AA, k, i, j)] = -temp2 * fjac[g.jac(0, 3, k - 1, i, j)] - temp1 * njac[g.jac(0, 3, k - 1, i, j)];
                lhs[g.lhs(0, 4, AA, k, i, j)] = -temp2 * fjac[g.jac(0, 4, k - 1, i, j)] - temp1 * njac[g.jac(0, 4, k - 1, i, j)];
                lhs[g.lhs(1, 0, AA, k, i, j)] = -temp2 * fjac[g.jac(1, 0, k - 1, i, j)] - temp1 * njac[g.jac(1, 0, k - 1, i, j)];
                lhs[g.lhs(1, 1, AA, k, i, j)] = -temp2 * fjac[g.jac(1, 1, k - 1, i, j)] - temp1 * njac[g.jac(1, 1, k - 1, i, j)] - temp1 * cs.dz2;
                lhs[g.lhs(1, 2, AA, k, i, j)] = -temp2 * fjac[g.jac(1, 2, k - 1, i, j)] - temp1 * njac[g.jac(1, 2, k - 1, i, j)];
                lhs[g.lhs(1, 3, AA, k, i, j)] = -temp2 * fjac[g.jac(1, 3, k - 1, i, j)] - temp1 * njac[g.jac(1, 3, k - 1, i, j)];
                lhs[g.lhs(1, 4, AA, k, i, j)] = -temp2 * fjac[g.jac(1, 4, k - 1, i, j)] - temp1 * njac[g.jac(1, 4, k - 1, i, j)];
                lhs[g.lhs(2, 0, AA, k, i, j)] = -temp2 * fjac[g.jac(2, 0, k - 1, i, j)] - temp1 * njac[g.jac(2, 0, k - 1, i, j)];
                lhs[g.lhs(2, 1, AA, k, i, j)] = -temp2 * fjac[g.jac(2, 1, k - 1, i, j)] - temp1 * njac[g.jac(2, 1, k - 1, i, j)];
                lhs[g.lhs(2, 2, AA, k, i, j)] = -temp2 * fjac[g.jac(2, 2, k - 1, i, j)] - temp1 * njac[g.jac(2, 2, k - 1, i, j)] - temp1 * cs.dz3;
                lhs[g.lhs(2, 3, AA, k, i, j)] = -temp2 * fjac[g.jac(2, 3, k - 1, i, j)] - temp1 * njac[g.jac(2, 3, k - 1, i, j)];
                lhs[g.lhs(2, 4, AA, k, i, j)] = -temp2 * fjac[g.jac(2, 4, k - 1, i, j)] - temp1 * njac[g.jac(2, 4, k - 1, i, j)];
                lhs[g.lhs(3, 0, AA, k, i, j)] = -temp2 * fjac[g.jac(3, 0, k - 1, i, j)] - temp1 * njac[g.jac(3, 0, k - 1, i, j)];
                lhs[g.lhs(3, 1, AA, k, i, j)] = -temp2 * fjac[g.jac(3, 1, k - 1, i, j)] - temp1 * njac[g.jac(3, 1, k - 1, i, j)];
                lhs[g.lhs(3, 2, AA, k, i, j)] = -temp2 * fjac[g.jac(3, 2, k - 1, i, j)] - temp1 * njac[g.jac(3, 2, k - 1, i, j)];
                lhs[g.lhs(3, 3, AA, k, i, j)] = -temp2 * fjac[g.jac(3, 3, k - 1, i, j)] - temp1 * njac[g.jac(3, 3, k - 1, i, j)] - temp1 * cs.dz4;
                lhs[g.lhs(3, 4, AA, k, i, j)] = -temp2 * fjac[g.jac(3, 4, k - 1, i, j)] - temp1 * njac[g.jac(3, 4, k - 1, i, j)];
                lhs[g.lhs(4, 0, AA, k, i, j)] = -temp2 * fjac[g.jac(4, 0, k - 1, i, j)] - temp1 * njac[g.jac(4, 0, k - 1, i, j)];
                lhs[g.lhs(4, 1, AA, k, i, j)] = -temp2 * fjac[g.jac(4, 1, k - 1, i, j)] - temp1 * njac[g.jac(4, 1, k - 1, i, j)];
                lhs[g.lhs(4, 2, AA, k, i, j)] = -temp2 * fjac[g.jac(4, 2, k - 1, i, j)] - temp1 * njac[g.jac(4, 2, k - 1, i, j)];
                lhs[g.lhs(4, 3, AA, k, i, j)] = -temp2 * fjac[g.jac(4, 3, k - 1, i, j)] - temp1 * njac[g.jac(4, 3, k - 1, i, j)];
                lhs[g.lhs(4, 4, AA, k, i, j)] = -temp2 * fjac[g.jac(4, 4, k - 1, i, j)] - temp1 * njac[g.jac(4, 4, k - 1, i, j)] - temp1 * cs.dz5;
                lhs[g.lhs(0, 0, BB, k, i, j)] = 1.0 + temp1 * 2.0 * njac[g.jac(0, 0, k, i, j)] + temp1 * 2.0 * cs.dz1;
                lhs[g.lhs(0, 1, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(0, 1, k, i, j)];
                lhs[g.lhs(0, 2, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(0, 2, k, i, j)];
                lhs[g.lhs(0, 3, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(0, 3, k, i, j)];
                lhs[g.lhs(0, 4, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(0, 4, k, i, j)];
                lhs[g.lhs(1, 0, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(1, 0, k, i, j)];
                lhs[g.lhs(1, 1, BB, k, i, j)] = 1.0 + temp1 * 2.0 * njac[g.jac(1, 1, k, i, j)] + temp1 * 2.0 * cs.dz2;
                lhs[g.lhs(1, 2, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(1, 2, k, i, j)];
                lhs[g.lhs(1, 3, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(1, 3, k, i, j)];
                lhs[g.lhs(1, 4, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(1, 4, k, i, j)];
                lhs[g.lhs(2, 0, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(2, 0, k, i, j)];
                lhs[g.lhs(2, 1, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(2, 1, k, i, j)];
                lhs[g.lhs(2, 2, BB, k, i, j)] = 1.0 + temp1 * 2.0 * njac[g.jac(2, 2, k, i, j)] + temp1 * 2.0 * cs.dz3;
                lhs[g.lhs(2, 3, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(2, 3, k, i, j)];
                lhs[g.lhs(2, 4, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(2, 4, k, i, j)];
                lhs[g.lhs(3, 0, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(3, 0, k, i, j)];
                lhs[g.lhs(3, 1, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(3, 1, k, i, j)];
                lhs[g.lhs(3, 2, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(3, 2, k, i, j)];
                lhs[g.lhs(3, 3, BB, k, i, j)] = 1.0 + temp1 * 2.0 * njac[g.jac(3, 3, k, i, j)] + temp1 * 2.0 * cs.dz4;
                lhs[g.lhs(3, 4, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(3, 4, k, i, j)];
                lhs[g.lhs(4, 0, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(4, 0, k, i, j)];
                lhs[g.lhs(4, 1, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(4, 1, k, i, j)];
                lhs[g.lhs(4, 2, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(4, 2, k, i, j)];
                lhs[g.lhs(4, 3, BB, k, i, j)] = temp1 * 2.0 * njac[g.jac(4, 3, k, i, j)];
                lhs[g.lhs(4, 4, BB, k, i, j)] = 1.0 + temp1 * 2.0 * njac[g.jac(4, 4, k, i, j)] + temp1 * 2.0 * cs.dz5;
                lhs[g.lhs(0, 0, CC, k, i, j)] = temp2 * fjac[g.jac(0, 0, k + 1, i, j)] - temp1 * njac[g.jac(0, 0, k + 1, i, j)] - temp1 * cs.dz1;
                lhs[g.lhs(0, 1, CC, k, i, j)] = temp2 * fjac[g.jac(0, 1, k + 1, i, j)] - temp1 * njac[g.jac(0, 1, k + 1, i, j)];
                lhs[g.lhs(0, 2, CC, k, i, j)] = temp2 * fjac[g.jac(0, 2, k + 1, i, j)] - temp1 * njac[g.jac(0, 2, k + 1, i, j)];
                lhs[g.lhs(0, 3, CC, k, i, j)] = temp2 * fjac[g.jac(0, 3, k + 1, i, j)] - temp1 * njac[g.jac(0, 3, k + 1, i, j)];
                lhs[g.lhs(0, 4, CC, k, i, j)] = temp2 * fjac[g.jac(0, 4, k + 1, i, j)] - temp1 * njac[g.jac(0, 4, k + 1, i, j)];
                lhs[g.lhs(1, 0, CC, k, i, j)] = temp2 * fjac[g.jac(1, 0, k + 1, i, j)] - temp1 * njac[g.jac(1, 0, k + 1, i, j)];
                lhs[g.lhs(1, 1, CC, k, i, j)] = temp2 * fjac[g.jac(1, 1, k + 1, i, j)] - temp1 * njac[g.jac(1, 1, k + 1, i, j)] - temp1 * cs.dz2;
                lhs[g.lhs(1, 2, CC, k, i, j)] = temp2 * fjac[g.jac(1, 2, k + 1, i, j)] - temp1 * njac[g.jac(1, 2, k + 1, i, j)];
                lhs[g.lhs(1, 3, CC, k, i, j)] = temp2 * fjac[g.jac(1, 3, k + 1, i, j)] - temp1 * njac[g.jac(1, 3, k + 1, i, j)];
                lhs[g.lhs(1, 4, CC, k, i, j)] = temp2 * fjac[g.jac(1, 4, k + 1, i, j)] - temp1 * njac[g.jac(1, 4, k + 1, i, j)];
                lhs[g.lhs(2, 0, CC, k, i, j)] = temp2 * fjac[g.jac(2, 0, k + 1, i, j)] - temp1 * njac[g.jac(2, 0, k + 1, i, j)];
                lhs[g.lhs(2, 1, CC, k, i, j)] = temp2 * fjac[g.jac(2, 1, k + 1, i, j)] - temp1 * njac[g.jac(2, 1, k + 1, i, j)];
                lhs[g.lhs(2, 2, CC, k, i, j)] = temp2 * fjac[g.jac(2, 2, k + 1, i, j)] - temp1 * njac[g.jac(2, 2, k + 1, i, j)] - temp1 * cs.dz3;
                lhs[g.lhs(2, 3, CC, k, i, j)] = temp2 * fjac[g.jac(2, 3, k + 1, i, j)] - temp1 * njac[g.jac(2, 3, k + 1, i, j)];
                lhs[g.lhs(2, 4, CC, k, i, j)] = temp2 * fjac[g.jac(2, 4, k + 1, i, j)] - temp1 * njac[g.jac(2, 4, k + 1, i, j)];
                lhs[g.lhs(3, 0, CC, k, i, j)] = temp2 * fjac[g.jac(3, 0, k + 1, i, j)] - temp1 * njac[g.jac(3, 0, k + 1, i, j)];
                lhs[g.lhs(3, 1, CC, k, i, j)] = temp2 * fjac[g.jac(3, 1, k + 1, i, j)] - temp1 * njac[g.jac(3, 1, k + 1, i, j)];
                lhs[g.lhs(3, 2, CC, k, i, j)] = temp2 * fjac[g.jac(3, 2, k + 1, i, j)] - temp1 * njac[g.jac(3, 2, k + 1, i, j)];
                lhs[g.lhs(3, 3, CC, k, i, j)] = temp2 * fjac[g.jac(3, 3, k + 1, i, j)] - temp1 * njac[g.jac(3, 3, k + 1, i, j)] - temp1 * cs.dz4;
                lhs[g.lhs(3, 4, CC, k, i, j)] = temp2 * fjac[g.jac(3, 4, k + 1, i, j)] - temp1 * njac[g.jac(3, 4, k + 1, i, j)];
                lhs[g.lhs(4, 0, CC, k, i, j)] = temp2 * fjac[g.jac(4, 0, k + 1, i, j)] - temp1 * njac[g.jac(4, 0, k + 1, i, j)];
                lhs[g.lhs(4, 1, CC, k, i, j)] = temp2 * fjac[g.jac(4, 1, k + 1, i, j)] - temp1 * njac[g.jac(4, 1, k + 1, i, j)];
                lhs[g.lhs(4, 2, CC, k, i, j)] = temp2 * fjac[g.jac(4, 2, k + 1, i, j)] - temp1 * njac[g.jac(4, 2, k + 1, i, j)];
                lhs[g.lhs(4, 3, CC, k, i, j)] = temp2 * fjac[g.jac(4, 3, k + 1, i, j)] - temp1 * njac[g.jac(4, 3, k + 1, i, j)];
                lhs[g.lhs(4, 4, CC, k, i, j)] = temp2 * fjac[g.jac(4, 4, k + 1, i, j)] - temp1 * njac[g.jac(4, 4, k + 1, i, j)] - temp1 * cs.dz5;
            }
        }
    }
}

/// The zeta elimination's first row: `binvcrhs` of the diagonal block.
#[acc::parallel(num_gangs(g.gp02), num_workers(4), vector_length(32))]
fn z_solve_first(rhs: &mut [f64], lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp12, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=gp12 {
            let pivot = 1.00 / lhs[g.lhs(0, 0, BB, 0, i, j)];
            lhs[g.lhs(0, 1, BB, 0, i, j)] = lhs[g.lhs(0, 1, BB, 0, i, j)] * pivot;
            lhs[g.lhs(0, 2, BB, 0, i, j)] = lhs[g.lhs(0, 2, BB, 0, i, j)] * pivot;
            lhs[g.lhs(0, 3, BB, 0, i, j)] = lhs[g.lhs(0, 3, BB, 0, i, j)] * pivot;
            lhs[g.lhs(0, 4, BB, 0, i, j)] = lhs[g.lhs(0, 4, BB, 0, i, j)] * pivot;
            lhs[g.lhs(0, 0, CC, 0, i, j)] = lhs[g.lhs(0, 0, CC, 0, i, j)] * pivot;
            lhs[g.lhs(0, 1, CC, 0, i, j)] = lhs[g.lhs(0, 1, CC, 0, i, j)] * pivot;
            lhs[g.lhs(0, 2, CC, 0, i, j)] = lhs[g.lhs(0, 2, CC, 0, i, j)] * pivot;
            lhs[g.lhs(0, 3, CC, 0, i, j)] = lhs[g.lhs(0, 3, CC, 0, i, j)] * pivot;
            lhs[g.lhs(0, 4, CC, 0, i, j)] = lhs[g.lhs(0, 4, CC, 0, i, j)] * pivot;
            rhs[g.at(0, 0, j, i)] = rhs[g.at(0, 0, j, i)] * pivot;
            let coeff = lhs[g.lhs(1, 0, BB, 0, i, j)];
            lhs[g.lhs(1, 1, BB, 0, i, j)] = lhs[g.lhs(1, 1, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 1, BB, 0, i, j)];
            lhs[g.lhs(1, 2, BB, 0, i, j)] = lhs[g.lhs(1, 2, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 2, BB, 0, i, j)];
            lhs[g.lhs(1, 3, BB, 0, i, j)] = lhs[g.lhs(1, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 3, BB, 0, i, j)];
            lhs[g.lhs(1, 4, BB, 0, i, j)] = lhs[g.lhs(1, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 4, BB, 0, i, j)];
            lhs[g.lhs(1, 0, CC, 0, i, j)] = lhs[g.lhs(1, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 0, CC, 0, i, j)];
            lhs[g.lhs(1, 1, CC, 0, i, j)] = lhs[g.lhs(1, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 1, CC, 0, i, j)];
            lhs[g.lhs(1, 2, CC, 0, i, j)] = lhs[g.lhs(1, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 2, CC, 0, i, j)];
            lhs[g.lhs(1, 3, CC, 0, i, j)] = lhs[g.lhs(1, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 3, CC, 0, i, j)];
            lhs[g.lhs(1, 4, CC, 0, i, j)] = lhs[g.lhs(1, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 4, CC, 0, i, j)];
            rhs[g.at(1, 0, j, i)] = rhs[g.at(1, 0, j, i)] - coeff * rhs[g.at(0, 0, j, i)];
            let coeff = lhs[g.lhs(2, 0, BB, 0, i, j)];
            lhs[g.lhs(2, 1, BB, 0, i, j)] = lhs[g.lhs(2, 1, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 1, BB, 0, i, j)];
            lhs[g.lhs(2, 2, BB, 0, i, j)] = lhs[g.lhs(2, 2, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 2, BB, 0, i, j)];
            lhs[g.lhs(2, 3, BB, 0, i, j)] = lhs[g.lhs(2, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 3, BB, 0, i, j)];
            lhs[g.lhs(2, 4, BB, 0, i, j)] = lhs[g.lhs(2, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 4, BB, 0, i, j)];
            lhs[g.lhs(2, 0, CC, 0, i, j)] = lhs[g.lhs(2, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 0, CC, 0, i, j)];
            lhs[g.lhs(2, 1, CC, 0, i, j)] = lhs[g.lhs(2, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 1, CC, 0, i, j)];
            lhs[g.lhs(2, 2, CC, 0, i, j)] = lhs[g.lhs(2, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 2, CC, 0, i, j)];
            lhs[g.lhs(2, 3, CC, 0, i, j)] = lhs[g.lhs(2, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 3, CC, 0, i, j)];
            lhs[g.lhs(2, 4, CC, 0, i, j)] = lhs[g.lhs(2, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 4, CC, 0, i, j)];
            rhs[g.at(2, 0, j, i)] = rhs[g.at(2, 0, j, i)] - coeff * rhs[g.at(0, 0, j, i)];
            let coeff = lhs[g.lhs(3, 0, BB, 0, i, j)];
            lhs[g.lhs(3, 1, BB, 0, i, j)] = lhs[g.lhs(3, 1, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 1, BB, 0, i, j)];
            lhs[g.lhs(3, 2, BB, 0, i, j)] = lhs[g.lhs(3, 2, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 2, BB, 0, i, j)];
            lhs[g.lhs(3, 3, BB, 0, i, j)] = lhs[g.lhs(3, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 3, BB, 0, i, j)];
            lhs[g.lhs(3, 4, BB, 0, i, j)] = lhs[g.lhs(3, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 4, BB, 0, i, j)];
            lhs[g.lhs(3, 0, CC, 0, i, j)] = lhs[g.lhs(3, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 0, CC, 0, i, j)];
            lhs[g.lhs(3, 1, CC, 0, i, j)] = lhs[g.lhs(3, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 1, CC, 0, i, j)];
            lhs[g.lhs(3, 2, CC, 0, i, j)] = lhs[g.lhs(3, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 2, CC, 0, i, j)];
            lhs[g.lhs(3, 3, CC, 0, i, j)] = lhs[g.lhs(3, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 3, CC, 0, i, j)];
            lhs[g.lhs(3, 4, CC, 0, i, j)] = lhs[g.lhs(3, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 4, CC, 0, i, j)];
            rhs[g.at(3, 0, j, i)] = rhs[g.at(3, 0, j, i)] - coeff * rhs[g.at(0, 0, j, i)];
            let coeff = lhs[g.lhs(4, 0, BB, 0, i, j)];
            lhs[g.lhs(4, 1, BB, 0, i, j)] = lhs[g.lhs(4, 1, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 1, BB, 0, i, j)];
            lhs[g.lhs(4, 2, BB, 0, i, j)] = lhs[g.lhs(4, 2, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 2, BB, 0, i, j)];
            lhs[g.lhs(4, 3, BB, 0, i, j)] = lhs[g.lhs(4, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 3, BB, 0, i, j)];
            lhs[g.lhs(4, 4, BB, 0, i, j)] = lhs[g.lhs(4, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(0, 4, BB, 0, i, j)];
            lhs[g.lhs(4, 0, CC, 0, i, j)] = lhs[g.lhs(4, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 0, CC, 0, i, j)];
            lhs[g.lhs(4, 1, CC, 0, i, j)] = lhs[g.lhs(4, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 1, CC, 0, i, j)];
            lhs[g.lhs(4, 2, CC, 0, i, j)] = lhs[g.lhs(4, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 2, CC, 0, i, j)];
            lhs[g.lhs(4, 3, CC, 0, i, j)] = lhs[g.lhs(4, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 3, CC, 0, i, j)];
            lhs[g.lhs(4, 4, CC, 0, i, j)] = lhs[g.lhs(4, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(0, 4, CC, 0, i, j)];
            rhs[g.at(4, 0, j, i)] = rhs[g.at(4, 0, j, i)] - coeff * rhs[g.at(0, 0, j, i)];
            let pivot = 1.00 / lhs[g.lhs(1, 1, BB, 0, i, j)];
            lhs[g.lhs(1, 2, BB, 0, i, j)] = lhs[g.lhs(1, 2, BB, 0, i, j)] * pivot;
            lhs[g.lhs(1, 3, BB, 0, i, j)] = lhs[g.lhs(1, 3, BB, 0, i, j)] * pivot;
            lhs[g.lhs(1, 4, BB, 0, i, j)] = lhs[g.lhs(1, 4, BB, 0, i, j)] * pivot;
            lhs[g.lhs(1, 0, CC, 0, i, j)] = lhs[g.lhs(1, 0, CC, 0, i, j)] * pivot;
            lhs[g.lhs(1, 1, CC, 0, i, j)] = lhs[g.lhs(1, 1, CC, 0, i, j)] * pivot;
            lhs[g.lhs(1, 2, CC, 0, i, j)] = lhs[g.lhs(1, 2, CC, 0, i, j)] * pivot;
            lhs[g.lhs(1, 3, CC, 0, i, j)] = lhs[g.lhs(1, 3, CC, 0, i, j)] * pivot;
            lhs[g.lhs(1, 4, CC, 0, i, j)] = lhs[g.lhs(1, 4, CC, 0, i, j)] * pivot;
            rhs[g.at(1, 0, j, i)] = rhs[g.at(1, 0, j, i)] * pivot;
            let coeff = lhs[g.lhs(0, 1, BB, 0, i, j)];
            lhs[g.lhs(0, 2, BB, 0, i, j)] = lhs[g.lhs(0, 2, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 2, BB, 0, i, j)];
            lhs[g.lhs(0, 3, BB, 0, i, j)] = lhs[g.lhs(0, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 3, BB, 0, i, j)];
            lhs[g.lhs(0, 4, BB, 0, i, j)] = lhs[g.lhs(0, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 4, BB, 0, i, j)];
            lhs[g.lhs(0, 0, CC, 0, i, j)] = lhs[g.lhs(0, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 0, CC, 0, i, j)];
            lhs[g.lhs(0, 1, CC, 0, i, j)] = lhs[g.lhs(0, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 1, CC, 0, i, j)];
            lhs[g.lhs(0, 2, CC, 0, i, j)] = lhs[g.lhs(0, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 2, CC, 0, i, j)];
            lhs[g.lhs(0, 3, CC, 0, i, j)] = lhs[g.lhs(0, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 3, CC, 0, i, j)];
            lhs[g.lhs(0, 4, CC, 0, i, j)] = lhs[g.lhs(0, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 4, CC, 0, i, j)];
            rhs[g.at(0, 0, j, i)] = rhs[g.at(0, 0, j, i)] - coeff * rhs[g.at(1, 0, j, i)];
            let coeff = lhs[g.lhs(2, 1, BB, 0, i, j)];
            lhs[g.lhs(2, 2, BB, 0, i, j)] = lhs[g.lhs(2, 2, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 2, BB, 0, i, j)];
            lhs[g.lhs(2, 3, BB, 0, i, j)] = lhs[g.lhs(2, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 3, BB, 0, i, j)];
            lhs[g.lhs(2, 4, BB, 0, i, j)] = lhs[g.lhs(2, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 4, BB, 0, i, j)];
            lhs[g.lhs(2, 0, CC, 0, i, j)] = lhs[g.lhs(2, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 0, CC, 0, i, j)];
            lhs[g.lhs(2, 1, CC, 0, i, j)] = lhs[g.lhs(2, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 1, CC, 0, i, j)];
            lhs[g.lhs(2, 2, CC, 0, i, j)] = lhs[g.lhs(2, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 2, CC, 0, i, j)];
            lhs[g.lhs(2, 3, CC, 0, i, j)] = lhs[g.lhs(2, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 3, CC, 0, i, j)];
            lhs[g.lhs(2, 4, CC, 0, i, j)] = lhs[g.lhs(2, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 4, CC, 0, i, j)];
            rhs[g.at(2, 0, j, i)] = rhs[g.at(2, 0, j, i)] - coeff * rhs[g.at(1, 0, j, i)];
            let coeff = lhs[g.lhs(3, 1, BB, 0, i, j)];
            lhs[g.lhs(3, 2, BB, 0, i, j)] = lhs[g.lhs(3, 2, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 2, BB, 0, i, j)];
            lhs[g.lhs(3, 3, BB, 0, i, j)] = lhs[g.lhs(3, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 3, BB, 0, i, j)];
            lhs[g.lhs(3, 4, BB, 0, i, j)] = lhs[g.lhs(3, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 4, BB, 0, i, j)];
            lhs[g.lhs(3, 0, CC, 0, i, j)] = lhs[g.lhs(3, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 0, CC, 0, i, j)];
            lhs[g.lhs(3, 1, CC, 0, i, j)] = lhs[g.lhs(3, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 1, CC, 0, i, j)];
            lhs[g.lhs(3, 2, CC, 0, i, j)] = lhs[g.lhs(3, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 2, CC, 0, i, j)];
            lhs[g.lhs(3, 3, CC, 0, i, j)] = lhs[g.lhs(3, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 3, CC, 0, i, j)];
            lhs[g.lhs(3, 4, CC, 0, i, j)] = lhs[g.lhs(3, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 4, CC, 0, i, j)];
            rhs[g.at(3, 0, j, i)] = rhs[g.at(3, 0, j, i)] - coeff * rhs[g.at(1, 0, j, i)];
            let coeff = lhs[g.lhs(4, 1, BB, 0, i, j)];
            lhs[g.lhs(4, 2, BB, 0, i, j)] = lhs[g.lhs(4, 2, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 2, BB, 0, i, j)];
            lhs[g.lhs(4, 3, BB, 0, i, j)] = lhs[g.lhs(4, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 3, BB, 0, i, j)];
            lhs[g.lhs(4, 4, BB, 0, i, j)] = lhs[g.lhs(4, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(1, 4, BB, 0, i, j)];
            lhs[g.lhs(4, 0, CC, 0, i, j)] = lhs[g.lhs(4, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 0, CC, 0, i, j)];
            lhs[g.lhs(4, 1, CC, 0, i, j)] = lhs[g.lhs(4, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 1, CC, 0, i, j)];
            lhs[g.lhs(4, 2, CC, 0, i, j)] = lhs[g.lhs(4, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 2, CC, 0, i, j)];
            lhs[g.lhs(4, 3, CC, 0, i, j)] = lhs[g.lhs(4, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 3, CC, 0, i, j)];
            lhs[g.lhs(4, 4, CC, 0, i, j)] = lhs[g.lhs(4, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(1, 4, CC, 0, i, j)];
            rhs[g.at(4, 0, j, i)] = rhs[g.at(4, 0, j, i)] - coeff * rhs[g.at(1, 0, j, i)];
            let pivot = 1.00 / lhs[g.lhs(2, 2, BB, 0, i, j)];
            lhs[g.lhs(2, 3, BB, 0, i, j)] = lhs[g.lhs(2, 3, BB, 0, i, j)] * pivot;
            lhs[g.lhs(2, 4, BB, 0, i, j)] = lhs[g.lhs(2, 4, BB, 0, i, j)] * pivot;
            lhs[g.lhs(2, 0, CC, 0, i, j)] = lhs[g.lhs(2, 0, CC, 0, i, j)] * pivot;
            lhs[g.lhs(2, 1, CC, 0, i, j)] = lhs[g.lhs(2, 1, CC, 0, i, j)] * pivot;
            lhs[g.lhs(2, 2, CC, 0, i, j)] = lhs[g.lhs(2, 2, CC, 0, i, j)] * pivot;
            lhs[g.lhs(2, 3, CC, 0, i, j)] = lhs[g.lhs(2, 3, CC, 0, i, j)] * pivot;
            lhs[g.lhs(2, 4, CC, 0, i, j)] = lhs[g.lhs(2, 4, CC, 0, i, j)] * pivot;
            rhs[g.at(2, 0, j, i)] = rhs[g.at(2, 0, j, i)] * pivot;
            let coeff = lhs[g.lhs(0, 2, BB, 0, i, j)];
            lhs[g.lhs(0, 3, BB, 0, i, j)] = lhs[g.lhs(0, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(2, 3, BB, 0, i, j)];
            lhs[g.lhs(0, 4, BB, 0, i, j)] = lhs[g.lhs(0, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(2, 4, BB, 0, i, j)];
            lhs[g.lhs(0, 0, CC, 0, i, j)] = lhs[g.lhs(0, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 0, CC, 0, i, j)];
            lhs[g.lhs(0, 1, CC, 0, i, j)] = lhs[g.lhs(0, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 1, CC, 0, i, j)];
            lhs[g.lhs(0, 2, CC, 0, i, j)] = lhs[g.lhs(0, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 2, CC, 0, i, j)];
            lhs[g.lhs(0, 3, CC, 0, i, j)] = lhs[g.lhs(0, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 3, CC, 0, i, j)];
            lhs[g.lhs(0, 4, CC, 0, i, j)] = lhs[g.lhs(0, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 4, CC, 0, i, j)];
            rhs[g.at(0, 0, j, i)] = rhs[g.at(0, 0, j, i)] - coeff * rhs[g.at(2, 0, j, i)];
            let coeff = lhs[g.lhs(1, 2, BB, 0, i, j)];
            lhs[g.lhs(1, 3, BB, 0, i, j)] = lhs[g.lhs(1, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(2, 3, BB, 0, i, j)];
            lhs[g.lhs(1, 4, BB, 0, i, j)] = lhs[g.lhs(1, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(2, 4, BB, 0, i, j)];
            lhs[g.lhs(1, 0, CC, 0, i, j)] = lhs[g.lhs(1, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 0, CC, 0, i, j)];
            lhs[g.lhs(1, 1, CC, 0, i, j)] = lhs[g.lhs(1, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 1, CC, 0, i, j)];
            lhs[g.lhs(1, 2, CC, 0, i, j)] = lhs[g.lhs(1, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 2, CC, 0, i, j)];
            lhs[g.lhs(1, 3, CC, 0, i, j)] = lhs[g.lhs(1, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 3, CC, 0, i, j)];
            lhs[g.lhs(1, 4, CC, 0, i, j)] = lhs[g.lhs(1, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 4, CC, 0, i, j)];
            rhs[g.at(1, 0, j, i)] = rhs[g.at(1, 0, j, i)] - coeff * rhs[g.at(2, 0, j, i)];
            let coeff = lhs[g.lhs(3, 2, BB, 0, i, j)];
            lhs[g.lhs(3, 3, BB, 0, i, j)] = lhs[g.lhs(3, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(2, 3, BB, 0, i, j)];
            lhs[g.lhs(3, 4, BB, 0, i, j)] = lhs[g.lhs(3, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(2, 4, BB, 0, i, j)];
            lhs[g.lhs(3, 0, CC, 0, i, j)] = lhs[g.lhs(3, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 0, CC, 0, i, j)];
            lhs[g.lhs(3, 1, CC, 0, i, j)] = lhs[g.lhs(3, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 1, CC, 0, i, j)];
            lhs[g.lhs(3, 2, CC, 0, i, j)] = lhs[g.lhs(3, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 2, CC, 0, i, j)];
            lhs[g.lhs(3, 3, CC, 0, i, j)] = lhs[g.lhs(3, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 3, CC, 0, i, j)];
            lhs[g.lhs(3, 4, CC, 0, i, j)] = lhs[g.lhs(3, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 4, CC, 0, i, j)];
            rhs[g.at(3, 0, j, i)] = rhs[g.at(3, 0, j, i)] - coeff * rhs[g.at(2, 0, j, i)];
            let coeff = lhs[g.lhs(4, 2, BB, 0, i, j)];
            lhs[g.lhs(4, 3, BB, 0, i, j)] = lhs[g.lhs(4, 3, BB, 0, i, j)] - coeff * lhs[g.lhs(2, 3, BB, 0, i, j)];
            lhs[g.lhs(4, 4, BB, 0, i, j)] = lhs[g.lhs(4, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(2, 4, BB, 0, i, j)];
            lhs[g.lhs(4, 0, CC, 0, i, j)] = lhs[g.lhs(4, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 0, CC, 0, i, j)];
            lhs[g.lhs(4, 1, CC, 0, i, j)] = lhs[g.lhs(4, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 1, CC, 0, i, j)];
            lhs[g.lhs(4, 2, CC, 0, i, j)] = lhs[g.lhs(4, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 2, CC, 0, i, j)];
            lhs[g.lhs(4, 3, CC, 0, i, j)] = lhs[g.lhs(4, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 3, CC, 0, i, j)];
            lhs[g.lhs(4, 4, CC, 0, i, j)] = lhs[g.lhs(4, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(2, 4, CC, 0, i, j)];
            rhs[g.at(4, 0, j, i)] = rhs[g.at(4, 0, j, i)] - coeff * rhs[g.at(2, 0, j, i)];
            let pivot = 1.00 / lhs[g.lhs(3, 3, BB, 0, i, j)];
            lhs[g.lhs(3, 4, BB, 0, i, j)] = lhs[g.lhs(3, 4, BB, 0, i, j)] * pivot;
            lhs[g.lhs(3, 0, CC, 0, i, j)] = lhs[g.lhs(3, 0, CC, 0, i, j)] * pivot;
            lhs[g.lhs(3, 1, CC, 0, i, j)] = lhs[g.lhs(3, 1, CC, 0, i, j)] * pivot;
            lhs[g.lhs(3, 2, CC, 0, i, j)] = lhs[g.lhs(3, 2, CC, 0, i, j)] * pivot;
            lhs[g.lhs(3, 3, CC, 0, i, j)] = lhs[g.lhs(3, 3, CC, 0, i, j)] * pivot;
            lhs[g.lhs(3, 4, CC, 0, i, j)] = lhs[g.lhs(3, 4, CC, 0, i, j)] * pivot;
            rhs[g.at(3, 0, j, i)] = rhs[g.at(3, 0, j, i)] * pivot;
            let coeff = lhs[g.lhs(0, 3, BB, 0, i, j)];
            lhs[g.lhs(0, 4, BB, 0, i, j)] = lhs[g.lhs(0, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(3, 4, BB, 0, i, j)];
            lhs[g.lhs(0, 0, CC, 0, i, j)] = lhs[g.lhs(0, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 0, CC, 0, i, j)];
            lhs[g.lhs(0, 1, CC, 0, i, j)] = lhs[g.lhs(0, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 1, CC, 0, i, j)];
            lhs[g.lhs(0, 2, CC, 0, i, j)] = lhs[g.lhs(0, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 2, CC, 0, i, j)];
            lhs[g.lhs(0, 3, CC, 0, i, j)] = lhs[g.lhs(0, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 3, CC, 0, i, j)];
            lhs[g.lhs(0, 4, CC, 0, i, j)] = lhs[g.lhs(0, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 4, CC, 0, i, j)];
            rhs[g.at(0, 0, j, i)] = rhs[g.at(0, 0, j, i)] - coeff * rhs[g.at(3, 0, j, i)];
            let coeff = lhs[g.lhs(1, 3, BB, 0, i, j)];
            lhs[g.lhs(1, 4, BB, 0, i, j)] = lhs[g.lhs(1, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(3, 4, BB, 0, i, j)];
            lhs[g.lhs(1, 0, CC, 0, i, j)] = lhs[g.lhs(1, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 0, CC, 0, i, j)];
            lhs[g.lhs(1, 1, CC, 0, i, j)] = lhs[g.lhs(1, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 1, CC, 0, i, j)];
            lhs[g.lhs(1, 2, CC, 0, i, j)] = lhs[g.lhs(1, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 2, CC, 0, i, j)];
            lhs[g.lhs(1, 3, CC, 0, i, j)] = lhs[g.lhs(1, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 3, CC, 0, i, j)];
            lhs[g.lhs(1, 4, CC, 0, i, j)] = lhs[g.lhs(1, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 4, CC, 0, i, j)];
            rhs[g.at(1, 0, j, i)] = rhs[g.at(1, 0, j, i)] - coeff * rhs[g.at(3, 0, j, i)];
            let coeff = lhs[g.lhs(2, 3, BB, 0, i, j)];
            lhs[g.lhs(2, 4, BB, 0, i, j)] = lhs[g.lhs(2, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(3, 4, BB, 0, i, j)];
            lhs[g.lhs(2, 0, CC, 0, i, j)] = lhs[g.lhs(2, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 0, CC, 0, i, j)];
            lhs[g.lhs(2, 1, CC, 0, i, j)] = lhs[g.lhs(2, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 1, CC, 0, i, j)];
            lhs[g.lhs(2, 2, CC, 0, i, j)] = lhs[g.lhs(2, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 2, CC, 0, i, j)];
            lhs[g.lhs(2, 3, CC, 0, i, j)] = lhs[g.lhs(2, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 3, CC, 0, i, j)];
            lhs[g.lhs(2, 4, CC, 0, i, j)] = lhs[g.lhs(2, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 4, CC, 0, i, j)];
            rhs[g.at(2, 0, j, i)] = rhs[g.at(2, 0, j, i)] - coeff * rhs[g.at(3, 0, j, i)];
            let coeff = lhs[g.lhs(4, 3, BB, 0, i, j)];
            lhs[g.lhs(4, 4, BB, 0, i, j)] = lhs[g.lhs(4, 4, BB, 0, i, j)] - coeff * lhs[g.lhs(3, 4, BB, 0, i, j)];
            lhs[g.lhs(4, 0, CC, 0, i, j)] = lhs[g.lhs(4, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 0, CC, 0, i, j)];
            lhs[g.lhs(4, 1, CC, 0, i, j)] = lhs[g.lhs(4, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 1, CC, 0, i, j)];
            lhs[g.lhs(4, 2, CC, 0, i, j)] = lhs[g.lhs(4, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 2, CC, 0, i, j)];
            lhs[g.lhs(4, 3, CC, 0, i, j)] = lhs[g.lhs(4, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 3, CC, 0, i, j)];
            lhs[g.lhs(4, 4, CC, 0, i, j)] = lhs[g.lhs(4, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(3, 4, CC, 0, i, j)];
            rhs[g.at(4, 0, j, i)] = rhs[g.at(4, 0, j, i)] - coeff * rhs[g.at(3, 0, j, i)];
            let pivot = 1.00 / lhs[g.lhs(4, 4, BB, 0, i, j)];
            lhs[g.lhs(4, 0, CC, 0, i, j)] = lhs[g.lhs(4, 0, CC, 0, i, j)] * pivot;
            lhs[g.lhs(4, 1, CC, 0, i, j)] = lhs[g.lhs(4, 1, CC, 0, i, j)] * pivot;
            lhs[g.lhs(4, 2, CC, 0, i, j)] = lhs[g.lhs(4, 2, CC, 0, i, j)] * pivot;
            lhs[g.lhs(4, 3, CC, 0, i, j)] = lhs[g.lhs(4, 3, CC, 0, i, j)] * pivot;
            lhs[g.lhs(4, 4, CC, 0, i, j)] = lhs[g.lhs(4, 4, CC, 0, i, j)] * pivot;
            rhs[g.at(4, 0, j, i)] = rhs[g.at(4, 0, j, i)] * pivot;
            let coeff = lhs[g.lhs(0, 4, BB, 0, i, j)];
            lhs[g.lhs(0, 0, CC, 0, i, j)] = lhs[g.lhs(0, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 0, CC, 0, i, j)];
            lhs[g.lhs(0, 1, CC, 0, i, j)] = lhs[g.lhs(0, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 1, CC, 0, i, j)];
            lhs[g.lhs(0, 2, CC, 0, i, j)] = lhs[g.lhs(0, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 2, CC, 0, i, j)];
            lhs[g.lhs(0, 3, CC, 0, i, j)] = lhs[g.lhs(0, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 3, CC, 0, i, j)];
            lhs[g.lhs(0, 4, CC, 0, i, j)] = lhs[g.lhs(0, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 4, CC, 0, i, j)];
            rhs[g.at(0, 0, j, i)] = rhs[g.at(0, 0, j, i)] - coeff * rhs[g.at(4, 0, j, i)];
            let coeff = lhs[g.lhs(1, 4, BB, 0, i, j)];
            lhs[g.lhs(1, 0, CC, 0, i, j)] = lhs[g.lhs(1, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 0, CC, 0, i, j)];
            lhs[g.lhs(1, 1, CC, 0, i, j)] = lhs[g.lhs(1, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 1, CC, 0, i, j)];
            lhs[g.lhs(1, 2, CC, 0, i, j)] = lhs[g.lhs(1, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 2, CC, 0, i, j)];
            lhs[g.lhs(1, 3, CC, 0, i, j)] = lhs[g.lhs(1, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 3, CC, 0, i, j)];
            lhs[g.lhs(1, 4, CC, 0, i, j)] = lhs[g.lhs(1, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 4, CC, 0, i, j)];
            rhs[g.at(1, 0, j, i)] = rhs[g.at(1, 0, j, i)] - coeff * rhs[g.at(4, 0, j, i)];
            let coeff = lhs[g.lhs(2, 4, BB, 0, i, j)];
            lhs[g.lhs(2, 0, CC, 0, i, j)] = lhs[g.lhs(2, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 0, CC, 0, i, j)];
            lhs[g.lhs(2, 1, CC, 0, i, j)] = lhs[g.lhs(2, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 1, CC, 0, i, j)];
            lhs[g.lhs(2, 2, CC, 0, i, j)] = lhs[g.lhs(2, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 2, CC, 0, i, j)];
            lhs[g.lhs(2, 3, CC, 0, i, j)] = lhs[g.lhs(2, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 3, CC, 0, i, j)];
            lhs[g.lhs(2, 4, CC, 0, i, j)] = lhs[g.lhs(2, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 4, CC, 0, i, j)];
            rhs[g.at(2, 0, j, i)] = rhs[g.at(2, 0, j, i)] - coeff * rhs[g.at(4, 0, j, i)];
            let coeff = lhs[g.lhs(3, 4, BB, 0, i, j)];
            lhs[g.lhs(3, 0, CC, 0, i, j)] = lhs[g.lhs(3, 0, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 0, CC, 0, i, j)];
            lhs[g.lhs(3, 1, CC, 0, i, j)] = lhs[g.lhs(3, 1, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 1, CC, 0, i, j)];
            lhs[g.lhs(3, 2, CC, 0, i, j)] = lhs[g.lhs(3, 2, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 2, CC, 0, i, j)];
            lhs[g.lhs(3, 3, CC, 0, i, j)] = lhs[g.lhs(3, 3, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 3, CC, 0, i, j)];
            lhs[g.lhs(3, 4, CC, 0, i, j)] = lhs[g.lhs(3, 4, CC, 0, i, j)] - coeff * lhs[g.lhs(4, 4, CC, 0, i, j)];
            rhs[g.at(3, 0, j, i)] = rhs[g.at(3, 0, j, i)] - coeff * rhs[g.at(4, 0, j, i)];
        }
    }
}

/// The zeta forward elimination along each line (`matvec_sub`, `matmul_sub`, `binvcrhs`).
#[acc::parallel(num_gangs(g.gp02), num_workers(4), vector_length(32))]
fn z_solve_forward(rhs: &mut [f64], lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp12, k_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=gp12 {
            for k in 1..=k_size - 1 {
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)]
                    - lhs[g.lhs(0, 0, AA, k, i, j)] * rhs[g.at(0, k - 1, j, i)]
                    - lhs[g.lhs(0, 1, AA, k, i, j)] * rhs[g.at(1, k - 1, j, i)]
                    - lhs[g.lhs(0, 2, AA, k, i, j)] * rhs[g.at(2, k - 1, j, i)]
                    - lhs[g.lhs(0, 3, AA, k, i, j)] * rhs[g.at(3, k - 1, j, i)]
                    - lhs[g.lhs(0, 4, AA, k, i, j)] * rhs[g.at(4, k - 1, j, i)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)]
                    - lhs[g.lhs(1, 0, AA, k, i, j)] * rhs[g.at(0, k - 1, j, i)]
                    - lhs[g.lhs(1, 1, AA, k, i, j)] * rhs[g.at(1, k - 1, j, i)]
                    - lhs[g.lhs(1, 2, AA, k, i, j)] * rhs[g.at(2, k - 1, j, i)]
                    - lhs[g.lhs(1, 3, AA, k, i, j)] * rhs[g.at(3, k - 1, j, i)]
                    - lhs[g.lhs(1, 4, AA, k, i, j)] * rhs[g.at(4, k - 1, j, i)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)]
                    - lhs[g.lhs(2, 0, AA, k, i, j)] * rhs[g.at(0, k - 1, j, i)]
                    - lhs[g.lhs(2, 1, AA, k, i, j)] * rhs[g.at(1, k - 1, j, i)]
                    - lhs[g.lhs(2, 2, AA, k, i, j)] * rhs[g.at(2, k - 1, j, i)]
                    - lhs[g.lhs(2, 3, AA, k, i, j)] * rhs[g.at(3, k - 1, j, i)]
                    - lhs[g.lhs(2, 4, AA, k, i, j)] * rhs[g.at(4, k - 1, j, i)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)]
                    - lhs[g.lhs(3, 0, AA, k, i, j)] * rhs[g.at(0, k - 1, j, i)]
                    - lhs[g.lhs(3, 1, AA, k, i, j)] * rhs[g.at(1, k - 1, j, i)]
                    - lhs[g.lhs(3, 2, AA, k, i, j)] * rhs[g.at(2, k - 1, j, i)]
                    - lhs[g.lhs(3, 3, AA, k, i, j)] * rhs[g.at(3, k - 1, j, i)]
                    - lhs[g.lhs(3, 4, AA, k, i, j)] * rhs[g.at(4, k - 1, j, i)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)]
                    - lhs[g.lhs(4, 0, AA, k, i, j)] * rhs[g.at(0, k - 1, j, i)]
                    - lhs[g.lhs(4, 1, AA, k, i, j)] * rhs[g.at(1, k - 1, j, i)]
                    - lhs[g.lhs(4, 2, AA, k, i, j)] * rhs[g.at(2, k - 1, j, i)]
                    - lhs[g.lhs(4, 3, AA, k, i, j)] * rhs[g.at(3, k - 1, j, i)]
                    - lhs[g.lhs(4, 4, AA, k, i, j)] * rhs[g.at(4, k - 1, j, i)];
                lhs[g.lhs(0, 0, BB, k, i, j)] = lhs[g.lhs(0, 0, BB, k, i, j)]
                    - lhs[g.lhs(0, 0, AA, k, i, j)] * lhs[g.lhs(0, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 1, AA, k, i, j)] * lhs[g.lhs(1, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 2, AA, k, i, j)] * lhs[g.lhs(2, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 3, AA, k, i, j)] * lhs[g.lhs(3, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 4, AA, k, i, j)] * lhs[g.lhs(4, 0, CC, k - 1, i, j)];
                lhs[g.lhs(1, 0, BB, k, i, j)] = lhs[g.lhs(1, 0, BB, k, i, j)]
                    - lhs[g.lhs(1, 0, AA, k, i, j)] * lhs[g.lhs(0, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 1, AA, k, i, j)] * lhs[g.lhs(1, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 2, AA, k, i, j)] * lhs[g.lhs(2, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 3, AA, k, i, j)] * lhs[g.lhs(3, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 4, AA, k, i, j)] * lhs[g.lhs(4, 0, CC, k - 1, i, j)];
                lhs[g.lhs(2, 0, BB, k, i, j)] = lhs[g.lhs(2, 0, BB, k, i, j)]
                    - lhs[g.lhs(2, 0, AA, k, i, j)] * lhs[g.lhs(0, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 1, AA, k, i, j)] * lhs[g.lhs(1, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 2, AA, k, i, j)] * lhs[g.lhs(2, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 3, AA, k, i, j)] * lhs[g.lhs(3, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 4, AA, k, i, j)] * lhs[g.lhs(4, 0, CC, k - 1, i, j)];
                lhs[g.lhs(3, 0, BB, k, i, j)] = lhs[g.lhs(3, 0, BB, k, i, j)]
                    - lhs[g.lhs(3, 0, AA, k, i, j)] * lhs[g.lhs(0, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 1, AA, k, i, j)] * lhs[g.lhs(1, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 2, AA, k, i, j)] * lhs[g.lhs(2, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 3, AA, k, i, j)] * lhs[g.lhs(3, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 4, AA, k, i, j)] * lhs[g.lhs(4, 0, CC, k - 1, i, j)];
                lhs[g.lhs(4, 0, BB, k, i, j)] = lhs[g.lhs(4, 0, BB, k, i, j)]
                    - lhs[g.lhs(4, 0, AA, k, i, j)] * lhs[g.lhs(0, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 1, AA, k, i, j)] * lhs[g.lhs(1, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 2, AA, k, i, j)] * lhs[g.lhs(2, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 3, AA, k, i, j)] * lhs[g.lhs(3, 0, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 4, AA, k, i, j)] * lhs[g.lhs(4, 0, CC, k - 1, i, j)];
                lhs[g.lhs(0, 1, BB, k, i, j)] = lhs[g.lhs(0, 1, BB, k, i, j)]
                    - lhs[g.lhs(0, 0, AA, k, i, j)] * lhs[g.lhs(0, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 1, AA, k, i, j)] * lhs[g.lhs(1, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 2, AA, k, i, j)] * lhs[g.lhs(2, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 3, AA, k, i, j)] * lhs[g.lhs(3, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 4, AA, k, i, j)] * lhs[g.lhs(4, 1, CC, k - 1, i, j)];
                lhs[g.lhs(1, 1, BB, k, i, j)] = lhs[g.lhs(1, 1, BB, k, i, j)]
                    - lhs[g.lhs(1, 0, AA, k, i, j)] * lhs[g.lhs(0, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 1, AA, k, i, j)] * lhs[g.lhs(1, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 2, AA, k, i, j)] * lhs[g.lhs(2, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 3, AA, k, i, j)] * lhs[g.lhs(3, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 4, AA, k, i, j)] * lhs[g.lhs(4, 1, CC, k - 1, i, j)];
                lhs[g.lhs(2, 1, BB, k, i, j)] = lhs[g.lhs(2, 1, BB, k, i, j)]
                    - lhs[g.lhs(2, 0, AA, k, i, j)] * lhs[g.lhs(0, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 1, AA, k, i, j)] * lhs[g.lhs(1, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 2, AA, k, i, j)] * lhs[g.lhs(2, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 3, AA, k, i, j)] * lhs[g.lhs(3, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 4, AA, k, i, j)] * lhs[g.lhs(4, 1, CC, k - 1, i, j)];
                lhs[g.lhs(3, 1, BB, k, i, j)] = lhs[g.lhs(3, 1, BB, k, i, j)]
                    - lhs[g.lhs(3, 0, AA, k, i, j)] * lhs[g.lhs(0, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 1, AA, k, i, j)] * lhs[g.lhs(1, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 2, AA, k, i, j)] * lhs[g.lhs(2, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 3, AA, k, i, j)] * lhs[g.lhs(3, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 4, AA, k, i, j)] * lhs[g.lhs(4, 1, CC, k - 1, i, j)];
                lhs[g.lhs(4, 1, BB, k, i, j)] = lhs[g.lhs(4, 1, BB, k, i, j)]
                    - lhs[g.lhs(4, 0, AA, k, i, j)] * lhs[g.lhs(0, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 1, AA, k, i, j)] * lhs[g.lhs(1, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 2, AA, k, i, j)] * lhs[g.lhs(2, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 3, AA, k, i, j)] * lhs[g.lhs(3, 1, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 4, AA, k, i, j)] * lhs[g.lhs(4, 1, CC, k - 1, i, j)];
                lhs[g.lhs(0, 2, BB, k, i, j)] = lhs[g.lhs(0, 2, BB, k, i, j)]
                    - lhs[g.lhs(0, 0, AA, k, i, j)] * lhs[g.lhs(0, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 1, AA, k, i, j)] * lhs[g.lhs(1, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 2, AA, k, i, j)] * lhs[g.lhs(2, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 3, AA, k, i, j)] * lhs[g.lhs(3, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 4, AA, k, i, j)] * lhs[g.lhs(4, 2, CC, k - 1, i, j)];
                lhs[g.lhs(1, 2, BB, k, i, j)] = lhs[g.lhs(1, 2, BB, k, i, j)]
                    - lhs[g.lhs(1, 0, AA, k, i, j)] * lhs[g.lhs(0, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 1, AA, k, i, j)] * lhs[g.lhs(1, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 2, AA, k, i, j)] * lhs[g.lhs(2, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 3, AA, k, i, j)] * lhs[g.lhs(3, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 4, AA, k, i, j)] * lhs[g.lhs(4, 2, CC, k - 1, i, j)];
                lhs[g.lhs(2, 2, BB, k, i, j)] = lhs[g.lhs(2, 2, BB, k, i, j)]
                    - lhs[g.lhs(2, 0, AA, k, i, j)] * lhs[g.lhs(0, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 1, AA, k, i, j)] * lhs[g.lhs(1, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 2, AA, k, i, j)] * lhs[g.lhs(2, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 3, AA, k, i, j)] * lhs[g.lhs(3, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 4, AA, k, i, j)] * lhs[g.lhs(4, 2, CC, k - 1, i, j)];
                lhs[g.lhs(3, 2, BB, k, i, j)] = lhs[g.lhs(3, 2, BB, k, i, j)]
                    - lhs[g.lhs(3, 0, AA, k, i, j)] * lhs[g.lhs(0, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 1, AA, k, i, j)] * lhs[g.lhs(1, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 2, AA, k, i, j)] * lhs[g.lhs(2, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 3, AA, k, i, j)] * lhs[g.lhs(3, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 4, AA, k, i, j)] * lhs[g.lhs(4, 2, CC, k - 1, i, j)];
                lhs[g.lhs(4, 2, BB, k, i, j)] = lhs[g.lhs(4, 2, BB, k, i, j)]
                    - lhs[g.lhs(4, 0, AA, k, i, j)] * lhs[g.lhs(0, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 1, AA, k, i, j)] * lhs[g.lhs(1, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 2, AA, k, i, j)] * lhs[g.lhs(2, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 3, AA, k, i, j)] * lhs[g.lhs(3, 2, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 4, AA, k, i, j)] * lhs[g.lhs(4, 2, CC, k - 1, i, j)];
                lhs[g.lhs(0, 3, BB, k, i, j)] = lhs[g.lhs(0, 3, BB, k, i, j)]
                    - lhs[g.lhs(0, 0, AA, k, i, j)] * lhs[g.lhs(0, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 1, AA, k, i, j)] * lhs[g.lhs(1, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 2, AA, k, i, j)] * lhs[g.lhs(2, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 3, AA, k, i, j)] * lhs[g.lhs(3, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 4, AA, k, i, j)] * lhs[g.lhs(4, 3, CC, k - 1, i, j)];
                lhs[g.lhs(1, 3, BB, k, i, j)] = lhs[g.lhs(1, 3, BB, k, i, j)]
                    - lhs[g.lhs(1, 0, AA, k, i, j)] * lhs[g.lhs(0, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 1, AA, k, i, j)] * lhs[g.lhs(1, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 2, AA, k, i, j)] * lhs[g.lhs(2, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 3, AA, k, i, j)] * lhs[g.lhs(3, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 4, AA, k, i, j)] * lhs[g.lhs(4, 3, CC, k - 1, i, j)];
                lhs[g.lhs(2, 3, BB, k, i, j)] = lhs[g.lhs(2, 3, BB, k, i, j)]
                    - lhs[g.lhs(2, 0, AA, k, i, j)] * lhs[g.lhs(0, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 1, AA, k, i, j)] * lhs[g.lhs(1, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 2, AA, k, i, j)] * lhs[g.lhs(2, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 3, AA, k, i, j)] * lhs[g.lhs(3, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 4, AA, k, i, j)] * lhs[g.lhs(4, 3, CC, k - 1, i, j)];
                lhs[g.lhs(3, 3, BB, k, i, j)] = lhs[g.lhs(3, 3, BB, k, i, j)]
                    - lhs[g.lhs(3, 0, AA, k, i, j)] * lhs[g.lhs(0, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 1, AA, k, i, j)] * lhs[g.lhs(1, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 2, AA, k, i, j)] * lhs[g.lhs(2, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 3, AA, k, i, j)] * lhs[g.lhs(3, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 4, AA, k, i, j)] * lhs[g.lhs(4, 3, CC, k - 1, i, j)];
                lhs[g.lhs(4, 3, BB, k, i, j)] = lhs[g.lhs(4, 3, BB, k, i, j)]
                    - lhs[g.lhs(4, 0, AA, k, i, j)] * lhs[g.lhs(0, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 1, AA, k, i, j)] * lhs[g.lhs(1, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 2, AA, k, i, j)] * lhs[g.lhs(2, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 3, AA, k, i, j)] * lhs[g.lhs(3, 3, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 4, AA, k, i, j)] * lhs[g.lhs(4, 3, CC, k - 1, i, j)];
                lhs[g.lhs(0, 4, BB, k, i, j)] = lhs[g.lhs(0, 4, BB, k, i, j)]
                    - lhs[g.lhs(0, 0, AA, k, i, j)] * lhs[g.lhs(0, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 1, AA, k, i, j)] * lhs[g.lhs(1, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 2, AA, k, i, j)] * lhs[g.lhs(2, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 3, AA, k, i, j)] * lhs[g.lhs(3, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(0, 4, AA, k, i, j)] * lhs[g.lhs(4, 4, CC, k - 1, i, j)];
                lhs[g.lhs(1, 4, BB, k, i, j)] = lhs[g.lhs(1, 4, BB, k, i, j)]
                    - lhs[g.lhs(1, 0, AA, k, i, j)] * lhs[g.lhs(0, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 1, AA, k, i, j)] * lhs[g.lhs(1, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 2, AA, k, i, j)] * lhs[g.lhs(2, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 3, AA, k, i, j)] * lhs[g.lhs(3, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(1, 4, AA, k, i, j)] * lhs[g.lhs(4, 4, CC, k - 1, i, j)];
                lhs[g.lhs(2, 4, BB, k, i, j)] = lhs[g.lhs(2, 4, BB, k, i, j)]
                    - lhs[g.lhs(2, 0, AA, k, i, j)] * lhs[g.lhs(0, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 1, AA, k, i, j)] * lhs[g.lhs(1, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 2, AA, k, i, j)] * lhs[g.lhs(2, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 3, AA, k, i, j)] * lhs[g.lhs(3, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(2, 4, AA, k, i, j)] * lhs[g.lhs(4, 4, CC, k - 1, i, j)];
                lhs[g.lhs(3, 4, BB, k, i, j)] = lhs[g.lhs(3, 4, BB, k, i, j)]
                    - lhs[g.lhs(3, 0, AA, k, i, j)] * lhs[g.lhs(0, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 1, AA, k, i, j)] * lhs[g.lhs(1, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 2, AA, k, i, j)] * lhs[g.lhs(2, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 3, AA, k, i, j)] * lhs[g.lhs(3, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(3, 4, AA, k, i, j)] * lhs[g.lhs(4, 4, CC, k - 1, i, j)];
                lhs[g.lhs(4, 4, BB, k, i, j)] = lhs[g.lhs(4, 4, BB, k, i, j)]
                    - lhs[g.lhs(4, 0, AA, k, i, j)] * lhs[g.lhs(0, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 1, AA, k, i, j)] * lhs[g.lhs(1, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 2, AA, k, i, j)] * lhs[g.lhs(2, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 3, AA, k, i, j)] * lhs[g.lhs(3, 4, CC, k - 1, i, j)]
                    - lhs[g.lhs(4, 4, AA, k, i, j)] * lhs[g.lhs(4, 4, CC, k - 1, i, j)];
                let pivot = 1.00 / lhs[g.lhs(0, 0, BB, k, i, j)];
                lhs[g.lhs(0, 1, BB, k, i, j)] = lhs[g.lhs(0, 1, BB, k, i, j)] * pivot;
                lhs[g.lhs(0, 2, BB, k, i, j)] = lhs[g.lhs(0, 2, BB, k, i, j)] * pivot;
                lhs[g.lhs(0, 3, BB, k, i, j)] = lhs[g.lhs(0, 3, BB, k, i, j)] * pivot;
                lhs[g.lhs(0, 4, BB, k, i, j)] = lhs[g.lhs(0, 4, BB, k, i, j)] * pivot;
                lhs[g.lhs(0, 0, CC, k, i, j)] = lhs[g.lhs(0, 0, CC, k, i, j)] * pivot;
                lhs[g.lhs(0, 1, CC, k, i, j)] = lhs[g.lhs(0, 1, CC, k, i, j)] * pivot;
                lhs[g.lhs(0, 2, CC, k, i, j)] = lhs[g.lhs(0, 2, CC, k, i, j)] * pivot;
                lhs[g.lhs(0, 3, CC, k, i, j)] = lhs[g.lhs(0, 3, CC, k, i, j)] * pivot;
                lhs[g.lhs(0, 4, CC, k, i, j)] = lhs[g.lhs(0, 4, CC, k, i, j)] * pivot;
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(1, 0, BB, k, i, j)];
                lhs[g.lhs(1, 1, BB, k, i, j)] = lhs[g.lhs(1, 1, BB, k, i, j)] - coeff * lhs[g.lhs(0, 1, BB, k, i, j)];
                lhs[g.lhs(1, 2, BB, k, i, j)] = lhs[g.lhs(1, 2, BB, k, i, j)] - coeff * lhs[g.lhs(0, 2, BB, k, i, j)];
                lhs[g.lhs(1, 3, BB, k, i, j)] = lhs[g.lhs(1, 3, BB, k, i, j)] - coeff * lhs[g.lhs(0, 3, BB, k, i, j)];
                lhs[g.lhs(1, 4, BB, k, i, j)] = lhs[g.lhs(1, 4, BB, k, i, j)] - coeff * lhs[g.lhs(0, 4, BB, k, i, j)];
                lhs[g.lhs(1, 0, CC, k, i, j)] = lhs[g.lhs(1, 0, CC, k, i, j)] - coeff * lhs[g.lhs(0, 0, CC, k, i, j)];
                lhs[g.lhs(1, 1, CC, k, i, j)] = lhs[g.lhs(1, 1, CC, k, i, j)] - coeff * lhs[g.lhs(0, 1, CC, k, i, j)];
                lhs[g.lhs(1, 2, CC, k, i, j)] = lhs[g.lhs(1, 2, CC, k, i, j)] - coeff * lhs[g.lhs(0, 2, CC, k, i, j)];
                lhs[g.lhs(1, 3, CC, k, i, j)] = lhs[g.lhs(1, 3, CC, k, i, j)] - coeff * lhs[g.lhs(0, 3, CC, k, i, j)];
                lhs[g.lhs(1, 4, CC, k, i, j)] = lhs[g.lhs(1, 4, CC, k, i, j)] - coeff * lhs[g.lhs(0, 4, CC, k, i, j)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let coeff = lhs[g.lhs(2, 0, BB, k, i, j)];
                lhs[g.lhs(2, 1, BB, k, i, j)] = lhs[g.lhs(2, 1, BB, k, i, j)] - coeff * lhs[g.lhs(0, 1, BB, k, i, j)];
                lhs[g.lhs(2, 2, BB, k, i, j)] = lhs[g.lhs(2, 2, BB, k, i, j)] - coeff * lhs[g.lhs(0, 2, BB, k, i, j)];
                lhs[g.lhs(2, 3, BB, k, i, j)] = lhs[g.lhs(2, 3, BB, k, i, j)] - coeff * lhs[g.lhs(0, 3, BB, k, i, j)];
                lhs[g.lhs(2, 4, BB, k, i, j)] = lhs[g.lhs(2, 4, BB, k, i, j)] - coeff * lhs[g.lhs(0, 4, BB, k, i, j)];
                lhs[g.lhs(2, 0, CC, k, i, j)] = lhs[g.lhs(2, 0, CC, k, i, j)] - coeff * lhs[g.lhs(0, 0, CC, k, i, j)];
                lhs[g.lhs(2, 1, CC, k, i, j)] = lhs[g.lhs(2, 1, CC, k, i, j)] - coeff * lhs[g.lhs(0, 1, CC, k, i, j)];
                lhs[g.lhs(2, 2, CC, k, i, j)] = lhs[g.lhs(2, 2, CC, k, i, j)] - coeff * lhs[g.lhs(0, 2, CC, k, i, j)];
                lhs[g.lhs(2, 3, CC, k, i, j)] = lhs[g.lhs(2, 3, CC, k, i, j)] - coeff * lhs[g.lhs(0, 3, CC, k, i, j)];
                lhs[g.lhs(2, 4, CC, k, i, j)] = lhs[g.lhs(2, 4, CC, k, i, j)] - coeff * lhs[g.lhs(0, 4, CC, k, i, j)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let coeff = lhs[g.lhs(3, 0, BB, k, i, j)];
                lhs[g.lhs(3, 1, BB, k, i, j)] = lhs[g.lhs(3, 1, BB, k, i, j)] - coeff * lhs[g.lhs(0, 1, BB, k, i, j)];
                lhs[g.lhs(3, 2, BB, k, i, j)] = lhs[g.lhs(3, 2, BB, k, i, j)] - coeff * lhs[g.lhs(0, 2, BB, k, i, j)];
                lhs[g.lhs(3, 3, BB, k, i, j)] = lhs[g.lhs(3, 3, BB, k, i, j)] - coeff * lhs[g.lhs(0, 3, BB, k, i, j)];
                lhs[g.lhs(3, 4, BB, k, i, j)] = lhs[g.lhs(3, 4, BB, k, i, j)] - coeff * lhs[g.lhs(0, 4, BB, k, i, j)];
                lhs[g.lhs(3, 0, CC, k, i, j)] = lhs[g.lhs(3, 0, CC, k, i, j)] - coeff * lhs[g.lhs(0, 0, CC, k, i, j)];
                lhs[g.lhs(3, 1, CC, k, i, j)] = lhs[g.lhs(3, 1, CC, k, i, j)] - coeff * lhs[g.lhs(0, 1, CC, k, i, j)];
                lhs[g.lhs(3, 2, CC, k, i, j)] = lhs[g.lhs(3, 2, CC, k, i, j)] - coeff * lhs[g.lhs(0, 2, CC, k, i, j)];
                lhs[g.lhs(3, 3, CC, k, i, j)] = lhs[g.lhs(3, 3, CC, k, i, j)] - coeff * lhs[g.lhs(0, 3, CC, k, i, j)];
                lhs[g.lhs(3, 4, CC, k, i, j)] = lhs[g.lhs(3, 4, CC, k, i, j)] - coeff * lhs[g.lhs(0, 4, CC, k, i, j)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let coeff = lhs[g.lhs(4, 0, BB, k, i, j)];
                lhs[g.lhs(4, 1, BB, k, i, j)] = lhs[g.lhs(4, 1, BB, k, i, j)] - coeff * lhs[g.lhs(0, 1, BB, k, i, j)];
                lhs[g.lhs(4, 2, BB, k, i, j)] = lhs[g.lhs(4, 2, BB, k, i, j)] - coeff * lhs[g.lhs(0, 2, BB, k, i, j)];
                lhs[g.lhs(4, 3, BB, k, i, j)] = lhs[g.lhs(4, 3, BB, k, i, j)] - coeff * lhs[g.lhs(0, 3, BB, k, i, j)];
                lhs[g.lhs(4, 4, BB, k, i, j)] = lhs[g.lhs(4, 4, BB, k, i, j)] - coeff * lhs[g.lhs(0, 4, BB, k, i, j)];
                lhs[g.lhs(4, 0, CC, k, i, j)] = lhs[g.lhs(4, 0, CC, k, i, j)] - coeff * lhs[g.lhs(0, 0, CC, k, i, j)];
                lhs[g.lhs(4, 1, CC, k, i, j)] = lhs[g.lhs(4, 1, CC, k, i, j)] - coeff * lhs[g.lhs(0, 1, CC, k, i, j)];
                lhs[g.lhs(4, 2, CC, k, i, j)] = lhs[g.lhs(4, 2, CC, k, i, j)] - coeff * lhs[g.lhs(0, 2, CC, k, i, j)];
                lhs[g.lhs(4, 3, CC, k, i, j)] = lhs[g.lhs(4, 3, CC, k, i, j)] - coeff * lhs[g.lhs(0, 3, CC, k, i, j)];
                lhs[g.lhs(4, 4, CC, k, i, j)] = lhs[g.lhs(4, 4, CC, k, i, j)] - coeff * lhs[g.lhs(0, 4, CC, k, i, j)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(0, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(1, 1, BB, k, i, j)];
                lhs[g.lhs(1, 2, BB, k, i, j)] = lhs[g.lhs(1, 2, BB, k, i, j)] * pivot;
                lhs[g.lhs(1, 3, BB, k, i, j)] = lhs[g.lhs(1, 3, BB, k, i, j)] * pivot;
                lhs[g.lhs(1, 4, BB, k, i, j)] = lhs[g.lhs(1, 4, BB, k, i, j)] * pivot;
                lhs[g.lhs(1, 0, CC, k, i, j)] = lhs[g.lhs(1, 0, CC, k, i, j)] * pivot;
                lhs[g.lhs(1, 1, CC, k, i, j)] = lhs[g.lhs(1, 1, CC, k, i, j)] * pivot;
                lhs[g.lhs(1, 2, CC, k, i, j)] = lhs[g.lhs(1, 2, CC, k, i, j)] * pivot;
                lhs[g.lhs(1, 3, CC, k, i, j)] = lhs[g.lhs(1, 3, CC, k, i, j)] * pivot;
                lhs[g.lhs(1, 4, CC, k, i, j)] = lhs[g.lhs(1, 4, CC, k, i, j)] * pivot;
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 1, BB, k, i, j)];
                lhs[g.lhs(0, 2, BB, k, i, j)] = lhs[g.lhs(0, 2, BB, k, i, j)] - coeff * lhs[g.lhs(1, 2, BB, k, i, j)];
                lhs[g.lhs(0, 3, BB, k, i, j)] = lhs[g.lhs(0, 3, BB, k, i, j)] - coeff * lhs[g.lhs(1, 3, BB, k, i, j)];
                lhs[g.lhs(0, 4, BB, k, i, j)] = lhs[g.lhs(0, 4, BB, k, i, j)] - coeff * lhs[g.lhs(1, 4, BB, k, i, j)];
                lhs[g.lhs(0, 0, CC, k, i, j)] = lhs[g.lhs(0, 0, CC, k, i, j)] - coeff * lhs[g.lhs(1, 0, CC, k, i, j)];
                lhs[g.lhs(0, 1, CC, k, i, j)] = lhs[g.lhs(0, 1, CC, k, i, j)] - coeff * lhs[g.lhs(1, 1, CC, k, i, j)];
                lhs[g.lhs(0, 2, CC, k, i, j)] = lhs[g.lhs(0, 2, CC, k, i, j)] - coeff * lhs[g.lhs(1, 2, CC, k, i, j)];
                lhs[g.lhs(0, 3, CC, k, i, j)] = lhs[g.lhs(0, 3, CC, k, i, j)] - coeff * lhs[g.lhs(1, 3, CC, k, i, j)];
                lhs[g.lhs(0, 4, CC, k, i, j)] = lhs[g.lhs(0, 4, CC, k, i, j)] - coeff * lhs[g.lhs(1, 4, CC, k, i, j)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let coeff = lhs[g.lhs(2, 1, BB, k, i, j)];
                lhs[g.lhs(2, 2, BB, k, i, j)] = lhs[g.lhs(2, 2, BB, k, i, j)] - coeff * lhs[g.lhs(1, 2, BB, k, i, j)];
                lhs[g.lhs(2, 3, BB, k, i, j)] = lhs[g.lhs(2, 3, BB, k, i, j)] - coeff * lhs[g.lhs(1, 3, BB, k, i, j)];
                lhs[g.lhs(2, 4, BB, k, i, j)] = lhs[g.lhs(2, 4, BB, k, i, j)] - coeff * lhs[g.lhs(1, 4, BB, k, i, j)];
                lhs[g.lhs(2, 0, CC, k, i, j)] = lhs[g.lhs(2, 0, CC, k, i, j)] - coeff * lhs[g.lhs(1, 0, CC, k, i, j)];
                lhs[g.lhs(2, 1, CC, k, i, j)] = lhs[g.lhs(2, 1, CC, k, i, j)] - coeff * lhs[g.lhs(1, 1, CC, k, i, j)];
                lhs[g.lhs(2, 2, CC, k, i, j)] = lhs[g.lhs(2, 2, CC, k, i, j)] - coeff * lhs[g.lhs(1, 2, CC, k, i, j)];
                lhs[g.lhs(2, 3, CC, k, i, j)] = lhs[g.lhs(2, 3, CC, k, i, j)] - coeff * lhs[g.lhs(1, 3, CC, k, i, j)];
                lhs[g.lhs(2, 4, CC, k, i, j)] = lhs[g.lhs(2, 4, CC, k, i, j)] - coeff * lhs[g.lhs(1, 4, CC, k, i, j)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let coeff = lhs[g.lhs(3, 1, BB, k, i, j)];
                lhs[g.lhs(3, 2, BB, k, i, j)] = lhs[g.lhs(3, 2, BB, k, i, j)] - coeff * lhs[g.lhs(1, 2, BB, k, i, j)];
                lhs[g.lhs(3, 3, BB, k, i, j)] = lhs[g.lhs(3, 3, BB, k, i, j)] - coeff * lhs[g.lhs(1, 3, BB, k, i, j)];
                lhs[g.lhs(3, 4, BB, k, i, j)] = lhs[g.lhs(3, 4, BB, k, i, j)] - coeff * lhs[g.lhs(1, 4, BB, k, i, j)];
                lhs[g.lhs(3, 0, CC, k, i, j)] = lhs[g.lhs(3, 0, CC, k, i, j)] - coeff * lhs[g.lhs(1, 0, CC, k, i, j)];
                lhs[g.lhs(3, 1, CC, k, i, j)] = lhs[g.lhs(3, 1, CC, k, i, j)] - coeff * lhs[g.lhs(1, 1, CC, k, i, j)];
                lhs[g.lhs(3, 2, CC, k, i, j)] = lhs[g.lhs(3, 2, CC, k, i, j)] - coeff * lhs[g.lhs(1, 2, CC, k, i, j)];
                lhs[g.lhs(3, 3, CC, k, i, j)] = lhs[g.lhs(3, 3, CC, k, i, j)] - coeff * lhs[g.lhs(1, 3, CC, k, i, j)];
                lhs[g.lhs(3, 4, CC, k, i, j)] = lhs[g.lhs(3, 4, CC, k, i, j)] - coeff * lhs[g.lhs(1, 4, CC, k, i, j)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let coeff = lhs[g.lhs(4, 1, BB, k, i, j)];
                lhs[g.lhs(4, 2, BB, k, i, j)] = lhs[g.lhs(4, 2, BB, k, i, j)] - coeff * lhs[g.lhs(1, 2, BB, k, i, j)];
                lhs[g.lhs(4, 3, BB, k, i, j)] = lhs[g.lhs(4, 3, BB, k, i, j)] - coeff * lhs[g.lhs(1, 3, BB, k, i, j)];
                lhs[g.lhs(4, 4, BB, k, i, j)] = lhs[g.lhs(4, 4, BB, k, i, j)] - coeff * lhs[g.lhs(1, 4, BB, k, i, j)];
                lhs[g.lhs(4, 0, CC, k, i, j)] = lhs[g.lhs(4, 0, CC, k, i, j)] - coeff * lhs[g.lhs(1, 0, CC, k, i, j)];
                lhs[g.lhs(4, 1, CC, k, i, j)] = lhs[g.lhs(4, 1, CC, k, i, j)] - coeff * lhs[g.lhs(1, 1, CC, k, i, j)];
                lhs[g.lhs(4, 2, CC, k, i, j)] = lhs[g.lhs(4, 2, CC, k, i, j)] - coeff * lhs[g.lhs(1, 2, CC, k, i, j)];
                lhs[g.lhs(4, 3, CC, k, i, j)] = lhs[g.lhs(4, 3, CC, k, i, j)] - coeff * lhs[g.lhs(1, 3, CC, k, i, j)];
                lhs[g.lhs(4, 4, CC, k, i, j)] = lhs[g.lhs(4, 4, CC, k, i, j)] - coeff * lhs[g.lhs(1, 4, CC, k, i, j)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(1, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(2, 2, BB, k, i, j)];
                lhs[g.lhs(2, 3, BB, k, i, j)] = lhs[g.lhs(2, 3, BB, k, i, j)] * pivot;
                lhs[g.lhs(2, 4, BB, k, i, j)] = lhs[g.lhs(2, 4, BB, k, i, j)] * pivot;
                lhs[g.lhs(2, 0, CC, k, i, j)] = lhs[g.lhs(2, 0, CC, k, i, j)] * pivot;
                lhs[g.lhs(2, 1, CC, k, i, j)] = lhs[g.lhs(2, 1, CC, k, i, j)] * pivot;
                lhs[g.lhs(2, 2, CC, k, i, j)] = lhs[g.lhs(2, 2, CC, k, i, j)] * pivot;
                lhs[g.lhs(2, 3, CC, k, i, j)] = lhs[g.lhs(2, 3, CC, k, i, j)] * pivot;
                lhs[g.lhs(2, 4, CC, k, i, j)] = lhs[g.lhs(2, 4, CC, k, i, j)] * pivot;
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 2, BB, k, i, j)];
                lhs[g.lhs(0, 3, BB, k, i, j)] = lhs[g.lhs(0, 3, BB, k, i, j)] - coeff * lhs[g.lhs(2, 3, BB, k, i, j)];
                lhs[g.lhs(0, 4, BB, k, i, j)] = lhs[g.lhs(0, 4, BB, k, i, j)] - coeff * lhs[g.lhs(2, 4, BB, k, i, j)];
                lhs[g.lhs(0, 0, CC, k, i, j)] = lhs[g.lhs(0, 0, CC, k, i, j)] - coeff * lhs[g.lhs(2, 0, CC, k, i, j)];
                lhs[g.lhs(0, 1, CC, k, i, j)] = lhs[g.lhs(0, 1, CC, k, i, j)] - coeff * lhs[g.lhs(2, 1, CC, k, i, j)];
                lhs[g.lhs(0, 2, CC, k, i, j)] = lhs[g.lhs(0, 2, CC, k, i, j)] - coeff * lhs[g.lhs(2, 2, CC, k, i, j)];
                lhs[g.lhs(0, 3, CC, k, i, j)] = lhs[g.lhs(0, 3, CC, k, i, j)] - coeff * lhs[g.lhs(2, 3, CC, k, i, j)];
                lhs[g.lhs(0, 4, CC, k, i, j)] = lhs[g.lhs(0, 4, CC, k, i, j)] - coeff * lhs[g.lhs(2, 4, CC, k, i, j)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let coeff = lhs[g.lhs(1, 2, BB, k, i, j)];
                lhs[g.lhs(1, 3, BB, k, i, j)] = lhs[g.lhs(1, 3, BB, k, i, j)] - coeff * lhs[g.lhs(2, 3, BB, k, i, j)];
                lhs[g.lhs(1, 4, BB, k, i, j)] = lhs[g.lhs(1, 4, BB, k, i, j)] - coeff * lhs[g.lhs(2, 4, BB, k, i, j)];
                lhs[g.lhs(1, 0, CC, k, i, j)] = lhs[g.lhs(1, 0, CC, k, i, j)] - coeff * lhs[g.lhs(2, 0, CC, k, i, j)];
                lhs[g.lhs(1, 1, CC, k, i, j)] = lhs[g.lhs(1, 1, CC, k, i, j)] - coeff * lhs[g.lhs(2, 1, CC, k, i, j)];
                lhs[g.lhs(1, 2, CC, k, i, j)] = lhs[g.lhs(1, 2, CC, k, i, j)] - coeff * lhs[g.lhs(2, 2, CC, k, i, j)];
                lhs[g.lhs(1, 3, CC, k, i, j)] = lhs[g.lhs(1, 3, CC, k, i, j)] - coeff * lhs[g.lhs(2, 3, CC, k, i, j)];
                lhs[g.lhs(1, 4, CC, k, i, j)] = lhs[g.lhs(1, 4, CC, k, i, j)] - coeff * lhs[g.lhs(2, 4, CC, k, i, j)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let coeff = lhs[g.lhs(3, 2, BB, k, i, j)];
                lhs[g.lhs(3, 3, BB, k, i, j)] = lhs[g.lhs(3, 3, BB, k, i, j)] - coeff * lhs[g.lhs(2, 3, BB, k, i, j)];
                lhs[g.lhs(3, 4, BB, k, i, j)] = lhs[g.lhs(3, 4, BB, k, i, j)] - coeff * lhs[g.lhs(2, 4, BB, k, i, j)];
                lhs[g.lhs(3, 0, CC, k, i, j)] = lhs[g.lhs(3, 0, CC, k, i, j)] - coeff * lhs[g.lhs(2, 0, CC, k, i, j)];
                lhs[g.lhs(3, 1, CC, k, i, j)] = lhs[g.lhs(3, 1, CC, k, i, j)] - coeff * lhs[g.lhs(2, 1, CC, k, i, j)];
                lhs[g.lhs(3, 2, CC, k, i, j)] = lhs[g.lhs(3, 2, CC, k, i, j)] - coeff * lhs[g.lhs(2, 2, CC, k, i, j)];
                lhs[g.lhs(3, 3, CC, k, i, j)] = lhs[g.lhs(3, 3, CC, k, i, j)] - coeff * lhs[g.lhs(2, 3, CC, k, i, j)];
                lhs[g.lhs(3, 4, CC, k, i, j)] = lhs[g.lhs(3, 4, CC, k, i, j)] - coeff * lhs[g.lhs(2, 4, CC, k, i, j)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let coeff = lhs[g.lhs(4, 2, BB, k, i, j)];
                lhs[g.lhs(4, 3, BB, k, i, j)] = lhs[g.lhs(4, 3, BB, k, i, j)] - coeff * lhs[g.lhs(2, 3, BB, k, i, j)];
                lhs[g.lhs(4, 4, BB, k, i, j)] = lhs[g.lhs(4, 4, BB, k, i, j)] - coeff * lhs[g.lhs(2, 4, BB, k, i, j)];
                lhs[g.lhs(4, 0, CC, k, i, j)] = lhs[g.lhs(4, 0, CC, k, i, j)] - coeff * lhs[g.lhs(2, 0, CC, k, i, j)];
                lhs[g.lhs(4, 1, CC, k, i, j)] = lhs[g.lhs(4, 1, CC, k, i, j)] - coeff * lhs[g.lhs(2, 1, CC, k, i, j)];
                lhs[g.lhs(4, 2, CC, k, i, j)] = lhs[g.lhs(4, 2, CC, k, i, j)] - coeff * lhs[g.lhs(2, 2, CC, k, i, j)];
                lhs[g.lhs(4, 3, CC, k, i, j)] = lhs[g.lhs(4, 3, CC, k, i, j)] - coeff * lhs[g.lhs(2, 3, CC, k, i, j)];
                lhs[g.lhs(4, 4, CC, k, i, j)] = lhs[g.lhs(4, 4, CC, k, i, j)] - coeff * lhs[g.lhs(2, 4, CC, k, i, j)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(2, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(3, 3, BB, k, i, j)];
                lhs[g.lhs(3, 4, BB, k, i, j)] = lhs[g.lhs(3, 4, BB, k, i, j)] * pivot;
                lhs[g.lhs(3, 0, CC, k, i, j)] = lhs[g.lhs(3, 0, CC, k, i, j)] * pivot;
                lhs[g.lhs(3, 1, CC, k, i, j)] = lhs[g.lhs(3, 1, CC, k, i, j)] * pivot;
                lhs[g.lhs(3, 2, CC, k, i, j)] = lhs[g.lhs(3, 2, CC, k, i, j)] * pivot;
                lhs[g.lhs(3, 3, CC, k, i, j)] = lhs[g.lhs(3, 3, CC, k, i, j)] * pivot;
                lhs[g.lhs(3, 4, CC, k, i, j)] = lhs[g.lhs(3, 4, CC, k, i, j)] * pivot;
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 3, BB, k, i, j)];
                lhs[g.lhs(0, 4, BB, k, i, j)] = lhs[g.lhs(0, 4, BB, k, i, j)] - coeff * lhs[g.lhs(3, 4, BB, k, i, j)];
                lhs[g.lhs(0, 0, CC, k, i, j)] = lhs[g.lhs(0, 0, CC, k, i, j)] - coeff * lhs[g.lhs(3, 0, CC, k, i, j)];
                lhs[g.lhs(0, 1, CC, k, i, j)] = lhs[g.lhs(0, 1, CC, k, i, j)] - coeff * lhs[g.lhs(3, 1, CC, k, i, j)];
                lhs[g.lhs(0, 2, CC, k, i, j)] = lhs[g.lhs(0, 2, CC, k, i, j)] - coeff * lhs[g.lhs(3, 2, CC, k, i, j)];
                lhs[g.lhs(0, 3, CC, k, i, j)] = lhs[g.lhs(0, 3, CC, k, i, j)] - coeff * lhs[g.lhs(3, 3, CC, k, i, j)];
                lhs[g.lhs(0, 4, CC, k, i, j)] = lhs[g.lhs(0, 4, CC, k, i, j)] - coeff * lhs[g.lhs(3, 4, CC, k, i, j)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let coeff = lhs[g.lhs(1, 3, BB, k, i, j)];
                lhs[g.lhs(1, 4, BB, k, i, j)] = lhs[g.lhs(1, 4, BB, k, i, j)] - coeff * lhs[g.lhs(3, 4, BB, k, i, j)];
                lhs[g.lhs(1, 0, CC, k, i, j)] = lhs[g.lhs(1, 0, CC, k, i, j)] - coeff * lhs[g.lhs(3, 0, CC, k, i, j)];
                lhs[g.lhs(1, 1, CC, k, i, j)] = lhs[g.lhs(1, 1, CC, k, i, j)] - coeff * lhs[g.lhs(3, 1, CC, k, i, j)];
                lhs[g.lhs(1, 2, CC, k, i, j)] = lhs[g.lhs(1, 2, CC, k, i, j)] - coeff * lhs[g.lhs(3, 2, CC, k, i, j)];
                lhs[g.lhs(1, 3, CC, k, i, j)] = lhs[g.lhs(1, 3, CC, k, i, j)] - coeff * lhs[g.lhs(3, 3, CC, k, i, j)];
                lhs[g.lhs(1, 4, CC, k, i, j)] = lhs[g.lhs(1, 4, CC, k, i, j)] - coeff * lhs[g.lhs(3, 4, CC, k, i, j)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let coeff = lhs[g.lhs(2, 3, BB, k, i, j)];
                lhs[g.lhs(2, 4, BB, k, i, j)] = lhs[g.lhs(2, 4, BB, k, i, j)] - coeff * lhs[g.lhs(3, 4, BB, k, i, j)];
                lhs[g.lhs(2, 0, CC, k, i, j)] = lhs[g.lhs(2, 0, CC, k, i, j)] - coeff * lhs[g.lhs(3, 0, CC, k, i, j)];
                lhs[g.lhs(2, 1, CC, k, i, j)] = lhs[g.lhs(2, 1, CC, k, i, j)] - coeff * lhs[g.lhs(3, 1, CC, k, i, j)];
                lhs[g.lhs(2, 2, CC, k, i, j)] = lhs[g.lhs(2, 2, CC, k, i, j)] - coeff * lhs[g.lhs(3, 2, CC, k, i, j)];
                lhs[g.lhs(2, 3, CC, k, i, j)] = lhs[g.lhs(2, 3, CC, k, i, j)] - coeff * lhs[g.lhs(3, 3, CC, k, i, j)];
                lhs[g.lhs(2, 4, CC, k, i, j)] = lhs[g.lhs(2, 4, CC, k, i, j)] - coeff * lhs[g.lhs(3, 4, CC, k, i, j)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let coeff = lhs[g.lhs(4, 3, BB, k, i, j)];
                lhs[g.lhs(4, 4, BB, k, i, j)] = lhs[g.lhs(4, 4, BB, k, i, j)] - coeff * lhs[g.lhs(3, 4, BB, k, i, j)];
                lhs[g.lhs(4, 0, CC, k, i, j)] = lhs[g.lhs(4, 0, CC, k, i, j)] - coeff * lhs[g.lhs(3, 0, CC, k, i, j)];
                lhs[g.lhs(4, 1, CC, k, i, j)] = lhs[g.lhs(4, 1, CC, k, i, j)] - coeff * lhs[g.lhs(3, 1, CC, k, i, j)];
                lhs[g.lhs(4, 2, CC, k, i, j)] = lhs[g.lhs(4, 2, CC, k, i, j)] - coeff * lhs[g.lhs(3, 2, CC, k, i, j)];
                lhs[g.lhs(4, 3, CC, k, i, j)] = lhs[g.lhs(4, 3, CC, k, i, j)] - coeff * lhs[g.lhs(3, 3, CC, k, i, j)];
                lhs[g.lhs(4, 4, CC, k, i, j)] = lhs[g.lhs(4, 4, CC, k, i, j)] - coeff * lhs[g.lhs(3, 4, CC, k, i, j)];
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - coeff * rhs[g.at(3, k, j, i)];
                let pivot = 1.00 / lhs[g.lhs(4, 4, BB, k, i, j)];
                lhs[g.lhs(4, 0, CC, k, i, j)] = lhs[g.lhs(4, 0, CC, k, i, j)] * pivot;
                lhs[g.lhs(4, 1, CC, k, i, j)] = lhs[g.lhs(4, 1, CC, k, i, j)] * pivot;
                lhs[g.lhs(4, 2, CC, k, i, j)] = lhs[g.lhs(4, 2, CC, k, i, j)] * pivot;
                lhs[g.lhs(4, 3, CC, k, i, j)] = lhs[g.lhs(4, 3, CC, k, i, j)] * pivot;
                lhs[g.lhs(4, 4, CC, k, i, j)] = lhs[g.lhs(4, 4, CC, k, i, j)] * pivot;
                rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] * pivot;
                let coeff = lhs[g.lhs(0, 4, BB, k, i, j)];
                lhs[g.lhs(0, 0, CC, k, i, j)] = lhs[g.lhs(0, 0, CC, k, i, j)] - coeff * lhs[g.lhs(4, 0, CC, k, i, j)];
                lhs[g.lhs(0, 1, CC, k, i, j)] = lhs[g.lhs(0, 1, CC, k, i, j)] - coeff * lhs[g.lhs(4, 1, CC, k, i, j)];
                lhs[g.lhs(0, 2, CC, k, i, j)] = lhs[g.lhs(0, 2, CC, k, i, j)] - coeff * lhs[g.lhs(4, 2, CC, k, i, j)];
                lhs[g.lhs(0, 3, CC, k, i, j)] = lhs[g.lhs(0, 3, CC, k, i, j)] - coeff * lhs[g.lhs(4, 3, CC, k, i, j)];
                lhs[g.lhs(0, 4, CC, k, i, j)] = lhs[g.lhs(0, 4, CC, k, i, j)] - coeff * lhs[g.lhs(4, 4, CC, k, i, j)];
                rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
                let coeff = lhs[g.lhs(1, 4, BB, k, i, j)];
                lhs[g.lhs(1, 0, CC, k, i, j)] = lhs[g.lhs(1, 0, CC, k, i, j)] - coeff * lhs[g.lhs(4, 0, CC, k, i, j)];
                lhs[g.lhs(1, 1, CC, k, i, j)] = lhs[g.lhs(1, 1, CC, k, i, j)] - coeff * lhs[g.lhs(4, 1, CC, k, i, j)];
                lhs[g.lhs(1, 2, CC, k, i, j)] = lhs[g.lhs(1, 2, CC, k, i, j)] - coeff * lhs[g.lhs(4, 2, CC, k, i, j)];
                lhs[g.lhs(1, 3, CC, k, i, j)] = lhs[g.lhs(1, 3, CC, k, i, j)] - coeff * lhs[g.lhs(4, 3, CC, k, i, j)];
                lhs[g.lhs(1, 4, CC, k, i, j)] = lhs[g.lhs(1, 4, CC, k, i, j)] - coeff * lhs[g.lhs(4, 4, CC, k, i, j)];
                rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
                let coeff = lhs[g.lhs(2, 4, BB, k, i, j)];
                lhs[g.lhs(2, 0, CC, k, i, j)] = lhs[g.lhs(2, 0, CC, k, i, j)] - coeff * lhs[g.lhs(4, 0, CC, k, i, j)];
                lhs[g.lhs(2, 1, CC, k, i, j)] = lhs[g.lhs(2, 1, CC, k, i, j)] - coeff * lhs[g.lhs(4, 1, CC, k, i, j)];
                lhs[g.lhs(2, 2, CC, k, i, j)] = lhs[g.lhs(2, 2, CC, k, i, j)] - coeff * lhs[g.lhs(4, 2, CC, k, i, j)];
                lhs[g.lhs(2, 3, CC, k, i, j)] = lhs[g.lhs(2, 3, CC, k, i, j)] - coeff * lhs[g.lhs(4, 3, CC, k, i, j)];
                lhs[g.lhs(2, 4, CC, k, i, j)] = lhs[g.lhs(2, 4, CC, k, i, j)] - coeff * lhs[g.lhs(4, 4, CC, k, i, j)];
                rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
                let coeff = lhs[g.lhs(3, 4, BB, k, i, j)];
                lhs[g.lhs(3, 0, CC, k, i, j)] = lhs[g.lhs(3, 0, CC, k, i, j)] - coeff * lhs[g.lhs(4, 0, CC, k, i, j)];
                lhs[g.lhs(3, 1, CC, k, i, j)] = lhs[g.lhs(3, 1, CC, k, i, j)] - coeff * lhs[g.lhs(4, 1, CC, k, i, j)];
                lhs[g.lhs(3, 2, CC, k, i, j)] = lhs[g.lhs(3, 2, CC, k, i, j)] - coeff * lhs[g.lhs(4, 2, CC, k, i, j)];
                lhs[g.lhs(3, 3, CC, k, i, j)] = lhs[g.lhs(3, 3, CC, k, i, j)] - coeff * lhs[g.lhs(4, 3, CC, k, i, j)];
                lhs[g.lhs(3, 4, CC, k, i, j)] = lhs[g.lhs(3, 4, CC, k, i, j)] - coeff * lhs[g.lhs(4, 4, CC, k, i, j)];
                rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - coeff * rhs[g.at(4, k, j, i)];
            }
        }
    }
}

/// The zeta elimination's last row: `rhs -= AA rhs` of the row before.
#[acc::parallel(num_gangs(g.gp02), num_workers(4), vector_length(32))]
fn z_solve_last_matvec(rhs: &mut [f64], lhs: &[f64], g: Grid) {
    let Grid { gp02, gp12, k_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=gp12 {
            rhs[g.at(0, k_size, j, i)] = rhs[g.at(0, k_size, j, i)]
                - lhs[g.lhs(0, 0, AA, k_size, i, j)] * rhs[g.at(0, k_size - 1, j, i)]
                - lhs[g.lhs(0, 1, AA, k_size, i, j)] * rhs[g.at(1, k_size - 1, j, i)]
                - lhs[g.lhs(0, 2, AA, k_size, i, j)] * rhs[g.at(2, k_size - 1, j, i)]
                - lhs[g.lhs(0, 3, AA, k_size, i, j)] * rhs[g.at(3, k_size - 1, j, i)]
                - lhs[g.lhs(0, 4, AA, k_size, i, j)] * rhs[g.at(4, k_size - 1, j, i)];
            rhs[g.at(1, k_size, j, i)] = rhs[g.at(1, k_size, j, i)]
                - lhs[g.lhs(1, 0, AA, k_size, i, j)] * rhs[g.at(0, k_size - 1, j, i)]
                - lhs[g.lhs(1, 1, AA, k_size, i, j)] * rhs[g.at(1, k_size - 1, j, i)]
                - lhs[g.lhs(1, 2, AA, k_size, i, j)] * rhs[g.at(2, k_size - 1, j, i)]
                - lhs[g.lhs(1, 3, AA, k_size, i, j)] * rhs[g.at(3, k_size - 1, j, i)]
                - lhs[g.lhs(1, 4, AA, k_size, i, j)] * rhs[g.at(4, k_size - 1, j, i)];
            rhs[g.at(2, k_size, j, i)] = rhs[g.at(2, k_size, j, i)]
                - lhs[g.lhs(2, 0, AA, k_size, i, j)] * rhs[g.at(0, k_size - 1, j, i)]
                - lhs[g.lhs(2, 1, AA, k_size, i, j)] * rhs[g.at(1, k_size - 1, j, i)]
                - lhs[g.lhs(2, 2, AA, k_size, i, j)] * rhs[g.at(2, k_size - 1, j, i)]
                - lhs[g.lhs(2, 3, AA, k_size, i, j)] * rhs[g.at(3, k_size - 1, j, i)]
                - lhs[g.lhs(2, 4, AA, k_size, i, j)] * rhs[g.at(4, k_size - 1, j, i)];
            rhs[g.at(3, k_size, j, i)] = rhs[g.at(3, k_size, j, i)]
                - lhs[g.lhs(3, 0, AA, k_size, i, j)] * rhs[g.at(0, k_size - 1, j, i)]
                - lhs[g.lhs(3, 1, AA, k_size, i, j)] * rhs[g.at(1, k_size - 1, j, i)]
                - lhs[g.lhs(3, 2, AA, k_size, i, j)] * rhs[g.at(2, k_size - 1, j, i)]
                - lhs[g.lhs(3, 3, AA, k_size, i, j)] * rhs[g.at(3, k_size - 1, j, i)]
                - lhs[g.lhs(3, 4, AA, k_size, i, j)] * rhs[g.at(4, k_size - 1, j, i)];
            rhs[g.at(4, k_size, j, i)] = rhs[g.at(4, k_size, j, i)]
                - lhs[g.lhs(4, 0, AA, k_size, i, j)] * rhs[g.at(0, k_size - 1, j, i)]
                - lhs[g.lhs(4, 1, AA, k_size, i, j)] * rhs[g.at(1, k_size - 1, j, i)]
                - lhs[g.lhs(4, 2, AA, k_size, i, j)] * rhs[g.at(2, k_size - 1, j, i)]
                - lhs[g.lhs(4, 3, AA, k_size, i, j)] * rhs[g.at(3, k_size - 1, j, i)]
                - lhs[g.lhs(4, 4, AA, k_size, i, j)] * rhs[g.at(4, k_size - 1, j, i)];
        }
    }
}

/// The zeta elimination's last row: `BB -= AA CC` of the row before.
#[acc::parallel(num_gangs(g.gp12), num_workers(4), vector_length(32))]
fn z_solve_last_matmul(lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp12, k_size, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp02 {
            lhs[g.lhs(0, 0, BB, k_size, i, j)] = lhs[g.lhs(0, 0, BB, k_size, i, j)]
                - lhs[g.lhs(0, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 0, CC, k_size - 1, i, j)];
            lhs[g.lhs(1, 0, BB, k_size, i, j)] = lhs[g.lhs(1, 0, BB, k_size, i, j)]
                - lhs[g.lhs(1, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 0, CC, k_size - 1, i, j)];
            lhs[g.lhs(2, 0, BB, k_size, i, j)] = lhs[g.lhs(2, 0, BB, k_size, i, j)]
                - lhs[g.lhs(2, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 0, CC, k_size - 1, i, j)];
            lhs[g.lhs(3, 0, BB, k_size, i, j)] = lhs[g.lhs(3, 0, BB, k_size, i, j)]
                - lhs[g.lhs(3, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 0, CC, k_size - 1, i, j)];
            lhs[g.lhs(4, 0, BB, k_size, i, j)] = lhs[g.lhs(4, 0, BB, k_size, i, j)]
                - lhs[g.lhs(4, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 0, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 0, CC, k_size - 1, i, j)];
            lhs[g.lhs(0, 1, BB, k_size, i, j)] = lhs[g.lhs(0, 1, BB, k_size, i, j)]
                - lhs[g.lhs(0, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 1, CC, k_size - 1, i, j)];
            lhs[g.lhs(1, 1, BB, k_size, i, j)] = lhs[g.lhs(1, 1, BB, k_size, i, j)]
                - lhs[g.lhs(1, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 1, CC, k_size - 1, i, j)];
            lhs[g.lhs(2, 1, BB, k_size, i, j)] = lhs[g.lhs(2, 1, BB, k_size, i, j)]
                - lhs[g.lhs(2, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 1, CC, k_size - 1, i, j)];
            lhs[g.lhs(3, 1, BB, k_size, i, j)] = lhs[g.lhs(3, 1, BB, k_size, i, j)]
                - lhs[g.lhs(3, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 1, CC, k_size - 1, i, j)];
            lhs[g.lhs(4, 1, BB, k_size, i, j)] = lhs[g.lhs(4, 1, BB, k_size, i, j)]
                - lhs[g.lhs(4, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 1, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 1, CC, k_size - 1, i, j)];
            lhs[g.lhs(0, 2, BB, k_size, i, j)] = lhs[g.lhs(0, 2, BB, k_size, i, j)]
                - lhs[g.lhs(0, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 2, CC, k_size - 1, i, j)];
            lhs[g.lhs(1, 2, BB, k_size, i, j)] = lhs[g.lhs(1, 2, BB, k_size, i, j)]
                - lhs[g.lhs(1, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 2, CC, k_size - 1, i, j)];
            lhs[g.lhs(2, 2, BB, k_size, i, j)] = lhs[g.lhs(2, 2, BB, k_size, i, j)]
                - lhs[g.lhs(2, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 2, CC, k_size - 1, i, j)];
            lhs[g.lhs(3, 2, BB, k_size, i, j)] = lhs[g.lhs(3, 2, BB, k_size, i, j)]
                - lhs[g.lhs(3, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 2, CC, k_size - 1, i, j)];
            lhs[g.lhs(4, 2, BB, k_size, i, j)] = lhs[g.lhs(4, 2, BB, k_size, i, j)]
                - lhs[g.lhs(4, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 2, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 2, CC, k_size - 1, i, j)];
            lhs[g.lhs(0, 3, BB, k_size, i, j)] = lhs[g.lhs(0, 3, BB, k_size, i, j)]
                - lhs[g.lhs(0, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 3, CC, k_size - 1, i, j)];
            lhs[g.lhs(1, 3, BB, k_size, i, j)] = lhs[g.lhs(1, 3, BB, k_size, i, j)]
                - lhs[g.lhs(1, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 3, CC, k_size - 1, i, j)];
            lhs[g.lhs(2, 3, BB, k_size, i, j)] = lhs[g.lhs(2, 3, BB, k_size, i, j)]
                - lhs[g.lhs(2, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 3, CC, k_size - 1, i, j)];
            lhs[g.lhs(3, 3, BB, k_size, i, j)] = lhs[g.lhs(3, 3, BB, k_size, i, j)]
                - lhs[g.lhs(3, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 3, CC, k_size - 1, i, j)];
            lhs[g.lhs(4, 3, BB, k_size, i, j)] = lhs[g.lhs(4, 3, BB, k_size, i, j)]
                - lhs[g.lhs(4, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 3, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 3, CC, k_size - 1, i, j)];
            lhs[g.lhs(0, 4, BB, k_size, i, j)] = lhs[g.lhs(0, 4, BB, k_size, i, j)]
                - lhs[g.lhs(0, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(0, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 4, CC, k_size - 1, i, j)];
            lhs[g.lhs(1, 4, BB, k_size, i, j)] = lhs[g.lhs(1, 4, BB, k_size, i, j)]
                - lhs[g.lhs(1, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(1, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 4, CC, k_size - 1, i, j)];
            lhs[g.lhs(2, 4, BB, k_size, i, j)] = lhs[g.lhs(2, 4, BB, k_size, i, j)]
                - lhs[g.lhs(2, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(2, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 4, CC, k_size - 1, i, j)];
            lhs[g.lhs(3, 4, BB, k_size, i, j)] = lhs[g.lhs(3, 4, BB, k_size, i, j)]
                - lhs[g.lhs(3, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(3, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 4, CC, k_size - 1, i, j)];
            lhs[g.lhs(4, 4, BB, k_size, i, j)] = lhs[g.lhs(4, 4, BB, k_size, i, j)]
                - lhs[g.lhs(4, 0, AA, k_size, i, j)] * lhs[g.lhs(0, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 1, AA, k_size, i, j)] * lhs[g.lhs(1, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 2, AA, k_size, i, j)] * lhs[g.lhs(2, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 3, AA, k_size, i, j)] * lhs[g.lhs(3, 4, CC, k_size - 1, i, j)]
                - lhs[g.lhs(4, 4, AA, k_size, i, j)] * lhs[g.lhs(4, 4, CC, k_size - 1, i, j)];
        }
    }
}

/// The zeta elimination's last row: `binvrhs` of its diagonal block.
#[acc::parallel(num_gangs(g.gp02), num_workers(4), vector_length(32))]
fn z_solve_last_binvrhs(rhs: &mut [f64], lhs: &mut [f64], g: Grid) {
    let Grid { gp02, gp12, k_size, .. } = g;
    #[acc::r#loop(gang)]
    for i in 1..=gp02 {
        #[acc::r#loop(worker, vector)]
        for j in 1..=gp12 {
            let pivot = 1.00 / lhs[g.lhs(0, 0, BB, k_size, i, j)];
            lhs[g.lhs(0, 1, BB, k_size, i, j)] = lhs[g.lhs(0, 1, BB, k_size, i, j)] * pivot;
            lhs[g.lhs(0, 2, BB, k_size, i, j)] = lhs[g.lhs(0, 2, BB, k_size, i, j)] * pivot;
            lhs[g.lhs(0, 3, BB, k_size, i, j)] = lhs[g.lhs(0, 3, BB, k_size, i, j)] * pivot;
            lhs[g.lhs(0, 4, BB, k_size, i, j)] = lhs[g.lhs(0, 4, BB, k_size, i, j)] * pivot;
            rhs[g.at(0, k_size, j, i)] = rhs[g.at(0, k_size, j, i)] * pivot;
            let coeff = lhs[g.lhs(1, 0, BB, k_size, i, j)];
            lhs[g.lhs(1, 1, BB, k_size, i, j)] = lhs[g.lhs(1, 1, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 1, BB, k_size, i, j)];
            lhs[g.lhs(1, 2, BB, k_size, i, j)] = lhs[g.lhs(1, 2, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 2, BB, k_size, i, j)];
            lhs[g.lhs(1, 3, BB, k_size, i, j)] = lhs[g.lhs(1, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 3, BB, k_size, i, j)];
            lhs[g.lhs(1, 4, BB, k_size, i, j)] = lhs[g.lhs(1, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 4, BB, k_size, i, j)];
            rhs[g.at(1, k_size, j, i)] = rhs[g.at(1, k_size, j, i)] - coeff * rhs[g.at(0, k_size, j, i)];
            let coeff = lhs[g.lhs(2, 0, BB, k_size, i, j)];
            lhs[g.lhs(2, 1, BB, k_size, i, j)] = lhs[g.lhs(2, 1, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 1, BB, k_size, i, j)];
            lhs[g.lhs(2, 2, BB, k_size, i, j)] = lhs[g.lhs(2, 2, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 2, BB, k_size, i, j)];
            lhs[g.lhs(2, 3, BB, k_size, i, j)] = lhs[g.lhs(2, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 3, BB, k_size, i, j)];
            lhs[g.lhs(2, 4, BB, k_size, i, j)] = lhs[g.lhs(2, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 4, BB, k_size, i, j)];
            rhs[g.at(2, k_size, j, i)] = rhs[g.at(2, k_size, j, i)] - coeff * rhs[g.at(0, k_size, j, i)];
            let coeff = lhs[g.lhs(3, 0, BB, k_size, i, j)];
            lhs[g.lhs(3, 1, BB, k_size, i, j)] = lhs[g.lhs(3, 1, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 1, BB, k_size, i, j)];
            lhs[g.lhs(3, 2, BB, k_size, i, j)] = lhs[g.lhs(3, 2, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 2, BB, k_size, i, j)];
            lhs[g.lhs(3, 3, BB, k_size, i, j)] = lhs[g.lhs(3, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 3, BB, k_size, i, j)];
            lhs[g.lhs(3, 4, BB, k_size, i, j)] = lhs[g.lhs(3, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 4, BB, k_size, i, j)];
            rhs[g.at(3, k_size, j, i)] = rhs[g.at(3, k_size, j, i)] - coeff * rhs[g.at(0, k_size, j, i)];
            let coeff = lhs[g.lhs(4, 0, BB, k_size, i, j)];
            lhs[g.lhs(4, 1, BB, k_size, i, j)] = lhs[g.lhs(4, 1, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 1, BB, k_size, i, j)];
            lhs[g.lhs(4, 2, BB, k_size, i, j)] = lhs[g.lhs(4, 2, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 2, BB, k_size, i, j)];
            lhs[g.lhs(4, 3, BB, k_size, i, j)] = lhs[g.lhs(4, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 3, BB, k_size, i, j)];
            lhs[g.lhs(4, 4, BB, k_size, i, j)] = lhs[g.lhs(4, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(0, 4, BB, k_size, i, j)];
            rhs[g.at(4, k_size, j, i)] = rhs[g.at(4, k_size, j, i)] - coeff * rhs[g.at(0, k_size, j, i)];
            let pivot = 1.00 / lhs[g.lhs(1, 1, BB, k_size, i, j)];
            lhs[g.lhs(1, 2, BB, k_size, i, j)] = lhs[g.lhs(1, 2, BB, k_size, i, j)] * pivot;
            lhs[g.lhs(1, 3, BB, k_size, i, j)] = lhs[g.lhs(1, 3, BB, k_size, i, j)] * pivot;
            lhs[g.lhs(1, 4, BB, k_size, i, j)] = lhs[g.lhs(1, 4, BB, k_size, i, j)] * pivot;
            rhs[g.at(1, k_size, j, i)] = rhs[g.at(1, k_size, j, i)] * pivot;
            let coeff = lhs[g.lhs(0, 1, BB, k_size, i, j)];
            lhs[g.lhs(0, 2, BB, k_size, i, j)] = lhs[g.lhs(0, 2, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 2, BB, k_size, i, j)];
            lhs[g.lhs(0, 3, BB, k_size, i, j)] = lhs[g.lhs(0, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 3, BB, k_size, i, j)];
            lhs[g.lhs(0, 4, BB, k_size, i, j)] = lhs[g.lhs(0, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 4, BB, k_size, i, j)];
            rhs[g.at(0, k_size, j, i)] = rhs[g.at(0, k_size, j, i)] - coeff * rhs[g.at(1, k_size, j, i)];
            let coeff = lhs[g.lhs(2, 1, BB, k_size, i, j)];
            lhs[g.lhs(2, 2, BB, k_size, i, j)] = lhs[g.lhs(2, 2, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 2, BB, k_size, i, j)];
            lhs[g.lhs(2, 3, BB, k_size, i, j)] = lhs[g.lhs(2, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 3, BB, k_size, i, j)];
            lhs[g.lhs(2, 4, BB, k_size, i, j)] = lhs[g.lhs(2, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 4, BB, k_size, i, j)];
            rhs[g.at(2, k_size, j, i)] = rhs[g.at(2, k_size, j, i)] - coeff * rhs[g.at(1, k_size, j, i)];
            let coeff = lhs[g.lhs(3, 1, BB, k_size, i, j)];
            lhs[g.lhs(3, 2, BB, k_size, i, j)] = lhs[g.lhs(3, 2, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 2, BB, k_size, i, j)];
            lhs[g.lhs(3, 3, BB, k_size, i, j)] = lhs[g.lhs(3, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 3, BB, k_size, i, j)];
            lhs[g.lhs(3, 4, BB, k_size, i, j)] = lhs[g.lhs(3, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 4, BB, k_size, i, j)];
            rhs[g.at(3, k_size, j, i)] = rhs[g.at(3, k_size, j, i)] - coeff * rhs[g.at(1, k_size, j, i)];
            let coeff = lhs[g.lhs(4, 1, BB, k_size, i, j)];
            lhs[g.lhs(4, 2, BB, k_size, i, j)] = lhs[g.lhs(4, 2, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 2, BB, k_size, i, j)];
            lhs[g.lhs(4, 3, BB, k_size, i, j)] = lhs[g.lhs(4, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 3, BB, k_size, i, j)];
            lhs[g.lhs(4, 4, BB, k_size, i, j)] = lhs[g.lhs(4, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(1, 4, BB, k_size, i, j)];
            rhs[g.at(4, k_size, j, i)] = rhs[g.at(4, k_size, j, i)] - coeff * rhs[g.at(1, k_size, j, i)];
            let pivot = 1.00 / lhs[g.lhs(2, 2, BB, k_size, i, j)];
            lhs[g.lhs(2, 3, BB, k_size, i, j)] = lhs[g.lhs(2, 3, BB, k_size, i, j)] * pivot;
            lhs[g.lhs(2, 4, BB, k_size, i, j)] = lhs[g.lhs(2, 4, BB, k_size, i, j)] * pivot;
            rhs[g.at(2, k_size, j, i)] = rhs[g.at(2, k_size, j, i)] * pivot;
            let coeff = lhs[g.lhs(0, 2, BB, k_size, i, j)];
            lhs[g.lhs(0, 3, BB, k_size, i, j)] = lhs[g.lhs(0, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(2, 3, BB, k_size, i, j)];
            lhs[g.lhs(0, 4, BB, k_size, i, j)] = lhs[g.lhs(0, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(2, 4, BB, k_size, i, j)];
            rhs[g.at(0, k_size, j, i)] = rhs[g.at(0, k_size, j, i)] - coeff * rhs[g.at(2, k_size, j, i)];
            let coeff = lhs[g.lhs(1, 2, BB, k_size, i, j)];
            lhs[g.lhs(1, 3, BB, k_size, i, j)] = lhs[g.lhs(1, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(2, 3, BB, k_size, i, j)];
            lhs[g.lhs(1, 4, BB, k_size, i, j)] = lhs[g.lhs(1, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(2, 4, BB, k_size, i, j)];
            rhs[g.at(1, k_size, j, i)] = rhs[g.at(1, k_size, j, i)] - coeff * rhs[g.at(2, k_size, j, i)];
            let coeff = lhs[g.lhs(3, 2, BB, k_size, i, j)];
            lhs[g.lhs(3, 3, BB, k_size, i, j)] = lhs[g.lhs(3, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(2, 3, BB, k_size, i, j)];
            lhs[g.lhs(3, 4, BB, k_size, i, j)] = lhs[g.lhs(3, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(2, 4, BB, k_size, i, j)];
            rhs[g.at(3, k_size, j, i)] = rhs[g.at(3, k_size, j, i)] - coeff * rhs[g.at(2, k_size, j, i)];
            let coeff = lhs[g.lhs(4, 2, BB, k_size, i, j)];
            lhs[g.lhs(4, 3, BB, k_size, i, j)] = lhs[g.lhs(4, 3, BB, k_size, i, j)] - coeff * lhs[g.lhs(2, 3, BB, k_size, i, j)];
            lhs[g.lhs(4, 4, BB, k_size, i, j)] = lhs[g.lhs(4, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(2, 4, BB, k_size, i, j)];
            rhs[g.at(4, k_size, j, i)] = rhs[g.at(4, k_size, j, i)] - coeff * rhs[g.at(2, k_size, j, i)];
            let pivot = 1.00 / lhs[g.lhs(3, 3, BB, k_size, i, j)];
            lhs[g.lhs(3, 4, BB, k_size, i, j)] = lhs[g.lhs(3, 4, BB, k_size, i, j)] * pivot;
            rhs[g.at(3, k_size, j, i)] = rhs[g.at(3, k_size, j, i)] * pivot;
            let coeff = lhs[g.lhs(0, 3, BB, k_size, i, j)];
            lhs[g.lhs(0, 4, BB, k_size, i, j)] = lhs[g.lhs(0, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(3, 4, BB, k_size, i, j)];
            rhs[g.at(0, k_size, j, i)] = rhs[g.at(0, k_size, j, i)] - coeff * rhs[g.at(3, k_size, j, i)];
            let coeff = lhs[g.lhs(1, 3, BB, k_size, i, j)];
            lhs[g.lhs(1, 4, BB, k_size, i, j)] = lhs[g.lhs(1, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(3, 4, BB, k_size, i, j)];
            rhs[g.at(1, k_size, j, i)] = rhs[g.at(1, k_size, j, i)] - coeff * rhs[g.at(3, k_size, j, i)];
            let coeff = lhs[g.lhs(2, 3, BB, k_size, i, j)];
            lhs[g.lhs(2, 4, BB, k_size, i, j)] = lhs[g.lhs(2, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(3, 4, BB, k_size, i, j)];
            rhs[g.at(2, k_size, j, i)] = rhs[g.at(2, k_size, j, i)] - coeff * rhs[g.at(3, k_size, j, i)];
            let coeff = lhs[g.lhs(4, 3, BB, k_size, i, j)];
            lhs[g.lhs(4, 4, BB, k_size, i, j)] = lhs[g.lhs(4, 4, BB, k_size, i, j)] - coeff * lhs[g.lhs(3, 4, BB, k_size, i, j)];
            rhs[g.at(4, k_size, j, i)] = rhs[g.at(4, k_size, j, i)] - coeff * rhs[g.at(3, k_size, j, i)];
            let pivot = 1.00 / lhs[g.lhs(4, 4, BB, k_size, i, j)];
            rhs[g.at(4, k_size, j, i)] = rhs[g.at(4, k_size, j, i)] * pivot;
            let coeff = lhs[g.lhs(0, 4, BB, k_size, i, j)];
            rhs[g.at(0, k_size, j, i)] = rhs[g.at(0, k_size, j, i)] - coeff * rhs[g.at(4, k_size, j, i)];
            let coeff = lhs[g.lhs(1, 4, BB, k_size, i, j)];
            rhs[g.at(1, k_size, j, i)] = rhs[g.at(1, k_size, j, i)] - coeff * rhs[g.at(4, k_size, j, i)];
            let coeff = lhs[g.lhs(2, 4, BB, k_size, i, j)];
            rhs[g.at(2, k_size, j, i)] = rhs[g.at(2, k_size, j, i)] - coeff * rhs[g.at(4, k_size, j, i)];
            let coeff = lhs[g.lhs(3, 4, BB, k_size, i, j)];
            rhs[g.at(3, k_size, j, i)] = rhs[g.at(3, k_size, j, i)] - coeff * rhs[g.at(4, k_size, j, i)];
        }
    }
}

/// The zeta back substitution at `k`: `rhs -= CC rhs` of the next row.
#[acc::parallel(num_gangs(g.gp12), num_workers(4), vector_length(32))]
fn z_solve_back(rhs: &mut [f64], lhs: &[f64], g: Grid, k: usize) {
    let Grid { gp02, gp12, .. } = g;
    #[acc::r#loop(gang)]
    for j in 1..=gp12 {
        #[acc::r#loop(worker, vector)]
        for i in 1..=gp02 {
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 0, CC, k, i, j)] * rhs[g.at(0, k + 1, j, i)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 1, CC, k, i, j)] * rhs[g.at(1, k + 1, j, i)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 2, CC, k, i, j)] * rhs[g.at(2, k + 1, j, i)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 3, CC, k, i, j)] * rhs[g.at(3, k + 1, j, i)];
            rhs[g.at(0, k, j, i)] = rhs[g.at(0, k, j, i)] - lhs[g.lhs(0, 4, CC, k, i, j)] * rhs[g.at(4, k + 1, j, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 0, CC, k, i, j)] * rhs[g.at(0, k + 1, j, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 1, CC, k, i, j)] * rhs[g.at(1, k + 1, j, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 2, CC, k, i, j)] * rhs[g.at(2, k + 1, j, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 3, CC, k, i, j)] * rhs[g.at(3, k + 1, j, i)];
            rhs[g.at(1, k, j, i)] = rhs[g.at(1, k, j, i)] - lhs[g.lhs(1, 4, CC, k, i, j)] * rhs[g.at(4, k + 1, j, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 0, CC, k, i, j)] * rhs[g.at(0, k + 1, j, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 1, CC, k, i, j)] * rhs[g.at(1, k + 1, j, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 2, CC, k, i, j)] * rhs[g.at(2, k + 1, j, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 3, CC, k, i, j)] * rhs[g.at(3, k + 1, j, i)];
            rhs[g.at(2, k, j, i)] = rhs[g.at(2, k, j, i)] - lhs[g.lhs(2, 4, CC, k, i, j)] * rhs[g.at(4, k + 1, j, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 0, CC, k, i, j)] * rhs[g.at(0, k + 1, j, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 1, CC, k, i, j)] * rhs[g.at(1, k + 1, j, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 2, CC, k, i, j)] * rhs[g.at(2, k + 1, j, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 3, CC, k, i, j)] * rhs[g.at(3, k + 1, j, i)];
            rhs[g.at(3, k, j, i)] = rhs[g.at(3, k, j, i)] - lhs[g.lhs(3, 4, CC, k, i, j)] * rhs[g.at(4, k + 1, j, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 0, CC, k, i, j)] * rhs[g.at(0, k + 1, j, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 1, CC, k, i, j)] * rhs[g.at(1, k + 1, j, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 2, CC, k, i, j)] * rhs[g.at(2, k + 1, j, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 3, CC, k, i, j)] * rhs[g.at(3, k + 1, j, i)];
            rhs[g.at(4, k, j, i)] = rhs[g.at(4, k, j, i)] - lhs[g.lhs(4, 4, CC, k, i, j)] * rhs[g.at(4, k + 1, j, i)];
        }
    }
}

/// `u += rhs` over the interior.
#[acc::parallel(num_gangs(g.gp22), num_workers(4), vector_length(32))]
fn add(u: &mut [f64], rhs: &[f64], g: Grid) {
    let Grid { gp02, gp12, gp22, .. } = g;
    #[acc::r#loop(gang)]
    for k in 1..=gp22 {
        #[acc::r#loop(worker)]
        for j in 1..=gp12 {
            #[acc::r#loop(vector)]
            for i in 1..=gp02 {
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
    square: &'a mut [f64],
    fjac: &'a mut [f64],
    njac: &'a mut [f64],
    lhs: &'a mut [f64],
}

/// NPB's `compute_rhs`.
fn compute_rhs(f: &mut Fields, g: Grid, cs: Consts) {
    rhs_init(f.u, f.rhs, f.forcing, f.us, f.vs, f.ws, f.qs, f.rho_i, f.square, g);
    rhs_x(f.u, f.rhs, f.us, f.vs, f.ws, f.qs, f.rho_i, f.square, g, cs);
    rhs_y(f.u, f.rhs, f.us, f.vs, f.ws, f.qs, f.rho_i, f.square, g, cs);
    rhs_z(f.u, f.rhs, f.us, f.vs, f.ws, f.qs, f.rho_i, f.square, g, cs);
    rhs_dt(f.rhs, g, cs);
}

fn x_solve(f: &mut Fields, g: Grid, cs: Consts) {
    x_solve_jacobians(f.u, f.qs, f.rho_i, f.square, f.fjac, f.njac, g, cs);
    x_solve_lhsinit(f.lhs, g);
    x_solve_lhs(f.lhs, f.fjac, f.njac, g, cs);
    x_solve_first(f.rhs, f.lhs, g);
    x_solve_forward(f.rhs, f.lhs, g);
    x_solve_last_matvec(f.rhs, f.lhs, g);
    x_solve_last_matmul(f.lhs, g);
    x_solve_last_binvrhs(f.rhs, f.lhs, g);
    for i in (0..g.i_size).rev() {
        x_solve_back(f.rhs, f.lhs, g, i);
    }
}

fn y_solve(f: &mut Fields, g: Grid, cs: Consts) {
    y_solve_jacobians(f.u, f.qs, f.rho_i, f.square, f.fjac, f.njac, g, cs);
    y_solve_lhsinit(f.lhs, g);
    y_solve_lhs(f.lhs, f.fjac, f.njac, g, cs);
    y_solve_first(f.rhs, f.lhs, g);
    y_solve_forward(f.rhs, f.lhs, g);
    y_solve_last_matvec(f.rhs, f.lhs, g);
    y_solve_last_matmul(f.lhs, g);
    y_solve_last_binvrhs(f.rhs, f.lhs, g);
    for j in (0..g.j_size).rev() {
        y_solve_back(f.rhs, f.lhs, g, j);
    }
}

fn z_solve(f: &mut Fields, g: Grid, cs: Consts) {
    z_solve_jacobians(f.u, f.qs, f.square, f.fjac, f.njac, g, cs);
    z_solve_lhsinit(f.lhs, g);
    z_solve_lhs(f.lhs, f.fjac, f.njac, g, cs);
    z_solve_first(f.rhs, f.lhs, g);
    z_solve_forward(f.rhs, f.lhs, g);
    z_solve_last_matvec(f.rhs, f.lhs, g);
    z_solve_last_matmul(f.lhs, g);
    z_solve_last_binvrhs(f.rhs, f.lhs, g);
    for k in (0..g.k_size).rev() {
        z_solve_back(f.rhs, f.lhs, g, k);
    }
}

/// One time step: NPB's `adi`.
fn adi(f: &mut Fields, g: Grid, cs: Consts) {
    compute_rhs(f, g, cs);
    x_solve(f, g, cs);
    y_solve(f, g, cs);
    z_solve(f, g, cs);
    add(f.u, f.rhs, g);
}

pub fn run(class: Class) -> Report {
    let pr = params(class);
    let g = Grid::new(pr.n);
    let cs = Consts::new(&g, pr.dt);
    println!("\n\n NAS Parallel Benchmarks (NPB3.3, acc) - BT Benchmark\n");
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
    let mut square = vec![0.0; g.len(1)];
    let mut fjac = vec![0.0; g.jac_len()];
    let mut njac = vec![0.0; g.jac_len()];
    let mut lhs = vec![0.0; g.lhs_len()];
    let (xce, xcr, time) = acc::data!(create(forcing, rho_i, u, us, vs, ws, square, qs, rhs, fjac, njac, lhs) {
        initialize(&mut u, &g, &cs);
        acc::update!(device(u));
        exact_rhs(&mut forcing, &g, &cs);
        acc::update!(device(forcing));
        let mut f = Fields {
            u: &mut u,
            rhs: &mut rhs,
            forcing: &forcing,
            us: &mut us,
            vs: &mut vs,
            ws: &mut ws,
            qs: &mut qs,
            rho_i: &mut rho_i,
            square: &mut square,
            fjac: &mut fjac,
            njac: &mut njac,
            lhs: &mut lhs,
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
        timer.stop();
        acc::update!(host(f.u));
        let xce = error_norm(f.u, &g, &cs);
        compute_rhs(&mut f, g, cs);
        acc::update!(host(f.rhs));
        (xce, rhs_norm(f.rhs, &g).map(|r| r / pr.dt), timer.read())
    });
    let verified = verify(&class.to_string(), (&pr.xcr, &pr.xce), &xcr, &xce);
    let n3 = (g.gp0 * g.gp1 * g.gp2) as f64;
    let navg = (g.gp0 + g.gp1 + g.gp2) as f64 / 3.0;
    let flops = pr.niter as f64 * (3478.8 * n3 - 17655.7 * (navg * navg) + 28023.7 * navg);
    Report {
        name: "BT",
        class,
        size: Size::Grid(g.gp0 as u32, g.gp1 as u32, g.gp2 as u32),
        iterations: pr.niter,
        time,
        mops: if time != 0.0 { flops / time / 1.0e6 } else { 0.0 },
        optype: "          floating point",
        verified,
    }
}
