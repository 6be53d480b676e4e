"""Token accounting: the ``## Token accounting`` table of a goal, fed from host transcripts.

The table holds one row per host session that ``verify --transcript`` has seen::

    | session | host | transcript | baseline | latest |
    |---------|------|------------|----------|--------|
    | `7c0f3e1a-…` | claude | `~/.claude/projects/-repo/7c0f3e1a-….jsonl` | 3170 | 5012 |

* ``baseline`` is the session's usage the first time goalfile read its transcript; what the
  session spent before that (writing the goal, unrelated work) is not charged to the goal.
* ``latest`` is the usage at the most recent read. It never goes down.
* A ``baseline`` above the session's usage (no read can have written it: the baseline is the
  usage at the first read, and a session's usage only grows; an edit of the table) is
  re-based on the next read: ``baseline`` and ``latest`` become the usage read. So such an
  edit cannot stop the counting of later usage (a ``latest`` set high only counts more);
  ``audit --against`` reports the edit (``accounting-row-rewritten``).
* The goal's ``tokens_used`` is the sum over rows of ``latest - baseline``. Rows are keyed on the
  session id, so reading the same transcript again, whole or in part, never counts twice.
* Usage reported before the table existed (``--tokens-used``) is kept: ``tokens_used`` only grows
  by what the sessions added since they were last recorded.

Two layers: pure text functions (:func:`parse_accounting`, :func:`render_table`,
:func:`apply_rows`, :func:`record`) and :class:`TokenMeter`, which reads the transcript
incrementally through :class:`goalfile.usage.TranscriptReader` for ``verify``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from goalfile.errors import GoalfileError, GoalFileInvalid
from goalfile.ledger import code_span, plain_cell, table_lines
from goalfile.model import Goal
from goalfile.parse import ledger_bounds, section_key
from goalfile.prose import span_text

if TYPE_CHECKING:  # the transcript readers are imported only when a transcript is read
    from goalfile.usage import Host, SessionUsage

__all__ = [
    "COLUMNS",
    "SECTION",
    "Accounting",
    "SessionRow",
    "TokenMeter",
    "apply_rows",
    "parse_accounting",
    "record",
    "render_table",
    "tokens_total",
    "transcript_label",
]

SECTION = "Token accounting"
BEFORE = "iterations"  # a missing section is created before this one
COLUMNS = ("session", "host", "transcript", "baseline", "latest")
COLUMNS = ("session", "host", "transcript", "baseline", "latest")
HEADER = "| session | host | transcript | baseline | latest |"  # as written before (compact)

_CELL_SPLIT_RE = re.compile(r"(?<!\\)\|")
_RULE_CELL_RE = re.compile(r"^\s*:?-{1,}:?\s*$")
_HEADING_RE = re.compile(r"^##[ \t]+(.*?)[ \t#]*$")
_NEXT_SECTION_RE = re.compile(r"^#{1,2}[ \t]")
_H2_RE = re.compile(r"^##[ \t]", re.MULTILINE)
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True, kw_only=True)
class SessionRow:
    """One host session's usage as far as goalfile has read it."""

    session: str
    host: str
    transcript: str  # a label: the path, with the home folder written as `~`
    baseline: int
    latest: int

    @property
    def used(self) -> int:
        return max(self.latest - self.baseline, 0)


@dataclass(frozen=True, kw_only=True)
class Accounting:
    """The table as found in a goal file's text.

    ``start``/``end`` are 0-based line indexes of the table (header to last row, end exclusive);
    both are ``None`` when the section has no accounting table. ``heading`` is the 0-based line
    of ``## Token accounting``, ``None`` when the section is missing.
    """

    rows: tuple[SessionRow, ...]
    heading: int | None
    section_end: int | None
    start: int | None
    end: int | None

    def row(self, session: str) -> SessionRow | None:
        for row in self.rows:
            if row.session == session:
                return row
        return None


# --- pure text functions ------------------------------------------------------------------


def tokens_total(rows: Sequence[SessionRow]) -> int:
    """The sum over sessions of ``latest - baseline``."""
    return sum(row.used for row in rows)


