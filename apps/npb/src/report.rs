//! NPB's closing report (`print_results.c`): the block every benchmark prints at its end.

use crate::class::Class;

/// The problem size as NPB prints it.
#[derive(Clone, Copy, Debug)]
pub enum Size {
    /// EP: `2^n` random numbers.
    Pow2(u32),
    /// CG, IS: one number.
    N(u64),
    /// MG, FT: a grid.
    Grid(u32, u32, u32),
}

/// What a benchmark run measured and whether NPB's verification passed.
#[derive(Clone, Debug)]
pub struct Report {
    pub name: &'static str,
    pub class: Class,
    pub size: Size,
    pub iterations: u32,
    /// Seconds of the timed section.
    pub time: f64,
    pub mops: f64,
    pub optype: &'static str,
    pub verified: bool,
}

impl Report {
    /// NPB's report block, ` EP Benchmark Completed.` to the version line.
    pub fn print(&self) {
        println!("\n\n {} Benchmark Completed.", self.name);
        println!(" Class           =             {:>12}", self.class.to_string());
        match self.size {
            Size::Pow2(n) => println!(" Size            =          {:>15}", format!("{:.0}", 2f64.powi(n as i32))),
            Size::N(n) => println!(" Size            =             {n:>12}"),
            Size::Grid(a, b, c) => println!(" Size            =           {a:>4}x{b:>4}x{c:>4}"),
        }
        println!(" Iterations      =             {:>12}", self.iterations);
        println!(" Time in seconds =             {:>12.2}", self.time);
        println!(" Mop/s total     =          {:>15.2}", self.mops);
        println!(" Operation type  = {:>24}", self.optype);
        let v = if self.verified { "SUCCESSFUL" } else { "UNSUCCESSFUL" };
        println!(" Verification    =             {v:>12}");
        println!(" Version         =             {:>12}", "3.3.1");
        println!(" Device          =             {:>12}", device());
        println!();
    }
}

/// Where acc runs the regions: `host` or `nvidia`.
fn device() -> &'static str {
    match acc::device_type() {
        acc::DeviceType::Host => "host",
        _ => "nvidia",
    }
}

/// C's `%.{prec}E`: `sci(-3247.83, 3)` is `-3.248E+03`.
pub fn sci(x: f64, prec: usize) -> String {
    let s = format!("{x:.prec$E}");
    let (mant, exp) = s.split_once('E').unwrap();
    let e: i32 = exp.parse().unwrap();
    format!("{mant}E{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}
