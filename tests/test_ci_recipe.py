"""The CI recipe in docs/ci.md, run as written: its shell step, the real goalfile on PATH, jq,
and a real git repository."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from conftest import (
    clean_env,
    copy_of,
    git,
    goal_text,
    made_once,
    make_git_repo,
    row,
    run_goalfile,
    write_goal,
)

from goalfile.termsafe import file_name

DOCS = Path(__file__).resolve().parent.parent / "docs" / "ci.md"
STEP = "- name: Run the checks of every goal that claims met"


def recipe_step(step: str = STEP) -> str:
    """The shell script of the step, from the YAML block of docs/ci.md, dedented."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(step)
    block = re.search(r"\n( +)run: \|\n((?:\1  .*\n|\n)+)", text[start:])
    assert block is not None, "the step has no `run: |` block"
    indent = len(block.group(1)) + 2
    return "".join(line[indent:] + "\n" for line in block.group(2).splitlines())


def audit_goalfile(runner_temp: Path) -> Path:
    """Where the audit step's virtual environment has goalfile (``$RUNNER_TEMP/audit``): this
    goalfile, linked there unless a test put a program of its own there first."""
    folder = runner_temp / "audit" / "bin"
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / "goalfile"
    if not program.exists():
        program.symlink_to(Path(sys.executable).with_name("goalfile"))
    return program


