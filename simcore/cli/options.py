"""The options every family of commands shares (backend, threads, progress, events) and the
one-line failure and argument parsing they all use."""

from __future__ import annotations

import re
import sys
from typing import Annotated, Any, NoReturn

import typer

from simcore.engine import limits
from simcore.errors import EXIT_BAD_INPUT
from simcore.runs.backend import Backend

OPTIONS = {"debug": False}  # global options of this invocation (set by `main`)


BackendName = Annotated[
    str,
    typer.Option(
        "--backend",
        help="Where the games are played: local (every core of this machine) or ray (Ray "
        "tasks: a local Ray instance, or the cluster at --address); the same results either "
        "way (docs/scale.md).",
    ),
]


RayAddress = Annotated[
    str | None,
    typer.Option(help="With --backend ray: HOST:PORT of a Ray cluster's head (ray start --head)."),
]


ShowProgress = Annotated[bool, typer.Option(help="Show a progress bar.")]


ThemeOption = Annotated[str, typer.Option(help="Theme id or path to a theme TOML file.")]


PlayersOption = Annotated[int, typer.Option(help="Players at the table.")]


StrategyOption = Annotated[
    str, typer.Option(help='Bot preset every seat plays, or one per role: "leader=smart,...".')
]


Threads = Annotated[int | None, typer.Option(help="CPU threads to use (default: all cores).")]


WriteEvents = Annotated[
    bool,
    typer.Option(
        "--events/--no-events",
        help="Also write each chunk's event counts (events/*.parquet: draw! checks, damage by "
        "source, cards used by role) for the report's card tables; --no-events is about 5% "
        "faster.",
    ),
]


TargetsOption = Annotated[
    str | None,
    typer.Option(
        "--targets",
        help="Your side targets instead of an even share, for the grid, summary and verdict: "
        'three rates "40,40,20" (leader + deputies, outlaws, renegade; percent or shares) '
        "or a balance file's name or path (its [targets], e.g. classic_5p).",
        show_default=False,
    ),
]


def parse_games(text: str | int) -> int:
    """A number of games as a designer types it: 100000, 100,000, 100_000 or 1e5; a
    one-line usage error for anything else."""
    if isinstance(text, int):
        return text
    clean = text.strip()
    if re.fullmatch(r"\d{1,3}(,\d{3})+|\d{1,3}(_\d{3})+", clean):
        clean = clean.replace(",", "").replace("_", "")
    if re.fullmatch(r"-?\d+", clean):  # a negative count is check_games' to refuse
        return int(clean)
    if re.fullmatch(r"\d+(\.\d+)?[eE]\+?\d+", clean):
        value = float(clean)
        if value.is_integer() and value < 2**63:
            return int(value)
    raise typer.BadParameter(
        f"expected a whole number of games such as 100000, 100,000 or 1e5, got {text!r}"
    )


def games_option(help: str, **extra) -> Any:
    """A --games option read by parse_games (shows as <int>)."""
    return typer.Option(help=help, parser=parse_games, metavar="<int>", **extra)


def open_backend(ctx: typer.Context, name: str, address: str | None) -> Backend:
    """The backend --backend and --address ask for (simcore.runs.backend), closed when the command
    ends, however it ends (a local Ray instance stops with it)."""
    from simcore.runs.backend import get_backend

    backend = get_backend(name, address)
    ctx.call_on_close(backend.close)
    return backend


def fail(message: str) -> NoReturn:
    """One line on stderr and exit code 2; with --debug, called while handling an exception,
    that exception propagates with its traceback instead."""
    if OPTIONS["debug"] and sys.exc_info()[1] is not None:
        raise  # the exception the caller is handling, with its traceback
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def parse_players(text: str) -> list[int]:
    """ "5" -> [5]; "4-7" -> [4, 5, 6, 7]; "4,6" -> [4, 6]; ranges and lists mix: "4-5,7"."""
    counts: list[int] = []
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not m:
            raise ValueError(f'--players: expected "5", "4-7" or "4,6", got {text!r}')
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            raise ValueError(f"--players: empty range {part!r}")
        for n in (lo, hi):
            if not limits.MIN_PLAYERS <= n <= limits.MAX_PLAYERS:
                raise ValueError(
                    f"players must be between {limits.MIN_PLAYERS} and {limits.MAX_PLAYERS}, got {n}"
                )
        counts.extend(range(lo, hi + 1))
    return sorted(set(counts))


def parse_characters(text: str | None, option: str = "--characters") -> list[str] | None:
    """ "A, B" -> ["A", "B"]; None -> None (the theme's full list); `option` names the
    option in the error for none."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise ValueError(f"{option}: no names given")
    return names


def set_threads(threads: int) -> None:
    """numba.set_num_threads, with a one-line error outside 1..cores."""
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    if not 1 <= threads <= most:
        raise ValueError(f"--threads must be between 1 and {most}, got {threads}")
    numba.set_num_threads(threads)


TextOrJson = Annotated[str, typer.Option("--format", help="text or json.")]


def check_text_or_json(output: str) -> None:
    """--format of the commands that print text or JSON."""
    if output not in ("text", "json"):
        fail(f"--format must be text or json, got {output!r}")
