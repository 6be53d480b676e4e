"""Does a registered Stop hook run goalfile's hook and hand its answer to the host?

A command that merely holds the words ``goalfile hook stop`` may never answer:
``goalfile hook stop > /dev/null``, ``echo goalfile hook stop``, ``exit 0; goalfile hook stop``,
or an entry Claude Code runs in the background (``"async": true``); and ``goalfile hook stop
--goal goals/none.md`` pins the hook to a goal no one committed, which it verifies first (it
holds the agent once there, then the goals git holds decide). So a hook counts only in one
shape, a small grammar rather than a search for words:

* the command is ``PROGRAM hook stop OPTION...``: ``PROGRAM`` is ``goalfile`` or a path whose
  last part is ``goalfile``, and nothing stands before it;
* it holds no character the shell gives a meaning beyond separating words (only letters,
  digits, ``_ . / = : , @ % + -``, spaces and quotes): no operator, redirection, expansion,
  glob, comment or second line, so the shell runs exactly those words;
* each option is one of the hook's own, at most once: ``--agent`` naming this host,
  ``--goal`` naming a goal file in a goal folder that git holds
  (:func:`goalfile.commands.hookgoal.goal_option`), ``--timeout`` (judged by
  :mod:`goalfile.hosttimeouts`),
  ``--stall-limit`` a whole number from 2; ``--json`` (goalfile's own document, not the host's
  protocol) or anything else is refused;
* the entry is ``"type": "command"`` and holds no key but those that only label it or time it
  (``timeout``, ``statusMessage``; Codex's ``timeoutSec``; Gemini CLI's ``name`` and
  ``description``); its matcher group has no ``matcher`` but ``""`` or ``"*"``.

Pure: goalfile.commands.doctor reads the files and passes whether a goal file exists.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from goalfile.hookentries import hook_entries
from goalfile.hostprotocol import HOOK_TIMEOUT_MAX, HostAgent

__all__ = [
    "ENTRY_KEYS",
    "Fault",
    "command_fault",
    "disabled",
    "entry_fault",
    "goal_fault",
    "repaired",
    "repaired_command",
    "review",
]

_PLAIN = re.compile(r"[A-Za-z0-9_./=:,@%+\- '\"]*")
_OPTIONS: Final = ("--agent", "--goal", "--timeout", "--stall-limit")
ENTRY_KEYS: Final = {  # the keys a host's command hook entry may hold (the start hook's too)
    HostAgent.CLAUDE: frozenset({"type", "command", "timeout", "statusMessage"}),
    HostAgent.CODEX: frozenset({"type", "command", "timeout", "timeoutSec", "statusMessage"}),
    HostAgent.GEMINI: frozenset({"type", "command", "timeout", "name", "description"}),
}
_NAME = {
    HostAgent.CLAUDE: "Claude Code",
    HostAgent.CODEX: "Codex",
    HostAgent.GEMINI: "Gemini CLI",
    HostAgent.PI: "pi",
}


def _words(command: str) -> list[str] | str:
    """The words the shell runs, or why they cannot be told for sure."""
    if "\n" in command or "\r" in command:
        return "it holds a line break, so the shell runs more than one command"
    plain = _PLAIN.fullmatch(command)
    if plain is None:
        bad = next(c for c in command if _PLAIN.fullmatch(c) is None)
        return (
            f"it holds `{bad}`, which the shell reads as more than a word (an operator, a "
            "redirection, an expansion or a comment), so the hook's answer may never reach the "
            "host"
        )
    try:
        return shlex.split(command)
    except ValueError as exc:
        return f"the shell cannot read it ({exc})"


def _options(words: list[str]) -> list[tuple[str, str]] | str:
    """``words`` after ``hook stop`` as (option, value) pairs, or why they are not the hook's."""
    found: list[tuple[str, str]] = []
    at = 0
    while at < len(words):
        word = words[at]
        name, equals, value = word.partition("=")
        if name not in _OPTIONS:
            return (
                "`--json` makes the hook print goalfile's own document, not the host's protocol"
                if name == "--json"
                else f"`{word}` is not an option of the Stop hook doctor accepts "
                f"({', '.join(_OPTIONS)})"
            )
        if not equals:
            if at + 1 >= len(words):
                return f"`{name}` has no value"
            at += 1
            value = words[at]
        if any(seen == name for seen, _ in found):
            return f"`{name}` is given twice (the hook takes the last)"
        found.append((name, value))
        at += 1
    return found


