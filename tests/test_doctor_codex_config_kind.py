"""`goalfile doctor` reports a project's `.codex/config.toml` (a file Codex reads hooks from)
that is no regular file of the repository: a folder, a FIFO, a symbolic link to nothing or in a
loop, a link to a file outside the repository (a clone does not have it, and it changes
without a commit). Each finding names the file and prints a fix that is run here as written;
doctor then reports nothing about it. A file that is not UTF-8 is named by its path as the
person reaches it. Real goalfile processes in a real git repository set up by `goalfile init`.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import host_env, make_git_repo, run_goalfile

BIN = str(Path(sys.executable).parent)  # holds the goalfile under test
CONFIG = Path(".codex") / "config.toml"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    root = make_git_repo(tmp_path / "project")
    done = run_goalfile(
        "init", "--no-goal", "--no-skills", cwd=root, env=host_env(tmp_path / "home")
    )
    assert done.returncode == 0, done.stderr
    return root


def config_findings(root: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    done = run_goalfile("doctor", "--json", cwd=root, env=env, timeout=30)
    document: dict[str, Any] = json.loads(done.stdout)
    return [
        f
        for f in document["findings"]
        if f["host"] == "codex" and f["health"] == "problem" and "config.toml" in f["detail"]
    ]


def plant(root: Path, kind: str) -> None:
    config = root / CONFIG
    if kind == "folder":
        config.mkdir()
        (config / "x.toml").write_text("a = 1\n", "utf-8")  # rmdir would not do
    elif kind == "fifo":
        os.mkfifo(config)
    elif kind == "dangling":
        config.symlink_to(root.parent / "gone.toml")
    elif kind == "loop":
        config.symlink_to("config.toml")
    elif kind == "outside":
        outside = root.parent / "elsewhere.toml"
        outside.write_text("[features]\ncodex_hooks = true\n", "utf-8")
        config.symlink_to(outside)


@pytest.mark.parametrize("kind", ["folder", "fifo", "dangling", "loop", "outside"])
def test_a_config_toml_that_is_no_file_of_the_repository_is_reported_with_a_fix(
    repo: Path, kind: str
) -> None:
    env = host_env(repo.parent / "home")
    plant(repo, kind)

    found = config_findings(repo, env)

    assert len(found) == 1, found
    assert found[0]["detail"].startswith(".codex/config.toml, where Codex reads hooks, "), found
    assert str(repo) not in found[0]["detail"]
    fix = found[0]["fix"]
    assert fix, found
    # only options every cp, rm and mv reads (macOS's cp has no --remove-destination)
    assert all(w == "--" or not w.startswith("--") for w in shlex.split(fix)), fix
    ran = subprocess.run(
        fix, shell=True, cwd=repo, env=env, capture_output=True, text=True, timeout=30
    )
    assert ran.returncode == 0, ran.stderr
    assert config_findings(repo, env) == []
    if kind == "outside":  # the settings it held are the project's own now
        assert not (repo / CONFIG).is_symlink()
        assert "codex_hooks = true" in (repo / CONFIG).read_text("utf-8")
    if kind == "folder":  # nothing of it lost
        assert (repo / ".codex" / "config.toml.folder" / "x.toml").is_file()


def test_a_link_inside_the_repository_is_no_finding(repo: Path) -> None:
    (repo / ".codex" / "shared.toml").write_text("[features]\ncodex_hooks = true\n", "utf-8")
    (repo / CONFIG).symlink_to("shared.toml")
    assert config_findings(repo, host_env(repo.parent / "home")) == []


def test_a_config_toml_that_is_not_utf8_is_named_as_the_person_reaches_it(repo: Path) -> None:
    (repo / CONFIG).write_bytes(b"a = 1\n\xff\xfe\n")
    found = config_findings(repo, host_env(repo.parent / "home"))
    assert len(found) == 1, found
    assert found[0]["detail"].startswith(".codex/config.toml: Codex cannot read the hooks in it")
    assert str(repo) not in found[0]["detail"] and "fix:" not in found[0]["detail"]


NOBODY = 65534


def test_a_config_toml_its_owner_may_not_read_gets_chmod(tmp_path: Path) -> None:
    """A `.codex/config.toml` of the person's own with mode 000 (Codex cannot read it either)
    is named with `chmod u+r`, which is run as written by the same user. Run as uid 65534 with
    util-linux's setpriv (root reads any file), with the system's Python of this version."""
    import shutil
    import sysconfig
    import tempfile

    setpriv = shutil.which("setpriv")
    assert setpriv, "util-linux's setpriv is needed to run goalfile as another user"
    python = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    assert os.access(python, os.X_OK), f"{python} is needed to run goalfile as another user"
    root = Path(tempfile.mkdtemp(prefix="goalfile-mode-"))
    try:
        os.chmod(root, 0o755)
        os.chown(root, NOBODY, NOBODY)
        repo = Path(__file__).resolve().parent.parent
        site = sysconfig.get_paths()["purelib"]
        program = root / "goalfile"
        program.write_text(
            f"#!{python}\nimport sys\nsys.path[:0] = [{str(repo)!r}, {site!r}]\n"
            "from goalfile.__main__ import run\nrun()\n",
            encoding="utf-8",
        )
        program.chmod(0o755)
        env = {"PATH": f"{root}:/usr/bin:/bin", "HOME": str(root), "GIT_CONFIG_GLOBAL": "/dev/null"}
        as_nobody = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]

        def run(command: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [*as_nobody, "sh", "-c", command], cwd=root, env=env, capture_output=True,
                text=True, timeout=60, check=False,
            )  # fmt: skip

        made = run("git init -q p && mkdir p/.codex && echo 'a = 1' > p/.codex/config.toml")
        assert made.returncode == 0, made.stderr
        run("chmod 000 p/.codex/config.toml")

        def found() -> list[dict[str, Any]]:
            done = run("cd p && goalfile doctor --json")
            document: dict[str, Any] = json.loads(done.stdout)
            return [
                f
                for f in document["findings"]
                if f["health"] == "problem" and f["detail"].startswith(".codex/config.toml")
            ]

        problems = found()
        assert len(problems) == 1, problems
        assert problems[0]["detail"].startswith(".codex/config.toml, where Codex reads hooks, ")
        assert problems[0]["fix"] == "chmod u+r -- .codex/config.toml", problems
        fixed = run(f"cd p && {problems[0]['fix']}")
        assert fixed.returncode == 0, fixed.stderr
        assert found() == []
    finally:
        shutil.rmtree(root, ignore_errors=True)
