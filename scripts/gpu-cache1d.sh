#!/usr/bin/env bash
# The `cache!` 1-D stencil bench (benches/cache1d.rs) beside hand-written CUDA
# (benches/cuda/cache1d.cu, plain and shared-memory kernels), in one run on the GPU machine
# (CUDA, nvcc; no Rust), from the repository root:
#   bash scripts/gpu-cache1d.sh [acc bench binary]
# Pack the acc bench beforehand on a machine with Rust:
#   cargo bench --features cuda --bench cache1d --no-run   # -> target/release/deps/cache1d-<hash>
# and carry it (default path: .gpu/bin/bench-cache1d). Prints the nvcc rows, then acc's, with the
# number of launches on the GPU and on the host (ACC_NOTIFY; the host count must be 0).
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.gpu/bin/bench-cache1d}
export ACC_DEVICE_TYPE=nvidia RUST_BACKTRACE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# gpu: /'
status=0
echo "# === nvcc"
if nvcc -O3 -arch=native -fmad=false -std=c++17 -o /tmp/acc-cache1d benches/cuda/cache1d.cu; then
  /tmp/acc-cache1d || status=1
else
  echo "# nvcc build FAILED"; status=1
fi
echo "# === acc"
ACC_NOTIFY=1 "$bin" 2> /tmp/acc-cache1d.err || { status=1; tail -20 /tmp/acc-cache1d.err; }
echo "# launches: gpu $(grep -c 'acc: launch .* on nvidia' /tmp/acc-cache1d.err), host $(grep -c 'acc: launch .* on host' /tmp/acc-cache1d.err)"
grep -q 'acc: launch .* on host' /tmp/acc-cache1d.err && status=1
exit $status
