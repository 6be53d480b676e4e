"""A git object rewritten by hand is not "the copy git holds".

git does not check an object's hash when it reads it, so anyone who can write the repository's
``.git/objects`` can make ``git cat-file HEAD:goals/real.md`` give other bytes: no commit, no
ref moved, no reflog line. The agent put a met copy of the goal (verified in a scratch clone in
which the check passed) under the name of HEAD's blob, the same text in the working file, and
stopped: the met entry was one "HEAD holds", the hook let the agent go without running a check
or saying a word, and the object and the file were put back after. Rewriting the tree object on
the path (its entry for the goal naming the met copy's blob) did the same. The hook now checks
what it reads from git: each object hashes to its name, and the commit HEAD names leads to the
blob through the trees on its path; anything else holds the agent, naming the object.

Real goalfile processes, real git repositories.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import (
    approved_repo,
    base_repo,
    clean_env,
    git,
    hook_answer,
    loose_object_file,
    overwrite_object,
    run_goalfile,
)

OK = "exit 0"


def _repo(tmp_path: Path) -> Path:
    """The person's repository: one approved goal, committed, whose check fails."""
    return approved_repo(
        tmp_path / "app", "real", "ok exists", "--check", "test -f ok", "--expected", OK,
        "--non-goal", "nothing else changes",
    )  # fmt: skip


def _met_copy(repo: Path, tmp_path: Path) -> bytes:
    """The goal verified met in a scratch clone in which its check passes (the agent's)."""
    scratch = tmp_path / "scratch"
    git(tmp_path, "clone", "-q", str(repo), str(scratch))
    (scratch / "ok").write_text("", encoding="utf-8")
    done = run_goalfile("verify", "goals/real.md", cwd=scratch)
    assert done.returncode == 0, done.stdout + done.stderr
    return (scratch / "goals" / "real.md").read_bytes()


def _tree_naming(repo: Path, tree: str, name: bytes, blob: str) -> bytes:
    """The raw tree ``tree`` with its entry ``name`` naming ``blob`` instead."""
    raw = git_bytes(repo, "cat-file", "tree", tree)
    out, at = b"", 0
    while at < len(raw):
        space = raw.index(b" ", at)
        nul = raw.index(b"\0", space)
        entry, oid = raw[at : nul + 1], raw[nul + 1 : nul + 21]
        if raw[space + 1 : nul] == name:
            oid = bytes.fromhex(blob)
        out += entry + oid
        at = nul + 21
    return out


def git_bytes(repo: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, check=True, env=clean_env()
    ).stdout


@pytest.mark.parametrize("forged", ["blob", "tree"])
def test_a_rewritten_object_is_no_copy_git_holds(tmp_path: Path, forged: str) -> None:
    repo = _repo(tmp_path)
    met = _met_copy(repo, tmp_path)
    if forged == "blob":
        overwrite_object(repo, git(repo, "rev-parse", "HEAD:goals/real.md").strip(), "blob", met)
    else:  # a blob of the met copy, honestly stored, and the tree on the path rewritten
        blob = subprocess.run(
            ["git", "hash-object", "-w", "--no-filters", "--stdin"], cwd=repo, input=met,
            capture_output=True, check=True, env=clean_env(),
        ).stdout.decode().strip()  # fmt: skip
        tree = git(repo, "rev-parse", "HEAD:goals").strip()
        overwrite_object(repo, tree, "tree", _tree_naming(repo, tree, b"real.md", blob))
    assert git_bytes(repo, "show", "HEAD:goals/real.md") == met  # git reads the agent's copy
    (repo / "goals" / "real.md").write_bytes(met)
    answer = hook_answer(repo)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "do not hold what their names say" in reason and "hash" in reason, reason
    assert "`git -C . fsck` names the object written over" in reason, reason


def test_a_blob_rewritten_after_a_hold_holds_the_agent_sent_back(tmp_path: Path) -> None:
    """The agent held once for its unmet goal (the session's record names the repository)
    rewrites HEAD's blob with a met copy and stops, continuing because of a Stop hook: that
    stop was let go with a message (a repository git cannot list held only an agent not
    already sent back). It is a finding of this stop: held, once; the stop after it is told.
    Put back, then written over again before the next stop, it is another finding: held."""
    repo = _repo(tmp_path)
    met = _met_copy(repo, tmp_path)
    first = hook_answer(repo)
    assert "verify-goal real iteration 0: C1 unmet" in str(first.get("reason")), first
    blob = git(repo, "rev-parse", "HEAD:goals/real.md").strip()
    kept = loose_object_file(repo, blob).read_bytes()
    overwrite_object(repo, blob, "blob", met)
    (repo / "goals" / "real.md").write_bytes(met)
    answer = hook_answer(repo, active=True)
    assert answer.get("decision") == "block", answer
    assert "do not hold what their names say" in str(answer["reason"]), answer
    told = hook_answer(repo, active=True)
    assert told.get("decision") != "block", told
    assert "do not hold what their names say" in str(told.get("systemMessage")), told
    # the real object put back, as the hold says, and the same bytes written over it again
    # before the next stop: another finding
    loose_object_file(repo, blob).unlink()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).write_bytes(kept)
    overwrite_object(repo, blob, "blob", met)
    (repo / "goals" / "real.md").write_bytes(met)
    again = hook_answer(repo, active=True)
    assert again.get("decision") == "block", again
    assert "do not hold what their names say" in str(again["reason"]), again


