"""Raw HTML in the sections that are the contract (lint's ``hidden-markup``, at block level).

The criteria section and the non-goals are what a person approves and a reviewer reads, most
often as GitHub renders the file. An HTML block there is drawn by such a view and skipped by
goalfile: a ``<table>`` can show criteria that never run, and a ``<details>`` around the real
table folds away the rows that do (as can ``<sub>`` or ``<del>``). So every HTML block in
those sections is an error, except one that holds only comments, which no view draws.

A ``<details>`` opened above the criteria table, outside those sections (an HTML block in the
end state, or a tag inline in a line of prose, which is no block), and closed below the table
or never, folds the table the same way on GitHub: a browser puts everything up to
``</details>`` inside the element. So a ``<details>`` still open at the table's header is an
error too (:func:`_folds`).

Pure: a :class:`Goal` in, findings out. The sections are parsed only when one of their lines
starts with ``<``, which a goal as goalfile and mdformat write it never has."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from goalfile.model import Finding, Goal, Section, Severity
from goalfile.parse import CRITERIA_KEYS, first_lines, markdown
from goalfile.prose import inline_code
from goalfile.shellword import sed_command, sed_lines

CODE = "hidden-markup"
_CONTRACT = {*CRITERIA_KEYS, "non-goals", "non goals", "nongoals"}
_OPENS_HTML = re.compile(r"(?m)^ {0,3}<")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)  # one left open hides to the end
_DETAILS = re.compile(r"<(/?)details(?=[\s/>]|$)", re.IGNORECASE)


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class _Html:
    section: Section
    first: int  # 1-based, the block's first and last line
    last: int
    opener: str  # its first line, stripped


def findings(goal: Goal) -> list[Finding]:
    """One error for each HTML block in a criteria or non-goals section that is not only
    comments; each names the block's lines, and the one command that deletes them all."""
    sections = [section for section in goal.sections if section.key in _CONTRACT]
    # a section's lines end before its ``end`` (1-based): the first ``end - 1`` lines
    lines = first_lines(goal.text, max((section.end - 1 for section in sections), default=0))
    found = [html for section in sections for html in _html_blocks(section, lines)]
    folds = _folds(goal, {line for html in found for line in range(html.first, html.last + 1)})
    if not found:
        return folds
    fix = sed_command(goal.path, [f"{sed_lines(h.first, h.last)}d" for h in found])
    return [_finding(goal, html, fix, len(found)) for html in found] + folds


def _folds(goal: Goal, reported: set[int]) -> list[Finding]:
    """Each ``<details>`` (in an HTML block or inline, outside code) above the criteria table
    that is still open at the table's header: GitHub folds the table into it. ``reported``
    are the lines of HTML blocks already reported by :func:`findings`."""
    rows = [row for row in goal.criteria if row.line]
    if not rows or "<" not in goal.text:
        return []
    header = rows[0].line - 2  # the header, then the delimiter row, then the first row
    lines = first_lines(goal.text, header - 1)
    start = goal.frontmatter_end  # the body's first line is this one's next (1-based)
    body = "\n".join(line.rstrip("\r") for line in lines[start : header - 1])
    if not _DETAILS.search(body):
        return []
    opened: list[tuple[int, bool]] = []  # (line, whether its line is an HTML block)
    for token in markdown().parse(body):
        if token.map is None:
            continue
        line = start + 1 + token.map[0]
        if token.type == "html_block":
            pieces = [token.content]
        elif token.type == "inline":
            pieces = [c.content for c in token.children or [] if c.type == "html_inline"]
        else:
            continue
        for piece in pieces:
            for tag in _DETAILS.finditer(_COMMENT.sub("", piece)):
                if tag.group(1):
                    if opened:
                        opened.pop()
                else:
                    opened.append((line, token.type == "html_block"))
    found: list[Finding] = []
    for line, block in opened:
        if line in reported:
            continue
        shown = lines[line - 1].strip()
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        fix = f"{sed_command(goal.path, [f'{line}d'])} deletes the line" if block else None
        found.append(
            Finding(
                severity=Severity.ERROR,
                line=line,
                column=None,
                code=CODE,
                message=(
                    f"line {line} {inline_code(shown)} opens a `<details>` that is still open "
                    "at the criteria table: GitHub folds the table into it, under its summary, "
                    "so a reader sees what is above it and not the rows goalfile runs; close it "
                    "(`</details>`) before the criteria section"
                    + ("" if block else f", or take it (and its `<summary>`) out of line {line}")
                ),
                hint=fix,
            )
        )
    return found


def _html_blocks(section: Section, lines: list[str]) -> Iterable[_Html]:
    body = [line.rstrip("\r") for line in lines[section.line : section.end - 1]]
    text = "\n".join(body)
    if not _OPENS_HTML.search(text):
        return
    first = section.line + 1
    for token in markdown().parse(text):
        if token.type != "html_block" or token.map is None:
            continue
        if not _COMMENT.sub("", token.content).strip():
            continue  # comments only: no view draws them
        opener = token.content.strip().split("\n", 1)[0]
        yield _Html(
            section=section,
            first=first + token.map[0],
            last=first + token.map[1] - 1,
            opener=opener,
        )


def _finding(goal: Goal, html: _Html, fix: str, count: int) -> Finding:
    where = (
        f"line {html.first}" if html.first == html.last else f"lines {html.first} to {html.last}"
    )
    shown = html.opener if len(html.opener) <= 60 else html.opener[:57] + "..."
    what = "every HTML block of these sections" if count > 1 else "the HTML block"
    return Finding(
        severity=Severity.ERROR,
        line=html.first,
        column=None,
        code=CODE,
        message=(
            f"the {html.section.title} section holds an HTML block {inline_code(shown)} "
            f"({where}): a Markdown view such as GitHub's draws it, goalfile does not read "
            "it, so what a reader sees there is not the contract that runs (a table in HTML "
            "shows rows that never run; `<details>` folds away the rows that do)"
        ),
        hint=f"write the section in plain Markdown; to delete {what}: {fix}",
    )
