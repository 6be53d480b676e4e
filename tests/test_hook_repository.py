"""`goalfile hook stop` holds the agent when the repository itself is hidden from it or swapped
for another: `.git` renamed away for the stop (and put back by a process left running), a
`.git` file that names another repository or another work tree's git folder, a new repository
made in its place, a git folder under another name beside the goal folder; and it holds no one
in the ordinary cases (no goal, a goal met and committed, a branch switched, a linked work
tree, a submodule). Real git repositories, real goalfile processes fed a recorded host input
(as in test_hook_hold.py); each `fix:` printed is run as written."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from conftest import (
    DATA,
    fix_of,
    git,
    goal_text,
    make_git_repo,
    row,
    run_goalfile,
    wait_for,
    write_goal,
)
from conftest import (
    shell as sh,
)

from goalfile.sessionmemory import Record, load, record_path

SESSION = "7c0f3e1a-52b8-4d6e-9a41-0b2c3d4e5f60"  # the recorded input's session id


def hook_input(cwd: Path, *, active: bool = False, session: str | None = SESSION) -> str:
    data = json.loads((DATA / "hooks" / "claude-stop.json").read_text(encoding="utf-8"))
    data.update(cwd=str(cwd), stop_hook_active=active)
    data.pop("transcript_path")
    if session is None:
        data.pop("session_id")
    else:
        data["session_id"] = session
    return json.dumps(data)


def stop(
    cwd: Path,
    *,
    active: bool = False,
    session: str | None = SESSION,
    env: dict[str, str] | None = None,
    goal: str | None = None,
) -> tuple[dict[str, object] | None, str]:
    """The Claude Code Stop hook for a session in ``cwd`` (pinned to ``goal`` with --goal):
    its answer, and its stderr."""
    done = run_goalfile(
        "hook",
        "stop",
        "--agent",
        "claude",
        *(("--goal", goal) if goal is not None else ()),
        cwd=cwd,
        env=env,
        input=hook_input(cwd, active=active, session=session),
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    return (json.loads(text) if text else None), done.stderr


def reason_of(answer: dict[str, object] | None) -> str:
    assert answer is not None and answer.get("decision") == "block", answer
    return str(answer["reason"])


def remembered(state: Path) -> dict[str, object]:
    path = record_path(state / "goalfile" / "sessions", session_id=SESSION, transcript=None)
    assert path is not None
    return dict(load(path).repositories)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository whose committed goal goals/real.md is active and unmet."""
    root = make_git_repo(tmp_path / "project")
    write_goal(
        root / "goals", goal_text(slug="real", rows=(row("C1", "false", "exit 0"),)), "real.md"
    )
    git(root, "commit", "-qm", "base")
    return root


UNMET = "verify-goal real iteration 1: C1 unmet; status: active"


# --- the git folder renamed away for the stop -----------------------------------------------


def test_a_git_folder_renamed_away_for_the_stop_holds_the_agent(
    project: Path, tmp_path: Path, state_home: Path
) -> None:
    """The attack as it was found: the agent renames .git away and moves the goal out, with a
    process left running that puts .git back after the stop. The hook remembers the repository
    from the session's earlier stop, and holds the agent with the rename that puts it back."""
    assert UNMET in reason_of(stop(project)[0])
    record = remembered(state_home)
    assert list(record) == [os.path.realpath(project)]
    go = tmp_path / "go"
    hide = (
        f"mv .git .git-x && mv goals/real.md {tmp_path}/real.md && "
        f"(while [ ! -e {go} ]; do sleep 0.05; done; mv .git-x .git; "
        f"mv {tmp_path}/real.md goals/real.md) >/dev/null 2>&1 &"
    )
    assert sh(hide, project).returncode == 0
    answer, _ = stop(project)
    reason = reason_of(answer)
    assert "the repository at .: at an earlier stop of this session it held the active goal " \
        "goals/real.md, and now .git is gone" in reason  # fmt: skip
    assert fix_of(reason) == "mv -- .git-x .git"
    go.touch()  # the process left running puts everything back
    wait_for(lambda: (project / ".git").is_dir() and (project / "goals" / "real.md").exists())
    assert "verify-goal real iteration 2: C1 unmet" in reason_of(stop(project)[0])