def test_a_rewritten_tree_does_not_hide_a_committed_goal(tmp_path: Path) -> None:
    """`git rm --cached goals/real.md`, the file moved away, and HEAD's `goals` tree written over
    with the bytes of a tree without it: `git ls-files --with-tree=HEAD` listed no goal, and at
    a session's first stop the hook said "no active goal" and let the agent go without a word.
    The trees the listing reads are checked, and the rewritten one holds the agent."""
    repo = _repo(tmp_path)
    (repo / "goals" / "keep.txt").write_text("keep\n", encoding="utf-8")
    git(repo, "add", "goals/keep.txt")
    git(repo, "commit", "-qm", "keep")
    keep = git(repo, "rev-parse", "HEAD:goals/keep.txt").strip()
    overwrite_object(
        repo, git(repo, "rev-parse", "HEAD:goals").strip(), "tree",
        b"100644 keep.txt\0" + bytes.fromhex(keep),
    )  # fmt: skip
    git(repo, "rm", "-q", "--cached", "goals/real.md")
    (repo / "goals" / "real.md").rename(tmp_path / "real.md")
    assert "goals/real.md" not in git(repo, "ls-files", "--with-tree=HEAD", "--", "goals")
    answer = hook_answer(repo)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "(HEAD:goals) holds bytes whose hash is" in reason, reason
    assert "`git -C . fsck` names the object written over" in reason, reason


def test_a_deleted_object_is_no_goal_head_lacks(tmp_path: Path) -> None:
    """HEAD's blob of the goal deleted from .git/objects (a file the agent owns) and a met copy
    in the working file: git answered "missing", which read as "HEAD holds no such file", so
    the working copy had nothing to continue and its met entry let the agent go without a
    word. HEAD's tree names the blob: its absence holds the agent."""
    repo = _repo(tmp_path)
    met = _met_copy(repo, tmp_path)
    loose_object_file(repo, git(repo, "rev-parse", "HEAD:goals/real.md").strip()).unlink()
    (repo / "goals" / "real.md").write_bytes(met)
    answer = hook_answer(repo)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "names" in reason and "which git's objects lack" in reason, reason
    assert "`git -C . fsck` names the object written over" in reason, reason


def test_a_deleted_object_of_a_staged_goal_is_no_goal_the_index_lacks(tmp_path: Path) -> None:
    """A goal approved and staged, not committed (`goalfile new ... --activate`): its blob
    deleted from .git/objects and a met copy in the working file. git answered "missing" for
    `:0:goals/real.md`, which read as a goal the index does not hold, and the agent stopped
    without a word. The index names the blob: its absence holds the agent."""
    repo = base_repo(tmp_path / "app")
    made = run_goalfile(
        "new", "real", "ok exists", "--check", "test -f ok", "--expected", OK,
        "--non-goal", "nothing else changes", "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    scratch = tmp_path / "scratch"
    shutil.copytree(repo, scratch)
    (scratch / "ok").write_text("", encoding="utf-8")
    assert run_goalfile("verify", "goals/real.md", cwd=scratch).returncode == 0
    loose_object_file(repo, git(repo, "rev-parse", ":goals/real.md").strip()).unlink()
    shutil.copyfile(scratch / "goals" / "real.md", repo / "goals" / "real.md")
    answer = hook_answer(repo)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "which git's objects lack" in reason and ":0:goals/real.md" in reason, reason


def test_a_deleted_tree_is_no_head_without_a_commit(tmp_path: Path) -> None:
    """HEAD's `goals` tree object deleted: `git ls-files --with-tree=HEAD` failed with "unable
    to read tree entries HEAD", which read as a HEAD that names no commit, and the hold's fix
    (`git symbolic-ref HEAD refs/heads/main`, HEAD's own branch) changed nothing. It holds the
    agent as a repository whose objects are not what their names say, with `git fsck`."""
    repo = _repo(tmp_path)
    loose_object_file(repo, git(repo, "rev-parse", "HEAD:goals").strip()).unlink()
    answer = hook_answer(repo)
    assert answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "symbolic-ref" not in reason and "names no commit" not in reason, reason
    assert "`git -C . fsck` names the object written over or missing" in reason, reason
