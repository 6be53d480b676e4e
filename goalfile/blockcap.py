"""Claude Code's cap on Stop-hook holds in a row, and the stop at which it overrides the hook.

Claude Code 2.1.332 obeys a Stop hook's ``block`` at most ``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP``
times in a row (8 when the variable is unset or not a number; 0 or less: no cap): at the next
block it ends the turn anyway, goal met or not, and shows "A hook blocked the turn from ending
N consecutive times—overriding and ending turn". The count is of blocks with no tool call of the
model between them (a tool call, or the person's next prompt, starts it again from 0). The
variable is read from Claude Code's environment, which every settings file's ``env`` (the
project's ``.claude/settings.json`` and ``.claude/settings.local.json`` too) adds to; a hook
runs with that environment, so the hook reads the cap in force from its own.

The hook is not told the count, so :func:`holds_in_a_row` counts it in the session's transcript
(each hold is a ``hook_blocking_error`` attachment of the ``Stop`` hook there), the way the host
does. When the stop being answered is one the host will override, the hook still holds it, and
its answer tells the person that the turn ends with the goal not met (:func:`override_notice`).
A count too low only leaves that out; the hold itself never depends on it.

Pure but for :func:`holds_in_a_row` and :func:`lines_from_end`, which read the transcript.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
from collections.abc import Iterator, Mapping, Sequence

__all__ = [
    "CAP_VARIABLE",
    "DEFAULT_CAP",
    "cap_in_force",
    "holds_in_a_row",
    "lines_from_end",
    "override_notice",
    "parse_cap",
]

CAP_VARIABLE = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"
DEFAULT_CAP = 8

# the host's tools that leave the count as it is (its goal tools); any other tool call starts it
# again from 0
_KEEPING_TOOLS = frozenset({"SetGoal", "ProposeGoal", "PauseGoal", "GetGoal"})
_CHUNK = 1 << 20
_READ_AT_MOST = 64 << 20  # bytes of a transcript's end read for the count


# the forms Claude Code reads as a whole number besides plain digits: 1e1, and 1,000 / 1_000
@functools.cache
def _exponent() -> re.Pattern[str]:
    return re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)[eE][+-]?\d+$")


@functools.cache
def _grouped() -> re.Pattern[str]:
    return re.compile("^[+-]?\\d{1,3}([_,\u00a0\u202f ])\\d{3}(?:\\1\\d{3})*$")


@functools.cache
def _leading() -> re.Pattern[str]:
    return re.compile(r"^[+-]?\d+")


def parse_cap(raw: str | None) -> int | None:
    """The cap ``raw`` sets, read as Claude Code reads it: ``None`` for unset or not a number
    (then the host's default holds), else the whole number (``"3abc"`` is 3, ``"2.9"`` is 2)."""
    if raw is None:
        return None
    text = raw.strip()
    if len(text) <= 32 and _exponent().match(text):
        value = float(text)
        return int(value) if value.is_integer() and abs(value) < 1e300 else None
    if len(text) <= 32 and _grouped().match(text):
        return int(re.sub("[_,\u00a0\u202f ]", "", text))
    found = _leading().match(text)
    if found is None or len(found.group()) > 300:
        return None
    return int(found.group())


def cap_in_force(env: Mapping[str, str]) -> int | None:
    """How many holds in a row Claude Code obeys with ``env``; ``None`` when it has no cap."""
    value = parse_cap(env.get(CAP_VARIABLE))
    cap = DEFAULT_CAP if value is None else value
    return cap if cap > 0 else None


def _counted(entry: object) -> int | None:
    """1 for a hold of the Stop hook, 0 for an entry that leaves the count, ``None`` for one
    that starts it again (a tool call, the person's prompt)."""
    if not isinstance(entry, dict) or entry.get("isSidechain") is True:
        return 0
    kind = entry.get("type")
    if kind == "attachment":
        attachment = entry.get("attachment")
        held = (
            isinstance(attachment, dict)
            and attachment.get("type") == "hook_blocking_error"
            and attachment.get("hookEvent") == "Stop"
        )
        return 1 if held else 0
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    blocks = content if isinstance(content, list) else []
    if kind == "assistant":
        for block in blocks:
            if (
                isinstance(block, dict)
                and block.get("type") == "tool_use"
                and block.get("name") not in _KEEPING_TOOLS
            ):
                return None
        return 0
    if kind == "user" and entry.get("isMeta") is not True:
        results = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"]
        return 0 if results else None  # a tool's result follows its call; a prompt starts anew
    return 0


def lines_from_end(path: str) -> Iterator[bytes]:
    """The transcript's lines, newest first, from at most its last :data:`_READ_AT_MOST`
    bytes (a line cut by that limit is left out), read a chunk at a time as they are asked
    for. A FIFO, socket or device there raises OSError without being waited on, as does a
    path no file can have (a NUL byte, a lone surrogate: the host's input is not checked)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except ValueError as error:
        raise OSError(f"{path!r} is not a path: {error}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise OSError(f"{path} is not a regular file")
    os.set_blocking(descriptor, True)
    with os.fdopen(descriptor, "rb") as handle:
        end = handle.seek(0, os.SEEK_END)
        start = max(0, end - _READ_AT_MOST)
        rest = b""
        position = end
        while position > start:
            size = min(_CHUNK, position - start)
            position -= size
            handle.seek(position)
            parts = (handle.read(size) + rest).split(b"\n")
            rest = parts[0]
            yield from reversed(parts[1:])
        if start == 0:
            yield rest


# an entry that can change the count names one of these; the others are not parsed
_MARKS = (b'"hook_blocking_error"', b'"tool_use"', b'"user"')


def holds_in_a_row(transcript: str | None, *, at_most: int | None = None) -> int | None:
    """How many times in a row, by the session's transcript, the Stop hook has held the agent
    since its last tool call or the person's last prompt (counted up to ``at_most``, when
    given); ``None`` when the transcript cannot be read."""
    if transcript is None:
        return None
    count = 0
    try:
        for line in lines_from_end(transcript):
            if at_most is not None and count >= at_most:
                return count
            if not any(mark in line for mark in _MARKS):
                continue
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):
                continue
            step = _counted(entry)
            if step is None:
                return count
            count += step
    except OSError:
        return None
    return count


def override_notice(goals: Sequence[str], *, held: int, cap: int) -> str:
    """What the person is told at the stop Claude Code overrides: the ``held``+1-th hold in a
    row, past its ``cap``; ``goals`` are the goal files still unmet."""
    named = ", ".join(goals) or "the goal"
    return (
        f"Claude Code ends this turn although {named} is NOT met: it obeys at most {cap} "
        f"Stop-hook holds in a row ({CAP_VARIABLE}), and goalfile has held this turn {held} "
        "times already. The goal stays active and unmet: `goalfile status` shows it, and its "
        "ledger's `by stop-hook` entries show each hold. Ask the agent to go on, or set "
        f"{CAP_VARIABLE}=0 (no cap) where Claude Code is started."
    )
