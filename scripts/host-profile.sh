#!/usr/bin/env bash
# Profiles the host side of acc's GPU path on a machine without a GPU: builds the fake CUDA
# driver of scripts/fake-cuda (no kernel runs; device memory is host memory) and runs the
# given program (built with `--features cuda`) on it under `perf record`, then prints the
# report's top symbols. Its results are not the program's; what it shows is where the host's
# time goes around the launches. `ACC_EXP_HOSTTIME=1` is set, so the program's last line
# splits that time too.
#
#   scripts/host-profile.sh target/release/npb bt W
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${HOST_PROFILE_DIR:-/tmp/acc-host-profile}
mkdir -p "$out"
gcc -O2 -Wall -shared -fPIC -o "$out/libcuda.so.1" "$here/fake-cuda/fake_cuda.c"
ln -sf libcuda.so.1 "$out/libcuda.so"
export LD_LIBRARY_PATH="$out${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ACC_DEVICE_TYPE=nvidia ACC_EXP_HOSTTIME=1
if command -v perf > /dev/null; then
  perf record -q --call-graph dwarf,16384 -F "${HOST_PROFILE_FREQ:-2000}" -o "$out/perf.data" "$@" > "$out/stdout.txt" 2> "$out/stderr.txt" || true
  grep "acc: host time" "$out/stderr.txt" || tail -5 "$out/stderr.txt"
  perf report -i "$out/perf.data" --no-children --sort symbol --stdio -g none 2> /dev/null | grep -v '^#' | grep '%' | head -"${HOST_PROFILE_TOP:-40}"
  echo "(the call graphs: perf report -i $out/perf.data)"
else
  "$@" > "$out/stdout.txt" 2> "$out/stderr.txt" || true
  grep "acc: host time" "$out/stderr.txt" || tail -5 "$out/stderr.txt"
fi
