"""Criteria tables that GitHub's table extension (cmark-gfm) reads otherwise than goalfile's.

Each shape was lint-clean and verified `met` while GitHub showed a reviewer other rows: a
one-column table of GitHub's own (``Rows:`` over ``-:``) right above the header took the
criteria in as its rows and showed no check at all; a row led by a no-break space showed one
column to the right (its criterion, `pytest -q`, as the check; goalfile ran `true`); a line of
no-break spaces under the last row ended the table for goalfile and not for GitHub, which
showed the decoy row under it; a line ended by two carriage returns ended the table for GitHub
only. GitHub's view is taken from cmark-gfm itself (the `cmarkgfm` package); the last test
searches the two readers' differences over lines around, inside and under the table."""

from __future__ import annotations

import html
import itertools
import re
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options

from goalfile import lint
from goalfile.errors import GoalFileInvalid
from goalfile.model import Severity
from goalfile.parse import parse_goal
from tests.conftest import run_goalfile, shell

FRONT = (
    "---\nslug: g\nstatus: draft\ncreated: 2026-12-03\nbudget:\n  iterations: 5\n"
    "  tokens: null\niterations_used: 0\ntokens_used: 0\n---\n# Goal: the suite passes\n\n"
    "## Non-goals\n\n- `tests/fixtures/` stays unchanged.\n\n## Acceptance criteria\n\n"
)
TAIL = "\n## Plan\n\n## Token accounting\n\n## Iterations\n\n## Lessons\n"
HEADER = (
    "| id | criterion | check | expected | kind |\n|----|-----------|-------|----------|------|\n"
)
C1 = "| C1 | the file is there | `test -f README.md` | exit 0 | deterministic |\n"
NBSP = "\u00a0"


def github_rows(text: str) -> list[tuple[str, ...]]:
    """The body rows of the tables GitHub shows under `## Acceptance criteria`, each cell's
    text (the header rows left out)."""
    options = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES
    out = cmarkgfm.github_flavored_markdown_to_html(text, options=options)
    out = re.sub(r"<!--.*?(?:-->|\Z)", "", out, flags=re.DOTALL)
    section = out.split("<h2>Acceptance criteria</h2>", 1)[1].split("<h2>", 1)[0]
    rows = []
    for table in re.findall(r"<tbody>(.*?)</tbody>", section, flags=re.DOTALL):
        for row in re.findall(r"<tr>(.*?)</tr>", table, flags=re.DOTALL):
            cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.DOTALL)
            rows.append(tuple(html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells))
    return rows


def goalfile_rows(text: str) -> list[tuple[str, str]]:
    goal = parse_goal(text, path="goals/g.md")
    return [(row.id, row.check) for row in goal.criteria]


def refused(repo: Path, text: str, line: int, words: str) -> str:
    """``text`` as goals/g.md: lint names ``words`` on ``line``, activate and verify refuse it
    and write nothing, audit reports it; the fix lint prints, as written."""
    path = repo / "goals" / "g.md"
    path.write_bytes(text.encode("utf-8"))
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    found = [f for f in linted.stderr.splitlines() if f"goals/g.md:{line}:" in f]
    assert found and ": error: " in found[0] and words in found[0], linted.stderr
    for command in ("activate", "verify"):
        done = run_goalfile(command, "goals/g.md", cwd=repo)
        assert done.returncode == 3, done.stdout + done.stderr
        assert path.read_bytes() == text.encode("utf-8")
    audited = run_goalfile("audit", "goals/g.md", cwd=repo)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    assert f"goals/g.md:{line}: rendered-differs: " in audited.stdout, audited.stdout
    after = linted.stderr.split(found[0], 1)[1]
    fix = re.search(r"fix: [^`]*`([^`]+)`", after)
    assert fix is not None, after
    return fix.group(1)


def fixed(repo: Path, fix: str) -> str:
    """The fix run as written; the goal is then lint-clean and GitHub shows the rows goalfile
    runs."""
    done = shell(fix, repo)
    assert done.returncode == 0, done.stderr
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 0, linted.stderr
    text = (repo / "goals" / "g.md").read_text(encoding="utf-8")
    assert [(r[0], r[2]) for r in github_rows(text)] == goalfile_rows(text)
    return text


def test_a_one_column_table_of_githubs_own_over_the_header_is_refused(repo: Path) -> None:
    text = (
        FRONT
        + "Rows:\n-:\n"
        + HEADER
        + "| C1 | the suite passes | `true` | exit 0 | deterministic |\n"
        + TAIL
    )
    assert github_rows(text) == [("id",), ("----",), ("C1",)]  # no check shows at all
    assert goalfile_rows(text) == [("C1", "true")]
    fix = refused(repo, text, 21, "the criteria table's header is right under the line `-:`")
    assert "\n\n| id |" in fixed(repo, fix)


def test_a_delimiter_line_that_opens_nothing_keeps_github_from_showing_the_table(
    repo: Path,
) -> None:
    text = (
        FRONT
        + "a | b |\n-:\nx\n"
        + HEADER
        + "| C1 | suite | `true` | exit 0 | deterministic |\n"
        + TAIL
    )
    assert github_rows(text) == []  # the criteria are a paragraph of text on GitHub
    assert goalfile_rows(text) == [("C1", "true")]
    fixed(repo, refused(repo, text, 22, "right under the line `x`"))


def test_a_row_led_by_a_no_break_space_shows_its_cells_shifted_on_github(repo: Path) -> None:
    row = f"{NBSP}| C2 | `pytest -q` | `true` | exit 0 | deterministic |\n"
    text = FRONT + HEADER + C1 + row + TAIL
    shown = github_rows(text)
    assert shown[1][2] == "pytest -q"  # the check a reviewer reads; goalfile runs `true`
    assert goalfile_rows(text)[1] == ("C2", "true")
    fix = refused(repo, text, 22, "the row C2 of the criteria table starts with U+00A0")
    assert github_rows(fixed(repo, fix))[1][2] == "true"


