"""What the Stop hook answers: an outcome per goal (:class:`GoalOutcome`), the decision over
all of them (:class:`StopDecision`) and its JSON for each host, and the hold made once
(:func:`hold_once`), which every rule that sends the agent back with a fix uses. Pure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from goalfile.commands.hookrules.stopinput import StopInput
from goalfile.hostprotocol import HostAgent, allow_answer, block_answer
from goalfile.value import Value

SCHEMA_VERSION = 1
REASON_LIMIT = 10_000


class GoalOutcome(Value):
    """What the hook decided for one goal."""

    __slots__ = ("block", "hold", "message", "path", "reason", "status", "summary")

    def __init__(
        self,
        *,
        path: str,
        status: str,
        block: bool,
        summary: str | None = None,
        reason: str | None = None,
        message: str | None = None,
        hold: tuple[Path, int, GoalOutcome] | None = None,
    ) -> None:
        # a goal's name with a line break, written raw in a reason, would start a line of its
        # own there (a forged `fix:` line the model reads): it is named on one line, as every
        # command names it (the commands in the text take it from shell_word, never raw)
        from goalfile.termsafe import file_name

        named = file_name(path)
        if named != path:
            if reason is not None:
                reason = reason.replace(path, named)
            if message is not None:
                message = message.replace(path, named)
        self.path: Final = path
        self.status: Final = status  # the goal's status after the run (or as found)
        self.block: Final = block
        self.summary: Final = summary  # verify's summary line, when verify ran
        self.reason: Final = reason  # for the agent, when blocking
        self.message: Final = message  # for the user, when allowing with something to say
        # a hold on a block a verify run wrote, still to be ledgered in the goal file at this path
        # once the hook answers with it; the outcome to answer instead if that fails
        self.hold: Final = hold

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "status": self.status,
            "decision": "block" if self.block else "allow",
            "summary": self.summary,
            "reason": self.reason,
            "message": self.message,
        }


class Recheck(Value):
    """A `met` goal whose met entry is new since the copy git holds: the hook runs its checks
    again, writing nothing (:func:`goalfile.commands.hookrules.verifyrun.recheck_one`). ``reviews``:
    the ids of its review rows."""

    __slots__ = ("moved", "reviews")

    def __init__(self, *, reviews: frozenset[str], moved: bool = False) -> None:
        self.reviews: Final = reviews
        # its branch moved since the session's earlier stop, where it was active
        self.moved: Final = moved


class StopDecision(Value):
    """What the hook answers: an outcome per goal, and notes for stderr."""

    __slots__ = ("goals", "notes")

    def __init__(self, *, goals: tuple[GoalOutcome, ...] = (), notes: tuple[str, ...] = ()) -> None:
        # a goal's name in a note on one line, as in its reason (GoalOutcome)
        from goalfile.termsafe import file_name

        for goal in goals:
            named = file_name(goal.path)
            if named != goal.path:
                notes = tuple(note.replace(goal.path, named) for note in notes)
        self.goals: Final = goals
        self.notes: Final = notes  # for stderr

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


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    marker = "\n… (cut to fit the host's limit)"
    return text[: limit - len(marker)] + marker


def hold_once(shown: str, status: str, text: str, advice: str, stop: StopInput) -> GoalOutcome:
    """Block once with ``text``; when the agent is already continuing because of a Stop hook
    (``stop_hook_active``), allow with it instead: a person may have to act, and a host must
    never be held forever."""
    if stop.stop_hook_active:
        return GoalOutcome(path=shown, status=status, block=False, message=text)
    return GoalOutcome(path=shown, status=status, block=True, reason=f"{text}\n{advice}")
