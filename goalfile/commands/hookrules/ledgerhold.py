"""Ledgering a hold on a block a verify run wrote, once the hook answers with it; a hold that
cannot be ledgered is marked under the git folder (:mod:`goalfile.holdmark`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from goalfile.commands.hookrules.outcome import GoalOutcome
from goalfile.commands.hookrules.places import idle_key
from goalfile.errors import GoalfileError
from goalfile.files import read_text
from goalfile.value import replace

HOLD_LOCK_WAIT = 5.0  # seconds the hook waits to ledger a hold


def ledger_holds(
    outcomes: Sequence[GoalOutcome],
    today: str,
    notes: list[str],
    roots: list[Path],
    *,
    transcript: str | None = None,
) -> list[GoalOutcome]:
    """``outcomes``, each hold the hook answers with on a block found in a goal file ledgered
    there first (:func:`_record_hold`). A hold that cannot be ledgered (the goal's lock held
    past the hook's wait, a file that cannot be written) still holds the first stop on its
    entry, saying why it is not recorded, and is marked under the git folder
    (:mod:`goalfile.holdmark`); a later stop on the same entry, or one whose mark cannot be
    written, is let go with the message: unrecorded, it would hold the agent at every stop;
    but a mark the host's ``transcript`` shows no hold for (the agent's own `goalfile hook
    stop` marks as the host's run does) holds it, marking nothing (:mod:`goalfile.holdseen`)."""
    done: list[GoalOutcome] = []
    for outcome in outcomes:
        if outcome.hold is None:
            done.append(outcome)
            continue
        path, iteration, let_go = outcome.hold
        try:
            recorded = _record_hold(path, today=today, why=outcome.summary or "")
        except (GoalfileError, OSError) as exc:
            from goalfile.holdmark import first_hold
            from goalfile.holdseen import delivered

            why = exc.message if isinstance(exc, GoalfileError) else str(exc)
            git_folder, key = idle_key(path, roots)
            if first_hold(git_folder=git_folder, goal=key, iteration=iteration):
                notes.append(f"{outcome.path}: the hold on its block was not ledgered ({why})")
                unrecorded = (
                    f"goalfile could not record this hold in {outcome.path}'s ledger ({why}); "
                    "the next stop on this block is let go."
                )
                done.append(replace(outcome, hold=None, reason=f"{outcome.reason}\n{unrecorded}"))
            elif outcome.summary and delivered(transcript, [outcome.summary]) == frozenset():
                notes.append(f"{outcome.path}: the hold on its block was not ledgered ({why})")
                unseen = (
                    f"goalfile could not record this hold in {outcome.path}'s ledger ({why}); "
                    "the mark of an earlier hold under the git folder was not made by the "
                    "host: its transcript shows no Stop-hook hold with these words, so this "
                    "stop is held; the next stop on this block is let go."
                )
                done.append(replace(outcome, hold=None, reason=f"{outcome.reason}\n{unseen}"))
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
