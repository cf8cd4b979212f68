"""Game traces: any game of any run replayed play by play, in the theme's own words.

Every game's randomness is keyed by (seed, game index), so a game replays exactly from its
request. A trace replays it with the kernel running as plain Python (NUMBA_DISABLE_JIT=1,
the same code, the same games) and observers wrapped around the kernel's functions: each
wrapper calls the real function and records what it sees (cards drawn and played, targets,
answers, draw! faces, damage, deaths, the bot's enemy scores at its choices) without
changing the state or spending a random number. The compiled kernel is never touched, so
the fast path pays nothing for tracing; the replay runs in a subprocess
(``python -m simcore.studies.trace``), which reads trace requests as JSON on stdin and writes the
traces as JSON on stdout. A game with a seat that searches (`search:BASE`) is first played
compiled in another subprocess (``python -m simcore.studies.trace --decisions``), which logs
that seat's decisions (simcore.engine.tracer.decision_log); the replay takes them from the log
and shows, at each, the options with their rollout wins, the one taken and BASE's.

    spec = spec_from_options("classic", players=5, seed=1, game=4217)
    [trace] = trace_games([spec])       # {"events": [...], "result": {...}, ...}
    print(render_text(trace))

Events are dicts with a `type` (deal, turn, draw, check, search, play, answer, pay,
discard, damage, heal, death, reward, penalty, inherit, take, store, pass, skip, reshuffle,
destiny, tempered, ability, swap, end), the turn they happen in (0: the deal), a `depth` (1: at the
turn's level, 2: inside a play) and seats, cards ({"id", "card", "face"}) and numbers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import polars as pl

from simcore.engine import vocab
from simcore.engine.theme import Theme, load_theme
from simcore.engine.tracespec import TraceSpec
from simcore.engine.vocab import AIM_EVERY_OTHER, EFFECT_TRAITS, EFFECTS
from simcore.errors import UserError
from strategies.presets import Strategy, check_strategy, resolve_strategy

ENV_SWITCH = "NUMBA_DISABLE_JIT"
DECISIONS = "--decisions"  # the subprocess's switch: log searched decisions, compiled


class TraceError(UserError):
    """A trace cannot be made as asked (no such game, config, run folder, ...); one line."""


# --- building specs (the parent process: no numba needed) ---------------------------------


def spec_from_options(
    theme: str | Path | Theme,
    players: int,
    seed: int,
    game: int,
    strategy: str = "smart",
    characters: list[str] | None = None,
    feature: str | None = None,
) -> TraceSpec:
    """A spec from command-line style options, validated as `bangsim run` validates them
    (ValueError with one line: an unknown character lists the theme's)."""
    from simcore.engine.play import character_pool, parse_feature
    from simcore.engine.request import check_characters, player_counts

    loaded = load_theme(theme)
    player_counts(players, loaded)
    check_seed_game(seed, game)
    label = check_strategy(strategy)
    pool = check_characters(characters, loaded, [players])
    feat = parse_feature(loaded, feature, players)
    character_pool(loaded, pool, players - (feat[0] >= 0), exclude=int(feat[0]))
    return TraceSpec(
        theme_raw=loaded.raw,
        theme_path=str(loaded.path) if loaded.path is not None else None,
        players=players,
        seed=seed,
        game=game,
        strategy=label,
        characters=pool,
        feature=feature,
    )


def check_seed_game(seed: int, game: int) -> None:
    if not 0 <= seed < 2**63:
        raise TraceError(f"seed must be an integer in 0..2**63-1, got {seed}")
    if not 0 <= game < 2**63:
        raise TraceError(f"--game must be a game index of 0 or more, got {game}")


def run_configs(run: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A run folder's manifest and its configs; TraceError when it has none."""
    from simcore.runs.runfolder import MANIFEST, RunFolderError, check_version, read_manifest

    run = Path(run)
    if not run.is_dir():
        raise TraceError(f"{run}: no such run folder")
    try:
        manifest = read_manifest(run)
        if manifest is not None:
            check_version(run, manifest, resume=False)
    except RunFolderError as e:
        raise TraceError(str(e)) from None
    if manifest is None:
        raise TraceError(
            f"{run}: no {MANIFEST}, so its games' settings are unknown; trace a game with "
            "--theme, --players and --seed instead"
        )
    configs = [c for c in manifest.get("configs", []) if isinstance(c, dict) and "label" in c]
    if not configs:
        raise TraceError(f"{run}/{MANIFEST}: no configs listed; this run cannot be traced")
    return manifest, configs


def pick_config(run: Path, configs: list[dict[str, Any]], label: str | None) -> dict[str, Any]:
    """The config `label` names; the only one when None; TraceError listing them otherwise."""
    labels = [c["label"] for c in configs]
    if label is None:
        if len(configs) == 1:
            return configs[0]
        raise TraceError(
            f"{run} has {len(configs)} configs; choose one with --config: {', '.join(labels)}"
        )
    if label not in labels:
        raise TraceError(f"{run} has no config {label!r}; its configs: {', '.join(labels)}")
    return configs[labels.index(label)]


def game_won_by(run: Path, side: str, config: str | None = None) -> int:
    """The first game of a run folder's config (`config` may be None when the run has one)
    that `side` won: a side (leader, outlaw, renegade) or a role, canonical or as the theme
    names it (a deputy's side is the leader's). TraceError when none did."""
    from simcore.runs.cells import scan_seats

    run = Path(run)
    manifest, configs = run_configs(run)
    cfg = pick_config(run, configs, config)
    theme = _run_theme(run, manifest, cfg.get("theme") or manifest["request"]["themes"][0])
    names = {r: r for r in vocab.ROLES} | {v.lower(): r for r, v in theme.role_names.items()}
    role = names.get(side.strip().lower())
    if role is None:
        known = ", ".join(f"{r} ({theme.role_names[r]})" for r in vocab.ROLES)
        raise TraceError(f"--winner: unknown side {side!r} (sides by role: {known})")
    winner = vocab.SIDE_OF_ROLE[role]
    won = (
        scan_seats(run)
        .filter((pl.col("config") == cfg["label"]) & (pl.col("seat") == 0))
        .filter(pl.col("winner") == winner)
        .select(pl.col("game").min())
        .collect()
        .item()
    )
    if won is None:
        raise TraceError(f"--winner {side}: no game of {cfg['label']!r} in {run} was won by that side")  # fmt: skip
    return int(won)


def spec_from_run(run: Path, game: int, config: str | None = None) -> TraceSpec:
    """The spec of game `game` of a run folder's config (`config` may be None when the run
    has one): theme (from the file the manifest records, checked against its digest, with
    an experiment cell's overrides applied), players, seed, strategy, pool, feature."""
    from simcore.engine.request import games_versions, versions_words
    from simcore.runs.experiment import apply_overrides

    run = Path(run)
    manifest, configs = run_configs(run)
    cfg = pick_config(run, configs, config)
    request = manifest.get("request", {})
    played = {key: request.get(key) for key in games_versions()}
    if played != games_versions():
        raise TraceError(
            f"{run} was played by {versions_words(*played.values())}; this bangsim plays "
            f"{versions_words(*games_versions().values())}, so its games cannot be replayed"
        )
    themes = request.get("themes") or []
    theme_id = cfg.get("theme") or (themes[0] if len(themes) == 1 else None)
    if theme_id is None:
        raise TraceError(f"{run}/manifest.json: config {cfg['label']!r} names no theme")
    base = _run_theme(run, manifest, theme_id)
    overrides = cfg.get("overrides") or {}
    theme = apply_overrides(base, _overrides(overrides), f"{run.name} ({cfg['label']})")
    games = cfg.get("games", request.get("games"))
    check_seed_game(request.get("seed", 0), game)
    if isinstance(games, int) and game >= games:
        raise TraceError(
            f"--game {game}: config {cfg['label']!r} of {run} has games 0 to {games - 1}"
        )
    strategies = request.get("strategies") or ["smart"]
    characters = cfg["characters"] if "characters" in cfg else request.get("characters")
    feature = cfg.get("feature")
    if "feature" not in cfg and isinstance(request.get("feature"), str):
        feature = request["feature"]
    return TraceSpec(
        theme_raw=theme.raw,
        theme_path=str(theme.path) if theme.path is not None else None,
        players=int(cfg["players"]),
        seed=int(request["seed"]),
        game=game,
        strategy=cfg.get("strategy") or strategies[0],
        characters=characters,
        feature=feature,
        config=cfg["label"],
        overrides=dict(overrides),
    )


def _run_theme(run: Path, manifest: dict[str, Any], theme_id: str) -> Theme:
    """The theme a run played: the file its manifest records (else the shipped theme of
    that id), which must match the digest the manifest recorded."""
    from simcore.runs.runfolder import theme_digest

    digest = manifest.get("request", {}).get("theme_digests", {}).get(theme_id)
    recorded = (manifest.get("theme_files") or {}).get(theme_id)
    candidates: list[str | Path] = []
    if recorded:
        candidates.append(Path(recorded))
    candidates.append(theme_id)
    tried = []
    for source in candidates:
        try:
            theme = load_theme(source)
        except ValueError:
            continue
        if digest is None or theme_digest(theme) == digest:
            return theme
        tried.append(str(source))
    where = f" ({', '.join(tried)} differs from it)" if tried else ""
    raise TraceError(
        f"{run}: theme '{theme_id}' is not the one the run played (the manifest's digest "
        f"matches no theme file found{where}), so its games cannot be replayed"
    )


def _overrides(overrides: dict[str, Any]) -> tuple[Any, ...]:
    """A config's recorded overrides ({"rules.leader_extra_life": 2, ...}) as experiment
    Overrides: each key is a TOML dotted key, parsed by the TOML parser."""
    from simcore.runs.experiment import Override

    result = []
    for key, value in overrides.items():
        node = tomllib.loads(f"{key} = 0")
        path = []
        while isinstance(node, dict):
            ((name, node),) = node.items()
            path.append(name)
        result.append(Override(tuple(path), value))
    return tuple(result)


def check_against_rows(run: Path, trace: dict[str, Any]) -> None:
    """The traced game's outcome equals the run's seat rows of that game (when its chunk has
    been played): winner, turns, rounds, each seat's character, role and survival. A
    difference is a bug (RuntimeError): the replay did not play the game the run did."""
    import polars as pl

    from simcore.engine.rows import WINNER_NAMES
    from simcore.runs.runfolder import read_manifest

    manifest = read_manifest(Path(run)) or {}
    game = trace["game"]
    files = [
        c["file"]
        for c in manifest.get("chunks_done", [])
        if c.get("config") == trace["config"]
        and c.get("game0", 0) <= game < c.get("game0", 0) + c.get("games", 0)
    ]
    if not files or not (Path(run) / files[0]).is_file():
        return  # not played yet: nothing to compare with
    rows = (
        pl.read_parquet(Path(run) / files[0])
        .filter((pl.col("config") == trace["config"]) & (pl.col("game") == game))
        .sort("seat")
    )
    result = trace["result"]
    winner = result["winner"] if result["winner"] is not None else WINNER_NAMES[0]
    seen = {
        "winner": winner,
        "turns": result["turns"],
        "rounds": result["rounds"],
        "character": [s["character"] for s in trace["seats"]],
        "role": [s["role"] for s in trace["seats"]],
        "survived": [s["seat"] in result["survivors"] for s in trace["seats"]],
    }
    expected = {
        "winner": rows["winner"][0] if rows.height else None,
        "turns": rows["turns"][0] if rows.height else None,
        "rounds": rows["rounds"][0] if rows.height else None,
        "character": rows["character"].to_list(),
        "role": rows["role"].to_list(),
        "survived": rows["survived"].to_list(),
    }
    for key, value in expected.items():
        if seen[key] != value:
            raise RuntimeError(
                f"the trace of game {game} does not match {run}'s seat rows ({key}: "
                f"{seen[key]} traced, {value} in the run)"
            )


# --- running traces -------------------------------------------------------------------------


def trace_games(specs: list[TraceSpec], timeout: float | None = 600) -> list[dict[str, Any]]:
    """Replay each game with the kernel as plain Python in a subprocess; its traces. Games
    with a seat that searches are played compiled first, in another, for its decisions."""
    if not specs:
        return []
    searching = [i for i, s in enumerate(specs) if resolved(s).search]
    if searching:
        logs = _subprocess([specs[i] for i in searching], timeout, compiled=True)
        specs = list(specs)
        for i, log in zip(searching, logs, strict=True):
            specs[i] = replace(specs[i], decisions=log)
    return _subprocess(specs, timeout, compiled=False)


def _subprocess(specs: list[TraceSpec], timeout: float | None, compiled: bool) -> list[Any]:
    """`python -m simcore.studies.trace` on specs: their decision logs when compiled, else
    their traces (the kernel as plain Python)."""
    root = str(Path(__file__).resolve().parents[2])  # the folder holding simcore/
    env = dict(os.environ)
    env.pop(ENV_SWITCH, None)
    if not compiled:
        env[ENV_SWITCH] = "1"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    payload = json.dumps([asdict(s) for s in specs], default=str)
    proc = subprocess.run(
        [sys.executable, "-m", "simcore.studies.trace", *([DECISIONS] if compiled else [])],
        input=payload,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"]
        raise RuntimeError(f"the tracing subprocess failed: {lines[-1]}")
    return json.loads(proc.stdout)


def record_games(specs: list[TraceSpec]) -> list[dict[str, Any]]:
    """The traces of `specs`, in this process, which must run the kernel as plain Python
    (NUMBA_DISABLE_JIT=1 before numba is imported)."""
    from numba import config

    if not config.DISABLE_JIT:
        raise RuntimeError(f"record_games needs {ENV_SWITCH}=1 (use trace_games)")
    from simcore.engine.tracer import record_game

    return [record_game(spec, resolved(spec)) for spec in specs]


def resolved(spec: TraceSpec) -> Strategy:
    """The spec's strategy, resolved for its table (a mixture file: a one-line ValueError)."""
    return resolve_strategy(spec.strategy, spec.players, spec.theme().plays_as)


def main() -> None:
    """`python -m simcore.studies.trace`: JSON list of TraceSpec fields on stdin -> traces on
    stdout; with --decisions (numba compiling), each game's decision_log instead."""
    specs = [TraceSpec(**s) for s in json.load(sys.stdin)]
    if sys.argv[1:] == [DECISIONS]:
        from simcore.engine.tracer import decision_log

        out = json.dumps([decision_log(spec, resolved(spec)) for spec in specs])
    else:
        out = json.dumps(record_games(specs), ensure_ascii=False)
    sys.stdout.write(out)  # one write: json.dump writes piece by piece, unbuffered a call each


# --- text ---------------------------------------------------------------------------------

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
# plays at every other player, whose worth the bot judged from its beliefs (by trait)
AREA_EFFECTS = frozenset(n for n, e in EFFECTS.items() if EFFECT_TRAITS[e].aim == AIM_EVERY_OTHER)
CHECK_WORDS = {  # kind -> (success, failure)
    "barrel": ("the shot is cancelled", "no luck"),
    "jail": ("escapes", "stays in"),
    "dynamite": ("it explodes", "it does not explode"),
    "draw_extra": ("draws one more card", "no extra card"),
    "new_hope": ("it comes to the aid", "it passes on"),
}


def face_text(face: str) -> str:
    """'QH' -> 'Q♥'; a symbol face (Star Wars) stays as it is."""
    rank, suit = face[:-1], face[-1:]
    return f"{rank}{SUITS[suit]}" if suit in SUITS and rank in RANKS else face


def card_text(card: dict[str, Any]) -> str:
    return f"{card['card']} ({face_text(card['face'])})"


def cards_text(cards: list[dict[str, Any]]) -> str:
    return ", ".join(card_text(c) for c in cards) if cards else "nothing"


def render_text(trace: dict[str, Any]) -> str:
    """The trace as text, one line per event, indented per turn and per play."""
    seats = trace["seats"]
    side_names = trace["side_names"]

    def who(q: int | None) -> str:
        return "no one" if q is None or q < 0 else seats[q]["character"]

    def role(q: int) -> str:
        return seats[q]["role_name"]

    lines = [header_text(trace)]
    for ev in trace["events"]:
        text = event_text(ev, who, role, side_names)
        if text is not None:
            indent = 0 if ev["type"] in ("deal", "turn", "end") else 2 * ev.get("depth", 1)
            lines.extend(" " * indent + line for line in text.split("\n"))
    return "\n".join(lines)


def header_text(trace: dict[str, Any]) -> str:
    parts = [
        f"{trace['title']} ({trace['theme']})",
        f"{trace['players']} players",
        f"seed {trace['seed']}",
        f"game {trace['game']}",
        f"strategy {trace['strategy']}",
    ]
    if trace.get("config"):
        parts.insert(0, trace["config"])
    if trace.get("characters"):
        parts.append(f"pool {', '.join(trace['characters'])}")
    if trace.get("feature"):
        parts.append(f"featuring {trace['feature']}")
    if trace.get("overrides"):
        parts.append(", ".join(f"{k} = {json.dumps(v)}" for k, v in trace["overrides"].items()))
    return " · ".join(parts)


def beliefs_text(ev: dict[str, Any], who, role) -> str:
    scores = ev.get("beliefs")
    if not scores:
        return ""
    parts = [f"{who(b['seat'])} [{role(b['seat'])}] {b['score']:+.2f}" for b in scores]
    return "; enemy scores: " + ", ".join(parts).replace("-", "−")


def play_text(ev: dict[str, Any], who) -> str:
    """ "plays BANG! (K♠) on Paul Regret", "..., choosing Barrel", "uses Sid Ketchum"."""
    if ev.get("card") is None:
        return f"uses {ev['ability']}"
    text = f"plays {card_text(ev['card'])}"
    if ev.get("as_bang"):
        text += " as a BANG!"
    if ev.get("target") is not None and ev["target"] != ev["seat"]:
        text += f" on {who(ev['target'])}"
    if ev.get("option"):
        text += f", choosing {ev['option']}"
    return text


def option_text(option: dict[str, Any], who) -> str:
    """One option of a searched decision: a play, "stops playing", a discard or a card put
    back."""
    if option.get("stop"):
        return "stops playing"
    if "discard" in option:
        return f"discards {card_text(option['discard'])}"
    if "put_back" in option:
        return f"puts back {card_text(option['put_back'])}"
    return play_text(option["play"], who)


def search_text(ev: dict[str, Any], who, role) -> str:
    """A searched decision: a head line, then one line per option (most rollouts first):
    its wins of its rollouts and their rate, its wins less BASE's choice's on the worlds
    where the two differ, and which was taken and which BASE takes."""
    s = ev["seat"]
    base = ev.get("base_strategy") or "BASE"
    what = {"play": "what to play", "put back": "what to put back"}.get(
        ev["kind"], "what to discard"
    )
    lines = [
        f"{who(s)} [{role(s)}] searches {what}: {len(ev['options'])} options, "
        f"{ev['rollouts']} rollouts (won/played; ± against {base}'s choice where they differ)"
    ]
    options = sorted(ev["options"], key=lambda o: (-o["rollouts"], -o["wins"], o["code"]))
    texts = [option_text(o, who) for o in options]
    width = max(len(x) for x in texts)
    for o, text in zip(options, texts, strict=True):
        marks = [
            mark
            for mark, code in (("taken", ev["taken"]), (f"{base}'s choice", ev["base"]))
            if code == o["code"]
        ]
        rate = f"{o['wins'] / o['rollouts']:.0%}" if o["rollouts"] else "–"
        gain = "" if o["code"] == ev["base"] else f"{o['gain']:+d}/{o['apart']}"
        won = f"{o['wins']:>3}/{o['rollouts']:<3} won ({rate})"
        line = f"  {text:<{width}}  {won:<17}  {gain.replace('-', '−'):<7}"
        lines.append((line + (f"  ← {', '.join(marks)}" if marks else "")).rstrip())
    return "\n".join(lines)


def event_text(ev: dict[str, Any], who, role, side_names) -> str | None:  # noqa: PLR0911, PLR0912
    t = ev["type"]
    s = ev.get("seat")
    if t == "deal":
        rows = ["Deal:"]
        width = max(len(x["role_name"]) for x in ev["seats"])
        cwidth = max(len(x["character"]) for x in ev["seats"])
        for x in ev["seats"]:
            star = " (featured)" if x.get("featured") else ""
            rows.append(
                f"  seat {x['seat']}  {x['role_name']:<{width}}  {x['character']:<{cwidth}}  "
                f"{x['life']} life{star}  hand: {cards_text(x['hand'])}"
            )
        return "\n".join(rows)
    if t == "turn":
        hand = cards_text(ev["hand"])
        return (
            f"Turn {ev['turn']} (round {ev['round']}): {who(s)} [{role(s)}], "
            f"{ev['life']} life, hand: {hand}"
        )
    if t == "draw":
        parts = []
        for c in ev["cards"]:
            src = c.get("from")
            where = (
                ""
                if src == "deck"
                else " from the discard pile"
                if src == "discard"
                else f" from {who(src)}'s hand"
            )
            parts.append(card_text(c) + where)
        text = f"draws {', '.join(parts) or 'nothing'}"
        if ev.get("put_back"):
            text += f"; puts {card_text(ev['put_back'])} back on the deck"
        return text
    if t == "check":
        good, bad = CHECK_WORDS.get(ev["kind"], ("success", "failure"))
        revealed = ", ".join(card_text(c) for c in ev["cards"]) or "no card left"
        return (
            f"{who(s)}: draw! for {ev['label']}: {revealed} → "
            f"{'success' if ev['success'] else 'failure'}, {good if ev['success'] else bad}"
        )
    if t == "search":
        return search_text(ev, who, role)
    if t == "play":
        text = play_text(ev, who)
        if ev.get("card") is None:
            return text
        if "distance" in ev:
            text += f" (distance {ev['distance']}, reach {ev['reach']})"
        if ev.get("destiny"):
            text += f", Encounter with Destiny: {ev['destiny']}"
        if ev.get("target") is not None or ev.get("effect") in AREA_EFFECTS:
            text += beliefs_text(ev, who, role)
        return text
    if t == "answer":
        by = who(ev.get("against"))
        what = {
            "missed": f"to cancel the hit from {by}",
            "lethal": "at a lethal hit",
            "duel": f"to answer the Duel with {by}",
        }.get(ev["why"], f"to answer the {ev['why']} from {by}")
        return f"{who(s)} uses {card_text(ev['card'])} {what}"
    if t == "pay":
        return f"discards {card_text(ev['card'])} to pay for it"
    if t == "discard":
        return f"discards {card_text(ev['card'])} at the end of the turn"
    if t == "damage":
        culprit = ev["killer"] if ev.get("killer", -1) >= 0 else ev.get("source", -1)
        by = f" from {who(culprit)}" if culprit >= 0 else ""
        return f"{who(s)} loses {ev['amount']} life ({ev['cause']}{by}) → {ev['life']} life"
    if t == "heal":
        return f"{who(s)} gains {ev['amount']} life → {ev['life']} life"
    if t == "death":
        by = f", by {who(ev['killer'])}" if ev.get("killer", -1) >= 0 else ""
        return f"{who(s)} is eliminated{by}: revealed {ev['role_name']}"
    if t == "reward":
        return f"{who(s)} draws {cards_text(ev['cards'])} as the reward for {who(ev['for'])}"
    if t == "penalty":
        return f"{who(s)} discards every card ({cards_text(ev['cards'])}) for eliminating a {ev['for_role']}"
    if t == "inherit":
        return f"{who(s)} takes {who(ev['from'])}'s cards: {cards_text(ev['cards'])}"
    if t == "take":
        to = "the discard pile" if ev.get("to") is None else who(ev["to"])
        return f"{who(s)} loses {card_text(ev['card'])} from {ev['from']}, to {to}"
    if t == "draws":
        return f"{who(s)} draws {cards_text(ev['cards'])} ({ev['why']})"
    if t == "store":
        picks = ", ".join(f"{who(p['seat'])} {card_text(p['card'])}" for p in ev["picks"])
        return f"reveals {cards_text(ev['revealed'])}; picks: {picks}"
    if t == "pass":
        return f"{card_text(ev['card'])} passes from {who(s)} to {who(ev['to'])}"
    if t == "skip":
        return f"{who(s)} skips the turn ({ev['why']})"
    if t == "reshuffle":
        return f"the discard pile is shuffled into a new deck ({ev['deck']} cards)"
    if t == "destiny":
        target = f" ({who(ev['target'])})" if ev.get("target") is not None else ""
        return f"{who(s)}: Encounter with Destiny, {ev['kind']}{target}"
    if t == "tempered":
        return f"{who(s)} discards {card_text(ev['card'])} to repeat {ev['repeats']} (Tempered)"
    if t == "ability":
        return (
            f"{who(s)} discards {cards_text(ev['cards'])} for {ev['amount']} life ({ev['ability']})"
        )
    if t == "steal":
        return f"{who(s)} takes {card_text(ev['card'])} from {who(ev['from'])}'s hand ({ev['ability']})"
    if t == "end":
        if ev["capped"]:
            verdict = "the turn cap ends it, won by no side"
        else:
            verdict = f"{side_names[ev['winner']]} win"
        alive = ", ".join(f"{who(q)} [{role(q)}]" for q in ev["survivors"]) or "none"
        return (
            f"Game over after {ev['turns']} turns ({ev['rounds']} rounds): {verdict}. "
            f"Survivors: {alive}."
        )
    return json.dumps(ev, ensure_ascii=False)


if __name__ == "__main__":
    main()