@pytest.mark.parametrize(("edge", "side"), [("\f", "starts"), ("\u3000", "ends")])
def test_a_header_with_an_edge_only_goalfile_trims_shows_no_table_on_github(
    repo: Path, edge: str, side: str
) -> None:
    head = f"{edge}{HEADER}" if side == "starts" else HEADER.replace(" |\n", f" |{edge}\n", 1)
    text = FRONT + head + C1 + TAIL
    assert github_rows(text) == []  # one cell more than the delimiter row: no table
    assert goalfile_rows(text) == [("C1", "test -f README.md")]
    fixed(repo, refused(repo, text, 19, f"the header of the criteria table {side} with"))


def test_a_line_of_no_break_spaces_under_the_table_is_refused(repo: Path) -> None:
    decoy = "| C2 | the suite passes | `pytest -q` | exit 0 | deterministic |\n"
    text = FRONT + HEADER + C1 + f"{NBSP}{NBSP}\n" + decoy + TAIL
    assert [r[2] for r in github_rows(text)] == ["test -f README.md", "", "pytest -q"]
    assert goalfile_rows(text) == [("C1", "test -f README.md")]  # C2 is never run
    fix = refused(repo, text, 22, "the line under the criteria table's last row holds U+00A0")
    # with the line blank, GitHub too ends the table there (the decoy is then hidden-structure's)
    done = shell(fix, repo)
    assert done.returncode == 0, done.stderr
    assert [r[2] for r in github_rows((repo / "goals" / "g.md").read_text())] == [
        "test -f README.md"
    ]


def test_a_row_ended_by_two_carriage_returns_ends_the_table_for_github_only(repo: Path) -> None:
    row = "| C2 | suite | `true` | exit 0 | deterministic |\n"
    text = FRONT + HEADER + C1.replace("\n", "\r\r\n") + row + TAIL
    assert [r[0] for r in github_rows(text)] == ["C1"]  # C2 shows as a paragraph of text
    assert goalfile_rows(text) == [("C1", "test -f README.md"), ("C2", "true")]
    fixed(repo, refused(repo, text, 21, "ends in more than one carriage return"))


def test_a_setext_criteria_heading_github_takes_into_a_list_item_is_refused(repo: Path) -> None:
    """`- [a]: /u` over `Acceptance criteria` over `---`: a list item holding a link reference
    definition, no paragraph for goalfile (which reads the heading and runs the table), a
    paragraph for GitHub that takes the heading's text in, `---` a thematic break: GitHub shows
    no criteria heading, and the table under `## Examples`, below a decoy `## Acceptance`."""
    decoy = "## Acceptance\n\n- C1: `pytest -q` passes, exit 0\n\n## Examples\n\n"
    row = "| C1 | the suite passes | `true` | exit 0 | deterministic |\n"
    front = FRONT.replace("## Acceptance criteria\n\n", "")
    text = front + decoy + "- [a]: /u\nAcceptance criteria\n---\n\n" + HEADER + row + TAIL
    options = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES
    assert "<h2>Acceptance criteria</h2>" not in cmarkgfm.github_flavored_markdown_to_html(
        text, options=options
    )
    assert goalfile_rows(text) == [("C1", "true")]
    fix = refused(repo, text, 24, "the criteria heading `Acceptance criteria` is written over")
    fixed(repo, fix)


ABOVE = ["", "x", "Rows:", "-:", ":-:|", "|:-:", "a | b |", "- [a]: /u", "> [a]: /u", "# x",
         "===", f"{NBSP}", "\u2003|:-:", "x\r\r", "[a]: /u", "1. x", "    x"]  # fmt: skip
C3 = "| C3 | three | `pytest` | exit 0 | deterministic |"
INSIDE = ["", "x", f"{NBSP}", "  \u3000", f"\f{C3}", f"{NBSP}{C3}", "- x", "> x", "-:",
          f"{C3}\r\r", "C3 | three | `pytest` | exit 0", C3, "|", "`x|y`"]  # fmt: skip


def test_github_shows_the_rows_goalfile_runs_or_lint_refuses_the_goal() -> None:
    """The differential search, kept: a line above the header (right above it, or over a blank
    line), one between the rows and one under the last; every goal lint lets through shows on
    GitHub, as criteria rows, exactly the checks goalfile runs (the search that found the
    shapes above ran some 90,000 such goals)."""
    rows = [
        "| C1 | one | `true` | exit 0 | deterministic |",
        "| C2 | two | `test -f x` | exit 0 | deterministic |",
    ]
    cases = [
        ([first, *gap], [], [under])
        for first, gap, under in itertools.product(ABOVE, ([], [""]), ["", *INSIDE[1:8]])
    ]
    cases += [([""], [inside], [""]) for inside in INSIDE]
    checked = 0
    for above, inside, under in cases:
        lines = [*above, *HEADER.splitlines(), rows[0], *inside, rows[1], *under]
        text = FRONT + "\n".join(lines) + "\n" + TAIL
        try:
            goal = parse_goal(text, path="goals/g.md")
        except GoalFileInvalid:
            continue
        if any(f.severity is Severity.ERROR for f in lint.diagnose(goal)):
            continue
        checked += 1
        shown = [r[2] for r in github_rows(text) if len(r) >= 3]
        assert shown == [row.check for row in goal.criteria], repr("\n".join(lines))
    assert checked > 50  # the search saw goals lint lets through, not only refusals
