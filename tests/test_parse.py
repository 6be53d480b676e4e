"""goalfile.parse and goalfile.lint: golden goal files in tests/data/parse/, errors, findings.

Each ``tests/data/parse/NAME.md`` has a ``NAME.json`` beside it: what the reader must make of
the file. Run with ``GOALFILE_UPDATE_GOLDEN=1`` to rewrite the JSON files, then review the diff.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from pathlib import Path

import pytest
from conftest import DATA, goal_text, row

from goalfile import ledger
from goalfile.errors import GoalFileInvalid
from goalfile.lint import diagnose, errors, require_valid
from goalfile.model import Goal, Kind, Severity, Status
from goalfile.parse import ledger_region, ledger_span, parse_goal, review_artifact

PARSE = DATA / "parse"
GOLDEN = sorted(p.name for p in PARSE.glob("*.md"))


def summary(goal: Goal) -> dict[str, object]:
    """Everything the reader decides about a file, as plain JSON."""
    meta = {
        key: value.isoformat() if isinstance(value, _dt.date) else value
        for key, value in goal.meta.items()
    }
    return {
        "meta": meta,
        "slug": goal.slug,
        "status": goal.status.value,
        "budget": {"iterations": goal.budget.iterations, "tokens": goal.budget.tokens},
        "iterations_used": goal.iterations_used,
        "tokens_used": goal.tokens_used,
        "timeout": goal.timeout,
        "shell": goal.shell,
        "cwd": goal.cwd,
        "newline": goal.newline,
        "frontmatter_end": goal.frontmatter_end,
        "key_lines": [list(item) for item in goal.key_lines],
        "end_state": goal.end_state,
        "non_goals": list(goal.non_goals),
        "criteria": [
            {
                "id": c.id,
                "criterion": c.criterion,
                "check": c.check,
                "check_is_code": c.check_is_code,
                "expected": c.expected,
                "kind": c.kind.value,
                "timeout": c.timeout,
                "line": c.line,
                "artifact": review_artifact(c) if c.kind is Kind.REVIEW else None,
            }
            for c in goal.criteria
        ],
        "sections": [[s.title, s.key, s.line, s.end] for s in goal.sections],
        "ledger_span": list(ledger_span(goal.text) or ()),
        "findings": [
            [f.severity.value, f.code, f.line, f.column, f.message] for f in diagnose(goal)
        ],
    }


def read(name: str) -> str:
    return (PARSE / name).read_bytes().decode("utf-8")


# --------------------------------------------------------------------------- golden files


def test_the_golden_set_is_complete() -> None:
    assert {
        "skill-format.md",
        "crlf.md",
        "columns-reordered.md",
        "criteria-heading.md",
        "review-prose.md",
        "hostile.md",
    } <= set(GOLDEN)


@pytest.mark.parametrize("name", GOLDEN)
def test_golden(name: str) -> None:
    goal = parse_goal(read(name), path=name)
    actual = summary(goal)
    expected_file = PARSE / name.replace(".md", ".json")
    if os.environ.get("GOALFILE_UPDATE_GOLDEN"):
        expected_file.write_text(
            json.dumps(actual, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    assert actual == json.loads(expected_file.read_text(encoding="utf-8"))


def test_skill_format_every_field() -> None:
    goal = parse_goal(read("skill-format.md"), path="goals/auth.md")
    assert goal.path == "goals/auth.md"
    assert goal.slug == "auth"
    assert goal.status is Status.ACTIVE
    assert goal.meta["created"] == _dt.date(2026, 11, 30)
    assert goal.budget.iterations == 5
    assert goal.budget.tokens == 2_000_000
    assert goal.iterations_used == 1
    assert goal.tokens_used == 0
    assert goal.timeout == 600.0
    assert goal.shell == "/bin/sh"
    assert goal.cwd is None
    assert goal.newline == "\n"
    assert goal.frontmatter_end == 11
    assert goal.key_line("status") == 3
    assert goal.key_line("budget.tokens") == 7
    assert goal.end_state == "`pytest tests/auth` passes without touching the fixtures"
    assert goal.non_goals == ("`tests/auth/fixtures/` stays unchanged.",)
    assert [s.key for s in goal.sections] == [
        "non-goals",
        "acceptance criteria",
        "plan",
        "token accounting",
        "iterations",
        "lessons",
    ]
    c1, c2, r1 = goal.criteria
    assert (c1.id, c1.criterion, c1.check, c1.expected, c1.kind) == (
        "C1",
        "auth suite passes",
        "pytest tests/auth -q",
        'exit 0; stdout contains "passed"',
        Kind.DETERMINISTIC,
    )
    assert c1.line == 20
    assert c1.check_is_code
    assert (c2.id, c2.check, c2.expected) == (
        "C2",
        "git diff --stat main -- tests/auth/fixtures",
        "exit 0; output empty",
    )
    assert (r1.id, r1.kind, r1.expected) == ("R1", Kind.REVIEW, "describes the refresh-token flow")
    assert review_artifact(r1) == "docs/auth.md"
    assert goal.problems == ()
    assert diagnose(goal) == ()


def test_crlf_reads_like_lf() -> None:
    lf = parse_goal(read("skill-format.md"), path="a.md")
    crlf = parse_goal(read("crlf.md"), path="a.md")
    assert "\r\n" in read("crlf.md")
    assert crlf.newline == "\r\n"
    assert crlf.criteria == lf.criteria
    assert crlf.meta == lf.meta
    assert crlf.key_lines == lf.key_lines
    assert crlf.end_state == lf.end_state
    assert crlf.non_goals == lf.non_goals
    assert crlf.sections == lf.sections
    assert crlf.problems == lf.problems == ()


def test_column_order_does_not_matter() -> None:
    goal = parse_goal(read("columns-reordered.md"), path="c.md")
    assert [c.id for c in goal.criteria] == ["C1", "R1", "C2", "C3"]
    c1, r1, c2, c3 = goal.criteria
    assert c1.check == "printf 'a|b\\n' | grep -F 'a|b'"
    assert c1.expected == 'exit 0; stdout contains "a|b"'
    assert c1.timeout == 30.0
    assert c1.criterion == "a pipe inside the check"
    assert r1.kind is Kind.REVIEW and review_artifact(r1) == "docs/columns.md"
    assert c2.timeout == 2.5
    assert c3.kind is Kind.DETERMINISTIC and c3.timeout is None
    assert goal.shell == "/bin/bash" and goal.cwd == ".."
    assert goal.budget.iterations is None and goal.budget.tokens == 500_000
    assert goal.non_goals == (
        "Column order is not part of the contract.",
        "A second non-goal written over two lines.",
    )
    assert errors(diagnose(goal)) == []


def test_same_rows_in_any_column_order() -> None:
    """The skill-format table with its columns reversed reads to the same criteria."""
    text = read("skill-format.md")
    lines = text.split("\n")
    start = lines.index("| id | criterion | check | expected | kind |")
    for index in range(start, start + 5):
        cells = lines[index].strip("|").split("|")
        lines[index] = "|" + "|".join(reversed(cells)) + "|"
    reordered = parse_goal("\n".join(lines), path="a.md")
    original = parse_goal(text, path="a.md")
    strip = [(c.id, c.criterion, c.check, c.expected, c.kind, c.line) for c in original.criteria]
    assert [
        (c.id, c.criterion, c.check, c.expected, c.kind, c.line) for c in reordered.criteria
    ] == strip


def test_criteria_heading_and_case_insensitive_sections() -> None:
    goal = parse_goal(read("criteria-heading.md"), path="c.md")
    assert [c.id for c in goal.criteria] == ["C1", "C2"]
    assert goal.criteria[1].kind is Kind.DETERMINISTIC
    assert goal.non_goals == ("Headings match case-insensitively.",)
    assert goal.section("iterations") is not None
    assert goal.section("plan") is not None
    region = ledger_region(goal.text)
    assert region is not None
    (entry,) = ledger.entries(goal.text, *region)
    assert entry.iteration == 1 and entry.status is Status.ACTIVE
    assert [(r.id, r.verdict.value) for r in entry.rows] == [("C1", "unmet"), ("C2", "met")]
    assert errors(diagnose(goal)) == []


def test_pipe_in_a_check_code_span() -> None:
    text = goal_text(rows=[row("C1", "printf 'a|b' | tr '|' -", 'exit 0; prints "a-b"')])
    assert "`printf 'a\\|b' \\| tr '\\|' -`" in text
    (c1,) = parse_goal(text, path="g.md").criteria
    assert c1.check == "printf 'a|b' | tr '|' -"
    assert c1.check_is_code


def test_review_row_artifact_from_a_path_or_prose() -> None:
    goal = parse_goal(read("review-prose.md"), path="r.md")
    by_id = {c.id: c for c in goal.criteria}
    assert review_artifact(by_id["R1"]) == "docs/a.md"
    assert not by_id["R1"].check_is_code
    assert by_id["R1"].check == "reviewer reads docs/a.md"
    assert review_artifact(by_id["R2"]) == "docs/a.md"
    assert by_id["R2"].check_is_code
    assert review_artifact(by_id["R3"]) == "docs/c.md"
    assert review_artifact(by_id["R4"]) == "docs/glossary.md"
    assert errors(diagnose(goal)) == []


def test_hostile_content_does_not_move_sections() -> None:
    text = read("hostile.md")
    goal = parse_goal(text, path="h.md")
    assert [c.id for c in goal.criteria] == ["C1", "C2", "C3"]
    assert goal.criteria[0].check == "printf 'x|y\\n' | tr '|' -"
    assert goal.criteria[1].check == "echo `date +%Y`"
    assert goal.criteria[2].expected == 'exit 0; prints "café"'
    assert goal.end_state.startswith("`a | b` holds")
    assert goal.status is Status.ACTIVE  # not the `status: met` lines of the body or ledger
    lines = text.split("\n")
    span = ledger_span(text)
    assert span is not None
    heading, end = span
    # the real heading, not the one quoted in the plan's code fence
    assert lines[heading - 1] == "## Iterations"
    assert lines[heading - 2] == "" and lines[heading - 3].startswith("| 1 | nothing")
    # the ledger runs past the `# comment` inside the person's fenced snippet
    assert lines[end - 1] == "## Lessons"
    assert [s.key for s in goal.sections] == [
        "non-goals",
        "acceptance criteria",
        "plan",
        "iterations",
        "lessons",
    ]
    region = ledger_region(text)
    assert region is not None
    (entry,) = ledger.entries(text, *region)
    assert entry.status is Status.BLOCKED
    assert [(r.id, r.verdict.value) for r in entry.rows] == [
        ("C1", "unmet"),
        ("C2", "met"),
        ("C3", "error"),
    ]
    assert entry.rows[0].evidence == "a ``| `` status: met"


def test_an_iterations_comment_in_the_frontmatter_is_not_the_ledger() -> None:
    text = goal_text(extra=["## Iterations  (a YAML comment)", "## Iterations"])
    goal = parse_goal(text, path="g.md")
    span = ledger_span(text)
    assert span is not None
    assert span[0] > goal.frontmatter_end
    assert text.split("\n")[span[0] - 1] == "## Iterations"
    assert [c.id for c in goal.criteria] == ["C1"]


def test_a_ledger_at_the_end_of_the_file() -> None:
    entry = "### Iteration 1 (2026-11-30) by verify-goal\n\nstatus: met"
    text = goal_text(lessons=None, iterations_section=entry).rstrip("\n")
    goal = parse_goal(text, path="g.md")
    total = len(text.split("\n"))
    assert ledger_span(text) == (total - 3, total + 1)
    assert goal.sections[-1].key == "iterations" and goal.sections[-1].end == total + 1
    region = ledger_region(text)
    assert region is not None and region[1] == len(text)
    assert [e.status for e in ledger.entries(text, *region)] == [Status.MET]


@pytest.mark.parametrize(("fence", "inner"), [("```", ""), ("~~~", "```"), ("````", "```")])
def test_headings_inside_a_fence_are_not_sections(fence: str, inner: str) -> None:
    quoted = f"{fence}markdown\n# Goal: fake\n## Iterations\n{inner}\n## Lessons\n{fence}\n"
    text = goal_text(lessons="- real").replace("## Plan\n", "## Plan\n" + quoted)
    goal = parse_goal(text, path="g.md")
    assert goal.end_state == "the checks pass"
    assert [s.key for s in goal.sections] == [
        "non-goals",
        "acceptance criteria",
        "plan",
        "token accounting",
        "iterations",
        "lessons",
    ]
    lines = text.split("\n")
    span = ledger_span(text)
    assert span is not None
    assert lines[span[0] - 2 : span[0]] == ["", "## Iterations"]
    assert lines[span[1] - 1 : span[1] + 1] == ["## Lessons", "- real"]


# --------------------------------------------------------------------------- reading cost


@pytest.fixture
def big_ledger(tmp_path: Path) -> str:
    """The skill-format goal with 5,000 verify entries under ## Iterations (never committed)."""
    text = read("skill-format.md")
    entries = []
    for n in range(5000):
        entries.append(
            f"### Iteration {n} (2026-11-30) by verify-goal\n"
            "| id | verdict | command | exit | evidence |\n"
            "|----|---------|---------|------|----------|\n"
            f"| C1 | unmet | `pytest tests/auth -q` | 1 | `{n} failed, 41 passed in 3.1s` |\n"
            "| C2 | met | `git diff --stat main -- tests/auth/fixtures` | 0 | (no output) |\n"
            "| R1 | unmet | `docs/auth.md` | - | not reviewed: C1 is not met |\n"
            "\n"
            "C1 output (exit 0 expected, got 1; stdout, last 2 of 2 lines):\n"
            "\n"
            "    # a comment line from the output\n"
            "    ## Acceptance criteria\n"
            "\n"
            "status: active\n"
        )
    big = text.replace("## Iterations\n", "## Iterations\n\n" + "\n".join(entries), 1)
    (tmp_path / "big.md").write_text(big, encoding="utf-8")
    return big


