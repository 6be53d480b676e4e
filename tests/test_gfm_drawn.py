"""A criteria cell that GitHub draws otherwise than the text goalfile reads is refused (the
error ``rendered-differs``, with `lint --fix` writing it as one code span): an emoji shortcode
(``lacks ":x:"`` drawn as ``lacks "❌"`` by GitHub's emoji filter, while goalfile judged the
literal ``:x:``, which no runner prints), a run of blanks (a browser draws ``lacks "1  failed"``
as ``lacks "1 failed"``) and a star beside a symbol that CommonMark 0.29, which GitHub's
cmark-gfm follows, reads as emphasis and goalfile's markdown-it does not (``lacks
"FAILED*✗*"`` drawn as ``lacks "FAILED✗"``). Each verified `met` on a run that printed what
the reader saw excluded. Real goalfile processes, real git, GitHub's parser (cmarkgfm) as the
witness of what reaches the browser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import git, make_git_repo, run_goalfile

RUNNER = 'echo "test_login ✅"\necho "test_refresh ❌ FAILED✗"\necho "1 passed, 1 failed"\n'

CASES = {
    # GitHub's emoji filter draws the text node `:x:` as ❌ (it leaves code alone)
    "emoji shortcode": ('exit 0; stdout lacks ":x:"', "lacks &quot;:x:&quot;", "emoji picture"),
    # two blanks in a text node: a browser draws one (a code span keeps both)
    "run of blanks": ('exit 0; stdout lacks "1  failed"', "lacks &quot;1  failed&quot;", "blanks"),
    "emphasis beside a symbol": (
        'exit 0; stdout lacks "FAILED*✗*"',
        "lacks &quot;FAILED<em>✗</em>&quot;",
        "CommonMark 0.29",
    ),
}


def github_expected(path: Path) -> str:
    """C1's expected cell as GitHub's own parser (cmark-gfm) renders it, as HTML."""
    import cmarkgfm

    out = cmarkgfm.github_flavored_markdown_to_html(path.read_text("utf-8").split("---", 2)[2])
    found = re.search(r"<td>C1</td>(?:\s*<td>.*?</td>){2}\s*<td>(.*?)</td>", out, re.S)
    assert found is not None, out
    return found.group(1)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "repo")
    (root / "run_tests.sh").write_text(RUNNER, encoding="utf-8")
    git(root, "add", "run_tests.sh")
    git(root, "commit", "-qm", "tests")
    return root


def draft(repo: Path, expected: str) -> Path:
    """A draft whose C1 expected is written bare, by hand, as ``expected``."""
    done = run_goalfile(
        "new", "auth", "suite passes", "--check", "sh run_tests.sh", "--expected", "exit 0",
        "--non-goal", "tests stay", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    path = repo / "goals" / "auth.md"
    path.write_text(path.read_text("utf-8").replace("| exit 0 |", f"| {expected} |"), "utf-8")
    return path


@pytest.mark.parametrize("case", CASES)
def test_a_cell_github_draws_otherwise_is_refused_until_fixed(repo: Path, case: str) -> None:
    """Before, lint said ok, activate approved the row and verify wrote `met`."""
    expected, markup, said = CASES[case]
    path = draft(repo, expected)
    assert markup in github_expected(path)  # a text node, not code: what the browser draws
    done = run_goalfile("lint", "--json", "goals/auth.md", cwd=repo)
    found = [f for f in json.loads(done.stdout)["files"][0]["findings"]
             if f["code"] == "rendered-differs"]  # fmt: skip
    assert [(f["severity"], f["line"]) for f in found] == [("error", 19)], done.stdout
    assert said in str(found[0]["message"]), found
    before = path.read_bytes()
    for command in ("activate", "verify"):
        refused = run_goalfile(command, "goals/auth.md", cwd=repo)
        assert refused.returncode == 3, refused.stdout + refused.stderr
        assert "goals/auth.md:19:" in refused.stderr and "shows on GitHub" in refused.stderr
    assert path.read_bytes() == before
    audit = run_goalfile("audit", "--json", "goals/auth.md", cwd=repo)
    assert audit.returncode == 1 and '"rendered-differs"' in audit.stdout, audit.stdout

    fixed = run_goalfile("lint", "--fix", "goals/auth.md", cwd=repo)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert github_expected(path).startswith("<code>")  # every view shows what goalfile judges
    assert run_goalfile("activate", "goals/auth.md", cwd=repo).returncode == 0


@pytest.mark.parametrize("case", ["emoji shortcode", "run of blanks"])
def test_new_writes_such_an_expected_as_a_code_span(repo: Path, case: str) -> None:
    """`goalfile new` wrote these bare, so the goal it activated read otherwise on GitHub."""
    expected = CASES[case][0]
    done = run_goalfile(
        "new", "auth", "suite passes", "--check", "sh run_tests.sh", "--expected", expected,
        "--non-goal", "tests stay", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"| `{expected}` |" in (repo / "goals" / "auth.md").read_text("utf-8")
    assert github_expected(repo / "goals" / "auth.md").startswith("<code>")


@pytest.mark.parametrize(
    "expected",
    [
        'exit 0;  stdout lacks "failed"',  # blanks between clauses: the same clauses
        'exit 0; stdout contains "12:30:45"',  # a time is no shortcode
        'exit 0; stderr lacks "ERROR:root:"',  # logging's format: GitHub has no picture `:root:`
        'exit 0; stdout lacks ":angry_face:"',  # Unicode's English name: not in GitHub's list
        'exit 0; stdout lacks ":thumbs_up_light_skin_tone:"',  # GitHub draws no such name
        'exit 0; stdout lacks "*✗*"',  # emphasis for both readers
        'exit 0; stdout lacks "✗ failed"',
        "exit 0; output empty",
    ],
)
def test_cells_drawn_as_they_read_are_not_flagged(repo: Path, expected: str) -> None:
    draft(repo, expected)
    done = run_goalfile("lint", "--json", "goals/auth.md", cwd=repo)
    codes = [f["code"] for f in json.loads(done.stdout)["files"][0]["findings"]]
    assert "rendered-differs" not in codes, done.stdout
    assert run_goalfile("activate", "goals/auth.md", cwd=repo).returncode == 0


@pytest.mark.parametrize(
    ("expected", "drawn"),
    [
        ('exit 0; stderr lacks "ERROR:root:x:"', ":x:"),  # the name `:root:` overlaps
        ('exit 0; stdout lacks ":shipit:"', ":shipit:"),  # a picture of GitHub's own
        ('exit 0; stdout lacks ":thumbsup:"', ":thumbsup:"),
    ],
)
def test_only_the_names_github_draws_are_flagged(repo: Path, expected: str, drawn: str) -> None:
    draft(repo, expected)
    done = run_goalfile("lint", "--json", "goals/auth.md", cwd=repo)
    found = [f for f in json.loads(done.stdout)["files"][0]["findings"]
             if f["code"] == "rendered-differs"]  # fmt: skip
    assert len(found) == 1 and f"`{drawn}` drawn as an emoji picture" in found[0]["message"], found
    assert "`:root:` drawn" not in found[0]["message"], found


def test_a_command_whose_blanks_change_no_word_is_not_flagged(repo: Path) -> None:
    path = draft(repo, "exit 0")
    text = path.read_text("utf-8").replace(
        "| `sh run_tests.sh` | exit 0 |", "| sh  run_tests.sh | exit 0 |"
    )
    path.write_text(text, "utf-8")
    done = run_goalfile("lint", "--json", "goals/auth.md", cwd=repo)
    codes = [f["code"] for f in json.loads(done.stdout)["files"][0]["findings"]]
    assert "rendered-differs" not in codes, done.stdout
    path.write_text(text.replace("| sh  run_tests.sh |", '| grep -c "1  failed" log |'), "utf-8")
    done = run_goalfile("lint", "--json", "goals/auth.md", cwd=repo)
    codes = [f["code"] for f in json.loads(done.stdout)["files"][0]["findings"]]
    assert "rendered-differs" in codes, done.stdout
