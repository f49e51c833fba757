#!/usr/bin/env bash
# Rebuild times after editing one loop body, in release: the bench of issue 10 item 4.
#
#   bash scripts/rebuild-bench.sh            # everything (about 10 minutes on 2 cores, warm)
#   REPEAT=5 bash scripts/rebuild-bench.sh   # more runs per row (the median is printed)
#   ROWS="scratch-host scratch-cuda" bash scripts/rebuild-bench.sh
#   ACC_ROOT=/path/to/other/acc bash scripts/rebuild-bench.sh   # another checkout (before/after)
#
# Rows:
#   scratch-host   a generated crate of 50 small regions (target/rebuild-bench/scratch, acc and
#                  acc-build by path), `cargo build --release`: one region's loop body edited,
#                  the rebuild timed
#   scratch-cuda   the same with `--features cuda` (the PTX and the binary)
#   scratch-cuda-bo  scratch-cuda with `[profile.release.build-override] opt-level = 3` in the
#                  crate's manifest (acc's macros and acc-build run optimised); not a default row
#   package-host   acc's own examples, `cargo build --release -p acc-examples --examples`, a
#                  loop body of examples/examples/03-jacobi.rs edited (the file is restored at
#                  the end)
#   package-cuda   the same with `--features cuda` (acc-build scans the examples' package;
#                  with ACC_ROOT at a checkout without that package, the `acc` package: its
#                  tests, examples and benches)
#
# Each edit writes a literal never used before, so no cache can hold the result. Each row is
# built once untimed first (warm), then edited and rebuilt REPEAT times; the table shows the
# median and every run. Builds of other jobs on the machine skew the figures: the load
# (`uptime`) is printed before and after.
set -euo pipefail
cd "${ACC_ROOT:-$(dirname "$0")/..}"
ROOT=$PWD
REPEAT=${REPEAT:-3}
ROWS=${ROWS:-scratch-host scratch-cuda package-host package-cuda}
REGIONS=${REGIONS:-50}
BENCH=${BENCH_DIR:-$ROOT/target/rebuild-bench}
SCRATCH=$BENCH/scratch
LOG=$BENCH/log
mkdir -p "$BENCH"
: > "$LOG"

# --- the scratch crate: REGIONS regions in one file, three shapes -----------------------
write_scratch() { # [extra manifest text]
  mkdir -p "$SCRATCH/src"
  cat > "$SCRATCH/Cargo.toml" <<EOF
[package]
name = "rebuild-bench"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
acc = { path = "$ROOT" }

[build-dependencies]
acc-build = { path = "$ROOT/acc-build" }

[features]
cuda = ["acc/cuda"]

[workspace]
${1:-}
EOF
  echo 'fn main() { acc_build::compile_kernels(); }' > "$SCRATCH/build.rs"
  [ -f "$SCRATCH/Cargo.lock" ] || cp "$ROOT/Cargo.lock" "$SCRATCH/Cargo.lock"
  python3 - "$REGIONS" > "$SCRATCH/src/main.rs.new" <<'EOF'
import sys
n = int(sys.argv[1])
out = ["//! Written by scripts/rebuild-bench.sh: regions to edit and rebuild.", ""]
calls = []
for r in range(n):
    k = f"{r}.0"
    if r % 3 == 0:
        out += [
            f"#[acc::parallel(copyin(a), copy(b))]",
            f"pub fn r{r}(a: &[f32], b: &mut [f32], s: f32) {{",
            f"    #[acc::r#loop(gang, vector)]",
            f"    for i in 0..b.len() {{",
            f"        b[i] = b[i] * s + a[i] * {k} /*EDIT{r}*/;",
            f"    }}",
            f"}}",
            "",
        ]
        calls.append(f"    r{r}(&a32, &mut b32, 0.5);")
    elif r % 3 == 1:
        out += [
            f"#[acc::parallel(copyin(a, b))]",
            f"pub fn r{r}(a: &[f64], b: &[f64]) -> f64 {{",
            f"    let mut s = 0.0;",
            f"    #[acc::r#loop(gang, vector, reduction(+: s))]",
            f"    for i in 0..a.len() {{",
            f"        s += a[i] * b[i] + {k} /*EDIT{r}*/;",
            f"    }}",
            f"    s",
            f"}}",
            "",
        ]
        calls.append(f"    sum += r{r}(&a64, &b64);")
    else:
        out += [
            f"#[acc::parallel(copyin(a), copyout(c))]",
            f"pub fn r{r}(a: &[f64], c: &mut [f64], n: usize, m: usize) {{",
            f"    #[acc::r#loop(gang)]",
            f"    for j in 0..n {{",
            f"        #[acc::r#loop(vector)]",
            f"        for i in 0..m {{",
            f"            c[j * m + i] = a[j * m + i] * {k} /*EDIT{r}*/ + a[i];",
            f"        }}",
            f"    }}",
            f"}}",
            "",
        ]
        calls.append(f"    r{r}(&a64, &mut c64, 32, 32);")
out += [
    "fn main() {",
    "    let a32 = vec![1.0f32; 1024];",
    "    let mut b32 = vec![1.0f32; 1024];",
    "    let (a64, b64) = (vec![1.0f64; 1024], vec![2.0f64; 1024]);",
    "    let mut c64 = vec![0.0f64; 1024];",
    "    let mut sum = 0.0f64;",
] + calls + [
    '    println!("{sum} {} {}", b32[0], c64[5]);',
    "}",
]
print("\n".join(out))
EOF
  # Only a changed file is written (keeps the warm build warm).
  if cmp -s "$SCRATCH/src/main.rs.new" "$SCRATCH/src/main.rs"; then rm "$SCRATCH/src/main.rs.new"; else mv "$SCRATCH/src/main.rs.new" "$SCRATCH/src/main.rs"; fi
}

