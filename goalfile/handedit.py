"""A frontmatter status the ledger does not back (DESIGN §10): one rule for every command.

A hand edit that asks for more work is accepted: `active` where the ledger's newest status
is `met`, `blocked`, `exhausted` or `paused` (the refine-goal skill reopens a goal this way).
The next entry a command writes records it: "reopened by hand (was met)". A `met` that the
newest verify entry does not back is an error everywhere (lint, status, verify, plan): only
`goalfile verify` writes `met`, and only when every row is met. Any other status that the
newest entry with a status line does not back (`audit`'s `status-unbacked` and
`status-hand-edited`, see :func:`status_backed`) holds the agent in the Stop hook as well.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Final

from goalfile import ledger
from goalfile.errors import GoalfileError
from goalfile.model import (
    BUDGET_LIMIT_MAX,
    Budget,
    Entry,
    Finding,
    Goal,
    Kind,
    Severity,
    Status,
    Verdict,
)
from goalfile.parse import ledger_region
from goalfile.pin import pinned, short
from goalfile.shellword import sed_command, sed_lines, shell_word
from goalfile.value import Value

if TYPE_CHECKING:  # built only where a gap is found (goalfile.metgap)
    from collections.abc import Sequence

    from goalfile.metgap import MetGap

REOPENABLE = frozenset({Status.MET, Status.BLOCKED, Status.EXHAUSTED, Status.PAUSED})
REOPENED_BY_HAND = "reopened by hand"


def ledger_status(goal: Goal) -> Entry | None:
    """The newest entry with a ``status:`` line, or None."""
    region = ledger_region(goal.text)
    return ledger.newest_status(goal.text, *region) if region is not None else None


def ledger_status_line(goal: Goal) -> int | None:
    """The line of the heading of the newest entry with a ``status:`` line (the entry
    :func:`ledger_status` reads, which does not carry its place in the file)."""
    region = ledger_region(goal.text)
    if region is None:
        return None
    text = goal.text
    for head in ledger.heads(text, *region):
        if text.find("status", head.start, head.end) >= 0 and ledger.read(text, head).status:
            return text.count("\n", 0, head.start) + 1
    return None


# the commands whose every ledger entry carries a status line
STATUS_WRITERS = frozenset({"activate", "reopen", "block", "resume", "pause"})


def silent_status_entry(goal: Goal) -> tuple[Entry, int] | None:
    """The newest entry by a command that always writes a status line (:data:`STATUS_WRITERS`)
    when the entry readers find none in it and no newer entry has one, with its line: its
    status line was removed, or moved into a block of code where it reads as output. The entry
    readers then take an older entry's status (e.g. the `met` a `reopen` entry overrode)."""
    region = ledger_region(goal.text)
    if region is None:
        return None
    text = goal.text
    for head in ledger.heads(text, *region):
        if head.by not in STATUS_WRITERS and text.find("status", head.start, head.end) < 0:
            continue
        entry = ledger.read(text, head)
        if entry.status is not None:
            return None
        if head.by in STATUS_WRITERS:
            return entry, text.count("\n", 0, head.start) + 1
    return None


# the statuses the Stop hook's own entries carry: none (an iteration started, a hold ledgered),
# or `exhausted` at the iteration limit (goalfile.commands.iteration, goalfile.blockhold)
HOOK_STATUSES = {"stop-hook": frozenset({Status.EXHAUSTED}), "stop-hook-hold": frozenset()}


def hook_status_forged(by: str, status: Status | None) -> str | None:
    """Why an entry ``by`` a name of the Stop hook's with ``status`` is not one the hook
    wrote (it never pauses a goal, for one): the hook's name on a status it never writes is
    a hand edit that would pass for the hook's own entry. So is a `draft` in any entry: no
    command writes one (a goal goes from draft to active, never back), and a draft lets the
    agent stop. None for any other entry."""
    if status is Status.DRAFT:
        return (
            f"an entry `by {by}` sets `status: draft`, which no goalfile command writes (an "
            "approved goal never goes back to draft): the status was set by hand"
        )
    allowed = HOOK_STATUSES.get(by)
    if allowed is None or status is None or status in allowed:
        return None
    return (
        f"an entry `by {by}` sets `status: {status.value}`, which the Stop hook never writes: "
        "the status was set by hand under the hook's name"
    )


