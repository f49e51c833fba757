//! Compute regions (DESIGN §2 "Compute regions", §4.4): `serial` and `kernels` regions give the
//! sequential result, `if`, `num_gangs`/`num_workers`/`vector_length`, `async`/`wait` leave
//! results unchanged, region-level `private`/`firstprivate`, values computed by statements
//! between loops, `#[acc::routine]` fns called from loop bodies, `#[derive(acc::DeviceCopy)]`
//! structs by value and in slices.

mod common;
use common::*;

const SIZES: [usize; 6] = [0, 1, 2, 7, 1001, 65537];

// ---- serial ---------------------------------------------------------------------------------

/// A `serial` region runs its loops in order: loop-carried dependences, with and without an
/// `acc::loop`, give the sequential result.
#[test]
fn serial_region_is_sequential() {
    #[acc::serial]
    fn recurrences(a: &mut [i64]) -> i64 {
        for i in 1..a.len() {
            a[i] = (a[i - 1] * 3 + a[i]) % 1_000_003;
        }
        #[acc::r#loop]
        for i in 1..a.len() {
            a[i] ^= a[i - 1] & 0xff;
        }
        let mut s = 0i64;
        #[acc::r#loop(reduction(+: s))]
        for i in 0..a.len() {
            s += a[i];
        }
        s
    }
    for n in SIZES {
        let mut a = vec_of(n, |i| (hash(i) % 1000) as i64);
        let mut want = a.clone();
        for i in 1..n {
            want[i] = (want[i - 1] * 3 + want[i]) % 1_000_003;
        }
        for i in 1..n {
            want[i] ^= want[i - 1] & 0xff;
        }
        let want_s: i64 = want.iter().sum();
        assert_eq!(recurrences(&mut a), want_s, "{n} elements");
        assert_eq!(a, want, "{n} elements");
    }
}

/// `serial` accepts `async`, `wait`, `if` and data clauses.
#[test]
fn serial_region_clauses() {
    #[acc::serial(copyin(a), copy(c), if(a.len() > 10), async(4), wait(4))]
    fn shift(a: &[u8], c: &mut [u8]) {
        for i in 1..c.len() {
            c[i] = c[i - 1].wrapping_add(a[i]);
        }
    }
    for n in SIZES {
        let a = vec_of(n, |i| hash(i) as u8);
        let mut c = vec![9u8; n];
        shift(&a, &mut c);
        acc::wait(4);
        let mut want = vec![9u8; n];
        for i in 1..n {
            want[i] = want[i - 1].wrapping_add(a[i]);
        }
        assert_eq!(c, want, "{n} elements");
    }
}

// ---- kernels --------------------------------------------------------------------------------

/// A `kernels` region with an independent loop and a dependent one (`a[i] = a[i - 1] + 1`):
/// both give the sequential result.
#[test]
fn kernels_independent_and_dependent_loops() {
    #[acc::kernels]
    fn two_loops(a: &mut [i32], b: &mut [i32]) {
        for i in 1..a.len() {
            a[i] = a[i - 1] + 1;
        }
        for i in 0..b.len() {
            b[i] = 2 * b[i] + 1;
        }
    }
    for n in SIZES {
        let mut a = vec_of(n, |i| (hash(i) % 100) as i32);
        let mut b = vec_of(n, |i| i as i32 - 500);
        let mut wa = a.clone();
        for i in 1..n {
            wa[i] = wa[i - 1] + 1;
        }
        let wb: Vec<i32> = b.iter().map(|x| 2 * x + 1).collect();
        two_loops(&mut a, &mut b);
        assert_eq!((a, b), (wa, wb), "{n} elements");
    }
}

