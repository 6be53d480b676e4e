"""`goalfile doctor`: is this repository set up so that each host really holds its agent to
the goal? Each finding is ``ok``, ``problem`` (with the command that fixes it) or ``unknown``
(goalfile cannot tell, and says why).

Checked, for each host with a hook file (Claude Code, Codex, Gemini CLI):

* the hook file (``.claude/settings.json``, ``.codex/hooks.json``, ``.gemini/settings.json``)
  is there, is valid JSON and registers ``goalfile hook stop``; for Codex, a Stop hook declared
  in a ``config.toml`` (the project's ``.codex/config.toml`` or the user's) counts as well, and
  one declared in more than one of its files is a problem: Codex runs each of them;
* each goalfile Stop hook, in every settings file a host reads hooks from, is in the one
  shape that runs goalfile's hook and hands its answer to the host (:mod:`goalfile.hookshape`:
  not ``goalfile hook stop > /dev/null``, ``echo goalfile hook stop``, an ``"async"`` entry),
  and no Claude Code settings file sets ``disableAllHooks``; ``goalfile doctor --fix-hooks``
  repairs them;
* the program the registered command starts (``goalfile``) is on the PATH the host will use
  (this process's PATH: hosts pass theirs on to hooks);
* Codex only: the hook is trusted in the user's ``config.toml``; Codex skips an untrusted
  project hook without a word. Only ``codex app-server`` knows the hash to compare, so without
  ``codex`` on PATH the answer is "cannot tell";
* the time each host gives a goalfile Stop hook, in every settings file it reads hooks from
  (Claude Code: ``.claude/settings.json``, ``.claude/settings.local.json`` and the user's
  ``settings.json``; Codex: ``hooks.json`` and ``config.toml`` in ``.codex/`` and in
  ``$CODEX_HOME``; Gemini CLI:
  ``.gemini/settings.json`` and ``~/.gemini/settings.json``), is not below the hook's own
  ``--timeout`` (:mod:`goalfile.hosttimeouts`): a host kills a hook at its timeout and lets
  the agent stop unheard. ``goalfile doctor --fix-timeouts`` brings each such hook into line;
* no other hook can let the agent stop whatever the Stop hook answers
  (:mod:`goalfile.otherhooks`): a hook that is not goalfile's at a host's stop event, in the
  project's, the user's or an administrator's settings (:func:`managed_files`), is a problem
  (``goalfile doctor --remove-other-stop-hooks`` takes those of the project's own JSON files
  out), one at another event is ``unknown``, and a switch that turns hooks off or keeps only
  managed ones is a problem; a Codex hook turned off in ``/hooks`` is reported with its trust;
* no variable a host's settings give the hook decides which ``goalfile`` it starts, how the
  host starts it, or what it does (:mod:`goalfile.hostenv`: Claude Code's ``env``, a Gemini
  CLI hook entry's ``env``; ``PATH``, Python's, a shell's, ``GOALFILE_*``, ``GIT_*``, Claude
  Code's ``CLAUDE_CODE_SHELL_PREFIX`` and its other hook and shell variables); for ``PATH`` the
  program it resolves to is named beside this goalfile. ``--fix-hooks`` takes them out of the
  project's own files; one in the ``.env`` file Gemini CLI loads is ``unknown``;
* pi: goalfile's extension ``.pi/extensions/goalfile/`` is there and is the one goalfile
  ships, the former ``.pi/extensions/goalfile.ts`` is gone (pi loads a ``.ts`` through jiti's
  file cache; an entry there that pi would run instead is named, :mod:`goalfile.jiticache`),
  the project's path lets Node import the ``.mjs`` as it is (else it goes through that cache
  too), and no other extension is loaded beside it (:mod:`goalfile.piothers`);
* the skills in ``.agents/skills/`` and ``.claude/skills/`` are installed, current and valid
  (a ``SKILL.md`` whose frontmatter names the skill and describes it).
"""