def test_the_fix_of_a_git_folder_renamed_away_works_as_written(project: Path) -> None:
    stop(project)
    (project / ".git").rename(project / ".git-x")
    reason = reason_of(stop(project)[0])
    assert "verify-goal" in reason  # the goal file is there: verified outside git as well
    done = sh(fix_of(reason), project)
    assert done.returncode == 0, done.stderr
    assert git(project, "status", "--porcelain") == " M goals/real.md\n"
    answer, _ = stop(project)
    assert "earlier stop" not in reason_of(answer)


def test_from_a_sub_folder_the_fix_names_the_git_folder_from_there(project: Path) -> None:
    (project / "src").mkdir()
    stop(project / "src")
    (project / ".git").rename(project / ".git-x")
    (project / "goals" / "real.md").unlink()
    reason = reason_of(stop(project / "src")[0])
    assert "the repository at ..:" in reason
    assert fix_of(reason) == "mv -- ../.git-x ../.git"
    assert sh(fix_of(reason), project / "src").returncode == 0
    assert (project / ".git" / "HEAD").is_file()


def test_a_git_folder_moved_out_of_the_top_is_named_without_a_fix(
    project: Path, tmp_path: Path
) -> None:
    stop(project)
    (project / ".git").rename(tmp_path / "elsewhere")
    answer, _ = stop(project)
    reason = reason_of(answer)
    assert "fix:" not in reason
    assert f"Put the repository's git folder back at .git (it was {project}/.git)" in reason


def test_it_holds_once_also_an_agent_sent_back_already(project: Path) -> None:
    """The agent, sent back for its unmet goal (`stop_hook_active` true at its next stop),
    hides the repository then: the first stop that finds it holds all the same (the session's
    record says no hold was made for it yet); the next one lets it go with the message, which
    the person sees, and so does every later one while it stands (a person may have removed
    the repository: no host is held forever)."""
    assert UNMET in reason_of(stop(project)[0])
    (project / ".git").rename(project / ".git-x")
    (project / "goals" / "real.md").unlink()
    reason = reason_of(stop(project, active=True)[0])
    assert "now .git is gone" in reason and fix_of(reason) == "mv -- .git-x .git"
    for active in (True, False):
        answer, _ = stop(project, active=active)
        assert answer is not None and "decision" not in answer, answer
        assert "now .git is gone" in str(answer["systemMessage"])
    # put back, and hidden again: a new hold
    (project / ".git-x").rename(project / ".git")
    git(project, "checkout", "--", "goals/real.md")
    assert "earlier stop" not in reason_of(stop(project, active=True)[0])
    (project / ".git").rename(project / ".git-x")
    assert "now .git is gone" in reason_of(stop(project, active=True)[0])


def test_without_a_record_it_holds_as_every_hold_does(project: Path, tmp_path: Path) -> None:
    """No state folder the hook can write to (its parent is a file): a sign found at a first
    stop holds an agent that is not continuing because of a Stop hook, and lets one that is go
    with the message, as every hold of the hook does; the note says why."""
    (tmp_path / "file").write_text("", encoding="utf-8")
    env = {"XDG_STATE_HOME": str(tmp_path / "file" / "state")}
    (project / ".git").rename(project / "backup")
    (project / "goals" / "real.md").unlink()
    answer, stderr = stop(project, env=env)
    assert "backup is a git folder under another name" in reason_of(answer)
    assert "could not be recorded" in stderr
    assert f"({tmp_path / 'file' / 'state'}: Not a directory)" in stderr, stderr
    answer, _ = stop(project, env=env, active=True)
    assert answer is not None and "decision" not in answer, answer
    assert "backup is a git folder under another name" in str(answer["systemMessage"])


