"""The git work trees that hold a folder, as git itself names them (see
:mod:`goalfile.commands.workdir`, which decides from them where a goal's checks run). Kept
apart from it, without its value classes, for the Stop hook, which looks for the repositories
around the session's folder at every stop of every turn."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def holds_git(folder: str | os.PathLike[str]) -> bool:
    """Whether ``folder`` holds a ``.git`` entry the Stop hook counts as a repository's:
    anything named ``.git`` but an empty folder. git passes over an empty ``.git`` folder (it
    holds no HEAD: "not a git repository"), and Codex's workspace-write sandbox makes one in
    each folder it lets a command write (the session's folder, ``$TMPDIR``, ``/tmp``) that has
    none, as the target of the read-only mount it puts over ``.git``, and leaves it there while
    the command runs (docs/hosts.md). Emptying a repository's ``.git`` is removing it: the
    session's record holds that as it holds a ``.git`` renamed away (docs/trust.md). A ``.git``
    that cannot be read counts."""
    path = os.path.join(folder, ".git")
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return False
    if not stat.S_ISDIR(mode):
        return True
    try:
        with os.scandir(path) as entries:
            return next(entries, None) is not None
    except OSError:
        return True


def git_top(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` that git confirms as a work tree's top (asked
    each time: a long-running process such as `goalfile mcp` must see a `.git` that moved)."""
    here = Path(folder)
    for candidate in (here, *here.parents):
        if not os.path.lexists(candidate / ".git"):
            continue
        from goalfile.gitrun import git_toplevel  # here: outside a repository, git is never asked

        try:
            top = git_toplevel(str(candidate))
        except OSError:  # git cannot run: trust only a `.git` folder that looks like one
            if (candidate / ".git" / "HEAD").is_file():
                return str(candidate)
            continue
        if top is not None and Path(top).resolve() == candidate.resolve():
            return str(candidate)
    return None


def repository_top(folder: str | os.PathLike[str]) -> Path | None:
    """The top of the git work tree that holds ``folder``, as git names it (:func:`git_top`):
    a ``.git`` file or folder that git rejects (an empty one planted in a sub-folder) is passed
    over. None outside a repository."""
    top = git_top(str(Path(folder).resolve()))
    return Path(top) if top is not None else None


def work_trees(folder: str | os.PathLike[str]) -> list[Path]:
    """Every git work tree that holds ``folder``, innermost first: the one git names, then the
    one holding that tree's top, and so on. A repository made inside the project (`git init
    scratch`) is one more tree, never a way out of the project's own."""
    found: list[Path] = []
    here = Path(folder).resolve()
    while True:
        top = repository_top(here)
        if top is None or top in found:
            return found
        found.append(top)
        if top.parent == top:
            return found
        here = top.parent
