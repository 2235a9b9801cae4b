"""A legal deck of a pool, from `blades copies list --format json` on stdin:
its first 8 singles, 1 deck box and 2 accessories, by name, as deck YAML."""
import json
import sys

manifest = json.load(sys.stdin)
cards = [c for s in manifest["sets"] for c in s["cards"]]
pick = [c for c in cards if c["kind"] == "single"][:8]
pick += [c for c in cards if c["kind"] == "deck-box"][:1]
pick += [c for c in cards if c["kind"] == "accessory"][:2]
print("cards:")
for c in pick:
    print("  - " + json.dumps(c["name"], ensure_ascii=False))
