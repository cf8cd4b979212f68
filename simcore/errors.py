"""How `bangsim` fails: one line on stderr, an exit code, no traceback (docs/errors.md).

Every command runs inside `simcore.cli.main.BangsimGroup.invoke`, the one place that turns an
exception into a line and an exit code (`describe`):

| exit | meaning |
|---|---|
| 0 | done |
| 1 | the machine failed us: disk full, an I/O error (fix it and rerun the same command) |
| 2 | bad input: an option, a theme or experiment file, an output path or run folder that cannot be used as given |
| 70 | a bug in bangsim (the line says so; `bangsim --debug ...` shows the traceback) |
| 130 | interrupted (Ctrl-C): complete chunks are kept, the same command resumes |

Known errors (`UserError`: ThemeError, RunFolderError, ExperimentError, ReportError, ...)
are bad input; an OSError is bad input when the path is the problem (permission, a file
where a folder should be, a read-only file system) and an environment failure otherwise.
`--debug` re-raises everything with its traceback instead.
"""

from __future__ import annotations

import errno

EXIT_ENVIRONMENT = 1
EXIT_BAD_INPUT = 2
EXIT_BUG = 70  # EX_SOFTWARE of sysexits.h
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for Ctrl-C


# errno -> (exit code, what to do); the message before it is the path and os.strerror
_OTHER_PATH = "choose another path (--out)"
OS_HINTS: dict[int, tuple[int, str]] = {
    errno.EACCES: (EXIT_BAD_INPUT, f"{_OTHER_PATH} or change the permissions"),
    errno.EPERM: (EXIT_BAD_INPUT, f"{_OTHER_PATH} or change the permissions"),
    errno.EROFS: (EXIT_BAD_INPUT, _OTHER_PATH),
    errno.ENOTDIR: (EXIT_BAD_INPUT, f"a part of the path is a file, not a folder; {_OTHER_PATH}"),
    errno.EISDIR: (EXIT_BAD_INPUT, _OTHER_PATH),
    errno.EEXIST: (EXIT_BAD_INPUT, _OTHER_PATH),
    errno.ENOENT: (EXIT_BAD_INPUT, "check the path"),
    errno.ENAMETOOLONG: (EXIT_BAD_INPUT, "choose a shorter path"),
    errno.ENOSPC: (EXIT_ENVIRONMENT, "free some space"),
    errno.EDQUOT: (EXIT_ENVIRONMENT, "free some space"),
}


class UserError(ValueError):
    """Bad input whose message is one line naming the problem and what to do; the CLI prints
    it as ``error: ...`` and exits 2. ThemeError, RunFolderError, ExperimentError and
    ReportError are UserErrors."""


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def os_error_line(e: OSError, resumable: bool = False) -> tuple[str, int]:
    """The one line (without ``error: ``) and exit code for an OSError; `resumable` when a
    rerun of the same command resumes a run folder (run, experiment)."""
    code, hint = OS_HINTS.get(e.errno or 0, (EXIT_ENVIRONMENT, ""))
    where = ": ".join(str(f) for f in (e.filename, e.filename2) if f is not None)
    reason = e.strerror or str(e) or type(e).__name__
    again = (
        "rerun the same command to resume (complete chunks are kept)"
        if resumable
        else "rerun the command"
    )
    if code == EXIT_ENVIRONMENT:
        hint = (
            f"{hint}, then {again}" if hint else f"{again}; if it fails again, rerun with --debug"
        )
    return one_line(f"{where + ': ' if where else ''}{reason}; {hint}"), code


def describe(e: BaseException, resumable: bool = False) -> tuple[str, int]:
    """The line on stderr and the exit code for an exception that ended a command."""
    if isinstance(e, KeyboardInterrupt):
        return "interrupted", EXIT_INTERRUPTED
    if isinstance(e, UserError):
        return f"error: {one_line(str(e))}", EXIT_BAD_INPUT
    if isinstance(e, OSError):
        line, code = os_error_line(e, resumable)
        return f"error: {line}", code
    if isinstance(e, MemoryError):
        return (
            "error: out of memory; use fewer --threads or a smaller --chunk-size",
            EXIT_ENVIRONMENT,
        )
    detail = one_line(str(e))[:200]
    return (
        f"error: internal error ({type(e).__name__}{': ' + detail if detail else ''}); "
        "this is a bug in bangsim: rerun with --debug for the traceback and report it",
        EXIT_BUG,
    )
