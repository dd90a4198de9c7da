#!/usr/bin/env python3
"""browser.py -- open a report's index.html in headless Chromium and check it
as a reader's browser shows it.

    browser.py PAGE.html SCREENSHOT.png [--expect-text TEXT]... [--at ID]

Starts `chromium --headless` with remote debugging on a loopback port and
drives it over the DevTools protocol (a WebSocket; the client below uses the
standard library only). Fails (exit 1, one line per problem) when:
  - an <img> did not load (missing file, not a PNG),
  - a link to "#id" has no element with that id,
  - the console shows an error or a warning, a script throws, or a dialog
    opens (a label "<script>alert(1)</script>" that ran would open one),
  - a --expect-text string is not in the page's visible text.
Writes a screenshot of the page's top (1280 x 2400 CSS px) to SCREENSHOT,
or, with --at ID, of the page scrolled to that element. With --first-screen
the viewport is 1280 x 900 (what a laptop shows before any scrolling), the
screenshot is of that, and it also fails unless the element right after
the page's title (<h1>) is the answer table (table#answer-table), its top
inside the viewport and its first data row too.
Exit 77 (skipped) when chromium is not installed."""

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

TIMEOUT_S = 60


class WebSocket:
    """The client side of RFC 6455, text frames only: enough for DevTools."""

    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=TIMEOUT_S)
        key = base64.b64encode(os.urandom(16)).decode()
        req = (f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\n"
               "Upgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("DevTools closed the connection during the handshake")
            head += chunk
        head, self.buf = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("DevTools refused the WebSocket: " + head.decode(errors="replace"))

    def send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            hdr = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            hdr = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            hdr = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(hdr + mask + body)

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            if b1 & 0x80:
                mask = self._read(4)
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(self._read(n)))
            else:
                payload = self._read(n)
            op = b0 & 0x0F
            if op == 0x8:
                raise RuntimeError("DevTools closed the WebSocket")
            if op in (0x9, 0xA):
                continue
            msg += payload
            if b0 & 0x80:
                return msg.decode()


class Page:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == mid:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout_s=TIMEOUT_S):
        end = time.time() + timeout_s
        for ev in self.events:
            if ev.get("method") == method:
                return ev
        while time.time() < end:
            m = json.loads(self.ws.recv())
            self.events.append(m)
            if m.get("method") == method:
                return m
        raise RuntimeError(f"no {method} within {timeout_s} s")

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"checker script failed: {r['exceptionDetails']}")
        return r["result"].get("value")


def start_chromium(profile):
    exe = shutil.which("chromium") or shutil.which("chromium-headless-shell")
    if exe is None:
        print("browser: skipped: chromium is not installed (apt-get install chromium)")
        sys.exit(77)
    args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--mute-audio",
            "--hide-scrollbars", "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0", f"--user-data-dir={profile}",
            "--window-size=1280,2400", "about:blank"]
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    end = time.time() + TIMEOUT_S
    port = None
    seen = []
    while time.time() < end and port is None:
        line = proc.stderr.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        seen.append(line.rstrip())
        m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
        if m:
            port = int(m.group(1))
    if port is None:
        proc.kill()
        sys.exit("browser: chromium did not start its DevTools server:\n  " +
                 "\n  ".join(seen[-10:]))
    # keep reading stderr so chromium never blocks on a full pipe
    import threading
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    return proc, port


CHECKS = r"""
(() => {
  const bad_img = Array.from(document.images)
    .filter(i => !i.complete || i.naturalWidth === 0)
    .map(i => i.getAttribute('src'));
  const bad_anchor = Array.from(document.querySelectorAll('a[href^="#"]'))
    .map(a => decodeURIComponent(a.getAttribute('href').slice(1)))
    .filter(id => id !== '' && document.getElementById(id) === null);
  const ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id);
  const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
  return {images: document.images.length, bad_img: bad_img,
          anchors: document.querySelectorAll('a[href^="#"]').length,
          bad_anchor: Array.from(new Set(bad_anchor)), dup_ids: Array.from(new Set(dup)),
          scripts: document.scripts.length, text: document.body.innerText};
})()
"""


