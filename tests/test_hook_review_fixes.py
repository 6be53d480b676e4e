"""The Stop hook and the hints near it, where a review found them wrong: a hook input whose
`cwd` cannot be asked about (or a hook whose own folder is gone) let the agent stop with an
active, unmet goal. Real git repositories, real goalfile processes fed a host's input on
stdin; every `fix:` printed is run as written."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import (
    WITH_GOALFILE,
    clean_env,
    copy_of,
    fix_of,
    git,
    made_once,
    make_git_repo,
    run_goalfile,
)


def hook(
    cwd: Path,
    given: dict[str, object],
    *,
    shell: str | None = None,
    env: dict[str, str] | None = None,
) -> tuple[dict[str, object], str]:
    """`goalfile hook stop --agent claude --json` run in ``cwd`` (through ``sh -c SHELL`` when
    given, which ends by running goalfile), with ``env`` added: its answer and its stderr."""
    data = json.dumps({"hook_event_name": "Stop", **given})
    command = [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude", "--json"]
    if shell is not None:
        command = ["sh", "-c", f'{shell} && exec "$0" "$@"', *command]
    done = subprocess.run(
        command,
        cwd=cwd,
        env=clean_env(env),
        input=data,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def sh(
    command: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A printed command, run as written in ``cwd`` by a shell, with this goalfile on PATH (and
    ``env`` added)."""
    done = subprocess.run(
        command,
        shell=True,
        cwd=cwd,
        env=clean_env({**WITH_GOALFILE, **(env or {})}),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return done


def _project(root: Path, env: dict[str, str]) -> None:
    done = run_goalfile(
        "new", "demo", "the end state", "--check", "test -f done.txt", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=root, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _project)


@pytest.fixture
def project(tmp_path: Path, made: Path) -> Path:
    """A repository whose committed goal goals/demo.md is active and unmet (a copy of one
    made once for the module)."""
    return copy_of(made, tmp_path / "project")


def verified_unmet(answer: dict[str, object]) -> None:
    """The answer blocks because goals/demo.md was verified, and its row is unmet."""
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert re.match(r"verify-goal demo iteration \d+: C1 unmet", reason), reason


# --- F1: no error once the input is read lets the agent stop --------------------------------


@pytest.mark.parametrize("cwd", ["long", "~nosuchuser/x"])
def test_a_cwd_that_cannot_be_asked_about_gives_way_to_the_hook_folder(
    project: Path, cwd: str
) -> None:
    """A `cwd` past the path limit (`is_dir` raises ENAMETOOLONG) or `~` for no such user
    (`expanduser` raises): the hook looks at the folder the host started it in, where the
    goal is unmet, and says why on stderr."""
    given = str(project / ("a" * 5000)) if cwd == "long" else cwd
    answer, stderr = hook(project, {"cwd": given})
    verified_unmet(answer)
    assert "the hook input's cwd cannot be used" in stderr
    assert "the stop is allowed" not in stderr


def test_a_hook_whose_own_folder_is_gone_takes_the_input_cwd(project: Path) -> None:
    """The host started the hook in a folder removed since (`Path.cwd()` raises): the input's
    `cwd` names the repository, whose goal is verified unmet."""
    (project.parent / "gone").mkdir()
    answer, stderr = hook(project.parent / "gone", {"cwd": str(project)}, shell="rmdir ../gone")
    verified_unmet(answer)
    assert "internal error" not in stderr


def test_an_error_once_the_input_is_read_holds_the_agent_once(project: Path) -> None:
    """No folder at all (the hook's is gone, the input names none): the error holds the agent
    once, naming it, and is let go with the message when the agent is already continuing."""
    (project.parent / "gone").mkdir()
    answer, stderr = hook(project.parent / "gone", {}, shell="rmdir ../gone")
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert reason.startswith("goalfile hook stop failed in the hook's working folder"), reason
    assert "FileNotFoundError" in reason
    assert "internal error: FileNotFoundError" in stderr and "Traceback" in stderr
    (project.parent / "gone").mkdir()
    again, _ = hook(project.parent / "gone", {"stop_hook_active": True}, shell="rmdir ../gone")
    assert again["decision"] == "allow", again
    assert "FileNotFoundError" in str(again["host_output"]["systemMessage"])  # type: ignore[index]


def test_input_that_is_not_json_still_lets_the_agent_stop(project: Path) -> None:
    """Only an input the hook cannot read lets the agent stop on an error (unchanged)."""
    done = run_goalfile("hook", "stop", "--agent", "codex", cwd=project, input="{not json")
    assert done.returncode == 0
    assert set(json.loads(done.stdout)) == {"systemMessage"}
    assert "the stop is allowed" in done.stderr


# --- F8: the watchdog's reason promises no time limit the matching does not have ----------


def backtracking_goal(root: Path) -> None:
    """An active, lint-clean goal whose `matches` pattern backtracks without end on the line
    its check prints (`/^(a+)+$/` on `aaa…a!`), each row with a time limit of 2 s."""
    check = f"{shlex.quote(sys.executable)} -c \"print('a' * 48 + '!')\""
    made = run_goalfile(
        "new", "slow", "x", "--check", check, "--expected", "stdout matches /^(a+)+$/",
        "--non-goal", "n", cwd=root,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    goal = root / "goals" / "slow.md"
    text = goal.read_text(encoding="utf-8")
    goal.write_text(
        text.replace("\ntokens_used: 0\n", "\ntokens_used: 0\ntimeout: 2\n", 1), "utf-8"
    )
    done = run_goalfile("activate", "goals/slow.md", cwd=root)
    assert done.returncode == 0, done.stderr
    assert run_goalfile("lint", "goals/slow.md", cwd=root).returncode == 0


def test_a_block_while_judging_output_names_the_row_and_its_pattern(tmp_path: Path) -> None:
    """The hook judging `/^(a+)+$/` against its check's output: verify ends that search at the
    row's time limit (2 s; the hook has 96 s), so the hook answers itself, on the row: the
    block names the goal, the row and its `expected` pattern, and the watchdog (at 108 s) has
    nothing to say. (The test once took either answer, the hook's or the watchdog's, at a
    6 s timeout: on a loaded machine the watchdog came first, at whatever the hook was
    doing.)"""
    root = make_git_repo(tmp_path / "project")
    backtracking_goal(root)
    data = json.dumps({"hook_event_name": "Stop", "cwd": str(root)})
    done = subprocess.run(
        [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude", "--timeout", "120"],
        cwd=root, env=clean_env(), input=data, capture_output=True, text=True, timeout=240,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "did not answer within its time limit" not in reason, reason
    assert reason.startswith("goalfile: verify-goal slow iteration 0: C1 error; status: blocked")
    assert "goals/slow.md is blocked: a check could not be judged" in reason, reason
    said = "- C1 error (exit 0): stdout matches /^(a+)+$/: the search of the stdout ran out of"
    assert f"\n{said} time after 2s (the row's time limit); the pattern can backtrack" in reason


def test_a_hook_that_never_gets_its_input_promises_no_time_limit(project: Path) -> None:
    """A host input that never ends: the block says where the hook was and points at the
    commands that find what hangs, without claiming verify ends every step in time."""
    argv = [sys.executable, "-m", "goalfile", "hook", "stop", "--agent", "claude"]
    hook = subprocess.Popen(
        [*argv, "--timeout", "3"], cwd=project, env=clean_env(), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert hook.stdin is not None
        hook.stdin.write(json.dumps({"hook_event_name": "Stop", "cwd": str(project)}))
        hook.stdin.flush()
        hook.wait(timeout=60)  # stdin stays open: the hook never reads to its end
        out, err = hook.communicate(timeout=60)
    finally:
        if hook.poll() is None:
            os.killpg(hook.pid, signal.SIGKILL)
            hook.wait(timeout=60)
    assert hook.returncode == 0, err
    reason = str(json.loads(out)["reason"])
    assert "did not answer within its time limit" in reason, reason
    assert "it was at _hook_stop (goalfile/cli/hook.py:" in reason, reason
    assert "within their time limits" not in reason, reason
    assert "`goalfile verify --no-write PATH` on each active goal" in reason, reason
    assert "`goalfile lint PATH` lists the goal's problems" in reason, reason


def test_the_reason_for_a_search_names_what_the_work_said_it_was_on() -> None:
    """The reason's text for each place the watchdog finds the work (pure)."""
    from goalfile.hookwatch import Doing, held_reason

    doing = Doing(goal="goals/a b.md", row="C2", expected="stdout matches /`x`+/")
    reason = held_reason(
        None, limit=5.4, timeout=6, where="result (goalfile/expecttext.py:788)", doing=doing
    )
    assert "hook timeout; it was at result (goalfile/expecttext.py:788)), so" in reason
    assert "It was on row C2 of goals/a b.md." in reason
    assert (
        "output of a check of row C2 against its `expected` column (`` stdout matches /`x`+/ ``)"
        in reason
    )
    assert "`goalfile lint 'goals/a b.md'`" in reason
    elsewhere = held_reason(None, limit=5.4, timeout=6, where="wait (goalfile/run.py:10)")
    assert "against its `expected` column" not in elsewhere
    assert "`goalfile verify --no-write PATH` on each active goal" in elsewhere


# --- F5: lines are counted as sed counts them ----------------------------------------------


def test_the_fix_for_a_bad_cwd_deletes_its_line_only_after_a_value_with_line_separators(
    project: Path,
) -> None:
    """A frontmatter value before `cwd:` holding raw U+2028 (YAML folds it into the string):
    the printed `sed` deletes the `cwd:` line and nothing else, and the goal then loads."""
    path = project / "goals" / "demo.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("slug: demo\n", 'slug: demo\nnote: "a\u2028 b\u2028 c"\ncwd: "x\\x01y"\n', 1),
        encoding="utf-8",
    )
    answer, _ = hook(project, {"cwd": str(project)})
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert "goals/demo.md:4: cwd" in reason, reason
    fix = fix_of(reason)
    assert fix == (
        "[ ! -e goals/demo.md.goalfile-bak ] && sed -i.goalfile-bak -e '4d' -- goals/demo.md "
        "&& rm -- goals/demo.md.goalfile-bak"
    ), reason
    sh(fix, project)
    assert path.read_text(encoding="utf-8") == text.replace(
        "slug: demo\n", 'slug: demo\nnote: "a\u2028 b\u2028 c"\n', 1
    )
    verified_unmet(hook(project, {"cwd": str(project)})[0])


def test_a_slug_in_a_folded_value_is_not_the_goal_s_slug(project: Path) -> None:
    """A committed goal whose working copy gains a frontmatter value that holds U+2028 and
    `slug: other`: YAML reads one string, and the slug is still `demo`, so the goal is the one
    HEAD holds (verified), not another goal copied over it."""
    path = project / "goals" / "demo.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("slug: demo\n", 'note: "a\u2028slug: other"\nslug: demo\n', 1),
        encoding="utf-8",
    )
    answer, _ = hook(project, {"cwd": str(project)})
    verified_unmet(answer)


# --- F6: a fix never deletes what stands at a goal file's path -----------------------------


@pytest.mark.parametrize("skip", [False, True])
def test_a_folder_at_a_tracked_goal_s_path_is_moved_not_deleted(
    project: Path, tmp_path: Path, skip: bool
) -> None:
    """A folder holding a person's notes where the tracked goal file was (marked skip-worktree
    or not): the reason says a folder is there, and the fix moves it into a new temporary
    folder before git puts the goal file back."""
    if skip:
        git(project, "update-index", "--skip-worktree", "--", "goals/demo.md")
    (project / "goals" / "demo.md").unlink()
    notes = project / "goals" / "demo.md" / "notes"
    notes.mkdir(parents=True)
    (notes / "today.txt").write_text("a person's notes\n", encoding="utf-8")
    answer, _ = hook(project, {"cwd": str(project)})
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert "a folder" in reason and "moved, not deleted" in reason, reason
    fix = fix_of(reason)
    moved = 'mktemp -d | { read -r d && mv -- goals/demo.md "$d"; }'
    assert f"{moved} && git checkout -- goals/demo.md" in fix, fix
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    done = subprocess.run(
        fix, shell=True, cwd=project, env=clean_env({**WITH_GOALFILE, "TMPDIR": str(temporary)}),
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, (fix, done.stderr)
    kept = list(temporary.glob("*/demo.md/notes/today.txt"))
    assert [p.read_text(encoding="utf-8") for p in kept] == ["a person's notes\n"]
    assert (project / "goals" / "demo.md").is_file()
    verified_unmet(hook(project, {"cwd": str(project)})[0])


# --- F7: the size limit's hint names what works -------------------------------------------


def test_a_goal_past_the_size_limit_is_retired_whole_as_the_hint_says(project: Path) -> None:
    """A goal file past 64 MiB (sparse: no disk space) is refused with a hint that does not
    split its ledger (the contract pin rests on its first entry); done as the hint says (moved
    out of the goal folders, the next goal started with `goalfile new`), every goal reads."""
    path = project / "goals" / "demo.md"
    os.truncate(path, (64 << 20) + 1)
    said = run_goalfile("status", cwd=project)
    assert said.returncode == 3, said.stdout + said.stderr
    assert "larger than the 64 MiB" in said.stderr, said.stderr
    assert "oldest ledger entries" not in said.stderr, said.stderr
    assert "retires it whole, moving it out of the goal folders" in said.stderr, said.stderr
    assert "`goalfile new`" in said.stderr, said.stderr
    assert "(`git mv`, then `git commit`, when git tracks it" in said.stderr, said.stderr
    sh("mkdir retired && git mv goals/demo.md retired/ && git commit -qm retired", project)
    made = run_goalfile(
        "new", "next", "the end state", "--check", "true", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=project,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    listed = run_goalfile("status", cwd=project)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert run_goalfile("verify", "goals/next.md", cwd=project).returncode == 0


# --- F4: an unborn HEAD's fix names the branch the work was on -------------------------------


def test_the_fix_for_an_unborn_head_names_the_branch_it_was_on(project: Path) -> None:
    """HEAD moved off `main` to a branch with no commit, while a branch whose name sorts first
    stays behind: the fix points HEAD back at `main` (from HEAD's reflog), not at it."""
    git(project, "branch", "-M", "main")
    git(project, "branch", "a-old-experiment")
    git(project, "commit", "-q", "--allow-empty", "-m", "main moves on")
    git(project, "symbolic-ref", "HEAD", "refs/heads/zz")
    answer, _ = hook(project, {"cwd": str(project)})
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert fix_of(reason) == "git -C . symbolic-ref HEAD refs/heads/main", reason
    sh(fix_of(reason), project)
    assert git(project, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    verified_unmet(hook(project, {"cwd": str(project)})[0])


def test_an_unborn_head_with_no_single_branch_before_it_gets_no_guess(project: Path) -> None:
    """Two branches at the commit HEAD left: no fix names one of them; the reason lists the
    branches and says how to point HEAD back."""
    git(project, "branch", "-M", "main")
    git(project, "branch", "a-old-experiment")
    git(project, "symbolic-ref", "HEAD", "refs/heads/zz")
    answer, _ = hook(project, {"cwd": str(project)})
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert "fix:" not in reason, reason
    assert "(`git -C . branch --list` lists them: a-old-experiment, main)" in reason, reason
    assert "`git -C . symbolic-ref HEAD refs/heads/NAME`" in reason, reason


# --- F9: git's error line, not its advice ----------------------------------------------------


def test_a_repository_git_refuses_is_named_by_git_s_error_line(project: Path) -> None:
    """git names an extension it does not know on the line below its `fatal:` line: the
    reason quotes both (it quoted only the extension's name)."""
    git(project, "config", "core.repositoryformatversion", "1")
    git(project, "config", "extensions.fooBar", "true")
    answer, _ = hook(project, {"cwd": str(project)})
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert (
        "in the repository at .: fatal: unknown repository extension found: foobar\n" in reason
    ), reason


def test_a_repository_another_user_owns_is_held_with_git_s_safe_directory_fix(
    project: Path, tmp_path: Path
) -> None:
    """A checkout owned by another user (a container's mounted volume): git's error line is
    quoted, not its advice, and the fix marks the repository safe, as written (in a HOME of
    the test's own); the goal is then verified. Needs root, to give the checkout away."""
    assert os.geteuid() == 0, "this test gives the checkout to another user: run it as root"
    for folder, _, names in os.walk(project):
        for name in [".", *names]:
            os.chown(os.path.join(folder, name), 65534, 65534, follow_symlinks=False)
    home = tmp_path / "home"
    home.mkdir()
    answer, _ = hook(project, {"cwd": str(project)}, env={"HOME": str(home)})
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    assert "at .: fatal: detected dubious ownership in repository at " in reason, reason
    assert "--add safe.directory" not in reason.split("\n", 1)[0], reason
    fix = fix_of(reason)
    assert fix == f"git config --global --add safe.directory {project}", reason
    sh(fix, project, env={"HOME": str(home)})
    verified_unmet(hook(project, {"cwd": str(project)}, env={"HOME": str(home)})[0])


@pytest.mark.parametrize("name", ["repo a b", "it's here"])
def test_the_safe_directory_fix_works_for_a_folder_with_a_space_or_a_quote(
    project: Path, tmp_path: Path, name: str
) -> None:
    """git's advice shell-quotes such a folder (`safe.directory '/x/repo a b'`); the fix took
    those quotes for part of the path and quoted it again, so running it stored the path with
    its quotes and git still refused the repository. The fix names the folder once, as one
    shell word, and works as written. Needs root, to give the checkout away."""
    assert os.geteuid() == 0, "this test gives the checkout to another user: run it as root"
    moved = tmp_path / name
    project.rename(moved)
    for folder, _, names in os.walk(moved):
        for entry in [".", *names]:
            os.chown(os.path.join(folder, entry), 65534, 65534, follow_symlinks=False)
    home = tmp_path / "home"
    home.mkdir()
    answer, _ = hook(moved, {"cwd": str(moved)}, env={"HOME": str(home)})
    assert answer["decision"] == "block", answer
    reason = str(answer["host_output"]["reason"])  # type: ignore[index]
    fix = fix_of(reason)
    assert fix == f"git config --global --add safe.directory {shlex.quote(str(moved))}", reason
    sh(fix, moved, env={"HOME": str(home)})
    listed = subprocess.run(
        ["git", "config", "--global", "--get-all", "safe.directory"],
        env=clean_env({"HOME": str(home)}),
        capture_output=True,
        text=True,
    )
    assert listed.stdout == f"{moved}\n", listed
    verified_unmet(hook(moved, {"cwd": str(moved)}, env={"HOME": str(home)})[0])
