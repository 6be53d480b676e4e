"""parse.first_lines: the lines a rule reads above the ledger, without splitting (or copying) a
long ledger; they must be the whole text's lines, wherever the ledger is and whatever follows."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import lint
from goalfile.parse import first_lines, parse_goal
from tests.test_contract_html import ENTRY, TABLE, goal

PIECES = [
    "",
    "text",
    "## Iterations",
    "## iterations ##",
    "## Lessons",
    "# Goal: g",
    "```",
    "~~~",
    "### Iteration 1 (2026-12-02) by verify-goal",
    "| C1 | unmet |",
    "---",
]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=30),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.integers(min_value=-2, max_value=40),
)
def test_the_first_lines_are_those_of_the_whole_text(
    pieces: list[str], newline: str, frontmatter: bool, count: int
) -> None:
    text = newline.join(pieces)
    if frontmatter:
        text = f"---{newline}slug: g{newline}---{newline}{text}"
    whole = text.split("\n")
    lines = first_lines(text, count)
    assert lines[: max(count, 0)] == whole[: max(count, 0)]
    assert len(lines) >= min(max(count, 0), len(whole))


def test_the_criteria_header_is_found_above_a_long_ledger_and_below_one() -> None:
    ledger = "".join(ENTRY.format(n=n) for n in range(1, 200))
    above = goal(TABLE) + ledger + "## Lessons\n"
    below = goal("") + ledger + f"## Acceptance criteria\n\n{TABLE}\n## Lessons\n"
    for text in (above, below, above.replace("\n", "\r\n")):
        parsed = parse_goal(text, path="g.md")
        first = parsed.criteria[0]
        header = text.split("\n")[first.line - 3]
        assert header.startswith("| id | criterion | check | expected |")
        assert lint._header_line(parsed, first) == (first.line - 2, header)
