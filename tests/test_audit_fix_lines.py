"""Each `fix:` line audit prints is a command that works as written: the situation is brought
about in a real repository (the goal activated and verified on `main`, then changed on a
branch), the real `goalfile audit` prints its fix, and the printed command is run by a shell.
Where only a person can judge (an entry typed into the ledger), the command shows what to
judge, and the message says the rest."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import WITH_GOALFILE, copy_of, made_once
from test_audit import (
    PATH,
    _env,
    _guide_reviewed_by_r1,
    _main,
    audit,
    commit,
    do_the_work,
    edit,
    goalfile,
)

SPAN = re.compile(r"`([^`]+)`")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _main)


@pytest.fixture
def repo(tmp_path: Path, made: Path) -> Path:
    return copy_of(made, tmp_path / "repo")


def run(command: str, repo: Path) -> subprocess.CompletedProcess[str]:
    """A printed command, run as written by bash (the shell of every host's tool)."""
    return subprocess.run(
        ["bash", "-c", command], cwd=repo, env={**_env(), **WITH_GOALFILE}, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip


def finding(repo: Path, code: str, *args: str) -> dict[str, str]:
    rc, document = audit(repo, PATH, *args)
    assert rc == 1, document
    files = document["files"]
    assert isinstance(files, list)
    (found,) = [f for item in files for f in item["findings"] if f["code"] == code]
    return found


def test_a_review_quote_no_longer_in_its_artifact_is_reviewed_again_by_the_fix(
    repo: Path,
) -> None:
    """The fix was "restore the passage, or review it again ... and verify": prose around a
    command. It is now the reopen, the review and the verify, run as written (PASSAGE and
    TEXT filled in) to a clean audit."""
    guide = _guide_reviewed_by_r1(repo)
    quote = "The greeting is written to out.txt."
    reviewed = goalfile(
        repo, "review", PATH, "R1", "--artifact", "docs/guide.md", "--quote", quote,
        "--verdict", "met",
    )  # fmt: skip
    assert reviewed.returncode == 0, reviewed.stderr
    assert goalfile(repo, "verify", PATH).returncode == 0
    commit(repo, "guide")
    guide.write_text("# Guide\n\nThe greeting goes to out.txt, in the folder run from.\n")
    commit(repo, "guide rewritten")
    found = finding(repo, "review-quote-missing", "--against", "main")
    assert (
        "the passage is written back, or the artifact as it is reviewed again" in (found["message"])
    )
    commands = SPAN.findall(found["hint"])
    assert commands == [
        f"goalfile reopen {PATH} --reason TEXT",
        f"goalfile review {PATH} R1 --artifact docs/guide.md --verdict met --quote PASSAGE",
        f"goalfile verify {PATH}",
    ], found["hint"]
    filled = " && ".join(commands).replace("TEXT", "'the guide changed'")
    ran = run(filled.replace("PASSAGE", "'in the folder run from'"), repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    commit(repo, "reviewed again")
    assert audit(repo, PATH, "--against", "main")[0] == 0


def test_a_stall_limit_deleted_by_hand_is_written_back_by_the_fix(repo: Path) -> None:
    """`stall_limit: 5` approved on main and deleted on the branch (so the default, 3, holds):
    the fix said "add `stall_limit: 5` to the frontmatter again"; it is now the sed command
    that writes it under the frontmatter's first line."""
    edit(repo, "tokens_used: 0\n", "tokens_used: 0\nstall_limit: 5\n")
    commit(repo, "stall limit 5")
    git_branch = subprocess.run(
        ["git", "branch", "-f", "main", "HEAD"], cwd=repo, env=_env(), check=False
    )
    assert git_branch.returncode == 0
    edit(repo, "stall_limit: 5\n", "")
    commit(repo, "no stall limit")
    found = finding(repo, "stall-limit-lowered", "--against", "main")
    (command,) = SPAN.findall(found["hint"])
    assert command.startswith("[ ! -e goals/demo.md.goalfile-bak ] && sed"), command
    ran = run(command, repo)
    assert ran.returncode == 0, ran.stderr
    assert (repo / PATH).read_text().split("\n")[1] == "stall_limit: 5"
    codes = [f["code"] for i in audit(repo, PATH, "--against", "main")[1]["files"]  # type: ignore[union-attr]
             for f in i["findings"]]  # fmt: skip
    assert "stall-limit-lowered" not in codes, codes


def test_an_entry_typed_into_the_ledger_is_shown_by_the_fix(repo: Path) -> None:
    """An entry inserted among those on main, an entry dated before the one above it: only a
    person can say what goalfile wrote, so the fix is the git command that shows the edit
    (it said "move it to the end" and "restore the entry goalfile wrote")."""
    text = (repo / PATH).read_text()
    second = text.index("### Iteration ", text.index("### Iteration ") + 1)
    forged = "### Iteration 1 (2026-01-01) by verify-goal\n\nstatus: active\n\n"
    (repo / PATH).write_text(text[:second] + forged + text[second:])
    commit(repo, "an entry of my own")
    for code, args, shows in (
        ("entry-inserted", ("--against", "main"), "git diff main -- goals/demo.md"),
        ("date-backwards", (), "git log -p -- goals/demo.md"),
    ):
        found = finding(repo, code, *args)
        assert SPAN.findall(found["hint"]) == [shows], found
        assert "goalfile" in found["message"] and "wr" in found["message"], found
        ran = run(shows, repo)
        assert ran.returncode == 0, ran.stderr
        assert "+### Iteration 1 (2026-01-01) by verify-goal" in ran.stdout, ran.stdout
    do_the_work(repo)
