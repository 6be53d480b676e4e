"""The rules of `goalfile audit`, text in and findings out: is a goal's status backed by its
ledger, and did the ledger only grow?

What is checked, per goal file (docs/trust.md says why, and what cannot be checked):

- the frontmatter status agrees with the ledger: it equals the ``status:`` line of the newest
  entry that has one; a ``met`` needs a pin, a newest verify entry with every row met under
  that pin (its ``contract:`` short digest), the checks of the contract, and no re-approval
  after it; a contract that no longer matches its pin is reported row by row;
- every met review row of the newest verify entry quotes a passage that is still in its
  artifact (whitespace-normalised);
- iteration numbers and dates never go backwards;
- each budget limit equals the one the ledger records (the first approval's ``budget
  approved:`` line, raised by ``by budget`` entries), see :mod:`goalfile.handedit`;
- with ``against``: the goal file at that git revision (``git show REF:PATH``). Every entry
  there is still present, text-identical and in order (entries may only be appended);
  ``iterations_used`` did not go down and a raised budget has a ``by budget`` entry; every
  contract change since then is classified (see :func:`goalfile.contractdiff.changes`) and
  matched with the re-approval entry (``by activate``, added since then) that records it.

Findings name the file, the entry and the row, and say what would make them right. Nothing
here reads a file or runs git: :mod:`goalfile.commands.audit` does, and passes texts in.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from goalfile import contract, contractdiff, ledger
from goalfile.errors import GoalfileError
from goalfile.handedit import (
    BUDGET_KEYS,
    REOPENABLE,
    budget_in_force,
    hook_status_forged,
    insert_lines_command,
    ledger_limits,
    met_gaps,
    reopened,
    restore_status_command,
    set_key_command,
    status_backed,
)
from goalfile.model import BUDGET_LIMIT_MAX, Entry, Goal, Kind, Severity, Status, Verdict
from goalfile.parse import ledger_region, parse_goal, review_artifact
from goalfile.prose import inline_code
from goalfile.review import latest_review, quote_present
from goalfile.shellword import shell_word, show_command
from goalfile.words import counted

WARNING_CODES = frozenset({"unpinned"})
"""Findings that are reported as warnings: they do not fail the audit."""

ReadArtifact = Callable[[str], str]
"""Reads an artifact named relative to the goal's working tree; raises GoalfileError."""

Covers = Callable[[str, str], bool]
"""Whether the artifact a review read (the second name) is the one a row names (the first), or
inside the folder it names; raises GoalfileError for a name outside the working tree."""


def covers_as_written(named: str, name: str) -> bool:
    """:data:`Covers` by the names alone, lexically normalised (links are not followed)."""
    whole, part = posixpath.normpath(named), posixpath.normpath(name)
    return part == whole or part.startswith(whole.rstrip("/") + "/")


@dataclass(frozen=True, kw_only=True)
class AuditFinding:
    """One thing wrong, where it is, and what would make it right."""

    code: str
    path: str
    message: str
    hint: str
    line: int | None = None
    entry: str | None = None  # "Iteration 2 (2026-11-30) by verify-goal"
    row: str | None = None

    def render(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        parts = [where, self.code]
        if self.entry:
            parts.append(self.entry)
        if self.row:
            parts.append(self.row)
        fix = f"\n  fix: {self.hint}" if self.hint else ""  # a finding no command mends
        return f"{': '.join(parts)}: {self.message}{fix}"

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "path": self.path,
            "line": self.line,
            "entry": self.entry,
            "row": self.row,
            "message": self.message,
            "hint": self.hint,
        }


@dataclass(frozen=True, kw_only=True)
class ChangeReport:
    """A contract change since the revision, and the re-approval entry that records it."""

    change: contractdiff.Change
    recorded_by: str | None = None
    recorded_line: int | None = None
    reason: str | None = None

    def render(self) -> str:
        if self.recorded_by is None:
            return f"{self.change.describe()}: NOT re-approved"
        why = f", reason: {self.reason}" if self.reason else ""
        at = f" (line {self.recorded_line})" if self.recorded_line else ""
        return f"{self.change.describe()}: re-approved by {self.recorded_by}{at}{why}"

    def to_json(self) -> dict[str, object]:
        return {
            **self.change.to_json(),
            "recorded_by": self.recorded_by,
            "recorded_line": self.recorded_line,
            "reason": self.reason,
        }


@dataclass(frozen=True, kw_only=True)
class FileAudit:
    path: str
    findings: tuple[AuditFinding, ...] = ()
    changes: tuple[ChangeReport, ...] = ()
    new_entries: tuple[str, ...] = ()  # entries added since the revision
    notes: tuple[str, ...] = ()  # what the reader should know that is not a finding
    warnings: tuple[AuditFinding, ...] = ()  # reported, but no failure (e.g. `unpinned`)
    at_ref: bool | None = None  # whether the file existed at the revision; None without one
    since: str | None = None  # what changes and new entries are counted from, when not the ref
    error: GoalfileError | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "ok": self.error is None and not self.findings,
            "error": self.error.to_json() if self.error is not None else None,
            "findings": [f.to_json() for f in self.findings],
            "warnings": [f.to_json() for f in self.warnings],
            "contract_changes": [c.to_json() for c in self.changes],
            "new_entries": list(self.new_entries),
            "notes": list(self.notes),
            "at_ref": self.at_ref,
            "since": self.since,
        }


# --- the core: text in, findings out ------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Block:
    """An entry of the ledger and its text as Markdown means it (see
    :func:`goalfile.ledger.meaning_lines`)."""

    entry: Entry
    text: str


def label(entry: Entry) -> str:
    return f"Iteration {entry.iteration} ({entry.date}) by {entry.by}"


def blocks(text: str) -> list[Block]:
    """Every entry of the ledger with its own text, oldest first (one pass over the lines)."""
    region = ledger_region(text)
    if region is None:
        return []
    first = text.count("\n", 0, region[0]) + 1  # the line of `## Iterations`
    lines = text[region[0] : region[1]].split("\n")  # lines[k] is line first + k
    fences = ledger.fenced_spans(text)
    heads = []
    offset = region[0]
    for k, line in enumerate(lines):
        if (
            line.startswith("### Iteration ")
            and ledger.parse_entry([line]) is not None
            and not ledger.in_spans(fences, offset)
        ):
            heads.append(k)
        offset += len(line) + 1
    result = []
    for index, head in enumerate(heads):
        stop = heads[index + 1] if index + 1 < len(heads) else len(lines)
        chunk = lines[head:stop] + ([""] if index + 1 < len(heads) else [])  # as entries() does
        entry = ledger.parse_entry(chunk, first_line=first + head)
        assert entry is not None  # its heading parsed above
        # compared by meaning: a Markdown formatter (mdformat) rewrites no entry
        body = ledger.meaning_lines(lines[head:stop])
        result.append(Block(entry=entry, text="\n".join(body)))
    return result


def _reads_as_goal(text: str) -> bool:
    """Whether ``text`` was meant as a goal file: it opens frontmatter, or has a goal's
    `# Goal:` heading or its criteria or ledger section."""
    if text.lstrip("\ufeff").startswith("---"):
        return True
    return any(
        line.lower().startswith(("# goal:", "## acceptance criteria", "## iterations"))
        for line in text.splitlines()
    )


