"""No variable a host's settings give the hook decides which ``goalfile`` it starts, how the host
starts it, or what it does (:mod:`goalfile.hostenv`), nor a hold cap that lets Claude Code
override the hook (:mod:`goalfile.blockcap`), nor Gemini CLI's ``.env`` file.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from goalfile import blockcap, hostenv, hosttimeouts, otherhooks
from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import FIX_HOOKS, Check, Finding
from goalfile.commands.doctorchecks.settingsfiles import (
    at_line,
    load_settings,
    managed_files,
    project_file,
    settings_files,
    shown_from,
    this_goalfile,
)
from goalfile.errors import GoalfileError
from goalfile.hostjson import HostAgent


def hook_env_findings(root: Path, ctx: Context) -> list[Finding]:
    """A problem for each variable a host's settings give goalfile's Stop hook that decides
    which ``goalfile`` it starts, how it is started, or what it does (:mod:`goalfile.hostenv`;
    ``CLAUDE_CODE_SHELL_PREFIX`` runs the hook through another program): Claude Code's
    ``env``, in every settings file it reads (the project's, the user's, an administrator's),
    and a Gemini CLI hook entry's ``env``. For ``PATH``, the ``goalfile`` it resolves to is
    named beside this one. ``goalfile doctor --fix-hooks`` takes them out of the project's own
    files; elsewhere a person does."""
    found: list[Finding] = []
    here = this_goalfile(ctx.env)
    for agent in (HostAgent.CLAUDE, HostAgent.GEMINI):
        name = hosttimeouts.HOST_NAME[agent]
        managed = managed_files(agent, ctx.env) if agent is HostAgent.CLAUDE else []
        for path in [*settings_files(root, agent, ctx.env), *managed]:
            try:
                document, text = load_settings(path)
            except GoalfileError:
                continue  # named by the other checks
            shown = shown_from(path, ctx)
            for setting in hostenv.risky_settings(document, agent):
                line = otherhooks.key_line(
                    text, tuple(p for p in setting.path if isinstance(p, str)), toml=False
                )
                detail = (
                    f"{at_line(shown, line)}: {setting.where}: {name} gives the Stop hook "
                    f"`{setting.name}={setting.value[:120]}`, which decides which `goalfile` "
                    "the hook starts, how it is started, or what it does"
                )
                if setting.name.upper() == "CLAUDE_CODE_SHELL_PREFIX":
                    detail += (
                        f': {name} runs every hook command as `{setting.value[:120]} "COMMAND"`, '
                        "so that program decides whether goalfile's hook runs at all, whatever "
                        "path the command gives goalfile"
                    )
                if (cap := hostenv.lowered_cap(setting.value)) is not None and (
                    setting.name.upper() == blockcap.CAP_VARIABLE
                ):
                    detail += f": {_cap_words(name, cap)}"
                if setting.name.upper() == "PATH":
                    there = shutil.which("goalfile", path=setting.value)
                    if there is None:
                        detail += ": on that PATH there is no `goalfile`, so the hook cannot start"
                    elif here and os.path.realpath(there) == os.path.realpath(here):
                        detail += (
                            f": on it `goalfile` is this one ({there}) today, but a file named "
                            "goalfile put in a folder it names earlier would run instead"
                        )
                    else:
                        detail += (
                            f": on it `goalfile` is {there}, not this goalfile "
                            f"({here or 'not found'}), and {name} runs that as the Stop hook"
                        )
                if path in managed:
                    fix, hint = None, f"ask whoever manages {shown} to take {setting.where} out"
                elif project_file(path, root):
                    fix, hint = FIX_HOOKS, f"it takes {setting.where} out of {shown}"
                else:
                    fix, hint = None, f"delete {setting.where} from {shown} by hand"
                found.append(
                    Check(agent.value, "hook-env").problem(detail=detail, fix=fix, hint=hint)
                )
            if agent is HostAgent.CLAUDE:
                found += _unknown_env(document, text, shown)
    return found


def _cap_words(host: str, cap: int) -> str:
    return (
        f"with it {host} obeys at most {cap} Stop-hook {'hold' if cap == 1 else 'holds'} in a "
        f"row ({blockcap.DEFAULT_CAP} without it), then ends the turn with the goal not met"
    )


def cap_env_findings(ctx: Context) -> list[Finding]:
    """A problem when this environment lowers Claude Code's cap on Stop-hook holds in a row
    (:mod:`goalfile.blockcap`): a Claude Code started from it ends a turn with the goal unmet
    after that many holds."""
    value = ctx.env.get(blockcap.CAP_VARIABLE)
    cap = hostenv.lowered_cap(value) if value is not None else None
    if value is None or cap is None:
        return []
    return [
        Check(HostAgent.CLAUDE.value, "hook-env").problem(
            detail=f"the environment sets `{blockcap.CAP_VARIABLE}={value[:40]}`: "
            + _cap_words("Claude Code", cap),
            hint=f"unset {blockcap.CAP_VARIABLE} where Claude Code is started, or set it to "
            f"{blockcap.DEFAULT_CAP} or more (0: no cap)",
        )
    ]


def _unknown_env(document: object, text: str | None, shown: str) -> list[Finding]:
    """An ``unknown`` for each variable of a Claude Code settings file's ``env`` that goalfile
    cannot judge (:func:`goalfile.hostenv.is_unknown`): Claude Code gives it to every hook."""
    found = []
    for setting in hostenv.unknown_settings(document):
        line = otherhooks.key_line(text, ("env", setting.name), toml=False)
        found.append(
            Check(HostAgent.CLAUDE.value, "hook-env").unknown(
                detail=f"{at_line(shown, line)}: {setting.where}: Claude Code gives every hook "
                f"`{setting.name}={setting.value[:120]}`; goalfile cannot tell whether it "
                "changes how the Stop hook runs",
                hint=f"delete {setting.where} from {shown} unless you set it on purpose",
            )
        )
    return found


def gemini_env_file(root: Path, env: Mapping[str, str]) -> Path | None:
    """The ``.env`` file Gemini CLI 0.61.0 loads in a folder it trusts: the first of
    ``.gemini/.env`` and ``.env`` in the repository's top and each folder above it, else
    ``~/.gemini/.env``, else ``~/.env``."""
    home = Path(env.get("HOME") or Path.home()).expanduser()
    for folder in (root, *root.parents):
        for candidate in (folder / ".gemini" / ".env", folder / ".env"):
            if candidate.is_file():
                return candidate
    for candidate in (home / ".gemini" / ".env", home / ".env"):
        if candidate.is_file():
            return candidate
    return None


def gemini_dotenv_findings(root: Path, ctx: Context) -> list[Finding]:
    """An ``unknown`` for each variable of :func:`goalfile.hostenv.is_risky` in the ``.env``
    file Gemini CLI loads into its environment (and so its hooks'), each one not already set,
    in a folder it trusts: goalfile cannot tell whether the host's environment sets it."""
    path = gemini_env_file(root, ctx.env)
    if path is None:
        return []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    shown = shown_from(path, ctx)
    return [
        Check(HostAgent.GEMINI.value, "hook-env").unknown(
            detail=f"{shown}:{line}: `{name}={value[:120]}`: Gemini CLI sets it for every hook "
            "it runs, when it is not set already and the folder is trusted; it decides which "
            "`goalfile` the hook starts or what it does",
            hint=f"delete line {line} from {shown} unless you set it on purpose",
        )
        for line, name, value in hostenv.dotenv_risky(text)
    ]
