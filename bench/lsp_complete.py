#!/usr/bin/env python3
"""Completion latency in `blades lsp`, whole process: the server started on a workspace whose
`cards/` is POOL; a deck list beside it (card names) and the pool's first set file (an effect's
words) opened; then RUNS completion requests in each, each timed from the request sent to its
answer received. The first request of each reads the pool's words (reported apart); the median
is over the others. Then RUNS edits of the set file (its first card renamed, or back), each
followed, once its check has published its findings, by one completion of card names in the deck
list: the first request after an edit, which must offer the name as edited.

    bench/lsp_complete.py BLADES POOL [RUNS=50]

BLADES is the binary, POOL a pool folder (`cards`, or one made by `examples/synth`)."""
import os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp import frame, read  # the protocol's framing, as bench/lsp.py reads and writes it

def main():
    binary, pool = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    work = tempfile.mkdtemp()
    try:
        shutil.copytree(pool, os.path.join(work, "cards"))
        cards = os.path.join(work, "cards")
        sets = sorted(
            os.path.join(cards, name) for name in os.listdir(cards)
            if name.endswith(".yaml") and name not in ("keywords.yaml", "characters.yaml", "glossary.yaml")
        )
        server = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        send = lambda m: (server.stdin.write(frame(m)), server.stdin.flush())
        ids = iter(range(1, 1_000_000))

        def request(method, params):
            id = next(ids)
            send({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
            while True:
                message = read(server.stdout)
                if message.get("id") == id:
                    return message

        def open_document(path, text):
            send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": "file://" + path, "languageId": "yaml", "version": 0, "text": text}}})
            # Wait for the check the opening starts, so it is not timed.
            request("blades/no-such-method", {})

        request("initialize", {"processId": None, "rootUri": "file://" + work, "capabilities": {}})
        set_path = sets[0]
        set_text = open(set_path, encoding="utf-8").read()
        # The first letters of a card's name: `Synthetic Card 0 0` in a synthetic pool, where
        # every name starts so (the longest list, cut at 100).
        name = set_text.split("\n    name: ", 1)[1].split("\n", 1)[0]
        deck = os.path.join(work, "deck.txt")
        deck_text = "2x %s\n" % name[:3]
        open_document(deck, deck_text)
        marker = 'effect: "'
        effect_at = set_text.index(marker) + len(marker)
        line = set_text[:effect_at].count("\n")
        column = effect_at - (set_text[:effect_at].rfind("\n") + 1)
        open_document(set_path, set_text)
        for what, path, position in [
            ("card names in a deck list", deck, {"line": 0, "character": len(deck_text) - 1}),
            ("an effect's words in a set file", set_path, {"line": line, "character": column}),
        ]:
            times, count = [], 0
            for _ in range(runs + 1):
                started = time.perf_counter()
                answer = request("textDocument/completion", {
                    "textDocument": {"uri": "file://" + path}, "position": position})
                times.append((time.perf_counter() - started) * 1000)
                count = len(answer["result"]["items"])
            warm = times[1:]
            print(f"{what}: first {times[0]:.1f} ms; median {statistics.median(warm):.2f} ms "
                  f"(min {min(warm):.2f}, max {max(warm):.2f}) over {runs}; {count} items")
        typed = name.split()[0][:3]
        deck_text = "2x %s\n" % typed
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": "file://" + deck, "version": 1}, "contentChanges": [{"text": deck_text}]}})
        request("blades/no-such-method", {})  # its check done
        times = []
        for run in range(runs):
            renamed = run % 2 == 0
            text = set_text.replace("name: " + name, "name: " + name + " Edited", 1) if renamed else set_text
            send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": "file://" + set_path, "version": run + 1},
                "contentChanges": [{"text": text}]}})
            # The edit's check, not timed: its findings published.
            while read(server.stdout).get("method") != "textDocument/publishDiagnostics":
                pass
            started = time.perf_counter()
            answer = request("textDocument/completion", {
                "textDocument": {"uri": "file://" + deck}, "position": {"line": 0, "character": len(deck_text) - 1}})
            times.append((time.perf_counter() - started) * 1000)
            labels = [item["label"] for item in answer["result"]["items"]]
            if renamed and answer["result"]["isIncomplete"] is False and name + " Edited" not in labels:
                raise SystemExit("the edit is not offered: %s" % labels[:5])
        print(f"card names right after an edit of a set file: median {statistics.median(times):.2f} ms "
              f"(min {min(times):.2f}, max {max(times):.2f}) over {runs}")
        request("shutdown", None)
        send({"jsonrpc": "2.0", "method": "exit"})
        server.wait(timeout=60)
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
