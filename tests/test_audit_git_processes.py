"""`goalfile audit` starts a few git processes per repository, not a few per goal: each read is
asked of git once, and the object reads and attribute questions go to one `git cat-file
--batch` and one `git check-attr --stdin` kept open (goalfile.gitsession). An audit of ten goals
against a base started 215 git processes before; each question to a process kept open still
has one git command's time limit, and a git that hangs or answers without end is killed.

Real repositories and real `goalfile` processes; git is counted by a `git` first on PATH that
notes each start and runs the real git."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import copy_of, git, made_once, run_goalfile

GOALS = 6  # three on main, three new on the branch


def _start(root: Path, env: dict[str, str]) -> None:
    git(root, "symbolic-ref", "HEAD", "refs/heads/main")
    (root / "README").write_text("readme\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "init")
    for n in range(GOALS):
        if n == GOALS // 2:
            git(root, "checkout", "-q", "-b", "feature")
        made = run_goalfile(
            "new", f"g{n}", f"goal {n} holds", "--check", f"test -f done{n}", "--expected",
            "exit 0", "--non-goal", "tests/ stays unchanged", "--activate", cwd=root, env=env,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"goal g{n}")
    for n in range(GOALS):
        for _ in range(2):  # unmet, then met
            done = run_goalfile("verify", f"goals/g{n}.md", cwd=root, env=env)
            assert done.returncode in (0, 1), done.stderr
            git(root, "add", "-A")
            git(root, "commit", "-q", "-m", f"verify g{n}")
            (root / f"done{n}").write_text("done\n", encoding="utf-8")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _start)


@pytest.fixture
def repo(tmp_path: Path, made: Path) -> Path:
    return copy_of(made, tmp_path / "repo")


def counting_git(folder: Path) -> tuple[dict[str, str], Path]:
    """An environment whose ``git`` notes each start (its arguments, one line) in the log
    returned, then runs the real git."""
    real = shutil.which("git")
    assert real is not None
    log = folder / "git-starts.log"
    wrapper = folder / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n', "utf-8")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "PATH": f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}"}
    return env, log


def audited(repo: Path, tmp_path: Path, *args: str) -> tuple[int, dict[str, object], int]:
    """`goalfile audit ARGS --json` in ``repo``: its exit code, its document, and the git
    processes it started."""
    env, log = counting_git(tmp_path)
    done = run_goalfile("audit", *args, "--json", cwd=repo, env=env, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    starts = log.read_text("utf-8").splitlines() if log.exists() else []
    return done.returncode, json.loads(done.stdout), len(starts)


def test_audit_against_a_base_starts_git_a_few_times_however_many_goals(
    repo: Path, tmp_path: Path
) -> None:
    goals = [f"goals/g{n}.md" for n in range(GOALS)]
    (tmp_path / "two").mkdir()
    (tmp_path / "all").mkdir()
    code, document, two = audited(repo, tmp_path / "two", *goals[2:4], "--against", "main")
    assert code == 0 and len(document["files"]) == 2, document  # type: ignore[arg-type]
    code, document, every = audited(repo, tmp_path / "all", *goals, "--against", "main")
    assert code == 0 and len(document["files"]) == GOALS, document  # type: ignore[arg-type]
    # about twenty a goal before (the same reads asked again for each goal, and a `git
    # cat-file` for each tree on a goal's path): now fewer than one a goal more
    assert every - two < GOALS - 2, (two, every)
    assert every <= 20, every


def test_audit_without_a_base_starts_git_twice(repo: Path, tmp_path: Path) -> None:
    code, document, starts = audited(repo, tmp_path)
    assert code == 0 and len(document["files"]) == GOALS, document  # type: ignore[arg-type]
    assert starts <= 2, starts  # the work tree's top and one `git check-attr --stdin`


_STUCK_GIT = r"""
import os, sys, time
args = sys.argv[1:]
if "--batch" not in args and "--stdin" not in args:
    os.execv(REAL, ["git", *args])
end = b"\n" if "--batch" in args else b"\0"
first = True
while True:
    line = b""
    while not line.endswith(end):
        got = sys.stdin.buffer.read(1)
        if not got:
            sys.exit(0)
        line += got
    if first:  # answered, as git would: nothing of that name
        sys.stdout.buffer.write(line.rstrip(end) + b" missing\n" if end == b"\n" else
                                line + b"filter\0unspecified\0")
        sys.stdout.buffer.flush()
        first = False
        continue
    with open(PIDS, "a") as f:
        f.write(f"{os.getpid()}\n")
    if MODE == "hang":
        time.sleep(600)
    while True:  # an answer without end
        sys.stdout.buffer.write(b"x" * 65536)
"""


@pytest.mark.parametrize("mode", ["hang", "flood"])
@pytest.mark.parametrize("kind", ["cat-file", "check-attr"])
def test_a_git_kept_open_that_stops_answering_is_killed_at_its_limit(
    tmp_path: Path, mode: str, kind: str
) -> None:
    """The second question to a kept `git cat-file --batch` (or `git check-attr --stdin`) is
    not answered, or answered without end: the read ends at the limit of one git command, as
    `git ...` run alone did, with git killed; the next question starts another git."""
    from goalfile import gitlimit, gitsession
    from goalfile.gitrun import GitTimedOut, _git_in, git_environment

    real = shutil.which("git")
    assert real is not None
    pids = tmp_path / "pids"
    fake = tmp_path / "bin" / "git"
    fake.parent.mkdir()
    fake.write_text(
        f"#!{sys.executable}\nREAL, PIDS, MODE = {real!r}, {str(pids)!r}, {mode!r}\n{_STUCK_GIT}",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    env = git_environment({**os.environ, "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}"})
    old_path = os.environ["PATH"]
    os.environ["PATH"] = env["PATH"]  # subprocess looks git up on this process's PATH
    try:
        with gitsession.session(), gitlimit.within(per_command=1.0, until=time.monotonic() + 60):

            def ask(name: str) -> subprocess.CompletedProcess[bytes]:
                if kind == "cat-file":
                    return _git_in(str(tmp_path), ["cat-file", "--batch"], env,
                                   data=f"{name}\n".encode())  # fmt: skip
                return _git_in(str(tmp_path), ["check-attr", "-z", "filter", "--", name], env)

            first = ask("one")
            assert first.returncode == 0 and first.stdout.startswith(b"one"), first
            started = time.monotonic()
            with pytest.raises(GitTimedOut, match=f"`git {kind}` did not answer within 1s"):
                ask("two")
            assert time.monotonic() - started < 10
            stuck = int(pids.read_text().split()[0])
            assert not Path(f"/proc/{stuck}").exists() or _zombie(stuck), "git was not killed"
            assert ask("three").stdout.startswith(b"three")  # another git, asked afresh
    finally:
        os.environ["PATH"] = old_path


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except OSError:
        return True
