"""`goalfile hook stop`: a host's Stop hook that lets the agent stop only when the goal allows it.

The host (Claude Code, Codex) runs the hook when the agent is about to end its turn and passes
a JSON object on stdin: ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name`` and
``stop_hook_active`` (true when the agent is already continuing because a Stop hook blocked).

The hook picks the goal (``--goal``, else the working tree's focus from ``goalfile focus``,
else every ``active`` goal under ``goals/`` and ``.zetetic/goals/``) of each git work tree that
holds ``cwd``, as git names them (:func:`project_roots`), runs ``verify`` on it
(writing the ledger entry, with the session's transcript for token accounting, within a time
limit below the host's hook timeout, shared between the goals: the goal picked by name first,
then the goal files git tracks, then the others), and answers:

* **allow** when the goal is met, exhausted, blocked, paused or absent, and its ledger backs
  that status (:func:`goalfile.handedit.unbacked_status`); but a `blocked` that a verify run
  wrote (an `error` row, the stall guard, a token usage that cannot be measured: each is the
  agent's to bring about, with the code a check runs or with verify runs of its own) holds it
  once per ledger entry, whether this verify wrote it or one run before the stop: the hold is
  ledgered (``by stop-hook-hold``, :mod:`goalfile.blockhold`), and every later stop on that
  entry, and one with ``stop_hook_active``, is let go with the message. A block declared with
  `goalfile block` (or a row marked impossible) lets the agent go as the other statuses do.
  A goal paused, exhausted or blocked (`goalfile block`) by an entry the copy git holds does
  not have (whatever its heading says), or by one dated today that the hook did not write (an
  agent may run `goalfile pause` or `goalfile block`, or spend the budget with `goalfile plan`)
  lets it go with a message naming the goal, its status and that entry
  (:func:`_ended_today`). A goal `met` by an entry git does not hold yet has its checks run
  again, writing nothing, and holds the agent once unless every row is still met
  (:func:`_recheck_one`);
* **block once** (then, with ``stop_hook_active``, allow with the message) when verify refuses
  the goal, when a goal file does not load, when the ledger does not back its status, when a
  goal file git tracks is missing from the working tree or hidden from git
  (:mod:`goalfile.commands.gitgoals`) or shows another goal there than the one HEAD holds,
  continued, when git cannot list a repository the session is in, when a part of a goal
  folder cannot be read, when the hook's time did not suffice to verify it, or when handling
  it (or finding the goals) raised an unexpected error: breaking, hiding, swapping or starving
  a goal, or typing ``status: met``, is no way to stop unseen: the agent is sent back once
  with the fix, and its next stop is let through only with the message, which the person sees,
  while the goal stays active and unmet for ``status``, ``audit`` and CI;
* **block** while it is active with unmet rows. The reason is the summary line and the unmet
  rows' evidence (at most 10,000 characters), which the host hands to the agent as its next
  instruction. Sending the agent back starts the next iteration (an entry by ``stop-hook``);
  at the iteration limit the goal becomes exhausted and the stop is allowed instead;
* **allow with a message** (loop guard) when ``stop_hook_active`` is true and the last
  ``stall_limit`` verify entries show the same verdicts and evidence: blocking again would only
  repeat them.

Parsing the input, the block reason and the answers are pure; :func:`decide_stop` and the
helpers it calls read the file system, run git and run ``verify``. The CLI layer turns a
:class:`StopDecision` into the host's JSON and always exits 0; an error that escapes
:func:`decide_stop` once the input is read holds the agent once (:func:`failed_stop`).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.context import Context
from goalfile.commands.hints import raise_budget_command
from goalfile.errors import GoalfileError, GoalFileInvalid, UsageError
from goalfile.files import load_goal, read_text, real_path
from goalfile.goalfolders import GOAL_FOLDERS, under_goal_folder
from goalfile.handedit import unbacked_status
from goalfile.hostprotocol import HOOK_TIMEOUT, HostAgent, allow_answer, block_answer
from goalfile.model import (
    Criterion,
    Entry,
    Finding,
    Goal,
    Kind,
    RowResult,
    Severity,
    Status,
    Verdict,
)
from goalfile.shellword import shell_word

if TYPE_CHECKING:  # imported where used: a stop on a goal that is not active needs none of them
    from goalfile.commands.gitgoals import Tracked
    from goalfile.commands.iteration import IterationStart
    from goalfile.commands.status import Unreadable
    from goalfile.commands.verify import VerifyOptions, VerifyResult

SCHEMA_VERSION = 1
REASON_LIMIT = 10_000
STALL_LIMIT = 3
MARGIN = 30.0  # seconds kept between verify's time limit and the host's hook timeout
LOCK_WAIT = 30.0
HOLD_LOCK_WAIT = 5.0  # seconds the hook waits to ledger a hold
MIN_SHARE = 2.0  # seconds: a goal's share of the hook's time is never cut below this
GIT_FLOOR = 2.0  # seconds a git command may take at least (a loaded machine is slow too)


# what a goal file git tracks that is gone, hidden or swapped is found as: such a hold is
# made once per finding, kept in the session's record (:mod:`goalfile.commands.hookrepo`)
_ONCE_PER_FINDING = frozenset({"hidden", "replaced"})
# what a goal that lets the agent stop is found as (:func:`_look`): a repository holding
# none of the others is not remembered for the session (:mod:`goalfile.commands.hookrepo`)
_ENDED = frozenset({*(status.value for status in Status if status is not Status.ACTIVE), "absent"})


class HookInputError(UsageError):
    """The hook's stdin is not the JSON object a host sends."""


@dataclass(frozen=True, kw_only=True)
class StopInput:
    """What a host sends a Stop hook. Unknown fields are ignored."""

    session_id: str | None = None
    transcript_path: str | None = None
    cwd: str | None = None
    hook_event_name: str | None = None
    stop_hook_active: bool = False

    @classmethod
    def parse(cls, raw: str) -> StopInput:
        text = raw.lstrip("\ufeff").strip()
        if not text:
            return cls()
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise HookInputError(
                f"the hook input is not JSON: {exc}",
                hint="the host passes one JSON object on stdin",
            ) from None
        if not isinstance(data, dict):
            raise HookInputError("the hook input is not a JSON object")

        def text_of(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) and value else None

        return cls(
            session_id=text_of("session_id"),
            transcript_path=text_of("transcript_path"),
            cwd=text_of("cwd"),
            hook_event_name=text_of("hook_event_name"),
            stop_hook_active=data.get("stop_hook_active") is True,
        )


@dataclass(frozen=True, kw_only=True)
class HookOptions:
    """The hook's command line: the host, the goal, the host's timeout and the stall limit."""

    agent: HostAgent = HostAgent.CLAUDE
    goal: str | None = None
    timeout: float = float(HOOK_TIMEOUT)  # the host's hook timeout, seconds
    stall_limit: int = STALL_LIMIT


@dataclass(frozen=True, kw_only=True)
class GoalOutcome:
    """What the hook decided for one goal."""

    path: str
    status: str  # the goal's status after the run (or as found)
    block: bool
    summary: str | None = None  # verify's summary line, when verify ran
    reason: str | None = None  # for the agent, when blocking
    message: str | None = None  # for the user, when allowing with something to say
    # a hold on a block a verify run wrote, still to be ledgered in the goal file at this path
    # once the hook answers with it; the outcome to answer instead if that fails
    hold: tuple[Path, int, GoalOutcome] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "status": self.status,
            "decision": "block" if self.block else "allow",
            "summary": self.summary,
            "reason": self.reason,
            "message": self.message,
        }


@dataclass(frozen=True, kw_only=True)
class Recheck:
    """A `met` goal whose met entry is new since the copy git holds: the hook runs its checks
    again, writing nothing (:func:`_recheck_one`). ``reviews``: the ids of its review rows."""

    reviews: frozenset[str]


@dataclass(frozen=True, kw_only=True)
class StopDecision:
    """What the hook answers: an outcome per goal, and notes for stderr."""

    goals: tuple[GoalOutcome, ...] = ()
    notes: tuple[str, ...] = ()  # for stderr

    @property
    def block(self) -> bool:
        return any(goal.block for goal in self.goals)

    @property
    def reason(self) -> str | None:
        if not self.block:
            return None
        return clip("\n\n".join(g.reason or "" for g in self.goals if g.block), REASON_LIMIT)

    @property
    def message(self) -> str | None:
        parts = [g.message for g in self.goals if g.message and not g.block]
        return clip("\n".join(parts), REASON_LIMIT) if parts else None

    def host_output(self, agent: HostAgent) -> dict[str, object] | None:
        """The JSON the host expects on stdout; ``None`` means print nothing."""
        if self.block:
            return block_answer(agent, self.reason or "")
        return allow_answer(agent, self.message)

    def to_json(self, agent: HostAgent) -> dict[str, object]:
        return {
            "schema_version": SCHEMA_VERSION,
            "agent": agent.value,
            "decision": "block" if self.block else "allow",
            "host_output": self.host_output(agent),
            "goals": [g.to_json() for g in self.goals],
            "notes": list(self.notes),
        }


def allow_output(agent: HostAgent, message: str | None = None) -> dict[str, object] | None:
    """The host's "let it stop" answer, used when the hook itself fails (fail open)."""
    return StopDecision(
        goals=(GoalOutcome(path="", status="", block=False, message=message),)
    ).host_output(agent)


# --- pure helpers ---------------------------------------------------------------------------


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    marker = "\n… (cut to fit the host's limit)"
    return text[: limit - len(marker)] + marker


def block_reason(
    result: VerifyResult,
    *,
    shown_path: str,
    review_ids: frozenset[str] = frozenset(),
    limit: int = REASON_LIMIT,
) -> str:
    """The summary line, then each unmet or error row's evidence (and output, while it fits)."""
    head = [
        result.summary,
        "",
        f"The goal in {shown_path} is not met, so this turn goes on. Fix the work, never the "
        "criteria, the ledger or the status; the next stop re-runs `goalfile verify` "
        "(see the refine-goal skill).",
    ]
    failing = [row for row in result.rows if row.verdict is not Verdict.MET]
    rows = [f"- {r.id} {r.verdict.value} (exit {r.exit}): {_evidence(r)}" for r in failing]
    if failing and all(row.id in review_ids for row in failing):
        head.append(
            "Only review rows remain: record each review with `goalfile review` "
            "(see the verify-goal skill)."
        )
    text = "\n".join([*head, "", "Not met:", *rows]) if rows else "\n".join(head)
    if len(text) > limit:
        return clip(text, limit)
    for row in failing:  # add output excerpts while they fit
        if not row.excerpt:
            continue
        block = "\n".join(
            [f"{row.id} output ({row.excerpt_label}):", *(f"    {line}" for line in row.excerpt)]
        )
        if len(text) + 2 + len(block) > limit:
            break
        text += "\n\n" + block
    return text


def _evidence(row: RowResult) -> str:
    from goalfile.explain import why_line

    return why_line(row)


def _cwd_fix(result: VerifyResult) -> str:
    """The lines `goalfile verify` prints when the goal's `cwd:` names a folder that is not
    there (its file and line, and the fix), each after a line break; else ""."""
    if result.missing_cwd is None:
        return ""
    message, fix = result.missing_cwd
    return f"\n{message}\n  fix: {fix}"


