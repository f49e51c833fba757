#!/usr/bin/env bash
cd "$(dirname "$0")/.." || exit 2
o=${OUT:-/tmp/o}; mkdir -p $o /tmp/t
tar -xJf .gpu-exp/t.tar.xz -C /tmp/t
nvidia-smi --query-gpu=name --format=csv,noheader
export ACC_DEVICE_TYPE=nvidia
for t in ptx_facts semantics_chunks semantics_loops semantics_nested_reductions semantics_reductions; do
  ACC_NOTIFY=1 /tmp/t/$t --nocapture > /tmp/$t.log 2>&1; rc=$?
  echo "$t rc=$rc gpu=$(grep -c 'on nvidia' /tmp/$t.log) host=$(grep -c 'on host' /tmp/$t.log) :: $(grep 'test result' /tmp/$t.log)"
done 2>&1 | tee $o/tests.txt
ACC_PAPERS_STREAM_N=0 /tmp/t/papers_old > $o/papers_old.log 2>&1
ACC_PAPERS_STREAM_N=0 /tmp/t/papers > $o/papers_new.log 2>&1
/tmp/t/gpu_old streaming reductions nest > $o/gpu_old.log 2>&1
/tmp/t/gpu streaming reductions nest > $o/gpu_new.log 2>&1
echo "papers cell old new"
paste <(grep "^acc" $o/papers_old.log | grep -v stream | awk '{print $2"_"$3"_"$4, $NF}') <(grep "^acc" $o/papers_new.log | grep -v stream | awk '{print $NF}')
echo "gpu case old new (GB/s)"
paste <(grep "^acc" $o/gpu_old.log | awk '{print $2, $4}') <(grep "^acc" $o/gpu_new.log | awk '{print $4}')
grep -h "RESULT\|launches\|FAIL\|wrong" $o/papers_new.log $o/gpu_new.log
