"""docs/errors.md, row by row: every error a user can cause is one line on stderr, an exit
code, no traceback, and no half-written file.

Each row of the table in docs/errors.md has an id; `test_<id>` (dashes as underscores) here
checks it, reading the expected exit code and message from the table itself (`check`), so
the table cannot drift from the behaviour, and `test_every_row_has_a_test_and_back` keeps
rows and tests one to one.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from played import psro
from test_experiment import TINY  # 4 cells of 120 games in chunks of 50
from test_lock import holder
from typer.testing import CliRunner

import simcore.cli.runs
import simcore.runs.backend
from simcore.cli import app
from simcore.engine import limits
from simcore.engine.theme import ThemeError, load_theme, min_deck_size
from simcore.errors import describe
from simcore.runs import atomic, runfolder
from simcore.runs.lock import LOCK_FILE
from simcore.runs.runfolder import MANIFEST, SEATS, RunFolderError, chunk_problem
from strategies.params import POLICY_VERSION
from strategies.presets import Mixture, resolve_strategy

DOC = Path(__file__).resolve().parent.parent / "docs" / "errors.md"
runner = CliRunner()

# --- the table ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    id: str
    message: str  # as written in the table (backticks removed)
    code: int

    @property
    def pattern(self) -> re.Pattern[str] | None:
        """The message as a regex: {name} matches anything, a trailing … makes it a prefix;
        None for a row that describes its outcome in words, '(...)'."""
        if self.message.startswith("("):
            return None
        text = self.message
        prefix = text.endswith("…")
        text = text.removesuffix("…").rstrip() if prefix else text
        parts = re.split(r"\{[^}]+\}", text)
        regex = ".+?".join(re.escape(part) for part in parts)
        return re.compile(regex + (".*" if prefix else ""))


def table_rows() -> dict[str, Row]:
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"\| `([a-z0-9-]+)` \| .* \| (.+?) \| (\d+) \|", line)
        if not m:
            continue
        message = m.group(2)
        if message.startswith("`` ") and message.endswith(" ``"):
            message = message[3:-3]
        elif message.startswith("`") and message.endswith("`"):
            message = message[1:-1]
        assert m.group(1) not in rows, f"row {m.group(1)} twice"
        rows[m.group(1)] = Row(m.group(1), message, int(m.group(3)))
    return rows


ROWS = table_rows()


def check(row_id: str, result=None, *, code: int | None = None, stderr: str | None = None):
    """The outcome (a CliRunner result, or an exit code and stderr) is what the row says:
    its exit code and, for an error, exactly one stderr line matching its message."""
    row = ROWS[row_id]
    if result is not None:
        code, stderr = result.exit_code, result.stderr
        if row.code not in (0, 1) or row.pattern is not None:
            assert not isinstance(result.exception, Exception) or isinstance(
                result.exception, SystemExit
            ), f"{row_id}: exception escaped: {result.exception!r}"
    assert code == row.code, f"{row_id}: exit {code}, expected {row.code}; stderr: {stderr}"
    assert "Traceback" not in stderr
    if row.pattern is not None:
        lines = stderr.strip().splitlines()
        assert len(lines) == 1, f"{row_id}: {len(lines)} stderr lines: {stderr}"
        assert row.pattern.fullmatch(lines[0]), f"{row_id}: {lines[0]!r} !~ {row.message!r}"
    return stderr.strip()


def test_every_row_has_a_test_and_back():
    tests = {
        name.removeprefix("test_").replace("_", "-")
        for name, value in globals().items()
        if name.startswith("test_") and callable(value)
    } - {"every-row-has-a-test-and-back"}
    assert len(ROWS) >= 30
    assert sorted(set(ROWS) - tests) == [], "rows of docs/errors.md without a test"
    assert sorted(tests - set(ROWS)) == [], "tests without a row in docs/errors.md"


# --- helpers ------------------------------------------------------------------------------

RUN = ["--players", "4", "--games", "35", "--chunk-size", "10", "--seed", "1", "--strategy",
       "smart", "--no-progress"]  # fmt: skip


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def run_cli(out, *extra):
    return cli("run", *RUN, "--out", out, *extra)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A small real run folder: classic, 4 players, 35 games in chunks of 10, 10, 10, 5."""
    out = tmp_path_factory.mktemp("base") / "run"
    result = run_cli(out)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def run(base, tmp_path) -> Path:
    """A fresh copy of the base run folder."""
    return Path(shutil.copytree(base, tmp_path / "run"))


def event_file(seat_file: Path) -> Path:
    """The event file of a seat chunk: a chunk writes it first (simcore.engine.event_rows)."""
    return seat_file.parent.parent / "events" / seat_file.name


def chunk(run: Path, i: int) -> Path:
    return run / SEATS / f"classic_4p_smart-{i:05d}.parquet"


def rows(run: Path) -> pl.DataFrame:
    return pl.read_parquet(run / SEATS / "*.parquet").sort("game", "seat")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.rglob("*") if p.name.startswith(".") or p.suffix == ".tmp"]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


FACES = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")]


def theme_text(cards: int, counts=(4, 7), theme_id: str = "tiny") -> str:
    """A small valid theme: `cards` BANG! cards and one Missed!, seven characters of life 4."""
    tables = {
        4: '["leader", "renegade", "outlaw", "outlaw"]',
        5: '["leader", "renegade", "outlaw", "outlaw", "deputy"]',
        7: '["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"]',
    }
    lines = [f'[theme]\nid = "{theme_id}"\n[role_table]']
    lines += [f'"{n}" = {tables[n]}' for n in counts]
    lines += ["[[cards]]", 'name = "BANG!"', 'effect = "bang"', f"copies = {FACES[:cards]!r}"]
    lines += ["[[cards]]", 'name = "Missed!"', 'effect = "missed"', 'copies = ["AS"]']
    for i in range(7):
        lines += ["[[characters]]", f'name = "C{i}"', "life = 4", 'ability = "none"']
    return "\n".join(lines).replace("'", '"') + "\n"


