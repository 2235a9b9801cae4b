# Shared by the whole-process timing scripts (sourced, not run), from the
# repository's root.
#
# tool_and_pool CARDS: sets $scratch, $blades, $synth and $pool, the
#   synthetic pool of CARDS cards (generated when missing). The release
#   build is made unless BLADES= and SYNTH= name the binaries to time.
# measure NAME RUNS COMMAND...: the median wall-clock seconds of RUNS runs
#   of COMMAND (its output discarded) in ${median[NAME]}, printed; when
#   $BEFORE names a command, it runs untimed before each run.

tool_and_pool() {
  local cards=$1
  scratch=target/bench-scratch
  mkdir -p "$scratch"
  if [ -z "${BLADES:-}" ] || [ -z "${SYNTH:-}" ]; then
    cargo build --release --quiet --bin blades --example synth
  fi
  blades=${BLADES:-$PWD/target/release/blades}
  synth=${SYNTH:-$PWD/target/release/examples/synth}
  pool="$PWD/$scratch/pool-$cards"
  if [ ! -d "$pool" ]; then
    "$synth" --cards "$cards" --out "$pool"
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
  printf '%-28s median %8.3f s over %d runs\n' "$name" "${median[$name]}" "$n"
}