def test_a_file_where_the_state_folder_goes_is_named(project: Path, tmp_path: Path) -> None:
    """A file standing where goalfile's state folder goes: the note names that file, not a bare
    "File exists"."""
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "goalfile").write_text("", encoding="utf-8")
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    (project / ".git").rename(project / "backup")
    (project / "goals" / "real.md").unlink()
    _, stderr = stop(project, env=env)
    assert f"({tmp_path / 'state' / 'goalfile'}: File exists)" in stderr, stderr


def test_another_session_remembers_nothing(project: Path) -> None:
    """The record is per session: another session's first stop has nothing to compare with
    (the documented limit), so .git renamed out of the top goes unseen there."""
    stop(project)
    (project / ".git").rename(project.parent / "elsewhere")
    (project / "goals" / "real.md").unlink()
    answer, stderr = stop(project, session="another-session")
    assert answer is None, answer
    assert "no active goal" in stderr


# --- another repository, or another git folder, in its place --------------------------------


def test_a_git_file_naming_another_repository_holds_the_agent(
    project: Path, tmp_path: Path
) -> None:
    other = make_git_repo(tmp_path / "other")  # no goal there
    stop(project)
    (project / ".git").rename(project / ".git-x")
    (project / ".git").write_text(f"gitdir: {other}/.git\n", encoding="utf-8")
    (project / "goals" / "real.md").unlink()
    reason = reason_of(stop(project)[0])
    assert f"now .git is a .git file naming {other}/.git" in reason
    fix = fix_of(reason)
    assert fix == "mv -- .git .git-replaced && mv -- .git-x .git"
    assert sh(fix, project).returncode == 0
    assert git(project, "status", "--porcelain") == " D goals/real.md\n?? .git-replaced\n"


def test_a_git_file_naming_another_repository_holds_at_a_first_stop(
    project: Path, tmp_path: Path
) -> None:
    """No earlier stop to compare with: a `.git` file naming another work tree's `.git`
    folder is no git folder of the repository's own."""
    other = make_git_repo(tmp_path / "other")
    (project / ".git").rename(project / ".git-x")
    (project / ".git").write_text(f"gitdir: {other}/.git\n", encoding="utf-8")
    (project / "goals" / "real.md").unlink()
    reason = reason_of(stop(project)[0])
    assert (
        f"cannot trust the repository at .: its .git file names the git folder of the work "
        f"tree at {other} ({other}/.git)"
    ) in reason
    assert sh(fix_of(reason), project).returncode == 0
    assert git(project, "status", "--porcelain") == " D goals/real.md\n?? .git-replaced\n"


def test_a_separate_git_folder_in_its_place_holds_at_a_later_stop(
    project: Path, tmp_path: Path
) -> None:
    """`gitdir: /tmp/elsewhere`, a repository made with --separate-git-dir: nothing in it says
    which work tree is its own, but it is not the git folder of the session's earlier stop."""
    scratch = tmp_path / "scratch"
    git(tmp_path, "init", "-q", f"--separate-git-dir={tmp_path / 'elsewhere'}", str(scratch))
    stop(project)
    (project / ".git").rename(project / ".git-x")
    (project / ".git").write_text(f"gitdir: {tmp_path / 'elsewhere'}\n", encoding="utf-8")
    (project / "goals" / "real.md").unlink()
    reason = reason_of(stop(project)[0])
    assert f"now .git is a .git file naming {tmp_path / 'elsewhere'}" in reason
    assert sh(fix_of(reason), project).returncode == 0
    assert (project / ".git" / "HEAD").is_file()


def test_a_new_repository_made_in_its_place_holds_the_agent(project: Path) -> None:
    stop(project)
    (project / ".git").rename(project / ".git-x")
    git(project, "init", "-q")
    (project / "goals" / "real.md").unlink()
    reason = reason_of(stop(project)[0])
    assert "now .git is another git folder made at that path" in reason
    assert sh(fix_of(reason), project).returncode == 0
    assert git(project, "log", "--format=%s") == "base\n"


