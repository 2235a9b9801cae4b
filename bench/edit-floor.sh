#!/usr/bin/env bash
# What a one-file edit cannot go below, beside what it costs: whole-process timings, on a
# large synthetic pool, of a full build (`--no-cache`), a cached build with nothing changed,
# a one-file edit (one card's flavor flipped in one set file, then a cached build), and the
# two things any edit must do: copy the unchanged database into a new file (what the build's
# temp file and rename need; `cp` uses `copy_file_range`, as the build does) and look at
# every pool file's length and time (`find -printf`, one thread). Prints medians and shares
# of the full build.
#
# usage: bench/edit-floor.sh [CARDS=100000] [RUNS=9]   (env: BLADES=path, SYNTH=path: no build)
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${1:-100000}
runs=${2:-9}
source bench/common.sh
pool_of "$cards"
source_pool=$pool
# A copy of the pool, so that the edits never touch the one other scripts time.
pool="$PWD/$scratch/edit-floor-pool"
out="$PWD/$scratch/edit-floor-out"
rm -rf "$pool" "$out"
cp -r "$source_pool" "$pool"
mkdir -p "$out"
"$blades" build --cards "$pool" --out "$out/cards.json" >/dev/null 2>&1
# The first set file (the generator writes each card's flavor as "Generated card number N").
edited=$(find "$pool" -maxdepth 1 -name '*.yaml' | sort | sed -n 1p)

flip() {
  sed -i 's/Generated card number/Generated card no./; t; s/Generated card no./Generated card number/' "$edited"
}

drop_copy() { rm -f "$out/copy.json"; }

measure full "$runs" "$blades" build --cards "$pool" --out "$out/full.json" --no-cache
measure unchanged "$runs" "$blades" build --cards "$pool" --out "$out/cards.json"
BEFORE=flip measure edit "$runs" "$blades" build --cards "$pool" --out "$out/cards.json"
BEFORE=drop_copy measure copy "$runs" cp "$out/cards.json" "$out/copy.json"
measure look "$runs" find "$pool" -type f -printf '%s %T@\n'
rm -f "$out/copy.json"

share() { printf '%.1f%%' "$(echo "100 * ${median[$1]} / ${median[full]}" | bc -l)"; }
echo "pool: $cards cards, $(du -sb "$out/cards.json" | cut -f1) bytes of database; medians of $runs runs"
printf '%-44s %8.3f s\n' "full build (--no-cache)" "${median[full]}"
for k in unchanged edit copy look; do
  case $k in
    unchanged) label="build, nothing changed" ;;
    edit) label="one-file edit" ;;
    copy) label="copy of the database (cp)" ;;
    look) label="every pool file's length and time (find)" ;;
  esac
  printf '%-44s %8.3f s  %s of the full build\n' "$label" "${median[$k]}" "$(share $k)"
done
floor=$(echo "${median[copy]} + ${median[look]}" | bc -l)
printf '%-44s %8.3f s  %.1f%% of the full build\n' "floor (copy + look)" "$floor" "$(echo "100 * $floor / ${median[full]}" | bc -l)"
