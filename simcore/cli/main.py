"""The `bangsim` command line: thin typer commands over plain functions.

Bad input ends with one line on stderr, ``error: ...``, exit code 2, and nothing written.
Every failure is one line and an exit code (docs/errors.md): `BangsimGroup` applies the
table of `simcore.errors` to whatever escapes a command; `bangsim --debug ...` shows the
traceback instead.
"""

from __future__ import annotations

import errno
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

try:  # newer typer carries its own copy of click
    from typer._click import exceptions as _click_exceptions
except ImportError:  # pragma: no cover - older typer on click
    from click import exceptions as _click_exceptions

from simcore.cli.checks import bench, selfcheck, trace
from simcore.cli.learning import learn
from simcore.cli.options import OPTIONS
from simcore.cli.reading import compare, report
from simcore.cli.runs import experiment, run
from simcore.cli.strategy import band, exploit, tournament, tune
from simcore.cli.studies import abilities, balance, cards, character, skill
from simcore.cli.themes import themes_app
from simcore.errors import EXIT_BAD_INPUT, describe, one_line

_UsageError = _click_exceptions.UsageError


_NoArgsIsHelp = getattr(_click_exceptions, "NoArgsIsHelpError", ())


_ClickException = _click_exceptions.ClickException


RESUMING_COMMANDS = ("run", "experiment")  # a rerun of these resumes their run folder


class BangsimGroup(TyperGroup):
    """The top-level command group. Whatever escapes a command (of any subgroup too) ends as
    one line on stderr and the exit code of `simcore.errors.describe`, without a traceback;
    with --debug it propagates with its traceback."""

    def make_context(self, info_name: Any, args: Any, parent: Any = None, **extra: Any) -> Any:
        try:  # parsing the top-level options: `bangsim --bogus`
            return super().make_context(info_name, args, parent=parent, **extra)
        except _NoArgsIsHelp:
            raise  # `bangsim` alone prints the help
        except _UsageError as e:
            usage_exit(e)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except _NoArgsIsHelp:
            raise
        except _UsageError as e:  # a subcommand's options: a typo, a bad value, one missing
            usage_exit(e)
        except (typer.Exit, typer.Abort, _ClickException):
            raise  # typer's own exits
        except OSError as e:
            if e.errno == errno.EPIPE or OPTIONS["debug"]:
                raise  # typer quietly ends a command piped into `head`
            self.exit_with(ctx, e)
        except (Exception, KeyboardInterrupt) as e:
            if OPTIONS["debug"]:
                raise
            self.exit_with(ctx, e)

    @staticmethod
    def exit_with(ctx: Any, e: BaseException) -> NoReturn:
        line, code = describe(e, resumable=ctx.invoked_subcommand in RESUMING_COMMANDS)
        typer.echo(line, err=True)
        raise typer.Exit(code) from None


def usage_exit(e: Any) -> NoReturn:
    """A usage error (unknown option or command, bad or missing value) as one line, exit 2."""
    where = f"; see '{e.ctx.command_path} --help'" if getattr(e, "ctx", None) else ""
    typer.echo(f"error: {one_line(e.format_message()).rstrip('.')}{where}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


app = typer.Typer(
    name="bangsim",
    cls=BangsimGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: paragraphs rewrapped to the terminal, no <bool>
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)


def version_text() -> str:
    """'bangsim 0.1.0 (rules version 4, policy version 1)': what `bangsim --version` prints."""
    from importlib import metadata

    from simcore.engine.request import games_versions, versions_words

    try:
        version = metadata.version("bangsim")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        version = "unknown"
    return f"bangsim {version} ({versions_words(*games_versions().values())})"


def _version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def main(
    debug: Annotated[
        bool,
        typer.Option(
            "--debug", help="On any error, show the Python traceback instead of one line."
        ),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and the rules and policy versions (run folders record them), then exit.",
            callback=_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Monte Carlo balance simulator for BANG! and its re-themed editions.

    Play many games with bots, then read win rates by role with 95% confidence
    intervals. Start with: bangsim run --help

    Errors: one line on stderr; exit 1 disk full or I/O, 2 bad input, 70 a bug, 130 Ctrl-C.
    """
    OPTIONS["debug"] = debug


# the commands, in the order --help lists them

app.command()(run)
app.add_typer(themes_app, name="themes")
app.command()(report)
app.command()(compare)
app.command()(trace)
app.command()(tournament)
app.command()(abilities)
app.command()(cards)
app.command()(character)
app.command()(skill)
app.command()(experiment)
app.command()(selfcheck)
app.command()(tune)
app.command()(exploit)
app.command()(band)
app.command()(learn)
app.command()(balance)
app.command()(bench)
