"""The information rule, over the seat's view: the bots read the table through
simcore.engine.view and their own seat only, and what the view gives a seat does not change
when what that seat cannot see is permuted.

Three checks: (1) read from the source, every bot module reads the hidden parts of the state
(other hands and roles, the draw pile, others' beliefs) only at the deciding seat `p` and
imports nothing of the engine that reads them but the view; (2) the view's answers for a
seat are the same after the hidden parts are permuted; (3) tests/test_beliefs.py plays the
same permutation against every decision of real bots.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from test_beliefs import midgame_states, permute_hidden

from simcore.engine import view
from simcore.engine.state import S_N
from simcore.engine.vocab import ROLES

ROOT = Path(__file__).resolve().parent.parent
BOTS = (
    "strategies/decide.py",
    "strategies/learned.py",
    "strategies/policy.py",
    "strategies/uniform.py",
)
# parts of the state that hold what some seat may not see (State fields)
HIDDEN = ("role", "hand", "held", "belief", "deck")
# what the bots may import of the engine: nothing that reads a hidden part but the view
ENGINE_ALLOWED = {"jit", "rng", "state", "vocab", "view"}


def hidden_reads(path: Path) -> list[str]:
    """`G.<hidden>` reads not indexed first by the deciding seat `p`, as 'file:line text'."""
    source = path.read_text()
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    bad = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr in HIDDEN):
            continue
        if not (isinstance(node.value, ast.Name) and node.value.id == "G"):
            continue
        up = parents.get(node)
        ok = False
        if isinstance(up, ast.Subscript) and up.value is node:
            first = up.slice.elts[0] if isinstance(up.slice, ast.Tuple) else up.slice
            ok = isinstance(first, ast.Name) and first.id == "p"
        if not ok:
            bad.append(f"{path.name}:{node.lineno} {ast.get_source_segment(source, up)}")
    return bad


def engine_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("simcore.engine"):
            found.add(node.module.removeprefix("simcore.engine").lstrip(".") or node.names[0].name)
    return found


@pytest.mark.parametrize("module", BOTS)
def test_bots_read_hidden_parts_only_at_their_own_seat(module):
    assert hidden_reads(ROOT / module) == []
    assert engine_imports(ROOT / module) <= ENGINE_ALLOWED


def test_the_source_check_finds_a_peek(tmp_path):
    """The check can fail: a bot reading another seat's role or hand is named."""
    peek = tmp_path / "peek.py"
    peek.write_text(
        "def f(G, p, q):\n    return G.role[q] + G.hand[p, 0] + G.hand[q, 0] + G.belief[q, p]\n"
    )
    found = hidden_reads(peek)
    assert sorted(line.split(" ", 1)[1] for line in found) == [
        "G.belief[q, p]",
        "G.hand[q, 0]",
        "G.role[q]",
    ]


def view_of(G, p: int) -> tuple:
    """Everything the view module answers for seat p."""
    n = int(G.s[S_N])
    return (
        tuple(int(view.seen_role(G, p, q)) for q in range(n)),
        tuple(int(view.role_total(G, r)) for r in range(len(ROLES))),
        tuple(int(view.revealed_dead(G, r)) for r in range(len(ROLES))),
        int(view.all_unknowns_hostile(G, p)),
    )


def test_the_view_is_the_same_whatever_a_seat_cannot_see():
    """[C-02] Only the leader's role is public (and the eliminated's, revealed): permuting
    other hands, hidden roles and the deck leaves each seat's view as it was, and a hidden
    role reads as hidden."""
    rng = np.random.default_rng(3)
    checked = 0
    for G, _ in midgame_states(6, "smart", 20, 9):
        for p in range(int(G.s[S_N])):
            if not G.alive[p]:
                continue
            before = view_of(G, p)
            assert all(
                (r == view.ROLE_HIDDEN) == (q != p and q != 0 and G.alive[q])
                for q, r in enumerate(before[0])
            )
            for _ in range(3):
                permute_hidden(G, p, rng)
                assert view_of(G, p) == before
            checked += 1
    assert checked > 40
