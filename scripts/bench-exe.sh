#!/usr/bin/env bash
# The path of the CUDA build of bench NAME (benches/benches/NAME.rs), built first where needed, on
# stdout; cargo's messages on stderr. The build sees the caller's environment (an experiment
# switch, see scripts/gpu-ab.sh). Prints nothing where the bench did not build.
#   usage: scripts/bench-exe.sh NAME
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
name=${1:?usage: bench-exe.sh NAME}
cargo bench -p acc-benches --features cuda --bench "$name" --no-run --message-format=json \
  | NAME=$name python3 -c 'import json, os, sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("target", {}).get("name") == os.environ["NAME"] and m.get("executable"):
        print(m["executable"])' | tail -n 1