def hook_status_findings(goal: Goal) -> list[Finding]:
    """The entry that decides the goal's status (the newest with a status line), as an error
    at its heading line, when :func:`hook_status_forged` rejects it. Only that entry: an older
    one decides nothing now, and audit, which reads every entry, names it too. A goal whose
    status the hook may write (`exhausted`), or that asks for work, is not read for it; a
    draft is, since an entry that says `draft` was typed by hand."""
    if goal.status in (Status.ACTIVE, Status.EXHAUSTED):
        return []
    entry = ledger_status(goal)
    why = hook_status_forged(entry.by, entry.status) if entry is not None else None
    if why is None:
        return []
    return [
        Finding(
            severity=Severity.ERROR,
            line=ledger_status_line(goal),
            column=1,
            code="status-transition-unledgered",
            message=why,
            hint=(
                f"{restore_status_command(goal.path, goal.key_line('status'), Status.ACTIVE)} "
                "sets the approved goal back to `active` (the next entry records it)"
                if entry is not None and entry.status is Status.DRAFT
                else "a status changes only through the command that decides it "
                f"(`goalfile pause {shell_word(goal.path)}` pauses a goal); revert the hand "
                "edit (`git diff` shows it)"
            ),
        )
    ]


def reopened_from(goal: Goal) -> Status | None:
    """The status the ledger records when the frontmatter was set to `active` by hand from
    one that asks for no more work, or from a `draft` an entry says (no command writes one:
    it was typed by hand); None when there was no such edit."""
    if goal.status is not Status.ACTIVE:
        return None
    entry = ledger_status(goal)
    if entry is not None and (entry.status in REOPENABLE or entry.status is Status.DRAFT):
        return entry.status
    return None


def reopen_note(was: Status) -> str:
    return f"{REOPENED_BY_HAND} (was {was.value})"


def reopen_notes(goal: Goal) -> tuple[str, ...]:
    """The note the next entry carries after a hand reopen (none without one)."""
    was = reopened_from(goal)
    return (reopen_note(was),) if was is not None else ()


def reopened(entry: Entry) -> bool:
    """Whether an entry records a reopening (by hand, or by `goalfile reopen`)."""
    return any(note.startswith((REOPENED_BY_HAND, "reopened (was ")) for note in entry.notes)


def _gap(*, code: str, row: str | None, line: int | None, why: str) -> MetGap:
    """A :class:`~goalfile.metgap.MetGap`, its module imported only when a gap is found."""
    from goalfile.metgap import MetGap

    return MetGap(code=code, row=row, line=line, why=why)


def met_gaps(goal: Goal, verified: Entry) -> list[MetGap]:
    """How ``verified``, the newest verify entry, fails to back a `met` under the goal's
    current contract: a row that is not met, a criterion it has no row for, a deterministic
    row that ran another command than the criterion's check, or a run under another digest
    than the pin or than the contract the goal holds now (:func:`_contract_since`: a clause,
    time limit, run setting or review rubric changed after the run). Empty when it backs it.
    One rule for `audit` (its `met-row-not-met`, `met-row-missing`, `met-command-mismatch`
    and `met-wrong-contract` findings) and for :func:`unbacked_met` (lint, status, verify,
    plan and the Stop hook), so that an entry whose `status:` line alone was typed `met`
    backs nothing anywhere."""
    gaps: list[MetGap] = []
    for row in verified.rows:
        if row.verdict is not Verdict.MET:
            evidence = ledger.clean_line(row.evidence, limit=120)
            gaps.append(
                _gap(
                    code="met-row-not-met",
                    row=row.id,
                    line=None,
                    why=f"the newest verify entry has {row.id} {row.verdict.value} ({evidence})",
                )
            )
    judged = {row.id: row for row in verified.rows}
    for criterion in goal.criteria:
        seen = judged.get(criterion.id)
        if seen is None:
            gaps.append(
                _gap(
                    code="met-row-missing",
                    row=criterion.id,
                    line=criterion.line,
                    why=f"{criterion.id} has no verdict in the newest verify entry",
                )
            )
        elif criterion.kind is Kind.DETERMINISTIC and seen.command != ledger.clean_line(
            criterion.check, limit=10_000
        ):
            gaps.append(
                _gap(
                    code="met-command-mismatch",
                    row=criterion.id,
                    line=None,
                    why=f"the newest verify entry ran `{seen.command}` for {criterion.id}, "
                    f"but the contract's check is `{criterion.check}`",
                )
            )
    pin = pinned(goal)
    if pin is not None and verified.contract != short(pin):
        ran = f"`{verified.contract}`" if verified.contract else "no recorded contract"
        gaps.append(
            _gap(
                code="met-wrong-contract",
                row=None,
                line=None,
                why=f"the newest verify entry ran under {ran}, but the pinned contract is "
                f"`{short(pin)}`",
            )
        )
    elif verified.contract is not None:
        changed = _contract_since(goal, verified.contract)
        if changed is not None:
            gaps.append(_gap(code="met-wrong-contract", row=None, line=None, why=changed))
    return gaps


