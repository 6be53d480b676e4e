"""The folders the Stop hook works from: the session's folder, the repositories around it, and
each goal file as the agent's shell names it from there.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from goalfile.commands.context import Context
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.files import real_path
from goalfile.goalfolders import GOAL_FOLDERS
from goalfile.shellword import shell_word


def project_roots(start: Path, notes: list[str] | None = None) -> list[Path]:
    """The repositories whose goals hold the agent, innermost first: every git work tree that
    holds ``start`` (the session's folder, :func:`session_folder`), as git names them
    (:func:`goalfile.commands.gittop.work_trees`), and every folder at or above it that holds
    a ``.git`` entry git names no work tree for (`git config core.bare true`, a
    ``core.worktree`` elsewhere, a broken ``gitdir:`` line, an empty ``.git`` file planted in
    a sub-folder); an empty ``.git`` folder is no ``.git`` (:func:`holds_git`). A ``.git``
    only ever adds a repository: one git accepts (`git init scratch`) adds a tree without
    dropping the project's own, and one git will not read is no way to hide the goals of the
    folder that holds it. Outside git, the folder itself."""
    from goalfile.commands.gittop import holds_git, work_trees

    named = work_trees(start)
    unnamed = [
        folder for folder in (start, *start.parents) if folder not in named and holds_git(folder)
    ]
    if notes is not None:
        for folder in unnamed:
            if any((folder / goals).is_dir() for goals in GOAL_FOLDERS):
                notes.append(
                    f"git names no work tree for the repository at {folder} (core.bare or "
                    f"core.worktree set, or its .git broken: `git -C {shell_word(str(folder))} "
                    "rev-parse --show-toplevel` says why); its goals hold the agent all the same"
                )
    roots = sorted({*named, *unnamed}, key=lambda folder: len(folder.parts), reverse=True)
    return roots or [start]


def session_folder(stop: StopInput, ctx: Context, notes: list[str] | None = None) -> Path:
    """The hook input's ``cwd`` when it is a folder, else the process's: also when asking
    about it fails (a ``cwd`` past the system's path limit, in a folder that cannot be
    searched, or ``~user`` for no such user), which is noted."""
    try:
        start = Path(stop.cwd).expanduser() if stop.cwd else ctx.cwd
        if not start.is_absolute():
            start = ctx.cwd / start
        return start.resolve() if start.is_dir() else ctx.cwd.resolve()
    except (OSError, RuntimeError, ValueError) as exc:
        if notes is not None:
            notes.append(
                f"the hook input's cwd cannot be used ({type(exc).__name__}: {exc}); the goals "
                f"of {ctx.cwd} are looked at"
            )
        return ctx.cwd


def unique_files(paths: list[Path], first: Collection[Path] = ()) -> list[Path]:
    """``paths`` without those that name a file an earlier one names (through a symlink), in
    their order; a path in ``first`` (a goal file git tracks) is kept over any other that
    names the same file: a symlink at a tracked goal's path into a folder git ignores never
    makes the hook look only at the untracked name."""
    kept: dict[Path, int] = {}
    for index in sorted(range(len(paths)), key=lambda at: paths[at] not in first):
        kept.setdefault(real_path(paths[index]), index)
    chosen = set(kept.values())
    return [path for index, path in enumerate(paths) if index in chosen]


def transcript_file(stop: StopInput, notes: list[str]) -> str | None:
    if stop.transcript_path is None:
        return None
    path = os.path.expanduser(stop.transcript_path)
    if not os.path.isfile(path):
        notes.append(f"transcript {path} not found; token usage is not read")
        return None
    return path


def idle_key(path: Path, roots: list[Path]) -> tuple[Path | None, str]:
    """The git folder of the innermost repository that holds ``path``, and ``path`` relative
    to that repository's top: where Gemini's storm guard keeps its marker, and the goal it is
    kept for (the same from whatever folder the session calls the hook)."""
    from goalfile.commands.focus import git_dir

    for root in roots:
        try:
            relative = path.resolve().relative_to(root.resolve())
        except ValueError:
            continue
        return git_dir(root), relative.as_posix()
    return None, str(path)


def shown_from(path: Path, start: Path) -> str:
    """``path`` as the agent's shell reaches it from the session's folder ``start``: the
    reasons and their fix commands name it so, and a fix runs as written there, also when the
    session's folder is a sub-folder of the repository."""
    return os.path.relpath(real_path(path), start)
