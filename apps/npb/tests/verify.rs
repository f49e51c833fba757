//! Each benchmark at the small classes: NPB's own verification (the results against NPB's
//! reference values, within NPB's tolerances) must pass, on whichever device acc runs.

use npb::Class;

fn verifies(bench: &str, class: Class) {
    let r = npb::run(bench, class).unwrap();
    assert_eq!((r.name, r.class), (bench.to_uppercase().as_str(), class));
    assert!(r.verified, "{bench} class {class}: verification failed");
    assert!(r.time > 0.0 && r.mops > 0.0, "{bench} class {class}: time {} Mop/s {}", r.time, r.mops);
}

#[test]
fn ep_s() {
    verifies("ep", Class::S);
}

#[test]
fn cg_s() {
    verifies("cg", Class::S);
}

#[test]
fn cg_w() {
    verifies("cg", Class::W);
}

#[test]
fn is_s() {
    verifies("is", Class::S);
}

#[test]
fn is_w() {
    verifies("is", Class::W);
}

#[test]
fn mg_s() {
    verifies("mg", Class::S);
}

#[test]
fn mg_w() {
    verifies("mg", Class::W);
}

#[test]
fn ft_s() {
    verifies("ft", Class::S);
}

#[test]
fn ft_w() {
    verifies("ft", Class::W);
}

#[test]
fn lu_s() {
    verifies("lu", Class::S);
}

#[test]
fn sp_s() {
    verifies("sp", Class::S);
}

#[test]
fn bt_s() {
    verifies("bt", Class::S);
}

#[test]
fn unknown_names_are_errors() {
    assert!(npb::run("xx", Class::S).is_err());
    assert!("Q".parse::<Class>().is_err());
    assert!(npb::run("is", Class::D).is_err());
}
