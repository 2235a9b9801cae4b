#!/usr/bin/env bash
# Whole-process timing of `blades diff` between two large synthetic pools, beside a full
# build of one of them (issue 18: the diff within 2x a full build). The new pool is the old
# one with edits in every 50th set file: some effects changed (functional errata) and some
# flavor texts. Also times the diff of the two built databases. Prints medians and the
# ratios and writes them to bench/DIFF.md.
#
# usage: bench/diff.sh [CARDS=100000] [RUNS=5]
#   env: BLADES=path/to/blades skips the release build and uses that binary (a debug build
#        gives ratios only); SYNTH=path/to/synth likewise for the pool generator.
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${1:-100000}
runs=${2:-5}
source bench/common.sh
old="$PWD/$scratch/pool-$cards"
new="$PWD/$scratch/pool-$cards-next"
if [ ! -d "$old" ]; then
  "$synth" --cards "$cards" --out "$old"
fi
rm -rf "$new"
cp -r "$old" "$new"
# The next release: every 50th set file edited.
find "$new" -maxdepth 1 -name '*.yaml' | sort | awk 'NR % 50 == 0' | while read -r file; do
  sed -i 's/Gain 1 RP/Gain 2 RP/g; s/Generated card number/Generated card no./' "$file"
done
work="$PWD/$scratch/diff-work"
rm -rf "$work"
mkdir -p "$work"

# Each command runs in the scratch work folder.
in_work() { (cd "$work" && "$@"); }

measure "blades build (full)" "$runs" in_work "$blades" --cards "$old" build --no-cache --out "$work/old.json"
(cd "$work" && "$blades" --cards "$new" build --no-cache --out "$work/new.json" >/dev/null 2>&1)
measure "blades diff (two pools)" "$runs" in_work "$blades" diff "$old" "$new" --format json
measure "blades diff (two databases)" "$runs" in_work "$blades" diff "$work/old.json" "$work/new.json" --format json
changed=$(cd "$work" && "$blades" diff "$old" "$new" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"]["changed"])')

ratio() { printf '%.3f' "$(echo "${median[$1]} / ${median[$2]}" | bc -l)"; }
{
  echo "# Diff benchmark"
  echo
  echo "Run by \`bench/diff.sh $cards $runs\` on $(date -u +%Y-%m-%d), $(nproc) cores, binary \`${BLADES:-target/release/blades}\`"
  echo "(medians; shared machine, expect noise)."
  echo
  echo "Pools: $cards synthetic cards from \`examples/synth\`, and a copy with every 50th set file edited ($changed cards changed)."
  echo
  echo "| what | median (s) |"
  echo "|---|---|"
  for k in "blades build (full)" "blades diff (two pools)" "blades diff (two databases)"; do
    printf '| %s | %.3f |\n' "$k" "${median[$k]}"
  done
  echo
  echo "- diff of two pools / full build: $(ratio 'blades diff (two pools)' 'blades build (full)')× (target ≤ 2)"
  echo "- diff of two databases / full build: $(ratio 'blades diff (two databases)' 'blades build (full)')×"
} > bench/DIFF.md
cat bench/DIFF.md