def audit_goal(
    goal: Goal,
    *,
    read_artifact: ReadArtifact,
    covers: Covers = covers_as_written,
    against: str | None = None,
    old_text: str | None = None,
) -> FileAudit:
    """Everything :func:`audit_file` checks, on texts already read."""
    current = blocks(goal.text)
    findings: list[AuditFinding] = []
    notes: list[str] = []
    changes: list[ChangeReport] = []
    new_entries: list[str] = []
    kept: set[int] = set()  # lines of current entries there at the revision, unchanged
    added: set[int] = set()  # lines of current entries added since the revision
    history = against is not None
    if history and old_text is not None:
        old_goal: Goal | None
        try:
            old_goal = parse_goal(old_text, path=goal.path)
        except GoalfileError as exc:
            old_goal = None
            if _reads_as_goal(old_text):  # a goal the base held, that no one can compare with
                findings.append(
                    AuditFinding(
                        code="base-goal-unreadable",
                        path=goal.path,
                        message=f"the goal at {against} cannot be read ({exc.message}), so "
                        "this goal's contract and ledger are not compared with it",
                        hint=f"fix the goal file on {against} (`goalfile lint` names what "
                        "breaks it) and base the change on that",
                    )
                )
            else:
                notes.append(
                    f"the goal at {against} cannot be read ({exc.message}); its contract "
                    "is not compared"
                )
        old_blocks = blocks(old_text)
        grown = ledger_growth(goal.path, old_blocks, current, against or "")
        findings += grown.findings
        kept, added = grown.kept, grown.added
        new_entries = [label(b.entry) for b in current if b.entry.line in added]
        if old_goal is not None:
            approving = added - _first_approvals(old_blocks, current)
            found, reports = contract_history(goal, old_goal, current, approving, against or "")
            findings += found
            changes = reports
            findings += budget_history(goal, old_goal, against or "")
            findings += accounting_history(goal, old_goal, against or "")
            findings += counter_history(goal, old_goal, current, added, against or "")
    elif history:
        notes.append(
            f"new since {against}: no earlier ledger or contract to compare with"
            + _new_settings_note(goal)
            + _approved_rows_note(goal)
        )
        new_entries = [label(b.entry) for b in current]
    findings += order_findings(goal.path, current, kept)
    findings += setting_findings(goal)
    findings += reading_findings(goal)
    findings += record_findings(goal, current)
    findings += status_findings(goal, current)
    findings += impossible_findings(goal)
    findings += budget_findings(goal, skip=findings)
    reported: set[tuple[str | None, str]] = {
        (c.change.row, c.change.field) for c in changes if c.recorded_by is None
    }
    findings += drift_findings(goal, skip=reported)
    findings += review_findings(goal, current, read_artifact, covers)
    warned = [f for f in findings if f.code in WARNING_CODES]
    return FileAudit(
        path=goal.path,
        findings=tuple(f for f in findings if f.code not in WARNING_CODES),
        warnings=tuple(warned),
        changes=tuple(changes),
        new_entries=tuple(new_entries),
        notes=tuple(notes),
        at_ref=None if not history else old_text is not None,
    )


def audit_branch(
    goal: Goal,
    versions: Sequence[tuple[str, str]],
    *,
    read_artifact: ReadArtifact,
    covers: Covers = covers_as_written,
    against: str,
    side: Sequence[tuple[str, str]] = (),
) -> FileAudit:
    """A goal new since ``against`` whose file was committed after it (``versions``: each
    commit's name and the file's text there, oldest first, as
    :func:`goalfile.goalcommits.committed_versions` reads them). Its first committed version
    stands for the revision: every rule of ``--against`` holds the goal to it (an approval
    entry of it rewritten or deleted, a contract change since it without a re-approval
    entry). And the ledger only grew across every later committed version, the working copy
    last: an entry committed once and rewritten, deleted or moved in a later commit is
    reported though the versions after it agree with the working copy. Without versions (the
    goal was never committed), the goal is audited as it is."""
    if not versions:
        return audit_goal(
            goal, read_artifact=read_artifact, covers=covers, against=against, old_text=None
        )
    first, first_text = versions[0]
    result = audit_goal(
        goal, read_artifact=read_artifact, covers=covers, against=first, old_text=first_text
    )
    findings = list(result.findings)
    seen = {(f.code, f.entry) for f in findings}
    current = blocks(goal.text)
    before_text: str = first_text
    before: list[Block] | None = blocks(first_text)
    chain = [*versions[1:], ("", goal.text)]  # "": the working copy, the current text
    for index, (commit, text) in enumerate(chain):
        if appended_only(before_text, text):  # most commits: no entry to read again
            before_text, before = text, None
            continue
        now = blocks(text) if commit else current
        if before is None:
            before = blocks(before_text)
        grown = ledger_growth(goal.path, before, now, versions[index][0])
        for finding in grown.findings:
            if (finding.code, finding.entry) in seen:
                continue
            seen.add((finding.code, finding.entry))
            if commit:  # its line is in that commit's text, not in the file as it is
                finding = dataclasses.replace(
                    finding, line=None, message=f"{finding.message} (in commit {commit})"
                )
            findings.append(finding)
        before_text, before = text, now
    findings = _replaced_approval(goal.path, findings, blocks(first_text), current, first)
    findings += _other_line_approvals(goal, side, current, findings, read_artifact, covers)
    later = len(versions) - 1
    since = f"the {counted(later, 'later commit')}" if later else "no later commit"
    note = (
        f"new since {against}: held to the version first committed after it, {first}, and to "
        f"{since} of it: entries are only appended, and each contract change is re-approved"
        + _new_settings_note(goal)
        + _approved_rows_note(goal)
    )
    return dataclasses.replace(
        result,
        findings=tuple(findings),
        notes=(note, *result.notes),
        at_ref=False,
        since=first,
    )


def appended_only(old: str, new: str) -> bool:
    """Whether the ledger of ``new`` is the ledger of ``old``, character for character, with
    whole entries after it: then no entry of ``old`` changed, and neither needs reading entry
    by entry (a branch's commits of a goal mostly append one entry each, so comparing every
    pair by its entries would read the ledger once per commit). Appended text with a fence
    marker is not taken: it could close a fence opened before it, and change what those lines
    mean."""
    was, now = ledger_region(old), ledger_region(new)
    if was is None or now is None:
        return False
    before = old[was[0] : was[1]]
    after = new[now[0] : now[1]]
    if not (before.endswith("\n") or not before) or not after.startswith(before):
        return False
    added = after[len(before) :]
    if "```" in added or "~~~" in added:
        return False
    first = next((line for line in added.split("\n") if line.strip()), None)
    if first is None:
        return True
    return first.startswith("### Iteration ") and ledger.parse_entry([first]) is not None


def _replaced_approval(
    path: str, findings: list[AuditFinding], old: Sequence[Block], new: Sequence[Block], first: str
) -> list[AuditFinding]:
    """An `entry-rewritten` or `entry-deleted` finding of the first approval committed, when
    the ledger now starts from another approval: named as such (a new first approval, by
    `goalfile activate` on a ledger stripped of the old one, reads like the person's own)."""
    was = next((b for b in old if b.entry.by == contract.ACTIVATE_BY), None)
    now = next((b for b in new if b.entry.by == contract.ACTIVATE_BY), None)
    if was is None or now is None or was.text == now.text:
        return findings
    named = label(was.entry)
    return [
        dataclasses.replace(
            f,
            message=f"{f.message}; the ledger's first approval is now another entry (line "
            f"{now.entry.line}): the approval committed in {first} was replaced, not "
            "re-approved (a re-approval is appended by `goalfile activate --reapprove`)",
        )
        if f.code in ("entry-rewritten", "entry-deleted") and f.entry == named
        else f
        for f in findings
    ]


