# A/B of the wave step's kernel of one point a thread: old (a test a loop, the slot's store
# kept), slot (a test a loop, the store dropped), new (one test, the store dropped); SASS of
# each kernel, then the stencils bench beside nvcc, two rounds alternating.
set -u
cd "$(dirname "$0")/../.."
export ACC_DEVICE_TYPE=nvidia
for v in old new n32; do
  ptxas -arch=sm_90 -O3 -v .gpu-x/pt/$v.ptx -o /tmp/$v.cubin 2>&1 | tail -2
  cuobjdump -sass /tmp/$v.cubin > $OUT/sass-$v.txt
  echo "=== $v SASS: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $OUT/sass-$v.txt) instructions"
done
for v in old new n32; do xz -dc .gpu-x/pt/stencils-$v.xz > /tmp/st-$v && chmod +x /tmp/st-$v; done
for r in 1 2 3; do
  for v in old new n32; do
    echo "##### round $r: $v"
    bash scripts/gpu-beside-nvcc.sh stencils /tmp/st-$v 2>&1 | grep -E "^(nvcc|acc) .*(wave3d|lap2d_bare)|launches|FAIL|did not"
  done
done 2>&1 | tee $OUT/ab.log
xz -dc .gpu-x/pt/ss.xz > /tmp/ss && chmod +x /tmp/ss
(cd /tmp && ACC_NOTIFY=1 /tmp/ss --nocapture --test-threads=1 > $OUT/ss.log 2>&1; echo "rc=$?" >> $OUT/ss.log)
echo "semantics_schedules: $(grep -c 'acc: launch .* on nvidia' $OUT/ss.log) GPU launches, $(grep -c 'acc: launch .* on host' $OUT/ss.log) host, $(grep -c 'one point a thread' $OUT/ss.log) of one point a thread"; grep -E "^test result|rc=" $OUT/ss.log
