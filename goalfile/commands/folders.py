"""A goal folder named on the command line stands for every ``*.md`` under it (``audit``,
``status``, ``lint``, ``log``). Kept apart from :mod:`goalfile.commands.audit`, which loads the
auditor, git and :mod:`subprocess`, so that a command on one goal file loads none of them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path


def is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # e.g. a name too long: audit_file reports it as unreadable
        return False


def expand(paths: Sequence[str]) -> list[str]:
    """Each folder in ``paths`` as the ``*.md`` files under it (links to folders not followed),
    sorted; anything else as it is. A folder under it that goes away meanwhile holds nothing;
    one that cannot be read is an error naming it (a goal there would go unchecked)."""
    found: list[str] = []
    for path in paths:
        folder = Path(path)
        if is_dir(folder):
            found += sorted(_goal_files(folder))
        else:
            found.append(path)
    return found


def _goal_files(folder: Path) -> list[str]:
    files: list[str] = []
    for top, _, names in os.walk(folder, onerror=_unreadable):
        for name in names:
            if name.endswith(".md") and Path(top, name).is_file():
                files.append(str(Path(top, name)))
    return files


def _unreadable(exc: OSError) -> None:
    if isinstance(exc, FileNotFoundError):
        return  # gone since its folder was listed
    from goalfile.errors import GoalfileError

    raise GoalfileError(
        f"cannot read this folder: {exc.strerror or exc}; a goal file in it would go unchecked:"
        " let this user read it, or name the goal files themselves",
        file=os.fsdecode(exc.filename),
    )
