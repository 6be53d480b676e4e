"""Whether a copy of a goal file that git holds (its index's, HEAD's) approves the contract the
goal holds now: the rule by which the Stop hook runs a goal's checks (docs/trust.md, "A
hand-made approval, through the Stop hook").

An approval entry is text: an agent that can only write files can type one, with the digests
goalfile's own refusals print. What it cannot do is put a file into git's index or a commit
(git stores objects compressed and named by their SHA-1). So a contract counts as a person's
only when a copy git holds approves it: its newest approval entry (``goalfile activate``, or a
tightening verify entry that counts) records the digest of the contract the goal holds now; or,
for a copy whose ledger holds no approval entry at all (how the skill family writes a goal),
the copy is not a draft and its own criteria are that contract. Pure: texts in, an answer out.
"""

from __future__ import annotations

from collections.abc import Sequence

from goalfile import contract
from goalfile.errors import GoalfileError
from goalfile.model import Goal, Status
from goalfile.parse import parse_goal


def unapproved(goal: Goal, copies: Sequence[tuple[str, str]]) -> str | None:
    """None when one of ``copies`` (where it is, such as ``git's index``, and its text)
    approves the contract ``goal`` holds now; else why none does, as a clause."""
    if not copies:
        return "neither git's index nor HEAD holds the goal file"
    now = contract.short(contract.digest(goal))
    why: list[str] = []
    for where, text in copies:
        try:
            approval = contract.last_approval(text, path=f"{where}: {goal.path}")
        except GoalfileError:
            why.append(f"the approval entry of {where}'s copy does not read back")
            continue
        if approval is not None:
            entry, approved = approval
            named = contract.short(approved.digest()) if approved is not None else entry.contract
            if named == now:
                return None
            why.append(
                f"the contract changed since the newest approval entry of {where}'s copy "
                f"(`Iteration {entry.iteration} ({entry.date}) by {entry.by}`) approved it "
                f"({named or 'no digest'} → {now})"
            )
            continue
        try:
            copy = parse_goal(text, path=goal.path)
        except GoalfileError:
            why.append(f"{where}'s copy is not a goal file goalfile reads")
            continue
        if copy.status is not Status.DRAFT and contract.short(contract.digest(copy)) == now:
            return None  # a goal as the skill family writes it, staged or committed as it is
        state = "is a draft" if copy.status is Status.DRAFT else "holds other criteria"
        why.append(f"{where}'s copy records no approval and {state}")
    return "; ".join(why)
