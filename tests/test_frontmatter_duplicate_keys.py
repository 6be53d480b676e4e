"""A frontmatter key given twice is refused, naming both lines.

YAML reads a key given twice from its last line, and goalfile's single-line edits and line
numbers took the first: `status: active` on line 3 and `status: met` on line 4 was read as
`met`, and the fix lint printed (a sed of line 3) changed nothing, so it never worked as
written; `verify` would have rewritten line 3 while line 4 went on saying `met`.

Real goalfile processes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import approved_repo, run_goalfile


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("status: active", "status: active\nstatus: met"),
        ("  iterations: 5", "  iterations: 5\n  iterations: 99"),
    ],
)
def test_a_key_given_twice_is_invalid_everywhere(tmp_path: Path, old: str, new: str) -> None:
    repo = approved_repo(tmp_path / "app", "g", "ok", "--check", "true", "--expected", "exit 0")
    goal = repo / "goals" / "g.md"
    goal.write_text(goal.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    key = new.split("\n")[1].split(":")[0].strip()
    for command in ("lint", "status", "verify", "audit"):
        done = run_goalfile(command, "goals/g.md", cwd=repo)
        assert done.returncode == 3, (command, done.stdout, done.stderr)
        assert f"the key `{key}` is given twice" in done.stdout + done.stderr, done
        assert "Traceback" not in done.stderr


def test_a_status_brought_in_by_a_merge_key_is_invalid(tmp_path: Path) -> None:
    """`x: &d` with `status: met` under it, and `<<: *d`: the status was read as `met` from a
    line no edit reaches, and the printed fix (a sed of `^status:`) changed nothing."""
    repo = approved_repo(tmp_path / "app", "g", "ok", "--check", "true", "--expected", "exit 0")
    goal = repo / "goals" / "g.md"
    text = goal.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("status: "))
    goal.write_text(text.replace(line, "x: &d\n  status: met\n<<: *d", 1), encoding="utf-8")
    for command in ("lint", "status", "audit"):
        done = run_goalfile(command, "goals/g.md", cwd=repo)
        assert done.returncode == 3, (command, done.stdout, done.stderr)
        assert "a merge key `<<`" in done.stdout + done.stderr, done
