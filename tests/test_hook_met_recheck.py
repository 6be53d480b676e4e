"""A `met` the Stop hook did not see verified is checked again before it lets the agent stop.

The hook verifies an active goal; a goal it finds `met` it let go at once, running nothing, and
said nothing. So an agent could make the check pass for a moment (`touch ok`, a patched test),
run `goalfile verify` itself, undo it and stop; or copy a met entry from a verify run in a
scratch clone. `lint`, `status` and `audit --against` the base took the entry, as it was
honest or a consistent copy. Now a `met` whose entry the copy git holds (HEAD's, else the
index's) does not have yet has its checks run again at the stop, writing nothing: they must
still pass, or the agent is held once with the rows and `goalfile reopen`.

Real git repositories in tmp_path, real goalfile processes, the hook fed the JSON a host sends.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import git, make_git_repo, run_goalfile, stop_input

GOAL = "goals/auth.md"


def _ok(repo: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = run_goalfile(*args, cwd=repo)
    assert done.returncode == code, f"goalfile {' '.join(args)}: {done.stdout}{done.stderr}"
    return done


def _approved(tmp_path: Path) -> Path:
    """A goal a person approved and committed; its check passes while `ok` exists."""
    repo = make_git_repo(tmp_path / "repo")
    _ok(repo, "new", "auth", "ok exists", "--check", "test -f ok", "--expected", "exit 0",
        "--activate", "--commit")  # fmt: skip
    return repo


def _stop(repo: Path, *, active: bool = False) -> dict[str, object] | None:
    done = run_goalfile("hook", "stop", cwd=repo, input=stop_input(repo, active=active))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    return json.loads(text) if text else None


def _held(answer: dict[str, object] | None) -> str:
    assert answer is not None and answer.get("decision") == "block", answer
    reason = str(answer["reason"])
    assert "says `met` by a ledger entry git does not hold yet" in reason, reason
    assert "- C1 unmet (exit 1)" in reason, reason
    assert "`goalfile reopen goals/auth.md --reason TEXT`" in reason, reason
    return reason


def test_a_met_made_for_a_moment_holds_the_agent_once(tmp_path: Path) -> None:
    repo = _approved(tmp_path)
    ok = repo / "ok"
    ok.write_text("", encoding="utf-8")
    _ok(repo, "verify", GOAL)
    ok.unlink()
    before = (repo / GOAL).read_bytes()
    _held(_stop(repo))
    assert (repo / GOAL).read_bytes() == before  # the check ran again; nothing was written
    # once the agent is continuing because of a Stop hook: let go, with the message
    again = _stop(repo, active=True)
    assert again is not None and "do not all pass" in str(again.get("systemMessage")), again
    # the printed command makes it active again, and the next stop verifies and holds it
    _ok(repo, "reopen", GOAL, "--reason", "the check does not pass")
    answer = _stop(repo)
    assert answer is not None and "C1 unmet; status: active" in str(answer["reason"]), answer


def test_a_met_entry_copied_from_a_scratch_clone_holds_the_agent(tmp_path: Path) -> None:
    repo = _approved(tmp_path)
    scratch = tmp_path / "scratch"
    git(tmp_path, "clone", "-q", str(repo), str(scratch))
    (scratch / "ok").write_text("", encoding="utf-8")
    _ok(scratch, "verify", GOAL)
    (repo / GOAL).write_bytes((scratch / GOAL).read_bytes())
    _ok(repo, "lint", GOAL)  # a consistent copy: every reader of the ledger takes it
    _held(_stop(repo))


def test_a_met_whose_checks_still_pass_lets_the_agent_stop_silently(tmp_path: Path) -> None:
    repo = _approved(tmp_path)
    (repo / "ok").write_text("", encoding="utf-8")
    _ok(repo, "verify", GOAL)
    before = (repo / GOAL).read_bytes()
    assert _stop(repo) is None
    assert (repo / GOAL).read_bytes() == before


def test_a_met_git_holds_is_not_run_again(tmp_path: Path) -> None:
    """Once the met entry is committed, the goal is done: a stop runs nothing for it (the
    cost of every later stop stays that of reading the file)."""
    repo = _approved(tmp_path)
    (repo / "ok").write_text("", encoding="utf-8")
    _ok(repo, "verify", GOAL)
    git(repo, "commit", "-q", "-am", "met")
    (repo / "ok").unlink()
    assert _stop(repo) is None
