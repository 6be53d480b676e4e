"""`audit --against BASE` of a goal new since BASE: held to the version first committed on the
branch and to every later commit of it, not audited as it is.

README's start has the person create, activate and commit the goal on the branch the agent
then works on; the base has no such goal. Real git repositories, real `goalfile` processes:
the person's steps and the agent's are the commands and edits each would run.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import copy_of, git, made_once, run_goalfile

PATH = "goals/auth.md"
BASE = "refs/heads/main"


def goalfile(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_goalfile(*args, cwd=repo, timeout=120)


def ok(repo: Path, *args: str) -> str:
    done = goalfile(repo, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def audit(repo: Path, *paths: str) -> tuple[int, dict[str, object]]:
    done = goalfile(repo, "audit", *paths, "--against", BASE, "--json")
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def only_file(document: dict[str, object]) -> dict[str, object]:
    files = document["files"]
    assert isinstance(files, list) and len(files) == 1, files
    item = files[0]
    assert isinstance(item, dict)
    return item


def codes(item: dict[str, object]) -> list[str]:
    findings = item["findings"]
    assert isinstance(findings, list)
    return [f["code"] for f in findings]


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "--short=12", "HEAD").strip()


def _start(root: Path, env: dict[str, str]) -> None:
    git(root, "symbolic-ref", "HEAD", "refs/heads/main")
    (root / "README").write_text("readme\n", encoding="utf-8")
    commit(root, "init")
    git(root, "checkout", "-q", "-b", "feature")
    ok(
        root,
        "new",
        "auth",
        "the auth suite passes",
        "--check",
        "test -f auth-works",
        "--expected",
        "exit 0",
        "--non-goal",
        "tests/ stays unchanged",
        "--activate",
    )
    git(root, "commit", "-q", "-m", "goal: auth", PATH)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _start)


@pytest.fixture
def repo(tmp_path: Path, made: Path) -> Path:
    """README's start on a branch: `main` has no goal; on `feature` the person runs
    `goalfile new … --activate` and commits the goal before the agent starts (a copy of the
    repository made once for the module)."""
    return copy_of(made, tmp_path / "repo")


def strip_and_weaken(repo: Path) -> None:
    """The agent's edit (H5): a weaker check, the ledger emptied, back to an unpinned draft."""
    path = repo / PATH
    text = path.read_text(encoding="utf-8")
    text = text.replace("test -f auth-works", "test -f README \\|\\| true")
    text = re.sub(r"(## Iterations\n).*?(\n## Lessons)", r"\1\2", text, flags=re.S)
    text = text.replace("status: active", "status: draft", 1)
    text = re.sub(r"\ncontract: sha256:[0-9a-f]+", "", text, count=1)
    path.write_text(text, encoding="utf-8")


def approved_on_the_30th(repo: Path) -> None:
    """The person's approval entry dated another day than today's (when the agent acts)."""
    path = repo / PATH
    text = path.read_text(encoding="utf-8")
    day = r"### Iteration 0 \(\d{4}-\d\d-\d\d\) by activate"
    text = re.sub(day, "### Iteration 0 (2026-11-30) by activate", text)
    path.write_text(text, encoding="utf-8")


def replaced_by_the_agent(repo: Path) -> dict[str, object]:
    """H5's agent: a weaker check approved afresh on an emptied ledger, committed; the audit
    fails, and its file is returned."""
    strip_and_weaken(repo)
    ok(repo, "activate", PATH)
    commit(repo, "work")
    rc, document = audit(repo)
    item = only_file(document)
    assert rc == 1, item
    return item


# --- the agent rewrites what was committed on the branch ----------------------------------


def test_a_first_approval_replaced_on_the_branch_is_reported(repo: Path) -> None:
    """H5: the person's committed approval replaced by the agent's own `activate` of a weaker
    check. It was clean before (the goal was audited as it is); now the first committed
    version stands for the base."""
    first = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    strip_and_weaken(repo)
    ok(repo, "activate", PATH)
    ok(repo, "verify", PATH)
    commit(repo, "work")
    rc, document = audit(repo)
    item = only_file(document)
    assert rc == 1, item
    found = codes(item)
    assert "contract-change-unapproved" in found
    assert {"entry-rewritten", "entry-deleted"} & set(found)
    replaced = [f for f in item["findings"] if f["code"] in ("entry-rewritten", "entry-deleted")]  # type: ignore[union-attr]
    assert any("first approval is now another entry" in f["message"] for f in replaced)
    assert item["since"] == first
    changes = item["contract_changes"]
    assert isinstance(changes, list) and changes[0]["recorded_by"] is None
    # what the person approved and what the file claims now are both in the report
    text = goalfile(repo, "audit", "--against", BASE).stdout
    assert "test -f auth-works" in text and "approved: C1 `test -f README || true`" in text


