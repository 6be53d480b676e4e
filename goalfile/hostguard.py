"""Gemini CLI's retry storm: the AfterAgent hook fired again, but the model was not called.

When an AfterAgent hook denies the end of a turn, Gemini CLI runs the model again and then the
hook again, with ``stop_hook_active: true``. After its own loop detection stops calling the
model, it still fires the hook, about ten times a second. Each of those calls would run every
check and write a ledger entry, and a denial would only bring the next call.

The session file tells the two apart: after each verify of a goal for a Gemini session, the
hook records the session's usage in a small marker under the working tree's git folder
(``.git/goalfile-idle/``, one file per session and goal). If the session has spent no token
since, the model was not called since the last check, so nothing can have changed through it,
and the hook lets the agent stop without verifying again. The marker is never read from the
goal file (its ``## Token accounting`` table is text the agent can edit): an edit of the goal
cannot make the hook skip a verify.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from goalfile.errors import GoalfileError
from goalfile.usage import read_usage

__all__ = ["IDLE_FOLDER", "mark_verified", "model_idle"]

IDLE_FOLDER = "goalfile-idle"


def _marker(git_folder: Path, session: str, goal: str) -> Path:
    key = hashlib.sha256(f"{session}\0{goal}".encode()).hexdigest()[:32]
    return git_folder / IDLE_FOLDER / f"{key}.json"


def model_idle(*, git_folder: Path | None, goal: str, transcript: str) -> bool:
    """The session behind ``transcript`` has spent no token since the hook last verified
    ``goal`` (its path relative to the repository) for it. False when there is no marker, no
    git folder, or anything cannot be read: then the hook verifies."""
    if git_folder is None:
        return False
    try:
        usage = read_usage(transcript)
        data = json.loads(_marker(git_folder, usage.session_id, goal).read_text(encoding="utf-8"))
    except (GoalfileError, OSError, ValueError, UnicodeDecodeError):
        return False
    if not isinstance(data, dict) or data.get("session") != usage.session_id:
        return False
    tokens = data.get("tokens")
    if data.get("goal") != goal or not isinstance(tokens, int) or isinstance(tokens, bool):
        return False
    return usage.tokens <= tokens


def mark_verified(*, git_folder: Path | None, goal: str, transcript: str) -> None:
    """Record the session's usage now, right after the hook verified ``goal`` for it. A marker
    that cannot be written only means the next call verifies again."""
    if git_folder is None:
        return
    from goalfile import files

    try:
        usage = read_usage(transcript)
        where = _marker(git_folder, usage.session_id, goal)
        where.parent.mkdir(exist_ok=True)
        document = {"session": usage.session_id, "goal": goal, "tokens": usage.tokens}
        files.write_atomic(where, json.dumps(document) + "\n")
    except (GoalfileError, OSError):
        return