def _other_line_approvals(
    goal: Goal,
    side: Sequence[tuple[str, str]],
    current: Sequence[Block],
    found: Sequence[AuditFinding],
    read_artifact: ReadArtifact,
    covers: Covers,
) -> list[AuditFinding]:
    """What holding the goal to a version committed on another line of the branch than its
    first-parent line (``side``: commit and text) finds, for each version whose first approval
    is not the ledger's first approval now: the person's approval committed there (an old tip
    merged with `git merge -s ours` into a line of the agent's own, which holds its own
    approval of the goal) is held to as the first version is. Versions that share the first
    approval (a line of work merged in) are not read again."""

    def first_approval(items: Sequence[Block]) -> str | None:
        return next((b.text for b in items if b.entry.by == contract.ACTIVATE_BY), None)

    now = first_approval(current)
    seen = {(f.code, f.line, f.entry) for f in found}
    done: set[str] = set()
    more: list[AuditFinding] = []
    for commit, text in side:
        was = first_approval(blocks(text))
        if was is None or was == now or was in done:
            continue
        done.add(was)
        held = audit_goal(
            goal, read_artifact=read_artifact, covers=covers, against=commit, old_text=text
        )
        for finding in held.findings:
            if (finding.code, finding.line, finding.entry) in seen:
                continue
            seen.add((finding.code, finding.line, finding.entry))
            more.append(
                dataclasses.replace(
                    finding,
                    message=f"{finding.message} (the approval committed in {commit}, on a line "
                    "of the branch that its first parents do not take)",
                )
            )
    return more


def _first_approvals(old: Sequence[Block], current: Sequence[Block]) -> set[int]:
    """The lines of `by activate` entries that are a first approval (no `contract re-approved`
    line), when the ledger at the revision already had an approval: such an entry is written
    only on a ledger emptied of that approval (the goal approved again in its place), so it
    re-approves no change since the revision; only a re-approval entry does."""
    if not any(b.entry.by == contract.ACTIVATE_BY for b in old):
        return set()
    return {
        b.entry.line
        for b in current
        if b.entry.by == contract.ACTIVATE_BY
        and not next((n.strip() for n in b.entry.notes if n.strip()), "").startswith(
            "contract re-approved"
        )
    }


def _new_settings_note(goal: Goal) -> str:
    """For a goal new since the ref: its run settings that are not the default, which no
    earlier contract shows a reviewer (a `shell:` or `cwd:` decides what every check is)."""
    named = [
        f"{key} `{value}`" for key, value in contract.normal_settings(goal) if key != "timeout"
    ]
    if not named:
        return ""
    return f"; check its run settings, which are not the default: {', '.join(named)}"


APPROVED_ROWS_SHOWN = 20
"""How many approved rows the note of a new goal names (the rest are counted)."""


def _approved_rows_note(goal: Goal) -> str:
    """For a goal new since the ref: what its newest approval entry approved, row by row, so
    that the reviewer reads what the approval claims (no earlier approval shows it)."""
    try:
        found = contract.last_approval(goal.text, path=goal.path)
    except GoalfileError:  # an approval that does not read back: a finding of its own
        return ""
    if found is None:
        return "; no approval entry"
    entry, approved = found
    named_as = label(entry)  # the entry as read alone carries no line: find it in the ledger
    line = next(
        (b.entry.line for b in reversed(blocks(goal.text)) if label(b.entry) == named_as), 0
    )
    where = f"its approval entry (line {line})" if line else "its approval entry"
    if approved is None:
        return f"; {where} records no rows"
    rows = approved.ordered()
    named = [
        f"{row.id} {inline_code(ledger.clean_line(row.check, limit=500))} → "
        f"{inline_code(ledger.clean_line(row.expected, limit=200))}"
        for row in rows[:APPROVED_ROWS_SHOWN]
    ]
    if len(rows) > APPROVED_ROWS_SHOWN:
        named.append(f"and {len(rows) - APPROVED_ROWS_SHOWN} more")
    return f"; {where} approved: {'; '.join(named)}"


def setting_findings(goal: Goal) -> list[AuditFinding]:
    """A `shell:` or `cwd:` line that no check can run with (``run-setting-invalid``): verify
    refuses the goal, so a ledger that shows checks run under it was not written by this
    goalfile from this file (a shell ` /bin/sh` once ran a file in the working directory while
    the contract counted it as the default shell)."""
    found: list[AuditFinding] = []
    for key in ("shell", "cwd"):
        line = goal.key_line(key)
        for problem in goal.problems:
            if line is not None and problem.line == line and problem.severity is Severity.ERROR:
                found.append(
                    AuditFinding(
                        code="run-setting-invalid",
                        path=goal.path,
                        line=line,
                        message=f"{problem.message}; verify refuses to run its checks",
                        hint=problem.hint or "",
                    )
                )
    return found


def reading_findings(goal: Goal) -> list[AuditFinding]:
    """A contract that reads otherwise than it runs (lint's ``lone-cr``, ``rendered-differs``,
    ``hidden-markup`` and ``unseen-text`` errors): a reviewer of the pull request approves
    what GitHub shows, and goalfile runs something else, so the audit fails on it as every
    command refuses it."""
    from goalfile.lint import reading_findings as lint_findings

    return [
        AuditFinding(
            code=found.code or "rendered-differs",
            path=goal.path,
            line=found.line,
            message=found.message,
            hint=found.hint or "",
        )
        for found in lint_findings(goal)
    ]


# --- status against the ledger ------------------------------------------------------------


def status_findings(goal: Goal, current: Sequence[Block]) -> list[AuditFinding]:
    path = goal.path
    status_line = goal.key_line("status")
    found: list[AuditFinding] = []
    bearing = next((b for b in reversed(current) if b.entry.status is not None), None)
    if bearing is None:
        if not status_backed(goal.status, None):  # active: a skill's new goal
            found.append(
                AuditFinding(
                    code="status-unbacked",
                    path=path,
                    line=status_line,
                    message=f"the frontmatter says `{goal.status.value}`, but no ledger "
                    "entry has a status line",
                    hint=f"set `status: draft` back and `goalfile activate {shell_word(path)}`; a "
                    "status is "
                    "written by the command that decides it",
                )
            )
    elif not status_backed(goal.status, bearing.entry.status):
        # a hand edit toward more work is accepted; the next entry records it
        said = bearing.entry.status.value if bearing.entry.status is not None else ""
        # a `draft` entry was typed by hand (no command writes one): `active` is set back
        target = Status.ACTIVE.value if bearing.entry.status is Status.DRAFT else said
        found.append(
            AuditFinding(
                code="status-hand-edited",
                path=path,
                line=status_line,
                entry=label(bearing.entry),
                message=f"the frontmatter says `{goal.status.value}`, but the newest entry "
                f"with a status (line {bearing.entry.line}) says `{said}`",
                hint=f"{set_key_command(path, status_line, 'status', target)}; only the command "
                f"that decides a status writes it (`goalfile verify {shell_word(path)}` for `met`)",
            )
        )
    found += transition_findings(goal, current)
    found += pin_findings(goal, current)
    if goal.status is Status.MET:
        found += met_findings(goal, current)
    return found


