//! The schedule report (`ACC_INFO=1`, `info` on a region): its text says what each loop and
//! statement became, in the user's `file:line` terms.

use acc_codegen::info::report_of_text;
use acc_codegen::model::RegionKind;
use acc_codegen::Source;

/// The report of the region written in `text`, whose attribute is at line `line` of `file`.
fn report(kind: RegionKind, file: &str, line: u32, text: &str) -> String {
    let r = report_of_text(kind, text, &Source { file: file.into(), line }).unwrap_or_else(|e| panic!("no report: {e}"));
    println!("{r}");
    r
}

/// Asserts that `report` has a line that starts with `prefix` (`file:line:`) and holds every
/// piece of `parts`.
fn has(report: &str, prefix: &str, parts: &[&str]) {
    let found = report.lines().any(|l| l.starts_with(prefix) && parts.iter().all(|p| l.contains(p)));
    assert!(found, "no line `{prefix} .. {}` in:\n{report}", parts.join(" .. "));
}

const VADD: &str = "#[acc::parallel(copyin(a, b), copyout(c), vector_length(128))]
fn vadd(a: &[f32], b: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
    }
}";

const JACOBI: &str = "#[acc::parallel(present(a, anew))]
fn sweep(a: &[f64], anew: &mut [f64], n: usize, m: usize) -> f64 {
    let mut err = 0.0f64;
    #[acc::r#loop(gang, reduction(max: err))]
    for j in 1..n - 1 {
        #[acc::r#loop(vector, reduction(max: err))]
        for i in 1..m - 1 {
            let v = 0.25 * (a[j * m + i + 1] + a[j * m + i - 1] + a[(j - 1) * m + i] + a[(j + 1) * m + i]);
            err = err.max((v - a[j * m + i]).abs());
            anew[j * m + i] = v;
        }
    }
    err
}";

const MATMUL: &str = "#[acc::parallel(copyin(a, b), copyout(c))]
fn matmul(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(gang, worker, collapse(2))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            #[acc::r#loop(vector, reduction(+: s))]
            for k in 0..n {
                s += a[i * n + k] * b[k * n + j];
            }
            c[i * n + j] = s;
        }
    }
}";

const PREFIX: &str = "#[acc::kernels(copy(a), copyin(b))]
fn scan(a: &mut [f32], b: &[f32]) {
    for i in 1..a.len() {
        a[i] = a[i - 1] + b[i];
    }
    for i in 0..b.len() {
        a[i] = 2.0 * b[i];
    }
}";

const PHASES: &str = "#[acc::parallel(copy(rows), copyin(x), info)]
fn phases(rows: &mut [f64], x: &[f64], n: usize) {
    #[acc::r#loop(gang)]
    for r in 0..n {
        acc::cache!(x[r * n..r * n + n]);
        let mut total = 0.0;
        #[acc::r#loop(vector, reduction(+: total))]
        for k in 0..n {
            total += x[r * n + k];
        }
        rows[r * n] = total;
        #[acc::r#loop(vector)]
        for k in 1..n {
            rows[r * n + k] = x[r * n + k] / total;
        }
    }
}";

const DEFAULTS: &str = "#[acc::kernels]
fn relax(u: &mut [f64], f: &[f64], steps: usize) {
    for _ in 0..steps {
        for i in 1..u.len() - 1 {
            u[i] = 0.5 * (u[i] + f[i]);
        }
        u[0] = u[1];
    }
}";

