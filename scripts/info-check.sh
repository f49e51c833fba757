#!/usr/bin/env bash
# The schedule report at build time (ACC_INFO, acc's -Minfo=accel): builds the four numbered
# examples (the package acc-examples) for the GPU with ACC_INFO=examples/ and checks key lines of their report, as cargo
# prints it (`warning: acc@..: file:line: ..`) and as acc-build writes it ($OUT_DIR/acc-info.txt).
# Needs the pinned nightly (scripts/setup.sh); no GPU.  usage: scripts/info-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The report is printed when acc-build runs: ACC_INFO differing from the last build reruns it.
ACC_INFO=examples/ cargo build --release -p acc-examples --features cuda --examples 2>"$log"
out=$(ACC_INFO=examples/ cargo build --release -p acc-examples --features cuda --examples --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "build-script-executed" and m["package_id"].startswith("path+file://") and "#acc-examples@" in m["package_id"]:
        print(m["out_dir"])')
report="$out/acc-info.txt"
[ -f "$report" ] || { echo "info-check: no $report"; exit 1; }
fails=0
# need FILE:LINE: TEXT: a line of the report that starts with FILE:LINE: and holds TEXT, in the
# file and in cargo's output.
need() {
    local where=$1 text=$2
    if ! grep -F -- "$where" "$report" | grep -qF -- "$text"; then
        echo "info-check: missing in $report: $where .. $text"; fails=$((fails + 1))
    fi
    if ! grep -F -- "warning: acc-examples@" "$log" | grep -F -- "$where" | grep -qF -- "$text"; then
        echo "info-check: missing in cargo's output: $where .. $text"; fails=$((fails + 1))
    fi
}
need examples/01-vadd.rs:4: 'parallel region `vadd`: 1 kernel'
need examples/01-vadd.rs:4: 'data: copyout(c) (if not already present) [clause]'
need examples/01-vadd.rs:7: 'launch: blocks of vector_length(256) threads (threadIdx.x)'
need examples/01-vadd.rs:7: 'loop `i`: gang, vector -> blockIdx.x, threadIdx.x; trip = blockIdx.x * blockDim.x + threadIdx.x, grid-stride by gridDim.x * blockDim.x'
need examples/02-dot.rs:5: 'data: copyin(a) (if not already present) [implicit: a read-only `&[T]` is copied in]'
need examples/02-dot.rs:8: 'reduction(+: s): thread 0 of each block stores the block'
need examples/02-dot.rs:8: 'unrolled in rounds of 8 trips'
need examples/03-jacobi.rs:6: 'data: present(a) (it must be present'
need examples/03-jacobi.rs:10: 'loop `j`: gang -> blockIdx.x; trip = blockIdx.x, grid-stride by gridDim.x'
need examples/03-jacobi.rs:12: 'reduction(max: err): each thread keeps its partial value; combined once at the end of the loop around it'
need examples/03-jacobi.rs:27: 'loop `i`: vector -> threadIdx.x'
need examples/04-matmul.rs:7: 'loop `i`, `j`: gang, worker -> blockIdx.x, threadIdx.y'
need examples/04-matmul.rs:7: 'collapse(2)'
need examples/04-matmul.rs:11: 'reduction(+: s): a private copy per thread'
need examples/04-matmul.rs:14: 'statement writes memory: run by the worker'"'"'s leader (threadIdx.x == 0)'
# Every kernel of the four examples has its resources, from ptxas -v or from the PTX.
kernels=$(grep -cE '^examples/0[1-4][^:]*:[0-9]+:   kernel ' "$report" || true)
resources=$(grep -cE '^examples/0[1-4][^:]*:[0-9]+:     resources \((ptxas -v|PTX declarations)' "$report" || true)
if [ "$kernels" -lt 5 ] || [ "$kernels" != "$resources" ]; then
    echo "info-check: $kernels kernels, $resources resource lines in $report"; fails=$((fails + 1))
fi
if [ "$fails" -ne 0 ]; then
    echo "info-check: $fails failures; the report:"; cat "$report"; exit 1
fi
echo "info-check: the examples' schedule report has its $kernels kernels and the key lines ($report)"
