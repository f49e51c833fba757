#!/usr/bin/env bash
# Issue 14's GPU runs in one go on a machine with several GPUs: the strong-scaling
# bench (benches/benches/scaling.rs, a host thread per GPU) and examples/mpi-jacobi under `mpirun`,
# one rank per GPU (1, 2, 4 and 8 ranks, up to the machine's GPUs). The GPU machine has
# neither Rust nor MPI: both binaries are built here and Open MPI's run-time (Debian's 4.1.4: mpirun/orted, its plugins and help files, and the
# libraries they load that the machine lacks) travels with them.
#
#   bash scripts/gpu-multi.sh pack        # here: builds and packs .gpu-multi/
#   bash .gpu-multi/run.sh                # on a GPU machine with two or more GPUs
#
# On the GPU machine: SCALING (the bench's "N:ITERS" runs, default "16384:500 32768:200"),
# MPI_RUNS ("N:ITERS" for the MPI example, default "16386:300"), ACC_SCALING_MODES (passed on).
set -uo pipefail

if [ "${1:-}" = pack ]; then
  set -e
  root=$(cd "$(dirname "$0")/.." && pwd)
  cd "$root"
  grep -qx '/.gpu-multi/' .git/info/exclude 2>/dev/null || echo '/.gpu-multi/' >> .git/info/exclude
  rm -rf .gpu-multi && mkdir -p .gpu-multi/bin .gpu-multi/ompi
  exe=$(nice cargo test --release -p acc-benches --features cuda --bench scaling --no-run --message-format=json-render-diagnostics \
    | python3 -c 'import json,sys
for l in sys.stdin:
    try: m = json.loads(l)
    except ValueError: continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "scaling": print(m["executable"])')
  cp "$exe" .gpu-multi/bin/scaling
  nice cargo build --release --features cuda --manifest-path examples/mpi-jacobi/Cargo.toml --target-dir target/gpu-mpi
  cp target/gpu-mpi/release/mpi-jacobi .gpu-multi/bin/mpi-jacobi
  strip --strip-debug .gpu-multi/bin/*
  # Open MPI's run-time, at the paths Debian gives it (the GPU machine has none of them), and
  # the shared libraries it and its plugins load, for the machine to take those it lacks.
  files=(/usr/bin/orterun /usr/bin/orted /usr/bin/mpirun /usr/lib/x86_64-linux-gnu/openmpi
         /usr/share/openmpi /etc/openmpi)
  libs=$( { ldd .gpu-multi/bin/mpi-jacobi /usr/bin/orterun /usr/bin/orted
            find /usr/lib/x86_64-linux-gnu/openmpi -name '*.so*' -type f -exec ldd {} + ; } 2>/dev/null \
          | awk '/=> \// {print $3}' | sort -u | grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64)\.so')
  tar -chf .gpu-multi/ompi/root.tar "${files[@]}" 2>/dev/null || true
  mkdir -p .gpu-multi/ompi/libs
  for l in $libs; do cp -L "$l" .gpu-multi/ompi/libs/; done
  cp scripts/gpu-multi.sh .gpu-multi/run.sh
  XZ_OPT="-T2 -6" tar -cJf .gpu-multi/pack.tar.xz -C .gpu-multi bin ompi
  rm -rf .gpu-multi/bin .gpu-multi/ompi
  du -sh .gpu-multi
  exit 0
fi

# On the GPU machine.
cd "$(dirname "$0")" || exit 2
tar -xJf pack.tar.xz
out=${OUT:-/tmp/gpu-multi-out}; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
nvidia-smi topo -m 2>/dev/null | head -5
# Open MPI: its own tree where Debian puts it; each library only where the machine lacks it.
tar -xf ompi/root.tar -C / --skip-old-files 2>/dev/null
mkdir -p /opt/ompi-libs
for l in ompi/libs/*; do
  b=$(basename "$l")
  ldconfig -p | grep -q "/$b\$" || cp -n "$l" /opt/ompi-libs/
done
export LD_LIBRARY_PATH=/opt/ompi-libs:/usr/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export ACC_DEVICE_TYPE=nvidia
chmod +x bin/*
summary=()
for run in ${SCALING:-16384:500 32768:200}; do
  n=${run%%:*}; it=${run##*:}
  echo "=== scaling N=$n ITERS=$it"
  for barrier in ${BARRIERS:-spin}; do
    ACC_SCALING_BARRIER=$barrier ACC_SCALING_N=$n ACC_SCALING_ITERS=$it timeout 240 ./bin/scaling > "$out/scaling-$n-$barrier.log" 2>&1
    echo "scaling N=$n barrier=$barrier rc=$?" >> "$out/scaling-$n-$barrier.log"
    cat "$out/scaling-$n-$barrier.log"
    summary+=("$(grep -E '^scaling|^phases|rc=|differs|panicked' "$out/scaling-$n-$barrier.log")")
  done
done
mpirun=/usr/bin/orterun
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
rank_counts=$(for r in 1 2 4 8; do [ "$r" -le "$ngpu" ] && echo $r; done)
for ranks in $rank_counts; do
  echo "=== mpi-jacobi 1026 x 1026, 100 iterations, --check, $ranks rank(s)"
  # Each rank's ACC_NOTIFY lines to a file of its own (two ranks' lines interleave on one stream).
  rm -f /tmp/notify.*
  ACC_NOTIFY=1 timeout 120 $mpirun --oversubscribe -x ACC_NOTIFY -x ACC_DEVICE_TYPE -x LD_LIBRARY_PATH -np $ranks \
    sh -c 'exec ./bin/mpi-jacobi 1026 100 --check 2> /tmp/notify.$OMPI_COMM_WORLD_RANK' > "$out/mpi-check-$ranks.log" 2>&1
  rc=$?
  cat "$out/mpi-check-$ranks.log"
  launches=""
  for f in /tmp/notify.*; do
    launches+="rank ${f##*.}: gpu=$(grep -c 'acc: launch .* on nvidia' "$f") ($(grep -o 'acc: launch .* on nvidia [0-9]*' "$f" | awk '{print "gpu" $NF}' | sort | uniq -c | awk '{printf "%s=%s", $2, $1}')) host=$(grep -c 'acc: launch .* on host' "$f"); "
  done
  summary+=("mpi check ranks=$ranks rc=$rc $launches $(grep -E '^mpi-jacobi|checked' "$out/mpi-check-$ranks.log" | tr '\n' ' ')")
done
for run in ${MPI_RUNS:-16386:300}; do
  n=${run%%:*}; it=${run##*:}
  for ranks in $rank_counts; do
    echo "=== mpi-jacobi $n x $n, $it iterations, $ranks rank(s)"
    timeout 200 $mpirun --oversubscribe -x ACC_DEVICE_TYPE -x LD_LIBRARY_PATH -np $ranks ./bin/mpi-jacobi "$n" "$it" > "$out/mpi-$n-$ranks.log" 2>&1
    rc=$?
    tail -5 "$out/mpi-$n-$ranks.log"
    summary+=("mpi N=$n ranks=$ranks rc=$rc $(grep -E '^mpi-jacobi' "$out/mpi-$n-$ranks.log")")
  done
done
echo "===== summary"
printf '%s\n' "${summary[@]}"
