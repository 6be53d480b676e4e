"""`goalfile focus PATH`: the one goal this working tree's sessions work on.

Without a focus, the Stop hook holds a session to every active goal of the repository, so one
block reason can name two unrelated goals. The focus is a small JSON file in the working tree's
own git folder (``.git/goalfile-focus.json``; for a linked worktree, that worktree's folder under
``.git/worktrees/``), which git does not track and which is not shared between worktrees. The
hook verifies the focused goal first, and the other goals only once the focused one lets the
agent stop: a focus orders and names the goals, it never releases the agent.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Final

from goalfile import files
from goalfile.commands.context import Context
from goalfile.commands.gittop import holds_git
from goalfile.commands.workdir import repository_top
from goalfile.errors import GoalfileError, NoSuchGoalFile, Refused, UsageError
from goalfile.files import load_goal, real_path
from goalfile.model import Goal
from goalfile.termsafe import file_name
from goalfile.value import Compared

FOCUS_FILE = "goalfile-focus.json"
FOCUS_LIMIT = 1 << 16  # bytes read of a focus file or a `.git` file: both are a line or two
SCHEMA_VERSION = 1


class Focus(Compared):
    __slots__ = ("goal", "since")

    def __init__(self, *, goal: str, since: str) -> None:
        self.goal: Final = goal  # relative to the repository's top level
        self.since: Final = since  # YYYY-MM-DD

    def to_json(self) -> dict[str, object]:
        return {"goal": self.goal, "since": self.since}


def git_dir(root: Path) -> Path | None:
    """The git folder of the working tree at ``root``: ``.git`` itself, or the folder a
    linked worktree's ``.git`` file names (``gitdir: ...``). An empty ``.git`` folder is none
    (:func:`goalfile.commands.gittop.holds_git`)."""
    dot = root / ".git"
    if not holds_git(root):
        return None
    if dot.is_dir():
        return dot
    try:  # a FIFO or a device named .git is refused, never waited on: no git folder
        text = files.read_regular_text(dot, what=".git file", limit=FOCUS_LIMIT)
    except (OSError, UnicodeDecodeError, GoalfileError):
        return None
    if not text.startswith("gitdir:"):
        return None
    target = Path(text.removeprefix("gitdir:").strip())
    target = target if target.is_absolute() else root / target
    return target if target.is_dir() else None


def focus_file(root: Path) -> Path | None:
    folder = git_dir(root)
    return folder / FOCUS_FILE if folder is not None else None


def read_focus(root: Path) -> Focus | None:
    """The focus recorded for the working tree at ``root``; None when there is none, the file
    cannot be read (a broken focus must never trap a session), or it names a path outside the
    repository (a focus written by hand, which `goalfile focus` would refuse: `status` and the
    status line do not show it, and the Stop hook ignores it)."""
    focus = recorded_focus(root)
    if focus is None:
        return None
    try:
        real_path(root / focus.goal).relative_to(real_path(root))
    except ValueError:
        return None
    return focus


def recorded_focus(root: Path, notes: list[str] | None = None) -> Focus | None:
    """The focus file's content as it is, whatever path it names; None when there is none or
    it cannot be read. A focus file that is not a regular file (a FIFO, whose open would wait
    for a writer forever, a device, a socket) is never read from: it is no focus, with a note
    naming it and the fix in ``notes``."""
    path = focus_file(root)
    if path is None:
        return None
    try:
        text = files.read_regular_text(
            path, what="focus file", limit=FOCUS_LIMIT, hint="`goalfile focus --clear` removes it"
        )
        data = json.loads(text)
    except GoalfileError as exc:
        if notes is not None:
            notes.append(f"the focus is ignored: {exc.render()}")
        return None
    except (OSError, ValueError, RecursionError, UnicodeDecodeError):  # Recursion: deep nesting
        return None
    goal = data.get("goal") if isinstance(data, dict) else None
    since = data.get("since") if isinstance(data, dict) else None
    if not isinstance(goal, str) or not goal:
        return None
    return Focus(goal=goal, since=since if isinstance(since, str) else "")


class FocusResult(Compared):
    __slots__ = ("changed", "focus", "held", "root", "status")

    def __init__(
        self,
        *,
        root: str,
        focus: Focus | None,
        changed: bool,
        status: str | None = None,
        held: tuple[str, ...] = (),
    ) -> None:
        self.root: Final = root
        self.focus: Final = focus
        self.changed: Final = changed
        self.status: Final = status  # the focused goal's status
        # the goals outside the goal folders a focus named that are active: the Stop hook holds
        # the working tree to each whatever the focus says now (:mod:`focusheld`), as the
        # session's shell reaches each from its folder
        self.held: Final = held

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": SCHEMA_VERSION,
            "root": self.root,
            "focus": self.focus.to_json() if self.focus else None,
            "status": self.status,
            "changed": self.changed,
            "held": list(self.held),
        }


def _root(ctx: Context) -> Path:
    root = repository_top(ctx.cwd)
    if root is None:
        from goalfile.gitrun import refused_owner
        from goalfile.shellword import shell_word

        safe = refused_owner(str(ctx.cwd))
        if safe is not None:
            raise UsageError(
                f"git refuses the repository at {file_name(safe)}: another user owns it (git's "
                '"detected dubious ownership"); the focus is kept in the git folder',
                hint="if you trust it: `git config --global --add safe.directory "
                f"{shell_word(safe)}`",
                again="",  # then this very command line (the CLI boundary writes it)
            )
        raise UsageError(
            f"{ctx.cwd} is not inside a git repository; the focus is kept in the git folder",
            hint="run it inside the git repository that holds the goal; to make this folder "
            "one: `git init`",
        )
    return root


def accepted(root: Path, target: Path, *, shown: str) -> tuple[str, Goal]:
    """The goal at ``target`` (relative to the repository's top level, as the focus records
    it) when ``goalfile focus`` accepts it: a goal file inside the repository at ``root``
    (symlinks resolved) that loads. Raises :class:`GoalfileError` otherwise. The Stop hook
    honours a recorded focus only when this accepts it, so a focus file written by hand can
    point it at nothing else."""
    resolved = real_path(target)
    try:
        relative = resolved.relative_to(real_path(root))
    except ValueError:
        raise UsageError(
            f"{file_name(shown)} is not inside the repository at {root}",
            hint="`goalfile status` lists this repository's goals",
        ) from None
    goal = load_goal(str(resolved))  # refuses a missing or invalid goal file
    return relative.as_posix(), goal


def project_goal(*, path: str, ctx: Context) -> None:
    """Refuse ``path`` unless it is a goal file of the project that holds the current folder:
    inside its repository (the rule of :func:`accepted`, symlinks resolved) and one of the
    goal files that `goalfile status` lists there (``goals/``, ``.zetetic/goals/``). The
    tools an agent calls (the MCP server's, pi's) pass ``--in-project``, so a goal file the
    agent wrote anywhere else is never run, written or read through them."""
    from goalfile.commands.status import discover

    root = repository_top(ctx.cwd) or ctx.cwd
    target = ctx.cwd / Path(path).expanduser()
    rule = (
        "the goal tools accept only a goal file of this project that `goalfile status` lists "
        f"(under goals/ or .zetetic/goals/ of {root})"
    )
    hint = "`goalfile status` lists them, each by its path from the project's top"
    try:
        accepted(root, target, shown=path)
    except GoalfileError as exc:
        where = exc.location()
        found = f"{where}: {exc.message}" if where else exc.message
        raise UsageError(f"{found}; {rule}", hint=hint) from None
    listed = {real_path(Path(found)) for found in discover(root)}
    if real_path(target) not in listed:
        raise UsageError(f"{file_name(path)} is not a goal file {rule}", hint=hint)


def committed_copy(*, path: str, ctx: Context) -> tuple[str | None, str]:
    """The goal file at ``path`` as HEAD holds it (None when HEAD holds no such file, or git
    cannot say), and its path relative to the repository's top level. Read as committed: no
    replace refs, no filters."""
    from goalfile.gitrepo import git_blobs
    from goalfile.gitrun import GitUnreadable

    root = repository_top(ctx.cwd) or ctx.cwd
    resolved = real_path(ctx.cwd / Path(path).expanduser())
    try:
        relative = resolved.relative_to(real_path(root)).as_posix()
    except ValueError:
        return None, path
    try:
        [blob] = git_blobs(str(root), [f"HEAD:{relative}"])
    except (GitUnreadable, OSError):
        return None, relative
    if blob is None:
        return None, relative
    return blob.decode("utf-8", "replace"), relative


def set_focus(*, path: str, ctx: Context) -> FocusResult:
    root = _root(ctx)
    try:
        relative, goal = accepted(root, ctx.cwd / path, shown=path)
    except NoSuchGoalFile:  # named as the user typed it, with the goal file meant
        from goalfile.files import no_such_goal_file

        raise no_such_goal_file(path) from None
    where = focus_file(root)
    if where is None:
        raise Refused(f"{root}/.git is not a git folder; the focus cannot be recorded")
    focus = Focus(goal=relative, since=ctx.today)
    old = read_focus(root)
    changed = old is None or old.goal != focus.goal
    if changed:
        files.write_atomic(where, json.dumps(focus.to_json(), indent=2) + "\n")
    else:
        focus = old or focus
    from goalfile.commands.focusheld import hold

    hold(root, relative)  # a goal outside the goal folders stays held once the focus goes
    return FocusResult(
        root=str(root),
        focus=focus,
        changed=changed,
        status=goal.status.value,
        held=_held_active(root, ctx),
    )


def _held_active(root: Path, ctx: Context) -> tuple[str, ...]:
    """The goals outside the goal folders recorded as held in the working tree at ``root``
    (:mod:`goalfile.commands.focusheld`) that are active, or do not load (the hook holds such
    a file too), each as reached from the current folder."""
    from goalfile.commands.focusheld import held

    found = []
    for relative in held(root):
        path = root / relative
        if not real_path(path).is_relative_to(real_path(root)) or not os.path.lexists(path):
            continue
        try:
            if load_goal(str(path)).status.value != "active":
                continue
        except GoalfileError:
            pass
        found.append(os.path.relpath(path, ctx.cwd))
    return tuple(found)


def clear_focus(*, ctx: Context) -> FocusResult:
    root = _root(ctx)
    where = focus_file(root)
    changed = False
    if where is not None:
        try:
            os.unlink(where)
            changed = True
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise GoalfileError(f"cannot remove: {exc.strerror or exc}", file=str(where)) from None
    return FocusResult(root=str(root), focus=None, changed=changed, held=_held_active(root, ctx))


def show_focus(*, ctx: Context) -> FocusResult:
    root = _root(ctx)
    focus = read_focus(root)
    status = None
    if focus is not None:
        try:
            status = load_goal(str(root / focus.goal)).status.value
        except GoalfileError:
            status = "unreadable"
    return FocusResult(
        root=str(root), focus=focus, changed=False, status=status, held=_held_active(root, ctx)
    )
