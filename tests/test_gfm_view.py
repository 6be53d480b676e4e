"""A criteria cell GitHub shows otherwise than goalfile reads it is refused: GFM strikethrough
(``~~text~~``, ``~text~``: drawn struck out, read as deleted) and a link whose reference
definition is somewhere goalfile does not read Markdown (the ledger). A definition after the
ledger applies to the cells as in every Markdown view. Real goalfile processes on real files
(the cases of :data:`END_TO_END`; the other cases, whose subject is the cell, run the same
commands in this process); markdown-it with GFM strikethrough (goalfile's own dependency)
stands for GitHub's view."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import clean_env, frontmatter, goalfile_here, run_goalfile
from markdown_it import MarkdownIt

HEAD = (
    frontmatter("d", created="2026-12-02")
    + """# Goal: the build leaves `ok`

## Non-goals
- `tests/` stays unchanged.

## Acceptance criteria
| id | criterion | check | expected |
|----|-----------|-------|----------|
"""
)
TAIL = """
## Plan

## Token accounting

## Iterations
{ledger}
## Lessons
{lessons}"""


def goal(tmp_path: Path, row: str, *, ledger: str = "", lessons: str = "") -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=clean_env())
    (tmp_path / "goals").mkdir()
    path = tmp_path / "goals" / "d.md"
    path.write_text(HEAD + row + "\n" + TAIL.format(ledger=ledger, lessons=lessons), "utf-8")
    return path


def shown(path: Path) -> str:
    """C1's check cell as GitHub renders it (GFM strikethrough, one or two tildes)."""
    md = MarkdownIt("commonmark", {"strikethrough_single_tilde": True})
    html = md.enable(["table", "strikethrough"]).render(path.read_text("utf-8").split("---", 2)[2])
    found = re.search(r"<td>C1</td>\s*<td>[^<]*</td>\s*<td>(.*?)</td>", html, re.S)
    assert found is not None, html
    return found.group(1)


def findings(
    path: Path, code: str, run: Callable[..., Any] = run_goalfile
) -> list[dict[str, object]]:
    done = run("lint", "--json", "goals/d.md", cwd=path.parent.parent)
    found = json.loads(done.stdout)["files"][0]["findings"]
    return [f for f in found if f["code"] == code]


CASES = {
    "strikethrough": ("| C1 | ok | test -f ok ~~\\|\\| : #~~ | exit 0 |", "", "<s>|| : #</s>"),
    "single tilde": ("| C1 | ok | test -f ok ~\\|\\| : #~ | exit 0 |", "", "<s>|| : #</s>"),
    "definition in the ledger": (
        "| C1 | ok | test -f ok [][ \\|\\| : ] | exit 0 |",
        "\n[ || : ]: #\n",
        '<a href="#"></a>',
    ),
    "definition in a quote in the ledger": (
        "| C1 | ok | test -f ok [][ \\|\\| : ] | exit 0 |",
        "\n> [ || : ]: #\n",
        '<a href="#"></a>',
    ),
}


END_TO_END = ("strikethrough", "definition in the ledger")
"""The cases whose commands run as real processes."""