def transcript_label(path: str, *, home: str | None) -> str:
    """The transcript path as recorded: absolute, with the home folder written as ``~``.

    Goal files are committed; ``~`` keeps user names out of them and reads the same on every
    machine.
    """
    absolute = os.path.abspath(path)
    if home:
        home = os.path.abspath(home)
        if absolute == home or absolute.startswith(home.rstrip(os.sep) + os.sep):
            return "~" + absolute[len(home.rstrip(os.sep)) :]
    return absolute


def record(
    rows: Sequence[SessionRow], usage: SessionUsage, *, baseline: int, transcript: str
) -> tuple[SessionRow, ...]:
    """The rows with ``usage`` recorded: an existing session keeps its baseline and its latest
    only grows, unless its baseline is above the usage (an edit: the row is re-based on the
    usage); a new session is appended with ``baseline``."""
    out: list[SessionRow] = []
    found = False
    for row in rows:
        if row.session == usage.session_id:
            found = True
            row = replace(
                row,
                host=usage.host.value,
                transcript=transcript,
                baseline=min(row.baseline, usage.tokens),
                latest=(
                    usage.tokens if row.baseline > usage.tokens else max(row.latest, usage.tokens)
                ),
            )
        out.append(row)
    if not found:
        out.append(
            SessionRow(
                session=usage.session_id,
                host=usage.host.value,
                transcript=transcript,
                baseline=baseline,
                latest=max(usage.tokens, baseline),
            )
        )
    return tuple(out)


def render_table(rows: Sequence[SessionRow]) -> list[str]:
    """The table's lines, without line endings, padded as mdformat pads a table."""
    return table_lines(
        COLUMNS,
        [
            [
                code_span(row.session),
                plain_cell(row.host),
                code_span(row.transcript),
                str(row.baseline),
                str(row.latest),
            ]
            for row in rows
        ],
    )


def parse_accounting(text: str, *, path: str = "") -> Accounting:
    """Find and read the ``## Token accounting`` table. A row that cannot be read raises
    :class:`~goalfile.errors.GoalFileInvalid` naming its line and column."""
    lines = _lines_before_ledger(text)
    heading, section_end = _section(lines)
    if heading is None and _heading_after_ledger(text):
        lines = text.split("\n")
        heading, section_end = _section(lines)
    if heading is None or section_end is None:
        return Accounting(rows=(), heading=None, section_end=None, start=None, end=None)
    index = heading + 1
    while index < section_end:
        cells = _cells(lines[index])
        if cells is not None and _is_header(cells) and index + 1 < section_end:
            rule = _cells(lines[index + 1])
            if rule is not None and rule and all(_RULE_CELL_RE.match(c) for c in rule):
                return _read_table(lines, index, section_end, cells, path=path, heading=heading)
        index += 1
    return Accounting(rows=(), heading=heading, section_end=section_end, start=None, end=None)


def apply_rows(text: str, rows: Sequence[SessionRow], *, path: str = "") -> str:
    """Write ``rows`` as the accounting table; only the table's lines change.

    A section without a table gets one at its end; a missing section is created before
    ``## Iterations`` (else at the end). When the rows read from ``text`` already equal
    ``rows`` the text is returned unchanged.
    """
    found = parse_accounting(text, path=path)
    if found.start is not None and tuple(found.rows) == tuple(rows):
        return text
    lines = text.split("\n")
    cr = "\r" if lines[0].endswith("\r") else ""
    table = [line + cr for line in render_table(rows)]
    if found.start is not None and found.end is not None:
        return "\n".join([*lines[: found.start], *table, *lines[found.end :]])
    if found.heading is not None and found.section_end is not None:
        content_end = _trim_blank(lines, found.section_end, floor=found.heading + 1)
        if found.section_end >= len(lines):
            return "\n".join([*lines[:content_end], cr, *table]) + "\n"
        return "\n".join([*lines[:content_end], cr, *table, cr, *lines[found.section_end :]])
    title = f"## {SECTION}{cr}"
    before = _heading_of(lines, BEFORE)
    if before is None:
        content_end = _trim_blank(lines, len(lines), floor=0)
        return "\n".join([*lines[:content_end], cr, title, cr, *table]) + "\n"
    prefix = _trim_blank(lines, before, floor=0)
    return "\n".join([*lines[:prefix], cr, title, cr, *table, cr, *lines[before:]])


# --- helpers --------------------------------------------------------------------------------


