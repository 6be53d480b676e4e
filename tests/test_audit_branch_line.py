"""`audit --against BASE` of a goal new since BASE, against histories that hide the person's
commit of it from a first-parent walk with `git log --follow`: a goal deleted and replaced by a
`git mv` of the agent's own goal, a branch that ends in a merge whose first parent is the base
(a fast-forward of its old tip, no force-push), and a second goal made from the same template
(which `--follow` took for a copy of the first). Real git repositories, real `goalfile`
processes: the person's steps and the agent's are the commands and edits each would run.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import copy_of, git, made_once, make_git_repo, run_goalfile

PATH = "goals/auth.md"
BASE = "refs/heads/main"
LESSONS = "".join(f"- lesson {i}: the build cache is warm after step {i * 7}\n" for i in range(120))
"""What makes a goal file unlike the person's, so that git pairs no rename or copy with it."""


def goalfile(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_goalfile(*args, cwd=repo, timeout=120)


def ok(repo: Path, *args: str) -> str:
    done = goalfile(repo, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def audit(repo: Path) -> tuple[int, list[dict[str, object]]]:
    done = goalfile(repo, "audit", "--against", BASE, "--json")
    assert done.returncode in (0, 1), done.stdout + done.stderr
    files = json.loads(done.stdout)["files"]
    assert isinstance(files, list)
    return done.returncode, files


def codes(item: dict[str, object]) -> list[str]:
    findings = item["findings"]
    assert isinstance(findings, list)
    return [f["code"] for f in findings]


def _start(root: Path, env: dict[str, str]) -> None:
    git(root, "symbolic-ref", "HEAD", "refs/heads/main")
    (root / "README").write_text("readme\n", encoding="utf-8")
    commit(root, "init")
    git(root, "checkout", "-q", "-b", "feature")
    ok(root, "new", "auth", "the auth suite passes", "--check", "test -f auth-works",
       "--expected", "exit 0", "--non-goal", "tests/ stays unchanged", "--activate",
       "--commit")  # fmt: skip


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _start)


@pytest.fixture
def repo(tmp_path: Path, made: Path) -> Path:
    """README's start on a branch: `main` has no goal; on `feature` the person approves the
    goal (check `test -f auth-works`, which fails) and commits it before the agent starts (a
    copy of the repository made once for the module)."""
    return copy_of(made, tmp_path / "repo")


def agents_goal(tmp_path: Path) -> str:
    """The agent's own goal of the same slug, approved by itself (check `true`), made unlike
    the person's file: its text."""
    scratch = make_git_repo(tmp_path / "scratch")
    ok(scratch, "new", "auth", "the auth suite passes", "--check", "true", "--expected",
       "exit 0", "--non-goal", "tests/ stays unchanged", "--activate")  # fmt: skip
    return (scratch / PATH).read_text(encoding="utf-8") + LESSONS


def test_a_goal_deleted_and_replaced_by_a_renamed_goal_is_held_to_the_persons(
    repo: Path, tmp_path: Path
) -> None:
    """The agent deletes the goal while it adds its own goal under another name, then `git mv`s
    that onto the goal's path: `git log --follow` went from the rename to the agent's file and
    never read the person's commit, and the audit was clean with the goal met under `true`."""
    person = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    git(repo, "rm", "-q", PATH)
    (repo / "goals").mkdir(exist_ok=True)
    (repo / "goals" / "decoy.md").write_text(agents_goal(tmp_path), encoding="utf-8")
    commit(repo, "wip: split the goal")
    git(repo, "mv", "goals/decoy.md", PATH)
    commit(repo, "goals: one file")
    ok(repo, "verify", PATH)
    commit(repo, "verify: met")
    rc, files = audit(repo)
    (item,) = [f for f in files if f["path"] == PATH]
    assert rc == 1, item
    assert item["since"] == person, item
    assert "contract-change-unapproved" in codes(item), item
    assert {"entry-rewritten", "entry-deleted"} & set(codes(item)), item


def test_a_goal_moved_away_and_back_is_clean(repo: Path) -> None:
    """The honest counterpart: the goal renamed and renamed back, its ledger only growing."""
    person = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    git(repo, "mv", PATH, "goals/login.md")
    commit(repo, "rename")
    goalfile(repo, "verify", "goals/login.md")  # unmet: an entry appended
    commit(repo, "try")
    git(repo, "mv", "goals/login.md", PATH)
    commit(repo, "rename back")
    (repo / "auth-works").write_text("", encoding="utf-8")
    ok(repo, "verify", PATH)
    commit(repo, "done")
    rc, files = audit(repo)
    (item,) = files
    assert rc == 0, item
    assert item["since"] == person, item


def side_line(repo: Path, tmp_path: Path) -> str:
    """A line from `main` holding the agent's own goal at the goal's path, verified met: its
    tip."""
    git(repo, "checkout", "-q", "-b", "side", "main")
    (repo / "goals").mkdir(exist_ok=True)
    (repo / PATH).write_text(agents_goal(tmp_path), encoding="utf-8")
    commit(repo, "goal")
    ok(repo, "verify", PATH)
    return commit(repo, "verify: met")


def fast_forward(repo: Path, *parents: str, tree: str) -> str:
    """The branch `feature` moved, without a force-push, to a new merge commit of ``parents``
    holding ``tree``; checked out."""
    args = [arg for parent in parents for arg in ("-p", parent)]
    tip = git(repo, "commit-tree", *args, "-m", "merge", tree).strip()
    git(repo, "checkout", "-q", "feature")
    git(repo, "merge", "-q", "--ff-only", tip)
    return tip


def ci_merge(repo: Path) -> None:
    """What CI checks out for the pull request: GitHub's merge of it into `main`."""
    merged = git(repo, "commit-tree", "-p", "main", "-p", "HEAD", "-m", "ci", "HEAD^{tree}")
    git(repo, "checkout", "-q", "--detach", merged.strip())


def test_a_merge_tip_whose_first_parent_is_main_is_walked_through(
    repo: Path, tmp_path: Path
) -> None:
    """The agent's branch ends in a merge whose first parent is `main` and whose second is its
    old tip, with its side line's goal: CI unwrapped one merge (its own) and read the branch
    from that merge, never the old tip's commits."""
    person = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    old = git(repo, "rev-parse", "HEAD").strip()
    side = side_line(repo, tmp_path)
    fast_forward(repo, "main", old, tree=f"{side}^{{tree}}")
    for where in ("branch", "ci"):
        if where == "ci":
            ci_merge(repo)
        rc, files = audit(repo)
        (item,) = files
        assert rc == 1, (where, item)
        assert item["since"] == person, (where, item)
        assert "contract-change-unapproved" in codes(item), (where, item)


def test_an_octopus_tip_over_main_is_refused(repo: Path, tmp_path: Path) -> None:
    """Three parents, `main` first: which line is the branch's cannot be told, so audit says
    so (exit 2) instead of walking the agent's side line alone, as it did (clean)."""
    old = git(repo, "rev-parse", "HEAD").strip()
    side = side_line(repo, tmp_path)
    fast_forward(repo, "main", side, old, tree=f"{side}^{{tree}}")
    done = goalfile(repo, "audit", "--against", BASE)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "lines of history" in done.stderr, done.stderr


def test_a_goal_dropped_by_a_merge_tip_over_main_is_deleted(repo: Path) -> None:
    """The branch ends in a merge of `main` (first parent) and its old tip, with `main`'s
    tree: the person's goal is gone, and no first-parent commit deleted it."""
    person = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    old = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "main")
    fast_forward(repo, "main", old, tree="main^{tree}")
    for where in ("branch", "ci"):
        if where == "ci":
            ci_merge(repo)
        rc, files = audit(repo)
        assert rc == 1, (where, files)
        (item,) = files
        assert item["path"] == PATH and codes(item) == ["goal-deleted"], (where, item)
        assert person in item["findings"][0]["message"], item  # type: ignore[index]