@pytest.mark.parametrize("case", CASES)
def test_a_cell_github_shows_otherwise_is_refused_until_fixed(tmp_path: Path, case: str) -> None:
    row, ledger, markup = CASES[case]
    run = run_goalfile if case in END_TO_END else goalfile_here
    path = goal(tmp_path, row, ledger=ledger)
    assert markup in shown(path)
    before = path.read_bytes()

    found = findings(path, "rendered-differs", run)
    assert [(f["severity"], f["line"]) for f in found] == [("error", 19)], found
    assert str(found[0]["hint"]).startswith("`goalfile lint --fix goals/d.md`")
    for command in ("activate", "verify"):
        done = run(command, "goals/d.md", cwd=tmp_path)
        assert done.returncode == 3, done.stdout + done.stderr
        assert "goals/d.md:19:" in done.stderr and "shows on GitHub" in done.stderr
    audit = run("audit", "--json", "goals/d.md", cwd=tmp_path)
    assert audit.returncode == 1, audit.stdout + audit.stderr
    assert '"rendered-differs"' in audit.stdout
    assert path.read_bytes() == before

    # the printed fix shows the whole command in a code span, which runs as it shows
    fixed = run("lint", "--fix", "goals/d.md", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "<s>" not in shown(path) and "<a " not in shown(path)
    command = re.sub(r"<[^>]+>", "", shown(path)).replace("&amp;", "&")
    assert run("activate", "goals/d.md", cwd=tmp_path).returncode == 0
    verify = run("verify", "goals/d.md", cwd=tmp_path)
    assert f"C1 started: {command}" in verify.stderr + verify.stdout, verify.stderr


def test_a_definition_after_the_ledger_applies_as_in_every_view(tmp_path: Path) -> None:
    """The definition under ## Lessons makes `[][ || : ]` an empty link in every view, and so
    for goalfile: it runs `test -f ok`, which fails, where it ran `test -f ok [][ || : ]`."""
    path = goal(
        tmp_path, "| C1 | ok | test -f ok [][ \\|\\| : ] | exit 0 |", lessons="\n[ || : ]: #\n"
    )
    assert shown(path) == 'test -f ok <a href="#"></a>'
    assert findings(path, "rendered-differs") == []
    assert run_goalfile("activate", "goals/d.md", cwd=tmp_path).returncode == 0
    verify = run_goalfile("verify", "goals/d.md", cwd=tmp_path)
    assert verify.returncode == 1, verify.stdout + verify.stderr
    assert verify.stdout.rstrip().endswith("C1 unmet; status: active")
    assert "C1 started: test -f ok\n" in verify.stderr + verify.stdout


@pytest.mark.parametrize(
    "row",
    [
        "| C1 | ok | `git diff --quiet HEAD~1 HEAD~2` | exit 0 |",
        '| C1 | ok | `test -f ok ~~x~~` | `exit 0; stdout lacks "[x]"` |',
        "| C1 | ok | ls ~/a ~/b | exit 0 |",
        "| C1 | ok | `[ -f ok ]` | exit 0 |",
        '| C1 | ok | [ -f ok ] | exit 0; stdout lacks "[x]" |',
    ],
)
def test_cells_that_show_as_they_run_are_not_flagged(tmp_path: Path, row: str) -> None:
    """Tildes and brackets in a code span, tildes that open no strikethrough, and brackets no
    definition anywhere makes a link; goalfile-written ledger lines hold `]:` too."""
    ledger = "\n```text\n    x[0]: 1\n```\n| [x]: y |\n"
    path = goal(tmp_path, row, ledger=ledger)
    assert findings(path, "rendered-differs") == []
    assert run_goalfile("activate", "goals/d.md", cwd=tmp_path).returncode == 0


def github_cell(path: Path) -> str:
    """C1's check cell as GitHub's own parser (cmark-gfm, the `cmarkgfm` package) shows it."""
    import html

    import cmarkgfm

    out = cmarkgfm.github_flavored_markdown_to_html(path.read_text("utf-8").split("---", 2)[2])
    found = re.search(r"<td>C1</td>\s*<td>[^<]*</td>\s*<td>(.*?)</td>", out, re.S)
    assert found is not None, out
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))


LINKED = {
    "escape": (
        "./smoke.sh http://localhost:8080/health\\;echo",
        "./smoke.sh http://localhost:8080/health;echo",
    ),
    "entity": ("make check www.example.com&#124;&#124;true", "make check www.example.com||true"),
    "emphasis": ("curl -sf https://ci.example/*ok*", "curl -sf https://ci.example/ok"),
}


