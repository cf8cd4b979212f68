"""The `bangsim` command: the typer app and one module per family of commands."""

from simcore.cli.main import app

__all__ = ["app"]