#[test]
fn gang_vector_mapping_and_launch_shape() {
    let r = report(RegionKind::Parallel, "examples/01-vadd.rs", 4, VADD);
    has(&r, "examples/01-vadd.rs:4:", &["parallel region `vadd`: 1 kernel"]);
    has(&r, "examples/01-vadd.rs:4:", &["data: copyin(a) (if not already present) [clause]"]);
    has(&r, "examples/01-vadd.rs:4:", &["data: copyout(c)", "[clause]"]);
    has(&r, "examples/01-vadd.rs:7:", &["kernel acc_examples_01_vadd_rs_l4_vadd_0: the loop nest at line 7"]);
    has(&r, "examples/01-vadd.rs:7:", &["launch: blocks of vector_length(128) threads (threadIdx.x)"]);
    has(
        &r,
        "examples/01-vadd.rs:7:",
        &["loop `i`: gang, vector -> blockIdx.x, threadIdx.x; trip = blockIdx.x * blockDim.x + threadIdx.x, grid-stride by gridDim.x * blockDim.x"],
    );
}

#[test]
fn reductions_and_where_they_are_combined() {
    let r = report(RegionKind::Parallel, "examples/03-jacobi.rs", 6, JACOBI);
    has(&r, "examples/03-jacobi.rs:6:", &["data: present(a) (it must be present"]);
    has(&r, "examples/03-jacobi.rs:7:", &["data: `n` by value (firstprivate"]);
    has(&r, "examples/03-jacobi.rs:10:", &["loop `j`: gang -> blockIdx.x; trip = blockIdx.x, grid-stride by gridDim.x"]);
    has(&r, "examples/03-jacobi.rs:12:", &["loop `i`: vector -> threadIdx.x; trip = threadIdx.x, grid-stride by blockDim.x"]);
    // The inner loop leaves its partial values to the gang loop, which combines once.
    has(&r, "examples/03-jacobi.rs:12:", &["reduction(max: err): each thread keeps its partial value; combined once at the end of the loop around it"]);
    has(&r, "examples/03-jacobi.rs:10:", &["reduction(max: err): a private copy per thread", "combined once at the nest's end over the block's vector lanes (threadIdx.x)"]);
    has(&r, "examples/03-jacobi.rs:10:", &["reduction(max: err): thread 0 of each block stores the block's value", "the host folds the partials"]);
    // A reduction variable is not listed among the captured host locals.
    assert!(!r.contains("captures `err`"), "{r}");
}

#[test]
fn collapse_worker_and_a_leader_statement() {
    let r = report(RegionKind::Parallel, "examples/04-matmul.rs", 4, MATMUL);
    has(&r, "examples/04-matmul.rs:7:", &["launch: blocks of 32 (default) x 8 (default) threads (threadIdx.x x threadIdx.y)"]);
    has(
        &r,
        "examples/04-matmul.rs:7:",
        &["loop `i`, `j`: gang, worker -> blockIdx.x, threadIdx.y; trip = blockIdx.x * blockDim.y + threadIdx.y", "collapse(2)", "uniform: every thread of a block takes the same trips"],
    );
    has(&r, "examples/04-matmul.rs:9:", &["`let s`: computed by every thread of the worker"]);
    has(&r, "examples/04-matmul.rs:11:", &["loop `k`: vector -> threadIdx.x", "unrolled in rounds of 8 trips (values of 4 bytes or less; else 4), then of 4, each trip on a copy"]);
    has(&r, "examples/04-matmul.rs:11:", &["reduction(+: s): a private copy per thread", "combined at the loop's end over the block's vector lanes (threadIdx.x)"]);
    has(&r, "examples/04-matmul.rs:14:", &["statement writes memory: run by the worker's leader (threadIdx.x == 0)"]);
}

#[test]
fn a_loop_kept_in_order_names_the_dependence() {
    let r = report(RegionKind::Kernels, "src/scan.rs", 20, PREFIX);
    has(&r, "src/scan.rs:20:", &["kernels region `scan`: 2 kernels"]);
    has(
        &r,
        "src/scan.rs:22:",
        &["loop over `i` runs in order in one thread: not proved independent: `a` is written at `[i]` and accessed at `[i - 1]` in the same loop (line 23)"],
    );
    has(&r, "src/scan.rs:22:", &["launch: one block of one thread"]);
    has(&r, "src/scan.rs:25:", &["loop over `i`: the dependence test proved it independent"]);
    has(
        &r,
        "src/scan.rs:25:",
        &[
            "loop `i`: gang, vector -> blockIdx.x, threadIdx.x",
            "(written: no level; the outermost loop of a nest always spreads over the gangs; the innermost parallel loop takes every level its enclosing loops left free)",
        ],
    );
}

