//! NPB's linear congruential generator `x_{k+1} = a x_k (mod 2^46)` in double precision
//! (`randdp.c`): exact on any machine with 48-bit mantissas.

pub const R23: f64 = 1.1920928955078125e-07; // 2^-23
pub const R46: f64 = R23 * R23;
pub const T23: f64 = 8.388608e+06; // 2^23
pub const T46: f64 = T23 * T23;

/// The next seed `a * x (mod 2^46)`; callable in regions. The uniform number NPB's `randlc`
/// returns is `R46 * lcg(x, a)`.
#[acc::routine(seq)]
pub fn lcg(x: f64, a: f64) -> f64 {
    // Break A into two parts such that A = 2^23 * A1 + A2.
    let t1 = R23 * a;
    let a1 = (t1 as i32) as f64;
    let a2 = a - T23 * a1;
    // Break X into two parts such that X = 2^23 * X1 + X2, compute
    // Z = A1 * X2 + A2 * X1  (mod 2^23), and then X = 2^23 * Z + A2 * X2  (mod 2^46).
    let t1 = R23 * x;
    let x1 = (t1 as i32) as f64;
    let x2 = x - T23 * x1;
    let t1 = a1 * x2 + a2 * x1;
    let t2 = ((R23 * t1) as i32) as f64;
    let z = t1 - T23 * t2;
    let t3 = T23 * z + a2 * x2;
    let t4 = ((R46 * t3) as i32) as f64;
    t3 - T46 * t4
}

/// NPB's `randlc`: advances the seed `x` and returns a uniform number in (0, 1).
pub fn randlc(x: &mut f64, a: f64) -> f64 {
    *x = lcg(*x, a);
    R46 * *x
}

/// NPB's `vranlc`: fills `y` with the next `y.len()` uniform numbers.
pub fn vranlc(x: &mut f64, a: f64, y: &mut [f64]) {
    for v in y {
        *v = randlc(x, a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn randlc_matches_integer_arithmetic() {
        let (mut x, a) = (314159265.0, 1220703125.0);
        let (mut xi, ai) = (314159265u128, 1220703125u128);
        for _ in 0..1000 {
            let r = randlc(&mut x, a);
            xi = xi * ai % (1 << 46);
            assert_eq!(x, xi as f64);
            assert_eq!(r, xi as f64 / (1u64 << 46) as f64);
        }
    }
}
