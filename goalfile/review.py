"""Review records in the ledger, and quote matching: pure.

A review is an entry ``### Iteration <n> (<date>) by review`` holding four lines::

    review of R1: met
    artifact: `docs/auth.md`
    quote: `the refresh token is rotated on every use`
    reason: describes rotation and expiry

A quote counts only while it occurs in the artifact, compared with whitespace normalised.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from goalfile import ledger
from goalfile.model import Entry, Verdict

REVIEW_BY = "review"
_REVIEW_RE = re.compile(r"^review of (\S+): (met|unmet)$")


@dataclass(frozen=True, kw_only=True)
class Review:
    id: str
    verdict: Verdict
    artifact: str
    quote: str
    reason: str
    iteration: int


def normalise(text: str) -> str:
    return " ".join(text.split())


def quote_present(quote: str, artifact_text: str) -> bool:
    wanted = normalise(quote)
    return bool(wanted) and wanted in normalise(artifact_text)


def render_review(
    *,
    iteration: int,
    date: str,
    row_id: str,
    verdict: Verdict,
    artifact: str,
    quote: str,
    reason: str,
    preface: Sequence[str] = (),
) -> list[str]:
    """The review entry; ``preface`` lines come first (the note of a reopening by hand)."""
    entry = Entry(
        iteration=iteration,
        date=date,
        by=REVIEW_BY,
        notes=(
            *preface,
            f"review of {row_id}: {verdict.value}",
            f"artifact: {ledger.note_code(artifact)}",
            f"quote: {ledger.note_code(quote) if quote else '-'}",
            "reason: "
            + (
                ledger.md_text(ledger.clean_line(reason, limit=4000), before=" ", spans=True) or "-"
            ),
        ),
    )
    return ledger.render_entry(entry)


def read_review(entry: Entry) -> Review | None:
    if entry.by != REVIEW_BY:
        return None
    fields: dict[str, str] = {}
    head = None
    for note in entry.notes:
        match = _REVIEW_RE.match(ledger.unescaped(note))  # as the entry's meaning reads it
        if match:
            head = match
            continue
        key, sep, value = note.partition(": ")
        if not (sep and key in ("artifact", "quote", "reason")):
            key, sep, value = ledger.unescaped(note).partition(": ")
        if sep and key in ("artifact", "quote", "reason"):
            fields[key] = value
    if head is None or "artifact" not in fields:
        return None
    quote = fields.get("quote", "-")
    return Review(
        id=head.group(1),
        verdict=Verdict(head.group(2)),
        artifact=ledger.note_code_text(fields["artifact"]),
        quote="" if quote == "-" else ledger.note_code_text(quote),
        reason=ledger.shown_text(fields.get("reason", "")),
        iteration=entry.iteration,
    )


def review_in_verify_entry(entry: Entry, row_id: str) -> Review | None:
    """A review recorded the verify-goal skill's way: in a ``by verify-goal`` entry, the row's
    verdict with the quoted passage as its evidence (a code span) and the artifact as its
    command. goalfile's own verify entries never quote a review row's evidence this way (they
    label it ``review:`` or ``judge:``), so only a recorded review is read."""
    if entry.by != ledger.VERIFY_BY:
        return None
    for row in entry.rows:
        if row.id != row_id or not row.evidence_quoted or row.evidence_label:
            continue
        if row.verdict not in (Verdict.MET, Verdict.UNMET) or not row.evidence.strip():
            continue
        artifact = row.command.strip()
        if len(artifact.split()) > 1:  # prose naming the artifact last, as in a check cell
            artifact = artifact.split()[-1].rstrip(".,;:").strip("`")
        return Review(
            id=row_id,
            verdict=row.verdict,
            artifact=artifact,
            quote=row.evidence,
            reason="recorded in the verify-goal entry",
            iteration=entry.iteration,
        )
    return None


def latest_review(
    text: str, region: tuple[int, int], *, row_id: str, iteration: int
) -> Review | None:
    """The newest review of ``row_id`` recorded at ``iteration`` (entries are read newest first,
    and reading stops at the first entry of an earlier iteration): a ``by review`` entry, or a
    verify-goal entry that quotes the passage as the row's evidence. Entries of other commands
    are not read."""
    for head in ledger.heads(text, *region):
        if head.iteration < iteration:
            return None
        if head.by not in (REVIEW_BY, ledger.VERIFY_BY):
            continue
        entry = ledger.read(text, head)
        found = read_review(entry) or review_in_verify_entry(entry, row_id)
        if found is not None and found.id == row_id and found.iteration == iteration:
            return found
    return None
