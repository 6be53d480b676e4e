"""Lines written as a goal's structure that Markdown reads as something else (lint's
``hidden-structure``).

A formatter such as mdformat closes a fenced code block left open at the end of the file, and
leaves an HTML comment left open as it is: the criteria rows under the opening line, and the
sections after it, then silently stop being rows and sections, for goalfile and for every
Markdown view. Two kinds of line are reported (see docs/format.md, "Rows and headings Markdown
does not see"):

- in a criteria section, a line that looks like a criteria row (``| C2 | ...``, the first cell
  an id goalfile accepts) or a table's delimiter row, and that is not a line of the criteria
  table: it sits in a code block, an HTML block, a block quote, a list, a paragraph or a second
  table;
- anywhere in the body outside the ledger, an H2 line naming a section goalfile knows
  (``## Plan``, ``## Iterations``...) that the file has no section of, inside such a block.

Pure: a :class:`Goal` in, findings out. The text is parsed again only when a line is found
that may be hidden, which a goal as goalfile and mdformat write it never has."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Final

from goalfile.model import Finding, Goal, Severity
from goalfile.parse import CRITERIA_KEYS, ledger_bounds, ledger_span, section_key, split_row
from goalfile.prose import inline_code, listed
from goalfile.shellword import sed_command, sed_lines
from goalfile.value import Value

if TYPE_CHECKING:  # built only where a line may be hidden (goalfile.hiddenblock)
    from goalfile.hiddenblock import Block as _Block

CODE = "hidden-structure"

# the sections goalfile knows, by the key of their heading (parse.section_key), and the names
# that are one section
SECTION_GROUPS = {
    "non-goals": "non-goals",
    "non goals": "non-goals",
    "nongoals": "non-goals",
    "acceptance criteria": "criteria",
    "criteria": "criteria",
    "plan": "plan",
    "token accounting": "token accounting",
    "iterations": "iterations",
    "lessons": "lessons",
}

_H2_RE = re.compile(r"[ \t>]*##[ \t]+(?P<title>[^\n]*?)(?:[ \t]+#+)?[ \t]*")
# (the patterns below are compiled when a line may be hidden, which a goal as goalfile and
# mdformat write it never has: by `re`'s own cache, or once by _row_patterns)
_FENCE_LINE = r" {0,3}(`{3,}|~{3,})[^`]*"
_ATX = r" {0,3}#{1,6}(?:[ \t]|$)"


@functools.cache
def _row_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """What a line may start with inside containers (blanks, block-quote markers, one list
    marker); a criteria row (a first cell that is an id goalfile accepts, lint.ID_RE, in
    backticks or not); such an id; a table's delimiter row (``|---|:--:|``, ``--- | ---``)."""
    from goalfile.lint import ID_RE  # lint imports this module: asked for when first used

    return (
        re.compile(r"[ \t>]*(?:(?:[-+*]|[0-9]{1,9}[.)])[ \t]+[ \t>]*)?"),
        re.compile(rf"\|[ \t]*(`?)({ID_RE.pattern})\1[ \t]*\|"),
        ID_RE,
        re.compile(r"\|?(?:[ \t\v\f]*:?-+:?[ \t\v\f]*\|)+(?:[ \t\v\f]*:?-+:?[ \t\v\f]*)?"),
    )


_KIND_NAMES = {
    "fence": "a fenced code block",
    "code_block": "an indented code block",
    "html_block": "an HTML block",
    "blockquote_open": "a block quote",
    "bullet_list_open": "a list",
    "ordered_list_open": "a list",
    "paragraph_open": "a paragraph",
    "table_open": "a second table",
}


class _Piece(Value):
    """A run of body lines parsed as one Markdown document, as parse.py parses them."""

    __slots__ = ("_first", "after", "lines")

    def __init__(
        self, *, first: int | Callable[[], int], lines: Sequence[str], after: int = 0
    ) -> None:
        # 1-based number of its first line; after a ledger, counted when first read
        self._first = first
        self.lines: Final = lines  # without their line endings
        self.after: Final = after  # a line every line of the piece comes after

    @property
    def first(self) -> int:
        """The 1-based number of its first line."""
        first = self._first
        if not isinstance(first, int):
            first = self._first = first()
        return first


