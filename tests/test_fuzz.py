"""Fuzzing the kernel: random valid themes played in checked mode.

Random themes (tests/fuzz_themes.py: random copies of cards from the whole effect
vocabulary, random faces, characters, abilities, lives, role tables and rule flags, decks
as small as the rules allow), loaded from TOML text through the real loader, are played
with random player counts, character pools and presets (per role too). In checked mode
every game ends (a winner, or capped at the turn cap), every invariant holds and nothing
raises; the rows agree (exactly one winning side unless capped; a capped game has winner
`none`), and checked mode plays the very games unchecked mode plays.

Degenerate decks (no BANG!, nothing that hurts, only Beer, only Missed!, only Jail, every
card a Dynamite, ...) end at the turn cap as `capped`, or legitimately, never hang.

`make test` runs each property with a small fixed, derandomized budget (tests/conftest.py,
profile `ci`); `make fuzz` runs them with the `fuzz` profile's thousands of examples. What
`make fuzz` finds comes back: the shrunk failing example of a property (its theme and how
it was played) is written to tests/fuzz_failures/ as JSON, to be committed, and
test_kept_fuzz_failures_pass replays every file there in `make test` (the `ci` profile is
derandomized and keeps no example database, so nothing else would replay it).
"""

from __future__ import annotations

import hashlib
import json
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest
from fuzz_themes import (
    FUZZ,
    budget,
    deck_too_small,
    plays,
    shipped_raw,
    shipped_variants,
    theme_dicts,
    to_toml,
)
from hypothesis import assume, currently_in_test_context, event, given, note, settings
from hypothesis import strategies as st
from hypothesis.control import current_build_context
from played import play_games

from simcore.engine import limits, vocab
from simcore.engine.play import GameBlock
from simcore.engine.rows import seat_frame
from simcore.engine.state import (
    EV_BEER_SAVES,
    EV_BEERS_AT_LETHAL,
    EV_BEERS_TWO_LEFT_HEALED,
    EV_CHECK,
    N_CHECK_KINDS,
    N_EV,
)
from simcore.engine.theme import Theme, ThemeError, compile_theme, load_theme
from simcore.engine.vocab import (
    R_LEADER,
    R_OUTLAW,
    R_RENEGADE,
    W_LEADER,
    W_NONE,
    W_OUTLAW,
    W_RENEGADE,
)


@pytest.fixture(scope="module")
def theme_file(tmp_path_factory) -> Path:
    """One file each example overwrites (a module fixture: hypothesis reruns the test body)."""
    return tmp_path_factory.mktemp("fuzz") / "fuzz.toml"


def load_text(path: Path, text: str) -> Theme:
    """Load a generated theme through the file loader. The only rejection accepted is a deck
    too small to deal the starting hands (a rule the strategies follow by construction, but
    whose exact form the loader owns): that example is discarded, any other error fails."""
    path.write_text(text)
    try:
        return load_theme(path)
    except ThemeError as e:
        if deck_too_small(str(e)):
            event("rejected by the loader: deck too small to deal")
            assume(False)
        raise


def check_block(block: GameBlock, theme: Theme, players: int, turn_cap: int) -> None:
    """Every game ended (a winner, or capped at the turn cap) with the rows consistent."""
    n = len(block.winner)
    capped = block.capped
    assert set(np.unique(block.winner)) <= {W_LEADER, W_OUTLAW, W_RENEGADE, W_NONE}
    assert ((block.winner == W_NONE) == capped).all(), "capped <=> winner none"
    # a capped game played the cap, or looped: a turn of more than ACTIONS_PER_TURN_CAP plays
    # (cards that give back their like: test_card_loop_decks_end_capped) ends it too
    early = capped & (block.turns < turn_cap)
    looping = {vocab.E_DRAW, vocab.E_GENERAL_STORE, vocab.E_STEAL}
    assert not early.any() or looping & set(theme.tables.card_effect.tolist()), "capped early"
    assert (block.turns >= 1).all() and (block.turns <= turn_cap).all()
    assert (block.rounds >= 1).all() and (block.rounds <= block.turns).all()
    assert (block.turns <= block.rounds.astype(np.int64) * players).all()
    # seats: the leader in seat 0, the theme's role mix, distinct characters
    table = sorted(theme.tables.roles[players, :players])
    for g in range(n):
        assert block.role[g, 0] == R_LEADER
        assert sorted(block.role[g]) == table
        assert len(set(block.character[g])) == players
    assert (block.character >= 0).all() and (block.character < len(theme.character_names)).all()
    # exactly one winning side unless capped; a capped game has no winner
    assert not block.won[capped].any()
    ended = ~capped
    orphan = ended & (block.winner == W_OUTLAW) & ~(block.role == R_OUTLAW).any(axis=1)
    assert not orphan.any(), "outlaws won a table without outlaws"
    assert block.won[ended].any(axis=1).all()
    assert block.survived[ended].any(axis=1).all()
    hostile = (block.role == R_OUTLAW) | (block.role == R_RENEGADE)
    lw = block.winner == W_LEADER
    assert block.survived[lw, 0].all() and not (block.survived & hostile)[lw].any()
    assert not block.survived[block.winner == W_OUTLAW, 0].any()
    ren = block.winner == W_RENEGADE
    assert (block.survived[ren].sum(axis=1) == 1).all()
    assert (block.survived & (block.role == R_RENEGADE))[ren].any(axis=1).all()


