"""Files written so that a reader sees the old file or the new one, never a half-written one:
run-folder chunks and manifests, reports, search states, variant themes."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomic(path: Path, data: bytes | memoryview) -> None:
    """Write `data` to a temp file beside `path` (folders made as needed), fsync, then rename
    it over `path`. Whatever fails, the temp file is removed and `path` is unchanged; an
    OSError without a file name gets `path`, so its one-line message names it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except OSError as e:
        if e.errno is not None and (e.filename is None or Path(e.filename) == temp):
            e.filename, e.filename2 = str(path), None
        raise
    finally:
        temp.unlink(missing_ok=True)
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # not every filesystem syncs directories; the rename is still atomic
    finally:
        os.close(fd)
