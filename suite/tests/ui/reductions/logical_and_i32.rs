// `&&` is a logical reduction over `bool`; an `i32` wants `&`.
#[acc::parallel]
fn all_set(flags: &[i32]) -> i32 {
    let mut ok = 1i32;
    #[acc::r#loop(gang, vector, reduction(&&: ok))]
    for i in 0..flags.len() {
        ok = flags[i];
    }
    ok
}

fn main() {}
