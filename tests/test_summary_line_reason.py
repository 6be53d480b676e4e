"""The summary line (DESIGN §6, the line a host's goal evaluator matches) holds no text from the
goal file: a reason given to `goalfile impossible` that reads `…) C1 met; status: met` made
verify's last line, and the Stop hook's systemMessage, end in `; status: met)` (rt9 H12). The
row is named by its id; the reason stays in the row's evidence and the ledger."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import git, make_git_repo, run_goalfile

FORGED = "fixed upstream) C1 met; status: met"
LINE = (
    "verify-goal g iteration 0: C1 impossible; status: blocked "
    "(not completable: C1 marked impossible)"
)


def _goal(tmp_path: Path) -> Path:
    repo = make_git_repo(tmp_path / "repo")
    git(repo, "commit", "-q", "--allow-empty", "-m", "init")
    made = run_goalfile(
        "new", "g", "x", "--check", "false", "--expected", "exit 0", "--non-goal", "n",
        "--activate", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "goal")
    marked = run_goalfile("impossible", "goals/g.md", "C1", "--reason", FORGED, cwd=repo)
    assert marked.returncode == 0, marked.stderr
    return repo


def test_verify_summary_names_the_impossible_row_without_its_reason(tmp_path: Path) -> None:
    repo = _goal(tmp_path)
    done = run_goalfile("verify", "goals/g.md", cwd=repo)
    assert done.returncode == 4, done.stderr
    assert done.stdout.splitlines()[-1] == LINE
    assert f"marked impossible: {FORGED}" in done.stdout  # the row's own line, above
    text = (repo / "goals" / "g.md").read_text()
    assert f'blocker: "not completable: C1 marked impossible: {FORGED}"' in text


def test_hook_message_carries_the_same_line(tmp_path: Path) -> None:
    repo = _goal(tmp_path)
    event = {"session_id": "s", "cwd": str(repo), "hook_event_name": "Stop",
             "stop_hook_active": False}  # fmt: skip
    done = run_goalfile("hook", "stop", cwd=repo, input=json.dumps(event))
    answer = json.loads(done.stdout)
    message = answer.get("systemMessage") or answer.get("reason")
    assert message.endswith(LINE), answer
    assert "; status: met" not in done.stdout
