"""A goal's `shell:` must be a shell, and a person approving sees every run setting.

A goal the agent drafted with `shell: /bin/true` was lint-clean, `activate` printed only
"active (1 criterion approved)", and `verify` wrote `met` since `/bin/true -c CHECK` exits 0:
the check never ran. Each case runs the real `goalfile` on real files in a git repository.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import git, last_line, run_goalfile

GOAL = "goals/app.md"
REAL_SHELL = '#!/bin/sh\nexec /bin/sh "$@"\n'
NO_SHELL = "#!/bin/sh\nexit 0\n"


def draft(repo: Path, extra: str) -> Path:
    """The draft the agent writes, with ``extra`` frontmatter lines; its check fails."""
    (repo / "test_app.sh").write_text("exit 1\n")
    made = run_goalfile(
        "new", "app", "the app's tests pass", "--check", "sh test_app.sh", "--expected",
        "exit 0", "--non-goal", "test_app.sh is not edited", cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    path = repo / GOAL
    text = path.read_text()
    path.write_text(text.replace("tokens_used: 0\n", f"tokens_used: 0\n{extra}", 1))
    return path


def fake_shell(repo: Path, body: str) -> Path:
    fake = repo / "tools" / "bash"
    fake.parent.mkdir(exist_ok=True)
    fake.write_text(body)
    fake.chmod(0o755)
    return fake


@pytest.mark.parametrize(
    "program", ["/bin/true", "/bin/echo", "/usr/bin/env", shutil.which("python3") or "python3"]
)
def test_a_program_that_is_no_shell_is_refused_everywhere(repo: Path, program: str) -> None:
    path = draft(repo, f"shell: {program}\n")
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 3, linted.stdout + linted.stderr
    assert f"shell '{program}' is not a shell goalfile knows" in linted.stderr
    assert "fix: write `shell: /bin/bash`" in linted.stderr
    before = path.read_text()
    refused = run_goalfile("activate", GOAL, cwd=repo)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert path.read_text() == before


def test_activate_refuses_a_shell_named_bash_that_runs_nothing(repo: Path) -> None:
    fake = fake_shell(repo, NO_SHELL)
    path = draft(repo, f"shell: {fake}\n")
    assert run_goalfile("lint", GOAL, cwd=repo).returncode == 0  # its name is a shell's
    before = path.read_text()
    refused = run_goalfile("activate", GOAL, cwd=repo)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert f"shell {fake} does not run its command" in refused.stderr
    assert "exited 0 printing nothing" in refused.stderr
    assert path.read_text() == before


def test_verify_runs_no_check_in_a_shell_that_stopped_being_one(repo: Path) -> None:
    fake = fake_shell(repo, REAL_SHELL)
    path = draft(repo, f"shell: {fake}\n")
    approved = run_goalfile("activate", GOAL, cwd=repo)
    assert approved.returncode == 0, approved.stderr
    fake.write_text(NO_SHELL)  # the same file, now a program that exits 0 for any check
    done = run_goalfile("verify", GOAL, cwd=repo)
    assert done.returncode == 4, done.stdout + done.stderr
    assert last_line(done.stdout) == "verify-goal app iteration 0: C1 error; status: blocked"
    assert "does not run its command" in path.read_text()
    fake.write_text(REAL_SHELL)  # a shell again: the check runs, and fails as it should
    again = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert last_line(again.stdout).endswith("C1 unmet; status: active"), again.stdout


def test_activate_shows_what_it_approves_with_settings_that_are_not_the_default(
    repo: Path,
) -> None:
    (repo / "sub").mkdir()
    bash = shutil.which("bash")
    assert bash is not None
    draft(repo, f"shell: {bash}\ncwd: ../sub\ntimeout: 45\n")
    shown = run_goalfile("activate", GOAL, cwd=repo)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == f"{GOAL}: active (1 criterion approved)\n"
    assert "  C1: `sh test_app.sh` → exit 0" in shown.stderr
    assert "  non-goal: test_app.sh is not edited" in shown.stderr
    assert f"  note: shell {bash}: not the default /bin/sh" in shown.stderr
    assert "  note: cwd ../sub (" in shown.stderr
    assert "  note: timeout 45: every check may run 45 s at most" in shown.stderr


def test_activate_json_lists_the_approved_contract_and_its_settings(repo: Path) -> None:
    (repo / "sub").mkdir()
    draft(repo, "cwd: ../sub\n")
    shown = run_goalfile("activate", "--json", GOAL, cwd=repo)
    assert shown.returncode == 0, shown.stderr
    document = json.loads(shown.stdout)
    assert document["approved"]["settings"] == {"cwd": "../sub"}
    assert document["approved"]["criteria"][0]["check"] == "sh test_app.sh"
    assert document["working_directory"]["relative"] == "../sub"
    (note,) = document["run_settings_not_default"]
    assert note.startswith("cwd ../sub (")


def test_audit_names_the_run_settings_of_a_goal_new_since_the_ref(repo: Path) -> None:
    git(repo, "commit", "-q", "--allow-empty", "-m", "base")
    git(repo, "branch", "-M", "main")
    git(repo, "checkout", "-qb", "agent")
    (repo / "sub").mkdir()
    bash = shutil.which("bash")
    assert bash is not None
    draft(repo, f"shell: {bash}\ncwd: ../sub\n")
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    report = run_goalfile("audit", "--against", "main", cwd=repo)
    assert report.returncode == 0, report.stdout + report.stderr
    assert (
        "check its run settings, which are not the default: cwd `../sub`, shell "
        f"`{bash}`" in report.stdout + report.stderr
    )


@pytest.mark.parametrize(
    ("written", "hint"),
    [
        ("/usr/bin/env bash", "/bin/bash"),
        ("/bin/bash -e", "/bin/bash"),
        ("/usr/bin/env zsh", "/bin/zsh"),
        (" /bin/sh", "/bin/sh"),
    ],
)
def test_the_shell_fix_never_glues_words(repo: Path, written: str, hint: str) -> None:
    draft(repo, f'shell: "{written}"\n')
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode == 3
    assert f"fix: write `shell: {hint}` (an absolute path, no spaces)" in linted.stderr