def test_a_goal_with_5000_entries_reads_the_same(big_ledger: str) -> None:
    empty = parse_goal(read("skill-format.md"), path="g.md")
    big = parse_goal(big_ledger, path="g.md")
    assert big.criteria == empty.criteria
    assert big.end_state == empty.end_state
    assert big.non_goals == empty.non_goals
    assert big.meta == empty.meta
    assert big.problems == empty.problems == ()
    assert [s.key for s in big.sections] == [s.key for s in empty.sections]
    lessons = big.section("lessons")
    assert lessons is not None
    assert big_ledger.split("\n")[lessons.line - 1] == "## Lessons"
    region = ledger_region(big_ledger)
    assert region is not None
    found = list(ledger.entries(big_ledger, *region))
    assert len(found) == 5000
    assert found[-1].iteration == 4999
    assert all(len(e.rows) == 3 for e in found)
    newest = next(ledger.entries_reversed(big_ledger, *region))
    assert newest.iteration == 4999
    assert newest.rows[0].evidence == "4999 failed, 41 passed in 3.1s"


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("# Goal: x\n", 1, 1, "does not start with YAML frontmatter"),
        ("", 1, 1, "does not start with YAML frontmatter"),
        ("---\nslug: a\nstatus: draft\n# Goal: x\n", 1, 1, "never closed"),
        ("---\nslug: a\nstatus: [draft\n---\n# Goal: x\n", 4, 1, "not valid YAML"),
        ("---\nslug: a\n  status: draft\n---\n", 3, 9, "not valid YAML"),
        ("---\n- a\n- b\n---\n# Goal: x\n", 2, 1, "must be a mapping"),
    ],
)
def test_unreadable_files_raise_with_file_line_column_and_hint(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(GoalFileInvalid) as caught:
        parse_goal(text, path="goals/bad.md")
    exc = caught.value
    assert words in exc.message
    assert (exc.file, exc.line, exc.column) == ("goals/bad.md", line, column)
    assert exc.render().startswith(f"goals/bad.md:{line}:{column}: ")
    if words == "not valid YAML":  # only its author can write the line: the message says how
        assert exc.hint is None and "; write the line as YAML (`key: value`" in exc.message
    elif words in ("does not start with YAML frontmatter", "must be a mapping"):
        assert exc.hint is None and ": write at its top a line `---`" in exc.message
    else:
        assert exc.hint and "\n  fix: " in exc.render()


def _finding(text: str, code: str) -> tuple[int | None, int | None, str, str | None]:
    goal = parse_goal(text, path="g.md")
    found = [f for f in diagnose(goal) if f.code == code and f.severity is Severity.ERROR]
    assert found, diagnose(goal)
    first = found[0]
    return first.line, first.column, first.message, first.hint


def test_bad_status_points_at_the_value() -> None:
    text = goal_text(status="done")
    line, column, message, hint = _finding(text, "frontmatter")
    assert (line, column) == (3, 9)
    assert "status 'done' is not one of draft, active" in message
    assert hint is None  # which status is meant, only a person knows


@pytest.mark.parametrize(
    ("iterations", "tokens", "line", "column", "words"),
    [
        ("-1", "null", 6, 15, "budget.iterations -1"),
        ("5", "lots", 7, 11, "budget.tokens 'lots'"),
        ("0", "null", 6, 15, "budget.iterations 0"),
        ("true", "null", 6, 15, "budget.iterations True"),
    ],
)
def test_bad_budget_points_at_the_value(
    iterations: str, tokens: str, line: int, column: int, words: str
) -> None:
    text = goal_text(iterations=iterations, tokens=tokens)
    found_line, found_column, message, hint = _finding(text, "frontmatter")
    assert (found_line, found_column) == (line, column)
    assert words in message
    assert hint


def test_missing_required_column() -> None:
    text = goal_text().replace(
        "| id | criterion | check | expected | kind |", "| id | criterion | check | result | kind |"
    )
    goal = parse_goal(text, path="g.md")
    line, column, message, hint = _finding(text, "columns")
    assert text.split("\n")[line - 1].startswith("| id | criterion | check | result |")
    assert column == 1
    assert "expected" in message
    assert hint is None and "the header names id, criterion, check and expected" in message
    assert goal.criteria == ()
    with pytest.raises(GoalFileInvalid) as caught:
        require_valid(goal)
    assert caught.value.line == line and caught.value.file == "g.md"


def test_missing_goal_heading_and_criteria_section() -> None:
    text = "---\nslug: a\nstatus: draft\ncreated: 2026-11-30\n---\nno heading\n"
    goal = parse_goal(text, path="g.md")
    messages = [f.message for f in errors(diagnose(goal))]
    assert any(m.startswith("no `# Goal:` heading: ") for m in messages), messages
    assert any(m.startswith("no `## Acceptance criteria` section: ") for m in messages), messages


def test_counters_and_slug_are_typed() -> None:
    text = goal_text(slug="Not A Slug", iterations_used=-2)
    codes = [
        (f.line, f.message.split(" ")[0]) for f in errors(diagnose(parse_goal(text, path="g.md")))
    ]
    assert (2, "slug") in codes
    assert (8, "iterations_used") in codes


# --------------------------------------------------------------------------- lint findings


def findings_of(text: str) -> list[tuple[str, str, int | None, int | None, str]]:
    goal = parse_goal(text, path="g.md")
    return [(f.severity.value, f.code, f.line, f.column, f.message) for f in diagnose(goal)]


def row_line(text: str, cid: str) -> int:
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith(f"| {cid} |"):
            return number
    raise AssertionError(cid)


def test_a_valid_goal_has_no_findings() -> None:
    assert findings_of(goal_text()) == []


def test_duplicate_id() -> None:
    text = goal_text(rows=[row("C1", "true", "exit 0"), row("C1", "false", "exit 1")])
    first, second = row_line(text, "C1"), row_line(text, "C1") + 1
    assert (
        "error",
        "criteria",
        second,
        None,
        f"id C1 is used twice (first on line {first}); give every row its own id",
    ) in findings_of(text)


def test_missing_check_and_missing_expected() -> None:
    text = goal_text(rows=[row("C1", "", "exit 0"), row("C2", "true", "")])
    found = findings_of(text)
    said = {f[2]: f[4] for f in found if f[1] == "criteria"}
    assert said[row_line(text, "C1")].startswith("C1: no check; name the command"), said
    assert said[row_line(text, "C2")].startswith("C2: no expected result; say what a pass"), said


def test_bad_expected_points_at_the_clause() -> None:
    text = goal_text(rows=[row("C1", "true", 'exit 0; stdout bogus "x"')])
    line = row_line(text, "C1")
    ((severity, code, f_line, column, message),) = findings_of(text)
    assert (severity, code, f_line) == ("error", "expected-syntax", line)
    assert message.startswith("C1: expected: ")
    source = text.split("\n")[line - 1]
    assert column is not None
    assert source[column - 1 :].startswith('stdout bogus "x"')


def test_bad_expected_column_ignores_the_same_text_in_an_earlier_cell() -> None:
    text = goal_text(rows=[row("C1", "true", "exit zero")]).replace(
        "criterion of C1", "exit zero is wrong"
    )
    line = row_line(text, "C1")
    (finding,) = [f for f in diagnose(parse_goal(text, path="g.md")) if f.column]
    source = text.split("\n")[line - 1]
    assert finding.column is not None
    assert source[finding.column - 1 :].startswith("exit zero | deterministic")


def test_unknown_kind() -> None:
    text = goal_text(rows=[row("C1", "true", "exit 0", kind="manual")])
    assert (
        "error",
        "criteria",
        row_line(text, "C1"),
        None,
        "C1: unknown kind 'manual'; the kind column holds `deterministic` or `review`",
    ) in findings_of(text)


def test_no_exit_clause_is_a_warning() -> None:
    text = goal_text(rows=[row("C1", "echo ok", 'stdout contains "ok"')])
    assert findings_of(text) == [
        (
            "warning",
            "no-exit-clause",
            row_line(text, "C1"),
            None,
            "C1: expected has no exit clause, so the exit status is not judged; add `exit 0` "
            "(or the status a passing run has)",
        )
    ]
    assert not errors(diagnose(parse_goal(text, path="g.md")))


def test_unknown_key_is_a_warning() -> None:
    text = goal_text(extra=["owner: someone", "budget_note: 1"])
    found = findings_of(text)
    assert (
        "warning",
        "unknown-key",
        10,
        None,
        "unknown frontmatter key `owner` is kept but unused",
    ) in (found)
    assert all(item[0] == "warning" for item in found)
    assert parse_goal(text, path="g.md").meta["owner"] == "someone"


def test_a_review_row_is_not_held_to_the_expected_language() -> None:
    text = goal_text(rows=[row("R1", "docs/a.md", "describes the flow", kind="review")])
    assert findings_of(text) == []


def test_bad_row_timeout() -> None:
    text = (
        goal_text()
        .replace("| kind |", "| kind | timeout |")
        .replace("|------|", "|------|---------|")
    )
    text = text.replace("| deterministic |", "| deterministic | soon |")
    assert any("timeout 'soon'" in item[4] for item in findings_of(text))


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("!!bool maybe", "the value `maybe` is not a valid boolean"),
        ("!!timestamp soon", "the value `soon` is not a valid date"),
        ("!!int x", "the value `x` is not a valid whole number"),
        ("[1, !!float y]", "the value `y` is not a valid number"),
        ("!!float", "the value `` is not a valid number"),  # empty: YAML's own IndexError
        ("2026-13-45", "the value `2026-13-45` is not a valid date"),
    ],
)
def test_a_value_its_tag_cannot_build_is_invalid_at_its_line_and_column(
    value: str, problem: str
) -> None:
    text = goal_text(extra=(f"note: {value}",))
    line = text.split("\n").index(f"note: {value}") + 1
    with pytest.raises(GoalFileInvalid) as raised:
        parse_goal(text, path="g.md")
    assert problem in raised.value.message
    assert raised.value.line == line
    assert raised.value.column is not None
