"""Does each host give goalfile's Stop hook the time its ``--timeout`` counts on?

A host kills a hook at the ``timeout`` of its settings and then lets the agent stop, whatever
the hook printed (Claude Code 2.1.332, Codex 0.171.0: docs/hosts.md). The hook answers by its
``--timeout`` (its watchdog a little before it), so a host timeout below ``--timeout`` kills
the hook before it answers, and the agent stops unheard. What each host reads:

* Claude Code: ``"timeout"`` in seconds, a positive number; without one, 600 s.
* Codex: ``"timeout"`` (or ``"timeoutSec"``) in seconds, a whole number; without one, 600 s;
  0 counts as 1 s. A value that is not a whole number makes Codex reject the whole
  ``hooks.json``, so none of its hooks runs.
* Gemini CLI: ``"timeout"`` in milliseconds; without one, 60,000 ms.

Pure functions on parsed JSON documents and command strings; goalfile.commands.doctor reads
and writes the files.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from goalfile.hookentries import hook_entries
from goalfile.hostjson import EVENT, hook_stop_words, is_ours
from goalfile.hostprotocol import HOOK_TIMEOUT, HOOK_TIMEOUT_MAX, HostAgent

__all__ = [
    "DEFAULT",
    "HOST_NAME",
    "UNIT",
    "Fix",
    "StopHook",
    "fix",
    "given_their_time",
    "stop_hooks",
    "with_hook_timeout",
]

HOST_NAME = {
    HostAgent.CLAUDE: "Claude Code",
    HostAgent.CODEX: "Codex",
    HostAgent.GEMINI: "Gemini CLI",
}
UNIT = {HostAgent.CLAUDE: 1, HostAgent.CODEX: 1, HostAgent.GEMINI: 1000}  # per second
DEFAULT = {  # seconds a host gives a command hook whose settings name no timeout
    HostAgent.CLAUDE: 600.0,
    HostAgent.CODEX: 600.0,
    HostAgent.GEMINI: 60.0,
}
KEYS = {HostAgent.CLAUDE: ("timeout",), HostAgent.CODEX: ("timeout", "timeoutSec")}


@dataclass(frozen=True, kw_only=True)
class StopHook:
    """One goalfile Stop hook in a host's settings, and the two time limits that meet in it."""

    agent: HostAgent
    group: int  # its place: hooks.<event>[group].hooks[index]
    index: int
    command: str
    key: str  # the settings key that holds the host's timeout ("timeout", "timeoutSec")
    written: object  # the value written there; None when there is none
    host_seconds: float | None  # what the host gives the hook; None when it cannot read it
    hook_seconds: float | None  # the command's --timeout (600 without one); None if unreadable

    @property
    def unheard(self) -> bool:
        """The host kills the hook before the time its --timeout counts on."""
        return (
            self.host_seconds is not None
            and self.hook_seconds is not None
            and self.host_seconds < self.hook_seconds
        )

    @property
    def written_text(self) -> str:
        """The host's timeout as the settings say it (``"timeout": 120``, or "no timeout")."""
        if self.written is None:
            return f'no "{self.key}"'
        return f'"{self.key}": {_json_number(self.written)}'


def _json_number(value: object) -> str:
    import json

    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def stop_hooks(document: object, agent: HostAgent) -> list[StopHook]:
    """Every goalfile Stop hook (``goalfile hook stop``) in a host settings document."""
    found: list[StopHook] = []
    for place in hook_entries(document, EVENT[agent]):
        hook, command = place.entry, place.command
        if not isinstance(hook, dict) or not isinstance(command, str) or not is_ours(command):
            continue
        keys = KEYS.get(agent, ("timeout",))
        key = next((k for k in keys if k in hook), keys[0])
        written = hook.get(key)
        found.append(
            StopHook(
                agent=agent,
                group=place.group,
                index=place.index,
                command=command,
                key=key,
                written=written,
                host_seconds=host_seconds(agent, written),
                hook_seconds=hook_timeout(command),
            )
        )
    return found