# the statuses each command acts on; an entry written on any other status means the status was
# changed by hand in between (e.g. `exhausted` edited back to `active`, then verified)
ACTS_ON: dict[str, frozenset[Status]] = {
    ledger.VERIFY_BY: frozenset({Status.ACTIVE}),
    "plan": frozenset({Status.ACTIVE}),
    "stop-hook": frozenset({Status.ACTIVE}),
    "review": frozenset({Status.ACTIVE}),
    "refine": frozenset({Status.ACTIVE, Status.MET}),
    "refine-goal": frozenset({Status.ACTIVE, Status.MET}),
    "pause": frozenset({Status.ACTIVE}),
    "resume": frozenset({Status.PAUSED, Status.BLOCKED}),
    "reopen": REOPENABLE,
    "block": frozenset({Status.ACTIVE, Status.PAUSED}),
}


def pin_findings(goal: Goal, current: Sequence[Block]) -> list[AuditFinding]:
    """The `contract:` pin must be the digest the newest approval entry recorded."""
    faults = tightening_faults(goal, current)
    approval = next(
        (
            b.entry
            for b in reversed(current)
            if contract.is_approval(b.entry) and b.entry.line not in faults
        ),
        None,
    )
    if approval is None:
        return []
    approved = _readable_record(approval)
    # the rows it records, when it records them, are what it approved, and its `contract:`
    # line names them (an entry where the two differ is also approval-record-invalid)
    named = [approval.contract] if approval.contract is not None else []
    named += [contract.short(approved.digest())] if approved is not None else []
    if not named:
        return []  # an entry of the first versions, or edited: approval-rows-missing
    pin = contract.pinned(goal)
    if pin is not None and all(contract.short(pin) == each for each in named):
        return []
    shown = f"`{contract.short(pin)}`" if pin is not None else "missing"
    return [
        AuditFinding(
            code="pin-not-approved",
            path=goal.path,
            line=goal.key_line("contract") or goal.key_line("status"),
            entry=label(approval),
            message=f"the `contract:` pin is {shown}, but the newest approval recorded "
            f"`{named[-1]}`",  # the recorded rows' digest, when it records rows
            hint="a pin is written only by `goalfile activate`; restore the approved pin and "
            "rows, or have a person re-approve with `goalfile activate --reapprove "
            f"{shell_word(goal.path)}`",
        )
    ]


def transition_findings(goal: Goal, current: Sequence[Block]) -> list[AuditFinding]:
    """Entries that a command could only have written after a status was edited by hand."""
    found: list[AuditFinding] = []
    status: Status | None = None

    def unledgered(entry: Entry, message: str, commands: str) -> AuditFinding:
        return AuditFinding(
            code="status-transition-unledgered",
            path=goal.path,
            line=entry.line,
            entry=label(entry),
            message=message,
            hint=f"a status changes only through the command that decides it {commands}; "
            "revert the hand edit and the entries after it",
        )

    for block in current:
        entry = block.entry
        allowed = ACTS_ON.get(entry.by)
        if entry.by != "reopen" and (
            reopened(entry)
            or (status in REOPENABLE and allowed is not None and Status.ACTIVE in allowed)
        ):
            status = Status.ACTIVE  # reopened by hand (or by `goalfile reopen`): accepted
        if status is not None and allowed is not None and status not in allowed:
            found.append(
                unledgered(
                    entry,
                    f"`{entry.by}` ran on a goal whose ledger status was "
                    f"`{status.value}`: the status was changed by hand before it",
                    f"({_reopens_exhausted(goal)} reopens an exhausted goal, "
                    f"`goalfile resume {shell_word(goal.path)} --resolved TEXT` a blocked one)",
                )
            )
        forged = hook_status_forged(entry.by, entry.status)
        if forged is not None:
            found.append(
                unledgered(
                    entry, forged, f"(`goalfile pause {shell_word(goal.path)}` pauses a goal)"
                )
            )
        if entry.status is not None:
            status = entry.status
    return found


def _reopens_exhausted(goal: Goal) -> str:
    """The command that reopens the goal were it exhausted, with a number that works as
    written: a budget raise, or `reopen` when no limit is set (no raise can give room)."""
    from goalfile.budgethint import raise_budget_command

    limits = budget_in_force(goal)
    if limits.iterations is None and limits.tokens is None:
        return f"`goalfile reopen {shell_word(goal.path)} --reason TEXT`"
    return f"`{raise_budget_command(goal, goal.path)}`"


def met_findings(goal: Goal, current: Sequence[Block]) -> list[AuditFinding]:
    path = goal.path
    status_line = goal.key_line("status")
    pin = contract.pinned(goal)
    found: list[AuditFinding] = []
    rerun = f"run `goalfile verify {shell_word(path)}`; only a run with every row met sets `met`"
    reset = restore_status_command(path, status_line, Status.ACTIVE)
    if pin is None:
        found.append(
            AuditFinding(
                code="unpinned",
                path=path,
                line=status_line,
                message="the goal is `met`, but its contract was never pinned by `activate`; "
                "with --against, its contract is compared with the revision's instead",
                hint=(
                    f"pin the contract with `goalfile activate --reapprove {shell_word(path)} "
                    "--reason TEXT`"
                ),
            )
        )
    verify_index = next(
        (i for i in range(len(current) - 1, -1, -1) if current[i].entry.by == ledger.VERIFY_BY),
        None,
    )
    if verify_index is None:
        found.append(
            AuditFinding(
                code="met-without-verify",
                path=path,
                line=status_line,
                message="the goal is `met`, but the ledger has no verify entry",
                hint=f"{reset}, then {rerun}",
            )
        )
        return found
    verified = current[verify_index].entry
    where = label(verified)
    for gap in met_gaps(goal, verified):  # the rule lint, status and the Stop hook apply
        if gap.code == "met-row-not-met":
            hint = f"{reset}, make {gap.row} pass, then {rerun}"
        elif gap.code == "met-wrong-contract":
            hint = f"{reset}, then {rerun} under the current contract"
        else:
            hint = f"{reset}, then {rerun}"
        found.append(
            AuditFinding(
                code=gap.code,
                path=path,
                line=gap.line if gap.line is not None else verified.line,
                entry=where,
                row=gap.row,
                message=f"the goal is `met`, but {gap.why}",
                hint=hint,
            )
        )
    later = [b for b in current[verify_index + 1 :] if b.entry.by == contract.ACTIVATE_BY]
    if later:
        found.append(
            AuditFinding(
                code="met-after-reapproval",
                path=path,
                line=later[-1].entry.line,
                entry=label(later[-1].entry),
                message="the contract was re-approved after the newest verify entry; the "
                "`met` was earned under the old contract",
                hint=f"{reset}, then {rerun}",
            )
        )
    return found


