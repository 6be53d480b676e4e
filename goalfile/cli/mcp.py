"""`goalfile mcp`: serve the goal tools over the Model Context Protocol (stdio)."""

from __future__ import annotations

import sys

from goalfile.cli.base import boundary, context, main
from goalfile.errors import UsageError
from goalfile.shellword import shell_word

MCP_REQUIREMENT = "mcp>=2.3,<3"
"""The extra `goalfile[mcp]` (pyproject.toml), as pip names it."""


@main.command("mcp")
@boundary
def mcp_command() -> int:
    """Serve goalfile to MCP clients over stdio (needs the optional extra `goalfile[mcp]`).

    Without it, `goalfile mcp` exits 2 and prints the pip command that installs it beside this
    goalfile, run by goalfile's own Python (for pipx: `pipx install --force '.[mcp]'` in
    goalfile's clone).

    Tools: goal_status, goal_verify, goal_review, goal_block, goal_focus, each running the
    goalfile command and returning its --json document. Resources: the goal files under goals/
    and .zetetic/goals/ of the git top level (else the current folder). `goalfile init --mcp`
    registers it for Claude Code (.mcp.json), Gemini CLI (.gemini/settings.json) and Codex
    (.codex/config.toml).
    """
    import gc

    gc.enable()  # off for a command's short life (see goalfile.__main__); a server lives long
    from goalfile.termsafe import unwrap_standard_streams

    unwrap_standard_streams()  # the MCP library writes JSON-RPC to the binary stdout itself
    try:
        from goalfile.mcp_server import project_root, serve
    except ImportError as exc:
        if exc.name is None or exc.name.split(".")[0] not in ("mcp", "mcp_types", "anyio"):
            raise
        raise UsageError(
            "`goalfile mcp` needs the optional MCP support, which is not installed",
            hint=f"`{shell_word(sys.executable)} -m pip install {shell_word(MCP_REQUIREMENT)}` "
            "installs it beside this goalfile (the extra `goalfile[mcp]`)",
        ) from None
    ctx = context()  # the folder it serves: refused when the shell's folder is gone
    serve(root=project_root(ctx.cwd), env=dict(ctx.env))
    return 0