def check_rows(block: GameBlock, theme: Theme, players: int, game0: int) -> None:
    """The seat rows say the same: one winner per game, `none` exactly when capped, and the
    seats of the winning side (only those) marked won."""
    rows = seat_frame(block, theme, players, game0, "fuzz")
    assert rows.height == len(block.winner) * players
    for (game,), g in rows.group_by("game"):
        assert g["winner"].n_unique() == 1 and g["capped"].n_unique() == 1
        winner, capped = g["winner"][0], g["capped"][0]
        assert (winner == "none") == capped
        side = {"leader": {"leader", "deputy"}, "outlaw": {"outlaw"}, "renegade": {"renegade"}}
        expected = g["role"].is_in(list(side.get(winner, set())))
        assert (g["won"] == expected).all(), f"game {game}: won flags disagree with {winner}"


def note_event(text: str) -> None:
    """A line in `--hypothesis-show-statistics`, when a hypothesis test is running."""
    if currently_in_test_context():
        event(text)


def play_and_check(theme: Theme, kw: dict) -> GameBlock:
    turn_cap = int(theme.tables.rules[vocab.RU_TURN_CAP])
    block = play_games(theme, checked=True, **kw)
    check_block(block, theme, kw["players"], turn_cap)
    check_rows(block, theme, kw["players"], kw["game0"])
    check_feature(block, theme, kw.get("feature"))
    if kw.get("events"):
        check_events(block, theme)
    note_event(f"capped: {int(block.capped.sum())} of {len(block.capped)}")
    # checked mode only reads: the same games unchecked
    fast = play_games(theme, checked=False, **kw)
    for field in GameBlock._fields:
        if field != "preset_names":
            assert np.array_equal(getattr(block, field), getattr(fast, field)), field
    return block


def check_feature(block: GameBlock, theme: Theme, feature: str | None) -> None:
    """The featured character sits at the featured seat of every game (of its role)."""
    if feature is None:
        assert (block.featured == -1).all()
        return
    name, _, role = feature.partition("=")
    seat = block.featured.astype(np.int64)
    assert ((seat >= 0) & (seat < block.role.shape[1])).all()
    games = np.arange(len(seat))
    assert (block.character[games, seat] == theme.character_names.index(name)).all()
    if role:
        names = {
            **{r: r for r in vocab.ROLES},
            **{v.lower(): r for r, v in theme.role_names.items()},
        }
        assert (block.role[games, seat] == vocab.ROLES.index(names[role.lower()])).all()


def check_events(block: GameBlock, theme: Theme) -> None:
    """Event counts: none negative, no more checks passed than made (per kind), no more
    passing cards than cards revealed; a Beer with two players left heals only where the
    rules let it."""
    ev, used = block.events.astype(np.int64), block.used
    assert ev.shape == (len(block.winner), N_EV) and (used >= 0).all()
    share = [EV_CHECK + 5 * k + 4 for k in range(N_CHECK_KINDS)]  # pile shares, in millionths
    assert (np.delete(ev, share, axis=1) >= 0).all()
    assert (ev[:, share] >= 0).all()
    assert used.shape == (*block.role.shape, len(theme.card_names))
    for k in range(N_CHECK_KINDS):
        made, passed, revealed, revealed_passing = (ev[:, EV_CHECK + 5 * k + j] for j in range(4))
        assert (passed <= made).all() and (revealed_passing <= revealed).all()
        assert (made <= revealed).all(), "a check counted that revealed no card"
    if theme.tables.rules[vocab.RU_BEER_MIN_PLAYERS] >= 3:
        assert (ev[:, EV_BEERS_TWO_LEFT_HEALED] == 0).all()
    assert (ev[:, EV_BEER_SAVES] <= ev[:, EV_BEERS_AT_LETHAL]).all()


