"""Status changes a person or agent asks for: block, resume, pause, impossible, budget.

Each appends a ledger entry and changes the frontmatter by single-line edits only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from goalfile import edit, ledger
from goalfile.commands.context import Context
from goalfile.commands.mutate import require_status, update_goal
from goalfile.commands.verify import impossible_rows
from goalfile.errors import NoSuchRow, Refused, UsageError
from goalfile.model import Entry, Goal, Status
from goalfile.termsafe import file_name

REASON_LIMIT = 4_000
TRIED_LIMIT = 50


@dataclass(frozen=True, kw_only=True)
class StateResult:
    path: str
    command: str
    status: Status
    notes: tuple[str, ...]
    fix: str | None = None  # the command that moves the goal on, where it did not move

    def to_json(self) -> dict[str, object]:
        found: dict[str, object] = {
            "schema_version": 1,
            "path": self.path,
            "command": self.command,
            "status": self.status.value,
            "notes": list(self.notes),
        }
        if self.fix is not None:
            found["fix"] = self.fix
        return found


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _entry_text(
    goal: Goal,
    ctx: Context,
    by: str,
    notes: Sequence[str],
    status: Status | None,
    reason: str | None = None,
) -> list[str]:
    from goalfile.handedit import reopen_notes

    if by != "reopen":  # the first entry after a hand reopen records it
        notes = (*reopen_notes(goal), *notes)
    entry = Entry(
        iteration=goal.iterations_used,
        date=ctx.today,
        by=by,
        notes=tuple(ledger.md_note(note) for note in notes),  # reasons shown as given
        status=status,
    )
    return ledger.render_entry(entry, status_reason=reason)


def block(*, path: str, reason: str, tried: Sequence[str], ctx: Context) -> StateResult:
    reason = _one_line(reason)
    if not 1 <= len(reason) <= REASON_LIMIT:
        raise UsageError(f"--reason must be 1 to {REASON_LIMIT} characters")
    attempts = [_one_line(t) for t in tried if t.strip()]
    if not 1 <= len(attempts) <= TRIED_LIMIT:
        raise UsageError(f"give 1 to {TRIED_LIMIT} --tried workarounds (what you tried)")

    def change(text: str, goal: Goal) -> tuple[str, StateResult]:
        require_status(goal, path, (Status.ACTIVE, Status.PAUSED), "block")
        notes = [f"blocker: {reason}", "tried:", *(f"- {t}" for t in attempts)]
        text = edit.append_to_section(
            text, "Iterations", _entry_text(goal, ctx, "block", notes, Status.BLOCKED)
        )
        text = edit.set_value(text, "status", Status.BLOCKED.value)
        text = edit.set_value(text, "blocker", reason)
        return text, StateResult(
            path=path, command="block", status=Status.BLOCKED, notes=tuple(notes)
        )

    return update_goal(path, ctx, command="goalfile block", change=change)


def resume(*, path: str, resolved: str | None, ctx: Context) -> StateResult:
    def change(text: str, goal: Goal) -> tuple[str, StateResult]:
        require_status(goal, path, (Status.PAUSED, Status.BLOCKED), "resume")
        notes: list[str] = []
        if goal.status is Status.BLOCKED:
            if not resolved or not resolved.strip():
                raise UsageError(
                    "a blocked goal is resumed with --resolved TEXT: what removed the blocker"
                )
            blocker = goal.meta.get("blocker")
            if blocker:
                notes.append(f"blocker was: {_one_line(str(blocker))}")
            notes.append(f"resolved: {_one_line(resolved)}")
        elif resolved:
            notes.append(f"note: {_one_line(resolved)}")
        else:
            notes.append("resumed after pause")
        text = edit.append_to_section(
            text, "Iterations", _entry_text(goal, ctx, "resume", notes, Status.ACTIVE)
        )
        text = edit.set_value(text, "status", Status.ACTIVE.value)
        text = edit.remove_key(text, "blocker")
        return text, StateResult(
            path=path, command="resume", status=Status.ACTIVE, notes=tuple(notes)
        )

    return update_goal(path, ctx, command="goalfile resume", change=change)


def pause(*, path: str, reason: str | None, ctx: Context) -> StateResult:
    def change(text: str, goal: Goal) -> tuple[str, StateResult]:
        require_status(goal, path, (Status.ACTIVE,), "pause")
        notes = [f"paused: {_one_line(reason)}" if reason else "paused"]
        text = edit.append_to_section(
            text, "Iterations", _entry_text(goal, ctx, "pause", notes, Status.PAUSED)
        )
        text = edit.set_value(text, "status", Status.PAUSED.value)
        return text, StateResult(
            path=path, command="pause", status=Status.PAUSED, notes=tuple(notes)
        )

    return update_goal(path, ctx, command="goalfile pause", change=change)


def impossible(*, path: str, row_id: str, reason: str, ctx: Context) -> StateResult:
    reason = _one_line(reason)
    if not 1 <= len(reason) <= REASON_LIMIT:
        raise UsageError(f"--reason must be 1 to {REASON_LIMIT} characters")

    def change(text: str, goal: Goal) -> tuple[str, StateResult]:
        require_status(goal, path, (Status.ACTIVE, Status.PAUSED, Status.BLOCKED), "impossible")
        row = goal.criterion(row_id)
        if row is None:
            raise NoSuchRow(
                f"no criterion {row_id} in {file_name(path)}",
                given=row_id,
                ids=[r.id for r in goal.criteria],
                path=path,
            )
        if row_id in impossible_rows(goal):
            raise Refused(
                f"{row_id} is marked impossible already",
                file=path,
                line=goal.key_line(f"impossible.{row_id}"),
            )
        notes = [f"{row_id} marked impossible: {reason}", "the goal can no longer become met"]
        text = edit.append_to_section(
            text, "Iterations", _entry_text(goal, ctx, "impossible", notes, None)
        )
        text = edit.set_value(text, f"impossible.{row_id}", reason)
        return text, StateResult(
            path=path, command="impossible", status=goal.status, notes=tuple(notes)
        )

    return update_goal(path, ctx, command="goalfile impossible", change=change)


def budget(*, path: str, iterations: int | None, tokens: int | None, ctx: Context) -> StateResult:
    if iterations is None and tokens is None:
        raise UsageError("give --iterations N and/or --tokens N (the new, higher limit)")

    def change(text: str, goal: Goal) -> tuple[str, StateResult]:
        from goalfile.handedit import budget_in_force

        notes: list[str] = []
        limits = budget_in_force(goal)  # the ledger's: a limit typed by hand counts for nothing
        for name, new, old in (
            ("iterations", iterations, limits.iterations),
            ("tokens", tokens, limits.tokens),
        ):
            if new is None:
                continue
            if old is None:
                raise Refused(
                    f"the {name} budget is unbounded already; a limit would lower it",
                    file=path,
                    line=goal.key_line(f"budget.{name}"),
                )
            if new <= old:
                raise Refused(
                    f"--{name} {new} does not raise the limit of {old}; budgets only go up",
                    file=path,
                    line=goal.key_line(f"budget.{name}"),
                )
            notes.append(f"budget.{name}: {old} → {new}")
            text = edit.set_value(text, f"budget.{name}", new)
        status = goal.status
        new_iterations = iterations if iterations is not None else limits.iterations
        new_tokens = tokens if tokens is not None else limits.tokens
        room = (new_iterations is None or goal.iterations_used < new_iterations) and (
            new_tokens is None or goal.tokens_used < new_tokens
        )
        if goal.status is Status.EXHAUSTED and room:
            status = Status.ACTIVE
            notes.append("reopened: the new limits leave room")
            text = edit.set_value(text, "status", status.value)
        text = edit.append_to_section(
            text,
            "Iterations",
            _entry_text(goal, ctx, "budget", notes, status if status != goal.status else None),
        )
        fix = None
        if status is Status.EXHAUSTED:  # the raise leaves no room: one that does
            from goalfile.budgethint import raise_budget_command
            from goalfile.parse import parse_goal

            fix = raise_budget_command(parse_goal(text, path=goal.path), path)
        return text, StateResult(
            path=path, command="budget", status=status, notes=tuple(notes), fix=fix
        )

    return update_goal(path, ctx, command="goalfile budget", change=change)


def reopen(*, path: str, reason: str, ctx: Context) -> StateResult:
    """Set a met, blocked, exhausted or paused goal back to active, as a hand edit of the
    status would (see :mod:`goalfile.handedit`), with the reason in the entry."""
    from goalfile.handedit import REOPENABLE, reopened_from

    reason = _one_line(reason)
    if not 1 <= len(reason) <= REASON_LIMIT:
        raise UsageError(f"--reason must be 1 to {REASON_LIMIT} characters")

    def change(text: str, goal: Goal) -> tuple[str, StateResult]:
        was = reopened_from(goal) or goal.status
        if was not in REOPENABLE:
            require_status(goal, path, tuple(sorted(REOPENABLE)), "reopen")
        notes = [f"reopened (was {was.value})", f"reason: {reason}"]
        text = edit.append_to_section(
            text, "Iterations", _entry_text(goal, ctx, "reopen", notes, Status.ACTIVE)
        )
        if goal.status is not Status.ACTIVE:
            text = edit.set_value(text, "status", Status.ACTIVE.value)
        text = edit.remove_key(text, "blocker")
        return text, StateResult(
            path=path, command="reopen", status=Status.ACTIVE, notes=tuple(notes)
        )

    return update_goal(path, ctx, command="goalfile reopen", change=change)
