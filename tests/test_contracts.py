"""Contracts between the engine's parts that would otherwise break silently: what a copy of
a state takes, the kernel functions the tracer observes by name, and the side each role
wins with, defined once."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simcore.engine import play, search, vocab
from simcore.engine.state import (
    COPIED_WORDS,
    SCRATCH,
    STATE_DTYPE,
    STATE_FIELDS,
    copied_words,
    new_states,
)
from simcore.studies import batch


def test_a_copy_takes_every_field_but_the_scratch():
    """Every field but the legal-play scratch lies in the words a copy takes, the scratch
    after them; a state copied as search copies one equals its original field by field."""
    end = COPIED_WORDS * 8
    for name in STATE_DTYPE.names:
        offset = STATE_DTYPE.fields[name][1]
        size = STATE_DTYPE.fields[name][0].itemsize
        if name in SCRATCH:
            assert offset >= end, name
        else:
            assert offset + size <= end, name
    states = new_states(2)
    words = search.copies(states).words
    words[0] = np.random.default_rng(1).integers(-(2**62), 2**62, words.shape[1])
    words[1, :COPIED_WORDS] = words[0, :COPIED_WORDS]
    for name in STATE_DTYPE.names:
        if name not in SCRATCH:
            assert np.array_equal(states[name][0], states[name][1], equal_nan=True), name


def test_a_field_after_the_scratch_or_a_moved_scratch_is_refused():
    """A field appended to the state after the scratch would be left out of every copy (a
    rollout would start from zeros there): the state refuses it, and a reordered scratch."""
    assert copied_words(STATE_FIELDS) == COPIED_WORDS
    with pytest.raises(AssertionError, match="must come last"):
        copied_words([*STATE_FIELDS, ("new_counter", np.int64, (4,))])
    moved = [f for f in STATE_FIELDS if f[0] != "act_tgt"] + [STATE_FIELDS[-2]]
    with pytest.raises(AssertionError, match="must come last"):
        copied_words(moved)


# run in a process of its own: this one never imports the observers (test_trace checks that)
TRACER_CONTRACT = """
from simcore.engine import kernel, tracer
assert tracer.unhooked() == [], tracer.unhooked()
discard = kernel.discard
del kernel.discard
assert tracer.unhooked() == ["discard"], tracer.unhooked()
try:
    with tracer.observing(None):
        pass
except RuntimeError as e:
    assert "lacks: discard" in str(e), e
else:
    raise AssertionError("a trace ran with a hooked function missing")
kernel.discard = discard
tracer.Recorder.pre_resolve_all = lambda *a: None
assert tracer.unhooked() == ["Recorder hook for resolve_all"], tracer.unhooked()
"""


def test_the_tracer_observes_kernel_functions_that_exist():
    """The tracer wraps kernel functions by name: a renamed or removed one is named, and a
    trace refuses to run, instead of silently recording less; so is a Recorder hook that
    names no observed function."""
    root = str(Path(__file__).parent.parent)  # the tree under test
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=path)
    proc = subprocess.run(
        [sys.executable, "-c", TRACER_CONTRACT], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0, proc.stderr


def test_role_to_side_is_defined_once():
    """[C-25] [C-26] [C-27] The deputies win with the leader; outlaws and the renegade each alone. One table
    in the vocabulary, which the batches, the engine's outcomes and the search read."""
    assert vocab.SIDE_OF == (vocab.W_LEADER, vocab.W_LEADER, vocab.W_OUTLAW, vocab.W_RENEGADE)
    assert vocab.SIDE_OF_ROLE == {
        "leader": "leader", "deputy": "leader", "outlaw": "outlaw", "renegade": "renegade",
    }  # fmt: skip
    assert batch.SIDE_OF is vocab.SIDE_OF
    assert play.SIDE_OF is vocab.SIDE_OF
    assert search.SIDE_OF is vocab.SIDE_OF


def test_the_one_effect_that_is_a_bang_card_is_bang():
    """kernel.legal_actions lists and scores a BANG! card as E_BANG (a constant, for speed):
    that holds while E_BANG is the one effect whose `bang_card` trait is set."""
    assert [e for e, t in vocab.EFFECT_TRAITS.items() if t.bang_card] == [vocab.E_BANG]