# --- failures kept -------------------------------------------------------------------------

FAILURES = Path(__file__).with_name("fuzz_failures")


def keep_failure(test: str, raw: dict, kw: dict) -> Path:
    """Write a failing example (the property, the theme dict, play_games' keywords) to
    FAILURES, named by its content."""
    text = json.dumps({"test": test, "theme": raw, "play": kw}, indent=1, sort_keys=True)
    path = FAILURES / f"{test}-{hashlib.sha256(text.encode()).hexdigest()[:10]}.json"
    FAILURES.mkdir(exist_ok=True)
    path.write_text(text + "\n")
    return path


def check_kept(test: str, theme_file: Path, raw: dict, kw: dict, check=play_and_check) -> None:
    """check(theme, kw) for a drawn example; under `make fuzz`, the example hypothesis
    reports (the shrunk one, run last) is kept when it fails."""
    theme = load_text(theme_file, to_toml(raw))
    try:
        check(theme, kw)
    except Exception:
        if FUZZ and current_build_context().is_final:
            note(f"kept in {keep_failure(test, raw, kw)}")
        raise


@pytest.mark.parametrize("path", sorted(FAILURES.glob("*.json")), ids=lambda p: p.stem)
def test_kept_fuzz_failures_pass(path, theme_file):
    """Every failure `make fuzz` kept plays correctly now."""
    case = json.loads(path.read_text())
    play_and_check(load_text(theme_file, to_toml(case["theme"])), case["play"])


def test_a_failure_under_make_fuzz_is_kept_shrunk(tmp_path, theme_file, monkeypatch):
    """Under `make fuzz` a property's failing example is written, shrunk, and the file
    replays it."""
    monkeypatch.setitem(globals(), "FUZZ", True)
    monkeypatch.setitem(globals(), "FAILURES", tmp_path)

    def at_most_one_game(theme, kw):  # a made-up property that fails from 2 games on
        assert kw["games"] < 2

    raw = shipped_raw("classic")

    @settings(max_examples=30, derandomize=True, database=None)
    @given(kw=plays(load_text(theme_file, to_toml(raw))))
    def prop(kw):
        check_kept("prop", theme_file, raw, kw, check=at_most_one_game)

    with pytest.raises(AssertionError):
        prop()
    (kept,) = tmp_path.glob("prop-*.json")
    case = json.loads(kept.read_text())
    assert case["play"]["games"] == 2  # shrunk to the smallest failing count
    with pytest.raises(AssertionError):
        at_most_one_game(load_text(theme_file, to_toml(case["theme"])), case["play"])


# --- properties ---------------------------------------------------------------------------


def play_drawn(data, theme_file, themes, test: str) -> None:
    """Draw a theme dict, load it through its TOML text, draw how to play it, and check."""
    raw = data.draw(themes, label="theme")
    text = to_toml(raw)
    note(f"theme TOML:\n{text}")
    assert tomllib.loads(text) == raw
    theme = load_text(theme_file, text)
    kw = data.draw(plays(theme), label="play")
    check_kept(test, theme_file, raw, kw)


@budget(50)
@given(data=st.data())
def test_random_themes_play_in_checked_mode(data, theme_file):
    """Random valid themes from the whole vocabulary: every game ends, invariants hold."""
    play_drawn(data, theme_file, theme_dicts(), "random_themes")


@budget(25)
@given(data=st.data())
def test_shipped_theme_variants_play_in_checked_mode(data, theme_file):
    """Shipped themes with random copies dropped or added, characters and player counts
    dropped and rule flags changed: every game ends, invariants hold."""
    play_drawn(data, theme_file, shipped_variants(), "shipped_variants")


@budget(25)
@given(data=st.data())
def test_single_effect_decks_play_in_checked_mode(data, theme_file):
    """Decks of one or two effects (degenerate by construction, e.g. every card a Jail)."""
    effects = data.draw(
        st.lists(st.sampled_from(sorted(vocab.EFFECTS)), min_size=1, max_size=2), label="effects"
    )
    raw = data.draw(theme_dicts(effects=st.sampled_from(effects)), label="theme")
    text = to_toml(raw)
    note(f"theme TOML:\n{text}")
    theme = load_text(theme_file, text)
    kw = data.draw(plays(theme), label="play")
    check_kept("single_effect_decks", theme_file, raw, kw)


