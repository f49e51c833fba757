//! Device data beyond scalars, on every backend: nested `DeviceCopy` structs passed by value
//! and in slices, their methods (`&self` and `&mut self`) and operator impls (`Add`, `Sub`,
//! `Mul<f64>`, `Neg`, `AddAssign`, `Index`) called in kernels, and `#[repr(u8)]` /
//! `#[repr(i32)]` enums with `DeviceCopy` as slice elements, values and struct fields, matched
//! in loop bodies.

use std::ops::{Add, AddAssign, Index, Mul, Neg, Sub};

#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
struct V3 {
    x: f64,
    y: f64,
    z: f64,
}

impl V3 {
    const ZERO: V3 = V3 { x: 0.0, y: 0.0, z: 0.0 };

    fn new(x: f64, y: f64, z: f64) -> V3 {
        V3 { x, y, z }
    }

    fn dot(&self, o: &V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    fn scale_in_place(&mut self, k: f64) {
        self.x *= k;
        self.y *= k;
        self.z *= k;
    }
}

impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, k: f64) -> V3 {
        V3::new(self.x * k, self.y * k, self.z * k)
    }
}

impl Neg for V3 {
    type Output = V3;
    fn neg(self) -> V3 {
        V3::new(-self.x, -self.y, -self.z)
    }
}

impl AddAssign for V3 {
    fn add_assign(&mut self, o: V3) {
        *self = *self + o;
    }
}

impl Index<usize> for V3 {
    type Output = f64;
    fn index(&self, i: usize) -> &f64 {
        match i {
            0 => &self.x,
            1 => &self.y,
            _ => &self.z,
        }
    }
}

#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, acc::DeviceCopy)]
enum Kind {
    Fluid = 1,
    Wall = 2,
    Inlet = 7,
}

#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, acc::DeviceCopy)]
enum Sign {
    Minus = -1,
    Plus = 1,
}

/// Nested `DeviceCopy` structs: a body holds two vectors, a kind and a sign.
#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
struct Body {
    pos: V3,
    vel: V3,
    kind: Kind,
    sign: Sign,
}

impl Body {
    fn moved(&self, dt: f64) -> Body {
        Body { pos: self.pos + self.vel * dt, ..*self }
    }
}

#[acc::parallel]
fn advance(bodies: &mut [Body], wind: V3, dt: f64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..bodies.len() {
        let mut b = bodies[i];
        match b.kind {
            Kind::Wall => {}
            Kind::Fluid => {
                b.vel += wind * (b.sign as i32 as f64);
                b = b.moved(dt);
            }
            Kind::Inlet => {
                b.vel = -b.vel;
                b.vel.scale_in_place(2.0);
                b = b.moved(dt);
            }
        }
        bodies[i] = b;
    }
}

#[acc::parallel]
fn projections(p: &[V3], axis: V3, out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        let d = p[i] - V3::ZERO;
        out[i] = d.dot(&axis) + d[i % 3];
    }
}

#[acc::parallel]
fn count_kinds(kinds: &[Kind]) -> (u64, u64) {
    let mut walls = 0u64;
    let mut inlets = 0u64;
    #[acc::r#loop(gang, vector, reduction(+: walls, inlets))]
    for i in 0..kinds.len() {
        if kinds[i] == Kind::Wall {
            walls += 1;
        }
        if matches!(kinds[i], Kind::Inlet) {
            inlets += 1;
        }
    }
    (walls, inlets)
}

fn kind(i: usize) -> Kind {
    match i % 5 {
        0 => Kind::Wall,
        1 | 2 => Kind::Fluid,
        _ => Kind::Inlet,
    }
}

fn host_advance(b: &Body, wind: V3, dt: f64) -> Body {
    let mut b = *b;
    match b.kind {
        Kind::Wall => {}
        Kind::Fluid => {
            b.vel += wind * (b.sign as i32 as f64);
            b = b.moved(dt);
        }
        Kind::Inlet => {
            b.vel = -b.vel;
            b.vel.scale_in_place(2.0);
            b = b.moved(dt);
        }
    }
    b
}

#[test]
fn nested_structs_enums_and_operator_impls() {
    let mut bodies: Vec<Body> = (0..1000)
        .map(|i| Body {
            pos: V3::new(i as f64, 0.5 * i as f64, -1.0),
            vel: V3::new(1.0, -2.0, (i % 7) as f64),
            kind: kind(i),
            sign: if i % 2 == 0 { Sign::Plus } else { Sign::Minus },
        })
        .collect();
    let wind = V3::new(0.25, 0.5, -0.125);
    let want: Vec<Body> = bodies.iter().map(|b| host_advance(b, wind, 0.5)).collect();
    advance(&mut bodies, wind, 0.5);
    assert_eq!(bodies, want);
}

#[test]
fn methods_and_index_impl() {
    let p: Vec<V3> = (0..700).map(|i| V3::new(i as f64, (i % 11) as f64, -(i as f64) * 0.5)).collect();
    let axis = V3::new(1.0, -1.0, 2.0);
    let mut out = vec![0.0; p.len()];
    projections(&p, axis, &mut out);
    let want: Vec<f64> = p.iter().enumerate().map(|(i, v)| v.dot(&axis) + [v.x, v.y, v.z][i % 3]).collect();
    assert_eq!(out, want);
}

#[test]
fn enum_slices_reduced() {
    let kinds: Vec<Kind> = (0..4099).map(kind).collect();
    let want = (kinds.iter().filter(|&&k| k == Kind::Wall).count() as u64, kinds.iter().filter(|&&k| k == Kind::Inlet).count() as u64);
    assert_eq!(count_kinds(&kinds), want);
}
