"""Lines that GitHub's Markdown (cmark-gfm) reads as other blocks than goalfile's (markdown-it).

A goal file showed on GitHub an `## Acceptance criteria` heading over a table whose check was
`test -f tests-pass`, and hid the table goalfile ran (`true`): `<source><!--` opened an HTML
block for GitHub only, and `Acceptance criteria <!-- \\| -->` over `---` was a heading for
GitHub and a one-column table for goalfile. `lint` said ok, `verify` wrote `met`, `audit
--against` was clean. A criteria row written as a lone HTML tag holding pipes was a row for
goalfile and raw HTML (not shown) for GitHub. A footnote definition (`[^ci]: x`) right above the
table, under a decoy list, made GitHub read the table as the text of a footnote nobody refers to,
and show nothing of it. GitHub's view is taken from cmark-gfm itself
(the `cmarkgfm` package), so each test also shows the difference it is about."""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options

from tests.conftest import copy_of, git, run_goalfile

FRONT = (
    "---\nslug: g\nstatus: draft\ncreated: 2026-12-03\nbudget:\n  iterations: 5\n"
    "  tokens: null\niterations_used: 0\ntokens_used: 0\n---\n# Goal: the suite passes\n\n"
    "## Non-goals\n\n- `tests/fixtures/` stays unchanged.\n\n"
)
TAIL = "\n## Plan\n\n## Token accounting\n\n## Iterations\n\n## Lessons\n"
HEADER = (
    "| id | criterion | check | expected | kind |\n|----|-----------|-------|----------|------|\n"
)

# GitHub: a heading and the decoy table; goalfile: a one-column table in `## Notes`
DECOY = (
    "## Notes\n\nAcceptance criteria <!-- \\| -->\n---\nid | criterion | check | expected | kind\n"
    "---|---|---|---|---\nC1 | suite passes | `test -f tests-pass` | exit 0 | deterministic\n\n"
)
# GitHub: one HTML block holding a comment; goalfile: the heading and the table it runs
HIDDEN = (
    "<source><!--\n## Acceptance criteria\n"
    + HEADER
    + "| C1 | suite passes | `true` | exit 0 | deterministic |\n> -->\n"
)


def github_checks(text: str) -> list[list[str]]:
    """The check cells GitHub shows under each `## Acceptance criteria` heading above the
    ledger (HTML comments are not shown)."""
    options = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES  # GitHub reads footnotes
    out = cmarkgfm.github_flavored_markdown_to_html(text, options=options)
    out = re.sub(r"<!--.*?(?:-->|\Z)", "", out, flags=re.DOTALL)
    body = out.split("<h2>Iterations</h2>")[0]
    sections = re.split(r"<h2>\s*Acceptance criteria\s*</h2>", body)[1:]
    shown = []
    for section in sections:
        rows = re.findall(r"<tr>(.*?)</tr>", section.split("<h2>")[0], flags=re.DOTALL)
        cells = [re.findall(r"<td>(.*?)</td>", r, flags=re.DOTALL) for r in rows]
        shown.append([html.unescape(re.sub(r"<[^>]+>", "", c[2])) for c in cells if len(c) > 2])
    return shown


def write(repo: Path, text: str) -> Path:
    path = repo / "goals" / "g.md"
    path.write_text(text, encoding="utf-8")
    return path


def errors(report: str) -> list[str]:
    return [line for line in report.splitlines() if ": error: " in line]


def test_criteria_github_hides_under_a_decoy_github_shows_are_refused(repo: Path) -> None:
    text = FRONT + DECOY + HIDDEN + TAIL
    assert github_checks(text) == [["test -f tests-pass"]]  # what a reviewer reads
    path = write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    found = errors(linted.stderr)
    # the setext heading is a heading for goalfile too: its table is one goalfile ignores
    assert any("under `## Acceptance criteria <!-- \\| -->`" in f for f in found), found
    assert any(
        "goals/g.md:25:1: error: the line `<source><!--` opens an HTML block for GitHub" in f
        for f in found
    ), found
    before = path.read_bytes()
    for command in ("activate", "verify"):
        done = run_goalfile(command, "goals/g.md", cwd=repo)
        assert done.returncode == 3, done.stdout + done.stderr
        assert path.read_bytes() == before
    audited = run_goalfile("audit", "goals/g.md", cwd=repo)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    assert "goals/g.md:25: rendered-differs: the line `<source><!--`" in audited.stdout


