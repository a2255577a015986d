"""A small Chrome DevTools Protocol client for the browser tests (one websocket, flattened sessions).

Starts Debian's ``chromium`` headless with ``--remote-debugging-port=0`` and name resolution mapped
to nothing but 127.0.0.1, opens one page target, and records what the page logs and requests:
console calls, uncaught exceptions, browser log entries (e.g. a failed load) and every request URL.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from websockets.sync.client import connect

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-default-apps", "--disable-sync", "--no-first-run",
         "--no-default-browser-check", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
         "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0"]
LISTENING = re.compile(r"DevTools listening on (ws://\S+)")
# an upper bound so that a broken page fails the test instead of hanging it (not a speed check)
HANG_GUARD_SECONDS = 120


def find_browser() -> str | None:
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


class Browser:
    """A headless Chromium and one page in it; ``with Browser(path) as page: …``."""

    def __init__(self, executable: str, width: int = 1400, height: int = 1150):
        self.executable, self.size = executable, (width, height)
        self.events: list[dict] = []
        self._id = 0

    def __enter__(self) -> "Browser":
        self._profile = tempfile.TemporaryDirectory(prefix="leishen-chromium-", ignore_cleanup_errors=True)
        self.process = subprocess.Popen(
            [self.executable, *FLAGS, f"--user-data-dir={self._profile.name}",
             f"--window-size={self.size[0]},{self.size[1]}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            url = self._devtools_url()
            self._stack = contextlib.ExitStack()
            self.socket = self._stack.enter_context(connect(url, max_size=None, open_timeout=HANG_GUARD_SECONDS))
            target = self.call("Target.createTarget", url="about:blank")["targetId"]
            self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            for domain in ("Page", "Runtime", "Network", "Log"):
                self.call(f"{domain}.enable", session=self.session)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        """Close the browser (CDP Browser.close, then the process group it started), then its profile."""
        if getattr(self, "_stack", None) is not None:
            with contextlib.suppress(Exception):
                self.call("Browser.close")
            self._stack.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        with contextlib.suppress(ProcessLookupError):  # helpers (zygote, renderers) still in its group
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.stderr.close()
        self._profile.cleanup()

    def _devtools_url(self) -> str:
        for line in self.process.stderr:
            found = LISTENING.search(line)
            if found:
                return found.group(1)
        raise RuntimeError(f"{self.executable} exited before opening DevTools (code {self.process.wait()})")

    def call(self, method: str, session: str | None = None, **params) -> dict:
        """Send one command and return its result; events that arrive meanwhile are recorded."""
        self._id += 1
        message = {"id": self._id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(self.socket.recv(timeout=HANG_GUARD_SECONDS + 30))
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def page(self, method: str, **params) -> dict:
        return self.call(method, session=self.session, **params)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.page("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def open(self, url: str, ready: str) -> None:
        """Navigate to *url* and wait until the expression *ready* is true in the page."""
        self.page("Page.navigate", url=url)
        self.wait(ready)

    def wait(self, condition: str) -> None:
        """Wait until the JavaScript expression *condition* is true in the page; past the hang guard,
        fail with what the page shows instead."""
        ok = self.evaluate(f"""new Promise(done => {{
            const t0 = Date.now();
            (function poll() {{
              let ok = false; try {{ ok = Boolean({condition}); }} catch (e) {{}}
              if (ok || Date.now() - t0 > {HANG_GUARD_SECONDS * 1000}) done(ok); else setTimeout(poll, 100);
            }})(); }})""")
        if not ok:
            shown = self.evaluate("document.title + ' | ' + (document.body ? document.body.innerText.slice(0, 300) : '')")
            raise AssertionError(f"never true: {condition}; the page shows: {shown}")

    def viewport(self, width: int, height: int, mobile: bool = False) -> None:
        """Lay the page out at *width* × *height* CSS pixels (a phone with *mobile*: its viewport meta applies)."""
        self.page("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=mobile)

    KEYS = {"Tab": 9, "Enter": 13}

    def press(self, key: str) -> None:
        """Press and release *key* (Tab or Enter) as the keyboard would: the page gets real key events."""
        code = self.KEYS[key]
        text = {"Enter": "\r"}.get(key)
        self.page("Input.dispatchKeyEvent", type="keyDown", key=key, code=key, windowsVirtualKeyCode=code,
                  **({"text": text} if text else {}))
        self.page("Input.dispatchKeyEvent", type="keyUp", key=key, code=key, windowsVirtualKeyCode=code)

    def screenshot(self, path: Path) -> Path:
        data = self.page("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    # ---- what the page did

    def requested_urls(self) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]

    def console_errors(self) -> list[str]:
        """Console errors, uncaught exceptions and browser log errors (a failed load, a CSP refusal …)."""
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p["args"]))
            elif e["method"] == "Runtime.exceptionThrown":
                details = p["exceptionDetails"]
                out.append(details.get("exception", {}).get("description") or details.get("text", ""))
            elif e["method"] == "Log.entryAdded" and p["entry"]["level"] == "error":
                out.append(f"{p['entry']['text']} {p['entry'].get('url', '')}")
            elif e["method"] == "Network.loadingFailed" and not p.get("canceled"):
                out.append(f"load failed: {p.get('errorText')}")
        return out

    def drain(self) -> None:
        """Record the events that arrived since the last command."""
        self.evaluate("1")


def save_screenshot(page: Browser, folder: Path, name: str) -> Path:
    """Save the page as *folder*/*name*, and also into $LEISHEN_SCREENSHOTS when set."""
    shot = page.screenshot(folder / name)
    extra = os.environ.get("LEISHEN_SCREENSHOTS")
    if extra:
        shutil.copy(shot, Path(extra) / name)
    return shot
