"""A goal is found and compared with git by its path, whatever symlink or HEAD move stands in
the way: a tracked link to a tracked goal (`goals/active.md -> real.md`) does not switch off
the hook's comparison of the goal behind it with HEAD; HEAD pointed at a branch that lacks the
goal (`git symbolic-ref HEAD refs/heads/main`) leaves the index's copy as the one to continue;
a goal folder or sub-folder moved and replaced by a symlink is compared by `audit --against`
with the goal the base holds at that path, is listed by `status`, and its real file is
compared with HEAD by the hook. Honest moves, links and branch switches stay clean. Real git
repositories and real goalfile processes; every `fix:` printed is run as written."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import git, make_git_repo, run_goalfile
from test_hook_discovery import fix_of, new_goal, outcome, sh, statuses, stop


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    """The agent's own goal with the person's slug (`real`), check `true`, honestly met, made
    in a repository of its own."""
    root = make_git_repo(tmp_path / "mine")
    new_goal(root, "real", "true")
    assert run_goalfile("verify", "goals/real.md", cwd=root).returncode == 0
    return root / "goals" / "real.md"


def committed_goal(root: Path, *, folder: str = "goals") -> Path:
    """The person's goal `real` (check `test -f done.txt`, unmet) committed on `main`."""
    make_git_repo(root)
    git(root, "commit", "-q", "--allow-empty", "-m", "init")
    git(root, "branch", "-M", "main")
    new_goal(root, "real", "test -f done.txt", "--dir", folder)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal: real")
    return root / folder / "real.md"


# --- H8: a tracked link to a tracked goal ------------------------------------------------------


def test_a_swap_behind_a_tracked_link_to_the_goal_holds_the_agent(
    tmp_path: Path, mine: Path
) -> None:
    """`goals/active.md -> real.md` committed (it sorts before its target, so discovery keeps
    the link's name): the agent's met goal copied over goals/real.md is held, as without the
    link, and the fix puts HEAD's goal back."""
    real = committed_goal(tmp_path / "project")
    root = real.parents[1]
    (root / "goals" / "active.md").symlink_to("real.md")
    git(root, "add", "goals/active.md")
    git(root, "commit", "-qm", "link to the goal")
    answer, _ = stop(root)
    assert statuses(answer) == ["active"], answer  # the honest link: the goal is verified
    shutil.copyfile(mine, real)
    answer, _ = stop(root)
    assert answer["decision"] == "block", answer
    held = outcome(answer, "replaced")
    assert held["path"] == "goals/real.md"
    assert "its ledger does not extend HEAD's" in str(held["reason"])
    assert fix_of(held["reason"]) == "git checkout HEAD -- goals/real.md"
    sh(fix_of(held["reason"]), root)
    assert real.read_text(encoding="utf-8") == git(root, "show", "HEAD:goals/real.md")
    assert statuses(stop(root)[0]) == ["active"]


# --- H10: HEAD moved to a branch without the goal -----------------------------------------------


def test_head_moved_to_a_branch_without_the_goal_leaves_the_index_as_reference(
    tmp_path: Path, mine: Path
) -> None:
    """The goal is committed on `feature`; `main` lacks it. `git symbolic-ref HEAD
    refs/heads/main` (nothing checked out) and the agent's goal copied over goals/real.md: the
    index still holds the person's goal, so the copy is held against it; the fix checks the
    index's copy out."""
    root = make_git_repo(tmp_path / "project")
    git(root, "commit", "-q", "--allow-empty", "-m", "init")
    git(root, "branch", "-M", "main")
    git(root, "checkout", "-q", "-b", "feature")
    new_goal(root, "real", "test -f done.txt")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "goal: real")
    real = root / "goals" / "real.md"
    kept = real.read_bytes()
    shutil.copyfile(mine, real)
    git(root, "symbolic-ref", "HEAD", "refs/heads/main")
    answer, _ = stop(root)
    assert answer["decision"] == "block", answer
    held = outcome(answer, "replaced")
    reason = str(held["reason"])
    assert "does not continue the goal the index holds there (HEAD holds none there)" in reason
    assert "its ledger does not extend the index's" in reason
    assert fix_of(reason) == "git checkout -- goals/real.md"
    sh(fix_of(reason), root)
    assert real.read_bytes() == kept
    assert statuses(stop(root)[0]) == ["active"]


