"""What the contract digests of a goal's run settings is exactly what runs.

A `shell:` that reads as the default (` /bin/sh`, with a space or a no-break space in front)
was digested stripped, as the default shell, but run as written: a path relative to the working
directory, where the agent could commit a fake shell that prints what every check expects.
The same for a `cwd:` with a space in front, or one through a symbolic link (`../link/..`,
digested as `..`). Each case runs the real `goalfile` on a real git repository.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import git, make_git_repo, run_goalfile

GOAL = "goals/t.md"
FAKE_SHELL = '#!/bin/sh\necho "12 passed"\nexit 0\n'


def approved(repo: Path, *, check: str = "sh test.sh", extra: str = "") -> Path:
    """A goal a person approved whose check fails (the suite does), committed on `main`."""
    made = run_goalfile(
        "new",
        "t",
        "the suite passes",
        "--check",
        check,
        "--expected",
        'exit 0; stdout contains "passed"',
        "--activate",
        cwd=repo,
    )
    assert made.returncode == 0, made.stderr
    if extra:
        path = repo / GOAL
        path.write_text(path.read_text().replace("tokens_used: 0\n", f"tokens_used: 0\n{extra}", 1))
        again = run_goalfile("activate", "--reapprove", GOAL, "--reason", "cwd", cwd=repo)
        assert again.returncode == 0, again.stderr
    (repo / "test.sh").write_text('echo "0 passed, 1 failed"; exit 1\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    git(repo, "branch", "-M", "main")
    git(repo, "checkout", "-qb", "feature")
    return repo / GOAL


def plant_shell(repo: Path, name: str) -> None:
    """A fake shell at `NAME` relative to the working directory, as the agent commits it."""
    fake = repo / name.lstrip("/")
    if name.startswith("/"):  # only a relative name can be planted in the tree
        raise AssertionError(name)
    fake.parent.mkdir(parents=True, exist_ok=True)
    fake.write_text(FAKE_SHELL)
    fake.chmod(0o755)


def add_line(path: Path, line: str) -> int:
    """Add ``line`` after `tokens_used:`; its line number."""
    text = path.read_text()
    assert "tokens_used: 0\n" in text
    path.write_text(text.replace("tokens_used: 0\n", f"tokens_used: 0\n{line}\n", 1))
    return path.read_text().split("\n").index(line) + 1


def stop_hook(repo: Path) -> str:
    stdin = json.dumps(
        {
            "session_id": "s",
            "transcript_path": "",
            "cwd": str(repo),
            "hook_event_name": "Stop",
            "stop_hook_active": False,
        }
    )
    done = run_goalfile("hook", "stop", cwd=repo, input=stdin, timeout=120)
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    ("line", "planted"),
    [
        ('shell: " /bin/sh"', " /bin/sh"),
        ("shell: \u00a0/bin/sh", "\u00a0/bin/sh"),  # unquoted: YAML keeps the no-break space
        ('shell: "/bin/sh "', None),
        ("shell: bin/sh", "bin/sh"),
    ],
    ids=["leading-space", "no-break-space", "trailing-space", "relative"],
)
def test_a_shell_that_is_not_a_plain_absolute_path_is_refused_by_verify_and_the_hook(
    repo: Path, line: str, planted: str | None
) -> None:
    path = approved(repo)
    if planted is not None:
        plant_shell(repo, planted)
    number = add_line(path, line)
    before = path.read_text()

    refused = run_goalfile("verify", GOAL, cwd=repo)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert f"{GOAL}:{number}:" in refused.stderr
    assert "write `shell: /bin/sh`" in refused.stderr or "write `shell: /bin/bash`" in (
        refused.stderr
    )
    assert "Traceback" not in refused.stderr
    assert path.read_text() == before  # untouched

    said = stop_hook(repo)
    assert "status: met" not in path.read_text(), said
    held = json.loads(said)
    assert held["decision"] == "block", said
    assert f"{GOAL}:{number}: shell" in held["reason"]

    # the hook's fix, as written: the line goes, and the default shell runs the real suite
    fix = re.search(r"fix: `([^`]+)`", held["reason"])
    assert fix is not None, held["reason"]
    subprocess.run(["sh", "-c", fix.group(1)], cwd=repo, check=True)
    assert path.read_text() == before.replace(line + "\n", "")
    ran = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "C1 unmet" in ran.stdout


def test_audit_reports_a_met_recorded_under_a_shell_no_check_can_run_with(repo: Path) -> None:
    """A `met` written under ` /bin/sh` (by a goalfile that ran the fake shell): the contract
    digest is the approved one, so only the invalid setting tells; CI's re-run refuses too."""
    path = approved(repo)
    (repo / "test.sh").write_text('echo "12 passed"\n')
    assert run_goalfile("verify", GOAL, cwd=repo).returncode == 0  # the met entry
    git(repo, "checkout", "--", "test.sh")  # the real suite fails again
    plant_shell(repo, " /bin/sh")
    number = add_line(path, 'shell: " /bin/sh"')
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "suite passes")

    audit = run_goalfile("audit", "--against", "main", cwd=repo)
    assert audit.returncode == 1, audit.stdout + audit.stderr
    assert f"{GOAL}:{number}: run-setting-invalid:" in audit.stdout
    rerun = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert rerun.returncode == 3, rerun.stdout + rerun.stderr