/// Dependences the `kernels` analysis must see: through another array, through a scalar,
/// through a struct field, backwards, and between the iterations of an outer loop that write
/// overlapping windows (`c[j + i]` with `i` an inner loop's variable).
#[test]
fn kernels_dependences_stay_sequential() {
    #[acc::kernels]
    fn through_other_array(a: &mut [i64], b: &mut [i64]) {
        for i in 1..a.len() {
            b[i] = a[i - 1] * 2 % 1009;
            a[i] = b[i] + 1;
        }
    }
    #[acc::kernels]
    fn through_scalar(a: &[i64], c: &mut [i64]) -> i64 {
        let mut carry = 1i64;
        for i in 0..a.len() {
            carry = (carry * 31 + a[i]) % 65_521;
            c[i] = carry;
        }
        carry
    }
    #[acc::kernels]
    fn backwards(a: &mut [u32]) {
        for i in 0..a.len() - 1 {
            a[i] = a[i + 1] + 1;
        }
    }
    #[acc::kernels]
    fn overlapping_windows(c: &mut [u32], n: usize, m: usize) {
        for j in 0..n {
            for i in 0..m {
                c[j + i] += (j ^ i) as u32 & 3;
            }
        }
    }
    for n in SIZES {
        let mut a = vec_of(n, |i| (hash(i) % 10) as i64);
        let mut b = vec![0i64; n];
        let (mut wa, mut wb) = (a.clone(), b.clone());
        for i in 1..n {
            wb[i] = wa[i - 1] * 2 % 1009;
            wa[i] = wb[i] + 1;
        }
        through_other_array(&mut a, &mut b);
        assert_eq!((&a, &b), (&wa, &wb), "through another array, {n} elements");

        let mut c = vec![0i64; n];
        let mut carry = 1i64;
        let wc: Vec<i64> = a
            .iter()
            .map(|&x| {
                carry = (carry * 31 + x) % 65_521;
                carry
            })
            .collect();
        assert_eq!(through_scalar(&a, &mut c), carry, "through a scalar, {n} elements");
        assert_eq!(c, wc, "through a scalar, {n} elements");

        let mut u = vec_of(n + 1, |i| i as u32);
        let mut wu = u.clone();
        for i in 0..n {
            wu[i] = wu[i + 1] + 1;
        }
        backwards(&mut u);
        assert_eq!(u, wu, "backwards, {n} elements");
    }
    for (n, m) in [(1, 1), (5, 3), (300, 300), (2000, 1000)] {
        let mut c = vec![0u32; n + m];
        overlapping_windows(&mut c, n, m);
        let mut want = vec![0u32; n + m];
        for j in 0..n {
            for i in 0..m {
                want[j + i] += (j ^ i) as u32 & 3;
            }
        }
        assert_eq!(c, want, "overlapping windows {n}x{m}");
    }
}

/// A dependence through a field of a `DeviceCopy` element stays sequential in `kernels`.
#[test]
fn kernels_dependence_through_field() {
    #[acc::kernels]
    fn chain(p: &mut [Particle]) {
        for i in 1..p.len() {
            p[i].pos[0] = p[i - 1].pos[0] + p[i].vel[0];
        }
    }
    for n in [1usize, 2, 1001, 65537] {
        let mut p = particles(n);
        let mut want = p.clone();
        for i in 1..n {
            want[i].pos[0] = want[i - 1].pos[0] + want[i].vel[0];
        }
        chain(&mut p);
        assert_eq!(p, want, "{n} particles");
    }
}

/// `kernels` loop nests the analysis proves independent (2-D, with `j * m + i`), loops marked
/// `independent`, `gang`/`vector` sizes, and a nest whose second loop reads what the first
/// wrote (each nest is its own kernel, so the second sees the first's results).
#[test]
fn kernels_independent_nests() {
    #[acc::kernels(num_gangs(8), vector_length(64))]
    fn nests(a: &[f32], b: &mut [f32], c: &mut [f32], n: usize, m: usize) {
        for j in 0..n {
            for i in 0..m {
                b[j * m + i] = a[j * m + i] * 2.0;
            }
        }
        #[acc::r#loop(independent, gang(4))]
        for j in 0..n {
            #[acc::r#loop(vector(32))]
            for i in 0..m {
                c[j * m + i] = b[(n - 1 - j) * m + (m - 1 - i)] + 1.0;
            }
        }
    }
    for (n, m) in [(0, 0), (1, 1), (3, 700), (64, 65), (129, 33)] {
        let a = vec_of(n * m, |i| (hash(i) % 1024) as f32);
        let mut b = vec![0.0f32; n * m];
        let mut c = vec![0.0f32; n * m];
        nests(&a, &mut b, &mut c, n, m);
        let wb: Vec<f32> = a.iter().map(|x| x * 2.0).collect();
        let wc: Vec<f32> = (0..n * m).map(|k| wb[n * m - 1 - k] + 1.0).collect();
        assert_eq!((b, c), (wb, wc), "{n}x{m}");
    }
}

// ---- if, level sizes, async, wait ----------------------------------------------------------

