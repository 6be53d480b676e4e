"""The Stop hook's holds made once per finding, as the session's record keeps it
(:mod:`goalfile.commands.hookrepo`), also at a stop the host marks as continuing: each rule
that makes such a hold (a goal file swapped or held for what it holds, a repository git cannot
list, a loosened `met`, a goal the hook had no time for, verify's refusal), the key of its
finding (the file as written, the folder of a file gone, a forged object's files) and
:func:`held_once`, which turns a hold the rule let go at a continuing stop into the hold made
at a first stop while the record has not seen its key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.hookrules.outcome import GoalOutcome
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.files import real_path
from goalfile.value import replace

if TYPE_CHECKING:
    from goalfile.commands.hookrepo import RepositoryWatch
    from goalfile.commands.hookrules.gitview import GitView
    from goalfile.commands.hookrules.loosened import Before
    from goalfile.hostprotocol import HostAgent

# what a goal file found as it is written holds the agent for: git's copy gone, hidden or
# swapped, bytes git stores otherwise, a file that does not load, a status its ledger does not
# back, criteria no person approved; such a hold is made once per finding, kept in the
# session's record (:mod:`goalfile.commands.hookrepo`), also at a stop the host marks as
# continuing: the agent sent back once for its unmet goal, that then types `status: met`,
# breaks the file or adds a row, is held once more
AS_WRITTEN = frozenset({"replaced", "converted", "invalid", "conflicted", "unbacked", "unapproved"})
ONCE_PER_FINDING = frozenset({"hidden", *AS_WRITTEN})


def unlisted_once(
    root: Path,
    exc: Exception,
    here: Path,
    stop: StopInput,
    repositories: RepositoryWatch,
    upgraded: dict[int, GoalOutcome],
) -> GoalOutcome:
    """A repository git cannot list (an object written over by hand, a broken index) holds the
    agent once per finding, as the session's record keeps it, also when the agent is
    continuing because of a Stop hook: held only at a stop the host says is no such one, a
    goal object forged after the agent was sent back once let it go with a message."""
    top = os.path.realpath(root)
    repositories.kept.add(top)  # what git cannot list now, the record keeps as it was
    key = f"unlisted\0{top}\0{exc}{forged_mark(root, exc, repositories)}"
    from goalfile.commands.hookrules.githolds import unlisted_hold

    found = unlisted_hold(root, exc, here, stop)
    return held_once(
        found,
        key,
        lambda: unlisted_hold(root, exc, here, replace(stop, stop_hook_active=False)),
        repositories,
        upgraded,
    )


def unverified_once(
    path: Path,
    shown: str,
    stop: StopInput,
    budget: float,
    after: int,
    repositories: RepositoryWatch,
    upgraded: dict[int, GoalOutcome],
) -> GoalOutcome:
    """A goal the hook had no time left to verify
    (:func:`goalfile.commands.hookrules.verdict.unverified_hold`) holds the agent once per
    finding (the goal file as written), as the session's record keeps it, also when it is
    continuing because of a Stop hook: the agent sent back once for its unmet goal, that then
    committed and focused a goal of its own whose check sleeps until the hook's time is nearly
    up, was let go with a message, the person's goal not verified."""
    from goalfile.commands.hookrules.verdict import unverified_hold

    key = f"unverified\0{real_path(path)}{file_mark(path)}"
    return held_once(
        unverified_hold(shown, stop, budget=budget, after=after),
        key,
        lambda: unverified_hold(
            shown, replace(stop, stop_hook_active=False), budget=budget, after=after
        ),
        repositories,
        upgraded,
    )


