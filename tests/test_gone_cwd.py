"""A command run in a folder deleted while the shell was in it (`rm -rf build` from inside it,
a `git checkout` that removes it): `os.getcwd()` has no answer. Every command printed a
traceback (FileNotFoundError, exit 1), `goalfile mcp` too; each now says so, with the fix, and
exits 2 (a usage error)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import clean_env

# (sh's $0 and $@: python, then its arguments) the folder deleted by the shell that is in it
IN_GONE = 'cd gone && rmdir ../gone && exec "$0" "$@"'


@pytest.mark.parametrize("args", [["status"], ["verify", "auth"], ["new", "x"], ["mcp"]])
def test_a_command_in_a_deleted_folder_says_so(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "gone").mkdir()
    done = subprocess.run(
        ["sh", "-c", IN_GONE, sys.executable, "-m", "goalfile", *args],
        cwd=tmp_path, env=clean_env(), stdin=subprocess.DEVNULL, capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr == (
        "goalfile: the current folder is gone (deleted while the shell was in it); nothing "
        'was read\n  fix: `cd ..`, or `cd -- "$PWD"` once the folder is made again\n'
    )
    assert not (tmp_path / "gone").exists() and list(tmp_path.iterdir()) == []
