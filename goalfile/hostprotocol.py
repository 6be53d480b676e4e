"""Which host runs the hook, and how each host is told "go on" or "you may stop".

* Claude Code (Stop hook): go on ``{"decision": "block", "reason": R}``; stop: no output.
* Codex (Stop hook): go on ``{"decision": "block", "reason": R}``; stop: ``{}``.
* Gemini CLI (AfterAgent hook): go on ``{"decision": "block", "reason": R}`` (Gemini reads
  ``block`` as its ``deny``); stop: ``{}``.
* pi (goalfile's extension): go on ``{"decision": "block", "reason": R}``; stop: ``{}``.

A stop with something to say is ``{"systemMessage": M}`` for every host.

Gemini CLI sends ``R`` to the model as a plain user turn. pi's extension (shipped with goalfile)
sends ``R`` as a follow-up message, which starts a new agent run.

The host is the ``--agent`` option when given, else it is read from the hook input's
``hook_event_name``: ``AfterAgent`` is Gemini CLI, ``agent_end`` is pi, anything else is Claude
Code (Codex sends the same ``Stop`` input as Claude Code, so Codex needs ``--agent codex``).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "HOOK_TIMEOUT",
    "HOOK_TIMEOUT_MAX",
    "HostAgent",
    "allow_answer",
    "block_answer",
    "detect_agent",
]

HOOK_TIMEOUT = 600  # seconds; the hosts' own default for a command hook
HOOK_TIMEOUT_MAX = 86400  # seconds (a day): the most `hook stop --timeout` takes


class HostAgent(StrEnum):
    CLAUDE = "claude"
    CODEX = "codex"
    GEMINI = "gemini"
    PI = "pi"


EVENTS = {"AfterAgent": HostAgent.GEMINI, "agent_end": HostAgent.PI}


def detect_agent(given: HostAgent | None, hook_event_name: str | None) -> HostAgent:
    if given is not None:
        return given
    return EVENTS.get(hook_event_name or "", HostAgent.CLAUDE)


def block_answer(agent: HostAgent, reason: str) -> dict[str, object]:
    """The reason's control characters as visible escapes: the host shows it (goalfile.termsafe)."""
    from goalfile.termsafe import escape

    return {"decision": "block", "reason": escape(reason)}


def allow_answer(agent: HostAgent, message: str | None) -> dict[str, object] | None:
    """``None`` means print nothing (Claude Code); the others want a JSON object."""
    if message:
        from goalfile.termsafe import escape

        return {"systemMessage": escape(message)}
    return None if agent is HostAgent.CLAUDE else {}
