//! Where a synchronous launch's host time goes in acc-runtime (scratch, session 29).
use std::time::Instant;
use acc_runtime::cuda::{CudaBackend, KernelArgs, LaunchConfig};
use acc_runtime::private::{view, Clause, DataScope, RegionInfo};

static PTX: &str = include_str!("/work/main/acc-runtime/tests/fixtures/vadd_kernel.ptx");
static R: RegionInfo = RegionInfo { name: "r", kind: "parallel", file: "lb.rs", line: 1, kernel: "" };
static D: RegionInfo = RegionInfo { name: "d", kind: "data", file: "lb.rs", line: 2, kernel: "" };

fn med(what: &str, mut f: impl FnMut()) {
    for _ in 0..200 { f(); }
    let mut t: Vec<f64> = (0..2000).map(|_| { let s = Instant::now(); f(); s.elapsed().as_secs_f64() * 1e6 }).collect();
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("{what:<64} median {:6.2} us  p10 {:6.2}", t[1000], t[200]);
}

fn main() {
    let b = CudaBackend::new(0).unwrap();
    let m = b.load_ptx(PTX).unwrap();
    let n = 1024usize;
    let pa = b.alloc_bytes(4 * n).unwrap();
    let pc = b.alloc_bytes(4 * n).unwrap();
    for rep in 0..2 {
        println!("# rep {rep}");
        med("backend.launch (lookup by name) 4x256 + sync", || {
            let mut args = KernelArgs::new();
            args.panic_slot().slice(pa, n).slice(pa, n).slice(pc, n);
            b.launch(&m, "acc_k_vadd", LaunchConfig::linear(4, 256), &mut args).unwrap();
        });
        let mut args = KernelArgs::new();
        args.panic_slot().slice(pa, n).slice(pa, n).slice(pc, n);
        med("backend.launch, args built once", || {
            b.launch(&m, "acc_k_vadd", LaunchConfig::linear(4, 256), &mut args).unwrap();
        });
        med("KernelArgs::new + 3 slices", || {
            let mut args = KernelArgs::new();
            args.panic_slot().slice(pa, n).slice(pa, n).slice(pc, n);
            std::hint::black_box(&args);
        });
        let a = vec![1.0f32; n];
        let c = vec![0.0f32; n];
        let mut outer = DataScope::new(&D);
        outer.enter("a", view(&a), Clause::Copy);
        outer.enter("c", view(&c), Clause::Copy);
        med("DataScope of a compute region: 2 present arrays, device_ptr, drop", || {
            let mut s = DataScope::new(&R);
            s.enter("a", view(&a), Clause::Copy);
            s.enter("c", view(&c), Clause::Copy);
            std::hint::black_box(s.device_ptr(view(&a)) + s.device_ptr(view(&c)));
        });
        drop(outer);
    }
}