# --- the decision ---------------------------------------------------------------------------


Runner = Callable[["VerifyOptions", Context], "VerifyResult"]


def _run_verify(options: VerifyOptions, ctx: Context) -> VerifyResult:
    from goalfile import hookwatch
    from goalfile.commands.verify import NoProgress, verify

    class Told(NoProgress):
        """verify's progress, told to the hook's watchdog (:func:`goalfile.hookwatch.working_on`):
        the row whose check starts, so that a block at the hook's time limit names the row and
        its `expected` column. (Defined here: the hook loads verify only to run it.)"""

        def started(self, row: Criterion) -> None:
            hookwatch.working_on(row=row.id, expected=row.expected)

    return verify(options, ctx, Told())


def project_roots(start: Path, notes: list[str] | None = None) -> list[Path]:
    """The repositories whose goals hold the agent, innermost first: every git work tree that
    holds ``start`` (the session's folder, :func:`_start`), as git names them
    (:func:`goalfile.commands.gittop.work_trees`), and every folder at or above it that holds
    a ``.git`` entry git names no work tree for (`git config core.bare true`, a
    ``core.worktree`` elsewhere, a broken ``gitdir:`` line, an empty ``.git`` planted in a
    sub-folder). A ``.git`` only ever adds a repository: one git accepts (`git init scratch`)
    adds a tree without dropping the project's own, and one git will not read is no way to
    hide the goals of the folder that holds it. Outside git, the folder itself."""
    from goalfile.commands.gittop import work_trees

    named = work_trees(start)
    unnamed = [
        folder
        for folder in (start, *start.parents)
        if os.path.lexists(folder / ".git") and folder not in named
    ]
    if notes is not None:
        for folder in unnamed:
            if any((folder / goals).is_dir() for goals in GOAL_FOLDERS):
                notes.append(
                    f"git names no work tree for the repository at {folder} (core.bare or "
                    f"core.worktree set, or its .git broken: `git -C {shell_word(str(folder))} "
                    "rev-parse --show-toplevel` says why); its goals hold the agent all the same"
                )
    roots = sorted({*named, *unnamed}, key=lambda folder: len(folder.parts), reverse=True)
    return roots or [start]


def _start(stop: StopInput, ctx: Context, notes: list[str] | None = None) -> Path:
    """The hook input's ``cwd`` when it is a folder, else the process's: also when asking
    about it fails (a ``cwd`` past the system's path limit, in a folder that cannot be
    searched, or ``~user`` for no such user), which is noted."""
    try:
        start = Path(stop.cwd).expanduser() if stop.cwd else ctx.cwd
        if not start.is_absolute():
            start = ctx.cwd / start
        return start.resolve() if start.is_dir() else ctx.cwd.resolve()
    except (OSError, RuntimeError, ValueError) as exc:
        if notes is not None:
            notes.append(
                f"the hook input's cwd cannot be used ({type(exc).__name__}: {exc}); the goals "
                f"of {ctx.cwd} are looked at"
            )
        return ctx.cwd


def goal_paths(
    options: HookOptions,
    roots: list[Path],
    notes: list[str],
    *,
    held: dict[Path, Finding] | None = None,
    tracked: Mapping[Path, Tracked] | None = None,
    problems: dict[str, Unreadable] | None = None,
) -> tuple[list[Path], frozenset[Path]]:
    """The goal files to look at, and those of them picked by name: ``--goal`` (a relative
    one resolved against each repository's top level, never against ``cwd``), else each
    repository's focused goal, else every goal file of each repository, with those git
    ``tracked`` that the working tree does not show. A goal picked by name that is absent or
    not active is answered for; a discovered one is passed over. A focused goal whose `active`
    the ledger does not back goes into ``held``, with the finding. A part of a goal folder
    that cannot be read goes into ``problems``."""
    if options.goal is not None:
        given = Path(options.goal).expanduser()
        if given.is_absolute():
            return [given], frozenset([given])
        found = [
            root / given
            for root in roots
            if (root / given).is_file() or root / given in (tracked or {})
        ]
        paths = _unique(found) or [roots[0] / given]
        return paths, frozenset(paths)
    picked: list[Path] = []
    named: set[Path] = set()
    for root in roots:
        blocked: list[Path] = []
        try:
            focused = _focused(root, notes, {} if held is None else held, blocked)
        except Exception as exc:  # a focus record no rule foresaw: every goal is looked at
            notes.append(f"the focus is ignored: {type(exc).__name__}: {exc}")
            focused = None
        if focused is not None:
            named.add(focused)
        if focused is None:
            picked += _discover(root, tracked or {}, {} if problems is None else problems)
            picked += blocked  # looked at too, where it is: its block may hold the agent once
        else:
            picked.append(focused)
    return _unique(picked, tracked or {}), frozenset(named)


def _discover(
    root: Path, tracked: Mapping[Path, Tracked], problems: dict[str, Unreadable]
) -> list[Path]:
    """Every goal file of the repository at ``root`` (:func:`goalfile.commands.status.scan`),
    then those git tracks there that the working tree does not hold. The parts of its goal
    folders that cannot be read go into ``problems``."""
    from goalfile.commands.status import scan

    listed, unreadable = scan(root)
    for problem in unreadable:
        problems.setdefault(problem.path, problem)
    found = [Path(p) for p in listed]
    there = set(found)
    gone = [path for path in tracked if path not in there and under_goal_folder(path, root)]
    held = _held_outside(root, tracked) if os.path.lexists(root / ".git") else []
    return found + sorted(gone) + held


def _held_outside(root: Path, tracked: Mapping[Path, Tracked]) -> list[Path]:
    """The goals outside the goal folders that a focus named in the working tree at ``root``
    (:mod:`goalfile.commands.focusheld`), looked at as discovered ones whatever the focus says
    now: each that is there, or that git tracks (then gone or hidden, it holds the agent)."""
    from goalfile.commands.focusheld import held

    found = []
    for relative in held(root):
        path = Path(os.path.normpath(root / relative))
        if not path.is_relative_to(root) or under_goal_folder(path, root):
            continue  # a goal folder's goals are discovered; nothing outside the repository
        if os.path.lexists(path) or path in tracked:
            found.append(path)
    return found


def _held_tracked(roots: list[Path], notes: list[str]) -> _Git:
    """What git says of the goals outside the goal folders recorded as held in ``roots``
    (asked by each file's own path, as for a focused one)."""
    from goalfile.commands.focusheld import held

    git = _Git(tracked={}, swapped={}, failed={})
    for root in roots:
        for relative in held(root, notes):
            path = Path(os.path.normpath(root / relative))
            if path.is_relative_to(root) and not under_goal_folder(path, root):
                git = _merged(git, _tracked_goal(str(path), [root]))
    return git


def _others(
    roots: list[Path],
    paths: list[Path],
    tracked: Mapping[Path, Tracked],
    problems: dict[str, Unreadable],
) -> list[Path]:
    """Every goal file of the repositories at ``roots`` that is not in ``paths``: those a
    focus left out, which hold the agent once the focused goal lets it stop."""
    taken = {real_path(path) for path in paths}
    found = [path for root in roots for path in _discover(root, tracked, problems)]
    return [path for path in _unique(found, tracked) if real_path(path) not in taken]


@dataclass(frozen=True, kw_only=True)
class _Git:
    """What git says of the goal files of the repositories the hook looks at."""

    tracked: dict[Path, Tracked]  # the goal files git tracks
    swapped: dict[Path, str]  # tracked goal files whose working copy does not extend HEAD's
    failed: dict[Path, Exception]  # repositories git could not list, with its error
    staged: frozenset[Path] = frozenset()  # of ``swapped``: compared with the index's copy
    # what HEAD and the index hold of each tracked goal file the working tree shows, and the
    # tops of the repositories asked: a goal file in one of them is run only when a copy git
    # holds approves its contract (:func:`_unapproved`)
    copies: dict[Path, tuple[bytes | None, bytes | None]] = field(default_factory=dict)
    repositories: frozenset[Path] = frozenset()


def _tracked(roots: list[Path]) -> _Git:
    """The goal files git tracks in each repository at ``roots`` (one `git ls-files` each),
    innermost repository first; those whose working file is not a continuation of the one
    HEAD holds (one `git cat-file --batch` each, :func:`_swapped`); and the repositories git
    could not list (a broken index, an unknown repository format, a HEAD that names no
    commit while branches exist), which hold the agent: that is never "git tracks nothing"."""
    from goalfile.commands.gitgoals import tracked_goals

    return _gathered([(root, partial(tracked_goals, root)) for root in roots])


def _gathered(listings: list[tuple[Path, Callable[[], Mapping[Path, Tracked]]]]) -> _Git:
    """:class:`_Git` from the goal files each repository's listing gives (a repository top,
    and the call that lists its tracked goal files by the path the hook names them with): each
    listed file is tracked, one whose working file does not continue HEAD's copy is swapped,
    and a repository whose listing or HEAD's copies git cannot read has failed."""
    from goalfile.commands.gitgoals import copies, reference
    from goalfile.run import GitUnreadable

    found: dict[Path, Tracked] = {}
    swapped: dict[Path, str] = {}
    failed: dict[Path, Exception] = {}
    staged: set[Path] = set()
    held: dict[Path, tuple[bytes | None, bytes | None]] = {}
    for top, listing in listings:
        try:
            listed = listing()
            for path, entry in listed.items():
                found.setdefault(path, entry)
            both = copies(listed) if listed else {}
        except GitUnreadable as exc:
            failed.setdefault(top, exc)
            continue
        for path, (head, index) in both.items():
            held.setdefault(path, (head, index))
            ref = reference(listed[path], head, index)
            why = _swapped(path, ref[1], ref[0]) if ref is not None else None
            if why is not None and path not in swapped:
                swapped[path] = why
                if ref is not None and ref[0] != "HEAD":
                    staged.add(path)
    tops = frozenset(top for top, _ in listings if os.path.lexists(top / ".git"))
    return _Git(
        tracked=found,
        swapped=swapped,
        failed=failed,
        staged=frozenset(staged),
        copies=held,
        repositories=tops,
    )


def _merged(first: _Git, then: _Git) -> _Git:
    """What git says in ``first`` and in ``then``; ``first`` wins where both speak."""
    return _Git(
        tracked={**then.tracked, **first.tracked},
        swapped={**then.swapped, **first.swapped},
        failed={**then.failed, **first.failed},
        staged=(then.staged - first.swapped.keys()) | first.staged,
        copies={**then.copies, **first.copies},
        repositories=first.repositories | then.repositories,
    )


