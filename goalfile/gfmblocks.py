"""Lines that GitHub's Markdown reads as other blocks than goalfile's (lint's ``rendered-differs``,
at block level).

goalfile reads a goal's body with markdown-it (CommonMark 0.31 with GFM tables); GitHub renders
it with cmark-gfm (CommonMark 0.29 with GFM). Where the two start a block differently, a file
can show a reviewer one contract and run another, with every other rule satisfied:

- ``<source>`` opens an HTML block for GitHub and not for goalfile (CommonMark 0.31 took
  ``source`` off its list of block tags), ``<search>`` the reverse. A line ``<source><!--``
  above ``## Acceptance criteria`` and its table, closed by a line ``> -->``, was one HTML
  comment for GitHub (nothing shown) and a paragraph, the heading, the table and a block quote
  for goalfile, which ran that table's checks under a decoy GitHub showed elsewhere.
- A line of the criteria table that starts with ``<`` (a lone tag such as ``<span
  title="...">``, which may hold pipes): GitHub ends the table above it and shows the line and
  those under it as raw HTML, goalfile reads it as a row. ``<span title="| C2 | `true` | exit 0
  | deterministic | ">`` was a row GitHub never showed; a header line written so shows no
  table at all.

- A footnote definition (``[^ci]: text``) between the criteria heading and the table: GitHub
  reads footnotes (cmark-gfm's extension), goalfile does not (CommonMark reads the line as a
  link reference definition, or as text). The table's lines were the footnote's text for
  GitHub, which shows a footnote only where the file refers to it: a line ``[^ci]: x`` above
  the table, under a decoy list of criteria, made GitHub show the list and no table, while
  goalfile approved and ran the table (``echo 1 passed``, ``true``).

(The fourth difference, a delimiter row of dashes alone, is settled in the parser: goalfile
reads it as GitHub does, a heading's underline. See ``parse._table``.)

Pure: a :class:`Goal` in, findings out. The body is parsed again only when a line may differ,
which a goal as goalfile and mdformat write it never has."""

from __future__ import annotations

import re
from collections.abc import Iterable

from goalfile import ledger
from goalfile.model import Finding, Goal, Severity
from goalfile.parse import (
    CRITERIA_KEYS,
    first_lines,
    holds,
    ledger_bounds,
    ledger_region,
    ledger_span,
    markdown,
)
from goalfile.prose import inline_code
from goalfile.shellword import sed_command, shell_word

CODE = "rendered-differs"
# after the fix of a ledger line: a line in the copy HEAD holds is part of a committed entry
_COMMIT_IT = (
    "; then commit the file where HEAD's copy holds the line (until a commit holds its removal, "
    "the Stop hook holds an agent on the committed entry it changes, and its restore puts the "
    "line back)"
)

# a tag that opens an HTML block for one of the two readers only (CommonMark's kind 6 tags the
# two versions list differently), at a line's start or after container markers
_DISPUTED = re.compile(r"<(?P<tag>/?(?i:source|search))(?=[ \t/>]|$)", re.MULTILINE)
_LIST_MARKER = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]+|$)")
# a line that starts a footnote definition for GitHub (cmark-gfm: up to three blanks, `[^`, a
# label of no blank and no `]`, `]:`)
_FOOTNOTE = re.compile(r" {0,3}\[\^[^\]\s]+\]:")
_SETEXT = re.compile(r" {0,3}(?:-+|=+)[ \t]*$")  # a setext heading's underline
_READER = {"source": "GitHub (cmark-gfm)", "search": "goalfile (CommonMark 0.31)"}
_OTHER = {"source": "goalfile", "search": "GitHub"}


def _after_containers(line: str) -> str:
    """``line`` past the blanks, block-quote markers and list markers it starts with."""
    while True:
        rest = line.lstrip(" \t>")
        marker = _LIST_MARKER.match(rest)
        if marker is None:
            return rest
        line = rest[marker.end() :]