from __future__ import annotations

import math
import os
import re
import shlex
import shutil
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from goalfile import (
    blockcap,
    codexconfig,
    files,
    hookshape,
    hostenv,
    hostjson,
    hosttimeouts,
    otherhooks,
)
from goalfile.commands.context import Context
from goalfile.commands.hookgoal import goal_option, hidden_settings
from goalfile.commands.skills import AGENTS_DIR, CLAUDE_DIR, State, read_manifest, shipped_skills
from goalfile.commands.skills import skill_state as state_of
from goalfile.commands.workdir import repository_top
from goalfile.errors import ExitCode, GoalfileError
from goalfile.hookentries import hook_entries
from goalfile.hostjson import HostAgent
from goalfile.hostprotocol import HOOK_TIMEOUT_MAX
from goalfile.hosttimeouts import StopHook, format_seconds

SCHEMA_VERSION = 1
INIT_HOOKS = "goalfile init --no-goal --no-skills"
TRUST_CODEX = "goalfile init --no-goal --no-skills --trust-codex"
FIX_TIMEOUTS = "goalfile doctor --fix-timeouts"
FIX_HOOKS = "goalfile doctor --fix-hooks"
REMOVE_OTHER_STOP_HOOKS = "goalfile doctor --remove-other-stop-hooks"


class Health(StrEnum):
    OK = "ok"
    PROBLEM = "problem"
    UNKNOWN = "unknown"


@dataclass(frozen=True, kw_only=True)
class Finding:
    host: str  # "claude", "codex", "skills"
    check: str  # "hook", "path", "trust", "skill"
    health: Health
    detail: str
    fix: str | None = None  # a command that fixes it, as written
    hint: str | None = None  # what to do when no command can

    def to_json(self) -> dict[str, object]:
        return {
            "host": self.host,
            "check": self.check,
            "health": self.health.value,
            "detail": self.detail,
            "fix": self.fix,
            "hint": self.hint,
        }


@dataclass(frozen=True)
class _Check:
    """One check of one host, to write its findings by their health:
    ``_Check("codex", "trust").problem(detail=..., fix=..., hint=...)``."""

    host: str
    check: str

    def ok(self, *, detail: str) -> Finding:
        return Finding(host=self.host, check=self.check, health=Health.OK, detail=detail)

    def problem(self, *, detail: str, fix: str | None = None, hint: str | None = None) -> Finding:
        return Finding(
            host=self.host,
            check=self.check,
            health=Health.PROBLEM,
            detail=detail,
            fix=fix,
            hint=hint,
        )

    def unknown(self, *, detail: str, hint: str | None = None) -> Finding:
        return Finding(
            host=self.host, check=self.check, health=Health.UNKNOWN, detail=detail, hint=hint
        )


