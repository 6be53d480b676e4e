"""Gemini CLI's retry storm: the AfterAgent hook fired again, but the model was not called.

When an AfterAgent hook denies the end of a turn, Gemini CLI runs the model again and then the
hook again, with ``stop_hook_active: true``. After its own loop detection stops calling the
model, it still fires the hook, about ten times a second. Each of those calls would run every
check and write a ledger entry, and a denial would only bring the next call.

The session file tells the two apart: after each verify of a goal for a Gemini session, the
hook records where the session file stood (the id of its latest model message and the
session's usage) in a small marker under the working tree's git folder
(``.git/goalfile-idle/``, one file per session and goal). The hook lets the agent stop without
verifying again only when the session file still stands exactly there: the same latest model
message and the same usage, so the model was not called since the last check.

The marker is in the agent's reach (``.git`` is in the work tree), so the hook takes nothing
from it that the agent could raise to skip a verify: a marker that is missing, unreadable, for
another session or goal, or whose usage or message differs from the session file's in either
direction (a raised usage included) makes the hook verify. To forge an allow, a marker would
have to name the session's latest model message, and from inside a turn that message does not
exist yet: every tool call the agent makes is followed by one more model message before the turn
ends. The marker is never read from the goal file either (its ``## Token accounting`` table is
text the agent can edit).
"""

from __future__ import annotations

import json
from pathlib import Path

from goalfile.digest import sha256
from goalfile.errors import GoalfileError
from goalfile.files import read_regular_text
from goalfile.usage import read_usage

__all__ = ["IDLE_FOLDER", "mark_verified", "model_idle"]

IDLE_FOLDER = "goalfile-idle"


def _marker(git_folder: Path, session: str, goal: str) -> Path:
    key = sha256(f"{session}\0{goal}".encode()).hexdigest()[:32]
    return git_folder / IDLE_FOLDER / f"{key}.json"


def model_idle(*, git_folder: Path | None, goal: str, transcript: str) -> bool:
    """The session file behind ``transcript`` stands exactly where it stood when the hook last
    verified ``goal`` (its path relative to the repository) for it: the same latest model
    message and the same usage. False when there is no marker, no git folder, no model message,
    anything cannot be read, or the marker differs in any way: then the hook verifies."""
    if git_folder is None:
        return False
    try:
        usage = read_usage(transcript)
        marker = _marker(git_folder, usage.session_id, goal)
        data = json.loads(read_regular_text(marker, what="marker", limit=1 << 16))
    except (GoalfileError, OSError, ValueError, RecursionError, UnicodeDecodeError):
        return False
    if not isinstance(data, dict) or data.get("session") != usage.session_id:
        return False
    tokens = data.get("tokens")
    if data.get("goal") != goal or not isinstance(tokens, int) or isinstance(tokens, bool):
        return False
    if usage.newest is None or data.get("newest") != usage.newest:
        return False  # a model message came since, or the marker names none
    return tokens == usage.tokens  # more or fewer than the session file holds: verify


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
        document = {
            "session": usage.session_id,
            "goal": goal,
            "tokens": usage.tokens,
            "newest": usage.newest,
        }
        files.write_atomic(where, json.dumps(document) + "\n")
    except (GoalfileError, OSError):
        return