# --- degenerate decks -----------------------------------------------------------------------

CLASSIC = shipped_raw("classic")
CLASSIC_FACES = [f for c in CLASSIC["cards"] for f in c["copies"]]
# every card that can cost a life (Calamity Janet plays a Missed! as a BANG!)
HURTS = {"bang", "missed", "gatling", "duel", "indians", "dynamite", "bang_any"}
LOOPS = {"draw", "general_store", "steal"}  # cards whose plays can give back their like


def classic_with(cards: list[dict]) -> Theme:
    """The classic theme (characters, role tables, checks, rules) with another deck."""
    raw = {k: v for k, v in CLASSIC.items() if k != "cards"}
    return compile_theme(dict(raw, cards=cards), "degenerate.toml")


def only(name: str, effect: str) -> list[dict]:
    """Every one of the classic deck's 80 faces a copy of one card."""
    return [{"name": name, "effect": effect, "copies": list(CLASSIC_FACES)}]


def classic_less(effects: set[str]) -> list[dict]:
    return [c for c in CLASSIC["cards"] if c["effect"] not in effects]


DEGENERATE = {
    "no BANG!, no card loop": classic_less({"bang"} | LOOPS),
    # 27 cards: each copy twice, to deal 7 players
    "nothing hurts, no card loop": [
        dict(c, copies=c["copies"] * 2) for c in classic_less(HURTS | LOOPS)
    ],
    "only Beer": only("Beer", "heal"),
    "only Missed!": only("Missed!", "missed"),
    "only Jail": only("Jail", "jail"),
    "every card a Dynamite": only("Dynamite", "dynamite"),
    "only Barrel": only("Barrel", "barrel"),
    "only Saloon": only("Saloon", "heal_all"),
    "only Cat Balou": only("Cat Balou", "discard_any"),
}
# decks where no one can lose a life whatever the characters do: every game runs to the cap
NEVER_ENDS = {
    "nothing hurts, no card loop",
    "only Beer",
    "only Jail",
    "only Barrel",
    "only Saloon",
    "only Cat Balou",
}
# decks whose plays loop (a draw card drawing itself back, a Panic! on a Suzy Lafayette
# refilling from an all-Panic! deck), and at how many players
LOOPING = {
    "no BANG!": (classic_less({"bang"}), 7),
    "nothing hurts": (classic_less(HURTS), 7),
    "only Stagecoach": (only("Stagecoach", "draw"), 4),
    "only General Store": (only("General Store", "general_store"), 4),
    "only Panic!": (only("Panic!", "steal"), 4),
}


@pytest.mark.parametrize("deck", list(DEGENERATE))
def test_degenerate_decks_end_capped(deck):
    """Degenerate decks end at the turn cap and are reported capped (or end legitimately),
    in checked mode, quickly: 4 and 7 players, every preset."""
    theme = classic_with(DEGENERATE[deck])
    start = time.perf_counter()
    for players in (4, 7):
        for strategy in ("random", "basic", "smart", "aggressive", "cautious"):
            kw = dict(players=players, games=8, seed=3, game0=0, strategy=strategy, characters=None)
            block = play_and_check(theme, kw)
            if deck in NEVER_ENDS:
                assert block.capped.all(), (deck, players, strategy)
                assert (block.turns == limits.TURN_CAP).all()
    # 80 games of up to 1000 turns, twice (checked and not): well under a second, never a hang
    assert time.perf_counter() - start < 60


@pytest.mark.parametrize("deck", list(LOOPING))
def test_card_loop_decks_end_capped(deck):
    """A scored bot plays a card whenever it helps on its own, so plays that give back their
    like repeat for ever (found by fuzzing: a runaway turn in checked mode). A turn of more
    than limits.ACTIONS_PER_TURN_CAP plays ends the game as capped, checked or not."""
    cards, players = LOOPING[deck]
    theme = classic_with(cards)
    block = play_games(theme, players, 8, seed=3, strategy="basic")
    check_block(block, theme, players, limits.TURN_CAP)
    checked = play_games(theme, players, 40, seed=3, strategy="basic", checked=True)
    assert checked.capped.any() and (checked.turns[checked.capped] <= limits.TURN_CAP).all()


# --- found by fuzzing ---------------------------------------------------------------------


