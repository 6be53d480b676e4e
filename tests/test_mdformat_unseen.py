"""Text that is not what it shows, in a goal file the goal skill's format writes, survives a
real mdformat run and is still refused: a zero-width space in `cwd`, a letter and a combining
accent in a guard's path, fullwidth vertical lines in a command. mdformat pads the criteria
table around them and keeps each character, so every finding is still there after
formatting, with the same message and fix, on the row's new line; activate still refuses."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import DATA, make_git_repo, run_goalfile

SKILL = (DATA / "parse" / "skill-format.md").read_text(encoding="utf-8")
CHANGES = {
    "timeout: 600              # optional, seconds per check\n": (
        'timeout: 600\ncwd: "tests\u200b"\n'
    ),
    "`pytest tests/auth -q`": "`pytest tests/auth -q \uff5c\uff5c true`",
    "tests/auth/fixtures`": "tests/auth/donne\u0301es`",
}


def findings(report: str) -> list[str]:
    """Each finding with its fix, without its line and column (formatting moves rows)."""
    return re.sub(r"(?m)^(g\.md):\d+:\d+:", r"\1:", report).splitlines()


def test_mdformat_keeps_each_unseen_character_and_lint_still_refuses_it(tmp_path: Path) -> None:
    repo = make_git_repo(tmp_path / "repo")
    text = SKILL.replace("status: active ", "status: draft  ")
    for old, new in CHANGES.items():
        assert old in text, old
        text = text.replace(old, new)
    path = repo / "g.md"
    path.write_text(text, encoding="utf-8")
    before = run_goalfile("lint", "g.md", cwd=repo)
    assert before.returncode == 3, before.stdout + before.stderr
    done = subprocess.run(
        [sys.executable, "-m", "mdformat", "g.md"], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    formatted = path.read_text(encoding="utf-8")
    assert formatted != text and "| --- |" in formatted  # mdformat really rewrote the table
    for char in ("\u200b", "e\u0301", "\uff5c\uff5c"):
        assert char in formatted, repr(char)
    after = run_goalfile("lint", "g.md", cwd=repo)
    assert after.returncode == 3, after.stdout + after.stderr
    assert findings(after.stderr) == findings(before.stderr)
    said = "\n".join(findings(after.stderr))
    for needle in (
        "error: cwd 'tests\\u200b' is not what it shows: it holds U+200B ZERO WIDTH SPACE",
        "it holds U+FF5C FULLWIDTH VERTICAL LINE, which shows as | (U+007C). To mend it",
        "To mend it: write U+FF5C as the one character | (U+007C) it shows",
        "To mend it: write e + U+0301 as the one character \u00e9 (U+00E9) it shows",
    ):
        assert needle in said, (needle, said)
    # each row's finding points at its line in the formatted file
    lines = formatted.split("\n")
    for found in re.finditer(r"(?m)^g\.md:(\d+):(\d+): error: (C\d)", after.stderr):
        line = lines[int(found.group(1)) - 1]
        assert line.startswith(f"| {found.group(3)} "), (found.group(0), line)
    refused = run_goalfile("activate", "g.md", cwd=repo)
    assert refused.returncode == 3 and path.read_text(encoding="utf-8") == formatted