def test_a_goal_the_base_deleted_and_the_branch_never_changed_is_not_deleted(
    tmp_path: Path,
) -> None:
    """A goal on `main` when the branch started, retired on `main` since: CI's merge drops it
    against the branch, which never changed it; that is the base's doing, not a finding."""
    root = make_git_repo(tmp_path / "repo")
    git(root, "symbolic-ref", "HEAD", "refs/heads/main")
    ok(root, "new", "old", "it is done", "--check", "true", "--expected", "exit 0",
       "--non-goal", "n", "--activate", "--commit")  # fmt: skip
    git(root, "checkout", "-q", "-b", "feature")
    (root / "work.txt").write_text("work\n", encoding="utf-8")
    commit(root, "work")
    git(root, "checkout", "-q", "main")
    git(root, "rm", "-q", "goals/old.md")
    (root / "goals").mkdir(exist_ok=True)
    (root / "goals" / "keep.md").write_text(agents_goal(tmp_path), encoding="utf-8")
    commit(root, "retire old")
    git(root, "checkout", "-q", "--detach", "main")
    git(root, "merge", "-q", "--no-ff", "--no-edit", "feature")  # what CI checks out
    assert not (root / "goals" / "old.md").exists()
    done = goalfile(root, "audit", "--against", BASE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_second_goal_made_from_the_same_template_is_not_held_to_the_first(
    repo: Path,
) -> None:
    """`git log --follow` took a goal added after another one made by `goalfile new` for a
    copy of it (git's copy detection), and audit held the honest second goal to the first's
    approval: entry-rewritten and contract-change-unapproved on an honest pull request."""
    ok(repo, "new", "docs", "the docs build", "--check", "true", "--expected", "exit 0",
       "--non-goal", "n", "--activate", "--commit")  # fmt: skip
    ok(repo, "verify", "goals/docs.md")
    docs = commit(repo, "docs: met")
    rc, files = audit(repo)
    (item,) = [f for f in files if f["path"] == "goals/docs.md"]
    assert rc == 0, item
    assert item["since"] == git(repo, "rev-parse", "--short=12", f"{docs}^").strip(), item


def test_a_goal_moved_to_another_goal_folder_and_reapproved_is_held_to_the_persons(
    repo: Path,
) -> None:
    """`git mv goals/auth.md .zetetic/goals/auth.md` with the check weakened, the ledger emptied
    and a fresh `activate` of the agent's, in one commit: the rename crosses goal folders, and
    the walk follows it back to the person's commit."""
    person = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    moved = repo / ".zetetic" / "goals" / "auth.md"
    moved.parent.mkdir(parents=True)
    git(repo, "mv", PATH, ".zetetic/goals/auth.md")
    text = moved.read_text(encoding="utf-8").replace("`test -f auth-works`", "`true`")
    text = text.replace("status: active", "status: draft", 1)
    text = re.sub(r"contract: sha256:[0-9a-f]+\n", "", text)
    text = re.sub(r"(## Iterations\n).*?(\n## Lessons)", r"\1\2", text, flags=re.S)
    moved.write_text(text, encoding="utf-8")
    ok(repo, "activate", ".zetetic/goals/auth.md")
    commit(repo, "goals: under .zetetic")
    rc, files = audit(repo)
    (item,) = files
    assert rc == 1, item
    assert item["path"] == ".zetetic/goals/auth.md" and item["since"] == person, item
    assert "contract-change-unapproved" in codes(item), item


def test_the_old_tip_merged_with_ours_into_the_agents_own_line_is_read(
    repo: Path, tmp_path: Path
) -> None:
    """The agent's line from `main` holds its own goal; it merges its old tip into it with
    `git merge -s ours` and fast-forwards the branch there: the first-parent walk read only
    its own line, and the person's commit, a second parent's, never."""
    person = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    old = git(repo, "rev-parse", "HEAD").strip()
    side_line(repo, tmp_path)
    git(repo, "merge", "-q", "-s", "ours", "--no-edit", old)
    git(repo, "checkout", "-q", "feature")
    git(repo, "merge", "-q", "--ff-only", "side")
    for where in ("branch", "ci"):
        if where == "ci":
            ci_merge(repo)
        rc, files = audit(repo)
        (item,) = files
        assert rc == 1, (where, item)
        found = [f for f in item["findings"] if f["code"] == "contract-change-unapproved"]  # type: ignore[union-attr]
        assert found and person in found[0]["message"], (where, item)


def test_a_goal_merged_in_from_the_persons_own_branch_is_clean(tmp_path: Path) -> None:
    """The honest counterpart: the person approves the goal on a branch of their own, which the
    agent's branch merges in (its own line first); the agent then meets it."""
    root = make_git_repo(tmp_path / "repo")
    git(root, "symbolic-ref", "HEAD", "refs/heads/main")
    (root / "README").write_text("readme\n", encoding="utf-8")
    commit(root, "init")
    git(root, "checkout", "-q", "-b", "goal")
    ok(root, "new", "auth", "the auth suite passes", "--check", "test -f auth-works",
       "--expected", "exit 0", "--non-goal", "n", "--activate", "--commit")  # fmt: skip
    person = git(root, "rev-parse", "--short=12", "HEAD").strip()
    git(root, "checkout", "-q", "-b", "feature", "main")
    (root / "work.txt").write_text("work\n", encoding="utf-8")
    commit(root, "work")
    git(root, "merge", "-q", "--no-ff", "--no-edit", "goal")
    (root / "auth-works").write_text("", encoding="utf-8")
    ok(root, "verify", PATH)
    commit(root, "met")
    rc, files = audit(root)
    (item,) = files
    assert rc == 0, item
    assert person  # the merge takes it whole: held to the merge's version, the same text


def test_a_persons_approval_of_a_committed_draft_on_another_line_is_held_to(
    tmp_path: Path,
) -> None:
    """The agent commits its draft; the person tightens the row (`output empty`) and approves
    it, a change of the path, not its first version. The agent's own line from `main` holds the
    draft with its own approval (the looser row), its old tip merged with `-s ours`: the audit
    held the goal to the draft alone, which that approval matches, and was clean."""
    root = make_git_repo(tmp_path / "repo")
    git(root, "symbolic-ref", "HEAD", "refs/heads/main")
    (root / "README").write_text("readme\n", encoding="utf-8")
    commit(root, "init")
    git(root, "checkout", "-q", "-b", "feature")
    ok(root, "new", "auth", "ok exists", "--check", "echo hi; test -f ok", "--expected",
       "exit 0", "--non-goal", "n")  # fmt: skip
    draft = commit(root, "draft goal")
    goal = root / PATH
    goal.write_text(goal.read_text("utf-8").replace("| exit 0 |", "| exit 0; output empty |"))
    ok(root, "activate", "--commit", PATH)
    person = git(root, "rev-parse", "--short=12", "HEAD").strip()
    old = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-q", "-b", "side", "main")
    git(root, "checkout", "-q", draft, "--", PATH)
    commit(root, "draft goal")
    ok(root, "activate", PATH)
    (root / "ok").write_text("", encoding="utf-8")
    ok(root, "verify", PATH)
    (root / "ok").unlink()
    commit(root, "approve, met")
    git(root, "merge", "-q", "-s", "ours", "--no-edit", old)
    git(root, "checkout", "-q", "feature")
    git(root, "merge", "-q", "--ff-only", "side")
    rc, files = audit(root)
    (item,) = files
    assert rc == 1, item
    found = [f for f in item["findings"] if f["code"] == "contract-change-unapproved"]  # type: ignore[union-attr]
    assert found and person in found[0]["message"], item
    assert "output empty" in found[0]["message"], item


def test_a_draft_merged_in_from_a_side_line_does_not_become_the_first_version(
    repo: Path,
) -> None:
    """A draft of the agent's with the weak check, on a line from `main` merged in with
    `-s ours`, was read as the goal's first version, ahead of the person's commit: the agent's
    own re-approval of that weak check then changed nothing since that version, and the audit
    listed no contract change. The person's commit stays the first version."""
    person = git(repo, "rev-parse", "--short=12", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "side", "main")
    ok(repo, "new", "auth", "the auth suite passes", "--check", "true", "--expected",
       "exit 0", "--non-goal", "tests/ stays unchanged")  # fmt: skip
    commit(repo, "draft")
    git(repo, "checkout", "-q", "feature")
    git(repo, "merge", "-q", "-s", "ours", "--no-edit", "side")
    goal = repo / PATH
    text = goal.read_text(encoding="utf-8")
    text = text.replace("`test -f auth-works` | exit 0", "`true` | exit 0")
    goal.write_text(text, encoding="utf-8")
    ok(repo, "activate", "--reapprove", PATH, "--reason", "simpler")
    commit(repo, "re-approve")
    _, files = audit(repo)
    (item,) = files
    assert item["since"] == person, item
    (change,) = item["contract_changes"]  # type: ignore[misc]
    assert change["new"] == "true" and change["recorded_by"], item
