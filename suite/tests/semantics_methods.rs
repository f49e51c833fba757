//! Regions in `impl` blocks, on every backend: associated fns, methods taking `&self` and
//! `&mut self` over a host struct's fields (arrays in data clauses, `copy(self.u)`, array
//! fields of every kind, `DeviceCopy` value fields, a tuple struct), `kernels` and `serial`
//! methods, reductions returning the region's value, a field passed to a routine, and an
//! associated fn of a `DeviceCopy` type that uses `Self`. acc-build finds each of them (see
//! `acc-build/src/scan/`) and builds its kernels; each is compared with plain Rust.

#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
struct Coeffs {
    a: f64,
    b: f64,
}

/// A host struct: it owns its arrays, so it never goes to the device itself; its methods'
/// regions take the fields they use.
struct Rod {
    u: Vec<f64>,
    next: Vec<f64>,
    weights: [f64; 3],
    heat: Box<[f64]>,
    c: Coeffs,
    n: usize,
}

#[acc::routine(seq)]
fn window(a: &[f64], i: usize) -> f64 {
    a[i - 1] + a[i] + a[i + 1]
}

impl Rod {
    fn new(n: usize) -> Rod {
        Rod {
            u: (0..n).map(|i| (i % 13) as f64 - 6.0).collect(),
            next: vec![0.0; n],
            weights: [0.25, 0.5, 0.25],
            heat: (0..n).map(|i| (i % 3) as f64).collect(),
            c: Coeffs { a: 2.0, b: 0.5 },
            n,
        }
    }

    /// An associated fn: a region like a free fn.
    #[acc::parallel]
    fn fill(u: &mut [f64], v: f64) {
        #[acc::r#loop(gang, vector)]
        for i in 0..u.len() {
            u[i] = v + i as f64;
        }
    }

    /// `&mut self` with data clauses on fields; `self.weights` is an array field (`[f64; 3]`),
    /// `self.n` a value.
    #[acc::parallel(copyin(self.u), copyout(self.next))]
    fn smooth(&mut self) {
        #[acc::r#loop(gang, vector)]
        for i in 1..self.n - 1 {
            self.next[i] = self.weights[0] * self.u[i - 1] + self.weights[1] * self.u[i] + self.weights[2] * self.u[i + 1];
        }
    }

    /// `&self` returning a reduced value; a `DeviceCopy` field read through its fields.
    #[acc::parallel]
    fn energy(&self) -> f64 {
        let mut e = 0.0;
        #[acc::r#loop(gang, vector, reduction(+: e))]
        for i in 0..self.u.len() {
            e += self.c.a * self.u[i] * self.u[i] + self.c.b;
        }
        e
    }

    /// Default clauses: the written field is `copy`, the `Box<[f64]>` one `copyin`; a field
    /// named in a clause and passed whole to a routine (`&self.u`).
    #[acc::parallel(copyin(self.u))]
    fn box_filter(&mut self, k: f64) {
        #[acc::r#loop(gang, vector)]
        for i in 1..self.n - 1 {
            self.next[i] = k * window(&self.u, i) + self.heat[i];
        }
    }

    /// A `kernels` method: the loop nest's independence is proved as for a free fn.
    #[acc::kernels]
    fn relax(&mut self, omega: f64) {
        for i in 0..self.n {
            self.u[i] = (1.0 - omega) * self.u[i] + omega * self.next[i];
        }
    }

    /// A `serial` method: in order, one thread.
    #[acc::serial]
    fn prefix(&mut self) {
        for i in 1..self.n {
            self.next[i] += self.next[i - 1];
        }
    }
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-12 * w.abs().max(1.0), "at {i}: {g} vs {w}");
    }
}

#[test]
fn associated_fn() {
    let mut u = vec![0.0; 777];
    Rod::fill(&mut u, 1.5);
    close(&u, &(0..777).map(|i| 1.5 + i as f64).collect::<Vec<_>>());
}

#[test]
fn mut_self_with_field_clauses() {
    let mut r = Rod::new(1001);
    r.smooth();
    let mut want = vec![0.0; r.n];
    for i in 1..r.n - 1 {
        want[i] = 0.25 * r.u[i - 1] + 0.5 * r.u[i] + 0.25 * r.u[i + 1];
    }
    close(&r.next, &want);
}

#[test]
fn ref_self_reduction() {
    let r = Rod::new(4097);
    let want: f64 = r.u.iter().map(|x| 2.0 * x * x + 0.5).sum();
    assert_eq!(r.energy(), want);
}

#[test]
fn field_passed_to_a_routine() {
    let mut r = Rod::new(513);
    r.box_filter(0.5);
    let mut want = vec![0.0; r.n];
    for i in 1..r.n - 1 {
        want[i] = 0.5 * (r.u[i - 1] + r.u[i] + r.u[i + 1]) + r.heat[i];
    }
    close(&r.next, &want);
}

#[test]
fn kernels_and_serial_methods() {
    let mut r = Rod::new(300);
    let u0 = r.u.clone();
    r.next = (0..300).map(|i| i as f64).collect();
    r.relax(0.5);
    close(&r.u, &u0.iter().enumerate().map(|(i, u)| 0.5 * u + 0.5 * i as f64).collect::<Vec<_>>());
    r.prefix();
    close(&r.next, &(0..300).map(|i| (i * (i + 1) / 2) as f64).collect::<Vec<_>>());
}

/// A tuple struct's fields.
struct Shifted(Vec<i64>, i64);

impl Shifted {
    #[acc::parallel]
    fn apply(&mut self) {
        #[acc::r#loop(gang, vector)]
        for i in 0..self.0.len() {
            self.0[i] += self.1 * i as i64;
        }
    }
}

#[test]
fn tuple_struct_fields() {
    let mut s = Shifted(vec![1; 1000], -3);
    s.apply();
    assert_eq!(s.0, (0..1000).map(|i| 1 - 3 * i).collect::<Vec<i64>>());
}

/// A `DeviceCopy` type with an associated const and a `&mut self` method the kernels call.
#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
struct Particle {
    x: f64,
    v: f64,
}

impl Particle {
    const MASS: f64 = 2.0;

    fn kick(&mut self, f: f64, dt: f64) {
        self.v += f / Self::MASS * dt;
        self.x += self.v * dt;
    }

    /// An associated fn of a `DeviceCopy` type: `Self` is the type in its kernels.
    #[acc::parallel]
    fn step_all(ps: &mut [Self], f: f64, dt: f64) {
        #[acc::r#loop(gang, vector)]
        for i in 0..ps.len() {
            let mut p: Self = ps[i];
            p.kick(f * Self::MASS, dt);
            ps[i] = p;
        }
    }
}

#[test]
fn associated_fn_of_a_device_copy_type_uses_self() {
    let mut ps: Vec<Particle> = (0..640).map(|i| Particle { x: i as f64, v: -(i as f64) * 0.25 }).collect();
    let want: Vec<Particle> = ps
        .iter()
        .map(|p| {
            let v = p.v + 3.0 * 0.5;
            Particle { x: p.x + v * 0.5, v }
        })
        .collect();
    Particle::step_all(&mut ps, 3.0, 0.5);
    assert_eq!(ps, want);
}