def findings(goal: Goal) -> list[Finding]:
    """Every ``hidden-structure`` finding of ``goal``, one per block that hides something."""
    pieces = _pieces(goal.text, goal.frontmatter_end)
    rows = list(_row_candidates(goal, pieces))
    headings = list(_heading_candidates(goal, pieces))
    in_ledger = _ledger_headings(goal)
    into_ledger = _html_into_ledger(goal, pieces)
    if not rows and not headings and not in_ledger and into_ledger is None:
        return []
    table = _criteria_table(goal)
    hidden: dict[tuple[int, _Block], tuple[list[int], list[int]]] = {}
    lines = _line_reader(pieces)
    for fenced, number, heading, edges in in_ledger:
        hidden.setdefault((len(pieces), fenced), ([], []))[1].append(number)
        lines[number] = heading
        lines.update(edges)
    ledger_heading = None
    if into_ledger is not None:
        _, ledger_heading, heading = into_ledger
        lines[ledger_heading] = heading
    for index, piece in enumerate(pieces):
        wanted_rows = [n for n in rows if _holds(piece, n)]
        wanted_headings = [n for n in headings if _holds(piece, n)]
        if not wanted_rows and not wanted_headings:
            continue
        blocks, tables = _blocks(piece)
        span = table or _first_table_in_criteria(goal, tables)
        for number in wanted_rows:
            if span is not None and span[0] <= number <= span[1]:
                continue
            block = _block_of(blocks, number)
            if block is not None:
                hidden.setdefault((index, block), ([], []))[0].append(number)
        for number in wanted_headings:
            block = _block_of(blocks, number)
            if block is not None and block.kind != "heading_open":
                hidden.setdefault((index, block), ([], []))[1].append(number)
    if into_ledger is not None:
        hidden.setdefault((0, into_ledger[0]), ([], []))[1].append(into_ledger[1])
    return [
        _finding(goal, lines, block, row_lines, heading_lines, table, ledger_heading)
        for (_, block), (row_lines, heading_lines) in sorted(
            hidden.items(), key=lambda item: item[0][1].first
        )
    ]


def _pieces(text: str, frontmatter_end: int) -> list[_Piece]:
    """The body without the ledger, as parse.py hands it to Markdown: the lines before the
    ``## Iterations`` heading, and those after the ledger."""
    bounds = ledger_bounds(text)
    if bounds is None:
        head = text.split("\n")
        return [_Piece(first=frontmatter_end + 1, lines=_bare(head[frontmatter_end:]))]
    start, _, end = bounds
    head = text[:start].split("\n")
    pieces = [_Piece(first=frontmatter_end + 1, lines=_bare(head[frontmatter_end:-1]))]
    if end < len(text):
        pieces.append(
            _Piece(
                first=lambda: _after_ledger(text),
                lines=_bare(text[end:].split("\n")),
                after=len(head),  # the ledger's heading
            )
        )
    return pieces


def _after_ledger(text: str) -> int:
    """The line after the ledger (the ledger's lines counted as the goal's reading counts
    them, which keeps the count: a long ledger is counted only when a finding needs it)."""
    span = ledger_span(text)
    assert span is not None  # (called only for a text with a ledger)
    return span[1]


def _bare(lines: Sequence[str]) -> list[str]:
    return [line.rstrip("\r") for line in lines]


def _holds(piece: _Piece, number: int) -> bool:
    return piece.first <= number < piece.first + len(piece.lines)


def _line_reader(pieces: Sequence[_Piece]) -> dict[int, str]:
    return {
        piece.first + offset: line for piece in pieces for offset, line in enumerate(piece.lines)
    }


def looks_like_row(line: str, id_column: int = 0) -> str | None:
    """The id of a line that looks like a criteria row (``|`` for a delimiter row), or None.

    A row starts with ``|``; its first cell, or its cell in the criteria table's id column
    (``id_column``, 0-based: columns may come in any order), is an id goalfile accepts."""
    prefix, row, ident, delimiter = _row_patterns()
    rest = line[prefix.match(line).end() :]  # type: ignore[union-attr]  # matches always
    if not rest.startswith("|"):  # a delimiter row without outer pipes (`--- | ---`) still is one
        return "|" if "-" in rest and delimiter.fullmatch(rest.rstrip()) else None
    if id_column > 0:
        cells = split_row(rest)
        if len(cells) > id_column:
            cell = cells[id_column].strip()
            if cell.startswith("`") and cell.endswith("`"):
                cell = cell.strip("`").strip()
            if ident.fullmatch(cell):
                return cell
    found = row.match(rest)
    if found is not None:
        return found.group(2)
    if "-" in rest and delimiter.fullmatch(rest.rstrip()):
        return "|"
    return None


