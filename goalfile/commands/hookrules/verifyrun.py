"""Running verify on the goals the Stop hook holds the agent for: the run that writes (what its
result asks is decided in that write, :mod:`goalfile.commands.hookrules.verdict`, which also starts
the next iteration there), and the run again, writing nothing, of a `met` git does not hold yet.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.context import Context
from goalfile.commands.hookrules.outcome import REASON_LIMIT, GoalOutcome, clip, hold_once
from goalfile.commands.hookrules.places import idle_key
from goalfile.commands.hookrules.reason import evidence
from goalfile.commands.hookrules.stopinput import HookOptions, StopInput
from goalfile.commands.hookrules.verdict import decide_result, idle_allow, refused_hold
from goalfile.errors import GoalfileError
from goalfile.hostprotocol import HostAgent
from goalfile.model import Criterion, Goal, Status, Verdict
from goalfile.shellword import shell_word
from goalfile.value import replace

if TYPE_CHECKING:
    from goalfile.commands.verify import VerifyOptions, VerifyResult


LOCK_WAIT = 30.0


Runner = Callable[["VerifyOptions", Context], "VerifyResult"]


def run_verify(options: VerifyOptions, ctx: Context) -> VerifyResult:
    from goalfile import hookwatch
    from goalfile.commands.verify import NoProgress, verify

    class Told(NoProgress):
        """verify's progress, told to the hook's watchdog (:func:`goalfile.hookwatch.working_on`):
        the row whose check starts, so that a block at the hook's time limit names the row and
        its `expected` column. (Defined here: the hook loads verify only to run it.)"""

        def started(self, row: Criterion) -> None:
            hookwatch.working_on(row=row.id, expected=row.expected)

    return verify(options, ctx, Told())


def recheck_one(
    path: Path,
    shown: str,
    stop: StopInput,
    ctx: Context,
    *,
    agent: HostAgent,
    runner: Runner,
    share: float,
    named: bool = False,
    expect: str | None = None,
    moved: str = "",
    once: Callable[[], bool] | None = None,
    unplaced: str = "",
) -> GoalOutcome | None:
    """Run the checks of a `met` goal whose met entry git does not hold yet (or, ``moved``, a
    commit HEAD's branch was moved to since the session's record was taken holds; ``moved``
    says when: :attr:`goalfile.sessionmemory.Remembered.when`; ``unplaced``, git holds it at a
    stop whose record is gone or set aside, and this says why), writing nothing:
    a `met` the hook did not see verified (a check made to pass for a moment and then undone, a
    met entry copied from a run elsewhere or typed) lets the agent stop only when the checks
    still pass (then None: nothing to say, unless the goal was picked by name). Otherwise it
    holds the agent once, with the rows and `goalfile reopen`; ``once``, asked only then at a
    stop marked continuing, says whether this finding is still to be held (the session's
    record), whatever the host says. ``agent``: the host, whose words a hold uses."""
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
        return refused_hold(shown, exc, stop, agent)
    failing = [row for row in result.rows if row.verdict is not Verdict.MET]
    if not failing:  # as for any goal that is not active: only a goal picked by name is said
        if not named:
            return None
        said = f"goalfile: {result.slug} is met; the stop is allowed"
        return GoalOutcome(path=shown, status=Status.MET.value, block=False, message=said)
    rows = "\n".join(f"- {r.id} {r.verdict.value} (exit {r.exit}): {evidence(r)}" for r in failing)
    since = (
        f"by a ledger entry the hook cannot place: {unplaced}"
        if unplaced
        else "by a ledger entry of the commit its branch was moved to since "
        f"{moved.removeprefix('at ')}, where it was active"
        if moved
        else "by a ledger entry git does not hold yet"
    )
    text = (
        f"goalfile: {shown} says `met` {since}, but its checks, run again at this stop "
        f"without writing, do not all pass ({result.summary}):\n{rows}"
    )
    advice = (
        f"The goal is not met: `goalfile reopen {shell_word(shown)} --reason TEXT` makes it "
        "active again; then make its checks pass, never the criteria, the ledger or the status."
    )
    if stop.stop_hook_active and once is not None and once():
        stop = replace(stop, stop_hook_active=False)
    return hold_once(shown, Status.MET.value, clip(text, REASON_LIMIT), advice, stop)


def verify_one(
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
    lock_wait: float | None = None,
) -> GoalOutcome:
    """Verify one active goal within ``share`` seconds and decide what it asks. ``expect``: the
    goal file's text as the hook judged it; verify refuses to run another. ``lock_wait``: how
    long to wait for a goal locked by another process (a quarter of ``share`` unless given,
    at most :data:`LOCK_WAIT`)."""
    from goalfile.commands.verify import VerifyOptions
    from goalfile.hostguard import mark_verified, model_idle
    from goalfile.usage import TranscriptError

    gemini = options.agent is HostAgent.GEMINI and transcript is not None
    git_folder, key = idle_key(path, roots) if gemini else (None, shown)
    if (
        gemini
        and stop.stop_hook_active
        and transcript
        and model_idle(git_folder=git_folder, goal=key, transcript=transcript)
    ):
        return idle_allow(shown)  # Gemini's retry storm: nothing ran since
    ends = ctx.clock() + share

    def answer(
        result: VerifyResult, said: list[str], written: tuple[str, Goal]
    ) -> tuple[GoalOutcome, tuple[str, Goal]]:
        return decide_result(
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
        lock_wait=min(LOCK_WAIT, share / 4) if lock_wait is None else lock_wait,
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
        return refused_hold(shown, exc, stop, options.agent)
    if gemini and transcript:
        mark_verified(git_folder=git_folder, goal=key, transcript=transcript)
    if not answered:  # verify writes its entry through ``then``, or raises
        raise RuntimeError(f"verify returned without writing its entry to {shown}")
    if isinstance(answered[0], Exception):
        raise answered[0]
    outcome, said = answered[0]
    notes.extend(said)
    return outcome