#[test]
fn leader_statements_barriers_and_cache() {
    let r = report(RegionKind::Parallel, "src/rows.rs", 30, PHASES);
    has(&r, "src/rows.rs:33:", &["loop `r`: gang -> blockIdx.x", "a barrier ends each trip"]);
    has(&r, "src/rows.rs:34:", &["cache!: x[r * n..r * n + n]: not staged", "the loads go to global memory"]);
    has(&r, "src/rows.rs:35:", &["`let total`: computed by every thread of the gang"]);
    has(&r, "src/rows.rs:37:", &["reduction(+: total)", "then with `total`'s value before the loop"]);
    has(&r, "src/rows.rs:40:", &["statement writes memory: run by the gang's leader (threadIdx.x == 0), then a barrier"]);
    has(&r, "src/rows.rs:42:", &["loop `k`: vector -> threadIdx.x"]);
    // The statements come in source order, the leader's between the two vector loops.
    let at = |needle: &str| r.find(needle).unwrap_or_else(|| panic!("no `{needle}` in:\n{r}"));
    assert!(at("src/rows.rs:37:") < at("src/rows.rs:40:") && at("src/rows.rs:40:") < at("src/rows.rs:42:"), "{r}");
}

#[test]
fn implicit_data_and_host_loops_around_kernels() {
    let r = report(RegionKind::Kernels, "src/relax.rs", 1, DEFAULTS);
    has(&r, "src/relax.rs:2:", &["data: copy(u) (if not already present) [implicit: a `&mut [T]` is copied in and out]"]);
    has(&r, "src/relax.rs:2:", &["data: copyin(f) (if not already present) [implicit: a read-only `&[T]` is copied in]"]);
    has(&r, "src/relax.rs:3:", &["`for` over `_` runs in order on the host (it is not proved independent:", "); each trip launches the kernels inside"]);
    has(&r, "src/relax.rs:4:", &["kernel acc_src_relax_rs_l1_relax_0: the loop nest at line 4"]);
    has(&r, "src/relax.rs:4:", &["launched on every trip or branch of the host code around it"]);
    has(&r, "src/relax.rs:7:", &["kernel acc_src_relax_rs_l1_relax_1: one thread runs the statement at line 7 (it uses an array"]);
}

#[test]
fn the_info_clause_marks_the_region() {
    let text = format!("{}{PHASES}", "\n".repeat(29));
    let mut f: syn::ItemFn = syn::parse_str(&text).unwrap();
    let attr = f.attrs.remove(0);
    let src = Source { file: "src/rows.rs".into(), line: 30 };
    let r = acc_codegen::device_region(RegionKind::Parallel, &attr, &f, &src, &|_| None);
    assert!(r.reports[0].asked);
    let text = format!("{}{VADD}", "\n".repeat(3));
    let mut f: syn::ItemFn = syn::parse_str(&text).unwrap();
    let attr = f.attrs.remove(0);
    let r = acc_codegen::device_region(RegionKind::Parallel, &attr, &f, &Source { file: "examples/01-vadd.rs".into(), line: 4 }, &|_| None);
    assert!(!r.reports[0].asked);
    // Each form of a region has its report, one line per note.
    assert_eq!(r.reports.len(), 1);
    assert_eq!(r.reports[0].kernels.len(), 1);
}

