//! Names in regions resolve as in Rust, on every backend: a module-level `use` of
//! `std::f64::consts::PI`, a `type` alias, consts in inline modules through `crate::`,
//! `super::` and `self::` paths, an immutable `static`, a `#[repr(u8)]` enum compared in a loop
//! body, a `DeviceCopy` struct with a method and an `impl Add`, an item of `tests/common/mod.rs`,
//! and items declared next to regions inside test fns (two tests each with their own `K`).
//! acc-build carries each of these to the device crate (see `acc-build/src/scan/`); items it
//! cannot carry (`HashMap`, the host-only method `describe`) stay out without breaking it.

mod common;

use std::collections::HashMap;
use std::f64::consts::PI;
use std::ops::{Add, Mul};

type Real = f64;

const OFFSET: f64 = 0.25;

static WEIGHTS: [f64; 4] = [1.0, 2.0, 3.0, 4.0];

#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Low = 1,
    High = 2,
}

#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
struct Vec3 {
    x: f64,
    y: f64,
    z: f64,
}

impl Vec3 {
    fn new(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3 { x, y, z }
    }

    fn norm2(&self) -> f64 {
        self.x * self.x + self.y * self.y + self.z * self.z
    }

    /// Host only (`String`): not carried to the device crate.
    #[allow(dead_code)]
    fn describe(&self) -> String {
        format!("({}, {}, {})", self.x, self.y, self.z)
    }
}

impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, s: f64) -> Vec3 {
        Vec3::new(self.x * s, self.y * s, self.z * s)
    }
}

mod physics {
    pub const G: f64 = 9.75;

    pub mod units {
        pub const KM: f64 = 1000.0;
        /// Through `super::` in a const.
        pub const G_PER_KM: f64 = super::G / KM;
    }

    /// A region in an inline module: bare names of its module, `super::` to the crate root.
    #[acc::parallel]
    pub fn fall(t: &[f64], h: &mut [f64]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..h.len() {
            h[i] = 0.5 * G * t[i] * t[i] + super::OFFSET + self::units::KM;
        }
    }
}

fn input(n: usize) -> Vec<f64> {
    (0..n).map(|i| (i % 17) as f64 * 0.5 - 3.0).collect()
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-12 * w.abs().max(1.0), "at {i}: {g} vs {w}");
    }
}

#[acc::parallel]
fn circle_areas(r: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = PI * r[i] * r[i];
    }
}

#[test]
fn use_of_std_consts() {
    let r = input(1000);
    let mut out = vec![0.0; r.len()];
    circle_areas(&r, &mut out);
    let want: Vec<f64> = r.iter().map(|r| std::f64::consts::PI * r * r).collect();
    close(&out, &want);
}

#[acc::parallel]
fn doubled(a: &[Real], out: &mut [Real]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        let x: Real = a[i];
        out[i] = x * 2.0 + OFFSET;
    }
}

#[test]
fn type_alias_and_const() {
    let a = input(777);
    let mut out = vec![0.0; a.len()];
    doubled(&a, &mut out);
    let want: Vec<f64> = a.iter().map(|x| x * 2.0 + 0.25).collect();
    close(&out, &want);
}

#[acc::parallel]
fn module_paths(out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = crate::physics::G * i as f64 + physics::units::KM + self::physics::units::G_PER_KM;
    }
}

#[test]
fn consts_in_modules_through_crate_self_and_super() {
    let mut out = vec![0.0; 513];
    module_paths(&mut out);
    let want: Vec<f64> = (0..513).map(|i| 9.75 * i as f64 + 1000.0 + 9.75 / 1000.0).collect();
    close(&out, &want);

    let t = input(300);
    let mut h = vec![0.0; t.len()];
    physics::fall(&t, &mut h);
    let want: Vec<f64> = t.iter().map(|t| 0.5 * 9.75 * t * t + 0.25 + 1000.0).collect();
    close(&h, &want);
}

#[acc::parallel]
fn weighted(out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = WEIGHTS[i % 4] * i as f64;
    }
}

#[test]
fn immutable_static() {
    let mut out = vec![0.0; 1001];
    weighted(&mut out);
    let want: Vec<f64> = (0..1001).map(|i| [1.0, 2.0, 3.0, 4.0][i % 4] * i as f64).collect();
    close(&out, &want);
}

#[acc::parallel]
fn by_mode(codes: &[u8], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        let m = if codes[i] == Mode::High as u8 { Mode::High } else { Mode::Low };
        out[i] = if m == Mode::High { 10.0 } else { 1.0 } + codes[i] as f64;
    }
}

#[test]
fn repr_u8_enum_compared_in_a_loop_body() {
    let codes: Vec<u8> = (0..999).map(|i| if i % 3 == 0 { 2 } else { 1 }).collect();
    let mut out = vec![0.0; codes.len()];
    by_mode(&codes, &mut out);
    let want: Vec<f64> = codes.iter().map(|&c| if c == 2 { 12.0 } else { 2.0 }).collect();
    assert_eq!(out, want);
    // Host-only items next to the regions stay usable on the host.
    let mut seen: HashMap<u8, usize> = HashMap::new();
    for c in codes {
        *seen.entry(c).or_default() += 1;
    }
    assert_eq!(seen[&2], 333);
    assert_eq!(Vec3::new(1.0, 2.0, 3.0).describe(), "(1, 2, 3)");
}

#[acc::parallel]
fn shifted_norms(p: &[Vec3], d: Vec3, out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        let q = p[i] + d * 2.0;
        out[i] = q.norm2();
    }
}

#[test]
fn device_copy_methods_and_operator_impls() {
    let p: Vec<Vec3> = (0..640).map(|i| Vec3::new(i as f64, -(i as f64) * 0.5, (i % 5) as f64)).collect();
    let d = Vec3::new(0.5, 1.0, -1.5);
    let mut out = vec![0.0; p.len()];
    shifted_norms(&p, d, &mut out);
    let want: Vec<f64> = p
        .iter()
        .map(|p| {
            let (x, y, z) = (p.x + 1.0, p.y + 2.0, p.z - 3.0);
            x * x + y * y + z * z
        })
        .collect();
    close(&out, &want);
}

#[acc::parallel]
fn halves(a: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = a[i] * common::HALF;
    }
}

#[test]
fn item_of_the_common_helper_module() {
    let a = input(2049);
    let mut out = vec![0.0; a.len()];
    halves(&a, &mut out);
    let want: Vec<f64> = a.iter().map(|x| x * 0.5).collect();
    close(&out, &want);
}

#[test]
fn items_beside_a_region_in_a_test_fn() {
    const K: f64 = 3.0;

    #[acc::parallel]
    fn scaled(a: &[f64], out: &mut [f64]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..out.len() {
            out[i] = a[i] * K;
        }
    }

    let a = input(500);
    let mut out = vec![0.0; a.len()];
    scaled(&a, &mut out);
    close(&out, &a.iter().map(|x| x * 3.0).collect::<Vec<_>>());
}

#[test]
fn same_names_in_another_test_fn() {
    const K: f64 = -2.0;

    #[acc::parallel]
    fn scaled(a: &[f64], out: &mut [f64]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..out.len() {
            out[i] = a[i] * K + self::OFFSET;
        }
    }

    let a = input(500);
    let mut out = vec![0.0; a.len()];
    scaled(&a, &mut out);
    close(&out, &a.iter().map(|x| x * -2.0 + 0.25).collect::<Vec<_>>());
}
