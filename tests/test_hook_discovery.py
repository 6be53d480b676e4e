"""`goalfile hook stop` holds the agent when it cannot see the goals as git records them: a
part of a goal folder that discovery cannot read (a folder chain past the system's path limit,
a goal folder linked out of the repository, a goal file linked to itself), a repository git
cannot list (a broken index, an unknown repository format, HEAD on an unborn branch), and a
goal file git tracks whose working copy is another goal (copied or linked over it) or a
rewritten one. Real git repositories, real goalfile processes fed a recorded host input (as in
test_hook_hold.py); every `fix:` printed is run as written."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import WITH_GOALFILE as WITH_GOALFILE
from conftest import copy_of, fix_of, git, made_once, make_git_repo, run_goalfile, sh, stop_input


def stop(repo: Path, *, active: bool = False) -> tuple[dict[str, object], str]:
    """The Claude Code Stop hook in ``repo`` (``--json``): its answer, and its stderr."""
    done = run_goalfile(
        "hook",
        "stop",
        "--agent",
        "claude",
        "--json",
        cwd=repo,
        input=stop_input(repo, active=active),
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout), done.stderr


def outcome(answer: dict[str, object], status: str) -> dict[str, object]:
    goals = answer["goals"]
    assert isinstance(goals, list)
    found = [goal for goal in goals if goal["status"] == status]
    assert len(found) == 1, answer
    return found[0]


def statuses(answer: dict[str, object]) -> list[str]:
    goals = answer["goals"]
    assert isinstance(goals, list)
    return [str(goal["status"]) for goal in goals]


def new_goal(folder: Path, slug: str, check: str, *extra: str) -> None:
    done = run_goalfile(
        "new", slug, "the end state", "--check", check, "--expected", "exit 0",
        "--non-goal", "n", "--activate", *extra, cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def _project(root: Path, env: dict[str, str]) -> None:
    new_goal(root, "real", "test -f done.txt")
    (root / "app.txt").write_text("x\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _project)


@pytest.fixture
def project(tmp_path: Path, made: Path) -> Path:
    """A repository whose committed goal goals/real.md is active and unmet (a copy of one made
    once for the module)."""
    return copy_of(made, tmp_path / "project")


def ignored_cache(project: Path) -> Path:
    (project / ".git" / "info" / "exclude").write_text("goals/.cache/\n", encoding="utf-8")
    cache = project / "goals" / ".cache"
    cache.mkdir()
    return cache


# --- discovery that fails ------------------------------------------------------------------


def test_a_folder_chain_past_the_path_limit_holds_the_agent_and_status_names_it(
    project: Path,
) -> None:
    """45 nested 100-character folders in a git-ignored goals/.cache: listing the deepest
    fails (ENAMETOOLONG). That part is named and holds the agent once; `goalfile status`
    reports it with no traceback; the fix printed moves it out of the goal folder."""
    cache = ignored_cache(project)
    folder = os.open(cache, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(45):  # no chdir: each folder is made relative to the one above
            os.mkdir("d" * 100, dir_fd=folder)
            inner = os.open("d" * 100, os.O_RDONLY | os.O_DIRECTORY, dir_fd=folder)
            os.close(folder)
            folder = inner
    finally:
        os.close(folder)
    assert git(project, "status", "--porcelain") == ""
    answer, _ = stop(project)
    assert answer["decision"] == "block", answer
    held = outcome(answer, "unreadable")
    assert held["path"] == "goals/.cache" and held["decision"] == "block"
    assert "goals/.cache: File name too long" in str(held["reason"])
    assert str(answer["host_output"]["reason"]).startswith(  # type: ignore[index]
        "verify-goal real iteration 0: C1 unmet"
    )
    # once the agent is continuing because of a Stop hook, it is let go with the message
    again, _ = stop(project, active=True)
    assert outcome(again, "unreadable")["decision"] == "allow"
    status = run_goalfile("status", cwd=project)
    assert "Traceback" not in status.stderr, status.stderr
    assert status.returncode == 3, status.stdout + status.stderr
    assert "goals/.cache: cannot be read (File name too long)" in status.stderr
    listed = json.loads(run_goalfile("status", "--json", cwd=project).stdout)
    assert listed["goals"][0]["path"] == "goals/.cache"
    sh(fix_of(held["reason"]), project)
    assert not cache.exists()
    answer, _ = stop(project)
    assert "unreadable" not in statuses(answer), answer


def test_a_goal_folder_linked_out_of_the_repository_is_not_walked_and_holds(
    project: Path, tmp_path: Path
) -> None:
    """`.zetetic/goals -> /proc` (or anywhere outside): not walked, named, held once; the fix
    removes the link only."""
    (project / ".git" / "info" / "exclude").write_text(".zetetic/\n", encoding="utf-8")
    (project / ".zetetic").mkdir()
    (project / ".zetetic" / "goals").symlink_to("/proc")
    answer, _ = stop(project)
    held = outcome(answer, "unreadable")
    assert held["path"] == ".zetetic/goals"
    assert "it is a symlink to /proc, outside the repository" in str(held["reason"])
    sh(fix_of(held["reason"]), project)
    assert not os.path.lexists(project / ".zetetic" / "goals")
    assert Path("/proc/self").exists()


def test_a_tracked_goal_linked_to_itself_holds_the_agent(project: Path, tmp_path: Path) -> None:
    """goals/real.md moved away and replaced by a symlink to itself for one stop
    (Path.resolve raises RuntimeError on it): held, never "the stop is allowed"."""
    away = tmp_path / "away.md"
    (project / "goals" / "real.md").rename(away)
    (project / "goals" / "real.md").symlink_to("real.md")
    answer, notes = stop(project)
    assert answer["decision"] == "block", (answer, notes)
    assert "internal error" not in notes
    assert "goals/real.md" in str(answer["host_output"]["reason"])  # type: ignore[index]


# --- git that cannot list the repository ---------------------------------------------------


@pytest.mark.parametrize("variant", ["garbage index", "format version 7", "unborn HEAD"])
def test_a_repository_git_cannot_list_holds_the_agent(
    project: Path, tmp_path: Path, variant: str
) -> None:
    """The committed goal moved away while git cannot list the repository: that is never
    "git tracks nothing"; the stop is held once, with git's error."""
    (project / "goals" / "real.md").rename(tmp_path / "away.md")
    if variant == "garbage index":
        (project / ".git" / "index").write_text("garbage\n", encoding="utf-8")
    elif variant == "format version 7":
        git(project, "config", "core.repositoryformatversion", "7")
    else:
        git(project, "rm", "-q", "--cached", "goals/real.md")
        git(project, "symbolic-ref", "HEAD", "refs/heads/zz")
    answer, _ = stop(project)
    assert answer["decision"] == "block", answer
    held = outcome(answer, "unlisted")
    reason = str(held["reason"])
    assert reason.startswith("goalfile cannot tell which goal files git tracks"), reason
    expected = {
        "garbage index": "index file smaller than expected",
        "format version 7": "Expected git repo version <= 1, found 7",
        "unborn HEAD": "HEAD names no commit, but the repository holds refs/heads/",
    }[variant]
    assert expected in reason
    if variant == "unborn HEAD":  # the fix puts HEAD back; the hidden goal then holds
        sh(fix_of(reason), project)
        answer, _ = stop(project)
        assert statuses(answer) == ["hidden"], answer


