"""A git clean filter (or `ident`, `working-tree-encoding`) on a goal path makes git store other
bytes than the goal file holds: set in .git/config and .git/info/attributes, neither of which
`git status` shows, it made `activate`'s own `git add` (and the person's commit) store the
agent's pre-made `met` goal while the person's file showed the check they approved. goalfile
stages the file's bytes exactly, and `activate`, the Stop hook and `audit` refuse a goal path
git converts, naming the attribute, the line that sets it and the command that deletes it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import git, hook_answer, make_git_repo, run_goalfile
from test_hook_discovery import fix_of, sh

NEW = ("new", "auth", "tests pass", "--check", "pytest -q tests", "--expected", "exit 0")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "repo")
    git(root, "commit", "-q", "--allow-empty", "-m", "init")
    git(root, "branch", "-M", "main")
    return root


def plant_filter(repo: Path, tmp_path: Path) -> bytes:
    """The agent's clean filter: it swaps any goal `activate` wrote for a goal of its own.
    Returns what the filter stores."""
    fake = b"---\nslug: auth\nstatus: met\n---\n# Goal: the agent's\n"
    (tmp_path / "fake.md").write_bytes(fake)
    script = tmp_path / "clean.sh"
    script.write_text(
        f'#!/bin/sh\ncat > /dev/null\ncat "{tmp_path / "fake.md"}"\n', encoding="utf-8"
    )
    script.chmod(0o755)
    git(repo, "config", "filter.g.clean", str(script))
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("goals/*.md filter=g\n", encoding="utf-8")
    return fake


def test_activate_refuses_a_goal_path_a_git_filter_applies_to(repo: Path, tmp_path: Path) -> None:
    fake = plant_filter(repo, tmp_path)
    assert git(repo, "status", "--porcelain") == ""  # nothing for the person to see
    done = run_goalfile(*NEW, "--activate", cwd=repo)
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    assert "`filter=g`" in done.stderr and f"filter.g.clean = {tmp_path}" in done.stderr
    assert ".git/info/attributes:1: `goals/*.md filter=g`" in done.stderr
    assert "nothing was approved" in done.stderr
    assert git(repo, "ls-files", "--stage") == ""  # nothing staged: the filter never ran
    text = (repo / "goals" / "auth.md").read_text(encoding="utf-8")
    assert "status: draft" in text
    sh(fix_of(done.stderr), repo)  # works as written
    again = run_goalfile("activate", "goals/auth.md", cwd=repo)
    assert again.returncode == 0, again.stderr
    written = (repo / "goals" / "auth.md").read_bytes()
    staged = git(repo, "cat-file", "blob", ":goals/auth.md")
    assert staged.encode() == written and staged.encode() != fake


def test_activate_stores_the_files_bytes_not_what_a_filter_says(repo: Path) -> None:
    """Staging asks no filter: a goal path no attribute names is stored byte for byte, also in
    a repository whose `core.autocrlf` would rewrite it on `git add`."""
    git(repo, "config", "core.autocrlf", "true")
    done = run_goalfile(*NEW, "--non-goal", "n", cwd=repo)
    assert done.returncode == 0, done.stderr
    path = repo / "goals" / "auth.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    done = run_goalfile("activate", "goals/auth.md", cwd=repo)
    assert done.returncode == 0, done.stderr
    blob = git(repo, "rev-parse", ":goals/auth.md")
    assert git(repo, "hash-object", "--no-filters", "goals/auth.md") == blob


def test_the_stop_hook_holds_a_committed_goal_a_filter_applies_to(
    repo: Path, tmp_path: Path
) -> None:
    (repo / "ok").write_text("", encoding="utf-8")
    done = run_goalfile(
        "new", "auth", "ok", "--check", "test -f ok", "--expected", "exit 0", "--activate",
        cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(repo, "commit", "-qm", "goal: auth")
    plant_filter(repo, tmp_path)  # set after the person's commit: the next one would store it
    answer = hook_answer(repo)
    assert answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "goalfile cannot verify goals/auth.md: git applies `filter=g`" in reason, reason
    assert ".git/info/attributes:1" in reason
    sh(fix_of(reason), repo)
    assert (repo / ".git" / "info" / "attributes").read_text(encoding="utf-8") == ""
    answer = hook_answer(repo)
    assert "filter=g" not in json.dumps(answer), answer


@pytest.mark.parametrize(
    "line", ["goals/*.md ident", "goals/** working-tree-encoding=UTF-16", "*.md filter=x"]
)
def test_audit_reports_a_committed_attribute_that_converts_a_goal(repo: Path, line: str) -> None:
    done = run_goalfile(*NEW, "--non-goal", "n", "--activate", cwd=repo)
    assert done.returncode == 0, done.stderr
    git(repo, "commit", "-qm", "goal: auth")
    git(repo, "checkout", "-qb", "agent")
    (repo / ".gitattributes").write_text(f"# ours\n{line}\n", encoding="utf-8")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-qm", "attributes")
    done = run_goalfile("audit", "--against", "refs/heads/main", cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout + done.stderr
    assert "git-attribute" in out and f".gitattributes:2: `{line}`" in out, out
    assert "sed -i.goalfile-bak -e '2d' -- .gitattributes" in out


def test_the_fix_keeps_a_file_of_its_backup_name(repo: Path, tmp_path: Path) -> None:
    """The fix's `sed -i.goalfile-bak ... && rm -- FILE.goalfile-bak` replaced, then deleted, a
    file of that name that was already there. It is written as every other printed sed is
    (:func:`goalfile.shellword.sed_command`): it refuses while that file is there."""
    plant_filter(repo, tmp_path)
    backup = repo / ".git" / "info" / "attributes.goalfile-bak"
    backup.write_text("kept\n", encoding="utf-8")
    done = run_goalfile(*NEW, "--activate", cwd=repo)
    assert done.returncode == 3, done.stderr
    fix = fix_of(done.stderr)
    ran = subprocess.run(fix, shell=True, cwd=repo, capture_output=True, check=False)
    assert ran.returncode != 0, fix
    assert backup.read_text(encoding="utf-8") == "kept\n"
    attributes = repo / ".git" / "info" / "attributes"
    assert attributes.read_text(encoding="utf-8") == "goals/*.md filter=g\n"
    backup.unlink()
    sh(fix, repo)  # with the name free, it works as written
    assert attributes.read_text(encoding="utf-8") == ""
    assert not backup.exists()


def test_the_fix_deletes_only_the_lines_that_apply_to_the_goal(repo: Path) -> None:
    """A line for other files (`*.png filter=lfs`) is neither named nor deleted."""
    (repo / ".gitattributes").write_text(
        "*.png filter=lfs diff=lfs merge=lfs -text\n/goals/** ident\n", encoding="utf-8"
    )
    done = run_goalfile(*NEW, "--non-goal", "n", "--activate", cwd=repo)
    assert done.returncode == 3, done.stderr
    assert ".gitattributes:2: `/goals/** ident`" in done.stderr, done.stderr
    assert "*.png" not in done.stderr, done.stderr
    sh(fix_of(done.stderr), repo)
    assert (repo / ".gitattributes").read_text(encoding="utf-8") == (
        "*.png filter=lfs diff=lfs merge=lfs -text\n"
    )
    assert run_goalfile("activate", "goals/auth.md", cwd=repo).returncode == 0


def plant_textconv(repo: Path, tmp_path: Path) -> None:
    """The agent's diff driver: `git diff`, `git log -p` and `git show` show HEAD's copy of a
    goal file, whatever the file holds."""
    script = tmp_path / "show-head.sh"
    script.write_text("#!/bin/sh\ngit show HEAD:goals/auth.md\n", encoding="utf-8")
    script.chmod(0o755)
    git(repo, "config", "diff.g.textconv", str(script))
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("goals/*.md diff=g\n", encoding="utf-8")


def test_a_diff_driver_that_shows_another_goal_is_refused(repo: Path, tmp_path: Path) -> None:
    """The goal was loosened (`test -f ok` → `true`), re-approved by the agent and verified
    `met`; with the driver, `git diff` showed no change to it, and `git show` of the commit
    showed none either."""
    done = run_goalfile(
        "new", "auth", "ok", "--check", "test -f ok", "--expected", "exit 0", "--activate",
        "--commit", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    path = repo / "goals" / "auth.md"
    path.write_text(path.read_text("utf-8").replace("`test -f ok` |", "`true` |"), "utf-8")
    plant_textconv(repo, tmp_path)
    assert git(repo, "diff", "--", "goals/auth.md") == ""  # what the person's review shows
    reapproved = run_goalfile("activate", "--reapprove", "goals/auth.md", "--reason", "x", cwd=repo)
    assert reapproved.returncode == 3, reapproved.stdout + reapproved.stderr
    assert "`diff=g` (a program whose output `git diff`" in reapproved.stderr
    assert f"diff.g.textconv = {tmp_path}/show-head.sh" in reapproved.stderr
    assert ".git/info/attributes:1: `goals/*.md diff=g`" in reapproved.stderr

    answer = hook_answer(repo)  # the goal git tracks: held, with the line's fix
    assert answer["decision"] == "block", answer
    reason = str(answer["reason"])
    assert "git applies `diff=g`" in reason, reason
    audited = run_goalfile("audit", "goals/auth.md", cwd=repo)
    assert audited.returncode == 1 and "git-attribute" in audited.stdout, audited.stdout
    sh(fix_of(reason), repo)  # works as written
    assert "`true`" in git(repo, "diff", "--", "goals/auth.md")  # git shows the file again
    assert run_goalfile("activate", "--reapprove", "goals/auth.md", "--reason", "x",
                        cwd=repo).returncode == 0  # fmt: skip


def test_a_diff_driver_without_a_program_is_let_be(repo: Path) -> None:
    """`*.md diff=markdown` names hunks by headings; `-diff` on other files is theirs."""
    (repo / ".gitattributes").write_text("*.md diff=markdown\ngoals/x/*.md -diff\n", "utf-8")
    done = run_goalfile(*NEW, "--non-goal", "n", "--activate", cwd=repo)
    assert done.returncode == 0, done.stderr
    audited = run_goalfile("audit", "goals/auth.md", cwd=repo)
    assert "git-attribute" not in audited.stdout, audited.stdout


@pytest.mark.parametrize(
    "line",
    ["goals/*.md -diff linguist-generated=true", "goals/** binary", "*.md linguist-generated"],
)
def test_an_attribute_that_hides_the_goals_changes_from_review_fails_the_audit(
    repo: Path, line: str
) -> None:
    """The agent loosened its check, re-approved it itself (recorded, for the reviewer to
    judge), verified `met` and committed one line of `.gitattributes`: `git diff` printed
    "Binary files differ" for the goal (GitHub folds a `linguist-generated` file), while
    `audit --against` was clean and the loosened check passed. Before, this audit exited 0."""
    (repo / "run_tests.sh").write_text('echo "2 passed, 1 failed"\nexit 1\n', "utf-8")
    git(repo, "add", "run_tests.sh")
    git(repo, "commit", "-qm", "tests")
    done = run_goalfile(
        "new", "auth", "suite passes", "--check", "sh run_tests.sh", "--expected",
        'exit 0; stdout lacks "failed"', "--non-goal", "n", "--activate", "--commit", cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(repo, "checkout", "-qb", "agent")
    path = repo / "goals" / "auth.md"
    loosened = '| stdout contains "passed" |'
    path.write_text(path.read_text("utf-8").replace('| exit 0; stdout lacks "failed" |', loosened))
    done = run_goalfile("activate", "--reapprove", "goals/auth.md", "--reason", "flaky", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert run_goalfile("verify", "goals/auth.md", cwd=repo).returncode == 0
    (repo / ".gitattributes").write_text(f"# ours\n{line}\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "work")
    if "linguist" not in line:  # what a person reviewing with git reads
        assert "Binary files" in git(repo, "diff", "refs/heads/main", "--", "goals/auth.md")
    done = run_goalfile("audit", "--against", "refs/heads/main", cwd=repo)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "git-attribute" in out and f".gitattributes:2: `{line}`" in out, out
    assert "would not see the change" in out, out
    assert run_goalfile("activate", "--reapprove", "goals/auth.md", "--reason", "x",
                        cwd=repo).returncode == 3  # fmt: skip
    sh(fix_of(out), repo)  # works as written
    assert "contains" in git(repo, "diff", "refs/heads/main", "--", "goals/auth.md")
    git(repo, "commit", "-qam", "attributes gone")
    assert run_goalfile("audit", "--against", "refs/heads/main", cwd=repo).returncode == 0


def test_a_hiding_attribute_is_no_hold_at_the_stop(repo: Path) -> None:
    """What git stores is the file: the Stop hook verifies the goal as before (the audit in
    CI is where the attribute is a finding)."""
    (repo / ".gitattributes").write_text("goals/*.md -diff\n", encoding="utf-8")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-qm", "attributes")
    done = run_goalfile(
        "new", "auth", "ok", "--check", "true", "--expected", "exit 0", "--non-goal", "n",
        cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    refused = run_goalfile("activate", "goals/auth.md", cwd=repo)
    assert refused.returncode == 3 and "`-diff`" in refused.stderr, refused.stderr
    (repo / ".gitattributes").write_text("", encoding="utf-8")
    assert run_goalfile("activate", "goals/auth.md", "--commit", cwd=repo).returncode == 0
    (repo / ".gitattributes").write_text("goals/*.md -diff\n", encoding="utf-8")
    answer = hook_answer(repo)
    assert answer.get("decision") != "block", answer


def test_a_diff_driver_git_config_makes_binary_hides_the_goals_changes(repo: Path) -> None:
    """`diff=hide` in .gitattributes names a driver with no program; `git config
    diff.hide.binary true` (in .git/config, which `git status` does not show) made `git diff`
    print "Binary files differ" for the loosened goal, as `-diff` does, and audit said
    nothing."""
    done = run_goalfile(*NEW, "--non-goal", "n", "--activate", "--commit", cwd=repo)
    assert done.returncode == 0, done.stderr
    (repo / ".gitattributes").write_text("goals/*.md diff=hide\n", encoding="utf-8")
    git(repo, "config", "diff.hide.binary", "true")
    path = repo / "goals" / "auth.md"
    path.write_text(path.read_text("utf-8").replace("`pytest -q tests` |", "`true` |"), "utf-8")
    assert "Binary files" in git(repo, "diff", "--", "goals/auth.md")
    audited = run_goalfile("audit", "goals/auth.md", cwd=repo)
    out = audited.stdout + audited.stderr
    assert audited.returncode == 1 and "git-attribute" in out, out
    assert "`diff=hide` with diff.hide.binary = true" in out, out
    assert ".gitattributes:1: `goals/*.md diff=hide`" in out, out
    refused = run_goalfile("activate", "--reapprove", "goals/auth.md", "--reason", "x", cwd=repo)
    assert refused.returncode == 3 and "Binary files differ" in refused.stderr, refused.stderr
    sh(fix_of(refused.stderr), repo)  # works as written
    assert "`true`" in git(repo, "diff", "--", "goals/auth.md")  # git shows the change again
    git(repo, "config", "diff.hide.binary", "false")  # a driver that is not binary is let be
    (repo / ".gitattributes").write_text("goals/*.md diff=hide\n", encoding="utf-8")
    audited = run_goalfile("audit", "goals/auth.md", cwd=repo)
    assert "git-attribute" not in audited.stdout + audited.stderr
