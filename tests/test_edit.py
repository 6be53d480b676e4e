"""goalfile.edit: single-line frontmatter edits and appended entries, nothing else touched.

Every test compares the whole text before and after: the diff must be exactly the edited
line(s) or the inserted block, and every other byte identical.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
import yaml
from conftest import DATA, goal_text, last_line, row, run_goalfile
from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile.edit import append_to_section, remove_key, set_value, yaml_scalar
from goalfile.parse import ledger_span, parse_goal

SKILL = (DATA / "parse" / "skill-format.md").read_text(encoding="utf-8")
HOSTILE = (DATA / "parse" / "hostile.md").read_text(encoding="utf-8")


def diff(before: str, after: str) -> list[tuple[str, list[str], list[str]]]:
    """The changes from ``before`` to ``after``: (op, old lines, new lines), line ends kept."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    return [
        (op, a[i1:i2], b[j1:j2])
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
        if op != "equal"
    ]


# --------------------------------------------------------------------------- set_value


def test_set_value_keeps_the_comment_in_its_column() -> None:
    after = set_value(SKILL, "status", "met")
    assert diff(SKILL, after) == [
        (
            "replace",
            ["status: active            # draft | active | paused | met | blocked | exhausted\n"],
            ["status: met               # draft | active | paused | met | blocked | exhausted\n"],
        )
    ]


def test_set_value_with_a_longer_value_keeps_one_space_before_the_comment() -> None:
    after = set_value(SKILL, "status", "a-very-long-status-value-here")
    ((_, _, (line,)),) = diff(SKILL, after)
    assert line == (
        "status: a-very-long-status-value-here "
        "# draft | active | paused | met | blocked | exhausted\n"
    )


def test_set_value_nested_budget_tokens() -> None:
    after = set_value(SKILL, "budget.tokens", None)
    assert diff(SKILL, after) == [
        (
            "replace",
            ["  tokens: 2000000         # null = unbounded\n"],
            ["  tokens: null            # null = unbounded\n"],
        )
    ]
    assert parse_goal(after, path="g.md").budget.tokens is None
    again = set_value(after, "budget.iterations", 8)
    assert parse_goal(again, path="g.md").budget.iterations == 8
    assert [op for op, *_ in diff(after, again)] == ["replace"]


def test_set_value_keeps_key_order_and_everything_else() -> None:
    after = set_value(SKILL, "tokens_used", 1234)
    assert diff(SKILL, after) == [("replace", ["tokens_used: 0\n"], ["tokens_used: 1234\n"])]
    goal = parse_goal(after, path="g.md")
    assert [k for k, _ in goal.key_lines] == [
        k for k, _ in parse_goal(SKILL, path="g.md").key_lines
    ]
    assert goal.tokens_used == 1234


def test_set_value_keeps_crlf() -> None:
    crlf = (DATA / "parse" / "crlf.md").read_bytes().decode("utf-8")
    after = set_value(crlf, "status", "met")
    assert diff(crlf, after) == [
        (
            "replace",
            ["status: active            # draft | active | paused | met | blocked | exhausted\r\n"],
            ["status: met               # draft | active | paused | met | blocked | exhausted\r\n"],
        )
    ]
    added = set_value(crlf, "contract", "sha256:" + "ab" * 32)
    assert diff(crlf, added) == [("insert", [], [f"contract: sha256:{'ab' * 32}\r\n"])]
    assert "\n" not in added.replace("\r\n", "")


def test_set_value_adds_a_missing_key_at_the_end_of_the_frontmatter() -> None:
    after = set_value(SKILL, "blocker", "waiting for the API key")
    assert diff(SKILL, after) == [("insert", [], ["blocker: waiting for the API key\n"])]
    lines = after.split("\n")
    assert lines[lines.index("blocker: waiting for the API key") + 1] == "---"
    assert parse_goal(after, path="g.md").meta["blocker"] == "waiting for the API key"


def test_set_value_adds_a_missing_nested_key_under_its_parent() -> None:
    text = SKILL.replace("  tokens: 2000000         # null = unbounded\n", "")
    after = set_value(text, "budget.tokens", 10)
    assert diff(text, after) == [("insert", [], ["  tokens: 10\n"])]
    assert after.split("\n").index("  tokens: 10") == text.split("\n").index("iterations_used: 1")
    missing_parent = SKILL.replace(
        "budget:\n  iterations: 5           # null = unbounded\n"
        "  tokens: 2000000         # null = unbounded\n",
        "",
    )
    added = set_value(missing_parent, "budget.tokens", 10)
    assert diff(missing_parent, added) == [("insert", [], ["budget:\n", "  tokens: 10\n"])]
    assert parse_goal(added, path="g.md").budget.tokens == 10


