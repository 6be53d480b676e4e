"""Attacks on the trust promise, made from outside as an agent would make them: the real
goalfile process, a real git repository, and the exact edits of the goal file.

Each test reproduces one way an agent reached `met` without the checks passing; each must be
refused (exit 3, file untouched) or reported.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from goalfile import lint
from goalfile.errors import GoalfileError
from goalfile.parse import parse_goal
from tests.conftest import (
    copy_of,
    git,
    goal_text,
    last_line,
    made_once,
    make_git_repo,
    row,
    run_goalfile,
)

GOAL = "goals/build.md"


def _build(repo: Path, env: dict[str, str]) -> None:
    (repo / "goals").mkdir()
    (repo / "goals" / "build.md").write_text(
        goal_text(
            slug="build",
            status="draft",
            iterations_used=0,
            rows=(row("C1", "test -f build/ok", "exit 0"),),
        )
    )
    done = run_goalfile("activate", GOAL, cwd=repo, env=env)
    assert done.returncode == 0, done.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "branch", "-M", "main")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, _build)


@pytest.fixture
def build(tmp_path: Path, made: Path) -> Path:
    """An approved goal whose check needs `build/ok`, committed on main (a copy of the
    repository made once for the module)."""
    return copy_of(made, tmp_path / "repo")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def pin_line(path: Path) -> str:
    return next(line for line in path.read_text().split("\n") if line.startswith("contract:"))


def test_a_pin_pasted_from_a_scratch_reapproval_is_refused(build: Path, tmp_path: Path) -> None:
    goal = build / GOAL
    edit(goal, "`test -f build/ok`", "`true`")
    scratch = tmp_path / "scratch.md"
    shutil.copy(goal, scratch)
    done = run_goalfile("activate", "--reapprove", scratch, "--reason", "x", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    edit(goal, pin_line(goal), pin_line(scratch))
    before = goal.read_bytes()

    refused = run_goalfile("verify", GOAL, cwd=build)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert "newest approval entry" in refused.stderr
    assert goal.read_bytes() == before
    # the fix it names works: a re-approval is ledgered, and then the run is honest
    fixed = run_goalfile("activate", "--reapprove", GOAL, "--reason", "checks nothing", cwd=build)
    assert fixed.returncode == 0, fixed.stderr
    assert "C1 check: `test -f build/ok` → `true`" in goal.read_text()
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 0


def refused_everywhere(repo: Path, *, says: str, never: str) -> None:
    """goals/g.md, a draft, is refused by lint (saying ``says``) and by activate; with its
    status set active (as a row edited in after activation is), verify refuses it too, prints
    no ``never`` and leaves the file as it was."""
    path = repo / "goals" / "g.md"
    linted = run_goalfile("lint", "goals/g.md", cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert says in linted.stdout + linted.stderr
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 3
    path.write_text(path.read_text().replace("status: draft", "status: active"))
    before = path.read_bytes()
    done = run_goalfile("verify", "goals/g.md", cwd=repo)
    assert done.returncode == 3, done.stdout + done.stderr
    assert never not in done.stdout
    assert path.read_bytes() == before


def test_a_row_id_that_forges_the_summary_line_is_refused(repo: Path) -> None:
    forged = "C1; status: met"
    path = repo / "goals" / "g.md"
    path.write_text(
        goal_text(
            slug="g", status="draft", iterations_used=0, rows=(row(forged, "false", "exit 0"),)
        )
    )
    refused_everywhere(repo, says="is not a plain id", never="status: met")


ZERO_WIDTH_PATTERNS = [
    *("/^/", "/.*/", "/x*/", r"/(?:)/", r"/\s*$/", "/a*/", "/x?/", "/(a?)/"),
    # zero-width patterns match inside a non-empty line: `/\b/` holds on "3 FAILED"
    *(r"/\b/", r"/\B/", "/(?<=.)/", "/(?=.)/", "/$/", "/(?m)^/", "/(?=FAILED)/"),
]
# the patterns run by lint, activate and verify as real processes; every pattern is read from
# the goal file and refused by the code those commands share (parse_goal, lint), in this process
AS_PROCESSES = {"/^/", r"/\b/", "/(?=FAILED)/"}


@pytest.mark.parametrize("pattern", ZERO_WIDTH_PATTERNS)
def test_a_regex_that_can_match_zero_characters_is_refused(tmp_path: Path, pattern: str) -> None:
    text = goal_text(
        slug="g",
        status="draft",
        iterations_used=0,
        rows=(row("C1", "echo '0 passed, 3 FAILED'", f"exit 0; stdout matches {pattern}"),),
    )
    (found,) = lint.errors(lint.diagnose(parse_goal(text, path="goals/g.md")))
    assert "can match zero characters" in found.message, found
    active = parse_goal(text.replace("status: draft", "status: active"), path="goals/g.md")
    with pytest.raises(GoalfileError, match="can match zero characters"):
        lint.require_valid(active)
    if pattern in AS_PROCESSES:
        repo = make_git_repo(tmp_path / "repo")
        (repo / "goals").mkdir()
        (repo / "goals" / "g.md").write_text(text)
        refused_everywhere(repo, says="can match zero characters", never="C1 met")


def test_a_regex_that_takes_a_character_still_judges(repo: Path) -> None:
    path = repo / "goals" / "g.md"
    path.write_text(
        goal_text(
            slug="g",
            status="draft",
            iterations_used=0,
            rows=(
                row("C1", "echo '0 passed, 3 FAILED'", r"exit 0; stdout matches /^\d+ passed$/"),
                row("C2", "echo ok", "exit 0; stdout matches /^ok$/"),
            ),
        )
    )
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    done = run_goalfile("verify", "goals/g.md", cwd=repo)
    assert last_line(done.stdout) == "verify-goal g iteration 0: C1 unmet, C2 met; status: active"


def test_an_escaped_pipe_in_a_table_regex_is_a_literal_pipe(repo: Path) -> None:
    path = repo / "goals" / "g.md"
    # the cell holds `stdout matches /^\| X/`: Markdown turns `\|` into `|`, and `^| X` would
    # be an alternation with an empty branch that matches every line
    path.write_text(
        goal_text(
            slug="g",
            status="draft",
            iterations_used=0,
            rows=(row("C1", "echo no table here", r"exit 0; stdout matches /^\| X/"),),
        )
    )
    assert run_goalfile("lint", "goals/g.md", cwd=repo).returncode == 0
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    done = run_goalfile("verify", "goals/g.md", cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert last_line(done.stdout) == "verify-goal g iteration 0: C1 unmet; status: active"
    # the same regex holds on a line that starts with the pipe
    path.write_text(path.read_text().replace("`echo no table here`", r"`echo '\| X \|'`"))
    assert run_goalfile("activate", "--reapprove", "goals/g.md", cwd=repo).returncode == 0
    done = run_goalfile("verify", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr


EDITS = {
    "row-added": (
        "| deterministic |\n",
        "| deterministic |\n| C2 | more | `false` | exit 0 | deterministic |\n",
    ),
    "loosened": ("| exit 0 |", "| exit != 9 |"),
    "pin-removed": ("\ncontract: ", "\nx-contract: "),
    "paused": ("status: active", "status: paused"),
}
EDIT_SCRIPT = f"""\
import os, sys
edits = {EDITS!r}
old, new = edits[sys.argv[1]]
path = os.environ["GOALFILE_GOAL"]
text = open(path).read()
assert old in text, old
open(path, "w").write(text.replace(old, new, 1))
"""


@pytest.mark.parametrize("what", sorted(EDITS))
def test_an_edit_made_during_the_run_is_not_overwritten(repo: Path, what: str) -> None:
    """The check itself edits the goal file while verify runs (as an agent could)."""
    (repo / "edit.py").write_text(EDIT_SCRIPT)
    path = repo / "goals" / "g.md"
    check = f"{sys.executable} edit.py {what}"
    path.write_text(
        goal_text(slug="g", status="draft", iterations_used=0, rows=(row("C1", check, "exit 0"),))
    )
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    done = run_goalfile("verify", "goals/g.md", cwd=repo)
    assert done.returncode == 3, (what, done.stdout + done.stderr)
    assert "edited during the run" in done.stderr
    after = path.read_text()
    assert EDITS[what][1] in after  # the edit is kept, and nothing was written over it
    assert "by verify-goal" not in after


def plant_build_ok(folder: Path) -> None:
    (folder / "build").mkdir(parents=True, exist_ok=True)
    (folder / "build" / "ok").write_text("BUILD OK\n")


@pytest.mark.parametrize("plant", ["empty file", "empty folder"])
def test_a_planted_dot_git_does_not_move_the_checks(build: Path, plant: str) -> None:
    plant_build_ok(build / "goals")
    if plant == "empty file":
        (build / "goals" / ".git").write_text("")
    else:
        (build / "goals" / ".git").mkdir()
    done = run_goalfile("verify", GOAL, cwd=build)
    assert done.returncode == 1, done.stdout + done.stderr
    assert last_line(done.stdout) == "verify-goal build iteration 0: C1 unmet; status: active"
    assert "working directory: `..` (git top level)" in (build / GOAL).read_text()


def test_a_planted_repository_is_refused_until_reapproved(build: Path) -> None:
    plant_build_ok(build / "goals")
    git(build / "goals", "init", "-q")
    goal = build / GOAL
    before = goal.read_bytes()
    done = run_goalfile("verify", GOAL, cwd=build)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "approved `..`" in done.stderr
    assert goal.read_bytes() == before
    assert run_goalfile("verify", "--no-write", GOAL, cwd=build).returncode == 3
    audited = run_goalfile("audit", GOAL, cwd=build)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    assert "workdir-not-approved" in audited.stdout
    # the fix it names: a re-approval that ledgers the move
    fixed = run_goalfile("activate", "--reapprove", GOAL, "--reason", "nested repo", cwd=build)
    assert fixed.returncode == 0, fixed.stderr
    assert "- working directory: `..` → `.` (git top level)" in goal.read_text()
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 0


def test_an_approval_without_a_recorded_working_directory_still_verifies(build: Path) -> None:
    goal = build / GOAL
    text = goal.read_text()
    line = next(x for x in text.split("\n") if x.startswith("working directory:"))
    goal.write_text(text.replace(line + "\n", ""))  # as goalfile wrote it before
    (build / "build").mkdir()
    (build / "build" / "ok").write_text("")
    done = run_goalfile("verify", GOAL, cwd=build)
    assert done.returncode == 0, done.stdout + done.stderr


def drop_recorded_workdir(goal: Path) -> None:
    """The approval entry as goalfile wrote it before it recorded the working directory."""
    text = goal.read_text()
    line = next(x for x in text.split("\n") if x.startswith("working directory:"))
    goal.write_text(text.replace(line + "\n", ""))


def test_a_nested_repository_is_refused_when_the_approval_names_no_working_directory(
    build: Path,
) -> None:
    goal = build / GOAL
    drop_recorded_workdir(goal)
    git(build, "commit", "-qam", "an approval written before the working directory was recorded")
    plant_build_ok(build / "goals")
    git(build / "goals", "init", "-q")
    before = goal.read_bytes()

    done = run_goalfile("verify", GOAL, cwd=build)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "a repository nested inside the work tree of" in done.stderr
    assert "names no working directory" in done.stderr
    assert "Traceback" not in done.stderr
    assert goal.read_bytes() == before
    no_write = run_goalfile("verify", "--no-write", GOAL, cwd=build)
    assert no_write.returncode == 3, no_write.stdout + no_write.stderr
    hook = run_goalfile("audit", GOAL, cwd=build)
    assert hook.returncode == 1, hook.stdout + hook.stderr
    assert "workdir-not-approved" in hook.stdout
    assert goal.read_bytes() == before

    # the fix it prints, run as written (with a reason for TEXT), ledgers the move
    fix = next(x for x in done.stderr.split("\n") if "fix:" in x)
    command = fix[fix.index("`goalfile ") + 1 : fix.rindex("`")].split()
    assert command[:4] == ["goalfile", "activate", "--reapprove", GOAL], command
    fixed = run_goalfile(*command[1:-1], "the checks run in goals/ now", cwd=build)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    text = goal.read_text()
    assert "- working directory: not recorded → `.` (git top level)" in text
    assert "working directory: `.` (git top level)" in text
    done = run_goalfile("verify", GOAL, cwd=build)
    assert done.returncode == 0, done.stdout + done.stderr
    assert last_line(done.stdout) == "verify-goal build iteration 0: C1 met; status: met"


def test_an_approval_naming_no_working_directory_keeps_verifying_without_a_nested_repository(
    build: Path,
) -> None:
    """The same old approval, in the same repository without the nested one: nothing to
    re-approve, and the checks run at the top as before."""
    goal = build / GOAL
    drop_recorded_workdir(goal)
    plant_build_ok(build / "goals")  # not where the checks run
    empty = run_goalfile("activate", "--reapprove", GOAL, "--reason", "x", cwd=build)
    assert empty.returncode == 3, empty.stdout + empty.stderr
    assert "nothing to re-approve" in empty.stderr
    done = run_goalfile("verify", GOAL, cwd=build)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "working directory: `..` (git top level)" in goal.read_text()
    plant_build_ok(build)
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 0


def test_outside_git_a_zetetic_goal_runs_from_the_folder_holding_zetetic(tmp_path: Path) -> None:
    root = tmp_path / "project"
    folder = root / ".zetetic" / "goals"
    folder.mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "auth.md").write_text("The refresh token is rotated on every use.\n")
    (root / "marker").write_text("")
    path = folder / "x.md"
    path.write_text(
        goal_text(
            slug="x",
            status="draft",
            iterations_used=0,
            rows=(
                row("C1", "test -f marker", "exit 0"),
                row("R1", "docs/auth.md", "describes the refresh flow", "review"),
            ),
        )
    )
    assert run_goalfile("activate", path, cwd=tmp_path).returncode == 0
    status = run_goalfile("status", "--json", path, cwd=tmp_path)
    assert status.returncode == 0, status.stderr
    assert '"source": "folder holding .zetetic/"' in status.stdout
    assert '"relative": "../.."' in status.stdout
    reviewed = run_goalfile(
        "review",
        path,
        "R1",
        "--artifact",
        "docs/auth.md",
        "--quote",
        "rotated on every use",
        "--verdict",
        "met",
        cwd=tmp_path,
    )
    assert reviewed.returncode == 0, reviewed.stderr
    done = run_goalfile("verify", path, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "working directory: `../..` (folder holding .zetetic/)" in path.read_text()


def test_audit_against_ignores_git_replace(build: Path, tmp_path: Path) -> None:
    """The agent rewrites the approval to a looser check, and hides the rewrite from
    `audit --against main` with a replace ref that shows its file as main's."""
    scratch = make_git_repo(tmp_path / "scratch")
    (scratch / "goals").mkdir()
    (scratch / GOAL).write_text(
        goal_text(
            slug="build", status="draft", iterations_used=0, rows=(row("C1", "true", "exit 0"),)
        )
    )
    assert run_goalfile("activate", GOAL, cwd=scratch).returncode == 0
    git(build, "checkout", "-qb", "agent")
    shutil.copy(scratch / GOAL, build / GOAL)
    git(build, "commit", "-qam", "agent work")
    assert run_goalfile("audit", GOAL, cwd=build).returncode == 0  # consistent on its own
    old_blob = git(build, "rev-parse", f"main:{GOAL}").strip()
    new_blob = git(build, "rev-parse", f"HEAD:{GOAL}").strip()
    git(build, "replace", old_blob, new_blob)
    assert git(build, "show", f"main:{GOAL}") == (build / GOAL).read_text()  # hidden from git

    done = run_goalfile("audit", GOAL, "--against", "main", cwd=build)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "entry-rewritten" in done.stdout
    assert "contract-change-unapproved" in done.stdout


