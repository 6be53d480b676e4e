"""What `goalfile doctor` asks of git about the Stop hook's own settings.

- A ``--goal`` in a hook command narrows the hook to the goal file it names. Only a goal file
  a person committed counts: one that HEAD holds in a goal folder (``goals/``,
  ``.zetetic/goals/``). A file git does not track (a met decoy in a folder
  ``.git/info/exclude`` hides, `goals/.cache/easy.md`), or one outside the goal folders, is one
  anyone can write, and the hook would verify it first (it holds the agent once on a goal
  git does not hold, and the other goals git holds decide after it) (:func:`goal_option_at`).
- `goalfile init` asks less before it keeps a ``--goal`` of a hook it finds: that git's index
  hold the file it names (:func:`goal_option_staged`), so that a goal staged by `activate` and
  not yet committed can be named (docs/hosts.md).
- A host settings file marked skip-worktree or assume-unchanged in git's index
  (`git update-index --skip-worktree .claude/settings.json`) changes without `git status` or
  `git diff` showing it: the hook command in it may not be the one committed
  (:func:`hidden_settings`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from goalfile.goalfolders import under_goal_folder
from goalfile.run import GitUnreadable, git_blobs, git_in_index, git_tracked

__all__ = ["HOST_FOLDERS", "goal_option_at", "goal_option_staged", "hidden_settings"]

HOST_FOLDERS = {".claude": "claude", ".codex": "codex", ".gemini": "gemini", ".pi": "pi"}
"""The project folders whose files decide what a host runs at its stop, and the host."""


def goal_option_at(root: Path) -> Callable[[str], bool]:
    """Whether a Stop hook's ``--goal`` value names a goal file HEAD holds in a goal folder of
    the repository at ``root``, as the hook resolves it (against the top level), and that the
    working tree has. Outside a git repository: whether the file is there."""

    def sound(value: str) -> bool:
        path = root / Path(value).expanduser()
        if not path.is_file():
            return False
        if not under_goal_folder(path, root):
            return not (root / ".git").exists()  # outside a repository: no folder rule
        relative = Path(os.path.relpath(path, root)).as_posix()
        try:
            [held] = git_blobs(str(root), [f"HEAD:{relative}"])
        except GitUnreadable:
            return not (root / ".git").exists()
        return held is not None

    return sound


def goal_option_staged(root: Path) -> Callable[[str], bool]:
    """Whether a Stop hook's ``--goal`` value names a goal file git's index holds, as the hook
    resolves it (against the repository's top level ``root``). A file git does not track is
    no sound ``--goal``: the agent can make its own goal in a folder git ignores, meet it, and
    name it there, and the hook would then look at that goal alone."""

    def staged(value: str) -> bool:
        path = root / Path(value).expanduser()
        if not path.is_file():
            return False
        return git_in_index(str(root), os.path.relpath(path, root))

    return staged


def hidden_settings(root: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    """(host, path, marks) of each file git tracks under the host folders of ``root`` that
    the index marks ``skip-worktree`` or ``assume-unchanged``."""
    if not (root / ".git").exists():
        return []
    try:
        listed = git_tracked(str(root), [f":(top,literal){name}" for name in HOST_FOLDERS])
    except GitUnreadable:
        return []
    found = []
    for record in listed.split(b"\0"):
        if len(record) < 3 or record[1:2] != b" ":
            continue
        tag, name = record[:1].decode("ascii", "replace"), record[2:].decode("utf-8", "replace")
        marks = [
            *(["skip-worktree"] if tag in "Ss" else []),
            *(["assume-unchanged"] if tag.islower() else []),
        ]
        if not marks:
            continue
        host = HOST_FOLDERS.get(name.split("/", 1)[0])
        if host is not None:
            found.append((host, name, tuple(marks)))
    return found
