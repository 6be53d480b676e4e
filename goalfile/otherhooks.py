"""What else in a host's settings can let the agent stop whatever goalfile's Stop hook answers.

A host runs every hook it reads, and any one of them can end the session: Claude Code 2.1.332
ends it at once when a hook, of any event, answers ``{"continue": false}`` (a Stop hook's
``"decision": "approve"`` does not override goalfile's block; ``continue: false`` does, and
from a ``PreToolUse`` or ``PostToolUse`` hook the session ends before any Stop hook runs). And
a host's switches can keep goalfile's hook from running at all. This module finds both in one
parsed settings document:

* :func:`other_hooks`: every hook entry that is not goalfile's Stop hook, under any event;
  one on the host's stop event (``Stop``; Gemini CLI's ``AfterAgent``) answers at the same
  moment goalfile's does;
* :func:`switches`: the keys that turn hooks off or restrict them to an administrator's:
  Claude Code's ``disableAllHooks`` and ``allowManagedHooksOnly`` (this one only counts in
  managed settings), Codex's ``[features] hooks = false`` (``codex_hooks``, its older name,
  too; in ``[features]`` or a profile's) and ``allow_managed_hooks_only`` (in
  ``requirements.toml``), Gemini CLI's ``hooksConfig.enabled`` and ``hooksConfig.disabled``
  naming goalfile's hook;
* :func:`without_stop_hooks`: a document with the other Stop hooks taken out (what
  ``goalfile doctor --fix-hooks`` writes into a project's own settings file).

Pure: goalfile.commands.doctor reads the files.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from goalfile.hookentries import hook_entries
from goalfile.hostjson import EVENT as STOP_EVENT  # the event each host runs its Stop hook on
from goalfile.hostprotocol import HostAgent

__all__ = [
    "OtherHook",
    "Switch",
    "key_line",
    "line_of",
    "other_hooks",
    "switches",
    "without_stop_hooks",
]


@dataclass(frozen=True, kw_only=True)
class OtherHook:
    """A hook entry that is not goalfile's Stop hook, and where it is."""

    event: str
    group: int  # hooks.<event>[group].hooks[index]
    index: int
    label: str  # its command, or what it is when it has none ('"type": "prompt"')
    at_stop: bool  # on the event at which the host asks whether the agent may stop

    @property
    def where(self) -> str:
        return f"hooks.{self.event}[{self.group}].hooks[{self.index}]"


@dataclass(frozen=True, kw_only=True)
class Switch:
    """A key that keeps goalfile's hook from running, as the file writes it."""

    path: tuple[str, ...]  # its keys, such as ("disableAllHooks",) or ("features", "hooks")
    shown: str  # how to name it in a message: '"disableAllHooks": true', '`hooks = false`'
    why: str  # what the host then does


def _label(entry: object) -> str:
    if isinstance(entry, dict):
        command = entry.get("command")
        if isinstance(command, str) and command:
            return command
        return f'"type": {json.dumps(entry.get("type"))}'
    return json.dumps(entry)[:80]


def other_hooks(document: object, agent: HostAgent) -> list[OtherHook]:
    """Every hook entry of ``document`` (a host's settings, JSON or TOML) that is not
    goalfile's Stop hook or its start hook: a command that runs ``goalfile hook stop`` under the
    host's stop event is goalfile's (whether it holds the agent is :mod:`goalfile.hookshape`'s
    business), and so is ``goalfile hook start`` in its one shape under the host's start
    event (:mod:`goalfile.starthook`: nothing else in the command, so it cannot end a session);
    every other entry, under any event, is another hook, one that runs ``goalfile hook stop``
    under another event included (``goalfile hook stop; echo '{"continue": false}'`` under
    PreToolUse ends a session before any Stop hook runs)."""
    from goalfile.hostjson import is_ours
    from goalfile.starthook import START_EVENT, sound_start

    found: list[OtherHook] = []
    starts = set(sound_start(document, agent)) if agent in START_EVENT else set()
    for hook in hook_entries(document):
        at_stop = hook.event == STOP_EVENT[agent]
        if at_stop and is_ours(hook.command):  # under another event it is just a hook
            continue
        start = agent in START_EVENT and hook.event == START_EVENT[agent]
        if start and (hook.group, hook.index) in starts:  # goalfile's, in its one shape
            continue
        found.append(
            OtherHook(
                event=hook.event,
                group=hook.group,
                index=hook.index,
                label=_label(hook.entry),
                at_stop=at_stop,
            )
        )
    return found


def _claude(document: dict[str, object], *, managed: bool) -> list[Switch]:
    from goalfile.hookshape import disabled

    found: list[Switch] = []
    value = disabled(document)
    if value is not None:
        found.append(
            Switch(
                path=("disableAllHooks",),
                shown=f'"disableAllHooks": {value}',
                why="Claude Code runs no hook at all, the Stop hook included, and lets the agent "
                "stop",
            )
        )
    only = document.get("allowManagedHooksOnly")
    if managed and only not in (None, False, "false"):
        found.append(
            Switch(
                path=("allowManagedHooksOnly",),
                shown=f'"allowManagedHooksOnly": {json.dumps(only)}',
                why="Claude Code runs only the hooks of managed settings, so not the Stop hook "
                "of the project's or the user's settings, and lets the agent stop",
            )
        )
    return found


