"""Deciding a goal's status from a verify run, and noticing when runs stop making progress."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from goalfile import ledger
from goalfile.model import Entry, RowResult, Status, Verdict
from goalfile.parse import ledger_region

DEFAULT_STALL_LIMIT = 3
MIN_STALL_LIMIT = 2  # runs compared before "no progress" can be said
# entries that mean a person stepped in: a run after them starts a new streak
FRESH_START = frozenset({"activate", "resume", "budget"})
# the entries a streak is decided by; the others are skipped unread
STREAK_BY = FRESH_START | {ledger.VERIFY_BY}


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


# durations in evidence ("42 passed in 3.1s", "took 0:01:02") change on every run; compiled
# on first use (by re's own cache): only a run that may stall compares evidence
_DURATION = (
    r"(?i)\b\d+(?:[.,]\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds?|m|min|mins|minutes?|h)\b"
    r"|\b\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?\b"
)


def fingerprint(entry: Entry) -> tuple[tuple[str, str, str], ...]:
    """What must change between runs for them to count as progress: each row's verdict and
    evidence, with durations masked."""
    return tuple(
        (row.id, row.verdict.value, re.sub(_DURATION, "<t>", row.evidence.strip()))
        for row in entry.rows
    )


def as_recorded(entry: Entry) -> Entry:
    """The entry as it will read back from the file (rendering normalises evidence)."""
    parsed = ledger.parse_entry(ledger.render_entry(entry))
    assert parsed is not None
    return parsed


def _streak(mark: tuple[tuple[str, str, str], ...], previous: Iterator[Entry]) -> int:
    """How many verify entries from ``previous`` (newest first) in a row share ``mark``.

    Entries of other commands are skipped; an activate, resume or budget entry ends the streak.
    """
    count = 0
    for entry in previous:
        if entry.by in FRESH_START:
            break
        if entry.by != ledger.VERIFY_BY:
            continue
        if fingerprint(entry) != mark:
            break
        count += 1
    return count


def same_runs(current: Entry, previous: Iterable[Entry]) -> int:
    """How many verify runs in a row, the current one included, have the same fingerprint."""
    return 1 + _streak(fingerprint(as_recorded(current)), iter(previous))


def recorded_streak(entries_newest_first: Iterable[Entry]) -> int:
    """The streak the ledger already shows: 0 when no verify entry follows the last fresh start."""
    entries = iter(entries_newest_first)
    for entry in entries:
        if entry.by in FRESH_START:
            return 0
        if entry.by == ledger.VERIFY_BY:
            return 1 + _streak(fingerprint(entry), entries)
    return 0


def ledger_streak(text: str) -> int:
    """The streak a goal file's ledger shows (see :func:`recorded_streak`)."""
    region = ledger_region(text)
    if region is None:
        return 0
    return recorded_streak(ledger.newest_first(text, *region, by=STREAK_BY))


def stall_limit(meta: dict[str, object]) -> int:
    """The frontmatter ``stall_limit`` (default 3), never below 2: "no progress" needs two
    runs compared, so a `stall_limit: 1` typed into the goal cannot block it at its first
    verify."""
    value = meta.get("stall_limit")
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return max(value, MIN_STALL_LIMIT)
    return DEFAULT_STALL_LIMIT
