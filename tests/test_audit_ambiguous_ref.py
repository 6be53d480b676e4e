"""`audit --against REF` with a REF that names more than one ref: refused, never guessed.

git reads a short name as `refs/NAME`, then a tag, then a branch, then a remote-tracking branch,
so a tag `origin/main` pushed by the agent took over `audit --against origin/main`: the pull
request was compared with itself and every finding disappeared. Real git repositories: an
origin, the agent's clone that pushes the tag, and CI's full clone (which fetches every tag).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests.conftest import clean_env, git, make_git_repo, run_goalfile
from tests.test_ci_recipe import AUDIT_STEP, recipe_step, run_step

GOAL = "goals/g.md"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "ci.md"


def clone(source: Path, target: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(source), str(target)], check=True, env=clean_env())
    git(target, "config", "user.email", "tests@example.invalid")
    git(target, "config", "user.name", "goalfile tests")
    return target


def attacked(tmp_path: Path) -> Path:
    """CI's clone of a pull request that loosened an approved check without a re-approval and
    pushed a tag `origin/main` at its own commit."""
    person = make_git_repo(tmp_path / "person")
    made = run_goalfile(
        "new",
        "g",
        "ok exists",
        "--check",
        "test -f ok",
        "--expected",
        "exit 0",
        "--activate",
        cwd=person,
    )
    assert made.returncode == 0, made.stderr
    git(person, "add", "-A")
    git(person, "commit", "-qm", "goal")
    git(person, "branch", "-M", "main")
    origin = tmp_path / "origin.git"
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(person), str(origin)], check=True, env=clean_env()
    )
    agent = clone(origin, tmp_path / "agent")
    git(agent, "checkout", "-qb", "feature")
    path = agent / GOAL
    path.write_text(path.read_text().replace("`test -f ok`", "`true`"))
    git(agent, "commit", "-qam", "done")
    git(agent, "push", "-q", "origin", "feature", "feature:refs/tags/origin/main")
    ci = clone(origin, tmp_path / "ci")
    git(ci, "checkout", "-q", "feature")
    git(ci, "branch", "-q", "-D", "main")  # as actions/checkout leaves it: origin/main only
    assert git(ci, "tag", "--list").split() == ["origin/main"]
    return ci


def test_an_ambiguous_base_is_refused_and_the_full_ref_it_names_finds_the_change(
    tmp_path: Path,
) -> None:
    ci = attacked(tmp_path)
    refused = run_goalfile("audit", "--against", "origin/main", cwd=ci)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "refs/tags/origin/main" in refused.stderr
    assert "refs/remotes/origin/main" in refused.stderr
    assert refused.stdout == ""
    fix = re.search(r"fix: `([^`]+)` names the remote branch alone", refused.stderr)
    assert fix is not None, refused.stderr
    assert fix.group(1) == "goalfile audit --against refs/remotes/origin/main", fix.group(1)
    done = run_goalfile(*shlex.split(fix.group(1))[1:], cwd=ci)  # the command as written
    assert done.returncode == 1, done.stdout + done.stderr
    assert "contract-change-unapproved" in done.stdout
    assert "`test -f ok` → `true`" in done.stdout

    suffixed = run_goalfile("audit", GOAL, "--against", "origin/main~0", cwd=ci)
    assert suffixed.returncode == 2, suffixed.stdout + suffixed.stderr


def test_the_audit_step_of_docs_ci_names_the_full_ref(tmp_path: Path) -> None:
    """The step as written, with its `BASE` as the recipe sets it."""
    ci = attacked(tmp_path)
    base = re.search(r"BASE: (.+)", DOCS.read_text())
    assert base is not None
    value = base.group(1).strip().replace("${{ github.base_ref }}", "main")
    folder = tmp_path / "runner" / "audit" / "bin"
    folder.mkdir(parents=True)
    (folder / "goalfile").symlink_to(Path(sys.executable).with_name("goalfile"))
    done = subprocess.run(
        ["bash", "-e", "-c", recipe_step(AUDIT_STEP)],
        cwd=ci,
        env=clean_env(
            {"BASE": value, "RUNNER_TEMP": str(tmp_path / "runner"), "PATH": "/usr/bin:/bin"}
        ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "contract-change-unapproved" in done.stdout


def test_the_rerun_step_makes_the_base_branch_from_the_remote_tracking_branch(
    tmp_path: Path,
) -> None:
    ci = attacked(tmp_path)
    run_step(ci, env={"BASE_BRANCH": "main"})
    made = git(ci, "rev-parse", "refs/heads/main").strip()
    assert made == git(ci, "rev-parse", "refs/remotes/origin/main").strip()
    assert made != git(ci, "rev-parse", "refs/tags/origin/main").strip()


def test_a_pseudo_ref_shadowed_by_a_tag_is_refused_with_the_command_that_removes_the_tag(
    repo: Path,
) -> None:
    (repo / "x").write_text("x\n")
    git(repo, "add", "x")
    git(repo, "commit", "-qm", "x")
    git(repo, "tag", "HEAD")
    refused = run_goalfile("audit", "--against", "HEAD", cwd=repo)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    fix = re.search(r"fix: delete the ref that shadows it: `([^`]+)`", refused.stderr)
    assert fix is not None, refused.stderr
    subprocess.run(["sh", "-c", fix.group(1)], cwd=repo, check=True, env=clean_env())
    done = run_goalfile("audit", "--against", "HEAD", cwd=repo)
    assert done.returncode != 2, done.stdout + done.stderr
    assert "ambiguous" not in done.stderr


def test_a_tag_named_as_the_full_ref_does_not_shadow_it(tmp_path: Path) -> None:
    """A tag `refs/remotes/origin/main` (ref `refs/tags/refs/remotes/origin/main`) made the
    full ref the CI recipe names "ambiguous", with a fix that was the same command: every audit
    failed. git takes an existing full ref as itself first; so does audit."""
    ci = attacked(tmp_path)
    git(ci, "tag", "refs/remotes/origin/main", "HEAD")
    assert "refs/tags/refs/remotes/origin/main" in git(ci, "for-each-ref", "--format=%(refname)")
    for against in ("refs/remotes/origin/main", "refs/remotes/origin/main~0"):
        done = run_goalfile("audit", "--against", against, cwd=ci)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "ambiguous" not in done.stderr
        assert "contract-change-unapproved" in done.stdout
        assert "`test -f ok` → `true`" in done.stdout
    # a full ref that is not there is still read no other way without saying so
    git(ci, "update-ref", "-d", "refs/remotes/origin/main")
    git(ci, "update-ref", "refs/heads/refs/remotes/origin/main", "HEAD")
    refused = run_goalfile("audit", "--against", "refs/remotes/origin/main", cwd=ci)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "ambiguous" in refused.stderr
    assert "--against refs/remotes/origin/main`" not in refused.stderr
