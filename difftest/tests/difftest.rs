//! The differential tester's run (see the crate docs): `ACC_DIFFTEST_SEED`, `ACC_DIFFTEST_CASES`,
//! `ACC_DIFFTEST_MAX`, `ACC_DIFFTEST_SHAPES`, `ACC_DIFFTEST_ONLY` choose the cases.

#[test]
fn generated_programs_match_sequential_rust() {
    let cfg = acc_difftest::Config::from_env();
    println!("difftest: seed {}, {} inputs per shape, at most {} elements, shapes {:?}, on {:?}", cfg.seed, cfg.cases, cfg.max_elems, cfg.shapes, acc::device_type());
    let rep = acc_difftest::run(&cfg);
    println!("difftest: {} shapes, {} cases, {} mismatched (seed {})", rep.shapes, rep.cases, rep.failed, cfg.seed);
    assert_eq!(
        rep.failed,
        0,
        "seed {}: mismatches (run one again with ACC_DIFFTEST_SEED={} ACC_DIFFTEST_ONLY=pNNN:case):\n{}",
        cfg.seed,
        cfg.seed,
        rep.failures.join("\n")
    );
}
