#!/usr/bin/env bash
# Sets up and runs the main example (03-jacobi): on the GPU where a CUDA driver and device are
# found, else on the host backend (it says which). It needs only the pinned nightly
# (scripts/setup.sh) and builds only the examples' kernels (the package acc-examples).
#   usage: scripts/example.sh [example-name]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo run --release -p acc-examples --features cuda --example "${1:-03-jacobi}"
