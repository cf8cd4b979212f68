"""`python -m simcore` is the `bangsim` command."""

from simcore.cli import app

app(prog_name="bangsim")
