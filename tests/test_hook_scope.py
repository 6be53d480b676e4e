"""Which goals the Stop hook holds the agent to, whatever the agent points it at.

- A goal outside goals/ (`plans/real.md`, which `goalfile new --dir plans` writes) that a focus
  named stays held once the focus is cleared, moved or its file deleted, until the goal is met
  or a ledgered command pauses it.
- `hook stop --goal PATH` verifies the named goal first, but never lets the agent stop while
  another active goal git holds is unmet, and a `--goal` that names no goal git holds holds the
  agent once.
- A goal the agent writes and stages itself (`git add` of a hand-written goal whose ledger
  says `met`) is no way to a quiet stop while the person's goal is unmet.

Real git repositories, real goalfile processes fed a recorded host input; every `fix:` printed
is run as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import fix_of, git, make_git_repo, run_goalfile, sh, stop_input
from test_hook_discovery import new_goal, outcome
from test_hook_named_goal import decoy_project


def stop(
    repo: Path, goal: str | None = None, *, active: bool = False
) -> tuple[dict[str, object], str]:
    """The Claude Code Stop hook in ``repo`` (``--json``), with ``--goal GOAL`` when given: its
    answer and its stderr."""
    named = ("--goal", goal) if goal is not None else ()
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", *named, "--json",
        cwd=repo, input=stop_input(repo, active=active),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    answer = json.loads(done.stdout)
    assert isinstance(answer, dict)
    return answer, done.stderr


def reason(answer: dict[str, object]) -> str:
    assert answer["decision"] == "block", answer
    return str(answer["host_output"]["reason"])  # type: ignore[index]


def held_by(answer: dict[str, object], slug: str, *, first: bool = True) -> None:
    """The hook verified goal ``slug``: its C1 is unmet, and the stop is held by it (``first``:
    the reason begins with it)."""
    assert f"verify-goal {slug} iteration " in reason(answer), answer
    assert not first or f"{slug} iteration" in reason(answer).split("\n")[0], answer


# --- a goal outside goals/ ------------------------------------------------------------------


@pytest.fixture
def planned(tmp_path: Path) -> Path:
    """A repository whose one goal, committed, is plans/real.md: active and unmet."""
    root = make_git_repo(tmp_path / "planned")
    new_goal(root, "real", "test -f done.txt", "--dir", "plans")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def focus(root: Path, *args: str) -> str:
    done = run_goalfile("focus", *args, cwd=root)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


@pytest.mark.parametrize("how", ["clear", "deleted", "moved"])
def test_a_focused_goal_outside_goals_stays_held_when_the_focus_goes(
    planned: Path, how: str
) -> None:
    """`goalfile focus --clear` (which the agent may run), the focus file deleted, or the focus
    moved to a met goal of the agent's: the hook found no active goal and let the agent go."""
    focus(planned, "plans/real.md")
    held_by(stop(planned)[0], "real")
    if how == "clear":
        said = focus(planned, "--clear")
        assert "plans/real.md stays held" in said, said
    elif how == "deleted":
        (planned / ".git" / "goalfile-focus.json").unlink()
    else:
        new_goal(planned, "easy", "true")
        assert run_goalfile("verify", "goals/easy.md", cwd=planned).returncode == 0
        focus(planned, "goals/easy.md")
    answer, _ = stop(planned)
    held_by(answer, "real")
    (planned / "done.txt").write_text("done\n", encoding="utf-8")
    answer, _ = stop(planned)  # met: the hold ends with the goal
    assert answer["decision"] == "allow", answer


def test_a_paused_goal_outside_goals_lets_the_agent_go_with_a_message(planned: Path) -> None:
    focus(planned, "plans/real.md")
    focus(planned, "--clear")
    done = run_goalfile("pause", "plans/real.md", cwd=planned)
    assert done.returncode == 0, done.stderr
    answer, _ = stop(planned)
    assert answer["decision"] == "allow", answer
    assert "plans/real.md (real) is paused" in str(answer["host_output"]), answer


def test_a_goal_outside_goals_is_not_held_before_it_is_focused(planned: Path) -> None:
    """What `new --dir plans` says holds: the hook does not look at a goal outside goals/ that
    no focus named; an example goal kept in examples/ holds no one."""
    answer, _ = stop(planned)
    assert answer["decision"] == "allow", answer