def _contract_since(goal: Goal, ran: str) -> str | None:
    """Why the contract the goal holds now is not the one ``ran`` (the short digest a verify
    entry records) names, as a clause; None when it is. The digest covers every field a row
    is judged by (check, expected, kind, timeout), the non-goals and the run settings, so a
    clause added to `expected`, a check changed in a way the entry's command column cannot
    show (whitespace it flattens, text past its cut), a review row's rubric or a `shell:` line
    written after the run all count; an entry the skill family wrote by hand records no
    digest and is held to its commands alone (:func:`met_gaps`)."""
    from goalfile.contractdigest import digest  # only for a met goal

    current = short(digest(goal))
    if current == ran:  # at every stop of a finished goal: the contract is not built
        return None
    from goalfile import contract

    now = contract.contract_of(goal)
    why = (
        f"the newest verify entry ran under the contract `{ran}`, and the contract is now "
        f"`{current}`: it changed since that run"
    )
    try:
        approval = contract.last_approval(goal.text, path=goal.path)
    except GoalfileError:  # an edited record: `audit` and `verify` name it
        approval = None
    if approval is not None and approval[1] is not None and short(approval[1].digest()) == ran:
        from goalfile.contractdiff import changes

        found = changes(approval[1], now)
        if found:
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            why += f" ({found[0].describe()}{more})"
    return why


def unbacked_met(goal: Goal) -> Finding | None:
    """An error when the frontmatter says `met` and the newest verify entry does not back it:
    its `status:` line says otherwise, a later entry set another status, or its rows do not
    back the current contract (:func:`met_gaps`, the rule `audit` applies)."""
    if goal.status is not Status.MET:
        return None
    region = ledger_region(goal.text)
    verified = (
        ledger.newest(goal.text, *region, by=(ledger.VERIFY_BY,)) if region is not None else None
    )
    latest = ledger_status(goal)
    silent = silent_status_entry(goal)
    gaps: list[MetGap] = []
    if (
        verified is not None
        and verified.status is Status.MET
        and latest is not None
        and latest.status is Status.MET
        and silent is None
    ):
        gaps = met_gaps(goal, verified)
        if not gaps:
            return None
    if silent is not None:
        entry, at = silent
        why = (
            f"the entry `Iteration {entry.iteration} ({entry.date}) by {entry.by}` (line {at}) "
            "has no status line, which that command always writes (it was removed, or moved "
            "into a block of code, where it reads as output)"
        )
    elif verified is None:
        why = "the ledger has no verify entry"
    elif verified.status is not Status.MET:
        shown = verified.status.value if verified.status else "no status"
        why = f"the newest verify entry (iteration {verified.iteration}) says `{shown}`"
    elif gaps:
        more = f" (and {len(gaps) - 1} more: `goalfile audit` lists them)" if len(gaps) > 1 else ""
        why = f"{gaps[0].why}{more}, so its `status: met` line backs nothing"
    else:
        assert latest is not None and latest.status is not None
        why = (
            f"a later entry (iteration {latest.iteration}, by {latest.by}) set "
            f"`{latest.status.value}`"
        )
    return Finding(
        severity=Severity.ERROR,
        line=goal.key_line("status"),
        code="met-unbacked",
        message=f"the status is `met`, but {why}; only `goalfile verify` writes `met`, when "
        "every row is met",
        hint=f"{restore_status_command(goal.path, goal.key_line('status'), Status.ACTIVE)}, "
        f"then run `goalfile verify {shell_word(goal.path)}`",
    )


def status_backed(status: Status, said: Status | None) -> bool:
    """Whether the status of the newest entry with a ``status:`` line (``said``; None when no
    entry has one) backs the frontmatter ``status``: the same, or `active` set by hand after a
    status that asks for no more work. Without such an entry only `draft` and `active` are
    backed (an active goal with an empty ledger is how the goal skill writes one). An entry
    that says `draft` backs only `active`: no command writes such an entry, so it was typed
    by hand, and a draft after it would let the agent stop."""
    if said is None:
        return status in (Status.DRAFT, Status.ACTIVE)
    if said is Status.DRAFT:
        return status is Status.ACTIVE
    return said is status or (status is Status.ACTIVE and said in REOPENABLE)


