//! Failures the differential tester found (issue 16, `difftest/`), each minimised to the
//! smallest region that shows it and kept here as a test that runs on every backend. Every
//! result is compared with the sequential loop.

mod common;
use common::*;

/// A `reduction` clause on a loop whose body never updates the variable (found in a `kernels`
/// nest whose clause on the outer loop was for an inner loop that updated nothing): the GPU
/// kernel did not capture the variable, and the device crate did not compile ("cannot find
/// value `s`"). The clause leaves the value as it was.
#[test]
fn clause_on_a_loop_that_never_updates_the_variable() {
    #[acc::parallel]
    fn untouched(c: &mut [i32], init: i64) -> i64 {
        let mut s = init;
        #[acc::r#loop(gang, vector, reduction(+: s))]
        for i in 0..c.len() {
            c[i] = i as i32 * 3;
        }
        s
    }
    #[acc::kernels]
    fn rows(a: &[i64], o: &mut [u64], n: usize, m: usize, init: u8) -> u8 {
        let mut s = init;
        #[acc::r#loop(reduction(+: s))]
        for k in 0..n {
            let mut r = 0u64;
            #[acc::r#loop(reduction(|: r))]
            for i in 0..m {
                r |= a[k * m + i] as u64;
            }
            o[k] = r;
        }
        s
    }
    for n in [0usize, 1, 7, 1001] {
        let mut c = vec![-1; n];
        assert_eq!(untouched(&mut c, -5), -5, "{n} elements");
        assert_eq!(c, (0..n as i32).map(|i| i * 3).collect::<Vec<_>>());
    }
    for (n, m) in [(0, 3), (1, 1), (5, 33), (64, 100)] {
        let a = vec_of(n * m, |i| (hash(i) % 1024) as i64);
        let mut o = vec![0u64; n];
        assert_eq!(rows(&a, &mut o, n, m, 7), 7, "{n}x{m}");
        let want: Vec<u64> = (0..n).map(|k| a[k * m..(k + 1) * m].iter().fold(0, |r, &x| r | x as u64)).collect();
        assert_eq!(o, want, "{n}x{m}");
    }
}