def _cells(line: str) -> list[str] | None:
    stripped = line.rstrip("\r").strip()
    if not stripped.startswith("|"):
        return None
    parts = _CELL_SPLIT_RE.split(stripped)[1:]
    if parts and stripped.endswith("|") and not stripped.endswith("\\|"):
        parts = parts[:-1]
    return [cell.strip() for cell in parts]


def _is_header(cells: Sequence[str]) -> bool:
    names = {cell.strip().lower() for cell in cells}
    return set(COLUMNS) <= names


def _unquote(cell: str) -> str:
    match = re.fullmatch(r"(`+)(.*?)\1", cell.strip(), flags=re.S)
    if match:
        # one space off each end unless it is all spaces (U+0020 only: CommonMark's rule),
        # blanks alone as mdformat keeps them
        return span_text(match.group(2)).replace("\\|", "|")
    return cell.strip().replace("\\|", "|")


def _read_table(
    lines: Sequence[str],
    header: int,
    section_end: int,
    names: Sequence[str],
    *,
    path: str,
    heading: int,
) -> Accounting:
    column = {name.strip().lower(): pos for pos, name in enumerate(names)}
    rows: list[SessionRow] = []
    seen: set[str] = set()
    index = header + 2
    while index < section_end:
        raw = lines[index].rstrip("\r")
        cells = _cells(raw)
        if cells is None:
            break
        if len(cells) != len(names):
            raise GoalFileInvalid(
                f"token accounting row has {len(cells)} cells, the header has {len(names)} "
                "(a row is | session | host | transcript | baseline | latest |, as "
                "`goalfile verify` writes it)",
                file=path or None,
                line=index + 1,
                column=1,
            )
        values = {name: cells[pos] for name, pos in column.items()}
        numbers: dict[str, int] = {}
        for name in ("baseline", "latest"):
            cell = values[name]
            if not re.fullmatch(r"\d+", cell):
                raise GoalFileInvalid(
                    f"token accounting {name} {cell!r} is not a whole number",
                    file=path or None,
                    line=index + 1,
                    column=_column_of(raw, column[name]),
                    hint="baseline and latest are token counts written by `goalfile verify`",
                )
            numbers[name] = int(cell)
        session = _unquote(values["session"])
        if not session or session in seen:
            raise GoalFileInvalid(
                "token accounting row without a session id"
                if not session
                else f"session {session!r} appears twice in the token accounting table (it "
                "holds one row per session)",
                file=path or None,
                line=index + 1,
                column=_column_of(raw, column["session"]),
            )
        seen.add(session)
        rows.append(
            SessionRow(
                session=session,
                host=_unquote(values["host"]),
                transcript=_unquote(values["transcript"]),
                baseline=numbers["baseline"],
                latest=numbers["latest"],
            )
        )
        index += 1
    return Accounting(
        rows=tuple(rows), heading=heading, section_end=section_end, start=header, end=index
    )


def _column_of(line: str, cell: int) -> int:
    """1-based column where cell number ``cell`` (0-based) starts."""
    pipes = [m.start() for m in _CELL_SPLIT_RE.finditer(line)]
    if cell < len(pipes):
        start = pipes[cell] + 1
        while start < len(line) and line[start] == " ":
            start += 1
        return start + 1
    return 1


def _lines_before_ledger(text: str) -> list[str]:
    """The lines before ``## Iterations`` (all lines without one): the ledger can be long,
    and the accounting section is above it."""
    bounds = ledger_bounds(text)
    if bounds is None or bounds[0] == 0:
        return text.split("\n")
    return text[: bounds[0] - 1].split("\n")


def _heading_after_ledger(text: str) -> bool:
    """Whether some H2 heading follows the ledger (where the accounting section may be)."""
    bounds = ledger_bounds(text)
    return bounds is not None and _H2_RE.search(text, bounds[2]) is not None


def _section(lines: Sequence[str]) -> tuple[int | None, int | None]:
    heading = _heading_of(lines, section_key(SECTION))
    if heading is None:
        return None, None
    end = heading + 1
    fence: str | None = None
    while end < len(lines):
        stripped = lines[end].rstrip("\r")
        marker = _FENCE_RE.match(stripped)
        if marker:
            kind = marker.group(1)[0]
            fence = kind if fence is None else (None if kind == fence else fence)
        elif fence is None and _NEXT_SECTION_RE.match(stripped):
            break
        end += 1
    return heading, end