def unbacked_status(goal: Goal, *, shown: str | None = None) -> Finding | None:
    """An error when the ledger does not back the frontmatter status: a `met` the newest verify
    entry does not back (:func:`unbacked_met`), or any status :func:`status_backed` rejects.

    The hint restores the status the ledger backs (`active` for an unbacked `met`, else the
    newest entry's status) on the status line alone, and names the verify run that follows;
    ``shown`` is the path those commands name (default: the goal's own).
    """
    found = _unbacked(goal)
    if found is None:
        return None
    target, code, message = found
    line = goal.key_line("status")
    path = shown or goal.path
    return Finding(
        severity=Severity.ERROR,
        line=line,
        code=code,
        message=message,
        hint=f"{restore_status_command(path, line, target)}, then run "
        f"`goalfile verify {shell_word(path)}`"
        if target is Status.ACTIVE
        else restore_status_command(path, line, target),
    )


def backed_status(goal: Goal) -> Status | None:
    """The status the ledger backs when the frontmatter's is one it does not back (`active`
    for an unbacked `met`, else the newest entry's status); None when it backs it."""
    found = _unbacked(goal)
    return None if found is None else found[0]


def _unbacked(goal: Goal) -> tuple[Status, str, str] | None:
    """The status to restore, the finding's code and message, when the ledger does not back
    the frontmatter status (:func:`unbacked_status`); None when it does."""
    met = unbacked_met(goal)
    entry = ledger_status(goal)
    said = entry.status if entry is not None else None
    if met is None and status_backed(goal.status, said):
        return None
    if met is not None:
        target, code, message = Status.ACTIVE, met.code, met.message
    elif entry is None or said is None:
        target, code = Status.ACTIVE, "status-unbacked"
        message = f"the status is `{goal.status.value}`, but no ledger entry has a status line"
    elif said is Status.DRAFT:
        target, code = Status.ACTIVE, "status-hand-edited"
        message = (
            f"the status is `{goal.status.value}`, but the newest ledger entry with a status "
            f"(line {ledger_status_line(goal)}) says `draft`, which no goalfile command writes "
            "(an approved goal never goes back to draft): it was typed by hand"
        )
    else:
        target, code = said, "status-hand-edited"
        message = (
            f"the status is `{goal.status.value}`, but the newest ledger entry with a status "
            f"(line {ledger_status_line(goal)}) says `{said.value}`; a status is written by the "
            "command that decides it"
        )
    return target, code, message


def restore_status_command(path: str, line: int | None, status: Status) -> str:
    """A shell command that sets the status line (only that line) back to ``status``; it works
    with GNU and BSD sed alike (:func:`goalfile.shellword.sed_command`)."""
    return set_key_command(path, line, "status", status.value)


def set_key_command(path: str, line: int | None, key: str, value: str) -> str:
    """A shell command, in backticks, that sets the frontmatter line of ``key`` (only that
    line, its indentation kept) to ``value``.

    Only the value changes: the blanks and a comment after it stay, and so does the carriage
    return of a line that ends in CRLF (a file saved on Windows or checked out with git's
    autocrlf), which a ``.*`` or a class without ``[:space:]`` would take with the value. The
    classes are POSIX, so GNU and BSD sed read them alike."""
    where = str(line) if line else "1,/^---/"
    if line is not None and key in ("iterations", "tokens"):  # under `budget:`, indented,
        # or in a mapping written on one line; a value mdformat-frontmatter emptied (`tokens:
        # null  # c` is written `tokens:       # c`) gets its blank before the comment back,
        # or YAML reads `5000# c` as one string
        edits = [
            f"s/\\({key}:\\) *[^[:space:]#,}}]*/\\1 {value}/",
            f"s/\\({key}: {value}\\)#/\\1 #/",
        ]
    else:  # the value: from the colon to its last character before a comment or the end
        edits = [f"s/^{key}:[^#]*[^#[:space:]]/{key}: {value}/"]
    return sed_command(path, [f"{where}{edit}" for edit in edits])


