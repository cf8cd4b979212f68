"""`bangsim themes`: list the shipped themes, show one, export one to start a variant."""

from __future__ import annotations

import re
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
    from simcore.engine.theme import face_warnings, load_theme
    from simcore.engine.themeinfo import theme_text

    try:
        loaded = load_theme(theme)
    except ValueError as e:
        fail(str(e))
    typer.echo(theme_text(loaded))
    for line in face_warnings(loaded):
        typer.echo(f"warning: {line}", err=True)


@themes_app.command("effects")
def themes_effects() -> None:
    """Print the effect vocabulary as traits: where a card goes, whom it aims at, the hit it
    deals (what cancels it: a Missed!, or discarding a BANG!), its draw! in play, and its
    traits (a BANG! card; cancels a hit; an attack on the record; picks one of the
    target's cards; a burden in front of its holder; Tempered may repeat it).

    A theme's own effect ([[effects]] in its file) is one of these, `like`, with its own
    aim or draws: docs/themes.md, "A card of your own".
    """
    from simcore.engine.themeinfo import effect_traits_text

    typer.echo(effect_traits_text())


@themes_app.command("export")
def themes_export(
    theme: Annotated[str, typer.Argument(help="Shipped theme id (bangsim themes lists them).")],
    out: Annotated[
        Path | None,
        typer.Option(help="File to write (must not exist yet); default: standard output."),
    ] = None,
    new_id: Annotated[
        str | None,
        typer.Option(
            "--id",
            help="The copy's own [theme] id (default with --out: the file's name, my_variant "
            "for my_variant.toml).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Print a shipped theme's TOML file with its comments, under an id of its own, to start
    a variant.

    The copy's [theme] id is --id, or with --out the file's name, so reports, comparisons
    and experiments tell it from the original; its [theme] parent names the original, whose
    tuned values its tuned seats play, and its title is marked with its id; without either it keeps the shipped id and
    a note says how to rename it (an edited copy that keeps it is labelled by its file
    name). Edit it, then pass its path wherever a theme id is accepted; bangsim themes diff
    ID FILE lists what you changed.

    Examples:

    bangsim themes export classic --id my_variant > my_variant.toml

    bangsim themes export walking_dead --out my_wd.toml

    bangsim run --theme my_variant.toml --games 100000 --out runs/my_variant
    """
    from simcore.engine.theme import OWN_ID, shipped_theme_file, shipped_themes

    try:
        text = shipped_theme_file(theme).read_text(encoding="utf-8")
    except ValueError as e:
        fail(str(e))
    chosen = new_id if new_id is not None else (out.stem if out is not None else None)
    if chosen is not None and (not OWN_ID.fullmatch(chosen) or chosen in shipped_themes()):
        if new_id is not None:
            what = "names a shipped theme" if chosen in shipped_themes() else "is not an id"
            fail(f"--id {chosen!r} {what}: give letters, digits, '_', '-' or '.', not a shipped id")
        chosen = None  # a file name that cannot be the id: keep it and say so
    if chosen is not None:
        text = variant_header(text, theme, chosen)
    hint = (
        f"the copy keeps the id '{theme}': give it its own with --id NAME or by editing its "
        "[theme] id (until then an edited copy is labelled by its file name)"
    )
    if out is None:
        typer.echo(text, nl=False)
        if chosen is None:
            typer.echo(f"note: {hint}", err=True)
        return
    try:
        with out.open("x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        fail(f"{out}: already exists (remove it or choose another --out)")
    except OSError as e:
        fail(f"{out}: cannot write: {e.strerror}")
    said = f"id '{chosen}'" if chosen is not None else hint
    typer.echo(f"wrote {out} (a copy of '{theme}', {said})")


def variant_header(text: str, theme: str, chosen: str) -> str:
    """A shipped theme file's text with the [theme] of a variant: its own id, the shipped
    theme it comes from as `parent` (it plays that theme's strategy values), and its title
    marked with its id, so that verdicts never name the printed game for it."""
    from simcore.engine.theme import variant_title

    text = re.sub(
        rf'(?m)^(id\s*=\s*)"{re.escape(theme)}"\n',
        rf'\g<1>"{chosen}"\n# the shipped theme this variant comes from: it plays its `tuned` values\n'
        rf'parent = "{theme}"\n',
        text,
        count=1,
    )
    return re.sub(
        r'(?m)^(title\s*=\s*)"([^"\n]*)"',
        lambda m: f'{m.group(1)}"{variant_title(m.group(2), chosen)}"',
        text,
        count=1,
    )


@themes_app.command("diff")
def themes_diff(
    a: Annotated[str, typer.Argument(help="Theme id or path: the one to compare against.")],
    b: Annotated[str, typer.Argument(help="Theme id or path: the one compared.")],
) -> None:
    """List what differs from theme A to theme B: cards added, removed or changed (effect,
    copies and faces), characters changed (life, ability), rules changed, other settings.

    Examples:

    bangsim themes diff classic my_variant.toml

    bangsim themes diff classic classic_dodge_city
    """
    from simcore.engine.theme import load_theme
    from simcore.engine.themediff import diff_text

    try:
        first, second = load_theme(a), load_theme(b)
    except ValueError as e:
        fail(str(e))
    typer.echo(diff_text(first, second, a, b))
