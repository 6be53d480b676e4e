"""The holds on a goal file git tracks that the working tree does not show as git holds it:
hidden, converted by a git attribute, replaced by another goal, changed while the hook read it,
reached through a symlink; and on a repository git cannot list or a goal folder that cannot be
read.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.hookrules.gitview import GitView, tracked_goal
from goalfile.commands.hookrules.outcome import GoalOutcome, hold_once
from goalfile.commands.hookrules.places import shown_from
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.files import real_path
from goalfile.shellword import shell_word

if TYPE_CHECKING:
    from goalfile.commands.gitgoals import Tracked
    from goalfile.commands.status import Unreadable


def through_link(
    path: Path, here: Path, stop: StopInput, tracked: Mapping[Path, Tracked], git: GitView
) -> GoalOutcome | None:
    """What holds a goal reached through a symlink, for the file it names: every other path
    git tracks that names that file (a tracked `goals/active.md -> auth.md` and its target
    `goals/auth.md`), and the file itself as git tracks it by its own path (under a goal
    folder that is a symlink, `goals -> docs-goals`, git lists only the link), must be there,
    seen by git, and continue HEAD's copy, as for any tracked goal file."""
    from goalfile.commands.gitgoals import hidden

    real = real_path(path)
    aliases = {other: entry for other, entry in tracked.items() if other != path}
    aliases = {other: entry for other, entry in aliases.items() if real_path(other) == real}
    if not aliases and real.is_file():
        itself = tracked_goal(str(real), [])
        aliases, git = itself.tracked, itself
    for other, entry in sorted(aliases.items()):
        shown = shown_from(other, here)
        if hidden(other, entry):
            return hidden_hold(other, shown, entry, here, stop)
        why = git.swapped.get(other)
        if why is not None:
            return replaced_hold(shown, why, entry, here, stop, staged=other in git.staged)
    return None


def hidden_hold(path: Path, shown: str, entry: Tracked, here: Path, stop: StopInput) -> GoalOutcome:
    """A goal file git tracks that the working tree does not show (deleted, moved out of the
    goal folders, removed from the index, or marked skip-worktree or assume-unchanged): the
    goal is still the repository's, so it holds the agent like a file that does not load."""
    from goalfile.commands.gitgoals import restore_command, standing

    there = standing(path)  # what git would delete to put the file back: moved away first
    moved = "" if there is None else f" ({there} in its place is moved, not deleted)"
    where = "the index" if entry.in_index else "HEAD (the index no longer does)"
    if entry.flagged:
        marks = " and ".join(
            name
            for name, on in (
                ("skip-worktree", entry.skip_worktree),
                ("assume-unchanged", entry.assume_unchanged),
            )
            if on
        )
        gone = "" if path.is_file() else ", and the file is gone"
        gone = gone if there is None else f", and {there} stands in its place"
        what = (
            f"git tracks the goal file {shown}, but it is marked {marks}, so `git status` and "
            f"`git diff` do not show what happens to it{gone}"
        )
    else:
        has = "no such file" if there is None else f"{there} there, not the file"
        what = (
            f"git tracks the goal file {shown} ({where} holds it), but the working tree has {has}"
        )
    return hold_once(
        shown,
        "hidden",
        f"goalfile cannot verify {shown}: {what}\n"
        f"  fix: `{restore_command(path, entry, here=here)}`",
        f"Restore it as the fix says{moved}; a goal file that is gone or hidden from git is no "
        "way to stop (a person who retires a goal commits its removal).",
        stop,
    )


def converted_hold(path: Path, shown: str, here: Path, stop: StopInput) -> GoalOutcome | None:
    """A goal file git tracks that a git attribute converts (:mod:`goalfile.gitattrs`: a
    clean filter, ``ident``, ``working-tree-encoding``): what git's index, HEAD and a commit
    hold of it is not what the file holds, so the comparisons with them prove nothing; it
    holds the agent, with the command that deletes the line setting the attribute."""
    from goalfile.gitattrs import check

    refused = check(os.path.relpath(path, here), here)
    if refused is None:
        return None
    message, fix = refused
    return hold_once(
        shown,
        "converted",
        f"goalfile cannot verify {shown}: {message}\n  fix: {fix}",
        "Delete the line as the fix says; a git filter or conversion on a goal file is no way "
        "to stop (a person commits exactly the goal they approved).",
        stop,
    )