class HalfThenFail:
    """A binary file whose write() puts down half the bytes, then raises `error`."""

    def __init__(self, f, error: OSError):
        self.f, self.error = f, error

    def write(self, data):
        self.f.write(bytes(data)[: len(data) // 2])
        raise self.error

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


# --- output paths -------------------------------------------------------------------------


def test_out_under_file(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    check("out-under-file", run_cli(tmp_path / "notes.txt" / "x"))
    assert snapshot(tmp_path) == {"notes.txt": b"mine"}


def test_out_is_file(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    check("out-is-file", run_cli(tmp_path / "notes.txt"))
    assert snapshot(tmp_path) == {"notes.txt": b"mine"}


def test_out_no_permission(tmp_path, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    if os.geteuid() == 0:  # root writes anywhere: let the folder look read-only
        access = os.access
        monkeypatch.setattr(
            runfolder.os, "access", lambda p, mode, **kw: Path(p) != ro and access(p, mode, **kw)
        )
    try:
        line = check("out-no-permission", run_cli(ro / "x"))
        assert f"no permission to write in {ro};" in line
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o755)


def fail_on(path_part: str, error: OSError, after: int = 0):
    """A stand-in for `open` in simcore.runs.atomic: the (after+1)-th temp file whose name
    contains path_part fails to be written with `error` after half its bytes."""
    seen = []

    def fake_open(path, mode="r", *args, **kwargs):
        f = open(path, mode, *args, **kwargs)
        if path_part in Path(path).name and "w" in mode:
            seen.append(path)
            if len(seen) == after + 1:
                return HalfThenFail(f, error)
        return f

    return fake_open


def test_write_permission_denied(tmp_path, monkeypatch):
    denied = OSError(errno.EACCES, os.strerror(errno.EACCES))
    monkeypatch.setattr(atomic, "open", fail_on("-00001.parquet", denied), raising=False)
    out = tmp_path / "r"
    line = check("write-permission-denied", run_cli(out))
    assert line.startswith(f"error: {event_file(chunk(out, 1))}: ")  # a chunk's first file
    assert no_temp_files(out)
    assert [p.name for p in (out / SEATS).iterdir()] == [chunk(out, 0).name]


@pytest.mark.parametrize("command", ["html", "csv", "compare"])
def test_report_out_under_file(run, tmp_path, command):
    (tmp_path / "notes.txt").write_text("mine")
    out = tmp_path / "notes.txt" / "x"
    if command == "compare":
        other = shutil.copytree(run, tmp_path / "other")
        result = cli("compare", run, other, "--out", out)
    else:
        result = cli("report", run, "--format", command, "--out", out)
    check("report-out-under-file", result)
    assert not (run / "report").exists()


# --- disk full ----------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["chunk", "manifest"])
def test_disk_full_run(tmp_path, monkeypatch, base, where):
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    # the 3rd chunk, or the manifest rewrite after the 2nd chunk (session, chunk 0, chunk 1)
    writer = fail_on("-00002.parquet", full) if where == "chunk" else fail_on(MANIFEST, full, 2)
    monkeypatch.setattr(atomic, "open", writer, raising=False)
    out = tmp_path / "r"
    line = check("disk-full-run", run_cli(out))
    failed = event_file(chunk(out, 2)) if where == "chunk" else out / MANIFEST
    assert line.startswith(f"error: {failed}: ")
    assert no_temp_files(out)
    manifest = json.loads((out / MANIFEST).read_text())  # intact, lists complete chunks only
    assert [c["chunk"] for c in manifest["chunks_done"]] == ([0, 1] if where == "chunk" else [0])
    for record in manifest["chunks_done"]:
        assert chunk_problem(out / record["file"], record["games"] * 4) is None

    monkeypatch.undo()  # space freed: the same command resumes and finishes
    assert run_cli(out).exit_code == 0
    assert rows(out).equals(rows(base))


@pytest.mark.parametrize("fmt", ["html", "csv", "json"])
def test_disk_full_report(run, monkeypatch, fmt):
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    # the third file of the report
    monkeypatch.setattr(atomic, "open", fail_on("", full, 2), raising=False)
    # no progress lines: a slow machine would print some before the error line
    line = check("disk-full-report", cli("report", run, "--format", fmt, "--no-progress"))
    assert line.startswith(f"error: {run / 'report'}/")
    assert not (run / "report").exists()  # the files it had written are removed again
    assert no_temp_files(run)


# --- damaged chunks, manifests of other versions ------------------------------------------


def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    path.write_bytes({"truncated": data[: len(data) // 2], "empty": b"", "garbage": b"x" * 99}[how])


@pytest.mark.parametrize("how", ["truncated", "empty", "garbage"])
def test_chunk_damaged_resume(run, base, how):
    damage(chunk(run, 1), how)
    before = snapshot(run)
    line = check("chunk-damaged-resume", run_cli(run))
    assert line.startswith(f"error: {chunk(run, 1)}: damaged chunk file")
    assert snapshot(run) == before
    chunk(run, 1).unlink()  # what the line says to do
    assert run_cli(run).exit_code == 0
    assert rows(run).equals(rows(base))


@pytest.mark.parametrize("how", ["truncated", "empty", "garbage"])
def test_chunk_damaged_report(run, tmp_path, how):
    damage(chunk(run, 2), how)
    line = check("chunk-damaged-report", cli("report", run))
    assert line.startswith(f"error: {chunk(run, 2)}: damaged chunk file")
    assert not (run / "report").exists()
    other = shutil.copytree(run, tmp_path / "other")
    check("chunk-damaged-report", cli("compare", other, run, "--out", tmp_path / "cmp"))


def test_chunk_wrong_rows(run):
    shutil.copy(chunk(run, 3), chunk(run, 1))  # 5 games where the manifest says 10
    for result in (run_cli(run), cli("report", run)):
        line = check("chunk-wrong-rows", result)
        assert f"{chunk(run, 1)}: damaged chunk file (20 rows, the manifest says 40)" in line


def edit_manifest(run: Path, edit) -> None:
    manifest = json.loads((run / MANIFEST).read_text())
    edit(manifest)
    (run / MANIFEST).write_text(json.dumps(manifest))


def old_rules(manifest):
    manifest["request"]["rules_version"] = limits.RULES_VERSION - 1
    manifest["versions"].update(bangsim="0.0.1", rules=limits.RULES_VERSION - 1)


def other_policy(manifest, policy=POLICY_VERSION - 1):
    manifest["request"]["policy_version"] = policy


def before_policies(manifest):
    del manifest["request"]["policy_version"]


@pytest.mark.parametrize(
    "edit, then",
    [
        (old_rules, f"rules version {limits.RULES_VERSION - 1}, policy version {POLICY_VERSION}"),
        (
            other_policy,
            f"rules version {limits.RULES_VERSION}, policy version {POLICY_VERSION - 1}",
        ),
        (before_policies, f"rules version {limits.RULES_VERSION}"),
    ],
)
def test_manifest_other_rules(run, edit, then):
    """The bots' version counts as the rules' does: a run played by other rules, by other
    bots, or recorded before policy versions (none) is not resumed."""
    edit_manifest(run, edit)
    before = snapshot(run)
    line = check("manifest-other-rules", run_cli(run))
    assert f"({then}, manifest format 1) and cannot be resumed" in line
    now = f"rules version {limits.RULES_VERSION}, policy version {POLICY_VERSION}"
    assert f"({now}, manifest format 1); choose another --out" in line
    assert snapshot(run) == before


def test_manifest_other_rules_report(run):
    edit_manifest(run, old_rules)
    check("manifest-other-rules-report", cli("report", run))
    page = (run / "report" / "index.html").read_text()
    assert f"Rules version</dt><dd>{limits.RULES_VERSION - 1}<" in page


def test_manifest_other_format(run):
    def newer(manifest):
        manifest.update(format=99, chunks=manifest.pop("chunks_done"))
        manifest["versions"]["bangsim"] = "9.0"

    edit_manifest(run, newer)
    before = snapshot(run)
    assert "cannot be resumed" in check("manifest-other-format", run_cli(run))
    line = check("manifest-other-format", cli("report", run))
    assert "manifest format 99) and cannot be read" in line and "with bangsim 9.0" in line
    assert snapshot(run) == before


@pytest.mark.parametrize("text", ["{", "[1, 2]", '{"format": 1, "request": {}}'])
def test_manifest_unreadable(run, text):
    (run / MANIFEST).write_text(text)
    check("manifest-unreadable", run_cli(run))
    check("manifest-unreadable", cli("report", run))


def test_not_a_run_folder(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    check("not-a-run-folder", run_cli(tmp_path))
    assert snapshot(tmp_path) == {"notes.txt": b"mine"}


def test_different_request(run):
    before = snapshot(run)
    line = check("different-request", cli("run", *RUN[:-1], "--games", "20", "--out", run))
    assert "(games: 35 there, 20 asked)" in line
    assert snapshot(run) == before


# --- Ctrl-C -------------------------------------------------------------------------------


def default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a shell may start us with SIGINT ignored


# a real `bangsim run` of 80 chunks, in its own process (started by `started_run`)
LONG_RUN = ["run", "--players", "4", "--games", "8000", "--chunk-size", "100", "--seed", "5"]
LONG_RUN += ["--strategy", "smart"]
LONG_RUN += ["--no-progress", "--out"]


def started_run(out: Path) -> subprocess.Popen:
    """`bangsim run ... --out out` (LONG_RUN) in a process of its own, once it has written
    its second chunk."""
    command = [sys.executable, "-m", "simcore", *LONG_RUN, str(out)]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=default_sigint,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not (out / SEATS / "classic_4p_smart-00001.parquet").exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no chunk written in 120 s"
        time.sleep(0.01)
    return proc


@pytest.fixture(scope="module")
def straight(tmp_path_factory) -> Path:
    """LONG_RUN played straight through, in this process."""
    out = tmp_path_factory.mktemp("straight") / "r"
    assert cli(*LONG_RUN, out).exit_code == 0
    return out


def test_interrupted(tmp_path, straight):
    """A real `bangsim run` sent SIGINT once its second chunk is written: exit 130, one
    line, complete chunks kept and listed; the same command resumes to the rows of a
    straight run."""
    out = tmp_path / "r"
    proc = started_run(out)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    line = check("interrupted", code=proc.returncode, stderr=stderr)
    kept = int(re.match(r"interrupted: (\d+) of 80 chunks kept in ", line).group(1))
    assert 1 <= kept < 80 and stdout == ""
    manifest = json.loads((out / MANIFEST).read_text())
    assert len(manifest["chunks_done"]) == kept and not manifest["complete"]
    files = sorted((out / SEATS).iterdir())
    assert no_temp_files(out) and len(files) in (kept, kept + 1)  # + one not yet listed

    resumed = subprocess.run(
        proc.args, capture_output=True, text=True, timeout=300, preexec_fn=default_sigint
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"played {8000 - 100 * kept:,} of 8,000 games" in resumed.stdout
    assert rows(out).equals(rows(straight))


# --- one writer per run folder (simcore.runs.lock) -------------------------------------------


def test_folder_locked(tmp_path, monkeypatch):
    """A second `bangsim run` on the folder a real one is writing (held still by SIGSTOP):
    refused before any backend starts, naming the first; the first's files untouched, and
    the first then finishes. `bangsim experiment` is refused the same."""
    out = tmp_path / "r"
    proc = started_run(out)
    proc.send_signal(signal.SIGSTOP)
    try:
        before = snapshot(out)
        line = check("folder-locked", cli(*LONG_RUN, out))
        assert f"(pid {proc.pid} on {socket.gethostname()}, since " in line

        def no_backend(*args):
            raise AssertionError("a backend was started for a folder another process holds")

        monkeypatch.setattr(simcore.runs.backend, "get_backend", no_backend)
        check("folder-locked", cli(*LONG_RUN, out, "--backend", "ray"))
        assert snapshot(out) == before
    finally:
        proc.send_signal(signal.SIGCONT)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0 and "played 8,000 games" in stdout, stderr
    assert json.loads((out / MANIFEST).read_text())["complete"] and no_temp_files(out)

    cells = tmp_path / "cells"
    other = holder(cells)  # a process holding the lock of a new folder
    try:
        source = write(tmp_path, "exp.toml", TINY)
        line = check("folder-locked", cli("experiment", source, "--out", cells, "--no-progress"))
        assert f"(pid {other.pid} on " in line and list(snapshot(cells)) == [LOCK_FILE]
    finally:
        other.communicate("")


def test_folder_lock_stale(tmp_path, straight):
    """A real `bangsim run` killed (SIGKILL) mid-run leaves its lock file behind: the same
    command takes the lock over, says so in one line, and resumes to the rows of a
    straight run."""
    out = tmp_path / "r"
    proc = started_run(out)
    proc.kill()
    proc.communicate()
    assert json.loads((out / LOCK_FILE).read_text())["pid"] == proc.pid
    line = check("folder-lock-stale", cli(*LONG_RUN, out))
    assert f"took over the lock of pid {proc.pid} on {socket.gethostname()}, since " in line
    assert rows(out).equals(rows(straight)) and no_temp_files(out)


# --- experiments --------------------------------------------------------------------------


def experiment(tmp_path, text):
    source = write(tmp_path, "exp.toml", "[experiment]\ngames = 10\n" + text)
    result = cli("experiment", source, "--out", tmp_path / "runs" / "x", "--no-progress")
    assert not (tmp_path / "runs").exists()
    return result


def test_experiment_override_path(tmp_path):
    check(
        "experiment-override-path",
        experiment(tmp_path, "[overrides]\nrules.leader_extra_lif = [0, 1]"),
    )


def test_experiment_override_name(tmp_path):
    text = '[overrides]\ncards."Missd!".extra_copies = [0, 1]'
    check("experiment-override-name", experiment(tmp_path, text))


def test_experiment_pool_name(tmp_path):
    names = '["Bart Casidy", "Jourdonnais", "Kit Carlson", "Willy the Kid", "El Gringo"]'
    check("experiment-pool-name", experiment(tmp_path, f"[grid]\ncharacters = [{names}]"))


def test_experiment_precision(tmp_path):
    check("experiment-precision", experiment(tmp_path, "precision = 0.5"))
    result = experiment(tmp_path, 'precision = "tight"')
    assert result.exit_code == 2 and "got 'tight'" in result.stderr


def test_experiment_precision_characters_alone(tmp_path):
    text = "precision_characters = true"
    check("experiment-precision-characters-alone", experiment(tmp_path, text))


def test_experiment_unknown_key(tmp_path):
    check("experiment-unknown-key", experiment(tmp_path, "[grid]\nplayer = [5]"))


# --- themes -------------------------------------------------------------------------------


def test_deck_too_small(tmp_path):
    # 7 players of life 4, +1 for the leader, +2 for the first draw: 31 cards
    assert min_deck_size([4] * 7, 7, 1, 2) == 31
    small = write(tmp_path, "small.toml", theme_text(cards=29))  # + 1 Missed! = 30 cards
    for result in (run_cli(tmp_path / "x", "--theme", small), cli("themes", "show", small)):
        line = check("deck-too-small", result)
        assert "30 cards are too few for 7 players" in line
        assert "(4+4+4+4+4+4+4 life, +1 for the leader) and the first draw 2, 31 cards" in line
    assert not (tmp_path / "x").exists()
    load_theme(write(tmp_path, "enough.toml", theme_text(cards=30)))  # 31 cards: plays
    with pytest.raises(ThemeError, match="too few for 4 players"):
        load_theme(write(tmp_path, "four.toml", theme_text(cards=17, counts=(4,))))


def test_deck_too_small_override(tmp_path):
    text = '[grid]\nplayers = [7]\n[overrides]\ncharacters."El Gringo".life = [3, 60]'
    check("deck-too-small-override", experiment(tmp_path, text))


def test_unknown_theme(tmp_path):
    check("unknown-theme", run_cli(tmp_path / "x", "--theme", "nosuchtheme"))


def test_theme_file_missing(tmp_path):
    check("theme-file-missing", run_cli(tmp_path / "x", "--theme", "missing/theme.toml"))


def test_theme_syntax(tmp_path):
    bad = write(tmp_path, "bad.toml", "[theme\nid = 'x'\n")
    assert "bad.toml: TOML syntax error" in check(
        "theme-syntax", run_cli(tmp_path / "x", "--theme", bad)
    )


def test_theme_not_utf8(tmp_path):
    bad = tmp_path / "latin1.toml"
    bad.write_bytes('[theme]\nid = "caf\xe9"\n'.encode("latin-1"))
    check("theme-not-utf8", run_cli(tmp_path / "x", "--theme", bad))
    spec = tmp_path / "exp.toml"
    spec.write_bytes(b'[experiment]\ntitle = "caf\xe9"\n')
    check("theme-not-utf8", cli("experiment", spec, "--out", tmp_path / "x"))
    assert not (tmp_path / "x").exists()


def test_theme_bad_value(tmp_path):
    bad = write(tmp_path, "bad.toml", theme_text(cards=40).replace('"bang"', '"bangg"'))
    check("theme-bad-value", run_cli(tmp_path / "x", "--theme", bad))


def test_export_id_shipped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check("export-id-shipped", cli("themes", "export", "classic", "--id", "walking_dead"))
    assert list(tmp_path.iterdir()) == []


# --- options ------------------------------------------------------------------------------


def test_games_not_a_number(tmp_path):
    check("games-not-a-number", run_cli(tmp_path / "x", "--games", "1e5x"))
    assert not (tmp_path / "x").exists()


def test_players_out_of_range(tmp_path):
    check("players-out-of-range", run_cli(tmp_path / "x", "--players", "9"))


def test_players_no_table(tmp_path):
    theme = write(tmp_path, "t.toml", theme_text(cards=40, counts=(4, 7)))
    line = check("players-no-table", run_cli(tmp_path / "x", "--theme", theme, "--players", "5"))
    assert "(supported: 4, 7)" in line


def test_unknown_strategy(tmp_path):
    check("unknown-strategy", run_cli(tmp_path / "x", "--strategy", "nosuchbot"))


def test_search_no_base(tmp_path):
    check("search-no-base", run_cli(tmp_path / "x", "--strategy", "search"))


@pytest.mark.parametrize("spec", ["search@depth=3:tuned", "search@budget=x:tuned"])
def test_search_bad_setting(tmp_path, spec):
    result = run_cli(tmp_path / "x", "--strategy", spec)
    if "depth" in spec:
        check("search-bad-setting", result)
    else:
        assert result.exit_code == 2 and "search budget must be a whole number" in result.stderr


def test_search_unknown_kind(tmp_path):
    check(
        "search-unknown-kind", run_cli(tmp_path / "x", "--strategy", "search@kinds=answers:tuned")
    )
    check("search-unknown-kind", cli("exploit", "--method", "search", "--kinds", "answers"))


def test_search_settings_differ(tmp_path):
    spec = "outlaw=search:tuned,leader=search@budget=8:tuned"
    check("search-settings-differ", run_cli(tmp_path / "x", "--strategy", spec))


def test_tune_bad_keep():
    check("tune-bad-keep", cli("tune", "--keep", "always"))


def test_tune_bad_method():
    check("tune-bad-method", cli("tune", "--method", "grid"))


def test_tune_psro_role():
    check("tune-psro-role", cli("tune", "--method", "psro", "--role", "leader"))


def test_tune_bad_rounds():
    check("tune-bad-rounds", cli("tune", "--rounds", "0"))
    with pytest.raises(ValueError, match="psro needs at least 1 round, got 0"):
        psro("classic", 5, "tuned", 1, None, rounds=0)


@pytest.fixture(scope="module")
def mixture_file(tmp_path_factory) -> Path:
    """A mixture file at 5 players: one profile, every role `smart`."""
    rows = resolve_strategy("smart", 5, "classic").matrix
    mixture = Mixture(rows, np.arange(4)[None, :], np.ones(1))
    path = tmp_path_factory.mktemp("mixture") / "mixture.json"
    path.write_text(json.dumps({"players": {"5": mixture.as_dict()}}))
    return path


def test_mixture_missing(tmp_path):
    check("mixture-missing", run_cli(tmp_path / "x", "--strategy", "nosuch.json"))


def test_mixture_no_players(tmp_path, mixture_file):
    check("mixture-no-players", run_cli(tmp_path / "x", "--strategy", mixture_file))


def test_mixture_not_here(mixture_file):
    check("mixture-not-here", cli("tune", "--players", "5", "--field", mixture_file))


def test_exploit_bad_searches():
    check("exploit-bad-searches", cli("exploit", "--searches", "0"))


def test_exploit_bad_method():
    check("exploit-bad-method", cli("exploit", "--method", "grid"))


def test_exploit_by_kind_method():
    check("exploit-by-kind-method", cli("exploit", "--by-kind"))


@pytest.mark.parametrize("method", ["params", "search"])
def test_exploit_searching_field(method):
    result = cli("exploit", "--strategy", "search:tuned", "--method", method, "--role", "outlaw")
    check("exploit-searching-field", result)


def test_bad_seed(tmp_path):
    check("bad-seed", run_cli(tmp_path / "x", "--seed", "-1"))


@pytest.mark.parametrize("value", ["0.5", "0", "-0.01", "nan", "inf"])
def test_precision_out_of_range(tmp_path, value):
    line = check("precision-out-of-range", run_cli(tmp_path / "x", "--precision", value))
    assert value.lstrip("-") in line
    result = cli("experiment", "leader_extra_life", "--precision", value, "--out", tmp_path / "y")
    assert result.exit_code == 2 and "--precision must be a number between" in result.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_precision_not_a_number(tmp_path):
    check("precision-not-a-number", run_cli(tmp_path / "x", "--precision", "abc"))
    assert not (tmp_path / "x").exists()


def test_precision_cap_too_small(tmp_path):
    # the row's message, then its "at least": one game more and the target is reachable
    check("precision-cap-too-small", cli("run", "--precision", "0.05", "--games", "30",
                                         "--out", tmp_path / "x"))  # fmt: skip
    result = cli("run", "--precision", "0.05", "--games", "34", "--out", tmp_path / "x")
    assert result.exit_code == 2 and "give --games at least 35" in result.stderr
    assert not (tmp_path / "x").exists()
    result = cli("run", *RUN, "--precision", "0.05", "--out", tmp_path / "x")  # 35 games
    assert result.exit_code == 0, result.output


def test_precision_characters_alone(tmp_path):
    check("precision-characters-alone", run_cli(tmp_path / "x", "--precision-characters"))
    assert not (tmp_path / "x").exists()


def test_unknown_character(tmp_path):
    names = "Bart Casidy,Jourdonnais,Kit Carlson,Willy the Kid"
    check("unknown-character", run_cli(tmp_path / "x", "--characters", names))


def test_feature_unknown_character(tmp_path):
    result = run_cli(tmp_path / "x", "--feature", "Willy the Kidd")
    line = check("feature-unknown-character", result)
    assert "Bart Cassidy, Black Jack" in line  # lists the theme's characters
    result = cli("experiment", "leader_extra_life", "--feature", "Willy the Kidd", "--out",
                 tmp_path / "y", "--no-progress")  # fmt: skip
    assert result.exit_code == 2 and "unknown character 'Willy the Kidd'" in result.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_feature_unknown_role(tmp_path):
    check("feature-unknown-role", run_cli(tmp_path / "x", "--feature", "Willy the Kid=sheriffs"))


def test_feature_role_missing(tmp_path):
    result = cli("run", *RUN, "--players", "4-5", "--out", tmp_path / "x",
                 "--feature", "Willy the Kid=deputy")  # fmt: skip
    check("feature-role-missing", result)
    assert not (tmp_path / "x").exists()


def test_experiment_feature_name(tmp_path):
    check("experiment-feature-name", experiment(tmp_path, '[grid]\nfeature = "Willy the Kidd"'))


def test_abilities_unknown_character(tmp_path):
    result = cli("abilities", "--characters", "Bart Casidy", "--out", tmp_path / "x")
    check("abilities-unknown-character", result)
    assert not (tmp_path / "x").exists()


def test_abilities_unknown_role(tmp_path):
    line = check("abilities-unknown-role", cli("abilities", "--role", "sheriffs"))
    assert "unknown role 'sheriffs' (roles: leader (Sheriff), deputy (Deputy)" in line
    line = check("abilities-unknown-role", cli("abilities", "--players", "4", "--role", "deputy"))
    assert line == "error: --role: no deputy at 4 players in theme 'classic'"


# --- backends (simcore.runs.backend) -------------------------------------------------------------


@pytest.mark.parametrize("command", ["run", "experiment", "tune", "exploit", "abilities"])
def test_backend_unknown(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    args = {"run": RUN + ["--out", "r"], "experiment": ["default", "--games", "10"]}
    check("backend-unknown", cli(command, *args.get(command, []), "--backend", "spark"))
    assert not (tmp_path / "r").exists()


def test_backend_address_local(tmp_path):
    result = run_cli(tmp_path / "r", "--address", "127.0.0.1:6379")
    check("backend-address-local", result)


def test_ray_missing(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    check("ray-missing", run_cli(tmp_path / "r", "--backend", "ray"))


def test_ray_bad_address(tmp_path):
    pytest.importorskip("ray")
    check("ray-bad-address", run_cli(tmp_path / "r", "--backend", "ray", "--address", "head"))


def test_ray_unreachable(tmp_path):
    pytest.importorskip("ray")
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run_cli(tmp_path / "r", "--backend", "ray", "--address", f"127.0.0.1:{port}")
    line = check("ray-unreachable", result)
    assert f"127.0.0.1:{port} (Connection refused)" in line


def test_ray_join_failed(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")

    def refuse(**kwargs):
        raise ConnectionError("Could not find any running Ray instance")

    monkeypatch.setattr(ray, "init", refuse)
    line = check("ray-join-failed", run_cli(tmp_path / "r", "--backend", "ray"))
    assert "a local instance (Could not find any running Ray instance); every node" in line


@pytest.fixture(scope="module")
def ray_instance():
    """A local Ray instance of 2 CPUs for the tests that need a running cluster."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_other_version(ray_instance, tmp_path, monkeypatch):
    """The node checks the stamp the command sends with every task."""
    monkeypatch.setattr(simcore.runs.backend, "version_stamp", lambda: ("0.0.1", 0, 0))
    line = check("ray-other-version", run_cli(tmp_path / "r", "--backend", "ray"))
    assert "this one bangsim 0.0.1 (rules version 0, policy version 0)" in line
    assert json.loads((tmp_path / "r" / MANIFEST).read_text())["chunks_done"] == []


def test_ray_task_lost(ray_instance):
    """A worker that dies (here: every try of the task) is the cluster's failure, exit 1."""
    with simcore.runs.backend.RayBackend() as backend, pytest.raises(ConnectionError) as e:
        list(backend.map(os._exit, [1]))
    line, code = describe(e.value, resumable=True)
    check("ray-task-lost", code=code, stderr=line)


def die_once(marker: Path, fn, chunk):
    """fn(chunk), except that the first try of chunk 1 kills its own process (a Ray worker)."""
    if chunk.index == 1 and not marker.exists():
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return fn(chunk)


def test_ray_worker_killed(ray_instance, tmp_path, monkeypatch):
    """`bangsim run --backend ray` whose worker playing chunk 1 is killed: the run finishes,
    with the chunk files of a local run, byte for byte."""
    from ray import cloudpickle

    marker = tmp_path / "killed"
    ray_map = simcore.runs.backend.RayBackend.map

    def map_dying(self, fn, items):
        return ray_map(self, functools.partial(die_once, marker, fn), items)

    monkeypatch.setattr(simcore.runs.backend.RayBackend, "map", map_dying)
    this = sys.modules[__name__]
    cloudpickle.register_pickle_by_value(this)  # die_once travels to the workers by value
    try:
        result = run_cli(tmp_path / "ray", "--backend", "ray")
    finally:
        cloudpickle.unregister_pickle_by_value(this)
    check("ray-worker-killed", result)
    assert marker.exists()
    assert run_cli(tmp_path / "local").exit_code == 0

    def chunks(out):
        return {k: v for k, v in snapshot(out).items() if k.startswith((SEATS, "events"))}

    assert chunks(tmp_path / "ray") == chunks(tmp_path / "local") != {}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["run", "--out", "x", "--gams", "5"], None),  # the row's own example
        (["run", "--out", "x", "--seed", "abc"], "Invalid value for '--seed'"),
        (["run", "--games", "5"], "Missing option '--out'; see 'bangsim run --help'"),
        (["runn"], "No such command 'runn'"),
        (["--bogus", "run"], "No such option: --bogus; see 'bangsim --help'"),
        (["themes", "show"], "Missing argument"),
    ],
)
def test_usage_error(tmp_path, monkeypatch, args, fragment):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args, prog_name="bangsim")
    if fragment is None:
        check("usage-error", result)
    else:
        row = ROWS["usage-error"]
        assert result.exit_code == row.code and result.stderr.count("\n") == 1
        assert result.stderr.startswith("error: ") and fragment in result.stderr
    assert list(tmp_path.iterdir()) == []


# --- reports ------------------------------------------------------------------------------


def test_report_not_a_run(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    check("report-not-a-run", cli("report", tmp_path))
    assert snapshot(tmp_path) == {"notes.txt": b"mine"}


def test_report_no_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check("report-no-folder", cli("report", "nope"))


def test_report_bad_targets(run):
    check("report-bad-targets", cli("report", run, "--targets", "50,50,50"))


def test_report_targets_unknown_file(run):
    check("report-targets-unknown-file", cli("report", run, "--targets", "nosuch"))


def test_report_bad_format(run):
    check("report-bad-format", cli("report", run, "--format", "xml"))
    assert not (run / "report").exists()


# --- bangsim trace -------------------------------------------------------------------------


def test_trace_no_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check("trace-no-folder", cli("trace", "nope", "--game", 1))


def test_trace_no_manifest(run):
    (run / MANIFEST).unlink()
    check("trace-no-manifest", cli("trace", run, "--game", 1))


def test_trace_config_needed(tmp_path):
    assert run_cli(tmp_path / "two", "--players", "4-5").exit_code == 0
    line = check("trace-config-needed", cli("trace", tmp_path / "two", "--game", 1))
    assert line.endswith("--config: classic/4p/smart, classic/5p/smart")


def test_trace_unknown_config(run):
    line = check("trace-unknown-config", cli("trace", run, "--game", 1, "--config", "nosuch"))
    assert line.endswith("its configs: classic/4p/smart")


def test_trace_game_out_of_range(run):
    check("trace-game-out-of-range", cli("trace", run, "--game", 35))
    assert cli("trace", run, "--game", 34).exit_code == 0


def test_trace_run_and_options(run):
    check("trace-run-and-options", cli("trace", run, "--game", 1, "--players", 5))


def test_trace_config_without_run():
    check("trace-config-without-run", cli("trace", "--game", 1, "--config", "classic/5p/smart"))


@pytest.mark.parametrize("key", ["rules_version", "policy_version"])
def test_trace_other_rules(run, key):
    manifest = json.loads((run / MANIFEST).read_text())
    manifest["request"][key] -= 1
    (run / MANIFEST).write_text(json.dumps(manifest))
    check("trace-other-rules", cli("trace", run, "--game", 1))


def test_trace_theme_changed(tmp_path):
    theme = write(tmp_path, "t.toml", theme_text(cards=40, counts=(4, 7)))
    assert run_cli(tmp_path / "x", "--theme", theme).exit_code == 0
    theme.write_text(theme.read_text().replace("life = 4", "life = 3"))
    check("trace-theme-changed", cli("trace", tmp_path / "x", "--game", 1))


def test_trace_unknown_character():
    names = "Bart Casidy,Jourdonnais,Kit Carlson,Willy the Kid"
    line = check("trace-unknown-character", cli("trace", "--game", 1, "--characters", names))
    assert line.endswith(", ".join(load_theme("classic").character_names))


def test_trace_unknown_feature():
    line = check("trace-unknown-feature", cli("trace", "--game", 1, "--feature", "Willy the Kidd"))
    assert "Bart Cassidy, Black Jack" in line  # lists the theme's characters


def test_trace_bad_format():
    check("trace-bad-format", cli("trace", "--game", 1, "--format", "xml"))


def test_band_unknown_side(tmp_path):
    check("band-unknown-side", cli("band", "--side", "sheriff", "--out", tmp_path / "b"))
    assert not (tmp_path / "b").exists()  # nothing written


def test_band_bad_epsilon(tmp_path):
    check("band-bad-epsilon", cli("band", "--epsilon", "0", "--out", tmp_path / "b"))


def test_band_bad_spot_check(tmp_path):
    check("band-bad-spot-check", cli("band", "--spot-check", "-1", "--out", tmp_path / "b"))
    assert not (tmp_path / "b").exists()  # nothing written


def test_band_bad_check_seeds(tmp_path):
    check("band-bad-check-seeds", cli("band", "--check-seeds", "0", "--out", tmp_path / "b"))
    assert not (tmp_path / "b").exists()  # nothing written


def test_bands_file_unreadable(tmp_path):
    (tmp_path / "classic.json").write_text('{"bands": 3}')
    result = runner.invoke(app, ["band", "--shipped"], env={"BANGSIM_BANDS": str(tmp_path)})
    check("bands-file-unreadable", result)


def test_bands_row_bad(tmp_path):
    (tmp_path / "classic.json").write_text('{"bands": [{"theme": "classic", "players": 5}]}')
    result = runner.invoke(app, ["band", "--shipped"], env={"BANGSIM_BANDS": str(tmp_path)})
    check("bands-row-bad", result)


# --- bugs and --debug ---------------------------------------------------------------------


def boom(text):
    raise TypeError("boom")


def test_internal_error(tmp_path, monkeypatch):
    monkeypatch.setattr(simcore.cli.runs, "parse_players", boom)
    line = check("internal-error", run_cli(tmp_path / "x"))
    assert line.startswith("error: internal error (TypeError: boom); this is a bug")


def test_debug(tmp_path, monkeypatch):
    (tmp_path / "notes.txt").write_text("mine")
    result = cli("--debug", "run", *RUN, "--out", tmp_path / "notes.txt" / "x")
    check("debug", result)
    assert isinstance(result.exception, RunFolderError)  # raised, so Python shows it
    monkeypatch.setattr(simcore.cli.runs, "parse_players", boom)
    result = cli("--debug", "run", *RUN, "--out", tmp_path / "y")
    assert result.exit_code == 1 and isinstance(result.exception, TypeError)
    result = cli("run", *RUN, "--out", tmp_path / "y")  # --debug does not stick
    assert result.exit_code == 70


# --- balance files ------------------------------------------------------------------------

BALANCE_TARGETS = '"5" = { leader = 0.5 }'
BALANCE_KNOBS = "rules.leader_extra_life = [0, 1, 2]"


def balance(tmp_path, head="", search="", targets=BALANCE_TARGETS, knobs=BALANCE_KNOBS, *extra):
    """`bangsim balance` of a file with these sections (each left out when empty); nothing
    may be written."""
    parts = [f"[{name}]\n{text}" for name, text in (("balance", head), ("search", search),
             ("targets", targets), ("knobs", knobs)) if text]  # fmt: skip
    source = write(tmp_path, "bal.toml", "\n".join(parts) + "\n")
    result = cli("balance", source, "--out", tmp_path / "runs" / "x", "--no-progress", *extra)
    assert not (tmp_path / "runs").exists()
    return result


def test_balance_unknown_name(tmp_path):
    line = check("balance-unknown-name", cli("balance", "nosuch", "--out", tmp_path / "x"))
    assert "classic_5p" in line


def test_balance_file_missing(tmp_path):
    check("balance-file-missing", cli("balance", "missing/b.toml", "--out", tmp_path / "x"))


def test_balance_unknown_section(tmp_path):
    check("balance-unknown-section", balance(tmp_path, knobs=BALANCE_KNOBS + "\n[target]\nx = 1"))


def test_balance_section_not_table(tmp_path):
    source = write(tmp_path, "bal.toml", "search = 3\n")
    check("balance-section-not-table", cli("balance", source, "--out", tmp_path / "x"))
    # a balance file is read like a theme file: theme-syntax's and theme-not-utf8's lines
    write(tmp_path, "bal.toml", "[balance\n")
    check("theme-syntax", cli("balance", source, "--out", tmp_path / "x"))
    source.write_bytes(b'[balance]\ntitle = "caf\xe9"\n')
    check("theme-not-utf8", cli("balance", source, "--out", tmp_path / "x"))


def test_balance_unknown_key(tmp_path):
    check("balance-unknown-key", balance(tmp_path, head="player = 5"))
    assert "search.games: unknown key" in balance(tmp_path, search="games = 5").stderr


def test_balance_not_text(tmp_path):
    check("balance-not-text", balance(tmp_path, head="title = 3"))


def test_balance_bad_seed(tmp_path):
    check("balance-bad-seed", balance(tmp_path, head="seed = -1"))
    check("balance-bad-seed", balance(tmp_path, "", "", BALANCE_TARGETS, BALANCE_KNOBS,
                                      "--seed", "-1"))  # fmt: skip


def test_balance_unknown_theme(tmp_path):
    check("balance-unknown-theme", balance(tmp_path, head='themes = ["nosuch"]'))


def test_balance_players(tmp_path):
    check("balance-players", balance(tmp_path, head="players = [9]"))


def test_balance_players_no_table(tmp_path):
    write(tmp_path, "t.toml", theme_text(cards=40, counts=(4, 7)))
    line = check("balance-players-no-table", balance(tmp_path, head='themes = ["t.toml"]'))
    assert "(supported: 4, 7)" in line


def test_balance_unknown_strategy(tmp_path):
    check("balance-unknown-strategy", balance(tmp_path, head='strategy = "nosuchbot"'))


def test_balance_bad_budget(tmp_path):
    check("balance-bad-budget", balance(tmp_path, search="generations = 0"))
    assert "search.games_min must be" in balance(tmp_path, search="games_min = 1.5").stderr
    assert (
        "search.retune_replicates must be a whole number of at least 1, got 0"
        in balance(tmp_path, search="retune_replicates = 0").stderr
    )


def test_balance_bad_sigma(tmp_path):
    check("balance-bad-sigma", balance(tmp_path, search="sigma0 = 2"))
    assert (
        "band_epsilon must be a number in [0, 1)"
        in balance(tmp_path, search="band_epsilon = 1").stderr
    )


def test_balance_bad_retune(tmp_path):
    check("balance-bad-retune", balance(tmp_path, search='retune = "always"'))
    assert (
        "search.retune_keep must be 'gain' or 'beyond-luck', got 'always'"
        in balance(tmp_path, search='retune_keep = "always"').stderr
    )


def test_balance_games_max_below_min(tmp_path):
    check("balance-games-max-below-min", balance(tmp_path, search="games_max = 100"))


def test_balance_no_targets(tmp_path):
    check("balance-no-targets", balance(tmp_path, targets=""))


def test_balance_target_players(tmp_path):
    check("balance-target-players", balance(tmp_path, targets='"6" = { leader = 0.5 }'))


def test_balance_target_not_table(tmp_path):
    check("balance-target-not-table", balance(tmp_path, targets='"5" = 0.5'))


def test_balance_unknown_side(tmp_path):
    check("balance-unknown-side", balance(tmp_path, targets='"5" = { sheriff = 0.5 }'))


def test_balance_target_unreachable(tmp_path):
    check("balance-target-unreachable", balance(tmp_path, targets='"5" = { leader = 1.2 }'))
    assert "unreachable target 0" in balance(tmp_path, targets='"5" = { outlaw = 0 }').stderr


def test_balance_targets_contradictory(tmp_path):
    text = '"5" = { leader = 0.5, outlaw = 0.4, renegade = 0.2 }'
    check("balance-targets-contradictory", balance(tmp_path, targets=text))
    line = balance(tmp_path, targets='"5" = { leader = 0.7, outlaw = 0.4 }').stderr
    assert "sum to 1.100" in line and "(at most 1)" in line


def test_balance_band_shape(tmp_path):
    check("balance-band-shape", balance(tmp_path, targets="characters = 0.03"))


def test_balance_band_unreachable(tmp_path):
    check("balance-band-unreachable", balance(tmp_path, targets="characters = { within = 0 }"))


def test_balance_no_knobs(tmp_path):
    check("balance-no-knobs", balance(tmp_path, knobs=""))


def test_balance_knob_empty_table(tmp_path):
    check("balance-knob-empty-table", balance(tmp_path, knobs="rules = {}"))


def test_balance_knob_not_values(tmp_path):
    check("balance-knob-not-values", balance(tmp_path, knobs="rules.leader_extra_life = 2"))


def test_balance_knob_range(tmp_path):
    text = 'cards."Missed!".extra_copies = "4..-4"'
    check("balance-knob-range", balance(tmp_path, knobs=text))


def test_balance_knob_shape(tmp_path):
    check("balance-knob-shape", balance(tmp_path, knobs='characters."Paul Regret" = [3, 4]'))


def test_balance_knob_twice(tmp_path):
    check("balance-knob-twice", balance(tmp_path, knobs="rules.leader_extra_life = [0, 0]"))


def test_balance_knob_nothing_to_move(tmp_path):
    text = "rules.leader_extra_life = [1]"
    check("balance-knob-nothing-to-move", balance(tmp_path, knobs=text))


def test_balance_knob_themes_differ(tmp_path):
    write(tmp_path, "a.toml", theme_text(cards=40, counts=(5,), theme_id="a"))
    write(tmp_path, "b.toml", theme_text(cards=41, counts=(5,), theme_id="b"))
    result = balance(tmp_path, head='themes = ["a.toml", "b.toml"]',
                     knobs='cards."BANG!".copies = [["2S", "3S"]]')  # fmt: skip
    check("balance-knob-themes-differ", result)


def test_balance_knob_path(tmp_path):
    check("balance-knob-path", balance(tmp_path, knobs="rules.leader_extra_lif = [0, 1]"))


def test_balance_knob_name(tmp_path):
    check("balance-knob-name", balance(tmp_path, knobs='cards."Missd!".extra_copies = [0, 1]'))


def test_balance_other_search(tmp_path):
    # a finished one-round search, then the same folder asked with another seed
    source = write(tmp_path, "bal.toml", f"[search]\ngenerations = 1\ngames_min = 32\n"
                   f"games_max = 32\nfinal_games = 100\n[targets]\n{BALANCE_TARGETS}\n"
                   f"[knobs]\n{BALANCE_KNOBS}\n")  # fmt: skip
    out = tmp_path / "out"
    assert cli("balance", source, "--out", out, "--no-progress").exit_code == 0
    before = snapshot(out)
    check("balance-other-search", cli("balance", source, "--out", out, "--seed", "2"))
    assert snapshot(out) == before
