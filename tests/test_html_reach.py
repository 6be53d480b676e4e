"""Raw HTML that reaches further on GitHub's page than in goalfile's reading (goalfile.htmlreach).

A goal file showed on GitHub an `## Acceptance criteria` heading over a table whose check was
`pytest -q tests`, and hid the table goalfile ran (`true`): a lone `<br>` under a link reference
definition was an HTML block for goalfile (which so skipped the decoy heading and table) and
paragraph text for GitHub; a lone `<br>` under a list item was the item's lazy line for goalfile
and an HTML block for GitHub, whose next line `See [ci] for the runs. <!--` opened a comment that
a browser ran on to the `-->` in `## Plan`. `lint` said ok, `activate` approved `true`, `verify`
wrote `met`. An HTML block that both readers see and that leaves a comment (or a tag, or a
`<template>`) open at its end hid the rest of the goal on GitHub the same way. GitHub's view is
cmark-gfm's HTML with each comment taken to its `-->` (`test_gfm_blocks.github_checks`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import git, run_goalfile
from tests.test_gfm_blocks import FRONT, HEADER, errors, github_checks, write

TAIL = "\n## Plan\n\n<!-- the steps -->\n\n## Token accounting\n\n## Iterations\n\n## Lessons\n"
DECOY = (
    "## Notes\n\n[ci]: https://ci.example.com/runs\n<br>\n## Acceptance criteria\n"
    + HEADER
    + "| C1 | suite passes | `pytest -q tests` | exit 0 | deterministic |\n\n"
)
HIDDEN = (
    "- the suite is the only criterion\n<br>\nSee [ci] for the runs. <!--\n\n"
    "## Acceptance criteria\n\n"
    + HEADER
    + "| C1 | suite passes | `true` | exit 0 | deterministic |\n"
)


def fixes(report: str) -> list[str]:
    return [
        line.split("delete the line: ", 1)[1].split("`;", 1)[0].strip().strip("`")
        for line in report.splitlines()
        if "fix: delete the line: " in line
    ]


def test_a_decoy_github_shows_over_criteria_it_hides_is_refused(repo: Path) -> None:
    text = FRONT + DECOY + HIDDEN + TAIL
    assert github_checks(text) == [["pytest -q tests"]]  # what a reviewer reads
    path = write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert errors(linted.stderr) == [
        "goals/g.md:20: error: the line `<br>` opens an HTML block for goalfile but is text "
        "for GitHub (cmark-gfm), which reads the definition right above it as the start of a "
        "paragraph the line goes on with: the lines under it, up to the next blank line, are "
        "raw HTML or text in one view and Markdown in the other (a `<!--` there hides all up "
        "to the next `-->` on GitHub), so GitHub can show a reviewer other criteria or entries "
        "than goalfile reads",
        "goals/g.md:27: error: the line `<br>` goes on with the paragraph above for goalfile "
        "but opens an HTML block for GitHub (cmark-gfm), which takes no such tag as a lazy line "
        "of a list item or block quote: the lines under it, up to the next blank line, are raw "
        "HTML or text in one view and Markdown in the other (a `<!--` there hides all up to the "
        "next `-->` on GitHub), so GitHub can show a reviewer other criteria or entries than "
        "goalfile reads",
    ], linted.stderr
    before = path.read_bytes()
    done = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert path.read_bytes() == before  # `true` is not approved
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    audited = run_goalfile("audit", "goals/g.md", cwd=repo)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    assert "goals/g.md:20: rendered-differs: the line `<br>`" in audited.stdout
    assert "goals/g.md:27: rendered-differs: the line `<br>`" in audited.stdout
    for fix in reversed(fixes(linted.stderr)):  # the lower line first: the numbers hold
        subprocess.run(fix, shell=True, cwd=repo, check=True)
    fixed = path.read_text(encoding="utf-8")
    assert "<br>" not in fixed
    # both tables are Markdown in both views now: GitHub shows the one goalfile runs
    assert github_checks(fixed) == [["pytest -q tests"], ["true"]]
    # and goalfile reads the decoy as its criteria table, the real rows as a second table
    relinted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert relinted.returncode == 3, relinted.stderr
    assert errors(relinted.stderr) == [
        "goals/g.md:30:1: error: lines 30–32 of the criteria section look like criteria rows "
        "id, C1 but are in a second table (lines 30–32); goalfile reads only the first table "
        "of the first criteria section: goalfile does not read them as criteria, so `verify` "
        "would not check them"
    ], relinted.stderr


@pytest.mark.parametrize(
    ("above", "what"),
    [
        (
            "| step | owner |\n|------|-------|\n| build | ci |\n<br>",
            "is a row of the table above it for goalfile but ends that table and opens an HTML "
            "block for GitHub (cmark-gfm)",
        ),
        (
            "[^ci]:\n<br>",
            "is the address of the link reference definition above it for goalfile but a block "
            "of its own for GitHub (cmark-gfm), which reads the line above as an empty footnote",
        ),
    ],
)
def test_a_line_that_ends_a_block_for_github_only_is_refused(
    repo: Path, above: str, what: str
) -> None:
    table = HEADER + "| C1 | suite passes | `true` | exit 0 | deterministic |\n"
    notes = "## Notes\n\n" + above + "\nSee the steps. <!--\n\n"
    text = FRONT + notes + "## Acceptance criteria\n\n" + table + TAIL
    assert github_checks(text) == []  # the comment runs to the `-->` in `## Plan`
    path = write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    line = text[: text.index("<br>")].count("\n") + 1
    assert errors(linted.stderr) == [
        f"goals/g.md:{line}: error: the line `<br>` {what}: the lines under it, up to the next "
        "blank line, are raw HTML or text in one view and Markdown in the other (a `<!--` "
        "there hides all up to the next `-->` on GitHub), so GitHub can show a reviewer other "
        "criteria or entries than goalfile reads"
    ], linted.stderr
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 3
    (fix,) = fixes(linted.stderr)
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    fixed = path.read_text(encoding="utf-8")
    assert "rendered-differs" not in run_goalfile("lint", "goals/g.md", cwd=repo).stderr
    assert github_checks(fixed) == [["true"]]


@pytest.mark.parametrize(
    ("opener", "left"),
    [
        ("<div>\nSee the notes <!--", "a comment (`<!--` with no `-->`)"),
        ('<div title="the goal', "a tag (`<div` with no `>` after its quotes)"),
        ("<div>\n<template>", "a `<template>` element (no `</template>`)"),
        ("<div>\n<select>", "a `<select>` element (no `</select>`)"),
        ("The steps are below. <select>", "a `<select>` element (no `</select>`)"),
    ],
)
def test_an_html_block_left_open_that_hides_the_rest_on_github_is_refused(
    repo: Path, opener: str, left: str
) -> None:
    table = HEADER + "| C1 | suite passes | `true` | exit 0 | deterministic |\n"
    end_state = "# Goal: the suite passes\n\n" + opener + "\n\n"
    text = FRONT.replace("# Goal: the suite passes\n\n", end_state) + (
        "## Acceptance criteria\n\n" + table + TAIL
    )
    if "<!--" in opener:  # the comment runs to the `-->` in `## Plan`: no criteria shown
        assert github_checks(text) == []
    path = write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    line = 13 + opener.count("\n")
    shown = opener.split("\n")[-1]
    block = "HTML block" if opener.startswith("<") else "paragraph"
    assert errors(linted.stderr) == [
        f"goals/g.md:{line}: error: the line `{shown}` leaves {left} open at the end of its "
        f"{block}: Markdown ends the {block} at the next blank line, but a browser (GitHub's "
        "page) reads on, and hides the headings, criteria and entries after it that goalfile "
        "reads"
    ], linted.stderr
    before = path.read_bytes()
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 3
    assert path.read_bytes() == before
    (fix,) = fixes(linted.stderr)
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    assert run_goalfile("lint", "goals/g.md", cwd=repo).returncode == 0
    assert github_checks(path.read_text(encoding="utf-8")) == [["true"]]


def test_an_entry_hidden_on_github_by_a_lazy_tag_in_the_ledger_is_refused(repo: Path) -> None:
    table = HEADER + "| C1 | suite passes | `true` | exit 0 | deterministic |\n"
    text = FRONT + "## Acceptance criteria\n\n" + table + TAIL
    path = write(repo, text)
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    ledger = path.read_text(encoding="utf-8")
    # a note above the newest entry: GitHub's page hides the entry (the approval) under it
    head = ledger.index("### Iteration ")
    hidden = ledger[:head] + "- a note\n<br>\nNotes follow. <!--\n\n" + ledger[head:]
    path.write_text(hidden, encoding="utf-8")
    line = hidden[: hidden.index("- a note")].count("\n") + 2
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    assert f"goals/g.md:{line}: error: the line `<br>` goes on with the paragraph" in (
        linted.stderr
    ), linted.stderr
    assert "then commit the file where HEAD's copy holds the line" in linted.stderr
    (fix,) = fixes(linted.stderr)
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    assert "rendered-differs" not in run_goalfile("lint", "goals/g.md", cwd=repo).stderr


@pytest.mark.parametrize(
    "markup",
    [
        "- an item\n  <br>\n  more of it",  # indented into the item: a line of it for both
        "[ci]: https://ci.example.com/runs\n\n<br>",  # a blank line ends the definition
        "<div>\n<!-- a note -->\n</div>",
        '<p title="a > b">x</p>',
        "<details>\n<summary>more</summary>\n\ntext\n\n</details>",
        "A paragraph\n<br>\ngoes on.",  # no container: a line of the paragraph for both
    ],
)
def test_html_both_views_read_alike_is_let_be(repo: Path, markup: str) -> None:
    table = HEADER + "| C1 | suite passes | `true` | exit 0 | deterministic |\n"
    text = FRONT.replace("## Non-goals", markup + "\n\n## Non-goals") + (
        "## Acceptance criteria\n\n" + table + TAIL
    )
    write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 0, linted.stderr
    assert github_checks(text) == [["true"]]
