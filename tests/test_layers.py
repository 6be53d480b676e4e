"""goalfile/files.py is the one core module that reaches up into `goalfile.commands`
(tests/test_house_style.py lets it), and only to the gittop leaf, which imports nothing of
goalfile's commands (where the repository's top is). It imported `goalfile.commands.new` for
the fix of a goal file that is not there; what it needs (where `new` writes, the longest slug)
is `goalfile/newplace.py`, pure, below both."""

from __future__ import annotations

import ast

from conftest import REPO

LEAF = "goalfile.commands.gittop"


def _imported(path: str) -> set[str]:
    tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_files_reaches_up_to_the_gittop_leaf_only() -> None:
    up = {name for name in _imported("goalfile/files.py") if name.startswith("goalfile.commands")}
    assert up <= {LEAF}, up


def test_the_leaf_and_newplace_import_no_command_module() -> None:
    for path in ("goalfile/commands/gittop.py", "goalfile/newplace.py"):
        up = {name for name in _imported(path) if name.startswith("goalfile.commands")}
        assert not up, (path, up)
