"""`goalfile refine PATH`: a backlog entry, one item per row the last verify did not meet."""

from __future__ import annotations

from dataclasses import dataclass

from goalfile import edit, ledger
from goalfile.commands.context import Context
from goalfile.commands.mutate import require_status, update_goal
from goalfile.commands.status import last_entry
from goalfile.errors import Refused
from goalfile.model import Entry, Goal, RowResult, Status, Verdict


@dataclass(frozen=True, kw_only=True)
class RefineResult:
    path: str
    iteration: int
    from_iteration: int
    backlog: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "path": self.path,
            "iteration": self.iteration,
            "from_verify_iteration": self.from_iteration,
            "backlog": list(self.backlog),
        }


def backlog_item(row: RowResult) -> str:
    shown = ledger.code_span(row.evidence) if row.evidence_quoted else row.evidence
    exit_part = f" (exit {row.exit})" if row.exit not in ("-", "") else ""
    return f"- [ ] {row.id} {row.verdict.value}{exit_part}: {shown}"


def refine(*, path: str, ctx: Context) -> RefineResult:
    def change(text: str, goal: Goal) -> tuple[str, RefineResult]:
        require_status(goal, path, (Status.ACTIVE, Status.MET), "refine")
        last = last_entry(goal)
        if last is None:
            raise Refused(
                "there is no verify entry to refine from",
                file=path,
                hint="run `goalfile verify` first",
            )
        open_rows = [row for row in last.rows if row.verdict is not Verdict.MET]
        items = tuple(backlog_item(row) for row in open_rows)
        notes = [
            f"backlog from verify iteration {last.iteration}:",
            *(items or ("- (nothing: every row was met)",)),
            "",
            "criteria changes: none (a change to a criterion needs "
            "`goalfile activate --reapprove PATH --reason TEXT`)",
            "lesson: -",
        ]
        entry = Entry(
            iteration=goal.iterations_used, date=ctx.today, by="refine", notes=tuple(notes)
        )
        text = edit.append_to_section(text, "Iterations", ledger.render_entry(entry))
        return text, RefineResult(
            path=path, iteration=goal.iterations_used, from_iteration=last.iteration, backlog=items
        )

    return update_goal(path, ctx, command="goalfile refine", change=change)
