"""YAML tags that build objects in the frontmatter make the goal invalid, and nothing runs.

A goal file comes from a repository, perhaps from a pull request: its frontmatter must never be
able to call Python (``!!python/object/apply:os.system``), name a Python object
(``!!python/name:``), or smuggle in values no goal key can hold (``!!binary`` bytes, a
``!!set``, an application tag such as ``!foo``). Each is put on a frontmatter line of its own:
as an unknown key (kept, normally only a warning), as ``blocker`` (a key lint does not
type-check), and nested in a flow collection of an unknown key. ``lint``, ``status``,
``verify`` and ``activate`` each run on it as a real process: exit 3, a message naming
``PATH:LINE`` of the tagged line, no traceback, the file unchanged, and no ``pwned`` file (the
object tags try to ``touch`` one).
"""

from __future__ import annotations

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from reliability_support import activate, goal_text, run_goalfile, write_goal

TAGGED_LINE = 10  # the first line after `tokens_used:` in goal_text's frontmatter


def tags(pwned: Path) -> dict[str, str]:
    return {
        "python-object-apply": f'!!python/object/apply:os.system ["touch {pwned}"]',
        "python-object-new": f'!!python/object/new:os.system ["touch {pwned}"]',
        "python-name": "!!python/name:os.system",
        "binary": "!!binary aGVsbG8=",
        "set": "!!set {a, b}",
        "custom": "!foo bar",
    }


COMMANDS = {"lint": "draft", "status": "active", "verify": "active", "activate": "draft"}


@pytest.fixture(scope="module")
def clean_goals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The untagged goal as a draft, and as activated by a real ``goalfile activate``."""
    draft = goal_text(rows=[("C1", "echo ran > ran-by-check", "exit 0")])
    folder = tmp_path_factory.mktemp("activated")
    path = write_goal(folder / "goals", draft)
    activate(path, folder)
    return {"draft": draft, "active": path.read_text(encoding="utf-8")}


def prepare(folder: Path, text: str, line: str) -> Path:
    """The goal, the tagged line added as line TAGGED_LINE."""
    lines = text.split("\n")
    assert lines[TAGGED_LINE - 2].startswith("tokens_used:")
    lines.insert(TAGGED_LINE - 1, line)
    return write_goal(folder / "goals", "\n".join(lines))


@pytest.mark.parametrize("key", ["x-unknown", "blocker", "x-nested"])
@pytest.mark.parametrize(
    "tag", ["python-object-apply", "python-object-new", "python-name", "binary", "set", "custom"]
)
def test_an_object_tag_in_the_frontmatter_is_rejected(
    tmp_path: Path, clean_goals: dict[str, str], tag: str, key: str
) -> None:
    """lint, status, verify and activate: exit 3 with PATH:LINE, nothing run, file unchanged."""
    pwned = tmp_path / "pwned"
    tagged = tags(pwned)[tag]
    line = f"{key}: [1, {{a: {tagged}}}]" if key == "x-nested" else f"{key}: {tagged}"
    cases = []
    for command in COMMANDS:
        folder = tmp_path / command
        path = prepare(folder, clean_goals[COMMANDS[command]], line)
        cases.append((command, folder, path, path.read_bytes()))

    def run(case: tuple[str, Path, Path, bytes]) -> subprocess.CompletedProcess[str]:
        command, folder, _, _ = case
        return run_goalfile(command, "goals/demo.md", cwd=folder)

    with ThreadPoolExecutor(max_workers=len(cases)) as pool:
        results = list(pool.map(run, cases))

    problems = []
    for (command, folder, path, before), done in zip(cases, results, strict=True):
        what = f"goalfile {command} with `{line}` -> exit {done.returncode}\n{done.stderr}"
        if "Traceback" in done.stderr + done.stdout:
            problems.append(f"traceback: {what}")
        if path.read_bytes() != before:
            problems.append(f"file changed: {what}")
        if list(folder.rglob("ran-by-check")):
            problems.append(f"a check ran: {what}")
        if done.returncode != 3:
            problems.append(f"not exit 3: {what}")
        elif f"goals/demo.md:{TAGGED_LINE}" not in done.stderr:
            problems.append(f"no goals/demo.md:{TAGGED_LINE} in the message: {what}")
        if any(p.name == "pwned" for p in tmp_path.rglob("pwned")) or os.path.exists("pwned"):
            problems.append(f"the tag ran a command: {what}")
    assert not problems, "\n\n".join(problems)