/// `if(false)` runs the region on the host, `if(true)` on the device: the same results. The
/// condition is any expression over the parameters.
#[test]
fn if_clause() {
    #[acc::parallel(if(on_device), copyin(a), copyout(c))]
    fn scale(a: &[f64], c: &mut [f64], on_device: bool) {
        #[acc::r#loop(gang, vector)]
        for i in 0..c.len() {
            c[i] = a[i] * 3.0 - 1.0;
        }
    }
    #[acc::parallel(if(a.len() > 1000))]
    fn sum_if_large(a: &[i64]) -> i64 {
        let mut s = 4;
        #[acc::r#loop(gang, vector, reduction(+: s))]
        for i in 0..a.len() {
            s += a[i];
        }
        s
    }
    #[acc::kernels(if(false))]
    fn dependent(a: &mut [i32]) {
        for i in 1..a.len() {
            a[i] += a[i - 1];
        }
    }
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 77) as f64);
        let want: Vec<f64> = a.iter().map(|x| x * 3.0 - 1.0).collect();
        for on_device in [false, true] {
            let mut c = vec![0.0; n];
            scale(&a, &mut c, on_device);
            assert_eq!(c, want, "{n} elements, if({on_device})");
        }
        let ai = vec_of(n, |i| i as i64 - 3);
        assert_eq!(sum_if_large(&ai), 4 + ai.iter().sum::<i64>(), "{n} elements");
        let mut d = vec![1i32; n];
        dependent(&mut d);
        assert_eq!(d, (1..=n as i32).collect::<Vec<_>>(), "{n} elements");
    }
}

/// `num_gangs`, `num_workers`, `vector_length` (constants, expressions over the parameters,
/// sizes that are not powers of two) leave results unchanged.
#[test]
fn level_sizes_do_not_change_results() {
    #[acc::parallel(num_gangs(g), num_workers(w), vector_length(v))]
    fn sized(a: &[u32], c: &mut [u32], n: usize, m: usize, g: usize, w: usize, v: usize) -> u64 {
        let mut s = 0u64;
        #[acc::r#loop(gang, reduction(+: s))]
        for j in 0..n {
            #[acc::r#loop(worker, vector, reduction(+: s))]
            for i in 0..m {
                c[j * m + i] = a[j * m + i] ^ 0x55;
                s += a[j * m + i] as u64;
            }
        }
        s
    }
    #[acc::parallel(num_gangs(3), num_workers(2), vector_length(96))]
    fn constants(a: &[u32]) -> u32 {
        let mut m = 0u32;
        #[acc::r#loop(gang, worker, vector, reduction(max: m))]
        for i in 0..a.len() {
            m = m.max(a[i]);
        }
        m
    }
    #[acc::parallel(num_gangs(a.len() / 128 + 1), vector_length(if a.len() > 100 { 128 } else { 32 }))]
    fn expressions(a: &[u32]) -> u32 {
        let mut x = 0u32;
        #[acc::r#loop(gang, vector, reduction(^: x))]
        for i in 0..a.len() {
            x ^= a[i];
        }
        x
    }
    // Counts of any integer type, as `as usize` converts them.
    #[acc::parallel(num_gangs(g), num_workers(w), vector_length(v))]
    fn typed(a: &[u32], g: u32, w: i64, v: u16) -> u32 {
        let mut m = 0u32;
        #[acc::r#loop(gang, worker, vector, reduction(max: m))]
        for i in 0..a.len() {
            m = m.max(a[i]);
        }
        m
    }
    let (n, m) = (37, 301);
    let a = vec_of(n * m, |i| hash(i) as u32);
    assert_eq!(typed(&a, 7, 3, 33), a.iter().copied().max().unwrap_or(0), "u32, i64 and u16 counts");
    let want_c: Vec<u32> = a.iter().map(|x| x ^ 0x55).collect();
    let want_s: u64 = a.iter().map(|&x| x as u64).sum();
    for (g, w, v) in [(1, 1, 1), (1, 1, 32), (7, 3, 33), (1000, 4, 128), (2, 32, 1024)] {
        let mut c = vec![0u32; n * m];
        assert_eq!(sized(&a, &mut c, n, m, g, w, v), want_s, "num_gangs({g}) num_workers({w}) vector_length({v})");
        assert_eq!(c, want_c, "num_gangs({g}) num_workers({w}) vector_length({v})");
    }
    for len in SIZES {
        let a = &a[..len.min(a.len())];
        assert_eq!(constants(a), a.iter().copied().max().unwrap_or(0));
        assert_eq!(expressions(a), a.iter().fold(0, |x, y| x ^ y));
    }
}

