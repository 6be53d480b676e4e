"""The command line. This package is the only place that imports click: ``base`` holds the
group and the error boundary, and each other module registers one family of commands."""

from goalfile.cli import core, lifecycle  # noqa: F401  (registers the commands, in this order)
from goalfile.cli.base import main

from goalfile.cli import trust  # noqa: F401  # isort: skip  (audit)
from goalfile.cli import hosts  # noqa: F401  # isort: skip  (init, skills, hook)
from goalfile.cli import mcp  # noqa: F401  # isort: skip  (mcp)
from goalfile.cli import views  # noqa: F401  # isort: skip  (completion, log, statusline)

__all__ = ["main"]