def _tracked_goal(goal: str, roots: list[Path]) -> _Git:
    """:func:`_tracked` for the goal file ``--goal`` names, keyed by the path
    :func:`goal_paths` gives it: a relative one in each repository at ``roots`` (it is
    resolved against each of them), an absolute one in the repository that holds it. Named
    outright or not, a goal file git tracks must be there, seen by git, and continue the one
    HEAD holds, and a repository git cannot list holds the agent; the other goal files of
    the repositories are not looked at."""
    from goalfile.commands.gittop import repository_top

    given = Path(goal).expanduser()
    places: list[tuple[Path, Path, Path]] = []  # (repository top, key, path as git names it)
    if given.is_absolute():
        folder = given.parent
        while not folder.is_dir() and folder.parent != folder:
            folder = folder.parent
        top = repository_top(folder)
        if top is not None:
            real = real_path(given.parent) / given.name  # the file itself, never what it links to
            if real.is_relative_to(top):
                places.append((top, given, real))
    else:
        places = [(root, root / given, Path(os.path.normpath(root / given))) for root in roots]
    places = [place for place in places if os.path.lexists(place[0] / ".git")]
    if not places:  # outside git: nothing to ask it
        return _Git(tracked={}, swapped={}, failed={})
    from goalfile.commands.gitgoals import tracked_file

    def listing(top: Path, key: Path, path: Path) -> dict[Path, Tracked]:
        entry = tracked_file(top, path)  # asked of the file itself: it may lie outside goals/
        return {} if entry is None else {key: entry}

    return _gathered([(top, partial(listing, top, key, path)) for top, key, path in places])


def _swapped(path: Path, blob: bytes, ref: str = "HEAD") -> str | None:
    """How the working file at a tracked goal's ``path`` fails to be the goal ``ref`` (HEAD,
    or the index when HEAD holds none) holds there as ``blob``
    (:func:`goalfile.commands.gitgoals.departure`): a symlink where HEAD has
    another thing, another goal copied over it, a committed ledger entry gone or rewritten.
    None when it extends HEAD's goal, or when it does not read (the loader holds it)."""
    from goalfile.commands.gitgoals import departure
    from goalfile.files import ENCODING, ERRORS

    if os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:
            return None  # not a symlink any more: the loader reads what is there
        if os.fsencode(target) == blob:
            return None  # HEAD holds this same symlink
        return f"it is a symlink (to {target}), which is not what {ref} holds there"
    try:
        text = read_text(path)
    except GoalfileError:
        return None
    from goalfile.parse import conflict_markers

    if conflict_markers(text):  # a merge git has not finished: the loader holds it (its fix
        return None  # keeps both sides' entries, where HEAD's file alone would drop theirs)
    return departure(blob.decode(ENCODING, ERRORS), text, ref)


def _departs(path: Path, text: str, entry: Tracked, git: _Git) -> tuple[str, str] | None:
    """How the goal ``text``, read from the tracked goal file at ``path``, fails to continue
    the copy git holds (:func:`goalfile.commands.gitgoals.reference`), with that copy's name
    (``HEAD``, ``the index``); None when it continues it, when git gave no copy to compare
    with, or when the path is the very symlink git holds there. A symlink put there since the
    hook compared the file (the text just read came through it) is no continuation."""
    from goalfile.commands.gitgoals import departure, reference
    from goalfile.files import ENCODING, ERRORS
    from goalfile.parse import conflict_markers

    both = git.copies.get(path)
    ref = reference(entry, *both) if both is not None else None
    if ref is None:
        return None
    if os.path.islink(path):  # a link now: the one git holds there, or one put there meanwhile
        try:
            target = os.readlink(path)
        except OSError:  # a file again: the text read through it was still not this one's
            target = None
        if target is not None and os.fsencode(target) == ref[1]:
            return None
        return (ref[0], f"it is a symlink (to {target}), which is not what {ref[0]} holds there")
    if conflict_markers(text):
        return None
    why = departure(ref[1].decode(ENCODING, ERRORS), text, ref[0])
    return None if why is None else (ref[0], why)


def _through_link(
    path: Path, here: Path, stop: StopInput, tracked: Mapping[Path, Tracked], git: _Git
) -> GoalOutcome | None:
    """What holds a goal reached through a symlink, for the file it names: every other path
    git tracks that names that file (a tracked `goals/active.md -> auth.md` and its target
    `goals/auth.md`), and the file itself as git tracks it by its own path (under a goal
    folder that is a symlink, `goals -> docs-goals`, git lists only the link), must be there,
    seen by git, and continue HEAD's copy, as for any tracked goal file."""
    from goalfile.commands.gitgoals import hidden

    real = real_path(path)
    aliases = {other: entry for other, entry in tracked.items() if other != path}
    aliases = {other: entry for other, entry in aliases.items() if real_path(other) == real}
    if not aliases and real.is_file():
        itself = _tracked_goal(str(real), [])
        aliases, git = itself.tracked, itself
    for other, entry in sorted(aliases.items()):
        shown = _shown(other, here)
        if hidden(other, entry):
            return _hidden(other, shown, entry, here, stop)
        why = git.swapped.get(other)
        if why is not None:
            return _replaced(shown, why, entry, here, stop, staged=other in git.staged)
    return None


def _unique(paths: list[Path], first: Collection[Path] = ()) -> list[Path]:
    """``paths`` without those that name a file an earlier one names (through a symlink), in
    their order; a path in ``first`` (a goal file git tracks) is kept over any other that
    names the same file: a symlink at a tracked goal's path into a folder git ignores never
    makes the hook look only at the untracked name."""
    kept: dict[Path, int] = {}
    for index in sorted(range(len(paths)), key=lambda at: paths[at] not in first):
        kept.setdefault(real_path(paths[index]), index)
    chosen = set(kept.values())
    return [path for index, path in enumerate(paths) if index in chosen]


def _budget(timeout: float) -> float:
    """The seconds the hook gives its work within the host's ``timeout``."""
    margin = min(MARGIN, max(2.0, timeout / 5))  # room to start, write and answer
    return max(timeout - margin, 1.0)


def decide_stop(
    stop: StopInput,
    options: HookOptions,
    ctx: Context,
    *,
    runner: Runner = _run_verify,
    spent: float = 0.0,
) -> StopDecision:
    """What the hook answers (:func:`_decide_stop`). Its time limit counts from when the host
    started the hook, ``spent`` seconds ago (:func:`goalfile.hookwatch.spent`), as the
    watchdog's does. A git command it runs takes at most a tenth of its time budget (at least
    :data:`GIT_FLOOR`; once one did not answer, each after it :data:`GIT_FLOOR`) and ends
    before that budget does (:mod:`goalfile.gitlimit`): a git that does not answer (a FIFO at
    ``.git/index`` or ``.git/HEAD``) is killed and named in a hold, well before the host's
    timeout."""
    from goalfile import gitlimit

    budget = _budget(options.timeout)
    until = time.monotonic() + budget - spent
    each = max(GIT_FLOOR, budget / 10)
    with gitlimit.within(per_command=each, until=until, after_hang=GIT_FLOOR):
        return _decide_stop(stop, options, ctx, runner=runner, spent=spent)


def _decide_stop(
    stop: StopInput,
    options: HookOptions,
    ctx: Context,
    *,
    runner: Runner = _run_verify,
    spent: float = 0.0,
) -> StopDecision:
    start = ctx.clock()
    budget = _budget(options.timeout)
    deadline = start + budget - spent
    notes: list[str] = []
    here = ctx.cwd
    held: dict[Path, Finding] = {}
    problems: dict[str, Unreadable] = {}
    unheld: dict[Path, GoalOutcome] = {}
    try:
        here = _start(stop, ctx, notes)
        roots = project_roots(here, notes)
        # a repository hidden from the hook (its .git renamed away), or another put in its
        # place, holds the agent: what the session's earlier stops saw is remembered
        from goalfile.commands.hookrepo import watch

        repositories = watch(stop, ctx.env, here, roots)
        # the goal files git tracks: one that the working tree does not show (or shows as
        # another goal) holds the agent, and they are verified before the goal files git does
        # not track (with --goal: the same rules, for the goal file it names, and then for
        # every other goal file git tracks); and the goals outside the goal folders a focus
        # named, which stay held whatever the focus says now
        in_git = [root for root in roots if os.path.lexists(root / ".git")]
        if options.goal is None:
            git = _tracked(roots)
        else:  # outside git (no `.git` at or above cwd), nothing more is asked of it
            git = _tracked_goal(options.goal, roots)
            git = _merged(git, _tracked(in_git)) if in_git else git
        git = _merged(git, _held_tracked(in_git, notes)) if in_git else git
        tracked = git.tracked
        paths, named = goal_paths(
            options, roots, notes, held=held, tracked=tracked, problems=problems
        )
        if options.goal is None:  # a focused goal outside the goal folders: git is asked too
            for focused in sorted(named.difference(tracked)):
                git = _merged(git, _tracked_goal(str(focused), roots))
            tracked = git.tracked
            _keep_held(named, roots)
        # a goal file active at the session's earlier stop, gone now with no trace in git
        # (with --goal too: git was asked of every goal file it holds)
        repositories.gone(tracked, here)
        # a focus, or --goal, orders and names the goals; it never releases the agent: once
        # the named goal lets it stop, every other goal of the repository (with --goal: every
        # other goal file git holds) is looked at too
        if options.goal is None:
            later = _others(roots, paths, tracked, problems) if named else []
        else:
            later = [path for path in _others(in_git, paths, tracked, {}) if path in tracked]
            unheld = _unheld_goal(paths, tracked, git, in_git, here, stop)
            # held once in the session, whatever the host says of ``stop_hook_active``
            made = [path for path in unheld if repositories.made_before(_unheld_key(path))]
            if made:
                let_go = replace(stop, stop_hook_active=True)
                unheld.update(_unheld_goal(made, tracked, git, in_git, here, let_go))
            for path, outcome in unheld.items():
                if outcome.block:
                    repositories.hold_made(_unheld_key(path))
    except Exception as exc:  # finding the goals failed: no goal is known to let it stop
        return StopDecision(goals=(_lost(here, exc, stop, notes),), notes=tuple(notes))
    outcomes: list[GoalOutcome] = []
    later_outcomes: list[GoalOutcome] = []
    active: list[tuple[Path, frozenset[str]]] = []
    holding: list[Path] = []  # the goal files active, or held, at this stop
    recheck: set[Path] = set()  # met goals whose checks are run again (:class:`Recheck`)
    upgraded: dict[int, GoalOutcome] = {}  # holds made once per finding: what they replaced
    seen: dict[Path, str] = {}  # each goal's text as the hook judged it: verify runs it or none
    quiet: list[Path] = []  # goals let go without a word or a verify: not active, as found
    for path in [*paths, *later]:
        shown = _shown(path, here)
        sink = later_outcomes if path in later else outcomes
        if path in unheld:  # --goal names no goal git holds: held once
            sink.append(unheld[path])
            continue
        try:
            found = _look(path, shown, here, stop, named=named, held=held, tracked=tracked, git=git,
                          today=ctx.today, seen=seen)  # fmt: skip
        except Exception as exc:  # a bug, or a file no rule foresaw: it holds the agent
            found = _failed(shown, exc, stop, notes)
        if isinstance(found, GoalOutcome) and found.status in _ONCE_PER_FINDING:
            # a goal file git tracks gone or swapped: held once per finding, as the session's
            # record keeps it, also when the agent is continuing because of a Stop hook
            key = f"{found.status}\0{real_path(path)}"
            if not found.block and repositories.first_hold(key):
                again = _look(path, shown, here, replace(stop, stop_hook_active=False),
                              named=named, held=held, tracked=tracked, git=git,
                              today=ctx.today, seen=seen)  # fmt: skip
                if isinstance(again, GoalOutcome) and again.block:
                    upgraded[id(again)] = found
                    found = again
            elif found.block:
                repositories.hold_made(key)
        if isinstance(found, GoalOutcome):
            sink.append(found)
            if found.status not in _ENDED:
                holding.append(path)
        elif isinstance(found, Recheck):
            recheck.add(path)
            active.append((path, found.reviews))
        elif found is not None:
            active.append((path, found))
        else:
            quiet.append(path)
    # what git could not list, and what discovery could not read, may hide a goal: each holds
    # the agent, after the goals' own outcomes (their reasons come first)
    cannot = [_unlisted(root, exc, here, stop) for root, exc in git.failed.items()]
    cannot += [_unread(problem, here, stop) for problem in problems.values()]
    if not active and not outcomes and not cannot and not repositories.holds:
        under = ", ".join(str(root) for root in roots)
        notes.append(f"no active goal under {under}; the stop is allowed")
    # the order of verifying decides who gets the hook's time: the goal picked by name, then
    # the goal files git tracks, then the others (one the agent made itself, in a folder git
    # ignores); each waits for no goal of a later rank
    active.sort(key=lambda item: _rank(item[0], later, named, tracked))
    ranks = [_rank(path, later, named, tracked) for path, _ in active]
    transcript = _transcript(stop, notes)
    released: bool | None = None  # whether the focused goals let the agent stop
    for index, (path, reviews) in enumerate(active):
        if path in later:
            if released is None:
                released = _focus_releases(outcomes, notes, by=options.goal)
            if not released:
                holding.append(path)  # active, and not looked at while the focus holds
                continue
        shown = _shown(path, here)
        remaining = deadline - ctx.clock()
        waiting = ranks[index:].count(ranks[index])  # this goal and those sharing its time
        share = remaining if waiting <= 1 else min(remaining, max(remaining / waiting, MIN_SHARE))
        if remaining <= 1.0:
            notes.append(f"{shown}: no time left to verify it within the hook timeout")
            outcomes.append(_unverified(shown, stop, budget=budget))
            holding.append(path)
            continue
        try:
            if path in recheck:
                rechecked = _recheck_one(
                    path, shown, stop, ctx, runner=runner, share=share, named=path in named,
                    expect=seen.get(path),
                )  # fmt: skip
                if rechecked is not None:  # (a met goal still met says nothing, as before)
                    outcomes.append(rechecked)
                    if rechecked.block:
                        holding.append(path)
                continue
            outcome = _verify_one(
                path,
                shown,
                reviews,
                stop,
                options,
                ctx,
                notes,
                runner=runner,
                roots=roots,
                transcript=transcript,
                share=share,
                budget=budget,
                expect=seen.get(path),
            )
        except Exception as exc:  # a bug, or a file no rule foresaw: it holds the agent
            outcome = _failed(shown, exc, stop, notes)
        outcomes.append(outcome)
        if outcome.status not in _ENDED:
            holding.append(path)
    if later_outcomes and (
        released or (released is None and _focus_releases(outcomes, notes, by=options.goal))
    ):
        outcomes += later_outcomes
    # a goal active at an earlier stop that asks for no more work now that HEAD is on another
    # branch or commit (one whose commits hold it met) holds the agent once
    repositories.switched(quiet, here)
    # the repositories in which a goal is still active (or held) are remembered for the
    # session's next stop; the others are forgotten
    repositories.remember(roots, holding, tracked, notes)
    if upgraded and not repositories.saved:  # not recorded: the next stop would hold again
        outcomes = [upgraded.get(id(outcome), outcome) for outcome in outcomes]
    # a hold on a block found in a goal file is ledgered only when the hook answers with it
    outcomes = _ledger_holds(outcomes, ctx.today, notes, roots)
    # a repository hidden or swapped comes first: it is why the goals look as they do
    return StopDecision(
        goals=(*repositories.outcomes(stop), *outcomes, *cannot), notes=tuple(notes)
    )


