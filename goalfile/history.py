"""A goal's history as a grid: one line per criterion, one column per verify entry.

Pure: the ledger's entries in, a :class:`History` out, rendered as text for a terminal, as a
Markdown table (a pull request, ``$GITHUB_STEP_SUMMARY``) or as JSON data. Between two verify
runs, the other entries are events: an approval, a re-approval, a status change (block,
resume, pause, budget, impossible) and a reopening (a goal that was met, blocked, exhausted
or paused runs again). Each column carries the marks of the events before it, and a cell whose
row was met in the previous column and is not now is a regression.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from goalfile import ledger
from goalfile.errors import GoalfileError
from goalfile.model import Entry, Goal, Status, Verdict
from goalfile.prose import path_code

SYMBOLS = {
    Verdict.MET.value: "✓",
    Verdict.UNMET.value: "✗",
    Verdict.ERROR.value: "E",
    Verdict.IMPOSSIBLE.value: "⊘",
}
ABSENT = "·"
REGRESSED = "↓"
MARKS = {"approved": "A", "re-approved": "R", "reopened": "O", "status": "S"}
LEGEND = (
    "✓ met, ✗ unmet, E error, ⊘ impossible, · not in that run, ↓ met in the run before "
    "and judged not met now; before a run: A approved, R re-approved, O reopened, "
    "S status changed by a command"
)
NOT_JUDGED = ("not run", "not reviewed")  # evidence of a row that was not judged this time
CLOSED = frozenset({Status.MET, Status.BLOCKED, Status.EXHAUSTED, Status.PAUSED})
# a goal that had ended, active again: a reopening (resume after block or pause is a status
# change); a verify run on a goal whose ledger says CLOSED was reopened by hand
FINISHED = frozenset({Status.MET, Status.EXHAUSTED})


@dataclass(frozen=True, kw_only=True)
class Event:
    """A ledger entry between verify runs that matters for reading the grid."""

    kind: str  # approved | re-approved | reopened | status
    by: str
    iteration: int
    date: str
    text: str  # one line: what happened

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "by": self.by,
            "iteration": self.iteration,
            "date": self.date,
            "text": self.text,
        }


@dataclass(frozen=True, kw_only=True)
class Column:
    """One verify entry."""

    number: int  # 1 for the first verify entry
    iteration: int
    date: str
    status: str  # the status the entry recorded, or ""
    verdicts: dict[str, str]  # row id → verdict
    regressed: frozenset[str]  # rows met in the column before and not now
    before: tuple[Event, ...]  # events since the column before

    @property
    def marks(self) -> str:
        return "".join(sorted({MARKS[e.kind] for e in self.before}, key="ARSO".index))

    def to_json(self) -> dict[str, object]:
        return {
            "number": self.number,
            "iteration": self.iteration,
            "date": self.date,
            "status": self.status or None,
            "verdicts": dict(self.verdicts),
            "regressed": sorted(self.regressed),
            "events_before": [e.to_json() for e in self.before],
        }


@dataclass(frozen=True, kw_only=True)
class History:
    path: str
    slug: str
    status: str
    rows: tuple[str, ...]  # row ids: the current criteria, then rows that were dropped
    columns: tuple[Column, ...]
    after: tuple[Event, ...]  # events after the newest verify entry

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "goal": self.path,
            "slug": self.slug,
            "status": self.status,
            "rows": list(self.rows),
            "columns": [c.to_json() for c in self.columns],
            "events_after": [e.to_json() for e in self.after],
        }


def history(goal: Goal, *, path: str) -> History:
    """The grid of ``goal``'s ledger."""
    from goalfile.parse import ledger_region

    region = ledger_region(goal.text)
    entries = list(ledger.entries(goal.text, *region)) if region is not None else []
    return build(
        entries,
        path=path,
        slug=goal.slug,
        status=goal.status.value,
        criteria=[row.id for row in goal.criteria],
    )


def build(
    entries: Sequence[Entry], *, path: str, slug: str, status: str, criteria: Sequence[str]
) -> History:
    columns: list[Column] = []
    pending: list[Event] = []
    last_status: Status | None = None
    previous: dict[str, str] = {}
    seen: list[str] = list(criteria)
    approved_order: tuple[str, ...] | None = None  # the run order of the newest approval
    for entry in entries:
        if entry.by == ledger.VERIFY_BY:
            if last_status in CLOSED:
                pending.append(
                    Event(
                        kind="reopened",
                        by="hand",
                        iteration=entry.iteration,
                        date=entry.date,
                        text=f"{last_status.value} → active before this run (edited by hand)",
                    )
                )
            verdicts = {row.id: row.verdict.value for row in entry.rows}
            seen += [key for key in verdicts if key not in seen]
            regressed = frozenset(
                row.id
                for row in entry.rows
                if previous.get(row.id) == Verdict.MET.value
                and row.verdict is not Verdict.MET
                and not row.evidence.startswith(NOT_JUDGED)
            )
            columns.append(
                Column(
                    number=len(columns) + 1,
                    iteration=entry.iteration,
                    date=entry.date,
                    status=entry.status.value if entry.status else "",
                    verdicts=verdicts,
                    regressed=regressed,
                    before=tuple(pending),
                )
            )
            pending = []
            previous = verdicts
        else:
            order = _recorded_order(entry)
            pending += _events(entry, last_status, _order_text(approved_order, order))
            approved_order = order if order is not None else approved_order
        if entry.status is not None:
            last_status = entry.status
    return History(
        path=path,
        slug=slug,
        status=status,
        rows=tuple(seen),
        columns=tuple(columns),
        after=tuple(pending),
    )


