"""The time each host gives a goalfile Stop hook is not below the hook's own ``--timeout``
(:mod:`goalfile.hosttimeouts`), and ``--fix-timeouts``, which brings each such hook into line.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

from goalfile import codexconfig, files, hostjson, hosttimeouts
from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import FIX_TIMEOUTS, TRUST_CODEX, Check, Finding
from goalfile.commands.doctorchecks.settingsfiles import (
    editable,
    load_settings,
    settings_files,
    shown_from,
)
from goalfile.errors import GoalfileError
from goalfile.hostjson import HostAgent
from goalfile.hostprotocol import HOOK_TIMEOUT_MAX
from goalfile.hosttimeouts import StopHook, format_seconds


def _toml_fix(
    text: str, document: object, hook: StopHook
) -> tuple[str, dict[str, object], str] | None:
    """``config.toml`` text with ``hook`` brought into line (:func:`hosttimeouts.fix`): the new
    text, the new document and what changed; None when nothing is to change or the hook is not
    written in a shape this edit handles (then a person edits it)."""
    fixed = hosttimeouts.fix(document, hook)
    if fixed is None or not isinstance(document, dict):
        return None
    event = hostjson.EVENT[hook.agent]

    def entry(doc: dict[str, object]) -> dict[str, object]:
        value = doc["hooks"][event][hook.group]["hooks"][hook.index]  # type: ignore[index]
        assert isinstance(value, dict)
        return value

    before, after = entry(document), entry(fixed.document)
    changes = {k: v for k, v in after.items() if before.get(k) != v}
    try:
        new = codexconfig.set_hook_entry(
            text,
            event=event,
            group=hook.group,
            index=hook.index,
            changes=changes,
            expected=fixed.document,
        )
    except ValueError:
        return None
    return new, fixed.document, _toml_key(fixed.change, hook.key)


def timeout_findings(root: Path, ctx: Context) -> list[Finding]:
    """One finding for each goalfile Stop hook in a settings file a host reads: whether the
    host gives it the time its ``--timeout`` counts on."""
    found: list[Finding] = []
    for agent in hostjson.SETTINGS:
        name = hosttimeouts.HOST_NAME[agent]
        for path in settings_files(root, agent, ctx.env):
            shown = shown_from(path, ctx)
            try:
                document, text = load_settings(path)
            except GoalfileError as exc:
                # the project's settings and a config.toml are named by the hook check already
                if path != hostjson.settings_path(root, agent) and path.suffix != ".toml":
                    found.append(
                        Check(agent.value, "timeout").unknown(
                            detail=f"cannot tell what time {name} gives the Stop hook: "
                            f"{exc.location() or shown}: {exc.message}",  # its fix: not doctor's
                            hint=f"fix {shown} by hand",
                        )
                    )
                continue
            found += file_findings(path, agent, document, text, shown)
    return found


def file_findings(
    path: Path, agent: HostAgent, document: object, text: str | None, shown: str
) -> list[Finding]:
    """The timeout finding of each goalfile Stop hook in one settings file, read as
    ``document`` from ``text``, named ``shown``."""
    name = hosttimeouts.HOST_NAME[agent]
    found: list[Finding] = []
    for hook in hosttimeouts.stop_hooks(document, agent):
        finding = _timeout_finding(hook, shown, name)
        if path.suffix == ".toml":
            finding = _toml_finding(finding, hook, text or "", document, shown)
        elif finding.fix == FIX_TIMEOUTS and hosttimeouts.fix(document, hook) is None:
            finding = replace(finding, fix=None, hint=_by_hand(hook, shown))
        found.append(finding)
    return found


def _toml_key(text: str, key: str) -> str:
    """``text`` with the JSON ``"KEY": VALUE`` a finding names written as TOML says it."""
    return re.sub(rf'"{re.escape(key)}": ([^\s;,)]+)', rf"`{key} = \1`", text)


def _toml_finding(
    finding: Finding, hook: StopHook, text: str, document: object, shown: str
) -> Finding:
    """A timeout finding on a hook in Codex's ``config.toml``: its words in TOML, and no
    `--fix-timeouts` where that cannot edit the hook (a shape other than the
    ``[[hooks.Stop.hooks]]`` table): then the hint says what to write by hand."""
    detail = _toml_key(finding.detail, hook.key)
    hint = _toml_key(finding.hint, hook.key) if finding.hint else None
    if finding.fix != FIX_TIMEOUTS or _toml_fix(text, document, hook) is not None:
        return replace(finding, detail=detail, hint=hint)
    fixed = hosttimeouts.fix(document, hook)
    hook_seconds = hook.hook_seconds or hosttimeouts.DEFAULT[hook.agent]
    wanted = math.ceil(hook_seconds)
    what = (
        f"`timeout = {wanted}` in the goalfile Stop hook's entry"
        if fixed is None or "--timeout" not in fixed.change
        else f"`--timeout {format_seconds(hook.host_seconds or hook_seconds)}` into its command"
    )
    return replace(
        finding,
        detail=detail,
        fix=None,
        hint=f"`{FIX_TIMEOUTS}` edits only a `[[hooks.Stop.hooks]]` table: write {what} in "
        f"{shown} by hand",
    )


def _by_hand(hook: StopHook, shown: str) -> str:
    """What to write where `--fix-timeouts` cannot edit ``hook``'s command."""
    seconds = hook.host_seconds if hook.host_seconds is not None else hook.hook_seconds
    number = format_seconds(seconds or hosttimeouts.DEFAULT[hook.agent])
    return (
        f"`{FIX_TIMEOUTS}` cannot edit `{hook.command}`: write `--timeout {number}` right "
        f"after `hook stop` in it, in {shown}, by hand"
    )


