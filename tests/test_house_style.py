"""DESIGN §9, as far as a test can hold it: only the runners start processes, :mod:`goalfile.run`
(checks) and :mod:`goalfile.gitrun` (git).

`new`'s lookup of each check's program ran `subprocess.run` in goalfile/commands/findable.py,
and `init`'s question whether git's index holds a hook's `--goal` ran it in
goalfile/hostjson.py: outside run, a process has none of its time limits or its cleanup of
what the process left behind."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import REPO

STARTS = frozenset({"run", "Popen", "call", "check_call", "check_output", "getoutput"})


# the modules that start processes, each with the time limits of the process it starts and
# the cleanup of what that process leaves behind: checks (run) and git (gitrun)
RUNNERS = frozenset({REPO / "goalfile" / "run.py", REPO / "goalfile" / "gitrun.py"})


def test_only_the_runners_start_a_process() -> None:
    found = []
    for path in sorted((REPO / "goalfile").rglob("*.py")):
        if path in RUNNERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "subprocess"
                and node.attr in STARTS
            ):
                found.append(f"{Path(path).relative_to(REPO)}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and node.module == "subprocess":
                found += [
                    f"{Path(path).relative_to(REPO)}:{node.lineno}"
                    for alias in node.names
                    if alias.name in STARTS
                ]
    assert found == [], found


# the modules below goalfile.commands that still reach up into it: a missing goal asks git
# where the repository's top is (files, one call made lazily), and the MCP server is an edge
# like the CLI (mcp_server)
REACHES_UP = frozenset({"files.py", "mcp_server.py"})


def test_imports_point_down_to_the_core() -> None:
    """DESIGN §9: `cli → commands → {parse, expect, run, ledger, files} → model, errors`. The
    Stop hook's rules and doctor's checks run verify and read git as the commands do, so they
    live in goalfile.commands (hookrules/, doctorchecks/): as top-level packages they imported
    goalfile.commands.* from below it."""
    found = []
    for path in sorted((REPO / "goalfile").rglob("*.py")):
        place = path.relative_to(REPO / "goalfile")
        if place.parts[0] in {"cli", "commands"} or place.name == "__main__.py":
            continue
        if place.as_posix() in REACHES_UP:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            if any(name.startswith(("goalfile.commands", "goalfile.cli")) for name in names):
                found.append(f"{place}:{node.lineno}")
    assert found == [], found
