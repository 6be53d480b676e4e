"""What a host hands the Stop hook: the JSON object on stdin (:class:`StopInput`) and the
hook's command line (:class:`HookOptions`). Pure.
"""

from __future__ import annotations

import json
from typing import Final

from goalfile.errors import UsageError
from goalfile.hostprotocol import HOOK_TIMEOUT, HostAgent
from goalfile.value import Compared, Value

STALL_LIMIT = 3


class HookInputError(UsageError):
    """The hook's stdin is not the JSON object a host sends."""


class StopInput(Compared):
    """What a host sends a Stop hook. Unknown fields are ignored."""

    __slots__ = ("cwd", "hook_event_name", "session_id", "stop_hook_active", "transcript_path")

    def __init__(
        self,
        *,
        session_id: str | None = None,
        transcript_path: str | None = None,
        cwd: str | None = None,
        hook_event_name: str | None = None,
        stop_hook_active: bool = False,
    ) -> None:
        self.session_id: Final = session_id
        self.transcript_path: Final = transcript_path
        self.cwd: Final = cwd
        self.hook_event_name: Final = hook_event_name
        self.stop_hook_active: Final = stop_hook_active

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


class HookOptions(Value):
    """The hook's command line: the host, the goal, the host's timeout and the stall limit."""

    __slots__ = ("agent", "goal", "stall_limit", "timeout")

    def __init__(
        self,
        *,
        agent: HostAgent = HostAgent.CLAUDE,
        goal: str | None = None,
        timeout: float = float(HOOK_TIMEOUT),
        stall_limit: int = STALL_LIMIT,
    ) -> None:
        self.agent: Final = agent
        self.goal: Final = goal
        self.timeout: Final = timeout  # the host's hook timeout, seconds
        self.stall_limit: Final = stall_limit