@pytest.mark.parametrize("case", LINKED)
def test_an_address_github_links_shows_as_typed_and_is_refused(tmp_path: Path, case: str) -> None:
    """GitHub links a web address (GFM's autolinks) and shows its text as typed: a reader sees
    `health\\;echo`, one escaped argument, and goalfile ran `health;echo`."""
    cell, runs = LINKED[case]
    path = goal(tmp_path, f"| C1 | ok | {cell} | exit 0 |")
    assert github_cell(path) == cell
    before = path.read_bytes()
    found = findings(path, "rendered-differs")
    assert [(f["severity"], f["line"]) for f in found] == [("error", 19)], found
    assert f"but goalfile runs `{runs}`" in str(found[0]["message"]), found
    for command in ("activate", "verify"):
        done = run_goalfile(command, "goals/d.md", cwd=tmp_path)
        assert done.returncode == 3, done.stdout + done.stderr
    assert path.read_bytes() == before
    audit = run_goalfile("audit", "--json", "goals/d.md", cwd=tmp_path)
    assert audit.returncode == 1 and '"rendered-differs"' in audit.stdout, audit.stdout

    fixed = run_goalfile("lint", "--fix", "goals/d.md", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert github_cell(path) == runs  # a code span: GitHub shows what goalfile runs
    assert run_goalfile("activate", "goals/d.md", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(
    "cell",
    [
        "curl -sf http://localhost:8080/health",
        "`curl -sf http://localhost:8080/health\\;echo`",
        "curl -sf https://ci.example/a_(b) && echo done.",
        "see [the docs](http://example.com/\\;x)",
    ],
)
def test_addresses_that_show_as_they_run_are_not_flagged(tmp_path: Path, cell: str) -> None:
    path = goal(tmp_path, f"| C1 | ok | {cell} | exit 0 |")
    assert findings(path, "rendered-differs") == []


def github_html(path: Path) -> str:
    """The body as GitHub's own parser renders it, footnotes on (as on GitHub)."""
    import cmarkgfm
    from cmarkgfm.cmark import Options

    body = path.read_text("utf-8").split("---", 2)[2]
    return cmarkgfm.github_flavored_markdown_to_html(body, options=Options.CMARK_OPT_FOOTNOTES)


DRAWN = {
    # GitHub shows `test -f ok¹` (a footnote's number); goalfile ran `... [^||:>]`: `|| :>]`
    "footnote reference": (
        "| C1 | ok | test -f ok [^\\|\\|:>] | exit 0 |",
        "\n[^||:>]: ok is written by make.\n",
        'test -f ok <sup class="footnote-ref">',
    ),
    # inline math, which GitHub draws with MathJax: `\phantom{...}` draws nothing, and
    # cmark-gfm leaves the span as text for it; goalfile ran `...; : }$` (exit 0)
    "math in a check": (
        "| C1 | ok | test -f ok $\\phantom{x; : }$ | exit 0 |",
        "",
        "<td>test -f ok $\\phantom{x; : }$</td>",
    ),
    # `${}$` draws nothing: a reader reads `lacks "FAILED"`, goalfile's TEXT never occurs
    "math in an expected": (
        '| C1 | ok | `test -f ok` | exit 0; stdout lacks "FAILED${}$" |',
        "",
        "<td>exit 0; stdout lacks &quot;FAILED${}$&quot;</td>",
    ),
}


@pytest.mark.parametrize("case", DRAWN)
def test_math_and_footnotes_github_draws_are_refused_until_fixed(tmp_path: Path, case: str) -> None:
    row, lessons, markup = DRAWN[case]
    path = goal(tmp_path, row, lessons=lessons)
    assert markup in github_html(path)
    before = path.read_bytes()
    found = findings(path, "rendered-differs")
    assert [(f["severity"], f["line"]) for f in found] == [("error", 19)], found
    assert "drawn as math" in str(found[0]["message"]) or "footnote's number" in str(
        found[0]["message"]
    )
    for command in ("activate", "verify"):
        done = run_goalfile(command, "goals/d.md", cwd=tmp_path)
        assert done.returncode == 3, done.stdout + done.stderr
    assert path.read_bytes() == before
    audit = run_goalfile("audit", "--json", "goals/d.md", cwd=tmp_path)
    assert audit.returncode == 1 and '"rendered-differs"' in audit.stdout, audit.stdout

    fixed = run_goalfile("lint", "--fix", "goals/d.md", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    out = github_html(path)
    assert "footnote-ref" not in out and "<code>" in out  # the cell is code: shown as it runs
    assert run_goalfile("activate", "goals/d.md", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(
    "row",
    [
        "| C1 | ok | test -n $HOME | exit 0 |",
        "| C1 | ok | test $A = $B | exit 0 |",
        '| C1 | ok | `test "$A" = "$B"` | exit 0; stdout matches /ok$/ |',
        "| C1 | ok | test -f ok [^x] | exit 0 |",  # no footnote [^x] defined: shown as typed
        "| C1 | ok | `test -f ok [^1]` | exit 0 |",
    ],
)
def test_dollars_and_brackets_that_show_as_they_run_are_not_flagged(
    tmp_path: Path, row: str
) -> None:
    path = goal(tmp_path, row, lessons="\n[^1]: a note.\n")
    assert findings(path, "rendered-differs") == []
