//! A CUDA library on acc's present data: an acc region fills two matrices on the device, cuBLAS
//! multiplies them there (`acc::host_data!(use_device(..))` hands it the device copies'
//! addresses, `acc::cuda_stream(Q)` the stream of acc's queue `Q`, so the library runs in order
//! with the region), and an acc region reduces the product, all inside one data region: the
//! matrices never cross to the host, only the checksum does (and `c` at the end, to check it).
//! `cargo run --release -p acc-examples --features cuda --example 06-cublas`
//!
//! Without a GPU (or without `--features cuda`) the same program multiplies on the host, where
//! `use_device` gives the host arrays.

/// The async queue of the fill and the product.
const Q: i64 = 1;

/// `a[i][k] = (i + 2k) mod 5 - 2` and `b[k][j] = (3k + j) mod 7 - 3`, row-major `n x n`: small
/// integers, so every product and sum is exact in any order. On queue `q`.
#[acc::parallel(async(q))]
fn fill(a: &mut [f64], b: &mut [f64], n: usize, q: i64) {
    #[acc::r#loop(gang, vector, collapse(2))]
    for i in 0..n {
        for k in 0..n {
            a[i * n + k] = ((i + 2 * k) % 5) as f64 - 2.0;
            b[i * n + k] = ((3 * i + k) % 7) as f64 - 3.0;
        }
    }
}

/// A weighted sum of the product's elements, reduced where the product is.
#[acc::parallel]
fn checksum(c: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for e in 0..c.len() {
        s += c[e] * (e % 7 + 1) as f64;
    }
    s
}

/// `c = a b` with cuBLAS on the device copies, on the stream of acc's queue `q`: after the
/// work queued there (the fill), before what is queued later; `acc::wait(q)` waits for it.
/// cuBLAS is column-major: the row-major `a b` is the column-major `(bᵀ aᵀ)ᵀ`, so it gets `b`
/// first.
#[cfg(feature = "cuda")]
fn gemm_on_queue(a: acc::DevicePtr<f64>, b: acc::DevicePtr<f64>, c: acc::DevicePtr<f64>, n: usize, q: i64) {
    use cudarc::cublas::{result, sys};
    assert!(a.is_device() && b.is_device() && c.is_device());
    let n = i32::try_from(n).expect("cuBLAS takes 32-bit sizes");
    let (one, zero) = (1.0f64, 0.0f64);
    let stream = acc::cuda_stream(q).expect("a GPU queue has a CUDA stream");
    let handle = result::create_handle().expect("cuBLAS: cublasCreate");
    // SAFETY: the three addresses are device copies of n x n f64 arrays that the data region
    // keeps present until after `acc::wait(q)` below; the stream is acc's, valid until
    // `acc::shutdown`.
    unsafe {
        result::set_stream(handle, stream.cast()).expect("cuBLAS: cublasSetStream");
        result::dgemm(
            handle,
            sys::cublasOperation_t::CUBLAS_OP_N,
            sys::cublasOperation_t::CUBLAS_OP_N,
            n,
            n,
            n,
            &one,
            b.as_ptr(),
            n,
            a.as_ptr(),
            n,
            &zero,
            c.as_mut_ptr(),
            n,
        )
        .expect("cuBLAS: cublasDgemm");
    }
    acc::wait(q);
    // SAFETY: made above; its work is done (the wait).
    unsafe { result::destroy_handle(handle) }.expect("cuBLAS: cublasDestroy");
}

/// `c = a b` on the host (row-major).
fn gemm_on_host(a: &[f64], b: &[f64], c: &mut [f64], n: usize) {
    for i in 0..n {
        let row = &mut c[i * n..(i + 1) * n];
        row.fill(0.0);
        for k in 0..n {
            let aik = a[i * n + k];
            for (x, bkj) in row.iter_mut().zip(&b[k * n..(k + 1) * n]) {
                *x += aik * bkj;
            }
        }
    }
}

fn main() {
    let n = 1024;
    let (mut a, mut b, mut c) = (vec![0.0f64; n * n], vec![0.0f64; n * n], vec![0.0f64; n * n]);
    let gpu = acc::device_type() == acc::DeviceType::Nvidia;
    let sum;
    acc::data!(create(a, b), copyout(c) {
        fill(&mut a, &mut b, n, Q);
        if gpu {
            #[cfg(feature = "cuda")]
            acc::host_data!(use_device(a, b, c) {
                gemm_on_queue(a, b, c, n, Q);
            });
        } else {
            acc::wait(Q);
            gemm_on_host(&a, &b, &mut c, n);
        }
        sum = checksum(&c);
    });
    // The reference, on the host from the same formulas.
    let fa: Vec<f64> = (0..n * n).map(|e| ((e / n + 2 * (e % n)) % 5) as f64 - 2.0).collect();
    let fb: Vec<f64> = (0..n * n).map(|e| ((3 * (e / n) + e % n) % 7) as f64 - 3.0).collect();
    let mut want = vec![0.0f64; n * n];
    gemm_on_host(&fa, &fb, &mut want, n);
    let want_sum: f64 = want.iter().enumerate().map(|(e, x)| x * (e % 7 + 1) as f64).sum();
    println!("{n} x {n} f64 product by {} on {:?}: checksum {sum} (expected {want_sum})", if gpu { "cuBLAS" } else { "the host" }, acc::device_type());
    assert_eq!(sum, want_sum, "the checksum of the product is wrong");
    assert!(c == want, "the product is wrong");
    println!("verified");
}
