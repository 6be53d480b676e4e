"""The command line. This package is the only place that imports click: ``base`` holds the
group and the error boundary, and each other module registers one family of commands.

``main`` answers ``goalfile --version`` and ``goalfile --help`` without importing click or
any command module (a version check or a look at the commands should cost no more than
starting Python; the help is click's own text, kept in :mod:`goalfile.cli.helptext`); every
other use of it (calling it, reading its attributes as click's test runner does, asking whether
it is a click command) goes to the click group.
"""

from __future__ import annotations

import os
import sys

from goalfile import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (--version needs neither)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    import click


def group() -> click.Group:
    """The ``goalfile`` click group with every command registered."""
    from goalfile.cli.base import _register
    from goalfile.cli.base import main as registered

    _register(None)  # core, lifecycle, trust (audit), hosts (init, skills), hook, mcp, views
    return registered


def _lazy_group() -> click.Group:
    """The ``goalfile`` click group, registering a command's module only when it is asked for."""
    from goalfile.cli.base import main as registered

    return registered


class _Main:
    """The ``goalfile`` command (the console script's entry point)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs:  # the program's own run, not a caller's (click's test runner)
            answer_plainly()
            from goalfile.patterncache import preload

            preload()  # the patterns goalfile's modules compile at import, made from the table
        return _lazy_group()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(group(), name)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # what isinstance() sees: the group's class
        return type(group())


def answer_plainly() -> None:
    """Answer ``goalfile --version`` and ``goalfile --help`` (the latter when click would lay it
    out at its widest) from ``sys.argv`` and exit; return for any other command line. The
    program asks this before it sets up its signal handling (:mod:`goalfile.__main__`), which
    neither answer needs."""
    if sys.argv[1:] == ["--version"]:
        _version()
    if sys.argv[1:] in (["--help"], ["-h"]):
        _help()


def _version() -> NoReturn:
    """What click's ``--version`` option prints, and its exit status."""
    print(f"goalfile, version {__version__}")
    sys.exit(0)


def _help() -> None:
    """Print the top-level help and exit 0, as click would, when click would lay it out at its
    widest; otherwise return, and click prints it."""
    from goalfile.cli import helptext

    prog = _program_name()
    if prog is None or _columns() < helptext.COLUMNS:
        return
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return  # a shell asking for completions: click answers that
    try:
        sys.stdout.write(helptext.TEXT.replace("{prog}", prog))
        sys.stdout.flush()
    except BrokenPipeError:  # click's answer to a reader that went away: exit 1, quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (the interpreter flushes it at exit)
        sys.exit(1)
    sys.exit(0)


def _program_name() -> str | None:
    """The program name click shows in the usage line (its ``_detect_program_name``), or None
    when this is not the ``goalfile`` script or ``python -m goalfile``."""
    package = getattr(sys.modules.get("__main__"), "__package__", None)
    name = os.path.basename(sys.argv[0])
    if package in (None, ""):
        return name if name == "goalfile" else None
    if package == "goalfile" and name == "__main__.py":
        return "python -m goalfile"
    return None


def _columns() -> int:
    """The terminal's width as click's help formatter reads it (``shutil.get_terminal_size``
    with its fallback of 80 columns), without importing shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns


main: Any = _Main()

__all__ = ["group", "main"]
