"""The house keeps its layers: every import of every module, read from its source (lazy
imports inside functions and imports for type checking included), goes down or sideways,
never up, and no two files import each other, directly or round a longer loop.

    base        simcore.errors, simcore.stats,          the errors, intervals and progress
                simcore.progress                        bars everyone uses
    engine      simcore.engine.*                        one game; partner of strategies
    strategies  strategies.*                            the bots, and nothing that plays them
    runs        simcore.runs.*                          run folders, experiments, precision, Ray
    studies     simcore.studies.*                       what plays batches to answer a question
    reports     reports.*                               tables, charts and pages over results
    api         simcore (the package), simcore.api      the public Python entry
    cli         simcore.cli.*, simcore.__main__         the command line

The kernel compiles the bots' decision functions in, so the engine may import from
strategies that pair alone (PARTNER: the seam the kernel calls, strategies.decide, and the
parameters its decisions read, strategies.params); strategy specs are resolved above the
engine, which plays what it is handed. Strategies import only the engine.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("simcore", "strategies", "reports")
BELOW = {  # layer -> the layers its modules may import (besides its own)
    "base": (),
    "engine": ("base",),  # and PARTNER
    "strategies": ("base", "engine"),
    "runs": ("base", "engine", "strategies"),
    "studies": ("base", "engine", "strategies", "runs"),
    "reports": ("base", "engine", "strategies", "runs", "studies"),
    "api": ("base", "engine", "strategies", "runs", "studies", "reports"),
    "cli": ("base", "engine", "strategies", "runs", "studies", "reports", "api"),
}
PARTNER = ("strategies.decide", "strategies.params")  # what the engine may import of strategies


def layer(module: str) -> str:
    if module in ("simcore.errors", "simcore.stats", "simcore.progress"):
        return "base"
    for prefix, name in (
        ("simcore.engine", "engine"),
        ("simcore.runs", "runs"),
        ("simcore.studies", "studies"),
        ("simcore.cli", "cli"),
        ("simcore.__main__", "cli"),
        ("simcore.configs", "base"),
        ("strategies", "strategies"),
        ("reports", "reports"),
        ("simcore", "api"),
    ):
        if module == prefix or module.startswith(prefix + "."):
            return name
    raise AssertionError(f"{module}: in no layer; add it to tests/test_layers.py")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = modules()


def imports(name: str, path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import of a project module in `path`; `from P import X`
    names the module P.X when X is one, else P."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names
            ]
        else:
            continue
        found += [(node.lineno, t) for t in targets if t in MODULES and t != name]
    return found


GRAPH = {name: imports(name, path) for name, path in MODULES.items()}


def where(name: str, line: int) -> str:
    return f"{MODULES[name].relative_to(ROOT)}:{line}"


def test_every_module_has_a_layer():
    assert {layer(m) for m in MODULES} == set(BELOW)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_go_down(name):
    own = layer(name)
    for line, target in GRAPH[name]:
        up = layer(target)
        if own == "engine" and target in PARTNER:
            continue
        if up != own and up not in BELOW[own]:
            allowed = ", ".join((own, *BELOW[own], *(PARTNER if own == "engine" else ())))
            pytest.fail(
                f"{where(name, line)}: imports {target} ({up}); {own} may import only {allowed}",
                pytrace=False,
            )


def test_no_import_cycles():
    """Tarjan's strongly connected components: any with two or more files is a loop."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for _, w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                loops.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    if loops:
        first = loops[0]
        edges = [
            f"{where(a, line)} imports {b}" for a in first for line, b in GRAPH[a] if b in first
        ]
        pytest.fail(f"import loop: {'; '.join(edges)}", pytrace=False)


def test_imports_are_read_as_python_resolves_them():
    """The edges the contracts check are the real ones: a lazy import inside a function
    counts, and `from simcore.engine import vocab` names the module simcore.engine.vocab."""
    edges = {(a, b) for a, found in GRAPH.items() for _, b in found}
    assert ("simcore.api", "simcore.engine.play") in edges  # inside simulate()
    assert ("reports.charts", "simcore.engine.vocab") in edges
    assert ("simcore.engine.kernel", "strategies.decide") in edges


def test_the_engine_imports_of_strategies_its_partner_alone():
    """The engine parses no strategy spec: of strategies it imports the pair the kernel
    compiles in, and nothing else (strategies.presets is read above it)."""
    found = {b for a, edges in GRAPH.items() if layer(a) == "engine" for _, b in edges}
    assert {b for b in found if layer(b) == "strategies"} == set(PARTNER)
