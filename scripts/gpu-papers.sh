#!/usr/bin/env bash
# The papers' reduction testsuite (benches/benches/papers.rs) beside GCC 12's OpenACC and the nvcc
# kernels of benches/cuda/papers.cu, in one run on the GPU machine.
#
#   bash scripts/gpu-papers.sh pack DIR   # here (Rust): builds the release CUDA bench, copies it,
#                                         # the GCC peer (../shared/peers/gcc-openacc), papers.cu,
#                                         # papers_table.py and this script into DIR, writes DIR/run.sh
#   bash DIR/run.sh                       # on the GPU machine (nvcc, no Rust), from any directory
#
# DIR may be inside the checkout (.gpu-papers is ignored by git), copied with it to the GPU
# machine:
#   bash scripts/gpu-papers.sh pack .gpu-papers
#   bash .gpu-papers/run.sh
# The run prints the GPU, builds papers.cu with nvcc -O3 -arch=native and runs it, runs GCC's
# `run.sh reductions` and `run.sh stream`, runs acc's bench with ACC_DEVICE_TYPE=nvidia and
# its launch counts (none may be on the host), then prints the tables of
# benches/papers_table.py. Logs and tables also go to $OUT (or /tmp/gpu-papers-out).
# Exit status 0 when every part ran and passed its checks. STAGE_TIMEOUT=s limits each part
# (default 150).
set -uo pipefail

mode=${1:-}
case $mode in
pack)
  dir=${2:?usage: gpu-papers.sh pack DIR}
  root=$(cd "$(dirname "$0")/.." && pwd)
  gcc_peer=${GCC_PEER:-$root/../shared/peers/gcc-openacc}
  [ -d "$gcc_peer" ] || gcc_peer=/work/shared/peers/gcc-openacc
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  cd "$root"
  bin=$(bash scripts/bench-exe.sh papers)
  [ -n "$bin" ] || { echo "gpu-papers: the bench did not build" >&2; exit 1; }
  rm -rf "$dir/gcc-openacc" "$dir/bench-papers.xz"
  xz -T2 -3 -c "$bin" > "$dir/bench-papers.xz"
  cp -r "$gcc_peer" "$dir/gcc-openacc"
  chmod -R u+w "$dir/gcc-openacc"
  cp benches/cuda/papers.cu benches/papers_table.py scripts/gpu-papers.sh "$dir/"
  commit=$(git rev-parse --short HEAD)
  printf '#!/usr/bin/env bash\n# written by scripts/gpu-papers.sh pack (acc at %s)\nACC_COMMIT=%s exec bash "$(dirname "$0")/gpu-papers.sh" run "$(dirname "$0")"\n' \
    "$commit" "$commit" > "$dir/run.sh"
  du -sh "$dir"
  echo "packed $bin (acc $commit) into $dir"
  ;;
run)
  dir=$(cd "${2:-$(dirname "$0")}" && pwd)
  out=${OUT:-/tmp/gpu-papers-out}
  mkdir -p "$out"
  export PYTHONUNBUFFERED=1 RUST_BACKTRACE=1
  lim=${STAGE_TIMEOUT:-150}
  status=0
  echo "# acc commit ${ACC_COMMIT:-?}, $(date -u +%F)" | tee "$out/gpu.txt"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null \
    | sed 's/^/# gpu: /' | tee -a "$out/gpu.txt"

  echo "# === nvcc: building papers.cu"
  if nvcc -O3 -arch=native -std=c++17 -o /tmp/papers-nvcc "$dir/papers.cu" 2>&1 | tee "$out/nvcc-build.log" \
     && [ -x /tmp/papers-nvcc ]; then
    timeout "$lim" /tmp/papers-nvcc 2>&1 | tee "$out/nvcc.log" || { echo "# nvcc papers FAILED"; status=1; }
  else
    echo "# nvcc build FAILED"; status=1; : > "$out/nvcc.log"
  fi

  echo "# === GCC 12 OpenACC: run.sh reductions"
  timeout "$lim" bash "$dir/gcc-openacc/run.sh" reductions 2>&1 | tee "$out/gcc.log" || { echo "# GCC reductions exited non-zero (its own checks or launches: see its lines above)"; status=1; }
  echo "# === GCC 12 OpenACC: run.sh stream"
  timeout "$lim" bash "$dir/gcc-openacc/run.sh" stream 2>&1 | tee "$out/gcc-stream.log" || { echo "# GCC stream FAILED"; status=1; }

  # Timed without ACC_NOTIFY (its line per launch is a system call inside each timed call);
  # the bench prints its launch counts itself (acc::profile::launch_counts).
  echo "# === acc bench"
  xz -dc "$dir/bench-papers.xz" > /tmp/papers-acc && chmod +x /tmp/papers-acc
  ACC_DEVICE_TYPE=nvidia timeout "$lim" /tmp/papers-acc > "$out/acc.log" 2> "$out/acc-stderr.log" \
    || { echo "# acc bench FAILED"; status=1; }
  cat "$out/acc.log"
  tail -n 20 "$out/acc-stderr.log"
  counts=$(grep '^# launches: ' "$out/acc.log" | tail -n 1)
  gpu=$(sed -n 's/^# launches: gpu \([0-9]*\) .*/\1/p' <<< "$counts")
  host=$(sed -n 's/.*, host \([0-9]*\)$/\1/p' <<< "$counts")
  echo "# acc launches: ${gpu:-?} on nvidia, ${host:-?} on host"
  [ "${gpu:-0}" -gt 0 ] && [ "${host:-1}" -eq 0 ] || { echo "# acc did not run on the GPU only"; status=1; }

  echo "# === tables"
  cat "$out/gpu.txt"
  python3 "$dir/papers_table.py" "$out/acc.log" "$out/nvcc.log" "$out/gcc.log" "$out/gcc-stream.log" | tee "$out/table.md"
  exit $status
  ;;
*)
  echo "usage: gpu-papers.sh pack DIR | run [DIR]" >&2; exit 2 ;;
esac
