#!/usr/bin/env bash
cd "$(dirname "$0")/.." || exit 2
o=${OUT:-/tmp/o}; mkdir -p $o /tmp/t
tar -xJf .gpu-exp/t.tar.xz -C /tmp/t
nvidia-smi --query-gpu=name --format=csv,noheader
export ACC_DEVICE_TYPE=nvidia
for t in ptx_facts semantics_chunks semantics_loops semantics_nested_reductions semantics_reductions; do
  ACC_NOTIFY=1 /tmp/t/$t --nocapture > $o/$t.log 2>&1; rc=$?
  echo "$t rc=$rc gpu=$(grep -c 'on nvidia' $o/$t.log) host=$(grep -c 'on host' $o/$t.log) :: $(grep 'test result' $o/$t.log)"
done 2>&1 | tee $o/tests.txt
for r in 1 2; do
  for b in papers_old papers; do ACC_PAPERS_STREAM_N=0 /tmp/t/$b > $o/$b-$r.log 2>&1; done
done
python3 - $o <<'P'
import sys, re, collections
o = sys.argv[1]
def rows(f, pat):
    d = {}
    for l in open(f):
        m = re.match(pat, l)
        if m: d[m.group(1)] = float(m.group(2))
    return d
print("papers: cell old1 old2 new1 new2 (ms)")
P = {b + str(r): rows(f"{o}/{b}-{r}.log", r"acc (\S+ +\S+ +\S+) +([0-9.]+)$") for b in ("papers_old", "papers") for r in (1, 2)}
for k in P["papers_old1"]:
    v = [P[x].get(k, float('nan')) for x in ("papers_old1", "papers_old2", "papers1", "papers2")]
    print(f"{' '.join(k.split()):28s} " + " ".join(f"{x:7.3f}" for x in v) + f"  new/old {min(v[2:])/min(v[:2]):.3f}")
for f in ("papers-1", "papers-2"):
    print(f, [l.strip() for l in open(f"{o}/{f}.log") if "launches" in l or "FAIL" in l or "RESULT" in l])
P
