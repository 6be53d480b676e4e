"""Codex skips an untrusted project hook without a word: is goalfile's Stop hook trusted in the
user's ``config.toml`` (``codex app-server`` knows the hash), and the fix that trusts it.
"""

from __future__ import annotations

from pathlib import Path

from goalfile import codexconfig, files, hostjson
from goalfile.commands.context import Context
from goalfile.commands.doctorchecks.finding import TRUST_CODEX, Check, Finding
from goalfile.errors import GoalfileError
from goalfile.hostprotocol import HostAgent
from goalfile.starthook import is_start_command

_UNRECORDED = (
    ", so the session's record is not taken at its start and the first stop compares with "
    "nothing (a branch moved before it is taken as the person's)"
)


def codex_trust_findings(root: Path, ctx: Context) -> list[Finding]:
    trust = Check("codex", "trust")
    hooks = codexconfig.list_hooks(root, ctx.env)
    if isinstance(hooks, str):
        return [
            trust.unknown(
                detail=f"cannot tell whether Codex trusts the hook: {hooks}",
                hint="in Codex, open `/hooks` and trust `goalfile hook stop --agent codex`",
            )
        ]
    ours = [h for h in hooks if hostjson.is_ours(h.command)]
    starts = [h for h in hooks if is_start_command(h.command, HostAgent.CODEX)]
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
    for hook in [*ours, *starts]:
        name = "Stop hook" if hook in ours else "session-start hook"
        try:
            recorded = codexconfig.trusted_hash(config_text, hook.key) if config_text else None
        except ValueError:
            recorded = None
        if not hook.enabled:
            found.append(
                trust.problem(
                    detail=f"the {name} is turned off: {hook.key} has `enabled = false` in "
                    f"{config}: Codex skips it"
                    + (" and lets the agent stop" if hook in ours else _UNRECORDED),
                    hint=f'delete `enabled = false` under `[hooks.state."{hook.key}"]` in '
                    f"{config} by hand, or turn the hook on in `/hooks` in Codex",
                )
            )
        elif recorded is not None and recorded != hook.current_hash:
            found.append(
                trust.problem(
                    detail=f"the {name} changed since it was trusted: {config} records "
                    f"{recorded}, Codex now computes {hook.current_hash}; Codex skips it",
                    fix=TRUST_CODEX,
                    hint="or open `/hooks` in Codex and trust it again",
                )
            )
        elif hook.trust == "trusted":
            found.append(trust.ok(detail=f"the {name} is trusted ({config})"))
        else:
            found.append(
                trust.problem(
                    detail=f"the {name} is {hook.trust} in {config}: Codex skips it without "
                    "a word until it is trusted" + ("" if hook in ours else _UNRECORDED),
                    fix=TRUST_CODEX,
                    hint="or open `/hooks` in Codex and trust it",
                )
            )
    return found


def trust_codex(root: Path, ctx: Context) -> list[str]:
    """Trust every goalfile Stop hook (and session-start hook, :mod:`goalfile.starthook`) Codex
    lists for ``root``: write its current hash into
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
        mine = hostjson.is_ours(hook.command) or is_start_command(hook.command, HostAgent.CODEX)
        if not mine or hook.trust == "trusted":
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
