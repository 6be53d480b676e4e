"""goalfile.gitobjects and gitrepo.git_blobs on real repositories: what git holds honestly reads
back, in both object formats and at any depth; a rewritten blob, tree or commit does not."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest
from conftest import clean_env, overwrite_object

from goalfile.gitobjects import Object, forged, parse_batch, requests, trees_fault
from goalfile.gitrepo import git_blobs, git_head_trees
from goalfile.gitrun import GitUnreadable


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
    overwrite_object(repo, oid, kind, data)


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


def _object(kind: str, data: bytes) -> Object:
    """An honest object: its name is the SHA-1 of its bytes, as git's."""
    return (hashlib.sha1(kind.encode() + b" %d\0" % len(data) + data).hexdigest(), kind, data)


def _tree(*entries: tuple[str, str, Object]) -> Object:
    return _object("tree", b"".join(
        mode.encode() + b" " + name.encode() + b"\0" + bytes.fromhex(obj[0])
        for mode, name, obj in entries
    ))  # fmt: skip


def _commit(tree: Object) -> Object:
    return _object("commit", b"tree " + tree[0].encode() + b"\nauthor t <t@x> 0 +0000\n\nm\n")


def _chain(blob: Object) -> tuple[Object, Object, Object]:
    """The folder, root tree and commit that lead to ``blob`` at goals/a.md."""
    folder = _tree(("100644", "a.md", blob))
    root = _tree(("40000", "goals", folder))
    return folder, root, _commit(root)


def test_objects_that_each_hash_to_their_names_but_do_not_name_each_other_are_refused() -> None:
    """Each object git gives may hash to its own name and still not be the one its parent
    names (git's answer for one name read from another object than the one it gave for the
    path's folder): the commit naming another root tree, a root tree another folder, a folder
    another blob, are each refused; the honest chain passes."""
    blob, decoy = _object("blob", b"the goal\n"), _object("blob", b"the agent's copy\n")
    folder, root, commit = _chain(blob)
    other_folder, other_root, other_commit = _chain(decoy)
    name = "HEAD:goals/a.md"
    honest = dict(zip(requests(name), [commit, root, folder, blob], strict=True))
    assert forged(name, honest) is None
    for ask, swapped in [
        ("HEAD^{commit}", other_commit),  # names another tree than the one git gave
        ("HEAD^{tree}", other_root),  # the commit does not name it
        ("HEAD:goals", other_folder),  # the root tree names another folder
        (name, decoy),  # the folder names another blob
    ]:
        why = forged(name, {**honest, ask: swapped})
        assert why is not None and "names" in why, (ask, why)
    elsewhere = _tree(("100644", "b.md", blob))  # no entry a.md, yet git gave a blob for it
    root_b = _tree(("40000", "goals", elsewhere))
    chain = [_commit(root_b), root_b, elsewhere, blob]
    why = forged(name, dict(zip(requests(name), chain, strict=True)))
    assert why is not None and "names nothing for 'a.md'" in why, why
    assert trees_fault(["goals"], {k: v for k, v in honest.items() if k != name}) is None
    why = trees_fault(["goals"], {"HEAD^{commit}": other_commit, "HEAD^{tree}": root})
    assert why is not None and "does not name the tree" in why, why


def test_an_answer_cut_short_is_no_answer() -> None:
    """git's batch answer cut inside an object's bytes (or before a name's line) reads as
    None, not as a shorter object."""
    blob = _object("blob", b"the goal\n")
    whole = f"{blob[0]} blob {len(blob[2])}\n".encode() + blob[2] + b"\n"
    assert parse_batch(whole, ["HEAD:a.md"]) == {"HEAD:a.md": blob}
    assert parse_batch(whole[:-4], ["HEAD:a.md"]) is None
    assert parse_batch(whole, ["HEAD:a.md", "HEAD:b.md"]) is None
