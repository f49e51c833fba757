#!/usr/bin/env bash
# The GPU bench in one run, on the GPU machine (CUDA, nvcc, CuPy; no Rust), from the repo root:
#   bash scripts/gpu-bench.sh
# Needs the acc bench binary packed beforehand on a machine with Rust:
#   ../shared/tools/gpu-pack bench -p acc-benches --features cuda --bench gpu --no-run   # -> .gpu/bin/bench-gpu-<hash>
# and copied to the GPU machine beside the checkout (.gpu/ in the repository root).
# Builds benches/cuda/baseline.cu with nvcc, runs the nvcc baseline, the CuPy baseline and the
# acc bench (ACC_DEVICE_TYPE=nvidia), then prints the joined table (benches/gpu_table.py).
# benches/cuda/launch.cu (the launch floor, its own format) runs too, outside the table.
# Logs and the table also go to $OUT (when set) or to /tmp/gpu-bench-out/, with results.json
# (every result, machine-readable: benches/gpu_table.py --json) and, where matplotlib is
# installed, the plots of benches/gpu_plot.py in plots/ (elsewhere: bring results.json back and
# run `python3 benches/gpu_plot.py results.json` where it is).
# Exit status: 0 when every part ran and passed its checks, else 1 (the table is still printed).
# Optional: ACC_BENCH_BIN=path (another acc bench binary), STAGE_TIMEOUT=seconds (a limit for
# each of the three runs; default none), ACC_COMMIT=hash (recorded in results.json; default:
# git's HEAD where there is a checkout).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/gpu-bench-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 RUST_BACKTRACE=1 ACC_DEVICE_TYPE=nvidia
status=0
limit() { if [ "${STAGE_TIMEOUT:-0}" -gt 0 ]; then timeout "$STAGE_TIMEOUT" "$@"; else "$@"; fi; }

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null \
  | sed 's/^/# gpu: /' | tee "$out/gpu.txt"

echo "# === nvcc: building benches/cuda/baseline.cu"
bin=/tmp/acc-bench-baseline
if nvcc -O3 -arch=native -std=c++17 -o "$bin" benches/cuda/baseline.cu 2>&1 | tee "$out/nvcc-build.log"; then
  echo "# === nvcc baseline"
  limit "$bin" 2>&1 | tee "$out/nvcc.log" || { echo "# nvcc baseline FAILED"; status=1; }
else
  echo "# nvcc build FAILED"; status=1; : > "$out/nvcc.log"
fi

if [ -f benches/cuda/launch.cu ]; then
  echo "# === nvcc launch floor (benches/cuda/launch.cu; not in the table)"
  if nvcc -O3 -arch=native -std=c++17 -o /tmp/acc-bench-launch benches/cuda/launch.cu >/dev/null 2>&1; then
    limit /tmp/acc-bench-launch 2>&1 | tee "$out/launch.log" || { echo "# launch.cu FAILED"; status=1; }
  else
    echo "# launch.cu build FAILED"; status=1
  fi
fi

echo "# === CuPy baseline"
limit python3 benches/gpu_baseline.py 2>&1 | tee "$out/cupy.log" || { echo "# CuPy baseline FAILED"; status=1; }

echo "# === acc bench"
acc=${ACC_BENCH_BIN:-$(ls -t .gpu/bin/bench-gpu-* 2>/dev/null | head -n 1)}
if [ -n "$acc" ]; then
  chmod +x "$acc"
  echo "# binary: $acc"
  limit "$acc" 2>&1 | tee "$out/acc.log" || { echo "# acc bench FAILED"; status=1; }
  # The bench's own launch counts (acc::profile::launch_counts): none may be on the host.
  host=$(sed -n 's/^# launches: gpu .*, host \([0-9]*\)$/\1/p' "$out/acc.log" | tail -n 1)
  [ "${host:-1}" -eq 0 ] || { echo "# acc bench launched on the host (or printed no launch counts)"; status=1; }
else
  echo "# no .gpu/bin/bench-gpu-* (pack it with: ../shared/tools/gpu-pack bench -p acc-benches --features cuda --bench gpu --no-run; copy .gpu to the GPU machine)"
  status=1; : > "$out/acc.log"
fi

echo "# === table"
cat "$out/gpu.txt"
python3 benches/gpu_table.py --json "$out/results.json" --gpu "$out/gpu.txt" \
  "$out/acc.log" "$out/nvcc.log" "$out/cupy.log" | tee "$out/table.md"
echo "# results: $out/results.json"
python3 benches/gpu_plot.py "$out/results.json" --out "$out/plots" \
  || echo "# no plots here: run python3 benches/gpu_plot.py results.json where matplotlib is"
exit $status