def test_a_table_without_outlaws_is_refused():
    """Found by fuzzing: a table of leader, renegade and deputies gave the game to the
    outlaws when the leader died with a deputy alive, so nobody won. "If the Sheriff is
    killed, the Outlaws win": every role table needs one."""
    raw = dict(CLASSIC, role_table={"4": ["leader", "renegade", "deputy", "deputy"]})
    with pytest.raises(ThemeError, match=r"role_table.4: no outlaw"):
        compile_theme(raw, "no_outlaw.toml")


def blue_deck(scopes: int, weapons: int) -> list[dict]:
    return [
        *({"name": f"Scope {i}", "effect": "scope", "copies": ["2H", "3S"]} for i in range(scopes)),
        *({"name": f"Gun {i}", "effect": "weapon", "copies": ["4D"]} for i in range(weapons)),
        {"name": "BANG!", "effect": "bang", "copies": ["5C"] * 30},
    ]


def test_blue_names_beyond_the_table_are_refused():
    """A player can have one card of each blue name and one weapon in play: a deck with more
    than limits.MAX_TABLE of those overflowed the kernel's table (card conservation broke in
    checked mode); the loader refuses it. Exactly MAX_TABLE plays."""
    with pytest.raises(ThemeError, match=r"cards: 16 blue card names .* 17 cards .* at most 16"):
        classic_with(blue_deck(16, 2))
    theme = classic_with(blue_deck(15, 3))
    for strategy in ("random", "smart"):
        kw = dict(players=4, games=64, seed=1, game0=0, strategy=strategy, characters=None)
        play_and_check(theme, kw)


def test_turn_cap_fits_the_rows():
    """Turns are recorded as 16-bit numbers: a turn cap above 32767 came back as negative
    turns; the loader refuses it, and a game capped at 32767 turns records them."""
    raw = {k: v for k, v in CLASSIC.items() if k != "cards"}
    with pytest.raises(ThemeError, match=r"rules.turn_cap: 32768 out of range \(allowed: 1..32767"):
        compile_theme(dict(raw, cards=only("Beer", "heal"), rules={"turn_cap": 32768}))
    theme = compile_theme(dict(raw, cards=only("Beer", "heal"), rules={"turn_cap": 32767}))
    kw = dict(players=4, games=1, seed=1, game0=0, strategy="basic", characters=None)
    block = play_and_check(theme, kw)
    assert block.capped.all() and (block.turns == 32767).all()
    assert seat_frame(block, theme, 4, 0, "cap")["turns"].to_list() == [32767] * 4


def test_event_counts_fit():
    """Found by fuzzing: the expected passing cards of a check kind are summed in millionths,
    which overflowed int32 counts after about 2147 checks of one kind in a game (3000 turns
    of four Black Jacks, each check a sure pass, here); the counts are int64."""
    raw = {k: v for k, v in CLASSIC.items() if k != "cards"}
    jacks = [
        {"name": f"Black Jack {i}", "life": 4, "ability": "draw_extra_on_check"} for i in range(7)
    ]
    theme = compile_theme(
        dict(
            raw,
            cards=only("Beer", "heal"),
            characters=jacks,
            checks={"draw_extra": {}},  # every card passes
            rules={"turn_cap": 3000},
        )
    )
    block = play_games(theme, 4, 1, seed=1, strategy="basic", events=True, checked=True)
    assert (block.events >= 0).all()


def test_empty_checks_are_not_counted():
    """Found by fuzzing: a Lucky Duke's draw! that revealed no card (both piles empty) was
    counted, and nobody else's, so checks made exceeded cards revealed."""
    raw = {
        "theme": {"id": "lucky"},
        "role_table": {
            "7": ["leader", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy"]
        },
        "rules": {"leader_extra_life": 0},
        "characters": [
            {"name": f"Lucky Duke {i}", "life": 1, "ability": "double_check"} for i in range(7)
        ],
        "cards": [{"name": "A New Hope", "effect": "new_hope", "copies": ["2C"] * 13}],
        "checks": {"new_hope": {}},
    }
    theme = compile_theme(raw)
    block = play_games(theme, 7, 4, seed=0, strategy="basic", events=True, checked=True)
    k = 4  # the new_hope kind (vocab.CHK_NEW_HOPE = 1 << 4)
    made, revealed = block.events[:, EV_CHECK + 5 * k], block.events[:, EV_CHECK + 5 * k + 2]
    assert (made <= revealed).all()
