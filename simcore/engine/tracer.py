"""The observers behind `simcore.studies.trace`: the kernel's functions wrapped, one game recorded.

Only under NUMBA_DISABLE_JIT=1, where every kernel function is a plain Python function that
its callers look up in the kernel module's globals at each call: `observing` swaps those
globals for wrappers that call the real function and record what they see. A wrapper never
writes to the state and never draws a random number (it reads the state, and the read-only
queries of simcore.engine.board), so the game played is exactly the untraced one; the tests
check it against the compiled kernel's seat rows.

Two kinds of wrappers:
- frames (a play, a BANG! effect, a draw!, damage, an elimination, ...) push themselves on
  a stack and record an event before or after the real call;
- card moves (take_from_hand, to_hand, discard, draw_card, ...) are told apart by the frame
  they happen directly in: a card leaving a hand inside a BANG! effect is a Missed!, inside
  a Duel a BANG! answering it, at the end of a turn a discard.

A seat that searches (`search:BASE`) decides by rollouts, games played to their end in
plain Python at hundreds per decision: too slow here, and they would be recorded as the
game. So its decisions come from the compiled game instead: `decision_log` plays it
compiled (another process) and logs each decision, options and rollout wins included
(search.log_decision), and the traced replay's search.decide (`replaying`) takes the
logged option, checking that the game paused where the compiled one did, and records the
options with their win rates. decide spends none of the game's random numbers, so the
replay is the compiled game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcore.engine import board, kernel, search
from simcore.engine import play as engine
from simcore.engine.state import (
    PH_PLAY,
    PH_PUTBACK,
    PH_START,
    S_BANGS,
    S_BASE,
    S_CUR,
    S_DECISIONS,
    S_DECK_N,
    S_DISC_N,
    S_FEATURED,
    S_N,
    S_OPTIONS,
    S_OVER,
    S_PHASE,
    S_ROUNDS,
    S_TURN,
)
from simcore.engine.themeinfo import plural
from simcore.engine.tracespec import TraceSpec
from simcore.engine.vocab import (
    A_BANG_MISSED_SWAP,
    A_DOUBLE_CHECK,
    A_DRAW_EXTRA_ON_CHECK,
    ABILITIES,
    AIM_RANGE,
    AIM_REACH,
    CHECKS,
    CHK_DRAW_EXTRA,
    CHOSEN_AIMS,
    D_OTHERS_DISCARD,
    D_TAKE,
    DESTINIES_BY_CODE,
    E_BARREL,
    E_JAIL,
    E_MISSED,
    E_STEAL,
    EFFECTS,
    FX_BANG_CARD,
    FX_CANCELS,
    FX_PICKS,
    FX_PLACE,
    PL_IN_FRONT,
    ROLES,
    RU_BANG_LIMIT,
    RU_NO_ONE_EFFECTS,
    WINNERS,
)
from strategies.params import P_RANDOM

EFFECT_NAMES = {code: name for name, code in EFFECTS.items()}
CHECK_NAMES = {bit: name for name, bit in CHECKS.items()}
ABILITY_NAMES = {code: name for name, code in ABILITIES.items()}
# damage causes by effect code (a Missed!'s destiny hitting back: "destiny")
CAUSES = {E_MISSED: "destiny"}

FRAMES = (
    "setup_game", "take_turn", "start_of_turn", "draw_phase", "resolve", "apply_effect",
    "bang_effect", "check", "damage", "save_from_lethal", "discard_two_heal", "eliminate",
    "discard_everything", "duel", "general_store", "take_card", "hand_emptied",
    "draw_to_hand", "pass_dynamite", "destiny", "missed_destiny", "tempered", "heal",
    "reshuffle",
)  # fmt: skip
MOVES = ("draw_card", "take_from_hand", "take_from_table", "to_hand", "discard", "put_in_play")


@dataclass
class Frame:
    name: str
    args: tuple[Any, ...]
    data: dict[str, Any] = field(default_factory=dict)
    moves: list[tuple[str, tuple[Any, ...], Any]] = field(default_factory=list)

    def own(self, move: str) -> list[Any]:
        """Cards of the moves of this kind made directly in this frame."""
        return [
            result if result is not None else args[-1]
            for name, args, result in self.moves
            if name == move
        ]


class Recorder:
    """Events of one game, built by the wrappers `observing` installs."""

    def __init__(self, theme: Any, T: Any, bases: tuple[str, ...]):
        self.theme = theme
        self.T = T
        self.bases = bases  # per canonical role, its strategy's BASE (its own when not searching)
        self.events: list[dict[str, Any]] = []
        self.frames: list[Frame] = []
        self.turn = 0
        self.beliefs: list[dict[str, Any]] | None = None
        self.options = 0

    # --- helpers ------------------------------------------------------------------------

    def card(self, c: Any) -> dict[str, Any]:
        c = int(c)
        return {"id": c, "card": self.theme.card_display[c], "face": self.theme.card_faces[c]}

    def cards(self, cs: Any) -> list[dict[str, Any]]:
        return [self.card(c) for c in cs if int(c) >= 0]

    def hand(self, G: Any, p: int) -> list[dict[str, Any]]:
        return self.cards(G.hand[p, : G.hand_n[p]])

    def emit(self, event: str, /, **fields: Any) -> None:
        depth = 2 if any(f.name == "resolve" for f in self.frames) else 1
        self.events.append({"type": event, "turn": self.turn, "depth": depth, **fields})

    def parent(self, skip: int = 0) -> Frame | None:
        """The innermost open frame (the one a move or a nested call happens in)."""
        return self.frames[-1 - skip] if len(self.frames) > skip else None

    def effect_card_name(self, effect: int) -> str | None:
        for c in range(len(self.theme.card_display)):
            if self.T.card_effect[c] == effect:
                return self.theme.card_display[c]
        return None

    # --- card moves ---------------------------------------------------------------------

    def on_move(self, name: str, args: tuple[Any, ...], result: Any) -> None:
        top = self.parent()
        if top is None:
            return
        top.moves.append((name, args[1:], result))
        if name != "take_from_hand":
            return
        G, p, _ = args
        p = int(p)
        c = self.card(result)
        where = top.name
        if where == "bang_effect":
            self.emit("answer", seat=p, card=c, why="missed", against=int(top.args[2]))
        elif where == "duel":
            att, q = int(top.args[2]), int(top.args[3])
            self.emit("answer", seat=p, card=c, why="duel", against=att if p == q else q)
        elif where == "apply_effect":  # Indians!: a BANG! discarded
            self.emit(
                "answer", seat=p, card=c, why=self.theme.card_display[int(top.args[3])],
                against=int(top.args[2]),
            )  # fmt: skip
        elif where == "save_from_lethal":
            self.emit("answer", seat=p, card=c, why="lethal", against=None)
        elif where == "take_turn":
            self.emit("discard", seat=p, card=c)
        elif where == "resolve":
            top.data["taken"] = top.data.get("taken", 0) + 1
            if top.data["taken"] > 1:  # the first is the card played
                self.emit("pay", seat=p, card=c)
        elif where == "tempered":
            repeats = self.theme.card_display[int(top.args[3])]
            self.emit("tempered", seat=p, card=c, repeats=repeats)
        elif where == "damage":  # steal_on_damage: a random card of the source's hand
            victim = int(top.args[2])
            self.emit(
                "steal", seat=victim, card=c, **{"from": p},
                ability=self.theme.character_names[int(G.char[victim])],
            )  # fmt: skip

    # --- frames: before the call (the frame not yet pushed) -------------------------------

    def pre_take_turn(self, G, T, p) -> None:
        if G.s[S_PHASE] != PH_START:
            return  # a searching seat's turn resumes after its decision
        self.turn = int(G.s[S_TURN]) + 1
        self.emit(
            "turn", seat=int(p), round=int(G.s[S_ROUNDS]), life=int(G.life[p]),
            hand=self.hand(G, p),
        )  # fmt: skip

    def pre_draw_phase(self, G, T, p) -> dict[str, Any]:
        return {"before": set(G.hand[p, : G.hand_n[p]].tolist()), "where": locations(G)}

    def action(self, G, T, p, k) -> dict[str, Any]:
        """Legal action k of p (G.act_*): the card (None: Sid Ketchum's ability, named),
        its effect, and the target and option where the player chose them."""
        i, tgt, opt = int(G.act_idx[k]), int(G.act_tgt[k]), int(G.act_opt[k])
        if i < 0:
            name = self.theme.character_names[int(G.char[p])]
            return {"seat": int(p), "card": None, "ability": name}
        c = int(G.hand[p, i])
        e = int(T.card_effect[c])
        ev: dict[str, Any] = {"seat": int(p), "card": self.card(c), "effect": EFFECT_NAMES[e]}
        if FX_CANCELS[e] and G.ability[p] == A_BANG_MISSED_SWAP:
            ev["as_bang"] = True
        if int(T.card_aim[c]) in CHOSEN_AIMS or ev.get("as_bang"):
            ev["target"] = tgt
        if FX_PICKS[e]:
            ev["option"] = (
                "a card from the hand"
                if opt < 0
                else self.theme.card_display[int(G.table[tgt, opt])]
            )
        return ev

    def pre_resolve(self, G, T, p, k) -> None:
        beliefs, self.beliefs = self.beliefs, None
        ev = self.action(G, T, p, k)
        if ev["card"] is None:  # Sid Ketchum's ability: its frame records the cards and the life
            self.emit("play", **ev, options=self.options)
            return
        c, tgt = ev["card"]["id"], ev.get("target", -1)
        e = int(T.card_effect[c])
        as_bang = ev.get("as_bang", False)
        aim = AIM_REACH if as_bang else int(T.card_aim[c])
        if aim in (AIM_REACH, AIM_RANGE):
            ev["distance"] = int(board.distance(G, T, p, tgt))
            ev["reach"] = int(board.reach(G, T, p)) if aim == AIM_REACH else int(T.card_value[c])
        if FX_BANG_CARD[e] or as_bang:
            ev["bangs_before"] = int(G.s[S_BANGS])
            ev["bang_limit"] = int(T.rules[RU_BANG_LIMIT])
            ev["unlimited"] = bool(board.unlimited_bangs(G, T, p))
        if FX_PLACE[e] == PL_IN_FRONT:
            ev["target_role"] = ROLES[int(G.role[tgt])]
        if G.life[p] <= 2 and T.card_destiny[c] and not FX_CANCELS[e]:
            ev["destiny"] = DESTINIES_BY_CODE[int(T.card_destiny[c])]
        if beliefs is not None:
            ev["beliefs"] = beliefs
        ev["options"] = self.options
        self.emit("play", **ev)

    def pre_bang_effect(self, G, T, att, p, effect) -> dict[str, Any]:
        return {"checks": 0, "barrel": board.find_in_play(G, T, p, E_BARREL) >= 0}

    def pre_check(self, G, T, p, bit, good) -> dict[str, Any]:
        top = self.parent()
        label = None
        if top is not None and top.name == "bang_effect":
            n = top.data["checks"]
            top.data["checks"] += 1
            if top.data["barrel"] and n == 0:
                label = self.effect_card_name(E_BARREL)
        elif top is not None and top.name == "start_of_turn":
            taken = top.own("take_from_table")
            if taken:
                label = self.theme.card_display[int(taken[-1])]
        if label is None:
            label = self.theme.character_names[int(G.char[p])]
        return {"label": label}

    def pre_damage(self, G, T, p, amount, killer, source, effect) -> None:
        if (T.rules[RU_NO_ONE_EFFECTS] >> effect) & 1:  # as damage() itself decides
            killer = source = -1
        self.emit(
            "damage", seat=int(p), amount=int(amount), source=int(source), killer=int(killer),
            cause=CAUSES.get(int(effect), EFFECT_NAMES.get(int(effect), "other")),
            life=int(G.life[p] - amount),
        )  # fmt: skip

    def pre_eliminate(self, G, T, p, killer, effect) -> None:
        role = ROLES[int(G.role[p])]
        self.emit(
            "death", seat=int(p), killer=int(killer), role=role,
            role_name=self.theme.role_names[role],
        )  # fmt: skip

    def pre_discard_two_heal(self, G, T, p) -> dict[str, Any]:
        return {"life": int(G.life[p])}

    def pre_heal(self, G, p, amount) -> dict[str, Any]:
        return {"life": int(G.life[p])}

    def pre_destiny(self, G, T, p, f, tgt) -> None:
        self.emit("destiny", seat=int(p), kind=DESTINIES_BY_CODE[int(f)], target=int(tgt))

    def pre_missed_destiny(self, G, T, att, p, f) -> None:
        self.emit("destiny", seat=int(p), kind=DESTINIES_BY_CODE[int(f)], target=int(att))

    # --- frames: after the call (the frame popped) -----------------------------------------

    def post_setup_game(self, frame, result, G, T, W, pool, role_preset, feature, players, *_):
        seats = []
        featured = int(G.s[S_FEATURED])
        for q in range(int(players)):
            role = ROLES[int(G.role[q])]
            seats.append(
                {
                    "seat": q,
                    "role": role,
                    "role_name": self.theme.role_names[role],
                    "character": self.theme.character_names[int(G.char[q])],
                    "life": int(G.life[q]),
                    "hand": self.hand(G, q),
                    "featured": q == featured,
                }
            )
        self.turn = 0
        self.emit("deal", seats=seats, deck=int(G.s[S_DECK_N]))

    def post_start_of_turn(self, frame, go_on, G, T, p) -> None:
        if not go_on and G.alive[p] and not G.s[S_OVER]:
            self.emit("skip", seat=int(p), why=self.effect_card_name(E_JAIL) or "jail")

    def post_draw_phase(self, frame, result, G, T, p) -> None:
        before, where = frame.data["before"], frame.data["where"]
        drawn = []
        for c in G.hand[p, : G.hand_n[p]].tolist():
            if c not in before:
                drawn.append({**self.card(c), "from": where.get(c, "deck")})
        ev: dict[str, Any] = {"seat": int(p), "cards": drawn}
        looked = [int(c) for c in frame.own("draw_card") if int(c) >= 0]
        kept = {d["id"] for d in drawn}
        back = [c for c in looked if c not in kept]
        if back:
            ev["put_back"] = self.card(back[0])
        self.emit("draw", **ev)
        if G.ability[p] == A_DRAW_EXTRA_ON_CHECK and len(looked) >= 2:
            shown = looked[1]
            ok = bool(T.card_check[shown] & CHK_DRAW_EXTRA)
            self.emit(
                "check", seat=int(p), kind="draw_extra", cards=[self.card(shown)],
                passes=[ok], success=ok, lucky=False, wants=True,
                label=self.theme.character_names[int(G.char[p])],
            )  # fmt: skip

    def post_check(self, frame, ok, G, T, p, bit, good) -> None:
        revealed = [int(c) for c in frame.own("draw_card") if int(c) >= 0]
        self.emit(
            "check", seat=int(p), kind=CHECK_NAMES[int(bit)], cards=self.cards(revealed),
            passes=[bool(T.card_check[c] & bit) for c in revealed], success=bool(ok),
            lucky=bool(G.ability[p] == A_DOUBLE_CHECK), wants=bool(good),
            label=frame.data["label"],
        )  # fmt: skip

    def post_eliminate(self, frame, result, G, T, p, killer, effect) -> None:
        got = frame.own("to_hand")
        if got:
            heir = next(int(args[0]) for name, args, _ in frame.moves if name == "to_hand")
            self.emit("inherit", seat=heir, cards=self.cards(got), **{"from": int(p)})

    def post_discard_everything(self, frame, result, G, T, p) -> None:
        dead = self.parent()
        victim = int(dead.args[2]) if dead is not None and dead.name == "eliminate" else -1
        self.emit(
            "penalty", seat=int(p), cards=self.cards(frame.own("discard")),
            for_role=self.theme.role_names[ROLES[int(G.role[victim])]] if victim >= 0 else "",
        )  # fmt: skip

    def post_draw_to_hand(self, frame, result, G, p, k) -> None:
        up = self.parent()
        if up is None or up.name in ("setup_game", "draw_phase"):
            return
        cards = self.cards(frame.own("to_hand"))
        if up.name == "eliminate":
            self.emit("reward", seat=int(p), cards=cards, **{"for": int(up.args[2])})
            return
        why = {
            "hand_emptied": "empty hand",
            "damage": "hit",
            "destiny": "Encounter with Destiny",
            "missed_destiny": "Encounter with Destiny",
        }.get(up.name, up.name)
        if up.name == "apply_effect":  # Stagecoach, Wells Fargo: the card's name
            why = self.theme.card_display[int(up.args[3])]
        if why in ("empty hand", "hit"):
            why = f"{self.theme.character_names[int(G.char[p])]}, {why}"
        self.emit("draws", seat=int(p), cards=cards, why=why)

    def post_take_card(self, frame, result, G, T, p, opt) -> None:
        up = self.parent()
        if up is None or up.name == "draw_phase":
            return  # Jesse Jones's draw: the draw event names where it came from
        to = None
        if up.name in ("apply_effect", "tempered") and int(up.args[4]) == E_STEAL:
            to = int(up.args[2])
        elif up.name == "destiny" and int(up.args[3]) == D_TAKE:
            to = int(up.args[2])
        elif up.name == "destiny" and int(up.args[3]) == D_OTHERS_DISCARD:
            to = None
        self.emit(
            "take", seat=int(p), card=self.card(result), to=to,
            **{"from": "hand" if opt < 0 else "play"},
        )  # fmt: skip

    def post_general_store(self, frame, result, G, T, p) -> None:
        revealed = [int(c) for c in frame.own("draw_card") if int(c) >= 0]
        picks = [
            {"seat": int(args[0]), "card": self.card(args[1])}
            for name, args, _ in frame.moves
            if name == "to_hand"
        ]
        self.emit("store", seat=int(p), revealed=self.cards(revealed), picks=picks)

    def post_pass_dynamite(self, frame, result, G, T, p, c) -> None:
        put = [args for name, args, _ in frame.moves if name == "put_in_play"]  # (T, seat, card)
        to = int(put[-1][-2]) if put else int(p)
        self.emit("pass", seat=int(p), card=self.card(c), to=to)

    def post_discard_two_heal(self, frame, result, G, T, p) -> None:
        self.emit(
            "ability", seat=int(p), cards=self.cards(frame.own("take_from_hand")),
            amount=int(G.life[p]) - frame.data["life"], life=int(G.life[p]),
            ability=self.theme.character_names[int(G.char[p])],
        )  # fmt: skip

    def post_heal(self, frame, result, G, p, amount) -> None:
        gain = int(G.life[p]) - frame.data["life"]
        up = self.parent()
        if gain > 0 and (up is None or up.name != "discard_two_heal"):
            self.emit("heal", seat=int(p), amount=gain, life=int(G.life[p]))

    def post_reshuffle(self, frame, result, G) -> None:
        self.emit("reshuffle", deck=int(G.s[S_DECK_N]))

    def post_missed_destiny(self, frame, result, G, T, att, p, f) -> None:
        return None

    # --- a searching seat's decisions -------------------------------------------------------

    def on_search(self, G, T, code: int, rows: list[list[int]]) -> None:
        """A `search:BASE` seat's decision at the paused G (search.decide): the options with
        their rollouts and wins, and wins less BASE's choice's on the worlds where the two
        games differ (rows: decide's opts), the one taken (code) and BASE's; none when the
        budget played no rollout."""
        if not any(row[2] for row in rows):
            return
        p = int(G.s[S_CUR])
        phase = int(G.s[S_PHASE])
        play, put_back = phase == PH_PLAY, phase == PH_PUTBACK
        base = int(G.s[S_BASE])
        drawn = int(G.hand_n[p] - G.s[S_OPTIONS])  # Kit Carlson's drawn cards are held last
        if put_back:  # a twin of a drawn card is the same option (search.options)
            base = next(int(r[0]) for r in rows if int(r[5]) == 0)
        elif not play:  # a discard of a twin card is the same option (search.options)
            base = int(kernel.first_twin(G, T, p, base - 2)) + 2
        options = []
        for option, wins, rollouts, gain, apart, _ in rows:
            if put_back:
                what: dict[str, Any] = {"put_back": self.card(G.hand[p, drawn + option - 2])}
            elif not play:
                what = {"discard": self.card(G.hand[p, option - 2])}
            elif option == 1:
                what = {"stop": True}
            else:
                what = {"play": self.action(G, T, p, option - 2)}
            options.append(
                {"code": option, "wins": wins, "rollouts": rollouts, "gain": gain, "apart": apart}
                | what
            )
        self.emit(
            "search", seat=p, kind="play" if play else "put back" if put_back else "discard",
            taken=code, base=base,
            base_strategy=self.bases[int(G.role[p])],
            rollouts=sum(o["rollouts"] for o in options), options=options,
        )  # fmt: skip

    # --- the bot's beliefs ----------------------------------------------------------------

    def after_choose(self, G, T, p, n, k) -> None:
        """What the bot believed about the others when it chose: G.enemy, which
        choose_action fills (a random bot fills nothing: no beliefs)."""
        self.options = int(n)
        if G.w[p, P_RANDOM] > 0.5:
            self.beliefs = None
            return
        self.beliefs = [
            {"seat": q, "score": round(float(G.enemy[q]), 3) + 0.0}  # no -0.0
            for q in range(int(G.s[S_N]))
            if q != p and G.alive[q]
        ]


def locations(G: Any) -> dict[int, Any]:
    """Where each card is: "deck", "discard", or the seat whose hand holds it ("play" for
    cards in play are left out: nothing draws from play)."""
    where: dict[int, Any] = {}
    for c in G.deck[: G.s[S_DECK_N]].tolist():
        where[c] = "deck"
    for c in G.disc[: G.s[S_DISC_N]].tolist():
        where[c] = "discard"
    for q in range(int(G.s[S_N])):
        for c in G.hand[q, : G.hand_n[q]].tolist():
            where[c] = q
    return where


def _frame(rec: Recorder, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    pre = getattr(rec, f"pre_{name}", None)
    post = getattr(rec, f"post_{name}", None)

    def wrapper(*args: Any) -> Any:
        data = pre(*args) if pre is not None else None
        rec.frames.append(Frame(name, args, data or {}))
        try:
            result = real(*args)
        finally:
            frame = rec.frames.pop()
        if post is not None:
            post(frame, result, *args)
        return result

    return wrapper


def _move(rec: Recorder, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any) -> Any:
        result = real(*args)
        rec.on_move(name, args, result)
        return result

    return wrapper


def _choose(rec: Recorder, real: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(G: Any, T: Any, p: Any, n: Any) -> Any:
        k = real(G, T, p, n)
        rec.after_choose(G, T, p, n, k)
        return k

    return wrapper


def replaying(rec: Recorder, log: list[list[int]]) -> Callable[..., Any]:
    """search.decide for a traced game: the option the compiled game took at this decision
    (log: decision_log's), recorded (Recorder.on_search); RuntimeError where the replay
    pauses where the compiled game did not."""
    entries = {}
    r = 0
    while r < len(log):
        number, code, base, m, seat = log[r][:5]
        entries[number] = (code, base, seat, log[r + 1 : r + 1 + m])
        r += 1 + m

    def decide(G, Gw, S, Sw, D, Dw, T, W, role_preset, seed, game, cfg, q, opts, mix):
        number = int(G.s[S_DECISIONS])
        code, base, seat, rows = entries.get(number, (0, -1, -1, []))
        if (base, seat) != (int(G.s[S_BASE]), int(G.s[S_CUR])):
            raise RuntimeError(
                f"the traced game left the compiled one at the search's decision {number} "
                f"(seat {int(G.s[S_CUR])}): a bug"
            )
        opts[: len(rows)] = rows
        opts[len(rows), 0] = -1
        rec.on_search(G, T, code, rows)
        return code

    return decide


def unhooked() -> list[str]:
    """What the tracer wraps or hooks that the kernel lacks, by name (a kernel function
    renamed or removed): FRAMES and MOVES must be kernel functions, and each Recorder hook
    (pre_X, post_X) must name one of them. Empty when they agree."""
    names = (*FRAMES, *MOVES, "choose_action")
    missing = [n for n in names if not callable(getattr(kernel, n, None))]
    hooks = {m.split("_", 1)[1] for m in dir(Recorder) if m.startswith(("pre_", "post_"))}
    return missing + [f"Recorder hook for {h}" for h in sorted(hooks - set(FRAMES) - set(MOVES))]


@contextmanager
def observing(rec: Recorder, log: list[list[int]] | None = None) -> Iterator[None]:
    """The kernel's globals swapped for observing wrappers (and search's: its search_game
    sets a game up too), search.decide for the decisions of `log` when given; restored on
    exit."""
    missing = unhooked()
    if missing:
        raise RuntimeError(f"the tracer names what the kernel lacks: {', '.join(missing)}")
    wrapped = {name: _frame for name in FRAMES} | {name: _move for name in MOVES}
    saved = []
    for module in (kernel, search):
        for name, wrap in wrapped.items():
            if hasattr(module, name):
                saved.append((module, name, getattr(module, name)))
                setattr(module, name, wrap(rec, name, getattr(module, name)))
    saved.append((kernel, "choose_action", kernel.choose_action))
    kernel.choose_action = _choose(rec, kernel.choose_action)
    if log is not None:
        saved.append((search, "decide", search.decide))
        search.decide = replaying(rec, log)
    try:
        yield
    finally:
        for module, name, real in reversed(saved):
            setattr(module, name, real)


def decision_log(spec: TraceSpec, strategy: engine.Strategy) -> list[list[int]] | None:
    """The game's searched decisions as the compiled kernel takes them (search.log_decision's
    rows, as lists), for `replaying`; None when no seat searches. `strategy`: spec.strategy
    resolved for its table. Run with numba compiling: the rollouts are the compiled game's."""
    if strategy.search is None:
        return None
    rows = 1 << 12
    while True:
        block = engine.play_games(
            spec.theme(), spec.players, 1, spec.seed, game0=spec.game, strategy=strategy,
            characters=spec.characters, feature=spec.feature, search_log=rows,
        )  # fmt: skip
        log = block.decisions[0]
        if log[-1, 0] != search.LOG_FULL:
            break
        rows *= 4
    r = 0
    while r < rows and log[r, 0] > 0:
        r += 1 + int(log[r, 3])
    return log[:r].tolist()


def record_game(spec: TraceSpec, strategy: engine.Strategy) -> dict[str, Any]:
    """Replay one game with the observers on, `strategy` (spec.strategy resolved for its
    table); the trace (see simcore.studies.trace)."""
    from simcore.engine.tables import pack_tables

    theme = spec.theme()
    if strategy.search is not None and spec.decisions is None:
        raise RuntimeError("a searching seat's trace needs its compiled game's decision_log")
    rec = Recorder(theme, pack_tables(theme.tables, strategy.learned)[0], strategy.bases)
    with observing(rec, spec.decisions):
        block = engine.play_games(
            theme, spec.players, 1, spec.seed, game0=spec.game, strategy=strategy,
            characters=spec.characters, feature=spec.feature, checked=spec.checked,
        )  # fmt: skip
    winner = int(block.winner[0])
    survivors = [int(q) for q in np.flatnonzero(block.survived[0])]
    rec.turn = int(block.turns[0])
    rec.emit(
        "end", winner=WINNERS[winner] if winner >= 0 else None, capped=bool(block.capped[0]),
        turns=int(block.turns[0]), rounds=int(block.rounds[0]), survivors=survivors,
    )  # fmt: skip
    rec.events[-1]["depth"] = 0
    deal = rec.events[0]
    sides = {
        "leader": f"{theme.role_names['leader']} + {plural(theme.role_names['deputy'])}",
        "outlaw": plural(theme.role_names["outlaw"]),
        "renegade": theme.role_names["renegade"],
    }
    return {
        "theme": theme.id,
        "title": theme.title,
        "config": spec.config,
        "players": spec.players,
        "seed": spec.seed,
        "game": spec.game,
        "strategy": spec.strategy,
        "characters": spec.characters,
        "feature": spec.feature,
        "overrides": spec.overrides,
        "seats": [
            {k: s[k] for k in ("seat", "role", "role_name", "character")} for s in deal["seats"]
        ],
        "side_names": sides,
        "abilities": {
            s["character"]: theme.character_abilities[theme.character_names.index(s["character"])]
            for s in deal["seats"]
        },
        "result": rec.events[-1] | {"type": "result"},
        "events": rec.events,
    }