def _rank(
    path: Path, later: list[Path], named: frozenset[Path], tracked: Mapping[Path, Tracked]
) -> tuple[bool, int]:
    """The order in which the hook verifies a goal, and the group whose goals share its time:
    a goal a focus left out comes after the focused one; then a goal picked by name, a goal
    file git tracks (the index or HEAD holds it), any other goal file."""
    return path in later, 0 if path in named else 1 if path in tracked else 2


def _look(
    path: Path,
    shown: str,
    here: Path,
    stop: StopInput,
    *,
    named: frozenset[Path],
    held: Mapping[Path, Finding],
    tracked: Mapping[Path, Tracked],
    git: _Git | None = None,
    today: str = "",
    seen: dict[Path, str] | None = None,
) -> GoalOutcome | frozenset[str] | Recheck | None:
    """What one goal file asks before anything is run: an outcome (it is absent, hidden from
    the working tree, does not load, carries a status its ledger does not back, or is picked by
    name and not active), the ids of its review rows when it is active and is to be verified,
    a :class:`Recheck` when it is `met` by an entry the copy git holds does not have (its
    checks are run again, writing nothing), or None (a discovered goal that is not active).
    All of it is decided on the text one read of the file gives (kept in ``seen``: verify runs
    that text or refuses): a file renamed into its place between two reads, and back after
    the stop, is never what the decision is made on."""
    entry = tracked.get(path)
    if entry is None and path in named and not path.is_file():
        real = path.resolve()  # asked of the file it names, in the repository holding it
        entry = _tracked_goal(str(real), []).tracked.get(real)
    if entry is not None:
        from goalfile.commands.gitgoals import hidden

        if hidden(path, entry):  # gone or unseen, while git tracks it
            return _hidden(path, shown, entry, here, stop)
        converted = _converted(path, shown, here, stop)
        if converted is not None:  # git stores other bytes than the file holds: a filter
            return converted
        swapped = git.swapped.get(path) if git is not None else None
        if swapped is not None:  # another goal, or a rewritten one, where git tracks this one
            staged = git is not None and path in git.staged
            keep = _keeping(path, entry, git) if git is not None else None
            return _replaced(shown, swapped, entry, here, stop, staged=staged, keep=keep)
    if git is not None and real_path(path) != path:  # reached through a symlink (at the file or
        linked = _through_link(path, here, stop, tracked, git)  # a folder above it)
        if linked is not None:
            return linked
    if path in named and not path.exists():
        return GoalOutcome(
            path=shown,
            status="absent",
            block=False,
            message=f"goalfile: no goal file at {shown}; the stop is allowed",
        )
    try:
        goal = load_goal(path)
    except GoalfileError as exc:  # a goal that does not load holds the agent like a refusal
        return _unreadable(shown, exc, stop, path=path)
    if entry is not None and git is not None:  # the text read now, not only the one compared
        departed = _departs(path, goal.text, entry, git)  # with git's copy a moment before
        if departed is not None:
            return _changed_while_read(shown, *departed, stop)
    if seen is not None:
        seen[path] = goal.text
    if goal.status is not Status.ACTIVE:  # (verify refuses an active one with the same error)
        from goalfile.headingrule import heading_error

        lookalike = heading_error(goal, shown=shown)  # a heading no reader takes: its entry
        if lookalike is not None:  # (a `status:` line among them) is read into the one before
            return _unreadable(shown, lookalike, stop, path=path)
    hand_set = held.get(path.resolve())
    if hand_set is not None:  # its fix names the goal as the session's shell reaches it
        hand_set = _hand_set_active(goal, shown) or hand_set
    unbacked = hand_set or unbacked_status(goal, shown=shown)
    if unbacked is None and goal.status is Status.DRAFT and entry is not None and git is not None:
        unbacked = _drafted(path, goal, entry, git, shown)  # typed over a goal git holds
    if unbacked is not None:  # e.g. `status: met` typed by hand: it lets no one stop
        return _unbacked(shown, unbacked, stop)
    if goal.status is Status.BLOCKED:
        blocked = _blocked_before(path, shown, goal, stop)
        if blocked is not None:
            return blocked
    if goal.status is Status.ACTIVE:
        bad = _bad_path(goal, shown, stop)
        if bad is not None:  # verify would refuse it; the reason says which lines to delete
            return bad
        unapproved = _unapproved(path, shown, goal, here, stop, git=git)
        if unapproved is not None:  # its checks are not run: no person approved them
            return unapproved
        return frozenset(c.id for c in goal.criteria if c.kind is Kind.REVIEW)
    if goal.status in (Status.PAUSED, Status.EXHAUSTED, Status.BLOCKED) and (
        told := _ended_today(goal, shown, today, held=_entries_git_holds(path, entry))
    ):
        return told
    if goal.status is Status.MET and _met_since_git(goal, _entries_git_holds(path, entry, git)):
        unapproved = _unapproved(path, shown, goal, here, stop, git=git)
        if unapproved is not None:  # its checks are not run: no person approved them
            return unapproved
        return Recheck(reviews=frozenset(c.id for c in goal.criteria if c.kind is Kind.REVIEW))
    if path in named:
        return GoalOutcome(
            path=shown,
            status=goal.status.value,
            block=False,
            message=f"goalfile: {goal.slug} is {goal.status.value}; the stop is allowed",
        )
    return None


def _met_since_git(goal: Goal, held: int | None) -> bool:
    """Whether the entry that makes ``goal`` `met` (the newest with a status line) is new
    since the copy git holds (after its first ``held`` entries): the agent's own verify run, or
    an entry it copied or typed, none of which the hook saw. False when git holds no copy."""
    if held is None:
        return False
    from goalfile import ledger
    from goalfile.parse import ledger_region

    region = ledger_region(goal.text)
    if region is None:
        return False
    newer = 0  # entries after the one that sets the status
    for head in ledger.heads(goal.text, *region):
        has_status = goal.text.find("status", head.start, head.end) >= 0
        if has_status and ledger.read(goal.text, head).status is not None:
            break
        newer += 1
    return len(ledger.iterations(goal.text, *region)) - newer > held


def _recheck_one(
    path: Path,
    shown: str,
    stop: StopInput,
    ctx: Context,
    *,
    runner: Runner,
    share: float,
    named: bool = False,
    expect: str | None = None,
) -> GoalOutcome | None:
    """Run the checks of a `met` goal whose met entry git does not hold yet, writing nothing:
    a `met` the hook did not see verified (a check made to pass for a moment and then undone, a
    met entry copied from a run elsewhere or typed) lets the agent stop only when the checks
    still pass (then None: nothing to say, unless the goal was picked by name). Otherwise it
    holds the agent once, with the rows and `goalfile reopen`."""
    from goalfile import hookwatch
    from goalfile.commands.verify import VerifyOptions

    options = VerifyOptions(
        path=str(path),
        write=False,
        expect=expect,
        time_limit=share,
        lock_wait=min(LOCK_WAIT, share / 4),
        judge=ctx.env.get("GOALFILE_JUDGE") or None,
    )
    hookwatch.working_on(goal=shown)
    hookwatch.private()
    try:
        result = runner(options, ctx)
    except GoalfileError as exc:
        return _refused(shown, exc, stop)
    failing = [row for row in result.rows if row.verdict is not Verdict.MET]
    if not failing:  # as for any goal that is not active: only a goal picked by name is said
        if not named:
            return None
        said = f"goalfile: {result.slug} is met; the stop is allowed"
        return GoalOutcome(path=shown, status=Status.MET.value, block=False, message=said)
    rows = "\n".join(f"- {r.id} {r.verdict.value} (exit {r.exit}): {_evidence(r)}" for r in failing)
    text = (
        f"goalfile: {shown} says `met` by a ledger entry git does not hold yet, but its checks, "
        f"run again at this stop without writing, do not all pass ({result.summary}):\n{rows}"
    )
    advice = (
        f"The goal is not met: `goalfile reopen {shell_word(shown)} --reason TEXT` makes it "
        "active again; then make its checks pass, never the criteria, the ledger or the status."
    )
    return _once(shown, Status.MET.value, clip(text, REASON_LIMIT), advice, stop)


