"""The budget raise a `fix:` hint names for a goal whose budget is spent: a command that works
as written (:mod:`goalfile.commands.hints` for the other statuses)."""

from __future__ import annotations

from goalfile.model import BUDGET_LIMIT_MAX, Goal
from goalfile.shellword import shell_word


def raise_budget_command(goal: Goal, path: str) -> str:
    """`goalfile budget PATH --iterations N` (or `--tokens N` when the token limit was
    reached, or when the iteration limit is unbounded) with a number that works as written:
    twice the limit reached; a person may give any higher one. ``path`` is quoted here. Only
    for a goal with at least one limit (with none, no budget reopens it)."""
    from goalfile.handedit import budget_in_force

    budget = budget_in_force(goal)  # the ledger's limits, never ones typed by hand
    tokens = budget.tokens
    by_tokens = tokens is not None and goal.tokens_used >= tokens
    limit = budget.iterations
    by_iterations = limit is not None and goal.iterations_used >= limit
    which, reached = (
        ("tokens", tokens)
        if (by_tokens and not by_iterations) or (limit is None and tokens is not None)
        else ("iterations", limit)
    )
    higher = 2 * reached if reached else 2 * max(goal.iterations_used, 1)
    if reached is not None and higher > BUDGET_LIMIT_MAX:
        higher = max(BUDGET_LIMIT_MAX, reached + 1)
    return f"goalfile budget {shell_word(path)} --{which} {higher}"
