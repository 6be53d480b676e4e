"""Deciding a goal's status from a verify run, and noticing when runs stop making progress."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from goalfile import ledger
from goalfile.model import Entry, RowResult, Status, Verdict

DEFAULT_STALL_LIMIT = 3


def decide_status(rows: Sequence[RowResult]) -> tuple[Status, str | None]:
    """DESIGN §5: any error → blocked; every row met → met; else active.

    A row marked impossible can never be met: when it is the only thing standing between the
    goal and met, the goal is blocked as not completable.
    """
    verdicts = [row.verdict for row in rows]
    if Verdict.ERROR in verdicts:
        return Status.BLOCKED, None
    impossible = [row for row in rows if row.verdict is Verdict.IMPOSSIBLE]
    others = [row for row in rows if row.verdict is not Verdict.IMPOSSIBLE]
    if impossible and all(row.verdict is Verdict.MET for row in others):
        first = impossible[0]
        return Status.BLOCKED, f"not completable: {first.id} {first.evidence}"
    if verdicts and all(v is Verdict.MET for v in verdicts):
        return Status.MET, None
    return Status.ACTIVE, None


def fingerprint(entry: Entry) -> tuple[tuple[str, str, str], ...]:
    """What must change between runs for them to count as progress: verdicts and evidence."""
    return tuple((row.id, row.verdict.value, row.evidence) for row in entry.rows)


def as_recorded(entry: Entry) -> Entry:
    """The entry as it will read back from the file (rendering normalises evidence)."""
    parsed = ledger.parse_entry(ledger.render_entry(entry))
    assert parsed is not None
    return parsed


def same_runs(current: Entry, previous: Iterable[Entry]) -> int:
    """How many verify entries in a row, the current one included, have the same fingerprint.

    ``previous`` yields earlier entries newest first; entries of other commands are skipped.
    """
    mark = fingerprint(as_recorded(current))
    count = 1
    for entry in previous:
        if entry.by != ledger.VERIFY_BY:
            continue
        if fingerprint(entry) != mark:
            break
        count += 1
    return count


def stall_limit(meta: dict[str, object]) -> int:
    value = meta.get("stall_limit")
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return DEFAULT_STALL_LIMIT
