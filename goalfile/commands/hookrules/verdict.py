"""What a verify run's result asks of the agent: block with the rows not met (and start the next
iteration, or exhaust the goal), allow, or hold once (a block the run wrote, a run the hook's
time cut short, a goal it refused). Pure: the result, the goal's text and the context's date
in, the outcome and the text to write out.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.budgethint import raise_budget_command
from goalfile.commands.context import Context
from goalfile.commands.hookrules.outcome import GoalOutcome, hold_once
from goalfile.commands.hookrules.reason import block_reason, block_words, cwd_fix
from goalfile.commands.hookrules.stopinput import HookOptions, StopInput
from goalfile.errors import GoalfileError
from goalfile.hostprotocol import HostAgent
from goalfile.hostwords import hook_time, let_run_on
from goalfile.model import Goal, Status, Verdict
from goalfile.shellword import shell_word
from goalfile.value import replace

if TYPE_CHECKING:
    from goalfile.commands.iteration import IterationStart
    from goalfile.commands.verify import VerifyResult


def decide_result(
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
    cut = cut_short(result)
    if cut:
        notes.append(result.summary)
        if result.status is Status.BLOCKED:  # held once per entry: the hold is ledgered below
            stop = replace(stop, stop_hook_active=False)
        outcome = cut_hold(shown, result, cut, stop, options.agent, share=share, budget=budget)
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


def cut_short(result: VerifyResult) -> list[str]:
    """The rows of ``result`` that the time the hook gave verify ended before they were
    judged, as the rows say where they are made (``RowResult.cut_short``): a check, a judge or
    a `matches` search of a check's output that the goal's time limit ended, and a row not
    started since that time was up. Never told from a row's words: a check may print them."""
    return [row.id for row in result.rows if row.verdict is Verdict.ERROR and row.cut_short]


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
        try:
            transcript = stop.transcript_path and os.path.expanduser(stop.transcript_path)
            streak = hook_streak(text, slug=result.slug, transcript=transcript or None)
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


def hook_streak(text: str, *, slug: str = "", transcript: str | None = None) -> int:
    """How many of the hook's own verify runs in a row, the newest entry of ``text`` (this
    stop's) included, show the same verdicts and evidence: a run the hook sent the agent back
    from is followed by the iteration it started (``by stop-hook``). The agent's own verify
    runs between them neither count nor end the streak: counted, an agent sent back once ran
    `goalfile verify` once more without a change and the loop guard let it go at its next
    stop ("no progress in the last 3 verify runs"). Nor does a run whose block the host's
    ``transcript`` does not show (:mod:`goalfile.holdseen`; its summary line names goal
    ``slug``): the agent's own `goalfile hook stop` writes the same entries. A transcript
    that cannot be read counts every such run."""
    from goalfile import ledger
    from goalfile.commands.iteration import HOOK_BY
    from goalfile.holdseen import delivered
    from goalfile.parse import ledger_region
    from goalfile.progress import FRESH_START, STREAK_BY, fingerprint

    region = ledger_region(text)
    if region is None:
        return 0
    runs: list[str] = []  # the summary line of each earlier run sent back, newest first
    mark = None
    newer: str | None = None  # the command of the entry just newer than the one read
    for entry in ledger.newest_first(text, *region, by=STREAK_BY | {HOOK_BY}):
        if entry.by in FRESH_START:
            break
        if entry.by == ledger.VERIFY_BY:
            found = fingerprint(entry)
            if mark is None:
                mark = found
            elif found != mark:
                break
            elif newer == HOOK_BY and entry.status is not None:
                summary = ledger.summary_line(
                    slug=slug,
                    iteration=entry.iteration,
                    rows=entry.rows,
                    status=entry.status,
                    reason=entry.status_reason,
                )
                runs.append(summary)
        newer = entry.by
    if mark is None:
        return 0
    seen = delivered(transcript, runs) if runs else None
    return 1 + (len(runs) if seen is None else sum(run in seen for run in runs))


