#!/usr/bin/env bash
cd "$(dirname "$0")/.." || exit 2
export ACC_DEVICE_TYPE=nvidia
for b in stencils stencils-before sched; do xz -dc .gpu-exp/t/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvcc -O3 -arch=native -fmad=false -std=c++17 -o /tmp/nv-stencils benches/cuda/stencils.cu || exit 3
echo "=== semantics_schedules (one test at a time)"
ACC_NOTIFY=1 /tmp/sched --test-threads=1 --nocapture > /tmp/sched.log 2>&1; echo "rc=$?"
grep "test result" /tmp/sched.log; grep -c "on nvidia" /tmp/sched.log; grep -c "one point a thread" /tmp/sched.log; grep -c "on host" /tmp/sched.log
grep "seven_point" /tmp/sched.log | sort | uniq -c
grep -B2 -A12 "panicked" /tmp/sched.log | head -40
for r in 1 2; do
  /tmp/nv-stencils | grep "^nvcc.*wave3d"
  echo "--- before (3b3d5fc)"; /tmp/stencils-before 2>&1 | grep "^acc  wave\|^acc  lap\|^# launches\|max |acc" | grep -v rows
  echo "--- one point a thread"; /tmp/stencils 2>&1 | grep "^acc  wave\|^acc  lap\|^# launches\|max |acc" | grep -v rows
done
