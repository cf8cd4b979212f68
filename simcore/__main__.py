"""`python -m simcore` is the `bangsim` command."""

from simcore.cli import app

if __name__ == "__main__":  # not when a spawned process imports the main module again
    app(prog_name="bangsim")