def drift_findings(goal: Goal, *, skip: set[tuple[str | None, str]]) -> list[AuditFinding]:
    """The contract no longer matches its pin: one finding per changed row and field."""
    pin = contract.pinned(goal)
    if pin is None or goal.status is Status.DRAFT:
        return []
    now = contract.contract_of(goal)
    if contract.pin_matches(pin, goal):
        return []
    try:
        if contract.tightening(goal):
            return []  # only tightened: the next verify entry pins it
    except contract.RecordInvalid:
        pass  # reported by record_findings
    hint = (
        f"restore the approved contract, or have a person re-approve it with "
        f"`goalfile activate --reapprove {shell_word(goal.path)} --reason TEXT`"
    )
    try:
        entry, approved = contract.last_approval(goal.text) or (None, None)
    except contract.RecordInvalid:  # reported by record_findings
        entry, approved = None, None
    if entry is not None and approved is not None:
        found = []
        for change in contractdiff.changes(approved, now):
            if (change.row, change.field) in skip:
                continue
            criterion = goal.criterion(change.row) if change.row else None
            found.append(
                AuditFinding(
                    code="contract-drift",
                    path=goal.path,
                    line=criterion.line if criterion else goal.key_line("contract"),
                    entry=label(entry),
                    row=change.row,
                    message=f"changed since it was approved: {change.describe()}",
                    hint=hint,
                )
            )
        if found or skip:
            return found
    return [
        AuditFinding(
            code="contract-drift",
            path=goal.path,
            line=goal.key_line("contract"),
            message=f"the contract ({contract.short(now.digest())}) no longer matches its "
            f"pin ({contract.short(pin)})",
            hint=hint,
        )
    ]


# --- review quotes ------------------------------------------------------------------------

_SPAN_RE = re.compile(r"(`+)(.+?)\1", re.S)


def quote_of(evidence: str, quoted: bool) -> str | None:
    """The passage a review verdict quotes: the evidence code span (``review: `...` `` or
    ``judge: `...` ``), or None when it quotes nothing."""
    if quoted:
        return evidence.strip() or None
    match = _SPAN_RE.search(evidence)
    return match.group(2).strip() if match else None


def review_findings(
    goal: Goal,
    current: Sequence[Block],
    read_artifact: ReadArtifact,
    covers: Covers = covers_as_written,
) -> list[AuditFinding]:
    """Every met review row of the newest verify entry quotes a passage still in its artifact:
    the artifact of the review recorded before that entry, else the one the row names. A
    recorded review must have read the artifact the row names (or a file in the folder it
    names), as verify requires: `goalfile review` refuses any other, so only an entry typed by
    hand names one."""
    index = next(
        (i for i in range(len(current) - 1, -1, -1) if current[i].entry.by == ledger.VERIFY_BY),
        None,
    )
    if index is None:
        return []
    verified = current[index].entry
    region = ledger_region(goal.text)
    before = contract.line_offset(goal.text, verified.line)
    found: list[AuditFinding] = []
    for row in verified.rows:
        criterion = goal.criterion(row.id)
        if row.verdict is not Verdict.MET or criterion is None:
            continue
        if criterion.kind is not Kind.REVIEW:
            continue

        def finding(code: str, message: str, hint: str, rid: str = row.id) -> AuditFinding:
            return AuditFinding(
                code=code,
                path=goal.path,
                line=verified.line,
                entry=label(verified),
                row=rid,
                message=message,
                hint=hint,
            )

        recorded = (
            latest_review(
                goal.text, (region[0], before), row_id=row.id, iteration=verified.iteration
            )
            if region is not None
            else None
        )
        artifact = recorded.artifact if recorded is not None else review_artifact(criterion)
        quote = quote_of(row.evidence, row.evidence_quoted)
        if quote is None:
            found.append(
                finding(
                    "review-no-quote",
                    "a met review verdict quotes no passage of its artifact: it is reviewed "
                    "again, quoting the passage that decides, and verified",
                    _review_again(goal, row.id, artifact),
                )
            )
            continue
        named = review_artifact(criterion)
        if recorded is not None and named is not None:
            try:
                same = covers(named, recorded.artifact)
            except GoalfileError:
                same = False
            if not same:
                found.append(
                    finding(
                        "review-artifact-mismatch",
                        f"the review recorded for {row.id} read `{recorded.artifact}`, but "
                        f"{row.id} names `{named}`: goalfile review refuses any other artifact "
                        "and verify counts no such review, so the entry was not written by "
                        "either from this file: it is reviewed again, reading the artifact the "
                        "row names, and verified",
                        _review_again(goal, row.id, named),
                    )
                )
                continue
        try:
            text = read_artifact(artifact or "")
        except GoalfileError as exc:
            found.append(
                finding(
                    "review-artifact-missing",
                    f"the artifact of a met review verdict cannot be read: {exc.message}; "
                    "once it is there again, it is reviewed again and verified",
                    _review_again(goal, row.id, artifact) + f" once `{artifact}` is there again",
                )
            )
            continue
        if not quote_present(quote, text):
            found.append(
                finding(
                    "review-quote-missing",
                    f"the quoted passage `{ledger.clean_line(quote, limit=80)}` is no "
                    f"longer in `{artifact}` (whitespace aside): the passage is written back, "
                    "or the artifact as it is reviewed again, quoting a passage it holds, and "
                    "verified",
                    _review_again(goal, row.id, artifact),
                )
            )
    return found


def _review_again(goal: Goal, row: str, artifact: str | None) -> str:
    """The commands that review row ``row`` of ``goal`` again, reading ``artifact``, and verify
    it: after a `goalfile reopen` when the goal is not active (review and verify take an
    active goal only); PASSAGE and TEXT are the reviewer's to write."""
    word = shell_word(goal.path)
    reopen = (
        f"`goalfile reopen {word} --reason TEXT`, then " if goal.status is not Status.ACTIVE else ""
    )
    return (
        f"{reopen}`goalfile review {word} {shell_word(row)} --artifact "
        f"{shell_word(artifact or 'FILE')} --verdict met --quote PASSAGE`, then "
        f"`goalfile verify {word}`"
    )


# --- the ledger only grew -----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Growth:
    findings: tuple[AuditFinding, ...]
    kept: set[int]  # lines (current text) of entries there at the revision, unchanged
    added: set[int]  # lines of entries that stand for no entry there at the revision