def test_a_cwd_with_a_space_in_front_is_refused(repo: Path) -> None:
    path = approved(repo)
    (repo / "goals" / " ..").mkdir()
    (repo / "goals" / " ..").joinpath("test.sh").write_text('echo "12 passed"\n')
    number = add_line(path, 'cwd: " .."')
    refused = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert f"{GOAL}:{number}:" in refused.stderr
    assert "begins or ends with whitespace" in refused.stderr


def test_a_cwd_through_a_symbolic_link_runs_where_the_digest_says(repo: Path) -> None:
    """`cwd: ../link/..` digests as `..`; the checks run in `..`, not in the parent of the
    link's target, also under an approval that records no working directory."""
    path = approved(repo, extra="cwd: ..\n")
    text = path.read_text()
    kept = [line for line in text.split("\n") if not line.startswith("working directory:")]
    assert len(kept) < len(text.split("\n"))  # an approval from before it was recorded
    path.write_text("\n".join(kept))
    honest = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert honest.returncode == 1, honest.stdout + honest.stderr

    deep = repo / "fake" / "deep"
    deep.mkdir(parents=True)
    (repo / "fake" / "test.sh").write_text('echo "12 passed"\n')
    os.symlink(deep, repo / "link")
    path.write_text(path.read_text().replace("cwd: ..\n", "cwd: ../link/..\n", 1))
    ran = run_goalfile("verify", "--no-write", GOAL, cwd=repo)
    assert ran.returncode == 1, ran.stdout + ran.stderr  # the real test.sh, in the repository
    assert "C1 unmet" in ran.stdout


@pytest.mark.parametrize(
    ("value", "hinted"),
    [
        ("/usr/bin/env bash", "/bin/bash"),
        ("/bin/bash -e", "/bin/bash"),
        (" /bin/sh", "/bin/sh"),
        ("/bin/sh ", "/bin/sh"),
    ],
)
def test_the_shell_hint_never_joins_words_and_written_as_said_the_checks_run(
    repo: Path, value: str, hinted: str
) -> None:
    """`shell: /usr/bin/env bash` got the hint `write shell: /usr/bin/envbash`: written so,
    lint passed and every check was an `error` (no such program). The hint names a shell."""
    made = run_goalfile(
        "new", "t", "ok", "--check", "echo ok", "--expected", "exit 0", "--non-goal", "n",
        cwd=repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    path = repo / GOAL
    number = add_line(path, f"shell: {json.dumps(value)}")
    linted = run_goalfile("lint", GOAL, cwd=repo)
    assert linted.returncode != 0, linted.stdout + linted.stderr
    said = linted.stdout + linted.stderr
    assert f"write `shell: {hinted}` (an absolute path, no spaces)" in said, said
    lines = path.read_text().split("\n")
    lines[number - 1] = f"shell: {hinted}"  # as the hint says
    path.write_text("\n".join(lines))
    assert run_goalfile("lint", GOAL, cwd=repo).returncode == 0
    assert run_goalfile("activate", GOAL, cwd=repo).returncode == 0
    verified = run_goalfile("verify", GOAL, cwd=repo)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.splitlines()[-1].endswith("C1 met; status: met")


def test_a_working_directory_whose_name_holds_a_backtick_is_recorded_and_read_back(
    tmp_path: Path,
) -> None:
    """The approval entry wrote `working directory: `../a`b`` (one backtick each side), which
    read back as `../a`: the goal was `workdir-not-approved`, and verify refused it for good.
    The entry now writes the name as one code span that holds it (a longer fence)."""
    repo = make_git_repo(tmp_path / "r")
    made = run_goalfile("new", "g", "x", "--check", "test -f here", "--expected", "exit 0",
                        "--non-goal", "n", cwd=repo)  # fmt: skip
    assert made.returncode == 0, made.stderr
    (repo / "a`b").mkdir()
    (repo / "a`b" / "here").write_text("", encoding="utf-8")
    path = repo / "goals" / "g.md"
    path.write_text(path.read_text("utf-8").replace("---\n#", 'cwd: "../a`b"\n---\n#', 1))
    assert run_goalfile("activate", "goals/g.md", cwd=repo).returncode == 0
    assert "working directory: `` ../a`b `` (cwd)" in path.read_text("utf-8")
    done = run_goalfile("verify", "goals/g.md", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    audited = run_goalfile("audit", "goals/g.md", cwd=repo)
    assert audited.returncode == 0, audited.stdout + audited.stderr
