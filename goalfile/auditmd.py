"""`goalfile audit --format markdown`: the audit as a Markdown table and finding list, for a
pull request comment or ``$GITHUB_STEP_SUMMARY``. Pure: the audit's result in, lines out.

A goal's file name is written as a code span on one line (:func:`goalfile.prose.path_code`):
a name may hold line breaks, and written raw a line ``<!--`` in one name and ``-->`` in a
later one made an HTML comment of the rows and findings between them. A finding, a note or a
change is a list item, not a table cell: its text is one line with its pipes as they are (a
`\\|` inside a code span shows its backslash: `pytest -q || true` read as `pytest -q \\|\\|
true`)."""

from __future__ import annotations

from collections.abc import Sequence

from goalfile.audit import FileAudit
from goalfile.ledger import clean_line
from goalfile.prose import path_code
from goalfile.words import counted


def render(files: Sequence[FileAudit], *, against: str | None) -> list[str]:
    title = "### goalfile audit" + (f" against {path_code(against)}" if against else "")
    lines = [title, "", "| goal | result | entries added |", "| --- | --- | --- |"]
    for item in files:
        if item.error is not None:
            result = "invalid"
        elif item.findings:
            result = counted(len(item.findings), "finding")
        else:
            result = "clean"
        added = str(len(item.new_entries)) if against else "-"
        lines.append(f"| {path_code(item.path, in_table=True)} | {result} | {added} |")
    for item in files:
        details = _details(item, against)
        if details:
            lines += ["", f"#### {path_code(item.path)}", "", *details]
    return lines


def _details(item: FileAudit, against: str | None) -> list[str]:
    lines: list[str] = []
    if item.error is not None:
        lines.append(f"- **invalid**: {_item(item.error.render())}")
    for finding in item.findings:
        where = f"line {finding.line}: " if finding.line else ""
        lines.append(f"- **{finding.code}** {where}{_item(finding.message)}")
        if finding.hint:
            lines.append(f"  - fix: {_item(finding.hint)}")
    lines += [f"- note: {_item(note)}" for note in item.notes]
    if item.changes:
        lines.append(f"- contract changes since {path_code(item.since or against or '')}:")
        lines += [f"  - {_item(change.render())}" for change in item.changes]
    return lines


def _item(text: str) -> str:
    """The text of a list item: one line, its pipes kept (markup in it is kept as markup)."""
    return clean_line(text, limit=1_000)
