"""The ``## Plan`` table and its coverage of the criteria: pure, text in, findings out.

A plan is sound when every criterion id is served by some step and every step serves only
existing ids. ``serves`` lists ids separated by commas or spaces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from goalfile import ledger
from goalfile.digest import sha256
from goalfile.model import Goal, Section
from goalfile.parse import ledger_bounds, section_key
from goalfile.words import noun

PLAN_COLUMNS = ("step", "change", "files", "serves", "check")


@dataclass(frozen=True, kw_only=True)
class PlanStep:
    step: str
    change: str
    files: str
    serves: tuple[str, ...]
    check: str
    line: int


@dataclass(frozen=True, kw_only=True)
class PlanReview:
    steps: tuple[PlanStep, ...]
    unserved: tuple[str, ...]  # criterion ids no step serves
    orphans: tuple[tuple[str, tuple[str, ...]], ...]  # (step, ids it names that do not exist)
    idle: tuple[str, ...]  # steps that serve nothing
    problems: tuple[str, ...]  # the table itself is missing or malformed
    digest: str  # short digest of the table's rows, the plan's revision identity

    @property
    def sound(self) -> bool:
        return not (self.unserved or self.orphans or self.idle or self.problems)

    def findings(self) -> list[str]:
        lines = list(self.problems)
        lines += [f"{cid} is served by no step" for cid in self.unserved]
        lines += [
            f"step {step} serves {', '.join(ids)}, which {'is' if len(ids) == 1 else 'are'} "
            "not a criterion"
            for step, ids in self.orphans
        ]
        lines += [f"step {step} serves no criterion" for step in self.idle]
        return lines


def review_plan(goal: Goal) -> PlanReview:
    steps, problems = _plan_steps(goal)
    ids = [row.id for row in goal.criteria]
    served = {cid for step in steps for cid in step.serves}
    unserved = tuple(cid for cid in ids if cid not in served)
    orphans = tuple(
        (step.step, missing)
        for step in steps
        if (missing := tuple(cid for cid in step.serves if cid not in ids))
    )
    idle = tuple(step.step for step in steps if not step.serves)
    rows = "\n".join(
        "|".join([s.step, s.change, s.files, ",".join(s.serves), s.check]) for s in steps
    )
    digest = sha256(rows.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return PlanReview(
        steps=steps,
        unserved=unserved,
        orphans=orphans,
        idle=idle,
        problems=tuple(problems),
        digest=digest,
    )


def _split_ids(cell: str) -> tuple[str, ...]:
    return tuple(part for part in re.split(r"[\s,;]+", cell.replace("`", "")) if part)


@dataclass(frozen=True, kw_only=True)
class EmptyPlan:
    """A plan with no step to check: no ``## Plan`` section, a section without a table, or a
    table with its header only. ``line`` is where the plan belongs (1-based)."""

    problem: str
    line: int
    has_section: bool


def empty_plan(goal: Goal) -> EmptyPlan | None:
    """Why the plan has no step at all, or None when it has one (sound or not)."""
    section = goal.section("plan")
    if section is None:
        return EmptyPlan(
            problem="there is no `## Plan` section", line=_plan_place(goal), has_section=False
        )
    rows = _plan_rows(goal, section)
    if not rows:
        return EmptyPlan(
            problem="the `## Plan` section has no table", line=section.line, has_section=True
        )
    if len(rows) == 1:
        return EmptyPlan(problem="the plan table has no steps", line=rows[0][0], has_section=True)
    return None


def _plan_place(goal: Goal) -> int:
    """The line a missing ``## Plan`` section goes above: the heading that follows the
    criteria (or, without them, the ledger's), else the end of the file."""
    keys = [section.key for section in goal.sections]
    for key in ("acceptance criteria", "criteria"):
        if key in keys:
            after = keys.index(key) + 1
            if after < len(goal.sections):
                return goal.sections[after].line
    ledger = goal.section("iterations")
    if ledger is not None:
        return ledger.line
    return goal.text.count("\n") + 1


def _plan_steps(goal: Goal) -> tuple[tuple[PlanStep, ...], list[str]]:
    section = goal.section("plan")
    if section is None:
        return (), ["there is no `## Plan` section"]
    rows = _plan_rows(goal, section)
    if not rows:
        return (), [
            "the plan has no table `| step | change | files | serves | check |` "
            f"(line {section.line})"
        ]
    names = [section_key(cell) for cell in rows[0][1]]
    missing = [name for name in PLAN_COLUMNS if name not in names]
    if missing:
        return (), [f"the plan table lacks the {noun(len(missing), 'column')} {', '.join(missing)}"]
    steps: list[PlanStep] = []
    problems: list[str] = []
    for number, (line, cells) in enumerate(rows[1:], 1):
        if _repeats_header(cells, names):
            # a table typed as the plan skill shows it, above the header `goalfile new`
            # wrote: Markdown reads that header as rows of one table, none of them a step
            problems.append(
                f"row {number} of the plan table repeats its header (a table typed above the "
                "header `goalfile new` wrote?): delete that line"
            )
            continue
        steps.append(_step(names, cells, line))
    if not steps:
        return (), ["the plan table has no steps", *problems]
    return tuple(steps), problems


def _repeats_header(cells: Sequence[str], names: Sequence[str]) -> bool:
    """Whether a row of the plan table is its header again, or the line under the header
    (``|------|``), which Markdown reads as a row anywhere below it."""
    if [section_key(cell) for cell in cells] == list(names):
        return True
    return any(cells) and all(re.fullmatch(r":?-+:?", cell) for cell in cells if cell)


def _plan_rows(goal: Goal, section: Section) -> list[tuple[int, list[str]]]:
    """The first table of the section: (line, cells) of its header and of each row."""
    # split no further than the section's end: the ledger, often below, may be long; and
    # split the text before the ledger when the section is there, or the rest of the text
    # (the ledger) is one more piece, a copy of it
    text = goal.text
    bounds = ledger_bounds(text)
    if bounds is not None and text.count("\n", 0, bounds[0]) >= section.end - 1:
        text = text[: bounds[0]]
    lines = text.split("\n", section.end - 1)[section.line : section.end - 1]
    rows: list[tuple[int, list[str]]] = []
    current: list[str] | None = None
    line = 0
    for token in _section_tokens(lines):
        if token.type == "tr_open":
            current = []
            line = section.line + 1 + (token.map[0] if token.map else 0)
        elif token.type == "inline" and current is not None:
            current.append(token.content.strip())
        elif token.type == "tr_close" and current is not None:
            if not _is_findings_row(current, lines[line - section.line - 1]):
                rows.append((line, current))
            current = None
        elif token.type == "table_close":
            break
    return rows


def _section_tokens(lines: Sequence[str]) -> list[Any]:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    return list(md.parse("\n".join(line.rstrip("\r") for line in lines)))


def _is_findings_row(cells: Sequence[str], source: str) -> bool:
    """The skill family writes ``findings: ...`` right under the table, which GFM reads as one
    more row (a line without a pipe), and mdformat then writes as ``| findings: ... | | |``.
    Neither is a step."""
    if "|" not in source:
        return True
    return bool(cells) and cells[0].lower().startswith("findings:") and not any(cells[1:])


_REVISION_RE = re.compile(r"^revision:")
_VERIFY_PLAN_RE = re.compile(r"^verify-plan:")
_FINDINGS_RE = re.compile(r"^(?:\|[ \t]*)?findings:")


def findings_line(findings: Sequence[str]) -> str:
    return f"findings: {'; '.join(findings) if findings else 'none'}"


def record_in_section(
    text: str, goal: Goal, *, revision: int, verdict: str, date: str, findings: Sequence[str]
) -> str:
    """Write the plan skill's lines into ``## Plan``: ``revision:`` and ``verify-plan:`` under
    the heading, ``findings:`` under the table. A line already there is replaced in place;
    a missing one is added in mdformat's layout (a blank line around each block). Nothing else
    in the section changes. A goal without a ``## Plan`` section is left as it is."""
    section = goal.section("plan")
    if section is None:
        return text
    first, stop = section.line, section.end - 1  # 0-based: the section's content lines
    # split no further than the section's end: the ledger, often below, may be long
    cut = 0  # just after the section's last line break
    for _ in range(stop):
        cut = text.find("\n", cut) + 1
        if not cut:
            break
    lines = text[:cut].split("\n")[:stop] if cut else text.split("\n")
    rest = cut > 0  # a line break ends the section's last line, and the rest follows it
    cr = "\r" if lines[0].endswith("\r") else ""
    content = lines[first:stop]
    new_revision = f"revision: {revision}"
    new_verdict = f"verify-plan: {verdict} ({date})"
    new_findings = findings_line(findings)

    def where(pattern: re.Pattern[str]) -> int | None:
        return next((i for i, line in enumerate(content) if pattern.match(line.rstrip("\r"))), None)

    table_end = None
    for token in _section_tokens(content):
        if token.type == "table_open" and token.map:
            table_end = token.map[1]
            break
    at_findings = where(_FINDINGS_RE)
    if at_findings is not None:
        content[at_findings] = new_findings + cr
    else:
        anchor = table_end if table_end is not None else len(_strip_tail(content))
        after = content[anchor:]
        block = [cr, new_findings + cr]
        if (after and after[0].rstrip("\r")) or (not after and rest):
            block.append(cr)
        content[anchor:anchor] = block
    at_revision, at_verdict = where(_REVISION_RE), where(_VERIFY_PLAN_RE)
    if at_revision is not None:
        content[at_revision] = new_revision + cr
    if at_verdict is not None:
        content[at_verdict] = new_verdict + cr
    if at_revision is None and at_verdict is not None:
        content.insert(at_verdict, new_revision + cr)
    elif at_verdict is None and at_revision is not None:
        content.insert(at_revision + 1, new_verdict + cr)
    elif at_revision is None and at_verdict is None:
        head = 0
        while head < len(content) and not content[head].rstrip("\r"):
            head += 1
        block = [cr, new_revision + cr, new_verdict + cr]
        if head < len(content) or rest:
            block.append(cr)
        content[0:head] = block
    start = sum(map(len, lines[:first])) + first  # the section's first line, in both texts
    if not rest:  # the section ends the text
        return ledger.spliced(text, "\n".join([*lines[:first], *content]), start, 0)
    edited = "\n".join([*lines[:first], *content, ""])
    # the text up to ``cut`` begins it: replacing it copies the rest once, where splitting
    # the rest off and joining it again copied it twice
    new = text.replace(text[:cut], edited, 1)
    return ledger.spliced(text, new, start, len(text) - cut)


def _strip_tail(lines: Sequence[str]) -> Sequence[str]:
    end = len(lines)
    while end > 0 and not lines[end - 1].rstrip("\r"):
        end -= 1
    return lines[:end]


def _step(names: Sequence[str], cells: Sequence[str], line: int) -> PlanStep:
    def cell(name: str) -> str:
        pos = names.index(name)
        return cells[pos] if pos < len(cells) else ""

    return PlanStep(
        step=cell("step"),
        change=cell("change"),
        files=cell("files"),
        serves=_split_ids(cell("serves")),
        check=cell("check"),
        line=line,
    )