def command_fault(
    command: str, agent: HostAgent, *, goal_exists: Callable[[str], bool]
) -> str | None:
    """Why ``command`` is not a hook that runs goalfile's and passes its answer through to
    ``agent``; None when it is. ``goal_exists`` says whether a ``--goal`` value names a goal
    file."""
    words = _words(command)
    if isinstance(words, str):
        return words
    if len(words) < 3 or os.path.basename(words[0]) != "goalfile" or words[1:3] != ["hook", "stop"]:
        return (
            "it does not start with `goalfile hook stop` (or a path to goalfile), so something "
            "else runs, or answers, first"
        )
    options = _options(words[3:])
    if isinstance(options, str):
        return options
    for name, value in options:
        if name == "--agent" and value != agent.value:
            return f"`--agent {value}` answers in another host's protocol than {_NAME[agent]}'s"
        if name == "--stall-limit" and not (value.isdigit() and int(value) >= 2):
            return (
                f"`--stall-limit {value}` is not a whole number from 2: the hook either refuses "
                "its command line or counts any verify run as no progress, and lets every "
                "stop after the first through"
            )
    if agent is HostAgent.CODEX and all(name != "--agent" for name, _ in options):
        return "it has no `--agent codex`, so the hook answers in Claude Code's protocol"
    pinned = _unsound_goal(options, goal_exists)
    return None if pinned is None else goal_fault(pinned)


def _unsound_goal(options: list[tuple[str, str]], goal_exists: Callable[[str], bool]) -> str | None:
    """The value of a ``--goal`` among ``options`` that ``goal_exists`` does not accept."""
    return next((v for name, v in options if name == "--goal" and not goal_exists(v)), None)


def _pinned(why: str, command: str, goal_exists: Callable[[str], bool]) -> str | None:
    """The value of ``command``'s ``--goal`` when ``why`` is that option's fault
    (:func:`goal_fault`: the command's only one), else None."""
    words = _words(command)
    options = _options(words[3:]) if isinstance(words, list) else None
    value = _unsound_goal(options, goal_exists) if isinstance(options, list) else None
    return value if value is not None and why == goal_fault(value) else None


def goal_fault(value: str) -> str:
    """Why a hook command whose only fault is ``--goal VALUE`` is not sound (the hook still
    holds the agent: a ``--goal`` never releases it, docs/hosts.md)."""
    return (
        f"`--goal {value}` names no goal file a person committed to goals/ or .zetetic/goals/ "
        "(doctor asks that HEAD hold it there), so the hook verifies first a goal anyone could "
        "have written: one git does not hold holds the agent once, then the goals git holds "
        "decide"
    )


def entry_fault(
    entry: Mapping[str, object], group: Mapping[str, object], agent: HostAgent
) -> str | None:
    """Why a hook entry (and its matcher group) would not run its command as a hook that holds
    the agent; None when it would. The command itself is :func:`command_fault`'s."""
    if entry.get("type") != "command":
        return f'its "type" is {entry.get("type")!r}, not "command"'
    extra = sorted(set(entry) - ENTRY_KEYS[agent])
    if extra:
        listed = ", ".join(f'"{key}"' for key in extra)
        return (
            f"the entry also sets {listed}, which changes how {_NAME[agent]} runs the hook "
            '(such as "async": true, in the background, its answer unread)'
        )
    group_extra = sorted(set(group) - {"hooks", "matcher"})
    if group_extra:
        listed = ", ".join(f'"{key}"' for key in group_extra)
        return f"its matcher group also sets {listed}"
    matcher = group.get("matcher")
    if matcher not in (None, "", "*"):
        return f'its matcher group has "matcher": {matcher!r}, so it may not match every stop'
    return None


def disabled(document: object) -> str | None:
    """Claude Code's ``disableAllHooks`` as a settings document sets it (shown as JSON), when
    Claude Code then runs no hook: any value but absent, null, false and "false" (as Claude
    Code 2.1.332 reads it)."""
    if not isinstance(document, dict) or "disableAllHooks" not in document:
        return None
    value = document["disableAllHooks"]
    if value is None or value is False or value == "false":
        return None
    import json

    return json.dumps(value)


def _seconds(value: str) -> bool:
    try:
        number = float(value)
    except ValueError:
        return False
    return 1 <= number <= HOOK_TIMEOUT_MAX


