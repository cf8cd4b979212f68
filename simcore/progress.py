"""Progress bars for long runs: a redrawn bar on a terminal, a line every few seconds where
stderr is not one (a log file, CI, a pipe), so that a log holds readable lines instead of
hundreds of carriage-return redraws."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from tqdm import tqdm

LOG_INTERVAL = 5.0  # seconds between progress lines where stderr is not a terminal


class LogLines:
    """A file for tqdm that writes each of its redraws as one line."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        line = text.replace("\r", "").replace("\x1b[A", "").strip()
        if line:
            self.stream.write(line + "\n")

    def flush(self) -> None:
        self.stream.flush()


def progress_bar(**options: Any) -> tqdm:
    """tqdm(**options) on stderr: redrawn on a terminal; elsewhere one line per LOG_INTERVAL
    seconds (and one at the end)."""
    stream = sys.stderr
    if options.get("disable") or stream.isatty():
        return tqdm(**options)
    options.pop("dynamic_ncols", None)
    return tqdm(file=LogLines(stream), mininterval=LOG_INTERVAL, ncols=100, **options)