def test_on_the_merge_commit_ci_checks_out_the_branch_is_walked(repo: Path) -> None:
    """CI for a pull request checks out a merge of the branch into the base (GitHub's
    refs/pull/N/merge): its first parent is the base, whose line holds no commit of the goal.
    The branch it merges is walked, so H5 is reported there too."""
    git(repo, "checkout", "-q", "main")
    (repo / "other.txt").write_text("main moved on\n", encoding="utf-8")
    commit(repo, "main moves on")
    git(repo, "checkout", "-q", "feature")
    item = replaced_by_the_agent(repo)
    git(repo, "checkout", "-q", "--detach", "main")
    git(repo, "merge", "-q", "--no-ff", "--no-edit", "feature")  # what CI checks out
    rc, document = audit(repo)
    merged = only_file(document)
    assert rc == 1, merged
    assert codes(merged) == codes(item) and merged["since"] == item["since"]


def test_an_entry_committed_once_and_deleted_later_is_reported(repo: Path) -> None:
    """The walk covers every commit of the goal, not only the first version: a verify entry
    committed after the first version and removed in a later commit is in neither the first
    version nor the working copy."""
    (repo / "auth-works").write_text("", encoding="utf-8")
    ok(repo, "verify", PATH)
    second = commit(repo, "verified")
    path = repo / PATH
    text = path.read_text(encoding="utf-8")
    heads = [m.start() for m in re.finditer(r"^### Iteration ", text, flags=re.M)]
    assert len(heads) == 2, text  # the approval, then the verify entry
    text = text[: heads[1]] + text[text.index("## Lessons") :]
    path.write_text(text.replace("status: met", "status: active", 1), encoding="utf-8")
    third = commit(repo, "tidy the ledger")
    rc, document = audit(repo)
    item = only_file(document)
    assert rc == 1, item
    deleted = [f for f in item["findings"] if f["code"] == "entry-deleted"]  # type: ignore[union-attr]
    assert deleted, item
    assert second in deleted[0]["message"] or second in deleted[0]["hint"], deleted
    assert f"in commit {third}" in deleted[0]["message"], deleted


def test_a_line_added_to_the_last_committed_entry_is_reported(repo: Path) -> None:
    """Text appended at the end of the ledger that is not a new entry extends the entry a
    commit before it ended with: that entry was rewritten, though every character before it
    is unchanged."""
    goalfile(repo, "verify", PATH)  # unmet: a verify entry, committed
    commit(repo, "try")
    path = repo / PATH
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("\n## Lessons", "\nC1 was met by hand.\n\n## Lessons"), encoding="utf-8"
    )
    third = commit(repo, "a note")
    rc, document = audit(repo)
    item = only_file(document)
    assert rc == 1, item
    (rewritten,) = [f for f in item["findings"] if f["code"] == "entry-rewritten"]  # type: ignore[union-attr]
    assert "by verify-goal" in rewritten["entry"] and "C1 was met by hand" in rewritten["message"]
    assert f"in commit {third}" in rewritten["message"]


def test_an_approval_replaced_on_another_day_is_named_as_replaced(repo: Path) -> None:
    """The person approved on an earlier day: the agent's new first approval has another
    heading, so the person's entry is deleted, not rewritten, and named as replaced."""
    approved_on_the_30th(repo)
    git(repo, "commit", "-q", "--amend", "-a", "-m", "goal: auth, approved on the 30th")
    item = replaced_by_the_agent(repo)
    (deleted,) = [f for f in item["findings"] if f["code"] == "entry-deleted"]  # type: ignore[union-attr]
    assert deleted["entry"] == "Iteration 0 (2026-11-30) by activate"
    assert "was replaced, not re-approved" in deleted["message"]
    # a first approval re-approves nothing: the weaker check is not credited to it
    (change,) = item["contract_changes"]  # type: ignore[misc]
    assert change["new"] == "test -f README || true" and change["recorded_by"] is None
    assert "contract-change-unapproved" in codes(item)


