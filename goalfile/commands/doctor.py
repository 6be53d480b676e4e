"""`goalfile doctor`: is this repository set up so that each host really holds its agent to
the goal? Each finding is ``ok``, ``problem`` (with the command that fixes it) or ``unknown``
(goalfile cannot tell, and says why).

Checked, for each host with a hook file (Claude Code, Codex, Gemini CLI):

* the hook file (``.claude/settings.json``, ``.codex/hooks.json``, ``.gemini/settings.json``)
  is there, is valid JSON and registers ``goalfile hook stop``;
* the program the registered command starts (``goalfile``) is on the PATH the host will use
  (this process's PATH: hosts pass theirs on to hooks);
* Codex only: the hook is trusted in the user's ``config.toml``; Codex skips an untrusted
  project hook without a word. Only ``codex app-server`` knows the hash to compare, so without
  ``codex`` on PATH the answer is "cannot tell";
* pi: goalfile's extension ``.pi/extensions/goalfile.ts`` is there and is the one goalfile
  ships;
* the skills in ``.agents/skills/`` and ``.claude/skills/`` are installed, current and valid
  (a ``SKILL.md`` whose frontmatter names the skill and describes it).
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from goalfile import codexconfig, files, hostjson
from goalfile.commands.context import Context
from goalfile.commands.skills import AGENTS_DIR, CLAUDE_DIR, State, read_manifest, shipped_skills
from goalfile.commands.skills import skill_state as state_of
from goalfile.commands.workdir import repository_top
from goalfile.errors import ExitCode, GoalfileError
from goalfile.hostjson import HostAgent

SCHEMA_VERSION = 1
INIT_HOOKS = "goalfile init --no-goal --no-skills"
TRUST_CODEX = "goalfile init --no-goal --no-skills --trust-codex"


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


@dataclass(frozen=True, kw_only=True)
class DoctorResult:
    root: str
    findings: tuple[Finding, ...]

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
            "exit_code": int(self.exit_code),
        }


def _registered(document: object, event: str) -> list[str]:
    """Every command of ours registered under ``hooks.<event>``."""
    hooks = document.get("hooks") if isinstance(document, dict) else None
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    found: list[str] = []
    for group in groups if isinstance(groups, list) else []:
        inner = group.get("hooks") if isinstance(group, dict) else None
        for hook in inner if isinstance(inner, list) else []:
            command = hook.get("command") if isinstance(hook, dict) else None
            if isinstance(command, str) and hostjson.is_ours(command):
                found.append(command)
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
    path = hostjson.settings_path(root, agent)
    shown = os.path.relpath(path, ctx.cwd) if path.is_relative_to(ctx.cwd) else str(path)
    try:
        document, text = hostjson.load(path)
    except GoalfileError as exc:
        return [
            Finding(
                host=host,
                check="hook",
                health=Health.PROBLEM,
                detail=exc.render(),
                hint=f"fix {shown} by hand, then run `{INIT_HOOKS}`",
            )
        ], []
    commands = _registered(document, hostjson.EVENT[agent])
    if text is None or not commands:
        what = "does not exist" if text is None else "does not register `goalfile hook stop`"
        return [
            Finding(
                host=host,
                check="hook",
                health=Health.PROBLEM,
                detail=f"{shown} {what}: {agent.value} will not run the Stop hook",
                fix=INIT_HOOKS,
            )
        ], []
    found = [Finding(host=host, check="hook", health=Health.OK, detail=f"Stop hook in {shown}")]
    for command in dict.fromkeys(commands):
        program = _program(command)
        where = shutil.which(program, path=ctx.env.get("PATH"))
        if where is not None:
            found.append(
                Finding(
                    host=host,
                    check="path",
                    health=Health.OK,
                    detail=f"`{program}` is {where}",
                )
            )
            continue
        here = shutil.which("goalfile", path=ctx.env.get("PATH"))
        found.append(
            Finding(
                host=host,
                check="path",
                health=Health.PROBLEM,
                detail=f"`{command}` cannot start: `{program}` is not on PATH",
                hint=(
                    "put goalfile on the PATH the host starts with (`pipx install goalfile`, or "
                    "activate the project's virtual environment before starting the host), or "
                    f"write its full path into the command in {shown}"
                    + (f" ({here})" if here else "")
                ),
            )
        )
    return found, commands


def codex_trust_findings(root: Path, ctx: Context) -> list[Finding]:
    hooks = codexconfig.list_hooks(root, ctx.env)
    if isinstance(hooks, str):
        return [
            Finding(
                host="codex",
                check="trust",
                health=Health.UNKNOWN,
                detail=f"cannot tell whether Codex trusts the hook: {hooks}",
                hint="in Codex, open `/hooks` and trust `goalfile hook stop --agent codex`",
            )
        ]
    ours = [h for h in hooks if hostjson.is_ours(h.command)]
    if not ours:
        return [
            Finding(
                host="codex",
                check="trust",
                health=Health.PROBLEM,
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
        if recorded is not None and recorded != hook.current_hash:
            found.append(
                Finding(
                    host="codex",
                    check="trust",
                    health=Health.PROBLEM,
                    detail=f"the Stop hook changed since it was trusted: {config} records "
                    f"{recorded}, Codex now computes {hook.current_hash}; Codex skips it",
                    fix=TRUST_CODEX,
                    hint="or open `/hooks` in Codex and trust it again",
                )
            )
        elif hook.trust == "trusted":
            found.append(
                Finding(
                    host="codex",
                    check="trust",
                    health=Health.OK,
                    detail=f"the Stop hook is trusted ({config})",
                )
            )
        else:
            found.append(
                Finding(
                    host="codex",
                    check="trust",
                    health=Health.PROBLEM,
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
    from goalfile.pi_extension import EXTENSION, extension_state

    state = extension_state(root=root)
    path = root / EXTENSION
    shown = os.path.relpath(path, ctx.cwd) if path.is_relative_to(ctx.cwd) else str(path)
    if state == "current":
        detail = f"goalfile's extension in {shown}"
        return [Finding(host="pi", check="extension", health=Health.OK, detail=detail)]
    if state == "missing":
        return [
            Finding(
                host="pi",
                check="extension",
                health=Health.PROBLEM,
                detail=f"{shown} does not exist: pi will not run the Stop hook",
                fix=INIT_HOOKS,
            )
        ]
    return [
        Finding(
            host="pi",
            check="extension",
            health=Health.PROBLEM,
            detail=f"{shown} differs from the extension this goalfile ships",
            fix=f"rm {shown} && {INIT_HOOKS}",
            hint="keep it instead if you changed it on purpose",
        )
    ]


def skill_findings(root: Path, ctx: Context) -> list[Finding]:
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
            found.append(
                Finding(
                    host="skills",
                    check="skill",
                    health=Health.OK,
                    detail=f"{relative}: {len(states)} skills, current and valid",
                )
            )
            continue
        for name, state in problems.items():
            fix = "goalfile skills install"
            if state is State.MODIFIED:
                fix += " --force"
            found.append(
                Finding(
                    host="skills",
                    check="skill",
                    health=Health.PROBLEM,
                    detail=f"{relative / name}: {state.value}",
                    fix=fix,
                )
            )
        for message in invalid:
            found.append(
                Finding(
                    host="skills",
                    check="skill",
                    health=Health.PROBLEM,
                    detail=f"{relative}/{message}",
                    fix="goalfile skills install --force",
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


def doctor(*, ctx: Context) -> DoctorResult:
    root = repository_top(ctx.cwd) or ctx.cwd
    findings: list[Finding] = []
    for agent in hostjson.SETTINGS:
        found, commands = hook_findings(root, agent, ctx)
        findings += found
        if agent is HostAgent.CODEX and commands:
            findings += codex_trust_findings(root, ctx)
    findings += pi_findings(root, ctx)
    findings += skill_findings(root, ctx)
    return DoctorResult(root=str(root), findings=tuple(findings))
