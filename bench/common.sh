# Sourced by the whole-process timing scripts, from the repository's root.
#
# Sets $scratch (target/bench-scratch), $blades and $synth: the release `blades` and pool
# generator, built unless BLADES and SYNTH name the binaries to time (a debug build gives
# ratios only).
#
# pool_of CARDS: sets $pool, the synthetic pool of CARDS cards, generated when missing.
# measure NAME RUNS COMMAND...: the median wall-clock seconds of RUNS runs of COMMAND (its
#   output discarded) in ${median[NAME]}, printed; when $BEFORE names a command, it runs
#   untimed before each run.

scratch=target/bench-scratch
mkdir -p "$scratch"
if [ -z "${BLADES:-}" ] || [ -z "${SYNTH:-}" ]; then
  cargo build --release --quiet --bin blades --example synth
fi
blades=$(realpath -m "${BLADES:-target/release/blades}")
synth=$(realpath -m "${SYNTH:-target/release/examples/synth}")

pool_of() {
  pool="$PWD/$scratch/pool-$1"
  if [ ! -d "$pool" ]; then
    "$synth" --cards "$1" --out "$pool"
  fi
}

declare -A median
measure() {
  local name=$1 n=$2; shift 2
  local times=()
  for _ in $(seq "$n"); do
    local start end
    # An untimed step before each run (the edit of a one-file rebuild).
    if [ -n "${BEFORE:-}" ]; then "$BEFORE" >/dev/null 2>&1 || true; fi
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
  done
  median[$name]=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
  printf '%-32s median %8.3f s over %d runs\n' "$name" "${median[$name]}" "$n"
}
