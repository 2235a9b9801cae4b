#!/usr/bin/env python3
"""The card gallery in a real browser (headless Chromium), outside `cargo test`.

    python3 tests/browser/gallery.py [--blades PATH] [--out DIR]

It runs `blades gallery` on the built-in pool (every language) into DIR
(default `target/browser/gallery`), opens `index.html` from file:// in
Chromium inside a harness page, and checks:

- every face on the index loaded (an SVG document in each `<object>`) and
  its fonts, the ones shipped in `faces/fonts/`, loaded;
- the text boxes the browser's own layout overflows are exactly those
  `blades render` reports (`text-overflow`);
- every filter value of every filter (set, kind, element, type, rarity,
  STAR), set through the URL's hash as a link would, shows exactly the
  cards that `blades search --ids` finds for the same question (`set:ID`,
  `kind:K`, `e:E`, `t:T`, `r:R`, `star:N`): an oracle that shares no code
  with the page's script; and filters together (`rarity` and `element`, `element` and `star`);
- the count of cards shown says the same, and choosing a value in a
  `<select>` puts it in the hash;
- one card page (`cards/ID.html`) has its faces and fonts loaded and its
  links (index, previous, next) lead to files that exist;
- the index's and the card page's own text is set in the shipped fonts
  (`print/fonts.css`): every element's first family is one of them, both
  loaded, and no character falls through them to a system font.

It prints `N passed, M failed` and exits 1 on a failure. Chromium is
Debian's `chromium` package.
"""

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import chromium

ROOT = Path(__file__).resolve().parents[2]

