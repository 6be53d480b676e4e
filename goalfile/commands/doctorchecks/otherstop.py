"""No other hook can let the agent stop whatever the Stop hook answers (:mod:`goalfile.otherhooks`),
and ``--remove-other-stop-hooks``, which takes those of the project's own JSON files out.
"""

from __future__ import annotations

from pathlib import Path

from goalfile import hostjson, hosttimeouts, otherhooks
from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import (
    REMOVE_OTHER_STOP_HOOKS,
    TRUST_CODEX,
    Check,
    Finding,
    Health,
)
from goalfile.commands.doctorchecks.settingsfiles import (
    at_line,
    editable,
    load_settings,
    managed_files,
    project_file,
    settings_files,
    shown_from,
)
from goalfile.errors import GoalfileError
from goalfile.hostjson import HostAgent


def other_hook_findings(root: Path, ctx: Context) -> list[Finding]:
    """A problem for each hook that is not goalfile's on a host's stop event, in every file the
    host reads hooks from (the project's, the user's, an administrator's): it answers at the
    same moment, and one answering ``{"continue": false}`` ends the session whatever goalfile's
    answers; an ``unknown`` for each on another event (it can end the session too, before the
    Stop hook runs; goalfile cannot tell what it answers); and a problem for each key that
    turns hooks off or restricts them to managed ones (:mod:`goalfile.otherhooks`)."""
    found: list[Finding] = []
    for agent in hostjson.SETTINGS:
        name = hosttimeouts.HOST_NAME[agent]
        managed = managed_files(agent, ctx.env)
        for path in [*settings_files(root, agent, ctx.env), *managed]:
            is_managed = path in managed
            shown = shown_from(path, ctx)
            try:
                document, text = load_settings(path)
            except GoalfileError as exc:
                if is_managed:  # the others are named by the hook and timeout checks
                    found.append(
                        Check(agent.value, "other-hook").unknown(
                            detail=f"cannot tell which hooks {name} runs: {exc.render()}",
                            hint=f"ask whoever manages {shown} to fix it",
                        )
                    )
                continue
            if text is None:
                continue
            by_hand = (
                f"it is an administrator's file: ask whoever manages {shown} to take it out"
                if is_managed
                else None
            )
            for switch in otherhooks.switches(document, agent, managed=is_managed):
                if switch.path == ("disableAllHooks",) and not is_managed:
                    continue  # shape_findings names it, with its fix
                line = otherhooks.key_line(text, switch.path, toml=path.suffix == ".toml")
                found.append(
                    Check(agent.value, "hooks-off").problem(
                        detail=f"{at_line(shown, line)}: {switch.shown}: {switch.why}",
                        hint=by_hand or f"delete {switch.shown} from {shown} by hand",
                    )
                )
            for hook in otherhooks.other_hooks(document, agent):
                at = at_line(shown, otherhooks.line_of(text, hook.label))
                found.append(_other_hook_finding(hook, agent, at=at, shown=shown,
                                                 fixable=project_file(path, root),
                                                 by_hand=by_hand))  # fmt: skip
    return found


def _other_hook_finding(
    hook: otherhooks.OtherHook,
    agent: HostAgent,
    *,
    at: str,
    shown: str,
    fixable: bool,
    by_hand: str | None,
) -> Finding:
    """A hook that is not goalfile's: a problem on the host's stop event (fixable: in one of
    the project's own settings files), else an ``unknown``."""
    name = hosttimeouts.HOST_NAME[agent]
    ends = '`{"continue": false}`'
    if not hook.at_stop:
        health, fix = Health.UNKNOWN, None
        detail = (
            f"is a {hook.event} hook {name} runs: one that ever answers {ends} ends the session "
            "before the Stop hook is asked; goalfile cannot tell what it answers"
        )
        hint = f"keep it if you know what it prints; else delete it from {shown}"
    else:
        health, fix = Health.PROBLEM, REMOVE_OTHER_STOP_HOOKS if fixable else None
        detail = (
            f"is a {hook.event} hook that is not goalfile's: {name} runs it beside goalfile's, "
            f"and if it answers {ends} {name} ends the session whatever goalfile's hook answers"
        )
        hint = (
            f"it takes only the {hook.event} hooks that are not goalfile's out of {shown}"
            if fixable
            else by_hand or f"delete {hook.where} (`{hook.label}`) from {shown} by hand"
        )
    return Finding(
        host=agent.value,
        check="other-hook",
        health=health,
        detail=f"{at}: {hook.where}: `{hook.label}` {detail}",
        fix=fix,
        hint=hint,
    )


def fix_other_hooks(root: Path, ctx: Context) -> list[str]:
    """Take every hook that is not goalfile's on a host's stop event out of the project's own
    JSON settings files (never the user's or an administrator's, never another event's, never
    a ``config.toml``); what was taken out, one sentence each, naming the file, the key path
    and the command. Raises GoalfileError when a file cannot be written (it is left as it
    was)."""
    done: list[str] = []
    for agent in hostjson.SETTINGS:
        for path, document, text in editable(root, agent, ctx):
            if not project_file(path, root):
                continue
            changed = otherhooks.without_stop_hooks(document, agent)
            if changed is None:
                continue
            new, taken = changed
            hostjson.write_atomic(path, hostjson.render(new, like=text))
            shown = shown_from(path, ctx)
            done += [
                f"{shown}: {hook.where}: `{hook.label}` taken out (a {hook.event} hook that is "
                "not goalfile's)"
                for hook in taken
            ]
            if agent is HostAgent.CODEX:  # a hook's key holds its place in the file
                done.append(
                    f"{shown}: Codex runs a hook whose place changed only once it is trusted "
                    f"again: `{TRUST_CODEX}`, or `/hooks` in Codex"
                )
    return done
