"""goalfile.progress: the status a verify run leads to, and stall detection (pure). Stall
detection through `goalfile verify` is tested end to end in test_lifecycle.py."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from goalfile import ledger
from goalfile.model import Entry, RowResult, Status, Verdict
from goalfile.progress import (
    DEFAULT_STALL_LIMIT,
    as_recorded,
    decide_status,
    fingerprint,
    same_runs,
    stall_limit,
)
from goalfile.value import replace


def row(cid: str, verdict: Verdict, evidence: str = "ok", *, quoted: bool = True) -> RowResult:
    return RowResult(
        id=cid,
        verdict=verdict,
        command=f"check {cid}",
        exit="-" if verdict is Verdict.IMPOSSIBLE else "0",
        evidence=evidence,
        evidence_quoted=quoted,
    )


MET, UNMET, ERROR, IMPOSSIBLE = Verdict.MET, Verdict.UNMET, Verdict.ERROR, Verdict.IMPOSSIBLE


# --- decide_status ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verdicts", "status"),
    [
        ((MET,), Status.MET),
        ((MET, MET, MET), Status.MET),
        ((MET, UNMET), Status.ACTIVE),
        ((UNMET, UNMET), Status.ACTIVE),
        ((MET, ERROR), Status.BLOCKED),
        ((UNMET, ERROR, MET), Status.BLOCKED),
        ((ERROR, IMPOSSIBLE), Status.BLOCKED),
        ((UNMET, IMPOSSIBLE), Status.ACTIVE),
        ((), Status.ACTIVE),
    ],
)
def test_decide_status(verdicts: Sequence[Verdict], status: Status) -> None:
    rows = [row(f"C{i}", v, "marked impossible: x") for i, v in enumerate(verdicts, 1)]
    decided, reason = decide_status(rows)
    assert decided is status
    assert reason is None


def test_an_impossible_row_blocks_a_goal_whose_other_rows_are_met() -> None:
    rows = [
        row("C1", MET),
        row("C2", MET),
        row("C3", IMPOSSIBLE, "marked impossible: needs a GPU", quoted=False),
    ]
    assert decide_status(rows) == (
        Status.BLOCKED,
        "not completable: C3 marked impossible: needs a GPU",
    )


def test_the_first_impossible_row_is_named() -> None:
    rows = [
        row("C1", IMPOSSIBLE, "marked impossible: first", quoted=False),
        row("C2", MET),
        row("C3", IMPOSSIBLE, "marked impossible: second", quoted=False),
    ]
    assert decide_status(rows) == (Status.BLOCKED, "not completable: C1 marked impossible: first")


def test_every_row_impossible_is_not_completable_never_met() -> None:
    rows = [row("C1", IMPOSSIBLE, "marked impossible: no", quoted=False)]
    assert decide_status(rows) == (Status.BLOCKED, "not completable: C1 marked impossible: no")


# --- fingerprints and stalls --------------------------------------------------------------


def verify(rows: Sequence[RowResult], *, iteration: int = 1, by: str = ledger.VERIFY_BY) -> Entry:
    return Entry(
        iteration=iteration, date="2026-11-30", by=by, rows=tuple(rows), status=Status.ACTIVE
    )


def read_back(entry: Entry) -> Entry:
    """The entry as a later run reads it from the file."""
    parsed = ledger.parse_entry(ledger.render_entry(entry))
    assert parsed is not None
    return parsed


A = [row("C1", MET, "12 passed"), row("C2", UNMET, "3 failed")]
B = [row("C1", MET, "12 passed"), row("C2", UNMET, "2 failed")]


def test_fingerprint_is_verdicts_and_evidence() -> None:
    assert fingerprint(verify(A)) == (("C1", "met", "12 passed"), ("C2", "unmet", "3 failed"))
    assert fingerprint(verify(A)) != fingerprint(verify(B))
    other_verdict = [row("C1", MET, "12 passed"), row("C2", ERROR, "3 failed")]
    assert fingerprint(verify(A)) != fingerprint(verify(other_verdict))


def test_fingerprint_ignores_iteration_date_status_and_exit() -> None:
    later = Entry(
        iteration=4,
        date="2026-12-24",
        by=ledger.VERIFY_BY,
        rows=tuple(replace(r, exit="1", elapsed=9.5) for r in A),
        status=Status.BLOCKED,
    )
    assert fingerprint(later) == fingerprint(verify(A))


def test_same_runs_counts_the_current_run_and_identical_ones_before_it() -> None:
    current = verify(A)
    assert same_runs(current, []) == 1
    assert same_runs(current, [read_back(verify(A))]) == 2
    assert same_runs(current, [read_back(verify(A)), read_back(verify(A))]) == 3
    # newest first: a different run stops the count
    assert (
        same_runs(current, [read_back(verify(A)), read_back(verify(B)), read_back(verify(A))]) == 2
    )
    assert same_runs(current, [read_back(verify(B)), read_back(verify(A))]) == 1


def test_same_runs_skips_entries_of_other_commands() -> None:
    others = [
        read_back(verify(A)),
        read_back(Entry(iteration=2, date="2026-11-30", by="plan", notes=("plan revision 2",))),
        read_back(Entry(iteration=1, date="2026-11-30", by="refine", notes=("backlog",))),
        read_back(verify(A)),
    ]
    assert same_runs(verify(A), others) == 3


def test_same_runs_compares_the_current_run_as_it_will_be_recorded() -> None:
    """Evidence is normalised when written (control characters and ANSI colour dropped); the
    current run must compare equal to its identical predecessors as read from the file."""
    noisy = [row("C1", UNMET, "\x1b[31m3 \x07failed\x1b[0m"), row("C2", MET, "a | b")]
    assert same_runs(verify(noisy), [read_back(verify(noisy)), read_back(verify(noisy))]) == 3
    recorded = as_recorded(verify(noisy))
    assert fingerprint(recorded) == (("C1", "unmet", "3 failed"), ("C2", "met", "a | b"))


def test_same_runs_with_prose_and_labelled_evidence() -> None:
    rows = [
        row("C1", UNMET, "not run: token budget reached", quoted=False),
        RowResult(
            id="R1",
            verdict=MET,
            command="docs/a.md",
            exit="-",
            evidence="token is rotated",
            evidence_quoted=True,
            evidence_label="review:",
        ),
    ]
    assert same_runs(verify(rows), [read_back(verify(rows))]) == 2


@pytest.mark.parametrize(
    ("meta", "limit"),
    [
        ({}, 3),
        ({"stall_limit": 2}, 2),
        ({"stall_limit": 10}, 10),
        ({"stall_limit": 1}, 2),  # "no progress" needs two runs compared
        ({"stall_limit": 0}, 3),
        ({"stall_limit": -2}, 3),
        ({"stall_limit": "2"}, 3),
        ({"stall_limit": True}, 3),
        ({"stall_limit": 2.5}, 3),
        ({"stall_limit": None}, 3),
    ],
)
def test_stall_limit(meta: dict[str, object], limit: int) -> None:
    assert DEFAULT_STALL_LIMIT == 3
    assert stall_limit(meta) == limit
