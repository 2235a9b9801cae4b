#!/usr/bin/env bash
# Times `blades deck check` as a whole process: one deck, and 10,000 deck
# files in one call. Uses hyperfine when it is installed, else a loop.
#
#   bench/deck-check.sh [--cards DIR]
#
# Default pool: the built-in one; when it is empty, the fixture pool
# tests/fixtures/rules/pool. Builds the release binary first.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/blades"

cards=()
if [[ "${1:-}" == "--cards" ]]; then
    cards=(--cards "$2")
elif ! ls cards/*.yaml cards/**/*.yaml >/dev/null 2>&1; then
    cards=(--cards tests/fixtures/rules/pool)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A legal deck of the chosen pool: its first 8 singles, 1 deck box and 2
# accessories, by name.
deck="$work/deck.yaml"
"$bin" "${cards[@]}" copies list --format json | python3 bench/legal-deck.py >"$deck"
mkdir -p "$work/decks"
for i in $(seq 1 10000); do cp "$deck" "$work/decks/$i.yaml"; done

echo "pool: ${cards[*]:-built-in}"
"$bin" "${cards[@]}" deck check "$deck"
if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --warmup 3 --export-markdown "$work/one.md" \
        "$bin ${cards[*]} deck check $deck"
    hyperfine --warmup 1 --runs 5 \
        "$bin ${cards[*]} deck check --format json $work/decks/*.yaml"
else
    echo "hyperfine not found: timing a loop"
    python3 - "$bin" "$deck" "$work/decks" "${cards[@]}" <<'PY'
import glob, statistics, subprocess, sys, time
bin, deck, decks, cards = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def run(args, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run([bin, *cards, *args], stdout=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), max(times)
med, lo, hi = run(["deck", "check", deck], 50)
print(f"one deck: median {med*1000:.1f} ms (min {lo*1000:.1f}, max {hi*1000:.1f}) over 50 runs")
files = sorted(glob.glob(decks + "/*.yaml"))
med, lo, hi = run(["deck", "check", "--format", "json", *files], 5)
print(f"{len(files)} decks in one call: median {med:.2f} s (min {lo:.2f}, max {hi:.2f}) over 5 runs")
PY
fi
