//! Arrays past 2^32 elements: each schedule family over `u8` arrays of `N` = 4,097 x 1,048,577
//! = 2^32 + 1,052,673 elements (4 GiB each), every element checked against the same arithmetic in plain Rust:
//! one-dimensional gang-vector and gang-worker-vector nests whose flattened index passes 2^32,
//! a 2-D and a 3-D `kernels` nest (whose point kernels compute indices in 32 bits where the
//! shape allows), a `tile`, reductions over the whole array and per row, a staged `cache!`
//! window, and an atomic histogram. The copies of such arrays in and out are part of each.
//!
//! On a GPU they always run (an H200 holds 139 GiB; a test holds at most three arrays). On the
//! host backend they run with `ACC_LARGE=1` only (a test holds up to 13 GiB, and 2^32 trips
//! take seconds on a small machine); else each says it is skipped. They run one at a time.

mod common;
use common::*;

use std::sync::{Mutex, MutexGuard};

/// Elements per array: past 2^32, and not a multiple of any block, chunk or wave; 4,097 rows
/// of 1,048,577 (17 x 241 planes of them in 3-D).
const N: usize = 4097 * 1_048_577;

/// One test's arrays at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Where the test runs (on a GPU, or on the host with `ACC_LARGE=1`), the hold on the
/// machine's memory for it, one test at a time; else `None`, printing why not.
fn large_or_skip(test: &str) -> Option<MutexGuard<'static, ()>> {
    if !on_host() || std::env::var("ACC_LARGE").is_ok_and(|v| v == "1") {
        return Some(ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner()));
    }
    println!("skipped {test}: arrays of {N} elements run on the host backend with ACC_LARGE=1 only");
    None
}

/// `u8` data that differs between neighbours and wraps every 251 elements.
fn input(n: usize) -> Vec<u8> {
    vec_of(n, |i| (i % 251) as u8 ^ (i >> 32) as u8)
}

/// The first index where `got` and `want` differ, for a short message.
fn assert_same(what: &str, got: &[u8], want: impl Fn(usize) -> u8) {
    assert_eq!(got.len(), N);
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want(i)) {
        panic!("{what}: element {i} is {}, expected {}", got[i], want(i));
    }
}

#[test]
fn gang_vector_over_all_elements() {
    let Some(_one) = large_or_skip("gang_vector_over_all_elements") else { return };
    #[acc::parallel]
    fn shifted(a: &[u8], b: &mut [u8]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..b.len() {
            b[i] = a[i].wrapping_mul(3).wrapping_add(1);
        }
    }
    let a = input(N);
    let mut b = vec![0u8; N];
    shifted(&a, &mut b);
    assert_same("gang vector", &b, |i| a[i].wrapping_mul(3).wrapping_add(1));
}

#[test]
fn gang_worker_vector_rows_whose_flat_index_passes_2_32() {
    let Some(_one) = large_or_skip("gang_worker_vector_rows_whose_flat_index_passes_2_32") else { return };
    #[acc::parallel]
    fn rows(a: &[u8], b: &mut [u8], rows: usize, cols: usize) {
        #[acc::r#loop(gang, worker)]
        for r in 0..rows {
            #[acc::r#loop(vector)]
            for c in 0..cols {
                b[r * cols + c] = a[r * cols + c] ^ (r as u8);
            }
        }
    }
    // 4,097 rows of 1,048,577 columns: the last rows' indices past 2^32.
    let (nr, nc) = (4097, N / 4097);
    assert_eq!(nr * nc, N);
    let a = input(N);
    let mut b = vec![0u8; N];
    rows(&a, &mut b, nr, nc);
    assert_same("gang worker / vector", &b, |i| a[i] ^ ((i / nc) as u8));
}

#[test]
fn two_and_three_dimensional_kernels_nests() {
    let Some(_one) = large_or_skip("two_and_three_dimensional_kernels_nests") else { return };
    #[acc::kernels]
    fn plane(a: &[u8], b: &mut [u8], n: usize, m: usize) {
        for i in 0..n {
            for j in 0..m {
                b[i * m + j] = a[i * m + j].wrapping_add((j % 7) as u8);
            }
        }
    }
    #[acc::kernels]
    fn cube(a: &[u8], b: &mut [u8], n: usize, m: usize, l: usize) {
        for i in 0..n {
            for j in 0..m {
                for k in 0..l {
                    b[(i * m + j) * l + k] = a[(i * m + j) * l + k] ^ (i as u8).wrapping_add(k as u8);
                }
            }
        }
    }
    let a = input(N);
    let mut b = vec![0u8; N];
    let (n, m) = (4097, N / 4097);
    plane(&a, &mut b, n, m);
    assert_same("2-D kernels nest", &b, |x| a[x].wrapping_add((x % m % 7) as u8));
    // 17 x 241 x 1,048,577 = N.
    let (n, m, l) = (17, 241, N / (17 * 241));
    assert_eq!(n * m * l, N);
    cube(&a, &mut b, n, m, l);
    assert_same("3-D kernels nest", &b, |x| a[x] ^ ((x / (m * l)) as u8).wrapping_add((x % l) as u8));
}

