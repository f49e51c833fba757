//! Times the host loop drivers against plain sequential loops:
//! `cargo run --release -p acc-runtime --example host_drivers`.

use std::time::Instant;

use acc_runtime::private::{par_for, par_reduce, Add, SharedMut};

fn best<R>(reps: usize, mut f: impl FnMut() -> R) -> f64 {
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let n = 1 << 24;
    let a = vec![1.0f32; n];
    let b = vec![2.0f32; n];
    let mut c = vec![0.0f32; n];
    let bytes = (3 * n * 4) as f64;

    let seq = best(10, || {
        for i in 0..n {
            c[i] = a[i] + b[i];
        }
    });
    let by_ref = best(10, || {
        let cs = SharedMut::new(&mut c);
        par_for(n, |i| {
            let mut c = cs;
            c[i] = a[i] + b[i];
        });
    });
    let (sa, sb) = (&a[..], &b[..]);
    let by_value = best(10, || {
        let cs = SharedMut::new(&mut c);
        par_for(n, move |i| {
            let mut c = cs;
            c[i] = sa[i] + sb[i];
        });
    });
    println!("threads: {}", rayon::current_num_threads());
    println!(
        "vadd 2^24 f32   sequential {:7.2} ms {:6.1} GB/s",
        seq * 1e3,
        bytes / seq / 1e9
    );
    println!(
        "vadd 2^24 f32   par_for    {:7.2} ms {:6.1} GB/s  (closure captures by reference)",
        by_ref * 1e3,
        bytes / by_ref / 1e9
    );
    println!(
        "vadd 2^24 f32   par_for    {:7.2} ms {:6.1} GB/s  (`move` closure, slices by value)",
        by_value * 1e3,
        bytes / by_value / 1e9
    );

    let x: Vec<f64> = (0..n).map(|i| (i % 1000) as f64).collect();
    let seq = best(10, || x.iter().sum::<f64>());
    let par = best(10, || {
        par_reduce(n, || 0.0, |s, i| Add.combine(s, x[i]), |p, q| p + q)
    });
    let bytes = (n * 8) as f64;
    println!(
        "sum 2^24 f64    sequential {:7.2} ms {:6.1} GB/s",
        seq * 1e3,
        bytes / seq / 1e9
    );
    println!(
        "sum 2^24 f64    par_reduce {:7.2} ms {:6.1} GB/s",
        par * 1e3,
        bytes / par / 1e9
    );

    let small = best(1000, || {
        par_for(1000, |i| {
            std::hint::black_box(i);
        })
    });
    println!("par_for(1000) of an empty body: {:.1} us", small * 1e6);
}
