"""Raw HTML in the sections that are the contract (lint's ``hidden-markup``, at block level).

The criteria section and the non-goals are what a person approves and a reviewer reads, most
often as GitHub renders the file. An HTML block there is drawn by such a view and skipped by
goalfile: a ``<table>`` can show criteria that never run, and a ``<details>`` around the real
table folds away the rows that do (as can ``<sub>`` or ``<del>``). So every HTML block in
those sections is an error, except one that holds only comments, which no view draws.

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
    if not found:
        return []
    fix = sed_command(goal.path, [f"{sed_lines(h.first, h.last)}d" for h in found])
    return [_finding(goal, html, fix, len(found)) for html in found]


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
