#!/usr/bin/env bash
# NPB in acc on the GPU machine (no Rust there): runs `npb <bench> <class>` for the benchmarks
# and classes given, on the GPU and on acc's host backend (ACC_DEVICE_TYPE=host) of the same
# machine, and prints a table: seconds and Mop/s of NPB's timed section, NPB's verification,
# and the launches each run made on the GPU and on the host (counted from a second run with
# ACC_NOTIFY=1, one line a launch; the timed run is without it, as its lines cost time).
#
# Here (with Rust), from the repository root, pack the binary and this script:
#   cargo build --release --features cuda --manifest-path apps/npb/Cargo.toml --target-dir target
#   mkdir -p .npb && cp target/release/npb apps/npb/run-gpu.sh .npb/
# then, with .npb copied to the GPU machine:  bash .npb/run-gpu.sh ep cg is mg ft S W A B C
#   bash run-gpu.sh [ep|cg|is|mg|ft|lu|sp|bt]... [S|W|A|B|C|D]...     (default: all eight, S W A B C)
# NPB_HOST=0 leaves out the host backend's runs. With $OUT set, the table and the logs go there.
# NPB_TIMEOUT (s, default 1800) bounds each run.
cd "$(dirname "$0")" || exit 2
bin=${NPB_BIN:-./npb}
benches=(); classes=()
for a in "$@"; do
  case "$a" in
    [SWABCDswabcd]) classes+=("${a^^}") ;;
    *) benches+=("${a,,}") ;;
  esac
done
[ ${#benches[@]} -gt 0 ] || benches=(ep cg is mg ft lu sp bt)
[ ${#classes[@]} -gt 0 ] || classes=(S W A B C)
logs=${OUT:-/tmp}/npb-logs; mkdir -p "$logs"
chmod +x "$bin"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
# NPB's report lines `Name = value` (LU, SP and BT print "Verification being performed" first).
field() { grep -m1 "^ *$1 *=" "$2" | awk -F= '{gsub(/ /, "", $2); print $2}'; }
row() {  # device bench class: "seconds Mop/s verification"
  local log="$logs/$2-$3-$1.log"
  ACC_DEVICE_TYPE=$1 timeout "${NPB_TIMEOUT:-1800}" "$bin" "$2" "$3" > "$log" 2>&1
  echo "$(field 'Time in seconds' "$log") $(field 'Mop/s total' "$log") $(field 'Verification' "$log")"
}
table=${OUT:-/tmp}/npb-table.md
{
  echo "| bench | class | GPU s | GPU Mop/s | GPU verification | GPU launches | host launches | host backend s | host backend Mop/s | host backend verification |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} > "$table"
for b in "${benches[@]}"; do
  for c in "${classes[@]}"; do
    read -r gs gm gv <<< "$(row nvidia "$b" "$c")"
    nl="$logs/$b-$c-notify.log"
    ACC_DEVICE_TYPE=nvidia ACC_NOTIFY=1 timeout "${NPB_TIMEOUT:-1800}" "$bin" "$b" "$c" > "$nl" 2>&1
    gl=$(grep -ci 'acc: launch .* on nvidia' "$nl"); hl=$(grep -c 'acc: launch .* on host' "$nl")
    if [ "${NPB_HOST:-1}" != 0 ]; then read -r hs hm hv <<< "$(row host "$b" "$c")"; else hs=-; hm=-; hv=-; fi
    echo "| ${b^^} | $c | ${gs:--} | ${gm:--} | ${gv:-none} | $gl | $hl | ${hs:--} | ${hm:--} | ${hv:-none} |" | tee -a "$table"
  done
done
echo; cat "$table"
