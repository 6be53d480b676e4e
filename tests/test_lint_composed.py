"""Composed look-alikes: text that Unicode's canonical composition writes otherwise (a letter
and a combining mark that show as one accented letter, a character with a one-character
mapping such as the Greek question mark), fullwidth punctuation in a command, and any of these
or an invisible character in the frontmatter `cwd`. Each shows as what was approved and runs as
something else; lint, activate and verify refuse each (goalfile.unseen)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from goalfile import unseen
from tests.conftest import git, last_line, make_git_repo, run_goalfile
from tests.test_lint_unseen import GOAL, HEAD, draft, refused_everywhere

DECOMPOSED = "donne\u0301es"  # shows as données, is not the folder named with U+00E9


def test_a_guard_naming_a_decomposed_folder_is_refused_where_it_would_never_fail(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "goals").mkdir()
    real = repo / "fixtures" / "donn\u00e9es"
    real.mkdir(parents=True)
    (real / "data.txt").write_text("kept\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    (real / "data.txt").write_text("changed by the agent\n", encoding="utf-8")
    guard = f"git diff --exit-code HEAD -- fixtures/{DECOMPOSED}/"
    # the hole: the guard as typed passes over the edited real folder
    assert subprocess.run(guard, shell=True, cwd=repo).returncode == 0
    path = draft(repo, f"| C1 | fixtures kept | `{guard}` | exit 0 | |\n")
    report = refused_everywhere(
        repo,
        path,
        "goals/g.md:16:",
        "C1: the check `git diff --exit-code HEAD -- fixtures/donn",
        "e followed by U+0301 COMBINING ACUTE ACCENT, which shows as \u00e9 (U+00E9)",
        "To mend it: write e + U+0301 as the one character \u00e9 (U+00E9) it shows",
    )
    assert "Traceback" not in report
    # the fix as the hint says: the one character; the guard now fails on the edit
    path.write_text(
        path.read_text(encoding="utf-8")
        .replace(DECOMPOSED, "donn\u00e9es")
        .replace("status: active", "status: draft"),
        encoding="utf-8",
    )
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert last_line(done.stdout) == "verify-goal g iteration 0: C1 unmet; status: active"


def test_a_decomposed_text_and_a_canonical_look_alike_in_expected_are_refused(
    repo: Path,
) -> None:
    path = draft(
        repo,
        f'| C1 | c | `cat log` | exit 0; stdout lacks "erreur {DECOMPOSED}" | |\n'
        "| C2 | c | `echo a\u037e echo b` | exit 0 | |\n"
        "| C3 | c | `echo \u212aelvin` | exit 0 | |\n",
    )
    refused_everywhere(
        repo,
        path,
        "C1: the expected",
        "C2: the check",
        "U+037E GREEK QUESTION MARK, which shows as ; (U+003B)",
        "C3: the check",
        "U+212A KELVIN SIGN, which shows as K (U+004B)",
    )


def test_fullwidth_punctuation_posing_as_an_operator_in_a_check_is_refused(repo: Path) -> None:
    # shows as `echo building ; pytest -q`: two commands; runs one, `echo`, which always passes
    path = draft(
        repo,
        "| C1 | c | `echo building \uff1b pytest -q` | exit 0 | |\n"
        "| C2 | c | `test -f ok \uff5c\uff5c exit 1` | exit 0 | |\n",
    )
    refused_everywhere(
        repo,
        path,
        "C1: the check `echo building \uff1b pytest -q`",
        "U+FF1B FULLWIDTH SEMICOLON, which shows as ; (U+003B)",
        "C2: the check",
        "U+FF5C FULLWIDTH VERTICAL LINE, which shows as | (U+007C)",
    )


FRONTMATTER_CWD = {
    "../tests\u200b": "U+200B ZERO WIDTH SPACE",
    "../t\u0435sts": "U+0435 CYRILLIC SMALL LETTER IE",
    "../te\u00a0sts": "U+00A0 NO-BREAK SPACE",
    f"../{DECOMPOSED}": "U+0301 COMBINING ACUTE ACCENT",
    "..\uff0ftests": "U+FF0F FULLWIDTH SOLIDUS",
    "../t\u0585sts": "U+0585 ARMENIAN SMALL LETTER OH",  # reads as ../tosts
    "../\ua4e2rc": "U+A4E2 LISU LETTER SA",  # reads as ../Src
}


def test_a_cwd_that_is_not_what_it_shows_is_a_frontmatter_error(repo: Path) -> None:
    for value, char in FRONTMATTER_CWD.items():
        (repo / value.replace("../", "")).mkdir(exist_ok=True)
        text = HEAD.replace("tokens_used: 0\n", f"tokens_used: 0\ncwd: {value}\n", 1)
        path = repo / GOAL
        path.write_text(text + "| C1 | c | `true` | exit 0 | |\n\n## Iterations\n", "utf-8")
        linted = run_goalfile("lint", GOAL, cwd=repo)
        report = linted.stdout + linted.stderr
        assert linted.returncode == 3, (value, report)
        assert "goals/g.md:10:" in report and "is not what it shows: it holds" in report, report
        assert char in report, (value, report)
        before = path.read_bytes()
        assert run_goalfile("activate", GOAL, cwd=repo).returncode == 3
        assert path.read_bytes() == before
        path.write_text(path.read_text(encoding="utf-8").replace("draft", "active", 1), "utf-8")
        before = path.read_bytes()
        done = run_goalfile("verify", GOAL, cwd=repo)
        assert done.returncode == 3, (value, done.stdout + done.stderr)
        assert "Traceback" not in done.stderr
        assert path.read_bytes() == before


def test_plain_accented_and_cjk_folders_stay_allowed(repo: Path) -> None:
    (repo / "donn\u00e9es").mkdir()
    text = HEAD.replace("tokens_used: 0\n", "tokens_used: 0\ncwd: ../donn\u00e9es\n", 1)
    (repo / GOAL).write_text(text + "| C1 | c | `pwd` | exit 0 | |\n\n## Iterations\n", "utf-8")
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_the_finder_names_what_each_composed_look_alike_shows() -> None:
    assert unseen.find("caf\u00e9 na\u00efve") == []
    (found,) = unseen.find(DECOMPOSED)
    assert (found.text, found.composed, found.offset) == ("e\u0301", "\u00e9", 4)
    assert unseen.find("a \uff5c b") == []  # punctuation only where asked for: a command
    assert [u.composed for u in unseen.find("a \uff5c b", punctuation=True)] == ["|"]
    assert unseen.find("\u5b8c\u4e86\uff1a", punctuation=True) == []
