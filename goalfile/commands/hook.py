"""`goalfile hook stop`: a host's Stop hook that lets the agent stop only when the goal allows it.

The host (Claude Code, Codex) runs the hook when the agent is about to end its turn and passes
a JSON object on stdin: ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name`` and
``stop_hook_active`` (true when the agent is already continuing because a Stop hook blocked).

The hook picks the goal (``--goal``, else the working tree's focus from ``goalfile focus``,
else every ``active`` goal under ``goals/`` and ``.zetetic/goals/``) of each git work tree that
holds ``cwd``, as git names them (:func:`goalfile.commands.hookrules.places.project_roots`), runs
``verify`` on it (writing the ledger entry, with the session's transcript for token accounting,
within a time limit below the host's hook timeout, shared between the goals: the goal picked by name
first, then the goal files git tracks, then the others), and answers:

* **allow** when the goal is met, exhausted, blocked, paused or absent, and its ledger backs
  that status (:func:`goalfile.handedit.unbacked_status`); but a `blocked` that a verify run
  wrote (an `error` row, the stall guard, a token usage that cannot be measured: each is the
  agent's to bring about, with the code a check runs or with verify runs of its own) holds it
  once per ledger entry, whether this verify wrote it or one run before the stop: the hold is
  ledgered (``by stop-hook-hold``, :mod:`goalfile.blockhold`), also with ``stop_hook_active``,
  and every later stop on that entry is let go with the message, once the host's transcript
  shows the host's own record of that hold (:mod:`goalfile.holdseen`: the agent's own
  `goalfile hook stop` ledgers the same entry). A block
  declared with `goalfile block` (or a row marked impossible) lets the agent go as the other
  statuses do.
  A goal paused, exhausted or blocked (`goalfile block`) by an entry the copy git holds does
  not have (whatever its heading says), or by one dated today that the hook did not write (an
  agent may run `goalfile pause` or `goalfile block`, or spend the budget with `goalfile plan`)
  lets it go with a message naming the goal, its status and that entry
  (:func:`goalfile.commands.hookrules.statusrules.ended_today`). A goal `met` by an entry git does
  not hold yet (or by any entry, at a stop marked continuing whose session record names no
  repository of the session: :meth:`goalfile.commands.hookrepo.RepositoryWatch.unplaced`) has
  its checks run again, writing nothing, and holds the agent once unless every row is still met
  (:func:`goalfile.commands.hookrules.verifyrun.recheck_one`). A `met` (written at this stop, or
  checked again) under criteria that HEAD's copy does not approve and that do not only tighten
  its approved ones (the agent's own re-approval, staged) holds it once, naming each change
  (:mod:`goalfile.commands.hookrules.loosened`), and so does one under criteria that loosen
  those git held at the session's earlier stop, when HEAD resolves to another commit since
  (that re-approval committed, on the branch or on a new one);
* **block once** (then, with ``stop_hook_active``, allow with the message) when verify refuses
  the goal, when a goal file does not load, when the ledger does not back its status, when a
  goal file git tracks is missing from the working tree or hidden from git
  (:mod:`goalfile.commands.gitgoals`) or shows another goal there than the one HEAD holds,
  continued, when git cannot list a repository the session is in, when a part of a goal
  folder cannot be read, when the hook's time did not suffice to verify it, or when handling
  it (or finding the goals) raised an unexpected error: breaking, hiding, swapping or starving
  a goal, or typing ``status: met``, is no way to stop unseen: the agent is sent back once
  with the fix, and its next stop is let through only with the message, which the person sees,
  while the goal stays active and unmet for ``status``, ``audit`` and CI. A goal file held for
  what it holds (gone, swapped, not loading, a status not backed, criteria not approved) and a
  repository git cannot list are held once per finding, as the session's record keeps it,
  also at a stop marked continuing
  (:data:`goalfile.commands.hookrules.once.ONCE_PER_FINDING`), and so is a goal the hook had
  no time left for (the goal file as written) and one whose checks its time cut short (once
  per ledger entry, as any block a verify run wrote);
* **block** while it is active with unmet rows. The reason is the summary line and the unmet
  rows' evidence (at most 10,000 characters), which the host hands to the agent as its next
  instruction. Sending the agent back starts the next iteration (an entry by ``stop-hook``);
  at the iteration limit the goal becomes exhausted and the stop is allowed instead;
* **allow with a message** (loop guard) when ``stop_hook_active`` is true and the hook's own
  last ``stall_limit`` verify runs (:func:`goalfile.commands.hookrules.verdict.hook_streak`;
  a run counts when the host's transcript shows its hold) show the same verdicts and
  evidence: blocking again would only repeat them.

The rules are in :mod:`goalfile.commands.hookrules`, one job to a module; this module wires them
together and shares the hook's time between the goals. Parsing the input, the block reason and the
answers are pure; :func:`decide_stop` and the helpers it calls read the file system, run git and run
``verify``. The CLI layer turns a :class:`goalfile.commands.hookrules.outcome.StopDecision` into the
host's JSON and always exits 0; an error that escapes :func:`decide_stop` once the input is read
holds the agent once (:func:`goalfile.commands.hookrules.failures.failed_stop`)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.context import Context
from goalfile.commands.gittop import holds_git
from goalfile.commands.hookrules.discover import goal_paths, other_goals
from goalfile.commands.hookrules.gitview import held_tracked, merged, tracked_goal, tracked_in
from goalfile.commands.hookrules.ledgerhold import ledger_holds
from goalfile.commands.hookrules.look import look
from goalfile.commands.hookrules.once import (
    ONCE_PER_FINDING,
    as_message,
    asker,
    file_mark,
    gone_mark,
    held_once,
    loosened_once,
    refused_once,
    unlisted_once,
    unverified_once,
    written,
)
from goalfile.commands.hookrules.outcome import (
    REASON_LIMIT,
    GoalOutcome,
    Recheck,
    StopDecision,
    allow_output,
)
from goalfile.commands.hookrules.places import (
    project_roots,
    session_folder,
    shown_from,
    transcript_file,
)
from goalfile.commands.hookrules.stopinput import HookInputError, HookOptions, StopInput
from goalfile.commands.hookrules.unheld import unheld_goal, unheld_key
from goalfile.files import real_path
from goalfile.model import Finding, Status
from goalfile.value import replace

if TYPE_CHECKING:
    from goalfile.commands.gitgoals import Tracked
    from goalfile.commands.hookrules.failures import failed_stop
    from goalfile.commands.hookrules.reason import block_reason
    from goalfile.commands.hookrules.verifyrun import Runner
    from goalfile.commands.status import Unreadable

__all__ = [  # what the command line and the views use of the hook
    "REASON_LIMIT",
    "GoalOutcome",
    "HookInputError",
    "HookOptions",
    "StopDecision",
    "StopInput",
    "allow_output",
    "block_reason",
    "decide_stop",
    "failed_stop",
]


def __getattr__(name: str) -> object:
    """``failed_stop`` and ``block_reason``, imported when asked for: a stop on a met goal calls
    neither, nor any rule module a hold or a verify run needs (each is imported where its rule
    is called), so that the hook's answer at every stop once the work is done starts fast."""
    if name == "failed_stop":
        from goalfile.commands.hookrules.failures import failed_stop

        return failed_stop
    if name == "block_reason":
        from goalfile.commands.hookrules.reason import block_reason

        return block_reason
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


