//! Lowering: the checked region written out as host code (rayon) and as device kernels.

pub mod atomic;
pub mod data;
pub mod device;
pub mod grid;
pub mod host;
pub mod schedule;
