"""The rules on a goal's status before anything runs: a status the ledger does not back, a
`draft` typed over a goal git holds, a `met` newer than git's copy, a goal paused, exhausted or
blocked by a new entry, and a block a verify run wrote (held once). Pure: each decides on the
goal's text and the copies git gave (:class:`goalfile.commands.hookrules.gitview.GitView`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from goalfile.commands.hookrules.gitview import GitView
from goalfile.commands.hookrules.outcome import GoalOutcome, hold_once
from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.model import Entry, Finding, Goal, Severity, Status
from goalfile.shellword import shell_word

if TYPE_CHECKING:
    from goalfile.commands.gitgoals import Tracked


def met_since_git(goal: Goal, held: int | None) -> bool:
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


def drafted(path: Path, goal: Goal, entry: Tracked, git: GitView, shown: str) -> Finding | None:
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


UNSEEN_HOLD = (
    "The ledger's hold on this block (`by stop-hook-hold`) was not made by the host: its "
    "transcript shows no Stop-hook hold with these words (only the host runs `goalfile hook "
    "stop`), so this stop is held; the next stop on this block is let go."
)


def blocked_before(
    path: Path, shown: str, goal: Goal, transcript: str | None = None
) -> GoalOutcome | None:
    """A goal found `blocked` by a verify run the hook did not make (the agent's own
    `goalfile verify`, its stall guard, a usage it could not measure), or by one of the
    hook's that held the agent already: the first stop on that entry holds the agent, and the
    hold is ledgered (:mod:`goalfile.blockhold`) once the hook answers with it
    (:func:`goalfile.commands.hookrules.ledgerhold.ledger_holds`), also when the agent is
    continuing because of a Stop hook (sent back once for its unmet goal, it ran `goalfile
    verify` until the stall guard blocked the goal); every stop after it is let go with the
    message. A hold ledgered on the entry counts only when the host's ``transcript`` shows the
    host held the agent with it (:mod:`goalfile.holdseen`): the agent's own `goalfile hook stop`
    writes the same entry, and then the host's stop is held, the entry not ledgered again; a
    transcript that cannot be read leaves the ledger to decide. None for a
    block someone declared (`goalfile block`, a row marked impossible): it lets the agent go as any
    status that asks for no more work does."""
    from goalfile.blockhold import made_by_verify
    from goalfile.commands.hookrules.reason import block_words

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
    text, advice = block_words(summary, found.entry.rows, found.entry.status_reason, shown)
    if found.held:  # held once on this entry (ledgered), whatever the host says
        from goalfile.holdseen import delivered

        if delivered(transcript, [summary]) != frozenset():  # each hold on it says the line
            return let_go
        return GoalOutcome(  # ledgered by a run the host did not make: held, not ledgered again
            path=shown,
            status=Status.BLOCKED.value,
            block=True,
            summary=summary,
            reason=f"{text}\n{advice}\n{UNSEEN_HOLD}",
        )
    return GoalOutcome(
        path=shown,
        status=Status.BLOCKED.value,
        block=True,
        summary=summary,
        reason=f"{text}\n{advice}",
        hold=(path, found.entry.iteration, let_go),
    )


def ended_today(
    goal: Goal, shown: str, today: str, *, held: int | None = None
) -> GoalOutcome | None:
    """A paused, exhausted or blocked goal (a block someone declared: a block a verify run
    wrote holds the agent once, :func:`blocked_before`) whose status entry is new since the
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
        from goalfile.budgethint import raise_budget_command

        again = f"`{raise_budget_command(goal, shown)}`"
    return GoalOutcome(
        path=shown,
        status=status,
        block=False,
        message=f"goalfile: {shown} ({goal.slug}) is {status}, not met: its entry `### Iteration "
        f"{entry.iteration} ({entry.date}) by {entry.by}` set it; the stop is allowed "
        f"(a person reopens it with {again})",
    )


def unbacked_hold(shown: str, finding: Finding, stop: StopInput) -> GoalOutcome:
    """A status the ledger does not back (`met` typed by hand, a hand-set `paused`): held like
    a refusal, since only the command that decides a status lets the agent stop on it."""
    where = f"{shown}:{finding.line}" if finding.line else shown
    return hold_once(
        shown,
        "unbacked",
        f"goalfile does not accept the status of {shown}: {where}: {finding.message}\n"
        f"  fix: {finding.hint}",
        "Set the status back as the fix says and make the checks pass; only `goalfile verify` "
        "writes `met`.",
        stop,
    )