def _id_column(goal: Goal) -> int:
    """The 0-based column of the criteria table's ids (0 when it has no rows)."""
    if not goal.criteria:
        return 0
    names = [name for name, _ in goal.criteria[0].cells]
    return names.index("id") if "id" in names else 0


def _criteria_table(goal: Goal) -> tuple[int, int] | None:
    """The lines of the criteria table, from its header to its last row, when it has rows (its
    rows are one a line, with nothing between them)."""
    if not goal.criteria:
        return None
    return goal.criteria[0].line - 2, goal.criteria[-1].line


def _first_table_in_criteria(
    goal: Goal, tables: Sequence[tuple[int, int]]
) -> tuple[int, int] | None:
    """For a criteria table without rows: the first table of the first criteria section that
    has one (the one parse.py reads)."""
    for section in goal.sections:
        if section.key in CRITERIA_KEYS:
            for first, last in tables:
                if section.line < first < section.end:
                    return first, last
    return None


def _row_candidates(goal: Goal, pieces: Sequence[_Piece]) -> Iterable[int]:
    """Lines of the criteria sections, outside the criteria table, that look like rows."""
    table = _criteria_table(goal)
    column = _id_column(goal)
    for section in goal.sections:
        if section.key not in CRITERIA_KEYS:
            continue
        spans = [(section.line + 1, section.end)]
        if table is not None and section.line < table[0] < section.end:
            spans = [(section.line + 1, table[0]), (table[1] + 1, section.end)]
        for piece in pieces:
            for first, end in spans:
                if end <= piece.after + 1:
                    continue  # the span ends before the piece begins
                low = max(first, piece.first) - piece.first
                high = min(end, piece.first + len(piece.lines)) - piece.first
                for offset in range(low, high):
                    line = piece.lines[offset]
                    if "|" in line and looks_like_row(line, column) is not None:
                        yield piece.first + offset


def _heading_candidates(goal: Goal, pieces: Sequence[_Piece]) -> Iterable[int]:
    """Lines that look like the H2 heading of a section goalfile knows and the file lacks."""
    seen = {SECTION_GROUPS.get(section.key) for section in goal.sections}
    seen_lines: set[int] | None = None  # (read when a line looks like one: a section's line
    for piece in pieces:  # after a ledger is numbered by counting the ledger's lines)
        for offset, line in enumerate(piece.lines):
            if "##" not in line:
                continue
            group = _heading_group(line)
            if group is None or group in seen:
                continue
            if seen_lines is None:
                seen_lines = {section.line for section in goal.sections}
            number = piece.first + offset
            if number not in seen_lines:
                yield number


def _ledger_headings(goal: Goal) -> list[tuple[_Block, int, str, dict[int, str]]]:
    """H2 lines of a section goalfile knows and the file lacks, inside a fenced block in the
    ledger: each with its block, its line, its text and the block's first and last lines.

    The ledger is not parsed as Markdown, and it ends at the first H1/H2 line outside a fenced
    block, so every H2 line at the margin inside it is in a fenced block. A line that a check
    printed is indented in goalfile's excerpts, and is never one."""
    from goalfile import ledger

    bounds = ledger_bounds(goal.text)
    if bounds is None:
        return []
    text = goal.text
    _, content, end = bounds
    index = ledger.headings(text)
    seen = {SECTION_GROUPS.get(section.key) for section in goal.sections}
    found = []
    spans: Sequence[tuple[int, int]] | None = None
    for offset in index.sections:
        if not content < offset < end:
            continue
        stop = text.find("\n", offset)
        line = text[offset : stop if stop >= 0 else len(text)].rstrip("\r")
        group = _heading_group(line)
        if group is None or group in seen:
            continue
        if spans is None:
            spans = ledger.fenced_spans(text)
        span = next((s for s in spans if s[0] <= offset < s[1]), None)
        if span is None:
            continue
        first = text.count("\n", 0, span[0]) + 1
        last = first + text.count("\n", span[0], max(span[0], span[1] - 1))
        edges = {first: _line_text(text, span[0]), last: _line_text(text, span[1] - 1)}
        from goalfile.hiddenblock import Block

        block = Block(kind="fence", first=first, last=last)
        found.append((block, text.count("\n", 0, offset) + 1, line, edges))
    return found