def ledger_growth(path: str, old: Sequence[Block], new: Sequence[Block], ref: str) -> Growth:
    """Every old entry still present, text-identical and in order; new ones only appended."""
    if len(new) >= len(old) and all(a.text == b.text for a, b in zip(old, new, strict=False)):
        return Growth(
            findings=(),
            kept={b.entry.line for b in new[: len(old)]},
            added={b.entry.line for b in new[len(old) :]},
        )
    positions: dict[str, list[int]] = {}
    for index, block in enumerate(new):
        positions.setdefault(block.text, []).append(index)
    pairs: dict[int, int] = {}  # old index -> new index
    start = 0
    for index, block in enumerate(old):  # in-order matching of identical entries
        spots = positions.get(block.text, [])
        at = bisect.bisect_left(spots, start)
        if at < len(spots):
            pairs[index] = spots[at]
            start = spots[at] + 1
    used = set(pairs.values())
    by_text = _unused_index(new, used, key=lambda b: b.text)
    by_heading = _unused_index(new, used, key=lambda b: b.text.split("\n", 1)[0])
    findings: list[AuditFinding] = []
    restore = (
        f"restore the entry as it was at {ref} (`{show_command(ref, path)}` shows "
        "the file there); entries are only ever appended"
    )
    for index, block in enumerate(old):
        if index in pairs:
            continue
        was = label(block.entry)
        same = by_text(block.text)
        if same is not None:
            findings.append(
                AuditFinding(
                    code="entry-moved",
                    path=path,
                    line=new[same].entry.line,
                    entry=was,
                    message=f"the entry was moved out of its place in the ledger at {ref}",
                    hint=restore,
                )
            )
            continue
        rewritten = by_heading(block.text.split("\n", 1)[0])
        if rewritten is not None:
            findings.append(
                AuditFinding(
                    code="entry-rewritten",
                    path=path,
                    line=new[rewritten].entry.line,
                    entry=was,
                    message=f"the entry differs from {ref}: "
                    + _first_difference(block, new[rewritten]),
                    hint=restore,
                )
            )
            continue
        findings.append(
            AuditFinding(
                code="entry-deleted",
                path=path,
                entry=was,
                message=f"the entry (line {block.entry.line} at {ref}) was deleted",
                hint=restore,
            )
        )
    last_old = max(pairs.values(), default=-1)
    for index, block in enumerate(new):
        if index not in used and index < last_old:
            findings.append(
                AuditFinding(
                    code="entry-inserted",
                    path=path,
                    line=block.entry.line,
                    entry=label(block.entry),
                    message=f"the entry was inserted among entries that were there at {ref}: "
                    "new entries are only ever appended, so it is moved to the end of the "
                    "ledger, or deleted when goalfile did not write it",
                    hint=f"`git diff {shell_word(ref)} -- {shell_word(path)}` shows it among "
                    "the others",
                )
            )
    return Growth(
        findings=tuple(findings),
        kept={new[k].entry.line for k in pairs.values()},
        added={b.entry.line for k, b in enumerate(new) if k not in used},
    )


def _unused_index(
    blocks: Sequence[Block], used: set[int], *, key: Callable[[Block], str]
) -> Callable[[str], int | None]:
    """A lookup of the first block with a key that is not in ``used``; it marks what it gives."""
    spots: dict[str, list[int]] = {}
    for index, block in enumerate(blocks):
        spots.setdefault(key(block), []).append(index)
    cursor: dict[str, int] = {}

    def take(value: str) -> int | None:
        found = spots.get(value, [])
        at = cursor.get(value, 0)
        while at < len(found) and found[at] in used:
            at += 1
        cursor[value] = at
        if at == len(found):
            return None
        used.add(found[at])
        return found[at]

    return take


def _first_difference(old: Block, new: Block) -> str:
    before, after = old.text.split("\n"), new.text.split("\n")
    for number, (a, b) in enumerate(zip(before, after, strict=False), start=1):
        if a != b:
            return f"line {number} of the entry was {_shown(a)} and is now {_shown(b)}"
    if len(before) > len(after):
        return f"line {len(after) + 1} of the entry, {_shown(before[len(after)])}, was removed"
    return f"line {len(before) + 1} of the entry, {_shown(after[len(before)])}, was added"


def _shown(line: str) -> str:
    """A line of the ledger, quoted for a message (one line, bounded)."""
    return f"«{ledger.clean_line(line, limit=200)}»"


def order_findings(path: str, current: Sequence[Block], kept: set[int]) -> list[AuditFinding]:
    """Iteration numbers and dates never go backwards (only new entries are judged when the
    history is known)."""
    found: list[AuditFinding] = []
    for before, after in itertools.pairwise(current):
        if after.entry.line in kept:
            continue
        a, b = before.entry, after.entry
        if b.iteration < a.iteration:
            found.append(
                AuditFinding(
                    code="iteration-backwards",
                    path=path,
                    line=b.line,
                    entry=label(b),
                    message=f"iteration {b.iteration} follows iteration {a.iteration} "
                    f"(line {a.line}): entries carry the goal's current iteration, so the "
                    "entry is put back as goalfile wrote it",
                    hint=_shows_the_edit(path),
                )
            )
        if b.date < a.date:
            found.append(
                AuditFinding(
                    code="date-backwards",
                    path=path,
                    line=b.line,
                    entry=label(b),
                    message=f"dated {b.date}, after an entry dated {a.date} (line {a.line}): "
                    "entries are dated when they are written, so the entry is put back as "
                    "goalfile wrote it",
                    hint=_shows_the_edit(path),
                )
            )
    return found


def _shows_the_edit(path: str) -> str:
    """The command that shows each commit's change of ``path``: where a hand edit of its ledger
    is, for a person to judge (what the entry said before is in it)."""
    return f"`git log -p -- {shell_word(path)}` shows the edit"


# --- the contract and the budget since the revision ---------------------------------------


def contract_history(
    goal: Goal, old_goal: Goal, current: Sequence[Block], added: set[int], ref: str
) -> tuple[list[AuditFinding], list[ChangeReport]]:
    """Each contract change since ``ref``, and the re-approval entry added since that records
    it; an unrecorded change is a finding."""
    now = contract.contract_of(goal)
    found = contractdiff.changes(contract.contract_of(old_goal), now)
    faults = tightening_faults(goal, current)  # a forged tightening approves nothing
    approvals = [
        (b.entry, _readable_record(b.entry))
        for b in current
        if contract.is_approval(b.entry) and b.entry.line in added and b.entry.line not in faults
    ]
    findings: list[AuditFinding] = []
    reports: list[ChangeReport] = []
    was_order, now_order = _approved_order(old_goal), _approved_order(goal)
    reordered = None
    if was_order is not None and now_order is not None:
        reordered = contractdiff.order_changed(was_order, now_order)
        found = (*found, reordered) if reordered is not None else found
    for change in found:
        record = next(
            (
                entry
                for entry, approved in reversed(approvals)
                if (
                    _records_order(approved, now_order)
                    if change is reordered
                    else _records(entry, approved, change, now)
                )
            ),
            None,
        )
        reports.append(
            ChangeReport(
                change=change,
                recorded_by=label(record) if record else None,
                recorded_line=record.line if record else None,
                reason=_reason(record) if record else None,
            )
        )
        if record is None and change.effect != "tightened":  # a tightening is accepted
            criterion = goal.criterion(change.row) if change.row else None
            findings.append(
                AuditFinding(
                    code="contract-change-unapproved",
                    path=goal.path,
                    line=criterion.line if criterion else goal.key_line("contract"),
                    row=change.row,
                    message=f"changed since {ref} without a re-approval entry: {change.describe()}",
                    hint=(
                        "restore the criterion as it was, or have a person re-approve it with "
                        f"`goalfile activate --reapprove {shell_word(goal.path)} --reason TEXT` "
                        "(the entry "
                        "shows old and new rows to the reviewer)"
                    ),
                )
            )
    return findings, reports


def _readable_record(entry: Entry) -> contract.Contract | None:
    """The contract an approval entry recorded; None when it does not read back (a finding
    of its own, see :func:`record_findings`): then only its digest can say what it approved."""
    try:
        return contract.recorded(entry)
    except contract.RecordInvalid:
        return None


def tightening_faults(goal: Goal, current: Sequence[Block]) -> dict[int, str]:
    """The verify entries that say `contract tightened:` but that goalfile would not have
    written after the approval before them (see :func:`goalfile.contract.tightening_fault`),
    by line, with the reason. Such an entry counts as no approval, and the next one is checked
    against the approval before it."""
    faults: dict[int, str] = {}
    before: tuple[Entry, contract.Contract | None] | None = None
    for block in current:
        entry = block.entry
        if not contract.is_approval(entry):
            continue
        if entry.by == contract.ACTIVATE_BY:
            before = (entry, _readable_record(entry))
            continue
        try:
            fault = contract.tightening_fault(entry, before)
        except contract.RecordInvalid as exc:
            fault = f"its record cannot be read back ({exc.message})"
        if fault is None:
            before = (entry, _readable_record(entry))
        else:
            faults[entry.line] = fault
    return faults


