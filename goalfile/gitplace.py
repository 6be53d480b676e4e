"""Where a work tree's git folder is, read from the file system alone (no git process): what
the Stop hook remembers of a repository between two stops of a session, and the signs that a
repository was hidden or swapped (:mod:`goalfile.commands.hookrepo`).

A work tree's ``.git`` is a folder (the repository itself), or a file with one line
``gitdir: PATH`` (a linked work tree, ``PATH/commondir`` naming the repository; a submodule;
a ``--separate-git-dir``). A git folder is known by its device and inode, which stay the same
when it is renamed away and back (``mv .git .git-x``), and change when another one stands in
its place (``git init`` anew, a ``.git`` file naming another repository).
"""

from __future__ import annotations

import functools
import os
import re
import stat
from pathlib import Path
from typing import Final

from goalfile.value import Compared

__all__ = [
    "GitPlace",
    "aside",
    "common_elsewhere",
    "foreign",
    "git_place",
    "head_mark",
    "looks_like_git_folder",
    "renamed",
    "still_there",
]

LINE_LIMIT = 4096  # bytes read of a `.git` file, a `commondir` or a `gitdir` back-link


class GitPlace(Compared):
    """A work tree's git folder (``gitdir``) and the repository it belongs to (``common``,
    the same folder for a main work tree), each by its real path and its (device, inode)."""

    __slots__ = ("common", "common_id", "gitdir", "gitdir_id", "kind")

    def __init__(
        self,
        *,
        kind: str,
        gitdir: str,
        gitdir_id: tuple[int, int],
        common: str,
        common_id: tuple[int, int],
    ) -> None:
        self.kind: Final = kind  # "folder" or "file": what the work tree's `.git` is
        self.gitdir: Final = gitdir
        self.gitdir_id: Final = gitdir_id
        self.common: Final = common
        self.common_id: Final = common_id

    def to_json(self) -> dict[str, object]:
        """The fields by name, as a session's record keeps them."""
        return {
            "kind": self.kind,
            "gitdir": self.gitdir,
            "gitdir_id": self.gitdir_id,
            "common": self.common,
            "common_id": self.common_id,
        }

    def same_repository(self, other: GitPlace) -> bool:
        """Whether ``other`` is this git folder, also when it was renamed and put back."""
        return self.gitdir_id == other.gitdir_id and self.common_id == other.common_id


def _head_of(path: str, limit: int) -> bytes | None:
    """At most ``limit`` bytes of the regular file at ``path``; None for anything else (a FIFO
    or a device is never waited on, also one put there after a look at the path) or when it
    cannot be read."""
    from goalfile.errors import GoalfileError
    from goalfile.files import read_regular

    try:
        return read_regular(path, what="git file", limit=limit)
    except (OSError, GoalfileError):
        return None


def _small_text(path: str) -> str | None:
    """The first line of the regular file at ``path`` (:func:`_head_of`), or None."""
    data = _head_of(path, LINE_LIMIT)
    if data is None:
        return None
    text = data.decode("utf-8", "surrogateescape")
    return text.splitlines()[0] if text.strip() else None


def gitdir_line(path: str) -> str | None:
    """The folder a ``.git`` file's ``gitdir:`` line names, as written; None when ``path`` is
    not such a file."""
    line = _small_text(path)
    if line is None or not line.startswith("gitdir:"):
        return None
    named = line[len("gitdir:") :].strip()
    return named or None