@dataclass(frozen=True, kw_only=True)
class DoctorResult:
    root: str
    findings: tuple[Finding, ...]
    fixed: tuple[str, ...] = ()  # what --fix-timeouts changed, one sentence each

    @property
    def ok(self) -> bool:
        return all(f.health is not Health.PROBLEM for f in self.findings)

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.ok else ExitCode.UNMET

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": SCHEMA_VERSION,
            "root": self.root,
            "ok": self.ok,
            "findings": [f.to_json() for f in self.findings],
            "fixed": list(self.fixed),
            "exit_code": int(self.exit_code),
        }


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
    hook = _Check(host, "hook")
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
    hook = _Check("codex", "hook")
    found: list[Finding] = []
    for path in codexconfig.hook_files(root, ctx.env):
        if path == project:
            continue
        try:
            document, _ = _load(path)
        except GoalfileError as exc:
            if path.suffix != ".toml":  # the user's hooks.json: the timeout check names it
                continue
            found.append(
                hook.problem(
                    detail=f"Codex cannot read the hooks in it: {exc.render()}",
                    hint=f"fix {_shown(path, ctx)} by hand",
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
    shown = _shown(project, ctx)
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
    names = [_shown(path, ctx) for path in declared]
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
    return found + _path_findings("codex", every, names[0], ctx), every


def _path_findings(host: str, commands: list[str], shown: str, ctx: Context) -> list[Finding]:
    """Whether the program each registered command starts is on PATH."""
    on_path = _Check(host, "path")
    found: list[Finding] = []
    for command in dict.fromkeys(commands):
        program = _program(command)
        where = shutil.which(program, path=ctx.env.get("PATH"))
        if where is not None:
            found.append(on_path.ok(detail=f"`{program}` is {where}"))
            continue
        here = _this_goalfile(ctx.env)
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


def _this_goalfile(env: Mapping[str, str]) -> str | None:
    """The `goalfile` program to name in a fix: the one on PATH, else the one installed
    beside the Python that runs this goalfile (its virtual environment's), else None."""
    here = shutil.which("goalfile", path=env.get("PATH"))
    if here is not None:
        return here
    import sys

    beside = Path(sys.executable).with_name("goalfile")
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None


def codex_trust_findings(root: Path, ctx: Context) -> list[Finding]:
    trust = _Check("codex", "trust")
    hooks = codexconfig.list_hooks(root, ctx.env)
    if isinstance(hooks, str):
        return [
            trust.unknown(
                detail=f"cannot tell whether Codex trusts the hook: {hooks}",
                hint="in Codex, open `/hooks` and trust `goalfile hook stop --agent codex`",
            )
        ]
    ours = [h for h in hooks if hostjson.is_ours(h.command)]
    if not ours:
        return [
            trust.problem(
                detail="Codex does not list the Stop hook for this repository (is the project "
                "trusted in config.toml?)",
                hint="start `codex` in the repository and trust the project when it asks",
            )
        ]
    config = codexconfig.config_path(ctx.env)
    try:
        config_text: str | None = files.read_regular_text(config, what="Codex configuration")
    except (OSError, UnicodeDecodeError, GoalfileError):
        config_text = None
    found = []
    for hook in ours:
        try:
            recorded = codexconfig.trusted_hash(config_text, hook.key) if config_text else None
        except ValueError:
            recorded = None
        if not hook.enabled:
            found.append(
                trust.problem(
                    detail=f"the Stop hook is turned off: {hook.key} has `enabled = false` in "
                    f"{config}: Codex skips it and lets the agent stop",
                    hint=f'delete `enabled = false` under `[hooks.state."{hook.key}"]` in '
                    f"{config} by hand, or turn the hook on in `/hooks` in Codex",
                )
            )
        elif recorded is not None and recorded != hook.current_hash:
            found.append(
                trust.problem(
                    detail=f"the Stop hook changed since it was trusted: {config} records "
                    f"{recorded}, Codex now computes {hook.current_hash}; Codex skips it",
                    fix=TRUST_CODEX,
                    hint="or open `/hooks` in Codex and trust it again",
                )
            )
        elif hook.trust == "trusted":
            found.append(trust.ok(detail=f"the Stop hook is trusted ({config})"))
        else:
            found.append(
                trust.problem(
                    detail=f"the Stop hook is {hook.trust} in {config}: Codex skips it without "
                    "a word until it is trusted",
                    fix=TRUST_CODEX,
                    hint="or open `/hooks` in Codex and trust it",
                )
            )
    return found


def trust_codex(root: Path, ctx: Context) -> list[str]:
    """Trust every goalfile Stop hook Codex lists for ``root``: write its current hash into
    config.toml. The hooks trusted (their keys); raises GoalfileError when that is not
    possible."""
    hooks = codexconfig.list_hooks(root, ctx.env)
    if isinstance(hooks, str):
        raise GoalfileError(
            f"cannot trust the Codex hook: {hooks}",
            hint="in Codex, open `/hooks` and trust `goalfile hook stop --agent codex`",
        )
    config = codexconfig.config_path(ctx.env)
    try:
        text = files.read_regular_text(config, what="Codex configuration")
    except FileNotFoundError:
        text = ""
    except OSError as exc:
        raise GoalfileError(f"cannot read: {exc.strerror or exc}", file=str(config)) from None
    trusted: list[str] = []
    new = text
    for hook in hooks:
        if not hostjson.is_ours(hook.command) or hook.trust == "trusted":
            continue
        try:
            new = codexconfig.set_trusted_hash(new, hook.key, hook.current_hash)
        except ValueError as exc:
            raise GoalfileError(
                f"cannot edit: {exc}; the file was left untouched",
                file=str(config),
                hint="open `/hooks` in Codex and trust the hook there",
            ) from None
        trusted.append(hook.key)
    if new != text:
        config.parent.mkdir(parents=True, exist_ok=True)
        files.write_atomic(config, new)
    return trusted


def pi_findings(root: Path, ctx: Context) -> list[Finding]:
    from goalfile.pi_extension import EXTENSION, EXTENSION_DIR, extension_state

    state = extension_state(root=root)
    folder = _shown(root / EXTENSION_DIR, ctx)
    module = _shown(root / EXTENSION, ctx)
    extension = _Check("pi", "extension")
    rest = [
        *_pi_extension_cached(root, ctx),
        *_former_pi_extension(root, ctx),
        *_other_pi_extensions(root, ctx),
    ]
    if state == "current":
        return [extension.ok(detail=f"goalfile's extension in {folder}"), *rest]
    if state == "missing":
        return [
            extension.problem(
                detail=f"{module} does not exist: pi will not run the Stop hook",
                fix=INIT_HOOKS,
            ),
            *rest,
        ]
    return [
        extension.problem(
            detail=f"{folder} differs from the extension this goalfile ships",
            fix=f"rm -r -- {shlex.quote(folder)} && {INIT_HOOKS}",
            hint="keep it instead if you changed it on purpose",
        ),
        *rest,
    ]


def _pi_extension_cached(root: Path, ctx: Context) -> list[Finding]:
    """goalfile's ``.mjs`` goes through jiti's file cache after all when Node cannot import it
    by its path (:func:`goalfile.jiticache.imported_as_is`): then any process of the user can
    put what pi runs in its place."""
    from goalfile import jiticache
    from goalfile.pi_extension import EXTENSION

    module = root.resolve() / EXTENSION
    if jiticache.imported_as_is(module):
        return []
    detail = (
        f"the project's path holds one of # ? % (or a tab or line break), which Node reads as "
        f"part of a URL: pi's import of {_shown(root / EXTENSION, ctx)} fails, and jiti "
        "transpiles it and keeps it in its file cache, where any process of yours can put "
        "what pi runs instead"
    )
    used = jiticache.entries_used(module, ctx.env)
    if used:
        detail += f"; pi would run {', '.join(map(str, used))} in its place"
    hint = "move the project to a folder whose path holds none of them"
    return [_Check("pi", "extension-cache").problem(detail=detail, hint=hint)]


def _former_pi_extension(root: Path, ctx: Context) -> list[Finding]:
    """``.pi/extensions/goalfile.ts``, the extension goalfile shipped before: pi loads it beside
    the current one, through jiti's file cache, where any process of the user can put the code
    pi runs instead (:mod:`goalfile.jiticache`); each entry pi would run is named."""
    from goalfile import jiticache
    from goalfile.pi_extension import FORMER, former_state

    state = former_state(root=root)
    if state is None:
        return []
    shown = _shown(root / FORMER, ctx)
    what = (
        "goalfile's former extension"
        if state == "shipped"
        else "where goalfile's extension was, a file goalfile did not ship"
    )
    detail = (
        f"{shown}: {what}; pi loads it beside .pi/extensions/goalfile/ and, as TypeScript, "
        "through jiti's file cache, where any process of yours can put what pi runs instead"
    )
    used = jiticache.entries_used((root / FORMER).resolve(), ctx.env)
    if used:
        detail += f"; pi would run {', '.join(map(str, used))} in its place"
    fix = f"rm -- {shlex.quote(shown)}"
    if used:
        fix += " " + " ".join(shlex.quote(str(entry)) for entry in used)
    return [_Check("pi", "former-extension").problem(detail=detail, fix=fix)]


def _other_pi_extensions(root: Path, ctx: Context) -> list[Finding]:
    """A problem for each extension pi loads beside goalfile's (:mod:`goalfile.piothers`): it
    runs in the same process, where it can change which program goalfile's extension runs
    (``process.env.PATH``) or end the session before goalfile's hook answers."""
    from goalfile import piothers

    check = _Check("pi", "other-extension")
    why = (
        "pi runs it in the process that runs goalfile's extension, where it can change which "
        "`goalfile` that extension starts (process.env.PATH) or end the session first"
    )
    found: list[Finding] = []
    for other in piothers.other_extensions(root, ctx.env):
        if other.path is not None:
            shown = _shown(other.path, ctx)
            if other.path.is_relative_to(root):
                fix, hint = f"rm -r -- {shlex.quote(shown)}", "keep it if you put it there"
            else:
                fix, hint = (
                    None,
                    f"remove it (rm -r -- {shlex.quote(shown)}) unless you put it there",
                )
            found.append(check.problem(detail=f"{shown}: {why}", fix=fix, hint=hint))
        elif other.settings is not None:
            shown = _shown(other.settings, ctx)
            detail = f"{shown}: {other.key}: `{other.value[:120]}`: {why}"
            hint = (
                f"delete `{other.value[:120]}` from {other.key} in {shown} unless you put it there"
            )
            found.append(check.problem(detail=detail, hint=hint))
    return found


def skill_findings(root: Path, ctx: Context) -> list[Finding]:
    skills = _Check("skills", "skill")
    found: list[Finding] = []
    shipped = shipped_skills()
    for relative in (AGENTS_DIR, CLAUDE_DIR):
        folder = root / relative
        manifest = read_manifest(folder)
        states = {skill.name: state_of(skill, folder, manifest) for skill in shipped}
        problems = {n: s for n, s in states.items() if s is not State.CURRENT}
        invalid = [
            f"{name}: {why}"
            for name, state in states.items()
            if state is not State.MISSING and (why := _invalid(folder / name, name))
        ]
        if not problems and not invalid:
            found.append(skills.ok(detail=f"{relative}: {len(states)} skills, current and valid"))
            continue
        for name, state in problems.items():
            fix = "goalfile skills install"
            if state is State.MODIFIED:
                fix += " --force"
            found.append(skills.problem(detail=f"{relative / name}: {state.value}", fix=fix))
        for message in invalid:
            found.append(
                skills.problem(
                    detail=f"{relative}/{message}", fix="goalfile skills install --force"
                )
            )
    return found


def _invalid(folder: Path, name: str) -> str | None:
    """Why ``folder`` is not a valid skill called ``name``, or None."""
    import frontmatter

    path = folder / "SKILL.md"
    try:
        meta = frontmatter.loads(files.read_regular_text(path, what="SKILL.md")).metadata
    except FileNotFoundError:
        return "no SKILL.md"
    except Exception as exc:  # YAML errors come in many types
        return f"SKILL.md frontmatter cannot be read: {exc}"
    if meta.get("name") != name:
        return f"SKILL.md names {meta.get('name')!r}, not {name!r}"
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip():
        return "SKILL.md has no description"
    return None


# --- the shape of each hook: does it run goalfile's and pass its answer through? -----------


def shape_findings(root: Path, ctx: Context) -> list[Finding]:
    """A problem for each goalfile Stop hook, in every settings file a host reads hooks from,
    that would not hold the agent (:mod:`goalfile.hookshape`), and for Claude Code's
    ``disableAllHooks`` in any of its settings files (it then runs no hook at all)."""
    found: list[Finding] = []
    exists = goal_option(root, committed=True)
    staged = goal_option(root, committed=False)
    for agent in hostjson.SETTINGS:
        event = hostjson.EVENT[agent]
        hook = _Check(agent.value, "hook")
        for path in settings_files(root, agent, ctx.env):
            shown = _shown(path, ctx)
            try:
                document, text = _load(path)
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


# --- other hooks, and switches that turn hooks off -------------------------------------------


def hidden_settings_findings(root: Path, ctx: Context) -> list[Finding]:
    """A host settings file git's index marks skip-worktree or assume-unchanged: its edits no
    longer show in `git status` or `git diff`, so the hook it registers may not be the one
    committed."""
    from goalfile.shellword import shell_word

    found = []
    for host, name, marks in hidden_settings(root):
        shown = os.path.relpath(root / name, ctx.cwd)
        found.append(
            _Check(host, "hook").problem(
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


def managed_files(agent: HostAgent, env: Mapping[str, str]) -> list[Path]:
    """The files an administrator's policy for ``agent`` is read from (they exist or not):
    Claude Code's ``managed-settings.json`` and ``managed-settings.d/*.json`` in
    ``/etc/claude-code`` (``/Library/Application Support/ClaudeCode`` on macOS); Codex's
    ``config.toml``, ``managed_config.toml`` and ``requirements.toml`` in ``/etc/codex``;
    Gemini CLI's system settings and system defaults (``/etc/gemini-cli``, or where
    ``GEMINI_CLI_SYSTEM_SETTINGS_PATH`` and ``GEMINI_CLI_SYSTEM_DEFAULTS_PATH`` say)."""
    import sys

    if agent is HostAgent.CLAUDE:
        folder = Path(
            "/Library/Application Support/ClaudeCode"
            if sys.platform == "darwin"
            else "/etc/claude-code"
        )
        try:
            drop_ins = sorted(p for p in (folder / "managed-settings.d").glob("*.json"))
        except OSError:
            drop_ins = []
        return [folder / "managed-settings.json", *drop_ins]
    if agent is HostAgent.CODEX:
        folder = Path("/etc/codex")
        return [
            folder / "config.toml",
            folder / "managed_config.toml",
            folder / "requirements.toml",
        ]
    system = Path(env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or "/etc/gemini-cli/settings.json")
    defaults = env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
    return [system, Path(defaults) if defaults else system.with_name("system-defaults.json")]


def _project_file(path: Path, root: Path) -> bool:
    """Whether ``path`` is one of the project's own settings files, which `--fix-hooks` may
    edit (a JSON file under the repository; never the user's or an administrator's)."""
    return path.suffix == ".json" and path.is_relative_to(root)


def _at(shown: str, line: int | None) -> str:
    return f"{shown}:{line}" if line is not None else shown


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
            shown = _shown(path, ctx)
            try:
                document, text = _load(path)
            except GoalfileError as exc:
                if is_managed:  # the others are named by the hook and timeout checks
                    found.append(
                        _Check(agent.value, "other-hook").unknown(
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
                    _Check(agent.value, "hooks-off").problem(
                        detail=f"{_at(shown, line)}: {switch.shown}: {switch.why}",
                        hint=by_hand or f"delete {switch.shown} from {shown} by hand",
                    )
                )
            for hook in otherhooks.other_hooks(document, agent):
                at = _at(shown, otherhooks.line_of(text, hook.label))
                found.append(_other_hook_finding(hook, agent, at=at, shown=shown,
                                                 fixable=_project_file(path, root),
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
        for path, document, text in _editable(root, agent, ctx):
            if not _project_file(path, root):
                continue
            changed = otherhooks.without_stop_hooks(document, agent)
            if changed is None:
                continue
            new, taken = changed
            hostjson.write_atomic(path, hostjson.render(new, like=text))
            shown = _shown(path, ctx)
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


def _editable(
    root: Path, agent: HostAgent, ctx: Context
) -> Iterator[tuple[Path, dict[str, object], str]]:
    """Each settings file ``agent`` reads hooks from that exists and holds an object: its path,
    document and text. One that cannot be read is passed over: the checks name it, and nothing
    in it can be edited safely."""
    for path in settings_files(root, agent, ctx.env):
        try:
            document, text = _load(path)
        except GoalfileError:
            continue
        if text is not None and isinstance(document, dict):
            yield path, document, text


def _load_or_empty(path: Path) -> object:
    try:
        return _load(path)[0]
    except GoalfileError:
        return {}


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
            hookshape.review(_load_or_empty(path), agent, goal_exists=exists)[0]
            for path in settings_files(root, agent, ctx.env)
        )
        for path, document, text in _editable(root, agent, ctx):
            shown = _shown(path, ctx)
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


# --- the environment a host's settings give the hook -----------------------------------------


def hook_env_findings(root: Path, ctx: Context) -> list[Finding]:
    """A problem for each variable a host's settings give goalfile's Stop hook that decides
    which ``goalfile`` it starts, how it is started, or what it does (:mod:`goalfile.hostenv`;
    ``CLAUDE_CODE_SHELL_PREFIX`` runs the hook through another program): Claude Code's
    ``env``, in every settings file it reads (the project's, the user's, an administrator's),
    and a Gemini CLI hook entry's ``env``. For ``PATH``, the ``goalfile`` it resolves to is
    named beside this one. ``goalfile doctor --fix-hooks`` takes them out of the project's own
    files; elsewhere a person does."""
    found: list[Finding] = []
    here = _this_goalfile(ctx.env)
    for agent in (HostAgent.CLAUDE, HostAgent.GEMINI):
        name = hosttimeouts.HOST_NAME[agent]
        managed = managed_files(agent, ctx.env) if agent is HostAgent.CLAUDE else []
        for path in [*settings_files(root, agent, ctx.env), *managed]:
            try:
                document, text = _load(path)
            except GoalfileError:
                continue  # named by the other checks
            shown = _shown(path, ctx)
            for setting in hostenv.risky_settings(document, agent):
                line = otherhooks.key_line(
                    text, tuple(p for p in setting.path if isinstance(p, str)), toml=False
                )
                detail = (
                    f"{_at(shown, line)}: {setting.where}: {name} gives the Stop hook "
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
                elif _project_file(path, root):
                    fix, hint = FIX_HOOKS, f"it takes {setting.where} out of {shown}"
                else:
                    fix, hint = None, f"delete {setting.where} from {shown} by hand"
                found.append(
                    _Check(agent.value, "hook-env").problem(detail=detail, fix=fix, hint=hint)
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
        _Check(HostAgent.CLAUDE.value, "hook-env").problem(
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
            _Check(HostAgent.CLAUDE.value, "hook-env").unknown(
                detail=f"{_at(shown, line)}: {setting.where}: Claude Code gives every hook "
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
    shown = _shown(path, ctx)
    return [
        _Check(HostAgent.GEMINI.value, "hook-env").unknown(
            detail=f"{shown}:{line}: `{name}={value[:120]}`: Gemini CLI sets it for every hook "
            "it runs, when it is not set already and the folder is trusted; it decides which "
            "`goalfile` the hook starts or what it does",
            hint=f"delete line {line} from {shown} unless you set it on purpose",
        )
        for line, name, value in hostenv.dotenv_risky(text)
    ]


# --- the host's timeout for the hook --------------------------------------------------------


def settings_files(root: Path, agent: HostAgent, env: Mapping[str, str]) -> list[Path]:
    """Every settings file ``agent`` reads hooks from, for the repository at ``root``: the
    project's (the one `goalfile init` writes first) and the user's."""
    home = Path(env.get("HOME") or Path.home()).expanduser()
    if agent is HostAgent.CLAUDE:
        given = env.get("CLAUDE_CONFIG_DIR")
        user = Path(given).expanduser() if given else home / ".claude"
        found = [
            hostjson.settings_path(root, agent),
            root / ".claude" / "settings.local.json",
            user / "settings.json",
        ]
    elif agent is HostAgent.CODEX:
        found = codexconfig.hook_files(root, env)
    else:
        found = [hostjson.settings_path(root, agent), home / ".gemini" / "settings.json"]
    kept: dict[str, Path] = {}
    for path in found:
        kept.setdefault(os.path.realpath(path), path)
    return list(kept.values())


def _load(path: Path) -> tuple[object, str | None]:
    """A host settings file, parsed: JSON, or TOML for Codex's ``config.toml``."""
    if path.suffix == ".toml":
        return codexconfig.load_hooks_toml(path)
    return hostjson.load(path)


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


def _shown(path: Path, ctx: Context) -> str:
    return os.path.relpath(path, ctx.cwd) if path.is_relative_to(ctx.cwd) else str(path)


def timeout_findings(root: Path, ctx: Context) -> list[Finding]:
    """One finding for each goalfile Stop hook in a settings file a host reads: whether the
    host gives it the time its ``--timeout`` counts on."""
    found: list[Finding] = []
    for agent in hostjson.SETTINGS:
        name = hosttimeouts.HOST_NAME[agent]
        for path in settings_files(root, agent, ctx.env):
            shown = _shown(path, ctx)
            try:
                document, text = _load(path)
            except GoalfileError as exc:
                # the project's settings and a config.toml are named by the hook check already
                if path != hostjson.settings_path(root, agent) and path.suffix != ".toml":
                    found.append(
                        _Check(agent.value, "timeout").unknown(
                            detail=f"cannot tell what time {name} gives the Stop hook: "
                            f"{exc.render()}",
                            hint=f"fix {shown} by hand",
                        )
                    )
                continue
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
    timeout = _Check(hook.agent.value, "timeout")
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
        for path, document, text in _editable(root, agent, ctx):
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
                    done.append(f"{_shown(path, ctx)}: {_by_hand(hook, _shown(path, ctx))}")
            if not changes:
                continue
            if toml:
                files.write_atomic(path, new)
            else:
                hostjson.write_atomic(path, hostjson.render(document, like=text))
            shown = _shown(path, ctx)
            done += [f"{shown}: {change}" for change in changes]
            if agent is HostAgent.CODEX:
                done.append(
                    f"{shown}: Codex runs a changed hook only once it is trusted again: "
                    f"`{TRUST_CODEX}`, or `/hooks` in Codex"
                )
    return done


def doctor(
    *,
    ctx: Context,
    fix: bool = False,
    fix_hooks_too: bool = False,
    remove_other_stop_hooks: bool = False,
) -> DoctorResult:
    root = repository_top(ctx.cwd) or ctx.cwd
    fixed = fix_hooks(root, ctx) if fix_hooks_too else []
    fixed += fix_other_hooks(root, ctx) if remove_other_stop_hooks else []
    fixed += fix_timeouts(root, ctx) if fix else []
    findings: list[Finding] = []
    for agent in hostjson.SETTINGS:
        found, commands = hook_findings(root, agent, ctx)
        findings += found
        if agent is HostAgent.CODEX and commands:
            findings += codex_trust_findings(root, ctx)
    findings += shape_findings(root, ctx)
    findings += hidden_settings_findings(root, ctx)
    findings += other_hook_findings(root, ctx)
    findings += hook_env_findings(root, ctx)
    findings += cap_env_findings(ctx)
    findings += gemini_dotenv_findings(root, ctx)
    findings += timeout_findings(root, ctx)
    findings += pi_findings(root, ctx)
    findings += skill_findings(root, ctx)
    from goalfile.commands.doctormcp import mcp_findings

    findings += mcp_findings(root)
    return DoctorResult(root=str(root), findings=tuple(findings), fixed=tuple(fixed))