def insert_lines_command(path: str, after: int, lines: Sequence[str]) -> str:
    """A shell command, in backticks, that writes ``lines`` after line ``after`` of ``path``
    (line 1: right under the frontmatter's opening `---`). Each line is given with sed's `a\\`
    as a script of its own, a backslash first to keep its leading blanks, which GNU and BSD
    sed alike read."""
    text = [f"\\{line}" + ("\\" if n < len(lines) - 1 else "") for n, line in enumerate(lines)]
    return sed_command(path, [f"{after}a\\", *text])


def delete_lines_command(path: str, first: int, last: int) -> str:
    """A shell command, in backticks, that deletes lines ``first`` to ``last`` of ``path`` (and
    nothing else); it works with GNU and BSD sed alike."""
    return sed_command(path, [sed_lines(first, last) + "d"])


# --- counters the ledger backs (iterations_used, impossible marks) --------------------------

ITERATION_BY = frozenset({"plan", "stop-hook"})  # the commands that start an iteration
IMPOSSIBLE_BY = "impossible"


def backed_iterations(goal: Goal) -> int | None:
    """The ``iterations_used`` the ledger backs; None when the ledger has no entry (a goal
    file written by a skill starts so, and then the frontmatter is all there is).

    The oldest entry gives the count it started from; after it, each entry raises it by at
    most one over the count before it (``plan`` and ``stop-hook`` start iterations one at a
    time; files of the skill family number their verify entries one after another). Every
    entry carries the count it found in the frontmatter, so a hand-raised ``iterations_used``
    (``0`` → ``5``) shows up as a jump in the next entry's heading, and a jump backs one
    iteration, never the budget. ``audit --against`` holds the entries added since the base
    to the stricter rule (only ``plan`` and ``stop-hook`` start iterations).

    The answer for the last text asked is kept, and that of a text an edit made from it
    (:func:`goalfile.ledger.spliced`: the Stop hook asks of the goal it read and again of the
    text its verify is writing) is made from it by the entries the edit added after the last
    one: a long ledger is then not walked twice."""
    text = goal.text
    for seen, kept in _BACKED:
        if seen is text:
            return kept
    count = _backed_after_edit(text)
    if count is None:
        count = _backed(text)
    _BACKED[:] = [(text, count)]
    return count


_BACKED: list[tuple[str, int | None]] = []  # the last text asked, and its answer


def _backed(text: str) -> int | None:
    region = ledger_region(text)
    if region is None:
        return None
    found = ledger.iterations(text, *region)  # newest first
    if not found:
        return None
    count = found[-1]
    for iteration in reversed(found[:-1]):
        if iteration > count:  # max(count, min(iteration, count + 1)), without two calls
            count += 1
    return count


def _backed_after_edit(text: str) -> int | None:
    """:func:`backed_iterations` of ``text`` from the answer kept for the text the edit that
    made it changed, when the entries of that text's ledger are the first entries of
    ``text``'s, at the same offsets (the edit wrote after the last one's heading line and the
    ledger still starts where it did): the entries after them continue the count. None when it
    cannot be made so (the whole ledger is then read)."""
    splice = ledger.splice_of(text)
    if splice is None or not _BACKED or _BACKED[0][0] is not splice[0]:
        return None
    old, kept, _ = splice
    count = _BACKED[0][1]
    old_region, region = ledger_region(old), ledger_region(text)
    if not isinstance(count, int) or old_region is None or region is None:
        return None
    if old_region[0] != region[0]:
        return None
    old_found = ledger.headings(old).entries
    low = bisect.bisect_left(old_found, (old_region[0],))
    high = bisect.bisect_left(old_found, (old_region[1],))
    if low == high:
        return None
    last_line_end = old.find("\n", old_found[high - 1][0] + 1)
    if last_line_end < 0 or last_line_end >= kept:
        return None
    found = ledger.headings(text).entries
    middle = bisect.bisect_left(found, (last_line_end,))
    if found[bisect.bisect_left(found, (region[0],)) : middle] != old_found[low:high]:
        return None  # the edit changed which lines before it are entry headings (a fence)
    for _, fields in found[middle : bisect.bisect_left(found, (region[1],))]:
        count = max(count, min(int(fields[0]), count + 1))
    return count


def iterations_in_use(goal: Goal) -> int:
    """The count a command that starts an iteration or stops at the limit (``plan``, the Stop
    hook) goes by, and `status` shows: the count the ledger backs, neither a hand-raised nor a
    hand-lowered ``iterations_used`` (no command lowers it: typed lower, it would give the
    iterations the ledger shows used back to the budget); ``iterations_used`` when the
    ledger has no entry."""
    backed = backed_iterations(goal)
    return goal.iterations_used if backed is None else backed


