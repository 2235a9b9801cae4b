#!/usr/bin/env python3
"""`blades serve` against issue 29's speed targets, whole process: the server started on POOL
(`blades --cards POOL serve --port 0`), then

(a) start: from the process started to its listening line, and to its first answer;
(b) search as you type: every prefix of a few words as typed (`s`, `sy`, `syn`, …) and a few
    search-language queries, RUNS times each: the server's time (its `Server-Timing` header,
    `app`, and the stages it names) and the client's wall time (connect to last byte), and the
    answer's size;
(c) deck legality: `POST /api/deck/check` of a legal and an illegal deck of the pool's own
    cards, RUNS times each, server time;
(d) first page load: headless Chromium (as `tests/browser/serve.py` drives it), a fresh
    profile each run: from navigation start to the first search's answer drawn (the page's
    `data-ready`, set after its first search is shown), by the page's own clock, cold (empty
    cache) and again in the same browser (warm); and the bytes the page fetched;
(e) memory: the server's peak resident memory (`VmHWM`) and what it holds (`VmRSS`) after all
    that, beside the peak of
    `/usr/bin/time -v blades build` on a copy of the pool (no `dist/`, no cache) and of a
    no-change build after it.

    bench/serve.py BLADES POOL [RUNS=5] [--no-build]

BLADES is the binary (a release build for figures worth quoting), POOL a pool folder (one made
by `examples/synth`). `--no-build` skips (e)'s two builds (a minute or more at 100,000 cards).
Nothing is written into POOL: the builds run on a copy in a temporary folder.
"""
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from serve import Browser  # noqa: E402  (the browser harness of the app's own checks)

WORDS = ["synthetic", "card 12", "gain"]
QUERIES = ["", "e:fire star>=3", "kind:deck-box", "t:mage -e:dark", 'o:"gain 3 rp"', "card 7 5"]


def prefixes(word):
    return [word[:n] for n in range(1, len(word) + 1)]


