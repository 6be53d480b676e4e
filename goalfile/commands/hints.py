"""The command that moves a goal on from its status: used in `fix:` hints, which must work as
written (placeholders in capitals: TEXT, N)."""

from __future__ import annotations

from goalfile.model import Goal, Status
from goalfile.shellword import shell_word


def status_command(goal: Goal, path: str) -> str:
    """`goalfile ...` that acts on a goal in its current status (``path`` quoted as one
    shell word)."""
    path = shell_word(path)
    if goal.status is Status.DRAFT:
        return f"goalfile activate {path}"
    if goal.status is Status.PAUSED:
        return f"goalfile resume {path}"
    if goal.status is Status.BLOCKED:
        return f"goalfile resume {path} --resolved TEXT"
    if goal.status is Status.EXHAUSTED:
        from goalfile.handedit import budget_in_force

        budget = budget_in_force(goal)  # the ledger's limits, never ones typed by hand
        tokens = budget.tokens
        spent = goal.tokens_used
        by_tokens = tokens is not None and spent >= tokens
        limit = budget.iterations
        by_iterations = limit is not None and goal.iterations_used >= limit
        which = "tokens" if by_tokens and not by_iterations else "iterations"
        return f"goalfile budget {path} --{which} N"
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
