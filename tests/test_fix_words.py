"""A printed fix holds no command substitution: Gemini CLI's shell tool refuses a command with
`$(...)`, backticks or `<(...)` outside single quotes ("Command injection detected"), so a fix
that held one could not be run as written there. Three fixes held one: a name that is not
UTF-8 (or holds a control character) was `"$(printf 'goals/\\377.md')"`, a `git show` of a
path given whole made it relative with `"$(realpath --relative-to=. PATH)"`, and the lock
folder's fix was `export TMPDIR="$(mktemp -d ...)"`. Each situation is brought about here, the
real goalfile prints its fix, and the fix is run by bash (the shell of the hosts' tools) to the
effect it promises; tests/hosts/test_gemini_fix_words.py puts the same fixes through the real
Gemini CLI's own check."""

from __future__ import annotations

import ast
import json
import os
import re
import stat
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO, WITH_GOALFILE, clean_env, git, make_git_repo, run_goalfile, stop_input

FIX = re.compile(r"fix: (.*)")
SPAN = re.compile(r"`([^`]+)`")


def commands(text: str) -> list[str]:
    return [span for fix in FIX.findall(text) for span in SPAN.findall(fix)]


def bash(
    command: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=clean_env({**WITH_GOALFILE, **(env or {})}),
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@dataclass(frozen=True)
class Printed:
    """A fix goalfile printed, where to run it, and what must hold once it has run."""

    command: str
    cwd: Path
    env: dict[str, str]
    holds: Callable[[subprocess.CompletedProcess[str]], None]


def _goal(repo: Path, slug: str = "g") -> None:
    made = run_goalfile(
        "new", slug, "x", "--check", "true", "--expected", "exit 0", "--activate", cwd=repo
    )
    assert made.returncode == 0, made.stderr


def name_not_utf8(tmp_path: Path) -> Printed:
    """A file under goals/ whose name is not UTF-8: the Stop hook names the command that lists
    its problems."""
    repo = make_git_repo(tmp_path / "repo")
    _goal(repo)
    git(repo, "commit", "-q", "-m", "goal")
    assert run_goalfile("verify", "goals/g.md", cwd=repo).returncode == 0
    git(repo, "commit", "-q", "-am", "met")
    (repo / "goals" / os.fsdecode(b"\xff.md")).write_bytes(b"not a goal\n")
    done = run_goalfile("hook", "stop", cwd=repo, input=stop_input(repo))
    reason = json.loads(done.stdout)["reason"]
    (command,) = [c for c in SPAN.findall(reason) if c.startswith("goalfile lint")]
    assert command == "goalfile lint $'goals/\\377.md'", reason

    def holds(ran: subprocess.CompletedProcess[str]) -> None:  # lint read that very file
        assert "goals/\\udcff.md" in ran.stdout + ran.stderr, ran
        assert "does not start with YAML frontmatter" in ran.stdout + ran.stderr, ran

    return Printed(command, repo, {}, holds)


def path_given_whole(tmp_path: Path) -> Printed:
    """A goal file with git's conflict markers, named by its whole path: the fix shows the
    other side's file, with git run in the goal's folder (it was `git show
    ":3:./$(realpath --relative-to=. /repo/goals/g.md)"`), from any folder."""
    repo = make_git_repo(tmp_path / "repo")
    _goal(repo)
    git(repo, "commit", "-q", "-m", "goal")
    path = repo / "goals" / "g.md"
    text = path.read_text()
    git(repo, "checkout", "-q", "-b", "other")
    path.write_text(text.replace("# Goal: x", "# Goal: theirs"))
    git(repo, "commit", "-q", "-am", "theirs")
    git(repo, "checkout", "-q", "-")
    path.write_text(text.replace("# Goal: x", "# Goal: ours"))
    git(repo, "commit", "-q", "-am", "ours")
    merged = subprocess.run(["git", "merge", "-q", "other"], cwd=repo, capture_output=True)
    assert merged.returncode != 0  # the conflict
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = run_goalfile("lint", str(path), cwd=elsewhere)
    assert done.returncode == 3, done.stderr
    (command,) = [c for c in commands(done.stdout + done.stderr) if ":3:" in c]
    assert command == f"git -C {repo / 'goals'} show :3:./g.md", command

    def holds(ran: subprocess.CompletedProcess[str]) -> None:
        assert ran.returncode == 0 and "# Goal: theirs" in ran.stdout, ran

    return Printed(command, elsewhere, {}, holds)


def lock_folder_not_private(tmp_path: Path) -> Printed:
    """The lock folder in the shared temporary folder is not this user's private one (another
    user could plant links in it): the fix makes one in the user's home, then runs verify."""
    repo = make_git_repo(tmp_path / "repo")
    _goal(repo)
    shared = tmp_path / "tmp"
    shared.mkdir()
    locks = shared / f"goalfile-locks-{os.getuid()}"
    locks.mkdir()
    locks.chmod(0o777)
    home = tmp_path / "home"
    home.mkdir()
    env = {"TMPDIR": str(shared), "HOME": str(home)}
    done = run_goalfile("verify", "goals/g.md", cwd=repo, env=env)
    assert done.returncode == 3 and "not a private folder" in done.stderr, done.stderr
    found = commands(done.stderr)
    assert found[-1] == "goalfile verify goals/g.md", done.stderr
    command = " && ".join(found)  # in one shell: the export holds for the verify

    def holds(ran: subprocess.CompletedProcess[str]) -> None:
        assert ran.returncode == 0, ran
        assert "status: met" in (repo / "goals" / "g.md").read_text()
        assert stat.S_IMODE((home / ".goalfile-tmp").stat().st_mode) == 0o700

    return Printed(command, repo, env, holds)


SITUATIONS = [name_not_utf8, path_given_whole, lock_folder_not_private]


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda f: f.__name__)
def test_the_fix_runs_in_bash_as_written_with_no_command_substitution(
    tmp_path: Path, situation: Callable[[Path], Printed]
) -> None:
    printed = situation(tmp_path)
    assert "$(" not in printed.command and "`" not in printed.command, printed.command
    printed.holds(bash(printed.command, printed.cwd, printed.env))


def test_no_fix_in_the_source_holds_a_command_substitution() -> None:
    """Every string goalfile writes (docstrings aside): no code span in it holds `$(` or
    `<(`, but lint's messages on a check's own command (a tab made with printf, a `test -z`
    that drops a status): a check runs in the goal's shell, not in a host's tool."""
    found = []
    for path in sorted((REPO / "goalfile").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in docs:
                    continue
                for span in SPAN.findall(node.value):
                    if "$(" in span or "<(" in span or ">(" in span:
                        found.append(f"{path.relative_to(REPO)}: {span}")
    checks = {"goalfile/lint.py: $(printf '\\t')", 'goalfile/lint.py: test -z "$(...)"'}
    assert set(found) <= checks, found
