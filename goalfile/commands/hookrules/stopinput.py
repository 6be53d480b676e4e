"""What a host hands the Stop hook: the JSON object on stdin (:class:`StopInput`) and the
hook's command line (:class:`HookOptions`). Pure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from goalfile.errors import UsageError
from goalfile.hostprotocol import HOOK_TIMEOUT, HostAgent

STALL_LIMIT = 3


class HookInputError(UsageError):
    """The hook's stdin is not the JSON object a host sends."""


@dataclass(frozen=True, kw_only=True, repr=False)  # compared (tests), never printed
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
                f"the hook input is not JSON: {exc} (the host passes one JSON object on stdin)",
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


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)  # never compared or printed
class HookOptions:
    """The hook's command line: the host, the goal, the host's timeout and the stall limit."""

    agent: HostAgent = HostAgent.CLAUDE
    goal: str | None = None
    timeout: float = float(HOOK_TIMEOUT)  # the host's hook timeout, seconds
    stall_limit: int = STALL_LIMIT