def test_a_goal_committed_on_the_branch_and_deleted_is_reported(repo: Path) -> None:
    """`git rm` of the person's goal, committed: the base never had it and the working tree
    has it no more; audit without PATH (as CI runs it) reports it, as it reports a goal the
    base has."""
    first = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    git(repo, "rm", "-q", PATH)
    commit(repo, "no goal")
    done = goalfile(repo, "audit", "--against", BASE, "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    item = only_file(json.loads(done.stdout))
    assert codes(item) == ["goal-deleted"] and item["path"] == PATH
    assert first in item["findings"][0]["message"]  # type: ignore[index]


def test_a_goal_deleted_on_the_branch_is_reported_from_a_sub_folder(repo: Path) -> None:
    """Run from a sub-folder with no goals of its own, audit without PATH reads the goals of
    the git top level (README): a goal committed after REF and deleted since is reported
    there too, as from the top."""
    git(repo, "rm", "-q", PATH)
    (repo / "sub").mkdir()
    (repo / "sub" / "keep").write_text("", encoding="utf-8")
    commit(repo, "no goal, a sub-folder")
    done = goalfile(repo / "sub", "audit", "--against", BASE, "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    item = only_file(json.loads(done.stdout))
    assert codes(item) == ["goal-deleted"] and item["path"] == f"../{PATH}", item


def test_on_the_base_a_new_first_approval_reapproves_nothing(repo: Path) -> None:
    """README's start as it says now: the goal committed on the base branch. The agent empties
    the ledger and approves its weaker check afresh (another day than the person): the person's
    entry is deleted, and the agent's first approval does not count as re-approving the
    change."""
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "feature", "--", PATH)
    approved_on_the_30th(repo)
    commit(repo, "goal: auth, on main")
    git(repo, "checkout", "-q", "-B", "agent")
    item = replaced_by_the_agent(repo)
    assert item["at_ref"] is True
    assert {"entry-deleted", "contract-change-unapproved"} <= set(codes(item)), item


# --- what a person and an honest agent do stays clean -------------------------------------


def test_verify_entries_appended_over_several_commits_are_clean(repo: Path) -> None:
    first = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    for _ in range(2):  # a third identical unmet run would block the goal (stall_limit)
        ok_or_unmet = goalfile(repo, "verify", PATH)
        assert ok_or_unmet.returncode == 1, ok_or_unmet.stderr  # unmet: nothing written yet
        commit(repo, "try")
    (repo / "auth-works").write_text("", encoding="utf-8")
    ok(repo, "verify", PATH)
    commit(repo, "done")
    rc, document = audit(repo)
    item = only_file(document)
    assert rc == 0, item
    assert item["since"] == first
    assert len(item["new_entries"]) == 3  # type: ignore[arg-type]
    notes = item["notes"]
    assert isinstance(notes, list)
    assert "3 later commits" in notes[0] and "approved: C1 `test -f auth-works`" in notes[0]


def test_a_persons_reapproval_on_the_branch_is_clean_and_listed(repo: Path) -> None:
    path = repo / PATH
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "`test -f auth-works` | exit 0", "`test -s auth-works` | exit 0"
        ),
        encoding="utf-8",
    )
    ok(repo, "activate", "--reapprove", PATH, "--reason", "the file must not be empty")
    commit(repo, "goal: auth, the check re-approved")
    (repo / "auth-works").write_text("yes\n", encoding="utf-8")
    ok(repo, "verify", PATH)
    commit(repo, "done")
    rc, document = audit(repo)
    item = only_file(document)
    assert rc == 0, item
    (change,) = item["contract_changes"]  # type: ignore[misc]
    assert change["recorded_by"] and change["reason"] == "the file must not be empty"


