"""Why a row is not met, in one line: the failed clauses with what was seen, then the output
line that decided. Used by the console, ``--json`` and the Stop hook's reason alike."""

from __future__ import annotations

from goalfile.ledger import clean_line
from goalfile.model import RowResult, Verdict


def why_line(row: RowResult, *, limit: int = 1_000) -> str:
    """``exit 0 expected, got 1; stdout contains "passed": not found; last line: `...` ``
    for an unmet or error row; the evidence for any other."""
    reasons = row.reasons
    if not reasons:
        return clean_line(row.evidence, limit=limit)
    text = "; ".join(reasons)
    if row.verdict is Verdict.UNMET and row.evidence_quoted and row.evidence:
        label = row.evidence_label or "last line:"
        text += f"; {label} {row.evidence}"
    elif (  # not again: a row read from the ledger has it in its reasons already
        row.verdict is Verdict.UNMET
        and row.evidence.endswith("(no output)")
        and not text.endswith("(no output)")
    ):
        text += " (no output)"
    return clean_line(text, limit=limit)
