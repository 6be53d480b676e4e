"""`goalfile status [PATH...]`: where each goal stands, from its frontmatter and its ledger."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from goalfile import ledger
from goalfile.commands.context import Context
from goalfile.errors import ExitCode, GoalfileError
from goalfile.files import load_goal
from goalfile.model import Entry, Goal
from goalfile.parse import ledger_region

GOAL_FOLDERS = ("goals", ".zetetic/goals")


@dataclass(frozen=True, kw_only=True)
class GoalStatus:
    path: str
    goal: Goal | None
    last_verify: Entry | None
    error: GoalfileError | None = None

    def to_json(self) -> dict[str, object]:
        if self.goal is None:
            assert self.error is not None
            return {"path": self.path, "error": self.error.to_json()}
        goal = self.goal
        verdicts = {row.id: row for row in self.last_verify.rows} if self.last_verify else {}
        return {
            "path": self.path,
            "slug": goal.slug,
            "status": goal.status.value,
            "end_state": goal.end_state,
            "iterations": {"used": goal.iterations_used, "budget": goal.budget.iterations},
            "tokens": {"used": goal.tokens_used, "budget": goal.budget.tokens},
            "last_verify": (
                {"iteration": self.last_verify.iteration, "date": self.last_verify.date}
                if self.last_verify
                else None
            ),
            "criteria": [
                {
                    "id": row.id,
                    "kind": row.kind.value,
                    "verdict": verdicts[row.id].verdict.value if row.id in verdicts else None,
                    "evidence": verdicts[row.id].evidence if row.id in verdicts else None,
                }
                for row in goal.criteria
            ],
        }


@dataclass(frozen=True, kw_only=True)
class StatusResult:
    goals: tuple[GoalStatus, ...]

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.INVALID if any(g.error for g in self.goals) else ExitCode.OK

    def to_json(self) -> dict[str, object]:
        return {"schema_version": 1, "goals": [g.to_json() for g in self.goals]}


def discover(root: Path) -> list[str]:
    """Every ``*.md`` under ``goals/`` and ``.zetetic/goals/`` of ``root``, sorted."""
    found: list[str] = []
    for folder in GOAL_FOLDERS:
        base = root / folder
        if base.is_dir():
            found += sorted(str(p) for p in base.rglob("*.md") if p.is_file())
    return found


def last_entry(goal: Goal, by: str = ledger.VERIFY_BY) -> Entry | None:
    region = ledger_region(goal.text)
    if region is None:
        return None
    for entry in ledger.entries_reversed(goal.text, *region):
        if entry.by == by:
            return entry
    return None


def status(*, paths: Sequence[str], ctx: Context) -> StatusResult:
    targets = list(paths) or discover(ctx.cwd)
    results = []
    for path in targets:
        try:
            goal = load_goal(path)
        except GoalfileError as exc:
            results.append(GoalStatus(path=path, goal=None, last_verify=None, error=exc))
            continue
        results.append(GoalStatus(path=path, goal=goal, last_verify=last_entry(goal)))
    return StatusResult(goals=tuple(results))