# the HTML blocks that a blank line does not end (CommonMark's kinds 1 to 5), and what does
_OPEN_HTML = (
    r" {0,3}<(?:(?P<comment>!--)|(?P<pi>\?)|(?P<cdata>!\[CDATA\[)|(?P<decl>![A-Za-z])"
    r"|(?P<raw>(?i:script|pre|style|textarea))(?=[ \t>]|$))"
)


def _html_into_ledger(goal: Goal, pieces: Sequence[_Piece]) -> tuple[_Block, int, str] | None:
    """An HTML block (a comment, ``<pre>``...) that runs on to the ``## Iterations`` heading
    without its end: goalfile reads the ledger as text, but every Markdown view shows it, and
    each entry written there, as part of the block. The block, the heading's line and text."""
    if len(pieces) == 0 or ledger_bounds(goal.text) is None:
        return None
    piece = pieces[0]
    if not any("<" in line and re.match(_OPEN_HTML, line) for line in piece.lines):
        return None
    blocks, _ = _blocks(piece)
    end = piece.first + len(piece.lines) - 1
    last = end
    while last > piece.first and not piece.lines[last - piece.first].strip():
        last -= 1  # the parser leaves the blank lines at the end out of every block
    if not blocks or blocks[-1].kind != "html_block" or blocks[-1].last < last:
        return None
    block = blocks[-1]
    body = "\n".join(piece.lines[block.first - piece.first :])
    opened = re.match(_OPEN_HTML, body)
    if opened is None:
        return None
    rest = body[opened.end() :]
    closer = _closer(opened)
    if closer.lower() in rest.lower():
        return None
    heading = _line_text(goal.text, ledger_bounds(goal.text)[0])  # type: ignore[index]
    return block, end + 1, heading


def _closer(opened: re.Match[str]) -> str:
    """What ends the HTML block ``_OPEN_HTML`` found opening."""
    return {"comment": "-->", "pi": "?>", "cdata": "]]>", "decl": ">"}.get(
        opened.lastgroup or "", f"</{opened.group('raw') or ''}>"
    )


def _line_text(text: str, offset: int) -> str:
    """The line that holds ``offset``, without its line ending."""
    start = text.rfind("\n", 0, offset) + 1
    stop = text.find("\n", offset)
    return text[start : stop if stop >= 0 else len(text)].rstrip("\r")


def _heading_group(line: str) -> str | None:
    found = _H2_RE.fullmatch(line)
    if found is None:
        return None
    return SECTION_GROUPS.get(section_key(found.group("title")))


def _blocks(piece: _Piece) -> tuple[list[_Block], list[tuple[int, int]]]:
    """The top-level blocks of a piece, and the line spans of every table in it."""
    from goalfile.hiddenblock import Block
    from goalfile.parse import markdown

    tokens = markdown().parse("\n".join(piece.lines), {})
    blocks = []
    tables = []
    for token in tokens:
        if not token.map or token.nesting < 0:
            continue
        first, last = piece.first + token.map[0], piece.first + token.map[1] - 1
        if token.type == "table_open":
            tables.append((first, last))
        if token.level == 0:
            comment = token.type == "html_block" and token.content.lstrip().startswith("<!--")
            blocks.append(Block(kind=token.type, first=first, last=last, html_comment=comment))
    return blocks, tables


def _block_of(blocks: Sequence[_Block], number: int) -> _Block | None:
    for block in blocks:
        if block.first <= number <= block.last:
            return block
    return None


def _what(block: _Block) -> str:
    if block.html_comment:
        return "an HTML comment"
    return _KIND_NAMES.get(block.kind, "a block")


def _heading_text(line: str) -> str:
    return line.lstrip(" \t>").strip()


def _lines_text(numbers: Sequence[int]) -> str:
    """``line 5``, ``lines 5–6``, or the first run and how many more: ``lines 5–6 and 3 more``."""
    run = 1
    while run < len(numbers) and numbers[run] == numbers[0] + run:
        run += 1
    text = f"line {numbers[0]}" if run == 1 else f"lines {numbers[0]}–{numbers[run - 1]}"
    if run == len(numbers):
        return text
    if run == 1:
        text = f"lines {numbers[0]}"
    return f"{text} and {len(numbers) - run} more"


