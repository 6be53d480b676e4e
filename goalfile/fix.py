"""`goalfile lint --fix`: the rewrites that keep a goal's meaning and put its criteria rows in
canonical form. Pure: goal in, text out.

- a code span cut by an unescaped ``|`` gets the ``|`` written ``\\|``;
- a deterministic row's ``check`` or ``expected`` whose source differs from what Markdown
  shows (a backslash escape, emphasis), or that holds raw HTML or an image outside a code
  span, is put in a code span of what goalfile reads, and so is a ``check`` that is not one
  code span, and one that GitHub shows otherwise than goalfile reads it (struck-out text, a
  link whose reference only the ledger defines: :mod:`goalfile.gfmview`), as goalfile reads
  it;
- each lone carriage return (one that ends no line) is written as a line break, which is how
  Markdown reads it, so goalfile's lines are those every Markdown view shows;
- an accepted synonym in ``expected`` (``exits 0``, ``exit code 0``, ``empty``, a ``,`` between
  clauses) is written the canonical way (``exit 0``, ``output empty``, ``;``).

Apart from lone carriage returns, only criteria rows change, and only the cells that need it;
everything else, the ledger included, stays byte for byte. The contract digest is unchanged,
because it is computed from the meaning these rewrites keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from goalfile import ledger
from goalfile.errors import GoalfileError, GoalFileInvalid
from goalfile.model import Criterion, Goal, Kind
from goalfile.parse import (
    escape_span_pipes,
    parse_goal,
    rejoin_code_spans,
    split_row,
    write_lone_crs,
)
from goalfile.shellword import shell_word


@dataclass(frozen=True, kw_only=True)
class Change:
    """One rewrite of one criteria row."""

    line: int  # 1-based line of the row
    row: str  # the criterion id ("" for a row without one)
    change: str  # what was rewritten, e.g. "expected `exits 0` → `exit 0`"
    whole_file: bool = False  # a rewrite of the file's text, not of one row (``line``: its first)

    def render(self) -> str:
        """``line 16: C1: escaped `|` in a code span``."""
        if self.whole_file:
            return f"line {self.line}: {self.change}"
        return f"line {self.line}: {self.row or 'row'}: {self.change}"

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "id": self.row or None, "change": self.change}


@dataclass(frozen=True, kw_only=True)
class Fixed:
    text: str
    changes: tuple[Change, ...]


def fix_goal(goal: Goal) -> Fixed:
    changes: list[Change] = []
    lone = next((p for p in goal.problems if p.code == "lone-cr"), None)
    if lone is not None:
        # first what Markdown reads: each lone carriage return is a line break; the rows are
        # then read, and fixed, on the lines every Markdown view shows
        text = write_lone_crs(goal.text, goal.newline)
        count = text.count("\n") - goal.text.count("\n")  # each is a line break now
        goal = parse_goal(text, path=goal.path)
        returns = "a lone carriage return" if count == 1 else "lone carriage returns"
        breaks = "a line break" if count == 1 else "line breaks"
        changes.append(
            Change(
                line=lone.line or 1,
                row="",
                change=f"{returns} written as {breaks}",
                whole_file=True,
            )
        )
    lines = goal.text.split("\n")
    table = _padded_table(goal, lines)
    in_ledger: frozenset[str] | None = None
    footnotes: frozenset[str] | None = None
    for row in goal.criteria:
        index = row.line - 1
        if not 0 <= index < len(lines):
            continue
        differs: set[str] = set()
        if row.kind is Kind.DETERMINISTIC:
            from goalfile.gfmview import difference, footnote_labels, ledger_labels

            for name, cell in row.cells:
                if name in ("check", "expected"):
                    if "[" in cell and in_ledger is None:
                        in_ledger = ledger_labels(goal.text)
                        footnotes = footnote_labels(goal.text)
                    shown = difference(
                        cell, goal.link_labels, in_ledger or (), footnotes or (), column=name
                    )
                    if shown is not None or _hides_markup(cell):
                        differs.add(name)
            if row.check.strip() and not row.check_is_code:
                differs.add("check")  # shown as one code span of the command that runs
        new, what = _fix_row(row, lines[index], differs)
        if new != lines[index]:
            lines[index] = new
            changes += [Change(line=row.line, row=row.id, change=item) for item in what]
    if changes and table is not None:
        first, stop = table
        lines[first:stop] = _pad(lines[first:stop]) or lines[first:stop]
    return Fixed(text="\n".join(lines), changes=tuple(changes))


def _hides_markup(cell: str) -> bool:
    """The cell holds raw HTML or an image outside a code span, which a Markdown view does not
    show as text (lint's `hidden-markup`): a code span of what goalfile reads shows it."""
    from goalfile.lint import MARKUP_HINT, hidden_markup

    return MARKUP_HINT.search(cell) is not None and bool(hidden_markup(cell))


def _padded_table(goal: Goal, lines: Sequence[str]) -> tuple[int, int] | None:
    """The line range (0-based, end exclusive) of the criteria table when it is padded exactly
    as mdformat pads a table: a fix then pads it again, so the file stays as mdformat keeps it
    (a longer cell widens its whole column). None for a table laid out any other way, whose
    other rows a fix leaves byte for byte."""
    if not goal.criteria:
        return None
    first = min(row.line for row in goal.criteria) - 3  # the header; the rule line follows
    stop = max(row.line for row in goal.criteria)
    if first < 0 or stop > len(lines):
        return None
    block = list(lines[first:stop])
    if any(not line.startswith("|") or line.endswith("\r") for line in block):
        return None
    return (first, stop) if _pad(block) == block else None


def _pad(block: Sequence[str]) -> list[str] | None:
    """The table in ``block`` padded as mdformat pads it; None when a row's cells do not
    match the header's."""
    cells = [[cell.strip() for cell in split_row(line)] for line in block]
    if len(cells) < 2 or any(len(row) != len(cells[0]) for row in cells):
        return None
    return ledger.table_lines(cells[0], cells[2:], rule=cells[1])


def _fix_row(row: Criterion, line: str, differs: set[str]) -> tuple[str, list[str]]:
    """The row's line rewritten; ``differs``: the cells GitHub shows otherwise than goalfile
    reads them (they are put in a code span of what goalfile reads, as a changed source is)."""
    cr = "\r" if line.endswith("\r") else ""
    source = line.removesuffix("\r")
    names = [name for name, _ in row.cells]
    cells = split_row(source)
    what: list[str] = []
    if len(cells) != len(names):
        joined = rejoin_code_spans(cells)
        if len(joined) != len(names):
            return line, []  # a cell-count error: a person must decide which cell is missing
        cells = [escape_span_pipes(cell) for cell in joined]
        what.append("escaped `|` in a code span")
    if row.kind is Kind.DETERMINISTIC:
        for name, meant, typed in (
            ("check", row.check, row.source_check),
            ("expected", row.expected, row.source_expected),
        ):
            if name in names and (
                (typed and meant.strip() != typed.strip()) or (name in differs and meant.strip())
            ):
                pos = names.index(name)
                cells[pos] = f" {ledger.code_span(meant.strip())} "
                what.append(f"{name} `{typed.strip()}` put in a code span as it reads")
    if row.kind is Kind.DETERMINISTIC and "expected" in names:
        pos = names.index("expected")
        rewritten = _canonical_cell(cells[pos])
        if rewritten is not None:
            what.append(f"expected `{cells[pos].strip()}` → `{rewritten.strip()}`")
            cells[pos] = rewritten
    if not what:
        return line, []
    return _join(source, cells) + cr, what


def _canonical_cell(cell: str) -> str | None:
    """The cell with its synonyms written canonically, or None when there is nothing to do."""
    from goalfile.expecttext import canonical_text

    stripped = cell.strip()
    lead = cell[: len(cell) - len(cell.lstrip())]
    tail = cell[len(cell.rstrip()) :]
    fence = ""
    body = stripped
    if len(stripped) > 1 and stripped.startswith("`") and stripped.endswith("`"):
        fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]
        if stripped.endswith(fence) and len(stripped) > 2 * len(fence):
            body = stripped[len(fence) : -len(fence)]
        else:
            fence = ""
    text = body.replace("\\|", "|")
    try:
        canonical = canonical_text(text)
    except GoalfileError:
        return None
    if canonical == text:
        return None
    return f"{lead}{fence}{canonical.replace('|', chr(92) + '|')}{fence}{tail}"