def test_the_html_block_only_github_sees_is_named_and_its_fix_works(repo: Path) -> None:
    honest = HEADER + "| C1 | suite passes | `test -f tests-pass` | exit 0 | deterministic |\n"
    text = FRONT + "## Acceptance criteria\n\n<source><!--\n" + honest + "> -->\n" + TAIL
    assert github_checks(text) == [[]]  # GitHub shows no criteria at all
    path = write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    assert errors(linted.stderr) == [
        "goals/g.md:19:1: error: the line `<source><!--` opens an HTML block for GitHub "
        "(cmark-gfm) but not for goalfile: the lines under it, up to the next blank line, are "
        "raw HTML in one view and Markdown in the other, so GitHub can show a reviewer other "
        "criteria than goalfile runs"
    ], linted.stderr
    fix = linted.stderr.split("  fix: delete the line: ", 1)[1].split("\n", 1)[0].strip("`")
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    fixed = path.read_text(encoding="utf-8")
    assert github_checks(fixed) == [["test -f tests-pass"]]
    assert "<source>" not in fixed


def test_an_html_block_only_goalfile_sees_is_refused_too(repo: Path) -> None:
    table = HEADER + "| C1 | suite passes | `test -f tests-pass` | exit 0 | deterministic |\n"
    text = FRONT + "## Notes\n\n<search> x\n\n## Acceptance criteria\n\n" + table + TAIL
    write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    assert errors(linted.stderr) == [
        "goals/g.md:19:1: error: the line `<search> x` opens an HTML block for goalfile "
        "(CommonMark 0.31) but not for GitHub: the lines under it, up to the next blank line, "
        "are raw HTML in one view and Markdown in the other, so GitHub can show a reviewer "
        "other criteria than goalfile runs"
    ], linted.stderr


def test_a_source_tag_in_a_code_block_or_inside_a_line_is_text_for_both(repo: Path) -> None:
    table = HEADER + "| C1 | suite passes | `test -f tests-pass` | exit 0 | deterministic |\n"
    plan = (
        "\n## Plan\n\n```html\n<source src=a.webm>\n```\n\n    <search>\n\nA <source> tag.\n\n"
        "<!-- an old step:\n<source src=b.webm>\n-->\n"
    )
    text = FRONT + "## Acceptance criteria\n\n" + table + plan + TAIL.replace("\n## Plan\n", "")
    write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 0, linted.stderr


