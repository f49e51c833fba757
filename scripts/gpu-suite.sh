#!/usr/bin/env bash
# The whole suite on the GPU machine (no Rust there), with the proof that it ran there: per
# binary, tests passed and launches on each GPU / on the host (ACC_NOTIFY), the host launches by
# region (each must be one that asks for the host: `if`, `self`), then compute-sanitizer
# (memcheck, racecheck, synccheck) on the binaries named in SANITIZE.
#
# Here (with Rust), from the repository root:
#   rm -rf .gpu && ../shared/tools/gpu-pack test --release -p acc-suite --features cuda --tests --no-run
#   ../shared/tools/gpu-pack build --release -p acc-examples --features cuda --examples
#   tar -cJf .gpu/bins.tar.xz -C .gpu/bin . && rm -rf .gpu/bin && cp scripts/gpu-suite.sh .gpu/
# then, with .gpu/ copied to the GPU machine: bash .gpu/gpu-suite.sh
cd "$(dirname "$0")" || exit 2
if [ -f bins.tar.xz ] && [ ! -d bin ]; then mkdir -p bin && tar -xJf bins.tar.xz -C bin; fi
rm -f bin/test-ui-*   # trybuild needs cargo
cd bin || exit 2
export ACC_DEVICE_TYPE=nvidia RUST_BACKTRACE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# The binaries are spread over the GPUs (ACC_DEVICE_NUM picks each one's default device; tests
# that use several devices still see them all), one binary at a time per GPU.
ngpu=$(nvidia-smi --list-gpus | wc -l)
bins=(*)
run_bin() {  # binary, device
  local b=$1 rc
  chmod +x "$b"
  case "$b" in
    test-*) ACC_DEVICE_NUM=$2 ACC_NOTIFY=1 ./"$b" --test-threads=1 --nocapture > "/tmp/$b.log" 2>&1 ;;
    *) ACC_DEVICE_NUM=$2 ACC_NOTIFY=1 ./"$b" > "/tmp/$b.log" 2>&1 ;;
  esac
  echo "rc=$?" > "/tmp/$b.rc"
}
for ((g = 0; g < ngpu; g++)); do
  ( for ((i = g; i < ${#bins[@]}; i += ngpu)); do run_bin "${bins[$i]}" "$g"; done ) &
done
wait
pass=0; fail=0
for b in "${bins[@]}"; do
  rc=$(sed -n 's/^rc=//p' "/tmp/$b.rc")
  gpu=$(grep -c 'acc: launch .* on nvidia' "/tmp/$b.log"); host=$(grep -c 'acc: launch .* on host' "/tmp/$b.log")
  per_dev=$(grep -o 'acc: launch .* on nvidia [0-9]*' "/tmp/$b.log" | awk '{print "gpu" $NF}' | sort | uniq -c | awk '{printf "%s=%s ", $2, $1}')
  lean=$(grep -c 'acc: launch .* on nvidia [0-9]* (lean kernel)' "/tmp/$b.log")
  inb=$(grep -c 'acc: launch .* on nvidia [0-9]* (indices bounded)' "/tmp/$b.log")
  inbc=$(grep -c 'acc: launch .* on nvidia [0-9]* (indices bounded, routines checked)' "/tmp/$b.log")
  pt=$(grep -c 'acc: launch .* on nvidia [0-9]* (indices bounded, .*one point a thread)' "/tmp/$b.log")
  leaninb=$(grep -c 'acc: launch .* on nvidia [0-9]* (lean kernel, indices bounded)' "/tmp/$b.log")
  echo "=== $b rc=$rc gpu_launches=$gpu (${per_dev% }; lean kernels $lean, without index checks $leaninb; indices bounded $inb, routines checked $inbc, one point a thread $pt) host_launches=$host :: $(grep -E '^test result' "/tmp/$b.log" | tail -1)"
  if [ "$rc" = 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); grep -E -A4 'panicked' "/tmp/$b.log" | head -30; fi
done
echo "##### host launches by region (each must ask for the host)"
for f in /tmp/test-*.log /tmp/example-*.log; do [ -f "$f" ] || continue; grep -h "acc: launch .* on host" "$f" | sed "s|^.*acc: launch|$(basename "$f" .log):|"; done | sort | uniq -c | sort -rn
echo "##### sanitizers (the whole suite: gpu-sanitize.sh; SANITIZE=none skips these)"
[ "${SANITIZE:-}" = none ] && SANITIZE=
for b in ${SANITIZE-test-semantics_coherence-*}; do
  for tool in memcheck racecheck synccheck; do
    out=$(compute-sanitizer --tool $tool --print-limit 5 ./$b --test-threads=1 2>&1)
    echo "=== $b $tool: $(echo "$out" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^test result' | tr '\n' ' ')"
  done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