def record_findings(goal: Goal, current: Sequence[Block]) -> list[AuditFinding]:
    """Every approval entry's record reads back (a hand edit such as `timeout: abc` does not),
    and every verify entry that says `contract tightened:` records a real tightening."""
    found: list[AuditFinding] = []
    by_line = {block.entry.line: block.entry for block in current}
    for line, fault in tightening_faults(goal, current).items():
        found.append(
            AuditFinding(
                code="tightening-record-invalid",
                path=goal.path,
                line=line or None,
                entry=label(by_line[line]),
                message=f"the entry says `{contract.TIGHTENED_LABEL}`, but {fault}; it counts "
                "as no approval",
                hint="restore the ledger as goalfile wrote it "
                f"(`git log -p -- {shell_word(goal.path)}` shows the edit), then have a person "
                "re-approve "
                f"any change with `goalfile activate --reapprove {shell_word(goal.path)} --reason "
                "TEXT`",
            )
        )
    reapprove = (
        "restore the entry as goalfile wrote it "
        f"(`git log -p -- {shell_word(goal.path)}` shows the edit), or have a person approve "
        f"the contract as it is with `goalfile activate --reapprove {shell_word(goal.path)} "
        "--reason TEXT`"
    )

    def on(entry: Entry, code: str, message: str, hint: str) -> AuditFinding:
        return AuditFinding(
            code=code,
            path=goal.path,
            line=entry.line or None,
            entry=label(entry),
            message=message,
            hint=hint,
        )

    activations = [block for block in current if block.entry.by == contract.ACTIVATE_BY]
    for block in activations:
        entry = block.entry
        try:
            approved = contract.recorded(entry, path=goal.path)
        except contract.RecordInvalid as exc:
            invalid = on(
                entry,
                "approval-record-invalid",
                exc.message
                if exc.hint
                else f"{exc.message}; the entry is put back as goalfile wrote it",
                exc.hint or _shows_the_edit(goal.path),
            )
            if entry.line and exc.record:  # the line that does not read back, as lint names it
                start = contract.line_offset(goal.text, entry.line)
                end = goal.text.find("\n### Iteration ", start + 1)  # the next entry's heading
                end = len(goal.text) if end < 0 else end
                invalid = dataclasses.replace(
                    invalid,
                    line=contract.record_line(goal.text, start, end, exc.record, exc.occurrence),
                )
            found.append(invalid)
            continue
        newest = block is activations[-1]  # what the pin rests on (a re-approval supersedes it)
        wrong = contract.approval_fault(entry, approved)
        if wrong is not None and newest and (approved is not None or entry.contract is not None):
            found.append(
                on(
                    entry,
                    "approval-record-invalid",
                    f"the approval entry {wrong}; it backs no pin, so it was edited",
                    reapprove,
                )
            )
        if approved is None and newest:  # activate writes `approved rows:` in every approval
            found.append(
                on(
                    entry,
                    "approval-rows-missing",
                    "the approval entry records no `approved rows:`, so it cannot say which "
                    "commands were approved; `goalfile activate` writes them in every approval "
                    "entry, so this one was edited or written by hand",
                    reapprove,
                )
            )
    return found


def _approved_order(goal: Goal) -> tuple[str, ...] | None:
    """The run order the newest approval records; None when it records none or does not read
    back (a finding of its own)."""
    try:
        return contract.approved_order(goal)
    except GoalfileError:
        return None


def _records_order(approved: contract.Contract | None, order: Sequence[str] | None) -> bool:
    """Whether an approval records the rows in the run order the newest approval has."""
    if approved is None or order is None:
        return False
    return contract.order_change([row.id for row in approved.ordered()], order) is None


def _records(
    entry: Entry,
    approved: contract.Contract | None,
    change: contractdiff.Change,
    now: contract.Contract,
) -> bool:
    """Whether an activate entry approved the new side of ``change``."""
    if approved is None:  # an entry that recorded no rows: only its digest can say
        return entry.contract == contract.short(now.digest())
    if change.field == "setting":
        return dict(approved.settings).get(change.row or "") == dict(now.settings).get(
            change.row or ""
        )
    if change.field == "non-goal":
        present = (change.new or change.old) in approved.non_goals
        return present if change.new is not None else not present
    assert change.row is not None
    row = approved.row(change.row)
    target = now.row(change.row)
    if change.field == "row":
        return row == target
    if row is None or target is None:
        return False
    return bool(getattr(row, change.field) == getattr(target, change.field))


def _reason(entry: Entry) -> str | None:
    for note in entry.notes:
        if note.startswith("reason: "):
            value = note.removeprefix("reason: ")
            return ledger.note_text(value) if value.startswith("`") else value
    return None


def _set_back(goal: Goal, key: str, value: int | None) -> str:
    """The command that sets a frontmatter number back (`null` for unbounded)."""
    line = goal.key_line(f"budget.{key}" if key in ("iterations", "tokens") else key)
    return set_key_command(goal.path, line, key, "null" if value is None else str(value))


def budget_history(goal: Goal, old_goal: Goal, ref: str) -> list[AuditFinding]:
    """Frontmatter numbers changed since ``ref`` by hand: ``iterations-used-decreased``,
    ``tokens-used-decreased``, and ``budget-raised-unledgered``, a limit other than the one in
    force: the ledger's (:func:`goalfile.handedit.ledger_limits`, the rule `lint`, `status`,
    `plan`, `verify` and the Stop hook go by), or, for a limit the ledger does not record, the
    value at ``ref``."""
    found: list[AuditFinding] = []
    if goal.iterations_used < old_goal.iterations_used:
        found.append(
            AuditFinding(
                code="iterations-used-decreased",
                path=goal.path,
                line=goal.key_line("iterations_used"),
                message=f"iterations_used went down since {ref}: "
                f"{old_goal.iterations_used} → {goal.iterations_used}",
                hint=_set_back(goal, "iterations_used", old_goal.iterations_used)
                + _more_iterations(goal, old_goal.iterations_used - goal.iterations_used),
            )
        )
    if goal.tokens_used < old_goal.tokens_used:
        found.append(
            AuditFinding(
                code="tokens-used-decreased",
                path=goal.path,
                line=goal.key_line("tokens_used"),
                message=f"tokens_used went down since {ref}: "
                f"{old_goal.tokens_used} → {goal.tokens_used}",
                hint=f"{_set_back(goal, 'tokens_used', old_goal.tokens_used)}; usage only grows",
            )
        )
    limits = ledger_limits(goal)
    for name in BUDGET_KEYS:
        recorded = limits.get(name)
        before = getattr(old_goal.budget, name)
        # the limit in force: the ledger's (the rule of every command), else the value at
        # REF, which no entry since has changed (a ledger that records no limit)
        expected = recorded.value if recorded is not None else before
        after = getattr(goal.budget, name)
        if after == expected:
            continue
        why = (
            f"the ledger records {recorded.shown} (the entry {recorded.label}); a budget is "
            "changed only by `goalfile budget`, which ledgers it"
            if recorded is not None
            else "no ledger entry records a change of it"
        )
        found.append(
            AuditFinding(
                code="budget-raised-unledgered",
                path=goal.path,
                line=goal.key_line(f"budget.{name}"),
                message=f"budget.{name} is {_limit(after)} ({_limit(before)} at {ref}), but {why}",
                hint=_set_back(goal, name, expected) + _raise_to(goal, name, expected, after),
            )
        )
    return found


