"""An active goal whose contract no copy git holds approves: its checks are not run, and it
holds the agent once with the fix a person runs.
"""

from __future__ import annotations

import os
from pathlib import Path

from goalfile.commands.hookrules.gitview import GitView, tracked_goal
from goalfile.commands.hookrules.outcome import GoalOutcome, hold_once
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.errors import GoalfileError
from goalfile.files import real_path
from goalfile.model import Goal
from goalfile.shellword import shell_word


def unapproved_hold(
    path: Path, shown: str, goal: Goal, here: Path, stop: StopInput, *, git: GitView | None
) -> GoalOutcome | None:
    """An active goal in a git repository whose contract no copy git holds approves
    (:func:`goalfile.approvalcopy.unapproved`): its checks are not run, and it holds the agent
    once, with the fix a person runs. An approval entry in the working copy alone may be the
    agent's own typing: an agent that can only write files gets no command run that way. A
    goal file outside every repository git was asked about has no copy to ask (the limit
    docs/trust.md states), and is verified as before."""
    if git is None:
        return None
    tops = [top for top in git.repositories if path.is_relative_to(top)]
    tops += [top for top in git.repositories if real_path(path).is_relative_to(real_path(top))]
    if not tops:
        return None
    from goalfile import contract
    from goalfile.approvalcopy import unapproved
    from goalfile.commands import workdir
    from goalfile.commands.gitgoals import git_from
    from goalfile.files import ENCODING, ERRORS
    from goalfile.gitrepo import git_ignored
    from goalfile.lint import require_valid

    head, index = git.copies.get(path, (None, None))
    real = real_path(path)
    if real != path:  # reached through a symlink: the copies of the file it names, as
        # :func:`goalfile.commands.hookrules.githolds.through_link` asks git of it (a link git
        # tracks holds only its target's name)
        found = [
            both
            for key, both in git.copies.items()
            if key != path and real_path(key) == real and not os.path.islink(key)
        ]
        if not found and real.is_file():
            found = list(tracked_goal(str(real), []).copies.values())
        head, index = found[0] if found else (None, None)
    held = [
        (where, blob.decode(ENCODING, ERRORS))
        for where, blob in (("git's index", index), ("HEAD", head))
        if blob is not None
    ]
    why = unapproved(goal, held)
    if why is None:
        return None
    try:  # a goal verify refuses before it runs any check is left to verify, whose refusal
        require_valid(goal)  # names the line and its fix: a lint error, a contract changed
        contract.require_pin(goal)  # in a way it does not accept, an approval entry that
        workdir.decide(goal)  # does not read back, a link into another repository (the
    except GoalfileError:  # approval is asked once that is put right)
        return None
    if any(top in git.failed for top in tops):  # git could not list it: that holds the agent
        return GoalOutcome(path=shown, status="unapproved", block=False)  # and nothing runs
    entry = git.tracked.get(path)
    top = entry.root if entry is not None else max(tops, key=lambda top: len(top.parts))
    relative = (
        real.relative_to(real_path(top)).as_posix() if real.is_relative_to(real_path(top)) else None
    )
    if relative is not None and "\n" in relative:
        return _line_break_hold(shown, relative, top, here, stop, tracked=entry is not None)
    # a goal file in a folder git ignores (`goals/.cache/`) is staged only with -f
    force = " -f" if relative is not None and git_ignored(str(top), relative) else ""
    stage = (
        f"{git_from(top, here)} add{force} -- {shell_word(relative)}"
        if relative is not None
        else f"git add -- {shell_word(shown)}"
    )
    fix = _approve_fix(goal, shown, stage, force=bool(force))
    return hold_once(
        shown,
        "unapproved",
        f"goalfile did not run the checks of {shown}: the Stop hook runs the checks only of a "
        "goal whose approval a person made, which git's index or HEAD holds, and "
        f"{why}\n  fix: {fix}",
        "Do not write or edit approval entries or criteria to get checks run; ask the person "
        "to approve the goal as the fix says, and go on with the work of the approved goals.",
        stop,
    )


def _approve_fix(goal: Goal, shown: str, stage: str, *, force: bool) -> str:
    """The fix of a hold on an unapproved goal, for the person, as it runs from the session's
    folder: `goalfile activate PATH` for a goal whose ledger records no approval (a goal a
    person wrote by hand and forgot to activate); ``stage`` (the `git add` of it) when its own
    newest approval entry approves its contract (only git does not hold that approval); else
    `goalfile activate --reapprove`, which ledgers the changed rows. Each activate stages the
    goal file, except in a folder git ignores (``force``): then ``stage`` follows it."""
    from goalfile import contract
    from goalfile.approvalcopy import unapproved

    try:
        recorded = contract.last_approval(goal.text, path=goal.path) is not None
    except GoalfileError:
        recorded = True
    then = f" && {stage}" if force else ""
    staged = "" if force else ", which stages the goal file"
    if not recorded:
        return (
            "a person who has read its checks approves them with "
            f"`goalfile activate {shell_word(shown)}{then}`{staged}"
        )
    if unapproved(goal, [("its own", goal.text)]) is None:  # its own ledger approves it
        return f"a person who has read its checks (and its ledger) stages it: `{stage}`"
    return (
        "a person who has read its checks approves them with `goalfile activate "
        f"--reapprove {shell_word(shown)} --reason TEXT{then}`{staged}"
    )


def _line_break_hold(
    shown: str, relative: str, top: Path, here: Path, stop: StopInput, *, tracked: bool
) -> GoalOutcome:
    """A goal file whose name holds a line break: git's batch reads take one name a line, so
    no copy git holds of it can be read, and staging it (the fix for an unapproved goal)
    changes nothing. The fix renames it: with `git mv` and a commit of both names when git
    tracks it (HEAD's copy under the old name would hold the agent as a goal file gone from
    the working tree); the next stop names what the goal under its new name still needs."""
    from goalfile.commands.gitgoals import git_from

    renamed = _free_name(real_path(top), relative.replace("\n", "-"))
    if tracked:  # committed at once: HEAD's copy under the old name would be missed
        git = git_from(top, here)
        both = f"{shell_word(relative)} {shell_word(renamed)}"
        message = shell_word(f"{renamed}: renamed (a line break in its name)")
        move = f"{git} mv -- {both} && {git} commit -m {message} -- {both}"
    else:  # no name git knows: the file is moved, from the session's folder
        old, new = (os.path.relpath(real_path(top) / name, here) for name in (relative, renamed))
        move = f"mv -- {shell_word(old)} {shell_word(new)}"
    return hold_once(
        shown,
        "unapproved",
        f"goalfile did not run the checks of {shown}: the Stop hook runs the checks only of a "
        "goal whose approval git's index or HEAD holds, and the file's name holds a line "
        "break, which git's reads of its copies cannot name (they take one name a line)\n"
        f"  fix: `{move}`",
        "Do not write or edit approval entries or criteria to get checks run; ask the person "
        "to rename the goal file as the fix says, and go on with the work of the approved goals.",
        stop,
    )


def _free_name(top: Path, name: str) -> str:
    """``name`` (relative to ``top``), or, when a file is there already (another goal, which
    `mv` would overwrite and `git mv` refuses to), the first of `STEM-2.md`, `STEM-3.md`, ...
    that is free."""
    stem, dot, suffix = name.rpartition(".")
    if not dot or "/" in suffix:
        stem, dot, suffix = name, "", ""
    candidate, number = name, 1
    while os.path.lexists(top / candidate):
        number += 1
        candidate = f"{stem}-{number}{dot}{suffix}"
    return candidate
