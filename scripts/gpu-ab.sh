#!/usr/bin/env bash
# An A/B of build variants on the GPU machine, in one run: the GPU bench (benches/benches/gpu.rs)
# and the papers' suite (benches/benches/papers.rs) built once per variant here, then run there twice
# each, alternating, beside nvcc's baselines (baseline.cu, papers.cu), CuPy, and GCC's
# reductions run once. A variant is NAME=ENV: the environment its build sees (an experiment
# switch that acc-codegen or acc-build reads, with `cargo::rerun-if-env-changed` for it in
# acc-build/src/lib.rs); a runtime switch needs no build of its own (set it in RUN_ENV_NAME).
#
#   bash scripts/gpu-ab.sh pack base=X=1 chunked=ACC_EXP_SOMETHING=1   # here: builds .gpu-ab/
#   bash .gpu-ab/ab.sh                                                   # on the GPU machine
#
# Out ($OUT, else /tmp/abo): ab.tgz with each run's log and its tables (ptable-NAME-REP.md:
# benches/papers_table.py; gtable-NAME-REP.md: benches/gpu_table.py). About 4 minutes on an
# H100 or H200 for three variants. GCC=  skips GCC; NOPAPERS=1 / NOGPU=1 skip a bench;
# GPU_GROUPS="nest launch" runs those groups of the GPU bench alone; NOBASE=1 skips the GPU
# bench's baselines (nvcc's baseline.cu, CuPy).
set -uo pipefail

if [ "${1:-}" = pack ]; then
  shift
  [ $# -gt 0 ] || { echo "usage: gpu-ab.sh pack NAME=ENV [NAME=ENV ...]" >&2; exit 2; }
  root=$(cd "$(dirname "$0")/.." && pwd)
  cd "$root"
  gcc_peer=${GCC_PEER:-$root/../shared/peers/gcc-openacc}
  [ -d "$gcc_peer" ] || gcc_peer=/work/shared/peers/gcc-openacc
  rm -rf .gpu-ab && mkdir -p .gpu-ab/var
  for spec in "$@"; do
    name=${spec%%=*}; envs=${spec#*=}
    mkdir -p ".gpu-ab/var/$name"
    for b in papers gpu; do
      # shellcheck disable=SC2086  # ENV is a list of assignments
      exe=$(env $envs bash scripts/bench-exe.sh "$b" 2>"/tmp/gpu-ab-$name-$b.err")
      [ -n "$exe" ] || { echo "gpu-ab: $name: the $b bench did not build (/tmp/gpu-ab-$name-$b.err)" >&2; exit 1; }
      xz -T2 -3 -c "$exe" > ".gpu-ab/var/$name/$b.xz"
    done
    echo "gpu-ab: built $name ($envs)"
  done
  cp -r "$gcc_peer" .gpu-ab/gcc-openacc && chmod -R u+w .gpu-ab/gcc-openacc
  cp scripts/gpu-ab.sh .gpu-ab/ab.sh
  du -sh .gpu-ab
  exit 0
fi

# On the GPU machine, from .gpu-ab/ (the checkout's benches/ is beside it).
cd "$(dirname "$0")/.." || exit 2
export ACC_DEVICE_TYPE=nvidia PYTHONUNBUFFERED=1
o=/tmp/ab; rm -rf $o; mkdir -p $o; out=${OUT:-/tmp/abo}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $o/gpu.txt
vars=${VARS:-$(ls .gpu-ab/var)}
for v in $vars; do for b in papers gpu; do
  [ -f ".gpu-ab/var/$v/$b.xz" ] && xz -dc ".gpu-ab/var/$v/$b.xz" > "$o/$v-$b" && chmod +x "$o/$v-$b"
done; done
nvcc -O3 -arch=native -std=c++17 -o $o/papers-nvcc benches/cuda/papers.cu && timeout 120 $o/papers-nvcc > $o/nvcc-papers.log 2>&1
[ -z "${NOBASE:-}" ] && nvcc -O3 -arch=native -std=c++17 -o $o/base-nvcc benches/cuda/baseline.cu && timeout 120 $o/base-nvcc > $o/nvcc-gpu.log 2>&1
: > $o/gcc.log; : > $o/gcc-stream.log
[ -n "${GCC-1}" ] && timeout 150 bash .gpu-ab/gcc-openacc/run.sh reductions > $o/gcc.log 2>&1
[ -z "${NOBASE:-}" ] && timeout 100 python3 benches/gpu_baseline.py > $o/cupy.log 2>&1
for rep in 1 2; do
  for v in $vars; do
    # RUN_ENV_<name>: a runtime switch for that variant's runs.
    renv=$(eval echo "\${RUN_ENV_$v:-}")
    if [ -x "$o/$v-papers" ] && [ -z "${NOPAPERS:-}" ]; then
      # shellcheck disable=SC2086
      env $renv ACC_PAPERS_STREAM_N=0 timeout 150 "$o/$v-papers" > "$o/papers-$v-$rep.log" 2>&1 || echo "gpu-ab: papers $v run $rep: rc=$?"
    fi
    if [ -x "$o/$v-gpu" ] && [ -z "${NOGPU:-}" ]; then
      # shellcheck disable=SC2086
      env $renv timeout 150 "$o/$v-gpu" ${GPU_GROUPS:-} > "$o/gpu-$v-$rep.log" 2>&1 || echo "gpu-ab: gpu $v run $rep: rc=$?"
    fi
  done
done
for v in $vars; do for rep in 1 2; do
  [ -f "$o/papers-$v-$rep.log" ] && python3 benches/papers_table.py "$o/papers-$v-$rep.log" $o/nvcc-papers.log $o/gcc.log $o/gcc-stream.log > "$o/ptable-$v-$rep.md" 2>&1
  [ -f "$o/gpu-$v-$rep.log" ] && python3 benches/gpu_table.py "$o/gpu-$v-$rep.log" $o/nvcc-gpu.log $o/cupy.log > "$o/gtable-$v-$rep.md" 2>&1
done; done
tar czf "$out/ab.tgz" -C $o --exclude='*-papers' --exclude='*-gpu' --exclude='*-nvcc' .
grep -h "rc=\|FAILED" $o/*.log | head -20
echo "gpu-ab: $(ls $o/*.md 2>/dev/null | wc -l) tables in $out/ab.tgz"