def test_another_work_trees_git_folder_holds_the_agent(project: Path, tmp_path: Path) -> None:
    """A linked work tree whose `.git` file is made to name another work tree's folder (whose
    branch holds no goal)."""
    first, second = tmp_path / "first", tmp_path / "second"
    git(project, "worktree", "add", "-q", str(first), "-b", "work")
    git(project, "worktree", "add", "-q", str(second), "-b", "no-goal")
    git(second, "rm", "-q", "goals/real.md")
    git(second, "commit", "-qm", "no goal")
    assert UNMET in reason_of(stop(first)[0])
    real = (first / ".git").read_text(encoding="utf-8")
    (first / ".git").write_text((second / ".git").read_text(encoding="utf-8"), encoding="utf-8")
    (first / "goals" / "real.md").unlink()
    reason = reason_of(stop(first)[0])
    assert "now .git is a .git file naming" in reason and "worktrees/second" in reason
    assert sh(fix_of(reason), first).returncode == 0, reason
    assert (first / ".git").read_text(encoding="utf-8") == real, reason
    # and with no earlier stop: the back-link of that folder names the other work tree
    (first / ".git").write_text((second / ".git").read_text(encoding="utf-8"), encoding="utf-8")
    reason = reason_of(stop(first, session="another-session")[0])
    assert f"names the git folder of the linked work tree at {second}" in reason


def test_a_linked_work_trees_git_file_removed_is_written_back(
    project: Path, tmp_path: Path
) -> None:
    first = tmp_path / "first"
    git(project, "worktree", "add", "-q", str(first), "-b", "work")
    stop(first)
    real = (first / ".git").read_text(encoding="utf-8")
    (first / ".git").unlink()
    reason = reason_of(stop(first)[0])
    assert sh(fix_of(reason), first).returncode == 0
    assert (first / ".git").read_text(encoding="utf-8") == real
    reason = reason_of(stop(first)[0])
    assert "verify-goal real iteration 3: C1 unmet" in reason and "earlier stop" not in reason


# --- a first stop: a git folder under another name ------------------------------------------


def test_a_git_folder_under_another_name_beside_the_goals_holds_at_a_first_stop(
    project: Path,
) -> None:
    (project / ".git").rename(project / "backup")
    (project / "goals" / "real.md").unlink()
    reason = reason_of(stop(project)[0])
    assert "it holds a goal folder and no .git, but backup is a git folder under another name" in (
        reason
    )
    assert fix_of(reason) == "mv -- backup .git"
    assert sh(fix_of(reason), project).returncode == 0
    assert git(project, "status", "--porcelain") == " D goals/real.md\n"


def test_a_bare_repository_beside_the_goals_is_not_held(tmp_path: Path) -> None:
    """A folder outside git holding a bare repository (no work tree's git folder), or a
    git folder and no goal folder: nothing to hold."""
    folder = tmp_path / "plain"
    folder.mkdir()
    git(folder, "init", "-q", "--bare", "mirror.git")
    write_goal(folder / "goals", goal_text(slug="real", rows=(row("C1", "true", "exit 0"),)))
    answer, _ = stop(folder)
    assert answer is not None and "status: met" in str(answer.get("systemMessage")), answer
    other = tmp_path / "other"
    make_git_repo(other / "inner")
    (other / "inner" / ".git").rename(other / "kept-git")
    assert stop(other)[0] is None


# --- what the hook inherits -----------------------------------------------------------------


def test_git_variables_in_the_hooks_environment_point_it_nowhere(
    project: Path, tmp_path: Path
) -> None:
    other = make_git_repo(tmp_path / "other")
    env = {"GIT_DIR": str(other / ".git"), "GIT_WORK_TREE": str(project)}
    assert UNMET in reason_of(stop(project, env=env)[0])


def test_a_goal_folder_replaced_by_a_link_for_the_stop_holds_the_agent(
    project: Path, tmp_path: Path
) -> None:
    (tmp_path / "empty").mkdir()
    (project / "goals").rename(tmp_path / "goals-x")
    (project / "goals").symlink_to(tmp_path / "empty")
    reason = reason_of(stop(project)[0])
    assert "git tracks the goal file" in reason and "no such file" in reason


