cd "$(dirname "$0")/.."
ptxas -arch=sm_90 -O3 -v .gpu-x/wave_pt.ptx -o /tmp/acc_wave.cubin 2>&1 | tail -3
cuobjdump -sass /tmp/acc_wave.cubin > /tmp/acc_wave.sass
nvcc -O3 -arch=sm_90 -fmad=false -std=c++17 -cubin -Xptxas -v -o /tmp/nv.cubin benches/cuda/stencils.cu 2>&1 | grep -A1 wave3d | tail -2
cuobjdump -sass -fun '_Z6wave3dPKfS0_Pfi' /tmp/nv.cubin > /tmp/nv_wave.sass
echo "=== acc SASS: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' /tmp/acc_wave.sass) instructions"
grep -E '^\s+/\*[0-9a-f]{4}\*/' /tmp/acc_wave.sass | sed 's|/\* 0x[0-9a-f]* \*/||' 
echo "=== nvcc SASS: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' /tmp/nv_wave.sass) instructions"
grep -E '^\s+/\*[0-9a-f]{4}\*/' /tmp/nv_wave.sass | sed 's|/\* 0x[0-9a-f]* \*/||'
