#!/usr/bin/env bash
# Sets up and runs every test on the host backend, then builds the device code (PTX) and
# checks facts about it. GPU tests skip cleanly here; run them on a GPU with gpu-pack.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export ACC_DEVICE_TYPE=${ACC_DEVICE_TYPE:-host}
# The reduction matrix and the per-operator/type/form tests are generated (acc-build must read
# their regions, which `macro_rules!` would hide): they must be up to date.
python3 tests/gen/matrix.py --check
python3 tests/gen/reductions.py --check
python3 tests/gen/nested_reductions.py --check
python3 tests/gen/loops.py --check
python3 tests/gen/atomics.py --check
# The differential tester's programs (difftest/, run by `cargo test --workspace` below with the
# seed it prints: 300 shapes x 10 inputs on the host backend).
python3 tests/gen/difftest.py --check
cargo test --workspace
# The device code: every region of the package compiled to PTX by acc-build (pinned nightly),
# the examples built with the GPU path, and facts checked in the PTX.
cargo build --release --features cuda --examples
cargo test --release --features cuda --test ptx_facts
