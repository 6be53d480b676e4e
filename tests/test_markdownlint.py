"""`markdownlint-cli2 --fix` (from npm, pinned, every rule on as it ships) on goal files goalfile
wrote: it adds blank lines around headings, lists and tables, respaces table delimiter rows,
drops a doubled blank line, and wraps each bare URL or e-mail address in `<...>` (MD034), in the
reasons and notes of the ledger too. A URL and its autolink show the same text, so goalfile reads
every goal the same afterwards, and `audit --against` the unformatted commit finds no rewritten
entry; an edit of what an entry shows is still found."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import git, run_goalfile
from tests.formatted_goals import MARKDOWNLINT, goal_repo, npm_tool, readings, run_tool

pytestmark = pytest.mark.xdist_group("markdownlint")


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, dict]]:
    binary = npm_tool(MARKDOWNLINT)
    repo = goal_repo(tmp_path_factory.mktemp("markdownlint") / "repo")
    yield binary, repo, readings(repo)


def fix(binary: Path, repo: Path) -> None:
    done = run_tool([str(binary), "--fix", "goals/*.md"], repo)
    # exit 1: what it cannot fix (long lines, headings repeated by design) is still reported
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert "MD013/line-length" in done.stdout + done.stderr, done.stdout + done.stderr


def test_markdownlint_fix_changes_nothing_goalfile_reads(setup: tuple[Path, Path, dict]) -> None:
    binary, repo, before = setup
    fix(binary, repo)
    try:
        assert len(git(repo, "diff", "--name-only").split()) == 8
        text = (repo / "goals" / "linked.md").read_text(encoding="utf-8")
        assert "blocker: waiting on <https://example.com/issues/7> and" in text, text
        assert "resolved: see <https://example.org/y>" in text, text
        assert "asked at mailto:<team@example.com>" in text, text
        assert readings(repo) == before
    finally:
        git(repo, "checkout", "-q", "--", "goals")


def test_an_edit_of_what_a_wrapped_url_shows_is_still_found(
    setup: tuple[Path, Path, dict],
) -> None:
    binary, repo, _ = setup
    fix(binary, repo)
    path = repo / "goals" / "linked.md"
    old = "<https://example.org/y>"
    try:
        text = path.read_text(encoding="utf-8")
        assert old in text
        for new in (
            "<https://example.org/z>",  # another link
            "\\<https://example.org/y>",  # the brackets shown
            "`<https://example.org/y>`",  # code
        ):
            path.write_text(text.replace(old, new), encoding="utf-8")
            audit = run_goalfile("audit", "--against", "HEAD", "goals/linked.md", cwd=repo)
            assert audit.returncode == 1, (new, audit.stdout)
            assert "entry-rewritten: Iteration 0 (" in audit.stdout, (new, audit.stdout)
            assert "by resume: the entry differs from HEAD" in audit.stdout, (new, audit.stdout)
    finally:
        git(repo, "checkout", "-q", "--", "goals")
