"""`goalfile activate PATH`: draft → active, only when lint passes; `--reapprove` re-pins.

An active goal whose ledger holds no approval entry (written by hand with `status: active`, or
as the skill family writes one) is approved the same way, and stays active: the Stop hook runs
only a contract whose approval git's index or HEAD holds, and activate stages what it approves.

Every ``by activate`` entry records the contract it approved (its rows and non-goals, see
:func:`goalfile.contract.approval_lines`), so a later re-approval can show old and new rows.
The first also records the budget approved with it (``budget approved: iterations 5, tokens
unbounded``): the limits in force from then on are that line's, raised only by ``by budget``
entries (:func:`goalfile.handedit.ledger_limits`); the usage a draft claims
(``iterations_used``, ``tokens_used``) is listed with it, and refused where it reaches a
limit (the goal would be exhausted at its first stop).

``--reapprove`` is for a goal past its draft whose contract no longer matches its pin: the
entry lists every row added, removed and changed (old → new per field, loosened changes
marked), with the reason, and the pin moves to the new contract. The status is kept, except
that a ``met`` goal goes back to ``active``: it was met under the old contract.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from goalfile import contract, contractdiff, edit, ledger, settings
from goalfile.commands import workdir
from goalfile.commands.context import Context
from goalfile.commands.hints import status_hint
from goalfile.commands.mutate import update_goal
from goalfile.errors import GoalfileError, Refused
from goalfile.handedit import (
    BUDGET_KEYS,
    budget_approved_note,
    budget_in_force,
    delete_lines_command,
    reopen_notes,
    set_key_command,
)
from goalfile.lint import require_valid
from goalfile.model import BUDGET_LIMIT_MAX, Budget, Entry, Goal, Status
from goalfile.shellword import shell_word
from goalfile.termsafe import file_name
from goalfile.value import Compared, replace
from goalfile.words import counted

REAPPROVABLE = frozenset(
    {Status.ACTIVE, Status.MET, Status.BLOCKED, Status.EXHAUSTED, Status.PAUSED}
)


_RESULT_FIELDS = (
    "approved",
    "budget",
    "cautions",
    "changes",
    "criteria",
    "digest",
    "path",
    "previous",
    "reapproved",
    "slug",
    "status",
    "used",
    "where",
)


class ActivateResult(Compared, compared=_RESULT_FIELDS):  # not compared by its text
    __slots__ = (*_RESULT_FIELDS, "text")

    def __init__(
        self,
        *,
        path: str,
        slug: str,
        status: Status,
        criteria: tuple[str, ...],
        digest: str = "",
        previous: str | None = None,
        changes: tuple[contractdiff.Change, ...] = (),
        reapproved: bool = False,
        approved: contract.Contract | None = None,
        where: workdir.WorkDir | None = None,
        budget: Budget | None = None,
        used: tuple[tuple[str, int], ...] = (),
        cautions: tuple[str, ...] = (),
        text: str = "",
    ) -> None:
        self.path: Final = path
        self.slug: Final = slug
        self.status: Final = status
        self.criteria: Final = criteria
        self.digest: Final = digest
        self.previous: Final = previous  # the pin a re-approval replaced
        self.changes: Final = changes
        self.reapproved: Final = reapproved
        self.approved: Final = approved  # what the person approved, as pinned
        self.where: Final = where  # where the checks run
        self.budget: Final = budget  # the limits a first approval approves with the contract
        # the usage a draft claims (key, value; only those not 0), shown with the budget
        self.used: Final = used
        # lint's warnings about the rows, and programs not found (goalfile.commands.cautions)
        self.cautions: Final = cautions
        self.text: Final = text  # the goal as written, approved

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "schema_version": 1,
            "path": self.path,
            "slug": self.slug,
            "status": self.status.value,
            "criteria": list(self.criteria),
            "contract": self.digest,
            "reapproved": self.reapproved,
        }
        if self.approved is not None:
            document["approved"] = self.approved.to_json()
            document["run_settings_not_default"] = self.not_default()
        if self.where is not None:
            document["working_directory"] = self.where.to_json()
        if self.budget is not None:
            document["budget"] = {
                "iterations": self.budget.iterations,
                "tokens": self.budget.tokens,
            }
            document["used"] = dict(self.used)
            document["warnings"] = list(self.cautions)
        if self.reapproved:
            document["previous_contract"] = self.previous
            document["changes"] = [change.to_json() for change in self.changes]
        return document

    def not_default(self) -> list[str]:
        """A line for each run setting that is not the default: the ones a person approving
        must not miss (a shell that is no shell, a `cwd:` pointing at a folder of fakes)."""
        found: list[str] = []
        for key, value in self.approved.settings if self.approved is not None else ():
            if key == "shell":
                found.append(
                    f"shell {value}: not the default {settings.DEFAULT_SHELL}; every check runs "
                    f"as `{value} -c CHECK`"
                )
            elif key == "cwd":
                where = f" ({self.where.path})" if self.where is not None else ""
                found.append(
                    f"cwd {value}{where}: not the default (the git top level); every check "
                    "runs there"
                )
            elif key == "timeout":
                found.append(f"timeout {value}: every check may run {value} s at most")
        for row in self.approved.ordered() if self.approved is not None else ():
            if row.timeout is not None:
                limit = contract.number_text(row.timeout)
                found.append(f"{row.id} timeout {limit}: its check may run {limit} s at most")
        return found

    def approved_lines(self) -> list[str]:
        """What the person approves, to show them: every row's check and expected result, the
        non-goals, where the checks run, and every run setting that is not the default."""
        if self.approved is None:
            return []
        lines = [f"{file_name(self.path)}: approving"]
        for row in self.approved.ordered():
            if row.kind == "review":
                lines.append(f"  {row.id} (review): {row.check} → {row.expected}")
            else:
                lines.append(f"  {row.id}: `{row.check}` → {row.expected}")
        lines += [f"  non-goal: {item}" for item in self.approved.non_goals]
        if self.where is not None:
            lines.append(f"  {self.where.note()}")
        if self.budget is not None:  # a drafted budget is approved with the contract: shown
            lines.append(f"  {budget_approved_note(self.budget)}")
        if self.used:  # a draft's usage is spent of the approved budget: shown
            claimed = ", ".join(f"{key} {value}" for key, value in self.used)
            lines.append(f"  already used, as the file says: {claimed}")
        lines += [f"  note: {line}" for line in self.not_default()]
        lines += [f"  warning: {line}" for line in self.cautions]
        return lines


def _require_shell(goal: Goal, path: str, ctx: Context) -> None:
    """Refuse to approve a goal whose `shell:` does not run a command as a shell does: the
    shell is asked to run :data:`goalfile.settings.PROBE_COMMAND` (the default shell is not:
    :func:`goalfile.commands.checking.shell_problem` passes it)."""
    from goalfile.commands.checking import shell_problem

    problem = shell_problem(settings.shell(goal), cwd=str(ctx.cwd), env=ctx.env)
    if problem is not None:
        line = goal.key_line("shell")
        raise Refused(
            f"{problem}; nothing was approved (a `shell:` names a shell, such as /bin/bash)",
            file=path,
            line=line,
            hint=f"{delete_lines_command(path, line, line)} deletes the shell: line (the "
            f"checks then run in {settings.DEFAULT_SHELL}), then `goalfile activate "
            f"{shell_word(path)}`"
            if line is not None
            else None,
        )


def _usage(goal: Goal) -> tuple[tuple[str, int], ...]:
    """The usage a draft claims that is not 0: the iterations the commands go by
    (:func:`goalfile.handedit.iterations_in_use`: the ledger's count when it has entries) and
    the tokens used."""
    from goalfile.handedit import iterations_in_use

    claimed = (
        ("iterations_used", iterations_in_use(goal)),
        ("tokens_used", goal.tokens_used if goal.tokens_measured else 0),
    )
    return tuple((key, value) for key, value in claimed if value)


def _require_unspent(
    goal: Goal, budget: Budget, used: Sequence[tuple[str, int]], path: str
) -> None:
    """Refuse a draft whose usage already reaches a limit it asks to approve: the goal would
    be exhausted at its first stop, and the agent let go without one iteration of work."""
    limits = {"iterations_used": budget.iterations, "tokens_used": budget.tokens}
    for key, value in used:
        limit = limits[key]
        if limit is not None and value >= limit:
            line = goal.key_line(key)
            fix = f"{set_key_command(path, line, key, '0')}, then"
            entries = _draft_entries(goal) if key == "iterations_used" else None
            if entries is not None:  # the ledger's count is the one in use
                delete = (
                    f"delete the draft's ledger entries ({delete_lines_command(path, *entries)})"
                )
                fix = f"{delete} and {fix}" if goal.iterations_used else f"{delete}, then"
                line = entries[0]
            raise Refused(
                f"the draft says {key} {value}, which reaches the budget it asks to approve "
                f"({limit}): the goal would be exhausted at its first stop; nothing was approved",
                file=path,
                line=line,
                hint=f"{fix} `goalfile activate {shell_word(path)}`",
            )


def _draft_entries(goal: Goal) -> tuple[int, int] | None:
    """The first and last line of the entries of a draft's ledger (from the oldest entry's
    heading to the end of the section), or None when it holds no entry."""
    from goalfile.parse import ledger_region, ledger_span

    region, span = ledger_region(goal.text), ledger_span(goal.text)
    if region is None or span is None:
        return None
    heads = list(ledger.heads(goal.text, *region))
    if not heads:
        return None
    return goal.text.count("\n", 0, heads[-1].start) + 1, span[1] - 1


def _require_recordable(budget: Budget, goal: Goal, path: str) -> None:
    """Refuse a limit the approval line could not record (more than 18 digits): the line would
    record nothing, and a limit typed by hand later would then be the one in force."""
    for key in BUDGET_KEYS:
        value = getattr(budget, key)
        if value is not None and value > BUDGET_LIMIT_MAX:
            line = goal.key_line(f"budget.{key}")
            raise Refused(
                f"budget.{key} is {value}, more than a ledger entry records (at most "
                f"{BUDGET_LIMIT_MAX}); nothing was written",
                file=path,
                line=line,
                hint=f"{set_key_command(path, line, key, 'null')} makes it unbounded; or write a "
                f"limit of at most {BUDGET_LIMIT_MAX}",
            )


def activate(
    *, path: str, ctx: Context, reapprove: bool = False, reason: str | None = None
) -> ActivateResult:
    from goalfile.gitattrs import require_plain

    require_plain(path, ctx.cwd, doing="nothing was approved")  # git would store other bytes
    if reapprove:
        return _reapprove(path=path, ctx=ctx, reason=reason)

    def change(text: str, goal: Goal) -> tuple[str, ActivateResult]:
        require_valid(goal)
        # an active goal whose ledger records no approval (written by hand, or as the skill
        # family writes one) is approved as a draft is: the Stop hook runs only a contract
        # whose approval git holds, and its hold names this command (docs/trust.md)
        unapproved = goal.status is Status.ACTIVE and _records_no_approval(goal)
        if goal.status is not Status.DRAFT and not unapproved:
            raise Refused(
                f"the goal is {goal.status.value}; only a draft can be activated",
                file=path,
                line=goal.key_line("status"),
                hint=status_hint(goal, path) + "; a changed contract is re-approved with "
                f"`goalfile activate --reapprove {shell_word(path)} --reason TEXT`",
            )
        budget = budget_in_force(goal)
        _require_recordable(budget, goal, path)
        _require_shell(goal, path, ctx)
        ids = tuple(row.id for row in goal.criteria)
        approved = contract.contract_of(goal)
        pin = approved.digest()
        where = workdir.decide(goal)
        # usage a draft claims (typed by whoever drafted it) is shown with the budget, and
        # refused where it reaches a limit: the goal would end at its first stop
        used = _usage(goal)
        _require_unspent(goal, budget, used, path)
        from goalfile.commands.cautions import cautions

        warned = cautions(goal, where.path, ctx.env, here=ctx.cwd)
        entry = Entry(
            iteration=goal.iterations_used,
            date=ctx.today,
            by=contract.ACTIVATE_BY,
            notes=(
                f"contract approved: {', '.join(ids)}",
                where.note(),
                budget_approved_note(budget),  # the limits the ledger backs
                "",
                *contract.approval_lines(approved),
            ),
            status=Status.ACTIVE,
            contract=contract.short(pin),
        )
        text = edit.append_to_section(text, "Iterations", ledger.render_entry(entry))
        text = edit.set_value(text, "status", Status.ACTIVE.value)
        text = edit.set_value(text, "contract", pin)
        return text, ActivateResult(
            path=path,
            slug=goal.slug,
            status=Status.ACTIVE,
            criteria=ids,
            digest=pin,
            approved=approved,
            where=where,
            budget=budget,
            used=used,
            cautions=warned,
        )

    return update_goal(path, ctx, command="goalfile activate", change=_kept(change))


def _records_no_approval(goal: Goal) -> bool:
    """Whether the ledger of ``goal`` holds no approval entry (one that does not read back
    counts as one: re-approval, which shows it, is for that)."""
    try:
        return contract.last_approval(goal.text, path=goal.path) is None
    except GoalfileError:
        return False


def _reapprove(*, path: str, ctx: Context, reason: str | None) -> ActivateResult:
    def change(text: str, goal: Goal) -> tuple[str, ActivateResult]:
        # a `met` the changed contract no longer backs is what re-approval is for: it sets
        # the goal back to `active`, under the contract it approves
        require_valid(goal, besides=frozenset({"met-unbacked"}))
        if goal.status not in REAPPROVABLE:
            raise Refused(
                f"the goal is {goal.status.value}; a draft's contract is approved by "
                "`goalfile activate` without --reapprove",
                file=path,
                line=goal.key_line("status"),
                hint=f"run `goalfile activate {shell_word(path)}`",
            )
        _require_shell(goal, path, ctx)
        approved = contract.contract_of(goal)
        pin = approved.digest()
        previous = contract.pinned(goal)
        where = workdir.decide(goal)
        last = contract.last_approval(goal.text, path=goal.path)
        was_where = workdir.recorded(last[0]) if last is not None else None
        moved = workdir.uncovered(where, last[0] if last is not None else None) is not None
        was_order = [row.id for row in last[1].ordered()] if last and last[1] else None
        order = [row.id for row in goal.criteria]
        reordered = was_order is not None and was_order != order  # the rows run in this order
        if (
            previous is not None
            and previous.strip() == pin
            and last is not None  # a pin no approval entry backs is approved now
            and contract.approval_fault(*last) is None  # an edited record is approved anew
            and last[0].contract == contract.short(pin)
            and not moved
            and not reordered
        ):
            raise Refused(
                "the contract matches its pin; there is nothing to re-approve (re-approval "
                "records a change of the criteria or non-goals)",
                file=path,
                line=goal.key_line("contract"),
            )
        status = Status.ACTIVE if goal.status is Status.MET else goal.status
        notes, found = _change_notes(goal, approved, previous, reason)
        if moved:
            was = f"`{was_where}`" if was_where is not None else "not recorded"
            notes.append(f"- {workdir.LABEL} {was} → {where.describe()}")
        if reordered and was_order is not None and sorted(was_order) == sorted(order):
            notes.append(f"- run order: {', '.join(was_order)} → {', '.join(order)}")
        order_change = contractdiff.order_changed(was_order, order) if was_order else None
        if order_change is not None:  # an approved row moved before another: a change shown
            found = (*found, order_change)
            notes[0] += ", run order changed"
        notes.insert(1, where.note())
        notes[1:1] = reopen_notes(goal)  # after the first line, which says what this entry is
        entry = Entry(
            iteration=goal.iterations_used,
            date=ctx.today,
            by=contract.ACTIVATE_BY,
            notes=(*notes, "", *contract.approval_lines(approved)),
            status=status,
            contract=contract.short(pin),
        )
        text = edit.append_to_section(text, "Iterations", ledger.render_entry(entry))
        if status is not goal.status:
            text = edit.set_value(text, "status", status.value)
        text = edit.set_value(text, "contract", pin)
        return text, ActivateResult(
            path=path,
            slug=goal.slug,
            status=status,
            criteria=tuple(row.id for row in goal.criteria),
            digest=pin,
            previous=previous,
            changes=found,
            reapproved=True,
            approved=approved,
            where=where,
        )

    return update_goal(path, ctx, command="goalfile activate --reapprove", change=_kept(change))


def _kept(
    change: Callable[[str, Goal], tuple[str, ActivateResult]],
) -> Callable[[str, Goal], tuple[str, ActivateResult]]:
    """``change`` whose result keeps the text written: what `--commit` commits."""

    def kept(text: str, goal: Goal) -> tuple[str, ActivateResult]:
        written, result = change(text, goal)
        return written, replace(result, text=written)

    return kept


def _change_notes(
    goal: Goal, approved: contract.Contract, previous: str | None, reason: str | None
) -> tuple[list[str], tuple[contractdiff.Change, ...]]:
    """The lines that say what changed since the last approval, and the changes."""
    last = contract.last_approval(goal.text, path=goal.path)
    if last is not None and last[0].contract is not None:
        previous = last[0].contract  # the pin in the frontmatter is only a cache of it
    was = contract.short(previous) if previous is not None else "no pin"
    now = contract.short(approved.digest())
    old = last[1] if last is not None else None
    found = contractdiff.changes(old, approved) if old is not None else ()
    added = sum(1 for c in found if c.field == "row" and c.new is not None)
    removed = sum(1 for c in found if c.field == "row" and c.new is None)
    changed = len({c.row for c in found if c.field not in ("row", "non-goal")})
    goals = sum(1 for c in found if c.field == "non-goal")
    counts = f"{counted(added, 'row')} added, {removed} removed, {changed} changed"
    if goals:
        counts += f", {counted(goals, 'non-goal change')}"
    notes = [f"contract re-approved ({was} → {now}): {counts if old is not None else 'see below'}"]
    if reason and reason.strip():
        notes.append(f"reason: {ledger.md_text(' '.join(reason.split()), before=' ', spans=True)}")
    if old is None or last is None:
        notes.append(
            "the rows approved before were not recorded in the ledger; the rows approved now follow"
        )
        return notes, found
    recorded_pin = contract.short(old.digest())
    if previous is not None and recorded_pin != contract.short(previous):
        notes.append(
            f"note: the rows recorded by the entry of iteration {last[0].iteration} "
            f"({last[0].date}) digest to {recorded_pin}, not to the pin {was}; "
            "the changes below are against those rows"
        )
    notes += [f"- {c.describe()}" for c in found]
    return notes, found
