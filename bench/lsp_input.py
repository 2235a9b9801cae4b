#!/usr/bin/env python3
"""Edit to published diagnostics for a player's deck in `blades lsp`, whole process: the server
started on a workspace whose `cards/` is POOL, a deck of five of its cards opened as
`decks/bench.txt` (its first check makes what the deck checks need of the pool: the database,
formats and card names), then RUNS edits of the deck of two sorts (a card put in twice, a broken
rule; a card misspelt, so the check looks for suggestions among all the pool's names), each
put right after, each timed from the didChange sent to the deck's
publishDiagnostics received; last, a set file opened and a card renamed in it, timed until the
deck's findings come again (the pool checked, then its ground made again).

    bench/lsp_input.py BLADES POOL [RUNS=20]

BLADES is the binary (a release build for figures worth quoting), POOL a pool folder (`cards`
for the built-in pool, or one made by `examples/synth`)."""
import os, re, shutil, statistics, subprocess, sys, tempfile, time

from lsp import frame, read, peak_memory

def sets_of(cards):
    return sorted(
        os.path.join(root, name)
        for root, dirs, files in os.walk(cards)
        for name in files
        if name.endswith(".yaml") and "locales" not in root and "phrases" not in root
        and "formats" not in root and name not in ("keywords.yaml", "characters.yaml", "glossary.yaml")
    )

def main():
    binary, pool = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    work = tempfile.mkdtemp()
    try:
        cards = os.path.join(work, "cards")
        shutil.copytree(pool, cards)
        set_path = sets_of(cards)[0]
        set_text = open(set_path, encoding="utf-8").read()
        names = re.findall(r"^    name: (.+)$", set_text, re.M)[:5]
        deck = "".join(f"{name}\n" for name in names)
        os.makedirs(os.path.join(work, "decks"))
        deck_path = os.path.join(work, "decks", "bench.txt")
        deck_uri, set_uri = "file://" + deck_path, "file://" + set_path
        server = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        send = lambda m: (server.stdin.write(frame(m)), server.stdin.flush())
        def published(uri):
            while True:
                message = read(server.stdout)
                if message.get("method") == "textDocument/publishDiagnostics" \
                        and message["params"]["uri"] == uri:
                    return message["params"]["diagnostics"]
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": "file://" + work, "capabilities": {}}})
        read(server.stdout)
        started = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": deck_uri, "languageId": "plaintext", "version": 0, "text": deck}}})
        first = published(deck_uri)
        opened = (time.perf_counter() - started) * 1000
        assert first == [], first
        version = 0
        def timed(edit):
            """Each edit, then the deck put back: the median of the edits' times."""
            nonlocal version
            times = []
            for run in range(runs):
                for text, expected in ((edit, 1), (deck, 0)):
                    version += 1
                    started = time.perf_counter()
                    send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                        "textDocument": {"uri": deck_uri, "version": version},
                        "contentChanges": [{"text": text}]}})
                    found = published(deck_uri)
                    if text is edit:
                        times.append((time.perf_counter() - started) * 1000)
                    assert len(found) == expected, found
            return times
        # A card twice (a broken rule), and a card misspelt (an unknown card,
        # whose suggestions search every name of the pool).
        twice = timed(deck + names[0] + "\n")
        misspelt = timed(deck.replace(names[0], names[0][:-1] + "q", 1))
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": set_uri, "languageId": "yaml", "version": 0, "text": set_text}}})
        published(deck_uri)
        renamed = set_text.replace(f"name: {names[0]}\n", f"name: {names[0]} Renamed\n", 1)
        started = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": set_uri, "version": 1}, "contentChanges": [{"text": renamed}]}})
        found = published(deck_uri)
        rename = (time.perf_counter() - started) * 1000
        assert len(found) == 1, found
        peak = peak_memory(server.pid)
        send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        read(server.stdout)
        send({"jsonrpc": "2.0", "method": "exit"})
        server.wait()
        print(f"deck opened, the pool's ground made, {pool}: {opened:.1f} ms")
        for what, times in (("a card put in twice", twice), ("a card misspelt", misspelt)):
            print(f"edit of the deck to its diagnostics, {what}: median {statistics.median(times):.1f} ms "
                  f"(min {min(times):.1f}, max {max(times):.1f}) over {runs} edits")
        print(f"a card renamed in an open set file to the deck's diagnostics: {rename:.1f} ms")
        print(f"the server's peak memory (VmHWM): {peak}")
    finally:
        shutil.rmtree(work)

if __name__ == "__main__":
    main()