def main():
    argv = sys.argv[1:]
    expect = []
    at = None
    first = "--first-screen" in argv
    argv = [a for a in argv if a != "--first-screen"]
    if "--at" in argv:
        i = argv.index("--at")
        at = argv[i + 1]
        del argv[i:i + 2]
    while "--expect-text" in argv:
        i = argv.index("--expect-text")
        expect.append(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 2:
        sys.exit(__doc__)
    page_path, shot = os.path.abspath(argv[0]), argv[1]
    if not os.path.isfile(page_path):
        sys.exit(f"browser: {page_path}: no such file: run cowtail report first")
    profile = tempfile.mkdtemp(prefix="cow-chromium-")
    proc, port = start_chromium(profile)
    problems = []
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
            targets = json.load(r)
        target = next(t for t in targets if t.get("type") == "page")
        pg = Page(WebSocket(target["webSocketDebuggerUrl"]))
        for dom in ("Page", "Runtime", "Log"):
            pg.call(dom + ".enable")
        pg.call("Emulation.setDeviceMetricsOverride", width=1280, height=900 if first else 2400,
                deviceScaleFactor=1, mobile=False)
        pg.events.clear()
        pg.call("Page.navigate", url="file://" + urllib.parse.quote(page_path))
        pg.wait_event("Page.loadEventFired")
        time.sleep(0.5)  # late console messages
        res = pg.js(CHECKS)
        if first:
            fs = pg.js("""(() => {
                const h = document.querySelector('h1');
                const n = h ? h.nextElementSibling : null;
                const row = document.querySelector('#answer-table tbody tr');
                return {after: n ? n.tagName.toLowerCase() + '#' + n.id : 'none',
                        top: n ? n.getBoundingClientRect().top : -1,
                        row: row ? row.getBoundingClientRect().bottom : -1,
                        h: window.innerHeight};
            })()""")
            if fs["after"] != "table#answer-table":
                problems.append(f"first screen: after the title comes {fs['after']}, "
                                "not the answer table")
            elif not (0 <= fs["top"] < fs["h"] and 0 < fs["row"] <= fs["h"]):
                problems.append(f"first screen: the answer table's first row is not in the "
                                f"{fs['h']} px viewport (top {fs['top']}, row ends {fs['row']})")
        if at is not None:
            if not pg.js("(() => { const e = document.getElementById(%s); "
                         "if (e) e.scrollIntoView(); return e !== null; })()" % json.dumps(at)):
                problems.append(f"--at {at}: no element has that id")
            time.sleep(0.3)
        shot_b64 = pg.call("Page.captureScreenshot", format="png")["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(shot_b64))
        # events that arrived while the calls above waited
        for ev in pg.events:
            m, p = ev.get("method"), ev.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                problems.append("console %s: %s" % (p["type"], " ".join(
                    str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
            elif m == "Runtime.exceptionThrown":
                problems.append("script error: %s" % p.get("exceptionDetails", {}).get("text"))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                en = p["entry"]
                problems.append("console %s: %s %s" % (en["level"], en.get("text"),
                                                       en.get("url", "")))
            elif m == "Page.javascriptDialogOpening":
                problems.append("a dialog opened: %s" % p.get("message"))
                pg.call("Page.handleJavaScriptDialog", accept=True)
        for src in res["bad_img"]:
            problems.append(f"image did not load: {src}")
        for a in res["bad_anchor"]:
            problems.append(f"link to #{a}: no element has that id")
        for a in res["dup_ids"]:
            problems.append(f"id {a} is used twice")
        if res["scripts"]:
            problems.append(f"{res['scripts']} script elements in the page (it has none)")
        for t in expect:
            if t not in res["text"]:
                problems.append(f"expected text not shown: {t!r}")
        print(f"browser: {page_path}: {res['images']} images loaded, {res['anchors']} "
              f"#links resolved; screenshot {shot}")
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)
    for p in problems:
        print(f"browser: {page_path}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
