#!/usr/bin/env python3
"""Hover latency in `blades lsp`, whole process: the server started on a workspace whose `cards/`
is POOL and whose `deck.txt` names one of its cards, then RUNS hovers on that deck line and on
the card's id in its set file, each timed from the request sent to its answer received. The first
hover reads the pool and builds it (the index the next ones reuse); it is reported apart.

    bench/lsp_hover.py BLADES POOL [RUNS=50] [--edits]

With `--edits`, the set file is open and each hover on the deck line follows an edit of it (the
hovered card renamed, or back): the edit's diagnostics are waited for (the check, which
bench/lsp.py times), then the hover is timed from its request to its answer, which must show the
card's name as edited: the first request after an edit. The server's peak memory is printed.

BLADES is the binary (target/release/blades for figures worth quoting), POOL a pool folder
(`cards` for the built-in pool, or one made by `examples/synth`)."""
import os, re, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp import frame, peak_memory, read  # the framing bench/lsp.py speaks

def first_set(cards):
    for root, dirs, files in sorted(os.walk(cards)):
        dirs.sort()
        if any(part in ("locales", "phrases", "formats") for part in root.split(os.sep)):
            continue
        for name in sorted(files):
            if name.endswith(".yaml") and name not in ("keywords.yaml", "characters.yaml", "glossary.yaml"):
                return os.path.join(root, name)
    raise SystemExit("no set file in the pool")

def main():
    binary, pool = sys.argv[1], sys.argv[2]
    edits = "--edits" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--edits"]
    runs = int(args[2]) if len(args) > 2 else 50
    work = tempfile.mkdtemp()
    try:
        cards = os.path.join(work, "cards")
        shutil.copytree(pool, cards)
        set_path = first_set(cards)
        set_text = open(set_path, encoding="utf-8").read()
        found = re.search(r"^\s*-?\s*id:\s*([a-z0-9-]+)\s*$", set_text.split("cards:", 1)[1], re.M)
        card_id = found.group(1)
        id_offset = set_text.index("id: " + card_id) + 4
        id_line = set_text[:id_offset].count("\n")
        id_column = len(set_text[set_text.rfind("\n", 0, id_offset) + 1:id_offset].encode("utf-16-le")) // 2
        deck = os.path.join(work, "deck.txt")
        with open(deck, "w", encoding="utf-8") as f:
            f.write("2 %s\n" % card_id)
        server = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        send = lambda m: (server.stdin.write(frame(m)), server.stdin.flush())
        send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "processId": None, "rootUri": None, "capabilities": {},
            "workspaceFolders": [{"uri": "file://" + work, "name": "bench"}]}})
        read(server.stdout)
        places = [("file://" + deck, 0, 3), ("file://" + set_path, id_line, id_column + 1)]
        if edits:
            places = [places[0]]
            send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": "file://" + set_path, "languageId": "yaml", "version": 0, "text": set_text}}})
        name = re.search(r"^\s*name:\s*(.+?)\s*$", set_text[id_offset:], re.M).group(1)
        renamed = set_text[:id_offset] + set_text[id_offset:].replace("name: " + name, "name: " + name + " Edited", 1)
        times, first, checks = [], None, []
        for run in range(runs + 1):
            uri, line, column = places[run % len(places)]
            shown = name
            if edits:
                edited = renamed if run % 2 else set_text
                shown = name + " Edited" if run % 2 else name
                sent = time.perf_counter()
                send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": "file://" + set_path, "version": run + 1},
                    "contentChanges": [{"text": edited}]}})
                # The edit's check, not timed here: its findings published.
                answer = read(server.stdout)
                while answer.get("method") != "textDocument/publishDiagnostics":
                    answer = read(server.stdout)
                checks.append((time.perf_counter() - sent) * 1000)
            started = time.perf_counter()
            send({"jsonrpc": "2.0", "id": run + 1, "method": "textDocument/hover", "params": {
                "textDocument": {"uri": uri}, "position": {"line": line, "character": column}}})
            answer = read(server.stdout)
            while answer.get("id") != run + 1:
                answer = read(server.stdout)
            elapsed = (time.perf_counter() - started) * 1000
            if not answer.get("result"):
                raise SystemExit("no hover: %s" % answer)
            if edits and shown not in answer["result"]["contents"]["value"]:
                raise SystemExit("the hover does not show the edit (%s): %s" % (shown, answer))
            if first is None:
                first = elapsed
            else:
                times.append(elapsed)
        memory = peak_memory(server.pid)
        send({"jsonrpc": "2.0", "id": runs + 2, "method": "shutdown"})
        read(server.stdout)
        send({"jsonrpc": "2.0", "method": "exit"})
        server.wait()
        what = "hover after an edit" if edits else "hover"
        print(f"{what}, {pool}: first (reads and builds the pool) {first:.0f} ms; then median "
              f"{statistics.median(times):.1f} ms (min {min(times):.1f}, max {max(times):.1f}) "
              f"over {runs} hovers; server's peak memory {memory}")
        if checks:
            print(f"  (each edit's check, to its diagnostics: median {statistics.median(checks):.0f} ms)")
    finally:
        shutil.rmtree(work)

main()