def test_audit_against_ignores_a_graft(tmp_path: Path) -> None:
    """The person approves a goal on the agent's branch; the agent puts its own goal (check
    `true`) in its place, verifies it, commits, and writes one line to `.git/info/grafts` that
    gives its commit `main` as parent: the commit holding the person's approval is then gone
    from every history git shows, `--no-replace-objects` or not."""
    root = make_git_repo(tmp_path / "repo")
    git(root, "symbolic-ref", "HEAD", "refs/heads/main")
    git(root, "commit", "-q", "--allow-empty", "-m", "base")
    git(root, "checkout", "-qb", "agent")
    person = ("new", "auth", "the suite passes", "--check", "test -f suite-passes")
    made = run_goalfile(*person, "--expected", "exit 0", "--activate", "--commit", cwd=root)
    assert made.returncode == 0, made.stderr
    (root / "goals" / "auth.md").unlink()
    agent = ("new", "auth", "the suite passes", "--check", "true", "--expected", "exit 0")
    assert run_goalfile(*agent, "--activate", cwd=root).returncode == 0
    assert run_goalfile("verify", "goals/auth.md", cwd=root).returncode == 0
    git(root, "add", "-A")
    git(root, "commit", "-qm", "work")
    honest = run_goalfile("audit", "--against", "refs/heads/main", cwd=root)
    assert honest.returncode == 1, honest.stdout + honest.stderr
    head, main = git(root, "rev-parse", "HEAD", "main").split()
    (root / ".git" / "info" / "grafts").write_text(f"{head} {main}\n")
    assert git(root, "log", "--format=%s", "main..HEAD").split() == ["work"]  # hidden from git

    done = run_goalfile("audit", "--against", "refs/heads/main", cwd=root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout == honest.stdout


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("- timeout: `60`", "- timeout: `abc`"),  # a run setting
        ("| `exit 0` | 5       |", "| `exit 0` | abc     |"),  # a row's time limit (padded)
        ("- timeout: `60`", "- tiemout: `60`"),  # a setting goalfile never records
    ],
)
def test_an_approval_record_edited_by_hand_is_an_error_not_a_traceback(
    repo: Path, old: str, new: str
) -> None:
    path = repo / "goals" / "g.md"
    text = goal_text(
        slug="g", status="draft", iterations_used=0, rows=(row("C1", "true", "exit 0"),)
    )
    text = text.replace("tokens_used: 0\n", "tokens_used: 0\ntimeout: 60\n")
    path.write_text(
        text.replace("| expected | kind |", "| expected | kind | timeout |")
        .replace("|----------|------|", "|----------|------|---------|")
        .replace("| exit 0 | deterministic |", "| exit 0 | deterministic | 5 |")
    )
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    edit(path, old, new)
    edit(path, "timeout: 60\n", "timeout: 30\n")  # a change that needs the record to diff
    before = path.read_bytes()
    for args in (["activate", "--reapprove", "goals/g.md"], ["verify", "goals/g.md"]):
        done = run_goalfile(*args, cwd=repo)
        assert done.returncode == 3, done.stdout + done.stderr
        assert "Traceback" not in done.stderr
        assert "cannot be read back" in done.stderr
        assert path.read_bytes() == before
    audited = run_goalfile("audit", "goals/g.md", cwd=repo)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    assert "Traceback" not in audited.stderr
    assert "approval-record-invalid" in audited.stdout


