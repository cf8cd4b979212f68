"""A run folder's lock: one process at a time writes a run folder (`bangsim run`, `experiment`).

    out/.bangsim.lock   {"pid": 4242, "host": "box", "since": "2026-12-01T11:30:00+00:00"}

The lock is an flock(2) on that file, which the kernel drops when its process ends, however
it ends (a crash, `kill -9`, a lost power supply). So a lock file whose process is gone holds
nothing: the next writer takes it over and says on stderr whose it was (`folder-lock-stale`
in docs/errors.md), and no stale lock ever needs deleting by hand. The file's text says who
holds the lock, so a second writer's one line can name that process (`folder-locked`). The
holder removes the file when it lets go.

A process that holds a folder's lock may take it again (the CLI takes it before it starts a
backend, so a second writer is refused at once; the run folder writer takes it again).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from simcore.errors import UserError

LOCK_FILE = ".bangsim.lock"
_HELD: dict[str, int] = {}  # folders this process holds (real path) -> how many times taken


class FolderLockedError(UserError):
    """Another process is writing the run folder; the line names the folder and that process."""


@contextmanager
def folder_lock(out: Path) -> Iterator[None]:
    """Hold the lock of run folder `out` (made, with its parents, as needed; folders made here
    and still empty are removed on release). Raises FolderLockedError when another process
    holds it; takes over a lock its holder left behind, with a note on stderr."""
    out = Path(out)
    key = os.path.realpath(out)
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield
        finally:
            _HELD[key] -= 1
        return
    made = _make_folders(out)
    try:
        fd = _acquire(out)
    except BaseException:
        _remove_empty(made)
        raise
    _HELD[key] = 1
    try:
        yield
    finally:
        del _HELD[key]
        _release(out / LOCK_FILE, fd)
        _remove_empty(made)


def _acquire(out: Path) -> int | None:
    """The locked file's descriptor (None where there is no flock: not POSIX)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return None
    path = out / LOCK_FILE
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise FolderLockedError(
                f"{out} is being written by another bangsim process ({_holder(path)}); let it "
                "finish (or stop it), then rerun the same command"
            ) from None
        if _same_file(fd, path):
            break
        os.close(fd)  # its holder removed it between our open and our flock: open it anew
    left = os.read(fd, 4096).decode("utf-8", "replace")
    me = {"pid": os.getpid(), "host": socket.gethostname(), "since": _now()}
    os.ftruncate(fd, 0)
    os.pwrite(fd, (json.dumps(me) + "\n").encode(), 0)
    if left.strip():
        print(
            f"note: {out}: took over the lock of {_describe(left)}, a process that ended "
            "without releasing it",
            file=sys.stderr,
        )
    return fd


def _holder(path: Path) -> str:
    """'pid 4242 on box, since ...' from the lock file another process holds."""
    for _ in range(10):  # its holder writes it just after taking the lock
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        if text.strip():
            return _describe(text)
        time.sleep(0.05)
    return f"which has not yet written {path}"


def _describe(text: str) -> str:
    try:
        who = json.loads(text)
        return f"pid {who['pid']} on {who['host']}, since {who['since']}"
    except (ValueError, TypeError, KeyError):
        return f"{LOCK_FILE} {' '.join(text.split())[:80]!r}"


def _same_file(fd: int, path: Path) -> bool:
    try:
        there = os.stat(path)
    except FileNotFoundError:
        return False
    here = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _release(path: Path, fd: int | None) -> None:
    """Remove the lock file, then let go of it (closing releases the flock). A folder made
    read-only meanwhile keeps an empty lock file: it names no one, and locks nothing."""
    if fd is None:
        return
    try:
        path.unlink()
    except OSError:
        try:
            os.ftruncate(fd, 0)
        except OSError:
            pass
    os.close(fd)


def _make_folders(out: Path) -> list[Path]:
    """Make `out` and its missing parents; the folders made, innermost first."""
    missing = []
    probe = out
    while not probe.exists() and probe.parent != probe:
        missing.append(probe)
        probe = probe.parent
    out.mkdir(parents=True, exist_ok=True)
    return missing


def _remove_empty(folders: list[Path]) -> None:
    for folder in folders:  # innermost first; a folder with files in it stays, and its parents
        try:
            folder.rmdir()
        except OSError:
            return


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
