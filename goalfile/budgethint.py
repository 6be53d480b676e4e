"""The budget raise a `fix:` hint names for a goal whose budget is spent: a command that works
as written (:mod:`goalfile.commands.hints` for the other statuses)."""

from __future__ import annotations

from goalfile.model import BUDGET_LIMIT_MAX, Goal
from goalfile.shellword import shell_word


def raise_budget_command(goal: Goal, path: str) -> str:
    """`goalfile budget PATH --iterations N` (`--tokens N` for the token limit; both when
    both are reached) with numbers that leave room, so that it reopens the goal as written:
    twice the limit reached, or twice what was used where that is more (one iteration's
    usage can go far past the token limit); a person may give any higher one. With neither
    limit reached, the one there is (iterations first). ``path`` is quoted here. Only for a
    goal with at least one limit (with none, no budget reopens it)."""
    from goalfile.handedit import budget_in_force

    budget = budget_in_force(goal)  # the ledger's limits, never ones typed by hand
    limits: tuple[tuple[str, int | None, int], ...] = (
        ("iterations", budget.iterations, goal.iterations_used),
        ("tokens", budget.tokens, goal.tokens_used),
    )
    reached = [one for one in limits if one[1] is not None and one[2] >= one[1]]
    if not reached:
        reached = [next((one for one in limits if one[1] is not None), limits[0])]
    options = " ".join(f"--{name} {_higher(limit, used)}" for name, limit, used in reached)
    return f"goalfile budget {shell_word(path)} {options}"


def _higher(limit: int | None, used: int) -> int:
    """A limit above ``limit`` that leaves room after ``used``."""
    higher = 2 * max(limit or 0, used, 1)
    if limit is not None and higher > BUDGET_LIMIT_MAX:
        higher = max(BUDGET_LIMIT_MAX, limit + 1)
    return higher
