#!/usr/bin/env bash
# Builds and packs the whole check for a GPU machine without Rust (`pack`), and runs it there
# (`.gpu/verify.sh`): the whole suite (scripts/gpu-suite.sh: every test binary and example,
# launch counts per binary) and the differential tester side by side, then the papers' kit
# (scripts/gpu-papers.sh) and the stencils, the 1-D windows, the GEMM, the N-body and the
# Jacobi beside nvcc (scripts/gpu-beside-nvcc.sh). The summary prints last, so that the end of
# the output holds it; only a few files go to $OUT (when set).
#
#   bash scripts/gpu-verify.sh pack        # here (Rust): builds and packs .gpu/ and .gpu-papers/
#   bash .gpu/verify.sh                    # on the GPU machine, .gpu/ and .gpu-papers/ copied there
#   MULTI=1 bash scripts/gpu-verify.sh pack; then copy .gpu-multi too, to a machine with several
#   GPUs: a short scaling run and the MPI example's check follow the suite
#
# On the GPU machine: DIFFTEST_CASES (inputs per shape, default 20: about 100 s on an H100
# beside the suite), SANITIZE (binaries for gpu-suite.sh's sanitizers, default none).
# Packing takes 10-15 minutes on a 2-core machine when the device crates must be rebuilt; the
# packed directories take about 46 MiB in all (2026-11-25).
set -uo pipefail

