"""A goal `met` under a contract that HEAD's copy does not approve, changed in a way that does
not only tighten it: the stop is held once, naming each change.

A re-approval is a record, not a permission (docs/trust.md): anyone may run `goalfile activate
--reapprove`, and `activate` stages the goal file, so the index's copy approves what the agent
approved itself. The agent loosened the committed goal's check (`test -f ok` → `true`),
re-approved it and stopped: verify ran `true`, the hook let it go telling the person only
`status: met`, and `git checkout HEAD -- PATH` after the stop took the record away. So a `met`
found at the stop (by the hook's verify, or by a run of the agent's the hook checks again) counts
only under a contract that HEAD's copy approves, or one that only tightens it (rows, clauses or
non-goals added: DESIGN §10); else it holds the agent once with the changes and the fix that
puts HEAD's approved criteria back, and then lets it go with them and the commit that approves
them, which is the person's to run: given to the agent as its fix, that commit landed the
agent's own loosening in history, and the next stop was met. A goal only staged (HEAD holds
none) is compared with its first approval entry, the one that made it active: without a
commit, no later approval is known to be a person's. Pure but for the copies git gave the hook.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from goalfile.commands.hookrules.gitview import GitView
from goalfile.commands.hookrules.outcome import REASON_LIMIT, GoalOutcome
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.errors import GoalfileError
from goalfile.value import Compared

if TYPE_CHECKING:
    from goalfile.contract import Contract
    from goalfile.model import Entry

SHOWN_CHANGES = 10  # changes named in the reason; the rest are counted


class Before(Compared):
    """The goal file as git held it at the session's earlier stop, where the goal was active,
    when its branch moved since: the copy of the commit HEAD was on (``name``), else, for a
    goal only staged then (``staged``), the copy the index held (``name``: its object id)."""

    __slots__ = ("copy", "name", "staged", "start")

    def __init__(self, *, name: str, copy: bytes, staged: bool, start: bool = False) -> None:
        self.name: Final = name
        self.copy: Final = copy
        self.staged: Final = staged
        self.start: Final = start  # the record was taken at the session's start, not at a stop

    @property
    def when(self) -> str:
        return "at this session's start" if self.start else "at this session's earlier stop"

    @property
    def since(self) -> str:
        return "since the session's start" if self.start else "since that stop"


def loosened_hold(
    path: Path, shown: str, text: str, here: Path, stop: StopInput, *, git: GitView | None
) -> GoalOutcome | None:
    """The hold on a `met` of the goal file at ``path`` (``text``: the text the hook judged)
    when its contract is not HEAD's approved one and the change does not only tighten it (for
    a goal only staged, which HEAD does not hold: not the one its first approval entry in the
    index's copy records, :func:`_staged_widened`); None when git holds no copy (the approval
    rule decides alone) or the contract is the approved one, or tighter."""
    found = _widened(path, text, git)
    staged = found is None
    if staged:
        found = _staged_widened(path, text, git)
    if found is None:
        return None
    changes, approval = found
    from goalfile.commands.gitgoals import git_from, saved_checkout
    from goalfile.shellword import shell_word

    entry = git.tracked.get(path) if git is not None else None
    if entry is not None:
        git_in = git_from(entry.root, here)
        word = shell_word(entry.relative)
        commit = f"{git_in} add -- {word} && {git_in} commit -m 'Approve the goal change' -- {word}"
        restore = saved_checkout(entry, here=here)
    else:  # (git holds a copy only of a file git tracks)
        commit = f"git commit -m 'Approve the goal change' -- {shell_word(shown)}"
        restore = f"git checkout HEAD -- {shell_word(shown)}"
    listed = "\n".join(f"- {change}" for change in changes[:SHOWN_CHANGES])
    more = len(changes) - SHOWN_CHANGES
    if more > 0:
        listed += f"\n- and {more} more"
    whose = (
        "its first approval entry (no commit holds the goal, so no later approval is known "
        "to be a person's)"
        if staged
        else "HEAD's copy of it"
    )
    text = (
        f"goalfile: {shown} is met only under a contract that {whose} does not approve: "
        f"{approval} changed the approved criteria in a way that does not only tighten "
        f"them:\n{listed}"
    )[:REASON_LIMIT]
    if stop.stop_hook_active:  # the person reads it: approving is theirs, by a commit
        said = f"{text}\n  a person who approves the change commits it: `{commit}`"
        return GoalOutcome(path=shown, status="met-unapproved", block=False, message=said)
    # the agent reads it: the commit would land its own loosening in history, so its fix is
    # the approved criteria back: HEAD's copy (the file as it is kept beside it), or, for a
    # goal only staged, which no copy git holds approves, each change put back by hand and
    # recorded by a re-approval (verify refuses criteria no approval entry records: put back
    # alone, the goal could not be verified again, and the agent was told not to re-approve)
    if staged:
        reapprove = (
            f"goalfile activate --reapprove {shell_word(shown)} "
            "--reason 'the approved criteria put back'"
        )
        back = (
            f"Put each change above back (new → old), then run `{reapprove}`: verify refuses "
            "criteria no approval entry records, and the approved criteria are those its "
            "first approval entry records; do not change, re-approve or commit any other "
            "criteria to stop"
        )
    else:
        back = (
            f"  fix: `{restore}` puts HEAD's approved criteria back (the file kept beside "
            "it)\nThe approved criteria are HEAD's: do not change, re-approve or commit "
            "criteria to stop"
        )
    return GoalOutcome(
        path=shown,
        status="met-unapproved",
        block=True,
        reason=(
            f"{text}\n{back}; only a person approves a change. Tell the person what changed "
            "and why; go on with the work the approved criteria ask for."
        ),
    )


def loosened_since(
    path: Path, shown: str, text: str, stop: StopInput, before: Before
) -> GoalOutcome | None:
    """The hold on a `met` of the goal file at ``path`` (``text``: the text the hook judged)
    under criteria that loosen those approved in the copy git held at the session's earlier
    stop, where the goal was active (``before``): the branch moved since, and HEAD's copy,
    a commit of the agent's holding its own re-approval, approves what the agent approved
    itself. The copy of the commit HEAD was on is compared with its newest approval, a copy
    only the index held with its first (as :func:`loosened_hold` does); None when the
    criteria are those, or tighter."""
    found = _compared(path, text, before.copy, first=before.staged)
    if found is None:
        return None
    from goalfile.shellword import shell_word

    changes, approval = found
    listed = "\n".join(f"- {change}" for change in changes[:SHOWN_CHANGES])
    more = len(changes) - SHOWN_CHANGES
    if more > 0:
        listed += f"\n- and {more} more"
    short = before.name[:12]
    if before.staged:
        whose = (
            f"the copy git's index held {before.when} ({short}), where the "
            "goal was active, approved by its first approval entry,"
        )
        show = f"git cat-file blob {before.name}"
    else:
        whose = f"commit {short}, which HEAD was on {before.when}, where the goal was active,"
        show = f"git show {short}:{shell_word(shown)}"
    for said in ("which HEAD does not hold", "which no commit holds"):
        approval = approval.replace(said, f"new {before.since}")
    text = (
        f"goalfile: {shown} is met only under a contract that {whose} does not approve: "
        f"{approval} changed the approved criteria in a way that does not only tighten "
        f"them:\n{listed}"
    )[:REASON_LIMIT]
    if stop.stop_hook_active:  # the person reads it: approving is theirs
        said = (
            f"{text}\n  the branch moved {before.since}; a person who approves the change "
            f"keeps it, one who does not takes it back (the approved criteria: `{show}`)"
        )
        return GoalOutcome(path=shown, status="met-unapproved", block=False, message=said)
    return GoalOutcome(
        path=shown,
        status="met-unapproved",
        block=True,
        reason=(
            f"{text}\nPut each change above back (new → old): the approved criteria are those "
            f"of `{show}`; do not change, re-approve or commit criteria to stop; only a "
            "person approves a change. Tell the person what changed and why; go on with the "
            "work the approved criteria ask for."
        ),
    )


def loosened_first(path: Path, shown: str, text: str, stop: StopInput) -> GoalOutcome | None:
    """The hold on a `met` of the goal file at ``path`` (``text``: the text the hook judged) at
    a stop after a hold whose session record is gone
    (:meth:`goalfile.commands.hookrepo.RepositoryWatch.unplaced`), under criteria that loosen
    those its first approval entry records: the commit HEAD was on at that hold is not known,
    and HEAD's copy may be a commit of the agent's holding its own re-approval, so, as for a
    goal no commit holds, no later approval is known to be a person's. None when the criteria
    are those, or tighter."""
    found = _compared(path, text, text.encode("utf-8", "surrogateescape"), first=True)
    if found is None:
        return None
    from goalfile.shellword import shell_word

    changes, approval = found
    approval = approval.replace("which no commit holds", "newer than it")
    listed = "\n".join(f"- {change}" for change in changes[:SHOWN_CHANGES])
    more = len(changes) - SHOWN_CHANGES
    if more > 0:
        listed += f"\n- and {more} more"
    text = (
        f"goalfile: {shown} is met only under a contract that its first approval entry does "
        "not approve (the session's record of its earlier stops is gone, or set aside, so no "
        "later approval is known to be a person's): "
        f"{approval} changed the approved criteria in a way that does not only tighten "
        f"them:\n{listed}"
    )[:REASON_LIMIT]
    if stop.stop_hook_active:  # the person reads it: approving is theirs
        said = f"{text}\n  a person who approves the change keeps it"
        return GoalOutcome(path=shown, status="met-unapproved", block=False, message=said)
    reapprove = (
        f"goalfile activate --reapprove {shell_word(shown)} "
        "--reason 'the approved criteria put back'"
    )
    return GoalOutcome(
        path=shown,
        status="met-unapproved",
        block=True,
        reason=(
            f"{text}\nPut each change above back (new → old), then run `{reapprove}`: the "
            "approved criteria are those its first approval entry records; do not change, "
            "re-approve or commit any other criteria to stop; only a person approves a "
            "change. Tell the person what changed and why; go on with the work the approved "
            "criteria ask for."
        ),
    )


def _widened(path: Path, text: str, git: GitView | None) -> tuple[list[str], str] | None:
    """The changes (described) from the contract HEAD's copy approves to the one ``text``
    holds that are not tightenings, and the approval entry the working copy names for it."""
    if git is None:
        return None
    head = git.copies.get(path, (None, None))[0]
    if head is None:
        return None
    return _compared(path, text, head, first=False)


def _staged_widened(path: Path, text: str, git: GitView | None) -> tuple[list[str], str] | None:
    """For a goal file the index holds and HEAD does not (activated, never committed), the
    changes from the contract the first approval entry of the index's copy records (the
    approval that made the goal active) to the one ``text`` holds that are not tightenings:
    `goalfile activate --reapprove` stages the file, so the index's newest approval may be the
    agent's own, and without a commit no later approval is known to be a person's."""
    if git is None:
        return None
    head, index = git.copies.get(path, (None, None))
    if head is not None or index is None:
        return None
    return _compared(path, text, index, first=True)


def _compared(path: Path, text: str, held: bytes, *, first: bool) -> tuple[list[str], str] | None:
    """The changes from the contract approved in ``held`` (a copy git holds: its newest
    approval, or with ``first`` its first) to the one ``text`` holds that are not
    tightenings, and the approval entry the working copy names for them."""
    from goalfile import contract
    from goalfile.contractdiff import changes, order_changed
    from goalfile.files import ENCODING, ERRORS
    from goalfile.model import Status
    from goalfile.parse import parse_goal

    base: Contract | None
    try:
        goal = parse_goal(text, path=str(path))
        committed = held.decode(ENCODING, ERRORS)
        where = f"{'the index' if first else 'HEAD'}: {path}"
        if first:
            approval = _first_approval(committed, where)
            base = approval[1] if approval is not None else None  # None: the skill family's
        else:
            approval = contract.last_approval(committed, path=where)
            if approval is not None:
                base = approval[1]
            else:  # a goal as the skill family writes it: its own criteria, unless a draft
                copy = parse_goal(committed, path=str(path))
                base = None if copy.status is Status.DRAFT else contract.contract_of(copy)
        now = contract.contract_of(goal)
        newest = contract.last_approval(goal.text, path=str(path))
    except GoalfileError:  # verify, or the approval rule, has said what is wrong
        return None
    if base is None:
        return None
    found = list(changes(base, now)) if base.digest() != now.digest() else []
    if approval is not None and newest is not None and newest[1] is not None:
        # the order the rows run in is not digested (a table reordered by hand runs in the
        # approved order): a re-approval that moves a row before another is a change too, as
        # `activate --reapprove` records it (that row can prepare what the other checks)
        moved = order_changed(
            [row.id for row in base.ordered()], [row.id for row in newest[1].ordered()]
        )
        found += [moved] if moved is not None else []
    wider = [change.describe() for change in found if change.effect != "tightened"]
    if not wider:
        return None
    if newest is None:  # (verify refuses such a pinned goal; one of the skill family's)
        return wider, "its criteria as the working copy holds them, which HEAD does not hold,"
    entry = newest[0]
    held_by = "which no commit holds" if first else "which HEAD does not hold"
    return wider, (
        f"its newest approval entry, `Iteration {entry.iteration} ({entry.date}) by "
        f"{entry.by}`, {held_by},"
    )


def _first_approval(text: str, where: str) -> tuple[Entry, Contract | None] | None:
    """The first `by activate` entry of ``text``'s ledger and the contract it records."""
    from goalfile import contract, ledger
    from goalfile.parse import ledger_region

    region = ledger_region(text)
    if region is None:
        return None
    for entry in ledger.entries(text, *region):
        if entry.by == contract.ACTIVATE_BY:
            return entry, contract.recorded(entry, path=where)
    return None
