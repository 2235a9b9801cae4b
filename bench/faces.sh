#!/usr/bin/env bash
# Whole-process timing of card faces on a large synthetic pool (issue 17: 10,000 cards under
# 30 s; a one-card edit re-renders only that card), and of `build --faces` cold and warm (the
# fit memo beside the cache). Prints medians and writes them to bench/FACES.md.
#
# usage: bench/faces.sh [CARDS=10000] [RUNS=3]
#   env: BLADES=path/to/blades and SYNTH=path/to/synth skip the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${1:-10000}
runs=${2:-3}
source bench/common.sh
pool="$PWD/$scratch/faces-pool-$cards"
rm -rf "$pool"
"$synth" --cards "$cards" --out "$pool" >/dev/null
work="$PWD/$scratch/faces-work"

seconds() { # the wall time of a command, in seconds
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A result
run() { # name, then the command; a fresh output folder before each run unless KEEP is set
  local name=$1; shift
  local times=()
  for _ in $(seq "$runs"); do
    [ -n "${KEEP:-}" ] || rm -rf "$work"
    times+=("$(seconds "$@")")
  done
  result[$name]=$(median "${times[@]}")
  printf '%-58s %8.2f s  (runs: %s)\n' "$name" "${result[$name]}" "${times[*]}"
}

run "render every face, en and ja (cold folder)" \
  "$blades" --cards "$pool" render --out "$work/faces"
# A one-card edit: the folder is up to date, one card's effect changes.
rm -rf "$work"; "$blades" --cards "$pool" render --out "$work/faces" >/dev/null 2>&1 || true
first=$(find "$pool" -maxdepth 1 -name '*.yaml' | sort | head -1)
# One card edited: a word put before the first flavor text of the first set file.
edit_one() { sed -i "0,/    flavor: \"/s//    flavor: \"$1 /" "$first"; }
edit_one Swiftly
edited=$("$blades" --cards "$pool" --format json render --out "$work/faces" 2>/dev/null \
  | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["written"], r["unchanged"])')
echo "after a one-card edit: written, unchanged = $edited"
run "gallery, en and ja (cold folder)" "$blades" --cards "$pool" gallery --out "$work/gallery"
rm -rf "$work"; "$blades" --cards "$pool" gallery --out "$work/gallery" >/dev/null 2>&1 || true
edit_one Boldly
start=$(date +%s.%N)
gallery_edit=$("$blades" --cards "$pool" --format json gallery --out "$work/gallery" 2>/dev/null \
  | python3 -c 'import json,sys; r=json.load(sys.stdin); print(len(r["drawn"]) if isinstance(r.get("drawn"), list) else r.get("drawn"), r["reused"])')
gallery_edit_time=$(echo "$(date +%s.%N) - $start" | bc -l)
echo "gallery after a one-card edit: drawn, reused = $gallery_edit ($gallery_edit_time s)"
run "build --faces --no-cache" "$blades" --cards "$pool" build --faces --no-cache --out "$work/cards.json"
run "build --no-cache (no face check)" "$blades" --cards "$pool" build --no-cache --out "$work/cards.json"
rm -rf "$work"; "$blades" --cards "$pool" build --faces --out "$work/cards.json" >/dev/null 2>&1 || true
edit_one Calmly
KEEP=1 run "build --faces, one file edited since (cache and memo)" \
  "$blades" --cards "$pool" build --faces --out "$work/cards.json"

{
  echo "# Card-face benchmark"
  echo
  echo "\`bench/faces.sh $cards $runs\`, $(date -u +%Y-%m-%d), $(nproc) cores, shared machine; release build;"
  echo "whole-process wall time, medians of $runs runs."
  echo
  echo "| what | median |"
  echo "|---|---|"
  for k in "render every face, en and ja (cold folder)" "gallery, en and ja (cold folder)" "build --faces --no-cache" \
           "build --no-cache (no face check)" "build --faces, one file edited since (cache and memo)"; do
    printf '| %s | %.2f s |\n' "$k" "${result[$k]}"
  done
  echo
  echo "After a one-card edit, \`render\` into the up-to-date folder: files written and unchanged: $edited."
  printf 'After a one-card edit, `gallery` into the up-to-date folder: faces drawn and reused: %s, in %.2f s.\n' "$gallery_edit" "$gallery_edit_time"
} > bench/FACES.md
rm -rf "$work"
