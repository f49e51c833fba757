//! OpenACC 3.3's spelled clause forms (issue 53): `worker(num: n)`, `vector(length: n)`,
//! `gang(static: n)`, `gang(static: *)`, `collapse(force: n)` on tightly nested loops,
//! `tile(*)` and `tile(*, *)`. Each region's result is checked against the same loop in plain
//! Rust, on whichever backend runs the suite.

mod common;

/// The lengths the loops are run over: empty, one, odd, not a multiple of any block or chunk.
const LENS: [usize; 6] = [0, 1, 7, 33, 1000, 4099];

#[acc::kernels]
fn spelled_sizes(a: &[i64], rows: usize, cols: usize, out: &mut [i64]) {
    #[acc::r#loop(gang(num: 4), worker(num: 2))]
    for r in 0..rows {
        #[acc::r#loop(vector(length: 32))]
        for c in 0..cols {
            out[r * cols + c] = 3 * a[r * cols + c] + r as i64;
        }
    }
}

#[test]
fn worker_num_and_vector_length_size_the_levels() {
    for (rows, cols) in [(0, 5), (1, 1), (3, 33), (17, 100), (64, 7)] {
        let a: Vec<i64> = (0..rows * cols).map(|x| x as i64 * 7 - 50).collect();
        let mut out = vec![0i64; rows * cols];
        spelled_sizes(&a, rows, cols, &mut out);
        let want: Vec<i64> = (0..rows * cols).map(|k| 3 * a[k] + (k / cols.max(1)) as i64).collect();
        assert_eq!(out, want, "{rows} x {cols}");
    }
}

#[acc::parallel]
fn static_chunks(a: &[i64], out: &mut [i64]) {
    #[acc::r#loop(gang(static: 4), vector)]
    for i in 0..out.len() {
        out[i] = a[i] * a[i] - 1;
    }
}

#[acc::parallel]
fn static_star_sum(a: &[i64]) -> i64 {
    let mut s = 0i64;
    #[acc::r#loop(gang(static: *), reduction(+: s))]
    for i in 0..a.len() {
        s += a[i] * (i as i64 % 5);
    }
    s
}

#[acc::kernels]
fn static_chunks_kernels(a: &[i64], out: &mut [i64]) {
    #[acc::r#loop(gang(static: 3))]
    for i in 0..out.len() {
        out[i] = a[i] + 11;
    }
}

#[test]
fn gang_static_visits_every_trip_once() {
    for n in LENS {
        let a: Vec<i64> = (0..n as i64).map(|x| x - 300).collect();
        let mut out = vec![i64::MIN; n];
        static_chunks(&a, &mut out);
        assert_eq!(out, a.iter().map(|x| x * x - 1).collect::<Vec<_>>(), "n = {n}");
        let want: i64 = a.iter().enumerate().map(|(i, x)| x * (i as i64 % 5)).sum();
        assert_eq!(static_star_sum(&a), want, "n = {n}");
        let mut out = vec![i64::MIN; n];
        static_chunks_kernels(&a, &mut out);
        assert_eq!(out, a.iter().map(|x| x + 11).collect::<Vec<_>>(), "n = {n}");
    }
}

#[acc::parallel]
fn force_collapsed(a: &[i64], n: usize, m: usize, out: &mut [i64]) -> i64 {
    let mut s = 0i64;
    #[acc::r#loop(gang, vector, collapse(force: 2), reduction(+: s))]
    for i in 0..n {
        for j in 0..m {
            out[i * m + j] = a[i * m + j] - (j as i64);
            s += a[i * m + j];
        }
    }
    s
}

#[test]
fn collapse_force_on_a_tight_nest_is_collapse() {
    for (n, m) in [(0, 3), (1, 1), (5, 7), (33, 65), (100, 3)] {
        let a: Vec<i64> = (0..n * m).map(|x| (x as i64 * 13) % 101).collect();
        let mut out = vec![0i64; n * m];
        let s = force_collapsed(&a, n, m, &mut out);
        assert_eq!(s, a.iter().sum::<i64>(), "{n} x {m}");
        let want: Vec<i64> = (0..n * m).map(|k| a[k] - (k % m.max(1)) as i64).collect();
        assert_eq!(out, want, "{n} x {m}");
    }
}

