"""`goalfile doctor`'s check of a registered MCP server: `goalfile init --mcp` writes
``goalfile mcp`` into the hosts' MCP configuration (:mod:`goalfile.hostmcp`) whether or not the
optional MCP support is installed, and without it every host fails to start the server
(`goalfile mcp` exits 2). doctor said "no problems found"; it now names the files that register
the server and the pip command that installs the support beside this goalfile.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

from goalfile.commands.doctorchecks.finding import Finding, Health
from goalfile.errors import GoalfileError
from goalfile.files import read_regular_text
from goalfile.hostmcp import CLAUDE_FILE, CODEX_FILE, GEMINI_FILE, MCP_ARGS, SERVER_NAME
from goalfile.shellword import shell_word


def mcp_findings(root: Path) -> list[Finding]:
    """One finding when a project file registers ``goalfile mcp``: ok when the MCP support can
    be imported here, else a problem with the command that installs it; none otherwise."""
    registered = [
        str(path) for path in (CLAUDE_FILE, GEMINI_FILE, CODEX_FILE) if _names(root / path)
    ]
    if not registered:
        return []
    where = ", ".join(registered)
    if installed():
        return [
            Finding(
                host="mcp",
                check="server",
                health=Health.OK,
                detail=f"`goalfile mcp` ({where}) has the MCP support it needs",
            )
        ]
    from goalfile.cli.mcp import MCP_REQUIREMENT

    return [
        Finding(
            host="mcp",
            check="server",
            health=Health.PROBLEM,
            detail=f"{where} register `goalfile mcp`, but the optional MCP support is not "
            "installed beside this goalfile: the hosts cannot start the server",
            fix=f"{shell_word(sys.executable)} -m pip install {shell_word(MCP_REQUIREMENT)}",
        )
    ]


def installed() -> bool:
    """Whether the MCP library `goalfile mcp` serves with can be imported here."""
    from importlib.util import find_spec

    try:
        return find_spec("mcp") is not None
    except (ImportError, ValueError):
        return False


def _names(path: Path) -> bool:
    """Whether the file at ``path`` registers the server ``goalfile`` as ``goalfile mcp`` (a
    file that does not read is passed over: the hosts report it; a FIFO or a device there is
    not waited on, and JSON nested past Python's recursion limit is no traceback)."""
    try:
        text = read_regular_text(path, what="MCP configuration")
    except (OSError, UnicodeDecodeError, GoalfileError):
        return False
    try:
        document = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (ValueError, RecursionError):  # tomllib.TOMLDecodeError is a ValueError
        return False
    if not isinstance(document, dict):
        return False
    servers = document.get("mcp_servers" if path.suffix == ".toml" else "mcpServers")
    server = servers.get(SERVER_NAME) if isinstance(servers, dict) else None
    if not isinstance(server, dict):
        return False
    command = server.get("command")
    return (
        isinstance(command, str)
        and Path(command).name == "goalfile"
        and server.get("args") == list(MCP_ARGS)
    )
