//! acc's semantic suite is this package's `tests/` (one suite, any backend), with its trybuild
//! diagnostics (`tests/ui/`) and the facts of its device code (`tests/ptx_facts.rs`). The
//! library holds what the PTX facts of several packages share ([`ptx`]): the suite's, the
//! examples' (`acc-examples`) and the benches' (`acc-benches`), each package reading its own
//! `$OUT_DIR/acc_kernels.ptx`.

pub mod ptx;
