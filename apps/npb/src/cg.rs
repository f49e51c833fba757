//! CG, the conjugate gradient benchmark: the smallest eigenvalue of a large sparse symmetric
//! positive definite matrix by inverse power iteration, each step solving `A z = x` with 25
//! unpreconditioned CG iterations.
//!
//! As NPB-ACC's `cg.c` writes it: the matrix (CSR: `rowstr`, `colidx`, `a`) is copied in and
//! the vectors created in one data region around the iterations; the matrix-vector product
//! is a gang per row with the row's sum over workers and vectors; the vector updates are
//! `kernels` loops of 128-thread gangs, the dot products `gang worker vector` reductions over
//! 4 x 32-thread gangs.

use crate::class::Class;
use crate::randdp::randlc;
use crate::report::{sci, Report, Size};
use crate::timer::Timer;

/// A class's problem: order `na`, `nonzer` nonzeros per generated vector, `niter` power
/// iterations, the eigenvalue `shift`, and NPB's reference `zeta`.
struct Params {
    na: usize,
    nonzer: usize,
    niter: u32,
    shift: f64,
    zeta: f64,
}

fn params(class: Class) -> Params {
    let (na, nonzer, niter, shift, zeta) = match class {
        Class::S => (1400, 7, 15, 10.0, 8.5971775078648),
        Class::W => (7000, 8, 15, 12.0, 10.362595087124),
        Class::A => (14000, 11, 15, 20.0, 17.130235054029),
        Class::B => (75000, 13, 75, 60.0, 22.712745482631),
        Class::C => (150000, 15, 75, 110.0, 28.973605592845),
        Class::D => (1500000, 21, 100, 500.0, 52.514532105794),
    };
    Params { na, nonzer, niter, shift, zeta }
}

const RCOND: f64 = 1.0e-1;
const EPSILON: f64 = 1.0e-10;
const CGITMAX: usize = 25;

#[acc::kernels]
fn fill(x: &mut [f64], v: f64, n: usize) {
    #[acc::r#loop(gang(n.div_ceil(128)), vector(128))]
    for i in 0..n {
        x[i] = v;
    }
}

#[acc::kernels]
fn zero(q: &mut [f64], z: &mut [f64], r: &mut [f64], p: &mut [f64], n: usize) {
    #[acc::r#loop(gang(n.div_ceil(128)), vector(128))]
    for j in 0..n {
        q[j] = 0.0;
        z[j] = 0.0;
        r[j] = 0.0;
        p[j] = 0.0;
    }
}

/// `x = s z`.
#[acc::kernels]
fn scale(x: &mut [f64], z: &[f64], s: f64, n: usize) {
    #[acc::r#loop(gang(n.div_ceil(128)), vector(128))]
    for j in 0..n {
        x[j] = s * z[j];
    }
}

#[acc::parallel(num_gangs(n.div_ceil(128)), num_workers(4), vector_length(32))]
fn dot(x: &[f64], y: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, worker, vector, reduction(+: s))]
    for j in 0..n {
        s += x[j] * y[j];
    }
    s
}

/// `(x . z, z . z)`.
#[acc::parallel(num_gangs(n.div_ceil(128)), num_workers(4), vector_length(32))]
fn norms(x: &[f64], z: &[f64], n: usize) -> (f64, f64) {
    let mut norm_temp1 = 0.0;
    let mut norm_temp2 = 0.0;
    #[acc::r#loop(gang, worker, vector, reduction(+: norm_temp1, norm_temp2))]
    for j in 0..n {
        norm_temp1 += x[j] * z[j];
        norm_temp2 += z[j] * z[j];
    }
    (norm_temp1, norm_temp2)
}

/// `|x - r|^2`.
#[acc::parallel(num_gangs(n.div_ceil(128)), num_workers(4), vector_length(32))]
fn dist2(x: &[f64], r: &[f64], n: usize) -> f64 {
    let mut sum = 0.0;
    #[acc::r#loop(gang, worker, vector, reduction(+: sum))]
    for j in 0..n {
        let d = x[j] - r[j];
        sum += d * d;
    }
    sum
}

