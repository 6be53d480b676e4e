"""goalfile's session-start hook in a host's JSON settings: ``goalfile hook start --agent AGENT``
under ``hooks.SessionStart`` (Claude Code's ``.claude/settings.json``, Codex's
``.codex/hooks.json``, Gemini CLI's ``.gemini/settings.json``, all three naming the event so).
pi has no hook settings: goalfile's extension runs the command at pi's ``session_start``.

The hook takes the session's record before the agent acts (:mod:`goalfile.commands.hookstart`),
so the first stop compares with it. It counts as goalfile's only in one shape, as the Stop hook
does (:mod:`goalfile.hookshape`): ``PROGRAM hook start`` with at most ``--agent`` naming this
host, plain words only (no operator, redirection or expansion: ``goalfile hook start; echo
'{"continue": false}'`` would end the session), an entry of ``"type": "command"`` with no key
but those that label or time it, in a matcher group with no ``matcher`` but ``""`` or ``"*"``
(so that it runs at every start, a resumed one included). Anything else under the event is
another hook (:mod:`goalfile.otherhooks`).

Pure: :func:`goalfile.hostjson.register_start_hook` reads and writes the file.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from typing import Final

from goalfile.hookentries import hook_entries
from goalfile.hookshape import ENTRY_KEYS
from goalfile.hostprotocol import HostAgent

__all__ = [
    "START_EVENT",
    "START_TIMEOUT",
    "is_start_command",
    "merge_start_hook",
    "sound_start",
    "start_command",
]

START_EVENT: Final = {
    HostAgent.CLAUDE: "SessionStart",
    HostAgent.CODEX: "SessionStart",
    HostAgent.GEMINI: "SessionStart",
}
START_TIMEOUT = 60  # seconds: a few git calls; a host waits for it before the first turn

_PLAIN: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,@%+- "
)


def start_command(agent: HostAgent) -> str:
    return f"goalfile hook start --agent {agent.value}"


def is_start_command(command: object, agent: HostAgent) -> bool:
    """Whether ``command`` is goalfile's start hook for ``agent``, in its one shape."""
    if not isinstance(command, str) or not set(command) <= _PLAIN:
        return False
    words = shlex.split(command)
    if (
        len(words) < 3
        or os.path.basename(words[0]) != "goalfile"
        or words[1:3] != ["hook", "start"]
    ):
        return False
    return words[3:] in ([], ["--agent", agent.value], [f"--agent={agent.value}"])


def _sound_entry(entry: object, group: Mapping[str, object], agent: HostAgent) -> bool:
    if not isinstance(entry, dict) or entry.get("type") != "command":
        return False
    if set(entry) - ENTRY_KEYS[agent] or set(group) - {"hooks", "matcher"}:
        return False
    return group.get("matcher") in (None, "", "*") and is_start_command(entry.get("command"), agent)


def sound_start(document: object, agent: HostAgent) -> list[tuple[int, int]]:
    """Where goalfile's start hook stands in its one shape under the host's start event:
    ``(group, index)`` of each such entry."""
    return [
        (hook.group, hook.index)
        for hook in hook_entries(document, START_EVENT[agent])
        if _sound_entry(hook.entry, hook.matcher_group, agent)
    ]


def merge_start_hook(
    document: dict[str, object], agent: HostAgent
) -> tuple[dict[str, object], bool] | str:
    """``document`` with goalfile's start hook registered, and whether it changed; or why it
    cannot be (``hooks`` or ``hooks.SessionStart`` of another type). Pure."""
    hooks = document.get("hooks", {})
    if not isinstance(hooks, dict):
        return '"hooks" is not a JSON object'
    event = START_EVENT[agent]
    groups = hooks.get(event, [])
    if not isinstance(groups, list):
        return f'"hooks.{event}" is not a JSON list'
    if sound_start(document, agent):
        return document, False
    ours: dict[str, object] = {
        "type": "command",
        "command": start_command(agent),
        "timeout": START_TIMEOUT,
    }
    if agent is HostAgent.GEMINI:  # a name for its listing; the timeout in milliseconds
        ours = {"name": "goalfile-start", **ours, "timeout": START_TIMEOUT * 1000}
    return {**document, "hooks": {**hooks, event: [*groups, {"hooks": [ours]}]}}, True
