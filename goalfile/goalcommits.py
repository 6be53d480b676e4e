"""The versions of one goal file committed after a git revision, oldest first: what
``audit --against REF`` holds a goal new since ``REF`` to (see :mod:`goalfile.audit`).

A few git processes, however many commits: one ``git log`` lists the commits of the branch's
own line (``--first-parent``, a merge as its change against that line; for the merge commit
a pull request's CI checks out, the line of the branch it merges) that changed the file,
following a rename (``--follow``), with the blob each left; one ``git cat-file --batch``
reads those blobs. History is read as committed (no replace refs), as
:func:`goalfile.run.git_show` reads it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from goalfile.errors import UsageError
from goalfile.files import ENCODING, ERRORS
from goalfile.run import GitTimedOut, _commit, _git_in, _history_git, first_message_line


@dataclass(frozen=True, kw_only=True)
class Version:
    """The goal file as one commit left it."""

    commit: str  # the full commit id
    text: str

    @property
    def short(self) -> str:
        return self.commit[:12]


def blob_ids(log: bytes) -> list[tuple[str, str | None]]:
    """``(commit, blob)`` of each commit ``git log --raw -z --format=%x01%H`` printed, in its
    order; the blob is None where the commit deleted the file. Pure."""
    found: list[tuple[str, str | None]] = []
    for chunk in log.split(b"\x01")[1:]:
        fields = chunk.split(b"\0")
        commit = fields[0].decode("ascii", errors="replace").strip()
        blob: str | None = None
        for field in fields[1:]:
            meta = field.strip()
            if meta.startswith(b":"):  # `:old_mode new_mode old_blob new_blob status`
                parts = meta.decode("ascii", errors="replace").split()
                if len(parts) >= 5:
                    blob = None if parts[3].strip("0") == "" else parts[3]
        if commit:
            found.append((commit, blob))
    return found


def batch_texts(data: bytes) -> dict[str, str]:
    """The blobs a ``git cat-file --batch`` answer holds, by id. Pure."""
    texts: dict[str, str] = {}
    at = 0
    while at < len(data):
        end = data.find(b"\n", at)
        if end < 0:
            break
        head = data[at:end].split()
        at = end + 1
        if len(head) != 3:  # `ID missing`
            continue
        size = int(head[2])
        texts[head[0].decode("ascii")] = data[at : at + size].decode(ENCODING, ERRORS)
        at += size + 1  # the content, then a newline
    return texts


def _branch_log(
    ref: str, cwd: str, env: Mapping[str, str] | None, options: list[str], paths: list[str]
) -> bytes:
    """``git log --first-parent -m OPTIONS REF..TIP -- PATHS``: the commits after ``ref`` on
    the branch's own line (see :func:`_tip`), a merge as its change against that line."""
    git = _history_git(cwd, env)
    base = _commit(git, ref, cwd)
    tip = _tip(git, base)
    cut = _cut_at(git, base, tip, cwd)
    if cut is not None:
        raise UsageError(
            f"this clone is shallow: its history stops at commit {cut[:12]}, between {ref} and "
            "HEAD, so the versions of the goals committed since cannot all be read",
            hint="`git fetch --unshallow` (in GitHub Actions: fetch-depth: 0 in actions/checkout)",
        )
    log = git("log", "--first-parent", "-m", *options, f"{base}..{tip}", "--", *paths)
    if log.returncode != 0:
        raise UsageError(f"git log {ref}..HEAD failed: {first_message_line(log.stderr)}")
    return log.stdout


