#!/usr/bin/env bash
# Fuzzes one target for a while: fuzz/run.sh TARGET SECONDS [LIBFUZZER FLAGS...]
#
# Targets: set_file, effect, keyword_table, rules, po, locale, search, deck_format, share, score,
# deck_list, argv, lsp, card_index, i18n_memo, i18n_answers, http_head (bodies in fuzz/targets.rs and, for argv, fuzz/argv.rs).
# Uses the nightly toolchain and installs cargo-fuzz when it is missing.
# The corpus (fuzz/corpus/TARGET, not in git) is seeded with the files of
# cards/, tests/fixtures/ and examples/inputs/ (and, for effect, every effect
# text of the docs and the pool; for po, what `blades i18n export` writes); inputs the fuzzer finds stay there for the
# next run. A crash is written to fuzz/artifacts/TARGET/; minimise it with
#   cargo +nightly fuzz tmin -s none TARGET fuzz/artifacts/TARGET/crash-…
# and save the result under fuzz/regressions/TARGET/, which `cargo test`
# replays (tests/fuzz_regressions.rs).
#
# Extra flags go to libFuzzer, after the defaults (a later one wins), e.g.
# -max_len=4096 for a first run on short inputs only, or -len_control=0 to
# try inputs up to the full 128 KiB from the start (libFuzzer otherwise
# grows the length limit slowly: about 23 KB after three minutes).
set -euo pipefail

usage() {
    echo "usage: fuzz/run.sh TARGET SECONDS [LIBFUZZER FLAGS...]" >&2
    echo "targets: set_file effect keyword_table rules po locale search deck_format share score deck_list argv lsp card_index i18n_memo i18n_answers http_head" >&2
    exit 2
}
[ $# -ge 2 ] || usage
target=$1
seconds=$2
shift 2
case "$target" in
    set_file | effect | keyword_table | rules | po | locale | search | deck_format | share | score | deck_list | argv | lsp | card_index | i18n_memo | i18n_answers | http_head) ;;
    *) usage ;;
esac
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

fuzz_dir="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$fuzz_dir")"
cd "$fuzz_dir"

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    cargo install cargo-fuzz
fi

corpus="$fuzz_dir/corpus/$target"
mkdir -p "$corpus"
# Seeds, named by their path so that a seed changed in the repository is
# a new input, not a clash.
seed() {
    local file=$1
    local name
    name=$(printf '%s' "${file#"$root"/}" | tr '/' '_')
    [ -e "$corpus/seed_$name" ] || cp "$file" "$corpus/seed_$name"
}
while IFS= read -r -d '' file; do
    seed "$file"
done < <(find "$root/cards" "$root/tests/fixtures" "$root/examples/inputs" "$root/examples/pools" "$root/data/deck-formats.yaml" -type f -print0)
if [ "$target" = http_head ]; then
    # Requests as a browser sends them to `blades serve`.
    printf 'GET /api/search?q=e%%3Afire&lang=ja HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nAccept: */*\r\n\r\n' >"$corpus/seed_http_get"
    printf 'POST /api/deck/check HTTP/1.1\r\nHost: localhost:8000\r\nContent-Length: 16\r\nExpect: 100-continue\r\n\r\n1 Rivet Gremlin\n' >"$corpus/seed_http_post"
fi
if [ "$target" = po ]; then
    # What `i18n export` writes for the pool: a PO file the import accepts
    # (whole, and its first entries), in a language with translations and
    # in one without.
    for lang in ja fr; do
        (cd "$root" && cargo run --quiet -- i18n export --lang "$lang") >"$corpus/seed_export_$lang.po"
        head -n 80 "$corpus/seed_export_$lang.po" >"$corpus/seed_export_${lang}_head.po"
    done
fi
if [ "$target" = share ]; then
    # Every share code of the tests and docs, one file each.
    grep -rhoE 'MB1-[0-9A-Z]+' "$root/tests" "$root/docs" "$root/README.md" | sort -u |
        awk -v dir="$corpus" '{ file = sprintf("%s/seed_code_%03d", dir, NR); printf "%s", $0 > file; close(file) }'
fi
if [ "$target" = search ]; then
    # Every query of the search reference (lines of its fenced `search`
    # blocks), one file each.
    awk -v dir="$corpus" '
        /^```search/ { inside = 1; next }
        /^```/ && inside { inside = 0; next }
        inside && NF { n++; file = sprintf("%s/seed_doc_search_%03d", dir, n); print > file; close(file) }
    ' "$root/docs/search.md"
fi
if [ "$target" = effect ]; then
    # Every fenced effect example of the reference, one file each.
    awk -v dir="$corpus" '
        /^```effect/ { n++; file = sprintf("%s/seed_doc_effect_%03d", dir, n); inside = 1; next }
        /^```/ && inside { inside = 0; close(file); next }
        inside { print > file }
    ' "$root/docs/effect-language.md"
    # Every one-line effect of the pool.
    grep -rhoE 'effect: "[^"]*"' "$root/cards" | sed -E 's/^effect: "(.*)"$/\1/' |
        awk -v dir="$corpus" '{ file = sprintf("%s/seed_pool_effect_%03d", dir, NR); print > file; close(file) }'
fi

# No sanitizer: the project forbids unsafe code, and what is looked for is
# panics (debug assertions on: overflow too), time and memory; without one
# the runs are several times faster. -max_len reaches the long-line cases
# (a diagnostic past column 65,536). The timeout and memory limit make a
# slow or huge input a finding.
exec cargo +nightly fuzz run --sanitizer none --debug-assertions "$target" "$corpus" -- \
    -max_total_time="$seconds" \
    -max_len=131072 \
    -timeout=30 \
    -rss_limit_mb=2048 \
    -print_final_stats=1 \
    "$@"
