#!/usr/bin/env bash
# Whole-process timings of the commands that read a pool's database, on a large
# synthetic pool, with the pool unchanged since the last build (its cache in
# dist/ of the folder they run in) and from scratch (no build there), beside a
# cached build that has nothing to do. Prints medians and ratios and writes
# them to bench/COMMANDS.md.
#
# usage: bench/commands.sh [CARDS=100000] [RUNS=5]
# BLADES=path uses that binary and SYNTH=path that generator (no build), to
# time another build of the tool; OUT=file writes the table there instead.
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${1:-100000}
runs=${2:-5}
out=${OUT:-bench/COMMANDS.md}
source bench/common.sh
pool_of "$cards"
built="$PWD/$scratch/commands-built"
fresh="$PWD/$scratch/commands-fresh"
rm -rf "$built" "$fresh"
mkdir -p "$built" "$fresh"
(cd "$built" && "$blades" --cards "$pool" build >/dev/null 2>&1)

# A legal deck of the pool, and one of its card names.
deck="$built/deck.yaml"
"$blades" --cards "$pool" --format json copies list 2>/dev/null | python3 bench/legal-deck.py >"$deck"
card=$(sed -n 2p "$deck" | sed 's/^  - //; s/^"//; s/"$//')
# A collection of the deck's first three singles (legal or not, it is checked).
collection="$built/collection.txt"
sed -n '2,4p' "$deck" | sed 's/^  - //; s/^"//; s/"$//' >"$collection"

declare -A median
measure() {
  local name=$1 dir=$2 n=$3; shift 3
  local times=()
  for _ in $(seq "$n"); do
    local start end
    start=$(date +%s.%N)
    (cd "$dir" && "$@" >/dev/null 2>&1) || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
  done
  median[$name]=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
  printf '%-34s median %8.3f s over %d runs\n' "$name" "${median[$name]}" "$n"
}

measure "build, nothing changed" "$built" "$runs" "$blades" --cards "$pool" build
for where in built fresh; do
  dir=$built; [ $where = fresh ] && dir=$fresh
  measure "deck check ($where)" "$dir" "$runs" "$blades" --cards "$pool" deck check "$deck"
  measure "collection check ($where)" "$dir" "$runs" "$blades" --cards "$pool" collection check "$collection"
  measure "card show ($where)" "$dir" "$runs" "$blades" --cards "$pool" card show "$card"
  measure "search ($where)" "$dir" "$runs" "$blades" --cards "$pool" search "star>=7 element:fire"
  measure "search --db ($where)" "$dir" "$runs" "$blades" search --db "$built/dist/cards.json" "star>=7 element:fire"
  measure "i18n status ($where)" "$dir" "$runs" "$blades" --cards "$pool" i18n status
  measure "i18n check ($where)" "$dir" "$runs" "$blades" --cards "$pool" i18n check
  measure "effect check ($where)" "$dir" "$runs" "$blades" --cards "$pool" effect check "Play: Gain 2 RP."
done

ratio() { printf '%.2f' "$(echo "${median[$1]} / ${median[$2]}" | bc -l)"; }
{
  echo "# Commands after a build"
  echo
  echo "Run by \`bench/commands.sh $cards $runs\` ($("$blades" --version)) on $(date -u +%Y-%m-%d), $(nproc) cores, shared machine (medians; expect noise)."
  echo "Pool: $cards synthetic cards from \`examples/synth\`. *After a build*: the command runs where \`blades build\`"
  echo "wrote \`dist/\` (database and cache) and the pool has not changed since; *from scratch*: where it did not."
  echo
  echo "| what | after a build (s) | from scratch (s) | after a build / build with nothing changed |"
  echo "|---|---|---|---|"
  for k in "deck check" "collection check" "card show" "search" "search --db" "i18n status" "i18n check" "effect check"; do
    printf '| %s | %.3f | %.3f | %s× |\n' "$k" "${median[$k (built)]}" "${median[$k (fresh)]}" "$(ratio "$k (built)" 'build, nothing changed')"
  done
  echo
  printf -- '- build with nothing changed: %.3f s\n' "${median[build, nothing changed]}"
} > "$out"
cat "$out"
