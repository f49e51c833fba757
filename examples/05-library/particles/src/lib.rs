//! A library of particle kernels: a `DeviceCopy` vector type with its operators, routines, and
//! a region that advances particles. Its own GPU build (`--features cuda`) builds its kernels;
//! a dependent's regions may use its routines and types.

use std::ops::{Add, Mul, Sub};

pub mod units {
    /// Gravity, m/s^2.
    pub const G: f64 = 9.81;
}

#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl V3 {
    pub const fn new(x: f64, y: f64, z: f64) -> V3 {
        V3 { x, y, z }
    }

    pub fn dot(self, o: V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
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

#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
pub struct Particle {
    pub pos: V3,
    pub vel: V3,
}

/// Squared distance: a routine, callable from this crate's regions and from a dependent's.
#[acc::routine(seq)]
pub fn dist2(a: V3, b: V3) -> f64 {
    let d = a - b;
    d.dot(d)
}

/// One explicit Euler step under gravity: a region of the library.
#[acc::parallel]
pub fn fall(ps: &mut [Particle], dt: f64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..ps.len() {
        let mut p = ps[i];
        p.vel = p.vel - V3::new(0.0, 0.0, units::G) * dt;
        p.pos = p.pos + p.vel * dt;
        ps[i] = p;
    }
}