# --- the ordinary cases: nothing held --------------------------------------------------------


def test_a_session_without_a_goal_records_nothing(tmp_path: Path, state_home: Path) -> None:
    plain = make_git_repo(tmp_path / "plain")
    assert stop(plain)[0] is None
    assert not (state_home / "goalfile").exists()
    (plain / ".git").rename(plain / ".git-x")
    assert stop(plain)[0] is None


def test_a_goal_met_and_committed_is_forgotten(tmp_path: Path, state_home: Path) -> None:
    root = make_git_repo(tmp_path / "done")
    write_goal(
        root / "goals",
        goal_text(slug="real", rows=(row("C1", "test -f built", "exit 0"),)),
        "real.md",
    )
    git(root, "commit", "-qm", "base")
    assert "C1 unmet" in reason_of(stop(root)[0])
    folder = state_home / "goalfile" / "sessions"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((state_home / "goalfile").stat().st_mode) == 0o700
    (record,) = folder.iterdir()
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    (root / "built").touch()
    answer, _ = stop(root, active=True)
    assert answer is not None and "status: met" in str(answer["systemMessage"])
    # kept, naming no repository: a session whose record is missing is one whose record was
    # deleted (goalfile.recordbind.started)
    assert load(record) == Record(taken=load(record).taken) and load(record).taken is not None
    git(root, "add", "-A")
    git(root, "commit", "-qm", "met")
    (root / ".git").rename(tmp_path / "elsewhere")  # a person removes the repository
    assert stop(root)[0] is None


def test_a_branch_switched_is_the_same_repository(project: Path) -> None:
    git(project, "checkout", "-q", "-b", "without-goal")
    git(project, "rm", "-q", "goals/real.md")
    git(project, "commit", "-qm", "retire")
    git(project, "checkout", "-q", "master" if "master" in git(project, "branch") else "main")
    assert UNMET in reason_of(stop(project)[0])
    git(project, "checkout", "-q", "-f", "without-goal")
    answer, _ = stop(project)  # the same repository: no swap; the goal went with HEAD
    reason = reason_of(answer)
    assert "another git folder" not in reason and ".git is gone" not in reason, reason
    assert "now HEAD is without-goal, where git holds no such file" in reason, reason
    assert "unless a person switched branches: then stop and say so" in reason, reason
    again, _ = stop(project, active=True)  # held once: the stops after it are told
    assert again is not None and "now HEAD is without-goal" in str(again.get("systemMessage"))


def test_a_linked_work_tree_and_its_main_are_not_held(project: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(project, "worktree", "add", "-q", str(linked), "-b", "work")
    assert UNMET in reason_of(stop(linked)[0])
    assert "verify-goal real iteration 2" in reason_of(stop(linked)[0])
    assert "earlier stop" not in reason_of(stop(project)[0])


def test_another_work_tree_without_the_goal_is_held_once(project: Path, tmp_path: Path) -> None:
    """After a hold, the agent made a work tree of a commit without the person's goal beside
    the project (`git worktree add --detach ../elsewhere COMMIT`) and moved the session there:
    the hook saw that work tree alone, said nothing and let the agent stop, although the
    session's record names the repository (the same common git folder), and `git checkout` of
    that commit in place is held. It holds once (the stops after it are told), with the `cd`
    back, which, run as printed, puts the session where the goal holds it again."""
    assert UNMET in reason_of(stop(project)[0])
    empty = git(project, "hash-object", "-t", "tree", "/dev/null").strip()
    commit = git(project, "commit-tree", empty, "-m", "nothing").strip()
    elsewhere = tmp_path / "elsewhere"
    git(project, "worktree", "add", "-q", "--detach", str(elsewhere), commit)
    answer, _ = stop(elsewhere, active=True)  # continuing, as after a hold
    reason = reason_of(answer)
    assert "held the active goal goals/real.md there" in reason, reason
    assert "another work tree of the same repository" in reason, reason
    told, _ = stop(elsewhere, active=True)
    assert told is not None and "another work tree" in str(told.get("systemMessage")), told
    back = sh(f"{fix_of(reason)} && pwd -P", elsewhere)
    assert back.returncode == 0 and back.stdout.strip() == os.path.realpath(project), back
    assert "verify-goal real iteration 2: C1 unmet" in reason_of(stop(project, active=True)[0])


def test_a_submodule_is_not_held(project: Path, tmp_path: Path) -> None:
    outer = make_git_repo(tmp_path / "outer")
    (outer / "README").write_text("x\n", encoding="utf-8")
    git(outer, "add", "README")
    git(outer, "commit", "-qm", "outer")
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(project), "sub")
    sub = outer / "sub"
    assert (sub / ".git").is_file()
    assert UNMET in reason_of(stop(sub)[0])
    reason = reason_of(stop(sub)[0])
    assert "verify-goal real iteration 2" in reason and "earlier stop" not in reason
    assert "cannot trust" not in reason