#[acc::parallel]
fn tiled_star(a: &[i64], n: usize, m: usize, out: &mut [i64]) {
    #[acc::r#loop(tile(*, *))]
    for i in 0..n {
        for j in 0..m {
            out[i * m + j] = 2 * a[j * n + i];
        }
    }
}

#[acc::parallel]
fn tiled_star_1d(a: &[i64], out: &mut [i64]) {
    #[acc::r#loop(tile(*))]
    for i in 0..out.len() {
        out[i] = a[i] + 5;
    }
}

#[acc::kernels]
fn tiled_star_mixed(a: &[i64], n: usize, m: usize, out: &mut [i64]) {
    #[acc::r#loop(tile(*, 4))]
    for i in 0..n {
        for j in 0..m {
            out[i * m + j] = a[i * m + j] * 3;
        }
    }
}

#[test]
fn tile_star_takes_every_element_once() {
    for (n, m) in [(0, 4), (1, 1), (9, 31), (40, 33), (70, 129)] {
        let a: Vec<i64> = (0..n * m).map(|x| x as i64 * 3 - 7).collect();
        let mut out = vec![i64::MIN; n * m];
        tiled_star(&a, n, m, &mut out);
        let want: Vec<i64> = (0..n * m).map(|k| 2 * a[(k % m) * n + k / m]).collect();
        assert_eq!(out, want, "tile(*, *) {n} x {m}");
        let mut out = vec![i64::MIN; n * m];
        tiled_star_mixed(&a, n, m, &mut out);
        assert_eq!(out, a.iter().map(|x| x * 3).collect::<Vec<_>>(), "tile(*, 4) {n} x {m}");
    }
    for n in LENS {
        let a: Vec<i64> = (0..n as i64).collect();
        let mut out = vec![i64::MIN; n];
        tiled_star_1d(&a, &mut out);
        assert_eq!(out, a.iter().map(|x| x + 5).collect::<Vec<_>>(), "tile(*) n = {n}");
    }
}

// ---- `routine`'s `bind` and `nohost`, `device_type` (OpenACC 3.4) ----------------------------

/// The GPU's version of `twice`: `bind(twice_gpu)` makes the GPU call it where a region calls
/// `twice`; the host (the host backend's regions and direct calls) calls `twice` itself. It
/// differs by one, so that the test sees which ran.
#[acc::routine(seq)]
fn twice_gpu(x: i64) -> i64 {
    x + x + 1
}

#[acc::routine(seq, bind(twice_gpu), nohost)]
fn twice(x: i64) -> i64 {
    2 * x
}

#[acc::parallel]
fn twice_all(a: &[i64], out: &mut [i64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = twice(a[i]);
    }
}

#[test]
fn routine_bind_calls_the_gpu_version_on_the_gpu() {
    let on_gpu = acc::device_type() == acc::DeviceType::Nvidia;
    for n in LENS {
        let a: Vec<i64> = (0..n as i64).collect();
        let mut out = vec![0; n];
        twice_all(&a, &mut out);
        let want: Vec<i64> = a.iter().map(|&x| if on_gpu { twice_gpu(x) } else { twice(x) }).collect();
        assert_eq!(out, want, "{n} elements, on the GPU: {on_gpu}");
    }
    // `nohost`: the host version stays, callable from the host.
    assert_eq!(twice(21), 42);
}

/// `device_type`: the GPU takes `vector_length(64)` and the loop's `gang, vector`; the host
/// backend the `host` group (a count it has no use for, and `seq`: the loop in order).
#[acc::parallel(device_type(nvidia), vector_length(64), device_type(host), num_gangs(4))]
fn per_device(a: &[i64], out: &mut [i64]) -> i64 {
    let mut s = 0;
    #[acc::r#loop(reduction(+: s), device_type(nvidia), gang, vector, device_type(host), seq)]
    for i in 0..a.len() {
        out[i] = 3 * a[i];
        s += a[i];
    }
    s
}

