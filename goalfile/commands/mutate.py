"""Read-edit-write under the goal's lock: the one path every editing command takes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from goalfile import edit
from goalfile.commands.context import Context
from goalfile.commands.hints import status_hint
from goalfile.errors import GoalfileError, Refused
from goalfile.files import goal_lock, read_for_edit, write_atomic
from goalfile.model import Goal, Status

T = TypeVar("T")
LOCK_WAIT = 600.0


def update_goal(
    path: str,
    ctx: Context,
    *,
    command: str,
    change: Callable[[str, Goal], tuple[str, T]],
    check: Callable[[Goal, str], Goal | None] = edit.check_written,
) -> T:
    """Apply ``change(text, goal) -> (new_text, result)``; write only when the text changed.

    ``change`` raises to refuse, and then the file is left untouched. ``check`` re-reads the
    new text before it is written and raises to refuse it (`lint --fix`, the one writer that
    rewrites criteria rows, checks that their meaning is unchanged instead); the goal it
    returns, read back from the new text, is what the next read of the file in this process
    gets without parsing it again.
    """
    with goal_lock(path, command=command, wait=LOCK_WAIT, on_wait=ctx.notify):
        text, goal = read_for_edit(path)  # (with its bytes, unless the file is big)
        try:
            new_text, result = change(text, goal)
        except GoalfileError as exc:
            if exc.file is None and exc.line is not None:  # an edit names a line, not the file
                exc.file = path
            raise
        if new_text != text:
            written = check(goal, new_text)
            write_atomic(path, new_text, parsed=written)
        return result


def require_status(
    goal: Goal, path: str, allowed: Sequence[Status], what: str, *, hint: str | None = None
) -> None:
    """Refuse (exit 3, file untouched) a goal whose status ``what`` does not act on."""
    if goal.status not in allowed:
        names = " or ".join(s.value for s in allowed)
        if hint is None and goal.status is Status.MET and Status.ACTIVE in allowed:
            from goalfile.shellword import shell_word

            hint = (
                "it is met; to work on it again, a person reopens it: "
                f"`goalfile reopen {shell_word(path)} --reason TEXT`"
            )
        raise Refused(
            f"the goal is {goal.status.value}; {what} needs it {names}; nothing was written",
            file=path,
            line=goal.key_line("status"),
            hint=hint or status_hint(goal, path),
        )
