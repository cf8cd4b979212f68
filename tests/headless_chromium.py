"""Load a local page in headless Chromium over the DevTools pipe (no extra dependencies).

`open_page(path, screenshot, script)` starts Chromium with --remote-debugging-pipe (it reads
commands on fd 3 and writes replies on fd 4, JSON messages ended by NUL), opens the page, waits for its load event,
and returns what a test checks: every <img> (complete, naturalWidth), console errors and
uncaught exceptions, log errors (failed loads), and the value of `script` (a JavaScript
expression run once the page has loaded, e.g. clicks on the page and what they changed);
it saves a full-page screenshot.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars",
)  # fmt: skip
IMAGES = (
    "JSON.stringify(Array.from(document.images).map(i => "
    "({alt: i.alt, complete: i.complete, width: i.naturalWidth})))"
)
MAX_SHOT_HEIGHT = 20_000  # px: a full page, within what a PNG viewer opens


def chromium() -> str | None:
    """The Chromium binary tests use, or None where it is not installed."""
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")


@dataclass
class PageResult:
    images: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # console errors, exceptions, log errors
    title: str = ""
    value: Any = None  # what `script` returned


class _Pipe:
    """The DevTools protocol over two pipes: send a command, wait for its reply, keep events."""

    def __init__(self, write_fd: int, read_fd: int, pid: int):
        self.write_fd, self.read_fd, self.pid = write_fd, read_fd, pid
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, session: str | None = None, timeout: float = 30, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        reply = self.wait(lambda m: m.get("id") == self.next_id, timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def wait(self, match, timeout: float) -> dict[str, Any]:
        for i, event in enumerate(self.events):
            if match(event):
                return self.events.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(raw)
                if match(message):
                    return message
                self.events.append(message)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no reply from Chromium")
            ready, _, _ = select.select([self.read_fd], [], [], left)
            if ready:
                chunk = os.read(self.read_fd, 1 << 20)
                if not chunk:
                    raise RuntimeError(f"Chromium (pid {self.pid}) closed the DevTools pipe")
                self.buffer += chunk


def open_page(
    page: Path,
    screenshot: Path | None = None,
    script: str | None = None,
    timeout: float = 60,
    width: int = 1280,
) -> PageResult:
    """Open `page` (a local file) in headless Chromium, its window `width` px wide, and
    report images and errors."""
    binary = chromium()
    if binary is None:
        raise FileNotFoundError("chromium is not installed")
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()
    with tempfile.TemporaryDirectory(prefix="bangsim-chromium-") as profile:
        args = [binary, *FLAGS, f"--window-size={width},900", f"--user-data-dir={profile}",
                "--remote-debugging-pipe"]  # fmt: skip
        pid = _spawn(args, to_browser_r, from_browser_w)
        os.close(to_browser_r)
        os.close(from_browser_w)
        pipe = _Pipe(to_browser_w, from_browser_r, pid)
        try:
            return _visit(pipe, page, screenshot, script, timeout)
        finally:
            try:
                pipe.send("Browser.close", timeout=5)
            except (RuntimeError, TimeoutError, OSError):
                pass
            _reap(pid, timeout=10)
            os.close(to_browser_w)
            os.close(from_browser_r)


def _spawn(args: list[str], commands_fd: int, replies_fd: int) -> int:
    """Start Chromium with `commands_fd` as its fd 3 and `replies_fd` as its fd 4.

    posix_spawn's file actions do the wiring, so no Python runs between fork and exec (a
    preexec_fn could deadlock with polars' threads). The ends first move above fd 9 so the
    two dup2s cannot overwrite each other.
    """
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (commands_fd, replies_fd)]
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_DUP2, high[0], 3),  # dup2 clears close-on-exec on the copy
        (os.POSIX_SPAWN_DUP2, high[1], 4),
    ]
    try:
        return os.posix_spawn(args[0], args, os.environ, file_actions=actions)
    finally:
        for fd in high:
            os.close(fd)


def _reap(pid: int, timeout: float) -> None:
    """Wait for Chromium to exit; kill it after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.waitpid(pid, os.WNOHANG)[0]:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _visit(
    pipe: _Pipe, page: Path, screenshot: Path | None, script: str | None, timeout: float
) -> PageResult:
    target = pipe.send("Target.createTarget", url="about:blank")["targetId"]
    session = pipe.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        pipe.send(f"{domain}.enable", session)
    pipe.send("Page.navigate", session, url=Path(page).resolve().as_uri())
    pipe.wait(lambda m: m.get("method") == "Page.loadEventFired", timeout)
    result = PageResult()
    images = pipe.send("Runtime.evaluate", session, expression=IMAGES, returnByValue=True)
    result.images = json.loads(images["result"]["value"])
    title = pipe.send("Runtime.evaluate", session, expression="document.title", returnByValue=True)
    result.title = title["result"]["value"]
    if script is not None:
        value = pipe.send("Runtime.evaluate", session, expression=script, returnByValue=True)
        result.value = value["result"].get("value")
    if screenshot is not None:
        size = pipe.send("Page.getLayoutMetrics", session)["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "scale": 1,
                "height": min(size["height"], MAX_SHOT_HEIGHT)}  # fmt: skip
        shot = pipe.send("Page.captureScreenshot", session, timeout=timeout, format="png",
                         clip=clip, captureBeyondViewport=True)  # fmt: skip
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.write_bytes(base64.b64decode(shot["data"]))
    pipe.send("Runtime.evaluate", session, expression="0")  # flush events sent before this
    for event in pipe.events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            result.errors.append(f"console.{params['type']}: {args}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            result.errors.append(f"exception: {text}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            result.errors.append(f"log: {entry.get('text')} {entry.get('url', '')}".strip())
    return result
