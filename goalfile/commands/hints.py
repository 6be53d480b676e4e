"""The command that moves a goal on from its status: used in `fix:` hints, which must work as
written (placeholders in capitals: TEXT, N)."""

from __future__ import annotations

from goalfile.budgethint import raise_budget_command
from goalfile.model import Goal, Status
from goalfile.shellword import shell_word

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from pathlib import Path

NEW_GOAL = '`goalfile new SLUG "END STATE" --check CMD --expected TEXT`'
"""The command that writes a first goal, for a hint where there is none yet."""


def status_command(goal: Goal, path: str) -> str:
    """`goalfile ...` that acts on a goal in its current status (``path`` quoted as one
    shell word)."""
    if goal.status is Status.EXHAUSTED:
        return raise_budget_command(goal, path)
    path = shell_word(path)
    if goal.status is Status.DRAFT:
        return f"goalfile activate {path}"
    if goal.status is Status.PAUSED:
        return f"goalfile resume {path}"
    if goal.status is Status.BLOCKED:
        return f"goalfile resume {path} --resolved TEXT"
    if goal.status is Status.MET:
        return f"goalfile verify --no-write {path}"
    return f"goalfile verify {path}"


def status_hint(goal: Goal, path: str) -> str:
    what = {
        Status.DRAFT: "activate it",
        Status.PAUSED: "resume it",
        Status.BLOCKED: "once the blocker is gone",
        Status.EXHAUSTED: "a person may raise the budget",
        Status.MET: "it is met; to re-run its checks without writing",
        Status.ACTIVE: "it is active",
    }[goal.status]
    return f"{what}: `{status_command(goal, path)}`"


def verify_which(cwd: Path, found: list[str]) -> str:
    """The fix for `verify` without PATH: the command for the goal this working tree focuses
    on when it is active, else for each active goal of ``found`` (paths relative to ``cwd``),
    else `goalfile status`, or ``goalfile new`` when there is no goal at all."""
    import os

    from goalfile.commands.focus import read_focus
    from goalfile.commands.workdir import repository_top
    from goalfile.errors import GoalfileError
    from goalfile.files import load_goal

    if not found:
        return f"there is no goal yet; write one with {NEW_GOAL}"
    active = []
    for path in found:
        try:
            if load_goal(path).status is Status.ACTIVE:
                active.append(path)
        except GoalfileError:
            continue
    top = repository_top(cwd)
    focus = read_focus(top) if top is not None else None
    if top is not None and focus is not None:
        focused = os.path.relpath(top / focus.goal, cwd)
        if focused in active:
            active = [focused]
    if not active:
        return "no goal is active; `goalfile status` names each goal and its next step"
    return ", or ".join(f"`goalfile verify {shell_word(path)}`" for path in active[:3])
