"""A verify-goal entry written by hand, as the skill family's verify-goal skill writes one, whose
evidence cell is a code span of blanks around a Unicode space: goalfile reads each cell as a
CommonMark renderer shows it (DESIGN §10), here markdown-it, the parser mdformat is built on.

CommonMark strips one space (U+0020) from each end of a code span unless it is all U+0020;
goalfile asked Python's `str.strip`, which counts a no-break space as blank too, and so read
`` ` \u00a0 ` `` as " \u00a0 " where Markdown shows "\u00a0". The real goalfile on a real file.
"""

from __future__ import annotations

import json
from pathlib import Path

from markdown_it import MarkdownIt

from tests.conftest import run_goalfile
from tests.test_skill_family import GOAL, SKILL_PLAN, project, skill_goal


def shown_cells(text: str) -> list[list[str]]:
    """The body rows of every table in ``text``, each cell as markdown-it renders its code span
    (or its text)."""
    rows: list[list[str]] = []
    current: list[str] | None = None
    in_body = False
    for tok in MarkdownIt("commonmark").enable("table").parse(text):
        if tok.type == "tbody_open":
            in_body = True
        elif tok.type == "tbody_close":
            in_body = False
        elif tok.type == "tr_open" and in_body:
            current = []
        elif tok.type == "inline" and current is not None:
            children = tok.children or []
            spans = [c.content for c in children if c.type == "code_inline"]
            current.append(spans[0] if len(spans) == 1 else tok.content)
        elif tok.type == "tr_close" and current is not None:
            rows.append(current)
            current = None
    return rows


def test_an_evidence_code_span_is_read_as_markdown_shows_it(tmp_path: Path) -> None:
    for blank in ("\u00a0", "\u3000", "\u2002"):
        entry = (
            "### Iteration 1 (2026-11-28 14:05) by verify-goal\n"
            "| id | verdict | command | exit | evidence |\n"
            "|----|---------|---------|------|----------|\n"
            "| C1 | unmet | `sh tests/auth.sh` | 1 | `3 failed` |\n"
            f"| C2 | unmet | `git status --porcelain tests/fixtures` | 1 | ` {blank} ` |\n"
            "| R1 | unmet | `docs/auth.md` | - | not reviewed |\n"
            "status: active\n"
        )
        repo = project(
            tmp_path / f"u{ord(blank):04x}", skill_goal(plan=SKILL_PLAN, iterations=entry)
        )
        text = (repo / GOAL).read_text()
        (c2,) = [row for row in shown_cells(text) if row[:2] == ["C2", "unmet"]]
        assert c2[4] == blank  # what Markdown shows: one space off each end
        done = run_goalfile("status", "--json", GOAL, cwd=repo)
        assert done.returncode == 0, done.stderr
        rows = {row["id"]: row for row in json.loads(done.stdout)["goals"][0]["criteria"]}
        assert rows["C2"]["evidence"] == c2[4], (blank, rows["C2"])
