#!/usr/bin/env python3
"""Print-and-play sheets in a real browser (headless Chromium), outside `cargo test`.

    python3 tests/browser/sheets.py [--blades PATH] [--out DIR] [--update]

It runs `blades print --format json` on the built-in pool (A4, English),
opens one sheet file per set in Chromium exactly as a person would open it
from `file://` (no flag that lets a page read other files), and checks in
the browser's own layout:

- every sheet page is the paper's size and every card box is 63 x 88 mm
  (in CSS px at 96 per inch), each holding its face (an SVG with its text
  boxes), and no crop mark lies over a card;
- the shipped fonts (from `fonts.css`) loaded, and none failed;
- printed by the browser (`--print-to-pdf`, CSS `@page`), a set's sheets
  are as many pages as `print` reported, each the paper's size;
- then it takes a screenshot of the first sheet page of each set (at half
  scale) and compares it with `tests/browser/snapshots/SET.png`: it passes
  when at most TOLERANCE of the pixels differ by more than THRESHOLD in a
  channel (PNG decoded with the standard library: zlib and struct).
  `--update` writes the snapshots instead; screenshots land in DIR
  (default `target/browser/sheets`), with a `SET.diff.png` for a mismatch.

It prints `N passed, M failed` and exits 1 on a failure. Chromium is
Debian's `chromium` package (`.ci/run` installs it when missing).
"""

import argparse
import html
import json
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import chromium

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = ROOT / "tests/browser/snapshots"
PX_PER_MM = 96 / 25.4
TOLERANCE_PX = 0.5
# Half-scale screenshots: the A4 page is 794 x 1123 CSS px.
WINDOW = {"a4": (794, 1123), "letter": (816, 1056)}
SCALE = 0.5
# The paper in PDF points, rounded.
PAPER_PT = {"a4": (595, 842), "letter": (612, 792)}
# A pixel differs when a channel differs by more than THRESHOLD (of 255);
# the screenshot matches when at most TOLERANCE of its pixels differ.
THRESHOLD = 64
TOLERANCE = 0.005

MEASURE = """
<pre id="result">pending</pre>
<script>
async function measure() {
  // Lay out every text once (which starts the fonts loading), then wait.
  for (const t of document.querySelectorAll('svg text')) t.getComputedTextLength();
  await document.fonts.ready;
  const rect = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  const sheets = [...document.querySelectorAll('.sheet')].map(sheet => ({
    page: rect(sheet),
    cards: [...sheet.querySelectorAll('.card')].map(card => {
      const svg = card.querySelector('svg');
      return {card: card.dataset.card, box: rect(card), svg: svg ? rect(svg) : null,
              boxes: svg ? svg.querySelectorAll('g.text-box').length : 0};
    }),
    marks: [...sheet.querySelectorAll('.crop-marks line')].map(rect),
  }));
  const fonts = [...document.fonts].map(f => [f.family, f.weight, f.style, f.status]);
  return {sheets, fonts};
}
measure().then(r => { document.getElementById('result').textContent = JSON.stringify(r); },
               e => { document.getElementById('result').textContent = 'ERROR ' + e; });
</script>
"""


def browser(args):
    return chromium.run(args)


# --- PNG, with the standard library only -----------------------------------

