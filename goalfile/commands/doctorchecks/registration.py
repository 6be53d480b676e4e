"""Is ``goalfile hook stop`` registered in each host's hook file, and is the program it starts
on the PATH the host uses?
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

from goalfile import codexconfig, hookshape, hostjson
from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import FIX_HOOKS, INIT_HOOKS, Check, Finding
from goalfile.commands.doctorchecks.oddfile import odd_file
from goalfile.commands.doctorchecks.settingsfiles import load_settings, shown_from, this_goalfile
from goalfile.commands.hookgoal import goal_option
from goalfile.errors import GoalfileError
from goalfile.hookentries import hook_entries
from goalfile.hostjson import HostAgent
from goalfile.termsafe import file_name


def _registered(document: object, event: str) -> list[str]:
    """Every command of ours registered under ``hooks.<event>``."""
    found: list[str] = []
    for hook in hook_entries(document, event):
        if isinstance(hook.command, str) and hostjson.is_ours(hook.command):
            found.append(hook.command)
    return found


def _program(command: str) -> str:
    """The program a registered command starts (past an `env X=1` prefix)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    for index, word in enumerate(words):
        if os.path.basename(word) == "goalfile" and words[index + 1 : index + 3] == [
            "hook",
            "stop",
        ]:
            return word
    return words[0] if words else "goalfile"


def hook_findings(root: Path, agent: HostAgent, ctx: Context) -> tuple[list[Finding], list[str]]:
    host = agent.value
    hook = Check(host, "hook")
    path = hostjson.settings_path(root, agent)
    shown = os.path.relpath(path, ctx.cwd) if path.is_relative_to(ctx.cwd) else str(path)
    try:
        document, text = hostjson.load(path)
    except GoalfileError as exc:
        # the file named as the other findings name it, and without the error's own fix
        # (init's "run this again"): doctor prints its own, and never writes the file
        at = ":".join([shown, *(str(n) for n in (exc.line, exc.column) if n is not None)])
        message = exc.message.removesuffix("; the file was left untouched")
        return [
            hook.problem(
                detail=f"{at}: {message}",
                hint=f"fix {shown} by hand, then run `{INIT_HOOKS}`",
            )
        ], []
    commands = _registered(document, hostjson.EVENT[agent])
    sound, _ = hookshape.review(document, agent, goal_exists=goal_option(root, committed=True))
    if agent is HostAgent.CODEX:
        return _codex_hook_findings(root, ctx, path, commands, text is None, bool(sound))
    if commands and not sound:
        return [
            hook.problem(
                detail=f"{shown} registers no Stop hook doctor accepts for {agent.value}: "
                "each `goalfile hook stop` command there never holds the agent, or pins it "
                "unsoundly (named below)",
                fix=FIX_HOOKS,
            )
        ], commands
    if text is None or not commands:
        what = "does not exist" if text is None else "does not register `goalfile hook stop`"
        return [
            hook.problem(
                detail=f"{shown} {what}: {agent.value} will not run the Stop hook",
                fix=INIT_HOOKS,
            )
        ], []
    found = [hook.ok(detail=f"Stop hook in {shown}")]
    return found + _path_findings(host, commands, shown, ctx), commands


def _codex_hook_findings(
    root: Path, ctx: Context, project: Path, commands: list[str], missing: bool, sound: bool
) -> tuple[list[Finding], list[str]]:
    """Codex: the Stop hook in any file Codex reads hooks from (``.codex/hooks.json``, whose
    ``commands`` are given, a ``config.toml``, the user's ``hooks.json``); a problem when no
    file declares it, or more than one does (Codex runs each: two verifies per stop)."""
    declared: dict[Path, list[str]] = {project: commands} if commands else {}
    hook = Check("codex", "hook")
    found: list[Finding] = []
    for path in codexconfig.hook_files(root, ctx.env):
        if path == project:
            continue
        named = shown_from(path, ctx)
        ours = path.is_relative_to(root)  # the project's: a clone shares it
        odd = odd_file(path, root=root if ours else None, shown=named)
        if odd is not None and (ours or path.suffix == ".toml"):
            found.append(
                hook.problem(detail=f"{named}, where Codex reads hooks, {odd.what}", fix=odd.fix)
            )
            if not odd.readable:
                continue
        try:
            document, _ = load_settings(path)
        except GoalfileError as exc:
            if path.suffix != ".toml":  # the user's hooks.json: the timeout check names it
                continue
            at = ":".join([named, *(str(n) for n in (exc.line, exc.column) if n is not None)])
            message = exc.message.removesuffix("; the file was left untouched")
            found.append(
                hook.problem(
                    detail=f"{at}: Codex cannot read the hooks in it: {message}",
                    hint=f"fix {named} by hand",
                )
            )
            continue
        mine = _registered(document, hostjson.EVENT[HostAgent.CODEX])
        if mine:
            declared[path] = mine
        good, _ = hookshape.review(
            document, HostAgent.CODEX, goal_exists=goal_option(root, committed=True)
        )
        sound = sound or bool(good)
    shown = shown_from(project, ctx)
    if not declared:
        what = "does not exist" if missing else "does not register `goalfile hook stop`"
        found.append(
            hook.problem(
                detail=f"{shown} {what}, and no config.toml Codex reads declares it: codex will "
                "not run the Stop hook",
                fix=INIT_HOOKS,
            )
        )
        return found, []
    names = [shown_from(path, ctx) for path in declared]
    if len(declared) > 1:
        found.append(
            hook.problem(
                detail=f"the Stop hook is declared in {' and in '.join(names)}: Codex runs "
                "each of them, so every stop runs the hook (and writes a verify entry) "
                f"{len(declared)} times",
                hint="keep one: delete the goalfile Stop hook from all but one of "
                + ", ".join(names),
            )
        )
    elif not sound:
        found.append(
            hook.problem(
                detail=f"{names[0]} registers no Stop hook doctor accepts for codex: each "
                "`goalfile hook stop` command there never holds the agent, or pins it unsoundly "
                "(named below)",
                fix=FIX_HOOKS,
            )
        )
    else:
        found.append(hook.ok(detail=f"Stop hook in {names[0]}"))
    every = [command for listed in declared.values() for command in listed]
    for name, listed in zip(names, declared.values(), strict=True):  # each with its file
        found += _path_findings("codex", listed, name, ctx)
    return found, every


def _path_findings(host: str, commands: list[str], shown: str, ctx: Context) -> list[Finding]:
    """Whether the program each registered command starts is on PATH."""
    on_path = Check(host, "path")
    found: list[Finding] = []
    for command in dict.fromkeys(commands):
        program = _program(command)
        where = shutil.which(program, path=ctx.env.get("PATH"))
        if where is not None:
            found.append(on_path.ok(detail=f"`{program}` is {file_name(where)}"))
            continue
        here = this_goalfile(ctx.env)
        found.append(
            on_path.problem(
                detail=f"`{command}` cannot start: `{program}` is not on PATH",
                hint=(
                    "put goalfile on the PATH the host starts with (activate the virtual "
                    "environment that holds it before starting the host"
                    + (
                        f", or `mkdir -p ~/.local/bin && ln -s {shlex.quote(here)} "
                        "~/.local/bin/goalfile` with "
                        "~/.local/bin on that PATH"
                        if here
                        else ""
                    )
                    + f"), or write its full path into the command in {shown}"
                    + (f" ({here})" if here else "")
                ),
            )
        )
    return found