def _finding(
    goal: Goal,
    lines: dict[int, str],
    block: _Block,
    row_lines: list[int],
    heading_lines: list[int],
    table: tuple[int, int] | None,
    ledger_heading: int | None = None,
) -> Finding:
    every_heading = heading_lines
    what = _what(block)
    where = (
        f"{what} (line {block.first})"
        if block.first == block.last
        else f"{what} (lines {block.first}–{block.last})"
    )
    headings = [inline_code(_heading_text(lines[n])) for n in heading_lines]
    parts = []
    if row_lines:
        ids = [looks_like_row(lines[n], _id_column(goal)) or "" for n in row_lines]
        seen = {row.id for row in goal.criteria}
        # a header (`| id |`) and a row goalfile reads elsewhere (one an entry's table repeats)
        # are not what is missing
        named = list(
            dict.fromkeys(i for i in ids if i != "|" and i.lower() != "id" and i not in seen)
        )
        named = named or list(dict.fromkeys(i for i in ids if i != "|"))
        rows = (
            f"criteria row{'s' if len(named) > 1 else ''} {listed(named)}"
            if named
            else "a table's delimiter row"
        )
        one = len(row_lines) == 1
        inside = (
            f"in {where} after the criteria table, not in it (a blank line or any other line "
            "ends a table)"
            if block.kind == "paragraph_open"
            else f"in {where}; goalfile reads only the first table of the first criteria section"
            if block.kind == "table_open"
            else f"inside {where}"
        )
        them = "it" if one else "them"
        parts.append(
            f"{_lines_text(row_lines)} of the criteria section look{'s' if one else ''} like "
            f"{rows} but {'is' if one else 'are'} {inside}: goalfile does not read {them} as "
            f"criteria, so `verify` would not check {them}"
        )
    if ledger_heading in heading_lines:
        parts.append(
            f"{what} opened on line {block.first} never ends, so every Markdown view shows the "
            "rest of the file as part of it: the ledger under "
            f"{inline_code(lines[ledger_heading])} (line {ledger_heading}), and each entry "
            "written there, are hidden, while goalfile reads them as text"
        )
        heading_lines = [n for n in heading_lines if n != ledger_heading]
        headings = [inline_code(_heading_text(lines[n])) for n in heading_lines]
    if headings:
        many = len(headings) > 1
        also = "it also holds" if row_lines else f"{_lines_text(heading_lines)} inside {where} hold"
        if not row_lines and not many:
            also = f"line {heading_lines[0]} inside {where} holds"
        parts.append(
            f"{also} the heading{'s' if many else ''} {listed(headings)}, so the file has no "
            f"such section{'s' if many else ''} for goalfile or any Markdown view"
        )
    first = min(row_lines + every_heading)
    if ledger_heading in every_heading and not row_lines:
        first = block.first  # the line that opened the block is what to fix
    return Finding(
        severity=Severity.ERROR,
        line=first,
        column=1,
        code=CODE,
        message="; ".join(parts),
        hint=_hint(goal, lines, block, row_lines, every_heading, table, ledger_heading),
    )


def _hint(
    goal: Goal,
    lines: dict[int, str],
    block: _Block,
    row_lines: list[int],
    heading_lines: list[int],
    table: tuple[int, int] | None,
    ledger_heading: int | None = None,
) -> str:
    command = _command(goal, lines, block, row_lines, table) if row_lines else None
    if command is not None:
        return f"put the rows back under the criteria table: {command}"
    if ledger_heading in heading_lines and not row_lines:
        opened = re.match(_OPEN_HTML, lines.get(block.first, ""))
        closer = _closer(opened) if opened is not None else "-->"
        return (
            f"end the block with a line {inline_code(closer)} where it should end, before line "
            f"{ledger_heading}, or delete line {block.first} that opens it: "
            f"{_sed_command(goal.path, [(block.first, block.first)])}"
        )
    if row_lines:
        end = f" (line {table[1]})" if table is not None else ""
        return (
            f"move the rows into the criteria table, right under its last row{end} with no "
            f"blank line between, and remove what holds them ({_what(block)} from line "
            f"{block.first}); if they are an example, move them out of the criteria section"
        )
    closing = _closing_line(lines, block)
    opener = lines.get(block.first, "").strip()
    heading = inline_code(_heading_text(lines[heading_lines[0]]))
    example = (
        f"; if the block is an example that quotes {heading}, give the file its own "
        f"{heading} section"
    )
    if closing is not None:
        delete = _sed_command(goal.path, [(block.first, block.first), (closing, closing)])
        return (
            f"end the block before line {heading_lines[0]}: move its closing line {closing} "
            f"({inline_code(lines[closing].strip())}) up to just before it, or, if line "
            f"{block.first} ({inline_code(opener)}) opened the block by mistake, delete both "
            f"lines: {delete}{example}"
        )
    return (
        f"end the block before line {heading_lines[0]}, or remove what opened it on line "
        f"{block.first} ({inline_code(opener)}), so that the heading starts its section again"
        f"{example}"
    )