def test_a_pin_that_no_approval_entry_backs_is_refused(build: Path) -> None:
    """The agent loosens the check, deletes the ledger's approval entry and pins the loose
    contract by hand (its digest is what a scratch activation printed)."""
    goal = build / GOAL
    edit(goal, "`test -f build/ok`", "`true`")
    text = goal.read_text()
    head = text.index("### Iteration 0")
    goal.write_text(text[:head] + text[text.index("## Lessons") :])
    scratch = build / "scratch.md"
    shutil.copy(goal, scratch)
    edit(scratch, "status: active", "status: draft")
    edit(scratch, pin_line(scratch) + "\n", "")
    assert run_goalfile("activate", "scratch.md", cwd=build).returncode == 0
    edit(goal, pin_line(goal), pin_line(scratch))
    scratch.unlink()
    before = goal.read_bytes()
    refused = run_goalfile("verify", GOAL, cwd=build)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert "backed by no approval entry" in refused.stderr
    assert goal.read_bytes() == before
    fixed = run_goalfile("activate", "--reapprove", GOAL, "--reason", "lost ledger", cwd=build)
    assert fixed.returncode == 0, fixed.stderr
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 0


@pytest.mark.parametrize("link", ["file", "folder"])
def test_a_goal_reached_through_a_link_into_another_repository_is_refused(
    build: Path, tmp_path: Path, link: str
) -> None:
    """`goals/build.md` (or `goals/`) made a symbolic link into a decoy repository that holds
    `build/ok`: verify, status and audit refuse; the checks would have run in the decoy."""
    decoy = make_git_repo(tmp_path / "decoy")
    plant_build_ok(decoy)
    (decoy / "goals").mkdir(exist_ok=True)
    shutil.move(build / GOAL, decoy / GOAL)
    if link == "file":
        (build / GOAL).symlink_to(decoy / GOAL)
    else:
        shutil.rmtree(build / "goals")
        (build / "goals").symlink_to(decoy / "goals")
    before = (decoy / GOAL).read_bytes()

    refused = run_goalfile("verify", GOAL, cwd=build)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert "symbolic link" in refused.stderr and "nothing was run" in refused.stderr
    assert (decoy / GOAL).read_bytes() == before
    for command in (("status", GOAL), ("audit", GOAL)):
        done = run_goalfile(*command, cwd=build)
        assert done.returncode == 3, (command, done.stdout, done.stderr)
        assert "symbolic link" in done.stdout + done.stderr, command
    # git is asked in the repository where the link lies, by the goal's own path, either way
    done = run_goalfile("audit", "--against", "main", GOAL, cwd=build)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "symbolic link" in done.stdout + done.stderr

    # the fix it names works as written: the file is put where the link was
    hint = refused.stderr.split("fix: ", 1)[1]
    fix = hint.split("`")[1]
    subprocess.run(fix, shell=True, cwd=build, check=True)
    assert not (build / "goals").is_symlink() and not (build / GOAL).is_symlink()
    unmet = run_goalfile("verify", GOAL, cwd=build)
    assert "C1 unmet" in last_line(unmet.stdout), unmet.stdout + unmet.stderr


