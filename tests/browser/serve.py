#!/usr/bin/env python3
"""`blades serve` in a real browser (headless Chromium), outside `cargo test`.

    python3 tests/browser/serve.py [--blades PATH]

It starts `blades serve --port 0` on the built-in pool, drives the app in
Chromium over the DevTools protocol (on a pipe: no other package needed),
and checks, against the command line as the oracle:

- typing a query lists exactly the ids `blades search --ids` prints, in its
  order, with the rows drawn only where the list is scrolled (a list of
  every card keeps far fewer rows in the page than it has), the search
  answering a first page of rows and the list fetching the rest as it
  scrolls;
- nine singles added by clicks and the keyboard show the violations
  `blades deck check --format json` finds for the same list, word for word;
  removing one clears them, as the command agrees;
- the deck is kept in the browser (opened again, the page has it), the
  export is `blades deck export`'s list, a pasted list replaces the deck
  and one that cannot be read says why and leaves it;
- comparing the deck with a pasted earlier version shows the change
  `blades deck diff --format json` finds, and the same deck in another
  order none;
- the cards of the deck a pasted binder lacks are listed;
- the statistics panel shows `blades deck stats`' count and collections;
- the print button opens the deck's sheet, the cards `blades print --deck`
  lays out, in its order;
- the faces view draws the library's faces of the cards found;
- the share link, opened in a page that kept nothing, shows the same deck;
- the browser's language chooses the app's (Japanese here), and the
  Japanese page has no English game word of the official glossary left;
  its lists (the deck, a comparison, what a binder lacks, the statistics'
  collections, the collection checker's picks) name the cards by the
  Japanese names `blades search --format json` gives;
- the table tools (`#/collection`, `#/trade`, `#/score`), in English and
  Japanese at 375 px: a score sheet filled by typing ranks the players as
  `blades score` does, two singles picked by search are judged as
  `collection check` judges them, a trade is weighed as `trade check`
  weighs it; none is wider than the screen and the Japanese pages have no
  English game word left;
- at a 375-px-wide viewport the page is no wider than the screen.

It prints `N passed, M failed` and exits 1 on a failure. Chromium is
Debian's `chromium` package.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chromium

ROOT = Path(__file__).resolve().parents[2]


class Browser:
    """Chromium over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
    it reads NUL-ended JSON messages on fd 3 and writes them on fd 4)."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="blades-serve-chromium-")
        to_chrome, self.write_end = os.pipe()
        self.read_end, from_chrome = os.pipe()

        def fds():
            a, b = os.dup(to_chrome), os.dup(from_chrome)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [chromium.executable(), "--headless", "--no-sandbox", "--disable-gpu",
             "--hide-scrollbars", "--remote-debugging-pipe", "--no-first-run",
             f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)
        os.close(to_chrome)
        os.close(from_chrome)
        self.buffer = b""
        self.next_id = 0

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write_end, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
        raise TimeoutError(method)

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.read_end, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def page(self):
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, session)

    def close(self):
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    def __init__(self, browser, session):
        self.browser = browser
        self.session = session
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method, params=None):
        return self.browser.call(method, params, self.session)

    def eval(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, condition, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.eval(condition):
                    return True
            except RuntimeError:
                pass
            time.sleep(0.05)
        raise TimeoutError(condition)

    def open(self, url):
        self.call("Page.navigate", {"url": url})
        time.sleep(0.2)
        try:
            self.wait("document.readyState === 'complete' && document.body && document.body.dataset.ready === 'yes'")
        except TimeoutError:
            said = self.eval("document.getElementById('problem') && document.getElementById('problem').textContent")
            raise TimeoutError(f"{url} did not start: {said!r}") from None
        self.settle()

    def settle(self):
        """Waits until no search and no deck check is in flight."""
        self.wait("window.performance && document.body.dataset.ready === 'yes'")
        time.sleep(0.4)

    def type(self, selector, text):
        self.eval(f"(() => {{ const q = document.querySelector({json.dumps(selector)}); q.focus(); q.select(); }})()")
        self.call("Input.insertText", {"text": text})
        self.wait(f"document.body.dataset.searched === {json.dumps(text)}")
        time.sleep(0.1)

    def key(self, key, code=None):
        code = code or key
        params = {"key": key, "code": code, "windowsVirtualKeyCode": {"Enter": 13, "ArrowDown": 40}.get(key, 0)}
        self.call("Input.dispatchKeyEvent", {"type": "keyDown", **params})
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", **params})


# Every row id the list holds, read by scrolling it from top to bottom (only
# the rows in view are in the page; rows not yet fetched are drawn empty and
# waited for), the most rows it held at once, and how many times it waited.
LISTED = """(async () => {
  const view = document.querySelector('#results .viewport');
  const ids = new Map(); let most = 0; let waited = 0;
  view.scrollTop = 0;
  for (;;) {
    await new Promise(r => requestAnimationFrame(() => r()));
    for (let n = 0; n < 200 && view.querySelector('.row.pending'); n++) {
      waited++;
      await new Promise(r => setTimeout(r, 25));
    }
    const rows = view.querySelectorAll('.row[data-id]');
    most = Math.max(most, rows.length);
    for (const row of rows) ids.set(Number(row.dataset.index), row.dataset.id);
    if (view.scrollTop + view.clientHeight >= view.scrollHeight - 1) break;
    const before = view.scrollTop;
    view.scrollTop += Math.max(1, view.clientHeight / 2);
    view.dispatchEvent(new Event('scroll'));
    if (view.scrollTop === before) break;
  }
  const count = ids.size;
  return {ids: [...Array(count).keys()].map(i => ids.get(i)), most, waited};
})()"""


def blades(binary, cwd, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def search_ids(binary, cwd, query):
    run = blades(binary, cwd, "search", "--ids", "--", query)
    return run.stdout.split()


def english_terms():
    """The English forms of the official glossary's terms (not the icons,
    which the Japanese edition prints as they are: STAR, RP)."""
    terms = set()
    for line in (ROOT / "data/glossary.yaml").read_text(encoding="utf-8").splitlines():
        found = re.match(r"\s*- \{en: \[(.*?)\], ja:", line)
        if not found or "category: icon" in line:
            continue
        for word in found.group(1).split(","):
            word = word.strip().strip('"')
            if word:
                terms.add(word)
    return sorted(terms)


def japanese_names(binary, cwd):
    """Each card's name in Japanese as `blades search --format json` gives
    it (the English where a card has none), by id."""
    run = blades(binary, cwd, "--format", "json", "search", "--", "")
    return {c["id"]: c.get("names", {}).get("ja", c["name"]) for c in json.loads(run.stdout)["cards"]}


def sheet_cards(binary, cwd, deck, lang):
    """The card ids, in order, of the sheet `blades print --deck` writes."""
    out = cwd / "deck-sheet"
    run = blades(binary, cwd, "print", "--deck", deck, "--lang", lang, "--out", str(out))
    if run.returncode != 0:
        return run.stderr
    html = (out / f"deck.a4.{lang}.html").read_text(encoding="utf-8")
    return re.findall(r'<div class="card" data-card="([^"]+)"', html)


def opened_page(browser, part, timeout=30):
    """The page target a click opened whose address holds `part`, attached."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for target in browser.call("Target.getTargets")["targetInfos"]:
            if target["type"] == "page" and part in target["url"]:
                session = browser.call("Target.attachToTarget",
                                       {"targetId": target["targetId"], "flatten": True})["sessionId"]
                return Page(browser, session)
        time.sleep(0.1)
    raise TimeoutError(f"no page opened at {part}")


def start_server(binary, cwd):
    server = subprocess.Popen([binary, "--quiet", "serve", "--port", "0"], cwd=cwd,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    found = re.match(r"listening on (http://127\.0\.0\.1:\d+/)", line)
    if not found:
        server.kill()
        sys.exit(f"blades serve did not start: {line!r}")
    return server, found.group(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--blades", default=str(chromium.target_dir() / "debug/blades"))
    args = parser.parse_args()
    binary = str(Path(args.blades).resolve())
    work = Path(tempfile.mkdtemp(prefix="blades-serve-"))  # no ./cards: the built-in pool
    server, url = start_server(binary, work)
    browser = Browser()
    results = []
    try:
        check(browser, binary, work, url, results)
    except (RuntimeError, TimeoutError) as error:
        results.append(("the checks ran to their end", False, f"{type(error).__name__}: {error}"))
    finally:
        browser.close()
        server.kill()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)
    return chromium.summary(results)


def check(browser, binary, work, url, results):
    page = browser.page()
    page.call("Emulation.setDeviceMetricsOverride",
              {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    page.open(url)
    results.append(("an English browser gets the English app",
                    page.eval("document.documentElement.lang") == "en", page.eval("document.documentElement.lang")))

    # Search: the ids the command prints, as typed.
    for query in ["kind:single", "e:fire star>=3", "属性:炎 or t:construct"]:
        page.type("#q", query)
        listed = page.eval(LISTED)
        expected = search_ids(binary, work, query)
        results.append((f"`{query}` lists the {len(expected)} ids `blades search --ids` prints",
                        listed["ids"] == expected, {"page": listed["ids"][:8], "cli": expected[:8]}))
    page.type("#q", "")
    every = page.eval(LISTED)
    expected = search_ids(binary, work, "")
    results.append((f"every card listed ({len(expected)}), few rows in the page at once ({every['most']})",
                    every["ids"] == expected and every["most"] < len(expected), every["most"]))
    # The search answered a first page; the rest came as the list scrolled.
    first = page.eval("""(async () => {
      const answer = await (await fetch('/api/search?q=&lang=en&limit=' + (await import('/assets/list.js')).PAGE)).json();
      return {count: answer.count, rows: answer.cards.length};
    })()""")
    results.append((f"the first answer holds a page of rows ({first['rows']} of {first['count']}), "
                    f"the rest fetched as scrolled (waited {every['waited']} times)",
                    first["rows"] < first["count"] == len(expected), first))
    bad = "e:fyre"
    page.type("#q", bad)
    problem = page.eval("document.getElementById('problem').hidden ? '' : document.getElementById('problem').textContent")
    results.append(("a query that cannot be read says the search language's words",
                     "fyre" in problem and "fire" in problem, problem))

    # A deck of nine singles: eight by clicks, the ninth by the keyboard.
    page.eval("document.getElementById('clear').click()")
    page.settle()
    page.type("#q", "kind:single")
    singles = search_ids(binary, work, "kind:single")[:9]
    for card in singles[:8]:
        page.eval(f"document.querySelector('#results [data-add={json.dumps(card)}]').click()")
    page.settle()
    page.eval("document.getElementById('q').focus()")
    page.key("ArrowDown")
    for _ in range(8):
        page.key("ArrowDown")
    focused = page.eval("document.activeElement.dataset.id")
    page.key("Enter")
    page.settle()
    page.wait("document.querySelectorAll('#entries li[data-id]').length === 9")
    deck = page.eval("[...document.querySelectorAll('#entries li[data-id]')].map(li => li.dataset.id)")
    results.append(("nine singles added by click and by Enter", deck == singles and focused == singles[8],
                    {"deck": deck, "focused": focused}))
    listing = work / "nine.txt"
    listing.write_text("".join(f"1 {card}\n" for card in deck), encoding="utf-8")
    run = blades(binary, work, "--format", "json", "deck", "check", str(listing))
    said = [v["message"] for v in json.loads(run.stdout)["violations"]]
    shown = page.eval("[...document.querySelectorAll('#violations li')].map(li => li.textContent)")
    results.append(("the violations shown are `deck check`'s", shown == said and len(said) > 0,
                    {"page": shown, "cli": said}))
    page.eval("[...document.querySelectorAll('#entries li[data-id] .remove')].pop().click()")
    page.settle()
    page.wait("document.querySelectorAll('#entries li[data-id]').length === 8")
    shown = page.eval("[...document.querySelectorAll('#violations li')].map(li => li.textContent)")
    listing.write_text("".join(f"1 {card}\n" for card in deck[:8]), encoding="utf-8")
    run = blades(binary, work, "--format", "json", "deck", "check", str(listing))
    results.append(("removing one clears them, as `deck check` agrees",
                    shown == [] and json.loads(run.stdout)["legal"], shown))

    # Kept in the browser: the page opened again without a link has the deck.
    page.open(url)
    page.wait("document.querySelectorAll('#entries li[data-id]').length === 8")
    kept = page.eval("[...document.querySelectorAll('#entries li[data-id]')].map(li => li.dataset.id)")
    results.append(("the deck is kept in the browser", kept == deck[:8], kept))

    # Export is `deck export`'s list; a pasted list is read as `deck check` reads it.
    exported = page.eval("document.getElementById('export').value")
    run = blades(binary, work, "deck", "export", str(listing))
    expected_list = "".join(l + "\n" for l in run.stdout.splitlines() if not l.startswith("# share code"))
    results.append(("the export is `deck export`'s list", exported == expected_list,
                    {"page": exported[:120], "cli": expected_list[:120]}))
    pasted = "# a list as players paste it\n2x " + singles[0] + "\n"
    page.eval(f"document.getElementById('paste').value = {json.dumps(pasted)}")
    page.eval("document.getElementById('read').click()")
    page.wait("document.querySelectorAll('#entries li[data-id]').length === 2")
    shown = page.eval("[...document.querySelectorAll('#violations li')].map(li => li.dataset.rule)")
    results.append(("a pasted list replaces the deck, checked", shown == ["duplicate-card"], shown))
    page.eval("document.getElementById('paste').value = 'no such card at all'")
    page.eval("document.getElementById('read').click()")
    page.wait("document.querySelectorAll('#problems li').length > 0")
    problems = page.eval("[...document.querySelectorAll('#problems li')].map(li => li.textContent)")
    still = page.eval("document.querySelectorAll('#entries li[data-id]').length")
    results.append(("a list that cannot be read says why and keeps the deck",
                    still == 2 and any("no such card at all" in p for p in problems), problems))
    page.eval(f"document.getElementById('paste').value = {json.dumps(''.join(f'1 {c}' + chr(10) for c in deck[:8]))}")
    page.eval("document.getElementById('read').click()")
    page.wait("document.querySelectorAll('#entries li[data-id]').length === 8")

    # Compared with an earlier version pasted: the change is `deck diff`'s.
    earlier = "".join(f"1 {c}\n" for c in deck[:7]) + f"1 {singles[8]}\n"
    page.eval("document.getElementById('compare-box').open = true")
    page.eval("document.getElementById('compare-with').value = ''")
    page.eval(f"document.getElementById('compare-paste').value = {json.dumps(earlier)}")
    page.eval("document.getElementById('compare').click()")
    page.wait("document.querySelectorAll('#compare-lines li').length > 0")
    shown = page.eval("[...document.querySelectorAll('#compare-lines li')].map(li => li.textContent)")
    (work / "earlier.txt").write_text(earlier, encoding="utf-8")
    run = blades(binary, work, "--format", "json", "deck", "diff", str(work / "earlier.txt"), str(listing))
    diff = json.loads(run.stdout)
    expected = [f"+ {c['count']} {c['name']}" for z in diff["zones"] for c in z["added"]] + \
        [f"− {c['count']} {c['name']}" for z in diff["zones"] for c in z["removed"]]
    results.append(("a deck compared with a pasted version shows `deck diff`'s change",
                    run.returncode == 1 and shown == expected and len(expected) == 2,
                    {"page": shown, "cli": expected}))
    page.eval(f"document.getElementById('compare-paste').value = {json.dumps(''.join(f'1 {c}' + chr(10) for c in reversed(deck[:8])))}")
    page.eval("document.getElementById('compare').click()")
    page.wait("document.querySelectorAll('#compare-lines li').length === 0")
    verdict = page.eval("document.getElementById('compare-verdict').className")
    results.append(("the same deck in another order is no change", "good" in verdict, verdict))

    # Missing from a pasted binder: the deck's cards it does not hold.
    page.eval("document.getElementById('missing-box').open = true")
    page.eval(f"document.getElementById('missing-paste').value = {json.dumps(''.join(f'1 {c}' + chr(10) for c in deck[:6]))}")
    page.eval("document.getElementById('missing-run').click()")
    page.wait("document.querySelectorAll('#missing-lines li').length > 0")
    lacking = page.eval("[...document.querySelectorAll('#missing-lines li')].map(li => li.dataset.id)")
    results.append(("the deck's cards missing from a pasted binder are listed",
                    sorted(lacking) == sorted(deck[6:8]), {"page": lacking, "expected": deck[6:8]}))
    page.eval("document.getElementById('missing-box').open = false")

    # The statistics panel: `deck stats`' numbers.
    page.eval("document.getElementById('stats-box').open = true")
    page.wait("document.querySelectorAll('#stats dt').length > 0")
    shown = page.eval("[...document.querySelectorAll('#stats dd')].map(dd => dd.textContent)")
    run = blades(binary, work, "--format", "json", "deck", "stats", str(listing))
    stats = json.loads(run.stdout)
    results.append(("the statistics are `deck stats`'",
                    shown[0] == str(stats["cards"]) and sum(1 for d in shown if "VP" in d) == len(stats["collections"]),
                    {"page": shown, "cli": stats["cards"]}))
    page.eval("document.getElementById('stats-box').open = false")

    # The print sheet: the button opens the deck's sheet, `print --deck`'s.
    code = page.eval("document.getElementById('share').getAttribute('href')").split("/")[-1].split("?")[0]
    expected = sheet_cards(binary, work, code, "en")
    page.call("Runtime.evaluate", {"expression": "document.getElementById('sheet').click()", "userGesture": True})
    sheet = opened_page(browser, "/api/deck/sheet")
    sheet.wait("document.readyState === 'complete' && document.querySelectorAll('.sheet').length > 0")
    printed = sheet.eval("[...document.querySelectorAll('.card')].map(c => c.dataset.card)")
    faces = sheet.eval("document.querySelectorAll('.card > svg[data-card]').length")
    results.append(("the print button opens the deck's sheet, as `print --deck` writes it",
                    printed == expected and sorted(printed) == sorted(deck[:8]) and faces == len(printed),
                    {"page": printed, "cli": expected, "faces": faces}))

    # Faces: the library's SVG for the first cards found.
    page.type("#q", "e:fire star>=3")
    page.eval("document.getElementById('as-faces').click()")
    fire = search_ids(binary, work, "e:fire star>=3")
    page.wait(f"document.querySelectorAll('#faces svg[data-card]').length === {min(len(fire), 24)}")
    drawn = page.eval("[...document.querySelectorAll('#faces svg[data-card]')].map(s => s.dataset.card)")
    results.append(("the faces view draws the cards found", drawn == fire[:24], drawn[:5]))
    page.eval("document.getElementById('as-table').click()")

    # The share link, in a page that kept nothing.
    link = page.eval("document.getElementById('share').href")
    results.append(("the page's address is the share link", page.eval("location.href") == link, link))
    page.eval("localStorage.clear()")
    other = browser.page()
    other.call("Emulation.setDeviceMetricsOverride",
               {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    other.open(link)
    other.wait("document.querySelectorAll('#entries li[data-id]').length === 8")
    opened = other.eval("[...document.querySelectorAll('#entries li[data-id]')].map(li => li.dataset.id)")
    results.append(("the share link opens the same deck", sorted(opened) == sorted(deck[:8]), opened))

    # Japanese, as the browser's language, and no English game word left.
    page.eval("localStorage.clear()")
    japanese = browser.page()
    japanese.call("Network.enable")
    japanese.call("Network.setUserAgentOverride", {"userAgent": "Mozilla/5.0 blades-check", "acceptLanguage": "ja-JP,ja"})
    japanese.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    japanese.open(link)
    japanese.wait("document.querySelectorAll('#entries li[data-id]').length === 8")
    japanese.type("#q", "kind:single")
    # Nine again, so that the violations show too.
    japanese.eval(f"document.querySelector('#results [data-add={json.dumps(singles[8])}]').click()")
    japanese.settle()
    # The statistics and the comparison open, so that their words are read too.
    japanese.eval("document.getElementById('stats-box').open = true")
    japanese.wait("document.querySelectorAll('#stats dt').length > 5")
    japanese.eval("document.getElementById('compare-box').open = true")
    japanese.eval(f"document.getElementById('compare-paste').value = {json.dumps(singles[0])}")
    japanese.eval("document.getElementById('compare').click()")
    japanese.wait("document.querySelectorAll('#compare-lines li').length > 0")
    japanese.eval("document.getElementById('missing-box').open = true")
    japanese.eval(f"document.getElementById('missing-paste').value = {json.dumps(''.join(f'1 {c}' + chr(10) for c in deck[:6]))}")
    japanese.eval("document.getElementById('missing-run').click()")
    japanese.wait("document.querySelectorAll('#missing-lines li').length > 0")
    # Every list names its cards in Japanese: the deck, the change, what
    # is missing, the statistics' collections.
    ja = japanese_names(binary, work)
    named = japanese.eval("""({
      entries: [...document.querySelectorAll('#entries li[data-id]')].map(li => [li.dataset.id, li.querySelector('a').textContent]),
      compare: [...document.querySelectorAll('#compare-lines li[data-id]')].map(li => [li.dataset.id, li.textContent]),
      missing: [...document.querySelectorAll('#missing-lines li[data-id]')].map(li => [li.dataset.id, li.textContent]),
      stats: [...document.querySelectorAll('#stats dd')].map(dd => dd.textContent).join(' '),
    })""")
    wrong = [f"{where}: {id} {text!r}" for where in ["entries", "compare", "missing"]
             for id, text in named[where] if ja.get(id, "?") not in text]
    listing.write_text("".join(f"1 {c}\n" for c in deck[:8]) + f"1 {singles[8]}\n", encoding="utf-8")
    stats = json.loads(blades(binary, work, "--format", "json", "deck", "stats", str(listing)).stdout)
    wrong += [f"stats: {id}" for c in stats["collections"] for id in c["cards"] if ja[id] not in named["stats"]]
    results.append(("the Japanese deck view lists its cards by their Japanese names",
                    not wrong and all(named[w] for w in ["entries", "compare", "missing"])
                    and any(ja[id] != id for id, _ in named["entries"]),
                    {"wrong": wrong[:6], "counts": {w: len(named[w]) for w in ["entries", "compare", "missing"]}}))
    lang = japanese.eval("document.documentElement.lang")
    results.append(("a Japanese browser gets the Japanese app", lang == "ja", lang))
    text = japanese.eval("""(() => {
      const copy = document.body.cloneNode(true);
      // Ids are names for tools, not words of the page.
      for (const id of copy.querySelectorAll('.c0')) id.remove();
      document.documentElement.append(copy); const text = copy.innerText; copy.remove();
      return text;
    })()""")
    left = [term for term in english_terms() if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text)]
    violations = japanese.eval("document.querySelectorAll('#violations li').length")
    results.append(("the Japanese page has no English game word left", not left and violations > 0,
                    {"left": left, "violations": violations}))

    # The table tools, in English then in Japanese.
    check_tools(browser, binary, work, url, results, singles)

    # A phone's width.
    for at in [japanese, page]:
        at.call("Emulation.setDeviceMetricsOverride",
                {"width": 375, "height": 800, "deviceScaleFactor": 2, "mobile": True})
        at.open(link)
        at.type("#q", "")
        width = at.eval("document.documentElement.scrollWidth")
        results.append((f"at 375 px the page is {width} px wide ({at.eval('document.documentElement.lang')})",
                        width <= 375, width))
    page.eval(f"location.hash = '#/card/{singles[0]}'")
    page.wait("!document.getElementById('card').hidden && document.querySelector('#card svg') !== null")
    width = page.eval("document.documentElement.scrollWidth")
    results.append((f"a card's page with its face at 375 px is {width} px wide", width <= 375, width))


def fill(page, selector, text):
    """Types `text` into a field as a player would (its old text replaced)."""
    page.eval(f"(() => {{ const f = document.querySelector({json.dumps(selector)}); f.focus(); f.select(); }})()")
    page.call("Input.insertText", {"text": text})


# A three-player game, as the score sheet's form takes it and as a file.
SHEET = [
    ("Ada", {"round-1": 1, "round-2": 2, "final": 1}, "5, 8", 13, "Ben: 2"),
    ("Ben", {"round-1": 2, "round-2": 1, "final": 1}, "6, 7", 22, "Ada: 4, Cid: 7"),
    ("Cid", {"round-1": 3, "round-2": 3, "final": 3}, "4", 3, "Ada: 1"),
]


def sheet_yaml():
    lines = ["mode: standard", "players:"]
    for name, places, collections, dollars, friendship in SHEET:
        lines.append(f"  - name: {name}")
        lines.append("    placings: {" + ", ".join(f"{k}: {v}" for k, v in places.items()) + "}")
        lines.append(f"    collections: [{collections}]")
        lines.append(f"    dollars: {dollars}")
        if friendship:
            lines.append("    friendship: {" + friendship + "}")
    return "\n".join(lines) + "\n"


def check_tools(browser, binary, work, url, results, singles):
    sheet = work / "sheet.yaml"
    sheet.write_text(sheet_yaml(), encoding="utf-8")
    run = blades(binary, work, "--format", "json", "score", str(sheet))
    expected = [[str(p["rank"]), p["name"], str(p["total"])] for p in json.loads(run.stdout)["players"]]
    for lang in ["en", "ja"]:
        page = browser.page()
        if lang == "ja":
            page.call("Network.enable")
            page.call("Network.setUserAgentOverride",
                      {"userAgent": "Mozilla/5.0 blades-check", "acceptLanguage": "ja-JP,ja"})
        page.call("Emulation.setDeviceMetricsOverride",
                  {"width": 375, "height": 800, "deviceScaleFactor": 2, "mobile": True})
        page.open(url + "#/score")
        page.wait("!document.getElementById('tool-score').hidden")
        page.eval("document.getElementById('score-add').click()")
        page.wait("document.querySelectorAll('#score-players .player').length === 3")
        for i, (name, places, collections, dollars, friendship) in enumerate(SHEET):
            at = f"#score-players .player:nth-of-type({i + 1})"
            fill(page, f"{at} [data-key=name]", name)
            for tournament, place in places.items():
                fill(page, f"{at} [data-tournament={tournament}]", str(place))
            fill(page, f"{at} [data-key=collections]", collections)
            fill(page, f"{at} [data-key=dollars]", str(dollars))
            fill(page, f"{at} [data-key=friendship]", friendship)
        page.eval("document.getElementById('score-run').click()")
        page.wait("document.querySelectorAll('#score-ranking tr.ranked').length === 3")
        ranked = page.eval("[...document.querySelectorAll('#score-ranking tr.ranked')]"
                           ".map(tr => [...tr.cells].map(td => td.textContent))")
        results.append((f"a score sheet filled by typing ranks as `blades score` ({lang})",
                        ranked == expected, {"page": ranked, "cli": expected}))
        width = page.eval("document.documentElement.scrollWidth")
        results.append((f"the score sheet at 375 px is {width} px wide ({lang})", width <= 375, width))
        text = page.eval("document.body.innerText")

        # The collection checker: two singles picked by search, checked as the command does.
        page.eval("location.hash = '#/collection'")
        page.wait("!document.getElementById('tool-collection').hidden")
        fill(page, "#col-q", "kind:single")
        for card in singles[:2]:
            page.wait(f"document.querySelector('#col-found [data-add={json.dumps(card)}]') !== null")
            page.eval(f"document.querySelector('#col-found [data-add={json.dumps(card)}]').click()")
            page.settle()
        page.wait("document.querySelectorAll('#col-picked li').length === 2 && "
                  "document.getElementById('col-verdict').className !== 'verdict'")
        if lang == "ja":
            ja = japanese_names(binary, work)
            picked = page.eval("[...document.querySelectorAll('#col-picked li')].map(li => [li.dataset.id, li.firstChild.textContent])")
            results.append(("the collection checker lists the cards picked by their Japanese names",
                            picked == [[c, ja[c]] for c in singles[:2]], picked))
        listing = work / "two.yaml"
        listing.write_text("cards: [" + ", ".join(singles[:2]) + "]\n", encoding="utf-8")
        run = blades(binary, work, "--format", "json", "collection", "check", str(listing))
        report = json.loads(run.stdout)
        rules = page.eval("[...document.querySelectorAll('#col-violations li')].map(li => li.dataset.rule)")
        verdict = page.eval("document.getElementById('col-verdict').className")
        results.append((f"the collection checker says what `collection check` says ({lang})",
                        rules == [v["rule"] for v in report["violations"]]
                        and ("good" in verdict) == report["legal"], {"page": rules, "cli": report["violations"]}))
        width = page.eval("document.documentElement.scrollWidth")
        results.append((f"the collection checker at 375 px is {width} px wide ({lang})", width <= 375, width))
        text += "\n" + page.eval("document.body.innerText")

        # The trade helper: one single against two, as `trade check` weighs them.
        page.eval("location.hash = '#/trade'")
        page.wait("!document.getElementById('tool-trade').hidden")
        fill(page, "#trade-a-cards", singles[0])
        fill(page, "#trade-b-cards", singles[1] + "\n" + singles[2])
        fill(page, "#trade-a-dollars", "3")
        page.eval("document.getElementById('trade-check').click()")
        page.wait("document.querySelectorAll('#trade-values li').length === 3")
        trade = work / "trade.yaml"
        trade.write_text(f"a: {{cards: [{singles[0]}], dollars: 3}}\nb: {{cards: [{singles[1]}, {singles[2]}]}}\n",
                         encoding="utf-8")
        run = blades(binary, work, "--format", "json", "trade", "check", str(trade))
        report = json.loads(run.stdout)
        values = page.eval("[...document.querySelectorAll('#trade-values li')].map(li => li.textContent)")
        amount = report["balance"]["amount"] if report["balance"] else None
        results.append((f"the trade helper weighs the sides as `trade check` ({lang})",
                        str(report["a"]["value"]) in values[0] and str(report["b"]["value"]) in values[1]
                        and (amount is None or str(amount) in values[2]), {"page": values, "cli": report["difference"]}))
        width = page.eval("document.documentElement.scrollWidth")
        results.append((f"the trade helper at 375 px is {width} px wide ({lang})", width <= 375, width))
        text += "\n" + page.eval("document.body.innerText")
        if lang == "ja":
            left = [term for term in english_terms() if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text)]
            results.append(("the Japanese table tools have no English game word left", not left, left))


if __name__ == "__main__":
    sys.exit(main())
