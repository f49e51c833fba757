//! Stress (issue 16): 8 host threads at once, each launching regions (synchronous and on async
//! queues that threads share), data regions, `enter_data!`/`exit_data!`, `update!` and
//! `Mirror`s, many times over; every result checked exactly against sequential Rust. The
//! threads spread over the devices of the suite's type (one host device on the host backend;
//! every GPU on a GPU machine).

mod common;
use common::*;

#[acc::parallel(async(q))]
fn step(a: &[u32], c: &mut [u32], k: u32, q: i64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = c[i].wrapping_mul(5).wrapping_add(a[i] ^ k);
    }
}

#[acc::parallel]
fn fold(c: &[u32]) -> (u64, u32) {
    let mut s = 0u64;
    let mut m = 0u32;
    #[acc::r#loop(gang, vector, reduction(+: s), reduction(max: m))]
    for i in 0..c.len() {
        s += c[i] as u64;
        m = m.max(c[i]);
    }
    (s, m)
}

#[acc::parallel(present(m))]
fn negate_in_place(m: &mut [i64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..m.len() {
        m[i] = -m[i];
    }
}

fn step_seq(a: &[u32], c: &mut [u32], k: u32) {
    for i in 0..c.len() {
        c[i] = c[i].wrapping_mul(5).wrapping_add(a[i] ^ k);
    }
}

const THREADS: usize = 8;
const ROUNDS: usize = 40;

#[test]
fn eight_threads_regions_queues_and_data_at_once() {
    let t = acc::device_type();
    let n = acc::num_devices(t).max(1);
    let launched = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for id in 0..THREADS {
            let launched = &launched;
            s.spawn(move || {
                acc::set_device(t, id % n);
                let len = 30_011 + 97 * id;
                let a = vec_of(len, |i| hash(i * 31 + id) as u32);
                let mut c = vec_of(len, |i| i as u32);
                let mut want = c.clone();
                // Queues 0..3 are shared by the threads of a device.
                let q = (id % 3) as i64;
                for round in 0..ROUNDS {
                    let k = (round * 7 + id) as u32;
                    acc::data!(copyin(a), copy(c) {
                        step(&a, &mut c, k, q);
                        step(&a, &mut c, k + 1, q);
                        acc::wait(q);
                        step_seq(&a, &mut want, k);
                        step_seq(&a, &mut want, k + 1);
                        let (sum, max) = fold(&c);
                        assert_eq!(sum, want.iter().map(|&x| x as u64).sum::<u64>(), "thread {id} round {round}");
                        assert_eq!(max, *want.iter().max().unwrap(), "thread {id} round {round}");
                        // The host copy is stale inside; an update brings the device's.
                        acc::update!(host(c));
                        assert_eq!(c, want, "thread {id} round {round}: update host");
                    });
                    assert_eq!(c, want, "thread {id} round {round}: copy back");
                    // Unstructured data, and a Mirror, alongside.
                    let mut u = vec_of(257 + round, |i| i as i64 - 100);
                    acc::enter_data!(copyin(u));
                    negate_in_place(&mut u);
                    acc::exit_data!(copyout(u));
                    assert!(u.iter().enumerate().all(|(i, &x)| x == 100 - i as i64), "thread {id} round {round}: exit data");
                    let mut m = acc::Mirror::new(u);
                    negate_in_place(&mut m);
                    m.update_host();
                    assert!(m.iter().enumerate().all(|(i, &x)| x == i as i64 - 100), "thread {id} round {round}: mirror");
                    let u = m.into_inner();
                    assert!(!acc::is_present(&u) && !acc::is_present(&c));
                    launched.fetch_add(5, std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
    });
    assert_eq!(launched.into_inner(), THREADS * ROUNDS * 5);
}