def _errored(result: VerifyResult, shown: str, stop: StopInput) -> GoalOutcome:
    """A goal this verify found active and left `blocked` by a cause the agent can bring about
    (:func:`goalfile.blockhold.verify_made`: an `error` row, the stall guard, a token usage
    that cannot be measured): the code a check runs is the agent's to edit, and making it exit
    127 or hang turns an unmet row into an error. So such a block is no way to stop at once:
    it holds the agent once, with the rows, also when it is continuing because of a Stop hook
    (sent back once for its unmet goal, an agent that then deleted the tool a check runs was
    let go at that stop, and held only at its next turn's first stop). The hold is ledgered in
    verify's own write (:func:`decide_result`), once per entry, and the stop after it, the
    entry unchanged, is let go with the message
    (:func:`goalfile.commands.hookrules.statusrules.blocked_before`)."""
    text, advice = block_words(result.summary, result.rows, result.reason, shown)
    text += cwd_fix(result)
    first = replace(stop, stop_hook_active=False)  # once per entry: the ledger keeps it
    held = hold_once(shown, result.status.value, text, advice, first)
    return replace(held, summary=result.summary)


def idle_allow(shown: str) -> GoalOutcome:
    return GoalOutcome(
        path=shown,
        status=Status.ACTIVE.value,
        block=False,
        message=(
            f"goalfile: the model was not called since {shown} was last verified; "
            "the stop is allowed"
        ),
    )


def refused_hold(shown: str, exc: GoalfileError, stop: StopInput, agent: HostAgent) -> GoalOutcome:
    """verify refused the goal (changed contract, invalid file, lock held): ask once, then let
    it stop, since a person may have to act. A lock held is no file to restore: its holder is
    often the agent's own `goalfile verify` that ``agent`` let run on (Claude Code moves it to
    the background when it outlasts its Bash tool's time), still running at the stop; the hold
    says so in that host's words and names no command (the lock's own hint, "run the command
    again", named none the agent could run, and a verify run again would only add a run alike
    for verify's stall guard)."""
    from goalfile.errors import Locked

    said = exc.message if isinstance(exc, Locked) else exc.render()  # (the path said once)
    text = f"goalfile could not verify {shown}: {said}"
    return hold_once(shown, "refused", text, refused_advice(text, agent), stop)


def refused_advice(text: str, agent: HostAgent) -> str:
    """The last line of the hold on verify's refusal ``text`` (:func:`refused_hold`'s first
    part): what to do about a lock held, in ``agent``'s words, or about any other refusal."""
    if not is_locked(text):
        return REFUSED_ADVICE
    return (
        f"Let that process finish ({let_run_on(agent)}), or end it if it is yours and not "
        "needed, then stop again: the next stop verifies the goal. Do not remove the goal's lock."
    )


def is_locked(text: str) -> bool:
    """Whether verify's refusal ``text`` (:func:`refused_hold`'s first part) is a lock held."""
    return _LOCKED.match(text) is not None


_LOCKED = re.compile(r"goalfile could not verify .*: locked by [^\n]*; nothing was written\Z")
REFUSED_ADVICE = "Restore what the message names, or hand the goal to the user."


def unverified_hold(shown: str, stop: StopInput, *, budget: float, after: int) -> GoalOutcome:
    """An active goal the hook had no time left to verify, ``after`` goals verified before it
    in this run: it is no reason to stop. With none before it, the hook's own start and its
    reading of the repository took the time (a busy machine is slow), and the hold says so."""
    by = (
        f"by the {'goal' if after == 1 else f'{after} goals'} verified before it"
        if after
        else "before verify could start it (starting the hook and reading the repository "
        "took that long: the machine was busy or the repository is large)"
    )
    return hold_once(
        shown,
        "unverified",
        f"goalfile could not verify {shown}: the hook's time limit ({budget:g} s) was used up "
        + by,
        f"Run `goalfile verify {shell_word(shown)}` to record its verdict; a goal the hook "
        "could not verify is no reason to stop.",
        stop,
    )


def cut_hold(
    shown: str,
    result: VerifyResult,
    cut: list[str],
    stop: StopInput,
    agent: HostAgent,
    *,
    share: float,
    budget: float,
) -> GoalOutcome:
    """A goal whose verify the hook's time limit ended before every row was judged (verify
    wrote `blocked`): it was not verified, so it is no reason to stop either. The hold names
    where a person gives the hook more time under ``agent``."""
    of = "" if share >= budget - 1.0 else f", its share of the hook's {budget:g} s"
    return hold_once(
        shown,
        "unverified",
        f"goalfile could not verify {shown} within the hook's time limit: {result.summary}\n"
        f"  {', '.join(cut)} did not finish in the {share:.0f} s the hook gave it{of}",
        "Tell the user: a person makes the checks faster or raises the hook's timeout "
        f"({hook_time(agent)}), then runs "
        f"`goalfile resume {shell_word(shown)} --resolved 'the hook has the time it needs'`.",
        stop,
    )