def _verify_one(
    path: Path,
    shown: str,
    reviews: frozenset[str],
    stop: StopInput,
    options: HookOptions,
    ctx: Context,
    notes: list[str],
    *,
    runner: Runner,
    roots: list[Path],
    transcript: str | None,
    share: float,
    budget: float,
    expect: str | None = None,
) -> GoalOutcome:
    """Verify one active goal within ``share`` seconds and decide what it asks. ``expect``: the
    goal file's text as the hook judged it; verify refuses to run another."""
    from goalfile.commands.verify import VerifyOptions
    from goalfile.hostguard import mark_verified, model_idle
    from goalfile.usage import TranscriptError

    gemini = options.agent is HostAgent.GEMINI and transcript is not None
    git_folder, key = _idle_key(path, roots) if gemini else (None, shown)
    if (
        gemini
        and stop.stop_hook_active
        and transcript
        and model_idle(git_folder=git_folder, goal=key, transcript=transcript)
    ):
        return _idle(shown)  # Gemini's retry storm: nothing ran since
    ends = ctx.clock() + share

    def answer(
        result: VerifyResult, said: list[str], written: tuple[str, Goal]
    ) -> tuple[GoalOutcome, tuple[str, Goal]]:
        return _answer(
            result,
            shown,
            path,
            stop,
            options,
            ctx,
            said,
            reviews,
            share=share,
            budget=budget,
            written=written,
        )

    answered: list[tuple[GoalOutcome, list[str]] | Exception] = []  # decided in verify's write

    def then(result: VerifyResult, text: str, goal: Goal) -> tuple[str, Goal]:
        """Decide under verify's lock, and start the next iteration in verify's own write:
        one re-read, check and write of the file instead of two."""
        said: list[str] = []
        try:
            outcome, written = answer(result, said, (text, goal))
        except Exception as exc:  # a bug: verify's entry is written, then it holds the agent
            answered[:] = [exc]
            return text, goal
        answered[:] = [(outcome, said)]
        return written

    verify_options = VerifyOptions(
        path=str(path),
        write=True,
        expect=expect,
        transcript=transcript,
        time_limit=share,
        lock_wait=min(LOCK_WAIT, share / 4),
        judge=ctx.env.get("GOALFILE_JUDGE") or None,  # as `goalfile verify` does
        then=then,
    )
    from goalfile import hookwatch

    hookwatch.working_on(goal=shown)  # named by the watchdog's block, should verify not end
    hookwatch.private()  # the checks cannot reach the hook's pipes through /proc
    try:
        try:
            runner(verify_options, ctx)  # the outcome is decided in its write, by ``then``
        except TranscriptError as exc:
            notes.append(f"token usage not read ({exc.render()}); verifying without it")
            verify_options = replace(verify_options, time_limit=max(ends - ctx.clock(), 1.0))
            answered.clear()
            runner(replace(verify_options, transcript=None), ctx)
    except GoalfileError as exc:
        return _refused(shown, exc, stop)
    if gemini and transcript:
        mark_verified(git_folder=git_folder, goal=key, transcript=transcript)
    if not answered:  # verify writes its entry through ``then``, or raises
        raise RuntimeError(f"verify returned without writing its entry to {shown}")
    if isinstance(answered[0], Exception):
        raise answered[0]
    outcome, said = answered[0]
    notes.extend(said)
    return outcome


def _answer(
    result: VerifyResult,
    shown: str,
    path: Path,
    stop: StopInput,
    options: HookOptions,
    ctx: Context,
    notes: list[str],
    reviews: frozenset[str],
    *,
    share: float,
    budget: float,
    written: tuple[str, Goal],
) -> tuple[GoalOutcome, tuple[str, Goal]]:
    """What a verify's ``result`` asks of the agent; a block starts the next iteration, added
    to ``written`` (the text verify is writing and its goal, under its lock): the text to
    write is returned with its goal."""
    cut = _cut_short(result)
    if cut:
        notes.append(result.summary)
        outcome = _cut(shown, result, cut, stop, share=share, budget=budget)
    else:
        outcome = _judge(result, shown, stop, options, notes, reviews, text=written[0])
    if outcome.block and result.status is Status.ACTIVE:  # a blocked goal starts none
        return _start_next_iteration(outcome, result, path, ctx, notes, written)
    if outcome.block and result.status is Status.BLOCKED:  # held once: ledgered, in this write
        from goalfile.blockhold import with_hold

        try:
            written = with_hold(*written, today=ctx.today, why=result.summary)
        except GoalfileError as exc:
            notes.append(f"{shown}: the hold on its block was not ledgered: {exc.render()}")
    return outcome, written


def _cut_short(result: VerifyResult) -> list[str]:
    """The rows of ``result`` that the time the hook gave verify ended before they were
    judged, as the rows say where they are made (``RowResult.cut_short``): a check, a judge or
    a `matches` search of a check's output that the goal's time limit ended, and a row not
    started since that time was up. Never told from a row's words: a check may print them."""
    return [row.id for row in result.rows if row.verdict is Verdict.ERROR and row.cut_short]


def _focus_releases(outcomes: list[GoalOutcome], notes: list[str], *, by: str | None) -> bool:
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


def _keep_held(named: frozenset[Path], roots: list[Path]) -> None:
    """Record each focused goal outside the goal folders as held (:mod:`focusheld`), so that
    a focus cleared or moved later does not release the agent from it."""
    from goalfile.commands.focusheld import hold

    for path in named:
        root = next((root for root in roots if path.is_relative_to(root)), None)
        if root is not None and not under_goal_folder(path, root):
            hold(root, path.relative_to(root).as_posix())


def _unheld_key(path: Path) -> str:
    """What the session's record names the hold of a --goal on ``path`` by (it holds once)."""
    return f"unheld\0{real_path(path)}"


def _unheld_goal(
    paths: list[Path],
    tracked: Mapping[Path, Tracked],
    git: _Git,
    roots: list[Path],
    here: Path,
    stop: StopInput,
) -> dict[Path, GoalOutcome]:
    """The goals ``--goal`` names (``paths``) that git holds neither in the index nor at HEAD,
    while the session or the goal is in a git repository, each with its hold: a goal file
    anyone can write (a met decoy in a folder git ignores, a file outside the repository) is
    no goal to pin the hook to. Held once (the session's record keeps it: a host may send
    ``stop_hook_active`` false at every stop); then the other goals git holds decide.
    ``roots`` are the session's git repositories; outside git (none, and no repository holds
    the goal) there is nothing to ask: the goal is verified as it is."""
    from goalfile.commands.gittop import repository_top

    in_git = bool(git.repositories) or bool(roots)
    found: dict[Path, GoalOutcome] = {}
    for path in paths:
        if path in tracked:
            continue
        folder = path.parent
        while not folder.is_dir() and folder.parent != folder:
            folder = folder.parent
        if not in_git and repository_top(folder) is None:
            continue
        shown = _shown(path, here)
        there = os.path.lexists(path)
        what = "" if there else " (no file is there)"
        text = (
            f"goalfile: the Stop hook's --goal names {shown}{what}, which is not a goal file "
            "git holds (neither its index nor HEAD has it): a goal file anyone can write is no "
            "goal to pin the hook to, so the stop is not allowed on it"
        )
        top = repository_top(folder) if there else None
        itself = real_path(path.parent) / path.name
        if top is not None and itself.is_relative_to(real_path(top)):
            from goalfile.commands.gitgoals import git_from

            relative = itself.relative_to(real_path(top)).as_posix()
            advice = (
                f"fix: `{git_from(top, here)} add -f -- {shell_word(relative)}` once a person "
                "has read it and means the hook to be pinned to it; else take --goal out of the "
                "hook command (`goalfile doctor --fix-hooks` does)"
            )
        else:
            advice = (
                "name a goal file git holds with --goal, or take --goal out of the hook command "
                "(`goalfile doctor --fix-hooks` does)"
            )
        found[path] = _once(shown, "unheld", text, advice, stop)
    return found


