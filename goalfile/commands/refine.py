"""`goalfile refine PATH`: a backlog entry, one item per row the last verify did not meet."""

from __future__ import annotations

from dataclasses import dataclass

from goalfile import edit, ledger
from goalfile.commands.context import Context
from goalfile.commands.mutate import require_status, update_goal
from goalfile.commands.status import last_entry
from goalfile.errors import Refused
from goalfile.handedit import reopen_notes
from goalfile.model import Entry, Goal, RowResult, Status, Verdict
from goalfile.parse import ledger_region
from goalfile.shellword import shell_word

REFINE_BY = "refine-goal"


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
    shown = (
        ledger.code_span(row.evidence)
        if row.evidence_quoted
        else ledger.md_text(row.evidence, before=" ")
    )
    exit_part = f" (exit {row.exit})" if row.exit not in ("-", "") else ""
    return f"- [ ] {row.id} {row.verdict.value}{exit_part}: {shown}"


def newest_entry(goal: Goal) -> Entry | None:
    region = ledger_region(goal.text)
    if region is None:
        return None
    return next(ledger.entries_reversed(goal.text, *region), None)


def _nothing_open_hint(goal: Goal, path: str) -> str:
    """What a person who ran `refine` with every row met can do instead."""
    word = shell_word(path)
    lesson = f"to record a lesson: `goalfile refine {word} --lesson TEXT`"
    if goal.status is Status.MET:
        return (
            f"{lesson}; to work on the goal again, a person reopens it: "
            f"`goalfile reopen {word} --reason TEXT`"
        )
    return f"{lesson}; else run `goalfile verify {word}` to judge the work as it is now"


def refine(*, path: str, ctx: Context, lesson: str | None = None) -> RefineResult:
    def change(text: str, goal: Goal) -> tuple[str, RefineResult]:
        require_status(goal, path, (Status.ACTIVE, Status.MET), "refine")
        last = newest_entry(goal)
        if last is None or last.by != ledger.VERIFY_BY:
            what = (
                "there is no verify entry to refine from"
                if last is None or last_entry(goal) is None
                else f"the newest entry is `by {last.by}`, not a verify entry: a refine "
                "works from the newest verify run"
            )
            raise Refused(
                what,
                file=path,
                hint=f"run `goalfile verify {shell_word(path)}` first",
            )
        taught = ledger.clean_line(lesson, limit=4000).strip() if lesson else ""
        open_rows = [row for row in last.rows if row.verdict is not Verdict.MET]
        if not open_rows and not taught:
            raise Refused(
                f"every row of verify iteration {last.iteration} was met: there is no "
                "backlog to write; nothing was written",
                file=path,
                hint=_nothing_open_hint(goal, path),
            )
        items = tuple(backlog_item(row) for row in open_rows)
        notes = [
            *reopen_notes(goal),
            f"backlog from verify iteration {last.iteration}:",
            *(items or ("- (nothing: every row was met)",)),
            "",
            "criteria changes: none (a change to a criterion needs "
            "`goalfile activate --reapprove PATH --reason TEXT`)",
            f"lesson: {ledger.md_text(taught, before=' ') or '-'}",
        ]
        entry = Entry(
            iteration=goal.iterations_used, date=ctx.today, by=REFINE_BY, notes=tuple(notes)
        )
        text = edit.append_to_section(text, "Iterations", ledger.render_entry(entry))
        if taught:
            text = edit.append_list_item(text, "Lessons", ledger.md_text(taught))
        return text, RefineResult(
            path=path, iteration=goal.iterations_used, from_iteration=last.iteration, backlog=items
        )

    return update_goal(path, ctx, command="goalfile refine", change=change)