MARGIN = 30.0  # seconds kept between verify's time limit and the host's hook timeout
MIN_SHARE = 2.0  # seconds: a goal's share of the hook's time is never cut below this
GIT_FLOOR = 2.0  # seconds a git command may take at least (a loaded machine is slow too)

# what a goal that lets the agent stop is found as (:func:`goalfile.commands.hookrules.look.look`):
# a repository holding none of the others is not remembered for the session
# (:mod:`goalfile.commands.hookrepo`)
_ENDED = frozenset({*(status.value for status in Status if status is not Status.ACTIVE), "absent"})


def _budget(timeout: float) -> float:
    """The seconds the hook gives its work within the host's ``timeout``."""
    margin = min(MARGIN, max(2.0, timeout / 5))  # room to start, write and answer
    return max(timeout - margin, 1.0)


def decide_stop(
    stop: StopInput,
    options: HookOptions,
    ctx: Context,
    *,
    runner: Runner | None = None,
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
    runner: Runner | None = None,
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
        here = session_folder(stop, ctx, notes)
        roots = project_roots(here, notes)
        # a repository hidden from the hook (its .git renamed away), or another put in its
        # place, holds the agent: what the session's earlier stops saw is remembered
        from goalfile.commands.hookrepo import never_continuing, watch
        from goalfile.hostprotocol import HostAgent

        bare_start = options.agent is HostAgent.GEMINI  # its start hook gets no transcript
        repositories = watch(stop, ctx.env, here, roots, bare_start=bare_start)
        # the goal files git tracks: one that the working tree does not show (or shows as
        # another goal) holds the agent, and they are verified before the goal files git does
        # not track (with --goal: the same rules, for the goal file it names, and then for
        # every other goal file git tracks); and the goals outside the goal folders a focus
        # named, which stay held whatever the focus says now
        in_git = [root for root in roots if holds_git(root)]
        if options.goal is None:
            git = tracked_in(roots)
        else:  # outside git (no `.git` at or above cwd), nothing more is asked of it
            git = tracked_goal(options.goal, roots)
            git = merged(git, tracked_in(in_git)) if in_git else git
        git = merged(git, held_tracked(in_git, notes)) if in_git else git
        tracked = git.tracked
        paths, named = goal_paths(
            options, roots, notes, held=held, tracked=tracked, problems=problems
        )
        if options.goal is None:  # a focused goal outside the goal folders: git is asked too
            for focused in sorted(named.difference(tracked)):
                git = merged(git, tracked_goal(str(focused), roots))
            tracked = git.tracked
            from goalfile.commands.hookrules.focus import keep_held

            keep_held(named, roots)
        # a goal file active at the session's earlier stop, gone now with no trace in git
        # (with --goal too: git was asked of every goal file it holds)
        repositories.gone(tracked, here)
        # a focus, or --goal, orders and names the goals; it never releases the agent: once
        # the named goal lets it stop, every other goal of the repository (with --goal: every
        # other goal file git holds) is looked at too
        if options.goal is None:
            later = other_goals(roots, paths, tracked, problems) if named else []
        else:
            later = [path for path in other_goals(in_git, paths, tracked, {}) if path in tracked]
            unheld = unheld_goal(paths, tracked, git, in_git, here, stop)
            # held once in the session, whatever the host says of ``stop_hook_active``
            made = [path for path in unheld if repositories.made_before(unheld_key(path))]
            if made:
                let_go = replace(stop, stop_hook_active=True)
                unheld.update(unheld_goal(made, tracked, git, in_git, here, let_go))
            for path, outcome in unheld.items():
                if outcome.block:
                    repositories.hold_made(unheld_key(path))
            if never_continuing(stop) and not repositories.can_save():
                # held without a record, it would come back at every stop (below), and, held,
                # it kept the goals git holds from being looked at: an unmet one let go too
                unheld = {
                    path: repositories.let_go_unsaved(
                        o.path, o.status, (o.reason or "").split("\n", 1)[0]
                    )
                    if o.block
                    else o
                    for path, o in unheld.items()
                }
    except Exception as exc:  # finding the goals failed: no goal is known to let it stop
        from goalfile.commands.hookrules.failures import lost_hold

        return StopDecision(goals=(lost_hold(here, exc, stop, notes),), notes=tuple(notes))
    outcomes: list[GoalOutcome] = []
    later_outcomes: list[GoalOutcome] = []
    active: list[tuple[Path, frozenset[str]]] = []
    holding: list[Path] = []  # the goal files active, or held, at this stop
    recheck: set[Path] = (
        set()
    )  # met goals whose checks are run again (:class:`goalfile.commands.hookrules.outcome.Recheck`)
    branch_moved: set[Path] = set()  # of ``recheck``: met in a commit the branch moved to
    upgraded: dict[int, GoalOutcome] = {}  # holds made once per finding: what they replaced
    # goals active at an earlier stop whose branch moved since: their entries count as new
    moved = repositories.branch_moved(here)
    # at a stop after a hold whose record is gone, nothing git holds is placed: the same
    unplaced = repositories.unplaced(stop, tracked)
    moved = moved | unplaced
    rekeyed: dict[str, Path] = {}  # holds on a deleted goal file, by key: its path
    seen: dict[Path, str] = {}  # each goal's text as the hook judged it: verify runs it or none
    quiet: list[Path] = []  # goals let go without a word or a verify: not active, as found
    for path in [*paths, *later]:
        shown = shown_from(path, here)
        sink = later_outcomes if path in later else outcomes
        if path in unheld:  # --goal names no goal git holds: held once
            sink.append(unheld[path])
            continue
        try:
            found = look(path, shown, here, stop, named=named, held=held, tracked=tracked, git=git,
                          today=ctx.today, seen=seen, moved=moved)  # fmt: skip
        except Exception as exc:  # a bug, or a file no rule foresaw: it holds the agent
            from goalfile.commands.hookrules.failures import failed_hold

            found = failed_hold(shown, exc, stop, notes)
        if isinstance(found, GoalOutcome) and found.status in ONCE_PER_FINDING:
            # a goal file git tracks gone or swapped, or one whose text holds the agent: held
            # once per finding, as the session's record keeps it, also when the agent is
            # continuing because of a Stop hook; a file written since the hold (the fix run,
            # then the swap or the typed status made again before the next stop) is another
            # finding
            key = f"{found.status}\0{real_path(path)}{written(path, found.status)}"
            if gone_mark(path):  # recorded with the folder as this stop leaves it
                rekeyed[key] = path

            def first(path: Path = path, shown: str = shown) -> GoalOutcome | None:
                again = look(path, shown, here, replace(stop, stop_hook_active=False),
                              named=named, held=held, tracked=tracked, git=git,
                              today=ctx.today, seen=seen, moved=moved)  # fmt: skip
                return again if isinstance(again, GoalOutcome) else None

            found = held_once(found, key, first, repositories, upgraded)
        if isinstance(found, GoalOutcome):
            sink.append(found)
            if found.status not in _ENDED:
                holding.append(path)
        elif isinstance(found, Recheck):
            recheck.add(path)
            if found.moved:
                branch_moved.add(path)
            active.append((path, found.reviews))
        elif found is not None:
            active.append((path, found))
        else:
            quiet.append(path)
    # what git could not list, and what discovery could not read, may hide a goal: each holds
    # the agent, after the goals' own outcomes (their reasons come first)
    # (but for a repository held as swapped or hidden: what git cannot list there follows from
    # the other git folder it reads, where a fix, an unborn HEAD's symbolic-ref say, would act)
    swapped = repositories.swapped_tops()
    cannot = [
        unlisted_once(root, exc, here, stop, repositories, upgraded)
        for root, exc in git.failed.items()
        if os.path.realpath(root) not in swapped
    ]
    if problems:
        from goalfile.commands.hookrules.githolds import unread_hold

        cannot += [unread_hold(problem, here, stop) for problem in problems.values()]
    if not active and not outcomes and not cannot and not repositories.holds:
        under = ", ".join(str(root) for root in roots)
        notes.append(f"no active goal under {under}; the stop is allowed")
    # the order of verifying decides who gets the hook's time: the goal picked by name, then
    # the goal files git tracks, then the others (one the agent made itself, in a folder git
    # ignores); each waits for no goal of a later rank
    active.sort(key=lambda item: _rank(item[0], later, named, tracked))
    ranks = [_rank(path, later, named, tracked) for path, _ in active]
    transcript = transcript_file(stop, notes)
    released: bool | None = None  # whether the focused goals let the agent stop
    verified = 0  # goals this run verified (or checked again) so far
    for index, (path, reviews) in enumerate(active):
        if path in later:
            if released is None:
                from goalfile.commands.hookrules.focus import focus_releases

                released = focus_releases(outcomes, notes, by=options.goal)
            if not released:
                holding.append(path)  # active, and not looked at while the focus holds
                continue
        shown = shown_from(path, here)
        remaining = deadline - ctx.clock()
        waiting = ranks[index:].count(ranks[index])  # this goal and those sharing its time
        share = remaining if waiting <= 1 else min(remaining, max(remaining / waiting, MIN_SHARE))
        if remaining <= 1.0:
            notes.append(f"{shown}: no time left to verify it within the hook timeout")
            outcomes.append(
                unverified_once(path, shown, stop, budget, verified, repositories, upgraded)
            )
            holding.append(path)
            continue
        verified += 1
        # the rules of a verify run: imported here, as a goal to verify is found
        from goalfile.commands.hookrules.verifyrun import (
            LOCK_WAIT,
            recheck_one,
            run_verify,
            verify_one,
        )

        runs = runner or run_verify
        try:
            if path in recheck:
                # a met the hook did not see verified, its checks failing now: held once per
                # finding (the file as written), also at a stop marked continuing
                key = f"recheck\0{real_path(path)}{file_mark(path)}"
                asked: list[bool] = []
                rechecked = recheck_one(
                    path, shown, stop, ctx, agent=options.agent, runner=runs, share=share,
                    named=path in named,
                    expect=seen.get(path),
                    moved=repositories.taken(path) if path in branch_moved else "",
                    once=asker(repositories, key, asked),
                    unplaced=repositories.lost_why(path) if real_path(path) in unplaced else "",
                )  # fmt: skip
                if rechecked is not None and rechecked.block:
                    repositories.hold_made(key)
                    if any(asked):  # not recorded, it would hold at every stop: let go then
                        upgraded[id(rechecked)] = as_message(rechecked)
                if rechecked is None or (not rechecked.block and rechecked.status == "met"):
                    widened = loosened_once(path, shown, seen.get(path, ""), here, stop, git,
                                             repositories, upgraded,
                                             unplaced=real_path(path) in unplaced)  # fmt: skip
                    rechecked = widened or rechecked
                if rechecked is not None:  # (a met goal still met says nothing, as before)
                    outcomes.append(rechecked)
                    # a loosening told, not held, still stands: the record keeps the goal
                    # (and the commit its criteria are compared with) for the next stop
                    if rechecked.block or rechecked.status not in _ENDED:
                        holding.append(path)
                continue
            outcome = verify_one(
                path,
                shown,
                reviews,
                stop,
                options,
                ctx,
                notes,
                runner=runs,
                roots=roots,
                transcript=transcript,
                share=share,
                budget=budget,
                expect=seen.get(path),
                lock_wait=0.0,  # a lock held is waited for below, where the hold is decided
            )
            if outcome.status == "refused":  # a lock the agent holds, say: waited for here
                # (told at an earlier stop, the holder still running: half the time left, at
                # most LOCK_WAIT, so that a host that ends it when the session ends does not
                # lose it, and one that never ends does not make every stop wait long)
                left = deadline - ctx.clock()
                from goalfile.commands.hookrules.lockwait import lock_waited

                waited = lock_waited(path, outcome, repositories, upgraded, options.agent,
                                     first=min(LOCK_WAIT, share / 4),
                                     told=min(LOCK_WAIT, left / 2),
                                     expect=seen.get(path))  # fmt: skip
                if isinstance(waited, str):  # ended, the goal file as judged: verified now
                    again = min(share, deadline - ctx.clock())
                    outcome = verify_one(path, shown, reviews, stop, options, ctx, notes,
                                         runner=runs, roots=roots, transcript=transcript,
                                         share=again, budget=budget, expect=seen.get(path),
                                         lock_wait=0.0)  # fmt: skip
                if isinstance(waited, GoalOutcome):
                    outcome = waited  # it ended and wrote the goal: stop again
                elif outcome.status == "refused":
                    outcome = refused_once(path, outcome, repositories, upgraded, options.agent)
            if not outcome.block and outcome.status == Status.MET.value:
                widened = loosened_once(path, shown, seen.get(path, ""), here, stop, git,
                                         repositories, upgraded,
                                         unplaced=real_path(path) in unplaced)  # fmt: skip
                outcome = widened or outcome
        except Exception as exc:  # a bug, or a file no rule foresaw: it holds the agent
            from goalfile.commands.hookrules.failures import failed_hold

            outcome = failed_hold(shown, exc, stop, notes)
        outcomes.append(outcome)
        if outcome.status not in _ENDED:
            holding.append(path)
    if later_outcomes:
        from goalfile.commands.hookrules.focus import focus_releases

        if released or (released is None and focus_releases(outcomes, notes, by=options.goal)):
            outcomes += later_outcomes
    # a goal active at an earlier stop that asks for no more work now that HEAD is on another
    # branch or commit (one whose commits hold it met) holds the agent once
    repositories.switched(quiet, here)
    # the repositories in which a goal is still active (or held) are remembered for the
    # session's next stop; the others are forgotten
    repositories.remember(roots, holding, tracked, notes, git.staged_only())
    if upgraded and not repositories.saved:  # not recorded: the next stop would hold again
        # let go with the hold's message and why, which the person sees (a state folder
        # the agent made unwritable is the one way left around the hold: it says so)
        unsaved = {
            key: repositories.let_go_unsaved(found.path, found.status, found.message or "")
            for key, found in upgraded.items()
        }
        outcomes = [unsaved.get(id(outcome), outcome) for outcome in outcomes]
        cannot = [unsaved.get(id(outcome), outcome) for outcome in cannot]
    if unheld and not repositories.saved and never_continuing(stop):  # nor would it end
        outcomes = [
            repositories.let_go_unsaved(o.path, o.status, (o.reason or "").split("\n", 1)[0])
            if o.block and o.status == "unheld"
            else o
            for o in outcomes
        ]
    # a hold on a block found in a goal file is ledgered only when the hook answers with it
    outcomes = ledger_holds(outcomes, ctx.today, notes, roots, transcript=transcript)
    # the folder of a deleted goal file as this stop, its writes done, leaves it
    status = "hidden"
    repositories.rekey(
        {
            **{
                key: f"{status}\0{real_path(path)}{written(path, status)}"
                for key, path in rekeyed.items()
            },
            **repositories.own_rekeys(),
        }
    )
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
