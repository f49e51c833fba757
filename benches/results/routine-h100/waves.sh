#!/usr/bin/env bash
cd "$(dirname "$0")/.." || exit 2
export ACC_DEVICE_TYPE=nvidia
o=${OUT:-/tmp/o}; mkdir -p $o
xz -dc .gpu-exp/x/stencils.xz > /tmp/x-stencils && chmod +x /tmp/x-stencils
nvcc -O3 -arch=native -fmad=false -std=c++17 -o /tmp/nv-stencils benches/cuda/stencils.cu
for rep in 1 2; do
  /tmp/nv-stencils | grep "nvcc wave3d"
  for bz in 0 1; do for w in 1 2 4 8 16 64; do
    ACC_EXP_BZ1=$bz ACC_EXP_WAVES=$w timeout 100 /tmp/x-stencils > $o/x-bz$bz-w$w-r$rep.log 2>&1
    printf "bz1=%s waves=%-3s r%s" $bz $w $rep; for t in wave3d_bare wave3d_gv_gv_gv; do printf " %s" $(grep -h "acc  $t " $o/x-bz$bz-w$w-r$rep.log | awk '{print $3}'); done; echo
  done; done
done
grep -h "max |" $o/x-*.log | grep wave | sort | uniq -c