def _closing_line(lines: dict[int, str], block: _Block) -> int | None:
    """The line that closes a fenced block or an HTML comment, when it holds nothing else."""
    last = lines.get(block.last, "").strip()
    if block.last == block.first:
        return None
    if block.kind == "fence":
        marker = re.fullmatch(_FENCE_LINE, lines.get(block.first, ""))
        if (
            marker is not None
            and last
            and set(last) == {marker.group(1)[0]}
            and len(last) >= len(marker.group(1))
        ):
            return block.last
    if block.html_comment and last == "-->":
        return block.last
    return None


def _command(
    goal: Goal,
    lines: dict[int, str],
    block: _Block,
    row_lines: list[int],
    table: tuple[int, int] | None,
) -> str | None:
    """A command that puts hidden rows back into the criteria table, when one can: the block
    follows the table with only blank lines between, and its lines are the rows (after its
    opening line, for a fenced block or an HTML comment)."""
    if table is None or block.kind not in ("fence", "html_block", "code_block", "paragraph_open"):
        return None
    gap = range(table[1] + 1, block.first)
    if any(lines.get(n, "x").strip() for n in gap):
        return None
    start = block.first
    closing = None
    if block.kind in ("fence", "html_block"):
        opener = lines.get(block.first, "")
        if block.kind == "fence" and re.fullmatch(_FENCE_LINE, opener) is None:
            return None
        if block.kind == "html_block" and (not block.html_comment or opener.strip() != "<!--"):
            return None
        start = block.first + 1
        while start <= block.last and not lines.get(start, "").strip():
            start += 1  # blank lines after the opening line go too
        closing = _closing_line(lines, block)
        if (
            closing is None
            and block.kind == "html_block"
            and "-->" in "".join(lines.get(n, "") for n in range(block.first, block.last + 1))
        ):
            return None  # the comment closes on a line with other text
    # the rows must come first, one after another: what follows them (a blank line, the
    # sections the block swallowed) then ends the table again
    count = 0
    while start + count in row_lines:
        count += 1
    if count == 0 or start + count - 1 != row_lines[count - 1]:
        return None
    if block.kind in ("code_block", "paragraph_open") and count != len(row_lines):
        return None
    last_row = start + count - 1
    after = lines.get(last_row + 1, "")
    if after.strip() and last_row + 1 != closing and not re.match(_ATX, after):
        return None  # a line of text right under the rows would become a row
    deletes = [(table[1] + 1, start - 1)] if start - 1 >= table[1] + 1 else []
    if closing is not None:
        deletes.append((closing, closing))
    if block.kind == "code_block":
        return _sed_command(goal.path, deletes, unindent=(block.first, block.last))
    return _sed_command(goal.path, deletes)


def _sed_command(
    path: str,
    ranges: Sequence[tuple[int, int]],
    *,
    unindent: tuple[int, int] | None = None,
) -> str:
    """A shell command, in backticks, that deletes the line ranges of ``path`` (and un-indents
    a span of lines by one level of an indented code block: four spaces, or up to three spaces
    and a tab, which CommonMark reads alike); :func:`goalfile.shellword.sed_command` makes it
    work with GNU and BSD sed alike. ``[[:blank:]]`` is a space or a tab in both (BSD sed reads
    no ``\\t``)."""
    scripts = [f"{sed_lines(*unindent)}s/^ \\{{0,3\\}}[[:blank:]]//"] if unindent else []
    scripts += [f"{sed_lines(first, last)}d" for first, last in ranges]
    return sed_command(path, scripts)
