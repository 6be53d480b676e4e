"""One way the newest verify entry falls short of backing a `met`
(:func:`goalfile.handedit.met_gaps`). Apart from :mod:`goalfile.handedit` so that reading a
met goal whose newest verify entry backs it (every verify, `status` and Stop hook of a met
goal) does not build the class."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class MetGap:
    """One way the newest verify entry falls short of backing a `met`
    (:func:`goalfile.handedit.met_gaps`)."""

    code: str  # the finding's code, as `audit` reports it
    row: str | None  # the criterion concerned; None for the entry as a whole
    line: int | None  # the criterion's line, for a row the entry does not judge
    why: str  # what is wrong, as a clause: "the goal is `met`, but {why}"
