//! The NAS Parallel Benchmarks (NPB 3.3) written with acc's directives, after NPB-ACC (the
//! OpenACC C port of the OpenUH group): each benchmark is a module whose `run` executes one
//! class and returns NPB's report, its verification against NPB's reference values included.

pub mod bt;
pub mod cfd;
pub mod cg;
pub mod class;
pub mod ep;
pub mod ft;
pub mod is;
pub mod lu;
pub mod mg;
pub mod randdp;
pub mod report;
pub mod sp;
pub mod timer;

pub use class::Class;
pub use report::Report;

/// The benchmarks, by NPB's names.
pub const BENCHMARKS: &[&str] = &["ep", "cg", "is", "mg", "ft", "lu", "sp", "bt"];

/// Runs benchmark `name` (`"ep"`, `"cg"`, ...) at `class`.
pub fn run(name: &str, class: Class) -> Result<Report, String> {
    match name.to_ascii_lowercase().as_str() {
        "ep" => Ok(ep::run(class)),
        "cg" => Ok(cg::run(class)),
        "is" => is::run(class),
        "mg" => Ok(mg::run(class)),
        "ft" => Ok(ft::run(class)),
        "lu" => Ok(lu::run(class)),
        "sp" => Ok(sp::run(class)),
        "bt" => Ok(bt::run(class)),
        _ => Err(format!("unknown benchmark `{name}` (expected one of {})", BENCHMARKS.join(", "))),
    }
}
