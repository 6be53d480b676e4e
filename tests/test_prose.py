"""prose.inline_code: a code span that shows any text exactly, written as mdformat writes it
(the one writer of code spans: ledger.code_span cleans and escapes a cell's text, then writes
it so), and in linear time (a run of backticks
once made it quadratic: lint of a goal with an unclosed fence of 100,000 backticks took 32 s)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from goalfile.prose import inline_code


@given(st.text(alphabet="`a \\|", min_size=1, max_size=40))
@example(" a ")  # CommonMark strips one space at each end of a span that has both
@example("  ")
def test_the_span_shows_the_text_exactly(text: str) -> None:
    shown = MarkdownIt("commonmark").parseInline(inline_code(text))[0].children
    assert shown is not None
    assert [token.type for token in shown] == ["code_inline"]
    assert shown[0].content == text


def test_a_long_run_of_backticks_gets_a_longer_fence() -> None:
    text = "a" + "`" * 7 + "b``c"
    assert inline_code(text) == "```````` " + text + " ````````"


def test_lint_of_a_goal_with_a_huge_unclosed_fence_answers(tmp_path: Path) -> None:
    goal = tmp_path / "goals" / "g.md"
    goal.parent.mkdir()
    goal.write_text(
        "---\nstatus: draft\n---\n\n# G\n\n## Acceptance criteria\n\n"
        "| id | criterion | check | expected | kind |\n|---|---|---|---|---|\n"
        "| C1 | c | `true` | exit 0 | deterministic |\n\n" + "`" * 400_000 + "\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "goalfile", "lint", str(goal)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,  # the quadratic search took minutes for this size
    )
    assert "Traceback" not in done.stderr
    # the unclosed fence is an error of the file, named by its line, with a fix that deletes it
    assert done.returncode == 3, done.stderr[-2000:]
    assert "'13d'" in done.stderr
