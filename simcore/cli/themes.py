"""`bangsim themes`: list the shipped themes, show one, export one to start a variant."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from simcore.cli.options import fail

themes_app = typer.Typer(no_args_is_help=False, invoke_without_command=True)


@themes_app.callback()
def themes(ctx: typer.Context) -> None:
    """List the shipped themes (id, title, cards, characters, player counts).

    Show one in full, from a shipped id or the path to a theme TOML file:

    bangsim themes show walking_dead

    Start a variant from a shipped theme's file (then edit it; pass its path as --theme):

    bangsim themes export classic > my_variant.toml
    """
    if ctx.invoked_subcommand is None:
        from simcore.engine.themeinfo import theme_list_text

        try:
            typer.echo(theme_list_text())
        except ValueError as e:
            fail(str(e))


@themes_app.command("show")
def themes_show(
    theme: Annotated[str, typer.Argument(help="Theme id (classic, ...) or path to a theme TOML.")],
) -> None:
    """Print one theme: deck, characters, draw! checks and rule flags.

    Deck: card name, effect, cost, copies, faces. Characters: name, life, ability.

    A broken theme file gives one error line (exit code 2).
    """
    from simcore.engine.theme import load_theme
    from simcore.engine.themeinfo import theme_text

    try:
        loaded = load_theme(theme)
    except ValueError as e:
        fail(str(e))
    typer.echo(theme_text(loaded))


@themes_app.command("export")
def themes_export(
    theme: Annotated[str, typer.Argument(help="Shipped theme id (bangsim themes lists them).")],
    out: Annotated[
        Path | None,
        typer.Option(help="File to write (must not exist yet); default: standard output."),
    ] = None,
) -> None:
    """Print a shipped theme's TOML file, verbatim with its comments, to start a variant.

    Give the copy its own id (the id key of its theme table, so reports and experiments
    can tell it from the original), edit it, then pass its path wherever a theme id is
    accepted.

    Examples:

    bangsim themes export classic > my_variant.toml

    bangsim themes export walking_dead --out my_wd.toml

    bangsim run --theme my_variant.toml --games 100000 --out runs/my_variant
    """
    from simcore.engine.theme import shipped_theme_file

    try:
        text = shipped_theme_file(theme).read_text(encoding="utf-8")
    except ValueError as e:
        fail(str(e))
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        with out.open("x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        fail(f"{out}: already exists (remove it or choose another --out)")
    except OSError as e:
        fail(f"{out}: cannot write: {e.strerror}")
    typer.echo(f"wrote {out} (theme '{theme}'; change its [theme] id before using it)")
