#!/usr/bin/env bash
# Instructions of a whole `blades build` (one thread, no cache) of the same
# synthetic pool, for two binaries: a count that does not depend on how busy
# this shared machine is, unlike wall time. Needs valgrind (cachegrind).
#
# usage: bench/instructions.sh BEFORE_BINARY AFTER_BINARY POOL_DIR
#   POOL_DIR: a pool both binaries build (e.g. a slice of `examples/synth`
#   output written by the older binary's generator).
# Prints each count and the ratio after / before.
set -euo pipefail
before=${1:?usage: instructions.sh BEFORE AFTER POOL}
after=${2:?usage: instructions.sh BEFORE AFTER POOL}
pool=${3:?usage: instructions.sh BEFORE AFTER POOL}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
count() {
  rm -rf "$scratch/pool"
  cp -r "$pool" "$scratch/pool"
  (cd "$scratch/pool" && RAYON_NUM_THREADS=1 valgrind --tool=cachegrind --cache-sim=no \
    --cachegrind-out-file=/dev/null "$1" --cards . build --no-cache --out "$scratch/db.json" 2>&1 >/dev/null) |
    sed -n 's/.*I *refs: *//p' | tr -d ','
}
b=$(count "$before")
a=$(count "$after")
echo "before: $b instructions ($before)"
echo "after:  $a instructions ($after)"
awk -v a="$a" -v b="$b" 'BEGIN { printf "after / before: %.3f\n", a / b }'
