//! `npb <bench> <class>`: runs one NAS Parallel Benchmark and prints NPB's report; exits with
//! status 1 when its verification fails.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: npb <bench> <class>   bench: {}; class: S W A B C D", npb::BENCHMARKS.join(" "));
        return ExitCode::from(2);
    }
    let report = match args[2].parse().and_then(|class| npb::run(&args[1], class)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("npb: {e}");
            return ExitCode::from(2);
        }
    };
    report.print();
    if report.verified {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
