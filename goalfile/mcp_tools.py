"""The goalfile MCP tools as command lines: what each tool runs and how its result reads.

Pure: no I/O and no MCP SDK. :mod:`goalfile.mcp_server` runs the command lines built here (the
goalfile CLI itself, so one place decides) and turns :class:`ToolOutcome` into an MCP result.

Each tool returns the ``--json`` document of its command. A command that refuses (usage error,
invalid or changed goal file, a quote not in the artifact) or prints no JSON document comes back
as a tool error, with goalfile's message; verify's "unmet", "blocked" and "exhausted" are
results, not errors.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from goalfile.words import noun

__all__ = [
    "TOOLS",
    "ToolArgumentError",
    "ToolOutcome",
    "ToolSpec",
    "command_line",
    "outcome",
]

OUTPUT_LIMIT = 4 * 1024 * 1024  # bytes of a command's stdout kept for its JSON document


class ToolArgumentError(ValueError):
    """The client's arguments do not fit the tool's schema."""


@dataclass(frozen=True, kw_only=True)
class ToolSpec:
    name: str
    description: str
    input_schema: Mapping[str, object]
    result_exits: frozenset[int]  # exit codes whose document is a result, not an error


_PATH = {
    "type": "string",
    "description": "The goal file, relative to the project root: one goal_status lists "
    "(under goals/ or .zetetic/goals/); any other path is refused.",
}

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="goal_status",
        description=(
            "Each goal's status, budget use and latest verdicts (`goalfile status --json`). "
            "Without `path`: every goal under goals/ and .zetetic/goals/."
        ),
        input_schema={
            "type": "object",
            "properties": {"path": _PATH},
            "additionalProperties": False,
        },
        result_exits=frozenset({0, 1, 4, 5}),
    ),
    ToolSpec(
        name="goal_verify",
        description=(
            "Run every check of the goal as a real process and record the verdicts in its "
            "ledger (`goalfile verify --json`). The goal is met only when this says so. "
            "`no_write`: run the checks on a goal of any status and write nothing. Runs only "
            "a goal whose approval (`goalfile activate`) is committed in git."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "path": _PATH,
                "no_write": {"type": "boolean", "default": False},
            },
            "required": ["path"],
            "additionalProperties": False,
        },
        result_exits=frozenset({0, 1, 4, 5}),
    ),
    ToolSpec(
        name="goal_review",
        description=(
            "Record a review of a review row (`goalfile review --json`). `quote` must occur "
            "verbatim in `artifact`, else the review is refused; `reason` is required for unmet."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "path": _PATH,
                "id": {"type": "string", "description": "The review row's id, e.g. R1."},
                "artifact": {"type": "string", "description": "The reviewed file."},
                "quote": {"type": "string", "description": "The deciding passage, verbatim."},
                "verdict": {"type": "string", "enum": ["met", "unmet"]},
                "reason": {"type": "string", "description": "Why (required for unmet)."},
            },
            "required": ["path", "id", "artifact", "verdict"],
            "additionalProperties": False,
        },
        result_exits=frozenset({0}),
    ),
    ToolSpec(
        name="goal_block",
        description=(
            "Mark the goal blocked by an external dependency (`goalfile block --json`), with "
            "what blocks it and each workaround that was tried."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "path": _PATH,
                "reason": {"type": "string", "description": "What blocks the goal."},
                "tried": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                    "description": "Each workaround that was tried.",
                },
            },
            "required": ["path", "reason", "tried"],
            "additionalProperties": False,
        },
        result_exits=frozenset({0, 4}),
    ),
    ToolSpec(
        name="goal_focus",
        description=(
            "The goal this working tree's sessions work on (`goalfile focus --json`): with "
            "`path`, make it the one the hosts' hooks hold the agent to; with `clear`, end the "
            "focus (every active goal is held again); with neither, show it."
        ),
        input_schema={
            "type": "object",
            "properties": {"path": _PATH, "clear": {"type": "boolean", "default": False}},
            "additionalProperties": False,
        },
        result_exits=frozenset({0}),
    ),
)

_BY_NAME = {tool.name: tool for tool in TOOLS}


def _text(arguments: Mapping[str, object], key: str, *, required: bool) -> str | None:
    value = arguments.get(key)
    if value is None:
        if required:
            raise ToolArgumentError(f"`{key}` is required")
        return None
    if not isinstance(value, str) or not value:
        raise ToolArgumentError(f"`{key}` must be a non-empty string")
    if value.startswith("-") and key == "path":
        raise ToolArgumentError("`path` must not start with '-'; write ./" + value)
    return value


def command_line(name: str, arguments: Mapping[str, object]) -> list[str]:
    """The goalfile arguments (after ``goalfile``) for one tool call."""
    spec = _BY_NAME.get(name)
    if spec is None:
        raise ToolArgumentError(f"no tool named {name!r}")
    allowed = set(spec.input_schema.get("properties", {}))  # type: ignore[call-overload]
    unknown = sorted(set(arguments) - allowed)
    if unknown:
        raise ToolArgumentError(f"unknown {noun(len(unknown), 'argument')}: {', '.join(unknown)}")
    path = _text(arguments, "path", required=name not in ("goal_status", "goal_focus"))
    if name == "goal_status":
        return ["status", "--json", "--in-project", *(["--", path] if path else [])]
    if name == "goal_focus":
        clear = arguments.get("clear", False)
        if not isinstance(clear, bool):
            raise ToolArgumentError("`clear` must be true or false")
        if clear and path:
            raise ToolArgumentError("give `path` or `clear`, not both")
        return ["focus", "--json", *(["--clear"] if clear else []), *(["--", path] if path else [])]
    assert path is not None
    if name == "goal_verify":
        no_write = arguments.get("no_write", False)
        if not isinstance(no_write, bool):
            raise ToolArgumentError("`no_write` must be true or false")
        flags = ["--json", "--in-project", *(["--no-write"] if no_write else [])]
        return ["verify", *flags, "--", path]
    if name == "goal_review":
        row = _text(arguments, "id", required=True)
        artifact = _text(arguments, "artifact", required=True)
        verdict = _text(arguments, "verdict", required=True)
        if verdict not in ("met", "unmet"):
            raise ToolArgumentError("`verdict` must be `met` or `unmet`")
        argv = ["review", "--json", "--in-project", f"--artifact={artifact}"]
        argv += [f"--verdict={verdict}"]
        quote = _text(arguments, "quote", required=False)
        reason = _text(arguments, "reason", required=False)
        argv += [f"--quote={quote}"] if quote is not None else []
        argv += [f"--reason={reason}"] if reason is not None else []
        return [*argv, "--", path, str(row)]
    if name == "goal_block":
        reason = _text(arguments, "reason", required=True)
        tried = arguments.get("tried")
        if not isinstance(tried, list) or not tried:
            raise ToolArgumentError("`tried` must be a list of at least one workaround")
        if not all(isinstance(t, str) and t for t in tried):
            raise ToolArgumentError("each item of `tried` must be a non-empty string")
        return [
            "block",
            "--json",
            "--in-project",
            f"--reason={reason}",
            *(f"--tried={t}" for t in tried),
            "--",
            path,
        ]
    raise ToolArgumentError(f"no tool named {name!r}")  # pragma: no cover (all handled above)


@dataclass(frozen=True, kw_only=True)
class ToolOutcome:
    is_error: bool
    document: object | None  # the command's JSON document, when it printed one
    text: str  # what the client shows: the document as JSON, or goalfile's message


def outcome(name: str, *, exit_code: int | None, stdout: bytes, stderr: bytes) -> ToolOutcome:
    """Read one finished command: its JSON document, and whether the call is an error."""
    spec = _BY_NAME[name]
    document: object | None = None
    try:
        document = json.loads(stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        document = None
    message = stderr.decode("utf-8", "replace").strip()
    if exit_code is None:
        return ToolOutcome(is_error=True, document=None, text=message or "goalfile did not finish")
    if document is None:
        head = f"goalfile exited {exit_code} without a JSON document"
        return ToolOutcome(is_error=True, document=None, text=f"{head}\n{message}".strip())
    is_error = exit_code not in spec.result_exits
    text = json.dumps(document, ensure_ascii=False, indent=2)
    if is_error and message:
        text = f"{message}\n{text}"
    return ToolOutcome(is_error=is_error, document=document, text=text)