#[test]
fn each_instance_of_a_generic_region_has_its_report() {
    let text = "#[acc::parallel(instances(f32, f64))]
fn axpy<T: Copy + core::ops::Mul<Output = T> + core::ops::Add<Output = T>>(a: T, x: &[T], y: &mut [T]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..y.len() {
        y[i] = a * x[i] + y[i];
    }
}";
    let r = report(RegionKind::Parallel, "src/blas.rs", 3, text);
    has(&r, "src/blas.rs:3:", &["parallel region `axpy::<f32>`: 1 kernel"]);
    has(&r, "src/blas.rs:3:", &["parallel region `axpy::<f64>`: 1 kernel"]);
    has(&r, "src/blas.rs:4:", &["data: copy(y) (if not already present) [implicit: a `&mut [T]` is copied in and out]"]);
    has(&r, "src/blas.rs:4:", &["data: `a` by value"]);
    assert_eq!(r.matches("loop `i`: gang, vector -> blockIdx.x, threadIdx.x").count(), 2, "{r}");
}

#[test]
fn inner_loops_one_thread_runs_in_order_say_why() {
    let text = "#[acc::kernels(copy(a))]
fn rows(a: &mut [f32], n: usize, m: usize) {
    #[acc::r#loop(independent)]
    for i in 0..n {
        #[acc::r#loop(vector)]
        for j in 1..m {
            a[i * m + j] += a[i * m + j - 1];
        }
        #[acc::r#loop(seq)]
        for k in 0..m {
            a[i * m + k] *= 0.5;
        }
    }
}";
    let r = report(RegionKind::Kernels, "src/rows.rs", 1, text);
    has(&r, "src/rows.rs:4:", &["loop `i`: gang, vector -> blockIdx.x, threadIdx.x"]);
    has(
        &r,
        "src/rows.rs:6:",
        &["loop over `j` runs in order in each thread (not proved independent: `a` is written at `[i * m + j]` and accessed at `[i * m + j - 1]` in the same loop (line 7))"],
    );
    has(&r, "src/rows.rs:10:", &["loop over `k` runs in order in each thread (it says `seq`)"]);
}

#[test]
fn a_continue_in_a_gang_loop_is_a_flag_the_leader_broadcasts() {
    let text = "#[acc::parallel(vector_length(64))]
fn even_rows(a: &[i64], out: &mut [i64], sums: &mut [i64], n: usize, m: usize) {
    #[acc::r#loop(gang)]
    for j in 0..n {
        if j % 2 == 1 {
            sums[j] = -1;
            continue;
        }
        #[acc::r#loop(vector)]
        for i in 0..m {
            out[j * m + i] = 2 * a[j * m + i];
        }
    }
}";
    let r = report(RegionKind::Parallel, "tests/rows.rs", 50, text);
    has(&r, "tests/rows.rs:54:", &["`continue` here sets a flag: the rest of the trip is skipped by the whole gang's threads together"]);
    has(&r, "tests/rows.rs:54:", &["statement writes memory: run by the gang's leader (threadIdx.x == 0), then a broadcast of its `continue` flag to the gang's threads (a barrier)"]);
    has(&r, "tests/rows.rs:59:", &["loop `i`: vector -> threadIdx.x"]);
    assert!(!r.contains("__acc_"), "{r}");
}

#[test]
fn a_method_s_fields_are_named_as_written() {
    let text = "#[acc::kernels(copy(self.next))]
fn shift(&mut self) {
    for i in 1..self.n {
        self.next[i] = self.next[i - 1];
    }
    for _ in 0..1 {
        self.next[0] = 0.0;
    }
}";
    let r = report(RegionKind::Kernels, "src/rod.rs", 8, text);
    has(&r, "src/rod.rs:8:", &["kernels region `shift`"]);
    has(&r, "src/rod.rs:8:", &["data: copy(self.next) (if not already present) [clause]"]);
    has(&r, "src/rod.rs:10:", &["not proved independent: `self.next` is written at `[i]` and accessed at `[i - 1]` in the same loop (line 11)"]);
    has(&r, "src/rod.rs:13:", &["loop over `_` runs in order in one thread: not proved independent: `self.next[0]` may write one element from several iterations of `_`"]);
    assert!(!r.contains("__acc_"), "{r}");
}