def test_a_merge_of_main_into_the_branch_is_clean(repo: Path) -> None:
    ok_or_unmet = goalfile(repo, "verify", PATH)
    assert ok_or_unmet.returncode == 1
    commit(repo, "try")
    git(repo, "checkout", "-q", "main")
    (repo / "other.txt").write_text("from main\n", encoding="utf-8")
    commit(repo, "main moves on")
    git(repo, "checkout", "-q", "feature")
    git(repo, "merge", "-q", "--no-edit", "main")
    (repo / "auth-works").write_text("", encoding="utf-8")
    ok(repo, "verify", PATH)
    commit(repo, "done")
    rc, document = audit(repo)
    assert rc == 0, only_file(document)


def test_a_goal_moved_with_git_mv_is_followed_and_clean(repo: Path) -> None:
    first = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    goalfile(repo, "verify", PATH)
    commit(repo, "try")
    git(repo, "mv", PATH, "goals/login.md")
    commit(repo, "rename the goal")
    (repo / "auth-works").write_text("", encoding="utf-8")
    ok(repo, "verify", "goals/login.md")
    commit(repo, "done")
    rc, document = audit(repo, "goals/login.md")
    item = only_file(document)
    assert rc == 0, item
    assert item["since"] == first  # the rename was followed back to the person's commit


def test_a_goal_never_committed_is_audited_as_it_is(repo: Path) -> None:
    ok(
        repo,
        "new",
        "docs",
        "the docs build",
        "--check",
        "test -f docs-built",
        "--expected",
        "exit 0",
        "--activate",
    )
    rc, document = audit(repo, "goals/docs.md")
    item = only_file(document)
    assert rc == 0, item
    assert item["since"] is None
    notes = item["notes"]
    assert isinstance(notes, list)
    assert "no earlier ledger" in notes[0] and "approved: C1 `test -f docs-built`" in notes[0]


# --- a shallow clone: the walk would start at the cut ---------------------------------------


def shallow_clone(origin: Path, where: Path, depth: int) -> Path:
    """The branch cloned `--depth DEPTH` and the base's tip fetched alone, as a CI job that
    saves time does; `refs/remotes/origin/main` is then known, so audit does not stop at it."""
    subprocess.run(
        ["git", "clone", "-q", f"--depth={depth}", "-b", "feature", origin.as_uri(), str(where)],
        check=True,
        capture_output=True,
    )
    git(where, "fetch", "-q", "--depth=1", "origin", "main:refs/remotes/origin/main")
    return where


def test_a_shallow_clone_that_cuts_the_branch_is_refused_with_a_fix_that_works(
    repo: Path, tmp_path: Path
) -> None:
    """rt10 H7: in a clone of depth 1 the agent's rewrite was the first version audit saw, so
    it was clean; audit now refuses (exit 2), and the fix it prints, run as written, gives the
    findings a full clone gives."""
    strip_and_weaken(repo)
    ok(repo, "activate", PATH)
    commit(repo, "work")
    clone = shallow_clone(repo, tmp_path / "shallow", 1)
    done = goalfile(clone, "audit", "--against", "refs/remotes/origin/main")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "this clone is shallow" in done.stderr, done.stderr
    fix = re.search(r"fix: `([^`]+)`", done.stderr)
    assert fix is not None, done.stderr
    subprocess.run(fix.group(1), shell=True, cwd=clone, check=True, capture_output=True)
    done = goalfile(clone, "audit", "--against", "refs/remotes/origin/main", "--json")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "entry-rewritten" in codes(only_file(json.loads(done.stdout)))


def test_a_shallow_clone_whose_cut_lies_before_the_base_is_audited(
    repo: Path, tmp_path: Path
) -> None:
    """Deep enough that every commit after the base is whole: audited as a full clone is."""
    git(repo, "checkout", "-q", "main")
    (repo / "base.txt").write_text("base\n", encoding="utf-8")
    commit(repo, "base moves on")
    git(repo, "checkout", "-q", "feature")
    git(repo, "rebase", "-q", "main")
    (repo / "notes.txt").write_text("work\n", encoding="utf-8")
    commit(repo, "work")  # feature: init, base moves on, goal: auth, work; depth 3 cuts at main
    clone = shallow_clone(repo, tmp_path / "deep", 3)
    assert git(clone, "rev-parse", "--is-shallow-repository").strip() == "true"
    done = goalfile(clone, "audit", "--against", "refs/remotes/origin/main")
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "goals/auth.md: clean" in done.stdout, done.stdout
