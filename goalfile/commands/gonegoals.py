"""Goal files git tracks that the working tree no longer has, for `goalfile status`.

A goal file deleted with `rm` (not `git rm` and a commit) is still the repository's goal: the
Stop hook holds every stop on it (:mod:`goalfile.commands.gitgoals`). `status` listed only the
files it found on disk, so the one command a person runs to see where the goals stand said
nothing of the goal that held the agent. Each such file is a status row in error, with both
ways out: put it back, or retire it as the hook asks, with a commit (of the removal when HEAD
holds the file, else an empty one that leaves whatever else is staged alone).
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from goalfile.errors import GoalfileError
from goalfile.shellword import shell_word


def gone_goals(
    root: Path, cwd: Path, *, listed: Collection[str]
) -> list[tuple[str, GoalfileError]]:
    """Each goal file under the goal folders that git tracks in the repository at ``root``
    and the working tree does not hold as a file, as ``(path shown from cwd, error)``; a path
    in ``listed`` (already a status row) is left out. Empty when git cannot list the
    repository: the hook names that itself."""
    from goalfile.commands.gitgoals import git_from, restore_command, tracked_goals
    from goalfile.gitrun import GitUnreadable

    try:
        tracked = tracked_goals(root)
    except GitUnreadable:
        return []
    seen = {os.path.realpath(cwd / path) for path in listed}
    found: list[tuple[str, GoalfileError]] = []
    for path, entry in sorted(tracked.items()):
        if path.is_file() or os.path.realpath(path) in seen:
            continue
        shown = os.path.relpath(path, cwd)
        where = "the index" if entry.in_index else "HEAD (the index no longer does)"
        git = git_from(entry.root, cwd)
        name = shell_word(entry.relative)
        if _in_head(entry.root, entry.relative):
            retire = (
                f"{git} rm -q --cached --ignore-unmatch -- {name} && {git} commit -q -m "
                f"{shell_word('goals: retire ' + entry.relative)} -- {name}"
            )
        else:  # an empty commit of its own: the hook lets a goal go once HEAD has moved
            retire = (
                f"{git} rm -q --cached -- {name} && {git} commit -q --allow-empty --only -m "
                f"{shell_word('goals: retire ' + entry.relative)}"
            )
        found.append(
            (
                shown,
                GoalfileError(
                    f"git tracks this goal file ({where} holds it), but the working tree has "
                    "no such file: the Stop hook holds every stop on it",
                    file=shown,
                    hint=f"to keep the goal: `{restore_command(path, entry, here=cwd)}`; to "
                    f"retire it: `{retire}`",
                ),
            )
        )
    return found


def _in_head(root: Path, relative: str) -> bool:
    """Whether HEAD's tree holds ``relative`` (as a blob)."""
    from goalfile.gitrepo import git_blobs
    from goalfile.gitrun import GitUnreadable

    try:
        return git_blobs(str(root), [f"HEAD:{relative}"])[0] is not None
    except GitUnreadable:
        return True  # the commit then names the path git cannot tell about