def marked_impossible(goal: Goal) -> dict[str, str]:
    """Every row the frontmatter marks impossible (``impossible: {ID: reason}``), backed or
    not."""
    marked = goal.meta.get("impossible")
    if not isinstance(marked, dict):
        return {}
    return {str(key): str(value) for key, value in marked.items()}


def impossible_backed(goal: Goal) -> frozenset[str]:
    """The row ids a ``by impossible`` entry of the ledger marks (``ID marked impossible:``):
    the frontmatter's ``impossible`` is a cache of those entries, and a mark typed by hand
    without one counts for nothing."""
    region = ledger_region(goal.text)
    if region is None:
        return frozenset()
    ids = set()
    for entry in ledger.newest_first(goal.text, *region, by=(IMPOSSIBLE_BY,)):
        for note in entry.notes:
            row, sep, _ = ledger.shown_text(note).partition(" marked impossible:")
            if sep and row and " " not in row:
                ids.add(row)
    return frozenset(ids)


# --- budget limits the ledger backs -------------------------------------------------------

BUDGET_BY = "budget"
ACTIVATE_BY = "activate"  # as contract.ACTIVATE_BY (the approval entries)
BUDGET_KEYS = ("iterations", "tokens")
BUDGET_APPROVED = "budget approved:"
_BUDGET_APPROVED_RE = re.compile(
    r"^budget approved: iterations ([1-9][0-9]{0,17}|unbounded), "
    r"tokens ([1-9][0-9]{0,17}|unbounded)$"
)
# a limit is positive, 1 to 18 ASCII digits (what int() reads, whatever `\d` or str.isdigit
# would take): a line with any other number is a note, not a record
# (patterns of the records a goal without a budget entry never reads: compiled on first use, by
# `re`'s own cache)
BUDGET_RAISED = r"^budget\.(iterations|tokens): (\S+) → ([1-9][0-9]{0,17})$"
_LIMIT = r"[1-9][0-9]{0,17}"


def budget_approved_note(budget: Budget) -> str:
    """The line the first ``by activate`` entry carries: the limits approved with the goal."""

    def shown(value: int | None) -> str:
        return "unbounded" if value is None else str(value)

    limits = f"iterations {shown(budget.iterations)}, tokens {shown(budget.tokens)}"
    return f"{BUDGET_APPROVED} {limits}"


class LedgerLimit(Value):
    """A budget limit as the ledger records it: ``value`` (None: unbounded), set last by
    ``entry`` (the approval that recorded it, or the ``by budget`` entry that raised it)."""

    __slots__ = ("entry", "key", "value")

    def __init__(self, *, key: str, value: int | None, entry: Entry) -> None:
        self.key: Final = key
        self.value: Final = value
        self.entry: Final = entry

    @property
    def shown(self) -> str:
        return "unbounded" if self.value is None else str(self.value)

    @property
    def label(self) -> str:
        return f"`Iteration {self.entry.iteration} ({self.entry.date}) by {self.entry.by}`"


def ledger_limits(goal: Goal) -> dict[str, LedgerLimit]:
    """The budget limits the ledger records, by key (``iterations``, ``tokens``); a key the
    ledger says nothing about is absent.

    Read oldest first: the first record of a key is the limit approved with the goal (the
    ``budget approved:`` line of a ``by activate`` entry) or, in a ledger older than that line,
    the limit the first ``by budget`` entry raised (``budget.iterations: 5 → 8`` records 5
    before it). After it only ``by budget`` raises count, and only upward: ``goalfile
    budget`` never lowers a limit, and an unbounded one stays so. A later ``budget
    approved:`` line (an activation after a status set back to draft by hand) changes
    nothing.

    Only what ``goalfile budget`` could have written counts: a ``by budget`` entry above the
    first ``by activate`` entry (a goal is approved before its budget is raised), and a line
    that does not raise (``0 → 0``, ``5 → 3``) or names a limit of 0, record nothing, so
    such an entry can never set the first record lower than the approval."""
    region = ledger_region(goal.text)
    if region is None:
        return {}
    found = list(ledger.newest_first(goal.text, *region, by=(ACTIVATE_BY, BUDGET_BY)))
    found.reverse()  # oldest first
    approved_at = next((at for at, entry in enumerate(found) if entry.by == ACTIVATE_BY), 0)
    limits: dict[str, LedgerLimit] = {}
    for entry in found[approved_at:]:
        for note in entry.notes:
            text = ledger.shown_text(note).strip()
            if entry.by == ACTIVATE_BY:
                approved = _BUDGET_APPROVED_RE.match(text)
                if approved is None:
                    continue
                for key, value in zip(BUDGET_KEYS, approved.groups(), strict=True):
                    if key not in limits:
                        number = None if value == "unbounded" else int(value)
                        limits[key] = LedgerLimit(key=key, value=number, entry=entry)
                continue
            raised = re.match(BUDGET_RAISED, text)
            if raised is None:
                continue
            key, old, new = raised.group(1), raised.group(2), int(raised.group(3))
            before = limits.get(key)
            if before is None:
                if re.fullmatch(_LIMIT, old) is None or int(old) >= new:
                    continue
                before = LedgerLimit(key=key, value=int(old), entry=entry)
            if before.value is not None and new > before.value:
                before = LedgerLimit(key=key, value=new, entry=entry)
            limits[key] = before
    return limits


