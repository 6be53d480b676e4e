"""The Stop hook's watch over the repository itself: a repository hidden from the hook, or
another one put in its place, holds the agent instead of reading as "no active goal".

An agent with a shell can rename ``.git`` away for the stop (``mv .git .git-x``, put back by a
background ``sleep 5; mv .git-x .git``), or write a ``.git`` file that names another
repository, one with no goal. The hook then finds no repository, or another one, and nothing
would hold the agent. So:

* **Between stops of a session.** At each stop the hook remembers, per host session and
  outside every working tree (:mod:`goalfile.sessionmemory`), each repository in which it held
  an active goal: its top folder and its git folder (:class:`goalfile.gitplace.GitPlace`, known
  by device and inode, which a rename away and back keeps). At a later stop of the same
  session in that repository, a top with no ``.git`` (:func:`_missing`) or with another git
  folder there (:func:`_swapped`) holds the agent, with the command that puts the git folder
  back when it is found (renamed inside the top, or still at its place for a linked work
  tree); and so does a goal file of that repository gone with no trace in git (told, not
  held, when the same branch moved since: :meth:`RepositoryWatch.gone`), and a session whose
  folder moved into another work tree of that repository that lacks the goal
  (:func:`_elsewhere`: `git worktree add ../wt OLD_COMMIT`, then `cd ../wt`).
* **At any stop, remembered or not.** A folder at or above the session's folder that holds a
  goal folder and no ``.git``, but a git folder under another name (:func:`_stray`), and a
  repository whose ``.git`` file names the git folder of another work tree (:func:`_foreign`),
  hold the agent too.

Each holds the agent once (:meth:`RepositoryWatch.outcomes`): the session's record keeps
which holds were made, so the first stop that finds one blocks even when the host says the
agent is already continuing because of a Stop hook (an agent sent back for an unmet goal that
then hides the repository is held too), and every later stop while it stands lets the agent
go with the message, which the person sees. Nothing here runs git: a few ``stat`` calls, one
``scandir`` of a top only when something is wrong, and the session's record read at each stop
and written only when it changes.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from goalfile.gitplace import (
    GitPlace,
    aside,
    common_elsewhere,
    foreign,
    git_place,
    head_mark,
    renamed,
    still_there,
)
from goalfile.goalfolders import GOAL_FOLDERS, in_goal_folder
from goalfile.sessionmemory import (
    AT_STOP,
    Record,
    Remembered,
    load,
    record_path,
    save,
    state_folder,
)
from goalfile.shellword import moved_aside, shell_word
from goalfile.value import Value

if TYPE_CHECKING:
    from collections.abc import Mapping

    from goalfile.commands.gitgoals import Tracked
    from goalfile.commands.hookrules.outcome import GoalOutcome
    from goalfile.commands.hookrules.stopinput import StopInput

__all__ = ["RepositoryWatch", "watch"]

REGROWTH = 4 << 20  # bytes of transcript after a record's length that get it taken again


class Hold(Value):
    """A hold on a repository hidden or swapped: ``key`` names what held the agent (a hold
    is made once per key, :meth:`RepositoryWatch.outcomes`); the rest is as ``hold_once`` takes."""

    __slots__ = ("advice", "block", "gone", "key", "shown", "status", "text")

    def __init__(
        self,
        *,
        key: str,
        shown: str,
        status: str,
        text: str,
        advice: str,
        block: bool = True,
        gone: tuple[Path, ...] = (),
    ) -> None:
        self.key: Final = key
        self.shown: Final = shown
        self.status: Final = status
        self.text: Final = text
        self.advice: Final = advice
        self.block: Final = block  # False: no hold, the stop is let go with ``text``
        # goal files gone: ``key`` ends in a mark of their folders (:func:`folder_marks`), which
        # the record keeps as the stop leaves them (:meth:`RepositoryWatch.own_rekeys`)
        self.gone: Final = gone


def folder_marks(paths: Iterable[Path]) -> str:
    """A mark of the folders goal files that are gone were in: each one's inode and
    status-change time, which every file made, deleted or renamed in it changes (a goal put
    back and deleted again before the next stop is another finding); empty for a folder that
    cannot be read."""
    marks = []
    for path in paths:
        try:
            found = os.stat(path.parent)
        except (OSError, ValueError):
            continue
        marks.append(f"\0gone:{found.st_ino}:{found.st_ctime_ns}")
    return "".join(marks)


class RepositoryWatch:
    """What the hook found of the repositories at this stop, and the session's record (a
    plain class: one is made per stop, and a dataclass costs its definition at every start)."""

    def __init__(self) -> None:
        self.holds: list[Hold] = []
        self.record: Path | None = None
        self.before = Record()
        self.kept: set[str] = set()  # tops whose record stays as it was
        self.places: dict[str, GitPlace | None] = {}  # read at this stop
        self.saved = False  # the record at ``record`` is this stop's
        self.made: set[str] = set()  # other holds made once per finding, at this stop
        self.marks: dict[str, str] = {}  # HEAD's mark, read at this stop's start
        self.commits: dict[str, str] = {}  # the commit HEAD resolves to, asked at its start
        self.moved: set[str] = set()  # tops whose branch moved since the earlier stop
        self.after: Record | None = None  # the record as :meth:`remember` left it
        self.seen = ""  # "start": the record is taken at the session's start (`hook start`)
        self.lost: set[str] = set()  # tops whose goals' entries count as new: :meth:`unplaced`
        # the transcript shows the agent ran goalfile's hook or named the record's folder
        # (:mod:`goalfile.selfrun`), said as a phrase: the record is set aside, as if lost, at
        # every stop; empty when it does not
        self.self_ran = ""
        # why the record found is not one the host's hook took (:mod:`goalfile.recordbind`):
        # set aside too; empty when it is, or nothing can be told
        self.unbound = ""
        # the record is missing (or unreadable) and the transcript shows `goalfile hook start`
        # took one (:func:`goalfile.recordbind.started`): deleted, it is the strictest case
        self.gone_record = False
        self.transcript: str | None = None  # the transcript the host gave this hook
        self.why: dict[str, str] = {}  # of ``lost``: why each one's goals are not placed

    def first_hold(self, key: str) -> bool:
        """Whether the hold ``key`` names (a goal file git tracks gone or swapped) is to be
        made at this stop although the agent is continuing because of a Stop hook: the
        session's record does not say it was made. A record that is missing (deleted, or
        never written: the stop that sent the agent back was another hook's) says no hold
        was made, so the hold is made here; if this stop cannot save the record either, the
        hook lets it go after all (:meth:`remember` leaves ``saved`` false), since it would
        hold the agent at every stop. It is then recorded as made."""
        if self.record is None or key in self.before.held:
            if key in self.before.held:
                self.made.add(key)
            return False
        self.made.add(key)
        return True

    def told(self, key: str) -> bool:
        """Whether the hold ``key`` names was made at an earlier stop of this session and
        still stood at the last one (its record says so); nothing is recorded."""
        return key in self.before.held

    def hold_made(self, key: str) -> None:
        """Record the hold ``key`` names as made at this stop."""
        self.made.add(key)

    def made_before(self, key: str) -> bool:
        """Whether the hold ``key`` names was made at an earlier stop of this session (its
        record says so); it then stays recorded while it stands. A host that never says the
        agent is continuing because of a Stop hook (Gemini CLI sends ``stop_hook_active``
        false at the stops its model ends) would meet a hold made once at every stop."""
        if key not in self.before.held:
            return False
        self.made.add(key)
        return True

    def can_save(self) -> bool:
        """Whether the session's record can be written, as far as can be told before this
        stop writes it: the nearest folder of its path that is there is a folder this user
        may write in (`~/.local` a file, say, cannot be)."""
        if self.record is None:
            return False
        folder = self.record.parent
        while not os.path.lexists(folder):
            if folder.parent == folder:
                return False
            folder = folder.parent
        return os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK)

    def let_go_unsaved(self, shown: str, status: str, text: str) -> GoalOutcome:
        """A hold kept to once per session by the record, at a stop whose record cannot be
        saved, for a host that never says the agent is continuing because of a Stop hook
        (:func:`never_continuing`): held, it would come back at every stop for ever, so the
        stop is let go with its message and says why (docs/hosts.md)."""
        from goalfile.commands.hookrules.outcome import GoalOutcome

        where = "" if self.record is None else f" in {self.record.parent}"
        return GoalOutcome(
            path=shown,
            status=status,
            block=False,
            message=f"{text}\ngoalfile: the session's record cannot be saved{where}, so this "
            "hold, made once per session, would hold the agent at every stop: the stop is "
            "let go; make the state folder writable (XDG_STATE_HOME, else ~/.local/state)",
        )

    def place(self, top: str) -> GitPlace | None:
        """The git folder of the work tree at ``top`` (read once per stop)."""
        if top not in self.places:
            self.places[top] = git_place(Path(top))
        return self.places[top]

    def remember(
        self,
        roots: Iterable[Path],
        holding: Iterable[Path],
        tracked: Collection[Path],
        notes: list[str],
        staged: Mapping[Path, str] | None = None,
    ) -> None:
        """Record, for the session, each repository at ``roots`` in which a goal of
        ``holding`` (the goal files active, or held, at this stop) lies, with those of them
        git ``tracked`` (a goal file the agent made and never staged is its own to delete),
        and the object id of those only the index holds (``staged``), and forget the
        repositories without one; a repository that held the agent here keeps its record as
        it was. The holds of this stop are recorded with it."""
        staged = staged or {}
        if self.record is None:
            return
        after = {top: item for top, item in self.before.repositories.items() if os.path.isdir(top)}
        goals = [(Path(os.path.realpath(path)), path in tracked) for path in holding]
        ids = {Path(os.path.realpath(path)): oid for path, oid in staged.items()}
        for root in sorted(roots, key=lambda root: len(root.parts), reverse=True):
            top = os.path.realpath(root)
            if top in self.kept:
                continue
            place = self.place(top)
            mine = [(goal, known) for goal, known in goals if goal.is_relative_to(top)]
            goals = [(goal, known) for goal, known in goals if not goal.is_relative_to(top)]
            if place is not None and mine:
                named = sorted(goal.relative_to(top).as_posix() for goal, known in mine if known)
                only_staged = tuple(
                    (goal.relative_to(top).as_posix(), ids[goal])
                    for goal, known in sorted(mine)
                    if known and goal in ids
                )
                after[top] = Remembered(
                    top=top,
                    place=place,
                    goals=tuple(named),
                    head=self.mark(top, place),
                    # a branch found moved keeps the commit it was on, and the copies only the
                    # index held then: the met checked again at this stop (and the criteria
                    # approved then, :func:`goalfile.commands.hookrules.once.copy_before`) are
                    # so at the next one too, until it holds no one
                    staged=self.before.repositories[top].staged
                    if top in self.moved
                    else only_staged,
                    commit=self.before.repositories[top].commit
                    if top in self.moved
                    else self._commit(top),
                    seen=self.before.repositories[top].seen if top in self.moved else self.seen,
                    unplaced=top in self.lost,
                )
            else:
                after.pop(top, None)
        held = frozenset({*(hold.key for hold in self.holds), *self.made})
        record = Record(repositories=after, held=held, taken=self.before.taken)
        self.after = record
        if record == self.before and not self.unbound and not self._grown():
            self.saved = True
            return
        from goalfile.recordbind import taken_now

        taken = taken_now(self.transcript, start=self.seen == "start", before=self.before.taken)
        record = Record(repositories=after, held=held, taken=taken)
        self.after = record
        try:
            save(self.record, record)
        except OSError as exc:
            notes.append(
                f"the repositories of this session could not be recorded in {self.record.parent} "
                f"({_cause(exc)}); a repository hidden at a later stop is not noticed"
            )
        else:
            self.saved = True

    def _grown(self) -> bool:
        """Whether the transcript grew by more than :data:`REGROWTH` bytes since the record
        was taken: the next stop decodes the part written since, so the record is taken
        again (an unchanged record is otherwise not written)."""
        taken = self.before.taken
        if taken is None or not self.transcript:
            return False
        try:
            size = os.stat(os.path.expanduser(self.transcript)).st_size
        except (OSError, ValueError):
            return False
        return size - taken.size > REGROWTH

    def swapped_tops(self) -> frozenset[str]:
        """The top folders of the repositories held at this stop as swapped or hidden (a git
        folder of another repository read in their place, or none): each such hold's key
        names its top second."""
        return frozenset(
            hold.key.split("\0")[1]
            for hold in self.holds
            if hold.status in ("repository-swapped", "repository-hidden")
        )

    def own_rekeys(self) -> dict[str, str]:
        """The keys of this stop's holds on goal files that are gone, as the stop leaves their
        folders (for :meth:`rekey`)."""
        found: dict[str, str] = {}
        for hold in self.holds:
            if hold.gone:
                found[hold.key] = _without_marks(hold.key) + folder_marks(hold.gone)
        return found

    def rekey(self, keys: Mapping[str, str]) -> None:
        """Record each hold made at this stop under its key as the stop leaves it (``keys``,
        old to new): a goal file deleted is held under a mark of its folder, which the hook's
        own writes at this stop (verify's entries, the holds it ledgers) change too; the next
        stop compares with the folder as this one left it. Saved again only when the record
        was saved and changes; a record that cannot be saved now holds again at the next
        stop, which is the safe way."""
        if self.after is None or not self.saved:
            return
        held = frozenset(keys.get(key, key) for key in self.after.held)
        if held == self.after.held or self.record is None:
            return
        record = Record(repositories=self.after.repositories, held=held, taken=self.after.taken)
        try:
            save(self.record, record)
        except OSError:
            return
        self.after = record

    def outcomes(self, stop: StopInput) -> list[GoalOutcome]:
        """The holds as the hook answers them: each blocks once, at the first stop that finds
        it, and lets the agent go with its message at every later stop while it stands (the
        session's record keeps which were made, so a host's ``stop_hook_active`` does not
        release the first). Without a record written at this stop, as every hold of the hook
        does: block, unless the agent is continuing because of a Stop hook."""
        from goalfile.commands.hookrules.outcome import GoalOutcome, hold_once

        found: list[GoalOutcome] = []
        for hold in self.holds:
            if not hold.block:
                found.append(
                    GoalOutcome(path=hold.shown, status=hold.status, block=False, message=hold.text)
                )
            elif not self.saved and never_continuing(stop):
                found.append(self.let_go_unsaved(hold.shown, hold.status, hold.text))
            elif not self.saved:
                found.append(hold_once(hold.shown, hold.status, hold.text, hold.advice, stop))
            elif hold.key in self.before.held:
                found.append(
                    GoalOutcome(path=hold.shown, status=hold.status, block=False, message=hold.text)
                )
            else:
                found.append(
                    GoalOutcome(
                        path=hold.shown,
                        status=hold.status,
                        block=True,
                        reason=f"{hold.text}\n{hold.advice}",
                    )
                )
        return found

    def mark(self, top: str, place: GitPlace) -> str:
        """HEAD's mark (:func:`goalfile.gitplace.head_mark`) in the repository at ``top``, read
        once per stop: at its start (:func:`watch`), before anything the hook runs (a check
        runs the project's code, which can move a branch) could change what the session's
        record keeps of it."""
        if top not in self.marks:
            self.marks[top] = head_mark(place)
        return self.marks[top]

    def _commit(self, top: str) -> str:
        """The commit HEAD resolves to in the repository at ``top``, asked of git once per
        stop: at its start, as :meth:`mark`."""
        if top not in self.commits:
            from goalfile.gitrepo import git_head_commit

            self.commits[top] = git_head_commit(top)
        return self.commits[top]

    def branch_moved(self, here: Path) -> frozenset[Path]:
        """The goal files (real paths) active at the session's earlier stop in a repository
        holding ``here`` whose HEAD is on the same branch (or the same detached text) but
        resolves to another commit: the branch moved since, by a commit, a reset, or by hand
        (its loose file, `packed-refs` rewritten in place, a symbolic ref's target), which
        leaves HEAD's mark alone. What that commit's copy of such a goal holds is not what
        git held when the hook last saw it active: its entries count as new (a `met` is
        checked again, a pause is told). HEAD on another branch is :meth:`switched`'s."""
        real_here = Path(os.path.realpath(here))
        found: set[Path] = set()
        for top, remembered in sorted(self.before.repositories.items()):
            if top in self.kept or not real_here.is_relative_to(top) or not remembered.commit:
                continue
            place = self.place(top)
            if place is None or _first_line(self.mark(top, place)) != _first_line(remembered.head):
                continue
            if self._commit(top) == remembered.commit:
                continue
            self.moved.add(top)
            found.update(
                Path(os.path.realpath(os.path.join(top, goal))) for goal in remembered.goals
            )
        return frozenset(found)

    def unplaced(self, stop: StopInput, tracked: Mapping[Path, Tracked]) -> frozenset[Path]:
        """At a stop the host marks as continuing (the stop before it was held by a Stop
        hook), the goal files git ``tracked`` (real paths) in a repository the session's record
        does not name: the record of that earlier stop is gone (deleted, or edited to leave the
        repository out), and what git holds of such a goal now is not known to be what it held
        then (a met entry forged and committed since). Their entries count as new, as for a
        branch moved (:meth:`branch_moved`): a `met` is checked again, and its criteria are
        compared with its first approval (docs/trust.md, "The Stop hook's record of a
        session"). The record keeps such a repository so (:attr:`goalfile.sessionmemory.
        Remembered.unplaced`) while it remembers it: the stop after the hold is not let go
        without a word because the hold's own record now names HEAD's commit. Every goal
        file git tracks, at any stop of a session whose transcript shows the agent ran
        goalfile's hook or named the record's folder (:mod:`goalfile.selfrun`): what the record
        says may be the agent's. Empty at any other stop, and without a record to name (no
        session id or transcript path: the old rule stands)."""
        if self.record is None:
            return frozenset()
        found: set[Path] = set()
        for path, entry in tracked.items():
            top = os.path.realpath(entry.root)
            remembered = self.before.repositories.get(top)
            if self.self_ran:
                why = f"the session's transcript shows that the agent {self.self_ran}, so the "
                why += "session's record is set aside"
            elif self.unbound:
                why = f"the session's record is set aside, as not the host's hook's: {self.unbound}"
            elif self.gone_record:
                why = "the session's record, which its transcript shows was taken at its start, "
                why += "is gone"
            elif remembered is not None and remembered.unplaced:
                why = "an earlier stop of this session found the session's record gone or set aside"
            elif remembered is None and stop.stop_hook_active:
                why = (
                    "this stop follows a hold (the host says the agent is continuing because of "
                    "a Stop hook), and the session's record of that stop is gone"
                )
            else:
                continue
            if top in self.kept:
                continue
            self.lost.add(top)
            self.why.setdefault(top, why)
            found.add(Path(os.path.realpath(path)))
        return frozenset(found)

    def lost_why(self, path: Path) -> str:
        """Why the entries of the goal file at ``path`` count as new (:meth:`unplaced`), as a
        phrase for the hold; empty for a goal they do not."""
        real = Path(os.path.realpath(path))
        return next((why for top, why in sorted(self.why.items()) if real.is_relative_to(top)), "")

    def commit_before(self, path: Path) -> tuple[str, str, str, str, bool] | None:
        """For a goal file active at the session's earlier stop, in a repository whose HEAD
        resolves to another commit now (its branch moved, :meth:`branch_moved`, or HEAD on
        another branch or commit): the repository's top, the commit HEAD resolved to at that
        stop, the file's path from the top (`/`-separated) and, for a goal only git's index
        held then, the object id of that copy (else empty), as the record keeps them, and
        whether the record was taken at the session's start (`goalfile hook start`); None
        for any other. The record then keeps that commit (:meth:`remember`), so the stops
        after this one compare with it too."""
        real = Path(os.path.realpath(path))
        for top, remembered in sorted(self.before.repositories.items()):
            if top in self.kept or not remembered.commit or not real.is_relative_to(top):
                continue
            relative = real.relative_to(top).as_posix()
            if relative not in remembered.goals or self._commit(top) == remembered.commit:
                continue
            self.moved.add(top)
            staged = dict(remembered.staged).get(relative, "")
            return top, remembered.commit, relative, staged, remembered.seen == "start"
        return None

    def taken(self, path: Path) -> str:
        """When the session's record of the repository holding ``path`` was taken, for a
        message (:attr:`goalfile.sessionmemory.Remembered.when`): its start or an earlier stop."""
        real = Path(os.path.realpath(path))
        for top, remembered in sorted(self.before.repositories.items()):
            if real.is_relative_to(top):
                return remembered.when
        return AT_STOP

    def gone(self, tracked: Collection[Path], here: Path) -> None:
        """Hold the agent for each goal file active at the session's earlier stop, in a goal
        folder of a repository that holds ``here``, that is gone now, while git tracks nothing
        at its path (not ``tracked``: a tracked one is held as hidden) and nothing was
        committed or checked out since (:func:`goalfile.gitplace.head_mark`): a person
        retires a goal by a commit. When HEAD moved since, the stop is never silent: HEAD now
        on another branch or commit (a checkout of a commit that lacks the goal, for the stop)
        holds the agent once, with the checkout back; the same branch moved (a commit, a reset)
        lets it go with a message naming the goal (:func:`_moved`)."""
        real_here = Path(os.path.realpath(here))
        for top, remembered in sorted(self.before.repositories.items()):
            if top in self.kept or not real_here.is_relative_to(top):
                continue
            place = self.place(top)
            if place is None or not remembered.head:
                continue
            lost = [
                goal
                for goal in remembered.goals
                if in_goal_folder(goal)  # where git's listing of the goals is whole
                and not os.path.lexists(os.path.join(top, goal))
                and Path(top, goal) not in tracked
            ]
            if not lost:
                continue
            now = self.mark(top, place)
            back = _from_index(Path(top), lost, remembered, here)
            when = remembered.when
            hold = _gone(Path(top), lost, here, back, when=when) if now == remembered.head else None
            written = _head_written(place)
            hold = hold or _moved(
                Path(top), lost, remembered.head, now, here, back=back, written=written, when=when
            )
            self.holds.append(hold)
            if hold.block:
                self.kept.add(top)

    def switched(self, quiet: Iterable[Path], here: Path) -> None:
        """Hold the agent once for each repository holding ``here`` whose HEAD is on another
        branch or commit than at the session's earlier stop, where a goal file active then is
        one of ``quiet`` now: goals the hook lets go without verifying them at this stop (met,
        paused, ... by entries the commits of that branch hold). A side branch whose commit
        holds the goal `met`, checked out for the stop and deleted after, left only the
        reflog."""
        real_here = Path(os.path.realpath(here))
        let_go = {os.path.realpath(path) for path in quiet}
        for top, remembered in sorted(self.before.repositories.items()):
            if top in self.kept or not real_here.is_relative_to(top) or not remembered.head:
                continue
            place = self.place(top)
            now = self.mark(top, place) if place is not None else ""
            if not now or _first_line(now) == _first_line(remembered.head):
                continue
            goals = [
                goal
                for goal in remembered.goals
                if os.path.realpath(os.path.join(top, goal)) in let_go
            ]
            if goals:
                where = "where the goal asks for no more work (its ledger there says so)"
                hold = _moved(
                    Path(top),
                    goals,
                    remembered.head,
                    now,
                    here,
                    where=where,
                    written=_head_written(place) if place is not None else "",
                    when=remembered.when,
                )
                self.holds.append(hold)
                self.kept.add(top)


def watch(
    stop: StopInput,
    env: Mapping[str, str],
    here: Path,
    roots: Iterable[Path],
    *,
    bare_start: bool = False,
) -> RepositoryWatch:
    """The holds for a repository hidden or swapped at this stop, with the session's record
    (:class:`RepositoryWatch`) to update once the stop is decided. ``bare_start``: the host
    gives its start hook no transcript (:func:`goalfile.recordbind.unbound`)."""
    found = RepositoryWatch()
    found.transcript = stop.transcript_path
    real_here = Path(os.path.realpath(here))
    state = state_folder(env)
    if state is not None:
        found.record = record_path(
            state, session_id=stop.session_id, transcript=stop.transcript_path
        )
    if found.record is not None:
        found.before = load(found.record)
    if found.before.other:  # sealed for another session's file
        found.unbound = "it was sealed for another session's file (copied in this session's "
        found.unbound += "place, or written before records named their file)"
    elif found.before.repositories or found.before.held:  # the host's hook's, or not
        from goalfile.recordbind import unbound

        found.unbound = unbound(found.before.taken, stop.transcript_path, bare_start=bare_start)
    elif found.record is not None and found.before.taken is None:  # no record: deleted?
        from goalfile.recordbind import started

        found.gone_record = started(stop.transcript_path)
    # the agent's own runs of goalfile's hook, or its commands on the record's folder, as the
    # host's transcript keeps them: held once, and the record set aside (:meth:`unplaced`)
    from goalfile.selfrun import self_runs

    runs = () if state is None else self_runs(stop.transcript_path, str(state.parent))
    if runs:
        from goalfile.commands.hookrules.selfheld import STATUS, evidence_key, evidence_text

        text, advice = evidence_text(runs)
        found.holds.append(
            Hold(key=evidence_key(runs), shown=".", status=STATUS, text=text, advice=advice)
        )
        done = ["ran goalfile's hook itself"] if any(run.hook for run in runs) else []
        if not all(run.hook for run in runs):
            done.append("named the folder that holds the session's record")
        found.self_ran = " and ".join(done)
    for top, remembered in sorted(found.before.repositories.items()):
        if not real_here.is_relative_to(top):
            continue
        now = found.place(top)
        if now is not None and now.same_repository(remembered.place):
            continue
        hold = None  # the same git folder, a commondir planted in it: named, with its fix
        if now is not None and now.gitdir_id == remembered.place.gitdir_id:
            hold = _common(Path(top), now, here)
        found.holds.append(hold or _remembered(Path(top), remembered, now, here))
        found.kept.add(top)
    for top, remembered in sorted(found.before.repositories.items()):
        if top in found.kept or real_here.is_relative_to(top) or not os.path.isdir(top):
            continue
        hold = _elsewhere(found, Path(top), remembered, roots, here)
        if hold is not None:
            found.holds.append(hold)
            found.kept.add(top)
    folder = str(real_here)
    from goalfile.commands.gittop import holds_git

    while True:  # a goal folder beside a git folder under another name, and no .git
        hold = None
        if (
            folder not in found.kept
            and not holds_git(folder)  # an empty .git folder is none
            and any(os.path.isdir(os.path.join(folder, goals)) for goals in GOAL_FOLDERS)
        ):
            hold = _stray(Path(folder), here)
        if hold is not None:
            found.holds.append(hold)
            found.kept.add(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    for root in roots:
        top = os.path.realpath(root)
        place = found.place(top)
        if place is not None:  # what the record keeps of HEAD, as it is before any check runs
            found.mark(top, place)
            found._commit(top)
        if top in found.kept:
            continue
        hold = None if place is None else _foreign(Path(top), place, here)
        hold = hold or (None if place is None else _common(Path(top), place, here))
        if hold is not None:
            found.holds.append(hold)
            found.kept.add(top)
    return found


def _elsewhere(
    found: RepositoryWatch, top: Path, remembered: Remembered, roots: Iterable[Path], here: Path
) -> Hold | None:
    """The hold for a session whose folder is now in another work tree (``roots``) of the
    repository at ``top`` in which it held a goal (`git worktree add ../wt OLD_COMMIT`, and
    the session moved there: a checkout without the goal, which `git checkout` in place would
    have been held for); None when the session is in no such work tree, or in one that holds
    the remembered goals itself (they are verified there)."""
    for root in roots:
        now = os.path.realpath(root)
        place = found.place(now)
        if place is None or place.common_id != remembered.place.common_id:
            continue
        if remembered.goals and all(
            os.path.lexists(os.path.join(now, goal)) for goal in remembered.goals
        ):
            continue
        shown, there = _shown(top, here), _shown(Path(now), here)
        text = (
            f"goalfile cannot verify the goals of the repository at {shown}: {remembered.when} "
            f"it held {_goals(remembered)} there, and the session's folder is "
            f"now in {there}, another work tree of the same repository, where that goal is not"
        )
        return Hold(
            key=f"elsewhere\0{top}\0{now}",
            shown=shown,
            status="repository-elsewhere",
            text=_with_fix(text, f"cd -- {shell_word(shown)}"),
            advice=(
                "Go back to the goal's work tree as the fix says and work there until the goal "
                "is met; another work tree of the repository is no way to stop (a person who "
                "moves the work elsewhere pauses the goal first: `goalfile pause`)."
            ),
        )
    return None


def _remembered(top: Path, remembered: Remembered, now: GitPlace | None, here: Path) -> Hold:
    """The hold for the remembered repository at ``top`` whose git folder is gone, or is
    ``now`` another one."""
    if now is None and not os.path.lexists(top / ".git"):
        return _missing(top, remembered, here)
    return _swapped(top, remembered, now, here)


def _shown(path: Path, here: Path) -> str:
    return os.path.relpath(path, os.path.realpath(here))


def _goals(remembered: Remembered) -> str:
    names = ", ".join(remembered.goals)
    if not remembered.goals:  # none of them tracked by git
        return "an active goal"
    return f"the active goal {names}" if len(remembered.goals) == 1 else f"the goals {names}"


def _put_back(top: Path, place: GitPlace, here: Path) -> str | None:
    """The command that puts the git folder ``place`` names back at ``top/.git`` (when
    nothing stands there), from ``here``: a rename of it inside the top, or a ``.git`` file
    naming it where it still is (a linked work tree); None when it is not found."""
    dotgit = shell_word(_shown(top / ".git", here))
    name = renamed(top, place)
    if name is not None:
        return f"mv -- {shell_word(_shown(top / name, here))} {dotgit}"
    if place.kind == "file" and still_there(place):
        return f"printf 'gitdir: %s\\n' {shell_word(place.gitdir)} > {dotgit}"
    return None


def _free_name(top: Path) -> str:
    """A name in ``top`` that nothing holds, for the ``.git`` that stands in the way."""
    name, number = ".git-replaced", 1
    while os.path.lexists(top / name):
        number += 1
        name = f".git-replaced-{number}"
    return name


ADVICE = (
    "a repository hidden from the Stop hook, or another one put in its place, is no way to "
    "stop (a person who means to remove the repository ends the session)."
)


def _with_fix(text: str, fix: str | None) -> str:
    return text if fix is None else f"{text}\n  fix: `{fix}`"


def _missing(top: Path, remembered: Remembered, here: Path) -> Hold:
    shown = _shown(top, here)
    dotgit = _shown(top / ".git", here)
    fix = _put_back(top, remembered.place, here)
    text = (
        f"goalfile cannot verify the goals of the repository at {shown}: {remembered.when} "
        f"it held {_goals(remembered)}, and now {dotgit} is gone, so git "
        "finds no repository there"
    )
    advice = (
        f"Put the git folder back as the fix says; {ADVICE}"
        if fix is not None
        else f"Put the repository's git folder back at {dotgit} (it was "
        f"{remembered.place.gitdir}); {ADVICE}"
    )
    return Hold(
        key=f"missing\0{top}",
        shown=shown,
        status="repository-hidden",
        text=_with_fix(text, fix),
        advice=advice,
    )


def _swapped(top: Path, remembered: Remembered, now: GitPlace | None, here: Path) -> Hold:
    shown = _shown(top, here)
    dotgit = _shown(top / ".git", here)
    if now is None:
        what = "a .git that is no git folder"
    elif now.kind == "file":
        what = f"a .git file naming {now.gitdir}"
    elif now.gitdir == remembered.place.gitdir:
        what = "another git folder made at that path (a new repository, or a copy)"
    else:
        what = f"another git folder ({now.gitdir})"
    text = (
        f"goalfile cannot verify the goals of the repository at {shown}: {remembered.when} "
        f"it held {_goals(remembered)} there, with the git folder "
        f"{remembered.place.gitdir}; now {dotgit} is {what}"
    )
    back = _put_back(top, remembered.place, here)
    fix = None
    advice = (
        f"Put the repository's own git folder back at {dotgit} (it was "
        f"{remembered.place.gitdir}); {ADVICE}"
    )
    if back is not None:
        moved = shell_word(_shown(top / _free_name(top), here))
        fix = f"mv -- {shell_word(dotgit)} {moved} && {back}"
        advice = (
            "Put the repository's own git folder back as the fix says (what stands there now is "
            f"moved aside, not deleted); {ADVICE}"
        )
    identity = "" if now is None else f"{now.gitdir_id}{now.common_id}"
    return Hold(
        key=f"swapped\0{top}\0{identity}",
        shown=shown,
        status="repository-swapped",
        text=_with_fix(text, fix),
        advice=advice,
    )


def _stray(folder: Path, here: Path) -> Hold | None:
    """A folder with a goal folder and no ``.git`` (or an empty ``.git`` folder), holding a git
    folder under another name."""
    names = aside(folder)
    if not names:
        return None
    shown = _shown(folder, here)
    listed = ", ".join(_shown(folder / name, here) for name in names)
    dotgit = shell_word(_shown(folder / ".git", here))
    empty = os.path.lexists(folder / ".git")  # an empty .git folder stands in its place
    text = (
        f"goalfile cannot tell which goals git tracks in {shown}: it holds a goal folder and "
        f"{'an empty .git folder' if empty else 'no .git'}, but {listed} "
        f"{'is a git folder' if len(names) == 1 else 'are git folders'} under another name"
    )
    fix = None
    advice = f"Rename the repository's own git folder back to .git; {ADVICE}"
    if len(names) == 1:
        fix = f"mv -- {shell_word(listed)} {dotgit}"
        fix = f"rmdir -- {dotgit} && {fix}" if empty else fix
        advice = f"Put the git folder back as the fix says; {ADVICE}"
    return Hold(
        key=f"stray\0{folder}\0{chr(0).join(names)}",
        shown=shown,
        status="repository-hidden",
        text=_with_fix(text, fix),
        advice=advice,
    )


def _foreign(top: Path, place: GitPlace, here: Path) -> Hold | None:
    """A repository whose ``.git`` file names the git folder of another work tree."""
    other = foreign(top, place)
    if other is None:
        return None
    shown = _shown(top, here)
    dotgit = _shown(top / ".git", here)
    text = (
        f"goalfile cannot trust the repository at {shown}: its .git file names {other} "
        f"({place.gitdir}), not a git folder of its own"
    )
    names = aside(top)
    fix = None
    advice = f"Put the repository's own git folder back at {dotgit}; {ADVICE}"
    if len(names) == 1:
        moved = shell_word(_shown(top / _free_name(top), here))
        own = shell_word(_shown(top / names[0], here))
        fix = f"mv -- {shell_word(dotgit)} {moved} && mv -- {own} {shell_word(dotgit)}"
        advice = (
            "Put the repository's own git folder back as the fix says (the .git file is moved "
            f"aside, not deleted); {ADVICE}"
        )
    return Hold(
        key=f"foreign\0{top}\0{place.gitdir}",
        shown=shown,
        status="repository-swapped",
        text=_with_fix(text, fix),
        advice=advice,
    )


def _common(top: Path, place: GitPlace, here: Path) -> Hold | None:
    """A git folder that takes its repository from another folder (:func:`goalfile.gitplace.
    common_elsewhere`): held at any stop, a session's first included."""
    what = common_elsewhere(place)
    if what is None:
        return None
    shown = _shown(top, here)
    pointer = _shown(Path(place.gitdir) / "commondir", here)
    text = (
        f"goalfile cannot trust the repository at {shown}: its git folder holds {what}, so git "
        "reads the branches, objects and settings of that folder, not its own"
    )
    fix = None
    if place.kind == "folder":  # moved aside, not deleted
        fix = moved_aside(shell_word(pointer))
    return Hold(
        key=f"commondir\0{top}\0{place.common}",
        shown=shown,
        status="repository-swapped",
        text=_with_fix(text, fix),
        advice=(
            "Take the commondir file out of the repository's git folder as the fix says; "
            if fix is not None
            else "Put back the commondir file git wrote for this linked work tree (`../..`); "
        )
        + ADVICE,
    )


def _from_index(top: Path, lost: list[str], remembered: Remembered, here: Path) -> str | None:
    """The command that puts back, from git's object store, the copies git's index held at
    the earlier stop of the ``lost`` goals that only the index held then (staged, never
    committed: a `git checkout -f` or a `git reset --hard` takes such a file away, and no
    branch holds it); None when there is none. The file and the index get that copy."""
    from goalfile.commands.gitgoals import git_from

    oids = dict(remembered.staged)
    pairs = [(goal, oids[goal]) for goal in lost if goal in oids]
    if not pairs:
        return None
    git = git_from(top, Path(os.path.realpath(here)))
    steps = [
        f"{git} update-index --add --cacheinfo {shell_word(f'100644,{oid},{goal}')}"
        for goal, oid in pairs
    ]
    steps.append(f"{git} checkout -- {' '.join(shell_word(goal) for goal, _ in pairs)}")
    return " && ".join(steps)


def _gone(
    top: Path, lost: list[str], here: Path, back: str | None = None, *, when: str = AT_STOP
) -> Hold:
    """Goal files active at an earlier stop, gone now with no trace in git; ``back`` puts
    back those only git's index held (:func:`_from_index`)."""
    shown = [_shown(top / goal, here) for goal in lost]
    names = ", ".join(shown)
    one = len(shown) == 1
    text = (
        f"goalfile cannot verify {names}: {when} "
        f"{'it was an active goal' if one else 'they were active goals'}, and now "
        f"{'it is' if one else 'they are'} gone, while git tracks nothing at "
        f"{'that path' if one else 'those paths'} and nothing was committed or checked out since"
    )
    put = f"Put {names} back where {'it was' if one else 'they were'}"
    if back is not None:
        put += " (the fix puts back the copy git's index held then)"
    gone = tuple(top / goal for goal in lost)
    return Hold(
        key=f"gone\0{top}\0{chr(0).join(lost)}{folder_marks(gone)}",
        gone=gone,
        shown=shown[0],
        status="goal-gone",
        text=_with_fix(text, back),
        advice=(
            f"{put}; a goal file moved or deleted, and taken out of git's index, is no way to "
            "stop (a person who retires a goal commits its removal)."
        ),
    )


def _without_marks(key: str) -> str:
    """``key`` without the folder marks :func:`folder_marks` ends it in."""
    at = key.find("\0gone:")
    return key if at < 0 else key[:at]


def _first_line(mark: str) -> str:
    return mark.split("\n", 1)[0].strip()


def _head_name(mark: str) -> str:
    """What the first line of a :func:`goalfile.gitplace.head_mark` names: a branch, a ref, or
    a detached commit (abbreviated)."""
    head = _first_line(mark)
    if head.startswith("ref:"):
        ref = head[len("ref:") :].strip()
        return ref.removeprefix("refs/heads/")
    return head[:12] or "nothing"


def _moved(
    top: Path,
    lost: list[str],
    before: str,
    now: str,
    here: Path,
    *,
    where: str = "",
    back: str | None = None,
    written: str = "",
    when: str = AT_STOP,
) -> Hold:
    """Goal files active at an earlier stop, gone now with no trace in git, after HEAD moved:
    to another branch or commit (held once, with the checkout that goes back, and ``back``
    for those only git's index held, which no branch holds), or the same branch moved by a
    commit or a reset (let go, said). ``written`` (:func:`_head_written`) is part of the
    hold's key: HEAD moved back and away again since the hold is held again."""
    from goalfile.commands.gitgoals import git_from

    shown = [_shown(top / goal, here) for goal in lost]
    names = ", ".join(shown)
    one = len(shown) == 1
    was, is_now = _head_name(before), _head_name(now)
    first = _first_line(before)
    if first == _first_line(now) and not where:  # the same branch, moved
        return Hold(
            key=f"moved\0{top}\0{chr(0).join(lost)}",
            shown=shown[0],
            status="goal-gone",
            text=(
                f"goalfile: {names} {'was an active goal' if one else 'were active goals'} "
                f"{when} and {'is' if one else 'are'} gone now: "
                f"{was} moved since (a commit or a reset), and git holds no such file there; "
                "the stop is allowed, the goal not verified (`git reflog` shows the move)"
            ),
            advice="",
            block=False,
        )
    git = git_from(top, Path(os.path.realpath(here)))
    branch = first[len("ref:") :].strip() if first.startswith("ref:") else ""
    if branch.startswith("refs/heads/"):
        fix: str | None = f"{git} checkout {shell_word(branch.removeprefix('refs/heads/'))}"
    elif first and not branch:
        fix = f"{git} checkout --detach {shell_word(first)}"
    else:
        fix = None
    if fix is not None and back is not None:  # staged only: no branch holds it
        fix = f"{fix} && {back}"
    text = (
        f"goalfile cannot verify {names}: {when} "
        f"{'it was an active goal' if one else 'they were active goals'} on {was}, and now "
        f"HEAD is {is_now}, {where or 'where git holds no such file'}"
    )
    if back is None:
        advice = "Go back to the branch that holds the goal" + (" as the fix says" if fix else "")
    else:
        advice = (
            f"Go back to {was} and put back the goal git's index held there (staged, never "
            "committed)" + (" as the fix says" if fix else "")
        )
    return Hold(
        key=f"{'switched' if where else 'moved'}\0{top}\0{chr(0).join(lost)}\0{written}",
        shown=shown[0],
        status="goal-gone",
        text=_with_fix(text, fix),
        advice=(
            advice + ", unless a person switched branches: then stop and say so; a checkout of "
            "another commit for the stop is no way to stop (a person who retires a goal commits "
            "its removal)."
        ),
    )


def _head_written(place: GitPlace) -> str:
    """A mark of the work tree's ``HEAD`` file as written: its inode and status-change time.
    git writes it anew (a new file renamed into place) at each checkout, so the fix run (the
    checkout back) and HEAD moved away again before the next stop change it, where the same
    HEAD at both stops does not: the hold is then another one."""
    try:
        found = os.stat(os.path.join(place.gitdir, "HEAD"))
    except (OSError, ValueError):
        return ""
    return f"{found.st_ino}:{found.st_ctime_ns}"


def never_continuing(stop: StopInput) -> bool:
    """Whether the host does not say the agent is continuing because of a Stop hook at every
    stop after a hold: Gemini CLI (its AfterAgent hook) sends ``stop_hook_active`` false at
    every stop that follows a tool call of the model, so a hold kept to once per session by
    the record would come back at each of them (docs/hosts.md#gemini-cli)."""
    return stop.hook_event_name == "AfterAgent"


def _cause(exc: OSError) -> str:
    """What stopped the save, naming the path it stopped at (a file where a folder should be
    reads "File exists" alone otherwise)."""
    if exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return exc.strerror or str(exc)
