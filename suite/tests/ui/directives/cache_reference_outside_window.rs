// A reference to a cached array must lie in the window (OpenACC `cache`): acc proves it at
// compile time for a window that moves with the loop, and reads the window with no range
// check on the GPU; `a[i + 2]` is outside `a[i - 1..=i + 1]`, and `a[2 * i]` unprovable.
#[acc::parallel]
fn smooth(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() / 2 - 2 {
        acc::cache!(a[i - 1..=i + 1]);
        b[i] = a[i - 1] + a[i + 2] + a[2 * i];
    }
}

// Rebinding the loop variable hides what the references mean.
#[acc::parallel]
fn shadow(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() - 1 {
        acc::cache!(a[i - 1..=i + 1]);
        let i = i + 1;
        b[i] = a[i];
    }
}

fn main() {}
