"""`goalfile audit --against REF` where REF names no commit: README and the skills say `main`,
and a repository whose branch is `master` (git's default without init.defaultBranch) got
"fix: name an existing branch, tag or commit", which is no command. The fix now names the
audit against the branch that is there, and that command works as written; with no branch to
guess, it names the git command that lists them."""

from __future__ import annotations

from pathlib import Path

from conftest import fix_of, git, run_goalfile, shell


def project(tmp_path: Path, branch: str) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", branch)
    git(repo, "config", "user.email", "tests@example.invalid")
    git(repo, "config", "user.name", "goalfile tests")
    (repo / "README.md").write_text("# project\n", encoding="utf-8")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "start")
    done = run_goalfile(
        "new", "demo", "the readme is there", "--check", "test -f README.md",
        "--expected", "exit 0", "--non-goal", "nothing else", "--activate", "--commit",
        cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return repo


def test_main_in_a_master_repository_names_master(tmp_path: Path) -> None:
    repo = project(tmp_path, "master")

    done = run_goalfile("audit", "--against", "main", cwd=repo)

    assert done.returncode == 2, done.stderr
    assert "unknown git revision 'main'" in done.stderr
    fix = fix_of(done.stderr)
    assert fix == "goalfile audit --against master"
    assert "fetch-depth: 0" in done.stderr
    ran = shell(fix, repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "goals/demo.md: clean" in ran.stdout


def test_a_remote_name_with_only_the_local_branch_names_the_local_one(tmp_path: Path) -> None:
    repo = project(tmp_path, "main")

    done = run_goalfile("audit", "goals/demo.md", "--against", "origin/main~0", cwd=repo)

    assert done.returncode == 2, done.stderr
    fix = fix_of(done.stderr)
    assert fix == "goalfile audit goals/demo.md --against 'main~0'"
    assert shell(fix, repo).returncode == 0


def test_the_fix_keeps_the_paths_and_options_given(tmp_path: Path) -> None:
    """A goal outside the goal folders, named as `--against=main`: the fix is that command line
    with the branch that is there (without its PATH it found no goal: "no goal files found")."""
    repo = project(tmp_path, "master")
    git(repo, "mv", "goals", "plans")
    git(repo, "commit", "-qm", "plans")

    done = run_goalfile(
        "audit", "plans/demo.md", "--against=main", "--format", "markdown", cwd=repo
    )

    assert done.returncode == 2, done.stderr
    fix = fix_of(done.stderr)
    assert fix == "goalfile audit plans/demo.md --against=master --format markdown"
    assert "'main' is no branch here; 'master' is" in done.stderr
    ran = shell(fix, repo)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "plans/demo.md" in ran.stdout


def test_nothing_to_guess_names_the_command_that_lists_the_branches(tmp_path: Path) -> None:
    repo = project(tmp_path, "master")

    for ref in ("no-such-branch", "master~5"):  # master~5: the branch is there, not the commit
        done = run_goalfile("audit", "--against", ref, cwd=repo)

        assert done.returncode == 2, done.stderr
        fix = fix_of(done.stderr)
        assert fix == "git branch --all"
        listed = shell(fix, repo)
        assert listed.returncode == 0 and "master" in listed.stdout