# A literal never used before: the edit always changes the kernel.
fresh() { echo "$(date +%s%N | tail -c 10 | sed 's/^0*//').5"; }

# --- timing -------------------------------------------------------------------------------
now() { date +%s.%N; }
declare -A MEDIAN RUNS
time_build() { # name, edit command, build command...
  local name=$1 edit=$2; shift 2
  echo "== $name: warm build" | tee -a "$LOG"
  "$@" >> "$LOG" 2>&1 || { echo "warm build of $name failed, see $LOG"; tail -30 "$LOG"; exit 1; }
  local ts=()
  for i in $(seq "$REPEAT"); do
    eval "$edit"
    local t0 t1
    t0=$(now)
    "$@" >> "$LOG" 2>&1 || { echo "build of $name failed, see $LOG"; tail -30 "$LOG"; exit 1; }
    t1=$(now)
    ts+=("$(echo "$t1 - $t0" | bc -l | xargs printf '%.1f')")
    echo "   run $i: ${ts[-1]} s" | tee -a "$LOG"
  done
  RUNS[$name]="${ts[*]}"
  MEDIAN[$name]=$(printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
}

edit_scratch() { # region r: its literal becomes a fresh one
  local r=$1
  sed -i -E "s#[0-9.]+ /\\*EDIT$r\\*/#$(fresh) /*EDIT$r*/#" "$SCRATCH/src/main.rs"
}

# The examples' package (a checkout without it: the `acc` package's examples/).
JACOBI=examples/examples/03-jacobi.rs; EXAMPLES=(-p acc-examples)
[ -f "$JACOBI" ] || { JACOBI=examples/03-jacobi.rs; EXAMPLES=(); }
restore_jacobi() { [ -f "$BENCH/03-jacobi.rs.orig" ] && cp "$BENCH/03-jacobi.rs.orig" "$ROOT/$JACOBI" && rm "$BENCH/03-jacobi.rs.orig"; true; }
edit_jacobi() { # the copy loop's body: `a[..] = anew[..] + 0.0 * <fresh>;`
  [ -f "$BENCH/03-jacobi.rs.orig" ] || cp "$ROOT/$JACOBI" "$BENCH/03-jacobi.rs.orig"
  sed -E "s#^( *a\\[j \\* m \\+ i\\] = anew\\[j \\* m \\+ i\\]).*;#\\1 + 0.0 * $(fresh);#" "$BENCH/03-jacobi.rs.orig" > "$ROOT/$JACOBI"
  grep -q '+ 0.0 \*' "$ROOT/$JACOBI" || { echo "edit of $JACOBI found no line"; exit 1; }
}
trap restore_jacobi EXIT

echo "load before: $(uptime)"
LOAD_BEFORE=$(uptime | sed 's/.*load average: //')
for row in $ROWS; do
  case $row in
    scratch-host|scratch-cuda|scratch-cuda-bo)
      SCRATCH=$BENCH/$row
      extra=; [ "$row" = scratch-cuda-bo ] && extra=$'[profile.release.build-override]\nopt-level = 3'
      write_scratch "$extra"
      feat=(); [ "$row" != scratch-host ] && feat=(--features cuda)
      mid=$((REGIONS / 2))
      time_build "$row" "edit_scratch $mid" \
        cargo build --release --manifest-path "$SCRATCH/Cargo.toml" --target-dir "$BENCH/target" "${feat[@]}" ;;
    package-host)
      time_build "$row" edit_jacobi cargo build --release "${EXAMPLES[@]}" --examples --target-dir "$BENCH/target" ;;
    package-cuda)
      time_build "$row" edit_jacobi cargo build --release "${EXAMPLES[@]}" --examples --features cuda --target-dir "$BENCH/target" ;;
    *) echo "unknown row $row"; exit 1 ;;
  esac
done
restore_jacobi
LOAD_AFTER=$(uptime | sed 's/.*load average: //')

echo
echo "Rebuild after editing one loop body, release, $(nproc) cores ($(uname -m)), $REPEAT runs, acc at $ROOT ($(git -C "$ROOT" log -1 --format=%h 2>/dev/null || echo '?'))"
echo "load average before: $LOAD_BEFORE; after: $LOAD_AFTER"
printf '%-14s %10s   %s\n' row "median (s)" "runs (s)"
for row in $ROWS; do
  printf '%-14s %10s   %s\n' "$row" "${MEDIAN[$row]}" "${RUNS[$row]}"
done