def test_a_link_to_a_goal_in_the_same_repository_still_verifies(build: Path) -> None:
    (build / "goals" / "current.md").symlink_to("build.md")
    plant_build_ok(build)
    done = run_goalfile("verify", "goals/current.md", cwd=build)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "C1 met" in last_line(done.stdout)


def disguise_newest_entry_as_a_tightening(goal: Path) -> None:
    """Turn the newest entry (a self-made re-approval) into a verify entry that says the
    contract was only tightened, as an agent would to hide the re-approval."""
    text = goal.read_text()
    start = text.rindex("\n### Iteration ") + 1
    end = text.index("\n## Lessons", start)
    lines = text[start:end].split("\n")
    lines[0] = lines[0].replace("by activate", "by verify-goal")
    lines = [
        "contract tightened: C1 check tightened" if x.startswith("contract re-approved") else x
        for x in lines
        if not x.startswith("reason: ")
    ]
    goal.write_text(text[:start] + "\n".join(lines) + text[end:])


def test_a_reapproval_disguised_as_a_tightening_is_refused_and_reported(build: Path) -> None:
    """A loosened check, re-approved by the agent, then the approval entry rewritten as a
    `by verify-goal` entry with a `contract tightened:` line: it is no approval, since what it
    records is not a tightening of the approval before it."""
    git(build, "checkout", "-qb", "agent")
    goal = build / GOAL
    edit(goal, "| `test -f build/ok` |", "| `true` |")
    done = run_goalfile("activate", "--reapprove", GOAL, "--reason", "x", cwd=build)
    assert done.returncode == 0, done.stderr
    disguise_newest_entry_as_a_tightening(goal)
    lines = goal.read_text().split("\n")
    line = max(n for n, text in enumerate(lines, 1) if text.startswith("### Iteration "))
    before = goal.read_bytes()

    for args in (("verify", GOAL), ("verify", "--no-write", GOAL)):
        refused = run_goalfile(*args, cwd=build)
        assert refused.returncode == 3, refused.stdout + refused.stderr
        assert f"{GOAL}:{line}: the verify entry `Iteration 0 " in refused.stderr  # its heading
        assert "records changes that do not tighten the contract: C1 check" in refused.stderr
        assert "verify-goal build" not in refused.stdout  # nothing was run
    assert goal.read_bytes() == before

    git(build, "commit", "-qam", "work")
    audited = run_goalfile("audit", "--against", "main", GOAL, cwd=build)
    assert audited.returncode == 1, audited.stdout
    assert f"{GOAL}:{line}: tightening-record-invalid: Iteration 0 " in audited.stdout
    assert "contract-change-unapproved" in audited.stdout
    assert "re-approved by" not in audited.stdout and "NOT re-approved" in audited.stdout
    # the fix it names: the ledger as goalfile wrote it, then an honest re-approval
    git(build, "checkout", "-q", "main", "--", GOAL)
    edit(goal, "| `test -f build/ok` |", "| `true` |")
    fixed = run_goalfile("activate", "--reapprove", GOAL, "--reason", "checks nothing", cwd=build)
    assert fixed.returncode == 0, fixed.stderr
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 0