def limit_in_force(
    goal: Goal, key: str, limits: dict[str, LedgerLimit] | None = None
) -> int | None:
    """The ``budget.<key>`` limit a command goes by (None: unbounded): the one the ledger
    records (:func:`ledger_limits`), whatever the frontmatter says; the frontmatter's only when
    the ledger records none (a goal activated before approvals recorded the budget, or a
    ledger the skill family wrote)."""
    recorded = (ledger_limits(goal) if limits is None else limits).get(key)
    return recorded.value if recorded is not None else getattr(goal.budget, key)


def budget_in_force(goal: Goal) -> Budget:
    """Both limits :func:`limit_in_force` gives."""
    limits = ledger_limits(goal)
    return Budget(**{key: limit_in_force(goal, key, limits) for key in BUDGET_KEYS})


def unbacked_budget(goal: Goal, *, shown: str | None = None) -> list[Finding]:
    """A warning for each frontmatter limit that differs from the limit the ledger records: a
    budget typed by hand. Only ``goalfile budget`` changes a limit (it only raises, and
    ledgers the raise), so such a value counts for nothing: every command goes by the
    ledger's (:func:`limit_in_force`), and none refuses for it, so the Stop hook goes on
    holding the agent to the approved budget (an error would make verify refuse, and a
    refusal is handed to the person after one block). ``audit`` fails on it. The hint sets
    the line back; for a raise it also names the ``goalfile budget`` command that ledgers
    it. ``shown`` is the path those commands name (default: the goal's own)."""
    path = shown or goal.path
    found: list[Finding] = []
    for key, recorded in ledger_limits(goal).items():
        typed = getattr(goal.budget, key)
        if typed == recorded.value:
            continue
        line = goal.key_line(f"budget.{key}")
        written = "unbounded" if typed is None else str(typed)
        value = "null" if recorded.value is None else str(recorded.value)
        if line is None:  # a mapping on one line (`budget: {iterations: 5}`), or no such key
            line = goal.key_line("budget")
            lines = goal.text.split("\n")
            said = lines[line - 1].split("#", 1)[0].rstrip() if line is not None else ""
            if line is not None and f"{key}:" in said:
                fix = set_key_command(path, line, key, value)
            elif line is None or said == "budget:":  # no budget, or a block without the key
                under = [f"  {key}: {value}"]
                fix = insert_lines_command(path, line or 1, under if line else ["budget:", *under])
            else:  # `budget: {tokens: 9}`: where a key goes in it, only a person writes
                fix = None
        else:
            fix = set_key_command(path, line, key, value)
        raised = recorded.value is not None and (typed is None or typed > recorded.value)
        if raised and typed is not None and typed <= BUDGET_LIMIT_MAX:  # a limit `budget` takes
            fix = f"{fix}, or " if fix else ""
            fix += (
                f"have a person raise it with `goalfile budget {shell_word(path)} "
                f"--{key} {typed}`, which ledgers it"
            )
        found.append(
            Finding(
                severity=Severity.WARNING,
                line=line,
                code="budget-unbacked",
                message=f"budget.{key} is {written}, but the ledger records {recorded.shown} "
                f"(the entry {recorded.label}); a budget is changed only by `goalfile budget`, "
                f"which ledgers it and only raises, so every command goes by {recorded.shown}"
                + ("" if fix else f"; write `{key}: {value}` in the `budget:` mapping again"),
                hint=fix,
            )
        )
    return found


_BUDGET_KEY = r"budget\.(iterations|tokens)\b"


