"""goalfile's core (the modules outside `goalfile/commands/` and `goalfile/cli/`, and outside
the MCP server, an edge of its own) imports no command module: a command is built on the core,
never the other way round. The one module of `commands/` the core may ask is
`goalfile.commands.gittop`, a leaf that imports nothing of goalfile's (where the repository's
top is). `goalfile/files.py` imported `goalfile.commands.new` for the fix of a goal file that is
not there; what it needs (where `new` writes, the longest slug) is `goalfile/newplace.py`."""

from __future__ import annotations

import ast

from conftest import REPO

EDGES = ("goalfile/commands/", "goalfile/cli/", "goalfile/mcp_server.py", "goalfile/mcp_tools.py")
LEAVES = {"goalfile.commands.gittop"}


def _imported(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_core_imports_no_command_module() -> None:
    wrong = []
    for path in sorted((REPO / "goalfile").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        if relative.startswith(EDGES):
            continue
        for name in _imported(ast.parse(path.read_text(encoding="utf-8"))):
            leaf = name in LEAVES or name.rsplit(".", 1)[0] in LEAVES  # or a name from one
            if name.startswith("goalfile.commands.") and not leaf:
                wrong.append(f"{relative}: {name}")
    assert not wrong, wrong


def test_the_leaf_imports_nothing_of_goalfile_s_commands() -> None:
    path = REPO / "goalfile" / "commands" / "gittop.py"
    imported = _imported(ast.parse(path.read_text(encoding="utf-8")))
    assert not {name for name in imported if name.startswith("goalfile.commands")}, imported
