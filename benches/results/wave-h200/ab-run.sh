#!/usr/bin/env bash
# A/B: unchecked indices `b +/- o` split (the element's address moved from &x[b]) or whole.
cd "$(dirname "$0")" || exit 2
tar -xJf ab.tar.xz && chmod +x cache1d-* stencils-*
export ACC_DEVICE_TYPE=nvidia
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O3 -arch=native -fmad=false -std=c++17 -o /tmp/st ../../benches/cuda/stencils.cu && /tmp/st | grep -v checksum
nvcc -O3 -arch=native -fmad=false -std=c++17 -o /tmp/c1 ../../benches/cuda/cache1d.cu && /tmp/c1 | grep -v checksum
for r in 1 2; do for v in split whole; do
  echo "## $v round $r"; ./stencils-$v | grep -E "^acc|launches"; ./cache1d-$v | grep -E "^acc|launches"
done; done
