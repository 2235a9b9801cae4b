#!/usr/bin/env python3
"""Edit to published diagnostics in `blades lsp`, whole process: the server started on a
workspace whose `cards/` is POOL, one set file opened, then RUNS edits (a typo put in, taken out),
each timed from the didChange sent to its publishDiagnostics received; the server's own
account of where the median edit's time went (its verbose `$/logTrace`) is printed too.

    bench/lsp.py BLADES POOL [RUNS=20] [watch]

With `watch` the client watches the pool's files for the server (dynamic registration of
`workspace/didChangeWatchedFiles`, as VS Code, Neovim and Helix do), so the server trusts its
last listing of the pool instead of listing it again at every edit.

BLADES is the binary (target/release/blades for figures worth quoting), POOL a pool folder
(`cards` for the built-in pool, or one made by `examples/synth`)."""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)

def read(out):
    length = None
    while True:
        line = out.readline()
        if not line:
            raise SystemExit("the server closed its output")
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(out.read(length))

def peak_memory(pid):
    """The process's peak resident memory, from Linux's /proc (else unknown)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"

def main():
    binary, pool = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    # `watch`: a client that watches the pool's files for the server (as
    # VS Code, Neovim and Helix do), so the pool is not listed at each edit.
    watch = len(sys.argv) > 4 and sys.argv[4] == "watch"
    work = tempfile.mkdtemp()
    try:
        shutil.copytree(pool, os.path.join(work, "cards"))
        sets = sorted(
            os.path.join(root, name)
            for root, dirs, files in os.walk(os.path.join(work, "cards"))
            for name in files
            if name.endswith(".yaml") and "locales" not in root and "phrases" not in root
            and "formats" not in root and name not in ("keywords.yaml", "characters.yaml", "glossary.yaml")
        )
        path = sets[0]
        text = open(path, encoding="utf-8").read()
        uri = "file://" + path
        server = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        send = lambda m: (server.stdin.write(frame(m)), server.stdin.flush())
        capabilities = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}} if watch else {}
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": "file://" + work, "capabilities": capabilities,
            "trace": "verbose"}})
        read(server.stdout)
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        if watch:
            while (message := read(server.stdout)).get("method") != "client/registerCapability":
                pass
            send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 0, "text": text}}})
        while read(server.stdout).get("method") != "$/logTrace":
            pass
        times, traces = [], []
        for run in range(runs):
            edited = text.replace("kind:", "kidn:", 1) if run % 2 == 0 else text
            started = time.perf_counter()
            send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": run + 1},
                "contentChanges": [{"text": edited}]}})
            while read(server.stdout).get("method") != "textDocument/publishDiagnostics":
                pass
            times.append(time.perf_counter() - started)
            # The server's own account of the check follows its findings.
            while (message := read(server.stdout)).get("method") != "$/logTrace":
                pass
            traces.append(message["params"]["verbose"])
        peak = peak_memory(server.pid)
        send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        read(server.stdout)
        send({"jsonrpc": "2.0", "method": "exit"})
        server.wait()
        ms = [t * 1000 for t in times]
        print(f"edit to diagnostics, {pool}: median {statistics.median(ms):.1f} ms "
              f"(min {min(ms):.1f}, max {max(ms):.1f}) over {runs} edits")
        print("the server's account of the median edit:", traces[ms.index(sorted(ms)[len(ms) // 2])])
        print(f"the server's peak memory (VmHWM): {peak}")
    finally:
        shutil.rmtree(work)

if __name__ == "__main__":
    main()
