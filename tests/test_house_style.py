"""DESIGN §9, as far as a test can hold it: only :mod:`goalfile.run` starts processes.

`new`'s lookup of each check's program ran `subprocess.run` in goalfile/commands/findable.py,
and `init`'s question whether git's index holds a hook's `--goal` ran it in
goalfile/hostjson.py: outside run, a process has none of its time limits or its cleanup of
what the process left behind."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import REPO

STARTS = frozenset({"run", "Popen", "call", "check_call", "check_output", "getoutput"})


def test_only_run_starts_a_process() -> None:
    found = []
    for path in sorted((REPO / "goalfile").rglob("*.py")):
        if path == REPO / "goalfile" / "run.py":
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