def _join(source: str, cells: Sequence[str]) -> str:
    indent = source[: len(source) - len(source.lstrip())]
    stripped = source.strip()
    lead = "|" if stripped.startswith("|") else ""
    trail = "|" if stripped.endswith("|") and len(stripped) > 1 else ""
    return indent + lead + "|".join(cells) + trail


def check_fixed(before: Goal, after: str) -> None:
    """Refuse to write a fix unless the file reads back as the same goal: the same contract
    digest and the same rows, with only the rewritten rows' text changed."""
    from goalfile import contract

    nothing = "nothing was written"
    try:
        written = parse_goal(after, path=before.path)
    except GoalfileError as exc:
        raise GoalFileInvalid(
            f"the fix would leave a file that is not a goal file ({exc.message}); {nothing}",
            file=before.path,
            line=exc.line,
        ) from None
    pin = contract.pinned(before)
    if (
        pin is not None
        and pin.strip() == contract.source_digest(before)
        and pin.strip() != contract.source_digest(written)
    ):  # keep what shows the pin was made from this source text until a person re-approves
        raise GoalFileInvalid(
            "the `contract:` pin was made from the cells' source text, which the fix would "
            f"change; {nothing}",
            file=before.path,
            hint=f"have a person re-approve the contract as Markdown shows it first: "
            f"`goalfile activate --reapprove {shell_word(before.path)} --reason TEXT`",
        )
    if contract.digest(written) != contract.digest(before) or _meaning(written) != _meaning(before):
        raise GoalFileInvalid(
            f"the fix would change what the criteria mean; {nothing}",
            file=before.path,
            hint=f"`goalfile lint {shell_word(before.path)}` names the rows; fix them by hand",
        )


def _meaning(goal: Goal) -> list[tuple[object, ...]]:
    from goalfile.contract import normal_expected

    return [(c.id, c.check, normal_expected(c.expected), c.kind, c.timeout) for c in goal.criteria]
