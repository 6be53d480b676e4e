"""The holds on an unexpected error: while finding the goals (:func:`lost_hold`), on one goal
(:func:`failed_hold`), or anywhere else once the hook input was read (:func:`failed_stop`).
"""

from __future__ import annotations

from pathlib import Path

from goalfile.commands.hookrules.outcome import GoalOutcome, StopDecision, hold_once
from goalfile.commands.hookrules.places import shown_from
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.shellword import shell_word


def lost_hold(here: Path, exc: Exception, stop: StopInput, notes: list[str]) -> GoalOutcome:
    """An unexpected error while finding the goals: no goal is known to let the agent stop,
    so it holds the agent once, like an error on one goal."""
    import traceback

    name = type(exc).__name__
    notes.append(
        f"finding the goals failed: {name}: {exc}\n"
        + "".join(traceback.format_exception(exc)).rstrip()
    )
    shown = shown_from(here, here)
    return hold_once(
        shown,
        "failed",
        f"goalfile failed while finding the goals of {here} ({name}: {exc})",
        "Run `goalfile status` there and fix what it names; an error that hides the goals is "
        "no way to stop.",
        stop,
    )


def failed_stop(stop: StopInput, exc: BaseException) -> StopDecision:
    """An unexpected error once the hook input was read, outside every goal and outside
    finding the goals (the hook's context, its answer): no goal is known to let the agent
    stop, so it holds the agent once, as :func:`lost_hold` does. Nothing here reads the file
    system: the error may be that the folders cannot be read."""
    import traceback

    name = type(exc).__name__
    where = stop.cwd or "the hook's working folder"
    note = f"internal error: {name}: {exc}\n" + "".join(traceback.format_exception(exc)).rstrip()
    outcome = hold_once(
        where,
        "failed",
        f"goalfile hook stop failed in {where} ({name}: {exc})",
        "Run `goalfile status` there and fix what it names; an error that hides the goals is "
        "no way to stop.",
        stop,
    )
    return StopDecision(goals=(outcome,), notes=(note,))


def failed_hold(shown: str, exc: Exception, stop: StopInput, notes: list[str]) -> GoalOutcome:
    """An unexpected error while looking at one goal: that goal holds the agent like a goal
    file that does not load, and the other goals are decided as usual."""
    import traceback

    name = type(exc).__name__
    notes.append(
        f"{shown}: internal error: {name}: {exc}\n"
        + "".join(traceback.format_exception(exc)).rstrip()
    )
    return hold_once(
        shown,
        "failed",
        f"goalfile failed on {shown} ({name}: {exc})",
        f"Run `goalfile lint {shell_word(shown)}` and fix what it names, never by giving up "
        "the goal; the next stop verifies it.",
        stop,
    )
