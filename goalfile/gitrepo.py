"""Read (and stage into) the working repository: what git's index and HEAD hold.

The Stop hook and the commands ask through these: every read runs in :func:`goalfile.gitrun.
_git_clean`'s environment (no transport, the C locale), checks what git's objects hold against
their names (:mod:`goalfile.gitobjects`), and raises :class:`~goalfile.gitrun.GitUnreadable`
when git cannot answer. git itself is run by :mod:`goalfile.gitrun`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from goalfile.gitrun import GitUnreadable, _git_clean, _git_read, _git_refused

if TYPE_CHECKING:
    from goalfile.gitobjects import Object


def git_tracked(folder: str, pathspecs: Sequence[str]) -> bytes:
    """``git ls-files -v -z --with-tree=HEAD -- PATHSPECS`` run in ``folder``: the files the
    index holds under ``pathspecs``, each with its tag (lower case when marked
    assume-unchanged, ``S`` for skip-worktree), and those HEAD holds that the index does not
    (tag ``M``). Without a HEAD commit, in a repository that holds no branch or tag yet, the
    index alone. Variables that would point git elsewhere are left out, replace refs are not
    followed (`git replace` could show HEAD without a file), nor is a file system monitor
    asked (`core.fsmonitor` names a program git runs before it reads the index: one that does
    not return made the read wait ``GIT_TIMEOUT`` and then list nothing). A git that does not
    answer within its limit (:mod:`goalfile.gitlimit`) is killed, and that is an error too.

    Raises :class:`GitUnreadable` when git cannot run, names no repository there, or fails
    on it (a broken index, a repository format it does not know), and when HEAD names no
    commit while the repository holds branches or tags (`git symbolic-ref HEAD
    refs/heads/new`): none of these means that git tracks nothing."""
    clean = _git_clean()
    base = ["--no-replace-objects", "ls-files", "-v", "-z"]
    done = _git_read(folder, [*base, "--with-tree=HEAD", "--", *pathspecs], clean)
    if done.returncode == 0:
        return done.stdout
    if b"HEAD" not in done.stderr:  # not a repository, or a broken one
        raise _git_refused(done)
    head = _git_read(folder, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], clean)
    if head.returncode == 0:  # HEAD names a commit, whose trees git cannot read
        refused = _git_refused(done)  # ("unable to read tree entries HEAD": an object gone)
        refused.forged = b"read" in done.stderr
        raise refused
    refs = _git_read(folder, ["for-each-ref", "--count=1", "--format=%(refname)"], clean)
    if refs.returncode != 0:
        raise _git_refused(refs)
    ref = refs.stdout.decode("utf-8", "surrogateescape").strip()
    if ref:
        was, branches = _branch_before(folder, clean)
        raise GitUnreadable(
            f"HEAD names no commit, but the repository holds {ref}", ref=was, branches=branches
        )
    done = _git_read(folder, [*base, "--", *pathspecs], clean)  # no commit yet: the index
    if done.returncode != 0:
        raise _git_refused(done)
    return done.stdout


def git_uncommitted(folder: str, relatives: Sequence[str]) -> set[str]:
    """Which of ``relatives`` (from the top of the repository at ``folder``, taken literally,
    files or folders) hold a file HEAD does not hold as the working tree has it: untracked
    (ignored or not: a clone has neither), staged or changed since HEAD. Each is named as
    given. Raises :class:`GitUnreadable` when git cannot answer."""
    if not relatives:
        return set()
    args = ["-c", "core.fsmonitor=false", "--no-replace-objects", "status", "--porcelain=v1"]
    args += ["-z", "--untracked-files=all", "--ignored=matching", "--no-renames", "--"]
    done = _git_read(folder, [*args, *(f":(literal){r}" for r in relatives)], _git_clean())
    if done.returncode != 0:
        raise _git_refused(done)
    changed = [
        record[3:].decode("utf-8", "surrogateescape")
        for record in done.stdout.split(b"\0")
        if len(record) > 3
    ]
    return {
        relative
        for relative in relatives
        if any(path == relative or path.startswith(relative.rstrip("/") + "/") for path in changed)
    }


def git_in_index(folder: str, relative: str) -> bool:
    """Whether git's index holds the file at ``relative`` (from ``folder``, taken literally):
    `git ls-files --error-unmatch`. False when git cannot say."""
    args = ["--no-replace-objects", "ls-files", "--error-unmatch"]
    try:
        done = _git_read(folder, [*args, "--", f":(literal){relative}"], _git_clean())
    except GitUnreadable:
        return False
    return done.returncode == 0


_INDEX_GIT = ["--no-replace-objects"]


def git_write_blob(folder: str, data: bytes) -> str:
    """Store ``data`` in the repository at ``folder`` as a blob of exactly those bytes (no
    clean filter, no end-of-line conversion that git's attributes name): `git hash-object -w
    --no-filters --stdin`; the blob's id. Raises :class:`GitUnreadable` when git cannot run
    or fails."""
    args = [*_INDEX_GIT, "hash-object", "-w", "--no-filters", "--stdin"]
    done = _git_read(folder, args, _git_clean(), data=data)
    if done.returncode != 0:
        raise _git_refused(done)
    return done.stdout.decode("ascii", "replace").strip()


def git_index_entry(
    folder: str, *, mode: str, blob: str, name: str, index: str | None = None
) -> None:
    """Set the entry ``name`` (from the top of the repository at ``folder``) of git's index,
    or of the index file ``index``, to the blob ``blob`` with ``mode`` (``100644``,
    ``120000``): `git update-index --add --cacheinfo`. Raises :class:`GitUnreadable` when git
    cannot run or fails."""
    env = _git_clean() if index is None else {**_git_clean(), "GIT_INDEX_FILE": index}
    args = [*_INDEX_GIT, "update-index", "--add", "--cacheinfo", f"{mode},{blob},{name}"]
    done = _git_read(folder, args, env)
    if done.returncode != 0:
        raise _git_refused(done)


def git_ignored(folder: str, relative: str) -> bool:
    """Whether git ignores the file at ``relative`` (from the top of the repository at
    ``folder``, taken literally): `git add` refuses it without ``-f``. False when git cannot
    say."""
    args = ["--no-replace-objects", "check-ignore", "-q", "--"]
    try:
        done = _git_read(folder, [*args, relative], _git_clean())  # a pathname, not a pattern
    except GitUnreadable:
        return False
    return done.returncode == 0


def _branch_before(folder: str, env: Mapping[str, str]) -> tuple[str | None, tuple[str, ...]]:
    """For a HEAD that names no commit: the branch it was on before it moved, and the
    repository's branches (at most 20). That branch is the only one, or the only one at the
    commit HEAD's reflog last names (`git symbolic-ref HEAD refs/heads/new` and `git checkout
    --orphan` leave HEAD's reflog as it was); None when no single branch is known, never the
    first of their names."""
    heads = ["for-each-ref", "--format=%(refname)"]
    listed = _git_read(folder, [*heads, "--count=20", "refs/heads"], env)
    branches = tuple(listed.stdout.decode("utf-8", "surrogateescape").split("\n")[:-1])
    if listed.returncode != 0 or len(branches) <= 1:
        return (branches[0] if len(branches) == 1 else None), branches
    commit = _reflog_last(folder, env)
    if commit is None:
        return None, branches
    at = _git_read(folder, [*heads, f"--points-at={commit}", "--count=2", "refs/heads"], env)
    found = at.stdout.decode("utf-8", "surrogateescape").split("\n")[:-1]
    return (found[0] if at.returncode == 0 and len(found) == 1 else None), branches


def _reflog_last(folder: str, env: Mapping[str, str]) -> str | None:
    """The commit the last line of HEAD's reflog moved HEAD to (None when there is none): read
    from its end, and only from a regular file (a FIFO there is never waited on)."""
    where = _git_read(folder, ["rev-parse", "--git-path", "logs/HEAD"], env)
    if where.returncode != 0:
        return None
    path = os.path.join(folder, os.fsdecode(where.stdout.rstrip(b"\n")))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        size = os.fstat(fd).st_size if stat.S_ISREG(os.fstat(fd).st_mode) else -1
        tail = os.pread(fd, 4096, max(size - 4096, 0)) if size > 0 else b""
    except OSError:
        return None
    finally:
        os.close(fd)
    fields = tail.rstrip(b"\n").rpartition(b"\n")[2].split(b" ", 2)
    commit = fields[1] if len(fields) == 3 else b""
    if not re.fullmatch(rb"[0-9a-f]{40}|[0-9a-f]{64}", commit) or not commit.strip(b"0"):
        return None
    return commit.decode("ascii")


def git_head_trees(folder: str, folders: Sequence[str]) -> None:
    """Check the trees of HEAD that a listing of ``folders`` (``goals``, ``plans``) reads, and
    every folder on their way and below them: each must hash to its name and be the one its
    parent's tree names, from the commit HEAD names down (:func:`goalfile.gitobjects.
    trees_fault`). One `git ls-tree` and one `git cat-file --batch`. Raises
    :class:`GitUnreadable` when git fails, or when a tree is not what its name says (one
    written over by hand without a goal's entry hid the goal from `git ls-files`)."""
    from goalfile.gitobjects import trees_fault

    paths: set[str] = set()
    if folders:  # (none: the commit and its root tree alone)
        listed = _git_read(
            folder,
            ["--no-replace-objects", "ls-tree", "-r", "-d", "-t", "-z", "--name-only", "HEAD",
             "--", *(f":(top,literal){name}" for name in folders)],
            _git_clean(),
        )  # fmt: skip
        if listed.returncode != 0:
            return  # no commit at HEAD (git_tracked has said what that means)
        paths = {os.fsdecode(name) for name in listed.stdout.split(b"\0") if name}
    for name in folders:  # with the folders on the way, held at HEAD or not
        parts = name.split("/")
        paths.update("/".join(parts[:end]) for end in range(1, len(parts) + 1))
    ordered = sorted(path for path in paths if "\n" not in path)
    wanted = ["HEAD^{commit}", "HEAD^{tree}", *(f"HEAD:{path}" for path in ordered)]
    why = trees_fault(ordered, _cat_file_batch(folder, wanted))
    if why is not None:
        raise _forged("HEAD's goal folders", why)


def _cat_file_batch(folder: str, wanted: Sequence[str]) -> dict[str, Object | None]:
    """What one ``git cat-file --batch`` gives for each of ``wanted``, by name (see
    :func:`goalfile.gitobjects.parse_batch`). Raises :class:`GitUnreadable` when git fails or
    its answer ends early."""
    from goalfile.gitobjects import parse_batch

    data = "".join(f"{ask}\n" for ask in wanted).encode("utf-8", "surrogateescape")
    done = _git_read(
        folder, ["--no-replace-objects", "cat-file", "--batch"], _git_clean(), data=data
    )
    if done.returncode != 0:
        raise _git_refused(done)
    objects = parse_batch(done.stdout, list(wanted))
    if objects is None:
        raise GitUnreadable("git cat-file --batch ended early")
    return objects


def _forged(name: str, why: str) -> GitUnreadable:
    return GitUnreadable(
        f"git's objects do not hold what their names say, for {name}: {why} (an object file "
        "under .git/objects written over by hand, which git reads all the same)",
        forged=True,
    )


def git_blobs(
    folder: str, names: Sequence[str], *, ids: dict[str, str] | None = None
) -> list[bytes | None]:
    """What ``git cat-file --batch`` gives for each of ``names`` (``HEAD:goals/a.md``) in
    ``folder``, in order: the blob's bytes, or None when git holds no blob by that name. One
    process for every name; a name holding a line break is not asked (None). ``ids``, when
    given, gets each blob's object id by its name. Each object read is checked against its
    name, and for ``REV:PATH`` the commit and the trees that lead to the blob too
    (:mod:`goalfile.gitobjects`: git reads an object rewritten by hand as if it were the one
    of that name). Raises :class:`GitUnreadable` when git cannot run or fails, or when an
    object is not what its name says."""
    from goalfile.gitobjects import forged, requests

    asked = [name for name in names if "\n" not in name]
    found: dict[str, bytes | None] = {}
    if asked:
        wanted = list(dict.fromkeys(ask for name in asked for ask in requests(name)))
        objects = _cat_file_batch(folder, wanted)
        for name in asked:
            why = forged(name, objects)
            if why is not None:
                raise _forged(name, why)
            obj = objects.get(name)
            found[name] = obj[2] if obj is not None and obj[1] == "blob" else None
            if ids is not None and obj is not None and obj[1] == "blob":
                ids[name] = obj[0]
    return [found.get(name) for name in names]


def git_index_ids(folder: str, relatives: Sequence[str]) -> dict[str, str]:
    """The object id git's index gives each of ``relatives`` (from the repository's top, taken
    literally) at stage 0: `git ls-files -s`; one not there (not in the index, or only in a
    merge's conflict stages) is left out. Raises :class:`GitUnreadable`."""
    if not relatives:
        return {}
    args = [*_INDEX_GIT, "ls-files", "-s", "-z", "--"]
    done = _git_read(
        folder, [*args, *(f":(top,literal){name}" for name in relatives)], _git_clean()
    )
    if done.returncode != 0:
        raise _git_refused(done)
    found: dict[str, str] = {}
    for line in done.stdout.split(b"\0"):
        head, tab, name = line.partition(b"\t")
        fields = head.split(b" ")
        if tab and len(fields) == 3 and fields[2] == b"0":
            found[os.fsdecode(name)] = fields[1].decode("ascii", "replace")
    return found


def git_path_commits(folder: str, relative: str, *, limit: int) -> list[str]:
    """The newest ``limit`` commits reachable from HEAD that changed the file ``relative``
    (from the repository's top, taken literally), newest first, as ``git rev-list`` gives
    them; empty when HEAD names no commit. Raises :class:`GitUnreadable`."""
    args = ["--no-replace-objects", "rev-list", f"--max-count={limit}", "HEAD", "--"]
    done = _git_read(folder, [*args, f":(top,literal){relative}"], _git_clean())
    if done.returncode != 0:
        if b"unknown revision" in done.stderr or b"bad revision" in done.stderr:
            return []
        raise _git_refused(done)
    return done.stdout.decode("ascii", "replace").split()


def git_head_commit(folder: str) -> str:
    """The commit HEAD resolves to in the repository at ``folder``, as git resolves it (a loose
    or packed branch, a symbolic ref, a ``commondir``: the Stop hook's mark of HEAD read without
    git sees none of those moved by hand); empty when HEAD names no commit or git cannot say.
    One ``git rev-parse``."""
    try:
        done = _git_read(
            folder, ["--no-replace-objects", "rev-parse", "-q", "--verify", "HEAD^{commit}"],
            _git_clean(),
        )  # fmt: skip
    except GitUnreadable:
        return ""
    found = done.stdout.decode("ascii", "replace").strip()
    return found if done.returncode == 0 and re.fullmatch(r"[0-9a-f]{40,64}", found) else ""


def git_commits_named(folder: str, names: Sequence[str]) -> dict[str, str]:
    """Which of ``names`` (``MERGE_HEAD``, ``HEAD^2``) name a commit in the repository of
    ``folder``, each with its full id; one ``git rev-parse`` per name. Raises
    :class:`GitUnreadable` when git cannot run."""
    found: dict[str, str] = {}
    for name in names:
        done = _git_read(
            folder, ["--no-replace-objects", "rev-parse", "-q", "--verify", f"{name}^{{commit}}"],
            _git_clean(),
        )  # fmt: skip
        if done.returncode == 0:
            found[name] = done.stdout.decode("ascii", "replace").strip()
    return found


def git_rebasing(folder: str) -> bool:
    """Whether a rebase is under way in the repository of ``folder`` (its git folder holds
    ``rebase-merge`` or ``rebase-apply``; git leaves REBASE_HEAD behind once it is done).
    Raises :class:`GitUnreadable` when git cannot run."""
    args = ["rev-parse", "--git-path", "rebase-merge", "--git-path", "rebase-apply"]
    done = _git_read(folder, args, _git_clean())
    if done.returncode != 0:
        raise _git_refused(done)
    places = os.fsdecode(done.stdout).split("\n")[:2]
    return any(os.path.isdir(os.path.join(folder, place)) for place in places if place)
