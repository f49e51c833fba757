#!/usr/bin/env bash
# What the lowering writes, for every region of acc's packages and of apps/npb, into one folder,
# so that a change that must not change it (a refactoring of acc-codegen, acc-build or
# acc-device) is checked by `diff -r` of a snapshot before and one after:
#   - expansions/<package>/<file>.txt: the host expansion of each region fn and routine, as the
#     macros write it (acc-codegen's `expansions` example);
#   - <package>/acc-device-crate/: the device crate acc-build writes (the kernels' Rust), and
#     <package>/acc-info.txt: the schedule report with ACC_INFO=all, and
#     <package>/acc_kernels.ptx: the PTX (from a full build where the package's build
#     directory is removed first, FULL=1; else as acc-build's incremental build leaves it).
#
#   bash scripts/lowering-snapshot.sh OUT            # everything (the suite's 1,300 kernels: minutes)
#   PACKAGES="acc-examples acc-benches" bash scripts/lowering-snapshot.sh OUT
#   diff -r OUT-before OUT-after && echo identical
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$(mkdir -p "$1" && cd "$1" && pwd)
packages=${PACKAGES:-"acc-suite acc-examples acc-benches npb"}
dir_of() { case $1 in acc-suite) echo suite ;; acc-examples) echo examples ;; acc-benches) echo benches ;; npb) echo apps/npb ;; esac; }
files_of() { case $1 in
  acc-suite) (cd suite && ls tests/*.rs) ;;
  acc-examples) (cd examples && ls examples/*.rs) ;;
  acc-benches) (cd benches && ls benches/*.rs) ;;
  npb) (cd apps/npb && find src tests -name '*.rs' | sort) ;;
esac; }

cargo build -q -p acc-codegen --example expansions
for p in $packages; do
  d=$(dir_of "$p")
  # shellcheck disable=SC2046
  target/debug/examples/expansions "$out/expansions/$p" "$d" $(files_of "$p")
done

for p in $packages; do
  if [ "$p" = npb ]; then
    tdir=target/npb-check; args=(--manifest-path apps/npb/Cargo.toml --target-dir "$tdir")
  else
    tdir=target; args=(-p "$p")
  fi
  [ "${FULL:-0}" = 1 ] && rm -rf "$tdir"/debug/build/"$p"-*
  ACC_INFO=all cargo check -q --features cuda --all-targets "${args[@]}" 2> "$out/$p.build-log" || {
    echo "lowering-snapshot: the build of $p failed (see $out/$p.build-log)"; exit 1; }
  # The build directory this build used: the one whose report is newest.
  o=$(ls -td "$tdir"/debug/build/"$p"-*/out/acc-info.txt 2>/dev/null | head -1)
  [ -n "$o" ] || { echo "lowering-snapshot: no acc-info.txt for $p"; exit 1; }
  o=$(dirname "$o")
  mkdir -p "$out/$p"
  cp -r "$o/acc-device-crate" "$o/acc-info.txt" "$o/acc_kernels.ptx" "$out/$p/"
  rm -rf "$out/$p/acc-device-crate/target"
done
echo "lowering-snapshot: $(find "$out" -type f | wc -l) files in $out"
