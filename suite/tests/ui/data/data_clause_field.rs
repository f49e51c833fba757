// Data clauses of `enter_data!` take names: a field is bound to one first.
struct Fields {
    u: Vec<f64>,
}

fn main() {
    let f = Fields { u: vec![0.0; 16] };
    acc::enter_data!(copyin(f.u));
}