const STENCIL: &str = "#[acc::parallel]
fn stencil(a: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..c.len() - 1 {
        acc::cache!(a[i - 1..=i + 1]);
        c[i] = a[i - 1] + a[i] + a[i + 1];
    }
}";

#[test]
fn a_window_that_moves_with_the_vector_loop_is_staged() {
    let r = report(RegionKind::Parallel, "src/stencil.rs", 1, STENCIL);
    has(&r, "src/stencil.rs:4:", &["loop `i`: gang, vector", "cache!: a[i - 1..=i + 1] (2 + 4 x blockDim.x elements) staged in shared memory", "4 points a thread", "no range check"]);
    has(&r, "src/stencil.rs:5:", &["cache!: a[i - 1..=i + 1]: staged in shared memory (see the loop)"]);
}

#[test]
fn a_window_read_through_an_inner_loop_is_staged() {
    let text = "#[acc::parallel]
fn sum61(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 30..a.len() - 30 {
        acc::cache!(a[i - 30..=i + 30]);
        let mut s = 0.0f32;
        for j in i - 30..=i + 30 {
            s += a[j];
        }
        b[i] = s;
    }
}";
    let r = report(RegionKind::Parallel, "src/sum61.rs", 1, text);
    has(&r, "src/sum61.rs:4:", &["cache!: a[i - 30..=i + 30] (60 + 4 x blockDim.x elements) staged in shared memory"]);
}

const GEMM: &str = "#[acc::parallel]
fn gemm(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j]);
                for k in kk..(kk + 16).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
            }
            for kk in (0..i).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)]);
                s += a[i * n + kk];
            }
            c[i * n + j] = s;
        }
    }
}";

const NBODY: &str = "#[acc::parallel]
fn forces(x: &[f32], m: &[f32], f: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 0..n {
        let mut s = 0.0f32;
        for jj in (0..n).step_by(128) {
            acc::cache!(x[jj..jj + 128], m[jj..jj + 128]);
            for j in jj..(jj + 128).min(n) {
                s += m[j] / (1.0 + (x[j] - x[i]) * (x[j] - x[i]));
            }
        }
        for jj in (0..i).step_by(128) {
            acc::cache!(x[jj..jj + 128]);
            s += x[jj];
        }
        f[i] = s;
    }
}";

#[test]
fn one_dimensional_windows_of_a_tile_loop_are_staged_where_the_block_agrees() {
    let r = report(RegionKind::Parallel, "src/nbody.rs", 1, NBODY);
    has(&r, "src/nbody.rs:4:", &["loop `i`: gang, vector", "cache!: x[128 elements], m[128 elements] staged in shared memory at the top of the loops inside", "trips of the whole block"]);
    has(&r, "src/nbody.rs:7:", &["cache!: x[jj..jj + 128], m[jj..jj + 128]: staged in shared memory (see the loop)"]);
    // A tile loop whose trips depend on `i` differs between the block's threads.
    has(&r, "src/nbody.rs:4:", &["at line 12, cache!: not staged: the tile loop's bounds read `i`"]);
    assert!(!r.contains("__acc_"), "{r}");
}

