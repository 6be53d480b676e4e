"""A new user's first hour on two projects whose pytest configuration needs plugins their
Python lacks: aiofiles 24.1.0 (`asyncio_mode = "auto"` in pyproject.toml, a package under src/,
tox.ini) and coverage 7.6.1 (`addopts = "-q -n auto ... --no-flaky-report ..."` in
pyproject.toml: pytest-xdist and flaky). The sdists are downloaded once into the cache outside
the clone (tests/test_walk.sdist).

Without the plugin pytest prints only its own error (`unrecognized arguments: -n`, or each
`async def` test failing), and no work on the code meets the row: `new` and `verify` name the
plugin, what asks for it, and the command that installs it into the Python the check runs,
which is run here as printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

from tests.conftest import make_git_repo, run_goalfile
from tests.test_operands_pluggy import new_with_notes
from tests.test_walk import sdist
from tests.test_walk_cachetools import project_venv

# pytest and what it imports, without a plugin: the venv below sees only these
PYTEST_ONLY = ("pytest", "_pytest", "py.py", "pluggy", "iniconfig", "packaging", "pygments")


def unpacked(tmp_path: Path, project: str, version: str, name: str) -> Path:
    with tarfile.open(sdist(project, version, f"{name}.tar.gz")) as archive:
        archive.extractall(tmp_path, filter="data")
    return make_git_repo(tmp_path / name)


def pytest_venv(project: Path, tmp_path: Path, *, src: bool = False) -> Path:
    """`python -m venv .venv` in the project, with pytest (this test's own, through a .pth
    path line to a folder that holds pytest and what it imports, but no plugin) and, with
    ``src``, the project's `src/` on its path (as `pip install -e .` would put it)."""
    python, places = project_venv(project)
    ours = next(p for p in sys.path if p.endswith("site-packages") and Path(p, "pytest").is_dir())
    only = tmp_path / "pytest-only"
    only.mkdir()
    for entry in os.listdir(ours):
        if entry.split("-", 1)[0] in PYTEST_ONLY or entry in PYTEST_ONLY:
            (only / entry).symlink_to(Path(ours, entry))
    lines = [str(only)] + ([str(project / "src")] if src else [])
    Path(places, "goalfile-tests.pth").write_text("\n".join(lines) + "\n")
    (project / ".git" / "info").mkdir(parents=True, exist_ok=True)
    (project / ".git" / "info" / "exclude").write_text(".venv\n")
    return python


def environ(tmp_path: Path) -> dict[str, str]:
    path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    return {"PATH": path, "HOME": str(tmp_path)}


def verify_all(project: Path, env: dict[str, str]) -> tuple[list[dict[str, str]], list[str]]:
    """`verify --no-write --json` and `verify --no-write` of goals/first.md: the rows of the
    first, and the `note: C` lines the second printed."""
    ran = run_goalfile(
        "verify", "--no-write", "--json", "goals/first.md", cwd=project, env=env, timeout=600
    )
    assert "Traceback" not in ran.stderr, ran.stderr
    rows = json.loads(ran.stdout)["rows"]
    shown = run_goalfile(
        "verify", "--no-write", "goals/first.md", cwd=project, env=env, timeout=600
    )
    assert "Traceback" not in shown.stderr, shown.stderr
    notes = [line for line in shown.stderr.splitlines() if line.startswith("note: C")]
    return rows, notes


