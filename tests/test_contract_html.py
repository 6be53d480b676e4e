"""HTML blocks in the sections that are the contract: GitHub draws them, goalfile does not read
them. A decoy `<table>` showing `pytest -q` above the real table folded in `<details>` (which
runs `echo 0 passed`) was lint-clean, approved and verified `met`; now every command refuses
it, naming each block, with one printed command that deletes them all."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import goal_text, make_git_repo, run_goalfile

DECOY = """<table>
<tr><th>id</th><th>check</th><th>expected</th></tr>
<tr><td>C1</td><td><code>pytest -q</code></td><td>exit 0</td></tr>
</table>
"""
TABLE = """| id | criterion | check | expected |
|----|-----------|-------|----------|
| C1 | the suite passes | `echo 0 passed` | exit 0; stdout contains "passed" |
"""


def goal(criteria: str, non_goals: str = "- `tests/` stays unchanged\n") -> str:
    return (
        "---\nslug: g\nstatus: draft\ncreated: 2026-12-02\nbudget:\n  iterations: 5\n"
        "  tokens: null\niterations_used: 0\ntokens_used: 0\n---\n# Goal: the suite passes\n\n"
        f"## Non-goals\n\n{non_goals}\n## Acceptance criteria\n\n{criteria}\n"
        "## Iterations\n"
    )


def write(repo: Path, text: str) -> Path:
    path = repo / "goals" / "g.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_decoy_html_table_over_the_real_one_folded_in_details_is_refused(repo: Path) -> None:
    folded = f"<details><summary>how to run</summary>\n\n{TABLE}\n</details>\n"
    path = write(repo, goal(f"{DECOY}\n{folded}"))
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    report = linted.stderr
    starts = [line.split(": error: ")[0] for line in report.splitlines() if ": error: " in line]
    assert starts == ["goals/g.md:19", "goals/g.md:24", "goals/g.md:30"], report
    assert "holds an HTML block `<table>` (lines 19 to 22)" in report, report
    assert "holds an HTML block `<details><summary>how to run</summary>` (line 24)" in report
    before = path.read_bytes()
    for command in ("activate", "verify"):
        done = run_goalfile(command, "goals/g.md", cwd=repo)
        assert done.returncode == 3, done.stdout + done.stderr
        assert "holds an HTML block `<table>`" in done.stderr, done.stderr
        assert path.read_bytes() == before
    # the printed fix, run as written, leaves the plain table every view shows
    fix = report.split("  fix: ", 1)[1].split("\n", 1)[0].split(": ", 1)[1].strip("`")
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    assert "<" not in path.read_text(encoding="utf-8").split("## Acceptance criteria")[1]
    assert run_goalfile("lint", "goals/g.md", cwd=repo).returncode == 0
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0


@pytest.mark.parametrize("wrapper", ["sub", "del"])
def test_a_table_drawn_tiny_or_struck_through_by_html_around_it_is_refused(
    repo: Path, wrapper: str
) -> None:
    write(repo, goal(f"<{wrapper}>\n\n{TABLE}\n</{wrapper}>\n"))
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    assert f"holds an HTML block `<{wrapper}>`" in linted.stderr, linted.stderr


def test_html_in_the_non_goals_is_refused_too(repo: Path) -> None:
    write(repo, goal(TABLE, "<details><summary>x</summary>\n\n- tests/ stays\n\n</details>\n"))
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    assert "the Non-goals section holds an HTML block" in linted.stderr, linted.stderr


def test_a_comment_no_view_draws_is_allowed_but_what_follows_one_on_its_line_is_not(
    repo: Path,
) -> None:
    write(repo, goal(f"<!-- one row per criterion -->\n\n{TABLE}"))
    done = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    write(repo, goal(f"<!-- x --><b>C1 runs pytest -q</b>\n\n{TABLE}"))
    done = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert done.returncode == 3 and "holds an HTML block `<!-- x --><b>" in done.stderr


def test_the_shipped_goal_files_hold_no_such_block(tmp_path: Path) -> None:
    text = goal_text()
    assert "<" not in text.split("## Acceptance criteria")[1].split("## ")[0]
    repo = make_git_repo(tmp_path / "r")
    path = repo / "g.md"
    path.write_text(text, encoding="utf-8")
    done = run_goalfile("lint", "g.md", cwd=repo)
    assert "HTML block" not in done.stdout + done.stderr


ENTRY = "### Iteration {n} (2026-12-02) by verify-goal\n\n| id | verdict |\n| C1 | unmet |\n\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("after_ledger", [False, True])
def test_the_blocks_are_found_before_a_long_ledger_and_after_one(
    newline: str, after_ledger: bool
) -> None:
    """Only the lines before the ledger are split when the sections read come before it; a
    contract section after the ledger is read from the whole text's lines, as before."""
    from goalfile import htmlcontract
    from goalfile.parse import parse_goal

    ledger = "".join(ENTRY.format(n=n) for n in range(1, 200))
    html = "<details><summary>x</summary>\n\n- tests/ stays\n\n</details>\n"
    text = goal(f"<sub>\n\n{TABLE}\n</sub>\n", "" if after_ledger else html) + ledger
    if after_ledger:
        text += f"## Non-goals\n\n{html}\n## Lessons\n"
    text = text.replace("\n", newline)
    parsed = parse_goal(text, path="g.md")
    lines = text.split("\n")
    expected = [
        (html_block.first, html_block.last, html_block.opener)
        for section in parsed.sections
        if section.key in htmlcontract._CONTRACT
        for html_block in htmlcontract._html_blocks(section, lines)
    ]
    assert len(expected) == 4  # each opening and closing tag a block of its own
    found = htmlcontract.findings(parsed)
    assert [finding.line for finding in found] == [first for first, _, _ in expected]
    assert all("(line" in finding.message for finding in found)
