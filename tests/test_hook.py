"""`goalfile hook stop`: recorded host inputs, a real git repository, real verify runs."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import (
    DATA,
    Row,
    clean_env,
    git,
    goal_text,
    make_git_repo,
    row,
    run_goalfile,
    write_goal,
)

from goalfile.accounting import parse_accounting
from goalfile.commands import hook as hook_module
from goalfile.commands.hook import (
    REASON_LIMIT,
    GoalOutcome,
    HookInputError,
    StopDecision,
    StopInput,
    block_reason,
)
from goalfile.commands.verify import VerifyResult
from goalfile.hostjson import HostAgent
from goalfile.model import Entry, RowResult, Status, Verdict
from goalfile.parse import parse_goal
from goalfile.progress import fingerprint, recorded_streak

HOOKS = DATA / "hooks"
CODEX_KEYS = {"continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"}
CLAUDE_KEYS = {"continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"}


def recorded(
    agent: str, repo: Path, *, active: bool = False, transcript: Path | None = None
) -> str:
    data = json.loads((HOOKS / f"{agent}-stop.json").read_text(encoding="utf-8"))
    data["cwd"] = str(repo)
    data["stop_hook_active"] = active
    if transcript is not None:
        data["transcript_path"] = str(transcript)
    else:
        data.pop("transcript_path")
    return json.dumps(data)


def stop(
    agent: str,
    repo: Path,
    *extra: str,
    stdin: str | None = None,
    active: bool = False,
    transcript: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    if stdin is None:
        stdin = recorded(agent, repo, active=active, transcript=transcript)
    done = run_goalfile("hook", "stop", "--agent", agent, *extra, cwd=repo, input=stdin)
    assert done.returncode == 0, done.stderr
    return done


def output(done: subprocess.CompletedProcess[str]) -> dict[str, object] | None:
    text = done.stdout.strip()
    if not text:
        return None
    value = json.loads(text)
    assert isinstance(value, dict)
    assert text.count("\n") == 0  # one JSON document on one line, nothing else on stdout
    return value


def demo_goal(
    repo: Path,
    *,
    rows: Sequence[Row] = (row("C1", "test -f done.txt", "exit 0"),),
    status: str = "active",
    tokens: str = "null",
) -> Path:
    """A goal with verify's own stall limit out of the way, so the hook's guard is seen."""
    text = goal_text(rows=rows, status=status, tokens=tokens, extra=("stall_limit: 20",))
    return write_goal(repo / "goals", text)


def dense(text: str) -> str:
    """The text without blank lines (the same in the compact style and in mdformat's)."""
    return "".join(line for line in text.splitlines(keepends=True) if line.strip())


@pytest.fixture
def hook_repo(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "widget-app")
    (root / "goals").mkdir()
    return root


# --- end to end -----------------------------------------------------------------------------


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_block_while_unmet_then_allow_after_the_fix(hook_repo: Path, agent: str) -> None:
    path = demo_goal(hook_repo)
    done = stop(agent, hook_repo)
    answer = output(done)
    assert answer is not None and answer["decision"] == "block"
    assert set(answer) <= (CODEX_KEYS if agent == "codex" else CLAUDE_KEYS)
    reason = answer["reason"]
    assert isinstance(reason, str)
    assert reason.splitlines()[0] == "verify-goal demo iteration 1: C1 unmet; status: active"
    assert "- C1 unmet (exit 1)" in reason
    text = path.read_text(encoding="utf-8")
    assert "### Iteration 1" in text  # verify wrote its entry
    # sending the agent back to work started the next iteration, ledgered as `plan` does
    assert "by stop-hook\nthe Stop hook sent the agent back to work: C1 unmet\n" in dense(text)
    assert parse_goal(text, path=str(path)).iterations_used == 2
    assert "iteration 2 of 5 started" in done.stderr

    (hook_repo / "done.txt").write_text("ok\n", encoding="utf-8")
    done = stop(agent, hook_repo, active=True)
    answer = output(done)
    assert answer is not None and "decision" not in answer
    assert answer["systemMessage"] == "goalfile: verify-goal demo iteration 2: C1 met; status: met"
    assert parse_goal(path.read_text(encoding="utf-8"), path=str(path)).status is Status.MET

    done = stop(agent, hook_repo)  # met now: nothing to verify, the stop is allowed
    assert output(done) == ({} if agent == "codex" else None)


VERIFY_ENTRY = """### Iteration {n} ({day}) by verify-goal

| id  | verdict | command            | exit | evidence                           |
| --- | ------- | ------------------ | ---- | ---------------------------------- |
| C1  | unmet   | `test -f done.txt` | 1    | exit 0 expected, got 1 (no output) |

working directory: `..` (git top level)

status: active
contract: bca1ff6e47b1

"""


def test_a_block_writes_the_verify_entry_and_the_next_iteration_exactly(hook_repo: Path) -> None:
    """The verify entry, the next iteration's entry and `iterations_used`, and nothing else:
    the file after the hook, byte for byte, whether they are written apart or in one write."""
    path = demo_goal(hook_repo)
    before = path.read_text(encoding="utf-8")
    day = time.strftime("%Y-%m-%d")
    stop("claude", hook_repo)
    if time.strftime("%Y-%m-%d") != day:
        pytest.fail("the day changed during the test: run it again")
    expected = before.replace("iterations_used: 1\n", "iterations_used: 2\n").replace(
        "## Iterations\n\n## Lessons\n",
        "## Iterations\n\n"
        + VERIFY_ENTRY.format(n=1, day=day)
        + f"### Iteration 2 ({day}) by stop-hook\n\n"
        "the Stop hook sent the agent back to work: C1 unmet\n\n## Lessons\n",
    )
    assert path.read_bytes() == expected.encode("utf-8")
    stop("claude", hook_repo, active=True)
    expected = expected.replace("iterations_used: 2\n", "iterations_used: 3\n").replace(
        "C1 unmet\n\n## Lessons\n",
        "C1 unmet\n\n"
        + VERIFY_ENTRY.format(n=2, day=day)
        + f"### Iteration 3 ({day}) by stop-hook\n\n"
        "the Stop hook sent the agent back to work: C1 unmet\n\n## Lessons\n",
    )
    assert path.read_bytes() == expected.encode("utf-8")


def test_at_the_limit_the_verify_entry_and_the_exhaustion_are_written_exactly(
    hook_repo: Path,
) -> None:
    text = goal_text(rows=(row("C1", "test -f done.txt", "exit 0"),), iterations="1")
    path = write_goal(hook_repo / "goals", text)
    day = time.strftime("%Y-%m-%d")
    done = stop("claude", hook_repo)
    if time.strftime("%Y-%m-%d") != day:
        pytest.fail("the day changed during the test: run it again")
    assert "iteration budget reached: 1 of 1 used" in done.stderr
    expected = text.replace("status: active            #", "status: exhausted         #").replace(
        "## Iterations\n\n## Lessons\n",
        "## Iterations\n\n"
        + VERIFY_ENTRY.format(n=1, day=day)
        + f"### Iteration 1 ({day}) by stop-hook\n\n"
        "iteration budget reached: 1 of 1 used\n\nstatus: exhausted\n\n## Lessons\n",
    )
    assert path.read_bytes() == expected.encode("utf-8")


def test_a_next_iteration_the_file_cannot_take_leaves_the_verify_entry_alone(
    hook_repo: Path,
) -> None:
    """`iterations_used` on a line YAML splits at a NEL cannot be set by a line edit: the
    iteration is refused with its reason, and verify's entry is written as it is."""
    text = goal_text(rows=(row("C1", "test -f done.txt", "exit 0"),)).replace(
        "iterations_used: 1\ntokens_used: 0\n", "tokens_used: 0\x85iterations_used: 1\n"
    )
    path = write_goal(hook_repo / "goals", text)
    day = time.strftime("%Y-%m-%d")
    done = stop("claude", hook_repo)
    if time.strftime("%Y-%m-%d") != day:
        pytest.fail("the day changed during the test: run it again")
    answer = output(done)
    assert answer is not None and answer["decision"] == "block"
    assert (
        f"goalfile: goals/demo.md: no new iteration was started: {path}:1: cannot change "
        "`iterations_used` by editing one line"
    ) in done.stderr
    expected = text.replace(
        "## Iterations\n\n## Lessons\n",
        "## Iterations\n\n" + VERIFY_ENTRY.format(n=1, day=day) + "## Lessons\n",
    )
    assert path.read_bytes() == expected.encode("utf-8")


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_at_the_iteration_limit_the_goal_is_exhausted_and_the_stop_allowed(
    hook_repo: Path, agent: str
) -> None:
    rows = (row("C1", "test -f done.txt", "exit 0"),)
    path = write_goal(hook_repo / "goals", goal_text(rows=rows, iterations="2", iterations_used=1))
    first = output(stop(agent, hook_repo))
    assert first is not None and first["decision"] == "block"
    assert str(first["reason"]).startswith("verify-goal demo iteration 1: C1 unmet")
    done = stop(agent, hook_repo, active=True)
    answer = output(done)
    assert answer is not None and "decision" not in answer, answer
    message = str(answer["systemMessage"])
    assert message.startswith("goalfile: verify-goal demo iteration 2: C1 unmet; status: active")
    assert "iteration budget reached: 2 of 2 used" in message
    assert "`goalfile budget goals/demo.md --iterations 4`" in message
    goal = parse_goal(path.read_text(encoding="utf-8"), path=str(path))
    assert (goal.status, goal.iterations_used) == (Status.EXHAUSTED, 2)
    assert dense(path.read_text(encoding="utf-8")).endswith(
        "by stop-hook\niteration budget reached: 2 of 2 used\nstatus: exhausted\n## Lessons\n"
    )
    assert run_goalfile("audit", path, cwd=hook_repo).returncode == 0
    raised = run_goalfile("budget", path, "--iterations", "3", cwd=hook_repo)
    assert raised.returncode == 0, raised.stderr


def test_the_hook_runs_from_a_subfolder_of_the_repository(hook_repo: Path) -> None:
    demo_goal(hook_repo)
    (hook_repo / "src").mkdir()
    data = json.loads(recorded("claude", hook_repo))
    data["cwd"] = str(hook_repo / "src")
    answer = output(stop("claude", hook_repo / "src", stdin=json.dumps(data)))
    assert answer is not None and answer["decision"] == "block"


def stop_from(folder: Path, repo: Path, *extra: str) -> dict[str, object] | None:
    """The Claude Code hook, run in ``repo``, with the session's ``cwd`` in ``folder``."""
    data = json.loads(recorded("claude", repo))
    data["cwd"] = str(folder)
    return output(stop("claude", repo, *extra, stdin=json.dumps(data)))


@pytest.mark.parametrize("planted", ["empty .git file", "empty .git folder", "git init"])
def test_a_git_planted_in_a_subfolder_does_not_hide_the_goals(
    hook_repo: Path, planted: str
) -> None:
    """`touch scratch/.git; cd scratch`, then stop: the repository is the one git names, and a
    repository made inside the project adds its goals to the project's own."""
    path = demo_goal(hook_repo)
    assert run_goalfile("focus", "goals/demo.md", cwd=hook_repo).returncode == 0
    scratch = hook_repo / "scratch"
    scratch.mkdir()
    if planted == "empty .git file":
        (scratch / ".git").write_text("", encoding="utf-8")
    elif planted == "empty .git folder":
        (scratch / ".git").mkdir()
    else:
        make_git_repo(scratch)
    answer = stop_from(scratch, hook_repo)
    assert answer is not None and answer["decision"] == "block", answer
    assert str(answer["reason"]).startswith("verify-goal demo iteration 1: C1 unmet")
    assert "### Iteration 1" in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("setting", ["core.bare=true", "core.worktree elsewhere"])
def test_a_repository_git_names_no_work_tree_for_still_holds_the_agent(
    hook_repo: Path, tmp_path: Path, setting: str
) -> None:
    """`git config core.bare true` (or a core.worktree elsewhere) makes git name no work tree
    for the project; with the session in `src/`, its goals still hold the agent."""
    path = demo_goal(hook_repo)
    assert run_goalfile("focus", "goals/demo.md", cwd=hook_repo).returncode == 0
    (hook_repo / "src").mkdir()
    if setting == "core.bare=true":
        git(hook_repo, "config", "core.bare", "true")
    else:
        (tmp_path / "elsewhere").mkdir()
        git(hook_repo, "config", "core.worktree", str(tmp_path / "elsewhere"))
    data = json.loads(recorded("claude", hook_repo))
    data["cwd"] = str(hook_repo / "src")
    done = stop("claude", hook_repo / "src", "--json", stdin=json.dumps(data))
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    assert [goal["path"] for goal in answer["goals"]] == ["../goals/demo.md"]  # as src/ sees it
    assert f"git names no work tree for the repository at {hook_repo.resolve()}" in (
        "\n".join(answer["notes"])
    )
    assert "### Iteration 1" in path.read_text(encoding="utf-8")


def test_a_relative_goal_flag_is_resolved_against_the_repository_top(hook_repo: Path) -> None:
    """`--goal goals/demo.md` names the repository's goal, never a decoy under the session's
    `cwd` (a draft, or a goal whose checks the agent wrote)."""
    demo_goal(hook_repo)
    decoy = write_goal(hook_repo / "scratch" / "goals", goal_text(status="draft"))
    before = decoy.read_bytes()
    answer = stop_from(hook_repo / "scratch", hook_repo, "--goal", "goals/demo.md")
    assert answer is not None and answer["decision"] == "block", answer
    assert str(answer["reason"]).startswith("verify-goal demo iteration 1: C1 unmet")
    assert decoy.read_bytes() == before


def test_transcripts_of_both_hosts_are_accounted(hook_repo: Path) -> None:
    path = demo_goal(hook_repo)
    claude = hook_repo.parent / "claude.jsonl"
    codex = hook_repo.parent / "rollout.jsonl"
    shutil.copyfile(DATA / "transcripts" / "claude-session-a.jsonl", claude)
    lines = (DATA / "transcripts" / "codex-rollout-a.jsonl").read_text("utf-8").splitlines(True)
    codex.write_text("".join(lines[:8]), encoding="utf-8")

    stop("claude", hook_repo, transcript=claude)
    stop("codex", hook_repo, transcript=codex)
    codex.write_text("".join(lines), encoding="utf-8")  # the Codex session went on
    stop("codex", hook_repo, transcript=codex, active=True)

    text = path.read_text(encoding="utf-8")
    rows = parse_accounting(text).rows
    assert [(r.host, r.baseline) for r in rows] == [("claude", 3170), ("codex", rows[1].baseline)]
    assert rows[1].latest == 3297
    goal = parse_goal(text, path=str(path))
    assert goal.tokens_used == 3297 - rows[1].baseline > 0


def test_a_token_budget_is_enforced_from_the_transcript(hook_repo: Path) -> None:
    path = demo_goal(hook_repo, tokens="100")
    rollout = hook_repo.parent / "rollout.jsonl"
    lines = (DATA / "transcripts" / "codex-rollout-a.jsonl").read_text("utf-8").splitlines(True)
    rollout.write_text("".join(lines[:8]), encoding="utf-8")
    assert (output(stop("codex", hook_repo, transcript=rollout)) or {})["decision"] == "block"
    rollout.write_text("".join(lines), encoding="utf-8")
    answer = output(stop("codex", hook_repo, transcript=rollout, active=True))
    assert answer is not None and "decision" not in answer
    assert "status: exhausted" in str(answer["systemMessage"])
    assert parse_goal(path.read_text("utf-8"), path=str(path)).status is Status.EXHAUSTED


def test_loop_guard_allows_the_stop_when_nothing_moves(hook_repo: Path) -> None:
    demo_goal(hook_repo)
    for _ in range(3):
        answer = output(stop("claude", hook_repo, "--stall-limit", "3", active=False))
        assert answer is not None and answer["decision"] == "block"  # not continuing yet
    answer = output(stop("claude", hook_repo, "--stall-limit", "3", active=True))
    assert answer is not None and "decision" not in answer
    assert "no progress in the last 3 verify runs" in str(answer["systemMessage"])


def test_loop_guard_counts_only_the_hooks_own_runs(hook_repo: Path) -> None:
    """Sent back once, the agent ran `goalfile verify` twice without a change and stopped: the
    guard counted its runs and let it go with "no progress in the last 3 verify runs". Only
    the runs the hook sent the agent back from count; three of them let it go."""
    path = demo_goal(hook_repo)
    answer = output(stop("claude", hook_repo, "--stall-limit", "3"))
    assert answer is not None and answer["decision"] == "block"
    for _ in range(2):
        done = run_goalfile("verify", path, cwd=hook_repo)
        assert done.returncode == 1 and "status: active" in done.stdout, done.stdout
    answer = output(stop("claude", hook_repo, "--stall-limit", "3", active=True))
    assert answer is not None and answer.get("decision") == "block", answer  # was: let go
    answer = output(stop("claude", hook_repo, "--stall-limit", "3", active=True))
    assert answer is not None and "decision" not in answer, answer  # the hook's third run
    assert "no progress in the last 3 verify runs" in str(answer["systemMessage"])


def test_loop_guard_counts_progress(hook_repo: Path) -> None:
    demo_goal(hook_repo, rows=(row("C1", "ls | wc -l", "exit 0; prints 0"),))
    for _ in range(2):
        stop("codex", hook_repo, "--stall-limit", "2", active=True)
    (hook_repo / "new-file").write_text("x", encoding="utf-8")  # evidence changes: progress
    answer = output(stop("codex", hook_repo, "--stall-limit", "2", active=True))
    assert answer is not None and answer["decision"] == "block"


def backed_goal(repo: Path, status: str) -> Path:
    """A goal whose status the command that decides it wrote (so the ledger backs it)."""
    if status == "draft":
        return demo_goal(repo, status="draft")
    if status == "exhausted":  # the hook itself exhausts it at the iteration limit
        path = write_goal(
            repo / "goals",
            goal_text(rows=(row("C1", "false", "exit 0"),), iterations="1", iterations_used=1),
        )
        stop("claude", repo)
        # committed as the person keeps it: an exhaustion entry HEAD does not hold yet is
        # told at every allowed stop (test_hook_release_told.py), and so is one only git's
        # index holds (test_hook_scope.py)
        git(repo, "add", "--", "goals/demo.md")
        git(repo, "commit", "-qm", "goal: demo")
        return path
    path = demo_goal(repo, rows=(row("C1", "true" if status == "met" else "false", "exit 0"),))
    commands = {
        "met": ("verify", str(path)),
        "paused": ("pause", str(path), "--reason", "waiting for review"),
        "blocked": ("block", str(path), "--reason", "the API is down", "--tried", "a retry"),
    }
    done = run_goalfile(*commands[status], cwd=repo)
    assert done.returncode in (0, 4), done.stderr
    return path


@pytest.mark.parametrize("status", ["paused", "draft", "exhausted", "blocked", "met"])
def test_goals_that_are_not_active_let_the_agent_stop(hook_repo: Path, status: str) -> None:
    path = backed_goal(hook_repo, status)
    assert parse_goal(path.read_text("utf-8"), path=str(path)).status.value == status
    before = path.read_bytes()
    if status in ("paused", "blocked"):  # set today: every allowed stop names the entry
        by, again = {"paused": ("pause", ""), "blocked": ("block", " --resolved TEXT")}[status]
        told = {
            "systemMessage": f"goalfile: goals/demo.md (demo) is {status}, not met: its entry "
            f"`### Iteration 1 ({date.today().isoformat()}) by {by}` set it; the stop is "
            f"allowed (a person reopens it with `goalfile resume goals/demo.md{again}`)"
        }
        for args in ((), ("--goal", "goals/demo.md")):
            assert output(stop("codex", hook_repo, *args)) == told
            assert output(stop("claude", hook_repo, *args)) == told
        assert path.read_bytes() == before
        return
    assert output(stop("codex", hook_repo)) == {}
    assert output(stop("claude", hook_repo)) is None
    assert path.read_bytes() == before
    answer = output(stop("claude", hook_repo, "--goal", "goals/demo.md"))
    assert answer == {"systemMessage": f"goalfile: demo is {status}; the stop is allowed"}


# The hosts each status is tried with: every host for `met` (the status an agent types to
# stop), two for each other status, every host with at least two statuses. The rule that holds
# is one for every host; what differs by host is how the hook reads its input and writes its
# answer, tried here with each status a host gets (and in test_gemini.py, test_pi.py). Each
# host tried is two hook processes (with and without --goal).
UNBACKED_HOSTS = {
    "met": ("claude", "codex", "gemini", "pi"),
    "paused": ("codex", "gemini"),
    "blocked": ("pi", "claude"),
    "exhausted": ("gemini", "codex"),
    "draft": ("claude", "pi"),
}


@pytest.mark.parametrize(
    ("status", "ledger", "says"),
    [
        ("met", "", "the status is `met`, but the ledger has no verify entry"),
        ("paused", "", "the status is `paused`, but no ledger entry has a status line"),
        ("blocked", "active", "says `active`"),
        ("exhausted", "active", "says `active`"),
        ("draft", "active", "says `active`"),
    ],
)
def test_a_status_the_ledger_does_not_back_holds_the_agent(
    hook_repo: Path, status: str, ledger: str, says: str
) -> None:
    """`status: met` typed by hand (or any status no command wrote) is no way to stop, with
    or without --goal, for every host; the fix in the reason works as written."""
    path = demo_goal(hook_repo)
    if ledger:  # an entry that backs `active`, written by a real command
        assert run_goalfile("plan", path, cwd=hook_repo).returncode in (0, 1, 3)
        assert run_goalfile("verify", path, cwd=hook_repo).returncode == 1
    text = path.read_text("utf-8")
    path.write_text(text.replace("status: active ", f"status: {status} ", 1), "utf-8")
    before = path.read_bytes()
    events = {"claude": None, "codex": None, "gemini": "AfterAgent", "pi": "agent_end"}
    for agent in UNBACKED_HOSTS[status]:
        event = events[agent]
        stdin = (
            None if event is None else json.dumps({"cwd": str(hook_repo), "hook_event_name": event})
        )
        for extra in ((), ("--goal", "goals/demo.md")):
            answer = output(stop(agent, hook_repo, *extra, stdin=stdin))
            assert answer is not None and answer["decision"] == "block", (agent, answer)
            reason = str(answer["reason"])
            assert reason.startswith(
                "goalfile does not accept the status of goals/demo.md: goals/demo.md:3: "
            ), reason
            assert says in reason
    assert path.read_bytes() == before  # nothing was verified or written
    # the loop guard's rule for a goal the hook cannot act on: ask once, then let go (once in
    # each session: where the claude session was not asked yet, its record holds no such
    # hold, and the first stop it marks as continuing is held)
    answer = output(stop("claude", hook_repo, active=True))
    if "claude" not in UNBACKED_HOSTS[status]:
        assert answer is not None and answer.get("decision") == "block", answer
        answer = output(stop("claude", hook_repo, active=True))
    assert answer is not None and "decision" not in answer
    assert says in str(answer["systemMessage"])
    # the fix, run as written, restores the status the ledger backs
    fix = reason.split("  fix: `", 1)[1].split("`", 1)[0]
    done = subprocess.run(fix, shell=True, cwd=hook_repo, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (hook_repo / "goals").iterdir()) == ["demo.md"]
    assert run_goalfile("audit", path, cwd=hook_repo).returncode == 0
    answer = output(stop("claude", hook_repo))
    assert answer is not None and answer["decision"] == "block"
    assert str(answer["reason"]).startswith("verify-goal demo iteration ")  # verified again


def test_the_fix_in_a_reason_works_from_the_sessions_sub_folder(hook_repo: Path) -> None:
    """A session whose shell is in a sub-folder (Claude Code's Bash tool moves it) gets the
    goal named as that shell reaches it, so the printed fix runs as written there."""
    path = demo_goal(hook_repo)
    before = path.read_text("utf-8")
    path.write_text(before.replace("status: active ", "status: met ", 1), "utf-8")
    src = hook_repo / "src" / "app"
    src.mkdir(parents=True)
    answer = stop_from(src, hook_repo)
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert reason.startswith("goalfile does not accept the status of ../../goals/demo.md: "), reason
    fix = reason.split("  fix: `", 1)[1].split("`", 1)[0]
    done = subprocess.run(fix, shell=True, cwd=src, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert path.read_text("utf-8") == before  # the status, its comment kept
    assert run_goalfile("lint", path, cwd=hook_repo).returncode == 0


def test_a_goal_file_that_does_not_load_holds_the_agent(hook_repo: Path) -> None:
    """Breaking the goal file (one bad YAML line) is no way to stop either."""
    path = demo_goal(hook_repo)
    text = path.read_text("utf-8")
    path.write_text(text.replace("tokens_used: 0\n", "tokens_used: 0\nnote: [x\n", 1), "utf-8")
    lint = run_goalfile("lint", "goals/demo.md", cwd=hook_repo)
    assert lint.returncode == 3
    where = re.search(r"demo\.md:\d+:\d+: the frontmatter is not valid YAML", lint.stderr)
    assert where is not None, lint.stderr
    for extra in ((), ("--goal", "goals/demo.md")):
        answer = output(stop("claude", hook_repo, *extra))
        assert answer is not None and answer["decision"] == "block", answer
        reason = str(answer["reason"])
        assert reason.startswith("goalfile could not read goals/demo.md: "), reason
        assert where.group(0) in reason and "; write the line as YAML (`key: value`" in reason
        assert "`goalfile lint goals/demo.md` lists every problem" in reason
    answer = output(stop("claude", hook_repo, active=True))  # asked once: then let go
    assert answer is not None and "not valid YAML" in str(answer["systemMessage"])


def test_an_error_row_blocks_the_goal_and_holds_the_agent_once(hook_repo: Path) -> None:
    """A check that cannot run (127: the code a check runs is the agent's to edit, and so is
    its time) makes the goal `blocked`; that holds the agent once, with the row, then lets it
    go, as every goal the hook could not verify does."""
    path = demo_goal(hook_repo, rows=(row("C1", "no-such-tool-xyz", "exit 0"),))
    held = stop("claude", hook_repo)
    assert "iteration" not in held.stderr.replace("verify-goal demo iteration 1", ""), held.stderr
    written = path.read_text(encoding="utf-8")
    assert "by stop-hook\n" not in written  # a blocked goal starts no iteration
    assert written.count(") by stop-hook-hold\n") == 1  # the hold, ledgered in verify's write
    answer = output(held)
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert reason.startswith("goalfile: verify-goal demo iteration 1: C1 error; status: blocked")
    assert "\n- C1 error (exit 127): " in reason, reason
    assert "goals/demo.md is blocked: a check could not be judged" in reason, reason
    assert "`goalfile resume goals/demo.md --resolved TEXT`" in reason, reason
    for active in (True, False):  # sent back once, then a later turn: let go, said
        answer = output(stop("claude", hook_repo, active=active))
        assert answer is not None and "decision" not in answer, answer
        message = str(answer["systemMessage"])
        assert "goals/demo.md is blocked by a verify run (verify-goal demo iteration 1: C1 " in (
            message
        ), message
    assert path.read_text(encoding="utf-8").count(") by stop-hook-hold\n") == 1  # held once
    resumed = run_goalfile("resume", path, "--resolved", "tool installed", cwd=hook_repo)
    assert resumed.returncode == 0, resumed.stderr
    # the tool still missing: the stop's own verify writes a new block entry, held once at
    # that stop although it is marked continuing (once per entry), then let go, said
    answer = output(stop("claude", hook_repo, active=True))
    assert answer is not None and answer["decision"] == "block", answer
    assert "C1 error; status: blocked" in str(answer["reason"]), answer
    assert path.read_text(encoding="utf-8").count(") by stop-hook-hold\n") == 2
    answer = output(stop("claude", hook_repo, active=True))
    assert answer is not None and "decision" not in answer, answer
    assert "C1 error; status: blocked" in str(answer["systemMessage"]), answer


def test_no_goal_at_all_lets_the_agent_stop(hook_repo: Path) -> None:
    assert output(stop("codex", hook_repo)) == {}
    done = stop("claude", hook_repo)
    assert output(done) is None and "no active goal" in done.stderr
    # a --goal naming no goal git holds pins the hook to nothing: held once, then let go
    answer = output(stop("claude", hook_repo, "--goal", "goals/missing.md"))
    assert answer is not None and answer["decision"] == "block", answer
    said = "goalfile: the Stop hook's --goal names goals/missing.md (no file is there), which"
    assert str(answer["reason"]).startswith(said), answer
    answer = output(stop("claude", hook_repo, "--goal", "goals/missing.md", active=True))
    assert answer is not None and str(answer["systemMessage"]).startswith(said), answer


def test_two_active_goals_are_both_held(hook_repo: Path) -> None:
    demo_goal(hook_repo)
    write_goal(
        hook_repo / "goals",
        goal_text(slug="other", rows=(row("C1", "true", "exit 0"),)),
        name="other.md",
    )
    answer = output(stop("claude", hook_repo))
    assert answer is not None and answer["decision"] == "block"
    assert "verify-goal demo" in str(answer["reason"])
    assert "verify-goal other" not in str(answer["reason"])  # met: not a reason to go on


def test_goal_flag_picks_one_goal_first(hook_repo: Path) -> None:
    """--goal verifies its goal first; once that one lets the agent stop, another active goal
    git holds (the index or HEAD) that is unmet still holds it."""
    demo_goal(hook_repo)
    other = write_goal(hook_repo / "goals", goal_text(slug="other"), name="other.md")
    done = stop("claude", hook_repo, "--goal", "goals/other.md")
    answer = output(done)
    assert answer is not None and answer["decision"] == "block", answer
    assert str(answer["reason"]).startswith("verify-goal demo iteration 1: C1 unmet"), answer
    assert other.read_text("utf-8").startswith("---\nslug: other\nstatus: met ")  # verified
    assert "--goal never lets the agent stop while another active goal" in done.stderr


def test_a_changed_contract_asks_once_then_lets_go(hook_repo: Path) -> None:
    path = demo_goal(hook_repo)  # active, no approval entry: activate approves it as it is
    assert run_goalfile("activate", path, cwd=hook_repo).returncode == 0, "pinned"
    assert run_goalfile("activate", path, cwd=hook_repo).returncode == 3  # approved already
    path.write_text(path.read_text("utf-8").replace("test -f done.txt", "true", 1), "utf-8")
    answer = output(stop("claude", hook_repo))
    assert answer is not None and answer["decision"] == "block"
    assert "contract changed" in str(answer["reason"])
    answer = output(stop("claude", hook_repo, active=True))
    assert answer is not None and "decision" not in answer
    assert "contract changed" in str(answer["systemMessage"])


def hook_timeout_for_this_machine(folder: Path) -> float:
    """A host timeout this machine, as busy as it is now, can keep: ten times the wall time of
    one whole hook run (start, git, verify one quick row, write the goal file, answer) in a
    repository of its own, and at least 5 s. The hook's own time limit ends before the
    host's timeout by a fifth of it (at least 2 s) and its watchdog by a tenth (at most 15 s),
    and what the hook does before and after the check must fit in those: on a quiet machine
    the run takes well under half a second, so the timeout is 5 s; on a loaded one (CI: three
    workers on two cores) the same run can take seconds, and a fixed 5 s measured the load."""
    probe = make_git_repo(folder / "probe")
    (probe / "goals").mkdir()
    demo_goal(probe)  # its check fails at once: verified, written, held
    started = time.monotonic()
    answer = output(stop("claude", probe))
    took = time.monotonic() - started
    assert answer is not None and answer["decision"] == "block", answer
    assert took < 10, f"one hook run took {took:.1f} s: this machine is too busy to test on"
    return max(5.0, float(round(10 * took)))


def test_verify_stays_within_the_hook_timeout(hook_repo: Path) -> None:
    timeout = hook_timeout_for_this_machine(hook_repo.parent)
    # the check outlasts the timeout by far: only the hook's own time limit ends it
    check = f"sleep {int(timeout) + 60}"
    path = demo_goal(hook_repo, rows=(row("C1", check, "exit 0"),))
    started = time.monotonic()
    answer = output(stop("claude", hook_repo, "--timeout", f"{timeout:g}"))
    assert time.monotonic() - started < timeout  # the host would have killed it here
    # the hook's time ended the check: the goal was not verified, which is no reason to stop
    assert answer is not None and answer["decision"] == "block"
    reason = str(answer["reason"])
    assert "could not verify goals/demo.md within the hook's time limit" in reason
    assert "C1 error; status: blocked" in reason  # verify wrote what it found
    fix = re.search(r"`(goalfile resume [^`]+)`", reason)
    assert fix is not None
    answer = output(stop("claude", hook_repo, "--timeout", f"{timeout:g}", active=True))
    assert answer is not None and "decision" not in answer, answer  # held once: let go, said
    assert "goals/demo.md is blocked by a verify run" in str(answer["systemMessage"]), answer
    done = subprocess.run(  # the goalfile under test, on PATH
        fix.group(1),
        shell=True,
        cwd=hook_repo,
        env=clean_env({"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr  # the printed fix works as written
    assert "status: active" in path.read_text("utf-8")


def test_a_missing_transcript_does_not_stop_verify(hook_repo: Path) -> None:
    demo_goal(hook_repo)
    done = stop("claude", hook_repo, transcript=hook_repo / "gone.jsonl")
    assert (output(done) or {})["decision"] == "block"
    assert "not found" in done.stderr


def test_an_unreadable_transcript_does_not_stop_verify(hook_repo: Path) -> None:
    demo_goal(hook_repo)
    junk = hook_repo.parent / "junk.jsonl"
    junk.write_text("not json\n", encoding="utf-8")
    done = stop("claude", hook_repo, transcript=junk)
    assert (output(done) or {})["decision"] == "block"
    assert "token usage not read" in done.stderr


# --- failing open ---------------------------------------------------------------------------


@pytest.mark.parametrize("stdin", ["{not json", "[1, 2]", "\ufeff"])
def test_bad_input_fails_open(hook_repo: Path, stdin: str) -> None:
    demo_goal(hook_repo)
    done = stop("codex", hook_repo, stdin=stdin)
    if stdin == "\ufeff":  # empty input: the process's own folder
        assert (output(done) or {})["decision"] == "block"
        return
    assert set(output(done) or {}) <= {"systemMessage"}
    assert "the stop is allowed" in done.stderr


@pytest.mark.parametrize("args", [["--agent", "gemini"], ["--no-such-option"], ["--timeout", "x"]])
def test_a_bad_command_line_never_exits_2(hook_repo: Path, args: list[str]) -> None:
    done = run_goalfile("hook", "stop", *args, cwd=hook_repo, input="{}")
    assert done.returncode == 0
    assert done.stdout.strip() == "{}"
    assert "the stop is allowed" in done.stderr


@pytest.mark.parametrize("active", [False, True])
def test_an_internal_error_after_the_input_is_read_holds_once(
    monkeypatch: pytest.MonkeyPatch, active: bool
) -> None:
    from goalfile.cli import main

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(hook_module, "decide_stop", broken)
    given = json.dumps({"stop_hook_active": active})
    result = CliRunner().invoke(main, ["hook", "stop", "--agent", "codex"], input=given)
    assert result.exit_code == 0
    answer = json.loads(result.stdout)
    if active:  # the block-once rule: a host is never held forever
        assert set(answer) == {"systemMessage"} and "boom" in answer["systemMessage"]
    else:
        assert answer["decision"] == "block" and "boom" in answer["reason"]
    assert "internal error: RuntimeError: boom" in result.stderr


def test_json_output_is_one_document(hook_repo: Path) -> None:
    demo_goal(hook_repo)
    done = stop("claude", hook_repo, "--json")
    document = output(done)
    assert document is not None and document["schema_version"] == 1
    assert document["decision"] == "block"
    goals = document["goals"]
    assert isinstance(goals, list) and goals[0]["path"] == "goals/demo.md"


# --- pure parts -----------------------------------------------------------------------------


def test_stop_input_parsing() -> None:
    parsed = StopInput.parse((HOOKS / "claude-stop.json").read_text("utf-8"))
    assert parsed.session_id == "7c0f3e1a-52b8-4d6e-9a41-0b2c3d4e5f60"
    assert parsed.hook_event_name == "Stop" and parsed.stop_hook_active is False
    assert StopInput.parse('{"stop_hook_active": "yes", "transcript_path": null}') == StopInput()
    assert StopInput.parse("") == StopInput()
    with pytest.raises(HookInputError):
        StopInput.parse("{")


def result_with(rows: tuple[RowResult, ...], status: Status = Status.ACTIVE) -> VerifyResult:
    return VerifyResult(
        path="goals/x.md",
        slug="x",
        iteration=2,
        rows=rows,
        status=status,
        reason=None,
        summary="verify-goal x iteration 2: " + ", ".join(f"{r.id} {r.verdict}" for r in rows),
        written=True,
        tokens_used=None,
        tails={},
        entry_text="",
    )


def test_the_block_reason_is_capped_at_ten_thousand_characters() -> None:
    rows = tuple(
        RowResult(
            id=f"C{i}",
            verdict=Verdict.UNMET,
            command="c",
            exit="1",
            evidence="e" * 900,
            excerpt=tuple("x" * 900 for _ in range(20)),
            excerpt_label="stdout, last 20 of 20 lines",
        )
        for i in range(30)
    )
    reason = block_reason(result_with(rows), shown_path="goals/x.md")
    assert len(reason) <= REASON_LIMIT
    assert reason.startswith("verify-goal x iteration 2: C0 unmet")
    decision = StopDecision(
        goals=tuple(
            GoalOutcome(path=str(i), status="active", block=True, reason=reason) for i in range(3)
        )
    )
    assert len(decision.reason or "") <= REASON_LIMIT


def test_the_block_reason_carries_excerpts_while_they_fit() -> None:
    rows = (
        RowResult(id="C1", verdict=Verdict.MET, command="a", exit="0", evidence="fine"),
        RowResult(
            id="C2",
            verdict=Verdict.UNMET,
            command="b",
            exit="1",
            evidence="2 failed",
            excerpt=("FAILED test_a", "FAILED test_b"),
            excerpt_label="stdout, last 2 of 9 lines",
        ),
        RowResult(
            id="R1", verdict=Verdict.UNMET, command="docs/a.md", exit="-", evidence="not reviewed"
        ),
    )
    reason = block_reason(result_with(rows), shown_path="goals/x.md", review_ids=frozenset({"R1"}))
    assert "- C2 unmet (exit 1): 2 failed" in reason and "C1" not in reason.split("\n", 1)[1]
    assert "C2 output (stdout, last 2 of 9 lines):\n    FAILED test_a\n    FAILED test_b" in reason
    assert "Only review rows remain" not in reason
    only_review = block_reason(
        result_with((rows[0], rows[2])), shown_path="g", review_ids=frozenset({"R1"})
    )
    assert "Only review rows remain" in only_review


def entry(*evidence: str) -> Entry:
    return Entry(
        iteration=1,
        date="2026-11-30",
        by="verify-goal",
        rows=tuple(
            RowResult(id=f"C{i}", verdict=Verdict.UNMET, command="c", exit="1", evidence=e)
            for i, e in enumerate(evidence)
        ),
    )


def test_durations_do_not_count_as_progress() -> None:
    assert fingerprint(entry("3 failed in 1.25s")) == fingerprint(entry("3 failed in 0.98s"))
    assert fingerprint(entry("took 0:01:02")) == fingerprint(entry("took 0:00:59"))
    assert fingerprint(entry("3 failed")) != fingerprint(entry("2 failed"))
    assert recorded_streak([entry("a"), entry("a"), entry("a")]) == 3
    assert recorded_streak([entry("b"), entry("a"), entry("a")]) == 1


def test_host_output_shapes() -> None:
    allow = StopDecision()
    assert allow.host_output(HostAgent.CODEX) == {}
    assert allow.host_output(HostAgent.CLAUDE) is None
    told = StopDecision(goals=(GoalOutcome(path="g", status="met", block=False, message="m"),))
    assert told.host_output(HostAgent.CLAUDE) == {"systemMessage": "m"}
    block = StopDecision(goals=(GoalOutcome(path="g", status="active", block=True, reason="r"),))
    for agent in HostAgent:
        out = block.host_output(agent)
        assert out == {"decision": "block", "reason": "r"} and set(out) <= CODEX_KEYS