def _recorded_order(entry: Entry) -> tuple[str, ...] | None:
    """The run order an approval entry records (ids), or None (not an approval, or a record
    that does not read back)."""
    if entry.by != "activate":
        return None
    from goalfile import contract

    try:
        approved = contract.recorded(entry)
    except GoalfileError:
        return None
    return tuple(row.id for row in approved.ordered()) if approved is not None else None


def _order_text(was: Sequence[str] | None, now: Sequence[str] | None) -> str:
    """`run order changed: C1, C2 → C2, C1` when an approval runs approved rows in another
    order than the one before it, else nothing."""
    from goalfile.contract import order_change

    moved = order_change(was, now) if was is not None and now is not None else None
    return f"run order changed: {', '.join(moved[0])} → {', '.join(moved[1])}" if moved else ""


def _events(entry: Entry, before: Status | None, order: str = "") -> Iterable[Event]:
    first = ledger.shown_text(next((note.strip() for note in entry.notes if note.strip()), ""))
    if order and ", run order changed" in first:  # the entry's own count line, in full
        first = first.replace(", run order changed", f", {order}", 1)
    elif order:  # an entry written before it said so, or by hand
        first = f"{first}; {order}" if first else order
    after = entry.status

    def event(kind: str, text: str) -> Event:
        return Event(kind=kind, by=entry.by, iteration=entry.iteration, date=entry.date, text=text)

    if entry.by == "activate":
        if first.startswith("contract re-approved"):
            yield event("re-approved", first)
        else:
            yield event("approved", first or "contract approved")
    elif after is not None and before is not None and after is not before:
        kind = "reopened" if before in FINISHED and after is Status.ACTIVE else "status"
        # the person's reason (`reopen --reason`, `pause --reason`) is what a reviewer wants
        reason = next((n.strip() for n in entry.notes if n.strip().startswith("reason: ")), "")
        shown = "reason: " + ledger.note_text(reason.removeprefix("reason: "))
        said = f"{first}; {shown}" if reason and reason != first else first
        yield event(kind, f"{before.value} → {after.value}" + (f": {said}" if said else ""))
    if entry.by == "activate" and before in FINISHED and after is Status.ACTIVE:
        assert before is not None
        yield event("reopened", f"{before.value} → {after.value} by the re-approval")


# --- rendering ------------------------------------------------------------------------------


def _cell(column: Column, row: str) -> str:
    verdict = column.verdicts.get(row)
    symbol = SYMBOLS.get(verdict, "?") if verdict is not None else ABSENT
    return symbol + (REGRESSED if row in column.regressed else "")


def _short_date(date: str) -> str:
    return date[5:] if len(date) == 10 else date


def render_text(item: History) -> list[str]:
    from goalfile.termsafe import file_name

    lines = [f"{item.slug}: {item.status}  ({file_name(item.path)})"]
    if not item.columns:
        lines.append("  no verify entry yet")
    else:
        width = max(6, *(len(c.status) for c in item.columns))
        label = max(6, *(len(r) for r in item.rows))

        def line(name: str, cells: Iterable[str]) -> str:
            return (f"  {name:<{label}} " + " ".join(f"{c:>{width}}" for c in cells)).rstrip()

        lines.append(line("run", (f"#{c.number}" for c in item.columns)))
        lines.append(line("iter", (str(c.iteration) for c in item.columns)))
        lines.append(line("date", (_short_date(c.date) for c in item.columns)))
        lines.append(line("before", (c.marks for c in item.columns)))
        lines += [line(row, (_cell(c, row) for c in item.columns)) for row in item.rows]
        lines.append(line("status", (c.status for c in item.columns)))
        lines.append(f"  {LEGEND}")
    events = [(f"before #{c.number}", e) for c in item.columns for e in c.before]
    events += [("after the last run", e) for e in item.after]
    if events:
        lines.append("  events:")
        lines += [
            f"    {where}: {MARKS[e.kind]} {e.by} (iteration {e.iteration}, {e.date}): {e.text}"
            for where, e in events
        ]
    return lines


def _md(text: str) -> str:
    return ledger.plain_cell(text) or " "


def render_markdown(item: History) -> list[str]:
    lines = [f"### {path_code(item.slug)}: {item.status}", "", path_code(item.path), ""]
    if not item.columns:
        return [*lines, "No verify entry yet."]
    head = [f"#{c.number} · it. {c.iteration} · {_short_date(c.date)}" for c in item.columns]
    lines.append("| criterion | " + " | ".join(head) + " |")
    lines.append("| --- | " + " | ".join("---" for _ in head) + " |")
    lines.append("| *before* | " + " | ".join(_md(c.marks) for c in item.columns) + " |")
    for row in item.rows:
        lines.append(f"| {row} | " + " | ".join(_cell(c, row) for c in item.columns) + " |")
    lines.append("| *status* | " + " | ".join(_md(c.status) for c in item.columns) + " |")
    lines += ["", LEGEND]
    events = [(f"before #{c.number}", e) for c in item.columns for e in c.before]
    events += [("after the last run", e) for e in item.after]
    if events:
        lines.append("")
        lines += [
            f"- {where}: **{MARKS[e.kind]}** {e.by} (iteration {e.iteration}, {e.date}): "
            f"{ledger.text_cell(e.text)}"
            for where, e in events
        ]
    return lines