def findings(goal: Goal) -> list[Finding]:
    """One error for each line that opens an HTML block for one reader only, and one for the
    first line of the criteria table that GitHub's table does not reach."""
    found = list(_disputed_tags(goal)) if "<" in goal.text else []
    if "^" in goal.text and "[^" in goal.text:  # one character is memchr: "^" first
        found += _footnotes_over_table(goal)
    row = _row_after_table_end(goal)
    if row is not None:
        found.append(row)
    found += _ledger_hidden(goal)
    if "<" in goal.text or holds(goal.text, "]:"):
        from goalfile import htmlreach

        reported = {finding.line for finding in found}
        found += [f for f in htmlreach.findings(goal) if f.line not in reported]
    return found


# a line that may open an HTML block: `<` after at most three blanks (four make code) and
# container markers at its start
_HTML_LINE = re.compile(r"^ {0,3}(?:(?:>|[-+*]|[0-9]{1,9}[.)])[ \t]*)*<", re.MULTILINE)


def _ledger_hidden(goal: Goal) -> list[Finding]:
    """The ledger is read by its entry headings, not as Markdown, but GitHub shows it as
    Markdown: a line there that opens an HTML block for GitHub only (``<source>``), or an HTML
    block both readers open (``<!--`` up to a ``-->`` lines below) that swallows an entry
    heading, hides entries goalfile reads. One error for each disputed tag outside code, and
    one for each entry heading Markdown does not show as a heading. The ledger is parsed only
    when a line of it outside a fence starts with ``<`` after at most three blanks (an entry
    as goalfile writes it quotes output indented or fenced, which Markdown reads as code), so
    a long honest ledger costs one search."""
    region = ledger_region(goal.text)
    if region is None:
        return []
    fences = None  # output quoted in a fence (mdformat puts its lines at the margin) is code
    for opener in _HTML_LINE.finditer(goal.text, *region):
        fences = ledger.fenced_spans(goal.text) if fences is None else fences
        if not ledger.in_spans(fences, opener.start()):
            break
    else:
        return []
    text = goal.text
    low, high = region
    first = text.count("\n", 0, low)  # 0-based line of the ledger's first content line
    source = "\n".join(line.rstrip("\r") for line in text[low:high].split("\n"))
    tokens = markdown().parse(source)
    literal: set[int] = set()  # 1-based lines of the file that Markdown reads as code
    headings: set[int] = set()
    blocks: list[tuple[int, int]] = []  # 1-based first and last line of each HTML block
    for token in tokens:
        if token.map is None:
            continue
        if token.type in ("fence", "code_block"):
            literal.update(range(first + 1 + token.map[0], first + 1 + token.map[1]))
        elif token.type == "html_block":  # a tag below its first line opens nothing
            literal.update(range(first + 2 + token.map[0], first + 1 + token.map[1]))
            blocks.append((first + 1 + token.map[0], first + token.map[1]))
        elif token.type == "heading_open":
            headings.add(first + 1 + token.map[0])
    found: list[Finding] = []
    for tag in _DISPUTED.finditer(text, low, high):
        start = text.rfind("\n", 0, tag.start()) + 1
        if _after_containers(text[start : tag.start()]):
            continue  # not where a block starts
        number = text.count("\n", 0, start) + 1
        if number in literal:
            continue
        end = text.find("\n", tag.start())
        line = text[start : end if end >= 0 else len(text)].rstrip("\r")
        name = tag.group("tag").lstrip("/").lower()
        found.append(
            Finding(
                severity=Severity.ERROR,
                line=number,
                column=line.index("<") + 1,
                code=CODE,
                message=f"the ledger's line {inline_code(line.strip())} opens an HTML block for "
                f"{_READER[name]} but not for {_OTHER[name]}: GitHub can hide the entries "
                "under it, which goalfile reads and goes by",
                hint=f"delete the line: {sed_command(goal.path, [f'{number}d'])}{_COMMIT_IT}",
            )
        )
    for head in ledger.heads(text, low, high):
        number = text.count("\n", 0, head.start) + 1
        if number in headings:
            continue
        line = text[head.start : text.find("\n", head.start)].rstrip("\r")
        block = next((top for top, bottom in blocks if top < number <= bottom), None)
        hint = (
            "delete the line that opens the block above it (`git log -p -- "
            f"{shell_word(goal.path)}` shows the hand edit)"
            if block is None
            else f"delete the line that opens the HTML block (line {block}): "
            + sed_command(goal.path, [f"{block}d"])
        ) + _COMMIT_IT
        found.append(
            Finding(
                severity=Severity.ERROR,
                line=number,
                code=CODE,
                message=f"the entry heading {inline_code(line.strip())} is no heading on "
                "GitHub: an HTML block above it (a line starting with `<`) takes it in, so "
                "GitHub hides the entry or shows it as raw HTML, though goalfile reads it and "
                "goes by it",
                hint=hint,
            )
        )
    found.sort(key=lambda finding: finding.line or 0)
    return found


