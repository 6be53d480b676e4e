"""Which goal files the Stop hook looks at: the one ``--goal`` names, else each repository's
focused goal, else every goal file of each repository (with those git tracks that the working
tree does not show, and the goals a focus named outside the goal folders).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.gittop import holds_git
from goalfile.commands.hookrules.places import unique_files
from goalfile.commands.hookrules.stopinput import HookOptions
from goalfile.files import real_path
from goalfile.goalfolders import under_goal_folder
from goalfile.model import Finding

if TYPE_CHECKING:
    from goalfile.commands.gitgoals import Tracked
    from goalfile.commands.status import Unreadable


def goal_paths(
    options: HookOptions,
    roots: list[Path],
    notes: list[str],
    *,
    held: dict[Path, Finding] | None = None,
    tracked: Mapping[Path, Tracked] | None = None,
    problems: dict[str, Unreadable] | None = None,
) -> tuple[list[Path], frozenset[Path]]:
    """The goal files to look at, and those of them picked by name: ``--goal`` (a relative
    one resolved against each repository's top level, never against ``cwd``), else each
    repository's focused goal, else every goal file of each repository, with those git
    ``tracked`` that the working tree does not show. A goal picked by name that is absent or
    not active is answered for; a discovered one is passed over. A focused goal whose `active`
    the ledger does not back goes into ``held``, with the finding. A part of a goal folder
    that cannot be read goes into ``problems``."""
    if options.goal is not None:
        given = Path(options.goal).expanduser()
        if given.is_absolute():
            return [given], frozenset([given])
        found = [
            root / given
            for root in roots
            if (root / given).is_file() or root / given in (tracked or {})
        ]
        paths = unique_files(found) or [roots[0] / given]
        return paths, frozenset(paths)
    from goalfile.commands.hookrules.focus import focused_goal  # here: --goal reads no focus

    picked: list[Path] = []
    named: set[Path] = set()
    for root in roots:
        blocked: list[Path] = []
        try:
            focused = focused_goal(root, notes, {} if held is None else held, blocked)
        except Exception as exc:  # a focus record no rule foresaw: every goal is looked at
            notes.append(f"the focus is ignored: {type(exc).__name__}: {exc}")
            focused = None
        if focused is not None:
            named.add(focused)
        if focused is None:
            picked += _discover(root, tracked or {}, {} if problems is None else problems)
            picked += blocked  # looked at too, where it is: its block may hold the agent once
        else:
            picked.append(focused)
    return unique_files(picked, tracked or {}), frozenset(named)


def _discover(
    root: Path, tracked: Mapping[Path, Tracked], problems: dict[str, Unreadable]
) -> list[Path]:
    """Every goal file of the repository at ``root`` (:func:`goalfile.commands.status.scan`),
    then those git tracks there that the working tree does not hold. The parts of its goal
    folders that cannot be read go into ``problems``."""
    from goalfile.commands.status import scan

    listed, unreadable = scan(root)
    for problem in unreadable:
        problems.setdefault(problem.path, problem)
    found = [Path(p) for p in listed]
    there = set(found)
    gone = [path for path in tracked if path not in there and under_goal_folder(path, root)]
    held = _held_outside(root, tracked) if holds_git(root) else []
    return found + sorted(gone) + held


def _held_outside(root: Path, tracked: Mapping[Path, Tracked]) -> list[Path]:
    """The goals outside the goal folders that a focus named in the working tree at ``root``
    (:mod:`goalfile.commands.focusheld`), looked at as discovered ones whatever the focus says
    now: each that is there, or that git tracks (then gone or hidden, it holds the agent)."""
    from goalfile.commands.focusheld import held

    found = []
    for relative in held(root):
        path = Path(os.path.normpath(root / relative))
        if not path.is_relative_to(root) or under_goal_folder(path, root):
            continue  # a goal folder's goals are discovered; nothing outside the repository
        if os.path.lexists(path) or path in tracked:
            found.append(path)
    return found


def other_goals(
    roots: list[Path],
    paths: list[Path],
    tracked: Mapping[Path, Tracked],
    problems: dict[str, Unreadable],
) -> list[Path]:
    """Every goal file of the repositories at ``roots`` that is not in ``paths``: those a
    focus left out, which hold the agent once the focused goal lets it stop."""
    taken = {real_path(path) for path in paths}
    found = [path for root in roots for path in _discover(root, tracked, problems)]
    return [path for path in unique_files(found, tracked) if real_path(path) not in taken]