def _more_iterations(goal: Goal, taken: int) -> str:
    """The raise that gives the ``taken`` iterations a lowered `iterations_used` won back,
    as a command that works as written (none when the iteration limit is unbounded)."""
    limit = budget_in_force(goal).iterations
    if limit is None or limit + taken > BUDGET_LIMIT_MAX:
        return ""
    return (
        f"; a person raises the budget with `goalfile budget {shell_word(goal.path)} "
        f"--iterations {limit + taken}` instead"
    )


def _raise_to(goal: Goal, name: str, expected: int | None, typed: int | None) -> str:
    """The `goalfile budget` command that ledgers the limit typed by hand, when it is a raise
    `budget` takes (none for a lowered limit, or to or from unbounded)."""
    if expected is None or typed is None or not expected < typed <= BUDGET_LIMIT_MAX:
        return ""
    return (
        f"; a person raises it with `goalfile budget {shell_word(goal.path)} --{name} {typed}`, "
        "which ledgers it"
    )


def _limit(value: int | None) -> str:
    return "unbounded" if value is None else str(value)


def counter_history(
    goal: Goal, old_goal: Goal, current: Sequence[Block], added: set[int], ref: str
) -> list[AuditFinding]:
    """Frontmatter values that decide when the Stop hook lets go, changed since ``ref`` by
    hand: ``iterations-used-unbacked`` (raised beyond the iterations that the `plan` and
    `stop-hook` entries added since ``ref`` started, one at a time) and
    ``stall-limit-lowered`` (no command sets it)."""
    from goalfile.handedit import ITERATION_BY
    from goalfile.progress import stall_limit

    found: list[AuditFinding] = []
    backed = old_goal.iterations_used
    for block in current:  # in text order
        entry = block.entry
        if entry.line in added and entry.by in ITERATION_BY:
            backed = max(backed, min(entry.iteration, backed + 1))
    if goal.iterations_used > max(old_goal.iterations_used, backed):
        found.append(
            AuditFinding(
                code="iterations-used-unbacked",
                path=goal.path,
                line=goal.key_line("iterations_used"),
                message=f"iterations_used went up since {ref} ({old_goal.iterations_used} → "
                f"{goal.iterations_used}), but the ledger's `plan` and `stop-hook` entries "
                f"started iterations up to {backed} only",
                hint=f"{_set_back(goal, 'iterations_used', backed)}; iterations start with "
                f"`goalfile plan {shell_word(goal.path)}` or the Stop hook, which ledger them",
            )
        )
    old_limit, new_limit = stall_limit(old_goal.meta), stall_limit(goal.meta)
    if new_limit < old_limit:
        line = goal.key_line("stall_limit")
        hint = (
            f"{set_key_command(goal.path, line, 'stall_limit', str(old_limit))}"
            if line is not None
            else insert_lines_command(goal.path, 1, [f"stall_limit: {old_limit}"])
        )
        found.append(
            AuditFinding(
                code="stall-limit-lowered",
                path=goal.path,
                line=line,
                message=f"stall_limit went down since {ref} ({old_limit} → {new_limit}): fewer "
                "identical verify runs now block the goal and let the agent stop",
                hint=f"{hint}; a person changes it in a reviewed commit of its own",
            )
        )
    return found


def impossible_findings(goal: Goal) -> list[AuditFinding]:
    """``impossible-unbacked``: a row the frontmatter marks impossible with no ``by
    impossible`` entry that records it (verify runs such a row)."""
    from goalfile.handedit import impossible_backed, marked_impossible

    marked = marked_impossible(goal)
    if not marked:
        return []
    backed = impossible_backed(goal)
    return [
        AuditFinding(
            code="impossible-unbacked",
            path=goal.path,
            line=goal.key_line(f"impossible.{row}"),
            message=f"{row} is marked impossible in the frontmatter, but no `by impossible` "
            "entry records it; verify runs the row",
            hint="remove the mark, or have a person run `goalfile impossible "
            f"{shell_word(goal.path)} "
            f"{row} --reason TEXT`, which ledgers it",
            row=row,
        )
        for row in marked
        if row not in backed
    ]


def budget_findings(goal: Goal, *, skip: Sequence[AuditFinding] = ()) -> list[AuditFinding]:
    """``budget-unbacked``: a frontmatter budget limit that differs from the one the ledger
    records (:func:`goalfile.handedit.unbacked_budget`, the error `lint` and `status` report
    too); every command goes by the ledger's. ``budget-record-invalid``: a budget line of the
    ledger goalfile cannot read (:func:`goalfile.handedit.unreadable_budget`; goalfile never
    writes one, so an audit fails on it whatever lint's severity). A limit ``skip`` already
    reports on its line (``budget-raised-unledgered``, with ``--against``) is not reported
    twice."""
    from goalfile.handedit import unbacked_budget, unreadable_budget

    taken = {f.line for f in skip if f.code == "budget-raised-unledgered"}
    return [
        AuditFinding(
            code=found.code,
            path=goal.path,
            line=found.line,
            message=found.message,
            hint=found.hint or "",
        )
        for found in (*unbacked_budget(goal), *unreadable_budget(goal))
        if found.line not in taken or found.code == "budget-record-invalid"
    ]


def accounting_history(goal: Goal, old_goal: Goal, ref: str) -> list[AuditFinding]:
    """``accounting-row-rewritten``: a session row of ``## Token accounting`` present at
    ``ref`` that is gone, whose baseline changed, or whose latest went down. verify only adds
    rows and raises ``latest``; an edit of the table is how usage would be hidden, and how
    a host guard reading the table was once fooled."""
    from goalfile.accounting import parse_accounting

    try:
        old = parse_accounting(old_goal.text, path=goal.path)
        new = parse_accounting(goal.text, path=goal.path)
    except GoalfileError:  # an unreadable table is lint's finding
        return []
    found: list[AuditFinding] = []
    for before in old.rows:
        index, now = next(
            ((i, row) for i, row in enumerate(new.rows) if row.session == before.session),
            (None, None),
        )
        if now is None or index is None:
            what = "is gone"
            line = (new.heading + 1) if new.heading is not None else None
        elif now.baseline != before.baseline:
            what = f"has baseline {now.baseline} (was {before.baseline})"
            line = None if new.start is None else new.start + 3 + index
        elif now.latest < before.latest:
            what = f"has latest {now.latest} (was {before.latest})"
            line = None if new.start is None else new.start + 3 + index
        else:
            continue
        found.append(
            AuditFinding(
                code="accounting-row-rewritten",
                path=goal.path,
                line=line,
                message=f"the token accounting row of session `{before.session}` {what} since "
                f"{ref}: verify only adds rows, keeps each baseline and raises latest",
                hint=f"restore the row as `{show_command(ref, goal.path)}` has it "
                f"(baseline {before.baseline}, latest at least {before.latest})",
            )
        )
    return found
