//! A binary using the `particles` library: the library's region (`particles::fall`) and a
//! region of its own whose kernel calls the library's routine (`dist2`) on the library's types.

use particles::{dist2, Particle, V3};

/// The squared distance of each particle from `centre`, and the largest.
#[acc::parallel]
fn spread(ps: &[Particle], centre: V3, d: &mut [f64]) -> f64 {
    let mut far = 0.0f64;
    #[acc::r#loop(gang, vector, reduction(max: far))]
    for i in 0..ps.len() {
        d[i] = dist2(ps[i].pos, centre);
        far = far.max(d[i] + particles::units::G * 0.0);
    }
    far
}

fn main() {
    let n = 100_000;
    let mut ps: Vec<Particle> = (0..n)
        .map(|i| Particle {
            pos: V3::new((i % 100) as f64, (i / 100) as f64, 10.0),
            vel: V3::new(0.0, 0.5, (i % 7) as f64),
        })
        .collect();
    let mut want = ps.clone();
    for _ in 0..10 {
        particles::fall(&mut ps, 0.01);
        for p in &mut want {
            p.vel = p.vel - V3::new(0.0, 0.0, 9.81) * 0.01;
            p.pos = p.pos + p.vel * 0.01;
        }
    }
    assert_eq!(ps, want, "particles::fall");
    let centre = V3::new(50.0, 500.0, 0.0);
    let mut d = vec![0.0; n];
    let far = spread(&ps, centre, &mut d);
    let want_d: Vec<f64> = want.iter().map(|p| (p.pos - centre).dot(p.pos - centre)).collect();
    assert_eq!(d, want_d, "spread");
    assert_eq!(far, want_d.iter().cloned().fold(0.0, f64::max));
    println!("device {:?}: {n} particles, 10 steps, farthest squared distance {far:.3}: ok", acc::device_type());
}