def start(binary, pool):
    began = time.perf_counter()
    server = subprocess.Popen([binary, "--cards", pool, "--format", "json", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    listening = time.perf_counter() - began
    if not line:
        sys.exit(f"blades serve did not start: {server.stderr.read()[-2000:]}")
    url = urllib.parse.urlparse(json.loads(line)["url"])
    client = Client(url.hostname, url.port)
    client.get("/api/formats")
    answered = time.perf_counter() - began
    return server, client, url.geturl(), listening, answered


class Client:
    """One connection per request (the server closes each)."""

    def __init__(self, host, port):
        self.host, self.port = host, port

    def request(self, method, path, body=None):
        began = time.perf_counter()
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        headers = {"Content-Type": "text/plain; charset=utf-8"} if body is not None else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        wall = (time.perf_counter() - began) * 1000
        connection.close()
        return {"status": response.status, "wall": wall, "bytes": len(data), "body": data,
                "stages": stages(response.getheader("Server-Timing"))}

    def get(self, path):
        return self.request("GET", path)


def stages(header):
    """`search;dur=1.2, app;dur=3.4` as {stage: milliseconds}."""
    found = {}
    for part in (header or "").split(","):
        name, _, dur = part.strip().partition(";dur=")
        if name and dur:
            found[name] = float(dur)
    return found


def summary(values):
    if not values:
        return "—"
    return f"{statistics.median(values):.1f} ms (max {max(values):.1f})"


def search_path(query):
    return "/api/search?" + urllib.parse.urlencode({"q": query, "lang": "en"})


def measure_searches(client, runs):
    typed, queries = [], {}
    for _ in range(runs):
        for word in WORDS:
            for prefix in prefixes(word):
                answer = client.get(search_path(prefix))
                assert answer["status"] == 200, (prefix, answer["body"][:200])
                typed.append(answer)
        for query in QUERIES:
            answer = client.get(search_path(query))
            assert answer["status"] == 200, (query, answer["body"][:200])
            queries.setdefault(query, []).append(answer)
    return typed, queries


def deck_texts(client):
    """A legal deck of the pool's own cards (8 singles, 1 deck box, 2 accessories, as
    `bench/legal-deck.py` picks them) and an illegal one (a ninth single, a second box)."""
    def first(query, n):
        answer = json.loads(client.get(search_path(query))["body"])
        return [card["id"] for card in answer["cards"][:n]]
    singles, boxes, accessories = first("kind:single", 9), first("kind:deck-box", 2), first("kind:accessory", 2)
    legal = singles[:8] + boxes[:1] + accessories
    illegal = singles + boxes + accessories
    return "\n".join(legal) + "\n", "\n".join(illegal) + "\n"


def measure_decks(client, runs):
    legal, illegal = deck_texts(client)
    found = {}
    for name, text in (("legal", legal), ("illegal", illegal)):
        for _ in range(runs):
            answer = client.request("POST", "/api/deck/check", text.encode())
            assert answer["status"] == 200, answer["body"][:300]
            found.setdefault(name, []).append(answer)
        report = json.loads(found[name][0]["body"])["report"]
        found[name + "-violations"] = len(report.get("violations", []))
    return found


# The moment the page's first search is drawn (`data-ready` set), by its own clock.
READY_PROBE = """
new MutationObserver((_, observer) => {
  if (document.body && document.body.dataset.ready) {
    window.__readyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-ready']});
"""

LOADED = """(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fetched = performance.getEntriesByType('resource');
  return {ready: window.__readyAt, state: document.body.dataset.ready,
          dom: nav ? nav.domContentLoadedEventEnd : null,
          bytes: fetched.reduce((n, r) => n + r.transferSize, nav ? nav.transferSize : 0),
          files: fetched.length + 1};
})()"""


def page_load(url, timeout=120):
    """Cold and warm loads of the page in a fresh browser, by the page's clock."""
    browser = Browser()
    try:
        page = browser.page()
        page.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        page.call("Page.addScriptToEvaluateOnNewDocument", {"source": READY_PROBE})
        loads = []
        for _ in ("cold", "warm"):
            page.call("Page.navigate", {"url": url})
            time.sleep(0.1)
            page.wait("window.__readyAt !== undefined", timeout=timeout)
            loads.append(page.eval(LOADED))
        return loads
    finally:
        browser.close()


def memory_kb(pid, field):
    """`VmHWM` (the peak) or `VmRSS` (now) of a process, in kB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def build_peaks(binary, pool):
    """`/usr/bin/time -v blades build`'s peak (kB) and wall time, cold then no-change, on a copy."""
    work = tempfile.mkdtemp(prefix="blades-serve-bench-")
    try:
        copy = os.path.join(work, "cards")
        shutil.copytree(pool, copy, ignore=shutil.ignore_patterns("dist", ".blades*"))
        peaks = []
        for _ in ("cold", "no change"):
            began = time.perf_counter()
            run = subprocess.run(["/usr/bin/time", "-v", binary, "--quiet", "build"], cwd=work,
                                 capture_output=True, text=True)
            wall = time.perf_counter() - began
            peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
            if run.returncode != 0 or not peak:
                sys.exit(f"blades build failed: {run.stderr[-2000:]}")
            peaks.append((int(peak.group(1)), wall))
        return peaks
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    no_build = "--no-build" in sys.argv
    binary, pool = os.path.abspath(args[0]), os.path.abspath(args[1])
    runs = int(args[2]) if len(args) > 2 else 5
    server, client, url, listening, answered = start(binary, pool)
    try:
        print(f"(a) start: listening after {listening:.2f} s, first answer after {answered:.2f} s")

        typed, queries = measure_searches(client, runs)
        app = [a["stages"].get("app", 0) for a in typed]
        print(f"(b) search as you type, {len(typed)} prefixes of {WORDS} ({runs} runs): "
              f"server {summary(app)}, wall {summary([a['wall'] for a in typed])}, "
              f"answer median {statistics.median(a['bytes'] for a in typed) / 1000:.0f} kB")
        worst = max(typed, key=lambda a: a["stages"].get("app", 0))
        print(f"    slowest prefix's stages: {worst['stages']} ({worst['bytes'] / 1000:.0f} kB)")
        for query, answers in queries.items():
            count = json.loads(answers[0]["body"])["count"]
            stage_names = [s for s in answers[0]["stages"] if s != "app"]
            parts = ", ".join(f"{s} {statistics.median(a['stages'].get(s, 0) for a in answers):.1f}"
                              for s in stage_names)
            print(f"    `{query}` ({count} cards): server {summary([a['stages'].get('app', 0) for a in answers])}"
                  f" [{parts}], wall {summary([a['wall'] for a in answers])}, {answers[0]['bytes'] / 1000:.0f} kB")

        decks = measure_decks(client, runs)
        for name in ("legal", "illegal"):
            answers = decks[name]
            stage_names = [s for s in answers[0]["stages"] if s != "app"]
            parts = ", ".join(f"{s} {statistics.median(a['stages'].get(s, 0) for a in answers):.2f}"
                              for s in stage_names)
            print(f"(c) deck check, {name} ({decks[name + '-violations']} violations): "
                  f"server {summary([a['stages'].get('app', 0) for a in answers])} [{parts}], "
                  f"wall {summary([a['wall'] for a in answers])}")

        loads = [page_load(url) for _ in range(min(runs, 3))]
        for i, kind in enumerate(("cold", "warm")):
            ready = [load[i]["ready"] for load in loads]
            print(f"(d) first page load, {kind}: first search drawn after {summary(ready)}; "
                  f"DOMContentLoaded {statistics.median(load[i]['dom'] for load in loads):.0f} ms; "
                  f"{loads[0][i]['files']} files, {loads[0][i]['bytes'] / 1000:.0f} kB transferred")

        served_peak = memory_kb(server.pid, "VmHWM")
        served_now = memory_kb(server.pid, "VmRSS")
    finally:
        server.kill()
        server.wait()
    line = f"(e) memory: server peak {served_peak / 1024:.0f} MiB, resident after the runs {served_now / 1024:.0f} MiB"
    if not no_build:
        (cold, cold_wall), (kept, kept_wall) = build_peaks(binary, pool)
        line += (f"; blades build cold {cold / 1024:.0f} MiB ({cold_wall:.0f} s), no change "
                 f"{kept / 1024:.0f} MiB ({kept_wall:.0f} s); server / cold build "
                 f"{served_peak / cold:.2f}, server / no-change build {served_peak / kept:.2f}, "
                 f"resident after the runs / cold build {served_now / cold:.2f}")
    print(line)


if __name__ == "__main__":
    main()