def unreadable_budget(goal: Goal, *, shown: str | None = None) -> list[Finding]:
    """A finding for each line of a ``by activate`` or ``by budget`` entry that starts like a
    budget record (the word ``budget``) but that :func:`ledger_limits` cannot read: a limit
    that is not 1 to 18 ASCII digits (``5,000``, ``²``, ``five``), a misspelt word
    (``iteration 5``), another order. goalfile never writes such a line, so it was edited, and
    it records nothing.

    What that does to the limits decides the severity. An **error** when the line is where a
    record counts (an approval, or a raise below the first approval) and, without it, the
    ledger records no limit for a key the line names: the frontmatter's value is then in
    force, which a hand edit changes with no trace (``budget-unbacked`` cannot say it differs
    from nothing). A **warning** when the ledger still records that limit (a raise that is lost
    keeps the lower limit: nothing gets more room) or the line could never have counted. The
    finding's line is the line itself; ``shown`` is the path the fixes name."""
    region = ledger_region(goal.text)
    if region is None:
        return []
    text = goal.text
    found = list(ledger.newest_first(text, *region, by=(ACTIVATE_BY, BUDGET_BY)))
    found.reverse()  # oldest first
    bad = [
        (at, entry, note, line)
        for at, entry in enumerate(found)
        for note in entry.notes
        if (line := ledger.shown_text(note).strip()).lower().startswith("budget")
        and re.match(
            _BUDGET_APPROVED_RE if entry.by == ACTIVATE_BY else re.compile(BUDGET_RAISED), line
        )
        is None
    ]
    if not bad:
        return []
    heads = [head for head in ledger.heads(text, *region) if head.by in (ACTIVATE_BY, BUDGET_BY)]
    heads.reverse()  # oldest first, as `found`
    approved_at = next((at for at, entry in enumerate(found) if entry.by == ACTIVATE_BY), None)
    limits = ledger_limits(goal)
    path = shown or goal.path
    findings: list[Finding] = []
    for at, entry, note, line in bad:
        head = heads[at] if at < len(heads) else None
        where = text.find(note, head.start, head.end) if head is not None else -1
        number = text.count("\n", 0, where) + 1 if where >= 0 else None
        key = re.match(_BUDGET_KEY, line)
        keys = (key.group(1),) if key is not None else BUDGET_KEYS
        counts = approved_at is not None and at >= approved_at
        unrecorded = [k for k in keys if k not in limits]
        form = (
            "`budget approved: iterations N, tokens N`"
            if entry.by == ACTIVATE_BY
            else "`budget.iterations: OLD → NEW`"
        )
        what = (
            f"`{line[:120]}` in the entry `Iteration {entry.iteration} ({entry.date}) by "
            f"{entry.by}` is not a budget record goalfile can read (it writes {form}, each "
            "limit 1 to 18 ASCII digits or `unbounded`), so it records nothing"
        )
        restore = (
            f"restore the line as goalfile wrote it (`git log -p -- {shell_word(path)}` shows "
            "the edit)"
        )
        if counts and unrecorded:
            limit = " and ".join(f"budget.{k}" for k in unrecorded)
            findings.append(
                Finding(
                    severity=Severity.ERROR,
                    line=number,
                    code="budget-record-invalid",
                    message=f"{what}: the ledger then records no {limit} limit, and the "
                    "frontmatter's value, which a hand edit changes without a trace, would be "
                    "in force; goalfile writes this line readable, so the entry was edited",
                    hint=restore,
                )
            )
            continue
        recorded = [limits[k] for k in keys if k in limits]
        going = (
            "; every command goes by "
            + ", ".join(f"budget.{r.key} {r.shown} (the entry {r.label})" for r in recorded)
            if recorded
            else ""
        )
        raise_again = ""
        typed = getattr(goal.budget, keys[0]) if len(keys) == 1 else None
        if (
            entry.by == BUDGET_BY
            and len(recorded) == 1
            and recorded[0].value is not None
            and typed is not None
            and typed > recorded[0].value
        ):  # the raise the frontmatter shows: ledger it again, readable
            raise_again = (
                f", or have a person raise the limit again with `goalfile budget "
                f"{shell_word(path)} --{keys[0]} {typed}`, which ledgers it"
            )
        findings.append(
            Finding(
                severity=Severity.WARNING,
                line=number,
                code="budget-record-invalid",
                message=what + going,
                hint=restore + raise_again,
            )
        )
    return findings
