#!/usr/bin/env bash
# Sets up and runs every test on the host backend, then builds the device code (PTX) and
# checks facts about it. GPU tests skip cleanly here; run them on a GPU with gpu-pack.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export ACC_DEVICE_TYPE=${ACC_DEVICE_TYPE:-host}
cargo test --workspace
