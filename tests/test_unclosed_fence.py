"""A fenced code block that never closes runs, for Markdown, to the end of the file: the sections
after it, the rows it swallows and any entry written after it are code. goalfile refuses such a
file (lint's ``unclosed-fence``) instead of verifying the rows it still sees and writing its
entry into the block, where the next reading finds no ledger. Real goalfile processes on real
files in a real git repository."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import clean_env, git, goal_text, row, run_goalfile, stop_input, write_goal

FENCE = "`" * 3

# the goal a fuzz test drew: a fence line right after the first row of the criteria table
DRAWN = goal_text(
    slug="fuzz",
    rows=(row("C1", "true", "exit 0"), row("C2", "echo x", 'exit 0; stdout contains "x"')),
).replace("| C2 |", f"{FENCE}\n| C2 |")


def lint(path: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_goalfile("lint", path.relative_to(cwd), cwd=cwd)


def fix_of(output: str) -> str:
    found = re.search(r"delete line \d+: `([^`]+)`", output)
    assert found is not None, output
    return found.group(1)


def test_a_fence_left_open_after_the_criteria_is_refused_and_the_fix_works(repo: Path) -> None:
    path = write_goal(repo / "goals", DRAWN, "fuzz.md")
    line = DRAWN.split("\n").index(FENCE) + 1
    done = lint(path, repo)
    assert done.returncode == 3, done.stdout + done.stderr
    output = done.stdout + done.stderr
    assert f"goals/fuzz.md:{line}:1: error: the code block opened by" in output
    assert "`## Plan`, `## Token accounting`, `## Iterations` and 1 more" in output

    verify = run_goalfile("verify", "goals/fuzz.md", cwd=repo)
    assert verify.returncode == 3, verify.stdout + verify.stderr
    assert f"goals/fuzz.md:{line}:1:" in verify.stderr and "Traceback" not in verify.stderr
    assert path.read_text(encoding="utf-8") == DRAWN  # nothing written, nothing lost

    # the fix, run as printed: the stray fence line goes, the rows and sections come back
    fixed = subprocess.run(
        fix_of(output), shell=True, cwd=repo, env=clean_env(), capture_output=True, text=True
    )
    assert fixed.returncode == 0, fixed.stderr
    assert sorted(p.name for p in path.parent.iterdir()) == ["fuzz.md"]
    assert lint(path, repo).returncode == 0
    verify = run_goalfile("verify", "goals/fuzz.md", cwd=repo)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert verify.stdout.strip().endswith("C1 met, C2 met; status: met")
    after = lint(path, repo)
    assert after.returncode == 0, after.stdout + after.stderr  # lint and verify agree


@pytest.mark.parametrize(
    ("opening", "where"),
    [
        (FENCE, "criteria"),
        ("~~~~", "criteria"),
        (f"  {FENCE}text", "criteria"),  # indented: the line-by-line reading
        (f"{FENCE}text", "lessons"),  # the last section: it hides what is written after it
        (f"{FENCE}text", "ledger"),  # in an entry's notes: it hides the entries after it
    ],
)
def test_every_kind_of_open_fence_is_refused_where_it_stands(
    repo: Path, opening: str, where: str
) -> None:
    entry = (
        "### Iteration 1 (2026-11-30) by activate\n\nstatus: active\n"
        if where != "ledger"
        else f"### Iteration 1 (2026-11-30) by activate\n\n{opening}\nnote\n\nstatus: active\n"
    )
    text = goal_text(iterations_section=entry, lessons="- first" if where != "lessons" else None)
    if where == "criteria":
        text = text.replace("\n\n## Plan", f"\n{opening}\n\n## Plan")
    elif where == "lessons":
        text += f"## Lessons\n- first\n{opening}\nprint(1)\n"
    path = write_goal(repo / "goals", text)
    line = text.split("\n").index(opening) + 1
    done = lint(path, repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"goals/demo.md:{line}:1: error: the code block opened by" in done.stderr
    for command in ("verify", "plan"):
        refused = run_goalfile(command, "goals/demo.md", cwd=repo)
        assert refused.returncode == 3, (command, refused.stdout + refused.stderr)
    assert path.read_text(encoding="utf-8") == text


def test_closed_fences_and_a_fence_in_the_frontmatter_are_no_finding(repo: Path) -> None:
    text = goal_text(
        extra=["notes: |", f"  {FENCE}"],  # a fence line inside a YAML value is no fence
        lessons=f"- keep this\n\n{FENCE}text\n## not a heading\n{FENCE}\n\n~~~\nx\n~~~~\n",
    )
    path = write_goal(repo / "goals", text)
    done = lint(path, repo)
    assert "unclosed" not in done.stdout + done.stderr
    assert "never closed" not in done.stdout + done.stderr


def test_the_stop_hook_holds_the_agent_on_a_goal_with_an_open_fence(repo: Path) -> None:
    write_goal(repo / "goals", DRAWN, "fuzz.md")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    done = run_goalfile("hook", "stop", "--agent", "claude", cwd=repo, input=stop_input(repo))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    line = DRAWN.split("\n").index(FENCE) + 1
    assert f"goals/fuzz.md:{line}:1" in answer["reason"], answer["reason"]
    assert "never closed" in answer["reason"]