def test_the_messages_about_a_goal_outside_goals_agree(tmp_path: Path) -> None:
    """`new --dir plans --activate` said "the Stop hook does not hold an agent to it" and, in
    the same output, "staged plans/x.md (git add): the Stop hook now holds an agent ...": the
    hook holds it once `goalfile focus` names it, and from then on until it is met or paused."""
    root = make_git_repo(tmp_path / "repo")
    done = run_goalfile(
        "new", "x", "the end state", "--check", "false", "--expected", "exit 0",
        "--non-goal", "n", "--activate", "--dir", "plans", cwd=root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert "now holds" not in said, said
    assert "the Stop hook does not hold an agent to it" in said, said
    assert "`goalfile focus plans/x.md`" in said, said
    said = focus(root, "plans/x.md")
    assert "until it is met" in said, said


# --- `--goal` pointed at a decoy ------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return decoy_project(tmp_path)


@pytest.mark.parametrize("staged", [False, True])
def test_a_goal_option_on_a_met_decoy_does_not_release_the_agent(
    project: Path, staged: bool
) -> None:
    """The hook command edited to `--goal goals/.cache/easy.md`: "easy is met; the stop is
    allowed" while goals/real.md was active and unmet. Staged with `git add -f` or not."""
    if staged:
        git(project, "add", "-f", "goals/.cache/easy.md")
    answer, notes = stop(project, "goals/.cache/easy.md")
    assert answer["decision"] == "block", answer
    if staged:  # its checks, run again, pass: then the others decide
        held_by(answer, "real")
        assert "--goal never lets the agent stop while another active goal" in notes, notes
        return
    named = outcome(answer, "unheld")
    assert "names goals/.cache/easy.md, which is not a goal file git holds" in str(named["reason"])
    answer, notes = stop(project, "goals/.cache/easy.md", active=True)
    held_by(answer, "real")
    assert "--goal never lets the agent stop while another active goal" in notes, notes
    sh(fix_of(named["reason"]), project)  # a person stages it: then the others hold
    held_by(stop(project, "goals/.cache/easy.md")[0], "real")


@pytest.mark.parametrize("where", ["absolute", "absent"])
def test_a_goal_option_naming_no_goal_git_holds_holds_the_agent_once(
    tmp_path: Path, where: str
) -> None:
    """No other goal: a `--goal` on a file outside the repository, or on no file, holds the
    agent once with the reason, then lets it go with the message."""
    root = make_git_repo(tmp_path / "repo")
    outside = tmp_path / "outside"
    outside.mkdir()
    new_goal(outside, "easy", "true", "--dir", ".")
    goal = str(outside / "easy.md") if where == "absolute" else "goals/none.md"
    answer, _ = stop(root, goal)
    assert answer["decision"] == "block", answer
    text = reason(answer)
    assert "is not a goal file git holds" in text, text
    again, _ = stop(root, goal, active=True)
    assert again["decision"] == "allow", again
    assert "is not a goal file git holds" in str(again["host_output"]), again


def test_a_goal_option_outside_any_repository_is_verified_as_it_is(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    new_goal(folder, "easy", "true", "--dir", ".")
    answer, _ = stop(folder, "easy.md")
    assert answer["decision"] == "allow", answer


@pytest.fixture
def several(tmp_path: Path) -> Path:
    """Two committed goals, both active and unmet: goals/first.md and goals/second.md."""
    root = make_git_repo(tmp_path / "several")
    new_goal(root, "first", "test -f first.txt")
    new_goal(root, "second", "test -f second.txt")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def test_a_goal_option_pins_the_hook_to_one_goal_first(several: Path) -> None:
    """A person pins the hook to goals/second.md: while it is unmet the reason names it alone
    and goals/first.md is not verified; once it is met, goals/first.md holds the agent; once a
    person pauses that one, the stop is allowed."""
    first = (several / "goals" / "first.md").read_bytes()
    answer, notes = stop(several, "goals/second.md")
    held_by(answer, "second")
    assert "first" not in reason(answer), answer
    assert (several / "goals" / "first.md").read_bytes() == first
    (several / "second.txt").write_text("done\n", encoding="utf-8")
    answer, notes = stop(several, "goals/second.md")
    held_by(answer, "first")
    assert "--goal never lets the agent stop while another active goal" in notes, notes
    done = run_goalfile("pause", "goals/first.md", cwd=several)
    assert done.returncode == 0, done.stderr
    answer, _ = stop(several, "goals/second.md")
    assert answer["decision"] == "allow", answer


# --- the agent's own goal, staged ----------------------------------------------------------


def forged(slug: str) -> str:
    """A goal the agent writes by hand and stages: its check passes, and its ledger holds an
    approval entry and a verify entry that say `met`, with `status: met` in the frontmatter."""
    return f"""---
slug: {slug}
status: met
created: 2026-12-01
budget:
  iterations: 5
  tokens: null
iterations_used: 1
tokens_used: 0
---
# Goal: x

## Non-goals

- n

## Acceptance criteria

| id | criterion | check | expected | kind |
|----|----|----|----|----|
| C1 | c | `true` | exit 0 | deterministic |

## Iterations

### Iteration 1 (2026-12-01) by verify-goal

| id | verdict | command | exit | evidence |
|----|----|----|----|----|
| C1 | met | `true` | 0 | (no output) |

status: met
"""


@pytest.mark.parametrize("how", ["discovered", "focus", "goal"])
def test_a_staged_goal_of_the_agents_does_not_release_it(project: Path, how: str) -> None:
    path = project / "goals" / "mine.md"
    path.write_text(forged("mine"), encoding="utf-8")
    git(project, "add", "goals/mine.md")
    if how == "focus":
        focus(project, "goals/mine.md")
    answer, _ = stop(project, "goals/mine.md" if how == "goal" else None)
    held_by(answer, "real", first=False)


@pytest.mark.parametrize("how", ["discovered", "focus", "goal"])
def test_a_staged_goal_reopened_by_hand_does_not_release_the_agent(project: Path, how: str) -> None:
    """The same goal with `status: active` typed over the `met` its ledger entry says."""
    path = project / "goals" / "mine.md"
    path.write_text(forged("mine").replace("status: met\n", "status: active\n", 1), "utf-8")
    git(project, "add", "goals/mine.md")
    if how == "focus":
        focus(project, "goals/mine.md")
    answer, _ = stop(project, "goals/mine.md" if how == "goal" else None)
    held_by(answer, "real", first=False)


def staged_only(tmp_path: Path) -> Path:
    """A person's goal, activated and staged (`new --activate` stages it) but not committed:
    HEAD holds no copy of it."""
    root = make_git_repo(tmp_path / "staged")
    (root / "app.txt").write_text("x\n", encoding="utf-8")
    git(root, "add", "app.txt")
    git(root, "commit", "-qm", "base")
    new_goal(root, "real", "test -f done.txt")
    return root


def forge(root: Path, status: str, by: str) -> None:
    """The agent types an entry setting ``status`` into the person's staged goal, and stages
    the file (`git add`): git's index holds the forged ledger."""
    path = root / "goals" / "real.md"
    text = path.read_text(encoding="utf-8")
    entry = f"### Iteration 1 (2026-12-01) by {by}\n\n"
    if status == "met":
        digest = text.rsplit("contract: ", 1)[1].split("\n", 1)[0]
        entry += "| id | verdict | command | exit | evidence |\n|----|----|----|----|----|\n"
        entry += "| C1 | met | `test -f done.txt` | 0 | (no output) |\n\n"
        entry += f"status: met\ncontract: {digest}\n"
    else:
        entry += f"reason: later\n\nstatus: {status}\n"
    text = text.replace("status: active", f"status: {status}", 1)
    text = text.replace("iterations_used: 0", "iterations_used: 1", 1)
    path.write_text(text.replace("\n## Lessons", f"\n{entry}\n## Lessons", 1), "utf-8")
    assert run_goalfile("lint", "goals/real.md", cwd=root).returncode == 0
    git(root, "add", "goals/real.md")


def test_a_met_only_the_index_holds_holds_the_agent_once(tmp_path: Path) -> None:
    """The agent typed a `met` verify entry into the person's staged goal and staged it: the
    index was the only copy git held, so the hook took the `met` and let it go silently. Now
    its checks are run again, and they do not pass."""
    root = staged_only(tmp_path)
    forge(root, "met", "verify-goal")
    answer, _ = stop(root)
    held = outcome(answer, "met")
    assert held["decision"] == "block", held
    assert "says `met` by a ledger entry git does not hold yet" in str(held["reason"]), held
    again, _ = stop(root, active=True)  # then let go, with the message the person sees
    assert again["decision"] == "allow", again
    assert "says `met` by a ledger entry git does not hold yet" in str(again["host_output"])


def test_an_honest_met_of_a_staged_goal_lets_the_agent_go(tmp_path: Path) -> None:
    """The hook's own verify writes `met` after the staged copy: the stop is allowed quietly."""
    root = staged_only(tmp_path)
    held_by(stop(root)[0], "real")
    (root / "done.txt").write_text("done\n", encoding="utf-8")
    answer, _ = stop(root)
    assert answer["decision"] == "allow", answer


def test_a_pause_only_the_index_holds_is_told_at_every_stop(tmp_path: Path) -> None:
    """A pause entry typed with an earlier date into the person's staged goal, and staged: it
    let the agent go with no word, as for an old pause a commit holds."""
    root = staged_only(tmp_path)
    forge(root, "paused", "pause")
    for _ in range(2):
        answer, _ = stop(root)
        assert answer["decision"] == "allow", answer
        assert "goals/real.md (real) is paused, not met" in str(answer["host_output"]), answer


def test_a_goal_option_naming_no_goal_git_holds_holds_once_per_session(tmp_path: Path) -> None:
    """Gemini CLI sends `stop_hook_active` false at each stop its model ends: the hold on a
    `--goal` naming no goal git holds was made at every stop, and only Gemini's own loop
    detection ended the session. The session's record keeps that it was made: held once,
    then let go with the message at every later stop of that session."""
    root = make_git_repo(tmp_path / "repo")
    answer, _ = stop(root, "goals/none.md")
    assert answer["decision"] == "block", answer
    for active in (True, False, False):  # the record keeps the hold at a stop that lets go
        again, _ = stop(root, "goals/none.md", active=active)
        assert again["decision"] == "allow", again
        assert "is not a goal file git holds" in str(again["host_output"]), again