/// `async(q)` regions complete by `acc::wait(q)`; regions on one queue run in order; `wait(q)`
/// on a region orders it after queue `q`'s work; `acc::wait_all` waits for every queue.
#[test]
fn async_queues_and_wait() {
    #[acc::parallel(async(q))]
    fn double(a: &[i32], b: &mut [i32], q: i64) {
        #[acc::r#loop(gang, vector)]
        for i in 0..b.len() {
            b[i] = a[i] * 2;
        }
    }
    #[acc::parallel(async(q))]
    fn add_one(b: &[i32], c: &mut [i32], q: i64) {
        #[acc::r#loop(gang, vector)]
        for i in 0..c.len() {
            c[i] = b[i] + 1;
        }
    }
    #[acc::parallel(wait(q), async(q + 1))]
    fn negate_after(c: &[i32], d: &mut [i32], q: i64) {
        #[acc::r#loop(gang, vector)]
        for i in 0..d.len() {
            d[i] = -c[i];
        }
    }
    #[acc::parallel(async)]
    fn square_default_queue(a: &[i32], e: &mut [i32]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..e.len() {
            e[i] = a[i] * a[i];
        }
    }
    #[acc::parallel(wait)]
    fn after_everything(d: &[i32], e: &[i32], f: &mut [i32]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..f.len() {
            f[i] = d[i] + e[i];
        }
    }
    for n in [0usize, 1, 1001, 65537] {
        let a = vec_of(n, |i| (hash(i) % 1000) as i32 - 500);
        let (mut b, mut c, mut d, mut e, mut f) = (vec![0; n], vec![0; n], vec![0; n], vec![0; n], vec![0; n]);
        acc::data!(copyin(a), create(b, c), copyout(d, e, f) {
            double(&a, &mut b, 1);
            add_one(&b, &mut c, 1);
            negate_after(&c, &mut d, 1);
            square_default_queue(&a, &mut e);
            after_everything(&d, &e, &mut f);
            acc::wait(2);
            acc::wait_all();
        });
        let wd: Vec<i32> = a.iter().map(|x| -(x * 2 + 1)).collect();
        let we: Vec<i32> = a.iter().map(|x| x * x).collect();
        let wf: Vec<i32> = wd.iter().zip(&we).map(|(x, y)| x + y).collect();
        assert_eq!((d, e, f), (wd, we, wf), "{n} elements");
    }
}

/// `acc::wait` and `acc::wait_all` with nothing queued return at once; a queue that is not a
/// number >= -1 (or the synchronous -2) is refused.
#[test]
fn wait_api() {
    acc::wait(0);
    acc::wait(17);
    acc::wait(-1);
    acc::wait_all();
    let e = std::panic::catch_unwind(|| acc::wait(-7)).expect_err("queue -7 must be refused");
    let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("-7"), "{msg}");
}

// ---- region-level private / firstprivate, statements between loops -------------------------

/// Region-level `firstprivate` of a value and `private` of a slice parameter: the slice is
/// scratch space for each gang, never copied back.
#[test]
fn region_private_and_firstprivate() {
    #[acc::parallel(firstprivate(bias), private(scratch))]
    fn rows(a: &[i32], c: &mut [i32], scratch: &mut [i32], bias: i32, n: usize, m: usize) {
        #[acc::r#loop(gang)]
        for j in 0..n {
            for i in 0..m {
                scratch[i] = a[j * m + i] + bias;
            }
            let mut s = 0;
            for i in 0..m {
                s += scratch[m - 1 - i] * (i as i32 + 1);
            }
            c[j] = s;
        }
    }
    for (n, m) in [(0, 4), (1, 1), (5, 16), (300, 64)] {
        let a = vec_of(n * m, |i| (hash(i) % 50) as i32);
        let mut c = vec![0; n];
        let mut scratch = vec![-1i32; m];
        rows(&a, &mut c, &mut scratch, 3, n, m);
        let want: Vec<i32> = (0..n).map(|j| (0..m).map(|i| (a[j * m + m - 1 - i] + 3) * (i as i32 + 1)).sum()).collect();
        assert_eq!(c, want, "{n}x{m}");
        assert_eq!(scratch, vec![-1; m], "a private slice is not copied back");
    }
}

/// Values computed by statements outside the loops (gang-redundant code) and between nested
/// loops reach every iteration that uses them (DESIGN §4.4).
#[test]
fn statements_between_loops_broadcast() {
    #[acc::parallel]
    fn affine_rows(a: &[f64], c: &mut [f64], n: usize, m: usize, k: f64) {
        let scale = k * 0.5;
        let shift = (n + m) as f64;
        #[acc::r#loop(gang)]
        for j in 0..n {
            let row = j * m;
            let row_shift = shift + j as f64;
            #[acc::r#loop(vector)]
            for i in 0..m {
                c[row + i] = a[row + i] * scale + row_shift;
            }
        }
    }
    for (n, m) in [(0, 0), (1, 1), (3, 1000), (257, 31)] {
        let a = vec_of(n * m, |i| (i % 1000) as f64);
        let mut c = vec![0.0; n * m];
        affine_rows(&a, &mut c, n, m, 4.0);
        let want: Vec<f64> = (0..n * m).map(|x| a[x] * 2.0 + (n + m) as f64 + (x / m) as f64).collect();
        assert_eq!(c, want, "{n}x{m}");
    }
}

