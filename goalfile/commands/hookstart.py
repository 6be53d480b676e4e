"""`goalfile hook start`: the session's record taken when a host session starts, before the
agent acts.

The Stop hook compares what git holds at a stop with what the session's record kept at the
session's earlier stop (:mod:`goalfile.commands.hookrepo`): the branch and the commit HEAD
was on, the goal files active there, the copies only git's index held. At a session's first
stop there was no record, so a branch the agent moved before it (its own loosened and
re-approved criteria committed, a commit written with plumbing and set as the branch) was
taken as the person's. A host's session-start hook (Claude Code's, Codex's and Gemini CLI's
``SessionStart``; pi's ``session_start`` event, in goalfile's extension) runs this command
first: it takes the same record a stop would, for the active goal files git tracks in every
repository that holds the session's folder, marked as taken at the start
(:attr:`goalfile.sessionmemory.Remembered.seen`), so the first stop compares with it as any
later stop compares with the one before.

A session that has a record already (resumed, compacted: the hosts run their start hook then
too, with the same session id) keeps it: the record of its stops knows more than what is
checked out now. One its stops wrote empty (no goal was active at the last one) is taken anew:
a goal reopened before the resume is compared with what HEAD holds now, not with nothing.
A run given a transcript in which a tool call that runs goalfile's hook has no result yet
may be the agent's own (:mod:`goalfile.selfrun`): it records nothing.
Nothing here holds or stops the agent: the command always exits 0, and says on stderr what it
could not record; to each host it prints, when the session has a record, one line of context
that the session's transcript keeps (:data:`goalfile.recordbind.STARTED`; under pi, goalfile's
extension appends it), where a stop that finds the record deleted sees that there was one."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from goalfile.commands.context import Context
from goalfile.commands.hookrules.stopinput import StopInput

__all__ = ["StartRecord", "record_start"]


@dataclass(frozen=True, kw_only=True)
class StartRecord:
    """What `goalfile hook start` did: the record's path (None: the host named no session),
    whether it was written now or kept as an earlier one left it, the goal files it keeps,
    and notes for stderr."""

    record: str | None
    written: bool
    kept: bool
    goals: tuple[str, ...]
    notes: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": 1,
            "record": self.record,
            "written": self.written,
            "kept": self.kept,
            "goals": list(self.goals),
            "notes": list(self.notes),
        }


def record_start(stop: StopInput, ctx: Context) -> StartRecord:
    """Take the session's record at its start (see the module's text)."""
    from goalfile.commands.hookrepo import RepositoryWatch
    from goalfile.commands.hookrules.gitview import tracked_in
    from goalfile.commands.hookrules.places import project_roots, session_folder
    from goalfile.selfrun import self_runs
    from goalfile.sessionmemory import record_path, state_folder

    notes: list[str] = []
    runs = self_runs(stop.transcript_path)
    pending = next((run for run in runs if run.hook and run.pending), None)
    if pending is not None:  # the agent's own tool call, it may be: a record it must not take
        notes.append(
            f"the transcript's tool call `{pending.shown}` runs goalfile's hook and has not "
            "ended: only the host runs `goalfile hook start`, so nothing was recorded"
        )
        return StartRecord(record=None, written=False, kept=False, goals=(), notes=tuple(notes))
    state = state_folder(ctx.env)
    record = None
    if state is not None:
        record = record_path(state, session_id=stop.session_id, transcript=stop.transcript_path)
    if record is None:
        why = "no HOME or XDG_STATE_HOME" if state is None else "no session_id in its input"
        notes.append(
            f"the session's record cannot be taken ({why}); the first stop compares with nothing"
        )
        return StartRecord(record=None, written=False, kept=False, goals=(), notes=tuple(notes))
    if os.path.lexists(record) and not _emptied(record):  # resumed, compacted: it stands
        return StartRecord(record=str(record), written=False, kept=True, goals=(), notes=())
    here = session_folder(stop, ctx, notes)
    roots = project_roots(here, notes)
    git = tracked_in(roots)
    for root, exc in git.failed.items():
        notes.append(f"git cannot list the goals of {root} ({exc}); the first stop holds for it")
    active = sorted(path for path in git.tracked if _active(path))
    watch = RepositoryWatch()
    watch.record = record
    watch.seen = "start"
    watch.transcript = stop.transcript_path
    watch.remember(roots, active, git.tracked, notes, git.staged_only())
    shown = tuple(_shown(path, here) for path in active)
    return StartRecord(
        record=str(record),
        written=watch.saved and bool(active),
        kept=False,
        goals=shown if watch.saved else (),
        notes=tuple(notes),
    )


def _emptied(record: Path) -> bool:
    """Whether the record at ``record`` is one a hook of this session wrote empty (its stops
    left no active goal: met, blocked, paused): a goal reopened since and then resumed would
    be compared with nothing, so the start takes the record anew (a record that does not
    read as this session's hook's stands, for the stop to set aside)."""
    from goalfile.sessionmemory import load

    found = load(record)
    return found.taken is not None and not found.other and not found.repositories


def _active(path: Path) -> bool:
    """Whether the goal file at ``path`` is active as the working tree holds it (one that does
    not load is left to the stop, which holds the agent for it)."""
    from goalfile.errors import GoalfileError
    from goalfile.files import load_goal
    from goalfile.model import Status

    try:
        return load_goal(path).status is Status.ACTIVE
    except (GoalfileError, OSError, UnicodeDecodeError, ValueError):
        return False


def _shown(path: Path, here: Path) -> str:
    return os.path.relpath(path, here)
