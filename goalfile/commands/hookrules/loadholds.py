"""A goal file that does not load holds the agent like a refusal (breaking the file is no way to
stop); one that holds git's conflict markers is held with the fix that keeps the entries of both
sides. Reads the file, for the markers.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.hookrules.outcome import GoalOutcome, hold_once
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.errors import GoalfileError, GoalFileInvalid
from goalfile.files import read_text
from goalfile.shellword import shell_word

if TYPE_CHECKING:
    pass


def unreadable_hold(shown: str, exc: GoalfileError, stop: StopInput, *, path: Path) -> GoalOutcome:
    """A goal file that does not load (a broken YAML line, a missing section): it is not
    skipped, or breaking the file would be a way to stop. Held like a refusal; a file that
    holds a merge conflict by :func:`_conflicted`."""
    if isinstance(exc, GoalFileInvalid):
        held = _conflicted(shown, path, stop)
        if held is not None:
            return held
    return hold_once(
        shown,
        "invalid",
        f"goalfile could not read {shown}: {exc.render()}",
        f"Fix the goal file (`goalfile lint {shell_word(shown)}` lists every problem with its "
        "line), never by giving up the goal; the next stop verifies it.",
        stop,
    )


def _conflicted(shown: str, path: Path, stop: StopInput) -> GoalOutcome | None:
    """A goal file that holds git's marker lines around a conflict (two branches appended
    entries at the same place, then a merge, rebase or cherry-pick): held with the fix lint
    and verify print, which names the file as the session's shell reaches it and keeps the
    entries of both sides. (Putting back HEAD's file, as for a goal copied over the one git
    tracks, would drop the entries and edits of the other side.) None when the file holds no
    conflict."""
    from goalfile.parse import conflict_error, conflict_markers

    try:
        markers = conflict_markers(read_text(path))
    except GoalfileError:
        return None
    if not markers:
        return None
    return hold_once(
        shown,
        "conflicted",
        f"goalfile could not read {shown}: {conflict_error(markers, path=shown).render()}",
        "Resolve the conflict as the fix says, keeping the entries of both sides, each whole "
        "(one side's file alone drops the other side's entries); the next stop verifies it.",
        stop,
    )
