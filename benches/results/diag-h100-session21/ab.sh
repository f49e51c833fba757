cd "$(dirname "$0")/.." && nvidia-smi --query-gpu=name --format=csv,noheader
for b in base new; do xz -dc .gpu-exp/t/gpu_$b.xz > /tmp/gpu_$b && chmod +x /tmp/gpu_$b; done
for r in 1 2 3; do for b in base new; do echo "== $b"; /tmp/gpu_$b launch | grep "^#.*launch + sync"; done; done
nvcc -O3 -arch=native -o /tmp/la benches/cuda/launch.cu && /tmp/la spin
nvcc -O3 -arch=native -o /tmp/kern .gpu-exp/kern.cu -lcuda && /tmp/kern 2>&1 | grep -E "cuCtx|nvcc k_inc cuLaunchKernel  "
for r in 1 2; do for b in base new; do echo "== $b"; /tmp/gpu_$b launch | grep "^#.*launch + sync"; done; done