@pytest.mark.parametrize(
    "forgery",
    [
        "no change",  # the rows of the approval before it, unchanged
        "no verdicts",  # a real tightening, but not judged: verify judges every row
        "wrong digest",  # a real tightening, but its `contract:` line names another digest
    ],
)
def test_a_tightening_entry_goalfile_would_not_write_counts_as_no_approval(
    build: Path, forgery: str
) -> None:
    why = {
        "no change": "the rows it records are those the approval before it (iteration 0, by "
        "activate) approved: nothing was tightened",
        "no verdicts": "its verdicts are not those of the rows it records",
        "wrong digest": "the rows it records digest to ",
    }
    goal = build / GOAL
    pin_before = pin_line(goal)
    short_before = pin_before.removeprefix("contract: sha256:")[:12]
    edit(goal, "| exit 0 |", "| exit 0; output empty |")  # a real tightening
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 1  # accepted and pinned
    assert "contract tightened: C1 expected tightened" in goal.read_text()
    assert run_goalfile("audit", GOAL, cwd=build).returncode == 0
    text = goal.read_text()
    start = text.rindex("\n### Iteration ") + 1
    entry = text[start : text.index("\n## Lessons", start)]
    short_after = entry.split("\ncontract: ")[1].split("\n")[0]
    if forgery == "no change":
        forged = entry.replace("`exit 0; output empty`", "`exit 0`")
        forged = forged.replace(f"contract: {short_after}", f"contract: {short_before}")
        text = text.replace(entry, forged).replace("| exit 0; output empty |", "| exit 0 |")
        text = text.replace(pin_line(goal), pin_before)
    elif forgery == "no verdicts":
        head = re.search(r"(?m)^\| id +\| verdict .*\n", entry)
        assert head is not None, entry
        table = entry[head.start() : entry.index("\n\n", head.start()) + 2]
        text = text.replace(entry, entry.replace(table, ""))
    else:
        text = text.replace(
            entry, entry.replace(f"contract: {short_after}", "contract: " + "0" * 12)
        )
    goal.write_text(text)
    refused = run_goalfile("verify", "--no-write", GOAL, cwd=build)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert "says `contract tightened:`, but " + why[forgery] in refused.stderr, refused.stderr
    audited = run_goalfile("audit", GOAL, cwd=build)
    assert audited.returncode == 1 and "tightening-record-invalid" in audited.stdout


def test_tightenings_in_a_row_each_count_against_the_one_before(build: Path) -> None:
    """Each genuine tightening is checked against the approval before it, itself a tightening."""
    git(build, "checkout", "-qb", "agent")
    goal = build / GOAL
    edit(goal, "| exit 0 |", "| exit 0; output empty |")
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 1
    table_end = "| exit 0; output empty | deterministic |\n"
    edit(goal, table_end, table_end + "| C2 | more | `test -d goals` | exit 0 | deterministic |\n")
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 1
    text = goal.read_text()
    assert "contract tightened: C1 expected tightened" in text
    assert "contract tightened: C2 added" in text
    (build / "build").mkdir()
    (build / "build" / "ok").write_text("")
    assert run_goalfile("verify", GOAL, cwd=build).returncode == 0
    git(build, "commit", "-qam", "work")
    audited = run_goalfile("audit", "--against", "main", GOAL, cwd=build)
    assert audited.returncode == 0, audited.stdout
    assert audited.stdout.count("re-approved by Iteration") == 2
