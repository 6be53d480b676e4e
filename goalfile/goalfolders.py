"""The goal folders: ``goals/`` and ``.zetetic/goals/`` of a repository's top level (outside
git, of the folder a command runs in), where `status`, `lint` and `audit` without a PATH and
the Stop hook find a goal without being told. One rule for every place that asks whether a
path lies in one: discovery, the hook's held goals, `doctor`'s check of a hook's ``--goal``,
`focus`'s record of held goals and `new`'s note on a goal written elsewhere.

Pure: the paths are taken as written, with ``..`` folded and no symlink resolved; a caller that
means the real file resolves both sides first.
"""

from __future__ import annotations

import os
from pathlib import PurePath

__all__ = ["GOAL_FOLDERS", "in_goal_folder", "under_goal_folder"]

GOAL_FOLDERS = ("goals", ".zetetic/goals")
"""The goal folders, relative to the top, in the order they are read."""

_PARTS = tuple(tuple(folder.split("/")) for folder in GOAL_FOLDERS)


def in_goal_folder(relative: str | PurePath) -> bool:
    """Whether ``relative`` (to the top; ``goals/x.md``, git's ``goals/sub/y.md``) lies in a
    goal folder once its ``..`` are folded (``goals/../plans/x.md`` does not)."""
    parts = PurePath(os.path.normpath(relative)).parts
    return any(parts[: len(folder)] == folder for folder in _PARTS)


def under_goal_folder(path: str | PurePath, root: str | PurePath) -> bool:
    """Whether ``path`` lies in a goal folder of the top ``root`` (both absolute, or both
    relative to the same folder); False for a path outside ``root``."""
    try:
        relative = PurePath(os.path.normpath(path)).relative_to(os.path.normpath(root))
    except ValueError:
        return False
    return in_goal_folder(relative)
