"""Headless Chromium and the pass/fail summary, shared by the browser checks.

Chromium is Debian's `chromium` package (`.ci/run` installs it when missing).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def target_dir():
    """Cargo's build folder: `CARGO_TARGET_DIR` when set (relative to the
    checkout, as cargo reads it), else `target/` in the checkout."""
    named = os.environ.get("CARGO_TARGET_DIR")
    return ROOT / named if named else ROOT / "target"


def executable():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit(f"{sys.argv[0]}: no chromium on PATH (apt-get install chromium)")


def run(args, *, file_access=False, budget_ms=30000, timeout=300, size=None):
    """Runs headless Chromium with `args`. `file_access` lets a page read the
    documents of other `file://` pages (a harness measuring frames needs it);
    a check of what a person opening a file sees must not use it."""
    base = [executable(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--virtual-time-budget={budget_ms}"]
    if file_access:
        base.append("--allow-file-access-from-files")
    if size:
        base.append(f"--window-size={size}")
    return subprocess.run(base + args, capture_output=True, text=True, timeout=timeout)


def summary(results):
    """Prints each (what, ok, detail) and `N passed, M failed`; the exit code."""
    passed = sum(1 for _, ok, _ in results if ok)
    for what, ok, detail in results:
        print(f"{'ok  ' if ok else 'FAIL'} {what}" + ("" if ok else f": {detail}"))
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1
