"""The command line. This package is the only place that imports click: ``base`` holds the
group and the error boundary, and each other module registers one family of commands.

``main`` answers ``goalfile --version`` without importing click or any command module (a
version check should cost no more than starting Python); every other use of it (calling it,
reading its attributes as click's test runner does, asking whether it is a click command)
goes to the click group.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NoReturn

from goalfile import __version__

if TYPE_CHECKING:
    import click


def group() -> click.Group:
    """The ``goalfile`` click group with every command registered."""
    from goalfile.cli import core, lifecycle  # noqa: F401  (registers the commands, in this order)
    from goalfile.cli.base import main as registered

    from goalfile.cli import trust  # noqa: F401  # isort: skip  (audit)
    from goalfile.cli import hosts  # noqa: F401  # isort: skip  (init, skills, hook)
    from goalfile.cli import mcp  # noqa: F401  # isort: skip  (mcp)
    from goalfile.cli import views  # noqa: F401  # isort: skip  (completion, log, statusline)

    return registered


class _Main:
    """The ``goalfile`` command (the console script's entry point)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs and sys.argv[1:] == ["--version"]:
            _version()
        return group()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(group(), name)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # what isinstance() sees: the group's class
        return type(group())


def _version() -> NoReturn:
    """What click's ``--version`` option prints, and its exit status."""
    print(f"goalfile, version {__version__}")
    sys.exit(0)


main: Any = _Main()

__all__ = ["group", "main"]
