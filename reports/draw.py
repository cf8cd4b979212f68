"""Charts drawn as PNG, here or by worker processes beside this one.

A chart to draw is a drawing: a function of reports.charts and its data, bound as a
functools.partial, so that it pickles. `draw_all` draws a list of them in order, by
`workers` processes when asked: this one and `workers - 1` others, each of those
`python -m reports.draw`, which reads pickled drawings from stdin, one at a time, and writes
each one's PNG bytes, pickled, to stdout until stdin ends. Charts a worker leaves undrawn
(it could not start, or stopped) are drawn here. The workers are subprocesses of their own
rather than multiprocessing's, which would import the caller's main module again in each.
Matplotlib draws the same bytes in any process.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO

from matplotlib.figure import Figure

from reports import charts

Drawing = Callable[[], Figure]  # a chart's function and its data (a partial: it pickles)
ROOT = Path(__file__).resolve().parent.parent  # the folder `reports` is imported from


def png_of(drawing: Drawing) -> bytes:
    return charts.png(drawing())


def draw_all(drawings: list[Drawing], workers: int = 1, tick: Callable[[], None] = lambda: None):
    """Each drawing's PNG bytes, in order: drawn here (workers < 2), or by this process and
    `workers - 1` worker processes, each taking the next drawing not yet taken, and here
    what a stopped worker left. `tick` is called once per chart drawn (here and from the
    threads that feed the workers)."""
    if workers < 2:
        out = []
        for d in drawings:
            out.append(png_of(d))
            tick()
        return out
    pngs: list[bytes | None] = [None] * len(drawings)
    taken = iter(range(len(drawings)))
    lock = threading.Lock()

    def next_index() -> int | None:
        with lock:
            return next(taken, None)

    def feed() -> None:
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        try:
            with subprocess.Popen(
                [sys.executable, "-m", "reports.draw"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env={**os.environ, "PYTHONPATH": path},
            ) as worker:
                try:
                    while (i := next_index()) is not None:
                        pickle.dump(drawings[i], worker.stdin)
                        worker.stdin.flush()
                        pngs[i] = pickle.load(worker.stdout)
                        tick()
                finally:
                    worker.stdin.close()
        except (OSError, EOFError, pickle.UnpicklingError):
            return  # a worker that could not start or stopped: the rest are drawn here

    with ThreadPoolExecutor(workers - 1) as pool:
        fed = [pool.submit(feed) for _ in range(workers - 1)]
        while (i := next_index()) is not None:  # this process draws beside them
            pngs[i] = png_of(drawings[i])
            tick()
        for done in fed:
            done.result()
    for i, png in enumerate(pngs):  # what a stopped worker left: drawn here
        if png is None:
            pngs[i] = png_of(drawings[i])
            tick()
    return pngs


def serve(inp: BinaryIO, out: BinaryIO) -> None:
    """A worker's loop: a drawing in, its PNG out, until the input ends."""
    while True:
        try:
            drawing = pickle.load(inp)
        except EOFError:
            return
        pickle.dump(png_of(drawing), out)
        out.flush()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