def _heading_of(lines: Sequence[str], key: str) -> int | None:
    """0-based line of the first ``## <key>`` heading after the frontmatter, outside fences."""
    fence: str | None = None
    for index in range(_body_start(lines), len(lines)):
        line = lines[index]
        stripped = line.rstrip("\r")
        marker = _FENCE_RE.match(stripped)
        if marker:
            kind = marker.group(1)[0]
            fence = kind if fence is None else (None if kind == fence else fence)
            continue
        if fence is None:
            match = _HEADING_RE.match(stripped)
            if match and section_key(match.group(1)) == key:
                return index
    return None


def _body_start(lines: Sequence[str]) -> int:
    """0-based index of the first line after the frontmatter (0 when there is none)."""
    if lines and lines[0].lstrip("\ufeff").rstrip("\r").rstrip() == "---":
        for index in range(1, len(lines)):
            if lines[index].rstrip("\r").rstrip() in ("---", "..."):
                return index + 1
    return 0


def _trim_blank(lines: Sequence[str], end: int, *, floor: int) -> int:
    while end > floor and not lines[end - 1].rstrip("\r"):
        end -= 1
    return end


# --- the meter ------------------------------------------------------------------------------


class TokenMeter:
    """Usage of one host session, read from its transcript, charged to one goal.

    ``verify`` calls :meth:`poll` before each check (each call reads only what the host
    appended since the previous one) and :meth:`apply` on the re-read goal text just before
    writing it.
    """

    def __init__(
        self,
        *,
        goal: Goal,
        transcript: str | os.PathLike[str],
        host: Host | None = None,
        home: str | None = None,
    ) -> None:
        self._path = goal.path
        self._transcript = os.fspath(transcript)
        from goalfile.usage import TranscriptReader

        self._reader = TranscriptReader(self._transcript, host)
        self._home = home if home is not None else os.path.expanduser("~")
        self._label = transcript_label(self._transcript, home=self._home)
        known = parse_accounting(goal.text, path=goal.path)
        self._rows = known.rows
        # usage outside the table (e.g. reported with --tokens-used) is kept as a floor
        self._floor = max(goal.tokens_used, tokens_total(known.rows))
        self._usage: SessionUsage | None = None
        self._baseline: int | None = None

    @property
    def usage(self) -> SessionUsage | None:
        """The session's usage at the last successful poll."""
        return self._usage

    @property
    def transcript(self) -> str:
        return self._transcript

    @property
    def bytes_read(self) -> int:
        """Bytes of the transcript read by the most recent poll (only what was appended)."""
        return self._reader.last_read

    def poll(self) -> int:
        """Read what the transcript gained; return the goal's ``tokens_used`` with it.

        The first poll raises :class:`~goalfile.usage.TranscriptError` when the transcript
        cannot be read; later polls keep the last figure instead (the checks have run by then).
        """
        try:
            usage = self._reader.poll()
        except GoalfileError:
            if self._usage is None:
                raise
            return self._total()
        if self._usage is not None and usage.session_id != self._usage.session_id:
            usage = replace(usage, session_id=self._usage.session_id)  # keep the first key
        if self._baseline is None:
            known = self._row(self._rows, usage.session_id)
            self._baseline = (
                min(known.baseline, usage.tokens) if known is not None else usage.tokens
            )
        self._usage = usage
        return self._total()

    def apply(self, text: str) -> str:
        """Record the session in the text's accounting table; everything else stays as is."""
        if self._usage is None or self._baseline is None:
            return text
        found = parse_accounting(text, path=self._path)
        rows = record(found.rows, self._usage, baseline=self._baseline, transcript=self._label)
        return apply_rows(text, rows, path=self._path)

    def _total(self) -> int:
        assert self._usage is not None and self._baseline is not None
        before = self._row(self._rows, self._usage.session_id)
        now = record(self._rows, self._usage, baseline=self._baseline, transcript=self._label)
        mine = self._row(now, self._usage.session_id)
        assert mine is not None
        return self._floor + mine.used - (before.used if before is not None else 0)

    @staticmethod
    def _row(rows: Sequence[SessionRow], session: str) -> SessionRow | None:
        for row in rows:
            if row.session == session:
                return row
        return None
