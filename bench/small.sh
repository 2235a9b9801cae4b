#!/usr/bin/env bash
# Whole-process timings of `blades build` where a designer works: the built-in pool and a
# 3,000-card synthetic pool (medians of repeated runs; hyperfine when installed, else a loop).
#   bench/small.sh [RUNS=20]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
cargo build --release --quiet --bin blades --example synth
bin=target/release/blades
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
target/release/examples/synth --cards 3000 --out "$work/pool3000" 2>/dev/null
for name in builtin pool3000; do
  args=(build --no-cache --out "$work/out-$name.json")
  [ "$name" = builtin ] || args=(--cards "$work/$name" "${args[@]}")
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --warmup 2 --runs "$runs" -N "$bin ${args[*]}"
  else
    python3 - "$runs" "$name" "$bin" "${args[@]}" <<'PY'
import statistics, subprocess, sys, time
runs, name, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
times = []
for _ in range(runs):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times.append(time.perf_counter() - t)
print(f"build {name}: median {statistics.median(times)*1000:.1f} ms (min {min(times)*1000:.1f}, max {max(times)*1000:.1f}) over {runs} runs")
PY
  fi
done
