"""The placeholder rule reads the non-goals section's lines where they are in the text (its
offsets, found line by line from the start) instead of splitting the whole text, a long
ledger too, into lines: the span must hold exactly the lines the split gave, and a template
field is reported where it was and nowhere else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import lint
from goalfile.parse import parse_goal

HEAD = (
    "---\nslug: s\nstatus: draft\ncreated: 2026-11-30\nbudget:\n  iterations: 5\n"
    "  tokens: null\niterations_used: 0\ntokens_used: 0\n---\n# Goal: the notes exist\n\n"
)
ROWS = (
    "## Acceptance criteria\n| id | criterion | check | expected | kind |\n"
    "|----|-----------|-------|----------|------|\n"
    "| C1 | notes | `test -f notes.md` | exit 0 | deterministic |\n\n"
)


@settings(max_examples=800, deadline=None)
@given(
    st.text(alphabet="\n\rab{", max_size=30),
    st.integers(min_value=0, max_value=12),
    st.integers(min_value=0, max_value=14),
)
def test_span_holds_the_lines_the_split_gave(text: str, first: int, stop: int) -> None:
    start, end = lint._lines_span(text, first, stop)
    assert text[start:end] == "\n".join(text.split("\n")[first:stop])


def _codes(text: str) -> list[tuple[str, str, int | None]]:
    goal = parse_goal(text, path="goal.md")
    return [
        (f.code or "", f.message, f.line) for f in lint.diagnose(goal) if f.code == "placeholder"
    ]


def test_a_template_field_in_the_non_goals_is_one() -> None:
    text = f"{HEAD}## Non-goals\n- none\n{{{{non_goals}}}}\n\n{ROWS}## Iterations\n"
    assert _codes(text) == [("placeholder", "a non-goal is still a placeholder", 13)]
    hint = next(f.hint for f in lint.diagnose(parse_goal(text, path="goal.md")))
    assert hint is not None and "`{{...}}` of templates/goal.md" in hint


def test_a_template_field_elsewhere_is_no_non_goal() -> None:
    ledger = "### Iteration 1 (2026-11-30) by verify-goal\n\n{{non_goals}}\n" * 3
    for text in (
        f"{HEAD}## Non-goals\n- none\n\n{ROWS}## Iterations\n\n{ledger}",
        f"{HEAD}## Non-goals\n- none\n\n{ROWS}{{{{non_goals}}}}\n## Iterations\n",
        f"{HEAD}{{{{non_goals}}}}\n## Non-goals\n- none\n\n{ROWS}## Iterations\n",
    ):
        assert _codes(text) == []
