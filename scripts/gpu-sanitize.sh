#!/usr/bin/env bash
# The whole suite under compute-sanitizer on the GPU machine: every test of every packed test
# binary, and every packed example, under memcheck, racecheck, synccheck and initcheck. Prints a
# table of error counts per binary and tool (and how many tests each job covered), then the
# totals. A sanitizer run is 10-100x slower than a plain one, so each binary's tests are split
# into shards of SHARD tests (default 10) run side by side, JOBS at once (default: 2 per CPU
# core, at most 24), spread over the GPUs; each job stops after JOB_TIMEOUT seconds (default
# 300), and a job that timed out is counted and named, never taken as clean. DEADLINE=<seconds>
# bounds the whole sweep (default none): jobs that would start after it are counted as not run,
# and a job's limit never passes it.
#
# Here (with Rust), from the repository root, pack as for scripts/gpu-suite.sh:
#   rm -rf .gpu && ../shared/tools/gpu-pack test --release -p acc-suite --features cuda --tests --no-run
#   ../shared/tools/gpu-pack build --release -p acc-examples --features cuda --examples
#   tar -cJf .gpu/bins.tar.xz -C .gpu/bin . && rm -rf .gpu/bin && cp scripts/gpu-sanitize.sh .gpu/
# then, with .gpu/ copied to the GPU machine: bash .gpu/gpu-sanitize.sh
# TOOLS="memcheck racecheck" and ONLY="<binary-substring> ..." (one or more) narrow the run.
cd "$(dirname "$0")" || exit 2
if [ -f bins.tar.xz ] && [ ! -d bin ]; then mkdir -p bin && tar -xJf bins.tar.xz -C bin; fi
rm -f bin/test-ui-*   # trybuild needs cargo
cd bin || exit 2
chmod +x ./*
# ACC_CUDA_POOL=0: freed device memory goes back to the driver, so a use after a free is caught.
export ACC_DEVICE_TYPE=nvidia RUST_BACKTRACE=1 ACC_CUDA_POOL=0
tools=${TOOLS:-memcheck racecheck synccheck initcheck}
shard=${SHARD:-10}
ngpu=$(nvidia-smi --list-gpus | wc -l)
jobs=${JOBS:-$(( $(nproc) * 2 > 24 ? 24 : $(nproc) * 2 ))}
job_timeout=${JOB_TIMEOUT:-300}
deadline=$(( $(date +%s) + ${DEADLINE:-1000000} ))
work=/tmp/sanitize; rm -rf "$work"; mkdir -p "$work"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
compute-sanitizer --version | tail -1

# One line per job: binary, tool, shard number, the file listing its tests ('-' for a program).
n=0
pats=(*); if [ -n "${ONLY:-}" ]; then pats=(); for o in $ONLY; do pats+=(*"$o"*); done; fi
for b in $(printf '%s\n' "${pats[@]}" | sort -u); do
  [ -x "$b" ] || continue
  case "$b" in
    test-*)
      ./"$b" --list --format terse 2>/dev/null | sed -n 's/: test$//p' > "$work/$b.tests"
      [ -s "$work/$b.tests" ] || continue
      split -l "$shard" -d -a 3 "$work/$b.tests" "$work/$b.shard."
      for s in "$work/$b".shard.*; do for t in $tools; do echo "$b $t ${s##*.} $s $n"; n=$((n+1)); done; done ;;
    *) for t in $tools; do echo "$b $t 000 - $n"; n=$((n+1)); done ;;
  esac
done > "$work/jobs"
echo "$(wc -l < "$work/jobs") jobs, $jobs at once on $ngpu GPU(s), shards of $shard tests, ${job_timeout}s each"

run_job() {  # binary tool shard list index
  local b=$1 t=$2 s=$3 list=$4 i=$5 log="$work/$1.$2.$3.log" args=() left
  left=$(( deadline - $(date +%s) ))
  if [ "$left" -lt 20 ]; then echo "rc=notrun" > "$log"; return; fi
  [ "$list" = - ] || { mapfile -t names < "$list"; args=(--test-threads=1 --exact "${names[@]}"); }
  CUDA_VISIBLE_DEVICES=$(( i % ngpu )) timeout "$(( left < job_timeout ? left : job_timeout ))" \
    compute-sanitizer --tool "$t" --print-limit 10 --error-exitcode 99 ./"$b" "${args[@]}" > "$log" 2>&1
  echo "rc=$?" >> "$log"
}
export -f run_job; export work ngpu job_timeout deadline
xargs -P "$jobs" -L 1 bash -c 'run_job "$@"' _ < "$work/jobs"

# Per binary and tool: errors (the sanitizer's summary), tests run, jobs timed out or failed.
python3 - "$work" $tools <<'PY'
import collections, glob, os, re, sys
work, tools = sys.argv[1], sys.argv[2:]
rows = collections.defaultdict(lambda: {t: [0] * 8 for t in tools})  # errors, tests, jobs, timeouts, failed, not run, no CUDA, traps
for log in sorted(glob.glob(os.path.join(work, "*.log"))):
    b, t, _s, _ = os.path.basename(log).rsplit(".", 3)
    text = open(log, errors="replace").read()
    cell = rows[b][t]
    cell[2] += 1
    if "rc=notrun" in text:
        cell[5] += 1
        continue
    rc = int(re.findall(r"rc=(\d+)\s*$", text, re.M)[-1])
    if "terminated before first instrumented API call" in text and rc == 255 and re.search(r"test result: ok", text):
        cell[6] += 1  # no CUDA call at all (PTX facts read files): nothing to check
        cell[1] += sum(int(x) for x in re.findall(r"test result: \w+\. (\d+) passed", text))
        continue
    m = re.search(r"ERROR SUMMARY: (\d+) error", text) or re.search(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) error", text)
    # A trap (a kernel of a module without acc's panic record) fails the launch: both are the
    # deliberate outcome of the kernel-panic tests, counted apart, never as clean or as errors.
    traps = text.count("Trace/breakpoint trap")
    traps += len(re.findall(r"CUDA_ERROR_LAUNCH_FAILED", text)) if traps else 0
    cell[7] += traps
    errors = (int(m.group(1)) if m else 0) - traps
    if m and errors == 0 and rc == 99: rc = 0
    m = m if errors > 0 else None
    cell[0] += max(errors, 0)
    cell[1] += sum(int(x) for x in re.findall(r"test result: \w+\. (\d+) passed", text))
    if rc == 124: cell[3] += 1; print(f"TIMEOUT {os.path.basename(log)}")
    elif rc != 0 and not (m and int(m.group(1)) > 0):
        cell[4] += 1; print(f"FAILED rc={rc} {os.path.basename(log)}")
        print("\n".join([l for l in text.splitlines() if "panicked" in l or l.startswith("acc:")][:6]))
    if m and int(m.group(1)) > 0:
        print(f"ERRORS {os.path.basename(log)}:")
        print("\n".join(l for l in text.splitlines() if l.startswith("=========") and ("Invalid" in l or "Race" in l or "Uninitialized" in l or "Barrier" in l or "at " in l))[:3000])
print()
print("| binary | " + " | ".join(tools) + " |")
print("| --- |" + " ---: |" * len(tools))
tot = {t: [0] * 8 for t in tools}
for b in sorted(rows):
    cells = []
    for t in tools:
        e, n, j, to, f, nr, nocuda, traps = rows[b][t]
        for k, v in enumerate(rows[b][t]): tot[t][k] += v
        extra = (f", {to} timed out" if to else "") + (f", {f} failed" if f else "") + (f", {nr}/{j} jobs not run" if nr else "") + (", no CUDA calls" if nocuda else "") + (f", {traps} deliberate traps" if traps else "")
        cells.append(f"{e} ({n} tests{extra})" if b.startswith("test-") else f"{e}{extra}")
    print(f"| {re.sub(r'-[0-9a-f]{16}$', '', b)} | " + " | ".join(cells) + " |")
print("| total | " + " | ".join(f"{tot[t][0]} errors, {tot[t][1]} tests, {tot[t][3]} timed out, {tot[t][4]} failed, {tot[t][5]} jobs not run" for t in tools) + " |")
bad = any(tot[t][0] or tot[t][3] or tot[t][4] or tot[t][5] for t in tools)
sys.exit(1 if bad else 0)
PY
