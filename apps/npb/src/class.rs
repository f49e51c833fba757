//! NPB's problem classes.

use std::fmt;
use std::str::FromStr;

/// A problem class: S (small test), W (workstation), A, B, C (standard), D (large).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    S,
    W,
    A,
    B,
    C,
    D,
}

impl FromStr for Class {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_uppercase().as_str() {
            "S" => Ok(Class::S),
            "W" => Ok(Class::W),
            "A" => Ok(Class::A),
            "B" => Ok(Class::B),
            "C" => Ok(Class::C),
            "D" => Ok(Class::D),
            _ => Err(format!("unknown class `{s}` (expected S, W, A, B, C or D)")),
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}
