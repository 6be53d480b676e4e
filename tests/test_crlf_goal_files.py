"""Goal files with CR line ends, as editors and git leave them, through every reader and writer:
a file saved with CRLF (a Windows editor, git's `core.autocrlf`), and one whose entry heading
line ends in two carriage returns (`\\r\\r\\n`: a CRLF file passed once more through a
converter). A line ends at `\\n` with any carriage returns before it (docs/trust.md), so every
reader (lint, verify, status, log, plan, refine, audit, the Stop hook) reads the same entries,
no command loses a line or a line end, and every `fix:` printed works as written on such a file.
The real goalfile on the skill family's goal file in a real git repository."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from tests.conftest import git, run_goalfile
from tests.test_skill_family import GOAL, SKILL_PLAN, project, skill_goal


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def gf(repo: Path, *args: str, code: int) -> str:
    done = run_goalfile(*args, cwd=repo, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done.stdout + done.stderr


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", message)


def crlf_goal(tmp_path: Path) -> tuple[Path, Path]:
    """The skill family's goal saved with CRLF, activated by goalfile, committed."""
    repo = project(tmp_path, crlf(skill_goal(status="draft", iterations_used=0, plan=SKILL_PLAN)))
    goal = repo / GOAL
    assert goal.read_bytes().count(b"\r\n") == goal.read_bytes().count(b"\n")
    gf(repo, "lint", GOAL, code=0)
    gf(repo, "activate", GOAL, code=0)
    commit(repo, "activated")
    return repo, goal


def all_crlf(data: bytes) -> bool:
    """Every line ends in exactly one CR and a LF (the two-CR line set aside by the caller)."""
    return data.count(b"\n") == data.count(b"\r\n") and b"\r\r\n" not in data


def double_cr(goal: Path, heading_end: bytes) -> None:
    """Make the heading line of the newest entry that ends with ``heading_end`` end in two
    carriage returns."""
    data = goal.read_bytes()
    at = data.rindex(heading_end + b"\r\n")
    goal.write_bytes(data[:at] + heading_end + b"\r\r\n" + data[at + len(heading_end) + 2 :])


def hook(repo: Path) -> dict[str, object]:
    """The Stop hook's answer to Claude Code."""
    stop = {"cwd": str(repo), "hook_event_name": "Stop", "stop_hook_active": False}
    done = run_goalfile("hook", "stop", cwd=repo, input=json.dumps(stop), timeout=120)
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def test_a_crlf_goal_goes_through_the_lifecycle_and_stays_crlf(tmp_path: Path) -> None:
    repo, goal = crlf_goal(tmp_path)
    (repo / "tests" / "auth.sh").write_text("echo '1 failed'; exit 1\n")
    gf(repo, "plan", GOAL, code=0)
    out = gf(repo, "verify", GOAL, code=1)
    assert out.rstrip().endswith("C1 unmet, C2 met, R1 unmet; status: active")
    assert "- [ ] C1 unmet (exit 1): `1 failed`" in gf(repo, "refine", GOAL, code=0)
    (repo / "tests" / "auth.sh").write_text("echo '3 passed'\n")
    answer = hook(repo)  # the Stop hook verifies, and sends the agent back for R1
    assert answer["decision"] == "block", answer
    assert "C1 met, C2 met, R1 unmet; status: active" in str(answer["reason"])
    state = json.loads(gf(repo, "status", "--json", GOAL, code=0))["goals"][0]
    assert state["last_verify"]["iteration"] == 1, state  # the hook then starts iteration 2
    assert state["iterations"]["used"] == 2, state
    assert state["warnings"] == []
    gf(repo, "lint", GOAL, code=0)
    gf(repo, "audit", GOAL, code=0)
    data = goal.read_bytes()
    assert all_crlf(data), [line for line in data.split(b"\n") if not line.endswith(b"\r")]
    assert data.count(b"by verify-goal\r\n") == 2 and b"by refine-goal\r\n" in data


