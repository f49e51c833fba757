#!/usr/bin/env bash
# A quick check of codegen changes on the GPU machine in one run: five semantics
# binaries (launches counted per binary), the GPU bench beside nvcc and CuPy
# (scripts/gpu-bench.sh) and the papers' kit beside GCC and nvcc (scripts/gpu-papers.sh).
# About 7 minutes to pack on a 2-core machine, 100-180 s on an H100.
#
#   bash scripts/gpu-quick.sh pack        # here (Rust): builds and packs .gpu/ and .gpu-papers/
#   bash .gpu/quick.sh                    # on the GPU machine, .gpu/ and .gpu-papers/ copied there
#
# Logs and the two tables also go to $OUT (or /tmp/q-out); the summary prints last.
set -uo pipefail

if [ "${1:-}" = pack ]; then
  set -e
  root=$(cd "$(dirname "$0")/.." && pwd)
  cd "$root"
  pack=../shared/tools/gpu-pack
  [ -x "$pack" ] || pack=/work/shared/tools/gpu-pack
  rm -rf .gpu .gpu-papers
  nice "$pack" test --release -p acc-suite --features cuda --test semantics_chunks --test semantics_reductions \
    --test semantics_loops --test semantics_nested_reductions --test semantics_matrix --no-run
  nice "$pack" bench -p acc-benches --features cuda --bench gpu --no-run
  for f in .gpu/bin/test-gpu-*; do mv "$f" .gpu/bench-gpu; done
  # -9: the suite's PTX, which every binary of the suite embeds, is stored once.
  XZ_OPT="-T2 -9" tar -cJf .gpu/bins.tar.xz -C .gpu/bin . && rm -rf .gpu/bin
  xz -T2 -6 .gpu/bench-gpu
  cp scripts/gpu-quick.sh .gpu/quick.sh
  nice bash scripts/gpu-papers.sh pack .gpu-papers
  du -sh .gpu .gpu-papers
  exit 0
fi

# On the GPU machine, from .gpu/ (the checkout's scripts/ and benches/ are beside it).
cd "$(dirname "$0")/.." || exit 2
export ACC_DEVICE_TYPE=nvidia
out=${OUT:-/tmp/q-out}; mkdir -p "$out" /tmp/q/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tar -xJf .gpu/bins.tar.xz -C /tmp/q/bin
summary=/tmp/q/summary.txt; : > $summary
run_test() {
  local b=$1 name; name=$(basename "$b" | sed 's/-[0-9a-f]\{16\}$//')
  ACC_DEVICE_NUM=$2 ACC_NOTIFY=1 timeout 280 "$b" --test-threads=1 --nocapture > /tmp/q/$name.log 2>&1; local rc=$?
  echo "$name rc=$rc $(grep -E '^test result' /tmp/q/$name.log | tail -1 | cut -c1-60) gpu=$(grep -c 'on nvidia' /tmp/q/$name.log) (lean $(grep -c '(lean kernel)' /tmp/q/$name.log)) host=$(grep -c 'on host' /tmp/q/$name.log)" >> $summary
  grep -E "panicked at|^---- " /tmp/q/$name.log | head -4 >> $summary
}
ngpu=$(nvidia-smi -L | wc -l)
i=0
for b in /tmp/q/bin/test-*; do run_test "$b" $((i % ngpu)) & i=$((i+1)); done
wait
xz -dc .gpu/bench-gpu.xz > /tmp/q/bench-gpu-x && chmod +x /tmp/q/bench-gpu-x
OUT=/tmp/bench-out ACC_BENCH_BIN=/tmp/q/bench-gpu-x timeout 200 bash scripts/gpu-bench.sh > /tmp/q/bench.log 2>&1; echo "bench rc=$?" >> $summary
OUT=/tmp/papers timeout 200 bash .gpu-papers/run.sh > /tmp/q/papers.log 2>&1; echo "papers rc=$?" >> $summary
cp /tmp/bench-out/table.md "$out/bench-table.md" 2>/dev/null; cp /tmp/papers/table.md "$out/papers-table.md" 2>/dev/null
cp /tmp/q/bench.log /tmp/q/papers.log $summary "$out/" 2>/dev/null
grep -E "launch/" /tmp/q/bench.log | head -8
grep -E "^\| " /tmp/bench-out/table.md | head -42
sed -n '/^| position | type op/,/^$/p' /tmp/papers/table.md | cut -d'|' -f2-4,6-11 | head -50
sed -n '/GCC.s stream/,$p' /tmp/papers/table.md | head -8
cat $summary
