#!/usr/bin/env bash
# Whole-process timings of `blades search --db FILE QUERY` on a 100,000-card database built
# from the synthetic pool (issue 18: the whole process under 0.5 s), beside the floor of
# reading that database (`search --db FILE 'star>99'`, a query that reads no text and matches
# nothing), and of `blades build --no-cache` with and without `--sqlite FILE` (issue 18:
# writing SQLite for 100,000 cards under 2 s). Prints medians of RUNS runs: wall
# clock and CPU time.
#
# usage: bench/search.sh [CARDS=100000] [RUNS=7]
#   env: BLADES=path/to/blades skips the release build and uses that binary (to time an
#        older build beside this one); SKIP_SQLITE=1 times the searches only.
set -euo pipefail
cd "$(dirname "$0")/.."
cards=${1:-100000}
runs=${2:-7}
source bench/common.sh
pool="$PWD/$scratch/pool-$cards"
if [ ! -d "$pool" ]; then
  "$synth" --cards "$cards" --out "$pool"
fi
work="$PWD/$scratch/search-work"
mkdir -p "$work"
db="$work/cards.json"
if [ ! -f "$db" ]; then
  (cd "$work" && "$blades" --cards "$pool" build --no-cache --out "$db" >/dev/null 2>&1)
fi

# Medians of the wall time and of the CPU time (user + system, all threads): on a shared
# machine the wall time waits for a core; the CPU time does not.
measure() {
  local name=$1 n=$2; shift 2
  local walls=() cpus=()
  for _ in $(seq "$n"); do
    (cd "$work" && /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >/dev/null 2>&1) || true
    read -r wall user sys <"$work/time"
    walls+=("$wall")
    cpus+=("$(echo "$user + $sys" | bc -l)")
  done
  printf '%-48s wall %6.3f s  cpu %6.3f s  (medians of %d)\n' "$name" \
    "$(median "${walls[@]}")" "$(median "${cpus[@]}")" "$n"
}
median() {
  printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
measure "search --db: star>99 (read only)" "$runs" "$blades" search --db "$db" 'star>99'
for query in 'e:fire t:construct star>=3' 'name:"card 12" or o:"gain 3 rp"' \
  'kw:scurry -is:vanilla timing:play' 'o:/gain [0-9] RP/ flavor:a' '属性:炎 種族:機械 レアリティ:基本'; do
  measure "search --db: $query" "$runs" "$blades" search --db "$db" --ids "$query"
done
if [ -z "${SKIP_SQLITE:-}" ]; then
  measure "build --no-cache" "$runs" "$blades" --cards "$pool" build --no-cache --out "$work/b.json"
  measure "build --no-cache --sqlite" "$runs" "$blades" --cards "$pool" build --no-cache --out "$work/b.json" --sqlite "$work/b.sqlite"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
