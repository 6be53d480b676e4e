"""`goalfile plan PATH`: check the plan covers the criteria, and spend an iteration on it."""

from __future__ import annotations

from dataclasses import dataclass

from goalfile import edit, ledger
from goalfile.commands.context import Context
from goalfile.commands.githints import require_valid_here
from goalfile.commands.mutate import require_status, update_goal
from goalfile.errors import ExitCode, Refused
from goalfile.handedit import iterations_in_use, limit_in_force, reopen_notes
from goalfile.model import Entry, Goal, Status
from goalfile.parse import ledger_region
from goalfile.plan import (
    PLAN_COLUMNS,
    empty_plan,
    findings_line,
    record_in_section,
    review_plan,
)
from goalfile.shellword import shell_word
from goalfile.words import counted

REVISION_NOTE = "plan revision"


@dataclass(frozen=True, kw_only=True)
class PlanResult:
    path: str
    slug: str
    iteration: int
    status: Status
    sound: bool | None  # None when the budget was exhausted before the plan was read
    revision: int
    digest: str
    findings: tuple[str, ...]

    @property
    def exit_code(self) -> ExitCode:
        if self.status is Status.EXHAUSTED:
            return ExitCode.EXHAUSTED
        return ExitCode.OK if self.sound else ExitCode.UNMET

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "path": self.path,
            "slug": self.slug,
            "iteration": self.iteration,
            "status": self.status.value,
            "sound": self.sound,
            "revision": self.revision,
            "plan_digest": self.digest,
            "findings": list(self.findings),
            "exit_code": int(self.exit_code),
        }


def _revision(goal: Goal) -> int:
    region = ledger_region(goal.text)
    if region is None:
        return 1
    return 1 + sum(
        1
        for entry in ledger.newest_first(goal.text, *region, by=("plan",))
        if entry.notes and entry.notes[0].startswith(REVISION_NOTE)
    )


def empty_plan_hint(goal: Goal, path: str) -> str:
    """What to do about a plan with no step: write one, or go without (planning is optional)."""
    header = "| " + " | ".join(PLAN_COLUMNS) + " |"
    ids = ", ".join(row.id for row in goal.criteria) or "the criterion ids"
    empty = empty_plan(goal)
    where = (
        "under `## Plan`"
        if empty is None or empty.has_section
        else f"in a `## Plan` section above line {empty.line}"
    )
    return (
        f"fill in the plan: a table `{header}` {where}, one row per step, whose `serves` "
        f"cells name {ids}; then `goalfile plan {shell_word(path)}`. Or go without a plan: do the "
        "work, "
        f"then `goalfile verify {shell_word(path)}`"
    )


def _refuse_an_empty_plan(goal: Goal, path: str) -> None:
    """A plan with no step is not judged: there is nothing to check, so no iteration is used."""
    empty = empty_plan(goal)
    if empty is None:
        return
    raise Refused(
        f"{empty.problem}: there is no plan to check; nothing was written and no iteration "
        "was used",
        file=path,
        line=empty.line,
        hint=empty_plan_hint(goal, path),
    )


def plan(*, path: str, ctx: Context) -> PlanResult:
    def change(text: str, goal: Goal) -> tuple[str, PlanResult]:
        require_valid_here(goal, cwd=ctx.cwd)
        require_status(
            goal,
            path,
            (Status.ACTIVE,),
            "plan",
            hint=None,  # the command for its status
        )
        limit = limit_in_force(goal, "iterations")  # the ledger's, never one typed by hand
        used = iterations_in_use(goal)  # never more than the ledger backs
        if limit is not None and used >= limit:
            entry = Entry(
                iteration=used,
                date=ctx.today,
                by="plan",
                notes=(
                    *reopen_notes(goal),
                    f"iteration budget reached: {used} of {limit} used",
                ),
                status=Status.EXHAUSTED,
            )
            text = edit.append_to_section(text, "Iterations", ledger.render_entry(entry))
            text = edit.set_value(text, "status", Status.EXHAUSTED.value)
            return text, PlanResult(
                path=path,
                slug=goal.slug,
                iteration=used,
                status=Status.EXHAUSTED,
                sound=None,
                revision=0,
                digest="",
                findings=(entry.notes[-1],),
            )
        _refuse_an_empty_plan(goal, path)
        review = review_plan(goal)
        revision = _revision(goal)
        iteration = used + 1
        findings = review.findings()
        verdict = "sound" if review.sound else "unsound"
        # the plan skill's lines, the same in the section and in the entry
        notes = [
            f"{REVISION_NOTE} {revision} ({review.digest}): "
            f"{counted(len(review.steps), 'step')}, {verdict}",
            f"revision: {revision}",
            f"verify-plan: {verdict} ({ctx.today})",
            findings_line(findings),
        ]
        entry = Entry(
            iteration=iteration, date=ctx.today, by="plan", notes=(*notes, *reopen_notes(goal))
        )
        text = record_in_section(
            text, goal, revision=revision, verdict=verdict, date=ctx.today, findings=findings
        )
        text = edit.append_to_section(text, "Iterations", ledger.render_entry(entry))
        text = edit.set_value(text, "iterations_used", iteration)
        return text, PlanResult(
            path=path,
            slug=goal.slug,
            iteration=iteration,
            status=goal.status,
            sound=review.sound,
            revision=revision,
            digest=review.digest,
            findings=tuple(findings),
        )

    return update_goal(path, ctx, command="goalfile plan", change=change)