#[test]
fn two_dimensional_windows_in_a_tile_nest_are_staged_where_the_block_agrees() {
    let r = report(RegionKind::Parallel, "src/gemm.rs", 1, GEMM);
    has(&r, "src/gemm.rs:7:", &["cache!: a[i * n + (kk .. kk + 16)], b[(kk .. kk + 16) * n + j] staged in shared memory as 2-D tiles", "barrier"]);
    has(&r, "src/gemm.rs:8:", &["staged in shared memory (see the loop)"]);
    // A k-tile loop whose trips depend on `i` differs between the block's threads.
    has(&r, "src/gemm.rs:13:", &["cache!: not staged: the k-tile loop's bounds read `i`"]);
    has(&r, "src/gemm.rs:14:", &["cache!: a[i * n + (kk .. kk + 16)]: not staged"]);
    // 16 rows a tile: each thread takes 4, a block apart (the windows' rows do not move).
    has(&r, "src/gemm.rs:4:", &["tile: each thread takes 4 rows of the tile (`i` at threadIdx.y + q * blockDim.y, q < 4;", "jammed"]);
    has(&r, "src/gemm.rs:4:", &["loop `i`: blockIdx.y, threadIdx.y", "+ q * blockDim.y for q < 4, grid-stride by gridDim.y * 4 * blockDim.y"]);
    assert!(!r.contains("__acc_"), "{r}");
    // A name bound by a `let` and by a loop keeps one row a thread.
    let one = GEMM.replace("c[i * n + j] = s;", "let k = i * n + j;\n            c[k] = s;");
    let r = report(RegionKind::Parallel, "src/gemm.rs", 1, &one);
    has(&r, "src/gemm.rs:4:", &["tile: one row of the tile a thread: `k` is bound both by a `let` and by another pattern"]);
    assert!(!r.contains("each thread takes"), "{r}");
    // Without `cache!` the rows a thread takes are jammed all the same (no staged loops).
    let plain = GEMM.replace("acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j]);", "").replace("acc::cache!(a[i * n + (kk..kk + 16)]);", "");
    let r = report(RegionKind::Parallel, "src/gemm.rs", 1, &plain);
    has(&r, "src/gemm.rs:4:", &["tile: each thread takes 4 rows of the tile", "an element every copy reads is loaded once"]);
    assert!(!r.contains("staged"), "{r}");
}

#[test]
fn a_parallel_nest_of_gang_dimensions_takes_the_region_sizes() {
    let text = "#[acc::parallel(num_gangs(4, gy), vector_length(64))]
fn fill(out: &mut [f64], rows: usize, cols: usize, gy: usize) {
    #[acc::r#loop(gang(dim: 2))]
    for r in 0..rows {
        #[acc::r#loop(gang(dim: 1), vector)]
        for c in 0..cols {
            out[r * cols + c] = 1.0;
        }
    }
}";
    let r = report(RegionKind::Parallel, "src/fill.rs", 1, text);
    has(&r, "src/fill.rs:4:", &["loop `r`: blockIdx.y (multi-dimensional schedule)", "gridDim.y = gy"]);
    has(&r, "src/fill.rs:6:", &["loop `c`: blockIdx.x, threadIdx.x (multi-dimensional schedule)", "gridDim.x = 4, blockDim.x = 64"]);
    // Without gang dimensions a parallel nest keeps one dimension.
    let plain = text.replace("gang(dim: 2)", "gang").replace("gang(dim: 1), vector", "vector");
    let r = report(RegionKind::Parallel, "src/fill.rs", 1, &plain);
    has(&r, "src/fill.rs:4:", &["loop `r`: gang -> blockIdx.x"]);
}

#[test]
fn a_bare_nest_without_reductions_gives_each_block_a_band_of_rows() {
    let text = "#[acc::kernels]
fn lap(a: &[f32], b: &mut [f32], n: usize) {
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            b[i * n + j] = a[(i - 1) * n + j] + a[(i + 1) * n + j] - 2.0 * a[i * n + j];
        }
    }
}";
    let r = report(RegionKind::Kernels, "src/lap.rs", 1, text);
    has(&r, "src/lap.rs:3:", &["loop `i`: blockIdx.y, threadIdx.y (multi-dimensional schedule); a band of consecutive trips a block"]);
    has(&r, "src/lap.rs:4:", &["loop `j`: blockIdx.x, threadIdx.x (multi-dimensional schedule); trip = blockIdx.x * blockDim.x + threadIdx.x, grid-stride by gridDim.x * blockDim.x"]);
    has(&r, "src/lap.rs:3:", &["launch:", "(8 waves where the blocks take bands of rows)"]);
    // With a reduction, the rows stay grid-stride on one wave (a partial per block).
    let red = "#[acc::kernels]
