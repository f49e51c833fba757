//! acc facade (stub)
pub use acc_macros::*;
