"""Goal files, review artifacts and transcripts that are not regular files are refused.

A symlink to ``/dev/zero`` (endless zeros), to ``/dev/urandom`` (endless bytes), or a FIFO
(an open that waits for a writer, and a read that never ends) would make a reader grow until
memory runs out or block forever. Each is named as the goal file of every reading command, as
the artifact of a review (the device node itself, inside the working tree), and as the
transcript of ``verify``: a real ``goalfile`` process must
exit 3 within seconds, name the path and say it is not a regular file, print no traceback, and
leave the goal file as it was.
"""

from __future__ import annotations

import os
import resource
import stat
import subprocess
from pathlib import Path

import pytest
from reliability_support import activate, goal_text, make_repo, no_traceback, run_goalfile

SPECIAL = ["dev-zero", "dev-urandom", "fifo"]
TIMEOUT = 30  # a reader that blocks or grows would pass this; the refusal takes well under it
MEMORY = 2 << 30  # address space of each goalfile process: a reader of /dev/zero stops here


def limit_memory() -> None:
    """Run in the child before goalfile starts: a regression fails the test with a
    MemoryError instead of growing until the machine's OOM killer ends it."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def goalfile(*args: str | os.PathLike[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_goalfile(*args, cwd=cwd, timeout=TIMEOUT, preexec_fn=limit_memory)


DEVICES = {"dev-zero": (1, 5), "dev-urandom": (1, 9)}  # Linux's major and minor numbers


def special(folder: Path, kind: str, name: str, *, node: bool = False) -> Path:
    """A FIFO, or a symlink to the device (with ``node``, the device node itself, made here:
    an artifact must be inside the working tree, and a symlink out of it is refused anyway)."""
    target = folder / name
    if kind == "fifo":
        os.mkfifo(target)
    elif node:
        os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(*DEVICES[kind]))
    else:
        target.symlink_to("/dev/" + kind.removeprefix("dev-"))
    return target


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "repo")
    (root / "README.md").write_text("hello from the readme\n", encoding="utf-8")
    return root


def refused(done: object, name: str) -> None:
    assert hasattr(done, "returncode") and hasattr(done, "stderr")
    no_traceback(done)  # type: ignore[arg-type]
    assert done.returncode == 3, (done.returncode, done.stderr)
    assert name in done.stderr and "not a regular file" in done.stderr, done.stderr


@pytest.mark.parametrize("kind", SPECIAL)
@pytest.mark.parametrize(
    "command",
    [
        ["lint"],
        ["status"],
        ["verify"],
        ["activate"],
        ["budget", "--iterations", "9"],
        ["pause"],
        ["audit"],
    ],
    ids=lambda c: c[0],
)
def test_a_goal_path_that_is_not_a_regular_file(repo: Path, kind: str, command: list[str]) -> None:
    path = special(repo / "goals", kind, "demo.md")
    done = goalfile(command[0], path, *command[1:], cwd=repo)
    refused(done, "demo.md")


@pytest.mark.parametrize("kind", SPECIAL)
def test_a_review_artifact_that_is_not_a_regular_file(repo: Path, kind: str) -> None:
    special(repo, kind, "notes.md", node=True)
    review = "| R1 | the notes say hello | `notes.md` | says hello | review |"
    text = goal_text().replace("| C1 | criterion of C1 |", f"{review}\n| C1 | criterion of C1 |")
    path = repo / "goals" / "demo.md"
    path.write_text(text, encoding="utf-8")
    activate(path, repo)
    before = path.read_bytes()
    done = goalfile(
        "review", path, "R1", "--artifact", "notes.md", "--quote", "hello", "--verdict", "met",
        cwd=repo,
    )  # fmt: skip
    refused(done, "notes.md")
    assert path.read_bytes() == before


@pytest.mark.parametrize("kind", SPECIAL)
def test_a_transcript_that_is_not_a_regular_file(repo: Path, kind: str) -> None:
    transcript = special(repo, kind, "session.jsonl")
    path = repo / "goals" / "demo.md"
    path.write_text(goal_text().replace("tokens: null ", "tokens: 1000 "), encoding="utf-8")
    activate(path, repo)
    before = path.read_bytes()
    done = goalfile("verify", path, "--transcript", transcript, cwd=repo)
    refused(done, "session.jsonl")
    assert path.read_bytes() == before
