#!/usr/bin/env bash
cd "$(dirname "$0")/.." || exit 2
export ACC_DEVICE_TYPE=nvidia
o=${OUT:-/tmp/o}; mkdir -p $o /tmp/t
tar -xJf .gpu-exp/t.tar.xz -C /tmp/t ./papers ./papers_old; chmod +x /tmp/t/*
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum
for b in papers papers_old; do
  timeout 200 ncu --metrics $M -k "regex:vector_add_i32" -s 1 -c 1 --csv env ACC_PAPERS_STREAM_N=0 ACC_PAPERS_REPS=2 /tmp/t/$b > $o/ncu-$b.csv 2>$o/ncu-$b.err || echo "$b rc=$?"
  echo "== $b"; grep '^"' $o/ncu-$b.csv | python3 -c "
import csv,sys
for x in csv.DictReader(sys.stdin): print('  ', x['Kernel Name'][:50], x['Metric Name'], x['Metric Value'])"
done