def loosened_once(
    path: Path,
    shown: str,
    text: str,
    here: Path,
    stop: StopInput,
    git: GitView,
    repositories: RepositoryWatch,
    upgraded: dict[int, GoalOutcome],
    *,
    unplaced: bool = False,
) -> GoalOutcome | None:
    """A `met` under criteria HEAD's copy does not approve
    (:func:`goalfile.commands.hookrules.loosened.loosened_hold`) holds the agent once per
    finding (the file as written), as the session's record keeps it, also when it is
    continuing because of a Stop hook: the agent sent back once for its unmet goal, that then
    loosens a row, approves it itself and verifies it met, is held. When the branch moved
    since the session's earlier stop, where the goal was active, the criteria git held then
    count first (:func:`goalfile.commands.hookrules.loosened.loosened_since`): the agent that
    also committed its own re-approval is held too. A loosening this session was already
    held for and told of (the file as written) is judged by HEAD's copy alone: the person
    who read it approves the change by the commit the message gives. At a stop after a hold
    whose record is gone (``unplaced``), no commit is known to be the one the goal was active
    on: its first approval entry counts first
    (:func:`goalfile.commands.hookrules.loosened.loosened_first`)."""
    from goalfile.commands.hookrules.loosened import (
        loosened_first,
        loosened_hold,
        loosened_since,
    )

    key = f"loosened\0{real_path(path)}{file_mark(path)}"
    if unplaced and not repositories.told(key):
        first = loosened_first(path, shown, text, stop)
        if first is not None:
            return held_once(
                first,
                f"loosened-first\0{real_path(path)}{file_mark(path)}",
                lambda: loosened_first(path, shown, text, replace(stop, stop_hook_active=False)),
                repositories,
                upgraded,
            )
    before = None if repositories.told(key) else copy_before(path, repositories)
    if before is not None:
        found = loosened_since(path, shown, text, stop, before)
        if found is not None:
            return held_once(
                found,
                f"loosened-since\0{real_path(path)}{file_mark(path)}",
                lambda: loosened_since(
                    path, shown, text, replace(stop, stop_hook_active=False), before
                ),
                repositories,
                upgraded,
            )
    found = loosened_hold(path, shown, text, here, stop, git=git)
    if found is None:
        return None
    return held_once(
        found,
        key,
        lambda: loosened_hold(
            path, shown, text, here, replace(stop, stop_hook_active=False), git=git
        ),
        repositories,
        upgraded,
    )


def copy_before(path: Path, repositories: RepositoryWatch) -> Before | None:
    """What the goal file was at the session's earlier stop, for a goal active then whose
    branch moved since (:meth:`goalfile.commands.hookrepo.RepositoryWatch.commit_before`): the
    copy the commit HEAD was on holds, else (a goal only staged then) the copy the index held;
    None for any other goal, and when git cannot give that copy (then HEAD's approval decides,
    as at a first stop)."""
    found = repositories.commit_before(path)
    if found is None:
        return None
    top, commit, relative, staged, start = found
    from goalfile.commands.hookrules.loosened import Before
    from goalfile.gitrepo import git_blobs
    from goalfile.gitrun import GitUnreadable

    try:
        (copy,) = git_blobs(top, [f"{commit}:{relative}"])
        if copy is not None:
            return Before(name=commit, copy=copy, staged=False, start=start)
        (copy,) = git_blobs(top, [staged]) if staged else (None,)
    except GitUnreadable:
        return None
    return None if copy is None else Before(name=staged, copy=copy, staged=True, start=start)


def held_once(
    found: GoalOutcome,
    key: str,
    held: Callable[[], GoalOutcome | None],
    repositories: RepositoryWatch,
    upgraded: dict[int, GoalOutcome],
) -> GoalOutcome:
    """``found`` as a hold made once per finding (``key``), as the session's record keeps it:
    where the rule let the agent go (at a stop marked continuing), the hold ``held`` makes as
    at a first stop, when the record has not seen ``key`` (``upgraded`` keeps what it
    replaced, for a record that cannot be saved); a hold the rule made is recorded."""
    if not found.block and repositories.first_hold(key):
        again = held()
        if again is not None and again.block:
            upgraded[id(again)] = found
            return again
    elif found.block:
        repositories.hold_made(key)
    return found


