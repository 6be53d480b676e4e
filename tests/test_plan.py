"""goalfile.plan: the `## Plan` table and its coverage of the criteria (pure: text in, findings
out). The `goalfile plan` command itself is tested end to end in test_lifecycle.py."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from goalfile.parse import parse_goal
from goalfile.plan import PLAN_COLUMNS, PlanReview, review_plan

HEADER = "| step | change | files | serves | check |"
RULE = "|------|--------|-------|--------|-------|"
CRITERIA = ("C1", "C2", "R1")


def goal(plan: Sequence[str] | None, *, ids: Sequence[str] = CRITERIA, after: str = "") -> str:
    """A goal file whose `## Plan` section holds ``plan`` (``None``: no such section)."""
    rows = [
        f"| {cid} | c {cid} | `true` | exit 0 | deterministic |"
        if not cid.startswith("R")
        else f"| {cid} | c {cid} | `docs/a.md` | says so | review |"
        for cid in ids
    ]
    lines = [
        "---",
        "slug: demo",
        "status: active",
        "created: 2026-11-30",
        "budget:",
        "  iterations: 5",
        "  tokens: null",
        "iterations_used: 1",
        "tokens_used: 0",
        "---",
        "# Goal: it works",
        "",
        "## Non-goals",
        "- nothing else",
        "",
        "## Acceptance criteria",
        "| id | criterion | check | expected | kind |",
        "|----|-----------|-------|----------|------|",
        *rows,
        "",
    ]
    if plan is not None:
        lines += ["## Plan", *plan, ""]
    lines += ["## Iterations", "", after, "## Lessons", ""]
    return "\n".join(lines)


def review(plan: Sequence[str] | None) -> PlanReview:
    return review_plan(parse_goal(goal(plan), path="goals/demo.md"))


SOUND = (
    HEADER,
    RULE,
    "| 1 | add the endpoint | auth.py | C1 | `pytest -q` |",
    "| 2 | write the docs | docs/a.md | C2, R1 | - |",
)


def test_sound_plan() -> None:
    result = review(SOUND)
    assert result.sound
    assert result.findings() == []
    assert [(s.step, s.change, s.files, s.serves, s.check) for s in result.steps] == [
        ("1", "add the endpoint", "auth.py", ("C1",), "`pytest -q`"),
        ("2", "write the docs", "docs/a.md", ("C2", "R1"), "-"),
    ]
    assert (result.unserved, result.orphans, result.idle, result.problems) == ((), (), (), ())


def test_step_lines_are_the_lines_of_the_file() -> None:
    text = goal(SOUND)
    result = review_plan(parse_goal(text, path="g.md"))
    lines = text.split("\n")
    for step in result.steps:
        assert lines[step.line - 1].startswith(f"| {step.step} |")


@pytest.mark.parametrize(
    ("cell", "ids"),
    [
        ("C1, C2, R1", ("C1", "C2", "R1")),
        ("C1 C2 R1", ("C1", "C2", "R1")),
        ("C1;C2 ; R1", ("C1", "C2", "R1")),
        ("`C1`, `C2` `R1`", ("C1", "C2", "R1")),
        (" C1 ,, R1 ", ("C1", "R1")),
    ],
)
def test_serves_is_split_on_commas_spaces_and_semicolons(cell: str, ids: tuple[str, ...]) -> None:
    result = review((HEADER, RULE, f"| 1 | all | x | {cell} | - |"))
    assert result.steps[0].serves == ids


def test_columns_are_found_by_name_in_any_order() -> None:
    result = review(
        (
            "| Serves | Step | Check | Files | Change |",
            "|---|---|---|---|---|",
            "| C1 C2 R1 | 1 | `true` | a.py | everything |",
        )
    )
    assert result.sound
    (step,) = result.steps
    assert (step.step, step.change, step.files, step.serves, step.check) == (
        "1",
        "everything",
        "a.py",
        ("C1", "C2", "R1"),
        "`true`",
    )


def test_unserved_criteria_are_listed_in_table_order() -> None:
    result = review((HEADER, RULE, "| 1 | endpoint | a.py | C2 | - |"))
    assert not result.sound
    assert result.unserved == ("C1", "R1")
    assert result.findings() == ["C1 is served by no step", "R1 is served by no step"]


def test_steps_serving_ids_that_do_not_exist_are_orphans() -> None:
    result = review(
        (
            HEADER,
            RULE,
            "| 1 | endpoint | a.py | C1 C2 R1 C9 | - |",
            "| 2b | more | b.py | C7, C8 | - |",
            "| 3 | fine | c.py | C1 | - |",
        )
    )
    assert not result.sound
    assert result.orphans == (("1", ("C9",)), ("2b", ("C7", "C8")))
    assert result.findings() == [
        "step 1 serves C9, which is not a criterion",
        "step 2b serves C7, C8, which are not a criterion",
    ]


def test_ids_are_case_sensitive() -> None:
    result = review((HEADER, RULE, "| 1 | all | a.py | c1 C2 R1 | - |"))
    assert result.unserved == ("C1",)
    assert result.orphans == (("1", ("c1",)),)


def test_a_step_serving_nothing_is_idle() -> None:
    result = review((*SOUND, "| 3 | tidy up | x.py |  | - |", "| 4 | lint | y.py | `` | - |"))
    assert not result.sound
    assert result.idle == ("3", "4")
    assert result.findings() == ["step 3 serves no criterion", "step 4 serves no criterion"]


def test_findings_come_in_a_fixed_order() -> None:
    result = review(
        (HEADER, RULE, "| 1 | a | a.py | C1 C9 | - |", "| 2 | b | b.py | | - |"),
    )
    assert result.findings() == [
        "C2 is served by no step",
        "R1 is served by no step",
        "step 1 serves C9, which is not a criterion",
        "step 2 serves no criterion",
    ]


def test_no_plan_section() -> None:
    result = review(None)
    assert not result.sound
    assert result.steps == ()
    assert result.problems == ("there is no `## Plan` section",)
    assert result.unserved == CRITERIA


def test_plan_heading_matches_case_insensitively() -> None:
    text = goal(SOUND).replace("## Plan", "## PLAN")
    assert review_plan(parse_goal(text, path="g.md")).sound


def test_plan_without_a_table() -> None:
    text = goal(("Add the endpoint, then write the docs.",))
    result = review_plan(parse_goal(text, path="g.md"))
    line = text.split("\n").index("## Plan") + 1
    assert result.problems == (
        f"the plan has no table `| step | change | files | serves | check |` (line {line})",
    )
    assert not result.sound
    assert result.unserved == CRITERIA


@pytest.mark.parametrize("missing", PLAN_COLUMNS)
def test_plan_table_missing_a_column(missing: str) -> None:
    names = [name for name in PLAN_COLUMNS if name != missing]
    table = (
        "| " + " | ".join(names) + " |",
        "|" + "---|" * len(names),
        "| " + " | ".join("C1 C2 R1" if n == "serves" else "x" for n in names) + " |",
    )
    result = review(table)
    assert result.problems == (f"the plan table lacks the column {missing}",)
    assert result.steps == ()
    assert not result.sound


def test_plan_table_without_steps() -> None:
    result = review((HEADER, RULE))
    assert result.problems == ("the plan table has no steps",)
    assert not result.sound


def test_only_the_first_table_of_the_section_is_the_plan() -> None:
    result = review(
        (
            "Steps, in order:",
            "",
            *SOUND,
            "",
            "Notes:",
            "",
            "| step | change | files | serves | check |",
            "|---|---|---|---|---|",
            "| 9 | stray | z.py | C99 | - |",
        )
    )
    assert result.sound
    assert [s.step for s in result.steps] == ["1", "2"]


def test_a_table_in_a_later_section_is_not_the_plan() -> None:
    text = goal(("Nothing planned yet.",)).replace(
        "## Lessons", "## Lessons\n" + "\n".join(SOUND) + "\n"
    )
    result = review_plan(parse_goal(text, path="g.md"))
    assert result.steps == ()
    assert not result.sound


def test_digest_identifies_the_rows_of_the_table() -> None:
    first = review(SOUND).digest
    assert len(first) == 12
    assert int(first, 16) >= 0
    # the same rows, other prose and padding around them: the same digest
    padded = ("Our plan:", "", HEADER, "|---|---|---|---|---|", *(f"{r}   " for r in SOUND[2:]))
    assert review(padded).digest == first
    # anything in a row changes it
    for index, old, new in [
        (2, "add the endpoint", "add an endpoint"),
        (2, "auth.py", "auth/x.py"),
        (3, "C2, R1", "R1, C2"),
        (3, "| - |", "| `true` |"),
    ]:
        rows = list(SOUND)
        rows[index] = rows[index].replace(old, new)
        assert rows != list(SOUND)
        assert review(rows).digest != first, (old, new)
    assert review((*SOUND, "| 3 | more | x | C1 | - |")).digest != first


def test_digest_does_not_depend_on_the_rest_of_the_file() -> None:
    text = goal(SOUND)
    other = goal(SOUND, after="### Iteration 1 (2026-11-30) by plan\nplan revision 1\n")
    assert other != text
    assert review_plan(parse_goal(other, path="g.md")).digest == review(SOUND).digest