def _focused(
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
    wherever it lies (a verify run's block holds the agent once, :func:`_blocked_before`)."""
    # imported here: with `--goal`, no focus is read
    from goalfile.commands.focus import accepted, recorded_focus

    focus = recorded_focus(root, notes)  # a FIFO there is no focus, with a note
    if focus is None:
        return None
    ignored = "every goal of the repository is looked at (`goalfile focus --clear` ends it)"
    unseen = _focus_unseen(root, focus.goal)
    if unseen is not None:  # held as a tracked goal file that is gone or swapped (`_look`)
        notes.append(f"focus: {focus.goal} ({unseen})")
        return Path(os.path.normpath(root / focus.goal))
    if not (root / focus.goal).is_file():
        notes.append(f"the focused goal {focus.goal} does not exist; {ignored}")
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
            f"the focused goal {relative} is {goal.status.value}, not active; a focus only "
            f"narrows the active goals, so {ignored}"
        )
        if goal.status is Status.BLOCKED:
            blocked.append(Path(os.path.normpath(root / relative)))
        return None
    hand_set = _hand_set_active(goal, relative)
    if hand_set is not None:
        held[(root / relative).resolve()] = hand_set
        notes.append(
            f"the focused goal {relative} is active only by a hand edit the ledger does not "
            f"back; a focus only narrows the active goals, so {ignored}"
        )
        return None
    notes.append(f"focus: {relative}")
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
    git = _tracked_goal(str(path), [root])
    entry = git.tracked.get(path)
    if entry is None:
        return None
    if hidden(path, entry):
        return "git tracks it; the working tree does not show it"
    return "git tracks it; another goal stands there" if path in git.swapped else None


def _hand_set_active(goal: Goal, shown: str) -> Finding | None:
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


def _drafted(path: Path, goal: Goal, entry: Tracked, git: _Git, shown: str) -> Finding | None:
    """A finding when ``goal`` says `draft` while a copy git holds of it (HEAD's, or the
    index's) says another status: no command makes a goal a draft again (a person approves a
    draft once), and a draft holds no one, so `status: draft` typed over an approved goal whose
    ledger is empty (as the goal skill writes one), which no entry contradicts, would let the
    agent stop. The fix sets back the status that copy holds."""
    from goalfile.files import ENCODING, ERRORS
    from goalfile.handedit import restore_status_command
    from goalfile.parse import frontmatter_meta

    head, index = git.copies.get(path, (None, None))
    copies = [("HEAD", head), ("the index", index if entry.in_index else None)]
    for name, blob in copies:
        meta = frontmatter_meta(blob.decode(ENCODING, ERRORS)) if blob else None
        held = meta.get("status") if meta is not None else None
        if not isinstance(held, str) or held == Status.DRAFT.value:
            continue
        try:
            was = Status(held)
        except ValueError:
            continue
        line = goal.key_line("status")
        hint = restore_status_command(shown, line, was)
        return Finding(
            severity=Severity.ERROR,
            line=line,
            code="status-unbacked",
            message=(
                f"the status is `draft`, but the goal {name} holds there is `{held}`; no "
                "command makes a goal a draft again (a person approves a draft once)"
            ),
            hint=f"{hint}, then run `goalfile verify {shell_word(shown)}`"
            if was is Status.ACTIVE
            else hint,
        )
    return None


def _start_next_iteration(
    outcome: GoalOutcome,
    result: VerifyResult,
    path: Path,
    ctx: Context,
    notes: list[str],
    written: tuple[str, Goal],
) -> tuple[GoalOutcome, tuple[str, Goal]]:
    """Sending the agent back to work starts the next iteration; at the iteration limit the
    goal is exhausted instead, and the stop is allowed. The iteration is added to ``written``
    (the text verify is writing, and its goal), in verify's own write."""
    failing = ", ".join(
        f"{r.id} {r.verdict.value}" for r in result.rows if r.verdict is not Verdict.MET
    )
    why = failing or "the goal is not met"
    try:
        written, started = _next_in(written, str(path), ctx.today, why)
    except GoalfileError as exc:
        notes.append(f"{outcome.path}: no new iteration was started: {exc.render()}")
        return outcome, written
    notes.append(f"{outcome.path}: {started.message}")
    if not started.exhausted:
        return outcome, written
    return GoalOutcome(
        path=outcome.path,
        status=started.status.value,
        block=False,
        summary=outcome.summary,
        message=(
            f"goalfile: {outcome.summary}; {started.message}, so the goal is exhausted and the "
            f"stop is allowed (`{raise_budget_command(written[1], outcome.path)}` raises "
            "the limit)"
        ),
    ), written


def _next_in(
    written: tuple[str, Goal], path: str, today: str, why: str
) -> tuple[tuple[str, Goal], IterationStart]:
    """The next iteration's edit of the text verify is writing, read back as `goalfile`'s
    every write is (:func:`goalfile.edit.check_written`); raises, as the edit on its own
    would, to leave the text as it is."""
    from goalfile import edit
    from goalfile.commands.iteration import start_next

    text, goal = written
    try:
        new_text, started = start_next(text, goal, path=path, today=today, why=why)
        return (new_text, edit.check_written(goal, new_text)), started
    except GoalfileError as exc:
        if exc.file is None and exc.line is not None:  # an edit names a line, not the file
            exc.file = path
        raise


def _judge(
    result: VerifyResult,
    shown: str,
    stop: StopInput,
    options: HookOptions,
    notes: list[str],
    reviews: frozenset[str],
    *,
    text: str,
) -> GoalOutcome:
    """The outcome of a verify's ``result``; ``text`` is the goal file as verify writes it."""
    from goalfile.blockhold import verify_made

    notes.append(result.summary)
    if verify_made(result.status, result.reason, result.rows):
        return _errored(result, shown, stop)
    if result.status is not Status.ACTIVE:
        return GoalOutcome(
            path=shown,
            status=result.status.value,
            block=False,
            summary=result.summary,
            message=f"goalfile: {result.summary}",
        )
    if stop.stop_hook_active:
        from goalfile.progress import ledger_streak

        try:
            streak = ledger_streak(text)
        except GoalfileError:
            streak = 0
        if streak >= options.stall_limit:
            return GoalOutcome(
                path=shown,
                status=result.status.value,
                block=False,
                summary=result.summary,
                message=(
                    f"goalfile: no progress in the last {options.stall_limit} verify runs of "
                    f"{shown}; the stop is allowed so a person can look. {result.summary}"
                ),
            )
    return GoalOutcome(
        path=shown,
        status=result.status.value,
        block=True,
        summary=result.summary,
        reason=block_reason(result, shown_path=shown, review_ids=reviews),
    )


def _errored(result: VerifyResult, shown: str, stop: StopInput) -> GoalOutcome:
    """A goal this verify found active and left `blocked` by a cause the agent can bring about
    (:func:`goalfile.blockhold.verify_made`: an `error` row, the stall guard, a token usage
    that cannot be measured): the code a check runs is the agent's to edit, and making it exit
    127 or hang turns an unmet row into an error. So such a block is no way to stop at once:
    it holds the agent once, with the rows, like a goal the hook could not verify (and the
    hold is ledgered in verify's own write, by :func:`_answer`); once the agent is continuing
    because of a Stop hook, it is let go with the message."""
    text, advice = _block_words(result.summary, result.rows, result.reason, shown)
    text += _cwd_fix(result)
    return replace(_once(shown, result.status.value, text, advice, stop), summary=result.summary)


def _block_words(
    summary: str, rows: Sequence[RowResult], reason: str | None, shown: str
) -> tuple[str, str]:
    """What a hold on a block a verify run wrote says: the summary line and each row not met
    (an error, or an unmet row the stall guard saw again), then what to do about it."""
    errors = [row for row in rows if row.verdict is Verdict.ERROR]
    failing = [  # a row not run (a token budget that stopped the run) says nothing more
        row
        for row in rows
        if row.verdict is Verdict.ERROR or (row.verdict is Verdict.UNMET and row.exit != "-")
    ]
    listed = "".join(
        f"\n- {r.id} {r.verdict.value} (exit {r.exit}): {_evidence(r)}" for r in failing
    )
    if errors:
        cause = (
            "a check could not be judged. Fix the cause in the work (a command the check runs "
            "that is missing, exits 126 or 127, or outlasts its time limit)"
        )
    elif reason and reason.startswith("no progress"):
        cause = (
            f"{reason}. Fix the cause in the work (the rows not met: the same verify run "
            "repeated without a change blocks the goal)"
        )
    else:
        cause = f"{reason or 'verify blocked it'}. Fix the cause"
    resume = f"`goalfile resume {shell_word(shown)} --resolved TEXT`"
    return f"goalfile: {summary}{listed}", (
        f"{shown} is blocked: {cause}, never the check, its time limit, the criteria or the "
        f"status; then {resume} makes the goal active again and the next stop verifies it. "
        "If only a person can fix it (a tool to install, a check that needs more time), stop "
        "and say so."
    )


def _blocked_before(path: Path, shown: str, goal: Goal, stop: StopInput) -> GoalOutcome | None:
    """A goal found `blocked` by a verify run the hook did not make (the agent's own
    `goalfile verify`, its stall guard, a usage it could not measure), or by one of the
    hook's that held the agent already: the first stop on that entry holds the agent, and the
    hold is ledgered (:mod:`goalfile.blockhold`) once the hook answers with it
    (:func:`_ledger_holds`); every stop after it, and a stop of an agent
    already continuing because of a Stop hook, is let go with the message. None for a block
    someone declared (`goalfile block`, a row marked impossible): it lets the agent go as
    any status that asks for no more work does."""
    from goalfile.blockhold import made_by_verify

    found = made_by_verify(goal.text)
    if found is None:
        return None
    summary = found.summary(goal.slug)
    resume = f"`goalfile resume {shell_word(shown)} --resolved TEXT`"
    let_go = GoalOutcome(
        path=shown,
        status=Status.BLOCKED.value,
        block=False,
        summary=summary,
        message=(
            f"goalfile: {shown} is blocked by a verify run ({summary}); the stop is allowed. "
            f"Once the cause is fixed, {resume} makes it active again."
        ),
    )
    if found.held or stop.stop_hook_active:
        return let_go
    text, advice = _block_words(summary, found.entry.rows, found.entry.status_reason, shown)
    return GoalOutcome(
        path=shown,
        status=Status.BLOCKED.value,
        block=True,
        summary=summary,
        reason=f"{text}\n{advice}",
        hold=(path, found.entry.iteration, let_go),
    )


def _ledger_holds(
    outcomes: Sequence[GoalOutcome], today: str, notes: list[str], roots: list[Path]
) -> list[GoalOutcome]:
    """``outcomes``, each hold the hook answers with on a block found in a goal file ledgered
    there first (:func:`_record_hold`). A hold that cannot be ledgered (the goal's lock held
    past the hook's wait, a file that cannot be written) still holds the first stop on its
    entry, saying why it is not recorded, and is marked under the git folder
    (:mod:`goalfile.holdmark`); a later stop on the same entry, or one whose mark cannot be
    written, is let go with the message: unrecorded, it would hold the agent at every stop."""
    from goalfile.holdmark import first_hold

    done: list[GoalOutcome] = []
    for outcome in outcomes:
        if outcome.hold is None:
            done.append(outcome)
            continue
        path, iteration, let_go = outcome.hold
        try:
            recorded = _record_hold(path, today=today, why=outcome.summary or "")
        except (GoalfileError, OSError) as exc:
            why = exc.message if isinstance(exc, GoalfileError) else str(exc)
            git_folder, key = _idle_key(path, roots)
            if first_hold(git_folder=git_folder, goal=key, iteration=iteration):
                notes.append(f"{outcome.path}: the hold on its block was not ledgered ({why})")
                unrecorded = (
                    f"goalfile could not record this hold in {outcome.path}'s ledger ({why}); "
                    "the next stop on this block is let go."
                )
                done.append(replace(outcome, hold=None, reason=f"{outcome.reason}\n{unrecorded}"))
            else:
                notes.append(
                    f"{outcome.path}: the hold on its block was not ledgered ({why}); "
                    "it was held once already, or that cannot be recorded: let go"
                )
                done.append(let_go)
            continue
        done.append(replace(outcome, hold=None) if recorded else let_go)
    return done


def _record_hold(path: Path, *, today: str, why: str) -> bool:
    """Ledger the hold on the block the goal file at ``path`` holds, under the goal's lock;
    False, writing nothing, when the file no longer holds an unheld block of a verify run."""
    from goalfile.blockhold import made_by_verify, with_hold
    from goalfile.files import goal_lock, parse_text, write_atomic

    with goal_lock(path, command="goalfile hook stop", wait=HOLD_LOCK_WAIT):
        text = read_text(path)
        found = made_by_verify(text)
        if found is None or found.held:
            return False
        new_text, written = with_hold(text, parse_text(path, text), today=today, why=why)
        write_atomic(path, new_text, parsed=written)
    return True


def _entries_git_holds(path: Path, entry: Tracked | None, git: _Git | None = None) -> int | None:
    """How many ledger entries HEAD's copy of the tracked goal file at ``path`` has: the
    entries after them are new since, whatever their headings say. 0 when only git's index
    holds the file (anyone with a shell can stage entries: none of them counts as held). None
    when git tracks no such file, or cannot give it (the date rule of :func:`_ended_today`
    then decides). The copies ``git`` read already are taken from it, without asking git
    again."""
    if entry is None:
        return None
    from goalfile import ledger
    from goalfile.files import ENCODING, ERRORS
    from goalfile.parse import ledger_region
    from goalfile.run import GitUnreadable, git_blobs

    copy = git.copies.get(path) if git is not None else None
    if copy is not None:
        head, index = copy
    else:
        try:
            blobs = git_blobs(str(entry.root), [f"HEAD:{entry.relative}", f":{entry.relative}"])
        except GitUnreadable:
            return None
        head, index = blobs
    if head is None:  # only git's index holds it: anyone with a shell can stage entries
        return 0 if index is not None and entry.in_index else None
    text = head.decode(ENCODING, ERRORS)
    region = ledger_region(text)
    return len(ledger.iterations(text, *region)) if region is not None else 0


def _ended_today(
    goal: Goal, shown: str, today: str, *, held: int | None = None
) -> GoalOutcome | None:
    """A paused, exhausted or blocked goal (a block someone declared: a block a verify run
    wrote holds the agent once, :func:`_blocked_before`) whose status entry is new since the
    copy git holds (after its first ``held`` entries), or, when git holds none, dated
    ``today``: the stop is allowed, with a message naming the goal, its status and the entry
    that set it (by whom), so the person sees why the agent stopped without the goal met (an
    agent may run `goalfile pause` or `goalfile block`, or spend the iteration budget with
    `goalfile plan`). Its heading is text the agent may
    retype (another date, ``by stop-hook``): an entry git does not hold yet is said whatever
    it says. The hook keeps no record of its last stop, so every allowed stop says it until
    the entry is committed, and an entry git holds on the day of its date; None for an older
    entry git holds, or one the hook wrote itself (``by stop-hook``) that git holds."""
    from goalfile import ledger
    from goalfile.blockhold import HOLD_BY
    from goalfile.commands.iteration import HOOK_BY
    from goalfile.parse import ledger_region

    region = ledger_region(goal.text)
    if region is None:
        return None
    entry: Entry | None = None
    newer = 0  # entries after it
    for head in ledger.heads(goal.text, *region):
        if goal.text.find("status", head.start, head.end) >= 0:
            read = ledger.read(goal.text, head)
            if read.status is not None:
                entry = read
                break
        newer += 1
    if entry is None:
        return None
    new = held is not None and len(ledger.iterations(goal.text, *region)) - newer > held
    if not new and (not today or entry.date != today or entry.by in (HOOK_BY, HOLD_BY)):
        return None  # an entry the hook wrote was told at the stop that wrote it
    status = goal.status.value
    if goal.status is Status.PAUSED:
        again = f"`goalfile resume {shell_word(shown)}`"
    elif goal.status is Status.BLOCKED:
        again = f"`goalfile resume {shell_word(shown)} --resolved TEXT`"
    else:
        again = f"`{raise_budget_command(goal, shown)}`"
    return GoalOutcome(
        path=shown,
        status=status,
        block=False,
        message=f"goalfile: {shown} ({goal.slug}) is {status}, not met: its entry `### Iteration "
        f"{entry.iteration} ({entry.date}) by {entry.by}` set it; the stop is allowed "
        f"(a person reopens it with {again})",
    )


def _idle(shown: str) -> GoalOutcome:
    return GoalOutcome(
        path=shown,
        status=Status.ACTIVE.value,
        block=False,
        message=(
            f"goalfile: the model was not called since {shown} was last verified; "
            "the stop is allowed"
        ),
    )


def _refused(shown: str, exc: GoalfileError, stop: StopInput) -> GoalOutcome:
    """verify refused the goal (changed contract, invalid file, lock held): ask once, then let
    it stop, since a person may have to act."""
    return _once(
        shown,
        "refused",
        f"goalfile could not verify {shown}: {exc.render()}",
        "Restore what the message names, or hand the goal to the user.",
        stop,
    )


def _unreadable(shown: str, exc: GoalfileError, stop: StopInput, *, path: Path) -> GoalOutcome:
    """A goal file that does not load (a broken YAML line, a missing section): it is not
    skipped, or breaking the file would be a way to stop. Held like a refusal; a file that
    holds a merge conflict by :func:`_conflicted`."""
    if isinstance(exc, GoalFileInvalid):
        held = _conflicted(shown, path, stop)
        if held is not None:
            return held
    return _once(
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
    return _once(
        shown,
        "conflicted",
        f"goalfile could not read {shown}: {conflict_error(markers, path=shown).render()}",
        "Resolve the conflict as the fix says, keeping the entries of both sides, each whole "
        "(one side's file alone drops the other side's entries); the next stop verifies it.",
        stop,
    )


_DELETED = {
    "cwd": "the checks then run at the git top level",
    "shell": "the checks then run in /bin/sh",
}
_INSTEAD = {  # what else the agent may write on the line
    "cwd": "a folder relative to the goal file",
    "shell": "the absolute path of a shell",
}


def _bad_path(goal: Goal, shown: str, stop: StopInput) -> GoalOutcome | None:
    """An active goal whose `cwd` or `shell` holds a NUL or another control character, which no
    system call takes, a `shell` that is not an absolute path of printable ASCII without spaces,
    or a `cwd` with whitespace at an end (a lint error, so verify refuses the goal): it holds
    the agent like a file that does not load, naming the file and line, with the command that
    deletes the key's lines (a value YAML continues on indented lines goes with them)."""
    from goalfile.handedit import delete_lines_command, set_key_command
    from goalfile.parse import path_problem
    from goalfile.settings import cwd_problem, shell_problem

    also = {"cwd": cwd_problem, "shell": shell_problem}
    for key, then in _DELETED.items():
        value = goal.meta.get(key)
        why = (path_problem(value) or also[key](value)) if isinstance(value, str) else None
        first = goal.key_line(key)
        if why is None or first is None or not 1 < first < goal.frontmatter_end:
            continue
        lines = goal.text.split("\n")  # lines as sed and the line numbers count them
        last = first
        while last + 1 < goal.frontmatter_end and lines[last][:1] in ("", " ", "\t"):
            last += 1  # lines[last] is line last + 1: a continuation of the value, or blank
        approved = _approved_setting(goal, key)
        if approved is None:
            fix = delete_lines_command(shown, first, last)
            does = f"deletes the `{key}:` line ({then})"
            instead = f" (or write {_INSTEAD[key]} there)"
        else:  # the goal was approved with one: deleting the line would change the contract
            fix = set_key_command(shown, first, key, _sed_value(approved)).strip("`")
            if last > first:  # the lines the value was continued on go
                fix = f"{delete_lines_command(shown, first + 1, last).strip('`')} && {fix}"
            fix = f"`{fix}`"
            does = f"sets the `{key}:` line back to `{approved}`, the value approved"
            instead = ""
        return _once(
            shown,
            "invalid",
            f"goalfile could not read {shown}: {shown}:{first}: {key} {value!r} {why}\n"
            f"  fix: {fix} {does}",
            f"Run the fix as written{instead}, never by giving up the goal; the next stop "
            "verifies it.",
            stop,
        )
    return None


_PLAIN_SETTING = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/.+=:,-")
"""The characters of a value YAML reads as itself (it starts with a letter, digit, `_`, `/` or
`.`) and a sed replacement takes as it is, once `/` is escaped."""


def _unapproved(
    path: Path, shown: str, goal: Goal, here: Path, stop: StopInput, *, git: _Git | None
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
    from goalfile.lint import require_valid
    from goalfile.run import git_ignored

    head, index = git.copies.get(path, (None, None))
    real = real_path(path)
    if real != path:  # reached through a symlink: the copies of the file it names, as
        # :func:`_through_link` asks git of it (a link git tracks holds only its target's name)
        found = [
            both
            for key, both in git.copies.items()
            if key != path and real_path(key) == real and not os.path.islink(key)
        ]
        if not found and real.is_file():
            found = list(_tracked_goal(str(real), []).copies.values())
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
    # a goal file in a folder git ignores (`goals/.cache/`) is staged only with -f
    force = " -f" if relative is not None and git_ignored(str(top), relative) else ""
    stage = (
        f"{git_from(top, here)} add{force} -- {shell_word(relative)}"
        if relative is not None
        else f"git add -- {shell_word(shown)}"
    )
    fix = _approve_fix(goal, shown, stage, force=bool(force))
    return _once(
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


def _approved_setting(goal: Goal, key: str) -> str | None:
    """The ``cwd`` or ``shell`` the goal's newest approval recorded, when it recorded one that
    a printed `sed` can write back (None when it recorded none, or cannot be read)."""
    from goalfile.contract import last_approval

    try:
        found = last_approval(goal.text, path=goal.path)
    except GoalfileError:
        return None
    if found is None or found[1] is None:
        return None
    value = dict(found[1].settings).get(key)
    if value is None or not value or not _PLAIN_SETTING.issuperset(value) or value[0] in "+=:,-":
        return None
    return value


def _sed_value(value: str) -> str:
    return value.replace("/", "\\/")


def _unbacked(shown: str, finding: Finding, stop: StopInput) -> GoalOutcome:
    """A status the ledger does not back (`met` typed by hand, a hand-set `paused`): held like
    a refusal, since only the command that decides a status lets the agent stop on it."""
    where = f"{shown}:{finding.line}" if finding.line else shown
    return _once(
        shown,
        "unbacked",
        f"goalfile does not accept the status of {shown}: {where}: {finding.message}\n"
        f"  fix: {finding.hint}",
        "Set the status back as the fix says and make the checks pass; only `goalfile verify` "
        "writes `met`.",
        stop,
    )


def _hidden(path: Path, shown: str, entry: Tracked, here: Path, stop: StopInput) -> GoalOutcome:
    """A goal file git tracks that the working tree does not show (deleted, moved out of the
    goal folders, removed from the index, or marked skip-worktree or assume-unchanged): the
    goal is still the repository's, so it holds the agent like a file that does not load."""
    from goalfile.commands.gitgoals import restore_command, standing

    there = standing(path)  # what git would delete to put the file back: moved away first
    moved = "" if there is None else f" ({there} in its place is moved, not deleted)"
    where = "the index" if entry.in_index else "HEAD (the index no longer does)"
    if entry.flagged:
        marks = " and ".join(
            name
            for name, on in (
                ("skip-worktree", entry.skip_worktree),
                ("assume-unchanged", entry.assume_unchanged),
            )
            if on
        )
        gone = "" if path.is_file() else ", and the file is gone"
        gone = gone if there is None else f", and {there} stands in its place"
        what = (
            f"git tracks the goal file {shown}, but it is marked {marks}, so `git status` and "
            f"`git diff` do not show what happens to it{gone}"
        )
    else:
        has = "no such file" if there is None else f"{there} there, not the file"
        what = (
            f"git tracks the goal file {shown} ({where} holds it), but the working tree has {has}"
        )
    return _once(
        shown,
        "hidden",
        f"goalfile cannot verify {shown}: {what}\n"
        f"  fix: `{restore_command(path, entry, here=here)}`",
        f"Restore it as the fix says{moved}; a goal file that is gone or hidden from git is no "
        "way to stop (a person who retires a goal commits its removal).",
        stop,
    )


def _converted(path: Path, shown: str, here: Path, stop: StopInput) -> GoalOutcome | None:
    """A goal file git tracks that a git attribute converts (:mod:`goalfile.gitattrs`: a
    clean filter, ``ident``, ``working-tree-encoding``): what git's index, HEAD and a commit
    hold of it is not what the file holds, so the comparisons with them prove nothing; it
    holds the agent, with the command that deletes the line setting the attribute."""
    from goalfile.gitattrs import check

    refused = check(os.path.relpath(path, here), here)
    if refused is None:
        return None
    message, fix = refused
    return _once(
        shown,
        "converted",
        f"goalfile cannot verify {shown}: {message}\n  fix: {fix}",
        "Delete the line as the fix says; a git filter or conversion on a goal file is no way "
        "to stop (a person commits exactly the goal they approved).",
        stop,
    )


def _replaced(
    shown: str,
    why: str,
    entry: Tracked,
    here: Path,
    stop: StopInput,
    *,
    staged: bool = False,
    keep: str | None = None,
) -> GoalOutcome:
    """A goal file git tracks whose working copy is not a continuation of the one HEAD holds
    (another goal copied or linked over it, a committed ledger entry rewritten), or, when
    ``staged``, of the one the index holds where HEAD holds none: the goal at that path is
    git's, so it holds the agent like a hidden one. The fix keeps what the working file holds
    that git's copy does not (``keep``, :func:`_keeping`): `goalfile restore`, which puts back
    git's entries and keeps those written since; else a copy saved before the checkout; else
    (nothing to lose) the checkout alone."""
    from goalfile.commands.gitgoals import checkout_command, saved_checkout

    shown = os.path.relpath(real_path(entry.root) / entry.relative, here)  # the tracked name
    source = "the index" if staged else "HEAD"
    held = " (HEAD holds none there)" if staged else ""
    if keep == "restore":
        fix = f"goalfile restore {shell_word(shown)}"
        does = (
            f"it puts back the entries {source} holds, as it holds them, and keeps the entries "
            "written since"
        )
    elif keep == "save":
        fix = saved_checkout(entry, here=here, source=source)
        does = (
            f"it keeps a copy of the file, then replaces the file there with {source}'s; the "
            "copy holds the entries written since"
        )
    else:
        fix = checkout_command(entry, here=here, source=source)
        does = f"it replaces the file there with {source}'s"
    return _once(
        shown,
        "replaced",
        f"goalfile cannot verify {shown}: the file the working tree holds there does not "
        f"continue the goal {source} holds there{held}: {why}\n"
        f"  fix: `{fix}`",
        f"Put the goal back as the fix says ({does}) and make its checks pass; another goal's "
        "file at its path is no way to stop (a person who means the change commits it).",
        stop,
    )


def _changed_while_read(shown: str, source: str, why: str, stop: StopInput) -> GoalOutcome:
    """A tracked goal file that continued the copy git holds when the hook compared them, and
    that a moment later, when the hook read it to decide, did not: another file was put at its
    path while the hook read it (and may be back by now). Held once per finding, as a goal
    file swapped is."""
    return _once(
        shown,
        "replaced",
        f"goalfile cannot verify {shown}: it changed while the Stop hook read it: the file "
        f"there continued the goal {source} holds when the hook compared them, and the file it "
        f"read there a moment later does not: {why}",
        "A file put at a goal file's path while the Stop hook reads it (and put back after) is "
        "no way to stop: end the process that does it and make the goal's checks pass; the "
        "next stop reads the goal again.",
        stop,
    )


def _keeping(path: Path, entry: Tracked, git: _Git) -> str | None:
    """How the fix of a tracked goal file that does not continue git's copy keeps what the
    working file holds: "restore" when `goalfile restore` can put back git's entries and keep
    those written since (:func:`goalfile.commands.gitgoals.kept_ledger`); "save" when it
    cannot and a checkout would drop entries of the goal the working file holds
    (:func:`goalfile.commands.gitgoals.would_drop_entries`); None otherwise (a link, another
    goal's file, nothing a checkout would lose)."""
    from goalfile.commands.gitgoals import kept_ledger, reference, would_drop_entries
    from goalfile.files import ENCODING, ERRORS

    found = reference(entry, *git.copies.get(path, (None, None)))
    if found is None or os.path.islink(path):
        return None
    try:
        now = read_text(path)
    except GoalfileError:
        return None
    before = found[1].decode(ENCODING, ERRORS)
    if kept_ledger(before, now, found[0]) is not None:
        return "restore"
    return "save" if would_drop_entries(before, now) else None


def _unlisted(root: Path, exc: Exception, here: Path, stop: StopInput) -> GoalOutcome:
    """A repository the session is in that git could not list: a goal file git tracks there
    may be hidden, so it holds the agent once, with git's error (and, where one is known, the
    command that lets git list it again)."""
    shown = _shown(root, here)
    git = f"git -C {shell_word(shown)}"
    ref = getattr(exc, "ref", None)
    branches = getattr(exc, "branches", ())
    safe = getattr(exc, "safe_directory", None)
    fix = ""
    if isinstance(ref, str) and ref.startswith("refs/heads/"):
        fix = f"\n  fix: `{git} symbolic-ref HEAD {shell_word(ref)}`"
        advice = (
            "Point HEAD back at the branch it was on as the fix says (or, on a new branch a "
            "person started, commit on it); a repository git cannot list is no way to stop."
        )
    elif branches:
        names = ", ".join(name.removeprefix("refs/heads/") for name in branches)
        advice = (
            f"HEAD was moved to a branch with no commit, and git's records name no single "
            f"branch it was on (`{git} branch --list` lists them: {names}): point HEAD back at "
            f"the one the work is on (`{git} symbolic-ref HEAD refs/heads/NAME`), or, on a new "
            "branch a person started, commit on it; a repository git cannot list is no way to "
            "stop."
        )
    elif isinstance(safe, str):
        fix = f"\n  fix: `git config --global --add safe.directory {shell_word(safe)}`"
        advice = (
            "git refuses a repository another user owns: a person who trusts it marks it safe as "
            "the fix says (or gives it to the user the session runs as); a repository git cannot "
            "list is no way to stop."
        )
    elif getattr(exc, "hung", False):
        advice = (
            "git waits on something in the repository: `ls -l "
            f"{shell_word(os.path.join(shown, '.git'))}/` shows a FIFO or a file on a file "
            "system that does not answer (at .git/index or .git/HEAD, say); put it right so "
            "that git answers; a repository git cannot list is no way to stop."
        )
    else:
        advice = (
            f"`{git} status` shows git's error; repair the repository (its .git/index, its "
            ".git/config, its HEAD) so that git lists it again; a repository git cannot list "
            "is no way to stop."
        )
    return _once(
        shown,
        "unlisted",
        f"goalfile cannot tell which goal files git tracks in the repository at {shown}: "
        f"{exc}{fix}",
        advice,
        stop,
    )


def _unread(problem: Unreadable, here: Path, stop: StopInput) -> GoalOutcome:
    """A part of a goal folder goal discovery could not read: a goal there could go unseen,
    so it holds the agent once, naming it."""
    folder, name = os.path.split(problem.path)  # the entry itself, never what it links to
    shown = os.path.relpath(real_path(Path(folder)) / name, here)
    fix = problem.fix(shown)
    return _once(
        shown,
        "unreadable",
        f"goalfile cannot look for goals in {shown}: {problem.reason}"
        + (f"\n  fix: `{fix}`" if fix else ""),
        "Make the goal folder readable again as the fix says (nothing is deleted); a goal "
        "folder goalfile cannot read is no way to stop.",
        stop,
    )


def _lost(here: Path, exc: Exception, stop: StopInput, notes: list[str]) -> GoalOutcome:
    """An unexpected error while finding the goals: no goal is known to let the agent stop,
    so it holds the agent once, like an error on one goal."""
    import traceback

    name = type(exc).__name__
    notes.append(
        f"finding the goals failed: {name}: {exc}\n"
        + "".join(traceback.format_exception(exc)).rstrip()
    )
    shown = _shown(here, here)
    return _once(
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
    stop, so it holds the agent once, as :func:`_lost` does. Nothing here reads the file
    system: the error may be that the folders cannot be read."""
    import traceback

    name = type(exc).__name__
    where = stop.cwd or "the hook's working folder"
    note = f"internal error: {name}: {exc}\n" + "".join(traceback.format_exception(exc)).rstrip()
    outcome = _once(
        where,
        "failed",
        f"goalfile hook stop failed in {where} ({name}: {exc})",
        "Run `goalfile status` there and fix what it names; an error that hides the goals is "
        "no way to stop.",
        stop,
    )
    return StopDecision(goals=(outcome,), notes=(note,))


def _unverified(shown: str, stop: StopInput, *, budget: float) -> GoalOutcome:
    """An active goal the hook had no time left to verify: it is no reason to stop."""
    return _once(
        shown,
        "unverified",
        f"goalfile could not verify {shown}: the hook's time limit ({budget:g} s) was used up "
        "by the goals verified before it",
        f"Run `goalfile verify {shell_word(shown)}` to record its verdict; a goal the hook "
        "could not verify is no reason to stop.",
        stop,
    )


def _cut(
    shown: str,
    result: VerifyResult,
    cut: list[str],
    stop: StopInput,
    *,
    share: float,
    budget: float,
) -> GoalOutcome:
    """A goal whose verify the hook's time limit ended before every row was judged (verify
    wrote `blocked`): it was not verified, so it is no reason to stop either."""
    of = "" if share >= budget - 1.0 else f", its share of the hook's {budget:g} s"
    return _once(
        shown,
        "unverified",
        f"goalfile could not verify {shown} within the hook's time limit: {result.summary}\n"
        f"  {', '.join(cut)} did not finish in the {share:.0f} s the hook gave it{of}",
        "Tell the user: a person makes the checks faster or raises the hook's timeout (the "
        "host's hook `timeout` and `goalfile hook stop --timeout`), then runs "
        f"`goalfile resume {shell_word(shown)} --resolved 'the hook has the time it needs'`.",
        stop,
    )


def _failed(shown: str, exc: Exception, stop: StopInput, notes: list[str]) -> GoalOutcome:
    """An unexpected error while looking at one goal: that goal holds the agent like a goal
    file that does not load, and the other goals are decided as usual."""
    import traceback

    name = type(exc).__name__
    notes.append(
        f"{shown}: internal error: {name}: {exc}\n"
        + "".join(traceback.format_exception(exc)).rstrip()
    )
    return _once(
        shown,
        "failed",
        f"goalfile failed on {shown} ({name}: {exc})",
        f"Run `goalfile lint {shell_word(shown)}` and fix what it names, never by giving up "
        "the goal; the next stop verifies it.",
        stop,
    )


def _once(shown: str, status: str, text: str, advice: str, stop: StopInput) -> GoalOutcome:
    """Block once with ``text``; when the agent is already continuing because of a Stop hook
    (``stop_hook_active``), allow with it instead: a person may have to act, and a host must
    never be held forever."""
    if stop.stop_hook_active:
        return GoalOutcome(path=shown, status=status, block=False, message=text)
    return GoalOutcome(path=shown, status=status, block=True, reason=f"{text}\n{advice}")


def _transcript(stop: StopInput, notes: list[str]) -> str | None:
    if stop.transcript_path is None:
        return None
    path = os.path.expanduser(stop.transcript_path)
    if not os.path.isfile(path):
        notes.append(f"transcript {path} not found; token usage is not read")
        return None
    return path


def _idle_key(path: Path, roots: list[Path]) -> tuple[Path | None, str]:
    """The git folder of the innermost repository that holds ``path``, and ``path`` relative
    to that repository's top: where Gemini's storm guard keeps its marker, and the goal it is
    kept for (the same from whatever folder the session calls the hook)."""
    from goalfile.commands.focus import git_dir

    for root in roots:
        try:
            relative = path.resolve().relative_to(root.resolve())
        except ValueError:
            continue
        return git_dir(root), relative.as_posix()
    return None, str(path)


def _shown(path: Path, start: Path) -> str:
    """``path`` as the agent's shell reaches it from the session's folder ``start``: the
    reasons and their fix commands name it so, and a fix runs as written there, also when the
    session's folder is a sub-folder of the repository."""
    return os.path.relpath(real_path(path), start)