def test_a_new_repository_with_no_commit_is_listed_from_its_index(tmp_path: Path) -> None:
    """`git init` with no commit and no branch: the index alone, nothing held for it."""
    root = make_git_repo(tmp_path / "fresh")
    new_goal(root, "real", "test -f done.txt")
    git(root, "add", "-A")
    answer, _ = stop(root)
    assert statuses(answer) == ["active"], answer


# --- another goal at a tracked goal's path -------------------------------------------------


@pytest.fixture
def easy(project: Path) -> Path:
    """The agent's own goal in a git-ignored folder, honestly verified met."""
    cache = ignored_cache(project)
    new_goal(project, "easy", "true", "--dir", "goals/.cache")
    assert run_goalfile("verify", "goals/.cache/easy.md", cwd=project).returncode == 0
    assert "status: met" in (cache / "easy.md").read_text(encoding="utf-8")
    return cache / "easy.md"


@pytest.mark.parametrize("how", ["copy", "symlink"])
def test_another_goal_put_at_a_tracked_goals_path_holds_the_agent(
    project: Path, easy: Path, how: str
) -> None:
    real = project / "goals" / "real.md"
    kept = real.read_bytes()
    real.unlink()
    if how == "copy":
        shutil.copyfile(easy, real)
    else:
        real.symlink_to(".cache/easy.md")
    answer, _ = stop(project)
    assert answer["decision"] == "block", answer
    held = outcome(answer, "replaced")
    assert held["path"] == "goals/real.md"
    why = "its slug is easy, where HEAD's is real" if how == "copy" else "it is a symlink"
    assert why in str(held["reason"])
    assert fix_of(held["reason"]) == "git checkout HEAD -- goals/real.md"
    sh(fix_of(held["reason"]), project)
    assert real.read_bytes() == kept and not real.is_symlink()
    answer, _ = stop(project)
    assert "replaced" not in statuses(answer)
    assert str(answer["host_output"]["reason"]).startswith(  # type: ignore[index]
        "verify-goal real iteration 0: C1 unmet"
    )


def test_a_staged_swap_is_compared_with_head_and_held(project: Path, easy: Path) -> None:
    """The swap added to the index (`git add`), so the working file matches the index: HEAD
    decides."""
    shutil.copyfile(easy, project / "goals" / "real.md")
    git(project, "add", "goals/real.md")
    answer, _ = stop(project)
    assert outcome(answer, "replaced")["decision"] == "block"


def test_a_committed_ledger_entry_rewritten_holds_the_agent(project: Path) -> None:
    real = project / "goals" / "real.md"
    text = real.read_text(encoding="utf-8")
    assert "non-goals:\n\n- n\n" in text
    real.write_text(text.replace("non-goals:\n\n- n\n", "non-goals:\n\n- m\n"), encoding="utf-8")
    answer, _ = stop(project)
    held = outcome(answer, "replaced")
    assert "its ledger does not extend HEAD's: Iteration 0" in str(held["reason"])
    assert "entry differs from HEAD" in str(held["reason"])


def test_the_hooks_own_entries_since_the_commit_are_no_swap(project: Path) -> None:
    """Stops append entries and set counters in the committed goal: it still extends HEAD's."""
    for _ in range(2):  # a third would stall (the same verdicts three times)
        answer, _ = stop(project)
        assert statuses(answer) == ["active"], answer
    assert git(project, "status", "--porcelain").strip() == "M goals/real.md"