// ---- routines -------------------------------------------------------------------------------

#[acc::routine(seq)]
fn poly(x: f64) -> f64 {
    (3.0 * x - 2.0) * x + 1.0
}

#[acc::routine(seq)]
fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// A routine calling a routine.
#[acc::routine(seq)]
fn poly_plus_gcd(x: f64, a: u64, b: u64) -> f64 {
    poly(x) + gcd(a, b) as f64
}

/// A routine taking a slice, with a `seq` loop inside.
#[acc::routine(seq)]
fn window_sum(a: &[i32], lo: usize, len: usize) -> i32 {
    let mut s = 0;
    #[acc::r#loop(seq)]
    for i in lo..lo + len {
        s += a[i];
    }
    s
}

/// A vector routine: its loop is a vector loop with a reduction.
#[acc::routine(vector)]
fn row_max(a: &[i64], row: usize, m: usize) -> i64 {
    let mut mx = i64::MIN;
    #[acc::r#loop(vector, reduction(max: mx))]
    for i in 0..m {
        mx = mx.max(a[row * m + i]);
    }
    mx
}

/// `#[acc::routine(seq)]` fns called from a parallel loop body give what they give on the host.
#[test]
fn seq_routines_in_loop_bodies() {
    #[acc::parallel]
    fn apply(x: &[f64], a: &[u64], b: &[u64], c: &mut [f64], w: &mut [i32], ints: &[i32]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..c.len() {
            c[i] = poly_plus_gcd(x[i], a[i], b[i]);
        }
        #[acc::r#loop(gang, vector)]
        for i in 0..w.len() {
            w[i] = window_sum(ints, i, 4);
        }
    }
    for n in SIZES {
        let x = vec_of(n, |i| (i % 64) as f64 * 0.5);
        let a = vec_of(n, |i| hash(i) % 10_000 + 1);
        let b = vec_of(n, |i| hash(i + 99) % 10_000);
        let ints = vec_of(n + 3, |i| (hash(i) % 100) as i32);
        let mut c = vec![0.0; n];
        let mut w = vec![0; n];
        apply(&x, &a, &b, &mut c, &mut w, &ints);
        // The same fns called on the host.
        let want: Vec<f64> = (0..n).map(|i| poly_plus_gcd(x[i], a[i], b[i])).collect();
        assert_eq!(c, want, "{n} elements");
        let want: Vec<i32> = (0..n).map(|i| ints[i..i + 4].iter().sum()).collect();
        assert_eq!(w, want, "{n} elements");
        assert_eq!(window_sum(&ints, 0, n.min(3)), ints[..n.min(3)].iter().sum::<i32>());
    }
    assert_eq!(gcd(84, 36), 12);
    assert_eq!(poly(2.0), 9.0);
}

/// A `routine(vector)` called from a gang loop reduces each row.
#[test]
fn vector_routine_from_gang_loop() {
    #[acc::parallel]
    fn maxima(a: &[i64], out: &mut [i64], m: usize) {
        #[acc::r#loop(gang)]
        for j in 0..out.len() {
            out[j] = row_max(a, j, m);
        }
    }
    for (n, m) in [(0, 3), (1, 1), (4, 1000), (300, 17)] {
        let a = vec_of(n * m, |i| (hash(i) % 100_000) as i64 - 50_000);
        let mut out = vec![0i64; n];
        maxima(&a, &mut out, m);
        let want: Vec<i64> = (0..n).map(|j| *a[j * m..(j + 1) * m].iter().max().unwrap()).collect();
        assert_eq!(out, want, "{n}x{m}");
        if n > 0 {
            assert_eq!(row_max(&a, n - 1, m), want[n - 1]);
        }
    }
}

