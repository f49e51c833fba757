#!/usr/bin/env bash
# acc under Nsight Systems on the GPU machine (nsys; no Rust), from the repository root:
#   bash scripts/gpu-nsys.sh [binary [args...]]
# Profiles a packed acc program (default: the Jacobi example, .gpu/bin/example-03-jacobi) with
# `nsys profile --trace=cuda,nvtx`, then prints nsys's NVTX range summary (acc's ranges: `acc
# region NAME (FILE:LINE)` around each launch, `acc upload|download DATA (FILE:LINE) SIZE`
# around each transfer), its kernel summary, and the kernels by the NVTX range that launched
# them. Fails where no `acc region` or `acc upload` range was recorded. Pack the binary
# beforehand on a machine with Rust:
#   ../shared/tools/gpu-pack build --release --features cuda --example 03-jacobi
# The report goes to $OUT/acc-nsys where OUT names a folder to bring back, else /tmp/acc-nsys.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.gpu/bin/example-03-jacobi}
[ $# -gt 0 ] && shift
[ -x "$bin" ] || { echo "gpu-nsys: no executable $bin (pack it first, see the script's head)" >&2; exit 2; }
nsys=$(command -v nsys || ls -d /opt/nvidia/nsight-systems*/*/bin/nsys /opt/nvidia/nsight-systems*/bin/nsys /usr/local/cuda/bin/nsys 2>/dev/null | tail -n 1)
[ -n "$nsys" ] && [ -x "$nsys" ] || { echo "gpu-nsys: nsys not found" >&2; exit 2; }
"$nsys" --version | sed 's/^/# /'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# gpu: /'
out=${OUT:-/tmp}/acc-nsys
mkdir -p "$out"
rep="$out/$(basename "$bin")"
export ACC_DEVICE_TYPE=nvidia RUST_BACKTRACE=1
echo "# === $bin $*"
# No CPU sampling or context switches: they need perf events, which containers often refuse.
"$nsys" profile --trace=cuda,nvtx --sample=none --cpuctxsw=none --force-overwrite=true -o "$rep" "$bin" "$@" || { echo "# nsys profile FAILED"; exit 1; }
# Report names of nsys 2023.2 and later; older ones spell them `nvtxsum`, `gpukernsum`.
reports=$("$nsys" stats --help-reports 2>/dev/null)
pick() { for r in "$@"; do grep -qw "$r" <<< "$reports" && { echo "$r"; return; }; done; echo "$1"; }
nvtx=$(pick nvtx_sum nvtxsum)
kern=$(pick cuda_gpu_kern_sum gpukernsum)
stats="$out/stats.txt"
args=(--report "$nvtx" --report "$kern")
grep -qw nvtx_kern_sum <<< "$reports" && args+=(--report nvtx_kern_sum)
"$nsys" stats --force-export=true "${args[@]}" "$rep.nsys-rep" | tee "$stats"
status=0
for want in "acc region" "acc upload"; do
  n=$(grep -c "$want" "$stats")
  echo "# ranges named '$want...': $n row(s)"
  [ "$n" -gt 0 ] || status=1
done
exit $status
