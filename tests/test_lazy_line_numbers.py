"""The line numbers after a ledger are counted when one is read: reading a goal does not count
the ledger's lines, and every number after the ledger is still the file's own (sections and
their ends, criteria rows and findings after the ledger, with CRLF and lone CRs)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import hidden, parse
from goalfile.parse import parse_goal
from tests.test_contract_html import ENTRY, TABLE, goal

LEDGER = "".join(ENTRY.format(n=n) for n in range(1, 300))


def _uncounted(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, start: int, end: int) -> int:
        raise AssertionError("the ledger's lines were counted")

    monkeypatch.setattr(parse, "_newlines", refuse)


def test_reading_a_goal_and_linting_it_count_no_ledger_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = goal(TABLE) + LEDGER + "## Lessons\n\nnone yet\n"
    _uncounted(monkeypatch)
    parsed = parse_goal(text, path="g.md")
    whole = text.split("\n")
    assert [row.line for row in parsed.criteria] == [whole.index(TABLE.split("\n")[2]) + 1]
    assert parsed.section("acceptance criteria") is not None
    assert parsed.section("acceptance criteria").line == whole.index("## Acceptance criteria") + 1
    assert hidden.findings(parsed) == []


def test_the_numbers_after_the_ledger_are_the_files_when_read() -> None:
    text = goal(TABLE) + LEDGER + "## Lessons\n\nnone yet\n## Notes\n"
    parsed = parse_goal(text, path="g.md")
    whole = text.split("\n")
    iterations, lessons, notes = parsed.sections[-3:]
    assert iterations.line == whole.index("## Iterations") + 1
    assert iterations.end == lessons.line == whole.index("## Lessons") + 1
    assert lessons.end == notes.line == whole.index("## Notes") + 1
    assert notes.end == len(whole) + 1


# A goal made of parts whose lines are known: sections before and after a ledger of entries
# (with fenced output), the criteria table above or below it, criteria-shaped tables and lone
# carriage returns after it. Each part is (its lines, the titles of the H2 lines among them).
_OUTPUT = ["```text", "## quoted output", "```"]
_SHAPED = "| id | criterion | check | expected |"
_PARTS = [["text"], [""], ["", _SHAPED, "|---|---|---|---|", "| C9 | x | `true` | exit 0 |", ""]]


@st.composite
def _goals(draw: st.DrawFn) -> tuple[str, str]:
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    entries = draw(st.integers(min_value=0, max_value=8))
    ledger = ["## Iterations", ""]
    for number in range(1, entries + 1):
        ledger += [f"### Iteration {number} (2026-12-02) by verify-goal", "", "| id | verdict |"]
        ledger += ["| C1 | unmet |", ""] + ([*_OUTPUT, ""] if draw(st.booleans()) else [])
    criteria = ["## Acceptance criteria", "", *TABLE.rstrip("\n").split("\n"), ""]
    below = draw(st.booleans())
    after: list[str] = []
    for title in draw(st.lists(st.sampled_from(["Lessons", "Notes", "Plan"]), max_size=3)):
        after += [f"## {title}", ""]
        for part in draw(st.lists(st.sampled_from(_PARTS), max_size=4)):
            after += part
    if below:
        after = criteria + after
    if after and draw(st.booleans()):  # (in a section: one in the ledger is never read)
        after += ["a lone\rcarriage return"]
    head = ["---", "slug: g", "status: draft", "created: 2026-12-02", "budget:"]
    head += ["  iterations: 5", "  tokens: null", "iterations_used: 0", "tokens_used: 0", "---"]
    head += ["# Goal: g", ""] + ([] if below else criteria)
    return newline.join(head + ledger + after) + newline, newline


@settings(max_examples=300, deadline=None)
@given(_goals())
def test_every_number_after_a_ledger_is_the_files_own(made: tuple[str, str]) -> None:
    text, _ = made
    parsed = parse_goal(text, path="g.md")
    whole = [line.rstrip("\r") for line in text.split("\n")]
    heading_lines = [n for n, line in enumerate(whole, 1) if line.startswith("## ")]
    heading_lines = [n for n in heading_lines if whole[n - 1] != "## quoted output"]
    assert [s.line for s in parsed.sections] == heading_lines
    assert [s.end for s in parsed.sections] == [*heading_lines[1:], len(whole) + 1]
    rows = [n for n, line in enumerate(whole, 1) if line.startswith("| C1 | the suite")]
    assert [row.line for row in parsed.criteria] == rows
    ignored = [p.line for p in parsed.problems if p.code == "criteria-table-ignored"]
    assert ignored == [n for n, line in enumerate(whole, 1) if line == _SHAPED][1:]
    lone = [p.line for p in parsed.problems if p.code == "lone-cr"]
    assert lone == [n for n, line in enumerate(whole, 1) if "\r" in line][:1]
    assert all(p.line is None or 0 < p.line <= len(whole) for p in parsed.problems)
