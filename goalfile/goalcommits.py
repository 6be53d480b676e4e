"""The versions of one goal file committed after a git revision, oldest first: what
``audit --against REF`` holds a goal new since ``REF`` to (see :mod:`goalfile.audit`).

A few git processes, however many commits: one ``git log -M`` per part of the branch's own
line (``--first-parent``, a merge as its change against that line; a merge whose first
parent is in the base, such as the one a pull request's CI checks out, read after the line it
merges: :func:`_line_tips`), renames onto the file traced here (:func:`path_blobs`), with the
blob each left; one ``git cat-file --batch`` reads those blobs. History is read as committed
(no replace refs), as :func:`goalfile.githistory.git_show` reads it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from goalfile.errors import UsageError
from goalfile.files import ENCODING, ERRORS
from goalfile.githistory import _commit, _history_git, forged_error
from goalfile.goalfolders import GOAL_FOLDERS
from goalfile.run import first_message_line
from goalfile.shellword import shell_word


@dataclass(frozen=True, kw_only=True)
class Version:
    """The goal file as one commit left it."""

    commit: str  # the full commit id
    text: str

    @property
    def short(self) -> str:
        return self.commit[:12]


def path_blobs(log: bytes, path: str) -> list[tuple[str, str | None]]:
    """``(commit, blob)`` of each change to ``path`` that ``git log -M --raw -z
    --format=%x01%H`` printed (newest first, as git prints them), following renames onto it
    backwards: once a commit renamed a file onto a name followed, that file's own name is
    followed too, in the commits before it; the blob is None where a commit deleted a name
    followed or renamed it away. Pure."""
    followed = {path}
    found: list[tuple[str, str | None]] = []
    for commit, _, records in _records(log):
        for kind, old, new, blob in records:
            if new in followed and kind != "D":
                found.append((commit, blob))
                if kind == "R":
                    followed.add(old)
            elif old in followed and kind in "DR":
                found.append((commit, None))
    return found


def _records(log: bytes) -> list[tuple[str, int, list[tuple[str, str, str, str | None]]]]:
    """Each commit chunk of ``git log -m --raw -z --format=%x01%H %P`` (``%P`` may be left
    out): the commit, how many parents it has, and its records ``(kind, old name, new name,
    new blob)``. A merge is one chunk per parent its tree differs from. Pure."""
    chunks = []
    for chunk in log.split(b"\x01")[1:]:
        fields = chunk.split(b"\0")
        head = fields[0].decode("ascii", errors="replace").split()
        if not head:
            continue
        records = []
        at = 1
        while at < len(fields):
            meta = fields[at].strip()
            at += 1
            parts = meta.decode("ascii", errors="replace").split()
            if not meta.startswith(b":") or len(parts) < 5:
                continue
            kind = parts[4][:1]
            names = [os.fsdecode(name) for name in fields[at : at + (2 if kind in "RC" else 1)]]
            at += len(names)
            blob = None if parts[3].strip("0") == "" else parts[3]
            records.append((kind, names[0], names[-1], blob))
        chunks.append((head[0], max(len(head) - 1, 1), records))
    return chunks


def _followed(
    chunks: list[tuple[str, int, list[tuple[str, str, str, str | None]]]], path: str
) -> set[str]:
    """``path`` and every name a commit on any line renamed onto it, or onto such a name."""
    followed = {path}
    grown = True
    while grown:  # to a fixed point: the order of git's listing follows forgeable dates
        size = len(followed)
        for _, _, records in chunks:
            for kind, old, new, _ in records:
                if kind == "R" and new in followed:
                    followed.add(old)
        grown = len(followed) > size
    return followed


def side_blobs(log: bytes, path: str, known: set[str]) -> list[tuple[str, str]]:
    """``(commit, blob)`` of every version of ``path`` (or of a file renamed onto it on any
    line) that a commit of ``log`` not in ``known`` left, each once, newest first. Pure."""
    chunks = _records(log)
    followed = _followed(chunks, path)
    found: dict[tuple[str, str], None] = {}
    for commit, _, records in chunks:
        for kind, _, new, blob in records:
            if commit not in known and kind != "D" and new in followed and blob is not None:
                found[(commit, blob)] = None
    return list(found)


def batch_texts(data: bytes, shown: str) -> dict[str, str]:
    """The blobs a ``git cat-file --batch`` answer holds, by id, each checked against its
    name: git does not hash an object when it reads it, so a blob written over by hand would
    be read as a version the branch committed. Raises
    :class:`~goalfile.errors.UsageError` naming the object (``shown`` says what was read)."""
    from goalfile.gitobjects import hash_fault

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
        name, kind = head[0].decode("ascii"), head[1].decode("ascii", "replace")
        why = hash_fault((name, kind, data[at : at + size]))
        if why is not None:
            raise forged_error(shown, why)
        texts[name] = data[at : at + size].decode(ENCODING, ERRORS)
        at += size + 1  # the content, then a newline
    return texts


def _branch_logs(
    ref: str,
    cwd: str,
    env: Mapping[str, str] | None,
    options: list[str],
    paths: list[str],
    *,
    first_parent: bool = True,
) -> list[bytes]:
    """``git log --first-parent -m OPTIONS REF..TIP -- PATHS`` for each part of the branch's
    own line (:func:`_line_tips`, from HEAD), newest part first, each merge as its change
    against that line; without ``first_parent``, one ``git log -m`` of every commit after
    ``ref`` (a merge against each of its parents)."""
    git = _history_git(cwd, env)
    base = _commit(git, ref, cwd)
    tip = "HEAD"
    cut = _cut_at(git, base, tip, cwd)
    if cut is not None:
        raise UsageError(
            f"this clone is shallow: its history stops at commit {cut[:12]}, between {ref} and "
            "HEAD, so the versions of the goals committed since cannot all be read",
            hint="`git fetch --unshallow` (in GitHub Actions: fetch-depth: 0 in actions/checkout)",
        )
    tips = _line_tips(git, base, tip, ref) if first_parent else [tip]
    walk = ["--first-parent"] if first_parent else []
    found = []
    for part in tips:
        log = git("log", *walk, "-m", *options, f"{base}..{part}", "--", *paths)
        if log.returncode != 0:
            raise UsageError(f"git log {ref}..HEAD failed: {first_message_line(log.stderr)}")
        found.append(log.stdout)
    return found


def _line_tips(
    git: Callable[..., subprocess.CompletedProcess[bytes]], base: str, tip: str, ref: str
) -> list[str]:
    """Where each part of the branch's own line ends, newest first: ``tip``'s first-parent
    line down to ``base``; and when its oldest commit is a merge whose first parent ``base``
    holds and whose other parent does not, that parent's line before it, and so on. The
    merge CI checks out for a pull request (GitHub's ``refs/pull/N/merge``, first parent the
    base) is one such merge: the branch it merges is read before it. A branch can end in one
    too, a fast-forward of its old tip (``git commit-tree -p main -p OLD``): walking only the
    line of HEAD^2 once, as goalfile did, read the goal from that merge, or from a side line
    of the agent's, and never the old tip's commits, where the person's approval was."""
    tips = [tip]
    while True:
        listed = git("rev-list", "--first-parent", f"{base}..{tips[-1]}")
        if listed.returncode != 0:
            raise UsageError(f"git rev-list failed: {first_message_line(listed.stderr)}")
        commits = listed.stdout.decode("ascii", errors="replace").split()
        if not commits:
            return tips
        parents = git("rev-list", "--parents", "-n", "1", commits[-1])
        others = [
            parent
            for parent in parents.stdout.decode("ascii", errors="replace").split()[2:]
            if git("merge-base", "--is-ancestor", parent, base).returncode != 0
        ]
        if not others:
            return tips
        if len(others) > 1:
            raise UsageError(
                f"commit {commits[-1][:12]} merges {len(others)} lines of history after {ref} "
                f"into {ref} itself, so the branch's own line cannot be told",
                hint=f"`git log --graph --oneline {shell_word(ref)}..HEAD` shows the lines it "
                "merges; a branch whose merges have two parents, its own line first, is "
                "audited",
            )
        tips.append(others[0])


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