def verify(project: Path, env: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """C1's row and the notes of :func:`verify_all`."""
    rows, notes = verify_all(project, env)
    return rows[0], notes


def run_fix(command: str, project: Path, env: dict[str, str]) -> None:
    """The printed command, run as written by /bin/sh where the checks run."""
    done = subprocess.run(
        ["/bin/sh", "-c", command], cwd=project, env=env,
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, (command, done.stdout, done.stderr)


def test_asyncio_mode_without_pytest_asyncio_is_named_with_its_install(tmp_path: Path) -> None:
    project = unpacked(tmp_path, "aiofiles", "24.1.0", "aiofiles-24.1.0")
    pytest_venv(project, tmp_path, src=True)
    env = environ(tmp_path)
    check = ".venv/bin/python -m pytest -q -p no:cacheprovider tests/threadpool/test_text.py"
    install = ".venv/bin/python -m pip install pytest-asyncio"
    notes = new_with_notes(project, "the text-file tests pass", [check], env)
    assert notes["C1"] == (
        "note: C1: the tests need pytest-asyncio (`asyncio_mode = auto` in `pyproject.toml`), "
        "which `.venv/bin/python` cannot import where the checks run: pytest fails each `async "
        "def` test (async def functions are not natively supported), and verify judges the row "
        f"`unmet` until `{install}` installs it"
    ), notes
    # what the note says: the real pytest fails every async test, and verify says why
    row, said = verify(project, env)
    assert (row["verdict"], row["exit"]) == ("unmet", "1"), row
    assert said == [
        "note: C1: the tests need pytest-asyncio (`asyncio_mode = auto` in `pyproject.toml`), "
        f"which `.venv/bin/python` cannot import where the checks run; `{install}` (where the "
        "checks run) installs it"
    ], said
    run_fix(install, project, env)
    row, said = verify(project, env)
    assert (row["verdict"], row["exit"], said) == ("met", "0", []), (row, said)


def test_xdist_and_flaky_options_in_addopts_are_named_with_their_install(tmp_path: Path) -> None:
    project = unpacked(tmp_path, "coverage", "7.6.1", "coverage-7.6.1")
    pytest_venv(project, tmp_path)
    env = environ(tmp_path)
    check = ".venv/bin/python -m pytest tests/test_misc.py"
    bare = ".venv/bin/python -m pytest --noconftest tests/test_misc.py"  # without its plugin
    install = ".venv/bin/python -m pip install pytest-xdist flaky"
    needs = (
        "the tests need pytest-xdist (`-n` in the `addopts` in `pyproject.toml`) and flaky "
        "(`--no-flaky-report` in the `addopts` in `pyproject.toml`), which `.venv/bin/python` "
        "cannot import where the checks run"
    )
    notes = new_with_notes(project, "the misc tests pass", [check, bare], env)
    for cid in ("C1", "C2"):
        assert notes[cid] == (
            f"note: {cid}: {needs}: pytest stops at its usage error, exit 4, before any test "
            f"runs, and verify judges the row `unmet` until `{install}` installs them"
        ), notes
    # coverage's own conftest.py loads a plugin of its own that imports xdist: pytest exits 3;
    # without it, pytest's usage error, the evidence the line that says why (not the
    # `rootdir: ...` line pytest ends it with)
    rows, said = verify_all(project, env)
    assert [(row["verdict"], row["exit"]) for row in rows] == [("unmet", "3"), ("unmet", "4")]
    assert rows[1]["evidence"] == (
        "python -m pytest: error: unrecognized arguments: -n --no-flaky-report tests/test_misc.py"
    ), rows[1]
    assert said == [
        f"note: {cid}: {needs}; `{install}` (where the checks run) installs them"
        for cid in ("C1", "C2")
    ], said
    run_fix(install, project, env)
    rows, said = verify_all(project, env)
    assert all(row["exit"] not in ("3", "4") for row in rows), rows  # pytest got past them
    assert said == [], said


def test_pytest_9s_own_table_in_pyproject_is_read(tmp_path: Path) -> None:
    """pytest 9 reads `[tool.pytest]` with TOML values (a list for `addopts`) as well as
    `[tool.pytest.ini_options]`; the real pytest refuses `-n` from it without pytest-xdist."""
    from goalfile.commands.pytestplugins import needs

    (tmp_path / "pyproject.toml").write_text(
        '[tool.pytest]\naddopts = ["-n", "2"]\nstrict_config = true\nasyncio_mode = "auto"\n'
    )
    found = [(need.package, need.asked, need.option) for need in needs([], tmp_path)]
    assert found == [
        ("pytest-xdist", "`-n` in the `addopts` in `pyproject.toml`", True),
        ("pytest-asyncio", "`asyncio_mode = auto` in `pyproject.toml`", True),
    ], found
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 4 and "unrecognized arguments: -n" in done.stderr, done.stderr