def png_read(path):
    """(width, height, channels, rows): rows of bytes, 8-bit RGB or RGBA."""
    data = Path(path).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    at, idat, width, height, channels = 8, [], 0, 0, 0
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            channels = {2: 3, 6: 4, 0: 1, 4: 2}.get(color)
            if depth != 8 or channels is None or interlace:
                raise ValueError(f"{path}: only 8-bit, non-interlaced PNGs (depth {depth}, colour {color})")
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = prev[i]
                c = prev[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif kind != 0:
            raise ValueError(f"{path}: bad filter {kind} on row {y}")
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def png_write(path, width, height, rows):
    """An 8-bit RGB PNG."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    raw = b"".join(b"\x00" + row for row in rows)
    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n"
                           + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def rgb(rows, channels):
    if channels == 3:
        return rows
    if channels == 4:
        return [bytes(b for i, b in enumerate(row) if i % 4 != 3) for row in rows]
    return [bytes(v for g in row[::channels] for v in (g, g, g)) for row in rows]


def compare(shot, snapshot, diff_path):
    """The fraction of pixels that differ, or a reason they cannot be compared."""
    w1, h1, c1, r1 = png_read(shot)
    w2, h2, c2, r2 = png_read(snapshot)
    if (w1, h1) != (w2, h2):
        return None, f"size {w1}x{h1}, snapshot {w2}x{h2}"
    r1, r2 = rgb(r1, c1), rgb(r2, c2)
    differing, diff_rows = 0, []
    for a, b in zip(r1, r2):
        out = bytearray(len(a))
        for x in range(0, len(a), 3):
            if max(abs(a[x] - b[x]), abs(a[x + 1] - b[x + 1]), abs(a[x + 2] - b[x + 2])) > THRESHOLD:
                differing += 1
                out[x] = 255
            else:
                out[x] = out[x + 1] = out[x + 2] = 255 - (255 - a[x + 1]) // 4
        diff_rows.append(bytes(out))
    fraction = differing / (w1 * h1)
    if fraction > TOLERANCE:
        png_write(diff_path, w1, h1, diff_rows)
    return fraction, ""


# --- the checks ---------------------------------------------------------------

def print_sheets(blades, out, paper):
    run = subprocess.run([blades, "--format", "json", "--quiet", "print", "--paper", paper,
                          "--out", str(out)], capture_output=True, text=True, cwd=ROOT)
    if run.returncode != 0:
        sys.exit(f"blades print failed ({run.returncode}): {run.stdout}{run.stderr}")
    return json.loads(run.stdout)


def near(a, b):
    return abs(a - b) <= TOLERANCE_PX


def check_set(set_report, out, paper, update, results):
    name = set_report["set"]
    sheet = out / set_report["file"]
    # The sheet as written, with a script that measures it, beside it (so
    # it reads `fonts.css` as the sheet does).
    probe = out / f".{name}.probe.html"
    text = sheet.read_text(encoding="utf-8")
    probe.write_text(text.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom = browser(["--dump-dom", probe.as_uri()])
    probe.unlink()
    found = re.search(r'<pre id="result">(.*?)</pre>', dom.stdout, re.S)
    if not found or not found.group(1).startswith("{"):
        results.append((f"{name}: the sheet was measured", False,
                        found.group(1) if found else dom.stderr[-2000:]))
        return
    measured = json.loads(html.unescape(found.group(1)))
    sheets = measured["sheets"]
    results.append((f"{name}: {len(sheets)} sheet pages for {set_report['cards']} cards",
                    len(sheets) == set_report["pages"] and
                    sum(len(s["cards"]) for s in sheets) == set_report["cards"], len(sheets)))
    wants = {"a4": (210, 297), "letter": (215.9, 279.4)}[paper]
    page_w, page_h = wants[0] * PX_PER_MM, wants[1] * PX_PER_MM
    card_w, card_h = 63 * PX_PER_MM, 88 * PX_PER_MM
    bad_pages = [s["page"] for s in sheets if not (near(s["page"][2], page_w) and near(s["page"][3], page_h))]
    results.append((f"{name}: every page is {paper} ({page_w:.1f} x {page_h:.1f} px)", not bad_pages, bad_pages))
    bad_cards = [(c["card"], c["box"], c["svg"]) for s in sheets for c in s["cards"]
                 if not (near(c["box"][2], card_w) and near(c["box"][3], card_h)
                         and c["svg"] and near(c["svg"][2], card_w) and near(c["svg"][3], card_h))]
    results.append((f"{name}: every card box and face is 63 x 88 mm ({card_w:.2f} x {card_h:.2f} px)",
                    not bad_cards, bad_cards[:3]))
    faceless = [c["card"] for s in sheets for c in s["cards"] if c["boxes"] == 0]
    results.append((f"{name}: every face drawn with its text boxes", not faceless, faceless))
    over = []
    for s in sheets:
        for m in s["marks"]:
            for c in s["cards"]:
                x, y, w, h = c["box"]
                # A mark's box (its stroke) may touch a card's edge, not enter it.
                if m[0] < x + w - 0.5 and m[0] + m[2] > x + 0.5 and m[1] < y + h - 0.5 and m[1] + m[3] > y + 0.5:
                    over.append((c["card"], m))
    results.append((f"{name}: no crop mark over a card", not over and all(s["marks"] for s in sheets), over[:3]))
    fonts = measured["fonts"]
    failed = [f for f in fonts if f[3] == "error"]
    loaded = {f[0].strip("'\"") for f in fonts if f[3] == "loaded"}
    results.append((f"{name}: the shipped fonts loaded from file:// ({len(fonts)} declared)",
                    not failed and "Blades Sans" in loaded, {"failed": failed, "loaded": sorted(loaded)}))
    # Printed by the browser (CSS `@page`): a page of the paper per sheet.
    printed = out.parent / f"{name}.printed.pdf"
    browser(["--no-pdf-header-footer", f"--print-to-pdf={printed}", sheet.as_uri()])
    data = printed.read_bytes() if printed.exists() else b""
    boxes = {tuple(round(float(v)) for v in m.split()[2:4])
             for m in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", data)}
    pdf_pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
    results.append((f"{name}: the browser prints it on {set_report['pages']} {paper} pages",
                    pdf_pages == set_report["pages"] and boxes == {PAPER_PT[paper]},
                    {"pages": pdf_pages, "media boxes": sorted(boxes)}))
    # A screenshot of the first page, compared with its snapshot.
    shot = out.parent / f"{name}.png"
    w, h = WINDOW[paper]
    browser([f"--screenshot={shot}", f"--window-size={w},{h}",
             f"--force-device-scale-factor={SCALE}", sheet.as_uri()])
    snapshot = SNAPSHOTS / f"{name}.png"
    if not shot.exists():
        results.append((f"{name}: screenshot", False, "chromium wrote none"))
    elif update or not snapshot.exists():
        SNAPSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, snapshot)
        results.append((f"{name}: snapshot {'updated' if update else 'written (none before)'}",
                        update, "run with --update to accept new snapshots"))
    else:
        fraction, why = compare(shot, snapshot, out.parent / f"{name}.diff.png")
        ok = fraction is not None and fraction <= TOLERANCE
        results.append((f"{name}: screenshot matches its snapshot "
                        f"({'-' if fraction is None else f'{fraction:.2%}'} of pixels differ, "
                        f"at most {TOLERANCE:.1%})", ok, why or f"see {out.parent / (name + '.diff.png')}"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--blades", default=str(chromium.target_dir() / "debug/blades"))
    parser.add_argument("--out", default=str(chromium.target_dir() / "browser/sheets"))
    parser.add_argument("--update", action="store_true", help="rewrite the snapshots")
    args = parser.parse_args()
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    paper = "a4"
    report = print_sheets(args.blades, out / "print", paper)
    results = []
    for set_report in report["sets"]:
        check_set(set_report, out / "print", paper, args.update, results)
    return chromium.summary(results)


if __name__ == "__main__":
    sys.exit(main())
