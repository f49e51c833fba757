//! Compile-fail diagnostics: every directive misuse is a compile error on the offending token.
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test -p acc-suite --test ui`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
}