def test_a_stop_without_a_session_id_records_nothing(project: Path, state_home: Path) -> None:
    assert UNMET in reason_of(stop(project, session=None)[0])
    assert not (state_home / "goalfile").exists()


def test_an_unreadable_record_is_no_record(project: Path, state_home: Path) -> None:
    stop(project)
    folder = state_home / "goalfile" / "sessions"
    (record,) = folder.iterdir()
    record.write_text("{not json", encoding="utf-8")
    (project / ".git").rename(project.parent / "elsewhere")
    (project / "goals" / "real.md").unlink()
    answer, _ = stop(project)
    assert answer is None


# --- a goal gone with no trace in git --------------------------------------------------------


@pytest.fixture
def staged(tmp_path: Path) -> Path:
    """A repository whose goal goals/auth.md is active and staged, never committed (the goal
    `new --activate` makes)."""
    root = make_git_repo(tmp_path / "staged")
    (root / "README").write_text("x\n", encoding="utf-8")
    git(root, "add", "README")
    git(root, "commit", "-qm", "base")
    done = run_goalfile(
        "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert git(root, "diff", "--cached", "--name-only") == "goals/auth.md\n"
    return root


@pytest.mark.parametrize("goal", [None, "goals/auth.md"])
def test_a_goal_unstaged_and_moved_away_holds_the_agent(
    staged: Path, tmp_path: Path, goal: str | None
) -> None:
    """`git rm --cached` and then a move: git tracks nothing at its path any more, and
    nothing was committed or checked out since the earlier stop. The same for a hook pinned
    to the goal with --goal (the record was not asked then)."""
    assert "C1 unmet" in reason_of(stop(staged, goal=goal)[0])
    git(staged, "rm", "-q", "-f", "--cached", "goals/auth.md")
    (staged / "goals" / "auth.md").rename(tmp_path / "auth.md")
    reason = reason_of(stop(staged, goal=goal)[0])
    assert (
        "goalfile cannot verify goals/auth.md: at an earlier stop of this session it was an "
        "active goal, and now it is gone, while git tracks nothing at that path"
    ) in reason
    answer, _ = stop(staged, active=True)
    assert answer is not None and "it is gone" in str(answer["systemMessage"])
    # put back (and staged again): the goal holds the agent as before
    (tmp_path / "auth.md").rename(staged / "goals" / "auth.md")
    git(staged, "add", "goals/auth.md")
    reason = reason_of(stop(staged)[0])
    assert "C1 unmet" in reason and "earlier stop" not in reason


def test_a_goal_gone_with_a_commit_since_is_let_go(staged: Path) -> None:
    """A commit since the earlier stop is what a person does: the goal's file is let go, as a
    goal whose removal is committed is (docs/trust.md's limits), and the stop says so."""
    assert "C1 unmet" in reason_of(stop(staged)[0])
    git(staged, "rm", "-q", "-f", "goals/auth.md")
    (staged / "README").write_text("y\n", encoding="utf-8")
    git(staged, "commit", "-qam", "other work")
    answer, _ = stop(staged)
    assert answer is not None and "decision" not in answer, answer
    said = str(answer.get("systemMessage"))
    assert "goals/auth.md was an active goal at an earlier stop of this session and is gone" in said


# --- a goal file git tracks, moved away while the agent continues ----------------------------


def test_a_tracked_goal_moved_away_after_a_hold_is_held_once_more(
    project: Path, tmp_path: Path
) -> None:
    """The agent, sent back for its unmet goal, moves the committed goal file away: the rule
    for a goal file git tracks holds that stop too (its first finding, as the session's record
    says), and the next one lets it go with the message."""
    assert UNMET in reason_of(stop(project)[0])
    (project / "goals" / "real.md").rename(tmp_path / "real.md")
    reason = reason_of(stop(project, active=True)[0])
    assert "git tracks the goal file goals/real.md" in reason
    assert fix_of(reason) == "git checkout -- goals/real.md"
    answer, _ = stop(project, active=True)
    assert answer is not None and "decision" not in answer, answer
    assert "git tracks the goal file goals/real.md" in str(answer["systemMessage"])
    # a session whose record holds no such hold (none at all: its record deleted, or its
    # first stop was held by another hook) is held once too, then let go with the message
    reason = reason_of(stop(project, active=True, session="another-session")[0])
    assert "git tracks the goal file goals/real.md" in reason
    answer, _ = stop(project, active=True, session="another-session")
    assert answer is not None and "decision" not in answer, answer


def test_a_tracked_goal_deleted_again_after_its_fix_is_held_again(project: Path) -> None:
    """The printed fix puts the deleted goal file back, and the agent deletes it again before
    the next stop: that is a new finding, held again (the session's record kept the hold by
    the file's path alone, so the stop was let go with the message); a stop with nothing done
    since lets the agent go with the message, as before."""
    goal = project / "goals" / "real.md"
    assert UNMET in reason_of(stop(project)[0])
    goal.unlink()
    reason = reason_of(stop(project, active=True)[0])
    assert "git tracks the goal file goals/real.md" in reason
    sh(fix_of(reason), project)
    assert goal.is_file()
    goal.unlink()
    reason = reason_of(stop(project, active=True)[0])
    assert "git tracks the goal file goals/real.md" in reason
    answer, _ = stop(project, active=True)
    assert answer is not None and "decision" not in answer, answer
    assert "git tracks the goal file goals/real.md" in str(answer["systemMessage"])
    sh(fix_of(reason), project)  # and once it is back, the goal holds the agent as before
    assert "C1 unmet; status: active" in reason_of(stop(project, active=True)[0])


def test_a_deleted_goal_beside_one_the_hook_verifies_is_held_once(project: Path) -> None:
    """The hook's own writes in the goal folder (verify's entry for another goal there) are no
    new finding: the deleted goal is held once, and the next stops name it no more among the
    reasons it holds the agent for (the other goal, still unmet)."""
    write_goal(
        project / "goals",
        goal_text(slug="other", rows=(row("C1", "date +%N; exit 1", "exit 0"),)),  # no stall
        "o.md",
    )
    git(project, "commit", "-qm", "another goal")
    assert UNMET in reason_of(stop(project)[0])
    (project / "goals" / "real.md").unlink()
    assert "git tracks the goal file goals/real.md" in reason_of(stop(project, active=True)[0])
    for _ in range(2):
        reason = reason_of(stop(project, active=True)[0])
        assert "verify-goal other" in reason and "goals/real.md" not in reason, reason


def test_a_goal_gone_again_after_its_fix_is_held_again(staged: Path, tmp_path: Path) -> None:
    """A goal git's index held, taken out of it and moved away, held with the fix that puts
    the index's copy back; the fix run as written, then the goal taken out and moved away again
    before the next stop: another finding, held again (the hold was kept by the goal's path
    alone, and the stop let go with the message); a stop with nothing done since lets go."""
    assert "C1 unmet" in reason_of(stop(staged)[0])
    git(staged, "rm", "-q", "-f", "--cached", "goals/auth.md")
    (staged / "goals" / "auth.md").rename(tmp_path / "auth.md")
    reason = reason_of(stop(staged)[0])
    assert "now it is gone, while git tracks nothing at that path" in reason
    sh(fix_of(reason), staged)
    assert (staged / "goals" / "auth.md").is_file()
    git(staged, "rm", "-q", "-f", "--cached", "goals/auth.md")
    (staged / "goals" / "auth.md").rename(tmp_path / "again.md")
    reason = reason_of(stop(staged, active=True)[0])
    assert "now it is gone, while git tracks nothing at that path" in reason
    answer, _ = stop(staged, active=True)
    assert answer is not None and "it is gone" in str(answer["systemMessage"]), answer


def test_a_gone_goal_beside_one_the_hook_verifies_is_held_once(
    staged: Path, tmp_path: Path
) -> None:
    """As for a deleted goal git tracks (above), for one only git's index held, gone with no
    trace in git: the hook's own writes in the goal folder at the stop that holds it (verify's
    entry for another goal there) are no new finding at the next stop: the record keeps the
    hold's key with the folder as the stop leaves it (RepositoryWatch.own_rekeys; without it,
    every stop held the agent for the gone goal again, and no test failed)."""
    write_goal(
        staged / "goals",
        goal_text(slug="other", rows=(row("C1", "date +%N; exit 1", "exit 0"),)),  # no stall
        "o.md",
    )
    git(staged, "commit", "-qm", "another goal", "--", "goals/o.md")
    assert "C1 unmet" in reason_of(stop(staged)[0])
    git(staged, "rm", "-q", "-f", "--cached", "goals/auth.md")
    (staged / "goals" / "auth.md").rename(tmp_path / "auth.md")
    reason = reason_of(stop(staged, active=True)[0])
    assert "now it is gone, while git tracks nothing at that path" in reason, reason
    for _ in range(2):
        reason = reason_of(stop(staged, active=True)[0])
        assert "verify-goal other" in reason and "it is gone" not in reason, reason


# --- an empty .git folder (Codex's workspace-write sandbox leaves one) ----------------------


def test_an_empty_git_folder_above_the_repository_is_no_repository(
    project: Path, tmp_path: Path
) -> None:
    """Codex's sandbox makes an empty `.git` in each folder a command may write that has none
    ($TMPDIR, /tmp) while the command runs: git passes over it, and so does the hook."""
    (tmp_path / ".git").mkdir()
    reason = reason_of(stop(project)[0])
    assert reason.startswith(UNMET), reason
    assert "cannot tell which goal files git tracks" not in reason


def test_a_git_folder_emptied_for_the_stop_holds_the_agent(project: Path, tmp_path: Path) -> None:
    """Emptying the repository's `.git` removes it, as a rename away does: the session's
    record holds the agent, naming the repository."""
    stop(project)
    (project / ".git").rename(tmp_path / "kept")
    (project / ".git").mkdir()
    (project / "goals" / "real.md").unlink()
    reason = reason_of(stop(project)[0])
    assert "goalfile cannot verify the goals of the repository at .: at an earlier stop" in reason
    assert "now .git is another git folder" in reason, reason


def test_a_git_folder_under_another_name_behind_an_empty_one_holds_at_a_first_stop(
    project: Path,
) -> None:
    """An empty `.git` folder is no `.git`: one put where the git folder was, renamed away,
    neither hides the rename nor stops its fix (a plain `mv` would move the folder into it)."""
    (project / ".git").rename(project / "backup")
    (project / ".git").mkdir()
    (project / "goals" / "real.md").unlink()
    reason = reason_of(stop(project)[0])
    assert "it holds a goal folder and an empty .git folder, but backup is a git folder " \
        "under another name" in reason  # fmt: skip
    assert fix_of(reason) == "rmdir -- .git && mv -- backup .git"
    assert sh(fix_of(reason), project).returncode == 0
    assert git(project, "status", "--porcelain") == " D goals/real.md\n"
