"""The host settings files `goalfile doctor` reads: which files each host reads hooks from
(the project's, the user's, an administrator's), each read as JSON or TOML, each named as the
person's shell reaches it, and which of them a fix may edit.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path

from goalfile import codexconfig, hostjson
from goalfile.commands.context import Context
from goalfile.errors import GoalfileError
from goalfile.hostjson import HostAgent


def this_goalfile(env: Mapping[str, str]) -> str | None:
    """The `goalfile` program to name in a fix: the one on PATH, else the one installed
    beside the Python that runs this goalfile (its virtual environment's), else None."""
    here = shutil.which("goalfile", path=env.get("PATH"))
    if here is not None:
        return here
    import sys

    beside = Path(sys.executable).with_name("goalfile")
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None


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


def project_file(path: Path, root: Path) -> bool:
    """Whether ``path`` is one of the project's own settings files, which `--fix-hooks` may
    edit (a JSON file under the repository; never the user's or an administrator's)."""
    return path.suffix == ".json" and path.is_relative_to(root)


def at_line(shown: str, line: int | None) -> str:
    return f"{shown}:{line}" if line is not None else shown


def editable(
    root: Path, agent: HostAgent, ctx: Context
) -> Iterator[tuple[Path, dict[str, object], str]]:
    """Each settings file ``agent`` reads hooks from that exists and holds an object: its path,
    document and text. One that cannot be read is passed over: the checks name it, and nothing
    in it can be edited safely."""
    for path in settings_files(root, agent, ctx.env):
        try:
            document, text = load_settings(path)
        except GoalfileError:
            continue
        if text is not None and isinstance(document, dict):
            yield path, document, text


def load_or_empty(path: Path) -> object:
    try:
        return load_settings(path)[0]
    except GoalfileError:
        return {}


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


def load_settings(path: Path) -> tuple[object, str | None]:
    """A host settings file, parsed: JSON, or TOML for Codex's ``config.toml``."""
    if path.suffix == ".toml":
        return codexconfig.load_hooks_toml(path)
    return hostjson.load(path)


def shown_from(path: Path, ctx: Context) -> str:
    return os.path.relpath(path, ctx.cwd) if path.is_relative_to(ctx.cwd) else str(path)
