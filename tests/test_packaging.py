"""A wheel carries its data: the shipped themes, experiments and strategy presets are package
data, so an installed copy finds them anywhere (not only in a clone, next to configs/).

The wheel is built offline from a copy of the sources (nothing is written into the repo),
unpacked outside the repo and imported from there in a subprocess, whose module and data
paths must all lie in the unpacked copy: the repo's editable install (its import hook in
.venv) must not be what answers.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest

from strategies.params import N_PARAMS

ROOT = Path(__file__).resolve().parent.parent
THEMES = sorted(p.stem for p in (ROOT / "configs" / "themes").glob("*.toml"))
EXPERIMENTS = sorted(p.stem for p in (ROOT / "configs" / "experiments").glob("*.toml"))
BALANCE = sorted(p.stem for p in (ROOT / "configs" / "balance").glob("*.toml"))
EXAMPLES = sorted(p.stem for p in (ROOT / "configs" / "examples").glob("*.toml"))
PRESETS = sorted(
    k for k in tomllib.loads((ROOT / "strategies/presets.toml").read_text()) if k != "defaults"
)
TUNED = sorted(p.stem for p in (ROOT / "strategies" / "tuned").glob("*.toml"))  # per theme
BANDS = sorted(  # shipped bands: THEME.json and its end presets
    p.name for p in (ROOT / "strategies" / "bands").iterdir() if p.suffix in (".json", ".toml")
)
MIXTURES = sorted(p.name for p in (ROOT / "strategies" / "mixtures").glob("*.json"))
BAND_MIXTURES = sorted(  # shipped bands' mixed ends
    p.name for p in (ROOT / "strategies" / "bands" / "mixtures").glob("*.json")
)
SOURCES = ("pyproject.toml", "README.md", "simcore", "strategies", "reports", "configs")

# run in the unpacked wheel; prints what it found as JSON (the test compares it)
PROBE = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path

    import reports, simcore, simcore.configs, strategies
    from simcore.studies.balance import read_problem, shipped_balance
    from simcore.runs.experiment import EXPERIMENTS_DIR, plan_experiment, shipped_experiments
    from simcore.engine.theme import THEMES_DIR, load_theme, shipped_themes
    from strategies.presets import PRESETS_FILE, THEMED_DIR, load_presets, resolve_strategy
    from typer.testing import CliRunner
    from simcore.cli import app

    runs = Path(sys.argv[1])
    cli = CliRunner()
    found = {
        "files": [str(m.__file__) for m in (simcore, simcore.configs, strategies, reports)]
        + [str(THEMES_DIR), str(EXPERIMENTS_DIR), str(PRESETS_FILE), str(THEMED_DIR)],
        "tuned": sorted(p.name[:-5] for p in THEMED_DIR.iterdir() if p.name.endswith(".toml")),
        "tuned_shape": {
            t: list(resolve_strategy("tuned", 5, t).matrix.shape) for t in shipped_themes()
        },
        "themes": shipped_themes(),
        "theme_files": {t: str(load_theme(t).path) for t in shipped_themes()},
        "theme_ids": {t: load_theme(t).id for t in shipped_themes()},
        "presets": sorted(load_presets()),
        "resolved": [resolve_strategy(p).label() for p in sorted(load_presets())],
        "experiments": shipped_experiments(),
        "cells": {},
        "experiment_files": {},
        "balance": shipped_balance(),
        "balance_files": {n: str(read_problem(n).source) for n in shipped_balance()},
    }
    for name in shipped_experiments():
        plan = plan_experiment(name, runs / name)  # validates every cell, writes nothing
        found["cells"][name] = len(plan.cells)
        found["experiment_files"][name] = str(plan.source)
    listing = cli.invoke(app, ["themes"])
    found["cli_themes"] = [line.split()[0] for line in listing.stdout.splitlines()[1:]]
    exported = cli.invoke(app, ["themes", "export", "classic"])
    found["export_classic"] = [exported.exit_code, exported.stdout]
    unknown = cli.invoke(app, ["experiment", "nosuch"])
    found["unknown_experiment"] = [unknown.exit_code, unknown.stderr]
    print(json.dumps(found))
    """
)


