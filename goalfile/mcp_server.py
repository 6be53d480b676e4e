"""`goalfile mcp`: the goal tools and goal files over the Model Context Protocol (stdio).

Needs the optional ``mcp`` package (the extra ``goalfile[mcp]``). Every tool runs the
goalfile CLI (``python -m goalfile ... --json``) in the project root, so the CLI stays the one
place that decides; the tool's result is that command's JSON document (see
:mod:`goalfile.mcp_tools`). Anything that goes wrong in a call comes back as a tool error; the
server keeps serving.

Resources: every goal file under ``goals/`` and ``.zetetic/goals/`` of the project root, as
``file://`` URIs, read as Markdown. Nothing else can be read through the server.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from goalfile import __version__
from goalfile.commands.status import discover
from goalfile.commands.workdir import repository_top
from goalfile.errors import GoalfileError
from goalfile.files import read_text
from goalfile.mcp_tools import OUTPUT_LIMIT, TOOLS, ToolArgumentError, command_line, outcome
from goalfile.run import CheckSpec, Ending, run_check

__all__ = ["build_server", "project_root", "serve"]

INSTRUCTIONS = (
    "goalfile holds work to a goal file whose acceptance checks really run. A goal is met only "
    "when goal_verify says `status: met`; never edit a goal file's criteria, ledger or status "
    "by hand. goal_status shows every goal; the goal files are readable as resources."
)
TOOL_TIMEOUT = 3600.0  # seconds; verify has its own per-check and goal limits


def project_root(cwd: Path) -> Path:
    return repository_top(cwd) or cwd


def _run_cli(
    args: list[str], *, root: Path, env: Mapping[str, str]
) -> tuple[int | None, bytes, bytes]:
    """Run ``python -P -m goalfile ARGS`` in ``root``; stdout is kept up to OUTPUT_LIMIT bytes."""
    out = bytearray()
    err = bytearray()

    def collect(stream: str, chunk: bytes) -> None:
        target = out if stream == "stdout" else err
        room = (OUTPUT_LIMIT if stream == "stdout" else 64 * 1024) - len(target)
        target.extend(chunk[: max(room, 0)])

    spec = CheckSpec(
        # -P: the project folder is not put first on sys.path, so a goalfile.py (or a goalfile/
        # package) written there is not what runs
        command="exec "
        + shlex.join([sys.executable, "-P", "-m", "goalfile", *args])
        + " </dev/null",
        shell="/bin/sh",
        cwd=str(root),
        env=dict(env),
        timeout=TOOL_TIMEOUT,
    )
    result = run_check(spec, on_output=collect)
    if result.ending is not Ending.EXITED:
        return None, bytes(out), bytes(err) + f"\ngoalfile {result.message}".encode()
    return result.exit_status, bytes(out), bytes(err)


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def _goal_resources(root: Path) -> dict[str, Path]:
    return {Path(p).resolve().as_uri(): Path(p) for p in discover(root)}


def build_server(*, root: Path, env: Mapping[str, str]) -> Server[Any]:
    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=t.name, description=t.description, input_schema=dict(t.input_schema)
                )
                for t in TOOLS
            ]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            args = command_line(params.name, dict(params.arguments or {}))
        except ToolArgumentError as exc:
            return _error(f"{params.name}: {exc}")
        try:
            code, out, err = await anyio.to_thread.run_sync(
                lambda: _run_cli(args, root=root, env=env)
            )
        except Exception as exc:  # a call must never take the server down
            return _error(f"{params.name}: goalfile could not run: {type(exc).__name__}: {exc}")
        result = outcome(params.name, exit_code=code, stdout=out, stderr=err)
        structured = result.document if isinstance(result.document, dict) else None
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.text)],
            structured_content=structured,
            is_error=result.is_error,
        )

    async def list_resources(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        found = _goal_resources(root)
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=uri,
                    name=str(_relative(path, root)),
                    description="A goalfile goal: criteria, status and ledger.",
                    mime_type="text/markdown",
                )
                for uri, path in found.items()
            ]
        )

    async def read_resource(
        ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        from mcp.shared.exceptions import MCPError

        uri = str(params.uri)
        path = _goal_resources(root).get(uri)
        if path is None:
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"{uri} is not a goal file of {root} (see resources/list)",
            )
        try:
            text = read_text(path)
        except (GoalfileError, OSError) as exc:
            message = exc.render() if isinstance(exc, GoalfileError) else str(exc)
            raise MCPError(code=types.INTERNAL_ERROR, message=message) from None
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, text=text, mime_type="text/markdown")]
        )

    return Server(
        "goalfile",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


def _relative(path: Path, root: Path) -> Path:
    try:
        return path.resolve().relative_to(root.resolve())
    except ValueError:
        return path


def serve(*, root: Path, env: Mapping[str, str]) -> None:
    """Serve over stdin/stdout until the client closes them."""
    server = build_server(root=root, env=env)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
