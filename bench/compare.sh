#!/usr/bin/env bash
# Whole-process timings of `blades build` on a large synthetic pool, side by side with
# (a) the floor: the same YAML parser alone on the same files (examples/yaml_floor.rs): its
#     events alone, and the spanned document tree the build parses each file into, and
# (b) peers: ajv-cli (Node) and check-jsonschema (Python) validating the same files against
#     schema/set.schema.json, installed here into a scratch folder (never needed by tests or CI).
# Prints medians and ratios and writes them to bench/RESULTS.md.
#
# usage: bench/compare.sh [CARDS=100000] [RUNS=5]   (env: SKIP_PEERS=1, PEER_RUNS=3, SLOW_PEER_RUNS=1)
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${1:-100000}
runs=${2:-5}
peer_runs=${PEER_RUNS:-3}
slow_peer_runs=${SLOW_PEER_RUNS:-1}
scratch=target/bench-scratch
mkdir -p "$scratch"

cargo build --release --quiet --bin blades --example synth --example yaml_floor
blades=target/release/blades
pool="$scratch/pool-$cards"
if [ ! -d "$pool" ]; then
  target/release/examples/synth --cards "$cards" --out "$pool"
fi
files=$(find "$pool" -name '*.yaml' | wc -l)
bytes=$(du -sb "$pool" | cut -f1)

# measure NAME RUNS COMMAND... (bench/common.sh)
source bench/common.sh

maxrss_mb() {
  python3 -c 'import resource,subprocess,sys; subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss//1024)' "$@"
}

echo "pool: $cards cards, $files files, $((bytes / 1000000)) MB"
measure "yaml floor (saphyr events)" "$runs" target/release/examples/yaml_floor "$pool"
measure "yaml floor (spanned tree)" "$runs" target/release/examples/yaml_floor "$pool" --tree
rm -rf "$scratch/cache-out"
measure "blades build (full)" "$runs" "$blades" --cards "$pool" build --no-cache --out "$scratch/out.json"
measure "blades build (schema only)" "$runs" "$blades" --cards "$pool" build --schema-only
rss=$(maxrss_mb "$blades" --cards "$pool" build --no-cache --out "$scratch/out.json")

# The first build of a pool, as a designer runs it: with the cache, which it writes
# (the output folder is emptied before each run, untimed).
clear_out() { rm -rf "$scratch/cache-out"; sync; }
BEFORE=clear_out measure "blades build (cold, cache)" "$runs" "$blades" --cards "$pool" build --out "$scratch/cache-out/cards.json"
# A one-file edit with a warm cache.
"$blades" --cards "$pool" build --out "$scratch/cache-out/cards.json" >/dev/null 2>&1 || true
edit_file=$(find "$pool" -name '*.yaml' -not -path '*/locales/*' | sort | sed -n 1p)
toggle_edit() { sed -i 's/Generated card number/Generated card no./; t; s/Generated card no./Generated card number/' "$edit_file"; }
BEFORE=toggle_edit measure "blades build (1-file edit)" "$runs" "$blades" --cards "$pool" build --out "$scratch/cache-out/cards.json"
# An even number of edits leaves the pool as generated.
if (( runs % 2 )); then toggle_edit; fi
# The same edit after the disk has settled (a designer's pause): the
# previous database has been written out by then, so deleting it frees
# blocks (with the `discard` mount option, synchronously) instead of
# dropping pages that never reached the disk.
toggle_edit_settled() { toggle_edit; sync; }
BEFORE=toggle_edit_settled measure "blades build (1-file edit, settled)" "$runs" "$blades" --cards "$pool" build --out "$scratch/cache-out/cards.json"
if (( runs % 2 )); then toggle_edit; fi

if [ -z "${SKIP_PEERS:-}" ]; then
  if [ ! -x "$scratch/npm/node_modules/.bin/ajv" ]; then
    npm install --silent --prefix "$scratch/npm" ajv-cli@5 >/dev/null
  fi
  if [ ! -x "$scratch/venv/bin/check-jsonschema" ]; then
    python3 -m venv "$scratch/venv" && "$scratch/venv/bin/pip" install --quiet check-jsonschema
  fi
  measure "ajv-cli (schema only)" "$peer_runs" "$scratch/npm/node_modules/.bin/ajv" validate --spec=draft2020 --strict=false --validate-formats=false -s schema/set.schema.json -d "$pool/*.yaml"
  measure "check-jsonschema" "$slow_peer_runs" "$scratch/venv/bin/check-jsonschema" --disable-formats '*' --schemafile schema/set.schema.json "$pool"/*.yaml
fi

ratio() { printf '%.3f' "$(echo "${median[$1]} / ${median[$2]}" | bc -l)"; }
{
  echo "# Benchmark results"
  echo
  echo "Run by \`bench/compare.sh $cards $runs\` on $(date -u +%Y-%m-%d), $(nproc) cores,"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), shared machine (medians; expect noise)."
  echo
  echo "Pool: $cards synthetic cards in $files files ($((bytes / 1000000)) MB), from \`examples/synth\`."
  echo
  echo "| what | median (s) |"
  echo "|---|---|"
  for k in "yaml floor (saphyr events)" "yaml floor (spanned tree)" "blades build (full)" "blades build (schema only)" "blades build (cold, cache)" "blades build (1-file edit)" "blades build (1-file edit, settled)" "ajv-cli (schema only)" "check-jsonschema"; do
    [ -n "${median[$k]:-}" ] && printf '| %s | %.3f |\n' "$k" "${median[$k]}"
  done
  echo
  echo "- full build / YAML floor (spanned tree): $(ratio 'blades build (full)' 'yaml floor (spanned tree)')× (target ≤ 2)"
  echo "- full build / YAML floor (events alone): $(ratio 'blades build (full)' 'yaml floor (saphyr events)')× (a lower bound no YAML load reaches)"
  echo "- one-file edit / full build: $(ratio 'blades build (1-file edit)' 'blades build (full)')× (target < 0.10)"
  echo "- one-file edit / first build with the cache: $(ratio 'blades build (1-file edit)' 'blades build (cold, cache)')×"
  echo "- one-file edit after the disk settles / full build: $(ratio 'blades build (1-file edit, settled)' 'blades build (full)')×"
  if [ -n "${median[ajv-cli (schema only)]:-}" ]; then
    echo "- ajv-cli / blades schema-only: $(ratio 'ajv-cli (schema only)' 'blades build (schema only)')× (target ≥ 2.5)"
    echo "- check-jsonschema / blades schema-only: $(ratio 'check-jsonschema' 'blades build (schema only)')×"
  fi
  echo "- peak memory of the full build: ${rss} MB (target < 1024)"
} > bench/RESULTS.md
cat bench/RESULTS.md
