"""goalfile.gitobjects and run.git_blobs on real repositories: what git holds honestly reads
back, in both object formats and at any depth; a rewritten blob, tree or commit does not."""

from __future__ import annotations

import subprocess
import zlib
from pathlib import Path

import pytest
from conftest import clean_env

from goalfile.gitobjects import requests
from goalfile.run import GitUnreadable, git_blobs, git_head_trees


def _git(repo: Path, *args: str, data: bytes | None = None) -> str:
    done = subprocess.run(
        ["git", *args], cwd=repo, input=data, capture_output=True, check=True, env=clean_env()
    )
    return done.stdout.decode().strip()


def _repo(tmp_path: Path, form: str) -> Path:
    repo = tmp_path / form
    repo.mkdir()
    _git(repo, "init", "-q", f"--object-format={form}")
    for path in ("goals/a.md", ".zetetic/goals/team/b.md", "top.md"):
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(f"text of {path}\n", encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "goals")
    return repo


NAMES = ["HEAD:goals/a.md", "HEAD:.zetetic/goals/team/b.md", "HEAD:top.md", ":0:goals/a.md"]


def test_requests_walk_the_path() -> None:
    assert requests("HEAD:goals/team/b.md") == [
        "HEAD^{commit}", "HEAD^{tree}", "HEAD:goals", "HEAD:goals/team", "HEAD:goals/team/b.md",
    ]  # fmt: skip
    assert requests(":0:goals/a.md") == [":0:goals/a.md"]


@pytest.mark.parametrize("form", ["sha1", "sha256"])
def test_what_git_holds_reads_back(tmp_path: Path, form: str) -> None:
    repo = _repo(tmp_path, form)
    got = git_blobs(str(repo), [*NAMES, "HEAD:goals/none.md", "HEAD:goals"])
    assert got[0] == b"text of goals/a.md\n"
    assert got[1] == b"text of .zetetic/goals/team/b.md\n"
    assert got[2] == b"text of top.md\n"
    assert got[3] == b"text of goals/a.md\n"
    assert got[4:] == [None, None]  # no such file; a folder is no blob


def _overwrite(repo: Path, name: str, data: bytes) -> None:
    oid = _git(repo, "rev-parse", name)
    kind = _git(repo, "cat-file", "-t", oid)
    path = repo / ".git" / "objects" / oid[:2] / oid[2:]
    path.chmod(0o644)
    path.write_bytes(zlib.compress(kind.encode() + b" %d\0" % len(data) + data))


def _raw(repo: Path, oid: str) -> bytes:
    kind = _git(repo, "cat-file", "-t", oid)
    return subprocess.run(
        ["git", "cat-file", kind, oid], cwd=repo, capture_output=True, check=True,
        env=clean_env(),
    ).stdout  # fmt: skip


@pytest.mark.parametrize("form", ["sha1", "sha256"])
@pytest.mark.parametrize("what", ["HEAD:goals/a.md", "HEAD:goals", "HEAD^{tree}", "HEAD"])
def test_a_rewritten_object_on_the_way_is_refused(tmp_path: Path, form: str, what: str) -> None:
    """The object ``what`` names is written over with the bytes of an honest object that leads
    to the agent's copy instead (a blob, a tree naming another blob, a root tree naming
    another folder, a commit naming another tree): git reads the agent's copy as HEAD's, and
    git_blobs refuses it."""
    repo = _repo(tmp_path, form)
    decoy = _git(repo, "hash-object", "-w", "--stdin", data=b"the agent's copy\n")
    folder = _git(repo, "mktree", data=f"100644 blob {decoy}\ta.md\n".encode())
    root = _git(repo, "mktree", data=f"040000 tree {folder}\tgoals\n".encode())
    commit = _raw(repo, _git(repo, "rev-parse", "HEAD"))
    honest = {
        "HEAD:goals/a.md": _raw(repo, decoy),
        "HEAD:goals": _raw(repo, folder),
        "HEAD^{tree}": _raw(repo, root),
        "HEAD": b"tree " + root.encode() + commit[commit.index(b"\n") :],
    }[what]
    _overwrite(repo, what, honest)
    assert _git(repo, "show", "HEAD:goals/a.md") == "the agent's copy"  # what git now reads
    with pytest.raises(GitUnreadable, match="do not hold what their names say"):
        git_blobs(str(repo), ["HEAD:goals/a.md"])


@pytest.mark.parametrize("form", ["sha1", "sha256"])
def test_honest_trees_of_the_goal_folders_pass(tmp_path: Path, form: str) -> None:
    repo = _repo(tmp_path, form)
    git_head_trees(str(repo), ["goals", ".zetetic/goals", "plans"])  # raises nothing


def test_a_rewritten_tree_below_a_goal_folder_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "sha1")
    team = _git(repo, "rev-parse", "HEAD:.zetetic/goals/team")
    _overwrite(repo, "HEAD:.zetetic/goals/team", _raw(repo, team).replace(b"b.md", b"c.md"))
    with pytest.raises(GitUnreadable, match=r"HEAD:\.zetetic/goals/team"):
        git_head_trees(str(repo), ["goals", ".zetetic/goals"])


def test_a_goal_folder_that_is_a_submodule_is_no_fault(tmp_path: Path) -> None:
    """A commit of another repository at `goals` (a submodule) is no object of this one: its
    absence is no rewritten tree."""
    repo = _repo(tmp_path, "sha1")
    _git(repo, "rm", "-q", "-r", "--cached", "goals")
    _git(repo, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},goals")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "submodule")
    git_head_trees(str(repo), ["goals", ".zetetic/goals"])  # raises nothing
