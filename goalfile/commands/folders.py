"""A goal folder named on the command line stands for every ``*.md`` under it (``audit``,
``status``, ``lint``, ``log``). Kept apart from :mod:`goalfile.commands.audit`, which loads the
auditor, git and :mod:`subprocess`, so that a command on one goal file loads none of them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # e.g. a name too long: audit_file reports it as unreadable
        return False


def expand(paths: Sequence[str]) -> list[str]:
    found: list[str] = []
    for path in paths:
        folder = Path(path)
        if is_dir(folder):
            found += sorted(str(p) for p in folder.rglob("*.md") if p.is_file())
        else:
            found.append(path)
    return found