/// `q = A p` over the `n` rows: a gang per row.
#[acc::parallel(num_gangs(n), num_workers(4), vector_length(32))]
fn spmv(rowstr: &[i32], colidx: &[i32], a: &[f64], p: &[f64], q: &mut [f64], n: usize) {
    #[acc::r#loop(gang)]
    for j in 0..n {
        let mut sum = 0.0;
        #[acc::r#loop(worker, vector, reduction(+: sum))]
        for k in rowstr[j] as usize..rowstr[j + 1] as usize {
            sum += a[k] * p[colidx[k] as usize];
        }
        q[j] = sum;
    }
}

#[acc::kernels]
fn cg_start(q: &mut [f64], z: &mut [f64], r: &mut [f64], p: &mut [f64], x: &[f64], n: usize) {
    #[acc::r#loop(gang(n.div_ceil(128)), vector(128), independent)]
    for j in 0..n {
        q[j] = 0.0;
        z[j] = 0.0;
        r[j] = x[j];
        p[j] = r[j];
    }
}

/// `z += alpha p`, `r -= alpha q`.
#[acc::kernels]
fn step_zr(z: &mut [f64], r: &mut [f64], p: &[f64], q: &[f64], alpha: f64, n: usize) {
    #[acc::r#loop(gang(n.div_ceil(1024)), vector(1024), independent)]
    for j in 0..n {
        z[j] += alpha * p[j];
        r[j] -= alpha * q[j];
    }
}

/// `p = r + beta p`.
#[acc::kernels]
fn step_p(p: &mut [f64], r: &[f64], beta: f64, n: usize) {
    #[acc::r#loop(gang(n.div_ceil(128)), vector(128), independent)]
    for j in 0..n {
        p[j] = r[j] + beta * p[j];
    }
}

/// The matrix in CSR form: row `j` is `a[rowstr[j]..rowstr[j + 1]]` at columns `colidx[..]`.
struct Matrix<'a> {
    rowstr: &'a [i32],
    colidx: &'a [i32],
    a: &'a [f64],
}

/// The vectors of the iteration, each `na + 2` long.
struct Vectors<'a> {
    x: &'a mut [f64],
    z: &'a mut [f64],
    p: &'a mut [f64],
    q: &'a mut [f64],
    r: &'a mut [f64],
}

/// 25 CG iterations on `A z = x`; returns `|x - A z|`. The arrays are present.
fn conj_grad(m: &Matrix, v: &mut Vectors, n: usize) -> f64 {
    let Vectors { x, z, p, q, r } = v;
    cg_start(q, z, r, p, x, n);
    let mut rho = dot(r, r, n);
    for _ in 0..CGITMAX {
        spmv(m.rowstr, m.colidx, m.a, p, q, n);
        let d = dot(p, q, n);
        let alpha = rho / d;
        let rho0 = rho;
        step_zr(z, r, p, q, alpha, n);
        rho = dot(r, r, n);
        let beta = rho / rho0;
        step_p(p, r, beta, n);
    }
    // The residual norm explicitly: |x - A z|.
    spmv(m.rowstr, m.colidx, m.a, z, r, n);
    dist2(x, r, n).sqrt()
}