def _disputed_tags(goal: Goal) -> Iterable[Finding]:
    text = goal.text
    bounds = ledger_bounds(text)  # the ledger is not read as Markdown: it is not searched
    regions = [(0, len(text))] if bounds is None else [(0, bounds[0]), (bounds[2], len(text))]
    candidates: list[tuple[int, str, str]] = []
    for low, high in regions:
        for found in _DISPUTED.finditer(text, low, high):
            start = text.rfind("\n", 0, found.start()) + 1
            if _after_containers(text[start : found.start()]):
                continue  # not where a block starts
            number = text.count("\n", 0, start) + 1
            if number <= goal.frontmatter_end:
                continue
            end = text.find("\n", found.start())
            line = text[start : end if end >= 0 else len(text)].rstrip("\r")
            candidates.append((number, line, found.group("tag")))
    if not candidates:
        return
    literal = _code_lines(goal)
    for number, line, tag in candidates:
        if number in literal:
            continue
        name = tag.lstrip("/").lower()
        yield Finding(
            severity=Severity.ERROR,
            line=number,
            column=line.index("<") + 1,
            code=CODE,
            message=f"the line {inline_code(line.strip())} opens an HTML block for "
            f"{_READER[name]} but not for {_OTHER[name]}: the lines under it, up to the next "
            "blank line, are raw HTML in one view and Markdown in the other, so GitHub can show "
            "a reviewer other criteria than goalfile runs",
            hint=f"delete the line: {sed_command(goal.path, [f'{number}d'])}",
        )


def _code_lines(goal: Goal) -> set[int]:
    """The body lines markdown-it reads as code (fenced or indented) or inside an HTML block
    below its first line, where both readers agree a tag opens nothing (a block that only one
    of them opens is reported at its first line)."""
    lines = goal.text.split("\n")
    start = goal.frontmatter_end
    span = ledger_span(goal.text)
    pieces: list[tuple[int, int]] = []  # 0-based [first, end) lines
    if span is None:
        pieces.append((start, len(lines)))
    else:
        pieces.append((start, span[0] - 1))
        pieces.append((span[1] - 1, len(lines)))
    literal: set[int] = set()
    for first, end in pieces:
        if first >= end:
            continue
        source = "\n".join(line.rstrip("\r") for line in lines[first:end])
        for token in markdown().parse(source):
            if token.map is None:
                continue
            if token.type in ("fence", "code_block"):
                literal.update(range(first + 1 + token.map[0], first + 1 + token.map[1]))
            elif token.type == "html_block":  # inside a block both readers open (a comment)
                literal.update(range(first + 2 + token.map[0], first + 1 + token.map[1]))
    return literal