def test_a_row_github_shows_as_raw_html_is_refused(repo: Path) -> None:
    header = (
        "| criterion | id | check | expected | kind | note |\n"
        "|-----------|----|-------|----------|------|------|\n"
    )
    shown = "| suite passes | C1 | `test -f tests-pass` | exit 0 | deterministic | |\n"
    hidden = '<span title="| C0 | `touch tests-pass` | exit 0 | deterministic | ">\n'
    text = FRONT + "## Acceptance criteria\n\n" + header + shown + hidden + TAIL
    assert github_checks(text) == [["test -f tests-pass"]]
    path = write(repo, text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    assert errors(linted.stderr) == [
        "goals/g.md:22:1: error: the criteria row "
        '`` <span title="| C0 | `touch tests-pass` | exit 0 | deterministic | "> `` starts '
        "with `<`: GitHub ends the table above it and shows the line as raw HTML, so C0 never "
        "shows as criteria, though goalfile runs it"
    ], linted.stderr
    before = path.read_bytes()
    done = run_goalfile("activate", "goals/g.md", cwd=repo)
    assert done.returncode == 3, done.stderr
    assert path.read_bytes() == before
    fix = linted.stderr.split("or delete it: ", 1)[1].split("\n", 1)[0].strip("`")
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    assert run_goalfile("lint", "goals/g.md", cwd=repo).returncode == 0


def test_a_second_table_whose_delimiter_row_holds_a_form_feed_is_seen(repo: Path) -> None:
    real = HEADER + "| C1 | suite passes | `true` | exit 0 | deterministic |\n"
    decoy = (
        "id | criterion | check | expected | kind\n---\f|---|---|---|---\n"
        "C1 | suite passes | `test -f tests-pass` | exit 0 | deterministic\n"
    )
    text = FRONT + "## Acceptance criteria\n\n" + real + "\n" + decoy + TAIL
    assert github_checks(text) == [["true", "test -f tests-pass"]]
    write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    assert any(
        "goals/g.md:24:1: error: line 24 of the criteria section looks like a table's "
        "delimiter row" in f
        for f in errors(linted.stderr)
    ), linted.stderr


def test_a_criteria_header_github_reads_as_raw_html_is_refused(repo: Path) -> None:
    header = (
        '<span title="| id | criterion | check | expected | kind |">\n'
        "|---|----|-----------|-------|----------|------|---|\n"
    )
    row = "|  | C1 | suite passes | `true` | exit 0 | deterministic | |\n"
    text = FRONT + "## Acceptance criteria\n\n" + header + row + TAIL
    assert github_checks(text) == [[]]  # no table: the lines show as raw HTML
    write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    assert errors(linted.stderr) == [
        "goals/g.md:19:1: error: the criteria table's header "
        '`<span title="| id | criterion | check | expected | kind |">` starts with `<`: GitHub '
        "reads the line as raw HTML and shows no table, so none of the criteria show as a "
        "table, though goalfile runs them all: write the header as a table row that starts with "
        "`|`, naming the columns only (`| id | criterion | check | expected |`)"
    ], linted.stderr
    assert "fix:" not in linted.stderr  # only its author can write the header


def test_tags_in_the_frontmatter_and_in_a_checks_quoted_output_are_not_lines_of_markdown(
    repo: Path,
) -> None:
    """A YAML block scalar in the frontmatter (GitHub shows the frontmatter as a table) and the
    output lines a verify entry quotes (indented, in a fence) start with `<source>` and
    `<search>` once their blanks are stripped: neither is where a Markdown block starts."""
    check = "printf '<source>\\n<search>\\n'; exit 1"
    done = run_goalfile(
        "new", "g", "the tags are printed", "--check", check, "--expected", "exit 0",
        "--non-goal", "nothing else", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert run_goalfile("verify", "goals/g.md", cwd=repo).returncode == 1
    path = repo / "goals" / "g.md"
    text = path.read_text(encoding="utf-8")
    assert "\n    <source>\n    <search>\n" in text  # quoted in the entry
    path.write_text(text.replace("\n---\n", "\nnotes: |\n  <source>\n  <search>\n---\n", 1))
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 0, linted.stderr
    assert "rendered-differs" not in linted.stderr, linted.stderr


TABLE = HEADER + "| C1 | suite passes | `echo 1 passed` | exit 0 | deterministic |\n"
DECOY_LIST = "C1, the suite passes: `pytest -q`, exit 0.\n\n"


@pytest.mark.parametrize(
    "over",
    [
        "[^ci]: x\n",  # the table's lines are the footnote paragraph's lazy lines
        "Each row runs in CI.\n[^ci]: x\n",  # a footnote interrupts a paragraph on GitHub
        "[^ci]: x\n\n    y\n",  # its indented text runs on over a blank line
    ],
)
def test_a_footnote_definition_github_reads_the_table_into_is_refused(
    repo: Path, over: str
) -> None:
    text = FRONT + "## Acceptance criteria\n\n" + DECOY_LIST + over + TABLE + TAIL
    assert github_checks(text) == [[]]  # GitHub: the decoy list, and no table
    path = write(repo, text)
    line = 21 + over.count("\n", 0, over.index("[^"))
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert errors(linted.stderr) == [
        f"goals/g.md:{line}:1: error: the line `[^ci]: x` above the criteria table starts a "
        "footnote definition for GitHub (goalfile reads no footnotes): the lines under it, the "
        "table's among them, can be the footnote's text there, which GitHub shows only where "
        "the file refers to the footnote, so a reviewer may see no criteria table at all, "
        "though goalfile runs every row of it"
    ], linted.stderr
    before = path.read_bytes()
    for command in ("activate", "verify"):
        done = run_goalfile(command, "goals/g.md", cwd=repo)
        assert done.returncode == 3, done.stdout + done.stderr
        assert path.read_bytes() == before
    audited = run_goalfile("audit", "goals/g.md", cwd=repo)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    assert f"goals/g.md:{line}: rendered-differs: the line `[^ci]: x`" in audited.stdout

    fix = linted.stderr.split("  fix: delete the line: ", 1)[1].split("\n", 1)[0].strip("`")
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    assert github_checks(path.read_text(encoding="utf-8")) == [["echo 1 passed"]]
    assert run_goalfile("lint", "goals/g.md", cwd=repo).returncode == 0


def test_footnotes_elsewhere_are_not_flagged(repo: Path) -> None:
    """A footnote referred to from the end state, defined under the table or in the lessons,
    leaves the table as a table in both views."""
    text = (
        FRONT.replace("the suite passes", "the suite passes[^why]")
        + "## Acceptance criteria\n\n"
        + TABLE
        + "\n[^note]: C1 is the suite.\n"
        + TAIL
        + "\n[^why]: it fails today.\n"
    )
    assert github_checks(text) == [["echo 1 passed"]]
    write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_a_footnote_over_a_setext_criteria_heading_is_refused(repo: Path) -> None:
    """`[^x]: y` right above `Acceptance criteria` over `---`: GitHub reads the heading into
    the footnote and shows no criteria section; the table shows under `## Examples`, as an
    example, below a decoy `## Acceptance` list naming `pytest -q`. goalfile ran the table."""
    text = (
        FRONT
        + "## Acceptance\n\n- C1: `pytest -q` passes, exit 0\n\n## Examples\n\n"
        + "An example of a table goalfile reads:\n\n[^x]: y\nAcceptance criteria\n---\n"
        + TABLE
        + TAIL
    )
    assert github_checks(text) == []  # no criteria heading at all on GitHub
    path = write(repo, text)
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert "goals/g.md:25:1: error: the line `[^x]: y` above the criteria table" in linted.stderr
    fix = linted.stderr.split("  fix: delete the line: ", 1)[1].split("\n", 1)[0].strip("`")
    subprocess.run(fix, shell=True, cwd=repo, check=True)
    assert github_checks(path.read_text(encoding="utf-8")) == [["echo 1 passed"]]
    assert run_goalfile("lint", "goals/g.md", cwd=repo).returncode == 0


def github_entry_headings(text: str) -> list[str]:
    """The `### Iteration` headings GitHub shows (HTML comments are not shown)."""
    options = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES
    out = cmarkgfm.github_flavored_markdown_to_html(text, options=options)
    out = re.sub(r"<!--.*?(?:-->|\Z)", "", out, flags=re.DOTALL)
    return re.findall(r"<h3>(Iteration [^<]*)</h3>", out)


def test_the_ledgers_goalfile_writes_at_every_stage_are_not_flagged(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The ledger is searched too; a goal at each stage of its life, as goalfile writes it
    (output quoted, reasons with URLs and emphasis), shows GitHub every entry heading and lint
    reports nothing of it (one lint of every goal: each is named in what it prints)."""
    from tests.lifecycle_goals import GOALS, shared_stages

    repo = copy_of(shared_stages(tmp_path_factory), tmp_path / "repo")
    paths = [f"goals/{slug}.md" for slug in GOALS]
    for path in paths:
        text = (repo / path).read_text(encoding="utf-8")
        assert len(github_entry_headings(text)) == text.count("\n### Iteration "), path
    linted = run_goalfile("lint", *paths, cwd=repo)
    for path in paths:
        assert path in linted.stdout + linted.stderr, (path, linted.stdout, linted.stderr)
    assert "rendered-differs" not in linted.stderr, linted.stderr


@pytest.mark.parametrize("opener", ["<source><!--", "<!--"])
def test_a_ledger_line_that_hides_an_entry_heading_on_github_is_refused(
    repo: Path, opener: str
) -> None:
    """A hand-added `<source><!--` (an HTML block for GitHub only) or `<!--` (a comment for
    both readers) above an entry heading, closed below it, hid the entry on GitHub while
    goalfile read it: `lint` said ok and `audit` without --against was clean."""
    table = HEADER + "| C1 | suite passes | `test -f tests-pass` | exit 0 | deterministic |\n"
    write(repo, FRONT + "## Acceptance criteria\n\n" + table + TAIL)
    for command in ("activate", "verify"):
        run_goalfile(command, "goals/g.md", cwd=repo)
    path = repo / "goals" / "g.md"
    text = path.read_text(encoding="utf-8")
    last = text.rindex("\n### Iteration ") + 1
    edited = (
        text[:last] + opener + "\n" + text[last:].replace("\n## Lessons", "> -->\n\n## Lessons")
    )
    assert len(github_entry_headings(edited)) == len(github_entry_headings(text)) - 1
    path.write_text(edited, encoding="utf-8")
    number = edited.count("\n", 0, last) + 1  # the added line
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stderr
    found = errors(linted.stderr)
    assert found, linted.stderr
    assert any(f.startswith((f"goals/g.md:{number}:", f"goals/g.md:{number + 1}:")) for f in found)
    audited = run_goalfile("audit", "goals/g.md", cwd=repo)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    assert "rendered-differs" in audited.stdout, audited.stdout
    fix = linted.stderr.split("  fix: ", 1)[1].split("\n", 1)[0]
    assert "then commit the file where HEAD's copy holds the line" in fix, fix
    command = fix.split("`")[1]
    subprocess.run(command, shell=True, cwd=repo, check=True)
    fixed = path.read_text(encoding="utf-8")
    assert opener not in fixed
    assert len(github_entry_headings(fixed)) == len(github_entry_headings(text))
    again = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert "rendered-differs" not in again.stderr and ": error: " not in again.stderr, again.stderr
