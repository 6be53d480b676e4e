"""The Stop hook's answer to the agent's own runs of goalfile's hook (:mod:`goalfile.selfrun`).

* A run of `goalfile hook stop` or `goalfile hook start` given a transcript in which a tool call
  that runs goalfile's hook has no result yet may be that very tool call: it verifies and
  records nothing (:func:`refusal`).
* At any other stop, a tool call in the transcript that ran goalfile's hook, or named the
  state folder that holds the session's record, holds the agent once per set of such calls
  (:func:`evidence`), and the session's record is set aside from then on: every goal git holds
  is judged as after a lost record (:meth:`goalfile.commands.hookrepo.RepositoryWatch.unplaced`).
* A record the host's hooks did not take (:mod:`goalfile.recordbind`) is set aside the same way,
  with no hold of its own: a `met` that fails its checks again says why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from goalfile.commands.hookrules.outcome import StopDecision
    from goalfile.commands.hookrules.stopinput import StopInput
    from goalfile.selfrun import SelfRun

__all__ = ["STATUS", "evidence_key", "evidence_text", "refusal", "running"]

STATUS = "hook-self-run"
FIX = "  fix: `goalfile status` lists each goal and what its ledger says, writing nothing"


def running(runs: tuple[SelfRun, ...]) -> SelfRun | None:
    """The tool call of ``runs`` that runs goalfile's hook and has no result yet, if any."""
    return next((run for run in runs if run.hook and run.pending), None)


def refusal(stop: StopInput, run: SelfRun, verb: str) -> StopDecision:
    """The answer of a `goalfile hook stop` that may be the agent's tool call ``run``."""
    from goalfile.commands.hookrules.outcome import StopDecision, hold_once

    text = (
        f"goalfile: `goalfile hook {verb}` was given the transcript of a session whose tool call "
        f"`{run.shown}` runs goalfile's hook and has not ended: only the host runs "
        f"`goalfile hook {verb}`, so this run verified and recorded nothing\n{FIX}"
    )
    advice = (
        "To see what a goal's checks say, run `goalfile verify --no-write PATH`; never run "
        "`goalfile hook` yourself."
    )
    return StopDecision(
        goals=(hold_once(".", STATUS, text, advice, stop),),
        notes=(f"the transcript's tool call `{run.shown}` runs goalfile's hook: nothing done",),
    )


def evidence_key(runs: tuple[SelfRun, ...]) -> str:
    """The key of the hold on ``runs`` (held once per set of such tool calls)."""
    return "\0".join(["self-run", *sorted(run.key for run in runs)])


def evidence_text(runs: tuple[SelfRun, ...]) -> tuple[str, str]:
    """The hold's text (with its fix) and its advice, for the tool calls ``runs``."""
    hooks = [run.shown for run in runs if run.hook]
    state = [run.shown for run in runs if not run.hook]
    said = []
    if hooks:
        said.append(
            "ran goalfile's own hook from its shell ("
            + ", ".join(f"`{shown}`" for shown in hooks[:3])
            + "), which only the host runs"
        )
    if state:
        said.append(
            "named the folder that holds the Stop hook's record of this session ("
            + ", ".join(f"`{shown}`" for shown in state[:3])
            + ")"
        )
    text = (
        f"goalfile: this session's transcript shows that the agent {' and '.join(said)}: the "
        "session's record, which the Stop hook compares each stop with, may have been written "
        "or removed by the agent, so it is set aside for the rest of the session, and every goal "
        "git holds is judged as after a lost record (a `met` has its checks run again and its "
        f"criteria compared with its first approval)\n{FIX}"
    )
    advice = (
        "Work on the goal itself; to see what a goal's checks say, run "
        "`goalfile verify --no-write PATH`, never `goalfile hook` or the state folder."
    )
    return text, advice
