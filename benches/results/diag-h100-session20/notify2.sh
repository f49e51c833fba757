#!/usr/bin/env bash
cd "$(dirname "$0")/.." || exit 2
export ACC_DEVICE_TYPE=nvidia
for b in stencils gpu; do xz -dc .gpu-exp/t/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
nvcc -O3 -arch=native -fmad=false -std=c++17 -o /tmp/nv-stencils benches/cuda/stencils.cu || exit 3
nvcc -O3 -arch=native -o /tmp/nv-launch benches/cuda/launch.cu || exit 3
/tmp/nv-stencils | grep "^nvcc.*wave3d"
for r in 1 2; do
  echo "--- NOTIFY=1 (one write a line)"; ACC_NOTIFY=1 /tmp/stencils 2>/tmp/err | grep "^acc  wave\|^# launches"; echo "notify lines: gpu $(grep -c 'on nvidia' /tmp/err) host $(grep -c 'on host' /tmp/err)"
  echo "--- no notify"; /tmp/stencils 2>/tmp/err | grep "^acc  wave\|^# launches"
done
/tmp/nv-launch | grep inc1024
/tmp/gpu 2>&1 | grep -i "launch"
ACC_NOTIFY=1 /tmp/gpu 2>/dev/null | grep -i "launch"
/tmp/nv-launch | grep inc1024
