"""`goalfile activate PATH`: draft → active, only when lint passes."""

from __future__ import annotations

from dataclasses import dataclass

from goalfile import contract, edit, ledger
from goalfile.commands.context import Context
from goalfile.commands.mutate import update_goal
from goalfile.errors import Refused
from goalfile.lint import require_valid
from goalfile.model import Entry, Goal, Status


@dataclass(frozen=True, kw_only=True)
class ActivateResult:
    path: str
    slug: str
    status: Status
    criteria: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "path": self.path,
            "slug": self.slug,
            "status": self.status.value,
            "criteria": list(self.criteria),
        }


def activate(*, path: str, ctx: Context) -> ActivateResult:
    def change(text: str, goal: Goal) -> tuple[str, ActivateResult]:
        require_valid(goal)
        if goal.status is not Status.DRAFT:
            raise Refused(
                f"the goal is {goal.status.value}; only a draft can be activated",
                file=path,
                line=goal.key_line("status"),
                hint="a paused goal is reopened with `goalfile resume`",
            )
        ids = tuple(row.id for row in goal.criteria)
        pin = contract.digest(goal)
        entry = Entry(
            iteration=goal.iterations_used,
            date=ctx.today,
            by="activate",
            notes=(f"contract approved: {', '.join(ids)}",),
            status=Status.ACTIVE,
            contract=contract.short(pin),
        )
        text = edit.append_to_section(text, "Iterations", ledger.render_entry(entry))
        text = edit.set_value(text, "status", Status.ACTIVE.value)
        text = edit.set_value(text, "contract", pin)
        return text, ActivateResult(path=path, slug=goal.slug, status=Status.ACTIVE, criteria=ids)

    return update_goal(path, ctx, command="goalfile activate", change=change)