def host_seconds(agent: HostAgent, written: object) -> float | None:
    """The seconds ``agent`` gives a command hook whose settings hold ``written`` as its
    timeout (None: not written); None when the host cannot read the value."""
    if written is None:
        return DEFAULT[agent]
    if isinstance(written, bool) or not isinstance(written, int | float):
        return None
    try:
        if not math.isfinite(written):
            return None
    except OverflowError:  # an int beyond any float (10**400): no host reads it
        return None
    if agent is HostAgent.CODEX:  # a u64: whole and not negative, or the file is rejected
        if written < 0 or written != int(written) or isinstance(written, float):
            return None
        return float(max(int(written), 1))
    if written <= 0:  # Claude Code's schema takes a positive number only
        return None
    return float(written) / UNIT[agent]


def hook_timeout(command: str) -> float | None:
    """The ``--timeout`` of a ``goalfile hook stop`` command (the last one given, as click
    reads it; 600 without one); None when it is not a number of seconds from 1 to a day, which
    makes the hook refuse its command line (and let the agent stop)."""
    words = hook_stop_words(command)
    if words is None:
        return None
    value: str | None = None
    for at, word in enumerate(words):
        if word == "--timeout":
            value = words[at + 1] if at + 1 < len(words) else ""
        elif word.startswith("--timeout="):
            value = word.split("=", 1)[1]
    if value is None:
        return float(HOOK_TIMEOUT)
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if 1 <= seconds <= HOOK_TIMEOUT_MAX else None  # nan is neither


_TIMEOUT_OPTION = re.compile(r"--timeout(?:=|\s+)(?:'[^']*'|\"[^\"]*\"|[^\s;&|)]+)")
_HOOK_STOP = re.compile(r"\bhook\s+stop\b")


def with_hook_timeout(command: str, seconds: float) -> str | None:
    """``command`` with ``--timeout SECONDS`` for its ``goalfile hook stop``: every
    ``--timeout`` it gives replaced, else the option written right after ``hook stop``. Only
    that command's words change (from ``hook stop`` to the first shell operator): a
    ``--timeout`` of another program on the line (``flock --timeout 30``) stays. None when
    ``command`` cannot be edited so (its words are quoted in a way this does not follow)."""
    number = format_seconds(seconds)
    found = _HOOK_STOP.search(command)
    if found is None:
        return None
    end = _words_end(command, found.end())
    own = command[found.end() : end]
    if _TIMEOUT_OPTION.search(own):
        own = _TIMEOUT_OPTION.sub(f"--timeout {number}", own)
    else:
        own = f" --timeout {number}{own}"
    new = command[: found.end()] + own + command[end:]
    return new if hook_timeout(new) == seconds else None


def _words_end(command: str, start: int) -> int:
    """Where the words that begin at ``start`` end: the first shell operator outside quotes
    (``;``, ``&``, ``|``, ``)``, a new line), else the end of ``command``."""
    quote = ""
    at = start
    while at < len(command):
        ch = command[at]
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"':
                at += 1
        elif ch in "'\"":
            quote = ch
        elif ch == "\\":
            at += 1
        elif ch in ";&|)<>\n":
            return at
        at += 1
    return len(command)


def format_seconds(seconds: float) -> str:
    return str(int(seconds)) if seconds == int(seconds) else f"{seconds:g}"


@dataclass(frozen=True, kw_only=True)
class Fix:
    """One goalfile Stop hook brought into line: the settings document after it, and what
    changed."""

    document: dict[str, object]
    change: str  # e.g. `--timeout 120` written into the command


def fix(document: object, hook: StopHook) -> Fix | None:
    """``document`` with ``hook`` given a host timeout it answers within, keeping the number
    a person wrote: where the settings name the host's timeout, the command's ``--timeout``
    becomes that number; where they name none (the host's default is below ``--timeout``),
    the settings get ``--timeout`` as the host's timeout. A value the host cannot read is
    replaced: a Codex timeout with a fraction by its whole seconds (and the command's
    ``--timeout`` lowered to them when it is above), anything else by ``--timeout``. None
    when nothing is to change or the hook cannot be edited so."""
    if not isinstance(document, dict) or hook.hook_seconds is None:
        return None
    if hook.host_seconds is None:
        return _replaced(document, hook, hook.hook_seconds)
    if not hook.unheard:
        return None
    entry = dict(_entry(document, hook))
    if hook.written is not None and hook.host_seconds >= 1:
        command = with_hook_timeout(hook.command, hook.host_seconds)
        if command is None:
            return None
        entry["command"] = command
        change = f"`--timeout {format_seconds(hook.host_seconds)}` written into its command"
    else:
        number = math.ceil(hook.hook_seconds * UNIT[hook.agent])  # whole: Codex takes no other
        entry[hook.key] = number
        change = f'"{hook.key}": {number} written next to its command'
    return Fix(document=_with_entry(document, hook, entry), change=change)