fn lap(a: &[f32], b: &mut [f32], n: usize) -> f32 {
    let mut s = 0.0f32;
    #[acc::r#loop(independent, reduction(+: s))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            b[i * n + j] = a[(i - 1) * n + j] + a[(i + 1) * n + j] - 2.0 * a[i * n + j];
            s += a[i * n + j];
        }
    }
    s
}";
    let r = report(RegionKind::Kernels, "src/lap.rs", 1, red);
    assert!(!r.contains("a band of consecutive trips"), "{r}");
    has(&r, "src/lap.rs:", &["loop `i`: blockIdx.y, threadIdx.y (multi-dimensional schedule); trip = blockIdx.y * blockDim.y + threadIdx.y"]);
}

#[test]
fn a_kernels_reduction_nest_on_the_grid_says_how_its_blocks_combine() {
    let text = "#[acc::kernels]
fn step(a: &[f64], anew: &mut [f64], n: usize, m: usize) -> f64 {
    let mut err = 0.0f64;
    #[acc::r#loop(independent, reduction(max: err))]
    for j in 1..n - 1 {
        #[acc::r#loop(independent, reduction(max: err))]
        for i in 1..m - 1 {
            let v = 0.25 * (a[j * m + i + 1] + a[j * m + i - 1] + a[(j - 1) * m + i] + a[(j + 1) * m + i]);
            err = err.max((v - a[j * m + i]).abs());
            anew[j * m + i] = v;
        }
    }
    err
}";
    let r = report(RegionKind::Kernels, "tests/step.rs", 1, text);
    has(&r, "tests/step.rs:5:", &["loop `j`: blockIdx.y, threadIdx.y (multi-dimensional schedule)"]);
    has(&r, "tests/step.rs:7:", &["loop `i`: blockIdx.x, threadIdx.x (multi-dimensional schedule)"]);
    has(&r, "tests/step.rs:5:", &["reduction `err`: each thread's copy is combined over all the threads of its block (x, y, z)"]);
    has(&r, "tests/step.rs:5:", &["reduction(max: err): thread 0 of each block stores the block's value", "the host folds the partials"]);
}

const JACOBI9: &str = "#[acc::parallel]
fn step(a: &[f32], w: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 32))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)], w[i * n + (j - 1..j + 2)]);
            b[i * n + j] = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1] + w[i * n + j + 1];
        }
    }
}";

#[test]
fn windows_that_move_with_a_tile_nest_are_staged_once_a_tile() {
    let r = report(RegionKind::Parallel, "src/jacobi.rs", 1, JACOBI9);
    has(&r, "src/jacobi.rs:5:", &["cache!: a[(i - 1 .. i + 2) * n + (j - 1 .. j + 2)], w[i * n + (j - 1 .. j + 2)] staged in shared memory as 2-D tiles", "moves with a loop of the nest", "each tile of the block"]);
    has(&r, "src/jacobi.rs:6:", &["staged in shared memory (see the loop)"]);
    // The window's rows move with `i`: a quarter of the tile's 32 rows a thread, adjacent.
    has(&r, "src/jacobi.rs:4:", &["tile: each thread takes 8 rows of the tile (`i` at 8 * threadIdx.y + q, q < 8, adjacent rows"]);
    has(&r, "src/jacobi.rs:4:", &["loop `i`: blockIdx.y, threadIdx.y (multi-dimensional schedule); trips = blockIdx.y * 8 * blockDim.y + 8 * threadIdx.y + q for q < 8"]);
    // `cache!` names its windows without changing them: the nest's 6 indices are bounded at
    // the launch, and a kernel without their checks stages the same tiles.
    has(&r, "src/jacobi.rs:4:", &["bounds: the nest's 6 element indices bounded at each launch"]);
    assert!(!r.contains("__acc_"), "{r}");
    // A window that moves with a stepped loop, and one that reads the body's own names.
    let stepped = JACOBI9.replace("for j in 1..n - 1", "for j in (1..n - 1).step_by(2)").replace("acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)], ", "acc::cache!(");
    let r = report(RegionKind::Parallel, "src/jacobi.rs", 1, &stepped);
    has(&r, "src/jacobi.rs:6:", &["cache!: not staged: the window `w[..]` moves with `j`, whose loop does not step by 1"]);
    // Without a literal tile size, a window whose rows and columns both follow the nest is
    // not staged.
    let bare = JACOBI9.replace("#[acc::parallel]", "#[acc::kernels]").replace("#[acc::r#loop(tile(32, 32))]", "#[acc::r#loop(independent)]");
    let r = report(RegionKind::Kernels, "src/jacobi.rs", 1, &bare);
    assert!(!r.contains("staged in shared memory as 2-D tiles"), "{r}");
    // Without `cache!`, a tile nest whose body holds no loop keeps one row of the tile a
    // thread (the copies would share no load).
    let plain = JACOBI9.replace("acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)], w[i * n + (j - 1..j + 2)]);", "");
    let r = report(RegionKind::Parallel, "src/jacobi.rs", 1, &plain);
    has(&r, "src/jacobi.rs:4:", &["loop `i`: blockIdx.y, threadIdx.y (multi-dimensional schedule); trip = blockIdx.y * blockDim.y + threadIdx.y"]);
    assert!(!r.contains("each thread takes"), "{r}");
}

