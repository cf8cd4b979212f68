"""Progress bars for long runs: a redrawn bar on a terminal, a line every few seconds where
stderr is not one (a log file, CI, a pipe), so that a log holds readable lines instead of
hundreds of carriage-return redraws; a bar done within those seconds writes nothing there."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from tqdm import tqdm

LOG_INTERVAL = 5.0  # seconds between progress lines where stderr is not a terminal


class LogLines:
    """A file for tqdm that writes each of its redraws as one line, from LOG_INTERVAL
    seconds on: a bar that finishes sooner writes nothing (a short command's output, or its
    one-line error, stays as it was)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.start = time.monotonic()

    def write(self, text: str) -> None:
        line = text.replace("\r", "").replace("\x1b[A", "").strip()
        if line and time.monotonic() - self.start >= LOG_INTERVAL:
            self.stream.write(line + "\n")

    def flush(self) -> None:
        self.stream.flush()


def progress_bar(**options: Any) -> tqdm:
    """tqdm(**options) on stderr: redrawn on a terminal; elsewhere one line per LOG_INTERVAL
    seconds (and one at the end) once it has run that long."""
    stream = sys.stderr
    if options.get("disable") or stream.isatty():
        return tqdm(**options)
    options.pop("dynamic_ncols", None)
    return tqdm(file=LogLines(stream), mininterval=LOG_INTERVAL, ncols=100, **options)