// ---- DeviceCopy -----------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
struct Affine {
    scale: f32,
    offset: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
struct Particle {
    pos: [f32; 3],
    vel: [f32; 3],
    mass: f32,
    id: u32,
}

/// A `DeviceCopy` struct holding another one and a `bool`.
#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
struct Tagged {
    map: Affine,
    flip: bool,
    tag: u16,
}

fn particles(n: usize) -> Vec<Particle> {
    vec_of(n, |i| Particle {
        pos: [i as f32, (i % 7) as f32, -(i as f32)],
        vel: [0.5, (hash(i) % 8) as f32 - 4.0, 0.25],
        mass: (1 + i % 3) as f32,
        id: i as u32,
    })
}

/// A `DeviceCopy` struct passed by value.
#[test]
fn device_copy_by_value() {
    #[acc::parallel]
    fn map(a: &[f32], c: &mut [f32], f: Affine, t: Tagged) {
        #[acc::r#loop(gang, vector)]
        for i in 0..c.len() {
            let y = a[i] * f.scale + f.offset;
            let z = y * t.map.scale + t.map.offset + t.tag as f32;
            c[i] = if t.flip { -z } else { z };
        }
    }
    let f = Affine { scale: 2.0, offset: -1.0 };
    for flip in [false, true] {
        let t = Tagged { map: Affine { scale: 0.5, offset: 4.0 }, flip, tag: 3 };
        for n in SIZES {
            let a = vec_of(n, |i| (i % 100) as f32);
            let mut c = vec![0.0f32; n];
            map(&a, &mut c, f, t);
            let want: Vec<f32> = a
                .iter()
                .map(|x| {
                    let z = (x * 2.0 - 1.0) * 0.5 + 4.0 + 3.0;
                    if flip {
                        -z
                    } else {
                        z
                    }
                })
                .collect();
            assert_eq!(c, want, "{n} elements, flip {flip}");
        }
    }
}

/// Slices of `DeviceCopy` structs: read-only, read-write through fields and array fields,
/// whole-element writes, and a reduction over a field.
#[test]
fn device_copy_slices() {
    #[acc::parallel]
    fn step(p: &mut [Particle], forces: &[Affine], dt: f32) -> f32 {
        let mut total_mass = 0.0f32;
        #[acc::r#loop(gang, vector, reduction(+: total_mass))]
        for i in 0..p.len() {
            for k in 0..3 {
                p[i].vel[k] = p[i].vel[k] * forces[i].scale + forces[i].offset;
                p[i].pos[k] += p[i].vel[k] * dt;
            }
            p[i].id += 1_000_000;
            total_mass += p[i].mass;
        }
        total_mass
    }
    #[acc::parallel]
    fn reflect(p: &[Particle], q: &mut [Particle]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..q.len() {
            let s = p[p.len() - 1 - i];
            q[i] = Particle { pos: [-s.pos[0], -s.pos[1], -s.pos[2]], vel: s.vel, mass: s.mass * 2.0, id: s.id };
        }
    }
    for n in SIZES {
        let mut p = particles(n);
        let forces = vec_of(n, |i| Affine { scale: if i % 2 == 0 { 1.0 } else { 0.5 }, offset: (i % 3) as f32 });
        let mut want = p.clone();
        let mut want_mass = 0.0f32;
        for i in 0..n {
            for k in 0..3 {
                want[i].vel[k] = want[i].vel[k] * forces[i].scale + forces[i].offset;
                want[i].pos[k] += want[i].vel[k] * 0.25;
            }
            want[i].id += 1_000_000;
            want_mass += want[i].mass;
        }
        assert_eq!(step(&mut p, &forces, 0.25), want_mass, "{n} particles");
        assert_eq!(p, want, "{n} particles");

        let mut q = vec![particles(1).pop().unwrap_or(Particle { pos: [0.0; 3], vel: [0.0; 3], mass: 0.0, id: 0 }); n];
        reflect(&p, &mut q);
        let want_q: Vec<Particle> = p
            .iter()
            .rev()
            .map(|s| Particle { pos: [-s.pos[0], -s.pos[1], -s.pos[2]], vel: s.vel, mass: s.mass * 2.0, id: s.id })
            .collect();
        assert_eq!(q, want_q, "{n} particles");
    }
}

/// A region-level reduction over struct fields and a per-element `DeviceCopy` result.
#[test]
fn device_copy_fields_reduced() {
    #[acc::parallel]
    fn extent(p: &[Particle]) -> (f32, f32, u32) {
        let mut lo = f32::INFINITY;
        let mut hi = f32::NEG_INFINITY;
        let mut ids = 0u32;
        #[acc::r#loop(gang, vector, reduction(min: lo), reduction(max: hi), reduction(|: ids))]
        for i in 0..p.len() {
            lo = lo.min(p[i].pos[1]);
            hi = hi.max(p[i].pos[2]);
            ids |= p[i].id;
        }
        (lo, hi, ids)
    }
    for n in SIZES {
        let p = particles(n);
        let want = (
            p.iter().fold(f32::INFINITY, |m, q| m.min(q.pos[1])),
            p.iter().fold(f32::NEG_INFINITY, |m, q| m.max(q.pos[2])),
            p.iter().fold(0, |m, q| m | q.id),
        );
        assert_eq!(extent(&p), want, "{n} particles");
    }
}

/// `kernels` multi-dimensional gang schedules (`gang(dim: ..)`), `collapse` and a `seq` loop
/// inside an independent one give the plain nest's result.
#[test]
fn kernels_schedules() {
    #[acc::kernels]
    fn grid(c: &mut [u32], d: &mut [u32], n: usize, m: usize) {
        #[acc::r#loop(gang(dim: 2))]
        for j in 0..n {
            #[acc::r#loop(gang(dim: 1), vector(128))]
            for i in 0..m {
                c[j * m + i] = (j * 31 + i * 7) as u32;
            }
        }
        #[acc::r#loop(independent, collapse(2))]
        for j in 0..n {
            for i in 0..m {
                d[j * m + i] = c[j * m + i] ^ 0xFF;
            }
        }
        #[acc::r#loop(independent, gang)]
        for j in 0..n {
            #[acc::r#loop(seq)]
            for i in 1..m {
                d[j * m + i] += d[j * m + i - 1] % 7;
            }
        }
    }
    #[acc::kernels]
    fn gv_gv(c: &mut [u32], n: usize, m: usize) {
        #[acc::r#loop(gang(dim: 2), vector(4))]
        for j in 0..n {
            #[acc::r#loop(gang(dim: 1), vector(32))]
            for i in 0..m {
                c[j * m + i] += 1;
            }
        }
    }
    for (n, m) in [(0, 3), (1, 1), (7, 300), (65, 129)] {
        let mut c = vec![0u32; n * m];
        let mut d = vec![0u32; n * m];
        gv_gv(&mut c, n, m);
        assert!(c.iter().all(|&x| x == 1), "gv-gv visits every element once, {n}x{m}");
        grid(&mut c, &mut d, n, m);
        let wc: Vec<u32> = (0..n * m).map(|k| ((k / m) * 31 + (k % m) * 7) as u32).collect();
        let mut wd: Vec<u32> = wc.iter().map(|x| x ^ 0xFF).collect();
        for j in 0..n {
            for i in 1..m {
                wd[j * m + i] += wd[j * m + i - 1] % 7;
            }
        }
        assert_eq!((c, d), (wc, wd), "{n}x{m}");
    }
}

// ---- more region forms ----------------------------------------------------------------------

/// A `const` item of the crate, used in a region.
const STENCIL_WIDTH: usize = 5;

/// `#[acc::routine(worker)]` and `#[acc::routine(gang)]` fns with their loops, called from a
/// region (and from the host).
#[acc::routine(worker)]
fn row_dot(a: &[f32], b: &[f32], row: usize, m: usize) -> f32 {
    let mut s = 0.0f32;
    #[acc::r#loop(worker, vector, reduction(+: s))]
    for i in 0..m {
        s += a[row * m + i] * b[i];
    }
    s
}

#[acc::routine(gang)]
fn all_rows_plus(a: &mut [f32], n: usize, m: usize, k: f32) {
    #[acc::r#loop(gang)]
    for j in 0..n {
        #[acc::r#loop(vector)]
        for i in 0..m {
            a[j * m + i] += k;
        }
    }
}

#[test]
fn worker_and_gang_routines() {
    #[acc::parallel]
    fn matvec_then_add(a: &mut [f32], x: &[f32], y: &mut [f32], n: usize, m: usize) {
        #[acc::r#loop(gang)]
        for j in 0..n {
            y[j] = row_dot(a, x, j, m);
        }
        all_rows_plus(a, n, m, 0.5);
    }
    for (n, m) in [(0, 0), (1, 1), (5, 100), (64, 33)] {
        let mut a = vec_of(n * m, |i| (i % 50) as f32);
        let x = vec_of(m, |i| (i % 3) as f32 - 1.0);
        let mut y = vec![0.0f32; n];
        let wy: Vec<f32> = (0..n).map(|j| (0..m).map(|i| a[j * m + i] * x[i]).sum()).collect();
        let wa: Vec<f32> = a.iter().map(|v| v + 0.5).collect();
        matvec_then_add(&mut a, &x, &mut y, n, m);
        assert_eq!((&a, &y), (&wa, &wy), "{n}x{m}");
        all_rows_plus(&mut a, n, m, -0.5);
        assert_eq!(a, wa.iter().map(|v| v - 0.5).collect::<Vec<_>>());
    }
}

/// `default(none)` with every parameter named, a region-level `firstprivate` slice, a crate
/// `const`, and independent gang loops over different arrays in one region.
#[test]
fn default_none_firstprivate_slice_and_const() {
    #[acc::parallel(default(none), copyin(a), copy(c), copyout(d), firstprivate(weights))]
    fn weighted(a: &[f64], c: &mut [f64], d: &mut [f64], weights: &[f64]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..c.len() {
            let mut s = 0.0;
            for k in 0..STENCIL_WIDTH {
                s += weights[k] * a[i + k];
            }
            c[i] += s;
        }
        #[acc::r#loop(gang, vector)]
        for i in 0..d.len() {
            d[i] = a[i] * weights[i % STENCIL_WIDTH];
        }
    }
    let weights = [0.5, 0.25, 1.0, 2.0, 0.125];
    for n in [0usize, 1, 1001, 65537] {
        let a = vec_of(n + STENCIL_WIDTH, |i| (i % 64) as f64);
        let mut c = vec![1.0f64; n];
        let mut d = vec![0.0f64; n];
        weighted(&a, &mut c, &mut d, &weights);
        let wc: Vec<f64> = (0..n).map(|i| 1.0 + (0..STENCIL_WIDTH).map(|k| weights[k] * a[i + k]).sum::<f64>()).collect();
        let wd: Vec<f64> = (0..n).map(|i| a[i] * weights[i % STENCIL_WIDTH]).collect();
        assert_eq!((c, d), (wc, wd), "{n} elements");
    }
}

/// A region with no loops: its statements run (gang-redundantly) and its value comes back.
#[test]
fn region_without_loops() {
    #[acc::serial]
    fn first_last(a: &[i32]) -> (i32, i32) {
        (a[0], a[a.len() - 1])
    }
    #[acc::parallel(num_gangs(1))]
    fn swap_ends(a: &mut [i32]) {
        let n = a.len();
        let t = a[0];
        a[0] = a[n - 1];
        a[n - 1] = t;
    }
    let mut a = vec_of(100, |i| i as i32);
    assert_eq!(first_last(&a), (0, 99));
    swap_ends(&mut a);
    assert_eq!(first_last(&a), (99, 0));
}

/// Code between loops that stores (run by each gang's leader) and assigns a local the loop
/// after it reads: the local reaches every thread (on the GPU, a broadcast of 24 bytes).
#[test]
fn a_leaders_assignment_reaches_the_vector_loop() {
    #[acc::parallel(vector_length(64))]
    fn fill(a: &[i64], out: &mut [i64], n: usize, m: usize) {
        #[acc::r#loop(gang)]
        for k in 0..n {
            let mut last = [0i64; 3];
            {
                out[k * (m + 1)] = 1;
                last = [k as i64 + last[0], 2 * k as i64, 3]; // (reads the first value: it is 0)
            }
            #[acc::r#loop(vector)]
            for i in 0..m {
                out[k * (m + 1) + 1 + i] = a[i] + last[0] + last[1] + last[2];
            }
        }
    }
    for (n, m) in [(0, 5), (1, 1), (7, 100), (33, 300)] {
        let a = vec_of(m, |i| i as i64 * 5 - 7);
        let mut out = vec![0i64; n * (m + 1)];
        fill(&a, &mut out, n, m);
        let mut want = vec![0i64; n * (m + 1)];
        for k in 0..n {
            want[k * (m + 1)] = 1;
            for i in 0..m {
                want[k * (m + 1) + 1 + i] = a[i] + 3 * k as i64 + 3;
            }
        }
        assert_eq!(out, want, "{n}x{m}");
    }
}

/// An index that reads the array it indexes (`a[a.len() - 1 - i] += ..`, `a[k % a.len()] = ..`):
/// Rust takes it on a `&mut [T]`; the GPU build takes it too.
#[test]
fn an_index_may_read_its_own_array() {
    #[acc::parallel]
    fn reverse_add(a: &mut [i64], b: &[i64]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..b.len() {
            a[a.len() - 1 - i] += b[i];
        }
    }
    #[acc::parallel]
    fn scatter(a: &mut [i64], n: usize) {
        #[acc::r#loop(gang, vector)]
        for k in 0..n {
            a[(k * 7) % a.len()] = k as i64;
        }
    }
    for n in [1usize, 33, 999] {
        let b = vec_of(n, |i| i as i64 * 3 - 5);
        let mut a = vec_of(n, |i| i as i64);
        reverse_add(&mut a, &b);
        assert_eq!(a, (0..n).map(|i| i as i64 + b[n - 1 - i]).collect::<Vec<_>>(), "reverse_add {n}");
        // 7 and the length (2, 34, 1000) share no factor: each k writes its own element.
        let mut s = vec![-1i64; n + 1];
        scatter(&mut s, n + 1);
        let mut want = vec![-1i64; n + 1];
        for k in 0..n + 1 {
            want[(k * 7) % (n + 1)] = k as i64;
        }
        assert_eq!(s, want, "scatter {}", n + 1);
    }
}
