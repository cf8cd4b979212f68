"""Check that the rulebook passages quoted in test docstrings are the rulebook's words.

A rules test quotes its source after ``Rulebook:`` as one or more "..." passages (joined by
" / "). `assert_quotes_verbatim` finds every such passage in a test module and asserts that
it occurs in the rulebook text, comparing with whitespace collapsed and typographic quotes
and apostrophes made plain (docstrings wrap lines; the rulebook text uses curly quotes).
The rulebooks live beside the repository (../shared/rules); without them the check skips.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "rules"
PLAIN = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})


def normal(text: str) -> str:
    return " ".join(text.translate(PLAIN).split())


def quoted_passages(doc: str) -> list[str]:
    """The "..." passages after 'Rulebook:' in a docstring."""
    _, sep, rest = doc.partition("Rulebook:")
    if not sep:
        return []
    return re.findall(r'"([^"]+)"', rest)


def assert_quotes_verbatim(module_name: str, *rulebooks: str) -> None:
    """Every passage quoted in the module's tests occurs in one of the rulebooks."""
    texts = []
    for rulebook in rulebooks:
        path = RULES_DIR / rulebook
        if not path.is_file():
            pytest.skip(f"{path} not present")
        texts.append(normal(path.read_text(encoding="utf-8")))
    module = sys.modules[module_name]
    checked = 0
    for name in dir(module):
        fn = getattr(module, name)
        if not name.startswith("test_") or not callable(fn) or not fn.__doc__:
            continue
        for passage in quoted_passages(fn.__doc__):
            found = any(normal(passage) in text for text in texts)
            assert found, f"{name}: not in {' or '.join(rulebooks)}: {passage!r}"
            checked += 1
    assert checked > 0