# The harness: the gallery in an iframe, driven through its hash.
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>gallery check</title></head><body>
<iframe id="index" src="index.html" style="width:1400px;height:900px"></iframe>
<iframe id="card" src="cards/%(card)s.html" style="width:1400px;height:900px"></iframe>
<pre id="result">pending</pre>
<script>
const KEYS = ['set', 'kind', 'element', 'type', 'rarity', 'star'];
const tick = () => new Promise(r => setTimeout(r, 0));
async function faces(doc) {
  const objects = [...doc.querySelectorAll('object.face')];
  for (const o of objects) {
    const d = o.contentDocument;
    if (d) for (const t of d.querySelectorAll('text')) t.getComputedTextLength();
  }
  await Promise.all(objects.map(o => o.contentDocument ? o.contentDocument.fonts.ready : null));
  return objects.map(o => {
    const d = o.contentDocument;
    const svg = d && d.querySelector('svg');
    const fonts = svg ? [...d.fonts].filter(f => f.status !== 'unloaded').map(f => f.status) : [];
    return {file: o.getAttribute('data'), loaded: !!svg, fonts, overflow: svg ? overflowing(svg) : []};
  });
}
// The text boxes whose lines the browser lays out wider or lower than the
// box, or more lines than it holds (as tests/browser/check.py measures).
function overflowing(svg) {
  const out = [];
  for (const g of svg.querySelectorAll('g.text-box')) {
    const y = +g.dataset.y, w = +g.dataset.width, h = +g.dataset.height;
    const lh = +g.dataset.lineHeight, maxLines = +g.dataset.maxLines;
    const lines = g.querySelectorAll('text');
    let widest = 0, lowest = 0;
    for (const t of lines) {
      const size = parseFloat(getComputedStyle(t).fontSize);
      widest = Math.max(widest, t.getComputedTextLength());
      lowest = Math.max(lowest, +t.getAttribute('y') + size * ((lh - 1) / 2 + 0.12) - y);
    }
    if (widest > w + 0.05 || lowest > h + 0.05 || lines.length > maxLines) out.push(g.dataset.field);
  }
  return out;
}
// The page's own text in the shipped fonts: every element's first font
// family is one of them, those fonts loaded, and no character on the page
// falls through them to a system font (its width with a monospace fallback
// and with a serif fallback would differ) or to no font (the .notdef box).
async function pageFonts(doc) {
  await doc.fonts.ready;
  const SHIPPED = ["'Blades Sans'", '"Blades Sans"', "'Blades Sans JP'", '"Blades Sans JP"'];
  const stacks = new Set(), chars = new Set(), notShipped = [];
  for (const el of doc.body.querySelectorAll('*')) {
    const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('');
    if (!own.trim() || el.closest('script, object')) continue;
    const family = getComputedStyle(el).fontFamily;
    stacks.add(family);
    if (!SHIPPED.some(f => family.startsWith(f))) notShipped.push(el.tagName + ': ' + family);
    for (const c of own) if (c.trim()) chars.add(c);
  }
  const loaded = [...doc.fonts].filter(f => f.status === 'loaded').map(f => f.family.replace(/["']/g, ''));
  const canvas = doc.createElement('canvas').getContext('2d');
  const width = (c, stack, last) => { canvas.font = '40px ' + stack + ', ' + last; return canvas.measureText(c).width; };
  // A character no font draws shows the first font's .notdef box: drawn
  // alike to a noncharacter's (U+10FFFF), pixel for pixel.
  const ink = (c, stack) => {
    const cv = doc.createElement('canvas'); cv.width = 64; cv.height = 64;
    const g = cv.getContext('2d'); g.font = '40px ' + stack; g.fillText(c, 4, 48);
    return g.getImageData(0, 0, 64, 64).data.join(',');
  };
  const fallback = [];
  for (const stack of stacks) {
    const shipped = stack.split(',').map(f => f.trim()).filter(f => SHIPPED.includes(f)).join(', ');
    if (!shipped) continue;  // reported above
    for (const c of chars) {
      // Load the glyph's font first (a face loads on first use).
      await doc.fonts.load('40px ' + shipped, c);
      if (width(c, shipped, 'monospace') !== width(c, shipped, 'serif')) fallback.push(c);
      else if (ink(c, shipped) === ink(String.fromCodePoint(0x10FFFF), shipped)) fallback.push(c);
    }
  }
  return {notShipped: notShipped.slice(0, 5), loaded: [...new Set(loaded)], fallback: [...new Set(fallback)],
          chars: chars.size};
}
function shown(doc) {
  return [...doc.querySelectorAll('article.card')].filter(a => !a.hidden).map(a => a.dataset.id);
}
async function filter(win, hash) {
  win.location.hash = hash;
  await tick(); await tick();
  const doc = win.document;
  return {hash, ids: shown(doc), count: doc.getElementById('shown').textContent,
          selects: KEYS.map(k => doc.querySelector('#filters select[name=' + k + ']').value)};
}
async function run() {
  const win = document.getElementById('index').contentWindow;
  const doc = win.document;
  const out = {all: shown(doc), faces: await faces(doc), filters: [], options: {},
               text: await pageFonts(doc)};
  for (const key of KEYS) {
    const values = [...doc.querySelectorAll('#filters select[name=' + key + '] option')]
      .map(o => o.value).filter(v => v);
    out.options[key] = values;
    for (const v of values) out.filters.push(await filter(win, key + '=' + encodeURIComponent(v)));
  }
  for (const extra of %(extra)s) out.filters.push(await filter(win, extra));
  // A choice in a select goes into the hash.
  await filter(win, '');
  const select = doc.querySelector('#filters select[name=element]');
  select.value = select.options[1].value;
  select.dispatchEvent(new Event('change', {bubbles: true}));
  await tick(); await tick();
  out.chosen = {value: select.value, hash: win.location.hash, ids: shown(doc)};
  const card = document.getElementById('card').contentDocument;
  out.card = {faces: await faces(card),
              links: [...card.querySelectorAll('nav a')].map(a => a.getAttribute('href')),
              title: card.querySelector('h1') ? card.querySelector('h1').textContent : null,
              text: await pageFonts(card)};
  document.getElementById('result').textContent = JSON.stringify(out);
}
window.addEventListener('load', () => {
  run().catch(e => { document.getElementById('result').textContent = 'ERROR ' + e; });
});
</script></body></html>
"""

# A filter and the search key that asks the same.
SEARCH_KEY = {"set": "set", "kind": "kind", "element": "e", "type": "t", "rarity": "r", "star": "star"}
# Filters together.
EXTRA = [("rarity=core&element=fire", "r:core e:fire"),
         ("element=fire&star=3", "e:fire star:3")]


def browser(args):
    return chromium.run(args, file_access=True, budget_ms=60000, timeout=600, size="1500,1900")


def blades(path, *args):
    run = subprocess.run([path, "--quiet", *args], capture_output=True, text=True, cwd=ROOT)
    if run.returncode != 0:
        sys.exit(f"blades {' '.join(args)} failed ({run.returncode}): {run.stdout}{run.stderr}")
    return run.stdout


def search(path, query):
    return sorted(blades(path, "search", "--ids", query).split())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--blades", default=str(chromium.target_dir() / "debug/blades"))
    parser.add_argument("--out", default=str(chromium.target_dir() / "browser/gallery"))
    args = parser.parse_args()
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    report = json.loads(blades(args.blades, "--format", "json", "gallery", "--out", str(out)))
    every = search(args.blades, "")
    card = every[len(every) // 2]
    page = out / "check.html"
    page.write_text(PAGE % {"card": card, "extra": json.dumps([h for h, _ in EXTRA])},
                    encoding="utf-8")
    dom = browser(["--dump-dom", page.as_uri()])
    found = re.search(r'<pre id="result">(.*?)</pre>', dom.stdout, re.S)
    results = []
    if not found or not found.group(1).startswith("{"):
        results.append(("the harness ran", False, found.group(1) if found else dom.stderr[-2000:]))
    else:
        m = json.loads(html.unescape(found.group(1)))
        results.append((f"the index shows all {len(every)} cards unfiltered",
                        sorted(m["all"]) == every, len(m["all"])))
        faces = m["faces"]
        results.append((f"all {len(faces)} faces on the index loaded ({report['faces']} in the report)",
                        len(faces) == report["faces"] and all(f["loaded"] for f in faces),
                        [f["file"] for f in faces if not f["loaded"]][:5]))
        # The boxes the browser overflows are exactly those `render` reports.
        rendered = json.loads(blades(args.blades, "--format", "json", "render", "--out",
                                     str(out.parent / "gallery-render")))
        said = {(f["file"], field) for f in rendered["faces"] for field in f["overflow"]}
        seen = {(f["file"].split("/")[-1], field) for f in faces for field in f["overflow"]}
        results.append(("the boxes the browser overflows are exactly those `text-overflow` names "
                        f"({len(seen)})", seen == said,
                        {"browser only": sorted(seen - said), "render only": sorted(said - seen)}))
        bad = [(f["file"], f["fonts"]) for f in faces
               if not f["fonts"] or any(s != "loaded" for s in f["fonts"])]
        results.append(("every face's fonts loaded", not bad, bad[:5]))
        queries = {}
        for key, values in m["options"].items():
            for v in values:
                value = f'"{v}"' if " " in v else v
                queries[f"{key}={v}"] = f"{SEARCH_KEY[key]}:{value}"
        queries.update(dict(EXTRA))
        checked = 0
        for f in m["filters"]:
            hash_ = f["hash"]
            from urllib.parse import unquote
            key = unquote(hash_)
            query = queries.get(key)
            if query is None:
                results.append((f"filter {key}: has an oracle query", False, ""))
                continue
            expected = search(args.blades, query)
            got = sorted(f["ids"])
            ok = got == expected and f["count"] == str(len(got))
            checked += 1
            if not ok:
                results.append((f"filter #{key} shows the cards of `blades search '{query}'`", False,
                                {"page only": sorted(set(got) - set(expected)),
                                 "search only": sorted(set(expected) - set(got)),
                                 "count": f["count"]}))
        failed_filters = sum(1 for what, ok, _ in results if what.startswith("filter") and not ok)
        results.append((f"{checked - failed_filters} of {len(m['filters'])} filters show exactly "
                        "the cards `blades search` finds", failed_filters == 0 and checked > 0, ""))
        empty = [f["hash"] for f in m["filters"] if not f["ids"]]
        results.append(("no filter value shows no card", not empty, empty))
        synced = [f["hash"] for f in m["filters"] if "&" not in f["hash"] and unquote(
            f["hash"].split("=", 1)[1]) not in f["selects"]]
        results.append(("each filter's select shows the hash's value", not synced, synced[:5]))
        chosen = m["chosen"]
        results.append(("choosing an element puts it in the hash and filters",
                        chosen["hash"] == f"#element={chosen['value']}" and
                        sorted(chosen["ids"]) == search(args.blades, f"e:{chosen['value']}"),
                        chosen["hash"]))
        for page, text in (("the index", m["text"]), (f"card page {card}", m["card"]["text"])):
            results.append((f"{page}: every element's text is set in the shipped fonts",
                            not text["notShipped"], text["notShipped"]))
            results.append((f"{page}: the shipped fonts loaded ({', '.join(sorted(text['loaded']))})",
                            {"Blades Sans", "Blades Sans JP"} <= set(text["loaded"]), text["loaded"]))
            results.append((f"{page}: none of its {text['chars']} characters falls back to a system font",
                            text["chars"] > 0 and not text["fallback"], text["fallback"][:20]))
        c = m["card"]
        results.append((f"card page {card}: its faces and fonts loaded",
                        bool(c["faces"]) and all(f["loaded"] and f["fonts"] and
                                                 all(s == "loaded" for s in f["fonts"])
                                                 for f in c["faces"]), c["faces"]))
        missing = [link for link in c["links"]
                   if not (out / "cards" / link.split("#")[0]).resolve().is_file()]
        results.append((f"card page {card}: its links lead to files", len(c["links"]) >= 3
                        and not missing, missing or c["links"]))
    shot = out.parent / "gallery.png"
    browser([f"--screenshot={shot}", (out / "index.html").as_uri() + "#rarity=core"])
    results.append((f"screenshot {shot.name}", shot.exists(), ""))
    return chromium.summary(results)


if __name__ == "__main__":
    sys.exit(main())
