//! The front end: a region's directives and body read into typed models (every node keeps its
//! span), before any check or lowering.

pub mod atomic;
pub mod cache;
pub mod directives;
pub mod force;
pub mod generic;
pub mod loops;
pub mod method;
pub mod model;
pub mod parse;
pub mod region;
pub mod sections;

/// Where a directive was written: the file relative to the package root, and the line.
#[derive(Clone, Debug)]
pub struct Source {
    pub file: String,
    pub line: u32,
}
