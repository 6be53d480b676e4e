"""A ``--goal`` that names a goal file git holds neither in its index nor at HEAD: held once in
the session.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.hookrules.gitview import GitView
from goalfile.commands.hookrules.outcome import GoalOutcome, hold_once
from goalfile.commands.hookrules.places import shown_from
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.files import real_path
from goalfile.shellword import shell_word

if TYPE_CHECKING:
    from goalfile.commands.gitgoals import Tracked


def unheld_key(path: Path) -> str:
    """What the session's record names the hold of a --goal on ``path`` by (it holds once)."""
    return f"unheld\0{real_path(path)}"


def unheld_goal(
    paths: list[Path],
    tracked: Mapping[Path, Tracked],
    git: GitView,
    roots: list[Path],
    here: Path,
    stop: StopInput,
) -> dict[Path, GoalOutcome]:
    """The goals ``--goal`` names (``paths``) that git holds neither in the index nor at HEAD,
    while the session or the goal is in a git repository, each with its hold: a goal file
    anyone can write (a met decoy in a folder git ignores, a file outside the repository) is
    no goal to pin the hook to. Held once (the session's record keeps it: a host may send
    ``stop_hook_active`` false at every stop after a tool call); then the other goals git
    holds decide.
    ``roots`` are the session's git repositories; outside git (none, and no repository holds
    the goal) there is nothing to ask: the goal is verified as it is."""
    from goalfile.commands.gittop import repository_top

    in_git = bool(git.repositories) or bool(roots)
    found: dict[Path, GoalOutcome] = {}
    for path in paths:
        if path in tracked:
            continue
        folder = path.parent
        while not folder.is_dir() and folder.parent != folder:
            folder = folder.parent
        if not in_git and repository_top(folder) is None:
            continue
        shown = shown_from(path, here)
        there = os.path.lexists(path)
        what = "" if there else " (no file is there)"
        text = (
            f"goalfile: the Stop hook's --goal names {shown}{what}, which is not a goal file "
            "git holds (neither its index nor HEAD has it): a goal file anyone can write is no "
            "goal to pin the hook to, so the stop is not allowed on it"
        )
        top = repository_top(folder) if there else None
        itself = real_path(path.parent) / path.name
        if top is not None and itself.is_relative_to(real_path(top)):
            from goalfile.commands.gitgoals import git_from

            relative = itself.relative_to(real_path(top)).as_posix()
            advice = (
                f"fix: `{git_from(top, here)} add -f -- {shell_word(relative)}` once a person "
                "has read it and means the hook to be pinned to it; else take --goal out of the "
                "hook command (`goalfile doctor --fix-hooks` does)"
            )
        else:
            advice = (
                "name a goal file git holds with --goal, or take --goal out of the hook command "
                "(`goalfile doctor --fix-hooks` does)"
            )
        found[path] = hold_once(shown, "unheld", text, advice, stop)
    return found