def _row_after_table_end(goal: Goal) -> Finding | None:
    """The criteria header, else the first criteria row, whose line starts with ``<``: GitHub
    reads no table there, or ends the table above it."""
    rows = [row for row in goal.criteria if row.line]
    if not rows or "<" not in goal.text:
        return None
    lines = first_lines(goal.text, max(row.line for row in rows))
    header = rows[0].line - 2  # the header, then the delimiter row, then the first row
    if 0 < header <= len(lines):
        line = lines[header - 1].rstrip("\r")
        if _after_containers(line).startswith("<"):
            return Finding(
                severity=Severity.ERROR,
                line=header,
                column=line.index("<") + 1,
                code=CODE,
                message=f"the criteria table's header {inline_code(line.strip())} starts with "
                "`<`: GitHub reads the line as raw HTML and shows no table, so none of the "
                "criteria show as a table, though goalfile runs them all: write the header as "
                "a table row that starts with `|`, naming the columns only (`| id | criterion | "
                "check | expected |`)",
            )
    for index, row in enumerate(rows):
        line = lines[row.line - 1].rstrip("\r")
        if "<" not in line or not _after_containers(line).startswith("<"):
            continue
        after = len(rows) - index - 1
        label = row.id or "this row"
        unseen = f"{label} never shows as criteria, though goalfile runs it"
        if after:
            rows_under = f"the {after} row{'s' if after != 1 else ''} under it"
            unseen = f"{label} and {rows_under} never show as criteria, though goalfile runs them"
        return Finding(
            severity=Severity.ERROR,
            line=row.line,
            column=line.index("<") + 1,
            code=CODE,
            message=f"the criteria row {inline_code(line.strip())} starts with `<`: GitHub "
            f"ends the table above it and shows the line as raw HTML, so {unseen}",
            hint="write the row as a table row that starts with `|` (`| ID | criterion | "
            f"check | expected |`), or delete it: {sed_command(goal.path, [f'{row.line}d'])}",
        )
    return None


def _footnotes_over_table(goal: Goal) -> list[Finding]:
    """Each line between the criteria heading and the table's header that starts a footnote
    definition for GitHub (outside code): the footnote's text can run on, paragraph line by
    paragraph line or through indented lines, into the table, which GitHub then does not show
    as a table (and not at all, when no reference points to the footnote). For a setext
    heading (`Acceptance criteria` over `---`), also each such line of the paragraph it ends:
    GitHub then shows no criteria heading, and the table under the section before."""
    rows = [row for row in goal.criteria if row.line]
    if not rows:
        return []
    header = rows[0].line - 2
    section = next(
        (s for s in goal.sections if s.key in CRITERIA_KEYS and s.line < header < s.end), None
    )
    if section is None:
        return []
    lines = first_lines(goal.text, header)
    first = section.line + 1
    if _SETEXT.match(lines[section.line].rstrip("\r")):  # the heading's text is a paragraph's
        first = section.line  # last line: a footnote above it takes it, and GitHub shows no
        while first > 1 and lines[first - 2].strip():  # heading there (the table then shows
            first -= 1  # under the section before, as if it were an example)
    numbers = [
        number for number in range(first, header) if _FOOTNOTE.match(lines[number - 1].rstrip("\r"))
    ]
    if not numbers:
        return []
    literal = _code_lines(goal)
    numbers = [number for number in numbers if number not in literal]
    if not numbers:
        return []
    fix = sed_command(goal.path, [f"{number}d" for number in numbers])
    return [
        Finding(
            severity=Severity.ERROR,
            line=number,
            column=lines[number - 1].index("[") + 1,
            code=CODE,
            message=f"the line {inline_code(lines[number - 1].strip())} above the criteria "
            "table starts a footnote definition for GitHub (goalfile reads no footnotes): "
            "the lines under it, the table's among them, can be the footnote's text there, "
            "which GitHub shows only where the file refers to the footnote, so a reviewer "
            "may see no criteria table at all, though goalfile runs every row of it",
            hint=f"delete the line{'s' if len(numbers) > 1 else ''}: {fix}",
        )
        for number in numbers
    ]
