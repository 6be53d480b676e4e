"""The pre-commit hook goalfile ships (`.pre-commit-hooks.yaml`), run by the real pre-commit from
PyPI the way a project uses it: a `.pre-commit-config.yaml` that names this repository at a
commit, next to mdformat (with its gfm and frontmatter plugins) as a local hook. pre-commit builds
both environments itself, so the hook entry, its `files` pattern, its `types` and the package's
install from source are what is tested, together with a commit of what goalfile wrote."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pre_commit  # noqa: F401  # the real tool: a missing test dependency fails loudly
import pytest

from tests.conftest import REPO, clean_env, git, goal_text, make_git_repo, row, run_goalfile

MDFORMAT = [
    f"{name}=={version(name)}" for name in ("mdformat", "mdformat-gfm", "mdformat-frontmatter")
]


def hosts_precommit_config() -> str:
    """The ```yaml block of docs/hosts.md's "## pre-commit" section, as written there."""
    text = (REPO / "docs" / "hosts.md").read_text(encoding="utf-8")
    section = text.split("\n## pre-commit\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```yaml\n", 1)[1].split("```", 1)[0]


def snapshot_of_this_checkout(dest: Path) -> str:
    """This checkout's files, tracked and new (as they are on disk), committed in ``dest``: the
    hook is installed from the code under test, not from an older commit."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
        env=clean_env(),
    ).stdout.decode()
    make_git_repo(dest)
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():  # a file deleted but not yet staged is listed and absent
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "snapshot")
    return git(dest, "rev-parse", "HEAD").strip()


class Hooks:
    """pre-commit with its own cache, shared by this module's tests (each environment is built
    once), over projects that name the snapshot in their config."""

    def __init__(self, root: Path) -> None:
        self.source = root / "goalfile-src"
        self.rev = snapshot_of_this_checkout(self.source)
        self.env = clean_env({"PRE_COMMIT_HOME": str(root / "pre-commit-home")})

    def config(self) -> str:
        """The `.pre-commit-config.yaml` docs/hosts.md gives, as a project writes it: the clone
        and its commit for CLONE and COMMIT, and the mdformat packages pinned to the versions
        installed here (so pre-commit's cache is reused)."""
        text = hosts_precommit_config()
        for placeholder, value in [
            ("repo: CLONE", f"repo: {self.source}"),
            ("rev: COMMIT", f"rev: {self.rev}"),
            ("[mdformat, mdformat-gfm, mdformat-frontmatter]", f"[{', '.join(MDFORMAT)}]"),
        ]:
            assert text.count(placeholder) == 1, (placeholder, text)
            text = text.replace(placeholder, value)
        return text

    def project(self, path: Path) -> Path:
        make_git_repo(path)
        (path / ".pre-commit-config.yaml").write_text(self.config(), encoding="utf-8")
        git(path, "add", ".pre-commit-config.yaml")
        git(path, "commit", "-q", "-m", "hooks")
        return path

    def run(self, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", *args],
            cwd=project,
            capture_output=True,
            text=True,
            env=self.env,
            timeout=900,  # the first run builds both environments (pip, from the registry)
            check=False,
        )

    def commit(self, project: Path, message: str) -> subprocess.CompletedProcess[str]:
        """``git commit`` through the hook `pre-commit install` put in ``.git/hooks``."""
        return subprocess.run(
            ["git", "commit", "-q", "-m", message],
            cwd=project,
            capture_output=True,
            text=True,
            env=self.env,
            timeout=900,
            check=False,
        )


# The tests of the module fixture `hooks` (pre-commit's environments, built from PyPI) run in one
# process under `pytest -n`, which builds it once.
pytestmark = pytest.mark.xdist_group("precommit")


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hooks]:
    yield Hooks(tmp_path_factory.mktemp("pre-commit"))


def hook_line(output: str, name: str) -> str:
    (line,) = [line for line in output.splitlines() if line.startswith(name + ".")]
    return line


def test_the_hook_fails_a_commit_of_a_broken_goal_and_names_file_and_line(
    hooks: Hooks, tmp_path: Path
) -> None:
    project = hooks.project(tmp_path / "project")
    broken = goal_text(status="draft", rows=[row("C1", "true", "exit 0; stdout matches /./")])
    for folder in ("goals", ".zetetic/goals/auth", "docs/goals"):
        (project / folder).mkdir(parents=True)
        (project / folder / "broken.md").write_text(broken, encoding="utf-8")
    git(project, "add", "-A")

    done = hooks.run(project, "run", "--all-files")

    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert hook_line(output, "goalfile lint").endswith("Failed"), output
    # the goal folders are linted (as mdformat left them), each finding with its file and the
    # line of the row; docs/ is not a goal folder
    for path in ("goals/broken.md", ".zetetic/goals/auth/broken.md"):
        lines = (project / path).read_text(encoding="utf-8").splitlines()
        line = next(n for n, text in enumerate(lines, 1) if text.startswith("| C1"))
        assert f"{path}:{line}:" in output, output
    assert "docs/goals/broken.md" not in output, output


def test_a_goal_goalfile_wrote_is_committed_through_mdformat_and_the_hook(
    hooks: Hooks, tmp_path: Path
) -> None:
    """The first hour: init, commit, fill in, commit (mdformat pads the tables a person edited),
    activate, verify, commit. goalfile's own writes are already in mdformat's style, so the
    commit after activate and verify passes both hooks the first time, and the goal audits
    clean against the commit before them."""
    project = hooks.project(tmp_path / "project")
    installed = hooks.run(project, "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert run_goalfile("init", "--no-hooks", "--slug", "hello", cwd=project).returncode == 0
    goal = project / "goals" / "hello.md"
    git(project, "add", "-A")

    first = hooks.commit(project, "a draft goal")
    # mdformat rewrote the starter's compact tables: the commit stops, the draft still lints
    said = first.stdout + first.stderr  # git runs the hook with its output on stderr
    assert first.returncode == 1, said
    assert hook_line(said, "mdformat").endswith("Failed"), said
    assert hook_line(said, "goalfile lint").endswith("Passed"), said
    assert "files were modified by this hook" in said
    git(project, "add", "-A")
    second = hooks.commit(project, "a draft goal")
    assert second.returncode == 0, second.stdout + second.stderr

    text = goal.read_text(encoding="utf-8")
    for placeholder, value in [
        ("FILL IN: one measurable end state", "hello.txt greets"),
        ("FILL IN: what must stay unchanged", "nothing else changes"),
        ("FILL IN: what must hold", "the greeting is there"),
        ("FILL IN: the command", "`cat hello.txt`"),
        ("FILL IN: what a passing run looks like, e.g. exit 0", 'exit 0; stdout contains "hi"'),
    ]:
        assert placeholder in text, text
        text = text.replace(placeholder, value)
    goal.write_text(text, encoding="utf-8")
    git(project, "add", "-A")
    # the filled-in row is wider than the padded table: mdformat pads it again, once
    assert hooks.commit(project, "the goal").returncode == 1
    git(project, "add", "-A")
    filled = hooks.commit(project, "the goal")
    assert filled.returncode == 0, filled.stdout + filled.stderr

    assert run_goalfile("activate", "goals/hello.md", cwd=project).returncode == 0
    (project / "hello.txt").write_text("hi\n", encoding="utf-8")
    verified = run_goalfile("verify", "goals/hello.md", cwd=project)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    git(project, "add", "-A")

    before = goal.read_bytes()
    third = hooks.commit(project, "hello is met")
    assert goal.read_bytes() == before, git(project, "diff")  # nothing for mdformat to change
    assert third.returncode == 0, third.stdout + third.stderr

    audit = run_goalfile("audit", "--against", "HEAD~1", "goals/hello.md", cwd=project)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    status = run_goalfile("status", "goals/hello.md", cwd=project)
    assert status.stdout.startswith("hello: met"), status.stdout


def test_a_wrapping_mdformat_hook_is_stopped_by_the_lint_hook_and_its_fix_works(
    hooks: Hooks, tmp_path: Path
) -> None:
    """A project that wraps its Markdown (`mdformat --wrap 60`) runs it on a goal goalfile
    verified: the commit stops, and goalfile-lint names the file and the line where an entry's
    `status:` and `contract:` lines were first joined (the approval's), with `git checkout --
    PATH` as the fix (the hook's change is unstaged). Run as printed, it gives back the staged
    file; without `--wrap` on goal files the commit passes and the goal audits clean."""
    project = hooks.project(tmp_path / "project")
    config = project / ".pre-commit-config.yaml"
    unwrapped = config.read_text(encoding="utf-8")
    wrapping = unwrapped.replace("entry: mdformat\n", "entry: mdformat --wrap 60\n", 1)
    assert wrapping != unwrapped
    config.write_text(wrapping, encoding="utf-8")
    assert hooks.run(project, "install").returncode == 0
    made = run_goalfile(
        "new", "hello", "hello.txt greets", "--activate", "--commit",
        "--check", "cat hello.txt", "--expected", 'exit 0; stdout contains "hi"',
        cwd=project,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    (project / "hello.txt").write_text("hi\n", encoding="utf-8")
    assert run_goalfile("verify", "goals/hello.md", cwd=project).returncode == 0
    git(project, "add", "-A")
    staged = (project / "goals" / "hello.md").read_bytes()

    stopped = hooks.commit(project, "hello is met")
    said = stopped.stdout + stopped.stderr
    assert stopped.returncode == 1, said
    assert hook_line(said, "mdformat").endswith("Failed"), said
    assert hook_line(said, "goalfile lint").endswith("Failed"), said
    wrapped = (project / "goals" / "hello.md").read_text(encoding="utf-8").split("\n")
    found = [
        line for line in said.splitlines() if line.startswith("goals/hello.md:") and "error" in line
    ]
    assert len(found) == 1 and "joined into one" in found[0], said
    number = int(found[0].split(":")[1])
    assert wrapped[number - 1].startswith("status: active contract: "), (found, wrapped)
    fix = re.search(r"`(git checkout -- goals/hello\.md)` undoes an unstaged one", said)
    assert fix is not None, said
    subprocess.run(fix.group(1), shell=True, cwd=project, check=True, env=clean_env())
    assert (project / "goals" / "hello.md").read_bytes() == staged

    config.write_text(unwrapped, encoding="utf-8")  # goal files formatted without --wrap
    git(project, "add", "-A")
    done = hooks.commit(project, "hello is met")
    if done.returncode == 1:  # mdformat's own style once, as for any commit of a new goal
        git(project, "add", "-A")
        done = hooks.commit(project, "hello is met")
    assert done.returncode == 0, done.stdout + done.stderr
    audit = run_goalfile("audit", "--against", "HEAD~1", "goals/hello.md", cwd=project)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    status = run_goalfile("status", "goals/hello.md", cwd=project)
    assert status.stdout.startswith("hello: met"), status.stdout


def met_goal_committed(hooks: Hooks, project: Path) -> None:
    """goals/hello.md made, met and committed through the hooks (mdformat's style once)."""
    assert hooks.run(project, "install").returncode == 0
    made = run_goalfile(
        "new", "hello", "hello.txt greets", "--activate", "--commit",
        "--check", "cat hello.txt", "--expected", 'exit 0; stdout contains "hi"',
        cwd=project,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    (project / "hello.txt").write_text("hi\n", encoding="utf-8")
    assert run_goalfile("verify", "goals/hello.md", cwd=project).returncode == 0
    for _ in range(2):
        git(project, "add", "-A")
        done = hooks.commit(project, "hello is met")
        if done.returncode == 0:
            break
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("how", ["staged", "committed"])
def test_a_goal_rewrapped_by_hand_and_staged_or_committed_gets_a_fix_that_works(
    hooks: Hooks, tmp_path: Path, how: str
) -> None:
    """A person runs `mdformat --wrap 60` on a met goal by hand and stages it (the commit is
    stopped by goalfile-lint), or commits it past the hooks (`--no-verify`; every command then
    refuses the goal). `git checkout -- PATH`, the fix for an unstaged change, would put back
    the rewrapped copy git holds: the fix names the copy to take instead (HEAD's, or the
    newest commit that holds the file unwrapped), and run as printed, through the hooks, it
    gives back the goal as it was: met, lint clean, audited clean."""
    project = hooks.project(tmp_path / "project")
    met_goal_committed(hooks, project)
    good = (project / "goals" / "hello.md").read_bytes()
    git(project, "tag", "met")
    wrap = [sys.executable, "-m", "mdformat", "--wrap", "60", "goals/hello.md"]
    subprocess.run(wrap, cwd=project, check=True, env=clean_env())
    git(project, "add", "goals/hello.md")
    if how == "staged":
        stopped = hooks.commit(project, "wrapped")
        said = stopped.stdout + stopped.stderr
        assert stopped.returncode == 1 and hook_line(said, "goalfile lint").endswith("Failed")
        expected = (
            r"the formatter's change is staged, .*?: `(git checkout HEAD -- goals/hello\.md)`"
        )
    else:
        git(project, "commit", "-q", "--no-verify", "-m", "wrapped, past the hooks")
        (project / "notes.txt").write_text("later work\n", encoding="utf-8")
        git(project, "add", "notes.txt")
        assert hooks.commit(project, "later work").returncode == 0  # the goal is not in it
        refused = run_goalfile("verify", "--no-write", "goals/hello.md", cwd=project)
        assert refused.returncode == 3, refused.stdout + refused.stderr
        said = run_goalfile("lint", "goals/hello.md", cwd=project).stderr
        assert refused.stderr.split("\n", 1)[1] in said, (refused.stderr, said)  # one fix
        expected = r"the formatter's change was committed, .*?: `(git checkout [0-9a-f]{12} .*?)`"
    assert said.count("error: ") == 1 and "joined into one" in said, said
    assert "`git checkout -- goals/hello.md`" not in said, said  # it would change nothing
    fix = re.search(expected, said)
    assert fix is not None, said
    done = subprocess.run(
        fix.group(1), shell=True, cwd=project, env=hooks.env, capture_output=True, text=True
    )
    assert done.returncode == 0, (fix.group(1), done.stdout, done.stderr)

    assert (project / "goals" / "hello.md").read_bytes() == good
    assert git(project, "status", "--porcelain") == ""
    lint = run_goalfile("lint", "goals/hello.md", cwd=project)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    status = run_goalfile("status", "goals/hello.md", cwd=project)
    assert status.stdout.startswith("hello: met"), status.stdout
    audit = run_goalfile("audit", "--against", "met", "goals/hello.md", cwd=project)
    assert audit.returncode == 0, audit.stdout + audit.stderr