pub fn run(class: Class) -> Report {
    let pr = params(class);
    let na = pr.na;
    let mut init = Timer::new();
    init.start();
    println!("\n\n NAS Parallel Benchmarks (NPB3.3, acc) - CG Benchmark\n");
    println!(" Size: {na:11}");
    println!(" Iterations: {:5}", pr.niter);
    println!();

    let mut rng = Rng { tran: 314159265.0, amult: 1220703125.0 };
    rng.next();
    let (rowstr, colidx, a) = makea(na, pr.nonzer, pr.shift, &mut rng);
    let mut x = vec![0.0; na + 2];
    let mut z = vec![0.0; na + 2];
    let mut p = vec![0.0; na + 2];
    let mut q = vec![0.0; na + 2];
    let mut r = vec![0.0; na + 2];
    let mut bench = Timer::new();
    let mut zeta = 0.0;
    acc::data!(copyin(colidx, a, rowstr), create(x, z, p, q, r) {
        fill(&mut x, 1.0, na + 1);
        zero(&mut q, &mut z, &mut r, &mut p, na);
        let m = Matrix { rowstr: &rowstr, colidx: &colidx, a: &a };
        let mut v = Vectors { x: &mut x, z: &mut z, p: &mut p, q: &mut q, r: &mut r };
        // One iteration untimed, to touch all code and data.
        conj_grad(&m, &mut v, na);
        let norm_temp2 = dot(v.z, v.z, na);
        scale(v.x, v.z, 1.0 / norm_temp2.sqrt(), na);
        fill(v.x, 1.0, na + 1);
        init.stop();
        println!(" Initialization time = {:15.3} seconds", init.read());

        bench.start();
        for it in 1..=pr.niter {
            let rnorm = conj_grad(&m, &mut v, na);
            let (norm_temp1, norm_temp2) = norms(v.x, v.z, na);
            zeta = pr.shift + 1.0 / norm_temp1;
            if it == 1 {
                println!("\n   iteration           ||r||                 zeta");
            }
            println!("    {it:5}       {:>20}{zeta:20.13}", sci(rnorm, 14));
            scale(v.x, v.z, 1.0 / norm_temp2.sqrt(), na);
        }
        bench.stop();
    });
    let t = bench.read();
    println!(" Benchmark completed");
    let err = (zeta - pr.zeta).abs() / pr.zeta;
    let verified = err <= EPSILON;
    if verified {
        println!(" VERIFICATION SUCCESSFUL");
        println!(" Zeta is    {:>20}", sci(zeta, 13));
        println!(" Error is   {:>20}", sci(err, 13));
    } else {
        println!(" VERIFICATION FAILED");
        println!(" Zeta                {:>20}", sci(zeta, 13));
        println!(" The correct zeta is {:>20}", sci(pr.zeta, 13));
    }
    let nz = (pr.nonzer * (pr.nonzer + 1)) as f64;
    let flops = (2 * pr.niter as usize * na) as f64 * (3.0 + nz + 25.0 * (5.0 + nz) + 3.0);
    Report {
        name: "CG",
        class,
        size: Size::N(na as u64),
        iterations: pr.niter,
        time: t,
        mops: if t != 0.0 { flops / t / 1.0e6 } else { 0.0 },
        optype: "          floating point",
        verified,
    }
}

/// NPB CG's generator state (`tran`, `amult`).
struct Rng {
    tran: f64,
    amult: f64,
}

impl Rng {
    fn next(&mut self) -> f64 {
        randlc(&mut self.tran, self.amult)
    }
}

/// NPB's `makea`: the matrix as a sum of `n` outer products of random sparse vectors (each
/// with `nonzer` nonzeros and a 0.5 at its own row), scaled to condition `RCOND`, minus
/// `shift` on the diagonal. Returns `(rowstr, colidx, a)`.
fn makea(n: usize, nonzer: usize, shift: f64, rng: &mut Rng) -> (Vec<i32>, Vec<i32>, Vec<f64>) {
    let mut nn1 = 1;
    loop {
        nn1 *= 2;
        if nn1 >= n {
            break;
        }
    }
    let mut arow = vec![0usize; n];
    let mut acol = vec![0usize; n * (nonzer + 1)];
    let mut aelt = vec![0.0f64; n * (nonzer + 1)];
    let mut vc = vec![0.0f64; nonzer + 1];
    let mut ivc = vec![0usize; nonzer + 1];
    for iouter in 0..n {
        let mut nzv = sprnvc(n, nonzer, nn1, &mut vc, &mut ivc, rng);
        vecset(&mut vc, &mut ivc, &mut nzv, iouter + 1, 0.5);
        arow[iouter] = nzv;
        for ivelt in 0..nzv {
            acol[iouter * (nonzer + 1) + ivelt] = ivc[ivelt] - 1;
            aelt[iouter * (nonzer + 1) + ivelt] = vc[ivelt];
        }
    }
    let outer = Outer { arow, acol, aelt, stride: nonzer + 1 };
    sparse(n, n * (nonzer + 1) * (nonzer + 1), &outer, RCOND, shift)
}

/// The generated vectors: vector `i` has `arow[i]` entries `aelt[i * stride + ..]` at rows
/// `acol[i * stride + ..]`.
struct Outer {
    arow: Vec<usize>,
    acol: Vec<usize>,
    aelt: Vec<f64>,
    stride: usize,
}

