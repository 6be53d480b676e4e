"""The lint rule for lines that look like entry headings finds them with one search that skips
every real entry heading; it must report exactly the lines a check of every heading-like line
reports, whatever the case, the blanks and the carriage returns around them."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from goalfile import headingrule, ledger
from tests.conftest import frontmatter, run_goalfile

HEADING = "### Iteration 7 (2026-12-01) by verify-goal"
PIECES = [
    "",
    "text",
    HEADING,
    "### Iteration 8 (2026-12-01 10:30) by activate",
    "### Iteration 9 (2026-12-01T10:30:15) by plan",
    "### iteration 7 (2026-12-01) by verify-goal",
    "### Iteration 7 (2026-12-01) BY verify-goal",
    "### Iteration 7 (2026-12-01t10:30) by verify-goal",
    "### Iteration 7 (2026-12-01 7:30) by verify-goal",
    "### Iteration 7 (28.11.2026) by verify-goal",
    "### Iteration x (2026-12-01) by verify-goal",
    "### Iteration 7 (2026-12-01) by verify goal",
    "### Iteration 7 (2026-12-01) by ",
    "#### Iteration 7 (2026-12-01) by verify-goal",
    "   ### Iteration 7 (2026-12-01) by verify-goal",
    "    ### Iteration 7 (2026-12-01) by verify-goal",
    " ## iteration 7",
    "  #Iteration",
    "  x # iteration",
    "####### iteration",
    "### Iteration ٣ (2026-12-01) by verify-goal",  # a digit of another script: \d takes it
    "## ITERATION",
    "#iteration",
    "# iterations",
    "```",
    "~~~",
]
ENDS = ["", " ", "\t", "\r", "\r\r", " \r", "\r ", "\t\r", " \r \r"]


def reported(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """Every heading-like line of the span that is not an entry heading, checked one by one."""
    return [
        (offset, line)
        for offset, line in ledger.heading_like_lines(text, start, end)
        if not ledger.is_heading(line.rstrip("\r"))
    ]


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(ENDS)), max_size=25),
    st.integers(min_value=0, max_value=80),
    st.integers(min_value=0, max_value=400),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_the_search_finds_the_lines_a_check_of_each_finds(
    lines: list[tuple[str, str]], start: int, length: int, newline: str
) -> None:
    text = newline.join(piece + end for piece, end in lines)
    start = min(start, len(text))
    end = min(start + length, len(text))
    found = list(headingrule.lookalike_lines(text, start, end))
    expected = reported(text, start, end)
    assert [(at, line) for at, line in found if not ledger.is_heading(line.rstrip("\r"))] == (
        expected
    )
    if start > 0:  # the search itself leaves out every entry heading, and only those
        assert found == expected


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(ENDS)), max_size=25),
    st.integers(min_value=0, max_value=80),
    st.integers(min_value=0, max_value=30),
    st.sampled_from(["\n", "\r\n"]),
)
def test_the_heading_index_holds_the_lines_of_a_span_of_whole_lines(
    lines: list[tuple[str, str]], start: int, count: int, newline: str
) -> None:
    """A span that ends at a line's end (as the ledger does) takes its lines from the heading
    index, which the search for headings made: the same lines a check of each line reports."""
    text = newline.join(piece + end for piece, end in lines)
    start = min(max(start, 1), len(text))
    end = start
    for _ in range(count):  # after ``count`` more newlines, or the end of the text
        found = text.find("\n", end)
        end = len(text) if found < 0 else found + 1
    found_lines = headingrule.lookalike_lines(text, start, end)
    assert found_lines == reported(text, start, end)
    assert found_lines == [
        (at, line)
        for at, line in ledger.heading_like_lines(text, 0, len(text))
        if start <= at < end and not ledger.is_heading(line.rstrip("\r"))
    ]


GOAL = (
    frontmatter("lookalike")
    + """# Goal: the notes exist

## Non-goals
- nothing else

## Acceptance criteria
| id | criterion | check | expected | kind |
|----|-----------|-------|----------|------|
| C1 | notes | `test -f notes.txt` | exit 0 | deterministic |

## Iterations

{entries}
## Lessons
"""
)


def entry(number: int, heading: str | None = None) -> str:
    heading = heading or f"### Iteration {number} (2026-12-01) by verify-goal"
    return (
        f"{heading}\n| id | verdict | exit | evidence |\n|----|---------|------|----------|\n"
        f"| C1 | unmet | 1 | no notes |\nstatus: active\n"
    )


def test_lint_names_the_one_bad_heading_among_many_good_ones(tmp_path: Path) -> None:
    good = [entry(n, f"### Iteration {n} (2026-12-01) by verify-goal \r") for n in range(1, 400)]
    bad = "### Iteration 400 (2026-12-01) by verify-goal!"
    text = GOAL.format(entries="\n".join([*good, entry(400, bad), entry(401)]))
    path = tmp_path / "goal.md"
    path.write_bytes(text.replace("\n", "\r\n").encode())
    line = text[: text.index(bad)].count("\n") + 1
    done = run_goalfile("lint", path, cwd=tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"goal.md:{line}:1: error" in done.stdout + done.stderr
    assert (done.stdout + done.stderr).count("looks like an entry heading") == 1


def test_lint_passes_a_long_ledger_of_good_headings(tmp_path: Path) -> None:
    entries = [entry(n) for n in range(1, 300)]
    path = tmp_path / "goal.md"
    path.write_text(GOAL.format(entries="\n".join(entries)), encoding="utf-8")
    done = run_goalfile("lint", path, cwd=tmp_path)
    assert "entry heading" not in done.stdout + done.stderr


def test_every_pattern_of_the_entry_heading_reads_a_line_alike() -> None:
    """The entry heading's grammar is written once (ledger.entry_heading): the entry reader,
    the heading index and lint's look-alike search take the same lines as headings."""
    grammar = ledger.entry_heading(groups=False)
    for line in PIECES:
        for ending in ("", "\r", " \r\r"):
            text = f"x\n{line}{ending}\ny"
            whole = line.startswith("### ") and re.fullmatch(grammar, line[4:] + ending)
            read = ledger._HEADING_RE.search(text) is not None
            indexed = [at for at, _ in ledger.headings(text).entries] == [2] * read
            reported = headingrule.lookalike_scan().search(text) is not None
            looks = ledger.heading_like_re().search(text) is not None
            assert read is bool(whole) and indexed, (line, ending)
            assert reported is (looks and not read), (line, ending)
