#!/usr/bin/env bash
# A real editor against `blades lsp`: headless Neovim opens a set file with a
# typo, applies the server's quick fix and saves; the pool must then build
# clean. Usage: tests/editors/neovim.sh [BLADES_BINARY]; the default is the
# debug build in cargo's build folder (`CARGO_TARGET_DIR`, relative to the
# checkout as cargo reads it, else `target/`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$here/../.." && pwd)
target_dir=${CARGO_TARGET_DIR:-target}
case "$target_dir" in /*) ;; *) target_dir="$checkout/$target_dir" ;; esac
blades=$(realpath "${1:-$target_dir/debug/blades}")
pool=$(mktemp -d)
trap 'rm -rf "$pool"' EXIT
cp "$here/typo-pool/"*.yaml "$pool/"
if "$blades" build --cards "$pool" --out "$pool/out/db.json" >/dev/null 2>&1; then
    echo "neovim.sh: the typo pool builds before the fix" >&2
    exit 1
fi
BLADES="$blades" SET_FILE="$pool/mistyped.yaml" \
    timeout 120 nvim --headless -u NONE -i NONE -n -c "luafile $here/neovim.lua"
"$blades" build --cards "$pool" --out "$pool/out/db.json" >/dev/null
echo "neovim.sh: the quick fix made the pool build clean"
