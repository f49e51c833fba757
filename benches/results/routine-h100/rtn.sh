#!/usr/bin/env bash
# A/B: the stencils bench at 3e221e8 (base) and with routine bounds (rtn), nvcc beside; the
# kernel-panic test on the GPU.
cd "$(dirname "$0")/.." || exit 2
export ACC_DEVICE_TYPE=nvidia
o=${OUT:-/tmp/o}; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for v in base rtn; do xz -dc .gpu-exp/$v/stencils.xz > /tmp/$v-stencils && chmod +x /tmp/$v-stencils; done
xz -dc .gpu-exp/rtn/panic.xz > /tmp/panic && chmod +x /tmp/panic
nvcc -O3 -arch=native -fmad=false -std=c++17 -o /tmp/nv-stencils benches/cuda/stencils.cu && /tmp/nv-stencils > $o/nvcc-stencils.log 2>&1
for rep in 1 2; do for v in base rtn; do
  timeout 150 /tmp/$v-stencils > $o/$v-stencils-r$rep.log 2>&1 || echo "$v r$rep rc=$?"
done; done
ACC_NOTIFY=1 timeout 150 /tmp/rtn-stencils > $o/rtn-stencils-notify.log 2>&1
ACC_NOTIFY=1 timeout 150 /tmp/panic --nocapture --test-threads=1 > $o/panic.log 2>&1; echo "panic test rc=$?"
cd $o; grep -h "nvcc lap2d\|nvcc wave3d" nvcc-stencils.log
for t in lap2d_bare lap2d_gv_gv wave3d_bare wave3d_gv_gv_gv wave3d_rows_1d; do
  printf "%-16s" $t; for v in base rtn; do for r in 1 2; do printf " %s" $(grep -h "acc  $t " $v-stencils-r$r.log | awk '{print $3}' | head -1); done; printf " |"; done; echo; done
grep -h "max |" rtn-stencils-r1.log base-stencils-r1.log
grep -h "wave3d" rtn-stencils-notify.log | sort | uniq -c | head
grep -c "indices bounded" panic.log; grep -c "acc: launch\|launch" panic.log
grep -h "spread\|test result\|passed\|FAILED" panic.log | sort | uniq -c | head -20
