"""Headless Chromium and the pass/fail summary, shared by the browser checks.

Chromium is Debian's `chromium` package (`.ci/run` installs it when missing).
"""

import shutil
import subprocess
import sys


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
