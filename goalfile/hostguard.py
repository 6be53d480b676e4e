"""Gemini CLI's retry storm: the AfterAgent hook fired again, but the model was not called.

When an AfterAgent hook denies the end of a turn, Gemini CLI runs the model again and then the
hook again, with ``stop_hook_active: true``. After its own loop detection stops calling the
model, it still fires the hook, about ten times a second. Each of those calls would run every
check and write a ledger entry, and a denial would only bring the next call.

The session file tells the two apart without any state of goalfile's own: the token
accounting row of the session holds the usage at the previous verify. If the session has spent
no token since, the model was not called since the last check, so nothing can have changed
through it, and the hook lets the agent stop without verifying again.
"""

from __future__ import annotations

from goalfile.accounting import parse_accounting
from goalfile.errors import GoalfileError
from goalfile.usage import read_usage

__all__ = ["model_idle"]


def model_idle(goal_text: str, transcript: str) -> bool:
    """The session behind ``transcript`` has spent no token since the goal's last verify."""
    try:
        usage = read_usage(transcript)
        row = parse_accounting(goal_text).row(usage.session_id)
    except GoalfileError:
        return False
    return row is not None and usage.tokens <= row.latest