def test_a_staged_new_goal_and_a_branch_switch_stay_clean(tmp_path: Path) -> None:
    """Honest flows: a goal activated (staged, never committed) keeps getting the hook's entries
    after a `git checkout` of another branch carries it along; no stop calls it replaced."""
    root = make_git_repo(tmp_path / "project")
    git(root, "commit", "-q", "--allow-empty", "-m", "init")
    git(root, "branch", "-M", "main")
    new_goal(root, "real", "test -f done.txt")
    assert git(root, "status", "--porcelain").strip() == "A  goals/real.md"
    assert statuses(stop(root)[0]) == ["active"]
    git(root, "checkout", "-q", "-b", "other")
    assert statuses(stop(root)[0]) == ["active"]
    (root / "done.txt").write_text("x\n", encoding="utf-8")
    assert statuses(stop(root)[0]) == ["met"]


# --- H13: a goal folder replaced by a symlink ------------------------------------------------


def rewrite_as_new(path: Path) -> None:
    """The approved check replaced by `true`, the ledger emptied, then a fresh first approval
    (`activate`) and a verify: the goal looks new, with no re-approval entry."""
    text = path.read_text(encoding="utf-8").replace("test -f done.txt", "true")
    text = re.sub(r"(## Iterations\n).*?(\n## Lessons)", r"\1\2", text, flags=re.S)
    text = text.replace("status: active", "status: draft", 1)
    text = re.sub(r"\ncontract: sha256:[0-9a-f]+", "", text, count=1)
    path.write_text(text, encoding="utf-8")
    folder = path.parents[1] if path.parent.name == "team" else path.parent.parent
    for command in ("activate", "verify"):
        done = run_goalfile(command, str(path), cwd=folder)
        assert done.returncode == 0, done.stdout + done.stderr


LINKED = {  # the folder the goal was in, where it is moved to, and the link left behind
    "goals": ("goals", "docs-goals", "docs-goals"),
    "goals/team": ("goals/team", "elsewhere/team", "../elsewhere/team"),
}


@pytest.mark.parametrize("folder", sorted(LINKED))
@pytest.mark.parametrize("rewritten", [True, False])
def test_a_goal_folder_replaced_by_a_symlink_is_compared_with_the_base(
    tmp_path: Path, folder: str, rewritten: bool
) -> None:
    """`git mv FOLDER ELSEWHERE && ln -s ELSEWHERE FOLDER` on a branch: `audit --against main`
    compares goals/…/real.md with the goal main holds at that path (a rewrite is
    entry-deleted and an unapproved contract change, never "new since"); `status --json` lists
    the goal through the link, so CI's re-run runs it. The honest move is clean."""
    old, new, link = LINKED[folder]
    root = committed_goal(tmp_path / "project", folder=folder).parents[len(folder.split("/"))]
    git(root, "checkout", "-q", "-b", "pr")
    (root / new).parent.mkdir(parents=True, exist_ok=True)
    git(root, "mv", old, new)
    (root / old).symlink_to(link)
    if rewritten:
        rewrite_as_new(root / new / "real.md")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "move the goals")
    audit = run_goalfile("audit", "--against", "refs/heads/main", "--json", cwd=root)
    files = json.loads(audit.stdout)["files"]
    shown = {f["path"]: f for f in files}
    assert f"{old}/real.md" in shown, files
    codes = {finding["code"] for finding in shown[f"{old}/real.md"]["findings"]}
    notes = " ".join(shown[f"{old}/real.md"].get("notes", []))
    assert "new since" not in notes, shown
    if rewritten:
        assert audit.returncode == 1, audit.stdout + audit.stderr
        assert "entry-deleted" in codes or "entry-rewritten" in codes, codes
        assert "contract-change-unapproved" in codes, codes
    else:
        assert audit.returncode == 0, audit.stdout + audit.stderr
    listed = json.loads(run_goalfile("status", "--json", cwd=root).stdout)["goals"]
    assert [goal["path"] for goal in listed] == [f"{old}/real.md"], listed