def _cut_at(
    git: Callable[..., subprocess.CompletedProcess[bytes]], base: str, tip: str, cwd: str
) -> str | None:
    """In a shallow clone, a commit after ``base`` on the way to ``tip`` whose parents the
    clone lacks (git's ``shallow`` file lists them): the walk would stop there and read a
    goal's later version as its first. None in a full clone, or when the cut lies before
    ``base`` (the history after it is whole)."""
    shallow = git("rev-parse", "--is-shallow-repository")
    if shallow.returncode != 0 or shallow.stdout.strip() != b"true":
        return None
    where = git("rev-parse", "--git-path", "shallow")
    try:
        listed = (Path(cwd) / os.fsdecode(where.stdout.strip())).read_bytes().split()
    except OSError:
        return None
    cuts = {line.decode("ascii", errors="replace") for line in listed}
    after = git("rev-list", f"{base}..{tip}")
    if after.returncode != 0:
        raise UsageError(f"git rev-list failed: {first_message_line(after.stderr)}")
    commits = after.stdout.decode("ascii", errors="replace").split()
    return next((commit for commit in commits if commit in cuts), None)


def _tip(git: Callable[..., subprocess.CompletedProcess[bytes]], base: str) -> str:
    """Where the branch's line ends: HEAD, or, when HEAD merges a branch into ``base`` (its
    first parent is in ``base``: the commit CI checks out for a pull request, GitHub's
    ``refs/pull/N/merge``), the branch merged, its second parent. Its first-parent line would
    be the base's, and the branch one merge commit."""
    second = git("rev-parse", "--verify", "--quiet", "HEAD^2")
    if second.returncode != 0:
        return "HEAD"
    if git("merge-base", "--is-ancestor", "HEAD^1", base).returncode != 0:
        return "HEAD"
    return second.stdout.decode("ascii", errors="replace").strip()


def deleted_goal_paths(*, ref: str, cwd: str, env: Mapping[str, str] | None = None) -> list[str]:
    """The ``*.md`` files under ``goals/`` and ``.zetetic/goals/`` of ``cwd`` that a commit
    after ``ref`` on HEAD's line deleted (a rename is not a deletion), relative to ``cwd``,
    each once, as git stores the name. Raises :class:`~goalfile.errors.UsageError` as
    :func:`goalfile.run.git_show` does."""
    # -M: a goal moved within goals/ is renamed, not deleted, whatever diff.renames says
    options = ["-M", "--diff-filter=D", "--name-only", "--relative", "-z", "--format="]
    log = _branch_log(ref, cwd, env, options, ["goals", ".zetetic/goals"])
    names = [os.fsdecode(name).strip("\n") for name in log.split(b"\0")]
    return list(dict.fromkeys(name for name in names if name.endswith(".md")))


def committed_versions(
    *, ref: str, path: str, cwd: str, env: Mapping[str, str] | None = None
) -> list[Version]:
    """The goal file ``path`` (relative to ``cwd``) as each commit after ``ref`` on HEAD's
    line left it, oldest first; a commit that deleted it leaves no version. Raises
    :class:`~goalfile.errors.UsageError` as :func:`goalfile.run.git_show` does."""
    options = ["--follow", "--no-abbrev", "--raw", "-z", "--format=%x01%H"]
    log = _branch_log(ref, cwd, env, options, [path])
    listed = list(reversed(blob_ids(log)))
    wanted = list(dict.fromkeys(blob for _, blob in listed if blob is not None))
    if not wanted:
        return []
    history_env = {**(env if env is not None else os.environ), "GIT_NO_REPLACE_OBJECTS": "1"}
    try:
        read = _git_in(
            cwd,
            ["--no-replace-objects", "cat-file", "--batch"],
            history_env,
            data="".join(f"{blob}\n" for blob in wanted).encode("ascii"),
        )
    except GitTimedOut as exc:
        raise UsageError(str(exc)) from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"git cannot be run in {cwd}: {exc}") from None
    if read.returncode != 0:
        raise UsageError(f"git cat-file failed: {first_message_line(read.stderr)}")
    texts = batch_texts(read.stdout)
    return [
        Version(commit=commit, text=texts[blob])
        for commit, blob in listed
        if blob is not None and blob in texts
    ]