def deleted_goal_paths(*, ref: str, cwd: str, env: Mapping[str, str] | None = None) -> list[str]:
    """The ``*.md`` files under ``goals/`` and ``.zetetic/goals/`` of ``cwd`` that a commit
    after ``ref`` deleted (a rename is not a deletion), and that a commit after ``ref`` added
    or changed, relative to ``cwd``, each once, as git stores the name. Every commit counts,
    each merge against each of its parents: a branch that ends in a merge whose first parent
    is the base (a fast-forward of its old tip) drops a goal its old tip held, which no
    first-parent walk sees. A goal the base deleted that the branch never changed is not
    one (the merge CI checks out drops it against the branch). Raises
    :class:`~goalfile.errors.UsageError` as :func:`goalfile.githistory.git_show` does."""
    folders = list(GOAL_FOLDERS)

    def named(kinds: str) -> list[str]:
        # -M: a goal moved within goals/ is renamed, not deleted, whatever diff.renames says
        options = ["-M", f"--diff-filter={kinds}", "--name-only", "--relative", "-z", "--format="]
        (log,) = _branch_logs(ref, cwd, env, options, folders, first_parent=False)
        names = [os.fsdecode(name).strip("\n") for name in log.split(b"\0")]
        return [name for name in names if name.endswith(".md")]

    deleted = named("D")
    if not deleted:
        return []
    changed = set(named("AMR"))
    return list(dict.fromkeys(name for name in deleted if name in changed))


