"""`goalfile init`: everything a repository needs for an agent to work on goals.

1. ``goals/`` with a first draft goal (unless goal files exist already);
2. the shipped skills in ``.agents/skills/`` and ``.claude/skills/``;
3. the Stop hook registered in ``.claude/settings.json``, ``.codex/hooks.json`` and
   ``.gemini/settings.json`` (not in ``.codex/hooks.json`` when a Codex ``config.toml`` declares
   it already: Codex would run it from both), and beside it the session-start hook
   (``goalfile hook start``, :mod:`goalfile.starthook`), which takes the session's record the
   first stop compares with;
4. the pi extension in ``.pi/extensions/goalfile/`` (and the former ``goalfile.ts`` removed);
5. with ``mcp``, ``goalfile mcp`` registered in ``.mcp.json`` and ``.codex/config.toml``;
6. with ``trust_codex``, the Codex Stop hook trusted in the user's Codex ``config.toml`` (Codex
   skips an untrusted project hook without a word).

Every step is idempotent, so running ``init`` twice changes nothing. A settings file that is not
valid JSON is reported with its position and left untouched; the other steps still run.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from goalfile import value
from goalfile.commands.context import Context
from goalfile.commands.hookgoal import goal_option
from goalfile.commands.new import new_goal
from goalfile.commands.skills import Scope, SkillsResult, install
from goalfile.commands.status import discover
from goalfile.commands.workdir import repository_top
from goalfile.errors import ExitCode, GoalfileError
from goalfile.hostjson import (
    HOOK_TIMEOUT,
    HostAgent,
    Registration,
    register_start_hook,
    register_stop_hook,
)
from goalfile.hostmcp import McpRegistration, register_mcp
from goalfile.pi_extension import ExtensionInstall, install_pi_extension

SCHEMA_VERSION = 1
DEFAULT_SLUG = "first-goal"


@dataclass(frozen=True, kw_only=True)
class InitResult:
    root: str
    goal: str | None  # the draft written, if any
    existing_goals: tuple[str, ...]
    skills: SkillsResult | None
    hooks: tuple[Registration, ...]
    errors: tuple[GoalfileError, ...]
    mcp: tuple[McpRegistration, ...] = ()
    pi: ExtensionInstall | None = None
    codex_trusted: tuple[str, ...] = ()  # hook keys trusted in Codex's config.toml (--trust-codex)

    @property
    def changed(self) -> bool:
        return (
            bool(self.codex_trusted)
            or self.goal is not None
            or (self.skills is not None and self.skills.changed)
            or any(h.changed or h.start_changed for h in self.hooks)
            or any(m.changed for m in self.mcp)
            or (self.pi is not None and self.pi.changed)
        )

    @property
    def exit_code(self) -> ExitCode:
        return max((e.exit_code for e in self.errors), default=ExitCode.OK)

    def to_json(self) -> dict[str, object]:
        return {
            "schema_version": SCHEMA_VERSION,
            "root": self.root,
            "goal": self.goal,
            "existing_goals": list(self.existing_goals),
            "skills": self.skills.to_json()["locations"] if self.skills else None,
            "hooks": [h.to_json() for h in self.hooks],
            "mcp": [m.to_json() for m in self.mcp],
            "pi_extension": self.pi.to_json() if self.pi else None,
            "codex_trusted": list(self.codex_trusted),
            "changed": self.changed,
            "errors": [e.to_json() for e in self.errors],
            "exit_code": int(self.exit_code),
        }


def init(
    *,
    ctx: Context,
    slug: str = DEFAULT_SLUG,
    goal: bool = True,
    skills: bool = True,
    hooks: bool = True,
    agents: tuple[HostAgent, ...] = (HostAgent.CLAUDE, HostAgent.CODEX, HostAgent.GEMINI),
    timeout: int = HOOK_TIMEOUT,
    mcp: bool = False,
    trust_codex: bool = False,
) -> InitResult:
    root = repository_top(ctx.cwd) or ctx.cwd
    at_root = value.replace(ctx, cwd=root)
    existing = tuple(discover(root))
    written: str | None = None
    if goal and not existing:
        result = new_goal(slug=slug, directory=str(root / "goals"), ctx=at_root)
        written = _shown(root / result.path, ctx.cwd)
    installed = install(ctx=at_root, scope=Scope.PROJECT, target="all") if skills else None
    registrations: list[Registration] = []
    errors: list[GoalfileError] = []
    if hooks:
        for agent in agents:
            try:
                declared = _codex_config_hook(root, ctx) if agent is HostAgent.CODEX else None
                if declared is not None:  # Codex would run it from .codex/hooks.json as well
                    shown = _shown(declared, ctx.cwd)
                    errors.extend(_unheard(declared, shown))
                    # the start hook beside it, in the file that declares it
                    started = register_start_hook(root=root, agent=agent, path=declared)
                    registrations.append(
                        Registration(
                            agent=agent,
                            path=shown,
                            changed=False,
                            created=False,
                            start_changed=started.changed,
                        )
                    )
                    continue
                done = register_stop_hook(
                    root=root,
                    agent=agent,
                    timeout=timeout,
                    goal_exists=goal_option(root, committed=False),
                )
                # the session's record taken at its start, which the first stop compares with
                started = register_start_hook(root=root, agent=agent)
                done = dataclasses.replace(done, start_changed=started.changed)
                registrations.append(
                    dataclasses.replace(done, path=_shown(Path(done.path), ctx.cwd))
                )
            except GoalfileError as exc:
                errors.append(exc)
    pi: ExtensionInstall | None = None
    if hooks:
        pi = install_pi_extension(root=root)
        pi = dataclasses.replace(
            pi,
            path=_shown(Path(pi.path), ctx.cwd),
            former_path=_shown(Path(pi.former_path), ctx.cwd),
        )
    servers: tuple[McpRegistration, ...] = ()
    if mcp:
        servers, failed = register_mcp(root=root)
        servers = tuple(dataclasses.replace(m, path=_shown(Path(m.path), ctx.cwd)) for m in servers)
        errors.extend(failed)
    trusted: list[str] = []
    if trust_codex:
        from goalfile.commands.doctor import trust_codex as trust

        try:
            trusted = trust(root, ctx)
        except GoalfileError as exc:
            errors.append(exc)
    return InitResult(
        root=str(root),
        goal=written,
        existing_goals=tuple(_shown(Path(p), ctx.cwd) for p in existing),
        skills=installed,
        hooks=tuple(registrations),
        errors=tuple(errors),
        mcp=servers,
        pi=pi,
        codex_trusted=tuple(trusted),
    )


def _codex_config_hook(root: Path, ctx: Context) -> Path | None:
    """The Codex ``config.toml`` that declares goalfile's Stop hook already, if one does."""
    from goalfile.codexconfig import declared_in_config

    return declared_in_config(root, ctx.env)


