"""Every git command goalfile runs asks the repository at the folder it runs in, whatever
``GIT_DIR``, ``GIT_WORK_TREE`` or ``GIT_INDEX_FILE`` the caller's environment holds (a git
hook's own, or a shell that exported them): :func:`goalfile.gitrun.git_environment`.

History (``audit --against``, a base's symlink) was read with those variables kept, while the
listing of tracked goal files and the top of the work tree were read without them: with
``GIT_DIR`` naming another repository, ``audit --against main`` compared the goal with the
other repository's ``main`` and passed a contract its own ``main`` does not approve.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import git, goal_text, make_git_repo, row, run_goalfile, write_goal

from goalfile.githistory import git_show
from goalfile.gitrepo import git_blobs
from goalfile.gitrun import git_environment, git_toplevel

GOAL = "goals/demo.md"
STRICT = goal_text(status="draft", rows=(row("C1", "test -f out.txt", "exit 0; output empty"),))


def _project(path: Path) -> Path:
    """A repository whose `main` holds the goal activated; the branch `agent` checked out."""
    repo = make_git_repo(path)
    git(repo, "symbolic-ref", "HEAD", "refs/heads/main")
    write_goal(repo / "goals", STRICT)
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal: demo")
    git(repo, "checkout", "-q", "-b", "agent")
    return repo


def _loosen(repo: Path) -> None:
    """The agent's change on its branch: the check's `output empty` dropped, committed."""
    path = repo / GOAL
    text = path.read_text(encoding="utf-8")
    assert "| exit 0; output empty |" in text
    path.write_text(text.replace("| exit 0; output empty |", "| exit 0 |"), encoding="utf-8")
    git(repo, "commit", "-qam", "loosened")


def _other(path: Path, like: Path) -> Path:
    """Another repository whose `main` already holds the loosened goal."""
    other = make_git_repo(path)
    git(other, "fetch", "-q", str(like), "agent")
    git(other, "checkout", "-q", "-b", "main", "FETCH_HEAD")
    return other


def _directed(other: Path) -> dict[str, str]:
    return {
        "GIT_DIR": str(other / ".git"),
        "GIT_WORK_TREE": str(other),
        "GIT_INDEX_FILE": str(other / ".git" / "index"),
    }


def test_audit_against_main_reads_the_goals_own_repository_whatever_git_dir_says(
    tmp_path: Path,
) -> None:
    repo = _project(tmp_path / "repo")
    _loosen(repo)
    other = _other(tmp_path / "other", repo)
    plain = run_goalfile("audit", GOAL, "--against", "main", "--json", cwd=repo)
    assert plain.returncode == 1, plain.stdout + plain.stderr  # the loosened contract fails
    directed = run_goalfile(
        "audit", GOAL, "--against", "main", "--json", cwd=repo, env=_directed(other)
    )
    assert directed.returncode == plain.returncode, directed.stdout + directed.stderr
    assert json.loads(directed.stdout) == json.loads(plain.stdout)


def test_each_git_runner_reads_the_repository_at_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """History, the top of the work tree, and the blobs HEAD holds: each runner asks the
    repository at ``repo``, with the variables set in this process or passed as ``env``."""
    repo = _project(tmp_path / "repo")
    ours = (repo / GOAL).read_bytes()
    _loosen(repo)
    other = _other(tmp_path / "other", repo)
    assert (other / GOAL).read_bytes() != ours
    directed = _directed(other)
    for name, value in directed.items():
        monkeypatch.setenv(name, value)
    assert git_show(ref="main", path=GOAL, cwd=str(repo)) == ours
    assert git_show(ref="main", path=GOAL, cwd=str(repo), env=dict(os.environ)) == ours
    assert git_toplevel(str(repo / "goals")) == str(repo)
    assert git_blobs(str(repo), [f"main:{GOAL}"]) == [ours]


def test_the_environment_keeps_the_callers_other_variables() -> None:
    given = {"PATH": "/usr/bin", "GIT_DIR": "/x", "GIT_INDEX_FILE": "/y", "HOME": "/home/a"}
    env = git_environment(given)
    assert env["PATH"] == "/usr/bin" and env["HOME"] == "/home/a"
    assert "GIT_DIR" not in env and "GIT_INDEX_FILE" not in env
    assert env["GIT_NO_REPLACE_OBJECTS"] == "1" and env["GIT_GRAFT_FILE"] == os.devnull


def test_audit_against_runs_no_signature_program_the_repository_names(tmp_path: Path) -> None:
    """`git config log.showSignature true` and `gpg.program PROGRAM`: `git log` runs PROGRAM
    for each signed commit it lists, and `audit --against main` lists the commits that hold a
    goal first committed since `main`. goalfile runs every git command with
    ``log.showSignature=false``."""
    repo = make_git_repo(tmp_path / "repo")
    git(repo, "symbolic-ref", "HEAD", "refs/heads/main")
    (repo / "README").write_text("project\n", encoding="utf-8")
    git(repo, "add", "README")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-q", "-b", "agent")
    write_goal(repo / "goals", STRICT)
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal: demo")
    # the commit as a signed one: git asks the program whenever it shows the signature
    head, _, message = git(repo, "cat-file", "commit", "HEAD").partition("\n\n")
    signature = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n AAAA\n -----END PGP SIGNATURE-----"
    (tmp_path / "signed").write_text(f"{head}\n{signature}\n\n{message}", encoding="utf-8")
    signed = git(repo, "hash-object", "-t", "commit", "-w", str(tmp_path / "signed")).strip()
    git(repo, "update-ref", "refs/heads/agent", signed)
    ran = tmp_path / "ran"
    program = tmp_path / "program"
    program.write_text(f"#!/bin/sh\necho ran >> {ran}\nexit 1\n", encoding="utf-8")
    program.chmod(0o755)
    git(repo, "config", "gpg.program", str(program))
    git(repo, "config", "log.showSignature", "true")
    git(repo, "log", "-1", "--format=%H", "agent")  # git itself does run it
    assert ran.exists()
    ran.unlink()
    audited = run_goalfile("audit", GOAL, "--against", "main", cwd=repo)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert not ran.exists()