def test_set_value_on_a_flow_style_budget() -> None:
    text = SKILL.replace(
        "budget:\n  iterations: 5           # null = unbounded\n"
        "  tokens: 2000000         # null = unbounded\n",
        "budget: {iterations: 5, tokens: 2000000}  # the skills write it so\n",
    )
    assert parse_goal(text, path="g.md").budget.tokens == 2_000_000
    after = set_value(text, "budget.tokens", 3_000_000)
    goal = parse_goal(after, path="g.md")
    assert goal.budget.tokens == 3_000_000 and goal.budget.iterations == 5
    ((op, old, new),) = diff(text, after)
    assert (op, old) == (
        "replace",
        ["budget: {iterations: 5, tokens: 2000000}  # the skills write it so\n"],
    )
    assert new[0].endswith("# the skills write it so\n")


def test_set_value_replaces_a_value_written_over_several_lines() -> None:
    text = SKILL.replace("tokens_used: 0\n", "tokens_used: 0\nblocker: |\n  waiting\n  for CI\n")
    assert parse_goal(text, path="g.md").meta["blocker"] == "waiting\nfor CI\n"
    after = set_value(text, "blocker", "something else")
    assert parse_goal(after, path="g.md").meta["blocker"] == "something else"
    assert diff(text, after) == [
        ("replace", ["blocker: |\n", "  waiting\n", "  for CI\n"], ["blocker: something else\n"])
    ]


@pytest.mark.parametrize(
    "value",
    [
        "a: b",
        "null",
        "123",
        "0x10",
        "1:20",
        "2026-11-30",
        "@user",
        "`tick",
        "yes",
        "~",
        "",
        " ",
        "#hash",
        "a #b",
        "- item",
        "x\x7fy",
        "a\u2028b",
        "a\x85b",
        "\ufeffbom",
        "line\nbreak",
        'quote " and \\ backslash',
        "sha256:" + "0" * 64,
    ],
)
def test_set_value_text_reads_back_as_the_same_string(value: str) -> None:
    after = set_value(SKILL, "blocker", value)
    assert len(after.splitlines()) == len(SKILL.splitlines()) + 1
    assert parse_goal(after, path="g.md").meta["blocker"] == value


def test_set_value_of_an_undecodable_byte_stays_readable() -> None:
    after = set_value(SKILL, "blocker", "bad \udcff byte")
    assert parse_goal(after, path="g.md").meta["blocker"] == "bad \ufffd byte"
    after.encode("utf-8")  # no lone surrogate is left to write


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_set_value_any_text_reads_back(value: str) -> None:
    after = set_value(SKILL, "blocker", value)
    assert len(after.split("\n")) == len(SKILL.split("\n")) + 1
    assert len(after.splitlines()) == len(SKILL.splitlines()) + 1
    assert parse_goal(after, path="g.md").meta["blocker"] == value
    assert [op for op, *_ in diff(SKILL, after)] == ["insert"]


def test_yaml_scalar_keeps_plain_words_plain() -> None:
    assert yaml_scalar("met") == "met"
    assert yaml_scalar("sha256:abc") == "sha256:abc"
    assert yaml_scalar(None) == "null"
    assert yaml_scalar(True) == "true"
    assert yaml_scalar(12) == "12"
    assert yaml.safe_load(f"k: {yaml_scalar('12')}") == {"k": "12"}


def test_remove_key_removes_its_continuation_lines_only() -> None:
    text = SKILL.replace("tokens_used: 0\n", "tokens_used: 0\nblocker: |\n  waiting\n")
    after = remove_key(text, "blocker")
    assert after == SKILL
    assert remove_key(SKILL, "blocker") == SKILL


# --------------------------------------------------------------------------- append_to_section

ENTRY = ["### Iteration 1 (2026-11-30) by verify-goal", "", "status: active"]


def test_append_to_an_empty_iterations_section_before_lessons() -> None:
    after = append_to_section(SKILL, "Iterations", ENTRY)
    assert diff(SKILL, after) == [
        ("insert", [], [f"{line}\n" for line in ENTRY] + ["\n"]),
    ]
    assert "## Iterations\n\n### Iteration 1" in after
    assert "status: active\n\n## Lessons\n" in after


def test_append_after_existing_entries() -> None:
    once = append_to_section(SKILL, "Iterations", ENTRY)
    second = ["### Iteration 2 (2026-11-30) by verify-goal", "", "status: met"]
    twice = append_to_section(once, "Iterations", second)
    assert twice == once.replace(
        "status: active\n\n## Lessons", "status: active\n\n" + "\n".join(second) + "\n\n## Lessons"
    )
    assert "status: active\n\n### Iteration 2" in twice
    assert "status: met\n\n## Lessons\n" in twice


def test_append_creates_iterations_before_lessons() -> None:
    text = SKILL.replace("## Iterations\n\n", "")
    after = append_to_section(text, "Iterations", ENTRY)
    assert diff(text, after) == [
        ("insert", [], ["## Iterations\n", "\n", *(f"{line}\n" for line in ENTRY), "\n"]),
    ]
    assert after.index("## Iterations") < after.index("## Lessons")
    assert ledger_span(after) is not None