#[test]
fn a_tile_over_rows_past_2_32() {
    let Some(_one) = large_or_skip("a_tile_over_rows_past_2_32") else { return };
    #[acc::kernels]
    fn tiled(a: &[u8], b: &mut [u8], n: usize, m: usize) {
        #[acc::r#loop(tile(32, 8))]
        for i in 0..n {
            for j in 0..m {
                b[i * m + j] = a[i * m + j].wrapping_sub(i as u8);
            }
        }
    }
    let a = input(N);
    let mut b = vec![0u8; N];
    let (n, m) = (4097, N / 4097);
    tiled(&a, &mut b, n, m);
    assert_same("tile(32, 8)", &b, |x| a[x].wrapping_sub((x / m) as u8));
}

#[test]
fn reductions_over_the_whole_array_and_per_row() {
    let Some(_one) = large_or_skip("reductions_over_the_whole_array_and_per_row") else { return };
    #[acc::parallel]
    fn total(a: &[u8]) -> (u64, u8) {
        let mut s = 0u64;
        let mut hi = 0u8;
        #[acc::r#loop(gang, vector, reduction(+: s), reduction(max: hi))]
        for i in 0..a.len() {
            s += a[i] as u64;
            hi = hi.max(a[i] ^ (i >> 32) as u8);
        }
        (s, hi)
    }
    #[acc::parallel]
    fn row_sums(a: &[u8], out: &mut [u64], cols: usize) {
        #[acc::r#loop(gang)]
        for r in 0..out.len() {
            let mut s = 0u64;
            #[acc::r#loop(vector, reduction(+: s))]
            for c in 0..cols {
                s += a[r * cols + c] as u64;
            }
            out[r] = s;
        }
    }
    let a = input(N);
    let want_sum: u64 = a.iter().map(|&x| x as u64).sum();
    let want_hi = (0..N).map(|i| a[i] ^ (i >> 32) as u8).max().unwrap();
    assert_eq!(total(&a), (want_sum, want_hi));
    let (nr, nc) = (4097, N / 4097);
    let mut out = vec![0u64; nr];
    row_sums(&a, &mut out, nc);
    for (r, &s) in out.iter().enumerate() {
        assert_eq!(s, a[r * nc..(r + 1) * nc].iter().map(|&x| x as u64).sum::<u64>(), "row {r}");
    }
}

#[test]
fn a_staged_window_past_2_32() {
    let Some(_one) = large_or_skip("a_staged_window_past_2_32") else { return };
    #[acc::parallel]
    fn smooth(a: &[u8], b: &mut [u8]) {
        let n = a.len();
        #[acc::r#loop(gang, vector)]
        for i in 1..n - 1 {
            acc::cache!(a[i - 1..=i + 1]);
            b[i] = a[i - 1].wrapping_add(a[i]).wrapping_add(a[i + 1]);
        }
    }
    let a = input(N);
    let mut b = vec![7u8; N];
    smooth(&a, &mut b);
    assert_same("cache! window", &b, |i| if i == 0 || i == N - 1 { 7 } else { a[i - 1].wrapping_add(a[i]).wrapping_add(a[i + 1]) });
}

#[test]
fn an_atomic_histogram_of_all_elements() {
    let Some(_one) = large_or_skip("an_atomic_histogram_of_all_elements") else { return };
    #[acc::parallel]
    fn histogram(a: &[u8], h: &mut [u64]) {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            let b = a[i] as usize;
            acc::atomic!(h[b] += 1);
        }
    }
    let a = input(N);
    let mut h = vec![0u64; 256];
    histogram(&a, &mut h);
    let mut want = vec![0u64; 256];
    for &x in &a {
        want[x as usize] += 1;
    }
    assert_eq!(h, want);
    assert_eq!(h.iter().sum::<u64>(), N as u64);
}