def replaced_hold(
    shown: str,
    why: str,
    entry: Tracked,
    here: Path,
    stop: StopInput,
    *,
    staged: bool = False,
    keep: str | None = None,
) -> GoalOutcome:
    """A goal file git tracks whose working copy is not a continuation of the one HEAD holds
    (another goal copied or linked over it, a committed ledger entry rewritten), or, when
    ``staged``, of the one the index holds where HEAD holds none: the goal at that path is
    git's, so it holds the agent like a hidden one. The fix keeps what the working file holds
    that git's copy does not (``keep``, :func:`goalfile.commands.hookrules.gitview.keeping`):
    `goalfile restore`, which puts back git's entries and keeps those written since; else a copy
    saved before the checkout; else (nothing to lose) the checkout alone."""
    from goalfile.commands.gitgoals import checkout_command, saved_checkout

    shown = os.path.relpath(real_path(entry.root) / entry.relative, here)  # the tracked name
    source = "the index" if staged else "HEAD"
    held = " (HEAD holds none there)" if staged else ""
    if keep == "restore":
        fix = f"goalfile restore {shell_word(shown)}"
        does = (
            f"it puts back the entries {source} holds, as it holds them, and keeps the entries "
            "written since"
        )
    elif keep == "save":
        fix = saved_checkout(entry, here=here, source=source)
        does = (
            f"it keeps a copy of the file, then replaces the file there with {source}'s; the "
            "copy holds the entries written since"
        )
    else:
        fix = checkout_command(entry, here=here, source=source)
        does = f"it replaces the file there with {source}'s"
    return hold_once(
        shown,
        "replaced",
        f"goalfile cannot verify {shown}: the file the working tree holds there does not "
        f"continue the goal {source} holds there{held}: {why}\n"
        f"  fix: `{fix}`",
        f"Put the goal back as the fix says ({does}) and make its checks pass; another goal's "
        "file at its path is no way to stop (a person who means the change commits it).",
        stop,
    )


def changed_while_read(shown: str, source: str, why: str, stop: StopInput) -> GoalOutcome:
    """A tracked goal file that continued the copy git holds when the hook compared them, and
    that a moment later, when the hook read it to decide, did not: another file was put at its
    path while the hook read it (and may be back by now). Held once per finding, as a goal
    file swapped is."""
    return hold_once(
        shown,
        "replaced",
        f"goalfile cannot verify {shown}: it changed while the Stop hook read it: the file "
        f"there continued the goal {source} holds when the hook compared them, and the file it "
        f"read there a moment later does not: {why}",
        "A file put at a goal file's path while the Stop hook reads it (and put back after) is "
        "no way to stop: end the process that does it and make the goal's checks pass; the "
        "next stop reads the goal again.",
        stop,
    )


def unlisted_hold(root: Path, exc: Exception, here: Path, stop: StopInput) -> GoalOutcome:
    """A repository the session is in that git could not list: a goal file git tracks there
    may be hidden, so it holds the agent once, with git's error (and, where one is known, the
    command that lets git list it again)."""
    shown = shown_from(root, here)
    git = f"git -C {shell_word(shown)}"
    ref = getattr(exc, "ref", None)
    branches = getattr(exc, "branches", ())
    safe = getattr(exc, "safe_directory", None)
    fix = ""
    if isinstance(ref, str) and ref.startswith("refs/heads/"):
        fix = f"\n  fix: `{git} symbolic-ref HEAD {shell_word(ref)}`"
        advice = (
            "Point HEAD back at the branch it was on as the fix says (or, on a new branch a "
            "person started, commit on it); a repository git cannot list is no way to stop."
        )
    elif branches:
        names = ", ".join(name.removeprefix("refs/heads/") for name in branches)
        advice = (
            f"HEAD was moved to a branch with no commit, and git's records name no single "
            f"branch it was on (`{git} branch --list` lists them: {names}): point HEAD back at "
            f"the one the work is on (`{git} symbolic-ref HEAD refs/heads/NAME`), or, on a new "
            "branch a person started, commit on it; a repository git cannot list is no way to "
            "stop."
        )
    elif isinstance(safe, str):
        fix = f"\n  fix: `git config --global --add safe.directory {shell_word(safe)}`"
        advice = (
            "git refuses a repository another user owns: a person who trusts it marks it safe as "
            "the fix says (or gives it to the user the session runs as); a repository git cannot "
            "list is no way to stop."
        )
    elif getattr(exc, "forged", False):
        advice = (
            f"`{git} fsck` names the object written over or missing; put the real one back (a "
            "clone of the repository, or its remote, holds it: copy its file, or delete the "
            "rewritten file and fetch); a repository whose objects do not hold what their "
            "names say is no way to stop."
        )
    elif getattr(exc, "hung", False):
        advice = (
            "git waits on something in the repository: `ls -l "
            f"{shell_word(os.path.join(shown, '.git'))}/` shows a FIFO or a file on a file "
            "system that does not answer (at .git/index or .git/HEAD, say); put it right so "
            "that git answers; a repository git cannot list is no way to stop."
        )
    else:
        advice = (
            f"`{git} status` shows git's error; repair the repository (its .git/index, its "
            ".git/config, its HEAD) so that git lists it again; a repository git cannot list "
            "is no way to stop."
        )
    return hold_once(
        shown,
        "unlisted",
        f"goalfile cannot tell which goal files git tracks in the repository at {shown}: "
        f"{exc}{fix}",
        advice,
        stop,
    )


def unread_hold(problem: Unreadable, here: Path, stop: StopInput) -> GoalOutcome:
    """A part of a goal folder goal discovery could not read: a goal there could go unseen,
    so it holds the agent once, naming it."""
    folder, name = os.path.split(problem.path)  # the entry itself, never what it links to
    shown = os.path.relpath(real_path(Path(folder)) / name, here)
    fix = problem.fix(shown)
    return hold_once(
        shown,
        "unreadable",
        f"goalfile cannot look for goals in {shown}: {problem.reason}"
        + (f"\n  fix: `{fix}`" if fix else ""),
        "Make the goal folder readable again as the fix says (nothing is deleted); a goal "
        "folder goalfile cannot read is no way to stop.",
        stop,
    )
