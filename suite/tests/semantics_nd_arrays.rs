//! Multi-dimensional data as Rust users write it (issue "OpenACC forms", item 5): slices of
//! nested fixed-size arrays (`&mut [[f64; 5]]`, `&[[[[f64; 5]; NX]; NY]]`, NPB's `u[k][j][i][m]`
//! with the grid's outermost dimension as the slice) as region parameters and in data clauses,
//! indexed `u[k][j][i][m]` in the kernels, on both backends, against plain Rust.

mod common;

const NX: usize = 12;
const NY: usize = 9;

/// A cell's five values scaled: the innermost array of a 2-D slice.
#[acc::parallel]
fn scale5(u: &mut [[f64; 5]], rhs: &[[f64; 5]], k: f64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..u.len() {
        for m in 0..5 {
            u[i][m] = k * rhs[i][m] + m as f64;
        }
    }
}

/// NPB's 4-D layout `u[k][j][i][m]`: the slice is `k`, the arrays `j`, `i`, `m`.
#[acc::parallel]
fn add_neighbours(u: &[[[[f64; 5]; NX]; NY]], out: &mut [[[[f64; 5]; NX]; NY]]) {
    #[acc::r#loop(gang, collapse(2))]
    for k in 1..u.len() - 1 {
        for j in 1..NY - 1 {
            #[acc::r#loop(vector)]
            for i in 1..NX - 1 {
                for m in 0..5 {
                    out[k][j][i][m] = u[k - 1][j][i][m] + u[k + 1][j][i][m] + u[k][j - 1][i][m] + u[k][j + 1][i][m] + u[k][j][i - 1][m] + u[k][j][i + 1][m];
                }
            }
        }
    }
}

/// A 5x5 block times a 5-vector per cell (BT's `matvec_sub`), a whole row of a block read
/// into a local array.
#[acc::parallel]
fn matvec(a: &[[[f64; 5]; 5]], x: &[[f64; 5]], y: &mut [[f64; 5]]) {
    #[acc::r#loop(gang, vector)]
    for c in 0..y.len() {
        let xc: [f64; 5] = x[c];
        for r in 0..5 {
            let row = a[c][r];
            let mut s = 0.0;
            for q in 0..5 {
                s += row[q] * xc[q];
            }
            y[c][r] = s;
        }
    }
}

/// A reduction over every element of a nested slice.
#[acc::parallel]
fn sum_all(u: &[[[f64; 5]; NX]]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for j in 0..u.len() {
        for i in 0..NX {
            for m in 0..5 {
                s += u[j][i][m];
            }
        }
    }
    s
}

fn cell(k: usize, j: usize, i: usize, m: usize) -> f64 {
    ((k * 7 + j * 5 + i * 3 + m) % 11) as f64
}

#[test]
fn a_slice_of_arrays_of_five() {
    let n = 10_000;
    let rhs: Vec<[f64; 5]> = (0..n).map(|i| [0, 1, 2, 3, 4].map(|m| ((i + m) % 13) as f64)).collect();
    let mut u = vec![[0.0f64; 5]; n];
    scale5(&mut u, &rhs, 2.0);
    for i in 0..n {
        for m in 0..5 {
            assert_eq!(u[i][m], 2.0 * rhs[i][m] + m as f64, "u[{i}][{m}]");
        }
    }
}

#[test]
fn npb_layout_four_dimensions() {
    let nz = 8;
    let u: Vec<[[[f64; 5]; NX]; NY]> = (0..nz).map(|k| std::array::from_fn(|j| std::array::from_fn(|i| std::array::from_fn(|m| cell(k, j, i, m))))).collect();
    let mut out = vec![[[[0.0f64; 5]; NX]; NY]; nz];
    acc::data!(copyin(u), copy(out) {
        add_neighbours(&u, &mut out);
    });
    for k in 0..nz {
        for j in 0..NY {
            for i in 0..NX {
                for m in 0..5 {
                    let want = if k > 0 && k < nz - 1 && j > 0 && j < NY - 1 && i > 0 && i < NX - 1 {
                        cell(k - 1, j, i, m) + cell(k + 1, j, i, m) + cell(k, j - 1, i, m) + cell(k, j + 1, i, m) + cell(k, j, i - 1, m) + cell(k, j, i + 1, m)
                    } else {
                        0.0
                    };
                    assert_eq!(out[k][j][i][m], want, "out[{k}][{j}][{i}][{m}]");
                }
            }
        }
    }
}

#[test]
fn five_by_five_blocks_times_vectors() {
    let n = 3000;
    let a: Vec<[[f64; 5]; 5]> = (0..n).map(|c| std::array::from_fn(|r| std::array::from_fn(|q| ((c + 2 * r + 3 * q) % 7) as f64 - 3.0))).collect();
    let x: Vec<[f64; 5]> = (0..n).map(|c| std::array::from_fn(|q| ((c + q) % 5) as f64)).collect();
    let mut y = vec![[0.0f64; 5]; n];
    matvec(&a, &x, &mut y);
    for c in 0..n {
        for r in 0..5 {
            let want: f64 = (0..5).map(|q| a[c][r][q] * x[c][q]).sum();
            assert_eq!(y[c][r], want, "y[{c}][{r}]");
        }
    }
}

#[test]
fn reduction_and_partial_update_of_nested_data() {
    let ny = 40;
    let mut u: Vec<[[f64; 5]; NX]> = (0..ny).map(|j| std::array::from_fn(|i| std::array::from_fn(|m| cell(0, j, i, m)))).collect();
    let want: f64 = u.iter().flatten().flatten().sum();
    assert_eq!(sum_all(&u), want);
    acc::data!(copy(u) {
        // Rows 3..5 change on the host and go to the device alone.
        for row in &mut u[3..5] {
            row[0][0] += 100.0;
        }
        acc::update!(device(u[3..5]));
        assert_eq!(sum_all(&u), want + 200.0);
    });
}
