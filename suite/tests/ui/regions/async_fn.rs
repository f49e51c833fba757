// OpenACC's own `async(q)` clause is how a region runs asynchronously.
#[acc::parallel]
async fn scale(k: f32, a: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] *= k;
    }
}

fn main() {}