def test_a_swap_of_a_goal_under_a_linked_folder_holds_the_agent(tmp_path: Path, mine: Path) -> None:
    """After `goals/team -> ../elsewhere/team` is committed, git lists no goal under goals/ (only
    the link): the hook still finds goals/team/real.md and compares the file it names,
    elsewhere/team/real.md, with HEAD, so the agent's goal copied over it is held."""
    root = committed_goal(tmp_path / "project", folder="goals/team").parents[2]
    (root / "elsewhere").mkdir()
    git(root, "mv", "goals/team", "elsewhere/team")
    (root / "goals" / "team").symlink_to("../elsewhere/team")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "move the goals")
    assert statuses(stop(root)[0]) == ["active"]
    real = root / "elsewhere" / "team" / "real.md"
    shutil.copyfile(mine, real)
    answer, _ = stop(root)
    assert answer["decision"] == "block", answer
    held = outcome(answer, "replaced")
    assert held["path"] == "elsewhere/team/real.md"
    assert fix_of(held["reason"]) == "git checkout HEAD -- elsewhere/team/real.md"
    sh(fix_of(held["reason"]), root)
    assert statuses(stop(root)[0]) == ["active"]


def drafted_behind_a_link(tmp_path: Path, folder: str, link: str) -> Path:
    """A repository whose draft goal FOLDER/real.md, not staged, is named by the symlink
    LINK/real.md -> ../FOLDER/real.md."""
    root = make_git_repo(tmp_path / "project")
    new_goal(root, "real", "test -f done.txt", "--dir", folder)
    (root / link).mkdir()
    (root / link / "real.md").symlink_to(f"../{folder}/real.md")
    git(root, "reset", "-q")
    goal = root / folder / "real.md"
    text = goal.read_text(encoding="utf-8")
    goal.write_text(text.replace("status: active", "status: draft", 1), encoding="utf-8")
    return root


def test_activate_through_a_link_stages_the_link_and_its_file_and_the_hook_holds_a_swap(
    tmp_path: Path, mine: Path
) -> None:
    """A goal drafted in notes/ and named by `goals/first-goal.md -> ../notes/first-goal.md`:
    `activate` stages both and says so (before, it staged only notes/first-goal.md and said it
    staged goals/first-goal.md); the agent's goal copied over the file the link leads to is
    then held against the staged copy."""
    root = drafted_behind_a_link(tmp_path, "notes", "goals")
    done = run_goalfile("activate", "goals/real.md", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    said = "staged goals/real.md and notes/real.md (the file it links to) (git add)"
    assert said in done.stderr, done.stderr
    # named under goals/, the hook finds it by itself: no focus is asked for (it once named
    # `goalfile focus 'goals/real.md and notes/real.md (the file it links to)'`)
    assert "goalfile focus" not in done.stderr and "lies outside goals/" not in done.stderr
    assert git(root, "status", "--porcelain").split("\n")[:2] == [
        "A  goals/real.md",
        "A  notes/real.md",
    ]
    assert statuses(stop(root)[0]) == ["active"]
    shutil.copyfile(mine, root / "notes" / "real.md")
    held = outcome(stop(root)[0], "replaced")
    assert fix_of(held["reason"]) == "git checkout -- notes/real.md"


def test_activate_through_a_link_outside_the_goal_folders_names_the_focus_that_holds_it(
    tmp_path: Path,
) -> None:
    """A goal in plans/ named by `notes/real.md -> ../plans/real.md`: neither lies in a goal
    folder, so `activate` says which `goalfile focus` command has the hook hold it, and that
    command, run as printed, does."""
    root = drafted_behind_a_link(tmp_path, "plans", "notes")
    done = run_goalfile("activate", "notes/real.md", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    focus = re.search(r"from the moment `([^`]+)` names it", done.stderr)
    assert focus is not None and focus.group(1) == "goalfile focus notes/real.md", done.stderr
    assert statuses(stop(root)[0]) == []  # not looked at before the focus
    sh(focus.group(1), root)
    assert statuses(stop(root)[0]) == ["active"]