def run_step(
    repo: Path, *, env: Mapping[str, str] | None = None, path: Sequence[Path] = ()
) -> subprocess.CompletedProcess[str]:
    """The step, run in ``repo``; ``env`` holds what its `env:` block sets (GitHub's values),
    ``path`` folders put first on PATH (what the pull request's install put there)."""
    jq = shutil.which("jq")
    assert jq is not None, "the CI recipe needs jq: install it (apt-get install jq)"
    runner_temp = Path((env or {}).get("RUNNER_TEMP") or repo.parent / "runner-temp")
    audit_goalfile(runner_temp)
    folders = [*map(str, path), str(Path(sys.executable).parent), str(Path(jq).parent)]
    return subprocess.run(
        ["bash", "-e", "-c", recipe_step()],
        cwd=repo,
        env=clean_env(
            {
                **(env or {}),
                "RUNNER_TEMP": str(runner_temp),
                "PATH": ":".join([*folders, "/usr/bin", "/bin"]),
            }
        ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def run_committed(repo: Path) -> subprocess.CompletedProcess[str]:
    """The step, on a commit of everything in ``repo``: CI checks out a commit, and the step
    runs each goal in a fresh work tree of it."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", "the pull request")
    return run_step(repo)


def make_goals(repo: Path, env: dict[str, str]) -> None:
    """One honest met goal, and one active goal whose check fails."""
    met = write_goal(repo / "goals", goal_text(slug="done"), "done.md")
    assert run_goalfile("verify", met, cwd=repo).returncode == 0
    write_goal(
        repo / "goals",
        goal_text(slug="todo", rows=(row("C1", "test -f built", "exit 0"),)),
        "todo.md",
    )


@pytest.fixture(scope="module")
def made_goals(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, make_goals)


@pytest.fixture
def goals(tmp_path: Path, made_goals: Path) -> Path:
    """A copy of the repository :func:`make_goals` makes once for the module."""
    return copy_of(made_goals, tmp_path / "repo")


def test_the_step_passes_an_honest_repository(goals: Path) -> None:
    done = run_committed(goals)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verify-goal done iteration 1: C1 met; status: met" in done.stdout
    assert "verify-goal todo" not in done.stdout  # active: not a gate


def test_the_step_fails_a_met_typed_by_hand(goals: Path) -> None:
    """`status: met` with no verify entry: `status --json` reports only an error for it, and the
    step must still re-run its checks."""
    todo = goals / "goals" / "todo.md"
    todo.write_text(todo.read_text("utf-8").replace("status: active", "status: met", 1), "utf-8")
    shown = run_goalfile("status", "--json", "goals/todo.md", cwd=goals)
    assert '"error"' in shown.stdout and '"status"' not in shown.stdout  # why the filter is wide
    done = run_committed(goals)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "goals/todo.md:3: the status is `met`, but the ledger has no verify entry" in (
        done.stderr
    )


def test_the_step_fails_a_goal_file_that_does_not_load(goals: Path) -> None:
    todo = goals / "goals" / "todo.md"
    todo.write_text(todo.read_text("utf-8").replace("tokens_used: 0\n", "note: [x\n", 1), "utf-8")
    done = run_committed(goals)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "not valid YAML" in done.stderr


def met_then_evidence_removed(repo: Path, folder: Path, name: str, slug: str) -> Path:
    """A goal made `met` by a verify run while its evidence existed; the evidence is then gone,
    so its check fails on the tree CI sees."""
    goal = write_goal(
        folder, goal_text(slug=slug, rows=(row("C1", "test -f evidence", "exit 0"),)), name
    )
    (repo / "evidence").write_text("", "utf-8")
    assert run_goalfile("verify", goal, cwd=repo).returncode == 0
    (repo / "evidence").unlink()
    return goal


@pytest.mark.parametrize(
    ("folder", "name"),
    [("goals/auth", "login.md"), ("goals", ".login.md"), (".zetetic/goals/team", "login.md")],
)
def test_the_step_reruns_every_goal_goalfile_discovers(goals: Path, folder: str, name: str) -> None:
    """A goal in a sub-folder of goals/, a dot-file goal and one under .zetetic/goals/ are
    goals for status, audit and the hook; the step re-runs them too (a glob `goals/*.md`
    skipped the first two while the top-level goals kept it non-empty)."""
    goal = met_then_evidence_removed(goals, goals / folder, name, "login")
    path = str(goal.relative_to(goals))
    shown = run_goalfile("status", "--json", cwd=goals)
    assert f'"path": "{path}"' in shown.stdout, shown.stdout
    done = run_committed(goals)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "verify-goal login iteration 1: C1 unmet" in done.stdout, done.stdout
    assert "verify-goal done iteration 1: C1 met; status: met" in done.stdout


def test_the_step_reruns_a_goal_whose_name_holds_a_line_break(goals: Path) -> None:
    """`jq -r` printed the name `goals/done.md<LF>top.md` on two lines and `read` took them for
    two goals, both met (`goals/done.md` and a goal at the top): the goal itself, whose check
    fails, was never re-run and the step passed. Each path now ends in a NUL byte."""
    top = write_goal(goals, goal_text(slug="top"), "top.md")
    assert run_goalfile("verify", top, cwd=goals).returncode == 0
    met_then_evidence_removed(goals, goals / "goals", "done.md\ntop.md", "login")
    done = run_committed(goals)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "verify-goal login iteration 1: C1 unmet" in done.stdout, done.stdout
    assert "verify-goal done iteration 1: C1 met; status: met" in done.stdout


def test_the_step_fails_when_status_cannot_run(goals: Path, tmp_path: Path) -> None:
    """An exit of `status` other than 0 or 3 (here: a usage error from a goalfile too old to
    know `--json` is imitated by a wrapper) fails the step instead of re-running nothing."""
    fake = audit_goalfile_as(
        tmp_path / "runner", "echo 'Error: No such option: --json' >&2\nexit 2"
    )
    done = run_step(goals, env={"RUNNER_TEMP": str(fake)})
    assert done.returncode != 0, done.stdout + done.stderr
    assert "No such option: --json" in done.stderr


def audit_goalfile_as(runner_temp: Path, script: str) -> Path:
    """``$RUNNER_TEMP`` whose audit goalfile is the shell script ``script``."""
    folder = runner_temp / "audit" / "bin"
    folder.mkdir(parents=True)
    program = folder / "goalfile"
    program.write_text(f"#!/bin/sh\n{script}\n", "utf-8")
    program.chmod(0o755)
    return runner_temp


def test_a_goalfile_the_pull_request_installs_on_path_does_not_answer_for_the_real_one(
    goals: Path, tmp_path: Path
) -> None:
    """The step ran `goalfile` from PATH, after `pip install -e .` of the pull request: a
    project with a `[project.scripts]` entry named goalfile put its own program there, one that
    says every goal is met, and the step passed a goal whose check fails. It now runs the
    goalfile the audit step installed."""
    met_then_evidence_removed(goals, goals / "goals", "login.md", "login")
    shadow = tmp_path / "project-bin"
    shadow.mkdir()
    impostor = shadow / "goalfile"
    impostor.write_text(
        '#!/bin/sh\ncase "$1" in status) echo \'{"goals": []}\';; esac\nexit 0\n', "utf-8"
    )
    impostor.chmod(0o755)
    git(goals, "add", "-A")
    git(goals, "commit", "-q", "-m", "the pull request")
    done = run_step(goals, path=[shadow])
    assert done.returncode == 1, done.stdout + done.stderr
    assert "verify-goal login iteration 1: C1 unmet" in done.stdout, done.stdout


BUILD = "build/app: src/app.sh\n\tmkdir -p build && sh -n src/app.sh && cp src/app.sh build/app\n"


def test_a_goal_the_pull_request_adds_cannot_prepare_what_the_bases_goal_checks(
    tmp_path: Path,
) -> None:
    """Run one after another in one checkout, a goal the pull request added, sorted first,
    left `build/app` behind, and the person's approved `make -s build/app` found it up to date
    and passed although the code no longer built. Each goal now runs in a fresh work tree, the
    base's goals first."""
    repo = make_git_repo(tmp_path / "repo")
    (repo / "src").mkdir()
    (repo / "src" / "app.sh").write_text("echo app\n", encoding="utf-8")
    (repo / "Makefile").write_text(BUILD, encoding="utf-8")
    (repo / ".gitignore").write_text("build/\n", encoding="utf-8")
    done = run_goalfile(
        "new", "app", "the app builds", "--check", "make -s build/app", "--expected", "exit 0",
        "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert run_goalfile("verify", "goals/app.md", cwd=repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "branch", "-M", "main")
    git(repo, "checkout", "-qb", "pr")
    (repo / "src" / "app.sh").write_text("if then fi\n", encoding="utf-8")  # does not build
    (repo / "tools").mkdir()
    (repo / "tools" / "docs.sh").write_text(
        "mkdir -p build && : > build/app && echo docs ok\n", encoding="utf-8"
    )
    done = run_goalfile(
        "new", "a-docs", "docs lint clean", "--check", "sh tools/docs.sh", "--expected",
        'exit 0; stdout contains "docs ok"', "--non-goal", "n", "--activate", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert run_goalfile("verify", "goals/a-docs.md", cwd=repo).returncode == 0
    stale = run_goalfile("verify", "--no-write", "goals/app.md", cwd=repo)  # build/app is newer
    assert stale.returncode == 0, stale.stdout + stale.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "app changes; docs goal")
    ci = tmp_path / "ci"
    subprocess.run(["git", "clone", "-q", "-b", "pr", str(repo), str(ci)], check=True)
    done = run_step(ci, env={"BASE_BRANCH": "main", "RUNNER_TEMP": str(tmp_path)})
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"verify-goal app iteration \d+: C1 unmet", done.stdout), done.stdout
    assert re.search(r"verify-goal a-docs iteration \d+: C1 met; status: met", done.stdout)
    assert done.stdout.index("verify-goal app") < done.stdout.index("verify-goal a-docs")
    assert git(ci, "status", "--porcelain") == ""  # the checkout itself is untouched
    assert git(ci, "worktree", "list", "--porcelain").count("worktree ") == 1


AUDIT_STEP = "- name: Audit the ledgers against the base branch"


def run_audit_step(repo: Path, runner_temp: Path) -> subprocess.CompletedProcess[str]:
    """The audit step as written, with goalfile where the step before installs it
    (``$RUNNER_TEMP/audit``) and the pull request checked out on a branch of ``main``."""
    audit_goalfile(runner_temp)
    return subprocess.run(
        ["bash", "-e", "-c", recipe_step(AUDIT_STEP)],
        cwd=repo,
        env=clean_env({"BASE": "main", "RUNNER_TEMP": str(runner_temp), "PATH": "/usr/bin:/bin"}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def base_with_goal(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A repository whose ``main`` holds a goal at ``goals/NAME`` with one verify entry (C1
    unmet), and the branch ``pr`` checked out."""
    repo = make_git_repo(tmp_path / "repo")
    goal = write_goal(
        repo / "goals", goal_text(slug="real", rows=(row("C1", "test -f built", "exit 0"),)), name
    )
    assert run_goalfile("verify", goal, cwd=repo).returncode == 1
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "branch", "-M", "main")
    git(repo, "checkout", "-qb", "pr")
    return repo, goal


@pytest.mark.parametrize("name", ["café.md", "my goal.md", "tab\tgoal.md"])
def test_the_audit_step_reads_goal_names_git_quotes_or_a_shell_splits(
    tmp_path: Path, name: str
) -> None:
    """The step's goal list came from `git ls-files` in the shell: git C-quoted `café.md`
    (every pull request failed, exit 3) and the shell split `my goal.md` in two, so two clean
    decoys at `goals/my` and `goal.md` made the step pass while the real goal, its committed
    verdict rewritten, was never read. Now audit lists the goals itself."""
    repo, goal = base_with_goal(tmp_path, name)
    honest = run_audit_step(repo, tmp_path / "runner")
    assert honest.returncode == 0, honest.stdout + honest.stderr
    shown = file_name(f"goals/{name}")  # a tab on one line: "goals/tab\tgoal.md"
    assert f"{shown}: clean" in honest.stdout, honest.stdout
    text = goal.read_text(encoding="utf-8")
    verdict = "| C1  | unmet   |"
    assert verdict in text, text
    goal.write_text(text.replace(verdict, "| C1  | met     |", 1), encoding="utf-8")
    for decoy in ("goals/my", "goal.md"):
        (repo / decoy).parent.mkdir(parents=True, exist_ok=True)
        (repo / decoy).write_text(goal_text(slug="decoy"), encoding="utf-8")
    git(repo, "commit", "-qam", "rewrite")
    forged = run_audit_step(repo, tmp_path / "runner")
    assert forged.returncode == 1, forged.stdout + forged.stderr
    assert "entry-rewritten" in forged.stdout, forged.stdout


def test_the_audit_step_reports_a_goal_the_pull_request_deleted(tmp_path: Path) -> None:
    repo, goal = base_with_goal(tmp_path, "real.md")
    git(repo, "rm", "-q", str(goal.relative_to(repo)))
    git(repo, "commit", "-qm", "tidy up")
    done = run_audit_step(repo, tmp_path / "runner")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "goal-deleted" in done.stdout, done.stdout


def test_the_audit_runs_before_the_pull_requests_code_is_installed() -> None:
    """Installing the pull request's project runs its build code, which could rewrite a
    goalfile in the same Python: the audit and the summary use a goalfile of their own, and
    both come before the project's install."""
    text = DOCS.read_text(encoding="utf-8")
    install = text.index("pip install -e '.[test]'")
    for step in (AUDIT_STEP, "- name: The audit and each goal's history in the job summary"):
        script = recipe_step(step)
        assert text.index(step) < install, step
        assert "$RUNNER_TEMP/audit/bin/goalfile" in script or '"$gf"' in script, script
        assert re.search(r"(^|[\s;|&(])goalfile\s", script) is None, script
