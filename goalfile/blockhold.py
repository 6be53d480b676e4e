"""A `blocked` that a verify run wrote holds the agent once per ledger entry (docs/trust.md).

verify writes `blocked` for reasons the agent can bring about itself: an `error` row (a check
whose code it made exit 127, or that a `--time-limit` of its choosing cut short), the stall
guard (the same run repeated without a change) and a token budget whose usage cannot be
measured. Such a block, whoever ran the verify, is no way to stop unseen: the Stop hook holds
the agent once for it, and ledgers that it did, so that it lets the agent go, with the message,
at every later stop on the same entry (a host sends ``stop_hook_active`` false at each new turn,
and Gemini CLI may send it false at every stop). The record is an entry of the goal's own
ledger (``### Iteration N (DATE) by stop-hook-hold``), where git, the pull request and `audit`
show it; the agent could type one itself, but not unseen, and the stop it then makes is still
let go only with the message. Nor does the entry count on its own: the agent's own `goalfile
hook stop` writes it too, so a later stop is let go only when the host's transcript shows the
host's own record of the hold (:mod:`goalfile.holdseen`).

A block someone declares is not such a block: `goalfile block` (with its reason and what was
tried) and a row marked impossible by `goalfile impossible` (verify's `not completable`).

The functions here are pure: they read and edit the goal file's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from goalfile import edit, ledger
from goalfile.model import Entry, Goal, RowResult, Status, Verdict
from goalfile.parse import ledger_region

__all__ = ["HOLD_BY", "VerifyBlock", "made_by_verify", "verify_made", "with_hold"]

HOLD_BY = "stop-hook-hold"
DECLARED = "not completable"  # verify's reason when a row marked impossible blocks the goal


def verify_made(status: Status, reason: str | None, rows: Sequence[RowResult]) -> bool:
    """Whether a verify run that ended in ``status`` (with ``reason`` and ``rows``) wrote a
    block that holds the agent once: any `blocked` but the one a marked-impossible row
    decides."""
    if status is not Status.BLOCKED:
        return False
    if any(row.verdict is Verdict.ERROR for row in rows):
        return True
    return not (reason or "").startswith(DECLARED)


@dataclass(frozen=True, kw_only=True)
class VerifyBlock:
    """The verify entry that left the goal `blocked`, and whether the hook held for it."""

    entry: Entry
    held: bool

    def summary(self, slug: str) -> str:
        """The summary line the run that wrote the entry printed."""
        entry = self.entry
        return ledger.summary_line(
            slug=slug,
            iteration=entry.iteration,
            rows=entry.rows,
            status=Status.BLOCKED,
            reason=entry.status_reason,
        )


def made_by_verify(text: str) -> VerifyBlock | None:
    """The entry that decides the goal's status in ``text``, when it is a verify entry that
    wrote a block holding the agent once (:func:`verify_made`), and whether a hold entry
    follows it; None otherwise (another status, a declared block, no ledger)."""
    region = ledger_region(text)
    if region is None:
        return None
    held = False
    for entry in ledger.newest_first(text, *region):
        if entry.by == HOLD_BY:
            held = True
        if entry.status is None:
            continue
        if entry.by != ledger.VERIFY_BY:
            return None
        if not verify_made(entry.status, entry.status_reason, entry.rows):
            return None
        return VerifyBlock(entry=entry, held=held)
    return None


def with_hold(text: str, goal: Goal, *, today: str, why: str) -> tuple[str, Goal]:
    """``text`` (read as ``goal``) with the hold's entry appended, read back as every write
    is (:func:`goalfile.edit.check_written`); raises, leaving the text as it is, when it
    would not read back."""
    new_text = edit.with_hook_note(
        text,
        iteration=goal.iterations_used,
        today=today,
        by=HOLD_BY,
        note="the Stop hook held the agent once on this block:",
        why=why,
    )
    return new_text, edit.check_written(goal, new_text)
