//! The example under `mpirun` with 1, 2 and 4 ranks (Open MPI): the residual and the grid's
//! digest are the same bit for bit, and the same as sequential Rust (`--check`).

use std::process::Command;

fn run(ranks: usize) -> String {
    let out = Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe", "-np", &ranks.to_string()])
        .arg(env!("CARGO_BIN_EXE_mpi-jacobi"))
        .args(["130", "60", "--check"])
        .env("ACC_DEVICE_TYPE", std::env::var("ACC_DEVICE_TYPE").unwrap_or_else(|_| "host".into()))
        .output()
        .expect("mpirun runs (install Open MPI: `apt-get install libopenmpi-dev openmpi-bin`)");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "mpirun -np {ranks} failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    println!("{stdout}");
    assert!(stdout.contains("checked: bit-identical to sequential Rust"), "{stdout}");
    let line = stdout.lines().find(|l| l.starts_with("mpi-jacobi")).expect("a result line").to_string();
    // What must not depend on the ranks: the residual and the digest.
    let rest = &line[line.find("residual").expect("a residual")..];
    rest[..rest.find(" (").unwrap_or(rest.len())].to_string()
}

#[test]
fn one_two_and_four_ranks_agree_bit_for_bit() {
    let one = run(1);
    assert_eq!(run(2), one);
    assert_eq!(run(4), one);
}
