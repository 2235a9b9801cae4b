#!/usr/bin/env bash
# Regenerates the card-face fonts in this folder from Debian's Noto packages
# (SIL Open Font License 1.1; see README.md and OFL.txt beside this script).
#
#   bash fonts/subset.sh          # from the repository root
#
# Needs: Debian's fonts-noto-core, fonts-noto-cjk and unicode-data (installed
# with apt-get when missing) and fontTools (`pip install fonttools`, for
# pyftsubset). The Japanese fonts keep kana, punctuation, full-width forms,
# the 2,136 jōyō kanji (Unihan's kJoyoKanji) and every other kanji in the
# YAML of cards/, data/ and tests/fixtures/ (the built-in pool, its
# translations and phrase books, the glossary, the test pools). A character
# outside them is reported by `blades render` and `blades build` as a located
# `missing-glyph` warning until this script is run again.
set -euo pipefail
cd "$(dirname "$0")/.."

core=/usr/share/fonts/truetype/noto
cjk=/usr/share/fonts/opentype/noto
unihan=/usr/share/unicode/Unihan_OtherMappings.txt.bz2
if [ ! -f "$core/NotoSans-Regular.ttf" ] || [ ! -f "$cjk/NotoSansCJK-Regular.ttc" ] || [ ! -f "$unihan" ]; then
    apt-get install -y --no-install-recommends fonts-noto-core fonts-noto-cjk unicode-data
fi
command -v pyftsubset >/dev/null || pip install fonttools

# Latin: ASCII, Latin-1, Latin Extended-A, general punctuation, arrows and
# the multiplication and minus signs.
latin="U+0020-007E,U+00A0-017F,U+2010-2027,U+2030-203E,U+2044,U+20AC,U+2122,U+2190-2193,U+2212"

# Japanese: the Latin ranges (Noto Sans CJK's own Latin, for Japanese text),
# CJK punctuation, kana, full-width forms, a few symbols (★☆※○●◆◇■□△▲▽▼),
# the jōyō kanji and every kanji found in the YAML of cards/, data/ and
# tests/fixtures/.
joyo=$(bzcat "$unihan" | awk '$2 == "kJoyoKanji" { print $1 }' | paste -sd, -)
kanji=$(find cards data tests/fixtures -name '*.yaml' -exec cat {} + \
    | python3 -c 'import sys
chars = sorted({c for c in sys.stdin.read() if 0x3400 <= ord(c) <= 0x9FFF or 0xF900 <= ord(c) <= 0xFAFF})
print(",".join("U+%04X" % ord(c) for c in chars))')
kanji="$joyo${kanji:+,$kanji}"
japanese="$latin,U+3000-303F,U+3041-309F,U+30A0-30FF,U+31F0-31FF,U+FF01-FF60,U+FFE0-FFE6,U+2605-2606,U+203B,U+25A0-25A1,U+25B2-25BD,U+25C6-25C7,U+25CB,U+25CF,U+2460-2473${kanji:+,$kanji}"

common=(--layout-features=ccmp,locl,mark,mkmk,kern,liga,clig,calt,rlig,rclt,rvrn,curs,dist,abvm,blwm --no-hinting --name-IDs='*' --name-languages='*' --notdef-outline --drop-tables+=DSIG)
for style in Regular Bold Italic; do
    pyftsubset "$core/NotoSans-$style.ttf" --unicodes="$latin" "${common[@]}" \
        --output-file="fonts/NotoSans-$style.ttf"
done
for style in Regular Bold; do
    pyftsubset "$cjk/NotoSansCJK-$style.ttc" --font-number=0 --unicodes="$japanese" "${common[@]}" \
        --output-file="fonts/NotoSansJP-$style.otf"
done
ls -l fonts/*.ttf fonts/*.otf