_CODEX_FEATURES = ("hooks", "codex_hooks")


def _codex(document: dict[str, object]) -> list[Switch]:
    found: list[Switch] = []
    tables: list[tuple[tuple[str, ...], object]] = [(("features",), document.get("features"))]
    profiles = document.get("profiles")
    for name, profile in profiles.items() if isinstance(profiles, dict) else ():
        if isinstance(profile, dict):
            tables.append((("profiles", name, "features"), profile.get("features")))
    for table, features in tables:
        if not isinstance(features, dict):
            continue
        for key in _CODEX_FEATURES:
            if features.get(key) is False:
                when = "" if len(table) == 1 else f", in every session of profile {table[1]}"
                found.append(
                    Switch(
                        path=(*table, key),
                        shown=f"`{key} = false` in `[{'.'.join(table)}]`",
                        why=f"Codex runs no hook at all{when}, the Stop hook included, and lets "
                        "the agent stop",
                    )
                )
    if document.get("allow_managed_hooks_only") is True:
        found.append(
            Switch(
                path=("allow_managed_hooks_only",),
                shown="`allow_managed_hooks_only = true`",
                why="Codex runs only managed hooks, so not the Stop hook of the project's or "
                "the user's files, and lets the agent stop",
            )
        )
    return found


def _gemini(document: dict[str, object]) -> list[Switch]:
    from goalfile.hostjson import is_ours

    config = document.get("hooksConfig")
    if not isinstance(config, dict):
        return []
    found: list[Switch] = []
    if "enabled" in config and config["enabled"] is not True:
        found.append(
            Switch(
                path=("hooksConfig", "enabled"),
                shown=f'"hooksConfig": {{"enabled": {json.dumps(config["enabled"])}}}',
                why="Gemini CLI runs no hook at all, the AfterAgent hook included, and lets the "
                "agent stop",
            )
        )
    names = config.get("disabled")
    for name in names if isinstance(names, list) else []:
        if isinstance(name, str) and (name == "goalfile" or is_ours(name)):
            found.append(
                Switch(
                    path=("hooksConfig", "disabled"),
                    shown=f'"hooksConfig": {{"disabled": [{json.dumps(name)}]}}',
                    why="Gemini CLI skips the hook of that name or command, goalfile's, and lets "
                    "the agent stop",
                )
            )
    return found


def switches(document: object, agent: HostAgent, *, managed: bool = False) -> list[Switch]:
    """The keys of ``document`` that keep goalfile's hook from running (``managed``: the file
    is one of an administrator's, where a host honours keys it ignores elsewhere)."""
    if not isinstance(document, dict):
        return []
    if agent is HostAgent.CLAUDE:
        return _claude(document, managed=managed)
    if agent is HostAgent.CODEX:
        return _codex(document)
    return _gemini(document)


def without_stop_hooks(
    document: dict[str, object], agent: HostAgent
) -> tuple[dict[str, object], list[OtherHook]] | None:
    """``document`` with every other hook on the host's stop event taken out (a matcher group
    it leaves empty too), and those taken out; None when there is none. Pure."""
    taken = [hook for hook in other_hooks(document, agent) if hook.at_stop]
    if not taken:
        return None
    event = STOP_EVENT[agent]
    hooks = document["hooks"]
    assert isinstance(hooks, dict)
    drop = {(hook.group, hook.index) for hook in taken}
    kept_groups: list[object] = []
    for g, group in enumerate(hooks[event]):
        inner = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(inner, list):
            kept_groups.append(group)
            continue
        kept = [entry for i, entry in enumerate(inner) if (g, i) not in drop]
        if kept:
            kept_groups.append({**group, "hooks": kept})
    new_hooks = {**hooks, event: kept_groups}
    if not kept_groups:
        del new_hooks[event]
    return {**document, "hooks": new_hooks}, taken


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def line_of(text: str | None, needle: str) -> int | None:
    """The line (from 1) where ``text`` first holds ``needle``, as JSON writes a string (else
    as it is); None when it does not."""
    if not text or not needle:
        return None
    at = text.find(json.dumps(needle, ensure_ascii=False))
    at = text.find(needle) if at < 0 else at
    return _line(text, at) if at >= 0 else None


def key_line(text: str | None, path: tuple[str, ...], *, toml: bool) -> int | None:
    """The line (from 1) of the key ``path`` names: in JSON each key looked for after the one
    before it; in TOML the key (``KEY =``) after its table's header (``[a.b]``), or anywhere
    when that header is not written so. None when it is not found."""
    if not text:
        return None
    at = 0
    if toml:
        *table, name = path
        if table:
            dotted = r"[ \t]*\.[ \t]*".join(re.escape(part) for part in table)
            header = re.search(rf"^[ \t]*\[[ \t]*{dotted}[ \t]*\][ \t]*(#.*)?$", text, re.M)
            at = header.end() if header else 0
        found = re.compile(rf"^[ \t]*{re.escape(name)}[ \t]*=", re.M).search(text, at)
        return _line(text, found.start()) if found else None
    for part in path:
        at = text.find(json.dumps(part, ensure_ascii=False), at)
        if at < 0:
            return None
    return _line(text, at)
