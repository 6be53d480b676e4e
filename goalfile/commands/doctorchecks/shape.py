"""Each goalfile Stop hook is in the one shape that runs goalfile's hook and hands its answer to
the host (:mod:`goalfile.hookshape`), names no goal git does not hold, and ``--fix-hooks``,
which repairs those of the project's own files.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from goalfile import codexconfig, files, hookshape, hostenv, hostjson
from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import FIX_HOOKS, TRUST_CODEX, Check, Finding
from goalfile.commands.doctorchecks.settingsfiles import (
    editable,
    load_or_empty,
    load_settings,
    settings_files,
    shown_from,
)
from goalfile.commands.hookgoal import goal_option, hidden_settings
from goalfile.errors import GoalfileError
from goalfile.hostjson import HostAgent


def shape_findings(root: Path, ctx: Context) -> list[Finding]:
    """A problem for each goalfile Stop hook, in every settings file a host reads hooks from,
    that would not hold the agent (:mod:`goalfile.hookshape`), and for Claude Code's
    ``disableAllHooks`` in any of its settings files (it then runs no hook at all)."""
    found: list[Finding] = []
    exists = goal_option(root, committed=True)
    staged = goal_option(root, committed=False)
    for agent in hostjson.SETTINGS:
        event = hostjson.EVENT[agent]
        hook = Check(agent.value, "hook")
        for path in settings_files(root, agent, ctx.env):
            shown = shown_from(path, ctx)
            try:
                document, text = load_settings(path)
            except GoalfileError:
                continue  # named by the hook and timeout checks
            if agent is HostAgent.CLAUDE and (value := hookshape.disabled(document)):
                found.append(
                    hook.problem(
                        detail=f'{shown}: "disableAllHooks": {value}: Claude Code runs no hook '
                        "at all, the Stop hook included, and lets the agent stop",
                        fix=FIX_HOOKS,
                        hint=f'or delete "disableAllHooks" from {shown} by hand',
                    )
                )
            _, faults = hookshape.review(document, agent, goal_exists=exists)
            for fault in faults:
                fixable = path.suffix != ".toml" or (
                    fault.command_only and _toml_command(text or "", document, fault, root)
                )
                effect = "pins the hook unsoundly" if fault.pinned else "never holds the agent"
                hint = None
                if not fixable:
                    hint = (
                        "write the entry as `[[hooks.Stop.hooks]]` with `type = "
                        f'"command"`, `command = "{hostjson.hook_command(agent)}"` and '
                        f"`timeout` only, in {shown}, by hand"
                    )
                elif fault.goal is not None and staged(fault.goal):
                    hint = _commit_pinned(root / Path(fault.goal).expanduser(), ctx)
                found.append(
                    hook.problem(
                        detail=f"{shown}: {fault.where(event)}: `{fault.command}` {effect}: "
                        f"{fault.why}",
                        fix=FIX_HOOKS if fixable else None,
                        hint=hint,
                    )
                )
    return found


def _commit_pinned(goal: Path, ctx: Context) -> str:
    """What makes a hook's ``--goal`` on ``goal`` sound when git's index holds the file (it
    was activated, and not committed yet): the commit, as a person runs it from here."""
    from goalfile.shellword import shell_word

    name = os.path.relpath(goal, ctx.cwd)
    message = shell_word(f"goal: {Path(name).stem}")
    return (
        f"or keep the option: git's index holds {name}, so committing it makes the option "
        f"sound (`git commit -m {message} -- {shell_word(name)}`)"
    )


def hidden_settings_findings(root: Path, ctx: Context) -> list[Finding]:
    """A host settings file git's index marks skip-worktree or assume-unchanged: its edits no
    longer show in `git status` or `git diff`, so the hook it registers may not be the one
    committed."""
    from goalfile.shellword import shell_word

    found = []
    for host, name, marks in hidden_settings(root):
        shown = os.path.relpath(root / name, ctx.cwd)
        found.append(
            Check(host, "hook").problem(
                detail=f"{shown} is marked {' and '.join(marks)} in git's index: `git status` "
                "and `git diff` do not show its changes, so the hook command in it may not be "
                "the one committed",
                # one mark per command: git applies only the last of two such options
                fix=" && ".join(
                    f"git update-index --no-{mark} -- {shell_word(shown)}" for mark in marks
                ),
            )
        )
    return found


def _toml_command(text: str, document: object, fault: hookshape.Fault, root: Path) -> str | None:
    """``config.toml`` text with the faulty hook's command repaired; None when this edit
    cannot make it (a hook written other than as a ``[[hooks.Stop.hooks]]`` table)."""
    import copy

    command = hookshape.repaired_command(
        fault.command, HostAgent.CODEX, goal_exists=goal_option(root, committed=True)
    )
    expected = copy.deepcopy(document)
    try:
        expected["hooks"]["Stop"][fault.group]["hooks"][fault.index]["command"] = command  # type: ignore[index]
        return codexconfig.set_hook_entry(
            text,
            event="Stop",
            group=fault.group,
            index=fault.index,
            changes={"command": command},
            expected=expected,  # type: ignore[arg-type]
        )
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def fix_hooks(root: Path, ctx: Context) -> list[str]:
    """Make every goalfile Stop hook a host reads sound, and take Claude Code's
    ``disableAllHooks`` out of each of its settings files: each faulty hook entry is taken out
    and, where no sound one is left in its file, the hook is registered in its place (its
    sound options kept; :func:`goalfile.hookshape.repaired`); in a Codex ``config.toml``, only a
    command is rewritten. What changed, one sentence each. Raises GoalfileError when a file
    cannot be written (it is left as it was)."""
    done: list[str] = []
    exists = goal_option(root, committed=True)
    for agent in hostjson.SETTINGS:
        # a hook is put in place of a faulty one only where the host has no sound one in any
        # of its files, and only once: a host runs every Stop hook it reads (two verifies)
        placed = any(
            hookshape.review(load_or_empty(path), agent, goal_exists=exists)[0]
            for path in settings_files(root, agent, ctx.env)
        )
        for path, document, text in editable(root, agent, ctx):
            shown = shown_from(path, ctx)
            if path.suffix == ".toml":
                new = text
                for fault in hookshape.review(document, agent, goal_exists=exists)[1]:
                    edited = (
                        _toml_command(new, document, fault, root) if fault.command_only else None
                    )
                    if edited is not None:
                        new, document = edited, tomllib.loads(edited)
                        done.append(f"{shown}: `{fault.command}` → the Stop hook's own command")
                if new != text:
                    files.write_atomic(path, new)
                continue
            changes: list[str] = []
            if risky := hostenv.risky_settings(document, agent):
                document = hostenv.without_risky(document, risky)
                changes += [f"{setting.where} taken out" for setting in risky]
            if agent is HostAgent.CLAUDE and hookshape.disabled(document):
                document = {k: v for k, v in document.items() if k != "disableAllHooks"}
                changes.append('"disableAllHooks" taken out')
            faults = hookshape.review(document, agent, goal_exists=exists)[1]
            fresh = hostjson.merge_stop_hook({}, agent=agent)[0]["hooks"]
            entry = fresh[hostjson.EVENT[agent]][0]["hooks"][0]  # type: ignore[index]
            mended = hookshape.repaired(
                document, agent, goal_exists=exists, fresh=entry, add=not placed
            )
            if mended is not None:
                document, placed = mended, True
                changes += [f"`{fault.command}` taken out" for fault in faults]
                sound = hookshape.review(document, agent, goal_exists=exists)[0]
                changes.append(f"the Stop hook is `{sound[0]}`" if sound else "")
            if changes:
                hostjson.write_atomic(path, hostjson.render(document, like=text))
                done += [f"{shown}: {change}" for change in changes if change]
                if agent is HostAgent.CODEX:
                    done.append(
                        f"{shown}: Codex runs a changed hook only once it is trusted again: "
                        f"`{TRUST_CODEX}`, or `/hooks` in Codex"
                    )
    return done
