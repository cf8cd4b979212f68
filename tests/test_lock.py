"""The run folder's lock (simcore.runs.lock): one writer at a time, named to the next; a lock
whose process died is taken over with a note; no lock file outlives its holder.

Another process holds the lock here (`holder`: a small Python process, about a second to
start), since within one process the lock may be taken again. The CLI's lines for it are
in tests/test_errors.py (folder-locked, folder-lock-stale)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest
from test_runfolder import stand_in_chunk  # rows without the engine

from simcore.runs import runfolder
from simcore.runs.lock import LOCK_FILE, FolderLockedError, folder_lock
from simcore.runs.runfolder import execute_study, plan_study

fcntl = pytest.importorskip("fcntl", reason="the lock is an flock (POSIX)")

HOLD = textwrap.dedent(
    """
    import sys
    from simcore.runs.lock import folder_lock
    with folder_lock(sys.argv[1]):
        print("held", flush=True)
        sys.stdin.read()  # until the test closes it (or kills us)
    """
)


def holder(out):
    """A process holding the lock of `out` until its stdin is closed."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert proc.stdout.readline() == "held\n"
    return proc


def lock_text(out) -> dict:
    return json.loads((out / LOCK_FILE).read_text())


def test_a_second_process_is_refused_and_named(tmp_path):
    out = tmp_path / "r"
    proc = holder(out)
    try:
        assert lock_text(out)["pid"] == proc.pid
        with pytest.raises(FolderLockedError) as e, folder_lock(out):
            pass
        assert str(e.value).startswith(
            f"{out} is being written by another bangsim process (pid {proc.pid} on "
        )
        assert lock_text(out)["pid"] == proc.pid  # the holder's file is untouched
    finally:
        proc.communicate("")
    assert proc.returncode == 0
    assert not (out / LOCK_FILE).exists()  # a holder removes it when it lets go
    with folder_lock(out):  # and the folder is free again
        assert lock_text(out)["pid"] == os.getpid()


def test_the_lock_of_a_killed_process_is_taken_over(tmp_path, capsys):
    out = tmp_path / "r"
    proc = holder(out)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert lock_text(out)["pid"] == proc.pid  # left behind: it never let go
    with folder_lock(out):
        assert lock_text(out)["pid"] == os.getpid()
    line = capsys.readouterr().err.strip()
    assert line.startswith(f"note: {out}: took over the lock of pid {proc.pid} on ")
    assert line.endswith("a process that ended without releasing it")
    with folder_lock(out):  # released normally: nothing to take over
        pass
    assert capsys.readouterr().err == ""


def test_taken_again_in_one_process_and_removed_once(tmp_path):
    out = tmp_path / "r"
    with folder_lock(out):
        with folder_lock(out):
            assert (out / LOCK_FILE).exists()
        fd = os.open(out / LOCK_FILE, os.O_RDONLY)  # still held after the inner release
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
    assert not out.exists()  # made by the lock and left empty: removed with the lock file


def test_folders_it_made_are_removed_when_left_empty(tmp_path):
    out = tmp_path / "a" / "b"
    with folder_lock(out):
        assert out.is_dir()
    assert list(tmp_path.iterdir()) == []  # nothing was written: nothing is left
    with folder_lock(out):
        (out / "kept").write_text("x")
    assert (out / "kept").exists()


def test_a_run_holds_it_while_written(tmp_path, monkeypatch):
    """Every chunk is played and written under the lock, which names this process."""
    out = tmp_path / "r"
    seen = []

    def play(study, chunk):
        seen.append(lock_text(out)["pid"])
        fd = os.open(out / LOCK_FILE, os.O_RDONLY)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
        return stand_in_chunk(study, chunk)

    monkeypatch.setattr(runfolder, "play_chunk", play)
    execute_study(plan_study(out, "classic", [4], 120, 7, chunk_size=50), progress=False)
    assert seen == [os.getpid()] * 3
    assert not (out / LOCK_FILE).exists()


@pytest.mark.parametrize(
    ("text", "named"),
    [("", "which has not yet written"), ("not ours", f"{LOCK_FILE} 'not ours'")],
)
def test_a_lock_file_that_names_no_one(tmp_path, text, named):
    """A held lock whose file is empty (its holder has not written it yet) or not JSON."""
    out = tmp_path / "r"
    out.mkdir()
    (out / LOCK_FILE).write_text(text)
    fd = os.open(out / LOCK_FILE, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another holder: flock tells open files apart
    try:
        with pytest.raises(FolderLockedError, match=f"another bangsim process \\({named}"):
            with folder_lock(out):
                pass
    finally:
        os.close(fd)
    assert (out / LOCK_FILE).read_text() == text
