"""Register ``goalfile mcp`` with the hosts that read a project MCP configuration.

* Claude Code: ``.mcp.json``, ``{"mcpServers": {"goalfile": {"command": "goalfile", "args":
  ["mcp"]}}}``, merged like the hook settings (see :mod:`goalfile.hostjson`).
* Gemini CLI: ``.gemini/settings.json``, the same ``mcpServers`` object, merged into its
  other settings.
* Codex: ``.codex/config.toml``, a ``[mcp_servers.goalfile]`` table. The standard library reads
  TOML but does not write it, so the table is appended as text when the parsed file has no
  ``mcp_servers.goalfile`` yet; nothing else in the file changes.

A server already registered under the name ``goalfile`` (whatever its command) is left alone.
A file that cannot be parsed is reported with its line and column and left untouched.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from goalfile.errors import GoalfileError
from goalfile.files import read_regular_text
from goalfile.hostjson import (
    SettingsError,
    load,
    render,
    top_object,
    where_broken,
    write_atomic,
)

__all__ = [
    "MCP_ARGS",
    "MCP_COMMAND",
    "McpRegistration",
    "merge_claude_mcp",
    "merge_codex_mcp",
    "register_mcp",
]

SERVER_NAME = "goalfile"
MCP_COMMAND = "goalfile"
MCP_ARGS = ("mcp",)
CLAUDE_FILE = Path(".mcp.json")
CODEX_FILE = Path(".codex") / "config.toml"
GEMINI_FILE = Path(".gemini") / "settings.json"


@dataclass(frozen=True, kw_only=True)
class McpRegistration:
    host: str  # "claude", "gemini" or "codex"
    path: str
    changed: bool
    created: bool

    def to_json(self) -> dict[str, object]:
        return {
            "host": self.host,
            "path": self.path,
            "changed": self.changed,
            "created": self.created,
        }


def merge_claude_mcp(document: object, *, file: str = "") -> tuple[dict[str, object], bool]:
    """``.mcp.json`` with the goalfile server, and whether anything had to change. Pure."""
    document = top_object(document, what="the MCP configuration", file=file)
    servers = document.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise SettingsError(
            '"mcpServers" is not a JSON object',
            file=file or None,
            again='once "mcpServers" is a map of server names to {"command": ..., "args": [...]}',
        )
    if SERVER_NAME in servers:
        return dict(document), False
    ours = {"command": MCP_COMMAND, "args": list(MCP_ARGS)}
    return {**document, "mcpServers": {**servers, SERVER_NAME: ours}}, True


def _toml_position(message: str) -> tuple[int | None, int | None]:
    found = re.search(r"\(at line (\d+), column (\d+)\)", message)
    if found is None:
        return None, None
    return int(found.group(1)), int(found.group(2))


def merge_codex_mcp(text: str, *, file: str = "") -> tuple[str, bool]:
    """``config.toml`` text with a ``[mcp_servers.goalfile]`` table, and whether it changed."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, column = _toml_position(str(exc))
        raise SettingsError(
            f"not valid TOML: {re.sub(r' [(]at line .*[)]$', '', str(exc))}; "
            "the file was left untouched",
            file=file or None,
            line=line,
            column=column,
            hint=where_broken(file, toml=True) if file else None,
            again=None if file else "once the TOML is mended there",
        ) from None
    except RecursionError:
        raise SettingsError(
            "TOML nested too deeply to read; the file was left untouched",
            file=file or None,
            again="once the TOML is nested less deeply",
        ) from None
    servers = document.get("mcp_servers", {})
    if not isinstance(servers, dict):
        raise SettingsError(
            "`mcp_servers` is not a table",
            file=file or None,
            again="once mcp_servers is one table per server ([mcp_servers.NAME])",
        )
    if SERVER_NAME in servers:
        return text, False
    args = ", ".join(f'"{a}"' for a in MCP_ARGS)
    table = f'[mcp_servers.{SERVER_NAME}]\ncommand = "{MCP_COMMAND}"\nargs = [{args}]\n'
    if not text.strip():
        return table, True
    separator = "\n" if text.endswith("\n") else "\n\n"
    if text.endswith("\n\n"):
        separator = ""
    return text + separator + table, True


def register_mcp(*, root: Path) -> tuple[tuple[McpRegistration, ...], tuple[SettingsError, ...]]:
    """Register the server for Claude Code, Gemini CLI and Codex under ``root``: what was done,
    and the files that could not be merged (each left untouched)."""
    done: list[McpRegistration] = []
    errors: list[SettingsError] = []
    for host, relative in (("claude", CLAUDE_FILE), ("gemini", GEMINI_FILE)):
        path = root / relative
        try:
            document, text = load(path)
            merged, changed = merge_claude_mcp(document, file=str(path))
            if changed:
                write_atomic(path, render(merged, like=text or ""))
            done.append(
                McpRegistration(host=host, path=str(path), changed=changed, created=text is None)
            )
        except SettingsError as exc:
            errors.append(exc)
    codex = root / CODEX_FILE
    try:
        try:
            old: str | None = read_regular_text(codex, what="settings file")
        except FileNotFoundError:
            old = None
        except GoalfileError as exc:  # a FIFO or a device, never waited on
            raise SettingsError(exc.message, file=str(codex), hint=exc.hint) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise SettingsError(f"cannot read: {exc}", file=str(codex)) from None
        new, changed = merge_codex_mcp(old or "", file=str(codex))
        if changed:
            write_atomic(codex, new)
        done.append(
            McpRegistration(host="codex", path=str(codex), changed=changed, created=old is None)
        )
    except SettingsError as exc:
        errors.append(exc)
    return tuple(done), tuple(errors)