def repaired_command(command: str, agent: HostAgent, *, goal_exists: Callable[[str], bool]) -> str:
    """The command to register instead of ``command``: ``goalfile hook stop --agent AGENT``,
    keeping the path to goalfile and each of its options that is sound (``--goal`` as
    ``goal_exists`` accepts it, ``--timeout`` a number of seconds the hook takes,
    ``--stall-limit``)."""
    from goalfile.hostjson import shell_words

    words = shell_words(command)
    program = "goalfile"
    kept: list[str] = []
    for start in range(len(words)):
        if os.path.basename(words[start]) == "goalfile" and words[start + 1 : start + 3] == [
            "hook",
            "stop",
        ]:
            if _words(words[start]) == [words[start]]:
                program = words[start]
            rest = words[start + 3 :]
            end = next((at for at, w in enumerate(rest) if w and set(w) <= set("();<>|&")), None)
            options = _options(rest[:end])
            if isinstance(options, list):
                for name, value in options:
                    sound = (
                        (name == "--goal" and goal_exists(value))
                        or (name == "--timeout" and _seconds(value))
                        or (name == "--stall-limit" and value.isdigit() and int(value) >= 2)
                    )
                    if sound and _words(value) == [value]:
                        kept += [name, value]
            break
    return shlex.join([program, "hook", "stop", "--agent", agent.value, *kept])


# --- a settings document's goalfile Stop hooks ----------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Fault:
    """One goalfile Stop hook entry that would not hold the agent, and where it is."""

    group: int  # hooks.<event>[group].hooks[index]
    index: int
    command: str
    why: str
    command_only: bool  # the entry and its group are sound: only the command is at fault
    # the value of a --goal that is the command's only fault (:func:`goal_fault`): the hook
    # still holds the agent, to the goals git holds, after the goal named
    goal: str | None = None

    @property
    def pinned(self) -> bool:
        return self.goal is not None

    def where(self, event: str) -> str:
        return f"hooks.{event}[{self.group}].hooks[{self.index}]"


def review(
    document: object, agent: HostAgent, *, goal_exists: Callable[[str], bool]
) -> tuple[list[str], list[Fault]]:
    """The goalfile Stop hooks of a settings document: the commands that hold the agent, and
    a :class:`Fault` for each that would not."""
    from goalfile.hostjson import EVENT, is_ours

    sound: list[str] = []
    faults: list[Fault] = []
    for hook in hook_entries(document, EVENT[agent]):
        entry = hook.entry
        if not isinstance(entry, dict) or not is_ours(hook.command):
            continue
        command = str(hook.command)
        at_entry = entry_fault(entry, hook.matcher_group, agent)
        why = at_entry or command_fault(command, agent, goal_exists=goal_exists)
        if why is None:
            sound.append(command)
        else:
            faults.append(
                Fault(
                    group=hook.group,
                    index=hook.index,
                    command=command,
                    why=why,
                    command_only=at_entry is None,
                    goal=_pinned(why, command, goal_exists),
                )
            )
    return sound, faults


def repaired(
    document: dict[str, object],
    agent: HostAgent,
    *,
    goal_exists: Callable[[str], bool],
    fresh: Mapping[str, object],
    add: bool = True,
) -> dict[str, object] | None:
    """``document`` with its goalfile Stop hooks made sound, or None when they are already
    (or there is none). Each faulty entry of ours is taken out (a matcher group it leaves empty
    too); when no sound one is left (and ``add``), one is added in a matcher group of its own:
    the first faulty entry's command repaired (:func:`repaired_command`), with its timeout
    keys, else ``fresh``. Pure: ``document`` is not modified."""
    from goalfile.hostjson import EVENT

    sound, faults = review(document, agent, goal_exists=goal_exists)
    if not faults:
        return None
    event = EVENT[agent]
    hooks = document["hooks"]
    assert isinstance(hooks, dict)
    groups = hooks[event]
    assert isinstance(groups, list)
    out: list[object] = []
    drop = {(f.group, f.index) for f in faults}
    for g, group in enumerate(groups):
        inner = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(group, dict) or not isinstance(inner, list):
            out.append(group)
            continue
        kept = [entry for i, entry in enumerate(inner) if (g, i) not in drop]
        if kept or len(kept) == len(inner):
            out.append({**group, "hooks": kept})
    if add and not sound:
        first = faults[0]
        entry = groups[first.group]["hooks"][first.index]
        allowed = ENTRY_KEYS[agent] - {"type", "command"}
        ours: dict[str, object] = {"type": "command", "command": ""}
        ours.update({k: v for k, v in fresh.items() if k not in ("type", "command")})
        ours.update({k: v for k, v in entry.items() if k in allowed})
        ours["command"] = repaired_command(first.command, agent, goal_exists=goal_exists)
        out.append({"hooks": [ours]})
    return {**document, "hooks": {**hooks, event: out}}