def test_append_creates_iterations_at_the_end_without_lessons() -> None:
    text = SKILL.replace("\n## Iterations\n\n## Lessons\n", "")
    assert text.endswith("## Token accounting\n")
    after = append_to_section(text, "Iterations", ENTRY)
    assert after == text + "\n## Iterations\n\n" + "\n".join(ENTRY) + "\n"


def test_append_when_iterations_is_last_and_the_file_has_no_final_newline() -> None:
    text = SKILL.replace("\n## Lessons\n", "").rstrip("\n")
    assert text.endswith("## Iterations")
    after = append_to_section(text, "Iterations", ENTRY)
    assert after == text + "\n\n" + "\n".join(ENTRY) + "\n"


def test_append_keeps_crlf() -> None:
    crlf = (DATA / "parse" / "crlf.md").read_bytes().decode("utf-8")
    after = append_to_section(crlf, "Iterations", ENTRY)
    assert diff(crlf, after) == [
        ("insert", [], [f"{line}\r\n" for line in ENTRY] + ["\r\n"]),
    ]
    assert "\n" not in after.replace("\r\n", "")


def test_append_into_the_real_ledger_not_a_quoted_one() -> None:
    after = append_to_section(HOSTILE, "Iterations", ENTRY)
    ((op, old, _),) = diff(HOSTILE, after)
    assert op == "insert" and old == []
    lines = after.split("\n")
    at = lines.index(ENTRY[0])
    assert lines[at - 3 : at] == ["make fixtures", "```", ""]
    assert lines[at + len(ENTRY) : at + len(ENTRY) + 2] == ["", "## Lessons"]
    goal = parse_goal(after, path="h.md")
    assert [c.id for c in goal.criteria] == ["C1", "C2", "C3"]


def test_append_to_another_section() -> None:
    after = append_to_section(SKILL, "Lessons", ["- a lesson"])
    assert after == SKILL + "\n- a lesson\n"
    plan = append_to_section(SKILL, "plan", ["1. a step"])
    assert diff(SKILL, plan) == [("insert", [], ["1. a step\n", "\n"])]
    assert "## Plan\n\n1. a step\n\n## Token accounting" in plan


# --------------------------------------------------------------------------- through verify


def test_non_utf8_bytes_survive_a_verify(repo: Path) -> None:
    text = goal_text(rows=[row("C1", "true", "exit 0")], lessons="- caf\udce9 au lait \udcff\udcfe")
    text = text.replace("## Plan\n", "## Plan\nLatin-1 text: na\udcefve\n")
    raw = text.encode("utf-8", "surrogateescape")
    assert b"caf\xe9" in raw and b"na\xefve" in raw
    path = repo / "goals" / "latin.md"
    path.write_bytes(raw)
    done = run_goalfile("verify", path, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert last_line(done.stdout) == "verify-goal demo iteration 1: C1 met; status: met"
    after = path.read_bytes()
    before_lines = raw.split(b"\n")
    after_lines = after.split(b"\n")
    ops = [
        (op, before_lines[i1:i2], after_lines[j1:j2])
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(
            a=before_lines, b=after_lines, autojunk=False
        ).get_opcodes()
        if op != "equal"
    ]
    assert [op for op, *_ in ops] == ["replace", "insert"]
    assert ops[0][1] == [
        b"status: active            # draft | active | paused | met | blocked | exhausted"
    ]
    assert ops[0][2] == [
        b"status: met               # draft | active | paused | met | blocked | exhausted"
    ]
    inserted = ops[1][2]
    assert inserted[0].startswith(b"### Iteration 1 (")
    assert b"status: met" in inserted
    assert b"caf\xe9 au lait \xff\xfe" in after and b"na\xefve" in after


def test_a_refused_edit_or_fix_names_the_lint_of_the_goal_file_itself(tmp_path: Path) -> None:
    """An edit (or `lint --fix`) whose result would not read back as the same goal was refused
    with the fix `goalfile lint FILE`, a placeholder to type. The fix names the goal's own
    path; run by a shell as written, it lints that file and names its row."""
    from conftest import fix_of, shell

    from goalfile.edit import check_written
    from goalfile.errors import GoalFileInvalid
    from goalfile.fix import check_fixed

    (tmp_path / "goals").mkdir()
    path = tmp_path / "goals" / "my demo.md"
    text = goal_text(status="draft", rows=[row("C1", "true", "exit 0")])
    text = text.replace("`true`", "true")  # a check cell outside a code span: lint names C1
    path.write_text(text, encoding="utf-8")
    goal = parse_goal(text, path="goals/my demo.md")
    changed = text.replace("| true |", "| false |")
    assert changed != text
    for check in (check_written, check_fixed):
        with pytest.raises(GoalFileInvalid) as refused:
            check(goal, changed)
        fix = fix_of(f"fix: {refused.value.hint}")
        assert fix == "goalfile lint 'goals/my demo.md'", refused.value.hint
        done = shell(fix, tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "goals/my demo.md:" in done.stdout + done.stderr
        assert "C1: " in done.stdout + done.stderr, done.stdout + done.stderr