/// NPB's `sparse`: assembles the outer products into CSR, summing duplicates.
fn sparse(n: usize, nz: usize, o: &Outer, rcond: f64, shift: f64) -> (Vec<i32>, Vec<i32>, Vec<f64>) {
    let nrows = n;
    let at = |i: usize, k: usize| i * o.stride + k;
    let mut rowstr = vec![0usize; nrows + 1];
    let mut a = vec![0.0f64; nz];
    let mut colidx = vec![0i64; nz];
    let mut nzloc = vec![0usize; nrows];
    // The number of entries of each row, then where each row starts.
    for i in 0..n {
        for nza in 0..o.arow[i] {
            rowstr[o.acol[at(i, nza)] + 1] += o.arow[i];
        }
    }
    for j in 1..=nrows {
        rowstr[j] += rowstr[j - 1];
    }
    assert!(rowstr[nrows] <= nz + 1, "space for matrix elements exceeded in sparse: {} > {nz}", rowstr[nrows] - 1);
    for j in 0..nrows {
        for k in rowstr[j]..rowstr[j + 1] {
            a[k] = 0.0;
            colidx[k] = -1;
        }
    }
    // Each product's entries into its rows, columns kept in order.
    let mut size = 1.0;
    let ratio = rcond.powf(1.0 / n as f64);
    for i in 0..n {
        for nza in 0..o.arow[i] {
            let j = o.acol[at(i, nza)];
            let scale = size * o.aelt[at(i, nza)];
            for nzrow in 0..o.arow[i] {
                let jcol = o.acol[at(i, nzrow)] as i64;
                let mut va = o.aelt[at(i, nzrow)] * scale;
                if jcol == j as i64 && j == i {
                    va = va + rcond - shift;
                }
                let mut found = None;
                for k in rowstr[j]..rowstr[j + 1] {
                    if colidx[k] > jcol {
                        let mut kk = rowstr[j + 1] as isize - 2;
                        while kk >= k as isize {
                            let u = kk as usize;
                            if colidx[u] > -1 {
                                a[u + 1] = a[u];
                                colidx[u + 1] = colidx[u];
                            }
                            kk -= 1;
                        }
                        colidx[k] = jcol;
                        a[k] = 0.0;
                        found = Some(k);
                        break;
                    } else if colidx[k] == -1 {
                        colidx[k] = jcol;
                        found = Some(k);
                        break;
                    } else if colidx[k] == jcol {
                        nzloc[j] += 1;
                        found = Some(k);
                        break;
                    }
                }
                let k = found.unwrap_or_else(|| panic!("internal error in sparse: i={i}"));
                a[k] += va;
            }
        }
        size *= ratio;
    }
    // Squeeze out the duplicates' slots.
    for j in 1..nrows {
        nzloc[j] += nzloc[j - 1];
    }
    for j in 0..nrows {
        let j1 = if j > 0 { rowstr[j] - nzloc[j - 1] } else { 0 };
        let j2 = rowstr[j + 1] - nzloc[j];
        let mut nza = rowstr[j];
        for k in j1..j2 {
            a[k] = a[nza];
            colidx[k] = colidx[nza];
            nza += 1;
        }
    }
    for j in 1..=nrows {
        rowstr[j] -= nzloc[j - 1];
    }
    let nnz = rowstr[nrows];
    a.truncate(nnz);
    let colidx = colidx[..nnz].iter().map(|&c| c as i32).collect();
    (rowstr.iter().map(|&r| r as i32).collect(), colidx, a)
}

/// NPB's `sprnvc`: a sparse vector of `nz` distinct random rows in `1..=n` (`iv`) with random
/// values (`v`); returns `nz`.
fn sprnvc(n: usize, nz: usize, nn1: usize, v: &mut [f64], iv: &mut [usize], rng: &mut Rng) -> usize {
    let mut nzv = 0;
    while nzv < nz {
        let vecelt = rng.next();
        let vecloc = rng.next();
        let i = (nn1 as f64 * vecloc) as usize + 1;
        if i > n || iv[..nzv].contains(&i) {
            continue;
        }
        v[nzv] = vecelt;
        iv[nzv] = i;
        nzv += 1;
    }
    nzv
}

/// NPB's `vecset`: sets row `i` of the sparse vector to `val`, appending it if absent.
fn vecset(v: &mut [f64], iv: &mut [usize], nzv: &mut usize, i: usize, val: f64) {
    let mut set = false;
    for k in 0..*nzv {
        if iv[k] == i {
            v[k] = val;
            set = true;
        }
    }
    if !set {
        v[*nzv] = val;
        iv[*nzv] = i;
        *nzv += 1;
    }
}
