"""Starting the next iteration when the Stop hook sends the agent back to work.

A hook-driven loop has no `goalfile plan` between its turns, so the hook counts them: each block
starts the next iteration, ledgered like `plan`'s (``### Iteration N (DATE) by stop-hook``) and
advancing ``iterations_used``, so the next verify entry carries the new number. At the limit no
iteration starts: the goal becomes ``exhausted`` (an entry says so) and the hook lets the agent
stop.
"""

from __future__ import annotations

from dataclasses import dataclass

from goalfile import edit, ledger
from goalfile.commands.mutate import require_status
from goalfile.handedit import iterations_in_use, limit_in_force
from goalfile.model import Entry, Goal, Status

HOOK_BY = "stop-hook"


@dataclass(frozen=True, kw_only=True)
class IterationStart:
    iteration: int  # the iteration now under way (unchanged when exhausted)
    status: Status  # active, or exhausted when the budget allowed no further iteration
    limit: int | None

    @property
    def exhausted(self) -> bool:
        return self.status is Status.EXHAUSTED

    @property
    def message(self) -> str:
        if self.exhausted:
            return f"iteration budget reached: {self.iteration} of {self.limit} used"
        shown = f"{self.iteration} of {self.limit}" if self.limit is not None else self.iteration
        return f"iteration {shown} started"


def start_next(
    text: str, goal: Goal, *, path: str, today: str, why: str
) -> tuple[str, IterationStart]:
    """The next iteration (``why``: one line for its entry) or, at the iteration limit, the
    goal exhausted: ``text`` (read as ``goal``) with the iteration's entry and
    ``iterations_used``, or with the exhaustion's entry and status. The Stop hook makes it in
    the same write as its verify's entry. Raises to refuse a goal no longer active."""
    require_status(goal, path, (Status.ACTIVE,), "a new iteration")
    limit = limit_in_force(goal, "iterations")  # the ledger's, never one typed by hand
    used = iterations_in_use(goal)  # never more than the ledger backs
    if limit is not None and used >= limit:
        done = IterationStart(iteration=used, status=Status.EXHAUSTED, limit=limit)
        entry = Entry(
            iteration=used,
            date=today,
            by=HOOK_BY,
            notes=(done.message,),
            status=Status.EXHAUSTED,
        )
        text = edit.append_to_section(text, "Iterations", ledger.render_entry(entry))
        return edit.set_value(text, "status", Status.EXHAUSTED.value), done
    started = IterationStart(iteration=used + 1, status=Status.ACTIVE, limit=limit)
    text = edit.with_hook_note(
        text,
        iteration=started.iteration,
        today=today,
        by=HOOK_BY,
        note="the Stop hook sent the agent back to work:",
        why=why,
    )
    return edit.set_value(text, "iterations_used", started.iteration), started
