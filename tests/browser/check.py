#!/usr/bin/env python3
"""Card faces in a real browser (headless Chromium), outside `cargo test`.

    python3 tests/browser/check.py [--blades PATH] [--out DIR]

For two pools (the built-in one in every language; the `check-bad` fixture,
whose Japanese flavor of `thunder-mesa` overflows, in Japanese) it runs
`blades render --format json`, opens every face in Chromium through one page
of iframes, and checks in the browser's own layout:

- every face loaded, and its fonts (the ones shipped in `fonts/`) loaded;
- no line of a text box is wider than its box (the browser's shaping, not
  ours: `getComputedTextLength`), and no line box ends below the box, except
  and no box has more lines than it holds (a name: one), except in the boxes
  `render` reported as overflowing: the set of boxes the browser
  finds overflowing must be exactly the `text-overflow` list;
- it saves a screenshot of one face per pool in DIR (default
  `target/browser`) for a person to look at.

It prints `N passed, M failed` and exits 1 on a failure. Chromium is
Debian's `chromium` package (`.ci/run` installs it when missing).
"""

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import chromium

ROOT = Path(__file__).resolve().parents[2]
TOLERANCE_MM = 0.05

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>faces</title></head><body>
%(frames)s
<pre id="result">pending</pre>
<script>
const frames = [...document.querySelectorAll('iframe')];
function measure(frame) {
  const doc = frame.contentDocument;
  const svg = doc && doc.querySelector('svg');
  if (!svg) return {file: frame.dataset.file, loaded: false};
  const fonts = [...doc.fonts].map(f => [f.family, f.weight, f.style, f.status]);
  const used = [...doc.fonts].filter(f => f.status !== 'unloaded');
  const boxes = [];
  for (const g of svg.querySelectorAll('g.text-box')) {
    const x = +g.dataset.x, y = +g.dataset.y, w = +g.dataset.width, h = +g.dataset.height;
    const lh = +g.dataset.lineHeight, maxLines = +g.dataset.maxLines;
    const lines = g.querySelectorAll('text');
    let widest = 0, lowest = 0;
    for (const t of lines) {
      const size = parseFloat(getComputedStyle(t).fontSize);
      widest = Math.max(widest, t.getComputedTextLength());
      // The line box ends half the leading and the em box's descent (0.12 em) below the baseline.
      lowest = Math.max(lowest, +t.getAttribute('y') + size * ((lh - 1) / 2 + 0.12) - y);
    }
    const overflow = widest > w + %(tol)s || lowest > h + %(tol)s || lines.length > maxLines;
    boxes.push({field: g.dataset.field, widest, width: w, lowest, height: h, overflow});
  }
  return {file: frame.dataset.file, loaded: true, fonts, fontsUsed: used.map(f => f.status), boxes};
}
async function run() {
  // The page's load event waits for every frame; then each frame's text is
  // laid out once (which starts its fonts loading) and its fonts awaited.
  for (const f of frames) {
    const doc = f.contentDocument;
    if (doc) for (const t of doc.querySelectorAll('text')) t.getComputedTextLength();
  }
  await Promise.all(frames.map(f => f.contentDocument ? f.contentDocument.fonts.ready : null));
  document.getElementById('result').textContent = JSON.stringify(frames.map(measure));
}
window.addEventListener('load', () => {
  run().catch(e => { document.getElementById('result').textContent = 'ERROR ' + e; });
});
</script></body></html>
"""


def browser(args):
    return chromium.run(args, file_access=True)


def render(blades, out, extra):
    run = subprocess.run([blades, "--format", "json", *extra, "render", "--out", str(out)],
                         capture_output=True, text=True, cwd=ROOT)
    if run.returncode != 0:
        sys.exit(f"blades render failed ({run.returncode}): {run.stdout}{run.stderr}")
    return json.loads(run.stdout)


def check_pool(name, blades, out, extra, results):
    report = render(blades, out, extra)
    faces = report["faces"]
    expected = {(f["file"], field) for f in faces for field in f["overflow"]}
    frames = "\n".join(
        f'<iframe data-file="{html.escape(f["file"])}" src="{html.escape(f["file"])}" '
        'style="width:63mm;height:88mm;border:0"></iframe>' for f in faces)
    page = out / "check.html"
    page.write_text(PAGE % {"frames": frames, "tol": TOLERANCE_MM}, encoding="utf-8")
    dom = browser(["--dump-dom", page.as_uri()])
    found = re.search(r'<pre id="result">(.*?)</pre>', dom.stdout, re.S)
    if not found or not found.group(1).startswith("["):
        results.append((f"{name}: the page measured the faces", False,
                        (found.group(1) if found else dom.stderr[-2000:])))
        return
    measured = json.loads(html.unescape(found.group(1)))
    loaded = [m for m in measured if m["loaded"]]
    results.append((f"{name}: all {len(faces)} faces loaded", len(loaded) == len(faces),
                    [m["file"] for m in measured if not m["loaded"]]))
    bad_fonts = [(m["file"], m["fontsUsed"]) for m in loaded
                 if not m["fontsUsed"] or any(s != "loaded" for s in m["fontsUsed"])]
    results.append((f"{name}: every face's fonts loaded", not bad_fonts, bad_fonts[:5]))
    browser_overflow = {(m["file"], b["field"]) for m in loaded for b in m["boxes"] if b["overflow"]}
    results.append((f"{name}: the boxes the browser overflows are exactly those `render` reported "
                    f"({len(expected)})", browser_overflow == expected,
                    {"browser only": sorted(browser_overflow - expected),
                     "render only": sorted(expected - browser_overflow)}))
    # A screenshot of the first face, for people.
    shot = out.parent / f"{name}.png"
    first = out / faces[0]["file"]
    browser([f"--screenshot={shot}", "--window-size=480,670", first.as_uri()])
    results.append((f"{name}: screenshot {shot.name}", shot.exists(), ""))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--blades", default=str(chromium.target_dir() / "debug/blades"))
    parser.add_argument("--out", default=str(chromium.target_dir() / "browser"))
    args = parser.parse_args()
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    results = []
    check_pool("builtin", args.blades, out / "builtin", ["--quiet"], results)
    check_pool("check-bad", args.blades, out / "check-bad",
               ["--cards", "tests/fixtures/i18n/check-bad", "--quiet"], results)
    return chromium.summary(results)


if __name__ == "__main__":
    sys.exit(main())
