"""Claude Code's status line for a goal: one short line, and the settings entry that runs it.

Pure: a goal and its newest verify entry in, a line out; a settings document in, the merged
document out. The ``statusLine`` setting runs ``goalfile statusline``, which reads Claude Code's
status JSON on stdin (https://docs.claude.com/en/docs/claude-code/statusline) and prints:

    goal goals/auth.md: 2/3 met · iteration 1/5 · tokens 120k/2M

(the goal named by its path: its slug is the agent's to choose, and two goals can share it;
``active`` is not said; any other status is, e.g. ``goal goals/auth.md (blocked): ...``.)
"""

from __future__ import annotations

from dataclasses import dataclass

from goalfile.model import Budget, Entry, Goal, Status, Verdict
from goalfile.termsafe import file_name

COMMAND = "goalfile statusline"


def compact(number: int) -> str:
    """1234 → 1.2k, 2000000 → 2M."""
    for size, suffix in ((1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")):
        if number >= size:
            text = f"{number / size:.1f}".removesuffix(".0")
            return text + suffix
    return str(number)


def line(
    goal: Goal,
    last_verify: Entry | None,
    *,
    others: int = 0,
    used: int | None = None,
    budget: Budget | None = None,
    name: str | None = None,
    status: str | None = None,
) -> str:
    """The status line of ``goal``; ``used``: the iterations the budget counts (the ledger's
    count, :func:`goalfile.handedit.iterations_in_use`), else ``iterations_used``;
    ``budget``: the limits in force (:func:`goalfile.handedit.budget_in_force`), else the
    frontmatter's; ``name``: how the goal is named (its path), else its slug; ``status``: what
    to say instead of the frontmatter's status (one the ledger does not back)."""
    budget = goal.budget if budget is None else budget
    if status is not None:
        status = f" ({status})"
    else:
        status = "" if goal.status is Status.ACTIVE else f" ({goal.status.value})"
    total = len(goal.criteria)
    if last_verify is None:
        rows = f"0/{total} met (not verified yet)"
    else:
        met = sum(1 for row in last_verify.rows if row.verdict is Verdict.MET)
        rows = f"{met}/{total} met"
    limit = budget.iterations
    count = goal.iterations_used if used is None else used
    iterations = f"iteration {count}" + (f"/{limit}" if limit is not None else "")
    parts = [rows, iterations]
    if budget.tokens is not None or goal.tokens_used:
        spent = compact(goal.tokens_used) if goal.tokens_measured else "?"
        limit_shown = f"/{compact(budget.tokens)}" if budget.tokens is not None else ""
        parts.append(f"tokens {spent}{limit_shown}")
    more = f" (+{others} more active)" if others else ""
    return f"goal {file_name(name) if name else goal.slug}{status}: " + " · ".join(parts) + more


@dataclass(frozen=True, kw_only=True)
class Merge:
    document: dict[str, object]
    changed: bool
    other: str | None = None  # a status line of someone else's, kept


def merge(document: dict[str, object]) -> Merge:
    """The settings with our statusLine; one that runs another command is kept, unchanged."""
    current = document.get("statusLine")
    if isinstance(current, dict) and current.get("command") == COMMAND:
        return Merge(document=document, changed=False)
    if current is not None:
        shown = current.get("command") if isinstance(current, dict) else current
        return Merge(document=document, changed=False, other=str(shown))
    merged = {**document, "statusLine": {"type": "command", "command": COMMAND, "padding": 0}}
    return Merge(document=merged, changed=True)
