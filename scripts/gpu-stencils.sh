#!/usr/bin/env bash
# The stencil bench (benches/stencils.rs) beside hand-written CUDA (benches/cuda/stencils.cu), in
# one run on the GPU machine (CUDA, nvcc; no Rust), from the repository root:
#   bash scripts/gpu-stencils.sh [acc bench binary]
# Pack the acc bench beforehand on a machine with Rust:
#   cargo bench --features cuda --bench stencils --no-run   # -> target/release/deps/stencils-<hash>
# and carry it (default path: .gpu/bin/bench-stencils). Prints the nvcc rows, then acc's, with
# the number of launches on the GPU and on the host (ACC_NOTIFY; the host count must be 0).
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.gpu/bin/bench-stencils}
export ACC_DEVICE_TYPE=nvidia RUST_BACKTRACE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# gpu: /'
status=0
echo "# === nvcc"
if nvcc -O3 -arch=native -fmad=false -std=c++17 -o /tmp/acc-stencils benches/cuda/stencils.cu; then
  /tmp/acc-stencils || status=1
else
  echo "# nvcc build FAILED"; status=1
fi
echo "# === acc"
ACC_NOTIFY=1 "$bin" 2> /tmp/acc-stencils.err || status=1
echo "# launches: gpu $(grep -c 'acc: launch .* on nvidia' /tmp/acc-stencils.err), host $(grep -c 'acc: launch .* on host' /tmp/acc-stencils.err)"
grep -q 'acc: launch .* on host' /tmp/acc-stencils.err && status=1
exit $status
