"""Lines of the criteria table that GitHub's table extension reads otherwise than goalfile's
(lint's ``rendered-differs``, for the table itself).

goalfile reads the table with markdown-it's GFM table rule, GitHub with cmark-gfm's. A
differential search of the two, over criteria tables with other lines around them, found two
ways a lint-clean goal showed a reviewer other rows than goalfile ran (each verified `met`):

- The lines right above the header. cmark-gfm takes a table's header from the last line of the
  paragraph above its delimiter row, and opens a table under a header without a pipe (``Rows:``
  over ``-:``), which markdown-it does not: such a table of GitHub's own, one column wide, took
  the criteria table's lines in as its rows, so GitHub showed `id`, `----`, `C1` and no check at
  all. A delimiter-shaped line whose header does not match (``a | b |`` over ``-:``) keeps
  cmark-gfm from opening any later table in that paragraph, and a link reference definition in
  a list item or block quote right above takes the header in as the paragraph's lazy line:
  GitHub then showed the criteria as a paragraph of text. A blank line ends every such block in
  both readers, so *the header is under a blank line or an ATX heading* (``## Acceptance
  criteria``; a setext underline right above it was a paragraph's lazy line for GitHub, under
  a list item).
- The characters at a line's ends. markdown-it trims a table line of every CommonMark blank
  (a no-break space, a form feed, U+3000 ...); cmark-gfm trims spaces and tabs only, and reads
  what is left before the first pipe as a cell of its own. A row written
  ``<NBSP>| C2 | `pytest -q` | `true` | exit 0 | deterministic |`` ran `true` (exit 0) for
  goalfile and showed on GitHub one column to the right: an empty id, `C2` as the criterion,
  `pytest -q` as the check. On the header or the delimiter row, one cell more for GitHub than
  for goalfile means no table at all. So *no line of the criteria table starts or ends with
  such a character*.

Pure: a :class:`Goal` in, findings out; a goal as goalfile and mdformat write it costs one
look at the line above the header and one search of the text above the ledger."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from goalfile.model import Finding, Goal, Severity
from goalfile.parse import CRITERIA_KEYS, first_lines, ledger_bounds, markdown
from goalfile.prose import inline_code
from goalfile.shellword import sed_command

CODE = "rendered-differs"

# what markdown-it (4.x: CommonMark's blanks, Unicode's space separators, U+2028/9; 3.x:
# str.strip, which adds U+001C-U+001F and U+0085) trims off a table line and cmark-gfm does not
_EDGE_CHARS = "".join(
    sorted(
        {chr(c) for c in (0x0B, 0x0C, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000)}
        | {chr(c) for c in range(0x1C, 0x20)}
        | {chr(c) for c in range(0x2000, 0x200B)}
    )
)
_LEADING = f"[ \\t]*([{re.escape(_EDGE_CHARS)}])"
_TRAILING = f"([{re.escape(_EDGE_CHARS)}])[ \\t\\r]*$"
_SETEXT = r" {0,3}(?:-+|=+)[ \t]*$"  # a setext heading's underline
# cmark-gfm's table start (ext_scanners.re): `[|]? marker ([|] marker)* [|]? spacechar*`, a
# marker being `spacechar* :? -+ :? spacechar*` and a spacechar a space, tab, VT or FF
_MARKER = r"[ \t\v\f]*:?-+:?[ \t\v\f]*"
_DELIMITER = rf"\|?{_MARKER}(?:\|{_MARKER})*\|?[ \t\v\f]*$"
# a line that opens a block quote or a list item (GitHub continues its paragraph lazily)
_CONTAINER = r"(?:>|[-+*](?:[ \t]|$)|[0-9]{1,9}[.)](?:[ \t]|$))"


def findings(goal: Goal) -> list[Finding]:
    """The criteria header right under a line that is not blank, and each line of the
    criteria table that starts or ends with a character only goalfile trims."""
    rows = [row for row in goal.criteria if row.line]
    if not rows:
        return []
    header = rows[0].line - 2  # the header, then the delimiter row, then the first row
    if header < 1:
        return []
    last = max(row.line for row in rows)
    lines = first_lines(goal.text, last + 1)
    found = [*_setext_under_text(goal, lines, header), *_under_text(goal, lines, header)]
    bounds = ledger_bounds(goal.text)
    end = bounds[0] if bounds else len(goal.text)
    edges = any(goal.text.find(char, 0, end) >= 0 for char in _EDGE_CHARS)
    breaks = goal.text.find("\r\r", 0, end) >= 0
    if edges or breaks:
        numbered = [(header, "the header"), (header + 1, "the delimiter row")]
        numbered += [(row.line, f"the row {row.id}" if row.id else "a row") for row in rows]
        if edges:
            found += _edges(goal, lines, numbered)
        if breaks:
            found += _breaks(goal, lines, numbered[:-1])
        if edges and last < len(lines):
            found += _blank_for_goalfile(goal, lines, last + 1)
    return found


def _blank_for_goalfile(goal: Goal, lines: list[str], number: int) -> Iterable[Finding]:
    """The line under the table's last row, when it holds only characters goalfile trims:
    blank for goalfile, which ends the table there, and a row of it for GitHub, which goes on
    showing the lines under it as rows of the table."""
    line = lines[number - 1].rstrip("\r")
    if not line.strip(" \t") or line.strip(" \t" + _EDGE_CHARS):
        return
    char = line.strip(" \t")[0]
    yield Finding(
        severity=Severity.ERROR,
        line=number,
        column=line.index(char) + 1,
        code=CODE,
        message=f"the line under the criteria table's last row holds {_char_name(char)} and "
        "blanks only: goalfile reads it as a blank line that ends the table, GitHub (cmark-gfm) "
        "as a row of the table, so GitHub goes on showing the lines under it as criteria rows, "
        "which goalfile does not run",
        hint=f"make the line blank: {sed_command(goal.path, [f'{number}s/.*//'])}",
    )


def _breaks(goal: Goal, lines: list[str], numbered: list[tuple[int, str]]) -> Iterable[Finding]:
    """A line of the table, not its last, that ends in two carriage returns or more: goalfile
    reads them with the line feed as one line ending, Markdown (GitHub's too) as two, a blank
    line that ends the table there, so the rows under it show as a paragraph of text."""
    for number, what in numbered:
        if number <= len(lines) and lines[number - 1].endswith("\r\r"):
            yield Finding(
                severity=Severity.ERROR,
                line=number,
                code=CODE,
                message=f"{what} of the criteria table ends in more than one carriage return: "
                "goalfile reads them and the line feed as one line ending, GitHub as two, with "
                "a blank line between that ends the table there, so the rows under it show as "
                "a paragraph of text and not as criteria, though goalfile runs them",
                hint="end the line with one line ending: "
                + sed_command(goal.path, [f"{number}s/[[:cntrl:]]*$//"]),
            )


def _lazy_culprit(goal: Goal, lines: list[str], below: int) -> int | None:
    """The line, among those right above line ``below`` (up to a blank line or a heading at
    the margin), that cmark-gfm reads as a table's delimiter row (dashes alone aside: a
    heading's underline for both) or that opens a block quote or a list item, whose paragraph
    cmark-gfm continues into line ``below`` as a lazy line; or the first of those lines when
    they are inside a list item or a block quote that began above a blank line."""
    number = below - 1
    top = below
    culprit = None
    while number >= 1:
        line = lines[number - 1].rstrip("\r")
        if not line.strip(" \t") or _atx_at_margin(line):
            break
        rest = line.lstrip(" \t")
        if re.match(_CONTAINER, rest) or (re.match(_DELIMITER, rest) and rest.strip("- \t")):
            culprit = number
        top = number
        number -= 1
    if top == below or culprit is not None:
        return culprit
    if lines[top - 1][:1] not in (" ", "\t") or not _in_container(goal, lines, top):
        return None
    return top


def _atx_at_margin(line: str) -> bool:
    """Whether ``line`` is an ATX heading that starts at the margin: one to six ``#`` followed
    by a space, a tab or nothing (no pattern: the criteria heading is often right above)."""
    hashes = len(line) - len(line.lstrip("#"))
    return 1 <= hashes <= 6 and line[hashes : hashes + 1] in ("", " ", "\t")


def _setext_under_text(goal: Goal, lines: list[str], header: int) -> Iterable[Finding]:
    """The criteria section's setext heading (``Acceptance criteria`` over ``---``), when a
    line above its text takes that text in as a lazy line for GitHub: a list item or block
    quote holding a link reference definition (``- [a]: /u``) is no paragraph for goalfile,
    which reads the heading, and one for cmark-gfm, which continues it with the heading's text
    and reads ``---`` as a thematic break: GitHub showed no criteria heading, and the table
    under the section before it, as an example."""
    section = next(
        (s for s in goal.sections if s.key in CRITERIA_KEYS and s.line < header < s.end), None
    )
    if section is None or section.line >= len(lines):
        return
    under = lines[section.line].rstrip("\r")
    if not under.strip() or under.strip(" \t-=") or not re.match(_SETEXT, under):
        return
    culprit = _lazy_culprit(goal, lines, section.line)
    if culprit is None:
        return
    line = lines[culprit - 1].rstrip("\r").strip()
    yield Finding(
        severity=Severity.ERROR,
        line=section.line,
        column=1,
        code=CODE,
        message=f"the criteria heading {inline_code(lines[section.line - 1].strip())} is "
        f"written over an underline right below the line {inline_code(line)} (line "
        f"{culprit}): GitHub (cmark-gfm) continues that line's paragraph with the heading's "
        "text and reads the underline as a thematic break, so it shows no criteria heading, "
        "and the criteria table under the section before it, though goalfile runs every row",
        hint="put a blank line above the heading: "
        + sed_command(goal.path, [f"{section.line - 1}G"]),
    )


def _under_text(goal: Goal, lines: list[str], header: int) -> Iterable[Finding]:
    """The header, when a line right above it takes it in for GitHub (:func:`_lazy_culprit`)."""
    culprit = _lazy_culprit(goal, lines, header)
    if culprit is None:
        return
    line = lines[culprit - 1].rstrip("\r")
    above = lines[header - 2].rstrip("\r")
    yield Finding(
        severity=Severity.ERROR,
        line=header,
        column=1,
        code=CODE,
        message=f"the criteria table's header is right under the line "
        f"{inline_code(above.strip())} (line {header - 1}), with no blank line between, "
        f"below the line {inline_code(line.strip())} (line {culprit}): GitHub (cmark-gfm) "
        "reads a table's header together with the lines above it by other rules than goalfile "
        "(a delimiter row such as `-:` there opens a table of GitHub's own, one column wide, "
        "that takes the criteria rows in, or keeps GitHub from opening the criteria table; a "
        "block quote or a list item there takes the header in as a lazy line), so a reviewer "
        "may see other criteria than goalfile runs",
        hint=f"put a blank line above the header: {sed_command(goal.path, [f'{header - 1}G'])}",
    )


def _in_container(goal: Goal, lines: list[str], number: int) -> bool:
    """Whether Markdown reads line ``number`` (1-based) inside a list item or a block quote,
    the criteria section's lines above it parsed as goalfile parses them."""
    section = next(
        (s for s in goal.sections if s.key in CRITERIA_KEYS and s.line < number < s.end), None
    )
    first = section.line if section is not None else goal.frontmatter_end
    source = "\n".join(line.rstrip("\r") for line in lines[first:number])
    at = number - 1 - first  # 0-based in ``source``
    return any(
        token.nesting == 1
        and token.type in _CONTAINERS
        and token.map is not None
        and token.map[0] <= at < token.map[1]
        for token in markdown().parse(source)
    )


_CONTAINERS = frozenset(("blockquote_open", "list_item_open"))


def _char_name(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def _edges(goal: Goal, lines: list[str], numbered: list[tuple[int, str]]) -> Iterable[Finding]:
    for index, (number, what) in enumerate(numbered):
        if number > len(lines):
            continue
        line = lines[number - 1]
        leading = re.match(_LEADING, line)
        trailing = re.search(_TRAILING, line)
        if leading is None and trailing is None:
            continue
        scripts = []
        if leading is not None:
            start = line[: line.find("|")] if "|" in line else line
            if "|" in line and not start.strip(" \t" + _EDGE_CHARS):
                scripts.append(f"{number}s/^[^|]*|/|/")
        if trailing is not None:
            end = line[line.rfind("|") + 1 :] if "|" in line else line
            if "|" in line and not end.strip(" \t\r" + _EDGE_CHARS):
                scripts.append(f"{number}s/|[^|]*$/|/")
        char = (leading or trailing).group(1)  # type: ignore[union-attr]
        side = "starts" if leading is not None else "ends"
        if index < 2:
            effect = (
                "so GitHub reads one cell more in it than goalfile and shows no criteria table "
                "at all, though goalfile runs every row"
            )
        elif leading is not None:
            effect = (
                "so GitHub shows the row's cells one column to the right of goalfile's (its "
                "criterion as the check, its check as the expected result), though goalfile "
                "runs them as they stand"
            )
        else:
            effect = "so GitHub reads one cell more in the row than goalfile"
        hint = (
            f"delete the characters outside the row's pipes: {sed_command(goal.path, scripts)}"
            if scripts
            else None
        )
        if hint is None:  # no command knows where the row's cells end
            effect += (
                "; write the line as a table row that starts and ends with `|`, with nothing "
                "but spaces outside them"
            )
        yield Finding(
            severity=Severity.ERROR,
            line=number,
            column=(leading.start(1) if leading is not None else trailing.start(1)) + 1,  # type: ignore[union-attr]
            code=CODE,
            message=f"{what} of the criteria table {side} with {_char_name(char)}, which "
            "goalfile's Markdown trims off a table line and GitHub's (cmark-gfm) keeps as the "
            f"text of a cell, {effect}",
            hint=hint,
        )