def _timeout_finding(hook: StopHook, shown: str, name: str) -> Finding:
    timeout = Check(hook.agent.value, "timeout")
    if hook.hook_seconds is None:
        return timeout.problem(
            detail=f"{shown}: `{hook.command}`: its `--timeout` is not a number of seconds "
            f"from 1 to {HOOK_TIMEOUT_MAX}, so the hook refuses its command line and lets the "
            "agent stop",
            hint=f"write the host's timeout after `--timeout` in {shown}",
        )
    wanted = format_seconds(hook.hook_seconds)
    if hook.host_seconds is None:
        what = (
            "Codex reads only a whole number of seconds there and rejects the whole file: none "
            "of its hooks runs"
            if hook.agent is HostAgent.CODEX
            else f"{name} reads only a positive number there"
        )
        unit = "milliseconds" if hook.agent is HostAgent.GEMINI else "seconds"
        value = math.ceil(hook.hook_seconds * hosttimeouts.UNIT[hook.agent])
        return timeout.problem(
            detail=f"{shown}: the Stop hook's {hook.written_text} is no timeout: {what}",
            fix=FIX_TIMEOUTS,
            hint=f'or write "{hook.key}": {value} ({unit}) next to `{hook.command}` in {shown}',
        )
    given = format_seconds(hook.host_seconds)
    source = f"its {hook.written_text}" if hook.written is not None else "its default: "
    if hook.written is None:
        source += f"{shown} names no timeout"
    if hook.unheard:
        return timeout.problem(
            detail=f"{shown}: {name} gives the Stop hook {given} s ({source}), less than the "
            f"{wanted} s its `--timeout` counts on: {name} kills the hook before it answers "
            + (
                "and lets the agent stop unheard"
                if hook.agent is not HostAgent.GEMINI
                else "(what it then does is not established; the hook's answer is lost)"
            ),
            fix=FIX_TIMEOUTS,
            hint=f"it keeps the {given} s you gave {name} and writes `--timeout {given}` into "
            "the command"
            if hook.written is not None
            else f"it gives the hook the {wanted} s of its `--timeout` in {shown}",
        )
    return timeout.ok(
        detail=f"{shown}: {name} gives the Stop hook {given} s ({source}); its `--timeout` "
        f"counts on {wanted} s",
    )


def fix_timeouts(root: Path, ctx: Context) -> list[str]:
    """Bring every goalfile Stop hook whose host timeout is below its ``--timeout`` into line
    (:func:`goalfile.hosttimeouts.fix`), in each settings file that holds one; what changed,
    one sentence each. Raises GoalfileError when a file cannot be written (it is left as it
    was)."""
    done: list[str] = []
    for agent in hostjson.SETTINGS:
        for path, document, text in editable(root, agent, ctx):
            changes: list[str] = []
            toml = path.suffix == ".toml"
            new = text
            for hook in hosttimeouts.stop_hooks(document, agent):
                if toml:  # edited in its text, so the rest of config.toml stays as written
                    edited = _toml_fix(new, document, hook)
                    if edited is not None:
                        new, document, change = edited
                        changes.append(f"`{hook.command}`: {change}")
                    continue
                fixed = hosttimeouts.fix(document, hook)
                if fixed is not None:
                    document = fixed.document
                    changes.append(f"`{hook.command}`: {fixed.change}")
                elif hook.hook_seconds is not None and (hook.unheard or hook.host_seconds is None):
                    done.append(f"{shown_from(path, ctx)}: {_by_hand(hook, shown_from(path, ctx))}")
            if not changes:
                continue
            if toml:
                files.write_atomic(path, new)
            else:
                hostjson.write_atomic(path, hostjson.render(document, like=text))
            shown = shown_from(path, ctx)
            done += [f"{shown}: {change}" for change in changes]
            if agent is HostAgent.CODEX:
                done.append(
                    f"{shown}: Codex runs a changed hook only once it is trusted again: "
                    f"`{TRUST_CODEX}`, or `/hooks` in Codex"
                )
    return done
