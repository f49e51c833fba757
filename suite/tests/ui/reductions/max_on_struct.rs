// Reductions take scalars; a struct has no `max`.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
struct Score(f32);

#[acc::parallel]
fn best(a: &[f32]) -> f32 {
    let mut top = Score(f32::MIN);
    #[acc::r#loop(gang, vector, reduction(max: top))]
    for i in 0..a.len() {
        top = Score(a[i]);
    }
    top.0
}

fn main() {}
