"""pre-commit-hooks' standard text hooks (`trailing-whitespace`, `end-of-file-fixer`,
`mixed-line-ending`, from PyPI, pinned) run by the real pre-commit on goal files, as a project's
`.pre-commit-config.yaml` runs them at each commit (pre-commit builds their environment itself,
with its own cache, as tests/test_precommit.py does).

On what goalfile writes they change nothing. On a goal a person edited (trailing blanks after a
ledger note, after an entry's `status:` line and after a line of quoted output; no newline at
the end; a few lines saved with CRLF in an LF file) they strip, add and convert, and goalfile
reads the goal the same: lint, status, the verify runs, and `audit --against` the commit before
the hooks ran; the next `verify` appends after it and audits clean too."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pre_commit  # noqa: F401  # the real tool: a missing test dependency fails loudly
import pytest

from tests.conftest import clean_env, git, make_git_repo, run_goalfile

HOOKS_VERSION = "6.0.0"
HOOKS = ("trailing-whitespace", "end-of-file-fixer", "mixed-line-ending")
ENTRIES = {
    "trailing-whitespace": "trailing-whitespace-fixer",
    "end-of-file-fixer": "end-of-file-fixer",
    "mixed-line-ending": "mixed-line-ending",
}

pytestmark = pytest.mark.xdist_group("precommit-hooks")


def config() -> str:
    lines = ["repos:", "-   repo: local", "    hooks:"]
    for hook in HOOKS:
        lines += [
            f"    -   id: {hook}",
            f"        name: {hook}",
            f"        entry: {ENTRIES[hook]}",
            "        language: python",
            "        types: [text]",
            f"        additional_dependencies: [pre-commit-hooks=={HOOKS_VERSION}]",
        ]
    return "\n".join(lines) + "\n"


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """pre-commit's cache for this module: the hooks' environment is built once."""
    yield tmp_path_factory.mktemp("pre-commit-home")


def run_hooks(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=clean_env({"PRE_COMMIT_HOME": str(home)}),
        timeout=900,  # the first run builds the environment (pip, from the registry)
        check=False,
    )


def results(line: str, output: str) -> str:
    (found,) = [text for text in output.splitlines() if text.startswith(line + ".")]
    return found.rsplit(".", 1)[-1]


def readings(repo: Path, goal: str) -> dict[str, object]:
    lint = run_goalfile("lint", goal, cwd=repo)
    status = run_goalfile("status", "--json", goal, cwd=repo)
    log = run_goalfile("log", "--json", goal, cwd=repo)
    return {
        "lint": (lint.returncode, lint.stdout + lint.stderr),
        "status": json.loads(status.stdout),
        "log": json.loads(log.stdout),
    }


def project(root: Path) -> Path:
    """A goal verified twice (met the second time) and one active, as goalfile wrote them."""
    repo = make_git_repo(root)
    (repo / ".pre-commit-config.yaml").write_text(config(), encoding="utf-8")
    for slug, name in (("done", "d.txt"), ("open", "o.txt")):
        made = run_goalfile(
            "new", slug, f"{name} exists",
            "--check", f"printf 'line with blanks   \\n'; test -f {name}",
            "--expected", "exit 0",
            "--activate", cwd=repo,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
    assert run_goalfile("verify", "goals/done.md", cwd=repo).returncode == 1
    (repo / "d.txt").write_text("", encoding="utf-8")
    assert run_goalfile("verify", "goals/done.md", cwd=repo).returncode == 0
    assert run_goalfile("verify", "goals/open.md", cwd=repo).returncode == 1
    commit(repo, "goals as goalfile wrote them")
    return repo


def test_the_hooks_change_nothing_goalfile_wrote(tmp_path: Path, home: Path) -> None:
    repo = project(tmp_path / "repo")
    done = run_hooks(repo, home)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    for hook in HOOKS:
        assert results(hook, output) == "Passed", output
    assert git(repo, "status", "--porcelain") == ""


def test_a_hand_edited_ledger_fixed_by_the_hooks_reads_and_audits_the_same(
    tmp_path: Path, home: Path
) -> None:
    repo = project(tmp_path / "repo")
    goal = repo / "goals" / "open.md"
    lines = goal.read_text(encoding="utf-8").split("\n")
    edited = []
    for line in lines:
        if line.startswith(("working directory:", "status: ", "contract: ")):
            line += "   "  # blanks after a note, a status line, a contract line
        elif line.startswith("    line with blanks"):
            line += " \t "  # and after a line of quoted output
        edited.append(line)
    text = "\n".join(edited).rstrip("\n")  # and no newline at the end
    # a few lines saved by another editor with CRLF
    text = text.replace("## Non-goals\n", "## Non-goals\r\n").replace("## Plan\n", "## Plan\r\n")
    goal.write_bytes(text.encode("utf-8"))
    assert b"\r\n" in goal.read_bytes() and not goal.read_bytes().endswith(b"\n")
    commit(repo, "a hand-edited goal")
    before = readings(repo, "goals/open.md")
    assert before["lint"][0] == 0, before  # goalfile reads the edited file already
    audit = run_goalfile("audit", "--against", "HEAD~1", "goals/open.md", cwd=repo)
    assert audit.returncode == 0, audit.stdout  # the blanks change no entry's meaning

    done = run_hooks(repo, home)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    for hook in HOOKS:
        assert results(hook, output) == "Failed", output  # each one changed the file
    fixed = goal.read_bytes()
    assert fixed.endswith(b"\n") and b"\r" not in fixed and b" \n" not in fixed, fixed

    assert readings(repo, "goals/open.md") == before
    for ref in ("HEAD", "HEAD~1"):
        audit = run_goalfile("audit", "--against", ref, "goals/open.md", cwd=repo)
        assert audit.returncode == 0, (ref, audit.stdout)
    summary = run_goalfile("verify", "--no-write", "goals/open.md", cwd=repo)
    assert summary.stdout.rstrip().endswith("C1 unmet; status: active"), summary.stdout
    commit(repo, "the hooks' fixes")

    # the next run appends after what the hooks left, and the hooks find nothing to change
    (repo / "o.txt").write_text("", encoding="utf-8")
    verified = run_goalfile("verify", "goals/open.md", cwd=repo)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    again = run_hooks(repo, home)
    assert again.returncode == 0, again.stdout + again.stderr
    commit(repo, "open is met")
    for ref in ("HEAD~1", "HEAD~2", "HEAD~3"):
        audit = run_goalfile("audit", "--against", ref, "goals/open.md", cwd=repo)
        assert audit.returncode == 0, (ref, audit.stdout)
    status = run_goalfile("status", "goals/open.md", cwd=repo)
    assert status.stdout.startswith("open: met"), status.stdout