def given_their_time(document: object, agent: HostAgent) -> tuple[object, list[str]]:
    """``document`` with each goalfile Stop hook whose host timeout is below its
    ``--timeout``, or one the host cannot read, given the time of its ``--timeout`` as its host
    timeout (`goalfile init`, which registers the hook to be heard: a ``"timeout": 1`` written
    next to it, by anyone, let the host kill it and the agent stop unheard), and one sentence
    per change. The command and the entry's other keys are kept; so is a hook whose
    ``--timeout`` the hook refuses (:mod:`goalfile.hookshape` replaces its command). Pure."""
    changes: list[str] = []
    name = HOST_NAME.get(agent, agent.value)
    for hook in stop_hooks(document, agent):
        if not isinstance(document, dict) or hook.hook_seconds is None:
            continue
        if hook.host_seconds is not None and not hook.unheard:
            continue
        number = math.ceil(hook.hook_seconds * UNIT[agent])
        entry = {**_entry(document, hook), hook.key: number}
        place = f"hooks.{EVENT[agent]}[{hook.group}].hooks[{hook.index}]"
        why = (
            f"{name} gave it {format_seconds(hook.host_seconds)} s, less than the "
            f"{format_seconds(hook.hook_seconds)} s its `--timeout` counts on, so {name} "
            "killed it before it answered"
            if hook.host_seconds is not None
            else f"{name} cannot read that as a timeout"
        )
        changes.append(
            f"the Stop hook at {place} had {hook.written_text} ({why}): "
            f'"{hook.key}": {_json_number(number)} written in its place'
        )
        document = _with_entry(document, hook, entry)
    return document, changes


def _replaced(document: dict[str, object], hook: StopHook, wanted: float) -> Fix | None:
    """``document`` with the host timeout the host cannot read replaced (see :func:`fix`)."""
    entry = dict(_entry(document, hook))
    written = hook.written
    whole: int | None = None
    if (
        hook.agent is HostAgent.CODEX
        and isinstance(written, float)
        and math.isfinite(written)
        and written >= 1
    ):
        whole = int(written)  # what the person wrote, as Codex can read it
    number = whole if whole is not None else math.ceil(wanted * UNIT[hook.agent])
    entry[hook.key] = number
    changes = [f'"{hook.key}": {number} written in place of {_json_number(written)}']
    if whole is not None and wanted > whole:
        command = with_hook_timeout(hook.command, float(whole))
        if command is None:
            return None
        entry["command"] = command
        changes.append(f"`--timeout {whole}` written into its command")
    return Fix(document=_with_entry(document, hook, entry), change="; ".join(changes))


def _entry(document: dict[str, object], hook: StopHook) -> dict[str, object]:
    hooks = document["hooks"]
    assert isinstance(hooks, dict)
    groups = hooks[EVENT[hook.agent]]
    assert isinstance(groups, list)
    inner = groups[hook.group]["hooks"]
    entry = inner[hook.index]
    assert isinstance(entry, dict)
    return entry


def _with_entry(
    document: dict[str, object], hook: StopHook, entry: dict[str, object]
) -> dict[str, object]:
    """A copy of ``document`` with ``entry`` in ``hook``'s place (``document`` unchanged)."""
    hooks = dict(document["hooks"])  # type: ignore[call-overload]
    event = EVENT[hook.agent]
    groups = list(hooks[event])
    group = dict(groups[hook.group])
    inner = list(group["hooks"])
    inner[hook.index] = entry
    group["hooks"] = inner
    groups[hook.group] = group
    hooks[event] = groups
    return {**document, "hooks": hooks}
