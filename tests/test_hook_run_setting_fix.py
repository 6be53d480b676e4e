"""The fix the Stop hook prints for a `cwd:` or `shell:` no check can run with puts back the
value the goal was approved with, when it was approved with one: deleting the line, as the fix
did for every such goal, changed the contract (`cwd: src` → the git top level), so the next
stop was held again on a contract only a person may re-approve."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import clean_env, make_git_repo, run_goalfile

BIN = str(Path(sys.executable).parent)  # holds the goalfile under test
GOAL = "goals/demo.md"


def stop(repo: Path) -> dict[str, Any]:
    """The hook's answer (`--json`) to a first stop in ``repo``."""
    event = {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop"}
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", "--json", cwd=repo, input=json.dumps(event)
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def approved_with(repo: Path, line: str) -> None:
    """An active goal approved with the frontmatter ``line`` (line 4); its check, `pwd`, is met
    in a folder named `src` (unmet at the top, where a `shell:` leaves it)."""
    done = run_goalfile(
        "new", "demo", "it runs in src", "--check", "pwd", "--expected",
        "exit 0; stdout matches /src$/", "--non-goal", "n", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    path = repo / GOAL
    lines = path.read_text(encoding="utf-8").split("\n")
    lines.insert(3, line)
    path.write_text("\n".join(lines), encoding="utf-8")
    done = run_goalfile("activate", GOAL, cwd=repo)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("approved", "typed", "why", "value"),
    [
        ("cwd: ../src", 'cwd: "../src "', "begins or ends with whitespace", "../src"),
        ("shell: /bin/bash", 'shell: " /bin/bash"', "holds the character U+0020", "/bin/bash"),
    ],
)
def test_the_fix_for_a_run_setting_puts_back_the_approved_value(
    tmp_path: Path, approved: str, typed: str, why: str, value: str
) -> None:
    repo = make_git_repo(tmp_path / "repo")
    (repo / "src").mkdir()
    approved_with(repo, approved)
    path = repo / GOAL
    before = path.read_text(encoding="utf-8")
    path.write_text(before.replace(f"\n{approved}\n", f"\n{typed}\n", 1), encoding="utf-8")
    answer = stop(repo)
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])
    key = approved.split(":")[0]
    assert f"{GOAL}:4: {key} " in reason and why in reason, reason
    found = re.search(r"\n  fix: `([^`]+)` sets the `(\w+):` line back to `([^`]+)`", reason)
    assert found is not None, reason
    assert (found.group(2), found.group(3)) == (key, value), reason
    done = subprocess.run(
        ["sh", "-c", found.group(1)], cwd=repo, env=clean_env({"PATH": f"{BIN}:/usr/bin:/bin"}),
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout + done.stderr == "", done
    assert path.read_text(encoding="utf-8") == before  # as approved, byte for byte
    # the goal is verified at the next stop: no refusal of a changed contract
    again = stop(repo)
    summary = str(again["host_output"].get("reason") or again["host_output"].get("systemMessage"))
    assert "verify-goal demo iteration 0: C1 " in summary, again
    assert "contract changed" not in summary, again