/// `dtype`, `*` and `acc_device_nvidia`: the `*` group is every device type no other group names.
#[acc::kernels(dtype(acc_device_nvidia), num_workers(2), vector_length(32), dtype(*), num_gangs(8))]
fn per_device_star(a: &[i64], out: &mut [i64]) {
    #[acc::r#loop(gang, dtype(*), seq, dtype(nvidia), vector, collapse(1))]
    for i in 0..a.len() {
        out[i] = a[i] - 1;
    }
}

#[test]
fn device_type_groups_run_right_on_each_backend() {
    for n in LENS {
        let a: Vec<i64> = (0..n as i64).map(|x| x * 7 % 13).collect();
        let mut out = vec![0; n];
        assert_eq!(per_device(&a, &mut out), a.iter().sum::<i64>(), "{n} elements");
        assert_eq!(out, a.iter().map(|x| 3 * x).collect::<Vec<_>>());
        per_device_star(&a, &mut out);
        assert_eq!(out, a.iter().map(|x| x - 1).collect::<Vec<_>>());
    }
}

/// `collapse(force: 2)` over loops with code between them: the code before the inner loop and
/// after it runs once per collapsed iteration (OpenACC 3.3), here a row's weight and a count.
#[acc::parallel]
fn force_between(b: &[i64], n: usize, m: usize, out: &mut [i64]) -> i64 {
    let mut count = 0i64;
    #[acc::r#loop(gang, vector, collapse(force: 2), reduction(+: count))]
    for i in 0..n {
        let w = b[i] * 2;
        for j in 0..m {
            out[i * m + j] = w + j as i64
        }
        count += 1;
    }
    count
}

#[test]
fn collapse_force_runs_the_code_between_the_loops_per_collapsed_iteration() {
    for (n, m) in [(0, 3), (3, 0), (1, 1), (5, 7), (33, 65), (1000, 3)] {
        let b: Vec<i64> = (0..n).map(|x| (x as i64 * 7) % 19).collect();
        let mut out = vec![-1i64; n * m];
        let count = force_between(&b, n, m, &mut out);
        assert_eq!(count, (n * m) as i64, "{n} x {m}: the count runs once per (i, j)");
        let want: Vec<i64> = (0..n * m).map(|k| b[k / m] * 2 + (k % m) as i64).collect();
        assert_eq!(out, want, "{n} x {m}");
    }
}

/// Three loops, code at two depths.
#[acc::parallel]
fn force_three(a: &[f64], n: [usize; 3], out: &mut [f64]) {
    #[acc::r#loop(gang, worker, vector, collapse(force: 3))]
    for k in 0..n[2] {
        let plane = (k * n[1] * n[0]) as f64;
        for j in 0..n[1] {
            let row = (j * n[0]) as f64 + plane;
            for i in 0..n[0] {
                let at = (k * n[1] + j) * n[0] + i;
                out[at] = a[at] + row + i as f64
            }
        }
    }
}

#[test]
fn collapse_force_over_three_loops_with_code_at_two_depths() {
    for n in [[1, 1, 1], [4, 3, 2], [31, 17, 9]] {
        let len = n[0] * n[1] * n[2];
        let a: Vec<f64> = (0..len).map(|x| x as f64 * 0.5).collect();
        let mut out = vec![0.0; len];
        force_three(&a, n, &mut out);
        assert!(out.iter().enumerate().all(|(x, v)| *v == a[x] + x as f64), "{n:?}");
    }
}

/// `async` and `wait` in a `device_type(host)` group: the host backend runs the region before
/// the call returns (which `async` allows) and has no queue to wait for; the GPU's group has
/// none, so the GPU runs it synchronously too.
#[acc::parallel(device_type(host), async(q), wait(q, 2))]
fn host_async(a: &[i64], out: &mut [i64], q: i32) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = a[i] + q as i64;
    }
}

#[test]
fn async_and_wait_for_the_host_alone() {
    for n in LENS {
        let a: Vec<i64> = (0..n as i64).collect();
        let mut out = vec![0; n];
        host_async(&a, &mut out, 3);
        assert_eq!(out, a.iter().map(|x| x + 3).collect::<Vec<_>>(), "{n} elements");
    }
}
