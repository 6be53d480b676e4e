"""The plan skill followed to the letter on a goal the goal skill made with `goalfile new`.

`goalfile new` writes the plan table's header under `## Plan`. The plan skill shows the table,
header included, under `## Plan` and says it is edited by hand; an agent that types it there as
shown leaves the header `new` wrote below its steps. In Markdown those two lines are then two
more rows of one table. `goalfile plan` read them as steps named `step` and `------`, serving
`serves` and `--------`, "which is not a criterion": a message that names no line and no fix.
The real goalfile on a real file in a real git repository.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import git, make_git_repo, run_goalfile

GOAL = "goals/version-flag.md"
HEADER = "| step | change | files | serves | check |\n|------|--------|-------|--------|-------|\n"
STEPS = (
    "| 1 | print the version | mytool.sh | C1 | `sh mytool.sh --version` |\n"
    "| 2 | no change to the tests | - | C2 | - |\n"
)


def gf(repo: Path, *args: str, code: int) -> str:
    done = run_goalfile(*args, cwd=repo, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done.stdout + done.stderr


def test_a_plan_typed_above_the_header_new_wrote_names_the_lines_to_delete(
    tmp_path: Path,
) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "mytool.sh").write_text("echo 'mytool 1.4.0'\n")
    (repo / "tests").mkdir()
    (repo / "tests" / "t.sh").write_text("true\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "tool")
    git(repo, "branch", "-M", "main")
    gf(
        repo, "new", "version-flag", "`mytool --version` prints the version",
        "--iterations", "5", "--non-goal", "tests/ stays unchanged",
        "--criterion", "the flag prints the version", "--check", "sh mytool.sh --version",
        "--expected", "exit 0; stdout matches /^mytool 1\\.4\\.0$/",
        "--criterion", "tests untouched", "--check", "git diff --stat main -- tests/",
        "--expected", "exit 0; output empty", "--activate", code=0,
    )  # fmt: skip
    goal = repo / GOAL
    text = goal.read_text()
    assert f"\n## Plan\n{HEADER}" in text  # what `new` wrote
    # the plan skill: "It lives under `## Plan` in the goal file, and you edit it by hand"
    goal.write_text(text.replace("\n## Plan\n", f"\n## Plan\n{HEADER}{STEPS}", 1))
    out = gf(repo, "plan", GOAL, code=1)  # unsound, as a plan with a malformed table is
    assert "step step" not in out and "serves serves" not in out, out
    for row in (3, 4):
        assert f"row {row} of the plan table repeats its header" in out, out
    assert "C1 is served" not in out and "C2 is served" not in out  # the steps were read

    # the fix the message names: delete those two lines
    lines = goal.read_text().split("\n")
    pasted = [n for n, line in enumerate(lines) if line.startswith("| step |")][1]
    assert lines[pasted + 1].startswith("|------|")
    del lines[pasted : pasted + 2]
    goal.write_text("\n".join(lines))
    out = gf(repo, "plan", GOAL, code=0)
    assert re.search(r"iteration 2: plan revision \d+ is sound", out), out
