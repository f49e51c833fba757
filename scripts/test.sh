#!/usr/bin/env bash
# Sets up and runs every test on the host backend, then builds the device code (PTX) and
# checks facts about it. GPU tests skip cleanly here; run them on a GPU with gpu-pack.
set -euo pipefail
cd "$(dirname "$0")/.."
# A full run writes about 6 GiB under target/ (a clean clone's): say so first where the disk has
# less, since the build then fails later with an I/O error from rustc or the linker.
free_kib=$(df -Pk . | awk 'NR == 2 {print $4}')
if [ "${free_kib:-0}" -lt $((8 * 1024 * 1024)) ]; then
  echo "test.sh: warning: $((free_kib / 1024)) MiB free on $(df -P . | awk 'NR == 2 {print $6}'); a full run writes about 6 GiB" >&2
fi
bash scripts/setup.sh
bash scripts/setup-tests.sh
export ACC_DEVICE_TYPE=${ACC_DEVICE_TYPE:-host}
# The reduction matrix and the per-operator/type/form tests are generated (acc-build must read
# their regions, which `macro_rules!` would hide): they must be up to date.
python3 suite/tests/gen/matrix.py --check
python3 suite/tests/gen/reductions.py --check
python3 suite/tests/gen/array_reductions.py --check
python3 suite/tests/gen/nested_reductions.py --check
python3 suite/tests/gen/loops.py --check
python3 suite/tests/gen/schedules.py --check
python3 suite/tests/gen/atomics.py --check
python3 suite/tests/gen/papers.py --check
python3 suite/tests/gen/windows.py --check
# The differential tester's programs (difftest/, run by `cargo test --workspace` below with the
# seed it prints: 300 shapes x 10 inputs on the host backend).
python3 suite/tests/gen/difftest.py --check
# The runtime layers one way (issue 13): no import cycle among acc-runtime's modules.
python3 scripts/import-cycles.py
# So does the compiler: syntax and error collection, then front (parse, model), check, the
# schedule report, lower; no cycle, and no import from a layer to one above it.
python3 scripts/import-cycles.py acc-codegen/src --layers=syntax,report,paths:front:check:info:lower
# And the device crate: no import cycle among acc-device's modules.
python3 scripts/import-cycles.py acc-device/src
python3 scripts/import-cycles.py acc-build/src
cargo test --workspace
# The runtime's GPU path has unit tests of its own (grids, waves, blocks): they need no GPU.
cargo test -p acc-runtime --features cuda --lib
# NVTX ranges as a profiler gets them: a stand-in injection library in a child process.
cargo test -p acc-runtime --features cuda --test nvtx_injection
# Clippy reports nothing on acc's expansions: no lint on a directive's clauses, the tokens that
# only acc's generated code puts in the crate (the suite, the examples and the benches; the GPU
# path's host code under `--features cuda` below).
REGIONS="-p acc-suite -p acc-examples -p acc-benches"
python3 scripts/clippy-expansions.py $REGIONS --all-targets
# The papers' reduction testsuite bench (benches/benches/papers.rs, its regions generated above)
# on the host backend at a small size, every result checked (the GPU run: scripts/gpu-papers.sh).
ACC_PAPERS_N=262144 ACC_PAPERS_REPS=1 ACC_PAPERS_STREAM_N=100000 cargo test -p acc-benches --bench papers
# The API docs, with no rustdoc warning (also with the CUDA backend's modules, as docs.rs
# builds them); docs/*.md are part of them (`acc::guide`, ...), their Rust blocks tested above.
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p acc-runtime --features cuda
# The MPI example, its own workspace (it needs the system's MPI): 1, 2 and 4 ranks on the host
# backend, bit for bit the same as each other and as sequential Rust.
cargo test --release --manifest-path examples/mpi-jacobi/Cargo.toml --target-dir target
# The device code: every region of the suite, the examples and the benches compiled to PTX by
# acc-build (pinned nightly), each package's own, the examples built with the GPU path, and
# facts checked in each package's PTX.
cargo build --release -p acc-examples --features cuda --examples
python3 scripts/clippy-expansions.py $REGIONS --all-targets --features cuda
# The schedule report (ACC_INFO=examples/, acc's -Minfo=accel): key lines of the examples'.
bash scripts/info-check.sh
cargo test --release $REGIONS --features cuda --test ptx_facts
# A library with regions, routines and device types used by a binary's regions (its own
# workspace): run on the host, then built for the GPU (both packages' PTX; the binary's
# kernels call the library's routine on its types).
cargo run --release --manifest-path examples/05-library/Cargo.toml --target-dir target
cargo build --release --features cuda --manifest-path examples/05-library/Cargo.toml --target-dir target
# The NAS Parallel Benchmarks in acc (apps/npb, a workspace of its own): each benchmark at
# classes S (and W) verifies against NPB's reference values.
cargo test --release --manifest-path apps/npb/Cargo.toml --target-dir target
# Every published crate packages (acc's suite, examples and benches are packages of their own,
# not published).
cargo package --workspace --no-verify --allow-dirty --offline --quiet
