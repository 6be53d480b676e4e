"""The ``## Plan`` table and its coverage of the criteria: pure, text in, findings out.

A plan is sound when every criterion id is served by some step and every step serves only
existing ids. ``serves`` lists ids separated by commas or spaces.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from goalfile.model import Goal
from goalfile.parse import section_key

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
    digest = hashlib.sha256(rows.encode("utf-8", "surrogateescape")).hexdigest()[:12]
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


def _plan_steps(goal: Goal) -> tuple[tuple[PlanStep, ...], list[str]]:
    section = goal.section("plan")
    if section is None:
        return (), ["there is no `## Plan` section"]
    lines = goal.text.split("\n")[section.line : section.end - 1]
    from markdown_it import MarkdownIt

    tokens = (
        MarkdownIt("commonmark")
        .enable("table")
        .parse("\n".join(line.rstrip("\r") for line in lines))
    )
    rows: list[tuple[int, list[str]]] = []
    current: list[str] | None = None
    line = 0
    for token in tokens:
        if token.type == "tr_open":
            current = []
            line = section.line + 1 + (token.map[0] if token.map else 0)
        elif token.type == "inline" and current is not None:
            current.append(token.content.strip())
        elif token.type == "tr_close" and current is not None:
            rows.append((line, current))
            current = None
        elif token.type == "table_close":
            break
    if not rows:
        return (), [
            "the plan has no table `| step | change | files | serves | check |` "
            f"(line {section.line})"
        ]
    names = [section_key(cell) for cell in rows[0][1]]
    missing = [name for name in PLAN_COLUMNS if name not in names]
    if missing:
        return (), [f"the plan table lacks the column(s) {', '.join(missing)}"]
    steps = tuple(_step(names, cells, line) for line, cells in rows[1:])
    if not steps:
        return (), ["the plan table has no steps"]
    return steps, []


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