def copy_sources(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The project's wheel, built offline with the venv's setuptools (pip wheel, no deps)."""
    src = tmp_path_factory.mktemp("src")
    copy_sources(src)
    out = tmp_path_factory.mktemp("wheel")
    cmd = [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation"]
    done = subprocess.run(
        [*cmd, "--no-index", "-q", "-w", str(out)], cwd=src, capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.fail(
            f"building the wheel failed (does .venv have setuptools>=70.1? run make setup):\n"
            f"{done.stdout[-2000:]}{done.stderr[-2000:]}"
        )
    (whl,) = out.glob("*.whl")
    return whl


def test_wheel_holds_every_shipped_file_verbatim(wheel):
    expected = {
        **{f"simcore/configs/themes/{t}.toml": f"configs/themes/{t}.toml" for t in THEMES},
        **{
            f"simcore/configs/experiments/{e}.toml": f"configs/experiments/{e}.toml"
            for e in EXPERIMENTS
        },
        **{f"simcore/configs/balance/{b}.toml": f"configs/balance/{b}.toml" for b in BALANCE},
        **{f"simcore/configs/examples/{x}.toml": f"configs/examples/{x}.toml" for x in EXAMPLES},
        "strategies/presets.toml": "strategies/presets.toml",
        **{f"strategies/tuned/{t}.toml": f"strategies/tuned/{t}.toml" for t in TUNED},
        **{f"strategies/bands/{b}": f"strategies/bands/{b}" for b in BANDS},
        **{f"strategies/mixtures/{m}": f"strategies/mixtures/{m}" for m in MIXTURES},
        **{
            f"strategies/bands/mixtures/{m}": f"strategies/bands/mixtures/{m}"
            for m in BAND_MIXTURES
        },
        **{
            f"reports/templates/{p.name}": f"reports/templates/{p.name}"
            for p in (ROOT / "reports" / "templates").glob("*.html")
        },
    }
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for inside, repo in expected.items():
            assert inside in names, f"{inside} missing from {wheel.name}"
            assert z.read(inside) == (ROOT / repo).read_bytes(), inside
        shipped = {n for n in names if n.startswith("simcore/configs/") and n.endswith(".toml")}
        assert shipped == {n for n in expected if n.startswith("simcore/configs/")}
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert "bangsim = simcore.cli:app" in z.read(entry_points).decode()


def test_installed_copy_finds_every_theme_preset_and_experiment(wheel, tmp_path):
    site = tmp_path / "site"  # the wheel unpacked: what pip install puts in site-packages
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    work = tmp_path / "elsewhere"  # cwd outside the repo
    work.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": str(site),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(work / "runs")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])

    site_text = str(site.resolve())
    for path in [*found["files"], *found["theme_files"].values()]:
        assert path.startswith(site_text), f"{path} is not the wheel's copy (in {site_text})"
    for path in [*found["experiment_files"].values(), *found["balance_files"].values()]:
        assert path.startswith(site_text), path

    assert found["themes"] == THEMES
    assert found["theme_ids"] == {t: t for t in THEMES}
    assert found["cli_themes"] == THEMES
    assert found["presets"] == PRESETS
    assert found["resolved"] == PRESETS
    assert found["tuned"] == TUNED and "classic" in TUNED  # `tuned`: for every theme
    assert all(shape == [4, N_PARAMS] for shape in found["tuned_shape"].values())
    assert found["experiments"] == EXPERIMENTS
    assert found["balance"] == BALANCE and "classic_5p" in BALANCE
    assert all(n > 0 for n in found["cells"].values()), found["cells"]
    assert found["export_classic"] == [0, (ROOT / "configs/themes/classic.toml").read_text()]
    code, stderr = found["unknown_experiment"]
    assert code == 2
    assert f"unknown experiment 'nosuch' (shipped: {', '.join(EXPERIMENTS)}" in stderr
    assert not (work / "runs").exists()  # planning writes nothing


def test_a_clone_on_the_path_finds_configs_beside_simcore(monkeypatch):
    """A clone used without installing it (only on PYTHONPATH, so `simcore.configs` is no
    package) reads the configs/ folder beside simcore/."""
    from simcore.engine import theme

    def not_installed(package):
        raise ModuleNotFoundError(package)

    monkeypatch.setattr(theme, "files", not_installed)
    assert Path(theme._configs_dir()) == ROOT / "configs"
