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


def github_html(text: str) -> str:
    """The body as GitHub's own parser renders it (raw HTML kept: GitHub keeps `<details>`)."""
    import cmarkgfm
    from cmarkgfm.cmark import Options

    body = text.split("---\n", 2)[2]
    return cmarkgfm.github_flavored_markdown_to_html(body, options=Options.CMARK_OPT_UNSAFE)


def folded(html: str) -> bool:
    """Whether the criteria table lies inside a `<details>` element of the page."""
    table = html.index("echo 0 passed")
    opened = html.rfind("<details>", 0, table)
    return opened >= 0 and html.find("</details>", opened) in (-1, *range(table, len(html)))


def test_details_opened_above_the_criteria_and_closed_below_them_is_refused(repo: Path) -> None:
    """`<details>` in the end state, `</details>` in the plan: each an HTML block outside the
    contract's sections, so lint was clean, while GitHub folded the heading and the table under
    the summary, below a decoy list naming `pytest -q`."""
    text = (
        goal(TABLE)
        .replace(
            "# Goal: the suite passes\n\n",
            "# Goal: the suite passes\n\n- C1: `pytest -q` passes\n\n"
            "<details><summary>the same, for goalfile</summary>\n\n",
        )
        .replace("## Iterations\n", "## Plan\n\n</details>\n\n## Iterations\n")
    )
    assert folded(github_html(text))
    path = write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert (
        "goals/g.md:15: error: line 15 `<details><summary>the same, for goalfile</summary>` "
        "opens a `<details>` that is still open at the criteria table" in linted.stderr
    ), linted.stderr
    before = path.read_bytes()
    for command in ("activate", "verify"):
        done = run_goalfile(command, "goals/g.md", cwd=repo)
        assert done.returncode == 3, done.stdout + done.stderr
        assert path.read_bytes() == before
    audited = run_goalfile("audit", "goals/g.md", cwd=repo)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    assert "goals/g.md:15: hidden-markup: line 15" in audited.stdout, audited.stdout
    fix = linted.stderr.split("fix: `", 1)[1].split("` deletes the line\n", 1)[0]
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    assert not folded(github_html(path.read_text(encoding="utf-8")))
    assert run_goalfile("lint", "goals/g.md", cwd=repo).returncode == 0


def test_details_opened_inline_in_the_criteria_prose_is_refused(repo: Path) -> None:
    """Inline HTML in a paragraph is no HTML block, but a browser ends the paragraph at
    `<details>` and puts what follows inside it: the table was folded."""
    text = goal(f"C1 runs `pytest -q`. <details><summary>table</summary>\n\n{TABLE}")
    assert folded(github_html(text))
    write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert "opens a `<details>` that is still open at the criteria table" in linted.stderr
    assert "or take it (and its `<summary>`) out of line 19" in linted.stderr
    assert "fix:" not in linted.stderr, linted.stderr  # no command can move it


def test_details_closed_before_the_criteria_is_allowed(repo: Path) -> None:
    text = goal(TABLE).replace(
        "# Goal: the suite passes\n\n",
        "# Goal: the suite passes\n\n<details><summary>why</summary>\n\nIt fails today.\n\n"
        "</details>\n\n",
    )
    assert not folded(github_html(text))
    write(repo, text)
    done = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
