#!/usr/bin/env bash
cd "$(dirname "$0")/.." || exit 2
export ACC_DEVICE_TYPE=nvidia
o=${OUT:-/tmp/o}; mkdir -p $o
nvidia-smi --query-gpu=name --format=csv,noheader
nvcc -O3 -arch=native -lineinfo -o /tmp/pipe .gpu-exp/pipe.cu
xz -dc .gpu-papers/bench-papers.xz > /tmp/papers && chmod +x /tmp/papers
M=gpu__time_duration.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_no_instruction_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,smsp__cycles_active.avg,sm__cycles_elapsed.avg
run() { local tag=$1 k=$2 s=$3; shift 3; timeout 250 ncu --metrics $M -k "regex:$k" -s $s -c 1 --csv "$@" > $o/ncu-$tag.csv 2>$o/ncu-$tag.err || echo "$tag rc=$?"; }
run hand-rounds4 "rounds_k" 1 /tmp/pipe
run hand-warp4 "rounds_warp_k" 1 /tmp/pipe
run hand-bound8 "bound_k" 5 /tmp/pipe
run acc-vector "vector_add_i32" 1 env ACC_PAPERS_STREAM_N=0 ACC_PAPERS_REPS=2 /tmp/papers
python3 - $o <<'P'
import csv, sys, glob, os
o = sys.argv[1]
for f in sorted(glob.glob(o + "/ncu-*.csv")):
    tag = os.path.basename(f)[4:-4]
    lines = [l for l in open(f) if l.startswith('"')]
    if not lines: print(tag, "no data", open(f[:-4] + ".err").read()[-400:]); continue
    d = {}; kn = ""
    for x in csv.DictReader(lines):
        d[x["Metric Name"]] = x["Metric Value"] + " " + x.get("Metric Unit", ""); kn = x["Kernel Name"]
    print("==", tag, kn[:70])
    for k, v in d.items(): print("  ", k, v)
P
