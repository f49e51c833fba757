#!/usr/bin/env bash
# A/B of the Jacobi bench's variants beside nvcc's jacobi.cu, then semantics_cache on the GPU.
cd "$(dirname "$0")/.." || exit 2
mkdir -p .gpu-x/jac && tar -xJf .gpu-x/jac.tar.xz -C .gpu-x/jac
export ACC_DEVICE_TYPE=nvidia RUST_BACKTRACE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O3 -arch=native -fmad=false -std=c++17 -o /tmp/jac-nvcc benches/cuda/jacobi.cu && /tmp/jac-nvcc
for rep in 1 2 3; do
  for b in ${VARS:-.gpu-x/jac/jacobi-*}; do
    chmod +x $b; echo "## $b rep $rep"; $b 2>&1 | grep -E "^acc|launches"
  done
done
for t in .gpu-x/jac/test-*; do
  [ -f "$t" ] || continue
  chmod +x $t; ACC_NOTIFY=1 $t --test-threads=1 --nocapture > /tmp/t.log 2>&1; echo "== $t rc=$? gpu=$(grep -c 'acc: launch .* on nvidia' /tmp/t.log) host=$(grep -c 'acc: launch .* on host' /tmp/t.log) :: $(grep '^test result' /tmp/t.log | tail -1)"
  grep -E -A6 "panicked|FAILED" /tmp/t.log | head -40
done
