"""The goals outside the goal folders that a focus named: the Stop hook keeps holding them.

The hook finds a goal by discovery only under ``goals/`` and ``.zetetic/goals/``. A goal
elsewhere (`plans/x.md`, which `goalfile new --dir plans` writes) is held once `goalfile focus`
names it; if the focus were all that named it, `goalfile focus --clear` (which the agent may
run), a focus moved to another goal, or the focus file deleted would let the agent go with the
goal active and unmet. So each goal outside the goal folders that a focus names is also
recorded here, in the working tree's git folder beside the focus (``goalfile-held.json``), and
the hook looks at every goal recorded as it looks at a discovered one: while it is active it
holds the agent, until it is met or a ledgered command (`goalfile pause`, `block`) ends that.
Clearing or moving the focus does not touch the record. Like the focus file, git does not track
it and anyone can delete it (docs/trust.md says what that leaves open).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from goalfile import files
from goalfile.errors import GoalfileError
from goalfile.goalfolders import in_goal_folder

__all__ = ["HELD_FILE", "held", "hold"]

HELD_FILE = "goalfile-held.json"  # the held goals; the marks of holds made once: goalfile.holdmark
LIMIT = 1 << 20  # bytes read of the record: a few paths


def _record(root: Path) -> Path | None:
    from goalfile.commands.focus import git_dir

    folder = git_dir(root)
    return folder / HELD_FILE if folder is not None else None


def held(root: Path, notes: list[str] | None = None) -> list[str]:
    """The goals recorded as held in the working tree at ``root``, each relative to its top
    level, in the order recorded. A record that cannot be read is none, with a note: one that
    is not a regular file (a FIFO is never waited on), not JSON, or not a list of paths."""
    where = _record(root)
    if where is None:
        return []
    try:
        data = json.loads(files.read_regular_text(where, what="held-goals record", limit=LIMIT))
    except FileNotFoundError:
        return []
    except GoalfileError as exc:
        if notes is not None:
            notes.append(f"the record of held goals is ignored: {exc.render()}")
        return []
    except (OSError, ValueError, RecursionError, UnicodeDecodeError) as exc:
        if notes is not None:
            notes.append(f"the record of held goals {where} is ignored: {type(exc).__name__}")
        return []
    goals = data.get("goals") if isinstance(data, dict) else None
    if not isinstance(goals, list):
        return []
    return [goal for goal in goals if isinstance(goal, str) and goal]


def hold(root: Path, relative: str) -> bool:
    """Record the goal at ``relative`` (to the top of the working tree at ``root``, outside
    the goal folders) as held; whether the record changed. A record that cannot be written
    (no git folder, a read-only one) changes nothing and raises nothing: the focus still
    names the goal."""
    where = _record(root)
    if where is None or in_goal_folder(relative):
        return False
    relative = Path(os.path.normpath(relative)).as_posix()
    kept = held(root)
    if relative in kept:
        return False
    try:
        files.write_atomic(where, json.dumps({"goals": [*kept, relative]}, indent=2) + "\n")
    except (OSError, GoalfileError):
        return False
    return True
