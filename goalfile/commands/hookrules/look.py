"""What one goal file asks before anything is run (:func:`look`): every rule of
:mod:`goalfile.commands.hookrules` applied in turn to one read of the file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.hookrules.gitview import (
    GitView,
    departs,
    entries_git_holds,
    keeping,
    tracked_goal,
)
from goalfile.commands.hookrules.outcome import GoalOutcome, Recheck
from goalfile.commands.hookrules.statusrules import (
    blocked_before,
    drafted,
    ended_today,
    met_since_git,
    unbacked_hold,
)
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.errors import GoalfileError
from goalfile.files import load_goal, real_path
from goalfile.handedit import unbacked_status
from goalfile.model import Finding, Kind, Status

if TYPE_CHECKING:
    from goalfile.commands.gitgoals import Tracked


def look(
    path: Path,
    shown: str,
    here: Path,
    stop: StopInput,
    *,
    named: frozenset[Path],
    held: Mapping[Path, Finding],
    tracked: Mapping[Path, Tracked],
    git: GitView | None = None,
    today: str = "",
    seen: dict[Path, str] | None = None,
    moved: frozenset[Path] = frozenset(),
) -> GoalOutcome | frozenset[str] | Recheck | None:
    """What one goal file asks before anything is run: an outcome (it is absent, hidden from
    the working tree, does not load, carries a status its ledger does not back, or is picked by
    name and not active), the ids of its review rows when it is active and is to be verified,
    a :class:`goalfile.commands.hookrules.outcome.Recheck` when it is `met` by an entry the copy git
    holds does not have (its checks are run again, writing nothing), or None (a discovered goal that
    is not active). All of it is decided on the text one read of the file gives (kept in ``seen``:
    verify runs that text or refuses): a file renamed into its place between two reads, and back
    after the stop, is never what the decision is made on. A goal of ``moved`` (active at the
    session's earlier stop, its branch moved since: :meth:`goalfile.commands.hookrepo.
    RepositoryWatch.branch_moved`) counts none of its entries as held by git."""
    entry = tracked.get(path)
    if entry is None and path in named and not path.is_file():
        real = path.resolve()  # asked of the file it names, in the repository holding it
        entry = tracked_goal(str(real), []).tracked.get(real)
    if entry is not None:
        from goalfile.commands.gitgoals import hidden
        from goalfile.commands.hookrules.githolds import (
            converted_hold,
            hidden_hold,
            replaced_hold,
        )

        if hidden(path, entry):  # gone or unseen, while git tracks it
            return hidden_hold(path, shown, entry, here, stop)
        converted = converted_hold(path, shown, here, stop)
        if converted is not None:  # git stores other bytes than the file holds: a filter
            return converted
        swapped = git.swapped.get(path) if git is not None else None
        if swapped is not None:  # another goal, or a rewritten one, where git tracks this one
            staged = git is not None and path in git.staged
            keep = keeping(path, entry, git) if git is not None else None
            return replaced_hold(shown, swapped, entry, here, stop, staged=staged, keep=keep)
    if git is not None and real_path(path) != path:  # reached through a symlink (at the file or
        from goalfile.commands.hookrules.githolds import through_link

        linked = through_link(path, here, stop, tracked, git)  # a folder above it)
        if linked is not None:
            return linked
    if path in named and not path.exists():
        return GoalOutcome(
            path=shown,
            status="absent",
            block=False,
            message=f"goalfile: no goal file at {shown}; the stop is allowed",
        )
    try:
        goal = load_goal(path)
    except GoalfileError as exc:  # a goal that does not load holds the agent like a refusal
        from goalfile.commands.hookrules.loadholds import unreadable_hold

        return unreadable_hold(shown, exc, stop, path=path)
    if entry is not None and git is not None:  # the text read now, not only the one compared
        departed = departs(path, goal.text, entry, git)  # with git's copy a moment before
        if departed is not None:
            from goalfile.commands.hookrules.githolds import changed_while_read

            return changed_while_read(shown, *departed, stop)
    if seen is not None:
        seen[path] = goal.text
    if goal.status is not Status.ACTIVE:  # (verify refuses an active one with the same error)
        from goalfile.headingrule import heading_error

        lookalike = heading_error(goal, shown=shown)  # a heading no reader takes: its entry
        if lookalike is not None:  # (a `status:` line among them) is read into the one before
            from goalfile.commands.hookrules.loadholds import unreadable_hold

            return unreadable_hold(shown, lookalike, stop, path=path)
    hand_set = held.get(path.resolve())
    if hand_set is not None:  # its fix names the goal as the session's shell reaches it
        from goalfile.commands.hookrules.focus import hand_set_active

        hand_set = hand_set_active(goal, shown) or hand_set
    unbacked = hand_set or unbacked_status(goal, shown=shown)
    if unbacked is None and goal.status is Status.DRAFT and entry is not None and git is not None:
        unbacked = drafted(path, goal, entry, git, shown)  # typed over a goal git holds
    if unbacked is not None:  # e.g. `status: met` typed by hand: it lets no one stop
        return unbacked_hold(shown, unbacked, stop)
    if goal.status is Status.BLOCKED:
        transcript = stop.transcript_path and os.path.expanduser(stop.transcript_path)
        blocked = blocked_before(path, shown, goal, transcript or None)
        if blocked is not None:
            return blocked
    if goal.status is Status.ACTIVE:
        from goalfile.commands.hookrules.approval import unapproved_hold
        from goalfile.commands.hookrules.settingsrule import bad_path

        bad = bad_path(goal, shown, stop)
        if bad is not None:  # verify would refuse it; the reason says which lines to delete
            return bad
        unapproved = unapproved_hold(path, shown, goal, here, stop, git=git)
        if unapproved is not None:  # its checks are not run: no person approved them
            return unapproved
        return frozenset(c.id for c in goal.criteria if c.kind is Kind.REVIEW)
    branch_moved = real_path(path) in moved
    if goal.status in (Status.PAUSED, Status.EXHAUSTED, Status.BLOCKED) and (
        told := ended_today(
            goal, shown, today, held=0 if branch_moved else entries_git_holds(path, entry)
        )
    ):
        return told
    if goal.status is Status.MET and met_since_git(
        goal, 0 if branch_moved else entries_git_holds(path, entry, git)
    ):
        from goalfile.commands.hookrules.approval import unapproved_hold

        unapproved = unapproved_hold(path, shown, goal, here, stop, git=git)
        if unapproved is not None:  # its checks are not run: no person approved them
            return unapproved
        reviews = frozenset(c.id for c in goal.criteria if c.kind is Kind.REVIEW)
        return Recheck(reviews=reviews, moved=branch_moved)
    if path in named:
        return GoalOutcome(
            path=shown,
            status=goal.status.value,
            block=False,
            message=f"goalfile: {goal.slug} is {goal.status.value}; the stop is allowed",
        )
    return None
