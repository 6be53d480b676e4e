"""What `goalfile doctor` asks of git about the Stop hook's own settings.

- A ``--goal`` in a hook command names the goal file the hook verifies first. It counts only
  when it names a goal file in a goal folder (``goals/``, ``.zetetic/goals/``) that git holds:
  a file git does not track (a met decoy in a folder ``.git/info/exclude`` hides,
  `goals/.cache/easy.md`) is one anyone can write, and so is one outside the goal folders,
  which `audit` without a PATH does not look at. The hook would verify it first (it holds the
  agent once on a goal git does not hold, and the other goals git holds decide after it)
  (:func:`goal_option`). `doctor` asks that HEAD hold the file, the state a person committed;
  `goalfile init`, run while the goal is set up, that git's index hold it, so that a goal
  `activate` staged and no one has committed yet stays named (docs/hosts.md). The rule is
  otherwise the same, so a ``--goal`` init keeps is one doctor accepts once it is committed.
  The hook itself asks less of the file it is pinned to (that git hold it, in its index or at
  HEAD, wherever it lies), as a ``--goal`` never releases the agent: it only orders the goals.
- A host settings file marked skip-worktree or assume-unchanged in git's index
  (`git update-index --skip-worktree .claude/settings.json`) changes without `git status` or
  `git diff` showing it: the hook command in it may not be the one committed
  (:func:`hidden_settings`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from goalfile.commands.gittop import holds_git
from goalfile.gitrepo import git_blobs, git_in_index, git_tracked
from goalfile.gitrun import GitUnreadable
from goalfile.goalfolders import under_goal_folder

__all__ = ["HOST_FOLDERS", "goal_option", "hidden_settings"]

HOST_FOLDERS = {".claude": "claude", ".codex": "codex", ".gemini": "gemini", ".pi": "pi"}
"""The project folders whose files decide what a host runs at its stop, and the host."""


def goal_option(root: Path, *, committed: bool) -> Callable[[str], bool]:
    """Whether a Stop hook's ``--goal`` value names a goal file of the working tree in a goal
    folder of the repository at ``root`` (resolved against the top level, as the hook resolves
    it) that git holds: at HEAD when ``committed`` (`doctor`), else in its index (`init`).
    Outside a git repository: whether the file is there."""

    def sound(value: str) -> bool:
        path = root / Path(value).expanduser()
        if not path.is_file():
            return False
        outside_git = not holds_git(root)
        if not under_goal_folder(path, root):
            return outside_git  # outside a repository: no folder rule
        relative = Path(os.path.relpath(path, root)).as_posix()
        if not committed:
            return outside_git or git_in_index(str(root), relative)
        try:
            [held] = git_blobs(str(root), [f"HEAD:{relative}"])
        except GitUnreadable:
            return outside_git
        return held is not None

    return sound


def hidden_settings(root: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    """(host, path, marks) of each file git tracks under the host folders of ``root`` that
    the index marks ``skip-worktree`` or ``assume-unchanged``."""
    if not holds_git(root):
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
