"""prettier (from npm, pinned) on goal files goalfile wrote: a draft from `goalfile init`, an
active goal, one after several verify runs, a `met` one, a blocked-and-resumed one and the
shipped examples. With its defaults prettier pads the tables, adds blank lines and respaces the
frontmatter's comments, and goalfile reads every goal the same: lint, status, the ledger's runs,
verify's verdicts, and an audit against the unformatted commit. With `proseWrap: always` (or
`never`) it joins the lines of each paragraph, an entry's `status:` and `contract:` among them:
lint names that (`entry-rewrapped`) with a fix, and verify refuses, so no `met` or verdict
changes silently."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import git, run_goalfile
from tests.formatted_goals import PRETTIER, goal_repo, npm_tool, readings, run_tool

pytestmark = pytest.mark.xdist_group("prettier")


def prettier(binary: Path, repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_tool([str(binary), *args], repo)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, dict]]:
    binary = npm_tool(PRETTIER)
    repo = goal_repo(tmp_path_factory.mktemp("prettier") / "repo")
    yield binary, repo, readings(repo)


def test_prettier_with_its_defaults_changes_nothing_goalfile_reads(
    setup: tuple[Path, Path, dict],
) -> None:
    binary, repo, before = setup
    done = prettier(binary, repo, "--write", "goals")
    assert done.returncode == 0, done.stdout + done.stderr
    try:
        changed = git(repo, "diff", "--name-only").split()
        assert len(changed) == 8, changed  # it really reformatted every goal file
        diff = git(repo, "diff")
        assert "\n+| id  | criterion " in diff  # a padded table
        assert "+status: draft # draft |" in diff  # a frontmatter comment respaced
        # code spans rewritten with the fewest backticks that work, the same code shown
        assert "| ``` run ``y`` now ``` |" in git(repo, "show", "HEAD:goals/ticks.md")
        assert "| `run ``y`` now` |" in (repo / "goals" / "ticks.md").read_text(encoding="utf-8")
        assert readings(repo) == before
        # what a span shows is still compared: another word in it is a rewritten entry
        ticks = repo / "goals" / "ticks.md"
        shown = ticks.read_text(encoding="utf-8")
        ticks.write_text(shown.replace("`run ``y`` now`", "`run ``z`` now`"), encoding="utf-8")
        audit = run_goalfile("audit", "--against", "HEAD", "goals/ticks.md", cwd=repo)
        assert audit.returncode == 1 and "entry-rewritten" in audit.stdout, audit.stdout
        ticks.write_text(shown, encoding="utf-8")
        # goalfile's next entry, written into the formatted file, is in prettier's style too:
        # prettier then respaces only the comment after the status goalfile set (goalfile
        # keeps the comment where it was)
        (repo / "a.txt").write_text("", encoding="utf-8")
        assert run_goalfile("verify", "goals/active.md", cwd=repo).returncode == 0
        written = (repo / "goals" / "active.md").read_text(encoding="utf-8").split("\n")
        again = prettier(binary, repo, "--write", "goals/active.md")
        assert again.returncode == 0, again.stdout + again.stderr
        formatted = (repo / "goals" / "active.md").read_text(encoding="utf-8").split("\n")
        assert len(formatted) == len(written)
        changed = [(a, b) for a, b in zip(written, formatted, strict=True) if a != b]
        assert changed == [
            (
                "status: met    # draft | active | paused | met | blocked | exhausted",
                "status: met # draft | active | paused | met | blocked | exhausted",
            )
        ]
    finally:
        git(repo, "checkout", "-q", "--", "goals")
        (repo / "a.txt").unlink(missing_ok=True)


def test_prettier_that_rewraps_paragraphs_is_named_by_lint_and_refused_by_verify(
    setup: tuple[Path, Path, dict],
) -> None:
    """`proseWrap: never` joins the same lines (and `always` also wraps the long ones)."""
    binary, repo, before = setup
    wrap = "always"
    done = prettier(binary, repo, "--prose-wrap", wrap, "--write", "goals")
    assert done.returncode == 0, done.stdout + done.stderr
    try:
        text = (repo / "goals" / "several.md").read_text(encoding="utf-8")
        assert "\nstatus: active contract: " in text, text  # two lines made one
        lint = run_goalfile("lint", "--json", cwd=repo)
        assert lint.returncode == 3, lint.stdout
        files = {f["path"]: f for f in json.loads(lint.stdout)["files"]}
        for path in ("active", "several", "done", "linked", "hello", "unmet"):
            codes = [f["code"] for f in files[f"goals/{path}.md"]["findings"]]
            assert "entry-rewrapped" in codes, (path, files[f"goals/{path}.md"])
        (finding,) = [
            f for f in files["goals/several.md"]["findings"] if f["code"] == "entry-rewrapped"
        ]
        lines = text.split("\n")
        assert lines[finding["line"] - 1].startswith("status: active contract: "), finding
        assert "`git checkout -- goals/several.md` undoes an unstaged one" in finding["hint"]
        # no verdict is taken from the rewrapped files: verify refuses each, the met one too
        for path in ("several", "done"):
            refused = run_goalfile("verify", "--no-write", f"goals/{path}.md", cwd=repo)
            assert refused.returncode == 3, refused.stdout + refused.stderr
        # the fix, as printed: undo the change; then an override keeps goal files as they are
        git(repo, "checkout", "--", "goals/several.md")
        assert run_goalfile("lint", "goals/several.md", cwd=repo).returncode == 0
        git(repo, "checkout", "-q", "--", "goals")
        (repo / ".prettierrc").write_text(
            json.dumps(
                {
                    "proseWrap": wrap,
                    "overrides": [{"files": "goals/**/*.md", "options": {"proseWrap": "preserve"}}],
                }
            ),
            encoding="utf-8",
        )
        again = prettier(binary, repo, "--write", "goals")
        assert again.returncode == 0, again.stdout + again.stderr
        assert git(repo, "diff", "--name-only").split(), "prettier formatted nothing"
        assert readings(repo) == before
    finally:
        (repo / ".prettierrc").unlink(missing_ok=True)
        git(repo, "checkout", "-q", "--", "goals")