if [ "${1:-}" = pack ]; then
  set -e
  root=$(cd "$(dirname "$0")/.." && pwd)
  cd "$root"
  pack=../shared/tools/gpu-pack
  [ -x "$pack" ] || pack=/work/shared/tools/gpu-pack
  rm -rf .gpu .gpu-papers
  nice "$pack" test --release -p acc-suite --features cuda --tests --no-run
  # The CUDA backend's own GPU tests (acc-runtime/tests/cuda_smoke.rs: pool, pinned copies,
  # copies behind a launch, kept device copies), which the suite above leaves out.
  nice "$pack" test --release -p acc-runtime --features cuda --test cuda_smoke --no-run
  nice "$pack" build --release -p acc-examples --features cuda --examples
  nice cargo build --release --features cuda --manifest-path examples/05-library/Cargo.toml --target-dir target
  cp target/release/app .gpu/bin/example-05-library-app
  nice "$pack" test --release -p acc-difftest --features acc-difftest/cuda --no-run
  benches="stencils gpu cache1d cache2d nbody jacobi"
  for b in $benches; do nice "$pack" bench -p acc-benches --features cuda --bench "$b" --no-run; done
  # gpu-pack names every binary of a test profile `test-*`: the difftest and the benches go
  # apart from the suite's binaries.
  mkdir -p .gpu/extra
  mv .gpu/bin/test-difftest-* .gpu/extra/
  rm -f .gpu/bin/test-acc_difftest-* .gpu/bin/test-acc_suite-* .gpu/bin/test-ui-*
  for b in $benches; do
    for f in .gpu/bin/test-"$b"-*; do mv "$f" ".gpu/extra/bench-$b-${f##*-}"; done
  done
  strip --strip-debug .gpu/bin/* .gpu/extra/* 2>/dev/null || true
  # -9: a 64 MiB window, so the PTX that each package's binaries embed is stored once
  # (-6 stored it per binary: 64 MiB in all, past the carry limit).
  XZ_OPT="-T2 -9" tar -cJf .gpu/bins.tar.xz -C .gpu/bin .
  XZ_OPT="-T2 -9" tar -cJf .gpu/extra.tar.xz -C .gpu/extra .
  rm -rf .gpu/bin .gpu/extra
  cp scripts/gpu-suite.sh .gpu/
  cp scripts/gpu-verify.sh .gpu/verify.sh
  nice bash scripts/gpu-papers.sh pack .gpu-papers
  # With MULTI=1, issue 14's kit too (scripts/gpu-multi.sh: the scaling bench, the MPI example
  # and Open MPI's run-time), for a machine with several GPUs; carry .gpu-multi as well.
  if [ "${MULTI:-0}" = 1 ]; then nice bash scripts/gpu-multi.sh pack; fi
  du -sh .gpu .gpu-papers .gpu-multi 2>/dev/null || true
  exit 0
fi

# On the GPU machine, from .gpu/ (the checkout's scripts/ and benches/ are beside it).
cd "$(dirname "$0")" || exit 2
mkdir -p extra && tar -xJf extra.tar.xz -C extra
out=${OUT:-/tmp/gpu-verify-out}; mkdir -p "$out"
export ACC_DEVICE_TYPE=nvidia
( SANITIZE="${SANITIZE:-none}" bash gpu-suite.sh > "$out/suite.log" 2>&1; echo "suite rc=$?" >> "$out/suite.log" ) &
( ACC_NOTIFY=1 ACC_DIFFTEST_CASES=${DIFFTEST_CASES:-20} ACC_DIFFTEST_MAX=262144 timeout 300 ./extra/test-difftest-* --test-threads=1 --nocapture > /tmp/difftest.log 2>&1; echo "difftest rc=$?" >> /tmp/difftest.log ) &
wait
cd ..
if [ -f .gpu-papers/run.sh ]; then
  OUT=/tmp/papers timeout 150 bash .gpu-papers/run.sh > /tmp/papers.log 2>&1; echo "papers rc=$?" >> /tmp/papers.log
  cp /tmp/papers/table.md "$out/papers-table.md" 2>/dev/null
fi
# Several GPUs and the multi-GPU kit carried: a short scaling run and the MPI example's check.
if [ -f .gpu-multi/run.sh ] && [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
  OUT=/tmp/multi-out SCALING="${MULTI_SCALING:-16384:200}" MPI_RUNS=" " timeout 150 bash .gpu-multi/run.sh > /tmp/multi.log 2>&1
  echo "multi rc=$?" >> /tmp/multi.log
fi
timeout 90 bash scripts/gpu-beside-nvcc.sh stencils "$(ls .gpu/extra/bench-stencils-* | head -1)" > "$out/stencils.log" 2>&1
echo "stencils rc=$?" >> "$out/stencils.log"
grep -E "^acc |^nvcc|launches|rc=" "$out/stencils.log"
# The 1-D stencils' windows, the paper's GEMM (2-D `cache!` tiles), N-body (1-D windows of a
# tile loop) and Jacobi (2-D windows that move with the nest) beside nvcc's shared-memory kernels.
for b in cache1d cache2d nbody jacobi; do
  ls .gpu/extra/bench-$b-* >/dev/null 2>&1 || continue
  timeout 60 bash scripts/gpu-beside-nvcc.sh $b "$(ls .gpu/extra/bench-$b-* | head -1)" > "$out/$b.log" 2>&1
  echo "$b rc=$?" >> "$out/$b.log"
  grep -E "^acc |^nvcc |launches|rc=" "$out/$b.log"
done
# The existing bench beside nvcc and CuPy (scripts/gpu-bench.sh: benches/benches/gpu.rs).
if ls .gpu/extra/bench-gpu-* >/dev/null 2>&1; then
  OUT=/tmp/bench-out ACC_BENCH_BIN="$(ls .gpu/extra/bench-gpu-* | head -1)" timeout 240 bash scripts/gpu-bench.sh > /tmp/bench.log 2>&1
  echo "bench rc=$?" >> /tmp/bench.log
  cp /tmp/bench-out/table.md "$out/bench-table.md" 2>/dev/null; cp /tmp/bench-out/launch.log "$out/bench-launch.log" 2>/dev/null
  grep -E "^\| (copy|vadd|saxpy|rowsum|heat|pi|launch|gang|worker|vector|same)" /tmp/bench-out/table.md | head -30
  grep -E "launch/|rc=" /tmp/bench.log | head -12
fi
[ -f "$out/papers-table.md" ] && sed -n '/acc\/bound (target/,$p' "$out/papers-table.md" | head -40
tail -1 /tmp/papers.log 2>/dev/null
grep -E "^difftest:|mismatch" /tmp/difftest.log | tail -3 | tee "$out/difftest-summary.txt"
echo "difftest: GPU launches $(grep -c 'on nvidia' /tmp/difftest.log), host $(grep -c 'on host' /tmp/difftest.log); $(tail -1 /tmp/difftest.log)"
grep 'acc: launch .* on host' /tmp/difftest.log | sed 's/^acc: launch //' | sort | uniq -c | sort -rn | head -5 | sed 's/^/difftest host launches: /'
grep -A30 "##### host launches" "$out/suite.log" | sed '/##### sanitizers/q'
grep -E "^=== .*(memcheck|racecheck|synccheck)" "$out/suite.log"
[ -f /tmp/multi.log ] && sed -n '/===== summary/,$p' /tmp/multi.log && tail -1 /tmp/multi.log
grep -E "^=== test-|^=== example-|passed, .* failed|suite rc" "$out/suite.log" | sed 's/-[0-9a-f]\{16\} / /'
