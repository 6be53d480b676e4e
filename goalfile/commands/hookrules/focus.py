"""The focus as the Stop hook honours it: the focused goal of a repository when it is active
and its `active` the ledger backs, and whether the focused goals let the other goals be looked
at.
"""

from __future__ import annotations

import os
from pathlib import Path

from goalfile.commands.hookrules.gitview import tracked_goal
from goalfile.commands.hookrules.outcome import GoalOutcome
from goalfile.errors import GoalfileError
from goalfile.goalfolders import under_goal_folder
from goalfile.model import Finding, Goal, Severity, Status
from goalfile.termsafe import file_name


def focus_releases(outcomes: list[GoalOutcome], notes: list[str], *, by: str | None) -> bool:
    """Whether the focused goals' ``outcomes`` (``by`` a ``--goal``, the goal it names) let
    the agent stop; if so, with a note, the other goals of the repository are looked at too
    (a focus never releases the agent, nor does ``--goal``)."""
    if any(outcome.block for outcome in outcomes):
        return False
    if by is not None:
        notes.append(
            "the goal --goal names lets the agent stop; --goal never lets the agent stop while "
            "another active goal git holds is unmet, so every other goal file git holds is "
            "looked at too"
        )
        return True
    notes.append(
        "the focused goal lets the agent stop; a focus never releases the agent, so every "
        "other goal of the repository is looked at too"
    )
    return True


def keep_held(named: frozenset[Path], roots: list[Path]) -> None:
    """Record each focused goal outside the goal folders as held (:mod:`focusheld`), so that
    a focus cleared or moved later does not release the agent from it."""
    from goalfile.commands.focusheld import hold

    for path in named:
        root = next((root for root in roots if path.is_relative_to(root)), None)
        if root is not None and not under_goal_folder(path, root):
            hold(root, path.relative_to(root).as_posix())


def focused_goal(
    root: Path, notes: list[str], held: dict[Path, Finding], blocked: list[Path]
) -> Path | None:
    """The focused goal of the repository at ``root``, when `goalfile focus` would accept it
    (a goal file inside this repository that loads) and it is active; otherwise the focus is
    ignored with a note, and every goal of the repository is looked at. A focus only narrows
    the active goals: focusing a goal that is met, paused, blocked, exhausted or a draft is no
    way to let the agent stop while another goal is active and unmet. Nor is an `active` the
    ledger does not back (typed over a `met`, and no entry written since): the focus is
    ignored and the goal goes into ``held``, which holds the agent as an unbacked `met` does.
    A focused goal that is `blocked` goes into ``blocked``: it is looked at with the others,
    wherever it lies (a verify run's block holds the agent once,
    :func:`goalfile.commands.hookrules.statusrules.blocked_before`)."""
    # imported here: with `--goal`, no focus is read
    from goalfile.commands.focus import accepted, recorded_focus

    focus = recorded_focus(root, notes)  # a FIFO there is no focus, with a note
    if focus is None:
        return None
    ignored = "every goal of the repository is looked at (`goalfile focus --clear` ends it)"
    unseen = _focus_unseen(root, focus.goal)
    if unseen is not None:  # held as a tracked goal file that is gone or swapped (`look`)
        notes.append(f"focus: {file_name(focus.goal)} ({unseen})")
        return Path(os.path.normpath(root / focus.goal))
    if not (root / focus.goal).is_file():
        notes.append(f"the focused goal {file_name(focus.goal)} does not exist; {ignored}")
        return None
    try:
        relative, goal = accepted(root, root / focus.goal, shown=focus.goal)
    except GoalfileError as exc:
        notes.append(
            f"the focus is ignored, as `goalfile focus` would refuse it: {exc.render()}\n"
            f"  {ignored}"
        )
        return None
    if goal.status is not Status.ACTIVE:
        notes.append(
            f"the focused goal {file_name(relative)} is {goal.status.value}, not active; a focus "
            f"only narrows the active goals, so {ignored}"
        )
        if goal.status is Status.BLOCKED:
            blocked.append(Path(os.path.normpath(root / relative)))
        return None
    hand_set = hand_set_active(goal, relative)
    if hand_set is not None:
        held[(root / relative).resolve()] = hand_set
        notes.append(
            f"the focused goal {file_name(relative)} is active only by a hand edit the ledger does "
            f"not back; a focus only narrows the active goals, so {ignored}"
        )
        return None
    notes.append(f"focus: {file_name(relative)}")
    return root / relative


def _focus_unseen(root: Path, goal: str) -> str | None:
    """Why the focused ``goal`` (relative to ``root``) is not the goal git tracks there, when
    it lies outside the goal folders, where discovery would not find it once the focus is
    ignored: git tracks it and the working tree does not show it (gone, or marked
    skip-worktree or assume-unchanged), or shows another goal than HEAD's continued there.
    None otherwise (a goal file under the goal folders is found, and held, by discovery)."""
    from goalfile.commands.gitgoals import hidden

    path = Path(os.path.normpath(root / goal))
    if under_goal_folder(path, root) or not path.is_relative_to(root):
        return None
    git = tracked_goal(str(path), [root])
    entry = git.tracked.get(path)
    if entry is None:
        return None
    if hidden(path, entry):
        return "git tracks it; the working tree does not show it"
    return "git tracks it; another goal stands there" if path in git.swapped else None


def hand_set_active(goal: Goal, shown: str) -> Finding | None:
    """A finding when ``goal`` says `active` but the newest ledger entry with a status line
    says a status that asks for no more work (met, blocked, exhausted, paused): the status
    line was edited and no command has run on the goal since. Commands accept such a reopen
    (the next entry records it); a focus does not, or one edit would pick the goal that lets
    the agent stop. Not over an entry that says `draft`: no command writes one, and `active`
    is the status its approval set (the fix the hook prints for that entry sets it back)."""
    from goalfile.handedit import ledger_status, reopened_from, restore_status_command

    was = reopened_from(goal)
    if was is None or was is Status.DRAFT:
        return None
    entry = ledger_status(goal)
    by = f" (iteration {entry.iteration}, by {entry.by})" if entry is not None else ""
    line = goal.key_line("status")
    return Finding(
        severity=Severity.ERROR,
        line=line,
        code="active-unbacked",
        message=(
            f"the status is `active`, but the newest ledger entry with a status line{by} says "
            f"`{was.value}`; a focus is honoured only on an `active` the ledger backs "
            "(`goalfile reopen` ledgers a reopening, with its reason)"
        ),
        hint=restore_status_command(shown, line, was),
    )