def committed_versions(
    *, ref: str, path: str, cwd: str, env: Mapping[str, str] | None = None
) -> list[Version]:
    """The goal file ``path`` (relative to ``cwd``) as each commit after ``ref`` on HEAD's
    line left it, oldest first; a commit that deleted it leaves no version. Raises
    :class:`~goalfile.errors.UsageError` as :func:`goalfile.githistory.git_show` does.

    Renames are traced here, not by ``git log --follow``: ``--follow`` also takes a file
    *copied* from any file of the commit before for the same file (an honest second goal made
    from the same template was held to the first one's history), and it never reads the
    path's own life before a rename onto it (a goal deleted in one commit and replaced by a
    ``git mv`` of the agent's goal in the next was held to the agent's goal alone). Every
    version the path itself had counts, and every version of a file renamed onto it."""
    return branch_versions(ref=ref, path=path, cwd=cwd, env=env)[0]


def branch_versions(
    *, ref: str, path: str, cwd: str, env: Mapping[str, str] | None = None
) -> tuple[list[Version], list[Version]]:
    """:func:`committed_versions`, and the versions of the goal file that commits on the
    branch's other lines left (a line merged in, whichever parent it is), newest first: audit
    holds the goal to an approval committed there too (:func:`goalfile.audit.audit_branch`)."""
    prefix = _history_git(cwd, env)("rev-parse", "--show-prefix")
    if prefix.returncode != 0:
        raise UsageError(f"git rev-parse failed: {first_message_line(prefix.stderr)}")
    # names from the top, every folder: a `git mv` from goals/ to .zetetic/goals/ is followed
    whole = os.fsdecode(prefix.stdout.rstrip(b"\n")) + path
    options = ["-M", "--no-abbrev", "--raw", "-z", "--format=%x01%H"]
    listed: list[tuple[str, str | None]] = []
    for log in _branch_logs(ref, cwd, env, options, [":/"]):
        listed += path_blobs(log, whole)
    walked = {commit for commit, _ in listed}
    # the versions on the branch's other lines: an approval committed there (the old tip
    # merged with `git merge -s ours` into a line of the agent's own) is held to as well
    options = ["-M", "--no-abbrev", "--raw", "-z", "--format=%x01%H %P"]
    (every,) = _branch_logs(ref, cwd, env, options, [":/"], first_parent=False)
    listed.reverse()
    side = side_blobs(every, whole, walked)
    wanted = list(dict.fromkeys([*(b for _, b in listed if b is not None), *(b for _, b in side)]))
    if not wanted:
        return [], []
    asked = "".join(f"{blob}\n" for blob in wanted).encode("ascii")
    read = _history_git(cwd, env)("cat-file", "--batch", data=asked)
    if read.returncode != 0:
        raise UsageError(f"git cat-file failed: {first_message_line(read.stderr)}")
    texts = batch_texts(read.stdout, f"{ref}..HEAD:{path}")
    return (
        [Version(commit=c, text=texts[b]) for c, b in listed if b is not None and b in texts],
        [Version(commit=c, text=texts[b]) for c, b in side if b in texts],
    )
