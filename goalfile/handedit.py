"""A frontmatter status the ledger does not back (DESIGN §10): one rule for every command.

A hand edit that asks for more work is accepted: `active` where the ledger's newest status
is `met`, `blocked`, `exhausted` or `paused` (the refine-goal skill reopens a goal this way).
The next entry a command writes records it: "reopened by hand (was met)". A `met` that the
newest verify entry does not back is an error everywhere (lint, status, verify, plan): only
`goalfile verify` writes `met`, and only when every row is met.
"""

from __future__ import annotations

from goalfile import ledger
from goalfile.model import Entry, Finding, Goal, Severity, Status
from goalfile.parse import ledger_region

REOPENABLE = frozenset({Status.MET, Status.BLOCKED, Status.EXHAUSTED, Status.PAUSED})
REOPENED_BY_HAND = "reopened by hand"


def ledger_status(goal: Goal) -> Entry | None:
    """The newest entry with a ``status:`` line, or None."""
    region = ledger_region(goal.text)
    return ledger.newest_status(goal.text, *region) if region is not None else None


def reopened_from(goal: Goal) -> Status | None:
    """The status the ledger records when the frontmatter was set to `active` by hand from
    one that asks for no more work; None when there was no such edit."""
    if goal.status is not Status.ACTIVE:
        return None
    entry = ledger_status(goal)
    if entry is not None and entry.status in REOPENABLE:
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


def unbacked_met(goal: Goal) -> Finding | None:
    """An error when the frontmatter says `met` and the newest verify entry does not."""
    if goal.status is not Status.MET:
        return None
    region = ledger_region(goal.text)
    verified = (
        ledger.newest(goal.text, *region, by=(ledger.VERIFY_BY,)) if region is not None else None
    )
    latest = ledger_status(goal)
    if (
        verified is not None
        and verified.status is Status.MET
        and latest is not None
        and latest.status is Status.MET
    ):
        return None
    if verified is None:
        why = "the ledger has no verify entry"
    elif verified.status is not Status.MET:
        shown = verified.status.value if verified.status else "no status"
        why = f"the newest verify entry (iteration {verified.iteration}) says `{shown}`"
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
        hint=f"set `status: active` and run `goalfile verify {goal.path}`",
    )