#[test]
fn an_array_reduction_says_how_its_elements_combine() {
    let r = report(
        RegionKind::Parallel,
        "tests/ep.rs",
        1,
        "#[acc::parallel]
fn ep(x: &[f64]) -> (f64, [f64; 10]) {
    let mut sx = 0.0f64;
    let mut q = [0.0f64; 10];
    #[acc::r#loop(gang, vector, reduction(+: sx, q))]
    for i in 0..x.len() {
        q[(x[i] * 10.0) as usize % 10] += 1.0;
        sx += x[i];
    }
    (sx, q)
}",
    );
    has(&r, "tests/ep.rs:6:", &["reduction(+: q): thread 0 of each block stores the block's value"]);
    has(&r, "tests/ep.rs:6:", &["`q` is an array", "elements combined over the block one after another", "a partial per element and block"]);
    assert!(!r.contains("`sx` is an array"), "{r}");
}

/// A `&mut [T]` parameter in `reduction` (whole, and `max` over a section): the report says
/// its elements are combined in place by atomic updates.
#[test]
fn a_reduced_slice_parameter_is_reported_as_atomic_updates() {
    let text = "#[acc::parallel]
fn hist(a: &[f64], bins: &mut [f64], hi: &mut [f64], lo: usize) {
    #[acc::r#loop(gang, vector, reduction(+: bins), reduction(max: hi[lo..]))]
    for i in 0..a.len() {
        bins[i % bins.len()] += a[i];
        hi[lo + i % 3] = hi[lo + i % 3].max(a[i]);
    }
}";
    let r = report(RegionKind::Parallel, "src/hist.rs", 1, text);
    has(&r, "src/hist.rs:4:", &["`bins` (a `&mut [T]` parameter in `reduction`)", "atomic updates (`bins[i] += x`)"]);
    has(&r, "src/hist.rs:4:", &["`hi` (a `&mut [T]` parameter in `reduction`)", "atomic updates (`hi[i] = hi[i].max(x)`)"]);
}

/// A section of a local array in `reduction`: the report names it.
#[test]
fn a_reduced_section_is_named_in_the_report() {
    let text = "#[acc::parallel]
fn counts(x: &[f64], lo: usize) -> [u32; 10] {
    let mut q = [0u32; 10];
    #[acc::r#loop(gang, vector, reduction(+: q[lo..9]))]
    for i in 0..x.len() {
        q[lo + i % (9 - lo)] += 1;
    }
    q
}";
    let r = report(RegionKind::Parallel, "src/counts.rs", 1, text);
    has(&r, "src/counts.rs:5:", &["`q` is an array reduced over the section `q[lo..9]`", "each index the loop uses checked against it"]);
}