def test_a_verify_heading_ending_in_two_crs_is_an_entry_to_every_reader(tmp_path: Path) -> None:
    """refine read such a heading as an entry (it strips every CR), while status, log and the
    ledger index (one CR at most) did not: status said "not verified" and log "no verify entry
    yet" beside a refine that listed the run's unmet rows."""
    repo, goal = crlf_goal(tmp_path)
    gf(repo, "plan", GOAL, code=0)
    gf(repo, "verify", GOAL, code=1)
    double_cr(goal, b"by verify-goal")
    commit(repo, "a heading line with two CRs")
    before = goal.read_bytes()

    assert gf(repo, "lint", GOAL, code=0) == f"{GOAL}: ok\n"
    state = json.loads(gf(repo, "status", "--json", GOAL, code=0))["goals"][0]
    assert state["last_verify"] is not None and state["last_verify"]["iteration"] == 1, state
    shown = gf(repo, "status", GOAL, code=0)
    assert "not verified" not in shown and re.search(r"R1 +unmet", shown), shown
    history = gf(repo, "log", GOAL, code=0)
    assert "no verify entry yet" not in history, history
    gf(repo, "audit", GOAL, code=0)
    assert "- [ ] R1 unmet" in gf(repo, "refine", GOAL, code=0)

    after = goal.read_bytes()
    assert after.startswith(before[: before.index(b"\r\n## Lessons")])  # nothing lost
    assert after.count(b"\r\r\n") == 1 and all_crlf(after.replace(b"\r\r\n", b"\r\n"))


def test_an_approval_heading_ending_in_two_crs_backs_the_pin_for_every_reader(
    tmp_path: Path,
) -> None:
    """lint and audit found the activate entry, verify (and so the hook) did not: it refused
    the pin as "backed by no approval entry" and ran nothing."""
    repo, goal = crlf_goal(tmp_path)
    double_cr(goal, b"by activate")
    commit(repo, "a heading line with two CRs")

    assert gf(repo, "lint", GOAL, code=0) == f"{GOAL}: ok\n"
    gf(repo, "audit", GOAL, code=0)
    out = gf(repo, "verify", "--no-write", GOAL, code=1)
    assert out.rstrip().endswith("C1 met, C2 met, R1 unmet; status: active")
    assert "next:" in gf(repo, "status", GOAL, code=0)
    answer = hook(repo)
    assert answer["decision"] == "block", answer
    assert "verify-goal auth iteration 0: C1 met, C2 met, R1 unmet" in str(answer["reason"])
    data = goal.read_bytes()
    assert data.count(b"by verify-goal\r\n") == 1 and data.count(b"by activate\r\r\n") == 1


def fixes(output: str) -> list[str]:
    """The first command of each `fix:` line, as printed."""
    return re.findall(r"^\s*fix: `([^`]+)`", output, re.M)


def test_the_printed_fixes_keep_a_crlf_files_line_ends(tmp_path: Path) -> None:
    """A status and a budget limit typed by hand into a CRLF file: the `sed` command each
    `fix:` names set the value back and took the line's carriage return with it (`.*`, and
    `[^ #,}]*`), leaving a file of mixed line ends."""
    repo, goal = crlf_goal(tmp_path)
    approved = goal.read_bytes()
    assert b"\r\nstatus: active\r\n" in approved and b"\r\n  iterations: 5\r\n" in approved
    typed = approved.replace(b"\r\nstatus: active\r\n", b"\r\nstatus: met\r\n", 1)
    goal.write_bytes(typed.replace(b"\r\n  iterations: 5\r\n", b"\r\n  iterations: 2\r\n", 1))

    out = gf(repo, "lint", GOAL, code=3)
    commands = fixes(out)
    assert len(commands) == 2 and all(" && sed -i.goalfile-bak " in c for c in commands), out
    for command in commands:
        subprocess.run(["sh", "-c", command], cwd=repo, check=True, timeout=60)
    assert goal.read_bytes() == approved
    assert gf(repo, "lint", GOAL, code=0) == f"{GOAL}: ok\n"


def test_the_status_fix_keeps_the_lines_comment(tmp_path: Path) -> None:
    repo, goal = crlf_goal(tmp_path)
    text = goal.read_bytes()
    commented = text.replace(b"\r\nstatus: active\r\n", b"\r\nstatus: active   # by hand\r\n", 1)
    goal.write_bytes(commented.replace(b"status: active   #", b"status: met   #", 1))
    out = gf(repo, "status", GOAL, code=3)
    (command,) = fixes(out)
    subprocess.run(["sh", "-c", command], cwd=repo, check=True, timeout=60)
    assert goal.read_bytes() == commented