def _unheard(path: Path, shown: str) -> list[GoalfileError]:
    """What keeps Codex from hearing a goalfile Stop hook it is given in a file `init` does
    not write (a ``config.toml``, the user's ``hooks.json``): a host timeout below its
    ``--timeout``, or one Codex cannot read, as `goalfile doctor` reports it, with its fix."""
    from goalfile.commands.doctorchecks.finding import Health
    from goalfile.commands.doctorchecks.settingsfiles import load_settings
    from goalfile.commands.doctorchecks.timeouts import file_findings

    try:
        document, text = load_settings(path)
    except GoalfileError:
        return []  # declared_in_config read it a moment ago; doctor names what changed
    from goalfile.codexconfig import hook_key_line
    from goalfile.hosttimeouts import stop_hooks

    found = file_findings(path, HostAgent.CODEX, document, text, shown)
    hooks = stop_hooks(document, HostAgent.CODEX)  # one finding each, in the same order
    return [
        GoalfileError(
            finding.detail.removeprefix(f"{shown}: ")
            + "; `goalfile init` does not edit it"
            + (f" ({finding.hint})" if finding.fix is None and finding.hint else ""),
            file=shown,
            line=hook_key_line(
                text or "", event="Stop", group=hook.group, index=hook.index, key=hook.key
            )
            if path.suffix == ".toml"
            else None,
            hint=finding.fix,  # a command; what only a hand can do is said above
        )
        for finding, hook in zip(found, hooks, strict=True)
        if finding.health is Health.PROBLEM
    ]


def _shown(path: Path, cwd: Path) -> str:
    try:
        return str(path.resolve().relative_to(cwd.resolve()))
    except ValueError:
        return str(path)