def _folder_id(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISDIR(found.st_mode) else None


def git_place(top: Path) -> GitPlace | None:
    """The git folder of the work tree at ``top``, as its ``.git`` names it; None when there
    is no ``.git``, or it is neither a folder nor a ``gitdir:`` file that names one."""
    dotgit = os.path.join(top, ".git")
    try:
        found = os.stat(dotgit)
    except (OSError, ValueError):
        return None
    if stat.S_ISDIR(found.st_mode):
        kind, gitdir = "folder", os.path.realpath(dotgit)
    elif stat.S_ISREG(found.st_mode):
        named = gitdir_line(dotgit)
        if named is None:
            return None
        kind, gitdir = "file", os.path.realpath(os.path.join(top, named))
    else:
        return None
    gitdir_id = _folder_id(gitdir)
    if gitdir_id is None:
        return None
    common = gitdir
    pointer = _small_text(os.path.join(gitdir, "commondir"))
    if pointer is not None:
        common = os.path.realpath(os.path.join(gitdir, pointer.strip()))
    common_id = _folder_id(common)
    if common_id is None:
        return None
    return GitPlace(
        kind=kind, gitdir=gitdir, gitdir_id=gitdir_id, common=common, common_id=common_id
    )


def head_mark(place: GitPlace) -> str:
    """What a commit or a checkout changes, read without git: the work tree's ``HEAD``, the
    branch file it names (a loose ref), and the times of ``packed-refs`` and of a reftable's
    table list. Equal marks at two stops: nothing was committed or checked out between them."""
    head = _small_text(os.path.join(place.gitdir, "HEAD")) or ""
    parts = [head]
    if head.startswith("ref:"):
        name = head[len("ref:") :].strip()
        if name.startswith("refs/") and ".." not in name.split("/"):
            parts.append(_small_text(os.path.join(place.common, name)) or "")
    for name in ("packed-refs", os.path.join("reftable", "tables.list")):
        try:
            found = os.stat(os.path.join(place.common, name))
        except (OSError, ValueError):
            parts.append("")
            continue
        parts.append(f"{found.st_mtime_ns}:{found.st_size}:{found.st_ino}")
    return "\n".join(parts)


@functools.cache
def _bare() -> re.Pattern[bytes]:
    return re.compile(rb"(?im)^\s*bare\s*=\s*(true|yes|on|1)\s*$")


def looks_like_git_folder(path: str) -> bool:
    """Whether the folder at ``path`` holds what a work tree's git folder holds: a ``HEAD``
    file and ``objects`` and ``refs`` folders, and a ``config`` that does not say ``bare``
    (a bare repository kept in a project, `mirror.git`, is no work tree's ``.git``)."""
    if not (
        os.path.isfile(os.path.join(path, "HEAD"))
        and os.path.isdir(os.path.join(path, "objects"))
        and os.path.isdir(os.path.join(path, "refs"))
    ):
        return False
    text = _head_of(os.path.join(path, "config"), 1 << 16)
    return text is None or _bare().search(text) is None


def aside(folder: Path) -> list[str]:
    """The names of the entries of ``folder`` other than ``.git`` that look like a work tree's
    git folder under another name: a folder that holds what a git folder holds, or a small
    file whose first line is ``gitdir: ...``; sorted."""
    found: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except (OSError, ValueError):
        return []
    for entry in entries:
        if entry.name == ".git":
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                if looks_like_git_folder(entry.path):
                    found.append(entry.name)
            elif (
                entry.is_file(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_size <= LINE_LIMIT
                and gitdir_line(entry.path) is not None
            ):
                found.append(entry.name)
        except OSError:
            continue
    return sorted(found)


def renamed(folder: Path, place: GitPlace) -> str | None:
    """The name under which ``folder`` now holds the git folder ``place`` names (a folder
    with its (device, inode): ``mv .git .git-x``), or a ``.git`` file naming it (a linked
    work tree's ``.git`` renamed); None when it holds neither."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except (OSError, ValueError):
        return None
    for entry in entries:
        if entry.name == ".git":
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                if (entry.stat(follow_symlinks=False).st_dev, entry.inode()) == place.gitdir_id:
                    return entry.name
            elif (
                place.kind == "file"
                and entry.is_file(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_size <= LINE_LIMIT
            ):
                named = gitdir_line(entry.path)
                if (
                    named is not None
                    and _folder_id(os.path.realpath(os.path.join(folder, named))) == place.gitdir_id
                ):
                    return entry.name
        except OSError:
            continue
    return None


def still_there(place: GitPlace) -> bool:
    """Whether the git folder ``place`` names is still at its path (the same folder)."""
    return _folder_id(place.gitdir) == place.gitdir_id


def foreign(top: Path, place: GitPlace) -> str | None:
    """How the ``.git`` file of the work tree at ``top`` names the git folder of another work
    tree, or None: the ``.git`` folder of another folder (a main work tree's repository), or a
    linked work tree's folder (``.../worktrees/NAME``) whose ``gitdir`` back-link names
    another ``.git`` file. A submodule's folder (``.../modules/NAME``) and a separate git
    folder are not asked about: nothing in them says which work tree is theirs."""
    if place.kind != "file":
        return None
    real_top = os.path.realpath(top)
    gitdir = place.gitdir
    if os.path.basename(gitdir) == ".git" and os.path.dirname(gitdir) != real_top:
        return f"the git folder of the work tree at {os.path.dirname(gitdir)}"
    if os.path.basename(os.path.dirname(gitdir)) == "worktrees":
        back = _small_text(os.path.join(gitdir, "gitdir"))
        if back is None:
            return None
        owner = os.path.realpath(os.path.join(gitdir, back.strip()))
        if owner != os.path.realpath(os.path.join(real_top, ".git")):
            return f"the git folder of the linked work tree at {os.path.dirname(owner)}"
    return None


def common_elsewhere(place: GitPlace) -> str | None:
    """How the git folder ``place`` names takes its repository (branches, objects, settings)
    from a folder that is not its own, or None. git reads a ``commondir`` file in any git
    folder, and writes one only in a linked work tree's folder (``COMMON/worktrees/NAME``):
    one line in a main work tree's ``.git/commondir`` made git read another repository's
    branches while ``.git/HEAD``, the index and the reflog stayed where they were, and one
    ``rm`` took it away after the stop. So a work tree's ``.git`` folder that holds
    ``commondir``, and a linked work tree's folder whose ``commondir`` leads to a repository
    that does not list it under ``worktrees/``, are named."""
    pointer = os.path.join(place.gitdir, "commondir")
    if place.kind == "folder":
        if not os.path.lexists(pointer):
            return None
        return f"a commondir file naming {place.common}"
    if place.common == place.gitdir:  # a submodule's folder, a separate git folder
        return None
    listed = os.path.join(place.common, "worktrees", os.path.basename(place.gitdir))
    if _folder_id(listed) == place.gitdir_id:
        return None
    return f"a commondir file naming {place.common}, which lists no such linked work tree"
