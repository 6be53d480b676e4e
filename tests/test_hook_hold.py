"""`goalfile hook stop` holds the agent on every goal it could not verify: a goal its time did
not reach, a goal file whose frontmatter no system call takes, an unexpected error on one goal,
and a goal file git tracks that the working tree does not show. Real git repositories, real
goalfile processes fed a recorded host input (as in test_hook.py)."""

from __future__ import annotations

import json
import time
from datetime import date
from pathlib import Path

import pytest
from conftest import (
    DATA,
    NUL_CWD,
    clean_env,
    fix_of,
    git,
    goal_text,
    make_git_repo,
    row,
    run_goalfile,
    write_goal,
)
from conftest import (
    shell as sh,
)

from goalfile.commands.context import Context
from goalfile.commands.hook import HookOptions, StopInput, decide_stop


def hook(
    repo: Path, *extra: str, active: bool = False, cwd: Path | None = None
) -> tuple[dict[str, object] | None, str]:
    data = json.loads((DATA / "hooks" / "claude-stop.json").read_text(encoding="utf-8"))
    data["cwd"] = str(cwd or repo)
    data["stop_hook_active"] = active
    data.pop("transcript_path")
    done = run_goalfile(
        "hook", "stop", "--agent", "claude", *extra, cwd=repo, input=json.dumps(data)
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    text = done.stdout.strip()
    return (json.loads(text) if text else None), done.stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository whose committed goal goals/real.md is active and unmet."""
    root = make_git_repo(tmp_path / "project")
    write_goal(
        root / "goals", goal_text(slug="real", rows=(row("C1", "false", "exit 0"),)), "real.md"
    )
    (root / "src").mkdir()
    (root / "src" / "app.txt").write_text("x\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    return root


def verified(path: Path) -> int:
    return path.read_text(encoding="utf-8").count(") by verify-goal")


# --- the hook's time ------------------------------------------------------------------------
# A host timeout of 20 s gives the goals 16 s, counted from when the hook started, and the
# watchdog answers at 18 s: on a loaded machine a fast goal still gets the seconds it needs,
# and the hook's own answer still comes before the watchdog's. (At 6 s the goals had 4 s and
# the answer 1.4 s: a slow start took them.)


def test_a_slow_decoy_in_an_ignored_folder_does_not_release_the_real_goal(project: Path) -> None:
    """The agent's own goal, in a folder git ignores and sorted first, with a check that
    outlasts the hook: the committed goal is verified first and holds the agent."""
    (project / ".git" / "info" / "exclude").write_text("goals/.cache/\n", encoding="utf-8")
    decoy = write_goal(
        project / "goals" / ".cache",
        goal_text(slug="aaa", rows=(row("C1", "sleep 120", "exit 0"),)),
        "aaa.md",
    )
    assert git(project, "status", "--porcelain") == ""
    answer, _ = hook(project, "--timeout", "20")
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "verify-goal real iteration 1: C1 unmet; status: active" in reason
    assert verified(project / "goals" / "real.md") == 1
    # no person approved the decoy (git holds no copy of it): it is not run, and holds once
    assert "goalfile did not run the checks of goals/.cache/aaa.md" in reason
    assert verified(decoy) == 0


def test_a_slow_goal_shares_the_time_and_starves_no_other(project: Path) -> None:
    """Two committed goals, the first sorted with a check that never ends: each gets its share,
    so the second is verified; the first, cut short, holds the agent once."""
    slow = write_goal(
        project / "goals", goal_text(slug="aaa", rows=(row("C1", "sleep 120", "exit 0"),)), "aaa.md"
    )
    git(project, "add", "-A")
    git(project, "commit", "-qm", "slow goal")
    answer, _ = hook(project, "--timeout", "20")
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "could not verify goals/aaa.md within the hook's time limit" in reason
    assert "its share of the hook's 16 s" in reason
    assert "verify-goal real iteration 1: C1 unmet; status: active" in reason
    assert verified(project / "goals" / "real.md") == 1 and verified(slow) == 1


def test_a_goal_the_hook_has_no_time_for_holds_the_agent_once(project: Path) -> None:
    """A committed goal uses the hook's whole time; the goal after it (not committed, sorted
    first) is not verified: that blocks, naming it; another goal the agent writes then is held
    once (a finding of that stop), with the block the stop's own verify wrote, and then let go,
    with the message."""
    write_goal(
        project / "goals",
        goal_text(slug="real", rows=(row("C1", "sleep 120", "exit 0"),)),
        "real.md",
    )
    git(project, "commit", "-qam", "slow")
    fresh = write_goal(
        project / "goals",
        goal_text(slug="aaa", rows=(row("C1", "false", "exit 0"),)),
        "aaa.md",
        stage=False,
    )
    # outside git's index and HEAD: the hook gives it no time (it runs no unapproved check)
    answer, _ = hook(project, "--timeout", "20")
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "goalfile did not run the checks of goals/aaa.md" in reason
    assert verified(fresh) == 0
    # the agent runs what the reason says: aaa's verdict is recorded
    assert sh("goalfile verify goals/aaa.md", project).returncode == 1
    assert verified(fresh) == 1
    (project / "goals" / "aaa.md").unlink()
    write_goal(
        project / "goals",
        goal_text(slug="bbb", rows=(row("C1", "false", "exit 0"),)),
        "bbb.md",
        stage=False,
    )
    git(project, "checkout", "--", "goals/real.md")  # active again, slow again
    # a goal the agent wrote since it was sent back is a finding of this stop: held once,
    # whatever the host says; so is the block that stop's own verify writes (its check cut at
    # the hook's time limit: once per entry, ledgered); the stop after it is let go with the
    # message
    answer, _ = hook(project, "--timeout", "20", active=True)
    assert answer is not None and answer["decision"] == "block", answer
    assert "did not run the checks of goals/bbb.md" in str(answer["reason"])
    assert "could not verify goals/real.md within the hook's time limit" in str(answer["reason"])
    answer, _ = hook(project, "--timeout", "5", active=True)
    assert answer is not None and "decision" not in answer, answer
    assert "did not run the checks of goals/bbb.md" in str(answer["systemMessage"])
    assert "goals/real.md is blocked by a verify run" in str(answer["systemMessage"])


# --- frontmatter no system call takes -------------------------------------------------------


def test_a_cwd_with_a_nul_is_a_goal_file_error_that_holds_the_agent(project: Path) -> None:
    (project / ".git" / "info" / "exclude").write_text("goals/.cache/\n", encoding="utf-8")
    decoy = write_goal(project / "goals" / ".cache", NUL_CWD, "aaa.md")
    answer, _ = hook(project)
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "verify-goal real iteration 1: C1 unmet" in reason  # verified all the same
    assert "goals/.cache/aaa.md:10: cwd 'a\\x00b' holds the control character U+0000" in reason
    fix = fix_of(reason)
    assert fix == (
        "[ ! -e goals/.cache/aaa.md.goalfile-bak ] && sed -i.goalfile-bak -e '10d' -- "
        "goals/.cache/aaa.md && rm -- goals/.cache/aaa.md.goalfile-bak"
    ), reason

    lint = run_goalfile("lint", "goals/.cache/aaa.md", cwd=project)
    assert lint.returncode == 3
    assert "goals/.cache/aaa.md:10:6: error: cwd 'a\\x00b'" in lint.stdout + lint.stderr
    for args in (("status",), ("status", "--json"), ("statusline",)):
        done = run_goalfile(*args, cwd=project, input="{}")
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stderr)
    decoy.write_text(NUL_CWD.replace("status: active", "status: draft"), encoding="utf-8")
    done = run_goalfile("activate", decoy, cwd=project)
    assert done.returncode == 3 and "Traceback" not in done.stderr
    assert ":10:6: cwd 'a\\x00b' holds the control character U+0000" in done.stderr
    # the fix, as it says: the line deleted, the goal is activated
    decoy.write_text(decoy.read_text("utf-8").replace('cwd: "a\\0b"\n', ""), encoding="utf-8")
    assert run_goalfile("activate", decoy, cwd=project).returncode == 0


@pytest.mark.parametrize(
    ("lines", "deleted"),
    [
        ('shell: "/bin/sh\\0x"', "10d"),
        ("cwd: |\n  a\n  b", "10,12d"),  # a block scalar: its value's lines go with the key
        ('cwd: "a\\eb"\n\n', "10,12d"),
    ],
)
def test_the_fix_for_a_path_value_no_system_call_takes_deletes_its_lines(
    project: Path, lines: str, deleted: str
) -> None:
    write_goal(project / "goals", NUL_CWD.replace('cwd: "a\\0b"', lines), "aaa.md")
    answer, _ = hook(project)
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "goalfile could not read goals/aaa.md: goals/aaa.md:10: " in reason, reason
    fix = fix_of(reason)
    assert fix == (
        f"[ ! -e goals/aaa.md.goalfile-bak ] && sed -i.goalfile-bak -e '{deleted}' -- "
        "goals/aaa.md && rm -- goals/aaa.md.goalfile-bak"
    ), reason
    assert sh(fix, project).returncode == 0
    assert (project / "goals" / "aaa.md").read_text(encoding="utf-8") == NUL_CWD.replace(
        'cwd: "a\\0b"\n', ""
    )
    assert run_goalfile("lint", "goals/aaa.md", cwd=project).returncode == 0


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ('cwd: "src\\nx"', "cwd 'src\\nx' holds the control character U+000A"),
        ('cwd: "\\e[2J"', "cwd '\\x1b[2J' holds the control character U+001B"),
        ('shell: "/bin/sh\\0x"', "shell '/bin/sh\\x00x' holds the control character U+0000"),
    ],
)
def test_path_values_no_system_call_takes_are_lint_errors(
    tmp_path: Path, line: str, shown: str
) -> None:
    root = make_git_repo(tmp_path / "r")
    write_goal(root / "goals", NUL_CWD.replace('cwd: "a\\0b"', line), "aaa.md")
    done = run_goalfile("lint", "goals/aaa.md", cwd=root)
    assert done.returncode == 3
    said = done.stdout + done.stderr
    assert "goals/aaa.md:10:" in said and shown in said, said
    assert "Traceback" not in done.stderr


def test_an_unexpected_error_on_one_goal_holds_the_agent_on_it_alone(project: Path) -> None:
    """A bug in verify (here: a runner that raises) holds the agent on that goal, like a goal
    file that does not load, and the other goals are verified as usual."""
    write_goal(project / "goals", goal_text(slug="aaa"), "aaa.md")
    from goalfile.commands.hookrules.verifyrun import run_verify

    def runner(options, ctx):  # type: ignore[no-untyped-def]
        if options.path.endswith("aaa.md"):
            raise ValueError("embedded null byte")
        return run_verify(options, ctx)

    ctx = Context(today=date.today().isoformat(), env=clean_env(), cwd=project)
    stop = StopInput(cwd=str(project))
    decision = decide_stop(stop, HookOptions(), ctx, runner=runner)
    assert decision.block
    reason = decision.reason or ""
    assert "goalfile failed on goals/aaa.md (ValueError: embedded null byte)" in reason
    assert "verify-goal real iteration 1: C1 unmet" in reason
    assert any("Traceback" in note for note in decision.notes)
    again = decide_stop(
        StopInput(cwd=str(project), stop_hook_active=True), HookOptions(), ctx, runner=runner
    )
    failed = [g for g in again.goals if g.path == "goals/aaa.md"]
    assert failed and not failed[0].block and "ValueError" in str(failed[0].message)


# --- a goal file git tracks that the working tree does not show -----------------------------


@pytest.mark.parametrize(
    ("hide", "fix"),
    [
        (
            "git update-index --skip-worktree goals/real.md && mv goals/real.md ../away.md",
            "git update-index --no-skip-worktree -- goals/real.md && git checkout -- goals/real.md",
        ),
        ("rm goals/real.md", "git checkout -- goals/real.md"),
        ("mv goals/real.md goals/real.md.bak", "git checkout -- goals/real.md"),
        ("git rm -q goals/real.md", "git checkout HEAD -- goals/real.md"),
        (
            "git rm -q --cached goals/real.md && rm goals/real.md",
            "git checkout HEAD -- goals/real.md",
        ),
        (
            "git update-index --assume-unchanged goals/real.md && rm goals/real.md",
            "git update-index --no-assume-unchanged -- goals/real.md"
            " && git checkout -- goals/real.md",
        ),
    ],
)
def test_a_tracked_goal_file_the_working_tree_does_not_show_holds_the_agent(
    project: Path, hide: str, fix: str
) -> None:
    assert sh(hide, project).returncode == 0
    answer, _ = hook(project)
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert reason.startswith("goalfile cannot verify goals/real.md: git tracks the goal file")
    assert fix_of(reason) == fix
    answer, _ = hook(project, active=True)  # the usual rule: once
    assert answer is not None and "git tracks the goal file" in str(answer["systemMessage"])
    # the fix, as written: the goal is back, git sees it, and the next stop verifies it
    done = sh(fix, project)
    assert done.returncode == 0, done.stderr
    assert git(project, "ls-files", "-v", "goals/real.md") == "H goals/real.md\n"
    answer, _ = hook(project)
    assert answer is not None
    assert str(answer["reason"]).startswith("verify-goal real iteration 1: C1 unmet")


def test_a_git_monitor_that_does_not_return_hides_no_goal_file(
    project: Path, tmp_path: Path
) -> None:
    """`core.fsmonitor` names a program git runs before it reads the index. One that sleeps
    made the hook's `git ls-files` wait 60 s, after which the hook took the repository for one
    that tracks no goal file, so a goal file hidden from the working tree let the agent stop.
    The hook lists the goal files git tracks without asking the monitor."""
    monitor = tmp_path / "slow-monitor"
    monitor.write_text("#!/bin/sh\nexec sleep 120\n", encoding="utf-8")
    monitor.chmod(0o755)
    git(project, "update-index", "--skip-worktree", "goals/real.md")
    (project / "goals" / "real.md").rename(tmp_path / "away.md")
    git(project, "config", "core.fsmonitor", str(monitor))  # last: git would wait for it too
    started = time.monotonic()
    answer, _ = hook(project)
    assert time.monotonic() - started < 30
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "goalfile cannot verify goals/real.md: git tracks the goal file goals/real.md" in reason
    assert fix_of(reason).startswith("git update-index --no-skip-worktree -- goals/real.md")


def test_a_goal_file_marked_skip_worktree_is_held_without_touching_it(project: Path) -> None:
    """The file is there, but git is told not to look at it: its marks are cleared, the file
    (which may hold entries written since) is not checked out over."""
    git(project, "update-index", "--skip-worktree", "goals/real.md")
    path = project / "goals" / "real.md"
    path.write_text(path.read_text("utf-8") + "\nkept\n", encoding="utf-8")
    assert git(project, "status", "--porcelain") == ""
    answer, _ = hook(project)
    assert answer is not None and answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "it is marked skip-worktree, so `git status` and `git diff` do not show" in reason
    assert fix_of(reason) == "git update-index --no-skip-worktree -- goals/real.md"
    assert sh(fix_of(reason), project).returncode == 0
    assert path.read_text("utf-8").endswith("\nkept\n")
    assert git(project, "status", "--porcelain") == " M goals/real.md\n"


def test_the_fix_works_from_a_sub_folder_and_a_nested_repository(project: Path) -> None:
    (project / "goals" / "real.md").unlink()
    answer, _ = hook(project, cwd=project / "src")
    reason = str((answer or {})["reason"])
    assert reason.startswith("goalfile cannot verify ../goals/real.md")
    assert fix_of(reason) == "git -C .. checkout -- goals/real.md"
    assert sh(fix_of(reason), project / "src").returncode == 0
    assert (project / "goals" / "real.md").is_file()

    scratch = make_git_repo(project / "src" / "scratch")  # `git init` inside the project
    (project / "goals" / "real.md").unlink()
    answer, _ = hook(project, cwd=scratch)
    reason = str((answer or {})["reason"])
    assert fix_of(reason) == "git -C ../.. checkout -- goals/real.md"
    assert sh(fix_of(reason), scratch).returncode == 0
    assert (project / "goals" / "real.md").is_file()


def test_a_goal_named_on_the_command_line_that_git_tracks_is_never_absent(project: Path) -> None:
    (project / "goals" / "real.md").unlink()
    answer, _ = hook(project, "--goal", "goals/real.md")
    assert answer is not None and answer["decision"] == "block", answer
    assert fix_of(str(answer["reason"])) == "git checkout -- goals/real.md"
    # a goal file git never tracked pins the hook to no goal: held once, saying so
    answer, _ = hook(project, "--goal", "goals/none.md")
    assert answer is not None and answer["decision"] == "block", answer
    assert "--goal names goals/none.md (no file is there), which is not a goal file git holds" in (
        str(answer["reason"])
    )


def test_a_goal_file_committed_as_removed_no_longer_holds_the_agent(project: Path) -> None:
    """A person retires a goal by committing its removal: then git no longer tracks it."""
    git(project, "rm", "-q", "goals/real.md")
    git(project, "commit", "-qm", "retire the goal")
    answer, notes = hook(project)
    assert answer is None and "no active goal" in notes
