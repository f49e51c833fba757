#!/usr/bin/env bash
cd "$(dirname "$0")/.." || exit 2
o=${OUT:-/tmp/o}; mkdir -p $o /tmp/t
tar -xJf .gpu-exp/t.tar.xz -C /tmp/t
nvidia-smi --query-gpu=name --format=csv,noheader
export ACC_DEVICE_TYPE=nvidia ACC_PAPERS_STREAM_N=0
/tmp/t/papers_old > $o/old.log 2>&1
/tmp/t/papers_B > $o/B0.log 2>&1
ACC_EXP_JIT_BLOCK=1 /tmp/t/papers_B > $o/B1.log 2>&1
/tmp/t/papers_A > $o/A0.log 2>&1
ACC_EXP_JIT_BLOCK=1 /tmp/t/papers_A > $o/A1.log 2>&1
/tmp/t/papers_old > $o/old2.log 2>&1
echo "cell | old | B (old codegen) | B + jit | A (hoist) | A + jit | old again"
paste <(grep "^acc" $o/old.log | grep -v stream | awk '{print $2"_"$3"_"$4}') <(grep "^acc" $o/old.log | grep -v stream | awk '{print $NF}') <(grep "^acc" $o/B0.log | grep -v stream | awk '{print $NF}') <(grep "^acc" $o/B1.log | grep -v stream | awk '{print $NF}') <(grep "^acc" $o/A0.log | grep -v stream | awk '{print $NF}') <(grep "^acc" $o/A1.log | grep -v stream | awk '{print $NF}') <(grep "^acc" $o/old2.log | grep -v stream | awk '{print $NF}')
grep -h "RESULT" $o/*.log
