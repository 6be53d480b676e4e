"""A hold the Stop hook could not ledger: the record that keeps it to once per entry.

A verify-made `blocked` holds the agent once per ledger entry, and the hold is ledgered in the
goal file (:mod:`goalfile.blockhold`). When that write fails (the goal's lock stays held past
the hook's wait, the file cannot be written), the hook still holds the first stop on the
entry, and records that it did in a small marker under the working tree's git folder
(``.git/goalfile-hold-marks/``, one file per goal and entry): a later stop on the same entry
finds it and is let go with the message, so a host that sends ``stop_hook_active`` false at
every stop (Gemini CLI may) is not held forever by a lock that is never let go.

The folder was named ``.git/goalfile-held/``, one letter from ``.git/goalfile-held.json``, the
record of the goals a focus named (:mod:`goalfile.commands.focusheld`), which is another thing:
a marker still in the old folder counts as one in the new (:data:`OLD_FOLDER`), so an entry
held once before is not held again.

The marker is in the agent's reach, so it is read only when the ledger cannot be written; it
never stands in for the ledger's hold entry (docs/trust.md).
"""

from __future__ import annotations

import os
from pathlib import Path

from goalfile.digest import sha256

__all__ = ["MARKS_FOLDER", "OLD_FOLDER", "first_hold"]

MARKS_FOLDER = "goalfile-hold-marks"
OLD_FOLDER = "goalfile-held"  # read, never written


def first_hold(*, git_folder: Path | None, goal: str, iteration: int) -> bool:
    """Record the hold on entry ``iteration`` of ``goal`` (its path relative to the
    repository); True when this is the first for that entry, False when a marker says it was
    held already, or none can be written (then a hold could not be kept to once)."""
    if git_folder is None:
        return False
    key = sha256(f"{goal}\0{iteration}".encode()).hexdigest()[:32]
    if os.path.lexists(git_folder / OLD_FOLDER / key):
        return False  # held once, marked where the marks were kept before
    folder = git_folder / MARKS_FOLDER
    try:
        folder.mkdir(exist_ok=True)
        descriptor = os.open(folder / key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:  # there already (held once), or nowhere to write it
        return False
    os.close(descriptor)
    return True
