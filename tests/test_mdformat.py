"""A Markdown formatter never changes what a goal means: every goal file in tests/data and
examples/, run through the real mdformat (with mdformat-gfm and mdformat-frontmatter, as a
pre-commit hook runs it), gives the same lint findings, the same verify verdicts and the same
audit against the unformatted commit. A change to one rendered cell of an old entry is still
found."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import mdformat  # noqa: F401  the formatter itself: a missing test dependency fails loudly
import mdformat_frontmatter  # noqa: F401
import mdformat_gfm  # noqa: F401
import pytest

from tests.conftest import DATA, REPO, git, run_goalfile

GOAL_FILES = sorted(
    [
        *(p.relative_to(REPO).as_posix() for p in (DATA / "parse").glob("*.md")),
        *(p.relative_to(REPO).as_posix() for p in (DATA / "ledger").glob("*.md")),
        *(p.relative_to(REPO).as_posix() for p in (REPO / "examples").glob("*.md")),
    ]
)


def mdformat_files(repo: Path, *paths: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mdformat", *paths],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def no_places(text: str) -> str:
    """Messages without line and column numbers: formatting adds blank lines."""
    text = re.sub(r"(?m)^(\S+?\.md):\d+(?::\d+)?:", r"\1:", text)
    return re.sub(r"\((?:line \d+|lines? [\d, ]+)\)", "", re.sub(r"\bline \d+\b", "line", text))


def results(repo: Path, path: str) -> dict[str, object]:
    lint = run_goalfile("lint", path, cwd=repo)
    verify = run_goalfile("verify", "--no-write", path, cwd=repo, timeout=120)
    audit = run_goalfile("audit", "--against", "HEAD", path, cwd=repo)
    summary = verify.stdout.rstrip("\n").rsplit("\n", 1)[-1] if verify.stdout else ""
    return {
        "lint": (lint.returncode, no_places(lint.stdout + lint.stderr)),
        "verify": (verify.returncode, summary if summary.startswith("verify-goal") else ""),
        "audit": (audit.returncode, no_places(audit.stdout)),
    }


@pytest.fixture(scope="module")
def formatted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """A repository holding the goal files and what their checks read, committed; the results
    before formatting; then every goal file formatted in place."""
    repo = tmp_path_factory.mktemp("mdformat") / "repo"
    repo.mkdir()
    for folder in ("skills", "templates", "docs"):
        shutil.copytree(REPO / folder, repo / folder)
    shutil.copy(REPO / "README.md", repo / "README.md")
    for path in GOAL_FILES:
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / path, repo / path)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "unformatted")
    before = {path: results(repo, path) for path in GOAL_FILES}
    mdformat_files(repo, *GOAL_FILES)
    return repo, before


@pytest.mark.parametrize("path", GOAL_FILES)
def test_mdformat_changes_no_lint_verdict_or_audit_finding(
    formatted: tuple[Path, dict[str, object]], path: str
) -> None:
    repo, before = formatted
    assert results(repo, path) == before[path]


def test_mdformat_really_reformatted_the_files(formatted: tuple[Path, dict[str, object]]) -> None:
    repo, _ = formatted
    changed = git(repo, "diff", "--name-only").split()
    assert "examples/hello.md" in changed and "tests/data/parse/hostile.md" in changed
    text = (repo / "tests/data/parse/hostile.md").read_text()
    # the output excerpt became a fenced block whose lines start at the margin: still data
    assert "\n### Iteration 9 (2026-01-01) by verify-goal\n" in text
    assert "\n- `config/*.yaml` | stays unchanged\n" in text  # the `\|` escape was dropped


def test_changing_one_rendered_cell_of_an_old_entry_is_still_found(
    formatted: tuple[Path, dict[str, object]],
) -> None:
    repo, _ = formatted
    path = "examples/hello.md"
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qam", "formatted")
    clean = run_goalfile("audit", "--against", "HEAD~1", path, cwd=repo)
    assert clean.returncode == 0, clean.stdout
    text = (repo / path).read_text()
    row = re.search(r"(?m)^\| C3 +\| deterministic .*$", text)
    assert row is not None
    (repo / path).write_text(text.replace(row[0], row[0].replace("prints 1", "prints 2")))
    try:
        found = run_goalfile("audit", "--against", "HEAD~1", path, cwd=repo)
        assert found.returncode == 1
        assert "entry-rewritten: Iteration 1 (2026-11-30) by activate" in found.stdout
    finally:
        git(repo, "checkout", "-q", "--", path)


def test_a_fenced_output_line_is_never_an_entry(
    formatted: tuple[Path, dict[str, object]],
) -> None:
    """mdformat writes an indented excerpt as a fence; the heading, row and status a check
    printed are still output, not ledger."""
    repo, _ = formatted
    out = run_goalfile("status", "--json", "tests/data/parse/hostile.md", cwd=repo)
    assert '"iteration": 3' in out.stdout and '"iteration": 9' not in out.stdout
    lint = run_goalfile("lint", "tests/data/parse/hostile.md", cwd=repo)
    assert "entry heading" not in lint.stderr


def test_a_pin_made_from_the_source_text_keeps_verifying(tmp_path: Path) -> None:
    """A goal activated before cells were read as Markdown shows them: its pin was computed
    from `\\.` and `\\|` as typed. It still verifies; lint says what the cells mean now, and
    `lint --fix` refuses to move the cell until a person re-approves."""
    repo = tmp_path / "repo"
    (repo / "goals").mkdir(parents=True)
    shutil.copyfile(DATA / "legacy" / "escaped-pin.md", repo / "goals" / "escaped.md")
    git(repo, "init", "-q")
    done = run_goalfile("verify", "--no-write", "goals/escaped.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("C1 met; status: met")
    lint = run_goalfile("lint", "goals/escaped.md", cwd=repo)
    assert "means `exit 0; stdout matches /^a.b$/` as Markdown shows it" in lint.stderr
    before = (repo / "goals" / "escaped.md").read_text()
    fixed = run_goalfile("lint", "--fix", "goals/escaped.md", cwd=repo)
    assert "the `contract:` pin was made from the cells' source text" in fixed.stderr
    assert (repo / "goals" / "escaped.md").read_text() == before
    again = run_goalfile("activate", "--reapprove", "goals/escaped.md", "--reason", "x", cwd=repo)
    assert again.returncode == 0, again.stderr
    assert run_goalfile("lint", "--fix", "goals/escaped.md", cwd=repo).returncode == 0
    after = (repo / "goals" / "escaped.md").read_text()
    assert "| `exit 0; stdout matches /^a.b$/` |" in after
    assert run_goalfile("verify", "goals/escaped.md", cwd=repo).returncode == 0


def test_an_approval_formatted_by_mdformat_is_still_read(tmp_path: Path) -> None:
    """An approval entry whose table mdformat padded (`| id  | kind ...`, `| --- |`) and whose
    non-goals list it set off with a blank line still records the approved rows: a re-approval
    shows what changed, and a loosening of a formatted approval is still refused."""
    repo = tmp_path / "repo"
    (repo / "goals").mkdir(parents=True)
    git(repo, "init", "-q")
    shutil.copyfile(REPO / "examples" / "hello.md", repo / "goals" / "g.md")
    text = (repo / "goals" / "g.md").read_text(encoding="utf-8")
    text = re.sub(r"(?s)\n## Iterations\n.*?(\n## |\Z)", r"\n## Iterations\n\1", text)
    text = re.sub(r"(?m)^status: \w+", "status: draft", text, count=1)
    text = re.sub(r"(?m)^contract: .*\n", "", text, count=1)
    (repo / "goals" / "g.md").write_text(text, encoding="utf-8")
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    mdformat_files(repo, "goals/g.md")
    formatted = (repo / "goals" / "g.md").read_text(encoding="utf-8")
    assert "\n| --- |" in formatted and "\nnon-goals:\n\n- " in formatted
    row = re.search(r"(?m)^\| C1 .*$", formatted)
    assert row is not None
    tightened = row[0].replace("exit 0", 'exit 0; stdout lacks "zzz"', 1)
    assert tightened != row[0]
    (repo / "goals" / "g.md").write_text(formatted.replace(row[0], tightened), encoding="utf-8")
    done = run_goalfile("activate", "--reapprove", "goals/g.md", "--reason", "r", cwd=repo)
    assert done.returncode == 0, done.stderr
    after = (repo / "goals" / "g.md").read_text(encoding="utf-8")
    assert "were not recorded in the ledger" not in after
    assert "clause added" in after
