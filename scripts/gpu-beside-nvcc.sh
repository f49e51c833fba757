#!/usr/bin/env bash
# An acc bench beside its hand-written CUDA in one run on the GPU machine (CUDA, nvcc; no
# Rust), from the repository root:
#   bash scripts/gpu-beside-nvcc.sh NAME [acc bench binary]
# NAME is `stencils` (benches/benches/stencils.rs beside benches/cuda/stencils.cu: a 2-D Laplacian and
# a 13-point 3-D wave step on `kernels` schedules), `cache1d` (benches/benches/cache1d.rs beside
# benches/cuda/cache1d.cu: 1-D stencils with and without `cache!`, nvcc's plain and
# shared-memory kernels) or `cache2d` (benches/benches/cache2d.rs beside benches/cuda/cache2d.cu: GEMM
# with and without 2-D `cache!` windows, nvcc's 16 x 16 and 32 x 32 shared-memory tiled kernels)
# or `nbody` (benches/benches/nbody.rs beside benches/cuda/nbody.cu: N-body forces with and without
# 1-D `cache!` windows of the tile loop, nvcc's plain and shared-memory kernels) or `jacobi`
# (benches/benches/jacobi.rs beside benches/cuda/jacobi.cu: a 9-point Jacobi step with and without a
# 2-D `cache!` window that moves with the nest, nvcc's plain and shared-memory kernels). Pack
# the acc bench beforehand on a machine with Rust:
#   cargo bench -p acc-benches --features cuda --bench NAME --no-run   # -> target/release/deps/NAME-<hash>
# and copy it to the GPU machine (default path: .gpu/bin/bench-NAME). Prints the nvcc rows, then acc's, with the
# number of launches on the GPU and on the host (the bench's own count; the host count must be 0).
set -uo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: gpu-beside-nvcc.sh NAME [acc bench binary]}
bin=${2:-.gpu/bin/bench-$name}
[ -f "benches/cuda/$name.cu" ] || { echo "no benches/cuda/$name.cu" >&2; exit 2; }
export ACC_DEVICE_TYPE=nvidia RUST_BACKTRACE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# gpu: /'
status=0
echo "# === nvcc"
if nvcc -O3 -arch=native -fmad=false -std=c++17 -o "/tmp/acc-$name" "benches/cuda/$name.cu"; then
  "/tmp/acc-$name" || status=1
else
  echo "# nvcc build FAILED"; status=1
fi
echo "# === acc"
# Timed without ACC_NOTIFY (its line per launch is a system call inside each timed call): the
# bench prints its own launch counts (acc::profile::launch_counts), and none may be on the host.
"$bin" > "/tmp/acc-$name.out" 2> "/tmp/acc-$name.err" || { status=1; tail -20 "/tmp/acc-$name.err"; }
cat "/tmp/acc-$name.out"
counts=$(grep '^# launches: ' "/tmp/acc-$name.out" | tail -n 1)
gpu=$(sed -n 's/^# launches: gpu \([0-9]*\) .*/\1/p' <<< "$counts")
host=$(sed -n 's/.*, host \([0-9]*\)$/\1/p' <<< "$counts")
[ "${gpu:-0}" -gt 0 ] && [ "${host:-1}" -eq 0 ] || { echo "# acc did not run on the GPU only (${counts:-no launch counts})"; status=1; }
exit $status
