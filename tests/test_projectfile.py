"""goalfile.commands.projectfile: a project file the notes of new read is read only when it is
a regular file; a FIFO at its name is not waited on. Real goalfile processes."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import make_git_repo, run_goalfile

from goalfile.commands.projectfile import read_whole


def test_a_fifo_at_a_project_file_is_not_waited_on(tmp_path: Path) -> None:
    """Fails before the change: `goalfile new` with `npm run x` over a package.json FIFO, or
    `make -f mk x` over a FIFO mk, waited for a writer forever."""
    repo = make_git_repo(tmp_path / "repo")
    for name in ("package.json", "mk", "tox.ini", "noxfile.py"):
        os.mkfifo(repo / name)
    for number, check in enumerate(("npm run x", "make -f mk x", "tox -e x", "nox -s x")):
        done = run_goalfile(
            "new", f"g{number}", "x", "--check", check, "--expected", "exit 0", cwd=repo,
            timeout=30,
        )  # fmt: skip
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert read_whole(repo / "mk") is None and read_whole(repo / "gone") is None


def test_a_regular_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    small, large = tmp_path / "small", tmp_path / "large"
    small.write_bytes(b"x" * 10)
    large.write_bytes(b"x" * ((1 << 20) + 1))
    assert read_whole(small) == b"x" * 10 and read_whole(large) is None
    assert read_whole(tmp_path) is None  # a folder