def asker(repositories: RepositoryWatch, key: str, asked: list[bool]) -> Callable[[], bool]:
    """Whether the hold ``key`` names is still to be made at this stop
    (:meth:`goalfile.commands.hookrepo.RepositoryWatch.first_hold`), each answer kept in
    ``asked``."""

    def once() -> bool:
        asked.append(repositories.first_hold(key))
        return asked[-1]

    return once


def refused_once(
    path: Path,
    found: GoalOutcome,
    repositories: RepositoryWatch,
    upgraded: dict[int, GoalOutcome],
    agent: HostAgent,
) -> GoalOutcome:
    """verify's refusal (:func:`goalfile.commands.hookrules.verdict.refused_hold`: the goal's
    lock held by a process of the agent's, say) holds the agent once per finding (the refusal
    and the goal file as written), as the session's record keeps it, also when it is
    continuing because of a Stop hook: sent back once for its unmet goal, an agent that left a
    process holding the lock was let go with a message. ``agent``: the host, whose words the
    hold uses."""
    from goalfile.commands.hookrules.verdict import refused_advice

    text = (found.message if not found.block else (found.reason or "").rsplit("\n", 1)[0]) or ""
    key = f"refused\0{real_path(path)}{file_mark(path)}\0{text}"
    return held_once(
        found,
        key,
        lambda: replace(
            found, block=True, message=None, reason=f"{text}\n{refused_advice(text, agent)}"
        ),
        repositories,
        upgraded,
    )


def as_message(held: GoalOutcome) -> GoalOutcome:
    """A hold made by :func:`goalfile.commands.hookrules.outcome.hold_once` as it lets the
    agent go: the same text, as a message."""
    text = (held.reason or "").rsplit("\n", 1)[0]
    return replace(held, block=False, reason=None, message=text)


def file_mark(path: Path) -> str:
    """A mark of the file at ``path`` as written: its inode, status-change time and size;
    empty when it cannot be read."""
    try:
        found = os.lstat(path)
    except (OSError, ValueError):
        return ""
    return f"\0{found.st_ino}:{found.st_ctime_ns}:{found.st_size}"


def gone_mark(path: Path) -> str:
    """For a goal file that is gone, a mark of the folder it was in: its inode and
    status-change time, which every file made, deleted or renamed in it changes (the file put
    back by the printed fix and deleted again before the next stop is another finding, which
    the file's path alone did not tell), as :func:`goalfile.commands.hookrepo.folder_marks`
    makes it for a goal the record kept; empty while the file is there."""
    from goalfile.commands.hookrepo import folder_marks

    return "" if os.path.lexists(path) else folder_marks([path])


def forged_mark(root: Path, exc: Exception, repositories: RepositoryWatch) -> str:
    """For an object found not to hold what its name says, a mark of each loose object file
    the finding names, as written: its inode and status-change time (the fix puts the real
    object back, and the same bytes written over it again before the next stop are another
    finding); empty for the other findings."""
    if not getattr(exc, "forged", False):
        return ""
    place = repositories.place(os.path.realpath(root))
    if place is None:
        return ""
    marks: list[str] = []
    for oid in sorted(set(_OBJECT_ID.findall(str(exc)))):
        try:
            found = os.lstat(os.path.join(place.common, "objects", oid[:2], oid[2:]))
        except (OSError, ValueError):
            continue
        marks.append(f"{oid}:{found.st_ino}:{found.st_ctime_ns}")
    return "\0" + ",".join(marks)


def written(path: Path, status: str) -> str:
    """For a goal file found swapped (``replaced``) or held for what it holds (it does not
    load, its status is not backed, ...: :data:`AS_WRITTEN`), a mark of the file as written:
    its inode, status-change time and size (a rewrite, by `sed -i`, `git checkout` or a copy,
    changes them, and no one can set the status-change time back; the hook does not write such
    a file); for one found hidden that is gone, a mark of its folder (:func:`gone_mark`);
    empty for the other findings."""
    if status == "hidden":
        return gone_mark(path)
    if status not in AS_WRITTEN:
        return ""
    return file_mark(path)


_OBJECT_ID = re.compile(r"\b(?:[0-9a-f]{64}|[0-9a-f]{40})\b")
